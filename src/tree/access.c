/* SPDX-License-Identifier: MIT */
/* access.c - what the layers above may learn of a node and of the
 * mounted filesystem, and the few marks and settings they give them;
 * struct node and struct fs stay the tree's. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"

size_t tree_node_bytes(void)
{
	return sizeof(struct node);
}

const char *tree_name(const struct node *n)
{
	return n->name;
}

struct node *tree_parent(const struct node *n)
{
	return n->parent;
}

bool tree_is_dir(const struct node *n)
{
	return n->type == NODE_DIR;
}

bool tree_is_file(const struct node *n)
{
	return n->type == NODE_FILE;
}

bool tree_is_link(const struct node *n)
{
	return n->type == NODE_LINK;
}

time_t tree_mtime(const struct node *n)
{
	return n->mtime;
}

void node_set_mtime(struct node *n, time_t mtime)
{
	n->mtime = mtime;
}

uint64_t tree_size(const struct node *n)
{
	return atomic_load(&n->size);
}

void node_set_size(struct node *n, uint64_t size)
{
	atomic_store(&n->size, size);
}

bool tree_size_known(const struct node *n)
{
	return n->type != NODE_FILE || atomic_load(&n->size) != SIZE_UNKNOWN;
}

bool tree_unsettled(const struct node *n)
{
	return atomic_load(&n->unsettled);
}

void node_set_unsettled(struct node *n, bool unsettled)
{
	atomic_store(&n->unsettled, unsettled);
}

uint32_t tree_kid_count(const struct node *dir)
{
	return dir->u.dir.nkids;
}

struct node *tree_kid_at(const struct node *dir, uint32_t i)
{
	return dir->u.dir.kids[i];
}

uint32_t tree_subdir_count(const struct node *dir)
{
	return dir->u.dir.nsubdirs;
}

void *tree_dir_ctx(const struct node *dir)
{
	return dir->u.dir.ctx;
}

bool tree_dir_populated_by(const struct node *n, populate_fn populate)
{
	return n->type == NODE_DIR && n->u.dir.populate == populate;
}

void dir_set_costly(struct node *dir, bool costly)
{
	dir->u.dir.costly = costly;
}

bool tree_listed_ahead(const struct node *dir)
{
	return atomic_load(&dir->u.dir.listed_ahead);
}

void dir_set_listed_ahead(struct node *dir)
{
	atomic_store(&dir->u.dir.listed_ahead, true);
}

void *tree_made_ctx(const struct node *file)
{
	return file->u.made.ctx;
}

uint32_t tree_made_arg(const struct node *file)
{
	return file->u.made.arg;
}

bool tree_made_measures(const struct node *file)
{
	return file->file_kind == FILE_MADE && file->u.made.measures;
}

void *tree_stream_ctx(const struct node *file)
{
	return file->u.stream.ctx;
}

void *tree_view_source(const struct node *view)
{
	return view->u.view.source;
}

uint64_t tree_view_offset(const struct node *view)
{
	return view->u.view.offset;
}

bool tree_view_whole(const struct node *view)
{
	return view->u.view.whole;
}

const char *tree_link_target(const struct node *link)
{
	return link->u.link.target;
}

struct node *fs_root(const struct fs *fs)
{
	return fs->root;
}

void fs_set_root(struct fs *fs, struct node *root)
{
	fs->root = root;
}

struct cache *fs_cache(const struct fs *fs)
{
	return fs->cache;
}

struct readahead *fs_readahead(struct fs *fs)
{
	return &fs->readahead;
}

size_t fs_max_member(const struct fs *fs)
{
	return fs->max_member;
}

void fs_set_max_member(struct fs *fs, size_t bytes)
{
	fs->max_member = bytes;
}

int fs_png_level(const struct fs *fs)
{
	return fs->png_level;
}

void fs_set_png_level(struct fs *fs, int level)
{
	fs->png_level = level;
}

uid_t fs_uid(const struct fs *fs)
{
	return fs->uid;
}

gid_t fs_gid(const struct fs *fs)
{
	return fs->gid;
}

void fs_lock(struct fs *fs)
{
	pthread_mutex_lock(&fs->lock);
}

void fs_unlock(struct fs *fs)
{
	pthread_mutex_unlock(&fs->lock);
}

void fs_set_settle(struct fs *fs, settle_fn settle)
{
	fs->settle = settle;
}

void fs_set_stats_unopened(struct fs *fs, unsigned count)
{
	atomic_store(&fs->stats_unopened, count);
}

enum file_kind tree_file_kind(const struct node *file)
{
	return (enum file_kind)file->file_kind;
}

produce_fn tree_made_produce(const struct node *file)
{
	return file->file_kind == FILE_MADE ? file->u.made.produce : NULL;
}

const struct view_ops *tree_view_ops(const struct node *view)
{
	return view->file_kind == FILE_VIEW ? view->u.view.ops : NULL;
}

int tree_node_path(const struct node *n, char *buf, size_t size)
{
	/* Names from the leaf up, then turned around in place. */
	size_t used = 0;
	for (const struct node *p = n; p && p->parent; p = p->parent) {
		size_t len = strlen(p->name);
		if (used + len + 2 > size)
			return -ENAMETOOLONG;
		if (used)
			buf[used++] = '/';
		for (size_t i = 0; i < len; i++)
			buf[used++] = p->name[len - 1 - i];
	}
	buf[used] = '\0';
	for (size_t i = 0; i < used / 2; i++) {
		char c = buf[i];
		buf[i] = buf[used - 1 - i];
		buf[used - 1 - i] = c;
	}
	return 0;
}

uint64_t tree_spare_handle(uint32_t id)
{
	/* Unit 0 is never given (units count from 1): with the top bit set
	 * and unit 0, a handle names no node. */
	return UINT64_C(1) << 63 | id;
}

bool tree_handle_is_spare(uint64_t handle, uint32_t *id)
{
	/* A unit's handle has its unit (1 and up) in bits 40-62. */
	_Static_assert(HANDLE_LOCAL_BITS + HANDLE_CHECK_BITS >= 32,
		       "a spare handle's id lies below the unit's bits");
	if (!(handle >> 63) || (handle >> 32 & 0x7fffffff))
		return false;
	*id = (uint32_t)handle;
	return true;
}
