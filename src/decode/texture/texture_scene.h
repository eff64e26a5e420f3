/* SPDX-License-Identifier: MIT */
/* texture_scene.h - a texture chunk in its scene: its palette is the CLUT
 * object its chunk names, found in the same file.  What texture.png and
 * scene.glb both need. */
#ifndef CCSFS_TEXTURE_SCENE_H
#define CCSFS_TEXTURE_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ccsf/ccsf.h"
#include "decode/texture/texture.h"
#include "util/reason.h"

/* Everything a texture needs, checked: the texture, its palette and one
 * level (decoded when asked). */
struct texture_job {
	struct texture tex;
	struct palette pal;
	struct indexed_image img;
	struct reason why;
};

/* Parses the texture chunk `chunk` and its palette and checks level
 * `level`, decoding it when decode is set.  0 or a negative errno with
 * job->why set; job->img is for texture_image_free() either way. */
int texture_job_prepare(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t chunk, unsigned level,
			bool decode, struct texture_job *job);

/* texture.png or texture-mipN.png of texture chunk `chunk`: the level
 * decoded and written as an indexed PNG at zlib level png_level, with
 * the text entries given.  0 or a negative errno with why set. */
int texture_scene_png(const struct ccsf_scene *s, const uint8_t *data,
		      size_t len, uint32_t chunk, unsigned level,
		      const struct png_text_entry *text, size_t ntext,
		      int png_level, uint8_t **out, size_t *outlen,
		      struct reason *why);

/* The same file checked, not made: *levels the texture's level count and
 * *size the stored PNG's exact size (0 where only a compressed PNG is
 * made, png_level above 0).  0 or a negative errno with why set. */
int texture_scene_png_size(const struct ccsf_scene *s, const uint8_t *data,
			   size_t len, uint32_t chunk, unsigned level,
			   const struct png_text_entry *text, size_t ntext,
			   int png_level, unsigned *levels, size_t *size,
			   struct reason *why);

/* palette.png of CLUT chunk `chunk`, and its checked size as above. */
int texture_scene_palette_png(const struct ccsf_scene *s,
			      const uint8_t *data, size_t len, uint32_t chunk,
			      const struct png_text_entry *text, size_t ntext,
			      int png_level, uint8_t **out, size_t *outlen,
			      struct reason *why);
int texture_scene_palette_size(const struct ccsf_scene *s,
			       const uint8_t *data, size_t len,
			       uint32_t chunk,
			       const struct png_text_entry *text, size_t ntext,
			       int png_level, size_t *size,
			       struct reason *why);

#endif
