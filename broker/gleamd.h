/* SPDX-License-Identifier: MIT */
/* gleamd, private header. */
#ifndef GLEAM_GLEAMD_H
#define GLEAM_GLEAMD_H

#include <liburing.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "gleam_local.h"
#include "gleam_record.h"
#include "gleam_wire.h"
#include "pack.h"
#include "ring.h"
#include "tls.h"

enum role { ROLE_CLIENT = 1, ROLE_SERVER = 2 };

/* Servers a client may name in its config file and options. */
#define GLEAM_CFG_SERVERS_MAX	16
/* Administrators a server may name. */
#define GLEAM_CFG_ADMINS_MAX	16

struct config {
	enum role role;
	char socket_path[108];		/* client: local socket */
	char server[256];		/* client: the first server, host[:port] */
	/* client: every server named (config file, --server), the first included */
	char servers[GLEAM_CFG_SERVERS_MAX][256];
	unsigned int nservers;
	char state_dir[256];		/* client: servers added at run time, pins */
	char placement[16];		/* client: auto, round-robin or random */
	char listen[256];		/* server: address[:port] */
	char backend[16];		/* server: cuda, sim or auto */
	char cuda_lib[256];		/* server: NVIDIA's libcuda.so.1 */
	unsigned int ring_shift;	/* session rings */
	bool ring_shift_set;		/* given, not the default */
	unsigned int flush_us;		/* batching timer */
	bool foreground;
	bool no_cache;			/* client: never name uploads; server: keep none */
	char cache_dir[256];		/* server: the chunk store's directory, or none */
	uint64_t cache_mem;		/* server: bytes of chunks kept in memory */
	uint64_t cache_disk;		/* server: bytes of chunks kept on disk */
	unsigned int keepalive_s;	/* a peer silent this long is gone; 0: never */
	unsigned int resume_s;		/* a dropped session waits this long; 0: never */
	/* Who may do what (Documentation/security.md). */
	struct gl_tls_files tls;	/* both: CA, own certificate and key; none: plain */
	bool insecure;			/* server: plain TCP beyond loopback; client: to it */
	char admins[GLEAM_CFG_ADMINS_MAX][GL_TLS_NAME_MAX];	/* server: identities */
	unsigned int nadmins;
	char admin_group[64];		/* client: group that may change placement */
	/* server: limits */
	unsigned int max_sessions;	/* sessions in all */
	unsigned int max_sessions_tenant;	/* sessions of one identity */
	uint64_t pin_max;		/* bytes one session may pin */
	uint64_t pin_mem;		/* bytes all sessions together may pin */
	uint64_t gpu_mem_session;	/* device memory one session may allocate; 0: no limit */
	uint64_t gpu_mem_tenant;	/* ... one identity's sessions together */
	char worker_user[64];		/* server run as root: the workers' user */
	bool cache_tenant;		/* server: a tenant sees only chunks it proved it has */
	char metrics[256];		/* HOST:PORT of the metrics endpoint; empty: none */
};

int config_load(struct config *c, const char *path);
void config_defaults(struct config *c, enum role role);
/* One setting by its config-file key; 0 or -EINVAL. */
int config_set(struct config *c, const char *key, const char *value);

/* One io_uring operation in flight; embedded in its owner. */
enum op_type {
	OP_ACCEPT = 1,
	OP_BELL_RECV,
	OP_BELL_SEND,
	OP_TCP_RECV,
	OP_TCP_SEND,
	OP_CONNECT,
	OP_TIMER,
	OP_CTL_RECV,
	OP_CTL_SEND,
	OP_CHILD,
	OP_VGPU,		/* broker/vgpu.c: the control node, netlink */
	OP_HASH,		/* client: names computed (broker/cache.c) */
	OP_KEEPALIVE,		/* client: the once-a-second check of its servers */
	OP_METRICS,		/* broker/metrics.c: the metrics endpoint */
	OP_STRIPE_CONNECT,	/* broker/stripe.c: a session's further connections */
	OP_STRIPE_SEND,
	OP_STRIPE_RECV,
};

struct op {
	enum op_type type;
	void *owner;
};

/* Counters of one session, shown by gleamctl. */
struct sess_stats {
	uint64_t records;
	uint64_t replies;
	uint64_t batches;
	uint64_t bytes_out;
	uint64_t bytes_in;
	uint64_t waits;		/* records that asked for a reply */
	uint64_t payload;	/* bytes the calls carry, without framing and headers */
	/*
	 * Uploads' host bytes that crossed as bytes (not as names): before
	 * packing, and as the wire carried them (packed or not).
	 */
	uint64_t pack_raw;
	uint64_t pack_wire;
	/*
	 * What the program's libcuda.so.1 counted (GLEAM_RING_STAT_*): calls
	 * that waited, and calls CUDA's rules make wait.  Reports only.
	 */
	uint64_t waits_made;
	uint64_t waits_required;
	/* Stripes (broker/stripe.c): the most up at once, and messages each way on them. */
	uint64_t stripes;
	uint64_t striped_out;
	uint64_t striped_in;
	/* The session ring's data areas: records' and replies'. */
	uint64_t ring_records;
	uint64_t ring_replies;
};

/* The counts the application's side of a session ring publishes, into st. */
void bridge_ring_stats(const struct gl_ring *r, struct sess_stats *st);

/*
 * A bridge joins a session ring to a TCP connection.  On the client the
 * application produces records on the SQ and gleamd sends them; on the
 * server gleamd produces them on the worker's SQ.  Replies run the other way.
 */
/* Each session s of a list, where s may be freed on the way (next holds the rest). */
#define sess_for_each_safe(s, next, head) \
	for ((s) = (head); (s) && ((next) = (s)->next, 1); (s) = (next))

struct bridge;
struct chunk_name;

/* Message bodies sent from the ring in one frame, at most. */
#define BRIDGE_INS_MAX		16

/* What a role does with what the bridge does not handle itself. */
struct bridge_ops {
	/* A complete control frame; false ends the connection. */
	bool (*on_frame)(struct bridge *b, uint16_t type, const void *p, uint32_t len);
	/* Client: an upload the server now holds (cache.c); may be NULL. */
	void (*on_held)(struct bridge *b, const struct chunk_name *name, uint32_t len);
};

struct bridge {
	const struct bridge_ops *ops;
	struct gl_ring ring;
	struct gl_ring_dir *out_dir;	/* ring -> wire */
	struct gl_ring_dir *in_dir;	/* wire -> ring */
	uint16_t out_type;		/* GLEAM_FRAME_RECORDS or _REPLIES */
	uint16_t in_type;
	int tcp;
	int bell;			/* local socket: doorbells */
	/* Rings the application instead of the bell socket (/dev/vgpuN). */
	void (*ring_app)(struct bridge *b);
	/*
	 * Client: the ring's records go to other bridges, not this one's
	 * connection (a session over several servers: client.c); NULL: here.
	 */
	void (*split)(struct bridge *b);
	unsigned char *obuf;
	size_t olen, osent, ocap;
	/*
	 * Plain TCP: the bodies of large messages go from the ring itself,
	 * not copied into obuf.  The frame sent is obuf[0, olen) with them
	 * inserted, each after obuf[0, at); osent counts the whole.
	 */
	struct bridge_ins {
		size_t at;
		const unsigned char *p;
		uint32_t n;
	} oins[BRIDGE_INS_MAX];
	uint32_t nins;
	size_t ins_bytes;		/* bytes inserted */
	struct iovec oiov[2 * BRIDGE_INS_MAX + 1];
	struct msghdr omsg;
	/* Kept messages whose bodies lie in the ring, in order: its room waits for them. */
	struct kept *rk_head, **rk_tail;
	uint32_t out_consumed;		/* ring bytes in obuf, released on send */
	bool sending;
	unsigned char *ibuf;
	size_t ioff, ilen, icap;	/* ibuf[ioff, ilen): read, not yet parsed */
	uint32_t frame_left;		/* payload bytes of the current frame */
	/*
	 * A large message read from the socket straight into its place in
	 * the ring (plain TCP only): where, how long, how much has come, and
	 * the ring's producer position before it was reserved (a connection
	 * lost meanwhile gives the room back).
	 */
	unsigned char *direct;
	uint32_t direct_len, direct_have, direct_pos;
	/*
	 * The last large message could be read in place: reads into ibuf
	 * take DIRECT_MIN bytes at most, so that little of the next one is
	 * read there and copied (bridge.c, post_tcp_recv()).
	 */
	bool in_direct_seen;
	bool populated;			/* the ring's pages mapped at once (gl_ring_populate()) */
	bool recving;
	bool in_blocked;		/* ring full: wait for a bell */
	bool bell_recving;
	bool bell_sending;
	bool bell_pending;
	bool hello_done;
	bool closing;
	bool client;			/* our out ring is the application's SQ */
	bool polling;			/* looked at on the flush timer */
	uint64_t last_active;		/* ns: when records last arrived */
	int inflight;
	char bellbuf[512];	/* bells, or the local hello and control requests */
	char bellout;
	struct op op_bell_recv, op_bell_send, op_tcp_recv, op_tcp_send, op_connect;
	struct sess_stats st;
	/*
	 * Resume (GLEAM_WIRE_F_RESUME): messages sent are kept, in order,
	 * until the peer acknowledges them; a dropped connection detaches the
	 * bridge, which keeps its ring and its state until a new connection
	 * takes the session up again.
	 */
	bool resumable;
	/*
	 * Client: a session the server has not yet answered, which a failed
	 * or dropped connection sends back to connecting afresh (nothing of
	 * it was replayed: records wait for the answer).
	 */
	bool restartable;
	bool detached;
	bool bye;			/* closing: what is queued (a BYE, a refusal) goes out first */
	bool bye_owed;			/* the BYE waits for room in the buffer */
	bool lingering;			/* BYE out: reading until the peer closes */
	bool linger_cancel;		/* the read before it is being cancelled */
	uint64_t linger_until;		/* ns: the reading ends then at the latest */
	uint64_t detached_at;		/* ns: the drop that began the grace period; 0: none */
	uint64_t token;			/* what takes the session up again */
	uint64_t out_count;		/* messages sent since the session began */
	uint64_t in_count;		/* messages taken from the peer */
	uint64_t acked_in;		/* in_count last told the peer */
	uint64_t ack_bytes;		/* taken since then */
	struct kept *kept, **kept_tail;	/* sent, not yet acknowledged */
	struct kept *resend;		/* the next of them to send again */
	uint64_t kept_first;		/* the index of the first kept */
	uint64_t kept_bytes;		/* copies, and whole buffers kept messages point into */
	struct fbuf *ofb;		/* obuf, while kept messages point into it */
	unsigned char *spare[4];	/* output buffers no kept message points into any more */
	uint32_t nspare;
	uint64_t last_rx;		/* ns: when the peer last sent anything */
	uint64_t ping_at;		/* ns: when we last asked it for a sign of life */
	struct ccache *cc;		/* client: uploads by content, once granted */
	struct scache *sc;		/* server: the session's pinned chunks */
	/* GLEAM_WIRE_F_PACK: the client packs uploads, the server unpacks them. */
	struct packer *pk;
	/* Client: the link's measured rate, packing or not; the server's, shared, or its own. */
	struct pack_link link, *linkp;
	uint64_t tx_since;		/* bytes sent since the link was last measured */
	uint64_t tx_acked, tx_busy_us;	/* TCP_INFO, at the last sample */
	uint64_t tx_named;		/* the cache's uploads named, at the last sample */
	bool tx_based;			/* those are set */
	/* Client: where the link's totals are counted too (gleamctl stats), or NULL. */
	uint64_t *link_pack;		/* [0] raw, [1] on the wire */
	struct gl_tls *tls;		/* TLS on tcp (common/tls.h); NULL: plain */
	const char *peer;		/* server: the peer's address, for peer_log(); or NULL */
	bool tls_refused;		/* its handshake or first record failed: why in tls */
	struct stripes *sp;		/* GLEAM_WIRE_F_STRIPE agreed: broker/stripe.c; or NULL */
	/*
	 * in_dir is other bridges' too (the parts of a session over several
	 * servers all put replies in its head's ring): a message goes in
	 * whole at once, never reserved and filled over several reads (read
	 * straight into the ring, or from a stripe), since another bridge's
	 * commit would publish it half written.
	 */
	bool in_shared;
};

/*
 * An output buffer that kept messages point into: it is not written again
 * until the last of them is acknowledged.
 */
struct fbuf {
	unsigned char *p;
	uint32_t refs;
};

/*
 * A message sent and not yet acknowledged: a copy (msg), or, for a large
 * one, where it lies in the output buffer it was sent from (fb, ref).
 */
struct kept {
	struct kept *next;
	uint32_t len;
	struct fbuf *fb;
	const unsigned char *ref;
	/*
	 * Or its first hlen bytes at ref (msg) and the rest in the ring at
	 * body, from ring position ring_pos on: the ring keeps that room
	 * until the message is acknowledged.  Else hlen is len, body NULL.
	 */
	uint32_t hlen;
	uint32_t ring_pos;
	const unsigned char *body;
	struct kept *rnext;		/* the next kept in the ring */
	unsigned char msg[] __attribute__((aligned(8)));
};

/* Sent but unacknowledged messages kept per session, at most. */
#define BRIDGE_KEPT_MAX		(256ULL << 20)

struct loop {
	struct io_uring ring;
	bool stop;
	volatile sig_atomic_t quit;	/* SIGTERM or SIGINT: say goodbye, then stop */
	uint64_t quit_until;		/* ns: stop then, whatever is left */
	/*
	 * While sessions are busy the loop looks at its rings and completions
	 * without sleeping for up to spin_ns after the last activity, so that
	 * a round trip does not pay for waking gleamd; rings then ask for no
	 * doorbells.  0 where there are no cores to spare.
	 */
	uint64_t spin_ns;
	uint64_t busy_until;
	bool spinning;
	uint64_t spin_rounds, sleeps;
};

extern struct loop g_loop;

struct io_uring_sqe *loop_sqe(void);
/* GLEAM_LOOP_SPIN_US, or a default from the number of cores. */
void loop_init_spin(void);
/*
 * SIGTERM and SIGINT ask the loop to stop: the role says goodbye to every
 * session, then stops (a second signal ends it at once).  A child forked
 * afterwards calls loop_child_signals() to die of them again.
 */
void loop_catch_signals(void);
void loop_child_signals(void);
/*
 * While stopping: true once the role's sessions are gone or the time given
 * to them is over; the caller closes every session before asking.
 */
bool loop_quit_done(bool sessions_left);
/* Something happened on a session: keep looking for a while. */
void loop_note_busy(void);
/* A timeout of ts that completes op, unless *armed (then set; NULL: always). */
void loop_timer(struct __kernel_timespec *ts, struct op *op, bool *armed);
/*
 * Wait for completions: spin while busy, calling poll_all(role) to move
 * what the rings hold (it must kick every live bridge), then sleep.
 */
void loop_wait(void (*poll_all)(void *role), void *role);
void bridge_init(struct bridge *b, bool client, void *owner, const struct bridge_ops *ops);
/*
 * TLS on the connected b->tcp: the handshake runs on the bridge's own
 * reads and sends, and what the bridge sends afterwards is sealed, what it
 * reads opened.  host: the name the server's certificate must carry (a
 * client's).  0 or -errno.
 */
struct ssl_ctx_st;
int bridge_tls_start(struct bridge *b, struct ssl_ctx_st *ctx, bool server, const char *host);
/* The peer's identity, once TLS is up; NULL on a plain connection. */
const char *bridge_peer_identity(const struct bridge *b);
/* Why TLS failed on the connection (tls_refused), or "". */
const char *bridge_tls_why(const struct bridge *b);
/* Close the connection's socket, and end its TLS. */
void bridge_drop_tcp(struct bridge *b);
void bridge_kick(struct bridge *b);
/* On the flush timer: send what arrived unrung; stop polling when idle. */
void bridge_tick(struct bridge *b, uint64_t now);
/* How long a session is polled after its last record. */
#define BRIDGE_POLL_WINDOW_NS	(20 * 1000 * 1000ull)
/* Process a completion; returns false when the bridge should close. */
bool bridge_complete(struct bridge *b, struct op *op, int res);
void bridge_close(struct bridge *b);
/* Close once the answer queued (a refused hello's) is out. */
void bridge_refuse(struct bridge *b);
/*
 * Once a second: a peer silent for a second is pinged; one silent for
 * dead_s is taken for gone and the bridge closed (false).
 */
bool bridge_keepalive(struct bridge *b, uint64_t now, unsigned int dead_s);
/* Keep a copy of a message just sent (resumable sessions). */
bool bridge_keep(struct bridge *b, const void *msg, uint32_t len);
/*
 * Keep a message in the output buffer, as it goes on the wire and never
 * written again: a large one by where it lies, a small one by a copy.
 */
bool bridge_keep_out(struct bridge *b, const void *msg, uint32_t len);
/*
 * Before a frame is written from the start of the output buffer: a buffer
 * kept messages point into is set aside for another; false: no memory.
 */
bool bridge_out_fresh(struct bridge *b);
/* The connection is gone; the session waits for another (resumable only). */
void bridge_detach(struct bridge *b);
/*
 * A new connection takes the session up: fd, and how many of our messages
 * the peer has taken; false when that number is impossible.
 */
bool bridge_reattach(struct bridge *b, int fd, uint64_t peer_took);
/* Drop every kept message (the session ends). */
void bridge_forget(struct bridge *b);
/*
 * The out ring's room goes back to its producer up to the first message
 * still kept in the ring, or all of what was taken.
 */
void bridge_ring_release(struct bridge *b);
void bridge_queue_frame(struct bridge *b, uint16_t type, const void *p, uint32_t len);
/* A message's header as the bridge checks it (records: from the ring or the wire). */
bool bridge_header_ok(struct bridge *b, const void *p, uint32_t len, bool record);
/*
 * Packing (GLEAM_WIRE_F_PACK): pack_region() packs n bytes at data in
 * place when that sends them sooner, and returns the region's new length
 * (n when they stay as they are); bridge_pack_rec() does it for an upload
 * record's host bytes, returning the record's new length.  On the server,
 * bridge_unpacked_len() checks a PACKED record (0: malformed) and
 * bridge_unpack_rec() writes it whole into dst.
 */
uint32_t bridge_pack_region(struct bridge *b, unsigned char *data, uint32_t n);
uint32_t bridge_pack_rec(struct bridge *b, unsigned char *rec, uint32_t len);
uint32_t bridge_unpacked_len(struct bridge *b, const void *rec, uint32_t len);
bool bridge_unpack_rec(struct bridge *b, const void *rec, uint32_t len, void *dst);
int bridge_pack_start(struct bridge *b);
void bridge_pack_stop(struct bridge *b);
void bridge_ring_bell(struct bridge *b);
/* Send what the output buffer holds (b->olen bytes, complete frames). */
void bridge_send_out(struct bridge *b);
/* The connection failed: a resumable session waits for another; false: it ends. */
bool bridge_lost(struct bridge *b, const char *why);
/* Publish what the peer sent as far as it is whole; false: the peer broke the protocol. */
bool bridge_in_done(struct bridge *b);

/*
 * Stripes (GLEAM_WIRE_F_STRIPE, broker/stripe.c): further connections of a
 * session that carry its large messages, so that the kernel's copies run
 * on several cores.  The client opens them once the session is up (and
 * again when it is taken up), the server attaches each to the session its
 * hello names.
 */
struct sockaddr;
/* How many a client opens per session: GLEAM_STRIPES, or from the cores. */
unsigned int stripes_wanted(void);
/* The session's stripe state, made once the feature is agreed; 0 or -ENOMEM. */
int stripes_init(struct bridge *b, unsigned int n);
/*
 * Client: open the stripes not open, to addr; in a session over TLS (tls
 * not NULL), each with a handshake of its own, the server's certificate
 * naming host.
 */
void stripes_open(struct bridge *b, const struct sockaddr *addr, unsigned int addrlen,
		  struct ssl_ctx_st *tls, const char *host);
/*
 * Server: fd is stripe i of the session (tls: its TLS, handshake over,
 * taken over by the stripe): 0, or -errno (the session cannot take it).
 */
int stripes_attach(struct bridge *b, unsigned int i, int fd, struct gl_tls *tls);
/* Client: the server took stripe i (STRIPE_UP); false: no such stripe waits. */
bool stripes_up(struct bridge *b, const void *p, uint32_t len);
/* The stripe to carry a message now (the fewest bytes waiting), or -1. */
int stripes_pick(struct bridge *b);
/* Send the message at p (len bytes, in the out ring) on stripe i. */
void stripes_queue(struct bridge *b, int i, const unsigned char *p, uint32_t len);
/*
 * A note: 0 when it may be taken now, -EAGAIN when too many striped
 * messages are still coming (wait), -EINVAL when it is malformed.
 */
int stripes_note_check(struct bridge *b, const struct gleam_stripe_note *n);
/* The note's room (len bytes at dst, reserved from ring position start) is read from its stripe. */
void stripes_slot_add(struct bridge *b, void *dst, uint32_t len, uint32_t start, unsigned int stripe);
/* The ring position of the first striped message still coming (stripes_pending()). */
uint32_t stripes_first_pos(const struct bridge *b);
/* What a stripe could not ask of io_uring before (no room then) is asked now. */
void stripes_kick(struct bridge *b);
/* Messages put in the ring while a striped one before them is still coming. */
bool stripes_pending(const struct bridge *b);
void stripes_count_after(struct bridge *b);
/* The connection dropped: stripes close, what was read of them goes back. */
void stripes_detach(struct bridge *b);
/* No stripe operation is in flight (a session may be taken up again). */
bool stripes_idle(const struct bridge *b);
/* The session ends: close its stripes; stripes_free() once nothing is in flight. */
void stripes_close(struct bridge *b);
void stripes_free(struct bridge *b);
bool stripes_complete(struct bridge *b, struct op *op, int res);
/* Messages that went on stripes, and their bytes, for gleamctl stats. */
unsigned int stripes_open_count(const struct bridge *b);

/* The roles: each makes its state (client.c, server.c) and runs the loop. */
int client_main(struct config *c);
int server_main(struct config *c);

/*
 * Replay worker (its own process): the features its session may use, the
 * device memory it may allocate, and its tenant's workers together (0: no
 * limit).
 */
int worker_main(int ring_fd, int bell_fd, const char *backend, const char *cuda_lib,
		uint64_t features, uint64_t mem_session, uint64_t mem_tenant);
/* Probe the GPUs in a child process: fills info and gpus; 0 or -errno. */
int server_probe(const char *backend, const char *cuda_lib, struct gleam_server_info *info,
		 struct gleam_gpu_info *gpus, struct gleam_cluster_table *clusters, bool *have_clusters);

#endif /* GLEAM_GLEAMD_H */
