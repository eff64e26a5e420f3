/* SPDX-License-Identifier: MIT */
/* members.c - an archive's members listed, edited ones compressed again,
 * and the archive written as planned. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/index.h"
#include "pack/deflate.h"
#include "pack/members.h"
#include "util/vec.h"

enum { NAME_MAX_LEN = GZIP_NAME_MAX * 3 + 32 };

static int list(struct pack_members *a, const struct fdtbl *t,
		struct reason *why)
{
	if (t) {
		struct archive_index x;
		struct reason r = { "" };
		int rc = archive_index_list(&a->src, t, &x, &r);
		if (rc == 0) {
			free(x.lost);
			a->entries = x.entries;
			a->count = x.count;
			return 0;
		}
		if (rc != -EINVAL) {
			reason_set(why, "%s: %s", a->path, strerror(-rc));
			return rc;
		}
	}
	int rc = archive_scan(&a->src, &a->entries, &a->count);
	if (rc < 0)
		reason_set(why, "%s: cannot scan: %s", a->path, strerror(-rc));
	return rc;
}

struct named {
	size_t i;
	const char *base;
};

static int by_base(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int c = strcmp(a->base, b->base);
	return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

/* The tree's names: a repeat of a name gets ~2, ~3 in archive order. */
static int name(struct pack_members *a)
{
	a->names = vec_zalloc(a->count, sizeof *a->names);
	struct named *v = vec_zalloc(a->count, sizeof *v);
	int rc = a->names && v ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < a->count; i++) {
		char base[NAME_MAX_LEN];
		archive_member_name(&a->entries[i], base, sizeof base);
		v[i] = (struct named){ i, strdup(base) };
		rc = v[i].base ? 0 : -ENOMEM;
	}
	if (rc == 0 && a->count)
		qsort(v, a->count, sizeof *v, by_base);
	unsigned seen = 0;
	for (size_t k = 0; rc == 0 && k < a->count; k++) {
		seen = k && !strcmp(v[k - 1].base, v[k].base) ? seen + 1 : 1;
		char n[NAME_MAX_LEN + 16];
		if (seen > 1)
			snprintf(n, sizeof n, "%s~%u", v[k].base, seen);
		else
			snprintf(n, sizeof n, "%s", v[k].base);
		a->names[v[k].i] = strdup(n);
		rc = a->names[v[k].i] ? 0 : -ENOMEM;
	}
	for (size_t i = 0; v && i < a->count; i++)
		free((char *)v[i].base);
	free(v);
	return rc;
}

/* The gzip name the member's own header carries, which the new member
 * keeps; the listed one where the header cannot be read. */
static void gzip_name(const struct pack_members *a, size_t i, char *out,
		      size_t n)
{
	const struct archive_entry *e = &a->entries[i];
	uint8_t head[GZIP_NAME_MAX + 16];
	struct gzip_header h;
	ssize_t got = blob_read(&a->src, head, sizeof head, e->offset);
	if (got > 0 && gzip_parse_header(head, (size_t)got, &h) == 0 &&
	    h.has_name)
		snprintf(out, n, "%s", h.name);
	else if (e->header.has_name || e->header.name[0])
		snprintf(out, n, "%s", e->header.name);
	else
		snprintf(out, n, "%s.cmp", a->names[i]);
}

/* Member i's edit, compressed into the spill: -ENOENT when none. */
static int edit_one(struct pack_members *a, size_t i, struct pack_edits *e,
		    size_t max, struct pack_spill *spill, struct reason *why)
{
	uint8_t *data, *gz;
	size_t len, gz_len;
	time_t mtime;
	int rc = pack_edits_member(e, a->path, a->names[i], max, &data, &len,
				   &mtime, why);
	if (rc < 0)
		return rc;
	char gname[GZIP_NAME_MAX + 1];
	gzip_name(a, i, gname, sizeof gname);
	rc = pack_deflate_member(data, len, gname,
				 mtime < 0 || (uint64_t)mtime > UINT32_MAX
				 ? 0 : (uint32_t)mtime, &gz, &gz_len);
	free(data);
	if (rc < 0) {
		reason_set(why, "%s/%s: cannot compress: %s", a->path,
			   a->names[i], strerror(-rc));
		return rc == -ENOENT ? -EINVAL : rc;
	}
	rc = pack_copy_bytes(spill->fd, gz, gz_len, spill->end, NULL);
	free(gz);
	if (rc < 0) {
		reason_set(why, "the spill file: %s", strerror(-rc));
		return rc;
	}
	struct pack_member *m = &a->plan.m[i];
	m->edited = true;
	m->csize = gz_len;
	m->usize = (uint32_t)len;
	a->spill_at[i] = spill->end;
	spill->end += gz_len;
	return 0;
}

int pack_members_plan(struct pack_members *a, const struct fdtbl *t,
		      struct pack_edits *e, size_t max_member,
		      struct pack_spill *spill, struct reason *why)
{
	int rc = list(a, t, why);
	if (rc == 0 && (rc = name(a)) < 0)
		reason_set(why, "out of memory");
	if (rc < 0)
		return rc;
	a->plan.m = vec_zalloc(a->count, sizeof *a->plan.m);
	a->spill_at = vec_zalloc(a->count, sizeof *a->spill_at);
	if (!a->plan.m || !a->spill_at) {
		reason_set(why, "out of memory");
		return -ENOMEM;
	}
	a->plan.count = a->count;
	a->plan.size = a->src.size;
	for (size_t i = 0; i < a->count; i++) {
		a->plan.m[i].offset = a->entries[i].offset;
		a->plan.m[i].extent = a->entries[i].extent;
		rc = edit_one(a, i, e, max_member, spill, why);
		if (rc < 0 && rc != -ENOENT)
			return rc;
	}
	rc = pack_plan_lay_out(&a->plan, why);
	return rc;
}

int pack_members_write(const struct pack_members *a, int spill_fd, int out,
		       uint64_t base, struct pack_progress *pg)
{
	const struct pack_plan *p = &a->plan;
	uint64_t first = p->count ? p->m[0].offset : p->size;
	/* Bytes before the first member, if any, stay as they are. */
	int rc = pack_copy(a->src.fd, a->src.base, out, base, first, pg);
	for (size_t i = 0; rc == 0 && i < p->count; ) {
		const struct pack_member *m = &p->m[i];
		if (m->edited) {
			rc = pack_copy(spill_fd, a->spill_at[i], out,
				       base + m->new_offset, m->csize, pg);
			if (rc == 0)
				rc = pack_copy_zeros(out, base + m->new_offset +
						     m->csize, m->new_extent -
						     m->csize, pg);
			i++;
			continue;
		}
		/* A run of members that did not change moves as one. */
		size_t j = i;
		uint64_t n = 0;
		while (j < p->count && !p->m[j].edited)
			n += p->m[j++].extent;
		rc = pack_copy(a->src.fd, a->src.base + m->offset, out,
			       base + m->new_offset, n, pg);
		i = j;
	}
	return rc;
}

void pack_members_free(struct pack_members *a)
{
	for (size_t i = 0; a->names && i < a->count; i++)
		free(a->names[i]);
	free(a->names);
	free(a->entries);
	free(a->plan.m);
	free(a->spill_at);
	memset(a, 0, sizeof *a);
}
