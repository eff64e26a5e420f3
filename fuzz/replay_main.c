/* SPDX-License-Identifier: MIT */
/* replay_main.c - a main() for the fuzz harnesses without libFuzzer.
 *
 * Feeds every file named on the command line, and every regular file in
 * a directory named there (not recursively), to LLVMFuzzerTestOneInput
 * once, in name order.  `make check` links each harness with this to
 * replay fuzz/corpus/<target>/ and fuzz/regressions/<target>/ with any
 * compiler; a crash is the failure (a sanitizer, when built with one,
 * reports it).  Exit status 0 after all inputs, 2 when one cannot be
 * read.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path, unsigned long *count)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			fclose(f);
			fprintf(stderr, "%s: out of memory\n", path);
			return -1;
		}
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		cap *= 2;
		uint8_t *n = realloc(buf, cap);
		if (!n)
			free(buf);
		buf = n;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		fprintf(stderr, "%s: read error\n", path);
		free(buf);
		return -1;
	}
	/* Exactly len bytes, as libFuzzer hands them, so an overread shows. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	(*count)++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned long *count)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **v = realloc(names, cap * sizeof *v);
			if (!v) {
				rc = -1;
				break;
			}
			names = v;
		}
		size_t l = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(l))) {
			rc = -1;
			break;
		}
		snprintf(names[n++], l, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			rc = run_file(names[i], count);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	unsigned long count = 0;
	int status = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			status = 2;
			continue;
		}
		int rc = S_ISDIR(st.st_mode) ? run_dir(argv[i], &count)
					     : run_file(argv[i], &count);
		if (rc < 0)
			status = 2;
	}
	printf("%s: %lu inputs replayed\n", argv[0], count);
	return status;
}
