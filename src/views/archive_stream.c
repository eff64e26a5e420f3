/* SPDX-License-Identifier: MIT */
/* archive_stream.c - the stream tables' words on a STREAM archive's
 * members (doc/formats/archive.md, The stream tables): in %members.txt, the
 * streams that list each member (its category column) and whether the
 * table's record agrees with the archive (its table column), and for
 * ccsfs-check, every disagreement and every record that lands on no
 * member.
 *
 * A record agrees when its name is the member's gzip name without the
 * extension, the member's gzip data ends within the sector padding
 * after offset + size, and the gzip trailer there holds `gzip` as its
 * ISIZE: one read of four bytes per member, as the listing is made. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "archive/strtbl.h"
#include "util/bytes.h"
#include "util/log.h"
#include "views/archive_stream.h"
#include "views/gameindex.h"

/* The table of this archive's voice and its type, or NULL. */
static const struct strtbl_voice_table *voice_of(const struct archive_dir *ar,
						 int16_t *type)
{
	if (!ar->gi || !ar->tree_path)
		return NULL;
	const char *base = strrchr(ar->tree_path, '/');
	enum strtbl_voice v;
	if (strtbl_archive(base ? base + 1 : ar->tree_path, &v, type) < 0)
		return NULL;
	const struct strtbl *t = game_index_streams(ar->gi, NULL);
	return t && t->voice[v].present ? &t->voice[v] : NULL;
}

/* Whether the record's name is the gzip name's stem. */
static bool same_name(const char *record, const char *gzip_name)
{
	size_t n = strcspn(gzip_name, ".");
	return strlen(record) == n && !strncasecmp(record, gzip_name, n);
}

/* What the archive says of one record of member e: "table ok" or what
 * differs. */
static void record_status(const struct archive_dir *ar,
			  const struct archive_entry *e,
			  const struct strtbl_file *f, char *out, size_t n)
{
	size_t at = 0;
	out[0] = 0;
	if (!same_name(f->r.name, e->header.name))
		at += (size_t)snprintf(out, n, "name %s != %s", f->r.name,
				       e->header.name);
	uint64_t size = (uint32_t)f->r.size;
	if (size < 18 || size > e->extent || e->extent - size > ARCHIVE_SECTOR) {
		if (at < n)
			at += (size_t)snprintf(out + at, n - at, "%ssize %" PRIu64
					       " != the member's end", at ? ", "
					       : "", size);
	} else {
		uint8_t isize[4];
		ssize_t got = blob_read(&ar->blob, isize, 4, e->offset + size - 4);
		if (got != 4 && at < n)
			at += (size_t)snprintf(out + at, n - at, "%ssize %" PRIu64
					       ": its end cannot be read",
					       at ? ", " : "", size);
		else if (rd_u32le(isize) != f->r.gzip && at < n)
			at += (size_t)snprintf(out + at, n - at, "%sgzip %" PRIu32
					       " != the ISIZE where size ends "
					       "the member, %" PRIu32,
					       at ? ", " : "", f->r.gzip,
					       rd_u32le(isize));
	}
	if (!at)
		snprintf(out, n, "table ok");
}

/* The category column: "stream:2,7", each number once. */
static void stream_list(const struct strtbl_voice_table *v, int16_t type,
			uint64_t offset, char *out, size_t n, size_t *first)
{
	size_t at = 0;
	uint32_t last = UINT32_MAX;
	*first = SIZE_MAX;
	out[0] = 0;
	for (size_t i = 0; i < v->nfiles && at < n; i++) {
		const struct strtbl_file *f = &v->files[i];
		if (f->archive != type || f->offset != offset ||
		    f->stream == last)
			continue;
		if (*first == SIZE_MAX)
			*first = i;
		at += (size_t)snprintf(out + at, n - at, "%s%" PRIu32,
				       at ? "," : "stream:", f->stream);
		last = f->stream;
	}
	if (!at)
		snprintf(out, n, "-");
}

int archive_stream_text(struct fs *fs, struct archive_dir *ar)
{
	int16_t type;
	const struct strtbl_voice_table *v = voice_of(ar, &type);
	if (!v)
		return 0;
	for (size_t i = 0; i < ar->count; i++) {
		struct member *m = &ar->members[i];
		char cat[256], status[256];
		size_t first;
		stream_list(v, type, m->e->offset, cat, sizeof cat, &first);
		if (first == SIZE_MAX)
			snprintf(status, sizeof status, "no stream record");
		else
			record_status(ar, m->e, &v->files[first], status,
				      sizeof status);
		m->category = fs_strdup(fs, cat);
		m->table_status = fs_strdup(fs, status);
		if (!m->category || !m->table_status)
			return -ENOMEM;
		atomic_store(&m->checked, true);
		if (first != SIZE_MAX && strcmp(status, "table ok"))
			log_error("%s: %s: the stream table disagrees: %s",
				  ar->label, m->name, status);
	}
	atomic_store(&ar->unchecked, 0);
	return 1;
}

static void say(table_report_fn report, void *ctx, const char *member,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void say(table_report_fn report, void *ctx, const char *member,
		const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	report(ctx, member, msg);
}

/* The member at offset, or NULL. */
static struct member *member_at(struct archive_dir *ar, uint64_t offset)
{
	size_t lo = 0, hi = ar->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ar->entries[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ar->count && ar->entries[lo].offset == offset
	       ? &ar->members[lo] : NULL;
}

/* One record against its member: its status, and once inflated the
 * gzip member's length and ISIZE. */
static void check_record(struct fs *fs, struct archive_dir *ar,
			 const struct strtbl_file *f, const char *sym,
			 table_report_fn report, void *ctx)
{
	struct member *m = member_at(ar, f->offset);
	if (!m) {
		say(report, ctx, NULL, "%s: stream %" PRIu32 " record %" PRIu32
		    " (%s) lands at %" PRIu64 ", where no member starts", sym,
		    f->stream, f->index, f->r.name, f->offset);
		return;
	}
	char status[256];
	record_status(ar, m->e, f, status, sizeof status);
	if (strcmp(status, "table ok"))
		say(report, ctx, m->name, "%s: stream %" PRIu32 " record %"
		    PRIu32 " (%s): %s", sym, f->stream, f->index, f->r.name,
		    status);
	fs_lock(fs);
	bool known = m->known;
	int rc = m->inflate_rc;
	struct gzip_result gz = m->gz;
	fs_unlock(fs);
	if (known && rc == 0 && (gz.compressed != (uint32_t)f->r.size ||
				 gz.isize != f->r.gzip))
		say(report, ctx, m->name, "%s: stream %" PRIu32 " record %"
		    PRIu32 " (%s), once inflated: size %" PRId32 " gzip %"
		    PRIu32 ", the member's %" PRIu64 " and %" PRIu32, sym,
		    f->stream, f->index, f->r.name, f->r.size, f->r.gzip,
		    gz.compressed, gz.isize);
}

int archive_stream_check(struct fs *fs, struct archive_dir *ar,
			 table_report_fn report, void *ctx)
{
	int16_t type;
	const struct strtbl_voice_table *v = voice_of(ar, &type);
	if (!v || !ar->members)
		return 0;
	const char *sym = strtbl_symbol(v == &game_index_streams(ar->gi, NULL)
					->voice[STRTBL_ENGLISH]
					? STRTBL_ENGLISH : STRTBL_JAPANESE);
	if (v->bad)
		say(report, ctx, NULL, "%s: %zu list%s left out or cut short; "
		    "the first: %s", sym, v->bad, v->bad == 1 ? "" : "s",
		    v->why.text);
	for (size_t i = 0; i < v->nfiles; i++)
		if (v->files[i].archive == type)
			check_record(fs, ar, &v->files[i], sym, report, ctx);
	return 0;
}

int archive_stream_lowest(const struct archive_dir *ar, uint64_t offset,
			  uint32_t *stream)
{
	int16_t type;
	const struct strtbl_voice_table *v = voice_of(ar, &type);
	int rc = -ENOENT;
	for (size_t i = 0; v && i < v->nfiles; i++) {
		const struct strtbl_file *f = &v->files[i];
		if (f->archive == type && f->offset == offset &&
		    (rc < 0 || f->stream < *stream)) {
			*stream = f->stream;
			rc = 0;
		}
	}
	return rc;
}
