/* SPDX-License-Identifier: MIT */
/* member_edit.c - a member's bytes after an edit of one of its files: a
 * slice replaced (a chunk, the trailer, the whole .ccs), a texture level
 * or a palette written back from PNG; and the member made again from
 * them. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ccsf/ccsf.h"
#include "decode/texture/texture_scene.h"
#include "decode/texture/texture_write.h"
#include "util/bytes.h"
#include "views/member.h"
#include "views/member_internal.h"
#include "views/object.h"

enum member_edit member_edit_of(const struct node *file, struct member **m)
{
	*m = NULL;
	if (!tree_is_file(file))
		return MEMBER_EDIT_NONE;
	if (tree_view_ops(file) == &member_view_ops) {
		*m = tree_view_source(file);
		return MEMBER_EDIT_SLICE;
	}
	uint32_t chunk;
	unsigned level;
	switch (object_png_of(file, &chunk, &level)) {
	case OBJECT_PNG_TEXTURE:
		*m = tree_made_ctx(file);
		return level ? MEMBER_EDIT_MIP : MEMBER_EDIT_TEXTURE;
	case OBJECT_PNG_PALETTE:
		*m = tree_made_ctx(file);
		return MEMBER_EDIT_PALETTE;
	default:
		return MEMBER_EDIT_NONE;
	}
}

/* The chunk a slice is, or chunk_count for none (the trailer, the whole
 * file). */
static uint32_t chunk_at(const struct ccsf_scene *s, uint64_t offset,
			 uint64_t size)
{
	for (uint32_t i = 0; i < s->chunk_count; i++)
		if (s->chunks[i].offset == offset && s->chunks[i].length == size)
			return i;
	return s->chunk_count;
}

/* A chunk's replacement keeps its kind and its object. */
static int same_chunk(const uint8_t *was, size_t was_len, const uint8_t *in,
		      size_t len, struct reason *why)
{
	if (len < CCSF_CHUNK_HEADER + (ccsf_kind_has_object(rd_u16le(was)) ? 4u : 0u)) {
		reason_set(why, "%zu bytes are no %s chunk", len,
			   ccsf_kind_name(rd_u16le(was)));
		return -EINVAL;
	}
	if (rd_u16le(in) != rd_u16le(was)) {
		const char *k = ccsf_kind_name(rd_u16le(in));
		reason_set(why, "a chunk of kind 0x%04x (%s) where the %s chunk "
			   "was", rd_u16le(in), k ? k : "unknown",
			   ccsf_kind_name(rd_u16le(was)));
		return -EINVAL;
	}
	if (ccsf_kind_has_object(rd_u16le(was)) && was_len >= CCSF_CHUNK_HEADER + 4 &&
	    rd_u32le(in + CCSF_CHUNK_HEADER) != rd_u32le(was + CCSF_CHUNK_HEADER)) {
		reason_set(why, "the chunk names object %" PRIu32 ", not %" PRIu32,
			   rd_u32le(in + CCSF_CHUNK_HEADER),
			   rd_u32le(was + CCSF_CHUNK_HEADER));
		return -EINVAL;
	}
	return 0;
}

/* cur with size bytes at offset replaced by in; the result must walk. */
static int splice(struct fs *fs, struct member *m, const struct node *file,
		  const uint8_t *cur, size_t cur_len, const uint8_t *in,
		  size_t len, uint8_t **out, size_t *out_len,
		  struct reason *why)
{
	uint64_t off = tree_view_offset(file), size = tree_size(file);
	if (off > cur_len || size > cur_len - off)
		return -EIO;
	if (!tree_view_whole(file)) {
		uint32_t c = chunk_at(&m->scene, off, size);
		int rc = c < m->scene.chunk_count ?
			 same_chunk(cur + off, size, in, len, why) : 0;
		if (rc < 0)
			return rc;
	}
	size_t n = cur_len - size + len;
	if (n > fs_max_member(fs) || n > UINT32_MAX) {
		reason_set(why, "%zu bytes inflated: more than a member may "
			   "hold", n);
		return -EINVAL;
	}
	uint8_t *b = malloc(n ? n : 1);
	if (!b)
		return -ENOMEM;
	memcpy(b, cur, off);
	memcpy(b + off, in, len);
	memcpy(b + off + len, cur + off + size, cur_len - off - size);
	struct ccsf_scene s;
	int rc = ccsf_walk(b, n, &s);
	if (rc == -EIO)
		reason_set(why, "the member no longer walks: at byte %zu: %s",
			   s.error_offset, s.error.text);
	ccsf_scene_free(&s);
	if (rc < 0) {
		free(b);
		return rc == -EIO ? -EINVAL : rc;
	}
	*out = b;
	*out_len = n;
	return 0;
}

/* cur with a texture level, or a palette, written back from a PNG. */
static int from_png(struct member *m, const struct node *file,
		    enum member_edit how, const uint8_t *cur, size_t cur_len,
		    const uint8_t *in, size_t len, uint8_t **out,
		    size_t *out_len, struct reason *why)
{
	uint32_t chunk;
	unsigned level;
	object_png_of(file, &chunk, &level);
	const struct ccsf_scene *s = &m->scene;
	if (chunk >= s->chunk_count ||
	    (uint64_t)s->chunks[chunk].offset + s->chunks[chunk].length > cur_len)
		return -EIO;
	struct png_in img;
	int rc = texture_png_read(in, len, &img, why);
	if (rc < 0)
		return rc;
	uint8_t *b = malloc(cur_len ? cur_len : 1);
	if (!b) {
		texture_png_in_free(&img);
		return -ENOMEM;
	}
	memcpy(b, cur, cur_len);
	const struct ccsf_chunk *c = &s->chunks[chunk];
	if (how == MEMBER_EDIT_PALETTE) {
		struct clut clut;
		rc = texture_clut_parse(cur + c->offset, c->length, s->version,
					&clut, why);
		if (rc == 0)
			rc = texture_clut_write_png(&clut, cur + c->offset,
						    b + c->offset, &img, why);
	} else {
		struct texture_job job;
		rc = texture_job_prepare(s, cur, cur_len, chunk, level, false,
					 &job);
		if (rc < 0)
			*why = job.why;
		if (rc == 0)
			rc = texture_write_png(&job.tex, cur + c->offset,
					       b + c->offset, &job.pal, level,
					       &img, level == 0, why);
		texture_image_free(&job.img);
	}
	texture_png_in_free(&img);
	if (rc < 0) {
		free(b);
		return rc == -EIO ? -EINVAL : rc;
	}
	*out = b;
	*out_len = cur_len;
	return 0;
}

int member_edit_make(struct fs *fs, const struct node *file,
		     const uint8_t *in, size_t len, uint8_t **out,
		     size_t *out_len, struct reason *why)
{
	struct member *m;
	enum member_edit how = member_edit_of(file, &m);
	if (how == MEMBER_EDIT_NONE)
		return -EACCES;
	struct cache_ref ref;
	int rc = member_bytes(fs, m, &ref);
	if (rc < 0) {
		reason_set(why, "the member cannot be read");
		return rc;
	}
	if (how == MEMBER_EDIT_SLICE)
		rc = splice(fs, m, file, ref.data, ref.len, in, len, out,
			    out_len, why);
	else
		rc = from_png(m, file, how, ref.data, ref.len, in, len, out,
			      out_len, why);
	cache_put(fs_cache(fs), &ref);
	if (rc == -EIO && !why->text[0])
		reason_set(why, "the file no longer lies in its member");
	return rc;
}

struct swap {
	struct fs *fs;
	struct member *m;
	uint8_t *bytes;
	size_t len;
};

/* While no thread is in the tree: the member's bytes are the new ones,
 * and nothing made of the old ones is found again. */
static void swap_bytes(void *ctx)
{
	struct swap *w = ctx;
	struct member *m = w->m;
	free(m->edited);
	m->edited = w->bytes;
	m->edited_len = w->len;
	w->bytes = NULL;
	fs_lock(w->fs);
	m->known = m->edited != NULL;
	m->inflate_rc = 0;
	memset(&m->gz, 0, sizeof m->gz);
	fs_unlock(w->fs);
	atomic_store(&m->walked_len, 0);
	/* The .ccs is made again at the new size (the old node stays in the
	 * tree's memory for a handle the kernel may still hold). */
	m->whole = NULL;
	cache_forget(fs_cache(w->fs), tree_key(m->dir));
	cache_forget_made(fs_cache(w->fs));
}

int member_edit_set(struct fs *fs, struct member *m, uint8_t *bytes,
		    size_t len)
{
	struct swap w = { fs, m, bytes, len };
	int rc = tree_unit_redo(fs, m->dir, swap_bytes, &w);
	free(w.bytes);
	return rc;
}

bool member_edited(const struct member *m, size_t *len)
{
	if (m->edited && len)
		*len = m->edited_len;
	return m->edited != NULL;
}

struct node *member_dir(const struct member *m)
{
	return m->dir;
}
