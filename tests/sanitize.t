# The host suites (and their unit tests) against a kit built with
# AddressSanitizer and UndefinedBehaviorSanitizer (-fno-sanitize-recover:
# the first report ends the process, and the check that ran it fails).  Linked
# dynamically (STATIC=): the sanitizers' runtimes cannot be linked
# statically.  Their checks are shown as "PASS: [asan] ..."; a report
# that a check did not look at fails here.  mkcpio.t is left out: its
# /init is this kit, which must be static (mkcpio refuses a dynamically
# linked one); the mkcpio engine runs under ASan in rdload_fuzz.t's
# mkcpio_fuzz.  LeakSanitizer is off: an applet's memory goes with its
# process.
. "$TESTS/lib.sh"
build=$O/sanitize
log=$(mktemp)
trap 'rm -f "$log"; t_cleanup' EXIT

san="-fsanitize=address,undefined -fno-sanitize-recover=all"
if ! env -u KIT make -s --no-print-directory O="$build" KIT="$build/kit" \
	STATIC= CFLAGS="-O1 -g -fno-omit-frame-pointer -w $san" \
	LDFLAGS="$san" all unit >"$log" 2>&1; then
	fail "sanitize: the kit builds with $san" "$(tail -5 "$log")"
	exit 1
fi
pass "sanitize: the kit builds with $san"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
# Their own build directory: the unit tests sanitized too, and no tool
# (sockzoo) shared with the suites that run beside this one.
KIT=$build/kit O=$build TEST_JOBS=1 tests/run core mcled sockiter tcpiter \
	udpiter rdload >"$log" 2>&1
run_status=$?
sed -n 's/^\(PASS\|FAIL\|SKIP\): /\1: [asan] /p' "$log"
grep -E '^(==|all suites|[0-9]+ passed)' "$log" | sed 's/^/sanitize: /'
reports=$(grep -E '\.[ch]:[0-9]+:[0-9]+: runtime error:|ERROR: AddressSanitizer' "$log")
if [ -z "$reports" ]; then
	pass "sanitize: no sanitizer report in any suite"
else
	fail "sanitize: no sanitizer report in any suite" "$reports"
fi
[ "$run_status" -eq 0 ] || fail "sanitize: the suites passed under the sanitizers" \
	"tests/run exited $run_status"
