# Test helpers, POSIX sh: the host runs them under bash, the VM guests under
# busybox sh.  Each check prints one line, "PASS: name" or "FAIL: name",
# which tests/run (or the VM rig, from the serial console) counts.
#
#   expect NAME STATUS EXPECTED_STDOUT CMD...   exit status and stdout exact
#   expect_err NAME STATUS PATTERN CMD...       exit status, stdout empty,
#                                               stderr one line matching
#                                               the grep -E PATTERN
#   pass NAME / fail NAME [WHY]                 for checks of your own
#   run_unit NAME                               the C unit test $O/NAME
#   refuse NAME STATUS PATTERN CMD...           expect_err, then the check
#                                               "NAME: nothing changed": the
#                                               caller's function `state`
#                                               prints the same after CMD

KIT=${KIT:-kit}
T_OUT=${TMPDIR:-/tmp}/kit-test.$$.out
T_ERR=${TMPDIR:-/tmp}/kit-test.$$.err

pass() { echo "PASS: $1"; }

fail() {
	echo "FAIL: $1"
	shift
	[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /'
	return 0
}

# t_run NAME STATUS WANT CMD...: runs CMD with stdout and stderr captured
# and fails the check NAME unless CMD exits with STATUS.  Returns 0 when
# the caller should go on checking.
t_run() {
	t_name=$1 t_status=$2
	shift 3
	t_cmd="$*"
	"$@" >"$T_OUT" 2>"$T_ERR"
	t_got=$?
	[ "$t_got" = "$t_status" ] && return 0
	fail "$t_name" "command: $t_cmd" "exit status $t_got, want $t_status" \
		"stderr: $(cat "$T_ERR")"
	return 1
}

expect() {
	t_check=$1 t_want=$3
	t_run "$@" || return 0
	if [ "$(cat "$T_OUT")" != "$t_want" ]; then
		fail "$t_check" "command: $t_cmd" "stdout:" "$(cat "$T_OUT")" \
			"want:" "$t_want"
	else
		pass "$t_check"
	fi
}

expect_err() {
	t_check=$1 t_pat=$3
	t_run "$@" || return 0
	if [ -s "$T_OUT" ]; then
		fail "$t_check" "command: $t_cmd" \
			"unexpected stdout: $(cat "$T_OUT")"
	elif [ "$(wc -l <"$T_ERR")" -ne 1 ] || ! grep -Eq -- "$t_pat" "$T_ERR"; then
		fail "$t_check" "command: $t_cmd" "stderr: $(cat "$T_ERR")" \
			"want one line matching: $t_pat"
	else
		pass "$t_check"
	fi
}

run_unit() {
	if [ -x "$O/$1" ]; then
		"$O/$1" || fail "$1 exited with status $?"
	else
		fail "$1" "$O/$1 is missing: make unit"
	fi
}

refuse() {
	r_before=$(state)
	expect_err "$@"
	if [ "$(state)" = "$r_before" ]; then
		pass "$1: nothing changed"
	else
		fail "$1: nothing changed" "before:" "$r_before" "after:" "$(state)"
	fi
}

t_cleanup() { rm -f "$T_OUT" "$T_ERR"; }

# durations: "ON OFF" of a LED's changes on stdin, lines "USEC LEVEL ...":
# the mean milliseconds it spent on (LEVEL above 0) and off between them,
# the first and last left out.  The guests' LED logs: vled's
# (tests/guest/mcled.sh), a board's GPIO lines (tests/guest/ledboard.sh).
durations() {
	awk '{ t[NR] = $1; b[NR] = $2 }
	END {
		for (i = 2; i < NR; i++) {
			d = (t[i + 1] - t[i]) / 1000
			if (b[i] > 0) { on += d; non++ } else { off += d; noff++ }
		}
		if (non && noff) printf "%d %d\n", on / non, off / noff
	}'
}
# row COLOR INTENSITY VALUE MAX: a line of mcled get's table, which has a
# max column where the kernel has per-channel maxima (7.2: maxes=1).
row() {
	if [ "$maxes" = 1 ]; then
		printf '  %-10s %9s %6s %6s\n' "$1" "$2" "$4" "$3"
	else
		printf '  %-10s %9s %6s\n' "$1" "$2" "$3"
	fi
}
# within N LOW HIGH: LOW <= N <= HIGH.
within() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# The applets, by name, sorted, one a line: the Makefile's list (applets
# with a KIT_APPLET line), written there once.
all_applets() {
	env -u KIT make -s --no-print-directory \
		--eval='print-applets: ; @printf "%s\n" $(ALL_APPLETS)' \
		print-applets
}
trap t_cleanup EXIT
