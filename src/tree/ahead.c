/* SPDX-License-Identifier: MIT */
/* ahead.c - what the workers do ahead of a listing or a reader: the
 * folders a listing reads next, listed and sized; the same-named files
 * of a reader of one name, made; the costly folders a glob or find
 * opens in order, populated.  Every job is a hint (cache/readahead.h):
 * nothing waits for one. */
#include "config.h"

#include <stdatomic.h>
#include <string.h>

#include "tree/tree.h"
#include "tree/tree_internal.h"

static void make_ahead(void *owner, void *arg)
{
	(void)tree_make_cached(owner, arg);
}

/* Queues a made file to be made ahead unless the cache holds it or is
 * filling it (a queued one is not queued twice: readahead_queue). */
static void make_ahead_unless_held(struct fs *fs, struct node *f)
{
	if (!cache_holds(fs->cache, tree_made_key(f)))
		readahead_queue(&fs->readahead, make_ahead, f);
}

static void measure_ahead(void *owner, void *arg)
{
	(void)tree_made_size(owner, arg, true);
}

static bool dir_ready(const struct node *n)
{
	return n->type == NODE_DIR &&
	       atomic_load_explicit(&n->u.dir.state, memory_order_acquire) ==
	       DIR_READY;
}

/* How far past the object just opened a same-named file is looked for:
 * objects of other kinds (a texture's folder has no model.obj) lie
 * between, but not many. */
#define MADE_AHEAD_SPAN 16

/* How many same-named files are made ahead: four, so that both workers
 * stay busy while the reader takes what they made.  With two, the reader
 * caught up with them, waited for the file a worker was making, and a
 * third of both cores idled over every model.obj (vmstat); four and
 * eight took about 0.89 and 0.83 of the time.  Four: each is held in the
 * cache until read (cache.c's MADE_KEEP counts them). */
#define MADE_AHEAD 4

/* The same-named files in the listed folders of `up` from child `from`
 * on, at most *left of them looked at: queues up to `want` of them and
 * returns how many it counted. */
static unsigned queue_named(struct fs *fs, struct node *up, size_t from,
			    const char *name, unsigned want, size_t *left)
{
	unsigned queued = 0;
	for (size_t j = from; j < up->u.dir.nkids && queued < want && *left;
	     j++, (*left)--) {
		struct node *next = up->u.dir.kids[j];
		struct node *f = dir_ready(next) ?
				 tree_kid_named(next, name, NULL) : NULL;
		if (!f)
			continue;
		/* One made or being made counts but is not queued again: a
		 * worker would only find it or wait for the one that makes
		 * it.  A known size says nothing of the bytes (a listing only
		 * measures), and one the cache has let go since is made
		 * again, ahead of a second pass as of the first. */
		queued++;
		if (f->type == NODE_FILE && f->file_kind == FILE_MADE)
			make_ahead_unless_held(fs, f);
	}
	return queued;
}

/* A worker's job: lists a folder ahead of a listing and learns its files'
 * sizes (measured, or made where they cannot be), so that the listing's
 * READDIRPLUS carries every size and the kernel asks nothing more of it.
 * When the listing opens the folder, the folders after it are queued
 * (tree_dir_open), so the chain goes on into a member's objects. */
static void list_ahead(void *owner, void *arg)
{
	struct fs *fs = owner;
	struct node *dir = arg;
	if (tree_ready(fs, dir) < 0)
		return;
	/* Set first: a listing that arrives meanwhile goes on ahead. */
	atomic_store(&dir->u.dir.listed_ahead, true);
	for (uint32_t i = 0; i < dir->u.dir.nkids; i++) {
		struct node *f = dir->u.dir.kids[i];
		if (readahead_stopping(&fs->readahead))
			return;
		if (f->type == NODE_FILE && f->file_kind == FILE_MADE)
			(void)tree_made_size(fs, f, f->u.made.measures);
	}
}

static bool settled_dir(const struct node *n)
{
	return n->type == NODE_DIR && !atomic_load(&n->unsettled);
}

/* The folder a depth-first listing (ls -lR) reads after n: its first
 * subfolder, else the next folder after it or after one of its parents.
 * NULL past the end, or where only populating n would tell (a member's
 * folder not yet inflated): that is the listing's own work. */
static struct node *next_listed(struct node *n)
{
	if (!dir_ready(n))
		return NULL;
	for (uint32_t i = 0; i < n->u.dir.nkids; i++)
		if (settled_dir(n->u.dir.kids[i]))
			return n->u.dir.kids[i];
	for (; n->parent; n = n->parent) {
		struct node *up = n->parent;
		size_t i;
		if (!dir_ready(up) || !tree_kid_place(up, n, &i))
			return NULL;
		for (size_t j = i + 1; j < up->u.dir.nkids; j++)
			if (settled_dir(up->u.dir.kids[j]))
				return up->u.dir.kids[j];
	}
	return NULL;
}

/* The folders a listing reads after dir, queued to be listed ahead: of
 * the next TREE_LIST_AHEAD, the farthest READAHEAD_SLOTS not listed yet,
 * in order.  The listing sizes the near ones itself and never waits for
 * a worker measuring the very file it stats, while the workers, with the
 * whole reach to fill, both stay busy.  With the nearest twelve, the
 * listing waited on the workers and a third of both cores idled over
 * ls -lR of DATA.BIN; reaching 48, 96, 160 and 320 folders took about
 * 0.85, 0.85, 0.78 and 0.77 of the time, in runs alternated with the
 * nearest twelve (a member has 31 folders on the bench disc).
 *
 * A listing reads the folder the last walk started from again, or the
 * one after it: the walk then goes on from where it ended, instead of
 * stepping over the same folders again.  Walked whole at every folder,
 * it was a third of the daemon's CPU in ls -lR of DATA.BIN with every
 * size known, all of it in the listing's own round trips. */
static void queue_list_ahead(struct fs *fs, struct node *dir)
{
	struct node *far[READAHEAD_SLOTS];
	pthread_mutex_lock(&fs->walk_lock);
	unsigned steps = fs->walk_steps, put = fs->walk_put;
	bool again = dir == fs->walk_from;
	if (again) {
		/* read again (each stat that sizes a file of it comes here):
		 * the walk stands */
	} else if (steps && next_listed(fs->walk_from) == dir) {
		steps--;                /* one folder on */
	} else {
		steps = 0;              /* elsewhere: a walk of its own */
	}
	fs->walk_from = dir;
	struct node *n = steps ? fs->walk_ring[(put - 1) % TREE_WALK_RING]
			       : dir;
	for (; steps < TREE_LIST_AHEAD && (n = next_listed(n)); steps++)
		fs->walk_ring[put++ % TREE_WALK_RING] = n;
	bool grew = put != fs->walk_put;
	fs->walk_steps = steps;
	fs->walk_put = put;
	if (again && !grew) {   /* what it reaches was queued the first time */
		pthread_mutex_unlock(&fs->walk_lock);
		return;
	}
	unsigned count = 0;
	for (unsigned k = 1; k <= steps && count < READAHEAD_SLOTS; k++) {
		struct node *f = fs->walk_ring[(put - k) % TREE_WALK_RING];
		if (!atomic_load(&f->u.dir.listed_ahead))
			far[count++] = f;
	}
	pthread_mutex_unlock(&fs->walk_lock);
	while (count)           /* nearest first, as a walk meets them */
		readahead_queue(&fs->readahead, list_ahead, far[--count]);
}

/* How many folders after one are populated ahead of a listing that goes
 * through a parent's folders in order: three, so that both workers
 * populate (inflate and walk a member each) while the listing takes
 * what they made.  With one ahead, a worker did what the listing would
 * have, one folder at a time, and the listing waited as long.  Four
 * took about as long as three, and the daemon's peak over a walk of
 * the bench disc rose 3 MiB more beyond its cache. */
#define POPULATE_AHEAD 3

static void populate_ahead(void *owner, void *arg)
{
	(void)tree_ready(owner, arg);
}

/* The kid of up that n is or lies under; NULL when n is not under up. */
static struct node *kid_above(struct node *n, const struct node *up)
{
	for (; n && n->parent != up; n = n->parent)
		;
	return n;
}

/* A listing that opened a costly folder after one of its siblings (a
 * shell's glob of every member's .ccs; find, which went through the
 * sibling's own folders first) will open the siblings after it, in the
 * same direction: bash's glob goes through a folder's entries last
 * first.  Those are populated ahead. */
static void queue_populate_ahead(struct fs *fs, struct node *dir,
				 struct node *prev)
{
	struct node *up = dir->parent, *before = kid_above(prev, up);
	size_t i, j;
	if (!up || !before || before == dir || !dir_ready(up) ||
	    !tree_kid_place(up, dir, &i) ||
	    !tree_kid_place(up, before, &j))
		return;
	bool down = j > i;
	unsigned queued = 0;
	for (size_t k = i; queued < POPULATE_AHEAD;) {
		if (down ? k == 0 : k + 1 >= up->u.dir.nkids)
			break;
		k = down ? k - 1 : k + 1;
		struct node *next = up->u.dir.kids[k];
		if (next->type != NODE_DIR)
			continue;
		queued++;
		if (atomic_load(&next->u.dir.state) == DIR_EMPTY)
			readahead_queue(&fs->readahead, populate_ahead, next);
	}
}

int tree_dir_open(struct fs *fs, struct node *dir)
{
	int rc = tree_ready(fs, dir);
	if (readahead_on_worker())
		return rc;
	tree_mark_used(dir);
	struct node *prev = atomic_exchange(&fs->last_opened, dir);
	if (atomic_load(&dir->u.dir.listed_ahead))
		queue_list_ahead(fs, dir);
	else if (dir->u.dir.costly)
		queue_populate_ahead(fs, dir, prev);
	return rc;
}

/* How many files after one a listing stats are made ahead of it. */
#define STAT_AHEAD 2

/* A listing (ls -l, a file manager) stats a folder's files in order, and
 * each unknown size means measuring the file (or making it, for readers
 * that stat each file they open): while this thread sizes one, the
 * workers size the next ones, so both cores are busy, and a listing has
 * the folders after this one listed ahead.  It starts at the second stat
 * in a row that has to size a file of the same folder, so neither a
 * listing of names (find) nor a reader of one file a folder (every
 * model.obj) sizes what it will not ask for. */
void tree_stat_ahead(struct fs *fs, struct node *n)
{
	struct node *dir = n->parent;
	size_t i;
	if (readahead_on_worker())
		return;
	struct node *prev = atomic_exchange(&fs->last_stat, n);
	if (!prev || prev == n || prev->parent != dir || !dir ||
	    !dir_ready(dir) || !tree_kid_place(dir, n, &i))
		return;
	/* A listing lists the next folders next. */
	if (tree_stat_measures(fs, n))
		queue_list_ahead(fs, dir);
	unsigned queued = 0;
	for (size_t j = i + 1; j < dir->u.dir.nkids && queued < STAT_AHEAD;
	     j++) {
		struct node *f = dir->u.dir.kids[j];
		if (f->type != NODE_FILE || f->file_kind != FILE_MADE ||
		    atomic_load(&f->size) != SIZE_UNKNOWN)
			continue;
		queued++;
		/* The measuring flag is taken by the job, not here: a hint
		 * may be dropped, and a stat must never wait for it. */
		if (tree_stat_measures(fs, f))
			readahead_queue(&fs->readahead, measure_ahead, f);
		else
			make_ahead_unless_held(fs, f);
	}
}

/* Two folders up from a file: its member's folder. */
static struct node *member_of(const struct node *file)
{
	return file->parent ? file->parent->parent : NULL;
}

void tree_made_opened(struct fs *fs, struct node *n)
{
	struct node *prev = atomic_exchange(&fs->last_made, n);
	struct node *dir = n->parent, *up = member_of(n);
	if (!prev || prev == n || !up || !dir_ready(up) ||
	    strcmp(prev->name, n->name) != 0 || !member_of(prev) ||
	    member_of(prev)->parent != up->parent)
		return;
	size_t i;
	if (!tree_kid_place(up, dir, &i))
		return;
	/* Only folders already listed: a hint never populates one.  At the
	 * end of a member the hint goes on into the next one, so a reader
	 * crossing members is not left to make their first files itself;
	 * and the first file of the member after that is made then too, so
	 * that its member is inflated a member ahead.  Else a worker
	 * inflated each member only once the reader came within MADE_AHEAD
	 * files of it, and the reader waited for that at every crossing. */
	size_t left = MADE_AHEAD * MADE_AHEAD_SPAN;
	unsigned queued = queue_named(fs, up, i + 1, n->name, MADE_AHEAD, &left);
	struct node *archive = up->parent;
	size_t k;
	if (queued == MADE_AHEAD || !archive ||
	    !tree_kid_place(archive, up, &k))
		return;
	struct node *const *members = archive->u.dir.kids;
	size_t count = archive->u.dir.nkids;
	if (k + 1 >= count || !dir_ready(members[k + 1]))
		return;
	/* Each member gets the whole span: the objects without the name
	 * may come first (TEX_ folders sort after most others), and the
	 * ones left of this member would have used it up. */
	left = MADE_AHEAD * MADE_AHEAD_SPAN;
	queue_named(fs, members[k + 1], 0, n->name, MADE_AHEAD - queued,
		    &left);
	left = MADE_AHEAD * MADE_AHEAD_SPAN;
	if (k + 2 < count && dir_ready(members[k + 2]))
		queue_named(fs, members[k + 2], 0, n->name, 1, &left);
}
