/* SPDX-License-Identifier: MIT */
/* iso.h - a disc image's ISO 9660 directory tree: doc/formats/archive.md,
 * The disc.
 *
 * libiso9660 (libcdio) opens the image and reads its primary volume
 * descriptor and directory sectors; the directory records themselves are
 * decoded here, so every length and extent is checked against the image
 * and a record's time keeps its own GMT offset (libiso9660's conversion
 * goes through the process's local time zone).  Only the primary tree is
 * read: Joliet and Rock Ridge are ignored, never rejected.
 *
 * A file's bytes are read straight from the image through a blob on the
 * image's own fd (iso_blob), never through libiso9660.
 */
#ifndef CCSFS_ISO_H
#define CCSFS_ISO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "io/blob.h"

#define ISO_SECTOR 2048
/* iso_probe looks at the bytes from here: the first volume descriptor. */
#define ISO_PROBE_OFFSET (16 * ISO_SECTOR)
#define ISO_PROBE_LEN 7
/* A directory record's name is at most 255 bytes. */
#define ISO_NAME_MAX 255

struct iso_image;

struct iso_entry {
	char name[ISO_NAME_MAX + 1];    /* ';N' and a bare trailing '.' dropped */
	bool is_dir;
	bool clipped;           /* the extent runs past the image's end */
	uint32_t lsn;
	uint64_t offset;        /* lsn * ISO_SECTOR: where it starts */
	uint64_t size;          /* bytes readable: recorded, cut at the end */
	uint64_t recorded_size; /* as the directory record says */
	time_t mtime;           /* recording time; 0 when not recorded */
	uint64_t record_at;     /* its directory record's offset in the image
				 * (0 for the root) */
};

struct iso_listing {
	struct iso_entry *entries;      /* in the disc's order */
	size_t count;
	/* Records not listed: malformed, multi-extent or interleaved files,
	 * associated files, names that cannot be a path component. */
	size_t skipped;
};

/* True when p, the bytes at ISO_PROBE_OFFSET of a file, hold a primary
 * volume descriptor ("\1CD001\1"): the file is an ISO 9660 image. */
bool iso_probe(const uint8_t *p, size_t len);

/* Opens an image (a file or a block device).  On failure returns NULL
 * and writes a one-line reason to err. */
struct iso_image *iso_open(const char *path, char *err, size_t errlen);
void iso_close(struct iso_image *img);

/* The image's fd, for blobs: valid until iso_close. */
int iso_fd(const struct iso_image *img);
uint64_t iso_image_size(const struct iso_image *img);

/* The root directory, as an entry named "". */
const struct iso_entry *iso_root(const struct iso_image *img);

/* Lists a directory entry's records (not '.' and '..').  Safe to call
 * from several threads at once.  Returns 0, or -ENOTDIR, -EIO (the
 * directory's extent is not all in the image, or reading failed),
 * -EFBIG (an implausibly large directory), -ENOMEM.  Free with
 * iso_listing_free. */
int iso_list(struct iso_image *img, const struct iso_entry *dir,
	     struct iso_listing *out);
void iso_listing_free(struct iso_listing *l);

/* A file entry's bytes in the image: {iso_fd, offset, size}. */
struct blob iso_blob(const struct iso_image *img, const struct iso_entry *e);

#endif
