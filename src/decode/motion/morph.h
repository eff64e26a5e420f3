/* SPDX-License-Identifier: MIT */
/* morph.h - morphers and their targets (doc/formats/scene-glb.md, Morph
 * targets).
 *
 * A Morpher chunk (0x1900) pairs an MPH_ object with its base model.  Its
 * targets are named nowhere else than in the F_Morpher records (0x1901:
 * u32 MPH_, u16 count, u16 pad, count x (u32 target MDL_, f32 weight)) of
 * the Anime chunks; each record holds from its frame on.  A target is a
 * model whose mmats have the base's vertex counts, vertex for vertex, so
 * that its positions are the base's moved.
 */
#ifndef CCSFS_MORPH_H
#define CCSFS_MORPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "decode/model/model.h"
#include "decode/motion/anime.h"
#include "util/reason.h"

/* Targets of one morpher, the first named: a few in the game's files,
 * and a bound on the look-ups a crafted file can ask for. */
#define MORPH_MAX_TARGETS 1024u

struct morph {
	uint32_t morpher;       /* the MPH_ object */
	uint32_t base;          /* its base MDL_ object */
	uint32_t target_count;
	uint32_t *targets;      /* MDL_ objects, in first-named order, at
				   most MORPH_MAX_TARGETS */
};

struct morph_list {
	uint32_t count;
	struct morph *m;        /* one per setup-section Morpher chunk */
};

/* Every Morpher chunk with the targets that the F_Morpher records of the
 * setup section's Anime chunks name for it.  0 or -ENOMEM; always leaves
 * a list that morph_list_free() releases. */
int morph_list_build(const struct ccsf_scene *s, const uint8_t *data,
		     size_t len, struct morph_list *l);
void morph_list_free(struct morph_list *l);
/* Adds the targets F_Morpher record r names to its morpher in l, as
 * morph_list_build does for the Anime chunks' (a cutscene's frame
 * section has its own).  0 or -ENOMEM. */
int morph_list_note(struct morph_list *l, const struct anime_record *r);

/* An F_Morpher record: true with its morpher and the number of (target,
 * weight) pairs that lie inside the record. */
bool morph_record(const struct anime_record *r, uint32_t *morpher,
		  uint32_t *pairs);
/* Pair i of a record morph_record() accepted; a weight that is not
 * finite is 0. */
void morph_record_pair(const struct anime_record *r, uint32_t i,
		       uint32_t *target, float *weight);

/* Decodes target model `target` and checks it against the base's mesh:
 * 0 with *t to free, or -EIO (why says so: no model chunk, does not
 * decode, other mmat or vertex counts) or -ENOMEM. */
int morph_target_decode(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, const struct model_mesh *base,
			uint32_t target, struct model_mesh *t, struct reason *why);

/* Calls fn for each target of morpher `morpher` that scene.glb leaves
 * out, with why, when its base is on an Obj chunk, decodes and is not a
 * shadow, and the morpher is its base's first.  0 or -ENOMEM. */
typedef void (*morph_left_out_fn)(void *arg, uint32_t target,
				  const char *why);
int morph_each_left_out(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t morpher, morph_left_out_fn fn,
			void *arg);

#endif
