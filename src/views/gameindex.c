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

#include "views/gameindex.h"

/* SYSTEM.CNF is a few lines; the executables are 3 to 4 MB. */
#define CNF_MAX (64u << 10)
#define EXE_MAX (64u << 20)

struct game_index {
	game_read_fn read;
	void *ctx;
	pthread_mutex_t lock;
	bool tried;
	bool ok;
	struct fdtbl table;
	struct reason why;
};

static void game_index_free(void *p)
{
	struct game_index *gi = p;
	fdtbl_free(&gi->table);
	pthread_mutex_destroy(&gi->lock);
}

struct game_index *game_index_new(struct fs *fs, game_read_fn read,
				  void *ctx)
{
	struct game_index *gi = fs_alloc(fs, sizeof *gi);
	if (!gi)
		return NULL;
	memset(gi, 0, sizeof *gi);
	gi->read = read;
	gi->ctx = ctx;
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

static void load(struct game_index *gi)
{
	char path[256];
	if (boot_path(gi, path, sizeof path) < 0)
		return;
	uint8_t *exe;
	size_t len;
	int rc = gi->read(gi->ctx, path, EXE_MAX, &exe, &len);
	if (rc < 0) {
		reason_set(&gi->why, "%s (BOOT2 in SYSTEM.CNF): %s",
			 path, rc == -ENOENT ? "not in the source"
					     : strerror(-rc));
		return;
	}
	struct reason why = { "" };
	rc = fdtbl_read(exe, len, &gi->table, &why);
	free(exe);
	if (rc < 0) {
		reason_set(&gi->why, "%s: %s", path,
			 rc == -ENOMEM ? "out of memory" : why.text);
		return;
	}
	reason_set(&gi->why, "%s", path);
	gi->ok = true;
}

const struct fdtbl *game_index_table(struct game_index *gi, struct reason *why)
{
	pthread_mutex_lock(&gi->lock);
	if (!gi->tried) {
		load(gi);
		gi->tried = true;
	}
	pthread_mutex_unlock(&gi->lock);
	if (why)
		*why = gi->why;
	return gi->ok ? &gi->table : NULL;
}

int game_index_archive(const char *tree_path)
{
	return tree_path && strcasecmp(tree_path, "DATA/DATA.BIN") == 0;
}
