/* SPDX-License-Identifier: MIT */
/* gen_shape.h - the full disc's real shape: how many of each object and
 * chunk every DATA.BIN member holds (gen_plan.c), and the writer of a
 * member from its plan (gen_full.c). */
#ifndef CCSGEN_GEN_SHAPE_H
#define CCSGEN_GEN_SHAPE_H

#include "gen.h"

/* What a plan counts, per member.  The totals over the disc are in
 * gen_plan.c's shape_totals[], from doc/formats/ccsf.md's counts. */
enum plan_kind {
	PK_TEX,         /* TEX_ with its Texture chunk (and its CLT_) */
	PK_CLT,         /* CLT_ with a Clut chunk, textures' included */
	PK_MAT,         /* MAT_ with a Material chunk */
	PK_MPH,         /* MPH_ with a Morpher chunk */
	PK_TARGET,      /* morph target models (mtype 0x600/0x601) */
	PK_RIGID,       /* rigid models (mtype 0/1), morphers' bases included */
	PK_MMAT,        /* rigid mmats beyond the first of each model */
	PK_SHADOW,      /* shadow models (mtype 8), two mmats each */
	PK_BONE,        /* bone models (mtype 5), three mmats each */
	PK_SKIN,        /* skin models (mtype 5), two mmats each */
	PK_CMP,         /* CMP_ with a Clump chunk */
	PK_ANM,         /* ANM_ with an Anime chunk */
	PK_EXT,         /* OBJ_ with an ExtObj chunk */
	PK_BOX,         /* BOX_ with a Bbox chunk */
	PK_DPOS,        /* DMY_ with a DummyPos chunk */
	PK_DROT,        /* DMY_ with a DummyPosRot chunk */
	PK_HIT,         /* HIT_ with a Hit chunk */
	PK_HITNONE,     /* HIT_ that no chunk names */
	PK_LGT,         /* LGT_ with a Light chunk */
	PK_BLT,         /* BLT_ with a BltGrp chunk */
	PK_EFF,         /* EFF_ with an Eff chunk */
	PK_CAM,         /* CAM_ with a Camera chunk */
	PK_CAMNONE,     /* CAM_ that no chunk names */
	PK_NODE,        /* OBJ_ with an Obj chunk */
	PK_OBJ2,        /* of those, the ones with an Obj2 chunk too */
	PK_COUNT
};

struct member_plan {
	char stem[16];
	uint16_t version;
	bool framebuf;          /* the sample's FRAMEBUF scene, as it is */
	uint32_t seed;
	uint32_t n[PK_COUNT];
};

struct disc_plan {
	struct member_plan *m;
	size_t count;
};

/* The real shape's 1,023 members, interleaved as the generator's
 * categories are (gen_exe.c). */
void plan_disc(struct disc_plan *p);
void plan_free(struct disc_plan *p);
/* The member's bytes (a finished scene, malloc'ed). */
uint8_t *plan_scene(const struct member_plan *m, size_t *len);

#endif
