/* SPDX-License-Identifier: MIT */
/* gen_blocks.c - scene building blocks: palettes and textures,
 * models, shadows and a character, as every command uses them. */
#include "gen.h"

/* ---- scene building blocks ---- */

/* A textured, drawn object: palette, texture, material, model, Obj, Obj2,
 * the way most DATA.BIN scenes are made of them. */


uint32_t objectf(struct ccsw *w, uint32_t file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	uint32_t id = ccsw_object_str(w, s, file);
	free(s);
	return id;
}

static void add_palette_and_texture(struct ccsw *w, const struct kit *k,
				    const struct kit_ids *id)
{
	struct ccsw_clut c = {
		.object = id->clut, .blt_group = 0, .flag = k->clut_flag,
		.buf_x = 896, .buf_y = (uint16_t)(k->seed % 8 * 4),
		.count = k->psm == 0x14 ? 16 : 256,
		.alpha_ramp = k->alpha_ramp, .seed = k->seed,
	};
	ccsw_clut(w, &c);
	struct ccsw_texture t = {
		.object = id->tex, .clut = id->clut, .flag = k->tex_flag,
		.psm = k->psm, .mipmap = k->mip, .aref = 0x70,
		.tw = k->tw, .th = k->th, .buf_x = 768,
		.buf_y = (uint16_t)(k->seed % 16 * 32),
		.pattern = k->pattern, .seed = k->seed,
		.size_field = CCSW_SIZE_AUTO,
	};
	ccsw_texture(w, &t);
}

static void add_kit_model(struct ccsw *w, uint32_t file, const struct kit *k,
			  const struct kit_ids *id)
{
	struct ccsw_mmat mm[8];
	uint16_t n = k->mmats < 8 ? k->mmats : 8;
	bool rigid = !(ccsw_layout_mtype(w, k->mtype) & 0xc);
	for (uint16_t i = 0; i < n; i++) {
		memset(&mm[i], 0, sizeof mm[i]);
		mm[i].name = rigid ? objectf(w, file, "MDL_%s_%u", k->stem, i)
				   : 0;
		mm[i].material = id->mat;
		mm[i].vertices = k->vertices + i * 6;
		mm[i].strip = 6 + (i % 3) * 2;
		mm[i].seed = k->seed * 31 + i;
	}
	struct ccsw_model m = {
		.object = id->mdl, .vertex_scale = 1.0f, .mtype = k->mtype,
		.flag = (uint16_t)(k->seed % 4 == 3 ? 1 : 0),
		.mmat_count = n, .mmats = mm, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &m);
}

struct kit_ids add_kit(struct ccsw *w, uint32_t file,
			      const struct kit *k)
{
	struct kit_ids id;
	id.clut = objectf(w, file, "CLT_%s", k->stem);
	id.tex = objectf(w, file, "TEX_%s", k->stem);
	id.mat = objectf(w, file, "MAT_%s", k->stem);
	id.mdl = objectf(w, file, "MDL_%s", k->stem);
	id.obj = objectf(w, file, "OBJ_%s", k->stem);
	add_palette_and_texture(w, k, &id);
	ccsw_material(w, id.mat, id.tex, 1.0f, k->crop_u, k->crop_v);
	add_kit_model(w, file, k, &id);
	ccsw_obj(w, id.obj, k->parent, id.mdl, 0);
	ccsw_obj2(w, id.obj, 0, 0, 0, 0);
	return id;
}

struct ccsw *new_scene(const char *stem, uint16_t version,
			      uint32_t *file)
{
	struct ccsw *w = ccsw_new(stem, version);
	char *path = xasprintf(" c:\\art\\%s.max", stem);
	*file = ccsw_file(w, path);
	free(path);
	ccsw_setup(w);
	return w;
}

/* DATA.BIN scenes end with an empty frame section. */
void end_data_scene(struct ccsw *w)
{
	ccsw_frame(w, 1);
	ccsw_end(w);
}

uint32_t add_rigid_model(struct ccsw *w, uint32_t file,
				const char *stem, uint16_t mtype, uint32_t mat,
				uint32_t vertices, uint32_t seed)
{
	struct ccsw_mmat mm = { .material = mat, .vertices = vertices,
				.seed = seed };
	uint32_t model = objectf(w, file, "%s", stem);
	if (!(ccsw_layout_mtype(w, mtype) & 0xc))
		mm.name = objectf(w, file, "%s_0", stem);
	struct ccsw_model m = {
		.object = model, .vertex_scale = 2.0f, .mtype = mtype,
		.mmat_count = 1, .mmats = &mm, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &m);
	return model;
}

void add_shadow_model(struct ccsw *w, uint32_t file, const char *stem,
			     uint32_t *model)
{
	struct ccsw_mmat mm[2] = {
		{ .vertices = 0, .indices = 0 },        /* vNum 0: nothing more */
		{ .vertices = 12, .indices = 18, .seed = 77 },
	};
	*model = objectf(w, file, "%s", stem);
	struct ccsw_model m = {
		.object = *model, .vertex_scale = 1.0f, .mtype = 8,
		.mmat_count = 2, .mmats = mm, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &m);
}

/* The character's clip: an object controller per node (there is no bind
 * pose, so these place the nodes: n0 stands 20 up, n1 turns about Z,
 * n2 is stretched, n3 rises and is half transparent), and the F_Obj
 * records for n0 that ccsw_anime() always wrote (tests read them). */
static void character_anime(struct ccsw *w, uint32_t anm,
			    const uint32_t nodes[4], uint32_t mph,
			    uint32_t target)
{
	enum { FRAMES = 3 };
	static const struct ccsw_key turn[2] = {
		{ .frame = 0, .v = { 0, 0, 0 } }, { .frame = 2, .v = { 0, 0, 90 } },
	};
	static const struct ccsw_key rise[2] = {
		{ .frame = 0, .v = { 0, 0, 6 } }, { .frame = 2, .v = { 0, 0, 8 } },
	};
	struct ccsw_ctl c[4] = {
		{ .kind = CCSW_CTL_OBJECT, .target = nodes[0], .field = {
		  [0] = { .mode = CCSW_CONSTANT, .v = { 0, 0, 20 } } } },
		{ .kind = CCSW_CTL_OBJECT, .target = nodes[1], .field = {
		  [0] = { .mode = CCSW_CONSTANT, .v = { 0, 0, 8 } },
		  [1] = { .mode = CCSW_KEYED, .key_count = 2, .keys = turn } } },
		{ .kind = CCSW_CTL_OBJECT, .target = nodes[2], .field = {
		  [0] = { .mode = CCSW_CONSTANT, .v = { 3, 0, 6 } },
		  [2] = { .mode = CCSW_CONSTANT, .v = { 1, 1, 1.5f } } } },
		{ .kind = CCSW_CTL_OBJECT, .target = nodes[3], .field = {
		  [0] = { .mode = CCSW_KEYED, .key_count = 2, .keys = rise },
		  [3] = { .mode = CCSW_CONSTANT, .v = { 0.5f } } } },
	};
	struct ccsw_frame_rec r[FRAMES + 1];
	for (uint32_t f = 0; f < FRAMES; f++) {
		memset(&r[f], 0, sizeof r[f]);
		r[f].frame = f;
		r[f].kind = CCSW_F_OBJ;
		r[f].f_obj = ccsw_f_obj_moving(nodes[0], f);
	}
	/* With a morpher: its target at full weight from frame 1 on. */
	memset(&r[FRAMES], 0, sizeof r[FRAMES]);
	r[FRAMES] = (struct ccsw_frame_rec){ .frame = 1,
		.kind = CCSW_F_MORPHER, .object = mph, .target_count = 1,
		.targets = { target }, .values = { 1 } };
	struct ccsw_anime_desc a = { .object = anm, .frames = FRAMES,
				     .ctl_count = 4, .ctls = c,
				     .rec_count = FRAMES + (mph ? 1 : 0),
				     .recs = r };
	ccsw_anime_write(w, &a);
}

/* MPH_<stem> morphs the bone model toward MDL_<stem>_bone_wide: its two
 * mmats' vertices (seeds 11 and 12) at 1.5 times the scale, in their
 * nodes' space. */
static uint32_t add_bone_morph(struct ccsw *w, uint32_t file,
			       const char *stem, uint32_t bone, uint32_t mat,
			       uint32_t *target)
{
	struct ccsw_mmat mm[2] = {
		{ .name = objectf(w, file, "MDL_%s_bone_wide_0", stem),
		  .material = mat, .vertices = 10, .seed = 11 },
		{ .name = objectf(w, file, "MDL_%s_bone_wide_1", stem),
		  .material = mat, .vertices = 7, .seed = 12 },
	};
	*target = objectf(w, file, "MDL_%s_bone_wide", stem);
	struct ccsw_model m = { .object = *target, .vertex_scale = 1.5f,
				.mtype = 0x600, .mmat_count = 2, .mmats = mm,
				.size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &m);
	uint32_t mph = objectf(w, file, "MPH_%s", stem);
	ccsw_morpher(w, mph, bone);
	return mph;
}

/* Clump, bone and skin models, ExtObj, Anime, Bbox, dummies: a character,
 * its bone model morphed when `morph`. */
void add_character_morphed(struct ccsw *w, uint32_t file, const char *stem,
			   uint32_t mat, bool morph)
{
	enum { NODES = 4 };
	uint32_t nodes[NODES];
	for (int i = 0; i < NODES; i++)
		nodes[i] = objectf(w, file, "OBJ_%s_n%d", stem, i);
	uint32_t clump = objectf(w, file, "CMP_%s", stem);
	uint32_t bone = objectf(w, file, "MDL_%s_bone", stem);
	uint32_t skin = objectf(w, file, "MDL_%s_skin", stem);
	uint32_t ext = objectf(w, file, "OBJ_%s_ext", stem);
	uint32_t anm = objectf(w, file, "ANM_%s", stem);
	uint32_t box = objectf(w, file, "BOX_%s", stem);
	uint32_t dmy = objectf(w, file, "DMY_%s_hand", stem);
	uint32_t dmr = objectf(w, file, "DMY_%s_head", stem);

	struct ccsw_mmat bones[2] = {
		{ .material = mat, .node = 1, .vertices = 10, .seed = 11 },
		{ .material = mat, .node = 3, .vertices = 7, .seed = 12 },
	};
	struct ccsw_model bm = { .object = bone, .vertex_scale = 1.0f,
				 .mtype = 5, .mmat_count = 2, .mmats = bones,
				 .size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &bm);
	struct ccsw_mmat skins[2] = {
		{ .material = mat, .vertices = 8, .offsets = 13, .seed = 21 },
		{ .material = mat, .vertices = 5, .offsets = 5, .seed = 22 },
	};
	struct ccsw_model sm = { .object = skin, .vertex_scale = 1.5f,
				 .mtype = 5, .mmat_count = 2, .mmats = skins,
				 .size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &sm);

	for (int i = 0; i < NODES; i++)
		ccsw_obj(w, nodes[i], i ? nodes[i - 1] : 0,
			 i == 1 ? bone : i == 2 ? skin : 0, 0);
	ccsw_clump(w, clump, NODES, nodes);
	ccsw_extobj(w, ext, nodes[0], nodes[3]);
	uint32_t mph = 0, target = 0;
	if (morph)
		mph = add_bone_morph(w, file, stem, bone, mat, &target);
	character_anime(w, anm, nodes, mph, target);
	const float lo[3] = { -10, -10, 0 }, hi[3] = { 10, 10, 40 };
	ccsw_bbox(w, box, nodes[0], lo, hi);
	const float at[3] = { 5, 0, 20 }, rot[3] = { 0, 90, 180 };
	ccsw_dummypos(w, dmy, at);
	ccsw_dummyposrot(w, dmr, at, rot);
}

void add_character(struct ccsw *w, uint32_t file, const char *stem,
		   uint32_t mat)
{
	add_character_morphed(w, file, stem, mat, false);
}
