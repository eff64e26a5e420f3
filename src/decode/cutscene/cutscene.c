/* SPDX-License-Identifier: MIT */
/* cutscene.c - audio.wav, frames.txt and track.txt of a stream scene. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/cutscene/cutscene.h"
#include "decode/motion/anime.h"
#include "util/bytes.h"
#include "util/floatfmt.h"
#include "util/vec.h"

/* Payload bytes before the blocks (doc/formats/pcm.md, Pcm chunk and
 * F_Pcm chunk). */
#define PCM_SETUP_FIELDS 16     /* u32 id, u8 type, bits, track, pad,
				   u32 dataNum, u32 dataSize */
#define F_PCM_FIELDS 12         /* u32 id, u16 dataNum, u16 pad,
				   u32 dataSize */
#define PCM_BLOCK_WORDS 256     /* dataSize of a 1,024-byte block */
#define F_OBJ_BYTES 52          /* u32 obj, flag, f32 pos[3], rot[3],
				   scale[3], tp, u32 dispSW */

/* A chunk's payload, or NULL when the table points outside the bytes
 * (the caller handed other bytes than the walk saw). */
/* ---- audio.wav ----------------------------------------------------------- */

static void audio_problem(struct cutscene_audio *a, const struct ccsf_chunk *c,
			  const char *what, uint32_t claimed, uint32_t kept)
{
	if (a->bad_chunks++ == 0)
		reason_set(&a->problem, "%s at 0x%" PRIx32 ": %s (claims %" PRIu32
			 " blocks, %" PRIu32 " kept)",
			 ccsf_kind_name(c->kind), c->offset, what, claimed, kept);
}

static int add_blocks(struct cutscene_audio *a, size_t *cap, uint32_t first,
		      uint32_t count)
{
	if (count > UINT32_MAX - a->block_count)
		count = UINT32_MAX - a->block_count;
	if (vec_reserve(a->blocks, cap, (size_t)a->block_count + count,
			256) < 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < count; i++)
		a->blocks[a->block_count++] =
			first + i * (uint32_t)CUTSCENE_PCM_BLOCK;
	return 0;
}

/* The blocks of one Pcm or F_Pcm chunk: what its count claims, cut to what
 * the chunk holds.  A block size other than 256 words is not the stereo
 * layout the WAV is made of, so such a chunk gives nothing. */
static int chunk_blocks(struct cutscene_audio *a, size_t *cap,
			const struct ccsf_chunk *c, const uint8_t *data,
			size_t len)
{
	size_t plen;
	const uint8_t *p = ccsf_chunk_payload(c, data, len, &plen);
	bool setup = c->kind == CCSF_PCM;
	size_t fields = setup ? PCM_SETUP_FIELDS : F_PCM_FIELDS;
	if (!p || plen < fields) {
		audio_problem(a, c, "too short for its fields", 0, 0);
		return 0;
	}
	uint32_t claimed = setup ? rd_u32le(p + 8) : rd_u16le(p + 4);
	uint32_t words = setup ? rd_u32le(p + 12) : rd_u32le(p + 8);
	if (words != PCM_BLOCK_WORDS) {
		audio_problem(a, c, "block size is not 256 words", claimed, 0);
		return 0;
	}
	size_t fit = (plen - fields) / CUTSCENE_PCM_BLOCK;
	uint32_t kept = claimed <= fit ? claimed : (uint32_t)fit;
	/* The size field is what the walk trusted; a count that disagrees
	 * either way is a lie, but only one claiming more loses blocks. */
	if (claimed != fit)
		audio_problem(a, c, claimed > fit ?
			      "more blocks than the chunk holds" :
			      "fewer blocks than the chunk holds", claimed, kept);
	return add_blocks(a, cap, c->offset + CCSF_CHUNK_HEADER +
			  (uint32_t)fields, kept);
}

int cutscene_audio_layout(const struct ccsf_scene *s, const uint8_t *data,
			  size_t len, struct cutscene_audio *a)
{
	memset(a, 0, sizeof *a);
	size_t cap = 0;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		/* Each kind only where its dispatcher would meet it. */
		bool pcm = (c->kind == CCSF_PCM && !c->in_frames) ||
			   (c->kind == CCSF_F_PCM && c->in_frames);
		if (!pcm)
			continue;
		a->present = true;
		int rc = chunk_blocks(a, &cap, c, data, len);
		if (rc)
			return rc;
	}
	return 0;
}

void cutscene_audio_free(struct cutscene_audio *a)
{
	free(a->blocks);
	memset(a, 0, sizeof *a);
}

uint64_t cutscene_wav_size(const struct cutscene_audio *a)
{
	return CUTSCENE_WAV_HEADER + (uint64_t)a->block_count * CUTSCENE_PCM_BLOCK;
}

static void wav_header(const struct cutscene_audio *a,
		       uint8_t h[CUTSCENE_WAV_HEADER])
{
	uint64_t data = (uint64_t)a->block_count * CUTSCENE_PCM_BLOCK;
	/* RIFF sizes are 32-bit; a longer file says "as much as fits", which
	 * players treat as "read to the end". */
	uint32_t data32 = data > UINT32_MAX - 36 ? UINT32_MAX - 36
						 : (uint32_t)data;
	memcpy(h, "RIFF", 4);
	wr_u32le(h + 4, 36 + data32);
	memcpy(h + 8, "WAVEfmt ", 8);
	wr_u32le(h + 16, 16);
	wr_u16le(h + 20, 1);                    /* PCM */
	wr_u16le(h + 22, 2);                    /* channels */
	wr_u32le(h + 24, CUTSCENE_WAV_RATE);
	wr_u32le(h + 28, CUTSCENE_WAV_RATE * 4);/* bytes a second */
	wr_u16le(h + 32, 4);                    /* block align */
	wr_u16le(h + 34, 16);                   /* bits */
	memcpy(h + 36, "data", 4);
	wr_u32le(h + 40, data32);
}

/* WAV bytes [from, to) of one block (0 <= from < to <= 1024): frame i is
 * L[i] then R[i], each s16 little-endian as the file stores it. */
static void interleave(const uint8_t *block, size_t from, size_t to,
		       uint8_t *out)
{
	const uint8_t *left = block, *right = block + CUTSCENE_PCM_BLOCK / 2;
	size_t w = from;
	for (; w < to && (w & 3); w++)
		*out++ = ((w & 2) ? right : left)[(w >> 2) * 2 + (w & 1)];
	for (; w + 4 <= to; w += 4) {
		size_t i = (w >> 2) * 2;
		out[0] = left[i];
		out[1] = left[i + 1];
		out[2] = right[i];
		out[3] = right[i + 1];
		out += 4;
	}
	for (; w < to; w++)
		*out++ = ((w & 2) ? right : left)[(w >> 2) * 2 + (w & 1)];
}

size_t cutscene_wav_read(const struct cutscene_audio *a, const uint8_t *data,
			 size_t len, uint64_t off, uint8_t *out, size_t n)
{
	uint64_t size = cutscene_wav_size(a);
	if (off >= size)
		return 0;
	if (n > size - off)
		n = (size_t)(size - off);
	if (n == 0)
		return 0;
	size_t done = 0;
	if (off < CUTSCENE_WAV_HEADER) {
		uint8_t h[CUTSCENE_WAV_HEADER];
		wav_header(a, h);
		size_t k = CUTSCENE_WAV_HEADER - (size_t)off;
		if (k > n)
			k = n;
		memcpy(out, h + off, k);
		done = k;
		off += k;
	}
	uint64_t pos = off - CUTSCENE_WAV_HEADER;
	uint64_t block = pos / CUTSCENE_PCM_BLOCK;
	size_t within = (size_t)(pos % CUTSCENE_PCM_BLOCK);
	while (done < n) {
		size_t to = within + (n - done);
		if (to > CUTSCENE_PCM_BLOCK)
			to = CUTSCENE_PCM_BLOCK;
		uint32_t at = a->blocks[block];
		if (at <= len && len - at >= CUTSCENE_PCM_BLOCK)
			interleave(data + at, within, to, out + done);
		else
			memset(out + done, 0, to - within);
		done += to - within;
		within = 0;
		block++;
	}
	return n;
}

static void sb_float(struct strbuf *out, float f)
{
	sb_put_float(out, f);
}

/* key=x,y,z */
static void sb_vec3(struct strbuf *out, const char *key, const uint8_t *p)
{
	sb_printf(out, " %s=", key);
	for (int i = 0; i < 3; i++) {
		if (i)
			sb_puts(out, ",");
		sb_float(out, rd_f32le(p + 4 * i));
	}
}

/* ---- frames.txt ---------------------------------------------------------- */

typedef const char *(*object_name_fn)(void *ctx, uint32_t index);

/* An object's name as one whitespace-free column: a byte at or below
 * space (and '%') becomes %XX, so awk's fields stay put. */
static void put_object(struct strbuf *out, const struct ccsf_scene *s,
		       uint32_t index, object_name_fn name, void *ctx)
{
	const char *n = index && index < s->object_count && name
		? name(ctx, index) : NULL;
	if (!n || !*n) {
		sb_printf(out, "#%" PRIu32, index);
		return;
	}
	for (; *n; n++) {
		unsigned char b = (unsigned char)*n;
		if (b <= 0x20 || b == '%' || b == 0x7f)
			sb_printf(out, "%%%02X", b);
		else
			sb_append(out, n, 1);
	}
}

static void f_obj_fields(struct strbuf *out, const uint8_t *p)
{
	sb_vec3(out, "pos", p + 8);
	sb_vec3(out, "rot", p + 20);
	sb_vec3(out, "scale", p + 32);
	sb_puts(out, " tp=");
	sb_float(out, rd_f32le(p + 44));
	sb_printf(out, " flag=0x%08" PRIx32 " dispSW=0x%08" PRIx32,
		  rd_u32le(p + 4), rd_u32le(p + 48));
}

static void f_pcm_fields(struct strbuf *out, const uint8_t *p, size_t plen)
{
	uint32_t blocks = rd_u16le(p + 4), words = rd_u32le(p + 8);
	size_t fit = (plen - F_PCM_FIELDS) / CUTSCENE_PCM_BLOCK;
	sb_printf(out, " id=%" PRIu32 " blocks=%" PRIu32 " words=%" PRIu32,
		  rd_u32le(p), blocks, words);
	if (words == PCM_BLOCK_WORDS && blocks > fit)
		sb_printf(out, " error=only_%zu_blocks_fit", fit);
}

static void f_shadow_fields(struct strbuf *out, const uint8_t *p)
{
	sb_vec3(out, "rot", p + 4);
	sb_puts(out, " alpha=");
	sb_float(out, rd_f32le(p + 16));
}

/* Words after the first `skip` bytes, in hex: the layout is not ours to
 * decode here, but the bytes are there to grep. */
static void raw_words(struct strbuf *out, const uint8_t *p, size_t plen,
		      size_t skip)
{
	if (plen <= skip)
		return;
	sb_puts(out, " words=");
	for (size_t i = skip; i + 4 <= plen; i += 4)
		sb_printf(out, i > skip ? ",%08" PRIx32 : "%08" PRIx32,
			  rd_u32le(p + i));
	if (plen & 3)
		sb_printf(out, " trailing_bytes=%zu", plen & 3);
}

/* Fields of one record after its object column; `named` says whether the
 * first word was the object. */
static void record_fields(struct strbuf *out, uint16_t kind, const uint8_t *p,
			  size_t plen, bool named)
{
	size_t need = kind == CCSF_F_OBJ ? F_OBJ_BYTES
		    : kind == CCSF_F_PCM ? F_PCM_FIELDS
		    : kind == CCSF_F_SHADOW ? 20 : 0;
	if (plen < need) {
		sb_printf(out, " error=short_%zu_of_%zu_bytes", plen, need);
		raw_words(out, p, plen, named ? 4 : 0);
		return;
	}
	switch (kind) {
	case CCSF_F_OBJ:    f_obj_fields(out, p); break;
	case CCSF_F_PCM:    f_pcm_fields(out, p, plen); break;
	case CCSF_F_SHADOW: f_shadow_fields(out, p); break;
	case CCSF_F_NOTE:
		if (plen >= 12) {
			sb_printf(out, " event=0x%04" PRIx32 " param=%" PRIu32,
				  rd_u32le(p + 4), rd_u32le(p + 8));
			raw_words(out, p, plen, 12);
			break;
		}
		/* fall through */
	default:
		raw_words(out, p, plen, named ? 4 : 0);
	}
}

/* F_Note names its object first like the others, though the walk does
 * not count it as owning the record. */
static bool names_object(uint16_t kind)
{
	return kind == CCSF_F_NOTE || ccsf_kind_has_object(kind);
}

/* One record's line: frame, kind, object, fields. */
static void record_line(struct strbuf *out, const struct ccsf_scene *s,
			bool in_frame, int32_t frame, uint16_t kind,
			const uint8_t *p, size_t plen, object_name_fn object_name,
			void *ctx)
{
	if (kind == CCSF_TOP && plen >= 4) {
		sb_printf(out, "%" PRId32 " top - frame=%" PRId32 "\n", frame,
			  frame);
		return;
	}
	if (in_frame)
		sb_printf(out, "%" PRId32 " ", frame);
	else
		sb_puts(out, "- ");
	const char *name = ccsf_kind_name(kind);
	if (name)
		sb_printf(out, "%s ", name);
	else
		sb_printf(out, "0x%04x ", kind);
	bool named = names_object(kind) && plen >= 4;
	if (named)
		put_object(out, s, rd_u32le(p), object_name, ctx);
	else
		sb_puts(out, "-");
	record_fields(out, kind, p, plen, named);
	sb_puts(out, "\n");
}

/* Calls fn for each record of the frame section with the frame the
 * latest Top opened (in_frame false before the first). */
struct frame_record {
	const struct ccsf_chunk *c;
	const uint8_t *p;
	size_t plen;
	int32_t frame;
	bool in_frame;
};

typedef void (*frame_record_fn)(const struct frame_record *r, void *arg);

static void each_frame_record(const struct ccsf_scene *s, const uint8_t *data,
			      size_t len, frame_record_fn fn, void *arg)
{
	struct frame_record r = { NULL, NULL, 0, 0, false };
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		r.c = &s->chunks[i];
		if (!r.c->in_frames ||
		    !(r.p = ccsf_chunk_payload(r.c, data, len, &r.plen)))
			continue;
		if (r.c->kind == CCSF_TOP && r.plen >= 4) {
			r.frame = (int32_t)rd_u32le(r.p);
			r.in_frame = true;
		}
		fn(&r, arg);
	}
}

struct frames_arg {
	const struct ccsf_scene *s;
	object_name_fn object_name;
	void *ctx;
	struct strbuf *out;
};

static void frames_line(const struct frame_record *r, void *arg)
{
	struct frames_arg *a = arg;
	record_line(a->out, a->s, r->in_frame, r->frame, r->c->kind, r->p,
		    r->plen, a->object_name, a->ctx);
}

int cutscene_frames_text(const struct ccsf_scene *s, const uint8_t *data,
			 size_t len, object_name_fn object_name, void *ctx,
			 struct strbuf *out)
{
	struct frames_arg a = { s, object_name, ctx, out };
	each_frame_record(s, data, len, frames_line, &a);
	if (reason_given(&s->error))
		sb_printf(out, "# error: at 0x%zx: %s\n", s->error_offset,
			  s->error.text);
	return out->failed ? -ENOMEM : 0;
}

/* A controller: its line as frames.txt writes a record's, then a line per
 * field it carries; one that cannot be read ends with an error line. */
static void controller_lines(struct strbuf *out, const struct ccsf_scene *s,
			     int32_t frame, uint16_t kind, const uint8_t *p,
			     size_t plen, object_name_fn object_name,
			     void *ctx)
{
	struct anime_controller c;
	struct reason why = { "" };
	int rc = anime_controller_parse(kind, p, plen, &c, &why);
	sb_printf(out, "%" PRId32 " %s ", frame, c.kind_name ? c.kind_name
		  : "controller");
	if (plen >= 4)
		put_object(out, s, rd_u32le(p), object_name, ctx);
	else
		sb_puts(out, "-");
	if (plen >= 8)
		sb_printf(out, " flags=0x%08" PRIx32, c.flags);
	sb_puts(out, "\n");
	anime_controller_text(&c, out);
	if (rc < 0)
		sb_printf(out, "  error: %s\n", why.text);
}

/* An Anime chunk holds frame records of its own after three words
 * (object, frames, words): the same lines as frames.txt, and its
 * controllers decoded. */
int cutscene_anime_text(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t chunk, object_name_fn object_name,
			void *ctx, struct strbuf *out)
{
	size_t plen;
	const uint8_t *p = chunk < s->chunk_count ?
			   ccsf_chunk_payload(&s->chunks[chunk], data, len, &plen) : NULL;
	if (!p || plen < 12) {
		sb_puts(out, "# error: the chunk is too short for its header\n");
		return out->failed ? -ENOMEM : 0;
	}
	sb_puts(out, "# anime ");
	put_object(out, s, rd_u32le(p), object_name, ctx);
	sb_printf(out, " frames=%" PRIu32 " words=%" PRIu32 "\n",
		  rd_u32le(p + 4), rd_u32le(p + 8));
	bool in_frame = false;
	int32_t frame = 0;
	for (size_t off = 12; off < plen;) {
		if (plen - off < CCSF_CHUNK_HEADER) {
			sb_printf(out, "# error: %zu bytes left, less than a "
				  "record header\n", plen - off);
			break;
		}
		uint16_t kind = rd_u16le(p + off);
		uint64_t rlen = 4 * (uint64_t)rd_u32le(p + off + 4);
		if (rlen > plen - off - CCSF_CHUNK_HEADER) {
			sb_printf(out, "# error: record of kind 0x%04x at +%zu "
				  "runs past the chunk\n", kind, off);
			break;
		}
		const uint8_t *rp = p + off + CCSF_CHUNK_HEADER;
		if (kind == CCSF_TOP && rlen >= 4) {
			frame = (int32_t)rd_u32le(rp);
			in_frame = true;
		}
		if (anime_is_controller(kind))
			controller_lines(out, s, frame, kind, rp, (size_t)rlen,
					 object_name, ctx);
		else
			record_line(out, s, in_frame, frame, kind, rp,
				    (size_t)rlen, object_name, ctx);
		off += CCSF_CHUNK_HEADER + (size_t)rlen;
	}
	return out->failed ? -ENOMEM : 0;
}

/* ---- track.txt ----------------------------------------------------------- */

static bool is_track_record(const struct ccsf_chunk *c)
{
	return c->in_frames && c->kind == CCSF_F_OBJ;
}

bool cutscene_has_track(const struct ccsf_scene *s, uint32_t object)
{
	if (!object)
		return false;
	/* The frame section is the file's last chunks (the walk never
	 * leaves it once in): asked for each of 20,000 objects, a scan of
	 * every chunk made a field member's folder take seconds. */
	uint32_t from = s->chunk_count - (s->frame_chunk_count <= s->chunk_count ?
					  s->frame_chunk_count : s->chunk_count);
	for (uint32_t i = from; i < s->chunk_count; i++)
		if (is_track_record(&s->chunks[i]) &&
		    s->chunks[i].object == object)
			return true;
	return false;
}

int cutscene_track_objects(const struct ccsf_scene *s, uint32_t **objects,
			   size_t *count)
{
	*objects = NULL;
	*count = 0;
	/* One flag per index entry: the walk keeps c->object below
	 * object_count, so a lying record cannot index past it. */
	uint8_t *seen = calloc(s->object_count ? s->object_count : 1, 1);
	if (!seen)
		return -ENOMEM;
	size_t n = 0;
	for (uint32_t i = 0; i < s->chunk_count; i++) {
		const struct ccsf_chunk *c = &s->chunks[i];
		if (is_track_record(c) && c->object && !seen[c->object]) {
			seen[c->object] = 1;
			n++;
		}
	}
	if (n) {
		*objects = malloc(n * sizeof **objects);
		if (!*objects) {
			free(seen);
			return -ENOMEM;
		}
		for (uint32_t o = 0; o < s->object_count; o++)
			if (seen[o])
				(*objects)[(*count)++] = o;
	}
	free(seen);
	return 0;
}

struct track_arg {
	uint32_t object;
	struct strbuf *out;
};

static void track_line(const struct frame_record *r, void *arg)
{
	struct track_arg *a = arg;
	if (!is_track_record(r->c) || r->c->object != a->object || !a->object)
		return;
	if (r->plen < F_OBJ_BYTES) {
		sb_printf(a->out, "# an f_obj record of %zu bytes, too short, "
			  "at 0x%" PRIx32 "\n", r->plen, r->c->offset);
		return;
	}
	if (r->in_frame)
		sb_printf(a->out, "%" PRId32, r->frame);
	else
		sb_puts(a->out, "-");
	for (int k = 0; k < 10; k++) {
		sb_puts(a->out, " ");
		sb_float(a->out, rd_f32le(r->p + 8 + 4 * k));
	}
	sb_puts(a->out, "\n");
}

int cutscene_track_text(const struct ccsf_scene *s, const uint8_t *data,
			size_t len, uint32_t object, struct strbuf *out)
{
	sb_puts(out, "# frame pos_x pos_y pos_z rot_x rot_y rot_z "
		"scale_x scale_y scale_z tp\n");
	struct track_arg a = { object, out };
	each_frame_record(s, data, len, track_line, &a);
	return out->failed ? -ENOMEM : 0;
}
