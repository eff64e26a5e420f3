/* SPDX-License-Identifier: MIT */
/* iso_claim.h - each folder extent of a disc image shown at one place.
 *
 * Directory records are untrusted: two records may name one folder's
 * extent.  Records that point back at a folder they are inside make the
 * tree endless (source.c leaves those out), and records that share
 * extents without a loop make it grow as a power of the depth: thirty
 * folders each named twice by the one before list a billion paths, and
 * find never ends.  The first record to name an extent keeps it.
 */
#ifndef CCSFS_ISO_CLAIM_H
#define CCSFS_ISO_CLAIM_H

#include <stdint.h>

struct iso_claims;

struct iso_claims *iso_claims_new(void);
void iso_claims_free(struct iso_claims *c);

/* Claims the folder at extent lsn for the record `name` of the folder
 * at extent parent.  1 when it is this record's (now or since an earlier
 * listing of the same folder), 0 when another record has it (*owner: its
 * parent's extent), -ENOMEM.  Thread-safe. */
int iso_claim(struct iso_claims *c, uint32_t lsn, uint32_t parent,
	      const char *name, uint32_t *owner);

#endif
