/* SPDX-License-Identifier: MIT */
/*
 * User-space side of gleam_vgpu.ko: what libcuda.so.1 needs to run a
 * session on /dev/vgpuN and what gleamd needs on the control node.
 *
 * Every function returns 0 (or a count where it says so) or -errno;
 * errno itself is never the interface.  Nothing here interprets records:
 * the ring's contents are the caller's business.
 *
 * Doorbells cost no system call while the other side is awake: a side
 * that is about to sleep sets NEED_WAKEUP in the ring (the *_prepare_sleep
 * helpers), and the other side rings only when it sees the flag (the
 * *_needs_kick helpers).  Both use a full fence, so that of "I published"
 * and "I said I sleep" at least one side sees the other's store.
 */
#ifndef GLEAM_VGPU_USER_H
#define GLEAM_VGPU_USER_H

#include <stdbool.h>
#include <stdint.h>

#include "gleam_ring.h"
#include "gleam_vgpu.h"

#define GLEAM_VGPU_CONTROL_PATH	"/dev/" GLEAM_VGPU_CONTROL_NAME
#define GLEAM_VGPU_PATH_FMT	"/dev/" GLEAM_VGPU_NODE_PREFIX "%u"

/* One session's mapped region, as either side sees it. */
struct gleam_vgpu_region {
	uint64_t session;
	void *base;
	struct gleam_vgpu_ring_info ring;
	struct gleam_ring_ctl *sq_ctl;	/* application -> gleamd */
	struct gleam_ring_ctl *cq_ctl;	/* gleamd -> application */
	uint8_t *sq_data;
	uint8_t *cq_data;
};

/* ---- ring flags ---- */

/* The producer, after publishing a new tail: must it ring? */
static inline bool gleam_ring_consumer_sleeps(struct gleam_ring_ctl *c)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&c->cons_flags, __ATOMIC_RELAXED) &
	       GLEAM_RING_CONS_NEED_WAKEUP;
}

/* The consumer, after publishing a new head: must it ring? */
static inline bool gleam_ring_producer_sleeps(struct gleam_ring_ctl *c)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&c->prod_flags, __ATOMIC_RELAXED) &
	       GLEAM_RING_PROD_NEED_WAKEUP;
}

/*
 * The consumer, having consumed up to head, wants to sleep.  Returns true
 * with NEED_WAKEUP set if nothing new was published meanwhile; false (flag
 * cleared) if there is something to consume after all.
 */
static inline bool gleam_ring_cons_prepare_sleep(struct gleam_ring_ctl *c,
						 uint32_t head)
{
	uint32_t f = __atomic_load_n(&c->cons_flags, __ATOMIC_RELAXED);

	__atomic_store_n(&c->cons_flags, f | GLEAM_RING_CONS_NEED_WAKEUP,
			 __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->tail, __ATOMIC_ACQUIRE) == head)
		return true;
	__atomic_store_n(&c->cons_flags, f & ~GLEAM_RING_CONS_NEED_WAKEUP,
			 __ATOMIC_RELAXED);
	return false;
}

static inline void gleam_ring_cons_awake(struct gleam_ring_ctl *c)
{
	uint32_t f = __atomic_load_n(&c->cons_flags, __ATOMIC_RELAXED);

	__atomic_store_n(&c->cons_flags, f & ~GLEAM_RING_CONS_NEED_WAKEUP,
			 __ATOMIC_RELAXED);
}

/* Likewise for a producer that waits for the head to move past head_seen. */
static inline bool gleam_ring_prod_prepare_sleep(struct gleam_ring_ctl *c,
						 uint32_t head_seen)
{
	uint32_t f = __atomic_load_n(&c->prod_flags, __ATOMIC_RELAXED);

	__atomic_store_n(&c->prod_flags, f | GLEAM_RING_PROD_NEED_WAKEUP,
			 __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->head, __ATOMIC_ACQUIRE) == head_seen)
		return true;
	__atomic_store_n(&c->prod_flags, f & ~GLEAM_RING_PROD_NEED_WAKEUP,
			 __ATOMIC_RELAXED);
	return false;
}

static inline void gleam_ring_prod_awake(struct gleam_ring_ctl *c)
{
	uint32_t f = __atomic_load_n(&c->prod_flags, __ATOMIC_RELAXED);

	__atomic_store_n(&c->prod_flags, f & ~GLEAM_RING_PROD_NEED_WAKEUP,
			 __ATOMIC_RELAXED);
}

/* ---- application side (/dev/vgpuN) ---- */

struct gleam_vgpu_app {
	int fd;
	unsigned int vgpu;
	struct gleam_vgpu_region reg;
};

/*
 * Open path (e.g. "/dev/vgpu0"), set the rings up (shift 0: default size)
 * and map them.  On failure nothing is left open.
 */
int gleam_vgpu_app_open(struct gleam_vgpu_app *app, const char *path,
			unsigned int sq_shift, unsigned int cq_shift);
/* Unmap and close: the session ends and gleamd is told. */
void gleam_vgpu_app_close(struct gleam_vgpu_app *app);

/* Ring gleamd's doorbell unconditionally. */
int gleam_vgpu_app_kick(struct gleam_vgpu_app *app);
/*
 * After publishing SQ records or consuming CQ replies: ring only if gleamd
 * sleeps on the SQ or waits for CQ space.  0 also when no ring was needed.
 */
int gleam_vgpu_app_notify(struct gleam_vgpu_app *app);
/*
 * Sleep until gleamd kicks, at most timeout_ns.  0, -ETIMEDOUT,
 * -ENOTCONN (gleamd went away), -ECONNRESET (gleamd ended the session).
 */
int gleam_vgpu_app_wait(struct gleam_vgpu_app *app, uint64_t timeout_ns);
/*
 * Wait for a reply: CQ tail past cq_head.  Sets NEED_WAKEUP, re-checks,
 * sleeps, clears.  0 when the CQ may have something (re-read it).
 */
int gleam_vgpu_app_wait_cq(struct gleam_vgpu_app *app, uint32_t cq_head,
			   uint64_t timeout_ns);
/* Wait for SQ space: gleamd's head past sq_head_seen. */
int gleam_vgpu_app_wait_sq_space(struct gleam_vgpu_app *app,
				 uint32_t sq_head_seen, uint64_t timeout_ns);

/* ---- daemon side (control node) ---- */

struct gleam_vgpu_ctl {
	int fd;
	uint64_t features;	/* granted GLEAM_VGPU_F_* */
	unsigned int nr_vgpus;
};

/*
 * Open the control node (CAP_SYS_ADMIN; -EBUSY while another daemon has
 * it) and say HELLO asking for features.  nonblock: reads never sleep.
 */
int gleam_vgpu_ctl_open(struct gleam_vgpu_ctl *ctl, uint64_t features,
			bool nonblock);
/* Every session announced to this daemon fails with -ENOTCONN. */
void gleam_vgpu_ctl_close(struct gleam_vgpu_ctl *ctl);
/* Up to max events; the count (>= 1), -EAGAIN, or -errno. */
int gleam_vgpu_ctl_read(struct gleam_vgpu_ctl *ctl,
			struct gleam_vgpu_event *ev, unsigned int max);
/* poll() for events: 0 when there are some, -ETIMEDOUT, -errno. */
int gleam_vgpu_ctl_wait(struct gleam_vgpu_ctl *ctl, int timeout_ms);
/* Map the session of an OPEN event. */
int gleam_vgpu_ctl_map(struct gleam_vgpu_ctl *ctl,
		       const struct gleam_vgpu_event *open_ev,
		       struct gleam_vgpu_region *reg);
void gleam_vgpu_region_unmap(struct gleam_vgpu_region *reg);
/* Kick n applications by session id in one system call. */
int gleam_vgpu_ctl_kick(struct gleam_vgpu_ctl *ctl, const uint64_t *ids,
			unsigned int n);
/*
 * After publishing CQ replies or consuming SQ records: does this session's
 * application need a kick (it sleeps on the CQ or waits for SQ space)?
 */
bool gleam_vgpu_region_app_sleeps(struct gleam_vgpu_region *reg);
int gleam_vgpu_ctl_set_nr_vgpus(struct gleam_vgpu_ctl *ctl, unsigned int nr);
int gleam_vgpu_ctl_end_session(struct gleam_vgpu_ctl *ctl, uint64_t session);

#endif /* GLEAM_VGPU_USER_H */
