#!/bin/bash
# generators: kit in the initramfs generators, and the boot-status LED
# (README, "The boot-status LED" and "initramfs-tools").  First mcled
# stage on fake sysfs trees and make install into a directory; then the
# real thing: a Debian 12 root (tests/vm/osroot, cached) with
# initramfs-tools and the rig's 6.1 kernel gets kit by make install
# DESTDIR=, update-initramfs runs in it, and qemu boots its kernel and
# initramfs with a disk for root and vled (kernel/) as the LED, whose
# readback log shows the stages.
. "$TESTS/lib.sh"
top=$(cd "$TESTS/.." && pwd)
tmp=$(mktemp -d /tmp/kit-gen.XXXXXX)
trap 'rm -rf "$tmp"; t_cleanup' EXIT

# --- mcled stage on fake trees (KIT_SYSFS) ---------------------------
SYS=$tmp/sys

# fakeled NAME: a multicolor LED (green blue red, max 255) with the
# trigger files mcled writes; fakemono NAME: a monochrome one.
fakeled() {
	local dev=$SYS/devices/$1 f

	mkdir -p "$dev" "$SYS/class/leds"
	echo "green blue red" >"$dev/multi_index"
	echo "0 0 0" >"$dev/multi_intensity"
	echo 0 >"$dev/brightness"
	echo 255 >"$dev/max_brightness"
	echo "[none] timer heartbeat pattern" >"$dev/trigger"
	for f in pattern repeat delay_on delay_off invert; do : >"$dev/$f"; done
	ln -s "../../devices/$1" "$SYS/class/leds/$1"
}
fakemono() {
	mkdir -p "$SYS/class/leds/$1"
	echo 0 >"$SYS/class/leds/$1/brightness"
}
state() { (cd "$SYS" && grep -r . devices class 2>/dev/null | sort); }
stage() { KIT_SYSFS=$SYS "$KIT" mcled "$@"; }
looks() { (cd "$SYS/devices/$1" && echo "$(cat multi_intensity) $(cat trigger) [$(cat pattern)] $(cat brightness)"); }

# shown STAGE [FILE]: a fresh tree with one multicolor LED and a monochrome
# one, the stage shown on it, and what the LED's files then say.
shown() {
	rm -rf "$SYS"
	fakeled rgb:status
	fakemono input0::capslock
	stage stage "$@" || return
	looks rgb:status
}

expect "stage started: blue, pulsing (pattern 0% to 100% in 500 ms)" 0 \
	"0 255 0 pattern [0 500 255 500] 0" shown started "$tmp/none.conf"
expect "stage waiting: amber, steady at max_brightness" 0 \
	"191 0 255 none [] 255" shown waiting
expect "stage mounted: green, steady at max_brightness" 0 \
	"255 0 0 none [] 255" shown mounted
expect "stage failed: red, 100 ms on, 100 ms off" 0 \
	"0 0 255 pattern [255 100 255 0 0 100 0 0] 0" shown failed

# The file: a LED by name among several, each stage's look its own.
cat >"$tmp/led.conf" <<'END'
# a comment, then the keys with blanks around them
 led = rgb:b
waiting=#ff0000 blink 300 700
mounted=#102030 heartbeat
END
rm -rf "$SYS"
fakeled rgb:a
fakeled rgb:b
export SYS KIT
export -f stage looks
expect "led= chooses the LED; the other stays untouched" 0 \
	"0 0 255 timer [] 255|0 0 0 [none] timer heartbeat pattern [] 0" \
	bash -c 'stage stage waiting "$1" && echo "$(looks rgb:b)|$(looks rgb:a)"' \
	sh "$tmp/led.conf"
expect "-l overrides led=" 0 "32 48 16 heartbeat [] 255" \
	bash -c 'stage -l rgb:a stage mounted "$1" && looks rgb:a' sh "$tmp/led.conf"
refuse "several multicolor LEDs and none chosen: refused, named" 1 \
	"^mcled: stage: 2 multicolor LEDs; choose one: led= in /etc/kit/led.conf, or kit.led= on the kernel command line$" \
	stage stage started "$tmp/none.conf"
refuse "a LED named that is not there: refused" 1 \
	"^mcled: no LED named 'rgb:c' in $SYS/class/leds$" \
	stage -l rgb:c stage started

# No multicolor LED, none chosen: silent, exit 0, nothing written.
rm -rf "$SYS"
fakemono input0::capslock
expect "no multicolor LED: stage exits 0 and says nothing" 0 "" \
	bash -c 'stage stage started 2>&1'

# stage config: the file checked, printed whole, with the modules of the
# triggers its looks use; what the generators' hooks copy.
expect "stage config: every key, defaults filled in, trigger modules added" 0 \
"led=rgb:b
modules=vled ledtrig-pattern ledtrig-timer ledtrig-heartbeat
started=#0000ff pattern 0% 500 100% 500
waiting=#ff0000 blink 300 700
mounted=#102030 heartbeat
failed=#ff0000 pattern 100% 100 100% 0 0% 100 0% 0" \
	stage stage config <(cat "$tmp/led.conf"; echo "modules=vled")
printf 'led=x\n\n  # note\nbogus = 1\n' >"$tmp/bad.conf"
expect_err "config: an unknown key is refused, with its line" 1 \
	"^mcled: stage: $tmp/bad.conf: line 4: unknown key 'bogus'; keys: led modules started waiting mounted failed$" \
	stage stage config "$tmp/bad.conf"
printf 'led\n' >"$tmp/bad.conf"
expect_err "config: a line without = is refused" 1 \
	"^mcled: stage: $tmp/bad.conf: line 1: 'led' is no KEY=VALUE$" \
	stage stage config "$tmp/bad.conf"
printf 'failed=#ff0000\n' >"$tmp/bad.conf"
expect_err "config: a look without an action is refused" 2 \
	"^mcled: stage: failed=#ff0000: give a look as COLOR ACTION \[ARGUMENTS\], e.g. '#00ff00 steady'$" \
	stage stage config "$tmp/bad.conf"
printf 'failed=#ff0000 pattern 1 2 3\n' >"$tmp/bad.conf"
expect_err "config: a pattern mcled set refuses is refused" 2 \
	"^mcled: stage: failed=#ff0000 pattern 1 2 3: a pattern is 2 or more pairs of brightness and milliseconds, got 3 numbers$" \
	stage stage config "$tmp/bad.conf"
expect_err "stage: an unknown stage" 2 \
	"^mcled: stage: unknown stage 'booting': started, waiting, mounted, failed or config$" \
	stage stage booting
