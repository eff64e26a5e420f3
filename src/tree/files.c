/* SPDX-License-Identifier: MIT */
/* files.c - a file's attributes and bytes: read from the host, an image,
 * a view or a stream, or made once into the cache (made.c; what is made
 * ahead of a reader or a listing is ahead.c's). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"
#include "util/blocking.h"
#include "util/bufpool.h"
#include "util/log.h"
#include "util/strbuf.h"

int tree_stat(struct fs *fs, struct node *n, struct stat *st)
{
	if (atomic_load(&n->unsettled) && fs->settle) {
		int rc = fs->settle(fs, n);
		if (rc < 0)
			return rc;
	}
	memset(st, 0, sizeof *st);
	st->st_ino = tree_ino(n);
	st->st_uid = fs->uid;
	st->st_gid = fs->gid;
	st->st_mtime = st->st_ctime = st->st_atime = n->mtime;
	st->st_blksize = 4096;
	switch (n->type) {
	case NODE_DIR:
		st->st_mode = S_IFDIR | 0555;
		/* A folder made on demand says 1, made or not, so that a
		 * listing does not depend on whether a worker got there
		 * first; 1 also tells find(1) not to count on it. */
		st->st_nlink = n->u.dir.populate ? 1 : 2 + n->u.dir.nsubdirs;
		return 0;
	case NODE_LINK:
		st->st_mode = S_IFLNK | 0777;
		st->st_nlink = 1;
		st->st_size = (off_t)atomic_load(&n->size);
		return 0;
	default:
		break;
	}
	st->st_mode = S_IFREG | 0444;
	st->st_nlink = 1;
	uint64_t size = atomic_load(&n->size);
	if (size == SIZE_UNKNOWN) {
		tree_stat_ahead(fs, n);
		int rc = tree_made_size(fs, n, tree_stat_measures(fs, n));
		if (atomic_load(&fs->stats_unopened) < LISTING_STATS)
			atomic_fetch_add(&fs->stats_unopened, 1);
		if (rc < 0)
			return rc;
		size = atomic_load(&n->size);
	}
	st->st_size = (off_t)size;
	st->st_blocks = (blkcnt_t)((size + 511) / 512);
	return 0;
}

int tree_bytes(struct fs *fs, struct node *n, uint64_t off, size_t size,
	       struct cache_ref *ref, const uint8_t **p, size_t *len)
{
	uint64_t base = 0, total;
	int rc;
	if (n->type != NODE_FILE || n->file_kind == FILE_HOST ||
	    n->file_kind == FILE_BLOB || n->file_kind == FILE_STREAM)
		return -EINVAL;
	if (n->file_kind == FILE_VIEW) {
		rc = n->u.view.ops->bytes(fs, n, ref);
		base = n->u.view.offset;
		total = atomic_load(&n->size);
	} else {
		rc = tree_made_bytes(fs, n, ref);
		total = ref->len;
	}
	if (rc < 0)
		return rc;
	if (off >= total) {
		*p = ref->data;
		*len = 0;
		return 0;
	}
	*p = ref->data + base + off;
	*len = size < total - off ? size : (size_t)(total - off);
	return 0;
}

/* A host file reads as long as it was listed: one that shrank under the
 * mount fails with EIO rather than hand out a short file, and one that
 * grew is cut at its listed size. */
static ssize_t host_read(struct node *n, char *buf, size_t size,
			 uint64_t off, int host_fd)
{
	uint64_t total = atomic_load(&n->size);
	if (off >= total)
		return 0;
	if (size > total - off)
		size = (size_t)(total - off);
	size_t got = 0;
	while (got < size) {
		ssize_t r = pread(host_fd, buf + got, size - got,
				  (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (got < size) {
		log_error("%s: shorter than when it was listed (%" PRIu64
			  " bytes, now ends at %" PRIu64 ")", n->u.host.path,
			  total, off + got);
		return -EIO;
	}
	return (ssize_t)got;
}

ssize_t tree_read(struct fs *fs, struct node *n, char *buf, size_t size,
		  uint64_t off, int host_fd)
{
	if (n->type != NODE_FILE)
		return -EISDIR;
	blocking_begins();      /* the disc's own bytes: disk time */
	if (n->file_kind == FILE_HOST)
		return host_read(n, buf, size, off, host_fd);
	if (n->file_kind == FILE_BLOB) {
		ssize_t r = blob_read(&n->u.blob, buf, size, off);
		if (r < 0) {
			char path[1024];
			if (tree_node_path(n, path, sizeof path) < 0)
				snprintf(path, sizeof path, "%s", n->name);
			log_error("%s: reading at byte %" PRIu64 ": %s", path,
				  off, strerror((int)-r));
		}
		return r;
	}
	if (n->file_kind == FILE_STREAM) {
		uint64_t total = atomic_load(&n->size);
		if (off >= total)
			return 0;
		if (size > total - off)
			size = (size_t)(total - off);
		return n->u.stream.read(fs, n, buf, size, off);
	}
	/* Views and made files are served from the cache by tree_bytes. */
	return -EINVAL;
}

bool tree_reads_copy(const struct node *n)
{
	return n->file_kind == FILE_HOST || n->file_kind == FILE_BLOB ||
	       n->file_kind == FILE_STREAM;
}

int tree_open(struct fs *fs, struct node *n, int *host_fd)
{
	*host_fd = -1;
	if (n->type == NODE_DIR)
		return -EISDIR;
	tree_mark_used(n);
	unit_touch(fs, n);
	switch (n->file_kind) {
	case FILE_HOST:
		*host_fd = open(n->u.host.path, O_RDONLY | O_CLOEXEC);
		return *host_fd < 0 ? -errno : 0;
	case FILE_VIEW:
		if (n->u.view.whole)
			tree_view_opened(fs, n);
		/* Fail here, not in read: the page cache may never ask. */
		return n->u.view.ops->open(fs, n);
	case FILE_MADE:
		atomic_store(&fs->stats_unopened, 0);
		tree_made_opened(fs, n);
		/* Sized once before (made, or measured by the same code)
		 * means it makes again: only a file never sized (or failing)
		 * needs its producer run now, to fail here. */
		return tree_made_size(fs, n, false);
	default:
		return 0;
	}
}
