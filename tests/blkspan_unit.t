#!/bin/bash
# blkspan, where a file's or block device's bytes lie (tests/blkspan_unit.c),
# over a fake sysfs tree: partitions, a stacked device, a stack that loops,
# bad and missing attributes, and what overlaps what.  The real loop and
# device-mapper devices are in tests/rdload.t and tests/guest/rdload.sh.
. "$TESTS/lib.sh"

run_unit blkspan_unit
