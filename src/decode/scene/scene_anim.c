/* SPDX-License-Identifier: MIT */
/* scene_anim.c - scene.glb's animations (one per Anime chunk), cameras
 * and lights (doc/formats/scene-glb.md). */
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
#define KIND_OBJECT_CTL 0x0102
#define KIND_F_CAMERA 0x0502
/* A PS2 picture is 4:3; F_Camera's fov is the horizontal one. */
#define ASPECT (4.0 / 3.0)

/* One animation being written. */
struct anim {
	struct scene_build *b;
	struct scene_channels ch;
	uint8_t *used;          /* per gnode and path: has a channel */
	/* F_Camera and F_Obj records met so far: one key each. */
	struct cam_key *keys;
	size_t key_count, key_cap;
	uint32_t *cam_node_of;  /* per object: its camera gnode */
	/* A cutscene's: every channel ends at the last frame, and F_Obj
	 * hides (scale 0) before its object's first record. */
	uint32_t end_frame;
	bool cutscene;
	struct scene_vis *vis;  /* the game's layout: when nodes are drawn */
};



/* A record's place: a camera's (Rz * Ry * Rx, no scale) or an
 * object's (Rx * Ry * Rz, with scale). */
struct cam_key {
	uint32_t node;
	uint32_t frame;
	float t[3], r[3], s[3], fov;
	bool camera;
	bool place;     /* a placement node's: never hidden (scene_gltf.c) */
};


/* glTF's vertical field of view, in radians, of F_Camera's horizontal
 * one in degrees (45 when it is not one) on a 4:3 picture. */
static float yfov_of(float hfov)
{
	if (!(hfov > 0 && hfov < 180))
		hfov = 45;
	return (float)(2 * atan(tan(hfov * 3.14159265358979 / 360) / ASPECT));
}

static void add_channel(struct anim *a, uint32_t node, unsigned path,
			const float *times, const float *values, uint32_t n,
			bool step)
{
	scene_channel_add(&a->ch, node, path, times, values, n, step, 0);
}

/* A camera's field of view, which core glTF cannot animate: a STEP
 * channel of KHR_animation_pointer on its yfov, only when the keys
 * change it (doc/formats/scene-glb.md, Cameras and lights). */
static void fov_channel(struct anim *a, uint32_t node, const float *times,
			const float *yfov, uint32_t n)
{
	uint32_t camera = a->b->nodes[node].camera;
	char pointer[48];
	if (camera == GNONE)
		return;
	snprintf(pointer, sizeof pointer, "/cameras/%" PRIu32
		 "/perspective/yfov", camera);
	scene_channel_pointer(&a->ch, pointer, times, yfov, n, 1);
}

/* F_Morpher records: STEP weights on every node of the base's mesh. */
static void weight_channels(struct anim *a, uint32_t chunk)
{
	struct scene_build *b = a->b;
	for (uint32_t j = 0; j < b->morphs.count && !b->failed; j++) {
		float *times, *weights;
		uint32_t n;
		if (scene_morph_keys(b, chunk, j, &times, &weights, &n) < 0)
			b->failed = true;
		for (uint32_t g = 0; n && g < b->node_count; g++)
			if (b->nodes[g].mesh == b->morph[j].mesh)
				scene_channel_add(&a->ch, g, SCENE_PATH_WEIGHTS,
						  times, weights, n, true,
						  b->morph[j].count);
		free(times);
		free(weights);
	}
}

/* The value of key k as glTF wants it: a rotation key as the quaternion
 * of its rounded angles, kept on the side of the previous key so the
 * turn between them is the short one. */
static void key_value(const struct anime_field *f, uint32_t k, unsigned path,
		      float *o, uint32_t *frame)
{
	float v[3];
	anime_field_value(f, k, frame, v);
	for (int i = 0; i < 3; i++)
		v[i] = isfinite(v[i]) ? v[i] : 0;
	if (path != 1) {
		memcpy(o, v, sizeof v);
		return;
	}
	for (int i = 0; f->mode == ANIME_KEYED && i < 3; i++)
		v[i] = xform_round_angle(v[i]);
	xform_quat_of_xyz(v, o);
	if (k && o[0] * o[-4] + o[1] * o[-3] + o[2] * o[-2] + o[3] * o[-1] < 0)
		for (int i = 0; i < 4; i++)
			o[i] = -o[i];
}

/* A field's keys: frames must rise, so a key at or before the last one
 * is passed over. */
static void field_channel(struct anim *a, uint32_t node, unsigned path,
			  const struct anime_field *f)
{
	uint32_t n = f->mode == ANIME_KEYED ? f->keys : 1;
	float *times = malloc((n ? n : 1) * sizeof *times);
	float *values = malloc((n ? n : 1) * 4 * sizeof *values);
	uint32_t kept = 0, last = 0;
	unsigned ncomp = path == 1 ? 4 : 3;
	if (!times || !values) {
		a->b->failed = true;
		n = 0;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t frame;
		key_value(f, k, path, values + ncomp * kept, &frame);
		if (kept && frame <= last)
			continue;
		times[kept] = (float)frame / FPS;
		last = frame;
		kept++;
	}
	if (kept)
		add_channel(a, node, path, times, values, kept,
			    f->mode == ANIME_CONSTANT);
	free(times);
	free(values);
}

static void object_channels(struct anim *a, const struct anime_record *r)
{
	struct anime_controller c;
	const struct scene_part *main = scene_main(a->b);
	if (anime_controller_parse(r->kind, r->p, r->len, &c, NULL) < 0)
		return;
	uint32_t node = pose_node_of_target(&main->pose, c.target);
	if (node == POSE_NONE)
		return;
	uint32_t g = gnode_of_pose(main, node);
	for (unsigned i = 0; i < c.field_count; i++)
		for (unsigned path = 0; path < 3; path++) {
			static const char *const field[3] = { "position",
				"rotation", "scale" };
			if (strcmp(c.fields[i].name, field[path]) ||
			    a->used[3 * g + path])
				continue;
			a->used[3 * g + path] = 1;
			field_channel(a, g, path, &c.fields[i]);
		}
}

static void push_key(struct anim *a, const struct cam_key *k)
{
	if (vec_reserve(a->keys, &a->key_cap, a->key_count + 1, 16) < 0)
		a->b->failed = true;
	else
		a->keys[a->key_count++] = *k;
}

/* F_Camera: u32 object, u32 flag; bit 0: nothing follows; else an f32
 * for each k = 0..7 whose bit k + 1 is clear: position, rotation (XYZ
 * degrees), unused, fov.  A record keeps what it does not carry. */
static void camera_key(struct anim *a, const struct anime_record *r)
{
	if (r->len < 8 || r->frame < 0)
		return;
	uint32_t object = rd_u32le(r->p), flag = rd_u32le(r->p + 4);
	if (object >= a->b->cam_count || a->cam_node_of[object] == GNONE ||
	    (flag & 1))
		return;
	struct cam_key k = { a->cam_node_of[object], (uint32_t)r->frame,
			     { 0, 0, 0 }, { 0, 0, 0 }, { 1, 1, 1 }, 45, true,
			     false };
	for (size_t i = a->key_count; i-- > 0;)
		if (a->keys[i].node == k.node) {
			k = a->keys[i];
			k.frame = (uint32_t)r->frame;
			break;
		}
	float *field[8] = { &k.t[0], &k.t[1], &k.t[2], &k.r[0], &k.r[1],
			    &k.r[2], NULL, &k.fov };
	size_t off = 8;
	for (unsigned i = 0; i < 8; i++) {
		if (flag & (2u << i))
			continue;
		if (off + 4 > r->len)
			return;
		float v = rd_f32le(r->p + off);
		off += 4;
		if (field[i] && isfinite(v))
			*field[i] = v;
	}
	push_key(a, &k);
}

static void anim_record_camera(const struct anime_record *r, void *arg)
{
	if (r->kind == KIND_F_CAMERA)
		camera_key(arg, r);
}

/* The camera, its node at its first record (45 degrees until one sets
 * the field of view). */
static void put_camera(struct scene_build *b, uint32_t g, const struct cam_key *k)
{
	float yfov = yfov_of(k ? k->fov : 45);
	struct strbuf *o = &b->cameras.text;
	b->nodes[g].camera = glb_item(&b->cameras);
	sb_puts(o, "{\"name\":");
	json_string(o, b->nodes[g].name);
	sb_puts(o, ",\"type\":\"perspective\",\"perspective\":{\"yfov\":");
	json_float(o, yfov);
	sb_puts(o, ",\"aspectRatio\":");
	json_float(o, (float)ASPECT);
	sb_puts(o, ",\"znear\":1}}");
	if (!k)
		return;
	memcpy(b->nodes[g].t, k->t, sizeof k->t);
	xform_quat_of_camera(k->r, b->nodes[g].q);
}

/* Whether a cutscene's F_Obj record hides its node (doc/formats/
 * scene-glb.md, Cutscenes): its shown bit (flags bit 0) clear, or its
 * transparency at or below 1/128.  (The game's layout has more rules:
 * scene_visible.c.) */
static bool cutscene_hidden(const struct anime_record *r)
{
	if (r->len < 52)
		return false;
	float tp = rd_f32le(r->p + 44);
	return !(tp > 1.0f / 128) || !(rd_u32le(r->p + 48) & 1);
}

/* The game's layout: each node's keys again, one more wherever its
 * drawn state changes between its records (its parent's transparency),
 * each hidden (scale 0) where the game does not draw it.  The old keys
 * are dropped (node GNONE) and the new appended, in frame order. */
static void game_keys(struct anim *a)
{
	struct scene_build *b = a->b;
	size_t old = a->key_count;
	for (uint32_t i = 0; i < b->cut.count && !b->failed; i++) {
		uint32_t g = b->game_gnode + i;
		const struct scene_vis *v = &a->vis[i];
		struct cam_key last;
		bool any = false;
		uint32_t c = 0;
		for (size_t j = 0; j <= old && !b->failed; j++) {
			bool end = j == old;
			if (!end && (a->keys[j].node != g || a->keys[j].place))
				continue;
			uint32_t f = end ? UINT32_MAX : a->keys[j].frame;
			/* The drawn state's changes before this key. */
			for (; c < v->count && v->frames[c] < f; c++) {
				if (!any)
					continue;
				struct cam_key k = last;
				k.frame = v->frames[c];
				push_key(a, &k);
			}
			if (end)
				break;
			last = a->keys[j];
			any = true;
			a->keys[j].node = GNONE;
			push_key(a, &last);
			while (c < v->count && v->frames[c] <= f)
				c++;
		}
	}
	for (size_t j = old; j < a->key_count; j++) {
		const struct scene_vis *v = &a->vis[a->keys[j].node -
						     b->game_gnode];
		if (!scene_vis_drawn(v, a->keys[j].frame))
			memset(a->keys[j].s, 0, sizeof a->keys[j].s);
	}
}

/* F_Obj: the whole transform from its frame on, as a STEP key. */
static void f_obj_key(struct anim *a, const struct anime_record *r)
{
	struct cam_key k = { .frame = r->frame > 0 ? (uint32_t)r->frame : 0 };
	uint32_t object;
	if (!anime_f_obj(r, &object, k.t, k.r, k.s))
		return;
	/* A cutscene's record names an object of its scene file, which
	 * any part may define; an Anime chunk's, one of the main file. */
	const struct scene_build *b = a->b;
	if (a->cutscene)
		k.node = object < b->frames->s->object_count
			 ? b->frame_gnode[object] : GNONE;
	else
		k.node = gnode_of_pose(scene_main(b), pose_node_of_target(
				       &scene_main(b)->pose, object));
	if (k.node == GNONE || k.node == ROOT_NODE)
		return;
	/* A hidden node still places its children: they hang from its
	 * placement node, which has the record but is never hidden. */
	uint32_t place = a->cutscene ? scene_game_place(b, k.node) : GNONE;
	if (place != GNONE) {
		struct cam_key p = k;
		p.node = place;
		p.place = true;
		push_key(a, &p);
	}
	/* The game's layout decides after the walk (game_keys). */
	if (a->cutscene && !a->vis && cutscene_hidden(r))
		k.s[0] = k.s[1] = k.s[2] = 0;
	push_key(a, &k);
}

static void anim_record_steps(const struct anime_record *r, void *arg)
{
	if (r->kind == KIND_F_CAMERA)
		camera_key(arg, r);
	else
		f_obj_key(arg, r);
}

static void anim_record_controllers(const struct anime_record *r, void *arg)
{
	if (r->kind == KIND_OBJECT_CTL)
		object_channels(arg, r);
}

/* Key `kept` of a group: the record's place (and a camera's yfov). */
static void put_key(float *v[4], uint32_t kept, const struct cam_key *k)
{
	memcpy(v[0] + 3 * kept, k->t, sizeof k->t);
	memcpy(v[2] + 3 * kept, k->s, sizeof k->s);
	v[3][kept] = yfov_of(k->fov);
	if (k->camera)
		xform_quat_of_camera(k->r, v[1] + 4 * kept);
	else
		xform_quat_of_xyz(k->r, v[1] + 4 * kept);
}

/* The keys of one node's records, from keys[i] on: each holds until the
 * next, and of two at one frame the later wins.  A cutscene's object is
 * hidden before its first record, and its channels end at the last
 * frame.  Returns how many keys; times and v have room for n + 2. */
static uint32_t group_keys(const struct anim *a, size_t i, float *times,
			   float *v[4])
{
	uint32_t node = a->keys[i].node, kept = 0, last = 0;
	bool camera = a->keys[i].camera;
	for (size_t j = i; j < a->key_count; j++) {
		const struct cam_key *k = &a->keys[j];
		if (k->node != node || k->camera != camera)
			continue;
		if (!kept && a->cutscene && !camera && k->frame > 0) {
			/* Hidden; a placement node at the identity. */
			struct cam_key hidden = *k;
			memset(hidden.s, 0, sizeof hidden.s);
			if (k->place)
				hidden = (struct cam_key){ .s = { 1, 1, 1 },
							   .fov = 45 };
			times[kept] = 0;
			put_key(v, kept++, &hidden);
		}
		if (kept && k->frame <= last)
			kept--;
		times[kept] = (float)k->frame / FPS;
		last = k->frame;
		put_key(v, kept++, k);
	}
	/* The last key again at the end, so the animation lasts the
	 * cutscene. */
	if (a->cutscene && kept && last < a->end_frame) {
		times[kept] = (float)a->end_frame / FPS;
		for (unsigned path = 0; path < 4; path++) {
			unsigned n = path == 1 ? 4 : path == 3 ? 1 : 3;
			memcpy(v[path] + n * kept, v[path] + n * (kept - 1),
			       n * sizeof(float));
		}
		kept++;
	}
	return kept;
}

/* The most keys one node has: a group's room, not the whole list's. */
static size_t largest_group(const struct anim *a)
{
	uint32_t nodes = a->b->node_count;
	uint32_t *count = calloc((size_t)nodes + 1, sizeof *count);
	size_t most = 0;
	for (size_t i = 0; count && i < a->key_count; i++)
		if (a->keys[i].node < nodes && ++count[a->keys[i].node] > most)
			most = count[a->keys[i].node];
	free(count);
	return count ? most : a->key_count;
}

/* Records as STEP channels, one group of keys per node.  They take the
 * node's paths before its controllers can. */
static void step_channels(struct anim *a)
{
	size_t n = largest_group(a);
	float *times = malloc((n + 2) * sizeof *times);
	float *v[4] = { malloc((n + 2) * 3 * sizeof(float)),
			malloc((n + 2) * 4 * sizeof(float)),
			malloc((n + 2) * 3 * sizeof(float)),
			malloc((n + 2) * sizeof(float)) };
	bool ok = times && v[0] && v[1] && v[2] && v[3];
	for (size_t i = 0; ok && i < a->key_count; i++) {
		uint32_t node = a->keys[i].node;
		bool camera = a->keys[i].camera;
		if (node == GNONE || a->used[3 * node])
			continue;
		uint32_t kept = group_keys(a, i, times, v);
		for (unsigned path = 0; path < (camera ? 2u : 3u); path++) {
			a->used[3 * node + path] = 1;
			add_channel(a, node, path, times, v[path], kept, true);
		}
		if (camera)
			fov_channel(a, node, times, v[3], kept);
	}
	if (!ok)
		a->b->failed = true;
	free(times);
	for (int i = 0; i < 4; i++)
		free(v[i]);
}

/* A cutscene starts with everything hidden: a node with a mesh that no
 * record places never shows. */
static void hide_unplaced(struct anim *a)
{
	struct scene_build *b = a->b;
	for (uint32_t g = 1; g < b->node_count; g++)
		if (b->nodes[g].mesh != GNONE && b->nodes[g].skin == GNONE &&
		    !a->used[3 * g + 2])
			memset(b->nodes[g].s, 0, sizeof b->nodes[g].s);
}

static void count_key_record(const struct anime_record *r, void *arg)
{
	if (r->kind == CCSF_F_OBJ || r->kind == KIND_F_CAMERA)
		(*(size_t *)arg)++;
}

/* Room for a key per F_Obj and F_Camera record, counted first: growing
 * a 10-minute cutscene's keys by doubling held the old array and the new
 * at once, and left up to half the new one unused. */
static void *reserve_keys(struct anim *a, uint32_t chunk)
{
	size_t n = 0;
	scene_walk_records(a->b, chunk, count_key_record, &n);
	a->key_cap = n ? n : 1;
	return a->keys = malloc(a->key_cap * sizeof *a->keys);
}

static void add_animation(struct scene_build *b, uint32_t chunk,
			  uint32_t *cam_node_of)
{
	struct anim a = { .b = b, .ch = { .b = b }, .cam_node_of = cam_node_of,
			  .cutscene = chunk == FRAME_SECTION };
	a.used = calloc((size_t)b->node_count * 3 + 3, 1);
	if (!a.used || !reserve_keys(&a, chunk)) {
		free(a.used);
		b->failed = true;
		return;
	}
	if (a.cutscene)
		a.end_frame = b->frames->s->frames;
	if (a.cutscene && b->game && scene_visibility(b, &a.vis) < 0)
		b->failed = true;
	scene_walk_records(b, chunk, anim_record_steps, &a);
	if (a.vis)
		game_keys(&a);
	step_channels(&a);
	if (a.cutscene)
		hide_unplaced(&a);
	else
		scene_walk_anime(b, chunk, anim_record_controllers, &a);
	weight_channels(&a, chunk);
	if (a.cutscene)
		scene_light_channels(b, &a.ch);
	if (a.ch.count) {
		struct strbuf *o = &b->animations.text;
		glb_item(&b->animations);
		sb_puts(o, "{\"name\":");
		if (a.cutscene)
			json_string(o, b->nodes[ROOT_NODE].name);
		else
			json_string(o, scene_object_name(b, b->s->chunks[chunk].object));
		sb_puts(o, ",\"samplers\":[");
		sb_append(o, a.ch.samplers.data, a.ch.samplers.len);
		sb_puts(o, "],\"channels\":[");
		sb_append(o, a.ch.channels.data, a.ch.channels.len);
		sb_puts(o, "]}");
	}
	b->failed |= a.ch.samplers.failed || a.ch.channels.failed;
	sb_free(&a.ch.samplers);
	sb_free(&a.ch.channels);
	free(a.keys);
	free(a.used);
	scene_visibility_free(a.vis, b->cut.count);
}

/* A camera node for every Camera chunk, posed by its first F_Camera
 * record in the Anime chunks. */
static int add_cameras(struct scene_build *b)
{
	const struct ccsf_scene *s = b->s;
	uint32_t own = b->game ? scene_frames_camera(b->frames) : 0;
	if (own) {
		/* The game's layout: the scene file's first camera alone. */
		const struct scene_frames *f = b->frames;
		uint32_t g = scene_add_node(b, f->object_name
					    ? f->object_name(f->ctx, own)
					    : NULL, ROOT_NODE);
		if (g != GNONE)
			b->cam_node_of[own] = g;
	}
	for (uint32_t i = 0; !own && i < s->chunk_count && !b->failed; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		if (c->kind != CCSF_CAMERA || c->in_frames || !c->object ||
		    b->cam_node_of[c->object] != GNONE)
			continue;
		uint32_t g = scene_add_node(b, scene_object_name(b, c->object),
					    ROOT_NODE);
		if (g != GNONE)
			b->cam_node_of[c->object] = g;
	}
	struct anim a = { .b = b, .cam_node_of = b->cam_node_of };
	if (b->frames)
		scene_walk_records(b, FRAME_SECTION, anim_record_camera, &a);
	for (uint32_t i = 0; !b->frames && i < scene_main(b)->pose.anime_count; i++)
		scene_walk_anime(b, scene_main(b)->pose.animes[i], anim_record_camera, &a);
	/* Each camera node once, in the order its objects were met. */
	for (uint32_t o = 0; o < b->cam_count; o++) {
		uint32_t g = b->cam_node_of[o];
		if (g == GNONE || b->nodes[g].camera != GNONE)
			continue;
		const struct cam_key *k = NULL;
		for (size_t j = 0; j < a.key_count && !k; j++)
			if (a.keys[j].node == g)
				k = &a.keys[j];
		put_camera(b, g, k);
	}
	free(a.keys);
	return b->failed ? -ENOMEM : 0;
}

int scene_add_cameras_and_lights(struct scene_build *b)
{
	/* Indexed by the objects F_Camera records name: the main file's,
	 * or the scene file's when it has its own camera (the game's
	 * layout). */
	b->cam_count = b->game && scene_frames_camera(b->frames)
		       ? b->frames->s->object_count : b->s->object_count;
	b->cam_node_of = malloc(((size_t)b->cam_count + 1) *
				sizeof *b->cam_node_of);
	if (!b->cam_node_of)
		return -ENOMEM;
	for (uint32_t o = 0; o <= b->cam_count; o++)
		b->cam_node_of[o] = GNONE;
	int rc = add_cameras(b);
	return rc < 0 ? rc : scene_add_lights(b);
}

int scene_add_animations(struct scene_build *b)
{
	if (b->frames) {
		add_animation(b, FRAME_SECTION, b->cam_node_of);
		return b->failed ? -ENOMEM : 0;
	}
	for (uint32_t i = 0; i < scene_main(b)->pose.anime_count && !b->failed; i++)
		add_animation(b, scene_main(b)->pose.animes[i], b->cam_node_of);
	return b->failed ? -ENOMEM : 0;
}
