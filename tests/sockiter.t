#!/bin/bash
# tcpiter's and udpiter's pure helpers (tests/sockiter_unit.c): address
# prefixes, state names, jiffies to clock_t, HZ from a sample, and records
# formatted as /proc's rows.  The applets against the real kernel are
# tests/tcpiter.t and tests/udpiter.t.
. "$TESTS/lib.sh"

run_unit sockiter_unit

# sockcompare runs under busybox awk in the VM guests, where two fields
# that read as numbers compare as numbers: a pointer hash like
# 000000009e754403 (9e754403, infinite) then differs from itself.
sockcompare_busybox() {
	local d row header ptr=000000009e754403

	if ! command -v busybox >/dev/null; then
		fail "sockcompare under busybox awk" "no busybox: make deps"
		return
	fi
	d=$(mktemp -d)
	ln -s "$(command -v busybox)" "$d/awk"
	row=$(printf '%5d: %08X:%04X %08X:%04X %02X %08X:%08X %02X:%08X %08X %5u %8d %u %d %s %u' \
		42 16777343 5000 0 0 7 0 0 0 0 0 0 0 1234 2 $ptr 0)
	header=$(head -1 /proc/net/udp)		# padded as rows are
	{
		echo "$header"
		printf "%-${#header}s\n" "$row"
	} >"$d/before"
	cp "$d/before" "$d/kit"
	cp "$d/before" "$d/after"
	expect "sockcompare under busybox awk: pointer $ptr equals itself" \
		0 "equal: 1 sockets" env PATH="$d:$PATH" \
		"$TESTS/sockcompare" -p udp "$d/before" "$d/kit" "$d/after"
	rm -rf "$d"
}
sockcompare_busybox

# A timer overdue in both /proc reads (0 left) may have fired and been
# re-armed between them, as a zero window probe does over and over: kit
# may show it with time left.  A timer counting down must still lie
# between its two reads.
sockcompare_timer() {
	local d=$(mktemp -d) width=$(head -1 /proc/net/tcp | wc -L)

	tcp_row() {
		printf "%-${width}s\n" "$(printf '%4d: %s %s %s %s %s %s %5s %8s %s %s %s %s %s %s %s %s' \
			0 0100007F:1389 0100007F:86EE 01 00267C40:000007D0 \
			"$1" 00000000 0 0 2113 2 00000000475aa937 21 4 32 10 -1)"
	}
	tables() {
		head -1 /proc/net/tcp >"$d/before"
		cp "$d/before" "$d/kit"
		cp "$d/before" "$d/after"
		tcp_row "$1" >>"$d/before"
		tcp_row "$2" >>"$d/kit"
		tcp_row "$3" >>"$d/after"
	}
	tables 04:00000000 04:00000006 04:00000000
	expect "sockcompare: a timer overdue in both reads may show time left" \
		0 "equal: 1 sockets" \
		"$TESTS/sockcompare" -p tcp "$d/before" "$d/kit" "$d/after"
	tables 04:00000010 04:00000020 04:00000005
	if "$TESTS/sockcompare" -p tcp "$d/before" "$d/kit" "$d/after" \
		>"$d/out" || ! grep -q \
		'): field 6 is 04:00000020, /proc says 04:00000010$' "$d/out"
	then
		fail "sockcompare: a timer counting down lies between its reads" \
			"stdout: $(cat "$d/out")"
	else
		pass "sockcompare: a timer counting down lies between its reads"
	fi
	rm -rf "$d"
}
sockcompare_timer
