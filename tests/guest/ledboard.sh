#!/bin/sh
# modules: gpio-sim leds-gpio leds-group-multicolor ledtrig-timer ledtrig-pattern ledtrig-heartbeat
#
# mcled on the kernel's own multicolor driver, checked on the wire.  The
# rig's board (tests/vm/board.dts, the -M virt guests') has three GPIO
# LEDs, red, green and blue, that leds-group-multicolor (6.6) groups into
# one LED, rgb:status.  Every check reads the three lines' levels
# (tests/linesample): gpio-sim's sysfs, where the kernel has gpio-sim, else
# gpiolib's view of qemu's PL061 in debugfs.  The driver sets each line to
# DIV_ROUND_CLOSEST(brightness * intensity * 1, 1 * 1) (leds_gmc_set();
# every member's max_brightness is 1, so the group's is 1 too).
# It runs before mcled.sh (by name), which wants vled's LEDs alone, and
# unloads the board's drivers at the end.
. /tests/lib.sh

G=rgb:status
LEDS=/sys/class/leds
SAMPLE=/data/ledboard/linesample

# unload: the board's drivers out, their LEDs gone.
unload() {
	rmmod leds_group_multicolor leds_gpio gpio_sim 2>/dev/null
	if ls -d $LEDS/*:indicator $LEDS/$G >/dev/null 2>&1; then
		fail "unload: the board's LEDs are gone" "$(ls $LEDS)"
	else
		pass "unload: the board's LEDs are gone"
	fi
}

if [ ! -d /proc/device-tree/multi-led ]; then
	expect "no board: mcled list shows no multicolor LED" 0 "" $KIT mcled list
	if [ -d /proc/device-tree ]; then
		echo "SKIP: ledboard: no board here: its LEDs need a GPIO" \
			"controller, and this machine has no PL061 (riscv64's" \
			"-M virt), this kernel no gpio-sim (CONFIG_GPIO_SIM)"
	else
		echo "SKIP: ledboard: no board here: it is a device tree" \
			"(tests/vm/board.dts), which x86 has not"
	fi
	exit 0
fi
missing=
[ -d /sys/bus/platform/drivers/leds-gpio ] || missing=" CONFIG_LEDS_GPIO"
[ -d /sys/bus/platform/drivers/leds_group_multicolor ] ||
	missing="$missing CONFIG_LEDS_GROUP_MULTICOLOR"
if [ -n "$missing" ]; then
	expect "no group driver: mcled list shows no multicolor LED" 0 "" \
		$KIT mcled list
	echo "SKIP: ledboard: this kernel has no$missing (6.6): no" \
		"multicolor LED over the board's GPIO LEDs"
	unload
	exit 0
fi

if [ -d /proc/device-tree/gpio-sim ]; then
	lines=$(echo /sys/devices/platform/gpio-sim/gpiochip*/sim_gpio[012]/value)
	where="gpio-sim's sysfs"
else
	lines="@red:indicator @green:indicator @blue:indicator"
	where="gpiolib's debugfs view of the PL061"
fi
# levels: the three lines now, "R G B".
levels() { $SAMPLE 0 $lines | cut -d' ' -f3-; }
# levels_as WANT: the lines once they are WANT, or after 2 s, then 100 ms
# later.  A write to the group's brightness reaches the lines from a
# workqueue (led_set_brightness_nopm(): its members can sleep), after
# the write has returned.
levels_as() {
	i=0
	while [ "$(levels)" != "$1" ] && [ $i -lt 40 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sleep 0.1
	levels
}
# sample SECONDS: the lines' changes (linesample's lines), settled: the
# driver sets the members one after the other (leds_gmc_set()), and a
# state that lasts under 5 ms is that, not a step of the trigger.
sample() {
	$SAMPLE "$1" $lines | awk '{ t[NR] = $1; s[NR] = $0; sub(/^[0-9]+ /, "", s[NR]) }
	END {
		for (i = 1; i <= NR; i++) {
			if ((i < NR && t[i + 1] - t[i] < 5000) || s[i] == last)
				continue
			print t[i], s[i]
			last = s[i]
		}
	}'
}
state() { cat $LEDS/$G/multi_intensity $LEDS/$G/brightness; levels; }
if [ "$(levels)" = "0 0 0" ]; then
	pass "board: rgb:status over 3 GPIO LEDs, lines read from $where, all 0"
else
	fail "board: rgb:status over 3 GPIO LEDs, lines read from $where, all 0" \
		"levels: $(levels)" "$(ls $LEDS)"
fi

# 7.2 (commit 2682d6308654) shows each channel's maximum.
if [ -e $LEDS/$G/multi_max_intensity ]; then
	maxes=1 list_max=" max_intensity=1,1,1"
	json_max=',"max_intensity":[1,1,1]'
else
	maxes=0 list_max= json_max=
fi
expect "list: the group alone, 3 channels, off, max_brightness 1" 0 \
	"$G: red=1 green=1 blue=1 brightness=0 max_brightness=1$list_max" \
	$KIT mcled list
expect "-j get: the kernel's values" 0 "[
{\"name\":\"$G\",\"colors\":[\"red\",\"green\",\"blue\"],\"intensity\":[1,1,1],\"brightness\":0,\"max_brightness\":1$json_max,\"rounding\":\"closest\",\"values\":[0,0,0],\"trigger\":\"none\"}
]" $KIT mcled -j get

# The members: monochrome, and their sysfs the group's.
refuse "a member is not offered: mcled names the group" 1 \
	"^mcled: red:indicator is not a multicolor LED \(no multi_index\); multicolor: $G$" \
	$KIT mcled -l red:indicator set 1
if sh -c "echo 1 >$LEDS/red:indicator/brightness" 2>/dev/null; then
	fail "the kernel refuses a write to a member (its sysfs disabled)"
else
	pass "the kernel refuses a write to a member (its sysfs disabled)"
fi
expect "the member's refused write left the lines at 0" 0 "0 0 0" \
	levels_as "0 0 0"

# --- set lights a LED that is off (README) ------------------------------
expect "set 1 0 0 on the LED that is off" 0 "" $KIT mcled set 1 0 0
expect "set lit it: brightness 1" 0 1 cat $LEDS/$G/brightness
expect "set lit it: red's line high" 0 "1 0 0" levels_as "1 0 0"
$KIT mcled -b 0 >/dev/null
expect "-b 0 set 0 1 0" 0 "" $KIT mcled -b 0 set 0 1 0
expect "-b 0 set 0 1 0: brightness stays 0" 0 0 cat $LEDS/$G/brightness
expect "-b 0 set 0 1 0: the lines stay off" 0 "0 0 0" levels_as "0 0 0"
expect "get: the lit LED's values, as the driver computes them" 0 \
	"$G: brightness 1 of 1, values rounded to closest
$(row color intensity value max)
$(row red 1 1 1)
$(row green 0 0 1)
$(row blue 1 1 1)
  trigger none" sh -c "$KIT mcled -b 1 set 1 0 1 >/dev/null && $KIT mcled get"

# --- Every color, three ways, on the wire --------------------------------
for rgb in "0 0 0" "1 0 0" "0 1 0" "0 0 1" "1 1 0" "1 0 1" "0 1 1" "1 1 1"; do
	set -- $rgb
	hex=$(printf '#%02x%02x%02x' $(($1 * 255)) $(($2 * 255)) $(($3 * 255)))
	expect "set $rgb" 0 "" $KIT mcled set $rgb
	expect "set $rgb: lines $rgb" 0 "$rgb" levels_as "$rgb"
	$KIT mcled set 1 1 1 >/dev/null
	expect "set red=$1 green=$2 blue=$3" 0 "" \
		$KIT mcled set red=$1 green=$2 blue=$3
	expect "set red=$1 green=$2 blue=$3: lines $rgb" 0 "$rgb" \
		levels_as "$rgb"
	$KIT mcled set 1 1 1 >/dev/null
	expect "set $hex" 0 "" $KIT mcled set "$hex"
	expect "set $hex: lines $rgb" 0 "$rgb" levels_as "$rgb"
done
expect "-b 0" 0 "" $KIT mcled -b 0
expect "-b 0: all three lines off" 0 "0 0 0" levels_as "0 0 0"
expect "-b 1" 0 "" $KIT mcled -b 1
expect "-b 1: the color back" 0 "1 1 1" levels_as "1 1 1"
# #RRGGBB on a 1-bit channel: component * 1 / 255 rounded to closest
# (README): 0x7f is 0, 0x80 is 1.
for row in "#7f7f7f 0 0 0" "#808080 1 1 1" "#7f80ff 0 1 1" "#ff7f80 1 0 1"; do
	set -- $row
	expect "set $1 on 1-bit channels: intensities $2 $3 $4" 0 "$2 $3 $4" \
		sh -c "$KIT mcled set '$1' && cat $LEDS/$G/multi_intensity"
	expect "set $1 on 1-bit channels: lines $2 $3 $4" 0 "$2 $3 $4" \
		levels_as "$2 $3 $4"
done

# --- Triggers move the lines ------------------------------------------
# only COLOR: every sample the lines show while lit is COLOR ("R G B").
only() { awk -v c="$1" '$2 > 0 && $3 " " $4 " " $5 != c { bad++ } END { exit bad > 0 }'; }
# timed NAME SECONDS COLOR ON_MIN ON_MAX OFF_MIN OFF_MAX: for SECONDS, the
# lines show COLOR when lit, and are on and off for the milliseconds
# given (on average, the first and last change left out).
timed() {
	got=$(sample "$2")
	on_off=$(echo "$got" | durations)
	if within "${on_off% *}" "$4" "$5" && within "${on_off#* }" "$6" "$7" &&
		echo "$got" | only "$3"; then
		pass "$1 ($on_off)"
	else
		fail "$1" "on/off: $on_off" "$(echo "$got" | head -12)"
	fi
}
# stays NAME WANT: the lines become WANT and stay so for a second.
stays() {
	levels_as "$2" >/dev/null
	expect "$1" 0 "$2" sh -c "$SAMPLE 1 $lines | cut -d' ' -f3-"
}

$KIT mcled set 1 0 1 >/dev/null
expect "blink 100 300 on magenta" 0 "" $KIT mcled blink 100 300
timed "blink: the lines on 100 ms, off 300 ms, red and blue" 2 "1 0 1" \
	80 200 260 450
expect "pattern 100% 200 100% 0 0 200 0 0 on green" 0 "" \
	$KIT mcled set 0 1 0 pattern '100% 200 100% 0 0 200 0 0'
timed "pattern: green on 200 ms, off 200 ms" 2 "0 1 0" 160 300 160 300
# Two beats of 70 ms a period, its pauses unequal (ledtrig-heartbeat's
# led_heartbeat_function()).
expect "heartbeat on blue" 0 "" $KIT mcled set 0 0 1 heartbeat
timed "heartbeat: blue beats of 70 ms" 3 "0 0 1" 40 150 100 1500
expect "steady on red+green" 0 "" $KIT mcled set 1 1 0 steady
stays "steady: the lines stay 1 1 0 for a second" "1 1 0"

# --- The boot-status LED's stages on a 1-bit LED (README) ----------------
expect "stage waiting" 0 "" $KIT mcled stage waiting
stays "stage waiting (#ffbf00): amber is red and green, steady" "1 1 0"
expect "stage mounted" 0 "" $KIT mcled stage mounted
stays "stage mounted (#00ff00): green, steady" "0 1 0"
expect "stage failed" 0 "" $KIT mcled stage failed
timed "stage failed: red blinks, 100 ms on and off" 2 "1 0 0" 60 180 60 180
# Its fade's ten 50 ms steps each wait for a timer tick: about 600 ms.
expect "stage started" 0 "" $KIT mcled stage started
timed "stage started: blue, 500 ms on and off, a 1-bit fade" 3 "0 0 1" \
	350 800 350 800

$KIT mcled steady >/dev/null
unload
