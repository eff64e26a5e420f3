#!/bin/sh
# SPDX-License-Identifier: MIT
# cutscene.sh - a cutscene pair of the sample disc: audio.wav sample-exact
# against its raw Pcm chunks, readable by sox; frames.txt and track.txt.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

command -v sox >/dev/null || skip_all "no sox"

disc=$work/disc
mnt=$work/mnt
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
check "mounts the sample disc" mount_ccsfs "$disc" "$mnt"
s=$mnt/STREAM/STR1.BIN/str0001
check "the scene with Pcm chunks has audio.wav" test -f "$s/audio.wav"
check_fails "its setup file, without Pcm, has none" test -e "$mnt/STREAM/STR1.BIN/str0001e/audio.wav"
check_eq "sox reads it as 48 kHz 16-bit stereo" "48000 2 16" \
	"$(soxi -r "$s/audio.wav") $(soxi -c "$s/audio.wav") $(soxi -b "$s/audio.wav")"
check "sox can play it through (to nothing)" sox -q "$s/audio.wav" -n stat
check_eq "stat size equals bytes read" "$(stat -c %s "$s/audio.wav")" "$(wc -c <"$s/audio.wav")"
# The samples, rebuilt in Python from the raw chunks: the Pcm chunk's
# blocks, then every F_Pcm chunk's in file order; 256 left then 256
# right samples a block, interleaved in the WAV.
check "audio.wav is the Pcm blocks, sample for sample" "$PY" - "$s" <<'PY'
import glob, struct, sys, wave
d = sys.argv[1]
blocks = []
for path in sorted(glob.glob(d + '/chunks/*-pcm*.bin') + glob.glob(d + '/chunks/*-f_pcm*.bin')):
    b = open(path, 'rb').read()
    kind = struct.unpack_from('<H', b)[0]
    if kind == 0x2200:
        n, first = struct.unpack_from('<I', b, 16)[0], 24
    else:
        n, first = struct.unpack_from('<H', b, 12)[0], 20
    for i in range(n):
        blocks.append(b[first + 1024 * i: first + 1024 * (i + 1)])
want = bytearray()
for blk in blocks:
    left, right = blk[:512], blk[512:]
    for i in range(256):
        want += left[2 * i:2 * i + 2] + right[2 * i:2 * i + 2]
w = wave.open(d + '/audio.wav')
got = w.readframes(w.getnframes())
sys.exit(0 if got == bytes(want) and len(blocks) > 0 else 1)
PY
tail -c +1002 "$s/audio.wav" | head -c 4099 >"$work/part"
check "a read in the middle of audio.wav gets those bytes" sh -c \
	"dd if='$s/audio.wav' bs=1 skip=1001 count=4099 2>/dev/null | cmp - '$work/part'"
check "frames.txt has a line per frame record" sh -c \
	"test \$(grep -c ' top - ' '$s/frames.txt') -gt 10"
check "frames.txt names F_Obj records' objects and positions" \
	grep -q '^0 f_obj OBJ_s0001_0 pos=' "$s/frames.txt"
check "track.txt tells where an object is at a frame" sh -c \
	"awk '\$1 == 1 { print \$2, \$3, \$4 }' '$s/OBJ_s0001_0/track.txt' | grep -qx '1 0 10'"
check "setup files have no frames.txt" test ! -e "$mnt/STREAM/STR1.BIN/str0001e/frames.txt"
check "unmounts cleanly" unmount "$mnt"

done_testing
