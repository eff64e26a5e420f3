/* SPDX-License-Identifier: MIT */
/* test_pack_plan.c - the relayout of an archive with edited members:
 * what stays, what moves and by how much, and where an old byte went. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pack/plan.h"

#define S 2048u

/* Four members: 1, 2, 1 and 3 sectors, the last cut short of its last
 * sector (the archive ends 100 bytes into it). */
static struct pack_member members[4];
static struct pack_plan plan;

static void setup_plan(void)
{
	static const uint64_t off[4] = { 0, S, 3 * S, 4 * S };
	memset(members, 0, sizeof members);
	for (int i = 0; i < 4; i++) {
		members[i].offset = off[i];
		members[i].extent = (i < 3 ? off[i + 1] : 6 * S + 100) - off[i];
	}
	plan = (struct pack_plan){ members, 4, 6 * S + 100, 0, 0, 0 };
}

static void edit(int i, uint64_t csize)
{
	members[i].edited = true;
	members[i].csize = csize;
	members[i].usize = (uint32_t)csize * 3;
}

static void nothing_edited_nothing_moves(void **state)
{
	(void)state;
	setup_plan();
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(members[i].new_offset, members[i].offset);
		assert_int_equal(members[i].new_extent, members[i].extent);
	}
	assert_int_equal(plan.new_size, plan.size);
	assert_int_equal(plan.rewritten, 0);
	assert_int_equal(plan.moved, 0);
}

static void a_member_that_fits_stays(void **state)
{
	(void)state;
	setup_plan();
	edit(1, 2 * S);         /* exactly its two sectors */
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
	assert_int_equal(members[1].new_offset, S);
	assert_int_equal(members[1].new_extent, 2 * S);
	assert_int_equal(members[2].new_offset, 3 * S);
	assert_int_equal(plan.new_size, plan.size);
	assert_int_equal(plan.rewritten, 1);
	assert_int_equal(plan.moved, 0);
}

static void a_shrunken_member_stays_and_pulls_nothing_back(void **state)
{
	(void)state;
	setup_plan();
	edit(1, 10);
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
	assert_int_equal(members[1].new_extent, 2 * S);
	assert_int_equal(members[2].new_offset, 3 * S);
	assert_int_equal(plan.new_size, plan.size);
}

static void a_grown_member_moves_the_rest_by_whole_sectors(void **state)
{
	(void)state;
	setup_plan();
	edit(0, S + 1);         /* one byte past its sector: two sectors */
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
	assert_int_equal(members[0].new_offset, 0);
	assert_int_equal(members[0].new_extent, 2 * S);
	assert_int_equal(members[1].new_offset, 2 * S);
	assert_int_equal(members[2].new_offset, 4 * S);
	assert_int_equal(members[3].new_offset, 5 * S);
	assert_int_equal(members[3].new_extent, members[3].extent);
	assert_int_equal(plan.new_size, plan.size + S);
	assert_int_equal(plan.moved, 3);
	/* Old bytes: inside a moved member, and the archive's end. */
	assert_int_equal(pack_plan_map(&plan, 3 * S + 5), 4 * S + 5);
	assert_int_equal(pack_plan_map(&plan, 0), 0);
	assert_int_equal(pack_plan_map(&plan, plan.size), plan.new_size);
	assert_int_equal(pack_plan_map(&plan, plan.size + 7 * S),
			 plan.new_size + 7 * S);
	assert_ptr_equal(pack_plan_member_at(&plan, 3 * S), &members[2]);
	assert_null(pack_plan_member_at(&plan, 3 * S + 1));
	assert_null(pack_plan_member_at(&plan, 2 * S));
}

static void growths_add_up(void **state)
{
	(void)state;
	setup_plan();
	edit(0, 3 * S);         /* +2 sectors */
	edit(2, 2 * S + 5);     /* +2 sectors */
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
	assert_int_equal(members[1].new_offset, 3 * S);
	assert_int_equal(members[2].new_offset, 5 * S);
	assert_int_equal(members[2].new_extent, 3 * S);
	assert_int_equal(members[3].new_offset, 8 * S);
	assert_int_equal(plan.new_size, plan.size + 4 * S);
	assert_int_equal(plan.rewritten, 2);
}

static void the_last_member_grows_to_whole_sectors(void **state)
{
	(void)state;
	setup_plan();
	edit(3, 2 * S + 101);   /* past the cut end: three sectors */
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), 0);
	assert_int_equal(members[3].new_extent, 3 * S);
	assert_int_equal(plan.new_size, 7 * S);
	assert_int_equal(plan.moved, 0);
}

static void members_out_of_order_are_refused(void **state)
{
	(void)state;
	setup_plan();
	members[2].offset = 3 * S + 1;  /* not on a sector */
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&plan, &why), -EINVAL);
	assert_non_null(strstr(why.text, "member 1"));
	setup_plan();
	members[1].extent = S;          /* does not reach the next */
	assert_int_equal(pack_plan_lay_out(&plan, &why), -EINVAL);
	setup_plan();
	plan.size = 5 * S;              /* the last starts past the end */
	assert_int_equal(pack_plan_lay_out(&plan, &why), -EINVAL);
}

static void an_empty_archive(void **state)
{
	(void)state;
	struct pack_plan p = { NULL, 0, 5000, 0, 0, 0 };
	struct reason why = { "" };
	assert_int_equal(pack_plan_lay_out(&p, &why), 0);
	assert_int_equal(p.new_size, 5000);
	assert_int_equal(pack_plan_map(&p, 100), 100);
	assert_null(pack_plan_member_at(&p, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_edited_nothing_moves),
		cmocka_unit_test(a_member_that_fits_stays),
		cmocka_unit_test(a_shrunken_member_stays_and_pulls_nothing_back),
		cmocka_unit_test(a_grown_member_moves_the_rest_by_whole_sectors),
		cmocka_unit_test(growths_add_up),
		cmocka_unit_test(the_last_member_grows_to_whole_sectors),
		cmocka_unit_test(members_out_of_order_are_refused),
		cmocka_unit_test(an_empty_archive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
