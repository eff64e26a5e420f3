/* SPDX-License-Identifier: MIT */
/* main.c - options, the source check, and the FUSE session: glue only. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit/overlay.h"
#include "fuse/fuse_ops.h"
#include "fuse/fuse_write.h"
#include "fuse/loop.h"
#include "fuse/push.h"
#include "tree/tree.h"
#include "util/log.h"
#include "util/numfmt.h"
#include "views/member.h"
#include "views/source.h"

#define DEFAULT_CACHE_SIZE ((size_t)256 << 20)
#define DEFAULT_MAX_MEMBER ((size_t)1 << 30)
/* Longer than the gaps between a listing's requests (ls -lR's were
 * 30-100 us on a 2-core virtual machine); polling 100 us and 2 ms did
 * the same there (doc/performance.md, Wake-ups and polling). */
#define DEFAULT_BUSY_POLL_US 200
#define MAX_BUSY_POLL_US 100000

struct options {
	const char *source;
	char *cache_size;
	char *max_member;
	char *png_level;
	char *busy_poll;
	char *overlay;
	char *symbols;
	int no_readahead;
	int show_help;
	int show_version;
};

#define OPT(t, p) { t, offsetof(struct options, p), 1 }
static const struct fuse_opt option_spec[] = {
	OPT("cache_size=%s", cache_size),
	OPT("max_member=%s", max_member),
	OPT("png_level=%s", png_level),
	OPT("busy_poll=%s", busy_poll),
	OPT("overlay=%s", overlay),
	OPT("symbols=%s", symbols),
	OPT("noreadahead", no_readahead),
	OPT("-h", show_help),
	OPT("--help", show_help),
	OPT("-V", show_version),
	OPT("--version", show_version),
	FUSE_OPT_END
};

static void usage(const char *prog)
{
	printf("usage: %s [options] SOURCE MOUNTPOINT\n"
	       "\n"
	       "Mounts the .hack// game archives of SOURCE read-only at MOUNTPOINT\n"
	       "(writable with -o overlay=DIR, SOURCE never written).\n"
	       "SOURCE is a disc image, a directory holding a disc's files, or a\n"
	       "single archive (DATA.BIN, STREAM/STR1.BIN ...) or model database,\n"
	       "told apart by their content.  On a disc whose SYSTEM.CNF names an\n"
	       "executable with the game's index, DATA/DATA.BIN's members come from\n"
	       "it (checked, with %%categories/); else the archive is scanned.\n"
	       "\n"
	       "ccsfs options:\n"
	       "    -o cache_size=SIZE     memory for inflated members, made files and\n"
	       "                           the tree's records (default 256M; K, M, G)\n"
	       "    -o max_member=SIZE     refuse members that inflate to more\n"
	       "                           (default 1G)\n"
	       "    -o png_level=N         compress made PNGs at zlib level N, 1-9;\n"
	       "                           0, the default, stores them, so that\n"
	       "                           a listing knows their sizes\n"
	       "    -o busy_poll=USEC      poll up to USEC microseconds for the\n"
	       "                           next request (while they come that\n"
	       "                           close together) and for the next\n"
	       "                           job ahead (after each job) before\n"
	       "                           sleeping (0-100000, default 200;\n"
	       "                           0: never)\n"
	       "    -o overlay=DIR         writable: every edit kept in DIR as a\n"
	       "                           file at its path in the tree, taken\n"
	       "                           when closed and again at each mount\n"
	       "                           (%%edits.txt lists them); one mount\n"
	       "                           at a time on DIR\n"
	       "    -o symbols=FILE        the symbols of an executable without\n"
	       "                           them (a later volume's): a list as nm\n"
	       "                           writes it, ADDRESS [TYPE] NAME a line;\n"
	       "                           the index, stream and text tables are\n"
	       "                           then found through it\n"
	       "    -o noreadahead         inflate, make, populate or list\n"
	       "                           nothing ahead of a reader or a\n"
	       "                           listing on other threads (nor\n"
	       "                           DATA.BIN from the game's index as\n"
	       "                           the mount starts), and check the\n"
	       "                           index only where a member is used\n"
	       "    -h, --help             this help, then FUSE's options\n"
	       "    -V, --version          the version\n"
	       "\n"
	       "FUSE options:\n"
	       "    -f                     stay in the foreground, log to stderr\n"
	       "    -d                     debug: foreground, every request logged\n"
	       "    -s                     a single thread\n"
	       "    -o allow_other         let other users in (needs user_allow_other)\n"
	       "\n", prog);
}

static int opt_proc(void *data, const char *arg, int key,
		    struct fuse_args *outargs)
{
	(void)outargs;
	struct options *o = data;
	if (key == FUSE_OPT_KEY_NONOPT && !o->source) {
		o->source = arg;
		return 0;       /* taken: FUSE must not see it */
	}
	return 1;
}

static int size_option(const char *value, const char *name, size_t dflt,
		       size_t *out)
{
	*out = dflt;
	if (!value)
		return 0;
	*out = numfmt_parse_size(value);
	if (*out)
		return 0;
	fprintf(stderr, "ccsfs: -o %s=%s: not a size (a number with K, M or G)\n",
		name, value);
	return -1;
}

/* A whole number from 0 to max, the whole value: "3x" or "10" for 0-9 is
 * a mistake to report. */
static int uint_option(const char *value, const char *name, unsigned dflt,
		       unsigned max, unsigned *out)
{
	*out = dflt;
	if (!value)
		return 0;
	char *end;
	errno = 0;
	unsigned long v = strtoul(value, &end, 10);
	if (value[0] >= '0' && value[0] <= '9' && *end == '\0' && !errno &&
	    v <= max) {
		*out = (unsigned)v;
		return 0;
	}
	fprintf(stderr, "ccsfs: -o %s=%s: not a whole number from 0 to %u\n",
		name, value, max);
	return -1;
}

static int loop_threads(struct fuse_session *se,
			const struct fuse_cmdline_opts *cl, unsigned busy_poll)
{
	/* libfuse's own loop for what only it does: a device clone a
	 * thread. */
	if (!cl->clone_fd)
		return loop_serve(se, cl->max_threads, busy_poll);
	struct fuse_loop_config *lc = fuse_loop_cfg_create();
	if (!lc)
		return 1;
	fuse_loop_cfg_set_clone_fd(lc, (unsigned)cl->clone_fd);
	fuse_loop_cfg_set_max_threads(lc, cl->max_threads);
	/* Unset, libfuse 3.14 gives UINT_MAX, and its setter warns on
	 * stderr ("invalid max threads value") before it keeps its
	 * default: every foreground mount printed it. */
	if (cl->max_idle_threads != UINT_MAX)
		fuse_loop_cfg_set_idle_threads(lc, cl->max_idle_threads);
	int rc = fuse_session_loop_mt(se, lc);
	fuse_loop_cfg_destroy(lc);
	return rc;
}

static int serve(struct fuse_session *se, const struct fuse_cmdline_opts *cl,
		 struct fs *fs, unsigned busy_poll, struct overlay **ov)
{
	if (fuse_set_signal_handlers(se) != 0)
		return 1;
	int rc = 1;
	if (fuse_session_mount(se, cl->mountpoint) == 0) {
		log_init(cl->foreground);
		if (fuse_daemonize(cl->foreground) == 0) {
			/* After the fork: threads do not survive it.  An
			 * overlay's edits change what the kernel would be
			 * handed: no members go to its page cache. */
			if (*ov)
				overlay_load(*ov);
			else if (push_start(se, fs) < 0)
				log_error("no thread to hand members to the "
					  "kernel: they are inflated again");
			tree_reclaim_start(fs);
			archive_dir_warm(fs);
			rc = cl->singlethread ? fuse_session_loop(se)
					      : loop_threads(se, cl, busy_poll);
			/* Unmounted: the overlay's folder is free for the
			 * next mount now, not once the cache is freed. */
			fuse_write_set(NULL);
			overlay_close(*ov);
			*ov = NULL;
			push_stop();
			/* What the cache's bound cost, for whoever sizes
			 * it: folders made again when used again. */
			struct tree_unit_stats us;
			tree_unit_stats(fs, &us);
			if (us.released)
				log_info("members' folders let go %" PRIu64
					 " times and made %" PRIu64 " times "
					 "to keep them within %zu KiB "
					 "(cache_size / 4); %zu held at the "
					 "end, %zu KiB", us.released, us.made,
					 us.budget >> 10, us.units,
					 us.bytes >> 10);
		}
		fuse_session_unmount(se);
	}
	fuse_remove_signal_handlers(se);
	/* libfuse reports the signal that ended the loop; being asked to
	 * stop is a clean end. */
	return rc == 0 || rc == SIGTERM || rc == SIGINT || rc == SIGHUP ? 0 : 1;
}

static int number_options(const struct options *o, size_t *cache_size,
			  size_t *max_member, unsigned *png_level,
			  unsigned *busy_poll)
{
	if (size_option(o->cache_size, "cache_size", DEFAULT_CACHE_SIZE,
			cache_size) < 0 ||
	    size_option(o->max_member, "max_member", DEFAULT_MAX_MEMBER,
			max_member) < 0 ||
	    uint_option(o->png_level, "png_level", 0, 9, png_level) < 0 ||
	    uint_option(o->busy_poll, "busy_poll", DEFAULT_BUSY_POLL_US,
			MAX_BUSY_POLL_US, busy_poll) < 0)
		return -1;
	return 0;
}

/* The kernel's options: read-only but with an overlay, and the source
 * as the mount's name. */
static void mount_options(struct fuse_args *args, const char *source,
			  bool rw)
{
	const char *ro = rw ? "" : "ro,";
	char fsname[4200];
	snprintf(fsname, sizeof fsname, "-o%ssubtype=ccsfs,fsname=%s", ro,
		 source);
	/* fsname is parsed as an option list: a comma would split it. */
	if (strchr(source, ',') || fuse_opt_add_arg(args, fsname) != 0) {
		snprintf(fsname, sizeof fsname, "-o%ssubtype=ccsfs,fsname=ccsfs",
			 ro);
		fuse_opt_add_arg(args, fsname);
	}
}

static int run(struct fuse_args *args, struct options *o)
{
	struct fuse_cmdline_opts cl;
	memset(&cl, 0, sizeof cl);
	if (fuse_parse_cmdline(args, &cl) != 0)
		return 1;
	int status = 1;
	struct fs *fs = NULL;
	struct overlay *ov = NULL;
	size_t cache_size, max_member;
	unsigned png_level, busy_poll;
	if (number_options(o, &cache_size, &max_member, &png_level,
			   &busy_poll) < 0)
		goto out;
	if (!o->source || !cl.mountpoint) {
		fprintf(stderr, "ccsfs: %s\nTry 'ccsfs --help'.\n", !o->source ?
			"no SOURCE given" : "no MOUNTPOINT given");
		goto out;
	}
	fs = fs_new(cache_size);
	if (!fs) {
		fprintf(stderr, "ccsfs: out of memory\n");
		goto out;
	}
	fs_set_max_member(fs, max_member);
	fs_set_png_level(fs, (int)png_level);
	readahead_poll(fs_readahead(fs), busy_poll);
	if (o->no_readahead)
		readahead_disable(fs_readahead(fs));
	char err[512];
	if (source_open_symbols(fs, o->source, o->symbols, err,
				sizeof err) < 0) {
		fprintf(stderr, "ccsfs: %s\n", err);
		goto out;
	}
	struct fuse_lowlevel_ops ops = ccsfs_ops;
	/* The lock now, before the mount: a second mount on the same
	 * folder is refused here, where the user sees why. */
	if (o->overlay && overlay_open(fs, o->overlay, 0, &ov, err,
				       sizeof err) < 0) {
		fprintf(stderr, "ccsfs: -o overlay: %s\n", err);
		goto out;
	}
	if (ov) {
		fuse_write_set(ov);
		fuse_write_ops(&ops);
	}
	mount_options(args, o->source, ov != NULL);
	struct fuse_session *se = fuse_session_new(args, &ops, sizeof ops, fs);
	if (se) {
		status = serve(se, &cl, fs, busy_poll, &ov);
		fuse_session_destroy(se);
	}
out:
	fuse_write_set(NULL);
	overlay_close(ov);
	if (fs)
		fs_free(fs);
	free(cl.mountpoint);
	return status;
}

/* Inflated members and made files come and go in sizes from kilobytes to
 * megabytes.  glibc's moving mmap threshold would soon serve them from
 * heap arenas that never shrink, and the daemon's resident memory would
 * drift far above cache_size; a fixed threshold hands large buffers back
 * to the kernel when the cache drops them. */
static void tune_malloc(void)
{
	mallopt(M_MMAP_THRESHOLD, 64 * 1024);
	mallopt(M_ARENA_MAX, 4);
}

int main(int argc, char *argv[])
{
	tune_malloc();
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct options o;
	memset(&o, 0, sizeof o);
	if (fuse_opt_parse(&args, &o, option_spec, opt_proc) != 0)
		return 1;
	int status = 0;
	if (o.show_help) {
		usage(argv[0]);
		printf("libfuse's options:\n");
		fuse_cmdline_help();
		fuse_lowlevel_help();
	} else if (o.show_version) {
		printf("ccsfs %s (libfuse %d)\n", PACKAGE_VERSION, fuse_version());
	} else {
		status = run(&args, &o);
	}
	fuse_opt_free_args(&args);
	free(o.cache_size);
	free(o.max_member);
	free(o.png_level);
	free(o.busy_poll);
	free(o.overlay);
	return status;
}
