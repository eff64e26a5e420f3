/* SPDX-License-Identifier: MIT */
/* gen_member.c - one member of the real-shape disc, written from its
 * plan (gen_plan.c): palettes, textures, materials, models, the nodes
 * (an Obj chunk each, most an Obj2 too), clumps, morphers and their
 * Anime chunks, and the placed things (dummies, hits, lights, effects,
 * cameras).  Every reference stays inside the file: a node's parent is
 * an earlier node, a model's owner a node, a bone mmat's slot one of its
 * clump's eight nodes. */
#include "gen_shape.h"

/* Ids of what a member holds, by kind (index i of kind k: id[k][i]). */
struct member {
	struct ccsw *w;
	uint32_t f;
	const struct member_plan *m;
	struct rng r;
	uint32_t *id[PK_COUNT];
	uint32_t *base_vertices;        /* per morpher: its base's mmat */
};

static uint32_t *ids(struct member *s, enum plan_kind k)
{
	uint32_t n = s->m->n[k];
	s->id[k] = calloc(n ? n : 1, sizeof *s->id[k]);
	if (!s->id[k])
		die("out of memory");
	return s->id[k];
}

/* As the disc's: ~94 % of textures 8-bit, mip levels in half of them.
 * 64 to 256 a side (most 256) and noisy but one in forty: with the
 * models' 20 to 790 vertices a mmat, that makes DATA.BIN the real one's
 * size, ~138 MB compressed and ~338 MB inflated at level 1. */
static void put_texture(struct member *s, uint32_t i)
{
	struct rng *r = &s->r;
	uint32_t pick = rng_next(r) % 100;
	uint8_t psm = rng_next(r) % 100 < 6 ? 0x14 : 0x13;
	uint8_t tw = (uint8_t)(rng_next(r) % 8 ? 7 + (rng_next(r) % 3 != 0) : 6);
	uint8_t th = (uint8_t)(rng_next(r) % 8 ? 7 + (rng_next(r) % 3 != 0) : 6);
	struct ccsw_clut c = {
		.object = s->id[PK_CLT][i], .flag = 1, .buf_x = 896,
		.buf_y = (uint16_t)(i % 8 * 4), .count = psm == 0x14 ? 16 : 256,
		.seed = rng_next(r),
	};
	ccsw_clut(s->w, &c);
	struct ccsw_texture t = {
		.object = s->id[PK_TEX][i], .clut = c.object, .flag = 1,
		.psm = psm, .mipmap = pick < 50 ? 0 : pick < 92 ? 3 : 2,
		.aref = 0x70, .tw = tw, .th = th, .buf_x = 768,
		.buf_y = (uint16_t)(i % 16 * 32),
		.pattern = rng_next(r) % 40 ? CCSW_PAT_NOISY : CCSW_PAT_CHECKER,
		.seed = c.seed, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_texture(s->w, &t);
}

/* Palettes (the first ones a texture's each), textures, materials. */
static void put_art(struct member *s)
{
	const uint32_t *n = s->m->n;
	const char *st = s->m->stem;
	uint32_t *clt = ids(s, PK_CLT), *tex = ids(s, PK_TEX);
	uint32_t *mat = ids(s, PK_MAT);
	for (uint32_t i = 0; i < n[PK_CLT]; i++) {
		clt[i] = objectf(s->w, s->f, "CLT_%s_%u", st, i);
		if (i < n[PK_TEX]) {
			tex[i] = objectf(s->w, s->f, "TEX_%s_%u", st, i);
			put_texture(s, i);
		} else {
			struct ccsw_clut c = { .object = clt[i], .flag = 1,
					       .buf_x = 896, .count = 256,
					       .seed = rng_next(&s->r) };
			ccsw_clut(s->w, &c);
		}
	}
	for (uint32_t i = 0; i < n[PK_MAT]; i++) {
		mat[i] = objectf(s->w, s->f, "MAT_%s_%u", st, i);
		/* 2 % of materials carry a UV animation's crop. */
		uint16_t crop = rng_next(&s->r) % 50 ? 0 : 16;
		ccsw_material(s->w, mat[i], tex[i % n[PK_TEX]], 1.0f, crop,
			      crop);
	}
}

static uint32_t material(struct member *s, uint32_t i)
{
	return s->id[PK_MAT][i % s->m->n[PK_MAT]];
}

/* Rigid models: a morpher's base has one mmat (its targets match it),
 * the others one and their share of the extra mmats. */
static void put_rigid(struct member *s)
{
	const uint32_t *n = s->m->n;
	uint32_t *mdl = ids(s, PK_RIGID), others = n[PK_RIGID] - n[PK_MPH];
	s->base_vertices = calloc(n[PK_MPH] + 1, sizeof *s->base_vertices);
	if (!s->base_vertices)
		die("out of memory");
	uint16_t mtype = s->m->version < 0x100 || rng_next(&s->r) % 3 ? 1 : 0;
	for (uint32_t j = 0; j < n[PK_RIGID]; j++) {
		struct ccsw_mmat mm[8];
		uint32_t k = j - n[PK_MPH], more = 0;
		if (j >= n[PK_MPH])
			more = n[PK_MMAT] / others + (k < n[PK_MMAT] % others);
		uint16_t count = (uint16_t)(1 + (more < 7 ? more : 7));
		mdl[j] = objectf(s->w, s->f, "MDL_%s_%u", s->m->stem, j);
		for (uint16_t i = 0; i < count; i++) {
			mm[i] = (struct ccsw_mmat){
				.name = objectf(s->w, s->f, "MDL_%s_%u_%u",
						s->m->stem, j, i),
				.material = material(s, j + i),
				.vertices = rng_range(&s->r, 20, 790),
				.strip = 6 + (i % 3) * 2, .seed = rng_next(&s->r),
			};
		}
		if (j < n[PK_MPH])
			s->base_vertices[j] = mm[0].vertices;
		struct ccsw_model m = {
			.object = mdl[j], .vertex_scale = 1.0f, .mtype = mtype,
			.mmat_count = count, .mmats = mm,
			.size_field = CCSW_SIZE_AUTO,
		};
		ccsw_model(s->w, &m);
	}
}

/* Morph targets: target t belongs to morpher t % morphers, with its
 * base's vertex count. */
static void put_targets(struct member *s)
{
	const uint32_t *n = s->m->n;
	uint32_t *tgt = ids(s, PK_TARGET);
	for (uint32_t t = 0; t < n[PK_TARGET]; t++) {
		char stem[32];
		snprintf(stem, sizeof stem, "MDL_%s_t%u", s->m->stem, t);
		tgt[t] = add_rigid_model(s->w, s->f, stem,
					 t % 2 ? 0x601 : 0x600, material(s, t),
					 s->base_vertices[t % n[PK_MPH]],
					 rng_next(&s->r));
	}
}

/* Shadow models (two mmats), bone models (three, on slots of their
 * clump's eight nodes) and skin models (two, entries on slots 0..7). */
static void put_rigged(struct member *s, enum plan_kind k)
{
	uint32_t *mdl = ids(s, k);
	uint16_t count = k == PK_BONE ? 3 : 2;
	for (uint32_t j = 0; j < s->m->n[k]; j++) {
		struct ccsw_mmat mm[3];
		const char *what = k == PK_SHADOW ? "s" : k == PK_BONE ? "b" : "k";
		mdl[j] = objectf(s->w, s->f, "MDL_%s_%s%u", s->m->stem, what, j);
		for (uint16_t i = 0; i < count; i++) {
			uint32_t v = rng_range(&s->r, 8, k == PK_SHADOW ? 60 : 150);
			mm[i] = (struct ccsw_mmat){
				.material = material(s, j + i), .node = i * 3 % 8,
				.vertices = v, .seed = rng_next(&s->r),
				.offsets = k == PK_SKIN ? v + v / 2 : 0,
				.indices = k == PK_SHADOW ? 3 * (v - 2) : 0,
			};
		}
		struct ccsw_model m = {
			.object = mdl[j], .vertex_scale = 1.0f,
			.mtype = k == PK_SHADOW ? 8 : 5, .mmat_count = count,
			.mmats = mm, .size_field = CCSW_SIZE_AUTO,
		};
		ccsw_model(s->w, &m);
	}
}

/* Node i's model: the first node of each of the first bone + skin
 * clumps owns a rigged model, the other nodes the rigid models in turn;
 * the node owning a morpher's base names the morpher in its Obj2. */
static void put_nodes(struct member *s)
{
	const uint32_t *n = s->m->n;
	uint32_t *node = ids(s, PK_NODE), rigged = n[PK_BONE] + n[PK_SKIN];
	uint32_t next_rigid = 0;
	for (uint32_t i = 0; i < n[PK_NODE]; i++)
		node[i] = objectf(s->w, s->f, "OBJ_%s_%u", s->m->stem, i);
	for (uint32_t i = 0; i < n[PK_NODE]; i++) {
		uint32_t model = 0, modifier = 0;
		if (i % 8 == 0 && i / 8 < rigged) {
			uint32_t c = i / 8;
			model = c < n[PK_BONE] ? s->id[PK_BONE][c]
					       : s->id[PK_SKIN][c - n[PK_BONE]];
		} else if (next_rigid < n[PK_RIGID]) {
			if (next_rigid < n[PK_MPH])
				modifier = s->id[PK_MPH][next_rigid];
			model = s->id[PK_RIGID][next_rigid++];
		}
		uint32_t shadow = i < n[PK_SHADOW] ? s->id[PK_SHADOW][i] : 0;
		ccsw_obj(s->w, node[i], i ? node[(i - 1) / 8] : 0, model, shadow);
		if (i < n[PK_OBJ2])
			ccsw_obj2(s->w, node[i], i % 5 == 1 ? 1 : 0, modifier, 0, 0);
	}
}

/* Clumps: one of eight nodes per rigged model, then the others share
 * what nodes are left, up to eight each. */
static void put_clumps(struct member *s)
{
	const uint32_t *n = s->m->n;
	uint32_t *cmp = ids(s, PK_CMP), rigged = n[PK_BONE] + n[PK_SKIN];
	uint32_t rest = n[PK_CMP] - rigged, left = n[PK_NODE] - 8 * rigged;
	uint32_t each = rest ? left / rest : 0;
	if (each > 8)
		each = 8;
	for (uint32_t c = 0; c < n[PK_CMP]; c++) {
		uint32_t first = c < rigged ? 8 * c : 8 * rigged + (c - rigged) * each;
		uint16_t count = (uint16_t)(c < rigged ? 8 : each);
		cmp[c] = objectf(s->w, s->f, "CMP_%s_%u", s->m->stem, c);
		ccsw_clump(s->w, cmp[c], count, s->id[PK_NODE] + first);
	}
}

/* Morphers (made before the nodes, whose Obj2 names them) and their
 * chunks: each morphs its base, rigid model i. */
static void name_morphers(struct member *s)
{
	uint32_t *mph = ids(s, PK_MPH);
	for (uint32_t i = 0; i < s->m->n[PK_MPH]; i++)
		mph[i] = objectf(s->w, s->f, "MPH_%s_%u", s->m->stem, i);
}

static void put_morphers(struct member *s)
{
	for (uint32_t i = 0; i < s->m->n[PK_MPH]; i++)
		ccsw_morpher(s->w, s->id[PK_MPH][i], s->id[PK_RIGID][i]);
}

/* Anime a: two frames, an object controller placing the first node
 * (every Anime of a member drives the same node, so that each clip
 * poses the whole scene alone), and at frame 1 an F_Morpher record for
 * every morpher of the member, its targets (t % morphers == m) at
 * weights from 1/8 to 1. */
static void put_anime(struct member *s, uint32_t a)
{
	const uint32_t *n = s->m->n;
	struct ccsw_ctl c = { .kind = CCSW_CTL_OBJECT,
			      .target = s->id[PK_NODE][0] };
	c.field[0].mode = CCSW_CONSTANT;
	c.field[0].v[0] = (float)(a % 32);
	c.field[0].v[2] = (float)(a % 7);
	struct ccsw_frame_rec *r = calloc(n[PK_MPH] + 1, sizeof *r);
	if (!r)
		die("out of memory");
	for (uint32_t m = 0; m < n[PK_MPH]; m++) {
		r[m].frame = 1;
		r[m].kind = CCSW_F_MORPHER;
		r[m].object = s->id[PK_MPH][m];
		for (uint32_t t = m; t < n[PK_TARGET] && r[m].target_count < 8;
		     t += n[PK_MPH]) {
			r[m].targets[r[m].target_count] = s->id[PK_TARGET][t];
			r[m].values[r[m].target_count] =
				(float)(r[m].target_count + 1) / 8;
			r[m].target_count++;
		}
	}
	struct ccsw_anime_desc d = { .object = s->id[PK_ANM][a], .frames = 2,
				     .loop = a % 2, .ctl_count = 1, .ctls = &c,
				     .rec_count = n[PK_MPH], .recs = r };
	ccsw_anime_write(s->w, &d);
	free(r);
}

/* ExtObj objects, Anime chunks, Bbox boxes: what rigging names nodes. */
static void put_rig(struct member *s)
{
	const uint32_t *n = s->m->n;
	const char *st = s->m->stem;
	uint32_t *node = s->id[PK_NODE], *ext = ids(s, PK_EXT);
	uint32_t *anm = ids(s, PK_ANM), *box = ids(s, PK_BOX);
	for (uint32_t i = 0; i < n[PK_EXT]; i++) {
		ext[i] = objectf(s->w, s->f, "OBJ_%s_x%u", st, i);
		ccsw_extobj(s->w, ext[i], node[i % n[PK_NODE]],
			    node[(i * 7 + 1) % n[PK_NODE]]);
	}
	for (uint32_t a = 0; a < n[PK_ANM]; a++) {
		anm[a] = objectf(s->w, s->f, "ANM_%s_%u", st, a);
		put_anime(s, a);
	}
	const float lo[3] = { -10, -10, 0 }, hi[3] = { 10, 10, 40 };
	for (uint32_t i = 0; i < n[PK_BOX]; i++) {
		box[i] = objectf(s->w, s->f, "BOX_%s_%u", st, i);
		ccsw_bbox(s->w, box[i], node[i % n[PK_NODE]], lo, hi);
	}
}

/* Dummies, hit meshes (one strip of 2 to 10 triangles under a node),
 * lights of the four types, blt groups, effects, cameras. */
static void put_place(struct member *s)
{
	const uint32_t *n = s->m->n;
	const char *st = s->m->stem;
	struct ccsw *w = s->w;
	for (uint32_t i = 0; i < n[PK_DPOS] + n[PK_DROT]; i++) {
		const float at[3] = { (float)(i % 50), (float)(i % 7), 0 };
		const float rot[3] = { 0, 0, (float)(i * 15 % 360) };
		if (i < n[PK_DPOS])
			ccsw_dummypos(w, objectf(w, s->f, "DMY_%s_p%u", st, i), at);
		else
			ccsw_dummyposrot(w, objectf(w, s->f, "DMY_%s_r%u", st, i),
					 at, rot);
	}
	for (uint32_t i = 0; i < n[PK_HIT]; i++) {
		struct ccsw_hit_group g = {
			.vertices = 3 * rng_range(&s->r, 2, 10),
			.attribute = 1u << (i % 4), .seed = rng_next(&s->r) };
		ccsw_hit(w, objectf(w, s->f, "HIT_%s_%u", st, i),
			 s->id[PK_NODE][i % n[PK_NODE]], 1, &g);
	}
	for (uint32_t i = 0; i < n[PK_HITNONE]; i++)
		objectf(w, s->f, "HIT_%s_n%u", st, i);
	for (uint32_t i = 0; i < n[PK_LGT]; i++)
		ccsw_light(w, objectf(w, s->f, "LGT_%s_%u", st, i),
			   (int16_t)(1 + i % 4));
	for (uint32_t i = 0; i < n[PK_BLT]; i++)
		ccsw_opaque(w, CCSW_BLTGRP, objectf(w, s->f, "BLT_%s_%u", st, i),
			    3, rng_next(&s->r));
	for (uint32_t i = 0; i < n[PK_EFF]; i++)
		ccsw_opaque(w, CCSW_EFF, objectf(w, s->f, "EFF_%s_%u", st, i),
			    12, rng_next(&s->r));
	for (uint32_t i = 0; i < n[PK_CAM] + n[PK_CAMNONE]; i++) {
		uint32_t cam = objectf(w, s->f, "CAM_%s_%u", st, i);
		if (i < n[PK_CAM])
			ccsw_camera(w, cam);
	}
}

uint8_t *plan_scene(const struct member_plan *m, size_t *len)
{
	struct member s = { .m = m, .r = { m->seed } };
	s.w = new_scene(m->stem, m->version, &s.f);
	put_art(&s);
	put_rigid(&s);
	name_morphers(&s);
	put_targets(&s);
	put_morphers(&s);
	put_rigged(&s, PK_SHADOW);
	put_rigged(&s, PK_BONE);
	put_rigged(&s, PK_SKIN);
	put_nodes(&s);
	put_clumps(&s);
	put_rig(&s);
	put_place(&s);
	end_data_scene(s.w);
	for (int k = 0; k < PK_COUNT; k++)
		free(s.id[k]);
	free(s.base_vertices);
	return finish_scene(s.w, len);
}
