/* SPDX-License-Identifier: MIT */
/* ccsfs_check.c - ccsfs-check SOURCE: makes every file the mount of
 * SOURCE would show, without FUSE, and reports what failed, in the words
 * of the error.txt files (like fsck before a mount).  Options and
 * output; the walk is in check_walk.c. */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bin/check.h"
#include "tree/tree.h"
#include "util/log.h"
#include "util/numfmt.h"
#include "views/source.h"

#define PROG "ccsfs-check"
#define DEFAULT_CACHE_SIZE ((size_t)256 << 20)
#define DEFAULT_MAX_MEMBER ((size_t)1 << 30)
#define MAX_WORKERS 8

enum { EXIT_OK = 0, EXIT_PROBLEMS = 1, EXIT_USAGE = 2 };

struct options {
	const char *source;
	const char *symbols;    /* --symbols=FILE, or NULL */
	size_t cache_size;
	unsigned jobs;          /* worker threads; 0: one per core */
	bool json, help, version;
};

static void usage(void)
{
	printf("usage: " PROG " [options] SOURCE\n"
	       "\n"
	       "Makes every file that mounting SOURCE with ccsfs would show and reads\n"
	       "all of its bytes, without mounting: every archive, member, object and\n"
	       "model database.  Prints one line per problem, PATH: what failed (the\n"
	       "lines of the tree's error.txt files, files that cannot be read, and\n"
	       "where DATA/DATA.BIN and the game's index in the executable disagree,\n"
	       "and where a STREAM archive and the stream tables do),\n"
	       "then a summary.  Exit status: 0 all is well, 1 problems, 2 usage.\n"
	       "\n"
	       "options:\n"
	       "    --cache-size=SIZE      memory for inflated members and made files\n"
	       "                           (default 256M; K, M, G)\n"
	       "    --jobs=N               N worker threads (default one per core,\n"
	       "                           two at least; at most 8)\n"
	       "    --json                 one JSON object on stdout, for scripts\n"
	       "    --symbols=FILE         the symbols of an executable without\n"
	       "                           them: an nm-style list, ADDRESS [TYPE]\n"
	       "                           NAME a line (as ccsfs -o symbols=)\n"
	       "    -h, --help             this help\n"
	       "    -V, --version          the version\n");
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, PROG ": %s%s\nTry '" PROG " --help'.\n", what,
		arg ? arg : "");
	return -1;
}

static int parse_option(struct options *o, const char *a)
{
	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		o->help = true;
	else if (!strcmp(a, "-V") || !strcmp(a, "--version"))
		o->version = true;
	else if (!strcmp(a, "--json"))
		o->json = true;
	else if (!strncmp(a, "--symbols=", 10) && a[10])
		o->symbols = a + 10;
	else if (!strncmp(a, "--cache-size=", 13)) {
		o->cache_size = numfmt_parse_size(a + 13);
		if (!o->cache_size)
			return usage_error("not a size (a number with K, M or G): ",
					   a);
	} else if (!strncmp(a, "--jobs=", 7)) {
		char *end;
		unsigned long n = strtoul(a + 7, &end, 10);
		if (end == a + 7 || *end || !n || n > MAX_WORKERS)
			return usage_error("not a count of workers (1 to 8): ",
					   a);
		o->jobs = (unsigned)n;
	} else
		return usage_error("unknown option: ", a);
	return 0;
}

static int parse_args(struct options *o, int argc, char **argv)
{
	bool options_end = false;
	o->cache_size = DEFAULT_CACHE_SIZE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!options_end && !strcmp(a, "--")) {
			options_end = true;
		} else if (!options_end && a[0] == '-' && a[1]) {
			if (parse_option(o, a) < 0)
				return -1;
		} else if (o->source) {
			return usage_error("more than one SOURCE: ", a);
		} else {
			o->source = a;
		}
	}
	if (!o->source && !o->help && !o->version)
		return usage_error("no SOURCE given", NULL);
	return 0;
}

/* The progress line: on stderr when it is a terminal, redrawn a few
 * times a second while the workers walk. */
struct progress {
	struct check *c;
	pthread_t thread;
	_Atomic bool done;
};

static void progress_line(struct check *c, const char *end)
{
	pthread_mutex_lock(&c->lock);
	size_t problems = c->nproblems;
	pthread_mutex_unlock(&c->lock);
	fprintf(stderr, "\r" PROG ": %llu of %llu members, %llu files, "
		"%llu MiB, %zu problems%s",
		(unsigned long long)atomic_load(&c->members),
		(unsigned long long)atomic_load(&c->members_met),
		(unsigned long long)atomic_load(&c->files),
		(unsigned long long)(atomic_load(&c->bytes) >> 20), problems,
		end);
}

static void *progress_main(void *arg)
{
	struct progress *pr = arg;
	const struct timespec tick = { 0, 200 * 1000 * 1000 };
	while (!atomic_load(&pr->done)) {
		progress_line(pr->c, "\033[K");
		nanosleep(&tick, NULL);
	}
	progress_line(pr->c, "\033[K\n");
	return NULL;
}

static unsigned worker_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	/* Two at least: a worker waiting on an inflation leaves the other
	 * core to the next member even on one core's worth of CPUs. */
	return n < 2 ? 2 : n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}

static int walk(struct fs *fs, const struct options *o)
{
	struct check c;
	check_init(&c, fs, o->jobs ? o->jobs : worker_count());
	struct progress pr = { &c, 0, false };
	bool shown = isatty(STDERR_FILENO) &&
		     pthread_create(&pr.thread, NULL, progress_main, &pr) == 0;
	int rc = check_run(&c);
	if (shown) {
		atomic_store(&pr.done, true);
		pthread_join(pr.thread, NULL);
	}
	if (rc < 0 || c.failed_alloc) {
		fprintf(stderr, PROG ": out of memory\n");
		check_free(&c);
		return EXIT_PROBLEMS;
	}
	check_sort(&c);
	if (o->json)
		check_print_json(&c, o->source);
	else
		check_print_text(&c);
	int status = c.nproblems ? EXIT_PROBLEMS : EXIT_OK;
	check_free(&c);
	return fflush(stdout) == 0 ? status : EXIT_PROBLEMS;
}

static int run(const struct options *o)
{
	struct fs *fs = fs_new(o->cache_size);
	if (!fs) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_PROBLEMS;
	}
	fs_set_max_member(fs, DEFAULT_MAX_MEMBER);
	/* The workers are the parallelism: nothing is made ahead of them
	 * that they would not make themselves. */
	readahead_disable(fs_readahead(fs));
	char err[512];
	int status = EXIT_USAGE;
	if (source_open_symbols(fs, o->source, o->symbols, err,
				sizeof err) < 0)
		fprintf(stderr, PROG ": %s\n", err);
	else
		status = walk(fs, o);
	fs_free(fs);
	return status;
}

int main(int argc, char *argv[])
{
	/* As the daemon: big buffers go back to the kernel when dropped. */
	mallopt(M_MMAP_THRESHOLD, 64 * 1024);
	mallopt(M_ARENA_MAX, 4);
	struct options o;
	memset(&o, 0, sizeof o);
	if (parse_args(&o, argc, argv) < 0)
		return EXIT_USAGE;
	if (o.help) {
		usage();
		return EXIT_OK;
	}
	if (o.version) {
		printf(PROG " %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	/* The problems are reported from error.txt, in its words; the
	 * tree's log would say them twice. */
	log_set_quiet(true);
	return run(&o);
}
