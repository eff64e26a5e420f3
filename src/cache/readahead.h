/* SPDX-License-Identifier: MIT */
/* readahead.h - work done ahead of a reader, on the other core.
 *
 * A reader that goes through members in order (grep -r, find -exec cat, a
 * file manager making thumbnails) waits for each member to inflate and
 * each PNG or OBJ to be made, on one core, while the other core idles.
 * When the access pattern is sequential, the next member (or the same
 * file in the next object) is made on a worker thread instead, so it is
 * in the cache when the reader asks.  Jobs are hints: a full queue drops
 * its oldest, and nothing waits for a job.
 */
#ifndef CCSFS_READAHEAD_H
#define CCSFS_READAHEAD_H

#include <pthread.h>
#include <stdbool.h>

/* A job: fn(owner, arg), owner being what readahead_init was given. */
typedef void (*readahead_fn)(void *owner, void *arg);
/* Called with true before a worker takes a job from the queue and with
 * false after it ran: the owner's way to keep what the job points at
 * alive meanwhile. */
typedef void (*readahead_guard_fn)(void *owner, bool enter);

#define READAHEAD_SLOTS 16
/* Workers: one per core, up to this many. */
#define READAHEAD_MAX_WORKERS 4

struct readahead {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t threads[READAHEAD_MAX_WORKERS];
	unsigned workers;               /* started on the first hint */
	bool stopping, disabled;
	struct readahead_job {
		readahead_fn fn;
		void *arg;
	} jobs[READAHEAD_SLOTS];
	unsigned head;
	unsigned count;                 /* written atomically (poll_ns) */
	long poll_ns;
	void *owner;
	readahead_guard_fn guard;
};

void readahead_init(struct readahead *ra, void *owner);
/* For a daemon told not to (-o noreadahead); call before serving. */
void readahead_disable(struct readahead *ra);
/* A worker that finds the queue empty polls it for up to poll_us
 * microseconds before it sleeps (0, the default: it sleeps at once): a
 * reader queues the next job about when it is served, and on a virtual
 * machine that halts idle CPUs, waking the worker's CPU for each job
 * cost more than a short poll (doc/performance.md, Wake-ups and
 * polling).  Call before serving. */
void readahead_poll(struct readahead *ra, unsigned poll_us);
/* Set before serving. */
void readahead_guard(struct readahead *ra, readahead_guard_fn guard);
/* Drops every queued job (they are hints): called by the owner when
 * what they point at goes away, on the guard's other side. */
void readahead_flush(struct readahead *ra);
/* Stops the worker after its current job; queued jobs are dropped. */
void readahead_stop(struct readahead *ra);

/* Queues fn(owner, arg) unless the same job is queued already.  The workers
 * start on the first call, so a daemon that forks after setting up
 * still gets them. */
void readahead_queue(struct readahead *ra, readahead_fn fn, void *arg);

/* True once readahead_stop was called: a long job ends early. */
bool readahead_stopping(struct readahead *ra);

/* True on the worker: what it reads must not queue more work, or the
 * reader's pattern would be lost in the worker's own. */
bool readahead_on_worker(void);

#endif
