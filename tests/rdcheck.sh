# rdload's test helpers, POSIX sh, shared by tests/rdload.t (the host,
# bash) and tests/guest/rdload.sh (the VMs, busybox sh; rdload.host puts
# this file in /data/rdload).  Source tests/lib.sh first.  The caller sets:
#   RD_PATTERN   a file of random bytes, as big as the biggest target
#   RD_TMP       a scratch directory, where run_rdload leaves out and err
#   RD_MNT       an empty mount point
#   RD_TREE      the files that tests/rdimages put in the images
# and runs rdload with its own run_rdload ARGS..., which sets $status
# and writes stdout to $RD_TMP/out, stderr to $RD_TMP/err.
#
#   fill DEV                     the pattern over the whole of DEV
#   untouched_past DEV N         DEV holds the pattern from byte N on
#   loaded NAME DEV RAW BYTES DISKS
#                                the last run_rdload loaded RAW's BYTES
#                                into DEV, and nothing past them changed
#   reads_back NAME DEV IMAGE    what IMAGE put in DEV reads back, mounted
#                                where this kernel can, else by fsck tools

# rd_size DEV: the bytes of a block device or a file.
rd_size() {
	blockdev --getsize64 "$1" 2>/dev/null || stat -c %s "$1"
}

fill() {
	head -c "$(rd_size "$1")" "$RD_PATTERN" >"$1"
}

untouched_past() {
	cmp -s -n $(($(rd_size "$1") - $2)) "$1" "$RD_PATTERN" "$2" "$2"
}

# Stderr must be $want_err (default: empty); stdout ends with the
# kernel's "Loading" line.
loaded() {
	rd_done="RAMDISK: Loading $((($4 + 1023) / 1024))KiB [$5] into ram disk... done."
	if [ "$status" -ne 0 ] ||
	   [ "$(cat "$RD_TMP/err")" != "${want_err:-}" ]; then
		fail "$1" "exit status $status" "stderr: $(cat "$RD_TMP/err")"
	elif [ "$(tail -n 1 "$RD_TMP/out")" != "$rd_done" ]; then
		fail "$1" "stdout:" "$(cat "$RD_TMP/out")" "want last: $rd_done"
	elif ! cmp -s -n "$4" "$3" "$2"; then
		fail "$1" "$2 does not begin with the $4 bytes of $3"
	elif ! untouched_past "$2" "$4"; then
		fail "$1" "$2 changed past the image's $4 bytes"
	else
		pass "$1"
	fi
}

# rd_unmount DEV: umount, then wait until DEV opens exclusively again
# where python3 can tell: a kernel can let go of a device a little after
# umount returns.
rd_unmount() {
	umount "$RD_MNT"
	command -v python3 >/dev/null || return 0
	for rd_i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		python3 -c 'import os, sys
os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))' "$1" 2>/dev/null &&
			return 0
		sleep 0.25
	done
}

# mounted_reads NAME DEV TYPE: DEV mounts, and holds RD_TREE's files
# (minix: an empty root, as mkfs.minix cannot copy files in).
mounted_reads() {
	if ! rd_why=$(mount -o ro -t "$3" "$2" "$RD_MNT" 2>&1); then
		fail "$1" "mount -t $3 $2: $rd_why"
		return
	fi
	if [ "$3" = minix ]; then
		rd_why=$(ls -A "$RD_MNT")
	else
		rd_why=$(diff -r "$RD_TREE" "$RD_MNT" 2>&1 |
			grep -vx "Only in $RD_MNT: lost+found")
	fi
	[ -z "$rd_why" ] && pass "$1" || fail "$1" "$(echo "$rd_why" | head -5)"
	rd_unmount "$2"
}

reads_back() {
	rd_type=${3%%.*}
	case $rd_type in
	ext2|ext4|squashfs|romfs) ;;
	minix|minix14) rd_type=minix ;;
	cramfs|cramfs_padded) rd_type=cramfs ;;
	*) return ;;
	esac
	if grep -qw "$rd_type" /proc/filesystems; then
		mounted_reads "$1: mounts as $rd_type, files read back" "$2" \
			"$rd_type"
	elif [ "$rd_type" = cramfs ] && command -v fsck.cramfs >/dev/null; then
		rm -rf "$RD_TMP/extract"
		rd_why="fsck.cramfs --extract failed"
		fsck.cramfs --extract="$RD_TMP/extract" "$2" >/dev/null 2>&1 &&
			rd_why=$(diff -r "$RD_TREE" "$RD_TMP/extract" 2>&1) &&
			pass "$1: fsck.cramfs extracts the files" ||
			fail "$1: fsck.cramfs extracts the files" "$rd_why"
	elif [ "$rd_type" = minix ] && command -v fsck.minix >/dev/null; then
		rd_why=$(fsck.minix -f "$2" 2>&1 </dev/null) &&
			pass "$1: fsck.minix finds it clean" ||
			fail "$1: fsck.minix finds it clean" "$rd_why"
	fi
}
