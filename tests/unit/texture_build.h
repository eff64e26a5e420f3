/* SPDX-License-Identifier: MIT */
/* texture_build.h - what the texture test programs share: a file with one
 * CLUT and one texture from the generator, exact copies of its chunks,
 * and the setups that run a PNG test at each zlib level and writer. */
#ifndef CCSFS_TEXTURE_BUILD_H
#define CCSFS_TEXTURE_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsw.h"

/* ---- helpers ----------------------------------------------------------- */

/* A copy in a buffer of exactly n bytes, so ASan sees any overread. */
uint8_t *exact_copy(const uint8_t *p, size_t n);

struct scene {
	uint8_t *file;
	size_t len;
	uint16_t version;
	uint8_t *tex, *clut;            /* exact copies of the two chunks */
	size_t tex_len, clut_len;
};

/* A file with one CLUT and one texture; either may be NULL. */
void build(uint16_t version, const struct ccsw_texture *t,
	   const struct ccsw_clut *c, struct scene *s);
void scene_free(struct scene *s);
/* Texture 2 of CLUT 1 in this shape, the rest as xasc00's. */
struct ccsw_texture texture_desc(uint8_t psm, uint8_t tw, uint8_t th,
				 uint8_t mipmap, enum ccsw_pattern pattern);
/* CLUT 1 with count colours from seed. */
struct ccsw_clut clut_desc(uint32_t count, bool alpha_ramp, uint32_t seed);

/* A failed call's reason must name the part at fault. */
#define assert_reason(why, part) do { \
	if (!strstr((why), (part))) \
		fail_msg("reason \"%s\" does not mention \"%s\"", (why), \
			 (part)); \
} while (0)

/* ---- the writers ------------------------------------------------------- */

/* The zlib level the PNG tests write at (set by the setups below). */
extern int test_level;

/* Every test that writes a PNG runs three times: image data stored (the
 * default), compressed by libdeflate (when built with it) and by
 * libpng's zlib. */
int stored(void **state);
int with_libdeflate(void **state);
int with_zlib(void **state);

#define BOTH(t) cmocka_unit_test_setup(t, stored), \
		cmocka_unit_test_setup(t, with_libdeflate), \
		cmocka_unit_test_setup(t, with_zlib)

#endif
