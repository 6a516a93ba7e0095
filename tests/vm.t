# The VM tests: every tests/guest/*.sh on Debian's 5.10, 6.1 and 6.12
# kernels under qemu (tests/vm/run, one boot per kernel), then a
# self-check that the rig reports failures, then how long it all took.
. tests/lib.sh
start=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"; t_cleanup' EXIT

tests/vm/run | tee "$log"

# Deliberately failing guest scripts go through the rig on one kernel;
# the FAIL lines they must cause are this check's PASSes, so their output
# is shown indented, out of tests/run's count.
selfcheck=$(VM_SCRIPT_TIMEOUT=5 tests/vm/run -k 6.12 tests/vm/selfcheck/*.sh 2>&1)
status=$?
rig_reports() {
	if grep -qxF "$2" <<<"$selfcheck"; then
		pass "vm rig: $1"
	else
		fail "vm rig: $1" "want the line: $2" "got:" "$selfcheck"
	fi
}
rig_reports "a false expectation in a guest is a FAIL" \
	"FAIL: [6.12] selfcheck: 1 + 1 is 3"
rig_reports "a guest script that reports nothing is a FAIL" \
	"FAIL: [6.12] silent: reported no result (exit 3)"
rig_reports "a guest script that hangs is stopped, a FAIL" \
	"FAIL: [6.12] slow: stopped after its timeout"
rig_reports "a call trace on the guest's console is a FAIL" \
	"FAIL: [6.12] kernel log has no oops or warning"
if [ "$status" -eq 1 ]; then
	pass "vm rig: exits 1 when a guest check fails"
else
	fail "vm rig: exits 1 when a guest check fails" "exit status $status"
fi
sed 's/^/    selfcheck| /' <<<"$selfcheck" |
	grep -E '(FAIL|PASS): |boot\+tests'

grep '^vm: .* boot+tests ' "$log"
echo "vm: whole suite $((SECONDS - start))s"
