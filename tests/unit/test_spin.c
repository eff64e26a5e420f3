/* SPDX-License-Identifier: MIT */
/* test_spin.c - spin_until polls until its condition holds or its window
 * has passed, and not at all with no window. */
#include "config.h"

#include <pthread.h>
#include <time.h>

#include "testutil.h"
#include "util/spin.h"

struct counter {
	unsigned calls, ready_at;
};

static bool count_to(void *arg)
{
	struct counter *c = arg;
	return ++c->calls >= c->ready_at;
}

static void true_once_ready(void **state)
{
	(void)state;
	struct counter c = { 0, 3 };
	assert_true(spin_until(count_to, &c, 10L * 1000000000));
	assert_int_equal(c.calls, 3);
}

static void no_window_no_call(void **state)
{
	(void)state;
	struct counter c = { 0, 1 };
	assert_false(spin_until(count_to, &c, 0));
	assert_false(spin_until(count_to, &c, -1));
	assert_int_equal(c.calls, 0);
}

/* A condition that never holds: false once the window has passed. */
static void false_after_the_window(void **state)
{
	(void)state;
	struct counter c = { 0, 0xffffffffu };
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_false(spin_until(count_to, &c, 2000000));
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_true(c.calls >= 2);
	long ns = (b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec;
	assert_true(ns >= 2000000);
}

static bool flag_set(void *arg)
{
	return __atomic_load_n((int *)arg, __ATOMIC_ACQUIRE) != 0;
}

static void *set_flag_later(void *arg)
{
	struct timespec ms = { 0, 1000000 };
	nanosleep(&ms, NULL);
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* What another thread does is seen while polling. */
static void sees_another_thread(void **state)
{
	(void)state;
	int flag = 0;
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, set_flag_later, &flag), 0);
	assert_true(spin_until(flag_set, &flag, 30L * 1000000000));
	pthread_join(t, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(true_once_ready),
		cmocka_unit_test(no_window_no_call),
		cmocka_unit_test(false_after_the_window),
		cmocka_unit_test(sees_another_thread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
