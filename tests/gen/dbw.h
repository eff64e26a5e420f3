/* SPDX-License-Identifier: MIT */
/* dbw.h - writer of synthetic DBnnMOD.BIN model databases
 * (doc/formats/dbmod.md).
 *
 * u32 0xc0de0001, u16 count, u16 pad, u32 at[count] (low 21 bits: the
 * model's offset from the table's end; high 11: its id; 0xffffffff: no
 * model), then the models in table order, each laid out as header (0x20
 * bytes), bounds (16), vertices (8 each), colours (4 each), faces in
 * sections (u16 kind, u16 count, records; a new section wherever the
 * kind changes) and the end, u16 0xff and u16 0.
 *
 * A model can be broken on purpose (dbw_fault) for the tests of what a
 * reader does with bad input.  Everything is made up and deterministic.
 */
#ifndef CCSGEN_DBW_H
#define CCSGEN_DBW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Face kinds: the GPU's primitive codes. */
enum {
	DBW_F3 = 0x20, DBW_FT3 = 0x24, DBW_F4 = 0x28, DBW_FT4 = 0x2c,
	DBW_G3 = 0x30, DBW_GT3 = 0x34, DBW_G4 = 0x38, DBW_GT4 = 0x3c,
};

/* What the model's four _at fields count from. */
enum dbw_base { DBW_FROM_MODEL, DBW_FROM_TABLE_END };

enum dbw_fault {
	DBW_GOOD = 0,
	DBW_PAST_FILE,          /* table entry's offset 0x1ffff0: past the
				   file */
	DBW_BAD_VERTEX,         /* first face's v[0] = the vertex count */
	DBW_NO_END,             /* no 0xff end after the last section */
};

struct dbw_face {
	uint16_t kind;
	uint32_t flags;
	uint8_t v[4];
	uint8_t c[4];           /* G: colour indices; F/FT/GT: r, g, b,
				   code/pad */
	uint8_t uv[4][2];       /* FT/GT only */
	uint16_t clut, tpage;   /* FT/GT only */
};

struct dbw_model {
	uint16_t id;            /* 0..2047 */
	uint32_t link, unknown_04;
	uint16_t radius, unknown_0a;
	int16_t bounds[8];
	const int16_t (*vertices)[4];   /* x, y, z, w */
	uint16_t vertex_count;
	const uint8_t (*colours)[4];    /* r, g, b, pad */
	uint16_t colour_count;
	const struct dbw_face *faces;
	size_t face_count;
	enum dbw_fault fault;
};

/* One table entry: a model, or NULL for 0xffffffff. */
struct dbw_entry {
	const struct dbw_model *model;
};

/* The database's bytes (malloc'ed; NULL when out of memory). */
uint8_t *dbw_build(const struct dbw_entry *table, size_t count,
		   enum dbw_base base, size_t *len);

/* Canned databases, shared by ccsgen and the unit tests:
 *   every kind: ids 0, 1, 5, 102 (positions 0, 1, 3, 4; position 2 is
 *               0xffffffff); model 1 has every face kind, semi-transparent
 *               faces and two (tpage, clut) pairs; its GT faces'
 *               r, g, b are above its colour count
 *   textured gouraud: ids 0, 1, 3: GT faces whose r, g, b exceed the
 *               colour count, 0 and 3 with no colours at all
 *   broken:     ids 0, 1, 2, 3, 4: 1 past the file, 2 a face vertex past
 *               the count, 3 with no 0xff end (the next model follows),
 *               0 and 4 good (4 is last and good)
 *   no magic:   named like one, first u32 0 */
uint8_t *dbw_every_kind(enum dbw_base base, size_t *len);
uint8_t *dbw_broken(size_t *len);
uint8_t *dbw_textured_gouraud(size_t *len);
uint8_t *dbw_no_magic(size_t *len);

#endif
