/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The local socket of a client gleamd (AF_UNIX, SOCK_SEQPACKET): how an
 * application sets up its session ring without the kernel module, and how
 * gleamctl talks to gleamd.
 *
 * Session: the application sends struct gleam_local_hello; gleamd answers
 * struct gleam_local_ack with the ring's memfd (sealed against resizing) in
 * SCM_RIGHTS.  From then on each message on the socket is a doorbell: one
 * byte, GLEAM_BELL_SQ (application -> gleamd: records published or replies
 * consumed) or GLEAM_BELL_CQ (gleamd -> application: replies published or
 * records consumed).  Closing the socket ends the session.
 *
 * Control: struct gleam_local_hello with kind GLEAM_LOCAL_CONTROL, then
 * requests (struct gleam_ctl_req) answered by one message of text or JSON.
 */
#ifndef _UAPI_GLEAM_LOCAL_H
#define _UAPI_GLEAM_LOCAL_H

#include <linux/types.h>

#include "gleam_wire.h"

#define GLEAM_LOCAL_MAGIC	0x434c4c47	/* "GLLC" */
#define GLEAM_LOCAL_VERSION	2

enum {
	GLEAM_LOCAL_SESSION	= 1,
	GLEAM_LOCAL_CONTROL	= 2,
};

struct gleam_local_hello {
	__u32 magic;
	__u32 version;
	__u32 kind;		/* GLEAM_LOCAL_* */
	__u32 sq_shift;		/* 0: gleamd's default */
	__u32 cq_shift;
	__u32 flags;		/* GLEAM_LOCAL_F_* */
	char program[64];	/* NUL-terminated, for display */
	/*
	 * With GLEAM_LOCAL_F_VISIBLE: the program's CUDA_VISIBLE_DEVICES,
	 * NUL-terminated, which gleamd reads against the GPUs the session
	 * would see (Documentation/scheduler.md, "Which GPUs a program sees").
	 */
	char visible[256];
	__u64 reserved[2];	/* must be zero */
};

/* The application wants every call to wait for its reply. */
#define GLEAM_LOCAL_F_SYNC	(1U << 0)
/* The program has CUDA_VISIBLE_DEVICES set (empty too): see visible. */
#define GLEAM_LOCAL_F_VISIBLE	(1U << 1)
/*
 * The shim can route: it puts in each record's reserved word the index of
 * the connection (server) its device's records go to, as the ack's route
 * table says.  Without it gleamd serves no session whose GPUs lie on
 * several servers.
 */
#define GLEAM_LOCAL_F_ROUTE	(1U << 2)
#define GLEAM_LOCAL_F_KNOWN	(GLEAM_LOCAL_F_SYNC | GLEAM_LOCAL_F_VISIBLE | GLEAM_LOCAL_F_ROUTE)

struct gleam_local_ack {
	__u32 magic;
	__s32 status;		/* 0 or -errno */
	__u64 region_size;	/* of the ring passed with this message */
	__u64 session_id;
	/*
	 * With GLEAM_LOCAL_F_ROUTE in the hello: the connection of each of
	 * the session's devices, in device order (0: the first server); all
	 * zero when the session has one server.  Otherwise zero.
	 */
	__u8 route[16];
};

#define GLEAM_LOCAL_ROUTES_MAX	16

#define GLEAM_BELL_SQ	0x51
#define GLEAM_BELL_CQ	0x43

/*
 * gleamd -> application, once, in place of a bell or right after a
 * refusing struct gleam_local_ack: why the session cannot be served (no
 * server reachable, a pin refused), for the program to print; gleamd then
 * closes the socket.  Told apart from a bell by its size.
 */
#define GLEAM_LOCAL_WHY_MAGIC	0x59484c47	/* "GLHY" */

struct gleam_local_why {
	__u32 magic;		/* GLEAM_LOCAL_WHY_MAGIC */
	__s32 status;		/* -errno */
	char msg[248];		/* NUL-terminated: names the server and the reason */
};

/*
 * Requests; arg is empty unless said.  Changes are answered "ok" (with a
 * note after a colon when there is one) or "error: " and why.
 */
enum {
	GLEAM_CTL_STATUS	= 1,	/* text */
	GLEAM_CTL_STATUS_JSON	= 2,	/* JSON */
	/* The scheduler (Documentation/scheduler.md). */
	GLEAM_CTL_STATS		= 3,	/* links, GPUs, where sessions went: text */
	GLEAM_CTL_STATS_JSON	= 4,	/* the same, JSON */
	GLEAM_CTL_SERVERS	= 5,	/* the servers: text */
	GLEAM_CTL_SERVERS_JSON	= 6,	/* JSON */
	GLEAM_CTL_SERVER_ADD	= 7,	/* arg: HOST[:PORT] */
	GLEAM_CTL_SERVER_REMOVE	= 8,	/* arg: HOST[:PORT] */
	GLEAM_CTL_ASSIGN	= 9,	/* arg: "vgpuN|socket HOST[:PORT][:GPU]" */
	GLEAM_CTL_ASSIGN_CLEAR	= 10,	/* arg: "vgpuN|socket" */
	/*
	 * arg: "VIA PROGRAM" (VIA: socket or vgpuN): the GPUs a new session
	 * of PROGRAM would see now, for libnvidia-ml.so.1; binary: struct
	 * gleam_ctl_gpus, its GPUs, then its processes.
	 */
	GLEAM_CTL_GPUS		= 11,
};

struct gleam_ctl_req {
	__u32 op;		/* GLEAM_CTL_* */
	__u32 reserved0;
	char arg[120];		/* NUL-terminated */
};

#define GLEAM_CTL_REPLY_MAX	(256U << 10)

/* GLEAM_CTL_GPUS' answer: a header, ngpus GPUs, nprocs processes. */
struct gleam_ctl_gpus {
	__u32 magic;		/* GLEAM_LOCAL_MAGIC */
	__u32 ngpus;		/* struct gleam_ctl_gpu follow */
	__u32 nprocs;		/* then struct gleam_ctl_proc */
	__s32 driver_version;	/* CUDA's, as the server's driver says; 0: none */
	char why[128];		/* no GPU: why not (NUL-terminated) */
	__u64 reserved[2];
};

#define GLEAM_CTL_GPU_F_USAGE	(1U << 0)	/* usage holds what the server said */
#define GLEAM_CTL_GPU_F_NVML	(1U << 1)	/* nvml holds what its NVML said */

struct gleam_ctl_gpu {
	char server[128];	/* HOST[:PORT], as the client gleamd names it */
	char backend[16];	/* "cuda" or "sim" */
	__u32 index;		/* on its server */
	__u32 flags;		/* GLEAM_CTL_GPU_F_* */
	struct gleam_gpu_info info;
	struct gleam_gpu_usage usage;
	struct gleam_gpu_nvml nvml;
};

/* A program of this machine whose session is on one of the GPUs above. */
#define GLEAM_CTL_PROCS_MAX	256

struct gleam_ctl_proc {
	__u32 gpu;		/* index in this answer */
	__u32 pid;
	char program[64];
};

_Static_assert(sizeof(struct gleam_local_why) == 256, "gleam_local_why");
_Static_assert(sizeof(struct gleam_ctl_gpus) == 160, "gleam_ctl_gpus");
_Static_assert(sizeof(struct gleam_ctl_gpu) == 448, "gleam_ctl_gpu");
_Static_assert(sizeof(struct gleam_ctl_proc) == 72, "gleam_ctl_proc");

#endif /* _UAPI_GLEAM_LOCAL_H */
