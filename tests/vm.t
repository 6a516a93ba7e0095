# The VM tests: every tests/guest/*.sh on Debian's 5.10, 6.1, 6.12, 7.2
# and 7.3 amd64 kernels, its 6.1, 6.12 and 7.3 arm64 kernels (with
# KIT_ARM64's kit), its 6.1 and 6.12 armhf kernels (armmp, with
# KIT_ARM's kit) and its 6.12 and 7.2 riscv64 kernels (with KIT_RISCV64's)
# under qemu (tests/vm/run, one boot per kernel), then a self-check that
# the rig reports failures, how long it all took, and the table of the
# kernels kit is proven on, made from this run's results.
. "$TESTS/lib.sh"
start=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"; t_cleanup' EXIT

tests/vm/run | tee "$log"

# The split 7.x kernels keep in the cache only the modules the guests
# load and their dependencies (tests/vm/fetch), not the package's 4,200.
for kept in tests/vm/cache/*/.modules; do
	[ -f "$kept" ] || continue
	kver=$(basename "$(dirname "$kept")")
	n=$(find "$(dirname "$kept")" -name '*.ko*' | wc -l)
	if [ "$n" -le 50 ]; then
		pass "vm cache: $kver keeps only the guests' modules ($n)"
	else
		fail "vm cache: $kver keeps only the guests' modules" "$n .ko files"
	fi
done

# kernel_table LOG: one row per kernel with each guest script's summary
# ("vm: [7.3] mcled: PASS 34"), the boot's own checks (it ended in time,
# ran every script, logged no oops) and whether kernel/'s module was built.
kernel_table() {
	awk '
	function kernel(k) {
		if (k == "") {
			match($0, /\[[^]]*\]/)
			k = substr($0, RSTART + 1, RLENGTH - 2)
		}
		if (!(k in seen))
			order[++nk] = k
		seen[k] = 1
		return k
	}
	function put(k, col, text) {
		if (!(col in colw)) {
			cols[++nc] = col
			colw[col] = length(col)
		}
		cell[k, col] = text
		if (length(text) > colw[col])
			colw[col] = length(text)
	}
	/^vm: booting / { kver[kernel($3)] = substr($4, 2, length($4) - 2) }
	/^vm: \[[^]]*\] [a-z_]*: (PASS|FAIL)/ {
		k = kernel()
		script = $3
		sub(/:$/, "", script)
		text = $0
		sub(/^[^]]*\] [a-z_]*: /, "", text)
		put(k, script, text)
	}
	/^FAIL: \[[^]]*\] (kernel fetched|its kit:)/ { kernel("") }
	/^FAIL: \[[^]]*\] (boot |kernel log )/ { boot[kernel()] = "FAIL" }
	/^PASS: \[[^]]*\] boot runs every script/ {
		k = kernel()
		if (!(k in boot))
			boot[k] = "PASS"
	}
	/^PASS: \[[^]]*\] kernel\/ module builds/ { vled[kernel()] = "built" }
	/^FAIL: \[[^]]*\] kernel\/ module builds/ { vled[kernel()] = "FAIL" }
	/^SKIP: \[[^]]*\] kernel\/ has no module/ {
		why = $0
		sub(/.* for [^ ]*: (kernel\/vled: )?/, "", why)
		vled[kernel()] = "not built: " why
	}
	END {
		line = sprintf("  %-12s %-24s %-4s", "kernel", "Debian package", "boot")
		for (c = 1; c <= nc; c++)
			line = line sprintf(" %-" colw[cols[c]] "s", cols[c])
		print line " vled"
		for (i = 1; i <= nk; i++) {
			k = order[i]
			line = sprintf("  %-12s %-24s %-4s", k,
				       kver[k] ? kver[k] : "(not booted)",
				       k in boot ? boot[k] : "-")
			for (c = 1; c <= nc; c++) {
				text = ((k, cols[c]) in cell) ? cell[k, cols[c]] : "-"
				line = line sprintf(" %-" colw[cols[c]] "s", text)
			}
			print line " " (k in vled ? vled[k] : "-")
		}
	}' "$1"
}

# Deliberately failing guest scripts go through the rig on one kernel of
# each architecture (their results come back on different devices, their
# consoles print call traces differently: 32-bit ARM's has no header);
# the FAIL lines they must cause are this check's PASSes, so their output
# is shown indented, out of tests/run's count.
selfcheck=$(VM_SCRIPT_TIMEOUT=5 tests/vm/run -k 6.12 -k arm64/6.12 \
	-k armhf/6.1 -k riscv64/6.12 tests/vm/selfcheck/*.sh 2>&1)
status=$?
rig_reports() {
	if grep -qxF "$2" <<<"$selfcheck"; then
		pass "vm rig: $1"
	else
		fail "vm rig: $1" "want the line: $2" "got:" "$selfcheck"
	fi
}
for k in 6.12 arm64/6.12 armhf/6.1 riscv64/6.12; do
	rig_reports "[$k] a false expectation in a guest is a FAIL" \
		"FAIL: [$k] selfcheck: 1 + 1 is 3"
	rig_reports "[$k] a guest script that reports nothing is a FAIL" \
		"FAIL: [$k] silent: reported no result (exit 3)"
	rig_reports "[$k] a guest script that hangs is stopped, a FAIL" \
		"FAIL: [$k] slow: stopped after its timeout"
	rig_reports "[$k] a call trace on the guest's console is a FAIL" \
		"FAIL: [$k] kernel log has no oops or warning"
	# The table is made of results: the self-check's row shows the
	# three scripts that fail and the boot whose console has a call
	# trace as FAIL, the script that passes (trace) as PASS.
	row=$(kernel_table <(echo "$selfcheck") | awk -v k="$k" '$1 == k {
		for (i = 3; i <= NF; i++)
			if ($i == "PASS" || $i == "FAIL")
				n[$i]++
		print $3, n["FAIL"] + 0, n["PASS"] + 0
	}')
	if [ "$row" = "FAIL 4 1" ]; then
		pass "vm rig: [$k] the kernel table shows what failed as FAIL"
	else
		fail "vm rig: [$k] the kernel table shows what failed as FAIL" \
			"$(kernel_table <(echo "$selfcheck"))"
	fi
done
if [ "$status" -eq 1 ]; then
	pass "vm rig: exits 1 when a guest check fails"
else
	fail "vm rig: exits 1 when a guest check fails" "exit status $status"
fi
sed 's/^/    selfcheck| /' <<<"$selfcheck" |
	grep -E '(FAIL|PASS): |boot\+tests'

grep '^vm: .* boot+tests ' "$log"
echo "vm: whole suite $((SECONDS - start))s"
echo "vm: the kernels kit is proven on, from this run (applets: their guest"
echo "vm: scripts' checks; vled: kernel/'s module for that kernel):"
kernel_table "$log"
