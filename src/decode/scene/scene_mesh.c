/* SPDX-License-Identifier: MIT */
/* scene_mesh.c - scene.glb's meshes: rigid models on their owner node,
 * bone and skin models skinned over their clump (doc/formats/scene-glb.md). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode/model/model.h"
#include "decode/motion/model_pose.h"
#include "decode/scene/scene_internal.h"

/* The vertex arrays of one primitive, and which attributes it has. */
struct prim {
	uint32_t count;
	float *pos, *normal, *uv, *weights;
	uint8_t *colour;        /* normalized bytes: 255 = 1.0 */
	uint16_t *joints;
	uint32_t *index;
	uint32_t index_count;
	bool has_normal, has_colour, has_uv, skinned;
	/* A measure: only the positions are made, for the bounds; the
	 * indices are only counted and the other attributes' bytes only
	 * summed, so their arrays stay NULL. */
	bool sizes_only;
};

static float fin(float f)
{
	return isfinite(f) ? f : 0;
}

static void prim_free(struct prim *p)
{
	free(p->pos);
	free(p->normal);
	free(p->colour);
	free(p->uv);
	free(p->weights);
	free(p->joints);
	free(p->index);
	memset(p, 0, sizeof *p);
}

static int prim_alloc(struct prim *p, const struct model_mmat *mm,
		      bool skinned, bool sizes_only)
{
	size_t n = mm->vertex_count ? mm->vertex_count : 1;
	memset(p, 0, sizeof *p);
	p->count = mm->vertex_count;
	p->has_normal = mm->has_normal;
	p->has_colour = mm->has_colour;
	p->has_uv = mm->has_st;
	p->skinned = skinned;
	p->sizes_only = sizes_only;
	p->pos = malloc(n * 3 * sizeof(float));
	if (!p->pos)
		return -ENOMEM;
	if (sizes_only)
		return 0;
	p->index = malloc((mm->face_count ? mm->face_count : 1) * 3 *
			  sizeof(uint32_t));
	p->normal = p->has_normal ? malloc(n * 3 * sizeof(float)) : NULL;
	p->colour = p->has_colour ? malloc(n * 4) : NULL;
	p->uv = p->has_uv ? malloc(n * 2 * sizeof(float)) : NULL;
	if (skinned) {
		p->joints = calloc(n * 4, sizeof(uint16_t));
		p->weights = calloc(n * 4, sizeof(float));
	}
	if (!p->index || (p->has_normal && !p->normal) ||
	    (p->has_colour && !p->colour) ||
	    (p->has_uv && !p->uv) || (skinned && (!p->joints || !p->weights)))
		return -ENOMEM;
	return 0;
}

/* What every vertex carries besides its place: normal (turned by `turn`
 * when skinned), colour (0x80 = 1.0) and ST (T = 0 is the bottom row). */
static void put_attributes(struct prim *p, uint32_t k,
			   const struct model_vertex *v, const double *turn)
{
	if (p->sizes_only)
		return;
	if (p->normal) {
		double n[3] = { v->normal[0], v->normal[1], v->normal[2] }, r[3];
		/* s8 / 64 and not unit length; glTF wants unit. */
		xform_turn(turn, n, r);
		xform_unit(r, p->normal + 3 * k);
	}
	/* 0x80 is 1.0: twice the byte, clamped, as the PNG's alpha is. */
	for (int i = 0; p->colour && i < 4; i++)
		p->colour[4 * k + i] = v->colour[i] >= 0x80 ? 255
				       : (uint8_t)(2 * v->colour[i]);
	if (p->uv) {
		p->uv[2 * k] = v->st[0] / 256.0f;
		p->uv[2 * k + 1] = 1.0f - v->st[1] / 256.0f;
	}
}

/* The mmat's triangles as indices into its own vertices (a measure
 * only counts them). */
static void put_faces(struct prim *p, const struct model_mesh *m,
		      const struct model_mmat *mm)
{
	for (uint32_t f = 0; f < mm->face_count; f++) {
		const uint32_t *t = m->faces[mm->first_face + f];
		bool inside = true;
		for (int i = 0; i < 3; i++)
			inside &= t[i] >= mm->first_vertex &&
				  t[i] - mm->first_vertex < mm->vertex_count;
		if (p->sizes_only) {
			p->index_count += inside ? 3 : 0;
			continue;
		}
		for (int i = 0; inside && i < 3; i++)
			p->index[p->index_count++] = t[i] - mm->first_vertex;
	}
}

/* ,"name":index */
static void put_key_index(struct strbuf *o, const char *name, uint32_t index)
{
	sb_puts(o, ",\"");
	sb_puts(o, name);
	sb_puts(o, "\":");
	sb_put_u64(o, index);
}

/* An attribute the primitive has (v NULL when measuring: its bytes are
 * only counted). */
static void put_attribute(struct scene_build *b, struct strbuf *o,
			  const char *name, bool has, const float *v,
			  uint32_t n, unsigned ncomp, bool bounds)
{
	if (!has)
		return;
	put_key_index(o, name, glb_floats(&b->g, v, n, ncomp, bounds,
					  GLB_ARRAY_BUFFER));
}

/* A VEC4 attribute of bytes or shorts (ctype), when it has one. */
static void put_vec4_ints(struct scene_build *b, struct strbuf *o,
			  const char *name, bool has, const void *v,
			  uint32_t n, int ctype, bool normalized)
{
	if (!has)
		return;
	uint32_t view = glb_view(&b->g, v, (size_t)n * 4 *
				 (ctype == GLB_U8 ? 1 : 2), GLB_ARRAY_BUFFER);
	put_key_index(o, name, glb_accessor(&b->g, view, ctype, n, "VEC4",
					    normalized, NULL, NULL, 0));
}

/* One primitive's JSON but its closing brace, its data added to the
 * buffer. */
static void put_primitive(struct scene_build *b, struct strbuf *o,
			  struct prim *p, uint32_t material, bool first)
{
	sb_puts(o, first ? "{\"attributes\":{" : ",{\"attributes\":{");
	sb_printf(o, "\"POSITION\":%" PRIu32,
		  glb_floats(&b->g, p->pos, p->count, 3, true, GLB_ARRAY_BUFFER));
	put_attribute(b, o, "NORMAL", p->has_normal, p->normal, p->count, 3,
		      false);
	put_vec4_ints(b, o, "COLOR_0", p->has_colour, p->colour, p->count,
		      GLB_U8, true);
	put_attribute(b, o, "TEXCOORD_0", p->has_uv, p->uv, p->count, 2,
		      false);
	put_vec4_ints(b, o, "JOINTS_0", p->skinned, p->joints, p->count,
		      GLB_U16, false);
	put_attribute(b, o, "WEIGHTS_0", p->skinned, p->weights, p->count, 4,
		      false);
	/* Indices in 16 bits where the vertices allow: half the bytes. */
	bool narrow = p->count <= 65535;
	if (narrow && !p->sizes_only) {
		/* In place: entry i is read before bytes 2i..2i+1 change. */
		uint8_t *o16 = (uint8_t *)p->index;
		for (uint32_t i = 0; i < p->index_count; i++) {
			uint16_t x = (uint16_t)p->index[i];
			memcpy(o16 + 2 * (size_t)i, &x, 2);
		}
	}
	uint32_t v = glb_view(&b->g, p->index, (size_t)p->index_count *
			      (narrow ? 2 : 4), GLB_INDEX_BUFFER);
	sb_printf(o, "},\"indices\":%" PRIu32, glb_accessor(&b->g, v,
		  narrow ? GLB_U16 : GLB_U32, p->index_count, "SCALAR", false,
		  NULL, NULL, 0));
	if (material != GNONE)
		sb_printf(o, ",\"material\":%" PRIu32, material);
}

/* mesh_of's mark for a model made as a skinned mesh of its own node. */
#define SKINNED (GNONE - 1)

/* Where a mesh's vertices go: the skinned case knows the clump, in the
 * pose of the part the model is in. */
struct placing {
	const struct pose *pose;
	const struct pose_clump *clump;
	uint16_t *joint_of_slot;        /* per slot: index in the skin */
};

static void put_weights(struct prim *p, uint32_t k, uint16_t *j, double *w,
			unsigned n);

/* A bone vertex: its node's joint, the whole weight. */
static void place_bone(const struct placing *pl, const struct model_mesh *m,
		       const struct model_mmat *mm, struct prim *p, uint32_t k,
		       const struct model_vertex *v)
{
	double o[3], one = 1;
	model_pose_vertex(m, mm, v, pl->pose, pl->clump, o, NULL);
	for (int i = 0; i < 3; i++)
		p->pos[3 * k + i] = fin((float)o[i]);
	uint16_t joint = v->node < pl->clump->count
			 ? pl->joint_of_slot[v->node] : 0;
	put_weights(p, k, &joint, &one, 1);
	put_attributes(p, k, v, pose_slot_world(pl->pose, pl->clump, v->node));
}

/* Up to four joints, heaviest first, weights summing to one. */
static void put_weights(struct prim *p, uint32_t k, uint16_t *j, double *w,
			unsigned n)
{
	if (p->sizes_only)
		return;
	double sum = 0;
	for (unsigned t = 0; t < 4 && t < n; t++) {
		unsigned best = t;
		for (unsigned u = t + 1; u < n; u++)
			if (w[u] > w[best])
				best = u;
		double tw = w[t];
		uint16_t tj = j[t];
		w[t] = w[best];
		j[t] = j[best];
		w[best] = tw;
		j[best] = tj;
		p->joints[4 * k + t] = j[t];
		p->weights[4 * k + t] = (float)w[t];
		sum += w[t];
	}
	if (!(sum > 0)) {
		memset(p->weights + 4 * k, 0, 4 * sizeof(float));
		p->weights[4 * k] = 1;
		return;
	}
	for (int t = 0; t < 4; t++)
		p->weights[4 * k + t] = (float)(p->weights[4 * k + t] / sum);
}

/* A skin vertex at the weighted sum of its entries, its joints merged
 * per node; its normal turns with the node of the entry it came from. */
static void place_skin(struct scene_build *b, const struct placing *pl,
		       const struct model_mesh *m, const struct model_mmat *mm,
		       struct prim *p, uint32_t k, const struct model_vertex *v)
{
	uint16_t joint[64];
	double weight[64], o[3];
	unsigned n = 0;
	bool agree;
	model_pose_vertex(m, mm, v, pl->pose, pl->clump, o, &agree);
	for (uint32_t e = 0; e < v->entry_count &&
	     (uint64_t)v->first_entry + e < m->entry_count; e++) {
		const struct model_skin_entry *en = &m->entries[v->first_entry + e];
		uint16_t j = en->node < pl->clump->count
			     ? pl->joint_of_slot[en->node] : 0;
		unsigned u = 0;
		while (u < n && joint[u] != j)
			u++;
		if (u == n && n < 64) {
			joint[n] = j;
			weight[n++] = 0;
		}
		if (u < n)
			weight[u] += en->weight / 256.0;
	}
	if (!agree)
		b->disagreeing++;
	for (int i = 0; i < 3; i++)
		p->pos[3 * k + i] = fin((float)o[i]);
	put_weights(p, k, joint, weight, n);
	put_attributes(p, k, v, pose_slot_world(pl->pose, pl->clump, v->node));
}

/* A vertex as it stands; a posed model (model_pose) brings its turned
 * normal. */
static void place_rigid(struct prim *p, uint32_t k, const struct model_vertex *v,
			const float *posed_normal)
{
	for (int i = 0; i < 3; i++)
		p->pos[3 * k + i] = fin(v->pos[i]);
	put_attributes(p, k, v, NULL);
	for (int i = 0; posed_normal && p->normal && !p->sizes_only && i < 3; i++)
		p->normal[3 * k + i] = posed_normal[i];
}

/* The mesh's JSON and data; GNONE when no mmat has a triangle.  Only
 * the main file's morphers are made, so only its models have targets. */
static uint32_t add_mesh(struct scene_build *b, struct scene_part *part,
			 const struct model_mesh *m, const struct placing *pl,
			 const char *name)
{
	struct strbuf prims = STRBUF_INIT;
	bool unlit = m->mtype == 0, first = true;
	struct morph_mesh targets = { 0 };
	if (part == scene_main(b))
		scene_morph_begin(b, m, pl != NULL, &targets);
	for (uint32_t i = 0; i < m->mmat_count; i++) {
		const struct model_mmat *mm = &m->mmats[i];
		struct prim p;
		if (prim_alloc(&p, mm, pl != NULL, b->g.measure) < 0) {
			b->failed = true;
			prim_free(&p);
			break;
		}
		for (uint32_t k = 0; k < mm->vertex_count; k++) {
			const struct model_vertex *v = &m->vertices[mm->first_vertex + k];
			if (!pl)
				place_rigid(&p, k, v, m->posed_normal
					    ? m->posed_normal[mm->first_vertex + k]
					    : NULL);
			else if (mm->layout == MODEL_SKIN)
				place_skin(b, pl, m, mm, &p, k, v);
			else
				place_bone(pl, m, mm, &p, k, v);
		}
		put_faces(&p, m, mm);
		if (p.index_count) {
			unsigned flags = (unlit ? SCENE_MAT_UNLIT : 0) |
					 (p.has_uv ? 0 : SCENE_MAT_NO_UV);
			put_primitive(b, &prims, &p, scene_material(b, part,
				      mm->material, flags), first);
			scene_morph_prim(b, &targets, m, i, pl ? pl->clump : NULL,
					 &prims);
			sb_puts(&prims, "}");
		}
		first &= !p.index_count;
		prim_free(&p);
	}
	uint32_t mesh = GNONE;
	if (!first) {
		mesh = glb_item(&b->meshes);
		sb_puts(&b->meshes.text, "{\"name\":");
		json_string(&b->meshes.text, name);
		sb_puts(&b->meshes.text, ",\"primitives\":[");
		sb_append(&b->meshes.text, prims.data, prims.len);
		sb_puts(&b->meshes.text, "]");
		scene_morph_mesh(b, &targets, &b->meshes.text);
		sb_puts(&b->meshes.text, "}");
	}
	scene_morph_end(&targets, mesh);
	b->failed |= prims.failed;
	sb_free(&prims);
	return mesh;
}

/* The skin: its joints are the clump's nodes, each once, their inverse
 * bind matrices the inverses of their frame-0 world. */
static uint32_t add_skin(struct scene_build *b, const struct scene_part *part,
			 const struct pose_clump *c, uint16_t *joint_of_slot,
			 const char *name)
{
	uint32_t *joints = malloc((c->count + 1) * sizeof *joints);
	float *ibm = malloc((c->count + 1) * 16 * sizeof *ibm);
	uint32_t n = 0;
	if (!joints || !ibm) {
		free(joints);
		free(ibm);
		b->failed = true;
		return GNONE;
	}
	for (uint32_t s = 0; s < c->count; s++) {
		uint32_t g = gnode_of_pose(part, c->nodes[s]), u = 0;
		while (u < n && joints[u] != g)
			u++;
		joint_of_slot[s] = (uint16_t)u;
		if (u < n)
			continue;
		joints[n] = g;
		xform inv;
		if (!xform_invert(inv, pose_slot_world(&part->pose, c, s)))
			scene_left_out(b, "%s: joint %" PRIu32 " has no inverse "
				       "at frame 0 (a scale of 0)", name, s);
		for (int i = 0; i < 16; i++)
			ibm[16 * n + i] = fin((float)inv[i]);
		ibm[16 * n + 3] = ibm[16 * n + 7] = ibm[16 * n + 11] = 0;
		ibm[16 * n + 15] = 1;
		n++;
	}
	uint32_t view = glb_view(&b->g, ibm, (size_t)n * 64, 0);
	uint32_t acc = glb_accessor(&b->g, view, GLB_F32, n, "MAT4", false,
				    NULL, NULL, 0);
	uint32_t skin = glb_item(&b->skins);
	struct strbuf *o = &b->skins.text;
	sb_puts(o, "{\"name\":");
	json_string(o, name);
	sb_printf(o, ",\"inverseBindMatrices\":%" PRIu32 ",\"joints\":[", acc);
	for (uint32_t i = 0; i < n; i++)
		sb_printf(o, "%s%" PRIu32, i ? "," : "", joints[i]);
	sb_puts(o, "]}");
	free(joints);
	free(ibm);
	return skin;
}

/* A bone or skin model: a node of its own at the scene's top, since glTF
 * places a skinned mesh by its joints alone. */
static void add_skinned(struct scene_build *b, struct scene_part *part,
			const struct model_mesh *m, const struct pose_clump *c,
			const char *name)
{
	uint16_t *joint_of_slot = calloc(c->count + 1, sizeof *joint_of_slot);
	if (!joint_of_slot) {
		b->failed = true;
		return;
	}
	struct placing pl = { &part->pose, c, joint_of_slot };
	uint32_t skin = add_skin(b, part, c, joint_of_slot, name);
	uint32_t mesh = skin == GNONE ? GNONE : add_mesh(b, part, m, &pl, name);
	if (mesh != GNONE) {
		uint32_t g = scene_add_node(b, name, GNONE);
		if (g != GNONE) {
			b->nodes[g].mesh = mesh;
			b->nodes[g].skin = skin;
		}
	}
	free(joint_of_slot);
}

/* A bone or skin model made rigid: posed at frame 0 by the clump of
 * its owner in its own file, as model.obj places it (left as it is when
 * that clump has no Anime chunk). */
static uint32_t add_posed(struct scene_build *b, struct scene_part *part,
			  struct model_mesh *m, const char *name)
{
	const struct pose *p = &part->pose;
	const struct pose_clump *c = pose_clump_of(p, pose_owner_of(p, m->object));
	if (c && c->anime != POSE_NONE && model_pose(m, p, c) < 0) {
		b->failed = true;
		return GNONE;
	}
	return add_mesh(b, part, m, NULL, name);
}

/* The mesh of part's model, made once: GNONE when there is none, or
 * SKINNED when it is a skinned mesh of its own node (over cl, the
 * clump of the node that owns it, when it has one).  Without cl, a
 * bone or skin model is posed and made rigid when `posed` is set.
 * Shadow models are left to model.obj. */
static uint32_t model_mesh(struct scene_build *b, struct scene_part *part,
			   uint32_t model, const struct pose_clump *cl,
			   bool posed)
{
	const struct scene_source *src = &part->src;
	uint32_t chunk;
	if (!model || model >= src->s->object_count ||
	    ccsf_find_owned(src->s, CCSF_MODEL, model, &chunk) < 0)
		return GNONE;
	const struct ccsf_chunk *c = &src->s->chunks[chunk];
	const char *name = scene_part_name(part, model);
	uint32_t *mesh_of = &part->mesh_of[model];
	if ((uint64_t)c->offset + c->length > src->len || *mesh_of == SKINNED)
		return *mesh_of;
	if (*mesh_of == GNONE) {
		struct model_mesh m;
		struct reason why = { "" };
		int rc = model_decode(src->data + c->offset, c->length,
				      src->s->version, &m, &why);
		bool skinned = (m.mtype & 4) && cl;
		if (rc == -ENOMEM)
			b->failed = true;
		else if (rc < 0)
			scene_left_out(b, "%s: %s", name, why.text);
		else if (m.mtype & 8)
			skinned = false;        /* shadows stay in model.obj */
		else if (skinned)
			add_skinned(b, part, &m, cl, name);
		else if (posed && (m.mtype & 4))
			*mesh_of = add_posed(b, part, &m, name);
		else
			*mesh_of = add_mesh(b, part, &m, NULL, name);
		model_mesh_free(&m);
		if (skinned)
			*mesh_of = SKINNED;
	}
	return *mesh_of;
}

/* Node n's model on its gnode (a skinned one on a node of its own). */
static void add_node_model(struct scene_build *b, struct scene_part *part,
			   uint32_t n)
{
	if (part->gnode_of[n] == GNONE)
		return;
	uint32_t mesh = model_mesh(b, part, part->pose.nodes[n].model,
				   pose_clump_of(&part->pose, n), false);
	if (mesh != SKINNED)
		b->nodes[part->gnode_of[n]].mesh = mesh;
}

/* A cutscene in the game's layout: each node of the scene file shows
 * the model its chain reached.  A bone or skin model is posed at frame
 * 0 by its own file's clump and made rigid under the node, so that the
 * node's records move it whole (the scene file's clump is not made). */
static void add_game_models(struct scene_build *b)
{
	for (uint32_t i = 0; i < b->cut.count && !b->failed; i++) {
		const struct scene_node *n = &b->cut.nodes[i];
		uint32_t g = b->game_gnode + i;
		if (n->model.source >= b->part_count)
			continue;
		struct scene_part *part = &b->parts[n->model.source];
		uint32_t mesh = model_mesh(b, part, n->model.object, NULL,
					   true);
		if (mesh != SKINNED)
			b->nodes[g].mesh = mesh;
	}
}

int scene_add_meshes(struct scene_build *b)
{
	if (b->game) {
		add_game_models(b);
		return b->failed ? -ENOMEM : 0;
	}
	for (uint32_t k = 0; k < b->part_count; k++)
		for (uint32_t n = 0; n < b->parts[k].pose.node_count &&
		     !b->failed; n++)
			add_node_model(b, &b->parts[k], n);
	return b->failed ? -ENOMEM : 0;
}
