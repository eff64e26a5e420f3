/* SPDX-License-Identifier: MIT */
/* fuzz_scene.c - the input as an inflated CCSF file: the walk, the pose
 * of its nodes and scene.glb.  Whatever the Obj, Clump, Anime, model and
 * texture chunks claim, the builder stays inside the file and the GLB it
 * gives is whole: its header's length is its length, its chunks fit. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "decode/motion/pose.h"
#include "decode/scene/scene_gltf.h"
#include "fuzz_common.h"
#include "util/bytes.h"

static const char *name_of(void *ctx, uint32_t index)
{
	static char buf[16];
	(void)ctx;
	snprintf(buf, sizeof buf, "o%u", (unsigned)index);
	return buf;
}

static void check_glb(const uint8_t *g, size_t n)
{
	if (n < 20 || memcmp(g, "glTF", 4) || rd_u32le(g + 8) != n)
		abort();
	uint32_t jlen = rd_u32le(g + 12);
	if (jlen % 4 || 20 + (uint64_t)jlen > n || memcmp(g + 16, "JSON", 4))
		abort();
	if (20 + (uint64_t)jlen < n &&
	    (28 + (uint64_t)jlen + rd_u32le(g + 20 + jlen) != n ||
	     memcmp(g + 24 + jlen, "BIN\0", 4)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ccsf_scene s;
	if (ccsf_walk(data, size, &s) == -ENOMEM) {
		ccsf_scene_free(&s);
		return 0;
	}
	struct pose p;
	if (pose_build(&s, data, size, &p) == 0)
		for (uint32_t i = 0; i < p.node_count; i++)
			if (p.nodes[i].parent != POSE_NONE &&
			    p.nodes[i].parent >= p.node_count)
				abort();
	pose_free(&p);
	struct scene_env env = { NULL, name_of, "fuzz" };
	uint8_t *out = NULL;
	size_t len = 0;
	if (scene_glb(&s, data, size, &env, &out, &len) == 0) {
		check_glb(out, len);
		/* A listing's measure is the made file's length. */
		size_t measured = 0;
		if (scene_glb(&s, data, size, &env, NULL, &measured) != 0 ||
		    measured != len)
			abort();
	}
	free(out);
	ccsf_scene_free(&s);
	return 0;
}
