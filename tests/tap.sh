# SPDX-License-Identifier: MIT
# tap.sh - TAP output for the shell tests: a numbered line a check, the
# plan at the end (done_testing), and the output of a failed command in
# the stream.  Sourced; $work is the test's own folder, where a check
# keeps its command's output.

tap_n=0
tap_failed=0

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

# skip DESCRIPTION REASON: a check that could not run here, said so in
# the TAP stream: test-suite.log counts it as skipped, never as passed.
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	_desc=$1
	shift
	if "$@" >"$work/last.out" 2>&1; then
		ok "$_desc"
	else
		not_ok "$_desc"
		sed 's/^/# /' "$work/last.out" | head -n 20
	fi
}

# check_fails DESCRIPTION COMMAND...: passes when the command fails.
check_fails() {
	_desc=$1
	shift
	if "$@" >"$work/last.out" 2>&1; then
		not_ok "$_desc (it succeeded)"
	else
		ok "$_desc"
	fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   expected: $2"
		echo "#   actual:   $3"
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
