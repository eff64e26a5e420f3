/* SPDX-License-Identifier: MIT */
/* gen_broken.c - `ccsgen broken`: an archive of members broken
 * one way each. */
#include "gen.h"

/* A scene of one kit named after stem; *file (may be NULL) is its
 * file's index. */
static struct ccsw *broken_base(const char *stem, uint32_t seed,
				uint32_t *file)
{
	uint32_t f;
	struct ccsw *w = new_scene(stem, 0x100, &f);
	if (file)
		*file = f;
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

/* A finished scene into the archive, with its fault and what it tests. */
static void put_broken(struct archive_out *ao, struct rng *r, struct ccsw *w,
		       const char *name, enum gzw_fault fault, const char *what)
{
	size_t len;
	uint8_t *p = finish_scene(w, &len);
	archive_put(ao, name, p, len, rng_mtime(r), fault, what);
}

/* The base scene, ended, with only the archive's fault to it. */
static void put_plain(struct archive_out *ao, struct rng *r, const char *stem,
		      uint32_t seed, const char *name, enum gzw_fault fault,
		      const char *what)
{
	struct ccsw *w = broken_base(stem, seed, NULL);
	end_data_scene(w);
	put_broken(ao, r, w, name, fault, what);
}

/* A 4 x 4 texture whose count claims 0x10000000 words, with its CLUT. */
static void add_lying_texture(struct ccsw *w, uint32_t f, const char *clt,
			      const char *tx)
{
	uint32_t clut = objectf(w, f, "%s", clt), tex = objectf(w, f, "%s", tx);
	struct ccsw_clut c = { .object = clut, .count = 16, .flag = 1 };
	ccsw_clut(w, &c);
	struct ccsw_texture t = { .object = tex, .clut = clut, .psm = 0x14,
				  .tw = 4, .th = 4, .size_field = CCSW_SIZE_AUTO,
				  .count_lie = 0x10000000u };
	ccsw_texture(w, &t);
}

static void broken_first(struct archive_out *ao, struct rng *r)
{
	put_plain(ao, r, "good1", 1, "good1.cmp", GZW_GOOD, "ok");
	put_plain(ao, r, "badcrc", 2, "badcrc.cmp", GZW_BAD_CRC,
		  "CRC32 field wrong (one bit flipped)");
	/* Noisy and large, so the cut leaves several sectors behind it. */
	uint32_t f;
	struct ccsw *w = new_scene("cut", 0x100, &f);
	struct kit big = { .stem = "cut", .psm = 0x13, .tw = 7, .th = 7,
			   .mip = 3, .tex_flag = 1, .clut_flag = 1,
			   .pattern = CCSW_PAT_NOISY, .mtype = 1, .mmats = 2,
			   .vertices = 200, .seed = 3 };
	add_kit(w, f, &big);
	end_data_scene(w);
	put_broken(ao, r, w, "cut.cmp", GZW_CUT,
		   "deflate data cut in half, no CRC/ISIZE, zero padding");
	w = broken_base("unkkind", 4, NULL);
	static const uint32_t junk[4] = { 1, 2, 3, 4 };
	ccsw_chunk(w, 0x7f00, CCSW_TAG, junk, sizeof junk, CCSW_SIZE_AUTO);
	ccsw_camera(w, objectf(w, 1, "CAM_after"));
	end_data_scene(w);
	put_broken(ao, r, w, "unkkind.cmp", GZW_GOOD,
		   "chunk of unknown kind 0x7f00 mid-file");
	w = new_scene("liar", 0x100, &f);
	add_lying_texture(w, f, "CLT_liar", "TEX_liar");
	ccsw_index_lie(w, 2, 0x7fffffffu);
	end_data_scene(w);
	put_broken(ao, r, w, "liar.cmp", GZW_GOOD,
		   "index object_count 0x7fffffff; texture count 0x10000000 "
		   "words past the end");
}

static void broken_second(struct archive_out *ao, struct rng *r)
{
	struct ccsw *w = broken_base("pastend", 5, NULL);
	static const uint32_t obj[3] = { 1, 0, 0 };
	ccsw_chunk(w, CCSW_OBJ, CCSW_TAG, obj, sizeof obj, 0x4000);
	put_broken(ao, r, w, "pastend.cmp", GZW_GOOD,
		   "last chunk's size field 0x4000 words runs past the end");
	w = broken_base("trailer", 6, NULL);
	end_data_scene(w);
	static const uint8_t tail[6] = { 0xcd, 0xcd, 0xcd, 0xcd, 0, 0 };
	ccsw_trailer(w, tail, sizeof tail);
	put_broken(ao, r, w, "trailer.cmp", GZW_GOOD,
		   "6 bytes after the end Top");
	put_plain(ao, r, "noname", 7, "", GZW_GOOD, "empty FNAME (valid gzip)");
	/* The texture's lie alone: in "liar" the index stops the walk first. */
	uint32_t f;
	w = new_scene("texliar", 0x100, &f);
	add_lying_texture(w, f, "CLT_texliar", "TEX_texliar");
	end_data_scene(w);
	put_broken(ao, r, w, "texliar.cmp", GZW_GOOD,
		   "texture count 0x10000000 words past the end");
	put_plain(ao, r, "badsize", 9, "badsize.cmp", GZW_BAD_ISIZE,
		  "ISIZE one more than the inflated length");
	w = new_scene("badtex", 0x100, &f);
	add_bad_textures(w, f);
	end_data_scene(w);
	put_broken(ao, r, w, "badtex.cmp", GZW_GOOD,
		   "textures whose fields or palettes are wrong (they walk)");
	put_plain(ao, r, "good2", 8, "good2.cmp", GZW_GOOD, "ok");
}

/* Claims that would take gigabytes if believed (limits.sh): after the
 * others, so their offsets and sector names stay as they were. */
static void broken_huge(struct archive_out *ao, struct rng *r)
{
	put_plain(ao, r, "isize4g", 10, "isize4g.cmp", GZW_HUGE_ISIZE,
		  "ISIZE 0xffffffff: claims 4 GiB");
	struct ccsw *w = broken_base("tex2p20", 11, NULL);
	add_huge_texture(w, 1);
	end_data_scene(w);
	put_broken(ao, r, w, "tex2p20.cmp", GZW_GOOD,
		   "texture of 2^20 x 2^20 (tw = th = 20), 256 bytes of pixels");
	w = broken_base("mdl2p31", 12, NULL);
	add_huge_model(w, 1);
	end_data_scene(w);
	put_broken(ao, r, w, "mdl2p31.cmp", GZW_GOOD,
		   "model whose mmat claims 2^31 vertices");
	w = broken_base("idx2p31", 13, NULL);
	ccsw_index_lie(w, 2, 0x80000000u);
	end_data_scene(w);
	put_broken(ao, r, w, "idx2p31.cmp", GZW_GOOD,
		   "index object_count 2^31");
}

/* Anime controllers anime.txt cannot read, each followed by one it can:
 * ANM_badsel's rotation has selector 5, ANM_badkeys' position claims
 * 1000 keys and holds 2.  Each chunk's error.txt line names the first. */
static void add_bad_anime(struct ccsw *w, uint32_t f, uint32_t obj,
			  uint32_t mat)
{
	static const struct ccsw_key two[2] = {
		{ .frame = 0, .v = { 1, 2, 3 } }, { .frame = 2, .v = { 4, 5, 6 } },
	};
	struct ccsw_ctl sel[2] = {
		{ .kind = CCSW_CTL_OBJECT, .target = obj, .field = {
		  [0] = { .mode = CCSW_CONSTANT, .v = { 1, 2, 3 } },
		  [1] = { .mode = 5 } } },
		{ .kind = CCSW_CTL_OBJECT, .target = obj, .field = {
		  [0] = { .mode = CCSW_CONSTANT, .v = { 7, 8, 9 } } } },
	};
	struct ccsw_anime_desc a = { .object = objectf(w, f, "ANM_badsel"),
				     .frames = 3, .ctl_count = 2, .ctls = sel };
	ccsw_anime_write(w, &a);
	struct ccsw_ctl keys[2] = {
		{ .kind = CCSW_CTL_OBJECT, .target = obj, .field = {
		  [0] = { .mode = CCSW_KEYED, .key_count = 2, .keys = two,
			  .count_lie = 1000 } } },
		{ .kind = CCSW_CTL_MATERIAL, .target = mat, .field = {
		  [1] = { .mode = CCSW_CONSTANT, .v = { 0.25f } } } },
	};
	a.object = objectf(w, f, "ANM_badkeys");
	a.ctls = keys;
	a.loop = true;
	ccsw_anime_write(w, &a);
}

/* MPH_badanim morphs the kit's model (one mmat of 10 vertices, seed
 * 14 * 31) toward MDL_badtgt, which has 7: scene.glb leaves it out and
 * MPH_badanim's error.txt says why. */
static void add_bad_morph(struct ccsw *w, uint32_t f, uint32_t mdl,
			  uint32_t mat)
{
	uint32_t mph = objectf(w, f, "MPH_badanim");
	struct ccsw_frame_rec r = {
		.frame = 1, .kind = CCSW_F_MORPHER, .object = mph,
		.target_count = 1, .values = { 0.5f },
		.targets = { add_target(w, f, "MDL_badtgt", 0x600, mat, 7, 434,
					0, 2.0f) },
	};
	ccsw_morpher(w, mph, mdl);
	struct ccsw_anime_desc a = { .object = objectf(w, f, "ANM_badmorph"),
				     .frames = 3, .rec_count = 1, .recs = &r };
	ccsw_anime_write(w, &a);
}

/* After every other member, so their offsets and sector names stay. */
static void broken_anime(struct archive_out *ao, struct rng *r)
{
	uint32_t f;
	struct ccsw *w = new_scene("badanim", 0x100, &f);
	struct kit k = { .stem = "badanim", .psm = 0x13, .tw = 5, .th = 5,
			 .tex_flag = 1, .clut_flag = 1,
			 .pattern = CCSW_PAT_GRADIENT, .mtype = 1, .mmats = 1,
			 .vertices = 10, .seed = 14 };
	struct kit_ids id = add_kit(w, f, &k);
	add_bad_anime(w, f, id.obj, id.mat);
	add_bad_morph(w, f, id.mdl, id.mat);
	end_data_scene(w);
	put_broken(ao, r, w, "badanim.cmp", GZW_GOOD,
		   "Anime controllers with selector 5 and with 1000 keys "
		   "claimed, 2 held; a morph target that does not fit");
}

/* A cutscene pair whose scene file cannot all be shown: F_Obj records
 * for an object the pair does not define, a camera no record places, a
 * Top that goes back in time and a last record that runs past the file
 * (a cut frame section).  Its scene.glb keeps the rest. */
static void broken_cutscene(struct archive_out *ao, struct rng *r)
{
	uint32_t f;
	struct ccsw *w = broken_base("x0900", 15, &f);
	ccsw_camera(w, objectf(w, f, "CAM_x0900"));
	end_data_scene(w);
	put_broken(ao, r, w, "str0900e.tmp", GZW_GOOD, "a cutscene's setup");

	w = ccsw_new("str0900", 0x100);
	ccsw_set_stream_tags(w, true);
	f = ccsw_file(w, "#c:\\art\\str0900e.max");
	uint32_t obj = objectf(w, f, "OBJ_x0900");
	uint32_t ghost = objectf(w, f, "OBJ_ghost");
	objectf(w, f, "CAM_x0900");
	ccsw_setup(w);
	ccsw_frame(w, 8);
	for (uint32_t fr = 0; fr < 6; fr++) {
		ccsw_top(w, fr == 4 ? 1 : fr);          /* 4 goes back */
		struct ccsw_f_obj fo = ccsw_f_obj_moving(obj, fr);
		ccsw_f_obj(w, &fo);
		fo.object = ghost;
		ccsw_f_obj(w, &fo);
	}
	static const uint32_t cut[2] = { 1, 0 };
	ccsw_chunk(w, 0x0101, 0, cut, sizeof cut, 13);  /* 52 bytes: 8 held */
	put_broken(ao, r, w, "str0900.tmp", GZW_GOOD, "a cutscene whose frames "
		   "name an undefined object, leave the camera out, go back "
		   "in time and are cut");
}

int cmd_broken(const char *file, const char *raw)
{
	struct rng r = { 0xb40ce };
	struct archive_out ao;
	archive_open(&ao, file, raw, 6);
	ao.print = true;
	broken_first(&ao, &r);
	broken_second(&ao, &r);
	broken_huge(&ao, &r);
	broken_anime(&ao, &r);
	broken_cutscene(&ao, &r);
	archive_close(&ao);
	return 0;
}
