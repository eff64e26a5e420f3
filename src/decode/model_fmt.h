/* SPDX-License-Identifier: MIT */
/* model_fmt.h - OBJ and MTL text pieces shared by the model writers. */
#ifndef CCSFS_MODEL_FMT_H
#define CCSFS_MODEL_FMT_H

#include <stdint.h>

#include "decode/model.h"
#include "util/floatfmt.h"
#include "util/strbuf.h"

/* Room one formatted number needs (floatfmt_shortest's FLOATFMT_MAX). */
#define OBJ_NUMBER_ROOM FLOATFMT_MAX
/* Every vertex and face line fits in this; names go through sb_puts. */
#define OBJ_LINE_ROOM 192

/* v / 2^shift, exactly, shift at most 8, without trailing zeros. */
char *obj_put_dyadic(char *o, int32_t v, unsigned shift);
/* Its length, without the text (sb_counts_only). */
size_t obj_dyadic_len(int32_t v, unsigned shift);

/* An OBJ line's room (sb_line_start); sb_line_done closes it. */
char *obj_line_start(struct strbuf *sb);

/* A name as an OBJ/MTL token (whitespace and control bytes as '_'). */
void obj_put_name(struct strbuf *sb, const char *name);
/* env->object_name, or NULL without one. */
const char *obj_env_name(const struct model_env *env, uint32_t i);

#endif
