/* SPDX-License-Identifier: MIT */
/* gen_sample.c - `ccsgen sample`: the small disc that covers
 * every case, its DATA.BIN members, plain files and databases. */
#include "gen.h"

/* ---- the sample DATA.BIN ---- */

void sample_xasc00(struct archive_out *ao, uint32_t mtime)
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
void sample_xasc01(struct archive_out *ao, uint32_t mtime)
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

/* A morph target of a kit's one-mmat model: the base's own seed (124 in
 * xasc02) at another scale, or another seed and strip length: another
 * shape. */
uint32_t add_target(struct ccsw *w, uint32_t f, const char *stem,
			   uint16_t mtype, uint32_t mat, uint32_t vertices,
			   uint32_t seed, uint32_t strip, float scale)
{
	struct ccsw_mmat mm = { .material = mat, .vertices = vertices,
				.strip = strip, .seed = seed };
	uint32_t model = objectf(w, f, "%s", stem);
	mm.name = objectf(w, f, "%s_0", stem);
	struct ccsw_model m = {
		.object = model, .vertex_scale = scale, .mtype = mtype,
		.mmat_count = 1, .mmats = &mm, .size_field = CCSW_SIZE_AUTO,
	};
	ccsw_model(w, &m);
	return model;
}

/* ANM_xasc02: F_Morpher records of MPH_xasc02 at frames 0, 5 .. 25, each
 * holding until the next. */
static void xasc02_anime(struct ccsw *w, uint32_t f, uint32_t mph,
			 const uint32_t tgt[2])
{
	static const struct { uint32_t frame; uint16_t n; uint8_t t[3];
			      float wt[3]; } keys[] = {
		{ 0, 2, { 0, 1 }, { 0, 0 } },
		{ 5, 1, { 0 }, { 0.5f } },
		{ 10, 1, { 0 }, { 1 } },
		{ 15, 1, { 1 }, { 1 } },
		{ 20, 2, { 0, 1 }, { 0.5f, 0.5f } },
		{ 25, 1, { 1 }, { 0.25f } },
	};
	enum { N = sizeof keys / sizeof keys[0] };
	struct ccsw_frame_rec r[N];
	memset(r, 0, sizeof r);
	for (size_t i = 0; i < N; i++) {
		r[i].frame = keys[i].frame;
		r[i].kind = CCSW_F_MORPHER;
		r[i].object = mph;
		r[i].target_count = keys[i].n;
		for (uint16_t k = 0; k < keys[i].n; k++) {
			r[i].targets[k] = tgt[keys[i].t[k]];
			r[i].values[k] = keys[i].wt[k];
		}
	}
	struct ccsw_anime_desc a = { .object = objectf(w, f, "ANM_xasc02"),
				     .frames = 30, .rec_count = N, .recs = r };
	ccsw_anime_write(w, &a);
}

/* Every rigid layout flag, the morph targets and a model without mmats. */
void sample_xasc02(struct archive_out *ao, uint32_t mtime)
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
	/* The kit's mmat has seed 4 * 31 and strips of 6: tgt0 is the base
	 * at twice its size, tgt1 another shape of as many vertices. */
	uint32_t tgt[2] = {
		add_target(w, f, "MDL_tgt0", 0x600, id.mat, 12, 124, 0, 2.0f),
		add_target(w, f, "MDL_tgt1", 0x601, id.mat, 12, 125, 4, 1.0f),
	};
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
	uint32_t mph = objectf(w, f, "MPH_xasc02");
	ccsw_morpher(w, mph, id.mdl);
	xasc02_anime(w, f, mph, tgt);
	end_data_scene(w);
	put_scene(ao, "xasc02.cmp", w, mtime);
}

/* The old versions: fields that come and go, mtype read & 0xff. */
void sample_old(struct archive_out *ao, uint16_t version,
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

void sample_chr000(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("chr000", 0x100, &f);
	struct kit k = { .stem = "chr000", .psm = 0x13, .tw = 6, .th = 6,
			 .mip = 2, .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_CHECKER, .mtype = 1, .mmats = 2,
			 .vertices = 16, .seed = 5 };
	struct kit_ids id = add_kit(w, f, &k);
	add_character_morphed(w, f, "chr000", id.mat, true);
	uint32_t shadow;
	add_shadow_model(w, f, "MDL_chr000_shadow", &shadow);
	ccsw_opaque(w, CCSW_SHADOW, shadow, 6, 50);
	end_data_scene(w);
	put_scene(ao, "chr000.cmp", w, mtime);
}

void add_hits(struct ccsw *w, uint32_t file, uint32_t parent)
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

void sample_fld000(struct archive_out *ao, uint32_t mtime)
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


/* FRAMEBUF.CCS's picture of the VRAM plan (doc/formats/ccsf.md, Small
 * chunks). */
void sample_framebuf(struct archive_out *ao, uint32_t mtime)
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
void sample_names(struct archive_out *ao, uint32_t mtime)
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
void sample_xasc00_again(struct archive_out *ao, uint32_t mtime)
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

void sample_snd000(struct archive_out *ao, uint32_t mtime)
{
	uint32_t f;
	struct ccsw *w = new_scene("snd000", 0x100, &f);
	uint32_t obj = objectf(w, f, "OBJ_snd000");
	ccsw_obj(w, obj, 0, 0, 0);
	ccsw_pcm(w, 0, 1, 0, 6, NULL, 0);
	end_data_scene(w);
	put_scene(ao, "snd000.cmp", w, mtime);
}

void sample_empty(struct archive_out *ao, uint32_t mtime)
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

void sample_sector_end(struct archive_out *ao, uint32_t mtime)
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

void sample_big(struct archive_out *ao, uint32_t mtime)
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

/* ---- files that are not archives ---- */

void write_plain_files(const char *dir, size_t outside_bytes)
{
	char *p = xasprintf("%s/SYSTEM.CNF", dir);
	static const char cnf[] = "BOOT2 = cdrom0:\\SLUS_202.67;1\r\n"
				  "VER = 1.00\r\nVMODE = NTSC\r\n";
	write_file(p, cnf, sizeof cnf - 1);
	free(p);

	/* The executable comes after DATA.BIN, whose index it holds
	 * (write_exes). */
	/* Sound data: a header that is not gzip, then noise. */
	uint8_t *snd = calloc(1, 4096);
	if (!snd)
		die("out of memory");
	struct rng r = { 0x51u };
	for (size_t i = 64; i < 4096; i++)
		snd[i] = (uint8_t)rng_next(&r);
	memcpy(snd, "IECSsreV", 8);
	p = xasprintf("%s/DATA/SNDDATA.BIN", dir);
	write_file(p, snd, 4096);
	free(p);
	free(snd);

	uint8_t *zeros = calloc(1, outside_bytes);
	if (!zeros)
		die("out of memory");
	p = xasprintf("%s/OUTSIDE.BIN", dir);
	write_file(p, zeros, outside_bytes);
	free(p);
	free(zeros);
}

void make_disc_dirs(const char *dir)
{
	char *p = xasprintf("%s/DATA", dir);
	make_dirs(p);
	free(p);
	p = xasprintf("%s/STREAM", dir);
	make_dirs(p);
	free(p);
}

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
int cmd_dbmod(const char *dir)
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

int cmd_sample(const char *dir, const char *raw, const char *exes)
{
	make_disc_dirs(dir);
	write_plain_files(dir, 64 * 1024);
	sample_dbmod(dir);
	struct rng r = { 0x5a3d1e };
	struct archive_out ao;

	struct exe_index index = { 0 };
	char *path = xasprintf("%s/DATA/DATA.BIN", dir);
	archive_open(&ao, path, raw, 6);
	ao.index = &index;
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
	/* Last, with an mtime of its own, so that the members before it and
	 * the stream's draws from r stay as they were. */
	sample_pc000(&ao, 1000000000u);
	archive_close(&ao);
	free(path);

	struct exe_index streams = { 0 };
	path = xasprintf("%s/STREAM/STR1.BIN", dir);
	archive_open(&ao, path, raw, 6);
	ao.index = &streams;
	struct cutscene c = { .number = 1, .frames = 60, .seed = 100,
			      .rich = true };
	put_cutscene(&ao, &c, &r);
	/* Last, so the pair's members keep their places. */
	put_common_setup(&ao, rng_mtime(&r));
	/* After it, so that nothing before moves: str0002, laid out as the
	 * game's cutscenes are. */
	struct cutscene g = { .number = 2, .frames = 60, .seed = 200 };
	put_cutscene_game(&ao, &g, &r);
	archive_close(&ao);
	free(path);
	/* The executable holds both archives' tables. */
	write_exes(dir, exes, &index, &streams);
	return 0;
}

/* broken: a small good scene, and variations that break it. */
