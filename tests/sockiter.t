#!/bin/bash
# tcpiter's and udpiter's pure helpers (tests/sockiter_unit.c): address
# prefixes, state names, jiffies to clock_t, HZ from a sample, and records
# formatted as /proc's rows.  The applets against the real kernel are
# tests/tcpiter.t and tests/udpiter.t.
. "$TESTS/lib.sh"

if [ -x "$O/sockiter_unit" ]; then
	"$O/sockiter_unit" || echo "FAIL: sockiter_unit exited with status $?"
else
	fail "sockiter_unit" "$O/sockiter_unit is missing: make unit"
fi

# sockcompare runs under busybox awk in the VM guests, where two fields
# that read as numbers compare as numbers: a pointer hash like
# 000000009e754403 (9e754403, infinite) then differs from itself.
sockcompare_busybox() {
	local d row ptr=000000009e754403

	if ! command -v busybox >/dev/null; then
		fail "sockcompare under busybox awk" "no busybox: make deps"
		return
	fi
	d=$(mktemp -d)
	ln -s "$(command -v busybox)" "$d/awk"
	row=$(printf '%5d: %08X:%04X %08X:%04X %02X %08X:%08X %02X:%08X %08X %5u %8d %u %d %s %u' \
		42 16777343 5000 0 0 7 0 0 0 0 0 0 0 1234 2 $ptr 0)
	{
		printf '%-127s\n' "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops"
		printf '%-127s\n' "$row"
	} >"$d/before"
	cp "$d/before" "$d/kit"
	cp "$d/before" "$d/after"
	expect "sockcompare under busybox awk: pointer $ptr equals itself" \
		0 "equal: 1 sockets" env PATH="$d:$PATH" \
		"$TESTS/sockcompare" -p udp "$d/before" "$d/kit" "$d/after"
	rm -rf "$d"
}
sockcompare_busybox
