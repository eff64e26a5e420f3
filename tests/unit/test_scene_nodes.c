/* SPDX-License-Identifier: MIT */
/* test_scene_nodes.c - a cutscene's nodes as the game makes them
 * (scene_nodes_find): ExtObj chains within a file and across files, a
 * chain that goes round, a missing target, parents, shadow nodes; and
 * scene.glb's materials for a primitive without ST. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "decode/scene/scene_gltf.h"
#include "testutil.h"
#include "util/bytes.h"

struct walked {
	uint8_t *bytes;
	size_t len;
	struct ccsf_scene s;
};

static void walk(struct ccsw *w, struct walked *f)
{
	f->bytes = ccsw_finish(w, &f->len);
	ccsw_free(w);
	assert_non_null(f->bytes);
	memset(&f->s, 0, sizeof f->s);
	ccsf_walk(f->bytes, f->len, &f->s);
}

static void unwalk(struct walked *f)
{
	ccsf_scene_free(&f->s);
	free(f->bytes);
}

/* A rigid model of one mmat. */
static void model(struct ccsw *w, uint32_t object, uint16_t mtype,
		  uint32_t material, uint32_t seed)
{
	struct ccsw_mmat mm = { .material = material, .vertices = 6,
				.seed = seed, .indices = 3 };
	struct ccsw_model m = { .object = object, .vertex_scale = 1.0f,
				.mtype = mtype, .mmat_count = 1, .mmats = &mm,
				.size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &m);
}

/* The setup file, objects 1..: OBJ_a (Obj, MDL_a), OBJ_alias (ExtObj ->
 * OBJ_a), OBJ_hop (ExtObj -> OBJ_alias), OBJ_loop1 <-> OBJ_loop2
 * (ExtObjs that go round), OBJ_far ('#', defined by the common file),
 * OBJ_shade (Obj, MDL_shade, a shadow model), OBJ_bone (Obj, MDL_bone, a
 * bone model with no clump to pose it). */
enum { S_A = 1, S_MDL_A, S_ALIAS, S_HOP, S_LOOP1, S_LOOP2, S_FAR, S_SHADE,
       S_MDL_SHADE, S_BONE, S_MDL_BONE };

static void setup_file(struct walked *f)
{
	struct ccsw *w = ccsw_new("str0009e", 0x100);
	uint32_t file = ccsw_file(w, " c:\\str\\str0009.max");
	uint32_t cmn = ccsw_file(w, "#c:\\str\\str8000.max");
	static const char *const names[] = { "", "OBJ_a", "MDL_a", "OBJ_alias",
		"OBJ_hop", "OBJ_loop1", "OBJ_loop2", "OBJ_far", "OBJ_shade",
		"MDL_shade", "OBJ_bone", "MDL_bone" };
	for (uint32_t i = 1; i < sizeof names / sizeof names[0]; i++)
		assert_int_equal(ccsw_object_str(w, names[i],
						 i == S_FAR ? cmn : file), i);
	ccsw_setup(w);
	model(w, S_MDL_A, 1, 0, 3);
	model(w, S_MDL_SHADE, 8, 0, 4);
	ccsw_obj(w, S_A, 0, S_MDL_A, 0);
	ccsw_extobj(w, S_ALIAS, 0, S_A);
	ccsw_extobj(w, S_HOP, S_A, S_ALIAS);
	ccsw_extobj(w, S_LOOP1, 0, S_LOOP2);
	ccsw_extobj(w, S_LOOP2, 0, S_LOOP1);
	ccsw_obj(w, S_SHADE, 0, S_MDL_SHADE, 0);
	struct ccsw_mmat bm = { .vertices = 6, .seed = 6 };
	struct ccsw_model bone = { .object = S_MDL_BONE, .vertex_scale = 1.0f,
				   .mtype = 5, .mmat_count = 1, .mmats = &bm,
				   .size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &bone);
	ccsw_obj(w, S_BONE, 0, S_MDL_BONE, 0);
	ccsw_frame(w, 1);
	ccsw_end(w);
	walk(w, f);
}

/* The common file: OBJ_far (Obj, MDL_far). */
static void common_file(struct walked *f)
{
	struct ccsw *w = ccsw_new("str8000e", 0x100);
	uint32_t file = ccsw_file(w, " c:\\str\\str8000.max");
	uint32_t far = ccsw_object_str(w, "OBJ_far", file);
	uint32_t mdl = ccsw_object_str(w, "MDL_far", file);
	ccsw_setup(w);
	model(w, mdl, 1, 0, 5);
	ccsw_obj(w, far, 0, mdl, 0);
	ccsw_frame(w, 1);
	ccsw_end(w);
	walk(w, f);
}

/* The scene file: '#' entries 1..7 for the setup's OBJ_a, OBJ_hop,
 * OBJ_loop1, OBJ_far, OBJ_gone (no file has it), OBJ_shade and OBJ_bone,
 * then its
 * nodes, two clumps (the second's object first), and a camera. */
enum { X_A = 1, X_HOP, X_LOOP, X_FAR, X_GONE, X_SHADE, X_BONE,
       N_A, N_HOP, N_LOOP, N_FAR, N_GONE, N_SHADE, N_SELF, N_VIA, N_ROUND1,
       N_ROUND2, N_BONE, CMP_LATE, CMP_EARLY, CAM_B, CAM_A, OBJ_COUNT };

static const char *const scene_names[OBJ_COUNT] = { "", "OBJ_a", "OBJ_hop",
	"OBJ_loop1", "OBJ_far", "OBJ_gone", "OBJ_shade", "OBJ_bone", "n_a",
	"n_hop", "n_loop", "n_far", "n_gone", "n_shade", "n_self", "n_via",
	"n_round1", "n_round2", "n_bone", "CMP_late", "CMP_early", "CAM_b",
	"CAM_a" };

static const char *scene_name(void *ctx, uint32_t i)
{
	(void)ctx;
	return i < OBJ_COUNT ? scene_names[i] : NULL;
}

static void scene_file(struct walked *f)
{
	struct ccsw *w = ccsw_new("str0009", 0x100);
	uint32_t own = ccsw_file(w, " c:\\str\\str0009p.max");
	uint32_t ext = ccsw_file(w, "#c:\\str\\str0009.max");
	for (uint32_t i = 1; i < OBJ_COUNT; i++)
		assert_int_equal(ccsw_object_str(w, scene_names[i],
						 i <= X_BONE ? ext : own), i);
	ccsw_setup(w);
	/* CAM_b comes first in object order, CAM_a in the file. */
	ccsw_camera(w, CAM_A);
	ccsw_camera(w, CAM_B);
	/* n_hop below n_a; n_via below n_hop, its target another node's
	 * ExtObj of this file; n_self an Obj of this file without a model.
	 * n_round1 and n_round2 target each other. */
	ccsw_extobj(w, N_A, 0, X_A);
	ccsw_extobj(w, N_HOP, N_A, X_HOP);
	ccsw_extobj(w, N_LOOP, 0, X_LOOP);
	ccsw_extobj(w, N_FAR, 0, X_FAR);
	ccsw_extobj(w, N_GONE, 0, X_GONE);
	ccsw_extobj(w, N_SHADE, 0, X_SHADE);
	ccsw_obj(w, N_SELF, 0, 0, 0);
	ccsw_obj2(w, N_SELF, 3, 0, 0, 0);
	ccsw_extobj(w, N_VIA, N_HOP, N_FAR);
	ccsw_extobj(w, N_ROUND1, 0, N_ROUND2);
	ccsw_extobj(w, N_ROUND2, 0, N_ROUND1);
	ccsw_extobj(w, N_BONE, 0, X_BONE);
	const uint32_t late[3] = { N_VIA, N_ROUND1, N_A };
	const uint32_t early[10] = { N_A, N_HOP, N_LOOP, N_FAR, N_GONE,
				     N_SHADE, N_SELF, N_ROUND2, N_BONE, 0 };
	ccsw_clump(w, CMP_LATE, 3, late);
	ccsw_clump(w, CMP_EARLY, 10, early);
	ccsw_frame(w, 1);
	ccsw_end(w);
	walk(w, f);
}

#define NOWHERE { SCENE_NOWHERE, 0 }
/* The '#' entries as the tree's links resolve them (OBJ_far: the setup
 * file's '#' entry, which names the common file's). */
static const struct scene_def defs[OBJ_COUNT] = {
	NOWHERE, { 0, S_A }, { 0, S_HOP }, { 0, S_LOOP1 }, { 0, S_FAR },
	NOWHERE, { 0, S_SHADE }, { 0, S_BONE } };

static void test_chains(void **state)
{
	(void)state;
	struct walked setup, common, sc;
	setup_file(&setup);
	common_file(&common);
	scene_file(&sc);
	const struct scene_source src[2] = {
		{ &setup.s, setup.bytes, setup.len, NULL, NULL },
		{ &common.s, common.bytes, common.len, NULL, NULL } };
	struct scene_frames f = { &sc.s, sc.bytes, sc.len, defs, scene_name,
				  NULL, NULL };
	assert_true(scene_nodes_game_layout(&f));
	assert_int_equal(scene_frames_camera(&f), CAM_B);
	struct scene_nodes n;
	struct strbuf problems = STRBUF_INIT;
	assert_int_equal(scene_nodes_find(src, 2, &f, &n, &problems), 0);
	/* CMP_late (19) before CMP_early (20); each node once. */
	static const uint32_t order[6] = { N_VIA, N_A, N_HOP, N_FAR, N_SELF,
					   N_BONE };
	assert_int_equal(n.count, 6);
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(n.nodes[i].object, order[i]);
	/* n_via -> n_far -> '#' OBJ_far -> the common file's MDL_far. */
	assert_int_equal(n.nodes[0].model.source, 1);
	assert_int_equal(n.nodes[0].model.object, 2);
	assert_int_equal(n.nodes[0].parent, n.node_of[N_HOP]);
	/* n_a -> OBJ_a -> MDL_a; n_hop -> OBJ_hop -> OBJ_alias -> OBJ_a,
	 * below n_a (its own parent field, not OBJ_hop's). */
	assert_int_equal(n.nodes[1].model.source, 0);
	assert_int_equal(n.nodes[1].model.object, S_MDL_A);
	assert_int_equal(n.nodes[1].parent, SCENE_NOWHERE);
	assert_int_equal(n.nodes[2].model.object, S_MDL_A);
	assert_int_equal(n.nodes[2].parent, 1);
	/* n_far: through the setup file's own '#' entry, by name, to the
	 * common file's Obj. */
	assert_int_equal(n.nodes[3].model.source, 1);
	/* n_self: an Obj of the scene file with no model, Obj2 flags 3. */
	assert_int_equal(n.nodes[4].model.source, SCENE_NOWHERE);
	assert_int_equal(n.nodes[4].obj2, 3);
	assert_int_equal(n.node_of[N_SHADE], UINT32_MAX);
	/* n_bone -> OBJ_bone -> MDL_bone, a bone model. */
	assert_int_equal(n.nodes[5].model.object, S_MDL_BONE);
	assert_true(n.nodes[5].skinned);
	assert_non_null(strstr(problems.data, "nodes: n_loop: its ExtObj "
			       "targets go round in a circle: left out\n"));
	assert_non_null(strstr(problems.data, "nodes: n_round1: its ExtObj "
			       "targets go round in a circle: left out\n"));
	assert_non_null(strstr(problems.data, "nodes: n_gone: its target "
			       "OBJ_gone is an Obj or ExtObj of no file of the "
			       "pair: left out\n"));
	assert_null(strstr(problems.data, "n_shade"));
	scene_nodes_free(&n);
	sb_free(&problems);

	/* The scene file alone: the chains stop at the '#' entries. */
	struct strbuf alone = STRBUF_INIT;
	assert_int_equal(scene_nodes_find(NULL, 0, &f, &n, &alone), 0);
	assert_int_equal(n.count, 8);   /* n_loop and n_shade too */
	assert_int_equal(n.nodes[0].model.source, SCENE_NOWHERE);
	assert_non_null(strstr(alone.data, "n_gone"));
	assert_null(strstr(alone.data, "n_loop"));
	scene_nodes_free(&n);
	sb_free(&alone);

	/* The problems of the frame section carry the scene file's. */
	struct strbuf out = STRBUF_INIT;
	assert_int_equal(scene_frames_problems(&setup.s, &f, &out), 0);
	assert_non_null(strstr(out.data, "nodes: n_round1: its ExtObj "));
	sb_free(&out);

	uint8_t *glb;
	size_t len;
	assert_int_equal(scene_glb_cutscene(src, 2, "test", &f, &glb, &len), 0);
	uint32_t jlen = rd_u32le(glb + 12);
	const char *j = (const char *)glb + 20;
	/* One camera, the first in object order: CAM_b. */
	assert_non_null(memmem(j, jlen, "\"cameras\":[{\"name\":\"CAM_b\"", 26));
	assert_null(memmem(j, jlen, "CAM_a", 5));
	assert_null(memmem(j, jlen, "n_shade", 7));
	assert_non_null(memmem(j, jlen, "{\"name\":\"n_via\"", 15));
	/* The bone model is made, as n_bone's mesh (the third: MDL_a and
	 * MDL_far come first), not left out. */
	assert_non_null(memmem(j, jlen, "{\"name\":\"n_bone\",\"scale\":"
			       "[0,0,0],\"mesh\":2}", 42));
	assert_null(memmem(j, jlen, "clump is not made", 17));
	free(glb);
	unwalk(&sc);
	unwalk(&common);
	unwalk(&setup);
}

/* A pair laid out as before (a Clump of '#' stubs only) is not the
 * game's layout. */
static void test_stub_clump(void **state)
{
	(void)state;
	struct ccsw *w = ccsw_new("str0010", 0x100);
	uint32_t ext = ccsw_file(w, "#c:\\str\\str0010.max");
	uint32_t own = ccsw_file(w, " c:\\str\\str0010p.max");
	uint32_t a = ccsw_object_str(w, "OBJ_a", ext);
	uint32_t cmp = ccsw_object_str(w, "CMP_a", own);
	ccsw_setup(w);
	ccsw_clump(w, cmp, 1, &a);
	ccsw_frame(w, 1);
	ccsw_end(w);
	struct walked sc;
	walk(w, &sc);
	struct scene_frames f = { &sc.s, sc.bytes, sc.len, defs, NULL, NULL,
				  NULL };
	assert_false(scene_nodes_game_layout(&f));
	unwalk(&sc);
}

/* The nth element of the JSON array that starts at p ('['), or NULL. */
static const char *nth(const char *p, const char *end, unsigned n)
{
	int depth = 0;
	unsigned at = 0;
	for (; p < end; p++) {
		if (*p == '[' || *p == '{') {
			if (depth++ == 1 && at++ == n)
				return p;
		} else if (*p == ']' || *p == '}') {
			if (--depth == 0)
				return NULL;
		}
	}
	return NULL;
}

static const char *raw_name(void *ctx, uint32_t i)
{
	const struct ccsf_scene *s = ctx;
	return i < s->object_count ? (const char *)s->objects[i].name : NULL;
}

/* A model without ST on a textured material: its primitive has no
 * TEXCOORD_0, so its material has no texture (glTF's rule: the
 * validator's MESH_PRIMITIVE_TOO_FEW_TEXCOORDS); the model with ST keeps
 * the textured one. */
static void test_no_st_no_texture(void **state)
{
	(void)state;
	struct ccsw *w = ccsw_new("xplain", 0x100);
	uint32_t file = ccsw_file(w, " c:\\art\\xplain.max");
	uint32_t clt = ccsw_object_str(w, "CLT_a", file);
	uint32_t tex = ccsw_object_str(w, "TEX_a", file);
	uint32_t mat = ccsw_object_str(w, "MAT_a", file);
	uint32_t m1 = ccsw_object_str(w, "MDL_st", file);
	uint32_t m2 = ccsw_object_str(w, "MDL_plain", file);
	uint32_t o1 = ccsw_object_str(w, "OBJ_st", file);
	uint32_t o2 = ccsw_object_str(w, "OBJ_plain", file);
	ccsw_setup(w);
	struct ccsw_clut c = { .object = clt, .count = 256, .seed = 1 };
	ccsw_clut(w, &c);
	struct ccsw_texture t = { .object = tex, .clut = clt, .psm = 0x13,
				  .tw = 4, .th = 4, .seed = 2,
				  .size_field = CCSW_SIZE_AUTO };
	ccsw_texture(w, &t);
	ccsw_material(w, mat, tex, 1.0f, 0, 0);
	model(w, m1, 1, mat, 6);
	model(w, m2, 0x401, mat, 7);
	ccsw_obj(w, o1, 0, m1, 0);
	ccsw_obj(w, o2, 0, m2, 0);
	ccsw_frame(w, 1);
	ccsw_end(w);
	struct walked sc;
	walk(w, &sc);
	struct scene_env env = { &sc.s, raw_name, "test" };
	uint8_t *glb;
	size_t len;
	assert_int_equal(scene_glb(&sc.s, sc.bytes, sc.len, &env, &glb, &len), 0);
	const char *j = (const char *)glb + 20, *end = j + rd_u32le(glb + 12);
	const char *meshes = strstr(j, "\"meshes\":[");
	const char *mats = strstr(j, "\"materials\":[");
	assert_non_null(meshes);
	assert_non_null(mats);
	mats += strlen("\"materials\":");
	unsigned prims = 0, textured = 0;
	for (const char *p = meshes; (p = strstr(p, "{\"attributes\":{")) &&
	     p < mats; p++) {
		const char *close = strstr(p, "},\"indices\"");
		const char *m = strstr(p, "\"material\":");
		assert_non_null(close);
		assert_non_null(m);
		bool uv = memmem(p, (size_t)(close - p), "TEXCOORD_0", 10);
		const char *mj = nth(mats, end, (unsigned)atoi(m + 11));
		assert_non_null(mj);
		const char *next = nth(mats, end, (unsigned)atoi(m + 11) + 1);
		size_t n = next ? (size_t)(next - mj) : (size_t)(end - mj);
		bool has_tex = memmem(mj, n, "baseColorTexture", 16);
		assert_true(uv || !has_tex);
		assert_non_null(memmem(mj, n, "\"MAT_a\"", 7));
		textured += has_tex;
		prims++;
	}
	assert_int_equal(prims, 2);
	assert_int_equal(textured, 1);
	free(glb);
	unwalk(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_stub_clump),
		cmocka_unit_test(test_no_st_no_texture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
