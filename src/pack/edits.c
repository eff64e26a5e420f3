/* SPDX-License-Identifier: MIT */
/* edits.c - edits as files in the overlay folder. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccsf/ccsf.h"
#include "pack/edits.h"
#include "util/vec.h"

/* Folders deeper than this are no tree's. */
#define DEPTH_MAX 32

struct edit_file {
	char *rel;              /* "DATA/DATA.BIN/xasc00/xasc00.ccs" */
	uint64_t size;
	time_t mtime;
	bool used;
	char *host;             /* its path, once asked for */
};

struct pack_edits {
	char *dir;
	struct edit_file *f;
	size_t count, cap;
	pack_edits_reader reader;       /* NULL: the folder's .ccs files */
	void *reader_ctx;
	char **members;                 /* "ARCHIVE/MEMBER/" the reader edits */
	time_t *mtimes;                 /* each one's newest edit's */
	size_t nmembers, mcap, tcap;
};

static int add_file(struct pack_edits *e, const char *rel,
		    const struct stat *st)
{
	if (vec_reserve(e->f, &e->cap, e->count + 1, 64) < 0)
		return -ENOMEM;
	char *copy = strdup(rel);
	if (!copy)
		return -ENOMEM;
	e->f[e->count++] = (struct edit_file){ copy, (uint64_t)st->st_size,
					       st->st_mtime, false, NULL };
	return 0;
}

static int walk(struct pack_edits *e, const char *rel, int depth,
		struct reason *why)
{
	char path[4096];
	snprintf(path, sizeof path, "%s%s%s", e->dir, *rel ? "/" : "", rel);
	DIR *d = opendir(path);
	if (!d) {
		reason_set(why, "%s: %s", path, strerror(errno));
		return -errno;
	}
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    (!*rel && !strcmp(de->d_name, ".ccsfs")))
			continue;       /* the overlay's lock and staging */
		char sub[4096], full[8192];
		if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", rel,
				     *rel ? "/" : "", de->d_name) >= sizeof sub)
			continue;
		if ((size_t)snprintf(full, sizeof full, "%s/%s", e->dir, sub)
		    >= sizeof full)
			continue;
		struct stat st;
		if (lstat(full, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < DEPTH_MAX)
			rc = walk(e, sub, depth + 1, why);
		else if (S_ISREG(st.st_mode))
			rc = add_file(e, sub, &st);
	}
	closedir(d);
	return rc;
}

static int by_rel(const void *a, const void *b)
{
	return strcmp(((const struct edit_file *)a)->rel,
		      ((const struct edit_file *)b)->rel);
}

int pack_edits_open(const char *dir, struct pack_edits **out,
		    struct reason *why)
{
	struct pack_edits *e = calloc(1, sizeof *e);
	if (!e || !(e->dir = strdup(dir))) {
		free(e);
		return -ENOMEM;
	}
	int rc = walk(e, "", 0, why);
	if (rc < 0) {
		pack_edits_free(e);
		return rc;
	}
	if (e->count)
		qsort(e->f, e->count, sizeof *e->f, by_rel);
	*out = e;
	return 0;
}

void pack_edits_free(struct pack_edits *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->count; i++) {
		free(e->f[i].rel);
		free(e->f[i].host);
	}
	free(e->f);
	free(e->dir);
	for (size_t i = 0; i < e->nmembers; i++)
		free(e->members[i]);
	free(e->members);
	free(e->mtimes);
	free(e);
}

static struct edit_file *find(struct pack_edits *e, const char *rel)
{
	struct edit_file key = { (char *)rel, 0, 0, false, NULL };
	return e->count ? bsearch(&key, e->f, e->count, sizeof *e->f, by_rel)
			: NULL;
}

static int read_all(const char *path, size_t len, uint8_t **data)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint8_t *buf = malloc(len ? len : 1);
	size_t got = 0;
	while (buf && got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!buf)
		return -ENOMEM;
	if (got != len) {
		free(buf);
		return -EIO;
	}
	*data = buf;
	return 0;
}

/* The bytes read (rc 0) must walk as a CCSF file to their end. */
static int check_walk(const char *rel, int rc, uint8_t **data, size_t *len,
		      struct reason *why)
{
	if (rc < 0)
		return rc;
	struct ccsf_scene s;
	rc = ccsf_walk(*data, *len, &s);
	if (rc < 0)
		reason_set(why, "%s: does not walk as a CCSF file: %s", rel,
			   rc == -ENOMEM ? "out of memory" : s.error.text);
	ccsf_scene_free(&s);
	if (rc < 0) {
		free(*data);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	return 0;
}

int pack_edits_member(struct pack_edits *e, const char *archive,
		      const char *member, size_t max, uint8_t **data,
		      size_t *len, time_t *mtime, struct reason *why)
{
	char rel[4096];
	if (e->reader) {
		snprintf(rel, sizeof rel, "%s%s%s/", archive,
			 *archive ? "/" : "", member);
		for (size_t i = 0; i < e->nmembers; i++)
			if (!strcmp(e->members[i], rel)) {
				*mtime = e->mtimes[i];
				return check_walk(rel, e->reader(e->reader_ctx,
					archive, member, max, data, len, why),
					data, len, why);
			}
		return -ENOENT;
	}
	snprintf(rel, sizeof rel, "%s%s%s/%s.ccs", archive, *archive ? "/" : "",
		 member, member);
	struct edit_file *f = find(e, rel);
	if (!f)
		return -ENOENT;
	f->used = true;
	if (f->size > max) {
		reason_set(why, "%s: %llu bytes, more than the %zu a member "
			   "may hold", rel, (unsigned long long)f->size, max);
		return -EINVAL;
	}
	char path[8192];
	snprintf(path, sizeof path, "%s/%s", e->dir, rel);
	int rc = read_all(path, (size_t)f->size, data);
	if (rc < 0) {
		reason_set(why, "%s: %s", rel, strerror(-rc));
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	*len = (size_t)f->size;
	*mtime = f->mtime;
	return check_walk(rel, 0, data, len, why);
}

int pack_edits_file(struct pack_edits *e, const char *path,
		    const char **host, uint64_t *size, time_t *mtime)
{
	struct edit_file *f = find(e, path);
	if (!f)
		return -ENOENT;
	if (!f->host) {
		char buf[8192];
		snprintf(buf, sizeof buf, "%s/%s", e->dir, path);
		if (!(f->host = strdup(buf)))
			return -ENOMEM;
	}
	f->used = true;
	*host = f->host;
	*size = f->size;
	*mtime = f->mtime;
	return 0;
}

const char *pack_edits_unused(const struct pack_edits *e, size_t *i)
{
	while (*i < e->count && e->f[*i].used)
		(*i)++;
	return *i < e->count ? e->f[(*i)++].rel : NULL;
}

bool pack_edits_has_below(const struct pack_edits *e, const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; i < e->count; i++)
		if (!n || (!strncmp(e->f[i].rel, path, n) &&
			   e->f[i].rel[n] == '/'))
			return true;
	return false;
}

int pack_edits_use_reader(struct pack_edits *e, pack_edits_reader fn,
			  void *ctx)
{
	e->reader = fn;
	e->reader_ctx = ctx;
	return 0;
}

int pack_edits_add_member(struct pack_edits *e, const char *archive,
			  const char *member, const char *path)
{
	char rel[4096];
	snprintf(rel, sizeof rel, "%s%s%s/", archive, *archive ? "/" : "",
		 member);
	struct edit_file *f = find(e, path);
	time_t t = f ? f->mtime : 0;
	if (f)
		f->used = true;
	for (size_t i = 0; i < e->nmembers; i++)
		if (!strcmp(e->members[i], rel)) {
			if (t > e->mtimes[i])
				e->mtimes[i] = t;
			return 0;
		}
	char *copy = strdup(rel);
	if (!copy || vec_reserve(e->members, &e->mcap, e->nmembers + 1, 16) < 0 ||
	    vec_reserve(e->mtimes, &e->tcap, e->nmembers + 1, 16) < 0) {
		free(copy);
		return -ENOMEM;
	}
	e->mtimes[e->nmembers] = t;
	e->members[e->nmembers++] = copy;
	return 0;
}
