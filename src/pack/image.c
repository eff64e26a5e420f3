/* SPDX-License-Identifier: MIT */
/* image.c - an ISO 9660 image's files rewritten in place or moved to its
 * end. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pack/image.h"
#include "util/bytes.h"

#define SECTOR ((uint64_t)ISO_SECTOR)
/* ECMA-119: volume descriptors from sector 16, the set ended by type
 * 255; the volume space size is a both-endian u32 at byte 80 of a
 * primary (1) or supplementary (2) descriptor. */
#define VD_FIRST 16
#define VD_MAX 64
#define VD_SPACE 80
#define REC_EAR 1
#define REC_EXTENT 2
#define REC_SIZE 10

static uint64_t round_up(uint64_t n)
{
	return (n + SECTOR - 1) / SECTOR * SECTOR;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void wr_both32(uint8_t *p, uint32_t v)
{
	wr_u32le(p, v);
	p[4] = (uint8_t)(v >> 24);
	p[5] = (uint8_t)(v >> 16);
	p[6] = (uint8_t)(v >> 8);
	p[7] = (uint8_t)v;
}

/* The volume space the primary descriptor claims, in bytes. */
static int volume_end(int fd, uint64_t *end)
{
	uint8_t vd[SECTOR];
	if (pread(fd, vd, sizeof vd, VD_FIRST * SECTOR) != (ssize_t)sizeof vd)
		return -EIO;
	*end = (uint64_t)rd_u32le(vd + VD_SPACE) * SECTOR;
	return 0;
}

/* Whether another file's extent shares a sector with f's: writing f in
 * place would change that file too (a record may point at another's
 * extent). */
static bool shares_sectors(const struct pack_source *s,
			   const struct pack_file *f)
{
	uint64_t end = f->offset + round_up(f->size);
	for (size_t i = 0; i < s->count; i++) {
		const struct pack_file *o = &s->f[i];
		if (o != f && !o->is_dir && o->size &&
		    o->offset < end && f->offset < o->offset + round_up(o->size))
			return true;
	}
	return false;
}

int pack_image_place(const struct pack_source *s,
		     struct pack_image_change *c, size_t n, uint64_t *size,
		     struct reason *why)
{
	uint64_t vol;
	int rc = volume_end(iso_fd(s->img), &vol);
	if (rc < 0) {
		reason_set(why, "cannot read the primary volume descriptor");
		return rc;
	}
	uint64_t end = round_up(s->size > vol ? s->size : vol);
	for (size_t i = 0; i < n; i++) {
		const struct pack_file *f = c[i].f;
		if (c[i].new_size > UINT32_MAX) {
			reason_set(why, "%s: %" PRIu64 " bytes, more than an "
				   "ISO 9660 record holds", f->path,
				   c[i].new_size);
			return -EINVAL;
		}
		c[i].moved = !f->size ||
			     round_up(c[i].new_size) > round_up(f->size) ||
			     shares_sectors(s, f);
		c[i].out_offset = c[i].moved ? end : f->offset;
		if (c[i].moved)
			end += round_up(c[i].new_size);
	}
	*size = end > s->size ? end : s->size;
	return 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct pack_image_change *x = *(const struct pack_image_change
					      *const *)a;
	const struct pack_image_change *y = *(const struct pack_image_change
					      *const *)b;
	return x->f->offset < y->f->offset ? -1 : x->f->offset > y->f->offset;
}

/* The source's bytes but the old sectors of files rewritten in place. */
static int copy_around(const struct pack_source *s,
		       const struct pack_image_change *c, size_t n, int out,
		       struct pack_progress *pg)
{
	const struct pack_image_change **in = calloc(n ? n : 1, sizeof *in);
	if (!in)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!c[i].moved)
			in[k++] = &c[i];
	qsort(in, k, sizeof *in, by_offset);
	int fd = iso_fd(s->img), rc = 0;
	uint64_t at = 0;
	for (size_t i = 0; rc == 0 && i <= k; i++) {
		uint64_t to = i < k ? in[i]->f->offset : s->size;
		if (to > at)
			rc = pack_copy(fd, at, out, at, to - at, pg);
		if (i < k && in[i]->f->offset + round_up(in[i]->f->size) > at)
			at = in[i]->f->offset + round_up(in[i]->f->size);
	}
	free(in);
	return rc;
}

/* A changed file's directory record: its extent and size. */
static int patch_record(int fd, int out, const struct pack_image_change *c,
			struct reason *why)
{
	uint8_t rec[REC_SIZE + 8];
	if (pread(fd, rec, sizeof rec, (off_t)c->f->record_at) !=
	    (ssize_t)sizeof rec) {
		reason_set(why, "%s: cannot read its directory record",
			   c->f->path);
		return -EIO;
	}
	if (c->moved && rec[REC_EAR]) {
		reason_set(why, "%s: has an extended attribute record; "
			   "it cannot move", c->f->path);
		return -EINVAL;
	}
	if (rd_u32le(rec + REC_SIZE) != be32(rec + REC_SIZE + 4)) {
		reason_set(why, "%s: its record's two sizes differ",
			   c->f->path);
		return -EINVAL;
	}
	if (c->moved)
		wr_both32(rec + REC_EXTENT, (uint32_t)(c->out_offset / SECTOR));
	wr_both32(rec + REC_SIZE, (uint32_t)c->new_size);
	return pack_copy_bytes(out, rec, sizeof rec, c->f->record_at, NULL);
}

/* Every primary and supplementary descriptor's volume space size. */
static int patch_volume(int fd, int out, uint64_t size)
{
	for (unsigned i = VD_FIRST; i < VD_FIRST + VD_MAX; i++) {
		uint8_t vd[SECTOR];
		if (pread(fd, vd, sizeof vd, (off_t)(i * SECTOR)) !=
		    (ssize_t)sizeof vd || memcmp(vd + 1, "CD001", 5))
			return -EIO;
		if (vd[0] == 255)
			return 0;
		if (vd[0] != 1 && vd[0] != 2)
			continue;
		uint8_t both[8];
		wr_both32(both, (uint32_t)(size / SECTOR));
		int rc = pack_copy_bytes(out, both, sizeof both,
					 i * SECTOR + VD_SPACE, NULL);
		if (rc < 0)
			return rc;
	}
	return -EIO;
}

int pack_image_write(const struct pack_source *s,
		     const struct pack_image_change *c, size_t n,
		     uint64_t size, int out, struct pack_progress *pg,
		     struct reason *why)
{
	int fd = iso_fd(s->img);
	int rc = copy_around(s, c, n, out, pg);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		/* Up to the end of the sectors it leaves or takes. */
		uint64_t room = c[i].moved ? round_up(c[i].new_size)
					   : round_up(c[i].f->size);
		rc = c[i].write(c[i].ctx, out, c[i].out_offset, pg);
		if (rc == 0)
			rc = pack_copy_zeros(out, c[i].out_offset +
					     c[i].new_size, room -
					     c[i].new_size, pg);
		if (rc < 0)
			reason_set(why, "%s: %s", c[i].f->path, strerror(-rc));
		else
			rc = patch_record(fd, out, &c[i], why);
	}
	if (rc == 0 && size > s->size) {
		rc = patch_volume(fd, out, size);
		if (rc < 0)
			reason_set(why, "cannot rewrite the volume "
				   "descriptors' volume space size");
	}
	if (rc == 0 && ftruncate(out, (off_t)size) < 0) {
		rc = -errno;
		reason_set(why, "%s", strerror(errno));
	}
	return rc;
}
