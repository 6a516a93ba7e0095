# The rig's self-check (tests/vm.t): the kernel prints a call trace
# (sysrq l: a backtrace of every CPU), which the rig must see on the
# console and count as FAIL.
. /tests/lib.sh
echo l >/proc/sysrq-trigger && pass "trace: sysrq l"
sleep 1
