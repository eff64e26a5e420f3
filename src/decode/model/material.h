/* SPDX-License-Identifier: MIT */
/* material.h - the Material chunk (0x0200), read in one place for the
 * model writers' MTL and scene.glb's materials alike. */
#ifndef CCSFS_MATERIAL_H
#define CCSFS_MATERIAL_H

#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"

/* The Material chunk of object `material` in the len bytes of data that
 * scene s was walked from: u32 object, u32 texture, f32 transparency.
 * *texture is the texture's object; *transparency is clamped to [0, 1],
 * and a value that is not finite reads as 1 (opaque), so that what is
 * made of it never holds one.  0, or -ENOENT when the object owns no
 * Material chunk or it is too short for the fields (then *texture is 0
 * and *transparency 1). */
int material_chunk(const struct ccsf_scene *s, const uint8_t *data,
		   size_t len, uint32_t material, uint32_t *texture,
		   float *transparency);

#endif
