/* SPDX-License-Identifier: MIT */
/* symfile.c - an nm-style symbol list, read once and looked up by name. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/symfile.h"
#include "util/vec.h"

struct sym {
	uint32_t addr, size;
	char *name;
};

struct symfile {
	struct sym *s;
	size_t n, cap, skipped;
};

/* The next whitespace-separated word of line[*i..n). */
static size_t word(const char *line, size_t n, size_t *i, const char **w)
{
	while (*i < n && isspace((unsigned char)line[*i]))
		(*i)++;
	*w = line + *i;
	size_t start = *i;
	while (*i < n && !isspace((unsigned char)line[*i]))
		(*i)++;
	return *i - start;
}

static bool hex(const char *w, size_t n, uint32_t *v)
{
	if (!n || n > 16)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		int c = tolower((unsigned char)w[i]);
		if (!isxdigit(c))
			return false;
		x = x << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	if (x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

/* One line: its symbol, or skipped. */
static int parse_line(struct symfile *sf, const char *line, size_t n)
{
	const char *w[5];
	size_t len[5], i = 0, k = 0;
	while (k < 5 && (len[k] = word(line, n, &i, &w[k])))
		k++;
	if (k == 0 || w[0][0] == '#')
		return 0;
	uint32_t addr, size = 0;
	bool ok = k >= 2 && k <= 4 && hex(w[0], len[0], &addr);
	if (ok && k == 4)
		ok = hex(w[1], len[1], &size) && len[2] == 1;
	if (ok && k == 3)
		ok = len[1] == 1;
	if (!ok) {
		sf->skipped++;
		return 0;
	}
	if (vec_reserve(sf->s, &sf->cap, sf->n + 1, 256) < 0)
		return -ENOMEM;
	char *name = strndup(w[k - 1], len[k - 1]);
	if (!name)
		return -ENOMEM;
	sf->s[sf->n++] = (struct sym){ addr, size, name };
	return 0;
}

int symfile_parse(const char *text, size_t len, struct symfile **out,
		  struct reason *why)
{
	*out = NULL;
	struct symfile *sf = calloc(1, sizeof *sf);
	if (!sf)
		return -ENOMEM;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		if (parse_line(sf, text + at, n) < 0) {
			symfile_free(sf);
			return -ENOMEM;
		}
		at += n + 1;
	}
	if (!sf->n) {
		reason_set(why, "no line of the shape ADDRESS [TYPE] NAME "
			   "(%zu other lines)", sf->skipped);
		symfile_free(sf);
		return -EINVAL;
	}
	*out = sf;
	return 0;
}

int symfile_read(const char *path, struct symfile **out, struct reason *why)
{
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int rc = -errno;
		reason_set(why, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > SYMFILE_MAX_BYTES) {
		reason_set(why, "%s: not a symbol list (a file of at most "
			   "64 MiB)", path);
		close(fd);
		return -EINVAL;
	}
	size_t len = (size_t)st.st_size, got = 0;
	char *text = malloc(len ? len : 1);
	while (text && got < len) {
		ssize_t r = read(fd, text + got, len - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (!text)
		return -ENOMEM;
	struct reason r = { "" };
	int rc = symfile_parse(text, got, out, &r);
	free(text);
	if (rc < 0)
		reason_set(why, "%s: %s", path, reason_or_errno(&r, rc));
	return rc;
}

void symfile_free(struct symfile *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->s[i].name);
	free(s->s);
	free(s);
}

size_t symfile_count(const struct symfile *s)
{
	return s ? s->n : 0;
}

size_t symfile_skipped(const struct symfile *s)
{
	return s ? s->skipped : 0;
}

int symfile_find(const struct symfile *s, const char *name, uint32_t *addr,
		 uint32_t *size)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->s[i].name, name)) {
			*addr = s->s[i].addr;
			*size = s->s[i].size;
			return 0;
		}
	return -ENOENT;
}

const char *symfile_at(const struct symfile *s, uint32_t addr)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (s->s[i].addr == addr)
			return s->s[i].name;
	return NULL;
}
