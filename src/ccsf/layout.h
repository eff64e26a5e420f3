/* SPDX-License-Identifier: MIT */
/* layout.h - the one description of the model and texture chunk layouts.
 *
 * The walk's length rule, <kind>.txt and the OBJ and PNG decoders all need
 * to know where a model's mmats and a texture's levels lie, and each used
 * to re-derive it from the mtype bits and the counts.  They now ask here.
 *
 * Nothing here reads past `len`: every count is untrusted, so places are
 * computed in 64 bits (a u32 count times at most 12 bytes cannot wrap) and
 * only compared with `len`, and bytes are read only inside it.  A mmat or
 * level that does not fit is still described as far as its header words
 * go, so <kind>.txt can show the part that is in the chunk.
 */
#ifndef CCSFS_LAYOUT_H
#define CCSFS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- model chunk, 0x0800 ---------------------------------------------- */

#define CCSF_MODEL_HEAD 28      /* chunk header, fields and padding */

struct ccsf_model {
	uint32_t object;        /* the MDL_ object */
	float vertex_scale;
	uint16_t mtype;         /* the bits the layout follows (& 0xff below
				   version 0x100) */
	uint16_t mmats;         /* mmatNum */
	uint16_t flag;
};

/* Reads the header of the model chunk at p (its 8-byte header on).  Returns
 * 0, or -EIO when it is cut short (under CCSF_MODEL_HEAD bytes); the
 * fields read before the cut are kept, the others are 0.  The kind is not
 * checked: the callers say different things about a wrong one. */
int ccsf_model_head(const uint8_t *p, size_t len, uint16_t version,
		    struct ccsf_model *m);

/* The mtype bits the layout follows. */
uint16_t ccsf_model_mtype(uint16_t mtype, uint16_t version);

/* True for mmats under mtype bit 0x02, a layout no file uses (the game's
 * rigid decoder crashes on it), so nothing here can describe. */
bool ccsf_model_layout_unknown(uint16_t mtype, uint32_t mmats);

enum ccsf_mmat_kind {
	CCSF_MMAT_RIGID,        /* mtype without 4 and 8 */
	CCSF_MMAT_BONE,         /* mtype & 4, offsetNum 0 */
	CCSF_MMAT_SKIN,         /* mtype & 4, offsetNum > 0 */
	CCSF_MMAT_SHADOW,       /* mtype & 8 */
};

/* The kind of every mmat of a model; a bone model's mmat is a skin when
 * its offsetNum is not 0. */
enum ccsf_mmat_kind ccsf_mmat_kind_of(uint16_t mtype, uint32_t offsets);
const char *ccsf_mmat_kind_name(enum ccsf_mmat_kind kind);

/* The arrays of a mmat body, in the order they may appear. */
enum ccsf_array_kind {
	CCSF_A_NODE,            /* bone: u32 node slot */
	CCSF_A_ENTRY,           /* skin: 8-byte weighted entries */
	CCSF_A_POSITION,        /* s16[3], the array padded to 4 */
	CCSF_A_NORMAL,          /* u32; skin: one an entry */
	CCSF_A_COLOUR,          /* u32 R, G, B, A */
	CCSF_A_ST,              /* u32 S, T; skin: one an ending entry */
	CCSF_A_TRIANGLE,        /* shadow: s32[3] */
	CCSF_A_COUNT
};

/* One array: elem 0 when the mmat has none.  at may lie past the chunk. */
struct ccsf_array {
	uint64_t at;            /* chunk offset */
	uint64_t count;         /* elements */
	unsigned elem;          /* bytes an element */
	uint64_t bytes;         /* count * elem, positions padded to 4 */
};

enum ccsf_mmat_fault {
	CCSF_MMAT_WHOLE,        /* the mmat is inside the chunk */
	CCSF_MMAT_CUT_WORDS,    /* its header words run past the chunk */
	CCSF_MMAT_NEGATIVE,     /* shadow: vNum or iNum below 0 */
	CCSF_MMAT_CUT_BODY,     /* its arrays run past the chunk */
};

struct ccsf_mmat {
	enum ccsf_mmat_kind kind;
	enum ccsf_mmat_fault fault;
	uint64_t at;            /* its header words */
	uint64_t body;          /* after them */
	uint64_t end;           /* after its last array */
	uint32_t name;          /* rigid: the MDL_x_N object */
	uint32_t material;      /* rigid, bone, skin: the MAT_ object */
	uint32_t vertices;      /* rigid, bone: vertexNum; shadow: vNum */
	uint32_t offsets;       /* bone, skin: offsetNum */
	int32_t vnum, inum;     /* shadow: as stored */
	/* skin: entries with bit 9 set, the vertices (one ST each); counted
	 * only when every entry is in the chunk, else 0 */
	uint64_t ends;
	struct ccsf_array array[CCSF_A_COUNT];
};

/* Describes the mmat whose header words start at chunk offset `at`.
 * Returns 0 when it is whole, else -EIO with mm->fault saying what is cut;
 * the arrays are placed unless the fault is CUT_WORDS or NEGATIVE. */
int ccsf_mmat_describe(const uint8_t *p, size_t len, uint16_t mtype,
		       uint64_t at, struct ccsf_mmat *mm);

/* How many of the array's elements lie wholly inside len. */
uint64_t ccsf_array_fit(const struct ccsf_array *a, size_t len);

/* The mmats one after another. */
struct ccsf_mmat_iter {
	const uint8_t *p;
	size_t len;
	uint16_t mtype;
	uint32_t count, next;   /* mmatNum; the index of the next one */
	uint64_t pos;           /* where the next one starts */
	bool failed;
};

void ccsf_mmat_begin(struct ccsf_mmat_iter *it, const uint8_t *p,
		     size_t len, const struct ccsf_model *m);
/* 1 and the next whole mmat; 0 after the last; -EIO (and from then on)
 * when the next one is not whole, mm describing it. */
int ccsf_mmat_next(struct ccsf_mmat_iter *it, struct ccsf_mmat *mm);

/* ---- texture chunk, 0x0300 --------------------------------------------- */

struct ccsf_texture {
	uint32_t object;        /* the TEX_ entry */
	uint32_t clut;          /* the CLT_ entry */
	uint32_t blt_group;     /* 0 before version 0x92 */
	uint8_t flag, psm;
	uint8_t mipmap, aref, tw, th;   /* 0 before version 0x90 */
	unsigned levels;        /* mipmap + 1 */
	size_t first_level;     /* chunk offset of level 0 */
};

/* Reads the fields before the levels.  Returns 0 or -EIO when they are
 * cut short. */
int ccsf_texture_head(const uint8_t *p, size_t len, uint16_t version,
		      struct ccsf_texture *t);

#define CCSF_LEVEL_HEAD 8       /* u16 buf_x, u16 buf_y, u32 count */

struct ccsf_level {
	uint16_t buf_x, buf_y;
	uint32_t count;         /* words of pixels */
	uint64_t pixels;        /* chunk offset of the pixels */
	uint64_t end;           /* after them: the next level */
};

/* Describes the level at chunk offset `at`.  Returns 0; -EIO when its
 * header is cut (lv->pixels is then 0); -ERANGE when its pixels run past
 * the chunk (the header fields are read). */
int ccsf_level_describe(const uint8_t *p, size_t len, uint64_t at,
			struct ccsf_level *lv);

#endif
