# kit's multicall core inside a booted kernel, and the guest environment
# that the other guest scripts count on (tests/vm/init sets it up).
. /tests/lib.sh

applets=$($KIT --list)
if [ -n "$applets" ]; then
	pass "core: kit --list names the applets"
else
	fail "core: kit --list names the applets" "got nothing"
fi
expect "core: kit --version" 0 "$($KIT --version)" /bin/kit --version
expect "core: unknown applet exits 127" 127 "" sh -c "$KIT nosuch 2>/dev/null"

# /init ran "kit --install -s /bin": one link per applet, each of them
# works by its name alone; in kit's own directory a link names it alone.
for a in $applets; do
	if [ "$(readlink "/bin/$a")" = kit ]; then
		pass "core: /bin/$a links to kit, by name"
	else
		fail "core: /bin/$a links to kit, by name" "readlink: $(readlink "/bin/$a")"
	fi
	expect "core: $a --help through its link" 0 "$($KIT --help "$a")" \
		"$a" --help
done

grep -q " /sys/fs/bpf bpf " /proc/mounts &&
	pass "core: guest has bpffs at /sys/fs/bpf" ||
	fail "core: guest has bpffs at /sys/fs/bpf" "$(cat /proc/mounts)"
ip link show lo | grep -q 'state UNKNOWN\|,UP' &&
	pass "core: guest loopback is up" ||
	fail "core: guest loopback is up" "$(ip link show lo)"
[ -c /dev/null ] && [ -d /sys/class ] && [ -r /proc/self/stat ] &&
	pass "core: guest has /dev, /sys and /proc" ||
	fail "core: guest has /dev, /sys and /proc"

# Output that cannot be written is an error, in the core, for every
# applet: the help of each, and kit's own --list, to /dev/full.
for args in --list "--help mcled" "mcled -h" "rdload --help" "tcpiter --help"; do
	who=${args%% *}
	case $who in --*) who=kit ;; esac
	expect_err "core: kit $args >/dev/full: write error, exit 1" 1 \
		"^$who: write error: No space left on device$" \
		sh -c "$KIT $args >/dev/full"
done
