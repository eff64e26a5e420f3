/* SPDX-License-Identifier: MIT */
/* json.h - JSON values of scene.glb's document (json.c). */
#ifndef CCSFS_JSON_H
#define CCSFS_JSON_H

#include "util/strbuf.h"

/* The float as JSON: finite values only (others as 0). */
void json_float(struct strbuf *sb, float f);
void json_floats(struct strbuf *sb, const float *f, unsigned n);
/* A JSON string of UTF-8 text, escaped. */
void json_string(struct strbuf *sb, const char *s);

#endif
