# The machines qemu emulates for the rig's kernels, and the kit and
# busybox their images take, shared by every boot (tests/vm/run,
# initrd.t, generators.t, tests/vm/demo-initrd); sourced.

# The kit binary of each architecture's guests, as make check builds
# them: KIT (default ./kit), KIT_ARM64 (build/arm64/kit, make ARCH=arm64
# O=build/arm64), KIT_ARM (build/arm/kit), KIT_RISCV64 (build/riscv/kit).
rig_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
declare -A kit_of=([amd64]=${KIT:-$rig_top/kit}
		   [arm64]=${KIT_ARM64:-$rig_top/build/arm64/kit}
		   [armhf]=${KIT_ARM:-$rig_top/build/arm/kit}
		   [riscv64]=${KIT_RISCV64:-$rig_top/build/riscv/kit})
# The kernel's (and kit's Makefile's) name for each: ARCH=.
declare -A kbuild_arch=([amd64]=x86 [arm64]=arm64 [armhf]=arm
			[riscv64]=riscv)

# kernel_arch KERNEL: a kernel's Debian architecture, the word before its
# slash (arm64/6.1), or amd64.
kernel_arch() {
	case $1 in
	*/*) echo "${1%%/*}" ;;
	*) echo amd64 ;;
	esac
}

# busybox_of ARCH ROOT: the static busybox of ARCH's images: the host's
# for amd64, else the one tests/vm/fetch unpacked beside the kernel in
# ROOT (busybox-static of ARCH, from Debian 12, or 13 for riscv64).
busybox_of() {
	if [ "$1" = amd64 ]; then
		echo /bin/busybox
	else
		echo "$2/bin/busybox"
	fi
}

# qemu_machine ARCH [MEM [CPUS]]: sets qemu, the command of ARCH's machine
# with MEM of memory (default 1G; armhf 512M) and CPUS vCPUs (default 2;
# armhf and riscv64 1), no devices, no reboot, and
# console_args, the kernel command line's words for its console (ttyS0,
# or ttyAMA0, the ARM -M virt's one UART; riscv64's -M virt has a 16550,
# ttyS0) and the architecture's needs.  The
# caller adds the kernel, its image, its command line, disks and where
# the console goes.
# arm64's -cpu max with pauth-impdef=on: the architected pointer
# authentication (QARMA) is slow to emulate (qemu's
# docs/system/arm/cpu-features.rst).  One host thread for both vCPUs:
# with a thread each, a vCPU may run code the other has just patched (a
# static key), and the kernel dies of an "Oops: int3" before init, about
# 1 boot in 10 on a busy machine (qemu 7.2).  armhf's one vCPU: with two
# on one host thread, Debian's 6.1 armmp kernel stops for good after its
# pl011 UART probes, every boot; with one, or a thread each, it boots.
# highmem=off: that kernel has no LPAE, and -M virt's PCIe window above
# 4 GiB is a failed probe on its console.  armhf's 512 MiB at most: all
# of it the kernel's lowmem, no highmem page to map; with 1 GiB, Debian's
# 6.12 armmp reading romfs (romfs_read_folio()) warns in
# kunmap_local_indexed() and dies of "kernel BUG at mm/highmem.c:565".
# The boots that only start a system (initrd.t, the generators, the demo's
# old initrd) take one vCPU: bringing up a second, emulated, slows every
# boot.
# x86's no_timer_check: on a loaded host the emulated timer can miss
# check_timer()'s test, and the kernel panics "IO-APIC + timer doesn't
# work!" (io_apic.c).
qemu_machine() {
	local common=(-accel tcg,thread=single -nodefaults -no-reboot
		      -display none)

	case $1 in
	amd64)	qemu=(qemu-system-x86_64 -cpu max -smp "${3:-2}" -m "${2:-1G}")
		console_args="console=ttyS0 no_timer_check" ;;
	arm64)	qemu=(qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on
		      -smp "${3:-2}" -m "${2:-1G}")
		console_args=console=ttyAMA0 ;;
	armhf)	qemu=(qemu-system-arm -M virt,highmem=off -cpu cortex-a15
		      -smp 1 -m "${2:-512M}")
		console_args=console=ttyAMA0 ;;
	# OpenSBI, the firmware that starts the kernel, is qemu's own
	# (-bios default, qemu-system-data's fw_dynamic).  One vCPU: with
	# two, every remote TLB flush is an IPI through OpenSBI (SBI
	# RFENCE), emulated in M-mode, and the guest scripts ran 4-5 times
	# slower (rdload.sh 68-75 s against 16 s).
	riscv64) qemu=(qemu-system-riscv64 -M virt -cpu rv64 -bios default
		      -smp "${3:-1}" -m "${2:-1G}")
		console_args=console=ttyS0 ;;
	*)	echo "qemu_machine: no machine for architecture $1" >&2
		return 1 ;;
	esac
	qemu+=("${common[@]}")
	qemu_arch=$1
}

# qemu_kernel VMLINUZ DIR: adds the kernel to qemu (after qemu_machine).
# An x86 bzImage goes in as the vmlinux inside it, unpacked into DIR (the
# kernel's directory in the cache) when it is not there or older: qemu
# starts that ELF at its PVH entry (CONFIG_PVH, XEN_ELFNOTE_PHYS32_ENTRY;
# qemu's x86_load_linux()), and the kernel's own decompressor, slow under
# emulation, never runs.  Any other image boots as it is, and so does a
# bzImage that does not unpack into a PVH vmlinux, with a line that says so.
qemu_kernel() {
	local image=$1 name=${1##*/} notes
	local vmlinux=$2/vmlinux${name#vmlinuz}

	# No pipe whose reader ends first: callers may set pipefail.
	if [ "$qemu_arch" = amd64 ] && ! [ "$vmlinux" -nt "$image" ]; then
		if bzimage_vmlinux "$image" >"$vmlinux.$$" &&
		   notes=$(readelf -n "$vmlinux.$$" 2>/dev/null) &&
		   grep -q '^ *Xen .*(0x00000012)' <<<"$notes"; then
			mv "$vmlinux.$$" "$vmlinux"
		else
			rm -f "$vmlinux.$$" "$vmlinux"
			echo "qemu_kernel: $image boots as it is: no PVH" \
				"vmlinux unpacks from it" >&2
		fi
	fi
	[ -s "$vmlinux" ] && image=$vmlinux
	qemu+=(-kernel "$image")
}

# bzimage_vmlinux BZIMAGE: the vmlinux a bzImage carries, by its boot
# header (Documentation/arch/x86/boot.rst, protocol 2.08+: payload_offset
# and payload_length after the setup sectors).  Every compressor but gzip
# has the size appended (arch/x86/boot/compressed/Makefile's *_with_size).
bzimage_vmlinux() {
	local setup version offset length magic tool

	[ "$(dd if="$1" bs=1 skip=$((0x202)) count=4 status=none)" = HdrS ] ||
		return 1
	setup=$(od -An -tu1 -j $((0x1f1)) -N1 "$1")
	version=$(od -An -tu2 -j $((0x206)) -N2 "$1")
	offset=$(od -An -tu4 -j $((0x248)) -N4 "$1")
	length=$(od -An -tu4 -j $((0x24c)) -N4 "$1")
	# Numbers, each of them (a short file gives none), and a header
	# that has the payload's fields.
	case "$setup$version$offset$length" in *[!0-9\ ]*) return 1 ;; esac
	[ -n "$setup" ] && [ -n "$version" ] && [ -n "$offset" ] &&
		[ -n "$length" ] && [ "$version" -ge $((0x208)) ] || return 1
	[ "$setup" -ne 0 ] || setup=4
	offset=$(( (setup + 1) * 512 + offset ))
	magic=$(od -An -tx1 -j "$offset" -N4 "$1" | tr -d ' ')
	case $magic in
	1f8b*)		tool="gzip -dc" ;;
	fd377a58)	tool="xz -dc"; length=$((length - 4)) ;;
	28b52ffd)	tool="zstd -qdc"; length=$((length - 4)) ;;
	*)		return 1 ;;
	esac
	dd if="$1" iflag=skip_bytes,count_bytes skip="$offset" count="$length" \
		status=none | $tool
}

# kernel_config ROOT KVER: the path of a fetched kernel's .config (Debian
# 6.x's boot/config-KVER; 7.x's in its modules' directory).
kernel_config() {
	local f

	for f in "$1/boot/config-$2" "$1/usr/lib/modules/$2/config"; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	echo "kernel_config: no .config of $2 in $1" >&2
	return 1
}

# qemu_board DIR ROOT KVER: gives the -M virt machine (after qemu_machine
# and everything it boots with) the rig's board, tests/vm/board.dts: the
# machine's own device tree, dumped by qemu, with three GPIO LEDs grouped
# as one.  They sit on gpio-sim where the kernel has it (CONFIG_GPIO_SIM),
# else on qemu's PL061, found by its compatible; riscv64's -M virt has no
# GPIO controller, so without gpio-sim it boots without the board
# (tests/guest/ledboard.sh says so).  DIR takes the files.
qemu_board() {
	local dir=$1 config node where

	config=$(kernel_config "$2" "$3") || return 1
	mkdir -p "$dir"
	"${qemu[@]}" -machine dumpdtb="$dir/virt.dtb" >/dev/null 2>&1 &&
		dtc -q -I dtb -O dts -o "$dir/virt.dts" "$dir/virt.dtb" ||
		{ echo "qemu_board: qemu did not dump its device tree" >&2; return 1; }
	if grep -q '^CONFIG_GPIO_SIM=[ym]' "$config"; then
		where=-DLED_GPIO_SIM
	else
		for node in $(fdtget -l "$dir/virt.dtb" /); do
			fdtget "$dir/virt.dtb" "/$node" compatible 2>/dev/null |
				grep -qw 'arm,pl061' && break
			node=
		done
		[ -n "$node" ] || [ "$qemu_arch" != riscv64 ] || return 0
		[ -n "$node" ] ||
			{ echo "qemu_board: qemu's machine has no PL061" >&2; return 1; }
		where="-DLED_LINES=&{/$node}"
	fi
	cpp -nostdinc -undef -x assembler-with-cpp "$where" \
		-I "$(echo "$2"/usr/src/linux-headers-*-common/include)" \
		"$rig_top/tests/vm/board.dts" >"$dir/board.dts" &&
		dtc -q -i "$dir" -I dts -O dtb -o "$dir/board.dtb" "$dir/board.dts" ||
		{ echo "qemu_board: tests/vm/board.dts does not build" >&2; return 1; }
	qemu+=(-dtb "$dir/board.dtb")
}
