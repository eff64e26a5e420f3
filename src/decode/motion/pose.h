/* SPDX-License-Identifier: MIT */
/* pose.h - where a scene's objects sit at frame 0 (doc/formats/anime.md,
 * Posing).
 *
 * There is no stored bind pose: every node starts at the identity and an
 * Anime chunk's object controllers place it.  pose_build() reads the Obj
 * chunks (the nodes and their parents), the Clump chunks (a skinned
 * model's slots) and every Anime chunk's object controllers, and gives
 * each node its local and world matrix at frame 0.
 *
 * Which Anime chunk poses a node: the first one in file order that drives
 * a node of the node's clump (the first clump listing it), so a whole
 * character is posed by one clip; a node in no clump takes the first
 * chunk that drives it.  A node no chosen chunk drives stays at the
 * identity.  An F_Obj record in the chunk at frame 0 (a record holds
 * from its frame on) places its node in place of the controllers.  Parent loops in a damaged file are cut where they close, and
 * the node is then a root.
 */
#ifndef CCSFS_POSE_H
#define CCSFS_POSE_H

#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "decode/motion/xform.h"

#define POSE_NONE UINT32_MAX

struct pose_node {
	uint32_t object;
	uint32_t parent;        /* a node index, or POSE_NONE */
	uint32_t model;         /* the Obj chunk's model and shadow words */
	uint32_t shadow;
	uint32_t anime;         /* the Anime chunk (a chunk index) posing it */
	float t[3], r[3], s[3]; /* local pose: position, degrees, scale */
	xform world;
};

struct pose_clump {
	uint32_t object;        /* the CMP_ object */
	uint32_t count;
	uint32_t *nodes;        /* per slot: a node index, or POSE_NONE */
	uint32_t anime;         /* the chunk posing it, or POSE_NONE */
};

struct pose {
	uint32_t node_count;
	struct pose_node *nodes;
	uint32_t object_count;
	uint32_t *node_of;      /* per object index: its node, or POSE_NONE */
	uint32_t *target_of;    /* per ExtObj: what its controllers drive */
	uint32_t clump_count;
	struct pose_clump *clumps;
	uint32_t *clump_of;     /* per node: its first clump, or POSE_NONE */
	uint32_t anime_count;
	uint32_t *animes;       /* Anime chunk indices, in file order */
	uint32_t loops_cut;     /* parent loops found in the file */
};

/* Builds the pose from a walked scene and its bytes.  0 or -ENOMEM;
 * a chunk that is too short is passed over.  Always leaves a pose that
 * pose_free() releases. */
int pose_build(const struct ccsf_scene *s, const uint8_t *data, size_t len,
	       struct pose *p);
void pose_free(struct pose *p);

/* The node a controller of object drives (an ExtObj's target), or
 * POSE_NONE. */
uint32_t pose_node_of_target(const struct pose *p, uint32_t object);
/* The node whose Obj chunk names model (as its model), or POSE_NONE. */
uint32_t pose_owner_of(const struct pose *p, uint32_t model);
/* The first clump that lists node n, or NULL. */
const struct pose_clump *pose_clump_of(const struct pose *p, uint32_t n);
/* The world matrix of a clump slot (the identity for a slot that names
 * no node). */
const double *pose_slot_world(const struct pose *p,
			      const struct pose_clump *c, uint32_t slot);

#endif
