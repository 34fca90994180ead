/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Gleam wire protocol between a client gleamd and a server gleamd, over
 * TCP.  One connection carries one session; a connection may also carry
 * only control traffic (GLEAM_HELLO_CONTROL).
 *
 * Every frame is a struct gleam_frame followed by len bytes of payload.
 * The first frame each way is a hello; nothing else is accepted before it.
 * A peer that sends a frame it may not send, or a length over the limit,
 * is disconnected with a GLEAM_FRAME_ERROR frame when possible.
 */
#ifndef _UAPI_GLEAM_WIRE_H
#define _UAPI_GLEAM_WIRE_H

#include <linux/types.h>

#define GLEAM_WIRE_MAGIC	0x4d41454c	/* "LEAM" */
#define GLEAM_WIRE_VERSION	1
#define GLEAM_WIRE_PORT		7381
#define GLEAM_FRAME_MAX		(8U << 20)	/* payload bytes */

struct gleam_frame {
	__u32 magic;		/* GLEAM_WIRE_MAGIC */
	__u16 type;		/* GLEAM_FRAME_* */
	__u16 flags;		/* none defined: must be zero */
	__u32 len;		/* payload bytes, <= GLEAM_FRAME_MAX */
	__u32 reserved;		/* must be zero */
};

enum {
	GLEAM_FRAME_HELLO	= 1,	/* struct gleam_hello */
	GLEAM_FRAME_HELLO_ACK	= 2,	/* struct gleam_hello_ack */
	GLEAM_FRAME_RECORDS	= 3,	/* whole struct gleam_rec, back to back */
	GLEAM_FRAME_REPLIES	= 4,	/* whole struct gleam_reply, back to back */
	GLEAM_FRAME_PING	= 5,	/* u64 cookie */
	GLEAM_FRAME_PONG	= 6,	/* the same u64 cookie */
	GLEAM_FRAME_INFO_REQ	= 7,	/* no payload */
	GLEAM_FRAME_INFO	= 8,	/* struct gleam_server_info + gpus */
	GLEAM_FRAME_ERROR	= 9,	/* struct gleam_wire_error */
	GLEAM_FRAME_BYE		= 10,	/* no payload: orderly end of session */
	/* 11..17: uploads by content, gleam_cache.h */
	GLEAM_FRAME_ACK		= 18,	/* struct gleam_wire_ack (GLEAM_WIRE_F_RESUME) */
	GLEAM_FRAME_STRIPE_UP	= 19,	/* struct gleam_stripe_up (GLEAM_WIRE_F_STRIPE) */
};

/*
 * With GLEAM_WIRE_F_RESUME each side numbers the messages it sends on a
 * session (records one way, replies the other, from 0) and keeps them until
 * the peer says, in an ACK, how many it has taken.  A session whose
 * connection drops is taken up again by a hello of kind GLEAM_HELLO_RESUME
 * on a new connection (Documentation/reliability.md).
 */
struct gleam_wire_ack {
	__u64 count;		/* messages taken, in order, since the session began */
};

/* Feature bits, negotiated: each side keeps what both announce. */
#define GLEAM_WIRE_F_ASYNC	(1ULL << 0)	/* records without replies */
/* GLEAM_WIRE_F_CACHE (1ULL << 1): uploads by content, gleam_cache.h */
#define GLEAM_WIRE_F_RESUME	(1ULL << 3)	/* sessions survive a dropped connection */
/*
 * The client carries the worker's messages of host functions and device
 * output (gleamHostFuncRun and gleamOutput replies, gleam_record.h) to
 * its programs; without it the worker sends none.
 */
#define GLEAM_WIRE_F_HOST	(1ULL << 6)
/*
 * Bit 1 is GLEAM_WIRE_F_CACHE, bit 5 GLEAM_WIRE_F_PROVE (gleam_cache.h),
 * bit 8 GLEAM_WIRE_F_PACK (gleam_pack.h).
 */
/*
 * A session may carry large messages on further connections, its stripes
 * (Documentation/protocol.md, "Stripes"): resumable sessions only.
 */
#define GLEAM_WIRE_F_STRIPE	(1ULL << 11)
/*
 * With GLEAM_WIRE_F_STRIPE, in a session over TLS: each stripe is a TLS
 * connection of its own, with its own handshake.  A session over TLS has
 * stripes only where both sides announce it.
 */
#define GLEAM_WIRE_F_STRIPE_TLS	(1ULL << 12)
#define GLEAM_WIRE_F_KNOWN	(GLEAM_WIRE_F_ASYNC | (1ULL << 1) | GLEAM_WIRE_F_RESUME | \
				 (1ULL << 5) | GLEAM_WIRE_F_HOST | (1ULL << 8) | GLEAM_WIRE_F_STRIPE | \
				 GLEAM_WIRE_F_STRIPE_TLS)
/*
 * A request, not a capability, and so not in GLEAM_WIRE_F_KNOWN: a SESSION
 * hello that has it names the one GPU the session runs on (gleam_hello.gpu);
 * the server's HELLO_ACK keeps it only when it honours the choice, and
 * refuses (EINVAL) a GPU it does not have, or the bit on any other hello.
 * A session taken up again keeps its GPU.
 */
#define GLEAM_WIRE_F_GPU	(1ULL << 4)
/*
 * Likewise a request: a SESSION hello that has it names several GPUs of
 * the server, in the order of the session's devices (gleam_hello.gpus);
 * the server refuses (EINVAL) a list with a GPU it lacks or one twice.
 */
#define GLEAM_WIRE_F_GPUS	(1ULL << 9)
/*
 * Likewise a request, beside GLEAM_WIRE_F_GPUS: the session's devices lie
 * on several servers, and the entries of gleam_hello.gpus that are
 * GLEAM_HELLO_GPU_ELSEWHERE stand for devices another server serves.
 * Records number devices as the program does; the worker renumbers them to
 * its backend's (this server's only), answers cuInit with an empty
 * gleam_devinfo for the others, and refuses any use of them
 * (CUDA_ERROR_INVALID_DEVICE); at least one entry must be this server's.
 */
#define GLEAM_WIRE_F_SPAN	(1ULL << 10)
#define GLEAM_HELLO_GPU_ELSEWHERE	0xff
/*
 * Control connections only, and so not in GLEAM_WIRE_F_KNOWN (what a
 * session may have): INFO ends with what is in use.
 */
#define GLEAM_WIRE_F_USAGE	(1ULL << 2)

enum {
	GLEAM_HELLO_SESSION	= 1,	/* the connection carries one session */
	GLEAM_HELLO_CONTROL	= 2,	/* information and control only */
	GLEAM_HELLO_RESUME	= 3,	/* a session taken up again (GLEAM_WIRE_F_RESUME) */
	GLEAM_HELLO_STRIPE	= 4,	/* a stripe of a session (GLEAM_WIRE_F_STRIPE) */
};

struct gleam_hello {
	__u32 version;		/* highest version the sender speaks */
	__u32 min_version;	/* lowest */
	__u64 features;		/* GLEAM_WIRE_F_* */
	__u32 kind;		/* GLEAM_HELLO_* */
	__u32 pid;		/* of the application, for display */
	__u32 uid;		/* likewise */
	/*
	 * With GLEAM_WIRE_F_GPU in features (SESSION hellos only): the index,
	 * in the server's INFO, of the one GPU the session's worker uses; it
	 * is the program's device 0.  Without it zero, and the session sees
	 * every GPU of the server.
	 */
	__u32 gpu;
	char client[64];	/* host name of the client, NUL-terminated */
	char program[64];	/* application name, NUL-terminated */
	__u64 resume_token;	/* RESUME, STRIPE: the session's token; else zero */
	/* RESUME: replies the client has taken; STRIPE: the stripe's index; else zero */
	__u64 resume_count;
	/*
	 * With GLEAM_WIRE_F_GPUS (SESSION hellos only): the server's GPUs the
	 * session sees, in the order of its devices 0 to gpu - 1 (gpu is then
	 * their number, 2 to GLEAM_HELLO_GPUS_MAX); without it zero.
	 */
	__u8 gpus[16];
};

#define GLEAM_HELLO_GPUS_MAX	16

struct gleam_hello_ack {
	__u32 version;		/* the version both will speak */
	__u32 status;		/* 0, or an errno value: the server refuses */
	__u64 features;		/* the intersection */
	__u64 session_id;	/* the server's number for this session */
	__u64 resume_token;	/* with GLEAM_WIRE_F_RESUME: what takes it up again */
	__u64 resume_count;	/* RESUME: records the server has taken; else zero */
	__u64 reserved[2];	/* must be zero */
};

struct gleam_gpu_info {
	char name[64];
	__u8 uuid[16];
	__u64 total_mem;
	__u64 free_mem;
	__u32 sessions;		/* sessions whose worker uses this GPU */
	__u32 reserved;
};

struct gleam_server_info {
	char backend[16];	/* "cuda" or "sim" */
	char host[64];
	__s32 driver_version;
	__u32 ngpus;		/* struct gleam_gpu_info follow, <= 64 */
	__u32 sessions;
	__u32 reserved;
	__u64 records;		/* replayed since start */
	__u64 bytes_in;
	__u64 bytes_out;
};

#define GLEAM_GPUS_MAX		64

/*
 * Where both sides of a control connection have GLEAM_WIRE_F_USAGE, INFO
 * goes on after the GPUs with struct gleam_server_usage and one struct
 * gleam_gpu_usage per GPU: what the server's live workers hold now, so
 * that a test can see the server come back to where it started.
 */
struct gleam_server_usage {
	__u32 sessions;		/* live sessions (those with a worker) */
	__u32 workers;		/* live replay worker processes */
	__u32 untracked;	/* workers since start that found no room in the
				 * accounting: while not 0, the sums may be short */
	__u32 reserved;		/* zero */
	__u64 reserved2[2];	/* zero */
};

#define GLEAM_USAGE_F_EXACT	(1U << 0)	/* mem_used counts allocations (sim) */
#define GLEAM_USAGE_F_UTIL	(1U << 1)	/* util_pct is measured */

struct gleam_gpu_usage {
	/*
	 * Device memory held by the live workers as the backend counts it:
	 * with GLEAM_USAGE_F_EXACT, the bytes they have allocated; without
	 * it, the driver's used memory on the device (total less free, which
	 * includes other processes), the highest a live worker saw lately.
	 * 0 when no live worker has used the GPU.
	 */
	__u64 mem_used;
	__u32 workers;		/* live workers that have used this GPU */
	__u32 flags;		/* GLEAM_USAGE_F_* */
	__u64 mem_total;	/* the device's memory, bytes */
	/*
	 * With GLEAM_USAGE_F_UTIL: the share of the last second in which the
	 * GPU was busy, 0-100 (NVML on a real GPU, the sim's own count).
	 */
	__u32 util_pct;
	/*
	 * The mean time, in microseconds over the last second, that records
	 * waited on this GPU's workers before their replay began: what a new
	 * session would queue behind.  0 when none waited.
	 */
	__u32 wait_us;
};

/*
 * Control connections only, and granted only with GLEAM_WIRE_F_USAGE: INFO
 * goes on after the usage with one struct gleam_gpu_nvml per GPU, what
 * NVIDIA's management library says of it (a client's libnvidia-ml.so.1
 * answers from it).  A server without NVML (the sim) sends them with no
 * flags set.
 */
#define GLEAM_WIRE_F_NVML	(1ULL << 7)

#define GLEAM_NVML_F_MEM	(1U << 0)	/* mem_total, mem_used, mem_free */
#define GLEAM_NVML_F_UTIL	(1U << 1)	/* util_gpu, util_mem */
#define GLEAM_NVML_F_TEMP	(1U << 2)	/* temp_c */
#define GLEAM_NVML_F_POWER	(1U << 3)	/* power_mw */
#define GLEAM_NVML_F_PLIMIT	(1U << 4)	/* power_limit_mw */
#define GLEAM_NVML_F_PCI	(1U << 5)	/* pci_* */
#define GLEAM_NVML_F_FAN	(1U << 6)	/* fan_pct */
#define GLEAM_NVML_F_PSTATE	(1U << 7)	/* pstate */
#define GLEAM_NVML_F_CLOCKS	(1U << 8)	/* clock_* */
#define GLEAM_NVML_F_PERSIST	(1U << 9)	/* persistence */
#define GLEAM_NVML_F_CMODE	(1U << 10)	/* compute_mode */
#define GLEAM_NVML_F_CC		(1U << 11)	/* cc_major, cc_minor */
#define GLEAM_NVML_F_DRIVER	(1U << 12)	/* driver_version */

struct gleam_gpu_nvml {
	__u32 flags;		/* GLEAM_NVML_F_*: the fields NVML answered */
	__u32 temp_c;
	__u64 mem_total;	/* bytes */
	__u64 mem_used;
	__u64 mem_free;
	__u32 power_mw;
	__u32 power_limit_mw;
	__u32 util_gpu;		/* percent */
	__u32 util_mem;
	__u32 fan_pct;
	__u32 pstate;		/* 0 (P0) .. 15 */
	__u32 clock_sm_mhz;
	__u32 clock_mem_mhz;
	__u32 clock_sm_max_mhz;
	__u32 clock_mem_max_mhz;
	__u32 pci_domain;
	__u32 pci_bus;
	__u32 pci_device;
	__u32 pci_device_id;	/* device << 16 | vendor */
	__u32 pci_subsystem_id;
	__u32 persistence;	/* 0 or 1 */
	__u32 compute_mode;	/* NVML's nvmlComputeMode_t */
	__u32 cc_major;
	__u32 cc_minor;
	__u32 reserved0;	/* zero */
	char driver_version[32];	/* "580.159", NUL-terminated */
	__u64 reserved[2];	/* zero */
};

struct gleam_wire_error {
	__s32 err;		/* negative errno */
	__u32 reserved;
	char msg[120];
};

_Static_assert(sizeof(struct gleam_gpu_nvml) == 160, "gleam_gpu_nvml");

/*
 * Stripes (GLEAM_WIRE_F_STRIPE).  A client gleamd opens further TCP
 * connections to the server for a session, each with a hello of kind
 * STRIPE naming the session's token and the stripe's index
 * (resume_count, below GLEAM_STRIPES_MAX); the server answers on the
 * session's connection with STRIPE_UP, and from then on either side may
 * send a large message on the stripe instead.  The session's connection
 * then carries, in the message's place in its frame, a note
 * (struct gleam_stripe_note, a message of 32 bytes) that names the stripe
 * and the message's length; the stripe carries the message's bytes alone,
 * messages in the order of their notes.  The receiver puts each message in
 * its ring in the order of the notes.  A stripe that fails drops the
 * session's connection with it: the session is taken up again as for any
 * drop, and its stripes are opened afresh.
 */
#define GLEAM_STRIPES_MAX	8
#define GLEAM_FN_STRIPED	0xffff	/* the fn of a note: no function's number */

struct gleam_stripe_note {
	__u32 len;		/* sizeof(struct gleam_stripe_note) */
	__u16 fn;		/* GLEAM_FN_STRIPED */
	__u16 flags;		/* zero */
	__u32 msg_len;		/* the message's length, as its header says */
	__u32 stripe;		/* the stripe that carries it */
	__u64 reserved[2];	/* zero */
};

struct gleam_stripe_up {
	__u32 stripe;		/* the stripe's index */
	__u32 reserved;		/* zero */
};

#endif /* _UAPI_GLEAM_WIRE_H */
