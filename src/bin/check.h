/* SPDX-License-Identifier: MIT */
/* check.h - ccsfs-check: the walk of the whole tree, by worker threads,
 * and what it found (counts and problem lines). */
#ifndef CCSFS_CHECK_H
#define CCSFS_CHECK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tree/tree.h"

/* One line of the report: PATH: MESSAGE. */
struct problem {
	char *path;
	char *msg;
	uint64_t seq;           /* keeps an error.txt's lines in order */
};

struct check {
	struct fs *fs;
	unsigned workers;
	/* The folders still to walk, a stack shared by the workers. */
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct check_item {
		struct node *dir;
		int role;       /* what the folder is to the counts */
	} *todo;
	size_t ntodo, captodo;
	unsigned busy;          /* workers walking a folder right now */
	bool failed_alloc;
	/* What was found, under lock. */
	struct problem *problems;
	size_t nproblems, capproblems;
	uint64_t seq;
	/* The archive folders met, whose index is compared at the end. */
	struct node **archives;
	size_t narchives, caparchives;
	/* Counts, read by the progress line while the walk runs. */
	_Atomic uint64_t members, objects, textures, models, files, bytes;
	/* The members of the archives met so far: how far the walk is. */
	_Atomic uint64_t members_met;
};

void check_init(struct check *c, struct fs *fs, unsigned workers);
/* Walks everything under fs_root(fs) with c->workers threads; 0 or a
 * negative errno when the walk itself could not run (no memory). */
int check_run(struct check *c);
void check_free(struct check *c);

/* Adds a problem line (thread-safe). */
void check_problem(struct check *c, const char *path, const char *msg);
/* Sorts the problems by path, an error.txt's lines kept in order. */
void check_sort(struct check *c);

/* The node's path from the root ("DATA/DATA.BIN/cut"; "." for the
 * root). */
void check_path(const struct node *n, char *buf, size_t len);

/* The report on stdout: problem lines then the summary line, or one
 * JSON object with both. */
void check_print_text(const struct check *c);
void check_print_json(const struct check *c, const char *source);

#endif
