/* SPDX-License-Identifier: MIT */
/* glb.c - GLB container, buffer views and accessors. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode/scene/glb.h"
#include "decode/scene/json.h"
#include "util/bufpool.h"
#include "util/bytes.h"

uint32_t glb_item(struct glb_list *l)
{
	if (l->count)
		sb_puts(&l->text, ",");
	return l->count++;
}

void glb_reserve(struct glb *g, size_t n)
{
	if (!g->measure)
		sb_reserve(&g->bin, n);
}

/* The buffer's length so far. */
static size_t bin_len(const struct glb *g)
{
	return g->measure ? g->measured : g->bin.len;
}

/* Pads the buffer to 4 bytes, as every view and its end must be. */
static void bin_align(struct glb *g)
{
	static const uint8_t zero[4];
	size_t pad = (4 - bin_len(g) % 4) % 4;
	if (g->measure)
		g->measured += pad;
	else if (pad)
		sb_append(&g->bin, zero, pad);
}

uint8_t *glb_view_room(struct glb *g, size_t n, int target, uint32_t *view)
{
	bin_align(g);
	size_t at = bin_len(g);
	if (g->measure)
		g->bin.len = 0;         /* the last view's room is done with */
	uint8_t *room = (uint8_t *)sb_reserve(&g->bin, n);
	if (room && g->measure)
		g->measured += n;
	else if (room)
		g->bin.len += n;
	/* A scene has a view per attribute: printf was a tenth of the JSON's
	 * cost. */
	struct strbuf *t = &g->views.text;
	*view = glb_item(&g->views);
	sb_puts(t, "{\"buffer\":0,\"byteOffset\":");
	sb_put_u64(t, at);
	sb_puts(t, ",\"byteLength\":");
	sb_put_u64(t, n);
	if (target) {
		sb_puts(t, ",\"target\":");
		sb_put_u64(t, (uint64_t)target);
	}
	sb_puts(t, "}");
	return room;
}

uint32_t glb_view(struct glb *g, const void *bytes, size_t n, int target)
{
	uint32_t view;
	uint8_t *room = glb_view_room(g, n, target, &view);
	/* A measure keeps no bytes, so none are copied into its scratch. */
	if (room && n && !g->measure)
		memcpy(room, bytes, n);
	return view;
}

uint32_t glb_accessor(struct glb *g, uint32_t view, int ctype,
		      uint32_t count, const char *type, bool normalized,
		      const float *min, const float *max, unsigned ncomp)
{
	struct strbuf *t = &g->accessors.text;
	uint32_t i = glb_item(&g->accessors);
	sb_puts(t, "{\"bufferView\":");
	sb_put_u64(t, view);
	sb_puts(t, ",\"componentType\":");
	sb_put_u64(t, (uint64_t)ctype);
	sb_puts(t, ",\"count\":");
	sb_put_u64(t, count);
	sb_puts(t, ",\"type\":\"");
	sb_puts(t, type);
	sb_puts(t, "\"");
	if (normalized)
		sb_puts(t, ",\"normalized\":true");
	if (min && max) {
		sb_puts(t, ",\"min\":[");
		json_floats(t, min, ncomp);
		sb_puts(t, "],\"max\":[");
		json_floats(t, max, ncomp);
		sb_puts(t, "]");
	}
	sb_puts(t, "}");
	return i;
}

static const char *vec_type(unsigned ncomp)
{
	static const char *const names[] = { "SCALAR", "VEC2", "VEC3", "VEC4" };
	return ncomp >= 1 && ncomp <= 4 ? names[ncomp - 1] : "MAT4";
}

/* The per-component bounds of count elements (ncomp at most 16), into
 * min and max.  Inlined with ncomp a constant for POSITION (every vertex
 * of a scene): kept in locals, which v cannot alias, the bounds then
 * stay in registers instead of being stored and reloaded per float. */
static inline __attribute__((always_inline)) void
bounds(const float *v, uint32_t count, unsigned ncomp, float *min,
       float *max)
{
	float lo[16], hi[16];
	memcpy(lo, min, ncomp * sizeof *lo);
	memcpy(hi, max, ncomp * sizeof *hi);
	for (uint32_t i = 0; i < count; i++, v += ncomp)
		for (unsigned c = 0; c < ncomp; c++) {
			lo[c] = v[c] < lo[c] ? v[c] : lo[c];
			hi[c] = v[c] > hi[c] ? v[c] : hi[c];
		}
	memcpy(min, lo, ncomp * sizeof *lo);
	memcpy(max, hi, ncomp * sizeof *hi);
}

uint32_t glb_floats(struct glb *g, const float *v, uint32_t count,
		    unsigned ncomp, bool with_bounds, int target)
{
	float min[16], max[16];
	for (unsigned c = 0; c < ncomp && c < 16; c++) {
		min[c] = INFINITY;
		max[c] = -INFINITY;
	}
	if (with_bounds && ncomp == 3)
		bounds(v, count, 3, min, max);
	else if (with_bounds)
		bounds(v, count, ncomp, min, max);
	uint32_t view = glb_view(g, v, (size_t)count * ncomp * sizeof *v,
				 target);
	return glb_accessor(g, view, GLB_F32, count, vec_type(ncomp), false,
			    with_bounds && count ? min : NULL, max, ncomp);
}

void glb_put_list(struct strbuf *json, const char *name,
		     const struct glb_list *l)
{
	if (!l->count)
		return;
	sb_printf(json, ",\"%s\":[", name);
	if (sb_counts_only(&l->text))
		sb_count(json, sb_length(&l->text));
	else
		sb_append(json, l->text.data, l->text.len);
	sb_puts(json, "]");
}

static void put_chunk_header(uint8_t *o, size_t len, const char *type)
{
	wr_u32le(o, (uint32_t)len);
	memcpy(o + 4, type, 4);
}

int glb_finish(struct glb *g, struct strbuf *json, uint8_t **out,
	       size_t *out_len)
{
	if (bin_len(g))
		sb_printf(json, ",\"buffers\":[{\"byteLength\":%zu}]",
			  bin_len(g));
	glb_put_list(json, "bufferViews", &g->views);
	glb_put_list(json, "accessors", &g->accessors);
	sb_puts(json, "}");
	while (sb_length(json) % 4)
		sb_puts(json, " ");
	bin_align(g);
	size_t blen = bin_len(g);
	if (json->failed || g->bin.failed || g->views.text.failed ||
	    g->accessors.text.failed ||
	    sb_length(json) + blen > UINT32_MAX - 64)
		return -ENOMEM;
	size_t total = 12 + 8 + sb_length(json) + (blen ? 8 + blen : 0);
	if (!out) {
		*out_len = total;
		return 0;
	}
	uint8_t *o = bufpool_alloc_filled(total, total);
	if (!o)
		return -ENOMEM;
	if (blen)
		memcpy(o + total - blen, g->bin.data, blen);
	sb_free(&g->bin);
	memcpy(o, "glTF", 4);
	wr_u32le(o + 4, 2);
	wr_u32le(o + 8, (uint32_t)total);
	put_chunk_header(o + 12, json->len, "JSON");
	memcpy(o + 20, json->data, json->len);
	if (blen)
		put_chunk_header(o + 20 + json->len, blen, "BIN\0");
	*out = o;
	*out_len = total;
	return 0;
}

void glb_list_free(struct glb_list *l)
{
	sb_free(&l->text);
	l->count = 0;
}

void glb_free(struct glb *g)
{
	sb_free(&g->bin);
	glb_list_free(&g->views);
	glb_list_free(&g->accessors);
}
