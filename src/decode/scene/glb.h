/* SPDX-License-Identifier: MIT */
/* glb.h - the container of a binary glTF 2.0 file: JSON lists that grow
 * one item at a time, and one binary buffer that accessors point into.
 *
 * A writer adds buffer views and accessors as it makes the data, appends
 * each top-level list's items to the list's text, and glb_finish() wraps
 * them in the GLB header, the JSON chunk and the BIN chunk.  Floats go out
 * as the shortest text that reads back as the same float, and values that
 * are not finite are never written: the file's floats are untrusted.
 */
#ifndef CCSFS_GLB_H
#define CCSFS_GLB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* glTF's component types and buffer view targets. */
#define GLB_U8 5121
#define GLB_U16 5123
#define GLB_U32 5125
#define GLB_F32 5126
#define GLB_ARRAY_BUFFER 34962
#define GLB_INDEX_BUFFER 34963

/* One top-level array of the JSON ("nodes", "meshes", ...). */
struct glb_list {
	struct strbuf text;     /* the items, comma-separated */
	uint32_t count;
};

struct glb {
	struct strbuf bin;
	struct glb_list views, accessors;
	/* Measuring (glb_finish given no out): the buffer's bytes are made
	 * as ever, each view into bin's scratch room over the last, and
	 * only their count, measured, grows. */
	bool measure;
	size_t measured;
};

/* Makes room for about n bytes of buffer at once.  Large buffers come
 * from fresh mappings; growing one by doubling faults in and copies
 * about twice what it ends with, and an unused reserve costs no page. */
void glb_reserve(struct glb *g, size_t n);

/* Starts the next item of a list: writes the comma; returns its index. */
uint32_t glb_item(struct glb_list *l);

/* Copies n bytes into the buffer, 4-aligned, as a new buffer view
 * (target 0: none, as an image's view must be).  Returns its index.  A
 * measure only counts them: bytes may then be NULL. */
uint32_t glb_view(struct glb *g, const void *bytes, size_t n, int target);

/* Room for n bytes in the buffer, 4-aligned, as a new buffer view whose
 * index goes to *view; the caller fills it before adding more.  NULL
 * when out of memory (the failure is seen at glb_finish). */
uint8_t *glb_view_room(struct glb *g, size_t n, int target, uint32_t *view);

/* An accessor of count elements of type ("SCALAR", "VEC3", ...) over a
 * whole view.  min and max (ncomp values each) may be NULL. */
uint32_t glb_accessor(struct glb *g, uint32_t view, int ctype,
		      uint32_t count, const char *type, bool normalized,
		      const float *min, const float *max, unsigned ncomp);

/* A float accessor over new data: ncomp floats an element; with_bounds
 * writes min and max, which POSITION and animation inputs need. */
uint32_t glb_floats(struct glb *g, const float *v, uint32_t count,
		    unsigned ncomp, bool with_bounds, int target);

/* `,"name":[items]` of a list that has items; nothing for an empty one. */
void glb_put_list(struct strbuf *json, const char *name,
		  const struct glb_list *l);

/* The GLB file of a JSON document (without its closing brace: the
 * buffer, views and accessors are added here) and the buffer.  With out
 * NULL (g->measure set from the start) only its length, *out_len. */
int glb_finish(struct glb *g, struct strbuf *json, uint8_t **out,
	       size_t *out_len);
void glb_free(struct glb *g);
void glb_list_free(struct glb_list *l);

#endif
