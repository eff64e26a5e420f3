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

struct scene_env {
	void *ctx;
	/* The object's name in UTF-8, or NULL when the index has none. */
	const char *(*object_name)(void *ctx, uint32_t index);
	const char *source;     /* where the file is, for the asset's extras */
};

/* Makes the GLB of a walked scene.  0 with *out malloc'ed, or -ENOMEM. */
int scene_glb(const struct ccsf_scene *s, const uint8_t *data, size_t len,
	      const struct scene_env *env, uint8_t **out, size_t *out_len);

/* True when the scene has an Obj chunk: when scene.glb is offered. */
bool scene_has_nodes(const struct ccsf_scene *s);

#endif
