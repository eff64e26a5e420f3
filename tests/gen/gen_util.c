/* SPDX-License-Identifier: MIT */
/* gen_util.c - ccsgen's helpers: errors, files, the
 * seeded random numbers, and the archive writer. */
#include "gen.h"

/* ---- utilities ---- */

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("ccsgen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void make_dirs(const char *path)
{
	char *p = xasprintf("%s", path);
	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST)
				die("cannot create %s: %s", p, strerror(errno));
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
}

void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

/* splitmix64: small, fast, and the same everywhere. */

void archive_open(struct archive_out *ao, const char *path,
			 const char *rawroot, int level)
{
	memset(ao, 0, sizeof *ao);
	ao->path = path;
	ao->level = level;
	ao->gz = gzw_open(path);
	if (!ao->gz)
		die("cannot create %s: %s", path, strerror(errno));
	if (rawroot) {
		const char *base = strrchr(path, '/');
		ao->rawdir = xasprintf("%s/%s", rawroot, base ? base + 1 : path);
		make_dirs(ao->rawdir);
	}
}

static char *stem_of(const char *fname)
{
	char *s = xasprintf("%s", fname);
	char *dot = strrchr(s, '.');
	if (dot && dot != s)
		*dot = '\0';
	return s;
}

static char *raw_name(struct archive_out *ao, const char *fname,
		      uint64_t offset)
{
	char *stem = stem_of(fname);
	if (!*stem) {
		free(stem);
		return xasprintf("member-%llu",
				 (unsigned long long)(offset / GZW_SECTOR));
	}
	unsigned seen = 1;
	for (size_t i = 0; i < ao->count; i++)
		seen += strcmp(ao->stems[i], stem) == 0;
	ao->stems = realloc(ao->stems, (ao->count + 1) * sizeof *ao->stems);
	if (!ao->stems)
		die("out of memory");
	ao->stems[ao->count++] = xasprintf("%s", stem);
	char *name = seen > 1 ? xasprintf("%s~%u", stem, seen)
			      : xasprintf("%s", stem);
	free(stem);
	return name;
}

/* Takes ownership of data.  level -1: the archive's. */
void archive_put_level(struct archive_out *ao, const char *fname,
			      uint8_t *data, size_t len, uint32_t mtime,
			      enum gzw_fault fault, const char *what,
			      int level)
{
	struct gzw_opts o = { .level = level >= 0 ? level : ao->level,
			      .mtime = mtime, .fault = fault };
	struct gzw_added at;
	if (gzw_add(ao->gz, fname, data, len, &o, &at))
		die("cannot write %s: %s", ao->path, strerror(errno));
	if (ao->index)
		exe_index_add(ao->index, fname, at.offset, at.length, len);
	char *name = raw_name(ao, fname, at.offset);
	if (ao->rawdir) {
		char *p = xasprintf("%s/%s.ccs", ao->rawdir, name);
		write_file(p, data, len);
		free(p);
	}
	if (ao->print)
		printf("%-12s %8llu  %s\n", *fname ? fname : "\"\"",
		       (unsigned long long)at.offset, what);
	free(name);
	ao->inflated += len;
	free(data);
}

void archive_put(struct archive_out *ao, const char *fname,
			uint8_t *data, size_t len, uint32_t mtime,
			enum gzw_fault fault, const char *what)
{
	archive_put_level(ao, fname, data, len, mtime, fault, what, -1);
}

uint64_t archive_close(struct archive_out *ao)
{
	uint64_t size = gzw_offset(ao->gz);
	if (gzw_close(ao->gz))
		die("cannot write %s", ao->path);
	for (size_t i = 0; i < ao->count; i++)
		free(ao->stems[i]);
	free(ao->stems);
	free(ao->rawdir);
	return size;
}

uint8_t *finish_scene(struct ccsw *w, size_t *len)
{
	uint8_t *p = ccsw_finish(w, len);
	ccsw_free(w);
	return p;
}

/* Finishes a scene and hands it to the archive. */
void put_scene(struct archive_out *ao, const char *fname,
		      struct ccsw *w, uint32_t mtime)
{
	size_t len;
	uint8_t *data = finish_scene(w, &len);
	archive_put(ao, fname, data, len, mtime, GZW_GOOD, "ok");
}
