/* SPDX-License-Identifier: MIT */
/* model_obj.c - a decoded model mesh as Wavefront OBJ (model.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ccsf/layout.h"
#include "decode/model/model.h"
#include "decode/model/obj_fmt.h"
#include "decode/model/model_mtl.h"
#include "util/numfmt.h"

struct writer {
	const struct model_mesh *m;
	const struct model_env *env;
	struct strbuf *obj;
	struct material_set mats;
	uint32_t vt_count, vn_count;    /* written so far (v = vertices) */
	/* The length of every f line of the mmat being written when all
	 * have one (mmat_face_len), else 0. */
	size_t face_len;
	/* The face numbers written last, by number mod 4: a strip's faces
	 * share two corners with the one before, so each number of a strip
	 * is formatted once, not three times.  v 0 is empty (OBJ counts
	 * from 1).  The text is "N/N/N", the whole corner where a vertex's
	 * vt and vn numbers are its own; its first n bytes are N. */
	struct face_number {
		uint64_t v;
		char text[48];          /* "N/N/N", N up to 10 digits, 16
					   bytes copied past each */
		size_t n;
	} recent[4];
};

/* The longest corner "N/N/N" (N below 2^32 + 1: ten digits), and what
 * put_corner copies at once. */
#define CORNER_COPY 32

/* v's text (16 bytes to read, CORNER_COPY for the corner) and the
 * length of the number. */
static const char *face_number(struct writer *w, uint64_t v, size_t *n)
{
	struct face_number *r = &w->recent[v & 3];
	if (r->v != v) {
		char num[16];
		char *e = numfmt_uint(num, v);
		size_t k = (size_t)(e - num);
		r->v = v;
		r->n = k;
		memcpy(r->text, num, 16);
		r->text[k] = '/';
		memcpy(r->text + k + 1, num, 16);
		r->text[2 * k + 1] = '/';
		memcpy(r->text + 2 * k + 2, num, 16);
	}
	*n = r->n;
	return r->text;
}

/* A line's numbers, or only their lengths when the text is counted
 * (sb_counts_only): what lies at o then means nothing. */
static char *put_float(char *o, bool count, float f)
{
	return count ? o + floatfmt_shortest_len(f) : floatfmt_shortest(o, f);
}

static char *put_byte(char *o, bool count, const struct fixfmt_text *t)
{
	return count ? o + t->len : fixfmt_put(o, t);
}

static void put_v(struct strbuf *sb, const struct model_vertex *v,
		  bool colour)
{
	char *s = obj_line_start(sb);
	if (!s)
		return;
	bool count = sb_counts_only(sb);
	char *o = s;
	*o++ = 'v';
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = put_float(o, count, v->pos[i]);
	}
	for (int i = 0; colour && i < 3; i++) {
		*o++ = ' ';
		o = put_byte(o, count, &obj_colour_text[v->colour[i]]);
	}
	sb_line_done(sb, s, o);
}

static void put_vt(struct strbuf *sb, const struct model_vertex *v)
{
	char *s = obj_line_start(sb);
	if (!s)
		return;
	bool count = sb_counts_only(sb);
	char *o = s;
	*o++ = 'v';
	*o++ = 't';
	for (int i = 0; i < 2; i++) {
		*o++ = ' ';
		o = count ? o + fixfmt_256ths_len(v->st[i])
			  : fixfmt_put_256ths(o, v->st[i]);
	}
	sb_line_done(sb, s, o);
}

/* As stored (s8 / 64), or turned with the pose when posed (given). */
static void put_vn(struct strbuf *sb, const struct model_vertex *v,
		   const float *posed)
{
	char *s = obj_line_start(sb);
	if (!s)
		return;
	bool count = sb_counts_only(sb);
	char *o = s;
	*o++ = 'v';
	*o++ = 'n';
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = posed ? put_float(o, count, posed[i])
			  : put_byte(o, count, &obj_normal_text[
					(uint8_t)v->normal[i]]);
	}
	sb_line_done(sb, s, o);
}

/* An index of a face corner, copied from its text in num (n digits, 16
 * bytes to read; only skipped when the text is counted): a corner's vt
 * and vn are mostly its v's number. */
static char *put_same_index(char *o, const char *num, size_t n, bool count)
{
	if (!count)
		memcpy(o, num, 16);
	return o + n;
}

/* The whole corner "N/N/N" (len bytes) from face_number's text. */
static char *put_corner(char *o, const char *text, size_t len, bool count)
{
	if (!count)
		memcpy(o, text, CORNER_COPY);
	return o + len;
}

/* Whether a corner's vt and vn numbers are its v number: the mmats
 * before this one had every array, and so has this one. */
static bool corner_is_own(const struct model_mmat *mm, uint32_t vt_base,
			  uint32_t vn_base)
{
	return mm->has_st && mm->has_normal && vt_base == mm->first_vertex &&
	       vn_base == mm->first_vertex;
}

/* The length of put_f's line without its newline, for a text only
 * counted: the corners' numbers are not formatted. */
static size_t f_len(const struct model_mmat *mm, const uint32_t f[3],
		    uint32_t vt_base, uint32_t vn_base)
{
	bool same = corner_is_own(mm, vt_base, vn_base);
	size_t n = 1 + 3;       /* 'f', a space before each corner */
	for (int k = 0; k < 3; k++) {
		uint32_t local = f[k] - mm->first_vertex;
		size_t v = numfmt_uint_len((uint64_t)f[k] + 1);
		if (same) {     /* "N/N/N" */
			n += 3 * v + 2;
			continue;
		}
		n += v;
		n += mm->has_st || mm->has_normal;
		if (mm->has_st)
			n += numfmt_uint_len((uint64_t)vt_base + local + 1);
		if (mm->has_normal)
			n += 1 + numfmt_uint_len((uint64_t)vn_base + local + 1);
	}
	return n;
}

/* `f a/b/c ...` in the form the mmat's arrays allow.  When the mmats
 * before this one had every array, a corner's vt and vn numbers are its
 * v number, and the corner is copied whole rather than formatted again:
 * an OBJ holds more face numbers than floats. */
static void put_f(struct writer *w, const struct model_mmat *mm,
		  const uint32_t f[3], uint32_t vt_base, uint32_t vn_base)
{
	char *s = obj_line_start(w->obj);
	if (!s)
		return;
	bool count = sb_counts_only(w->obj);
	if (count) {
		sb_line_done(w->obj, s, s + (w->face_len ? w->face_len :
				f_len(mm, f, vt_base, vn_base)));
		return;
	}
	bool same = corner_is_own(mm, vt_base, vn_base);
	char *o = s;
	*o++ = 'f';
	for (int k = 0; k < 3; k++) {
		*o++ = ' ';
		uint64_t v = (uint64_t)f[k] + 1;
		size_t n;
		const char *num = face_number(w, v, &n);
		if (same) {
			o = put_corner(o, num, 3 * n + 2, count);
			continue;
		}
		o = put_same_index(o, num, n, count);
		uint32_t local = f[k] - mm->first_vertex;
		uint64_t vt = (uint64_t)vt_base + local + 1;
		uint64_t vn = (uint64_t)vn_base + local + 1;
		if (mm->has_st || mm->has_normal)
			*o++ = '/';
		if (mm->has_st)
			o = vt == v ? put_same_index(o, num, n, count)
				    : numfmt_uint_or_skip(o, vt, count);
		if (mm->has_normal) {
			*o++ = '/';
			o = vn == v ? put_same_index(o, num, n, count)
				    : numfmt_uint_or_skip(o, vn, count);
		}
	}
	sb_line_done(w->obj, s, o);
}

/* The node slot a bone or skin face is grouped under: that of the vertex
 * that completes it. */
static uint32_t face_node(const struct model_mesh *m, const uint32_t f[3])
{
	return m->vertices[f[2]].node;
}

static void put_group(struct writer *w, const char *name, uint32_t node)
{
	sb_puts(w->obj, "g ");
	obj_put_name(w->obj, name);
	sb_printf(w->obj, "_node%" PRIu32 "\n", node);
}

/* Bone and skin faces, one group per clump node slot (skin slots are 6
 * bits, a bone's node word may be anything, so each slot is found by
 * scanning: a mmat has few). */
static void put_node_faces(struct writer *w, const struct model_mmat *mm,
			   const char *name, uint32_t vt_base,
			   uint32_t vn_base)
{
	const struct model_mesh *m = w->m;
	const uint32_t (*faces)[3] = (const uint32_t (*)[3])m->faces +
				     mm->first_face;
	uint64_t done = 0;      /* skin: slots written, bit per slot */
	for (uint32_t i = 0; i < mm->face_count; i++) {
		uint32_t node = face_node(m, faces[i]);
		if (mm->layout == MODEL_BONE ? i > 0 : (done >> node) & 1)
			continue;
		done |= mm->layout == MODEL_SKIN ? 1ull << node : 0;
		put_group(w, name, node);
		for (uint32_t j = i; j < mm->face_count; j++)
			if (face_node(m, faces[j]) == node)
				put_f(w, mm, faces[j], vt_base, vn_base);
	}
}

/* `o` and `usemtl` for a mmat; returns its name. */
static const char *put_mmat_head(struct writer *w,
				 const struct model_mmat *mm, uint32_t index,
				 char *fallback, size_t fallback_len)
{
	const char *name = mm->layout == MODEL_RIGID && mm->name ?
		obj_env_name(w->env, mm->name) : NULL;
	snprintf(fallback, fallback_len, "mmat%" PRIu32, index);
	if (!name || !*name) {
		if (mm->layout == MODEL_RIGID && mm->name)
			sb_printf(w->obj, "# left out: the name of mmat %"
				  PRIu32 ": object %" PRIu32 " is unknown\n",
				  index, mm->name);
		name = fallback;
	}
	sb_puts(w->obj, "o ");
	obj_put_name(w->obj, name);
	sb_puts(w->obj, "\n");
	if (mm->layout == MODEL_SHADOW || !mm->material)
		return name;
	const struct material_use *u = model_mtl_use(&w->mats, w->env,
						     mm->material);
	if (u->name) {
		sb_puts(w->obj, "usemtl ");
		obj_put_name(w->obj, u->name);
		sb_puts(w->obj, "\n");
	} else {
		sb_printf(w->obj, "# left out: usemtl: material %" PRIu32
			  " of mmat %" PRIu32 " %s\n", mm->material, index,
			  u->why);
	}
	return name;
}

/* ---- counting ---------------------------------------------------------
 *
 * A listing only counts a model.obj: a mmat's vertex and rigid face
 * lines are summed, not put line by line (put_v, put_vt, put_vn and
 * put_f write what each sum counts; the tests measure every OBJ they
 * make). */

/* The length of each f line of the mmat (newline left out), when every
 * one has the same: its v, vt and vn numbers each keep one width over
 * the mmat's vertices, as in most mmats.  0 when they do not. */
static size_t mmat_face_len(const struct model_mmat *mm, uint32_t vt_base,
			    uint32_t vn_base)
{
	if (!mm->vertex_count)
		return 0;
	uint32_t first[3] = { mm->first_vertex, vt_base, vn_base };
	bool has[3] = { true, mm->has_st, mm->has_normal };
	size_t width[3] = { 0, 0, 0 };
	for (int k = 0; k < 3; k++) {
		uint64_t lo = (uint64_t)first[k] + 1;
		width[k] = numfmt_uint_len(lo);
		if (has[k] && numfmt_uint_len(lo + mm->vertex_count - 1) !=
			      width[k])
			return 0;
	}
	/* put_f's corner: v, then "/vt", "/vt/vn" or "//vn". */
	size_t corner = width[0] + (mm->has_st || mm->has_normal) +
			(mm->has_st ? width[1] : 0) +
			(mm->has_normal ? 1 + width[2] : 0);
	return 1 + 3 * (1 + corner);
}

/* The v, vt and vn lines of a mmat (posed normals when given). */
static uint64_t vertex_lines_len(const struct model_vertex *v,
				 const struct model_mmat *mm,
				 const float (*posed)[3])
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < mm->vertex_count; i++, v++) {
		n += 1 + 1;     /* 'v', the newline */
		for (int k = 0; k < 3; k++)
			n += 1 + floatfmt_shortest_len(v->pos[k]);
		for (int k = 0; mm->has_colour && k < 3; k++)
			n += 1 + obj_colour_text[v->colour[k]].len;
		if (mm->has_st)
			n += 2 + 2 + 1 + fixfmt_256ths_len(v->st[0]) +
			     fixfmt_256ths_len(v->st[1]);
		if (!mm->has_normal)
			continue;
		n += 2 + 3 + 1;
		for (int k = 0; k < 3; k++)
			n += posed ? floatfmt_shortest_len(posed[i][k])
				   : obj_normal_text[(uint8_t)v->normal[k]].len;
	}
	return n;
}

static void put_mmat(struct writer *w, const struct model_mmat *mm,
		     uint32_t index)
{
	const struct model_mesh *m = w->m;
	char fallback[24];
	const char *name = put_mmat_head(w, mm, index, fallback,
					 sizeof fallback);
	const struct model_vertex *v = m->vertices + mm->first_vertex;
	bool turned = w->m->posed_normal &&
		      (mm->layout == MODEL_BONE || mm->layout == MODEL_SKIN);
	const float (*posed)[3] = turned ? (const float (*)[3])
		w->m->posed_normal + mm->first_vertex : NULL;
	bool count = sb_counts_only(w->obj);
	if (count) {
		sb_count(w->obj, vertex_lines_len(v, mm, posed));
	} else {
		for (uint32_t i = 0; i < mm->vertex_count; i++)
			put_v(w->obj, &v[i], mm->has_colour);
		for (uint32_t i = 0; mm->has_st && i < mm->vertex_count; i++)
			put_vt(w->obj, &v[i]);
		for (uint32_t i = 0; mm->has_normal && i < mm->vertex_count;
		     i++)
			put_vn(w->obj, &v[i], posed ? posed[i] : NULL);
	}
	uint32_t vt_base = w->vt_count, vn_base = w->vn_count;
	w->vt_count += mm->has_st ? mm->vertex_count : 0;
	w->vn_count += mm->has_normal ? mm->vertex_count : 0;
	w->face_len = count ? mmat_face_len(mm, vt_base, vn_base) : 0;
	if (mm->layout == MODEL_BONE || mm->layout == MODEL_SKIN) {
		put_node_faces(w, mm, name, vt_base, vn_base);
	} else if (w->face_len) {       /* counted, every line one length */
		sb_count(w->obj, (uint64_t)mm->face_count * (w->face_len + 1));
	} else {
		for (uint32_t i = 0; i < mm->face_count; i++)
			put_f(w, mm, m->faces[mm->first_face + i], vt_base,
			      vn_base);
	}
	if (mm->note_len)       /* notes.data is NULL until a note */
		sb_append(w->obj, m->notes.data + mm->note_start,
			  mm->note_len);
}

static void put_obj_head(struct writer *w)
{
	const struct model_mesh *m = w->m;
	const char *name = obj_env_name(w->env, m->object);
	char scale[OBJ_NUMBER_ROOM];
	*floatfmt_shortest(scale, m->vertex_scale) = '\0';
	sb_puts(w->obj, "# model ");
	obj_put_name(w->obj, name ? name : "?");
	sb_printf(w->obj, " (object %" PRIu32 "), mtype 0x%x, %" PRIu32
		  " mmats, vertexScale %s\nmtllib model.mtl\n", m->object,
		  m->mtype, m->mmats_declared, scale);
	if (ccsf_mmat_kind_of(m->mtype, 0) == CCSF_MMAT_BONE && m->posed_by) {
		sb_puts(w->obj, "# bone and skin vertices and normals are posed in world "
			"space at frame 0 of ");
		obj_put_name(w->obj, m->posed_by);
		sb_puts(w->obj, ": group <mmat>_nodeN holds the faces of node "
			"slot N\n");
	} else if (ccsf_mmat_kind_of(m->mtype, 0) == CCSF_MMAT_BONE)
		sb_puts(w->obj, "# bone and skin vertices are unposed, in the "
			"space of their clump node: group <mmat>_nodeN holds "
			"the faces of node slot N\n");
}

#define OBJ_RESERVE_MAX ((size_t)64 << 20)

/* model.mtl alone: the materials in the order put_mmat_head meets them. */
static int mtl_only(struct writer *w, struct strbuf *mtl)
{
	for (uint32_t i = 0; i < w->m->mmat_count; i++) {
		const struct model_mmat *mm = &w->m->mmats[i];
		if (mm->layout != MODEL_SHADOW && mm->material)
			(void)model_mtl_use(&w->mats, w->env, mm->material);
	}
	if (mtl)
		model_mtl_write(mtl, w->env, &w->mats);
	model_mtl_set_free(&w->mats);
	return mtl && mtl->failed ? -ENOMEM : 0;
}

int model_mesh_obj(const struct model_mesh *m, const struct model_env *env,
		   struct strbuf *obj, struct strbuf *mtl)
{
	static const struct model_env no_env;
	struct writer w = { .m = m, .env = env ? env : &no_env, .obj = obj };
	if (model_mtl_set_init(&w.mats, m->mmat_count)) {
		model_mtl_set_free(&w.mats);
		return -ENOMEM;
	}
	if (!obj)
		return mtl_only(&w, mtl);
	/* Room for the whole text at once: a large model's doubling buffer
	 * faulted in and copied twice what it ended with.  A v, vt and vn
	 * line a vertex and an f line a face stay under these; more room
	 * than is used costs no page; past 64 MiB the buffer grows as it
	 * goes, so a huge model never fails on a guess. */
	uint64_t guess = 4096 + (uint64_t)m->vertex_count * 96 +
			 (uint64_t)m->face_count * 48;
	sb_expect(obj, guess < OBJ_RESERVE_MAX ? (size_t)guess
					       : OBJ_RESERVE_MAX);
	put_obj_head(&w);
	for (uint32_t i = 0; i < m->mmat_count; i++)
		put_mmat(&w, &m->mmats[i], i);
	if (m->stop[0])
		sb_printf(obj, "# left out: %s\n", m->stop);
	if (mtl)
		model_mtl_write(mtl, w.env, &w.mats);
	model_mtl_set_free(&w.mats);
	return obj->failed || (mtl && mtl->failed) ? -ENOMEM : 0;
}

int model_obj(const uint8_t *p, size_t len, uint16_t version,
	      const struct model_env *env, struct strbuf *obj,
	      struct strbuf *mtl, struct reason *why)
{
	struct model_mesh m;
	int rc = model_decode_as(p, len, version, obj != NULL, &m, why);
	if (rc == 0)
		rc = model_mesh_obj(&m, env, obj, mtl);
	model_mesh_free(&m);
	return rc;
}
