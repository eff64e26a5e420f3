/* SPDX-License-Identifier: MIT */
/* model_mtl.h - the materials a model uses, and model.mtl of them. */
#ifndef CCSFS_MODEL_MTL_H
#define CCSFS_MODEL_MTL_H

#include <stdint.h>

#include "decode/model/model.h"
#include "util/strbuf.h"

/* A material used by the model, resolved once through the env. */
struct material_use {
	uint32_t material;
	uint32_t texture;
	float transparency;
	const char *name;       /* NULL: not usable (see why) */
	const char *why;
};

/* The materials of a model in order of first use, with an open-addressed
 * index so a model of many mmats is not quadratic. */
struct material_set {
	struct material_use *uses;
	uint32_t count;
	uint32_t *slots;        /* 1 + index into uses; 0 empty */
	uint32_t mask;
};

/* Room for the materials of `mmats` mmats.  0 or -ENOMEM; model_mtl_set_free()
 * releases it either way. */
int model_mtl_set_init(struct material_set *s, uint32_t mmats);
void model_mtl_set_free(struct material_set *s);
/* The material's use, resolved through env on its first use. */
const struct material_use *model_mtl_use(struct material_set *s,
					 const struct model_env *env,
					 uint32_t material);
/* model.mtl: one newmtl a usable material, in order of first use. */
void model_mtl_write(struct strbuf *mtl, const struct model_env *env,
		     const struct material_set *s);

#endif
