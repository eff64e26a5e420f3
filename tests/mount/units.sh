#!/bin/sh
# SPDX-License-Identifier: MIT
# units.sh - the members' folders of the full-size disc through a cache
# too small to keep them all: listed, let go and made again, with the
# same inode numbers and the same bytes, on the same mount, after the
# kernel forgot them and on another mount; a member's files read after
# the listing inflate it about once; the daemon's peak memory within
# cache_size + 32 MiB.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

disc=$work/full
mnt=$work/mnt
"$CCSGEN" full "$disc" >/dev/null || { echo "Bail out! ccsgen full"; exit 1; }
arch=DATA/DATA.BIN

# The first 200 members: a few MiB of folders past the 4 MiB budget a
# 16M cache has.  (The whole archive under a sanitizer takes too long.)
# No readahead: the workers' inflations would count in the daemon's
# reads below, more of them the busier the machine.
check "mounts the full-size disc with a 16M cache" \
	mount_fg "$disc" "$mnt" "$work/ccsfs.log" -o cache_size=16M,noreadahead
ls "$mnt/$arch" | grep -v '^%' | head -n 200 >"$work/members"
check_eq "200 members to list" 200 "$(wc -l <"$work/members")"
inodes() {
	(cd "$1/$arch" && xargs sh -c 'find "$@" -printf "%i %y %s %p\n"' sh \
		<"$work/members") | sort -k4
}
inodes "$mnt" >"$work/inodes.1"
check "the listing has thousands of paths ($(wc -l <"$work/inodes.1"))" \
	test "$(wc -l <"$work/inodes.1")" -ge 5000
check_eq "no two paths share an inode number" "" \
	"$(awk '{print $1}' "$work/inodes.1" | sort | uniq -d | head -n 3)"

# The first member's folder was let go long ago: its files are made
# again from a handle the kernel kept, and read as a fresh mount reads
# them.
first=$(head -n 1 "$work/members")
(cd "$mnt/$arch/$first" && find . -type f | sort | xargs cat | md5sum) \
	>"$work/first.md5"
mnt2=$work/mnt2
check "a second mount, with room for everything" \
	mount_ccsfs "$disc" "$mnt2" -o cache_size=512M
check_eq "the first member's files read as on a fresh mount" \
	"$(cat "$work/first.md5")" \
	"$(cd "$mnt2/$arch/$first" && find . -type f | sort | xargs cat | md5sum)"
check_eq "the second mount gives every path the same inode number" "" \
	"$(inodes "$mnt2" | diff "$work/inodes.1" - | head -n 5)"
check "unmounts the second" unmount "$mnt2"

# The kernel forgets what it knew (root only): the paths are looked up
# again, and the folders made again give the same numbers.
if [ "$(id -u)" = 0 ]; then
	sync
	echo 2 >/proc/sys/vm/drop_caches
	check_eq "after the kernel forgot them, the same inode numbers" "" \
		"$(inodes "$mnt" | diff "$work/inodes.1" - | head -n 5)"
else
	skip "after the kernel forgot them, the same inode numbers" \
		"the kernel's caches can be dropped by root only"
fi

# A member read after the listing, whose folder was let go: its bytes
# are read from the image about once, not once a file.
mid=$(sed -n 100p "$work/members")
compressed=$(awk -v m="$mid" '$1 == m { print $5 }' "$mnt/$arch/%members.txt")
rchar() { awk '$1 == "rchar:" { print $2 }' "/proc/$fg_pid/io"; }
before=$(rchar)
(cd "$mnt/$arch/$mid" && find . -type f | sort | xargs cat) >/dev/null
read_more=$(( $(rchar) - before ))
check "reading member $mid's files read its $compressed bytes about once ($read_more)" \
	test "$read_more" -le $(( 3 * compressed + 65536 ))

hwm=$(vm_kb "$fg_pid" VmHWM)
if ccsfs_sanitized; then
	skip "peak memory within 16M + 32M" "the daemon's memory is the sanitizer's"
else
	check "peak memory within 16M + 32M ($hwm kB)" \
		test "$hwm" -le $(( (16 + 32) * 1024 ))
fi
check "unmounts" unmount_fg "$mnt"
check "says it let members' folders go" \
	grep -q "members' folders let go [1-9][0-9]* times" "$work/ccsfs.log"

# The whole archive at 64M: listed within cache_size + 32 MiB.
if ccsfs_sanitized; then
	skip "ls -lR of the archive within 64M + 32M" \
		"the whole archive under a sanitizer takes too long"
else
	check "mounts again with a 64M cache" \
		mount_fg "$disc" "$mnt" "$work/ccsfs64.log" -o cache_size=64M
	n=$(ls -lR "$mnt/$arch" | wc -l)
	hwm=$(vm_kb "$fg_pid" VmHWM)
	check "ls -lR of the archive ($n lines): peak memory within 64M + 32M ($hwm kB)" \
		test "$hwm" -le $(( (64 + 32) * 1024 ))
	check "unmounts" unmount_fg "$mnt"
fi
done_testing
