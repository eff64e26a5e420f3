/* SPDX-License-Identifier: MIT */
/* test_cutscene.c - audio.wav sample for sample, frames.txt and track.txt
 * lines, truncated and lying scenes, and the float formatter. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "decode/cutscene/cutscene.h"
#include "testutil.h"

#define FRAMES 10
#define SETUP_BLOCKS 5

/* A stream scene: a Pcm setup chunk of SETUP_BLOCKS blocks, then FRAMES
 * frames, each a Top, an F_Obj for Kite, an F_Pcm of 2 to 7 blocks, and
 * on even frames an F_Obj for the backdrop; frame 3 also has an F_Shadow
 * and an F_Note. */
struct scene {
	uint8_t *bytes;         /* exactly len bytes, for ASan */
	size_t len;
	struct ccsw *w;
	uint32_t kite, backdrop;
	uint32_t samples;       /* stereo frames of audio written */
	struct ccsf_scene s;
	int walk_rc;
};

static uint16_t pcm_blocks_of_frame(uint32_t f)
{
	return (uint16_t)(2 + f % 6);
}

static struct ccsw_f_obj kite_at(uint32_t object, uint32_t f)
{
	struct ccsw_f_obj o = {
		.object = object, .flag = 0,
		.pos = { (float)f * 2.5f, -1.0f, 0.25f },
		.rot = { 0.0f, 90.0f, (float)f * 0.1f },
		.scale = { 1.0f, 1.0f, 1.5f }, .tp = f < 5 ? 0.5f : 1.0f,
		.disp_sw = 1,
	};
	return o;
}

static void build(struct scene *sc, bool with_audio)
{
	memset(sc, 0, sizeof *sc);
	struct ccsw *w = sc->w = ccsw_new("str0001", 0x100);
	uint32_t file = ccsw_file(w, "#c:\\art\\str0001e.max");
	sc->kite = ccsw_object_str(w, "OBJ_kite", file);
	sc->backdrop = ccsw_object_str(w, "OBJ_back drop", file);
	ccsw_setup(w);
	ccsw_obj(w, sc->kite, 0, 0, 0);
	if (with_audio) {
		ccsw_pcm(w, 1, 0, 0, SETUP_BLOCKS, NULL, 0);
		sc->samples = SETUP_BLOCKS * 256;
	}
	ccsw_frame(w, FRAMES);
	for (uint32_t f = 0; f < FRAMES; f++) {
		ccsw_top(w, f);
		struct ccsw_f_obj k = kite_at(sc->kite, f);
		ccsw_f_obj(w, &k);
		if (f % 2 == 0) {
			struct ccsw_f_obj b = kite_at(sc->backdrop, 100 + f);
			ccsw_f_obj(w, &b);
		}
		if (f == 3) {
			ccsw_f_shadow(w, sc->kite, 1.0f, 2.0f, 3.0f, 0.75f);
			ccsw_f_note(w, sc->kite, 0x8001, 7);
		}
		if (with_audio) {
			uint16_t n = pcm_blocks_of_frame(f);
			ccsw_f_pcm(w, 1, n, NULL, sc->samples);
			sc->samples += n * 256u;
		}
	}
	ccsw_end(w);
	uint8_t *bytes = ccsw_finish(w, &sc->len);
	sc->bytes = malloc(sc->len);
	assert_non_null(sc->bytes);
	memcpy(sc->bytes, bytes, sc->len);
	free(bytes);
}

static void walk(struct scene *sc)
{
	sc->walk_rc = ccsf_walk(sc->bytes, sc->len, &sc->s);
}

static void release(struct scene *sc)
{
	ccsf_scene_free(&sc->s);
	ccsw_free(sc->w);
	free(sc->bytes);
}

static size_t offset_of_chunk(const struct scene *sc, size_t i)
{
	return ccsw_chunk_at(sc->w, i)->offset;
}

/* Index of the n-th chunk (from 0) of `kind` the writer wrote. */
static size_t nth_chunk(const struct scene *sc, uint16_t kind, unsigned n)
{
	for (size_t i = 0; i < ccsw_chunk_count(sc->w); i++)
		if (ccsw_chunk_at(sc->w, i)->kind == kind && n-- == 0)
			return i;
	fail_msg("no chunk %u of kind 0x%04x", n, kind);
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static int16_t s16at(const uint8_t *p)
{
	return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

/* Every sample of wav[44..] against the generator, frame by frame. */
static void check_samples(const uint8_t *wav, size_t size, uint32_t frames)
{
	assert_int_equal(size, 44 + (size_t)frames * 4);
	for (uint32_t j = 0; j < frames; j++) {
		const uint8_t *p = wav + 44 + (size_t)j * 4;
		if (s16at(p) != ccsw_pcm_sample(0, j) ||
		    s16at(p + 2) != ccsw_pcm_sample(1, j))
			fail_msg("frame %u: %d %d, want %d %d", j, s16at(p),
				 s16at(p + 2), ccsw_pcm_sample(0, j),
				 ccsw_pcm_sample(1, j));
	}
}

static uint8_t *read_whole(const struct cutscene_audio *a,
			   const struct scene *sc, size_t *size)
{
	*size = (size_t)cutscene_wav_size(a);
	uint8_t *wav = malloc(*size);
	assert_non_null(wav);
	assert_int_equal(cutscene_wav_read(a, sc->bytes, sc->len, 0, wav,
					   *size), *size);
	return wav;
}

/* ---- audio ---------------------------------------------------------------- */

static void wav_header_and_size(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, true);
	walk(&sc);
	assert_int_equal(sc.walk_rc, 0);
	struct cutscene_audio a;
	assert_int_equal(cutscene_audio_layout(&sc.s, sc.bytes, sc.len, &a), 0);
	assert_true(a.present);
	assert_int_equal(a.bad_chunks, 0);
	assert_string_equal(a.problem.text, "");
	uint32_t blocks = sc.samples / 256;
	assert_int_equal(a.block_count, blocks);
	assert_int_equal(cutscene_wav_size(&a), 44 + (uint64_t)blocks * 1024);

	uint32_t data = blocks * 1024;
	uint8_t want[44] = {
		'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'A', 'V', 'E',
		'f', 'm', 't', ' ', 16, 0, 0, 0, 1, 0, 2, 0,
		0x80, 0xbb, 0, 0, 0x00, 0xee, 0x02, 0x00, 4, 0, 16, 0,
		'd', 'a', 't', 'a', 0, 0, 0, 0,
	};
	put32(want + 4, 36 + data);
	put32(want + 40, data);
	uint8_t got[44];
	assert_int_equal(cutscene_wav_read(&a, sc.bytes, sc.len, 0, got, 44),
			 44);
	assert_memory_equal(got, want, 44);
	/* A read from inside the header. */
	assert_int_equal(cutscene_wav_read(&a, sc.bytes, sc.len, 22, got, 3),
			 3);
	assert_memory_equal(got, want + 22, 3);
	cutscene_audio_free(&a);
	release(&sc);
}

static void every_sample_whole(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, true);
	walk(&sc);
	struct cutscene_audio a;
	assert_int_equal(cutscene_audio_layout(&sc.s, sc.bytes, sc.len, &a), 0);
	size_t size;
	uint8_t *wav = read_whole(&a, &sc, &size);
	check_samples(wav, size, sc.samples);
	free(wav);
	cutscene_audio_free(&a);
	release(&sc);
}

/* Reads the WAV in pieces of `piece` bytes from `start` on, each into an
 * exactly sized buffer, and checks them against the whole read. */
static void read_in_pieces(const struct cutscene_audio *a,
			   const struct scene *sc, const uint8_t *whole,
			   size_t size, size_t start, size_t piece)
{
	for (size_t off = start; off < size + piece; off += piece) {
		uint8_t *buf = malloc(piece);
		size_t got = cutscene_wav_read(a, sc->bytes, sc->len, off, buf,
					       piece);
		size_t want = off >= size ? 0 : size - off < piece ? size - off
								  : piece;
		assert_int_equal(got, want);
		if (got && memcmp(buf, whole + off, got) != 0)
			fail_msg("piece %zu at %zu differs", piece, off);
		free(buf);
	}
}

static void every_sample_in_pieces(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, true);
	walk(&sc);
	struct cutscene_audio a;
	assert_int_equal(cutscene_audio_layout(&sc.s, sc.bytes, sc.len, &a), 0);
	size_t size;
	uint8_t *whole = read_whole(&a, &sc, &size);
	check_samples(whole, size, sc.samples);
	static const size_t pieces[] = { 1, 3, 7, 43, 45, 1023, 1024, 1025,
					 4095 };
	static const size_t starts[] = { 0, 1, 7, 43, 44, 45, 1067, 2047 };
	for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++)
		for (size_t j = 0; j < sizeof starts / sizeof *starts; j++)
			read_in_pieces(&a, &sc, whole, size, starts[j],
				       pieces[i]);
	/* Reads at and past the end. */
	uint8_t b[8];
	assert_int_equal(cutscene_wav_read(&a, sc.bytes, sc.len, size, b, 8), 0);
	assert_int_equal(cutscene_wav_read(&a, sc.bytes, sc.len, size + 5000,
					   b, 8), 0);
	assert_int_equal(cutscene_wav_read(&a, sc.bytes, sc.len, size - 3, b,
					   8), 3);
	assert_memory_equal(b, whole + size - 3, 3);
	free(whole);
	cutscene_audio_free(&a);
	release(&sc);
}

static void no_audio(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, false);
	walk(&sc);
	struct cutscene_audio a;
	assert_int_equal(cutscene_audio_layout(&sc.s, sc.bytes, sc.len, &a), 0);
	assert_false(a.present);
	assert_int_equal(a.block_count, 0);
	assert_int_equal(cutscene_wav_size(&a), 44);
	cutscene_audio_free(&a);
	release(&sc);
}

/* Counts that claim more (and fewer) blocks than the chunk holds, and a
 * block size that is not 256 words: what fits is used, and said. */
static void lying_counts(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, true);
	size_t pcm = offset_of_chunk(&sc, nth_chunk(&sc, CCSW_PCM, 0));
	size_t f0 = offset_of_chunk(&sc, nth_chunk(&sc, CCSW_F_PCM, 0));
	size_t f1 = offset_of_chunk(&sc, nth_chunk(&sc, CCSW_F_PCM, 1));
	size_t f2 = offset_of_chunk(&sc, nth_chunk(&sc, CCSW_F_PCM, 2));
	put32(sc.bytes + pcm + 8 + 8, 0xffffffffu);     /* Pcm dataNum */
	sc.bytes[f0 + 8 + 4] = 0xff;                    /* F_Pcm 2 -> 65535 */
	sc.bytes[f0 + 8 + 5] = 0xff;
	sc.bytes[f1 + 8 + 4] = 1;                       /* 3 blocks say 1 */
	put32(sc.bytes + f2 + 8 + 8, 255);              /* dataSize 255 */
	walk(&sc);
	assert_int_equal(sc.walk_rc, 0);
	struct cutscene_audio a;
	assert_int_equal(cutscene_audio_layout(&sc.s, sc.bytes, sc.len, &a), 0);
	assert_true(a.present);
	assert_int_equal(a.bad_chunks, 4);
	assert_non_null(strstr(a.problem.text, "claims 4294967295 blocks, 5 kept"));
	/* All but frame 1's last two blocks and frame 2's four. */
	assert_int_equal(a.block_count, sc.samples / 256 - 2 - 4);
	size_t size;
	uint8_t *wav = read_whole(&a, &sc, &size);
	/* The first seven blocks are still the tone. */
	check_samples(wav, 44 + 7 * 1024, 7 * 256);
	free(wav);
	cutscene_audio_free(&a);
	release(&sc);
}

/* A frame section cut off inside frame 6's F_Pcm: the walk fails, and
 * what came before stays. */
static void truncated_frames(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, true);
	size_t f6 = offset_of_chunk(&sc, nth_chunk(&sc, CCSW_F_PCM, 6));
	uint8_t *cut = malloc(f6 + 100);
	memcpy(cut, sc.bytes, f6 + 100);
	free(sc.bytes);
	sc.bytes = cut;
	sc.len = f6 + 100;
	walk(&sc);
	assert_int_equal(sc.walk_rc, -EIO);
	struct cutscene_audio a;
	assert_int_equal(cutscene_audio_layout(&sc.s, sc.bytes, sc.len, &a), 0);
	uint32_t frames = SETUP_BLOCKS * 256;
	for (uint32_t f = 0; f < 6; f++)
		frames += pcm_blocks_of_frame(f) * 256u;
	assert_int_equal(a.block_count, frames / 256);
	size_t size;
	uint8_t *wav = read_whole(&a, &sc, &size);
	check_samples(wav, size, frames);
	free(wav);
	cutscene_audio_free(&a);

	struct strbuf t = STRBUF_INIT;
	assert_int_equal(cutscene_track_text(&sc.s, sc.bytes, sc.len, sc.kite,
					     &t), 0);
	assert_non_null(strstr(t.data, "\n6 15 -1 0.25 "));
	assert_null(strstr(t.data, "\n7 "));
	sb_free(&t);
	struct strbuf fr = STRBUF_INIT;
	assert_int_equal(cutscene_frames_text(&sc.s, sc.bytes, sc.len, NULL,
					      NULL, &fr), 0);
	assert_non_null(strstr(fr.data, "\n5 f_pcm - id=1 blocks=7 words=256\n"));
	assert_non_null(strstr(fr.data, "\n6 f_obj #1 "));
	assert_non_null(strstr(fr.data, "\n# error: at 0x"));
	sb_free(&fr);
	release(&sc);
}

/* ---- frames.txt and track.txt ------------------------------------------ */

static const char *name_of(void *ctx, uint32_t index)
{
	const struct ccsf_scene *s = ctx;
	return (const char *)s->objects[index].name;
}

static void frames_text_lines(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, true);
	walk(&sc);
	struct strbuf t = STRBUF_INIT;
	assert_int_equal(cutscene_frames_text(&sc.s, sc.bytes, sc.len, name_of,
					      &sc.s, &t), 0);
	assert_false(t.failed);
	const char *lines[] = {
		"0 top - frame=0\n",
		"\n3 f_obj OBJ_kite pos=7.5,-1,0.25 rot=0,90,0.300000012 "
		"scale=1,1,1.5 tp=0.5 flag=0x00000000 dispSW=0x00000001\n",
		"\n4 f_obj OBJ_back%20drop pos=260,-1,0.25 rot=0,90,10.4000006 "
		"scale=1,1,1.5 tp=1 flag=0x00000000 dispSW=0x00000001\n",
		"\n3 f_shadow OBJ_kite rot=1,2,3 alpha=0.75\n",
		"\n3 f_note OBJ_kite event=0x8001 param=7\n",
		"\n3 f_pcm - id=1 blocks=5 words=256\n",
		"\n-1 top - frame=-1\n",
	};
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
		if (!strstr(t.data, lines[i]))
			fail_msg("no line %s in\n%s", lines[i], t.data);
	assert_null(strstr(t.data, "# error"));
	/* Top + kite + pcm per frame, backdrop on 5 of them, 2 at frame 3,
	 * the end Top. */
	size_t n = 0;
	for (const char *p = t.data; *p; p++)
		n += *p == '\n';
	assert_int_equal(n, FRAMES * 3 + 5 + 2 + 1);
	sb_free(&t);
	release(&sc);
}

static void track_text_values(void **state)
{
	(void)state;
	struct scene sc;
	build(&sc, true);
	walk(&sc);
	struct strbuf t = STRBUF_INIT;
	assert_int_equal(cutscene_track_text(&sc.s, sc.bytes, sc.len, sc.kite,
					     &t), 0);
	char want[4096];
	size_t n = (size_t)snprintf(want, sizeof want, "# frame pos_x pos_y "
		"pos_z rot_x rot_y rot_z scale_x scale_y scale_z tp\n");
	for (uint32_t f = 0; f < FRAMES; f++) {
		struct ccsw_f_obj k = kite_at(sc.kite, f);
		n += (size_t)snprintf(want + n, sizeof want - n,
			"%u %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n",
			f, k.pos[0], k.pos[1], k.pos[2], k.rot[0], k.rot[1],
			k.rot[2], k.scale[0], k.scale[1], k.scale[2], k.tp);
	}
	assert_string_equal(t.data, want);
	sb_free(&t);

	assert_true(cutscene_has_track(&sc.s, sc.kite));
	assert_true(cutscene_has_track(&sc.s, sc.backdrop));
	assert_false(cutscene_has_track(&sc.s, 0));
	uint32_t *objs;
	size_t count;
	assert_int_equal(cutscene_track_objects(&sc.s, &objs, &count), 0);
	assert_int_equal(count, 2);
	assert_int_equal(objs[0], sc.kite);
	assert_int_equal(objs[1], sc.backdrop);
	free(objs);

	/* An object without records: the header line only. */
	struct strbuf e = STRBUF_INIT;
	assert_int_equal(cutscene_track_text(&sc.s, sc.bytes, sc.len, 0, &e), 0);
	assert_string_equal(e.data, "# frame pos_x pos_y pos_z rot_x rot_y "
			    "rot_z scale_x scale_y scale_z tp\n");
	sb_free(&e);
	release(&sc);
}

/* A short F_Obj (size field 4 words) is reported on its line, not read
 * past. */
static void short_f_obj(void **state)
{
	(void)state;
	struct ccsw *w = ccsw_new("str0002", 0x100);
	uint32_t kite = ccsw_object_str(w, "OBJ_kite", 0);
	ccsw_setup(w);
	ccsw_frame(w, 1);
	ccsw_top(w, 0);
	uint32_t payload[4] = { kite, 0, 0x3f800000, 0 };
	ccsw_chunk(w, CCSW_F_OBJ, CCSW_TAG, payload, sizeof payload,
		   CCSW_SIZE_AUTO);
	ccsw_end(w);
	size_t len;
	uint8_t *tmp = ccsw_finish(w, &len);
	uint8_t *bytes = malloc(len);
	memcpy(bytes, tmp, len);
	free(tmp);
	struct ccsf_scene s;
	assert_int_equal(ccsf_walk(bytes, len, &s), 0);
	struct strbuf t = STRBUF_INIT;
	assert_int_equal(cutscene_frames_text(&s, bytes, len, NULL, NULL, &t),
			 0);
	assert_non_null(strstr(t.data, "\n0 f_obj #1 error=short_16_of_52_bytes "
			       "words=00000000,3f800000,00000000\n"));
	sb_free(&t);
	assert_int_equal(cutscene_track_text(&s, bytes, len, kite, &t), 0);
	assert_non_null(strstr(t.data, "# an f_obj record of 16 bytes"));
	sb_free(&t);
	ccsf_scene_free(&s);
	free(bytes);
	ccsw_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wav_header_and_size),
		cmocka_unit_test(every_sample_whole),
		cmocka_unit_test(every_sample_in_pieces),
		cmocka_unit_test(no_audio),
		cmocka_unit_test(lying_counts),
		cmocka_unit_test(truncated_frames),
		cmocka_unit_test(frames_text_lines),
		cmocka_unit_test(track_text_values),
		cmocka_unit_test(short_f_obj),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
