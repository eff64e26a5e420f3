#!/bin/sh
# SPDX-License-Identifier: MIT
# poll.sh - -o busy_poll: the device read with and without polling gives
# the same tree; the reading thread polls while requests come close
# together, and stops once they stop (an idle mount uses no CPU).
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

disc=$work/disc
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }

# ticks PID: the CPU the process used so far, in clock ticks.
ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# open_every_10ms MNT: 50 opens 10 ms apart, each an OPEN and a RELEASE
# (a stat would be answered by the kernel's cache).
open_every_10ms() {
	for _ in $(seq 50); do
		head -c 1 "$1/SYSTEM.CNF" >/dev/null
		sleep 0.01
	done
}

check "mounts with polling off" mount_fg "$disc" "$work/off" "$work/off.log" -o busy_poll=0
off_pid=$fg_pid
# A 100 ms window: a poll that never ends would be a busy core.
check "mounts with a 100 ms polling window" mount_fg "$disc" "$work/on" "$work/on.log" -o busy_poll=100000
on_pid=$fg_pid
check "both read every file alike (diff -r)" diff -r "$work/off" "$work/on"

a=$(ticks "$on_pid")
open_every_10ms "$work/on"
b=$(ticks "$on_pid")
c=$(ticks "$off_pid")
open_every_10ms "$work/off"
d=$(ticks "$off_pid")
sleep 0.3
e=$(ticks "$on_pid")
sleep 1
f=$(ticks "$on_pid")
echo "# over opens 10 ms apart: $((b - a)) ticks polling, $((d - c)) not; idle 1 s: $((f - e))"
# Opens 10 ms apart are within the window: the reader polls between
# them rather than sleeping.  Over the half second of them, a tenth is
# the bound, for a loaded machine that gives the poller a share of a
# core; without polling, the daemon sleeps through it.
check "requests within the window are polled for" test $((b - a)) -ge 5
check "polling off sleeps between them" test $((d - c)) -le 2
check "an idle mount uses no CPU once the window has passed" test $((f - e)) -le 2

check "unmounts the polling mount" unmount_fg "$work/on"
check_eq "its daemon exits 0" 0 "$fg_status"
check "unmounts the other" unmount "$work/off"

done_testing
