/* SPDX-License-Identifier: MIT */
/* push.c - the thread that hands evicted members to the kernel.
 *
 * The evicting thread only queues: it may be a FUSE worker answering a
 * request, and a store into the page cache copies the member.  The queue
 * is short and holds what the cache has stopped counting, so that memory
 * stays near cache_size; a member that finds it full is only dropped,
 * as it was before.  No open of the file can be answered while its
 * pages are being stored (tree_handoff_begin), so the store never waits
 * on a read that needs this daemon to answer. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "fuse/push.h"
#include "tree/tree.h"
#include "util/log.h"

/* Members waiting to be handed over: a glob evicts one at a time, and a
 * store (one copy of a few hundred KiB) is done before the next.  The
 * bytes bound what the queue holds beyond cache_size, whatever the
 * members' sizes. */
#define PUSH_QUEUE 4
#define PUSH_QUEUE_BYTES (8u << 20)

struct pending {
	struct node *file;
	struct cache_ref ref;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	struct fuse_session *se;
	struct pending queue[PUSH_QUEUE];
	unsigned head, count;
	size_t bytes;                   /* held by the queue */
	bool running, stopping;
	bool failed_logged;
} pusher = { .lock = PTHREAD_MUTEX_INITIALIZER,
	     .wake = PTHREAD_COND_INITIALIZER };

static void queue_evicted(void *ctx, struct node *file, struct cache_ref *ref)
{
	struct fs *fs = ctx;
	pthread_mutex_lock(&pusher.lock);
	bool queued = pusher.running && !pusher.stopping &&
		      pusher.count < PUSH_QUEUE &&
		      ref->len <= PUSH_QUEUE_BYTES - pusher.bytes;
	if (queued) {
		struct pending *p = &pusher.queue[(pusher.head + pusher.count++) %
						  PUSH_QUEUE];
		p->file = file;
		p->ref = *ref;
		/* Queued, the file must outlive its unit's use. */
		tree_hold(fs, file, 1);
		pusher.bytes += ref->len;
		pthread_cond_signal(&pusher.wake);
	}
	pthread_mutex_unlock(&pusher.lock);
	if (!queued)
		cache_put(fs_cache(fs), ref);
}

static int store(struct node *file, const struct cache_ref *ref)
{
	struct fuse_bufvec bv = FUSE_BUFVEC_INIT(ref->len);
	bv.buf[0].mem = (void *)ref->data;
	return fuse_lowlevel_notify_store(pusher.se, fuse_ops_ino(file), 0, &bv,
					  0);
}

static void *push_loop(void *arg)
{
	struct fs *fs = arg;
	pthread_mutex_lock(&pusher.lock);
	for (;;) {
		while (!pusher.count && !pusher.stopping)
			pthread_cond_wait(&pusher.wake, &pusher.lock);
		if (!pusher.count)
			break;
		struct pending p = pusher.queue[pusher.head];
		pusher.head = (pusher.head + 1) % PUSH_QUEUE;
		pusher.count--;
		pusher.bytes -= p.ref.len;
		bool stopping = pusher.stopping;
		pthread_mutex_unlock(&pusher.lock);
		if (!stopping && tree_handoff_begin(fs, p.file)) {
			int rc = store(p.file, &p.ref);
			tree_handoff_end(fs, p.file, rc == 0);
			/* -ENOENT: the kernel has forgotten the inode (its
			 * caches were dropped); nothing is wrong. */
			if (rc < 0 && rc != -ENOENT && !pusher.failed_logged) {
				pusher.failed_logged = true;
				log_error("handing a member to the kernel's "
					  "page cache failed (%d); members "
					  "are inflated again instead", rc);
			}
		}
		cache_put(fs_cache(fs), &p.ref);
		tree_drop(fs, p.file, 1);
		pthread_mutex_lock(&pusher.lock);
	}
	pthread_mutex_unlock(&pusher.lock);
	return NULL;
}

int push_start(struct fuse_session *se, struct fs *fs)
{
	pusher.se = se;
	pusher.stopping = false;
	int rc = pthread_create(&pusher.thread, NULL, push_loop, fs);
	if (rc != 0)
		return -rc;
	pusher.running = true;
	tree_on_evicted(fs, queue_evicted, fs);
	return 0;
}

void push_stop(void)
{
	if (!pusher.running)
		return;
	/* The tree keeps calling queue_evicted, which now drops. */
	pthread_mutex_lock(&pusher.lock);
	pusher.stopping = true;
	pthread_cond_signal(&pusher.wake);
	pthread_mutex_unlock(&pusher.lock);
	pthread_join(pusher.thread, NULL);
	pthread_mutex_lock(&pusher.lock);
	pusher.running = false;
	pthread_mutex_unlock(&pusher.lock);
}
