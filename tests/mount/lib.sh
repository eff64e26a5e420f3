# lib.sh - what the mount tests share: TAP output, a work folder, mounts
# that are always taken down (even when a test fails or is interrupted).
# Sourced by each test; runs from `make check` or by hand from the top of
# a build tree.

set -u

CCSFS=${CCSFS:-$PWD/ccsfs}
CCSGEN=${CCSGEN:-$PWD/tests/gen/ccsgen}
TESTS_WORKDIR=${TESTS_WORKDIR:-$PWD/tests/work}
test_name=$(basename "$0" .sh)
work=$TESTS_WORKDIR/$test_name

# Debian's python3, where python3-pil lives, even when another python3
# comes first in PATH.
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=python3; fi

tap_n=0
tap_failed=0
mounts=""

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	_desc=$1
	shift
	if "$@" >"$work/last.out" 2>&1; then
		ok "$_desc"
	else
		not_ok "$_desc"
		sed 's/^/# /' "$work/last.out" | head -n 20
	fi
}

# check_fails DESCRIPTION COMMAND...: passes when the command fails.
check_fails() {
	_desc=$1
	shift
	if "$@" >"$work/last.out" 2>&1; then
		not_ok "$_desc (it succeeded)"
	else
		ok "$_desc"
	fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   expected: $2"
		echo "#   actual:   $3"
	fi
}

# Outside CI a machine without FUSE skips; in CI that would hide every
# mount test, so it is a failure there.
skip_all() {
	if [ "${CI:-}" = true ]; then
		echo "Bail out! $*"
		exit 1
	fi
	echo "1..0 # SKIP $*"
	exit 0
}

cleanup() {
	for _m in $mounts; do
		if mountpoint -q "$_m" 2>/dev/null; then
			fusermount3 -u "$_m" 2>/dev/null || fusermount3 -uz "$_m" 2>/dev/null
		fi
	done
}
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM HUP

# mount_ccsfs SOURCE MOUNTPOINT [OPTIONS...]: mounts in the background
# (daemonized, as a user would) and waits until the mount answers.
mount_ccsfs() {
	_src=$1
	_mnt=$2
	shift 2
	mkdir -p "$_mnt"
	mounts="$mounts $_mnt"
	"$CCSFS" "$@" "$_src" "$_mnt" || return 1
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		mountpoint -q "$_mnt" && return 0
		sleep 0.1
	done
	return 1
}

unmount() {
	fusermount3 -u "$1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# FUSE mounts need the device and the helper; without them there is
# nothing to test here, which is not a failure of ccsfs.
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
command -v fusermount3 >/dev/null || skip_all "no fusermount3"
[ -x "$CCSFS" ] || skip_all "no ccsfs binary at $CCSFS"

rm -rf "$work"
mkdir -p "$work"
