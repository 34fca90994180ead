// SPDX-License-Identifier: MIT
/* The session ring: order, wrap-around, flow control, hostile indices. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gleam_record.h"
#include "ring.h"
#include "unit.h"

#define SHIFT 16

static struct gl_ring prod, cons;
static int fd;

static void setup(void)
{
	fd = gl_ring_memfd(SHIFT, SHIFT);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(gl_ring_map(fd, &prod), 0);
	ck_assert_int_eq(gl_ring_map(fd, &cons), 0);
}

static void teardown(void)
{
	gl_ring_unmap(&prod);
	gl_ring_unmap(&cons);
	close(fd);
}

static void put(uint32_t len, uint32_t tag)
{
	struct gleam_rec *r = gl_ring_reserve(&prod.sq, len);

	ck_assert_ptr_nonnull(r);
	memset(r, 0, len);
	r->len = len;
	r->fn = 1;
	r->tag = tag;
	memset(r + 1, (int)(tag & 0xff), len - sizeof(*r));
	gl_ring_commit(&prod.sq);
}

static uint32_t get(uint32_t *tag)
{
	const struct gleam_rec *r;
	uint32_t len;

	r = gl_ring_peek(&cons.sq, sizeof(*r), GLEAM_REC_MAX, &len);
	if (!r)
		return 0;
	*tag = r->tag;
	for (uint32_t i = sizeof(*r); i < len; i++)
		if (((const unsigned char *)r)[i] != (*tag & 0xff))
			ck_abort_msg("record %u corrupted at byte %u", *tag, i);
	gl_ring_consume(&cons.sq, len);
	gl_ring_consume_publish(&cons.sq);
	return len;
}

START_TEST(test_order_and_wrap)
{
	uint32_t next_put = 0, next_get = 0, tag;

	srand(1);
	/* Many times round the ring with records of every size class. */
	while (next_get < 20000) {
		uint32_t len = (uint32_t)(sizeof(struct gleam_rec) + 8 * (rand() % 600));

		if (next_put < 20000 && gl_ring_can_reserve(&prod.sq, len)) {
			put(len, next_put++);
			continue;
		}
		ck_assert_uint_gt(get(&tag), 0);
		ck_assert_uint_eq(tag, next_get);
		next_get++;
	}
	ck_assert(gl_ring_empty(&cons.sq));
	ck_assert(!prod.sq.broken && !cons.sq.broken);
}
END_TEST

START_TEST(test_full_then_space)
{
	uint32_t n = 0, tag;

	while (gl_ring_can_reserve(&prod.sq, 4096))
		put(4096, n++);
	ck_assert_uint_eq(n, (1u << SHIFT) / 4096);
	ck_assert_ptr_null(gl_ring_reserve(&prod.sq, 4096));
	ck_assert_uint_eq(get(&tag), 4096);
	ck_assert(gl_ring_can_reserve(&prod.sq, 4096));
}
END_TEST

START_TEST(test_limits)
{
	ck_assert_ptr_null(gl_ring_reserve(&prod.sq, 0));
	ck_assert_ptr_null(gl_ring_reserve(&prod.sq, 12));	/* unaligned */
	ck_assert_ptr_null(gl_ring_reserve(&prod.sq, (1u << SHIFT) / 2 + 8));
	ck_assert(!prod.sq.broken);
}
END_TEST

/* The other side writes what it likes: the reader must notice, not crash. */
START_TEST(test_hostile_tail)
{
	uint32_t len;

	cons.sq.ctl->tail = (1u << SHIFT) + 64;
	ck_assert_ptr_null(gl_ring_peek(&cons.sq, 32, GLEAM_REC_MAX, &len));
	ck_assert(cons.sq.broken);
}
END_TEST

START_TEST(test_hostile_length)
{
	static const uint32_t bad[] = { 0, 4, 12, 40, 1u << 20, 0xfffffff8u };
	uint32_t len;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		teardown();
		setup();
		put(32, 1);
		/* Rewrite the published record's length behind the reader's back. */
		((struct gleam_rec *)prod.sq.data)->len = bad[i];
		ck_assert_ptr_null(gl_ring_peek(&cons.sq, 32, GLEAM_REC_MAX, &len));
		ck_assert(cons.sq.broken);
	}
}
END_TEST

START_TEST(test_hostile_pad)
{
	struct gleam_rec *r;
	uint32_t len;

	put(64, 1);
	r = (struct gleam_rec *)prod.sq.data;
	r->fn = GLEAM_FN_PAD;	/* padding that does not run to the end */
	ck_assert_ptr_null(gl_ring_peek(&cons.sq, 32, GLEAM_REC_MAX, &len));
	ck_assert(cons.sq.broken);
}
END_TEST

START_TEST(test_hostile_head)
{
	/* A consumer that claims to have consumed more than was published. */
	put(64, 1);
	prod.sq.ctl->head = prod.sq.pos + 4096;
	ck_assert_uint_eq(gl_ring_space(&prod.sq), 0);
	ck_assert(prod.sq.broken);
	ck_assert_ptr_null(gl_ring_reserve(&prod.sq, 64));
}
END_TEST

START_TEST(test_bad_layout)
{
	struct gl_ring r;
	struct gleam_ring_layout *l = prod.base;

	l->sq_shift = 40;
	ck_assert_int_ne(gl_ring_attach(prod.base, prod.region_size, &r), 0);
	l->sq_shift = SHIFT;
	l->cq_data_off = l->sq_data_off;	/* overlapping areas */
	ck_assert_int_ne(gl_ring_attach(prod.base, prod.region_size, &r), 0);
	ck_assert_int_ne(gl_ring_attach(prod.base, prod.region_size - 4096, &r), 0);
}
END_TEST

START_TEST(test_sleep_flags)
{
	ck_assert(!gl_ring_cons_sleeping(&prod.sq));
	gl_ring_cons_set_sleeping(&cons.sq, true);
	ck_assert(gl_ring_cons_sleeping(&prod.sq));
	gl_ring_cons_set_sleeping(&cons.sq, false);
	ck_assert(!gl_ring_cons_sleeping(&prod.sq));
	gl_ring_prod_set_sleeping(&prod.sq, true);
	ck_assert(gl_ring_consume_publish(&cons.sq));
}
END_TEST

Suite *ring_suite(void)
{
	Suite *s = suite_create("ring");
	TCase *t = UNIT_TCASE(s, "core", test_order_and_wrap, test_full_then_space, test_limits,
			      test_hostile_tail, test_hostile_length, test_hostile_pad,
			      test_hostile_head, test_bad_layout, test_sleep_flags);

	tcase_add_checked_fixture(t, setup, teardown);
	return s;
}
