#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh - ccsfs-check: over the sample disc it finds what a mount
# shows (find's counts) and no problem; over the broken archive it says
# what the mount's error.txt files say and names the files that fail.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

CHECK=${CCSFS_CHECK:-$(dirname "$CCSFS")/ccsfs-check}
[ -x "$CHECK" ] || skip_all "no ccsfs-check binary at $CHECK"
disc=$work/sample-disc
iso=$work/sample-disc.iso
mnt=$work/mnt
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen sample"; exit 1; }
src=$disc
# The image as `make sample` makes it, where genisoimage is at hand.
if command -v genisoimage >/dev/null &&
   genisoimage -quiet -iso-level 2 -V SLUS_20267 -o "$iso" "$disc"; then
	src=$iso
fi

# counts MOUNTPOINT: the summary line the mount's find(1) says is right.
counts() {
	_m=0; _o=0
	for _l in $(find "$1" -name '%members.txt'); do
		_a=$(dirname "$_l")
		# %categories/ (the game's index) holds links, not members.
		_m=$((_m + $(find "$_a" -mindepth 1 -maxdepth 1 -type d ! -name '%*' | wc -l)))
		_o=$((_o + $(find "$_a" -mindepth 2 -maxdepth 2 -type d ! -name chunks ! -path "$_a/%*" | wc -l)))
	done
	_t=$(find "$1" -type f -name '*.png' | wc -l)
	_d=$(find "$1" -type f -name '*.obj' | wc -l)
	_b=$(find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
	echo "summary: members $_m, objects $_o, textures $_t, models $_d, bytes $_b, failures $2"
}

"$CHECK" "$src" >"$work/sample.out" 2>"$work/sample.err"
check_eq "sample disc: exit 0" 0 "$?"
check_eq "sample disc: only the summary line" 1 "$(wc -l <"$work/sample.out")"
check_eq "no progress line when stderr is no terminal" "" "$(cat "$work/sample.err")"
check "mounts the sample disc" mount_ccsfs "$src" "$mnt"
expected=$(counts "$mnt" 0)
check_eq "sample disc: the counts are find's on the mount" "$expected" "$(tail -n 1 "$work/sample.out")"
check "unmounts the sample disc" unmount "$mnt"
case $expected in
*"members 0,"*|*"textures 0,"*|*"models 0,"*) not_ok "the sample has members, textures and models" ;;
*) ok "the sample has members, textures and models" ;;
esac
check_eq "sample folder: the same summary" "$expected" "$("$CHECK" "$disc" | tail -n 1)"
check_eq "a 1M cache: the same summary" "$expected" "$("$CHECK" --cache-size=1M "$src" | tail -n 1)"
check_eq "one worker: the same summary" "$expected" "$("$CHECK" --jobs=1 "$src" | tail -n 1)"
check "--json parses" sh -c "'$CHECK' --json '$src' | $PY -m json.tool >/dev/null"
check "--json: no problems, the same counts" sh -c "'$CHECK' --json '$src' | $PY -c '
import json, sys
j = json.load(sys.stdin)
s = j[\"summary\"]
line = \"summary: members %d, objects %d, textures %d, models %d, bytes %d, failures %d\" % (
    s[\"members\"], s[\"objects\"], s[\"textures\"], s[\"models\"], s[\"bytes\"], s[\"failures\"])
sys.exit(0 if j[\"problems\"] == [] and line == sys.argv[1] else 1)' '$expected'"

arc=$work/broken.bin
"$CCSGEN" broken "$arc" >/dev/null || { echo "Bail out! ccsgen broken"; exit 1; }
"$CHECK" "$arc" >"$work/broken.out" 2>"$work/broken.err"
check_eq "broken archive: exit 1" 1 "$?"
check "mounts the broken archive" mount_ccsfs "$arc" "$mnt"
# What the mount says failed: each error.txt line under its folder's
# path, and each file that cat(1) cannot read with its error.
(cd "$mnt" && find . -type f | sort | while IFS= read -r f; do
	p=${f#./}
	if [ "${p##*/}" = error.txt ]; then
		d=$(dirname "$p")
		grep -v '^$' "$f" | sed "s|^|$d: |"
	elif ! cat "$f" >/dev/null 2>"$work/cat.err"; then
		echo "$p: $(sed 's/.*: //' "$work/cat.err")"
	fi
done) | LC_ALL=C sort >"$work/broken.expected"
check "unmounts the broken archive" unmount "$mnt"
sed '$d' "$work/broken.out" | LC_ALL=C sort >"$work/broken.actual"
check "broken archive: the problem lines are the mount's error.txt lines and failing files" \
	diff "$work/broken.expected" "$work/broken.actual"
check "broken archive: a read failure says Input/output error" \
	grep -qx 'badcrc/badcrc.ccs: Input/output error' "$work/broken.out"
check "broken archive: an error.txt line under its member" \
	grep -q '^badcrc: inflate: incorrect data check' "$work/broken.out"
check_eq "broken archive: failures in the summary count the lines" \
	"$(wc -l <"$work/broken.actual")" \
	"$(tail -n 1 "$work/broken.out" | sed 's/.*failures //')"
check "broken archive: --json parses" sh -c "'$CHECK' --json '$arc' | $PY -m json.tool >/dev/null"
check_eq "broken archive: --json has every problem" "$(wc -l <"$work/broken.actual")" \
	"$("$CHECK" --json "$arc" | $PY -c 'import json, sys; print(len(json.load(sys.stdin)["problems"]))')"

# usage_status DESCRIPTION ARGS...: exit 2 and a message on stderr.
usage_status() {
	_d=$1
	shift
	"$CHECK" "$@" >"$work/usage.out" 2>"$work/usage.err"
	_s=$?
	if [ "$_s" = 2 ] && [ -s "$work/usage.err" ] && [ ! -s "$work/usage.out" ]; then
		ok "$_d: exit 2, a message on stderr"
	else
		not_ok "$_d: exit $_s"
		sed 's/^/# /' "$work/usage.err"
	fi
}
usage_status "no SOURCE"
usage_status "an unknown option" --bogus "$src"
usage_status "a bad --cache-size" --cache-size=lots "$src"
usage_status "a bad --jobs" --jobs=0 "$src"
usage_status "two SOURCEs" "$src" "$src"
usage_status "a missing SOURCE" "$work/none"
printf 'not an archive\n' >"$work/plain"
usage_status "a SOURCE that is no disc or archive" "$work/plain"
"$CHECK" "$work/none" 2>"$work/usage.err"
check "a missing SOURCE: named with its reason" grep -q 'none: No such file or directory' "$work/usage.err"
check "--help shows the usage" sh -c "'$CHECK' --help | grep -q '^usage: ccsfs-check .*SOURCE'"
check "--version names the version" sh -c "'$CHECK' --version | grep -q '^ccsfs-check [0-9]'"
man=${TESTS_SRCDIR:-$(dirname "$0")/..}/../man/ccsfs-check.1
check "the man page renders without warnings (groff -ww)" sh -c \
	"groff -ww -man -Tutf8 '$man' 2>&1 >/dev/null | grep -c . | grep -qx 0"
check "the man page has every option" sh -c \
	"grep -q 'cache\\\\-size' '$man' && grep -q 'jobs' '$man' && grep -q 'json' '$man'"

done_testing
