/* SPDX-License-Identifier: MIT */
/* cutscene.h - a stream scene's audio and frames as files
 * (doc/formats/pcm.md, audio.wav; doc/formats/ccsf.md, Frame section).
 *
 * audio.wav is produced on demand, never built whole: the layout keeps only
 * where each 1,024-byte PCM block lies in the inflated file, and a read
 * interleaves the blocks it covers.  A cutscene's audio is tens of
 * megabytes of WAV, but its layout is 4 bytes per 1,024.
 *
 * frames.txt and track.txt are text made from the walk's chunk table and
 * the inflated bytes; every count in the file is untrusted, and a record
 * too short for its fields says so on its line instead of failing.
 */
#ifndef CCSFS_CUTSCENE_H
#define CCSFS_CUTSCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "util/reason.h"
#include "util/strbuf.h"

#define CUTSCENE_PCM_BLOCK 1024         /* 256 left s16, then 256 right */
#define CUTSCENE_PCM_BLOCK_SAMPLES 256  /* stereo frames per block */
#define CUTSCENE_WAV_HEADER 44
#define CUTSCENE_WAV_RATE 48000

struct cutscene_audio {
	bool present;           /* the scene has a Pcm or F_Pcm chunk */
	uint32_t block_count;
	uint32_t *blocks;       /* file offset of each block, in play order */
	/* Pcm/F_Pcm chunks whose block count or block size did not match
	 * the chunk; the blocks that fit are kept.  `problem` describes the
	 * first ("" when there was none). */
	uint32_t bad_chunks;
	struct reason problem;
};

/* Finds the Pcm setup chunk's blocks, then every F_Pcm chunk's in file
 * (= frame) order.  Returns 0 or -ENOMEM; a lying chunk is not an error
 * (see bad_chunks).  Always leaves `a` for cutscene_audio_free(). */
int cutscene_audio_layout(const struct ccsf_scene *s, const uint8_t *data,
			  size_t len, struct cutscene_audio *a);
void cutscene_audio_free(struct cutscene_audio *a);

/* 44 + 1,024 bytes per block. */
uint64_t cutscene_wav_size(const struct cutscene_audio *a);

/* Writes WAV bytes [off, off + n) to out (48 kHz, stereo, 16-bit PCM);
 * returns how many, fewer only at the end of the WAV.  `data` must be the
 * bytes the layout was made from; a block that no longer fits in len reads
 * as silence.  O(n): the first block is found by division. */
size_t cutscene_wav_read(const struct cutscene_audio *a, const uint8_t *data,
			 size_t len, uint64_t off, uint8_t *out, size_t n);

/* frames.txt: one line per frame-section record,
 *	<frame> <kind> <object> key=value ...
 * frame from the latest Top ("-" before the first), kind its lower-case
 * name, object the name object_name gives ("#N" when it gives none, "-"
 * for a record that names no object).  object_name may be NULL.  When the
 * walk stopped early a last line "# error: ..." says where.  Returns 0 or
 * -ENOMEM. */
int cutscene_frames_text(const struct ccsf_scene *s, const uint8_t *data,
			 size_t len,
			 const char *(*object_name)(void *ctx, uint32_t index),
			 void *ctx, struct strbuf *out);

/* True when `object` has at least one F_Obj record. */
/* anime.txt: the records of Anime chunk number `chunk` of the scene,
 * one line each as in frames.txt.  Returns 0 or -ENOMEM. */
int cutscene_anime_text(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t chunk,
			const char *(*object_name)(void *ctx, uint32_t index),
			void *ctx, struct strbuf *out);

bool cutscene_has_track(const struct ccsf_scene *s, uint32_t object);

/* Every object with an F_Obj record, ascending, each once; *objects is
 * malloc'ed (NULL when there are none).  Returns 0 or -ENOMEM. */
int cutscene_track_objects(const struct ccsf_scene *s, uint32_t **objects,
			   size_t *count);

/* track.txt: a "# frame pos_x ..." header line, then one line per F_Obj
 * record of `object`:
 *	frame pos_x pos_y pos_z rot_x rot_y rot_z scale_x scale_y scale_z tp
 * Returns 0 or -ENOMEM. */
int cutscene_track_text(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t object, struct strbuf *out);

#endif
