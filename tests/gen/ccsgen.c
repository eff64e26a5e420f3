/* SPDX-License-Identifier: MIT */
/* ccsgen - makes synthetic .hack//-style discs, archives and CCSF files.
 *
 *   ccsgen sample DIR [--raw RAWDIR] [--exes EXEDIR]
 *                                        a small disc covering every case
 *   ccsgen broken FILE [--raw RAWDIR]    an archive of broken members
 *   ccsgen full DIR [--shape real|small] [--members N] [--level L]
 *                   [--exes EXEDIR] [--cutscene-frames F]
 *                                        the benchmark-sized disc
 *   ccsgen ccs OUT [--version V]         one CCSF file with every kind
 *   ccsgen dbmod DIR                     DBnnMOD.BIN model databases
 *
 * Output is deterministic: every choice comes from fixed seeds, so the
 * same command writes the same bytes on every run and machine.
 */
#include "gen_shape.h"
#include "gen_text.h"

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

/* DATA.BIN's members: the real shape's plan (gen_plan.c), the first
 * `members` of it when given; or the small shape, `members` (1000)
 * scenes of kits.  Returns how many were written. */
static unsigned put_data_members(struct archive_out *ao, bool real,
				 unsigned members, struct rng *r)
{
	if (!real) {
		const size_t np = sizeof full_prefixes / sizeof full_prefixes[0];
		if (!members)
			members = 1000;
		for (unsigned i = 0; i < members; i++) {
			char stem[24], fname[32];
			snprintf(stem, sizeof stem, "%s%03u",
				 full_prefixes[i % np], i / (unsigned)np);
			snprintf(fname, sizeof fname, "%s.cmp", stem);
			put_scene(ao, fname, full_scene(stem, r), rng_mtime(r));
		}
		return members;
	}
	struct disc_plan plan;
	plan_disc(&plan);
	if (!members || members > plan.count)
		members = (unsigned)plan.count;
	for (unsigned i = 0; i < members; i++) {
		const struct member_plan *m = &plan.m[i];
		uint32_t mtime = rng_mtime(r);
		if (m->framebuf) {
			sample_framebuf(ao, mtime);
			continue;
		}
		char fname[32];
		size_t len;
		snprintf(fname, sizeof fname, "%s.cmp", m->stem);
		uint8_t *data = plan_scene(m, &len);
		archive_put(ao, fname, data, len, mtime, GZW_GOOD, "ok");
	}
	plan_free(&plan);
	return members;
}

static int cmd_full(const char *dir, bool real, unsigned members, int level,
		    const char *exes, uint32_t last_frames)
{
	double t0 = seconds_now();
	make_disc_dirs(dir);
	write_plain_files(dir, 1024 * 1024);
	struct rng r = { 0xf011 };
	struct archive_out ao;
	struct exe_index index = { 0 };
	char *path = xasprintf("%s/DATA/DATA.BIN", dir);
	archive_open(&ao, path, NULL, level);
	ao.index = &index;
	unsigned data_members = put_data_members(&ao, real, members, &r);
	uint64_t data_inflated = ao.inflated;
	uint64_t data_size = archive_close(&ao);
	free(path);

	struct exe_index streams = { 0 };
	path = xasprintf("%s/STREAM/STR1.BIN", dir);
	archive_open(&ao, path, NULL, level);
	ao.index = &streams;
	/* --cutscene-frames 18000 makes the third a 10-minute cutscene. */
	for (unsigned i = 0; i < 3; i++) {
		struct cutscene c = { .number = 1 + i,
				      .frames = i == 2 ? last_frames : 300 + 100 * i,
				      .seed = 1000 + i, .rich = i != 1 };
		put_cutscene(&ao, &c, &r);
	}
	put_common_setup(&ao, rng_mtime(&r));
	/* A fourth, laid out as the game's cutscenes are. */
	struct cutscene g = { .number = 4, .frames = 600, .seed = 1004,
			      .rich = true };
	put_cutscene_game(&ao, &g, &r);
	uint64_t str_inflated = ao.inflated;
	uint64_t str_size = archive_close(&ao);
	free(path);
	write_exes(dir, exes, &index, &streams);

	printf("shape             %s\n", real ? "real" : "small");
	printf("DATA/DATA.BIN     %u members, %llu bytes compressed "
	       "(archive), %llu inflated\n", data_members,
	       (unsigned long long)data_size,
	       (unsigned long long)data_inflated);
	printf("STREAM/STR1.BIN   7 members, %llu bytes compressed "
	       "(archive), %llu inflated\n", (unsigned long long)str_size,
	       (unsigned long long)str_inflated);
	printf("total             %u members, %llu compressed, %llu inflated, "
	       "%.1f s\n", data_members + 7,
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

/* text: the messages of the executable's tables, as JSON. */
static int cmd_text(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		die("%s: %s", path, strerror(errno));
	gen_text_json(f);
	if (f != stdout ? fclose(f) != 0 : fflush(f) != 0)
		die("%s: %s", path, strerror(errno));
	return 0;
}

/* ---- command line ---- */

static void usage(FILE *to)
{
	fputs("usage:\n"
	      "  ccsgen sample DIR [--raw RAWDIR] [--exes EXEDIR]\n"
	      "      a small disc: SYSTEM.CNF, SLUS_202.67 (an ELF with\n"
	      "      DATA.BIN's index), OUTSIDE.BIN,\n"
	      "      DATA/DATA.BIN (every kind and version), DATA/SNDDATA.BIN,\n"
	      "      STREAM/STR1.BIN (a cutscene pair with audio)\n"
	      "  ccsgen broken FILE [--raw RAWDIR]\n"
	      "      one archive of broken members; prints what each is\n"
	      "  ccsgen full DIR [--shape real|small] [--members N] [--level L]\n"
	      "                  [--exes EXEDIR] [--cutscene-frames F]\n"
	      "      the benchmark disc, level 1 by default: the real disc's\n"
	      "      shape (1,023 members, ~316,000 objects; N: the first N),\n"
	      "      or the small one (N members of kits, 1000 by default)\n"
	      "  ccsgen ccs OUT [--version V]\n"
	      "      one uncompressed CCSF file with every kind (V: 0x100)\n"
	      "  ccsgen dbmod DIR\n"
	      "      DB22MOD.BIN (every face kind), DB23MOD.BIN (offsets from\n"
	      "      the table's end), DB24MOD.BIN (broken models), DB25MOD.BIN\n"
	      "      (GT faces with colours past the count), DB08MOD.BIN\n"
	      "      (no magic)\n"
	      "  ccsgen text FILE\n"
	      "      the executable's messages as JSON (bytes in hex), what\n"
	      "      the mounted templates must say (- for stdout)\n"
	      "--raw also writes each member's inflated bytes to\n"
	      "RAWDIR/<archive>/<member folder name>.ccs\n"
	      "--exes also writes broken copies of SLUS_202.67 to EXEDIR:\n"
	      "stripped, usize (one record's usize wrong), noend (tables\n"
	      "without their end), garbage (noise after the ELF magic),\n"
	      "missing (no record for the member empty), name (fld000's\n"
	      "record named FLX000.CCS), streams (a stream record's size and\n"
	      "gzip wrong, another's offset), symbols.txt (the symbols, in\n"
	      "nm's shape, for the stripped copy)\n", to);
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
	const char *raw = NULL, *exes = NULL;
	unsigned long members = 0, level = 1, version = 0x100;
	bool real = true;
	unsigned long last_frames = 500;
	for (int i = 3; i < argc; i++) {
		const char *opt = argv[i];
		if (i + 1 >= argc)
			die("option %s needs a value", opt);
		const char *val = argv[++i];
		if (!strcmp(opt, "--raw"))
			raw = val;
		else if (!strcmp(opt, "--exes"))
			exes = val;
		else if (!strcmp(opt, "--members"))
			members = parse_number(val, "member count", 100000);
		else if (!strcmp(opt, "--shape") && !strcmp(val, "real"))
			real = true;
		else if (!strcmp(opt, "--shape") && !strcmp(val, "small"))
			real = false;
		else if (!strcmp(opt, "--shape"))
			die("bad shape '%s' (real or small)", val);
		else if (!strcmp(opt, "--level"))
			level = parse_number(val, "level", 9);
		else if (!strcmp(opt, "--cutscene-frames"))
			last_frames = parse_number(val, "frame count", 1000000);
		else if (!strcmp(opt, "--version"))
			version = parse_number(val, "version", 0xffff);
		else
			die("unknown option %s (see ccsgen --help)", opt);
	}
	if (!strcmp(cmd, "sample"))
		return cmd_sample(target, raw, exes);
	if (!strcmp(cmd, "broken"))
		return cmd_broken(target, raw);
	if (!strcmp(cmd, "full"))
		return cmd_full(target, real, (unsigned)members, (int)level,
				exes, (uint32_t)last_frames);
	if (!strcmp(cmd, "ccs"))
		return cmd_ccs(target, (uint16_t)version);
	if (!strcmp(cmd, "dbmod"))
		return cmd_dbmod(target);
	if (!strcmp(cmd, "text"))
		return cmd_text(target);
	usage(stderr);
	return 2;
}
