/* SPDX-License-Identifier: MIT */
/* gen_cutscene.c - a cutscene pair for the sample's stream
 * archive: the setup file and the scene file with its frames and audio. */
#include "gen.h"
#include "gen_text.h"

/* ---- a cutscene pair ---- */


/* strNNNNe: the setup file, models and textures. */
static struct ccsw *cutscene_setup(const struct cutscene *c)
{
	char stem[16], path[40];
	snprintf(stem, sizeof stem, "str%04ue", c->number);
	snprintf(path, sizeof path, " c:\\str\\str%04u.max", c->number);
	struct ccsw *w = ccsw_new(stem, 0x100);
	uint32_t f = ccsw_file(w, path);
	ccsw_setup(w);
	uint32_t base = 0, base_mat = 0;
	for (uint32_t i = 0; i < 3; i++) {
		char ks[24];
		snprintf(ks, sizeof ks, "s%04u_%u", c->number, i);
		struct kit k = { .stem = ks, .psm = i == 1 ? 0x14 : 0x13,
				 .tw = 6, .th = 6, .mip = (uint8_t)(i == 2 ? 2 : 0),
				 .tex_flag = 1, .clut_flag = 1,
				 .pattern = CCSW_PAT_NOISY, .mtype = 1,
				 .mmats = i ? 2 : 1, .vertices = 24,
				 .seed = c->seed + i };
		struct kit_ids id = add_kit(w, f, &k);
		if (i == 0) {
			base = id.mdl;
			base_mat = id.mat;
		}
	}
	uint32_t shadow;
	add_shadow_model(w, f, "MDL_shadow", &shadow);
	/* The morph targets fit the first kit's one mmat (seed * 31, strips
	 * of 6): the base at twice its size, and another shape. */
	add_target(w, f, "MDL_tgtA", 0x600, base_mat, 24, c->seed * 31, 0,
		   2.0f);
	add_target(w, f, "MDL_tgtB", 0x601, base_mat, 24, c->seed * 31 + 7, 4,
		   1.0f);
	ccsw_morpher(w, objectf(w, f, "MPH_ribbon"), base);
	ccsw_camera(w, objectf(w, f, "CAM_main"));
	ccsw_light(w, objectf(w, f, "LGT_sun"), 1);
	ccsw_light(w, objectf(w, f, "LGT_omni"), 4);
	ccsw_frame(w, 1);
	ccsw_end(w);
	return w;
}

/* str8000e: a common setup file, whose objects any cutscene may name
 * '#': OBJ_cmn_gull with its child OBJ_cmn_wing (rich cutscenes move
 * both), and OBJ_cmn_unused, which no cutscene names. */
void put_common_setup(struct archive_out *ao, uint32_t mtime)
{
	struct ccsw *w = ccsw_new("str8000e", 0x100);
	uint32_t f = ccsw_file(w, " c:\\str\\str8000.max");
	ccsw_setup(w);
	static const char *const stems[3] = { "cmn_gull", "cmn_wing",
					      "cmn_unused" };
	uint32_t gull = 0;
	for (uint32_t i = 0; i < 3; i++) {
		struct kit k = { .stem = stems[i], .psm = 0x13, .tw = 5,
				 .th = 5, .tex_flag = 1, .clut_flag = 1,
				 .pattern = CCSW_PAT_NOISY, .mtype = 1,
				 .mmats = 1, .vertices = 12, .seed = 800 + i,
				 .parent = i == 1 ? gull : 0 };
		struct kit_ids id = add_kit(w, f, &k);
		if (i == 0)
			gull = id.obj;
	}
	ccsw_frame(w, 1);
	ccsw_end(w);
	put_scene(ao, "str8000e.tmp", w, mtime);
}

/* The common file's gull every sixth frame from 7, and its wing (relative
 * to it) every fourth from 6: placed by the scene file as the pair's
 * objects are.  Sparse, so that the full disc's 10-minute cutscene grows
 * by 7,500 records, not 24,000 (scene_full.sh holds its memory). */
static void common_objects(struct ccsw *w, const uint32_t cmn[2], uint32_t fr)
{
	if (fr % 6 == 1 && fr > 1) {
		struct ccsw_f_obj fo = {
			.object = cmn[0], .pos = { -8, 3, (float)fr / 4 },
			.rot = { 0, (float)(fr * 5 % 360), 10 },
			.scale = { 1.5f, 1.5f, 1.5f }, .tp = 1, .disp_sw = 1,
		};
		ccsw_f_obj(w, &fo);
	}
	if (fr % 4 == 2 && fr > 2) {
		struct ccsw_f_obj fo = {
			.object = cmn[1], .pos = { 2, 0, (float)(fr % 5) },
			.rot = { (float)(fr * 11 % 360), 0, 0 },
			.scale = { 1, 1, 1 }, .tp = 1, .disp_sw = 1,
		};
		ccsw_f_obj(w, &fo);
	}
}

/* Frame records other than F_Obj and F_Pcm, spread over the scene. */
void cutscene_extras(struct ccsw *w, uint32_t frame, uint32_t cam,
			    uint32_t mat, uint32_t mph, uint32_t tgt[2],
			    uint32_t shadow_obj, uint32_t note_obj)
{
	switch (frame % 10) {
	case 1:
		ccsw_f_ambient(w, 0x00404040u + frame);
		break;
	case 2: {
		const float v[8] = { 0, -100, 20, 90, 0, (float)frame, 0, 45 };
		ccsw_f_camera(w, cam, 0, v);
		break;
	}
	case 3:
		ccsw_f_camera(w, cam, 1, NULL);         /* nothing follows */
		break;
	case 4: {
		/* Bits 1-7 set: fov only, a new one each time. */
		const float fov = 40.0f + (float)(frame % 30);
		ccsw_f_camera(w, cam, 0x0fe, &fov);
		break;
	}
	case 5:
		ccsw_f_material(w, mat, 0, (float)frame / 64.0f, 0.25f);
		ccsw_f_material(w, mat, 2, 0, 0);       /* no u, v */
		break;
	case 6: {
		const float wt[2] = { (float)(frame % 30) / 30.0f, 0.5f };
		ccsw_f_morpher(w, mph, 2, tgt, wt);
		break;
	}
	case 7:
		ccsw_f_shadow(w, shadow_obj, 30.0f, 0.0f, (float)frame, 0.5f);
		break;
	case 8: {
		uint32_t event, param;
		gen_text_note(frame, &event, &param);
		ccsw_f_note(w, note_obj, event, param);
		break;
	}
	}
}

/* The third object: hidden until frame 10, then a record every other
 * frame (each holds until the next). */
static void late_object(struct ccsw *w, uint32_t object, uint32_t fr)
{
	struct ccsw_f_obj fo = {
		.object = object, .pos = { 5, (float)fr, 2 },
		.rot = { (float)(fr * 7 % 360), 30, 0 },
		.scale = { 1, 2, 1 }, .tp = 1, .disp_sw = 1,
	};
	ccsw_f_obj(w, &fo);
}

/* The F_Obj records of frame fr: the first two objects every frame,
 * the third from frame 10 in a rich cutscene. */
static void frame_objects(struct ccsw *w, const struct cutscene *c,
			  const uint32_t objs[3], uint32_t fr)
{
	for (uint32_t i = 0; i < 2; i++) {
		struct ccsw_f_obj fo = {
			.object = objs[i], .flag = 0,
			.pos = { (float)fr * (i ? -1.0f : 1.0f), 0, 10 },
			.rot = { 0, 0, (float)(fr * 3 % 360) },
			.scale = { 1, 1, 1 }, .tp = 1, .disp_sw = 1,
		};
		/* The second object fades out and is switched off now and
		 * then: hidden in scene.glb. */
		if (c->rich && i == 1) {
			fo.tp = fr % 7 == 3 ? 0.0f : 0.5f;
			fo.disp_sw = fr % 11 != 5;
		}
		ccsw_f_obj(w, &fo);
	}
	if (c->rich && fr >= 10 && fr % 2 == 0)
		late_object(w, objs[2], fr);
}

/* The audio runs on the frames' clock: 1,600 sample frames a frame at
 * 48 kHz, 6.25 blocks of 256.  The setup's Pcm chunk carries a few blocks
 * ahead, and each frame's F_Pcm (2 to 7 blocks, as on the discs) tops
 * the stream up to what the frames so far have played, so a cutscene of
 * F frames holds ceil(F * 6.25) blocks: within one block of F / 30 s. */
#define PREROLL_BLOCKS 8

static uint16_t pcm_blocks_for(uint32_t frame, uint32_t have)
{
	uint32_t need = ((frame + 1) * 25 + 3) / 4;     /* ceil(6.25 (f+1)) */
	uint32_t n = need > have ? need - have : 0;
	return (uint16_t)(n < 2 ? 2 : n > 7 ? 7 : n);
}

/* strNNNN: object stubs marked '#' (defined in strNNNNe, and in a rich
 * cutscene two in the common str8000e), a Layer, Pcm audio and the
 * frames. */
static struct ccsw *cutscene_scene(const struct cutscene *c)
{
	char stem[16], own[40], ext[40];
	snprintf(stem, sizeof stem, "str%04u", c->number);
	snprintf(own, sizeof own, " c:\\str\\str%04up.max", c->number);
	snprintf(ext, sizeof ext, "#c:\\str\\str%04u.max", c->number);
	struct ccsw *w = ccsw_new(stem, 0x100);
	ccsw_set_stream_tags(w, true);
	uint32_t fown = ccsw_file(w, own), fext = ccsw_file(w, ext);
	uint32_t objs[3];
	for (uint32_t i = 0; i < 3; i++)
		objs[i] = objectf(w, fext, "OBJ_s%04u_%u", c->number, i);
	uint32_t mdl = objectf(w, fext, "MDL_s%04u_0", c->number);
	(void)mdl;              /* '#', no chunk here: a link in the tree */
	uint32_t cam = objectf(w, fext, "CAM_main");
	uint32_t mat = objectf(w, fext, "MAT_s%04u_1", c->number);
	uint32_t mph = objectf(w, fext, "MPH_ribbon");
	uint32_t tgt[2] = { objectf(w, fext, "MDL_tgtA"),
			    objectf(w, fext, "MDL_tgtB") };
	uint32_t clump = objectf(w, fown, "CMP_str%04u", c->number);
	uint32_t layers[3] = { objectf(w, fown, "LYR_sky"),
			       objectf(w, fown, "LYR_main"),
			       objectf(w, fown, "LYR_shade") };
	uint32_t cmn[2] = { 0, 0 };
	if (c->rich) {
		/* In no file of the pair, nor in the common str8000e. */
		objectf(w, fext, "OBJ_cmn_kite");
		uint32_t fcmn = ccsw_file(w, "#c:\\str\\str8000.max");
		cmn[0] = objectf(w, fcmn, "OBJ_cmn_gull");
		cmn[1] = objectf(w, fcmn, "OBJ_cmn_wing");
	}

	ccsw_setup(w);
	ccsw_clump(w, clump, 3, objs);
	const uint8_t kinds[3] = { 0, 0, 1 };
	ccsw_layer(w, 3, kinds, layers);
	for (uint32_t i = 0; i < 3; i++)
		ccsw_obj2(w, objs[i], i == 2 ? 3 : 0, i == 0 ? mph : 0,
			  layers[i % 2], i == 2 ? layers[2] : 0);
	ccsw_opaque(w, CCSW_SHADOW, layers[2], 4, c->seed + 20);

	uint32_t sample = 0, first = PREROLL_BLOCKS;
	ccsw_pcm(w, 0, 1, 0, first, NULL, sample);
	sample += first * 256;
	ccsw_frame(w, c->frames);
	for (uint32_t fr = 0; fr < c->frames; fr++) {
		ccsw_top(w, fr);
		frame_objects(w, c, objs, fr);
		uint16_t blocks = pcm_blocks_for(fr, sample / 256);
		ccsw_f_pcm(w, 0, blocks, NULL, sample);
		sample += blocks * 256u;
		if (c->rich) {
			common_objects(w, cmn, fr);
			cutscene_extras(w, fr, cam, mat, mph, tgt, objs[2],
					objs[0]);
		}
	}
	ccsw_end(w);
	return w;
}

void put_cutscene(struct archive_out *ao, const struct cutscene *c,
			 struct rng *r)
{
	char name[24];
	snprintf(name, sizeof name, "str%04ue.tmp", c->number);
	put_scene(ao, name, cutscene_setup(c), rng_mtime(r));
	snprintf(name, sizeof name, "str%04u.tmp", c->number);
	put_scene(ao, name, cutscene_scene(c), rng_mtime(r));
}
