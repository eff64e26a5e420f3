/* SPDX-License-Identifier: MIT */
/* model_build.c - the fake scene, chunks and OBJ readers of the model.obj
 * tests. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ccsw.h"
#include "decode/model/model.h"
#include "model_build.h"
#include "testutil.h"

/* ---- a fake scene ------------------------------------------------------ */

static const char *const names[O_COUNT] = {
	[O_MODEL] = "MDL_box", [O_MMAT_NAME] = "MDL_box_0",
	[O_MAT_WOOD] = "MAT_wood", [O_TEX_WOOD] = "TEX_wood",
	[O_MAT_GLASS] = "MAT_glass pane", [O_TEX_NOIMAGE] = "TEX_noimage",
	[O_MAT_NOCHUNK] = "MAT_nochunk", [O_HIT] = "HIT_floor",
};

static const char *fake_name(void *ctx, uint32_t i)
{
	(void)ctx;
	return i > 0 && i < O_COUNT ? names[i] : NULL;
}

static int fake_material(void *ctx, uint32_t m, uint32_t *tex, float *tp)
{
	(void)ctx;
	if (m == O_MAT_WOOD) {
		*tex = O_TEX_WOOD;
		*tp = 1.0f;
		return 0;
	}
	if (m == O_MAT_GLASS) {
		*tex = O_TEX_NOIMAGE;
		*tp = 0.25f;
		return 0;
	}
	return -ENOENT;
}

static const char *fake_texture_path(void *ctx, uint32_t t)
{
	(void)ctx;
	return t == O_TEX_WOOD ? "../TEX_wood/texture.png" : NULL;
}

const struct model_env env = {
	NULL, fake_name, fake_material, fake_texture_path,
};

/* ---- building chunks --------------------------------------------------- */

struct ccsw *new_writer(uint16_t version)
{
	struct ccsw *w = ccsw_new("model", version);
	uint32_t f = ccsw_file(w, " c:\\art\\box.max");
	for (int i = 1; i < O_COUNT; i++)
		assert_int_equal(ccsw_object_str(w, names[i], f), i);
	ccsw_setup(w);
	return w;
}

/* The first chunk of `kind` in the finished file, copied out. */
struct chunk finish_chunk(struct ccsw *w, uint16_t kind)
{
	ccsw_frame(w, 1);
	ccsw_end(w);
	size_t len;
	uint8_t *file = ccsw_finish(w, &len);
	struct chunk c = { NULL, 0 };
	for (size_t i = 0; i < ccsw_chunk_count(w); i++) {
		const struct ccsw_chunk_info *ci = ccsw_chunk_at(w, i);
		if (ci->kind != kind)
			continue;
		c.len = ci->length;
		c.p = malloc(c.len);
		assert_non_null(c.p);
		memcpy(c.p, file + ci->offset, c.len);
		break;
	}
	assert_non_null(c.p);
	free(file);
	ccsw_free(w);
	return c;
}

struct chunk model_chunk(uint16_t version, const struct ccsw_model *m)
{
	struct ccsw *w = new_writer(version);
	ccsw_model(w, m);
	return finish_chunk(w, CCSW_MODEL);
}

char *finish_text(struct strbuf *sb)
{
	uint8_t *data;
	size_t n;
	assert_int_equal(sb_finish(sb, &data, &n), 0);
	char *text = malloc(n + 1);
	assert_non_null(text);
	if (n)
		memcpy(text, data, n);
	text[n] = '\0';
	free(data);
	return text;
}

struct output run_model(const struct chunk *c, uint16_t version)
{
	struct output o;
	struct strbuf obj = STRBUF_INIT, mtl = STRBUF_INIT;
	o.rc = model_obj(c->p, c->len, version, &env, &obj, &mtl, &o.why);
	o.obj = finish_text(&obj);
	o.mtl = finish_text(&mtl);
	/* The listing's check says the same of every chunk, unmade. */
	struct reason why = { "" };
	assert_int_equal(model_check(c->p, c->len, version, &why), o.rc);
	assert_string_equal(why.text, o.why.text);
	/* A listing measures model.obj, and makes model.mtl without the
	 * OBJ's text: the same size, the same MTL. */
	struct strbuf counted, mtl_only = STRBUF_INIT;
	sb_init_measure(&counted);
	struct reason why2 = { "" };
	assert_int_equal(model_obj(c->p, c->len, version, &env, &counted,
				   NULL, &why2), o.rc);
	size_t measured = 0;
	assert_int_equal(sb_finish(&counted, NULL, &measured), 0);
	assert_int_equal(measured, strlen(o.obj));
	assert_int_equal(model_obj(c->p, c->len, version, &env, NULL,
				   &mtl_only, &why2), o.rc);
	char *m = finish_text(&mtl_only);
	assert_string_equal(m, o.mtl);
	free(m);
	return o;
}

void output_free(struct output *o)
{
	free(o->obj);
	free(o->mtl);
}

/* ---- reading OBJ text back --------------------------------------------- */

/* The lines starting with `prefix` (e.g. "f "), joined by '\n'. */
char *lines_with(const char *text, const char *prefix)
{
	size_t n = strlen(prefix), cap = strlen(text) + 1, len = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (strncmp(p, prefix, n) == 0) {
			memcpy(out + len, p, l);
			len += l;
			out[len++] = '\n';
		}
		p += l + (e ? 1 : 0);
	}
	out[len] = '\0';
	return out;
}

void expect_lines(const char *text, const char *prefix, const char *want)
{
	char *got = lines_with(text, prefix);
	if (strcmp(got, want) != 0)
		fail_msg("lines \"%s\":\n%s\nwanted:\n%s\nin:\n%s", prefix, got,
			 want, text);
	free(got);
}

/* The numbers of the k-th line starting with prefix ("v "). */
int numbers_of(const char *text, const char *prefix, int k,
	       double *out, int max)
{
	size_t n = strlen(prefix);
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		if (strncmp(p, prefix, n) == 0 && k-- == 0) {
			int count = 0;
			const char *q = p + n;
			while (count < max && q < e) {
				char *end;
				out[count] = strtod(q, &end);
				if (end == q)
					break;
				count++;
				q = end;
			}
			return count;
		}
		if (!e)
			break;
		p = e + 1;
	}
	fail_msg("no line %d starting \"%s\"", k, prefix);
	return 0;
}

/* Within 6 significant digits of the single-precision value. */
static void expect_close(double got, float want)
{
	double tol = fabs((double)want) * 1e-6;
	if (fabs(got - (double)want) > tol)
		fail_msg("got %.9g, wanted %.9g", got, (double)want);
}

/* lround() without libm, which the unit tests do not link. */
static long nearest(double x)
{
	return (long)(x < 0 ? x - 0.5 : x + 0.5);
}

static float scaled(int16_t s, float scale)
{
	return (float)s / 4096.0f * scale;
}

/* ---- rigid ------------------------------------------------------------- */

static const uint32_t strip_flags[8] = { 1, 1, 0, 0, 0, 1, 1, 0 };

const int16_t box_pos[8 * 3] = {
	0, 0, 0,  4096, 0, 0,  0, 4096, 0,  4096, 4096, 0,
	-32768, 32767, 1,  -1, 12345, -4096,  100, 200, 300,  7, -7, 8191,
};

void box_arrays(uint32_t normal[8], uint32_t colour[8], uint32_t st[8])
{
	for (uint32_t i = 0; i < 8; i++) {
		int8_t nx = (int8_t)(i * 9 - 30), ny = (int8_t)-64;
		int8_t nz = (int8_t)(i == 7 ? 63 : 1);
		normal[i] = (uint8_t)nx | (uint32_t)(uint8_t)ny << 8 |
			    (uint32_t)(uint8_t)nz << 16 | strip_flags[i] << 24;
		colour[i] = (0x80 + i) | (0x40u - i) << 8 | 0xffu << 16 |
			    0x80u << 24;
		st[i] = (i * 128) | (uint32_t)(65535 - i * 300) << 16;
	}
}

const char box_faces[] =
	"f 2/2/2 1/1/1 3/3/3\n"
	"f 2/2/2 3/3/3 4/4/4\n"
	"f 4/4/4 3/3/3 5/5/5\n"
	"f 7/7/7 6/6/6 8/8/8\n";

struct chunk box_chunk(uint16_t version, uint16_t mtype, float scale,
		       uint32_t material)
{
	uint32_t normal[8], colour[8], st[8];
	box_arrays(normal, colour, st);
	struct ccsw_mmat mm = {
		.name = O_MMAT_NAME, .material = material, .vertices = 8,
		.pos = box_pos, .normal = normal, .colour = colour, .st = st,
	};
	struct ccsw_model m = {
		.object = O_MODEL, .vertex_scale = scale, .mtype = mtype,
		.mmat_count = 1, .mmats = &mm, .size_field = CCSW_SIZE_AUTO,
	};
	return model_chunk(version, &m);
}

void check_positions(const char *obj, float scale, int base)
{
	for (int i = 0; i < 8; i++) {
		double v[6];
		assert_true(numbers_of(obj, "v ", base + i, v, 6) >= 3);
		for (int k = 0; k < 3; k++) {
			float want = scaled(box_pos[3 * i + k], scale);
			expect_close(v[k], want);
			/* and the source s16 comes back */
			if (scale != 0.0f)
				assert_int_equal(nearest(v[k] * 4096.0 / scale),
						 box_pos[3 * i + k]);
		}
	}
}
