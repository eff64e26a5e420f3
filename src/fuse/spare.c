/* SPDX-License-Identifier: MIT */
/* spare.c - the files an overlay mount shows beside the tree's: the
 * listing of edits, and the overlay folder's own files. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "edit/overlay.h"
#include "edit/store.h"
#include "fuse/spare.h"
#include "tree/tree.h"
#include "util/vec.h"

static struct overlay *overlay;

/* Every path named to the kernel, by its id less one. */
static struct {
	pthread_mutex_t lock;
	char **paths;
	size_t count, cap;
} seen = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

void spare_set_overlay(struct overlay *ov)
{
	overlay = ov;
}

struct overlay *spare_overlay(void)
{
	return overlay;
}

int spare_path(struct node *dir, const char *name, char *buf, size_t size)
{
	int rc = tree_node_path(dir, buf, size);
	if (rc < 0)
		return rc;
	size_t used = strlen(buf);
	if ((size_t)snprintf(buf + used, size - used, "%s%s", used ? "/" : "",
			     name) >= size - used)
		return -ENAMETOOLONG;
	return 0;
}

int64_t spare_id(const char *path)
{
	pthread_mutex_lock(&seen.lock);
	int64_t id = -ENOMEM;
	for (size_t i = 0; i < seen.count && id < 0; i++)
		if (strcmp(seen.paths[i], path) == 0)
			id = (int64_t)i + 1;
	if (id < 0 && seen.count < UINT32_MAX - 1 &&
	    vec_reserve(seen.paths, &seen.cap, seen.count + 1, 16) == 0 &&
	    (seen.paths[seen.count] = strdup(path)))
		id = (int64_t)++seen.count;
	pthread_mutex_unlock(&seen.lock);
	return id;
}

bool spare_path_of(uint32_t id, char *buf, size_t size)
{
	pthread_mutex_lock(&seen.lock);
	bool ok = id && id <= seen.count &&
		  strlen(seen.paths[id - 1]) < size;
	if (ok)
		strcpy(buf, seen.paths[id - 1]);
	pthread_mutex_unlock(&seen.lock);
	return ok;
}

int spare_attr(uint32_t id, uid_t uid, gid_t gid, struct stat *st)
{
	memset(st, 0, sizeof *st);
	if (id == SPARE_LISTING) {
		uint8_t *text;
		size_t len;
		int rc = overlay_edits_text(overlay, &text, &len);
		if (rc < 0)
			return rc;
		free(text);
		st->st_mode = S_IFREG | 0444;
		st->st_size = (off_t)len;
		st->st_mtime = st->st_ctime = st->st_atime = time(NULL);
	} else {
		char path[4096];
		if (!spare_path_of(id, path, sizeof path))
			return -ESTALE;
		int rc = store_stat(overlay_store(overlay), path, st);
		if (rc < 0)
			return rc == -ENOENT ? -ESTALE : rc;
		st->st_mode = S_IFREG | 0644;
	}
	st->st_ino = tree_spare_handle(id);
	st->st_nlink = 1;
	st->st_uid = uid;
	st->st_gid = gid;
	return 0;
}

bool spare_reserved(struct node *dir, const char *name)
{
	return !tree_parent(dir) && (strcmp(name, STORE_OWN) == 0 ||
				     strcmp(name, OVERLAY_LISTING) == 0);
}

int spare_lookup(struct fs *fs, struct node *dir, const char *name,
		 struct fuse_entry_param *e)
{
	memset(e, 0, sizeof *e);
	int64_t id;
	if (!tree_parent(dir) && strcmp(name, OVERLAY_LISTING) == 0) {
		id = SPARE_LISTING;
	} else {
		char path[4096];
		struct stat sb;
		if (spare_reserved(dir, name))
			return -ENOENT;
		int rc = spare_path(dir, name, path, sizeof path);
		if (rc == 0)
			rc = store_stat(overlay_store(overlay), path, &sb);
		if (rc < 0)
			return rc;
		id = spare_id(path);
		if (id < 0)
			return (int)id;
	}
	int rc = spare_attr((uint32_t)id, fs_uid(fs), fs_gid(fs), &e->attr);
	if (rc < 0)
		return rc == -ESTALE ? -ENOENT : rc;
	e->ino = tree_spare_handle((uint32_t)id);
	e->generation = 1;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **spare_names(struct fs *fs, struct node *dir, size_t *count)
{
	char path[4096];
	char **names = NULL;
	*count = 0;
	if (tree_node_path(dir, path, sizeof path) < 0 ||
	    store_names(overlay_store(overlay), path, &names, count) < 0)
		return NULL;
	size_t kept = 0;
	for (size_t i = 0; i < *count; i++) {
		int err;
		char sub[4096];
		struct stat sb;
		bool keep = !tree_child(fs, dir, names[i], &err) &&
			    !spare_reserved(dir, names[i]) &&
			    spare_path(dir, names[i], sub, sizeof sub) == 0 &&
			    store_stat(overlay_store(overlay), sub, &sb) == 0;
		if (keep)
			names[kept++] = names[i];
		else
			free(names[i]);
	}
	*count = kept;
	if (!tree_parent(dir)) {
		char **more = realloc(names, (*count + 1) * sizeof *names);
		if (more) {
			names = more;
			memmove(names + 1, names, *count * sizeof *names);
			names[0] = strdup(OVERLAY_LISTING);
			if (names[0])
				++*count;
			else
				memmove(names, names + 1, *count * sizeof *names);
		}
		if (*count > 1)
			qsort(names + 1, *count - 1, sizeof *names, by_name);
	} else if (*count) {
		qsort(names, *count, sizeof *names, by_name);
	}
	return names;
}

void spare_names_free(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}
