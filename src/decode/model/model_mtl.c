/* SPDX-License-Identifier: MIT */
/* model_mtl.c - the materials a model uses, and model.mtl of them. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode/model/obj_fmt.h"
#include "decode/model/model_mtl.h"

int model_mtl_set_init(struct material_set *s, uint32_t mmats)
{
	uint32_t size = 16;
	while (size < 2 * (uint64_t)mmats)
		size *= 2;
	s->uses = calloc(mmats ? mmats : 1, sizeof *s->uses);
	s->slots = calloc(size, sizeof *s->slots);
	s->count = 0;
	s->mask = size - 1;
	return s->uses && s->slots ? 0 : -ENOMEM;
}

void model_mtl_set_free(struct material_set *s)
{
	free(s->uses);
	free(s->slots);
}

static void resolve_material(const struct model_env *env,
			     struct material_use *u)
{
	u->name = obj_env_name(env, u->material);
	u->transparency = 1.0f;
	if (!u->name) {
		u->why = "is no object of the scene";
		return;
	}
	if (!env->material ||
	    env->material(env->ctx, u->material, &u->texture,
			  &u->transparency) != 0) {
		u->name = NULL;
		u->why = "has no Material chunk";
	}
}

const struct material_use *model_mtl_use(struct material_set *s,
					 const struct model_env *env,
					 uint32_t material)
{
	uint32_t h = (material * 2654435761u) & s->mask;
	while (s->slots[h]) {
		struct material_use *u = &s->uses[s->slots[h] - 1];
		if (u->material == material)
			return u;
		h = (h + 1) & s->mask;
	}
	struct material_use *u = &s->uses[s->count];
	memset(u, 0, sizeof *u);
	u->material = material;
	resolve_material(env, u);
	s->slots[h] = ++s->count;
	return u;
}

void model_mtl_write(struct strbuf *mtl, const struct model_env *env,
		     const struct material_set *s)
{
	sb_puts(mtl, "# materials of model.obj\n");
	for (uint32_t i = 0; i < s->count; i++) {
		const struct material_use *u = &s->uses[i];
		if (!u->name)
			continue;
		sb_puts(mtl, "newmtl ");
		obj_put_name(mtl, u->name);
		float d = u->transparency;
		if (!(d >= 0.0f))       /* negative or NaN */
			d = d < 0.0f ? 0.0f : 1.0f;
		if (d > 1.0f)
			d = 1.0f;
		char num[OBJ_NUMBER_ROOM];
		char *e = floatfmt_shortest(num, d);
		sb_puts(mtl, "\nKd 1 1 1\nd ");
		sb_append(mtl, num, (size_t)(e - num));
		sb_puts(mtl, "\n");
		const char *path = u->texture && env && env->texture_path ?
			env->texture_path(env->ctx, u->texture) : NULL;
		if (path) {
			sb_puts(mtl, "map_Kd ");
			obj_put_name(mtl, path);
			sb_puts(mtl, "\n");
		} else if (u->texture) {
			sb_printf(mtl, "# left out: map_Kd: texture %" PRIu32
				  " has no image\n", u->texture);
		}
	}
}
