/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Gleam session ring: the memory an application (through libcuda.so.1)
 * shares with gleamd for one session.
 *
 * The same layout is set up two ways: through /dev/vgpuN (gleam_vgpu.ko,
 * see gleam_vgpu.h) or through an AF_UNIX socket that passes a memfd.
 * gleamd uses it again between the server role and each replay worker.
 *
 * Two single-producer, single-consumer byte rings live in the region:
 *   SQ  application -> gleamd   (records, struct gleam_rec)
 *   CQ  gleamd -> application   (replies, struct gleam_reply)
 * Each ring's data area is a power of two; head and tail are free-running
 * 32-bit byte counters, masked on use.  A message never wraps: a producer
 * that does not fit before the end writes a pad message (fn 0) that fills
 * the rest and starts again at offset 0.  Every message is 8-byte aligned.
 *
 * Indices and flags in this region are written by the other side and are
 * never trusted: a reader loads them once, masks them and bounds-checks
 * every length against what it has published itself.
 */
#ifndef _UAPI_GLEAM_RING_H
#define _UAPI_GLEAM_RING_H

#include <linux/types.h>

#define GLEAM_RING_MAGIC	0x4e524c47	/* "GLRN" */
#define GLEAM_RING_VERSION	1

/* Smallest and largest data area of one direction. */
#define GLEAM_RING_MIN_SHIFT	16	/* 64 KiB */
#define GLEAM_RING_MAX_SHIFT	28	/* 256 MiB */

/*
 * Control block of one direction, three cache lines so that the producer's
 * and consumer's stores never share a line.
 */
struct gleam_ring_ctl {
	__u32 head;		/* consumer: bytes consumed */
	__u32 cons_flags;	/* GLEAM_RING_CONS_* */
	__u8 pad0[56];
	__u32 tail;		/* producer: bytes published */
	__u32 prod_flags;	/* GLEAM_RING_PROD_* */
	__u8 pad1[56];
	/*
	 * The producer's own counts, GLEAM_RING_STAT_*: read for reports
	 * only, never trusted for anything else.
	 */
	__u64 prod_stats[2];
	__u64 reserved[6];	/* must be zero */
};

/* Calls of the program's that waited for a reply (SQ only). */
#define GLEAM_RING_STAT_WAITS		0
/*
 * Calls of the program's that CUDA makes wait, whatever answers them: a
 * synchronisation with work to wait for, a copy to memory the program
 * reads at once, a question only the GPU can answer (SQ only).
 */
#define GLEAM_RING_STAT_WAITS_REQUIRED	1

/* The consumer sleeps: a producer that publishes must ring the doorbell. */
#define GLEAM_RING_CONS_NEED_WAKEUP	(1U << 0)
/*
 * With NEED_WAKEUP: the consumer also looks at the ring on a timer of a few
 * tens of microseconds, so a producer need not ring for a record nobody
 * waits for.  Records that are waited for are always rung.
 */
#define GLEAM_RING_CONS_POLLING		(1U << 1)
/* The producer sleeps for space: a consumer that frees must ring. */
#define GLEAM_RING_PROD_NEED_WAKEUP	(1U << 0)
/* The producer will publish no more (it exited or gave up). */
#define GLEAM_RING_PROD_CLOSED		(1U << 1)

/*
 * Where things are, published at offset 0 of the region by whoever created
 * it (gleamd or the kernel), in the way io_uring publishes io_sqring_offsets.
 */
struct gleam_ring_layout {
	__u32 magic;		/* GLEAM_RING_MAGIC */
	__u32 version;		/* GLEAM_RING_VERSION */
	__u64 region_size;	/* bytes to map */
	__u64 sq_ctl_off;	/* struct gleam_ring_ctl */
	__u64 sq_data_off;
	__u32 sq_shift;		/* data area is 1 << sq_shift bytes */
	__u32 cq_shift;
	__u64 cq_ctl_off;
	__u64 cq_data_off;
	__u64 features;		/* GLEAM_RING_F_*, none defined yet */
	__u64 reserved[8];	/* must be zero */
};

#define GLEAM_RING_LAYOUT_SIZE	4096	/* the layout owns the first page */

#endif /* _UAPI_GLEAM_RING_H */
