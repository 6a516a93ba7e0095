#!/bin/bash
# rdload under libFuzzer, ASan and UBSan (tests/rdload_fuzz.c), then
# mkcpio's module unpacking (tests/mkcpio_fuzz.c): builds each target,
# makes tiny seed images with the real tools (every filesystem the
# kernel finds, every compressor it reads), and fuzzes them for
# RDLOAD_FUZZ_TIME seconds (default 30).  PASS when nothing crashed.
# The build shrinks rdload's buffers (RDLOAD_SMALL_BUFFERS: 64 KiB blocks,
# 4 KiB writes), and the seeds include blocks at and over that maximum
# and lzop's longest header, so the fuzzer's inputs reach every buffer's
# end.
. "$TESTS/lib.sh"

time=${RDLOAD_FUZZ_TIME:-30}
work=$(mktemp -d /tmp/kit-rdfuzz.XXXXXX)
trap 'rm -rf "$work"; t_cleanup' EXIT

# fuzz_build NAME CFLAGS/SOURCES...: $work/NAME, or the suite ends.
fuzz_build() {
	local name=$1

	shift
	if ! clang -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Iapplets -o "$work/$name" "$@" \
		-lz -llzma -lbz2 -lzstd -llz4 -llzo2 2>"$work/$name.cc.log"
	then
		fail "$name: builds with clang -fsanitize=fuzzer" \
			"$(tail -5 "$work/$name.cc.log")"
		exit 1
	fi
	pass "$name: builds with clang -fsanitize=fuzzer,address,undefined"
}

# fuzz_run NAME SEEDS MAX_LEN: $work/NAME for $time seconds from SEEDS;
# PASS when nothing crashed, else the report and a reproducer.
fuzz_run() {
	local name=$1 status runs

	mkdir -p "$work/$name.corpus"
	"$work/$name" -max_total_time="$time" -max_len="$3" -timeout=20 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/$name-" "$work/$name.corpus" "$2" \
		>"$work/$name.log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
	if [ "$status" -eq 0 ] && [ "${runs:-0}" -gt 0 ]; then
		pass "$name: $runs runs in ${time}s, no crash"
	else
		fail "$name: no crash in ${time}s (status $status)" \
			"$(grep -E -A12 'ERROR|runtime error|deadly' "$work/$name.log" |
			   head -40)" \
			"reproducer: $(ls "$work/$name"-crash-* "$work/$name"-leak-* \
				"$work/$name"-timeout-* "$work/$name"-oom-* 2>/dev/null |
				head -1 | xargs -r base64 -w0)"
	fi
}

fuzz_build rdload_fuzz -DRDLOAD_SMALL_BUFFERS tests/rdload_fuzz.c

# Seeds: one knob byte (tests/rdload_fuzz.c: read size, target size,
# identify only), then the image.  Raw filesystems cut to their first
# 4 KiB: identification reads no further.
seeds=$work/seeds
mkdir -p "$seeds" "$work/tree"
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

fuzz_run rdload_fuzz "$seeds" 200000

# mkcpio's module unpacking (tests/mkcpio_fuzz.c), the same way: seeds
# are a small ELF object as a plain .ko and through xz (--check=crc32,
# as the kernel's modules are made), gzip and zstd, whole, cut in half,
# and empty, after the knob byte that picks the suffix.
fuzz_build mkcpio_fuzz tests/mkcpio_fuzz.c applets/lib.c
mkseeds=$work/mkseeds
mkdir -p "$mkseeds"
echo 'int data[64] = { 1 }; int init_module(void) { return 0; }' |
	clang -c -x c -o "$work/m.ko" - || fail "mkcpio_fuzz: a seed module"
knob=0
for z in cat "xz --check=crc32 -c" "gzip -9c" "zstd -qc"; do
	$z <"$work/m.ko" >"$work/m.z"
	{ printf "\\$knob"; cat "$work/m.z"; } >"$mkseeds/$knob.whole"
	{ printf "\\$knob"; head -c $(($(stat -c %s "$work/m.z") / 2)) "$work/m.z"; } \
		>"$mkseeds/$knob.cut"
	printf "\\$knob" >"$mkseeds/$knob.empty"
	knob=$((knob + 1))
done
fuzz_run mkcpio_fuzz "$mkseeds" 8192
