/* SPDX-License-Identifier: MIT */
/* copy.h - bytes streamed from the source to the output, never held: a
 * run copied by the kernel (copy_file_range) where it can, else through
 * one 1 MiB buffer, so the pack's memory does not grow with the disc. */
#ifndef CCSFS_PACK_COPY_H
#define CCSFS_PACK_COPY_H

#include <stddef.h>
#include <stdint.h>

/* What was written so far, for a progress line. */
struct pack_progress {
	uint64_t done, total;
	void (*show)(const struct pack_progress *pg, void *ctx);
	void *ctx;
};

/* n bytes at in_off of in to out_off of out.  0; -EIO when in ends
 * first; another negative errno. */
int pack_copy(int in, uint64_t in_off, int out, uint64_t out_off,
	      uint64_t n, struct pack_progress *pg);
/* n bytes of p written at off. */
int pack_copy_bytes(int out, const void *p, size_t n, uint64_t off,
		    struct pack_progress *pg);
/* n zero bytes written at off. */
int pack_copy_zeros(int out, uint64_t off, uint64_t n,
		    struct pack_progress *pg);

#endif
