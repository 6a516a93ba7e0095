# The checks of tcpiter and udpiter against /proc/net that the host suites
# (tests/socktest.sh) and the VM guests (guest_main) share: POSIX sh, so
# busybox runs it.  The includer sets P (tcp or udp), KIT, W (a scratch
# directory), SOCKZOO and SOCKCOMPARE (paths of tests/sockzoo and
# tests/sockcompare), and ZOO once `sockzoo zoo` holds the zoo.
APPLET=${P}iter
HOLDERS=
# What the applet says on a kernel without BTF.
NO_BTF="$APPLET: kernel has no BTF at /sys/kernel/btf/vmlinux: use a kernel built with CONFIG_DEBUG_INFO_BTF=y"

# hold CMD...: CMD starts a sockzoo holder (see tests/sockzoo.c) and
# prints its pid; HELD is that pid, killed at the end.
hold() {
	HELD=$("$@") || return 1
	HOLDERS="$HOLDERS $HELD"
}

in_zoo() {
	nsenter -t "$ZOO" -n "$@"
}

# The /proc tables that the applet's arguments select.
proc_tables() {
	case " $* " in
	*" -4 "*)	echo /proc/net/$P ;;
	*" -6 "*)	echo /proc/net/${P}6 ;;
	*)		echo /proc/net/$P /proc/net/${P}6 ;;
	esac
}

# The arguments sockcompare takes for the applet's: the output format,
# then all but -4 and -6 (the tables given choose the family).
compare_args() {
	local a format=proc rest=

	for a in "$@"; do
		case $a in
		-t) format=table ;;
		-j) format=json ;;
		-c) format=count ;;
		-4|-6) ;;
		*) rest="$rest $a" ;;
		esac
	done
	echo "-f $format$rest"
}

# compare NAME "ARGS" CMD...: runs CMD, which prints the applet's output for
# ARGS (word-split), between two reads of the zoo's /proc tables, and checks
# it with sockcompare.  CMD must exit 0 with stderr empty, and the filter
# must select at least one socket, unless EMPTY=1.  Retries when /proc
# itself moved meanwhile (a TIME_WAIT or SYN_SENT socket timing out; in
# the VMs, the namespace of the script before being torn down), and up
# to 3 tries when kit differs: a value can move and come back between
# the two reads (a probe sent and acked), a wrong one stays wrong.  A
# pass after a difference says so on a "note:" line.
compare() {
	local name=$1 args=$2 try status rc cmp differed=
	shift 2

	cmp=$(compare_args $args)
	for try in 1 2 3 4 5; do
		[ $try -gt 1 ] && sleep 1	# let the kernel settle
		in_zoo cat $(proc_tables $args) >"$W/before"
		"$@" >"$W/kit" 2>"$W/err"
		status=$?
		in_zoo cat $(proc_tables $args) >"$W/after"
		"$SOCKCOMPARE" -p $P $cmp "$W/before" "$W/kit" "$W/after" \
			>"$W/diff"
		rc=$?
		[ $rc -eq 0 ] && break
		[ $rc -eq 1 ] && [ -z "$differed" ] &&
			differed="try $try: $(head -1 "$W/diff")"
		[ $rc -eq 1 ] && [ $try -ge 3 ] && break
	done
	if [ $status -ne 0 ] || [ -s "$W/err" ]; then
		fail "$name" "command: $*" "exit status $status" \
			"stderr: $(cat "$W/err")"
	elif [ $rc -eq 3 ]; then
		fail "$name" "command: $*" "$(cat "$W/diff")" \
			"$(diff "$W/before" "$W/after" | head -20)"
	elif [ $rc -ne 0 ]; then
		fail "$name" "command: $*" "$(cat "$W/diff")"
	elif [ "$(cat "$W/diff")" = "equal: 0 sockets" ] &&
	     [ "${EMPTY:-0}" != 1 ]; then
		fail "$name" "command: $*" "no socket passes: the check proves nothing"
	else
		[ -n "$differed" ] &&
			echo "note: $name: passed on try $try; $differed"
		pass "$name"
	fi
}

# check ARGS...: the applet run in the zoo with ARGS, against /proc.
check() {
	compare "$APPLET $*" "$*" in_zoo "$KIT" "$APPLET" "$@"
}

# Every output form, with and without its header.
check_outputs() {
	local form

	for form in "" -t -j -c; do
		check $form
		[ "$form" != -j ] && check $form -H
	done
	check -4
	check -6
	check -4 -t
	check -6 -j
	check -6 -c
	[ $P = udp ] || check_timers
	[ $P = udp ] || check_pingpong
	[ $P = tcp ] || check_drops
	check_owners
	[ $P = udp ] || check_info
}

# Each full socket's pingpong bit, under its netns's threshold
# (net.ipv4.tcp_pingpong_thresh, 6.7+): at 2, a socket of the zoo that
# answered once within the ACK timeout leaves pingpong mode in /proc, and
# the applet's rows must follow; PINGPONG_MORE, if set, is a function
# that checks more meanwhile (the host's --all-netns).  Inode and
# pingpong bit of /proc's rows.
pingpong_bits() {
	in_zoo cat /proc/net/tcp /proc/net/tcp6 |
		awk 'NF >= 17 { print $10, $15 % 2 }' | sort
}

check_pingpong() {
	local f=/proc/sys/net/ipv4/tcp_pingpong_thresh was
	local name="tcpiter with the netns's tcp_pingpong_thresh at 2"

	if ! was=$(in_zoo cat $f 2>/dev/null); then
		echo "SKIP: $name: no $f before 6.7 (the threshold is 1)"
		return
	fi
	pingpong_bits >"$W/pingpong1"
	in_zoo sh -c "echo 2 >$f"
	pingpong_bits >"$W/pingpong2"
	if cmp -s "$W/pingpong1" "$W/pingpong2"; then
		fail "$name" \
			"no socket of the zoo leaves pingpong mode: no proof"
	else
		compare "$name" "" in_zoo "$KIT" "$APPLET"
		$PINGPONG_MORE
	fi
	in_zoo sh -c "echo $was >$f"
}

# The checks above compare every row's drops with /proc's: one of the zoo's
# must have some (port 5012, sockzoo's udp_overflowed()), or they prove
# nothing of the column.
check_drops() {
	local name="udpiter: drops of a socket whose full buffer dropped some"

	in_zoo "$KIT" udpiter -H --sport 5012 >"$W/dropped"
	if awk '$NF > 0 { n++ } END { exit n != 1 }' "$W/dropped"; then
		pass "$name"
	else
		fail "$name" "$(cat "$W/dropped")"
	fi
}

# "INODE PID FD COMM" of every socket descriptor of every process, from
# /proc/PID/fd's socket:[INODE] links, as ss -p finds them.
owners_from_proc() {
	local d f l pid comm

	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		comm=$(cat "$d/comm" 2>/dev/null) || continue
		for f in "$d"/fd/*; do
			l=$(readlink "$f" 2>/dev/null) || continue
			case $l in
			"socket:["*"]")
				l=${l#socket:[}
				echo "${l%]} $pid ${f##*/} $comm" ;;
			esac
		done
	done
}

# The same lines from -j -p's rows: their inode, and each owner.
owners_from_json() {
	awk '{
		if (!match($0, /"inode":[0-9]+/))
			next
		ino = substr($0, RSTART + 8, RLENGTH - 8)
		rest = $0
		while (match(rest, /[{]"comm":"[^"]*","pid":[0-9]+,"fd":[0-9]+[}]/)) {
			n = split(substr(rest, RSTART, RLENGTH), f, "\"")
			pid = f[7]; fd = f[9]
			gsub(/[^0-9]/, "", pid); gsub(/[^0-9]/, "", fd)
			print ino, pid, fd, f[4]
			rest = substr(rest, RSTART + RLENGTH)
		}
	}' "$1"
}

# zoo_users RECEIVER SHARER HOLDER: the end of -t -p's row for a socket on
# ZOO_PORT + 11 (grep -E), the processes' pids given as patterns.
zoo_users() {
	printf ' users:[(][(]"zoo-receiver",pid=%s,fd=10[01][)],' "$1"
	printf '[(]"zoo-sharer",pid=%s,fd=[0-9]+[)],' "$2"
	printf '[(]"sockzoo",pid=%s,fd=[0-9]+[)][)]$' "$3"
}

# -p: every socket's owners, -j -p against /proc/PID/fd (the zoo has
# sockets shared by fork and passed over SCM_RIGHTS); the ss form -t -p.
check_owners() {
	local name="$APPLET -j -p: the owners of every socket, as /proc/PID/fd says"

	if ! in_zoo "$KIT" "$APPLET" -j -p >"$W/owned" 2>"$W/err"; then
		fail "$name" "$(cat "$W/err")"
		return
	fi
	owners_from_json "$W/owned" | sort >"$W/kit-owners"
	owners_from_proc | sort >"$W/proc-owners.all"
	# the sockets of the zoo's netns: those the applet listed
	awk 'NR == FNR { if ($0 ~ /"inode":[1-9]/) {
			match($0, /"inode":[0-9]+/)
			want[substr($0, RSTART + 8, RLENGTH - 8)] = 1 }
		next }
	     $1 in want' "$W/owned" "$W/proc-owners.all" >"$W/proc-owners"
	if [ -s "$W/kit-owners" ] && cmp -s "$W/kit-owners" "$W/proc-owners"; then
		pass "$name"
	else
		fail "$name" "$(diff "$W/proc-owners" "$W/kit-owners" | head -20)"
	fi
	name="$APPLET -t -p: the socket passed over SCM_RIGHTS, held three times"
	in_zoo "$KIT" "$APPLET" -t -p -H --sport 5011 >"$W/owned"
	if grep -Eq "$(zoo_users '[0-9]+' '[0-9]+' '[0-9]+')" "$W/owned"; then
		pass "$name"
	else
		fail "$name" "$(cat "$W/owned")"
	fi
	check_owners_threads
}

# -p names the process that holds a socket by the process's comm (its
# group leader's, as /proc/PID/stat has it), never by the thread that
# holds it: sockzoo threads' thread with files of its own holds port
# 5040 in the holder (comm sockzoo), the thread of zoo-leader, whose
# leader has exited, port 5041.  (ss shows neither: it reads only the
# leader's /proc/PID/fd.)
check_owners_threads() {
	local name="$APPLET -t -p: a socket a thread holds, named by its process"
	local users='users:[(][(]"%s",pid=%s,fd=[0-9]+[)][)]$'

	if ! hold unshare -n "$SOCKZOO" threads; then
		fail "$name" "sockzoo threads did not start"
		return
	fi
	nsenter -t "$HELD" -n "$KIT" $APPLET -t -p -H >"$W/threads" 2>&1
	if grep -q zoo-thread "$W/threads" ||
	   ! grep -Eq "127.0.0.1:5040 .* $(printf "$users" sockzoo "$HELD")" \
		"$W/threads" ||
	   ! grep -Eq "127.0.0.1:5041 .* $(printf "$users" zoo-leader '[0-9]+')" \
		"$W/threads"; then
		fail "$name" "$(cat "$W/threads")"
	else
		pass "$name"
	fi
}

# Why -t -i's lines of TCP internals are not plausible, on stdin (the
# zoo's table without header): a line of internals after every full
# socket's row (not TIME-WAIT, not SYN-RECV) and only there; in each, the
# congestion control's name and a cwnd; established sockets with an rtt,
# an rto of 200 ms or more (TCP_RTO_MIN), an mss, an advmss and a minrtt;
# the pair on port 5001, whose client sent 1000 bytes and got 3000, says
# so in both its sockets, and that it uses ECN (sockzoo asked for it) and
# saw ECN-capable packets.  Prints nothing when all is well.
info_implausible() {
	awk '
	function bad(why) { print "line " NR ": " why ": " $0; errors++ }
	function num(key,   i) {
		for (i = 2; i <= NF; i++)
			if (index($i, key ":") == 1)
				return substr($i, length(key) + 2) + 0
		return -1
	}
	/^\t/ {
		if (!want) bad("internals after no full socket")
		want = 0; infos++
		cc = $1
		if ($1 ~ /^(ts|sack|ecn|ecnseen|fastopen)$/)
			for (i = 1; i <= NF && $i ~ /^(ts|sack|ecn|ecnseen|fastopen)$/; i++)
				cc = $(i + 1)
		if (cc !~ /^[a-z][a-z0-9_]*$/) bad("no congestion control")
		if (num("cwnd") <= 0) bad("no cwnd")
		if (state == "ESTAB") {
			split(substr($0, index($0, "rtt:") + 4), rtt, "/")
			if (index($0, " rtt:") == 0 || rtt[1] + 0 <= 0)
				bad("no rtt")
			if (num("rto") < 200) bad("rto below 200 ms")
			if (num("mss") <= 0 || num("advmss") <= 0) bad("no mss")
			if (num("minrtt") <= 0 && index($0, " minrtt:0.") == 0)
				bad("no minrtt")
		}
		if (state == "ESTAB" && peer ~ /:5001$/ && (num("bytes_sent") != 1000 ||
		    num("bytes_acked") != 1001 || num("bytes_received") != 3000))
			bad("the client of port 5001: not 1000 bytes sent, 3000 received")
		if (state == "ESTAB" && local ~ /:5001$/ && (num("bytes_sent") != 3000 ||
		    num("bytes_received") != 1000))
			bad("the server of port 5001: not 3000 bytes sent, 1000 received")
		if (state == "ESTAB" && (local ~ /:5001$/ || peer ~ /:5001$/) &&
		    !/ ecn ecnseen /)
			bad("the pair on port 5001: not ecn ecnseen")
		next
	}
	{
		if (want) bad("no internals for the row before")
		state = $1; local = $4; peer = $5
		want = state != "TIME-WAIT" && state != "SYN-RECV"
		rows += want
	}
	END {
		if (want) bad("no internals for the last row")
		if (!infos) bad("no internals at all")
		if (rows != infos) bad(rows " full sockets, " infos " lines of internals")
		exit errors > 0
	}'
}

# Why -j -i's objects are not plausible, on stdin: a "tcp_info" in every
# full socket's ("kind":"socket") and in no other; established ones
# with rtt_us, mss and cwnd above 0.
info_json_implausible() {
	awk '
	function bad(why) { print "line " NR ": " why ": " $0; errors++ }
	/"kind":"socket"/ != /"tcp_info":[{]"cong":"[a-z]/ {
		bad("tcp_info where it does not belong, or missing")
	}
	/"state":"established"/ && !/"rtt_us":[1-9][0-9]*,.*"mss":[1-9][0-9]*,.*"cwnd":[1-9]/ {
		bad("established, without rtt_us, mss or cwnd")
	}
	END { if (NR == 0) bad("no rows"); exit errors > 0 }'
}

# check_info_form NAME FORM CHECK: the applet's FORM -i in the zoo runs,
# stderr empty, and CHECK finds nothing wrong in it.
check_info_form() {
	if ! in_zoo "$KIT" "$APPLET" $2 -i >"$W/info" 2>"$W/err" ||
	   [ -s "$W/err" ]; then
		fail "$1" "stderr: $(cat "$W/err")"
	elif ! $3 <"$W/info" >"$W/why"; then
		fail "$1" "$(head -5 "$W/why")"
	else
		pass "$1"
	fi
}

# -i: -t -i and -j -i run in the zoo, with lines of internals where they
# belong and values that make sense (ss -tnaio compares them on the host).
check_info() {
	check_info_form \
		"$APPLET -t -i: TCP's internals after every full socket, plausible" \
		"-t -H" info_implausible
	check_info_form \
		"$APPLET -j -i: a tcp_info object in every full socket's, plausible" \
		-j info_json_implausible
}

# The zoo's TCP rows hold each kind of timer /proc shows, so that the
# comparisons above cover how the applet reads each: 1 retransmit, 2
# keepalive, 4 zero-window probe (tr in tr:tm->when, field 6).
check_timers() {
	local t kinds

	in_zoo "$KIT" "$APPLET" -H >"$W/kit"
	kinds=$(awk '{ print substr($6, 1, 2) }' "$W/kit" | sort -u | tr '\n' ' ')
	for t in 01 02 04; do
		case " $kinds" in
		*" $t "*) pass "$APPLET: the zoo has a timer $t row, compared" ;;
		*) fail "$APPLET: the zoo has a timer $t row, compared" \
			"timers seen: $kinds" ;;
		esac
	done
}

# The table a pinned iterator at PATH prints to the zoo.  UDP rows sorted
# by slot: from 6.5 the kernel walks another hash and a pinned iterator
# cannot sort (pin_order checks the order apart).
pinned() {
	if [ $P = tcp ]; then
		in_zoo cat "$1"
	else
		in_zoo cat "$1" | { IFS= read -r h; echo "$h"; sort -n -k1,1; }
	fi
}

# Does the kernel's UDP iterator walk the secondary hash (from 6.5,
# commit c96dac8d369f), in an order that /proc's slots do not follow?
udp_walks_hash2() {
	uname -r | awk -F. '{ exit !($1 > 6 || ($1 == 6 && $2 >= 5)) }'
}

# compare_pin NAME "ARGS" PATH: the pinned table against /proc, and for
# UDP also in /proc's order where the kernel walks /proc's hash.  From 6.5
# a pinned UDP table comes in the kernel's walk order (the README says
# so): that check is a SKIP line there, not a PASS.
compare_pin() {
	compare "$1" "$2" pinned "$3"
	[ $P = udp ] || return 0
	if udp_walks_hash2; then
		echo "SKIP: $1: rows in /proc's order (kernel $(uname -r) walks the secondary hash)"
	else
		compare "$1: rows in /proc's order" "$2" in_zoo cat "$3"
	fi
}

# pin -4/-6 on a private bpffs; each cat is a fresh /proc table of the
# reader's netns; rm removes it.
check_pin() {
	local fs=$W/bpffs

	if ! mkdir -p "$fs" || ! mount -t bpf bpf "$fs"; then
		fail "$APPLET pin: mount a bpffs"
		return
	fi
	expect "$APPLET pin -4 PATH" 0 "" in_zoo "$KIT" "$APPLET" pin -4 "$fs/v4"
	compare_pin "cat PATH (pin -4)" "-4" "$fs/v4"
	hold in_zoo "$SOCKZOO" $P 3 6000
	compare "cat PATH again: a fresh table" "-4" pinned "$fs/v4"
	if grep -q ':1770 ' "$W/kit"; then
		pass "cat PATH again: new sockets in it"
	else
		fail "cat PATH again: new sockets in it" "no port 6000 in:" \
			"$(cat "$W/kit")"
	fi
	expect "$APPLET pin -6 PATH" 0 "" in_zoo "$KIT" "$APPLET" pin -6 "$fs/v6"
	compare_pin "cat PATH (pin -6)" "-6" "$fs/v6"
	expect "$APPLET pin -4 --sport 6000 --src 127.0.0.0/8 PATH" 0 "" \
		in_zoo "$KIT" "$APPLET" pin -4 --sport 6000 --src 127.0.0.0/8 \
		"$fs/filtered"
	compare_pin "cat PATH (pin -4 --sport 6000 --src 127.0.0.0/8)" \
		"-4 --sport 6000 --src 127.0.0.0/8" "$fs/filtered"
	expect_err "$APPLET pin: PATH exists" 1 "^$APPLET: .*exists" \
		"$KIT" "$APPLET" pin -4 "$fs/v4"
	expect_err "$APPLET pin: PATH not on bpffs" 1 "^$APPLET: .*bpffs" \
		"$KIT" "$APPLET" pin -4 "$W/v4"
	expect_err "$APPLET pin: PATH in a missing directory" 1 \
		"^$APPLET: no directory $fs/nodir for $fs/nodir/x: create it \\(mkdir -p $fs/nodir\\)$" \
		"$KIT" "$APPLET" pin -4 "$fs/nodir/x"
	expect_err "$APPLET pin: PATH a directory" 1 \
		"^$APPLET: $fs is a directory: pin takes the path of a new file in it, e.g. $fs/$P$" \
		"$KIT" "$APPLET" pin -4 "$fs"
	expect_err "$APPLET pin: no table chosen" 2 "^$APPLET: " \
		"$KIT" "$APPLET" pin "$fs/both"
	if rm "$fs/v4" "$fs/v6" "$fs/filtered" 2>/dev/null &&
	   ! ls "$fs/v4" "$fs/v6" "$fs/filtered" 2>/dev/null; then
		pass "rm PATH removes the pinned iterator"
	else
		fail "rm PATH removes the pinned iterator"
	fi
	umount "$fs"
}

# Sockets opening and closing while the applet walks them, CHURN_RUNS
# times (default 20): every run exits 0 and every line parses (proc and
# JSON Lines output).
check_churn() {
	local churn runs=0 why=

	nsenter -t "$ZOO" -n "$SOCKZOO" churn 600 &	# $! is sockzoo
	churn=$!
	while [ -z "$why" ] && [ $runs -lt "${CHURN_RUNS:-20}" ]; do
		runs=$((runs + 1))
		if ! in_zoo "$KIT" "$APPLET" >"$W/kit" 2>"$W/err" ||
		   [ -s "$W/err" ]; then
			why="run $runs failed: $(cat "$W/err")"
		elif [ "$(grep -c '^ *sl ' "$W/kit")" != 2 ] ||
		     ! "$SOCKCOMPARE" -p $P --lines "$W/kit" >"$W/diff"; then
			why="run $runs: $(cat "$W/diff")"
		elif ! in_zoo "$KIT" "$APPLET" -j >"$W/kit" 2>"$W/err" ||
		     [ -s "$W/err" ] || grep -qv '^{".*}$' "$W/kit"; then
			why="run $runs (-j): $(cat "$W/err") $(grep -v \
				'^{".*}$' "$W/kit" | head -3)"
		fi
	done
	kill $churn || why="sockzoo churn ended early"
	wait $churn || why="sockzoo churn exited with status $?"
	if [ -n "$why" ]; then
		fail "$APPLET under churn" "$why"
	else
		pass "$APPLET under churn ($runs runs)"
	fi
}

# A kernel with BTF but without the iterator (5.8 has BPF iterators, not
# these; 5.9 has them, the UDP one from commit 5788b3a07fc5): a vmlinux
# BTF that holds only "int" in place of the real one.
# -v loads through libbpf, which looks the iterator up in that file (the
# light skeleton asks the kernel itself); libbpf's messages come first.
check_no_iterator() {
	local name="$APPLET: kernel without the $P iterator"
	local want="$APPLET: kernel has no BPF $P iterator (needs Linux 5.9 or later)"

	# header (magic, version 1, 24 bytes; types at 0, 16 bytes; strings
	# at 16, 5 bytes), INT "int" of 4 bytes, 32 bits, and the strings
	printf '\237\353\001\000\030\000\000\000\000\000\000\000'\
'\020\000\000\000\020\000\000\000\005\000\000\000'\
'\001\000\000\000\000\000\000\001\004\000\000\000'\
'\040\000\000\000\000int\000' >"$W/int.btf"
	unshare -m sh -c 'mount -t tmpfs none /sys/kernel/btf &&
		cp "$0" /sys/kernel/btf/vmlinux && exec "$1" "$2" -v' \
		"$W/int.btf" "$KIT" $APPLET >"$W/out" 2>"$W/err"
	local status=$?
	if [ $status -ne 1 ] || [ -s "$W/out" ] ||
	   [ "$(tail -1 "$W/err")" != "$want" ]; then
		fail "$name" "exit status $status, want 1" \
			"stdout: $(head -3 "$W/out")" "stderr: $(cat "$W/err")" \
			"want last: $want"
	else
		pass "$name"
	fi
}

# name_netns NAME PID: /run/netns/NAME, a bind mount of PID's netns, as
# `ip netns attach` makes it (the guests' busybox has no ip netns).
name_netns() {
	mkdir -p /run/netns && : >"/run/netns/$1" &&
		mount -o bind "/proc/$2/ns/net" "/run/netns/$1"
}

unname_netns() {
	[ -n "$1" ] || return 0		# a zoo that never started
	umount "/run/netns/$1" 2>/dev/null
	rm -f "/run/netns/$1"
}

# The inodes of the rows of -t output in file $1 (header and count
# line left out), sorted.
table_inodes() {
	awk '$7 ~ /^[0-9]+$/ { print $7 }' "$1" | sort
}

# -N with an all-digit name (ip netns add takes "2"; PID 2 is kthreadd,
# in the host's namespace): DIGITS, a name above any pid_max, is the
# namespace in /run/netns, and kill through it closes that namespace's
# sockets only; the zoo holder's pid as a name as well is refused (exit
# 2, nothing listed), and pid:PID and /run/netns/NAME choose.
check_netns_digits() {
	local num=$((4194304 + $$)) zoo=$ZOO ns a=$APPLET

	if ! hold unshare -n "$SOCKZOO" $P 2 6200 ||
	   ! name_netns $num $HELD || ! name_netns $zoo $HELD; then
		fail "$a -N DIGITS: name a netns $num and $zoo"
		return
	fi
	ns=$HELD
	ZOO=$ns
	compare "$a -N DIGITS: the namespace of that name" "" \
		"$KIT" $a -N $num
	compare "$a -N /run/netns/PID: the namespace of that name" "" \
		"$KIT" $a -N /run/netns/$zoo
	ZOO=$zoo
	compare "$a -N pid:PID: the process's namespace" "" \
		"$KIT" $a -N pid:$zoo
	expect_err "$a kill -n --all -N PID, also a name in /run/netns: refused" 2 \
		"^$a: -N $zoo is both /run/netns/$zoo and process $zoo: say -N /run/netns/$zoo or -N pid:$zoo$" \
		"$KIT" $a kill -n --all -N $zoo
	# what kill lists is what it closed (a TCP peer reset meanwhile is
	# gone before kill reaches it, and counted so): sockets of that
	# namespace only
	"$KIT" $a -t -N pid:$ns >"$W/before"
	table_inodes "$W/before" >"$W/before.inodes"
	"$KIT" $a kill --all -N $num >"$W/out" 2>"$W/err"
	local status=$? n
	n=$(table_inodes "$W/out" | wc -l)
	if [ $status -ne 0 ] || [ -s "$W/err" ] || [ $n -eq 0 ] ||
	   [ -n "$(table_inodes "$W/out" | awk 'NR == FNR { had[$1]; next }
		!($1 in had)' "$W/before.inodes" -)" ] ||
	   [ "$(tail -1 "$W/out" | sed 's/, [0-9]* gone before kill came to them$//')" != \
	     "closed $n sockets" ]; then
		fail "$a kill --all -N DIGITS: closes that namespace's sockets, no other" \
			"exit status $status, stderr: $(cat "$W/err")" \
			"stdout:" "$(cat "$W/out")" \
			"its sockets before:" "$(cat "$W/before")"
	else
		pass "$a kill --all -N DIGITS: closes that namespace's sockets, no other"
	fi
	unname_netns $num
	unname_netns $zoo
}

# ---- kill, on sockzoo's victims (tests/sockzoo.c) in a netns of their
# own, VICTIMS the holder's pid, reached with -N.

# The victims' table: state, addresses and inode of each socket.
victims_table() {
	"$KIT" $APPLET -N "$VICTIMS" -t -H | awk '{ print $1, $4, $5, $7 }' |
		sort
}

# victims_report SIGNAL: the holder's report, once it has written it
# after SIGNAL: USR1, or USR2 to make a TIME_WAIT socket on 5030 first.
victims_report() {
	local i=0

	rm -f "$W/report"
	kill -"$1" "$VICTIMS"
	while [ ! -s "$W/report" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$W/report" ] || fail "$APPLET kill: the victims' holder reports after SIG$1"
}

# victims_see NAME "WANT"...: what the owner of each victim sees, from
# the holder's report, has every line WANT.
victims_see() {
	local name=$1 want missing=

	shift
	victims_report USR1
	for want in "$@"; do
		grep -qx "$want" "$W/report" || missing="$missing, $want"
	done
	if [ -n "$missing" ]; then
		fail "$name" "missing:${missing#,}" "report:" \
			"$(cat "$W/report" 2>/dev/null)"
	else
		pass "$name"
	fi
}


# kill_case "ARGS" N AFTER: kill ARGS closes N sockets, lists them
# (header, N rows, each with its line of internals with -i) and counts
# them, exit 0, stderr empty; the table after is the table before edited
# by AFTER (sed -E: what was closed deleted or changed), so every other
# socket stayed.
kill_case() {
	local name="$APPLET kill $1" n=$2 after=$3 before lines=$2

	case " $1 " in *" -i "*) lines=$((2 * n)) ;; esac

	before=$(victims_table)
	"$KIT" $APPLET kill -N "$VICTIMS" $1 >"$W/out" 2>"$W/err"
	local status=$?
	if [ $status -ne 0 ] || [ -s "$W/err" ] ||
	   [ "$(tail -1 "$W/out")" != "closed $n socket$([ $n = 1 ] || echo s)" ] ||
	   [ "$(sed -n '1{/^State /p}' "$W/out")" = "" ] ||
	   [ "$(sed '1d;$d' "$W/out" | wc -l)" != $lines ]; then
		fail "$name" "exit status $status, stderr: $(cat "$W/err")" \
			"stdout:" "$(cat "$W/out")"
		return
	fi
	pass "$name: lists the $n sockets closed, then the count"
	if [ "$(victims_table)" = "$(echo "$before" | sed -E "$after" |
	     sort)" ]; then
		pass "$name: every other socket stays"
	else
		fail "$name: every other socket stays" "before:" "$before" \
			"after:" "$(victims_table)"
	fi
}

# kill_refused "ARGS" WHY: kill ARGS closes nothing, reports its one
# socket on stderr with WHY (an ERE), counts it, exits 1; the table stays.
kill_refused() {
	local name="$APPLET kill $1: refused" before

	before=$(victims_table)
	"$KIT" $APPLET kill -N "$VICTIMS" $1 >"$W/out" 2>"$W/err"
	local status=$?
	if [ $status -ne 1 ] || [ "$(wc -l <"$W/err")" -ne 1 ] ||
	   ! grep -Eq "^$APPLET: not closed: $2$" "$W/err" ||
	   [ "$(tail -1 "$W/out")" != "closed 0 sockets, 1 not closed" ] ||
	   [ "$(victims_table)" != "$before" ]; then
		fail "$name" "exit status $status, stderr: $(cat "$W/err")" \
			"stdout:" "$(cat "$W/out")"
	else
		pass "$name"
	fi
}

# kill_dry "ARGS" [OWNED]: kill -n ARGS is taken as a filter (exit 0)
# and lists what -t ARGS lists, at least one socket, then "would close N
# sockets"; with OWNED, each row with its owners, users:(...).
kill_dry() {
	local name="$APPLET kill -n $1${2:+: each socket with its owners}" n

	"$KIT" $APPLET -N "$VICTIMS" -t $1 >"$W/want"
	n=$(($(wc -l <"$W/want") - 1))
	echo "would close $n socket$([ $n = 1 ] || echo s)" >>"$W/want"
	"$KIT" $APPLET kill -n -N "$VICTIMS" $1 >"$W/out" 2>&1
	if [ $n -eq 0 ] || ! cmp -s "$W/want" "$W/out" || { [ -n "$2" ] &&
	   [ "$(grep -c ' users:((' "$W/out")" -ne $n ]; }; then
		fail "$name" "want:" "$(cat "$W/want")" "got:" "$(cat "$W/out")"
	else
		pass "$name"
	fi
}

# kill_owners_listed "ARGS": after kill_case, each row it listed ends
# with the holder of the victims, as -t -p shows it.
kill_owners_listed() {
	local name="$APPLET kill $1: each socket closed listed with its owner"

	if [ "$(sed '1d;$d' "$W/out" | grep -c '^[^	].* users:(("sockzoo",pid='"$VICTIMS"',fd=[0-9]*))$')" -ne \
	     "$(sed '1d;$d' "$W/out" | grep -c '^[^	]')" ]; then
		fail "$name" "$(cat "$W/out")"
	else
		pass "$name"
	fi
}

check_kill() {
	local a=$APPLET

	if ! hold unshare -n "$SOCKZOO" victims "$W/report"; then
		fail "$a kill: sockzoo victims start"
		return
	fi
	VICTIMS=$HELD
	expect_err "$a kill with no filter" 2 \
		"^$a: kill with no filter closes every $P socket: add filters, or --all if that is what you mean$" \
		"$KIT" $a kill -N "$VICTIMS"
	# no filter: both families, and no state or all of the protocol's
	for args in "-s all" "-4 -6 -s all" \
		"$([ $P = udp ] && echo -s established -s close)"; do
		[ -n "$args" ] || continue
		expect_err "$a kill $args: no filter" 2 \
			"^$a: kill with no filter closes every $P socket: add filters, or --all if that is what you mean$" \
			"$KIT" $a kill $args -N "$VICTIMS"
	done
	# a family, a prefix of either family even of length 0: filters
	for args in -6 -4 "--src ::/0" "--dst 0.0.0.0/0"; do
		kill_dry "$args"
	done
	# -n: should the refusal break, nothing of this namespace is closed
	expect_err "$a kill -n --all-netns: refused" 2 \
		"^$a: kill works in one network namespace: choose it with -N NETNS$" \
		"$KIT" $a kill -n --all --all-netns
	# --uid 0: a filter, that leaves the sockets of uid 4242 on port 5037
	kill_dry "--uid 0"
	if grep -q ':5037 ' "$W/out"; then
		fail "$a kill -n --uid 0: not the sockets of uid 4242" "$(cat "$W/out")"
	else
		pass "$a kill -n --uid 0: not the sockets of uid 4242"
	fi
	expect_err "$a kill -j" 2 "^$a: kill lists the sockets it closes as -t does" \
		"$KIT" $a kill -j --all -N "$VICTIMS"
	expect_err "$a -n without kill" 2 "^$a: -n goes with kill$" "$KIT" $a -n
	if [ $P = tcp ]; then
		expect "$a kill -n: what would be closed, nothing closed" 0 \
"$("$KIT" $a -N "$VICTIMS" -t -s established --dport 5030)
would close 2 sockets" \
			"$KIT" $a kill -n -N "$VICTIMS" -s established --dport 5030
		kill_dry "-p -s established --dport 5030" owned
		victims_see "$a kill -n: the owners see nothing" \
			"client4a open" "server4a open" "listener4 open" \
			"client4a peer connected"
		kill_case "-s established --dport 5030" 2 \
			"/^ESTAB 127.0.0.1:(5030 127.0.0.1:[0-9]+|[0-9]+ 127.0.0.1:5030) /d"
		victims_see "$a kill: owners see ECONNABORTED, TCP peers a reset" \
			"client4a ECONNABORTED" "client4b ECONNABORTED" \
			"client4a peer ENOTCONN" \
			"server4a ECONNRESET" "server4b ECONNRESET" \
			"client6 open" "server6 open" "listener4 open" \
			"listener6 open"
		kill_case "-p -6 -s listen" 1 "/^LISTEN \\[::1\\]/d"
		kill_owners_listed "-p -6 -s listen"
		# one bucket of the listening hash, over several reads: kernels
		# that resume a walk by count skip some, the next pass closes them
		kill_case "-s listen --sport 5034" 200 "/^LISTEN 127.0.0.1:5034 /d"
		victims_see "$a kill: a listener closed, its connection kept" \
			"listener6 EINVAL" "client6 open" "server6 open" \
			"listener4 open"
		# -i: each row with TCP's internals, as -t -i shows them
		kill_case "-i -6 -s established --dport 5031" 1 \
			"/^ESTAB \\[::1\\]:([0-9]+ \\[::1\\]:5031|5031 \\[::1\\]:[0-9]+) /d"
		victims_see "$a kill -i: owner and peer see it" \
			"client6 ECONNABORTED" "server6 ECONNRESET"
		# a request socket: dropped, its client none the wiser
		kill_case "-s syn-recv" 1 "/^SYN-RECV /d"
		# 5.10's tcp_abort() refuses TIME_WAIT sockets; 6.1's takes
		# them (6.0, commit af9784d007d8, "tcp: diag: add support for
		# TIME_WAIT sockets to tcp_abort()")
		# A TIME_WAIT socket lives 60 s: the holder makes one now.
		victims_report USR2
		if uname -r | awk -F. '{ exit !($1 < 6) }'; then
			kill_refused "-s time-wait" "TIME-WAIT .*: this kernel's tcp_abort\\(\\) does not close TIME_WAIT sockets"
		else
			kill_case "-s time-wait" 1 "/^TIME-WAIT /d"
		fi
		kill_case "--uid 4242" 1 "/^LISTEN 127.0.0.2:5037 /d"
	else
		# bound sockets stay, unconnected
		kill_dry "-p --sport 5032" owned
		victims_see "$a kill -n: the connected socket stays connected" \
			"udp_connected peer connected" "udp_connected open"
		kill_case "-p --sport 5032" 1 ""
		kill_owners_listed "-p --sport 5032"
		victims_see "$a kill: the owner sees ECONNABORTED" \
			"udp_bound ECONNABORTED" "udp_connected open"
		# 502 sockets over two reads or more: where the kernel resumes
		# a walk by count, a second walk follows, and it must not close
		# again the two bound ones, which stay in the table and match
		kill_case "--src 127.0.0.1" 502 \
			"s/^ESTAB (127.0.0.1:5033) 127.0.0.1:5032 /UNCONN \\1 0.0.0.0:* /;/^ESTAB /d"
		victims_see "$a kill: connected sockets disconnected: recv sees ECONNABORTED, send EDESTADDRREQ" \
			"udp_bound ECONNABORTED" \
			"udp_connected ECONNABORTED" \
			"udp_connected peer ENOTCONN" \
			"udp_connected send EDESTADDRREQ"
		kill_case "--uid 4242" 1 ""
	fi
}

# kill_note WHAT WANT: kill -v's line on how it closes is WANT (an ERE).
kill_note() {
	expect_err "$APPLET kill -v, $1" 0 "^$APPLET: closing $2\$" \
		sh -c '"$@" 2>&1 >/dev/null | grep "^$2: closing " >&2' sh \
		"$KIT" $APPLET kill -v --sport 1 -N "$ZOO"
}

# The BPF JIT's switch.  riscv64's kernels boot with the JIT off (no
# CONFIG_BPF_JIT_DEFAULT_ON), other architectures' with it on.
JIT=/proc/sys/net/core/bpf_jit_enable

# Where the JIT starts off: the dump as the kernel interprets it, and -p,
# whose program 7.x's verifier will not interpret ("program requires BPF
# JIT compiler but it is not available"): it loads, or is refused naming
# the switch.  Then the JIT goes on for the rest, as on the others
# (JIT_AT_BOOT: guest_main puts it back).
check_jit_off() {
	[ "$(cat $JIT 2>/dev/null)" = 0 ] || return 0
	JIT_AT_BOOT=0
	compare "$APPLET with the BPF JIT off" "" in_zoo "$KIT" $APPLET
	compare "$APPLET -j with the BPF JIT off" -j in_zoo "$KIT" $APPLET -j
	if "$KIT" $APPLET -t -p -N "$ZOO" >"$W/out" 2>"$W/err" &&
	   grep -q ' users:((' "$W/out"; then
		pass "$APPLET -t -p with the BPF JIT off: loads, shows the owners"
	elif [ "$(cat "$W/err")" = "$APPLET: cannot load the BPF task_file iterator for -p (Linux 5.8 or later); the BPF JIT is off (echo 1 > $JIT)" ]; then
		pass "$APPLET -t -p with the BPF JIT off: refused, naming the switch"
	else
		fail "$APPLET -t -p with the BPF JIT off" "$(cat "$W/err")"
	fi
	echo 1 >$JIT
}

# kill -v of many sockets with the kfunc, over several reads: -v's walks
# add up to the count, each socket closed once; where the kernel gives
# the program no mark (riscv64's 7.2: inet_diag closes them), one walk.
check_kill_walks() {
	local name="$APPLET kill -v, the JIT on: each socket closed once" n
	local args sum walks

	if ! hold unshare -n "$SOCKZOO" victims "$W/walks-report"; then
		fail "$name" "sockzoo victims start"
		return
	fi
	if [ $P = tcp ]; then
		args="-s listen --sport 5034" n=200
	else
		args="--src 127.0.0.1" n=502
	fi
	"$KIT" $APPLET kill -v $args -N "$HELD" >"$W/out" 2>"$W/err"
	walks=$(grep -c "^$APPLET: walk " "$W/err")
	sum=$(sed -n "s/^$APPLET: walk [0-9]*: \([0-9]*\) closed.*/\1/p" \
		"$W/err" | awk '{ s += $1 } END { print s + 0 }')
	if [ "$(tail -1 "$W/out")" != "closed $n sockets" ] || [ "$sum" != $n ]; then
		fail "$name" "$(grep "^$APPLET: [wc0-9]" "$W/err")" "$(tail -1 "$W/out")"
	elif grep -q "^$APPLET: $n sockets left to inet_diag: the kernel gave no mark" "$W/err"; then
		[ "$walks" = 1 ] && pass "$name: no mark, inet_diag, one walk" ||
			fail "$name: no mark, yet $walks walks"
	else
		pass "$name"
	fi
}

# A program that calls bpf_sock_destroy() (6.5) needs the JIT too: kill
# -v says which way it closes on each side of the switch, where the
# kernel lets it be turned (not with CONFIG_BPF_JIT_ALWAYS_ON).
check_kill_jit() {
	if ! grep -qw bpf_sock_destroy /proc/kallsyms; then
		kill_note "no kfunc: through inet_diag" \
			"through inet_diag \(no bpf_sock_destroy\(\)\)"
		return
	fi
	kill_note "the JIT on: with the kfunc" "with bpf_sock_destroy\(\)"
	check_kill_walks
	if ! echo 0 2>/dev/null >$JIT; then
		echo "SKIP: $APPLET kill -v with the BPF JIT off: this kernel's JIT is always on (CONFIG_BPF_JIT_ALWAYS_ON)"
		return
	fi
	kill_note "the JIT off: through inet_diag, naming the switch" \
		"through inet_diag \(bpf_sock_destroy\(\) needs the BPF JIT, which is off: echo 1 > $JIT\)"
	echo 1 >$JIT
}

# Copies stdin, a suite's output, where only PASS:, FAIL:, SKIP: and note:
# lines and a FAIL's indented details belong: any other line (a shell's
# "Terminated", a tool's chatter) becomes a FAIL, so none creeps in.
only_log_lines() {
	while IFS= read -r line; do
		case $line in
		"PASS: "*|"FAIL: "*|"SKIP: "*|"note: "*|"    "*)
			printf '%s\n' "$line" ;;
		*)	fail "$APPLET: only PASS, FAIL, SKIP and note lines in the log" \
				"$line" ;;
		esac
	done
}

# A VM guest's checks (tests/guest/tcpiter.sh, udpiter.sh): the zoo in a
# fresh netns, every output form, -N PID, pin, churn and the error for a
# kernel without the iterator, on the booted kernel; tests/guest/
# tcpiter.host put sockzoo and sockcompare in /data.
# A kernel without BTF (Debian's armhf kernels have no
# CONFIG_DEBUG_INFO_BTF) cannot load a BPF iterator: the applet refuses
# in one line that says so and what to do, and kill closes nothing.
# The socket zoo's checks cannot run there: SKIP, with that reason.
check_no_btf() {
	local want="^$NO_BTF$"

	expect_err "$APPLET: a kernel without BTF is refused" 1 "$want" \
		"$KIT" $APPLET
	expect_err "$APPLET -t -4: a kernel without BTF is refused" 1 "$want" \
		"$KIT" $APPLET -t -4
	if hold unshare -n "$SOCKZOO" victims "$W/report"; then
		VICTIMS=$HELD
		# Each socket's addresses, state and inode; not TIME_WAIT's
		# (06), which may end meanwhile.
		state() {
			nsenter -t "$VICTIMS" -n cat /proc/net/$P /proc/net/${P}6 |
				awk '$4 != "06" { print $2, $3, $4, $10 }'
		}
		refuse "$APPLET kill -4: a kernel without BTF is refused" 1 \
			"$want" "$KIT" $APPLET kill -N "$VICTIMS" -4
	else
		fail "$APPLET kill: sockzoo victims start"
	fi
	echo "SKIP: $APPLET: the socket zoo's checks: kernel $(uname -r) has no BTF at /sys/kernel/btf/vmlinux"
}

guest_main() {
	local pid

	W=$(mktemp -d)
	CHURN_RUNS=5		# a run takes seconds under emulation
	SOCKZOO=/data/sock/sockzoo
	SOCKCOMPARE=/data/sock/sockcompare
	if [ ! -e /sys/kernel/btf/vmlinux ]; then
		check_no_btf
	elif hold unshare -n "$SOCKZOO" zoo; then
		ZOO=$HELD
		check_jit_off
		check_outputs
		check -s established --src 127.0.0.1
		# TCP: a walk of listeners only stops where they end
		[ $P = udp ] || check -s listening -t
		[ $P = udp ] || check -6 -s listening -j
		compare "$APPLET -N PID" "" "$KIT" "$APPLET" -N "$ZOO"
		check_netns_digits
		check_pin
		check_kill
		check_kill_jit
		check_churn
		check_no_iterator
	else
		fail "$APPLET: socket zoo starts"
	fi
	for pid in $HOLDERS; do
		kill "$pid"
	done
	[ -z "$JIT_AT_BOOT" ] || echo "$JIT_AT_BOOT" >$JIT
	rm -rf "$W"
}
