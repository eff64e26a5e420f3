/* SPDX-License-Identifier: MIT */
/* test_anime.c - Anime controllers: each selector, keys, defaults, the
 * text, and records that lie about their selectors or counts. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/motion/anime.h"
#include "testutil.h"
#include "util/bytes.h"
#include "util/strbuf.h"

/* A record under construction, exactly as long as what was put in it:
 * copied to a heap block of that size, so ASan sees any overread. */
struct rec {
	uint8_t b[512];
	size_t n;
};

static void u32(struct rec *r, uint32_t v)
{
	wr_u32le(r->b + r->n, v);
	r->n += 4;
}

static void f32(struct rec *r, float f)
{
	wr_f32le(r->b + r->n, f);
	r->n += 4;
}

static void vec3(struct rec *r, float x, float y, float z)
{
	f32(r, x);
	f32(r, y);
	f32(r, z);
}

static uint8_t *exact(const struct rec *r)
{
	uint8_t *p = malloc(r->n ? r->n : 1);
	assert_non_null(p);
	memcpy(p, r->b, r->n);
	return p;
}

/* Object controller: position keyed (2 keys), rotation constant, scale
 * absent, transparency constant. */
static struct rec object_record(void)
{
	struct rec r = { .n = 0 };
	u32(&r, 7);
	u32(&r, 2u << 0 | 1u << 3 | 0u << 6 | 1u << 9);
	u32(&r, 2);
	u32(&r, 0);
	vec3(&r, 1, 2, 3);
	u32(&r, 15);
	vec3(&r, 4, 5.5f, -6);
	vec3(&r, 0, 90, 0);
	f32(&r, 0.5f);
	return r;
}

static void object_fields_by_selector(void **state)
{
	(void)state;
	struct rec r = object_record();
	uint8_t *p = exact(&r);
	struct anime_controller c;
	struct reason why = { "" };
	assert_int_equal(anime_controller_parse(0x0102, p, r.n, &c, &why), 0);
	assert_int_equal(c.target, 7);
	assert_int_equal(c.field_count, 3);
	assert_string_equal(c.fields[0].name, "position");
	assert_int_equal(c.fields[0].mode, ANIME_KEYED);
	assert_int_equal(c.fields[0].keys, 2);
	assert_string_equal(c.fields[1].name, "rotation");
	assert_int_equal(c.fields[1].mode, ANIME_CONSTANT);
	/* Scale is absent: it keeps its default and takes no bytes. */
	assert_string_equal(c.fields[2].name, "transparency");
	float v[3];
	uint32_t frame;
	assert_int_equal(anime_field_value(&c.fields[0], 1, &frame, v), 3);
	assert_int_equal(frame, 15);
	assert_true(v[0] == 4 && v[1] == 5.5f && v[2] == -6);
	assert_int_equal(anime_field_value(&c.fields[1], 0, &frame, v), 3);
	assert_true(v[1] == 90);
	assert_int_equal(anime_field_value(&c.fields[2], 0, &frame, v), 1);
	assert_true(v[0] == 0.5f);
	free(p);
}

static void object_text(void **state)
{
	(void)state;
	struct rec r = object_record();
	uint8_t *p = exact(&r);
	struct anime_controller c;
	struct reason why = { "" };
	assert_int_equal(anime_controller_parse(0x0102, p, r.n, &c, &why), 0);
	struct strbuf sb = STRBUF_INIT;
	anime_controller_text(&c, &sb);
	sb_append(&sb, "", 1);
	assert_string_equal(sb.data,
		"  position: keyed 2\n"
		"    0: 1 2 3\n"
		"    15: 4 5.5 -6\n"
		"  rotation: constant 0 90 0\n"
		"  transparency: constant 0.5\n");
	sb_free(&sb);
	free(p);
}

static void light_colour_is_bytes(void **state)
{
	(void)state;
	struct rec r = { .n = 0 };
	u32(&r, 3);
	u32(&r, 1u << 6 | 1u << 9);     /* omni: colour, intensity */
	u32(&r, 0x00336699);
	f32(&r, 2);
	uint8_t *p = exact(&r);
	struct anime_controller c;
	struct reason why = { "" };
	assert_int_equal(anime_controller_parse(0x0609, p, r.n, &c, &why), 0);
	assert_int_equal(c.field_count, 2);
	assert_string_equal(c.fields[0].name, "colour");
	float v[3];
	uint32_t frame;
	anime_field_value(&c.fields[0], 0, &frame, v);
	assert_true(v[0] == 0x99 / 255.0f && v[1] == 0x66 / 255.0f &&
		    v[2] == 0x33 / 255.0f);
	struct strbuf sb = STRBUF_INIT;
	anime_controller_text(&c, &sb);
	sb_append(&sb, "", 1);
	assert_string_equal(sb.data, "  colour: constant 153 102 51\n"
				     "  intensity: constant 2\n");
	sb_free(&sb);
	free(p);
}

static void selector_three_to_seven_refused(void **state)
{
	(void)state;
	for (uint32_t sel = 3; sel <= 7; sel++) {
		struct rec r = { .n = 0 };
		u32(&r, 1);
		u32(&r, 1u << 0 | sel << 3);    /* position fine, rotation not */
		vec3(&r, 1, 1, 1);
		vec3(&r, 2, 2, 2);
		uint8_t *p = exact(&r);
		struct anime_controller c;
		struct reason why = { "" };
		assert_int_equal(anime_controller_parse(0x0102, p, r.n, &c,
						&why), -EIO);
		assert_non_null(strstr(why.text, "rotation: selector"));
		/* What came before the bad field is still there. */
		assert_int_equal(c.field_count, 1);
		free(p);
	}
}

static void counts_past_the_record_refused(void **state)
{
	(void)state;
	uint32_t counts[] = { 3, 1000, 0x10000000u, 0xffffffffu };
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		struct rec r = { .n = 0 };
		u32(&r, 1);
		u32(&r, 2u << 9);       /* transparency keyed */
		u32(&r, counts[i]);
		u32(&r, 0);
		f32(&r, 1);
		u32(&r, 10);
		f32(&r, 0);
		uint8_t *p = exact(&r);
		struct anime_controller c;
		struct reason why = { "" };
		assert_int_equal(anime_controller_parse(0x0102, p, r.n, &c,
						&why), -EIO);
		assert_non_null(strstr(why.text, "transparency"));
		free(p);
	}
	/* Cut anywhere, a record is refused or read, never overread. */
	struct rec whole = object_record();
	for (size_t n = 0; n < whole.n; n++) {
		struct rec cut = whole;
		cut.n = n;
		uint8_t *p = exact(&cut);
		struct anime_controller c;
		struct reason why = { "" };
		assert_int_equal(anime_controller_parse(0x0102, p, n, &c, &why), -EIO);
		free(p);
	}
}

static void spot_light_has_no_layout(void **state)
{
	(void)state;
	assert_false(anime_is_controller(0x0607));
	assert_true(anime_is_controller(0x0605));
	assert_false(anime_is_controller(0x0101));      /* F_Obj */
}

/* The generator's Anime chunk (ccsw_anime_write) in one file; returns
 * the file and points *payload at the chunk's payload. */
static uint8_t *write_clip(const struct ccsw_ctl *ctls, size_t n,
			   const uint8_t **payload, size_t *plen)
{
	struct ccsw *w = ccsw_new("clip", 0x100);
	ccsw_setup(w);
	struct ccsw_frame_rec cam = { .frame = 1, .kind = CCSW_F_CAMERA,
				      .object = 9, .flag = 0x1fc,
				      .values = { 20 } };
	struct ccsw_anime_desc a = { .object = 5, .frames = 2, .loop = true,
				     .ctl_count = n, .ctls = ctls,
				     .rec_count = 1, .recs = &cam };
	ccsw_anime_write(w, &a);
	size_t len, i;
	uint8_t *file = ccsw_finish(w, &len);
	for (i = 0; ccsw_chunk_at(w, i)->kind != CCSW_ANIME; i++)
		;
	const struct ccsw_chunk_info *c = ccsw_chunk_at(w, i);
	*payload = file + c->offset + 8;
	*plen = c->length - 8;
	ccsw_free(w);
	return file;
}

static void generator_round_trip(void **state)
{
	(void)state;
	static const struct ccsw_key keys[2] = {
		{ .frame = 0, .v = { 10, 0, 0 } }, { .frame = 30, .v = { -10 } },
	};
	struct ccsw_ctl ctls[2] = {
		{ .kind = CCSW_CTL_OBJECT, .target = 3, .field = {
		  [0] = { .mode = CCSW_CONSTANT, .v = { 1, 2, 3 } },
		  [1] = { .mode = CCSW_KEYED, .key_count = 2, .keys = keys } } },
		{ .kind = CCSW_CTL_OMNI, .target = 4, .field = {
		  [2] = { .mode = CCSW_CONSTANT, .rgb = 0x332211 },
		  [5] = { .mode = CCSW_CONSTANT, .v = { 120 } } } },
	};
	const uint8_t *p;
	size_t plen;
	uint8_t *file = write_clip(ctls, 2, &p, &plen);
	struct reason why = { "" };
	assert_int_equal(anime_chunk_check(p, plen, &why), 0);
	assert_int_equal(rd_u32le(p + 4), 2);
	/* Top 0 at +12, the object controller at +24 after it */
	assert_int_equal(rd_u16le(p + 24), 0x0102);
	struct anime_controller c;
	assert_int_equal(anime_controller_parse(0x0102, p + 32,
			 4 * rd_u32le(p + 28), &c, &why), 0);
	assert_int_equal(c.flags, 1u | 2u << 3);
	float v[3];
	uint32_t frame;
	anime_field_value(&c.fields[1], 1, &frame, v);
	assert_int_equal(frame, 30);
	assert_true(v[0] == -10.0f);
	/* the clip loops: the last word is the end Top's 0xfffffffe */
	assert_int_equal(rd_u32le(p + plen - 4), 0xfffffffeu);
	free(file);
}

static void chunk_check_names_the_first_bad(void **state)
{
	(void)state;
	struct ccsw_ctl ctls[2] = {
		{ .kind = CCSW_CTL_OBJECT, .target = 3, .field = {
		  [1] = { .mode = 5 } } },
		{ .kind = CCSW_CTL_MATERIAL, .target = 4, .field = {
		  [0] = { .mode = CCSW_KEYED, .key_count = 0,
			  .count_lie = 1000 } } },
	};
	const uint8_t *p;
	size_t plen;
	uint8_t *file = write_clip(ctls, 2, &p, &plen);
	struct reason why = { "" };
	assert_int_equal(anime_chunk_check(p, plen, &why), -EIO);
	assert_string_equal(why.text, "object-ctl at +0x18: rotation: selector 5 "
				 "(only 0, 1 and 2 are known)");
	free(file);
	file = write_clip(ctls + 1, 1, &p, &plen);
	assert_int_equal(anime_chunk_check(p, plen, &why), -EIO);
	assert_string_equal(why.text, "material-ctl at +0x18: u: 1000 keys need "
				 "8000 bytes, 0 left");
	free(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(object_fields_by_selector),
		cmocka_unit_test(object_text),
		cmocka_unit_test(light_colour_is_bytes),
		cmocka_unit_test(selector_three_to_seven_refused),
		cmocka_unit_test(counts_past_the_record_refused),
		cmocka_unit_test(spot_light_has_no_layout),
		cmocka_unit_test(generator_round_trip),
		cmocka_unit_test(chunk_check_names_the_first_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
