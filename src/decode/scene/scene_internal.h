/* SPDX-License-Identifier: MIT */
/* scene_internal.h - what the parts of the glTF scene writer share: the
 * builder and its node table.  Only the files of decode/scene/
 * include it. */
#ifndef CCSFS_SCENE_INTERNAL_H
#define CCSFS_SCENE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/model/model.h"
#include "decode/motion/anime.h"
#include "decode/motion/morph.h"
#include "decode/motion/pose.h"
#include "decode/scene/glb.h"
#include "decode/scene/json.h"
#include "decode/scene/scene_gltf.h"

#define GNONE UINT32_MAX
#define ROOT_NODE 0u

/* A glTF node before it is written. */
struct gnode {
	char *name;
	uint32_t parent;        /* a gnode, or GNONE for a scene root */
	uint32_t mesh, skin, camera, light;
	float t[3], q[4], s[3];
};

/* A morpher in the scene: the targets its base's mesh carries. */
struct scene_morph {
	const struct morph *m;
	uint32_t mesh;          /* the base's glTF mesh, or GNONE */
	uint32_t count;         /* targets the mesh carries, glTF's order */
	uint32_t *kept;         /* their indices in m->targets */
};

/* The targets of a mesh being made (scene_morph_begin). */
struct morph_mesh {
	struct scene_morph *sm; /* NULL: the model is no morpher's base */
	struct model_mesh *t;   /* sm->count decoded targets */
};

/* A file the scene's objects come from, and what is made of it.  A scene
 * file has one part; a cutscene has its setup file (part 0) and each
 * common setup file that defines some of its objects.  Object, node and
 * chunk indices are the part's own. */
struct scene_part {
	struct scene_source src;
	struct pose pose;
	uint32_t *gnode_of;             /* per pose node: its gnode, or GNONE */
	/* Per MAT_ object, by SCENE_MAT_* flags: lit or unlit, with its
	 * texture or without (for primitives that have no ST). */
	uint32_t *material_of[4];
	uint32_t *texture_of;           /* per TEX_ object */
	uint32_t *mesh_of;              /* per rigid MDL_ object */
};

struct scene_build {
	/* The main file, part 0's: its Anime chunks, cameras, lights and
	 * morphers are made (a cutscene's setup file). */
	const struct ccsf_scene *s;
	const uint8_t *data;
	size_t len;
	const char *source;             /* for the asset's extras */
	struct scene_part *parts;
	uint32_t part_count;
	/* A cutscene's frame section, which animates the scene instead of
	 * its Anime chunks; NULL for a plain scene file.  frame_gnode: per
	 * object of its scene file, the gnode its F_Obj records move. */
	const struct scene_frames *frames;
	uint32_t *frame_gnode;
	/* A cutscene in the game's layout: its nodes are the scene file's
	 * (scene_nodes_find), node i's gnode is game_gnode + i, and its
	 * camera is the scene file's first (game_camera, an object of the
	 * scene file, 0 for none). */
	bool game;
	struct scene_nodes cut;
	uint32_t game_gnode, game_camera;
	/* Per node: the gnode its children hang from, or GNONE when it has
	 * none.  The placement node has the node's records but is never
	 * hidden: the game draws a child of a hidden node. */
	uint32_t *game_place;
	/* A cutscene's lights: per object of its scene file, the gnode of
	 * the light its F_DistantLight or F_OmniLight records drive. */
	uint32_t *light_node_of;
	struct glb g;
	struct glb_list meshes, skins, materials, textures, samplers, images,
			animations, cameras, lights;
	struct gnode *nodes;
	uint32_t node_count;
	size_t node_cap;
	uint32_t *cam_node_of;          /* per CAM_ object: its gnode */
	uint32_t cam_count;             /* entries of cam_node_of, less one */
	struct morph_list morphs;
	struct scene_morph *morph;      /* one per morphs.m */
	uint32_t disagreeing;           /* skin vertices (see scene_gltf.h) */
	struct strbuf left_out;         /* JSON strings: what was left out */
	bool unlit_used, lights_used, pointer_used;
	bool failed;
};

/* The main file's part, whose pose the Anime chunks move. */
static inline struct scene_part *scene_main(const struct scene_build *b)
{
	return &b->parts[0];
}

/* The gnode of pose node n of part p: the root for none, or for a node
 * the scene does not include. */
static inline uint32_t gnode_of_pose(const struct scene_part *p, uint32_t n)
{
	return n < p->pose.node_count && p->gnode_of[n] != GNONE
	       ? p->gnode_of[n] : ROOT_NODE;
}

/* An animation's samplers and channels as they are written
 * (scene_channel.c): a channel of n keys on a node's path (translation,
 * rotation as quaternions, scale; weights: `targets` scalars a key), or
 * a STEP one on what `pointer` names (KHR_animation_pointer; ncomp
 * floats a key), made only when the values change. */
struct scene_channels {
	struct scene_build *b;
	struct strbuf samplers, channels;
	uint32_t count;
};
#define SCENE_PATH_WEIGHTS 3
void scene_channel_add(struct scene_channels *c, uint32_t node,
		       unsigned path, const float *times, const float *values,
		       uint32_t n, bool step, uint32_t targets);
void scene_channel_pointer(struct scene_channels *c, const char *pointer,
			   const float *times, const float *values,
			   uint32_t n, unsigned ncomp);

/* The base the parts share (scene_base.c).  A new gnode below parent
 * named name (copied). */
uint32_t scene_add_node(struct scene_build *b, const char *name,
			uint32_t parent);
/* An object's name in the main file, or in part p. */
const char *scene_object_name(const struct scene_build *b, uint32_t object);
const char *scene_part_name(const struct scene_part *p, uint32_t object);
/* Records a part left out and why. */
void scene_left_out(struct scene_build *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Calls fn for each record of the Anime chunk `chunk` (a chunk index). */
void scene_walk_anime(struct scene_build *b, uint32_t chunk,
		      anime_record_fn fn, void *arg);
/* The same, or with chunk FRAME_SECTION each record of a cutscene's frame
 * section, naming the setup file's objects (scene_frames_each_mapped). */
#define FRAME_SECTION UINT32_MAX
void scene_walk_records(struct scene_build *b, uint32_t chunk,
			anime_record_fn fn, void *arg);

/* The material of mmats of part p's MAT_ object `mat` (GNONE: none).
 * flags: SCENE_MAT_UNLIT for mtype 0; SCENE_MAT_NO_UV for a primitive
 * without TEXCOORD_0, which glTF forbids to bind a texture: it gets the
 * material's untextured variant. */
#define SCENE_MAT_UNLIT 1u
#define SCENE_MAT_NO_UV 2u
uint32_t scene_material(struct scene_build *b, struct scene_part *p,
			uint32_t mat, unsigned flags);

/* The scene file's node whose F_Obj records move gnode g, or NULL (a
 * cutscene in the game's layout only). */
const struct scene_node *scene_game_node(const struct scene_build *b,
					 uint32_t g);
/* The placement node of gnode g, or GNONE. */
uint32_t scene_game_place(const struct scene_build *b, uint32_t g);

/* When the game draws each node of a game-layout cutscene
 * (scene_visible.c): per node, the frames its drawn state is decided at
 * (its records', and its parent's where its transparency is the
 * parent's times its own), and that state. */
struct scene_vis {
	uint32_t *frames;
	float *tp;              /* its transparency there, the parent's in */
	uint8_t *drawn;
	uint32_t count;
	bool done;
};
int scene_visibility(const struct scene_build *b, struct scene_vis **out);
bool scene_vis_drawn(const struct scene_vis *v, uint32_t frame);
void scene_visibility_free(struct scene_vis *v, uint32_t n);

/* Meshes of every node's model (scene_mesh.c). */
int scene_add_meshes(struct scene_build *b);
/* Morph targets (scene_morph.c): the morphers, found before the meshes
 * are made (0 or -ENOMEM); a base's targets, decoded and checked when its
 * mesh is made (sm NULL when it is no base, or none of its targets
 * fits); a primitive's `,"targets":[...]` for mmat i (clump: a bone
 * model's, whose deltas turn with their node; else NULL); the mesh's
 * `,"weights":[...],"extras":{...}`; then the mesh's index, or GNONE. */
int scene_morph_setup(struct scene_build *b);
void scene_morph_begin(struct scene_build *b, const struct model_mesh *base,
		       bool skinned, struct morph_mesh *mm);
void scene_morph_prim(struct scene_build *b, const struct morph_mesh *mm,
		      const struct model_mesh *base, uint32_t i,
		      const struct pose_clump *clump, struct strbuf *o);
void scene_morph_mesh(const struct scene_build *b,
		      const struct morph_mesh *mm, struct strbuf *o);
void scene_morph_end(struct morph_mesh *mm, uint32_t mesh);
/* The STEP keys of morph j in Anime chunk `chunk`: *n keys (0: the chunk
 * has no record for it), n * count weights; malloc'ed.  -ENOMEM or 0. */
int scene_morph_keys(struct scene_build *b, uint32_t chunk, uint32_t j,
		     float **times, float **weights, uint32_t *n);
void scene_morph_free(struct scene_build *b);

/* Animations, cameras and lights (scene_anim.c). */
int scene_add_animations(struct scene_build *b);
/* A cutscene's lights' channels (scene_light.c), into its animation. */
void scene_light_channels(struct scene_build *b, struct scene_channels *c);
int scene_add_cameras_and_lights(struct scene_build *b);
/* KHR_lights_punctual lights of the light controllers (scene_light.c). */
int scene_add_lights(struct scene_build *b);

#endif
