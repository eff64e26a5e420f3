/* SPDX-License-Identifier: MIT */
/* dbmod_text.c - DBnnMOD.BIN as text: model.txt and models.txt. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>

#include "dbmod/dbmod.h"
#include "dbmod/dbmod_internal.h"
#include "util/bytes.h"
#include "util/strbuf.h"

static const char *base_name(enum dbmod_base base)
{
	return base == DBMOD_FROM_MODEL ? "the model's start"
					: "the table's end";
}


static void text_face(struct strbuf *sb, const struct dbmod_face *f)
{
	const struct dbmod_kind_info *k = &dbmod_kinds[f->kind];
	sb_printf(sb, "face %u %s at 0x%zx: flags 0x%08x v %u %u %u",
		  f->index, k->name, f->at, f->flags, f->v[0], f->v[1],
		  f->v[2]);
	sb_printf(sb, k->corners == 4 ? " %u" : " pad %u", f->v[3]);
	if (k->indexed)
		sb_printf(sb, " colours %u %u %u%s%u", f->c[0], f->c[1],
			  f->c[2], k->corners == 4 ? " " : " pad ", f->c[3]);
	else
		sb_printf(sb, " rgb %u %u %u %s 0x%02x", f->c[0], f->c[1],
			  f->c[2], k->textured ? "pad" : "code", f->c[3]);
	if (k->textured)
		sb_printf(sb, " uv %u,%u %u,%u %u,%u%s%u,%u clut 0x%04x "
			  "tpage 0x%04x", f->uv[0][0], f->uv[0][1],
			  f->uv[1][0], f->uv[1][1], f->uv[2][0], f->uv[2][1],
			  k->corners == 4 ? " " : " pad ", f->uv[3][0],
			  f->uv[3][1], f->clut, f->tpage);
	sb_puts(sb, "\n");
}

static int text_face_cb(void *ctx, const struct dbmod_face *f)
{
	text_face(ctx, f);
	return 0;
}

static void text_header(struct strbuf *sb, const struct dbmod *db,
			const struct dbmod_model *m)
{
	const uint8_t *b = db->p + m->bounds;
	sb_printf(sb, "id %04u\nposition %u\noffset 0x%zx\n"
		  "link 0x%08x\nunknown_04 0x%08x\nradius %u\n"
		  "unknown_0a 0x%04x\n", m->id, m->position, m->offset,
		  m->link, m->unknown_04, m->radius, m->unknown_0a);
	sb_printf(sb, "# the _at fields count from %s\n",
		  base_name(db->base));
	sb_printf(sb, "bounds_at 0x%08x (file 0x%zx):", m->bounds_at,
		  m->bounds);
	for (int i = 0; i < 8; i++)
		sb_printf(sb, " %d", (int16_t)rd_u16le(b + 2 * i));
	sb_printf(sb, "\nvertices %u\ncolours %u\n"
		  "vertices_at 0x%08x (file 0x%zx)\n", m->vertices,
		  m->colours, m->vertices_at, m->vertex_table);
	if (m->colours)
		sb_printf(sb, "colours_at 0x%08x (file 0x%zx)\n",
			  m->colours_at, m->colour_table);
	else
		sb_printf(sb, "colours_at 0x%08x (unused)\n", m->colours_at);
	sb_printf(sb, "faces_at 0x%08x (file 0x%zx)\nend 0x%zx "
		  "(model.bin: %zu bytes)\nfaces", m->faces_at, m->face_list,
		  m->end, m->end - m->offset);
	for (int k = 0; k < DBMOD_KINDS; k++)
		sb_printf(sb, " %s %u", dbmod_kinds[k].name, m->faces[k]);
	sb_puts(sb, "\n");
}

int dbmod_model_text(const struct dbmod *db, size_t position,
		     struct strbuf *out, struct reason *why)
{
	struct dbmod_model m;
	int rc = dbmod_check(db, position, &m, why);
	if (rc)
		return rc;
	text_header(out, db, &m);
	rc = dbmod_walk_faces(db, &m, text_face_cb, out, why);
	if (rc)
		return rc;
	return out->failed ? -ENOMEM : 0;
}

/* ---- models.txt ---- */

int dbmod_models_text(const struct dbmod *db, struct strbuf *out)
{
	sb_printf(out, "# %u table entries; offsets from the file's start\n"
		  "# _at fields count from %s: models in order under it %u, "
		  "under %s %u, of %u with a whole header\n",
		  db->count, base_name(db->base),
		  db->base == DBMOD_FROM_MODEL ? db->fit_model
					       : db->fit_table_end,
		  base_name(db->base == DBMOD_FROM_MODEL
				    ? DBMOD_FROM_TABLE_END : DBMOD_FROM_MODEL),
		  db->base == DBMOD_FROM_MODEL ? db->fit_table_end
					       : db->fit_model,
		  db->headers);
	sb_puts(out, "# position id offset radius vertices colours");
	for (int k = 0; k < DBMOD_KINDS; k++)
		sb_printf(out, " %s", dbmod_kinds[k].name);
	sb_puts(out, "\n");
	for (uint32_t i = 0; i < db->count; i++) {
		const struct dbmod_entry *e = &db->entries[i];
		if (!e->present) {
			sb_printf(out, "%u none\n", i);
			continue;
		}
		sb_printf(out, "%u %04u 0x%" PRIx64, i, e->id, e->offset);
		struct dbmod_model m;
		struct reason why = { "" };
		if (dbmod_check(db, i, &m, &why)) {
			sb_printf(out, " error: %s\n", why.text);
			continue;
		}
		sb_printf(out, " %u %u %u", m.radius, m.vertices, m.colours);
		for (int k = 0; k < DBMOD_KINDS; k++)
			sb_printf(out, " %u", m.faces[k]);
		sb_puts(out, e->duplicate ? " duplicate id: not shown\n"
					  : "\n");
	}
	return out->failed ? -ENOMEM : 0;
}
