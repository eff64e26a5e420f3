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
# The targets are build.sh's: one list.
targets=${FUZZ_TARGETS:-$(sed -n 's/^TARGETS="\(.*\)"$/\1/p' "$here/build.sh")}

echo "1..$(echo $targets | wc -w)"
n=0 failed=0
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
