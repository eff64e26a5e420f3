/* SPDX-License-Identifier: MIT */
/* ccsf.h - the CCSF scene file walk (doc/formats/ccsf.md, Chunk lengths).
 *
 * ccsf_walk() finds every chunk of an inflated CCSF file with its real
 * length: the game never skips a chunk by its size field, and that field
 * is wrong for textures and for mtype & 4 models, so each kind has its own
 * length rule.  The result is a table of chunks and the decoded index; it
 * holds no pointers into the file, so it outlives the inflated bytes (which
 * the cache may evict and inflate again).
 */
#ifndef CCSFS_CCSF_H
#define CCSFS_CCSF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/reason.h"

enum ccsf_kind {
	CCSF_HEADER      = 0x0001,
	CCSF_INDEX       = 0x0002,
	CCSF_SETUP       = 0x0003,
	CCSF_FRAME       = 0x0005,
	CCSF_OBJ         = 0x0100,
	CCSF_MATERIAL    = 0x0200,
	CCSF_TEXTURE     = 0x0300,
	CCSF_CLUT        = 0x0400,
	CCSF_CAMERA      = 0x0500,
	CCSF_LIGHT       = 0x0600,
	CCSF_ANIME       = 0x0700,
	CCSF_MODEL       = 0x0800,
	CCSF_CLUMP       = 0x0900,
	CCSF_EXTOBJ      = 0x0a00,
	CCSF_HIT         = 0x0b00,
	CCSF_BBOX        = 0x0c00,
	CCSF_PARTICLE    = 0x0d00,
	CCSF_EFF         = 0x0e00,
	CCSF_BLTGRP      = 0x1000,
	CCSF_FBRECT      = 0x1100,
	CCSF_FBPAGE      = 0x1200,
	CCSF_DUMMYPOS    = 0x1300,
	CCSF_DUMMYPOSROT = 0x1400,
	CCSF_LAYER       = 0x1700,
	CCSF_SHADOW      = 0x1800,
	CCSF_MORPHER     = 0x1900,
	CCSF_OBJ2        = 0x2000,
	CCSF_PCM         = 0x2200,
	/* frame section */
	CCSF_F_OBJ       = 0x0101,
	CCSF_F_NOTE      = 0x0108,
	CCSF_F_MATERIAL  = 0x0201,
	CCSF_F_CAMERA    = 0x0502,
	CCSF_F_AMBIENT   = 0x0601,
	CCSF_F_DISTANTLIGHT = 0x0602,
	CCSF_F_DIRECTLIGHT  = 0x0604,
	CCSF_F_SPOTLIGHT    = 0x0606,
	CCSF_F_OMNILIGHT    = 0x0608,
	CCSF_F_MODELVERTEX  = 0x0802,
	CCSF_F_MODELNORMAL  = 0x0803,
	CCSF_F_SHADOW    = 0x1801,
	CCSF_F_MORPHER   = 0x1901,
	CCSF_F_PCM       = 0x2201,
	CCSF_TOP         = 0xff01,
};

#define CCSF_CHUNK_HEADER 8     /* u16 kind, u16 tag, u32 size in words */
#define CCSF_NAME_LEN 32        /* header name and index paths */
#define CCSF_OBJECT_NAME_LEN 30 /* index object names */

/* The lower-case name the tree uses for a kind (`texture`, `f_obj`;
 * doc/formats/ccsf.md, Chunk kinds), or NULL for a kind the game does not
 * know. */
const char *ccsf_kind_name(uint16_t kind);

/* True for setup kinds whose first payload word names the owning object. */
bool ccsf_kind_has_object(uint16_t kind);

/* Real length of the chunk at p (header included), from its own fields
 * for textures and models and from the size field otherwise.  Returns 0
 * and sets *why when the kind is unknown or the length cannot be known
 * within len bytes. */
size_t ccsf_chunk_length(const uint8_t *p, size_t len, uint16_t version,
			 bool frame_section, const char **why);

struct ccsf_chunk {
	uint32_t offset;        /* from the start of the file */
	uint32_t length;        /* real length, header included */
	uint16_t kind;
	bool in_frames;         /* after the setup section's Frame chunk */
	uint32_t object;        /* owning object index; 0 = none */
};

struct ccsf_object {
	uint8_t name[CCSF_OBJECT_NAME_LEN + 1]; /* raw Shift-JIS, NUL-ended */
	uint16_t file;
};

struct ccsf_scene {
	size_t size;                    /* bytes walked over (the file) */
	uint8_t name[CCSF_NAME_LEN + 1];/* header name, raw */
	uint16_t version;
	uint32_t frames;                /* the header's frame count */
	uint32_t header_words;          /* the header's count */
	uint32_t file_count;
	uint8_t (*files)[CCSF_NAME_LEN + 1];
	uint32_t object_count;
	struct ccsf_object *objects;
	uint32_t chunk_count;
	struct ccsf_chunk *chunks;
	uint32_t frame_chunk_count;     /* chunks in the frame section */
	size_t trailer_offset;          /* first byte not in a chunk */
	/* Why the walk stopped early ("" when it reached the end). */
	struct reason error;
	size_t error_offset;
};

/* Walks the file.  Returns 0 when the whole file was walked, -EIO when the
 * walk stopped early (scene->error says why; everything before the fault
 * is in the scene), -ENOMEM.  Always leaves a scene that ccsf_scene_free()
 * releases. */
int ccsf_walk(const uint8_t *p, size_t len, struct ccsf_scene *scene);
void ccsf_scene_free(struct ccsf_scene *scene);
/* The memory a walked scene holds, for the cache's bound. */
size_t ccsf_scene_bytes(const struct ccsf_scene *scene);

/* The payload of a walked chunk (after its 8-byte header) within the
 * len bytes of data, or NULL when the chunk does not fit in them. */
const uint8_t *ccsf_chunk_payload(const struct ccsf_chunk *c,
				  const uint8_t *data, size_t len,
				  size_t *payload_len);

/* The first setup-section chunk of a kind that object owns: 0 and *chunk
 * set, or -ENOENT (also for object 0). */
int ccsf_find_owned(const struct ccsf_scene *s, uint16_t kind,
		    uint32_t object, uint32_t *chunk);

/* Limits on what a file may claim, so a lying count cannot make the walk
 * allocate without bound.  They are far above anything on the discs. */
#define CCSF_MAX_FILES   65536u
#define CCSF_MAX_OBJECTS 1048576u

#endif
