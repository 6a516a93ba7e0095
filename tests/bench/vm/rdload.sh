# modules: brd
# The rdload benchmark in a VM guest (tests/bench/rdload boots it with
# tests/vm/run): kit rdload against the same peers as on the host, into a
# 128 MiB brd.  The raw image comes from the zstd one, beside it in the
# initramfs; the page cache is dropped before each run.  Emulated CPUs: the
# ratios, not the seconds, are what compares with the host.
. /tests/lib.sh

D=/data/rdbench
W=/tmp/rdbench
mkdir -p "$W"
PATH=$D/bin:$PATH
if ! rmmod brd || ! insmod /lib/modules/dist/brd.ko rd_nr=1 rd_size=131072; then
	fail "rdload bench: brd with one 128 MiB disk"
	exit 1
fi
zstd -qdc "$D/ext2.img.zst" >"$D/ext2.img"

now() {
	local up rest

	read -r up rest </proc/uptime
	echo "$up"
}
uncache() { sync && echo 3 >/proc/sys/vm/drop_caches; }

IMG=$D/ext2.img TARGET=/dev/ram0 RUNS=$(cat "$D/runs")
. "$D/rdbench.sh"
bench_all "into a 128 MiB brd (/dev/ram0), $(uname -r) under qemu"
if [ $CORRUPT = 0 ]; then
	pass "rdload bench: brd holds the image after kit rdload and each peer"
else
	fail "rdload bench: brd holds the image after kit rdload and each peer"
fi
