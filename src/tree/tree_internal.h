/* SPDX-License-Identifier: MIT */
/* tree_internal.h - what tree.c (nodes, folders), files.c (attributes
 * and reads), ahead.c (work ahead of listings and readers) and access.c
 * (what the layers above learn of a node) share; only tree/ includes
 * it. */
#ifndef CCSFS_TREE_INTERNAL_H
#define CCSFS_TREE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tree/tree.h"

enum { DIR_EMPTY, DIR_BUILDING, DIR_READY };

struct node {
	const char *name;
	struct node *parent;
	/* What stat says: a hash of the path (tree_ino), made on first use,
	 * so the same file has the same number on every mount and after
	 * its folder was let go and made again.  0 until then. */
	_Atomic uint64_t ino;
	uint8_t type;           /* enum node_type */
	uint8_t file_kind;      /* enum file_kind */
	/* Listed before its mtime (a folder) or size (a file) is known:
	 * fs->settle learns them on the first stat, and a listing leaves
	 * them out.  Cleared once, after they are written. */
	atomic_bool unsettled;
	/* Its place among its parent's kids, set when they are published
	 * (they never move after): the listing hints step from folder to
	 * folder by it, not by a search of names. */
	uint32_t place;
	/* Its number in its unit, from 1 (0: in none): with the unit's,
	 * it names the node to the kernel (tree_handle). */
	uint32_t local;
	time_t mtime;
	_Atomic uint64_t size;  /* files; SIZE_UNKNOWN until first made */
	union {
		struct {
			struct node **kids;     /* sorted by name */
			uint32_t nkids;
			uint32_t nsubdirs;
			_Atomic int state;
			/* Listed and its files measured ahead of a listing
			 * (ls -l): reading it tells the listing goes on, and
			 * the workers take the farthest of the next
			 * TREE_LIST_AHEAD folders not listed yet. */
			atomic_bool listed_ahead;
			/* A folder below it was listed, or a file below it
			 * opened or made: its member is in use (handoff.c). */
			atomic_bool used_below;
			/* Populating it costs (a member's inflate and walk):
			 * a listing that goes through such folders in order
			 * has the next ones populated ahead. */
			bool costly;
			int error;              /* a failed populate */
			populate_fn populate;
			void *ctx;
			/* A unit's folder (dir_make_unit): its release, and
			 * the unit while it is populated. */
			release_fn release;
			bool keep;
			uint32_t unit_id;
			struct unit *unit;
		} dir;
		struct {
			const char *path;       /* on the host */
		} host;
		struct blob blob;               /* bytes inside an open image */
		struct {
			const struct view_ops *ops;
			void *source;
			uint64_t offset;
			bool whole;     /* the member itself: intact or EIO */
			/* Under fs->lock (handoff.c): opened by a reader,
			 * and handed to the kernel. */
			bool opened, handed;
		} view;
		struct {
			produce_fn produce;
			void *ctx;
			uint32_t arg;
			_Atomic bool measuring; /* a thread counts its size */
			bool measures;          /* produce takes data NULL */
		} made;
		struct {
			stream_fn read;
			void *ctx;
		} stream;
		struct {
			const char *target;
		} link;
	} u;
};

/* The mounted filesystem: what every callback needs. */
struct fs {
	struct node *root;
	struct cache *cache;
	size_t max_member;              /* largest inflated member accepted */
	int png_level;                  /* zlib level of made PNGs; 0 stores */
	uid_t uid;
	gid_t gid;
	pthread_mutex_t lock;           /* directory states, member outcomes */
	pthread_cond_t populated;
	pthread_cond_t measured;        /* a file's measuring ended */
	struct arena *arenas;           /* everything the tree allocated */
	struct destroy_hook *hooks;     /* run at unmount, newest first */
	pthread_mutex_t arena_lock;
	/* Held for reading by whoever looks at nodes (tree_enter); taken
	 * for writing only by the thread that lets units go, and only
	 * when no one holds it (unit.c). */
	pthread_rwlock_t use_lock;
	struct reclaim *reclaim;        /* the units and their budget */
	struct readahead readahead;
	_Atomic(struct node *) last_made;       /* a reader's last new file */
	_Atomic(struct node *) last_stat;       /* the last stat that made */
	_Atomic(struct node *) last_opened;     /* the last folder listed */
	/* Stats that had to size a file since a made file was last opened:
	 * many mean a listing, which wants sizes; few, readers (one or a
	 * few at once), who open what they stat and want the bytes. */
	atomic_uint stats_unopened;
	/* The folders a listing reads next, as ahead.c's queue_list_ahead
	 * walked them last: walk_steps folders on from walk_from, in the
	 * ring walk_ring (walk_put counts what was put in it; the newest is
	 * at walk_put - 1). */
	pthread_mutex_t walk_lock;
	struct node *walk_from;
	struct node *walk_ring[TREE_WALK_RING];
	unsigned walk_steps, walk_put;
	/* Who takes a member's bytes as the cache evicts them (handoff.c),
	 * and the file being handed over now (under lock; opens of it wait
	 * for handed_over). */
	tree_evicted_fn on_evicted;
	void *evicted_ctx;
	struct node *handing;
	pthread_cond_t handed_over;
	/* Learns an unsettled node's attributes and clears n->unsettled; set
	 * by the view that lists such nodes, before it publishes them. */
	settle_fn settle;
};

/* tree.c: the tree's arenas hold nodes and names, freed as a whole. */
#define ARENA_SIZE (64 * 1024)
/* n bytes, zeroed, from the first arena of *list, or from a new one of
 * at least chunk bytes put first (its size then in *taken, else 0). */
void *arena_take(struct arena **list, size_t n, size_t chunk,
		 size_t *taken);
void arena_free_all(struct arena *list);

/* unit.c: the units' state, made by fs_new; fs_free ends their thread
 * before the tree's folders go and frees them after. */
int reclaim_init(struct fs *fs);
void reclaim_stop(struct fs *fs);
void reclaim_free(struct fs *fs);
/* unit.c: a unit's folder starts being populated: its memory from now
 * on is the unit's. */
void unit_begin(struct fs *fs, struct node *dir);
/* unit.c: n's unit was used now (the oldest go first). */
void unit_touch(struct fs *fs, struct node *n);
/* unit.c: n, just made in folder in, takes the next number of in's
 * unit, if in is in one. */
void unit_add_node(struct fs *fs, struct node *in, struct node *n);
/* unit.c: the folder of unit number id, or NULL; the node numbered local
 * in root's unit as it is populated now, or NULL. */
struct node *unit_root(struct fs *fs, uint32_t id);
struct node *unit_node(struct fs *fs, struct node *root, uint32_t local);

/* A handle (tree_handle): the top bit, the unit's number, the node's,
 * and the low bits of its inode number (tree_node checks them). */
#define HANDLE_UNIT_BITS 23
#define HANDLE_LOCAL_BITS 24
#define HANDLE_CHECK_BITS 16
_Static_assert(1 + HANDLE_UNIT_BITS + HANDLE_LOCAL_BITS +
	       HANDLE_CHECK_BITS == 64, "a handle is 64 bits");

/* How many stats that size a file, with no made file opened between,
 * make a listing (fs->stats_unopened): more than readers at once take
 * (ccsfs-check's jobs, a few cat), few enough that a listing measures
 * all but its first. */
#define LISTING_STATS 8

/* The child called name, by binary search; its position in *index when
 * index is not NULL. */
struct node *tree_kid_named(const struct node *dir, const char *name,
			    size_t *index);
/* Whether n is one of dir's published kids; its position in *index. */
bool tree_kid_place(const struct node *dir, const struct node *n,
		    size_t *index);

/* files.c: whether a stat that has to size a file measures it (a
 * listing, which wants sizes) rather than make it (a reader, who opens
 * what it stats and would have it made twice). */
bool tree_stat_measures(struct fs *fs, const struct node *n);
/* files.c: makes a file into the cache (or finds it there), holding
 * nothing. */
int tree_make_cached(struct fs *fs, struct node *n);
/* files.c: learns a made file's size, once: counted by its producer when
 * `measure`, else made into the cache. */
int tree_made_size(struct fs *fs, struct node *n, bool measure);

/* ahead.c: a stat that has to size n; a listing's stats have the
 * folders after n's listed ahead and the files after n sized. */
void tree_stat_ahead(struct fs *fs, struct node *n);

/* handoff.c: a reader opened the view file (waits out its handoff). */
void tree_view_opened(struct fs *fs, struct node *file);
/* handoff.c: n was listed (a folder), opened or made: every folder above
 * it is in use. */
void tree_mark_used(struct node *n);

#endif
