/* SPDX-License-Identifier: MIT */
/* ccsf_build.h - what the CCSF walk's test programs share: scenes made
 * with the generator (ccsw) that remember what the walk must find, and
 * the checks of a walk against them. */
#ifndef CCSFS_CCSF_BUILD_H
#define CCSFS_CCSF_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "ccsw.h"

/* The versions the files come in, oldest first: the tests run every one. */
extern const uint16_t versions[5];
#define NVERSIONS (sizeof versions / sizeof versions[0])

/* A little-endian u16 of the file, to check a field the walk read. */
uint16_t u16at(const uint8_t *p);

/* A little-endian u32 written over a field, to make a file lie. */
void put32(uint8_t *p, uint32_t v);

/* ccsf_walk() on a copy of exactly n bytes, so ASan sees a read past it. */
int walk_exact(const uint8_t *p, size_t n, struct ccsf_scene *s);

/* ---- a writer that remembers what the index must say ---- */

#define MAX_NAMES 256

struct build {
	struct ccsw *w;
	uint16_t version;
	const char *name;
	uint32_t file;
	uint8_t names[MAX_NAMES][30];   /* entry 0 blank */
	size_t name_len[MAX_NAMES];
	uint32_t nnames;
	const char *paths[8];
	uint32_t npaths;
	uint8_t *data;
	size_t len;
};

/* A writer with its one source file, and the record of its index. */
void build_start(struct build *b, const char *name, uint16_t version);
/* An object with these name bytes, recorded for the index check. */
uint32_t obj_raw(struct build *b, const uint8_t *name, size_t n);
/* An object named prefix_N (N its index), recorded the same way. */
uint32_t obj(struct build *b, const char *prefix);
/* The finished file into b->data and b->len. */
void build_finish(struct build *b);
/* The file and the writer freed. */
void build_free(struct build *b);

/* Every chunk the walk found is the writer's chunk i for i < n. */
void expect_chunks_prefix(const struct ccsw *w, const uint8_t *file,
			  const struct ccsf_scene *s, size_t n);
/* The whole walk equals the writer's record, and the index is decoded. */
void expect_walk_matches(const struct build *b, const struct ccsf_scene *s);

/* ---- files ---- */

/* Textures at 4 and 8 bits and every mipmap count; more sizes if heavy. */
void add_textures(struct build *b, uint32_t clut16, uint32_t clut256,
		  bool heavy);
/* Models of every layout: rigid mtypes, bone, skin, shadow, no mmats. */
void add_models(struct build *b, uint32_t mat, bool heavy);
/* A scene with every setup kind (and every frame kind if frames). */
void build_every_kind(struct build *b, uint16_t version, bool frames,
		      bool heavy);

#endif
