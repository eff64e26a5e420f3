#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz/replay.sh - `make check`'s replay of the fuzz corpora, in TAP.
#
# Runs fuzz/replay_<target> (each harness linked with replay_main.c) over
# fuzz/corpus/<target>/ and fuzz/regressions/<target>/; one TAP line per
# target.  FUZZ_REPLAY_DIR: where the replayers are (default: the fuzz/
# folder beside $CCSFS, i.e. the build tree's); TESTS_SRCDIR: the source
# tree's tests/ (default: this script's ../tests); FUZZ_TARGETS: which.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcfuzz=${TESTS_SRCDIR:+$TESTS_SRCDIR/../fuzz}
srcfuzz=${srcfuzz:-$here}
bindir=${FUZZ_REPLAY_DIR:-$(dirname "${CCSFS:-$PWD/ccsfs}")/fuzz}
# The targets: fuzz/targets, the one list.
listed=$(cat "$srcfuzz/targets")
targets=${FUZZ_TARGETS:-$listed}
# Makefile.am names the replayers itself (Automake needs them written
# out); they must be the list's, in its order.
built=$(sed -n '/^fuzz_replayers = /,/[^\\]$/p' "$srcfuzz/../Makefile.am" |
	sed -n 's|.*fuzz/replay_\([a-z_]*\).*|\1|p')

echo "1..$(($(echo $targets | wc -w) + 1))"
n=1 failed=0
if [ "$(echo $built)" = "$(echo $listed)" ]; then
	echo "ok 1 - Makefile.am's fuzz_replayers are fuzz/targets"
else
	failed=1
	echo "not ok 1 - Makefile.am's fuzz_replayers are fuzz/targets"
	echo "# Makefile.am: $(echo $built)"
	echo "# fuzz/targets: $(echo $listed)"
fi
for t in $targets; do
	n=$((n + 1))
	set --
	for d in "$srcfuzz/corpus/$t" "$srcfuzz/regressions/$t"; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
	if out=$("$bindir/replay_$t" "$@" 2>&1); then
		echo "ok $n - $t: ${out##*: }"
	else
		failed=$((failed + 1))
		echo "not ok $n - $t"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done
[ $failed -eq 0 ]
