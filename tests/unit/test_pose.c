/* SPDX-License-Identifier: MIT */
/* test_pose.c - the game's transforms, posing at frame 0 from Anime
 * controllers, skin weights, and the GLB container. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsw.h"
#include "decode/motion/model_pose.h"
#include "decode/motion/pose.h"
#include "decode/motion/xform.h"
#include "decode/scene/glb.h"
#include "decode/scene/scene_gltf.h"
#include "testutil.h"
#include "util/bytes.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-4)

static void turn(const float r[3], const float p[3], double out[3])
{
	static const float zero[3], one[3] = { 1, 1, 1 };
	xform m;
	xform_trs(m, zero, r, one);
	xform_point(m, p, out);
}

/* A quarter turn about each axis, then two at once: Rx * Ry applies Ry
 * first, which tells the order apart. */
static void quarter_turns_tell_the_order(void **state)
{
	(void)state;
	double o[3];
	turn((const float[3]){ 90, 0, 0 }, (const float[3]){ 0, 1, 0 }, o);
	NEAR(o[0], 0); NEAR(o[1], 0); NEAR(o[2], 1);
	turn((const float[3]){ 0, 90, 0 }, (const float[3]){ 0, 0, 1 }, o);
	NEAR(o[0], 1); NEAR(o[1], 0); NEAR(o[2], 0);
	turn((const float[3]){ 0, 0, 90 }, (const float[3]){ 1, 0, 0 }, o);
	NEAR(o[0], 0); NEAR(o[1], 1); NEAR(o[2], 0);
	/* Ry(90) keeps (0,1,0), then Rx(90) takes it to (0,0,1); Ry * Rx
	 * would give (1,0,0). */
	turn((const float[3]){ 90, 90, 0 }, (const float[3]){ 0, 1, 0 }, o);
	NEAR(o[0], 0); NEAR(o[1], 0); NEAR(o[2], 1);
}

static void scale_turn_then_move(void **state)
{
	(void)state;
	xform m;
	double o[3];
	xform_trs(m, (const float[3]){ 10, 0, 0 }, (const float[3]){ 0, 0, 90 },
		  (const float[3]){ 2, 3, 4 });
	xform_point(m, (const float[3]){ 1, 0, 0 }, o);
	NEAR(o[0], 10); NEAR(o[1], 2); NEAR(o[2], 0);
	xform inv, id;
	assert_true(xform_invert(inv, m));
	xform_mul(id, inv, m);
	for (int i = 0; i < 16; i++)
		NEAR(id[i], i % 5 == 0);
	xform_trs(m, (const float[3]){ 0, 0, 0 }, (const float[3]){ 0, 0, 0 },
		  (const float[3]){ 0, 1, 1 });
	assert_false(xform_invert(inv, m));
}

/* The quaternion turns a vector as the matrix does. */
static void quaternion_matches_matrix(void **state)
{
	(void)state;
	const float r[3] = { 30, -50, 120 }, p[3] = { 0.3f, -2, 5 };
	float q[4];
	xform_quat_of_xyz(r, q);
	double m[3];
	turn(r, p, m);
	/* v' = v + 2w (u x v) + 2 u x (u x v), u = q.xyz */
	double u[3] = { q[0], q[1], q[2] }, w = q[3], c[3], cc[3];
	c[0] = u[1] * p[2] - u[2] * p[1];
	c[1] = u[2] * p[0] - u[0] * p[2];
	c[2] = u[0] * p[1] - u[1] * p[0];
	cc[0] = u[1] * c[2] - u[2] * c[1];
	cc[1] = u[2] * c[0] - u[0] * c[2];
	cc[2] = u[0] * c[1] - u[1] * c[0];
	for (int i = 0; i < 3; i++)
		NEAR(p[i] + 2 * w * c[i] + 2 * cc[i], m[i]);
}

static void keyed_angles_round_to_a_turns_65536th(void **state)
{
	(void)state;
	/* int(90 * 182.044) = 16383 units of 360 / 65536 degrees */
	NEAR(xform_round_angle(90), 16383 * 360.0 / 65536);
	NEAR(xform_round_angle(-45), -8191 * 360.0 / 65536);
	/* 200 degrees wraps through the s16 */
	NEAR(xform_round_angle(200), (36408 - 65536) * 360.0 / 65536);
	/* Keys no integer holds turn by nothing (NaN was undefined). */
	NEAR(xform_round_angle(NAN), 0);
	NEAR(xform_round_angle(INFINITY), 0);
	NEAR(xform_round_angle(-1e30f), 0);
}

/* ---- a scene: hips with a child, a clump, an Anime chunk ---- */

enum { O_HIPS = 1, O_ARM, O_CLUMP, O_ANIME, O_LONE, O_COUNT };

static void put_u32(uint8_t **o, uint32_t v)
{
	wr_u32le(*o, v);
	*o += 4;
}

static void put_f32(uint8_t **o, float f)
{
	wr_f32le(*o, f);
	*o += 4;
}

/* Anime: hips constant position (0,0,10); arm constant position (0,5,0)
 * and rotation keyed 0: (0,0,90), 10: (0,0,0); the lone node is keyed
 * too but in no clump. */
static size_t anime_payload(uint8_t *buf)
{
	uint8_t *o = buf;
	put_u32(&o, O_ANIME); put_u32(&o, 11); put_u32(&o, 0);
	put_u32(&o, 0xff01); put_u32(&o, 1); put_u32(&o, 0);
	put_u32(&o, 0x0102); put_u32(&o, 5);
	put_u32(&o, O_HIPS); put_u32(&o, 1);
	put_f32(&o, 0); put_f32(&o, 0); put_f32(&o, 10);
	put_u32(&o, 0x0102); put_u32(&o, 14);
	put_u32(&o, O_ARM); put_u32(&o, 1 | 2 << 3);
	put_f32(&o, 0); put_f32(&o, 5); put_f32(&o, 0);
	put_u32(&o, 2);
	put_u32(&o, 0); put_f32(&o, 0); put_f32(&o, 0); put_f32(&o, 90);
	put_u32(&o, 10); put_f32(&o, 0); put_f32(&o, 0); put_f32(&o, 0);
	put_u32(&o, 0x0102); put_u32(&o, 5);
	put_u32(&o, O_LONE); put_u32(&o, 1 << 6);
	put_f32(&o, 2); put_f32(&o, 2); put_f32(&o, 2);
	put_u32(&o, 0xff01); put_u32(&o, 1); put_u32(&o, 0xffffffffu);
	wr_u32le(buf + 8, (uint32_t)((o - buf) - 12) / 4);
	return (size_t)(o - buf);
}

struct scene_fixture {
	uint8_t *file;
	size_t len;
	struct ccsf_scene s;
};

static void make_scene(struct scene_fixture *f, bool loop)
{
	static const char *names[O_COUNT] = { "", "OBJ_hips", "OBJ_arm",
		"CMP_body", "ANM_walk", "OBJ_lone" };
	struct ccsw *w = ccsw_new("pose", 0x100);
	uint32_t file = ccsw_file(w, " c:\\art\\pose.max");
	for (int i = 1; i < O_COUNT; i++)
		assert_int_equal(ccsw_object_str(w, names[i], file), i);
	ccsw_setup(w);
	ccsw_obj(w, O_HIPS, loop ? O_ARM : 0, 0, 0);
	ccsw_obj(w, O_ARM, O_HIPS, 0, 0);
	ccsw_obj(w, O_LONE, 0, 0, 0);
	const uint32_t nodes[2] = { O_HIPS, O_ARM };
	ccsw_clump(w, O_CLUMP, 2, nodes);
	uint8_t anime[512];
	size_t n = anime_payload(anime);
	ccsw_chunk(w, CCSF_ANIME, 0xcccc, anime, n, CCSW_SIZE_AUTO);
	ccsw_frame(w, 1);
	ccsw_end(w);
	f->file = ccsw_finish(w, &f->len);
	ccsw_free(w);
	assert_int_equal(ccsf_walk(f->file, f->len, &f->s), 0);
}

static void free_scene(struct scene_fixture *f)
{
	ccsf_scene_free(&f->s);
	free(f->file);
}

static void pose_places_nodes_at_frame_0(void **state)
{
	(void)state;
	struct scene_fixture f;
	make_scene(&f, false);
	struct pose p;
	assert_int_equal(pose_build(&f.s, f.file, f.len, &p), 0);
	assert_int_equal(p.node_count, 3);
	assert_int_equal(p.clump_count, 1);
	assert_int_equal(p.anime_count, 1);
	uint32_t arm = p.node_of[O_ARM];
	assert_int_equal(p.nodes[arm].parent, p.node_of[O_HIPS]);
	/* The first key, rounded: 16383 units. */
	NEAR(p.nodes[arm].r[2], 16383 * 360.0 / 65536);
	double o[3];
	xform_point(p.nodes[arm].world, (const float[3]){ 1, 0, 0 }, o);
	NEAR(o[0], cos(16383 * 2 * M_PI / 65536));
	NEAR(o[1], 5 + sin(16383 * 2 * M_PI / 65536));
	NEAR(o[2], 10);
	/* Not in a clump: posed by the first chunk that drives it. */
	uint32_t lone = p.node_of[O_LONE];
	NEAR(p.nodes[lone].s[0], 2);
	assert_int_equal(p.loops_cut, 0);
	pose_free(&p);
	free_scene(&f);
}

static void parent_loop_is_cut(void **state)
{
	(void)state;
	struct scene_fixture f;
	make_scene(&f, true);
	struct pose p;
	assert_int_equal(pose_build(&f.s, f.file, f.len, &p), 0);
	assert_int_equal(p.loops_cut, 1);
	uint32_t roots = 0;
	for (uint32_t i = 0; i < p.node_count; i++)
		roots += p.nodes[i].parent == POSE_NONE;
	assert_int_equal(roots, 2);
	pose_free(&p);
	free_scene(&f);
}

/* A skin vertex is the weighted sum of its entries; they agree when each
 * entry gives the same world point. */
static void skin_vertex_weights(void **state)
{
	(void)state;
	struct scene_fixture f;
	make_scene(&f, false);
	struct pose p;
	assert_int_equal(pose_build(&f.s, f.file, f.len, &p), 0);
	const struct pose_clump *c = &p.clumps[0];
	struct model_skin_entry e[2] = {
		{ { 0, 0, 0 }, 128, 0, false },  /* hips: (0,0,10) */
		{ { 0, 0, 0 }, 128, 1, true },   /* arm: (0,5,10) */
	};
	struct model_mesh m = { .entries = e, .entry_count = 2 };
	struct model_mmat mm = { .layout = MODEL_SKIN };
	struct model_vertex v = { .first_entry = 0, .entry_count = 2 };
	double o[3];
	bool agree;
	model_pose_vertex(&m, &mm, &v, &p, c, o, &agree);
	NEAR(o[0], 0); NEAR(o[1], 2.5); NEAR(o[2], 10);
	assert_false(agree);
	/* arm-space (0,-5,0) turned by ~90 degrees is hips-space (5,0,0):
	 * choose entries that meet at the hips' (0,0,10). */
	double s = sin(16383 * 2 * M_PI / 65536), k = cos(16383 * 2 * M_PI / 65536);
	e[1].pos[0] = (float)(-5 * s);
	e[1].pos[1] = (float)(-5 * k);
	model_pose_vertex(&m, &mm, &v, &p, c, o, &agree);
	NEAR(o[0], 0); NEAR(o[1], 0); NEAR(o[2], 10);
	assert_true(agree);
	pose_free(&p);
	free_scene(&f);
}

/* A posed normal turns with its vertex's node (the arm, about 90 degrees
 * about Z) and comes out unit length; a zero normal points up. */
static void posed_normal_turns_with_its_node(void **state)
{
	(void)state;
	struct scene_fixture f;
	make_scene(&f, false);
	struct pose p;
	assert_int_equal(pose_build(&f.s, f.file, f.len, &p), 0);
	const struct pose_clump *c = &p.clumps[0];
	struct model_vertex v = { .normal = { 64, 0, 0 }, .node = 1 };
	float n[3];
	model_pose_normal(&v, &p, c, n);
	NEAR(n[0], cos(16383 * 2 * M_PI / 65536));
	NEAR(n[1], sin(16383 * 2 * M_PI / 65536));
	NEAR(n[2], 0);
	struct model_vertex zero = { .node = 1 };
	model_pose_normal(&zero, &p, c, n);
	NEAR(n[0], 0); NEAR(n[1], 0); NEAR(n[2], 1);
	pose_free(&p);
	free_scene(&f);
}

/* ---- the container ---- */

static void glb_container_is_aligned_and_exact(void **state)
{
	(void)state;
	struct glb g = { 0 };
	const uint8_t three[3] = { 1, 2, 3 };
	assert_int_equal(glb_view(&g, three, 3, 0), 0);
	const float v[2] = { -1, 2.5f };
	assert_int_equal(glb_floats(&g, v, 2, 1, true, 0), 0);
	struct strbuf json = STRBUF_INIT;
	sb_puts(&json, "{\"asset\":{\"version\":\"2.0\"}");
	uint8_t *out;
	size_t len;
	assert_int_equal(glb_finish(&g, &json, &out, &len), 0);
	assert_memory_equal(out, "glTF", 4);
	assert_int_equal(rd_u32le(out + 4), 2);
	assert_int_equal(rd_u32le(out + 8), len);
	uint32_t jlen = rd_u32le(out + 12);
	assert_int_equal(jlen % 4, 0);
	assert_memory_equal(out + 16, "JSON", 4);
	const char *j = (const char *)out + 20;
	assert_non_null(memmem(j, jlen, "\"byteLength\":12}]", 17));
	assert_non_null(memmem(j, jlen, "\"byteOffset\":4,\"byteLength\":8",
			       29));
	assert_non_null(memmem(j, jlen, "\"min\":[-1],\"max\":[2.5]", 22));
	assert_int_equal(rd_u32le(out + 20 + jlen), 12);
	assert_memory_equal(out + 24 + jlen, "BIN\0", 4);
	assert_int_equal(out[28 + jlen + 4 + 4], 0);    /* 2.5f's low byte */
	assert_int_equal(len, 28 + jlen + 12);
	free(out);
	sb_free(&json);
	glb_free(&g);
}

static const char *name_of(void *ctx, uint32_t index)
{
	static const char *names[O_COUNT] = { "", "OBJ_hips", "OBJ_arm",
		"CMP_body", "ANM_walk", "OBJ_lone" };
	(void)ctx;
	return index < O_COUNT ? names[index] : NULL;
}

/* The scene's GLB: nodes in Obj order below the root, the animation
 * named after its chunk, a rotation channel of two keys. */
static void scene_glb_has_nodes_and_animation(void **state)
{
	(void)state;
	struct scene_fixture f;
	make_scene(&f, false);
	struct scene_env env = { NULL, name_of, "test" };
	uint8_t *out;
	size_t len;
	assert_true(scene_has_nodes(&f.s));
	assert_int_equal(scene_glb(&f.s, f.file, f.len, &env, &out, &len), 0);
	size_t measured = 0;    /* what a listing learns, making nothing */
	assert_int_equal(scene_glb(&f.s, f.file, f.len, &env, NULL,
				   &measured), 0);
	assert_int_equal(measured, len);
	uint32_t jlen = rd_u32le(out + 12);
	const char *j = (const char *)out + 20;
	assert_non_null(memmem(j, jlen, "{\"name\":\"pose\",\"children\":[1,3]", 31));
	assert_non_null(memmem(j, jlen, "{\"name\":\"OBJ_hips\",\"children\":[2],"
			       "\"translation\":[0,0,10]}", 55));
	assert_non_null(memmem(j, jlen, "\"animations\":[{\"name\":\"ANM_walk\"", 32));
	assert_non_null(memmem(j, jlen, "\"path\":\"rotation\"", 17));
	assert_non_null(memmem(j, jlen, "\"interpolation\":\"LINEAR\"", 24));
	free(out);
	free_scene(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quarter_turns_tell_the_order),
		cmocka_unit_test(scale_turn_then_move),
		cmocka_unit_test(quaternion_matches_matrix),
		cmocka_unit_test(keyed_angles_round_to_a_turns_65536th),
		cmocka_unit_test(pose_places_nodes_at_frame_0),
		cmocka_unit_test(parent_loop_is_cut),
		cmocka_unit_test(skin_vertex_weights),
		cmocka_unit_test(posed_normal_turns_with_its_node),
		cmocka_unit_test(glb_container_is_aligned_and_exact),
		cmocka_unit_test(scene_glb_has_nodes_and_animation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
