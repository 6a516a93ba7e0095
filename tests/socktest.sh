# What tests/tcpiter.t and tests/udpiter.t share (bash): a socket zoo in a
# network namespace of its own, so the host's sockets cannot race, and
# checks of the applet's output against /proc there (tests/sockcompare).
# The including suite sets P=tcp or P=udp first.
. "$TESTS/lib.sh"

SOCKZOO=$O/sockzoo
SOCKCOMPARE=$TESTS/sockcompare
W=$(mktemp -d)
. "$TESTS/sockcheck.sh"
NSNAME=kit-$APPLET-$$
# JSON must escape it: a quote, a backslash, a control character, bytes
# that are not UTF-8 (a cut character, 0xff), and a whole character
ODDNAME="$NSNAME-a\"b\\c$(printf '\001')d$(printf '\342\202\377')é"
# A command name the kernel cuts at 15 bytes in the middle of the euro
# sign's 3 bytes, as comm holds it
CUTCOMM=zoo-holder-ab€
STALE=/run/netns/$NSNAME-stale		# a file, $STALE-dir, $STALE-fifo
exec > >(only_log_lines) 2>&1

socktest_cleanup() {
	local pid

	for pid in $HOLDERS; do
		kill "$pid" 2>/dev/null
	done
	ip netns del "$NSNAME" 2>/dev/null
	unname_netns $((4194304 + $$))		# check_netns_digits's
	unname_netns "$ZOO"
	ip netns del "$ODDNAME" 2>/dev/null
	rm -f "$STALE"
	rmdir "$STALE-dir" 2>/dev/null
	mountpoint -q "$W/bpffs" && umount "$W/bpffs"
	rm -rf --one-file-system "$W"
	t_cleanup
}
trap socktest_cleanup EXIT

# sockzoo, static as the VM guests need it, built when older than its
# source.  tcpiter.t and udpiter.t run side by side and may both build it:
# each writes a file of its own and renames it into place, so that
# neither runs a sockzoo the other is writing ("Text file busy").
build_sockzoo() {
	[ "$SOCKZOO" -nt "$TESTS/sockzoo.c" ] && return 0
	mkdir -p "$O" &&
		cc -static -O2 -Wall -o "$SOCKZOO.$$" "$TESTS/sockzoo.c" &&
		mv -f "$SOCKZOO.$$" "$SOCKZOO"
}

# The zoo in a new network namespace, also known by the name $NSNAME.
start_zoo() {
	hold unshare -n "$SOCKZOO" zoo && ZOO=$HELD &&
		ip netns attach "$NSNAME" "$ZOO"
}

# check_pingpong's more: --all-netns walks this netns, at its own
# threshold, before the zoo's at 2, so a threshold kept from one walk to
# the next shows.
pingpong_all_netns() {
	compare "$APPLET --all-netns with the zoo's tcp_pingpong_thresh at 2" \
		"" zoo_section --all-netns
}
PINGPONG_MORE=pingpong_all_netns

# -N by name, by path and by PID, from this netns; --all-netns sections.
check_netns() {
	local inode

	compare "$APPLET -N NAME" "" "$KIT" "$APPLET" -N "$NSNAME"
	compare "$APPLET -N /run/netns/NAME" "" \
		"$KIT" "$APPLET" -N "/run/netns/$NSNAME"
	compare "$APPLET -N /proc/PID/ns/net" "" \
		"$KIT" "$APPLET" -N "/proc/$ZOO/ns/net"
	compare "$APPLET -N PID" "" "$KIT" "$APPLET" -N "$ZOO"
	compare "$APPLET -N NAME -j --uid 4242" "-j --uid 4242" \
		"$KIT" "$APPLET" -N "$NSNAME" -j --uid 4242
	compare "$APPLET --all-netns: the zoo's section" "" \
		zoo_section --all-netns
	compare "$APPLET --all-netns -t -s established: the zoo's section" \
		"-t -s established" zoo_section --all-netns -t -s established
	compare "$APPLET --all-netns -j: the zoo's objects" "-j" \
		zoo_section --all-netns -j
	check_netns_digits
	check_all_netns
	check_netns_json
	check_netns_stale
	check_netns_race
}

# -t -p's users:(...) of each socket against ss -p's, by inode (ss -e).
check_owners_ss() {
	local name="$APPLET -t -p: users:(...) as ss -${P:0:1}anpe shows them"

	in_zoo "$KIT" "$APPLET" -t -p -H |
		awk '$NF ~ /^users:/ { print $(NF - 1), $NF }' | sort >"$W/kit-users"
	in_zoo ss -${P:0:1}anpe | awk '{
		u = ""; i = ""
		for (f = 1; f <= NF; f++) {
			if ($f ~ /^users:/) u = $f
			if ($f ~ /^ino:/) i = substr($f, 5)
		}
		if (u != "" && i != 0) print i, u }' | sort >"$W/ss-users"
	if [ -s "$W/kit-users" ] && cmp -s "$W/kit-users" "$W/ss-users"; then
		pass "$name"
	else
		fail "$name" "$(diff "$W/ss-users" "$W/kit-users" | head -20)"
	fi
}

# The internals of each full socket (-t -i's second lines, or ss -tnaio's)
# on stdin, each line as "LOCAL PEER", a tab, then the line's fields.  ss
# writes a listener's peer as *:* and the dual-stack one as *:PORT; with
# -o an empty second line after TIME-WAIT and SYN-RECV rows.
info_keyed() {
	awk '
	/^\t/ && NF == 0 { next }
	/^\t/ { $1 = $1; print key "\t" $0; next }
	{
		local = $4; peer = $5
		sub(/^[*]:/, "[::]:", local)
		sub(/.*:[*]$/, "*", peer)
		key = local " " peer
	}'
}

# info_keyed's lines as "LOCAL PEER" then the values that hold still on an
# idle connection, in the order printed: options, congestion control,
# window scales, sizes, the byte and segment counters, what is in
# flight.  Sorted.
info_stable() {
	info_keyed | awk -F '\t' '{
		n = split($2, f, " "); out = ""; cc = 0
		for (i = 1; i <= n; i++) {
			t = f[i]
			if (t ~ /^(ts|sack|ecn|ecnseen|fastopen)$/ ||
			    (!cc && t ~ /^[a-z][a-z0-9_]*$/ && (cc = 1)) ||
			    t ~ /^(wscale|mss|pmtu|rcvmss|advmss|cwnd|ssthresh|bytes_sent|bytes_retrans|bytes_acked|bytes_received|segs_out|segs_in|data_segs_out|data_segs_in|delivered|delivered_ce|unacked|retrans|lost|sacked|reordering|rcv_space|rcv_ssthresh|notsent|snd_wnd):/)
				out = out " " t
		}
		print $1 out
	}' | sort
}

# info_tries FORM TEST: the zoo's -t -i and ss -tnaio (ss shows the
# options with -o) through FORM (info_stable, info_rttvar) into
# $W/kit-info and $W/ss-info, until the command TEST succeeds.  Up to 3
# tries: a probe or a retransmitted SYN moves a value between two reads.
info_tries() {
	local try

	for try in 1 2 3; do
		[ $try -gt 1 ] && sleep 1
		in_zoo "$KIT" "$APPLET" -t -i -H | $1 >"$W/kit-info"
		in_zoo ss -tnaioH | $1 >"$W/ss-info"
		$2 && return 0
	done
	return 1
}

# -t -i's internals equal ss -tnaio's for every full socket of the zoo,
# by addresses and ports, in the values that do not move on an idle
# connection.
check_info_ss() {
	local name="$APPLET -t -i: the internals that hold still equal ss -tnaio's"

	info_tries info_stable "cmp -s $W/kit-info $W/ss-info"
	if ! awk 'match($0, / wscale:[0-9]+,[0-9]+ /) {
		split(substr($0, RSTART + 8, RLENGTH - 9), w, ",")
		if (w[1] != w[2]) unequal++ }
		END { exit unequal < 2 }' "$W/kit-info"; then
		fail "$name" "no pair with unequal window scales (the zoo's on port 5002):" \
			"$(cat "$W/kit-info")"
	elif [ "$(grep -c ' bytes_received:' "$W/kit-info")" -lt 4 ]; then
		fail "$name" "fewer than 4 sockets with traffic:" "$(cat "$W/kit-info")"
	elif ! cmp -s "$W/kit-info" "$W/ss-info"; then
		fail "$name" "ss, then kit:" "$(diff "$W/ss-info" "$W/kit-info" | head -20)"
	else
		pass "$name ($(wc -l <"$W/kit-info") sockets)"
	fi
}

# info_keyed's lines as "LOCAL PEER RTTVAR" (rtt:RTT/RTTVAR), sorted.
info_rttvar() {
	info_keyed | awk -F '\t' 'match($2, /(^| )rtt:[0-9.]+\/[0-9.]+/) {
		split(substr($2, RSTART, RLENGTH), v, "/")
		print $1, v[2]
	}' | sort
}

# Do the rttvars of $W/ss-info and $W/kit-info (info_rttvar) agree within
# a fifth, the same sockets, some of 0.005 ms or more?  $W/rttvar says
# "BIG BAD": how many are of 0.005 ms or more, how many differ.
rttvar_agree() {
	local big bad

	join -j1 <(awk '{ print $1 "|" $2, $3 }' "$W/ss-info") \
		<(awk '{ print $1 "|" $2, $3 }' "$W/kit-info") |
		awk '$2 >= 0.005 { n++ }
		     { d = $2 - $3; if (d < 0) d = -d
		       if (d > ($2 > $3 ? $2 : $3) / 5) bad++ }
		     END { print n + 0, bad + 0 }' >"$W/rttvar"
	read -r big bad <"$W/rttvar"
	[ "$bad" = 0 ] && [ "$big" -gt 0 ] &&
		[ "$(wc -l <"$W/kit-info")" = "$(wc -l <"$W/ss-info")" ]
}

# -t -i's rttvar equals ss -tnaio's within a fifth (a probe or a
# keepalive moves it between the two reads), on sockets that have one
# of 0.005 ms or more (loopback's are small; 0.001 may be rounding).
check_info_rttvar() {
	local name="$APPLET -t -i: rttvar as ss -tnaio shows it, within a fifth"

	if info_tries info_rttvar rttvar_agree; then
		pass "$name ($(cut -d' ' -f1 "$W/rttvar") sockets of 0.005 ms or more)"
	else
		fail "$name" "sockets of 0.005 ms or more, and differing: $(cat "$W/rttvar")" \
			"ss, then kit:" "$(diff "$W/ss-info" "$W/kit-info" | head -20)"
	fi
}

# -p in a pid namespace of its own: only its processes, by its numbers.
check_owners_pidns() {
	local name="$APPLET -t -p in a new pid namespace: its processes only, numbered as there"

	unshare -pf --mount-proc sh -c '
		z=$(unshare -n "$1" zoo) || exit 1
		echo "holder $z"
		nsenter -t "$z" -n "$2" "$3" -t -p -H --sport 5011
		kill "$z"' sh "$SOCKZOO" "$KIT" "$APPLET" >"$W/pidns" 2>&1
	# sh is 1, unshare and sockzoo 2, the holder 3, its children 4 and 5
	if grep -q '^holder 3$' "$W/pidns" &&
	   grep -Eq "$(zoo_users 5 4 3)" "$W/pidns"; then
		pass "$name"
	else
		fail "$name" "$(cat "$W/pidns")"
	fi
}

# -p's join keeps the owners of the last socket of the sorted owner list,
# the newest: in a pid namespace of its own, where the only sockets are
# those of one sockzoo holder (UDP: one socket; TCP: a listener and a
# pair), every row of the walk ends with its owner.
check_owners_last() {
	local name="$APPLET -t -p: the last socket of the owner list keeps its owners"

	unshare -pf --mount-proc sh -c '
		z=$(unshare -n "$1" "$4" 1 7300) || exit 1
		nsenter -t "$z" -n "$2" "$3" -t -p -H
		kill "$z"' sh "$SOCKZOO" "$KIT" "$APPLET" $P >"$W/last" 2>&1
	if [ ! -s "$W/last" ] || grep -v ' users:(("sockzoo",pid=[0-9]*,fd=[0-9]*))$' "$W/last" >/dev/null; then
		fail "$name" "$(cat "$W/last")"
	else
		pass "$name ($(wc -l <"$W/last") sockets)"
	fi
}

# --all-netns while processes with a network namespace of their own come
# and go, so that some exit between the listing and the entering: every
# run exits 0, stderr empty.  (Before the fix, 1 run in 15 failed.)
check_netns_race() {
	local name="$APPLET --all-netns while namespaces come and go" churn i
	local why=

	(trap 'exit 0' TERM
	 while :; do unshare -n sleep 0.00$((RANDOM % 9)); done) &
	churn=$!
	for i in $(seq 40); do
		"$KIT" $APPLET --all-netns -c >/dev/null 2>"$W/err" &&
			[ ! -s "$W/err" ] && continue
		why="run $i: $(cat "$W/err")"
		break
	done
	kill $churn
	wait $churn
	if [ -n "$why" ]; then
		fail "$name" "$why"
	else
		pass "$name (40 runs)"
	fi
}

# --all-netns -j -p with a netns whose name JSON must escape and an
# owner whose comm the kernel cut mid-character: every line is strict
# UTF-8 and parses with python's json; that netns's label comes back,
# and the comm, with each byte that is not UTF-8 as \u00XX (the byte
# as a code point).
check_netns_json() {
	local name="$APPLET --all-netns -j -p: a netns name and a comm JSON must escape, not UTF-8"
	local ns=$ODDNAME pid status

	ln -s "$SOCKZOO" "$W/$CUTCOMM"
	if ! hold unshare -n "$W/$CUTCOMM" $P 1 7000 ||
	   ! ip netns attach "$ns" "$HELD"; then
		fail "$name" "cannot hold sockets in netns $ns"
		return
	fi
	pid=$HELD
	"$KIT" $APPLET --all-netns -j -p >"$W/all" 2>"$W/err"
	status=$?
	WANT="net:[$(stat -L -c %i "/proc/$pid/ns/net")] $ns" COMM=$CUTCOMM python3 -c '
import codecs, json, os, sys
# the bytes that are not UTF-8 as code points of their value
codecs.register_error("bytes", lambda e: ("".join(map(chr,
	e.object[e.start:e.end])), e.end))
want = os.environb[b"WANT"].decode("utf-8", "bytes")
comm = os.environb[b"COMM"][:15].decode("utf-8", "bytes")
rows = [json.loads(line.decode("utf-8")) for line in sys.stdin.buffer]
mine = [r for r in rows if r["netns"] == want]
if not mine:
	sys.exit("no row with netns %r" % want)
if not any(o["comm"] == comm for r in mine for o in r["owners"]):
	sys.exit("no owner %r in %r" % (comm, mine[0]))' <"$W/all" 2>"$W/py"
	if [ $? -ne 0 ] || [ $status -ne 0 ] || [ -s "$W/err" ]; then
		fail "$name" "exit status $status" "stderr: $(cat "$W/err")" \
			"python: $(tail -1 "$W/py")"
	else
		pass "$name"
	fi
	ip netns del "$ns"
}

# --all-netns skips what is not a netns in /run/netns (a stale file, a
# directory, a FIFO, which it must not wait on): exit 0, stderr empty;
# with -v, one line for each.  -N of a FIFO is refused at once.
check_netns_stale() {
	local name="$APPLET --all-netns: skips a stale file, a directory and a FIFO in /run/netns"
	local file=$STALE dir=$STALE-dir fifo=$STALE-fifo

	touch "$file" && mkdir "$dir" && mkfifo "$fifo" || return
	expect_err "$APPLET -N FIFO: not a network namespace, refused at once" 1 \
		"^$APPLET: unknown network namespace $fifo \\($fifo: not a network namespace\\); ip netns list names them, or give a path or pid:PID\$" \
		timeout 5 "$KIT" $APPLET -c -N "$fifo"
	timeout 5 "$KIT" $APPLET --all-netns -c >/dev/null 2>"$W/err"
	if [ $? -ne 0 ] || [ -s "$W/err" ]; then
		fail "$name" "stderr: $(cat "$W/err")"
	else
		pass "$name"
	fi
	# A process of the host that exits during the walk is skipped too,
	# and said: not this check's business.
	# Suites that run beside this one (tests/run) leave stale entries of
	# their own in /run/netns: only this one's lines are compared, and
	# only lines of messages (one of another suite's names has a newline,
	# whose second half would be a line of its own).
	timeout 5 "$KIT" $APPLET --all-netns -c -v 2>&1 >/dev/null |
		grep "^$APPLET: " |
		grep -v -e "^$APPLET: libbpf: " -e "^$APPLET: skipping /proc/[0-9]*/ns/net: No such file or directory\$" |
		awk -v mine="$APPLET: skipping $STALE" \
			'!index($0, "skipping /run/netns/") || index($0, mine) == 1' |
		sort >"$W/err"
	printf '%s: skipping %s: not a network namespace\n' \
		$APPLET "$dir" $APPLET "$file" $APPLET "$fifo" | sort >"$W/want"
	if cmp -s "$W/err" "$W/want"; then
		pass "$APPLET --all-netns -v: says what it skips"
	else
		fail "$APPLET --all-netns -v: says what it skips" \
			"stderr: $(cat "$W/err")" "want: $(cat "$W/want")"
	fi
	rm -f "$file" "$fifo"
	rmdir "$dir"
	# A namespace whose name has a newline: its "# netns" line whole.
	local nl="$STALE-nl
x"
	if touch "$nl" && unshare --net="$nl" true; then
		timeout 5 "$KIT" $APPLET --all-netns -c >"$W/nl"
		if grep -q "^# netns net:\[[0-9]*\] ${STALE##*/}-nl\\\\012x\$" "$W/nl" &&
		   ! grep -qx 'x' "$W/nl"; then
			pass "$APPLET --all-netns: a netns name with a newline stays on its line"
		else
			fail "$APPLET --all-netns: a netns name with a newline stays on its line" \
				"$(grep -a -A1 'stale-nl' "$W/nl")"
		fi
		umount "$nl"
	fi
	rm -f "$nl"
}

# The part of the applet's --all-netns output (ARGS) about the zoo: the
# lines after its "# netns net:[INODE] NAME" line, or its -j objects
# (their "netns" field removed).  Fails when the zoo is not there once.
zoo_section() {
	local id="net:[$(stat -L -c %i "/proc/$ZOO/ns/net")]"

	"$KIT" "$APPLET" "$@" >"$W/all" || return
	if [[ " $* " == *" -j "* ]]; then
		grep -aF "\"netns\":\"$id $NSNAME\"," "$W/all" |
			sed 's/"netns":"[^"]*",//'
		return 0
	fi
	[ "$(grep -cxF "# netns $id $NSNAME" "$W/all")" = 1 ] || return 1
	awk -v head="# netns $id $NSNAME" '
		/^# netns / { on = $0 == head; next }
		on' "$W/all"
}

# --all-netns: this netns and the zoo's, each once; every line a section
# line or a /proc line.
check_all_netns() {
	local own zoo

	own="net:[$(stat -L -c %i /proc/self/ns/net)]"
	zoo="net:[$(stat -L -c %i "/proc/$ZOO/ns/net")]"
	"$KIT" "$APPLET" --all-netns >"$W/all" 2>"$W/err"
	if [ $? -ne 0 ] || [ -s "$W/err" ]; then
		fail "$APPLET --all-netns: every netns once" "$(cat "$W/err")"
	elif [ "$(grep -cF "# netns $own " "$W/all")" != 1 ] ||
	     [ "$(grep -cF "# netns $zoo " "$W/all")" != 1 ] ||
	     [ -n "$(grep '^# netns ' "$W/all" | cut -d' ' -f3 | sort |
		    uniq -d)" ]; then
		fail "$APPLET --all-netns: every netns once" \
			"want $own and $zoo once each:" \
			"$(grep '^# netns ' "$W/all")"
	elif ! grep -v '^# netns ' "$W/all" >"$W/rows" ||
	     ! "$SOCKCOMPARE" -p $P --lines "$W/rows" >"$W/diff"; then
		fail "$APPLET --all-netns: every netns once" "$(cat "$W/diff")"
	else
		pass "$APPLET --all-netns: every netns once"
	fi
}

# -t's queues of listeners are ss -tln's: Recv-Q the accept queue (1 on
# the zoo's port 5007), Send-Q the backlog (0 to 16 in the zoo).
check_listen_queues() {
	local name="$APPLET -t: listeners' Recv-Q and Send-Q as in ss -tln"

	in_zoo ss -tlnHe | sed -n \
		's/^LISTEN *\([0-9]*\) *\([0-9]*\) .* ino:\([0-9]*\) .*/\3 \1 \2/p' |
		sort >"$W/ss"
	in_zoo "$KIT" $APPLET -t -H -s listen | awk '{ print $7, $2, $3 }' |
		sort >"$W/kit"
	if ! grep -q ' 1 0$' "$W/ss" || ! grep -q ' 0 12$' "$W/ss"; then
		fail "$name" "the zoo's listeners are not in ss:" "$(cat "$W/ss")"
	elif ! cmp -s "$W/ss" "$W/kit"; then
		fail "$name" "inode Recv-Q Send-Q, ss then kit:" \
			"$(diff "$W/ss" "$W/kit")"
	else
		pass "$name"
	fi
}

# kill's checks again on new victims, closing through inet_diag as on
# kernels before 6.5, commit 4ddbcb886268 (KIT_KILL_INET_DIAG=1, README),
# where this kernel has bpf_sock_destroy() too; their names say
# "(inet_diag)".
check_kill_inet_diag() {
	local a=$APPLET

	export KIT_KILL_INET_DIAG=1
	check_kill >"$W/kill-log" 2>&1
	sed "s/^\(PASS\|FAIL\|SKIP\): $a /\1: $a (inet_diag) /" "$W/kill-log"
	expect_err "$a (inet_diag) kill -v: says it closes through inet_diag" 0 \
		"^$a: closing through inet_diag \(KIT_KILL_INET_DIAG\)$" \
		sh -c '"$@" 2>&1 >/dev/null | grep "^$2: closing " >&2' sh \
		"$KIT" $a kill -v --sport 1 -N "$VICTIMS"
	unset KIT_KILL_INET_DIAG
}

# Refusals: usage errors exit 2, runtime errors 1, one line naming the
# applet, nothing on stdout.
check_errors() {
	local a=$APPLET

	expect_err "$a: unknown option" 2 \
		"^$a: unknown option '--bogus'; see '$a --help'$" \
		"$KIT" $a --bogus
	expect_err "$a: missing value" 2 \
		"^$a: option '--sport' needs a value; see '$a --help'$" \
		"$KIT" $a -4 --sport
	expect "$a -4 -h: the usage" 0 "$("$KIT" --help $a)" "$KIT" $a -4 -h
	expect "$a pin -4 --help: the usage" 0 "$("$KIT" --help $a)" \
		"$KIT" $a pin -4 --help
	expect_err "$a: unknown state" 2 "^$a: .*state" "$KIT" $a -s bogus
	expect_err "$a: port out of range" 2 "^$a: .*port" \
		"$KIT" $a --sport 65536
	expect_err "$a: prefix too long" 2 "^$a: .*--src" \
		"$KIT" $a --src 10.0.0.0/33
	expect_err "$a: bad address" 2 "^$a: .*--dst" "$KIT" $a --dst ::1::2
	expect_err "$a: bad uid" 2 "^$a: .*uid" "$KIT" $a --uid -1
	expect_err "$a: -t and -j" 2 "^$a: -t and -j exclude each other" \
		"$KIT" $a -t -j
	expect_err "$a: -c and -t" 2 "^$a: -c and -t exclude each other" \
		"$KIT" $a -c -H -t
	expect_err "$a: -N and --all-netns" 2 \
		"^$a: -N and --all-netns exclude each other" \
		"$KIT" $a -N "$NSNAME" --all-netns
	expect_err "$a: stray argument" 2 "^$a: " "$KIT" $a established
	expect_err "$a: pin without PATH" 2 "^$a: " "$KIT" $a pin -4
	expect_err "$a: unknown netns name" 1 "^$a: .*nosuch-$$" \
		"$KIT" $a -N nosuch-$$
	expect_err "$a: netns of no process" 1 "^$a: " "$KIT" $a -N 999999999
	expect_err "$a -N ''" 2 "^$a: -N takes a network namespace: a name in /run/netns, a path or pid:PID$" \
		"$KIT" $a -N ''
	# A path cut short at PATH_MAX could name another namespace's file.
	expect_err "$a -N longer than a path" 2 \
		"^$a: -N takes a name or path shorter than 4096 bytes, got 5000$" \
		"$KIT" $a -N "$(head -c 5000 /dev/zero | tr '\0' 1)"
	check_privileges
	check_full_stdout
	check_full_stdout_walk
	# A kernel without BTF has no /sys/kernel/btf/vmlinux: hide it.
	expect_err "$a: kernel without BTF" 1 "^$NO_BTF$" \
		unshare -m sh -c 'mount -t tmpfs none /sys/kernel/btf &&
			exec "$0" "$1"' "$KIT" $a
	check_no_iterator
}

# setpriv's options that drop root: uid 65534 with only the capabilities
# CAPS (+bpf,+perfmon), ambient so that they survive the exec.
nobody_with() {
	echo --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all${1:+,$1} --ambient-caps=-all${1:+,$1}
}

# Iterator programs need CAP_BPF and CAP_PERFMON (or root's CAP_SYS_ADMIN).
check_privileges() {
	local a=$APPLET want="^$APPLET: need root, or CAP_BPF and CAP_PERFMON$"

	expect_err "$a: not root" 1 "$want" setpriv $(nobody_with) "$KIT" $a
	expect_err "$a: root without capabilities" 1 "$want" \
		setpriv --inh-caps=-all --bounding-set=-all "$KIT" $a
	expect_err "$a: CAP_BPF alone" 1 "$want" \
		setpriv $(nobody_with +bpf) "$KIT" $a
	expect_err "$a kill: not root" 1 "$want" \
		setpriv $(nobody_with) "$KIT" $a kill --all
	compare "$a -t as nobody with CAP_BPF and CAP_PERFMON" "-t" \
		in_zoo setpriv $(nobody_with +bpf,+perfmon) "$KIT" $a -t
}

# Every output form reports a stdout that fails, exit 1 (in the zoo, so
# that every form has rows to write).
check_full_stdout() {
	local form

	for form in "" -t -j -c "--all-netns -j" --all-netns; do
		expect_err "$APPLET $form >/dev/full" 1 \
			"^$APPLET: write error: No space left on device$" \
			in_zoo sh -c 'exec "$@" >/dev/full' sh "$KIT" $APPLET $form
	done
}

# A stdout that fails in the middle of a walk, of more rows than the
# output buffer holds and more reads than the reader thread's ring: one
# line, exit 1, and no wait for the reader (applets/sock/sockwalk.c:
# stop_reader()).  TCP's IPv4 rows are written as they are read, UDP's
# once all are.
check_full_stdout_walk() {
	local crowd

	if ! hold unshare -n "$SOCKZOO" $P 3000 21000; then
		fail "$APPLET: sockzoo $P 3000 starts"
		return
	fi
	crowd=$HELD
	expect_err "$APPLET >/dev/full in the middle of a walk of 3000" 1 \
		"^$APPLET: write error: No space left on device$" \
		timeout 60 nsenter -t "$crowd" -n sh -c 'exec "$@" >/dev/full' \
		sh "$KIT" $APPLET
	kill "$crowd"
}

# kill whose output fails closes the whole selected set all the same,
# exits 1 and says on stderr what it closed (README: kill), in a crowd
# whose closed sockets' rows are more than the output buffer holds (TCP:
# 3000 pairs, of which a peer reset before kill comes to it is not
# listed), so that a write fails in the middle of the walk: to a full
# disk (closing with the kernel's kfunc where it has one), then to a pipe
# closed after one line (through inet_diag).
check_kill_output_fails() {
	local how crowd filter n status name want closed left count=3000

	if [ $P = tcp ]; then filter="-s established"; else filter="--src 127.0.0.1"; fi
	for how in full pipe; do
		name="$APPLET kill $filter, its output to a $how"
		if ! hold unshare -n "$SOCKZOO" $P $count 22000; then
			fail "$name: sockzoo $P $count starts"
			continue
		fi
		crowd=$HELD
		n=$("$KIT" $APPLET -N "$crowd" -t -H $filter | wc -l)
		if [ $how = full ]; then
			want="No space left on device"
			timeout 120 "$KIT" $APPLET kill -N "$crowd" $filter \
				>/dev/full 2>"$W/err"
			status=$?
		else
			want="Broken pipe"
			KIT_KILL_INET_DIAG=1 timeout 120 "$KIT" $APPLET kill \
				-N "$crowd" $filter 2>"$W/err" | head -1 >/dev/null
			status=${PIPESTATUS[0]}
		fi
		closed=$(sed -n "s/^$APPLET: closed \([0-9]*\) sockets.*; their list was not written: write error: $want\$/\1/p" "$W/err")
		left=$("$KIT" $APPLET -N "$crowd" -t -H $filter | wc -l)
		# TCP: a pair's peer, reset, may be gone before kill comes to
		# it; UDP's sockets stay bound, unconnected.
		if [ $status -ne 1 ] || [ "$(wc -l <"$W/err")" -ne 1 ] ||
		   [ -z "$closed" ] || [ "$n" -lt 3000 ] ||
		   { [ $P = tcp ] && [ "$left" -ne 0 ]; } ||
		   { [ $P = udp ] && [ "$closed" -ne "$n" ]; }; then
			fail "$name: every socket closed, the count on stderr" \
				"exit status $status, $n sockets before, $left after" \
				"stderr: $(cat "$W/err")"
		else
			pass "$name: every socket closed, the count on stderr"
		fi
		kill "$crowd"
	done
}

# Preconditions every check needs; a missing one fails the whole suite.
require() {
	if [ "$(id -u)" -ne 0 ]; then
		fail "$APPLET: runs as root" "the suite needs root (netns, BPF)"
		exit 1
	fi
	if ! build_sockzoo; then
		fail "$APPLET: sockzoo builds"
		exit 1
	fi
	if ! start_zoo; then
		fail "$APPLET: socket zoo starts"
		exit 1
	fi
}

# What tcpiter.t and udpiter.t check the same way, after their own.
check_both_protocols() {
	EMPTY=1 check --sport 1
	check_netns
	check_pin
	check_kill
	check_kill_inet_diag
	check_kill_output_fails
	check_errors
	check_churn
}
