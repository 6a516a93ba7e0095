# modules: led-class-multicolor
# make run's demo (tests/vm/run-demo), run in the VM: kit drives a virtual
# multicolor LED made by kernel/vled.c, and the module shows what LED
# hardware would be sent.  Each command is shown before its output.
. /tests/lib.sh

led=multicolor:status
sysled=/sys/class/leds/$led
sent=/sys/devices/platform/vled/components/$led

show() {
	echo
	echo "\$ $*"
	"$@"
}

echo
echo "kit on Linux $(uname -r), in a VM with no LED hardware."
echo "A virtual multicolor LED, from kit's kernel module kernel/vled.c:"
if ! show insmod /lib/modules/kit/vled.ko; then
	fail "demo: insmod vled.ko" "no module to drive: see kernel/ above"
	exit 1
fi
show ls /sys/class/leds
echo
echo "Its colors, in the order the kernel wants values for them:"
show cat "$sysled/multi_index"
echo
echo "kit sets the three intensities, then the overall brightness:"
show kit mcled set 43 226 138
show kit mcled -b 128
show kit mcled get
echo
echo "What the LED's hardware would get: brightness * intensity / max,"
echo "as the kernel computes it (the module's readback file):"
show cat "$sent"
echo

# kit's own figures must be the kernel's.
got=$(cat "$sent")
for color in green blue red; do
	kernel=$(echo "$got" | sed -n "s/.*$color \([0-9]*\).*/\1/p")
	shown=$(kit mcled get | awk -v c="$color" '$1 == c { print $NF }')
	if [ -n "$kernel" ] && [ "$shown" = "$kernel" ]; then
		pass "demo: kit mcled get shows the kernel's $color: $kernel"
	else
		fail "demo: kit mcled get shows the kernel's $color: $kernel" \
			"kit mcled get shows $shown"
	fi
done
