/* SPDX-License-Identifier: MIT */
/* scene_light.c - scene.glb's lights: distant, direct and omni light
 * controllers as KHR_lights_punctual lights (doc/formats/scene-glb.md). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode/motion/anime.h"
#include "decode/scene/scene_internal.h"

struct light_walk {
	struct scene_build *b;
	uint8_t *seen;          /* per object: its light is made */
};

static const char *light_type(uint16_t kind)
{
	switch (kind) {
	case 0x0603: return "directional";
	case 0x0605: return "spot";
	case 0x0609: return "point";
	default: return NULL;
	}
}

/* The light of a controller, on a node of its own below the root, at
 * the values of frame 0.  A light points along Rx * Ry * Rz * (0, 0, -1),
 * which is a glTF light's -Z. */
static void light_record(const struct anime_record *r, void *arg)
{
	struct light_walk *w = arg;
	struct scene_build *b = w->b;
	struct anime_controller c;
	const char *type = light_type(r->kind);
	if (!type || anime_controller_parse(r->kind, r->p, r->len, &c, NULL) < 0 ||
	    !c.target || c.target >= b->s->object_count || w->seen[c.target])
		return;
	w->seen[c.target] = 1;
	static const float zero[3], white[3] = { 1, 1, 1 }, one[3] = { 1, 1, 1 };
	float pos[3], rot[3], colour[3], intensity[3];
	anime_field_first(&c, "position", zero, pos);
	anime_field_first(&c, "rotation", zero, rot);
	anime_field_first(&c, "colour", white, colour);
	anime_field_first(&c, "intensity", one, intensity);
	uint32_t g = scene_add_node(b, scene_object_name(b, c.target), ROOT_NODE);
	if (g == GNONE)
		return;
	for (int i = 0; i < 3; i++)
		b->nodes[g].t[i] = isfinite(pos[i]) ? pos[i] : 0;
	for (int i = 0; i < 3; i++)
		rot[i] = isfinite(rot[i]) ? rot[i] : 0;
	xform_quat_of_xyz(rot, b->nodes[g].q);
	struct strbuf *o = &b->lights.text;
	b->nodes[g].light = glb_item(&b->lights);
	b->lights_used = true;
	sb_puts(o, "{\"name\":");
	json_string(o, b->nodes[g].name);
	sb_printf(o, ",\"type\":\"%s\",\"color\":[", type);
	json_floats(o, colour, 3);
	sb_puts(o, "],\"intensity\":");
	json_float(o, isfinite(intensity[0]) && intensity[0] >= 0
		   ? intensity[0] : 1);
	if (!strcmp(type, "spot"))
		sb_puts(o, ",\"spot\":{}");
	sb_puts(o, "}");
}

int scene_add_lights(struct scene_build *b)
{
	struct light_walk w = { b, calloc(b->s->object_count + 1, 1) };
	if (!w.seen)
		return -ENOMEM;
	for (uint32_t i = 0; i < scene_main(b)->pose.anime_count; i++)
		scene_walk_anime(b, scene_main(b)->pose.animes[i], light_record, &w);
	free(w.seen);
	return b->failed ? -ENOMEM : 0;
}
