/* SPDX-License-Identifier: MIT */
/* deflate.h - an edited member compressed again as the archives hold
 * their members (doc/formats/pack.md): one gzip member, FLG FNAME with
 * the member's own name, the edit's time, deflate at the best level the
 * build has (libdeflate's 12 where configure found it, else zlib's 9).
 */
#ifndef CCSFS_PACK_DEFLATE_H
#define CCSFS_PACK_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/* The gzip member of data[0..len) named name (printable ASCII, at most
 * GZIP_NAME_MAX bytes) into a malloc'ed *out of *out_len bytes.  0;
 * -EINVAL (a bad name, or more than 4 GiB: ISIZE would wrap), -ENOMEM. */
int pack_deflate_member(const uint8_t *data, size_t len, const char *name,
			uint32_t mtime, uint8_t **out, size_t *out_len);

#endif
