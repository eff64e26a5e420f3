/* SPDX-License-Identifier: MIT */
/* scene_gltf.c - scene.glb's driver: its parts (the files it is made
 * from), nodes and the document (scene_gltf.h).  It calls the parts
 * (meshes scene_mesh.c's, materials scene_material.c's, animations
 * scene_anim.c's), which share scene_base.c below them. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/scene/scene_internal.h"
#include "util/bytes.h"

/* A table of n words (at least one), every entry GNONE. */
static uint32_t *gnone_table(size_t n)
{
	n = n ? n : 1;
	uint32_t *t = malloc(n * sizeof *t);
	for (size_t i = 0; t && i < n; i++)
		t[i] = GNONE;
	return t;
}

/* Marks the nodes of part k (k > 0, a common setup file) that the
 * cutscene's scene file names, and their clumps' nodes, without which
 * a skinned model cannot be placed. */
static void mark_named(const struct scene_build *b, uint32_t k, uint8_t *in)
{
	const struct scene_part *p = &b->parts[k];
	const struct scene_frames *f = b->frames;
	for (uint32_t o = 0; f && o < f->s->object_count; o++) {
		struct scene_def d = f->def_of[o];
		uint32_t n = d.source == k && d.object < p->src.s->object_count
			     ? pose_node_of_target(&p->pose, d.object)
			     : POSE_NONE;
		if (n >= p->pose.node_count)
			continue;
		in[n] = 1;
		const struct pose_clump *c = pose_clump_of(&p->pose, n);
		for (uint32_t i = 0; c && i < c->count; i++)
			if (c->nodes[i] < p->pose.node_count)
				in[c->nodes[i]] = 1;
	}
}

/* The gnode of node n's nearest ancestor in the scene, or the root: a
 * common file's object sits below what of its hierarchy the cutscene
 * names. */
static uint32_t parent_gnode(const struct scene_part *p, uint32_t n)
{
	uint32_t up = p->pose.nodes[n].parent;
	/* pose_build cut the loops; the count bounds a walk all the same. */
	for (uint32_t steps = 0; up < p->pose.node_count &&
	     p->gnode_of[up] == GNONE && steps < p->pose.node_count; steps++)
		up = p->pose.nodes[up].parent;
	return gnode_of_pose(p, up);
}

/* The part's nodes in the scene, in its pose's order: part 0's all, a
 * common file's those the scene file names (mark_named). */
static int add_pose_nodes(struct scene_build *b, uint32_t k)
{
	struct scene_part *p = &b->parts[k];
	uint32_t count = p->pose.node_count;
	uint8_t *in = calloc(count ? count : 1, 1);
	p->gnode_of = gnone_table(count);
	if (!in || !p->gnode_of) {
		free(in);
		return -ENOMEM;
	}
	if (k == 0)
		memset(in, 1, count);
	else
		mark_named(b, k, in);
	/* Gnodes are numbered first, so that a parent later in the order
	 * is known to its children. */
	for (uint32_t i = 0, g = b->node_count; i < count; i++)
		if (in[i])
			p->gnode_of[i] = g++;
	free(in);
	for (uint32_t i = 0; i < count; i++) {
		if (p->gnode_of[i] == GNONE)
			continue;
		const struct pose_node *pn = &p->pose.nodes[i];
		uint32_t g = scene_add_node(b, scene_part_name(p, pn->object),
					    parent_gnode(p, i));
		if (g == GNONE)
			return -ENOMEM;
		struct gnode *n = &b->nodes[g];
		memcpy(n->t, pn->t, sizeof n->t);
		memcpy(n->s, pn->s, sizeof n->s);
		xform_quat_of_xyz(pn->r, n->q);
	}
	return 0;
}

/* The left_out entries of lines "...\n", but those `known` has. */
static void left_out_lines(struct scene_build *b, struct strbuf *lines,
			   const char *known)
{
	for (char *p = lines->data, *nl; p && *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n')))
			break;
		nl[0] = 0;
		bool seen = false;
		for (const char *k = known; k && !seen && (k = strstr(k, p));
		     k++)
			seen = (k == known || k[-1] == '\n') &&
			       k[nl - p] == '\n';
		if (!seen)
			scene_left_out(b, "%s", p);
	}
}

/* Node i's gnode, or its placement node's ("NAME (place)"), below its
 * parent's placement node or the root. */
static int add_game_node(struct scene_build *b, uint32_t i, bool place)
{
	const struct scene_frames *f = b->frames;
	const struct scene_node *n = &b->cut.nodes[i];
	const char *name = f->object_name ? f->object_name(f->ctx, n->object)
					  : NULL;
	char buf[96];
	if (place) {
		snprintf(buf, sizeof buf, "%s (place)", name ? name : "");
		name = buf;
	}
	uint32_t up = n->parent == SCENE_NOWHERE ? ROOT_NODE
		      : b->game_place[n->parent];
	return scene_add_node(b, name, up) == GNONE ? -ENOMEM : 0;
}

/* A cutscene in the game's layout: a gnode per node of the scene file,
 * below its parent node or the root, and no node of the parts' own. */
static int add_game_nodes(struct scene_build *b)
{
	const struct scene_frames *f = b->frames;
	struct scene_source *src = malloc(b->part_count * sizeof *src);
	struct strbuf lines = STRBUF_INIT;
	if (!src)
		return -ENOMEM;
	for (uint32_t k = 0; k < b->part_count; k++)
		src[k] = b->parts[k].src;
	int rc = scene_nodes_find(src, b->part_count, f, &b->cut, &lines);
	free(src);
	/* Those the scene file alone shows are the frame section's
	 * problems too (frames_left_out): said once. */
	struct strbuf known = STRBUF_INIT;
	if (rc == 0)
		rc = scene_frames_problems(b->s, f, &known);
	if (rc == 0)
		left_out_lines(b, &lines, known.data);
	sb_free(&known);
	sb_free(&lines);
	for (uint32_t k = 0; rc == 0 && k < b->part_count; k++)
		if (!(b->parts[k].gnode_of = gnone_table(b->parts[k].pose.node_count)))
			rc = -ENOMEM;
	if (rc == 0 && !(b->game_place = gnone_table(b->cut.count)))
		rc = -ENOMEM;
	/* The nodes, then the placement nodes of those with children. */
	b->game_gnode = b->node_count;
	uint32_t g = b->game_gnode + b->cut.count;
	for (uint32_t i = 0; rc == 0 && i < b->cut.count; i++) {
		uint32_t up = b->cut.nodes[i].parent;
		if (up != SCENE_NOWHERE && b->game_place[up] == GNONE)
			b->game_place[up] = g++;
	}
	for (uint32_t i = 0; rc == 0 && i < b->cut.count; i++)
		rc = add_game_node(b, i, false);
	for (uint32_t i = 0; rc == 0 && i < b->cut.count; i++)
		if (b->game_place[i] != GNONE)
			rc = add_game_node(b, i, true);
	return rc;
}


/* Per object of the scene file, the gnode its F_Obj records move. */
static int map_frame_objects(struct scene_build *b)
{
	const struct scene_frames *f = b->frames;
	b->frame_gnode = gnone_table(f->s->object_count);
	if (!b->frame_gnode)
		return -ENOMEM;
	for (uint32_t o = 0; b->game && o < f->s->object_count; o++)
		if (b->cut.node_of[o] != UINT32_MAX)
			b->frame_gnode[o] = b->game_gnode + b->cut.node_of[o];
	for (uint32_t o = 0; !b->game && o < f->s->object_count; o++) {
		struct scene_def d = f->def_of[o];
		if (d.source >= b->part_count)
			continue;
		const struct scene_part *p = &b->parts[d.source];
		uint32_t n = d.object < p->src.s->object_count
			     ? pose_node_of_target(&p->pose, d.object)
			     : POSE_NONE;
		if (n < p->pose.node_count)
			b->frame_gnode[o] = p->gnode_of[n];
	}
	return 0;
}

/* next[] threads each node's children in index order from first[]. */
static void put_node(struct strbuf *o, const struct scene_build *b,
		     uint32_t i, const uint32_t *first, const uint32_t *next)
{
	static const float zero[3], one[3] = { 1, 1, 1 }, unit[4] = { 0, 0, 0, 1 };
	const struct gnode *n = &b->nodes[i];
	sb_puts(o, "{\"name\":");
	json_string(o, n->name);
	for (uint32_t c = first[i]; c != GNONE; c = next[c])
		sb_printf(o, "%s%" PRIu32, c == first[i] ? ",\"children\":["
			  : ",", c);
	if (first[i] != GNONE)
		sb_puts(o, "]");
	if (memcmp(n->t, zero, sizeof zero)) {
		sb_puts(o, ",\"translation\":[");
		json_floats(o, n->t, 3);
		sb_puts(o, "]");
	}
	if (memcmp(n->q, unit, sizeof unit)) {
		sb_puts(o, ",\"rotation\":[");
		json_floats(o, n->q, 4);
		sb_puts(o, "]");
	}
	if (memcmp(n->s, one, sizeof one)) {
		sb_puts(o, ",\"scale\":[");
		json_floats(o, n->s, 3);
		sb_puts(o, "]");
	}
	if (n->mesh != GNONE)
		sb_printf(o, ",\"mesh\":%" PRIu32, n->mesh);
	if (n->skin != GNONE)
		sb_printf(o, ",\"skin\":%" PRIu32, n->skin);
	if (n->camera != GNONE)
		sb_printf(o, ",\"camera\":%" PRIu32, n->camera);
	if (n->light != GNONE)
		sb_printf(o, ",\"extensions\":{\"KHR_lights_punctual\":"
			  "{\"light\":%" PRIu32 "}}", n->light);
	sb_puts(o, "}");
}

static void put_asset(struct strbuf *o, const struct scene_build *b)
{
	sb_puts(o, "{\"asset\":{\"version\":\"2.0\",\"generator\":\""
		PACKAGE_STRING "\",\"extras\":{");
	if (b->source) {
		sb_puts(o, "\"source\":");
		json_string(o, b->source);
		sb_puts(o, ",");
	}
	if (b->frames) {
		sb_printf(o, "\"frames\":%" PRIu32 ",", b->frames->s->frames);
		if (b->frames->audio) {
			sb_puts(o, "\"audio\":");
			json_string(o, b->frames->audio);
			sb_puts(o, ",\"audio_starts_at_seconds\":0,");
		}
	}
	uint32_t loops_cut = 0;
	for (uint32_t k = 0; k < b->part_count; k++)
		loops_cut += b->parts[k].pose.loops_cut;
	sb_printf(o, "\"frames_per_second\":30,\"skin_vertices_disagreeing\":%"
		  PRIu32 ",\"parent_loops_cut\":%" PRIu32, b->disagreeing,
		  loops_cut);
	sb_puts(o, ",\"left_out\":[");
	sb_append(o, b->left_out.data, b->left_out.len);
	sb_puts(o, "]}}");
	/* Used, never required: a reader without one still shows the
	 * scene, less that extension's part. */
	const char *used[3] = {
		b->unlit_used ? "KHR_materials_unlit" : NULL,
		b->lights_used ? "KHR_lights_punctual" : NULL,
		b->pointer_used ? "KHR_animation_pointer" : NULL,
	};
	bool any = false;
	for (size_t i = 0; i < sizeof used / sizeof used[0]; i++)
		if (used[i]) {
			sb_printf(o, "%s\"%s\"", any ? "," :
				  ",\"extensionsUsed\":[", used[i]);
			any = true;
		}
	if (any)
		sb_puts(o, "]");
}

static void put_document(struct strbuf *o, const struct scene_build *b)
{
	put_asset(o, b);
	sb_puts(o, ",\"scene\":0,\"scenes\":[{\"nodes\":[");
	bool first = true;
	for (uint32_t i = 0; i < b->node_count; i++)
		if (b->nodes[i].parent == GNONE) {
			sb_printf(o, "%s%" PRIu32, first ? "" : ",", i);
			first = false;
		}
	sb_puts(o, "]}],\"nodes\":[");
	uint32_t *first_child = malloc((b->node_count + 1) * sizeof *first_child);
	uint32_t *next = malloc((b->node_count + 1) * sizeof *next);
	if (!first_child || !next) {
		o->failed = true;
	} else {
		for (uint32_t i = 0; i < b->node_count; i++)
			first_child[i] = next[i] = GNONE;
		for (uint32_t i = b->node_count; i-- > 0;) {
			uint32_t up = b->nodes[i].parent;
			if (up != GNONE) {
				next[i] = first_child[up];
				first_child[up] = i;
			}
		}
		for (uint32_t i = 0; i < b->node_count; i++) {
			if (i)
				sb_puts(o, ",");
			put_node(o, b, i, first_child, next);
		}
	}
	free(first_child);
	free(next);
	sb_puts(o, "]");
	glb_put_list(o, "meshes", &b->meshes);
	glb_put_list(o, "skins", &b->skins);
	glb_put_list(o, "materials", &b->materials);
	glb_put_list(o, "textures", &b->textures);
	glb_put_list(o, "samplers", &b->samplers);
	glb_put_list(o, "images", &b->images);
	glb_put_list(o, "animations", &b->animations);
	glb_put_list(o, "cameras", &b->cameras);
	if (b->lights.count) {
		sb_puts(o, ",\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[");
		sb_append(o, b->lights.text.data, b->lights.text.len);
		sb_puts(o, "]}}");
	}
}

/* The JSON lists a producer wrote into; their failures are sticky. */
#define SCENE_LISTS(b) { &(b)->meshes, &(b)->skins, &(b)->materials, \
	&(b)->textures, &(b)->samplers, &(b)->images, &(b)->animations, \
	&(b)->cameras, &(b)->lights }

static bool lists_failed(struct scene_build *b)
{
	struct glb_list *lists[] = SCENE_LISTS(b);
	bool failed = b->left_out.failed;
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		failed |= lists[i]->text.failed;
	return failed;
}

static void part_free(struct scene_part *p)
{
	pose_free(&p->pose);
	free(p->gnode_of);
	for (int i = 0; i < 4; i++)
		free(p->material_of[i]);
	free(p->texture_of);
	free(p->mesh_of);
}

static void build_free(struct scene_build *b)
{
	for (uint32_t k = 0; k < b->part_count; k++)
		part_free(&b->parts[k]);
	free(b->parts);
	free(b->frame_gnode);
	scene_nodes_free(&b->cut);
	free(b->game_place);
	free(b->light_node_of);
	glb_free(&b->g);
	struct glb_list *lists[] = SCENE_LISTS(b);
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		glb_list_free(lists[i]);
	for (uint32_t i = 0; i < b->node_count; i++)
		free(b->nodes[i].name);
	free(b->nodes);
	free(b->cam_node_of);
	scene_morph_free(b);
	sb_free(&b->left_out);
}

/* The root's name: the scene's own, where it is printable ASCII. */
static void root_name(const struct ccsf_scene *s, char *out, size_t n)
{
	size_t k = 0;
	for (const uint8_t *p = s->name; *p && k + 1 < n; p++)
		if (*p < 0x20 || *p > 0x7e)
			break;
		else
			out[k++] = (char)*p;
	out[k] = 0;
	if (!k)
		snprintf(out, n, "scene");
}

/* The frame section's problems, one left_out entry each. */
static int frames_left_out(struct scene_build *b)
{
	struct strbuf lines = STRBUF_INIT;
	int rc = scene_frames_problems(b->s, b->frames, &lines);
	if (rc == 0)
		left_out_lines(b, &lines, NULL);
	sb_free(&lines);
	return rc;
}

static int build_parts(struct scene_build *b)
{
	char name[CCSF_NAME_LEN + 1];
	root_name(b->frames ? b->frames->s : b->s, name, sizeof name);
	uint32_t root = scene_add_node(b, name, GNONE);
	if (root == ROOT_NODE) {
		/* -90 degrees about X: Z-up to Y-up. */
		b->nodes[root].q[0] = -0.70710677f;
		b->nodes[root].q[3] = 0.70710677f;
	}
	int rc = 0;
	b->game = b->frames && scene_nodes_game_layout(b->frames);
	if (b->game)
		rc = add_game_nodes(b);
	for (uint32_t k = 0; !b->game && k < b->part_count && rc == 0; k++)
		rc = add_pose_nodes(b, k);
	if (rc == 0 && b->frames && (rc = map_frame_objects(b)) == 0)
		rc = frames_left_out(b);
	if (rc == 0 && (rc = scene_morph_setup(b)) == 0 &&
	    (rc = scene_add_meshes(b)) == 0 &&
	    (rc = scene_add_cameras_and_lights(b)) == 0)
		rc = scene_add_animations(b);
	return rc;
}

/* Part p's pose and its tables of what is made. */
static int part_init(struct scene_part *p, const struct scene_source *src)
{
	p->src = *src;
	int rc = pose_build(src->s, src->data, src->len, &p->pose);
	size_t n = src->s->object_count;
	bool missing = false;
	for (int i = 0; i < 4; i++)
		missing |= !(p->material_of[i] = gnone_table(n));
	p->texture_of = gnone_table(n);
	p->mesh_of = gnone_table(n);
	if (rc == 0 && (missing || !p->texture_of || !p->mesh_of))
		rc = -ENOMEM;
	return rc;
}

static int build_glb(struct scene_build *b, const struct scene_source *src,
		     uint32_t count, uint8_t **out, size_t *out_len)
{
	if (out)
		*out = NULL;
	*out_len = 0;
	b->g.measure = !out;
	/* Measured, the document's text is only counted: a scene of
	 * 20,000 nodes would hold megabytes of JSON to tell its length. */
	if (b->g.measure) {
		sb_init_measure(&b->g.views.text);
		sb_init_measure(&b->g.accessors.text);
	}
	b->s = src[0].s;
	b->data = src[0].data;
	b->len = src[0].len;
	b->parts = calloc(count, sizeof *b->parts);
	int rc = b->parts ? 0 : -ENOMEM;
	for (uint32_t k = 0; rc == 0 && k < count; k++) {
		b->part_count = k + 1;
		rc = part_init(&b->parts[k], &src[k]);
	}
	/* The buffer ends near 1.6 times the file on the full-size disc:
	 * floats where the file has shorts and bytes.  A common file's
	 * share is only the objects the cutscene names: it grows for them. */
	glb_reserve(&b->g, b->len * 2 + (b->frames ? b->frames->len : 0));
	if (rc == 0)
		rc = build_parts(b);
	if (rc == 0 && (b->failed || lists_failed(b)))
		rc = -ENOMEM;
	if (rc == 0) {
		struct strbuf json = STRBUF_INIT;
		if (b->g.measure)
			sb_init_measure(&json);
		put_document(&json, b);
		rc = glb_finish(&b->g, &json, out, out_len);
		sb_free(&json);
	}
	build_free(b);
	return rc;
}

int scene_glb(const struct ccsf_scene *s, const uint8_t *data, size_t len,
	      const struct scene_env *env, uint8_t **out, size_t *out_len)
{
	struct scene_source src = { s, data, len, env->ctx, env->object_name };
	struct scene_build b = { .source = env->source };
	return build_glb(&b, &src, 1, out, out_len);
}

int scene_glb_cutscene(const struct scene_source *src, uint32_t count,
		       const char *source, const struct scene_frames *f,
		       uint8_t **out, size_t *out_len)
{
	struct scene_build b = { .source = source, .frames = f };
	if (!count) {
		if (out)
			*out = NULL;
		*out_len = 0;
		return -EINVAL;
	}
	return build_glb(&b, src, count, out, out_len);
}

bool scene_has_nodes(const struct ccsf_scene *s)
{
	for (uint32_t i = 0; i < s->chunk_count; i++)
		if (s->chunks[i].kind == CCSF_OBJ && !s->chunks[i].in_frames)
			return true;
	return false;
}
