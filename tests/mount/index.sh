#!/bin/sh
# SPDX-License-Identifier: MIT
# index.sh - DATA.BIN's members from the game's index (the executable
# SYSTEM.CNF names): the same member folders as the scan's, %categories/
# and its links, %members.txt's category and table columns, each broken
# executable leaving the scan with one log line, records that disagree
# reported and logged once, ccsfs-check's report, and a first ls that
# reads no member, not all of the archive.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

CHECK=${CCSFS_CHECK:-$(dirname "$CCSFS")/ccsfs-check}
disc=$work/disc
exes=$work/exes
mnt=$work/mnt
"$CCSGEN" sample "$disc" --exes "$exes" >/dev/null ||
	{ echo "Bail out! ccsgen sample"; exit 1; }
d=$mnt/DATA/DATA.BIN

# members MOUNT: the member folders, in ls's order; columns 1-8 of the
# listing (what the scan says, in archive order); the tree two levels
# down, each node's type, size and mtime (a listing from the table
# leaves a folder's mtime to its first stat, which must give the same).
members() { ls "$1/DATA/DATA.BIN" | grep -v '^%'; }
scan_cols() { cut -d' ' -f1-8 "$1/DATA/DATA.BIN/%members.txt" | sed 1d; }
tree_of() {
	(cd "$1/DATA/DATA.BIN" && find . -maxdepth 2 -path './%*' -prune -o \
		-printf '%p %y %s %T@\n' | sort)
}

# The reference: no executable, the scan as it always was.
check "mounts without the executable" mount_fg "$(variant none)" "$mnt" "$work/none.log"
members "$mnt" >"$work/members.scan"
scan_cols "$mnt" >"$work/cols.scan"
tree_of "$mnt" >"$work/tree.scan"
cp "$d/fld000/fld000.ccs" "$work/fld000.ccs"
check "without the executable: no %categories/" test ! -e "$d/%categories"
check_eq "without the executable: category and table are - -" "" \
	"$(awk 'NR > 1 && ($9 != "-" || $10 != "-")' "$d/%members.txt")"
check "unmounts" unmount_fg "$mnt"
check_eq "without the executable: one log line says why" \
	"1 SLUS_202.67 (BOOT2 in SYSTEM.CNF): not in the source" \
	"$(grep -c "index is not used" "$work/none.log") $(sed -n 's/.*index is not used: //p' "$work/none.log")"

check "mounts the sample folder" mount_fg "$disc" "$mnt" "$work/good.log"
check_eq "the same member folders, with and without the table" \
	"$(cat "$work/members.scan")" "$(members "$mnt")"
check_eq "the same tree: types, sizes and mtimes two levels down" \
	"$(cat "$work/tree.scan")" "$(tree_of "$mnt")"
check_eq "the same listing columns 1-8, in the same order" \
	"$(cat "$work/cols.scan")" "$(scan_cols "$mnt")"
check_eq "%members.txt's head names the new columns" \
	"# member status offset stored compressed inflated crc32 mtime category table" \
	"$(head -n 1 "$d/%members.txt")"
check_eq "every member: table ok" "" \
	"$(awk 'NR > 1 && $0 !~ / table ok$/' "$d/%members.txt")"
check_eq "%members.txt: size before reading equals bytes read" \
	"$(stat -c %s "$d/%members.txt")" "$(wc -c <"$d/%members.txt")"
check_eq "categories by name prefix" "xasc00 cmn|chr000 pc|fld000 field|xbig00 boss|pc000 pc" \
	"$(awk '$1 ~ /^(xasc00|chr000|pc000|fld000|xbig00)$/ { printf "%s%s %s", s, $1, $9; s = "|" }' "$d/%members.txt")"
check_eq "%categories/: the game's twenty" \
	"boss cmn demo desktop direct dungeon effect enemy equip event field gcmn gimmick menu npc pc skill spc toppage town" \
	"$(ls "$d/%categories" | tr '\n' ' ' | sed 's/ $//')"
check_eq "%categories/pc: its members" "chr000 pc000" "$(ls "$d/%categories/pc" | tr '\n' ' ' | sed 's/ $//')"
check_eq "a category's member is a link to ../../NAME" "../../pc000" "$(readlink "$d/%categories/pc/pc000")"
check "the link leads to the member" cmp "$d/%categories/pc/pc000/pc000.ccs" "$d/pc000/pc000.ccs"
check_eq "every member in one category" "$(wc -l <"$work/members.scan")" \
	"$(find "$d/%categories" -mindepth 2 -type l | wc -l)"
bad=""
for l in "$d"/%categories/*/*; do
	c=$(basename "$(dirname "$l")")
	m=$(basename "$l")
	[ "$(awk -v m="$m" '$1 == m { print $9 }' "$d/%members.txt")" = "$c" ] || bad="$bad $c/$m"
done
check_eq "each link's category is its listing line's" "" "$bad"
check "unmounts" unmount_fg "$mnt"
check_eq "with the executable: nothing logged" "" \
	"$(cat "$work/good.log")"

if command -v readelf >/dev/null; then
	readelf -s "$disc/SLUS_202.67" >"$work/readelf.out" 2>&1
	check_eq "readelf -s reads the executable's symbols" \
		"categoryFDTbl cateCDOfsTbl pcCCSTbl directCCSTbl" \
		"$(awk '$8 ~ /^(categoryFDTbl|cateCDOfsTbl|pcCCSTbl|directCCSTbl)$/ { printf "%s%s", s, $8; s = " " }' "$work/readelf.out")"
	check_eq "readelf: no warnings" "" "$(grep -i 'warning\|error' "$work/readelf.out")"
	check "readelf -l: one loaded segment at 0x100" sh -c \
		"readelf -l '$disc/SLUS_202.67' | grep -q 'LOAD *0x000100 0x00100000'"
else
	skip "readelf reads the executable" "no readelf (binutils)"
fi

if command -v genisoimage >/dev/null &&
   genisoimage -quiet -iso-level 2 -V SLUS_20267 -o "$work/disc.iso" "$disc"; then
	check "mounts the image" mount_fg "$work/disc.iso" "$mnt" "$work/iso.log"
	check "image: %categories/ there too" test -d "$d/%categories/pc"
	check_eq "image: every member table ok" "" \
		"$(awk 'NR > 1 && $0 !~ / table ok$/' "$d/%members.txt")"
	check "unmounts the image" unmount_fg "$mnt"
else
	skip "the image uses the table" "no genisoimage"
fi

# Broken executables: the scan, one line saying why, no %categories/.
for v in stripped:"no symbol table" noend:"has no end" garbage:"lie outside the file"; do
	name=${v%%:*}
	why=${v#*:}
	check "$name: mounts" mount_fg "$(variant "$name")" "$mnt" "$work/$name.log"
	check_eq "$name: the same member folders" "$(cat "$work/members.scan")" "$(members "$mnt")"
	check "$name: no %categories/" test ! -e "$d/%categories"
	check_eq "$name: the scan's listing" "" \
		"$(awk 'NR > 1 && ($9 != "-" || $10 != "-")' "$d/%members.txt")"
	check "$name: unmounts" unmount_fg "$mnt"
	check_eq "$name: one log line says why ($why)" "1 1" \
		"$(grep -c 'index is not used' "$work/$name.log") $(grep -c "index is not used.*$why" "$work/$name.log")"
done

# A record whose usize is wrong: reported on its line, logged once.
check "usize: mounts" mount_fg "$(variant usize)" "$mnt" "$work/usize.log"
isize=$(awk '$1 == "chr000" { print $6 }' "$d/%members.txt")
check_eq "usize: chr000's line says which field and both values" \
	"usize $((isize + 1)) != $isize" \
	"$(awk '$1 == "chr000" { $1 = $2 = $3 = $4 = $5 = $6 = $7 = $8 = $9 = ""; sub(/^ +/, ""); print }' "$d/%members.txt")"
check_eq "usize: the other members table ok" "1" \
	"$(awk 'NR > 1 && $0 !~ / table ok$/' "$d/%members.txt" | wc -l)"
check "usize: chr000 is served from the archive" \
	cmp "$d/chr000/chr000.ccs" "$d/%categories/pc/chr000/chr000.ccs"
check_eq "usize: its .ccs has the real ISIZE" "$isize" "$(stat -c %s "$d/chr000/chr000.ccs")"
check "usize: unmounts" unmount_fg "$mnt"
check_eq "usize: logged once" "1" "$(grep -c 'chr000: the game.s index disagrees' "$work/usize.log")"

# The checks run on the worker after the listing: a bare ls is enough for
# the disagreement to be logged, once, without a stat or a read.
check "usize: mounts again" mount_fg "$(variant usize)" "$mnt" "$work/usize2.log"
ls "$d" >/dev/null
for _ in $(seq 1 100); do
	grep -q 'chr000: the game.s index disagrees' "$work/usize2.log" && break
	sleep 0.05
done
check "usize: unmounts again" unmount_fg "$mnt"
check_eq "usize: after a bare ls the worker logged it, once" "1" \
	"$(grep -c 'chr000: the game.s index disagrees' "$work/usize2.log")"

# A record whose name is not its member's: the folder is the record's
# name (the listing reads no header), the bytes are the archive's.
check "name: mounts" mount_fg "$(variant name)" "$mnt" "$work/name.log"
check_eq "name: the folders, flx000 for fld000" \
	"$(sed 's/^fld000$/flx000/' "$work/members.scan" | sort)" "$(members "$mnt" | sort)"
check_eq "name: flx000's line says the record's name and the member's" \
	"name flx000.cmp != fld000.cmp" \
	"$(awk '$1 == "flx000" { $1 = $2 = $3 = $4 = $5 = $6 = $7 = $8 = $9 = ""; sub(/^ +/, ""); print }' "$d/%members.txt")"
check "name: flx000 is served from the archive (fld000's bytes)" \
	cmp "$d/flx000/flx000.ccs" "$work/fld000.ccs"
check_eq "name: the other members table ok" "1" \
	"$(awk 'NR > 1 && $0 !~ / table ok$/' "$d/%members.txt" | wc -l)"
check "name: unmounts" unmount_fg "$mnt"
check_eq "name: logged once" "1" "$(grep -c 'flx000: the game.s index disagrees' "$work/name.log")"

# A member no record names: found by the gap scan, marked scan only.
check "missing: mounts" mount_fg "$(variant missing)" "$mnt" "$work/missing.log"
check_eq "missing: the same member folders" "$(cat "$work/members.scan")" "$(members "$mnt")"
check_eq "missing: empty is scan only, in no category" "- scan only" \
	"$(awk '$1 == "empty" { print $9, $10, $11 }' "$d/%members.txt")"
check "missing: not under %categories/cmn" test ! -e "$d/%categories/cmn/empty"
check "missing: unmounts" unmount_fg "$mnt"

if [ -x "$CHECK" ]; then
	"$CHECK" "$disc" >"$work/check.good" 2>&1
	check_eq "ccsfs-check: the good table, exit 0" "0" "$?"
	"$CHECK" "$work/v-usize" >"$work/check.usize" 2>/dev/null
	check_eq "ccsfs-check: the wrong usize, exit 1" "1" "$?"
	check_eq "ccsfs-check: the wrong usize reported" \
		"DATA/DATA.BIN/chr000: the game's index: record CHR000.CCS: usize $((isize + 1)) != $isize" \
		"$(grep -v '^summary' "$work/check.usize")"
	"$CHECK" "$work/v-name" >"$work/check.name" 2>/dev/null
	check_eq "ccsfs-check: the wrong name, exit 1" "1" "$?"
	check_eq "ccsfs-check: the wrong name reported" \
		"DATA/DATA.BIN/flx000: the game's index: record FLX000.CCS: name flx000.cmp != fld000.cmp" \
		"$(grep -v '^summary' "$work/check.name")"
	"$CHECK" "$work/v-missing" >"$work/check.missing" 2>/dev/null
	check_eq "ccsfs-check: the member no record names" \
		"DATA/DATA.BIN/empty: the game's index: no record names this member (found by the scan only)" \
		"$(grep -v '^summary' "$work/check.missing")"
else
	skip "ccsfs-check compares the table" "no ccsfs-check"
fi

# A first ls reads the tables and no member (the first's header but for
# the table's sanity), not the archive: with the worker off, what the
# daemon reads over the ls is the executable and a few sectors, where
# checking each of the 100 members would read at least 100 headers.
full=$work/full
"$CCSGEN" full "$full" --members 100 >/dev/null || { echo "Bail out! ccsgen full"; exit 1; }
archive=$(stat -c %s "$full/DATA/DATA.BIN")
rchar() { awk '$1 == "rchar:" { print $2 }' "/proc/$1/io"; }
for how in table scan; do
	src=$full
	if [ "$how" = scan ]; then
		src=$work/full-scan
		mkdir -p "$src"
		for f in DATA STREAM SYSTEM.CNF OUTSIDE.BIN; do ln -sf "$full/$f" "$src/$f"; done
	fi
	mount_fg "$src" "$mnt" "$work/full-$how.log" -o noreadahead ||
		not_ok "full: mounts ($how)"
	before=$(rchar "$fg_pid")
	ls "$d" >/dev/null
	after=$(rchar "$fg_pid")
	eval "read_$how=$((after - before))"
	unmount_fg "$mnt"
done
exe=$(stat -c %s "$full/SLUS_202.67")
echo "# first ls of a $archive-byte DATA.BIN read $read_table bytes with the table ($exe of them the executable), $read_scan without"
check "without the table the first ls reads the whole archive" test "$read_scan" -ge "$archive"
check "with the table it reads the executable and under 8 sectors more" \
	test "$read_table" -lt $((exe + 8 * 2048))

# With the workers on, DATA.BIN is listed from the index, and its members
# checked, as the mount starts: once the daemon has stopped reading, a
# first ls reads nothing of the disc (only FUSE's requests) and lists
# every member.
mount_fg "$full" "$mnt" "$work/full-warm.log" || not_ok "full: mounts (warm)"
prev=-1
for _ in $(seq 1 50); do
	now=$(rchar "$fg_pid")
	[ "$now" = "$prev" ] && break
	prev=$now
	sleep 0.2
done
before=$(rchar "$fg_pid")
listed=$(ls "$d" | grep -vc '^%')
read_warm=$(($(rchar "$fg_pid") - before))
check_eq "warmed at mount: the first ls lists every member" 100 "$listed"
check "warmed at mount: the first ls read $read_warm bytes, under a sector" \
	test "$read_warm" -lt 2048
unmount_fg "$mnt"
check_eq "warmed at mount: nothing logged" "" "$(cat "$work/full-warm.log")"

# Without the executable nothing is warmed: the scan of the whole archive
# waits for a reader.
mount_fg "$work/full-scan" "$mnt" "$work/full-cold.log" ||
	not_ok "full: mounts (no executable, workers on)"
sleep 1
idle=$(rchar "$fg_pid")
check "no executable: the mount read $idle bytes, not the archive" \
	test "$idle" -lt $((archive / 2))
check_eq "no executable: the first ls lists every member" 100 \
	"$(ls "$d" | grep -vc '^%')"
unmount_fg "$mnt"

done_testing
