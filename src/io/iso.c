/* SPDX-License-Identifier: MIT */
/* iso.c - an ISO 9660 image's directories, through libiso9660. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cdio/bytesex.h>
#include <cdio/iso9660.h>

#include "io/iso.h"
#include "util/vec.h"

/* A directory record (ECMA-119 9.1), by byte offset. */
enum {
	REC_LEN = 0,
	REC_EAR_LEN = 1,        /* extended attribute record, in sectors */
	REC_EXTENT = 2,         /* both-endian u32: little-endian half first */
	REC_SIZE = 10,
	REC_TIME = 18,          /* 7 bytes: year-1900 .. second, GMT offset */
	REC_FLAGS = 25,
	REC_UNIT_SIZE = 26,     /* interleaving: nonzero when interleaved */
	REC_GAP = 27,
	REC_NAME_LEN = 32,
	REC_NAME = 33,
};

enum {
	FLAG_DIR = 0x02,
	FLAG_ASSOCIATED = 0x04,
	FLAG_MULTI_EXTENT = 0x80,       /* more records of this file follow */
};

/* No game directory comes near this; a record claiming more is broken,
 * and would otherwise make us allocate up to 4 GiB. */
#define DIR_MAX_BYTES (16u << 20)

struct iso_image {
	iso9660_t *iso;
	pthread_mutex_t lock;   /* iso9660_t's stream seeks, then reads */
	int fd;                 /* file bytes: pread needs no lock */
	uint64_t size;
	struct iso_entry root;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool iso_probe(const uint8_t *p, size_t len)
{
	return len >= ISO_PROBE_LEN && p[0] == 1 &&
	       memcmp(p + 1, "CD001", 5) == 0 && p[6] == 1;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's
 * days_from_civil): no time zone involved, unlike mktime. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* The record's time is local time at the recorder, with that place's
 * offset from GMT in 15-minute units (ECMA-119 9.1.5).  All zeros means
 * "not recorded": 0.  An offset out of range is ignored, as Linux does. */
static time_t record_time(const uint8_t t[7])
{
	unsigned mon = t[1], day = t[2], hour = t[3], min = t[4], sec = t[5];
	if (!t[0] && !mon && !day && !hour && !min && !sec)
		return 0;
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 ||
	    min > 59 || sec > 60)
		return 0;
	int gmtoff = (int8_t)t[6];
	if (gmtoff < -48 || gmtoff > 52)
		gmtoff = 0;
	int64_t days = days_from_civil(1900 + t[0], mon, day);
	int64_t secs = days * 86400 + hour * 3600 + min * 60 + sec;
	return (time_t)(secs - (int64_t)gmtoff * 15 * 60);
}

/* The name as a path component: "DATA.BIN;1" -> "DATA.BIN", "NOEXT.;1"
 * -> "NOEXT".  False for names no path can hold. */
static bool clean_name(const uint8_t *raw, size_t n, char *out)
{
	const uint8_t *semi = memchr(raw, ';', n);
	if (semi)
		n = (size_t)(semi - raw);
	if (n > 1 && raw[n - 1] == '.')
		n--;
	if (n == 0 || memchr(raw, '\0', n) || memchr(raw, '/', n))
		return false;
	memcpy(out, raw, n);
	out[n] = '\0';
	return strcmp(out, ".") != 0 && strcmp(out, "..") != 0;
}

/* Where the entry's extent lies, and how much of it the image holds. */
static void place_extent(struct iso_entry *e, const uint8_t *rec,
			 uint64_t image_size)
{
	e->lsn = le32(rec + REC_EXTENT);
	/* Data follows the extended attribute record, if there is one. */
	e->offset = ((uint64_t)e->lsn + rec[REC_EAR_LEN]) * ISO_SECTOR;
	e->recorded_size = le32(rec + REC_SIZE);
	e->size = e->recorded_size;
	uint64_t room = e->offset < image_size ? image_size - e->offset : 0;
	if (e->size > room) {
		e->size = room;
		e->clipped = true;
	}
}

/* Decodes one record of len bytes (checked to hold its name).  False
 * when it is not listed: '.', '..' or a bad name. */
static bool decode_record(const uint8_t *rec, uint64_t image_size,
			  struct iso_entry *e)
{
	memset(e, 0, sizeof *e);
	if (!clean_name(rec + REC_NAME, rec[REC_NAME_LEN], e->name))
		return false;
	e->is_dir = rec[REC_FLAGS] & FLAG_DIR;
	e->mtime = record_time(rec + REC_TIME);
	place_extent(e, rec, image_size);
	return true;
}

static bool is_self_or_parent(const uint8_t *rec)
{
	return rec[REC_NAME_LEN] == 1 &&
	       (rec[REC_NAME] == 0 || rec[REC_NAME] == 1);
}

static int listing_push(struct iso_listing *l, size_t *cap,
			const struct iso_entry *e)
{
	if (vec_reserve(l->entries, cap, l->count + 1, 16) < 0)
		return -ENOMEM;
	l->entries[l->count++] = *e;
	return 0;
}

/* The parts of a multi-extent file, all named alike, are skipped
 * together: listing the first part alone would show a short file. */
struct multi {
	bool open;
	uint8_t len;
	uint8_t name[ISO_NAME_MAX];
};

static bool skip_multi_part(struct multi *m, const uint8_t *rec)
{
	uint8_t n = rec[REC_NAME_LEN];
	bool part = m->open && n == m->len &&
		    memcmp(rec + REC_NAME, m->name, n) == 0;
	if (rec[REC_FLAGS] & FLAG_MULTI_EXTENT) {
		m->open = true;
		m->len = n;
		memcpy(m->name, rec + REC_NAME, n);
		return true;
	}
	m->open = false;
	return part;
}

/* Records do not cross sector boundaries (ECMA-119 6.8.1.1): a zero
 * length byte pads to the next sector, and so does anything malformed,
 * so one bad record costs at most the rest of its sector. */
static int parse_sector(const uint8_t *s, size_t len, uint64_t image_size,
			uint64_t at, struct multi *multi,
			struct iso_listing *l, size_t *cap)
{
	size_t off = 0;
	while (off < len && s[off] != 0) {
		const uint8_t *rec = s + off;
		size_t reclen = rec[REC_LEN];
		if (reclen < REC_NAME + 1 || reclen > len - off ||
		    REC_NAME + (size_t)rec[REC_NAME_LEN] > reclen) {
			l->skipped++;
			break;
		}
		off += reclen;
		if (is_self_or_parent(rec))
			continue;
		bool is_dir = rec[REC_FLAGS] & FLAG_DIR;
		if (skip_multi_part(multi, rec) ||
		    (rec[REC_FLAGS] & FLAG_ASSOCIATED) ||
		    (!is_dir && (rec[REC_UNIT_SIZE] || rec[REC_GAP]))) {
			l->skipped++;
			continue;
		}
		struct iso_entry e;
		if (!decode_record(rec, image_size, &e)) {
			l->skipped++;
			continue;
		}
		e.record_at = at + off - reclen;
		int rc = listing_push(l, cap, &e);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int read_sectors(struct iso_image *img, void *buf, uint32_t lsn,
			size_t sectors)
{
	pthread_mutex_lock(&img->lock);
	long got = iso9660_iso_seek_read(img->iso, buf, (lsn_t)lsn,
					 (long)sectors);
	pthread_mutex_unlock(&img->lock);
	return got == (long)(sectors * ISO_SECTOR) ? 0 : -EIO;
}

int iso_list(struct iso_image *img, const struct iso_entry *dir,
	     struct iso_listing *out)
{
	memset(out, 0, sizeof *out);
	if (!dir->is_dir)
		return -ENOTDIR;
	if (dir->recorded_size > DIR_MAX_BYTES)
		return -EFBIG;
	/* A directory cut short would list some of its files and hide the
	 * rest without a word: refuse it whole. */
	if (dir->clipped)
		return -EIO;
	size_t sectors = (dir->recorded_size + ISO_SECTOR - 1) / ISO_SECTOR;
	if (sectors == 0)
		return 0;
	/* Whole sectors are read, so the last one must be in the image too. */
	if (dir->offset + sectors * ISO_SECTOR > img->size)
		return -EIO;
	uint8_t *buf = malloc(sectors * ISO_SECTOR);
	if (!buf)
		return -ENOMEM;
	int rc = read_sectors(img, buf, (uint32_t)(dir->offset / ISO_SECTOR),
			      sectors);
	size_t cap = 0;
	struct multi multi = { 0 };
	for (size_t i = 0; rc == 0 && i < sectors; i++) {
		size_t len = ISO_SECTOR;
		if (i == sectors - 1 && dir->recorded_size % ISO_SECTOR)
			len = dir->recorded_size % ISO_SECTOR;
		rc = parse_sector(buf + i * ISO_SECTOR, len, img->size,
				  dir->offset + i * ISO_SECTOR, &multi, out,
				  &cap);
	}
	free(buf);
	if (rc < 0)
		iso_listing_free(out);
	return rc;
}

void iso_listing_free(struct iso_listing *l)
{
	free(l->entries);
	memset(l, 0, sizeof *l);
}

struct blob iso_blob(const struct iso_image *img, const struct iso_entry *e)
{
	return (struct blob){ img->fd, e->offset, e->size };
}

int iso_fd(const struct iso_image *img)
{
	return img->fd;
}

uint64_t iso_image_size(const struct iso_image *img)
{
	return img->size;
}

const struct iso_entry *iso_root(const struct iso_image *img)
{
	return &img->root;
}

/* Opens our own fd and learns the size: lseek works for block devices,
 * whose st_size is 0. */
static int open_image(struct iso_image *img, const char *path, char *err,
		      size_t errlen)
{
	img->fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t end = img->fd < 0 ? -1 : lseek(img->fd, 0, SEEK_END);
	if (end < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	img->size = (uint64_t)end;
	return 0;
}

/* Tells "not an image at all" from "an image libiso9660 cannot read",
 * which libiso9660 alone reports the same way (NULL). */
static int check_descriptor(const struct iso_image *img, const char *path,
			    char *err, size_t errlen)
{
	uint8_t vd[ISO_PROBE_LEN];
	ssize_t got = pread(img->fd, vd, sizeof vd, ISO_PROBE_OFFSET);
	if (got < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!iso_probe(vd, (size_t)got)) {
		snprintf(err, errlen, "%s: not an ISO 9660 image (no primary "
			 "volume descriptor at sector 16)", path);
		return -1;
	}
	return 0;
}

/* The root directory's record, from the primary volume descriptor. */
static int read_root(struct iso_image *img, const char *path, char *err,
		     size_t errlen)
{
	iso9660_pvd_t pvd;
	if (!iso9660_ifs_read_pvd(img->iso, &pvd)) {
		snprintf(err, errlen, "%s: cannot read the primary volume "
			 "descriptor", path);
		return -1;
	}
	unsigned block = from_723(pvd.logical_block_size);
	if (block != ISO_SECTOR) {
		snprintf(err, errlen, "%s: ISO 9660 blocks of %u bytes; only "
			 "%d-byte blocks are supported", path, block,
			 ISO_SECTOR);
		return -1;
	}
	const uint8_t *rec = (const uint8_t *)&pvd.root_directory_record;
	memset(&img->root, 0, sizeof img->root);
	img->root.is_dir = true;
	img->root.mtime = record_time(rec + REC_TIME);
	place_extent(&img->root, rec, img->size);
	if (!(rec[REC_FLAGS] & FLAG_DIR) || img->root.clipped) {
		snprintf(err, errlen, "%s: the root directory lies past the "
			 "image's end (a truncated image?)", path);
		return -1;
	}
	return 0;
}

struct iso_image *iso_open(const char *path, char *err, size_t errlen)
{
	struct iso_image *img = calloc(1, sizeof *img);
	if (!img) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	img->fd = -1;
	pthread_mutex_init(&img->lock, NULL);
	if (open_image(img, path, err, errlen) < 0 ||
	    check_descriptor(img, path, err, errlen) < 0)
		goto fail;
	img->iso = iso9660_open_ext(path, ISO_EXTENSION_NONE);
	if (!img->iso) {
		snprintf(err, errlen, "%s: libiso9660 cannot read its volume "
			 "descriptors (a damaged or truncated image?)", path);
		goto fail;
	}
	if (read_root(img, path, err, errlen) < 0)
		goto fail;
	return img;
fail:
	iso_close(img);
	return NULL;
}

void iso_close(struct iso_image *img)
{
	if (!img)
		return;
	if (img->iso)
		iso9660_close(img->iso);
	if (img->fd >= 0)
		close(img->fd);
	pthread_mutex_destroy(&img->lock);
	free(img);
}
