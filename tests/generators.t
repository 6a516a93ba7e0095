#!/bin/bash
# generators: kit in the initramfs generators, and the boot-status LED
# (README, "The boot-status LED" and "initramfs-tools"; mcled.t tests
# mcled stage itself).  First make install into a directory; then the
# real thing: a Debian 12 root (tests/vm/osroot, cached) with
# initramfs-tools and the rig's 6.1 kernel gets kit by make install
# DESTDIR=, update-initramfs runs in it, and qemu boots its kernel and
# initramfs with a disk for root and vled (kernel/) as the LED, whose
# readback log shows the stages.
. "$TESTS/lib.sh"
. "$TESTS/vm/qemu.sh"
top=$(cd "$TESTS/.." && pwd)
tmp=$(mktemp -d /tmp/kit-gen.XXXXXX)
trap '[ -n "$KEEP" ] || rm -rf "$tmp"; t_cleanup' EXIT

# --- make install DESTDIR= -------------------------------------------
dest=$tmp/dest
itt=$dest/usr/share/initramfs-tools
if make -s -C "$top" install DESTDIR="$dest" KIT="$KIT" >"$tmp/install.log" 2>&1; then
	pass "make install DESTDIR=: exit 0"
else
	fail "make install DESTDIR=: exit 0" "$(cat "$tmp/install.log")"
fi
expect "make install: kit and a link by name per applet in PREFIX/bin" 0 \
	"$(for a in $("$KIT" --list); do echo "$a -> kit"; done)" \
	sh -c 'for a in $("$1" --list); do echo "$a -> $(readlink "$2/$a")"; done' \
	sh "$KIT" "$dest/usr/local/bin"
expect "make install: the initramfs-tools hook, told where kit is" 0 \
	"kit='/usr/local/bin/kit'" grep -x 'kit=.*' "$itt/hooks/kit"
expect "make install: the boot script in the four stages' folders" 0 \
	"init-bottom init-top local-top panic" \
	sh -c 'cd "$1/scripts" && echo $(ls */kit | sed "s|/kit||")' sh "$itt"

# --- a Debian 12 root: update-initramfs, then boots ------------------
# The rig's kernel, and the root made for it, under the rig's lock: runs
# in parallel share the cache.
cache=$(realpath "$top/tests/vm/cache")
exec {lock}>"$cache/.lock"
flock "$lock"
kver=$("$top/tests/vm/fetch" 6.1) &&
	itt_root=$("$top/tests/vm/osroot" initramfs-tools "$kver") &&
	dracut_root=$("$top/tests/vm/osroot" dracut "$kver")
status=$?
exec {lock}>&-
if [ "$status" -ne 0 ]; then
	fail "Debian 12 roots with initramfs-tools, with dracut, and the 6.1 kernel" \
		"(see the fetch: or osroot: lines above)"
	exit 1
fi
pass "Debian 12 roots with initramfs-tools, with dracut, and $kver"

# kernel/'s vled for that kernel, built as the rig builds it, in the
# cache (a build root sees only that).
. "$top/tests/vm/kbuild.sh"
kbuild_tree=$cache/build-generators-$kver
rm -rf "$kbuild_tree"
mkdir -p "$kbuild_tree"
cp -r "$top/Kbuild" "$top/kernel" "$kbuild_tree/"
if kbuild "$kver" "$cache/$kver" &&
   "${make[@]}" -C "$cache/$kver/usr/src/linux-headers-$kver" \
	M="$kbuild_tree" modules >"$tmp/kbuild.log" 2>&1 &&
   [ -f "$kbuild_tree/kernel/vled.ko" ]; then
	pass "vled builds for $kver"
else
	fail "vled builds for $kver" "$(tail -20 "$tmp/kbuild.log")"
	exit 1
fi

# generate GEN ROOT STEP: in a copy of ROOT (an overlay, in a mount
# namespace of its own, so no mount outlives it): make install DESTDIR=,
# vled as the module of the user's LED, named in /etc/kit/led.conf, and
# STEP, the generator's commands, which leave its output's listing in
# GEN/list; the kernel and initramfs into GEN/.
generate() {
	mkdir -p "$tmp/$1"
	unshare --mount --propagation private bash -c '
		set -e
		root=$1 g=$2 top=$3 kver=$4 m=$2/merged
		mkdir -p "$g/upper" "$g/work" "$m"
		mount -t overlay overlay -o "lowerdir=$root,upperdir=$g/upper,workdir=$g/work" "$m"
		make -s -C "$top" install DESTDIR="$m" KIT="$KIT"
		install -D -m 0644 "$6" "$m/lib/modules/$kver/updates/vled.ko"
		mkdir -p "$m/etc/kit"
		echo modules=vled >"$m/etc/kit/led.conf"
		mount -t proc proc "$m/proc"
		mount -t sysfs sysfs "$m/sys"
		mount --rbind /dev "$m/dev"
		in_root() { chroot "$m" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
		in_root depmod "$kver"
		eval "$5"
		cp "$m/boot/initrd.img-$kver" "$m/boot/vmlinuz-$kver" "$g/"
	' bash "$2" "$tmp/$1" "$top" "$kver" "$3" "$kbuild_tree/kernel/vled.ko" \
		>"$tmp/$1/gen.log" 2>&1
}

# initramfs-tools: the disk and its file system only, not the most of
# MODULES=most: minutes less to make, seconds less to boot.
if generate itt "$itt_root" '
	echo MODULES=list >"$m/etc/initramfs-tools/conf.d/kit-test"
	printf "%s\n" virtio_pci virtio_blk ext4 >>"$m/etc/initramfs-tools/modules"
	in_root update-initramfs -v -u -k all >"$g/update-initramfs.log" 2>&1
	in_root lsinitramfs "/boot/initrd.img-$kver" >"$g/list"'; then
	pass "update-initramfs -u in the root, with kit installed"
else
	fail "update-initramfs -u in the root, with kit installed" \
		"$(cat "$tmp/itt/gen.log")" "$(tail -20 "$tmp/itt/update-initramfs.log" 2>/dev/null)"
	exit 1
fi
# lsinitramfs lists the paths without a leading /.
want="usr/bin/kit
$(for a in $("$KIT" --list); do echo "usr/bin/$a"; done)
etc/kit/led.conf
scripts/init-top/kit
scripts/local-top/kit
scripts/init-bottom/kit
scripts/panic/kit
usr/lib/modules/$kver/updates/vled.ko
usr/lib/modules/$kver/kernel/drivers/leds/led-class-multicolor.ko
usr/lib/modules/$kver/kernel/drivers/leds/trigger/ledtrig-pattern.ko"
missing=$(echo "$want" | grep -vxF -f "$tmp/itt/list")
if [ -z "$missing" ]; then
	pass "lsinitramfs: kit, its links, led.conf, the scripts, vled and its modules"
else
	fail "lsinitramfs: kit, its links, led.conf, the scripts, vled and its modules" \
		"missing: $missing"
fi
# busybox's hook runs before kit's, which leaves every name it finds.
expect "update-initramfs: kit's hook runs after busybox's" 0 \
	"zz-busybox kit" \
	sh -c 'echo $(sed -n "s/^Calling hook \(zz-busybox\|kit\)$/\1/p" "$1")' \
	sh "$tmp/itt/update-initramfs.log"

# The real root: a small OS tree on a virtio disk whose /sbin/init shows
# what vled logged, then powers off.
disk=$tmp/disk
mkdir -p "$disk/bin" "$disk/sbin" "$disk/dev" "$disk/proc" "$disk/sys" "$disk/run"
cp /bin/busybox "$disk/bin/"
# systemd (dracut's initramfs) switches only into a root with os-release.
mkdir -p "$disk/etc"
echo "ID=kit-test" >"$disk/etc/os-release"
cat >"$disk/sbin/init" <<'END'
#!/bin/busybox sh
# Each LED's readback log, kit-gen: log NAME USEC BRIGHTNESS COMPONENTS...
b=/bin/busybox
echo "kit-gen: init reached"
for log in /sys/devices/platform/vled/log/*; do
	[ -f "$log" ] || continue
	$b sed "s|^|kit-gen: log ${log##*/} |" "$log"
	echo "kit-gen: colors ${log##*/} $($b cat "/sys/class/leds/${log##*/}/multi_index")"
done
echo "kit-gen: done"
$b poweroff -f
END
chmod 755 "$disk/sbin/init"
mke2fs -q -t ext4 -E root_owner=0:0 -d "$disk" "$tmp/root.img" 16M >/dev/null

# boot NAME KERNEL_ARGS [TYPED]: qemu boots the root's kernel and
# initramfs, the console in NAME.console; TYPED goes to the shell that a
# failed boot opens, once $shell_banner shows it opened.  The machine is
# tests/vm/run's (tests/vm/qemu.sh).  The disk is a snapshot: every boot
# starts from the same root.
boot() {
	local line typed=$3 pid out in g=$tmp/$gen

	: >"$tmp/$gen/$1.console"
	qemu_machine amd64 1G 1
	qemu_kernel "$g/vmlinuz-$kver" "$g"
	coproc QEMU { timeout "${BOOT_TIMEOUT:-300}" "${qemu[@]}" \
		-initrd "$g/initrd.img-$kver" \
		-drive "file=$tmp/root.img,format=raw,if=virtio,snapshot=on" \
		-serial stdio -monitor none \
		-append "$console_args $2" 2>&1; }
	pid=$QEMU_PID
	exec {out}<&"${QEMU[0]}" {in}>&"${QEMU[1]}"
	while IFS= read -r line <&"$out"; do
		# Without the carriage returns, and the escapes of bash's
		# prompt (bracketed paste: ESC [ ? 2004 h / l).
		line=${line//$'\r'/}
		line=${line//$'\e'\[\?2004[hl]/}
		printf '%s\n' "$line" >>"$tmp/$gen/$1.console"
		case $line in
		*"$shell_banner"*)
			[ -n "$typed" ] || continue
			# Enter, for a shell behind sulogin, which flushes
			# what comes before it is ready and with the Enter;
			# twice, as the first may come too early; the rest
			# once the shell runs.
			printf '\n' >&"$in"
			sleep 2
			printf '\n' >&"$in"
			sleep 2
			printf '%s\n' "$typed" >&"$in"
			typed= ;;
		esac
	done
	exec {out}<&- {in}>&-
	wait "$pid"
}

# looks NAME LED: the LED's log from the boot, one line an entry: the
# look (off, or its lit colors by the components, e.g. "blue", "red+green")
# and the brightness.
led_looks() {
	awk -v led="$2" '
	$1 == "kit-gen:" && $2 == "colors" && $3 == led {
		for (i = 4; i <= NF; i++) color[i - 3] = $i
	}
	$1 == "kit-gen:" && $2 == "log" && $3 == led { line[n++] = $0 }
	END {
		for (j = 0; j < n; j++) {
			split(line[j], f, " ")
			look = ""
			for (i = 6; i in f; i++)
				if (f[i] > 0)
					look = look (look == "" ? "" : "+") color[i - 5]
			print (f[5] == 0 || look == "" ? "off" : look), f[5], f[4]
		}
	}' "$tmp/$gen/$1.console"
}

# stages LOOKS: the looks in order, each run of one look once.
stages() { awk '$1 != "off" && $1 != prev { printf "%s%s", n++ ? " " : "", $1; prev = $1 } END { print "" }'; }

# reached NAME: the boot got to the real root's init and through it.
reached() {
	if grep -q '^kit-gen: done$' "$tmp/$gen/$1.console"; then
		pass "$gen $1: boots into the real root's init"
	else
		fail "$gen $1: boots into the real root's init" \
			"$(tail -25 "$tmp/$gen/$1.console")"
	fi
}

# normal_boot: the stages with the defaults: a blue pulse (the pattern's
# 50 ms steps: many brightness levels), amber, then steady green at full
# brightness when the root's init runs.
normal_boot() {
	boot normal "root=/dev/vda"
	reached normal
	led_looks normal multicolor:status >"$tmp/$gen/normal.looks"
	expect "$gen normal: the stages in order: blue, amber (green+red), green" 0 \
		"blue green+red green" stages <"$tmp/$gen/normal.looks"
	expect "$gen normal: blue pulses: 8 or more brightness levels" 0 yes \
		awk '$1 == "blue" { seen[$2] = 1 } END { n = 0; for (b in seen) n++; print (n >= 8 ? "yes" : "no: " n) }' "$tmp/$gen/normal.looks"
	expect "$gen normal: amber is red 255, green 191, at full brightness" 0 \
		"kit-gen: log multicolor:status 255 191 0 255" \
		sh -c 'grep " 191 0 255$" "$1" | tail -1 | cut -d" " -f1-3,5-' sh "$tmp/$gen/normal.console"
	expect "$gen normal: green, steady at full brightness, when the root runs" 0 \
		"green 255" sh -c 'tail -1 "$1" | cut -d" " -f1,2' sh "$tmp/$gen/normal.looks"
}

# off_boot: kit.led=off: the LED is there (vled loaded) and nothing was
# written to it.
off_boot() {
	boot off "root=/dev/vda kit.led=off"
	reached off
	expect "$gen kit.led=off: vled's LED is there, its log empty" 0 \
		"kit-gen: colors multicolor:status green blue red" \
		grep '^kit-gen: \(colors\|log\) ' "$tmp/$gen/off.console"
}

# nolled_boot: no multicolor LED (vled not loaded): the boot is as
# without kit: into the root, and not a word from kit on the console.
nolled_boot() {
	boot nolled "root=/dev/vda modprobe.blacklist=vled"
	reached nolled
	expect "$gen no multicolor LED: not a word from kit or mcled on the console" 0 "" \
		sh -c 'grep -v "^kit-gen: " "$1" | grep -i -w -E "mcled|kit" || :' \
		sh "$tmp/$gen/nolled.console"
}

# panic_boot KERNEL_ARGS: a root that is not there: amber while the
# initramfs waits for it, then the panic stage's fast red, 100 ms on,
# 100 ms off, and a rescue shell with kit's applets on PATH, typed into
# over the serial console.
typed='for l in /sys/devices/platform/vled/log/*; do sed "s|^|kit-gen: log ${l##*/} |" "$l"; echo "kit-gen: colors ${l##*/} $(cat /sys/class/leds/${l##*/}/multi_index)"; done
tcpiter -t >/run/t.out 2>&1; echo "kit-gen: tcpiter exit $? $(read -r l </run/t.out; echo "$l")"
for a in tcpiter udpiter rdload mcled; do echo "kit-gen: path $(command -v $a)"; done
poweroff -f'
panic_boot() {
	boot panic "$1" "$typed"
	led_looks panic multicolor:status >"$tmp/$gen/panic.looks"
	expect "$gen panic: the stages in order: blue, amber (green+red), red" 0 \
		"blue green+red red" stages <"$tmp/$gen/panic.looks"
	# The red pattern's last 10 steps: red at 255 and off in turn, 50 to
	# 200 ms apart (100 ms, as the emulated clock keeps it).
	expect "$gen panic: red at 255 and off in turn, 100 ms each" 0 yes \
		awk '{ look[n] = $1 " " $2; t[n++] = $3 }
		END {
			ok = n >= 10
			for (i = n - 9; i < n && ok; i++)
				ok = look[i] != look[i - 1] &&
				     (look[i] == "red 255" || look[i] == "off 0") &&
				     t[i] - t[i - 1] >= 50000 && t[i] - t[i - 1] <= 200000
			print ok ? "yes" : "no"
		}' "$tmp/$gen/panic.looks"
	expect "$gen panic: tcpiter -t runs in the rescue shell: exit 0, its table" 0 1 \
		grep -c -E '^kit-gen: tcpiter exit 0 State +Recv-Q +Send-Q' "$tmp/$gen/panic.console"
	expect "$gen panic: kit's applets are on the rescue shell's PATH" 0 \
		"tcpiter udpiter rdload mcled" \
		sh -c 'echo $(sed -n -E "s|^kit-gen: path /(usr/)?bin/([a-z]+)$|\2|p" "$1")' \
		sh "$tmp/$gen/panic.console"
}

# initramfs-tools' boots; its rescue shell is busybox's.
gen=itt shell_banner="Enter 'help' for a list of built-in commands."
normal_boot
panic_boot "root=/dev/vdz rootdelay=3"
expect "$gen panic: initramfs-tools gives up on the root and opens its shell" 0 \
	"ALERT!  /dev/vdz does not exist.  Dropping to a shell!" \
	grep -m1 -o 'ALERT!  /dev/vdz does not exist.  Dropping to a shell!' "$tmp/$gen/panic.console"

off_boot

# kit.led=NAME among two LEDs: that one shows the stages, the other is
# left alone.  vled takes its LEDs from the command line (vled.led=).
boot choose "root=/dev/vda vled.led=one/red+green+blue/255,two/red+green+blue/255 kit.led=two"
reached choose
led_looks choose two >"$tmp/$gen/two.looks"
led_looks choose one >"$tmp/$gen/one.looks"
expect "$gen kit.led=two: LED two shows the stages" 0 "blue red+green green" \
	stages <"$tmp/$gen/two.looks"
expect "$gen kit.led=two: LED one is left alone" 0 "" cat "$tmp/$gen/one.looks"

nolled_boot

# --- dracut ----------------------------------------------------------
# dracut --add kit in the root that has dracut (and systemd in its
# initramfs): not hostonly (the chroot is not the machine), the disk's
# drivers only.  lsinitrd lists like ls -l: each path ends a line, or
# comes before " -> ".
if generate dracut "$dracut_root" '
	printf "hostonly=no\ndrivers=\"virtio_pci virtio_blk ext4\"\n" \
		>"$m/etc/dracut.conf.d/kit-test.conf"
	in_root dracut -f --add kit "/boot/initrd.img-$kver" "$kver" >"$g/dracut.log" 2>&1
	in_root lsinitrd "/boot/initrd.img-$kver" >"$g/list"'; then
	pass "dracut -f --add kit in the root, with kit installed"
else
	fail "dracut -f --add kit in the root, with kit installed" \
		"$(cat "$tmp/dracut/gen.log")" "$(tail -20 "$tmp/dracut/dracut.log" 2>/dev/null)"
	exit 1
fi
want="usr/bin/kit
$(for a in $("$KIT" --list); do echo "usr/bin/$a"; done)
etc/kit/led.conf
usr/lib/dracut/hooks/cmdline/01-kit-started.sh
usr/lib/dracut/hooks/pre-trigger/99-kit-waiting.sh
usr/lib/dracut/hooks/pre-pivot/99-kit-mounted.sh
usr/lib/dracut/hooks/emergency/01-kit-failed.sh
usr/lib/modules/$kver/updates/vled.ko
usr/lib/modules/$kver/kernel/drivers/leds/led-class-multicolor.ko
usr/lib/modules/$kver/kernel/drivers/leds/trigger/ledtrig-pattern.ko"
missing=$(echo "$want" | while read -r path; do
	grep -q -E " $path( -> |$)" "$tmp/dracut/list" || echo "$path"
done)
if [ -z "$missing" ]; then
	pass "lsinitrd: kit, its links, led.conf, the hooks, vled and its modules"
else
	fail "lsinitrd: kit, its links, led.conf, the hooks, vled and its modules" \
		"missing: $missing"
fi

# dracut's boots: systemd's emergency shell, behind sulogin.
gen=dracut shell_banner="Press Enter for maintenance"
normal_boot
# rd.timeout counts from systemd's start: under TCG 5 s could run out
# before dracut-pre-trigger.service showed the wait (amber).
panic_boot "root=/dev/vdz rd.timeout=30 rd.retry=5"
expect "$gen panic: dracut gives up on the root and opens its shell" 0 1 \
	grep -c -m1 "^Entering emergency mode. Exit the shell to continue." \
	"$tmp/$gen/panic.console"
off_boot
nolled_boot
