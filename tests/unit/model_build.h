/* SPDX-License-Identifier: MIT */
/* model_build.h - what the model.obj test programs share: a fake scene
 * for the names and materials, model chunks from the generator, and OBJ
 * text read back line by line and number by number. */
#ifndef CCSFS_MODEL_BUILD_H
#define CCSFS_MODEL_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "ccsw.h"
#include "decode/model/model.h"
#include "testutil.h"

/* ---- a fake scene ------------------------------------------------------ */

enum {
	O_MODEL = 1, O_MMAT_NAME, O_MAT_WOOD, O_TEX_WOOD, O_MAT_GLASS,
	O_TEX_NOIMAGE, O_MAT_NOCHUNK, O_HIT, O_COUNT
};

/* The objects above by name; wood has a texture with an image, glass one
 * without, nochunk no Material chunk. */
extern const struct model_env env;

/* ---- building chunks --------------------------------------------------- */

struct chunk {
	uint8_t *p;     /* exactly len bytes: ASan sees a read past it */
	size_t len;
};

/* A writer whose index holds the fake scene's objects, in setup. */
struct ccsw *new_writer(uint16_t version);
/* The first chunk of `kind` in the finished file, copied out. */
struct chunk finish_chunk(struct ccsw *w, uint16_t kind);
/* One model chunk, as the generator writes it at this version. */
struct chunk model_chunk(uint16_t version, const struct ccsw_model *m);

struct output {
	char *obj, *mtl;
	int rc;
	struct reason why;
};

/* What sb holds as a string, sb finished. */
char *finish_text(struct strbuf *sb);
/* model.obj and model.mtl of the chunk, model_check() seen to agree. */
struct output run_model(const struct chunk *c, uint16_t version);
void output_free(struct output *o);

/* ---- reading OBJ text back --------------------------------------------- */

/* The lines starting with `prefix` (e.g. "f "), joined by '\n'. */
char *lines_with(const char *text, const char *prefix);
/* Those lines must be exactly want. */
void expect_lines(const char *text, const char *prefix, const char *want);
/* The numbers of the k-th line starting with prefix ("v "). */
int numbers_of(const char *text, const char *prefix, int k, double *out,
	       int max);

/* ---- rigid ------------------------------------------------------------- */

/* Eight vertices at the edges of s16, and their normals, colours and ST. */
extern const int16_t box_pos[8 * 3];
void box_arrays(uint32_t normal[8], uint32_t colour[8], uint32_t st[8]);
/* The triangles box_pos's strips make, as OBJ faces. */
extern const char box_faces[];
/* The box as a one-mmat rigid model chunk. */
struct chunk box_chunk(uint16_t version, uint16_t mtype, float scale,
		       uint32_t material);
/* The box's eight positions from line base on, to 6 digits and back. */
void check_positions(const char *obj, float scale, int base);

#endif
