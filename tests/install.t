# make install and make uninstall into DESTDIR trees, on the host: what
# install leaves alone, uninstall leaves alone too; no kit on PATH is
# needed to uninstall; a BINDIR with a space and a & in it is installed
# where it says, and one with a quote is refused before anything is
# written; the man pages land in MANDIR/man1 (tests/man.t reads them).
. "$TESTS/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; t_cleanup' EXIT
top=$PWD

# mk TARGET DESTDIR [VAR=...]: make TARGET as a user runs it, with KIT.
mk() {
	local target=$1 dest=$2

	shift 2
	make -s --no-print-directory -C "$top" "$target" DESTDIR="$dest" \
		KIT="$KIT" "$@"
}

# listing DIR: every file and link under DIR, with a link's target.
listing() {
	(cd "$1" && find . ! -type d -printf '%p %l\n' | sort)
}

# A user's own `initrd` script where an applet's link would go.
dest=$tmp/user
mkdir -p "$dest/usr/local/bin"
echo '#!/bin/sh' >"$dest/usr/local/bin/initrd"
mk install "$dest" >"$tmp/install.out" 2>&1
status=$?
if [ "$status" -eq 0 ] &&
   [ "$(cat "$dest/usr/local/bin/initrd")" = '#!/bin/sh' ] &&
   [ "$(readlink "$dest/usr/local/bin/mcled")" = kit ]; then
	pass "make install: a user's file named as an applet is left alone"
else
	fail "make install: a user's file named as an applet is left alone" \
		"exit status $status" "$(cat "$tmp/install.out")"
fi
# Uninstalled with no kit on PATH: the user's file stays, nothing of
# kit's does.
env PATH=/usr/sbin:/usr/bin:/sbin:/bin make -s --no-print-directory \
	-C "$top" uninstall DESTDIR="$dest" KIT=kit >"$tmp/uninstall.out" 2>&1
status=$?
left=$(listing "$dest")
if [ "$status" -eq 0 ] && [ "$left" = "./usr/local/bin/initrd " ] &&
   grep -qx "kit: $dest/usr/local/bin/initrd is not kit's: left alone" \
	"$tmp/uninstall.out"; then
	pass "make uninstall (no kit on PATH): removes kit's files and only those"
else
	fail "make uninstall (no kit on PATH): removes kit's files and only those" \
		"exit status $status" "left: $left" "$(cat "$tmp/uninstall.out")"
fi

# Hard links (kit --install without -s) are kit's too.
dest=$tmp/hard
mk install "$dest" >/dev/null 2>&1
for a in $("$KIT" --list); do
	rm "$dest/usr/local/bin/$a"
	ln "$dest/usr/local/bin/kit" "$dest/usr/local/bin/$a"
done
mk uninstall "$dest" >"$tmp/uninstall.out" 2>&1
if [ -z "$(listing "$dest")" ]; then
	pass "make uninstall: hard links to kit go too"
else
	fail "make uninstall: hard links to kit go too" "$(listing "$dest")"
fi

# A BINDIR with a space and a & in it: installed there, and the hooks
# name it as a word of their own.
dest=$tmp/odd
bindir='/opt/a&b c/bin'
if mk install "$dest" BINDIR="$bindir" >"$tmp/odd.out" 2>&1 &&
   [ -x "$dest$bindir/kit" ] && [ "$(readlink "$dest$bindir/rdload")" = kit ] &&
   grep -qxF "kit='$bindir/kit'" "$dest/usr/share/initramfs-tools/hooks/kit" &&
   grep -qF "local kit='$bindir/kit' module" \
	"$dest/usr/lib/dracut/modules.d/90kit/module-setup.sh" &&
   sh -n "$dest/usr/share/initramfs-tools/hooks/kit"; then
	pass "make install BINDIR='$bindir': kit where it says, the hooks naming it"
else
	fail "make install BINDIR='$bindir': kit where it says, the hooks naming it" \
		"$(cat "$tmp/odd.out")" "$(listing "$dest" | head)"
fi
mk uninstall "$dest" BINDIR="$bindir" >/dev/null 2>&1
expect "make uninstall BINDIR='$bindir': nothing left" 0 "" listing "$dest"

# A quote cannot be quoted for the hooks' shell: refused, nothing made.
dest=$tmp/quote
mk install "$dest" BINDIR="/opt/it's" >"$tmp/quote.out" 2>&1
status=$?
if [ "$status" -ne 0 ] && [ ! -e "$dest" ] &&
   grep -qF "kit: install paths cannot hold a quote ('): choose BINDIR and DESTDIR without one" \
	"$tmp/quote.out"; then
	pass "make install: a BINDIR with a quote is refused before anything is written"
else
	fail "make install: a BINDIR with a quote is refused before anything is written" \
		"exit status $status" "$(cat "$tmp/quote.out")"
fi

# The man pages: kit(1) and one per applet of the kit, in MANDIR/man1
# (default PREFIX/share/man), made by make man; a page of an applet's name
# that is not kit's is left alone by install and by uninstall.
dest=$tmp/man
man1=$dest/usr/local/share/man/man1
mkdir -p "$man1"
echo '.TH INITRD 1 "" "a user'"'"'s initrd"' >"$man1/initrd.1"
users_page=$(cat "$man1/initrd.1")
mk install "$dest" >"$tmp/man.out" 2>&1
status=$?
want=$(for p in kit $("$KIT" --list); do echo "$p.1"; done | sort)
kits=$(for p in kit $("$KIT" --list); do
	[ "$p" = initrd ] && continue
	head -n 1 "$man1/$p.1" 2>/dev/null |
		grep -qF "$p(1), made by applets/core/manpage.awk" || echo "$p.1"
done)
name="make install: kit(1) and each applet's page in MANDIR/man1, a user's page left alone"
if [ "$status" -eq 0 ] && [ "$(ls "$man1" | sort)" = "$want" ] &&
   [ -z "$kits" ] && [ "$(cat "$man1/initrd.1")" = "$users_page" ] &&
   grep -qx "kit: $man1/initrd.1 is not kit's: left alone" "$tmp/man.out"; then
	pass "$name"
else
	fail "$name" "exit status $status" "not kit's pages: $kits" \
		"$(ls -l "$man1")" "$(cat "$tmp/man.out")"
fi
mk uninstall "$dest" >"$tmp/man-un.out" 2>&1
left=$(listing "$dest")
name="make uninstall: kit's man pages go, a user's page stays"
if [ "$left" = "./usr/local/share/man/man1/initrd.1 " ] &&
   [ "$(cat "$man1/initrd.1")" = "$users_page" ] &&
   grep -qx "kit: $man1/initrd.1 is not kit's: left alone" "$tmp/man-un.out"; then
	pass "$name"
else
	fail "$name" "left: $left" "$(cat "$tmp/man-un.out")"
fi

# MANDIR= puts them elsewhere, and uninstall finds them there.
dest=$tmp/mandir
if mk install "$dest" MANDIR=/opt/kit/man >/dev/null 2>&1 &&
   [ -f "$dest/opt/kit/man/man1/kit.1" ] &&
   [ -f "$dest/opt/kit/man/man1/mcled.1" ] &&
   [ ! -e "$dest/usr/local/share/man" ]; then
	pass "make install MANDIR=/opt/kit/man: the pages in /opt/kit/man/man1"
else
	fail "make install MANDIR=/opt/kit/man: the pages in /opt/kit/man/man1" \
		"$(listing "$dest" | grep man)"
fi
mk uninstall "$dest" MANDIR=/opt/kit/man >/dev/null 2>&1
expect "make uninstall MANDIR=/opt/kit/man: nothing left" 0 "" listing "$dest"
