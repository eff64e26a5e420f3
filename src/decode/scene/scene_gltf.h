/* SPDX-License-Identifier: MIT */
/* scene_gltf.h - a whole scene file as one binary glTF (scene.glb;
 * doc/formats/scene-glb.md).
 *
 * The nodes are the objects with an Obj chunk, posed at frame 0 as
 * pose.h says, below a root that turns the game's Z-up into glTF's Y-up.
 * Rigid models are meshes of their owner node; bone and skin models are
 * skinned over their clump's nodes.  Materials carry the textures as
 * embedded PNGs; each Anime chunk becomes an animation; cameras and
 * lights become glTF cameras and KHR_lights_punctual lights.
 *
 * A part that cannot be made (a model or texture that does not decode) is
 * left out, and the asset's extras list why; only running out of memory
 * fails the whole file.
 */
#ifndef CCSFS_SCENE_GLTF_H
#define CCSFS_SCENE_GLTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "decode/motion/anime.h"
#include "util/strbuf.h"

struct scene_env {
	void *ctx;
	/* The object's name in UTF-8, or NULL when the index has none. */
	const char *(*object_name)(void *ctx, uint32_t index);
	const char *source;     /* where the file is, for the asset's extras */
};

/* Makes the GLB of a walked scene.  0 with *out malloc'ed, or -ENOMEM.
 * With out NULL (here and in scene_glb_cutscene) the GLB is measured:
 * made without keeping its buffer, and only its length given. */
int scene_glb(const struct ccsf_scene *s, const uint8_t *data, size_t len,
	      const struct scene_env *env, uint8_t **out, size_t *out_len);

/* A file a cutscene's objects come from: its setup file, or a common
 * setup file that defines some of them. */
struct scene_source {
	const struct ccsf_scene *s;
	const uint8_t *data;
	size_t len;
	void *ctx;
	/* The object's name in UTF-8, or NULL when the index has none. */
	const char *(*object_name)(void *ctx, uint32_t index);
};

/* Where an object of a cutscene's scene file is defined: a source (0:
 * the pair's setup file; SCENE_NOWHERE: no file the writer is given)
 * and the object's index there. */
#define SCENE_NOWHERE UINT32_MAX
struct scene_def {
	uint32_t source, object;
};

/* A cutscene (doc/formats/scene-glb.md, Cutscenes): the scene file
 * whose frame section moves the objects of its setup file and of the
 * common setup files.  Sizes and indices in it are untrusted like any
 * file's. */
struct scene_frames {
	const struct ccsf_scene *s;
	const uint8_t *data;
	size_t len;
	const struct scene_def *def_of;         /* per object of s */
	const char *(*object_name)(void *ctx, uint32_t index);  /* of s */
	void *ctx;
	const char *audio;      /* the sound's file name, or NULL */
};

/* The GLB of the cutscene f: the objects of src[0] (the pair's setup
 * file, whose cameras, lights and morphers are made too) and those of
 * src[1 .. count - 1] that f's scene file names, posed and animated by
 * f's frame section: one animation of f->s->frames / 30 s.  `source`
 * names the files in the asset's extras.  0 with *out malloc'ed, or
 * -ENOMEM. */
int scene_glb_cutscene(const struct scene_source *src, uint32_t count,
		       const char *source, const struct scene_frames *f,
		       uint8_t **out, size_t *out_len);

/* Calls fn for each record of f's frame section after its first Top,
 * with that Top's frame; records under a Top that goes back in time are
 * passed over (*went_back: the first such Top's offset, or 0; may be
 * NULL).  The section's end Top ends the walk. */
void scene_frames_each(const struct scene_frames *f, anime_record_fn fn,
		       void *arg, uint32_t *went_back);
/* The same, each F_Camera and F_Morpher record handed out as a copy
 * whose objects are the setup file's (source 0; 0 where it defines
 * none); F_Obj records keep the scene file's objects, as they may name
 * any source's.  0 or -ENOMEM. */
int scene_frames_each_mapped(const struct scene_frames *f, anime_record_fn fn,
			     void *arg);
/* Where object `object` of f->s is defined ({SCENE_NOWHERE, 0}: nowhere
 * the writer knows), and its index in the setup file (source 0), or
 * UINT32_MAX. */
struct scene_def scene_frames_def(const struct scene_frames *f,
				  uint32_t object);
uint32_t scene_frames_object(const struct scene_frames *f, uint32_t object);
/* The scene file's camera: the object of its first Camera chunk in
 * object order, 0 when it has none.  In the game's layout
 * (scene_nodes_game_layout) it is the cutscene's camera, and F_Camera
 * records keep naming the scene file's objects. */
uint32_t scene_frames_camera(const struct scene_frames *f);
/* One line per thing of the frame section scene.glb cannot show:
 * records for objects no source defines, camera and morpher records for
 * a common file's objects, cameras without a record, a Top that goes
 * back, a cut file.  0 or -ENOMEM. */
int scene_frames_problems(const struct ccsf_scene *setup,
			  const struct scene_frames *f, struct strbuf *out);

/* A cutscene's nodes as the game makes them (doc/formats/scene-glb.md,
 * Cutscenes): the objects the scene file's own Clump chunks list, in
 * the order of the clumps' objects, each followed through its ExtObj
 * targets (across files by the '#' entries: the scene file's through
 * f->def_of, a source's by name in the other sources) to the Obj that
 * gives its model. */
struct scene_node {
	uint32_t object;        /* the scene file's */
	uint32_t parent;        /* a node of the list, or SCENE_NOWHERE */
	struct scene_def model; /* the MDL_ and its source; SCENE_NOWHERE:
				   none, or not looked for */
	uint32_t obj2;          /* its Obj2 flags in the scene file, or 0 */
	bool skinned;           /* its model is a bone or skin model */
};
#define SCENE_OBJ2_INHERIT_TP 1u  /* transparency times the parent's */
#define SCENE_OBJ2_PART 2u        /* placed at the origin: hidden */

struct scene_nodes {
	struct scene_node *nodes;
	uint32_t count;
	uint32_t *node_of;      /* per scene object: its node, or UINT32_MAX */
};

/* True when a Clump of f's scene file lists an object with an Obj or
 * ExtObj chunk of that file: the game's layout.  (A Clump of '#' stubs
 * whose F_Obj records name the setup file's objects is the other.) */
bool scene_nodes_game_layout(const struct scene_frames *f);
/* The nodes.  With src NULL the chains stop at the first '#' entry f's
 * def_of resolves, and no model is found.  A node whose chain reaches
 * no Obj (a missing target, a circle) is left out, a node with a shadow
 * model too; a parent loop is cut.  What is left out is said in
 * `problems` (may be NULL), one "nodes: ..." line each.  0 or -ENOMEM;
 * *out is freed with scene_nodes_free(). */
int scene_nodes_find(const struct scene_source *src, uint32_t count,
		     const struct scene_frames *f, struct scene_nodes *out,
		     struct strbuf *problems);
void scene_nodes_free(struct scene_nodes *n);

/* True when the scene has an Obj chunk: when scene.glb is offered. */
bool scene_has_nodes(const struct ccsf_scene *s);

#endif
