/* SPDX-License-Identifier: MIT */
/* ccsw_anime.c - the Anime chunk (0x0700): controllers under Top 0,
 * per-frame records under the later Tops, the end Top. */
#include "ccsw_internal.h"

#define CCSW_LOOP_FRAME 0xfffffffeu     /* the end Top of a looping clip */

/* What each selector slot of a kind holds (doc/formats/anime.md,
 * Controllers): 'v' a vec3, 'f' an f32, 'c' a u32 colour, '-' nothing
 * known (written as an f32, so a test can still fill it). */
static const char *slot_values(uint16_t kind)
{
	switch (kind) {
	case CCSW_CTL_OBJECT: return "vvvf";
	case CCSW_CTL_MATERIAL: return "ff";
	case CCSW_CTL_DISTANT: return "-vcf";
	case CCSW_CTL_DIRECT: return "vvcfffff";
	case CCSW_CTL_OMNI: return "v-cfff";
	default: return "";
	}
}

static void put_value(struct buf *p, char type, const float v[3],
		      uint32_t rgb)
{
	if (type == 'c')
		put_u32(p, rgb);
	else
		put_f32s(p, v, type == 'v' ? 3 : 1);
}

static uint32_t ctl_flags(const struct ccsw_ctl *c)
{
	uint32_t flags = 0;
	for (unsigned k = 0; k < CCSW_CTL_FIELDS; k++)
		flags |= (uint32_t)(c->field[k].mode & 7) << (3 * k);
	return flags;
}

/* Fields packed in slot order, only the present ones taking bytes. */
static void ctl_payload(struct buf *p, const struct ccsw_ctl *c)
{
	const char *types = slot_values(c->kind);
	size_t ntypes = strlen(types);
	put_u32(p, c->target);
	put_u32(p, ctl_flags(c));
	for (unsigned k = 0; k < CCSW_CTL_FIELDS; k++) {
		const struct ccsw_ctl_field *f = &c->field[k];
		char type = k < ntypes ? types[k] : 'f';
		if (f->mode == CCSW_CONSTANT) {
			put_value(p, type, f->v, f->rgb);
		} else if (f->mode == CCSW_KEYED) {
			put_u32(p, f->count_lie ? f->count_lie : f->key_count);
			for (uint32_t i = 0; i < f->key_count; i++) {
				put_u32(p, f->keys[i].frame);
				put_value(p, type, f->keys[i].v,
					  f->keys[i].rgb);
			}
		}
	}
}

static void rec_payload(struct buf *p, const struct ccsw_frame_rec *r)
{
	switch (r->kind) {
	case CCSW_F_CAMERA:
		f_camera_payload(p, r->object, r->flag, r->values);
		break;
	case CCSW_F_OBJ:
		f_obj_payload(p, &r->f_obj);
		break;
	case CCSW_F_MORPHER:
		put_u32(p, r->object);
		put_u16(p, r->target_count);
		put_u16(p, 0);
		for (uint16_t i = 0; i < r->target_count && i < 8; i++) {
			put_u32(p, r->targets[i]);
			put_f32(p, r->values[i]);
		}
		break;
	default:        /* CCSW_F_AMBIENT */
		put_u32(p, r->rgb);
		break;
	}
}

static void put_top(struct buf *body, uint32_t frame)
{
	struct buf rec = {0};
	put_u32(&rec, frame);
	put_record(body, CCSW_TOP, CCSW_TAG, &rec);
	buf_free(&rec);
}

/* The records of one frame, in the order the description gives them. */
static void put_frame_recs(struct buf *body, const struct ccsw_anime_desc *a,
			   uint32_t frame)
{
	for (size_t i = 0; i < a->rec_count; i++) {
		if (a->recs[i].frame != frame)
			continue;
		struct buf rec = {0};
		rec_payload(&rec, &a->recs[i]);
		put_record(body, a->recs[i].kind, CCSW_TAG, &rec);
		buf_free(&rec);
	}
}

void ccsw_anime_write(struct ccsw *w, const struct ccsw_anime_desc *a)
{
	struct buf body = {0};
	for (uint32_t f = 0; f < a->frames; f++) {
		put_top(&body, f);
		for (size_t i = 0; f == 0 && i < a->ctl_count; i++) {
			struct buf rec = {0};
			ctl_payload(&rec, &a->ctls[i]);
			put_record(&body, a->ctls[i].kind, CCSW_TAG, &rec);
			buf_free(&rec);
		}
		put_frame_recs(&body, a, f);
	}
	put_top(&body, a->loop ? CCSW_LOOP_FRAME : CCSW_END_FRAME);
	struct buf p = {0};
	put_u32(&p, a->object);
	put_u32(&p, a->frames);
	put_u32(&p, (uint32_t)(body.len / 4));
	put_bytes(&p, body.p, body.len);
	buf_free(&body);
	emit(w, CCSW_ANIME, &p, CCSW_SIZE_AUTO, a->object);
}

struct ccsw_f_obj ccsw_f_obj_moving(uint32_t object, uint32_t frame)
{
	struct ccsw_f_obj f = {
		.object = object, .flag = 0,
		.pos = { (float)frame * 2.0f, 0.0f, (float)(frame % 16) },
		.rot = { 0.0f, 0.0f, (float)((frame * 6) % 360) },
		.scale = { 1.0f, 1.0f, 1.0f }, .tp = 1.0f, .disp_sw = 1,
	};
	return f;
}

/* The first Anime writer's clip: an F_Obj for target at every frame, no
 * controllers; its bytes are what the older tests were written against. */
void ccsw_anime(struct ccsw *w, uint32_t object, uint32_t target,
		uint32_t frames)
{
	struct ccsw_frame_rec *recs = xrealloc(NULL, sizeof *recs *
					       (frames ? frames : 1));
	for (uint32_t f = 0; f < frames; f++) {
		memset(&recs[f], 0, sizeof recs[f]);
		recs[f].frame = f;
		recs[f].kind = CCSW_F_OBJ;
		recs[f].f_obj = ccsw_f_obj_moving(target, f);
	}
	struct ccsw_anime_desc a = { .object = object, .frames = frames,
				     .rec_count = frames, .recs = recs };
	ccsw_anime_write(w, &a);
	free(recs);
}
