/* SPDX-License-Identifier: MIT */
/* gen_cutscene_game.c - a cutscene pair laid out as the game's are
 * (doc/formats/scene-glb.md, Cutscenes): the scene file's own Clump
 * lists its nodes, ExtObj chunks whose targets are '#' objects of the
 * setup file and of the common str8000e, and an Obj of its own; its
 * camera is a Camera chunk with no Obj.  The records move, show and
 * hide the nodes as the comments below say (tests/mount/scene.sh reads
 * them back). */
#include "gen.h"
#include "util/bytes.h"

/* strNNNNe: three kits (OBJ_sNNNN_g0 .. g2; g1's Obj names g2 as its
 * parent, which no node of the scene follows), OBJ_sNNNN_galias, an
 * ExtObj whose target is OBJ_sNNNN_g2, a lit model without ST whose
 * material has a texture (MDL_sNNNN_gplain), OBJ_sNNNN_gshadow,
 * whose model is a shadow model, and a character (add_character,
 * OBJ_sNNNN_gchar_n0 .. n3, whose n1 owns a bone model posed by
 * ANM_sNNNN_gchar). */
static struct ccsw *game_setup(const struct cutscene *c)
{
	char stem[16], path[40];
	snprintf(stem, sizeof stem, "str%04ue", c->number);
	snprintf(path, sizeof path, " c:\\str\\str%04u.max", c->number);
	struct ccsw *w = ccsw_new(stem, 0x100);
	uint32_t f = ccsw_file(w, path);
	ccsw_setup(w);
	uint32_t mat0 = 0, obj2 = 0;
	for (uint32_t i = 3; i-- > 0;) {
		char ks[24];
		snprintf(ks, sizeof ks, "s%04u_g%u", c->number, i);
		struct kit k = { .stem = ks, .psm = 0x13, .tw = 5, .th = 5,
				 .tex_flag = 1, .clut_flag = 1,
				 .pattern = CCSW_PAT_NOISY, .mtype = 1,
				 .mmats = 1, .vertices = 18,
				 .seed = c->seed + 40 + i,
				 .parent = i == 1 ? obj2 : 0 };
		struct kit_ids id = add_kit(w, f, &k);
		if (i == 2)
			obj2 = id.obj;
		if (i == 0)
			mat0 = id.mat;
	}
	ccsw_extobj(w, objectf(w, f, "OBJ_s%04u_galias", c->number), 0, obj2);
	char name[32];
	snprintf(name, sizeof name, "MDL_s%04u_gplain", c->number);
	add_rigid_model(w, f, name, 0x401, mat0, 12, c->seed + 50);
	uint32_t shadow;
	snprintf(name, sizeof name, "MDL_s%04u_gshadow", c->number);
	add_shadow_model(w, f, name, &shadow);
	ccsw_obj(w, objectf(w, f, "OBJ_s%04u_gshadow", c->number), 0, shadow,
		 0);
	snprintf(name, sizeof name, "s%04u_gchar", c->number);
	add_character(w, f, name, mat0);
	ccsw_frame(w, 1);
	ccsw_end(w);
	return w;
}

/* The scene file's nodes, in its Clump's order. */
enum { N_DRV0, N_DRV1, N_DRV2, N_GULL, N_OWN, N_SHADOW, N_CHAR, N_GONE,
       N_COUNT };

static void f_obj(struct ccsw *w, uint32_t object, float x, float y, float z,
		  float rx, float ry, float rz, const float s[3], float tp,
		  uint32_t shown)
{
	struct ccsw_f_obj fo = { .object = object, .pos = { x, y, z },
				 .rot = { rx, ry, rz },
				 .scale = { s[0], s[1], s[2] }, .tp = tp,
				 .disp_sw = shown };
	ccsw_f_obj(w, &fo);
}

/* Frame fr's F_Obj records:
 *   g0_drv  every frame at (fr / 2, 0, 10), turning 3 degrees a frame
 *           about Z; switched off for frames 50-54, when its child
 *           still shows; at transparency 0.25 for frames 20-28;
 *   g1_drv  below g0_drv, every third frame at (0, 4, 0) of it, turning
 *           2 degrees a frame about X, scaled (1, 2, 0.5), at
 *           transparency 0.02 times g0_drv's (its Obj2 says so): hidden
 *           for frames 20-28, though its own records do not change;
 *   g2_drv  (its target an ExtObj whose target is OBJ_sNNNN_g2) from
 *           frame 12, every other frame, at (-6, 2, 8 + fr / 10), half
 *           transparent; switched off for frames 30-39 and at
 *           transparency 0.005 (below 1/128) for frames 44-47;
 *   gull    (str8000e's OBJ_cmn_gull) every fifth frame at (8, 5, 12),
 *           scaled 0.5;
 *   own     (an Obj of the scene file, a part node) every frame: at the
 *           origin, so hidden, before frame 20, then at (2, -3, 6);
 *   gshadow_drv, and ggone_drv (a rich pair's only), every tenth
 *           frame: never in scene.glb;
 *   gchar_drv (its target OBJ_sNNNN_gchar_n1, whose model is a bone
 *           model) every tenth frame at (-8, 0, fr / 10), turned fr
 *           degrees about Z. */
static void game_objects(struct ccsw *w, const uint32_t n[N_COUNT],
			 uint32_t fr)
{
	static const float one[3] = { 1, 1, 1 }, half[3] = { .5f, .5f, .5f },
			   odd[3] = { 1, 2, .5f };
	float f = (float)fr;
	f_obj(w, n[N_DRV0], f / 2, 0, 10, 0, 0, (float)(fr * 3 % 360), one,
	      fr >= 20 && fr < 29 ? 0.25f : 1, !(fr >= 50 && fr < 55));
	if (fr % 3 == 0)
		f_obj(w, n[N_DRV1], 0, 4, 0, (float)(fr * 2 % 360), 0, 0, odd,
		      0.02f, 1);
	if (fr >= 12 && fr % 2 == 0)
		f_obj(w, n[N_DRV2], -6, 2, 8 + f / 10, 0, 30, 0, one,
		      fr >= 44 && fr < 48 ? 0.005f : 0.5f,
		      !(fr >= 30 && fr < 40));
	if (fr % 5 == 0)
		f_obj(w, n[N_GULL], 8, 5, 12, 0, 0, (float)(fr * 6 % 360), half,
		      1, 1);
	if (fr < 20)
		f_obj(w, n[N_OWN], 0, 0, 0, 0, 0, 0, one, 1, 1);
	else
		f_obj(w, n[N_OWN], 2, -3, 6, 0, 0, 0, one, 1, 1);
	if (fr % 10 == 0) {
		f_obj(w, n[N_CHAR], -8, 0, f / 10, 0, 0, f, one, 1, 1);
		f_obj(w, n[N_SHADOW], 1, 1, 1, 0, 0, 0, one, 1, 1);
		if (n[N_GONE])
			f_obj(w, n[N_GONE], 1, 1, 1, 0, 0, 0, one, 1, 1);
	}
}

/* The camera: at frame 0 at (0, -6, 16) turned 45 degrees about X
 * (looking along +Y and down, at g0_drv), fov 50; every tenth frame
 * after, x = fr / 2 (following g0_drv) and a turn of fr / 4 degrees
 * about Z, the rest kept. */
static void game_camera(struct ccsw *w, uint32_t cam, uint32_t fr)
{
	if (fr == 0) {
		const float v[8] = { 0, -6, 16, 45, 0, 0, 0, 50 };
		ccsw_f_camera(w, cam, 0, v);
	} else if (fr % 10 == 0) {
		/* Bits 2-5 and 7-8 set: position x and rotation z only. */
		const float v[2] = { (float)fr / 2, (float)fr / 4 };
		ccsw_f_camera(w, cam, 0x1bc, v);
	}
}

/* The lights, the scene file's own Light chunks:
 *   sun   (distant) every 15th frame turned (fr, 0, 45 + fr) degrees,
 *         colour (255, 224, 192), intensity 1 until frame 30 carries
 *         0.5 (flag 0x20);
 *   lamp  (omni) every 10th frame at (fr / 2, -2, 14), colour (255,
 *         128, 64), intensity 2, fall-off from 5 to 20 + fr / 2;
 * and F_Ambient every 20th frame, 0x303030 + fr. */
static void game_lights(struct ccsw *w, uint32_t sun, uint32_t lamp,
			uint32_t fr)
{
	float f = (float)fr;
	if (fr % 15 == 0) {
		uint32_t flag = fr >= 30 ? 0x20 : 0;
		uint8_t p[28];
		wr_u32le(p, sun);
		wr_u32le(p + 4, flag);
		wr_f32le(p + 8, f);
		wr_f32le(p + 12, 0);
		wr_f32le(p + 16, 45 + f);
		wr_u32le(p + 20, 0x00c0e0ffu);
		wr_f32le(p + 24, 0.5f);
		ccsw_chunk(w, 0x0602, 0xcccc, p, flag ? 28 : 24,
			   CCSW_SIZE_AUTO);
	}
	if (fr % 10 == 0) {
		uint8_t p[36];
		wr_u32le(p, lamp);
		wr_u32le(p + 4, 0);
		wr_f32le(p + 8, f / 2);
		wr_f32le(p + 12, -2);
		wr_f32le(p + 16, 14);
		wr_u32le(p + 20, 0x004080ffu);
		wr_f32le(p + 24, 2);
		wr_f32le(p + 28, 5);
		wr_f32le(p + 32, 20 + f / 2);
		ccsw_chunk(w, 0x0608, 0xcccc, p, sizeof p, CCSW_SIZE_AUTO);
	}
	if (fr % 20 == 0)
		ccsw_f_ambient(w, 0x00303030u + fr);
}

/* strNNNN: '#' entries for the setup file's and str8000e's objects,
 * the nodes, the clump, two cameras (the first in object order is the
 * scene's; the other is never moved) and the frames. */
static struct ccsw *game_scene(const struct cutscene *c)
{
	char stem[16], own[40], ext[40];
	unsigned no = c->number;
	snprintf(stem, sizeof stem, "str%04u", no);
	snprintf(own, sizeof own, " c:\\str\\str%04up.max", no);
	snprintf(ext, sizeof ext, "#c:\\str\\str%04u.max", no);
	struct ccsw *w = ccsw_new(stem, 0x100);
	ccsw_set_stream_tags(w, true);
	uint32_t fown = ccsw_file(w, own), fext = ccsw_file(w, ext);
	uint32_t fcmn = ccsw_file(w, "#c:\\str\\str8000.max");
	/* A rich pair has a node whose target no file defines, which its
	 * error.txt names; the sample's is clean, as ccsfs-check wants. */
	int count = c->rich ? N_COUNT : N_GONE;
	uint32_t target[N_COUNT] = {
		objectf(w, fext, "OBJ_s%04u_g0", no),
		objectf(w, fext, "OBJ_s%04u_g1", no),
		objectf(w, fext, "OBJ_s%04u_galias", no),
		objectf(w, fcmn, "OBJ_cmn_gull"),
		objectf(w, fext, "MDL_s%04u_gplain", no),
		objectf(w, fext, "OBJ_s%04u_gshadow", no),
		objectf(w, fext, "OBJ_s%04u_gchar_n1", no),
		/* In no file of the pair, nor in str8000e. */
		c->rich ? objectf(w, fext, "OBJ_s%04u_ggone", no) : 0,
	};
	static const char *const names[N_COUNT] = { "g0_drv", "g1_drv",
		"g2_drv", "gull_drv", "gown", "gshadow_drv", "gchar_drv",
		"ggone_drv" };
	uint32_t n[N_COUNT] = { 0 };
	for (int i = 0; i < count; i++)
		n[i] = objectf(w, fown, "OBJ_s%04u_%s", no, names[i]);
	uint32_t cam = objectf(w, fown, "CAM_s%04u", no);
	uint32_t spare = objectf(w, fown, "CAM_s%04u_spare", no);
	uint32_t clump = objectf(w, fown, "CMP_s%04u", no);
	uint32_t sun = objectf(w, fown, "LGT_s%04u_sun", no);
	uint32_t lamp = objectf(w, fown, "LGT_s%04u_lamp", no);

	ccsw_setup(w);
	ccsw_camera(w, spare);
	ccsw_camera(w, cam);
	for (int i = 0; i < count; i++) {
		if (i == N_OWN)
			ccsw_obj(w, n[i], 0, target[i], 0);
		else
			ccsw_extobj(w, n[i], i == N_DRV1 ? n[N_DRV0] : 0,
				    target[i]);
		ccsw_obj2(w, n[i], i == N_OWN ? 2 : i == N_DRV1 ? 1 : 0, 0,
			  0, 0);
	}
	ccsw_clump(w, clump, (uint16_t)count, n);
	ccsw_light(w, sun, 1);
	ccsw_light(w, lamp, 4);

	ccsw_frame(w, c->frames);
	for (uint32_t fr = 0; fr < c->frames; fr++) {
		ccsw_top(w, fr);
		game_objects(w, n, fr);
		game_camera(w, cam, fr);
		game_lights(w, sun, lamp, fr);
	}
	ccsw_end(w);
	return w;
}

void put_cutscene_game(struct archive_out *ao, const struct cutscene *c,
		       struct rng *r)
{
	char name[24];
	snprintf(name, sizeof name, "str%04ue.tmp", c->number);
	put_scene(ao, name, game_setup(c), rng_mtime(r));
	snprintf(name, sizeof name, "str%04u.tmp", c->number);
	put_scene(ao, name, game_scene(c), rng_mtime(r));
}
