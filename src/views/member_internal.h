/* SPDX-License-Identifier: MIT */
/* member_internal.h - what the member, cutscene and archive folders share:
 * a member's and an archive's records.  Only views/ includes it. */
#ifndef CCSFS_MEMBER_INTERNAL_H
#define CCSFS_MEMBER_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "archive/archive.h"
#include "archive/gzip.h"
#include "archive/index.h"
#include "ccsf/ccsf.h"
#include "decode/cutscene/cutscene.h"
#include "decode/scene/scene_gltf.h"
#include "views/member.h"

/* A cutscene's setup file and the three common setup files. */
#define CUTSCENE_SOURCES_MAX 4

struct member {
	struct archive_dir *ar;
	const struct archive_entry *e;
	const char *name;               /* its directory's name */
	/* The member listed after it (names sorted), NULL for the last: a
	 * glob or `find | sort` goes through the members in this order,
	 * not the archive's. */
	struct member *next_listed;
	struct node *dir;               /* its inode keys its bytes */
	struct node *whole;             /* its .ccs, kept across populates */
	/* What inflation learnt; under fs->lock until `known`. */
	bool known;
	int inflate_rc;
	struct gzip_result gz;
	/* What the walk learnt; written once by the populating thread. */
	bool walked;
	int walk_rc;
	/* The bytes walked (0 before): inflating fewer again means the
	 * source shrank.  Atomic: the read-ahead worker inflates too. */
	_Atomic size_t walked_len;
	struct ccsf_scene scene;
	const char **object_names;      /* display name per object index */
	const char **defined_at;        /* '#' objects: the link's target */
	struct cutscene_audio audio;    /* where audio.wav's blocks are */
	/* A cutscene's scene file: the members its objects come from (its
	 * setup member first, then the common setup files that define some
	 * of them), where each object is defined among them (NULL: this is
	 * no cutscene with a scene.glb), and what scene.glb leaves out of
	 * the frame section (NULL when nothing). */
	struct member *sources[CUTSCENE_SOURCES_MAX];
	uint32_t source_count;
	struct scene_def *def_of;
	const char *frames_problems;
	/* subtitles.srt's cues and lines (cutscene_srt.c), or NULL. */
	struct srt_plan *subtitles;
	/* The game's index: the member's category ("-" without one), fixed
	 * when the archive is listed, and what the table says of it
	 * (archive_index_status), once checked: e's header, table bits and
	 * tail_isize are written once, under fs->lock, before `checked`;
	 * read them only after archive_table_check_member. */
	const char *category;
	const char *table_status;
	atomic_bool checked;
	atomic_bool table_logged;       /* a disagreement inflation found */
	/* The inflated bytes an edit made (member_edit.c), or NULL for the
	 * disc's: changed only while no thread is in the tree. */
	uint8_t *edited;
	size_t edited_len;
};

/* Readers of one archive told apart by where they read. */
#define READ_STREAMS 4

struct archive_dir {
	struct archive_dir *next;
	const char *label;              /* for messages: the source path */
	const char *tree_path;          /* where it is in the tree: DATA/DATA.BIN */
	const char *path;               /* NULL when blob was given */
	struct blob blob;
	bool own_fd;
	struct archive_entry *entries;
	size_t count;
	struct member *members;
	/* The member each of the last few readers asked for last: a reader
	 * whose next member follows one of them reads in order, even while
	 * another reads elsewhere in the same archive. */
	_Atomic size_t last_read[READ_STREAMS];
	atomic_uint next_stream;        /* the slot a new reader takes */
	struct game_index *gi;          /* the source's executable, or NULL */
	const struct fdtbl *table;      /* when the members came from it */
	struct index_lost *lost;        /* its records that name no member */
	size_t nlost;
	_Atomic size_t unchecked;       /* members archive_table_check_member has not done */
	struct node *listing;           /* %members.txt */
};

/* The game's index (archive_table.c): the members from the table when
 * it describes the archive, else from the scan, one log line saying why. */
int archive_table_entries(struct archive_dir *ar);
/* Each member's category, and its table status when known without a
 * check; 0 or -ENOMEM. */
int archive_table_text(struct fs *fs, struct archive_dir *ar);
/* Checks m against its record unless done (one header and one trailer
 * read), logs a disagreement once and settles its folder's mtime. */
void archive_table_check_member(struct fs *fs, struct member *m);
/* Every member checked; on the worker, stops early at unmount. */
void archive_table_check_all(struct fs *fs, struct archive_dir *ar);
/* After listing from the table: the checks queued on the worker. */
void archive_table_check_later(struct fs *fs, struct archive_dir *ar);
/* archive_dir_table_check() of an archive folder's archive. */
int archive_table_compare(struct fs *fs, struct archive_dir *ar,
			table_report_fn report, void *ctx);
/* %members.txt's size: every member's table status must be known. */
uint64_t archive_dir_listing_size(const struct archive_dir *ar);
/* %categories/, when the members came from the table. */
void archive_table_add_categories(struct dir_builder *b, struct archive_dir *ar);
/* Logs, once, what inflating m found that disagrees with its record. */
void archive_table_check_inflated(struct fs *fs, struct member *m, int rc,
				const struct gzip_result *gz);

/* Keeps what inflating m gave: rc, and the gzip checks' result. */
void member_record_outcome(struct fs *fs, struct member *m, int rc,
			   const struct gzip_result *r);
/* A member's folder, populated on first use, and let go as a unit. */
int member_populate(struct fs *fs, struct node *dir);
void member_release(struct fs *fs, struct node *dir);

/* Cutscene pairs (cutscene_dir.c). */
bool cutscene_dir_is_setup(const char *name);
bool cutscene_dir_marked_elsewhere(const struct ccsf_scene *s, uint32_t object);
int cutscene_dir_resolve(struct fs *fs, struct member *m);
/* A cutscene's scene file: finds its setup member and objects there,
 * and what its scene.glb will leave out (logged once).  0 or -ENOMEM. */
int cutscene_dir_prepare(struct fs *fs, struct member *m,
			    const uint8_t *data, size_t len);
int cutscene_dir_add_files(struct fs *fs, struct member *m,
			      struct dir_builder *b, const uint8_t *data,
			      size_t len);

#endif
