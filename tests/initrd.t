# initrd: `kit initrd mkcpio` on the host, then real boots of Debian
# kernels under qemu with the wrapper in front of old-style images made
# by the real tools, and a virtio disk holding a real root.
#   INITRD_KERNELS   the kernels to boot (default "6.1 6.12 7.3")
. "$TESTS/lib.sh"
run_unit initrd_unit
work=$(mktemp -d /tmp/kit-initrd.XXXXXX)
trap 'rm -rf --one-file-system "$work"; t_cleanup' EXIT
kernels=${INITRD_KERNELS:-6.1 6.12 7.3}
# The modules the wrappers take (7.x caches keep only those named).
modules="brd ext4 jbd2 crc32c_cryptoapi crc32c_generic crc32c_intel minix romfs
	virtio_pci virtio_blk"

# ---- images ----

# A tree with a static busybox as /bin/sh and the given /linuxrc and
# /sbin/init scripts (either may be "-": none).
make_tree() {
	local dir=$1 linuxrc=$2 init=$3

	mkdir -p "$dir"/{bin,sbin,proc,sys,dev,mnt}
	cp /bin/busybox "$dir/bin/"
	for a in $(/bin/busybox --list); do
		[ "$a" = busybox ] || ln -s busybox "$dir/bin/$a"
	done
	if [ "$linuxrc" != - ]; then
		printf '%s\n' "$linuxrc" >"$dir/linuxrc"
		chmod 755 "$dir/linuxrc"
	fi
	if [ "$init" != - ]; then
		printf '%s\n' "$init" >"$dir/sbin/init"
		chmod 755 "$dir/sbin/init"
	fi
}

# /linuxrc: says who it is, leaves a marker on the RAM disk, exits $1.
linuxrc_script() {
	cat <<EOF
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
set -- \$(cat /proc/\$\$/stat)
echo "linuxrc: pid=\$\$ session=\$6 cwd=\$(pwd) stdin=\$(readlink /proc/\$\$/fd/0) HOME=\$HOME TERM=\$TERM root=\$(awk '\$2 == "/" { print \$1 }' /proc/mounts | tail -1)" | tee /marker
umount /proc
exit $1
EOF
}

# /sbin/init of a root: says what it sees, then powers off.
init_script() {
	cat <<EOF
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
echo "$1: pid=\$\$ root=\$(awk '\$2 == "/" { print \$1 }' /proc/mounts | tail -1)"
echo "$1: initrd=\$(cat /initrd/marker 2>/dev/null || echo none)"
echo "$1: ram0 mounted at: \$(awk '\$1 == "/dev/ram0" { print \$2 }' /proc/mounts)"
echo "$1: / mounted \$(awk '\$2 == "/" { t = \$3 " " \$4 } END { print t }' /proc/mounts)"
echo "$1: args=\$*"
poweroff -f
EOF
}

# mkimage FS TREE OUT [KIB]: an image of TREE in FS, made by its own tool.
mkimage() {
	case $1 in
	ext2) mke2fs -q -F -t ext2 -d "$2" "$3" "${4:-4096}" ;;
	minix) minix_image "$2" "$3" ;;
	romfs) genromfs -f "$3" -d "$2" ;;
	esac
}

# mkfs.minix cannot copy files in, and this host may have no minix
# filesystem: the host's mkfs.minix makes it (v1, 30-char names, as the
# kernel's identify_ramdisk_image() knows it) and a Debian kernel fills
# it, booted by kit initrd itself from an ext2 RAM disk.
minix_image() {
	local t=$work/t-minix

	dd if=/dev/zero of="$2" bs=1k count=4096 status=none
	mkfs.minix -1 -n 30 "$2" >/dev/null || return
	make_tree "$t" - "#!/bin/sh
export PATH=/bin
mount -t minix /dev/vda /mnt && cp -a /src/. /mnt/ && umount /mnt &&
	echo builder: minix done
poweroff -f"
	cp -a "$1" "$t/src"
	mkimage ext2 "$t" "$work/minix-builder.ext2" 8192
	wrapped "$work/minix-builder.ext2" "$work/$k-minix-builder"
	boot minix-builder "$work/$k-minix-builder" \
		"root=/dev/ram0 rw retain_initrd" "$2"
	grep -q '^builder: minix done' "$work/minix-builder.log"
}

compress() {
	case $1 in
	gz) gzip -9c ;; bz2) bzip2 -9c ;; lzma) xz --format=lzma -1c ;;
	xz) xz --check=crc32 -1c ;; lzo) lzop -c ;; lz4) lz4 -l -9c ;;
	zst) zstd -19qc ;;
	esac
}

# ---- boots ----

# boot NAME INITRD APPEND [DISKS] [PATTERN INPUT]: boots $kver with INITRD
# and the command line, virtio disks if given (vda, vdb...); when the console shows
# the grep -E PATTERN, types INPUT, or with no INPUT stops the machine.
# The console, carriage returns taken off, is in $work/NAME.log.
boot() {
	local name=$1 initrd=$2 append=$3 disk=$4 pattern=$5 input=$6
	local log=$work/$name.log fifo=$work/$name.in qemu pid w d status t0=$SECONDS

	# thread=single: see qemu_cmd() in tests/vm/run.  no_timer_check: on
	# a loaded host the emulated timer can miss check_timer()'s test and
	# the kernel panics, "IO-APIC + timer doesn't work!" (io_apic.c).
	qemu=(qemu-system-x86_64 -accel tcg,thread=single -cpu max -smp 2 -m "${mem:-512M}"
	      -nodefaults -no-reboot -display none -serial stdio
	      -kernel "$root/boot/vmlinuz-$kver" -initrd "$initrd"
	      -append "console=ttyS0 panic=-1 loglevel=4 no_timer_check $append")
	for d in $disk; do
		qemu+=(-drive "file=$d,format=raw,if=virtio")
	done
	rm -f "$fifo"
	mkfifo "$fifo"
	: >"$log.raw"
	timeout 300 "${qemu[@]}" <"$fifo" >"$log.raw" 2>&1 &
	pid=$!
	exec {w}>"$fifo"
	while kill -0 "$pid" 2>/dev/null; do
		# Waiting with no shell is where a failed boot ends.
		if [ -z "$input" ] && grep -q 'no shell (boot with kit.shell=PATH); waiting' "$log.raw"; then
			kill "$pid"
			break
		fi
		if [ -n "$pattern" ] && tr -d '\r' <"$log.raw" | grep -Eq "$pattern"; then
			if [ -n "$input" ]; then
				printf '%s\n' "$input" >&"$w"
				input=
			else
				kill "$pid"
			fi
			pattern=
		fi
		sleep 0.3
	done
	exec {w}>&-
	wait "$pid" 2>/dev/null
	status=$?
	tr -d '\r' <"$log.raw" >"$log"
	echo "initrd: [$k] $name: boot took $((SECONDS - t0))s (qemu exit $status)"
}

# sees NAME CHECK PATTERN: the boot's console has a line matching PATTERN.
sees() {
	if grep -Eq -- "$3" "$work/$1.log"; then
		pass "initrd: [$k] $2"
	else
		fail "initrd: [$k] $2" "want a console line matching: $3" \
			"console (end):" "$(grep -v '^\[' "$work/$1.log" | tail -15)" \
			"kernel's faults:" "$(grep -E 'Oops|BUG|panic|RIP:' "$work/$1.log" | head -6)"
	fi
}

# unseen NAME CHECK PATTERN: no console line matches PATTERN.
unseen() {
	if grep -Eq -- "$3" "$work/$1.log"; then
		fail "initrd: [$k] $2" "unwanted console line: $(grep -E -- "$3" "$work/$1.log" | head -1)"
	else
		pass "initrd: [$k] $2"
	fi
}

# kver_at_least MAJOR MINOR: $kver is that version or later.
kver_at_least() {
	local major=${kver%%.*} minor

	minor=${kver#*.}
	minor=${minor%%[!0-9]*}
	[ "$major" -gt "$1" ] || { [ "$major" -eq "$1" ] && [ "$minor" -ge "$2" ]; }
}

# ---- mkcpio on the host ----

# The dependency order of the wrapper's list: each module after those
# modules.dep says it needs.
deps_first() {
	awk 'NR == FNR {
		n = split($0, f, /[: ]+/); m = f[1]; sub(/.*\//, "", m)
		sub(/\.ko.*/, "", m); gsub(/-/, "_", m)
		for (i = 2; i <= n; i++) {
			d = f[i]; sub(/.*\//, "", d); sub(/\.ko.*/, "", d)
			gsub(/-/, "_", d); if (d != "") need[m] = need[m] " " d
		}
		next
	}
	{ split(need[$1], want, " ")
	  for (i in want) if (!(want[i] in seen)) bad = bad " " $1 "<" want[i]
	  seen[$1] = 1 }
	END { print bad == "" ? "ok" : "wrong:" bad }' "$1" "$2"
}

host_checks() {
	local moddir=$root/lib/modules/$kver out=$work/$k.cpio x=$work/x-$k

	# No -m ext4: mkcpio finds ext2 inside the gzip and takes its module.
	expect "initrd: [$k] mkcpio -m virtio_pci -m virtio_blk IMAGE" 0 "" \
		"$KIT" initrd mkcpio -r "$root" -k "$kver" \
		-m virtio_pci -m virtio_blk -o "$out" "$work/old.ext2.gz"
	mkdir -p "$x"
	(cd "$x" && cpio -id --quiet <"$out") ||
		fail "initrd: [$k] cpio -i reads the wrapper"
	if cmp -s "$x/init" "$KIT" && [ -x "$x/init" ]; then
		pass "initrd: [$k] /init is kit"
	else
		fail "initrd: [$k] /init is kit"
	fi
	if cpio -tv <"$out" 2>/dev/null | grep -Eq '^crw------- .* 5, +1 .* dev/console$'; then
		pass "initrd: [$k] /dev/console is char 5:1"
	else
		fail "initrd: [$k] /dev/console is char 5:1" "$(cpio -tv <"$out" 2>&1)"
	fi
	cmp -s "$x/kit/image" "$work/old.ext2.gz" &&
		pass "initrd: [$k] IMAGE is /kit/image" ||
		fail "initrd: [$k] IMAGE is /kit/image"
	local names elf=ok m
	names=$(awk '{ print $1 }' "$x/kit/modules" | tr '\n' ' ')
	for m in brd ext4 jbd2 virtio_blk virtio_pci; do
		case " $names " in
		*" $m "*) ;;
		*) grep -q "/$m.ko\$" "$moddir/modules.builtin" 2>/dev/null ||
			elf="$m missing from: $names" ;;
		esac
	done
	for m in "$x"/kit/lib/*.ko; do
		[ "$(head -c4 "$m" | od -An -c | tr -d ' ')" = '177ELF' ] ||
			elf="$m is not an uncompressed ELF module"
	done
	[ "$elf" = ok ] && pass "initrd: [$k] modules with their dependencies, uncompressed" ||
		fail "initrd: [$k] modules with their dependencies, uncompressed" "$elf"
	expect "initrd: [$k] dependencies load first" 0 ok \
		deps_first "$moddir/modules.dep" "$x/kit/modules"
	expect "initrd: [$k] mkcpio takes the module of a romfs.xz image" 0 \
		"brd mtd romfs" sh -c '"$1" initrd mkcpio -r "$2" -k "$3" "$4" |
			cpio -i --quiet --to-stdout kit/modules | awk "{ print \$1 }" |
			tr "\n" " " | sed "s/ \$//"' sh "$KIT" "$root" "$kver" \
		"$work/ram.romfs.xz"
	expect_err "initrd: [$k] mkcpio: an IMAGE the kernel would not find" 1 \
		"initrd: .*/junk: RAMDISK: Couldn't find valid RAM disk image starting at 0\\.; give -s START if it starts at a later block" \
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -o "$work/n.cpio" "$work/junk"
	expect_err "initrd: [$k] mkcpio: an unknown module" 1 \
		"initrd: no module nosuchmod in .*/modules.dep" \
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -m nosuchmod -o "$work/n.cpio"
}

# Modules compressed each way Debian and others ship them come out as
# the kernel takes them; a damaged one is refused and leaves no archive.
compression_checks() {
	local fake=$work/fakeroot m=$work/fakeroot/lib/modules/9.9 x=$work/x-fake
	local ko=$work/brd.ko out=$work/fake.cpio

	mkdir -p "$m/kernel/a" "$m/kernel/b" "$m/kernel/c" "$m/kernel/d" "$x"
	case $(ls "$root/lib/modules/$kver/kernel/drivers/block/"brd.ko*) in
	*.xz) xz -dc "$root/lib/modules/$kver/kernel/drivers/block/brd.ko.xz" >"$ko" ;;
	*) cp "$root/lib/modules/$kver/kernel/drivers/block/brd.ko" "$ko" ;;
	esac
	gzip -c "$ko" >"$m/kernel/a/brd.ko.gz"
	zstd -qc "$ko" >"$m/kernel/b/m_zst.ko.zst"
	xz --check=crc32 -c "$ko" >"$m/kernel/c/m-xz.ko.xz"
	head -c 3000 /dev/urandom | xz -c | head -c 1000 >"$m/kernel/d/bad.ko.xz"
	printf '%s\n' "kernel/a/brd.ko.gz:" "kernel/b/m_zst.ko.zst:" \
		"kernel/c/m-xz.ko.xz: kernel/b/m_zst.ko.zst" \
		"kernel/d/bad.ko.xz:" >"$m/modules.dep"
	expect "initrd: mkcpio unpacks .ko.gz, .ko.zst and .ko.xz" 0 "" \
		"$KIT" initrd mkcpio -r "$fake" -k 9.9 -m m-xz -o "$out"
	(cd "$x" && cpio -id --quiet <"$out")
	if cmp -s "$ko" "$x/kit/lib/brd.ko" && cmp -s "$ko" "$x/kit/lib/m_zst.ko" &&
	   cmp -s "$ko" "$x/kit/lib/m_xz.ko"; then
		pass "initrd: each unpacked module is the original"
	else
		fail "initrd: each unpacked module is the original" "$(ls -l "$x/kit/lib")"
	fi
	cp "$out" "$work/kept.cpio"
	expect_err "initrd: mkcpio refuses a damaged module" 1 \
		"initrd: .*/bad.ko.xz is damaged: it does not decompress" \
		"$KIT" initrd mkcpio -r "$fake" -k 9.9 -m bad -o "$out"
	if ! ls "$work" | grep -q '^fake\.cpio\.' && cmp -s "$out" "$work/kept.cpio"; then
		pass "initrd: a failed mkcpio leaves no partial file, and OUT as it was"
	else
		fail "initrd: a failed mkcpio leaves no partial file, and OUT as it was" \
			"$(ls -l "$work" | grep cpio)"
	fi
}

host_usage_checks() {
	expect_err "initrd: mkcpio: a kernel with no modules" 1 \
		"initrd: cannot read /lib/modules/0.0-none/modules.dep \\(give -k KVER .*\\): No such file" \
		"$KIT" initrd mkcpio -k 0.0-none -o "$work/n.cpio"
	expect_err "initrd: mkcpio: two images" 2 \
		"initrd: mkcpio takes one IMAGE at most, got 'b'" \
		"$KIT" initrd mkcpio -o "$work/n.cpio" a b
	expect_err "initrd: no command" 2 "initrd: give a command: mkcpio" \
		"$KIT" initrd
	ln -sf "$KIT" "$work/init"
	expect_err "initrd: as init, but not PID 1" 2 \
		"initrd: as init, kit runs only as PID 1" "$work/init"
}

# wrapped IMAGE OUT [START]: the image behind the wrapper, as a boot loader puts
# it (found in /sys/firmware/initrd, retain_initrd, 6.8+), or inside the
# cpio on older kernels; sets $found to the console line that says so.
wrapped() {
	if kver_at_least 6 8; then
		cat "$wrap" "$1" >"$2"
		found='initrd: the image follows the cpio in /sys/firmware/initrd'
	else
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -s "${3:-0}" -m minix \
			-m virtio_pci -m virtio_blk -o "$2" "$1"
		found='initrd: the image is the one in the cpio'
	fi
}

# root=/dev/ram0: every compressor, over ext2, minix and romfs, a big
# image and ramdisk_start=.
ram_boots() {
	local c fs i=0

	for c in gz bz2 lzma xz lzo lz4 zst; do
		fs=$(echo ext2 minix romfs | cut -d' ' -f$((i % 3 + 1)))
		i=$((i + 1))
		wrapped "$work/ram.$fs.$c" "$work/$k-ram.$fs.$c"
		boot "ram-$fs-$c" "$work/$k-ram.$fs.$c" \
			"root=/dev/ram0 retain_initrd init=/sbin/init one two"
		sees "ram-$fs-$c" "root=/dev/ram0: $fs.$c boots its own init as PID 1" \
			'^ramroot: pid=1 root=/dev/ram0$'
		sees "ram-$fs-$c" "$fs.$c: says where it found the image" "$found"
	done
	sees ram-ext2-gz "init gets the command line's arguments" \
		'^ramroot: args=one two$'

	wrapped "$work/big.ext2.zst" "$work/$k-big"
	boot big "$work/$k-big" "root=/dev/ram0 retain_initrd"
	sees big "a 40 MiB image (over the old 16 MiB brd size) loads" \
		'RAMDISK: Loading 40960KiB \[1 disk\] into ram disk... done'
	sees big "and boots" '^ramroot: pid=1 root=/dev/ram0$'

	wrapped "$work/start.bin" "$work/$k-start" 5
	boot start "$work/$k-start" "root=/dev/ram0 retain_initrd ramdisk_start=5"
	sees start "ramdisk_start=5 finds the image at block 5" \
		'RAMDISK: gzip image found at block 5'
	sees start "and boots it" '^ramroot: pid=1 root=/dev/ram0$'
}

# ---- the boots, on one kernel ----

boots() {
	local w=$work/$k.cpio

	boot linuxrc "$w" "root=LABEL=$root_label rw rootfstype=ext4 rootflags=commit=17" \
		"$work/root-initrd.img"
	sees linuxrc "/linuxrc runs as the kernel ran it (own session, cwd /, console, HOME, TERM, RAM disk as /)" \
		'^linuxrc: pid=([0-9]+) session=\1 cwd=/ stdin=/dev/console HOME=/ TERM=linux root=/dev/ram0$'
	sees linuxrc "the real root's init is PID 1 on /dev/root" \
		'^realroot: pid=1 root=/dev/root$'
	sees linuxrc "the RAM disk is on /initrd, with the marker /linuxrc left" \
		'^realroot: initrd=linuxrc: pid='
	sees linuxrc "root=LABEL= finds the real root by its ext4 label, 16 characters (the longest)" \
		"initrd: mounted root device LABEL=$root_label \\([0-9]+:0\\) on /root"
	sees linuxrc "said where the image was" \
		'initrd: the image is the one in the cpio, /kit/image'
	sees linuxrc "rw, rootfstype= and rootflags= mount the real root" \
		'^realroot: / mounted ext4 rw,.*commit=17'

	boot noinitrd-dir "$w" "root=UUID=${root_uuid^^} ro" "$work/root-plain.img"
	sees noinitrd-dir "root=UUID= finds it by its UUID, in any case" \
		"initrd: mounted root device UUID=${root_uuid^^} \\([0-9]+:0\\) on /root"
	sees noinitrd-dir "no /initrd on the real root: the RAM disk is unmounted" \
		'^realroot: ram0 mounted at: $'
	sees noinitrd-dir "and it says so" 'initrd: /initrd does not exist: unmounting the RAM disk'
	sees noinitrd-dir "ro: the real root read-only" '^realroot: / mounted ext4 ro,'

	boot noinitrd "$w" "noinitrd root=/dev/vda" "$work/root-plain.img"
	sees noinitrd "noinitrd: says it goes straight to the root" \
		'initrd: noinitrd: no RAM disk, straight to the root'
	sees noinitrd "and the real root boots, no RAM disk loaded" \
		'^realroot: ram0 mounted at: $'
	if grep -q 'RAMDISK:' "$work/noinitrd.log"; then
		fail "initrd: [$k] noinitrd: no image read" \
			"$(grep 'RAMDISK:' "$work/noinitrd.log")"
	else
		pass "initrd: [$k] noinitrd: no image read"
	fi

	boot partuuid-mbr "$w" "root=PARTUUID=4B495421-01" "$work/disk-mbr.img"
	sees partuuid-mbr "root=PARTUUID= of an MBR partition (signature-NN, any case)" \
		'initrd: mounted root device PARTUUID=4B495421-01 \([0-9]+:1\) on /root'
	sees partuuid-mbr "and its init runs" '^realroot: pid=1 root=/dev/root$'
	boot partuuid-gpt "$w" "root=PARTUUID=$gpt_uuid/PARTNROFF=1" \
		"$work/disk-gpt.img"
	sees partuuid-gpt "root=PARTUUID=/PARTNROFF=1: GPT partition 1's, then the next" \
		"initrd: mounted root device PARTUUID=$gpt_uuid/PARTNROFF=1 \\([0-9]+:2\\) on /root"
	sees partuuid-gpt "and its init runs" '^realroot: pid=1 root=/dev/root$'

	# Failures: one line, then a shell or the wait.
	boot noimage "$wrap" "root=/dev/vda"
	sees noimage "no image: says so and what to do" \
		'initrd: no RAM disk image: none follows the cpio'
	sees noimage "no image, no shell: waits" \
		'initrd: no shell \(boot with kit.shell=PATH\); waiting'

	mem=256M boot toobig "$work/$k-toobig.cpio" "root=/dev/vda"
	sees toobig "an image too big for memory: rdload refuses it" \
		'too big'
	sees toobig "and the boot says what to do" \
		'initrd: the RAM disk was not loaded .*give the machine more memory'
	sees toobig "then waits, with no shell to offer" \
		'initrd: no shell \(boot with kit.shell=PATH\); waiting'

	boot badrc "$work/$k-badrc.cpio" "root=/dev/vda" "$work/root-plain.img" \
		'starting /old/bin/sh' 'echo SHELL-REACHED-$((6*7)); poweroff -f'
	sees badrc "a /linuxrc that exits 3 stops the boot" \
		'initrd: /linuxrc failed \(exit 3\); the RAM disk is on /old'
	sees badrc "and reaches the RAM disk's shell" '^SHELL-REACHED-42'

	boot norc "$work/$k-norc.cpio" "root=/dev/vda" "" \
		'starting /root/bin/sh' 'echo SHELL-REACHED-$((6*7)); poweroff -f'
	sees norc "no /linuxrc, root elsewhere: says what to do" \
		'initrd: the RAM disk has no /linuxrc; boot with root=/dev/ram0'
	sees norc "and reaches the RAM disk's shell" '^SHELL-REACHED-42'

	boot noroot "$w" "root=/dev/vdz rootwait=3 rootdelay=1 kit.shell=/old/bin/ash" "" \
		'starting /old/bin/ash' 'echo SHELL-REACHED-$((6*7)); poweroff -f'
	sees noroot "rootdelay= waits first" 'initrd: waiting 1 s \(rootdelay=\)'
	if kver_at_least 6 6; then
		sees noroot "rootwait=3 (6.6+): waits for the root device" \
			'initrd: waiting for root device /dev/vdz\.\.\.'
		sees noroot "then gives up with what to do" \
			"initrd: root device /dev/vdz not found in rootwait's time; check root="
	else
		sees noroot "rootwait=3 before 6.6: not rootwait, and said" \
			'initrd: ignoring rootwait=3: a value needs Linux 6.6; give rootwait alone to wait'
		sees noroot "so it gives up at once with what to do" \
			'initrd: root device /dev/vdz not found; check root='
		unseen noroot "and did not wait" 'initrd: waiting for root device'
	fi
	sees noroot "and reaches the shell kit.shell= names" '^SHELL-REACHED-42'

	# kit.image=: the image's two volumes on two disks, as floppies were.
	boot volumes "$wrap" "root=/dev/ram0 kit.image=/dev/vda,/dev/vdb" \
		"$work/vol.1 $work/vol.2"
	sees volumes "kit.image= names the volumes" \
		'initrd: the image is /dev/vda,/dev/vdb, from kit.image='
	sees volumes "both are loaded" \
		'RAMDISK: Loading 4096KiB \[2 disks\] into ram disk... done'
	sees volumes "and the RAM disk boots" '^ramroot: pid=1 root=/dev/ram0$'

	# Kernels before 7.0 have real-root-dev: /linuxrc may keep the RAM
	# disk as the root by writing 0x100 there, as handle_initrd() read it.
	if ! kver_at_least 7 0; then
		boot rrd "$work/$k-rrd.cpio" "root=/dev/vda" "$work/root-plain.img"
		sees rrd "/linuxrc writes 0x100 to real-root-dev: the RAM disk stays the root" \
			'initrd: /linuxrc chose the RAM disk as the root'
		sees rrd "and its init runs as PID 1" \
			'^ramroot: pid=1 root=/dev/ram0$'
	fi

	boot corrupt "$work/$k-corrupt.cpio" "root=/dev/ram0"
	sees corrupt "a corrupt stream: rdload says so" 'rdload: RAMDISK: gzip data corrupt'
	sees corrupt "and the boot stops with its line" \
		'initrd: the RAM disk was not loaded'
	sees corrupt "then waits, with no shell to offer" \
		'initrd: no shell \(boot with kit.shell=PATH\); waiting'
}

# ---- issue 23: a microcode archive first; no rootwait, rootwait=0 ----

# A missing root= device without rootwait, and with rootwait=0 (no wait
# since 6.6; before, not rootwait at all): the boot stops at once with
# its line and the shell, never waits.
nowait_boots() {
	local name line

	for name in nowait rootwait0; do
		line="root=/dev/vdz kit.shell=/old/bin/ash"
		[ $name = rootwait0 ] && line="$line rootwait=0"
		boot $name "$work/$k.cpio" "$line" "" \
			'starting /old/bin/ash' 'echo SHELL-REACHED-$((6*7)); poweroff -f'
		sees $name "$name: a missing root device stops the boot with its line" \
			'initrd: root device /dev/vdz not found; check root='
		unseen $name "$name: and is not waited for" 'initrd: waiting for root device'
		sees $name "$name: then the shell" '^SHELL-REACHED-42'
	done
	if kver_at_least 6 6; then
		unseen rootwait0 "rootwait=0 (6.6+): taken, nothing said" 'ignoring rootwait'
	else
		sees rootwait0 "rootwait=0 before 6.6: not rootwait, and said" \
			'initrd: ignoring rootwait=0: a value needs Linux 6.6'
	fi
}

# An early microcode archive (cpio -H newc, padded to 512 bytes as
# initramfs-tools and dracut make it) in front of the wrapper and the
# image, as boot loaders put it.
ucode_boot() {
	local u=$work/ucode

	mkdir -p "$u/kernel/x86/microcode"
	head -c 4000 /dev/urandom >"$u/kernel/x86/microcode/AuthenticAMD.bin"
	(cd "$u" && find kernel | cpio --quiet -o -H newc) >"$work/ucode.cpio"
	wrapped "$work/ram.ext2.gz" "$work/$k-ucode-wrapped"
	cat "$work/ucode.cpio" "$work/$k-ucode-wrapped" >"$work/$k-ucode"
	boot ucode "$work/$k-ucode" "root=/dev/ram0 retain_initrd"
	sees ucode "microcode archive first: the image is found" "$found"
	sees ucode "microcode archive first: and the RAM disk boots" \
		'^ramroot: pid=1 root=/dev/ram0$'
}

# ---- main ----

make_tree "$work/t-old" "$(linuxrc_script 0)" -
mkimage ext2 "$work/t-old" "$work/old.ext2" && gzip -9c "$work/old.ext2" >"$work/old.ext2.gz"
make_tree "$work/t-badrc" "$(linuxrc_script 3)" -
mkimage ext2 "$work/t-badrc" "$work/badrc.ext2" && gzip -9c "$work/badrc.ext2" >"$work/badrc.ext2.gz"
make_tree "$work/t-norc" - -
mkimage ext2 "$work/t-norc" "$work/norc.ext2" && gzip -9c "$work/norc.ext2" >"$work/norc.ext2.gz"
make_tree "$work/t-rrd" "#!/bin/sh
/bin/mount -t proc proc /proc && echo 256 >/proc/sys/kernel/real-root-dev
/bin/umount /proc" "$(init_script ramroot)"
mkimage ext2 "$work/t-rrd" "$work/rrd.ext2" && gzip -9c "$work/rrd.ext2" >"$work/rrd.ext2.gz"
make_tree "$work/t-ram" - "$(init_script ramroot)"
# ram_images FS: FS.img of the RAM disk's tree, and each compression.
ram_images() {
	mkimage "$1" "$work/t-ram" "$work/ram.$1" ||
		fail "initrd: [$k] make a $1 image"
	for c in gz bz2 lzma xz lzo lz4 zst; do
		compress "$c" <"$work/ram.$1" >"$work/ram.$1.$c"
	done
}
ram_images ext2
ram_images romfs
head -c 5000 /dev/urandom >"$work/junk"
# Two volumes of whole 512-byte sectors, the last padded with zeros
# (bytes after the stream's end are not read).
half=$(( $(stat -c %s "$work/ram.ext2.gz") / 1024 * 512 ))
head -c "$half" "$work/ram.ext2.gz" >"$work/vol.1"
tail -c +$((half + 1)) "$work/ram.ext2.gz" >"$work/vol.2"
truncate -s %512 "$work/vol.2"
mkimage ext2 "$work/t-ram" "$work/big.ext2" 40960 && zstd -19qc "$work/big.ext2" >"$work/big.ext2.zst"
{ head -c 5120 /dev/urandom; cat "$work/ram.ext2.gz"; } >"$work/start.bin"
truncate -s 300M "$work/huge.ext2" && mke2fs -q -F -t ext2 -d "$work/t-ram" "$work/huge.ext2" &&
	gzip -1c "$work/huge.ext2" >"$work/huge.ext2.gz" && rm -f "$work/huge.ext2"
# A gzip stream damaged in its middle: the CRC or the inflater sees it.
cp "$work/ram.ext2.gz" "$work/corrupt.gz"
printf '\377\377\377\377\377\377\377\377' |
	dd of="$work/corrupt.gz" bs=1 seek=2000 conv=notrunc status=none
make_tree "$work/t-root" - "$(init_script realroot)"
mkdir -p "$work/t-root/initrd"
root_label=kitlabel-16chars
mke2fs -q -F -t ext4 -L "$root_label" -d "$work/t-root" "$work/root-initrd.img" 16384
rm -r "$work/t-root/initrd"
root_uuid=5d1e0c2a-1b7f-4c3e-9a55-6b2f4e8d9c10
mke2fs -q -F -t ext4 -U "$root_uuid" -d "$work/t-root" "$work/root-plain.img" 16384

# root=PARTUUID=: the real root as partition 1 of an MBR disk, and as
# partition 2 of a GPT disk, found from partition 1 with PARTNROFF=1.
gpt_uuid=2a0c1e5d-7f1b-3e4c-9a55-6b2f4e8d9c10
partitioned() {
	truncate -s 20M "$1" &&
		sfdisk -q "$1" >/dev/null &&
		dd if="$work/root-plain.img" of="$1" bs=512 seek="$2" \
			conv=notrunc status=none
}
partitioned "$work/disk-mbr.img" 2048 <<EOF
label: dos
label-id: 0x4b495421
start=2048, type=83
EOF
partitioned "$work/disk-gpt.img" 4096 <<EOF
label: gpt
start=2048, size=2048, uuid=$gpt_uuid
start=4096
EOF
[ "$(sfdisk --part-uuid "$work/disk-gpt.img" 1)" = "${gpt_uuid^^}" ] ||
	fail "initrd: sfdisk made the GPT disk with partition 1's UUID"

host_usage_checks
for k in $kernels; do
	# shellcheck disable=SC2086
	if ! kver=$(tests/vm/fetch "$k" $modules); then
		fail "initrd: [$k] kernel fetched"
		continue
	fi
	root=$PWD/tests/vm/cache/$kver
	host_checks
	[ -d "$work/fakeroot" ] || compression_checks
	for img in badrc norc rrd; do
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -m ext4 -m virtio_pci \
			-m virtio_blk -o "$work/$k-$img.cpio" "$work/$img.ext2.gz"
	done
	"$KIT" initrd mkcpio -r "$root" -k "$kver" -m ext4 \
		-o "$work/$k-toobig.cpio" "$work/huge.ext2.gz"
	"$KIT" initrd mkcpio -r "$root" -k "$kver" -m ext4 \
		-o "$work/$k-corrupt.cpio" "$work/corrupt.gz"
	wrap=$work/$k-bare.cpio
	"$KIT" initrd mkcpio -r "$root" -k "$kver" -m ext4 -m minix \
		-m romfs -m virtio_pci -m virtio_blk -o "$wrap" ||
		fail "initrd: [$k] mkcpio for the boots"
	[ -f "$work/ram.minix" ] || ram_images minix
	boots
	nowait_boots
	ucode_boot
	ram_boots
done
