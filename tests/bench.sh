#!/bin/sh
# SPDX-License-Identifier: MIT
# bench.sh - bench/pingpong, which bench/run's floors rest on: it prints
# both passes as positive microseconds, refuses a count it cannot use,
# and runs where the process may use only its last CPU (a container's
# cpuset need not hold CPU 0).  Needs no FUSE.
. "${TESTS_SRCDIR:-$(dirname "$0")}/tap.sh"
PINGPONG=${PINGPONG:-bench/pingpong}
work=${TESTS_WORKDIR:-$PWD/tests/work}/bench
rm -rf "$work"
mkdir -p "$work"

# positive LINE_START FILE: the figure after LINE_START is above 0.
positive() {
	awk -v k="$1" 'index($0, k " ") == 1 { f = $(NF - 1); found = 1 }
		END { exit !(found && f + 0 > 0) }' "$2"
}

check "pingpong 200 exits 0" sh -c "'$PINGPONG' 200 >'$work/out'"
check "it prints the pass across two CPUs, above 0 us" positive "two CPUs" "$work/out"
check "and the pass on one CPU, above 0 us" positive "one CPU" "$work/out"

"$PINGPONG" 1 >/dev/null 2>"$work/err"
check_eq "a count below 2 is refused with exit 2" 2 "$?"
check "and says how to use it" grep -q usage "$work/err"

last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
on_last_cpu() {
	taskset -c "$last" "$PINGPONG" 200 >"$work/one" &&
		positive "two CPUs" "$work/one" && positive "one CPU" "$work/one"
}
check "with only CPU $last allowed, both passes are measured" on_last_cpu
done_testing
