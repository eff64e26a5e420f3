#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz/build.sh - build, run and replay the ccsfs fuzz harnesses.
#
#   fuzz/build.sh build [TARGET..] libFuzzer binaries (clang, ASan, UBSan)
#   fuzz/build.sh run N [TARGET..] each fuzzer for N seconds; fails on a crash
#   fuzz/build.sh replay [TARGET..] gcc + ASan/UBSan, no libFuzzer: replays
#                                  fuzz/corpus/T and fuzz/regressions/T
#
# Environment: SRCDIR (the source tree, default: this script's parent),
# BUILDDIR (where configure wrote config.h, default SRCDIR), OUT (work
# directory, default $BUILDDIR/fuzz-out), CLANG (default clang, else
# clang-14), REPLAY_CC (default gcc), REPLAY_SAN (default
# -fsanitize=address,undefined; set empty for a plain build),
# FUZZ_ARGS (extra libFuzzer flags), FUZZ_JOBS (run: how many fuzzers
# run at once, default 1; CI runs two, one a core).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
SRCDIR=${SRCDIR:-$(dirname "$here")}
BUILDDIR=${BUILDDIR:-$SRCDIR}
OUT=${OUT:-$BUILDDIR/fuzz-out}
FUZZ_ARGS=${FUZZ_ARGS:-}
if [ -z "${CLANG:-}" ]; then
	if command -v clang >/dev/null 2>&1; then CLANG=clang; else CLANG=clang-14; fi
fi
REPLAY_CC=${REPLAY_CC:-gcc}
REPLAY_SAN=${REPLAY_SAN--fsanitize=address,undefined -fno-sanitize-recover=all}
SHELL_CMD=/bin/sh

# The harnesses: fuzz/targets, one name a line, the one list of them.
TARGETS=$(cat "$here/targets")
# The format library (libccsfs_format.a's folders) and the pack's, which
# sits on it alone: the harnesses reach nothing above them.
LIBSRC=$(cd "$SRCDIR/src" && ls util/*.c io/*.c archive/*.c ccsf/*.c decode/*/*.c dbmod/*.c pack/*.c | sed 's/\.c$//')
# The tree library (libccsfs_tree.a's folders): only the harnesses that
# take a member as the mount does (TREE_TARGETS) link it.
TREESRC=$(cd "$SRCDIR/src" && ls cache/*.c tree/*.c views/*.c | sed 's/\.c$//')
TREE_TARGETS="member"
CPPFLAGS="-D_GNU_SOURCE -I$BUILDDIR -I$SRCDIR/src -I$SRCDIR/fuzz"
PKGS="libpng zlib libiso9660 libelf"
# gzip.c inflates with libdeflate when configure found it.
if grep -q '^#define HAVE_LIBDEFLATE 1' "$BUILDDIR/config.h" 2>/dev/null; then
	PKGS="$PKGS libdeflate"
fi
PKG_CFLAGS=$(pkg-config --cflags $PKGS)
PKG_LIBS="$(pkg-config --libs $PKGS) -lm"

# Inputs up to this many bytes: ISO images and archives need room.
max_len() {
	case $1 in
	iso|archive|ccsf|cutscene|dbmod|member) echo 65536 ;;
	*) echo 16384 ;;
	esac
}

# make_lib LIB SRC..: compiles each src/SRC.c (with $cc, $cflags of
# build_set) and archives the objects into LIB.
make_lib() {
	lib=$1
	shift
	objs=
	for s in "$@"; do
		# decode/scene/json -> decode_scene_json.o: one name a path.
		o="$dir/$(echo "$s" | tr / _).o"
		$cc -std=c11 $cflags $CPPFLAGS $PKG_CFLAGS -c \
			"$SRCDIR/src/$s.c" -o "$o"
		objs="$objs $o"
	done
	rm -f "$lib"
	ar rcs "$lib" $objs
}

# build_set DIR CC CFLAGS LINKFLAGS MAIN PREFIX: objects, a static
# library, and one binary per target, DIR/PREFIX<target>.
build_set() {
	dir=$1 cc=$2 cflags=$3 ldflags=$4 main=$5 prefix=$6
	mkdir -p "$dir"
	make_lib "$dir/libfuzzccsfs.a" $LIBSRC
	tree_wanted=
	for t in $TARGETS; do
		case " $TREE_TARGETS " in *" $t "*) tree_wanted=1 ;; esac
	done
	[ -z "$tree_wanted" ] || make_lib "$dir/libfuzzccsfs_tree.a" $TREESRC
	if [ -n "$main" ]; then
		$cc -std=c11 $cflags $CPPFLAGS -c "$main" -o "$dir/replay_main.o"
		main="$dir/replay_main.o"
	fi
	for t in $TARGETS; do
		$cc -std=c11 $cflags $CPPFLAGS $PKG_CFLAGS -c \
			"$SRCDIR/fuzz/fuzz_$t.c" -o "$dir/fuzz_$t.o"
		tree=
		case " $TREE_TARGETS " in
		*" $t "*) tree="$dir/libfuzzccsfs_tree.a" ;;
		esac
		$cc $cflags $ldflags -o "$dir/$prefix$t" "$dir/fuzz_$t.o" $main \
			$tree "$dir/libfuzzccsfs.a" $PKG_LIBS -pthread
	done
}

cmd=${1:-build}
[ $# -gt 0 ] && shift
case $cmd in
build)
	[ $# -gt 0 ] && TARGETS="$*"
	san="-fsanitize=address,undefined -fno-sanitize-recover=all"
	build_set "$OUT/bin" "$CLANG" "-g -O1 -fno-omit-frame-pointer $san -fsanitize=fuzzer-no-link" \
		"-fsanitize=fuzzer" "" fuzz_
	echo "built: $OUT/bin/fuzz_{$(echo $TARGETS | tr ' ' ,)}"
	;;
run)
	secs=${1:?usage: build.sh run SECONDS [TARGET...]}
	shift
	[ $# -gt 0 ] && TARGETS="$*"
	[ -x "$OUT/bin/fuzz_archive" ] || "$0" build
	status=0
	jobs=${FUZZ_JOBS:-1}
	if [ "$jobs" -gt 1 ]; then
		# Round robin into $jobs lists, each run by a child one
		# target after another; the run fails if any child does.
		pids=
		j=0
		while [ "$j" -lt "$jobs" ]; do
			list=$(echo $TARGETS | tr ' ' '\n' |
				awk -v j="$j" -v n="$jobs" '(NR - 1) % n == j')
			if [ -n "$list" ]; then
				FUZZ_JOBS=1 "$0" run "$secs" $list &
				pids="$pids $!"
			fi
			j=$((j + 1))
		done
		for p in $pids; do wait "$p" || status=1; done
		exit $status
	fi
	for t in $TARGETS; do
		work="$OUT/corpus/$t" art="$OUT/artifacts/$t"
		mkdir -p "$work" "$art"
		seeds=
		for d in "$SRCDIR/fuzz/corpus/$t" "$SRCDIR/fuzz/regressions/$t"; do
			[ -d "$d" ] && seeds="$seeds $d"
		done
		echo "== fuzz_$t for ${secs}s"
		# New inputs go to $work (the first directory), never to the
		# committed corpora.
		if ! UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		     "$OUT/bin/fuzz_$t" -max_total_time="$secs" -rss_limit_mb=2048 \
			-max_len="$(max_len "$t")" -timeout=25 -print_final_stats=1 \
			-artifact_prefix="$art/" $FUZZ_ARGS "$work" $seeds \
			2>"$OUT/fuzz_$t.log"; then
			echo "fuzz_$t FAILED: see $OUT/fuzz_$t.log and $art/" >&2
			tail -n 40 "$OUT/fuzz_$t.log" >&2
			status=1
		fi
		grep -E '^#[0-9]+ +DONE|stat::number_of_executed_units' "$OUT/fuzz_$t.log" || true
	done
	exit $status
	;;
replay)
	[ $# -gt 0 ] && TARGETS="$*"
	build_set "$OUT/replay" "$REPLAY_CC" "-g -O1 $REPLAY_SAN" "" \
		"$SRCDIR/fuzz/replay_main.c" replay_
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		FUZZ_REPLAY_DIR="$OUT/replay" FUZZ_TARGETS="$TARGETS" \
		TESTS_SRCDIR="$SRCDIR/tests" $SHELL_CMD "$SRCDIR/fuzz/replay.sh"
	;;
*)
	sed -n '2,17p' "$0" >&2
	exit 2
	;;
esac
