# initrd: `kit initrd mkcpio` on the host, then real boots of Debian
# kernels under qemu with the wrapper in front of old-style images made
# by the real tools, and a virtio disk holding a real root.  Kernels of
# other architectures (arm64/7.3) boot their own kit (tests/vm/qemu.sh's
# kit_of) and images whose busybox is theirs, on tests/vm/run's machines.
#   INITRD_KERNELS   the kernels to boot (default "6.1 6.12 7.3 arm64/7.3
#                    armhf/6.1 riscv64/7.2": each side of 6.8's
#                    retain_initrd, commit 2678fd2fe9ee, and of 7.0's
#                    removal, commits c350a65b566b and e6ce36ccc86f, on
#                    each architecture; riscv64's after both)
. "$TESTS/lib.sh"
. "$TESTS/vm/qemu.sh"
run_unit initrd_unit
base=$(mktemp -d /tmp/kit-initrd.XXXXXX)
work=$base
trap 'rm -rf --one-file-system "$base"; t_cleanup' EXIT
kernels=${INITRD_KERNELS:-6.1 6.12 7.3 arm64/7.3 armhf/6.1 riscv64/7.2}
host_arch=$(dpkg --print-architecture)
# The modules the wrappers take (7.x caches keep only those named).
modules="brd ext4 jbd2 crc32c_cryptoapi crc32c_generic crc32c_intel minix romfs
	virtio_pci virtio_blk"

# ---- images ----

# A tree with a static busybox ($busybox, the kernel's architecture's) as
# /bin/sh and the given /linuxrc and /sbin/init scripts (either may be
# "-": none).  The host's busybox names the applets: the other
# architectures' come from the same Debian release (tests/vm/fetch).
make_tree() {
	local dir=$1 linuxrc=$2 init=$3

	mkdir -p "$dir"/{bin,sbin,proc,sys,dev,mnt}
	cp "$busybox" "$dir/bin/"
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
	wrapped "$work/minix-builder.ext2" "$work/$kn-minix-builder"
	boot minix-builder "$work/$kn-minix-builder" \
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
	local log=$work/$name.log fifo=$work/$name.in qemu console_args
	local pid w d status t0=$SECONDS

	qemu_machine "$arch" "${mem:-512M}" 1
	qemu_kernel "$root/boot/vmlinuz-$kver" "$root/boot"
	qemu+=(-serial stdio -initrd "$initrd"
	       -append "$console_args panic=-1 loglevel=4 $append")
	for d in $disk; do
		qemu+=(-drive "file=$d,format=raw,if=virtio")
	done
	rm -f "$fifo"
	mkfifo "$fifo"
	: >"$log.raw"
	timeout 300 "${qemu[@]}" <"$fifo" >"$log.raw" 2>&1 &
	pid=$!
	exec {w}>"$fifo"
	# A failed boot without a shell ends in the kernel's panic: panic=-1
	# and -no-reboot end qemu.  The console is watched only until the
	# PATTERN shows.
	while [ -n "$pattern" ] && kill -0 "$pid" 2>/dev/null; do
		if tr -d '\r' <"$log.raw" | grep -Eq "$pattern"; then
			if [ -n "$input" ]; then
				printf '%s\n' "$input" >&"$w"
			else
				kill "$pid"
			fi
			pattern=
		else
			sleep 0.3
		fi
	done
	wait "$pid" 2>/dev/null
	status=$?
	exec {w}>&-
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
	local moddir=$root/lib/modules/$kver out=$work/$kn.cpio x=$work/x-$kn

	# No -m ext4: mkcpio finds ext2 inside the gzip and takes its module.
	expect "initrd: [$k] mkcpio -m virtio_pci -m virtio_blk IMAGE" 0 "" \
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -i "$init" \
		-m virtio_pci -m virtio_blk -o "$out" "$work/old.ext2.gz"
	mkdir -p "$x"
	(cd "$x" && cpio -id --quiet <"$out") ||
		fail "initrd: [$k] cpio -i reads the wrapper"
	if cmp -s "$x/init" "$init" && [ -x "$x/init" ]; then
		pass "initrd: [$k] /init is the $arch kit"
	else
		fail "initrd: [$k] /init is the $arch kit"
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
	# romfs needs mtd where the kernel reads romfs from MTD too (x86,
	# arm64), and nothing on armmp: what modules.dep says, last first.
	expect "initrd: [$k] mkcpio takes the module of a romfs.xz image" 0 \
		"brd $(awk '$1 ~ /\/romfs\.ko[.a-z]*:$/ {
			for (i = NF; i > 1; i--) { m = $i; sub(/.*\//, "", m)
				sub(/\.ko.*/, "", m); printf "%s ", m } }' \
			"$moddir/modules.dep")romfs" sh -c '"$1" initrd mkcpio -r "$2" -k "$3" -i "$5" "$4" |
			cpio -i --quiet --to-stdout kit/modules | awk "{ print \$1 }" |
			tr "\n" " " | sed "s/ \$//"' sh "$KIT" "$root" "$kver" \
		"$work/ram.romfs.xz" "$init"
	expect_err "initrd: [$k] mkcpio: an IMAGE the kernel would not find" 1 \
		"initrd: .*/junk: RAMDISK: Couldn't find valid RAM disk image starting at 0\\.; give -s START if it starts at a later block" \
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -i "$init" -o "$work/n.cpio" "$work/junk"
	expect_err "initrd: [$k] mkcpio: an unknown module" 1 \
		"initrd: no module nosuchmod in .*/modules.dep" \
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -i "$init" -m nosuchmod -o "$work/n.cpio"
	# A wrapper made here for another machine's kernel takes that
	# machine's kit: this kit as its /init would not run there.
	[ "$arch" = "$host_arch" ] && return
	expect_err "initrd: [$k] mkcpio without -i: this kit is not for the kernel's machine" 1 \
		"initrd: .*/brd\\.ko.* is a module for ${kbuild_arch[$arch]}, but /init would be this kit, built for ${kbuild_arch[$host_arch]}; give -i KIT, a kit built with make ARCH=${kbuild_arch[$arch]}$" \
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -o "$work/n.cpio"
	[ -e "$work/n.cpio" ] &&
		fail "initrd: [$k] mkcpio without -i: no archive left" ||
		pass "initrd: [$k] mkcpio without -i: no archive left"
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
		"$KIT" initrd mkcpio -r "$fake" -k 9.9 -i "$init" -m m-xz -o "$out"
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
		"$KIT" initrd mkcpio -r "$fake" -k 9.9 -i "$init" -m bad -o "$out"
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
	# -i KIT: what the kernel could not execute as /init is refused.
	cp "$KIT" "$work/kit-noexec" && chmod 644 "$work/kit-noexec"
	for f in "$TESTS/lib.sh" "$work/kit-noexec"; do
		expect_err "initrd: mkcpio -i: refuses $(basename "$f")" 1 \
			"initrd: $f is not an executable ELF file; give -i KIT, a kit binary" \
			"$KIT" initrd mkcpio -i "$f" -o "$work/n.cpio"
	done
	expect_err "initrd: mkcpio -i: refuses a directory" 1 \
		"initrd: $TESTS is a directory; give -i KIT, a kit binary" \
		"$KIT" initrd mkcpio -i "$TESTS" -o "$work/n.cpio"
	[ -e "$work/n.cpio" ] &&
		fail "initrd: mkcpio -i refused: no archive left" ||
		pass "initrd: mkcpio -i refused: no archive left"
}

# mkcpio_for ARG...: kit initrd mkcpio for the kernel booted ($kver of
# $root), its kit as /init.
mkcpio_for() {
	"$KIT" initrd mkcpio -r "$root" -k "$kver" -i "$init" "$@"
}

# wrapped IMAGE OUT [START]: the image behind the wrapper, as a boot loader
# puts it (found in /sys/firmware/initrd, retain_initrd, 6.8+, commit
# 2678fd2fe9ee), or inside the cpio on older kernels; sets $found to the
# console line that says so.
wrapped() {
	if kver_at_least 6 8; then
		cat "$wrap" "$1" >"$2"
		found='initrd: the image follows the cpio in /sys/firmware/initrd'
	else
		mkcpio_for -s "${3:-0}" -m minix -m virtio_pci -m virtio_blk \
			-o "$2" "$1"
		found='initrd: the image is the one in the cpio'
	fi
}

# root=/dev/ram0: every compressor, over ext2, minix and romfs, a big
# image and ramdisk_start=.
ram_boots() {
	local codecs=(gz bz2 lzma xz lzo lz4 zst) i=$((kernel_no * 3)) c fs
	local name args=

	for fs in ext2 minix romfs; do
		c=${codecs[i++ % ${#codecs[@]}]}
		name=ram-$fs-$c
		args=${args:-$name}
		wrapped "$work/ram.$fs.$c" "$work/$kn-ram.$fs.$c"
		boot "$name" "$work/$kn-ram.$fs.$c" \
			"root=/dev/ram0 retain_initrd init=/sbin/init one two"
		sees "$name" "root=/dev/ram0: $fs.$c boots its own init as PID 1" \
			'^ramroot: pid=1 root=/dev/ram0$'
		sees "$name" "$fs.$c: says where it found the image" "$found"
	done
	sees "$args" "init gets the command line's arguments" \
		'^ramroot: args=one two$'

	wrapped "$work/big.ext2.zst" "$work/$kn-big"
	boot big "$work/$kn-big" "root=/dev/ram0 retain_initrd init=/nosuch"
	sees big "a 40 MiB image (over the old 16 MiB brd size) loads" \
		'RAMDISK: Loading 40960KiB \[1 disk\] into ram disk... done'
	sees big "and boots" '^ramroot: pid=1 root=/dev/ram0$'
	sees big "an init= that cannot run is said, then the usual ones run" \
		'initrd: cannot run init=/nosuch: No such file or directory; trying the usual ones$'

	wrapped "$work/start.bin" "$work/$kn-start" 5
	boot start "$work/$kn-start" "root=/dev/ram0 retain_initrd ramdisk_start=5"
	sees start "ramdisk_start=5 finds the image at block 5" \
		'RAMDISK: gzip image found at block 5'
	sees start "and boots it" '^ramroot: pid=1 root=/dev/ram0$'
}

# ---- the boots, on one kernel ----

boots() {
	local w=$work/$kn.cpio

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

	# Failures: one line, then the shell kit.shell asks for, or the
	# kernel's panic, which panic=-1 turns into a reboot (qemu ends).
	boot noimage "$wrap" "root=/dev/vda"
	sees noimage "no image: says so and what to do" \
		'initrd: no RAM disk image: none follows the cpio'
	sees noimage "no kit.shell: PID 1 ends, as the kernel panicked" \
		'initrd: no kit.shell on the command line; ending as the kernel did: a panic \(panic=N reboots\)'
	sees noimage "and the kernel panics: panic=-1 reboots" \
		'Kernel panic - not syncing: Attempted to kill init'

	# No root= at all (noinitrd, so nothing is loaded first): on the
	# first kernel only, a failure that differs by no kernel.
	if [ "$kernel_no" = 0 ]; then
		boot noroot-given "$w" "noinitrd"
		sees noroot-given "no root=: says how to name the real root" \
			'initrd: no root= on the kernel command line: name the real root \(root=/dev/vda, UUID=\.\.\., LABEL=\.\.\.\), or root=/dev/ram0 to boot the RAM disk$'
	fi

	mem=256M boot toobig "$work/$kn-toobig.cpio" "root=/dev/vda kit.shell=/nosuch"
	sees toobig "an image too big for memory: rdload refuses it" \
		'too big'
	sees toobig "and the boot says what to do" \
		'initrd: the RAM disk was not loaded .*give the machine more memory'
	sees toobig "kit.shell= but no shell runs: PID 1 ends" \
		'initrd: no shell runs \(kit.shell=/nosuch, /bin/sh, /root/bin/sh, /old/bin/sh\); ending as the kernel did: a panic \(panic=N reboots\)'
	sees toobig "and the kernel panics" \
		'Kernel panic - not syncing: Attempted to kill init'

	boot badrc "$work/$kn-badrc.cpio" "root=/dev/vda kit.shell" "$work/root-plain.img" \
		'starting /old/bin/sh' 'echo SHELL-REACHED-$((6*7)); poweroff -f'
	sees badrc "a /linuxrc that exits 3 stops the boot" \
		'initrd: /linuxrc failed \(exit 3\); the RAM disk is on /old'
	sees badrc "and kit.shell alone reaches the RAM disk's shell" '^SHELL-REACHED-42'

	boot norc "$work/$kn-norc.cpio" "root=/dev/vda" "$work/root-initrd.img"
	sees norc "no /linuxrc: said, and the boot goes on, as handle_initrd() did" \
		'initrd: the RAM disk has no /linuxrc: going on to the root'
	sees norc "to the real root's init, PID 1 on /dev/root" \
		'^realroot: pid=1 root=/dev/root$'
	sees norc "with the RAM disk on /initrd" '^realroot: ram0 mounted at: /initrd$'

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

	# Kernels before 7.0 have real-root-dev (commit e6ce36ccc86f removed
	# it): /linuxrc may keep the RAM disk as the root by writing 0x100
	# there, as handle_initrd() read it.
	if ! kver_at_least 7 0; then
		boot rrd "$work/$kn-rrd.cpio" "root=/dev/vda" "$work/root-plain.img"
		sees rrd "/linuxrc writes 0x100 to real-root-dev: the RAM disk stays the root" \
			'initrd: /linuxrc chose the RAM disk as the root'
		sees rrd "and its init runs as PID 1" \
			'^ramroot: pid=1 root=/dev/ram0$'
	fi

	boot corrupt "$work/$kn-corrupt.cpio" "root=/dev/ram0"
	sees corrupt "a corrupt stream: rdload says so" 'rdload: RAMDISK: gzip data corrupt'
	sees corrupt "and the boot stops with its line" \
		'initrd: the RAM disk was not loaded'
	sees corrupt "then ends, with no kit.shell" \
		'initrd: no kit.shell on the command line; ending as the kernel did'
}

# ---- issue 23: a microcode archive first; no rootwait, rootwait=0 ----

# A missing root= device without rootwait, and with rootwait=0 (no wait
# since 6.6, commit 3b0086ced97f; before, not rootwait at all): the boot
# stops at once with its line and the shell, never waits.
nowait_boots() {
	local name line

	for name in nowait rootwait0; do
		line="root=/dev/vdz kit.shell=/old/bin/ash"
		[ $name = rootwait0 ] && line="$line rootwait=0"
		boot $name "$work/$kn.cpio" "$line" "" \
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
	wrapped "$work/ram.ext2.gz" "$work/$kn-ucode-wrapped"
	cat "$work/ucode.cpio" "$work/$kn-ucode-wrapped" >"$work/$kn-ucode"
	boot ucode "$work/$kn-ucode" "root=/dev/ram0 retain_initrd"
	sees ucode "microcode archive first: the image is found" "$found"
	sees ucode "microcode archive first: and the RAM disk boots" \
		'^ramroot: pid=1 root=/dev/ram0$'
}

# ---- the images, for one architecture ----

# The real root's ext4 label (16 characters, the longest) and UUID, and
# the GPT partition's UUID that root=PARTUUID= names.
root_label=kitlabel-16chars
root_uuid=5d1e0c2a-1b7f-4c3e-9a55-6b2f4e8d9c10
gpt_uuid=2a0c1e5d-7f1b-3e4c-9a55-6b2f4e8d9c10

# ram_images FS: FS.img of the RAM disk's tree, and each compression.
ram_images() {
	mkimage "$1" "$work/t-ram" "$work/ram.$1" ||
		fail "initrd: [$k] make a $1 image"
	for c in gz bz2 lzma xz lzo lz4 zst; do
		compress "$c" <"$work/ram.$1" >"$work/ram.$1.$c"
	done
}

partitioned() {
	truncate -s 20M "$1" &&
		sfdisk -q "$1" >/dev/null &&
		dd if="$work/root-plain.img" of="$1" bs=512 seek="$2" \
			conv=notrunc status=none
}

# The images every boot of $arch takes, in $work; their busybox is
# $busybox.
arch_images() {
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
	mke2fs -q -F -t ext4 -L "$root_label" -d "$work/t-root" "$work/root-initrd.img" 16384
	rm -r "$work/t-root/initrd"
	mke2fs -q -F -t ext4 -U "$root_uuid" -d "$work/t-root" "$work/root-plain.img" 16384

	# root=PARTUUID=: the real root as partition 1 of an MBR disk, and as
	# partition 2 of a GPT disk, found from partition 1 with PARTNROFF=1.
	partitioned "$work/disk-mbr.img" 2048 <<-EOF
	label: dos
	label-id: 0x4b495421
	start=2048, type=83
	EOF
	partitioned "$work/disk-gpt.img" 4096 <<-EOF
	label: gpt
	start=2048, size=2048, uuid=$gpt_uuid
	start=4096
	EOF
	[ "$(sfdisk --part-uuid "$work/disk-gpt.img" 1)" = "${gpt_uuid^^}" ] ||
		fail "initrd: sfdisk made the GPT disk with partition 1's UUID"
}

# ---- main ----

# kernel_boots: every check on kernel $k; first a line that names its
# package's version ("initrd: [arm64/7.3] kernel 7.3.4+deb13-arm64").
kernel_boots() {
	kn=${k//\//-} arch=$(kernel_arch "$k")
	init=${kit_of[$arch]}
	# shellcheck disable=SC2086
	if ! kver=$(tests/vm/fetch "$k" $modules); then
		fail "initrd: [$k] kernel fetched"
		return
	fi
	echo "initrd: [$k] kernel $kver"
	root=$PWD/tests/vm/cache/$kver
	if [ ! -f "$init" ]; then
		fail "initrd: [$k] a kit for $arch" \
			"no $init: make ARCH=${kbuild_arch[$arch]} did not build it" \
			"(make check says why)"
		return
	fi
	busybox=$(busybox_of "$arch" "$root")
	work=$base/$arch
	[ -d "$work" ] || { mkdir "$work" && arch_images; }
	host_checks
	[ -d "$base/fakeroot" ] || (work=$base; compression_checks)
	for img in badrc norc rrd; do
		mkcpio_for -m ext4 -m virtio_pci -m virtio_blk \
			-o "$work/$kn-$img.cpio" "$work/$img.ext2.gz"
	done
	mkcpio_for -m ext4 -o "$work/$kn-toobig.cpio" "$work/huge.ext2.gz"
	mkcpio_for -m ext4 -o "$work/$kn-corrupt.cpio" "$work/corrupt.gz"
	wrap=$work/$kn-bare.cpio
	mkcpio_for -m ext4 -m minix -m romfs -m virtio_pci -m virtio_blk \
		-o "$wrap" ||
		fail "initrd: [$k] mkcpio for the boots"
	[ -f "$work/ram.minix" ] || ram_images minix
	boots
	nowait_boots
	ucode_boot
	ram_boots
}

# Each kernel's checks, then what passed on each, as tests/README's table
# of the rig's kernels shows them.
host_usage_checks
# Each filesystem boots on every kernel, with a compression that turns
# with the kernel's place in the list (ram_boots): over the rig's five
# kernels each of the seven boots; rdload.t tests every codec on the host.
kernel_no=0
for k in $kernels; do
	kernel_boots | tee "$base/${k//\//-}.out"
	kernel_no=$((kernel_no + 1))
done
echo "initrd: the boots of each kernel (tests/initrd.t):"
printf '  %-12s %-24s %-6s %s\n' kernel "Debian package" boots checks
for k in $kernels; do
	out=$base/${k//\//-}.out
	p=$(grep -c "^PASS: initrd: \[$k\] " "$out")
	f=$(grep -c "^FAIL: initrd: \[$k\] " "$out")
	printf '  %-12s %-24s %-6s %s\n' "$k" \
		"$(sed -n "s|^initrd: \[$k\] kernel ||p" "$out")" \
		"$(grep -c "^initrd: \[$k\] .*: boot took" "$out")" \
		"$([ "$f" -eq 0 ] && echo "PASS $p" || echo "FAIL $f of $((p + f))")"
done
