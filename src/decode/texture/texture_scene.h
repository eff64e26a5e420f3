/* SPDX-License-Identifier: MIT */
/* texture_scene.h - a texture chunk in its scene: its palette is the CLUT
 * object its chunk names, found in the same file.  What texture.png and
 * scene.glb both need. */
#ifndef CCSFS_TEXTURE_SCENE_H
#define CCSFS_TEXTURE_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "decode/texture/texture.h"
#include "util/reason.h"

/* Everything a texture needs, checked: the texture, its palette and one
 * level (decoded when asked). */
struct texture_job {
	struct texture tex;
	struct palette pal;
	struct indexed_image img;
	struct reason why;
};

/* Parses the texture chunk `chunk` and its palette and checks level
 * `level`, decoding it when decode is set.  0 or a negative errno with
 * job->why set; job->img is for texture_image_free() either way. */
int texture_job_prepare(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t chunk, unsigned level,
			bool decode, struct texture_job *job);

#endif
