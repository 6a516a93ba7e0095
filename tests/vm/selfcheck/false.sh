# The rig's self-check (tests/vm.t): a deliberately false expectation,
# which the rig must report as FAIL.
. /tests/lib.sh
expect "selfcheck: 1 + 1 is 3" 0 3 expr 1 + 1
