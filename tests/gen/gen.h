/* SPDX-License-Identifier: MIT */
/* gen.h - what ccsgen's commands share: output helpers, the archive
 * writer and the scene building blocks (gen_util.c, gen_blocks.c). */
#ifndef CCSGEN_GEN_H
#define CCSGEN_GEN_H

#include "ccsw.h"
#include "dbw.h"
#include "gzw.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Shift-JIS names of the framebuffer rectangles, as the game has them. */
#define FBR_DRAW_AREA "FBR_\x95\x60\x89\xe6\x97\xcc\x88\xe6" /* FBR_描画領域 */
#define FBR_ZBUFFER "FBR_Z\x83\x6f\x83\x62\x83\x74\x83\x40"  /* FBR_Zバッファ */

struct rng { uint64_t s; };

static inline uint32_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static inline uint32_t rng_range(struct rng *r, uint32_t lo, uint32_t hi)
{
	return lo + rng_next(r) % (hi - lo + 1);
}

/* MTIMEs of the Infection disc lie from 2000-11-08 to 2002-08-23. */
#define MTIME_FIRST 973641600u          /* 2000-11-08 00:00:00 UTC */
#define MTIME_LAST  1030147199u         /* 2002-08-23 23:59:59 UTC */

static inline uint32_t rng_mtime(struct rng *r)
{
	return rng_range(r, MTIME_FIRST, MTIME_LAST);
}

static inline double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- archive output ---- */

/* Writes members one by one (the full disc never holds them all) and, with
 * a raw directory, each member's inflated bytes under the name the mounted
 * tree gives its folder: the stem, `~2` for a repeat, `member-<sector>`
 * for an empty name. */
/* What the executable's index says of each member written (gen_exe.c). */
struct exe_member {
	char fname[64];
	uint64_t offset, length;
	uint32_t usize;
};
struct exe_index {
	struct exe_member *m;
	size_t count;
};
enum exe_variant { EXE_GOOD, EXE_STRIPPED, EXE_WRONG_USIZE, EXE_NO_END,
		   EXE_GARBAGE, EXE_MISSING, EXE_WRONG_NAME, EXE_WRONG_STREAM };

struct archive_out {
	struct gzw *gz;
	struct exe_index *index;        /* when not NULL, members go here */
	const char *path;
	char *rawdir;           /* RAWDIR/<archive name>, or NULL */
	int level;
	bool print;             /* one line per member on stdout */
	char **stems;
	size_t count;
	uint64_t inflated;
};

struct kit {
	const char *stem;
	uint8_t psm, tw, th, mip;
	uint8_t tex_flag, clut_flag;
	enum ccsw_pattern pattern;
	bool alpha_ramp;
	uint16_t mtype, mmats;
	uint32_t vertices;      /* per mmat */
	uint16_t crop_u, crop_v;
	uint32_t seed;
	uint32_t parent;        /* the Obj chunk's parent (0: none) */
};

struct kit_ids { uint32_t clut, tex, mat, mdl, obj; };

struct cutscene {
	unsigned number;
	uint32_t frames;
	uint32_t seed;
	bool rich;              /* every frame kind, a common-file link; in
				   the game's layout a missing target too */
};

void die(const char *fmt, ...);
char *xvasprintf(const char *fmt, va_list ap);
char *xasprintf(const char *fmt, ...);
void make_dirs(const char *path);
void write_file(const char *path, const void *p, size_t n);
void archive_open(struct archive_out *ao, const char *path,
			 const char *rawroot, int level);
void archive_put_level(struct archive_out *ao, const char *fname,
			      uint8_t *data, size_t len, uint32_t mtime,
			      enum gzw_fault fault, const char *what,
			      int level);
void archive_put(struct archive_out *ao, const char *fname,
			uint8_t *data, size_t len, uint32_t mtime,
			enum gzw_fault fault, const char *what);
uint64_t archive_close(struct archive_out *ao);
uint8_t *finish_scene(struct ccsw *w, size_t *len);
void put_scene(struct archive_out *ao, const char *fname,
		      struct ccsw *w, uint32_t mtime);
uint32_t objectf(struct ccsw *w, uint32_t file, const char *fmt, ...);
struct kit_ids add_kit(struct ccsw *w, uint32_t file,
			      const struct kit *k);
struct ccsw *new_scene(const char *stem, uint16_t version,
			      uint32_t *file);
void end_data_scene(struct ccsw *w);
uint32_t add_rigid_model(struct ccsw *w, uint32_t file,
				const char *stem, uint16_t mtype, uint32_t mat,
				uint32_t vertices, uint32_t seed);
uint32_t add_target(struct ccsw *w, uint32_t f, const char *stem,
		    uint16_t mtype, uint32_t mat, uint32_t vertices,
		    uint32_t seed, uint32_t strip, float scale);
void add_shadow_model(struct ccsw *w, uint32_t file, const char *stem,
			     uint32_t *model);
void add_character(struct ccsw *w, uint32_t file, const char *stem,
			  uint32_t mat);
void add_character_morphed(struct ccsw *w, uint32_t file, const char *stem,
			   uint32_t mat, bool morph);
void sample_xasc00(struct archive_out *ao, uint32_t mtime);
void sample_xasc01(struct archive_out *ao, uint32_t mtime);
void sample_xasc02(struct archive_out *ao, uint32_t mtime);
void sample_old(struct archive_out *ao, uint16_t version,
		       uint32_t mtime);
void sample_chr000(struct archive_out *ao, uint32_t mtime);
void add_hits(struct ccsw *w, uint32_t file, uint32_t parent);
void sample_fld000(struct archive_out *ao, uint32_t mtime);
void sample_framebuf(struct archive_out *ao, uint32_t mtime);
void sample_names(struct archive_out *ao, uint32_t mtime);
void sample_xasc00_again(struct archive_out *ao, uint32_t mtime);
void sample_snd000(struct archive_out *ao, uint32_t mtime);
void sample_empty(struct archive_out *ao, uint32_t mtime);
void sample_sector_end(struct archive_out *ao, uint32_t mtime);
void sample_big(struct archive_out *ao, uint32_t mtime);
void sample_pc000(struct archive_out *ao, uint32_t mtime);
void cutscene_extras(struct ccsw *w, uint32_t frame, uint32_t cam,
			    uint32_t mat, uint32_t mph, uint32_t tgt[2],
			    uint32_t shadow_obj, uint32_t note_obj);
void put_cutscene(struct archive_out *ao, const struct cutscene *c,
			 struct rng *r);
void put_common_setup(struct archive_out *ao, uint32_t mtime);
/* A pair laid out as the game's cutscenes are (gen_cutscene_game.c). */
void put_cutscene_game(struct archive_out *ao, const struct cutscene *c,
		       struct rng *r);
void write_plain_files(const char *dir, size_t outside_bytes);
unsigned exe_category(const char *fname);
void exe_index_add(struct exe_index *x, const char *fname, uint64_t offset,
		   uint64_t length, size_t usize);
void write_exe(const char *path, const struct exe_index *x,
	       const struct exe_index *streams,
	       enum exe_variant v);
void write_exes(const char *dir, const char *vdir, struct exe_index *x,
		struct exe_index *streams);
void make_disc_dirs(const char *dir);
int cmd_dbmod(const char *dir);
int cmd_sample(const char *dir, const char *raw, const char *exes);
int cmd_broken(const char *file, const char *raw);

#endif
