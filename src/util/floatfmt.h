/* SPDX-License-Identifier: MIT */
/* floatfmt.h - the one float formatter of the decoded files.
 *
 * Two texts of a float, both in the C locale whatever the user's (a file
 * whose bytes changed with the reader's locale would break `ls -l` sizes
 * and the cache), and both written by hand: the files print millions of
 * floats and snprintf was most of their cost.
 *
 * - floatfmt_g9: "%.9g" exactly, for the .txt dumps (nine significant
 *   digits read back as the same float, and the text is printf's).
 * - floatfmt_shortest: the fewest significant digits that read back as
 *   the same float (strtof), for OBJ and MTL, whose readers want short
 *   lines that lose nothing.
 */
#ifndef CCSFS_FLOATFMT_H
#define CCSFS_FLOATFMT_H

#include <stddef.h>

#include "util/strbuf.h"

/* Room either text takes, with a NUL ("-1.23456789e-38" and margin),
 * and what floatfmt_shortest may write at o: past the text's end it
 * leaves bytes that mean nothing. */
#define FLOATFMT_MAX 32

/* f as "%.9g" writes it in the C locale, NUL-ended; returns the length. */
size_t floatfmt_g9(float f, char *buf);
/* Its length, without the text: a listing's sizes of the model texts
 * need only that. */
size_t floatfmt_g9_len(float f);
void sb_put_float(struct strbuf *sb, float f);

/* f with the fewest significant digits that read back as f (the nearest
 * such decimal), no NUL; returns the end.  Needs FLOATFMT_MAX bytes of
 * room at o, whatever the text's length.  Plain decimal from 1e-5 to
 * below 1e16 ("0.00001", "1234567800000000"), d.ddde+XX outside; 0 and
 * -0 are "0" (a "-0" would only puzzle), then "nan", "inf", "-inf".
 * Each thread keeps the last texts it made, 4096 of them by the float's
 * bits (128 KiB a thread that formats), and copies a text met again. */
char *floatfmt_shortest(char *o, float f);
size_t floatfmt_shortest_len(float f);

#endif
