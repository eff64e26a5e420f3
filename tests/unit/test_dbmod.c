/* SPDX-License-Identifier: MIT */
/* test_dbmod.c - DBnnMOD.BIN: table, offset reading, checks, model.txt,
 * model.obj/.mtl, broken models, truncated and corrupted databases. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dbmod/dbmod.h"
#include "dbw.h"
#include "testutil.h"

/* A database in a buffer of exactly its size, so ASan sees any read
 * past the end. */
struct db_bytes {
	uint8_t *p;
	size_t len;
};

static struct db_bytes every_kind(enum dbw_base base)
{
	struct db_bytes b;
	b.p = dbw_every_kind(base, &b.len);
	assert_non_null(b.p);
	return b;
}

static void open_ok(struct dbmod *db, const struct db_bytes *b)
{
	struct reason why = { "" };
	assert_int_equal(dbmod_open(db, b->p, b->len, &why), 0);
}

/* The output of a producer as a NUL-ended string the test frees. */
static char *model_obj(const struct dbmod *db, size_t pos, char **mtl)
{
	struct strbuf obj = STRBUF_INIT, m = STRBUF_INIT;
	struct reason why = { "" };
	assert_int_equal(dbmod_model_obj(db, pos, &obj, &m, &why),
			 0);
	*mtl = m.data;
	return obj.data;
}

static char *model_text(const struct dbmod *db, size_t pos)
{
	struct strbuf sb = STRBUF_INIT;
	struct reason why = { "" };
	assert_int_equal(dbmod_model_text(db, pos, &sb, &why), 0);
	return sb.data;
}

static char *models_text(const struct dbmod *db)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(dbmod_models_text(db, &sb), 0);
	return sb.data;
}

static void assert_has(const char *text, const char *line)
{
	if (!strstr(text, line))
		fail_msg("missing \"%s\" in:\n%s", line, text);
}

static void probe_needs_magic(void **state)
{
	(void)state;
	struct db_bytes b = every_kind(DBW_FROM_MODEL);
	assert_true(dbmod_probe(b.p, b.len));
	assert_false(dbmod_probe(b.p, 3));
	free(b.p);
	b.p = dbw_no_magic(&b.len);
	assert_false(dbmod_probe(b.p, b.len));
	struct dbmod db;
	struct reason why = { "" };
	assert_int_equal(dbmod_open(&db, b.p, b.len, &why), -EIO);
	assert_string_equal(why.text, "no 0xc0de0001 header");
	free(b.p);
}

static void table_entries_and_ids(void **state)
{
	(void)state;
	struct db_bytes b = every_kind(DBW_FROM_MODEL);
	struct dbmod db;
	open_ok(&db, &b);
	assert_int_equal(db.count, 5);
	static const uint16_t ids[5] = { 0, 1, 0, 5, 102 };
	for (uint32_t i = 0; i < 5; i++) {
		assert_int_equal(db.entries[i].position, i);
		assert_int_equal(db.entries[i].present, i != 2);
		assert_int_equal(db.entries[i].id, ids[i]);
		assert_false(db.entries[i].duplicate);
	}
	assert_int_equal(db.entries[2].raw, DBMOD_NONE);
	assert_int_equal(db.entries[0].offset, db.table_end);
	assert_int_equal(dbmod_find(&db, 102), 4);
	assert_int_equal(dbmod_find(&db, 2), -1);
	struct dbmod_model m;
	struct reason why = { "" };
	assert_int_equal(dbmod_check(&db, 2, &m, &why), -ENOENT);
	assert_int_equal(dbmod_check(&db, 5, &m, &why), -ENOENT);
	assert_int_equal(dbmod_check(&db, 1, &m, &why), 0);
	for (int k = 0; k < DBMOD_KINDS; k++)
		assert_int_equal(m.faces[k], 1);
	assert_int_equal(m.vertices, 6);
	assert_int_equal(m.colours, 4);
	assert_int_equal(m.radius, 250);
	assert_int_equal(m.unknown_0a, 0xbeef);
	assert_int_equal(m.link, 0x12345678);
	dbmod_close(&db);
	free(b.p);
}

static void offset_reading_is_chosen(void **state)
{
	(void)state;
	struct db_bytes a = every_kind(DBW_FROM_MODEL);
	struct db_bytes b = every_kind(DBW_FROM_TABLE_END);
	struct dbmod da, dbt;
	open_ok(&da, &a);
	open_ok(&dbt, &b);
	assert_int_equal(da.base, DBMOD_FROM_MODEL);
	assert_int_equal(da.fit_model, 4);
	assert_int_equal(dbt.base, DBMOD_FROM_TABLE_END);
	assert_int_equal(dbt.fit_table_end, 4);
	char *ta = models_text(&da), *tb = models_text(&dbt);
	assert_has(ta, "# _at fields count from the model's start");
	assert_has(tb, "# _at fields count from the table's end");
	assert_has(ta, "\n2 none\n");
	assert_has(ta, "\n4 0102 0x21c 141 4 0 0 0 0 0 0 1 0 0\n");
	assert_has(ta, "\n1 0001 0x78 250 6 4 1 1 1 1 1 1 1 1\n");
	free(ta);
	free(tb);
	/* Both readings find the same models: the same OBJ, byte for byte. */
	for (size_t i = 0; i < 5; i++) {
		if (i == 2)
			continue;
		char *ma, *mb;
		char *oa = model_obj(&da, i, &ma), *ob = model_obj(&dbt, i, &mb);
		assert_string_equal(oa, ob);
		assert_string_equal(ma, mb);
		free(oa);
		free(ob);
		free(ma);
		free(mb);
	}
	char *txt = model_text(&dbt, 1);
	assert_has(txt, "# the _at fields count from the table's end\n");
	assert_has(txt, "bounds_at 0x0000007c (file 0x98):"
			" -100 -100 -30 0 100 200 0 0\n");
	free(txt);
	dbmod_close(&da);
	dbmod_close(&dbt);
	free(a.p);
	free(b.p);
}

/* Model 1: vertex 0 is red in F3 and green in F4, so the green corners
 * are repeats (7..); quads are v0 v1 v3 v2; G corners take the colour
 * table's entries, GT corners their own r, g, b (200 100 50 and 43 7
 * 255, past the count 4: repeats 15..); FT and GT faces get vt and their
 * material. */
static const char every_obj[] =
	"# DBnnMOD.BIN model 0001 (table position 1)\n"
	"mtllib model.mtl\n"
	"v -100 -100 0 1 0 0\n"
	"v 100 -100 0 1 0 0\n"
	"v -100 100 0 1 0 0\n"
	"v 100 100 0 0 1 0\n"
	"v -50 200 -30 0 0 1\n"
	"v 50 200 -30 0.50196078 0.50196078 0.50196078\n"
	"v -100 -100 0 0 1 0\n"
	"v 100 -100 0 0 1 0\n"
	"v -100 100 0 0 1 0\n"
	"v 100 100 0 0 0 1\n"
	"v -100 -100 0 0.50196078 0.50196078 0.50196078\n"
	"v 100 -100 0 0.50196078 0.50196078 0.50196078\n"
	"v -100 100 0 0.50196078 0.50196078 0.50196078\n"
	"v 100 100 0 0.50196078 0.50196078 0.50196078\n"
	"v 100 100 0 0.78431373 0.39215686 0.19607843\n"
	"v -50 200 -30 0.78431373 0.39215686 0.19607843\n"
	"v 50 200 -30 0.78431373 0.39215686 0.19607843\n"
	"v -100 100 0 0.16862745 0.02745098 1\n"
	"v 100 100 0 0.16862745 0.02745098 1\n"
	"v -50 200 -30 0.16862745 0.02745098 1\n"
	"v 50 200 -30 0.16862745 0.02745098 1\n"
	"vt 0 1\n"
	"vt 0.125 1\n"
	"vt 0 0.875\n"
	"vt 0.25 1\n"
	"vt 0 0.75\n"
	"vt 0.25 0.75\n"
	"vt 0.5 0.5\n"
	"vt 0.99609375 0.5\n"
	"vt 0.5 0.00390625\n"
	"vt 0.0625 1\n"
	"vt 0 0.9375\n"
	"vt 0.0625 0.9375\n"
	"usemtl untextured\n"
	"f 1 2 3\n"
	"usemtl untextured_semi1\n"
	"f 7 8 4 9\n"
	"usemtl untextured\n"
	"f 2 9 10\n"
	"f 3 4 6 5\n"
	"usemtl tpage_001f_clut_7fc0\n"
	"f 11/1 12/2 13/3\n"
	"usemtl tpage_001f_clut_7fc0_semi\n"
	"f 11/1 12/4 14/6 13/5\n"
	"usemtl tpage_0090_clut_7f80\n"
	"f 15/7 16/8 17/9\n"
	"f 18/1 19/10 21/12 20/11\n";

static void obj_of_every_kind(void **state)
{
	(void)state;
	struct db_bytes b = every_kind(DBW_FROM_MODEL);
	struct dbmod db;
	open_ok(&db, &b);
	char *mtl, *obj = model_obj(&db, 1, &mtl);
	assert_string_equal(obj, every_obj);
	/* One material per (tpage, clut), a _semi twin for bit 7. */
	assert_has(mtl, "newmtl untextured\nKd 1 1 1\n\n");
	assert_has(mtl, "newmtl untextured_semi1\nKd 1 1 1\n"
			"# semi-transparent (face flags bit 7): back + front\n"
			"d 0.5\n");
	assert_has(mtl, "newmtl tpage_001f_clut_7fc0\n# tpage 0x001f: VRAM "
			"page x 960 y 256, 4-bit, blend 0 (back/2 + front/2)\n"
			"# clut 0x7fc0: VRAM x 0 y 511\nKd 1 1 1\n\n");
	assert_has(mtl, "newmtl tpage_001f_clut_7fc0_semi\n");
	assert_has(mtl, "newmtl tpage_0090_clut_7f80\n# tpage 0x0090: VRAM "
			"page x 0 y 256, 8-bit");
	assert_null(strstr(mtl, "newmtl tpage_0090_clut_7f80_semi"));
	free(obj);
	free(mtl);

	obj = model_obj(&db, 4, &mtl);
	assert_has(obj, "vt 0 1\nvt 0.99609375 1\nvt 0 0.00390625\n"
			"vt 0.99609375 0.00390625\n"
			"usemtl tpage_001f_clut_7fc0\nf 1/1 2/2 4/4 3/3\n");
	free(obj);
	free(mtl);

	/* Gouraud triangles sharing vertices in the same colours: no
	 * repeats. */
	obj = model_obj(&db, 3, &mtl);
	assert_has(obj, "v 100 100 0 0.50196078 0.50196078 0.50196078\n"
			"usemtl untextured\nf 1 2 3\nf 2 4 3\n");
	free(obj);
	free(mtl);
	dbmod_close(&db);
	free(b.p);
}

static void text_of_every_kind(void **state)
{
	(void)state;
	struct db_bytes b = every_kind(DBW_FROM_MODEL);
	struct dbmod db;
	open_ok(&db, &b);
	char *t = model_text(&db, 1);
	assert_has(t, "id 0001\nposition 1\noffset 0x78\nlink 0x12345678\n"
		      "unknown_04 0x00000000\nradius 250\n"
		      "unknown_0a 0xbeef\n");
	assert_has(t, "vertices_at 0x00000030 (file 0xa8)\n");
	assert_has(t, "end 0x19c (model.bin: 292 bytes)\n");
	assert_has(t, "faces F3 1 F4 1 G3 1 G4 1 FT3 1 FT4 1 GT3 1 GT4 1\n");
	assert_has(t, "face 0 F3 at 0xec: flags 0x00000000 v 0 1 2 pad 0 "
		      "rgb 255 0 0 code 0x20\n");
	assert_has(t, "face 3 G4 at 0x11c: flags 0x00000101 v 2 3 4 5 "
		      "colours 0 1 2 3\n");
	assert_has(t, "face 7 GT4 at 0x180: flags 0x00000000 v 2 3 4 5 "
		      "rgb 43 7 255 pad 0x00 uv 0,0 16,0 0,16 16,16 clut 0x7f80 "
		      "tpage 0x0090\n");
	free(t);

	size_t start, len;
	struct reason why = { "" };
	assert_int_equal(dbmod_model_bytes(&db, 1, &start, &len, &why), 0);
	assert_int_equal(start, 0x78);
	assert_int_equal(len, 292);
	static const uint8_t end[4] = { 0xff, 0, 0, 0 };
	assert_memory_equal(b.p + start + len - 4, end, 4);
	/* The models lie end to end: model 3 starts where model 1 ends. */
	assert_int_equal(start + len, db.entries[3].offset);
	dbmod_close(&db);
	free(b.p);
}

static void broken_models_fail_alone(void **state)
{
	(void)state;
	struct db_bytes b;
	b.p = dbw_broken(&b.len);
	struct dbmod db;
	open_ok(&db, &b);
	assert_int_equal(db.base, DBMOD_FROM_MODEL);
	struct reason why = { "" };
	struct dbmod_model m;
	static const char *const reasons[5] = {
		NULL,
		"model at 0x20000c runs past the file",
		"face 0 (F3 at 0xec) names vertex 6, past the count 6",
		"reaches 0x218 (the next model) with no 0xff end",
		NULL,
	};
	for (size_t i = 0; i < 5; i++) {
		why.text[0] = '\0';
		int rc = dbmod_check(&db, i, &m, &why);
		if (!reasons[i]) {
			assert_int_equal(rc, 0);
			char *mtl, *obj = model_obj(&db, i, &mtl);
			assert_has(obj, "\nf ");
			free(obj);
			free(mtl);
			continue;
		}
		assert_int_equal(rc, -EIO);
		assert_has(why.text, reasons[i]);
		struct strbuf sb = STRBUF_INIT;
		assert_int_equal(dbmod_model_obj(&db, i, &sb, NULL, &why), -EIO);
		assert_int_equal(dbmod_model_text(&db, i, &sb, &why), -EIO);
		assert_int_equal(sb.len, 0);
		sb_free(&sb);
	}
	char *t = models_text(&db);
	assert_has(t, "\n3 0003 0x19c error: face list from 0x1fc reaches "
		      "0x218 (the next model) with no 0xff end\n");
	assert_has(t, "\n4 0004 0x218 141 4 0 0 0 0 0 0 1 0 0\n");
	free(t);
	dbmod_close(&db);
	free(b.p);
}

/* The last model without its end runs into the file's end; a gouraud
 * face naming a colour past the count; an unknown kind. */
static void more_broken_models(void **state)
{
	(void)state;
	static const int16_t v[3][4] = { { 0 }, { 1 }, { 2 } };
	static const uint8_t c[1][4] = { { 1, 2, 3, 0 } };
	static const struct dbw_face g = { .kind = DBW_G3, .v = { 0, 1, 2 },
					   .c = { 0, 0, 1 } };
	static const struct dbw_face odd = { .kind = 0x22, .v = { 0, 1, 2 } };
	struct dbw_model last = { .id = 7, .vertices = v, .vertex_count = 3,
				  .colours = c, .colour_count = 1,
				  .faces = &odd, .face_count = 1,
				  .fault = DBW_NO_END };
	struct dbw_model colour = last, kind = last;
	last.faces = &g;
	last.fault = DBW_GOOD;
	last.colours = NULL;
	last.colour_count = 0;
	colour.id = 8;
	colour.faces = &g;
	colour.fault = DBW_GOOD;
	kind.id = 9;
	kind.fault = DBW_GOOD;
	struct dbw_model no_end = last;
	no_end.id = 10;
	no_end.colours = c;
	no_end.colour_count = 1;
	no_end.faces = &g;
	no_end.fault = DBW_NO_END;
	static const uint8_t ok_c[3][4] = { { 0 }, { 0 }, { 0 } };
	no_end.colours = ok_c;
	no_end.colour_count = 3;
	const struct dbw_entry table[4] = {
		{ &last }, { &colour }, { &kind }, { &no_end },
	};
	struct db_bytes b;
	b.p = dbw_build(table, 4, DBW_FROM_MODEL, &b.len);
	struct dbmod db;
	open_ok(&db, &b);
	struct reason why = { "" };
	assert_int_equal(dbmod_check(&db, 0, NULL, &why), -EIO);
	assert_has(why.text, "names colour 0, past the count 0");
	assert_int_equal(dbmod_check(&db, 1, NULL, &why), -EIO);
	assert_has(why.text, "names colour 1, past the count 1");
	assert_int_equal(dbmod_check(&db, 2, NULL, &why), -EIO);
	assert_has(why.text, "unknown face kind 0x0022");
	assert_int_equal(dbmod_check(&db, 3, NULL, &why), -EIO);
	assert_has(why.text, "(the file's end) with no 0xff end");
	dbmod_close(&db);

	/* A table longer than the file. */
	b.p[4] = 0xff;
	b.p[5] = 0xff;
	assert_int_equal(dbmod_open(&db, b.p, b.len, &why), -EIO);
	assert_has(why.text, "table of 65535 entries runs past the file");
	free(b.p);
}

static void duplicate_ids_show_the_first(void **state)
{
	(void)state;
	static const int16_t v[3][4] = { { 0 }, { 1 }, { 2 } };
	static const struct dbw_face f = { .kind = DBW_F3, .v = { 0, 1, 2 } };
	const struct dbw_model m = { .id = 3, .vertices = v, .vertex_count = 3,
				     .faces = &f, .face_count = 1 };
	const struct dbw_entry table[3] = { { &m }, { NULL }, { &m } };
	struct db_bytes b;
	b.p = dbw_build(table, 3, DBW_FROM_MODEL, &b.len);
	struct dbmod db;
	open_ok(&db, &b);
	assert_false(db.entries[0].duplicate);
	assert_true(db.entries[2].duplicate);
	assert_int_equal(dbmod_find(&db, 3), 0);
	char *t = models_text(&db);
	assert_has(t, " duplicate id: not shown\n");
	free(t);
	dbmod_close(&db);
	free(b.p);
}

/* GT faces hold r, g, b as FT faces do (seeds/002): above the colour
 * count, or with no colours at all, they are a colour and no error. */
static void textured_gouraud_colours(void **state)
{
	(void)state;
	struct db_bytes b;
	b.p = dbw_textured_gouraud(&b.len);
	assert_non_null(b.p);
	struct dbmod db;
	open_ok(&db, &b);
	struct reason why = { "" };
	for (size_t i = 0; i < db.count; i++)
		assert_int_equal(dbmod_check(&db, i, NULL, &why), 0);
	char *t = models_text(&db);
	assert_null(strstr(t, "error"));
	assert_has(t, "\n0 0000 0x14 141 4 0 0 0 0 0 0 0 1 1\n");
	free(t);

	t = model_text(&db, 0);
	assert_has(t, "colours 0\n");
	assert_has(t, " GT3 at 0x68: flags 0x00000000 v 0 1 2 pad 0 rgb 43 0 0 "
		      "pad 0x00 uv 0,0 64,0 0,64 pad 0,0 clut 0x7f00 "
		      "tpage 0x0009\n");
	assert_has(t, " v 0 1 2 3 rgb 10 200 30 pad 0x00 uv ");
	free(t);

	/* The GT3's colour on its corners, the GT4's on v3 and repeats. */
	char *mtl, *obj = model_obj(&db, 0, &mtl);
	assert_has(obj, "mtllib model.mtl\n"
			"v -100 -100 0 0.16862745 0 0\n"
			"v 100 -100 0 0.16862745 0 0\n"
			"v -100 100 0 0.16862745 0 0\n"
			"v 100 100 0 0.03921569 0.78431373 0.11764706\n"
			"v -100 -100 0 0.03921569 0.78431373 0.11764706\n"
			"v 100 -100 0 0.03921569 0.78431373 0.11764706\n"
			"v -100 100 0 0.03921569 0.78431373 0.11764706\n"
			"vt ");
	assert_has(obj, "f 1/1 2/2 3/3\nf 5/1 6/2 4/4 7/3\n");
	free(obj);
	free(mtl);

	/* G3 corners from the table, GT corners their own bytes. */
	obj = model_obj(&db, 1, &mtl);
	assert_has(obj, "v -100 -100 0 1 0 0\nv 100 -100 0 0 1 0\n"
			"v -100 100 0 0 1 0\n");
	assert_has(obj, "v -50 200 -30 0.00784314 0.50196078 0.98039216\n");
	assert_has(obj, "v -100 -100 0 1 1 1\n");
	free(obj);
	free(mtl);
	dbmod_close(&db);
	free(b.p);

	/* Their vertex indices are still checked. */
	static const int16_t v[3][4] = { { 0 }, { 1 }, { 2 } };
	static const struct dbw_face gt = { .kind = DBW_GT3,
					    .v = { 0, 1, 3 },
					    .c = { 43, 0, 0 } };
	const struct dbw_model m = { .id = 4, .vertices = v, .vertex_count = 3,
				     .faces = &gt, .face_count = 1 };
	const struct dbw_entry table[1] = { { &m } };
	b.p = dbw_build(table, 1, DBW_FROM_MODEL, &b.len);
	open_ok(&db, &b);
	assert_int_equal(dbmod_check(&db, 0, NULL, &why), -EIO);
	assert_has(why.text, "(GT3 at 0x58) names vertex 3, past the count 3");
	dbmod_close(&db);
	free(b.p);
}

/* Runs every producer on every position; only memory safety counts. */
static void exercise(const uint8_t *p, size_t len)
{
	struct dbmod db;
	struct reason why = { "" };
	if (dbmod_open(&db, p, len, &why))
		return;
	for (size_t i = 0; i <= db.count; i++) {
		struct strbuf a = STRBUF_INIT, o = STRBUF_INIT, m = STRBUF_INIT;
		size_t start, n;
		if (!dbmod_model_bytes(&db, i, &start, &n, &why))
			assert_true(start + n <= len);
		(void)dbmod_model_text(&db, i, &a, &why);
		(void)dbmod_model_obj(&db, i, &o, &m, &why);
		sb_free(&a);
		sb_free(&o);
		sb_free(&m);
	}
	struct strbuf t = STRBUF_INIT;
	assert_int_equal(dbmod_models_text(&db, &t), 0);
	sb_free(&t);
	dbmod_close(&db);
}

static void every_truncation_is_safe(void **state)
{
	(void)state;
	struct db_bytes b = every_kind(DBW_FROM_MODEL);
	for (size_t n = 0; n <= b.len; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		memcpy(cut, b.p, n);
		exercise(cut, n);
		free(cut);
	}
	free(b.p);
}

/* Every byte set to 0x00 and 0xff in turn, in the database with broken
 * models and in the table-end one. */
static void every_corruption_is_safe(void **state)
{
	(void)state;
	struct db_bytes dbs[2];
	dbs[0].p = dbw_broken(&dbs[0].len);
	dbs[1] = every_kind(DBW_FROM_TABLE_END);
	for (int d = 0; d < 2; d++) {
		uint8_t *p = malloc(dbs[d].len);
		for (size_t i = 0; i < dbs[d].len; i++) {
			for (int v = 0; v < 2; v++) {
				memcpy(p, dbs[d].p, dbs[d].len);
				p[i] = v ? 0xff : 0x00;
				exercise(p, dbs[d].len);
			}
		}
		free(p);
		free(dbs[d].p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probe_needs_magic),
		cmocka_unit_test(table_entries_and_ids),
		cmocka_unit_test(offset_reading_is_chosen),
		cmocka_unit_test(obj_of_every_kind),
		cmocka_unit_test(text_of_every_kind),
		cmocka_unit_test(broken_models_fail_alone),
		cmocka_unit_test(more_broken_models),
		cmocka_unit_test(duplicate_ids_show_the_first),
		cmocka_unit_test(textured_gouraud_colours),
		cmocka_unit_test(every_truncation_is_safe),
		cmocka_unit_test(every_corruption_is_safe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
