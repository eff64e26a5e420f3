/* SPDX-License-Identifier: MIT */
/* pack_overlay.c - ccsfs-pack's edits through the overlay and the tree. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bin/pack_overlay.h"
#include "cache/cache.h"
#include "cache/readahead.h"
#include "edit/overlay.h"
#include "tree/tree.h"
#include "views/source.h"

#define PROG "ccsfs-pack"
#define MAX_MEMBER ((size_t)1 << 30)

struct pack_overlay {
	struct fs *fs;
	struct overlay *ov;
	struct pack_edits *e;
	size_t refused;
	int rc;
};

struct pack_overlay *pack_overlay_open(const char *source, const char *dir,
				       size_t cache_size, struct reason *why)
{
	struct pack_overlay *po = calloc(1, sizeof *po);
	char err[512] = "";
	if (!po || !(po->fs = fs_new(cache_size))) {
		reason_set(why, "out of memory");
		free(po);
		return NULL;
	}
	fs_set_max_member(po->fs, MAX_MEMBER);
	readahead_disable(fs_readahead(po->fs));
	int rc = source_open(po->fs, source, err, sizeof err);
	if (rc == 0) {
		/* Beside a mount of the same folder, read without its lock. */
		rc = overlay_open(po->fs, dir, 0, &po->ov, err, sizeof err);
		if (rc == -EBUSY)
			rc = overlay_open(po->fs, dir, OVERLAY_NO_LOCK, &po->ov,
					  err, sizeof err);
	}
	if (rc == 0 && (rc = overlay_load(po->ov)) < 0)
		snprintf(err, sizeof err, "%s: cannot read the folder", dir);
	if (rc < 0) {
		reason_set(why, "%s", err[0] ? err : strerror(-rc));
		pack_overlay_close(po);
		return NULL;
	}
	return po;
}

void pack_overlay_close(struct pack_overlay *po)
{
	if (!po)
		return;
	if (po->ov)
		overlay_close(po->ov);
	fs_free(po->fs);
	free(po);
}

static int each_edit(void *ctx, const struct overlay_edit *e)
{
	struct pack_overlay *po = ctx;
	if (!e->applied) {
		fprintf(stderr, PROG ": %s: refused: %s\n", e->path, e->why);
		po->refused++;
		return 0;
	}
	if (!e->member)
		return 0;
	/* The archive's path in the tree: what comes before the member's
	 * folder in the edit's path ("" when the archive is the source). */
	char archive[4096], key[1024];
	snprintf(key, sizeof key, "/%s/", e->member);
	size_t n = strlen(e->member);
	const char *at = strstr(e->path, key);
	if (!strncmp(e->path, e->member, n) && e->path[n] == '/')
		archive[0] = 0;
	else if (at)
		snprintf(archive, sizeof archive, "%.*s", (int)(at - e->path),
			 e->path);
	else
		return 0;
	return pack_edits_add_member(po->e, archive, e->member, e->path);
}

/* The file at path in the tree, within tree_enter. */
static struct node *find(struct fs *fs, const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	struct node *n = fs_root(fs);
	for (char *save, *p = strtok_r(buf, "/", &save); n && p;
	     p = strtok_r(NULL, "/", &save)) {
		int err;
		n = tree_child(fs, n, p, &err);
	}
	return n;
}

static int read_member(void *ctx, const char *archive, const char *member,
		       size_t max, uint8_t **data, size_t *len,
		       struct reason *why)
{
	struct pack_overlay *po = ctx;
	char path[4096];
	snprintf(path, sizeof path, "%s%s%s/%s.ccs", archive,
		 *archive ? "/" : "", member, member);
	tree_enter(po->fs);
	struct node *n = find(po->fs, path);
	struct stat st;
	int host_fd = -1;
	int rc = !n ? -ENOENT : tree_stat(po->fs, n, &st);
	if (rc == 0 && (uint64_t)st.st_size > max)
		rc = -EFBIG;
	if (rc == 0)
		rc = tree_open(po->fs, n, &host_fd);
	struct cache_ref ref;
	const uint8_t *p;
	size_t got = 0;
	if (rc == 0)
		rc = tree_bytes(po->fs, n, 0, SIZE_MAX, &ref, &p, &got);
	if (rc == 0) {
		*data = malloc(got ? got : 1);
		if (*data)
			memcpy(*data, p, got);
		else
			rc = -ENOMEM;
		cache_put(fs_cache(po->fs), &ref);
	}
	tree_leave(po->fs);
	*len = got;
	if (rc < 0)
		reason_set(why, "%s: %s", path, rc == -EFBIG ?
			   "larger than the cache size" : strerror(-rc));
	return rc == -EFBIG || rc == -ENOENT ? -EINVAL : rc;
}

int pack_overlay_ready(struct pack_edits *e, void *ctx, struct reason *why)
{
	struct pack_overlay *po = ctx;
	po->e = e;
	po->refused = 0;
	int rc = overlay_edits(po->ov, each_edit, po);
	if (rc < 0) {
		reason_set(why, "out of memory");
		return rc;
	}
	if (po->refused) {
		reason_set(why, "%zu edit%s refused (as %s says)", po->refused,
			   po->refused == 1 ? "" : "s", OVERLAY_LISTING);
		return -EINVAL;
	}
	return pack_edits_use_reader(e, read_member, po);
}
