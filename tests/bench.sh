#!/bin/sh
# SPDX-License-Identifier: MIT
# bench.sh - bench/pingpong, which bench/run's floors rest on: it prints
# both passes as positive microseconds, refuses a count it cannot use,
# and runs where the process may use only its last CPU (a container's
# cpuset need not hold CPU 0).  Speaks TAP.
PINGPONG=${PINGPONG:-bench/pingpong}
echo "1..6"
n=0
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
# positive LINE_START OUTPUT: the figure after LINE_START is above 0.
positive() {
	echo "$2" | awk -v k="$1" 'index($0, k " ") == 1 {
		f = $(NF - 1); found = 1 } END { exit !(found && f + 0 > 0) }'
}

out=$("$PINGPONG" 200)
check $? "pingpong 200 exits 0"
positive "two CPUs" "$out"
check $? "it prints the pass across two CPUs, above 0 us"
positive "one CPU" "$out"
check $? "and the pass on one CPU, above 0 us"

err=$("$PINGPONG" 1 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ]
check $? "a count below 2 is refused with exit 2 (got $rc)"
case $err in *usage*) r=0 ;; *) r=1 ;; esac
check $r "and says how to use it"

last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
out=$(taskset -c "$last" "$PINGPONG" 200 2>&1)
rc=$?
[ "$rc" = 0 ] && positive "two CPUs" "$out" && positive "one CPU" "$out"
check $? "with only CPU $last allowed, both passes are measured (exit $rc)"
