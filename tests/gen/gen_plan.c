/* SPDX-License-Identifier: MIT */
/* gen_plan.c - the full disc's real shape, planned before a byte is
 * written: which members there are, and how many objects of each prefix
 * and chunks of each kind each holds.
 *
 * The disc-wide totals are the Infection disc's (doc/formats/ccsf.md:
 * objects by prefix, chunks by kind, models by body), so the mount and
 * the benchmark meet the real number of folders, files and nodes.  They
 * are dealt out to the members by weights: each member class (field,
 * town, character, ...) weighs the roles it plays (art, rigging,
 * placement, effects, scene), each member varies its class's weights by
 * up to half, and a handful of field and town members hold most of the
 * placed nodes (5,000 to 20,000 objects each) as the real ones do.
 * Integer arithmetic only: the plan is the same on every machine. */
#include "gen_shape.h"

enum role { R_ART, R_RIG, R_PLACE, R_EFFECT, R_SCENE, R_COUNT };

struct member_class {
	const char *prefix;
	unsigned members;
	unsigned big;           /* of them, the ones of thousands of nodes */
	uint8_t weight[R_COUNT];
};

/* 1,023 members, as DATA.BIN has; the prefixes are the categories of
 * gen_exe.c's index.  xold's 24 are the members of older versions. */
static const struct member_class classes[] = {
	{ "xasc", 20, 0, { 4, 1, 1, 1, 0 } },
	{ "cmn", 20, 0, { 4, 1, 1, 1, 0 } },
	{ "xold", 24, 0, { 3, 1, 1, 0, 0 } },
	{ "eff", 60, 0, { 3, 1, 1, 10, 0 } },
	{ "itm", 50, 0, { 2, 1, 1, 0, 0 } },
	{ "wpn", 50, 0, { 2, 1, 1, 1, 0 } },
	{ "pc", 10, 0, { 6, 10, 1, 1, 0 } },
	{ "chr", 90, 0, { 6, 10, 1, 1, 0 } },
	{ "npc", 80, 0, { 4, 6, 1, 0, 0 } },
	{ "obj", 70, 0, { 3, 2, 2, 1, 0 } },
	{ "mon", 110, 0, { 5, 8, 1, 2, 0 } },
	{ "xbig", 20, 0, { 10, 10, 2, 3, 1 } },
	{ "twn", 30, 6, { 8, 2, 8, 1, 4 } },
	{ "fld", 60, 10, { 8, 2, 8, 1, 4 } },
	{ "bg", 30, 0, { 4, 0, 4, 0, 0 } },
	{ "sky", 20, 0, { 4, 0, 2, 1, 0 } },
	{ "map", 40, 0, { 4, 0, 4, 0, 1 } },
	{ "dng", 170, 0, { 4, 1, 5, 1, 1 } },
	{ "evt", 68, 0, { 2, 3, 3, 1, 10 } },
	{ "framebuf", 1, 0, { 0, 0, 0, 0, 0 } },
};
#define NCLASS (sizeof classes / sizeof classes[0])

/* Disc-wide totals.  Models: 17,254 = targets + rigid + shadow + bone +
 * skin; MDL_ 33,661 = the models and their 16,407 named (rigid and
 * target) mmats; OBJ_ 244,315 = nodes + ExtObj objects. */
static const uint32_t shape_totals[PK_COUNT] = {
	[PK_TEX] = 4306, [PK_CLT] = 5538, [PK_MAT] = 11071,
	[PK_MPH] = 233, [PK_TARGET] = 835, [PK_RIGID] = 13763,
	[PK_MMAT] = 1809, [PK_SHADOW] = 1565, [PK_BONE] = 998,
	[PK_SKIN] = 93, [PK_CMP] = 7254, [PK_ANM] = 4091, [PK_EXT] = 1200,
	[PK_BOX] = 237, [PK_DPOS] = 1207, [PK_DROT] = 1322,
	[PK_HIT] = 2285, [PK_HITNONE] = 103, [PK_LGT] = 421, [PK_BLT] = 290,
	[PK_EFF] = 171, [PK_CAM] = 16, [PK_CAMNONE] = 4,
	[PK_NODE] = 243115, [PK_OBJ2] = 218971,
};

/* The role that decides where a kind goes (-1: worked out apart). */
static const int8_t kind_role[PK_COUNT] = {
	[PK_TEX] = R_ART, [PK_CLT] = R_ART, [PK_MAT] = R_ART,
	[PK_MPH] = R_RIG, [PK_TARGET] = -1, [PK_RIGID] = R_ART,
	[PK_MMAT] = -1, [PK_SHADOW] = R_ART, [PK_BONE] = R_RIG,
	[PK_SKIN] = R_RIG, [PK_CMP] = R_RIG, [PK_ANM] = R_RIG,
	[PK_EXT] = R_RIG, [PK_BOX] = R_RIG, [PK_DPOS] = R_PLACE,
	[PK_DROT] = R_PLACE, [PK_HIT] = R_PLACE, [PK_HITNONE] = R_PLACE,
	[PK_LGT] = R_PLACE, [PK_BLT] = R_EFFECT, [PK_EFF] = R_EFFECT,
	[PK_CAM] = R_SCENE, [PK_CAMNONE] = R_SCENE, [PK_NODE] = -1,
	[PK_OBJ2] = -1,
};

struct planner {
	struct disc_plan *p;
	uint32_t (*weight)[R_COUNT];    /* per member */
	bool *big;
	uint32_t *w, *min;              /* scratch, per member */
};

struct share { uint64_t rem; size_t at; };

static int by_remainder(const void *a, const void *b)
{
	const struct share *x = a, *y = b;
	if (x->rem != y->rem)
		return x->rem < y->rem ? 1 : -1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* Deals total out: each member its minimum, the rest in proportion to
 * the weights, the leftover units to the largest remainders (ties to the
 * earlier member). */
static void deal(struct planner *pl, enum plan_kind k, uint32_t total)
{
	size_t n = pl->p->count;
	uint64_t sum_w = 0, floor_min = 0;
	for (size_t i = 0; i < n; i++) {
		sum_w += pl->w[i];
		floor_min += pl->min[i];
	}
	if (floor_min > total || (!sum_w && floor_min < total))
		die("plan: cannot deal %u of kind %d", total, (int)k);
	uint64_t rest = total - floor_min, given = 0;
	struct share *s = calloc(n, sizeof *s);
	if (!s)
		die("out of memory");
	for (size_t i = 0; i < n; i++) {
		uint64_t q = sum_w ? rest * pl->w[i] / sum_w : 0;
		s[i].rem = sum_w ? rest * pl->w[i] % sum_w : 0;
		s[i].at = i;
		pl->p->m[i].n[k] = pl->min[i] + (uint32_t)q;
		given += q;
	}
	qsort(s, n, sizeof *s, by_remainder);
	for (size_t j = 0; given < rest; j++, given++)
		pl->p->m[s[j].at].n[k]++;
	free(s);
}

/* The members in class order, then interleaved (a seeded shuffle), each
 * with its weights: the class's, times 50..150 %. */
static void plan_members(struct planner *pl, struct rng *r)
{
	struct disc_plan *p = pl->p;
	size_t at = 0;
	unsigned *cls = calloc(p->count, sizeof *cls), *idx;
	idx = calloc(p->count, sizeof *idx);
	if (!cls || !idx)
		die("out of memory");
	for (unsigned c = 0; c < NCLASS; c++)
		for (unsigned i = 0; i < classes[c].members; i++, at++) {
			cls[at] = c;
			idx[at] = i;
		}
	for (size_t i = p->count - 1; i > 0; i--) {
		size_t j = rng_next(r) % (i + 1);
		unsigned tc = cls[i], ti = idx[i];
		cls[i] = cls[j], idx[i] = idx[j];
		cls[j] = tc, idx[j] = ti;
	}
	static const uint16_t old[4] = { 0x90, 0x92, 0x95, 0x96 };
	for (size_t i = 0; i < p->count; i++) {
		const struct member_class *c = &classes[cls[i]];
		struct member_plan *m = &p->m[i];
		snprintf(m->stem, sizeof m->stem, "%s%03u", c->prefix, idx[i]);
		m->framebuf = !strcmp(c->prefix, "framebuf");
		if (m->framebuf)
			snprintf(m->stem, sizeof m->stem, "framebuf");
		m->version = !strcmp(c->prefix, "xold") ? old[idx[i] % 4] : 0x100;
		m->seed = rng_next(r);
		pl->big[i] = idx[i] < c->big;
		for (int k = 0; k < R_COUNT; k++)
			pl->weight[i][k] = c->weight[k] * rng_range(r, 50, 150);
		/* A big field or town is big in art and placement too. */
		if (pl->big[i]) {
			pl->weight[i][R_ART] *= 4;
			pl->weight[i][R_PLACE] *= 4;
		}
	}
	free(cls);
	free(idx);
}

/* Weight and minimum of a kind dealt by its role; a morpher and its
 * targets, and shadows (an Obj's shadow word from version 0x96), only in
 * version 0x100 members. */
static void role_weights(struct planner *pl, enum plan_kind k)
{
	for (size_t i = 0; i < pl->p->count; i++) {
		const struct member_plan *m = &pl->p->m[i];
		bool old = m->version < 0x100;
		pl->w[i] = pl->weight[i][kind_role[k]];
		if (old && (k == PK_MPH || k == PK_SHADOW))
			pl->w[i] = 0;
		pl->min[i] = 0;
		if (m->framebuf)
			pl->w[i] = 0;
		else if (k == PK_TEX)
			pl->min[i] = 1;
		else if (k == PK_CLT || k == PK_MAT)
			pl->min[i] = m->n[PK_TEX];
		else if (k == PK_RIGID)
			pl->min[i] = m->n[PK_MPH];
		else if (k == PK_CMP)
			pl->min[i] = m->n[PK_BONE] + m->n[PK_SKIN];
		else if (k == PK_ANM)
			pl->min[i] = m->n[PK_MPH] ? 1 : 0;
	}
}

/* Nodes enough for every model an Obj owns, a clump of 8 per bone or
 * skin model and one node per other clump, and one for what names a
 * node (Anime, ExtObj, Bbox, Hit). */
static uint32_t node_minimum(const struct member_plan *m)
{
	const uint32_t *n = m->n;
	uint32_t rigged = n[PK_BONE] + n[PK_SKIN];
	uint32_t owned = n[PK_RIGID] + rigged;
	uint32_t clumped = 8 * rigged + (n[PK_CMP] - rigged);
	uint32_t v = owned > clumped ? owned : clumped;
	if (n[PK_SHADOW] > v)
		v = n[PK_SHADOW];
	if (!v && (n[PK_ANM] || n[PK_EXT] || n[PK_BOX] || n[PK_HIT]))
		v = 1;
	return v;
}

/* The big members' nodes first (5,000 to 18,500, most near the low
 * end), then the rest by placement weight; every member its minimum. */
static void plan_nodes(struct planner *pl, struct rng *r)
{
	for (size_t i = 0; i < pl->p->count; i++) {
		struct member_plan *m = &pl->p->m[i];
		uint32_t need = node_minimum(m);
		pl->min[i] = need;
		pl->w[i] = m->framebuf ? 0 : pl->weight[i][R_PLACE];
		if (pl->big[i]) {
			uint32_t u = rng_range(r, 0, 1000);
			uint32_t n = 5000 + 13500 * u / 1000 * u / 1000;
			pl->min[i] = n > need ? n : need;
			pl->w[i] = 0;
		}
	}
	deal(pl, PK_NODE, shape_totals[PK_NODE]);
	for (size_t i = 0; i < pl->p->count; i++) {
		pl->w[i] = pl->p->m[i].n[PK_NODE];
		pl->min[i] = 0;
	}
	deal(pl, PK_OBJ2, shape_totals[PK_OBJ2]);
}

static void plan_kinds(struct planner *pl)
{
	for (int k = 0; k < PK_NODE; k++) {
		if (kind_role[k] >= 0) {
			role_weights(pl, (enum plan_kind)k);
		} else {
			for (size_t i = 0; i < pl->p->count; i++) {
				const uint32_t *n = pl->p->m[i].n;
				/* Targets follow their morphers; extra mmats go
				 * to the rigid models that are no morpher's base. */
				pl->w[i] = k == PK_TARGET ? n[PK_MPH]
					 : pl->weight[i][R_ART] *
					   (n[PK_RIGID] - n[PK_MPH]);
				pl->min[i] = 0;
			}
		}
		deal(pl, (enum plan_kind)k, shape_totals[k]);
	}
}

void plan_disc(struct disc_plan *p)
{
	size_t n = 0;
	for (unsigned c = 0; c < NCLASS; c++)
		n += classes[c].members;
	p->count = n;
	p->m = calloc(n, sizeof *p->m);
	struct planner pl = { .p = p };
	pl.weight = calloc(n, sizeof *pl.weight);
	pl.big = calloc(n, sizeof *pl.big);
	pl.w = calloc(n, sizeof *pl.w);
	pl.min = calloc(n, sizeof *pl.min);
	if (!p->m || !pl.weight || !pl.big || !pl.w || !pl.min)
		die("out of memory");
	struct rng r = { 0x5a4e };
	plan_members(&pl, &r);
	plan_kinds(&pl);
	plan_nodes(&pl, &r);
	free(pl.weight);
	free(pl.big);
	free(pl.w);
	free(pl.min);
}

void plan_free(struct disc_plan *p)
{
	free(p->m);
	p->m = NULL;
	p->count = 0;
}
