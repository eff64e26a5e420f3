/* SPDX-License-Identifier: MIT */
/* pack.c - a pack planned: the edits taken, the archives laid out, the
 * executable's tables patched; then written (pack_out.c) and told. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pack/pack_internal.h"
#include "util/vec.h"

/* SYSTEM.CNF is a few lines; the executables are 3 to 4 MB. */
#define CNF_MAX (64u << 10)
#define EXE_MAX (64u << 20)

static struct change *add_change(struct job *j, const struct pack_file *f,
				 enum change_how how)
{
	if (vec_reserve(j->c, &j->cap, j->n + 1, 16) < 0)
		return NULL;
	struct change *c = &j->c[j->n++];
	memset(c, 0, sizeof *c);
	c->job = j;
	c->f = f;
	c->how = how;
	return c;
}

/* A file's bytes as the output will have them before the tables: the
 * edit's where it was edited. */
static int read_file(struct job *j, const struct pack_file *f, size_t max,
		     uint8_t **data, size_t *len)
{
	const char *host;
	uint64_t size;
	time_t mtime;
	struct blob b;
	bool edited = pack_edits_file(j->e, f->path, &host, &size, &mtime) == 0;
	int rc = edited ? blob_open_file(host, &b)
			: pack_source_blob(&j->s, f, &b);
	if (rc < 0)
		return rc;
	*data = NULL;
	*len = (size_t)b.size;
	if (b.size > max)
		rc = -EFBIG;
	else if (!(*data = malloc(b.size ? (size_t)b.size : 1)))
		rc = -ENOMEM;
	ssize_t got = rc == 0 ? blob_read(&b, *data, (size_t)b.size, 0) : 0;
	if (rc == 0 && got != (ssize_t)b.size)
		rc = got < 0 ? (int)got : -EIO;
	if (rc < 0) {
		free(*data);
		*data = NULL;
	}
	if (edited)
		close(b.fd);
	else
		pack_source_blob_done(&j->s, &b);
	return rc;
}

/* The executable SYSTEM.CNF names, and DATA.BIN's index in it, as the
 * tree finds them (views/gameindex.c).  No index is no error: a disc
 * without one has no table to follow. */
static void load_index(struct job *j)
{
	const struct pack_file *cnf = pack_source_find(&j->s, "SYSTEM.CNF");
	uint8_t *data;
	size_t len;
	char path[256];
	if (!cnf || read_file(j, cnf, CNF_MAX, &data, &len) < 0)
		return;
	int rc = fdtbl_boot_path((const char *)data, len, path, sizeof path);
	free(data);
	if (rc < 0 || !(j->exe = pack_source_find(&j->s, path)))
		return;
	if (read_file(j, j->exe, EXE_MAX, &data, &len) < 0)
		return;
	struct reason why = { "" };
	j->have_table = fdtbl_read(data, len, &j->table, &why) == 0;
	free(data);
}

static int plan_archive(struct job *j, const struct pack_file *f,
			struct reason *why)
{
	struct pack_members *a = calloc(1, sizeof *a);
	if (!a)
		return -ENOMEM;
	a->path = f->path;
	int rc = pack_source_blob(&j->s, f, &a->src);
	if (rc < 0) {
		free(a);
		reason_set(why, "%s: %s", f->path, strerror(-rc));
		return rc;
	}
	bool indexed = j->have_table && !strcasecmp(f->path, "DATA/DATA.BIN");
	rc = pack_members_plan(a, indexed ? &j->table : NULL, j->e,
			       j->o->max_member, &j->spill, why);
	struct change *c = rc == 0 && a->plan.rewritten
			   ? add_change(j, f, CHANGE_MEMBERS) : NULL;
	if (c) {
		c->members = a;
		c->new_size = a->plan.new_size;
		return 0;
	}
	bool lost = rc == 0 && a->plan.rewritten;
	pack_source_blob_done(&j->s, &a->src);
	pack_members_free(a);
	free(a);
	return rc < 0 ? rc : lost ? -ENOMEM : 0;
}

/* Each file of the source: an archive with an edited member, or a file
 * edited whole.  An archive nobody edited is copied as a file, never
 * scanned. */
static int plan_files(struct job *j, struct reason *why)
{
	for (size_t i = 0; i < j->s.count; i++) {
		const struct pack_file *f = &j->s.f[i];
		if (f->is_dir)
			continue;
		if (f->archive) {
			int rc = pack_edits_has_below(j->e, f->path)
				 ? plan_archive(j, f, why) : 0;
			if (rc < 0)
				return rc;
			continue;
		}
		const char *host;
		uint64_t size;
		time_t mtime;
		if (pack_edits_file(j->e, f->path, &host, &size, &mtime) < 0)
			continue;
		struct change *c = add_change(j, f, CHANGE_EDIT);
		if (!c)
			return -ENOMEM;
		c->host = host;
		c->new_size = size;
	}
	return 0;
}

/* The executable's tables made to follow the archives that changed; the
 * executable becomes a change of its own. */
static int plan_tables(struct job *j, struct reason *why)
{
	struct pack_layout *l = calloc(j->n ? j->n : 1, sizeof *l);
	size_t nl = 0;
	if (!l)
		return -ENOMEM;
	for (size_t i = 0; i < j->n; i++)
		if (j->c[i].how == CHANGE_MEMBERS)
			l[nl++] = (struct pack_layout){ j->c[i].f->path,
						&j->c[i].members->plan };
	uint8_t *exe = NULL;
	size_t len = 0;
	int rc = nl && j->exe ? read_file(j, j->exe, EXE_MAX, &exe, &len) : 0;
	if (rc < 0)
		reason_set(why, "%s: %s", j->exe->path, strerror(-rc));
	if (rc == 0 && exe)
		rc = pack_table_patch(exe, len, l, nl, j->records, why);
	free(l);
	size_t sum = 0;
	for (unsigned k = 0; k < PACK_TABLE_KINDS; k++)
		sum += j->records[k];
	if (rc < 0 || !sum) {
		free(exe);
		return rc;
	}
	struct change *c = NULL;
	for (size_t i = 0; i < j->n && !c; i++)
		if (j->c[i].f == j->exe)
			c = &j->c[i];
	if (!c && !(c = add_change(j, j->exe, CHANGE_BYTES))) {
		free(exe);
		return -ENOMEM;
	}
	c->how = CHANGE_BYTES;
	c->bytes = exe;
	c->new_size = len;
	return 0;
}

/* What was done, a line a change. */
static void report(const struct job *j, const char *output, uint64_t size)
{
	FILE *r = j->o->report;
	if (!r)
		return;
	for (size_t i = 0; i < j->n; i++) {
		const struct change *c = &j->c[i];
		const char *path = *c->f->path ? c->f->path : "the archive";
		if (c->how == CHANGE_MEMBERS) {
			const struct pack_members *a = c->members;
			fprintf(r, "%s: %zu member%s rewritten (", path,
				a->plan.rewritten, a->plan.rewritten == 1 ? "" : "s");
			size_t shown = 0;
			for (size_t k = 0; k < a->count; k++)
				if (a->plan.m[k].edited && shown++ < 8)
					fprintf(r, "%s%s", shown > 1 ? " " : "",
						a->names[k]);
			fprintf(r, "%s), %zu moved; %" PRIu64 " -> %" PRIu64
				" bytes\n", shown > 8 ? " ..." : "",
				a->plan.moved, a->plan.size, a->plan.new_size);
		} else if (c->f == j->exe && c->how == CHANGE_BYTES) {
			for (unsigned k = 0; k < PACK_TABLE_KINDS; k++)
				if (j->records[k])
					fprintf(r, "%s: %s: %zu records "
						"patched\n", path,
						pack_table_name(k), j->records[k]);
		} else {
			fprintf(r, "%s: replaced, %" PRIu64 " -> %" PRIu64
				" bytes\n", path, c->f->size, c->new_size);
		}
	}
	size_t i = 0;
	for (const char *u; (u = pack_edits_unused(j->e, &i)); )
		fprintf(r, "%s: not a member's .ccs nor a disc file; no part "
			"of the disc\n", u);
	fprintf(r, "%s: %" PRIu64 " bytes\n", output, size);
}

static void job_free(struct job *j)
{
	for (size_t i = 0; i < j->n; i++) {
		struct change *c = &j->c[i];
		if (c->members) {
			pack_source_blob_done(&j->s, &c->members->src);
			pack_members_free(c->members);
			free(c->members);
		}
		free(c->bytes);
	}
	free(j->c);
	if (j->spill.fd >= 0)
		close(j->spill.fd);
	fdtbl_free(&j->table);
	pack_edits_free(j->e);
	pack_source_close(&j->s);
}

int pack_run(const char *source, const char *dir, const char *output,
	     const struct pack_options *o, struct reason *why)
{
	struct job j;
	memset(&j, 0, sizeof j);
	j.o = o;
	j.spill.fd = -1;
	int rc = pack_source_open(source, &j.s, why);
	if (rc == 0)
		rc = pack_edits_open(dir, &j.e, why);
	if (rc == 0 && o->edits_ready)
		rc = o->edits_ready(j.e, o->edits_ctx, why);
	if (rc == 0)
		rc = pack_out_spill(output, &j.spill.fd, why);
	if (rc == 0) {
		load_index(&j);
		rc = plan_files(&j, why);
	}
	if (rc == 0)
		rc = plan_tables(&j, why);
	if (rc == -ENOMEM && !why->text[0])
		reason_set(why, "out of memory");
	uint64_t size = 0;
	if (rc == 0)
		rc = pack_out_write(&j, output, &size, why);
	if (rc == 0)
		report(&j, output, size);
	job_free(&j);
	return rc;
}
