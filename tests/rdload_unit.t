#!/bin/bash
# rdload's loader from memory (tests/rdload_unit.c): identification as the
# kernel does it, every decoder on images compressed with the same
# libraries, lzop and lz4 framing edge cases, truncated and corrupt
# streams and small targets (only the region reported written changes).
. "$TESTS/lib.sh"

if [ -x "$O/rdload_unit" ]; then
	"$O/rdload_unit" || echo "FAIL: rdload_unit exited with status $?"
else
	fail "rdload_unit" "$O/rdload_unit is missing: make unit"
fi
