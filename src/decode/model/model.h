/* SPDX-License-Identifier: MIT */
/* model.h - Wavefront OBJ of the model (0x0800) and hit (0x0b00) chunks.
 *
 * model_obj() is the whole job for model.obj and model.mtl.  It is built
 * from two halves a later step can use on their own: model_decode() turns
 * the chunk into a mesh (vertices, triangles from the strip flags, the
 * clump node slot of every bone and skin vertex), and model_mesh_obj()
 * writes a mesh.  Posing with the clump goes between the two: move
 * mesh->vertices[i].pos by the world matrix of node slot .node (or blend a
 * skin vertex's entries), then write.
 *
 * Every count in the chunk is untrusted.  Nothing is read past `len`, and
 * what is allocated is bounded by `len`.  A part that cannot be made (a
 * mmat that runs past the chunk, a triangle without two vertices before
 * it, a shadow index past vNum, an unknown material or texture) is left
 * out of the output and a `# left out: ...` comment says so; only a chunk
 * without a whole header, of another kind, or with mtype bit 0x02 is an
 * error.  The text depends on nothing but the input (no locale, no
 * printf of floats), so it is byte-identical on every run.
 */
#ifndef CCSFS_MODEL_H
#define CCSFS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/reason.h"
#include "util/strbuf.h"

/* What the model writers need from the scene, so they know nothing of
 * the tree.  Any callback may be NULL (treated as "not found"). */
struct model_env {
	void *ctx;
	/* The object's name in UTF-8, as the tree shows it, or NULL when the
	 * index is out of range. */
	const char *(*object_name)(void *ctx, uint32_t index);
	/* The Material chunk of MAT_ object `material`: 0, or -ENOENT when
	 * the scene has none. */
	int (*material)(void *ctx, uint32_t material, uint32_t *texture,
			float *transparency);
	/* The texture's PNG relative to the model's folder
	 * ("../TEX_xasc00/texture.png"), or NULL. */
	const char *(*texture_path)(void *ctx, uint32_t texture);
};

enum model_layout { MODEL_RIGID, MODEL_BONE, MODEL_SKIN, MODEL_SHADOW };

/* Raw values are kept where the file has them, so the writer prints them
 * exactly; only the position is scaled (it is what posing changes). */
struct model_vertex {
	float pos[3];           /* s16 * vertexScale / 4096; bone and skin:
				   in the space of clump node slot `node` */
	int8_t normal[3];       /* 64 = 1.0 */
	uint8_t strip;          /* normal byte 3: 1 starts a strip */
	uint8_t colour[4];      /* R, G, B, A; 0x80 = 1.0 */
	uint16_t st[2];         /* S, T; 256 = one repeat, T = 0 first row */
	uint32_t node;          /* clump node slot: bone and skin, else 0 */
	uint32_t first_entry;   /* skin: its entries in mesh->entries */
	uint32_t entry_count;   /* skin: 1 or more; else 0 */
};

/* One weighted entry of a skin vertex. */
struct model_skin_entry {
	float pos[3];           /* scaled, in the space of `node` */
	uint16_t weight;        /* 256 = 1.0 */
	uint8_t node;           /* clump node slot */
	bool last;              /* the vertex's last entry (w bit 9) */
};

struct model_mmat {
	enum model_layout layout;
	uint32_t name;          /* rigid: the MDL_x_N object; else 0 */
	uint32_t material;      /* the MAT_ object; 0 for shadow */
	uint32_t node;          /* bone: the node slot of every vertex */
	bool has_normal, has_colour, has_st;
	uint32_t first_vertex, vertex_count;    /* in mesh->vertices */
	uint32_t first_face, face_count;        /* in mesh->faces */
	/* `# left out: ...` lines about this mmat, in mesh->notes. */
	size_t note_start, note_len;
};

struct model_mesh {
	uint32_t object;        /* the MDL_ object */
	float vertex_scale;
	uint16_t mtype;         /* the bits the layout follows (& 0xff below
				   version 0x100) */
	uint16_t flag;
	uint32_t mmats_declared;        /* mmatNum */
	uint32_t mmat_count;            /* mmats decoded */
	struct model_mmat *mmats;
	uint32_t vertex_count;
	struct model_vertex *vertices;
	uint32_t face_count;
	uint32_t (*faces)[3];           /* indices into vertices */
	uint32_t entry_count;
	struct model_skin_entry *entries;
	struct strbuf notes;
	/* The Anime chunk that posed the bone and skin vertices into the
	 * world (model_pose.h), or NULL while they are in node space. */
	const char *posed_by;
	/* Their normals turned the same way, unit length, one per vertex
	 * (NULL while unposed; rigid and shadow vertices' stay unused). */
	float (*posed_normal)[3];
	/* Why the mmats from mmat_count on were left out; "" if none were. */
	char stop[160];
};

/* Decodes a model chunk (p: its 8-byte header on; len: its real length;
 * version: the file's header version).  Returns 0, -EIO when the chunk is
 * not a model that can be read at all (why says so), or -ENOMEM.  Always
 * leaves a mesh that model_mesh_free() releases. */
int model_decode(const uint8_t *p, size_t len, uint16_t version,
		 struct model_mesh *mesh, struct reason *why);
/* model_decode() with `mesh`; without, the same mmats with only their
 * layout, name and material: no vertices, faces or notes (model.mtl,
 * which names each mmat's material, needs nothing more). */
int model_decode_as(const uint8_t *p, size_t len, uint16_t version,
		    bool mesh, struct model_mesh *m, struct reason *why);
void model_mesh_free(struct model_mesh *mesh);
/* What model_decode() would return short of -ENOMEM, without decoding the
 * mmats: only the header makes a chunk unreadable (a bad mmat stops the
 * mesh there, with a note), and a listing that asks whether a model.obj
 * fails need not build every mesh of a member. */
int model_check(const uint8_t *p, size_t len, uint16_t version,
		struct reason *why);

/* Appends the mesh as OBJ to obj and its materials to mtl (mtl may be
 * NULL; with obj NULL only the MTL is written, without the cost of the
 * OBJ's text).  Returns 0 or -ENOMEM (also when obj or mtl had failed). */
int model_mesh_obj(const struct model_mesh *mesh, const struct model_env *env,
		   struct strbuf *obj, struct strbuf *mtl);

/* model_decode_as() (the mesh when obj is given) then model_mesh_obj(). */
int model_obj(const uint8_t *p, size_t len, uint16_t version,
	      const struct model_env *env, struct strbuf *obj,
	      struct strbuf *mtl, struct reason *why);

/* The collision mesh of a hit chunk: one group per hit group, named
 * group<N>_attr0x<attribute>, three vertices a triangle.  Returns 0, -EIO
 * (why says so) when the chunk's header is cut or it is not a hit chunk,
 * or -ENOMEM. */
int model_hit_obj(const uint8_t *p, size_t len, const struct model_env *env,
	    struct strbuf *out, struct reason *why);

#endif
