# Module builds for the rig's kernels (kernel/'s vled), shared by
# tests/vm/run and tests/generators.t; sourced (bash).
kbuild_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# kbuild KVER ROOT [TRIPLET]: sets make, the command that builds modules
# for the kernel unpacked in ROOT (TRIPLET: the cross compiler's, for
# another architecture's).  Headers want the compiler of their own
# release (CC in .kernelvariables: gcc-12 for Debian 12's, gcc-14 for
# 13's) with its C library.  The host's when it has that compiler; else
# make runs in a build root of the release ROOT/.toolchain names
# (tests/vm/buildroot: Debian 13 for 7.3 on a Debian 12 host, Debian 12
# for 6.1 on a Debian 13 host) with that compiler (Debian's cross
# compiler gcc-N-TRIPLET for another architecture), chrooted, with the
# cache at the same path and /proc (objtool reads it) mounted in a mount
# namespace of its own, so the mounts end with make.  Builds must be in
# the cache.  Fails when the build root cannot be made.
kbuild() {
	local headers=$2/usr/src/linux-headers-$1 gcc broot cache

	# Not the caller's make variables (O= would be kbuild's output).
	make=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make)
	gcc=$(sed -n 's/^CC = .*)\(gcc-[0-9]*\)$/\1/p' "$headers/.kernelvariables")
	gcc=${gcc:-gcc}
	if command -v "${3:+$3-}$gcc" >/dev/null || [ ! -f "$2/.toolchain" ]; then
		return 0
	fi
	broot=$("$kbuild_dir/buildroot" "$(cat "$2/.toolchain")" "$gcc${3:+-$3}") ||
		return 1
	cache=$(dirname "$2")
	mkdir -p "$broot$cache"
	make=(unshare --mount --propagation private sh -c '
		mount --bind "$1" "$2$1" && mount -t proc proc "$2/proc" &&
		shift 2 && exec chroot "$0" env -i PATH=/usr/bin:/bin \
			HOME=/root make "$@"' "$broot" "$cache" "$broot")
}
