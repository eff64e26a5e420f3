/* SPDX-License-Identifier: MIT */
/* obj_fmt.h - OBJ and MTL text pieces shared by the model writers. */
#ifndef CCSFS_OBJ_FMT_H
#define CCSFS_OBJ_FMT_H

#include <stdint.h>

#include "decode/model/model.h"
#include "util/fixfmt.h"
#include "util/floatfmt.h"
#include "util/strbuf.h"

/* A normal (s8 / 64) or a colour (u8 / 128) as text, exactly and
 * without trailing zeros, every one made before main: a copy of 16
 * bytes (fixfmt_put), not a number formatted.  S and T (u16 / 256) are
 * fixfmt_put_256ths'. */
extern struct fixfmt_text obj_normal_text[256], obj_colour_text[256];

/* Room one formatted number needs (floatfmt_shortest's FLOATFMT_MAX). */
#define OBJ_NUMBER_ROOM FLOATFMT_MAX
/* Every vertex and face line fits in this; names go through sb_puts. */
#define OBJ_LINE_ROOM 192

/* An OBJ line's room (sb_line_start); sb_line_done closes it. */
char *obj_line_start(struct strbuf *sb);

/* A name as an OBJ/MTL token (whitespace and control bytes as '_'). */
void obj_put_name(struct strbuf *sb, const char *name);
/* env->object_name, or NULL without one. */
const char *obj_env_name(const struct model_env *env, uint32_t i);

#endif
