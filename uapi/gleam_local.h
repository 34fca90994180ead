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

#define GLEAM_LOCAL_MAGIC	0x434c4c47	/* "GLLC" */
#define GLEAM_LOCAL_VERSION	1

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
	__u64 reserved[2];	/* must be zero */
};

/* The application wants every call to wait for its reply. */
#define GLEAM_LOCAL_F_SYNC	(1U << 0)
#define GLEAM_LOCAL_F_KNOWN	(GLEAM_LOCAL_F_SYNC)

struct gleam_local_ack {
	__u32 magic;
	__s32 status;		/* 0 or -errno */
	__u64 region_size;	/* of the ring passed with this message */
	__u64 session_id;
	__u64 reserved[2];
};

#define GLEAM_BELL_SQ	0x51
#define GLEAM_BELL_CQ	0x43

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
};

struct gleam_ctl_req {
	__u32 op;		/* GLEAM_CTL_* */
	__u32 reserved0;
	char arg[120];		/* NUL-terminated */
};

#define GLEAM_CTL_REPLY_MAX	(256U << 10)

#endif /* _UAPI_GLEAM_LOCAL_H */
