/* SPDX-License-Identifier: MIT */
/* ccsf.c - the CCSF walk: every chunk with its real length. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsf/layout.h"
#include "util/bytes.h"

enum kind_flags {
	K_SETUP = 1,    /* dispatched by DecodeSetupSection */
	K_FRAME = 2,    /* dispatched by DecodeFrameChunk */
	K_OBJECT = 4,   /* first payload word is the owning object */
};

struct kind_info {
	uint16_t kind;
	const char *name;
	unsigned flags;
};

/* The two dispatch tables (doc/formats/ccsf.md, Chunk kinds and Frame
 * section).  The frame decoders that name an object put it first, as the
 * setup decoders do. */
static const struct kind_info kinds[] = {
	{ CCSF_HEADER, "header", K_SETUP },
	{ CCSF_INDEX, "index", K_SETUP },
	{ CCSF_SETUP, "setup", K_SETUP },
	{ CCSF_FRAME, "frame", K_SETUP },
	{ CCSF_OBJ, "obj", K_SETUP | K_OBJECT },
	{ CCSF_MATERIAL, "material", K_SETUP | K_OBJECT },
	{ CCSF_TEXTURE, "texture", K_SETUP | K_OBJECT },
	{ CCSF_CLUT, "clut", K_SETUP | K_OBJECT },
	{ CCSF_CAMERA, "camera", K_SETUP | K_OBJECT },
	{ CCSF_LIGHT, "light", K_SETUP | K_OBJECT },
	{ CCSF_ANIME, "anime", K_SETUP | K_OBJECT },
	{ CCSF_MODEL, "model", K_SETUP | K_OBJECT },
	{ CCSF_CLUMP, "clump", K_SETUP | K_OBJECT },
	{ CCSF_EXTOBJ, "extobj", K_SETUP | K_OBJECT },
	{ CCSF_HIT, "hit", K_SETUP | K_OBJECT },
	{ CCSF_BBOX, "bbox", K_SETUP | K_OBJECT },
	{ CCSF_PARTICLE, "particle", K_SETUP | K_OBJECT },
	{ CCSF_EFF, "eff", K_SETUP | K_OBJECT },
	{ CCSF_BLTGRP, "bltgrp", K_SETUP | K_OBJECT },
	{ CCSF_FBRECT, "fbrect", K_SETUP | K_OBJECT },
	{ CCSF_FBPAGE, "fbpage", K_SETUP | K_OBJECT },
	{ CCSF_DUMMYPOS, "dummypos", K_SETUP | K_OBJECT },
	{ CCSF_DUMMYPOSROT, "dummyposrot", K_SETUP | K_OBJECT },
	{ CCSF_LAYER, "layer", K_SETUP },
	{ CCSF_SHADOW, "shadow", K_SETUP | K_OBJECT },
	{ CCSF_MORPHER, "morpher", K_SETUP | K_OBJECT },
	{ CCSF_OBJ2, "obj2", K_SETUP | K_OBJECT },
	{ CCSF_PCM, "pcm", K_SETUP },
	{ CCSF_TOP, "top", K_FRAME },
	{ CCSF_F_OBJ, "f_obj", K_FRAME | K_OBJECT },
	{ CCSF_F_NOTE, "f_note", K_FRAME },
	{ CCSF_F_MATERIAL, "f_material", K_FRAME | K_OBJECT },
	{ CCSF_F_CAMERA, "f_camera", K_FRAME | K_OBJECT },
	{ CCSF_F_AMBIENT, "f_ambient", K_FRAME },
	{ CCSF_F_DISTANTLIGHT, "f_distantlight", K_FRAME | K_OBJECT },
	{ CCSF_F_DIRECTLIGHT, "f_directlight", K_FRAME | K_OBJECT },
	{ CCSF_F_SPOTLIGHT, "f_spotlight", K_FRAME | K_OBJECT },
	{ CCSF_F_OMNILIGHT, "f_omnilight", K_FRAME | K_OBJECT },
	{ CCSF_F_MODELVERTEX, "f_modelvertex", K_FRAME | K_OBJECT },
	{ CCSF_F_MODELNORMAL, "f_modelnormal", K_FRAME | K_OBJECT },
	{ CCSF_F_SHADOW, "f_shadow", K_FRAME | K_OBJECT },
	{ CCSF_F_MORPHER, "f_morpher", K_FRAME | K_OBJECT },
	{ CCSF_F_PCM, "f_pcm", K_FRAME },
};

static const struct kind_info *kind_info(uint16_t kind)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

const char *ccsf_kind_name(uint16_t kind)
{
	const struct kind_info *k = kind_info(kind);
	return k ? k->name : NULL;
}

bool ccsf_kind_has_object(uint16_t kind)
{
	const struct kind_info *k = kind_info(kind);
	return k && (k->flags & K_OBJECT);
}

/* Length from the size field: right for every kind but two. */
static size_t length_from_size(const uint8_t *p, size_t len, const char **why)
{
	uint64_t n = CCSF_CHUNK_HEADER + 4 * (uint64_t)rd_u32le(p + 4);
	if (n > len) {
		*why = "its size field runs past the end of the file";
		return 0;
	}
	return (size_t)n;
}

/* The walk's rule for the two kinds whose size field lies: the length is
 * where their last level or mmat ends (layout.c places them). */
static size_t texture_length(const uint8_t *p, size_t len, uint16_t version,
			     const char **why)
{
	struct ccsf_texture t;
	struct ccsf_level lv;
	uint64_t at = 0;
	bool bad = ccsf_texture_head(p, len, version, &t) != 0;
	if (!bad)
		at = t.first_level;
	for (unsigned level = 0; level < t.levels && !bad; level++) {
		bad = ccsf_level_describe(p, len, at, &lv) != 0;
		at = lv.end;
	}
	if (bad) {
		*why = "its levels run past the end of the file";
		return 0;
	}
	return (size_t)at;
}

static size_t model_length(const uint8_t *p, size_t len, uint16_t version,
			   const char **why)
{
	struct ccsf_model m;
	int rc = ccsf_model_head(p, len, version, &m);
	if (ccsf_model_layout_unknown(m.mtype, m.mmats)) {
		*why = "its mtype has bit 2, a layout no file uses";
		return 0;
	}
	struct ccsf_mmat_iter it;
	struct ccsf_mmat mm;
	ccsf_mmat_begin(&it, p, len, &m);
	int more = rc ? -EIO : 1;
	while (more == 1)
		more = ccsf_mmat_next(&it, &mm);
	if (more) {
		*why = "its vertices run past the end of the file";
		return 0;
	}
	return (size_t)it.pos;
}

size_t ccsf_chunk_length(const uint8_t *p, size_t len, uint16_t version,
			 bool frame_section, const char **why)
{
	if (len < CCSF_CHUNK_HEADER) {
		*why = "a chunk header is cut off by the end of the file";
		return 0;
	}
	uint16_t kind = rd_u16le(p);
	const struct kind_info *k = kind_info(kind);
	if (!k || !(k->flags & (frame_section ? K_FRAME : K_SETUP))) {
		*why = frame_section ? "unknown kind in the frame section" :
				      "unknown kind in the setup section";
		return 0;
	}
	if (!frame_section && kind == CCSF_TEXTURE)
		return texture_length(p, len, version, why);
	if (!frame_section && kind == CCSF_MODEL)
		return model_length(p, len, version, why);
	return length_from_size(p, len, why);
}

static void walk_fail(struct ccsf_scene *s, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void walk_fail(struct ccsf_scene *s, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->error.text, sizeof s->error.text, fmt, ap);
	va_end(ap);
	s->error_offset = offset;
}

static int add_chunk(struct ccsf_scene *s, size_t *cap, const uint8_t *p,
		     size_t offset, size_t length, bool in_frames)
{
	if (s->chunk_count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		void *n = realloc(s->chunks, ncap * sizeof *s->chunks);
		if (!n)
			return -ENOMEM;
		s->chunks = n;
		*cap = ncap;
	}
	struct ccsf_chunk *c = &s->chunks[s->chunk_count++];
	c->offset = (uint32_t)offset;
	c->length = (uint32_t)length;
	c->kind = rd_u16le(p);
	c->in_frames = in_frames;
	c->object = 0;
	if (ccsf_kind_has_object(c->kind) && length >= CCSF_CHUNK_HEADER + 4) {
		uint32_t o = rd_u32le(p + CCSF_CHUNK_HEADER);
		if (o < s->object_count)
			c->object = o;
	}
	if (in_frames)
		s->frame_chunk_count++;
	return 0;
}

static int parse_header(const uint8_t *p, size_t len, struct ccsf_scene *s,
			size_t *length)
{
	const char *why = NULL;
	if (len < CCSF_CHUNK_HEADER + 4 || rd_u16le(p) != CCSF_HEADER ||
	    memcmp(p + CCSF_CHUNK_HEADER, "CCSF", 4) != 0) {
		walk_fail(s, 0, "not a CCSF file: no header chunk with \"CCSF\"");
		return -EIO;
	}
	*length = length_from_size(p, len, &why);
	struct cursor c = cursor_make(p, *length);
	(void)cur_take(&c, CCSF_CHUNK_HEADER + 4);
	const uint8_t *name = cur_take(&c, CCSF_NAME_LEN);
	s->version = cur_u16(&c);
	cur_align4(&c);
	s->frames = cur_u32(&c);
	s->header_words = cur_u32(&c);
	if (!*length || c.bad || !name) {
		walk_fail(s, 0, "the header chunk is cut short");
		return -EIO;
	}
	memcpy(s->name, name, CCSF_NAME_LEN);
	s->name[CCSF_NAME_LEN] = '\0';
	return 0;
}

static int parse_index(const uint8_t *p, size_t len, size_t offset,
		       struct ccsf_scene *s, size_t *length)
{
	const char *why = "";
	if (len < CCSF_CHUNK_HEADER || rd_u16le(p) != CCSF_INDEX) {
		walk_fail(s, offset, "no index chunk after the header");
		return -EIO;
	}
	*length = length_from_size(p, len, &why);
	struct cursor c = cursor_make(p, *length);
	(void)cur_take(&c, CCSF_CHUNK_HEADER);
	uint32_t files = cur_u32(&c);
	uint32_t objects = cur_u32(&c);
	uint64_t need = 32 * ((uint64_t)files + objects);
	if (!*length || c.bad || files > CCSF_MAX_FILES ||
	    objects > CCSF_MAX_OBJECTS || need > cur_left(&c)) {
		walk_fail(s, offset, "the index chunk claims %u files and %u "
			  "objects, more than it holds", files, objects);
		return -EIO;
	}
	s->files = calloc(files ? files : 1, sizeof *s->files);
	s->objects = calloc(objects ? objects : 1, sizeof *s->objects);
	if (!s->files || !s->objects)
		return -ENOMEM;
	s->file_count = files;
	s->object_count = objects;
	for (uint32_t i = 0; i < files; i++)
		memcpy(s->files[i], cur_take(&c, CCSF_NAME_LEN), CCSF_NAME_LEN);
	for (uint32_t i = 0; i < objects; i++) {
		memcpy(s->objects[i].name, cur_take(&c, CCSF_OBJECT_NAME_LEN),
		       CCSF_OBJECT_NAME_LEN);
		s->objects[i].file = cur_u16(&c);
	}
	return 0;
}

/* A Top chunk whose frame number is -1 or -2 ends the frame section. */
static bool is_end_top(const uint8_t *p, size_t length)
{
	if (rd_u16le(p) != CCSF_TOP || length < CCSF_CHUNK_HEADER + 4)
		return false;
	int32_t frame = (int32_t)rd_u32le(p + CCSF_CHUNK_HEADER);
	return frame == -1 || frame == -2;
}

int ccsf_walk(const uint8_t *p, size_t len, struct ccsf_scene *s)
{
	memset(s, 0, sizeof *s);
	size_t cap = 0, off = 0, length = 0;
	int rc = parse_header(p, len, s, &length);
	if (rc == 0)
		rc = add_chunk(s, &cap, p, 0, length, false);
	if (rc == 0) {
		off = length;
		rc = parse_index(p + off, len - off, off, s, &length);
	}
	if (rc == 0)
		rc = add_chunk(s, &cap, p + off, off, length, false);
	bool in_frames = false, ended = false;
	while (rc == 0 && (off += length) < len && !ended) {
		const char *why = NULL;
		length = ccsf_chunk_length(p + off, len - off, s->version,
					   in_frames, &why);
		if (!length) {
			uint16_t kind = len - off >= 2 ? rd_u16le(p + off) : 0;
			walk_fail(s, off, "chunk of kind 0x%04x: %s", kind, why);
			rc = -EIO;
			break;
		}
		rc = add_chunk(s, &cap, p + off, off, length, in_frames);
		if (in_frames)
			ended = is_end_top(p + off, length);
		else
			in_frames = rd_u16le(p + off) == CCSF_FRAME;
	}
	if (rc == 0 && !ended) {
		/* Every chunk was found, but the file stops where the game
		 * would read on: say so, and keep them all. */
		walk_fail(s, off, "%s", in_frames ?
			  "the frame section has no end Top" :
			  "the file ends before the Frame chunk");
		rc = -EIO;
	}
	s->trailer_offset = off;
	s->size = len;
	return rc;
}

void ccsf_scene_free(struct ccsf_scene *s)
{
	free(s->files);
	free(s->objects);
	free(s->chunks);
	memset(s, 0, sizeof *s);
}

size_t ccsf_scene_bytes(const struct ccsf_scene *s)
{
	return (size_t)s->file_count * sizeof *s->files +
	       (size_t)s->object_count * sizeof *s->objects +
	       (size_t)s->chunk_count * sizeof *s->chunks;
}

const uint8_t *ccsf_chunk_payload(const struct ccsf_chunk *c,
				  const uint8_t *data, size_t len,
				  size_t *payload_len)
{
	if (c->length < CCSF_CHUNK_HEADER || c->offset > len ||
	    c->length > len - c->offset)
		return NULL;
	*payload_len = c->length - CCSF_CHUNK_HEADER;
	return data + c->offset + CCSF_CHUNK_HEADER;
}

int ccsf_find_owned(const struct ccsf_scene *s, uint16_t kind,
		    uint32_t object, uint32_t *chunk)
{
	for (uint32_t i = 0; object && i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		if (c->kind == kind && c->object == object && !c->in_frames) {
			*chunk = i;
			return 0;
		}
	}
	return -ENOENT;
}
