#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tsan.sh - the daemon under ThreadSanitizer: builds ccsfs and
# ccsfs-check with gcc -fsanitize=thread, runs the stress, tree and check
# tests against them (and the cache's, the image's and the tree's
# threaded unit tests), and fails when TSan reported anything.  `make tsan` runs it.
#
# The TSan build is compiled here, beside the normal build (as
# fuzz/build.sh does), so it works from any configured tree, in place or
# VPATH; the normal build's tests/gen/ccsgen makes the test data.
#
# Environment: SRCDIR (default: this script's parent's parent), BUILDDIR
# (where configure wrote config.h and built ccsgen; default SRCDIR), OUT
# (default $BUILDDIR/tsan-out), TSAN_CC (default gcc), TSAN_TESTS (default
# "stress tree check units"), STRESS_SECONDS (default 60 here), TSAN_EXTRA_OPTIONS
# (appended to TSAN_OPTIONS).  Reports land in
# $OUT/tsan.<pid>; each one is counted and its first lines shown.
set -u

here=$(cd "$(dirname "$0")" && pwd)
SRCDIR=${SRCDIR:-$(dirname "$here")}
BUILDDIR=${BUILDDIR:-$SRCDIR}
OUT=${OUT:-$BUILDDIR/tsan-out}
TSAN_CC=${TSAN_CC:-gcc}
TSAN_TESTS=${TSAN_TESTS:-stress tree check units}
export STRESS_SECONDS=${STRESS_SECONDS:-60}

[ -f "$BUILDDIR/config.h" ] || { echo "tsan.sh: no config.h in $BUILDDIR: run configure" >&2; exit 2; }
[ -x "$BUILDDIR/tests/gen/ccsgen" ] || { echo "tsan.sh: build first (make)" >&2; exit 2; }

PKGS="fuse3 libpng zlib libiso9660 libelf"
grep -q '^#define HAVE_LIBDEFLATE 1' "$BUILDDIR/config.h" && PKGS="$PKGS libdeflate"
CFLAGS="-std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=thread -pthread"
CPPFLAGS="-D_GNU_SOURCE -I$BUILDDIR -I$SRCDIR/src $(pkg-config --cflags $PKGS)"

mkdir -p "$OUT/obj"
# lib: what every program shares; glue: the daemon's own (its main and
# the FUSE glue, src/fuse/); check_objs: ccsfs-check's own.
lib=
glue=
check_objs=
for c in $(find "$SRCDIR/src" -name "*.c" | sort); do
	o=$OUT/obj/$(basename "$c" .c).o
	$TSAN_CC $CFLAGS $CPPFLAGS -c "$c" -o "$o" || exit 1
	case $c in
	*/src/bin/ccsfs_check.c|*/src/bin/check_*.c) check_objs="$check_objs $o" ;;
	*/src/bin/ccsfs.c|*/src/fuse/*) glue="$glue $o" ;;
	*) lib="$lib $o" ;;
	esac
done
# shellcheck disable=SC2086
$TSAN_CC $CFLAGS -o "$OUT/ccsfs" $glue $lib $(pkg-config --libs $PKGS) || exit 1
echo "built $OUT/ccsfs"
# shellcheck disable=SC2086
$TSAN_CC $CFLAGS -o "$OUT/ccsfs-check" $check_objs $lib $(pkg-config --libs $PKGS) || exit 1
echo "built $OUT/ccsfs-check"
# The unit tests whose threads share a cache, an image or a tree.
unit_tests=
if pkg-config --exists cmocka; then
	gen=
	for c in "$SRCDIR"/tests/gen/ccsw*.c "$SRCDIR"/tests/gen/gzw.c "$SRCDIR"/tests/gen/dbw.c "$SRCDIR"/tests/gen/elfw.c; do
		o=$OUT/obj/gen_$(basename "$c" .c).o
		$TSAN_CC $CFLAGS $CPPFLAGS -c "$c" -o "$o" || exit 1
		gen="$gen $o"
	done
	for t in test_cache test_iso test_tree_ahead test_tree_unit; do
		# shellcheck disable=SC2086
		$TSAN_CC $CFLAGS $CPPFLAGS -I"$SRCDIR/tests/gen" $(pkg-config --cflags cmocka) \
			-o "$OUT/$t" "$SRCDIR/tests/unit/$t.c" $lib $gen \
			$(pkg-config --libs $PKGS cmocka) || exit 1
		unit_tests="$unit_tests $t"
	done
fi

rm -f "$OUT"/tsan.*
# Reports go to files (the daemon's stderr is the tests'); the run goes
# on after a report, so that one run shows every race.  The suppressions
# name races that are not ours (see the file).
#
# io_sync=1 (TSan's default, said here on purpose): a write to a file
# descriptor happens before a later read of it.  The daemon relies on
# that for /dev/fuse: a node is built by the thread that populates its
# folder and reaches other threads only as an inode number the kernel got
# in a reply (lookup, readdir), and an open file's handle goes from open
# to read and release the same way.  With io_sync=0 TSan reports every one
# of those hand-offs (tried: 80 reports, each of that kind, none a race
# between two threads that did not go through the kernel).
TSAN_OPTIONS="log_path=$OUT/tsan halt_on_error=0 second_deadlock_stack=1 history_size=4 io_sync=1"
TSAN_OPTIONS="$TSAN_OPTIONS suppressions=$SRCDIR/tests/tsan.supp ${TSAN_EXTRA_OPTIONS:-}"
export TSAN_OPTIONS

status=0
for t in $unit_tests; do
	echo "== tests/unit/$t"
	(cd "$OUT" && "./$t") >"$OUT/$t.log" 2>&1 || status=1
	tail -n 1 "$OUT/$t.log"
done
for t in $TSAN_TESTS; do
	echo "== tests/mount/$t.sh against $OUT/ccsfs"
	CCSFS=$OUT/ccsfs CCSFS_CHECK=$OUT/ccsfs-check CCSGEN=$BUILDDIR/tests/gen/ccsgen \
		TESTS_SRCDIR=$SRCDIR/tests TESTS_WORKDIR=$OUT/work \
		sh "$SRCDIR/tests/mount/$t.sh" >"$OUT/$t.log" 2>&1 || status=1
	grep -E '^(not ok|# stress|# reference|Bail out)' "$OUT/$t.log"
	echo "$(grep -c '^ok ' "$OUT/$t.log") passed, $(grep -c '^not ok ' "$OUT/$t.log") failed (log: $OUT/$t.log)"
done

reports=$(cat "$OUT"/tsan.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer')
echo "ThreadSanitizer: $reports reports"
for f in "$OUT"/tsan.*; do
	[ -f "$f" ] || continue
	echo "-- $f"
	grep -A 12 '^WARNING: ThreadSanitizer' "$f" | head -n 60
done
[ "$reports" -eq 0 ] || status=1
exit $status
