/* SPDX-License-Identifier: MIT */
/*
 * gleam_vgpu.ko tests that run inside the VM (tests/vm/init starts them).
 */
#ifndef VM_TEST_H
#define VM_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "gleam_record.h"
#include "gleam_vgpu.h"
#include "vgpu_nl.h"
#include "vgpu_user.h"
#include "vm_ring.h"

/* Test functions of the echo daemon. */
#define VM_FN_ECHO	1	/* reply with the record's body */
#define VM_FN_SWALLOW	2	/* never answered: the caller waits */

#define VM_SEC	1000000000ULL
#define VM_MS	1000000ULL

/* What the echo daemon reports, in memory shared with the runner. */
struct vm_daemon_stats {
	uint64_t opens;
	uint64_t ends;
	uint64_t kicks;
	uint64_t echoed;
	uint64_t broken;
	uint64_t end_ids[64];	/* last ENDed session ids, by ends % 64 */
	int ready;
};

#define VM_FAIL(...)							\
	do {								\
		fprintf(stderr, "  FAIL %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fprintf(stderr, "\n");					\
		return -1;						\
	} while (0)

#define VM_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			VM_FAIL(__VA_ARGS__);				\
	} while (0)

uint64_t vm_now_ns(void);
uint64_t vm_rand(uint64_t *state);
const char *vm_err(int err);

/* vm_daemon.c */
pid_t vm_daemon_start(struct vm_daemon_stats *st, int st_fd);
int vm_daemon_main(int st_fd);
int vm_daemon_stop(pid_t pid);
bool vm_daemon_saw_end(const struct vm_daemon_stats *st, uint64_t session);

/* vm_app.c */
int vm_app_echo(const char *path, unsigned int shift, unsigned int nrec,
		uint64_t seed);
int vm_app_send(struct gleam_vgpu_app *app, struct vm_ring *sq, uint16_t fn,
		uint32_t flags, uint32_t tag, uint64_t seq,
		const void *body, uint32_t body_len);
int vm_app_recv(struct gleam_vgpu_app *app, struct vm_ring *cq,
		struct gleam_reply *rep, void *body, uint32_t body_max,
		uint32_t *body_len, uint64_t timeout_ns);

/* vm_fuzz.c */
int vm_fuzz(uint64_t seed, unsigned int ops);

/* vm_bench.c */
int vm_bench(unsigned int iters);

#endif /* VM_TEST_H */
