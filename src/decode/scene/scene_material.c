/* SPDX-License-Identifier: MIT */
/* scene_material.c - scene.glb's materials and their textures, each
 * made once per part (doc/formats/scene-glb.md, Materials and
 * textures). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "decode/model/material.h"
#include "decode/scene/scene_internal.h"
#include "decode/texture/texture_scene.h"

/* Texture flag 0x10: clamp, else repeat (doc/formats/texture.md). */
#define TEXTURE_CLAMP 0x10
#define GL_REPEAT 10497
#define GL_CLAMP_TO_EDGE 33071
#define GL_NEAREST 9728

/* The texture's PNG as an image, with its sampler; GNONE when the file
 * has no texture chunk for it or it does not decode. */
static uint32_t scene_texture(struct scene_build *b,
			      const struct scene_part *p, uint32_t tex,
			      bool *alpha)
{
	const struct scene_source *src = &p->src;
	uint32_t chunk;
	*alpha = false;
	if (ccsf_find_owned(src->s, CCSF_TEXTURE, tex, &chunk) < 0)
		return GNONE;
	struct texture_job job;
	size_t png_len = 0;
	uint32_t view = GNONE;
	int rc = texture_job_prepare(src->s, src->data, src->len, chunk, 0,
				     true, &job);
	if (rc == 0)
		rc = texture_png_size(job.img.width, job.img.height,
				      job.tex.psm, &job.pal, NULL, 0,
				      &png_len);
	/* Stored, and written in place: compressing was half of a scene's
	 * cost, and a glTF reader unpacks the image anyway. */
	uint8_t *room = rc == 0 ? glb_view_room(&b->g, png_len, 0, &view)
				: NULL;
	if (rc == 0 && !room)
		rc = -ENOMEM;
	if (rc == 0)
		rc = texture_png_into(&job.img, job.tex.psm, &job.pal,
				      b->g.measure ? NULL : room, png_len,
				      &job.why);
	if (rc < 0 && room)
		memset(room, 0, png_len);       /* no stale bytes in the file */
	texture_image_free(&job.img);
	if (rc < 0) {
		if (rc == -ENOMEM)
			b->failed = true;
		scene_left_out(b, "texture %s: %s", scene_part_name(p, tex),
			       reason_or_errno(&job.why, rc));
		return GNONE;
	}
	unsigned colours = job.tex.psm == TEXTURE_PSMT4 && job.pal.count > 16
			   ? 16 : job.pal.count;
	for (unsigned i = 0; i < colours; i++)
		*alpha |= job.pal.rgba[i][3] < 255;
	uint32_t image = glb_item(&b->images);
	sb_printf(&b->images.text, "{\"name\":");
	json_string(&b->images.text, scene_part_name(p, tex));
	sb_printf(&b->images.text, ",\"bufferView\":%" PRIu32
		  ",\"mimeType\":\"image/png\"}", view);
	int wrap = job.tex.flag & TEXTURE_CLAMP ? GL_CLAMP_TO_EDGE : GL_REPEAT;
	uint32_t sampler = glb_item(&b->samplers);
	sb_printf(&b->samplers.text, "{\"magFilter\":%d,\"wrapS\":%d,"
		  "\"wrapT\":%d}", GL_NEAREST, wrap, wrap);
	uint32_t t = glb_item(&b->textures);
	sb_printf(&b->textures.text, "{\"sampler\":%" PRIu32 ",\"source\":%"
		  PRIu32 "}", sampler, image);
	return t;
}

uint32_t scene_material(struct scene_build *b, struct scene_part *p,
			uint32_t mat, unsigned flags)
{
	if (!mat || mat >= p->src.s->object_count)
		return GNONE;
	bool unlit = flags & SCENE_MAT_UNLIT, no_uv = flags & SCENE_MAT_NO_UV;
	uint32_t *memo = &p->material_of[flags & 3][mat];
	if (*memo != GNONE)
		return *memo;
	uint32_t tex;
	float tr;
	bool alpha = false;
	/* None: no texture, opaque (material_chunk's answer then). */
	(void)material_chunk(p->src.s, p->src.data, p->src.len, mat, &tex,
			     &tr);
	uint32_t t = GNONE;
	if (tex && tex < p->src.s->object_count && !no_uv) {
		if (p->texture_of[tex] == GNONE)
			p->texture_of[tex] = scene_texture(b, p, tex, &alpha);
		t = p->texture_of[tex];
	}
	struct strbuf *o = &b->materials.text;
	*memo = glb_item(&b->materials);
	sb_puts(o, "{\"name\":");
	json_string(o, scene_part_name(p, mat));
	sb_puts(o, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,");
	json_float(o, tr);
	sb_puts(o, "]");
	if (t != GNONE)
		sb_printf(o, ",\"baseColorTexture\":{\"index\":%" PRIu32 "}", t);
	sb_puts(o, ",\"metallicFactor\":0,\"roughnessFactor\":1}");
	sb_printf(o, ",\"alphaMode\":\"%s\",\"doubleSided\":true",
		  alpha || tr < 1 ? "BLEND" : "OPAQUE");
	if (unlit) {
		sb_puts(o, ",\"extensions\":{\"KHR_materials_unlit\":{}}");
		b->unlit_used = true;
	}
	sb_puts(o, "}");
	return *memo;
}
