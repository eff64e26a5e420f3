/* SPDX-License-Identifier: MIT */
/* texture_scene.c - a texture with the palette its scene gives it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "decode/texture/texture_scene.h"
#include "util/reason.h"

int texture_job_prepare(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t chunk, unsigned level,
			bool decode, struct texture_job *job)
{
	memset(job, 0, sizeof *job);
	if (chunk >= s->chunk_count)
		return -EIO;
	const struct ccsf_chunk *c = &s->chunks[chunk];
	if ((uint64_t)c->offset + c->length > len)
		return -EIO;
	int rc = texture_parse(data + c->offset, c->length, s->version,
			       &job->tex, &job->why);
	if (rc < 0)
		return rc;
	uint32_t clut_chunk;
	if (ccsf_find_owned(s, CCSF_CLUT, job->tex.clut, &clut_chunk) < 0) {
		reason_set(&job->why, "its palette, object %"
			   PRIu32 ", has no CLUT chunk in this file",
			   job->tex.clut);
		return -EIO;
	}
	const struct ccsf_chunk *cc = &s->chunks[clut_chunk];
	if ((uint64_t)cc->offset + cc->length > len)
		return -EIO;
	struct clut clut;
	rc = texture_clut_parse(data + cc->offset, cc->length, s->version, &clut,
			&job->why);
	if (rc < 0)
		return rc;
	texture_palette_from_clut(&clut, &job->pal);
	if (!decode)
		return texture_check(&job->tex, level, job->pal.count, &job->why);
	return texture_decode(&job->tex, level, job->pal.count, &job->img,
			      &job->why);
}

int texture_scene_png(const struct ccsf_scene *s, const uint8_t *data,
		      size_t len, uint32_t chunk, unsigned level,
		      const struct png_text_entry *text, size_t ntext,
		      int png_level, uint8_t **out, size_t *outlen,
		      struct reason *why)
{
	struct texture_job job;
	int rc = texture_job_prepare(s, data, len, chunk, level, true, &job);
	if (rc == 0)
		rc = texture_png_level(&job.img, job.tex.psm, &job.pal, text,
				       ntext, png_level, out, outlen,
				       &job.why);
	texture_image_free(&job.img);
	if (rc < 0)
		*why = job.why;
	return rc;
}

int texture_scene_png_size(const struct ccsf_scene *s, const uint8_t *data,
			   size_t len, uint32_t chunk, unsigned level,
			   const struct png_text_entry *text, size_t ntext,
			   int png_level, unsigned *levels, size_t *size,
			   struct reason *why)
{
	struct texture_job job;
	int rc = texture_job_prepare(s, data, len, chunk, level, false, &job);
	texture_image_free(&job.img);
	*levels = job.tex.levels > 1 ? job.tex.levels : 1;
	*size = 0;
	if (rc < 0) {
		*why = job.why;
		return rc;
	}
	if (png_level == 0 &&
	    texture_png_size(job.tex.level[level].width,
			     job.tex.level[level].height, job.tex.psm,
			     &job.pal, text, ntext, size) < 0)
		*size = 0;
	return 0;
}

/* The palette of CLUT chunk `chunk`. */
static int scene_palette(const struct ccsf_scene *s, const uint8_t *data,
			 size_t len, uint32_t chunk, struct palette *pal,
			 struct reason *why)
{
	if (chunk >= s->chunk_count)
		return -EIO;
	const struct ccsf_chunk *c = &s->chunks[chunk];
	if ((uint64_t)c->offset + c->length > len)
		return -EIO;
	struct clut clut;
	int rc = texture_clut_parse(data + c->offset, c->length, s->version,
				    &clut, why);
	if (rc == 0)
		texture_palette_from_clut(&clut, pal);
	return rc;
}

int texture_scene_palette_png(const struct ccsf_scene *s,
			      const uint8_t *data, size_t len, uint32_t chunk,
			      const struct png_text_entry *text, size_t ntext,
			      int png_level, uint8_t **out, size_t *outlen,
			      struct reason *why)
{
	struct palette pal;
	int rc = scene_palette(s, data, len, chunk, &pal, why);
	if (rc < 0)
		return rc;
	return texture_palette_png_level(&pal, text, ntext, png_level, out,
					 outlen, why);
}

int texture_scene_palette_size(const struct ccsf_scene *s,
			       const uint8_t *data, size_t len,
			       uint32_t chunk,
			       const struct png_text_entry *text, size_t ntext,
			       int png_level, size_t *size,
			       struct reason *why)
{
	struct palette pal;
	*size = 0;
	int rc = scene_palette(s, data, len, chunk, &pal, why);
	if (rc == 0 && png_level == 0 &&
	    texture_palette_png_size(&pal, text, ntext, size) < 0)
		*size = 0;
	return rc;
}
