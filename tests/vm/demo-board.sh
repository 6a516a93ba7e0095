# modules: gpio-sim leds-gpio leds-group-multicolor ledtrig-timer
# make run ARCH=arm64's and ARCH=riscv's board step (tests/vm/run-demo),
# run in the VM: mcled on the kernel's own multicolor driver.  The rig's board
# (tests/vm/board.dts) has three GPIO LEDs, red, green and blue, on a
# gpio-sim bank, that leds-group-multicolor groups into rgb:status; each
# step shows mcled's view next to the three lines' levels, as gpio-sim
# reads them, and checks that they agree.  It unloads the board's drivers
# at the end: the demo's other steps want vled's LED alone.
. /tests/lib.sh

led=rgb:status
lines=$(echo /sys/devices/platform/gpio-sim/gpiochip*/sim_gpio[012]/value)

say() {
	echo
	printf '%s\n' "$@"
}

# wire: the levels of the red, green and blue lines, "R G B".
wire() { echo $(cat $lines); }

# step WORDS... -- R G B: runs kit WORDS, shows mcled get and the lines,
# and checks that the lines are R G B.  The lines follow a write from a
# workqueue (the LEDs' GPIOs can sleep): they get a second to.
step() {
	words=
	while [ "$1" != -- ]; do words="$words $1"; shift; done
	shift
	echo
	echo "\$ kit$words"
	kit $words
	i=0
	while [ "$(wire)" != "$*" ] && [ $i -lt 20 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kit mcled get |
		awk '$1 ~ /^(red|green|blue)$/ { print "  mcled get:", $1, $NF }'
	echo "  the wire (gpio-sim): red green blue = $(wire)"
	if [ "$(wire)" = "$*" ]; then
		pass "board demo:$words: lines $*"
	else
		fail "board demo:$words: lines $*" "lines: $(wire)"
	fi
}

echo
echo "kit on Linux $(uname -r): a board's status LED, three GPIO LEDs"
if [ ! -d /sys/class/leds/$led ] || [ -z "${lines##*\**}" ]; then
	fail "board demo: the board's grouped LED $led on gpio-sim" \
		"$(ls /sys/class/leds)"
	exit 1
fi
say "5. mcled on the kernel's own drivers: gpio-leds' red, green and blue" \
	"LEDs, grouped by leds-group-multicolor into $led (1 bit each)"
echo "\$ kit mcled list"
kit mcled list
say "It comes up off; set lights it (brightness 0, no trigger):"
step mcled set 1 0 0 -- 1 0 0
step mcled set '#ffbf00' -- 1 1 0
step mcled set blue=1 red=0 green=0 -- 0 0 1
step mcled -b 0 -- 0 0 0
say "A blink (ledtrig-timer), the lines read every 50 ms for a second:"
echo "\$ kit mcled -b 1 set 1 0 1 blink 100 300"
kit mcled -b 1 set 1 0 1 blink 100 300
seen=
i=0
while [ $i -lt 20 ]; do
	seen="$seen $(wire | tr -d ' ')"
	sleep 0.05
	i=$((i + 1))
done
echo "  the wire:$seen"
case "$seen" in
*101*) case "$seen" in
	*000*) pass "board demo: blink moves red and blue together" ;;
	*) fail "board demo: blink moves red and blue together" "$seen" ;;
	esac ;;
*) fail "board demo: blink moves red and blue together" "$seen" ;;
esac
kit mcled steady >/dev/null
rmmod leds_group_multicolor leds_gpio gpio_sim
