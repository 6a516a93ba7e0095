# mkcpio on the host, no VM: what OUT may be (a file, a new name, a
# symlink, a device node, a pipe; never a directory or IMAGE itself), its
# mode, signals, damaged and empty modules, dependency cycles, aliases and
# built-in modules.  Modules and their lists are real: a Debian kernel's
# (tests/vm/fetch) and small trees made here from its brd.ko, compressed
# by the real xz, gzip and zstd.
#   MKCPIO_KERNEL   the Debian kernel whose modules are used (default 6.1)
. "$TESTS/lib.sh"
work=$(mktemp -d /tmp/kit-mkcpio.XXXXXX)
cleanup() {
	mountpoint -q "$work/dev" && umount "$work/dev"
	rm -rf --one-file-system "$work"
	t_cleanup
}
trap cleanup EXIT
o=$work/out
mkdir -p "$o"

if ! kver=$(tests/vm/fetch "${MKCPIO_KERNEL:-6.1}" brd ext4 crc32c_generic \
	virtio_blk); then
	fail "mkcpio: kernel ${MKCPIO_KERNEL:-6.1} fetched"
	exit 1
fi
root=$PWD/tests/vm/cache/$kver
moddir=$root/lib/modules/$kver

# mk ARGS...: kit initrd mkcpio for that kernel.
mk() { "$KIT" initrd mkcpio -r "$root" -k "$kver" "$@"; }

# The load list (kit/modules) of the archive on stdin, one line.
list_of() { cpio -i --quiet --to-stdout kit/modules | tr '\n' ';'; }

# What $o holds: names, kinds, modes, owners and contents.
state() {
	(cd "$o" && find . -printf '%p %y %m %u %l\n' | sort &&
		find . -type f -exec md5sum {} + | sort)
}

# An image mkcpio takes: a gzip'd ext2.
mkdir -p "$work/tree"
echo hello >"$work/tree/hello"
mke2fs -q -F -t ext2 -d "$work/tree" "$work/img.ext2" 1024
gzip -9c "$work/img.ext2" >"$work/img.gz"
mk -o "$work/ref.cpio" "$work/img.gz" ||
	fail "mkcpio: the reference archive"

# /dev/console as the kernel's own initramfs makes it (init/
# noinitramfs.c: 0600, 5:1): the console PID 1 opens.
expect "mkcpio: /dev/console is a character device 5:1, mode 0600" 0 \
	"crw-------   1 root     root       5,   1" \
	sh -c 'cpio -itv --quiet <"$1" | sed -n "s| [A-Z][a-z][a-z] .* dev/console\$||p"' \
	sh "$work/ref.cpio"

# ---- OUT: written as the kind of file it is, never replaced ----

mknod "$o/null" c 1 3
mknod "$o/ram0" b 1 0
mkdir "$o/dir"
ln -s /proc/self/fd/1 "$o/stdout"
echo old >"$o/target"
chmod 640 "$o/target"
ln -s target "$o/link"
ln -s nowhere "$o/dangling"

expect "mkcpio -o a character device node writes into it" 0 "" \
	mk -o "$o/null" "$work/img.gz"
[ "$(stat -c '%F %t:%T' "$o/null")" = "character special file 1:3" ] &&
	pass "mkcpio: the character device node stays that node" ||
	fail "mkcpio: the character device node stays that node" \
		"$(ls -l "$o/null")"

# /dev/stdout in a tmpfs /dev, as a rescue system has it: a pipe behind.
mkdir "$work/dev"
mount -t tmpfs -o size=1m tmpfs "$work/dev" &&
	ln -s /proc/self/fd/1 "$work/dev/stdout"
mk -o "$work/dev/stdout" "$work/img.gz" | cat >"$work/piped.cpio"
if cmp -s "$work/piped.cpio" "$work/ref.cpio" && [ -L "$work/dev/stdout" ] &&
   [ "$(ls -A "$work/dev")" = stdout ]; then
	pass "mkcpio -o /dev/stdout (a pipe) streams the archive; the link stays"
else
	fail "mkcpio -o /dev/stdout (a pipe) streams the archive; the link stays" \
		"$(ls -l "$work/dev"; cmp "$work/piped.cpio" "$work/ref.cpio")"
fi

mkfifo "$o/fifo"
# The reader gives up if mkcpio never opens the pipe.
timeout 20 cat "$o/fifo" >"$work/fifo.cpio" &
reader=$!
expect "mkcpio -o a named pipe writes into it" 0 "" \
	mk -o "$o/fifo" "$work/img.gz"
wait "$reader"
[ -p "$o/fifo" ] && cmp -s "$work/fifo.cpio" "$work/ref.cpio" &&
	pass "mkcpio: the pipe stays a pipe, its reader has the archive" ||
	fail "mkcpio: the pipe stays a pipe, its reader has the archive"

expect "mkcpio -o a symlink to a file" 0 "" mk -o "$o/link" "$work/img.gz"
if [ "$(readlink "$o/link")" = target ] && cmp -s "$o/target" "$work/ref.cpio" &&
   [ "$(stat -c %a "$o/target")" = 640 ] &&
   [ -z "$(ls "$o" | grep -E '\.[A-Za-z0-9]{6}$')" ]; then
	pass "mkcpio: the link stays, its target (mode kept) holds the archive"
else
	fail "mkcpio: the link stays, its target (mode kept) holds the archive" \
		"$(ls -l "$o")"
fi

refuse "mkcpio -o a block device node" 1 \
	"initrd: -o .*/ram0 is neither a file, a pipe nor a character device: mkcpio does not write over it" \
	mk -o "$o/ram0" "$work/img.gz"
refuse "mkcpio -o a symlink to nothing" 1 \
	"initrd: -o .*/dangling is a symlink to nothing; give the archive's file name" \
	mk -o "$o/dangling" "$work/img.gz"

# -o X X: the output would replace its own input; a hard link is the same.
cp "$work/img.gz" "$o/self.gz"
ln "$o/self.gz" "$o/self-link.gz"
refuse "mkcpio -o IMAGE IMAGE" 1 \
	"initrd: -o .*/self.gz is IMAGE itself: write the archive elsewhere" \
	mk -o "$o/self.gz" "$o/self.gz"
refuse "mkcpio -o IMAGE IMAGE, through a hard link" 1 \
	"initrd: -o .*/self-link.gz is IMAGE itself: write the archive elsewhere" \
	mk -o "$o/self-link.gz" "$o/self.gz"

# -o KIT: the kit /init would be, by any name, is never written over: -i
# KIT itself, a hard link or a symlink to it, and this kit, as
# /proc/self/exe (a copy runs, in case the guard fails).
cp "$KIT" "$o/kit2"
ln "$o/kit2" "$o/kit2-hard"
ln -s kit2 "$o/kit2-sym"
for out in kit2 kit2-hard kit2-sym; do
	refuse "mkcpio -i KIT -o KIT, as $out" 1 \
		"initrd: -o .*/$out is KIT itself: write the archive elsewhere" \
		mk -i "$o/kit2" -o "$o/$out" "$work/img.gz"
done
refuse "mkcpio -o /proc/self/exe (this kit)" 1 \
	"initrd: -o /proc/self/exe is this kit itself: write the archive elsewhere" \
	"$o/kit2" initrd mkcpio -r "$root" -k "$kver" -o /proc/self/exe \
	"$work/img.gz"
refuse "mkcpio -o ''" 2 "initrd: -o takes the archive's file name, got ''" \
	mk -o '' "$work/img.gz"

# ---- inputs that must be regular files: a FIFO is refused at once ----

mkfifo "$work/in.fifo"
refuse "mkcpio: a FIFO as IMAGE, refused without waiting on it" 1 \
	"initrd: .*/in.fifo is not a regular file; give the RAM disk image's file" \
	timeout 5 "$KIT" initrd mkcpio -r "$root" -k "$kver" -o "$o/n.cpio" \
	"$work/in.fifo"
refuse "mkcpio: a FIFO as -i KIT, refused without waiting on it" 1 \
	"initrd: .*/in.fifo is not a regular file; give -i KIT, a kit binary" \
	timeout 5 "$KIT" initrd mkcpio -r "$root" -k "$kver" -o "$o/n.cpio" \
	-i "$work/in.fifo"

# ---- -i KIT: what the kernel can exec as /init with no loader there ----

echo 'int main(void) { return 0; }' >"$work/main.c"
cc -static-pie -o "$work/static-pie" "$work/main.c" &&
	cc -shared -fPIC -o "$work/lib.so" "$work/main.c" &&
	cc -o "$work/dynamic" "$work/main.c" ||
	fail "mkcpio: the test programs build"
cp "$moddir/kernel/drivers/block/"brd.ko* "$work/module.ko"
chmod +x "$work/lib.so" "$work/module.ko"
expect "mkcpio -i a static PIE: packed" 0 "" \
	mk -i "$work/static-pie" -o "$o/pie.cpio"
for case in "dynamic:is dynamically linked \(the loader it names is not in the archive\)" \
	"lib.so:is a shared library, not a program" \
	"module.ko:is a relocatable object \(a \.o or a kernel module\), not a program"; do
	refuse "mkcpio -i ${case%%:*}: refused" 1 \
		"initrd: .*/${case%%:*} ${case#*:}; give -i KIT, a kit binary \(static, as make builds it\)" \
		mk -i "$work/${case%%:*}" -o "$o/n.cpio"
done

# ---- messages: a directory as OUT or IMAGE, before anything is built ----

refuse "mkcpio -o DIR" 1 \
	"initrd: -o .*/dir is a directory; give the archive's file name, e.g. -o .*/dir/initrd.cpio" \
	mk -o "$o/dir" "$work/img.gz"
refuse "mkcpio -o DIR/" 1 \
	"initrd: -o .*/dir/ names a directory; give the archive's file name, e.g. -o .*/dir/initrd.cpio" \
	mk -o "$o/dir/" "$work/img.gz"
refuse "mkcpio -o NEWDIR/" 1 \
	"initrd: -o .*/newdir/ names a directory; give the archive's file name" \
	mk -o "$o/newdir/" "$work/img.gz"
refuse "mkcpio DIR (IMAGE a directory)" 1 \
	"initrd: .*/dir is a directory; give the RAM disk image's file" \
	mk -o "$o/n.cpio" "$o/dir"

# ---- the mode: the umask for a new OUT, an old OUT's mode and owner ----

rm -f "$o/new"
(umask 077 && mk -o "$o/new" "$work/img.gz")
expect "mkcpio: a new OUT under umask 077 is 0600" 0 600 stat -c %a "$o/new"
rm -f "$o/new"
(umask 027 && mk -o "$o/new" "$work/img.gz")
expect "mkcpio: a new OUT under umask 027 is 0640" 0 640 stat -c %a "$o/new"
echo old >"$o/kept"
chmod 604 "$o/kept"
chown nobody:nogroup "$o/kept"
(umask 022 && mk -o "$o/kept" "$work/img.gz")
expect "mkcpio: an old OUT keeps its mode and owner" 0 "604 nobody:nogroup" \
	stat -c '%a %U:%G' "$o/kept"
cmp -s "$o/kept" "$work/ref.cpio" && pass "mkcpio: and holds the archive" ||
	fail "mkcpio: and holds the archive"

# ---- signals: a killed mkcpio leaves no partial file ----

# A big image (sparse after its gzip'd ext2): minutes to copy, so the
# signal comes while the partial file is being written.
cp "$work/img.gz" "$work/big.gz"
truncate -s 3G "$work/big.gz"
# writing: sets part, the partial file of OUT sig.cpio, once mkcpio has
# written a MB into it (10 s at most).
writing() {
	for _ in $(seq 200); do
		part=$(ls "$o" | grep '^sig\.cpio\.')
		[ -n "$part" ] && [ "$(stat -c %s "$o/$part")" -gt 1000000 ] && break
		sleep 0.05
	done
}
# Every signal whose default ends the process, and that can be caught.
ulimit -c 0
for sig in INT TERM HUP QUIT USR1 USR2 ALRM PIPE VTALRM XCPU XFSZ RTMIN+3; do
	echo old >"$o/sig.cpio"
	env --default-signal="$sig" "$KIT" initrd mkcpio -r "$root" \
		-k "$kver" -o "$o/sig.cpio" "$work/big.gz" 2>"$work/sig.err" &
	pid=$!
	writing
	kill -s "$sig" "$pid"
	{ wait "$pid"; } 2>/dev/null
	status=$?
	left=$(ls "$o" | grep '^sig\.cpio\.')
	if [ -n "$part" ] && [ "$status" -eq $((128 + $(kill -l "$sig"))) ] &&
	   [ -z "$left" ] && [ "$(cat "$o/sig.cpio")" = old ]; then
		pass "mkcpio: SIG$sig while writing: killed by it, no $part left, OUT as it was"
	else
		fail "mkcpio: SIG$sig while writing: killed by it, no partial file left, OUT as it was" \
			"partial seen: '$part'; exit status $status; left: '$left'" \
			"$(cat "$work/sig.err")"
	fi
	rm -f "$o"/sig.cpio*
done
# A signal that does not end mkcpio, and HUP under nohup (ignored when
# mkcpio starts): the partial file stays and mkcpio goes on writing.
for sig in WINCH CHLD HUP; do
	rm -f "$o"/sig.cpio*
	if [ "$sig" = HUP ]; then
		(trap '' HUP; exec "$KIT" initrd mkcpio -r "$root" -k "$kver" \
			-o "$o/sig.cpio" "$work/big.gz") 2>/dev/null &
	else
		"$KIT" initrd mkcpio -r "$root" -k "$kver" -o "$o/sig.cpio" \
			"$work/big.gz" 2>/dev/null &
	fi
	pid=$!
	writing
	kill -s "$sig" "$pid"
	sleep 0.5
	if [ -n "$part" ] && kill -0 "$pid" 2>/dev/null && [ -f "$o/$part" ]; then
		pass "mkcpio: SIG$sig$([ "$sig" != HUP ] || echo ' under nohup'): mkcpio goes on, its partial file kept"
	else
		fail "mkcpio: SIG$sig: mkcpio goes on, its partial file kept" \
			"partial seen: '$part'; $(ls "$o")"
	fi
	kill "$pid" 2>/dev/null
	{ wait "$pid"; } 2>/dev/null
done
rm -f "$o"/sig.cpio*
# RLIMIT_FSIZE: the write past it raises SIGXFSZ.
echo old >"$o/fsize.cpio"
(ulimit -f 2048 && exec "$KIT" initrd mkcpio -r "$root" -k "$kver" \
	-o "$o/fsize.cpio" "$work/big.gz") 2>/dev/null
status=$?
left=$(ls "$o" | grep '^fsize\.cpio\.')
if [ "$status" -eq $((128 + $(kill -l XFSZ))) ] && [ -z "$left" ] &&
   [ "$(cat "$o/fsize.cpio")" = old ]; then
	pass "mkcpio: past ulimit -f (SIGXFSZ): no partial file left, OUT as it was"
else
	fail "mkcpio: past ulimit -f (SIGXFSZ): no partial file left, OUT as it was" \
		"exit status $status; left: '$left'"
fi
rm -f "$o"/fsize.cpio*
rm -f "$work/big.gz"

# ---- modules: damaged, empty, cycles, aliases, built in ----

fake=$work/fake
m=$fake/lib/modules/9.9
mkdir -p "$m/kernel"
ko=$work/brd.ko
case $(ls "$moddir/kernel/drivers/block/"brd.ko*) in
*.xz) xz -dc "$moddir/kernel/drivers/block/brd.ko.xz" >"$ko" ;;
*) cp "$moddir/kernel/drivers/block/brd.ko" "$ko" ;;
esac
# cut FILE: FILE's first half.
cut() { truncate -s $(($(stat -c %s "$1") / 2)) "$1"; }
: >"$m/kernel/empty_xz.ko.xz"
: >"$m/kernel/empty_gz.ko.gz"
: >"$m/kernel/empty_zst.ko.zst"
: >"$m/kernel/empty_ko.ko"
gzip -c "$ko" >"$m/kernel/cut_gz.ko.gz" && cut "$m/kernel/cut_gz.ko.gz"
zstd -qc "$ko" >"$m/kernel/cut_zst.ko.zst" && cut "$m/kernel/cut_zst.ko.zst"
xz -c "$ko" >"$m/kernel/cut_xz.ko.xz" && cut "$m/kernel/cut_xz.ko.xz"
echo 'not a module' >"$m/kernel/text.ko"
echo 'not a module' | zstd -qc >"$m/kernel/text_zst.ko.zst"
for n in brd a b c d e f g; do
	cp "$ko" "$m/kernel/$n.ko"
done
gzip -c "$ko" >"$m/kernel/virt.ko.gz"
{
	echo "kernel/brd.ko:"
	for n in empty_xz.ko.xz empty_gz.ko.gz empty_zst.ko.zst empty_ko.ko \
		cut_gz.ko.gz cut_zst.ko.zst cut_xz.ko.xz text.ko text_zst.ko.zst; do
		echo "kernel/$n:"
	done
	echo "kernel/a.ko: kernel/b.ko"
	echo "kernel/b.ko: kernel/a.ko"
	echo "kernel/c.ko: kernel/d.ko"
	echo "kernel/d.ko:"
	echo "kernel/e.ko:"
	echo "kernel/f.ko: kernel/gone.ko"
	echo "kernel/g.ko:"
	echo "kernel/virt.ko.gz:"
	echo "kernel/fifo.ko:"
	echo "kernel/cut_ko.ko:"
	echo "kernel/prog.ko:"
} >"$m/modules.dep"
fmk() { "$KIT" initrd mkcpio -r "$fake" -k 9.9 "$@"; }
export -f list_of mk fmk
export root kver fake KIT

state() { ls -A "$o"; }
for n in empty_xz.ko.xz empty_gz.ko.gz empty_zst.ko.zst empty_ko.ko; do
	refuse "mkcpio: an empty module, $n" 1 \
		"initrd: .*/kernel/$n is damaged: it is empty; reinstall its package" \
		timeout 20 "$KIT" initrd mkcpio -r "$fake" -k 9.9 -m "${n%%.*}" \
		-o "$o/mod.cpio"
done
for n in cut_gz.ko.gz cut_zst.ko.zst cut_xz.ko.xz; do
	refuse "mkcpio: a truncated module, $n" 1 \
		"initrd: .*/kernel/$n is damaged: it does not decompress; reinstall its package" \
		timeout 20 "$KIT" initrd mkcpio -r "$fake" -k 9.9 -m "${n%%.*}" \
		-o "$o/mod.cpio"
done
# An uncompressed module cut short, and a program named .ko: checked as
# the compressed ones are, once unpacked.
head -c $(($(stat -c %s "$ko") / 2)) "$ko" >"$m/kernel/cut_ko.ko"
cp "$KIT" "$m/kernel/prog.ko"
refuse "mkcpio: a truncated module, cut_ko.ko (not compressed)" 1 \
	"initrd: .*/kernel/cut_ko.ko is damaged: cut short; reinstall its package" \
	fmk -m cut_ko -o "$o/mod.cpio"
refuse "mkcpio: a program named .ko" 1 \
	"initrd: .*/kernel/prog.ko is damaged: an ELF file, but no module \(not ET_REL\); reinstall its package" \
	fmk -m prog -o "$o/mod.cpio"
mkfifo "$m/kernel/fifo.ko"
refuse "mkcpio: a FIFO as a module file, refused without waiting on it" 1 \
	"initrd: .*/kernel/fifo.ko is not a regular file; reinstall its package" \
	timeout 5 "$KIT" initrd mkcpio -r "$fake" -k 9.9 -m fifo -o "$o/mod.cpio"
for n in text.ko text_zst.ko.zst; do
	refuse "mkcpio: a module that is no ELF file, $n" 1 \
		"initrd: .*/kernel/$n is damaged: not an ELF module; reinstall its package" \
		fmk -m "${n%%.*}" -o "$o/mod.cpio"
done

# modules.dep lists a module's whole closure: 70 dependencies of one,
# and a chain 70 deep, all packed, none taken for a cycle.
{
	echo "kernel/wide.ko: $(for i in $(seq 0 69); do printf 'kernel/w%d.ko ' $i; done)"
	for i in $(seq 0 69); do
		echo "kernel/w$i.ko:"
		printf 'kernel/deep%d.ko:' $i
		for j in $(seq $((i + 1)) 69); do printf ' kernel/deep%d.ko' $j; done
		echo
	done
} >>"$m/modules.dep"
for i in $(seq 0 69); do
	cp "$ko" "$m/kernel/w$i.ko"
	cp "$ko" "$m/kernel/deep$i.ko"
done
cp "$ko" "$m/kernel/wide.ko"
expect "mkcpio: a module with 70 dependencies: each of them, then it" 0 \
	"brd $(for i in $(seq 69 -1 0); do printf 'w%d ' $i; done)wide" \
	bash -c '"$@" | list_of | tr ";" "\n" | cut -d" " -f1 | paste -sd" "' \
	sh fmk -m wide
expect "mkcpio: a dependency chain 70 deep is no cycle: deepest first" 0 \
	"brd $(for i in $(seq 69 -1 1); do printf 'deep%d ' $i; done)deep0" \
	bash -c '"$@" | list_of | tr ";" "\n" | cut -d" " -f1 | paste -sd" "' \
	sh fmk -m deep0

# A cycle through modules.dep: depmod refuses to write one, a hand-made
# file may hold one; no order loads it.
refuse "mkcpio: a dependency cycle in modules.dep" 1 \
	"initrd: .*/modules.dep has a dependency cycle, a -> b -> a: no order loads them; run depmod" \
	timeout 20 "$KIT" initrd mkcpio -r "$fake" -k 9.9 -m a -o "$o/mod.cpio"

# Soft dependencies in cycles, pre and post, as real modules.softdep files
# have them: each module once, dependencies (c needs d) first.
cat >"$m/modules.softdep" <<EOF
softdep c pre: e post: d
softdep d pre: c
softdep e pre: c post: e
softdep e post: c
softdep g pre: f
softdep h pre: nosuch post: g
softdep i pre: a
EOF
printf 'kernel/h.ko:\nkernel/i.ko:\n' >>"$m/modules.dep"
cp "$ko" "$m/kernel/h.ko"
cp "$ko" "$m/kernel/i.ko"
expect "mkcpio: soft dependencies in cycles: each module once" 0 \
	"brd /kit/lib/brd.ko;d /kit/lib/d.ko;e /kit/lib/e.ko soft;c /kit/lib/c.ko;" \
	sh -c '"$@" | cpio -i --quiet --to-stdout kit/modules | tr "\n" ";"' sh \
	timeout 20 "$KIT" initrd mkcpio -r "$fake" -k 9.9 -m c

# A dependency modules.dep lacks: refused for a module the boot needs,
# left to fail at boot for a soft dependency.
expect_err "mkcpio -m a module whose dependency modules.dep lacks" 1 \
	"initrd: no module gone in .*/modules.dep" fmk -m f -o "$o/mod.cpio"
expect "mkcpio: a soft dependency whose dependency modules.dep lacks" 0 \
	"brd /kit/lib/brd.ko;f /kit/lib/f.ko soft;g /kit/lib/g.ko;" \
	bash -c '"$@" | list_of' sh fmk -m g
refuse "mkcpio: a soft dependency in a modules.dep cycle: refused" 1 \
	"initrd: .*/modules.dep has a dependency cycle, a -> b -> a: no order loads them; run depmod" \
	timeout 20 "$KIT" initrd mkcpio -r "$fake" -k 9.9 -m i -o "$o/mod.cpio"
expect "mkcpio: a soft dependency nothing knows is left out, as modprobe does" 0 \
	"brd /kit/lib/brd.ko;h /kit/lib/h.ko;f /kit/lib/f.ko soft;g /kit/lib/g.ko soft;" \
	bash -c '"$@" | list_of' sh fmk -m h

# Aliases, fnmatch patterns as kmod reads them, and built-in modules.
cat >"$m/modules.alias" <<EOF
alias virtio:d00000002v* virt
alias fs-brd brd
alias soft[-_]alias e
EOF
printf 'kernel/fs/builtin_fs.ko\n' >"$m/modules.builtin"
printf 'builtin_fs.alias=fs-builtin\0builtin_fs.description=x\0' \
	>"$m/modules.builtin.modinfo"
expect "mkcpio -m MODALIAS: a modules.alias pattern" 0 \
	"brd /kit/lib/brd.ko;virt /kit/lib/virt.ko;" \
	bash -c '"$@" | list_of' sh fmk -m virtio:d00000002v00001AF4
expect "mkcpio -m a built-in module's name or alias: nothing to load" 0 \
	"brd /kit/lib/brd.ko;" \
	bash -c '"$@" | list_of' sh fmk -m builtin-fs -m fs-builtin
expect "mkcpio -m an alias with [-_] in it (e, soft dependencies first)" 0 \
	"brd /kit/lib/brd.ko;d /kit/lib/d.ko soft;c /kit/lib/c.ko soft;e /kit/lib/e.ko;" \
	bash -c '"$@" | list_of' sh fmk -m soft-alias
expect "mkcpio -o /dev/null with stdin closed: the device is fd 0, written" 0 \
	"" sh -c 'exec "$@" <&-' sh "$KIT" initrd mkcpio -r "$fake" -k 9.9 -m e -o /dev/null
expect_err "mkcpio -m what nothing knows" 1 \
	"initrd: no module fs-none in .*/modules.dep, modules.alias or modules.builtin; check its name, and that -k names the kernel that has it" \
	fmk -m fs-none -o "$o/mod.cpio"

# A real kernel's aliases: ext3 and fs-ext4 are ext4, as modprobe says.
want=$(mk -m ext4 | list_of)
for alias in ext3 fs-ext4 ext2; do
	expect "mkcpio -m $alias loads ext4, as modprobe $alias does" 0 "$want" \
		bash -c 'mk -m "$1" | list_of' sh "$alias"
done
# A module asked for with -m that is also a soft dependency stays hard.
expect "mkcpio: -m crc32c_generic, also ext4's soft dependency, is hard" 0 \
	"crc32c_generic /kit/lib/crc32c_generic.ko" \
	bash -c 'mk -m ext4 -m crc32c_generic | list_of | tr ";" "\n" |
		grep "^crc32c_generic "' sh
