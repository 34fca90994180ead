/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gleam_vgpu.ko private declarations.
 *
 * Locking, outermost first:
 *   gleam_lock (mutex)      devices, the daemon slot, session open and
 *                           close, announcing sessions
 *   gleam_ev_lock (spin)    gleam_daemon, every event queue and each
 *                           session's ann_gen, ev_pending, open_delivered,
 *                           error
 * xa_lock(&gleam_sessions) is taken alone, for id lookups on the daemon's
 * kick and mmap paths; a session found there is open, since release erases
 * it first.  mmap_lock may be held when a session's setup_lock or
 * gleam_lock is taken, so nothing touches user memory under either.
 */
#ifndef GLEAM_VGPU_PRIV_H
#define GLEAM_VGPU_PRIV_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "gleam_ring.h"
#include "gleam_vgpu.h"

struct gleam_vgpu {
	unsigned int index;
	struct device *dev;
	unsigned int active;		/* open sessions, under gleam_lock */
	atomic64_t sessions_opened;
	atomic64_t kicks_to_daemon;
	atomic64_t kicks_to_app;
	atomic64_t waits;
	atomic64_t wait_timeouts;
	atomic64_t ring_bytes;
};

/* An entry of the daemon's event queue: a session or an END record. */
struct gleam_evnode {
	struct list_head link;
	bool is_end;
};

struct gleam_end_rec {
	struct gleam_evnode ev;
	u64 session;
	u32 vgpu;
	u32 reason;
	u32 signal;
};

struct gleam_ring_mem {
	struct page **pages;
	unsigned long nr_pages;
	struct gleam_vgpu_ring_info info;
};

/* Pending event bits of a queued session. */
#define GLEAM_EVP_OPEN	BIT(0)
#define GLEAM_EVP_KICK	BIT(1)

/*
 * One open of /dev/vgpuN.  References: the application's file, each VMA
 * that maps the region (either side) and the daemon's queue while the
 * session is queued.  Everything it owns is freed with the last one.
 */
struct gleam_session {
	struct kref ref;
	u32 id;
	u32 vgpu_index;
	struct gleam_vgpu *vgpu;	/* valid while the file is open */
	pid_t pid;
	u32 uid;

	/* Serialises allocating the region (SETUP against the first mmap). */
	struct mutex setup_lock;
	struct gleam_ring_mem *ring;	/* set once: gleam_session_ring() */

	wait_queue_head_t wq;		/* WAIT and poll() */
	atomic_t app_pending;		/* a daemon kick not yet consumed */

	/* Under gleam_ev_lock; error is also read locklessly. */
	int error;
	u64 ann_gen;			/* daemon it was announced to, 0 none */
	unsigned int ev_pending;	/* GLEAM_EVP_* */
	bool open_delivered;
	struct gleam_evnode ev;
	struct gleam_end_rec *end_rec;	/* preallocated: release cannot fail */
};

/* The page index inside a region, whichever file maps it. */
#define GLEAM_MAP_PGMASK	((1UL << (GLEAM_VGPU_MAP_SHIFT - PAGE_SHIFT)) - 1)

#define GLEAM_EV_BATCH	16

struct gleam_daemon {
	u64 gen;			/* nonzero once HELLO succeeded */
	u64 features;
	struct list_head events;	/* under gleam_ev_lock */
	wait_queue_head_t wq;
	/* Serialises read() and so owns evbuf and putbuf. */
	struct mutex read_lock;
	struct gleam_vgpu_event evbuf[GLEAM_EV_BATCH];
	struct gleam_session *putbuf[GLEAM_EV_BATCH];
};

/* The region, or NULL before setup. */
static inline struct gleam_ring_mem *gleam_session_ring(struct gleam_session *s)
{
	/* Pairs with gleam_session_setup(): the layout is written first. */
	return smp_load_acquire(&s->ring);
}

extern struct mutex gleam_lock;
extern spinlock_t gleam_ev_lock;
extern struct xarray gleam_sessions;
extern struct gleam_daemon *gleam_daemon;
extern struct gleam_vgpu *gleam_vgpus[GLEAM_VGPU_MAX];
extern unsigned int gleam_nr_vgpus;

/* vgpu_main.c */
int gleam_set_nr_vgpus(unsigned int nr);

/* vgpu_session.c */
extern const struct file_operations gleam_vgpu_fops;
void gleam_ring_mem_init(void);
void gleam_ring_mem_exit(void);
void gleam_session_put(struct gleam_session *s);
int gleam_ring_mmap(struct gleam_session *s, struct vm_area_struct *vma);
void gleam_session_fail(struct gleam_session *s, int error);
void gleam_session_kick_app(struct gleam_session *s);

/* vgpu_control.c */
extern struct miscdevice gleam_control_dev;
void gleam_announce(struct gleam_daemon *d, struct gleam_session *s);

/* vgpu_netlink.c */
int gleam_nl_init(void);
void gleam_nl_exit(void);
void gleam_nl_session_opened(const struct gleam_session *s);
void gleam_nl_session_ended(const struct gleam_session *s, u32 reason,
			    u32 signal);

#endif /* GLEAM_VGPU_PRIV_H */
