/* SPDX-License-Identifier: MIT */
/* gen_pc000.c - the sample disc's walking figure, DATA.BIN member pc000:
 * a clump of seven nodes posed only by an Anime chunk, bone boxes, a
 * skinned belt, a rigid hat, a camera and two lights (pc000.h has the
 * numbers and the picture). */
#include "gen.h"
#include "pc000.h"

struct pc000_ids {
	uint32_t clut, tex, mat, nodes[PC000_NODES], clump;
	uint32_t bone, skin, hat, hat_mmat, anm, cam, omni, sun;
};

static int16_t unit(float v) { return (int16_t)(v * PC000_UNIT); }

/* s8 / 64 normal bytes and the strip flag in byte 3. */
static uint32_t normal_word(int nx, int ny, int nz, bool opens)
{
	return (uint8_t)(int8_t)nx | (uint32_t)(uint8_t)(int8_t)ny << 8 |
	       (uint32_t)(uint8_t)(int8_t)nz << 16 | (uint32_t)opens << 24;
}

/* Vertex i of a box's three strips: the sides (corners 0..4, bottom then
 * top, corner 4 closing on 0), then the top and the bottom caps. */
static void box_vertex(unsigned i, unsigned *corner, bool *top, uint32_t *st)
{
	static const unsigned cap[4] = { 0, 1, 3, 2 };
	if (i < 10) {
		*corner = (i / 2) % 4;
		*top = i & 1;
		*st = (i / 2) * 64 | (uint32_t)(*top ? 256 : 0) << 16;
		return;
	}
	unsigned k = (i - 10) % 4;
	*corner = cap[k];
	*top = i < 14;
	*st = (k & 1 ? 256u : 0u) | (k & 2 ? 256u : 0u) << 16;
}

/* A box as 18 strip vertices: positions, corner normals, ST. */
static void box_strips(const float lo[3], const float hi[3], int16_t *pos,
		       uint32_t *nrm, uint32_t *st)
{
	for (unsigned i = 0; i < PC000_BOX_VERTICES; i++) {
		unsigned c;
		bool top;
		box_vertex(i, &c, &top, &st[i]);
		bool xhi = c == 1 || c == 2, yhi = c >= 2;
		pos[3 * i] = unit(xhi ? hi[0] : lo[0]);
		pos[3 * i + 1] = unit(yhi ? hi[1] : lo[1]);
		pos[3 * i + 2] = unit(top ? hi[2] : lo[2]);
		bool opens = i == 0 || i == 1 || i == 10 || i == 11 ||
			     i == 14 || i == 15;
		nrm[i] = normal_word(xhi ? 37 : -37, yhi ? 37 : -37,
				     top ? 37 : -37, opens);
	}
}

static void add_bone_model(struct ccsw *w, const struct pc000_ids *id)
{
	static int16_t pos[PC000_NODES][3 * PC000_BOX_VERTICES];
	static uint32_t nrm[PC000_NODES][PC000_BOX_VERTICES];
	static uint32_t st[PC000_NODES][PC000_BOX_VERTICES];
	struct ccsw_mmat mm[PC000_NODES];
	for (unsigned n = 0; n < PC000_NODES; n++) {
		box_strips(pc000_nodes[n].box_lo, pc000_nodes[n].box_hi,
			   pos[n], nrm[n], st[n]);
		mm[n] = (struct ccsw_mmat){
			.material = id->mat, .node = n,
			.vertices = PC000_BOX_VERTICES, .pos = pos[n],
			.normal = nrm[n], .st = st[n] };
	}
	struct ccsw_model m = { .object = id->bone,
				.vertex_scale = PC000_VSCALE, .mtype = 5,
				.mmat_count = PC000_NODES, .mmats = mm,
				.size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &m);
}

static void add_hat_model(struct ccsw *w, const struct pc000_ids *id)
{
	int16_t pos[3 * PC000_BOX_VERTICES];
	uint32_t nrm[PC000_BOX_VERTICES], st[PC000_BOX_VERTICES];
	uint32_t col[PC000_BOX_VERTICES];
	box_strips(pc000_hat_lo, pc000_hat_hi, pos, nrm, st);
	for (unsigned i = 0; i < PC000_BOX_VERTICES; i++)
		col[i] = 0x80101070u;           /* dark red, opaque */
	struct ccsw_mmat mm = { .name = id->hat_mmat, .material = id->mat,
				.vertices = PC000_BOX_VERTICES, .pos = pos,
				.normal = nrm, .colour = col, .st = st };
	struct ccsw_model m = { .object = id->hat,
				.vertex_scale = PC000_VSCALE, .mtype = 1,
				.mmat_count = 1, .mmats = &mm,
				.size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &m);
}

/* Octagon corners, radius PC000_BELT_RADIUS, as whole s16 (x, y). */
static void belt_corner(unsigned k, int16_t xy[2])
{
	static const int c8[8] = { 256, 181, 0, -181, -256, -181, 0, 181 };
	xy[0] = (int16_t)(PC000_BELT_RADIUS * c8[k % 8]);
	xy[1] = (int16_t)(PC000_BELT_RADIUS * c8[(k + 6) % 8]);
}

/* Entry e of the belt: vertex e / 2, the hips' (even e) or the body's
 * (odd e), its point in that node's space at frame 0.  Hips and body
 * are pure translations there, so p = world - node origin. */
static struct ccsw_skin_entry belt_entry(unsigned e)
{
	unsigned v = e / 2, slot = e & 1;
	bool upper = v & 1;
	int16_t xy[2];
	belt_corner(v / 2, xy);
	float origin = pc000_hips_bob[0].pos[2] +
		       (slot ? pc000_nodes[PC000_BODY].pos[2] : 0.0f);
	float z = (upper ? PC000_BELT_Z1 : PC000_BELT_Z0) - origin;
	struct ccsw_skin_entry s = { { xy[0], xy[1], unit(z) }, 0 };
	if (slot && v >= PC000_BELT_BAD_FIRST &&
	    v < PC000_BELT_BAD_FIRST + PC000_BELT_BAD_COUNT)
		s.pos[1] = (int16_t)(s.pos[1] + unit(PC000_BELT_BAD_DY));
	unsigned weight = (upper != (slot == 1)) ? 64 : 192;
	s.w = (uint16_t)(weight | (slot ? 1u << 9 : 0) | slot << 10);
	return s;
}

static void add_skin_model(struct ccsw *w, const struct pc000_ids *id)
{
	enum { E = 2 * PC000_BELT_VERTICES };
	struct ccsw_skin_entry ent[E];
	uint32_t nrm[E], st[PC000_BELT_VERTICES];
	for (unsigned e = 0; e < E; e++) {
		ent[e] = belt_entry(e);
		int16_t xy[2];
		belt_corner(e / 4, xy);
		nrm[e] = normal_word(xy[0] / 24, xy[1] / 24, 0, e / 2 < 2);
	}
	for (unsigned v = 0; v < PC000_BELT_VERTICES; v++)
		st[v] = (v / 2) * 32 | (uint32_t)(v & 1 ? 256 : 0) << 16;
	struct ccsw_mmat mm = { .material = id->mat,
				.vertices = PC000_BELT_VERTICES, .offsets = E,
				.entries = ent, .normal = nrm, .st = st };
	struct ccsw_model m = { .object = id->skin,
				.vertex_scale = PC000_VSCALE, .mtype = 5,
				.mmat_count = 1, .mmats = &mm,
				.size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &m);
}

static void vec3(float out[3], const float in[3])
{
	memcpy(out, in, 3 * sizeof *out);
}

static void constant(struct ccsw_ctl_field *f, float x, float y, float z)
{
	f->mode = CCSW_CONSTANT;
	f->v[0] = x;
	f->v[1] = y;
	f->v[2] = z;
}

/* Node n's object controller; keys is room for its 3 keys. */
static void node_ctl(const struct pc000_ids *id, unsigned n,
		     struct ccsw_ctl *c, struct ccsw_key keys[3])
{
	const struct pc000_node *nd = &pc000_nodes[n];
	memset(c, 0, sizeof *c);
	c->kind = CCSW_CTL_OBJECT;
	c->target = id->nodes[n];
	constant(&c->field[0], nd->pos[0], nd->pos[1], nd->pos[2]);
	for (unsigned k = 0; k < 3; k++) {
		memset(&keys[k], 0, sizeof keys[k]);
		keys[k].frame = pc000_hips_bob[k].frame;
		if (n == PC000_HIPS)
			vec3(keys[k].v, pc000_hips_bob[k].pos);
		else
			keys[k].v[0] = k == 1 ? -nd->swing : nd->swing;
	}
	struct ccsw_ctl_field *keyed = n == PC000_HIPS ? &c->field[0]
			     : nd->swing != 0 ? &c->field[1] : NULL;
	if (keyed) {
		keyed->mode = CCSW_KEYED;
		keyed->key_count = 3;
		keyed->keys = keys;
	}
	if (n == PC000_HIPS)
		constant(&c->field[3], 1, 0, 0);
	if (n == PC000_HEAD) {
		constant(&c->field[1], 0, 0, PC000_HEAD_TURN);
		constant(&c->field[2], PC000_HEAD_SCALE, PC000_HEAD_SCALE,
			 PC000_HEAD_SCALE);
	}
}

/* The material's U scrolls once over the clip; the omni light dims at
 * mid-stride; the sun is constant and its intensity absent. */
static void scene_ctls(const struct pc000_ids *id, struct ccsw_ctl c[3],
		       struct ccsw_key mat_keys[2], struct ccsw_key omni_keys[3])
{
	memset(c, 0, 3 * sizeof *c);
	memset(mat_keys, 0, 2 * sizeof *mat_keys);
	memset(omni_keys, 0, 3 * sizeof *omni_keys);
	c[0].kind = CCSW_CTL_MATERIAL;
	c[0].target = id->mat;
	for (unsigned k = 0; k < 2; k++) {
		mat_keys[k].frame = k * PC000_FRAMES;
		mat_keys[k].v[0] = pc000_mat_u[k];
	}
	c[0].field[0] = (struct ccsw_ctl_field){ .mode = CCSW_KEYED,
		.key_count = 2, .keys = mat_keys };
	c[1].kind = CCSW_CTL_OMNI;
	c[1].target = id->omni;
	constant(&c[1].field[0], pc000_omni_pos[0], pc000_omni_pos[1],
		 pc000_omni_pos[2]);
	c[1].field[2] = (struct ccsw_ctl_field){ .mode = CCSW_CONSTANT,
		.rgb = PC000_OMNI_RGB };
	for (unsigned k = 0; k < 3; k++) {
		omni_keys[k].frame = pc000_hips_bob[k].frame;
		omni_keys[k].v[0] = pc000_omni_intensity[k];
	}
	c[1].field[3] = (struct ccsw_ctl_field){ .mode = CCSW_KEYED,
		.key_count = 3, .keys = omni_keys };
	constant(&c[1].field[4], PC000_OMNI_FALLOFF_START, 0, 0);
	constant(&c[1].field[5], PC000_OMNI_FALLOFF_END, 0, 0);
	c[2].kind = CCSW_CTL_DISTANT;
	c[2].target = id->sun;
	constant(&c[2].field[1], pc000_sun_rot[0], pc000_sun_rot[1],
		 pc000_sun_rot[2]);
	c[2].field[2] = (struct ccsw_ctl_field){ .mode = CCSW_CONSTANT,
		.rgb = PC000_SUN_RGB };
}

static void add_walk(struct ccsw *w, const struct pc000_ids *id)
{
	struct ccsw_ctl ctl[PC000_NODES + 3];
	struct ccsw_key keys[PC000_NODES][3], mat_keys[2], omni_keys[3];
	for (unsigned n = 0; n < PC000_NODES; n++)
		node_ctl(id, n, &ctl[n], keys[n]);
	scene_ctls(id, ctl + PC000_NODES, mat_keys, omni_keys);
	struct ccsw_frame_rec rec[3];
	for (unsigned i = 0; i < 3; i++) {
		memset(&rec[i], 0, sizeof rec[i]);
		rec[i].frame = pc000_camera[i].frame;
		rec[i].kind = CCSW_F_CAMERA;
		rec[i].object = id->cam;
		rec[i].flag = pc000_camera[i].flag;
		memcpy(rec[i].values, pc000_camera[i].v, sizeof rec[i].values);
	}
	struct ccsw_anime_desc a = {
		.object = id->anm, .frames = PC000_FRAMES, .loop = true,
		.ctl_count = PC000_NODES + 3, .ctls = ctl,
		.rec_count = 3, .recs = rec,
	};
	ccsw_anime_write(w, &a);
}

static void pc000_objects(struct ccsw *w, uint32_t f, struct pc000_ids *id)
{
	id->clut = objectf(w, f, "CLT_pc000");
	id->tex = objectf(w, f, "TEX_pc000");
	id->mat = objectf(w, f, "MAT_pc000");
	for (unsigned n = 0; n < PC000_NODES; n++)
		id->nodes[n] = objectf(w, f, "OBJ_pc000_%s",
				       pc000_nodes[n].name);
	id->clump = objectf(w, f, "CMP_pc000");
	id->bone = objectf(w, f, "MDL_pc000_bone");
	id->skin = objectf(w, f, "MDL_pc000_skin");
	id->hat = objectf(w, f, "MDL_pc000_hat");
	id->hat_mmat = objectf(w, f, "MDL_pc000_hat_0");
	id->anm = objectf(w, f, "ANM_pc000_walk");
	id->cam = objectf(w, f, "CAM_pc000");
	id->omni = objectf(w, f, "LGT_pc000");
	id->sun = objectf(w, f, "LGT_pc000_sun");
}

/* A 32 x 32 8-bit checker and its palette. */
static void pc000_texture(struct ccsw *w, const struct pc000_ids *id)
{
	struct ccsw_clut c = { .object = id->clut, .flag = 1, .buf_x = 896,
			       .buf_y = 40, .count = 256, .seed = 33 };
	ccsw_clut(w, &c);
	struct ccsw_texture t = { .object = id->tex, .clut = id->clut,
				  .flag = 1, .psm = 0x13, .aref = 0x70,
				  .tw = 5, .th = 5, .buf_x = 768, .buf_y = 256,
				  .pattern = CCSW_PAT_CHECKER, .seed = 33,
				  .size_field = CCSW_SIZE_AUTO };
	ccsw_texture(w, &t);
	ccsw_material(w, id->mat, id->tex, 1.0f, 0, 0);
}

void sample_pc000(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("pc000", 0x100, &f);
	struct pc000_ids id;
	pc000_objects(w, f, &id);
	pc000_texture(w, &id);
	add_bone_model(w, &id);
	add_skin_model(w, &id);
	add_hat_model(w, &id);
	for (unsigned n = 0; n < PC000_NODES; n++) {
		int p = pc000_nodes[n].parent;
		uint32_t model = n == PC000_HIPS ? id.bone
			       : n == PC000_BODY ? id.skin
			       : n == PC000_HEAD ? id.hat : 0;
		ccsw_obj(w, id.nodes[n], p < 0 ? 0 : id.nodes[p], model, 0);
	}
	ccsw_clump(w, id.clump, PC000_NODES, id.nodes);
	ccsw_camera(w, id.cam);
	ccsw_light(w, id.omni, 4);
	ccsw_light(w, id.sun, 1);
	add_walk(w, &id);
	end_data_scene(w);
	put_scene(ao, "pc000.cmp", w, mtime);
}
