/* SPDX-License-Identifier: MIT */
/* source.c - the files of an image, a folder or an archive. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archive.h"
#include "pack/source.h"
#include "util/vec.h"

/* No disc nests its folders this deep; a record that loops would. */
#define DEPTH_MAX 16

static struct pack_file *add(struct pack_source *s, const char *path,
			     const char *host)
{
	if (vec_reserve(s->f, &s->cap, s->count + 1, 64) < 0)
		return NULL;
	struct pack_file *f = &s->f[s->count];
	memset(f, 0, sizeof *f);
	f->path = strdup(path);
	f->host = host ? strdup(host) : NULL;
	if (!f->path || (host && !f->host)) {
		free(f->path);
		free(f->host);
		return NULL;
	}
	s->count++;
	return f;
}

static void probe(const struct pack_source *s, struct pack_file *f)
{
	struct blob b;
	uint8_t sector[ARCHIVE_SECTOR];
	if (f->is_dir || pack_source_blob(s, f, &b) < 0)
		return;
	ssize_t got = blob_read(&b, sector, sizeof sector, 0);
	f->archive = got > 0 && archive_probe(sector, (size_t)got);
	pack_source_blob_done(s, &b);
}

static int walk_iso(struct pack_source *s, const struct iso_entry *dir,
		    const char *path, int depth, struct reason *why)
{
	struct iso_listing l;
	int rc = depth > DEPTH_MAX ? -ELOOP : iso_list(s->img, dir, &l);
	if (rc < 0) {
		reason_set(why, "%s/: cannot list: %s", path, strerror(-rc));
		return rc;
	}
	for (size_t i = 0; rc == 0 && i < l.count; i++) {
		const struct iso_entry *e = &l.entries[i];
		char sub[4096];
		snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "/" : "",
			 e->name);
		struct pack_file *f = add(s, sub, NULL);
		if (!f) {
			rc = -ENOMEM;
			break;
		}
		f->is_dir = e->is_dir;
		f->size = e->recorded_size;
		f->offset = e->offset;
		f->record_at = e->record_at;
		f->mtime = e->mtime;
		f->mode = e->is_dir ? 0755 : 0644;
		if (e->clipped) {
			reason_set(why, "%s: runs past the image's end", sub);
			rc = -EINVAL;
		} else if (e->is_dir) {
			rc = walk_iso(s, e, sub, depth + 1, why);
		} else {
			probe(s, f);
		}
	}
	iso_listing_free(&l);
	return rc;
}

static int walk_host(struct pack_source *s, const char *host,
		     const char *path, int depth, struct reason *why)
{
	DIR *d = depth > DEPTH_MAX ? NULL : opendir(host);
	if (!d) {
		reason_set(why, "%s: %s", host, strerror(errno));
		return -errno;
	}
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char sub[4096], full[4096];
		snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "/" : "",
			 de->d_name);
		snprintf(full, sizeof full, "%s/%s", host, de->d_name);
		struct stat st;
		if (stat(full, &st) < 0 ||
		    !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			continue;
		struct pack_file *f = add(s, sub, full);
		if (!f) {
			rc = -ENOMEM;
			break;
		}
		f->is_dir = S_ISDIR(st.st_mode);
		f->size = (uint64_t)st.st_size;
		f->mtime = st.st_mtime;
		f->mode = st.st_mode & 07777;
		if (f->is_dir)
			rc = walk_host(s, full, sub, depth + 1, why);
		else
			probe(s, f);
	}
	closedir(d);
	return rc;
}

static int open_image(const char *path, struct pack_source *s,
		      struct reason *why)
{
	char err[512];
	s->kind = PACK_IMAGE;
	s->img = iso_open(path, err, sizeof err);
	if (!s->img) {
		reason_set(why, "%s", err);
		return -EINVAL;
	}
	s->size = iso_image_size(s->img);
	return walk_iso(s, iso_root(s->img), "", 0, why);
}

int pack_source_open(const char *path, struct pack_source *s,
		     struct reason *why)
{
	memset(s, 0, sizeof *s);
	struct stat st;
	if (stat(path, &st) < 0) {
		reason_set(why, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		s->kind = PACK_FOLDER;
		return walk_host(s, path, "", 0, why);
	}
	uint8_t vd[ISO_PROBE_LEN];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : pread(fd, vd, sizeof vd, ISO_PROBE_OFFSET);
	if (fd >= 0)
		close(fd);
	if (fd < 0) {
		reason_set(why, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (got > 0 && iso_probe(vd, (size_t)got))
		return open_image(path, s, why);
	s->kind = PACK_ARCHIVE;
	struct pack_file *f = add(s, "", path);
	if (!f)
		return -ENOMEM;
	f->size = (uint64_t)st.st_size;
	f->mtime = st.st_mtime;
	f->mode = st.st_mode & 07777;
	probe(s, f);
	if (!f->archive) {
		reason_set(why, "%s: neither an ISO 9660 image nor a game "
			   "archive", path);
		return -EINVAL;
	}
	return 0;
}

void pack_source_close(struct pack_source *s)
{
	for (size_t i = 0; i < s->count; i++) {
		free(s->f[i].path);
		free(s->f[i].host);
	}
	free(s->f);
	iso_close(s->img);
	memset(s, 0, sizeof *s);
}

int pack_source_blob(const struct pack_source *s, const struct pack_file *f,
		     struct blob *b)
{
	if (s->kind == PACK_IMAGE) {
		*b = (struct blob){ iso_fd(s->img), f->offset, f->size };
		return 0;
	}
	return blob_open_file(f->host, b);
}

void pack_source_blob_done(const struct pack_source *s, struct blob *b)
{
	if (s->kind != PACK_IMAGE && b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

/* Path components equal without regard to case, '\\' as '/'. */
static int same_path(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '\\' ? '/' : *a, y = *b == '\\' ? '/' : *b;
		if (strncasecmp(&x, &y, 1) != 0)
			return 0;
	}
	return *a == *b;
}

const struct pack_file *pack_source_find(const struct pack_source *s,
					 const char *path)
{
	while (*path == '\\' || *path == '/')
		path++;
	for (size_t i = 0; i < s->count; i++)
		if (!s->f[i].is_dir && same_path(s->f[i].path, path))
			return &s->f[i];
	return NULL;
}
