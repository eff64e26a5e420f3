/* SPDX-License-Identifier: MIT */
/* material.c - the Material chunk's fields (material.h). */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "decode/model/material.h"
#include "util/bytes.h"

int material_chunk(const struct ccsf_scene *s, const uint8_t *data,
		   size_t len, uint32_t material, uint32_t *texture,
		   float *transparency)
{
	uint32_t chunk;
	size_t plen;
	const uint8_t *p;
	*texture = 0;
	*transparency = 1;
	if (ccsf_find_owned(s, CCSF_MATERIAL, material, &chunk) < 0 ||
	    !(p = ccsf_chunk_payload(&s->chunks[chunk], data, len, &plen)) ||
	    plen < 12)
		return -ENOENT;
	*texture = rd_u32le(p + 4);
	float tr = rd_f32le(p + 8);
	*transparency = isfinite(tr) ? fminf(1, fmaxf(0, tr)) : 1;
	return 0;
}
