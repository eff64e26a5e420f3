/* SPDX-License-Identifier: MIT */
/* test_lenmemo.c - a key's remembered lengths survive until its slot is
 * needed for another key, a reused slot starts empty, and a thread that
 * finds every slot busy gets none. */
#include "config.h"

#include "testutil.h"
#include "util/lenmemo.h"

static int drain(void **state)
{
	(void)state;
	lenmemo_drain();
	return 0;
}

static void a_key_keeps_its_entries(void **state)
{
	(void)state;
	struct lenmemo *m = lenmemo_take(0x3f800000);
	assert_non_null(m);
	assert_int_equal(lenmemo_get(m, 0), 0);
	assert_int_equal(lenmemo_get(m, 65535), 0);
	lenmemo_set(m, 65535, 0x3b);
	lenmemo_give_back(m);
	struct lenmemo *again = lenmemo_take(0x3f800000);
	assert_ptr_equal(again, m);
	assert_int_equal(lenmemo_get(again, 65535), 0x3b);
	lenmemo_give_back(again);
}

/* Two keys at once get two slots; with every slot busy there is none. */
static void busy_slots_are_not_shared(void **state)
{
	(void)state;
	struct lenmemo *m[LENMEMO_SLOTS];
	for (unsigned i = 0; i < LENMEMO_SLOTS; i++) {
		m[i] = lenmemo_take(100 + i);
		assert_non_null(m[i]);
		for (unsigned j = 0; j < i; j++)
			assert_ptr_not_equal(m[i], m[j]);
	}
	assert_null(lenmemo_take(100));         /* its slot is busy */
	assert_null(lenmemo_take(999));
	for (unsigned i = 0; i < LENMEMO_SLOTS; i++)
		lenmemo_give_back(m[i]);
	lenmemo_give_back(NULL);
}

/* A new key takes the least recently used slot and finds it empty; the
 * keys used since keep theirs. */
static void a_new_key_clears_the_oldest(void **state)
{
	(void)state;
	for (unsigned i = 0; i < LENMEMO_SLOTS; i++) {
		struct lenmemo *m = lenmemo_take(200 + i);
		assert_non_null(m);
		lenmemo_set(m, 7, (uint8_t)(i + 1));
		lenmemo_give_back(m);
	}
	struct lenmemo *fresh = lenmemo_take(300);
	assert_non_null(fresh);
	assert_int_equal(lenmemo_get(fresh, 7), 0);
	lenmemo_give_back(fresh);
	struct lenmemo *gone = lenmemo_take(200);   /* the oldest: rekeyed */
	assert_int_equal(lenmemo_get(gone, 7), 0);
	lenmemo_give_back(gone);
	for (unsigned i = 2; i < LENMEMO_SLOTS; i++) {
		struct lenmemo *m = lenmemo_take(200 + i);
		assert_int_equal(lenmemo_get(m, 7), i + 1);
		lenmemo_give_back(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(a_key_keeps_its_entries, drain),
		cmocka_unit_test_teardown(busy_slots_are_not_shared, drain),
		cmocka_unit_test_teardown(a_new_key_clears_the_oldest, drain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
