/* SPDX-License-Identifier: MIT */
/* source.c - the root of the tree from a disc image, a host directory or
 * an archive. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archive.h"
#include "io/iso.h"
#include "util/log.h"
#include "views/dbdir.h"
#include "views/gameindex.h"
#include "views/iso_claim.h"
#include "views/member.h"
#include "views/source.h"
#include "views/text_dir.h"

enum file_kind_found { FOUND_PLAIN, FOUND_ARCHIVE, FOUND_DBMOD };

static enum file_kind_found kind_of_sector(const uint8_t *p, size_t len)
{
	if (archive_probe(p, len))
		return FOUND_ARCHIVE;
	if (dbdir_probe(p, len))
		return FOUND_DBMOD;
	return FOUND_PLAIN;
}

/* Reads a file's first sector and tells what it is by its content. */
static int probe_file(const char *path, enum file_kind_found *kind)
{
	*kind = FOUND_PLAIN;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint8_t sector[ARCHIVE_SECTOR];
	ssize_t got = pread(fd, sector, sizeof sector, 0);
	int rc = got < 0 ? -errno : 0;
	close(fd);
	if (got > 0)
		*kind = kind_of_sector(sector, (size_t)got);
	return rc;
}

/* A folder of the host: its path, and the source's index. */
struct host_dir {
	const char *path;
	struct game_index *gi;
};

static int populate_host_dir(struct fs *fs, struct node *dir);

static struct host_dir *host_dir_new(struct fs *fs, const char *path,
				     struct game_index *gi)
{
	struct host_dir *d = fs_alloc(fs, sizeof *d);
	if (!d)
		return NULL;
	d->path = fs_strdup(fs, path);
	d->gi = gi;
	return d->path ? d : NULL;
}

static void add_host_entry(struct dir_builder *b, const struct host_dir *hd,
			   const char *name)
{
	const char *dirpath = hd->path;
	char path[4096];
	struct stat st;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dirpath, name) >=
	    sizeof path)
		return;
	if (stat(path, &st) < 0) {
		log_error("%s: %s", path, strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		struct host_dir *d = host_dir_new(b->fs, path, hd->gi);
		if (!d) {
			b->failed = true;
			return;
		}
		dir_add_dir(b, name, st.st_mtime, populate_host_dir, d);
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;
	enum file_kind_found kind;
	int rc = probe_file(path, &kind);
	if (rc < 0)
		log_error("%s: %s", path, strerror(-rc));
	if (kind == FOUND_ARCHIVE)
		archive_dir_add(b, name, st.st_mtime, path, NULL, hd->gi);
	else if (kind == FOUND_DBMOD)
		dbdir_add(b, name, st.st_mtime, path, NULL);
	else
		dir_add_host_file(b, name, st.st_mtime, path,
				  (uint64_t)st.st_size);
}

static int populate_host_dir(struct fs *fs, struct node *dir)
{
	const struct host_dir *hd = tree_dir_ctx(dir);
	const char *dirpath = hd->path;
	DIR *d = opendir(dirpath);
	if (!d) {
		int rc = -errno;
		log_error("%s: %s", dirpath, strerror(errno));
		return rc;
	}
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		add_host_entry(&b, hd, e->d_name);
	}
	closedir(d);
	if (dir == fs_root(fs))
		text_dir_add(&b, hd->gi, tree_mtime(dir));
	return dir_publish(&b);
}

/* A directory on the disc: what populate_iso_dir lists. */
struct iso_dir {
	struct iso_image *img;
	struct iso_entry entry;
	const char *path;       /* "IMAGE/DATA": for messages and labels */
	const struct iso_dir *parent;   /* NULL at the root */
	struct game_index *gi;
	struct iso_claims *claims;      /* the image's, shared */
};

static int populate_iso_dir(struct fs *fs, struct node *dir);

static struct iso_dir *iso_dir_new(struct fs *fs, struct iso_image *img,
				   const struct iso_entry *e, const char *path,
				   const struct iso_dir *parent)
{
	struct iso_dir *d = fs_alloc(fs, sizeof *d);
	if (!d)
		return NULL;
	d->img = img;
	d->parent = parent;
	d->gi = parent ? parent->gi : NULL;
	d->claims = parent ? parent->claims : NULL;
	d->entry = *e;
	d->path = fs_strdup(fs, path);
	return d->path ? d : NULL;
}

/* Reads a disc file's first sector and tells what it is. */
static enum file_kind_found probe_blob(const struct blob *blob,
				       const char *path)
{
	uint8_t sector[ARCHIVE_SECTOR];
	ssize_t got = blob_read(blob, sector, sizeof sector, 0);
	if (got < 0) {
		log_error("%s: %s", path, strerror((int)-got));
		return FOUND_PLAIN;
	}
	return got > 0 ? kind_of_sector(sector, (size_t)got) : FOUND_PLAIN;
}

static void add_iso_entry(struct dir_builder *b, const struct iso_dir *parent,
			  const struct iso_entry *e)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/%s", parent->path,
			     e->name) >= sizeof path)
		return;
	if (e->is_dir) {
		/* A record naming the extent of a folder it is inside would
		 * make the tree endless: find and ls -R would never end. */
		for (const struct iso_dir *up = parent; up; up = up->parent)
			if (up->entry.lsn == e->lsn) {
				log_error("%s: a folder record that points back "
					  "at %s; left out", path, up->path);
				return;
			}
		uint32_t owner;
		int rc = iso_claim(parent->claims, e->lsn, parent->entry.lsn,
				   e->name, &owner);
		if (rc <= 0) {
			if (rc == 0)
				log_error("%s: names the folder another record "
					  "of the folder at sector %u shows; left "
					  "out", path, (unsigned)owner);
			b->failed = rc < 0;
			return;
		}
		struct iso_dir *d = iso_dir_new(b->fs, parent->img, e, path,
						parent);
		if (!d) {
			b->failed = true;
			return;
		}
		dir_add_dir(b, e->name, e->mtime, populate_iso_dir, d);
		return;
	}
	/* Shown with what the image holds, so reads match the size. */
	if (e->clipped)
		log_error("%s: runs past the image's end; %" PRIu64 " of %"
			  PRIu64 " bytes shown", path, e->size,
			  e->recorded_size);
	struct blob blob = iso_blob(parent->img, e);
	enum file_kind_found kind = probe_blob(&blob, path);
	if (kind == FOUND_ARCHIVE)
		archive_dir_add(b, e->name, e->mtime, path, &blob, parent->gi);
	else if (kind == FOUND_DBMOD)
		dbdir_add(b, e->name, e->mtime, path, &blob);
	else
		dir_add_blob_file(b, e->name, e->mtime, &blob);
}

static int populate_iso_dir(struct fs *fs, struct node *dir)
{
	const struct iso_dir *d = tree_dir_ctx(dir);
	struct iso_listing l;
	int rc = iso_list(d->img, &d->entry, &l);
	if (rc < 0) {
		log_error("%s: cannot read the directory: %s", d->path,
			  strerror(-rc));
		return rc;
	}
	if (l.skipped)
		log_error("%s: %zu directory records skipped (malformed, "
			  "multi-extent or interleaved)", d->path, l.skipped);
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (size_t i = 0; i < l.count; i++)
		add_iso_entry(&b, d, &l.entries[i]);
	iso_listing_free(&l);
	if (!d->parent)
		text_dir_add(&b, d->gi, tree_mtime(dir));
	return dir_publish(&b);
}

/* ---- the executable, for the game's index (gameindex.h) ---- */

/* The next backslash-separated part of path from *at, in part. */
static bool next_part(const char *path, size_t *at, char *part, size_t n)
{
	size_t i = *at, k = 0;
	while (path[i] == '\\')
		i++;
	while (path[i] && path[i] != '\\' && k + 1 < n)
		part[k++] = path[i++];
	part[k] = 0;
	*at = i;
	return k > 0;
}

static int read_blob_all(const struct blob *b, size_t max, uint8_t **data,
			 size_t *len)
{
	if (b->size > max)
		return -EFBIG;
	*data = malloc(b->size ? (size_t)b->size : 1);
	if (!*data)
		return -ENOMEM;
	ssize_t got = blob_read(b, *data, (size_t)b->size, 0);
	if (got < 0) {
		free(*data);
		return (int)got;
	}
	*len = (size_t)got;
	return 0;
}

/* A file of the image by its path from the root. */
static int iso_read_path(void *ctx, const char *path, size_t max,
			 uint8_t **data, size_t *len)
{
	const struct iso_dir *root = ctx;
	struct iso_entry at = root->entry;
	char part[ISO_NAME_MAX + 1];
	size_t i = 0;
	while (next_part(path, &i, part, sizeof part)) {
		struct iso_listing l;
		int rc = iso_list(root->img, &at, &l);
		if (rc < 0)
			return rc;
		size_t k = 0;
		while (k < l.count && strcasecmp(l.entries[k].name, part) != 0)
			k++;
		bool found = k < l.count && (path[i] ? l.entries[k].is_dir
						     : !l.entries[k].is_dir);
		if (found)
			at = l.entries[k];
		iso_listing_free(&l);
		if (!found)
			return -ENOENT;
	}
	if (at.is_dir)
		return -ENOENT;
	struct blob b = iso_blob(root->img, &at);
	return read_blob_all(&b, max, data, len);
}

/* The entry of dir named name without regard to case, into out. */
static int host_find(const char *dir, const char *name, char *out, size_t n)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	struct dirent *e;
	int rc = -ENOENT;
	while (rc == -ENOENT && (e = readdir(d)) != NULL)
		if (strcasecmp(e->d_name, name) == 0)
			rc = (size_t)snprintf(out, n, "%s/%s", dir, e->d_name)
			     < n ? 0 : -ENAMETOOLONG;
	closedir(d);
	return rc;
}

static int host_read_path(void *ctx, const char *path, size_t max,
			  uint8_t **data, size_t *len)
{
	const struct host_dir *root = ctx;
	char at[4096], part[256], next[4096];
	snprintf(at, sizeof at, "%s", root->path);
	size_t i = 0;
	while (next_part(path, &i, part, sizeof part)) {
		int rc = host_find(at, part, next, sizeof next);
		if (rc < 0)
			return rc;
		memcpy(at, next, sizeof at);
	}
	struct blob b;
	int rc = blob_open_file(at, &b);
	if (rc < 0)
		return rc;
	rc = read_blob_all(&b, max, data, len);
	close(b.fd);
	return rc;
}

/* Whether a file is a disc image: by its content, never its name. */
static int probe_iso(const char *path, bool *is_iso)
{
	*is_iso = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint8_t vd[ISO_PROBE_LEN];
	ssize_t got = pread(fd, vd, sizeof vd, ISO_PROBE_OFFSET);
	int rc = got < 0 ? -errno : 0;
	close(fd);
	if (got > 0)
		*is_iso = iso_probe(vd, (size_t)got);
	return rc;
}

/* The image stays open until fs_free closes it: every ISO node's
 * blob reads through its fd.  Last at unmount: the archives inside read
 * through the image. */
struct open_image {
	struct iso_image *img;
	struct iso_claims *claims;
};

static void close_image(void *ctx)
{
	struct open_image *o = ctx;
	iso_claims_free(o->claims);
	iso_close(o->img);
}

static int open_iso_source(struct fs *fs, const char *path, time_t mtime,
			   struct symfile *syms, char *err, size_t errlen)
{
	struct iso_image *img = iso_open(path, err, errlen);
	if (!img)
		return -EINVAL;
	const struct iso_entry *root = iso_root(img);
	struct open_image *o = fs_alloc(fs, sizeof *o);
	struct iso_claims *claims = iso_claims_new();
	uint32_t owner;
	/* The root's extent is claimed first: no record shows it again. */
	if (!o || !claims ||
	    iso_claim(claims, root->lsn, UINT32_MAX, "", &owner) < 0 ||
	    fs_on_destroy(fs, close_image, o) < 0) {
		iso_claims_free(claims);
		iso_close(img);
		return -ENOMEM;
	}
	*o = (struct open_image){ img, claims };
	char *abs = realpath(path, NULL);
	struct iso_dir *d = iso_dir_new(fs, img, root, abs ? abs : path, NULL);
	free(abs);
	if (d) {
		d->claims = claims;
		d->gi = game_index_new(fs, iso_read_path, d, syms);
	}
	/* A root without a recorded time takes the image's. */
	fs_set_root(fs, d ? node_new_dir(fs, "", root->mtime ? root->mtime
							    : mtime,
					 populate_iso_dir, d)
			  : NULL);
	return fs_root(fs) ? 0 : -ENOMEM;
}

int source_open(struct fs *fs, const char *path, char *err, size_t errlen)
{
	return source_open_symbols(fs, path, NULL, err, errlen);
}

static void free_symbols(void *p)
{
	symfile_free(p);
}

/* The source itself; syms (the tree frees them) go to its game index. */
static int open_source(struct fs *fs, const char *path, struct symfile *syms,
		       char *err, size_t errlen);

int source_open_symbols(struct fs *fs, const char *path, const char *symbols,
			char *err, size_t errlen)
{
	struct symfile *syms = NULL;
	if (symbols) {
		struct reason why = { "" };
		int rc = symfile_read(symbols, &syms, &why);
		if (rc < 0) {
			snprintf(err, errlen, "symbols=%s", why.text);
			return rc;
		}
		if (fs_on_destroy(fs, free_symbols, syms) < 0) {
			symfile_free(syms);
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if (symfile_skipped(syms))
			log_info("%s: %zu lines not of the shape ADDRESS [TYPE] "
				 "NAME skipped", symbols, symfile_skipped(syms));
	}
	return open_source(fs, path, syms, err, errlen);
}

static int open_source(struct fs *fs, const char *path, struct symfile *syms,
		       char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		int rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		if (access(path, R_OK | X_OK) < 0) {
			int rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return rc;
		}
		char *abs = realpath(path, NULL);
		struct host_dir *d = abs ? host_dir_new(fs, abs, NULL) : NULL;
		free(abs);
		if (d)
			d->gi = game_index_new(fs, host_read_path, d, syms);
		fs_set_root(fs, d ? node_new_dir(fs, "", st.st_mtime,
						 populate_host_dir, d)
				  : NULL);
		return fs_root(fs) ? 0 : -ENOMEM;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory, disc image or "
			 "archive", path);
		return -EINVAL;
	}
	bool is_iso = false;
	enum file_kind_found kind = FOUND_PLAIN;
	int rc = probe_iso(path, &is_iso);
	if (rc == 0 && is_iso)
		return open_iso_source(fs, path, st.st_mtime, syms, err, errlen);
	if (rc == 0)
		rc = probe_file(path, &kind);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (kind == FOUND_PLAIN) {
		snprintf(err, errlen, "%s: neither an ISO 9660 image (no volume "
			 "descriptor at sector 16) nor a game archive (its first "
			 "sector does not open a gzip member) nor a model "
			 "database (0xc0de0001)", path);
		return -EINVAL;
	}
	char *abs = realpath(path, NULL);
	fs_set_root(fs, kind == FOUND_ARCHIVE ?
			archive_dir_root(fs, st.st_mtime, abs ? abs : path) :
			dbdir_root(fs, st.st_mtime, abs ? abs : path));
	free(abs);
	return fs_root(fs) ? 0 : -ENOMEM;
}
