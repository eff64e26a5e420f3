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
#include "decode/anime.h"
#include "util/strbuf.h"

struct scene_env {
	void *ctx;
	/* The object's name in UTF-8, or NULL when the index has none. */
	const char *(*object_name)(void *ctx, uint32_t index);
	const char *source;     /* where the file is, for the asset's extras */
};

/* Makes the GLB of a walked scene.  0 with *out malloc'ed, or -ENOMEM. */
int scene_glb(const struct ccsf_scene *s, const uint8_t *data, size_t len,
	      const struct scene_env *env, uint8_t **out, size_t *out_len);

/* A cutscene (doc/formats/scene-glb.md, Cutscenes): the scene file
 * whose frame section moves the objects of its setup file.  Sizes and
 * indices in it are untrusted like any file's. */
struct scene_frames {
	const struct ccsf_scene *s;
	const uint8_t *data;
	size_t len;
	/* Per object of s: the setup file's object of that name, or
	 * UINT32_MAX when the pair does not define it. */
	const uint32_t *object_of;
	const char *(*object_name)(void *ctx, uint32_t index);  /* of s */
	void *ctx;
	const char *audio;      /* the sound's file name, or NULL */
};

/* The GLB of setup file `s` posed and animated by f's frame section:
 * one animation of f->s->frames / 30 s.  0 with *out malloc'ed, or
 * -ENOMEM. */
int scene_glb_cutscene(const struct ccsf_scene *s, const uint8_t *data,
		       size_t len, const struct scene_env *env,
		       const struct scene_frames *f, uint8_t **out,
		       size_t *out_len);

/* Calls fn for each record of f's frame section after its first Top,
 * with that Top's frame; records under a Top that goes back in time are
 * passed over (*went_back: the first such Top's offset, or 0; may be
 * NULL).  The section's end Top ends the walk. */
void scene_frames_each(const struct scene_frames *f, anime_record_fn fn,
		       void *arg, uint32_t *went_back);
/* The same, each F_Obj, F_Camera and F_Morpher record handed out as a
 * copy whose objects are the setup file's (0 where the pair defines
 * none).  0 or -ENOMEM. */
int scene_frames_each_mapped(const struct scene_frames *f, anime_record_fn fn,
			     void *arg);
/* The setup's object for object `object` of f->s, or UINT32_MAX. */
uint32_t scene_frames_object(const struct scene_frames *f, uint32_t object);
/* One line per thing of the frame section scene.glb cannot show:
 * records for objects the pair does not define, cameras without a
 * record, a Top that goes back, a cut file.  0 or -ENOMEM. */
int scene_frames_problems(const struct ccsf_scene *setup,
			  const struct scene_frames *f, struct strbuf *out);

/* True when the scene has an Obj chunk: when scene.glb is offered. */
bool scene_has_nodes(const struct ccsf_scene *s);

#endif
