/* SPDX-License-Identifier: MIT */
/* scene_base.c - what the parts of scene.glb share, below them: new
 * nodes, object names, what was left out, and the walk over an Anime
 * chunk's or the frame section's records (scene_internal.h).  The
 * driver (scene_gltf.c) calls the parts, and the parts call this. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/scene/scene_internal.h"
#include "util/vec.h"

uint32_t scene_add_node(struct scene_build *b, const char *name,
			uint32_t parent)
{
	if (vec_reserve(b->nodes, &b->node_cap, b->node_count + 1, 16) < 0) {
		b->failed = true;
		return GNONE;
	}
	struct gnode *n = &b->nodes[b->node_count];
	memset(n, 0, sizeof *n);
	n->name = strdup(name ? name : "");
	if (!n->name)
		b->failed = true;
	n->parent = parent;
	n->mesh = n->skin = n->camera = n->light = GNONE;
	n->q[3] = 1;
	n->s[0] = n->s[1] = n->s[2] = 1;
	return b->node_count++;
}

const char *scene_part_name(const struct scene_part *p, uint32_t object)
{
	const char *name = p->src.object_name ?
			   p->src.object_name(p->src.ctx, object) : NULL;
	return name ? name : "";
}

const char *scene_object_name(const struct scene_build *b, uint32_t object)
{
	return scene_part_name(scene_main(b), object);
}

void scene_left_out(struct scene_build *b, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (b->left_out.len)
		sb_puts(&b->left_out, ",");
	json_string(&b->left_out, line);
}

void scene_walk_anime(struct scene_build *b, uint32_t chunk,
		      anime_record_fn fn, void *arg)
{
	size_t plen;
	const uint8_t *p = ccsf_chunk_payload(&b->s->chunks[chunk], b->data,
					      b->len, &plen);
	if (p)
		anime_each_record(p, plen, fn, arg, NULL);
}

void scene_walk_records(struct scene_build *b, uint32_t chunk,
			anime_record_fn fn, void *arg)
{
	if (chunk != FRAME_SECTION)
		scene_walk_anime(b, chunk, fn, arg);
	else if (scene_frames_each_mapped(b->frames, fn, arg) < 0)
		b->failed = true;
}

const struct scene_node *scene_game_node(const struct scene_build *b,
					 uint32_t g)
{
	if (!b->game || g < b->game_gnode || g - b->game_gnode >= b->cut.count)
		return NULL;
	return &b->cut.nodes[g - b->game_gnode];
}

uint32_t scene_game_place(const struct scene_build *b, uint32_t g)
{
	if (!b->game || g < b->game_gnode || g - b->game_gnode >= b->cut.count)
		return GNONE;
	return b->game_place[g - b->game_gnode];
}
