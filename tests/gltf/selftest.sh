#!/bin/sh
# SPDX-License-Identifier: MIT
# selftest.sh - test_glbcheck.py (TAP) with Debian's python3, where
# python3-numpy lives, even when another python3 comes first in PATH.
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=python3; fi
if ! "$PY" -c 'import numpy' 2>/dev/null; then
	# as lib.sh's skip_all: a skip on a workstation, a failure in CI
	[ "${CI:-}" = true ] && { echo "Bail out! no numpy (python3-numpy)"; exit 1; }
	echo "1..0 # SKIP no numpy (python3-numpy)"
	exit 0
fi
exec "$PY" "${TESTS_SRCDIR:-$(dirname "$0")/..}/gltf/test_glbcheck.py"
