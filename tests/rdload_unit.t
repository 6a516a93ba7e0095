#!/bin/bash
# rdload's image engine from memory (tests/rdload_unit.c): identification
# as the kernel does it, every decoder on images compressed with the same
# libraries, lzop and lz4 framing edge cases, truncated and corrupt
# streams and small targets (only the region reported written changes).
. "$TESTS/lib.sh"

run_unit rdload_unit
