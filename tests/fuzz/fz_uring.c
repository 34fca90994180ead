// SPDX-License-Identifier: MIT
/*
 * The harnesses' stand-in for the kernel side of io_uring.  gleamd
 * prepares its operations on a real ring through loop_sqe(), as it does in
 * its loop; none is ever submitted.  fz_harvest() takes what was prepared
 * into a list of operations in flight and empties the ring's queue again,
 * and the harness completes each operation itself, with the result and the
 * bytes of its choosing, through the role's own completion handler.  So no
 * operation can block and no buffer is ever handed to the kernel.
 */
#include <liburing.h>
#include <sanitizer/asan_interface.h>
#include <string.h>

#include "fz.h"
#include "util.h"

struct fz_op fz_ops[FZ_OPS_MAX];
unsigned int fz_nops;

/* The stand-in's own branches are no news to the fuzzer: not instrumented. */
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)

void fz_uring_init(void)
{
	static bool done;
	int err;

	if (done)
		return;
	err = io_uring_queue_init(256, &g_loop.ring, 0);
	if (err)
		FZ_FAIL("io_uring_queue_init: %s", strerror(-err));
	/* No spinning: the loop is never run here. */
	g_loop.spin_ns = 0;
	done = true;
}

struct fz_op *fz_find(const struct op *op)
{
	for (unsigned int i = 0; i < fz_nops; i++)
		if (fz_ops[i].op == op)
			return &fz_ops[i];
	return NULL;
}

void fz_harvest(void)
{
	struct io_uring_sq *sq = &g_loop.ring.sq;

	if (*sq->ktail != 0 || sq->sqe_head != 0)
		FZ_FAIL("an operation reached the kernel");
	for (unsigned int i = sq->sqe_head; i != sq->sqe_tail; i++) {
		const struct io_uring_sqe *sqe = &sq->sqes[i & sq->ring_mask];
		struct op *op = (struct op *)(uintptr_t)sqe->user_data;

		/* The listener's accept, timers and cancels belong to no session. */
		if (!op || !op->owner)
			continue;
		/* The kernel would still be using the first one's buffer. */
		if (fz_find(op))
			FZ_FAIL("operation type %d posted again while in flight", op->type);
		if (fz_nops == FZ_OPS_MAX)
			FZ_FAIL("more than %d operations in flight", FZ_OPS_MAX);
		fz_ops[fz_nops++] = (struct fz_op){
			.op = op, .opcode = sqe->opcode, .fd = sqe->fd,
			.addr = (void *)(uintptr_t)sqe->addr, .len = sqe->len,
		};
	}
	sq->sqe_tail = sq->sqe_head;
}

static void take(unsigned int i, struct fz_op *o)
{
	*o = fz_ops[i];
	fz_ops[i] = fz_ops[--fz_nops];
}

bool fz_take(void *owner, enum op_type type, struct fz_op *o)
{
	for (unsigned int i = 0; i < fz_nops; i++) {
		if (fz_ops[i].op->owner == owner && fz_ops[i].op->type == type) {
			take(i, o);
			return true;
		}
	}
	return false;
}

bool fz_take_any(void *owner, struct fz_op *o)
{
	for (unsigned int i = 0; i < fz_nops; i++) {
		if (fz_ops[i].op->owner == owner) {
			take(i, o);
			return true;
		}
	}
	return false;
}

bool fz_take_fd(int fd, enum op_type type, struct fz_op *o)
{
	for (unsigned int i = 0; i < fz_nops; i++) {
		if (fz_ops[i].op->type == type && (fd < 0 || fz_ops[i].fd == fd)) {
			take(i, o);
			return true;
		}
	}
	return false;
}

bool fz_take_first(struct fz_op *o)
{
	if (!fz_nops)
		return false;
	take(0, o);
	return true;
}

unsigned int fz_count(void *owner)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < fz_nops; i++)
		n += fz_ops[i].op->owner == owner;
	return n;
}

#define POOL_MIN	(1u << 20)
/* Poisoning all of a free buffer costs as much as a fresh one: its head only. */
#define POOL_POISON	(64u << 10)

static struct {
	void *p;
	size_t n;
	bool used;
} pool[2 * 16];

void *fz_malloc(size_t n)
{
	unsigned int i;

	if (n < POOL_MIN)
		return malloc(n);
	for (i = 0; i < ARRAY_SIZE(pool); i++) {
		if (pool[i].p && !pool[i].used && pool[i].n == n) {
			pool[i].used = true;
			ASAN_UNPOISON_MEMORY_REGION(pool[i].p, POOL_POISON);
			return pool[i].p;
		}
	}
	for (i = 0; i < ARRAY_SIZE(pool); i++) {
		if (!pool[i].p) {
			pool[i].p = malloc(n);
			pool[i].n = n;
			pool[i].used = pool[i].p != NULL;
			return pool[i].p;
		}
	}
	return malloc(n);
}

void fz_free(void *p)
{
	for (unsigned int i = 0; p && i < ARRAY_SIZE(pool); i++) {
		if (pool[i].p == p) {
			if (!pool[i].used)
				FZ_FAIL("a buffer freed twice");
			pool[i].used = false;
			ASAN_POISON_MEMORY_REGION(p, POOL_POISON);
			return;
		}
	}
	free(p);
}

#pragma clang attribute pop
