/* SPDX-License-Identifier: MIT */
/* ccsw.h - an in-memory writer of synthetic CCSF scene files.
 *
 * Used by the ccsgen generator and linked by the unit tests, so tests can
 * build exactly the file they need.  The layouts are those of
 * doc/formats/ (ccsf.md, model.md, texture.md, pcm.md, anime.md); every
 * byte is synthetic.
 *
 * Use:
 *	struct ccsw *w = ccsw_new("xasc00", 0x100);
 *	uint32_t f = ccsw_file(w, " c:\\art\\xasc00.max");
 *	uint32_t tex = ccsw_object_str(w, "TEX_xasc00", f);
 *	ccsw_setup(w);                     (the 0x0003 chunk: call it first)
 *	ccsw_clut(w, ...); ccsw_texture(w, ...); ...
 *	ccsw_frame(w, 1); ccsw_end(w);     (DATA.BIN style: empty frame section)
 *	uint8_t *ccs = ccsw_finish(w, &len);   (malloc'ed; caller frees)
 *	... ccsw_chunk_count(w) / ccsw_chunk_at(w, i) describe what was written
 *	ccsw_free(w);
 *
 * The header and index are assembled by ccsw_finish() from what ccsw_file()
 * and ccsw_object() collected, so objects may be added at any time before.
 * Chunks appear in the order the calls are made; nothing checks that the
 * order makes sense, so broken files are as easy to write as good ones.
 *
 * Size fields: every helper writes the right size (payload words) except
 * ccsw_texture() (the real exporter's too-large value) and ccsw_model() for
 * mtype & 4 (15 words per mmat too long), as the real files do.  Each of
 * those takes a size_field override.
 *
 * The writer aborts on out-of-memory: it is test tooling.
 */
#ifndef CCSGEN_CCSW_H
#define CCSGEN_CCSW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Chunk kinds (doc/formats/ccsf.md, Chunk kinds). */
enum {
	CCSW_HEADER = 0x0001, CCSW_INDEX = 0x0002, CCSW_SETUP = 0x0003,
	CCSW_FRAME = 0x0005, CCSW_OBJ = 0x0100, CCSW_MATERIAL = 0x0200,
	CCSW_TEXTURE = 0x0300, CCSW_CLUT = 0x0400, CCSW_CAMERA = 0x0500,
	CCSW_LIGHT = 0x0600, CCSW_ANIME = 0x0700, CCSW_MODEL = 0x0800,
	CCSW_CLUMP = 0x0900, CCSW_EXTOBJ = 0x0a00, CCSW_HIT = 0x0b00,
	CCSW_BBOX = 0x0c00, CCSW_PARTICLE = 0x0d00, CCSW_EFF = 0x0e00,
	CCSW_BLTGRP = 0x1000, CCSW_FBRECT = 0x1100, CCSW_FBPAGE = 0x1200,
	CCSW_DUMMYPOS = 0x1300, CCSW_DUMMYPOSROT = 0x1400,
	CCSW_LAYER = 0x1700, CCSW_SHADOW = 0x1800, CCSW_MORPHER = 0x1900,
	CCSW_OBJ2 = 0x2000, CCSW_PCM = 0x2200,
	CCSW_TOP = 0xff01, CCSW_F_OBJ = 0x0101, CCSW_F_NOTE = 0x0108,
	CCSW_F_MATERIAL = 0x0201, CCSW_F_CAMERA = 0x0502,
	CCSW_F_AMBIENT = 0x0601, CCSW_F_SHADOW = 0x1801,
	CCSW_F_MORPHER = 0x1901, CCSW_F_PCM = 0x2201,
};

#define CCSW_TAG 0xcccc
#define CCSW_END_FRAME 0xffffffffu      /* the Top that ends the section */

/* size_field arguments: CCSW_SIZE_AUTO picks the writer's default (right,
 * except the exporter's wrong values described above). */
#define CCSW_SIZE_AUTO (-1LL)

struct ccsw;

/* name: the header's char[32] (the member name without extension); up to
 * 32 bytes, no NUL needed at 32. */
struct ccsw *ccsw_new(const char *name, uint16_t version);
void ccsw_free(struct ccsw *w);
uint16_t ccsw_version(const struct ccsw *w);

/* Chunks of Frame, Pcm and F_Pcm get tag 0 instead of 0xcccc, as some
 * stream files have them. */
void ccsw_set_stream_tags(struct ccsw *w, bool zero_tags);

/* The header's frames field; by default the count given to ccsw_frame(). */
void ccsw_set_header_frames(struct ccsw *w, uint32_t frames);

/* Index entries.  Entry 0 of both tables (all zeros) is implicit, so the
 * first call returns 1.  path: raw bytes, ' ' or '#' then the source path,
 * truncated at 32.  name: raw Shift-JIS bytes, n <= 30 (exactly 30 leaves
 * no NUL in the file). */
uint32_t ccsw_file(struct ccsw *w, const char *path);
uint32_t ccsw_object(struct ccsw *w, const uint8_t *name, size_t n,
		     uint32_t file);
uint32_t ccsw_object_str(struct ccsw *w, const char *name, uint32_t file);
uint32_t ccsw_object_count(const struct ccsw *w);  /* blank entry included */

/* Makes the index's count fields claim these values while the tables stay
 * as collected (and the size field stays right for the real tables). */
void ccsw_index_lie(struct ccsw *w, uint32_t file_count,
		    uint32_t object_count);

/* Any chunk: payload is padded with zeros to a word.  size_field
 * CCSW_SIZE_AUTO writes the padded payload's word count. */
void ccsw_chunk(struct ccsw *w, uint16_t kind, uint16_t tag,
		const void *payload, size_t len, long long size_field);

/* Bytes after the last chunk (not a chunk; any length). */
void ccsw_trailer(struct ccsw *w, const void *bytes, size_t n);

/* ---- setup section ---- */

void ccsw_setup(struct ccsw *w);        /* 0x0003, tag 0, no payload */

/* The shadow model is written only if version >= 0x96. */
void ccsw_obj(struct ccsw *w, uint32_t object, uint32_t parent,
	      uint32_t model, uint32_t shadow_model);
void ccsw_obj2(struct ccsw *w, uint32_t object, uint32_t flags,
	       uint32_t modifier, uint32_t layer, uint32_t slayer);
void ccsw_material(struct ccsw *w, uint32_t object, uint32_t texture,
		   float transparency, uint16_t crop_u, uint16_t crop_v);
void ccsw_clump(struct ccsw *w, uint32_t object, uint16_t n,
		const uint32_t *nodes);
void ccsw_extobj(struct ccsw *w, uint32_t object, uint32_t parent,
		 uint32_t target);
void ccsw_bbox(struct ccsw *w, uint32_t box, uint32_t target,
	       const float min[3], const float max[3]);
void ccsw_dummypos(struct ccsw *w, uint32_t object, const float pos[3]);
void ccsw_dummyposrot(struct ccsw *w, uint32_t object, const float pos[3],
		      const float rot[3]);
void ccsw_morpher(struct ccsw *w, uint32_t morpher, uint32_t base_model);
void ccsw_camera(struct ccsw *w, uint32_t object);
void ccsw_light(struct ccsw *w, uint32_t object, int16_t type);
/* kinds[i]: 0 draw layer, 1 shadow layer. */
void ccsw_layer(struct ccsw *w, uint16_t n, const uint8_t *kinds,
		const uint32_t *objects);
void ccsw_fbrect(struct ccsw *w, uint32_t object, uint8_t type,
		 uint16_t fx, uint16_t fy, uint16_t width, uint16_t height);

struct ccsw_fb_page { uint8_t px, py, pw, ph, type; };
void ccsw_fbpage(struct ccsw *w, uint32_t object, uint32_t n,
		 const struct ccsw_fb_page *pages);

/* Kinds without a layout in doc/formats/ccsf.md (particle, eff, bltgrp,
 * shadow): u32 object then `words` pseudo-random words from seed, size
 * right. */
void ccsw_opaque(struct ccsw *w, uint16_t kind, uint32_t object,
		 uint32_t words, uint32_t seed);

/* F_Obj 0x0101 (ccsw_f_obj() below; also in Anime chunks). */
struct ccsw_f_obj {
	uint32_t object, flag;
	float pos[3], rot[3], scale[3], tp;
	uint32_t disp_sw;
};

/* Anime 0x0700: u32 object, u32 frames, u32 words (that follow), then per
 * frame a Top record and an F_Obj record for `target`, then an end Top.
 * Walked by its (right) size field.  (ccsw_anime_write() with those
 * records and no controllers.) */
void ccsw_anime(struct ccsw *w, uint32_t object, uint32_t target,
		uint32_t frames);

/* The F_Obj ccsw_anime() writes for `object` at `frame`: it moves 2 units
 * along X a frame and turns 6 degrees about Z. */
struct ccsw_f_obj ccsw_f_obj_moving(uint32_t object, uint32_t frame);

/* Anime controllers (doc/formats/anime.md, Controllers).  A controller's
 * fields are indexed by selector slot, slot = first selector bit / 3, so
 * field[k] is the field whose selector sits at bits 3k..3k+2:
 *	object 0x0102:        0 position, 1 rotation, 2 scale, 3 transparency
 *	material 0x0202:      0 U, 1 V
 *	distant light 0x0603: 1 rotation, 2 colour, 3 intensity
 *	direct light 0x0605:  0 position .. 7 radius 2
 *	omni light 0x0609:    0 position, 2 colour, 3 intensity,
 *	                      4 fall-off start, 5 fall-off end
 * A vec3 takes v[0..2], a scalar v[0], a colour rgb (R in the low byte). */
enum { CCSW_CTL_OBJECT = 0x0102, CCSW_CTL_MATERIAL = 0x0202,
       CCSW_CTL_DISTANT = 0x0603, CCSW_CTL_DIRECT = 0x0605,
       CCSW_CTL_OMNI = 0x0609 };
enum ccsw_ctl_mode { CCSW_ABSENT = 0, CCSW_CONSTANT = 1, CCSW_KEYED = 2 };
#define CCSW_CTL_FIELDS 8

struct ccsw_key {
	uint32_t frame;
	float v[3];
	uint32_t rgb;
};

struct ccsw_ctl_field {
	/* The selector written: 0, 1 or 2 as above; 3..7 are written as
	 * they are with no bytes for the field (a broken record). */
	uint8_t mode;
	float v[3];                     /* constant */
	uint32_t rgb;                   /* constant colour */
	uint32_t key_count;             /* keyed */
	const struct ccsw_key *keys;
	/* Nonzero: the count word claims this instead of key_count (the
	 * key_count keys are still what is written). */
	uint32_t count_lie;
};

struct ccsw_ctl {
	uint16_t kind;                  /* CCSW_CTL_* */
	uint32_t target;                /* object, MAT_ or light */
	struct ccsw_ctl_field field[CCSW_CTL_FIELDS];
};

/* A per-frame record after Top `frame` (0 puts it after the controllers,
 * under Top 0): F_Camera (object, flag, one value per clear bit 1-8),
 * F_Obj (f_obj), F_Ambient (rgb) or F_Morpher (object: the MPH_, then
 * target_count pairs of targets[i] and weight values[i]). */
struct ccsw_frame_rec {
	uint32_t frame;
	uint16_t kind;                  /* CCSW_F_CAMERA, _F_OBJ, _F_AMBIENT,
					   _F_MORPHER */
	uint32_t object, flag;
	float values[8];
	uint16_t target_count;          /* F_Morpher: up to 8 */
	uint32_t targets[8];
	struct ccsw_f_obj f_obj;
	uint32_t rgb;
};

/* A whole clip: Top 0, the controllers, then Top 1 .. frames-1 each with
 * its records (recs in any order; each goes after its frame's Top, in
 * the order given), then the end Top (0xfffffffe when loop). */
struct ccsw_anime_desc {
	uint32_t object;                /* ANM_ */
	uint32_t frames;
	bool loop;
	size_t ctl_count;
	const struct ccsw_ctl *ctls;
	size_t rec_count;
	const struct ccsw_frame_rec *recs;
};
void ccsw_anime_write(struct ccsw *w, const struct ccsw_anime_desc *a);

/* Textures.  Pixels are generated from pattern and seed unless given. */
enum ccsw_pattern {
	CCSW_PAT_GRADIENT,      /* diagonal ramp, solid block top-left */
	CCSW_PAT_CHECKER,       /* 8-pixel checks, solid block top-left */
	CCSW_PAT_NOISY,         /* ramp plus low-bit noise (compresses ~2.5:1) */
};

struct ccsw_texture {
	uint32_t object, clut, blt_group;       /* blt_group if v >= 0x92 */
	uint8_t flag;
	uint8_t psm;            /* 0x13 8-bit, 0x14 4-bit */
	uint8_t mipmap;         /* levels after level 0 (<= 3) */
	uint8_t aref;
	uint8_t tw, th;         /* log2 size */
	uint16_t buf_x, buf_y;  /* level 0's; level n is placed n*64 right */
	enum ccsw_pattern pattern;
	uint32_t seed;
	/* Optional: every level's stored bytes (bottom row first, low nibble
	 * left at 4 bits), level 0 first, each level padded to a word. */
	const uint8_t *pixels;
	/* CCSW_SIZE_AUTO: the exporter's wrong value, real + 0x32 words. */
	long long size_field;
	/* Nonzero: level 0's count field claims this many words (a lie);
	 * the real pixels are still written. */
	uint32_t count_lie;
};
void ccsw_texture(struct ccsw *w, const struct ccsw_texture *t);

/* Words of pixels in level n of a w x h texture (what count says). */
uint32_t ccsw_level_words(unsigned tw, unsigned th, unsigned level,
			  uint8_t psm);
/* Palette index the generator puts at image (x, y), y = 0 the top row, of
 * a width x height level; max_index 15 or 255. */
uint8_t ccsw_pattern_index(enum ccsw_pattern p, uint32_t seed,
			   uint32_t x, uint32_t y, uint32_t width,
			   uint32_t height, uint8_t max_index);

struct ccsw_clut {
	uint32_t object, blt_group;             /* blt_group if v >= 0x92 */
	uint8_t flag, cpsm, unknown2, unknown3;
	uint16_t buf_x, buf_y;
	uint32_t count;         /* 16 or 256 */
	/* Optional: count colours, byte order R, G, B, A (u32 little end:
	 * R | G << 8 | B << 16 | A << 24). */
	const uint32_t *colours;
	bool alpha_ramp;        /* generated: A from 0 to 0x80 instead of 0x80 */
	uint32_t seed;          /* generated: tints the ramp */
};
void ccsw_clut(struct ccsw *w, const struct ccsw_clut *c);
/* Colour i of a generated palette. */
uint32_t ccsw_clut_colour(const struct ccsw_clut *c, uint32_t i);

/* Models.  A mmat's arrays are generated from seed unless given. */
struct ccsw_skin_entry { int16_t pos[3]; uint16_t w; };

struct ccsw_mmat {
	uint32_t name;          /* rigid: MDL_x_N object (header word) */
	uint32_t material;
	uint32_t node;          /* bone: clump node slot */
	uint32_t vertices;      /* rigid/bone/skin vertexNum; shadow vNum */
	uint32_t offsets;       /* mtype & 4: offsetNum; 0 = bone body;
				   skin: >= vertices */
	uint32_t indices;       /* shadow iNum (a multiple of 3) */
	uint32_t strip;         /* vertices per generated strip; 0 = 6 */
	uint32_t seed;
	const int16_t *pos;     /* 3 per vertex (shadow: per vNum) */
	const uint32_t *normal; /* rigid/bone: per vertex; skin: per entry */
	const uint32_t *colour;
	const uint32_t *st;
	const struct ccsw_skin_entry *entries;  /* skin: offsets of them */
	const int32_t *tri;     /* shadow: indices of them */
};

struct ccsw_model {
	uint32_t object;
	float vertex_scale;
	uint16_t mtype;         /* layout follows mtype & 0xff if v < 0x100 */
	uint16_t flag;
	uint16_t mmat_count;
	const struct ccsw_mmat *mmats;
	long long size_field;   /* AUTO: right, + 15 per mmat if mtype & 4 */
};
void ccsw_model(struct ccsw *w, const struct ccsw_model *m);
/* The mtype the layout follows in this writer's version. */
uint16_t ccsw_layout_mtype(const struct ccsw *w, uint16_t mtype);

/* Hit 0x0b00: pos NULL generates a strip of triangles from seed;
 * normals are always computed from the triangles. */
struct ccsw_hit_group {
	uint32_t vertices;      /* 3 per triangle */
	uint32_t attribute;
	const float *pos;       /* 3 per vertex */
	uint32_t seed;
};
void ccsw_hit(struct ccsw *w, uint32_t object, uint32_t parent,
	      uint16_t groups, const struct ccsw_hit_group *g);

/* Pcm 0x2200 (setup): blocks of 1024 bytes, 256 left then 256 right s16.
 * samples NULL: a tone (ccsw_pcm_sample) starting at first_sample. */
void ccsw_pcm(struct ccsw *w, uint32_t id, uint8_t type, uint8_t track_type,
	      uint32_t blocks, const int16_t *samples, uint32_t first_sample);
int16_t ccsw_pcm_sample(int channel, uint32_t n);

/* ---- frame section ---- */

/* The Frame chunk that ends the setup section; sets the header's frames
 * unless ccsw_set_header_frames() was called. */
void ccsw_frame(struct ccsw *w, uint32_t count);
void ccsw_top(struct ccsw *w, uint32_t frame);
void ccsw_end(struct ccsw *w);          /* Top 0xffffffff */

void ccsw_f_obj(struct ccsw *w, const struct ccsw_f_obj *f);
void ccsw_f_note(struct ccsw *w, uint32_t object, uint32_t event,
		 uint32_t param);
/* u, v written unless flag & 2. */
void ccsw_f_material(struct ccsw *w, uint32_t material, uint32_t flag,
		     float u, float v);
/* One value per clear bit 1-8 of flag, none if flag & 1. */
void ccsw_f_camera(struct ccsw *w, uint32_t object, uint32_t flag,
		   const float *values);
void ccsw_f_ambient(struct ccsw *w, uint32_t rgb);
void ccsw_f_shadow(struct ccsw *w, uint32_t object, float rx, float ry,
		   float rz, float alpha);
void ccsw_f_morpher(struct ccsw *w, uint32_t morpher, uint16_t n,
		    const uint32_t *targets, const float *weights);
void ccsw_f_pcm(struct ccsw *w, uint32_t id, uint16_t blocks,
		const int16_t *samples, uint32_t first_sample);

/* ---- result ---- */

/* The whole file: header, index, chunks, trailer.  malloc'ed, caller
 * frees; the writer stays usable for the queries below.  Call it last:
 * chunks added afterwards are not in the file and spoil the offsets. */
uint8_t *ccsw_finish(struct ccsw *w, size_t *len);

/* Every chunk written, header and index included, with its real length
 * (what a correct walk must find).  Offsets are valid after finish.
 * Before ccsw_finish() the table holds only the chunks added so far;
 * finish puts the header and index first, so the chunk that was i before
 * is i + 2 after. */
struct ccsw_chunk_info {
	size_t offset;          /* in the finished file */
	size_t length;          /* header included */
	uint16_t kind;
	uint32_t object;        /* the object a typed helper wrote first;
				   0 for ccsw_chunk(), Layer, Pcm, Top... */
};
size_t ccsw_chunk_count(const struct ccsw *w);
const struct ccsw_chunk_info *ccsw_chunk_at(const struct ccsw *w, size_t i);
size_t ccsw_trailer_offset(const struct ccsw *w);  /* = size w/o trailer */

#endif
