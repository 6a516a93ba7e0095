#!/bin/sh
# modules: led-class-multicolor ledtrig-timer ledtrig-pattern ledtrig-heartbeat
# alongside: half its time is sleeps while the triggers' timers run
#
# mcled against the kernel's multicolor LED class, on LEDs that kit's
# module (kernel/vled.c) registers with no hardware behind them.  vled
# shows what the class computed for each color, what a driver would send
# to its hardware, in /sys/devices/platform/vled/components/NAME; mcled
# get must show the same.  Also vled's parameters and refusals, and that
# it unloads cleanly with its LEDs in use.
. /tests/lib.sh

VLED=/lib/modules/kit/vled.ko
LEDS=/sys/class/leds
COMP=/sys/devices/platform/vled/components

# Debian 11's 5.10 has no multicolor class: no vled.ko, no LED for mcled.
if [ ! -e "$VLED" ]; then
	if [ -d /sys/module/led_class_multicolor ]; then
		fail "vled: built for this kernel" "no $VLED"
	else
		pass "vled: not built, this kernel has no multicolor class"
	fi
	expect "mcled: no multicolor LED: list shows none" 0 "" $KIT mcled list
	expect_err "mcled: no multicolor LED: get says so" 1 \
		"^mcled: no multicolor LED in /sys/class/leds$" $KIT mcled get
	exit 0
fi

# The class truncates each color's value before Linux 6.6 and rounds it to
# closest from 6.6 (commit 065d099f1be5), and in 6.1 from 6.1.53 (stable;
# Debian 12's 6.1 is later).  uname -r says 6.1.0-N on Debian: /proc/version
# has 6.1.Z.
version=$(sed -n 's/.* Debian \([0-9][0-9.]*\)[-+].*/\1/p' /proc/version)
[ -n "$version" ] || version=$(uname -r)
set -- $(echo "$version" | tr '.-' '  ')
major=$1 minor=$2 sub=${3:-0}
if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 6 ]; } ||
	{ [ "$major.$minor" = 6.1 ] && [ "$sub" -ge 53 ]; }; then
	closest=1 green=22 rounding="rounded to closest" json_rounding=closest
else
	closest=0 green=21 rounding=truncated json_rounding=truncate
fi
# Color IDs 10-14 (purple ... lime) have names from 6.7 (commit
# a067943129b4, "leds: core: Add more colors from DT bindings to
# led_colors").
if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 7 ]; }; then
	new_colors=1
else
	new_colors=0
fi

load() {
	rmmod vled 2>/dev/null
	insmod "$VLED" "$@"
}

# Every LED's state and every component (vled may be unloaded), to see
# that a refusal changed nothing (refuse, in lib.sh).
state() {
	cat "$LEDS"/*/multi_intensity "$LEDS"/*/brightness "$COMP"/* 2>/dev/null
}

# "NAME v1 v2 ..." lines, sorted: what mcled -j get says each color gets,
# and what vled says the class computed, for the LEDs glob $1 selects.
mcled_values() {
	$KIT mcled -j -l "$1" get |
		sed -n 's/^{"name":"\([^"]*\)".*"values":\[\([0-9,]*\)\].*/\1 \2/p' |
		tr ',' ' ' | sort
}
vled_values() {
	awk '{ name = FILENAME; sub(/.*\//, "", name); printf "%s", name
	       for (i = 2; i <= NF; i += 2) printf " %s", $i; print "" }' \
		"$COMP"/$1 | sort
}

# same NAME GLOB: mcled get and vled agree on every LED GLOB selects.
same() {
	s_vled=$(vled_values "$2")
	if [ -z "$s_vled" ]; then
		fail "$1" "vled reports nothing for $2"
	elif [ "$(mcled_values "$2")" = "$s_vled" ]; then
		pass "$1"
	else
		fail "$1" "vled:" "$s_vled" "mcled:" "$(mcled_values "$2")"
	fi
}

# above MAX: how mcled names the limit a value passed, the channel's own
# from 7.2 (commit 2682d6308654), max_brightness before.
above() {
	if [ "$maxes" = 1 ]; then
		echo "its maximum $1 \\(multi_max_intensity\\)"
	else
		echo "max_brightness $1"
	fi
}


# --- The example of Documentation/leds/leds-class-multicolor.rst ---------
S=$LEDS/multicolor:status
if load; then
	pass "vled: loads with its defaults"
else
	fail "vled: loads with its defaults"
fi
# 7.2 (commit 2682d6308654) adds multi_max_intensity, and mcled shows
# it in list, get and -j; a kernel of 7.2 or later without it fails.
if [ -e "$S/multi_max_intensity" ]; then
	maxes=1 list_max=" max_intensity=255,255,255"
	json_max=',"max_intensity":[255,255,255]'
	json_max5=',"max_intensity":[1023,1023,1023,1023,1023]'
	pass "7.2: multi_max_intensity on $version"
elif [ "$major" -gt 7 ] || { [ "$major" -eq 7 ] && [ "$minor" -ge 2 ]; }; then
	maxes=1
	fail "7.2: multi_max_intensity on $version" "no $S/multi_max_intensity"
else
	maxes=0 list_max= json_max= json_max5=
	pass "7.2: no multi_max_intensity on $version"
fi
expect "example: cat multi_index" 0 "green blue red" cat "$S/multi_index"
expect "example: max_brightness" 0 255 cat "$S/max_brightness"
expect "vled: components start at 0" 0 "green 0 blue 0 red 0" \
	cat "$COMP/multicolor:status"
expect "example: mcled set 43 226 138" 0 "" $KIT mcled set 43 226 138
expect "set lit the LED, off with no trigger, at max_brightness" 0 255 \
	cat "$S/brightness"
expect "example: multi_intensity" 0 "43 226 138" cat "$S/multi_intensity"
expect "example: mcled -b 128" 0 "" $KIT mcled -b 128
expect "example: brightness" 0 128 cat "$S/brightness"
expect "example: vled reports red 69, blue 113, green $green" 0 \
	"green $green blue 113 red 69" cat "$COMP/multicolor:status"
if tail -n 1 "/sys/devices/platform/vled/log/multicolor:status" |
	grep -Eqx "[0-9]+ 128 $green 113 69"; then
	pass "vled: its log ends with the brightness set and the components"
else
	fail "vled: its log ends with the brightness set and the components" \
		"$(cat "/sys/devices/platform/vled/log/multicolor:status")"
fi
expect "example: mcled get shows the same values" 0 \
	"multicolor:status: brightness 128 of 255, values $rounding
$(row color intensity value max)
$(row green 43 $green 255)
$(row blue 226 113 255)
$(row red 138 69 255)
  trigger none" $KIT mcled get
expect "example: mcled list" 0 \
	"multicolor:status: green=43 blue=226 red=138 brightness=128 max_brightness=255$list_max" \
	$KIT mcled list
expect "example: mcled -j get" 0 "[
{\"name\":\"multicolor:status\",\"colors\":[\"green\",\"blue\",\"red\"],\"intensity\":[43,226,138],\"brightness\":128,\"max_brightness\":255$json_max,\"rounding\":\"$json_rounding\",\"values\":[$green,113,69],\"trigger\":\"none\"}
]" $KIT mcled -j get

# --- Names, hex, octal, percent on the real class ---------------------
expect "mcled set red=255: only red changes" 0 "43 226 255" \
	sh -c "$KIT mcled set red=255 && cat $S/multi_intensity"
expect "vled: red=255 at brightness 128" 0 "green $green blue 113 red 128" \
	cat "$COMP/multicolor:status"
expect "mcled set #ff8000" 0 "128 0 255" \
	sh -c "$KIT mcled set '#ff8000' && cat $S/multi_intensity"
expect "vled: #ff8000 at brightness 128" 0 "green 64 blue 0 red 128" \
	cat "$COMP/multicolor:status"
expect "mcled set 0x hex and 0 octal" 0 "16 16 255" \
	sh -c "$KIT mcled set 0x10 020 255 && cat $S/multi_intensity"
expect "mcled -b 100%" 0 255 sh -c "$KIT mcled -b 100% && cat $S/brightness"
expect "vled: at full brightness the components are the intensities" 0 \
	"green 16 blue 16 red 255" cat "$COMP/multicolor:status"
expect "mcled -b 50%" 0 128 sh -c "$KIT mcled -b 50% && cat $S/brightness"
same "mcled get agrees with vled after -b 50%" multicolor:status

# --- vled's parameters: a keyboard, more colors, another max -----------
keys=$(i=1; while [ $i -le 126 ]; do
	printf 'rgb:kbd_backlight_%d/red+green+blue/255,' $i; i=$((i + 1)); done)
if [ $new_colors = 1 ]; then
	colors15=white+red+green+blue+amber+violet+yellow+ir+multicolor+rgb+purple+orange+pink+cyan+lime
else
	colors15=white+red+green+blue+amber+violet+yellow+ir+multicolor+rgb+white+red+green+blue+amber
fi
param="led=${keys}multicolor:lamp/red+green+blue+white+amber/1023,multicolor:all/$colors15/100,multicolor:warm/white+amber/255"
if load "$param"; then
	pass "vled: loads 129 LEDs from a ${#param}-byte led= (more than charp's 1024)"
else
	fail "vled: loads 129 LEDs from a ${#param}-byte led="
fi
expect "vled: one components file per LED" 0 129 sh -c "ls $COMP | wc -l"
expect "vled: 129 multicolor LEDs in the class" 0 129 \
	sh -c "ls -d $LEDS/*/multi_index | wc -l"
expect "vled: 5 colors in the given order" 0 "red green blue white amber" \
	cat "$LEDS/multicolor:lamp/multi_index"
expect "vled: max_brightness 1023" 0 1023 cat "$LEDS/multicolor:lamp/max_brightness"
expect "vled: 15 colors" 0 "$(echo $colors15 | tr + ' ')" \
	cat "$LEDS/multicolor:all/multi_index"
expect "vled: intensities start at max_brightness" 0 "1023 1023 1023 1023 1023" \
	cat "$LEDS/multicolor:lamp/multi_intensity"

L=multicolor:lamp
expect "mcled on 5 colors: -b 511 set 0 1 2 1023 700" 0 "" \
	$KIT mcled -l $L -b 511 set 0 1 2 1023 700
if [ $closest = 1 ]; then lamp="red 0 green 0 blue 1 white 511 amber 350"
else lamp="red 0 green 0 blue 0 white 511 amber 349"; fi
expect "vled: 5 colors, max 1023, brightness 511" 0 "$lamp" cat "$COMP/$L"
same "mcled get agrees with vled on 5 colors, max 1023" $L
expect "mcled -b 50% of 1023" 0 512 \
	sh -c "$KIT mcled -l $L -b 50% && cat $LEDS/$L/brightness"
expect "mcled -j get on 5 colors, max 1023" 0 "[
{\"name\":\"$L\",\"colors\":[\"red\",\"green\",\"blue\",\"white\",\"amber\"],\"intensity\":[0,1,2,1023,700],\"brightness\":512,\"max_brightness\":1023$json_max5,\"rounding\":\"$json_rounding\",\"values\":[0,$closest,1,512,350],\"trigger\":\"none\"}
]" $KIT mcled -l $L -j get
same "mcled get agrees with vled on 5 colors at 512" $L

expect "mcled on 15 colors: white=100 rgb=50 -b 77" 0 "" \
	$KIT mcled -l multicolor:all -b 77 set white=100 rgb=50
same "mcled get agrees with vled on 15 colors" multicolor:all

K='rgb:kbd_backlight_*'
expect "mcled glob: 126 keys set #ff8000 at -b 100%" 0 "" \
	$KIT mcled -l "$K" -b 100% set '#ff8000'
expect "vled: all 126 keys got red 255 green 128 blue 0" 0 126 \
	sh -c "cat $COMP/$K | grep -c -x 'red 255 green 128 blue 0'"
expect "vled: the glob left the lamp alone" 0 \
	"red 0 green $closest blue 1 white 512 amber 350" cat "$COMP/$L"
expect "mcled glob 'rgb:kbd_backlight_1?' set #0000ff" 0 "" \
	$KIT mcled -l 'rgb:kbd_backlight_1?' set '#0000ff'
expect "vled: 10 keys blue, the others not" 0 "10 116" \
	sh -c "echo \$(cat $COMP/$K | grep -c -x 'red 0 green 0 blue 255') \
		\$(cat $COMP/$K | grep -c -x 'red 255 green 128 blue 0')"
expect "mcled glob -b 77 on every LED" 0 "" $KIT mcled -l '*' -b 77
same "mcled get agrees with vled on all 129 LEDs" '*'

# --- mcled's refusals against the real class: nothing changes ---------
refuse "mcled refuses: several LEDs and no -l" 2 \
	"^mcled: 129 multicolor LEDs; choose one with -l NAME \(" \
	$KIT mcled set 1 2 3
refuse "mcled refuses: 3 values for 5 colors" 2 \
	"^mcled: $L: multi_intensity takes 5 values \(red green blue white amber\), got 3$" \
	$KIT mcled -l $L set 1 2 3
refuse "mcled refuses: a value above max_brightness" 2 \
	"^mcled: $L: white=1024 is above $(above 1023)$" \
	$KIT mcled -l $L set white=1024
refuse "mcled refuses a glob when one LED cannot take the value" 2 \
	"^mcled: multicolor:all: red=300 is above $(above 100)$" \
	$KIT mcled -l '*' set red=300
refuse "mcled refuses: a color the LEDs lack" 2 \
	"^mcled: rgb:kbd_backlight_1 has no white; its colors: red green blue$" \
	$KIT mcled -l "$K" set white=3
refuse "mcled refuses: #RRGGBB on a LED without red" 2 \
	"^mcled: multicolor:warm has no red for #ff0000; its colors: white amber$" \
	$KIT mcled -l multicolor:warm set '#ff0000'
refuse "mcled refuses: brightness above max_brightness" 2 \
	"^mcled: $L: brightness 1024 is above max_brightness 1023$" \
	$KIT mcled -l $L -b 1024
refuse "mcled refuses: 101%" 2 "^mcled: bad brightness '101%'" \
	$KIT mcled -l $L -b 101%
refuse "mcled refuses: an unknown color" 2 "^mcled: unknown color 'octarine'" \
	$KIT mcled -l $L set octarine=1
refuse "mcled refuses: a bad #RRGGBB" 2 "^mcled: bad color '#12345'" \
	$KIT mcled -l $L set '#12345'
refuse "mcled refuses: a negative value" 2 "^mcled: bad value 'red=-5'" \
	$KIT mcled -l $L set red=-5
refuse "mcled refuses: -5 among the values is an option" 2 \
	"^mcled: unknown option '-5'; see 'mcled --help'$" \
	$KIT mcled -l $L set 1 2 3 4 -5
refuse "mcled refuses: a color given twice" 2 "^mcled: red given twice$" \
	$KIT mcled -l $L set red=1 red=2
refuse "mcled refuses: values in order mixed with names" 2 \
	"^mcled: give all values in order, or COLOR=V and #RRGGBB, not both$" \
	$KIT mcled -l $L set 1 2 3 4 red=5
refuse "mcled refuses: two #RRGGBB" 2 "^mcled: one #RRGGBB at a time: #ff0000 and #00ff00$" \
	$KIT mcled -l $L set '#ff0000' '#00ff00'
refuse "mcled refuses: set without values" 2 "^mcled: set needs values" \
	$KIT mcled -l $L set
refuse "mcled refuses: a path for -l" 2 "^mcled: -l [^ ]*: give a LED name or glob, not a path$" \
	$KIT mcled -l "$LEDS/$L" get
refuse "mcled refuses: no such LED" 1 "^mcled: no LED named 'nosuch' in /sys/class/leds$" \
	$KIT mcled -l nosuch get

# --- the kernel refuses a write after others went in: all put back ----
# vled's busy= disables a LED's sysfs as a flash driver does while V4L2
# holds it: the class refuses to write its brightness (EBUSY), after the
# LEDs before it in the glob took their values.
B=busy:a/red+green+blue/255,busy:b/red+green+blue/255,busy:c/red+green+blue/255
if load led=$B busy=busy:b && $KIT mcled -l 'busy:[ac]' -b 100 set 10 20 30
then
	refuse "mcled: a LED refuses brightness midway: all put back" 1 \
		"^mcled: $LEDS/busy:b/[a-z_]* refused '[0-9 ]*': Device or resource busy; the LEDs are as they were before$" \
		$KIT mcled -l 'busy:*' -b 255 set 200 100 50
	refuse "mcled: a LED refuses -b midway: all put back" 1 \
		"^mcled: $LEDS/busy:b/brightness refused '7': Device or resource busy; the LEDs are as they were before$" \
		$KIT mcled -l 'busy:*' -b 7
	refuse "mcled: the first LED refuses: nothing to put back" 1 \
		"^mcled: $LEDS/busy:b/brightness refused '7': Device or resource busy$" \
		$KIT mcled -l 'busy:[bc]' -b 7
else
	fail "vled: busy= LEDs load and take values"
fi

# --- vled refuses bad parameters, and leaves nothing behind ------------
# bad_param NAME PATTERN PARAM: insmod fails and the kernel log says why.
# Only vled's own lines written after a marker count: other kernel messages
# (a clocksource watchdog, say) may land between the insmod and the read.
bad_param_seq=0
bad_param() {
	rmmod vled 2>/dev/null
	bad_param_seq=$((bad_param_seq + 1))
	echo "kit-test: bad_param $bad_param_seq" > /dev/kmsg
	if insmod "$VLED" "$3" 2>/dev/null; then
		fail "$1" "insmod accepted $3"
		return
	fi
	said=$(dmesg | sed -n "/kit-test: bad_param $bad_param_seq\$/,\$p" |
		grep 'vled: ' | tail -n 1)
	if ! printf '%s\n' "$said" | grep -Eq "vled: $2"; then
		fail "$1" "dmesg: ${said:-no line from vled}" "want: vled: $2"
	elif [ -e /sys/module/vled ] || [ -e /sys/devices/platform/vled ]; then
		fail "$1" "vled left /sys/module/vled or its device behind"
	else
		pass "$1"
	fi
}
bad_param "vled refuses an unknown color" \
	"LED x: unknown color 'octarine' \(use the names multi_index shows" \
	led=x/red+octarine/255
bad_param "vled refuses 16 colors" "LED x: more than 15 colors" \
	led=x/$colors15+red/255
bad_param "vled refuses max 0" "LED x: max_brightness must be 1 to 65535, got '0'" \
	led=x/red/0
bad_param "vled refuses max 65536" "LED x: max_brightness must be 1 to 65535, got '65536'" \
	led=x/red/65536
bad_param "vled refuses a max that is not a number" \
	"LED x: max_brightness must be 1 to 65535, got '12a'" led=x/red/12a
bad_param "vled refuses a name given twice" "LED name 'a' is given twice" \
	led=a/red/255,b/red/255,a/green/255
bad_param "vled refuses '/' in a name" \
	"led=: 'a/b/red/255' is not NAME/COLOR\+COLOR\+\.\.\./MAX \(LED names cannot have '/'\)" \
	led=a/b/red/255
bad_param "vled refuses a LED without max" "led=: 'a/red' is not NAME/COLOR" led=a/red
bad_param "vled refuses an empty led=" "led=: '' is not NAME/COLOR" led=
bad_param "vled refuses a trailing comma" "led=: '' is not NAME/COLOR" led=a/red/255,
bad_param "vled refuses a space in a name" \
	"LED name 'a b' has a space or a control character" 'led="a b/red/255"'
bad_param "vled refuses an empty color" "LED a: unknown color ''" led=a/red++blue/255
bad_param "vled refuses a name of 64 characters" "LED name '0{64}' must have 1 to 63 characters" \
	led=$(printf '%064d' 0)/red/255
if [ $new_colors = 1 ]; then
	expect "vled takes purple on $version" 0 "purple lime" sh -c \
		"insmod $VLED led=p/purple+lime/255 && cat $LEDS/p/multi_index"
else
	bad_param "vled refuses purple, which $version does not name" \
		"LED p: unknown color 'purple'" led=p/purple+lime/255
fi

# --- Another driver's LED: the PS/2 keyboard's, monochrome -------------
# Its input number follows the probe order: input0 on most boots, not all.
mono=$(cd "$LEDS" && ls -d input*::capslock 2>/dev/null | head -n 1)
if [ -n "$mono" ] && [ ! -e "$LEDS/$mono/multi_index" ]; then
	refuse "mcled refuses a monochrome LED" 1 \
		"^mcled: $mono is not a multicolor LED \(no multi_index\)(; multicolor: [^ ].*)?$" \
		$KIT mcled -l $mono get
	bad_param "vled refuses the name of another driver's LED" \
		"LED $mono exists already" "led=early/red/255,$mono/red/255"
	expect "vled: the other LED is left alone, no renamed copy" 0 \
		"$LEDS/$mono" sh -c "ls -d $LEDS/$mono*"
	expect "vled: the LED registered before the refusal is gone" 1 "" \
		ls -d "$LEDS/early"
else
	fail "the guest has the keyboard's capslock LED" "$(ls $LEDS)"
fi

# --- 7.2's per-channel maxima: multi_max_intensity --------------------
# Commit 2682d6308654 (7.2) gives each channel a maximum of its own, which
# may pass max_brightness, and makes the kernel clamp a value above it in
# silence; mcled refuses it.  The file itself tells the two sides apart
# ($maxes, above).
K=$LEDS/kbd
if [ $maxes = 1 ]; then
	load led=kbd/red:1000+green:1000+blue:100/255
	expect "7.2: vled's channels have their maxima" 0 "1000 1000 100" \
		cat "$K/multi_max_intensity"
	expect "7.2: the kernel clamps a write above a maximum in silence" 0 \
		"1000 500 100" sh -c "echo 2000 500 500 >$K/multi_intensity && cat $K/multi_intensity"
	refuse "7.2: mcled refuses it, naming the channel's maximum" 2 \
		"^mcled: kbd: red=2000 is above its maximum 1000 \(multi_max_intensity\)$" \
		$KIT mcled -l kbd set 2000 500 50
	expect "7.2: mcled sets a value above max_brightness within the maximum" 0 \
		"700 300 90" sh -c "$KIT mcled -l kbd set 700 300 90 && cat $K/multi_intensity"
	expect "7.2: #RRGGBB lands per channel" 0 "1000 502 0" \
		sh -c "$KIT mcled -l kbd set '#ff8000' && cat $K/multi_intensity"
	$KIT mcled -l kbd -b 200 set 1000 502 60
	same "7.2: mcled get equals what the class computed" kbd
	expect "7.2: get shows each channel's maximum" 0 \
		"  red             1000   1000    784" \
		sh -c "$KIT mcled -l kbd get | grep '^  red'"
else
	bad_param "before 7.2: vled has no per-channel maxima" \
		"LED kbd: red:1000: this kernel has no per-channel maxima" \
		led=kbd/red:1000+green/255
	load led=kbd/red+green+blue/255
	expect "before 7.2: the kernel stores a value above max_brightness" 0 \
		"300 0 0" sh -c "echo 300 0 0 >$K/multi_intensity && cat $K/multi_intensity"
	refuse "before 7.2: mcled refuses it by max_brightness" 2 \
		"^mcled: kbd: red=256 is above max_brightness 255$" \
		$KIT mcled -l kbd set 256 0 0
fi

# --- Triggers: what each write does, seen in vled's log ---------------
# vled logs every brightness the class sets (its time in microseconds,
# the brightness, the components): a trigger's blinks and steps.
LOG=/sys/devices/platform/vled/log
load led=multicolor:status/green+blue+red/255,second/red+green+blue/255
# since NAME: the log's lines after its last one now (by their time).
since() { tail -n 1 "$LOG/$1" | cut -d' ' -f1; }
after() { awk -v t="$2" '$1 > t' "$LOG/$1"; }
trig_now() { sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$S/trigger"; }

# In the order they registered: a built-in trigger comes first.
triggers=" $($KIT mcled -l multicolor:status trigger) "
case "$triggers" in
*" timer "*) case "$triggers" in
	*" heartbeat "*) case "$triggers" in
		*" pattern "*) pass "trigger: lists timer, heartbeat and pattern"
			       triggers= ;;
		esac ;;
	esac ;;
esac
[ -z "$triggers" ] ||
	fail "trigger: lists timer, heartbeat and pattern" "$triggers"

$KIT mcled -l multicolor:status set 43 226 138 >/dev/null
$KIT mcled -l multicolor:status -b 128 >/dev/null
t=$(since multicolor:status)
expect "blink: mcled blink 100 300" 0 "" $KIT mcled -l multicolor:status blink 100 300
sleep 2
got=$(after multicolor:status "$t" | durations)
if within "${got% *}" 80 200 && within "${got#* }" 260 450; then
	pass "blink: on 100 ms, off 300 ms in vled's log ($got)"
else
	fail "blink: on 100 ms, off 300 ms in vled's log" "on/off: $got" \
		"$(after multicolor:status "$t" | head -12)"
fi
levels=$(after multicolor:status "$t" | awk '$2 > 0 { print $2 }' | sort -u)
expect "blink: at the brightness the LED had (128)" 0 128 echo "$levels"
expect "get: trigger timer and its delays" 0 \
	"  trigger timer: delay_on 100 delay_off 300" \
	sh -c "$KIT mcled -l multicolor:status get | tail -n 1"
echo 64 >"$S/brightness"
sleep 1
t=$(since multicolor:status)
sleep 1
expect "blink: a brightness written while blinking is the blink's (64)" 0 64 \
	sh -c "awk -v t=$t '\$1 > t && \$2 > 0 { print \$2 }' $LOG/multicolor:status | sort -u"
if [ $maxes = 1 ]; then
	$KIT mcled -l multicolor:status blink 1000 1000 >/dev/null
	sleep 0.3
	n=$(wc -l <"$LOG/multicolor:status")
	t=$(since multicolor:status)
	echo "1 2 3" >"$S/multi_intensity"
	if [ "$(since multicolor:status)" = "$t" ] &&
	   [ "$(cat "$S/multi_intensity")" = "1 2 3" ] && [ "$(trig_now)" = timer ]; then
		pass "7.2: multi_intensity written while blinking is only stored"
	else
		fail "7.2: multi_intensity written while blinking is only stored" \
			"trigger $(trig_now)" "$(tail -n 3 "$LOG/multicolor:status")"
	fi
	echo "43 226 138" >"$S/multi_intensity"
fi
echo 0 >"$S/brightness"
t=$(since multicolor:status)
sleep 0.8
if [ "$(trig_now)" = none ] && [ -z "$(after multicolor:status "$t")" ]; then
	pass "blink: brightness 0 ends it: trigger none, no change after"
else
	fail "blink: brightness 0 ends it: trigger none, no change after" \
		"trigger $(trig_now)" "$(after multicolor:status "$t")"
fi

# Steps: a tuple of duration 0 after one of the same brightness (the
# kernel's pattern_trig_timer_function()); twice, then the pattern ends.
t=$(since multicolor:status)
expect "pattern: two steps, twice (-r 2)" 0 "" \
	$KIT mcled -l multicolor:status pattern '255 200 255 0 0 200 0 0' -r 2
sleep 1.5
# Each change once: 6.12 sets the first step's brightness twice.
expect "pattern: vled saw 255 0 255 0" 0 "255 0 255 0" \
	sh -c "awk -v t=$t '\$1 > t && (!n || \$2 != last) { printf \"%s%s\", n++ ? \" \" : \"\", \$2; last = \$2 } END { print \"\" }' $LOG/multicolor:status"
expect "get: trigger pattern and its settings" 0 \
	"  trigger pattern: pattern 255 200 255 0 0 200 0 0 repeat 2" \
	sh -c "$KIT mcled -l multicolor:status get | tail -n 1"
t=$(since multicolor:status)
$KIT mcled -l multicolor:status pattern '0 400 100% 400' -r 1 >/dev/null
sleep 1.2
fades=$(after multicolor:status "$t" | awk '$2 > 0 && $2 < 255' | wc -l)
if [ "$fades" -ge 4 ]; then
	pass "pattern: a fade in 50 ms steps ($fades between 0 and 255)"
else
	fail "pattern: a fade in 50 ms steps" "$(after multicolor:status "$t")"
fi
refuse "pattern: an odd count is refused, nothing changed" 2 \
	"^mcled: multicolor:status: a pattern is 2 or more pairs of brightness and milliseconds, got 3 numbers$" \
	$KIT mcled -l multicolor:status pattern '0 100 255'

t=$(since multicolor:status)
expect "heartbeat: mcled -b 100 heartbeat" 0 "" \
	$KIT mcled -l multicolor:status -b 100 heartbeat
sleep 3
beats=$(after multicolor:status "$t" | awk '$2 > 0' | wc -l)
if [ "$(trig_now)" = heartbeat ] && [ "$beats" -ge 2 ]; then
	pass "heartbeat: running ($beats beats in 3 s)"
else
	fail "heartbeat: running" "trigger $(trig_now)" "$(after multicolor:status "$t")"
fi
# The first beat may come before the brightness is written.
expect "heartbeat: beats at -b's brightness" 0 100 \
	sh -c "awk -v t=$t '\$1 > t && \$2 > 0 { print \$2 }' $LOG/multicolor:status | tail -n 3 | sort -u"

for how in "blink 50 50" "pattern '0 100 255 100'" heartbeat; do
	eval "$KIT mcled -l '*' $how" >/dev/null
	sleep 0.5
	$KIT mcled -l '*' steady >/dev/null
	t=$(since multicolor:status)
	sleep 0.6
	if [ "$(trig_now)" = none ] && [ -z "$(after multicolor:status "$t")" ] &&
	   [ "$(cat "$S/brightness")" = 255 ] &&
	   [ "$(cat "$LEDS/second/trigger" | sed -n 's/.*\[\([^]]*\)\].*/\1/p')" = none ]; then
		pass "steady: ends $how on every LED the glob selects, lit at 255"
	else
		fail "steady: ends $how on every LED the glob selects, lit at 255" \
			"trigger $(trig_now), brightness $(cat "$S/brightness")" \
			"$(after multicolor:status "$t")"
	fi
done

# A trigger whose module is unloaded: pattern's, or heartbeat's where
# pattern is built in (timer's is needed below).  lacks TRIGGER ARGS...
lacks() {
	refuse "a trigger the kernel lacks: refused, its module named" 1 \
		"^mcled: multicolor:status has no $1 trigger: load its module \(modprobe ledtrig-$1\)" \
		$KIT mcled -l multicolor:status "$@"
}
if rmmod ledtrig_pattern 2>/dev/null; then
	lacks pattern '0 100 255 100'
elif rmmod ledtrig_heartbeat 2>/dev/null; then
	lacks heartbeat
else
	fail "a trigger the kernel lacks" "ledtrig-pattern and ledtrig-heartbeat are built in"
fi

# --- Unloading with LEDs in use ---------------------------------------
load led=multicolor:status/green+blue+red/255,$L/red+green+blue+white+amber/1023
expect "unload: a LED blinks with the timer trigger" 0 "" \
	sh -c "echo timer >$S/trigger && echo 1 >$S/delay_on && echo 1 >$S/delay_off"
exec 3<"$LEDS/$L/multi_intensity" 4<"$COMP/$L"
# Writers and readers racing the unload, until their files go away.
( i=0; while [ $i -lt 5000 ] && echo "1 2 3 4 5" >"$LEDS/$L/multi_intensity" &&
	cat "$COMP/$L" "$COMP/multicolor:status" >/dev/null; do
	i=$((i + 1)); done ) 2>/dev/null &
racer=$!
sleep 1
if rmmod vled; then
	pass "unload: rmmod vled with a trigger, open files, readers and writers"
else
	fail "unload: rmmod vled with a trigger, open files, readers and writers"
fi
wait $racer
if [ -e "$S" ] || [ -e "$LEDS/$L" ] || [ -e /sys/devices/platform/vled ]; then
	fail "unload: the LEDs and the device are gone"
else
	pass "unload: the LEDs and the device are gone"
fi
if cat <&4 >/dev/null 2>&1; then
	fail "unload: a components file opened before fails after"
else
	pass "unload: a components file opened before fails after"
fi
exec 3<&- 4<&-
sleep 1		# a timer left behind would fire now
if dmesg | grep -Eq 'Oops|BUG:|WARNING:|Call Trace'; then
	fail "unload: no oops or warning" "$(dmesg | grep -E -A5 'Oops|BUG:|WARNING:' | head -20)"
else
	pass "unload: no oops or warning"
fi
if load && [ "$(cat "$COMP/multicolor:status")" = "green 0 blue 0 red 0" ]; then
	pass "unload: vled loads again"
else
	fail "unload: vled loads again"
fi
rmmod vled
