# rdload on this kernel: images of every filesystem the kernel recognises,
# with every compressor, made by the real tools (tests/rdimages), identified
# and loaded into loop devices and zram, byte-compared, and mounted where
# this kernel can (ext2, ext4, squashfs; the VM mounts the rest).  Bad
# input, refusals, volumes and the options too.  Every load goes into a
# target filled with a known pattern first: what rdload reports written is
# the only part that may change.
. "$TESTS/lib.sh"
. "$TESTS/rdcheck.sh"

if [ "$(id -u)" -ne 0 ]; then
	fail "rdload: the suite runs as root (loop devices, zram, mount)"
	exit 1
fi

work=$(mktemp -d /tmp/kit-rdload.XXXXXX)
mnt=$work/mnt
loops=() zram=
cleanup() {
	local i

	mountpoint -q "$mnt" && umount "$mnt"
	# The last first: a loop device may be over an earlier one.
	for ((i = ${#loops[@]} - 1; i >= 0; i--)); do
		losetup -d "${loops[i]}"
	done
	if [ -n "$zram" ]; then
		echo 1 >"/sys/block/zram$zram/reset"
		echo "$zram" >/sys/class/zram-control/hot_remove
	fi
	rm -rf "$work"
	t_cleanup
}
trap cleanup EXIT

img=$work/img
t0=$SECONDS
if ! tests/rdimages -S 12288 "$img"; then
	fail "rdload: tests/rdimages builds the images"
	exit 1
fi
echo "rdload: images built in $((SECONDS - t0))s"
mkdir "$mnt"
head -c 16M /dev/urandom >"$work/pattern"
# For tests/rdcheck.sh: fill, untouched_past, loaded, reads_back.
RD_PATTERN=$work/pattern RD_TMP=$work RD_MNT=$mnt RD_TREE=$img/tree

# loop_over VAR ARGS...: a loop device set up by losetup ARGS, its name in
# VAR, detached at the end.
loop_over() {
	printf -v "$1" %s "$(losetup -f --show "${@:2}")"
	loops+=("${!1}")
}

# new_loop VAR MIB: a loop device of MIB MiB, its name in VAR.
new_loop() {
	truncate -s "$2M" "$work/$1.back"
	loop_over "$1" "$work/$1.back"
}
new_loop big 16
new_loop small 2

# run_rdload ARGS...: status, and stdout and stderr in files.  Runs in a
# new session (setsid): --prompt reads /dev/tty when there is one.
run_rdload() {
	setsid -w "$KIT" rdload "$@" >"$work/out" 2>"$work/err"
	status=$?
}

# at_prompt CMD ARGS...: run_rdload ARGS (--prompt among them), with CMD
# run while rdload waits for volume 2, before ENTER.
at_prompt() {
	local cmd=$1 pid i

	shift
	rm -f "$work/enter"
	mkfifo "$work/enter"
	setsid -w "$KIT" rdload "$@" <"$work/enter" >"$work/out" \
		2>"$work/err" &
	pid=$!
	exec 7>"$work/enter"
	for i in $(seq 100); do
		grep -q "insert disk #2" "$work/err" && break
		sleep 0.1
	done
	$cmd
	echo >&7
	exec 7>&-
	wait "$pid"
	status=$?
}

# What --prompt asks, on stderr, before volumes 2 to N of the images given.
prompts() {
	local i=1

	shift
	for v in "$@"; do
		i=$((i + 1))
		echo "rdload: insert disk #$i ($v) and press ENTER"
	done
}

# refused NAME DEV PATTERN [RAW]: rdload failed with one line on stderr
# (besides --prompt's) that matches PATTERN and says how much it wrote; DEV
# is unchanged past that (and before it holds RAW's bytes, when given).
refused() {
	local name=$1 dev=$2 pat=$3 raw=$4 n

	grep -v '^rdload: insert disk #' "$work/err" >"$work/err1"
	mv "$work/err1" "$work/err"
	n=$(sed -n 's/.*; \([0-9]*\) bytes written to .*/\1/p' "$work/err")
	if [ "$status" -ne 1 ]; then
		fail "$name" "exit status $status, want 1" \
			"stderr: $(cat "$work/err")"
	elif [ "$(wc -l <"$work/err")" -ne 1 ] ||
	     ! grep -Eq -- "^rdload: .*$pat" "$work/err"; then
		fail "$name" "stderr: $(cat "$work/err")" \
			"want one line: rdload: ...$pat"
	elif [ "$pat" != "${pat%written*}" ] && [ -z "$n" ]; then
		fail "$name" "no count written in: $(cat "$work/err")"
	elif ! untouched_past "$dev" "${n:-0}"; then
		fail "$name" "$dev changed past the ${n:-0} bytes reported written"
	elif [ -n "$raw" ] && ! cmp -s -n "${n:-0}" "$raw" "$dev"; then
		fail "$name" "the ${n:-0} bytes written are not the image's"
	else
		pass "$name"
	fi
}

# ---- Identification: the kernel's words, block and size ----

start=37	# a start block past other data, as ramdisk_start=
# at_start FILE: FILE after start KiB of other data.
at_start() {
	head -c "${start}K" "$work/pattern" | cat - "$img/$1" >"$work/at-start"
	echo "$work/at-start"
}

while read -r file raw kind word kib; do
	case $file in stream.*) continue ;; esac
	for s in 0 $start; do
		path=$img/$file
		[ "$s" = 0 ] || path=$(at_start "$file")
		if [ "$word" = - ]; then
			expect_err "rdload -i: $file at block $s: the kernel finds nothing" \
				1 "^rdload: RAMDISK: Couldn't find valid RAM disk image starting at $s\.$" \
				"$KIT" rdload -i -s "$s" "$path"
			continue
		fi
		want="RAMDISK: $word $kind found at block $s"
		if [ "$kind" = image ]; then
			read -r _ _ _ fsword kib < <(grep "^$raw " "$img/expect")
			want="$want
RAMDISK: $fsword filesystem found in the $word image"
		fi
		expect "rdload -i: $file at block $s: $word, ${kib}KiB" 0 \
			"$want
RAMDISK: image size ${kib}KiB" "$KIT" rdload -i -s "$s" "$path"
	done
done <"$img/expect"

# ---- Loads of every image, at block 0 and further on ----

while read -r file raw kind word kib; do
	case $file in stream.*) continue ;; esac
	[ "$word" = - ] && continue
	# The kernel's size of the filesystem, compressed or not: a stream
	# that holds more (mksquashfs pads to 4 KiB) loads that much only.
	read -r _ _ _ _ kib < <(grep "^$raw " "$img/expect")
	bytes=$((kib * 1024))
	for s in 0 $start; do
		path=$img/$file
		[ "$s" = 0 ] || path=$(at_start "$file")
		fill "$big"
		run_rdload -s "$s" -o "$big" "$path"
		loaded "rdload: $file at block $s into a loop device" \
			"$big" "$img/$raw" "$bytes" "1 disk"
		reads_back "rdload: $file at block $s" "$big" "$file"
	done
done <"$img/expect"

# corrupt COMP FILE OUT: OUT is FILE with 4 KiB of 0xff in its middle; for
# lz4 (legacy frames carry no checksum, and lz4 itself takes most such
# damage) the size of the second block is broken instead.
corrupt() {
	local size=$(stat -c %s "$2") at block1

	cp "$2" "$3"
	if [ "$1" = lz4 ]; then
		block1=$(od -A n -t u4 -j 4 -N 4 "$2")
		printf '\377\377\377\177' |
			dd of="$3" bs=1 seek=$((8 + block1)) conv=notrunc status=none
		return
	fi
	head -c 4096 /dev/zero | tr '\0' '\377' |
		dd of="$3" bs=1 seek=$((size / 2)) conv=notrunc status=none
}

# ---- zram: an unsized device gets the image's size ----

zram=$(cat /sys/class/zram-control/hot_add)
z=/dev/zram$zram
# zram rounds a disksize up to whole 4 KiB pages; the report and the load
# are the image's size all the same.  ext2 images of 463 and 464 KiB, made
# here from a generated tree, are one of each whatever /usr holds.
mkdir "$work/small"
seq 1 20000 >"$work/small/numbers"
for k in 463 464; do
	mke2fs -q -F -t ext2 -b 1024 -d "$work/small" "$img/e$k.img" "$k"
	gzip -nc "$img/e$k.img" >"$img/e$k.img.gz"
	echo "e$k.img e$k.img filesystem ext2 $k" >>"$img/expect"
	echo "e$k.img.gz e$k.img image gzip -" >>"$img/expect"
done
for file in e463.img e463.img.gz e464.img.gz ext2.img.zst squashfs.img.gz; do
	read -r _ raw kind _ kib < <(grep "^$file " "$img/expect")
	read -r _ _ _ _ kib < <(grep "^$raw " "$img/expect")
	name="rdload: $file into unsized zram: sized to ${kib}KiB, loaded"
	echo 1 >"/sys/block/zram$zram/reset"
	run_rdload -o "$z" "$img/$file"
	if [ "$status" != 0 ] || ! grep -qx "RAMDISK: zram $z sized to ${kib}KiB" "$work/out" ||
	   ! grep -qx "RAMDISK: Loading ${kib}KiB \[1 disk\] into ram disk... done." "$work/out"; then
		fail "$name" "exit $status" "$(cat "$work/out" "$work/err")"
	elif [ "$(blockdev --getsize64 "$z")" != $(((kib + 3) / 4 * 4096)) ]; then
		fail "$name" "device of $(blockdev --getsize64 "$z") bytes, want ${kib}KiB in whole pages"
	elif ! cmp -s -n $((kib * 1024)) "$img/$raw" "$z"; then
		fail "$name" "$z does not begin with the image"
	elif [ "$(tail -c +$((kib * 1024 + 1)) "$z" | tr -d '\0' | wc -c)" != 0 ]; then
		fail "$name" "$z holds more than the image's ${kib}KiB"
	else
		pass "$name"
	fi
	# zram's 4 KiB logical blocks take no 1 KiB-block ext2.
	[ "$raw" = squashfs.img ] && mounted_reads \
		"rdload: $file in zram mounts, files read back" "$z" squashfs
done
echo 1 >"/sys/block/zram$zram/reset"
run_rdload -o "$z" "$img/stream.raw.gz"
if [ "$status" = 1 ] && grep -q "give the zram device a disksize first; 0 bytes written" "$work/err" &&
   [ "$(cat "/sys/block/zram$zram/disksize")" = 0 ]; then
	pass "rdload: a stream of unknown size into unsized zram is refused"
else
	fail "rdload: a stream of unknown size into unsized zram is refused" \
		"exit $status" "$(cat "$work/err")"
fi
# A superblock that claims 8 GiB: plain, refused before the zram is sized
# (the volume holds 463 KiB); compressed, the zram is sized from the
# decompressed head, the stream ends early, and the zram is put back
# unsized.  So is it after corrupt data.
cp "$img/e463.img" "$work/claims8g"
printf '\000\000\200\000' |
	dd of="$work/claims8g" bs=1 seek=1028 conv=notrunc status=none
gzip -nc "$work/claims8g" >"$work/claims8g.gz"
corrupt gz "$img/e463.img.gz" "$work/corrupt.gz"
for file in claims8g claims8g.gz corrupt.gz; do
	sized="RAMDISK: zram $z sized to 8388608KiB"
	case $file in
	claims8g) sized= want="image truncated: the ext2 filesystem is 8388608KiB, the input holds 474112 bytes of it; 0 bytes written" ;;
	claims8g.gz) want="image truncated: the ext2 filesystem is 8388608KiB, the gzip image holds 474112 bytes of it; 474112 bytes written" ;;
	corrupt.gz) sized="RAMDISK: zram $z sized to 463KiB" want="; [0-9]* bytes written to $z" ;;
	esac
	name="rdload: $file into unsized zram: refused, the zram left unsized"
	echo 1 >"/sys/block/zram$zram/reset"
	run_rdload -o "$z" "$work/$file"
	if [ "$status" != 1 ] || ! grep -q "$want" "$work/err" ||
	   [ "$(sed 1,2d "$work/out")" != "$sized" ]; then
		fail "$name" "exit $status" "$(cat "$work/out" "$work/err")" "want: $sized $want"
	elif [ "$(cat "/sys/block/zram$zram/disksize")" != 0 ]; then
		fail "$name" "disksize $(cat "/sys/block/zram$zram/disksize")"
	else
		pass "$name"
	fi
done
echo 2M >"/sys/block/zram$zram/disksize"
fill "$z"
run_rdload -o "$z" "$img/ext2.img.lz4"
refused "rdload: too big for a sized zram: refused before writing" "$z" \
	"image too big! \(4096KiB/2048KiB\); 0 bytes written"

# ---- Too big for the target: refused before writing ----

for file in ext2.img ext2.img.gz ext2.img.xz; do
	fill "$small"
	run_rdload -o "$small" "$img/$file"
	refused "rdload: $file too big for 2 MiB: nothing written" "$small" \
		"RAMDISK: image too big! \(4096KiB/2048KiB\); 0 bytes written"
done
# A stream with no filesystem inside has no size to check first: the
# target takes what fits, no more.
fill "$small"
run_rdload -o "$small" "$img/stream.raw.zst"
refused "rdload: a 12 MiB stream into 2 MiB: no write past the device" \
	"$small" "image too big! .*bytes written" "$img/stream.raw"

# ---- Bad streams: truncated, corrupt ----

# tool_rejects COMP FILE: the format's own tool fails on FILE (so the
# damage is real).
tool_rejects() {
	case $1 in
	gz) ! gzip -dc "$2" ;;
	bz2) ! bzip2 -dc "$2" ;;
	lzma) ! xz --format=lzma -dc "$2" ;;
	xz) ! xz -dc "$2" ;;
	lzo) ! lzop -dc "$2" ;;
	lz4) ! lz4 -dc "$2" ;;
	zst) ! zstd -qdc "$2" ;;
	esac >/dev/null 2>&1
}

while read -r file raw kind word _; do
	case $file in stream.raw.*) ;; *) continue ;; esac
	comp=${file##*.}
	bad=$work/bad.$comp
	head -c $(($(stat -c %s "$img/$file") * 8 / 10)) "$img/$file" >"$bad"
	fill "$big"
	run_rdload -o "$big" "$bad"
	refused "rdload: $word stream cut at 80%: the written part is right, no more" \
		"$big" "EOF while reading compressed data.*bytes written" \
		"$img/stream.raw"
	corrupt "$comp" "$img/$file" "$bad"
	if ! tool_rejects "$comp" "$bad"; then
		fail "rdload: corrupt $word stream (test setup: the tool accepts it)"
		continue
	fi
	fill "$big"
	run_rdload -o "$big" "$bad"
	refused "rdload: corrupt $word stream: error, nothing past what was written" \
		"$big" "$word.*bytes written"
	if [ "$comp" = bz2 ]; then
		grep -q '^rdload: RAMDISK: bzip2 data corrupt; [0-9]* bytes written' "$work/err" &&
			pass "rdload: corrupt bzip2 stream: said in words, no library code" ||
			fail "rdload: corrupt bzip2 stream: said in words, no library code" \
				"$(cat "$work/err")"
	fi
done <"$img/expect"

# ---- Volumes ----

# split_volumes FILE N: FILE cut into N volumes vol.1 .. vol.N.
split_volumes() {
	local v

	rm -f "$work"/vol.*
	split -n "$2" -d -a 1 "$img/$1" "$work/part."
	for v in "$work"/part.*; do
		mv "$v" "$work/vol.$((${v##*.} + 1))"
	done
}

for file in ext2.img ext2.img.gz squashfs.img.bz2; do
	read -r _ raw kind _ kib < <(grep "^$file " "$img/expect")
	# The kernel's size of the filesystem, compressed or not: a stream
	# that holds more (mksquashfs pads to 4 KiB) loads that much only.
	read -r _ _ _ _ kib < <(grep "^$raw " "$img/expect")
	bytes=$((kib * 1024))
	split_volumes "$file" 3
	fill "$big"
	run_rdload -o "$big" "$work"/vol.{1,2,3}
	loaded "rdload: $file in 3 volumes" "$big" "$img/$raw" "$bytes" "3 disks"
	fill "$big"
	run_rdload -o "$big" --prompt "$work"/vol.{1,2,3} < <(printf '\n\n')
	want_err=$(prompts "$work"/vol.{1,2,3})
	loaded "rdload: $file in 3 volumes, --prompt: ENTER before each further" \
		"$big" "$img/$raw" "$bytes" "3 disks"
	want_err=
	fill "$big"
	run_rdload -o "$big" "$work"/vol.{1,3}
	refused "rdload: $file, volume 2 of 3 missing: error, nothing past what was written" \
		"$big" "bytes written"
	fill "$big"
	run_rdload -o "$big" "$work"/vol.{1,2}
	refused "rdload: $file, last volume missing: error, nothing past what was written" \
		"$big" "bytes written" "$img/$raw"
done
fill "$big"
run_rdload -o "$big" "$work"/vol.{1,2} "$work/vol.nosuch"
refused "rdload: a volume that does not exist: refused before writing" \
	"$big" "cannot read $work/vol.nosuch"
split_volumes ext2.img.gz 2
fill "$big"
run_rdload -o "$big" --prompt "$work"/vol.{1,2} </dev/null
refused "rdload: --prompt with no ENTER: error, nothing past what was written" \
	"$big" "no ENTER.*bytes written"

# On a terminal (script(1) gives rdload a pty, as its controlling one) the
# ENTER comes from /dev/tty, stdin being /dev/null, and the terminal shows
# the prompt and the progress line.
fill "$big"
printf '\n' | script -qec "'$KIT' rdload -o '$big' --prompt '$work/vol.1' \
	'$work/vol.2' </dev/null" /dev/null >"$work/tty" 2>&1
status=$?
bytes=$(stat -c %s "$img/ext2.img")
if [ "$status" -ne 0 ] || ! grep -q "insert disk #2 ($work/vol.2)" "$work/tty"; then
	fail "rdload: --prompt on a terminal reads ENTER from /dev/tty" \
		"exit status $status" "terminal: $(cat -v "$work/tty")"
elif ! cmp -s -n "$bytes" "$img/ext2.img" "$big" ||
     ! untouched_past "$big" "$bytes"; then
	fail "rdload: --prompt on a terminal reads ENTER from /dev/tty" \
		"$big does not hold the image and the pattern after it"
else
	pass "rdload: --prompt on a terminal reads ENTER from /dev/tty"
fi
if grep -q "RAMDISK: [0-9]* MiB loaded" "$work/tty"; then
	pass "rdload: a terminal shows the progress line"
else
	fail "rdload: a terminal shows the progress line" \
		"terminal: $(cat -v "$work/tty")"
fi

# ---- Other refusals ----

fill "$big"
head -c 64K /dev/zero >"$work/zeros"
run_rdload -o "$big" "$work/zeros"
refused "rdload: unknown format: the kernel's words, nothing written" "$big" \
	"RAMDISK: Couldn't find valid RAM disk image starting at 0\.$"
fill "$big"
run_rdload -o "$big" "$work/nosuch.img"
refused "rdload: missing image: nothing written" "$big" \
	"cannot read $work/nosuch.img: No such file or directory"
printf '\037\236' | cat - "$img/ext2.img.gz" >"$work/oldgzip"
fill "$big"
run_rdload -o "$big" "$work/oldgzip"
refused "rdload: old gzip magic 1f 9e: found, not loaded, nothing written" \
	"$big" "1f 9e.*; 0 bytes written"

fill "$big"
run_rdload -o "$big" "$img/ext2.img"
mount -o ro "$big" "$mnt"
sum=$(md5sum <"$big")
run_rdload -o "$big" "$img/squashfs.img"
rd_unmount "$big"
if [ "$status" = 1 ] && grep -q "is in use" "$work/err" &&
   [ "$(md5sum <"$big")" = "$sum" ]; then
	pass "rdload: a mounted target is refused, left as it was"
else
	fail "rdload: a mounted target is refused, left as it was" \
		"exit $status" "$(cat "$work/err")"
fi

# The image as its own target, however named, is refused before anything
# is written: a compressed one read whole at identification, a hard link
# to it, /proc/self/fd/N, and a later volume.
head -c 100000 /dev/zero | gzip -9 >"$work/tiny.gz"
ln "$work/tiny.gz" "$work/tiny.link"
cp "$work/tiny.gz" "$work/tiny.orig"
# refused_as_target NAME TARGET ORIG VOLUME...: the last VOLUME is TARGET
# (however named); refused before anything is written: TARGET is ORIG.
refused_as_target() {
	local name=$1 target=$2 orig=$3 vol=${*: -1}

	shift 3
	run_rdload -f -o "$target" "$@" 7<"$target"
	if [ "$status" = 1 ] && grep -qx "rdload: $vol is the target itself: load it into another TARGET" "$work/err" &&
	   cmp -s "$target" "$orig"; then
		pass "$name"
	else
		fail "$name" "exit $status" "$(cat "$work/err")"
	fi
}
refused_as_target "rdload: a tiny image as its own target: refused, unchanged" \
	"$work/tiny.gz" "$work/tiny.orig" "$work/tiny.gz"
refused_as_target "rdload: a tiny image as its own target (hard link): refused, unchanged" \
	"$work/tiny.gz" "$work/tiny.orig" "$work/tiny.link"
refused_as_target "rdload: a tiny image as its own target (/proc/self/fd): refused, unchanged" \
	"$work/tiny.gz" "$work/tiny.orig" /proc/self/fd/7
# A block device under another node: the same device number.
new_loop selfdev 1
dd if="$work/tiny.gz" of="$selfdev" conv=notrunc status=none
mknod "$work/selfdev.node" b "$((0x$(stat -c %t "$selfdev")))" \
	"$((0x$(stat -c %T "$selfdev")))"
cp "$work/selfdev.back" "$work/selfdev.orig"
refused_as_target "rdload: a device as its own target, by another node: refused, unchanged" \
	"$selfdev" "$work/selfdev.orig" "$work/selfdev.node"
split -n 3 -d -a 1 "$img/ext2.img" "$work/p."
cp "$work/p.2" "$work/p.2.orig"
refused_as_target "rdload: volume 3 as the target: refused before volumes 1 and 2 are written" \
	"$work/p.2" "$work/p.2.orig" "$work/p.0" "$work/p.1" "$work/p.2"
fill "$big"
run_rdload -o "$big" "$work/p.0" "$work"
refused "rdload: a directory as volume 2: refused before writing" "$big" \
	"$work is a directory: each IMAGE is a file or a device$"

# A later volume of --prompt, absent when the volumes were checked, is
# checked when it is opened: here it appears as a hard link to the target
# while rdload waits for ENTER.  Volume 1 is written; nothing after it.
split_volumes ext2.img.gz 2
later=$work/later.target
head -c 8M "$work/pattern" >"$later"
link_later() { ln "$later" "$work/later.vol2"; }
rm -f "$work/later.vol2"
at_prompt link_later -f --prompt -o "$later" "$work/vol.1" "$work/later.vol2"
refused "rdload: --prompt: a later volume that appears as the target is refused when opened" \
	"$later" "$work/later.vol2 is the target itself: load it into another TARGET; [0-9]+ bytes written to $later$"

# ---- Storage shared below a name: loop devices, partitions ----

# The target and a volume that share storage through a loop device (its
# backing file, from its offset, up to its size), a partition (its disk,
# from its start) or both, chained, are refused before anything is
# written; only bytes that they provably do not share are allowed.
# shared_refused NAME FILE ORIG TARGET VOLUME BYTES [-f]: rdload -o TARGET
# VOLUME fails with one line, that they share BYTES ("A-B of BASE"), and
# FILE, the storage below, is still ORIG.
shared_refused() {
	local name=$1 file=$2 orig=$3 target=$4 vol=$5
	local want="$5 and the target $4 share bytes $6: load it into another TARGET"

	run_rdload $7 -o "$target" "$vol"
	if [ "$status" = 1 ] && [ "$(cat "$work/err")" = "rdload: $want" ] &&
	   cmp -s "$file" "$orig"; then
		pass "$name"
	else
		fail "$name" "exit $status" "stderr: $(cat "$work/err")" \
			"want: rdload: $want" "$(cmp "$file" "$orig" 2>&1)"
	fi
}
# shared_loaded NAME TARGET VOLUME ORIG: rdload -o TARGET VOLUME loads
# e463.img, the image in VOLUME, which still reads as ORIG.
shared_loaded() {
	run_rdload -o "$2" "$3"
	if [ "$status" = 0 ] && cmp -s -n "$(stat -c %s "$img/e463.img")" \
	   "$img/e463.img" "$2" && cmp -s "$3" "$4"; then
		pass "$1"
	else
		fail "$1" "exit $status" "stderr: $(cat "$work/err")"
	fi
}
# v.gz: a gzip'd ext2, padded to 6 MiB, so that a loop device over it can
# take the image.
v=$work/v.gz
gzip -nc "$img/ext2.img" >"$v"
truncate -s 6M "$v"
cp "$v" "$work/v.orig"
loop_over vloop "$v"
shared_refused "rdload: into a loop device backed by the image: refused, image unchanged" \
	"$v" "$work/v.orig" "$vloop" "$v" "0-6291455 of $v"
loop_over vro -r "$v"
shared_refused "rdload: -f into the file backing the input loop device: refused, unchanged" \
	"$v" "$work/v.orig" "$v" "$vro" "0-6291455 of $v" -f
loop_over vloop2 "$vloop"
shared_refused "rdload: into a loop device of a loop device of the image: refused" \
	"$v" "$work/v.orig" "$vloop2" "$v" "0-6291455 of $v"

# Loop devices over one file at offsets: [0, 1M) and [1M, 2M) share no
# byte, [512K, 1.5M) shares with both.  The image is in the second.
halves=$work/halves
head -c 2M "$work/pattern" >"$halves"
dd if="$img/e463.img" of="$halves" bs=1M seek=1 conv=notrunc status=none
loop_over first --sizelimit 1M "$halves"
loop_over second -o 1M "$halves"
loop_over middle -o 512K --sizelimit 1M "$halves"
tail -c 1M "$halves" >"$work/second.orig"
shared_loaded "rdload: loop devices over one file, bytes apart: loaded" \
	"$first" "$second" "$work/second.orig"
cp "$halves" "$work/halves.orig"
shared_refused "rdload: loop devices over one file, half their bytes shared: refused" \
	"$halves" "$work/halves.orig" "$middle" "$second" "1048576-1572863 of $halves"

# A disk image with two 1 MiB partitions, at 1 MiB and 2 MiB, over a loop
# device: its partitions, and the disk, and the file.  Kernels without
# the DOS partition parser take them by partx (BLKPG).
disk=$work/disk
head -c 4M "$work/pattern" >"$disk"
printf 'label: dos\n2048,2048\n4096,2048\n' | sfdisk -q "$disk"
dd if="$img/e463.img" of="$disk" bs=1M seek=1 conv=notrunc status=none
loop_over dloop -P "$disk"
[ -b "${dloop}p1" ] || partx -a "$dloop"
p1=${dloop}p1 p2=${dloop}p2
cp "$disk" "$work/disk.orig"
cat "$p1" >"$work/p1.orig"
shared_refused "rdload: into the disk from its partition: refused" \
	"$disk" "$work/disk.orig" "$dloop" "$p1" "1048576-2097151 of $disk"
shared_refused "rdload: into a partition from its disk: refused" \
	"$disk" "$work/disk.orig" "$p1" "$dloop" "1048576-2097151 of $disk"
shared_refused "rdload: -f into the file under the partition's loop device: refused" \
	"$disk" "$work/disk.orig" "$disk" "$p1" "1048576-2097151 of $disk" -f
# Another loop device over the disk file, from 2 MiB on: apart from
# partition 1; from 1.5 MiB on, shared.
loop_over apart -o 2M "$disk"
shared_loaded "rdload: a loop device apart from the partition, over its file: loaded" \
	"$apart" "$p1" "$work/p1.orig"
cp "$disk" "$work/disk.orig"
loop_over within -o 1536K "$disk"
shared_refused "rdload: a loop device over the partition's last half: refused" \
	"$disk" "$work/disk.orig" "$within" "$p1" "1572864-2097151 of $disk"
shared_loaded "rdload: partition 2 from partition 1 of one disk: loaded" \
	"$p2" "$p1" "$work/p1.orig"

# Only /dev/ramN is made as a device node: a ram1 elsewhere is a file
# with -f, and does not exist without it.
mkdir "$work/outdir"
run_rdload -f -o "$work/outdir/ram1" "$img/ext2.img.gz"
if [ "$status" = 0 ] && [ -f "$work/outdir/ram1" ] && [ ! -L "$work/outdir/ram1" ] &&
   cmp -s "$img/ext2.img" "$work/outdir/ram1"; then
	pass "rdload: -f -o DIR/ram1 creates a file, no device node"
else
	fail "rdload: -f -o DIR/ram1 creates a file, no device node" \
		"exit $status" "$(cat "$work/err")" "$(ls -l "$work/outdir")"
fi
run_rdload -o "$work/outdir/ram2" "$img/ext2.img.gz"
refused "rdload: -o DIR/ram2 without -f: does not exist, no node made" \
	"$big" "$work/outdir/ram2 does not exist \(a file as target needs -f\)$"
[ -e "$work/outdir/ram2" ] && fail "rdload: -o DIR/ram2 made $(ls -l "$work/outdir/ram2")"
ln -s "$work/nowhere" "$work/dangling"
run_rdload -f -o "$work/dangling" "$img/ext2.img.gz"
refused "rdload: -f -o a dangling link: named, with the remedy" "$big" \
	"$work/dangling is a symbolic link to a file that does not exist: give the file's own path, or remove the link$"
[ -e "$work/nowhere" ] && fail "rdload: -f -o a dangling link created its target"

# -i says what a load would do: a romfs of size 0 is refused by both.
{ printf -- '-rom1fs-'; head -c 4088 /dev/zero; } >"$work/romfs0"
expect_err "rdload -i: a plain image of size 0 is refused, as a load is" 1 \
	"^rdload: RAMDISK: the romfs filesystem has size 0KiB: nothing to load$" \
	"$KIT" rdload -q -i "$work/romfs0"

# lzop's longest header: a file with a 255-character name, compressed by
# the real lzop.
long=$work/$(printf '%0255d' 0)
cp "$img/ext2.img" "$long"
lzop -c "$long" >"$work/longname.lzo"
rm "$long"
fill "$big"
run_rdload -o "$big" "$work/longname.lzo"
loaded "rdload: lzop of a file with a 255-character name" "$big" \
	"$img/ext2.img" $((4096 * 1024)) "1 disk"

# /dev/ramN is made only with N in decimal as the kernel names it: these
# are not, and no node appears.
fill "$big"
for name in ram010 ram1x ram+1 ram1048576; do
	run_rdload -o "/dev/$name" "$img/ext2.img.gz"
	refused "rdload: -o /dev/$name: not a name the kernel gives, no node made" \
		"$big" "/dev/${name/+/\\+} does not exist \(a file as target needs -f\)$"
	[ -e "/dev/$name" ] && fail "rdload: -o /dev/$name made $(ls -l "/dev/$name")"
done

# A read-only device: refused before writing, saying how to fix it.
loop_over ro -r "$work/big.back"
fill "$big"
run_rdload -o "$ro" "$img/ext2.img"
refused "rdload: a read-only loop device: refused before writing" "$big" \
	"$ro is read-only: make it writable first \(blockdev --setrw $ro, or a loop device set up without -r\)$"

# ---- Options ----

fill "$big"
expect "rdload: -q prints nothing" 0 "" "$KIT" rdload -q -o "$big" "$img/ext4.img.xz"
[ -s "$T_ERR" ] && fail "rdload: -q prints nothing on stderr" "$(cat "$T_ERR")"
cmp -s -n "$(stat -c %s "$img/ext4.img")" "$img/ext4.img" "$big" && pass "rdload: -q loads" ||
	fail "rdload: -q loads" "$big differs from ext4.img"

fill "$big"
run_rdload --verify -o "$big" "$img/romfs.img.lzo"
if [ "$status" = 0 ] && grep -qx "RAMDISK: verified $(($(stat -c %s "$img/romfs.img") / 1024))KiB" "$work/out"; then
	pass "rdload: --verify reads the target back"
else
	fail "rdload: --verify reads the target back" "$(cat "$work/out" "$work/err")"
fi

# --verify against a target that loses data past the first MiB: while
# rdload waits for volume 2, MiB 1 of the device is overwritten behind its
# back.  The error names that MiB.
split -b 2M -d -a 1 "$img/ext2.img" "$work/half."
fill "$big"
zero_mib1() {
	head -c 1M /dev/zero |
		dd of="$big" bs=1M seek=1 conv=notrunc,fsync status=none
}
at_prompt zero_mib1 --verify --prompt -o "$big" "$work/half.0" "$work/half.1"
refused "rdload: --verify names MiB 1, changed behind its back" "$big" \
	"verify failed: $big reads back other bytes than were written, in MiB 1 \(bytes 1048576-2097151\); 4194304 bytes written"

run_rdload -o /dev/null "$img/ext2.img.gz"
if [ "$status" = 1 ] && grep -qx "rdload: /dev/null is not a block device: give /dev/ramN or another block device, or a file with -f" "$work/err"; then
	pass "rdload -o /dev/null: not a block device, and what to give"
else
	fail "rdload -o /dev/null: not a block device, and what to give" \
		"exit status $status" "$(cat "$work/err")"
fi

# -f: a regular file, written from its start, never truncated.
file=$work/target.file
head -c 8M "$work/pattern" >"$file"
run_rdload -f -o "$file" "$img/ext2.img.bz2"
loaded "rdload: -f loads into a regular file, the rest of it kept" \
	"$file" "$img/ext2.img" $((4096 * 1024)) "1 disk"
head -c 8M "$work/pattern" >"$file"
run_rdload -o "$file" "$img/ext2.img.bz2"
refused "rdload: a regular file without -f is refused, left as it was" \
	"$file" "is a regular file: use -f"
rm -f "$work/new.file"
run_rdload -f -o "$work/new.file" "$img/cramfs.img.gz"
cmp -s "$img/cramfs.img" "$work/new.file" &&
	pass "rdload: -f creates a missing file" ||
	fail "rdload: -f creates a missing file" "$(cat "$work/err")"
# A refused image leaves no new file: not an empty one, not a part.
for fs in romfs squashfs minix ext2; do
	head -c $(($(stat -c %s "$img/$fs.img") / 2)) "$img/$fs.img" >"$work/cut.img"
	rm -f "$work/new.file"
	run_rdload -f -o "$work/new.file" "$work/cut.img"
	if [ "$status" = 1 ] && [ ! -e "$work/new.file" ] &&
	   grep -q "written to $work/new.file, which it created: removed\$" "$work/err"; then
		pass "rdload -f -o NEW: a $fs image cut short leaves no NEW"
	else
		fail "rdload -f -o NEW: a $fs image cut short leaves no NEW" \
			"exit status $status" "$(cat "$work/err")" "$(ls -l "$work/new.file" 2>&1)"
	fi
done

# The default target, /dev/ram0: brd when this kernel can load it (the VM
# tests always have it), else the error that says how to get it.  A
# /dev/ram0 that exists already may hold someone's data: left alone.
if [ -e /dev/ram0 ]; then
	echo "rdload: /dev/ram0 exists here: the default target is tested in the VM only"
elif modprobe brd rd_nr=1 rd_size=8192 2>/dev/null; then
	run_rdload "$img/ext2.img.gz"
	if [ "$status" = 0 ] && cmp -s "$img/ext2.img" /dev/ram0; then
		pass "rdload: default target /dev/ram0"
	else
		fail "rdload: default target /dev/ram0" "$(cat "$work/err")"
	fi
	rmmod brd
else
	run_rdload "$img/ext2.img"
	if [ "$status" = 1 ] && grep -q "^rdload: cannot open /dev/ram0: no such device (for /dev/ramN: modprobe brd)" "$work/err" &&
	   [ ! -e /dev/ram0 ]; then
		pass "rdload: default /dev/ram0 without brd: says modprobe brd, leaves no node"
	else
		fail "rdload: default /dev/ram0 without brd: says modprobe brd, leaves no node" \
			"exit $status" "$(cat "$work/err")" "$(ls -l /dev/ram0 2>&1)"
	fi
fi

expect_err "rdload: no IMAGE is a usage error" 2 "^rdload: no IMAGE" \
	"$KIT" rdload -o "$big"
expect_err "rdload: a bad -s is a usage error" 2 "^rdload: -s takes a block number" \
	"$KIT" rdload -s x "$img/ext2.img"
expect_err "rdload: an unknown option is a usage error" 2 \
	"^rdload: unknown option '-Z'; see 'rdload --help'$" \
	"$KIT" rdload -Z "$img/ext2.img"
expect_err "rdload -qx: the unknown letter is named" 2 \
	"^rdload: unknown option '-x'; see 'rdload --help'$" \
	"$KIT" rdload -qx "$img/ext2.img"
expect_err "rdload -s without a value: says it needs one" 2 \
	"^rdload: option '-s' needs a value; see 'rdload --help'$" \
	"$KIT" rdload -s
expect_err "rdload IMAGE -o without a value: says it needs one" 2 \
	"^rdload: option '-o' needs a value; see 'rdload --help'$" \
	"$KIT" rdload "$img/ext2.img" -o
echo "rdload: suite took $((SECONDS - t0))s"
