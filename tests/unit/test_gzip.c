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

static void inflates_good_member(void **state)
{
	(void)state;
	uint8_t *data = sample_data();
	size_t mlen;
	uint64_t extent;
	struct blob b = member_blob(data, DATA_LEN, GZW_GOOD, &mlen, &extent);
	uint8_t *out;
	size_t out_len;
	struct gzip_result r;
	assert_int_equal(gzip_inflate_member(&b, 0, extent, 1 << 30, &out,
					     &out_len, &r), 0);
	assert_int_equal(out_len, DATA_LEN);
	assert_memory_equal(out, data, DATA_LEN);
	assert_int_equal(r.compressed, mlen);
	assert_int_equal(r.isize, DATA_LEN);
	assert_true(r.padding_clean);
	assert_string_equal(r.error, "");
	/* Checking only gives the same facts without the bytes. */
	struct gzip_result v;
	assert_int_equal(gzip_inflate_member(&b, 0, extent, 1 << 30, NULL,
					     NULL, &v), 0);
	assert_int_equal(v.compressed, mlen);
	assert_int_equal(v.crc, r.crc);
	free(out);
	free(data);
	blob_close(&b);
}

static void bad_crc_keeps_bytes_and_fails(void **state)
{
	(void)state;
	uint8_t *data = sample_data();
	size_t mlen;
	uint64_t extent;
	struct blob b = member_blob(data, DATA_LEN, GZW_BAD_CRC, &mlen, &extent);
	uint8_t *out;
	size_t out_len;
	struct gzip_result r;
	assert_int_equal(gzip_inflate_member(&b, 0, extent, 1 << 30, &out,
					     &out_len, &r), -EIO);
	assert_non_null(strstr(r.error, "incorrect data check"));
	assert_int_equal(out_len, DATA_LEN);
	assert_memory_equal(out, data, DATA_LEN);
	free(out);
	free(data);
	blob_close(&b);
}

static void bad_isize_fails(void **state)
{
	(void)state;
	uint8_t *data = sample_data();
	size_t mlen;
	uint64_t extent;
	struct blob b = member_blob(data, DATA_LEN, GZW_BAD_ISIZE, &mlen, &extent);
	uint8_t *out;
	size_t out_len;
	struct gzip_result r;
	assert_int_equal(gzip_inflate_member(&b, 0, extent, 1 << 30, &out,
					     &out_len, &r), -EIO);
	assert_non_null(strstr(r.error, "incorrect length check"));
	free(out);
	free(data);
	blob_close(&b);
}

static void cut_member_gives_what_came_before(void **state)
{
	(void)state;
	uint8_t *data = sample_data();
	size_t mlen;
	uint64_t extent;
	struct blob b = member_blob(data, DATA_LEN, GZW_CUT, &mlen, &extent);
	uint8_t *out;
	size_t out_len;
	struct gzip_result r;
	int rc = gzip_inflate_member(&b, 0, extent, 1 << 30, &out, &out_len, &r);
	assert_int_equal(rc, -EIO);
	assert_true(r.error[0] != '\0');
	assert_true(out_len < DATA_LEN);
	if (out_len)
		assert_memory_equal(out, data, out_len);
	free(out);
	free(data);
	blob_close(&b);
}

static void over_the_cap_is_efbig(void **state)
{
	(void)state;
	uint8_t *data = sample_data();
	size_t mlen;
	uint64_t extent;
	struct blob b = member_blob(data, DATA_LEN, GZW_GOOD, &mlen, &extent);
	uint8_t *out;
	size_t out_len;
	struct gzip_result r;
	assert_int_equal(gzip_inflate_member(&b, 0, extent, 4096, &out,
					     &out_len, &r), -EFBIG);
	assert_true(out_len <= 4096);
	free(out);
	free(data);
	blob_close(&b);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(inflates_good_member),
		cmocka_unit_test(bad_crc_keeps_bytes_and_fails),
		cmocka_unit_test(bad_isize_fails),
		cmocka_unit_test(cut_member_gives_what_came_before),
		cmocka_unit_test(over_the_cap_is_efbig),
		cmocka_unit_test(bytes_after_member_are_noticed),
		cmocka_unit_test(parses_headers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
