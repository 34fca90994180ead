/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * gleam_vgpu.ko: the ABI between the kernel module, libcuda.so.1 (the
 * application side) and gleamd (the daemon side).
 *
 * Nodes:
 *   /dev/gleam-vgpu-control  opened by one gleamd at a time (CAP_SYS_ADMIN)
 *   /dev/vgpuN               opened by applications; each open is a session
 *
 * A session's shared memory is a ring region laid out as uapi/gleam_ring.h
 * describes, allocated by the kernel.  The application maps it through its
 * /dev/vgpuN file at offset 0; gleamd maps the same memory through the
 * control file at gleam_vgpu_event.map_offset.  The kernel never reads the
 * ring: both sides treat each other's indices as hostile.
 *
 * Doorbells follow the ring's NEED_WAKEUP flags: a producer rings only when
 * the consumer has said it sleeps.  Application to daemon: GLEAM_VGPU_IOC_KICK
 * on /dev/vgpuN, seen by gleamd as a GLEAM_VGPU_EV_KICK event read from the
 * control file.  Daemon to application: write() to the control file of an
 * array of __u64 session ids; the application sleeps in GLEAM_VGPU_IOC_WAIT
 * or poll().
 *
 * Every struct is padded to a multiple of 8 bytes; reserved fields and
 * undefined flags must be zero or the call fails with EINVAL.  A struct that
 * changes gets a new ioctl number.
 */
#ifndef _UAPI_GLEAM_VGPU_H
#define _UAPI_GLEAM_VGPU_H

#include <linux/types.h>

#define GLEAM_VGPU_ABI_VERSION	1

#define GLEAM_VGPU_CONTROL_NAME	"gleam-vgpu-control"
#define GLEAM_VGPU_NODE_PREFIX	"vgpu"

/* Device indices run from 0 to GLEAM_VGPU_MAX - 1. */
#define GLEAM_VGPU_MAX		64

/* Data area of each direction when the application does not choose. */
#define GLEAM_VGPU_DEFAULT_SHIFT	22	/* 4 MiB */

/*
 * gleamd maps session S at byte offset S << GLEAM_VGPU_MAP_SHIFT of the
 * control file.  Session ids are below 2^31, so the offset is a positive
 * off_t.
 */
#define GLEAM_VGPU_MAP_SHIFT	32

#define GLEAM_VGPU_IOC_MAGIC	0xD7

/*
 * Where the parts of a session's region are, in bytes from its start.  The
 * same numbers are in the gleam_ring_layout at offset 0, but that page is
 * writable by the application; gleamd uses this copy from the kernel.
 */
struct gleam_vgpu_ring_info {
	__u64 region_size;	/* bytes to map, exactly */
	__u64 sq_ctl_off;	/* struct gleam_ring_ctl */
	__u64 cq_ctl_off;
	__u64 sq_data_off;
	__u64 cq_data_off;
	__u32 sq_shift;		/* SQ data area is 1 << sq_shift bytes */
	__u32 cq_shift;
};

/* ---- /dev/vgpuN ---- */

/*
 * GLEAM_VGPU_IOC_SETUP: allocate the session's ring region.  Optional: the
 * first mmap() sets up a session that has none with the default sizes.
 * Fails with EBUSY once the region exists.
 */
struct gleam_vgpu_setup {
	__u32 sq_shift;		/* in: GLEAM_RING_MIN_SHIFT..MAX_SHIFT, 0: default */
	__u32 cq_shift;		/* in: likewise */
	__u64 flags;		/* in: none defined, must be zero */
	__u64 session;		/* out: session id */
	__u32 vgpu;		/* out: device index */
	__u32 reserved0;	/* must be zero */
	struct gleam_vgpu_ring_info ring;	/* out */
	__u64 reserved[4];	/* must be zero */
};

/*
 * GLEAM_VGPU_IOC_WAIT: sleep until gleamd kicks this session, at most
 * timeout_ns (0 only consumes a pending kick).  A kick that arrived before
 * the call is not lost: it is consumed at once.  Returns 0 (kicked),
 * ETIMEDOUT, ENOTCONN (gleamd went away), ECONNRESET (gleamd ended the
 * session).  Only a fatal signal interrupts the sleep.
 */
struct gleam_vgpu_wait {
	__u64 timeout_ns;	/* in */
	__u32 flags;		/* in: none defined, must be zero */
	__u32 reserved;		/* must be zero */
};

#define GLEAM_VGPU_IOC_SETUP \
	_IOWR(GLEAM_VGPU_IOC_MAGIC, 0x00, struct gleam_vgpu_setup)
/* Ring gleamd's doorbell.  The argument must be 0. */
#define GLEAM_VGPU_IOC_KICK \
	_IO(GLEAM_VGPU_IOC_MAGIC, 0x01)
#define GLEAM_VGPU_IOC_WAIT \
	_IOWR(GLEAM_VGPU_IOC_MAGIC, 0x02, struct gleam_vgpu_wait)

/* ---- /dev/gleam-vgpu-control ---- */

/* Deliver GLEAM_VGPU_EV_KICK events (a polling daemon may not want them). */
#define GLEAM_VGPU_F_KICK_EVENTS	0x1ULL
#define GLEAM_VGPU_F_KNOWN		(GLEAM_VGPU_F_KICK_EVENTS)

/*
 * GLEAM_VGPU_IOC_HELLO: the first call on the control file.  It makes the
 * caller the daemon: sessions are announced from then on.  Features the
 * kernel does not know are cleared in the answer, not refused.
 */
struct gleam_vgpu_hello {
	__u32 version;		/* in: GLEAM_VGPU_ABI_VERSION */
	__u32 event_size;	/* out: sizeof(struct gleam_vgpu_event) */
	__u64 features;		/* in: wanted; out: granted */
	__u32 nr_vgpus;		/* out */
	__u32 max_vgpus;	/* out: GLEAM_VGPU_MAX */
	__u64 reserved[4];	/* must be zero */
};

/*
 * GLEAM_VGPU_IOC_SET_NR_VGPUS: create or remove /dev/vgpuN nodes.  Fails
 * with EBUSY if a node to be removed has open sessions.
 */
struct gleam_vgpu_nr_vgpus {
	__u32 nr;		/* in: 0..GLEAM_VGPU_MAX */
	__u32 flags;		/* in: none defined, must be zero */
	__u64 reserved[3];	/* must be zero */
};

/*
 * GLEAM_VGPU_IOC_END_SESSION: fail one session announced to this daemon,
 * e.g. after it wrote a malformed record.  Its waits then fail with
 * ECONNRESET; the application still has to close it.
 */
struct gleam_vgpu_end_session {
	__u64 session;		/* in */
	__u32 flags;		/* in: none defined, must be zero */
	__u32 reserved0;	/* must be zero */
	__u64 reserved[2];	/* must be zero */
};

#define GLEAM_VGPU_IOC_HELLO \
	_IOWR(GLEAM_VGPU_IOC_MAGIC, 0x40, struct gleam_vgpu_hello)
#define GLEAM_VGPU_IOC_SET_NR_VGPUS \
	_IOWR(GLEAM_VGPU_IOC_MAGIC, 0x41, struct gleam_vgpu_nr_vgpus)
#define GLEAM_VGPU_IOC_END_SESSION \
	_IOWR(GLEAM_VGPU_IOC_MAGIC, 0x42, struct gleam_vgpu_end_session)

/*
 * Events, read() from the control file in whole records (the file supports
 * O_NONBLOCK, poll() and io_uring without a worker thread).  Per session
 * they come in order OPEN, KICK..., END; KICKs that arrive before gleamd
 * reads the last one are merged.  A session whose OPEN was never read ends
 * without an END event.
 */
enum gleam_vgpu_event_type {
	GLEAM_VGPU_EV_OPEN = 1,	/* region ready to map: all fields valid */
	GLEAM_VGPU_EV_KICK = 2,	/* the application rang */
	GLEAM_VGPU_EV_END = 3,	/* the application closed; unmap the region */
};

/* Why a session ended. */
enum gleam_vgpu_end_reason {
	GLEAM_VGPU_END_CLOSED = 0,	/* closed by a live process */
	GLEAM_VGPU_END_EXITED = 1,	/* its process exited or was killed */
};

struct gleam_vgpu_event {
	__u32 type;		/* GLEAM_VGPU_EV_* */
	__u32 vgpu;		/* device index */
	__u64 session;		/* session id */
	__u64 map_offset;	/* OPEN: mmap offset on the control file */
	__s32 pid;		/* OPEN: opener's process id (initial pid ns) */
	__u32 uid;		/* OPEN: opener's uid (initial user ns) */
	__u32 reason;		/* END: GLEAM_VGPU_END_* */
	__u32 signal;		/* END: the signal that killed it, or 0 */
	struct gleam_vgpu_ring_info ring;	/* OPEN */
	__u64 reserved[5];	/* zero */
};

/* ---- generic netlink family ---- */

#define GLEAM_VGPU_GENL_NAME	"gleam_vgpu"
#define GLEAM_VGPU_GENL_VERSION	1
#define GLEAM_VGPU_GENL_MCGRP	"events"	/* needs CAP_NET_ADMIN */

enum gleam_vgpu_genl_cmd {
	GLEAM_VGPU_CMD_UNSPEC,
	GLEAM_VGPU_CMD_GET_STATS,	/* GLEAM_VGPU_A_VGPU, or a dump of all */
	GLEAM_VGPU_CMD_SESSION_OPENED,	/* event: VGPU SESSION PID UID */
	GLEAM_VGPU_CMD_SESSION_ENDED,	/* event: VGPU SESSION PID UID END_* */
	__GLEAM_VGPU_CMD_MAX,
};

#define GLEAM_VGPU_CMD_MAX	(__GLEAM_VGPU_CMD_MAX - 1)

enum gleam_vgpu_genl_attr {
	GLEAM_VGPU_A_UNSPEC,
	GLEAM_VGPU_A_PAD,
	GLEAM_VGPU_A_VGPU,		/* u32 */
	GLEAM_VGPU_A_SESSION,		/* u64 */
	GLEAM_VGPU_A_PID,		/* u32 */
	GLEAM_VGPU_A_UID,		/* u32 */
	GLEAM_VGPU_A_END_REASON,	/* u32: GLEAM_VGPU_END_* */
	GLEAM_VGPU_A_END_SIGNAL,	/* u32 */
	GLEAM_VGPU_A_SESSIONS_OPENED,	/* u64: since the node was created */
	GLEAM_VGPU_A_SESSIONS_ACTIVE,	/* u64: open now */
	GLEAM_VGPU_A_KICKS_TO_DAEMON,	/* u64 */
	GLEAM_VGPU_A_KICKS_TO_APP,	/* u64 */
	GLEAM_VGPU_A_WAITS,		/* u64: WAIT calls that slept */
	GLEAM_VGPU_A_WAIT_TIMEOUTS,	/* u64 */
	GLEAM_VGPU_A_RING_BYTES,	/* u64: ring memory of open sessions */
	__GLEAM_VGPU_A_MAX,
};

#define GLEAM_VGPU_A_MAX	(__GLEAM_VGPU_A_MAX - 1)

#endif /* _UAPI_GLEAM_VGPU_H */
