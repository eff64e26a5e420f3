# SPDX-License-Identifier: MIT
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

mounts=""

. "${TESTS_SRCDIR:-$(dirname "$0")/..}/tap.sh"

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

pids=""

cleanup() {
	for _m in $mounts; do
		if mountpoint -q "$_m" 2>/dev/null; then
			fusermount3 -u "$_m" 2>/dev/null || fusermount3 -uz "$_m" 2>/dev/null
		fi
	done
	# Daemons started in the foreground that are still there (one that
	# never mounted): ended by their own pid, never by name.
	for _p in $pids; do
		kill "$_p" 2>/dev/null
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

# mount_fg SOURCE MOUNTPOINT LOG [OPTIONS...]: runs the daemon in the
# foreground (-f) in the background, its standard error (its log) in
# LOG, and waits until the mount answers.  fg_pid is its pid; the
# command before it may be given in FG_WRAP (valgrind, env).
mount_fg() {
	_src=$1
	_mnt=$2
	_log=$3
	shift 3
	mkdir -p "$_mnt"
	mounts="$mounts $_mnt"
	${FG_WRAP:-} "$CCSFS" -f "$@" "$_src" "$_mnt" 2>"$_log" &
	fg_pid=$!
	pids="$pids $fg_pid"
	for _ in $(seq 1 ${FG_WAIT:-50}); do
		mountpoint -q "$_mnt" && return 0
		kill -0 "$fg_pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# unmount_fg MOUNTPOINT: unmounts and waits for the daemon of the last
# mount_fg; fg_status is its exit status (128 + N for signal N).
unmount_fg() {
	# A reader that just ended may still hold the mount for a moment on
	# a busy machine (EBUSY): a few tries.
	_tries=20
	until fusermount3 -u "$1" 2>/dev/null; do
		_tries=$((_tries - 1))
		[ "$_tries" -gt 0 ] || { fusermount3 -u "$1"; return 1; }
		sleep 0.25
	done
	wait "$fg_pid"
	fg_status=$?
	pids=$(echo "$pids" | sed "s/ $fg_pid\b//")
	return 0
}

# ccsfs_sanitized: true when $CCSFS links a sanitizer's runtime, which
# makes the daemon several times slower and its memory the sanitizer's.
ccsfs_sanitized() {
	ldd "$CCSFS" 2>/dev/null | grep -Eq 'lib(a|t|ub)san'
}

# vm_kb PID FIELD: a /proc/PID/status figure (VmHWM, VmRSS) in kB.
vm_kb() {
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

# FUSE mounts need the device and the helper; without them there is
# nothing to test here, which is not a failure of ccsfs.
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
command -v fusermount3 >/dev/null || skip_all "no fusermount3"
[ -x "$CCSFS" ] || skip_all "no ccsfs binary at $CCSFS"

rm -rf "$work"
mkdir -p "$work"

# The glTF checkers (tests/gltf/): the validator that `make check`
# installs in the build tree, node and numpy; a skip without them
# (a failure under CI, as skip_all says).
gltf=${TESTS_SRCDIR:-$(dirname "$0")/..}/gltf
need_gltf_tools() {
	export GLTF_VALIDATOR=${GLTF_VALIDATOR:-$PWD/tests/gltf/node/node_modules/gltf-validator}
	command -v node >/dev/null || skip_all "no node (nodejs)"
	[ -f "$GLTF_VALIDATOR/package.json" ] ||
		skip_all "no gltf-validator at $GLTF_VALIDATOR (make gltf-validator)"
	"$PY" -c 'import numpy' 2>/dev/null ||
		skip_all "no numpy for $PY (python3-numpy)"
}

# variant NAME: a folder with the files of the sample disc $disc and
# $exes/NAME (ccsgen sample --exes) as its executable (none: no
# executable at all).
variant() {
	_v=$work/v-$1
	rm -rf "$_v"
	mkdir -p "$_v"
	for _f in DATA STREAM SYSTEM.CNF OUTSIDE.BIN; do
		ln -s "$disc/$_f" "$_v/$_f"
	done
	[ "$1" = none ] || ln -s "$exes/$1" "$_v/SLUS_202.67"
	echo "$_v"
}

# common_setups DIR: the common setup files' .ccs beside member folder
# DIR, in the order ccsfs looks into them.
common_setups() {
	for _c in str8000e str8001e str8800e; do
		[ -f "$1/../$_c/$_c.ccs" ] && echo "$1/../$_c/$_c.ccs"
	done
}

# glbcheck_each LIST: glbcheck.py of every scene.glb in LIST against the
# .ccs beside it (a cutscene's, cutcheck.py against its frame section,
# its setup file and the common setup files), each output in
# $work/glbcheck.<member>.out; echoes the paths (below $mnt) of those
# that fail.
glbcheck_each() {
	while IFS= read -r glb; do
		dir=$(dirname "$glb")
		m=$(basename "$dir")
		setup=$dir/../${m}e/${m}e.ccs
		if [ -f "$dir/frames.txt" ] && [ -f "$setup" ]; then
			# shellcheck disable=SC2046
			"$PY" "$gltf/cutcheck.py" "$glb" "$dir/$m.ccs" "$setup" \
				$(common_setups "$dir")
		else
			"$PY" "$gltf/glbcheck.py" "$glb" "$dir/$m.ccs"
		fi >"$work/glbcheck.$m.out" 2>&1 || printf ' %s' "${glb#$mnt/}"
	done <"$1"
}
