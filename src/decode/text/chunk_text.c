/* SPDX-License-Identifier: MIT */
/* chunk_text.c - the decoders behind <kind>.txt (doc/formats/ccsf.md).
 *
 * Most chunks are a fixed run of fields, so most kinds are one table row:
 * a field list printed one `key: value` a line.  Arrays (levels, colours,
 * nodes, vertices) go through a tail function, one record a line.
 *
 * Every read goes through a cursor over the chunk's real length.  When a
 * field does not fit, the decoder writes one `error:` line and stops: the
 * text is the report, so a lying chunk still decodes to a file.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsf/layout.h"
#include "decode/text/chunk_dec.h"
#include "decode/text/chunk_text.h"
#include "util/bytes.h"
#include "util/floatfmt.h"
#include "util/names.h"

/* ---- header and index -------------------------------------------------- */

static void header_tail(struct dec *d)
{
	static const struct field word[] = { F(FT_HEX32, NULL), END };
	chunk_dec_record_lines(d, "word", d->saved[SV_COUNT], word);
}

static void index_tail(struct dec *d)
{
	uint32_t files = d->saved[SV_COUNT], objects = d->saved[SV_COUNT2];
	char what[32];
	for (uint32_t i = 0; i < files; i++) {
		snprintf(what, sizeof what, "file %" PRIu32, i);
		const uint8_t *path = chunk_dec_take(d, CCSF_NAME_LEN, what);
		if (!path)
			return;
		sb_printf(d->out, "%s: ", what);
		chunk_dec_put_raw_name(d, path, CCSF_NAME_LEN);
		sb_puts(d->out, "\n");
	}
	for (uint32_t i = 0; i < objects; i++) {
		snprintf(what, sizeof what, "object %" PRIu32, i);
		const uint8_t *rec = chunk_dec_take(d, CCSF_OBJECT_NAME_LEN + 2,
						    what);
		if (!rec)
			return;
		const char *name = d->object_name ?
			d->object_name(d->name_ctx, i) : NULL;
		sb_printf(d->out, "%s: ", what);
		if (name)
			sb_puts(d->out, name);
		else
			chunk_dec_put_raw_name(d, rec, CCSF_OBJECT_NAME_LEN);
		sb_printf(d->out, " file %u\n",
			  rd_u16le(rec + CCSF_OBJECT_NAME_LEN));
	}
}

/* ---- textures and palettes --------------------------------------------- */

static void texture_tail(struct dec *d)
{
	static const struct field level[] = {
		F(FT_U16, "buf_x"), F(FT_U16, "buf_y"),
		FS(FT_U32, "count", SV_COUNT), END
	};
	/* How many levels is the layout's (one before version 0x90); the
	 * fields before them were read above, so the head fits. */
	struct ccsf_texture t;
	(void)ccsf_texture_head(d->cur.p, d->cur.len, d->version, &t);
	uint32_t levels = t.levels;
	char what[32];
	for (uint32_t i = 0; i < levels && !d->stopped; i++) {
		if (!chunk_dec_record_line(d, "level", i, level))
			return;
		snprintf(what, sizeof what, "level %" PRIu32 " pixels", i);
		chunk_dec_byte_run(d, what, 4 * (uint64_t)d->saved[SV_COUNT]);
	}
}

static void clut_tail(struct dec *d)
{
	static const struct field colour[] = { F(FT_RGBA, NULL), END };
	if (d->version >= 0x90)
		chunk_dec_record_lines(d, "colour", d->saved[SV_COUNT], colour);
}

/* ---- small arrays ------------------------------------------------------ */

static void clump_tail(struct dec *d)
{
	static const struct field node[] = { F(FT_OBJ, NULL), END };
	chunk_dec_record_lines(d, "node", d->saved[SV_COUNT], node);
}

static void layer_tail(struct dec *d)
{
	static const struct field entry[] = {
		F(FT_U8, "kind"), PAD, F(FT_OBJ, "object"), END
	};
	chunk_dec_record_lines(d, "layer", d->saved[SV_COUNT], entry);
}

static void fbpage_tail(struct dec *d)
{
	static const struct field info[] = {
		F(FT_U8, "px"), F(FT_U8, "py"), F(FT_U8, "pw"), F(FT_U8, "ph"),
		F(FT_HEX8, "type"), PAD, END
	};
	chunk_dec_record_lines(d, "page", d->saved[SV_COUNT], info);
}

static void f_morpher_tail(struct dec *d)
{
	static const struct field target[] = {
		F(FT_OBJ, "model"), F(FT_F32, "weight"), END
	};
	chunk_dec_record_lines(d, "target", d->saved[SV_COUNT], target);
}

/* Blocks of words * 4 bytes of PCM; the samples go to audio.wav.  Two
 * u32 counts can claim more than 64 bits hold: such a claim is reported
 * as UINT64_MAX bytes, which no chunk has. */
static void pcm_tail(struct dec *d)
{
	uint64_t block = 4 * (uint64_t)d->saved[SV_COUNT2];
	uint64_t blocks = d->saved[SV_COUNT];
	uint64_t bytes = blocks && block > UINT64_MAX / blocks ?
		UINT64_MAX : block * blocks;
	chunk_dec_byte_run(d, "data", bytes);
}

/* ---- frame records with optional fields -------------------------------- */

static void f_camera_tail(struct dec *d)
{
	/* A float per clear bit 1-8; bit 0 set means none at all. */
	static const char *const names[] = {
		"pos_x", "pos_y", "pos_z", "rot_x", "rot_y", "rot_z",
		"unused", "fov",
	};
	uint32_t flag = d->saved[SV_FLAG];
	if (flag & 1)
		return;
	for (unsigned bit = 1; bit <= 8; bit++) {
		if (flag & (1u << bit))
			continue;
		const struct field f[] = { F(FT_F32, names[bit - 1]), END };
		if (!chunk_dec_field_lines(d, f))
			return;
	}
}

static void f_material_tail(struct dec *d)
{
	static const struct field uv[] = { F(FT_F32, "u"), F(FT_F32, "v"), END };
	if (!(d->saved[SV_FLAG] & 2))
		(void)chunk_dec_field_lines(d, uv);
}

static void f_distantlight_tail(struct dec *d)
{
	static const struct field intensity[] = {
		F(FT_F32, "intensity"), END
	};
	if (d->saved[SV_FLAG] & 0x20)
		(void)chunk_dec_field_lines(d, intensity);
}

/* ---- the table --------------------------------------------------------- */

static const struct field header_fields[] = {
	F(FT_CHAR4, "magic"), F(FT_CHAR32, "name"), F(FT_HEX16, "version"),
	PAD, F(FT_U32, "frames"), FS(FT_U32, "count", SV_COUNT), END
};
static const struct field index_fields[] = {
	FS(FT_U32, "file_count", SV_COUNT),
	FS(FT_U32, "object_count", SV_COUNT2), END
};
static const struct field setup_fields[] = { END };
static const struct field frame_fields[] = { F(FT_U32, "frames"), END };
static const struct field obj_fields[] = {
	F(FT_OBJ, "object"), F(FT_OBJ, "parent"), F(FT_OBJ, "model"),
	FV(FT_OBJ, "shadow_model", 0x96), END
};
static const struct field material_fields[] = {
	F(FT_OBJ, "material"), F(FT_OBJ, "texture"),
	F(FT_F32, "transparency"), F(FT_U16, "crop_u"), F(FT_U16, "crop_v"),
	END
};
static const struct field texture_fields[] = {
	F(FT_OBJ, "texture"), F(FT_OBJ, "clut"),
	FV(FT_OBJ, "blt_group", 0x92),
	F(FT_HEX8, "flag"), F(FT_HEX8, "psm"),
	FV(FT_U8, "mipmap", 0x90), FV(FT_U8, "aref", 0x90),
	FV(FT_U8, "tw", 0x90), FV(FT_U8, "th", 0x90), PAD, END
};
static const struct field clut_fields[] = {
	F(FT_OBJ, "clut"), FV(FT_OBJ, "blt_group", 0x92),
	FV(FT_HEX8, "flag", 0x90), FV(FT_HEX8, "cpsm", 0x90),
	FV(FT_U8, "unknown_2", 0x90), FV(FT_U8, "unknown_3", 0x90),
	FV(FT_U16, "buf_x", 0x90), FV(FT_U16, "buf_y", 0x90),
	FVS(FT_U32, "count", 0x90, SV_COUNT), END
};
static const struct field camera_fields[] = { F(FT_OBJ, "camera"), END };
static const struct field light_fields[] = {
	F(FT_OBJ, "light"), F(FT_LIGHT_TYPE, "type"), PAD, END
};
static const struct field model_fields[] = {
	F(FT_OBJ, "model"), FS(FT_F32, "vertex_scale", SV_SCALE),
	FS(FT_MTYPE, "mtype", SV_MTYPE), FS(FT_U16, "mmats", SV_COUNT),
	F(FT_HEX16, "flag"), F(FT_S16, "zoffs"), F(FT_HEX8, "unknown"),
	PAD, END
};
static const struct field clump_fields[] = {
	F(FT_OBJ, "clump"), FS(FT_U16, "nodes", SV_COUNT), PAD, END
};
static const struct field extobj_fields[] = {
	F(FT_OBJ, "object"), F(FT_OBJ, "parent"), F(FT_OBJ, "target"), END
};
static const struct field hit_fields[] = {
	F(FT_OBJ, "hit"), F(FT_OBJ, "parent"),
	FS(FT_U16, "groups", SV_COUNT), PAD,
	F(FT_U32, "vertices"), END
};
static const struct field bbox_fields[] = {
	F(FT_OBJ, "box"), F(FT_OBJ, "target"), F(FT_VEC3, "min"),
	F(FT_VEC3, "max"), END
};
static const struct field fbrect_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX8, "type"), PAD,
	F(FT_U16, "fx"), F(FT_U16, "fy"), F(FT_U16, "w"), F(FT_U16, "h"), END
};
static const struct field fbpage_fields[] = {
	F(FT_OBJ, "object"), FS(FT_U32, "pages", SV_COUNT), END
};
static const struct field dummypos_fields[] = {
	F(FT_OBJ, "object"), F(FT_VEC3, "pos"), END
};
static const struct field dummyposrot_fields[] = {
	F(FT_OBJ, "object"), F(FT_VEC3, "pos"), F(FT_VEC3, "rot"), END
};
static const struct field layer_fields[] = {
	FS(FT_U16, "layers", SV_COUNT), PAD, END
};
static const struct field morpher_fields[] = {
	F(FT_OBJ, "morpher"), F(FT_OBJ, "model"), END
};
static const struct field obj2_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX32, "flags"), F(FT_OBJ, "modifier"),
	F(FT_OBJ, "layer"), F(FT_OBJ, "slayer"), END
};
static const struct field pcm_fields[] = {
	F(FT_U32, "id"), F(FT_U8, "type"), F(FT_U8, "bits"),
	F(FT_U8, "track"), PAD, FS(FT_U32, "blocks", SV_COUNT),
	FS(FT_U32, "block_words", SV_COUNT2), END
};
static const struct field top_fields[] = { F(FT_S32, "frame"), END };
/* CCSTRM_FSET_OBJ's names, as frames.txt and track.txt use them. */
static const struct field f_obj_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX32, "flag"), F(FT_VEC3, "pos"),
	F(FT_VEC3, "rot"), F(FT_VEC3, "scale"), F(FT_F32, "tp"),
	F(FT_HEX32, "dispSW"), END
};
static const struct field f_note_fields[] = {
	F(FT_OBJ, "object"), F(FT_HEX32, "event"), F(FT_U32, "param"), END
};
static const struct field f_material_fields[] = {
	F(FT_OBJ, "material"), FS(FT_HEX32, "flag", SV_FLAG), END
};
static const struct field f_camera_fields[] = {
	F(FT_OBJ, "camera"), FS(FT_HEX32, "flag", SV_FLAG), END
};
static const struct field f_ambient_fields[] = { F(FT_RGBA, "colour"), END };
static const struct field f_distantlight_fields[] = {
	F(FT_OBJ, "light"), FS(FT_HEX32, "flag", SV_FLAG), F(FT_VEC3, "rot"),
	F(FT_RGBA, "colour"), END
};
static const struct field f_omnilight_fields[] = {
	F(FT_OBJ, "light"), F(FT_HEX32, "flag"), F(FT_VEC3, "pos"),
	F(FT_RGBA, "colour"), F(FT_F32, "intensity"),
	F(FT_F32, "far_start"), F(FT_F32, "far_end"), END
};
static const struct field f_shadow_fields[] = {
	F(FT_OBJ, "object"), F(FT_VEC3, "rot"), F(FT_F32, "alpha"), END
};
static const struct field f_morpher_fields[] = {
	F(FT_OBJ, "morpher"), FS(FT_U16, "targets", SV_COUNT), PAD, END
};
static const struct field f_pcm_fields[] = {
	F(FT_U32, "id"), FS(FT_U16, "blocks", SV_COUNT), PAD,
	FS(FT_U32, "block_words", SV_COUNT2), END
};

struct decoder {
	uint16_t kind;
	const struct field *fields;
	void (*tail)(struct dec *d);
};

static const struct decoder decoders[] = {
	{ CCSF_HEADER, header_fields, header_tail },
	{ CCSF_INDEX, index_fields, index_tail },
	{ CCSF_SETUP, setup_fields, NULL },
	{ CCSF_FRAME, frame_fields, NULL },
	{ CCSF_OBJ, obj_fields, NULL },
	{ CCSF_MATERIAL, material_fields, NULL },
	{ CCSF_TEXTURE, texture_fields, texture_tail },
	{ CCSF_CLUT, clut_fields, clut_tail },
	{ CCSF_CAMERA, camera_fields, NULL },
	{ CCSF_LIGHT, light_fields, NULL },
	{ CCSF_MODEL, model_fields, chunk_model_tail },
	{ CCSF_CLUMP, clump_fields, clump_tail },
	{ CCSF_EXTOBJ, extobj_fields, NULL },
	{ CCSF_HIT, hit_fields, chunk_hit_tail },
	{ CCSF_BBOX, bbox_fields, NULL },
	{ CCSF_FBRECT, fbrect_fields, NULL },
	{ CCSF_FBPAGE, fbpage_fields, fbpage_tail },
	{ CCSF_DUMMYPOS, dummypos_fields, NULL },
	{ CCSF_DUMMYPOSROT, dummyposrot_fields, NULL },
	{ CCSF_LAYER, layer_fields, layer_tail },
	{ CCSF_MORPHER, morpher_fields, NULL },
	{ CCSF_OBJ2, obj2_fields, NULL },
	{ CCSF_PCM, pcm_fields, pcm_tail },
	{ CCSF_TOP, top_fields, NULL },
	{ CCSF_F_OBJ, f_obj_fields, NULL },
	{ CCSF_F_NOTE, f_note_fields, NULL },
	{ CCSF_F_MATERIAL, f_material_fields, f_material_tail },
	{ CCSF_F_CAMERA, f_camera_fields, f_camera_tail },
	{ CCSF_F_AMBIENT, f_ambient_fields, NULL },
	{ CCSF_F_DISTANTLIGHT, f_distantlight_fields, f_distantlight_tail },
	{ CCSF_F_OMNILIGHT, f_omnilight_fields, NULL },
	{ CCSF_F_SHADOW, f_shadow_fields, NULL },
	{ CCSF_F_MORPHER, f_morpher_fields, f_morpher_tail },
	{ CCSF_F_PCM, f_pcm_fields, pcm_tail },
};

static const struct decoder *find_decoder(uint16_t kind)
{
	for (size_t i = 0; i < sizeof decoders / sizeof decoders[0]; i++)
		if (decoders[i].kind == kind)
			return &decoders[i];
	return NULL;
}

bool chunk_text_has(uint16_t kind)
{
	return find_decoder(kind) != NULL;
}

/* The four lines every dump starts with. */
static bool chunk_header(struct dec *d, size_t len, uint16_t *kind)
{
	const uint8_t *p = chunk_dec_take(d, 2, "kind");
	if (!p)
		return false;
	*kind = rd_u16le(p);
	const char *name = ccsf_kind_name(*kind);
	sb_printf(d->out, name ? "kind: 0x%04x (%s)\n" : "kind: 0x%04x\n",
		  *kind, name);
	if ((p = chunk_dec_take(d, 2, "tag")))
		sb_printf(d->out, "tag: 0x%04x\n", rd_u16le(p));
	if ((p = chunk_dec_take(d, 4, "size")))
		sb_printf(d->out, "size: %" PRIu32 "\n", rd_u32le(p));
	if (!d->stopped)
		sb_printf(d->out, "length: %zu\n", len);
	return !d->stopped;
}

int chunk_text(const uint8_t *p, size_t len, const struct chunk_text_ctx *ctx,
	       struct strbuf *out)
{
	struct dec d = {
		.cur = cursor_make(p, p ? len : 0),
		.version = ctx ? ctx->version : 0x100,
		.object_name = ctx ? ctx->object_name : NULL,
		.name_ctx = ctx ? ctx->name_ctx : NULL,
		.out = out,
	};
	uint16_t kind;
	if (chunk_header(&d, len, &kind)) {
		const struct decoder *dc = find_decoder(kind);
		if (dc && chunk_dec_field_lines(&d, dc->fields) && dc->tail)
			dc->tail(&d);
		if (!d.stopped && cur_left(&d.cur))
			sb_printf(out, dc ? "trailing: %zu bytes\n" :
				  "payload: %zu bytes\n", cur_left(&d.cur));
	}
	return out->failed ? -ENOMEM : 0;
}
