/* SPDX-License-Identifier: MIT */
/* source.h - the disc to pack: an ISO 9660 image, a folder holding a
 * disc's files, or one archive; each of its files with its path as the
 * tree shows it and, in an image, where its bytes and its directory
 * record lie. */
#ifndef CCSFS_PACK_SOURCE_H
#define CCSFS_PACK_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "io/blob.h"
#include "io/iso.h"
#include "util/reason.h"

enum pack_source_kind { PACK_IMAGE, PACK_FOLDER, PACK_ARCHIVE };

struct pack_file {
	char *path;             /* "DATA/DATA.BIN"; "" for an archive source */
	char *host;             /* a folder's or an archive's: on the host */
	bool is_dir;
	bool archive;           /* its first sector opens a gzip member */
	uint64_t size;
	uint64_t offset;        /* an image's: where its bytes start */
	uint64_t record_at;     /* an image's: its directory record */
	time_t mtime;
	mode_t mode;
};

struct pack_source {
	enum pack_source_kind kind;
	struct iso_image *img;
	uint64_t size;          /* an image's */
	struct pack_file *f;    /* a folder before what it holds */
	size_t count, cap;
};

/* Opens path and lists its files.  0; a negative errno with why. */
int pack_source_open(const char *path, struct pack_source *s,
		     struct reason *why);
void pack_source_close(struct pack_source *s);

/* A file's bytes.  A folder's or an archive's file is opened: close
 * b->fd after use.  0 or a negative errno. */
int pack_source_blob(const struct pack_source *s, const struct pack_file *f,
		     struct blob *b);
void pack_source_blob_done(const struct pack_source *s, struct blob *b);

/* The file at path (matched without regard to case, '\\' or '/'
 * between folders), or NULL. */
const struct pack_file *pack_source_find(const struct pack_source *s,
					 const char *path);

#endif
