/* SPDX-License-Identifier: MIT */
/* fuzz_member.c - the input as one member's inflated bytes, seen as a
 * user of the mount sees it: the harness deflates it into a one-member
 * archive, opens that as the mount's root (archive_dir_root, the tree and
 * the views), stats every file of every folder as ls -lR does (so that
 * what can be measured is), then makes every file as stat, open and read
 * do, with the mount's default limits.
 *
 * A file must read exactly as many bytes as stat gave, or fail as a
 * whole, and a measured one must not fail at all; a made PNG, GLB or WAV
 * must start as one. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz_common.h"
#include "tree/tree.h"
#include "util/bytes.h"
#include "util/log.h"
#include "views/member.h"

/* ccsfs's -o cache_size and -o max_member when not given. */
#define MOUNT_CACHE_SIZE ((size_t)256 << 20)
#define MOUNT_MAX_MEMBER ((size_t)1 << 30)
#define READ_CHUNK ((size_t)128 << 10)
/* Deeper than any member's folders go (member/object/...): a bound, so
 * a tree that nests without end is a finding, not a hang. */
#define MAX_DEPTH 16

/* A gzip member as the archives write it (FNAME set, the name "fuzz"),
 * padded with zeros to the next sector.  Returns its length or 0. */
static size_t gzip_member(const uint8_t *data, size_t size, uint8_t **out)
{
	static const uint8_t head[] = { 0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3,
					'f', 'u', 'z', 'z', 0 };
	uLong bound = compressBound((uLong)size) + sizeof head + 8;
	size_t cap = ((size_t)bound + 2047) / 2048 * 2048 + 2048;
	uint8_t *g = calloc(1, cap);
	z_stream z = { 0 };
	if (!g || deflateInit2(&z, 1, Z_DEFLATED, -15, 8,
			       Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return 0;
	}
	memcpy(g, head, sizeof head);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)size;
	z.next_out = g + sizeof head;
	z.avail_out = (uInt)(cap - sizeof head - 8);
	int rc = deflate(&z, Z_FINISH);
	size_t n = sizeof head + z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(g);
		return 0;
	}
	wr_u32le(g + n, (uint32_t)crc32(0, data, (uInt)size));
	wr_u32le(g + n + 4, (uint32_t)size);
	*out = g;
	return (n + 8 + 2047) / 2048 * 2048;
}

/* What a made file's name promises of its first bytes. */
static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && strcmp(s + a - b, tail) == 0;
}

static void check_head(const struct node *n, const uint8_t *p, size_t len,
		       uint64_t size)
{
	if (ends_with(tree_name(n), ".png") &&
	    (len < 8 || memcmp(p, "\x89PNG\r\n\x1a\n", 8) != 0))
		abort();
	if (ends_with(tree_name(n), ".glb") &&
	    (len < 12 || memcmp(p, "glTF", 4) || rd_u32le(p + 8) != size))
		abort();
	if (ends_with(tree_name(n), ".wav") &&
	    (len < 12 || memcmp(p, "RIFF", 4) || rd_u32le(p + 4) + 8 != size))
		abort();
}

/* Reads a file to its end as read(2) on the mount does; -errno or the
 * count. */
static int64_t read_file(struct fs *fs, struct node *n, int fd, char *buf,
			 uint64_t size)
{
	uint64_t total = 0;
	for (;;) {
		size_t len;
		if (tree_reads_copy(n)) {
			ssize_t r = tree_read(fs, n, buf, READ_CHUNK, total, fd);
			if (r < 0)
				return r;
			len = (size_t)r;
			if (total == 0)
				check_head(n, (uint8_t *)buf, len, size);
		} else {
			struct cache_ref ref;
			const uint8_t *p;
			int rc = tree_bytes(fs, n, total, READ_CHUNK, &ref, &p,
					    &len);
			if (rc < 0)
				return rc;
			if (total == 0)
				check_head(n, p, len, size);
			cache_put(fs_cache(fs), &ref);
		}
		if (len == 0)
			return (int64_t)total;
		total += len;
	}
}

static void make_file(struct fs *fs, struct node *n, char *buf)
{
	struct stat st;
	int fd = -1;
	/* Measured by the listing: the same code makes it, so it cannot
	 * fail where the measure did not (the tree fails a file whose
	 * bytes differ from its measure with EIO). */
	bool measured = tree_made_measures(n) &&
			tree_size(n) != SIZE_UNKNOWN;
	int rc = tree_stat(fs, n, &st);
	if (rc == 0)
		rc = tree_open(fs, n, &fd);
	if (rc == -EIO && measured)
		abort();
	if (rc < 0)
		return;
	int64_t got = read_file(fs, n, fd, buf, (uint64_t)st.st_size);
	if (fd >= 0)
		close(fd);
	if (got == -EIO && measured)
		abort();
	/* A short or long read is never right: stat promised the size. */
	if (got >= 0 && got != (int64_t)st.st_size)
		abort();
}

/* buf NULL: only stat every file, as ls -lR does. */
static void walk(struct fs *fs, struct node *dir, char *buf, int depth)
{
	if (depth > MAX_DEPTH)
		abort();
	if (tree_ready(fs, dir) < 0)
		return;
	for (uint32_t i = 0; i < tree_kid_count(dir); i++) {
		struct node *k = tree_kid_at(dir, i);
		struct stat st;
		if (tree_is_dir(k))
			walk(fs, k, buf, depth + 1);
		else if (tree_is_file(k) && buf)
			make_file(fs, k, buf);
		else if (tree_is_file(k))
			(void)tree_stat(fs, k, &st);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A broken member logs a line per fault; at thousands of runs a
	 * second the writes would be most of the time. */
	log_set_quiet(true);
	uint8_t *g = NULL;
	size_t glen = gzip_member(data, size, &g);
	int fd = glen ? fuzz_memfd(NULL, 0, g, glen) : -1;
	free(g);
	char *buf = malloc(READ_CHUNK);
	struct fs *fs = fd >= 0 && buf ? fs_new(MOUNT_CACHE_SIZE) : NULL;
	if (!fs) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return 0;
	}
	fs_set_max_member(fs, MOUNT_MAX_MEMBER);
	/* Made ahead or not, a file's bytes are the same: one thread keeps
	 * a finding reproducible. */
	readahead_disable(fs_readahead(fs));
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	fs_set_root(fs, archive_dir_root(fs, 0, path));
	/* First a listing, whose stats measure what they can (as one that
	 * has stat'ed many files without opening one), then the reads,
	 * which make the files: a made file that differs from its measure
	 * fails (EIO), and a read that differs from the stat aborts. */
	fs_set_stats_unopened(fs, UINT_MAX / 2);
	if (fs_root(fs)) {
		walk(fs, fs_root(fs), NULL, 0);
		walk(fs, fs_root(fs), buf, 0);
	}
	fs_free(fs);
	close(fd);
	free(buf);
	return 0;
}
