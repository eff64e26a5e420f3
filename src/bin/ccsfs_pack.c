/* SPDX-License-Identifier: MIT */
/* ccsfs_pack.c - ccsfs-pack SOURCE DIR OUTPUT: the disc SOURCE with the
 * edits that DIR holds, written to OUTPUT (pack/pack.h).  Options, the
 * progress line and the exit status. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bin/pack_overlay.h"
#include "pack/pack.h"
#include "util/log.h"
#include "util/numfmt.h"

#define PROG "ccsfs-pack"
#define DEFAULT_CACHE_SIZE ((size_t)256 << 20)

enum { EXIT_OK = 0, EXIT_REFUSED = 1, EXIT_USAGE = 2 };

struct options {
	const char *arg[3];     /* SOURCE DIR OUTPUT */
	int nargs;
	size_t cache_size;
	bool quiet, help, version;
};

static void usage(void)
{
	printf("usage: " PROG " [options] SOURCE DIR OUTPUT\n"
	       "\n"
	       "Writes the disc SOURCE (an ISO 9660 image, a folder holding a disc's\n"
	       "files, or one archive) with the edits of the overlay folder DIR (as\n"
	       "ccsfs -o overlay=DIR keeps them: each edit at its path in the tree) to\n"
	       "OUTPUT, of the same kind as SOURCE.  The edits are taken as a mount\n"
	       "takes them; only edited members are compressed again, and the\n"
	       "executable's index of DATA.BIN and its stream tables follow the\n"
	       "members that moved.  Nothing is written when an edit is refused or a\n"
	       "table cannot follow; OUTPUT appears whole or not at all.  Exit status:\n"
	       "0 written, 1 refused or failed, 2 usage.\n"
	       "\n"
	       "options:\n"
	       "    --cache-size=SIZE      memory for an edited member (default 256M;\n"
	       "                           K, M, G): a larger member is refused\n"
	       "    -q, --quiet            no report, no progress line\n"
	       "    -h, --help             this help\n"
	       "    -V, --version          the version\n");
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, PROG ": %s%s\nTry '" PROG " --help'.\n", what,
		arg ? arg : "");
	return -1;
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
			if (!strcmp(a, "-h") || !strcmp(a, "--help"))
				o->help = true;
			else if (!strcmp(a, "-V") || !strcmp(a, "--version"))
				o->version = true;
			else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
				o->quiet = true;
			else if (!strncmp(a, "--cache-size=", 13)) {
				o->cache_size = numfmt_parse_size(a + 13);
				if (!o->cache_size)
					return usage_error("not a size (a number "
							   "with K, M or G): ", a);
			} else
				return usage_error("unknown option: ", a);
		} else if (o->nargs == 3) {
			return usage_error("more than three arguments: ", a);
		} else {
			o->arg[o->nargs++] = a;
		}
	}
	if (o->nargs < 3 && !o->help && !o->version)
		return usage_error("SOURCE, DIR and OUTPUT are needed", NULL);
	return 0;
}

/* The progress line, on a terminal only. */
static void show(const struct pack_progress *pg, void *ctx)
{
	(void)ctx;
	unsigned pct = pg->total ? (unsigned)(pg->done * 100 / pg->total) : 0;
	fprintf(stderr, "\r" PROG ": %" PRIu64 " of %" PRIu64 " MiB written "
		"(%u%%)", pg->done >> 20, pg->total >> 20, pct > 100 ? 100 : pct);
}

/* OUTPUT must not be SOURCE: the source is never written. */
static bool same_file(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	if (parse_args(&o, argc, argv) < 0)
		return EXIT_USAGE;
	if (o.help) {
		usage();
		return EXIT_OK;
	}
	if (o.version) {
		printf(PROG " " PACKAGE_VERSION "\n");
		return EXIT_OK;
	}
	if (same_file(o.arg[0], o.arg[2]) || same_file(o.arg[1], o.arg[2])) {
		fprintf(stderr, PROG ": %s: OUTPUT is SOURCE or DIR; neither "
			"is ever written\n", o.arg[2]);
		return EXIT_USAGE;
	}
	/* The tree's own log lines would repeat what the refusals say. */
	log_set_quiet(true);
	bool tty = !o.quiet && isatty(STDERR_FILENO);
	/* On a terminal the report waits until the progress line is gone. */
	char *held = NULL;
	size_t held_len = 0;
	FILE *report = o.quiet ? NULL : tty ? open_memstream(&held, &held_len)
					    : stdout;
	struct reason why = { "" };
	/* The edits as a mount of SOURCE with DIR as its overlay shows them. */
	struct pack_overlay *ov = pack_overlay_open(o.arg[0], o.arg[1],
						    o.cache_size, &why);
	struct pack_options po = {
		.max_member = o.cache_size,
		.report = report,
		.show = tty ? show : NULL,
		.edits_ready = pack_overlay_ready,
		.edits_ctx = ov,
	};
	int rc = ov ? pack_run(o.arg[0], o.arg[1], o.arg[2], &po, &why)
		    : -EINVAL;
	pack_overlay_close(ov);
	if (tty) {
		fprintf(stderr, "\r\033[K");
		if (report)
			fclose(report);
		if (held)
			fputs(held, stdout);
		free(held);
	}
	if (rc < 0) {
		fprintf(stderr, PROG ": %s; nothing written\n",
			why.text[0] ? why.text : strerror(-rc));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}
