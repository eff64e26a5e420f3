/* SPDX-License-Identifier: MIT */
/* pc000.h - the numbers of the sample disc's walking figure, DATA.BIN
 * member pc000 (gen_pc000.c writes it from these; tests may pose it).
 *
 * A 7-node figure, Z up, facing -Y, about 46 units tall:
 *
 *	slot 0 OBJ_pc000_hips  root   position keyed (a bob), owns MDL_pc000_bone
 *	slot 1 OBJ_pc000_body  hips   owns MDL_pc000_skin (a belt)
 *	slot 2 OBJ_pc000_head  body   scale 1.25, owns MDL_pc000_hat (rigid)
 *	slot 3 OBJ_pc000_armL  body   rotation x keyed
 *	slot 4 OBJ_pc000_armR  body   rotation x keyed
 *	slot 5 OBJ_pc000_legL  hips   rotation x keyed
 *	slot 6 OBJ_pc000_legR  hips   rotation x keyed
 *
 * There is no bind pose: the Anime chunk ANM_pc000_walk (30 frames,
 * looping) places every node by an object controller.  Positions are
 * constant (the rest layout below) but the hips', which is keyed; a
 * swinging node's rotation is keyed (swing, 0, 0) at frames 0 and 30 and
 * (-swing, 0, 0) at 15; other rotations are absent but the head's,
 * constant (0, 0, PC000_HEAD_TURN).  The hips carry a constant
 * transparency 1; scale is absent but on the head.
 *
 * MDL_pc000_bone (mtype 5, bone body) has one mmat per slot: the box
 * box_lo..box_hi of that node's space as three triangle strips (the four
 * sides, 10 vertices, then the top and the bottom, 4 each: 18 vertices,
 * 12 triangles); left and right boxes are mirror images, not copies
 * (assimp would fold identical meshes into one).  MDL_pc000_skin
 * (mtype 5, skin body) is one strip of PC000_BELT_VERTICES vertices, a
 * belt at the waist: an octagon of radius PC000_BELT_RADIUS at world heights PC000_BELT_Z0 and PC000_BELT_Z1 (at
 * frame 0), each vertex two entries, hips (slot 0) then body (slot 1),
 * weights 192 + 64 on the lower row and 64 + 192 on the upper.  Each
 * entry's point maps to the same world point at frame 0, except for the
 * body entries of vertices PC000_BELT_BAD_FIRST .. +PC000_BELT_BAD_COUNT-1,
 * which are PC000_BELT_BAD_DY further along Y.  MDL_pc000_hat (mtype 1)
 * is a box in the head's space.  Every model has vertexScale
 * PC000_VSCALE: one unit is PC000_UNIT in the s16 positions.
 */
#ifndef CCSGEN_PC000_H
#define CCSGEN_PC000_H

#define PC000_NODES 7
#define PC000_FRAMES 30
#define PC000_VSCALE 16.0f
#define PC000_UNIT 256                  /* 4096 / PC000_VSCALE */
#define PC000_BOX_VERTICES 18
#define PC000_HEAD_TURN 10.0f
#define PC000_HEAD_SCALE 1.25f

enum { PC000_HIPS, PC000_BODY, PC000_HEAD, PC000_ARML, PC000_ARMR,
       PC000_LEGL, PC000_LEGR };

struct pc000_node {
	const char *name;       /* OBJ_pc000_<name> */
	int parent;             /* slot; -1: a root */
	float pos[3];           /* constant position (hips: pc000_hips_bob) */
	float swing;            /* rotation x keys; 0: not keyed */
	float box_lo[3], box_hi[3];     /* its mmat of MDL_pc000_bone */
};

static const struct pc000_node pc000_nodes[PC000_NODES] = {
	{ "hips", -1, { 0, 0, 30 }, 0, { -5, -3, -2 }, { 5, 3, 2 } },
	{ "body", 0, { 0, 0, 4 }, 0, { -5, -3, 0 }, { 5, 3, 10 } },
	{ "head", 1, { 0, 0, 12 }, 0, { -3, -3, 0 }, { 3, 3, 6 } },
	{ "armL", 1, { 6.5f, 0, 9 }, -20, { -1, -1.5f, -11 },
	  { 2, 1.5f, 0 } },
	{ "armR", 1, { -6.5f, 0, 9 }, 20, { -2, -1.5f, -11 },
	  { 1, 1.5f, 0 } },
	{ "legL", 0, { 3, 0, -2 }, 30, { -1.5f, -2, -28 },
	  { 2.5f, 2, 0 } },
	{ "legR", 0, { -3, 0, -2 }, -30, { -2.5f, -2, -28 },
	  { 1.5f, 2, 0 } },
};

/* The hips' keyed position: up one unit at mid-stride. */
static const struct { unsigned frame; float pos[3]; } pc000_hips_bob[3] = {
	{ 0, { 0, 0, 30 } }, { 15, { 0, 0, 31 } }, { 30, { 0, 0, 30 } },
};

/* The hat, in the head's space. */
static const float pc000_hat_lo[3] = { -3.5f, -3.5f, 6 };
static const float pc000_hat_hi[3] = { 3.5f, 3.5f, 7.5f };

#define PC000_BELT_RADIUS 6
#define PC000_BELT_Z0 31                /* world, at frame 0 */
#define PC000_BELT_Z1 33
#define PC000_BELT_VERTICES 18          /* 9 corners (the first again) x 2 */
#define PC000_BELT_BAD_FIRST 4
#define PC000_BELT_BAD_COUNT 2
#define PC000_BELT_BAD_DY 1.5f

/* The camera's F_Camera records: frame, flag, values (one per clear bit
 * 1-8: pos x y z, rot x y z, unused, fov). */
static const struct { unsigned frame; unsigned flag; float v[8]; }
pc000_camera[3] = {
	{ 1, 0, { 0, -90, 30, -90, 0, 0, 0, 45 } },
	{ 10, 0x1fc, { 20 } },                  /* x only */
	{ 20, 0x0fe, { 35 } },                  /* fov only */
};

/* The omni light LGT_pc000: position, colour (R low byte), intensity
 * keys (frame 0, 15, 30), fall-off start and end; the material
 * controller's U keys (frame 0 and 30); the distant light LGT_pc000_sun. */
static const float pc000_omni_pos[3] = { 10, -20, 50 };
#define PC000_OMNI_RGB 0xc0e0ffu
static const float pc000_omni_intensity[3] = { 1.0f, 0.6f, 1.0f };
#define PC000_OMNI_FALLOFF_START 20.0f
#define PC000_OMNI_FALLOFF_END 120.0f
static const float pc000_mat_u[2] = { 0.0f, 1.0f };
static const float pc000_sun_rot[3] = { -45, 0, 30 };
#define PC000_SUN_RGB 0x808080u

#endif
