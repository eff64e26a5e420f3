/* SPDX-License-Identifier: MIT */
/* ccsw_frames.c - frame-record payloads (shared with ccsw_anime.c), Pcm
 * audio and the frame section. */
#include "ccsw_internal.h"

/* ---- frame-record payloads, shared by the frame section and Anime ---- */

void put_record(struct buf *b, uint16_t kind, uint16_t tag,
		const struct buf *payload)
{
	put_u16(b, kind);
	put_u16(b, tag);
	put_u32(b, (uint32_t)(payload->len / 4));
	put_bytes(b, payload->p, payload->len);
}

void f_obj_payload(struct buf *p, const struct ccsw_f_obj *f)
{
	put_u32(p, f->object);
	put_u32(p, f->flag);
	put_f32s(p, f->pos, 3);
	put_f32s(p, f->rot, 3);
	put_f32s(p, f->scale, 3);
	put_f32(p, f->tp);
	put_u32(p, f->disp_sw);
}

/* One value per clear bit 1-8 of flag, none if flag & 1. */
void f_camera_payload(struct buf *p, uint32_t object, uint32_t flag,
		      const float *values)
{
	put_u32(p, object);
	put_u32(p, flag);
	if (!(flag & 1)) {
		size_t k = 0;
		for (int bit = 1; bit <= 8; bit++)
			if (!(flag & (1u << bit)))
				put_f32(p, values ? values[k++] : 0.0f);
	}
}

/* ---- audio ---- */

/* A parabolic sine, integer only (no libm): left 375 Hz, right 750 Hz at
 * 48 kHz, so each period is a whole number of samples and the tone runs on
 * seamlessly from block to block and frame to frame.  Sample n of a
 * channel is the same wherever it is written, so a test can rebuild the
 * expected audio from ccsw_pcm_sample() alone. */
int16_t ccsw_pcm_sample(int channel, uint32_t n)
{
	uint32_t period = channel ? 64 : 128;
	int32_t ph = (int32_t)(n % period) * 1024 / (int32_t)period; /* 0..1023 */
	int32_t half = ph < 512 ? ph : ph - 512;          /* 0..511 */
	int32_t v = half * (512 - half);                  /* 0..65536 */
	v = v * 12000 / 65536;
	/* a little hiss, so the audio compresses like audio, not a table */
	int32_t hiss = (int32_t)(mix32((uint32_t)channel, n) & 255) - 128;
	return (int16_t)((ph < 512 ? v : -v) + hiss);
}

static void put_pcm_blocks(struct buf *p, uint32_t blocks,
			   const int16_t *samples, uint32_t first_sample)
{
	for (uint32_t b = 0; b < blocks; b++) {
		for (int ch = 0; ch < 2; ch++) {
			for (uint32_t i = 0; i < 256; i++) {
				int16_t s = samples
					? samples[(size_t)b * 512 + ch * 256 + i]
					: ccsw_pcm_sample(ch, first_sample +
							  b * 256 + i);
				put_u16(p, (uint16_t)s);
			}
		}
	}
}

void ccsw_pcm(struct ccsw *w, uint32_t id, uint8_t type, uint8_t track_type,
	      uint32_t blocks, const int16_t *samples, uint32_t first_sample)
{
	struct buf p = {0};
	put_u32(&p, id);
	put_u8(&p, type);
	put_u8(&p, 16);
	put_u8(&p, track_type);
	put_u8(&p, 0);
	put_u32(&p, blocks);
	put_u32(&p, 256);
	put_pcm_blocks(&p, blocks, samples, first_sample);
	add_chunk(w, CCSW_PCM, stream_tag(w), p.p, p.len, CCSW_SIZE_AUTO, 0);
	buf_free(&p);
}

/* ---- frame section ---- */

void ccsw_frame(struct ccsw *w, uint32_t count)
{
	struct buf p = {0};
	put_u32(&p, count);
	add_chunk(w, CCSW_FRAME, stream_tag(w), p.p, p.len, CCSW_SIZE_AUTO, 0);
	buf_free(&p);
	if (!w->header_frames_set)
		w->header_frames = count;
}

void ccsw_top(struct ccsw *w, uint32_t frame)
{
	struct buf p = {0};
	put_u32(&p, frame);
	emit(w, CCSW_TOP, &p, CCSW_SIZE_AUTO, 0);
}

void ccsw_end(struct ccsw *w) { ccsw_top(w, CCSW_END_FRAME); }

void ccsw_f_obj(struct ccsw *w, const struct ccsw_f_obj *f)
{
	struct buf p = {0};
	f_obj_payload(&p, f);
	emit(w, CCSW_F_OBJ, &p, CCSW_SIZE_AUTO, f->object);
}

void ccsw_f_note(struct ccsw *w, uint32_t object, uint32_t event,
		 uint32_t param)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_u32(&p, event);
	put_u32(&p, param);
	emit(w, CCSW_F_NOTE, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_f_material(struct ccsw *w, uint32_t material, uint32_t flag,
		     float u, float v)
{
	struct buf p = {0};
	put_u32(&p, material);
	put_u32(&p, flag);
	if (!(flag & 2)) {
		put_f32(&p, u);
		put_f32(&p, v);
	}
	emit(w, CCSW_F_MATERIAL, &p, CCSW_SIZE_AUTO, material);
}

void ccsw_f_camera(struct ccsw *w, uint32_t object, uint32_t flag,
		   const float *values)
{
	struct buf p = {0};
	f_camera_payload(&p, object, flag, values);
	emit(w, CCSW_F_CAMERA, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_f_ambient(struct ccsw *w, uint32_t rgb)
{
	struct buf p = {0};
	put_u32(&p, rgb);
	emit(w, CCSW_F_AMBIENT, &p, CCSW_SIZE_AUTO, 0);
}

void ccsw_f_shadow(struct ccsw *w, uint32_t object, float rx, float ry,
		   float rz, float alpha)
{
	struct buf p = {0};
	put_u32(&p, object);
	put_f32(&p, rx);
	put_f32(&p, ry);
	put_f32(&p, rz);
	put_f32(&p, alpha);
	emit(w, CCSW_F_SHADOW, &p, CCSW_SIZE_AUTO, object);
}

void ccsw_f_morpher(struct ccsw *w, uint32_t morpher, uint16_t n,
		    const uint32_t *targets, const float *weights)
{
	struct buf p = {0};
	put_u32(&p, morpher);
	put_u16(&p, n);
	put_u16(&p, 0);
	for (uint16_t i = 0; i < n; i++) {
		put_u32(&p, targets[i]);
		put_f32(&p, weights[i]);
	}
	emit(w, CCSW_F_MORPHER, &p, CCSW_SIZE_AUTO, morpher);
}

void ccsw_f_pcm(struct ccsw *w, uint32_t id, uint16_t blocks,
		const int16_t *samples, uint32_t first_sample)
{
	struct buf p = {0};
	put_u32(&p, id);
	put_u16(&p, blocks);
	put_u16(&p, 0);
	put_u32(&p, 256);
	put_pcm_blocks(&p, blocks, samples, first_sample);
	add_chunk(w, CCSW_F_PCM, stream_tag(w), p.p, p.len, CCSW_SIZE_AUTO, 0);
	buf_free(&p);
}
