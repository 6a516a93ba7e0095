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
