/* SPDX-License-Identifier: MIT */
/* model.c - a model chunk decoded to a mesh (doc/formats/model.md).
 *
 * Where the mmats and their arrays lie is ccsf/layout.c's; this file only
 * turns them into vertices and faces.  Writing the mesh is model_obj.c's
 * (model.h says why the two are apart).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "ccsf/layout.h"
#include "decode/model/model.h"
#include "util/bufpool.h"
#include "util/bytes.h"
#include "util/reason.h"

struct decoder {
	const uint8_t *p;
	size_t len;
	struct model_mesh *m;
	size_t mmat_cap, vertex_cap, face_cap, entry_cap;
	bool materials_only;    /* model_decode_as without the mesh */
};

enum { DECODED = 0, STOPPED = 1 };     /* or -ENOMEM */

static bool grow(void *arrayp, size_t *cap, uint64_t need, size_t elem)
{
	void **array = arrayp;
	/* Allocates even when nothing is needed yet: the callers form
	 * `array + count` for a mmat of 0 vertices, and NULL + 0 is undefined
	 * behaviour in C (found by fuzz/fuzz_model, UBSan). */
	if (need <= *cap && *array)
		return true;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	/* Large arrays come from the pool's mapped pages: a realloc of a
	 * mapping moves it with mremap and frees it with munmap, each a
	 * TLB flush on every core. */
	void *q = bufpool_alloc(n * elem);
	if (!q)
		return false;
	if (*array)
		memcpy(q, *array, *cap * elem);
	bufpool_free(*array);
	*array = q;
	*cap = n;
	return true;
}

static void note(struct model_mesh *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One `# left out:` line in mesh->notes (integers only: locale-free). */
static void note(struct model_mesh *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_puts(&m->notes, "# left out: ");
	sb_vprintf(&m->notes, fmt, ap);
	sb_puts(&m->notes, "\n");
	va_end(ap);
}

/* Ends decoding: the mmats from here on are left out. */
static int stop_at(struct decoder *d, uint32_t mmat, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int stop_at(struct decoder *d, uint32_t mmat, const char *fmt, ...)
{
	struct model_mesh *m = d->m;
	int n = snprintf(m->stop, sizeof m->stop, "mmats %" PRIu32 " to %"
			 PRIu32 ": ", mmat, m->mmats_declared - 1);
	va_list ap;
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof m->stop)
		vsnprintf(m->stop + n, sizeof m->stop - (size_t)n, fmt, ap);
	va_end(ap);
	return STOPPED;
}

static void scale_position(const struct model_mesh *m, const uint8_t *s16,
			   float out[3])
{
	/* In single precision, as VU1 does it (itof12, then the scale), and
	 * as model.txt shows it. */
	for (int i = 0; i < 3; i++)
		out[i] = (float)(int16_t)rd_u16le(s16 + 2 * i) / 4096.0f *
			 m->vertex_scale;
}

static void set_normal(struct model_vertex *v, const uint8_t *n)
{
	for (int i = 0; i < 3; i++)
		v->normal[i] = (int8_t)n[i];
	v->strip = n[3];
}

static void set_st(struct model_vertex *v, const uint8_t *st)
{
	v->st[0] = rd_u16le(st);
	v->st[1] = rd_u16le(st + 2);
}

/* The layout each kind of mmat is decoded to. */
static enum model_layout layout_of(const struct ccsf_mmat *mm)
{
	switch (mm->kind) {
	case CCSF_MMAT_BONE:
		return MODEL_BONE;
	case CCSF_MMAT_SKIN:
		return MODEL_SKIN;
	case CCSF_MMAT_SHADOW:
		return MODEL_SHADOW;
	default:
		return MODEL_RIGID;
	}
}

/* Makes room for a mmat and n more vertices and faces (a strip makes at
 * most one face a vertex), and opens it with what the layout says of it:
 * its layout, a rigid one's name, and the material of all but a shadow
 * (which draws none). */
static int new_mmat(struct decoder *d, const struct ccsf_mmat *from,
		    uint64_t n, struct model_mmat **out)
{
	struct model_mesh *m = d->m;
	if (!grow(&m->mmats, &d->mmat_cap, m->mmat_count + 1ull,
		  sizeof *m->mmats) ||
	    !grow(&m->vertices, &d->vertex_cap, m->vertex_count + n,
		  sizeof *m->vertices) ||
	    !grow(&m->faces, &d->face_cap, m->face_count + n,
		  sizeof *m->faces))
		return -ENOMEM;
	struct model_mmat *mm = &m->mmats[m->mmat_count];
	memset(mm, 0, sizeof *mm);
	mm->first_vertex = m->vertex_count;
	mm->first_face = m->face_count;
	mm->note_start = m->notes.len;
	mm->layout = layout_of(from);
	mm->name = mm->layout == MODEL_RIGID ? from->name : 0;
	mm->material = mm->layout != MODEL_SHADOW ? from->material : 0;
	*out = mm;
	return 0;
}

/* Closes the mmat opened by new_mmat(). */
static void end_mmat(struct model_mesh *m, struct model_mmat *mm)
{
	mm->note_len = m->notes.len - mm->note_start;
	m->mmat_count++;
}

static void add_face(struct model_mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t *f = m->faces[m->face_count++];
	f[0] = a;
	f[1] = b;
	f[2] = c;
}

/* Triangles from the strip flags: a flagged vertex starts a strip and
 * makes none; an unflagged one makes one with the two before it (the
 * flags, like the GS's ADC bit they become, do not reset what "the two
 * before" are; they only skip a triangle).  Every other triangle of a
 * strip is turned round so a strip's faces agree; a strip's first is
 * (i-1, i-2, i), which for most models faces the stored normals
 * (doc/formats/model.md, Strips; nothing culls, so the game does not
 * care). */
static void strip_faces(struct model_mesh *m, struct model_mmat *mm,
			uint32_t index)
{
	if (!mm->has_normal) {
		if (mm->vertex_count)
			note(m, "faces of mmat %" PRIu32 ": mtype 0x40 stores "
			     "no normals, so no strip flags", index);
		return;
	}
	uint32_t base = mm->first_vertex, bad = 0, first_bad = 0;
	int64_t last_flag = -1;
	for (uint32_t i = 0; i < mm->vertex_count; i++) {
		if (m->vertices[base + i].strip) {
			last_flag = i;
			continue;
		}
		if (i < 2) {
			if (!bad++)
				first_bad = i;
			continue;
		}
		uint32_t a = base + i - 2, b = base + i - 1, c = base + i;
		if ((i - last_flag - 1) % 2 == 0)
			add_face(m, b, a, c);
		else
			add_face(m, a, b, c);
	}
	mm->face_count = m->face_count - mm->first_face;
	if (bad)
		note(m, "%" PRIu32 " triangle(s) of mmat %" PRIu32 ": vertex %"
		     PRIu32 " is unflagged with fewer than two vertices before "
		     "it", bad, index, first_bad);
}

/* The start of one of the mmat's arrays in the chunk, NULL when the mmat
 * has none. */
static const uint8_t *array_at(const struct decoder *d,
			       const struct ccsf_mmat *mm,
			       enum ccsf_array_kind k)
{
	return mm->array[k].elem ? d->p + mm->array[k].at : NULL;
}

/* Copies n vertices' attributes, each array where the mmat has it, into
 * the mesh's next free vertices (zeroed first), and returns the first. */
static struct model_vertex *copy_vertices(struct model_mesh *m, uint32_t n,
					  const uint8_t *pos,
					  const uint8_t *nrm,
					  const uint8_t *col,
					  const uint8_t *stp)
{
	struct model_vertex *first = m->vertices + m->vertex_count, *v = first;
	if (n)
		memset(v, 0, n * sizeof *v);
	for (uint32_t i = 0; i < n; i++, v++) {
		scale_position(m, pos + 6 * (size_t)i, v->pos);
		if (nrm)
			set_normal(v, nrm + 4 * (size_t)i);
		if (col)
			memcpy(v->colour, col + 4 * (size_t)i, 4);
		if (stp)
			set_st(v, stp + 4 * (size_t)i);
	}
	return first;
}

static int rigid_mmat(struct decoder *d, uint32_t index,
		      const struct ccsf_mmat *mm)
{
	struct model_mesh *m = d->m;
	uint32_t n = mm->vertices;
	struct model_mmat *out;
	if (new_mmat(d, mm, n, &out))
		return -ENOMEM;
	const uint8_t *pos = array_at(d, mm, CCSF_A_POSITION);
	const uint8_t *nrm = array_at(d, mm, CCSF_A_NORMAL);
	const uint8_t *col = array_at(d, mm, CCSF_A_COLOUR);
	const uint8_t *stp = array_at(d, mm, CCSF_A_ST);
	out->has_normal = nrm;
	/* mtype & 1 (lit): the decoder reads the colours and drops them */
	out->has_colour = col && !(m->mtype & 1);
	out->has_st = stp;
	out->vertex_count = n;
	copy_vertices(m, n, pos, nrm, col, stp);
	m->vertex_count += n;
	strip_faces(m, out, index);
	end_mmat(m, out);
	return DECODED;
}

static int bone_mmat(struct decoder *d, uint32_t index,
		     const struct ccsf_mmat *mm)
{
	struct model_mesh *m = d->m;
	uint32_t n = mm->vertices;
	struct model_mmat *out;
	if (new_mmat(d, mm, n, &out))
		return -ENOMEM;
	out->node = rd_u32le(array_at(d, mm, CCSF_A_NODE));
	out->has_normal = out->has_st = true;
	out->vertex_count = n;
	const uint8_t *pos = array_at(d, mm, CCSF_A_POSITION);
	const uint8_t *nrm = array_at(d, mm, CCSF_A_NORMAL);
	const uint8_t *stp = array_at(d, mm, CCSF_A_ST);
	struct model_vertex *v = copy_vertices(m, n, pos, nrm, NULL, stp);
	for (uint32_t i = 0; i < n; i++)
		v[i].node = out->node;
	m->vertex_count += n;
	strip_faces(m, out, index);
	end_mmat(m, out);
	return DECODED;
}

static void add_skin_entries(struct model_mesh *m, const uint8_t *entries,
			     uint32_t n)
{
	struct model_skin_entry *s = m->entries + m->entry_count;
	for (uint32_t e = 0; e < n; e++, s++) {
		const uint8_t *p = entries + 8 * (size_t)e;
		uint16_t w = rd_u16le(p + 6);
		scale_position(m, p, s->pos);
		s->weight = w & 0x1ff;
		s->last = w & 0x200;
		s->node = (uint8_t)(w >> 10);
	}
}

/* A skin vertex is drawn unposed at its first entry with a weight (its
 * first entry if none has one), with that entry's normal and node.  Its
 * strip flag is that of its last entry, the one that completes it. */
static void skin_vertices(struct model_mesh *m, struct model_mmat *mm,
			  const uint8_t *nrm, const uint8_t *stp,
			  uint32_t first_entry, uint32_t n, uint32_t index)
{
	struct model_vertex *v = m->vertices + m->vertex_count;
	uint32_t start = 0, pick = UINT32_MAX;
	for (uint32_t e = 0; e < n; e++) {
		const struct model_skin_entry *s = &m->entries[first_entry + e];
		if (pick == UINT32_MAX && s->weight)
			pick = e;
		if (!s->last)
			continue;
		if (pick == UINT32_MAX)
			pick = start;
		memset(v, 0, sizeof *v);
		memcpy(v->pos, m->entries[first_entry + pick].pos,
		       sizeof v->pos);
		set_normal(v, nrm + 4 * (size_t)pick);
		v->strip = nrm[4 * (size_t)e + 3];
		set_st(v, stp + 4 * (size_t)mm->vertex_count);
		v->node = m->entries[first_entry + pick].node;
		v->first_entry = first_entry + start;
		v->entry_count = e + 1 - start;
		v++;
		mm->vertex_count++;
		start = e + 1;
		pick = UINT32_MAX;
	}
	if (start < n)
		note(m, "entries %" PRIu32 " to %" PRIu32 " of mmat %" PRIu32
		     ": no entry with bit 9 ends their vertex", start, n - 1,
		     index);
	m->vertex_count += mm->vertex_count;
}

static int skin_mmat(struct decoder *d, uint32_t index,
		     const struct ccsf_mmat *mm)
{
	struct model_mesh *m = d->m;
	uint32_t offsets = mm->offsets;
	struct model_mmat *out;
	if (new_mmat(d, mm, mm->ends, &out) ||
	    !grow(&m->entries, &d->entry_cap,
		  m->entry_count + (uint64_t)offsets,
		  sizeof *m->entries))
		return -ENOMEM;
	out->has_normal = out->has_st = true;
	const uint8_t *nrm = array_at(d, mm, CCSF_A_NORMAL);
	const uint8_t *stp = array_at(d, mm, CCSF_A_ST);
	uint32_t first_entry = m->entry_count;
	add_skin_entries(m, array_at(d, mm, CCSF_A_ENTRY), offsets);
	m->entry_count += offsets;
	skin_vertices(m, out, nrm, stp, first_entry, offsets, index);
	strip_faces(m, out, index);
	end_mmat(m, out);
	return DECODED;
}

/* Shadow triangles index the mmat's vertices; one outside them is left
 * out (and counted), not clamped. */
static void shadow_faces(struct model_mesh *m, struct model_mmat *mm,
			 const uint8_t *tri, uint32_t count, uint32_t index)
{
	uint32_t bad = 0, first_bad = 0;
	int32_t bad_value = 0;
	for (uint32_t t = 0; t < count; t++) {
		int32_t i[3];
		bool ok = true;
		for (int k = 0; k < 3; k++) {
			i[k] = (int32_t)rd_u32le(tri + 12 * (size_t)t + 4 * k);
			if (i[k] < 0 || (uint32_t)i[k] >= mm->vertex_count) {
				if (ok && !bad)
					bad_value = i[k];
				ok = false;
			}
		}
		if (!ok) {
			if (!bad++)
				first_bad = t;
			continue;
		}
		uint32_t b = mm->first_vertex;
		add_face(m, b + (uint32_t)i[0], b + (uint32_t)i[1],
			 b + (uint32_t)i[2]);
	}
	mm->face_count = m->face_count - mm->first_face;
	if (bad)
		note(m, "%" PRIu32 " triangle(s) of mmat %" PRIu32
		     " index past vNum %" PRIu32 " (first: triangle %"
		     PRIu32 ", index %" PRId32 ")", bad, index,
		     mm->vertex_count, first_bad, bad_value);
}

static int shadow_mmat(struct decoder *d, uint32_t index,
		       const struct ccsf_mmat *mm)
{
	struct model_mesh *m = d->m;
	uint32_t n = mm->vertices;
	uint32_t tris = (uint32_t)mm->array[CCSF_A_TRIANGLE].count;
	struct model_mmat *out;
	if (new_mmat(d, mm, (uint64_t)n + tris, &out))
		return -ENOMEM;
	out->vertex_count = n;
	const uint8_t *pos = array_at(d, mm, CCSF_A_POSITION);
	const uint8_t *tri = array_at(d, mm, CCSF_A_TRIANGLE);
	struct model_vertex *v = m->vertices + m->vertex_count;
	for (uint32_t i = 0; i < n; i++, v++) {
		memset(v, 0, sizeof *v);
		scale_position(m, pos + 6 * (size_t)i, v->pos);
	}
	m->vertex_count += n;
	shadow_faces(m, out, tri, tris, index);
	end_mmat(m, out);
	return DECODED;
}

/* Why the mmat the layout could not place is left out, with those after
 * it (where the next one starts is unknown). */
static int mmat_fault(struct decoder *d, uint32_t index,
		      const struct ccsf_mmat *mm)
{
	bool shadow = mm->kind == CCSF_MMAT_SHADOW;
	if (mm->fault == CCSF_MMAT_CUT_WORDS)
		return stop_at(d, index, shadow ? "vNum and iNum run past the "
			       "end of the chunk" : "the header words run "
			       "past the end of the chunk");
	if (mm->fault == CCSF_MMAT_NEGATIVE)
		return stop_at(d, index, "a negative count (vNum %" PRId32
			       ", iNum %" PRId32 ")", mm->vnum, mm->inum);
	const char *what = shadow ? "its vertices and triangles" :
					"its vertices";
	uint64_t end = mm->end;
	if (mm->kind == CCSF_MMAT_SKIN) {
		/* The entries and normals are checked first: the ST count
		 * is only known once the entries are there. */
		const struct ccsf_array *n = &mm->array[CCSF_A_NORMAL];
		what = "its entries, normals and st";
		if (n->at + n->bytes > d->len) {
			what = "its entries and normals";
			end = n->at + n->bytes;
		}
	}
	return stop_at(d, index, "%s need %" PRIu64 " bytes, the chunk has "
		       "%zu left", what, end - mm->body,
		       (size_t)(d->len - mm->body));
}

/* A mmat as model.mtl sees it: its head, the rest not read. */
static int material_mmat(struct decoder *d, const struct ccsf_mmat *mm)
{
	struct model_mmat *out;
	if (new_mmat(d, mm, 0, &out))
		return -ENOMEM;
	end_mmat(d->m, out);
	return DECODED;
}

static int decode_mmat(struct decoder *d, uint32_t index,
		       const struct ccsf_mmat *mm)
{
	if (d->materials_only)
		return material_mmat(d, mm);
	switch (mm->kind) {
	case CCSF_MMAT_BONE:
		return bone_mmat(d, index, mm);
	case CCSF_MMAT_SKIN:
		return skin_mmat(d, index, mm);
	case CCSF_MMAT_SHADOW:
		return shadow_mmat(d, index, mm);
	default:
		return rigid_mmat(d, index, mm);
	}
}

/* The model header: 28 bytes with the chunk header and the padding. */
static int model_header(struct decoder *d, uint16_t version,
			struct ccsf_model *h, struct reason *why)
{
	struct model_mesh *m = d->m;
	int rc = ccsf_model_head(d->p, d->len, version, h);
	m->object = h->object;
	m->vertex_scale = h->vertex_scale;
	m->mtype = h->mtype;
	m->mmats_declared = h->mmats;
	m->flag = h->flag;
	if (rc) {
		reason_set(why, "%s", "the model header is cut short");
		return -EIO;
	}
	if (rd_u16le(d->p) != CCSF_MODEL) {
		reason_set(why, "%s", "not a model chunk");
		return -EIO;
	}
	if (ccsf_model_layout_unknown(m->mtype, m->mmats_declared)) {
		reason_set(why, "%s", "mtype bit 0x02: a layout no file uses");
		return -EIO;
	}
	return 0;
}

int model_decode_as(const uint8_t *p, size_t len, uint16_t version,
		    bool mesh, struct model_mesh *m, struct reason *why)
{
	memset(m, 0, sizeof *m);
	struct decoder d = { .p = p, .len = len, .m = m,
			     .materials_only = !mesh };
	struct ccsf_model h;
	reason_clear(why);
	int rc = model_header(&d, version, &h, why);
	struct ccsf_mmat_iter it;
	ccsf_mmat_begin(&it, p, len, &h);
	for (uint32_t i = 0; rc == 0; i++) {
		struct ccsf_mmat mm;
		int more = ccsf_mmat_next(&it, &mm);
		if (more == 0)
			break;
		rc = more < 0 ? mmat_fault(&d, i, &mm)
			      : decode_mmat(&d, i, &mm);
	}
	if (rc == STOPPED)
		rc = 0;
	if (rc == 0 && m->notes.failed)
		rc = -ENOMEM;
	return rc;
}

int model_decode(const uint8_t *p, size_t len, uint16_t version,
		 struct model_mesh *m, struct reason *why)
{
	return model_decode_as(p, len, version, true, m, why);
}

int model_check(const uint8_t *p, size_t len, uint16_t version,
		struct reason *why)
{
	struct model_mesh m;
	memset(&m, 0, sizeof m);
	struct decoder d = { .p = p, .len = len, .m = &m };
	struct ccsf_model h;
	reason_clear(why);
	return model_header(&d, version, &h, why);
}

void model_mesh_free(struct model_mesh *m)
{
	bufpool_free(m->mmats);
	bufpool_free(m->vertices);
	bufpool_free(m->faces);
	bufpool_free(m->entries);
	free(m->posed_normal);
	sb_free(&m->notes);
	memset(m, 0, sizeof *m);
}
