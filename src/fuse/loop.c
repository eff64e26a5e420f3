/* SPDX-License-Identifier: MIT */
/* loop.c - one thread reads the session's requests and serves them; it
 * hands the reading to another before a request waits (loop.h).
 *
 * The reader's role: held by the thread in read(2) of the device, and
 * kept while that thread serves what it read, so that it reads the next
 * request itself.  blocking_begins() gives the role up for the rest of
 * the request: a follower waiting for it is woken, or a thread started
 * when none waits and fewer than max_threads run.  A thread that gave
 * the role up takes it back after its request if no one has it, and
 * else waits as a follower.
 *
 * Busy polling (loop.h): the role's holder reads the device without
 * blocking for a while after each request, and sleeps in poll(2) only
 * once none came.  Whether it polls at all follows the last wait: one
 * longer than the window means the requests have stopped coming close
 * together, and the next wait sleeps at once.
 *
 * The end, as in libfuse's loop: the threads start with every signal
 * blocked, so that the signal handlers run on the calling thread, which
 * waits on a semaphore until the session has exited; then it cancels
 * the threads (only the wait for the next request is a cancellation
 * point for them: read(2) of the device, or poll(2) and a check before
 * each read when polling) and joins them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuse/loop.h"
#include "util/blocking.h"
#include "util/log.h"
#include "util/spin.h"

/* More than this many threads never helped on two cores; a FUSE mount's
 * requests come from a few readers at once. */
#define LOOP_MAX_THREADS 64

struct loop {
	struct fuse_session *se;
	pthread_mutex_t lock;
	pthread_cond_t follow;  /* followers wait here for the role */
	sem_t ended;            /* posted when a thread sees the session end */
	bool role_taken;
	bool ending;
	int error;              /* the device's read error, or 0 */
	unsigned idle;          /* followers waiting */
	unsigned started, max;
	long poll_ns;           /* the busy-polling window; 0: none */
	bool close_together;    /* the last request came within it */
	pthread_t threads[LOOP_MAX_THREADS];
};

/* This thread's loop while it holds the role; NULL once it gave it up
 * (or on any other thread). */
static _Thread_local struct loop *holding;

static void *loop_thread(void *arg);

/* Under l->lock.  A thread failing to start is not fatal: the ones
 * running go on. */
static void start_thread(struct loop *l)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&l->threads[l->started], NULL, loop_thread, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		l->started++;
	else if (l->started == 0)
		log_error("no thread to serve requests: %s", strerror(rc));
}

/* Under l->lock: someone must read. */
static void give_role(struct loop *l)
{
	l->role_taken = false;
	if (l->idle)
		pthread_cond_signal(&l->follow);
	else if (l->started < l->max)
		start_thread(l);
}

static void loop_blocking(void)
{
	struct loop *l = holding;
	if (!l)
		return;
	holding = NULL;
	pthread_mutex_lock(&l->lock);
	if (!l->ending)
		give_role(l);
	pthread_mutex_unlock(&l->lock);
}

static void session_ended(struct loop *l, int res)
{
	fuse_session_exit(l->se);       /* what the caller waits for */
	pthread_mutex_lock(&l->lock);
	if (res < 0 && !l->error)
		l->error = res;
	l->ending = true;
	l->role_taken = false;
	pthread_cond_broadcast(&l->follow);
	pthread_mutex_unlock(&l->lock);
	sem_post(&l->ended);
}

struct try_read {
	struct loop *l;
	struct fuse_buf *buf;
	int res;
};

static bool read_came(void *arg)
{
	struct try_read *t = arg;
	t->res = fuse_session_receive_buf(t->l->se, t->buf);
	return t->res != -EAGAIN;
}

/* The next request, read without blocking (the device is O_NONBLOCK):
 * polled for while requests come close together, then waited for in
 * poll(2).  Only the holder of the role reads, so close_together is
 * its alone. */
static int receive_polling(struct loop *l, struct fuse_buf *buf)
{
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	struct try_read t = { l, buf, -EAGAIN };
	bool came = read_came(&t) ||
		    (l->close_together && spin_until(read_came, &t, l->poll_ns));
	while (!came) {
		struct pollfd p = { .fd = fuse_session_fd(l->se),
				    .events = POLLIN };
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
		poll(&p, 1, -1);
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		came = read_came(&t);
	}
	l->close_together = spin_ns_since(&start) <= l->poll_ns;
	return t.res;
}

static int receive(struct loop *l, struct fuse_buf *buf)
{
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	if (l->poll_ns) {
		/* Polling reaches poll(2), its cancellation point, only
		 * once the requests stop: see one between any two. */
		pthread_testcancel();
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		return receive_polling(l, buf);
	}
	int res = fuse_session_receive_buf(l->se, buf);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	return res;
}

/* Reads and serves requests while this thread holds the role. */
static void serve_holding(struct loop *l, struct fuse_buf *buf)
{
	for (;;) {
		int res = receive(l, buf);
		if (res == -EINTR && !fuse_session_exited(l->se))
			continue;
		if (res <= 0 || fuse_session_exited(l->se)) {
			session_ended(l, res == -EINTR ? 0 : res);
			return;
		}
		holding = l;
		fuse_session_process_buf(l->se, buf);
		if (!holding)
			return;         /* the role went to another thread */
		holding = NULL;
	}
}

static void free_buf(void *arg)
{
	free(((struct fuse_buf *)arg)->mem);
}

static void *loop_thread(void *arg)
{
	struct loop *l = arg;
	struct fuse_buf buf = { .mem = NULL };
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	pthread_cleanup_push(free_buf, &buf);
	pthread_mutex_lock(&l->lock);
	while (!l->ending) {
		if (l->role_taken) {
			l->idle++;
			pthread_cond_wait(&l->follow, &l->lock);
			l->idle--;
			continue;
		}
		l->role_taken = true;
		pthread_mutex_unlock(&l->lock);
		serve_holding(l, &buf);
		pthread_mutex_lock(&l->lock);
	}
	pthread_mutex_unlock(&l->lock);
	pthread_cleanup_pop(1);
	return NULL;
}

/* Polling needs reads that do not block; without it, the device stays
 * as it was. */
static long poll_window(struct fuse_session *se, unsigned poll_us)
{
	int fd = fuse_session_fd(se);
	int flags = fcntl(fd, F_GETFL);
	if (poll_us == 0 || flags < 0 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return 0;
	return (long)poll_us * 1000;
}

int loop_serve(struct fuse_session *se, unsigned max_threads,
	       unsigned poll_us)
{
	struct loop *l = calloc(1, sizeof *l);
	if (!l)
		return -ENOMEM;
	l->se = se;
	l->poll_ns = poll_window(se, poll_us);
	l->max = max_threads < 1 ? 1 : max_threads > LOOP_MAX_THREADS
		 ? LOOP_MAX_THREADS : max_threads;
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->follow, NULL);
	sem_init(&l->ended, 0, 0);
	blocking_set_hook(loop_blocking);
	pthread_mutex_lock(&l->lock);
	start_thread(l);
	bool running = l->started > 0;
	pthread_mutex_unlock(&l->lock);
	while (running && !fuse_session_exited(se))
		sem_wait(&l->ended);    /* a signal's handler ends it too */
	blocking_set_hook(NULL);
	pthread_mutex_lock(&l->lock);
	l->ending = true;
	pthread_cond_broadcast(&l->follow);
	unsigned n = l->started;
	pthread_mutex_unlock(&l->lock);
	/* No thread starts now: give_role does not run once ending. */
	for (unsigned i = 0; i < n; i++)
		pthread_cancel(l->threads[i]);
	for (unsigned i = 0; i < n; i++)
		pthread_join(l->threads[i], NULL);
	int rc = running ? l->error : -EAGAIN;
	fuse_session_reset(se);
	sem_destroy(&l->ended);
	pthread_cond_destroy(&l->follow);
	pthread_mutex_destroy(&l->lock);
	free(l);
	return rc;
}
