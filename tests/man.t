# The man pages (make man, applets/core/manpage.awk): kit(1) and one page
# per applet, each a cut of README.  Made in a build directory of their
# own, each renders with no warning from groff (-ww: every warning) nor
# from mandoc's lint, names its program in NAME with its KIT_APPLET
# summary, and holds in SYNOPSIS every synopsis line README gives it (as
# tests/core.t reads them: the first block of "  APPLET ..." lines of
# each section, without the description column; kit's in "The multicall
# core"), and no other program's.  Installed (make install DESTDIR=), man
# finds each page where MANDIR says.
. "$TESTS/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; t_cleanup' EXIT
top=$PWD

for tool in groff:groff-base mandoc:mandoc man:man-db; do
	if ! command -v "${tool%%:*}" >/dev/null; then
		fail "man: ${tool%%:*} is installed" \
			"install the Debian package ${tool#*:} (tests/deps)"
		exit 1
	fi
done

applets=$(all_applets)
pages="kit $applets"

if make -s --no-print-directory O="$tmp/o" man >"$tmp/make.log" 2>&1; then
	pass "man: make man makes the pages"
else
	fail "man: make man makes the pages" "$(cat "$tmp/make.log")"
	exit 1
fi
expect "man: make man makes kit.1 and one page per applet, no more" 0 \
	"$(for p in $pages; do echo "$p.1"; done | sort)" \
	sh -c 'ls "$1" | sort' sh "$tmp/o/man"

# README's synopsis lines of each program, as "PROGRAM<tab>LINE":
# tests/core.t's reading for the applets; for kit, the lines of the first
# indented block of "The multicall core".
synopses=$(awk -v list="$applets" '
	BEGIN { n = split(list, a, "\n"); for (i = 1; i <= n; i++) is[a[i]] = 1 }
	/^---/ { section = 1; core = prev == "The multicall core"
		 started = done = 0; next }
	{ prev = $0 }
	!section || done { next }
	core && started && /^   / { next }
	(core && /^  [^ ]/) || (!core && /^  [a-z]/ && ($1 in is)) {
		started = 1; line = substr($0, 3); sub(/   +.*/, "", line)
		print (core ? "kit" : $1) "\t" line; next
	}
	started { done = 1 }' README)

# render PAGE: the page as plain text, one long line per line of input
# where it fits.
render() {
	LC_ALL=C groff -man -Tascii -rLL=250n -P-cbou "$1" 2>/dev/null
}

# section NAME: the lines of a rendered page under the heading NAME.
section() {
	awk -v name="$1" '/^[A-Z]/ { on = $0 == name; next } on'
}

for p in $pages; do
	page=$tmp/o/man/$p.1
	if [ ! -s "$page" ]; then
		fail "man: $p.1 is made" "$(ls -l "$tmp/o/man")"
		continue
	fi
	expect "man: $p.1: groff -ww -man -z warns of nothing" 0 "" \
		sh -c 'groff -ww -man -z "$1" 2>&1' sh "$page"
	expect "man: $p.1: mandoc -T lint -W warning says nothing" 0 "" \
		sh -c 'mandoc -T lint -W warning "$1" 2>&1; :' sh "$page"

	text=$(render "$page")
	name=$(echo "$text" | section NAME | sed 's/^ *//' | tr -s ' ')
	if [ "$p" = kit ]; then
		want="kit - one statically linked, busybox-style multicall binary"
	else
		want="$p - $(sed -n "s/^KIT_APPLET($p, \"\(.*\)\",.*/\1/p" "applets/$p.c")"
	fi
	case $name in
	"$want"*) pass "man: $p.1: NAME is $p and its summary" ;;
	*)	fail "man: $p.1: NAME is $p and its summary" "NAME: $name" \
			"want: $want" ;;
	esac

	synopsis=$(echo "$text" | section SYNOPSIS)
	flat=$(echo "$synopsis" | tr -s ' \n' '  ')
	lines=$(echo "$synopses" | awk -F '\t' -v p="$p" '$1 == p { print $2 }')
	if [ -z "$lines" ]; then
		fail "man: README has a synopsis of $p"
	fi
	while read -r line; do
		[ -n "$line" ] || continue
		case $flat in
		*"$(echo "$line" | tr -s ' ')"*)
			pass "man: $p.1: SYNOPSIS has README's $line" ;;
		*)	fail "man: $p.1: SYNOPSIS has README's $line" \
				"SYNOPSIS:" "$synopsis" ;;
		esac
	done <<END
$lines
END
	others=$(echo "$synopsis" | awk -v p="$p" -v list="$pages" '
		BEGIN { n = split(list, a, " "); for (i = 1; i <= n; i++) is[a[i]] = 1 }
		$1 in is && $1 != p')
	expect "man: $p.1: SYNOPSIS has no other program's lines" 0 "" \
		echo "$others"
done

# Installed, man finds them in MANDIR/man1, and reads each.
dest=$tmp/dest
if make -s --no-print-directory -C "$top" install DESTDIR="$dest" \
	KIT="$KIT" >"$tmp/install.log" 2>&1; then
	pass "man: make install DESTDIR=..."
else
	fail "man: make install DESTDIR=..." "$(cat "$tmp/install.log")"
fi
mandir=$dest/usr/local/share/man
for p in kit $("$KIT" --list); do
	expect "man: installed, man -w finds $p(1) in MANDIR" 0 \
		"$mandir/man1/$p.1" man -M "$mandir" -w 1 "$p"
	if [ -n "$(MANWIDTH=80 LC_ALL=C man -l "$mandir/man1/$p.1" 2>/dev/null |
		grep -F "$p")" ]; then
		pass "man: installed, man -l reads $p.1"
	else
		fail "man: installed, man -l reads $p.1" \
			"$(man -l "$mandir/man1/$p.1" 2>&1 | head -5)"
	fi
done
