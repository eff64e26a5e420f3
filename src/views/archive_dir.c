/* SPDX-License-Identifier: MIT */
/* archive_dir.c - an archive's folder: its members found and named, and
 * %members.txt. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "archive/archive.h"
#include "archive/gzip.h"
#include "util/log.h"
#include "util/names.h"
#include "util/vec.h"
#include "views/member_internal.h"

/* ---- the archive directory ---- */

static int verify_member(struct fs *fs, struct member *m)
{
	fs_lock(fs);
	bool known = m->known;
	fs_unlock(fs);
	if (known)
		return 0;
	struct gzip_result r;
	int rc = gzip_inflate_member(&m->ar->blob, m->e->offset, m->e->extent,
				     fs_max_member(fs), NULL, NULL, &r);
	if (rc == -ENOMEM)
		return rc;
	/* Checking inflates into a scratch window: a length over the cap
	 * shows up here as ISIZE, not as an allocation. */
	if (rc == 0 && r.isize > fs_max_member(fs)) {
		rc = -EFBIG;
		reason_set(&r.error, "inflates to more than %zu "
			 "bytes", fs_max_member(fs));
	}
	member_record_outcome(fs, m, rc, &r);
	return 0;
}

/* Every field of the listing but the name has a fixed width, so its size
 * is known from the scan alone: a stat (ls -l, a file manager) must not
 * inflate the whole archive.  Reading it does, once, since only inflation
 * tells where a member's deflate data ends, and its CRC. */
#define LISTING_HEAD \
	"# member status offset stored compressed inflated crc32 mtime " \
	"category table\n"
#define LISTING_FIXED (1 + 6 + 1 + 12 + 1 + 12 + 1 + 12 + 1 + 10 + 1 + 10 + \
		       1 + 20 + 1)

uint64_t archive_dir_listing_size(const struct archive_dir *ar)
{
	uint64_t n = strlen(LISTING_HEAD);
	for (size_t i = 0; i < ar->count; i++)
		n += strlen(ar->members[i].name) + LISTING_FIXED + 2 +
		     strlen(ar->members[i].category) +
		     strlen(ar->members[i].table_status);
	return n;
}

static const char *member_status(int rc, const struct gzip_result *gz)
{
	if (rc == -EFBIG)
		return "toobig";
	if (rc < 0)
		return "broken";
	return gz->padding_clean ? "ok" : "junk";
}

static void print_listing_line(struct strbuf *sb, const struct member *m,
			       int rc, const struct gzip_result *gz)
{
	char compressed[24] = "-", inflated[16] = "-", crc[16] = "-";
	char mtime[32];
	if (rc == 0) {
		snprintf(compressed, sizeof compressed, "%" PRIu64, gz->compressed);
		snprintf(inflated, sizeof inflated, "%" PRIu32, gz->isize);
		snprintf(crc, sizeof crc, "0x%08" PRIx32, gz->crc);
	}
	struct tm tm;
	time_t t = (time_t)m->e->header.mtime;
	gmtime_r(&t, &tm);
	strftime(mtime, sizeof mtime, "%Y-%m-%dT%H:%M:%SZ", &tm);
	sb_printf(sb, "%s %-6s %12" PRIu64 " %12" PRIu64 " %12s %10s %10s %s "
		  "%s %s\n", m->name, member_status(rc, gz), m->e->offset,
		  m->e->extent, compressed, inflated, crc, mtime, m->category,
		  m->table_status);
}

static int produce_listing(struct fs *fs, struct node *n, uint8_t **data,
			   size_t *len)
{
	struct archive_dir *ar = tree_made_ctx(n);
	struct strbuf sb = STRBUF_INIT;
	sb_puts(&sb, LISTING_HEAD);
	for (size_t i = 0; i < ar->count; i++) {
		struct member *m = &ar->members[i];
		archive_table_check_member(fs, m);
		int rc = verify_member(fs, m);
		if (rc < 0) {
			sb_free(&sb);
			return rc;
		}
		fs_lock(fs);
		struct gzip_result gz = m->gz;
		int irc = m->inflate_rc;
		fs_unlock(fs);
		print_listing_line(&sb, m, irc, &gz);
	}
	return sb_finish(&sb, data, len);
}

struct named {
	const char *base;
	size_t i;
};

static int by_base(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->base, y->base);
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* A name seen before gets ~2, ~3 in archive order: the names sorted,
 * each repeat numbered by its place among its equals (a thousand
 * members compared with every one before them was a fifth of a first
 * ls).  Each base name goes straight to the tree's memory: a scratch
 * array of the longest name a member was 800 KB of fresh pages, a
 * tenth of a first ls. */
static int name_members(struct fs *fs, struct archive_dir *ar)
{
	enum { BASE_MAX = GZIP_NAME_MAX * 3 + 32 };
	struct named *v = malloc((ar->count ? ar->count : 1) * sizeof *v);
	int rc = v ? 0 : -ENOMEM;
	for (size_t i = 0; i < ar->count && rc == 0; i++) {
		char base[BASE_MAX];
		archive_member_name(&ar->entries[i], base, sizeof base);
		v[i] = (struct named){ fs_strdup(fs, base), i };
		if (!v[i].base)
			rc = -ENOMEM;
	}
	if (rc == 0)
		qsort(v, ar->count, sizeof *v, by_base);
	unsigned seen = 0;
	for (size_t k = 0; k < ar->count && rc == 0; k++) {
		seen = k && strcmp(v[k - 1].base, v[k].base) == 0 ? seen + 1 : 1;
		struct member *m = &ar->members[v[k].i];
		if (seen > 1) {
			char name[BASE_MAX + 16];
			snprintf(name, sizeof name, "%s~%u", v[k].base, seen);
			m->name = fs_strdup(fs, name);
		} else {
			m->name = v[k].base;
		}
		if (!m->name)
			rc = -ENOMEM;
		if (k + 1 < ar->count)
			m->next_listed = &ar->members[v[k + 1].i];
	}
	free(v);
	return rc;
}

static int open_archive(struct archive_dir *ar)
{
	if (ar->blob.fd >= 0)
		return 0;
	int fd = open(ar->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;
		log_error("%s: %s", ar->path, strerror(errno));
		return rc;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	ar->blob.fd = fd;
	ar->blob.base = 0;
	ar->blob.size = (uint64_t)st.st_size;
	ar->own_fd = true;
	return 0;
}

/* The archive's path in the tree, the same whichever way the disc is
 * given (image, folder): what made files name as their source. */
static const char *tree_path(struct fs *fs, const struct archive_dir *ar,
			     const struct node *dir)
{
	if (!tree_parent(dir)) {
		const char *slash = strrchr(ar->label, '/');
		return fs_strdup(fs, slash ? slash + 1 : ar->label);
	}
	const struct node *chain[64];
	size_t depth = 0;
	for (const struct node *n = dir; tree_parent(n) && depth < 64;
	     n = tree_parent(n))
		chain[depth++] = n;
	struct strbuf sb = STRBUF_INIT;
	while (depth--)
		sb_printf(&sb, "%s%s", tree_name(chain[depth]),
			  depth ? "/" : "");
	const char *path = sb.failed ? NULL : fs_strdup(fs, sb.data ? sb.data : "");
	sb_free(&sb);
	return path;
}

static int populate_archive(struct fs *fs, struct node *dir)
{
	struct archive_dir *ar = tree_dir_ctx(dir);
	if (!ar->tree_path)
		ar->tree_path = tree_path(fs, ar, dir);
	if (!ar->tree_path)
		return -ENOMEM;
	int rc = open_archive(ar);
	if (rc == 0)
		rc = archive_table_entries(ar);
	if (rc == -EAGAIN)
		return rc;      /* a worker's, left to a reader */
	if (rc < 0) {
		log_error("%s: cannot scan the archive: %s", ar->label,
			  strerror(-rc));
		return rc;
	}
	ar->members = vec_zalloc(ar->count, sizeof *ar->members);
	if (!ar->members)
		return -ENOMEM;
	for (size_t i = 0; i < ar->count; i++) {
		ar->members[i].ar = ar;
		ar->members[i].e = &ar->entries[i];
	}
	rc = name_members(fs, ar);
	if (rc == 0)
		rc = archive_table_text(fs, ar);
	if (rc < 0)
		return rc;
	/* Listed from the table, a member is not checked yet: its folder's
	 * mtime (its header's) and %members.txt's size (its table column)
	 * wait for a stat, and the checks run on the worker meanwhile. */
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (size_t i = 0; i < ar->count; i++) {
		struct member *m = &ar->members[i];
		bool checked = atomic_load(&m->checked);
		m->dir = dir_add_dir(&b, m->name, checked ? m->e->header.mtime
							  : tree_mtime(dir),
				     member_populate, m);
		if (m->dir) {
			dir_set_costly(m->dir, true);
			/* A setup file's objects are other members' scenes'
			 * sources: it stays. */
			dir_make_unit(fs, m->dir, member_release,
				      cutscene_dir_is_setup(m->name));
		}
		if (m->dir && !checked)
			node_set_unsettled(m->dir, true);
	}
	ar->listing = dir_add_made(&b, ARCHIVE_LISTING, tree_mtime(dir),
				   produce_listing, ar, 0);
	if (ar->listing && atomic_load(&ar->unchecked))
		node_set_unsettled(ar->listing, true);
	else if (ar->listing)
		node_set_size(ar->listing, archive_dir_listing_size(ar));
	archive_table_add_categories(&b, ar);
	rc = dir_publish(&b);
	if (rc == 0)
		archive_table_check_later(fs, ar);
	return rc;
}

bool archive_dir_is(const struct node *dir)
{
	return tree_dir_populated_by(dir, populate_archive);
}

/* DATA/DATA.BIN as the discs spell it: a copy with other cases is only
 * not warmed. */
static void warm_job(void *owner, void *arg)
{
	struct fs *fs = owner;
	(void)arg;
	int err;
	struct node *data = tree_child(fs, fs_root(fs), "DATA", &err);
	struct node *dir = data ? tree_child(fs, data, "DATA.BIN", &err) : NULL;
	if (dir && archive_dir_is(dir) && tree_ready(fs, dir) == 0)
		archive_table_check_all(fs, tree_dir_ctx(dir));
}

void archive_dir_warm(struct fs *fs)
{
	readahead_queue(fs_readahead(fs), warm_job, NULL);
}

/* fs->settle for a listed member's folder and %members.txt. */
static int archive_dir_settle(struct fs *fs, struct node *n)
{
	struct node *dir = tree_parent(n);
	if (dir && archive_dir_is(dir)) {
		struct archive_dir *ar = tree_dir_ctx(dir);
		if (n == ar->listing) {
			archive_table_check_all(fs, ar);
			node_set_size(n, archive_dir_listing_size(ar));
			node_set_unsettled(n, false);
			return 0;
		}
		if (tree_dir_populated_by(n, member_populate)) {
			archive_table_check_member(fs, tree_dir_ctx(n));
			return 0;
		}
	}
	node_set_unsettled(n, false);
	return 0;
}

int archive_dir_table_check(struct fs *fs, struct node *dir,
			    table_report_fn report, void *ctx)
{
	return archive_dir_is(dir) ?
	       archive_table_compare(fs, tree_dir_ctx(dir), report, ctx) : 0;
}

/* At unmount: what the archive's members learnt, and its descriptor. */
static void archive_free(void *ctx)
{
	struct archive_dir *ar = ctx;
	for (size_t i = 0; ar->members && i < ar->count; i++) {
		ccsf_scene_free(&ar->members[i].scene);
		cutscene_audio_free(&ar->members[i].audio);
		free(ar->members[i].edited);
	}
	free(ar->members);
	free(ar->entries);
	free(ar->lost);
	if (ar->own_fd)
		close(ar->blob.fd);
}

static struct archive_dir *archive_new(struct fs *fs, const char *path,
				       const struct blob *blob,
				       struct game_index *gi)
{
	struct archive_dir *ar = fs_alloc(fs, sizeof *ar);
	if (!ar)
		return NULL;
	ar->label = fs_strdup(fs, path);
	ar->path = ar->label;
	ar->blob.fd = -1;
	ar->gi = gi;
	for (unsigned k = 0; k < READ_STREAMS; k++)
		atomic_init(&ar->last_read[k], SIZE_MAX);
	atomic_init(&ar->next_stream, 0);
	fs_set_settle(fs, archive_dir_settle);
	if (blob)
		ar->blob = *blob;
	if (!ar->label || fs_on_destroy(fs, archive_free, ar) < 0)
		return NULL;
	return ar;
}

struct node *archive_dir_add(struct dir_builder *b, const char *name,
			     time_t mtime, const char *path,
			     const struct blob *blob, struct game_index *gi)
{
	struct archive_dir *ar = archive_new(b->fs, path, blob, gi);
	if (!ar) {
		b->failed = true;
		return NULL;
	}
	return dir_add_dir(b, name, mtime, populate_archive, ar);
}

struct node *archive_dir_root(struct fs *fs, time_t mtime, const char *path)
{
	struct archive_dir *ar = archive_new(fs, path, NULL, NULL);
	return ar ? node_new_dir(fs, "", mtime, populate_archive, ar) : NULL;
}


