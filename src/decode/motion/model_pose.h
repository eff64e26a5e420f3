/* SPDX-License-Identifier: MIT */
/* model_pose.h - bone and skin vertices placed in the world at frame 0
 * (doc/formats/anime.md, Posing): a bone vertex follows its clump slot,
 * world = W(node) * p; a skin vertex is the weighted sum of its entries,
 * sum(weight / 256 * W(node of the entry's slot) * p_entry).  model.obj
 * and scene.glb both place vertices here. */
#ifndef CCSFS_MODEL_POSE_H
#define CCSFS_MODEL_POSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "decode/model/model.h"
#include "decode/motion/pose.h"

/* Where vertex v of mmat mm sits.  *agree (when not NULL) tells whether
 * every entry of a skin vertex gives the same point, so that skinning by
 * weights reproduces the game at every frame. */
void model_pose_vertex(const struct model_mesh *m,
		       const struct model_mmat *mm,
		       const struct model_vertex *v, const struct pose *p,
		       const struct pose_clump *c, double out[3], bool *agree);

/* Vertex v's normal turned by its clump slot's world matrix, unit
 * length ((0, 0, 1) for a zero normal). */
void model_pose_normal(const struct model_vertex *v, const struct pose *p,
		       const struct pose_clump *c, float out[3]);

/* Moves every bone and skin vertex of the mesh into the world, posed by
 * the clump, and fills m->posed_normal; rigid and shadow vertices stay
 * as they are.  0 or -ENOMEM. */
int model_pose(struct model_mesh *m, const struct pose *p,
	       const struct pose_clump *c);

/* model.obj (obj set) or model.mtl (mtl set) of model chunk `chunk`: a
 * bone or skin model posed at frame 0 of the Anime chunk that poses its
 * owner's clump when pose_it is set; without one it stays in node
 * space.  0 or a negative errno with why set. */
int model_pose_obj(const struct ccsf_scene *s, const uint8_t *data,
		   size_t len, uint32_t chunk, bool pose_it,
		   const struct model_env *env, struct strbuf *obj,
		   struct strbuf *mtl, struct reason *why);

#endif
