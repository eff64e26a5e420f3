/* SPDX-License-Identifier: MIT */
/* checksum.h - CRC-32 and Adler-32 over a buffer, for the files ccsfs
 * makes (PNG chunks and their zlib streams).
 *
 * A stored PNG is a copy plus these two sums, so the sums are most of
 * the cost of making one.  libdeflate's versions use the CPU's carry-less
 * multiply and vector units and run several times faster than zlib's;
 * zlib's stay for builds without libdeflate.  Both compute the same
 * standard sums, so the files are byte-identical either way.
 */
#ifndef CCSFS_CHECKSUM_H
#define CCSFS_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#else
#include <zlib.h>
#endif

/* The running CRC-32 after n more bytes; start from 0. */
static inline uint32_t checksum_crc32(uint32_t crc, const void *p, size_t n)
{
#ifdef HAVE_LIBDEFLATE
	return libdeflate_crc32(crc, p, n);
#else
	return (uint32_t)crc32_z(crc, p, n);
#endif
}

/* The running Adler-32 after n more bytes; start from 1. */
static inline uint32_t checksum_adler32(uint32_t adler, const void *p,
					size_t n)
{
#ifdef HAVE_LIBDEFLATE
	return libdeflate_adler32(adler, p, n);
#else
	return (uint32_t)adler32_z(adler, p, n);
#endif
}

#endif
