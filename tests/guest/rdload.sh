# modules: brd romfs minix squashfs ext4 crc32c_generic dm_mod dm_zero
# rdload into brd (/dev/ramN) on each kernel the VM rig boots: images
# tests/guest/rdload.host made (tests/rdimages, 1 MiB filesystems; the
# first loop says which) loaded, compared byte for byte and mounted (Debian
# builds no cramfs: that one is compared only); the default target
# /dev/ram0, created when missing; a brd too small; a mounted one;
# device-mapper devices that lose writes or fail them, and linear ones
# over a brd that a load must not overwrite.  Each target holds a known
# pattern first: only what rdload wrote may change.  crc32c_generic: ext4 (which mounts
# ext2 too) wants the crc32c hash, and no module depends on it.
. /tests/lib.sh

t0=$(date +%s)
D=/data/rdload
T=/tmp/rdload
mnt=$T/mnt
mkdir -p "$mnt"
head -c $((2048 * 1024)) /dev/urandom >"$T/pattern"
echo "rdload: brd as loaded: rd_nr=$(cat /sys/module/brd/parameters/rd_nr)" \
	"rd_size=$(cat /sys/module/brd/parameters/rd_size)KiB"

# brd NR KIB: brd again, with NR devices of KIB KiB.
brd() {
	rmmod brd && insmod /lib/modules/dist/brd.ko rd_nr="$1" rd_size="$2"
}

# The shared helpers (tests/rdcheck.sh): fill, untouched_past, loaded,
# reads_back.
RD_PATTERN=$T/pattern RD_TMP=$T RD_MNT=$mnt RD_TREE=$D/tree
. "$D/rdcheck.sh"

run_rdload() {
	$KIT rdload "$@" >"$T/out" 2>"$T/err"
	status=$?
}

# Every compressor on ext2 (the kernel's classic image), every other
# filesystem as it is and minix gzip'd: what depends on the kernel (brd,
# the filesystems it mounts) and each architecture's decoders, once.  The
# host suite loads every filesystem with every compressor.
brd 2 2048
while read -r file raw kind word kib; do
	[ "$word" = - ] && continue
	case $file in ext2.*|*.img|minix.img.gz) ;; *) continue ;; esac
	# The kernel's size of the filesystem, compressed or not.
	kib=$(awk -v raw="$raw" '$1 == raw { print $5 }' "$D/expect")
	bytes=$((kib * 1024))
	fill /dev/ram1
	run_rdload -o /dev/ram1 "$D/$file"
	loaded "rdload: $file into brd" /dev/ram1 "$D/$raw" "$bytes" "1 disk"
	reads_back "rdload: $file in brd" /dev/ram1 "$file"
done <"$D/expect"

# A loaded minix takes files: it is a working filesystem, not just bytes.
$KIT rdload -q -o /dev/ram1 "$D/minix.img.zst" &&
	mount -t minix /dev/ram1 "$mnt" && cp "$D/tree/numbers" "$mnt/" &&
	umount "$mnt" && mount -o ro -t minix /dev/ram1 "$mnt" &&
	cmp -s "$D/tree/numbers" "$mnt/numbers" &&
	pass "rdload: minix loaded into brd takes a file and reads it back" ||
	fail "rdload: minix loaded into brd takes a file and reads it back"
umount "$mnt" 2>/dev/null

# The default target, /dev/ram0: made as the kernel makes it (b 1 0) when
# the node is missing.
fill /dev/ram0
rm -f /dev/ram0
run_rdload "$D/ext2.img.xz"
loaded "rdload: default target /dev/ram0, its node made" /dev/ram0 \
	"$D/ext2.img" $((1024 * 1024)) "1 disk"
[ "$(stat -c '%F %t:%T' /dev/ram0)" = "block special file 1:0" ] &&
	pass "rdload: /dev/ram0 made as block device 1:0" ||
	fail "rdload: /dev/ram0 made as block device 1:0" "$(ls -l /dev/ram0)"

mount -o ro -t ext2 /dev/ram0 "$mnt"
sum=$(md5sum </dev/ram0)
expect_err "rdload: a mounted brd is refused" 1 "^rdload: /dev/ram0 is in use" \
	$KIT rdload -q -o /dev/ram0 "$D/romfs.img"
[ "$(md5sum </dev/ram0)" = "$sum" ] &&
	pass "rdload: a mounted brd is left as it was" ||
	fail "rdload: a mounted brd is left as it was"
umount "$mnt"

# brd smaller than the image: refused before anything is written.
brd 1 512
for file in ext2.img ext2.img.gz; do
	fill /dev/ram0
	expect_err "rdload: $file too big for a 512 KiB brd" 1 \
		"image too big! \(1024KiB/512KiB\); 0 bytes written" \
		$KIT rdload -q "$D/$file"
	untouched_past /dev/ram0 0 &&
		pass "rdload: $file too big for a 512 KiB brd: brd unchanged" ||
		fail "rdload: $file too big for a 512 KiB brd: brd unchanged"
done

# Device-mapper devices (tests/dmtable.c) that do not keep what they are
# given: 2 MiB of brd, then 6 MiB of "zero" (writes vanish, reads are
# zeros) or of "error" (writes fail), loaded with the 4 MiB ext2.
DM=$D/dmtable
D4=/data/rdload4
brd 1 2048

# The first MiB of the 4 MiB image from MiB 2 on that is not all zeros:
# the first that a "zero" target reads back different.
first_lost_mib() {
	for m in 2 3; do
		if [ "$(dd if="$D4/ext2.img" bs=1M skip=$m count=1 2>/dev/null |
			tr -d '\000' | wc -c)" -gt 0 ]; then
			echo $m
			return
		fi
	done
	echo none
}

if dev=$($DM create kit-lose "0 4096 linear /dev/ram0 0" "4096 12288 zero"); then
	m=$(first_lost_mib)
	expect_err "rdload --verify: a device that loses writes fails, in MiB $m" \
		1 "^rdload: RAMDISK: verify failed: $dev reads back other bytes than were written, in MiB $m \(bytes $((m << 20))-$((((m + 1) << 20) - 1))\); 4194304 bytes written to $dev\$" \
		$KIT rdload -q --verify -o "$dev" "$D4/ext2.img.gz"
	expect "rdload without --verify: the same load looks fine" 0 "" \
		$KIT rdload -q -o "$dev" "$D4/ext2.img.gz"
	$DM remove kit-lose
else
	fail "dmtable: a device of brd and zero"
fi

fill /dev/ram0
if dev=$($DM create kit-fail "0 4096 linear /dev/ram0 0" "4096 12288 error"); then
	expect_err "rdload: a device that fails writes: the error and a count" \
		1 "^rdload: .*Input/output error; [0-9]+ bytes written to $dev\$" \
		$KIT rdload -q -o "$dev" "$D4/ext2.img.gz"
	# O_EXCL: a device held by another (device-mapper here) is refused.
	expect_err "rdload: a brd that a device-mapper device holds is refused" \
		1 "^rdload: /dev/ram0 is in use \(mounted, or held by a device or program that opened it exclusively\): free it first$" \
		$KIT rdload -q -o /dev/ram0 "$D/romfs.img"
	cmp -s -n 2097152 "$D4/ext2.img" /dev/ram0 &&
		pass "rdload: a device that fails writes: what it kept is the image" ||
		fail "rdload: a device that fails writes: what it kept is the image"
	$DM remove kit-fail
else
	fail "dmtable: a device of brd and error"
fi
# Device-mapper linear targets over one brd: [0, 1M), [1M, 2M) and
# [512K, 1.5M) of it.  Bytes apart are loaded; shared ones are refused
# before anything is written, and so is the brd under a target.
brd 1 2048
fill /dev/ram0
dd if="$D/ext2.img" of=/dev/ram0 bs=1M seek=1 conv=notrunc 2>/dev/null
first=$($DM create kit-first "0 2048 linear /dev/ram0 0")
second=$($DM create kit-second "0 2048 linear /dev/ram0 2048")
middle=$($DM create kit-middle "0 2048 linear /dev/ram0 1024")
if [ -n "$first" ] && [ -n "$second" ] && [ -n "$middle" ]; then
	sum=$(md5sum <"$second")
	run_rdload -o "$first" "$second"
	[ "$status" = 0 ] && cmp -s "$D/ext2.img" "$first" &&
	   [ "$(md5sum <"$second")" = "$sum" ] &&
		pass "rdload: dm linear targets over one brd, bytes apart: loaded" ||
		fail "rdload: dm linear targets over one brd, bytes apart: loaded" \
			"exit $status" "$(cat "$T/err")"
	sum=$(md5sum </dev/ram0)
	expect_err "rdload: dm linear targets over one brd, bytes shared: refused" \
		1 "^rdload: $second and the target $middle share bytes 1048576-1572863 of /dev/ram0: load it into another TARGET\$" \
		$KIT rdload -o "$middle" "$second"
	expect_err "rdload: into a dm linear target from the brd under it: refused" \
		1 "^rdload: /dev/ram0 and the target $second share bytes 1048576-2097151 of /dev/ram0: load it into another TARGET\$" \
		$KIT rdload -o "$second" /dev/ram0
	[ "$(md5sum </dev/ram0)" = "$sum" ] &&
		pass "rdload: refused over dm: the brd unchanged" ||
		fail "rdload: refused over dm: the brd unchanged"
else
	fail "dmtable: linear devices over brd" "$first $second $middle"
fi
for name in kit-first kit-second kit-middle; do
	$DM remove "$name" 2>/dev/null
done
rmmod brd
echo "rdload: guest checks took $(($(date +%s) - t0))s"
