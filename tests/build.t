#!/bin/bash
# The build as packagers and image builders drive it: their CFLAGS and
# LDFLAGS add to kit's, a missing -dev package is named, and ARCH= cross-
# builds a static kit for each architecture kit supports.  Each build is
# a fresh O= directory of its own.  Each applet builds alone (APPLETS=),
# and the full set: kit --list names that set, and the kit is static; the
# size of each (stripped, as the build leaves it) goes in
# tests/bench/README's table (size).
. "$TESTS/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; t_cleanup' EXIT

# build NAME MAKE-ARGS...: make in $tmp/NAME; its output in $tmp/NAME.log
build() {
	local name=$1
	shift
	env -u KIT make -s --no-print-directory O="$tmp/$name" "$@" \
		>"$tmp/$name.log" 2>&1
}

# A user's CFLAGS (dpkg-buildflags' among them) once replaced kit's own
# include paths and broke the build.
if build os CFLAGS=-Os LDFLAGS=-Wl,-z,relro &&
   "$tmp/os/kit" --version | grep -q '^kit ' &&
   file "$tmp/os/kit" | grep -q 'statically linked'; then
	pass "build: make CFLAGS=-Os LDFLAGS=... builds a static kit"
else
	fail "build: make CFLAGS=-Os LDFLAGS=... builds a static kit" \
		"$(tail -5 "$tmp/os.log")"
fi

# --version names the commit the binary was built from (git describe,
# or "unknown" in a tree without git): a kit built before a commit once
# went on naming the older one.  A new version compiles kit.c again, and
# nothing else; a git describe that fails later ("unknown") changes
# nothing.
name="build: kit --version names the commit it was built from, and a new one rebuilds only kit.o"
want=$(env -u KIT make -s --no-print-directory \
	--eval='print-version: ; @echo $(VERSION)' print-version)
got=$("$tmp/os/kit" --version)
rebuild() {
	env -u KIT make --no-print-directory O="$tmp/os" CFLAGS=-Os \
		LDFLAGS=-Wl,-z,relro VERSION="$1" >"$tmp/version-$1.log" 2>&1
}
rebuild next-commit
rebuild unknown
if [ "$got" = "kit $want" ] &&
   [ "$(grep -c '^  CC ' "$tmp/version-next-commit.log")" = 1 ] &&
   grep -q '^  CC .*core/kit.o$' "$tmp/version-next-commit.log" &&
   ! grep -q '^  CC ' "$tmp/version-unknown.log" &&
   [ "$("$tmp/os/kit" --version)" = "kit next-commit" ]; then
	pass "$name"
else
	fail "$name" "before: $got (make's VERSION: $want)" \
		"$(cat "$tmp/version-next-commit.log" "$tmp/version-unknown.log")"
fi

# Names say whose they are: every symbol an engine (a folder of applets/
# but core) exports starts with its folder's name and "_", and something
# else calls it: another object of kit, or a unit test (tests/*.c).  A
# function one file uses is static.
name="build: each engine's exports carry its prefix, and are used elsewhere"
bad=
find "$tmp/os/" -name '*.o' -exec nm -A -u {} + >"$tmp/undefined"
for src in applets/*/*.c; do
	engine=${src#applets/}
	engine=${engine%%/*}
	obj=$tmp/os/${src#applets/}
	obj=${obj%.c}.o
	[ "$engine" = core ] && continue
	syms=$(nm -g --defined-only "$obj" | awk 'NF == 3 { print $3 }') ||
		bad="$bad $obj (nm failed)"
	for sym in $syms; do
		case $sym in
		"${engine}_"*) ;;
		*) bad="$bad $sym (no ${engine}_ prefix)"; continue ;;
		esac
		awk -v sym="$sym" -v own="$obj:" \
			'$NF == sym && $1 != own { found = 1 } END { exit !found }' \
			"$tmp/undefined" ||
			grep -qw "$sym" "$TESTS"/*.c "$TESTS"/*.h ||
			bad="$bad $sym (used in ${src#applets/} alone)"
	done
done
if [ -z "$bad" ] && [ -s "$tmp/undefined" ]; then
	pass "$name"
else
	fail "$name" "${bad:-no objects in $tmp/os}"
fi

# An applet includes an engine by its one public header, ENGINE/ENGINE.h
# (README, "Adding an applet"): the layers' headers are the engine's.
# The core's is core/kit.h.
name="build: applets include each engine as ENGINE/ENGINE.h alone"
others=$(grep -H '^#include "[a-z]*/' applets/*.c |
	grep -v -e '#include "\([a-z]*\)/\1\.h"$' -e '#include "core/kit.h"$')
if [ -z "$others" ] && grep -q '^#include "led/led.h"$' applets/mcled.c; then
	pass "$name"
else
	fail "$name" "$others"
fi

# A header the compiler cannot take stands for a -dev package missing.
mkdir "$tmp/inc"
echo '#error not installed' >"$tmp/inc/zstd.h"
build nozstd CPPFLAGS="-I$tmp/inc"
status=$?
msg=$(grep -v '^make' "$tmp/nozstd.log")
if [ "$status" -ne 0 ] && [ "$msg" = "kit: the build needs the Debian packages libzstd-dev; run 'make deps' as root" ] &&
   [ -z "$(find "$tmp/nozstd" -name '*.o')" ]; then
	pass "build: a missing -dev package is named before anything is compiled"
else
	fail "build: a missing -dev package is named before anything is compiled" \
		"status $status" "$(cat "$tmp/nozstd.log")"
fi

# A kit without the socket applets needs no libbpf-dev or libelf-dev:
# their headers missing stop only a build that has tcpiter or udpiter.
mkdir -p "$tmp/nobpf/bpf"
echo '#error not installed' >"$tmp/nobpf/bpf/libbpf.h"
echo '#error not installed' >"$tmp/nobpf/libelf.h"
name="build: APPLETS without tcpiter and udpiter needs no libbpf-dev or libelf-dev"
if build nobpf-set -j2 CPPFLAGS="-I$tmp/nobpf" APPLETS="initrd mcled rdload" &&
   build nobpf-all CPPFLAGS="-I$tmp/nobpf"; then
	fail "$name" "the full build went on without libbpf.h"
elif [ -x "$tmp/nobpf-set/kit" ] &&
     grep -q "^kit: the build needs the Debian packages libbpf-dev libelf-dev; run 'make deps' as root$" \
	"$tmp/nobpf-all.log"; then
	pass "$name"
else
	fail "$name" "$(tail -3 "$tmp/nobpf-set.log")" "$(cat "$tmp/nobpf-all.log")"
fi

# ARCH= takes the kernel's names.  `file` names the machine.
cross() {
	local arch=$1 machine=$2 name="build: make ARCH=$1 builds a static $2 kit"

	if build "$arch" ARCH="$arch" &&
	   file "$tmp/$arch/kit" | grep -q "$machine.*statically linked"; then
		pass "$name"
		echo "note: build: ARCH=$arch: kit is $(stat -c %s "$tmp/$arch/kit") bytes"
	else
		fail "$name" "$(file "$tmp/$arch/kit" 2>&1)" \
			"$(tail -5 "$tmp/$arch.log")"
	fi
	# Types differ by architecture (32-bit ARM's statfs f_type is int).
	if grep -q 'warning:' "$tmp/$arch.log"; then
		fail "build: make ARCH=$arch builds without warnings" \
			"$(grep -A3 'warning:' "$tmp/$arch.log")"
	else
		pass "build: make ARCH=$arch builds without warnings"
	fi
}
cross arm64 'ARM aarch64'
# Without O=, a cross build has build/ARCH to itself: in build/ and ./kit
# the host's objects were taken for arm64's, and "nothing to be done".
expect "build: make ARCH=arm64 builds build/arm64/kit, not ./kit" 0 \
	"build/arm64/kit build/arm64" env -u KIT -u O make -s \
	--no-print-directory ARCH=arm64 \
	--eval='print-kit: ; @echo $(KIT) $(O)' print-kit
cross arm 'ARM, EABI5'
cross x86 'x86-64'
cross riscv 'UCB RISC-V'

# riscv64's sysroot is Debian 13's (Debian 12 has no riscv64 port), whose
# libc.a Debian 12's cross linker (binutils 2.40) cannot link: there the
# sysroot brings Debian 13's linker (.host-ld) and the link takes it
# (gcc -B); a host whose own links (Debian 13's) takes its own.
name="build: make ARCH=riscv links with the host's linker, or Debian 13's where the host's cannot"
# The link again, its command shown: cross's objects are up to date.
if ! sysroot=$(tests/sysroot riscv64) ||
   ! env -u KIT make --no-print-directory O="$tmp/riscv" ARCH=riscv V=1 \
	KIT="$tmp/riscv/kit-v" "$tmp/riscv/kit-v" >"$tmp/riscv-v.log" 2>&1; then
	fail "$name" "$(tail -5 "$tmp/riscv-v.log")"
elif printf 'int main(void) { return 0; }\n' | riscv64-linux-gnu-gcc \
	--sysroot="$sysroot" -static -x c - -o /dev/null 2>/dev/null; then
	[ ! -e "$sysroot/.host-ld" ] &&
		! grep -q -- "-B$sysroot/.host-ld/" "$tmp/riscv-v.log" &&
		pass "$name: the host's" ||
		fail "$name: the host's links, yet another was taken"
elif "$sysroot/.host-ld/ld" --version | grep -q '^GNU ld' &&
     grep -q -- "--sysroot=$sysroot -B$sysroot/.host-ld/ .*-o $tmp/riscv/kit-v" \
	"$tmp/riscv-v.log"; then
	pass "$name: Debian 13's"
else
	fail "$name: Debian 13's" "$(grep -- "-o $tmp/riscv/kit-v" "$tmp/riscv-v.log")"
fi

# SYSROOT=: a sysroot the user has (Buildroot's staging directory, a Yocto
# SDK's) is taken as given: here the cache's own, named explicitly, and
# an empty one, which the build names as lacking each -dev package's
# headers before it compiles anything.
name="build: make ARCH=arm64 SYSROOT=DIR builds against DIR"
if sysroot=$(tests/sysroot arm64) &&
   env -u KIT make --no-print-directory O="$tmp/sysroot" ARCH=arm64 \
	SYSROOT="$sysroot" V=1 >"$tmp/sysroot.log" 2>&1 &&
   grep -q -- "--sysroot=$sysroot" "$tmp/sysroot.log" &&
   file "$tmp/sysroot/kit" | grep -q 'ARM aarch64.*statically linked'; then
	pass "$name"
else
	fail "$name" "$(tail -5 "$tmp/sysroot.log")"
fi
mkdir "$tmp/empty-sysroot"
build no-sysroot ARCH=arm64 SYSROOT="$tmp/empty-sysroot"
status=$?
msg=$(grep -v '^make' "$tmp/no-sysroot.log")
want="kit: SYSROOT $tmp/empty-sysroot lacks the headers of the Debian packages libbpf-dev libelf-dev zlib1g-dev liblzma-dev libbz2-dev libzstd-dev liblz4-dev liblzo2-dev (arm64)"
if [ "$status" -ne 0 ] && [ "$msg" = "$want" ] &&
   [ -z "$(find "$tmp/no-sysroot" -name '*.o')" ]; then
	pass "build: a SYSROOT without the -dev packages is named before anything is compiled"
else
	fail "build: a SYSROOT without the -dev packages is named before anything is compiled" \
		"status $status" "$msg"
fi

# Where the host's libelf.a does not link statically (Debian 13's 0.192
# lacks eu_search_tree_init()), a native build takes its static libraries
# from kit's sysroot of the host's architecture: here made to, by saying
# the host's does not link.
name="build: a host libelf that cannot link statically: the sysroot's instead"
if hostroot=$(tests/sysroot "$(dpkg --print-architecture)") &&
   env -u KIT make --no-print-directory O="$tmp/native-sysroot" V=1 \
	static_libelf_links= >"$tmp/native-sysroot.log" 2>&1 &&
   grep -q -- "-L$hostroot/usr/lib/" "$tmp/native-sysroot.log" &&
   file "$tmp/native-sysroot/kit" | grep -q 'statically linked' &&
   "$tmp/native-sysroot/kit" tcpiter -s listening >/dev/null; then
	pass "$name"
else
	fail "$name" "$(tail -5 "$tmp/native-sysroot.log")"
fi

# Debian 13's bpftool (7.5) writes the skeletons' objects as aligned
# arrays, Debian 12's (7.1) inline: skelpack packs both, and the kit built
# with 7.5's skeletons dumps what the host's kit dumps.
name="build: skeletons of Debian 13's bpftool 7.5 are packed and load"
if ! bpftool75=$(tests/bpftool trixie 2>"$tmp/bpftool75.err"); then
	fail "$name" "$(cat "$tmp/bpftool75.err")"
elif ! build bpftool75 BPFTOOL="$bpftool75" APPLETS="tcpiter udpiter"; then
	fail "$name" "$(tail -5 "$tmp/bpftool75.log")"
else
	unpacked=$(for h in "$tmp"/bpftool75/*skel.h; do
		want=1
		case $h in *.lskel.h) want=2 ;; esac
		[ "$(grep -c 'sock_bpf_blob(&blob' "$h")" = "$want" ] ||
			echo "$h: not $want objects packed"
	done)
	if [ -z "$unpacked" ] &&
	   "$tmp/bpftool75/kit" tcpiter -s listening >"$tmp/75.out" &&
	   "$KIT" tcpiter -s listening >"$tmp/71.out" &&
	   cmp -s "$tmp/75.out" "$tmp/71.out" &&
	   "$tmp/bpftool75/kit" udpiter >/dev/null; then
		pass "$name"
	else
		fail "$name" "$unpacked" "$(diff "$tmp/75.out" "$tmp/71.out")"
	fi
fi

# APPLETS=: each applet alone, and all of them.  A kit without tcpiter and
# udpiter links no libbpf: its link line names no -lbpf or -lelf and no
# BPF object went into it.
all_applets=$(all_applets | paste -sd' ')
applets_alone() {
	local set=$1 name=$2 dir=$tmp/$2 list bpf

	if ! build "$name" -j2 APPLETS="$set" V=1; then
		fail "build: APPLETS=\"$set\" builds" "$(tail -5 "$tmp/$name.log")"
		return
	fi
	list=$("$dir/kit" --list | sort | paste -sd' ')
	want=$(echo $set | tr ' ' '\n' | sort | paste -sd' ')
	if [ "$list" = "$want" ] &&
	   file "$dir/kit" | grep -q 'statically linked'; then
		pass "build: APPLETS=\"$set\": a static kit of exactly those"
	else
		fail "build: APPLETS=\"$set\": a static kit of exactly those" \
			"kit --list: $list" "$(file "$dir/kit")"
	fi
	case " $set " in
	*" tcpiter "*|*" udpiter "*) ;;
	*)	bpf=$(grep -E -e '-lbpf|-lelf|\.bpf\.o|skel\.h' "$tmp/$name.log"
		      find "$dir" -name '*.bpf.o' -o -name '*skel.h')
		if [ -z "$bpf" ]; then
			pass "build: APPLETS=\"$set\": no libbpf, libelf or BPF object"
		else
			fail "build: APPLETS=\"$set\": no libbpf, libelf or BPF object" \
				"$bpf"
		fi ;;
	esac
	echo "note: build: APPLETS=\"$set\": kit is $(stat -c %s "$dir/kit") bytes stripped"
}
for a in $all_applets; do
	applets_alone "$a" "alone-$a"
done
applets_alone "$all_applets" all
