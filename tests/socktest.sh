# What tests/tcpiter.t and tests/udpiter.t share (bash): a socket zoo in a
# network namespace of its own, so the host's sockets cannot race, and
# checks of the applet's output against /proc there (tests/sockcompare).
# The including suite sets P=tcp or P=udp first.
. "$TESTS/lib.sh"

APPLET=${P}iter
SOCKZOO=$O/sockzoo
NSNAME=kit-$APPLET-$$
W=$(mktemp -d)
ZOO=
HOLDERS=

socktest_cleanup() {
	local pid

	for pid in $HOLDERS; do
		kill "$pid" 2>/dev/null
	done
	ip netns del "$NSNAME" 2>/dev/null
	mountpoint -q "$W/bpffs" && umount "$W/bpffs"
	rm -rf "$W"
	t_cleanup
}
trap socktest_cleanup EXIT

# sockzoo, static as the VM guests need it, built when older than its source.
build_sockzoo() {
	[ "$SOCKZOO" -nt "$TESTS/sockzoo.c" ] && return 0
	mkdir -p "$O" && cc -static -O2 -Wall -o "$SOCKZOO" "$TESTS/sockzoo.c"
}

# hold CMD...: CMD starts a sockzoo holder (see tests/sockzoo.c) and
# prints its pid; HELD is that pid, killed at the end.
hold() {
	HELD=$("$@") || return 1
	HOLDERS="$HOLDERS $HELD"
}

# The zoo in a new network namespace, also known by the name $NSNAME.
start_zoo() {
	hold unshare -n "$SOCKZOO" zoo && ZOO=$HELD &&
		ip netns attach "$NSNAME" "$ZOO"
}

in_zoo() {
	nsenter -t "$ZOO" -n "$@"
}

# The /proc tables that the applet's arguments select.
proc_tables() {
	case " $* " in
	*" -4 "*)	echo /proc/net/$P ;;
	*" -6 "*)	echo /proc/net/${P}6 ;;
	*)		echo /proc/net/$P /proc/net/${P}6 ;;
	esac
}

# The arguments sockcompare takes for the applet's: the output format,
# then all but -4 and -6 (the tables given choose the family).
compare_args() {
	local a format=proc

	for a in "$@"; do
		case $a in
		-t) format=table ;;
		-j) format=json ;;
		-c) format=count ;;
		esac
	done
	echo -f
	echo $format
	for a in "$@"; do
		case $a in
		-4|-6|-t|-j|-c) ;;
		*) printf '%s\n' "$a" ;;
		esac
	done
}

# compare NAME "ARGS" CMD...: runs CMD, which prints the applet's output for
# ARGS (word-split), between two reads of the zoo's /proc tables, and checks
# it with sockcompare.  CMD must exit 0 with stderr empty, and the filter
# must select at least one socket, unless EMPTY=1.  Retries when the zoo
# itself moved meanwhile (a TIME_WAIT or SYN_SENT socket timing out).
compare() {
	local name=$1 args=$2 try status rc
	local -a cmp
	shift 2

	mapfile -t cmp < <(compare_args $args)
	for try in 1 2 3; do
		in_zoo cat $(proc_tables $args) >"$W/before"
		"$@" >"$W/kit" 2>"$W/err"
		status=$?
		in_zoo cat $(proc_tables $args) >"$W/after"
		"$TESTS/sockcompare" -p $P "${cmp[@]}" "$W/before" "$W/kit" \
			"$W/after" >"$W/diff"
		rc=$?
		[ $rc -ne 3 ] && break
	done
	if [ $status -ne 0 ] || [ -s "$W/err" ]; then
		fail "$name" "command: $*" "exit status $status" \
			"stderr: $(cat "$W/err")"
	elif [ $rc -ne 0 ]; then
		fail "$name" "command: $*" "$(cat "$W/diff")"
	elif [ "$(cat "$W/diff")" = "equal: 0 sockets" ] &&
	     [ "${EMPTY:-0}" != 1 ]; then
		fail "$name" "command: $*" "no socket passes: the check proves nothing"
	else
		pass "$name"
	fi
}

# check ARGS...: the applet run in the zoo with ARGS, against /proc.
check() {
	compare "$APPLET $*" "$*" in_zoo "$KIT" "$APPLET" "$@"
}

# Every output form, with and without its header.
check_outputs() {
	local form

	for form in "" -t -j -c; do
		check $form
		[ "$form" != -j ] && check $form -H
	done
	check -4
	check -6
	check -4 -t
	check -6 -j
	check -6 -c
}

# -N by name, by path and by PID, from this netns; --all-netns sections.
check_netns() {
	local inode

	compare "$APPLET -N NAME" "" "$KIT" "$APPLET" -N "$NSNAME"
	compare "$APPLET -N /run/netns/NAME" "" \
		"$KIT" "$APPLET" -N "/run/netns/$NSNAME"
	compare "$APPLET -N /proc/PID/ns/net" "" \
		"$KIT" "$APPLET" -N "/proc/$ZOO/ns/net"
	compare "$APPLET -N PID" "" "$KIT" "$APPLET" -N "$ZOO"
	compare "$APPLET -N NAME -j --uid 4242" "-j --uid 4242" \
		"$KIT" "$APPLET" -N "$NSNAME" -j --uid 4242
	compare "$APPLET --all-netns: the zoo's section" "" \
		zoo_section --all-netns
	compare "$APPLET --all-netns -t -s established: the zoo's section" \
		"-t -s established" zoo_section --all-netns -t -s established
	compare "$APPLET --all-netns -j: the zoo's objects" "-j" \
		zoo_section --all-netns -j
	check_all_netns
}

# The part of the applet's --all-netns output (ARGS) about the zoo: the
# lines after its "# netns net:[INODE] NAME" line, or its -j objects
# (their "netns" field removed).  Fails when the zoo is not there once.
zoo_section() {
	local id="net:[$(stat -L -c %i "/proc/$ZOO/ns/net")]"

	"$KIT" "$APPLET" "$@" >"$W/all" || return
	if [[ " $* " == *" -j "* ]]; then
		grep -F "\"netns\":\"$id $NSNAME\"," "$W/all" |
			sed 's/"netns":"[^"]*",//'
		return 0
	fi
	[ "$(grep -cxF "# netns $id $NSNAME" "$W/all")" = 1 ] || return 1
	awk -v head="# netns $id $NSNAME" '
		/^# netns / { on = $0 == head; next }
		on' "$W/all"
}

# --all-netns: this netns and the zoo's, each once; every line a section
# line or a /proc line.
check_all_netns() {
	local own zoo

	own="net:[$(stat -L -c %i /proc/self/ns/net)]"
	zoo="net:[$(stat -L -c %i "/proc/$ZOO/ns/net")]"
	"$KIT" "$APPLET" --all-netns >"$W/all" 2>"$W/err"
	if [ $? -ne 0 ] || [ -s "$W/err" ]; then
		fail "$APPLET --all-netns: every netns once" "$(cat "$W/err")"
	elif [ "$(grep -cF "# netns $own " "$W/all")" != 1 ] ||
	     [ "$(grep -cF "# netns $zoo " "$W/all")" != 1 ] ||
	     [ -n "$(grep '^# netns ' "$W/all" | cut -d' ' -f3 | sort |
		    uniq -d)" ]; then
		fail "$APPLET --all-netns: every netns once" \
			"want $own and $zoo once each:" \
			"$(grep '^# netns ' "$W/all")"
	elif ! grep -v '^# netns ' "$W/all" >"$W/rows" ||
	     ! "$TESTS/sockcompare" -p $P --lines "$W/rows" >"$W/diff"; then
		fail "$APPLET --all-netns: every netns once" "$(cat "$W/diff")"
	else
		pass "$APPLET --all-netns: every netns once"
	fi
}

# pin -4/-6 on a private bpffs; each cat is a fresh /proc table of the
# reader's netns; rm removes it.
check_pin() {
	local fs=$W/bpffs

	if ! mkdir "$fs" || ! mount -t bpf bpf "$fs"; then
		fail "$APPLET pin: mount a bpffs"
		return
	fi
	expect "$APPLET pin -4 PATH" 0 "" in_zoo "$KIT" "$APPLET" pin -4 "$fs/v4"
	compare "cat PATH (pin -4)" "-4" in_zoo cat "$fs/v4"
	hold in_zoo "$SOCKZOO" $P 3 6000
	compare "cat PATH again: a fresh table" "-4" in_zoo cat "$fs/v4"
	if grep -q ':1770 ' "$W/kit"; then
		pass "cat PATH again: new sockets in it"
	else
		fail "cat PATH again: new sockets in it" "no port 6000 in:" \
			"$(cat "$W/kit")"
	fi
	expect "$APPLET pin -6 PATH" 0 "" in_zoo "$KIT" "$APPLET" pin -6 "$fs/v6"
	compare "cat PATH (pin -6)" "-6" in_zoo cat "$fs/v6"
	expect "$APPLET pin -4 -s established --dport 6000 PATH" 0 "" \
		in_zoo "$KIT" "$APPLET" pin -4 -s established --dport 6000 \
		"$fs/filtered"
	compare "cat PATH (pin -4 -s established --dport 6000)" \
		"-4 -s established --dport 6000" in_zoo cat "$fs/filtered"
	expect_err "$APPLET pin: PATH exists" 1 "^$APPLET: .*exists" \
		"$KIT" "$APPLET" pin -4 "$fs/v4"
	expect_err "$APPLET pin: PATH not on bpffs" 1 "^$APPLET: .*bpffs" \
		"$KIT" "$APPLET" pin -4 "$W/v4"
	expect_err "$APPLET pin: no table chosen" 2 "^$APPLET: " \
		"$KIT" "$APPLET" pin "$fs/both"
	if rm "$fs/v4" "$fs/v6" "$fs/filtered" &&
	   ! ls "$fs/v4" "$fs/v6" "$fs/filtered" 2>/dev/null; then
		pass "rm PATH removes the pinned iterator"
	else
		fail "rm PATH removes the pinned iterator"
	fi
	umount "$fs"
}

# Refusals: usage errors exit 2, runtime errors 1, one line naming the
# applet, nothing on stdout.
check_errors() {
	local a=$APPLET

	expect_err "$a: unknown option" 2 "^$a: " "$KIT" $a --bogus
	expect_err "$a: unknown state" 2 "^$a: .*state" "$KIT" $a -s bogus
	expect_err "$a: port out of range" 2 "^$a: .*port" \
		"$KIT" $a --sport 65536
	expect_err "$a: prefix too long" 2 "^$a: .*--src" \
		"$KIT" $a --src 10.0.0.0/33
	expect_err "$a: bad address" 2 "^$a: .*--dst" "$KIT" $a --dst ::1::2
	expect_err "$a: bad uid" 2 "^$a: .*uid" "$KIT" $a --uid -1
	expect_err "$a: -t and -j" 2 "^$a: " "$KIT" $a -t -j
	expect_err "$a: -N and --all-netns" 2 "^$a: " \
		"$KIT" $a -N "$NSNAME" --all-netns
	expect_err "$a: stray argument" 2 "^$a: " "$KIT" $a established
	expect_err "$a: pin without PATH" 2 "^$a: " "$KIT" $a pin -4
	expect_err "$a: unknown netns name" 1 "^$a: .*nosuch-$$" \
		"$KIT" $a -N nosuch-$$
	expect_err "$a: netns of no process" 1 "^$a: " "$KIT" $a -N 999999999
	expect_err "$a: not root" 1 "^$a: need root or CAP_BPF$" \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$KIT" $a
	expect_err "$a: root without capabilities" 1 \
		"^$a: need root or CAP_BPF$" \
		setpriv --inh-caps=-all --bounding-set=-all "$KIT" $a
	# A kernel without BTF has no /sys/kernel/btf/vmlinux: hide it.
	expect_err "$a: kernel without BTF" 1 "^$a: .*BTF" \
		unshare -m sh -c 'mount -t tmpfs none /sys/kernel/btf &&
			exec "$0" "$1"' "$KIT" $a
}

# Sockets opening and closing while the applet walks them: every run
# exits 0 and every line parses (proc and JSON Lines output).
check_churn() {
	local churn runs=0 why=

	in_zoo "$SOCKZOO" churn 6 &
	churn=$!
	while [ -z "$why" ] && kill -0 $churn 2>/dev/null; do
		runs=$((runs + 1))
		if ! in_zoo "$KIT" "$APPLET" >"$W/kit" 2>"$W/err" ||
		   [ -s "$W/err" ]; then
			why="run $runs failed: $(cat "$W/err")"
		elif [ "$(grep -c '^ *sl ' "$W/kit")" != 2 ] ||
		     ! "$TESTS/sockcompare" -p $P --lines "$W/kit" >"$W/diff"; then
			why="run $runs: $(cat "$W/diff")"
		elif ! in_zoo "$KIT" "$APPLET" -j >"$W/kit" 2>"$W/err" ||
		     [ -s "$W/err" ] || grep -qv '^{".*}$' "$W/kit"; then
			why="run $runs (-j): $(cat "$W/err") $(grep -v \
				'^{".*}$' "$W/kit" | head -3)"
		fi
	done
	wait $churn
	if [ -n "$why" ]; then
		fail "$APPLET under churn" "$why"
	elif [ $runs -lt 10 ]; then
		fail "$APPLET under churn" "only $runs runs"
	else
		pass "$APPLET under churn ($runs runs)"
	fi
}

# Preconditions every check needs; a missing one fails the whole suite.
require() {
	if [ "$(id -u)" -ne 0 ]; then
		fail "$APPLET: runs as root" "the suite needs root (netns, BPF)"
		exit 1
	fi
	if ! build_sockzoo; then
		fail "$APPLET: sockzoo builds"
		exit 1
	fi
	if ! start_zoo; then
		fail "$APPLET: socket zoo starts"
		exit 1
	fi
}
