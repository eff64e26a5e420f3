/* SPDX-License-Identifier: MIT */
/* check_walk.c - ccsfs-check's walk: worker threads take folders from a
 * shared stack, list them (which scans archives and inflates members),
 * push the folders they hold and make every file they hold, reading all
 * of its bytes as the mount would and letting go of them at once. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/check.h"
#include "views/member.h"

#define READ_CHUNK ((size_t)128 << 10)
#define ERROR_TEXT_MAX ((size_t)64 << 10)

/* What a folder is to the counts. */
enum role { ROLE_PLAIN, ROLE_MEMBER, ROLE_OBJECT };

/* The bytes of an error.txt, kept to turn into problem lines. */
struct capture {
	char *text;
	size_t len;
	bool on;
};

struct worker {
	struct check *c;
	char *buf;              /* READ_CHUNK bytes for copied reads */
	pthread_t thread;
};

static void errtext(int err, char *buf, size_t len)
{
	/* GNU strerror_r: thread-safe, returns the text. */
	const char *s = strerror_r(err, buf, len);
	if (s != buf)
		snprintf(buf, len, "%s", s);
}

static void problem_errno(struct check *c, const char *path, int err)
{
	char msg[256];
	errtext(err, msg, sizeof msg);
	check_problem(c, path, msg);
}

void check_path(const struct node *n, char *buf, size_t len)
{
	const struct node *chain[256];
	size_t depth = 0, used = 0;
	for (; n && tree_parent(n) && depth < 256; n = tree_parent(n))
		chain[depth++] = n;
	snprintf(buf, len, "%s", depth ? "" : ".");
	while (depth-- && used < len) {
		int w = snprintf(buf + used, len - used, "%s%s",
				 tree_name(chain[depth]), depth ? "/" : "");
		used += w > 0 ? (size_t)w : 0;
	}
}

static void capture_add(struct capture *cap, const uint8_t *p, size_t n)
{
	if (!cap->on || cap->len + n > ERROR_TEXT_MAX)
		return;
	char *t = realloc(cap->text, cap->len + n + 1);
	if (!t)
		return;
	memcpy(t + cap->len, p, n);
	cap->text = t;
	cap->len += n;
	t[cap->len] = '\0';
}

/* Reads a copied file (host, image extent, stream) to its end. */
static int read_copied(struct worker *w, struct node *n, int fd,
		       struct capture *cap, uint64_t *total)
{
	for (;;) {
		ssize_t r = tree_read(w->c->fs, n, w->buf, READ_CHUNK, *total,
				      fd);
		if (r < 0)
			return (int)r;
		if (r == 0)
			return 0;
		capture_add(cap, (const uint8_t *)w->buf, (size_t)r);
		*total += (uint64_t)r;
	}
}

/* Reads a cached file (view, made file) to its end, by reference. */
static int read_cached(struct worker *w, struct node *n, struct capture *cap,
		       uint64_t *total)
{
	struct fs *fs = w->c->fs;
	for (;;) {
		struct cache_ref ref;
		const uint8_t *p;
		size_t len;
		int rc = tree_bytes(fs, n, *total, READ_CHUNK, &ref, &p, &len);
		if (rc < 0)
			return rc;
		capture_add(cap, p, len);
		cache_put(fs_cache(fs), &ref);
		if (len == 0)
			return 0;
		*total += len;
	}
}

/* Each line of an error.txt is a problem of the folder it is in. */
static void error_lines(struct check *c, const struct node *file,
			const struct capture *cap)
{
	char path[4096];
	check_path(tree_parent(file), path, sizeof path);
	char *save = NULL;
	for (char *line = cap->text ? strtok_r(cap->text, "\n", &save) : NULL;
	     line; line = strtok_r(NULL, "\n", &save))
		if (*line)
			check_problem(c, path, line);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && strcmp(s + a - b, tail) == 0;
}

static void count_file(struct check *c, const struct node *n)
{
	atomic_fetch_add(&c->files, 1);
	if (ends_with(tree_name(n), ".png"))
		atomic_fetch_add(&c->textures, 1);
	else if (ends_with(tree_name(n), ".obj"))
		atomic_fetch_add(&c->models, 1);
}

/* stat for the exact size, open, read every byte: as cat(1) on the
 * mount does.  Failures become PATH: strerror. */
static void check_file(struct worker *w, struct node *n)
{
	struct check *c = w->c;
	char path[4096];
	check_path(n, path, sizeof path);
	count_file(c, n);
	struct stat st;
	int fd = -1, rc = tree_stat(c->fs, n, &st);
	if (rc == 0)
		rc = tree_open(c->fs, n, &fd);
	struct capture cap = { NULL, 0,
				strcmp(tree_name(n), "error.txt") == 0 };
	uint64_t total = 0;
	if (rc == 0)
		rc = tree_reads_copy(n) ? read_copied(w, n, fd, &cap, &total)
					: read_cached(w, n, &cap, &total);
	if (fd >= 0)
		close(fd);
	if (rc < 0) {
		problem_errno(c, path, -rc);
	} else if (total != (uint64_t)st.st_size) {
		char msg[128];
		snprintf(msg, sizeof msg, "%llu bytes read, but its size is %llu",
			 (unsigned long long)total,
			 (unsigned long long)st.st_size);
		check_problem(c, path, msg);
	} else {
		atomic_fetch_add(&c->bytes, total);
		if (cap.on)
			error_lines(c, n, &cap);
	}
	free(cap.text);
}

/* Pushes under c->lock. */
static void push(struct check *c, struct node *dir, int role)
{
	if (c->ntodo == c->captodo) {
		size_t cap = c->captodo ? 2 * c->captodo : 256;
		struct check_item *t = realloc(c->todo, cap * sizeof *t);
		if (!t) {
			c->failed_alloc = true;
			return;
		}
		c->todo = t;
		c->captodo = cap;
	}
	c->todo[c->ntodo].dir = dir;
	c->todo[c->ntodo].role = role;
	c->ntodo++;
	/* Waiting here, a member's folder must not be let go. */
	tree_hold(c->fs, dir, 1);
}

static bool holds(const struct node *dir, const char *name)
{
	for (uint32_t i = 0; i < tree_kid_count(dir); i++)
		if (strcmp(tree_name(tree_kid_at(dir, i)), name) == 0)
			return true;
	return false;
}

/* Under c->lock. */
static void remember_archive(struct check *c, struct node *dir)
{
	if (c->narchives == c->caparchives) {
		size_t cap = c->caparchives ? 2 * c->caparchives : 8;
		struct node **t = realloc(c->archives, cap * sizeof *t);
		if (!t) {
			c->failed_alloc = true;
			return;
		}
		c->archives = t;
		c->caparchives = cap;
	}
	c->archives[c->narchives++] = dir;
}

struct table_ctx {
	struct check *c;
	const struct node *dir;
};

static void table_problem(void *ctx, const char *member, const char *msg)
{
	struct table_ctx *t = ctx;
	char path[4096];
	check_path(t->dir, path, sizeof path);
	if (member) {
		size_t n = strlen(path);
		snprintf(path + n, sizeof path - n, "/%s", member);
	}
	check_problem(t->c, path, msg);
}

/* After the walk, when every member is inflated: each archive's index
 * against a full scan. */
static void check_tables(struct check *c)
{
	for (size_t i = 0; i < c->narchives; i++) {
		struct table_ctx t = { c, c->archives[i] };
		int rc = archive_dir_table_check(c->fs, c->archives[i],
						 table_problem, &t);
		if (rc < 0)
			table_problem(&t, NULL, strerror(-rc));
	}
}

/* A folder's sub-folders go on the stack, last first, so that workers
 * take them in order and stay near each other's members; its files are
 * made here.  Links are not followed (find(1) does not either). */
static void walk_dir(struct worker *w, struct node *dir, int role)
{
	struct check *c = w->c;
	int rc = tree_kids_ready(c->fs, dir);
	if (rc < 0) {
		char path[4096];
		check_path(dir, path, sizeof path);
		problem_errno(c, path, -rc);
		return;
	}
	if (role == ROLE_MEMBER)
		atomic_fetch_add(&c->members, 1);
	else if (role == ROLE_OBJECT)
		atomic_fetch_add(&c->objects, 1);
	int kid_role = holds(dir, "%members.txt") ? ROLE_MEMBER : ROLE_PLAIN;
	pthread_mutex_lock(&c->lock);
	if (kid_role == ROLE_MEMBER)
		remember_archive(c, dir);
	for (uint32_t i = tree_kid_count(dir); i-- > 0;) {
		struct node *k = tree_kid_at(dir, i);
		if (!tree_is_dir(k))
			continue;
		/* %categories/ holds links, no members. */
		int r = tree_name(k)[0] == '%' ? ROLE_PLAIN : kid_role;
		if (role == ROLE_MEMBER && strcmp(tree_name(k), "chunks") != 0)
			r = ROLE_OBJECT;
		if (r == ROLE_MEMBER)
			atomic_fetch_add(&c->members_met, 1);
		push(c, k, r);
	}
	pthread_cond_broadcast(&c->more);
	pthread_mutex_unlock(&c->lock);
	for (uint32_t i = 0; i < tree_kid_count(dir); i++)
		if (tree_is_file(tree_kid_at(dir, i)))
			check_file(w, tree_kid_at(dir, i));
}

/* Takes the next folder; false when none is left and no worker can add
 * one.  Called and returns with c->lock held. */
static bool take(struct check *c, struct check_item *it)
{
	while (!c->ntodo && c->busy)
		pthread_cond_wait(&c->more, &c->lock);
	if (!c->ntodo)
		return false;
	*it = c->todo[--c->ntodo];
	c->busy++;
	return true;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct check *c = w->c;
	struct check_item it;
	pthread_mutex_lock(&c->lock);
	while (take(c, &it)) {
		pthread_mutex_unlock(&c->lock);
		tree_enter(c->fs);
		walk_dir(w, it.dir, it.role);
		tree_drop(c->fs, it.dir, 1);
		tree_leave(c->fs);
		pthread_mutex_lock(&c->lock);
		c->busy--;
		if (!c->busy && !c->ntodo)
			pthread_cond_broadcast(&c->more);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

static int start_workers(struct check *c, struct worker *ws, unsigned n)
{
	unsigned started = 0;
	int rc = 0;
	for (; started < n; started++) {
		ws[started].c = c;
		ws[started].buf = malloc(READ_CHUNK);
		if (!ws[started].buf ||
		    pthread_create(&ws[started].thread, NULL, worker_main,
				   &ws[started]) != 0) {
			free(ws[started].buf);
			rc = -ENOMEM;
			break;
		}
	}
	/* Fewer workers than asked still finish the walk. */
	for (unsigned i = 0; i < started; i++) {
		pthread_join(ws[i].thread, NULL);
		free(ws[i].buf);
	}
	return started ? 0 : rc;
}

void check_init(struct check *c, struct fs *fs, unsigned workers)
{
	memset(c, 0, sizeof *c);
	c->fs = fs;
	c->workers = workers ? workers : 1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->more, NULL);
}

int check_run(struct check *c)
{
	/* Members checked are let go past the units' budget: the walk
	 * holds what it has still to visit (push). */
	tree_reclaim_start(c->fs);
	push(c, fs_root(c->fs), ROLE_PLAIN);
	struct worker *ws = calloc(c->workers, sizeof *ws);
	if (!ws || c->failed_alloc) {
		free(ws);
		return -ENOMEM;
	}
	int rc = start_workers(c, ws, c->workers);
	free(ws);
	if (rc == 0) {
		tree_enter(c->fs);
		check_tables(c);
		tree_leave(c->fs);
	}
	return rc < 0 ? rc : c->failed_alloc ? -ENOMEM : 0;
}

void check_problem(struct check *c, const char *path, const char *msg)
{
	char *p = strdup(path), *m = strdup(msg);
	pthread_mutex_lock(&c->lock);
	if (p && m && c->nproblems == c->capproblems) {
		size_t cap = c->capproblems ? 2 * c->capproblems : 64;
		struct problem *t = realloc(c->problems, cap * sizeof *t);
		if (t) {
			c->problems = t;
			c->capproblems = cap;
		}
	}
	if (p && m && c->nproblems < c->capproblems) {
		c->problems[c->nproblems++] = (struct problem){ p, m, c->seq++ };
		p = m = NULL;
	} else {
		c->failed_alloc = true;
	}
	pthread_mutex_unlock(&c->lock);
	free(p);
	free(m);
}

static int problem_cmp(const void *a, const void *b)
{
	const struct problem *x = a, *y = b;
	int d = strcmp(x->path, y->path);
	return d ? d : x->seq < y->seq ? -1 : x->seq > y->seq;
}

void check_sort(struct check *c)
{
	if (c->nproblems)
		qsort(c->problems, c->nproblems, sizeof *c->problems,
		      problem_cmp);
}

void check_free(struct check *c)
{
	for (size_t i = 0; i < c->nproblems; i++) {
		free(c->problems[i].path);
		free(c->problems[i].msg);
	}
	free(c->problems);
	free(c->todo);
	free(c->archives);
	pthread_cond_destroy(&c->more);
	pthread_mutex_destroy(&c->lock);
}
