/* test_gzip.c - member headers and inflation: good, broken, too big. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "gzip.h"
#include "gzw.h"

#define DATA_LEN 100000

static uint8_t *sample_data(void)
{
	uint8_t *d = malloc(DATA_LEN);
	uint32_t x = 12345;
	for (size_t i = 0; i < DATA_LEN; i++) {
		x = x * 1103515245 + 12345;
		d[i] = (uint8_t)((i / 7) ^ ((x >> 16) & 3));
	}
	return d;
}

/* One member (padded as in an archive) in a memfd. */
static struct blob member_blob(const uint8_t *data, size_t len,
			       enum gzw_fault fault, size_t *member_len,
			       uint64_t *extent)
{
	struct gzw *a = gzw_mem();
	struct gzw_opts o = { 6, 1000000000, fault };
	struct gzw_added info;
	assert_int_equal(gzw_add(a, "xasc00.cmp", data, len, &o, &info), 0);
	size_t n;
	const uint8_t *bytes = gzw_mem_data(a, &n);
	struct blob b = blob_from_bytes(bytes, n);
	*member_len = info.length;
	*extent = n;
	gzw_close(a);
	return b;
}

/* One member with a fault, inflated with a cap. */
struct trial {
	uint8_t *data;
	struct blob b;
	size_t member_len;
	uint64_t extent;
	uint8_t *out;
	size_t out_len;
	struct gzip_result r;
	int rc;
};

static void trial_run(struct trial *t, enum gzw_fault fault, size_t max_out)
{
	t->data = sample_data();
	t->b = member_blob(t->data, DATA_LEN, fault, &t->member_len, &t->extent);
	t->rc = gzip_inflate_member(&t->b, 0, t->extent, max_out, &t->out,
				    &t->out_len, &t->r);
}

static void trial_end(struct trial *t)
{
	free(t->out);
	free(t->data);
	blob_close(&t->b);
}

static void inflates_good_member(void **state)
{
	(void)state;
	struct trial t;
	trial_run(&t, GZW_GOOD, 1 << 30);
	assert_int_equal(t.rc, 0);
	assert_int_equal(t.out_len, DATA_LEN);
	assert_memory_equal(t.out, t.data, DATA_LEN);
	assert_int_equal(t.r.compressed, t.member_len);
	assert_int_equal(t.r.isize, DATA_LEN);
	assert_true(t.r.padding_clean);
	assert_string_equal(t.r.error, "");
	/* Checking only gives the same facts without the bytes. */
	struct gzip_result v;
	assert_int_equal(gzip_inflate_member(&t.b, 0, t.extent, 1 << 30, NULL,
					     NULL, &v), 0);
	assert_int_equal(v.compressed, t.member_len);
	assert_int_equal(v.crc, t.r.crc);
	trial_end(&t);
}

static void bad_crc_keeps_bytes_and_fails(void **state)
{
	(void)state;
	struct trial t;
	trial_run(&t, GZW_BAD_CRC, 1 << 30);
	assert_int_equal(t.rc, -EIO);
	assert_non_null(strstr(t.r.error, "incorrect data check"));
	assert_int_equal(t.out_len, DATA_LEN);
	assert_memory_equal(t.out, t.data, DATA_LEN);
	trial_end(&t);
}

static void bad_isize_fails(void **state)
{
	(void)state;
	struct trial t;
	trial_run(&t, GZW_BAD_ISIZE, 1 << 30);
	assert_int_equal(t.rc, -EIO);
	assert_non_null(strstr(t.r.error, "incorrect length check"));
	trial_end(&t);
}

static void cut_member_gives_what_came_before(void **state)
{
	(void)state;
	struct trial t;
	trial_run(&t, GZW_CUT, 1 << 30);
	assert_int_equal(t.rc, -EIO);
	assert_non_null(strstr(t.r.error, "cut off"));
	assert_true(t.out_len > 0 && t.out_len < DATA_LEN);
	/* zlib may make a few wrong bytes of the bits just before the cut. */
	assert_memory_equal(t.out, t.data, t.out_len > 64 ? t.out_len - 64 : 0);
	trial_end(&t);
}

static void over_the_cap_is_efbig(void **state)
{
	(void)state;
	struct trial t;
	trial_run(&t, GZW_GOOD, 4096);
	assert_int_equal(t.rc, -EFBIG);
	assert_true(t.out_len <= 4096);
	trial_end(&t);
}

static void bytes_after_member_are_noticed(void **state)
{
	(void)state;
	uint8_t *data = sample_data();
	struct gzw_opts o = { 6, 0, GZW_GOOD };
	size_t n;
	uint8_t *m = gzw_member("a.cmp", data, DATA_LEN, &o, &n);
	uint8_t *buf = calloc(1, n + 100);
	memcpy(buf, m, n);
	buf[n + 50] = 0x55;
	struct blob b = blob_from_bytes(buf, n + 100);
	struct gzip_result r;
	assert_int_equal(gzip_inflate_member(&b, 0, n + 100, 1 << 30, NULL,
					     NULL, &r), 0);
	assert_false(r.padding_clean);
	free(buf);
	free(m);
	free(data);
	blob_close(&b);
}

static void parses_headers(void **state)
{
	(void)state;
	struct gzip_header h;
	const uint8_t good[] = { 0x1f, 0x8b, 8, 8, 1, 2, 3, 4, 0, 3,
				 'x', '.', 'c', 'm', 'p', 0, 0xaa };
	assert_int_equal(gzip_parse_header(good, sizeof good, &h), 0);
	assert_string_equal(h.name, "x.cmp");
	assert_int_equal(h.mtime, 0x04030201);
	assert_int_equal(h.length, 16);
	const uint8_t noname[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	assert_int_equal(gzip_parse_header(noname, sizeof noname, &h), 0);
	assert_false(h.has_name);
	uint8_t bad[sizeof good];
	memcpy(bad, good, sizeof good);
	bad[3] = 0x18;                          /* FCOMMENT */
	assert_int_equal(gzip_parse_header(bad, sizeof bad, &h), -EINVAL);
	memcpy(bad, good, sizeof good);
	bad[11] = 0x01;                         /* control byte in name */
	assert_int_equal(gzip_parse_header(bad, sizeof bad, &h), -EINVAL);
	/* A name without its NUL before the end of the bytes. */
	assert_int_equal(gzip_parse_header(good, 14, &h), -EINVAL);
	assert_int_equal(gzip_parse_header(good, 9, &h), -EINVAL);
	memcpy(bad, good, sizeof good);
	bad[2] = 7;                             /* not deflate */
	assert_int_equal(gzip_parse_header(bad, sizeof bad, &h), -EINVAL);
}

/* Every inflation test runs twice: libdeflate's path (when built with
 * it) and zlib's, which broken members and builds without it take. */
static int with_libdeflate(void **state)
{
	(void)state;
	gzip_use_libdeflate(true);
	return 0;
}

static int with_zlib(void **state)
{
	(void)state;
	gzip_use_libdeflate(false);
	return 0;
}

#define BOTH(t) cmocka_unit_test_setup(t, with_libdeflate), \
		cmocka_unit_test_setup(t, with_zlib)

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(inflates_good_member),
		BOTH(bad_crc_keeps_bytes_and_fails),
		BOTH(bad_isize_fails),
		BOTH(cut_member_gives_what_came_before),
		BOTH(over_the_cap_is_efbig),
		BOTH(bytes_after_member_are_noticed),
		cmocka_unit_test(parses_headers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
