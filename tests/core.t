#!/bin/bash
# The multicall core: dispatch by name through hard and symbolic links,
# --list, --help, --version, --install, and the exit statuses every applet
# shares (0, 1 runtime error, 2 usage error, 127 unknown applet).
. "$TESTS/lib.sh"

run_unit lib_unit

tmp=$(mktemp -d)
trap 'umount "$tmp/ro" 2>/dev/null; rm -rf "$tmp"; t_cleanup' EXIT
chmod 755 "$tmp"	# the --install tests run as nobody too
# A copy of kit beside the link directories: hard links need one file system.
cp "$KIT" "$tmp/kit"
kit=$tmp/kit
applets=$("$kit" --list)
first=$(echo "$applets" | head -n 1)

if [ -n "$applets" ] && [ "$applets" = "$(echo "$applets" | LC_ALL=C sort)" ]; then
	pass "--list: applet names, sorted"
else
	fail "--list: applet names, sorted" "$applets"
fi
expect "--list: mcled is one" 0 "mcled" sh -c '"$1" --list | grep -x mcled' sh "$kit"

version=$("$kit" --version)
status=$?
if [ "$status" -eq 0 ] && echo "$version" | grep -Eqx 'kit [^ ]+'; then
	pass "--version: one line, kit VERSION, exit 0"
else
	fail "--version: one line, kit VERSION, exit 0" "status $status: $version"
fi

# Every applet of --list is in --help, with its summary.
help=$("$kit" --help)
status=$?
missing=
for a in $applets; do
	echo "$help" | grep -Eq "^  $a +[^ ]" || missing="$missing $a"
done
if [ "$status" -eq 0 ] && [ -z "$missing" ] && echo "$help" | grep -q '^Usage: kit APPLET'; then
	pass "--help: usage and every applet, exit 0"
else
	fail "--help: usage and every applet, exit 0" "status $status, missing:$missing"
fi
expect "kit alone is --help" 0 "$help" "$kit"
expect "-h is --help" 0 "$help" "$kit" -h

expect "--help mcled: its usage, exit 0" 0 "Usage: mcled" \
	sh -c '"$1" --help mcled | cut -c 1-12 | head -n 1' sh "$kit"
expect "APPLET --help is --help APPLET" 0 "$("$kit" --help mcled)" \
	"$kit" mcled --help
expect "APPLET -h is its --help" 0 "$("$kit" --help mcled)" "$kit" mcled -h

expect_err "unknown applet: 127" 127 "^kit: applet not found: nosuch\$" \
	"$kit" nosuch
expect_err "--help of an unknown applet: 127" 127 \
	"^kit: applet not found: nosuch\$" "$kit" --help nosuch

# Exit statuses through die_usage() and die(), from the core and an applet.
expect_err "core usage error: 2" 2 "^kit: --install takes \[-s\] DIR, the directory for the links \(kit --install -s /bin\)\$" \
	"$kit" --install
expect_err "--install '': a usage error, no mkdir -p of nothing" 2 \
	"^kit: --install takes \[-s\] DIR, the directory for the links \(kit --install -s /bin\)\$" \
	"$kit" --install ''
# Hard links cannot cross file systems: said once, before any link.
shm=$(mktemp -d /dev/shm/kit-core.XXXXXX)
if [ "$(stat -c %d "$shm")" != "$(stat -L -c %d "$kit")" ]; then
	expect_err "--install DIR on another file system: use -s, once, no link made" 1 \
		"^kit: --install: $shm is on another file system than $(realpath "$kit"): hard links cannot cross file systems; use --install -s\$" \
		"$kit" --install "$shm"
	expect "--install DIR on another file system: nothing made" 0 "" ls -A "$shm"
fi
rm -rf "$shm"
[ "$(id -u)" != 0 ] || expect_err "--install, as root, where no link can be made: not 'run as root'" 1 \
	"^kit: --install: cannot create links in /proc/sys: Permission denied; give another directory\$" \
	"$kit" --install -s /proc/sys
expect_err "core runtime error: 1" 1 \
	"^kit: --install: $tmp/nosuch does not exist; create it first \(mkdir -p $tmp/nosuch\)\$" \
	"$kit" --install "$tmp/nosuch"
expect_err "applet usage error: 2, message starts with its name" 2 \
	"^mcled: unknown option '-x'; see 'mcled --help'\$" "$kit" mcled -x
expect_err "applet runtime error: 1, message starts with its name" 1 \
	"^mcled: no LED named 'x' in $tmp/class/leds\$" \
	env KIT_SYSFS="$tmp" "$kit" mcled -l x get

# --install: hard links by default, symbolic ones with -s.
mkdir "$tmp/hard" "$tmp/soft"
expect "--install DIR: silent, exit 0" 0 "" "$kit" --install "$tmp/hard"
expect "--install -s DIR: silent, exit 0" 0 "" "$kit" --install -s "$tmp/soft"
expect "--install DIR: a link per applet" 0 "$applets" \
	sh -c 'ls "$1" | LC_ALL=C sort' sh "$tmp/hard"
expect "--install -s DIR: a link per applet" 0 "$applets" \
	sh -c 'ls "$1" | LC_ALL=C sort' sh "$tmp/soft"
if [ "$tmp/hard/$first" -ef "$kit" ] && [ ! -L "$tmp/hard/$first" ]; then
	pass "--install: hard links to kit"
else
	fail "--install: hard links to kit" "$(ls -li "$tmp/hard" "$kit")"
fi
expect "--install -s: symbolic links to kit's real path" 0 "$(realpath "$kit")" \
	readlink "$tmp/soft/$first"
# In kit's own directory, reached through a link to it as an initramfs
# has /bin -> usr/bin: links by name, that hold when the tree moves.
mkdir -p "$tmp/own/usr/bin"
ln -s usr/bin "$tmp/own/bin"
cp "$kit" "$tmp/own/usr/bin/kit"
expect "--install -s in kit's own directory: links by name" 0 "kit" \
	sh -c '"$1/usr/bin/kit" --install -s "$1/bin" && readlink "$1/bin/$2"' \
	sh "$tmp/own" "$first"
for dir in hard soft; do
	expect "dispatch through a $dir link: mcled --help" 0 \
		"$("$kit" --help mcled)" "$tmp/$dir/mcled" --help
	expect_err "dispatch through a $dir link: mcled runs" 1 \
		"^mcled: no multicolor LED in $tmp/class/leds\$" \
		env KIT_SYSFS="$tmp" "$tmp/$dir/mcled" get
done
expect "dispatch through a link found on PATH" 0 "$("$kit" --help mcled)" \
	env PATH="$tmp/soft:$PATH" mcled --help
# Named init (the kernel's /init), kit is initrd's boot, which only PID 1
# may run.
ln -s "$kit" "$tmp/init"
expect_err "dispatch through a link named init: initrd's boot" 2 \
	"^initrd: as init, kit runs only as PID 1 \(the kernel's /init\); see kit initrd --help\$" \
	"$tmp/init"

# An existing file is left alone and reported; the others are linked.
mkdir "$tmp/some"
echo keep >"$tmp/some/$first"
expect_err "--install: an existing file is reported" 0 \
	"^kit: $tmp/some/$first exists, left alone\$" "$kit" --install -s "$tmp/some"
expect "--install: the existing file is left alone" 0 "keep" cat "$tmp/some/$first"
expect "--install: the others are linked" 0 "$applets" \
	sh -c 'ls "$1" | LC_ALL=C sort' sh "$tmp/some"

# Output that cannot be written fails every applet, in the core: at exit
# (return from main) as after its own fflush (tcpiter), one line, exit 1.
exec 3<>/dev/udp/127.0.0.1/9	# a UDP socket, so udpiter -j has a row
# and a TCP listener, so tcpiter -j has one: the host may have none.
python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(120)' >"$tmp/port" &
listener=$!
while [ ! -s "$tmp/port" ] && kill -0 $listener 2>/dev/null; do sleep 0.1; done
{ printf -- '-rom1fs-\0\0\004\0'; head -c 2000 /dev/zero; } >"$tmp/romfs.img"
while read -r args; do
	who=${args%% *}
	case $who in -*) who=kit ;; esac
	# shellcheck disable=SC2086
	expect_err "stdout full: kit $args" 1 \
		"^$who: write error: No space left on device\$" \
		sh -c '"$@" >/dev/full' sh "$kit" $args
done <<END
--list
--help
--version
--help mcled
mcled -h
mcled -j
rdload -i $tmp/romfs.img
tcpiter -c
tcpiter -t
tcpiter -j
udpiter -j
END
expect "udpiter -j had a row to write: the test's UDP socket" 0 "yes" \
	sh -c '"$1" udpiter -j | grep -q "\"remote_port\":9," && echo yes' \
	sh "$kit"
expect "tcpiter -j had a row to write: the test's listener" 0 "yes" \
	sh -c '"$1" tcpiter -j | grep -q "\"local_port\":$2," && echo yes' \
	sh "$kit" "$(cat "$tmp/port")"
kill $listener
exec 3>&-
expect_err "stdout full and another error: that error only" 1 \
	"^mcled: no LED named 'x' in $tmp/class/leds\$" \
	sh -c 'KIT_SYSFS="$2" "$1" mcled -l x get >/dev/full' sh "$kit" "$tmp"

# --install: a DIR that cannot take the links is refused before the
# first one, with the cause and the remedy.
echo file >"$tmp/file"
expect_err "--install: a file is not a directory" 1 \
	"^kit: --install: $tmp/file is not a directory; give the directory for the links\$" \
	"$kit" --install "$tmp/file"
expect_err "--install: a path through a file" 1 \
	"^kit: --install: cannot use $tmp/file/x: Not a directory; give a directory you can reach\$" \
	"$kit" --install "$tmp/file/x"
mkdir "$tmp/locked"
expect_err "--install: no write access" 1 \
	"^kit: --install: cannot create links in $tmp/locked: Permission denied; run as root, or give a directory you can write in\$" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$kit" --install "$tmp/locked"
mkdir "$tmp/ro"
mount -t tmpfs -o ro,size=64k kit-core-ro "$tmp/ro"
expect_err "--install: a read-only file system" 1 \
	"^kit: --install: $tmp/ro is on a read-only file system; remount it read-write, or give another directory\$" \
	"$kit" --install -s "$tmp/ro"
umount "$tmp/ro"
long_name=$(printf 'n%.0s' $(seq 256))
expect_err "--install: a name longer than NAME_MAX" 1 \
	"^kit: --install: $tmp/n+\.\.\. is too long a path for the links \(at most 4095 bytes, 255 a name\); give a shorter one\$" \
	"$kit" --install "$tmp/$long_name"
# A directory that exists, but DIR/tcpiter would pass PATH_MAX (4096).
deep=$tmp
component=$(printf 'd%.0s' $(seq 200))
while [ ${#deep} -lt 3880 ]; do
	deep=$deep/$component
done
deep=$deep/$(printf 'e%.0s' $(seq $((4090 - ${#deep} - 1))))
(cd "$tmp" && mkdir -p "${deep#"$tmp"/}")
expect_err "--install: DIR/APPLET longer than PATH_MAX" 1 \
	"^kit: --install: .{40}\.\.\. is too long a path for the links" \
	"$kit" --install -s "$deep"
expect "--install: ... and nothing was linked there" 0 "${#deep} " \
	sh -c 'n=$(ls -A "$1") && echo "${#1} $n"' sh "$deep"

# Usage errors of every applet, from one table: exit 2 and one line that
# names the applet (grep -E pattern).  Then -h and --help anywhere on the
# command line: the usage, exit 0.
while IFS='|' read -r args pattern; do
	# shellcheck disable=SC2086
	expect_err "usage error: kit $args" 2 "$pattern" "$kit" $args
done <<'END'
mcled -x|^mcled: unknown option '-x'; see 'mcled --help'$
mcled -jx|^mcled: unknown option '-x'; see 'mcled --help'$
mcled --nosuch|^mcled: unknown option '--nosuch'; see 'mcled --help'$
mcled -l|^mcled: option '-l' needs a value; see 'mcled --help'$
mcled get -b|^mcled: option '-b' needs a value; see 'mcled --help'$
mcled get extra|^mcled: get takes no arguments$
mcled list -b 1|^mcled: -b goes with set and the triggers, or alone$
mcled -j set 1|^mcled: -j goes with list, get and trigger$
mcled show|^mcled: unknown command 'show': list, get, set, trigger, blink, pattern, heartbeat or steady$
mcled set 1 2 -3|^mcled: unknown option '-3'; see 'mcled --help'$
tcpiter extra|^tcpiter: unexpected argument 'extra'$
tcpiter kill -n --sport 5001 --sport 6000|^tcpiter: --sport given twice: it takes one value; give it once$
tcpiter --dst 10.0.0.0/8 --dst ::/0|^tcpiter: --dst given twice: it takes one value; give it once$
udpiter -N a -N b|^udpiter: -N given twice: it takes one value; give it once$
tcpiter pin -4 -6 /sys/fs/bpf/x|^tcpiter: pin makes one /proc table: give -4 \(/proc/net/tcp\) or -6 \(/proc/net/tcp6\), not both$
tcpiter --al|^tcpiter: option '--al' is ambiguous \(--all, --all-netns\); see 'tcpiter --help'$
udpiter --uid 1 -c --uid 2|^udpiter: --uid given twice: it takes one value; give it once$
tcpiter pin -4 a b|^tcpiter: pin takes one PATH$
tcpiter -s bogus|^tcpiter: unknown state 'bogus' \(try established, listen, time-wait, \.\.\., connected, all\)$
tcpiter --sport 99999|^tcpiter: --sport takes a port number 0-65535, got '99999'$
tcpiter -x|^tcpiter: unknown option '-x'; see 'tcpiter --help'$
tcpiter --nosuch|^tcpiter: unknown option '--nosuch'; see 'tcpiter --help'$
tcpiter -s|^tcpiter: option '-s' needs a value; see 'tcpiter --help'$
tcpiter --sport|^tcpiter: option '--sport' needs a value; see 'tcpiter --help'$
tcpiter -t -j|^tcpiter: -t and -j exclude each other; give one of them$
tcpiter -p|^tcpiter: -p goes with -t or -j: /proc's table has no column for processes$
udpiter -c -p|^udpiter: -p goes with -t or -j: /proc's table has no column for processes$
tcpiter pin -4 -t -p /sys/fs/bpf/x|^tcpiter: -p goes with -t or -j: /proc's table has no column for processes$
tcpiter -i|^tcpiter: -i goes with -t or -j: /proc's table has no column for TCP's internals$
tcpiter -c -i|^tcpiter: -i goes with -t or -j: /proc's table has no column for TCP's internals$
tcpiter pin -4 -i /sys/fs/bpf/x|^tcpiter: -i goes with -t or -j: /proc's table has no column for TCP's internals$
udpiter -t -i|^udpiter: -i shows TCP's internals: UDP sockets have none \(tcpiter -i\)$
udpiter -i|^udpiter: -i shows TCP's internals: UDP sockets have none \(tcpiter -i\)$
udpiter extra|^udpiter: unexpected argument 'extra'$
udpiter -N|^udpiter: option '-N' needs a value; see 'udpiter --help'$
udpiter -c -j|^udpiter: -c and -j exclude each other; give one of them$
udpiter pin|^udpiter: pin takes one PATH$
rdload -i|^rdload: no IMAGE given \(see rdload --help\)$
rdload /dev/null -s 1x|^rdload: -s takes a block number \(1 KiB blocks\), 0 to 2147483647 in decimal, 0x hex or 0 octal; got 1x$
rdload -qx|^rdload: unknown option '-x'; see 'rdload --help'$
rdload -s|^rdload: option '-s' needs a value; see 'rdload --help'$
rdload /dev/null -o|^rdload: option '-o' needs a value; see 'rdload --help'$
rdload -i -o /tmp/x --verify --prompt -f /dev/null|^rdload: -i and -o exclude each other; give one of them$
rdload -i -f /dev/null|^rdload: -i and -f exclude each other; give one of them$
rdload --verify -i /dev/null|^rdload: --verify and -i exclude each other; give one of them$
rdload -i --prompt a b|^rdload: -i and --prompt exclude each other; give one of them$
rdload -f /dev/null|^rdload: -f goes with -o TARGET: it lets TARGET be a file$
rdload -o /tmp/x --prompt /dev/null|^rdload: --prompt goes with several IMAGEs: it waits before each further volume$
tcpiter -j -H|^tcpiter: -H goes with the tables: -j's JSON Lines have no header$
udpiter -H -j|^udpiter: -H goes with the tables: -j's JSON Lines have no header$
initrd mkcpio -s 0 -o /dev/null|^initrd: -s goes with IMAGE: it says where IMAGE's filesystem starts$
initrd|^initrd: give a command: mkcpio \(see initrd --help\)$
initrd -x|^initrd: unknown option '-x'; see 'initrd --help'$
initrd mkboot|^initrd: unknown command 'mkboot': mkcpio \(see initrd --help\)$
initrd mkcpio -o|^initrd: option '-o' needs a value; see 'initrd --help'$
initrd mkcpio -k 1 -o /dev/null a b|^initrd: mkcpio takes one IMAGE at most, got 'b'$
END
# The socket applets' messages name the cause and the remedy.
expect_err "tcpiter pin -4 '': a usage error naming what PATH is" 2 \
	"^tcpiter: pin takes one PATH, a new file on a bpffs \(e.g. /sys/fs/bpf/tcp\), got ''\$" \
	"$kit" tcpiter pin -4 ''
expect_err "tcpiter pin -4 DIR/: the example path has one slash" 1 \
	"^tcpiter: /sys/fs/bpf/ is a directory: pin takes the path of a new file in it, e.g. /sys/fs/bpf/tcp\$" \
	"$kit" tcpiter pin -4 /sys/fs/bpf/
expect_err "tcpiter -N NAME that is none: how to find the names" 1 \
	"^tcpiter: unknown network namespace kit-none \(/run/netns/kit-none: No such file or directory\); ip netns list names them, or give a path or pid:PID\$" \
	"$kit" tcpiter -c -N kit-none
expect_err "tcpiter -N pid:1 without the right to enter it: not 'unknown'" 1 \
	"^tcpiter: cannot open network namespace pid:1 \(/proc/1/ns/net: Permission denied\); run as root\$" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=+bpf,+perfmon --ambient-caps=+bpf,+perfmon \
	"$kit" tcpiter -c -N pid:1

# kill and pin come first or after the options, as any argument does.
for a in tcpiter udpiter; do
	expect "$a -t kill -n --sport 1: kill after an option" 0 \
		"would close 0 sockets" \
		sh -c 'unshare -n "$1" "$2" -t kill -n --sport 1 | tail -1' sh \
		"$kit" "$a"
done

while read -r args; do
	applet=${args%% *}
	# shellcheck disable=SC2086
	expect "help anywhere: kit $args" 0 "$("$kit" --help "$applet")" \
		"$kit" $args
done <<'END'
mcled -j -h
mcled -l x get --help
mcled set 1 2 3 -h
tcpiter -4 -h
udpiter -c --help
rdload -q -h
initrd mkcpio -m ext4 --help
END

# Every applet's usage ends with the exit-status line, written once.
for a in $applets; do
	expect "--help $a: one exit-status line, last" 0 \
		"1 Exit status: 0 done, 1 runtime error, 2 usage error." \
		sh -c 'h=$("$1" --help "$2"); echo "$(echo "$h" | grep -c "^Exit status:") $(echo "$h" | tail -n 1)"' \
		sh "$kit" "$a"
done

# README's synopsis of each applet (the first block of "  APPLET ..."
# lines in its section, without the description column) is in its --help
# (spaces and line breaks aside).  "APPLET ...the same" repeats the lines
# of the applet before it.
synopses=$(awk -v list="$applets" '
	BEGIN { n = split(list, a, "\n"); for (i = 1; i <= n; i++) is[a[i]] = 1 }
	/^---/ { section = 1; started = done = 0; next }
	!section || done { next }
	/^  [a-z]/ && ($1 in is) {
		started = 1; line = substr($0, 3); sub(/   +.*/, "", line)
		print line; next
	}
	started { done = 1 }' README)
prev=
previous_lines=
while read -r applet rest; do
	if [ "$rest" = "...the same" ]; then
		lines=$(echo "$previous_lines" | sed "s/^$prev /$applet /")
	else
		lines="$applet $rest"
		[ "$applet" = "$prev" ] || previous_lines=
		previous_lines=$(printf '%s\n%s' "$previous_lines" "$lines" | sed '/^$/d')
		prev=$applet
	fi
	help=$("$kit" --help "$applet" | tr -s ' \n' '  ')
	while read -r line; do
		case $help in
		*"$line"*) pass "README synopsis in --help: $line" ;;
		*) fail "README synopsis in --help: $line" "$("$kit" --help "$applet" | head -n 4)" ;;
		esac
	done <<END
$lines
END
done <<END
$synopses
END
if [ "$(echo "$synopses" | cut -d ' ' -f 1 | sort -u)" = "$applets" ]; then
	pass "README has a synopsis for every applet"
else
	fail "README has a synopsis for every applet" "$synopses"
fi
