#!/bin/sh
# SPDX-License-Identifier: MIT
# fstab.sh - the ways a system mounts ccsfs: mount -t fuse.ccsfs and an
# fstab line, both through mount.fuse3; SIGTERM and SIGINT in the
# foreground; syslog when detached.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "mount(8) with fuse.TYPE needs root here"
command -v mount.fuse3 >/dev/null || [ -x /sbin/mount.fuse3 ] || skip_all "no mount.fuse3"
command -v genisoimage >/dev/null || skip_all "no genisoimage"

disc=$work/disc
mnt=$work/mnt
mkdir -p "$mnt"
mounts="$mnt"
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
genisoimage -quiet -iso-level 2 -V SAMPLE -o "$work/disc.iso" "$disc" 2>/dev/null
# mount(8) gives its helpers a fixed PATH (/usr/bin:/bin:/usr/sbin:
# /sbin), so mount -t fuse.ccsfs finds an installed ccsfs only there.  The
# build tree's ccsfs is given by its path, in mount.fuse3's PROGRAM#SOURCE
# form; when ccsfs is installed in that PATH, fuse.ccsfs is tried too.
export PATH="$PATH:/sbin:/usr/sbin"
check "mount -t fuse PROGRAM#IMAGE mounts an image" \
	mount -t fuse -o cache_size=64M "$CCSFS#$work/disc.iso" "$mnt"
check "its archives are there" test -f "$mnt/DATA/DATA.BIN/xasc00/xasc00.ccs"
check "/proc/mounts shows it as fuse.ccsfs, read-only" sh -c "grep ' $mnt fuse.ccsfs ro[, ]' /proc/mounts"
check "umount takes it down" umount "$mnt"

if PATH=/usr/bin:/bin:/usr/sbin:/sbin command -v ccsfs >/dev/null; then
check "mount -t fuse.ccsfs mounts an image" mount -t fuse.ccsfs -o cache_size=64M "$work/disc.iso" "$mnt"
check "its archives are there" test -f "$mnt/DATA/DATA.BIN/xasc00/xasc00.ccs"
check "/proc/mounts shows it as fuse.ccsfs, read-only" sh -c \
	"grep ' $mnt fuse.ccsfs ro[, ]' /proc/mounts"
check "umount takes it down" umount "$mnt"
else
	skip "mount -t fuse.ccsfs mounts an image" "no ccsfs in /usr/bin or /usr/sbin (make install puts it there)"
fi

printf '%s#%s %s fuse ro,noauto,cache_size=32M 0 0\n' "$CCSFS" "$work/disc.iso" "$mnt" >"$work/fstab"
check "an fstab line mounts it" mount -T "$work/fstab" "$mnt"
check "through fstab, the sample's members are there" test -d "$mnt/STREAM/STR1.BIN/str0001"
check "umount takes it down" umount "$mnt"

for sig in TERM INT; do
	# A shell starts background jobs with SIGINT ignored, and libfuse
	# leaves an ignored signal alone: start ccsfs with the default.
	"$PY" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$CCSFS" -f "$work/disc.iso" "$mnt" 2>"$work/fg.log" &
	pid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do mountpoint -q "$mnt" && break; sleep 0.1; done
	check "foreground mount answers (SIG$sig test)" test -f "$mnt/SYSTEM.CNF"
	kill -"$sig" "$pid"
	wait "$pid"
	check_eq "SIG$sig: the daemon exits 0" 0 "$?"
	check_fails "SIG$sig: nothing is left mounted" mountpoint -q "$mnt"
done

done_testing
