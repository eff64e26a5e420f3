#!/bin/sh
# SPDX-License-Identifier: MIT
# text.sh - the game's text: %text/'s templates, exactly the generator's
# messages (read back with polib), accepted by msgfmt --check and made
# into a translation by msginit; their sizes exact at stat; listing and
# reading them reads no archive; a stripped executable with and without
# -o symbols=; the stream tables in STREAM's %members.txt and
# ccsfs-check's report of a lying one; subtitles.srt read by a SubRip
# parser (pysrt).
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

CHECK=${CCSFS_CHECK:-$(dirname "$CCSFS")/ccsfs-check}
POCHECK=${TESTS_SRCDIR:-$(dirname "$0")/..}/text/pocheck.py
disc=$work/disc
exes=$work/exes
mnt=$work/mnt
t=$mnt/%text
"$CCSGEN" sample "$disc" --exes "$exes" >/dev/null ||
	{ echo "Bail out! ccsgen sample"; exit 1; }
"$CCSGEN" text "$work/messages.json" ||
	{ echo "Bail out! ccsgen text"; exit 1; }
pots="events.pot events-parody.pot subtitles.pot subtitles-parody.pot"

if command -v readelf >/dev/null; then
	check_eq "readelf -W -a warns of nothing in the executable" "" \
		"$(readelf -W -a "$disc/SLUS_202.67" 2>&1 >/dev/null)"
else
	skip "readelf on the executable" "no readelf (binutils)"
fi

# ---- the templates ----
check "mounts the sample" mount_fg "$disc" "$mnt" "$work/mount.log"
check_eq "%text/ holds the four templates" \
	"events-parody.pot events.pot subtitles-parody.pot subtitles.pot" \
	"$(ls "$t" | tr '\n' ' ' | sed 's/ $//')"
for p in $pots; do
	size=$(stat -c %s "$t/$p")
	check_eq "$p: the size at stat is its bytes'" "$size" \
		"$(cat "$t/$p" | wc -c)"
	cp "$t/$p" "$work/$p"
done
if command -v msgfmt >/dev/null && command -v msginit >/dev/null; then
	for p in $pots; do
		check "msgfmt --check accepts $p" \
			msgfmt --check --statistics -o /dev/null "$work/$p"
		check "msginit makes fr.po of $p" msginit --no-translator \
			-l fr -i "$work/$p" -o "$work/fr-$p.po"
		check "msgfmt --check accepts fr.po of $p" \
			msgfmt --check -o /dev/null "$work/fr-$p.po"
	done
else
	skip "msgfmt and msginit" "no gettext"
fi
if "$PY" -c 'import polib' 2>/dev/null; then
	"$PY" "$POCHECK" "$t" "$work/messages.json" >"$work/pocheck.out" 2>&1
	check_eq "polib reads every entry as the generator's message" "" \
		"$(grep -v '^ok\|^1\.\.' "$work/pocheck.out")"
	check "polib: 25 checks" grep -qx '1\.\.25' "$work/pocheck.out"
else
	skip "the templates through polib" "no python3-polib"
fi
check "a template names its context and comments" \
	grep -qx 'msgctxt "event 1 message 4"' "$t/events.pot"
check "the window mode in a comment" grep -qx \
	'#\. window: chains to the next message, the text at once (emode 0x101)' \
	"$t/events.pot"
check "the subtitle flag in a comment" grep -qx \
	'#\. flag 0x800: shown with Movie Text off too' "$t/subtitles.pot"
check "no entry for a null event or the zero record" \
	sh -c "! grep -q 'event 4 \|event 2 message 1\"' '$t/events.pot'"

# ---- the stream tables ----
m=$mnt/STREAM/STR1.BIN/%members.txt
check_eq "str0001e: streams 2 and 7, table ok" "stream:2,7 table ok" \
	"$(awk '$1 == "str0001e" { print $9, $10, $11 }' "$m")"
check_eq "str0001: streams 2 and 7, table ok" "stream:2,7 table ok" \
	"$(awk '$1 == "str0001" { print $9, $10, $11 }' "$m")"
check_eq "str8000e: in no stream" "- no stream record" \
	"$(awk '$1 == "str8000e" { print $9, $10, $11, $12 }' "$m")"

# ---- subtitles.srt ----
s=$mnt/STREAM/STR1.BIN/str0001
check "str0001 has subtitles.srt" test -f "$s/subtitles.srt"
check_eq "subtitles.srt: its size at stat is its bytes'" \
	"$(stat -c %s "$s/subtitles.srt")" "$(cat "$s/subtitles.srt" | wc -c)"
check "subtitles.srt: the first cue, stream 2's line 0 at frames 8-18" \
	grep -qx '00:00:00,267 --> 00:00:00,600' "$s/subtitles.srt"
check "subtitles.srt: the speaker first" \
	grep -qx 'Orca: The twilight falls on The World.' "$s/subtitles.srt"
check "no error.txt: every line is in the table" test ! -e "$s/error.txt"
check "the setup file has no subtitles.srt" \
	test ! -e "$mnt/STREAM/STR1.BIN/str0001e/subtitles.srt"
if "$PY" -c 'import pysrt' 2>/dev/null; then
	check_eq "pysrt reads four cues, the last to the section's end" \
		"1 8 18 Orca: The twilight falls on The World.|Do not be afraid.
2 28 38 #0, do you hear me?
3 38 48 Aura: \"Help me,\" she said.|\\ and / both|End.
4 58 60 Orca: The twilight falls on The World.|Do not be afraid." \
		"$("$PY" -c '
import sys, pysrt
for c in pysrt.from_string(open(sys.argv[1], encoding="utf-8").read()):
    f = lambda t: round(t.ordinal * 30 / 1000)
    print(c.index, f(c.start), f(c.end), c.text.replace("\n", "|"))
' "$s/subtitles.srt")"
else
	skip "subtitles.srt through pysrt" "no python3-pysrt"
fi
check "unmounts" unmount_fg "$mnt"

# ---- listing and reading %text/ reads no archive ----
# Each archive in turn stalls every read (eio_preload.so): %text/ must
# still list and read at once.
shim=${EIO_PRELOAD:-$PWD/tests/faults/eio_preload.so}
if [ -f "$shim" ]; then
	_asan=$(ldd "$CCSFS" 2>/dev/null | awk '/libasan/ { print $3 }')
	for a in DATA/DATA.BIN STREAM/STR1.BIN; do
		FG_WRAP="env LD_PRELOAD=${_asan:+$_asan:}$shim CCSFS_EIO_FILE=$(realpath "$disc/$a") CCSFS_EIO_FROM=0 CCSFS_EIO_TO=999999999999 CCSFS_EIO_STALL=$work/release" \
			mount_fg "$disc" "$mnt" "$work/stall.log" -o noreadahead
		check "$a stalled: %text/ lists and reads" timeout 20 \
			sh -c "ls -l '$t' >/dev/null && cat '$t'/*.pot >/dev/null"
		touch "$work/release"
		check "$a stalled: unmounts" unmount_fg "$mnt"
		rm -f "$work/release" "$work/release.waiting"
	done
else
	skip "%text/ without the archives" "no eio_preload.so"
fi

# ---- a stripped executable ----
check "mounts a stripped executable" mount_fg "$(variant stripped)" "$mnt" \
	"$work/stripped.log"
check "stripped: no %text/" test ! -e "$t"
check "stripped: no stream numbers" sh -c \
	"! grep -q 'stream:' '$mnt/STREAM/STR1.BIN/%members.txt'"
check "unmounts" unmount_fg "$mnt"
check_eq "stripped: one log line says why there is no %text/" 1 \
	"$(grep -c 'no %text/: .*no symbol table' "$work/stripped.log")"
check "mounts it with -o symbols=" mount_fg "$(variant stripped)" "$mnt" \
	"$work/symbols.log" -o "symbols=$exes/symbols.txt"
for p in $pots; do
	check "symbols=: $p as the unstripped one's" cmp "$t/$p" "$work/$p"
done
check "symbols=: DATA.BIN from the index" test -d "$mnt/DATA/DATA.BIN/%categories"
check "symbols=: stream numbers" grep -q 'stream:2,7 table ok' \
	"$mnt/STREAM/STR1.BIN/%members.txt"
cp "$mnt/STREAM/STR1.BIN/str0001/subtitles.srt" "$work/symbols.srt"
check "unmounts" unmount_fg "$mnt"
check_fails "a symbol list that is not one: the mount refuses" \
	"$CCSFS" -o "symbols=$disc/SYSTEM.CNF" "$disc" "$mnt"
check_fails "a symbol list that is missing: the mount refuses" \
	"$CCSFS" -o "symbols=$work/none.txt" "$disc" "$mnt"

# ---- ccsfs-check ----
check "ccsfs-check: the sample's tables agree, exit 0" "$CHECK" "$disc"
check_fails "ccsfs-check: a lying stream table, exit 1" \
	"$CHECK" "$(variant streams)"
"$CHECK" "$(variant streams)" >"$work/check-streams.out" 2>&1
check "ccsfs-check: a record whose gzip is not the trailer's" grep -q \
	'STR1.BIN/str0001: streamTbl: stream 2 record 2 (str0001): gzip [0-9]* != the ISIZE where size ends the member' \
	"$work/check-streams.out"
check "ccsfs-check: a record's size and gzip that lie, once inflated" grep -q \
	'STR1.BIN/str0001: streamTbl: stream 2 record 2 (str0001), once inflated: size \([0-9]*\) gzip \([0-9]*\), the member.s [0-9]* and [0-9]*$' \
	"$work/check-streams.out"
check "ccsfs-check: a record that lands on no member" grep -q \
	'streamTbl: stream 2 record 1 (str0001e) lands at 2048, where no member starts' \
	"$work/check-streams.out"
check "ccsfs-check: the subtitle line the table lacks" grep -q \
	'STR1.BIN/str0001: subtitles: frame 38 opens line 2 of stream 2, which its table (evStrMsgTbl) lacks' \
	"$work/check-streams.out"
"$CHECK" --symbols="$exes/symbols.txt" "$(variant stripped)" \
	>"$work/check-stripped.out" 2>&1
# The stripped executable is smaller: the bytes read differ, no more.
check_eq "ccsfs-check --symbols=: the stripped executable as the sample" \
	"$("$CHECK" "$disc" 2>&1 | sed 's/bytes [0-9]*/bytes N/')" \
	"$(sed 's/bytes [0-9]*/bytes N/' "$work/check-stripped.out")"

done_testing
