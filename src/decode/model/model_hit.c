/* SPDX-License-Identifier: MIT */
/* model_hit.c - the collision mesh of a hit chunk (0x0b00) as OBJ. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "ccsf/ccsf.h"
#include "decode/model/model.h"
#include "decode/model/obj_fmt.h"
#include "util/bytes.h"
#include "util/numfmt.h"
#include "util/reason.h"

static void put_hit_v(struct strbuf *sb, const uint8_t *pos)
{
	char *s = obj_line_start(sb);
	if (!s)
		return;
	char *o = s;
	*o++ = 'v';
	for (int i = 0; i < 3; i++) {
		*o++ = ' ';
		o = floatfmt_shortest(o, rd_f32le(pos + 4 * i));
	}
	sb_line_done(sb, s, o);
}

static void put_hit_f(struct strbuf *sb, uint64_t first)
{
	char *s = obj_line_start(sb);
	if (!s)
		return;
	char *o = s;
	*o++ = 'f';
	for (int i = 1; i <= 3; i++) {
		*o++ = ' ';
		o = numfmt_uint(o, first + (uint64_t)i);
	}
	sb_line_done(sb, s, o);
}

/* One group: returns false when it runs past the chunk (the rest is then
 * left out: where the next group starts is unknown). */
static bool hit_group(struct cursor *c, uint32_t g, uint16_t groups,
		      struct strbuf *out, uint64_t *v_count)
{
	uint32_t n = cur_u32(c), attribute = cur_u32(c);
	if (c->bad || 24ull * n > cur_left(c)) {
		sb_printf(out, "# left out: groups %" PRIu32 " to %u: %s\n", g,
			  groups - 1u, c->bad ? "the group header runs past "
			  "the end of the chunk" : "its vertices run past the "
			  "end of the chunk");
		return false;
	}
	const uint8_t *pos = cur_take(c, 12 * (size_t)n);
	(void)cur_take(c, 12 * (size_t)n);      /* normals: the game drops */
	uint32_t whole = n - n % 3;
	sb_printf(out, "g group%" PRIu32 "_attr0x%" PRIx32 "\n", g, attribute);
	for (uint32_t i = 0; i < whole; i++)
		put_hit_v(out, pos + 12 * (size_t)i);
	for (uint32_t t = 0; t < whole / 3; t++)
		put_hit_f(out, *v_count + 3ull * t);
	*v_count += whole;
	if (n % 3)
		sb_printf(out, "# left out: the last %" PRIu32 " vertices of "
			  "group %" PRIu32 ": not a whole triangle\n", n % 3,
			  g);
	return true;
}

int model_hit_obj(const uint8_t *p, size_t len, const struct model_env *env,
	    struct strbuf *out, struct reason *why)
{
	struct cursor c = cursor_make(p, len);
	uint16_t kind = cur_u16(&c);
	(void)cur_take(&c, 6);                       /* tag, size */
	uint32_t object = cur_u32(&c), parent = cur_u32(&c);
	uint16_t groups = cur_u16(&c);
	(void)cur_u16(&c);                           /* pad */
	uint32_t total = cur_u32(&c);
	reason_clear(why);
	if (c.bad) {
		reason_set(why, "%s", "the hit header is cut short");
		return -EIO;
	}
	if (kind != CCSF_HIT) {
		reason_set(why, "%s", "not a hit chunk");
		return -EIO;
	}
	const char *name = obj_env_name(env, object);
	sb_puts(out, "# hit ");
	obj_put_name(out, name ? name : "?");
	sb_printf(out, " (object %" PRIu32 "), parent %" PRIu32 ", %u groups,"
		  " %" PRIu32 " vertices\n", object, parent, groups, total);
	uint64_t v_count = 0;
	for (uint32_t g = 0; g < groups; g++)
		if (!hit_group(&c, g, groups, out, &v_count))
			break;
	return out->failed ? -ENOMEM : 0;
}
