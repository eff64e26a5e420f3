/* SPDX-License-Identifier: MIT */
/* dbdir.c - model database folders and the producers of their files. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dbmod/dbmod.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "views/dbdir.h"

/* Databases are small (tens of KB on the discs); anything far larger is
 * no database of that game. */
#define DBDIR_MAX (64u << 20)

struct dbdir {
	const char *path;       /* for messages, and to open a host file */
	struct blob blob;       /* fd -1: open path when read */
	struct node *dir;       /* its inode keys the cached bytes */
};

bool dbdir_probe(const uint8_t *p, size_t len)
{
	return dbmod_probe(p, len);
}

static int read_all(struct dbdir *d, uint8_t **data, size_t *len)
{
	struct blob b = d->blob;
	int fd = -1;
	if (b.fd < 0) {
		int rc = blob_open_file(d->path, &b);
		if (rc < 0)
			return rc;
		fd = b.fd;
	}
	int rc = 0;
	if (b.size > DBDIR_MAX) {
		rc = -EFBIG;
	} else {
		*data = malloc(b.size ? (size_t)b.size : 1);
		ssize_t got = *data ? blob_read(&b, *data, (size_t)b.size, 0)
				    : -ENOMEM;
		if (got < 0) {
			rc = (int)got;
			log_error("%s: %s", d->path, strerror(-rc));
		} else {
			*len = (size_t)got;
		}
		if (rc < 0) {
			free(*data);
			*data = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

static int fill_bytes(void *ctx, uint8_t **data, size_t *len)
{
	return read_all(ctx, data, len);
}

/* The database opened over its cached bytes; dbmod_close and cache_put
 * when done. */
static int open_db(struct fs *fs, struct dbdir *d, struct cache_ref *ref,
		   struct dbmod *db, struct reason *why)
{
	int rc = cache_get(fs_cache(fs), tree_key(d->dir), fill_bytes, d, ref);
	if (rc < 0)
		return rc;
	rc = dbmod_open(db, ref->data, ref->len, why);
	if (rc < 0)
		cache_put(fs_cache(fs), ref);
	return rc;
}

enum db_file { DB_LIST, DB_BIN, DB_TXT, DB_OBJ, DB_MTL, DB_ERROR };

/* A made file's argument: the table position and which file. */
#define DB_ARG(pos, file) ((pos) * 8 + (file))

static int produce(struct fs *fs, struct node *n, uint8_t **data, size_t *len)
{
	struct dbdir *d = tree_made_ctx(n);
	size_t pos = tree_made_arg(n) / 8;
	enum db_file file = tree_made_arg(n) % 8;
	struct cache_ref ref;
	struct dbmod db;
	struct reason why = { "" };
	int rc = open_db(fs, d, &ref, &db, &why);
	if (rc < 0)
		return rc;
	struct strbuf sb = STRBUF_INIT, mtl = STRBUF_INIT;
	size_t start = 0, bytes = 0;
	switch (file) {
	case DB_LIST:
		rc = dbmod_models_text(&db, &sb);
		break;
	case DB_BIN:
		rc = dbmod_model_bytes(&db, pos, &start, &bytes, &why);
		if (rc == 0)
			sb_append(&sb, ref.data + start, bytes);
		break;
	case DB_TXT:
		rc = dbmod_model_text(&db, pos, &sb, &why);
		break;
	case DB_OBJ:
	case DB_MTL:
		rc = dbmod_model_obj(&db, pos, &sb, &mtl, &why);
		if (file == DB_MTL) {
			struct strbuf t = sb;
			sb = mtl;
			mtl = t;
		}
		break;
	case DB_ERROR:
		rc = dbmod_check(&db, pos, NULL, &why);
		sb_printf(&sb, "%s\n", rc < 0 ? why.text : "no error");
		rc = 0;
		break;
	}
	dbmod_close(&db);
	cache_put(fs_cache(fs), &ref);
	sb_free(&mtl);
	if (rc < 0) {
		sb_free(&sb);
		return rc;
	}
	return sb_finish(&sb, data, len);
}

static void add_model(struct dir_builder *b, struct dbdir *d,
		      const struct dbmod *db, size_t pos, time_t t)
{
	char name[16];
	struct reason why = { "" };
	snprintf(name, sizeof name, "%04u", db->entries[pos].id);
	struct node *m = dir_add_dir(b, name, t, NULL, NULL);
	if (!m)
		return;
	struct dir_builder mb;
	dir_builder_init(&mb, b->fs, m);
	static const char *const files[] = { NULL, "model.bin", "model.txt",
					     "model.obj", "model.mtl" };
	for (enum db_file f = DB_BIN; f <= DB_MTL; f++)
		dir_add_made(&mb, files[f], t, produce, d,
			     (uint32_t)DB_ARG(pos, f));
	/* Checked as listed: a broken model says why at once, and its
	 * files fail with EIO. */
	if (dbmod_check(db, pos, NULL, &why) < 0) {
		dir_add_made(&mb, "error.txt", t, produce, d,
			     (uint32_t)DB_ARG(pos, DB_ERROR));
		log_error("%s: model %s: %s", d->path, name, why.text);
	}
	if (dir_publish(&mb) < 0)
		b->failed = true;
}

static int populate(struct fs *fs, struct node *dir)
{
	struct dbdir *d = tree_dir_ctx(dir);
	d->dir = dir;
	struct cache_ref ref;
	struct dbmod db;
	struct reason why = { "" };
	int rc = open_db(fs, d, &ref, &db, &why);
	if (rc < 0) {
		log_error("%s: not a readable model database: %s", d->path,
			  reason_or_errno(&why, rc));
		return rc;
	}
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	dir_add_made(&b, "models.txt", tree_mtime(dir), produce, d,
		     (uint32_t)DB_ARG(0, DB_LIST));
	for (size_t pos = 0; pos < db.count; pos++)
		if (db.entries[pos].present && !db.entries[pos].duplicate)
			add_model(&b, d, &db, pos, tree_mtime(dir));
	dbmod_close(&db);
	cache_put(fs_cache(fs), &ref);
	return dir_publish(&b);
}

static struct dbdir *dbdir_new(struct fs *fs, const char *path,
			       const struct blob *blob)
{
	struct dbdir *d = fs_alloc(fs, sizeof *d);
	if (!d)
		return NULL;
	d->path = fs_strdup(fs, path);
	d->blob.fd = -1;
	if (blob)
		d->blob = *blob;
	return d->path ? d : NULL;
}

struct node *dbdir_add(struct dir_builder *b, const char *name, time_t mtime,
		       const char *path, const struct blob *blob)
{
	struct dbdir *d = dbdir_new(b->fs, path, blob);
	if (!d) {
		b->failed = true;
		return NULL;
	}
	return dir_add_dir(b, name, mtime, populate, d);
}

struct node *dbdir_root(struct fs *fs, time_t mtime, const char *path)
{
	struct dbdir *d = dbdir_new(fs, path, NULL);
	return d ? node_new_dir(fs, "", mtime, populate, d) : NULL;
}
