#!/bin/sh
# SPDX-License-Identifier: MIT
# dbmod.sh - model databases (DBnnMOD.BIN) as folders of models: found by
# content, each model raw, as text and as OBJ; broken ones say why.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

dbs=$work/dbs
mnt=$work/mnt
"$CCSGEN" dbmod "$dbs" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
check "mounts a folder of databases" mount_ccsfs "$dbs" "$mnt"
check "a database is a folder" test -d "$mnt/DB22MOD.BIN"
check "a file named like one without the magic passes through" cmp "$mnt/DB08MOD.BIN" "$dbs/DB08MOD.BIN"
check_eq "one folder per model id present, four digits" "0000 0001 0005 0102 models.txt" \
	"$(ls "$mnt/DB22MOD.BIN" | tr '\n' ' ' | sed 's/ $//')"
check "models.txt has a line per table entry" sh -c \
	"test \$(grep -vc '^#' '$mnt/DB22MOD.BIN/models.txt') = 5"
check "models.txt says which offset reading the database uses" \
	grep -q "count from the model's start" "$mnt/DB22MOD.BIN/models.txt"
check "the other reading is found for DB23" \
	grep -q "count from the table's end" "$mnt/DB23MOD.BIN/models.txt"
check "both readings give the same OBJ" \
	cmp "$mnt/DB22MOD.BIN/0001/model.obj" "$mnt/DB23MOD.BIN/0001/model.obj"
check "quads are one face of four corners" \
	grep -q '^f [0-9/]* [0-9/]* [0-9/]* [0-9/]*$' "$mnt/DB22MOD.BIN/0001/model.obj"
cp "$mnt/DB22MOD.BIN/0001/model.obj" "$work/model1.obj"
check "model.bin ends with the 0xff section" sh -c \
	"tail -c 4 '$mnt/DB22MOD.BIN/0001/model.bin' | od -An -tx1 | grep -q 'ff 00 00 00'"
check "model.txt lists faces" grep -qi 'face' "$mnt/DB22MOD.BIN/0001/model.txt"
if command -v assimp >/dev/null; then
	bad=""
	for obj in "$mnt"/DB2[235]MOD.BIN/*/model.obj; do
		assimp info "$obj" >/dev/null 2>&1 || bad="$bad $obj"
	done
	check_eq "assimp loads every model.obj" "" "$bad"
else
	skip "assimp loads every model.obj" "no assimp (assimp-utils)"
fi
# Databases that follow the seed read whole: no model has an error line,
# GT faces' r, g, b past the colour count (or with no colours) included.
for d in DB22 DB23 DB25; do
	check_eq "$d: models.txt has no error line" "" \
		"$(grep -v '^#' "$mnt/${d}MOD.BIN/models.txt" | grep error)"
	check "$d: model.obj's corners are the bytes' vertices and colours" \
		$PY "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/dbmod_colours.py" "$dbs/${d}MOD.BIN" "$mnt/${d}MOD.BIN"
done
check_eq "DB25: every model, the ones without colours too" "0000 0001 0003 models.txt" \
	"$(ls "$mnt/DB25MOD.BIN" | tr '\n' ' ' | sed 's/ $//')"
b=$mnt/DB24MOD.BIN
nerr=$(ls "$b"/*/error.txt 2>/dev/null | wc -l)
check_eq "the broken database's bad models each have error.txt" 3 "$nerr"
check "a bad model's model.obj fails with EIO" sh -c \
	"for e in '$b'/*/error.txt; do cat \"\$(dirname \"\$e\")/model.obj\" 2>&1 >/dev/null | grep -q 'Input/output error' || exit 1; done"
check "its good models still read" sh -c "cat '$b/0000/model.obj' '$b/0004/model.obj' >/dev/null"
check "unmounts cleanly" unmount "$mnt"
single=$work/single
check "mounts a database as the source itself" mount_ccsfs "$dbs/DB22MOD.BIN" "$single"
check "its models are at the root" cmp "$single/0001/model.obj" "$work/model1.obj"
check "unmounts cleanly" unmount "$single"

done_testing
