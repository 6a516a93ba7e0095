# The measurements of the rdload benchmark, shared by the host run
# (tests/bench/rdload: a loop device) and the VM run (tests/bench/vm/
# rdload.sh: brd): POSIX sh, so the guest's busybox runs it too.
#
# The includer sets KIT, IMG (the raw image, with IMG.gz, IMG.xz and
# IMG.zst beside it), TARGET (the block device, as big as IMG), W (a
# scratch directory) and RUNS, and defines `now` (prints a clock in
# seconds) and `uncache` (drops TARGET's page cache).  bench_all prints
# the table; then MISSED=1 if a target was missed, CORRUPT=1 if TARGET did
# not hold the image after kit rdload or after a peer.
MISSED=0
CORRUPT=0

# seconds CMD...: the wall time of CMD, from a cold TARGET cache.
seconds() {
	local start end

	uncache
	start=$(now)
	"$@"
	end=$(now)
	awk -v a="$end" -v b="$start" 'BEGIN { printf "%.4f\n", a - b }'
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

rdload_into() {
	"$KIT" rdload -q -o "$TARGET" "$1"
}

# Both end with the data on the device: rdload fsyncs, dd gets
# conv=fsync, and iflag=fullblock so that it writes 1 MiB blocks from a
# pipe too.
dd_into() {
	dd of="$TARGET" bs=1M iflag=fullblock conv=fsync status=none
}

raw_dd() { dd_into <"$IMG"; }
gzip_dd() { gzip -dc "$IMG.gz" | dd_into; }
xz_dd() { xz -dc "$IMG.xz" | dd_into; }
zstd_dd() { zstd -qdc "$IMG.zst" | dd_into; }

# holds_image NAME WHO: TARGET holds the image after WHO wrote it, or
# CORRUPT=1 (a time that wrote the wrong bytes measures nothing).
holds_image() {
	if ! cmp -s "$IMG" "$TARGET"; then
		echo "rdload bench: $1: $TARGET does not hold the image" \
			"after $2" >&2
		CORRUPT=1
	fi
}

# bench NAME IMAGE PEER PEER_LABEL MAX_RATIO: kit and PEER alternately,
# RUNS times each; their medians, the ratio and the verdict.
bench() {
	local name=$1 image=$2 peer=$3 label=$4 max=$5 i ours theirs ratio
	local verdict=met

	: >"$W/ours"
	: >"$W/theirs"
	for i in $(seq "$RUNS"); do
		seconds rdload_into "$image" >>"$W/ours"
		seconds "$peer" >>"$W/theirs"
	done
	holds_image "$name" "$label"
	seconds rdload_into "$image" >/dev/null
	holds_image "$name" "kit rdload"
	ours=$(median <"$W/ours")
	theirs=$(median <"$W/theirs")
	ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
	if ! awk -v r="$ratio" -v m="$max" 'BEGIN { exit !(r <= m) }'; then
		verdict=MISSED
		MISSED=1
	fi
	printf '%-5s kit rdload %7.3fs  %-22s %7.3fs  ratio %5s  target <= %s: %s\n' \
		"$name" "$ours" "$label" "$theirs" "$ratio" "$max" "$verdict"
}

# bench_all WHERE: the four images, the targets.
bench_all() {
	echo "medians of $RUNS runs, $1:"
	bench raw "$IMG" raw_dd "dd bs=1M" 1.1
	bench gzip "$IMG.gz" gzip_dd "gzip -dc | dd bs=1M" 0.8
	bench xz "$IMG.xz" xz_dd "xz -dc | dd bs=1M" 1.0
	bench zstd "$IMG.zst" zstd_dd "zstd -dc | dd bs=1M" 1.0
}
