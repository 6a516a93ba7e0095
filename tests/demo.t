#!/bin/bash
# make run's demo (tests/vm/run-demo) as a user sees it: on Debian 12's
# 6.1, amd64's and arm64's (make run ARCH=arm64), and Debian 13's riscv64
# 6.12 (make run ARCH=riscv), the board of GPIO LEDs on arm64's 7.3 and
# riscv64's 7.2, and the old initrd's on 7.x of each, every step passes
# (its PASS lines count here) and it exits 0; with a kit that has no
# tcpiter, that step fails and the demo exits 1.
. "$TESTS/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; t_cleanup' EXIT

# steps WHAT KERNEL PREFIX STEP...: each "PASS: [KERNEL] PREFIX: STEP"
# line is in the demo's output (the check "WHAT 'STEP' passes").
steps() {
	local what=$1 k=$2 prefix=$3 step

	shift 3
	for step; do
		if grep -qF "PASS: [$k] $prefix: $step" "$tmp/out"; then
			pass "$what '$step' passes"
		else
			fail "$what '$step' passes" "$(tail -20 "$tmp/out")"
		fi
	done
}

# demo KERNEL [ARCH]: make run's demo for ARCH (make run ARCH=arm64)
# shows each applet's step passing on KERNEL, and exits 0.
demo() {
	local k=$1 what="make run${2:+ ARCH=$2}"

	tests/vm/run-demo >"$tmp/out" 2>&1
	status=$?
	grep -E '^(PASS|FAIL|SKIP): ' "$tmp/out"
	steps "$what: the step" "$k" demo "kit mcled get shows the kernel's" \
		"stage waiting: steady amber" "stage mounted: steady green" \
		"stage failed: fast red" \
		"tcpiter --sport 8080 shows the rows of /proc/net" \
		"udpiter --sport 67 shows the rows of /proc/net" \
		"the files read back from /dev/ram0 are the image's"
	if [ "$status" -eq 0 ]; then
		pass "$what: exits 0"
	else
		fail "$what: exits 0" "exit status $status"
	fi
}
# old_initrd KERNEL [ARCH]: then the old initrd's steps on KERNEL, 7.x
# of the same architecture.
old_initrd() {
	steps "make run${2:+ ARCH=$2}: $1" "$1" demo \
		"the kernel alone cannot boot the old image" \
		"kit as /init boots the old image"
}
demo 6.1
old_initrd 7.3
# board KERNEL ARCH: make run ARCH=ARCH's board, the grouped GPIO LED on
# KERNEL, each step checked on its lines (tests/vm/demo-board.sh).
board() {
	steps "make run ARCH=$2: the board on $1" "$1" "board demo" \
		"mcled set 1 0 0: lines 1 0 0" "mcled set #ffbf00: lines 1 1 0" \
		"mcled set blue=1 red=0 green=0: lines 0 0 1" \
		"mcled -b 0: lines 0 0 0" "blink moves red and blue together"
}
HOST_KIT=$KIT KIT=$KIT_ARM64 DEMO_ARCH=arm64 demo arm64/6.1 arm64
board arm64/7.3 arm64
old_initrd arm64/7.3 arm64
HOST_KIT=$KIT KIT=$KIT_RISCV64 DEMO_ARCH=riscv64 demo riscv64/6.12 riscv
board riscv64/7.2 riscv
old_initrd riscv64/7.2 riscv

# A step that fails: the same demo with a kit built without tcpiter.  Its
# FAIL lines are this check's proof, shown indented, out of the count.
make -s --no-print-directory O="$tmp/build" KIT="$tmp/kit" \
	APPLETS="mcled rdload udpiter" >"$tmp/make.out" 2>&1 || cat "$tmp/make.out"
KIT=$tmp/kit tests/vm/run-demo >"$tmp/out" 2>&1
status=$?
sed 's/^/    without tcpiter| /' "$tmp/out" | grep -E '(FAIL|PASS): '
if [ "$status" -eq 1 ] &&
	grep -q '^FAIL: \[6.1\] demo: tcpiter -t shows the server' "$tmp/out"; then
	pass "make run: exits 1 when a step fails (a kit without tcpiter)"
else
	fail "make run: exits 1 when a step fails (a kit without tcpiter)" \
		"exit status $status" "$(tail -20 "$tmp/out")"
fi
