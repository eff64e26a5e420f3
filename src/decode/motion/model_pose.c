/* SPDX-License-Identifier: MIT */
/* model_pose.c - bone and skin vertices posed by their clump. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "decode/motion/model_pose.h"

static void skin_point(const struct model_mesh *m,
		       const struct model_vertex *v, const struct pose *p,
		       const struct pose_clump *c, double out[3], bool *agree)
{
	double first[3] = { 0, 0, 0 };
	bool same = true;
	out[0] = out[1] = out[2] = 0;
	for (uint32_t e = 0; e < v->entry_count &&
	     (uint64_t)v->first_entry + e < m->entry_count; e++) {
		const struct model_skin_entry *en = &m->entries[v->first_entry + e];
		double o[3];
		xform_point(pose_slot_world(p, c, en->node), en->pos, o);
		/* Agreement within a thousandth of the point's size: the
		 * entries are s16 positions, rounded each in its own node. */
		double tol = 1e-3 * (1 + fabs(o[0]) + fabs(o[1]) + fabs(o[2]));
		for (int i = 0; i < 3; i++) {
			out[i] += en->weight / 256.0 * o[i];
			if (e == 0)
				first[i] = o[i];
			same &= fabs(o[i] - first[i]) <= tol;
		}
	}
	if (agree)
		*agree = same;
}

void model_pose_vertex(const struct model_mesh *m,
		       const struct model_mmat *mm,
		       const struct model_vertex *v, const struct pose *p,
		       const struct pose_clump *c, double out[3], bool *agree)
{
	if (agree)
		*agree = true;
	if (mm->layout == MODEL_SKIN) {
		skin_point(m, v, p, c, out, agree);
	} else if (mm->layout == MODEL_BONE) {
		xform_point(pose_slot_world(p, c, v->node), v->pos, out);
	} else {
		for (int i = 0; i < 3; i++)
			out[i] = v->pos[i];
	}
}

void model_pose_normal(const struct model_vertex *v, const struct pose *p,
		       const struct pose_clump *c, float out[3])
{
	double n[3] = { v->normal[0], v->normal[1], v->normal[2] }, r[3];
	xform_turn(pose_slot_world(p, c, v->node), n, r);
	xform_unit(r, out);
}

int model_pose(struct model_mesh *m, const struct pose *p,
	       const struct pose_clump *c)
{
	m->posed_normal = calloc(m->vertex_count ? m->vertex_count : 1,
				 sizeof *m->posed_normal);
	if (!m->posed_normal)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->mmat_count; i++) {
		const struct model_mmat *mm = &m->mmats[i];
		bool turns = mm->layout == MODEL_BONE ||
			     mm->layout == MODEL_SKIN;
		for (uint32_t k = 0; turns && k < mm->vertex_count; k++) {
			uint32_t at = mm->first_vertex + k;
			struct model_vertex *v = &m->vertices[at];
			double o[3];
			model_pose_vertex(m, mm, v, p, c, o, NULL);
			model_pose_normal(v, p, c, m->posed_normal[at]);
			for (int a = 0; a < 3; a++)
				v->pos[a] = isfinite(o[a]) ? (float)o[a] : 0;
		}
	}
	return 0;
}

int model_pose_obj(const struct ccsf_scene *s, const uint8_t *data,
		   size_t len, uint32_t chunk, bool pose_it,
		   const struct model_env *env, struct strbuf *obj,
		   struct strbuf *mtl, struct reason *why)
{
	if (chunk >= s->chunk_count)
		return -EIO;
	const struct ccsf_chunk *ch = &s->chunks[chunk];
	if ((uint64_t)ch->offset + ch->length > len)
		return -EIO;
	struct model_mesh mesh;
	struct pose pose = { 0 };
	int rc = model_decode_as(data + ch->offset, ch->length, s->version,
				 obj != NULL, &mesh, why);
	pose_it = pose_it && (mesh.mtype & 4);
	if (rc == 0 && pose_it)
		rc = pose_build(s, data, len, &pose);
	if (rc == 0 && pose_it) {
		uint32_t owner = pose_owner_of(&pose, mesh.object);
		const struct pose_clump *c = pose_clump_of(&pose, owner);
		if (c && c->anime != POSE_NONE) {
			rc = model_pose(&mesh, &pose, c);
			const char *by = env->object_name(env->ctx,
					s->chunks[c->anime].object);
			mesh.posed_by = by ? by : "an Anime chunk";
		}
	}
	if (rc == 0)
		rc = model_mesh_obj(&mesh, env, obj, mtl);
	pose_free(&pose);
	model_mesh_free(&mesh);
	return rc;
}
