# The rig's self-check (tests/vm.t): a script that dies before it reports,
# which the rig must count as FAIL.
exit 3
