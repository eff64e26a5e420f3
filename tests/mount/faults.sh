#!/bin/sh
# SPDX-License-Identifier: MIT
# faults.sh - the source failing under a live mount: a disc image cut
# while mounted, read errors from the disc (an LD_PRELOAD shim), and images
# cut at many sector boundaries.  Whatever happens, a file reads as it
# should or fails with EIO: never other bytes, never a crash, never a hang.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

command -v genisoimage >/dev/null || skip_all "no genisoimage"
disc=$work/disc
iso=$work/sample.iso
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
# As `make sample` makes it.
genisoimage -quiet -iso-level 2 -V SLUS_20267 -o "$iso" "$disc" ||
	{ echo "Bail out! genisoimage"; exit 1; }
sector=2048

# The pristine image, mounted once for every comparison below.
ref=$work/ref
check "mounts the pristine image" mount_ccsfs "$iso" "$ref"
(cd "$ref" && find . -type f | sort) >"$work/files"

# compare_all MNT OUT [SKIP]: reads every file of the pristine tree under
# MNT, but those whose path SKIP (a regular expression) matches at its
# start; writes one line per file to
# OUT: "same", "eio", "gone" (not there: its folder failed), or what went
# wrong.  One python process for the lot (a shell loop of cat and cmp
# took a minute); a hang is ended by the timeout and fails the test.
cat >"$work/compare.py" <<'PY'
import errno, re, sys
mnt, ref, files, skip = sys.argv[1:5]
for f in open(files).read().splitlines():
    if skip and re.match(skip, f):
        continue
    try:
        with open(mnt + "/" + f, "rb") as fh:
            got = fh.read()
    except OSError as e:
        what = {errno.EIO: "eio", errno.ENOENT: "gone"}.get(e.errno)
        print(what + " " + f if what else "ERROR %s: %s" % (f, e.strerror))
        continue
    with open(ref + "/" + f, "rb") as fh:
        print(("same " if got == fh.read() else "DIFFERENT ") + f)
PY
compare_all() {
	timeout -s KILL 120 $PY "$work/compare.py" "$1" "$ref" "$work/files" "${3:-}" >"$2" ||
		echo "ERROR: the walk ended with status $?" >>"$2"
}

# ---- 1. The image cut while mounted ----
#
# A cache of 64K makes the daemon inflate members again after the cut,
# from what is left of the image.  Every folder is listed first, so the
# tree is the one the whole image gave; then files are read at two cuts:
# half the image (inside DATA/DATA.BIN), then a sector boundary in the
# middle of STREAM/STR1.BIN's second member.  (What the kernel has read
# once it keeps, so STREAM is left alone until the second cut.)
cut=$work/cut.iso
mnt=$work/mnt
log=$work/cut.log
cp "$iso" "$cut"
check "mounts a copy of the image in the foreground" mount_fg "$cut" "$mnt" "$log" -o cache_size=64K
check "every folder lists before the cut" sh -c "find '$mnt' -type d >/dev/null"
check "files read before the cut" sh -c \
	"cmp '$mnt/SYSTEM.CNF' '$ref/SYSTEM.CNF' && cmp '$mnt/DATA/DATA.BIN/xasc00/xasc00.ccs' '$ref/DATA/DATA.BIN/xasc00/xasc00.ccs'"

# ro_fds PID FILE: every descriptor PID holds on FILE is read-only, and
# there is at least one (the daemon never opens its source to write).
ro_fds() {
	_n=0
	for _fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$_fd")" = "$2" ] || continue
		_flags=$(awk '$1 == "flags:" { print $2 }' "/proc/$1/fdinfo/${_fd##*/}")
		[ $((_flags & 3)) = 0 ] || return 1
		_n=$((_n + 1))
	done
	[ "$_n" -gt 0 ]
}
check "the daemon holds the image read-only" ro_fds "$fg_pid" "$(realpath "$cut")"

size=$(stat -c %s "$iso")
half=$((size / 2 / sector * sector))
truncate -s "$half" "$cut"
# Pages the kernel already holds (a member handed to its page cache as
# the 64K cache let it go) would read as before: they are dropped, as
# root can, so that every file past the cut is read from the daemon.
sync
echo 1 >/proc/sys/vm/drop_caches 2>/dev/null || true
compare_all "$mnt" "$work/cut1" ./STREAM/
check_eq "cut at half: every file reads as before or fails with EIO" "" \
	"$(grep -v '^same \|^eio ' "$work/cut1")"
check "cut at half: files past the cut fail with EIO" grep -q '^eio ./DATA/SNDDATA.BIN$' "$work/cut1"
check "cut at half: a member past the cut fails with EIO" grep -q '^eio ./DATA/DATA.BIN/xbig00/xbig00.ccs$' "$work/cut1"
check "cut at half: files before it still read" grep -q '^same ./SLUS_202.67$' "$work/cut1"
check "cut at half: the daemon is alive" kill -0 "$fg_pid"
check "cut at half: the log says what failed" grep -q 'Input/output error\|shorter than\|cut off\|read error' "$log"

# Where STR1.BIN lies in the image, and its second member in it.
str_at=$($PY -c "import sys; d=open(sys.argv[1],'rb').read(); print(d.find(open(sys.argv[2],'rb').read(4096)))" \
	"$iso" "$disc/STREAM/STR1.BIN")
m2=$(awk 'NR == 3 { print $3 }' "$ref/STREAM/STR1.BIN/%members.txt")
m2_stored=$(awk 'NR == 3 { print $4 }' "$ref/STREAM/STR1.BIN/%members.txt")
check "the second member of STR1.BIN spans sectors to cut between" \
	test "$str_at" -gt 0 -a "$m2_stored" -gt $((4 * sector))
cut2=$((str_at + m2 + m2_stored / 2 / sector * sector))
truncate -s "$cut2" "$cut"
compare_all "$mnt" "$work/cut2"
check_eq "cut mid-member: every file reads as before or fails with EIO" "" \
	"$(grep -v '^same \|^eio ' "$work/cut2")"
check "cut mid-member: that member's audio fails with EIO" \
	grep -q '^eio ./STREAM/STR1.BIN/str0001/audio.wav$' "$work/cut2"
check "cut mid-member: the member before it still reads" \
	grep -q '^same ./STREAM/STR1.BIN/str0001e/str0001e.ccs$' "$work/cut2"
check "cut mid-member: the daemon is alive" kill -0 "$fg_pid"
check "unmounts after the cuts" unmount_fg "$mnt"
check_eq "the daemon exits 0" 0 "$fg_status"

# ---- 2. Read errors from the disc ----
#
# eio_preload.so makes pread fail with EIO over a range of the image's
# bytes: a sector inside DATA.BIN's member xbig00, then the extent of
# DATA/SNDDATA.BIN, a plain file.
shim=${EIO_PRELOAD:-$PWD/tests/faults/eio_preload.so}
# at FILE: where FILE's bytes lie in the pristine image.
at() {
	$PY -c "import sys; d=open(sys.argv[1],'rb').read(); print(d.find(open(sys.argv[2],'rb').read(4096)))" "$iso" "$1"
}
# mount_shim SOURCE FILE FROM TO [STALL]: SOURCE mounted, pread of FILE
# failing over [FROM, TO), or, with STALL, waiting there until that
# file exists.
mount_shim() {
	# Under AddressSanitizer its runtime must come first.
	_asan=$(ldd "$CCSFS" 2>/dev/null | awk '/libasan/ { print $3 }')
	FG_WRAP="env LD_PRELOAD=${_asan:+$_asan:}$shim CCSFS_EIO_FILE=$(realpath "$2") CCSFS_EIO_FROM=$3 CCSFS_EIO_TO=$4${5:+ CCSFS_EIO_STALL=$5}" \
		mount_fg "$1" "$mnt" "$log"
}
# mount_eio FROM TO [STALL]: the pristine image so.
mount_eio() {
	mount_shim "$iso" "$iso" "$@"
}
if [ -f "$shim" ]; then
	data_at=$(at "$disc/DATA/DATA.BIN")
	big=$(awk '$1 == "xbig00" { print $3 }' "$ref/DATA/DATA.BIN/%members.txt")
	big_stored=$(awk '$1 == "xbig00" { print $4 }' "$ref/DATA/DATA.BIN/%members.txt")
	check "xbig00 spans more than three sectors" test "$big_stored" -gt $((3 * sector))
	bad=$((data_at + big + 2 * sector))
	check "mounts with a bad sector inside xbig00" mount_eio "$bad" $((bad + sector))
	compare_all "$mnt" "$work/bad1"
	check_eq "bad sector: every file reads as before or fails with EIO" "" \
		"$(grep -v '^same \|^eio \|^gone ./DATA/DATA.BIN/xbig00/\|^DIFFERENT ./DATA/DATA.BIN/%members.txt$' "$work/bad1")"
	check_eq "bad sector: only xbig00's files fail" "" \
		"$(grep -v '^same \|/xbig00/\|/%members.txt$' "$work/bad1")"
	check "bad sector: xbig00's error.txt names the read error" \
		grep -q '^inflate: read error at byte [0-9]*: Input/output error$' "$mnt/DATA/DATA.BIN/xbig00/error.txt"
	check "bad sector: the listing marks xbig00 broken, the rest ok" sh -c \
		"test \"\$(awk 'NR > 1 && \$2 != \"ok\" { print \$1, \$2 }' '$mnt/DATA/DATA.BIN/%members.txt')\" = 'xbig00 broken'"
	check "bad sector: a log line names it" grep -q 'member xbig00 at byte [0-9]*: read error' "$log"
	check "bad sector: the daemon is alive" kill -0 "$fg_pid"
	check "bad sector: unmounts" unmount_fg "$mnt"
	check_eq "bad sector: the daemon exits 0" 0 "$fg_status"

	snd_at=$(at "$disc/DATA/SNDDATA.BIN")
	check "mounts with SNDDATA.BIN unreadable" mount_eio "$snd_at" $((snd_at + 4096))
	compare_all "$mnt" "$work/bad2"
	check_eq "unreadable file: it alone fails, with EIO" "eio ./DATA/SNDDATA.BIN" \
		"$(grep -v '^same ' "$work/bad2")"
	check "unreadable file: a log line names it" \
		grep -q '^ccsfs: DATA/SNDDATA.BIN: reading at byte 0: Input/output error$' "$log"
	check "unreadable file: unmounts" unmount_fg "$mnt"
	check_eq "unreadable file: the daemon exits 0" 0 "$fg_status"

	# Bytes slow instead (a drive that retries), in the middle of
	# OUTSIDE.BIN, a plain file of the disc's files mounted as a folder
	# (its first sector is read when the root is listed): a reader
	# waiting on them holds up no other reader, since the thread that
	# read its request hands the reading of the device to another before
	# it waits (src/fuse/loop.c).
	stall=$work/stall.go
	rm -f "$stall" "$stall.waiting"
	wait_file() {
		for _ in $(seq 100); do
			[ -e "$1" ] && return 0
			sleep 0.1
		done
		return 1
	}
	check "mounts the files with a slow range in OUTSIDE.BIN" \
		mount_shim "$disc" "$disc/OUTSIDE.BIN" 32768 36864 "$stall"
	timeout -s KILL 150 cat "$mnt/OUTSIDE.BIN" >"$work/stalled" &
	stalled=$!
	check "slow file: its read waits in the daemon" wait_file "$stall.waiting"
	compare_all "$mnt" "$work/slow" ./OUTSIDE.BIN
	check_eq "slow file: meanwhile every other file reads as before" "" \
		"$(grep -v '^same ' "$work/slow")"
	check "slow file: it was still waiting" kill -0 "$stalled"
	touch "$stall"
	wait "$stalled"
	check "slow file: then it reads whole" cmp "$work/stalled" "$disc/OUTSIDE.BIN"
	check "slow file: unmounts" unmount_fg "$mnt"
	check_eq "slow file: the daemon exits 0" 0 "$fg_status"

	# The same inside a member: its reader's thread waits in the
	# member's inflation, or for a worker inflating it ahead.
	rm -f "$stall" "$stall.waiting"
	check "mounts with a slow sector inside xbig00" \
		mount_eio "$bad" $((bad + sector)) "$stall"
	timeout -s KILL 150 cat "$mnt/DATA/DATA.BIN/xbig00/xbig00.ccs" >"$work/stalled" &
	stalled=$!
	check "slow member: its read waits in the daemon" wait_file "$stall.waiting"
	compare_all "$mnt" "$work/slow2" '\./DATA/DATA\.BIN/(xbig00/|%members\.txt$)'
	check_eq "slow member: meanwhile every other file reads as before" "" \
		"$(grep -v '^same ' "$work/slow2")"
	check "slow member: it was still waiting" kill -0 "$stalled"
	touch "$stall"
	wait "$stalled"
	check "slow member: then it reads whole" \
		cmp "$work/stalled" "$ref/DATA/DATA.BIN/xbig00/xbig00.ccs"
	check "slow member: unmounts" unmount_fg "$mnt"
	check_eq "slow member: the daemon exits 0" 0 "$fg_status"
else
	ok "read errors # SKIP no $shim"
fi

# ---- 3. Images cut at many sector boundaries ----
#
# Every sector of the first 40 (the volume descriptors, the directories),
# then every 7th up to the end of the files, then the whole image.  Each
# cut either fails to mount, exit 1 with one line saying why, or mounts,
# and then every file and link in it reads or fails with EIO (a file the
# cut image holds part of shows that part, so .ccs files and the disc's
# plain files read as the pristine ones or a prefix of them); never a
# signal, never a hang.
cat >"$work/walk.py" <<'PY'
import errno, os, sys
mnt, ref = sys.argv[1:3]
counts = {"ok": 0, "eio": 0}
def bad(what):
    print(what)
def onerror(e):
    if e.errno == errno.EIO:
        counts["eio"] += 1
    else:
        bad("ERROR listing %s: %s" % (e.filename, e.strerror))
for top, dirs, files in os.walk(mnt, onerror=onerror):
    rel_top = os.path.relpath(top, mnt)
    for name in files + dirs:
        path = os.path.join(top, name)
        rel = os.path.normpath(os.path.join(rel_top, name))
        try:
            if os.path.islink(path):
                os.readlink(path)
                counts["ok"] += 1
                continue
            if os.path.isdir(path):
                continue
            with open(path, "rb") as fh:
                got = fh.read()
        except OSError as e:
            if e.errno == errno.EIO:
                counts["eio"] += 1
            else:
                bad("ERROR %s: %s" % (rel, e.strerror))
            continue
        counts["ok"] += 1
        raw = rel.endswith(".ccs") or rel.count("/") == 0 or \
            (rel.count("/") == 1 and not os.path.isdir(os.path.join(ref, rel)))
        if raw and os.path.isfile(os.path.join(ref, rel)):
            want = open(os.path.join(ref, rel), "rb").read()
            if not want.startswith(got):
                bad("DIFFERENT %s" % rel)
print("read %(ok)d eio %(eio)d" % counts)
PY
sectors=$((size / sector))
last=$($PY -c "import sys; d=open(sys.argv[1],'rb').read(); print(len(d.rstrip(b'\\0')) // $sector + 1)" "$iso")
cuts="$(seq 1 40) $(seq 41 7 "$last") $sectors"
failed_cuts=""
mounted=0
refused=0
for k in $cuts; do
	truncate -s 0 "$cut"
	head -c $((k * sector)) "$iso" >"$cut"
	FG_WAIT=100 mount_fg "$cut" "$mnt" "$log"
	if ! mountpoint -q "$mnt"; then
		wait "$fg_pid"
		st=$?
		pids=$(echo "$pids" | sed "s/ $fg_pid\b//")
		lines=$(grep -c . "$log")
		if [ "$st" != 1 ] || [ "$lines" != 1 ] || ! grep -q '^ccsfs: .*cut.iso: ' "$log"; then
			failed_cuts="$failed_cuts $k(refused: exit $st, $lines lines)"
		fi
		refused=$((refused + 1))
		continue
	fi
	mounted=$((mounted + 1))
	timeout -s KILL 60 $PY "$work/walk.py" "$mnt" "$ref" >"$work/walk.out" 2>&1
	st=$?
	[ "$st" = 0 ] || failed_cuts="$failed_cuts $k(walk: status $st)"
	grep -q '^DIFFERENT\|^ERROR' "$work/walk.out" &&
		failed_cuts="$failed_cuts $k($(grep -m1 '^DIFFERENT\|^ERROR' "$work/walk.out"))"
	kill -0 "$fg_pid" 2>/dev/null || failed_cuts="$failed_cuts $k(daemon gone)"
	unmount_fg "$mnt" || failed_cuts="$failed_cuts $k(no unmount)"
	[ "$fg_status" = 0 ] || failed_cuts="$failed_cuts $k(exit $fg_status)"
done
check_eq "cut images: each refused cleanly or read without a crash, hang or wrong byte" "" "$failed_cuts"
check "cut images: some were refused ($refused) and some mounted ($mounted)" \
	test "$refused" -gt 10 -a "$mounted" -gt 20


# A folder source: a passed-through host file that shrinks under the mount
# fails with EIO from the cut on, never as a short file; one that grows
# still reads as long as it was listed.
host=$work/hostdisc
cp -r "$disc" "$host"
mnt=$work/hostmnt
log=$work/host.log
check "mounts a folder of the disc's files" mount_fg "$host" "$mnt" "$log"
size=$(stat -c %s "$mnt/OUTSIDE.BIN")
check "the passed-through file lists at its size" test "$size" -gt 4096
truncate -s $((size / 2)) "$host/OUTSIDE.BIN"
check "shrunk host file: reading it fails" sh -c "! cat '$mnt/OUTSIDE.BIN' >/dev/null 2>'$work/host.err'"
check "shrunk host file: with EIO" grep -q 'Input/output error' "$work/host.err"
check_eq "shrunk host file: its first half still reads" \
	"$(head -c $((size / 4)) "$disc/OUTSIDE.BIN" | cksum)" \
	"$(head -c $((size / 4)) "$mnt/OUTSIDE.BIN" | cksum)"
check "shrunk host file: the log says so" grep -q 'OUTSIDE.BIN: shorter than when it was listed' "$log"
printf 'grown' >>"$host/SYSTEM.CNF"
check "grown host file: reads as listed" cmp "$disc/SYSTEM.CNF" "$mnt/SYSTEM.CNF"
check "shrunk host file: the daemon is alive" kill -0 "$fg_pid"
check "shrunk host file: unmounts" unmount_fg "$mnt"


# An image whose folder records point back at a folder they are inside:
# /LOOP/SELF names LOOP's own extent, /LOOP/UP the root's.  It mounts,
# find and ls -R end, and the looping records are left out, logged.
loopdisc=$work/loopdisc
mkdir -p "$loopdisc/LOOP/SELF" "$loopdisc/LOOP/UP"
cp "$disc/SYSTEM.CNF" "$loopdisc/LOOP/SELF/A.TXT"
cp "$disc/SYSTEM.CNF" "$loopdisc/LOOP/UP/B.TXT"
cp "$disc/SYSTEM.CNF" "$loopdisc/SYSTEM.CNF"
genisoimage -quiet -iso-level 2 -V LOOP -o "$work/loop.iso" "$loopdisc"
# isopatch.py: what both patches below share.
cat >"$work/isopatch.py" <<'PY'
import struct, sys
f = open(sys.argv[1], "r+b")
def sector(n):
    f.seek(n * 2048)
    return f.read(2048)
def records(lsn, size):
    data = b"".join(sector(lsn + i) for i in range((size + 2047) // 2048))
    pos = 0
    while pos < len(data):
        n = data[pos]
        if n == 0:
            pos = (pos // 2048 + 1) * 2048
            continue
        yield lsn * 2048 + pos, data[pos:pos + n]
        pos += n
def name(rec):
    return rec[33:33 + rec[32]].split(b";")[0]
# The extent's sector and length, little-endian halves of both-endian
# fields at bytes 2 and 10.
def extent(rec):
    return struct.unpack_from("<I", rec, 2)[0], struct.unpack_from("<I", rec, 10)[0]
# Makes the record at byte `at` name the extent (lsn, size).
def point(at, lsn, size):
    f.seek(at + 2)
    f.write(struct.pack("<I", lsn) + struct.pack(">I", lsn) +
            struct.pack("<I", size) + struct.pack(">I", size))
root_lsn, root_size = extent(sector(16)[156:190])
PY
check "the looping image is patched" "$PY" - "$work/loop.iso" <<PY
exec(open("$work/isopatch.py").read())
loop = [r for _, r in records(root_lsn, root_size) if name(r) == b"LOOP"][0]
loop_lsn, loop_size = extent(loop)
done = 0
for at, r in records(loop_lsn, loop_size):
    target = {b"SELF": (loop_lsn, loop_size), b"UP": (root_lsn, root_size)}.get(name(r))
    if target:
        point(at, *target)
        done += 1
sys.exit(0 if done == 2 else 1)
PY
mnt=$work/loopmnt
log=$work/loop.log
check "the looping image mounts" mount_fg "$work/loop.iso" "$mnt" "$log"
check "find over it ends" timeout 20 find "$mnt" -type f
check "ls -R over it ends" timeout 20 ls -R "$mnt"
check_eq "the looping records are left out, the rest is there" \
	"LOOP SYSTEM.CNF" "$(ls "$mnt" | tr '\n' ' ' | sed 's/ $//')"
check_eq "LOOP itself lists empty" "" "$(ls "$mnt/LOOP")"
check "the log names both records" sh -c \
	"grep -q 'LOOP/SELF: a folder record that points back at .*/LOOP; left out' '$log' &&
	 grep -q 'LOOP/UP: a folder record that points back at .*loop.iso; left out' '$log'"
check "the looping image unmounts" unmount_fg "$mnt"

# An image whose folder records share extents without a loop: /A/X and
# /A/Y both name /B's extent.  Each extent is shown at one place, the
# first record's (B, listed with the root), so a chain of such folders
# cannot make the tree grow as a power of its depth.
sharedisc=$work/sharedisc
mkdir -p "$sharedisc/A/X" "$sharedisc/A/Y" "$sharedisc/B"
cp "$disc/SYSTEM.CNF" "$sharedisc/A/X/X.TXT"
cp "$disc/SYSTEM.CNF" "$sharedisc/A/Y/Y.TXT"
cp "$disc/SYSTEM.CNF" "$sharedisc/B/B.TXT"
genisoimage -quiet -iso-level 2 -V SHARE -o "$work/share.iso" "$sharedisc"
check "the sharing image is patched" "$PY" - "$work/share.iso" <<PY
exec(open("$work/isopatch.py").read())
top = {name(r): extent(r) for _, r in records(root_lsn, root_size)}
b_lsn, b_size = top[b"B"]
done = 0
for at, r in records(*top[b"A"]):
    if name(r) in (b"X", b"Y"):
        point(at, b_lsn, b_size)
        done += 1
sys.exit(0 if done == 2 else 1)
PY
mnt=$work/sharemnt
log=$work/share.log
check "the sharing image mounts" mount_fg "$work/share.iso" "$mnt" "$log"
check_eq "B's file is listed once, at B" "B/B.TXT" \
	"$(cd "$mnt" && timeout 20 find . -type f | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')"
check_eq "A lists empty: X and Y are left out" "" "$(ls "$mnt/A")"
check "the log names both records" sh -c \
	"grep -q 'A/X: names the folder another record of the folder at sector [0-9]* shows; left out' '$log' &&
	 grep -q 'A/Y: names the folder another record' '$log'"
check "the sharing image unmounts" unmount_fg "$mnt"

done_testing
