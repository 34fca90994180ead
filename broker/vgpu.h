/* SPDX-License-Identifier: MIT */
/*
 * gleamd, client role: sessions of /dev/vgpuN (gleam_vgpu.ko) beside those
 * of the local socket.  vgpu.c owns the control node and the netlink
 * family; client.c owns sessions, whichever way they came.
 */
#ifndef GLEAM_BROKER_VGPU_H
#define GLEAM_BROKER_VGPU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <linux/netlink.h>

#include "gleam_vgpu.h"
#include "gleamd.h"
#include "vgpu_user.h"

struct gleam_vgpu_nl;
struct vgpu;

/* A client session's tie to its kernel session; embedded in the session. */
struct vgpu_link {
	uint64_t id;			/* the kernel's session id; 0: none */
	unsigned int vgpu;
	bool ended;			/* END read: the application let go */
	bool kick_queued;
	struct vgpu *vg;		/* its node's, once added */
	struct vgpu_link *hnext;
};

/* Counters of one node: gleamd's, and the module's (as in sysfs). */
struct vgpu_node_status {
	unsigned int vgpu;
	uint64_t sessions;		/* OPEN events served */
	uint64_t active;
	uint64_t kick_events;		/* the applications rang */
	uint64_t kicks;			/* gleamd rang */
	uint64_t ended_by_app;		/* END events */
	uint64_t ended_by_gleamd;	/* END_SESSION: server or ring trouble */
	bool have_kernel;
	uint64_t k_sessions_opened;
	uint64_t k_sessions_active;
	uint64_t k_kicks_to_daemon;
	uint64_t k_kicks_to_app;
	uint64_t k_waits;
	uint64_t k_wait_timeouts;
	uint64_t k_ring_bytes;
};

struct vgpu_status {
	bool serving;
	char why[96];			/* when not serving */
	unsigned int nr_vgpus;
	uint64_t kick_writes;		/* write()s of session ids */
};

/*
 * What the client role does for vgpu.c (role: what vgpu_start() was given).
 * session: a session for a mapped ring: takes the ring over (it is
 * unmapped when the session ends) and connects to the server; -errno with
 * nothing taken.  rung: the application rang (records published or
 * replies consumed).  end: the application let go of the session: end it
 * and its server session.
 */
struct vgpu_ops {
	int (*session)(void *role, struct gl_ring *ring, uint64_t id, unsigned int vgpu,
		       pid_t pid, uid_t uid, const char *program);
	void (*rung)(struct vgpu_link *l);
	void (*end)(struct vgpu_link *l);
};

#define VGPU_HASH	256
#define VGPU_EV_BATCH	16
#define VGPU_KICK_MAX	4096		/* ids per write(), as the module takes */

/*
 * The control node, the netlink family and the sessions that came through
 * them: the client role's (client.c), which holds it and passes it.
 */
struct vgpu {
	const struct vgpu_ops *ops;	/* the client role's */
	void *role;
	bool serving;
	char why[96];
	struct gleam_vgpu_ctl ctl;
	struct op op_read, op_read_poll, op_kick, op_nl, op_nl_poll;
	struct gleam_vgpu_event ev[VGPU_EV_BATCH];
	bool reading;

	struct vgpu_link *hash[VGPU_HASH];

	uint64_t *pending;		/* ids to kick */
	unsigned int npending, cap;
	uint64_t wbuf[VGPU_KICK_MAX];
	unsigned int wlen, wdone;	/* ids in wbuf, ids written */
	bool writing;
	uint64_t kick_writes;

	struct gleam_vgpu_nl *nl;
	bool nl_events;
	bool nl_reading;
	unsigned char nlbuf[16384];
	struct sockaddr_nl nladdr;
	struct iovec nliov;
	struct msghdr nlmsg;

	struct vgpu_node_status node[GLEAM_VGPU_MAX];
};

/* vgpu.c */
/* Not serving (vgpu_status() says so) until started. */
void vgpu_init(struct vgpu *vg);
/*
 * Take the control node if there is one; without it, socket sessions
 * only.  Sessions are the role's, made through ops.
 */
void vgpu_start(struct vgpu *vg, const struct vgpu_ops *ops, void *role);
/* A completion of one of vg's operations (op->owner). */
void vgpu_complete(struct op *op, int res);
/* Before the loop sleeps: ring the applications queued since. */
void vgpu_flush(struct vgpu *vg);
void vgpu_ring(struct vgpu_link *l);
/* A client session now serves l->id. */
void vgpu_link_add(struct vgpu *vg, struct vgpu_link *l);
/*
 * The client session is gone: end the kernel session if the application
 * still holds it.  Clears l->id; a second call does nothing.
 */
void vgpu_unlink(struct vgpu_link *l);
/* Fills st and up to max nodes; returns the number of nodes. */
unsigned int vgpu_status(const struct vgpu *vg, struct vgpu_status *st,
			 struct vgpu_node_status *nodes, unsigned int max);

#endif /* GLEAM_BROKER_VGPU_H */
