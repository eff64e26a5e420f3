/* SPDX-License-Identifier: MIT */
/* dbmod_internal.h - what the dbmod*.c files share: face kinds and walking. */
#ifndef CCSFS_DBMOD_INTERNAL_H
#define CCSFS_DBMOD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dbmod/dbmod.h"
#include "util/reason.h"

#define DBMOD_VERTEX_BYTES 8            /* s16 x, y, z, w */
#define DBMOD_COLOUR_BYTES 4            /* r, g, b, pad */

struct dbmod_kind_info {
	uint16_t code;
	const char *name;
	unsigned corners;
	bool indexed;           /* bytes 8..11 index the colour table (G3,
				   G4); elsewhere they are r, g, b and
				   code/pad (doc/formats/dbmod.md) */
	bool textured;
	size_t bytes;
};

/* Indexed by enum dbmod_kind (dbmod_faces.c). */
extern const struct dbmod_kind_info dbmod_kinds[DBMOD_KINDS];

/* One face record as stored.  c: G faces' colour indices; every other
 * kind's r, g, b and code/pad.  GT faces are laid out as FT faces, so
 * their bytes 8..10 are a colour, not indices: checking them against the
 * colour count failed every model whose GT colour was above it. */
struct dbmod_face {
	enum dbmod_kind kind;
	uint32_t index;         /* in the model's face list */
	size_t at;              /* in the file */
	uint32_t flags;
	uint8_t v[4];
	uint8_t c[4];
	uint8_t uv[4][2];
	uint16_t clut, tpage;
};

typedef int (*dbmod_face_fn)(void *ctx, const struct dbmod_face *f);

/* Walks the face list from its start to the 0xff end, calling fn (which
 * may be NULL) with every face; checks each face's indices.  Sets m->end
 * and m->faces.  0, -EIO with a reason, or fn's error. */
int dbmod_walk_faces(const struct dbmod *db, struct dbmod_model *m,
		     dbmod_face_fn fn, void *ctx, struct reason *why);

#endif
