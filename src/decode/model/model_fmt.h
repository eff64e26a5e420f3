/* SPDX-License-Identifier: MIT */
/* model_fmt.h - OBJ and MTL text pieces shared by the model writers. */
#ifndef CCSFS_MODEL_FMT_H
#define CCSFS_MODEL_FMT_H

#include <stdint.h>
#include <string.h>

#include "decode/model/model.h"
#include "util/floatfmt.h"
#include "util/strbuf.h"

/* The text of a byte's value over a fixed power of two, exactly and
 * without trailing zeros, every one made before main: a normal (s8 / 64)
 * or a colour (u8 / 128) is a copy of 16 bytes (text, then what means
 * nothing), not a number formatted. */
struct obj_byte_text {
	char text[15];
	uint8_t len;
};
extern struct obj_byte_text obj_normal_text[256], obj_colour_text[256];

static inline char *obj_put_byte(char *o, const struct obj_byte_text *t)
{
	memcpy(o, t, 16);
	return o + t->len;
}

/* An S or T (u16 / 256), exactly, without trailing zeros: two table
 * copies (20 bytes of room); and its length. */
char *obj_put_st(char *o, uint16_t v);
size_t obj_st_len(uint16_t v);

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
