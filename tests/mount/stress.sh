#!/bin/sh
# SPDX-License-Identifier: MIT
# stress.sh - many readers at once against a small cache, for a bounded
# time: every byte they read must be the byte a single-threaded pass read,
# the intended EIOs (broken members) must stay EIO, and the daemon must
# live through it and unmount cleanly.
#
# The full-size synthetic disc (the real disc's shape: 1,023 members,
# ~316,000 objects) with the broken archive
# and the model databases beside DATA.BIN and a passed-through file is
# mounted twice, one after the other:
#   1. the disc's folder, single-threaded (-s, the default cache): the
#      reference pass, a SHA-256 of every file of the set, or EIO;
#   2. its ISO 9660 image (the folder when genisoimage is missing), with
#      -o cache_size=$STRESS_CACHE (16M: eviction all the time) and
#      FUSE's worker threads: $STRESS_READERS readers (xargs -P) check the
#      set in random order against the reference, two readers read random
#      ranges of large files and compare them with copies of the reference,
#      and two loops run ls -lR over the mount, until $STRESS_SECONDS pass.
# Readers mostly read with O_DIRECT, so each read reaches the daemon
# instead of the kernel's page cache (the mount keeps it across opens).
#
# Environment: STRESS_SECONDS (default 45; 20 under a sanitizer),
# STRESS_READERS (8), STRESS_CACHE (16M), STRESS_STEP (every 16th member
# of DATA.BIN has all its files in the set; 32 under a sanitizer),
# CCSFS_SANITIZED (yes/no; default: whether $CCSFS links libasan/libtsan),
# STRESS_REMOUNT (unmount and mount again every N seconds; 0, the
# default, never), STRESS_RSS (a file to write the daemon's VmRSS to
# every STRESS_RSS_EVERY seconds, default 10: "SECONDS KB PID" lines).
# tests/soak.sh runs this for half an hour with both.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

if [ -z "${CCSFS_SANITIZED:-}" ]; then
	CCSFS_SANITIZED=no
	ccsfs_sanitized && CCSFS_SANITIZED=yes
fi
if [ "$CCSFS_SANITIZED" = yes ]; then
	STRESS_SECONDS=${STRESS_SECONDS:-20}
	STRESS_STEP=${STRESS_STEP:-32}
else
	STRESS_SECONDS=${STRESS_SECONDS:-45}
	STRESS_STEP=${STRESS_STEP:-16}
fi
STRESS_READERS=${STRESS_READERS:-8}
STRESS_CACHE=${STRESS_CACHE:-16M}
STRESS_REMOUNT=${STRESS_REMOUNT:-0}
STRESS_RSS=${STRESS_RSS:-}
STRESS_RSS_EVERY=${STRESS_RSS_EVERY:-10}

disc=$work/disc
refm=$work/ref
mnt=$work/mnt
stop=$work/stop
res=$work/results
mkdir -p "$res" "$work/big"

# Background workers and daemons this test started, ended by their ids
# when the test ends in any way (lib.sh's cleanup unmounts).
bg_pids=""
# untrack PID: a process waited for; its id may be reused, never kill it.
untrack() {
	bg_pids=$(echo " $bg_pids " | sed "s/ $1 / /; s/^ *//; s/ *\$//")
}
stress_cleanup() {
	touch "$stop" 2>/dev/null
	for _p in $bg_pids; do
		kill "$_p" 2>/dev/null
	done
	cleanup
}
trap stress_cleanup EXIT
trap 'stress_cleanup; exit 1' INT TERM HUP

# The daemons run in the foreground (lib.sh's mount_fg), so that their
# ids and stderr (log lines, sanitizer reports) are ours; a sanitized one
# may take 10 s to mount.
FG_WAIT=100
# unmount_ok MOUNTPOINT: unmounts; the daemon must exit 0.
unmount_ok() {
	unmount_fg "$1" && [ "$fg_status" -eq 0 ]
}

t0=$(date +%s)
"$CCSGEN" full "$disc" >"$work/gen.out" || { echo "Bail out! ccsgen full"; exit 1; }
nmembers=$(awk '$1 == "DATA/DATA.BIN" { print $2 }' "$work/gen.out")
"$CCSGEN" broken "$disc/DATA/BROKEN.BIN" >/dev/null || { echo "Bail out! ccsgen broken"; exit 1; }
# Model databases (DB24MOD.BIN has broken models: more intended EIOs),
# and a larger file to pass through (not gzip: it is not an archive).
"$CCSGEN" dbmod "$disc/DATA" >/dev/null || { echo "Bail out! ccsgen dbmod"; exit 1; }
mkdir -p "$disc/MOVIE"
head -c 8388608 /dev/urandom >"$disc/MOVIE/OPENING.PSS"

# ---- 1. the reference pass, single-threaded ----

check "mounts the full disc single-threaded for the reference" \
	mount_fg "$disc" "$refm" "$work/ref.log" -s

# The set, as paths under the mount: every .ccs, every listing, every file
# of every STRESS_STEP-th DATA.BIN member and of every broken member,
# STREAM's files outside chunks/ (audio.wav, frames.txt ...), the model
# databases' files and the files passed through.
(
	cd "$refm" || exit 1
	find DATA/DATA.BIN DATA/BROKEN.BIN STREAM/STR1.BIN -mindepth 2 \
		-maxdepth 2 -type f -name '*.ccs'
	ls -d DATA/DATA.BIN/%members.txt DATA/BROKEN.BIN/%members.txt \
		STREAM/STR1.BIN/%members.txt
	ls DATA/DATA.BIN | grep -v '^%' | awk -v s="$STRESS_STEP" 'NR % s == 1' |
		while IFS= read -r m; do
			find "DATA/DATA.BIN/$m" -type f ! -name "$m.ccs"
		done
	find DATA/BROKEN.BIN -mindepth 2 -type f ! -name '*.ccs'
	find STREAM/STR1.BIN -mindepth 2 -type f ! -path '*/chunks/*' ! -name '*.ccs'
	find . -path ./DATA/DATA.BIN -prune -o -path ./DATA/BROKEN.BIN -prune -o \
		-path ./STREAM/STR1.BIN -prune -o -type f -print | sed 's|^\./||'
) >"$work/paths" 2>"$work/paths.err"
check_eq "the set is listed without an error" "" "$(cat "$work/paths.err")"
nccs=$(grep -c '^DATA/DATA.BIN/.*\.ccs$' "$work/paths")
check_eq "the set has every .ccs of DATA.BIN" "$nmembers" "$nccs"

# One line per file: SUM SIZE PATH, SUM being EIO for a file that cannot
# be read.  One reader (one sha256sum), in the set's order.
(
	cd "$refm" || exit 1
	xargs -d '\n' sha256sum <"$work/paths" >"$work/sums" 2>"$work/sums.err"
	xargs -d '\n' stat -c '%s %n' <"$work/paths" >"$work/sizes"
)
awk -v errs="$work/sums.err" -v sums="$work/sums" '
	BEGIN {
		while ((getline l <errs) > 0) {
			if (l ~ /: Input\/output error$/) {
				sub(/^sha256sum: /, "", l)
				sub(/: Input\/output error$/, "", l)
				eio[l] = 1
			} else {
				print "ERR 0 " l
			}
		}
		while ((getline l <sums) > 0)
			sum[substr(l, 67)] = substr(l, 1, 64)
	}
	{
		size = $1
		p = substr($0, length(size) + 2)
		if (p in eio)
			print "EIO 0 " p
		else if (p in sum)
			print sum[p], size, p
		else
			print "ERR 0 " p
	}' "$work/sizes" >"$work/set"
t_ref=$(($(date +%s) - t0))
nset=$(wc -l <"$work/set")
neio=$(grep -c '^EIO ' "$work/set")
echo "# reference: $nset files, $neio of them EIO, ${t_ref}s with the disc made"
check_eq "the reference pass reads every file or fails with EIO" "" \
	"$(grep '^ERR ' "$work/set")"
check_eq "the reference has a line per file of the set" \
	"$(wc -l <"$work/paths")" "$nset"
check_eq "only broken members' and models' files are EIO" "" \
	"$(awk '$1 == "EIO" && $3 !~ /^DATA\/(BROKEN|DB24MOD)\.BIN\//' "$work/set")"
check "a broken member's .ccs is one of the intended EIOs" \
	grep -qx 'EIO 0 DATA/BROKEN.BIN/badcrc/badcrc.ccs' "$work/set"
check "a texture that cannot be made is one of the intended EIOs" \
	grep -qx 'EIO 0 DATA/BROKEN.BIN/badtex/TEX_psm/texture.png' "$work/set"
check "a broken database model is one of the intended EIOs" \
	grep -q '^EIO 0 DATA/DB24MOD.BIN/.*/model.obj$' "$work/set"

# Copies of a few large files for the random ranges: the cutscenes'
# audio.wav, the three largest .ccs, the passed-through files.  The lines
# are SIZE COPY PATH.
{
	grep ' STREAM/STR1\.BIN/[^/]*/audio\.wav$' "$work/set"
	grep '^[0-9a-f]* [0-9]* DATA/DATA\.BIN/.*\.ccs$' "$work/set" | sort -k2,2n | tail -n 3
	grep -E ' (OUTSIDE\.BIN|MOVIE/OPENING\.PSS)$' "$work/set"
} | {
	i=0
	while read -r _sum size p; do
		i=$((i + 1))
		cp "$refm/$p" "$work/big/$i" && echo "$size $work/big/$i $p"
	done
} >"$work/big.list"
check_eq "copies of the large files" 8 "$(wc -l <"$work/big.list")"
check "unmounts the reference mount; the daemon exits 0" unmount_ok "$refm"

# ---- 2. the stress ----

# What reader.sh and rdd.sh start with: a remount (STRESS_REMOUNT) puts
# $PAUSE down while it unmounts and mounts again and bumps $EPOCH after.
# wait_remount: waits while one runs; false once the time is up.
# cut_by_remount EPOCH: whether one ran since EPOCH was read, so that what
# the read gave is no result (the mount was gone under it).
cat >"$work/remount.sh" <<'EOF'
wait_remount() {
	while [ -e "$PAUSE" ] && [ ! -e "$STOP" ]; do
		sleep 0.2
	done
	[ ! -e "$STOP" ]
}
cut_by_remount() {
	read -r _now <"$EPOCH"
	[ -e "$PAUSE" ] || [ "$1" != "$_now" ]
}
EOF

# reader.sh LINE...: checks each SUM SIZE PATH line against the mount and
# appends one line per file to its own result file: "ok BYTES", "eio",
# "mismatch PATH", "error PATH: MESSAGE".  Every fourth read goes through
# the page cache, the others with O_DIRECT.
{ cat "$work/remount.sh"; cat <<'EOF'; } >"$work/reader.sh"
out=$RES/reader.$$
err=$RES/reader.$$.err
i=0
for e; do
	wait_remount || break
	read -r epoch <"$EPOCH"
	sum=${e%% *} rest=${e#* }
	size=${rest%% *} p=${rest#* }
	i=$((i + 1))
	if [ $((i % 4)) = 0 ]; then flags=; else flags=iflag=direct; fi
	got=$(dd if="$MNT/$p" $flags bs=1M status=none 2>"$err" | sha256sum)
	got=${got%% *}
	if cut_by_remount "$epoch"; then
		echo remount
	elif [ -s "$err" ]; then
		if [ "$sum" = EIO ] && grep -q 'Input/output error' "$err"; then
			echo eio
		else
			echo "error $p: $(head -n 1 "$err")"
		fi
	elif [ "$sum" = EIO ]; then
		echo "mismatch $p: read, but it was EIO"
	elif [ "$got" != "$sum" ]; then
		echo "mismatch $p"
	else
		echo "ok $size"
	fi >>"$out"
done
rm -f "$err"
EOF

# rdd.sh RANGES: reads each OFF LEN COPY PATH range of the mount with dd
# and compares it with the copy; "range BYTES", "mismatch", "error".
{ cat "$work/remount.sh"; cat <<'EOF'; } >"$work/rdd.sh"
out=$RES/rdd.$$
err=$RES/rdd.$$.err
i=0
while read -r off len copy p; do
	wait_remount || break
	read -r epoch <"$EPOCH"
	i=$((i + 1))
	if [ $((i % 4)) = 0 ]; then flags=; else flags=direct,; fi
	if dd if="$MNT/$p" iflag=${flags}skip_bytes,count_bytes skip="$off" \
	      count="$len" bs=64K status=none 2>"$err" |
	   cmp -s -i "$off:0" -n "$len" "$copy" - && [ ! -s "$err" ]; then
		echo "range $len"
	elif cut_by_remount "$epoch"; then
		echo remount
	elif [ -s "$err" ]; then
		echo "error $p at $off+$len: $(head -n 1 "$err")"
	else
		echo "mismatch $p at $off+$len"
	fi >>"$out"
done <"$1"
rm -f "$err"
EOF

# Random ranges, up to 256 KiB, within each file; a fixed seed per worker.
for w in 1 2; do
	awk -v seed="$w" 'BEGIN { srand(seed) }
		{ size[NR] = $1; copy[NR] = $2; $1 = $2 = ""; path[NR] = substr($0, 3) }
		END { for (i = 0; i < 100000; i++) {
			f = 1 + int(rand() * NR)
			off = int(rand() * size[f])
			len = 1 + int(rand() * 262144)
			if (len > size[f] - off) len = size[f] - off
			print off, len, copy[f], path[f]
		} }' "$work/big.list" >"$work/ranges.$w"
done

# The image is read through other code (iso.c, blobs) than the folder;
# the same bytes must come out.
source=$disc
if command -v genisoimage >/dev/null; then
	genisoimage -quiet -iso-level 2 -V STRESS -o "$work/disc.iso" "$disc" 2>/dev/null &&
		source=$work/disc.iso
else
	skip "the stress reads through the disc image" "no genisoimage: it mounts the folder"
fi
check "mounts the full disc ($(basename "$source")) with cache_size=$STRESS_CACHE" \
	mount_fg "$source" "$mnt" "$work/daemon.log" -o "cache_size=$STRESS_CACHE"
pid=$fg_pid
echo "$pid" >"$res/daemon.pid"

export MNT="$mnt" STOP="$stop" RES="$res" PAUSE="$res/remounting" \
	EPOCH="$res/epoch"
rm -f "$stop" "$PAUSE"
echo 0 >"$EPOCH"
start=$(date +%s)
end=$((start + STRESS_SECONDS))
workers=""
spawned() {
	bg_pids="$bg_pids $1"
	workers="$workers $1"
}

# The readers: the set in a new random order each round.
(
	while [ ! -e "$stop" ]; do
		shuf "$work/set" | xargs -d '\n' -n 25 -P "$STRESS_READERS" sh "$work/reader.sh"
	done
) &
spawned $!
for w in 1 2; do
	sh "$work/rdd.sh" "$work/ranges.$w" &
	spawned $!
done
. "$work/remount.sh"
# ls_once LABEL PATH...: one ls -lR, cut off when the time is up;
# appends "ls" or "error ..." to its result file.
ls_once() {
	_label=$1
	shift
	_left=$((end - $(date +%s)))
	[ "$_left" -gt 0 ] || return 0
	wait_remount || return 0
	read -r _epoch <"$EPOCH"
	# Its id, for a remount to end it: a whole ls -lR would otherwise
	# hold the mount for minutes.
	timeout "$_left" ls -lR "$@" >/dev/null 2>"$res/ls.$_label.err" &
	_ls=$!
	echo "$_ls" >"$res/ls.$_label.pid"
	wait "$_ls"
	_rc=$?
	rm -f "$res/ls.$_label.pid"
	# 124: cut off by the time limit, which is no error.
	if cut_by_remount "$_epoch"; then
		echo remount
	elif { [ "$_rc" != 0 ] && [ "$_rc" != 124 ]; } || [ -s "$res/ls.$_label.err" ]; then
		echo "error ls -lR: exit $_rc: $(head -n 1 "$res/ls.$_label.err")"
	else
		echo ls
	fi >>"$res/ls.$_label"
	rm -f "$res/ls.$_label.err"
}
# The whole mount (stat makes every file, so this walks far more than the
# set), and 40 of the set's folders at a time, in a random order.
(
	while [ ! -e "$stop" ]; do
		ls_once all "$mnt"
	done
) &
spawned $!
grep -o ' [^ ]*/' "$work/set" | sed 's|^ |'"$mnt"'/|; s|/$||' | sort -u >"$work/dirs"
(
	while [ ! -e "$stop" ]; do
		# Names in the set have no spaces: split on them.
		# shellcheck disable=SC2046
		ls_once dirs $(shuf "$work/dirs" | head -n 40)
	done
) &
spawned $!

# The daemon's resident memory, whichever daemon is mounted.
if [ -n "$STRESS_RSS" ]; then
	(
		while [ ! -e "$stop" ]; do
			read -r _p <"$res/daemon.pid"
			_kb=$(vm_kb "$_p" VmRSS 2>/dev/null)
			[ -n "$_kb" ] && echo "$(($(date +%s) - start)) $_kb $_p"
			sleep "$STRESS_RSS_EVERY"
		done
	) >"$STRESS_RSS" &
	spawned $!
fi

# remount: the readers pause, the running ls -lR end, the mount goes
# (lazily when something still holds it after 10 s) and the daemon must exit 0; the same
# source is mounted again and the readers go on.
remounts=0
remount_failed=0
remount() {
	touch "$PAUSE"
	for _f in "$res"/ls.*.pid; do
		[ -f "$_f" ] && read -r _p <"$_f" && kill "$_p" 2>/dev/null
	done
	sleep 1
	_i=0
	until fusermount3 -u "$mnt" 2>/dev/null; do
		_i=$((_i + 1))
		if [ "$_i" -ge 20 ]; then
			fusermount3 -uz "$mnt"
			break
		fi
		sleep 0.5
	done
	wait "$pid"
	_st=$?
	pids=$(echo "$pids" | sed "s/ $pid\b//")
	if [ "$_st" = 0 ] && mount_fg "$source" "$mnt" "$work/daemon.log.$remounts" \
		-o "cache_size=$STRESS_CACHE"; then
		pid=$fg_pid
		echo "$pid" >"$res/daemon.pid"
	else
		remount_failed=$((remount_failed + 1))
		echo "# remount $remounts: the daemon exited $_st or did not mount again"
	fi
	remounts=$((remounts + 1))
	read -r _e <"$EPOCH"
	echo $((_e + 1)) >"$EPOCH"
	rm -f "$PAUSE"
}

# Sleeps in the background, so that a signal's trap runs at once, not
# after it; wakes to remount every STRESS_REMOUNT seconds.
next=$end
[ "$STRESS_REMOUNT" -gt 0 ] && next=$((start + STRESS_REMOUNT))
while [ "$(date +%s)" -lt "$end" ]; do
	wake=$end
	[ "$next" -lt "$wake" ] && wake=$next
	sleep $((wake - $(date +%s))) &
	sleeper=$!
	bg_pids="$bg_pids $sleeper"
	wait "$sleeper"
	untrack "$sleeper"
	if [ "$(date +%s)" -ge "$next" ] && [ "$(date +%s)" -lt "$end" ]; then
		remount
		next=$((next + STRESS_REMOUNT))
	fi
done
touch "$stop"
for w in $workers; do
	wait "$w"
	untrack "$w"
done
secs=$(($(date +%s) - start))

cat "$res"/reader.* "$res"/rdd.* "$res"/ls.* 2>/dev/null >"$work/results.all"
files=$(grep -c '^ok ' "$work/results.all")
eio=$(grep -c '^eio$' "$work/results.all")
ranges=$(grep -c '^range ' "$work/results.all")
lsruns=$(grep -c '^ls$' "$work/results.all")
bytes=$(awk '$1 == "ok" || $1 == "range" { n += $2 } END { printf "%d", n }' "$work/results.all")
mismatches=$(grep -c '^mismatch ' "$work/results.all")
errors=$(grep -c '^error ' "$work/results.all")
cut=$(grep -c '^remount$' "$work/results.all")
echo "# stress: $STRESS_READERS readers, $((files + eio)) files, $((bytes / 1000000)) MB, ${secs} s, $mismatches mismatches, $errors unexpected errors"
echo "# stress: of the files $eio intended EIOs; also $ranges random ranges, $lsruns ls -lR runs; cache_size=$STRESS_CACHE, 1 member in ${STRESS_STEP} whole, $(grep -c . "$work/daemon.log") daemon log lines"
grep -E '^(mismatch|error) ' "$work/results.all" | head -n 20 | sed 's/^/#   /'
if [ "$STRESS_REMOUNT" -gt 0 ]; then
	echo "# stress: $remounts remounts, every ${STRESS_REMOUNT} s; $cut reads and listings cut by one, not counted"
	check_eq "every remount: the daemon exits 0 and the source mounts again" 0 "$remount_failed"
	check "there were remounts" test "$remounts" -gt 0
fi

check "the readers read files" test "$files" -gt 0
check "the random ranges were read" test "$ranges" -gt 0
check_eq "no mismatch" 0 "$mismatches"
check_eq "no unexpected error" 0 "$errors"
check "the daemon is alive after the stress" kill -0 "$pid"

# The intended EIOs are still EIO, read both ways.
for flags in iflag=direct ""; do
	grep '^EIO ' "$work/set" | cut -d' ' -f3- | while IFS= read -r p; do
		dd if="$mnt/$p" $flags bs=1M status=none 2>&1 >/dev/null |
			grep -q 'Input/output error' || echo "$p"
	done
done >"$work/eio.now"
check_eq "every intended EIO is still EIO" "" "$(cat "$work/eio.now")"
# A few files read whole once more, and a listing.
f=DATA/DATA.BIN/bg000/bg000.ccs
want=$(grep " $f\$" "$work/set" | cut -d' ' -f1)
got=$(dd if="$mnt/$f" iflag=direct bs=1M status=none | sha256sum | cut -d' ' -f1)
check_eq "a .ccs still reads as in the reference" "$want" "$got"
check_eq "ls of DATA.BIN still lists every member" "$nmembers" \
	"$(ls "$mnt/DATA/DATA.BIN" | grep -vc '^%')"

if ! kill -0 "$pid" 2>/dev/null || [ "$mismatches$errors" != 00 ]; then
	echo "# the daemon's log, last lines:"
	tail -n 30 "$work/daemon.log" | sed 's/^/#   /'
fi
check "unmounts after the stress; the daemon exits 0" unmount_ok "$mnt"
check_fails "nothing is mounted after unmount" mountpoint -q "$mnt"

# The disc and its image are 150 MB each: keep it only when something failed.
[ "$tap_failed" -eq 0 ] && rm -rf "$disc" "$work/disc.iso" "$work/big"
done_testing
