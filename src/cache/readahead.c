/* SPDX-License-Identifier: MIT */
/* readahead.c - worker threads and a small queue of hints. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "cache/readahead.h"
#include "util/log.h"
#include "util/spin.h"

static _Thread_local bool on_worker;

bool readahead_on_worker(void)
{
	return on_worker;
}

void readahead_init(struct readahead *ra, void *owner)
{
	memset(ra, 0, sizeof *ra);
	ra->owner = owner;
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->wake, NULL);
}

void readahead_poll(struct readahead *ra, unsigned poll_us)
{
	ra->poll_ns = (long)poll_us * 1000;
}

/* Under ra->lock.  count is also read without it, by a polling worker. */
static void set_count(struct readahead *ra, unsigned count)
{
	__atomic_store_n(&ra->count, count, __ATOMIC_RELAXED);
}

static bool job_queued(void *arg)
{
	struct readahead *ra = arg;
	return __atomic_load_n(&ra->count, __ATOMIC_RELAXED) != 0;
}

static void *worker(void *arg)
{
	struct readahead *ra = arg;
	on_worker = true;
	pthread_mutex_lock(&ra->lock);
	for (;;) {
		if (!ra->count && !ra->stopping && ra->poll_ns) {
			/* Stopping empties the queue: a stop waits for
			 * the window at most. */
			pthread_mutex_unlock(&ra->lock);
			spin_until(job_queued, ra, ra->poll_ns);
			pthread_mutex_lock(&ra->lock);
		}
		while (!ra->count && !ra->stopping)
			pthread_cond_wait(&ra->wake, &ra->lock);
		if (ra->stopping)
			break;
		/* The guard is taken before the job leaves the queue: what
		 * readahead_flush empties under the guard's other side is
		 * then never half taken. */
		pthread_mutex_unlock(&ra->lock);
		if (ra->guard)
			ra->guard(ra->owner, true);
		pthread_mutex_lock(&ra->lock);
		bool have = ra->count && !ra->stopping;
		struct readahead_job job = ra->jobs[ra->head];
		if (have) {
			ra->head = (ra->head + 1) % READAHEAD_SLOTS;
			set_count(ra, ra->count - 1);
		}
		pthread_mutex_unlock(&ra->lock);
		if (have)
			job.fn(ra->owner, job.arg);
		if (ra->guard)
			ra->guard(ra->owner, false);
		pthread_mutex_lock(&ra->lock);
	}
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

/* One worker per online core: the reader's own thread mostly waits for
 * what they make, so all cores can make. */
static void start_workers(struct readahead *ra)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned want = cores < 1 ? 1 : cores > READAHEAD_MAX_WORKERS ?
			READAHEAD_MAX_WORKERS : (unsigned)cores;
	while (ra->workers < want) {
		int rc = pthread_create(&ra->threads[ra->workers], NULL,
					worker, ra);
		if (rc != 0) {
			/* Readahead is an optimisation: go on with fewer. */
			log_error("readahead: no worker thread: %s",
				  strerror(rc));
			break;
		}
		ra->workers++;
	}
}

static bool is_queued(const struct readahead *ra, readahead_fn fn, void *arg)
{
	for (unsigned i = 0; i < ra->count; i++) {
		const struct readahead_job *j =
			&ra->jobs[(ra->head + i) % READAHEAD_SLOTS];
		if (j->fn == fn && j->arg == arg)
			return true;
	}
	return false;
}

void readahead_queue(struct readahead *ra, readahead_fn fn, void *arg)
{
	if (on_worker)
		return;
	pthread_mutex_lock(&ra->lock);
	if (!ra->workers && !ra->disabled && !ra->stopping) {
		start_workers(ra);
		ra->disabled = !ra->workers;    /* none: go on without */
	}
	if (ra->disabled || ra->stopping || is_queued(ra, fn, arg)) {
		pthread_mutex_unlock(&ra->lock);
		return;
	}
	if (ra->count == READAHEAD_SLOTS) {     /* the oldest hint goes */
		ra->head = (ra->head + 1) % READAHEAD_SLOTS;
		set_count(ra, ra->count - 1);
	}
	ra->jobs[(ra->head + ra->count) % READAHEAD_SLOTS] =
		(struct readahead_job){ fn, arg };
	set_count(ra, ra->count + 1);
	pthread_cond_signal(&ra->wake);
	pthread_mutex_unlock(&ra->lock);
}

void readahead_guard(struct readahead *ra, readahead_guard_fn guard)
{
	ra->guard = guard;
}

void readahead_flush(struct readahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	set_count(ra, 0);
	pthread_mutex_unlock(&ra->lock);
}

bool readahead_stopping(struct readahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	bool stopping = ra->stopping;
	pthread_mutex_unlock(&ra->lock);
	return stopping;
}

void readahead_disable(struct readahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	ra->disabled = true;
	pthread_mutex_unlock(&ra->lock);
}

void readahead_stop(struct readahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	ra->stopping = true;
	set_count(ra, 0);
	unsigned workers = ra->workers;
	pthread_cond_broadcast(&ra->wake);
	pthread_mutex_unlock(&ra->lock);
	for (unsigned i = 0; i < workers; i++)
		pthread_join(ra->threads[i], NULL);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->wake);
}
