/* SPDX-License-Identifier: MIT */
/* dbmod.h - DBnnMOD.BIN, a PS1 model database (doc/formats/dbmod.md), as
 * files.
 *
 * The tree shows a database as `DBnnMOD.BIN/` with models.txt and one
 * folder per model id (`0102/`: model.bin, model.txt, model.obj,
 * model.mtl).  Everything here works from the database's bytes alone and
 * keeps nothing between calls but a small table, so the tree can list a
 * database (dbmod_open, then dbmod_check per entry) and make any file
 * later from the bytes again (dbmod_open is cheap: one pass over the
 * table and one over the model headers).
 *
 * Every byte is untrusted: nothing is read past `len`, and a model that
 * cannot be read (its table entry past the file, its offsets out of
 * order, a face naming a vertex past the count or a G3/G4 face a colour
 * past it (GT faces hold a colour, as FT faces do), an unknown face
 * kind, no 0xff end) gives -EIO and a one-line reason for that model
 * only; the rest of the database is unaffected.  Output depends on the
 * bytes only (no locale, no printf of floats).  Nothing logs.
 */
#ifndef CCSFS_DBMOD_H
#define CCSFS_DBMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/reason.h"
#include "util/strbuf.h"

#define DBMOD_MAGIC 0xc0de0001u
#define DBMOD_NONE 0xffffffffu          /* a table entry without a model */
#define DBMOD_HEADER 0x20u              /* bytes of a model's header */

/* What a model's four _at fields (bounds, vertices, colours, faces) count
 * from.  doc/formats/dbmod.md, Offset reading: the notes do not say, so
 * dbmod_open decides per database. */
enum dbmod_base {
	DBMOD_FROM_MODEL,       /* the model's first byte (its header) */
	DBMOD_FROM_TABLE_END,   /* the table's end, as the table's offsets */
};

struct dbmod_entry {
	uint32_t position;      /* index in the table */
	uint32_t raw;           /* the table word as stored */
	bool present;           /* raw != 0xffffffff */
	bool duplicate;         /* an earlier entry has the same id: the tree
				   shows the first only */
	uint16_t id;            /* raw >> 21 */
	uint64_t offset;        /* the model's header in the file: the
				   table's end + (raw & 0x1fffff) */
};

struct dbmod {
	const uint8_t *p;       /* not owned; must outlive every call */
	size_t len;
	uint16_t count;         /* table entries */
	size_t table_end;       /* 8 + 4 * count */
	enum dbmod_base base;   /* the reading chosen */
	/* Models whose header fits and whose offsets are in order under each
	 * reading: the reason for the choice, printed in models.txt. */
	uint32_t fit_model, fit_table_end, headers;
	struct dbmod_entry *entries;    /* count of them */
	uint64_t *starts;       /* the models' offsets, sorted: where each
				   face list must end by */
	size_t start_count;
};

/* The first u32 is 0xc0de0001.  A file named like a database without it
 * is not one (DB08MOD.BIN) and passes through as a plain file. */
bool dbmod_probe(const uint8_t *p, size_t len);

/* Reads the table and chooses the offset reading: the one under which
 * every model's header end <= bounds <= vertices <= colours <= faces <
 * len (colours only when the model has any); if no reading fits every
 * model, the one that fits more; the model's start on a tie.  Returns 0,
 * -EIO when there is no magic or the table runs past the file (why says
 * so), or -ENOMEM.  On success dbmod_close() frees the table. */
int dbmod_open(struct dbmod *db, const uint8_t *p, size_t len,
	       struct reason *why);
void dbmod_close(struct dbmod *db);

/* The position of the entry the tree shows for id (the first present
 * entry with it), or -1. */
long dbmod_find(const struct dbmod *db, uint16_t id);

/* A model decoded far enough to check it and count its faces. */
enum dbmod_kind {
	DBMOD_F3, DBMOD_F4, DBMOD_G3, DBMOD_G4,
	DBMOD_FT3, DBMOD_FT4, DBMOD_GT3, DBMOD_GT4,
	DBMOD_KINDS
};

struct dbmod_model {
	uint32_t position;
	uint16_t id;
	size_t offset;          /* header, from the file's start */
	uint32_t link, unknown_04;
	uint16_t radius, unknown_0a;
	uint32_t bounds_at, vertices_at, colours_at, faces_at;  /* stored */
	uint16_t vertices, colours;
	size_t bounds, vertex_table, colour_table, face_list;  /* in file */
	size_t end;             /* after the 0xff end: model.bin's end */
	uint32_t faces[DBMOD_KINDS];    /* faces by kind */
};

/* Checks the model at table position `position`.  Returns 0 (m filled),
 * -EIO with a reason in why (m filled as far as it got), or -ENOENT for
 * a position past the table or an entry without a model. */
int dbmod_check(const struct dbmod *db, size_t position,
		struct dbmod_model *m, struct reason *why);

/* model.bin: the bytes from the model's header to the end of its face
 * list (the 0xff end included), [*start, *start + *len).  0 or as
 * dbmod_check. */
int dbmod_model_bytes(const struct dbmod *db, size_t position,
		      size_t *start, size_t *len, struct reason *why);

/* model.txt: the header fields and every face, one a line.  Returns 0,
 * -EIO/-ENOENT as dbmod_check (out untouched), or -ENOMEM. */
int dbmod_model_text(const struct dbmod *db, size_t position,
		     struct strbuf *out, struct reason *why);

/* model.obj and model.mtl (mtl may be NULL).  Vertices are the stored
 * s16 x, y, z with the colour of a face corner (r g b, 0..1); a vertex
 * two faces colour differently is repeated.  Triangles are `f v0 v1 v2`;
 * quads, which the GPU draws as v0 v1 v2 and v1 v2 v3, are one face
 * `f v0 v1 v3 v2`.  Textured faces get `vt` u/256, 1 - v/256 and a
 * material per (tpage, clut), `tpage_XXXX_clut_XXXX`; semi-transparent
 * faces (flags bit 7) use its `_semi` twin, which says so; untextured
 * faces use `untextured` / `untextured_semi`.  Returns as
 * dbmod_model_text. */
int dbmod_model_obj(const struct dbmod *db, size_t position,
		    struct strbuf *obj, struct strbuf *mtl,
		    struct reason *why);

/* models.txt: the reading chosen and why, then one line per table entry:
 * position, id, offset, radius, vertices, colours and faces by kind, or
 * `none`, or `error: <reason>`.  0 or -ENOMEM. */
int dbmod_models_text(const struct dbmod *db, struct strbuf *out);

#endif
