// SPDX-License-Identifier: MIT
/*
 * gleamd, server role: accepts client gleamds over TCP, checks their
 * hello, and gives each session a replay worker process of its own with a
 * session ring between them, so that tenants never share an address space
 * on the GPU machine and a crashing worker ends only its own session.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache.h"
#include "gleamd.h"
#include "pack.h"
#include "metrics.h"
#include "notify.h"
#include "nvml.h"
#include "peerlog.h"
#include "tenant.h"
#include "tls.h"
#include "util.h"
#include "worker.h"
#include "wk_spawn.h"

/* Connections not yet past their hello, at most; the next are closed at once. */
#define PENDING_MAX		128
/* A connection gets this long for its handshake and hello. */
#define HELLO_NS		(10 * 1000000000ull)
/* Control connections of one tenant, at most. */
#define CONTROLS_MAX		128

struct ssess {
	struct bridge b;
	struct server_role *sr;
	struct ssess *next;
	uint64_t id;
	pid_t worker;
	bool control;
	bool usage;		/* control: INFO ends with what is in use */
	bool nvml;		/* ... and what NVML says of each GPU */
	int gpu;		/* the one GPU of its worker (GLEAM_WIRE_F_GPU), or -1 */
	/* GLEAM_WIRE_F_GPUS: its GPUs, in the order of its devices; 0: one or all */
	uint8_t gpus[GLEAM_HELLO_GPUS_MAX];
	unsigned int ngpus;
	bool span;		/* some of gpus are other servers' (GLEAM_WIRE_F_SPAN) */
	uint64_t features;	/* what its hello and ours agreed, for its worker */
	int slot;		/* its worker's in the usage table, or -1 */
	uint32_t stamped;	/* the worker's ring position last stamped */
	bool refused;		/* its hello was answered with a refusal */
	bool pending;		/* counted in the role's pending: no hello yet */
	bool admin;		/* its identity may read and change the server's state */
	bool ctl_counted;	/* a control connection counted on its tenant */
	uint64_t accepted;	/* ns: when its connection came */
	struct tenant *tenant;	/* whose it is, once its hello came */
	char peer[64];		/* the address its connection comes from */
	char client[64];	/* what the peer said, escaped */
	char program[64];
};

/*
 * The server role: made by server_main() and passed to what needs it; a
 * session reaches it through its sr.
 */
struct server_role {
	struct config *cfg;
	int listen_fd;
	struct op op_accept, op_timer;
	struct __kernel_timespec tick;
	struct ssess *sessions;
	uint64_t next_id;
	unsigned int nsessions;
	struct gleam_server_info info;
	struct gleam_gpu_info gpus[GLEAM_GPUS_MAX];
	const char *backend;
	pid_t sampler;		/* NVML's (nvml.c), or 0 */
	struct ssl_ctx_st *tls;	/* NULL: plain TCP (loopback, or --insecure) */
	unsigned int pending;	/* connections without a hello yet */
	bool said_stopping;	/* STOPPING=1 told to systemd */
	/* What the GPUs' clusters allow, as probed: each new worker is told. */
	struct gleam_cluster_table clusters[GLEAM_GPUS_MAX];
	bool have_clusters[GLEAM_GPUS_MAX];
	/* Scratch: a new worker's setup, and an INFO frame, built here. */
	struct wk_setup setup;
	unsigned char info_buf[sizeof(struct gleam_server_info) +
			       GLEAM_GPUS_MAX * sizeof(struct gleam_gpu_info) +
			       sizeof(struct gleam_server_usage) +
			       GLEAM_GPUS_MAX * sizeof(struct gleam_gpu_usage) +
			       GLEAM_GPUS_MAX * sizeof(struct gleam_gpu_nvml)];
};

static void post_accept(struct server_role *sr)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_accept(sqe, sr->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	io_uring_sqe_set_data(sqe, &sr->op_accept);
}

static void post_timer(struct server_role *sr)
{
	loop_timer(&sr->tick, &sr->op_timer, NULL);
}

/* A session's counters as a link's: the records it took, the replies it sent. */
static struct sess_stats link_st(const struct ssess *s)
{
	struct sess_stats st = s->b.st;

	st.records = s->b.in_count;
	return st;
}

static void sess_maybe_free(struct ssess *s)
{
	struct server_role *sr = s->sr;
	struct ssess **pp;

	if (!s->b.closing || s->b.inflight)
		return;
	for (pp = &sr->sessions; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	if (s->b.tls_refused)
		peer_log(s->peer, "TLS refused: %s", bridge_tls_why(&s->b));
	if (s->pending)
		sr->pending--;
	if (s->tenant && s->worker)
		s->tenant->sessions--;
	if (s->ctl_counted)
		s->tenant->controls--;
	bridge_drop_tcp(&s->b);
	/* Closing the bell tells the worker to clean up and exit. */
	if (s->b.bell >= 0)
		close(s->b.bell);
	gl_ring_unmap(&s->b.ring);
	free(s->b.obuf);
	free(s->b.ibuf);
	bridge_forget(&s->b);
	scache_free(s->b.sc);
	bridge_pack_stop(&s->b);
	if (s->worker) {
		struct sess_stats st = link_st(s);

		metrics_session_done(s->client, &st);
		sr->nsessions--;
		gl_info("session %llu from %s (%s) ended: %llu records taken",
			(unsigned long long)s->id, s->client, s->program,
			(unsigned long long)s->b.in_count);
	}
	free(s);
}

static void send_error(struct bridge *b, int err, const char *msg)
{
	struct gleam_wire_error e = { .err = -err };

	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	bridge_queue_frame(b, GLEAM_FRAME_ERROR, &e, sizeof(e));
}

/*
 * What a new worker is told first (struct wk_setup): what it used to
 * inherit of the daemon, and now only gets this way.
 */
static void worker_setup(const struct ssess *s, struct wk_setup *st)
{
	const struct server_role *sr = s->sr;
	memset(st, 0, sizeof(*st));
	st->magic = WK_SETUP_MAGIC;
	st->log_level = (uint32_t)gl_log_level;
	snprintf(st->backend, sizeof(st->backend), "%s", sr->backend);
	snprintf(st->cuda_lib, sizeof(st->cuda_lib), "%s", sr->cfg->cuda_lib);
	st->slot = s->slot;
	st->gpu = s->gpu;
	memcpy(st->gpus, s->gpus, sizeof(st->gpus));
	st->ngpus = s->ngpus;
	st->tenant = s->tenant->idx;
	st->mem_session = sr->cfg->gpu_mem_session;
	st->mem_tenant = sr->cfg->gpu_mem_tenant;
	st->features = s->features;
	for (unsigned int i = 0; i < GLEAM_GPUS_MAX; i++)
		st->have_clusters[i] = sr->have_clusters[i];
	memcpy(st->clusters, sr->clusters, sizeof(st->clusters));
}

/*
 * The session's replay worker, started from a fresh image with its ring
 * and doorbell (wk_spawn.c).  Where it names one GPU, only that GPU is
 * there for it to see: NVIDIA's driver reads CUDA_VISIBLE_DEVICES once, at
 * cuInit, and a UUID names the GPU whatever the order the driver
 * enumerates in, or the server's own CUDA_VISIBLE_DEVICES; the sim asks
 * wk_server_gpu().
 */
static int spawn_worker(struct ssess *s)
{
	struct server_role *sr = s->sr;
	struct wk_exec x;
	char visible[GLEAM_HELLO_GPUS_MAX * 48] = "";
	int sv_pair[2], fd, err;
	pid_t pid;

	/* Its GPUs by UUID, in the order of its devices: the driver keeps that order. */
	if (s->gpu >= 0)
		gl_uuid_str(sr->gpus[s->gpu].uuid, visible, sizeof(visible));
	for (unsigned int i = 0; i < s->ngpus; i++) {
		size_t n = strlen(visible);

		if (s->gpus[i] == GLEAM_HELLO_GPU_ELSEWHERE)
			continue;
		if (n)
			visible[n++] = ',';
		gl_uuid_str(sr->gpus[s->gpus[i]].uuid, visible + n, sizeof(visible) - n);
	}
	err = wk_exec_prepare(&x, visible[0] ? visible : NULL);
	if (err)
		return err;
	fd = gl_ring_memfd(sr->cfg->ring_shift, sr->cfg->ring_shift);
	if (fd < 0) {
		wk_exec_free(&x);
		return fd;
	}
	err = gl_ring_map(fd, &s->b.ring);
	if (!err && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv_pair) < 0)
		err = -errno;
	if (err) {
		wk_exec_free(&x);
		close(fd);
		return err;
	}
	s->slot = wk_usage_take(s->tenant->idx);
	pid = fork();
	if (pid == 0)
		wk_exec_child(&x, fd, sv_pair[1], wk_usage_fd());
	err = pid < 0 ? -errno : 0;
	wk_exec_free(&x);
	close(fd);
	close(sv_pair[1]);
	if (err) {
		wk_usage_bind(s->slot, 0);
		s->slot = -1;
		close(sv_pair[0]);
		return err;
	}
	wk_usage_bind(s->slot, pid);
	s->b.bell = sv_pair[0];
	s->worker = pid;
	s->stamped = s->b.ring.sq.pos;
	worker_setup(s, &sr->setup);
	/* A fresh socket takes it whole; a worker that died at once is reaped as any. */
	if (wk_send_setup(s->b.bell, &sr->setup))
		gl_err("worker %d: cannot hand it its setup", (int)pid);
	return 0;
}

/*
 * Records the server has just put on a session's ring start waiting for
 * its worker now: one stamp per batch, for wait_us (worker.c).
 */
static void note_records(struct ssess *s)
{
	if (s->control || !s->worker || !s->b.ring.base || s->b.ring.sq.pos == s->stamped)
		return;
	s->stamped = s->b.ring.sq.pos;
	wk_usage_stamp(s->slot, s->worker, s->stamped, gl_now_ns());
}

/* What takes a session up again: unguessable, never 0. */
static uint64_t new_token(void)
{
	uint64_t t = 0;

	while (!t)
		if (getrandom(&t, sizeof(t), 0) != sizeof(t))
			t = gl_now_ns() * 0x9e3779b97f4a7c15ull;
	return t;
}

/*
 * A hello refused: the answer must reach the peer, which would take a
 * connection closed before it for a link that failed and try again; the
 * connection closes behind the answer (bridge_refuse()), and anything
 * more from the peer ends it.
 */
static bool refuse(struct ssess *s, struct gleam_hello_ack *ack, int err)
{
	ack->status = (uint32_t)err;
	bridge_queue_frame(&s->b, GLEAM_FRAME_HELLO_ACK, ack, sizeof(*ack));
	s->refused = true;
	bridge_refuse(&s->b);
	return true;
}

/*
 * The live session a RESUME's token names, or NULL.  Only the token counts,
 * not where the connection comes from: a client whose machine changed
 * networks comes back from another address.  Every session is compared,
 * each in constant time, so that how long a wrong guess takes says nothing
 * of any token.
 */
static struct ssess *find_by_token(const struct ssess *n, uint64_t token)
{
	const struct server_role *sr = n->sr;
	struct ssess *s, *found = NULL;

	for (s = sr->sessions; s; s = s->next) {
		bool eq = gl_secret_eq(&s->b.token, &token, sizeof(token));

		/* Only its own identity takes a session up: a token alone is not enough. */
		if (eq && s != n && s->b.resumable && !s->b.closing && s->b.token &&
		    s->tenant == n->tenant)
			found = s;
	}
	return found;
}

/*
 * Whether a session's connection still stands: a RESUME never takes a
 * connection that is alive from its session.  One the peer closed or
 * reset is not; one that merely went quiet is, until the keepalive says
 * otherwise.
 */
static bool conn_alive(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return false;
	return ti.tcpi_state == TCP_ESTABLISHED;
}

/*
 * A new connection n takes up the detached session its token names: the
 * session adopts the connection, says how many records it has taken, and
 * sends again the replies the client had not; n itself ends.
 */
static bool resume(struct ssess *n, const struct gleam_hello *h)
{
	struct gleam_hello_ack ack = { .version = GLEAM_WIRE_VERSION };
	struct ssess *s;
	int fd = n->b.tcp;
	uint64_t away;

	/* n only carries the connection: it is no session of its own. */
	n->control = true;
	s = find_by_token(n, h->resume_token);
	if (!s) {
		peer_log(n->peer, "%s (%s) asked to take up a session that is not waiting",
			 n->client, n->tenant->name);
		return refuse(n, &ack, ENOENT);
	}
	/*
	 * A session whose connection still stands is not taken from it: the
	 * client tries again, and by then the connection has dropped for
	 * good (a close, a reset, or the keepalive's silence) or it was no
	 * client of this session that asked.  Nor is one taken while
	 * this connection's own handshake is still being sent.
	 */
	if ((!s->b.detached && conn_alive(s->b.tcp)) || n->b.sending)
		return refuse(n, &ack, EAGAIN);
	/* Nor while a stripe of the dropped connection still reads into its ring. */
	if (!stripes_idle(&s->b))
		return refuse(n, &ack, EAGAIN);
	if (!s->b.detached)
		bridge_detach(&s->b);
	/* The session's connection, if not yet closed, goes: this one replaces it. */
	if (s->b.tcp >= 0) {
		if (s->b.recving || s->b.sending)
			return refuse(n, &ack, EAGAIN);
		bridge_drop_tcp(&s->b);
	}
	away = s->b.detached_at ? gl_now_ns() - s->b.detached_at : 0;
	if (!bridge_reattach(&s->b, fd, h->resume_count)) {
		gl_err("session %llu: the client took replies never sent", (unsigned long long)s->id);
		return refuse(n, &ack, EINVAL);
	}
	n->b.tcp = -1;
	/* The connection's TLS goes with it. */
	s->b.tls = n->b.tls;
	n->b.tls = NULL;
	ack.features = GLEAM_WIRE_F_ASYNC | GLEAM_WIRE_F_RESUME |
		       (s->b.sc ? GLEAM_WIRE_F_CACHE : 0) | (s->gpu >= 0 ? GLEAM_WIRE_F_GPU : 0) |
		       (s->ngpus ? GLEAM_WIRE_F_GPUS : 0) | (s->span ? GLEAM_WIRE_F_SPAN : 0);
	if (s->b.sp)
		ack.features |= GLEAM_WIRE_F_STRIPE;
	ack.session_id = s->id;
	ack.resume_token = s->b.token;
	ack.resume_count = s->b.in_count;
	gl_info("session %llu from %s (%s) taken up again from %s after %.1f s",
		(unsigned long long)s->id, s->client, s->program, n->peer, (double)away / 1e9);
	memcpy(s->peer, n->peer, sizeof(s->peer));
	bridge_queue_frame(&s->b, GLEAM_FRAME_HELLO_ACK, &ack, sizeof(ack));
	bridge_kick(&s->b);
	note_records(s);
	return false;
}

/*
 * A further connection of a session (GLEAM_HELLO_STRIPE): the session its
 * token names takes it as the stripe it says; n itself ends.  A refusal
 * leaves the session as it was: the client does without that stripe.
 */
static bool stripe_hello(struct ssess *n, const struct gleam_hello *h)
{
	struct gleam_hello_ack ack = { .version = GLEAM_WIRE_VERSION };
	struct ssess *s;
	int err;

	n->control = true;
	s = find_by_token(n, h->resume_token);
	if (!s || n->b.sending || h->resume_count >= GLEAM_STRIPES_MAX) {
		peer_log(n->peer, "%s (%s) offered a stripe of a session that is not here",
			 n->client, n->tenant->name);
		return refuse(n, &ack, ENOENT);
	}
	err = stripes_attach(&s->b, (unsigned int)h->resume_count, n->b.tcp, n->b.tls);
	if (err)
		return refuse(n, &ack, -err);
	n->b.tcp = -1;
	n->b.tls = NULL;
	gl_dbg("session %llu: stripe %u from %s", (unsigned long long)s->id,
	       (unsigned int)h->resume_count, n->peer);
	bridge_kick(&s->b);
	return false;
}

/* Whether GPU i is one of the session's: named, listed, or all of them. */
static bool session_sees(const struct ssess *s, unsigned int i)
{
	if (s->ngpus)
		return memchr(s->gpus, (int)i, s->ngpus) != NULL;
	return s->gpu < 0 || (unsigned int)s->gpu == i;
}

/*
 * Sessions per GPU, for INFO: one that named its GPU counts there; one
 * that did not sees every GPU of the server, and counts on each.
 */
static void count_gpu_sessions(struct server_role *sr)
{
	for (unsigned int i = 0; i < sr->info.ngpus; i++)
		sr->gpus[i].sessions = 0;
	for (struct ssess *s = sr->sessions; s; s = s->next) {
		if (s->control || !s->worker || s->b.closing)
			continue;
		for (unsigned int i = 0; i < sr->info.ngpus; i++)
			if (session_sees(s, i))
				sr->gpus[i].sessions++;
	}
}

/* CACHE_CTL: the store's state, its listing or its clearing, for administrators only. */
static bool on_cache_ctl(struct ssess *s, const void *p, uint32_t len)
{
	struct server_role *sr = s->sr;
	struct cache_stats live = { 0 };
	struct gleam_cache_ctl c;
	size_t n;
	char *rep;

	if (len != sizeof(c))
		return false;
	memcpy(&c, p, sizeof(c));
	if (c.reserved || c.reserved2 || c.op < GLEAM_CACHE_CTL_STATS ||
	    c.op > GLEAM_CACHE_CTL_CLEAR)
		return false;
	if (!s->admin) {
		peer_log(s->peer, "%s is no administrator: its request on the chunk store is refused",
			 s->tenant->name);
		send_error(&s->b, EPERM, "only an administrator of this server may do that");
		return true;
	}
	if (!scache_enabled()) {
		send_error(&s->b, ENOENT, "this server keeps no chunk store (--cache off)");
		return true;
	}
	for (struct ssess *o = sr->sessions; o; o = o->next)
		if (o->b.sc)
			scache_sum(o->b.sc, &live);
	rep = scache_report(c.op, &live, &n);
	if (!rep) {
		send_error(&s->b, ENOMEM, "no memory for the report");
		return true;
	}
	if (c.op == GLEAM_CACHE_CTL_CLEAR)
		gl_info("chunk store cleared at the request of %s (%s)", s->tenant->name, s->peer);
	bridge_queue_frame(&s->b, GLEAM_FRAME_CACHE_REPORT, rep, (uint32_t)n);
	free(rep);
	return true;
}

/* INFO: the server's GPUs, and with USAGE what is in use on them. */
static void on_info_req(struct ssess *s)
{
	struct server_role *sr = s->sr;
	unsigned char *buf = sr->info_buf;
	size_t n = sizeof(sr->info) + sr->info.ngpus * sizeof(sr->gpus[0]);

	sr->info.sessions = sr->nsessions;
	count_gpu_sessions(sr);
	memcpy(buf, &sr->info, sizeof(sr->info));
	memcpy(buf + sizeof(sr->info), sr->gpus, sr->info.ngpus * sizeof(sr->gpus[0]));
	if (s->usage) {
		struct gleam_server_usage *u = (void *)(buf + n);
		struct gleam_gpu_usage *g = (void *)(u + 1);

		wk_usage_sum(sr->backend, sr->info.ngpus, u, g);
		u->sessions = sr->nsessions;
		for (unsigned int i = 0; i < sr->info.ngpus; i++)
			g[i].mem_total = sr->gpus[i].total_mem;
		n += sizeof(*u) + sr->info.ngpus * sizeof(struct gleam_gpu_usage);
	}
	for (unsigned int i = 0; s->nvml && i < sr->info.ngpus; i++, n += sizeof(struct gleam_gpu_nvml))
		nvml_read(i, (struct gleam_gpu_nvml *)(buf + n));
	bridge_queue_frame(&s->b, GLEAM_FRAME_INFO, buf, (uint32_t)n);
}

static bool is_admin(const struct server_role *sr, const char *name)
{
	for (unsigned int i = 0; i < sr->cfg->nadmins; i++)
		if (!strcmp(sr->cfg->admins[i], name))
			return true;
	return false;
}

/*
 * Who the peer is: the identity its certificate proved, or, on a server
 * without credentials, nobody in particular (every peer the same tenant,
 * and trusted with everything: Documentation/security.md).
 */
static bool identify(struct ssess *s)
{
	struct server_role *sr = s->sr;
	const char *who = sr->tls ? bridge_peer_identity(&s->b) : TENANT_NONE;

	if (!who)
		return false;
	s->tenant = tenant_get(who);
	s->admin = !sr->tls || is_admin(sr, who);
	return s->tenant != NULL;
}

/*
 * GLEAM_WIRE_F_GPUS: the server's GPUs of a new session, in the order of
 * its devices; each one the server has, none twice, and nothing past the
 * list.  0 or EINVAL.
 */
static int hello_gpus(struct ssess *s, const struct gleam_hello *h)
{
	struct server_role *sr = s->sr;
	uint64_t seen = 0;
	const char *why = NULL;
	bool span = h->features & GLEAM_WIRE_F_SPAN;

	if (h->kind != GLEAM_HELLO_SESSION || (h->features & GLEAM_WIRE_F_GPU))
		why = "a list of GPUs in a hello that is no new session's, or beside one GPU";
	else if (h->gpu < 2 || h->gpu > GLEAM_HELLO_GPUS_MAX)
		why = "a list of GPUs of a length the protocol does not have";
	for (unsigned int i = 0; !why && i < GLEAM_HELLO_GPUS_MAX; i++) {
		if (i >= h->gpu) {
			if (h->gpus[i])
				why = "bytes past its list of GPUs";
		} else if (h->gpus[i] == GLEAM_HELLO_GPU_ELSEWHERE && span) {
			/* A device of the session that another server serves. */
			continue;
		} else if (h->gpus[i] >= sr->info.ngpus || h->gpus[i] >= 64) {
			why = "a GPU the server lacks";
		} else if (seen & (1ull << h->gpus[i])) {
			why = "a GPU twice";
		} else {
			seen |= 1ull << h->gpus[i];
		}
	}
	if (!why && !seen)
		why = "no GPU of this server";
	if (why) {
		peer_log(s->peer, "%s (%s) named %s (%u GPUs here): refused", s->client, s->program,
			 why, sr->info.ngpus);
		return EINVAL;
	}
	memcpy(s->gpus, h->gpus, h->gpu);
	s->ngpus = h->gpu;
	s->span = span;
	return 0;
}

/* What the hello asks that this server will not do: 0, or the errno it answers. */
static int hello_check(struct ssess *s, const struct gleam_hello *h)
{
	struct server_role *sr = s->sr;
	static const uint8_t none[GLEAM_HELLO_GPUS_MAX];
	bool named = h->features & (GLEAM_WIRE_F_GPU | GLEAM_WIRE_F_GPUS);

	if (h->min_version > GLEAM_WIRE_VERSION || h->version < GLEAM_WIRE_VERSION ||
	    (h->gpu && !named) ||
	    (!(h->features & GLEAM_WIRE_F_GPUS) && memcmp(h->gpus, none, sizeof(none))) ||
	    ((h->features & GLEAM_WIRE_F_SPAN) && !(h->features & GLEAM_WIRE_F_GPUS)) ||
	    (h->kind != GLEAM_HELLO_RESUME && h->kind != GLEAM_HELLO_STRIPE &&
	     (h->resume_token || h->resume_count)) ||
	    (h->kind != GLEAM_HELLO_SESSION && h->kind != GLEAM_HELLO_CONTROL &&
	     h->kind != GLEAM_HELLO_RESUME && h->kind != GLEAM_HELLO_STRIPE))
		return EPROTONOSUPPORT;
	if (!named)
		return 0;
	if (h->features & GLEAM_WIRE_F_GPUS)
		return hello_gpus(s, h);
	if (h->kind != GLEAM_HELLO_SESSION) {
		peer_log(s->peer, "%s (%s) named a GPU in a hello that is no new session's: refused",
			 s->client, s->program);
		return EINVAL;
	}
	if (h->gpu >= sr->info.ngpus) {
		peer_log(s->peer, "%s (%s) asked for GPU %u of a server with %u: refused", s->client,
			 s->program, h->gpu, sr->info.ngpus);
		return EINVAL;
	}
	s->gpu = (int)h->gpu;
	return 0;
}

/*
 * A new session within the limits: sessions in all, and of its tenant
 * (Documentation/security.md); 0 or EUSERS, said in the log once a while.
 */
static int session_limits(struct ssess *s)
{
	struct server_role *sr = s->sr;
	if (sr->nsessions >= sr->cfg->max_sessions) {
		peer_log(s->peer, "session of %s refused: the server has %u sessions "
			 "(max-sessions)", s->tenant->name, sr->nsessions);
		return EUSERS;
	}
	if (s->tenant->sessions >= sr->cfg->max_sessions_tenant) {
		peer_log(s->peer, "session of %s refused: it has %u sessions (max-sessions-tenant)",
			 s->tenant->name, s->tenant->sessions);
		return EUSERS;
	}
	return 0;
}

static bool hello_control(struct ssess *s, const struct gleam_hello *h,
			  struct gleam_hello_ack *ack)
{
	if (s->tenant->controls >= CONTROLS_MAX) {
		peer_log(s->peer, "control connection of %s refused: it has %u", s->tenant->name,
			 s->tenant->controls);
		return refuse(s, ack, EUSERS);
	}
	s->control = true;
	s->ctl_counted = true;
	s->tenant->controls++;
	s->usage = h->features & GLEAM_WIRE_F_USAGE;
	if (s->usage)
		ack->features |= GLEAM_WIRE_F_USAGE;
	/* NVML's readings come after the usage: only with it. */
	s->nvml = s->usage && (h->features & GLEAM_WIRE_F_NVML);
	if (s->nvml)
		ack->features |= GLEAM_WIRE_F_NVML;
	bridge_queue_frame(&s->b, GLEAM_FRAME_HELLO_ACK, ack, sizeof(*ack));
	return true;
}

static bool hello_session(struct ssess *s, const struct gleam_hello *h,
			  struct gleam_hello_ack *ack)
{
	struct server_role *sr = s->sr;
	struct bridge *b = &s->b;
	int err = session_limits(s);

	if (err)
		return refuse(s, ack, err);
	s->features = ack->features;
	err = spawn_worker(s);
	if (err)
		return refuse(s, ack, -err);
	if (ack->features & GLEAM_WIRE_F_CACHE) {
		b->sc = scache_new(s->tenant, ack->features & GLEAM_WIRE_F_PROVE);
		if (!b->sc)
			ack->features &= ~(GLEAM_WIRE_F_CACHE | GLEAM_WIRE_F_PROVE);
	}
	if ((ack->features & GLEAM_WIRE_F_PACK) && bridge_pack_start(b))
		ack->features &= ~GLEAM_WIRE_F_PACK;
	if (ack->features & GLEAM_WIRE_F_RESUME) {
		b->resumable = true;
		b->token = ack->resume_token = new_token();
	}
	if ((ack->features & GLEAM_WIRE_F_STRIPE) &&
	    (!(ack->features & GLEAM_WIRE_F_RESUME) || stripes_init(b, GLEAM_STRIPES_MAX)))
		ack->features &= ~GLEAM_WIRE_F_STRIPE;
	if (s->gpu >= 0)
		ack->features |= GLEAM_WIRE_F_GPU;
	if (s->ngpus)
		ack->features |= GLEAM_WIRE_F_GPUS;
	if (s->ngpus && (h->features & GLEAM_WIRE_F_SPAN))
		ack->features |= GLEAM_WIRE_F_SPAN;
	sr->nsessions++;
	s->tenant->sessions++;
	if (s->gpu >= 0)
		gl_info("session %llu of %s from %s (%s): %s (pid %u), worker %d on GPU %d",
			(unsigned long long)s->id, s->tenant->name, s->client, s->peer, s->program,
			h->pid, (int)s->worker, s->gpu);
	else if (s->ngpus)
		gl_info("session %llu of %s from %s (%s): %s (pid %u), worker %d on %u GPUs, "
			"GPU %u first", (unsigned long long)s->id, s->tenant->name, s->client, s->peer,
			s->program, h->pid, (int)s->worker, s->ngpus, s->gpus[0]);
	else
		gl_info("session %llu of %s from %s (%s): %s (pid %u), worker %d",
			(unsigned long long)s->id, s->tenant->name, s->client, s->peer, s->program,
			h->pid, (int)s->worker);
	bridge_queue_frame(b, GLEAM_FRAME_HELLO_ACK, ack, sizeof(*ack));
	if (b->sc)
		scache_send_info(b);
	b->hello_done = true;
	return true;
}

static bool on_hello(struct ssess *s, const void *p, uint32_t len)
{
	struct server_role *sr = s->sr;
	struct gleam_hello_ack ack = { .version = GLEAM_WIRE_VERSION };
	struct gleam_hello h;
	int err;

	if (len != sizeof(h)) {
		send_error(&s->b, EPROTO, "malformed hello");
		return false;
	}
	memcpy(&h, p, sizeof(h));
	if (s->pending) {
		s->pending = false;
		sr->pending--;
	}
	/* What the peer calls itself reaches the log: printable only. */
	gl_escape(s->client, sizeof(s->client), h.client, sizeof(h.client));
	gl_escape(s->program, sizeof(s->program), h.program, sizeof(h.program));
	if (!identify(s))
		return refuse(s, &ack, EACCES);
	err = hello_check(s, &h);
	if (err)
		return refuse(s, &ack, err);
	ack.features = h.features & GLEAM_WIRE_F_KNOWN;
	/* Packing: sessions only, and not where GLEAM_COMPRESS=0 turned it off. */
	if (!pack_wanted() || h.kind != GLEAM_HELLO_SESSION)
		ack.features &= ~GLEAM_WIRE_F_PACK;
	if (!scache_enabled() || h.kind != GLEAM_HELLO_SESSION)
		ack.features &= ~(GLEAM_WIRE_F_CACHE | GLEAM_WIRE_F_PROVE);
	if (!(ack.features & GLEAM_WIRE_F_CACHE))
		ack.features &= ~GLEAM_WIRE_F_PROVE;
	ack.session_id = s->id;
	if (h.kind == GLEAM_HELLO_RESUME)
		return resume(s, &h);
	if (h.kind == GLEAM_HELLO_STRIPE)
		return stripe_hello(s, &h);
	/*
	 * Stripes: in resumable sessions; over TLS only with a client whose
	 * stripes are TLS connections too.
	 */
	if (!sr->tls)
		ack.features &= ~GLEAM_WIRE_F_STRIPE_TLS;
	if ((sr->tls && !(ack.features & GLEAM_WIRE_F_STRIPE_TLS)) || !sr->cfg->resume_s ||
	    h.kind != GLEAM_HELLO_SESSION)
		ack.features &= ~(GLEAM_WIRE_F_STRIPE | GLEAM_WIRE_F_STRIPE_TLS);
	if (!sr->cfg->resume_s)
		ack.features &= ~GLEAM_WIRE_F_RESUME;
	if (h.kind == GLEAM_HELLO_CONTROL)
		return hello_control(s, &h, &ack);
	return hello_session(s, &h, &ack);
}

static bool server_on_frame(struct bridge *b, uint16_t type, const void *p, uint32_t len)
{
	struct ssess *s = (struct ssess *)b;

	/* The peer has its answer: anything more from it ends the connection. */
	if (s->refused)
		return false;
	switch (type) {
	case GLEAM_FRAME_PING:
		bridge_queue_frame(b, GLEAM_FRAME_PONG, p, len == 8 ? 8 : 0);
		return true;
	case GLEAM_FRAME_PONG:
		/* The answer to our keepalive ping: receiving it was the point. */
		return true;
	case GLEAM_FRAME_BYE:
		return false;
	case GLEAM_FRAME_CACHE_CTL:
		if (!s->control || !s->tenant)
			break;
		return on_cache_ctl(s, p, len);
	case GLEAM_FRAME_CACHE_QUERY:
	case GLEAM_FRAME_CACHE_DATA:
	case GLEAM_FRAME_CACHE_RELEASE:
	case GLEAM_FRAME_CACHE_PROVE: {
		const char *why = NULL;

		if (!scache_on_frame(b, type, p, len, &why)) {
			peer_log(s->peer, "session %llu of %s: %s: ending it", (unsigned long long)s->id,
				 s->tenant ? s->tenant->name : "?", why ? why : "malformed cache frame");
			send_error(b, EBADMSG, why ? why : "malformed cache frame or chunk");
			return false;
		}
		return true;
	}
	case GLEAM_FRAME_INFO_REQ:
		if (!s->control || !s->tenant || len)
			break;
		on_info_req(s);
		return true;
	case GLEAM_FRAME_HELLO:
		if (b->hello_done || s->control)
			break;
		return on_hello(s, p, len);
	}
	peer_log(s->peer, "peer sent an unexpected frame (type %u)", type);
	send_error(b, EPROTO, "unexpected frame");
	return false;
}

static const struct bridge_ops server_bridge_ops = {
	.on_frame = server_on_frame,
};

static void on_accept(struct server_role *sr, int fd)
{
	struct ssess *s;
	int one = 1, buf = 4 << 20;

	post_accept(sr);
	if (fd < 0)
		return;
	if (sr->pending >= PENDING_MAX) {
		char peer[64];

		gl_peer_name(fd, peer, sizeof(peer));
		peer_log(peer, "%u connections have not said hello yet: this one is closed",
			 sr->pending);
		close(fd);
		return;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	bridge_init(&s->b, false, s, &server_bridge_ops);
	s->sr = sr;
	s->b.tcp = fd;
	gl_peer_name(fd, s->peer, sizeof(s->peer));
	s->b.peer = s->peer;
	s->gpu = -1;
	s->slot = -1;
	s->id = ++sr->next_id;
	s->accepted = gl_now_ns();
	s->pending = true;
	sr->pending++;
	s->b.obuf = malloc(GLEAM_FRAME_MAX + 64);
	s->b.ocap = GLEAM_FRAME_MAX + 64;
	s->b.ibuf = malloc(2 * (GLEAM_FRAME_MAX + 64));
	s->b.icap = 2 * (GLEAM_FRAME_MAX + 64);
	s->next = sr->sessions;
	sr->sessions = s;
	if (!s->b.obuf || !s->b.ibuf || (sr->tls && bridge_tls_start(&s->b, sr->tls, true, NULL))) {
		bridge_close(&s->b);
		sess_maybe_free(s);
		return;
	}
	bridge_kick(&s->b);
}

/* Once a second: quiet clients are pinged, silent ones given up. */
static void keepalive(struct server_role *sr)
{
	uint64_t now = gl_now_ns();
	struct ssess *s, *next;

	sess_for_each_safe(s, next, sr->sessions) {
		/* A connection that does not get to its hello in time holds nothing longer. */
		if (s->pending && !s->b.closing && now - s->accepted > HELLO_NS) {
			peer_log(s->peer, "no hello within %llu s: closed",
				 (unsigned long long)(HELLO_NS / 1000000000ull));
			bridge_close(&s->b);
		}
		/* A session that waited longer than the grace period for its client ends. */
		if (s->b.detached && !s->b.closing &&
		    now - s->b.detached_at > (uint64_t)sr->cfg->resume_s * 1000000000ull) {
			gl_err("session %llu from %s (%s): no client came back in %u s: ending it",
			       (unsigned long long)s->id, s->client, s->program, sr->cfg->resume_s);
			bridge_close(&s->b);
		}
		if (!s->control && !bridge_keepalive(&s->b, now, sr->cfg->keepalive_s))
			gl_err("session %llu from %s (%s): the client went silent", (unsigned long long)s->id,
			       s->client, s->program);
		sess_maybe_free(s);
	}
}

/* A session whose chunk the store refused: it lied about a name. */
static void liar(void *role, uint64_t serial)
{
	struct server_role *sr = role;

	for (struct ssess *s = sr->sessions; s; s = s->next) {
		if (!s->b.sc || scache_serial(s->b.sc) != serial || s->b.closing)
			continue;
		peer_log(s->peer, "session %llu of %s sent bytes under a name they do not hash "
			 "to: ending it", (unsigned long long)s->id, s->tenant->name);
		send_error(&s->b, EBADMSG, "a chunk did not hold the bytes of its name");
		bridge_close(&s->b);
		sess_maybe_free(s);
		return;
	}
}

static void reap(struct server_role *sr)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (pid == sr->sampler) {
			sr->sampler = 0;
			if (WIFSIGNALED(st) || WEXITSTATUS(st))
				gl_err("the NVML sampler ended: utilisation is no longer reported");
			continue;
		}
		if (WIFSIGNALED(st))
			gl_err("worker %d died of signal %d: its session ends", (int)pid, WTERMSIG(st));
		else if (WEXITSTATUS(st))
			gl_err("worker %d exited with status %d", (int)pid, WEXITSTATUS(st));
	}
}

/* While the loop spins: move what every live session's rings hold. */
static void poll_all(void *role)
{
	struct server_role *sr = role;
	struct ssess *s, *next;

	sess_for_each_safe(s, next, sr->sessions) {
		if (s->control || !s->b.ring.base || !s->b.hello_done || s->b.closing)
			continue;
		bridge_kick(&s->b);
		note_records(s);
		sess_maybe_free(s);
	}
}

/*
 * Asked to stop: every session ends with a goodbye, so that its client
 * tells its program now rather than after trying to take it up for the
 * grace period; the workers exit with their sessions.
 */
static void quit(struct server_role *sr)
{
	struct ssess *s, *next;

	if (!sr->said_stopping)
		gl_notify("STOPPING=1");
	sr->said_stopping = true;
	sess_for_each_safe(s, next, sr->sessions) {
		bridge_close(&s->b);
		sess_maybe_free(s);
	}
	if (loop_quit_done(sr->sessions != NULL))
		g_loop.stop = true;
}

/*
 * Who gets in (Documentation/security.md): with credentials, every
 * connection is mutual TLS and each peer an identity; without, the server
 * cannot tell anyone apart and serves loopback only, unless told
 * --insecure.  0 or -errno, the reason logged.
 */
static int server_security(struct server_role *sr, struct config *c)
{
	char host[256], port[16], err[256];
	const char *colon;

	if (gl_tls_complete(&c->tls)) {
		sr->tls = gl_tls_ctx(true, &c->tls, err, sizeof(err));
		if (!sr->tls) {
			gl_err("cannot use the credentials: %s", err);
			return -EINVAL;
		}
		gl_info("TLS: identity from %s, peers checked against %s; %u administrator(s)",
			c->tls.cert, c->tls.ca, c->nadmins);
		return 0;
	}
	if (c->insecure) {
		gl_err("INSECURE: no credentials and --insecure: no authentication and no "
		       "encryption; whoever reaches %s runs on the GPUs and can read every "
		       "session's data", c->listen);
		return 0;
	}
	if (gl_host_of(c->listen, host, sizeof(host)) || gl_host_is_loopback(host))
		return 0;
	/* The port stays: "[v6]:port" or "host:port". */
	colon = c->listen[0] == '[' ? strstr(c->listen, "]:") : strrchr(c->listen, ':');
	if (colon && *colon == ']')
		colon++;
	snprintf(port, sizeof(port), "%s", colon ? colon : "");
	snprintf(c->listen, sizeof(c->listen), "%s%s",
		 strchr(c->listen, '[') ? "[::1]" : "127.0.0.1", port);
	gl_err("no credentials (--tls-cert): serving loopback only, on %s; give credentials "
	       "(Documentation/security.md) or --insecure", c->listen);
	return 0;
}

/* ---- metrics (--metrics ADDR, Documentation/metrics.md) ---- */

static void collect_links(const struct server_role *sr, struct gl_buf *m)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} f[] = {
		{ "gleam_records", "records taken from clients", offsetof(struct sess_stats, records) },
		{ "gleam_replies", "replies sent", offsetof(struct sess_stats, replies) },
		{ "gleam_sent_bytes", "bytes sent, frames included", offsetof(struct sess_stats, bytes_out) },
		{ "gleam_received_bytes", "bytes received, frames included",
		  offsetof(struct sess_stats, bytes_in) },
	};
	const char *names[64];
	unsigned int n = 0;

	/* Every client host with a session, live or ended. */
	for (unsigned int i = 0; metrics_link_name(i) && n < ARRAY_SIZE(names); i++)
		names[n++] = metrics_link_name(i);
	for (struct ssess *s = sr->sessions; s; s = s->next) {
		bool known = false;

		for (unsigned int i = 0; i < n && !known; i++)
			known = !strcmp(names[i], s->client);
		if (s->worker && !known && n < ARRAY_SIZE(names))
			names[n++] = s->client;
	}
	for (size_t k = 0; k < ARRAY_SIZE(f); k++) {
		char total[64];

		mb_family(m, f[k].name, "counter", NULL, f[k].help);
		snprintf(total, sizeof(total), "%s_total", f[k].name);
		for (unsigned int i = 0; i < n; i++) {
			uint64_t sessions, v = 0;
			const struct sess_stats *d = metrics_link_done(names[i], &sessions);

			if (d)
				v = *(const uint64_t *)((const char *)d + f[k].off);
			for (struct ssess *s = sr->sessions; s; s = s->next) {
				struct sess_stats st = link_st(s);

				if (s->worker && !strcmp(s->client, names[i]))
					v += *(const uint64_t *)((const char *)&st + f[k].off);
			}
			mb_sample(m, total, (double)v, "client", names[i], NULL);
		}
	}
}

static void collect_gpus(const struct server_role *sr, struct gl_buf *m)
{
	struct gleam_server_usage u;
	struct gleam_gpu_usage g[GLEAM_GPUS_MAX];
	struct gleam_gpu_nvml nv[GLEAM_GPUS_MAX];
	unsigned int n = MIN(sr->info.ngpus, (unsigned int)GLEAM_GPUS_MAX);
	char idx[GLEAM_GPUS_MAX][8];

	wk_usage_sum(sr->backend, n, &u, g);
	for (unsigned int i = 0; i < n; i++) {
		nvml_read(i, &nv[i]);
		snprintf(idx[i], sizeof(idx[i]), "%u", i);
	}
	mb_family(m, "gleam_workers", "gauge", NULL, "live replay workers");
	mb_sample(m, "gleam_workers", u.workers, NULL);
	mb_family(m, "gleam_gpu_utilization_ratio", "gauge", NULL,
		  "share of the last second the GPU was busy");
	for (unsigned int i = 0; i < n; i++)
		if (g[i].flags & GLEAM_USAGE_F_UTIL)
			mb_sample(m, "gleam_gpu_utilization_ratio", g[i].util_pct / 100.0, "gpu", idx[i],
				  "name", sr->gpus[i].name, NULL);
	mb_family(m, "gleam_gpu_memory_used_bytes", "gauge", "bytes", "device memory in use");
	for (unsigned int i = 0; i < n; i++)
		mb_sample(m, "gleam_gpu_memory_used_bytes", (double)(nv[i].flags & GLEAM_NVML_F_MEM ?
			  nv[i].mem_used : g[i].mem_used), "gpu", idx[i], "name", sr->gpus[i].name, NULL);
	mb_family(m, "gleam_gpu_memory_total_bytes", "gauge", "bytes", "device memory");
	for (unsigned int i = 0; i < n; i++)
		mb_sample(m, "gleam_gpu_memory_total_bytes", (double)sr->gpus[i].total_mem, "gpu", idx[i],
			  "name", sr->gpus[i].name, NULL);
	mb_family(m, "gleam_gpu_queue_delay_seconds", "gauge", "seconds",
		  "mean time records waited for the GPU's workers over the last second");
	for (unsigned int i = 0; i < n; i++)
		mb_sample(m, "gleam_gpu_queue_delay_seconds", g[i].wait_us / 1e6, "gpu", idx[i],
			  "name", sr->gpus[i].name, NULL);
	mb_family(m, "gleam_gpu_temperature_celsius", "gauge", "celsius", "NVML's reading");
	for (unsigned int i = 0; i < n; i++)
		if (nv[i].flags & GLEAM_NVML_F_TEMP)
			mb_sample(m, "gleam_gpu_temperature_celsius", nv[i].temp_c, "gpu", idx[i],
				  "name", sr->gpus[i].name, NULL);
	mb_family(m, "gleam_gpu_power_watts", "gauge", "watts", "NVML's reading");
	for (unsigned int i = 0; i < n; i++)
		if (nv[i].flags & GLEAM_NVML_F_POWER)
			mb_sample(m, "gleam_gpu_power_watts", nv[i].power_mw / 1000.0, "gpu", idx[i],
				  "name", sr->gpus[i].name, NULL);
}

static void collect_store(const struct server_role *sr, struct gl_buf *m)
{
	struct chunk_store_stats st = { 0 };
	struct cache_stats t = scache_total;

	for (struct ssess *s = sr->sessions; s; s = s->next)
		if (s->b.sc)
			scache_sum(s->b.sc, &t);
	if (scache_enabled())
		chunk_store_stats(scache_store(), &st);
	mb_family(m, "gleam_cache_hits", "counter", NULL, "uploads named that the store held");
	mb_sample(m, "gleam_cache_hits_total", (double)t.hits, NULL);
	mb_family(m, "gleam_cache_saved_bytes", "counter", "bytes", "bytes that crossed as names");
	mb_sample(m, "gleam_cache_saved_bytes_total", (double)t.bytes_saved, NULL);
	mb_family(m, "gleam_cache_misses", "counter", NULL, "names the store did not hold");
	mb_sample(m, "gleam_cache_misses_total", (double)st.misses, NULL);
	mb_family(m, "gleam_cache_store_bytes", "gauge", "bytes", "chunk bytes held, by tier");
	mb_sample(m, "gleam_cache_store_bytes", (double)st.mem_bytes, "tier", "memory", NULL);
	mb_sample(m, "gleam_cache_store_bytes", (double)st.disk_bytes, "tier", "disk", NULL);
}

static void collect(struct gl_buf *m, void *role)
{
	const struct server_role *sr = role;

	mb_family(m, "gleam_build_info", "gauge", NULL, "gleamd's version and role");
	mb_sample(m, "gleam_build_info", 1, "version", gl_version(), "role", "server", "backend",
		  sr->backend, NULL);
	mb_family(m, "gleam_sessions", "gauge", NULL, "live sessions");
	mb_sample(m, "gleam_sessions", sr->nsessions, NULL);
	collect_links(sr, m);
	collect_gpus(sr, m);
	collect_store(sr, m);
}

/* The role's own operations and timer, for the configuration c. */
static void server_role_init(struct server_role *sr, struct config *c)
{
	sr->cfg = c;
	sr->listen_fd = -1;
	sr->op_accept = (struct op){ OP_ACCEPT, NULL };
	sr->op_timer = (struct op){ OP_TIMER, NULL };
	sr->tick.tv_sec = 1;
}

/* Once a second: workers that ended, chunks refused, peers, silences, usage. */
static void on_timer(struct server_role *sr)
{
	reap(sr);
	scache_reap(liar, sr);
	peer_log_tick(gl_now_ns());
	keepalive(sr);
	wk_usage_tick(sr->backend, sr->info.ngpus, gl_now_ns());
	post_timer(sr);
}

static void on_cqe(struct server_role *sr, struct io_uring_cqe *cqe)
{
	struct op *op = io_uring_cqe_get_data(cqe);
	struct ssess *s;

	if (!op)
		return;
	if (op->type == OP_METRICS) {
		metrics_complete(op, cqe->res);
	} else if (op->type == OP_ACCEPT) {
		on_accept(sr, cqe->res);
	} else if (op->type == OP_TIMER) {
		on_timer(sr);
	} else {
		s = op->owner;
		if (!bridge_complete(&s->b, op, cqe->res))
			bridge_close(&s->b);
		note_records(s);
		sess_maybe_free(s);
	}
}

/*
 * The sim's GPUs take their UUIDs from GLEAM_SIM_SEED (sim_core.c): unless
 * it is set already, this server's is a hash of its listen address, so
 * that the GPUs of two sim servers differ, as two machines' do, and a
 * program can name either by UUID.  The probe and the workers inherit it.
 */
static void sim_seed(const char *listen)
{
	uint32_t h = 2166136261u;
	char v[16];

	if (getenv("GLEAM_SIM_SEED"))
		return;
	for (const char *p = listen; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	snprintf(v, sizeof(v), "%u", h | 1);
	setenv("GLEAM_SIM_SEED", v, 1);
}

static int server_run(struct server_role *sr, struct config *c)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int one = 1, err;

	err = wk_spawn_init(c->worker_user);
	if (err) {
		gl_err("cannot prepare to start workers: %s", strerror(-err));
		return 1;
	}
	sim_seed(c->listen);
	err = server_probe(c->backend, c->cuda_lib, &sr->info, sr->gpus, sr->clusters,
			   sr->have_clusters);
	if (err) {
		gl_err("no usable backend '%s': %s", c->backend, strerror(-err));
		return 1;
	}
	sr->backend = sr->info.backend;
	/* Before any descriptor or thread of the daemon's exists: the sampler keeps none. */
	if (!strcmp(sr->backend, "cuda"))
		sr->sampler = nvml_start(sr->gpus, sr->info.ngpus);
	if (!c->no_cache) {
		err = scache_open(c->cache_dir, c->cache_mem, c->cache_disk);
		if (err) {
			gl_err("cannot open the chunk store%s%s: %s", *c->cache_dir ? " in " : "",
			       c->cache_dir, strerror(-err));
			return 1;
		}
		scache_limits(c->pin_max, c->pin_mem, c->cache_tenant);
	}
	err = server_security(sr, c);
	if (err)
		return 1;
	err = gl_parse_hostport(c->listen, GLEAM_WIRE_PORT, &ss, &sl);
	if (err) {
		gl_err("listen address '%s': %s", c->listen, gl_addr_strerror(err));
		return 1;
	}
	sr->listen_fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(sr->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/*
	 * A gleamd killed a moment ago can hold the port a little longer: the
	 * kernel closes its io_uring's sockets after the process.  Give it 3 s.
	 */
	err = -1;
	for (int i = 0; sr->listen_fd >= 0 && err; i++) {
		err = bind(sr->listen_fd, (struct sockaddr *)&ss, sl);
		if (!err || errno != EADDRINUSE || i == 30)
			break;
		if (!i)
			gl_info("%s is in use: waiting up to 3 s for it", c->listen);
		usleep(100000);
	}
	if (sr->listen_fd < 0 || err || listen(sr->listen_fd, 128) < 0) {
		gl_err("cannot listen on %s: %s", c->listen, strerror(errno));
		return 1;
	}
	err = io_uring_queue_init(1024, &g_loop.ring, 0);
	if (err) {
		gl_err("io_uring: %s", strerror(-err));
		return 1;
	}
	loop_init_spin();
	gl_info("server role: listening on %s, backend %s, %u GPU(s)", c->listen, sr->backend,
		sr->info.ngpus);

	for (unsigned int i = 0; i < sr->info.ngpus; i++)
		gl_info("  GPU %u: %s, %llu MiB", i, sr->gpus[i].name,
			(unsigned long long)(sr->gpus[i].total_mem >> 20));
	gl_info("workers run as %s%s", wk_spawn_user(),
		wk_spawn_drops() ? "" : " (the server's own user: run it as root to give them "
		"worker-user)");
	if (c->metrics[0] && metrics_start(c->metrics, collect, sr))
		return 1;
	post_accept(sr);
	post_timer(sr);
	loop_catch_signals();
	gl_notify("READY=1");
	while (!g_loop.stop) {
		struct io_uring_cqe *cqe;
		unsigned int head, n = 0;

		loop_wait(poll_all, sr);
		io_uring_for_each_cqe(&g_loop.ring, head, cqe) {
			on_cqe(sr, cqe);
			n++;
		}
		io_uring_cq_advance(&g_loop.ring, n);
		if (g_loop.quit)
			quit(sr);
	}
	return 0;
}

int server_main(struct config *c)
{
	/* The role lives as long as its loop; its scratch buffers make it large. */
	struct server_role *sr = calloc(1, sizeof(*sr));
	int ret;

	if (!sr) {
		gl_err("no memory for the server role");
		return 1;
	}
	server_role_init(sr, c);
	ret = server_run(sr, c);
	free(sr);
	return ret;
}
