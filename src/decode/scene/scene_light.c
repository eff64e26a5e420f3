/* SPDX-License-Identifier: MIT */
/* scene_light.c - scene.glb's lights: distant, direct and omni light
 * controllers, and a cutscene's F_DistantLight and F_OmniLight records,
 * as KHR_lights_punctual lights (doc/formats/scene-glb.md). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/motion/anime.h"
#include "decode/scene/scene_internal.h"
#include "util/bytes.h"
#include "util/vec.h"

#define FPS 30.0f
#define F_DISTANT_LIGHT 0x0602
#define F_OMNI_LIGHT 0x0608

struct light_walk {
	struct scene_build *b;
	uint8_t *seen;          /* per object: its light is made */
};

static void put_light(struct scene_build *b, uint32_t g, const char *type,
		      const float colour[3], float intensity, float range);

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
	put_light(b, g, type, colour, isfinite(intensity[0]) &&
		  intensity[0] >= 0 ? intensity[0] : 1, 0);
}

/* A light's JSON on gnode g. */
static void put_light(struct scene_build *b, uint32_t g, const char *type,
		      const float colour[3], float intensity, float range)
{
	struct strbuf *o = &b->lights.text;
	b->nodes[g].light = glb_item(&b->lights);
	b->lights_used = true;
	sb_puts(o, "{\"name\":");
	json_string(o, b->nodes[g].name);
	sb_printf(o, ",\"type\":\"%s\",\"color\":[", type);
	json_floats(o, colour, 3);
	sb_puts(o, "],\"intensity\":");
	json_float(o, intensity);
	if (range > 0) {
		sb_puts(o, ",\"range\":");
		json_float(o, range);
	}
	if (!strcmp(type, "spot"))
		sb_puts(o, ",\"spot\":{}");
	sb_puts(o, "}");
}

/* ---- a cutscene's lights ---- */

/* A light's state after a record: what the record carries, the rest
 * kept from the light's record before. */
struct light_key {
	uint32_t node, frame;
	float t[3], r[3], colour[3], intensity, range;
	bool omni;
};

struct cut_lights {
	struct scene_build *b;
	struct light_key *keys;
	size_t count, cap;
	bool failed;
};

static float finite_or(float f, float def)
{
	return isfinite(f) ? f : def;
}

/* F_DistantLight: u32 object, u32 flag, f32 rotation[3], u32 rgb, then
 * f32 intensity when flag & 0x20.  F_OmniLight: u32 object, u32 flag,
 * f32 position[3], u32 rgb, f32 intensity, far start, far end.  A colour
 * is R in the low byte, each / 255. */
static bool light_fields(const struct anime_record *r, struct light_key *k)
{
	bool omni = r->kind == F_OMNI_LIGHT;
	if (r->len < (omni ? 36u : 24u))
		return false;
	uint32_t flag = rd_u32le(r->p + 4), rgb = rd_u32le(r->p + 20);
	for (int i = 0; i < 3; i++) {
		float v = finite_or(rd_f32le(r->p + 8 + 4 * i), 0);
		if (omni)
			k->t[i] = v;
		else
			k->r[i] = v;
		k->colour[i] = (float)((rgb >> (8 * i)) & 0xff) / 255.0f;
	}
	if (omni || ((flag & 0x20) && r->len >= 28)) {
		float in = rd_f32le(r->p + 24);
		k->intensity = isfinite(in) && in >= 0 ? in : 1;
	}
	if (omni) {
		float far = rd_f32le(r->p + 32);
		k->range = isfinite(far) && far > 0 ? far : 0;
	}
	k->omni = omni;
	return true;
}

/* Each record as a key of its light, its light made at its first. */
static void light_key(const struct anime_record *r, void *arg)
{
	struct cut_lights *c = arg;
	struct scene_build *b = c->b;
	const struct scene_frames *f = b->frames;
	if ((r->kind != F_DISTANT_LIGHT && r->kind != F_OMNI_LIGHT) ||
	    r->len < 8 || r->frame < 0)
		return;
	uint32_t o = rd_u32le(r->p);
	if (!o || o >= f->s->object_count)
		return;
	struct light_key k = { .node = b->light_node_of[o], .intensity = 1 };
	for (size_t i = c->count; k.node != GNONE && i-- > 0;)
		if (c->keys[i].node == k.node) {
			k = c->keys[i];
			break;
		}
	if (!light_fields(r, &k))
		return;
	k.frame = (uint32_t)r->frame;
	if (k.node == GNONE) {
		const char *name = f->object_name ? f->object_name(f->ctx, o)
						  : NULL;
		k.node = scene_add_node(b, name, ROOT_NODE);
		if (k.node == GNONE)
			return;
		b->light_node_of[o] = k.node;
		memcpy(b->nodes[k.node].t, k.t, sizeof k.t);
		xform_quat_of_xyz(k.r, b->nodes[k.node].q);
		put_light(b, k.node, k.omni ? "point" : "directional",
			  k.colour, k.intensity, k.range);
	}
	if (c->count && c->keys[c->count - 1].node == k.node &&
	    c->keys[c->count - 1].frame == k.frame)
		c->count--;     /* of two at one frame the later holds */
	if (vec_reserve(c->keys, &c->cap, c->count + 1, 16) < 0)
		c->failed = true;
	else
		c->keys[c->count++] = k;
}

static int cut_lights_walk(struct scene_build *b, struct cut_lights *c)
{
	*c = (struct cut_lights){ .b = b };
	if (!b->light_node_of) {
		size_t n = (size_t)b->frames->s->object_count + 1;
		if (!(b->light_node_of = malloc(n * sizeof *b->light_node_of)))
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			b->light_node_of[i] = GNONE;
	}
	scene_frames_each(b->frames, light_key, c, NULL);
	return c->failed || b->failed ? -ENOMEM : 0;
}

/* One light's channels: its node's translation (omni) or rotation
 * (distant), and through KHR_animation_pointer its colour, intensity
 * and range where they change; a last key at the cutscene's end. */
static void light_channels(struct scene_build *b, struct scene_channels *a,
			   const struct cut_lights *c, uint32_t node)
{
	size_t n = 0;
	for (size_t i = 0; i < c->count; i++)
		n += c->keys[i].node == node;
	float *times = malloc((n + 1) * sizeof *times);
	float *v = malloc((n + 1) * 4 * sizeof *v);
	float *in = malloc((n + 1) * sizeof *in);
	float *range = malloc((n + 1) * sizeof *range);
	float *colour = malloc((n + 1) * 3 * sizeof *colour);
	if (!times || !v || !in || !range || !colour) {
		b->failed = true;
		n = 0;
	}
	uint32_t k = 0;
	bool omni = false, ranged = true;
	for (size_t i = 0; i < c->count && n; i++) {
		const struct light_key *l = &c->keys[i];
		if (l->node != node)
			continue;
		omni = l->omni;
		times[k] = (float)l->frame / FPS;
		if (omni)
			memcpy(v + 3 * k, l->t, sizeof l->t);
		else
			xform_quat_of_xyz(l->r, v + 4 * k);
		memcpy(colour + 3 * k, l->colour, sizeof l->colour);
		in[k] = l->intensity;
		range[k] = l->range;
		ranged &= l->range > 0;
		k++;
	}
	if (k && (float)b->frames->s->frames / FPS > times[k - 1]) {
		times[k] = (float)b->frames->s->frames / FPS;
		unsigned nv = omni ? 3 : 4;
		memcpy(v + nv * k, v + nv * (k - 1), nv * sizeof *v);
		memcpy(colour + 3 * k, colour + 3 * (k - 1), 3 * sizeof *v);
		in[k] = in[k - 1];
		range[k] = range[k - 1];
		k++;
	}
	if (k) {
		char p[80];
		uint32_t light = b->nodes[node].light;
		scene_channel_add(a, node, omni ? 0 : 1, times, v, k, true, 0);
		snprintf(p, sizeof p, "/extensions/KHR_lights_punctual/lights/%"
			 PRIu32 "/color", light);
		scene_channel_pointer(a, p, times, colour, k, 3);
		snprintf(p, sizeof p, "/extensions/KHR_lights_punctual/lights/%"
			 PRIu32 "/intensity", light);
		scene_channel_pointer(a, p, times, in, k, 1);
		snprintf(p, sizeof p, "/extensions/KHR_lights_punctual/lights/%"
			 PRIu32 "/range", light);
		if (omni && ranged)
			scene_channel_pointer(a, p, times, range, k, 1);
	}
	free(times);
	free(v);
	free(in);
	free(range);
	free(colour);
}

void scene_light_channels(struct scene_build *b, struct scene_channels *a)
{
	struct cut_lights c;
	if (cut_lights_walk(b, &c) < 0)
		b->failed = true;
	/* Each light once, in the order its first record came. */
	for (size_t i = 0; i < c.count && !b->failed; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = c.keys[j].node != c.keys[i].node;
		if (first)
			light_channels(b, a, &c, c.keys[i].node);
	}
	free(c.keys);
}

int scene_add_lights(struct scene_build *b)
{
	/* A cutscene's lights are its records' (the setup's Anime chunks
	 * do not play); they are made at their first record. */
	if (b->frames) {
		struct cut_lights c;
		int rc = cut_lights_walk(b, &c);
		free(c.keys);
		return rc;
	}
	struct light_walk w = { b, calloc(b->s->object_count + 1, 1) };
	if (!w.seen)
		return -ENOMEM;
	for (uint32_t i = 0; i < scene_main(b)->pose.anime_count; i++)
		scene_walk_anime(b, scene_main(b)->pose.animes[i], light_record, &w);
	free(w.seen);
	return b->failed ? -ENOMEM : 0;
}
