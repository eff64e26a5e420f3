/* SPDX-License-Identifier: MIT */
/* test_gzip.c - member headers and inflation: good, broken, too big. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "testutil.h"
#include "archive/gzip.h"
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
	assert_string_equal(t.r.error.text, "");
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
	assert_non_null(strstr(t.r.error.text, "incorrect data check"));
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
	assert_non_null(strstr(t.r.error.text, "incorrect length check"));
	trial_end(&t);
}

static void cut_member_gives_what_came_before(void **state)
{
	(void)state;
	struct trial t;
	trial_run(&t, GZW_CUT, 1 << 30);
	assert_int_equal(t.rc, -EIO);
	assert_non_null(strstr(t.r.error.text, "cut off"));
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

/* ---- claims that would take gigabytes if believed ---- */

/* A figure of /proc/self/status ("VmHWM", "VmPeak") in KiB, or -1. */
static long status_kb(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	long kb = -1;
	size_t n = strlen(field);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, field, n) == 0 && line[n] == ':' &&
		    sscanf(line + n + 1, "%ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* The process's peak resident memory (VmHWM) in KiB, after resetting it
 * (clear_refs 5, Linux 4.0 on); -1 when either is not possible. */
static long peak_rss_kb(bool reset)
{
	if (reset) {
		FILE *f = fopen("/proc/self/clear_refs", "w");
		if (!f)
			return -1;
		bool ok = fputs("5", f) >= 0;
		if (fclose(f) != 0 || !ok)
			return -1;
	}
	return status_kb("VmHWM");
}

/* The process's peak virtual size (VmPeak) in KiB, or -1. */
static long peak_vm_kb(void)
{
	return status_kb("VmPeak");
}

/* Inflating reserves about what the member inflates to, not what a
 * misread trailer says: libdeflate's buffer was the largest of the nine
 * readings of ISIZE within the cap, the true one shifted in over CRC
 * bytes, 256 or 65536 times too large (600 MB for a 9 KB member).  Runs
 * first, while the peak is the start's; under ASan or valgrind, whose
 * reservations dwarf it, VmPeak tells nothing and is not checked. */
static void reserves_about_the_member(void **state)
{
	(void)state;
	long before = peak_vm_kb();
	struct trial t;
	trial_run(&t, GZW_GOOD, 1 << 30);
	long after = peak_vm_kb();
	assert_int_equal(t.rc, 0);
	assert_int_equal(t.out_len, DATA_LEN);
	if (before > 0 && before < (1L << 30))
		assert_true(after - before < 8 * 1024);
	trial_end(&t);
}

/* A member of `zeros` zero bytes, deflated in pieces so the test never
 * holds them, whose trailer's ISIZE is then set to `isize`; padded to a
 * sector as in an archive. */
static struct blob zero_bomb(uint64_t zeros, uint32_t isize, uint64_t *extent)
{
	static const uint8_t piece[64 * 1024];
	z_stream z;
	memset(&z, 0, sizeof z);
	/* Run-length matches only: fast, and about 1000:1 on zeros. */
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
				      Z_RLE), Z_OK);
	size_t cap = zeros / 512 + 65536, len = 0;
	uint8_t *out = malloc(cap);
	assert_non_null(out);
	uint64_t left = zeros;
	int zr;
	do {
		size_t n = left < sizeof piece ? (size_t)left : sizeof piece;
		left -= n;
		z.next_in = (Bytef *)(uintptr_t)piece;
		z.avail_in = (uInt)n;
		do {
			z.next_out = out + len;
			z.avail_out = (uInt)(cap - len);
			zr = deflate(&z, left ? Z_NO_FLUSH : Z_FINISH);
			assert_true(zr == Z_OK || zr == Z_STREAM_END ||
				    zr == Z_BUF_ERROR);
			len = cap - z.avail_out;
			assert_true(len < cap);
		} while (z.avail_in || (!left && zr != Z_STREAM_END));
	} while (left);
	deflateEnd(&z);
	uint8_t *t = out + len - 4;
	t[0] = (uint8_t)isize;
	t[1] = (uint8_t)(isize >> 8);
	t[2] = (uint8_t)(isize >> 16);
	t[3] = (uint8_t)(isize >> 24);
	*extent = (len / 2048 + 1) * 2048;
	uint8_t *padded = calloc(1, (size_t)*extent);
	assert_non_null(padded);
	memcpy(padded, out, len);
	struct blob b = blob_from_bytes(padded, (size_t)*extent);
	free(padded);
	free(out);
	return b;
}

#define BOMB_ZEROS ((uint64_t)128 << 20)
#define BOMB_CAP ((size_t)1 << 20)
/* What inflating up to BOMB_CAP may cost besides: far below the bomb. */
#define BOMB_RSS_KB (32 * 1024)

/* 128 MiB of zeros (128 KiB compressed) against a 1 MiB cap, with an
 * honest ISIZE and with one claiming 4 GiB: -EFBIG, with no more than
 * the cap inflated and no more memory taken than the cap, whatever the
 * trailer says.  Checking only refuses it the same way. */
static void bomb_over_the_cap(uint32_t isize)
{
	uint64_t extent;
	struct blob b = zero_bomb(BOMB_ZEROS, isize, &extent);
	long before = peak_rss_kb(true);
	uint8_t *out = NULL;
	size_t out_len = 0;
	struct gzip_result r;
	int rc = gzip_inflate_member(&b, 0, extent, BOMB_CAP, &out, &out_len,
				     &r);
	long peak = peak_rss_kb(false);
	assert_int_equal(rc, -EFBIG);
	assert_non_null(strstr(r.error.text, "inflates to more than 1048576 bytes"));
	assert_true(out_len <= BOMB_CAP);
	if (before >= 0 && peak >= 0)
		assert_true(peak - before < BOMB_RSS_KB);
	free(out);
	assert_int_equal(gzip_inflate_member(&b, 0, extent, BOMB_CAP, NULL,
					     NULL, &r), -EFBIG);
	blob_close(&b);
}

static void bomb_is_efbig_not_allocated(void **state)
{
	(void)state;
	bomb_over_the_cap((uint32_t)BOMB_ZEROS);
}

static void bomb_claiming_4gib_is_efbig(void **state)
{
	(void)state;
	bomb_over_the_cap(0xffffffffu);
}

/* A small member whose ISIZE claims 4 GiB: nothing is sized by the claim
 * (the cap is 1 GiB here, the claim above it); it fails as a length
 * mismatch naming both numbers, and keeps its bytes. */
static void isize_claiming_4gib_fails_small(void **state)
{
	(void)state;
	uint8_t *data = sample_data();
	struct gzw_opts o = { 6, 0, GZW_HUGE_ISIZE };
	size_t n;
	uint8_t *m = gzw_member("a.cmp", data, DATA_LEN, &o, &n);
	uint8_t *buf = calloc(1, n + 2048);
	memcpy(buf, m, n);
	struct blob b = blob_from_bytes(buf, n + 2048);
	long before = peak_rss_kb(true);
	uint8_t *out = NULL;
	size_t out_len = 0;
	struct gzip_result r;
	assert_int_equal(gzip_inflate_member(&b, 0, n + 2048, (size_t)1 << 30,
					     &out, &out_len, &r), -EIO);
	long peak = peak_rss_kb(false);
	assert_non_null(strstr(r.error.text, "incorrect length check: ISIZE claims "
				       "4294967295 bytes, the data inflates "
				       "to 100000"));
	assert_int_equal(out_len, DATA_LEN);
	assert_memory_equal(out, data, DATA_LEN);
	if (before >= 0 && peak >= 0)
		assert_true(peak - before < 16 * 1024);
	assert_int_equal(gzip_inflate_member(&b, 0, n + 2048, (size_t)1 << 30,
					     NULL, NULL, &r), -EIO);
	assert_non_null(strstr(r.error.text, "ISIZE claims 4294967295"));
	free(out);
	free(buf);
	free(m);
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

/* A header with FHCRC (not the archives' form): its CRC16 checked on
 * both paths, a wrong one refused with the same reason, a right one
 * inflated.  libdeflate skipped the check (found by fuzz/fuzz_gzip). */
static void header_crc_is_checked(void **state)
{
	(void)state;
	static const uint8_t text[] = "header crc";
	struct gzw_opts o = { 6, 0, GZW_GOOD };
	size_t n;
	uint8_t *m = gzw_member("", text, sizeof text, &o, &n);
	uint8_t *buf = malloc(n + 2);
	memcpy(buf, m, 10);
	buf[3] = 0x02;                          /* FHCRC, no name */
	uint16_t crc = (uint16_t)crc32(0, buf, 10);
	size_t deflate = m[3] & 0x08 ? 10 + strlen((const char *)m + 10) + 1 : 10;
	memcpy(buf + 12, m + deflate, n - deflate);
	size_t len = 12 + n - deflate;
	for (int wrong = 0; wrong < 2; wrong++) {
		uint16_t c = (uint16_t)(crc ^ wrong);
		buf[10] = (uint8_t)c;
		buf[11] = (uint8_t)(c >> 8);
		struct blob b = blob_from_bytes(buf, len);
		struct gzip_result r;
		uint8_t *out = NULL;
		size_t out_len = 0;
		int rc = gzip_inflate_member(&b, 0, len, 1 << 20, &out,
					     &out_len, &r);
		if (wrong) {
			assert_int_equal(rc, -EIO);
			assert_string_equal(r.error.text, "header crc mismatch");
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(out_len, sizeof text);
			assert_memory_equal(out, text, sizeof text);
		}
		free(out);
		blob_close(&b);
	}
	free(buf);
	free(m);
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

/* A name of GZIP_NAME_MAX bytes fits h.name with its NUL; one byte more
 * is refused, never written past the field (the fuzzer found that). */
static void name_of_the_longest_length(void **state)
{
	(void)state;
	uint8_t hdr[10 + GZIP_NAME_MAX + 2 + 4];
	static const uint8_t head[10] = { 0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3 };
	for (size_t n = GZIP_NAME_MAX - 1; n <= GZIP_NAME_MAX + 1; n++) {
		memset(hdr, 0xaa, sizeof hdr);
		memcpy(hdr, head, sizeof head);
		memset(hdr + 10, 'x', n);
		hdr[10 + n] = 0;
		struct gzip_header h;
		int rc = gzip_parse_header(hdr, sizeof hdr, &h);
		if (n <= GZIP_NAME_MAX) {
			assert_int_equal(rc, 0);
			assert_int_equal(strlen(h.name), n);
			assert_int_equal(h.length, 10 + n + 1);
		} else {
			assert_int_equal(rc, -EINVAL);
		}
	}
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
		BOTH(reserves_about_the_member),
		BOTH(inflates_good_member),
		BOTH(bad_crc_keeps_bytes_and_fails),
		BOTH(bad_isize_fails),
		BOTH(cut_member_gives_what_came_before),
		BOTH(over_the_cap_is_efbig),
		BOTH(bytes_after_member_are_noticed),
		BOTH(bomb_is_efbig_not_allocated),
		BOTH(bomb_claiming_4gib_is_efbig),
		BOTH(isize_claiming_4gib_fails_small),
		BOTH(header_crc_is_checked),
		cmocka_unit_test(parses_headers),
		cmocka_unit_test(name_of_the_longest_length),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
