/* SPDX-License-Identifier: MIT */
/* gen_exe.c - SLUS_202.67 as the game has it: a small real ELF whose
 * categoryFDTbl and cateCDOfsTbl describe the DATA.BIN just written
 * (doc/formats/archive.md, The game's index), and broken copies of it
 * for the tests.
 *
 * A member's category comes from its name's prefix (exe_category): the
 * generated names say what a member is much as the game's do, and every
 * category the tree shows has members on the sample and full discs.  A
 * category's offset is its first member's; its records follow in archive
 * order.  The generated categories interleave in the archive, which the
 * game's do not: a reader must not count on a category being one run. */
#include "gen.h"
#include "elfw.h"
#include "gen_text.h"

#define VADDR 0x00100000u
#define RECORD 44
#define NCAT 20
#define TABLES (4 * NCAT + 8 * NCAT)    /* categoryFDTbl, cateCDOfsTbl */

/* The game's twenty categories, in its order. */
static const char *const categories[NCAT] = {
	"cmn", "gcmn", "demo", "desktop", "toppage", "menu", "effect",
	"equip", "skill", "spc", "pc", "npc", "gimmick", "enemy", "boss",
	"town", "field", "dungeon", "event", "direct",
};

/* Name prefixes and their category; the first that matches wins, and a
 * name matching none is common (cmn). */
static const struct { const char *prefix; unsigned category; } by_prefix[] = {
	{ "xold", 1 }, { "framebuf", 5 }, { "eff", 6 }, { "itm", 7 },
	{ "wpn", 7 }, { "snd", 9 }, { "pc", 10 }, { "chr", 10 },
	{ "npc", 11 }, { "obj", 12 }, { "mon", 13 }, { "xbig", 14 },
	{ "twn", 15 }, { "fld", 16 }, { "bg", 16 }, { "sky", 16 },
	{ "map", 16 }, { "dng", 17 }, { "evt", 18 }, { "names", 18 },
};

unsigned exe_category(const char *fname)
{
	for (size_t i = 0; i < sizeof by_prefix / sizeof by_prefix[0]; i++)
		if (!strncmp(fname, by_prefix[i].prefix,
			     strlen(by_prefix[i].prefix)))
			return by_prefix[i].category;
	return 0;
}

void exe_index_add(struct exe_index *x, const char *fname, uint64_t offset,
		   uint64_t length, size_t usize)
{
	x->m = realloc(x->m, (x->count + 1) * sizeof *x->m);
	if (!x->m)
		die("out of memory");
	struct exe_member *m = &x->m[x->count++];
	snprintf(m->fname, sizeof m->fname, "%s", fname);
	m->offset = offset;
	m->length = length;
	m->usize = (uint32_t)usize;
}

/* XASC00.CCS for xasc00.cmp: upper case, .cmp as .CCS. */
static void record_name(const char *fname, char out[32])
{
	memset(out, 0, 32);
	size_t n = strlen(fname);
	if (n >= 4 && !strcmp(fname + n - 4, ".cmp"))
		n -= 4;
	if (n > 27)
		n = 27;         /* and .CCS: 31 bytes and a NUL */
	for (size_t i = 0; i < n; i++)
		out[i] = (char)(fname[i] >= 'a' && fname[i] <= 'z'
				? fname[i] - 32 : fname[i]);
	memcpy(out + n, ".CCS", 4);
}

static void w32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* One category's records and its end; returns the bytes written. */
static size_t put_table(uint8_t *seg, const struct exe_index *x,
			unsigned cat, uint64_t base, enum exe_variant v)
{
	size_t at = 0;
	for (size_t i = 0; i < x->count; i++) {
		const struct exe_member *m = &x->m[i];
		if (exe_category(m->fname) != cat || !m->fname[0] ||
		    (v == EXE_MISSING && !strcmp(m->fname, "empty.cmp")))
			continue;
		record_name(m->fname, (char *)seg + at);
		/* The wrong name: FLX000.CCS for fld000.cmp. */
		if (v == EXE_WRONG_NAME && !strcmp(m->fname, "fld000.cmp"))
			seg[at + 2] = 'X';
		w32(seg + at + 32, (uint32_t)(m->offset - base));
		w32(seg + at + 36, (uint32_t)m->length);
		/* The wrong usize: the first pc member's, one too many. */
		bool lie = v == EXE_WRONG_USIZE && cat == 10 && at == 0;
		w32(seg + at + 40, m->usize + (lie ? 1 : 0));
		at += RECORD;
	}
	return at + (v == EXE_NO_END ? 0 : RECORD);
}

static uint64_t category_base(const struct exe_index *x, unsigned cat)
{
	for (size_t i = 0; i < x->count; i++)
		if (exe_category(x->m[i].fname) == cat && x->m[i].fname[0])
			return x->m[i].offset;
	return 0;
}

/* The streams of STR1.BIN's cutscene pairs: strNNNNe then strNNNN is
 * stream NNNN + 1 (str0001 is the game's stream 2), and stream 7 lists
 * the first pair again from the archive's start, so that a scene file
 * has two streams. */
static size_t pair_streams(const struct exe_index *x, struct gen_stream *s,
			   struct gen_stream_file (*files)[2], char (*stems)[2][16],
			   size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i + 1 < x->count && n + 1 < max; i++) {
		const struct exe_member *a = &x->m[i], *b = &x->m[i + 1];
		unsigned num;
		char tail[8];
		if (sscanf(a->fname, "str%4ue.%7s", &num, tail) != 2 ||
		    strcmp(tail, "tmp") || num + 1 >= GEN_STREAMS)
			continue;
		snprintf(stems[n][0], 16, "str%04ue", num);
		snprintf(stems[n][1], 16, "str%04u", num);
		files[n][0] = (struct gen_stream_file){ stems[n][0], a->offset,
			(uint32_t)a->length, a->usize, 0 };
		files[n][1] = (struct gen_stream_file){ stems[n][1], b->offset,
			(uint32_t)b->length, b->usize, -1 };
		s[n] = (struct gen_stream){ num + 1, stems[n][1], a->offset,
					    files[n], 2 };
		n++;
	}
	if (n && s[0].number != 7) {
		s[n] = s[0];
		s[n].number = 7;
		s[n].header_ofs = 0;
		n++;
	}
	return n;
}

/* The loaded segment: a little code-like filler, both tables, then each
 * category's table, then the text and stream tables (gen_text.c).  syms
 * gets the symbols (names point into names). */
static uint8_t *build_segment(const struct exe_index *x,
			      const struct exe_index *streams,
			      enum exe_variant v, size_t *len,
			      struct elfw_symbol *syms, char names[NCAT][24])
{
	size_t cap = 256 + TABLES + (x->count + NCAT) * RECORD;
	uint8_t *seg = calloc(1, cap);
	if (!seg)
		die("out of memory");
	struct rng r = { 0x51u };
	for (size_t i = 0; i < 256; i += 4)
		w32(seg + i, rng_next(&r) | 1);
	size_t ptrs = 256, offs = ptrs + 4 * NCAT, at = offs + 8 * NCAT;
	syms[0] = (struct elfw_symbol){ "categoryFDTbl", VADDR + (uint32_t)ptrs,
					4 * NCAT, true };
	syms[1] = (struct elfw_symbol){ "cateCDOfsTbl", VADDR + (uint32_t)offs,
					8 * NCAT, true };
	for (unsigned c = 0; c < NCAT; c++) {
		uint64_t base = category_base(x, c);
		w32(seg + ptrs + 4 * c, VADDR + (uint32_t)at);
		w32(seg + offs + 8 * c, (uint32_t)base);
		w32(seg + offs + 8 * c + 4, (uint32_t)(base >> 32));
		size_t n = put_table(seg + at, x, c, base, v);
		snprintf(names[c], 24, "%sCCSTbl", categories[c]);
		syms[2 + c] = (struct elfw_symbol){ names[c], VADDR + (uint32_t)at,
						    (uint32_t)n, true };
		at += n;
	}
	struct gen_stream s[8];
	struct gen_stream_file files[8][2];
	char stems[8][2][16];
	size_t ns = streams ? pair_streams(streams, s, files, stems, 8) : 0;
	/* The lying stream table: the scene's size and gzip one too many,
	 * the setup file's offset a sector on; and stream 2's last subtitle
	 * line missing. */
	if (v == EXE_WRONG_STREAM && ns) {
		files[0][1].csize++;
		files[0][1].usize++;
		files[0][0].offset += 2048;
	}
	/* noend's last table must run off the segment: nothing follows. */
	size_t tlen = 0;
	uint8_t *text = gen_text_block(VADDR + (uint32_t)at, s, ns,
				       v == EXE_WRONG_STREAM, &tlen,
				       syms + 2 + NCAT);
	if (v == EXE_NO_END)
		tlen = 0;
	seg = realloc(seg, at + tlen);
	if (!seg)
		die("out of memory");
	memcpy(seg + at, text, tlen);
	free(text);
	*len = at + tlen;
	return seg;
}

static uint8_t *garbage(size_t *len)
{
	enum { EXE = 6144 };
	uint8_t *f = calloc(1, EXE);
	if (!f)
		die("out of memory");
	memcpy(f, "\x7f" "ELF\x01\x01\x01", 7);
	struct rng r = { 0x51u };
	for (size_t i = 16; i < EXE; i++)     /* all but e_ident: noise */
		f[i] = (uint8_t)rng_next(&r);
	*len = EXE;
	return f;
}

void write_exe(const char *path, const struct exe_index *x,
	       const struct exe_index *streams, enum exe_variant v)
{
	size_t len;
	uint8_t *f;
	if (v == EXE_GARBAGE) {
		f = garbage(&len);
	} else {
		struct elfw_symbol syms[2 + NCAT + GEN_TEXT_SYMS];
		char names[NCAT][24];
		size_t seg_len;
		uint8_t *seg = build_segment(x, streams, v, &seg_len, syms,
					     names);
		f = elfw_build(seg, seg_len, VADDR, syms,
			       2 + NCAT + GEN_TEXT_SYMS,
			       v == EXE_STRIPPED, &len);
		free(seg);
		if (!f)
			die("out of memory");
	}
	write_file(path, f, len);
	free(f);
}

/* An nm-style list of the symbols (ADDRESS TYPE NAME), as one would
 * keep for a stripped executable. */
static void write_symbols(const char *path, const struct elfw_symbol *syms,
			  size_t n)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%08x D %s\n", (unsigned)syms[i].value, syms[i].name);
	if (fclose(f) != 0)
		die("%s: %s", path, strerror(errno));
}

/* The good executable as SLUS_202.67 and, with vdir, the broken ones as
 * VDIR/stripped, usize, noend, garbage, missing (no record for the
 * member empty.cmp), name (fld000.cmp's record named FLX000.CCS) and
 * streams (stream 2's records lie: sizes, an offset),
 * and VDIR/symbols.txt, the good one's symbols for the stripped one.
 * streams: STR1.BIN's members, for the stream tables (or NULL). */
void write_exes(const char *dir, const char *vdir, struct exe_index *x,
		struct exe_index *streams)
{
	char *p = xasprintf("%s/SLUS_202.67", dir);
	write_exe(p, x, streams, EXE_GOOD);
	free(p);
	static const char *const vname[] = { "stripped", "usize", "noend",
					     "garbage", "missing", "name",
					     "streams" };
	static const enum exe_variant vv[] = { EXE_STRIPPED, EXE_WRONG_USIZE,
					       EXE_NO_END, EXE_GARBAGE,
					       EXE_MISSING, EXE_WRONG_NAME,
					       EXE_WRONG_STREAM };
	if (vdir) {
		make_dirs(vdir);
		for (size_t i = 0; i < sizeof vv / sizeof vv[0]; i++) {
			p = xasprintf("%s/%s", vdir, vname[i]);
			write_exe(p, x, streams, vv[i]);
			free(p);
		}
		struct elfw_symbol syms[2 + NCAT + GEN_TEXT_SYMS];
		char names[NCAT][24];
		size_t seg_len;
		free(build_segment(x, streams, EXE_GOOD, &seg_len, syms, names));
		p = xasprintf("%s/symbols.txt", vdir);
		write_symbols(p, syms, 2 + NCAT + GEN_TEXT_SYMS);
		free(p);
	}
	free(x->m);
	x->m = NULL;
	x->count = 0;
	if (streams) {
		free(streams->m);
		streams->m = NULL;
		streams->count = 0;
	}
}
