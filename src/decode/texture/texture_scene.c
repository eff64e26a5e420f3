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
