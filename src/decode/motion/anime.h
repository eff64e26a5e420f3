/* SPDX-License-Identifier: MIT */
/* anime.h - the controllers of an Anime chunk (doc/formats/anime.md).
 *
 * A controller record drives one object, material or light for a whole
 * clip: after its target and a flags word, each field is absent (it keeps
 * its default), constant (its values follow) or keyed (a count, then that
 * many frame-and-values keys), chosen by a 3-bit selector in the flags and
 * packed in selector order.  Parsing only points into the record, so a
 * pose or an animation reads the values where they lie.
 */
#ifndef CCSFS_ANIME_H
#define CCSFS_ANIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/reason.h"
#include "util/strbuf.h"

#define ANIME_MAX_FIELDS 8

enum anime_mode { ANIME_ABSENT, ANIME_CONSTANT, ANIME_KEYED };
/* What one value of a field is: floats, or a u32 colour (R low byte). */
enum anime_value { ANIME_F32, ANIME_VEC3, ANIME_COLOUR };

struct anime_field {
	const char *name;
	uint8_t value;          /* enum anime_value */
	uint8_t mode;           /* enum anime_mode */
	uint32_t keys;          /* keyed: how many */
	const uint8_t *data;    /* constant: the value; keyed: the keys */
};

struct anime_controller {
	uint16_t kind;
	const char *kind_name;  /* "object-ctl", ... */
	uint32_t target;        /* the object (or MAT_) it drives */
	uint32_t flags;
	unsigned field_count;
	struct anime_field fields[ANIME_MAX_FIELDS];
};

/* Whether records of this kind are controllers with a known layout. */
bool anime_is_controller(uint16_t kind);

/* Bytes one value of a field takes. */
size_t anime_value_size(uint8_t value);

/* Reads a controller record's payload.  0, or -EIO with why set when a
 * selector is 3 to 7 or a field runs past the record (sizes are the
 * file's word, never trusted). */
int anime_controller_parse(uint16_t kind, const uint8_t *p, size_t len,
			   struct anime_controller *c, struct reason *why);

/* Runs the controller parse over an Anime chunk's payload (its three
 * words, then the records, stepped over by their size fields): 0, or
 * -EIO with why naming the first controller that cannot be read, by kind
 * and offset in the payload ("object-ctl at +0x24: rotation: selector
 * 5 ...").  A record that runs past the chunk ends the walk quietly:
 * anime.txt says so, and no controller is behind it. */
int anime_chunk_check(const uint8_t *p, size_t len, struct reason *why);

/* The field's value at key k (0 for a constant one) and that key's frame
 * (0 for a constant one), as floats: a colour gives r, g, b in 0..1.
 * out holds 3 floats; returns how many it wrote. */
unsigned anime_field_value(const struct anime_field *f, uint32_t k,
			   uint32_t *frame, float out[3]);

/* The field lines of a parsed controller: each present field, named with
 * its mode, then its value or its keys as `frame: values`. */
void anime_controller_text(const struct anime_controller *c,
			   struct strbuf *out);

/* One record of an Anime chunk: its kind, its payload, where it starts
 * (from the chunk's payload) and the frame of the latest Top before it
 * (-1 before the first). */
struct anime_record {
	int32_t frame;
	uint16_t kind;
	const uint8_t *p;
	size_t len;
	size_t offset;
};
typedef void (*anime_record_fn)(const struct anime_record *r, void *arg);

/* Calls fn for each record of an Anime chunk (p: its payload, after the
 * chunk header: object, frames, words, then the records).  0 when the
 * records fill the chunk, -EIO with why set when the chunk is too short
 * for its three words or a record runs past it (fn has seen the records
 * before it). */
int anime_each_record(const uint8_t *p, size_t len, anime_record_fn fn,
		      void *arg, struct reason *why);

/* An object controller's values at frame 0 (doc/formats/anime.md,
 * Posing): a constant field's value, a keyed field's first key (angles
 * rounded as the game plays them), an absent field's default (position
 * and rotation 0, scale 1). */
void anime_object_pose(const struct anime_controller *c, float t[3],
		       float r_deg[3], float s[3]);

/* An F_Obj record (0x0101, 52 bytes: u32 object, u32 unused, f32
 * position[3], rotation[3] in degrees, scale[3], transparency, u32
 * flags): true with its object and transform, false when the record is
 * of another kind or too short.  Values that are not finite become the
 * defaults. */
bool anime_f_obj(const struct anime_record *r, uint32_t *object, float t[3],
		 float r_deg[3], float s[3]);

/* The first key's value of a field (or its constant), or def when the
 * controller has no such field: out holds 3 floats. */
void anime_field_first(const struct anime_controller *c, const char *name,
		       const float def[3], float out[3]);

#endif
