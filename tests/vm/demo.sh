# modules: led-class-multicolor ledtrig-pattern ledtrig-timer brd ext4 crc32c_generic
# make run's demo (tests/vm/run-demo), run in the VM: kit at work on a
# real kernel.  mcled drives a virtual multicolor LED made by
# kernel/vled.c, whose readback shows what LED hardware would be sent;
# mcled stage shows the boot-status LED's stages; tcpiter and udpiter
# show the sockets of a small web server and of a DHCP server; rdload
# loads a gzip'd ext2 RAM disk (tests/vm/demo.host made it) into
# /dev/ram0, which is then mounted.  Each command is shown
# before its output, and each step is checked against the kernel.
# crc32c_generic: ext4, which mounts ext2, wants it, and no module
# depends on it.
. /tests/lib.sh

led=multicolor:status
sysled=/sys/class/leds/$led
sent=/sys/devices/platform/vled/components/$led
port=8080
disk=/data/demo

show() {
	echo
	echo "\$ $*"
	"$@"
}

say() {
	echo
	printf '%s\n' "$@"
}

# check NAME CMD...: PASS when CMD succeeds; returns CMD's verdict.
check() {
	name=$1
	shift
	if "$@"; then
		pass "demo: $name"
	else
		fail "demo: $name"
		return 1
	fi
}

demo_led() {
	say "1. mcled: a virtual multicolor LED, from kit's module kernel/vled.c"
	if ! show insmod /lib/modules/kit/vled.ko; then
		fail "demo: insmod vled.ko" "no module to drive: see kernel/ above"
		return
	fi
	show ls /sys/class/leds
	say "Its colors, in the order the kernel wants values for them:"
	show cat "$sysled/multi_index"
	say "kit sets the three intensities, then the overall brightness:"
	show kit mcled set 43 226 138
	show kit mcled -b 128
	show kit mcled get
	say "What the LED's hardware would get: brightness * intensity / max," \
		"as the kernel computes it (the module's readback file):"
	show cat "$sent"

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
}

# sent_is LIST: the components the LED's hardware was last sent are
# "COLOR VALUE" for each pair of LIST.
sent_is() {
	got=$(cat "$sent")
	while [ $# -gt 1 ]; do
		echo "$got" | grep -q "$1 $2\( \|$\)" || return 1
		shift 2
	done
}

demo_stages() {
	say "2. The boot-status LED: what kit's initramfs-tools and dracut" \
		"scripts show at each boot stage, on the only multicolor LED" \
		"(mcled stage; README, \"The boot-status LED\")"
	show kit mcled stage started
	check "stage started: a blue pulse (ledtrig-pattern)" \
		grep -q '\[pattern\]' "$sysled/trigger"
	show kit mcled stage waiting
	show cat "$sent"
	check "stage waiting: steady amber" \
		sent_is red 255 green 191 blue 0
	show kit mcled stage mounted
	show cat "$sent"
	check "stage mounted: steady green" sent_is red 0 green 255 blue 0
	show kit mcled stage failed
	show kit mcled get
	check "stage failed: fast red (a pattern: 100 ms on, 100 ms off)" \
		[ "$(cat "$sysled/pattern")" = "255 100 255 0 0 100 0 0" ]
}

# proc_rows PORT FILE...: the sockets whose local port is PORT, in
# /proc/net's format (the port in hex): address, peer, state and inode
# (the timer fields tick between two reads).
proc_rows() {
	p=$(printf ':%04X' "$1")
	shift
	awk -v p="$p" '$2 ~ p "$" { print $2, $3, $4, $10 }' "$@" | sort
}

# present PORT STATE PROTO: within 5 s, a socket on local PORT in STATE
# (hex: 01 established, 0A listening, 07 an unconnected UDP one) in
# /proc/net/PROTO{,6}.
present() {
	i=0
	while [ $i -lt 50 ]; do
		proc_rows "$1" /proc/net/"$3" /proc/net/"$3"6 | grep -q " $2 " &&
			return
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# listed APPLET STATE PORT: kit APPLET -t shows a socket in STATE on PORT.
listed() {
	kit "$1" -t -H --sport "$3" | grep -q "^$2 .*:$3 "
}

# same_as_proc APPLET PORT: kit APPLET --sport PORT has /proc's rows.
same_as_proc() {
	kit "$1" -H --sport "$2" >/tmp/iter.out &&
		[ "$(proc_rows "$2" /tmp/iter.out)" = \
			"$(proc_rows "$2" /proc/net/${1%iter} /proc/net/${1%iter}6)" ]
}

demo_sockets() {
	say "3. tcpiter and udpiter: the sockets of a web server and of a DHCP" \
		"server, through the kernel's BPF socket iterators, filtered there"
	mkdir -p /tmp/www
	echo "kit demo" >/tmp/www/index.html
	printf '%s\n' "interface lo" "start 127.0.0.10" "end 127.0.0.20" \
		"max_leases 11" "lease_file /tmp/leases" >/tmp/udhcpd.conf
	: >/tmp/leases
	mkfifo /tmp/idle
	echo
	echo "\$ httpd -f -p $port -h /tmp/www &"
	httpd -f -p "$port" -h /tmp/www &
	server=$!
	# A client that came before the server listened would be refused:
	# on a busy host, the emulated CPU can start nc first.
	present "$port" 0A tcp
	echo "\$ nc 127.0.0.1 $port </tmp/idle &     # a client that waits"
	nc 127.0.0.1 "$port" </tmp/idle >/dev/null &
	client=$!
	exec 9<>/tmp/idle
	echo "\$ udhcpd -f /tmp/udhcpd.conf &        # DHCP, on UDP port 67"
	udhcpd -f /tmp/udhcpd.conf 2>/dev/null &
	dhcp=$!
	check "the web server accepts a connection" present "$port" 01 tcp
	check "the DHCP server has its socket" present 67 07 udp
	show kit tcpiter -t --sport "$port"
	check "tcpiter -t shows the server listening on $port" \
		listed tcpiter LISTEN "$port"
	check "tcpiter -t shows the connection accepted on $port" \
		listed tcpiter ESTAB "$port"
	check "tcpiter --sport $port shows the rows of /proc/net/tcp and tcp6" \
		same_as_proc tcpiter "$port"
	show kit udpiter -t --sport 67
	check "udpiter -t shows the DHCP server's socket" \
		listed udpiter UNCONN 67
	check "udpiter --sport 67 shows the rows of /proc/net/udp and udp6" \
		same_as_proc udpiter 67
	exec 9>&-
	kill "$client" "$server" "$dhcp" 2>/dev/null
	wait
}

demo_ramdisk() {
	say "4. rdload: an old-style RAM disk, an ext2 filesystem compressed" \
		"with gzip, loaded into /dev/ram0 (brd) and mounted"
	show ls -l "$disk/rescue.img.gz"
	show kit rdload -i "$disk/rescue.img.gz"
	check "kit rdload loads the image" show kit rdload "$disk/rescue.img.gz"
	check "/dev/ram0 begins with the ext2 image" \
		cmp -s -n "$(wc -c <"$disk/rescue.img")" "$disk/rescue.img" /dev/ram0
	mkdir -p /mnt/rescue
	check "the kernel mounts /dev/ram0 as ext2" \
		show mount -o ro -t ext2 /dev/ram0 /mnt/rescue || return
	show ls -lR /mnt/rescue
	show cat /mnt/rescue/etc/motd
	differ=$(diff -r "$disk/tree" /mnt/rescue 2>&1 |
		grep -vx "Only in /mnt/rescue: lost+found")
	check "the files read back from /dev/ram0 are the image's" \
		[ -z "$differ" ]
	umount /mnt/rescue
}

echo
echo "kit on Linux $(uname -r), in a VM with no LED hardware."
demo_led
demo_stages
demo_sockets
demo_ramdisk
echo
