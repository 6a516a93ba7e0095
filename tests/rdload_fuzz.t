#!/bin/bash
# rdload under libFuzzer, ASan and UBSan (tests/rdload_fuzz.c): builds the
# target, makes tiny seed images with the real tools (every filesystem the
# kernel finds, every compressor it reads), and fuzzes them for
# RDLOAD_FUZZ_TIME seconds (default 30).  PASS when nothing crashed.
# Before it, initrd's cpio walk (tests/cpio_fuzz.c) and mkcpio's module
# unpacking (tests/mkcpio_fuzz.c), the same way.
# The build shrinks rdload's buffers (RDLOAD_SMALL_BUFFERS: 64 KiB blocks,
# 4 KiB writes), and the seeds include blocks at and over that maximum
# and lzop's longest header, so the fuzzer's inputs reach every buffer's
# end.
. "$TESTS/lib.sh"

time=${RDLOAD_FUZZ_TIME:-30}
work=$(mktemp -d /tmp/kit-rdfuzz.XXXXXX)
trap 'rm -rf "$work"; t_cleanup' EXIT
fuzz=$work/rdload_fuzz

# fuzz_build NAME BINARY SOURCE...: builds the target; false (and a FAIL)
# when it does not build.
fuzz_build() {
	local name=$1 bin=$2

	shift 2
	if ! clang -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Iapplets -o "$bin" "$@" \
		-lz -llzma -lbz2 -lzstd -llz4 -llzo2 2>"$bin.cc.log"
	then
		fail "$name: builds with clang -fsanitize=fuzzer" \
			"$(tail -5 "$bin.cc.log")"
		return 1
	fi
	pass "$name: builds with clang -fsanitize=fuzzer,address,undefined"
}

# run_fuzzer NAME BINARY DIR TIME OPTION...: fuzzes DIR/seeds into
# DIR/corpus for TIME seconds; PASS when nothing crashed, else FAIL with
# the report and a reproducer (base64).
run_fuzzer() {
	local name=$1 bin=$2 dir=$3 time=$4 status runs

	shift 4
	"$bin" -max_total_time="$time" "$@" -print_final_stats=1 \
		-artifact_prefix="$dir/" "$dir/corpus" "$dir/seeds" \
		>"$dir/fuzz.log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz.log")
	if [ "$status" -eq 0 ] && [ "${runs:-0}" -gt 0 ]; then
		pass "$name: $runs runs in ${time}s, no crash"
	else
		fail "$name: no crash in ${time}s (status $status)" \
			"$(grep -E -A12 'ERROR|runtime error|deadly' "$dir/fuzz.log" |
			   head -40)" \
			"reproducer: $(ls "$dir"/crash-* "$dir"/leak-* \
				"$dir"/timeout-* "$dir"/oom-* 2>/dev/null |
				head -1 | xargs -r base64 -w0)"
	fi
}

# ---- initrd's boot_cpio_end() (tests/cpio_fuzz.c): where /init finds the
# image after the leading newc archives, for CPIO_FUZZ_TIME seconds
# (default 20).  Seeds: a microcode archive as cpio -H newc makes it,
# then a wrapper, NUL padding and a gzip stream, and a cut archive.
cpio_fuzz() {
	local w=$work/cpio

	mkdir -p "$w/seeds" "$w/corpus" "$w/ucode/kernel/x86/microcode" "$w/tree"
	fuzz_build cpio_fuzz "$w/cpio_fuzz" tests/cpio_fuzz.c \
		applets/boot/cpioend.c applets/core/lib.c ||
		return
	head -c 700 /dev/urandom >"$w/ucode/kernel/x86/microcode/AuthenticAMD.bin"
	echo hello >"$w/tree/init"
	(cd "$w/ucode" && find kernel | cpio --quiet -o -H newc) >"$w/seeds/ucode"
	(cd "$w/tree" && find . | cpio --quiet -o -H newc) >"$w/wrapper.cpio"
	{ cat "$w/seeds/ucode" "$w/wrapper.cpio"; printf '\0\0\0\0'
	  gzip -c "$w/tree/init"; } >"$w/seeds/chain"
	head -c 200 "$w/wrapper.cpio" >"$w/seeds/cut"
	run_fuzzer cpio_fuzz "$w/cpio_fuzz" "$w" "${CPIO_FUZZ_TIME:-20}" \
		-max_len=8192 -timeout=5
}
cpio_fuzz

# ---- mkcpio's module unpacking (tests/mkcpio_fuzz.c), for
# RDLOAD_FUZZ_TIME seconds.  Seeds: a small ELF object as a plain .ko
# and through xz (--check=crc32, as the kernel's modules are made), gzip
# and zstd, whole, cut in half and empty, after the knob byte that picks
# the suffix.
mkcpio_fuzz() {
	local w=$work/mkcpio knob=0 z

	mkdir -p "$w/seeds" "$w/corpus"
	fuzz_build mkcpio_fuzz "$w/mkcpio_fuzz" tests/mkcpio_fuzz.c \
		applets/boot/kmodunpack.c applets/core/lib.c || return
	echo 'int data[64] = { 1 }; int init_module(void) { return 0; }' |
		clang -c -x c -o "$w/m.ko" - || fail "mkcpio_fuzz: a seed module"
	for z in cat "xz --check=crc32 -c" "gzip -9c" "zstd -qc"; do
		$z <"$w/m.ko" >"$w/m.z"
		{ printf "\\$knob"; cat "$w/m.z"; } >"$w/seeds/$knob.whole"
		{ printf "\\$knob"
		  head -c $(($(stat -c %s "$w/m.z") / 2)) "$w/m.z"; } \
			>"$w/seeds/$knob.cut"
		printf "\\$knob" >"$w/seeds/$knob.empty"
		knob=$((knob + 1))
	done
	run_fuzzer mkcpio_fuzz "$w/mkcpio_fuzz" "$w" "$time" -max_len=8192 \
		-timeout=20 -rss_limit_mb=2048
}
mkcpio_fuzz

fuzz_build rdload_fuzz "$fuzz" -DRDLOAD_SMALL_BUFFERS tests/rdload_fuzz.c \
	applets/rd/rdfs.c applets/rd/rdio.c applets/rd/rddecode.c \
	applets/rd/rdimage.c applets/core/lib.c ||
	exit 1

# Seeds: one knob byte (tests/rdload_fuzz.c: read size, target size,
# identify only), then the image.  Raw filesystems cut to their first
# 4 KiB: identification reads no further.
seeds=$work/seeds
mkdir -p "$seeds" "$work/tree" "$work/corpus"
echo hello >"$work/tree/hello"
head -c 3000 /dev/urandom >"$work/tree/noise"
make_seeds() {
	truncate -s 64K "$work/fs.minix"
	mkfs.ext2 -q -F -N 16 -d "$work/tree" "$work/fs.ext2" 64K >/dev/null &&
	truncate -s 64K "$work/fs.ext2" &&
	genromfs -d "$work/tree" -f "$work/fs.romfs" &&
	mkfs.cramfs "$work/tree" "$work/fs.cramfs" >/dev/null &&
	mksquashfs "$work/tree" "$work/fs.squashfs" -quiet -noappend \
		>/dev/null &&
	mkfs.minix "$work/fs.minix" >/dev/null || return 1
	for fs in ext2 romfs cramfs squashfs minix; do
		{ printf '\020'; head -c 4096 "$work/fs.$fs"; } >"$seeds/$fs"
	done
	for z in "gzip -9" bzip2 "xz --check=crc32" "xz --format=lzma" \
		"lzop" "lz4 -l" "zstd -q"; do
		name=${z%% *}
		[ "$z" = "xz --format=lzma" ] && name=lzma
		{ printf '\020'; $z -c "$work/fs.ext2"; } >"$seeds/$name" &&
		{ printf '\047'; $z -c "$work/fs.ext2"; } >"$seeds/$name.small"
	done
	# lzop's longest name: 255 characters.
	long=$work/$(printf '%0255d' 0)
	cp "$work/fs.ext2" "$long"
	{ printf '\020'; lzop -c "$long"; } >"$seeds/lzo.longname"
	# lz4 legacy blocks claiming 64 KiB + 257 + 16 (the bound of a 64
	# KiB block) and one byte more, each followed by that much data.
	for size in 65809 65810; do
		{ printf '\020\002\041\114\030'
		  python3 -c 'import struct, sys
sys.stdout.buffer.write(struct.pack("<I", int(sys.argv[1])))' "$size"
		  head -c "$size" /dev/urandom; } >"$seeds/lz4.block$size"
	done
}
if ! make_seeds 2>"$work/seeds.log"; then
	fail "rdload_fuzz: seed images from the real tools" \
		"$(tail -5 "$work/seeds.log")"
	exit 1
fi

run_fuzzer rdload_fuzz "$fuzz" "$work" "$time" -max_len=200000 -timeout=20 \
	-rss_limit_mb=2048
