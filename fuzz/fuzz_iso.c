/* SPDX-License-Identifier: MIT */
/* fuzz_iso.c - the ISO 9660 reader.  The input is an image from sector 16
 * on (its first volume descriptor): the harness puts the 32 KiB system
 * area of zeros in front, so the corpus holds no dead bytes.  iso_open
 * reads it from a memfd through /proc/self/fd; then every directory is
 * listed, depth-first down to MAX_DEPTH, and the first bytes of each file
 * are read through its blob. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cdio/logging.h>

#include "archive/archive.h"
#include "fuzz_common.h"
#include "io/iso.h"

#define MAX_DEPTH 8
#define MAX_VISITS 256

static void quiet(cdio_log_level_t level, const char *message)
{
	(void)level;
	(void)message;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cdio_log_set_handler(quiet);
	return 0;
}

static void walk(struct iso_image *img, const struct iso_entry *dir,
		 int depth, unsigned *visits)
{
	if (depth > MAX_DEPTH || ++*visits > MAX_VISITS)
		return;
	struct iso_listing l;
	if (iso_list(img, dir, &l) != 0)
		return;
	for (size_t i = 0; i < l.count; i++) {
		const struct iso_entry *e = &l.entries[i];
		/* An extent past the end is listed with size 0 (clipped). */
		if ((e->size && e->offset + e->size > iso_image_size(img)) ||
		    (e->size < e->recorded_size && !e->clipped) ||
		    !e->name[0] || strchr(e->name, '/') ||
		    !strcmp(e->name, ".") || !strcmp(e->name, ".."))
			abort();
		if (e->is_dir) {
			walk(img, e, depth + 1, visits);
			continue;
		}
		struct blob b = iso_blob(img, e);
		uint8_t head[ARCHIVE_SECTOR];
		ssize_t got = blob_read(&b, head, sizeof head, 0);
		if (got > 0)
			(void)archive_probe(head, (size_t)got);
	}
	iso_listing_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t system_area[ISO_PROBE_OFFSET];
	int fd = fuzz_memfd(system_area, sizeof system_area, data, size);
	if (fd < 0)
		return 0;
	char path[64], err[512];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	struct iso_image *img = iso_open(path, err, sizeof err);
	if (img) {
		unsigned visits = 0;
		walk(img, iso_root(img), 0, &visits);
		iso_close(img);
	} else if (!memchr(err, '\0', sizeof err) || !err[0]) {
		abort();
	}
	close(fd);
	return 0;
}
