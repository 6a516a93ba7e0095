# The rig's self-check (tests/vm.t, VM_SCRIPT_TIMEOUT=5): a script that
# hangs, which the rig must stop and count as FAIL.
. /tests/lib.sh
pass "slow: started"
sleep 60
