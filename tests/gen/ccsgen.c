/* SPDX-License-Identifier: MIT */
/* ccsgen - makes synthetic .hack//-style discs, archives and CCSF files.
 *
 *   ccsgen sample DIR [--raw RAWDIR]     a small disc covering every case
 *   ccsgen broken FILE [--raw RAWDIR]    an archive of broken members
 *   ccsgen full DIR [--members N] [--level L]   the benchmark-sized disc
 *   ccsgen ccs OUT [--version V]         one CCSF file with every kind
 *   ccsgen dbmod DIR                     DBnnMOD.BIN model databases
 *
 * Output is deterministic: every choice comes from fixed seeds, so the
 * same command writes the same bytes on every run and machine.
 */
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

/* ---- utilities ---- */

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("ccsgen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return s;
}

static void make_dirs(const char *path)
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

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

/* splitmix64: small, fast, and the same everywhere. */
struct rng { uint64_t s; };

static uint32_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static uint32_t rng_range(struct rng *r, uint32_t lo, uint32_t hi)
{
	return lo + rng_next(r) % (hi - lo + 1);
}

/* MTIMEs of the Infection disc lie from 2000-11-08 to 2002-08-23. */
#define MTIME_FIRST 973641600u          /* 2000-11-08 00:00:00 UTC */
#define MTIME_LAST  1030147199u         /* 2002-08-23 23:59:59 UTC */

static uint32_t rng_mtime(struct rng *r)
{
	return rng_range(r, MTIME_FIRST, MTIME_LAST);
}

static double seconds_now(void)
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
struct archive_out {
	struct gzw *gz;
	const char *path;
	char *rawdir;           /* RAWDIR/<archive name>, or NULL */
	int level;
	bool print;             /* one line per member on stdout */
	char **stems;
	size_t count;
	uint64_t inflated;
};

static void archive_open(struct archive_out *ao, const char *path,
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
static void archive_put_level(struct archive_out *ao, const char *fname,
			      uint8_t *data, size_t len, uint32_t mtime,
			      enum gzw_fault fault, const char *what,
			      int level)
{
	struct gzw_opts o = { .level = level >= 0 ? level : ao->level,
			      .mtime = mtime, .fault = fault };
	struct gzw_added at;
	if (gzw_add(ao->gz, fname, data, len, &o, &at))
		die("cannot write %s: %s", ao->path, strerror(errno));
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

static void archive_put(struct archive_out *ao, const char *fname,
			uint8_t *data, size_t len, uint32_t mtime,
			enum gzw_fault fault, const char *what)
{
	archive_put_level(ao, fname, data, len, mtime, fault, what, -1);
}

static uint64_t archive_close(struct archive_out *ao)
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

static uint8_t *finish_scene(struct ccsw *w, size_t *len)
{
	uint8_t *p = ccsw_finish(w, len);
	ccsw_free(w);
	return p;
}

/* Finishes a scene and hands it to the archive. */
static void put_scene(struct archive_out *ao, const char *fname,
		      struct ccsw *w, uint32_t mtime)
{
	size_t len;
	uint8_t *data = finish_scene(w, &len);
	archive_put(ao, fname, data, len, mtime, GZW_GOOD, "ok");
}

/* ---- scene building blocks ---- */

/* A textured, drawn object: palette, texture, material, model, Obj, Obj2,
 * the way most DATA.BIN scenes are made of them. */
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
};

struct kit_ids { uint32_t clut, tex, mat, mdl, obj; };

static uint32_t objectf(struct ccsw *w, uint32_t file, const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	uint32_t id = ccsw_object_str(w, s, file);
	free(s);
	return id;
}

static void add_palette_and_texture(struct ccsw *w, const struct kit *k,
				    const struct kit_ids *id)
{
	struct ccsw_clut c = {
		.object = id->clut, .blt_group = 0, .flag = k->clut_flag,
		.buf_x = 896, .buf_y = (uint16_t)(k->seed % 8 * 4),
		.count = k->psm == 0x14 ? 16 : 256,
		.alpha_ramp = k->alpha_ramp, .seed = k->seed,
	};
	ccsw_clut(w, &c);
	struct ccsw_texture t = {
		.object = id->tex, .clut = id->clut, .flag = k->tex_flag,
		.psm = k->psm, .mipmap = k->mip, .aref = 0x70,
		.tw = k->tw, .th = k->th, .buf_x = 768,
		.buf_y = (uint16_t)(k->seed % 16 * 32),
		.pattern = k->pattern, .seed = k->seed,
		.size_field = CCSW_SIZE_AUTO,
	};
	ccsw_texture(w, &t);
}

static void add_kit_model(struct ccsw *w, uint32_t file, const struct kit *k,
			  const struct kit_ids *id)
{
	struct ccsw_mmat mm[8];
	uint16_t n = k->mmats < 8 ? k->mmats : 8;
	bool rigid = !(ccsw_layout_mtype(w, k->mtype) & 0xc);
	for (uint16_t i = 0; i < n; i++) {
		memset(&mm[i], 0, sizeof mm[i]);
		mm[i].name = rigid ? objectf(w, file, "MDL_%s_%u", k->stem, i)
				   : 0;
		mm[i].material = id->mat;
		mm[i].vertices = k->vertices + i * 6;
		mm[i].strip = 6 + (i % 3) * 2;
		mm[i].seed = k->seed * 31 + i;
	}
	struct ccsw_model m = {
		.object = id->mdl, .vertex_scale = 1.0f, .mtype = k->mtype,
		.flag = (uint16_t)(k->seed % 4 == 3 ? 1 : 0),
		.mmat_count = n, .mmats = mm, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &m);
}

static struct kit_ids add_kit(struct ccsw *w, uint32_t file,
			      const struct kit *k)
{
	struct kit_ids id;
	id.clut = objectf(w, file, "CLT_%s", k->stem);
	id.tex = objectf(w, file, "TEX_%s", k->stem);
	id.mat = objectf(w, file, "MAT_%s", k->stem);
	id.mdl = objectf(w, file, "MDL_%s", k->stem);
	id.obj = objectf(w, file, "OBJ_%s", k->stem);
	add_palette_and_texture(w, k, &id);
	ccsw_material(w, id.mat, id.tex, 1.0f, k->crop_u, k->crop_v);
	add_kit_model(w, file, k, &id);
	ccsw_obj(w, id.obj, 0, id.mdl, 0);
	ccsw_obj2(w, id.obj, 0, 0, 0, 0);
	return id;
}

static struct ccsw *new_scene(const char *stem, uint16_t version,
			      uint32_t *file)
{
	struct ccsw *w = ccsw_new(stem, version);
	char *path = xasprintf(" c:\\art\\%s.max", stem);
	*file = ccsw_file(w, path);
	free(path);
	ccsw_setup(w);
	return w;
}

/* DATA.BIN scenes end with an empty frame section. */
static void end_data_scene(struct ccsw *w)
{
	ccsw_frame(w, 1);
	ccsw_end(w);
}

static uint32_t add_rigid_model(struct ccsw *w, uint32_t file,
				const char *stem, uint16_t mtype, uint32_t mat,
				uint32_t vertices, uint32_t seed)
{
	struct ccsw_mmat mm = { .material = mat, .vertices = vertices,
				.seed = seed };
	uint32_t model = objectf(w, file, "%s", stem);
	if (!(ccsw_layout_mtype(w, mtype) & 0xc))
		mm.name = objectf(w, file, "%s_0", stem);
	struct ccsw_model m = {
		.object = model, .vertex_scale = 2.0f, .mtype = mtype,
		.mmat_count = 1, .mmats = &mm, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &m);
	return model;
}

static void add_shadow_model(struct ccsw *w, uint32_t file, const char *stem,
			     uint32_t *model)
{
	struct ccsw_mmat mm[2] = {
		{ .vertices = 0, .indices = 0 },        /* vNum 0: nothing more */
		{ .vertices = 12, .indices = 18, .seed = 77 },
	};
	*model = objectf(w, file, "%s", stem);
	struct ccsw_model m = {
		.object = *model, .vertex_scale = 1.0f, .mtype = 8,
		.mmat_count = 2, .mmats = mm, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &m);
}

/* Clump, bone and skin models, ExtObj, Anime, Bbox, dummies: a character. */
static void add_character(struct ccsw *w, uint32_t file, const char *stem,
			  uint32_t mat)
{
	enum { NODES = 4 };
	uint32_t nodes[NODES];
	for (int i = 0; i < NODES; i++)
		nodes[i] = objectf(w, file, "OBJ_%s_n%d", stem, i);
	uint32_t clump = objectf(w, file, "CMP_%s", stem);
	uint32_t bone = objectf(w, file, "MDL_%s_bone", stem);
	uint32_t skin = objectf(w, file, "MDL_%s_skin", stem);
	uint32_t ext = objectf(w, file, "OBJ_%s_ext", stem);
	uint32_t anm = objectf(w, file, "ANM_%s", stem);
	uint32_t box = objectf(w, file, "BOX_%s", stem);
	uint32_t dmy = objectf(w, file, "DMY_%s_hand", stem);
	uint32_t dmr = objectf(w, file, "DMY_%s_head", stem);

	struct ccsw_mmat bones[2] = {
		{ .material = mat, .node = 1, .vertices = 10, .seed = 11 },
		{ .material = mat, .node = 3, .vertices = 7, .seed = 12 },
	};
	struct ccsw_model bm = { .object = bone, .vertex_scale = 1.0f,
				 .mtype = 5, .mmat_count = 2, .mmats = bones,
				 .size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &bm);
	struct ccsw_mmat skins[2] = {
		{ .material = mat, .vertices = 8, .offsets = 13, .seed = 21 },
		{ .material = mat, .vertices = 5, .offsets = 5, .seed = 22 },
	};
	struct ccsw_model sm = { .object = skin, .vertex_scale = 1.5f,
				 .mtype = 5, .mmat_count = 2, .mmats = skins,
				 .size_field = CCSW_SIZE_AUTO };
	ccsw_model(w, &sm);

	for (int i = 0; i < NODES; i++)
		ccsw_obj(w, nodes[i], i ? nodes[i - 1] : 0,
			 i == 1 ? bone : i == 2 ? skin : 0, 0);
	ccsw_clump(w, clump, NODES, nodes);
	ccsw_extobj(w, ext, nodes[0], nodes[3]);
	ccsw_anime(w, anm, nodes[0], 3);
	const float lo[3] = { -10, -10, 0 }, hi[3] = { 10, 10, 40 };
	ccsw_bbox(w, box, nodes[0], lo, hi);
	const float at[3] = { 5, 0, 20 }, rot[3] = { 0, 90, 180 };
	ccsw_dummypos(w, dmy, at);
	ccsw_dummyposrot(w, dmr, at, rot);
}

/* ---- the sample DATA.BIN ---- */

static void sample_xasc00(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("xasc00", 0x100, &f);
	struct kit k = { .stem = "xasc00", .psm = 0x14, .tw = 7, .th = 7,
			 .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_GRADIENT, .mtype = 0, .mmats = 2,
			 .vertices = 14, .seed = 1 };
	add_kit(w, f, &k);
	end_data_scene(w);
	put_scene(ao, "xasc00.cmp", w, mtime);
}

/* Rigid variants of version 0x100: lit, no normals, alpha palettes. */
static void sample_xasc01(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("xasc01", 0x100, &f);
	struct kit a = { .stem = "xasc01a", .psm = 0x13, .tw = 6, .th = 6,
			 .mip = 3, .tex_flag = 0x09, .clut_flag = 0x05,
			 .pattern = CCSW_PAT_GRADIENT, .alpha_ramp = true,
			 .mtype = 1, .mmats = 1, .vertices = 20,
			 .crop_u = 16, .crop_v = 8, .seed = 2 };
	struct kit b = { .stem = "xasc01b", .psm = 0x14, .tw = 5, .th = 5,
			 .mip = 2, .tex_flag = 0x11, .clut_flag = 0x05,
			 .pattern = CCSW_PAT_CHECKER, .alpha_ramp = true,
			 .mtype = 0x41, .mmats = 3, .vertices = 8, .seed = 3 };
	add_kit(w, f, &a);
	add_kit(w, f, &b);
	end_data_scene(w);
	put_scene(ao, "xasc01.cmp", w, mtime);
}

/* Every rigid layout flag, the morph targets and a model without mmats. */
static void sample_xasc02(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("xasc02", 0x100, &f);
	struct kit k = { .stem = "xasc02", .psm = 0x13, .tw = 4, .th = 5,
			 .mip = 1, .tex_flag = 1, .pattern = CCSW_PAT_NOISY,
			 .mtype = 1, .mmats = 1, .vertices = 12, .seed = 4 };
	struct kit_ids id = add_kit(w, f, &k);
	add_rigid_model(w, f, "MDL_nocol", 0x201, id.mat, 9, 40);
	add_rigid_model(w, f, "MDL_nost", 0x401, id.mat, 10, 41);
	add_rigid_model(w, f, "MDL_posonly", 0x641, id.mat, 11, 42);
	add_rigid_model(w, f, "MDL_tgt0", 0x600, id.mat, 12, 43);
	add_rigid_model(w, f, "MDL_tgt1", 0x601, id.mat, 12, 44);
	struct ccsw_model empty = {
		.object = objectf(w, f, "MDL_empty"), .vertex_scale = 1.0f,
		.mtype = 1, .mmat_count = 0, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &empty);
	struct ccsw_model empty_bone = {
		.object = objectf(w, f, "MDL_empty_bone"), .vertex_scale = 1.0f,
		.mtype = 5, .mmat_count = 0, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &empty_bone);
	ccsw_morpher(w, objectf(w, f, "MPH_xasc02"), id.mdl);
	end_data_scene(w);
	put_scene(ao, "xasc02.cmp", w, mtime);
}

/* The old versions: fields that come and go, mtype read & 0xff. */
static void sample_old(struct archive_out *ao, uint16_t version,
		       uint32_t mtime)
{
	char stem[16];
	snprintf(stem, sizeof stem, "xold%02x", version & 0xff);
	uint32_t f;
	struct ccsw *w = new_scene(stem, version, &f);
	struct kit k = { .stem = stem, .psm = version & 1 ? 0x13 : 0x14,
			 .tw = (uint8_t)(version == 0x95 ? 4 : 5),
			 .th = (uint8_t)(version == 0x95 ? 6 : 5),
			 .mip = (uint8_t)(version == 0x95 ? 2 : version & 1),
			 .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_GRADIENT, .mtype = 1, .mmats = 1,
			 .vertices = 9, .seed = version };
	struct kit_ids id = add_kit(w, f, &k);
	/* 0x601 and 0x401 below 0x100 are plain lit models (mtype & 0xff). */
	add_rigid_model(w, f, "MDL_high", version == 0x95 ? 0x401 : 0x601,
			id.mat, 8, version + 1u);
	if (version >= 0x96) {
		uint32_t shadow;
		add_shadow_model(w, f, "MDL_xold96_shadow", &shadow);
		uint32_t obj = objectf(w, f, "OBJ_xold96_cast");
		ccsw_obj(w, obj, id.obj, id.mdl, shadow);
	}
	end_data_scene(w);
	char *fname = xasprintf("%s.cmp", stem);
	put_scene(ao, fname, w, mtime);
	free(fname);
}

static void sample_chr000(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("chr000", 0x100, &f);
	struct kit k = { .stem = "chr000", .psm = 0x13, .tw = 6, .th = 6,
			 .mip = 2, .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_CHECKER, .mtype = 1, .mmats = 2,
			 .vertices = 16, .seed = 5 };
	struct kit_ids id = add_kit(w, f, &k);
	add_character(w, f, "chr000", id.mat);
	uint32_t shadow;
	add_shadow_model(w, f, "MDL_chr000_shadow", &shadow);
	ccsw_opaque(w, CCSW_SHADOW, shadow, 6, 50);
	end_data_scene(w);
	put_scene(ao, "chr000.cmp", w, mtime);
}

static void add_hits(struct ccsw *w, uint32_t file, uint32_t parent)
{
	struct ccsw_hit_group one = { .vertices = 6, .attribute = 1,
				      .seed = 60 };
	ccsw_hit(w, objectf(w, file, "HIT_floor"), parent, 1, &one);
	struct ccsw_hit_group three[3] = {
		{ .vertices = 3, .attribute = 0x10, .seed = 61 },
		{ .vertices = 0, .attribute = 0x20, .seed = 62 },
		{ .vertices = 27, .attribute = 0x8001, .seed = 63 },
	};
	ccsw_hit(w, objectf(w, file, "HIT_wall"), parent, 3, three);
	static const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	struct ccsw_hit_group given = { .vertices = 3, .attribute = 2,
					.pos = tri };
	ccsw_hit(w, objectf(w, file, "HIT_unit"), 0, 1, &given);
}

static void sample_fld000(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("fld000", 0x100, &f);
	struct kit k = { .stem = "fld000", .psm = 0x13, .tw = 7, .th = 6,
			 .mip = 0, .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_NOISY, .mtype = 0, .mmats = 4,
			 .vertices = 30, .seed = 6 };
	struct kit_ids id = add_kit(w, f, &k);
	add_hits(w, f, id.obj);
	for (int type = 1; type <= 4; type++)
		ccsw_light(w, objectf(w, f, "LGT_fld000_%d", type),
			   (int16_t)type);
	ccsw_camera(w, objectf(w, f, "CAM_fld000"));
	uint32_t layers[2] = { objectf(w, f, "LYR_sky"),
			       objectf(w, f, "LYR_shadow") };
	const uint8_t kinds[2] = { 0, 1 };
	ccsw_layer(w, 2, kinds, layers);
	ccsw_opaque(w, CCSW_EFF, objectf(w, f, "EFF_fld000"), 12, 70);
	ccsw_opaque(w, CCSW_PARTICLE, objectf(w, f, "OBJ_fld000_ptcl"), 5, 71);
	ccsw_opaque(w, CCSW_BLTGRP, objectf(w, f, "BLT_fld000"), 3, 72);
	end_data_scene(w);
	put_scene(ao, "fld000.cmp", w, mtime);
}

#define FBR_DRAW_AREA "FBR_\x95\x60\x89\xe6\x97\xcc\x88\xe6" /* FBR_描画領域 */
#define FBR_ZBUFFER "FBR_Z\x83\x6f\x83\x62\x83\x74\x83\x40"  /* FBR_Zバッファ */

/* FRAMEBUF.CCS's picture of the VRAM plan (doc/formats/ccsf.md, Small
 * chunks). */
static void sample_framebuf(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("framebuf", 0x100, &f);
	uint32_t draw = ccsw_object_str(w, FBR_DRAW_AREA, f);
	uint32_t z = ccsw_object_str(w, FBR_ZBUFFER, f);
	uint32_t page = ccsw_object_str(w, "PAG_framebuff", f);
	ccsw_fbrect(w, draw, 0, 0, 0, 1024, 512);
	ccsw_fbrect(w, z, 1, 0, 512, 512, 512);
	const struct ccsw_fb_page pages[6] = {
		{ 0, 0, 16, 16, 0x40 }, { 0, 16, 8, 16, 0x40 },
		{ 8, 16, 1, 2, 0x13 }, { 8, 24, 2, 4, 0x13 },
		{ 8, 30, 1, 1, 0 }, { 8, 31, 1, 1, 0 },
	};
	ccsw_fbpage(w, page, 6, pages);
	end_data_scene(w);
	put_scene(ao, "framebuf.cmp", w, mtime);
}

/* Names the tree must escape or tell apart (doc/formats/tree.md, Names). */
static void sample_names(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("names", 0x100, &f);
	static const struct { const char *bytes; size_t n; } names[] = {
		{ "OBJ_\x95\x5c\x8e\xa6", 8 },          /* OBJ_表示: 0x5c trail */
		{ "MDL_\x83\x5c\x81\x5b\x83\x68", 10 }, /* MDL_ソード */
		{ "DMY_\x95\xf3\x94\xa0", 8 },          /* DMY_宝箱 */
		{ "DMY_a/b", 7 },                       /* a slash */
		{ "DMY_twin", 8 },
		{ "DMY_twin", 8 },                      /* a repeat */
		{ "", 0 },                              /* empty */
		{ "DMY_exactly_thirty_bytes_long", 30 },/* no NUL in the file */
		{ "DMY_ctl\x01x", 9 },                  /* a control byte */
		{ "DMY_bad\xff\x80", 9 },               /* not Shift-JIS */
		{ "DMY_.", 5 },
		{ "..", 2 },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		uint32_t id = ccsw_object(w, (const uint8_t *)names[i].bytes,
					  names[i].n, f);
		const float pos[3] = { (float)i, 0, 0 };
		ccsw_dummypos(w, id, pos);
	}
	/* An object no chunk names: in scene.txt, no folder. */
	ccsw_object_str(w, "OBJ_unused", f);
	end_data_scene(w);
	put_scene(ao, "names.cmp", w, mtime);
}

/* A second xasc00.cmp (the tree shows it as xasc00~2), shaped like the
 * worked example: 256 x 256 at 4 bits, then 8 bits with three mip levels. */
static void sample_xasc00_again(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("xasc00", 0x100, &f);
	struct kit a = { .stem = "xasc00", .psm = 0x14, .tw = 8, .th = 8,
			 .tex_flag = 0, .clut_flag = 1,
			 .pattern = CCSW_PAT_GRADIENT, .mtype = 0, .mmats = 1,
			 .vertices = 6, .seed = 7 };
	struct kit b = { .stem = "xasc00b", .psm = 0x13, .tw = 7, .th = 7,
			 .mip = 3, .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_NOISY, .mtype = 1, .mmats = 2,
			 .vertices = 40, .seed = 8 };
	add_kit(w, f, &a);
	add_kit(w, f, &b);
	end_data_scene(w);
	put_scene(ao, "xasc00.cmp", w, mtime);
}

static void sample_snd000(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("snd000", 0x100, &f);
	uint32_t obj = objectf(w, f, "OBJ_snd000");
	ccsw_obj(w, obj, 0, 0, 0);
	ccsw_pcm(w, 0, 1, 0, 6, NULL, 0);
	end_data_scene(w);
	put_scene(ao, "snd000.cmp", w, mtime);
}

static void sample_empty(struct archive_out *ao, uint32_t mtime)
{
	struct ccsw *w = ccsw_new("empty", 0x100);
	ccsw_setup(w);
	end_data_scene(w);
	put_scene(ao, "empty.cmp", w, mtime);
}

/* A scene padded (with a Particle chunk) so that its stored (level 0)
 * member ends exactly on a sector boundary: its padding is a whole 2048
 * zero bytes.  Searched rather than computed, to assume nothing about how
 * zlib frames stored blocks. */
static struct ccsw *sector_end_scene(const char *stem, uint32_t pad_words)
{
	uint32_t f;
	struct ccsw *w = new_scene(stem, 0x100, &f);
	uint32_t d = objectf(w, f, "DMY_%s", stem);
	const float pos[3] = { 1, 2, 3 };
	ccsw_dummypos(w, d, pos);
	ccsw_opaque(w, CCSW_PARTICLE, objectf(w, f, "OBJ_%s_pad", stem),
		    pad_words, 9);
	end_data_scene(w);
	return w;
}

static void sample_sector_end(struct archive_out *ao, uint32_t mtime)
{
	static const char *const stems[] = { "secend", "secend0", "secend00",
					     "secend000" };
	for (size_t s = 0; s < 4; s++) {
		char *fname = xasprintf("%s.cmp", stems[s]);
		for (uint32_t words = 300; words < 1300; words++) {
			size_t len, mlen;
			uint8_t *data = finish_scene(
				sector_end_scene(stems[s], words), &len);
			struct gzw_opts o = { .level = 0, .mtime = mtime };
			uint8_t *m = gzw_member(fname, data, len, &o, &mlen);
			free(m);
			if (mlen % GZW_SECTOR == 0) {
				archive_put_level(ao, fname, data, len, mtime,
						  GZW_GOOD, "ok", 0);
				free(fname);
				return;
			}
			free(data);
		}
		free(fname);
	}
	die("no sector-exact member found");
}

static void sample_big(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("xbig00", 0x100, &f);
	for (uint32_t i = 0; i < 3; i++) {
		char stem[16];
		snprintf(stem, sizeof stem, "xbig00_%u", i);
		struct kit k = { .stem = stem, .psm = 0x13, .tw = 7, .th = 7,
				 .mip = 3, .tex_flag = 1, .clut_flag = 1,
				 .pattern = CCSW_PAT_NOISY, .mtype = 1,
				 .mmats = 4, .vertices = 300, .seed = 90 + i };
		add_kit(w, f, &k);
	}
	end_data_scene(w);
	put_scene(ao, "xbig00.cmp", w, mtime);
}

/* ---- a cutscene pair ---- */

struct cutscene {
	unsigned number;
	uint32_t frames;
	uint32_t seed;
	bool rich;              /* every frame kind, a common-file link */
};

/* strNNNNe: the setup file, models and textures. */
static struct ccsw *cutscene_setup(const struct cutscene *c)
{
	char stem[16], path[40];
	snprintf(stem, sizeof stem, "str%04ue", c->number);
	snprintf(path, sizeof path, " c:\\str\\str%04u.max", c->number);
	struct ccsw *w = ccsw_new(stem, 0x100);
	uint32_t f = ccsw_file(w, path);
	ccsw_setup(w);
	uint32_t base = 0;
	for (uint32_t i = 0; i < 3; i++) {
		char ks[24];
		snprintf(ks, sizeof ks, "s%04u_%u", c->number, i);
		struct kit k = { .stem = ks, .psm = i == 1 ? 0x14 : 0x13,
				 .tw = 6, .th = 6, .mip = (uint8_t)(i == 2 ? 2 : 0),
				 .tex_flag = 1, .clut_flag = 1,
				 .pattern = CCSW_PAT_NOISY, .mtype = 1,
				 .mmats = 2, .vertices = 24, .seed = c->seed + i };
		struct kit_ids id = add_kit(w, f, &k);
		if (i == 0)
			base = id.mdl;
	}
	uint32_t shadow;
	add_shadow_model(w, f, "MDL_shadow", &shadow);
	add_rigid_model(w, f, "MDL_tgtA", 0x600, 0, 24, c->seed + 10);
	add_rigid_model(w, f, "MDL_tgtB", 0x601, 0, 24, c->seed + 11);
	ccsw_morpher(w, objectf(w, f, "MPH_ribbon"), base);
	ccsw_camera(w, objectf(w, f, "CAM_main"));
	ccsw_light(w, objectf(w, f, "LGT_sun"), 1);
	ccsw_light(w, objectf(w, f, "LGT_omni"), 4);
	ccsw_frame(w, 1);
	ccsw_end(w);
	return w;
}

/* Frame records other than F_Obj and F_Pcm, spread over the scene. */
static void cutscene_extras(struct ccsw *w, uint32_t frame, uint32_t cam,
			    uint32_t mat, uint32_t mph, uint32_t tgt[2],
			    uint32_t shadow_obj, uint32_t note_obj)
{
	switch (frame % 10) {
	case 1:
		ccsw_f_ambient(w, 0x00404040u + frame);
		break;
	case 2: {
		const float v[8] = { 0, -100, 20, 90, 0, (float)frame, 0, 45 };
		ccsw_f_camera(w, cam, 0, v);
		break;
	}
	case 3:
		ccsw_f_camera(w, cam, 1, NULL);         /* nothing follows */
		break;
	case 4: {
		const float fov = 50.0f;        /* bits 1-7 set: fov only */
		ccsw_f_camera(w, cam, 0x0fe, &fov);
		break;
	}
	case 5:
		ccsw_f_material(w, mat, 0, (float)frame / 64.0f, 0.25f);
		ccsw_f_material(w, mat, 2, 0, 0);       /* no u, v */
		break;
	case 6: {
		const float wt[2] = { (float)(frame % 30) / 30.0f, 0.5f };
		ccsw_f_morpher(w, mph, 2, tgt, wt);
		break;
	}
	case 7:
		ccsw_f_shadow(w, shadow_obj, 30.0f, 0.0f, (float)frame, 0.5f);
		break;
	case 8:
		ccsw_f_note(w, note_obj, frame == 8 ? 0x8001 : 4, frame);
		break;
	}
}

/* strNNNN: object stubs marked '#' (defined in strNNNNe), a Layer, Pcm
 * audio and the frames. */
static struct ccsw *cutscene_scene(const struct cutscene *c)
{
	char stem[16], own[40], ext[40];
	snprintf(stem, sizeof stem, "str%04u", c->number);
	snprintf(own, sizeof own, " c:\\str\\str%04up.max", c->number);
	snprintf(ext, sizeof ext, "#c:\\str\\str%04u.max", c->number);
	struct ccsw *w = ccsw_new(stem, 0x100);
	ccsw_set_stream_tags(w, true);
	uint32_t fown = ccsw_file(w, own), fext = ccsw_file(w, ext);
	uint32_t objs[3];
	for (uint32_t i = 0; i < 3; i++)
		objs[i] = objectf(w, fext, "OBJ_s%04u_%u", c->number, i);
	uint32_t mdl = objectf(w, fext, "MDL_s%04u_0", c->number);
	(void)mdl;              /* '#', no chunk here: a link in the tree */
	uint32_t cam = objectf(w, fext, "CAM_main");
	uint32_t mat = objectf(w, fext, "MAT_s%04u_1", c->number);
	uint32_t mph = objectf(w, fext, "MPH_ribbon");
	uint32_t tgt[2] = { objectf(w, fext, "MDL_tgtA"),
			    objectf(w, fext, "MDL_tgtB") };
	uint32_t clump = objectf(w, fown, "CMP_str%04u", c->number);
	uint32_t layers[3] = { objectf(w, fown, "LYR_sky"),
			       objectf(w, fown, "LYR_main"),
			       objectf(w, fown, "LYR_shade") };
	if (c->rich)            /* in no file of the pair: the common files' */
		objectf(w, fext, "OBJ_cmn_kite");

	ccsw_setup(w);
	ccsw_clump(w, clump, 3, objs);
	const uint8_t kinds[3] = { 0, 0, 1 };
	ccsw_layer(w, 3, kinds, layers);
	for (uint32_t i = 0; i < 3; i++)
		ccsw_obj2(w, objs[i], i == 2 ? 3 : 0, i == 0 ? mph : 0,
			  layers[i % 2], i == 2 ? layers[2] : 0);
	ccsw_opaque(w, CCSW_SHADOW, layers[2], 4, c->seed + 20);

	struct rng r = { c->seed };
	uint32_t sample = 0, first = 8;
	ccsw_pcm(w, 0, 1, 0, first, NULL, sample);
	sample += first * 256;
	ccsw_frame(w, c->frames);
	for (uint32_t fr = 0; fr < c->frames; fr++) {
		ccsw_top(w, fr);
		for (uint32_t i = 0; i < 2; i++) {
			struct ccsw_f_obj fo = {
				.object = objs[i], .flag = 0,
				.pos = { (float)fr * (i ? -1.0f : 1.0f), 0, 10 },
				.rot = { 0, 0, (float)(fr * 3 % 360) },
				.scale = { 1, 1, 1 }, .tp = 1, .disp_sw = 1,
			};
			ccsw_f_obj(w, &fo);
		}
		uint16_t blocks = (uint16_t)rng_range(&r, 2, 7);
		ccsw_f_pcm(w, 0, blocks, NULL, sample);
		sample += blocks * 256u;
		if (c->rich)
			cutscene_extras(w, fr, cam, mat, mph, tgt, objs[2],
					objs[0]);
	}
	ccsw_end(w);
	return w;
}

static void put_cutscene(struct archive_out *ao, const struct cutscene *c,
			 struct rng *r)
{
	char name[24];
	snprintf(name, sizeof name, "str%04ue.tmp", c->number);
	put_scene(ao, name, cutscene_setup(c), rng_mtime(r));
	snprintf(name, sizeof name, "str%04u.tmp", c->number);
	put_scene(ao, name, cutscene_scene(c), rng_mtime(r));
}

/* ---- files that are not archives ---- */

static void write_plain_files(const char *dir, size_t outside_bytes)
{
	char *p = xasprintf("%s/SYSTEM.CNF", dir);
	static const char cnf[] = "BOOT2 = cdrom0:\\SLUS_202.67;1\r\n"
				  "VER = 1.00\r\nVMODE = NTSC\r\n";
	write_file(p, cnf, sizeof cnf - 1);
	free(p);

	/* An ELF-looking executable: must not look like a gzip member. */
	enum { EXE = 6144 };
	uint8_t *exe = calloc(1, EXE);
	if (!exe)
		die("out of memory");
	memcpy(exe, "\x7f" "ELF\x01\x01\x01", 7);
	struct rng r = { 0x51u };
	for (size_t i = 64; i < EXE; i++)
		exe[i] = (uint8_t)rng_next(&r);
	p = xasprintf("%s/SLUS_202.67", dir);
	write_file(p, exe, EXE);
	free(p);

	/* Sound data: a header that is not gzip, then noise. */
	memcpy(exe, "IECSsreV", 8);
	p = xasprintf("%s/DATA/SNDDATA.BIN", dir);
	write_file(p, exe, 4096);
	free(p);
	free(exe);

	uint8_t *zeros = calloc(1, outside_bytes);
	if (!zeros)
		die("out of memory");
	p = xasprintf("%s/OUTSIDE.BIN", dir);
	write_file(p, zeros, outside_bytes);
	free(p);
	free(zeros);
}

static void make_disc_dirs(const char *dir)
{
	char *p = xasprintf("%s/DATA", dir);
	make_dirs(p);
	free(p);
	p = xasprintf("%s/STREAM", dir);
	make_dirs(p);
	free(p);
}

/* ---- commands ---- */

/* ---- DBnnMOD.BIN model databases ---- */

/* Writes a database dbw made (NULL: out of memory) and frees it. */
static void write_db(const char *dir, const char *name,
		     uint8_t *(*make)(size_t *len))
{
	size_t len;
	uint8_t *p = make(&len);
	if (!p)
		die("out of memory");
	char *path = xasprintf("%s/%s", dir, name);
	write_file(path, p, len);
	free(path);
	free(p);
}

static uint8_t *db_from_model(size_t *len)
{
	return dbw_every_kind(DBW_FROM_MODEL, len);
}

static uint8_t *db_from_table_end(size_t *len)
{
	return dbw_every_kind(DBW_FROM_TABLE_END, len);
}

/* DB22: every face kind; DB23: the same, its _at fields counted from the
 * table's end; DB24: broken models among good ones; DB25: GT faces whose
 * colours exceed the colour count; DB08: named like a database, no magic
 * (as on the disc). */
static int cmd_dbmod(const char *dir)
{
	make_dirs(dir);
	write_db(dir, "DB22MOD.BIN", db_from_model);
	write_db(dir, "DB23MOD.BIN", db_from_table_end);
	write_db(dir, "DB24MOD.BIN", dbw_broken);
	write_db(dir, "DB25MOD.BIN", dbw_textured_gouraud);
	write_db(dir, "DB08MOD.BIN", dbw_no_magic);
	return 0;
}

static void sample_dbmod(const char *dir)
{
	char *data = xasprintf("%s/DATA", dir);
	write_db(data, "DB22MOD.BIN", db_from_model);
	write_db(data, "DB08MOD.BIN", dbw_no_magic);
	free(data);
}

static int cmd_sample(const char *dir, const char *raw)
{
	make_disc_dirs(dir);
	write_plain_files(dir, 64 * 1024);
	sample_dbmod(dir);
	struct rng r = { 0x5a3d1e };
	struct archive_out ao;

	char *path = xasprintf("%s/DATA/DATA.BIN", dir);
	archive_open(&ao, path, raw, 6);
	sample_xasc00(&ao, rng_mtime(&r));
	sample_xasc01(&ao, rng_mtime(&r));
	sample_xasc02(&ao, rng_mtime(&r));
	const uint16_t old[] = { 0x90, 0x92, 0x95, 0x96 };
	for (size_t i = 0; i < 4; i++)
		sample_old(&ao, old[i], rng_mtime(&r));
	sample_chr000(&ao, rng_mtime(&r));
	sample_fld000(&ao, rng_mtime(&r));
	sample_framebuf(&ao, rng_mtime(&r));
	sample_names(&ao, rng_mtime(&r));
	sample_xasc00_again(&ao, rng_mtime(&r));
	sample_snd000(&ao, rng_mtime(&r));
	sample_empty(&ao, rng_mtime(&r));
	sample_sector_end(&ao, rng_mtime(&r));
	sample_big(&ao, rng_mtime(&r));
	archive_close(&ao);
	free(path);

	path = xasprintf("%s/STREAM/STR1.BIN", dir);
	archive_open(&ao, path, raw, 6);
	struct cutscene c = { .number = 1, .frames = 60, .seed = 100,
			      .rich = true };
	put_cutscene(&ao, &c, &r);
	archive_close(&ao);
	free(path);
	return 0;
}

/* broken: a small good scene, and variations that break it. */
static struct ccsw *broken_base(const char *stem, uint32_t seed)
{
	uint32_t f;
	struct ccsw *w = new_scene(stem, 0x100, &f);
	struct kit k = { .stem = stem, .psm = 0x13, .tw = 5, .th = 5,
			 .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_GRADIENT, .mtype = 1, .mmats = 1,
			 .vertices = 10, .seed = seed };
	add_kit(w, f, &k);
	return w;
}

/* A texture chunk written by hand (version 0x100 layout), so its fields
 * can break the texture rules while its length stays walkable. */
static void raw_texture(struct ccsw *w, uint32_t tex, uint32_t clut,
			uint8_t psm, uint8_t tw, uint8_t th, uint32_t words,
			uint8_t fill)
{
	size_t len = 20 + 8 + 4 * (size_t)words;
	uint8_t *p = calloc(1, len);
	uint32_t head[3] = { tex, clut, 0 };
	memcpy(p, head, sizeof head);
	p[12] = 1;              /* flag */
	p[13] = psm;
	p[14] = 0;              /* mipmap */
	p[15] = 0x70;           /* aref */
	p[16] = tw;
	p[17] = th;
	p[20] = 0;              /* buf_x 768 */
	p[21] = 3;
	memcpy(p + 24, &words, 4);
	memset(p + 28, fill, 4 * (size_t)words);
	ccsw_chunk(w, CCSW_TEXTURE, CCSW_TAG, p, len, CCSW_SIZE_AUTO);
	free(p);
}

/* Textures and palettes that walk but cannot be made into PNG files. */
static void add_bad_textures(struct ccsw *w, uint32_t f)
{
	uint32_t clut16 = objectf(w, f, "CLT_small");
	struct ccsw_clut c = { .object = clut16, .count = 16, .flag = 1 };
	ccsw_clut(w, &c);
	uint32_t odd = objectf(w, f, "CLT_odd");
	uint32_t colours[17] = { 0 };
	struct ccsw_clut co = { .object = odd, .count = 17, .colours = colours };
	ccsw_clut(w, &co);
	raw_texture(w, objectf(w, f, "TEX_psm"), clut16, 0x00, 4, 4, 64, 1);
	raw_texture(w, objectf(w, f, "TEX_huge"), clut16, 0x13, 11, 2, 64, 1);
	raw_texture(w, objectf(w, f, "TEX_short"), clut16, 0x13, 4, 4, 8, 1);
	uint32_t self = objectf(w, f, "TEX_noclut");
	raw_texture(w, self, self, 0x13, 2, 2, 4, 1);
	raw_texture(w, objectf(w, f, "TEX_range"), clut16, 0x13, 2, 2, 4, 200);
	raw_texture(w, objectf(w, f, "TEX_oddclut"), odd, 0x13, 2, 2, 4, 1);
}

/* TEX_2p20: tw = th = 20 (2^20 x 2^20 pixels, 1 TiB of indices if
 * believed), with 64 words of pixels so that it walks. */
static void add_huge_texture(struct ccsw *w, uint32_t f)
{
	uint32_t clut = objectf(w, f, "CLT_2p20");
	struct ccsw_clut c = { .object = clut, .count = 16, .flag = 1 };
	ccsw_clut(w, &c);
	raw_texture(w, objectf(w, f, "TEX_2p20"), clut, 0x13, 20, 20, 64, 1);
}

/* MDL_2p31: one rigid mmat (mtype 1) whose vertex count is 2^31, followed
 * by 10 vertices' worth of bytes.  Written by hand: ccsw_model writes the
 * vertices it is given. */
static void add_huge_model(struct ccsw *w, uint32_t f)
{
	uint32_t model = objectf(w, f, "MDL_2p31");
	uint32_t name = objectf(w, f, "MDL_2p31_0");
	size_t len = 20 + 12 + 10 * (8 + 12);
	uint8_t *p = calloc(1, len);
	const float scale = 1.0f;
	memcpy(p, &model, 4);
	memcpy(p + 4, &scale, 4);
	const uint16_t mtype = 1, mmats = 1;
	memcpy(p + 8, &mtype, 2);
	memcpy(p + 10, &mmats, 2);
	const uint32_t n = 0x80000000u;
	memcpy(p + 20, &name, 4);
	memcpy(p + 28, &n, 4);
	ccsw_chunk(w, CCSW_MODEL, CCSW_TAG, p, len, CCSW_SIZE_AUTO);
	free(p);
}

static int cmd_broken(const char *file, const char *raw)
{
	struct rng r = { 0xb40ce };
	struct archive_out ao;
	archive_open(&ao, file, raw, 6);
	ao.print = true;
	size_t len;
	uint8_t *p;
	struct ccsw *w;

	w = broken_base("good1", 1);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "good1.cmp", p, len, rng_mtime(&r), GZW_GOOD, "ok");

	w = broken_base("badcrc", 2);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "badcrc.cmp", p, len, rng_mtime(&r), GZW_BAD_CRC,
		    "CRC32 field wrong (one bit flipped)");

	/* Noisy and large, so the cut leaves several sectors behind it. */
	uint32_t f;
	w = new_scene("cut", 0x100, &f);
	struct kit big = { .stem = "cut", .psm = 0x13, .tw = 7, .th = 7,
			   .mip = 3, .tex_flag = 1, .clut_flag = 1,
			   .pattern = CCSW_PAT_NOISY, .mtype = 1, .mmats = 2,
			   .vertices = 200, .seed = 3 };
	add_kit(w, f, &big);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "cut.cmp", p, len, rng_mtime(&r), GZW_CUT,
		    "deflate data cut in half, no CRC/ISIZE, zero padding");

	w = broken_base("unkkind", 4);
	static const uint32_t junk[4] = { 1, 2, 3, 4 };
	ccsw_chunk(w, 0x7f00, CCSW_TAG, junk, sizeof junk, CCSW_SIZE_AUTO);
	ccsw_camera(w, objectf(w, 1, "CAM_after"));
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "unkkind.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "chunk of unknown kind 0x7f00 mid-file");

	w = new_scene("liar", 0x100, &f);
	uint32_t clut = objectf(w, f, "CLT_liar"), tex = objectf(w, f, "TEX_liar");
	struct ccsw_clut c = { .object = clut, .count = 16, .flag = 1 };
	ccsw_clut(w, &c);
	struct ccsw_texture t = { .object = tex, .clut = clut, .psm = 0x14,
				  .tw = 4, .th = 4, .size_field = CCSW_SIZE_AUTO,
				  .count_lie = 0x10000000u };
	ccsw_texture(w, &t);
	ccsw_index_lie(w, 2, 0x7fffffffu);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "liar.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "index object_count 0x7fffffff; texture count 0x10000000 "
		    "words past the end");

	w = broken_base("pastend", 5);
	static const uint32_t obj[3] = { 1, 0, 0 };
	ccsw_chunk(w, CCSW_OBJ, CCSW_TAG, obj, sizeof obj, 0x4000);
	p = finish_scene(w, &len);
	archive_put(&ao, "pastend.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "last chunk's size field 0x4000 words runs past the end");

	w = broken_base("trailer", 6);
	end_data_scene(w);
	static const uint8_t tail[6] = { 0xcd, 0xcd, 0xcd, 0xcd, 0, 0 };
	ccsw_trailer(w, tail, sizeof tail);
	p = finish_scene(w, &len);
	archive_put(&ao, "trailer.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "6 bytes after the end Top");

	w = broken_base("noname", 7);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "", p, len, rng_mtime(&r), GZW_GOOD,
		    "empty FNAME (valid gzip)");

	/* The texture's lie alone: in "liar" the index stops the walk first. */
	w = new_scene("texliar", 0x100, &f);
	clut = objectf(w, f, "CLT_texliar");
	tex = objectf(w, f, "TEX_texliar");
	c.object = clut;
	ccsw_clut(w, &c);
	t.object = tex;
	t.clut = clut;
	ccsw_texture(w, &t);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "texliar.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "texture count 0x10000000 words past the end");

	w = broken_base("badsize", 9);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "badsize.cmp", p, len, rng_mtime(&r), GZW_BAD_ISIZE,
		    "ISIZE one more than the inflated length");

	w = new_scene("badtex", 0x100, &f);
	add_bad_textures(w, f);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "badtex.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "textures whose fields or palettes are wrong (they walk)");

	w = broken_base("good2", 8);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "good2.cmp", p, len, rng_mtime(&r), GZW_GOOD, "ok");

	/* Claims that would take gigabytes if believed (limits.sh): after
	 * the others, so their offsets and sector names stay as they were. */
	w = broken_base("isize4g", 10);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "isize4g.cmp", p, len, rng_mtime(&r), GZW_HUGE_ISIZE,
		    "ISIZE 0xffffffff: claims 4 GiB");

	w = broken_base("tex2p20", 11);
	add_huge_texture(w, 1);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "tex2p20.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "texture of 2^20 x 2^20 (tw = th = 20), 256 bytes of pixels");

	w = broken_base("mdl2p31", 12);
	add_huge_model(w, 1);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "mdl2p31.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "model whose mmat claims 2^31 vertices");

	w = broken_base("idx2p31", 13);
	ccsw_index_lie(w, 2, 0x80000000u);
	end_data_scene(w);
	p = finish_scene(w, &len);
	archive_put(&ao, "idx2p31.cmp", p, len, rng_mtime(&r), GZW_GOOD,
		    "index object_count 2^31");
	archive_close(&ao);
	return 0;
}

/* ---- the full-size disc ---- */

static const char *const full_prefixes[] = {
	"xasc", "chr", "fld", "dng", "twn", "evt", "eff", "mon", "itm",
	"wpn", "bg", "obj", "npc", "cmn", "sky", "map",
};

/* A scene of varied size: textures dominate, as on the real disc.  The
 * sizes are tuned so members average ~330 KB inflated at ~2.5:1. */
static struct ccsw *full_scene(const char *stem, struct rng *r)
{
	uint32_t f;
	uint32_t pick = rng_next(r) % 100;
	uint16_t version = pick < 2 ? 0x90 + (uint16_t)(pick * 6) : 0x100;
	struct ccsw *w = new_scene(stem, version, &f);
	uint32_t kits = rng_range(r, 1, 9);
	for (uint32_t i = 0; i < kits; i++) {
		char ks[48];
		snprintf(ks, sizeof ks, "%s_%u", stem, i);
		bool eight = rng_next(r) % 16 != 0;
		uint8_t tw = (uint8_t)rng_range(r, 6, 8), th = (uint8_t)rng_range(r, 6, 8);
		struct kit k = {
			.stem = ks, .psm = eight ? 0x13 : 0x14, .tw = tw, .th = th,
			.mip = (uint8_t)(rng_next(r) % 2 ? 0 : rng_range(r, 2, 3)),
			.tex_flag = 1, .clut_flag = 1,
			.pattern = rng_next(r) % 4 ? CCSW_PAT_NOISY
						   : CCSW_PAT_CHECKER,
			.mtype = rng_next(r) % 3 ? 1 : 0,
			.mmats = (uint16_t)rng_range(r, 1, 6),
			.vertices = rng_range(r, 20, 1200),
			.seed = rng_next(r),
		};
		add_kit(w, f, &k);
	}
	if (rng_next(r) % 4 == 0)
		add_character(w, f, stem, 0);
	if (rng_next(r) % 3 == 0)
		add_hits(w, f, 0);
	end_data_scene(w);
	return w;
}

static int cmd_full(const char *dir, unsigned members, int level)
{
	double t0 = seconds_now();
	make_disc_dirs(dir);
	write_plain_files(dir, 1024 * 1024);
	struct rng r = { 0xf011 };
	struct archive_out ao;
	char *path = xasprintf("%s/DATA/DATA.BIN", dir);
	archive_open(&ao, path, NULL, level);
	const size_t np = sizeof full_prefixes / sizeof full_prefixes[0];
	for (unsigned i = 0; i < members; i++) {
		char stem[24], fname[32];
		snprintf(stem, sizeof stem, "%s%03u", full_prefixes[i % np],
			 i / (unsigned)np);
		snprintf(fname, sizeof fname, "%s.cmp", stem);
		put_scene(&ao, fname, full_scene(stem, &r), rng_mtime(&r));
	}
	uint64_t data_inflated = ao.inflated;
	uint64_t data_size = archive_close(&ao);
	unsigned data_members = members;
	free(path);

	path = xasprintf("%s/STREAM/STR1.BIN", dir);
	archive_open(&ao, path, NULL, level);
	for (unsigned i = 0; i < 3; i++) {
		struct cutscene c = { .number = 1 + i, .frames = 300 + 100 * i,
				      .seed = 1000 + i, .rich = i == 0 };
		put_cutscene(&ao, &c, &r);
	}
	uint64_t str_inflated = ao.inflated;
	uint64_t str_size = archive_close(&ao);
	free(path);

	printf("DATA/DATA.BIN     %u members, %llu bytes compressed "
	       "(archive), %llu inflated\n", data_members,
	       (unsigned long long)data_size,
	       (unsigned long long)data_inflated);
	printf("STREAM/STR1.BIN   6 members, %llu bytes compressed "
	       "(archive), %llu inflated\n", (unsigned long long)str_size,
	       (unsigned long long)str_inflated);
	printf("total             %u members, %llu compressed, %llu inflated, "
	       "%.1f s\n", data_members + 6,
	       (unsigned long long)(data_size + str_size),
	       (unsigned long long)(data_inflated + str_inflated),
	       seconds_now() - t0);
	return 0;
}

/* One file with every kind, setup and frame sections both. */
static int cmd_ccs(const char *out, uint16_t version)
{
	uint32_t f;
	struct ccsw *w = new_scene("every", version, &f);
	struct kit k = { .stem = "every", .psm = 0x13, .tw = 5, .th = 4,
			 .mip = 2, .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_GRADIENT, .mtype = 1, .mmats = 2,
			 .vertices = 10, .seed = 9 };
	struct kit_ids id = add_kit(w, f, &k);
	struct kit k4 = { .stem = "every4", .psm = 0x14, .tw = 4, .th = 4,
			  .tex_flag = 1, .clut_flag = 1,
			  .pattern = CCSW_PAT_CHECKER, .mtype = 0x641,
			  .mmats = 1, .vertices = 8, .seed = 10 };
	add_kit(w, f, &k4);
	add_character(w, f, "every", id.mat);
	uint32_t shadow;
	add_shadow_model(w, f, "MDL_every_shadow", &shadow);
	add_hits(w, f, id.obj);
	uint32_t cam = objectf(w, f, "CAM_every");
	ccsw_camera(w, cam);
	ccsw_light(w, objectf(w, f, "LGT_every"), 3);
	uint32_t layer = objectf(w, f, "LYR_every");
	const uint8_t kind = 1;
	ccsw_layer(w, 1, &kind, &layer);
	ccsw_opaque(w, CCSW_SHADOW, layer, 4, 1);
	ccsw_opaque(w, CCSW_PARTICLE, objectf(w, f, "OBJ_every_ptcl"), 4, 2);
	ccsw_opaque(w, CCSW_EFF, objectf(w, f, "EFF_every"), 10, 3);
	ccsw_opaque(w, CCSW_BLTGRP, objectf(w, f, "BLT_every"), 2, 4);
	uint32_t tgt[2] = {
		add_rigid_model(w, f, "MDL_every_t0", 0x600, id.mat, 10, 5),
		add_rigid_model(w, f, "MDL_every_t1", 0x601, id.mat, 10, 6),
	};
	uint32_t mph = objectf(w, f, "MPH_every");
	ccsw_morpher(w, mph, id.mdl);
	ccsw_fbrect(w, ccsw_object_str(w, FBR_DRAW_AREA, f), 0, 0, 0, 1024, 512);
	const struct ccsw_fb_page pg = { 8, 30, 1, 1, 0 };
	ccsw_fbpage(w, objectf(w, f, "PAG_every"), 1, &pg);
	ccsw_pcm(w, 0, 1, 0, 2, NULL, 0);
	ccsw_frame(w, 10);
	uint32_t sample = 512;
	for (uint32_t fr = 0; fr < 10; fr++) {
		ccsw_top(w, fr);
		struct ccsw_f_obj fo = { .object = id.obj, .pos = { (float)fr, 0, 0 },
					 .scale = { 1, 1, 1 }, .tp = 1,
					 .disp_sw = 1 };
		ccsw_f_obj(w, &fo);
		ccsw_f_pcm(w, 0, 2, NULL, sample);
		sample += 512;
		cutscene_extras(w, fr, cam, id.mat, mph, tgt, id.obj, id.obj);
	}
	ccsw_end(w);
	size_t len;
	uint8_t *p = finish_scene(w, &len);
	write_file(out, p, len);
	free(p);
	return 0;
}

/* ---- command line ---- */

static void usage(FILE *to)
{
	fputs("usage:\n"
	      "  ccsgen sample DIR [--raw RAWDIR]\n"
	      "      a small disc: SYSTEM.CNF, SLUS_202.67, OUTSIDE.BIN,\n"
	      "      DATA/DATA.BIN (every kind and version), DATA/SNDDATA.BIN,\n"
	      "      STREAM/STR1.BIN (a cutscene pair with audio)\n"
	      "  ccsgen broken FILE [--raw RAWDIR]\n"
	      "      one archive of broken members; prints what each is\n"
	      "  ccsgen full DIR [--members N] [--level L]\n"
	      "      the benchmark disc (default 1000 members, level 1)\n"
	      "  ccsgen ccs OUT [--version V]\n"
	      "      one uncompressed CCSF file with every kind (V: 0x100)\n"
	      "  ccsgen dbmod DIR\n"
	      "      DB22MOD.BIN (every face kind), DB23MOD.BIN (offsets from\n"
	      "      the table's end), DB24MOD.BIN (broken models), DB25MOD.BIN\n"
	      "      (GT faces with colours past the count), DB08MOD.BIN\n"
	      "      (no magic)\n"
	      "--raw also writes each member's inflated bytes to\n"
	      "RAWDIR/<archive>/<member folder name>.ccs\n", to);
}

static unsigned long parse_number(const char *s, const char *what,
				  unsigned long max)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v > max)
		die("bad %s '%s'", what, s);
	return v;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		usage(argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr);
		return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
	}
	const char *cmd = argv[1], *target = argv[2];
	const char *raw = NULL;
	unsigned long members = 1000, level = 1, version = 0x100;
	for (int i = 3; i < argc; i++) {
		const char *opt = argv[i];
		if (i + 1 >= argc)
			die("option %s needs a value", opt);
		const char *val = argv[++i];
		if (!strcmp(opt, "--raw"))
			raw = val;
		else if (!strcmp(opt, "--members"))
			members = parse_number(val, "member count", 100000);
		else if (!strcmp(opt, "--level"))
			level = parse_number(val, "level", 9);
		else if (!strcmp(opt, "--version"))
			version = parse_number(val, "version", 0xffff);
		else
			die("unknown option %s (see ccsgen --help)", opt);
	}
	if (!strcmp(cmd, "sample"))
		return cmd_sample(target, raw);
	if (!strcmp(cmd, "broken"))
		return cmd_broken(target, raw);
	if (!strcmp(cmd, "full"))
		return cmd_full(target, (unsigned)members, (int)level);
	if (!strcmp(cmd, "ccs"))
		return cmd_ccs(target, (uint16_t)version);
	if (!strcmp(cmd, "dbmod"))
		return cmd_dbmod(target);
	usage(stderr);
	return 2;
}
