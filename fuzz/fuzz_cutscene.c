/* SPDX-License-Identifier: MIT */
/* fuzz_cutscene.c - the input as an inflated stream scene: its Pcm and
 * F_Pcm blocks as audio.wav, read whole and at offsets the input picks,
 * and frames.txt, every track.txt and every Anime chunk's records
 * (decode/cutscene/cutscene.c).  The WAV is exactly as long as it says,
 * a read never gives more than asked, and the text is made whatever the
 * counts claim. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "decode/cutscene/cutscene.h"
#include "fuzz_common.h"

static const char *name_of(void *ctx, uint32_t index)
{
	(void)ctx;
	return index % 3 ? "OBJ_x" : NULL;
}

/* The WAV read in pieces as a kernel might: the header, then chunks of a
 * size the input chooses, then at the input's offsets. */
static void read_wav(const struct cutscene_audio *a, const uint8_t *data,
		     size_t size)
{
	uint64_t total = cutscene_wav_size(a);
	if (total != CUTSCENE_WAV_HEADER +
		     (uint64_t)a->block_count * CUTSCENE_PCM_BLOCK)
		abort();
	size_t piece = size ? 1 + data[0] * 61u : 4096;
	uint8_t *buf = malloc(piece);
	if (!buf)
		return;
	uint64_t got = 0;
	for (uint64_t off = 0; off < total && got < (64u << 20); off += piece)
		got += cutscene_wav_read(a, data, size, off, buf, piece);
	if (total < (64u << 20) && got != total)
		abort();
	for (size_t i = 0; i + 8 <= size && i < 64; i += 8) {
		uint64_t off;
		memcpy(&off, data + i, 8);
		size_t n = cutscene_wav_read(a, data, size,
					     total ? off % (total + 8) : off,
					     buf, piece);
		if (n > piece)
			abort();
	}
	free(buf);
}

static void make_texts(const struct ccsf_scene *s, const uint8_t *data,
		       size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	cutscene_frames_text(s, data, size, name_of, NULL, &sb);
	sb_free(&sb);
	for (uint32_t c = 0; c < s->chunk_count; c++)
		if (s->chunks[c].kind == CCSF_ANIME) {
			cutscene_anime_text(s, data, size, c, name_of, NULL,
					    &sb);
			sb_free(&sb);
		}
	uint32_t *objects = NULL;
	size_t count = 0;
	if (cutscene_track_objects(s, &objects, &count) == 0)
		for (size_t i = 0; i < count && i < 64; i++) {
			if (!cutscene_has_track(s, objects[i]))
				abort();
			cutscene_track_text(s, data, size, objects[i], &sb);
			sb_free(&sb);
		}
	free(objects);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ccsf_scene s;
	if (ccsf_walk(data, size, &s) == -ENOMEM) {
		ccsf_scene_free(&s);
		return 0;
	}
	struct cutscene_audio a;
	if (cutscene_audio_layout(&s, data, size, &a) == 0)
		read_wav(&a, data, size);
	cutscene_audio_free(&a);
	make_texts(&s, data, size);
	ccsf_scene_free(&s);
	return 0;
}
