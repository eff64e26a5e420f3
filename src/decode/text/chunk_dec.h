/* SPDX-License-Identifier: MIT */
/* chunk_dec.h - the field decoder that chunk_text.c's table and the
 * model and hit dumps share: only decode/ includes it. */
#ifndef CCSFS_CHUNK_DEC_H
#define CCSFS_CHUNK_DEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/text/chunk_text.h"
#include "util/bytes.h"
#include "util/strbuf.h"

enum field_type {
	FT_END,
	FT_U8, FT_U16, FT_S16, FT_U32, FT_S32,
	FT_HEX8, FT_HEX16, FT_HEX32,
	FT_F32, FT_VEC3, FT_RGBA,
	FT_OBJ,         /* u32 object index, printed with its name */
	FT_LIGHT_TYPE,  /* s16 with the kind of light */
	FT_MTYPE,       /* u16, with the part older versions use */
	FT_CHAR4, FT_CHAR32,
	FT_ALIGN4,      /* padding to 4 from the chunk start; not printed */
};



/* Values a tail needs from the fixed fields (counts, flags). */
enum saved {
	SV_NONE, SV_COUNT, SV_COUNT2, SV_FLAG, SV_SCALE, SV_MTYPE,
	SV_VERTICES, SV_OFFSETS, SV_MAX
};

struct field {
	uint8_t type;
	uint8_t save;           /* enum saved: where the raw value goes */
	uint16_t min_version;   /* absent from files older than this */
	const char *name;
};

#define F(t, n)          { .type = (t), .name = (n) }
#define FS(t, n, s)      { .type = (t), .name = (n), .save = (s) }
#define FV(t, n, v)      { .type = (t), .name = (n), .min_version = (v) }
#define FVS(t, n, v, s)  { .type = (t), .name = (n), .min_version = (v), \
			   .save = (s) }
#define PAD              { .type = FT_ALIGN4 }
#define END              { .type = FT_END }

struct dec {
	struct cursor cur;
	uint16_t version;
	chunk_object_name_fn object_name;
	void *name_ctx;
	struct strbuf *out;
	bool stopped;                   /* the error line is written */
	uint32_t saved[SV_MAX];
	char prefix[48];                /* before each key: "mmat 2 " */
	/* A counted model's position lengths under its scale (NULL when
	 * every table was busy), held while its mmats are counted. */
	struct lenmemo *memo;
};

void chunk_dec_put_raw_name(struct dec *d, const uint8_t *s, size_t n);
void chunk_dec_stop(struct dec *d, const char *what, uint64_t need,
		    uint64_t left);
void chunk_dec_stop_because(struct dec *d, const char *why);
const uint8_t *chunk_dec_take(struct dec *d, size_t n, const char *what);
bool chunk_dec_field_lines(struct dec *d, const struct field *f);
bool chunk_dec_record_line(struct dec *d, const char *label, uint64_t index,
			   const struct field *f);
void chunk_dec_record_lines(struct dec *d, const char *label, uint64_t count,
			    const struct field *f);
void chunk_dec_byte_run(struct dec *d, const char *what, uint64_t bytes);

/* The dumps of chunk_model_text.c. */
void chunk_hit_tail(struct dec *d);
void chunk_model_tail(struct dec *d);

#endif
