#!/bin/bash
# mcled: its unit tests, then mcled against fake sysfs trees (KIT_SYSFS)
# built here.  Every refusal is checked for its exact message, its exit
# status, and that no file of the tree changed.  The real kernel's side is
# tests/guest/mcled.sh, in the VMs.
. "$TESTS/lib.sh"

run_unit mcled_unit

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; t_cleanup' EXIT
chmod 755 "$tmp"	# the permission tests run as nobody
SYS=$tmp/sys
LEDS=$SYS/class/leds

# mkled NAME COLORS INTENSITIES BRIGHTNESS MAX_BRIGHTNESS: a multicolor
# LED laid out as sysfs has it, a device directory behind a class link.
mkled() {
	mkled_dev=$SYS/devices/platform/leds/$1
	mkdir -p "$mkled_dev" "$LEDS"
	echo "$2" >"$mkled_dev/multi_index"
	echo "$3" >"$mkled_dev/multi_intensity"
	echo "$4" >"$mkled_dev/brightness"
	echo "$5" >"$mkled_dev/max_brightness"
	ln -s "../../devices/platform/leds/$1" "$LEDS/$1"
}

# A monochrome LED: no multi_* files.
mkmono() {
	mkdir -p "$LEDS/$1"
	echo 0 >"$LEDS/$1/brightness"
	echo 1 >"$LEDS/$1/max_brightness"
}

# One multicolor LED, the document's example, and a monochrome one.
tree_one() {
	rm -rf "$SYS"
	mkled multicolor:status "green blue red" "43 226 138" 128 255
	mkmono input0::capslock
}

# Six multicolor LEDs: keys of an RGB keyboard, an RGBW light with
# max_brightness 100, a LED with a color 6.1-6.6 kernels print as (null)
# (names for IDs 10-14 came in 6.7, commit a067943129b4).
tree_many() {
	tree_one
	mkled rgbw:light "red green blue white" "1 2 3 77" 100 100
	mkled null:led "red (null)" "5 6" 255 255
	for key in 1 2 3; do
		mkled rgb:kbd_backlight_$key "red green blue" "0 0 0" 0 255
	done
}

mcled() { KIT_SYSFS=$SYS "$KIT" mcled "$@"; }
intensity() { cat "$LEDS/$1/multi_intensity"; }
brightness() { cat "$LEDS/$1/brightness"; }

# Every file of the tree with its contents: what refuse (lib.sh) finds
# unchanged after a refusal.
state() {
	(cd "$SYS" && find . -type f | sort | while read -r f; do
		echo "$f: $(cat "$f")"
	done)
}

# refuse_exactly NAME STATUS MESSAGE CMD...: refuse, stderr exactly
# MESSAGE.
refuse_exactly() {
	r_pattern="^$(printf '%s' "$3" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
	r_name=$1 r_status=$2
	shift 3
	refuse "$r_name" "$r_status" "$r_pattern" "$@"
}

# --- list and get -----------------------------------------------------

tree_one
expect "list is the default" 0 \
	"multicolor:status: green=43 blue=226 red=138 brightness=128 max_brightness=255" \
	mcled
expect "list leaves out monochrome LEDs" 0 \
	"multicolor:status: green=43 blue=226 red=138 brightness=128 max_brightness=255" \
	mcled list
expect "get, truncating kernel (6.5.2): green 21" 0 \
"multicolor:status: brightness 128 of 255, values truncated
  color      intensity  value
  green             43     21
  blue             226    113
  red              138     69" env KIT_OSRELEASE=6.5.2 KIT_SYSFS="$SYS" "$KIT" mcled get
expect "get, rounding kernel (6.6.0): green 22" 0 \
"multicolor:status: brightness 128 of 255, values rounded to closest
  color      intensity  value
  green             43     22
  blue             226    113
  red              138     69" env KIT_OSRELEASE=6.6.0 KIT_SYSFS="$SYS" "$KIT" mcled get
expect "get -l NAME, rounding stable kernel (6.1.53)" 0 \
	"  green             43     22" \
	sh -c 'KIT_OSRELEASE=6.1.53 KIT_SYSFS="$1" "$2" mcled -l multicolor:status get | grep green' \
	sh "$SYS" "$KIT"
expect "get, truncating stable kernel (6.1.52)" 0 \
	"  green             43     21" \
	sh -c 'KIT_OSRELEASE=6.1.52 KIT_SYSFS="$1" "$2" mcled get | grep green' \
	sh "$SYS" "$KIT"

# check_json NAME PYTHON-EXPRESSION CMD...: CMD prints JSON that python3
# parses, and the expression on it (as d) is true.
check_json() {
	check_json_name=$1 check_json_expr=$2
	shift 2
	if "$@" | python3 -c "import json, sys; d = json.load(sys.stdin); sys.exit(0 if ($check_json_expr) else 1)"; then
		pass "$check_json_name"
	else
		fail "$check_json_name" "$("$@")"
	fi
}

check_json "list -j: valid JSON, all fields" \
	'd == [{"name": "multicolor:status", "colors": ["green", "blue", "red"], "intensity": [43, 226, 138], "brightness": 128, "max_brightness": 255}]' \
	mcled -j
check_json "get -j: values and rounding (6.6)" \
	'd[0]["values"] == [22, 113, 69] and d[0]["rounding"] == "closest" and d[0]["intensity"] == [43, 226, 138]' \
	env KIT_OSRELEASE=6.6 KIT_SYSFS="$SYS" "$KIT" mcled -j get
check_json "get -j: values and rounding (5.10)" \
	'd[0]["values"] == [21, 113, 69] and d[0]["rounding"] == "truncate"' \
	env KIT_OSRELEASE=5.10.209 KIT_SYSFS="$SYS" "$KIT" mcled -j get
expect_err "output that cannot be written is an error" 1 \
	"^mcled: write error: No space left on device\$" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled list >/dev/full' sh "$SYS" "$KIT"

tree_many
expect "list: every multicolor LED, sorted by name" 0 \
"multicolor:status: green=43 blue=226 red=138 brightness=128 max_brightness=255
null:led: red=5 (null)=6 brightness=255 max_brightness=255
rgb:kbd_backlight_1: red=0 green=0 blue=0 brightness=0 max_brightness=255
rgb:kbd_backlight_2: red=0 green=0 blue=0 brightness=0 max_brightness=255
rgb:kbd_backlight_3: red=0 green=0 blue=0 brightness=0 max_brightness=255
rgbw:light: red=1 green=2 blue=3 white=77 brightness=100 max_brightness=100" \
	mcled list
expect "list -l GLOB" 0 \
"rgb:kbd_backlight_1: red=0 green=0 blue=0 brightness=0 max_brightness=255
rgb:kbd_backlight_3: red=0 green=0 blue=0 brightness=0 max_brightness=255" \
	mcled -l 'rgb:kbd_backlight_[!2]' list
expect "list -l GLOB: ? and a range, as the shell matches them" 0 \
"rgb:kbd_backlight_2: red=0 green=0 blue=0 brightness=0 max_brightness=255
rgbw:light: red=1 green=2 blue=3 white=77 brightness=100 max_brightness=100" \
	mcled -l '[qr]gb?*[2t]' list
check_json "list -j: six LEDs, (null) kept as a name" \
	'len(d) == 6 and d[1]["colors"] == ["red", "(null)"] and d[5]["max_brightness"] == 100' \
	mcled -j list
check_json "get -j -l GLOB: one entry per LED" \
	'[x["name"] for x in d] == ["rgb:kbd_backlight_1", "rgb:kbd_backlight_2", "rgb:kbd_backlight_3"]' \
	mcled -j -l 'rgb:*' get
expect "get -l GLOB: a block per LED" 0 \
"rgbw:light: brightness 100 of 100, values truncated
  color      intensity  value
  red                1      1
  green              2      2
  blue               3      3
  white             77     77" \
	env KIT_OSRELEASE=6.1.0 KIT_SYSFS="$SYS" "$KIT" mcled -l 'rgbw*' get

rm -rf "$SYS"
mkdir -p "$LEDS"
mkmono input0::capslock
expect "list with no multicolor LED: nothing" 0 "" mcled
expect "list -j with no multicolor LED: []" 0 "[]" mcled -j
expect_err "default sysfs root is /sys" 1 \
	"^mcled: no LED named 'kit-test-no-such-led' in /sys/class/leds\$" \
	env -u KIT_SYSFS "$KIT" mcled -l kit-test-no-such-led get

# --- set --------------------------------------------------------------

tree_one
expect "set V1 V2 V3 (the only LED is the default)" 0 "" mcled set 1 2 3
expect "set V1 V2 V3: written in multi_index order" 0 "1 2 3" \
	intensity multicolor:status
expect "set: decimal, 0x hex, leading-0 octal" 0 "43 226 138" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled set 0x2b 0342 138 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status/multi_intensity"
expect "set COLOR=V: others keep their intensity" 0 "43 0 255" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled set red=255 blue=0 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status/multi_intensity"
# A boot script may run mcled with stdin closed: the first file it opens
# is then descriptor 0, which is a file like any other.
expect "set with stdin closed: fd 0 is a file like any" 0 "7 8 9" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled set 7 8 9 <&- && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status/multi_intensity"
expect "set #RRGGBB: mapped through multi_index" 0 "43 226 138" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled set "#8A2BE2" && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status/multi_intensity"
expect "set #RRGGBB, lower case" 0 "128 0 255" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled set "#ff8000" && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status/multi_intensity"
expect "set leaves brightness alone" 0 "128" brightness multicolor:status
expect "-b N alone" 0 "7" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -b 7 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status/brightness"
expect "-b N alone leaves intensities alone" 0 "128 0 255" \
	intensity multicolor:status
expect "-b N% alone: 50% of 255 is 128" 0 "128" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -b 50% && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status/brightness"
expect "-b with set, in one command" 0 "255
1 2 3" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -b 100% set green=1 blue=2 red=3 && cat "$3/brightness" "$3/multi_intensity"' \
	sh "$SYS" "$KIT" "$LEDS/multicolor:status"
expect "set writes all intensities in one write()" 0 \
	'write(3, "9 8 7\n", 6) = 6' \
	sh -c 'KIT_SYSFS="$1" strace -e trace=write -e signal=none "$2" mcled set 9 8 7 2>&1 >/dev/null | grep -v "^+++" | sed "s/  *= / = /"' \
	sh "$SYS" "$KIT"

# A LED that is off with no trigger, as a board's comes up: set lights
# it at max_brightness, after the intensities; -b 0 keeps it off, and a
# trigger's LED is the trigger's.
rm -rf "$SYS"
mkled dark "red green blue" "0 0 0" 0 255
expect "set lights an off LED (no trigger file): max_brightness" 0 "255
1 2 3" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled set 1 2 3 && cat "$3/brightness" "$3/multi_intensity"' \
	sh "$SYS" "$KIT" "$LEDS/dark"
echo 0 >"$LEDS/dark/brightness"
echo "[none] timer" >"$LEDS/dark/trigger"
expect "set lights an off LED, trigger none: intensities, then brightness" 0 \
	'write(3, "4 5 6\n", 6) = 6
write(3, "255\n", 4) = 4' \
	sh -c 'KIT_SYSFS="$1" strace -e trace=write -e signal=none "$2" mcled set 4 5 6 2>&1 >/dev/null | grep -v "^+++" | sed "s/  *= / = /"' \
	sh "$SYS" "$KIT"
echo 0 >"$LEDS/dark/brightness"
expect "set -b 0 keeps an off LED off" 0 "0
7 8 9" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -b 0 set 7 8 9 && cat "$3/brightness" "$3/multi_intensity"' \
	sh "$SYS" "$KIT" "$LEDS/dark"
rm "$LEDS/dark/trigger"
mkdir "$LEDS/dark/trigger"
refuse_exactly "set on an off LED whose trigger cannot be read: refused" 1 \
	"mcled: cannot read $LEDS/dark/trigger: Is a directory" \
	mcled set 1 1 1
rmdir "$LEDS/dark/trigger"
echo "none [timer]" >"$LEDS/dark/trigger"
echo 500 >"$LEDS/dark/delay_on"
echo 500 >"$LEDS/dark/delay_off"
expect "set leaves a trigger's LED to the trigger, off now or not" 0 "0
1 1 1
none [timer]" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled set "#010101" && cat "$3/brightness" "$3/multi_intensity" "$3/trigger"' \
	sh "$SYS" "$KIT" "$LEDS/dark"

tree_many
expect "set #RRGGBB scales to max_brightness, zeroes white" 0 "100 50 0 0" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l rgbw:light set "#ff8000" && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/rgbw:light/multi_intensity"
expect "set #RRGGBB COLOR=V: white named too" 0 "100 50 0 30" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l rgbw:light set "#ff8000" white=30 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/rgbw:light/multi_intensity"
expect "set #RRGGBB: (null) channel goes to 0" 0 "255 0" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l null:led set "#ff0000" && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/null:led/multi_intensity"
expect "set -l GLOB: every key of the keyboard" 0 "" \
	mcled -l 'rgb:kbd_backlight_*' -b 50% set '#00ff00'
for key in 1 2 3; do
	expect "set -l GLOB: key $key color" 0 "0 255 0" \
		intensity rgb:kbd_backlight_$key
	expect "set -l GLOB: key $key brightness" 0 "128" \
		brightness rgb:kbd_backlight_$key
done
expect "set -l GLOB: other LEDs untouched" 0 "43 226 138
128
100 50 0 30" \
	cat "$LEDS/multicolor:status/multi_intensity" \
	"$LEDS/multicolor:status/brightness" "$LEDS/rgbw:light/multi_intensity"
expect "-b N% on a glob: per LED max_brightness" 0 "25
64" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l "rgb*" -b 25% && cat "$3/rgbw:light/brightness" "$3/rgb:kbd_backlight_1/brightness"' \
	sh "$SYS" "$KIT" "$LEDS"

# A bare word is a value whatever the number of channels (issue 8): six
# digits that are also RRGGBB are read as sysfs reads them.
rm -rf "$SYS"
mkled white:lamp white 0 0 65535
mkled rgb:wide "red green blue" "0 0 0" 0 65535
# A name that exists is that LED, glob characters and all.
mkled 'rgb:x\y' red 0 0 255
mkled 'rgb:x*' red 0 0 255
expect "-l NAME with a backslash: that LED" 0 "7" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l "rgb:x\\y" set 7 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/rgb:x\\y/multi_intensity"
expect "-l NAME with a * in it: that LED alone" 0 "9
7" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l "rgb:x*" set 9 && cat "$3" "$4"' \
	sh "$SYS" "$KIT" "$LEDS/rgb:x*/multi_intensity" \
	"$LEDS/rgb:x\\y/multi_intensity"
expect "set 010000 on one channel: octal, 4096" 0 "4096" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l white:lamp set 010000 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/white:lamp/multi_intensity"
expect "set 012345 0 0 on three channels: octal 5349, 0, 0" 0 "5349 0 0" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l rgb:wide set 012345 0 0 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/rgb:wide/multi_intensity"
expect "set 0x8000: hex" 0 "32768" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l white:lamp set 0x8000 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/white:lamp/multi_intensity"
expect "set 12345 on one channel: decimal" 0 "12345" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l white:lamp set 12345 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/white:lamp/multi_intensity"
refuse_exactly "set ff8000 on one channel: write #ff8000" 2 \
	"mcled: bad value 'ff8000': for a color write '#ff8000'; values are decimal, 0x hex or 0 octal" \
	mcled -l white:lamp set ff8000
expect "-b 010 is ten, as brightness_store() reads it (decimal)" 0 "10" \
	sh -c 'KIT_SYSFS="$1" "$2" mcled -l white:lamp -b 010 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/white:lamp/brightness"
refuse_exactly "-b 0x10: brightness is decimal" 2 \
	"mcled: bad brightness '0x10': give 0 to max_brightness, or 0% to 100%" \
	mcled -l white:lamp -b 0x10
refuse_exactly "-b N% is decimal: no 0x" 2 \
	"mcled: bad brightness '0x32%': give 0 to max_brightness, or 0% to 100%" \
	mcled -l white:lamp -b 0x32%

# --- refusals ---------------------------------------------------------

tree_one
refuse_exactly "above max_brightness" 2 \
	"mcled: multicolor:status: blue=256 is above max_brightness 255" \
	mcled set 1 256 3
refuse_exactly "COLOR=V above max_brightness" 2 \
	"mcled: multicolor:status: red=256 is above max_brightness 255" \
	mcled set red=0x100
refuse_exactly "-b above max_brightness" 2 \
	"mcled: multicolor:status: brightness 256 is above max_brightness 255" \
	mcled -b 256
refuse_exactly "-b above 100%" 2 \
	"mcled: bad brightness '101%': give 0 to max_brightness, or 0% to 100%" \
	mcled -b 101%
refuse_exactly "too few values" 2 \
	"mcled: multicolor:status: multi_intensity takes 3 values (green blue red), got 2" \
	mcled set 1 2
refuse_exactly "too many values" 2 \
	"mcled: multicolor:status: multi_intensity takes 3 values (green blue red), got 4" \
	mcled set 1 2 3 4
refuse_exactly "unknown color name" 2 \
	"mcled: unknown color 'purpel'; colors: white red green blue amber violet yellow ir multicolor rgb purple orange pink cyan lime" \
	mcled set purpel=1
refuse_exactly "color the LED does not have" 2 \
	"mcled: multicolor:status has no white; its colors: green blue red" \
	mcled set red=1 white=1
refuse_exactly "missing LED" 1 \
	"mcled: no LED named 'nosuch' in $LEDS" \
	mcled -l nosuch set 1 2 3
refuse_exactly "glob that matches no LED" 1 \
	"mcled: no LED matches 'nosuch*' in $LEDS" \
	mcled -l 'nosuch*' get
refuse_exactly "LED that is not multicolor: the multicolor one named" 1 \
	"mcled: input0::capslock is not a multicolor LED (no multi_index); multicolor: multicolor:status" \
	mcled -l input0::capslock set 1 2 3
rm -rf "$SYS"
mkmono input0::capslock
refuse_exactly "LED that is not multicolor, no multicolor LED at all" 1 \
	"mcled: input0::capslock is not a multicolor LED (no multi_index)" \
	mcled -l input0::capslock get
# The lists of names: the first LED by name is multicolor; 2, 4 and 5 of
# them (CHOICES_SHOWN is 4: ", ..." from 5).
mkled a:1 "red" "1" 1 1
mkled b:2 "red" "1" 1 1
refuse_exactly "two multicolor LEDs, no -l: both named" 2 \
	"mcled: 2 multicolor LEDs; choose one with -l NAME (a:1, b:2)" \
	mcled get
mkled c:3 "red" "1" 1 1
mkled d:4 "red" "1" 1 1
refuse_exactly "LED that is not multicolor: 4 multicolor, all named" 1 \
	"mcled: input0::capslock is not a multicolor LED (no multi_index); multicolor: a:1, b:2, c:3, d:4" \
	mcled -l input0::capslock get
refuse_exactly "four multicolor LEDs, no -l: all named" 2 \
	"mcled: 4 multicolor LEDs; choose one with -l NAME (a:1, b:2, c:3, d:4)" \
	mcled get
mkled e:5 "red" "1" 1 1
refuse_exactly "LED that is not multicolor: 5 multicolor, 4 named and ..." 1 \
	"mcled: input0::capslock is not a multicolor LED (no multi_index); multicolor: a:1, b:2, c:3, d:4, ..." \
	mcled -l input0::capslock get
tree_one
refuse_exactly "glob that matches no multicolor LED" 1 \
	"mcled: no multicolor LED matches 'input*' in $LEDS" \
	mcled -l 'input*' -b 1
refuse_exactly "bad value" 2 \
	"mcled: bad value '12a': give 0 to max_brightness, in decimal, 0x hex or 0 octal" \
	mcled set 1 12a 3
refuse_exactly "negative value" 2 \
	"mcled: bad value 'red=-1': give 0 to max_brightness, in decimal, 0x hex or 0 octal" \
	mcled set red=-1
refuse_exactly "bad #RRGGBB" 2 \
	"mcled: bad color '#12345': give #RRGGBB, six hex digits" \
	mcled set '#12345'
refuse_exactly "two #RRGGBB" 2 "mcled: one #RRGGBB at a time: #ffffff and #000000" \
	mcled set '#ffffff' '#000000'
refuse_exactly "RRGGBB without # is no value: write #RRGGBB" 2 \
	"mcled: bad value 'ff8000': for a color write '#ff8000'; values are decimal, 0x hex or 0 octal" \
	mcled set ff8000
refuse_exactly "RRGGBB without #, with COLOR=V: write #RRGGBB" 2 \
	"mcled: bad value 'ff8000': for a color write '#ff8000'; values are decimal, 0x hex or 0 octal" \
	mcled set ff8000 white=40
refuse_exactly "012345 0 0: three values, the first octal 5349" 2 \
	"mcled: multicolor:status: green=5349 is above max_brightness 255" \
	mcled set 012345 0 0
refuse_exactly "positional mixed with COLOR=V" 2 \
	"mcled: give all values in order, or COLOR=V and #RRGGBB, not both" \
	mcled set 1 2 red=3
refuse_exactly "color given twice" 2 "mcled: red given twice" \
	mcled set red=1 red=2
refuse_exactly "set without values" 2 \
	"mcled: set needs values: V1 ... Vn, COLOR=V ... or #RRGGBB" \
	mcled set
refuse_exactly "-j with set" 2 "mcled: -j goes with list, get and trigger" mcled -j set 1 2 3
refuse_exactly "-b with get" 2 "mcled: -b goes with set and the triggers, or alone" mcled -b 1 get
refuse_exactly "get with arguments" 2 "mcled: get takes no arguments" mcled get red
refuse_exactly "unknown command" 2 "mcled: unknown command 'show': list, get, set, trigger, blink, pattern, heartbeat or steady" \
	mcled show
refuse_exactly "unknown option" 2 "mcled: unknown option '-x'; see 'mcled --help'" \
	mcled -x
refuse_exactly "option without its argument" 2 \
	"mcled: option '-l' needs a value; see 'mcled --help'" mcled -l
refuse_exactly "-l with a path" 2 \
	"mcled: -l ../x: give a LED name or glob, not a path" mcled -l ../x get

tree_many
refuse_exactly "several LEDs, no -l: get" 2 \
	"mcled: 6 multicolor LEDs; choose one with -l NAME (multicolor:status, null:led, rgb:kbd_backlight_1, rgb:kbd_backlight_2, ...)" \
	mcled get
refuse_exactly "several LEDs, no -l: set" 2 \
	"mcled: 6 multicolor LEDs; choose one with -l NAME (multicolor:status, null:led, rgb:kbd_backlight_1, rgb:kbd_backlight_2, ...)" \
	mcled set 1 2 3
refuse_exactly "LED that is not multicolor: four multicolor named, then ..." 1 \
	"mcled: input0::capslock is not a multicolor LED (no multi_index); multicolor: multicolor:status, null:led, rgb:kbd_backlight_1, rgb:kbd_backlight_2, ..." \
	mcled -l input0::capslock get
refuse_exactly "glob: the last LED refuses, none is written" 2 \
	"mcled: rgbw:light: red=255 is above max_brightness 100" \
	mcled -l '*' set red=255
refuse_exactly "glob: one LED has another number of colors" 2 \
	"mcled: rgbw:light: multi_intensity takes 4 values (red green blue white), got 3" \
	mcled -l 'rgb*' set 1 2 3
refuse_exactly "#RRGGBB on a LED without blue" 2 \
	"mcled: null:led has no blue for #0000ff; its colors: red (null)" \
	mcled -l null:led set '#0000ff'
refuse_exactly "(null) cannot be named" 2 \
	"mcled: unknown color '(null)'; colors: white red green blue amber violet yellow ir multicolor rgb purple orange pink cyan lime" \
	mcled -l null:led set '(null)=1'
rm -rf "$SYS"
mkdir -p "$LEDS"
refuse_exactly "no multicolor LED at all" 1 "mcled: no multicolor LED in $LEDS" \
	mcled get

# A write refused after others were taken (issue 14), on the host: a
# read-only sysfs attribute holds a number and passes access(W_OK) for
# root, but kernfs refuses to open it for writing (EACCES), as a busy
# LED's sysfs refuses.  busy:a is written, busy:b refuses, and both are
# put back: refuse checks that no file changed.
ro_attr=/sys/devices/system/cpu/kernel_max
# tree_busy ATTR [FILE]: busy:b's ATTR a link to FILE (default $ro_attr).
tree_busy() {
	rm -rf "$SYS"
	mkled busy:a "red green blue" "1 2 3" 10 255
	mkled busy:b red 4 11 65535
	mkled busy:c "green red blue" "5 6 7" 12 255
	ln -sf "${2:-$ro_attr}" "$SYS/devices/platform/leds/busy:b/$1"
}
tree_busy brightness
refuse_exactly "brightness refused midway: every LED put back" 1 \
	"mcled: cannot open $LEDS/busy:b/brightness: Permission denied; the LEDs are as they were before" \
	mcled -l 'busy:*' -b 7 set '#ff0000'
tree_busy multi_intensity
refuse_exactly "multi_intensity refused midway: every LED put back" 1 \
	"mcled: cannot open $LEDS/busy:b/multi_intensity: Permission denied; the LEDs are as they were before" \
	mcled -l 'busy:*' -b 7 set '#ff0000'
refuse_exactly "multi_intensity refused midway, brightness not set: put back" 1 \
	"mcled: cannot open $LEDS/busy:b/multi_intensity: Permission denied; the LEDs are as they were before" \
	mcled -l 'busy:*' set red=9
refuse_exactly "the only LED refuses: nothing to put back" 1 \
	"mcled: cannot open $LEDS/busy:b/multi_intensity: Permission denied" \
	mcled -l 'busy:b' -b 7 set '#ff0000'

# A write() refused after open (issue 14): a cgroup's cgroup.freeze reads
# 0 and takes 0 or 1; any other number fails in write() with ERANGE, as a
# LED driver's store refuses a value.  A cgroup2 of our own, empty.
cg=$(mktemp -d /tmp/kit-mcled-cg.XXXXXX)
if mount -t cgroup2 none "$cg" 2>/dev/null && mkdir "$cg/kit-mcled.$$"; then
	freeze=$cg/kit-mcled.$$/cgroup.freeze
	tree_busy brightness "$freeze"
	refuse_exactly "brightness write() refused: every LED put back" 1 \
		"mcled: $LEDS/busy:b/brightness refused '7': Numerical result out of range; the LEDs are as they were before" \
		mcled -l 'busy:*' -b 7 set '#ff0000'
	tree_busy multi_intensity "$freeze"
	refuse_exactly "multi_intensity write() refused: every LED put back" 1 \
		"mcled: $LEDS/busy:b/multi_intensity refused '65535': Numerical result out of range; the LEDs are as they were before" \
		mcled -l 'busy:*' set '#ff0000'
	[ "$(cat "$freeze")" = 0 ] || fail "mcled: the cgroup stands for LEDs only" \
		"cgroup.freeze is $(cat "$freeze")"
	rmdir "$cg/kit-mcled.$$"
	umount "$cg"
else
	fail "mcled: a cgroup2 of our own for a refused write()" \
		"mount -t cgroup2 none $cg failed (needs root)"
	umount "$cg" 2>/dev/null
fi
rmdir "$cg"

# Permission: root writes anything, so these run as nobody.
tree_many
cp "$KIT" "$tmp/kit"
chmod 755 "$tmp/kit"
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env KIT_SYSFS="$SYS" "$tmp/kit" mcled "$@"
}
refuse_exactly "no permission: multi_intensity" 1 \
	"mcled: need root or write access to $LEDS/multicolor:status/multi_intensity" \
	as_nobody -l multicolor:status set 1 2 3
refuse_exactly "no permission: brightness" 1 \
	"mcled: need root or write access to $LEDS/multicolor:status/brightness" \
	as_nobody -l multicolor:status -b 1
chmod 666 "$SYS"/devices/platform/leds/rgb:kbd_backlight_[12]/*
refuse_exactly "no permission on one key of three: none is written" 1 \
	"mcled: need root or write access to $LEDS/rgb:kbd_backlight_3/multi_intensity" \
	as_nobody -l 'rgb:kbd*' set 1 2 3
expect "with write access, nobody may set" 0 "4 5 6" \
	sh -c 'setpriv --reuid=65534 --regid=65534 --clear-groups env KIT_SYSFS="$1" "$2" mcled -l rgb:kbd_backlight_1 set 4 5 6 && cat "$3"' \
	sh "$SYS" "$tmp/kit" "$LEDS/rgb:kbd_backlight_1/multi_intensity"

# --- 7.2's per-channel maxima (multi_max_intensity) -------------------
# A keyboard whose channels go above max_brightness (uniwill's), and one
# whose blue is dimmer than its max_brightness.  Without the file, the
# LEDs above keep max_brightness as every channel's limit.

tree_max() {
	rm -rf "$SYS"
	mkled rgb:kbd "red green blue" "10 20 30" 128 255
	echo "1000 1000 1000" >"$mkled_dev/multi_max_intensity"
	mkled rgb:dim "green blue red" "5 5 5" 255 255
	echo "255 100 255" >"$mkled_dev/multi_max_intensity"
}
tree_max
expect "7.2: list shows each channel's maximum" 0 \
"rgb:dim: green=5 blue=5 red=5 brightness=255 max_brightness=255 max_intensity=255,100,255
rgb:kbd: red=10 green=20 blue=30 brightness=128 max_brightness=255 max_intensity=1000,1000,1000" \
	mcled
expect "7.2: get has a max column" 0 \
"rgb:kbd: brightness 128 of 255, values rounded to closest
  color      intensity    max  value
  red               10   1000      5
  green             20   1000     10
  blue              30   1000     15" \
	env KIT_OSRELEASE=7.2.13 KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:kbd get
expect "7.2: JSON has max_intensity" 0 \
'[
{"name":"rgb:kbd","colors":["red","green","blue"],"intensity":[10,20,30],"brightness":128,"max_brightness":255,"max_intensity":[1000,1000,1000]}
]' \
	mcled -l rgb:kbd -j
expect "7.2: a value above max_brightness and within the channel's maximum is set" 0 \
	"1000 500 256" sh -c 'KIT_SYSFS="$1" "$2" mcled -l rgb:kbd set 1000 500 256 && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/rgb:kbd/multi_intensity"
refuse_exactly "7.2: a value above the channel's maximum is refused, not clamped" 2 \
	"mcled: rgb:kbd: green=1001 is above its maximum 1000 (multi_max_intensity)" \
	mcled -l rgb:kbd set 1 1001 1
refuse_exactly "7.2: COLOR=V above that channel's maximum" 2 \
	"mcled: rgb:dim: blue=101 is above its maximum 100 (multi_max_intensity)" \
	mcled -l rgb:dim set blue=101
expect "7.2: #RRGGBB scaled to each channel's maximum" 0 \
	"255 100 128" sh -c 'KIT_SYSFS="$1" "$2" mcled -l rgb:dim set "#80ffff" && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/rgb:dim/multi_intensity"
expect "7.2: #RRGGBB above max_brightness where the channel goes higher" 0 \
	"1000 502 0" sh -c 'KIT_SYSFS="$1" "$2" mcled -l rgb:kbd set "#ff8000" && cat "$3"' \
	sh "$SYS" "$KIT" "$LEDS/rgb:kbd/multi_intensity"
echo "1 2" >"$LEDS/rgb:dim/multi_max_intensity"
refuse_exactly "7.2: a multi_max_intensity of the wrong length is an error" 1 \
	"mcled: rgb:dim: multi_max_intensity is not 3 numbers: 1 2" \
	mcled -l rgb:dim set 1 2 3

# --- Triggers: blink, pattern, heartbeat, steady (fake tree) -----------
# The kernel's side (what each write does) is tests/guest/mcled.sh; here,
# what mcled writes and what it refuses before writing anything.
tree_trig() {
	rm -rf "$SYS"
	mkled rgb:status "red green blue" "0 0 255" 100 255
	echo "none kbd-capslock timer pattern" >"$mkled_dev/trigger"
	for f in delay_on delay_off pattern repeat invert; do : >"$mkled_dev/$f"; done
	mkled rgb:other "red green blue" "1 1 1" 0 255
	echo "[none] heartbeat" >"$mkled_dev/trigger"
}
tree_trig
expect "trigger lists the triggers, the current in brackets" 0 \
"rgb:other: [none] heartbeat
rgb:status: none kbd-capslock timer pattern" mcled trigger
expect "trigger -j" 0 '[
{"name":"rgb:status","triggers":["none","kbd-capslock","timer","pattern"],"current":"none"}
]' mcled -l rgb:status -j trigger
expect "blink: timer, its delays, then the LED's own brightness" 0 \
	"trigger=timer delay_on=300 delay_off=700 brightness=100 " \
	sh -c '"$@" >/dev/null && cd "$0" && for f in trigger delay_on delay_off brightness; do printf "%s=%s " $f "$(cat $f)"; done' \
	"$LEDS/rgb:status" env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status blink 300 700
tree_trig
expect "set and blink in one line: the color first, -b last" 0 \
	"multi_intensity=0 0 255 trigger=timer delay_on=250 delay_off=250 brightness=128 " \
	sh -c '"$@" >/dev/null && cd "$0" && for f in multi_intensity trigger delay_on delay_off brightness; do printf "%s=%s " $f "$(cat $f)"; done' \
	"$LEDS/rgb:status" env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status -b 50% set '#0000ff' blink 250 250
tree_trig
expect "pattern: N% levels, repeat from -r" 0 \
	"trigger=pattern pattern=0 1000 128 1000 repeat=3 brightness=100 " \
	sh -c '"$@" >/dev/null && cd "$0" && for f in trigger pattern repeat brightness; do printf "%s=%s " $f "$(cat $f)"; done' \
	"$LEDS/rgb:status" env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status pattern '0 1000 50% 1000' -r 3
tree_trig
expect "pattern: repeat -1 by default" 0 "-1" \
	sh -c '"$@" && cat "$0/repeat"' "$LEDS/rgb:status" \
	env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status pattern '0 100 255 100'
refuse_exactly "a trigger the kernel lacks: refused, its module named" 1 \
	"mcled: rgb:other has no timer trigger: load its module (modprobe ledtrig-timer), or see 'timer' in mcled trigger" \
	mcled -l 'rgb:*' blink 100 100
refuse_exactly "a malformed pattern: refused before any write" 2 \
	"mcled: rgb:status: a pattern is 2 or more pairs of brightness and milliseconds, got 3 numbers" \
	mcled -l rgb:status set 1 2 3 pattern '0 100 255'
refuse_exactly "a pattern level above max_brightness" 2 \
	"mcled: rgb:status: brightness 256 in the pattern is above max_brightness 255" \
	mcled -l rgb:status pattern '0 100 256 100'
refuse_exactly "-r without pattern" 2 "mcled: -r goes with pattern" \
	mcled -l rgb:status -r 2 blink 1 1
refuse_exactly "-r 0" 2 "mcled: bad repeat '0': give 1 or more times, or -1 for ever" \
	mcled -l rgb:status -r 0 pattern '0 1 1 1'
refuse_exactly "-b with pattern" 2 \
	"mcled: -b does not go with pattern: its brightness is the pattern's" \
	mcled -l rgb:status -b 5 pattern '0 1 1 1'
refuse_exactly "-b 0 with blink" 2 \
	"mcled: -b 0 turns the LED off and ends any trigger; give blink a brightness above 0" \
	mcled -l rgb:status -b 0 blink 1 1
refuse_exactly "blink 0 ms" 2 \
	"mcled: blink takes ON_MS OFF_MS, each 1 or more milliseconds: 0 100" \
	mcled -l rgb:status blink 0 100
refuse_exactly "blink off 0 ms" 2 \
	"mcled: blink takes ON_MS OFF_MS, each 1 or more milliseconds: 100 0" \
	mcled -l rgb:status blink 100 0
refuse_exactly "blink with one time" 2 "mcled: blink takes ON_MS OFF_MS" \
	mcled -l rgb:status blink 100
refuse_exactly "steady with an argument" 2 "mcled: steady takes no arguments" \
	mcled -l rgb:status steady 5
echo "none [timer] pattern" >"$LEDS/rgb:status/trigger"
echo 300 >"$LEDS/rgb:status/delay_on"; echo 700 >"$LEDS/rgb:status/delay_off"
expect "get shows the trigger and its settings" 0 \
	"  trigger timer: delay_on 300 delay_off 700" \
	sh -c 'KIT_SYSFS="$0" "$1" mcled -l rgb:status get | tail -n 1' "$SYS" "$KIT"
expect "get -j has the trigger and its settings" 0 \
	',"trigger":"timer","delay_on":300,"delay_off":700}' \
	sh -c 'KIT_SYSFS="$0" "$1" mcled -l rgb:status -j get | sed -n "s/.*\"values\":\[[0-9,]*\]//p"' "$SYS" "$KIT"
# Settings as sysfs gives them, numbers or not: -j stays valid JSON.
echo 'abc"' >"$LEDS/rgb:status/delay_on"; echo 007 >"$LEDS/rgb:status/delay_off"
check_json "get -j: settings that are no numbers are strings" \
	'd[0]["delay_on"] == "abc\"" and d[0]["delay_off"] == "007"' \
	env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status -j get
echo x >"$LEDS/rgb:status/delay_on"; echo 7 >"$LEDS/rgb:status/delay_off"
check_json "get -j: one character: a string unless a digit" \
	'd[0]["delay_on"] == "x" and d[0]["delay_off"] == 7' \
	env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status -j get
echo "none pattern [heartbeat]" >"$LEDS/rgb:status/trigger"
: >"$LEDS/rgb:status/invert"
check_json "get -j: an empty setting is an empty string" \
	'd[0]["trigger"] == "heartbeat" and d[0]["invert"] == ""' \
	env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status -j get
echo -1 >"$LEDS/rgb:status/invert"
check_json "get -j: a negative number is a number" 'd[0]["invert"] == -1' \
	env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status -j get
echo "none [timer] pattern" >"$LEDS/rgb:status/trigger"
echo 300 >"$LEDS/rgb:status/delay_on"; echo 700 >"$LEDS/rgb:status/delay_off"
expect "steady from a trigger: none, then the LED lit at max_brightness" 0 \
	"trigger=none brightness=255 " \
	sh -c '"$@" >/dev/null && cd "$0" && for f in trigger brightness; do printf "%s=%s " $f "$(cat $f)"; done' \
	"$LEDS/rgb:status" env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status steady
tree_trig
expect "steady without a trigger leaves the brightness alone" 0 \
	"trigger=none brightness=100 " \
	sh -c '"$@" >/dev/null && cd "$0" && for f in trigger brightness; do printf "%s=%s " $f "$(cat $f)"; done' \
	"$LEDS/rgb:status" env KIT_SYSFS="$SYS" "$KIT" mcled -l rgb:status steady

# --- stage: the boot-status LED (fake trees) ---------------------------

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
refuse "a LED named that is not there: refused" 1 \
	"^mcled: no LED named 'rgb:c' in $SYS/class/leds$" \
	stage -l rgb:c stage started

# kit.led= as the kernel hands it over: CMDLINE bound over /proc/cmdline,
# in a mount namespace of its own, for CMD.  with_cmdline CMDLINE CMD...
with_cmdline() {
	printf '%s\n' "$1" >"$tmp/cmdline"
	shift
	unshare -m sh -c 'mount --bind "$1" /proc/cmdline && shift && exec "$@"' \
		sh "$tmp/cmdline" "$@"
}
export -f with_cmdline
export tmp
tree_ab() { rm -rf "$SYS"; fakeled rgb:a; fakeled rgb:b; }
tree_ab
expect "kit.led=\"rgb:a\": over led=, quotes off as the kernel takes them" 0 \
	"32 48 16 heartbeat [] 255|0 0 0 [none] timer heartbeat pattern [] 0" \
	bash -c 'with_cmdline "quiet kit.led=\"rgb:a\" foo=\"kit.led=rgb:b\"" \
		env KIT_SYSFS="$SYS" "$KIT" mcled stage mounted "$1" &&
		echo "$(looks rgb:a)|$(looks rgb:b)"' sh "$tmp/led.conf"
tree_ab
expect "kit.led= after -- is init's, not ours" 0 \
	"32 48 16 heartbeat [] 255" \
	bash -c 'with_cmdline "kit.led=rgb:a -- kit.led=rgb:b" \
		env KIT_SYSFS="$SYS" "$KIT" mcled stage mounted "$1" &&
		looks rgb:a' sh "$tmp/led.conf"
tree_ab
expect "kit.led=off: no LED written, nothing said" 0 \
	"0 0 0 [none] timer heartbeat pattern [] 0|0 0 0 [none] timer heartbeat pattern [] 0" \
	bash -c 'with_cmdline "kit.led=off" env KIT_SYSFS="$SYS" "$KIT" mcled \
		stage mounted "$1" 2>&1 && echo "$(looks rgb:a)|$(looks rgb:b)"' \
	sh "$tmp/led.conf"
refuse_exactly "kit.led= a path: refused, kit.led= named" 1 \
	"mcled: stage: kit.led=../x on the kernel command line: give a LED name or glob, not a path" \
	with_cmdline "kit.led=../x" env KIT_SYSFS="$SYS" "$KIT" mcled stage \
	mounted "$tmp/led.conf"

# No multicolor LED, none chosen: silent, exit 0, nothing written.
rm -rf "$SYS"
fakemono input0::capslock
expect "no multicolor LED: stage exits 0 and says nothing" 0 "" \
	bash -c 'stage stage started 2>&1'

# stage config: the file checked, printed whole, with the modules of the
# triggers its looks use; what the generators' hooks copy.
{ cat "$tmp/led.conf"; echo "modules=vled"; } >"$tmp/vled.conf"
expect "stage config: every key, defaults filled in, trigger modules added" 0 \
"led=rgb:b
modules=vled ledtrig-pattern ledtrig-timer ledtrig-heartbeat
started=#0000ff pattern 0% 500 100% 500
waiting=#ff0000 blink 300 700
mounted=#102030 heartbeat
failed=#ff0000 pattern 100% 100 100% 0 0% 100 0% 0" \
	stage stage config "$tmp/vled.conf"

# bad_conf NAME MESSAGE TEXT: a file of TEXT (printf's format) is refused
# by config and by every stage, exit 1, with MESSAGE after "FILE:", and
# no LED written.
bad_conf() {
	printf "$3" >"$tmp/bad.conf"
	refuse_exactly "config: $1" 1 "mcled: stage: $tmp/bad.conf:$2" \
		stage stage config "$tmp/bad.conf"
	refuse_exactly "stage started: $1" 1 "mcled: stage: $tmp/bad.conf:$2" \
		stage stage started "$tmp/bad.conf"
}
rm -rf "$SYS"
fakeled rgb:a
bad_conf "an unknown key, with its line" \
	"4: unknown key 'bogus'; keys: led modules started waiting mounted failed" \
	'led=x\n\n  # note\nbogus = 1\n'
bad_conf "a line without =" "1: 'led' is no KEY=VALUE" 'led\n'
bad_conf "a look without an action" \
	"1: failed=#ff0000: give a look as COLOR ACTION [ARGUMENTS], e.g. '#00ff00 steady'" \
	'failed=#ff0000\n'
bad_conf "a pattern mcled set refuses" \
	"2: failed=#ff0000 pattern 1 2 3: a pattern is 2 or more pairs of brightness and milliseconds, got 3 numbers" \
	'\nfailed=#ff0000 pattern 1 2 3\n'
bad_conf "a blink of 0 ms (another stage's look: every look is checked)" \
	"3: waiting=#ffbf00 blink 0 5: blink takes ON_MS OFF_MS, each 1 or more milliseconds: 0 5" \
	'# c\nstarted=#0000ff steady\nwaiting=#ffbf00 blink 0 5\n'
bad_conf "waiting==" \
	"1: waiting==#ffbf00 steady: unknown color ''; colors: white red green blue amber violet yellow ir multicolor rgb purple orange pink cyan lime" \
	'waiting==#ffbf00 steady\n'
bad_conf "a pattern past 100%" \
	"1: started=#0000ff pattern 101% 500 0% 500: bad brightness '101%' in the pattern: give 0 to max_brightness, or 0% to 100%" \
	'started=#0000ff pattern 101%% 500 0%% 500\n'
bad_conf "a duration that is no number" \
	"1: started=#0000ff pattern 100% x 0% 500: bad duration 'x' in the pattern: give milliseconds" \
	'started=#0000ff pattern 100%% x 0%% 500\n'
bad_conf "a NUL byte" \
	"2: a NUL byte: is it the LED's configuration, a text file?" \
	'led=rgb:a\nwaiting=#ffbf00\000 steady\nmounted=#00ff00 steady\n'
bad_conf "led= a path" "2: led=../x: give a LED name or glob, not a path" \
	'# c\nled=../x\n'
: >"$tmp/empty.conf"
expect "config: an empty FILE is the defaults, as a missing one" 0 \
	"$("$KIT" mcled stage config "$tmp/none.conf")" \
	"$KIT" mcled stage config "$tmp/empty.conf"
# The file's size: 8191 bytes at most (a line of 8190 and its newline).
long_conf() { python3 -c 'import sys; sys.stdout.write("#" + "x" * (int(sys.argv[1]) - 2) + "\n" + sys.argv[2])' "$@"; }
long_conf 8191 "" >"$tmp/long.conf"
expect "config: a file of 8191 bytes is read" 0 "led=" \
	sh -c '"$@" | head -1' sh "$KIT" mcled stage config "$tmp/long.conf"
# 8192 bytes; 8191 ending in a newline, then a line the buffer misses
for more in 8192: 8191:bogus=1; do
	long_conf "${more%%:*}" "${more#*:}" >"$tmp/long.conf"
	refuse_exactly "config: a longer file is refused, not read in part ($(wc -c <"$tmp/long.conf") bytes)" 1 \
		"mcled: stage: $tmp/long.conf is longer than 8191 bytes; is it the LED's configuration?" \
		stage stage config "$tmp/long.conf"
done
printf 'led=a:one # my led\r\nwaiting=#ffbf00 blink 1 2\t# amber\r\n' >"$tmp/crlf.conf"
expect "config: a comment after a blank, CRLF lines" 0 \
	"led=a:one modules=ledtrig-pattern ledtrig-timer waiting=#ffbf00 blink 1 2" \
	sh -c '"$@" | grep -E "^(led|modules|waiting)=" | paste -sd " "' sh \
	"$KIT" mcled stage config "$tmp/crlf.conf"
mkfifo "$tmp/fifo.conf"
refuse_exactly "a FIFO as FILE: refused at once" 1 \
	"mcled: stage: $tmp/fifo.conf is not a regular file; give the LED's configuration, a text file" \
	timeout 5 env KIT_SYSFS="$SYS" "$KIT" mcled stage started "$tmp/fifo.conf"
refuse_exactly "-l a path" 2 "mcled: -l ../x: give a LED name or glob, not a path" \
	stage -l ../x stage started
fakeled rgb:b
refuse_exactly "several LEDs, none chosen: the FILE given is named" 1 \
	"mcled: stage: 2 multicolor LEDs; choose one: led= in $tmp/none.conf, or kit.led= on the kernel command line" \
	stage stage started "$tmp/none.conf"
expect_err "stage: an unknown stage" 2 \
	"^mcled: stage: unknown stage 'booting': started, waiting, mounted, failed or config$" \
	stage stage booting
