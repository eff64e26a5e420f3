/* SPDX-License-Identifier: MIT */
/* archive_table.c - an archive folder's members from the game's index:
 * which to use, each member checked against its record after the
 * listing, the table's words on each member, %categories/, and the
 * comparison of the table with a full scan (ccsfs-check). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "archive/index.h"
#include "util/log.h"
#include "util/names.h"
#include "views/archive_stream.h"
#include "views/gameindex.h"
#include "views/member_internal.h"

#define CATEGORIES "%categories"

/* The members from the table: its disagreeing records logged once each.
 * -EINVAL with why filled when the table does not describe the archive. */
static int from_table(struct archive_dir *ar, const struct fdtbl *t,
		      const char *exe, struct reason *why)
{
	struct archive_index x;
	int rc = archive_index_list(&ar->blob, t, &x, why);
	if (rc < 0)
		return rc;
	ar->entries = x.entries;
	ar->count = x.count;
	ar->lost = x.lost;
	ar->nlost = x.nlost;
	ar->table = t;
	for (size_t i = 0; i < x.nlost; i++)
		log_error("%s: %s's record %s (%s) at %" PRIu64 " %s", ar->label,
			  exe, t->entries[x.lost[i].record].name,
			  t->category[t->entries[x.lost[i].record].category],
			  t->entries[x.lost[i].record].offset, x.lost[i].why);
	return 0;
}

int archive_table_entries(struct archive_dir *ar)
{
	bool indexed = ar->gi && game_index_archive(ar->tree_path);
	struct reason exe = { "" }, why = { "" };
	const struct fdtbl *t = NULL;
	if (indexed) {
		t = game_index_table(ar->gi, &exe);
		int rc = t ? from_table(ar, t, exe.text, &why) : -EINVAL;
		if (rc != -EINVAL)
			return rc;
	}
	/* Listing ahead of any reader (archive_dir_warm), a scan of the
	 * whole archive is not worth it: it waits for a reader to ask. */
	if (readahead_on_worker())
		return -EAGAIN;
	if (indexed && !t)
		log_info("%s: members found by the scan; the game's index is "
			 "not used: %s", ar->label, exe.text);
	else if (indexed)
		log_info("%s: members found by the scan; the game's index in "
			 "%s is not used: %s", ar->label, exe.text, why.text);
	return archive_scan(&ar->blob, &ar->entries, &ar->count);
}

int archive_table_text(struct fs *fs, struct archive_dir *ar)
{
	const struct fdtbl *t = ar->table;
	size_t unchecked = 0;
	int rc = t ? 0 : archive_stream_text(fs, ar);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	for (size_t i = 0; i < ar->count; i++) {
		struct member *m = &ar->members[i];
		char cat[FDTBL_NAME * 3 + 1] = "-";
		if (t && m->e->record >= 0) {
			const char *c = t->category[t->entries[m->e->record].category];
			if (!name_escape_ascii((const uint8_t *)c, strlen(c), cat))
				snprintf(cat, sizeof cat, "-");
		}
		m->category = fs_strdup(fs, cat);
		if (!m->category)
			return -ENOMEM;
		if (t && m->e->record >= 0) {
			unchecked++;
			continue;
		}
		char status[INDEX_STATUS * 2];
		if (t)
			archive_index_status(t, m->e, status, sizeof status);
		else
			snprintf(status, sizeof status, "-");
		m->table_status = fs_strdup(fs, status);
		if (!m->table_status)
			return -ENOMEM;
		atomic_store(&m->checked, true);
	}
	atomic_store(&ar->unchecked, unchecked);
	return 0;
}

/* ---- each member checked against its record, after the listing ---- */

static void check_with(struct fs *fs, struct member *m, struct index_window *w)
{
	if (atomic_load(&m->checked))
		return;
	struct archive_dir *ar = m->ar;
	struct archive_entry *at = &ar->entries[m - ar->members];
	/* offset, extent and record never change: read without the lock. */
	struct archive_entry e = { .offset = at->offset, .extent = at->extent,
				   .record = at->record };
	archive_index_check(&ar->blob, ar->table, &e, w);
	char status[INDEX_STATUS * 2];
	archive_index_status(ar->table, &e, status, sizeof status);
	const char *text = fs_strdup(fs, status);
	fs_lock(fs);
	bool first = !atomic_load(&m->checked);
	if (first) {
		if (!(e.table & (INDEX_NO_HEADER | INDEX_NO_READ)))
			at->header = e.header;
		at->table = e.table;
		at->tail_isize = e.tail_isize;
		/* Out of memory: said as the shortest status there is. */
		m->table_status = text ? text : "-";
		if (m->dir && !(e.table & (INDEX_NO_HEADER | INDEX_NO_READ)))
			node_set_mtime(m->dir, (time_t)e.header.mtime);
		if (m->dir)
			node_set_unsettled(m->dir, false);
		atomic_store(&m->checked, true);
		atomic_fetch_sub(&ar->unchecked, 1);
	}
	fs_unlock(fs);
	if (first && e.table)
		log_error("%s: %s: the game's index disagrees: %s", ar->label,
			  m->name, status);
}

void archive_table_check_member(struct fs *fs, struct member *m)
{
	if (atomic_load(&m->checked))
		return;
	struct index_window w;
	w.have = 0;
	w.bytes_read = 0;
	check_with(fs, m, &w);
}

void archive_table_check_all(struct fs *fs, struct archive_dir *ar)
{
	if (!atomic_load(&ar->unchecked))
		return;
	struct index_window *w = malloc(sizeof *w);
	if (!w) {
		for (size_t i = 0; i < ar->count; i++)
			archive_table_check_member(fs, &ar->members[i]);
		return;
	}
	w->have = 0;
	w->bytes_read = 0;
	archive_index_prefetch(&ar->blob, ar->table, ar->entries, ar->count);
	bool worker = readahead_on_worker();
	for (size_t i = 0; i < ar->count; i++) {
		if (worker && i % 64 == 0 &&
		    readahead_stopping(fs_readahead(fs)))
			break;
		check_with(fs, &ar->members[i], w);
	}
	free(w);
}

static void check_job(void *owner, void *arg)
{
	archive_table_check_all(owner, arg);
}

void archive_table_check_later(struct fs *fs, struct archive_dir *ar)
{
	if (atomic_load(&ar->unchecked))
		readahead_queue(fs_readahead(fs), check_job, ar);
}

/* One category's folder: a link per member, ../../NAME. */
static int populate_category(struct fs *fs, struct node *dir)
{
	struct archive_dir *ar = tree_dir_ctx(tree_parent(tree_parent(dir)));
	const char *cat = tree_name(dir);
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (size_t i = 0; i < ar->count; i++) {
		struct member *m = &ar->members[i];
		if (strcmp(m->category, cat) != 0 || m->e->record < 0)
			continue;
		/* A link's mtime is its member's header's. */
		archive_table_check_member(fs, m);
		size_t n = strlen(m->name) + 7;
		char *target = fs_alloc(fs, n);
		if (!target)
			return -ENOMEM;
		snprintf(target, n, "../../%s", m->name);
		dir_add_link(&b, m->name, m->e->header.mtime, target);
	}
	return dir_publish(&b);
}

static int populate_categories(struct fs *fs, struct node *dir)
{
	struct archive_dir *ar = tree_dir_ctx(dir);
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	for (unsigned c = 0; c < FDTBL_CATEGORIES; c++) {
		char name[FDTBL_NAME * 3 + 1];
		const char *raw = ar->table->category[c];
		if (!name_escape_ascii((const uint8_t *)raw, strlen(raw), name) ||
		    dir_has(&b, name))
			continue;
		dir_add_dir(&b, name, tree_mtime(dir), populate_category, NULL);
	}
	return dir_publish(&b);
}

void archive_table_add_categories(struct dir_builder *b, struct archive_dir *ar)
{
	if (ar->table)
		dir_add_dir(b, CATEGORIES, tree_mtime(b->dir),
			    populate_categories, ar);
}

void archive_table_check_inflated(struct fs *fs, struct member *m, int rc,
				const struct gzip_result *gz)
{
	const struct fdtbl *t = m->ar->table;
	char what[INDEX_STATUS];
	if (t)
		archive_table_check_member(fs, m);    /* what the header check already said */
	if (!t || rc < 0 || !archive_index_inflated(t, m->e, gz, what,
						    sizeof what))
		return;
	if (!atomic_exchange(&m->table_logged, true))
		log_error("%s: %s: the game's index disagrees once inflated: %s",
			  m->ar->label, m->name, what);
}

/* ---- the table against a full scan (ccsfs-check) ---- */

struct compare {
	struct archive_dir *ar;
	table_report_fn report;
	void *ctx;
};

static void say(const struct compare *c, const char *member,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(const struct compare *c, const char *member,
		const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	c->report(c->ctx, member, msg);
}

/* What the table and inflation say of one member the tree lists. */
static void compare_member(const struct compare *c, struct fs *fs,
			   struct member *m, bool scanned)
{
	const struct fdtbl *t = c->ar->table;
	if (m->e->record < 0) {
		say(c, m->name, "the game's index: no record names this "
		    "member (found by the scan only)");
		return;
	}
	const struct fdtbl_entry *r = &t->entries[m->e->record];
	if (!scanned)
		say(c, m->name, "the game's index: record %s lands at %" PRIu64
		    ", where the scan finds no member", r->name, m->e->offset);
	if (m->e->table)
		say(c, m->name, "the game's index: record %s: %s", r->name,
		    m->table_status);
	fs_lock(fs);
	bool known = m->known;
	int rc = m->inflate_rc;
	struct gzip_result gz = m->gz;
	fs_unlock(fs);
	char what[INDEX_STATUS];
	if (known && rc == 0 && archive_index_inflated(t, m->e, &gz, what,
							sizeof what))
		say(c, m->name, "the game's index: record %s, once inflated: "
		    "%s", r->name, what);
}

/* Walks the scan's members and the tree's side by side, by offset. */
static void compare_scan(const struct compare *c, struct fs *fs,
			 const struct archive_entry *scan, size_t n)
{
	struct archive_dir *ar = c->ar;
	size_t i = 0, j = 0;
	while (i < n || j < ar->count) {
		uint64_t a = i < n ? scan[i].offset : UINT64_MAX;
		uint64_t b = j < ar->count ? ar->entries[j].offset : UINT64_MAX;
		if (a < b) {
			say(c, NULL, "the scan finds member %s at %" PRIu64
			    ", inside what the game's index gives another",
			    scan[i].header.name, a);
			i++;
			continue;
		}
		compare_member(c, fs, &ar->members[j], a == b);
		i += a == b;
		j++;
	}
}

int archive_table_compare(struct fs *fs, struct archive_dir *ar,
			table_report_fn report, void *ctx)
{
	struct compare c = { ar, report, ctx };
	if (!ar->table)
		return ar->members ? archive_stream_check(fs, ar, report, ctx)
				   : 0;
	if (!ar->members)
		return 0;
	archive_table_check_all(fs, ar);
	const struct fdtbl *t = ar->table;
	for (size_t i = 0; i < ar->nlost; i++) {
		const struct fdtbl_entry *r = &t->entries[ar->lost[i].record];
		say(&c, NULL, "the game's index: record %s (%s) at %" PRIu64
		    " %s", r->name, t->category[r->category], r->offset,
		    ar->lost[i].why);
	}
	struct archive_entry *scan;
	size_t n;
	int rc = archive_scan(&ar->blob, &scan, &n);
	if (rc < 0)
		return rc;
	compare_scan(&c, fs, scan, n);
	free(scan);
	return 0;
}
