#!/bin/sh
# SPDX-License-Identifier: MIT
# soak.sh - the long run, not part of `make check`: the
# full-size disc's image under SOAK_READERS readers with
# -o cache_size=SOAK_CACHE, ls -lR loops and a remount every
# SOAK_REMOUNT seconds, for SOAK_MINUTES; every byte is compared with a
# single-threaded reference pass (tests/mount/stress.sh does the reading
# and the comparing), and the daemon's RSS, sampled every
# SOAK_RSS_EVERY seconds, must not grow from the first SOAK_WINDOW
# seconds to the last.
#
#   tests/soak.sh [MINUTES]       from the top of a build tree
#
# Environment: SOAK_MINUTES (30; the argument wins), SOAK_READERS (8),
# SOAK_CACHE (16M), SOAK_REMOUNT (300), SOAK_RSS_EVERY (10), SOAK_WINDOW
# (300), SOAK_RSS_SLACK (percent the last window's peak may exceed the
# first's and still count as no growth: the cache's churn, 5), and
# CCSFS, CCSGEN, TESTS_WORKDIR as for the mount tests.  Prints the
# stress test's TAP lines, then the RSS figures and a verdict; exits 0
# only when both pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
minutes=${1:-${SOAK_MINUTES:-30}}
window=${SOAK_WINDOW:-300}
slack=${SOAK_RSS_SLACK:-5}
export TESTS_SRCDIR="$here"
export TESTS_WORKDIR=${TESTS_WORKDIR:-$PWD/tests/work}
export CCSFS=${CCSFS:-$PWD/ccsfs} CCSGEN=${CCSGEN:-$PWD/tests/gen/ccsgen}
export STRESS_SECONDS=$((minutes * 60))
export STRESS_READERS=${SOAK_READERS:-8}
export STRESS_CACHE=${SOAK_CACHE:-16M}
export STRESS_REMOUNT=${SOAK_REMOUNT:-300}
export STRESS_RSS_EVERY=${SOAK_RSS_EVERY:-10}
mkdir -p "$TESTS_WORKDIR"
export STRESS_RSS="$TESTS_WORKDIR/soak.rss"
log=$TESTS_WORKDIR/soak.log

echo "# soak: $minutes min, $STRESS_READERS readers, cache_size=$STRESS_CACHE, remount every $STRESS_REMOUNT s, RSS every $STRESS_RSS_EVERY s"
sh "$here/mount/stress.sh" | tee "$log"
stress_ok=0
grep -q '^not ok' "$log" || ! grep -q '^ok' "$log" || stress_ok=1

# The stress's own time, which the samples count from.
secs=$(sed -n 's/^# stress: .* \([0-9]*\) s, .*/\1/p' "$log" | head -n 1)
secs=${secs:-$STRESS_SECONDS}
# "SECONDS KB PID": the peak and the median of a window, in kB.
rss_of() {
	awk -v lo="$1" -v hi="$2" '$1 >= lo && $1 < hi { print $2 }' "$STRESS_RSS" |
		sort -n | awk '{ v[NR] = $1 } END {
			if (NR) printf "%d %d %d\n", v[NR], v[int((NR + 1) / 2)], NR
			else print "0 0 0" }'
}
set -- $(rss_of 0 "$window")
first_peak=$1 first_median=$2 first_n=$3
set -- $(rss_of $((secs - window)) $((secs + STRESS_RSS_EVERY)))
last_peak=$1 last_median=$2 last_n=$3
echo "# RSS, first ${window} s: peak $first_peak kB, median $first_median kB ($first_n samples)"
echo "# RSS, last ${window} s: peak $last_peak kB, median $last_median kB ($last_n samples)"
echo "# RSS, all: $(wc -l <"$STRESS_RSS") samples in $STRESS_RSS"
rss_ok=0
if [ "$first_n" -gt 0 ] && [ "$last_n" -gt 0 ] &&
   [ $((last_peak * 100)) -le $((first_peak * (100 + slack))) ]; then
	rss_ok=1
fi
if [ "$rss_ok" = 1 ]; then
	echo "# verdict RSS: no growth (last peak within ${slack}% of the first)"
else
	echo "# verdict RSS: GROWTH or too few samples"
fi
if [ "$stress_ok" = 1 ]; then
	echo "# verdict bytes: every check of the stress passed"
else
	echo "# verdict bytes: FAILED (see $log)"
fi
[ "$rss_ok" = 1 ] && [ "$stress_ok" = 1 ]
