/* SPDX-License-Identifier: MIT */
/* tree.h - the virtual tree: directories, files and links, with stable
 * inode numbers, built lazily.
 *
 * A directory is filled by its populate function on first use, once, while
 * other threads wait; after that its children never change, so lookups
 * need no lock.  A file's bytes come from one of three places: the source
 * itself (passed through), a slice of a member's inflated bytes (a view),
 * or a producer that makes them (text, PNG, OBJ) into the cache.  Adding a
 * format adds a producer, not a special case here or in the FUSE glue.
 */
#ifndef CCSFS_TREE_H
#define CCSFS_TREE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "cache/cache.h"
#include "cache/readahead.h"
#include "io/blob.h"

/* How far past the folder a listing is in the workers list ahead
 * (ahead.c says why so far). */
#define TREE_LIST_AHEAD 160
/* Room for them: a power of two, so that a count that wraps past
 * UINT_MAX still names the same place. */
#define TREE_WALK_RING 256
_Static_assert(TREE_WALK_RING >= TREE_LIST_AHEAD &&
	       (TREE_WALK_RING & (TREE_WALK_RING - 1)) == 0,
	       "the walk's ring holds every folder within reach");

struct fs;
struct node;
struct arena;
struct unit;
struct reclaim;
struct destroy_hook;
struct strbuf;

enum node_type { NODE_DIR, NODE_FILE, NODE_LINK };
enum file_kind { FILE_HOST, FILE_VIEW, FILE_MADE, FILE_BLOB, FILE_STREAM };

typedef int (*populate_fn)(struct fs *fs, struct node *dir);
/* Forgets what a populate stored outside the tree for a unit's folder
 * (see dir_make_unit), when the tree lets its contents go. */
typedef void (*release_fn)(struct fs *fs, struct node *dir);
/* Makes a file's bytes (malloc'ed) or returns a negative errno.  One
 * added with dir_add_measured also takes data NULL: then it only counts
 * the bytes it would make into *len, which costs less than making them
 * and holds nothing. */
typedef int (*produce_fn)(struct fs *fs, struct node *file, uint8_t **data,
			  size_t *len);

/* Fills buf with a streamed file's bytes at off (fewer only at its end);
 * returns the count or a negative errno. */
typedef ssize_t (*stream_fn)(struct fs *fs, struct node *file, char *buf,
			     size_t size, uint64_t off);

/* What a view is a slice of, offered by the folder that adds it: the
 * tree reads through these and knows nothing of members. */
struct view_ops {
	/* The bytes the view's offset points into, by reference; -EIO when
	 * they cannot be had. */
	int (*bytes)(struct fs *fs, struct node *view, struct cache_ref *ref);
	/* Whether the view can be read, without touching its bytes. */
	int (*open)(struct fs *fs, struct node *view);
};

#define SIZE_UNKNOWN UINT64_MAX

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

/* See tree_on_evicted. */
typedef void (*tree_evicted_fn)(void *ctx, struct node *file,
				struct cache_ref *ref);

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
	int (*settle)(struct fs *fs, struct node *n);
};

int fs_init(struct fs *fs, size_t cache_size);
void fs_destroy(struct fs *fs);

/* The cache's key for a permanent folder's bytes (a member's, a model
 * database's): the folder's address, so that what the cache evicts
 * leads back to it.  Made files are keyed by their inode number with
 * the top bit set (files.c), which no address has. */
static inline uint64_t tree_key(const struct node *n)
{
	return (uint64_t)(uintptr_t)n;
}

/* The node's inode number as stat gives it: 1 for the root, else a
 * 64-bit hash of its parent's number and its name. */
uint64_t tree_ino(struct node *n);
/* A made file's key: inode numbers name the same bytes on every mount,
 * so what a file let go and made again finds in the cache is its own. */
static inline uint64_t tree_made_key(struct node *n)
{
	return tree_ino(n) | (UINT64_C(1) << 63);
}

/* ---- units: what the tree lets go, and makes again ----
 *
 * A unit is a folder whose contents are made by one populate (a
 * member's) and can be made again from the same bytes.  Its nodes, and
 * what its view allocates with tree_alloc, live in the unit's own
 * memory, charged to the cache's bound; when the units together pass
 * their budget, the oldest that nothing holds are let go: the folder
 * goes back to unpopulated and its release runs.  A thread that keeps
 * a node of a unit across calls (outside tree_enter) holds it
 * (tree_hold).  keep: never let go (other units' contents point into
 * it).  The kernel may keep a unit's nodes for as long as it likes: it
 * names them by handles (tree_handle) that make the unit again. */
int dir_make_unit(struct fs *fs, struct node *dir, release_fn release,
		  bool keep);
/* Memory that lives as long as dir's contents: the unit's when dir is
 * one or lies inside one, else the tree's. */
void *tree_alloc(struct fs *fs, struct node *dir, size_t n);
char *tree_strdup(struct fs *fs, struct node *dir, const char *s);
/* Charges bytes that dir's view holds while it is populated (a walk)
 * to its unit, or to the tree for good outside one. */
void tree_charge(struct fs *fs, struct node *dir, size_t bytes);
/* count more (hold) or fewer (drop) holds on n's unit, if it is in one. */
void tree_hold(struct fs *fs, struct node *n, uint64_t count);
void tree_drop(struct fs *fs, struct node *n, uint64_t count);
/* Around any use of nodes not held: a FUSE request, a worker's job, a
 * step of ccsfs-check.  Waits only while units are let go; do not nest
 * (a nested enter may wait for the thread that lets them go). */
void tree_enter(struct fs *fs);
void tree_leave(struct fs *fs);
/* Starts letting units go once they take more than a quarter of the
 * cache's bound (the rest holds members' bytes and made files), or
 * 4 MiB for a cache under 16 MiB.  Stopped by fs_destroy. */
int tree_reclaim_start(struct fs *fs);
/* A node's name for the kernel, good for the whole mount: the root 1, a
 * node outside units its address, a unit's node its unit's number and
 * its own, with part of its inode number to check them by.  tree_node
 * finds the node again, populating its unit when it was let go; NULL
 * when the handle names nothing (ESTALE).  Within tree_enter. */
uint64_t tree_handle(struct node *n);
struct node *tree_node(struct fs *fs, uint64_t handle);
struct tree_unit_stats {
	size_t units, bytes, budget;
	uint64_t made, released;        /* units populated, let go */
};
void tree_unit_stats(struct fs *fs, struct tree_unit_stats *st);
/* Lets go, now, every unit nothing holds (tests, ccsfs-check's end). */
void tree_release_idle(struct fs *fs);

/* A member's whole file (its .ccs) that the cache evicts before any
 * reader opened it is offered to fn, on the evicting thread, with a
 * reference to its bytes that fn must cache_put: the kernel's page
 * cache can keep it (fuse/push.c).  Set once, before the mount serves. */
void tree_on_evicted(struct fs *fs, tree_evicted_fn fn, void *ctx);
/* Around handing a file's bytes to the kernel: begin says whether to go
 * on (no reader opened it), and until end an open of it waits, so that
 * no read of it is in flight while the kernel fills its pages.  kept:
 * the kernel took them, and the file is not offered again. */
bool tree_handoff_begin(struct fs *fs, struct node *file);
void tree_handoff_end(struct fs *fs, struct node *file, bool kept);

/* Memory that lives as long as the tree. */
void *fs_alloc(struct fs *fs, size_t n);
char *fs_strdup(struct fs *fs, const char *s);

/* fn(ctx) at fs_destroy, after the tree's folders are gone and before the
 * cache: the views free what they hold this way.  Hooks run newest
 * first, so what was opened first (an image) closes last. */
int fs_on_destroy(struct fs *fs, void (*fn)(void *ctx), void *ctx);

/* Making nodes: a directory under construction collects its children in a
 * dir_builder, and dir_publish sorts and attaches them. */
struct dir_builder {
	struct fs *fs;
	struct node *dir;
	struct node **kids;
	size_t n, cap;
	bool failed;
};
void dir_builder_init(struct dir_builder *b, struct fs *fs, struct node *dir);
struct node *dir_add_dir(struct dir_builder *b, const char *name,
			 time_t mtime, populate_fn populate, void *ctx);
struct node *dir_add_host_file(struct dir_builder *b, const char *name,
			       time_t mtime, const char *path, uint64_t size);
/* A file whose bytes lie in an open image (an ISO extent): read straight
 * from there, never copied whole. */
struct node *dir_add_blob_file(struct dir_builder *b, const char *name,
			       time_t mtime, const struct blob *blob);
/* A slice of size bytes at offset of what ops->bytes gives for source;
 * whole: the slice is all of it, so a fault anywhere fails it. */
struct node *dir_add_view(struct dir_builder *b, const char *name,
			  time_t mtime, const struct view_ops *ops,
			  void *source, uint64_t offset, uint64_t size,
			  bool whole);
struct node *dir_add_made(struct dir_builder *b, const char *name,
			  time_t mtime, produce_fn produce, void *ctx,
			  uint32_t arg);
/* A made file whose producer can measure it: a stat counts its bytes
 * instead of making them into the cache. */
struct node *dir_add_measured(struct dir_builder *b, const char *name,
			      time_t mtime, produce_fn produce, void *ctx,
			      uint32_t arg);
/* A file too large to make whole (a cutscene's audio): its size is known
 * when listed, and each read makes only the bytes asked for. */
struct node *dir_add_stream(struct dir_builder *b, const char *name,
			    time_t mtime, uint64_t size, stream_fn read,
			    void *ctx);
struct node *dir_add_link(struct dir_builder *b, const char *name,
			  time_t mtime, const char *target);
/* True when the name is taken already (names must be unique). */
bool dir_has(const struct dir_builder *b, const char *name);
int dir_publish(struct dir_builder *b);

/* A node standing alone (the root). */
struct node *node_new_dir(struct fs *fs, const char *name, time_t mtime,
			  populate_fn populate, void *ctx);

/* Populates a directory on first use; waits when another thread does.
 * A populate function may decline work that only a reader should pay
 * for (a scan of a whole archive) on a readahead worker with -EAGAIN:
 * the folder then stays unpopulated, and tree_ready returns -EAGAIN. */
int tree_ready(struct fs *fs, struct node *dir);
/* tree_ready for a caller about to look at the folder's kids: 0 when it
 * may (populated, or failed with what it found), else the error.  A
 * folder declined on a worker (-EAGAIN) may be being filled by a reader
 * now, so its kids are not to be looked at. */
int tree_kids_ready(struct fs *fs, struct node *dir);
struct node *tree_child(struct fs *fs, struct node *dir, const char *name,
			int *err);

/* Opens a file for reading: a host file's descriptor in *host_fd (else
 * -1), a view checked, a produced file made when never made before. */
int tree_open(struct fs *fs, struct node *n, int *host_fd);

/* True when reads of the file copy its bytes (tree_read) rather than
 * hand out the cache's (tree_bytes). */
bool tree_reads_copy(const struct node *n);

/* Fills st; settles an unsettled node first; measures a produced file
 * (or makes it, when its producer cannot measure) to learn its exact
 * size, once. */
int tree_stat(struct fs *fs, struct node *n, struct stat *st);
/* Reads the bytes of a file that is not in the cache (a host file, an
 * image extent, a streamed file) at off; returns the count or a negative
 * errno.  Views and made files go through tree_bytes. */
ssize_t tree_read(struct fs *fs, struct node *n, char *buf, size_t size,
		  uint64_t off, int host_fd);

/* A view's or produced file's bytes from off, at most size of them, by
 * reference: *p stays valid until cache_put(ref). */
int tree_bytes(struct fs *fs, struct node *n, uint64_t off, size_t size,
	       struct cache_ref *ref, const uint8_t **p, size_t *len);

/* A produced file's bytes, by reference, made once into the cache. */
int tree_made_bytes(struct fs *fs, struct node *n, struct cache_ref *ref);

/* How a text producer starts its strbuf, for data as produce_fn got it:
 * counting only (data NULL), exactly the file's size when that is known,
 * else restartable (util/strbuf.h): a producer that passes on
 * sb_finish's -EAGAIN is run again, at the size it counted. */
void tree_made_text_init(const struct node *n, uint8_t **data,
			 struct strbuf *sb);

/* A reader opened a produced file: when it opened the same name in the
 * object before, the same name in the next object is made ahead. */
void tree_made_opened(struct fs *fs, struct node *n);

/* Populates a folder a listing opened (tree_ready); when the folder was
 * listed ahead of the listing (ls -l), the folders after it are. */
int tree_dir_open(struct fs *fs, struct node *dir);

#endif
