#!/bin/sh
# SPDX-License-Identifier: MIT
# shape.sh - the full-size synthetic disc has the real disc's shape: its
# DATA.BIN's members, objects by prefix and chunks by kind each within
# 10 % of the Infection disc's (tests/gen/shape.py reads the archive
# itself), a few big field and town members among many small ones, and
# the small shape fails the same check.  Then the mount: DATA.BIN lists
# every member, and a sample of members (the biggest, the older
# versions', FRAMEBUF, every 64th) walks without an error, shows one
# folder per object that owns a chunk, by prefix as the archive has them,
# and makes its scene.glb.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

shape=${TESTS_SRCDIR:-$(dirname "$0")/..}/gen/shape.py
disc=$work/full
mnt=$work/mnt
t0=$(date +%s.%N)
"$CCSGEN" full "$disc" >"$work/gen.out" || { echo "Bail out! ccsgen full"; exit 1; }
t1=$(date +%s.%N)
echo "# ccsgen full: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
sed 's/^/# /' "$work/gen.out"
archive=$disc/DATA/DATA.BIN

"$PY" "$shape" "$archive" --check >"$work/check.out" 2>&1
check_eq "shape.py: every count within 10 % of the Infection disc's" 0 "$?"
sed 's/^/# /' "$work/check.out"
"$PY" "$shape" "$archive" --members >"$work/members.txt" ||
	{ echo "Bail out! shape.py --members"; exit 1; }

# Per member: name, objects.  A few of thousands, most of a few hundred.
awk '$1 ~ /\.cmp$/ { print $2, $1 }' "$work/members.txt" | sort -n >"$work/sizes"
big=$(awk '$1 >= 5000 && $1 <= 20000' "$work/sizes" | wc -l)
over=$(awk '$1 > 20000' "$work/sizes" | wc -l)
median=$(awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' "$work/sizes")
check "ten to thirty members of 5,000 to 20,000 objects ($big)" \
	test "$big" -ge 10 -a "$big" -le 30
check_eq "no member of more than 20,000 objects" 0 "$over"
check "most members are small: the median holds under 500 objects ($median)" \
	test "$median" -lt 500

# The check must fail on a disc of another shape: the small one.
"$CCSGEN" full "$work/small" --shape small --members 40 >/dev/null ||
	{ echo "Bail out! ccsgen full --shape small"; exit 1; }
"$PY" "$shape" "$work/small/DATA/DATA.BIN" --check >"$work/small.out" 2>&1
rc=$?
outside=$(grep -c 'OUTSIDE 10 %' "$work/small.out")
check "shape.py --check fails on the small shape (exit $rc, $outside counts outside)" \
	test "$rc" -eq 1 -a "$outside" -ge 10

check "mounts the full-size disc" mount_ccsfs "$disc" "$mnt"
d=$mnt/DATA/DATA.BIN
check_eq "DATA.BIN lists every member" \
	"$(grep -c '\.cmp ' "$work/members.txt")" "$(ls "$d" | grep -vc '^%')"

# The sample: the biggest member, the older versions', FRAMEBUF and every
# 64th in archive order.
{
	tail -n 1 "$work/sizes" | awk '{ print $2 }'
	awk '$1 ~ /^(xold00[0-3]|framebuf)\.cmp$/ { print $1 }' "$work/members.txt"
	awk '$1 ~ /\.cmp$/ && NR % 64 == 1 { print $1 }' "$work/members.txt"
} | sed 's/\.cmp$//' | sort -u >"$work/sample"
bad=""
nglb=0
while IFS= read -r m; do
	want=$(awk -v m="$m.cmp" '$1 == m' "$work/members.txt" |
		sed 's/.*| //' | tr ' ' '\n' | sed 's/^\([A-Z]*_\)\([0-9]*\)$/\2 \1/' |
		sort -k2)
	got=$(find "$d/$m" -mindepth 1 -maxdepth 1 -type d ! -name chunks -printf '%f\n' |
		sed 's/_.*/_/' | sort | uniq -c | awk '{ print $1, $2 }' | sort -k2)
	[ "$want" = "$got" ] || bad="$bad $m"
	[ -e "$d/$m/error.txt" ] && bad="$bad $m(error.txt)"
	if [ "$m" != framebuf ]; then
		if [ -s "$d/$m/scene.glb" ]; then
			nglb=$((nglb + 1))
		else
			bad="$bad $m(scene.glb)"
		fi
	fi
done <"$work/sample"
n=$(wc -l <"$work/sample")
check_eq "$n members sampled: object folders by prefix as the archive's, no error.txt, a scene.glb" "" "$bad"
check "the sample has tens of members ($n, $nglb scene.glb)" test "$n" -ge 16
check "unmounts cleanly" unmount "$mnt"

done_testing
