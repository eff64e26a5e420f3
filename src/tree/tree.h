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

/* ---- what the layers above learn of a node ----
 *
 * struct node is the tree's own; these read and mark it. */
/* What one node takes of the memory of the tree or its unit. */
size_t tree_node_bytes(void);
const char *tree_name(const struct node *n);
/* NULL for the root. */
struct node *tree_parent(const struct node *n);
bool tree_is_dir(const struct node *n);
bool tree_is_file(const struct node *n);
bool tree_is_link(const struct node *n);
time_t tree_mtime(const struct node *n);
/* A file's size: SIZE_UNKNOWN until it is learnt. */
uint64_t tree_size(const struct node *n);
/* Whether stat can answer without making anything: not a file, or a
 * file whose size is known. */
bool tree_size_known(const struct node *n);
/* Listed before its attributes are known (fs->settle learns them). */
bool tree_unsettled(const struct node *n);
/* A view's marks on nodes it made, before or while fs->settle runs. */
void node_set_mtime(struct node *n, time_t mtime);
void node_set_size(struct node *n, uint64_t size);
void node_set_unsettled(struct node *n, bool unsettled);

/* A folder's kids, sorted by name, once tree_kids_ready allows. */
uint32_t tree_kid_count(const struct node *dir);
struct node *tree_kid_at(const struct node *dir, uint32_t i);
/* How many of its kids are folders (its link count less two). */
uint32_t tree_subdir_count(const struct node *dir);
/* The ctx a folder's populate was given. */
void *tree_dir_ctx(const struct node *dir);
/* Whether n is a folder that populate fills. */
bool tree_dir_populated_by(const struct node *n, populate_fn populate);
/* Populating dir costs (a member's inflate and walk): a listing that
 * goes through such folders in order has the next ones populated
 * ahead. */
void dir_set_costly(struct node *dir, bool costly);
/* Whether dir was listed ahead of a listing; the mark the workers set
 * (ahead.c). */
bool tree_listed_ahead(const struct node *dir);
void dir_set_listed_ahead(struct node *dir);

/* A made file's producer's ctx and arg (dir_add_made). */
void *tree_made_ctx(const struct node *file);
uint32_t tree_made_arg(const struct node *file);
/* Whether n is a made file whose producer can measure it
 * (dir_add_measured). */
bool tree_made_measures(const struct node *n);
/* A streamed file's ctx (dir_add_stream). */
void *tree_stream_ctx(const struct node *file);
/* A view's source, offset and whole, as dir_add_view was given them. */
void *tree_view_source(const struct node *view);
uint64_t tree_view_offset(const struct node *view);
bool tree_view_whole(const struct node *view);
/* A file's kind; a made file's producer (NULL for another kind); a
 * view's ops (NULL for another kind): what an edit asks of a file. */
enum file_kind tree_file_kind(const struct node *file);
produce_fn tree_made_produce(const struct node *file);
const struct view_ops *tree_view_ops(const struct node *view);
/* n's path from the root ("DATA/DATA.BIN/xasc00"; "" for the root), or
 * -ENAMETOOLONG when it does not fit size. */
int tree_node_path(const struct node *n, char *buf, size_t size);
/* Handles the tree never gives (tree_handle): the layers above name
 * what is not a node by them, id from 0 to UINT32_MAX. */
uint64_t tree_spare_handle(uint32_t id);
bool tree_handle_is_spare(uint64_t handle, uint32_t *id);
/* What a link points to. */
const char *tree_link_target(const struct node *link);

/* See tree_on_evicted. */
typedef void (*tree_evicted_fn)(void *ctx, struct node *file,
				struct cache_ref *ref);

/* What a settle learns of an unsettled node (fs_set_settle). */
typedef int (*settle_fn)(struct fs *fs, struct node *n);

/* The mounted filesystem, which every callback is given; NULL when out
 * of memory.  fs_free runs the fs_on_destroy hooks and frees the tree
 * and the cache. */
struct fs *fs_new(size_t cache_size);
void fs_free(struct fs *fs);
/* Its root folder, set once by the view that opens the source. */
struct node *fs_root(const struct fs *fs);
void fs_set_root(struct fs *fs, struct node *root);
struct cache *fs_cache(const struct fs *fs);
struct readahead *fs_readahead(struct fs *fs);
/* The largest inflated member accepted. */
size_t fs_max_member(const struct fs *fs);
void fs_set_max_member(struct fs *fs, size_t bytes);
/* The zlib level of made PNGs; 0 stores. */
int fs_png_level(const struct fs *fs);
void fs_set_png_level(struct fs *fs, int level);
/* Who owns every node, as stat gives it: the mounting user. */
uid_t fs_uid(const struct fs *fs);
gid_t fs_gid(const struct fs *fs);
/* The lock over folder states and members' outcomes. */
void fs_lock(struct fs *fs);
void fs_unlock(struct fs *fs);
/* Learns an unsettled node's attributes and clears its mark; set by the
 * view that lists such nodes, before it publishes them. */
void fs_set_settle(struct fs *fs, settle_fn settle);
/* How many stats have sized a file since a made file was last opened:
 * many make the next stats measure, as a listing's do. */
void fs_set_stats_unopened(struct fs *fs, unsigned count);

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
 * 4 MiB for a cache under 16 MiB.  Stopped by fs_free. */
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
/* Lets dir's unit go now, so that its next use populates it again (its
 * member was edited): under(ctx) runs first, while no thread is in the
 * tree, and then the unit goes.  0, or -EBUSY when a thread holds it
 * (under is not run).  A unit that others point into (keep) goes with
 * every unit nothing holds.  Outside tree_enter: it waits for the
 * readers in the tree to leave it. */
int tree_unit_redo(struct fs *fs, struct node *dir, void (*under)(void *),
		   void *ctx);
/* Lets go, now, every unit nothing holds, the newest too (tests). */
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

/* fn(ctx) at fs_free, after the tree's folders are gone and before the
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
/* A whole view (offset 0) that outlives its folder's unit: made once in
 * the tree's own memory, kept in *kept, and put back as it is each time
 * the folder is made again.  The kernel's handle for it is then its
 * address, so opening it (a member's .ccs, whose pages the kernel may
 * hold) never makes the folder again. */
struct node *dir_add_view_kept(struct dir_builder *b, struct node **kept,
			       const char *name, time_t mtime,
			       const struct view_ops *ops, void *source,
			       uint64_t size);
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
