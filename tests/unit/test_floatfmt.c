/* SPDX-License-Identifier: MIT */
/* test_floatfmt.c - the float formatter against printf and strtof: "%.9g"
 * to the byte, and the shortest text reading back as the same float with
 * no shorter one that does, over millions of floats of every exponent. */
#include "config.h"

#include "testutil.h"
#include "util/floatfmt.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float edges[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 0.1f, 1e-5f, 1e-4f, 0.0001234f,
	123456792.0f, 999999999.0f, 1e9f, 1e10f, FLT_MAX, -FLT_MAX, FLT_MIN,
	1.4e-45f, 123.456f, 1e-45f, 99999.9961f, 0.000099999f, 16777216.0f,
	16777217.0f, 16777218.0f, 4294967296.0f, 1e16f, 9.999999e15f, 1e-6f,
	9.99999e-6f, 0.99999997f, 1.17549421e-38f /* largest subnormal */,
	1950125.125f /* a tie at the ninth digit */, 3e-45f, 0.3f, 2.5e-7f,
	1.0f / 0.0f, -1.0f / 0.0f,
};

static uint32_t xorshift(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static float from_bits(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static void check_g9(float f)
{
	char want[64], got[FLOATFMT_MAX];
	snprintf(want, sizeof want, "%.9g", (double)f);
	size_t n = floatfmt_g9(f, got);
	assert_int_equal(n, strlen(got));
	assert_int_equal(floatfmt_g9_len(f), n);
	if (strcmp(want, got) != 0)
		fail_msg("%a: \"%s\", want \"%s\"", (double)f, got, want);
}

/* Significant digits of a decimal text: those from the first nonzero one
 * to the last nonzero one before any exponent. */
static int sig_digits(const char *s)
{
	int first = -1, last = -1, i = 0;
	for (const char *p = s; *p && *p != 'e'; p++) {
		if (*p < '0' || *p > '9')
			continue;
		if (*p != '0') {
			if (first < 0)
				first = i;
			last = i;
		}
		i++;
	}
	return first < 0 ? 1 : last - first + 1;
}

/* No decimal of n digits reads back as f: the n-digit rounding and its
 * neighbours are the only candidates. */
static bool none_of_digits(float f, int n)
{
	char s[64];
	snprintf(s, sizeof s, "%.*e", n - 1, (double)fabsf(f));
	char *x = strchr(s, 'e');
	if (!x)
		return false;
	int e = atoi(x + 1);
	long long c0 = 0;           /* the digits without the point */
	for (char *p = s; p < x; p++)
		if (*p >= '0' && *p <= '9')
			c0 = c0 * 10 + (*p - '0');
	for (long long c = c0 - 1; c <= c0 + 1; c++) {
		snprintf(s, sizeof s, "%llde%d", c, e - n + 1);
		if (c > 0 && strtof(s, NULL) == fabsf(f))
			return false;
	}
	return true;
}

static void check_shortest(float f)
{
	char got[FLOATFMT_MAX + 8];
	memset(got, 'x', sizeof got);
	char *end = floatfmt_shortest(got, f);
	assert_true(end > got && end - got <= 17);
	assert_int_equal(floatfmt_shortest_len(f), (size_t)(end - got));
	for (size_t i = FLOATFMT_MAX; i < sizeof got; i++)
		assert_int_equal(got[i], 'x');  /* nothing past its room */
	*end = '\0';
	float back = strtof(got, NULL);
	if (isnan(f)) {
		assert_string_equal(got, "nan");
		return;
	}
	if (back != f)
		fail_msg("%a: \"%s\" reads back as %a", (double)f, got,
			 (double)back);
	int n = sig_digits(got);
	if (f != 0 && !isinf(f) && n > 1 && !none_of_digits(f, n - 1))
		fail_msg("%a: \"%s\" is not the shortest", (double)f, got);
}

static void edge_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) {
		check_g9(edges[i]);
		check_shortest(edges[i]);
	}
	char got[FLOATFMT_MAX];
	floatfmt_g9(0.0f / 0.0f, got);
	assert_true(strcmp(got, "nan") == 0 || strcmp(got, "-nan") == 0);
	check_shortest(0.0f / 0.0f);
}

/* The layout: plain from 1e-5 to below 1e16, exponent form outside. */
static void shortest_text(void **state)
{
	(void)state;
	static const struct {
		float f;
		const char *text;
	} want[] = {
		{ 0.0f, "0" }, { -0.0f, "0" }, { 1.0f, "1" }, { -0.5f, "-0.5" },
		{ 0.1f, "0.1" }, { 0.3f, "0.3" }, { 1e-5f, "0.00001" },
		{ 1e-6f, "1e-06" }, { 123.456f, "123.456" },
		{ 16777216.0f, "16777216" }, { 16777218.0f, "16777218" },
		{ 1e15f, "1000000000000000" }, { 1e16f, "1e+16" },
		{ FLT_MAX, "3.4028235e+38" }, { 1.4e-45f, "1e-45" },
		{ FLT_MIN, "1.1754944e-38" }, { 99999.9921875f, "99999.99" },
		{ 1.0f / 0.0f, "inf" }, { -1.0f / 0.0f, "-inf" },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		char got[FLOATFMT_MAX];
		*floatfmt_shortest(got, want[i].f) = '\0';
		assert_string_equal(got, want[i].text);
	}
}

/* Every exponent, random mantissas: both texts. */
static void random_floats(void **state)
{
	(void)state;
	uint32_t x = 2463534242u;
	for (int i = 0; i < 2000000; i++) {
		float f = from_bits(xorshift(&x));
		if (isnan(f))
			continue;
		check_g9(f);
		check_shortest(f);
	}
}

/* Runs of consecutive floats where the text changes shape: near 1, the
 * layout's edges, powers of two (the narrower gap below) and the
 * subnormals' start. */
static void consecutive_floats(void **state)
{
	(void)state;
	static const float starts[] = {
		1.0f, 1e-5f, 1e16f, 1e-4f, 1e9f, 0.5f, 8388608.0f, FLT_MIN,
		1.4e-45f, 3.0e38f,
	};
	for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
		uint32_t b;
		memcpy(&b, &starts[i], sizeof b);
		for (uint32_t k = 0; k < 40000; k++) {
			check_g9(from_bits(b - 20000 + k));
			check_shortest(from_bits(b - 20000 + k));
		}
	}
	/* The OBJ positions: s16 * scale / 4096 for common scales. */
	static const float scales[] = { 1.0f, 0.1f, 0.01f, 2.5f, 1.0f / 3 };
	for (size_t i = 0; i < sizeof scales / sizeof *scales; i++)
		for (int v = -32768; v < 32768; v++)
			check_shortest((float)v / 4096.0f * scales[i]);
}

/* The formatter keeps its recent texts by the float's bits: a float met
 * again, after thousands of others sharing its slot, gets its own text,
 * and a float that takes the slot of a longer one writes only its own.
 * The first round's texts are checked as any (read back, shortest). */
static void repeated_floats(void **state)
{
	(void)state;
	enum { N = 20000 };
	static float f[N];
	static char first[N][FLOATFMT_MAX];
	uint32_t x = 88172645u;
	for (int i = 0; i < N; i++) {
		f[i] = i % 2 ? (float)(int16_t)xorshift(&x) / 4096.0f
			     : from_bits(xorshift(&x) & 0xbfffffffu);
		check_shortest(f[i]);
		*floatfmt_shortest(first[i], f[i]) = '\0';
	}
	for (int round = 0; round < 3; round++)
		for (int k = 0; k < N; k++) {
			int i = (int)(xorshift(&x) % N);
			char got[FLOATFMT_MAX];
			char *end = floatfmt_shortest(got, f[i]);
			*end = '\0';
			assert_string_equal(got, first[i]);
			assert_int_equal(floatfmt_shortest_len(f[i]),
					 strlen(first[i]));
		}
}

/* Exact ties at the ninth digit, common in a model's positions (odd
 * multiples of 1/4096 below 0.004 are all ties): printf rounds them to
 * the even digit, and so must the formatter, which decides them without
 * printf. */
static void ties_to_even(void **state)
{
	(void)state;
	char got[FLOATFMT_MAX];
	floatfmt_g9(5.0f / 4096, got);
	assert_string_equal(got, "0.00122070312");     /* ...3125: down */
	floatfmt_g9(7.0f / 4096, got);
	assert_string_equal(got, "0.00170898438");     /* ...4375: up */
	floatfmt_g9(-11.0f / 4096, got);
	assert_string_equal(got, "-0.00268554688");
	static const float scales[] = { 1.0f, 0.1f, 0.01f, 2.5f, 1.0f / 3,
					 64.0f };
	for (size_t i = 0; i < sizeof scales / sizeof *scales; i++)
		for (int v = -32768; v < 32768; v++)
			check_g9((float)v / 4096.0f * scales[i]);
}

/* Both texts are the C locale's whatever the process's (where a locale
 * with a decimal comma is installed; else in C, as the daemon runs). */
static void any_locale(void **state)
{
	(void)state;
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8"))
		setlocale(LC_NUMERIC, "fr_FR.UTF-8");
	char got[FLOATFMT_MAX];
	floatfmt_g9(1950125.125f, got);
	assert_string_equal(got, "1950125.12");
	floatfmt_g9(0.25f, got);
	assert_string_equal(got, "0.25");
	*floatfmt_shortest(got, 0.25f) = '\0';
	assert_string_equal(got, "0.25");
	setlocale(LC_NUMERIC, "C");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edge_cases),
		cmocka_unit_test(shortest_text),
		cmocka_unit_test(random_floats),
		cmocka_unit_test(consecutive_floats),
		cmocka_unit_test(repeated_floats),
		cmocka_unit_test(ties_to_even),
		cmocka_unit_test(any_locale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
