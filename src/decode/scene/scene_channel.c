/* SPDX-License-Identifier: MIT */
/* scene_channel.c - the samplers and channels of an animation being
 * written (doc/formats/scene-glb.md, Animations): a node's path, or what
 * a KHR_animation_pointer names. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "decode/scene/scene_internal.h"

static const char *const paths[4] = { "translation", "rotation", "scale",
				      "weights" };

/* The sampler of n keys of `values` values of ncomp floats each, its
 * comma before it when it is not the first. */
static void put_sampler(struct scene_channels *c, const float *times,
			uint32_t n, const float *values, uint32_t count,
			uint32_t ncomp, bool step)
{
	struct scene_build *b = c->b;
	uint32_t in = glb_floats(&b->g, times, n, 1, true, 0);
	uint32_t out = glb_floats(&b->g, values, count, ncomp, false, 0);
	if (c->count) {
		sb_puts(&c->samplers, ",");
		sb_puts(&c->channels, ",");
	}
	sb_printf(&c->samplers, "{\"input\":%" PRIu32 ",\"output\":%" PRIu32
		  ",\"interpolation\":\"%s\"}", in, out, step ? "STEP" : "LINEAR");
}

void scene_channel_add(struct scene_channels *c, uint32_t node,
		       unsigned path, const float *times, const float *values,
		       uint32_t n, bool step, uint32_t targets)
{
	if (path == SCENE_PATH_WEIGHTS)
		put_sampler(c, times, n, values, n * targets, 1, step);
	else
		put_sampler(c, times, n, values, n, path == 1 ? 4 : 3, step);
	sb_printf(&c->channels, "{\"sampler\":%" PRIu32 ",\"target\":{\"node\":%"
		  PRIu32 ",\"path\":\"%s\"}}", c->count++, node, paths[path & 3]);
}

void scene_channel_pointer(struct scene_channels *c, const char *pointer,
			   const float *times, const float *values,
			   uint32_t n, unsigned ncomp)
{
	uint32_t k = 1;
	while (k < n && !memcmp(values + ncomp * k, values,
				ncomp * sizeof *values))
		k++;
	if (k >= n)
		return;
	put_sampler(c, times, n, values, n, ncomp, true);
	sb_printf(&c->channels, "{\"sampler\":%" PRIu32 ",\"target\":{"
		  "\"path\":\"pointer\",\"extensions\":{"
		  "\"KHR_animation_pointer\":{\"pointer\":", c->count++);
	json_string(&c->channels, pointer);
	sb_puts(&c->channels, "}}}}");
	c->b->pointer_used = true;
}
