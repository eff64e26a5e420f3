/* SPDX-License-Identifier: MIT */
/* gameindex.c - the executable found through SYSTEM.CNF, its tables read
 * once. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/elf.h"
#include "util/log.h"
#include "views/gameindex.h"

/* SYSTEM.CNF is a few lines; the executables are 3 to 4 MB. */
#define CNF_MAX (64u << 10)
#define EXE_MAX (64u << 20)

struct game_index {
	game_read_fn read;
	void *ctx;
	const struct symfile *syms;
	pthread_mutex_t lock;
	bool tried;
	bool ok;
	struct fdtbl table;
	struct reason why;
	/* The executable, kept for the tables read later. */
	char path[256];
	uint8_t *exe;
	size_t len;
	struct elf_image elf;
	bool elf_ok;
	struct reason elf_why;
	bool text_tried, text_ok, streams_tried, streams_ok;
	struct msgtbl text;
	struct strtbl streams;
	struct reason text_why, streams_why;
};

static void game_index_free(void *p)
{
	struct game_index *gi = p;
	fdtbl_free(&gi->table);
	msgtbl_free(&gi->text);
	strtbl_free(&gi->streams);
	free(gi->exe);
	pthread_mutex_destroy(&gi->lock);
}

struct game_index *game_index_new(struct fs *fs, game_read_fn read,
				  void *ctx, const struct symfile *syms)
{
	struct game_index *gi = fs_alloc(fs, sizeof *gi);
	if (!gi)
		return NULL;
	memset(gi, 0, sizeof *gi);
	gi->read = read;
	gi->ctx = ctx;
	gi->syms = syms;
	pthread_mutex_init(&gi->lock, NULL);
	if (fs_on_destroy(fs, game_index_free, gi) < 0)
		return NULL;
	return gi;
}

/* The executable's path, from SYSTEM.CNF. */
static int boot_path(struct game_index *gi, char *path, size_t n)
{
	uint8_t *cnf;
	size_t len;
	int rc = gi->read(gi->ctx, "SYSTEM.CNF", CNF_MAX, &cnf, &len);
	if (rc < 0) {
		reason_set(&gi->why, "SYSTEM.CNF: %s",
			 rc == -ENOENT ? "not in the source" : strerror(-rc));
		return rc;
	}
	rc = fdtbl_boot_path((const char *)cnf, len, path, n);
	free(cnf);
	if (rc < 0)
		reason_set(&gi->why, "SYSTEM.CNF: %s",
			 rc == -ENOENT ? "no BOOT2 line"
				       : "its BOOT2 line names no file");
	return rc;
}

/* The executable's headers, and its symbols: its own, else the list. */
static void open_elf(struct game_index *gi)
{
	struct reason why = { "" };
	int rc = elf_open(&gi->elf, gi->exe, gi->len, &why);
	if (rc == -ENOENT && gi->syms) {
		elf_use_symbols(&gi->elf, gi->syms);
		rc = 0;
	}
	if (rc < 0) {
		reason_set(&gi->elf_why, "%s: %s", gi->path,
			   rc == -ENOENT ? "no symbol table (a stripped "
			   "executable; -o symbols=FILE gives its symbols)"
					 : why.text);
		return;
	}
	gi->elf_ok = true;
}

static void load(struct game_index *gi)
{
	char *path = gi->path;
	if (boot_path(gi, path, sizeof gi->path) < 0) {
		gi->elf_why = gi->why;
		return;
	}
	int rc = gi->read(gi->ctx, path, EXE_MAX, &gi->exe, &gi->len);
	if (rc < 0) {
		reason_set(&gi->why, "%s (BOOT2 in SYSTEM.CNF): %s",
			 path, rc == -ENOENT ? "not in the source"
					     : strerror(-rc));
		gi->elf_why = gi->why;
		gi->exe = NULL;
		return;
	}
	open_elf(gi);
	struct reason why = { "" };
	rc = gi->elf_ok ? fdtbl_read_elf(&gi->elf, &gi->table, &why) : -EINVAL;
	if (rc < 0) {
		if (!gi->elf_ok)
			gi->why = gi->elf_why;
		else
			reason_set(&gi->why, "%s: %s", path,
				   rc == -ENOMEM ? "out of memory" : why.text);
		return;
	}
	reason_set(&gi->why, "%s", path);
	gi->ok = true;
}

/* The executable read and opened, once; the caller holds the lock. */
static bool loaded(struct game_index *gi)
{
	if (!gi->tried) {
		load(gi);
		gi->tried = true;
	}
	return gi->elf_ok;
}

const struct fdtbl *game_index_table(struct game_index *gi, struct reason *why)
{
	pthread_mutex_lock(&gi->lock);
	loaded(gi);
	pthread_mutex_unlock(&gi->lock);
	if (why)
		*why = gi->why;
	return gi->ok ? &gi->table : NULL;
}

const struct msgtbl *game_index_text(struct game_index *gi, const char **exe,
				     struct reason *why)
{
	pthread_mutex_lock(&gi->lock);
	if (!gi->text_tried) {
		gi->text_tried = true;
		struct reason r = { "" };
		int rc = loaded(gi) ? msgtbl_read(&gi->elf, &gi->text, &r)
				    : -ENOENT;
		gi->text_ok = rc == 0;
		if (!loaded(gi))
			gi->text_why = gi->elf_why;
		else if (rc < 0)
			reason_set(&gi->text_why, "%s: %s", gi->path, r.text);
		if (rc < 0)
			log_info("no %%text/: %s", gi->text_why.text);
	}
	pthread_mutex_unlock(&gi->lock);
	if (exe)
		*exe = gi->path;
	if (why)
		*why = gi->text_why;
	return gi->text_ok ? &gi->text : NULL;
}

const struct strtbl *game_index_streams(struct game_index *gi,
					struct reason *why)
{
	pthread_mutex_lock(&gi->lock);
	if (!gi->streams_tried) {
		gi->streams_tried = true;
		struct reason r = { "" };
		int rc = loaded(gi) ? strtbl_read(&gi->elf, &gi->streams, &r)
				    : -ENOENT;
		gi->streams_ok = rc == 0;
		if (!loaded(gi))
			gi->streams_why = gi->elf_why;
		else if (rc < 0)
			reason_set(&gi->streams_why, "%s: %s", gi->path, r.text);
	}
	pthread_mutex_unlock(&gi->lock);
	if (why)
		*why = gi->streams_why;
	return gi->streams_ok ? &gi->streams : NULL;
}

int game_index_archive(const char *tree_path)
{
	return tree_path && strcasecmp(tree_path, "DATA/DATA.BIN") == 0;
}
