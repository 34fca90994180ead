// SPDX-License-Identifier: MIT
/*
 * gleamd, client role: accepts applications on the local socket, gives
 * each a session ring, and bridges it to a connection of its own to the
 * server the scheduler chooses (scheduler.c).  Sessions of /dev/vgpuN come from
 * vgpu.c with their ring already mapped and are bridged the same way.  One
 * control connection per server keeps the scheduler's view of it fresh.
 * gleamctl talks to the socket.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "gleamd.h"
#include "pack.h"
#include "linkmon.h"
#include "metrics.h"
#include "notify.h"
#include "scheduler.h"
#include "tls.h"
#include "util.h"
#include "vgpu.h"

struct csess {
	struct bridge b;
	struct client_role *cr;
	struct csess *next;
	uint64_t id;
	pid_t pid;
	uid_t uid;
	char program[64];
	time_t started;
	bool control;
	bool admin;			/* its peer may change servers and placement */
	bool local_hello;
	uint64_t server_session;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	struct op op_ctl_send;
	char *ctl_reply;
	size_t ctl_reply_len;		/* text: its length; GLEAM_CTL_GPUS: binary */
	bool ctl_sending;		/* the reply is the kernel's until it is sent */
	struct vgpu_link vl;		/* a /dev/vgpuN session: its id */
	char via[16];			/* "socket" or the node's name */
	/*
	 * A hello that came while no server could be used: held, unanswered,
	 * while the servers are tried once more (sched_retry_now), then
	 * served or refused.
	 */
	uint64_t held_until;		/* ns; 0: not held */
	unsigned int ring_shift, reply_shift;	/* records' ring, replies' ring */
	/*
	 * The program's CUDA_VISIBLE_DEVICES (has_visible: it set one), and
	 * the server's GPUs it names, device by device (nvisible of them).
	 */
	bool has_visible;
	bool info_waited;		/* held once for the server's INFO */
	char visible[256];
	uint8_t vgpus[GLEAM_HELLO_GPUS_MAX];
	unsigned int nvisible;
	/*
	 * Reaching the server: the first time, and again after the session's
	 * connection dropped.  An attempt connects and sends a hello (of kind
	 * RESUME once the session has a token); it ends when the server
	 * answers, or fails, and then the next is due after a pause.
	 */
	bool connecting;		/* the attempt's connect is in flight */
	uint64_t tried_at;		/* ns: the attempt under way began; 0: none */
	uint64_t try_at;		/* ns: the next attempt is due; 0: none */
	unsigned int tries;		/* attempts since the session was last up */
	/* Where the scheduler put the session, and what it learns from it. */
	struct server *srv;		/* NULL: none was placed */
	int gpu;			/* -1: not known */
	bool gpu_named;			/* the hello names it */
	bool placed;			/* counted on srv until it ends */
	uint64_t started_ns;
	struct tcp_sample tcp;
	struct chunk_name *names;	/* uploads the server now holds */
	uint32_t *lens;
	uint32_t nnames, capnames;
	/*
	 * A session whose GPUs lie on several servers (Documentation/design.md,
	 * "Sessions over several servers"): the program's session (the head)
	 * holds its ring and no connection; each server's connection is a
	 * session of its own (a part) whose records the head hands it from
	 * the ring, by the route the shim wrote in each, and whose replies go
	 * straight into the head's ring.
	 */
	bool can_route;			/* the program's shim routes (GLEAM_LOCAL_F_ROUTE) */
	struct csess *head;		/* a part: the program's session */
	struct csess *part[GLEAM_LOCAL_ROUTES_MAX];	/* the head: its parts, by route */
	unsigned int nparts;
	bool span;			/* a part: vgpus names other servers' devices too */
	struct gl_ring feed;		/* a part: its ring as its head writes it */
	bool split_blocked;		/* the head: a part's ring was full */
	bool splitting, split_again;
	/* A server's control connection instead of a session. */
	struct server *link;
	bool link_up;			/* its hello was answered */
	char link_why[192];		/* why it is being closed */
};

/* Sessions that ended lately, for gleamctl and the benchmarks. */
#define ENDED_MAX 64

struct ended {
	uint64_t id;
	pid_t pid;
	char program[64];
	char via[16];
	struct sess_stats st;
	struct cache_stats cache;
};

/*
 * The client role: made by client_main() and passed to what needs it; a
 * session reaches it through its cr, the role's own operations (accept,
 * timers, names hashed) complete in on_cqe(), which is given it.
 */
struct client_role {
	struct config *cfg;
	struct ended ended[ENDED_MAX];
	unsigned int nended;
	int listen_fd;
	struct op op_accept, op_timer, op_hash, op_keepalive, op_sched;
	struct __kernel_timespec tick, second, eighth;
	bool timer_armed;
	bool sched_armed;
	bool keepalive_armed;
	bool hash_armed;
	uint64_t hash_buf;
	struct csess *sessions;
	uint64_t next_id;
	uint64_t sessions_total;
	struct sockaddr_storage server;
	socklen_t server_len;
	struct ssl_ctx_st *tls;		/* NULL: plain TCP (loopback, or --insecure) */
	bool said_stopping;		/* STOPPING=1 told to systemd */
	struct vgpu vgpu;		/* sessions of /dev/vgpuN (vgpu.c) */
};

static const char *srv_name(const struct csess *s);

static void post_accept(struct client_role *cr)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_accept(sqe, cr->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	io_uring_sqe_set_data(sqe, &cr->op_accept);
}

/*
 * A session's counters brought up to date: the ring's, and the replies it
 * took (counted as the bridge takes them in).  A split session's are its
 * parts' together: it carries nothing itself.
 */
static void sess_count(struct csess *s)
{
	struct sess_stats *st = &s->b.st;

	bridge_ring_stats(&s->b.ring, st);
	st->replies = s->b.in_count;
	if (s->nparts)
		st->records = st->batches = st->waits = st->bytes_out = st->bytes_in = 0;
	for (unsigned int i = 0; i < s->nparts; i++) {
		const struct csess *pt = s->part[i];

		if (!pt)
			continue;
		st->records += pt->b.st.records;
		st->replies += pt->b.in_count;
		st->batches += pt->b.st.batches;
		st->waits += pt->b.st.waits;
		st->bytes_out += pt->b.st.bytes_out;
		st->bytes_in += pt->b.st.bytes_in;
	}
}

/*
 * A part or a head going: a head's parts say goodbye to their servers, and
 * write what still comes into their own rings; a part that goes ends its
 * program's session, which cannot go on without its devices.
 */
static void span_unlink(struct csess *s)
{
	struct csess *h = s->head;

	for (unsigned int i = 0; i < s->nparts; i++) {
		struct csess *p = s->part[i];

		if (!p)
			continue;
		p->head = NULL;
		p->b.in_dir = &p->b.ring.cq;
		bridge_close(&p->b);
	}
	s->nparts = 0;
	if (!h)
		return;
	for (unsigned int i = 0; i < h->nparts; i++)
		if (h->part[i] == s)
			h->part[i] = NULL;
	s->head = NULL;
	bridge_close(&h->b);
}

static void sess_free(struct csess *s)
{
	struct csess **pp;

	for (pp = &s->cr->sessions; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	/* Counted once, while a split session still has its parts and its ring. */
	sess_count(s);
	vgpu_unlink(&s->vl);
	span_unlink(s);
	if (s->link && s->b.tls_refused)
		snprintf(s->link_why, sizeof(s->link_why), "TLS: %s", bridge_tls_why(&s->b));
	if (s->link && s->link->conn == s)
		sched_link_down(s->link, s->link_why[0] ? s->link_why : "connection closed", gl_now_ns());
	/* What the last moments of the session moved count too. */
	if (s->srv && !s->link && s->b.tcp >= 0 && s->b.hello_done)
		link_sample_tcp(&s->srv->link, s->b.tcp, &s->tcp, gl_now_ns());
	if (s->placed && s->local_hello)
		metrics_session_done(s->srv->name, &s->b.st);
	if (s->placed) {
		struct cache_stats c = s->b.cc ? *ccache_stats(s->b.cc) : (struct cache_stats){ 0 };
		struct sched_run r = {
			.program = s->program, .id = s->id, .wall_ns = gl_now_ns() - s->started_ns,
			.bytes_up = s->b.st.bytes_out + c.bytes_saved, .bytes_crossed = s->b.st.bytes_out,
			.bytes_down = s->b.st.bytes_in, .records = s->b.st.records,
			.waits = s->b.st.waits, .names = s->names, .lens = s->lens, .nnames = s->nnames,
		};

		sched_session_end(s->srv, s->gpu, &r);
	}
	free(s->names);
	free(s->lens);
	if (s->b.tls_refused && !s->link)
		gl_err("session %llu (%s): TLS with server %s failed: %s", (unsigned long long)s->id,
		       s->program, srv_name(s), bridge_tls_why(&s->b));
	bridge_drop_tcp(&s->b);
	if (s->b.bell >= 0)
		close(s->b.bell);
	gl_ring_unmap(&s->b.ring);
	if (s->feed.base)
		gl_ring_unmap(&s->feed);
	free(s->b.obuf);
	free(s->b.ibuf);
	free(s->ctl_reply);
	if (!s->control && s->local_hello) {
		struct ended *e = &s->cr->ended[s->cr->nended++ % ENDED_MAX];

		e->id = s->id;
		e->pid = s->pid;
		memcpy(e->program, s->program, sizeof(e->program));
		memcpy(e->via, s->via, sizeof(e->via));
		e->st = s->b.st;
		memset(&e->cache, 0, sizeof(e->cache));
		if (s->b.cc)
			e->cache = *ccache_stats(s->b.cc);
		gl_info("session %llu (%s, pid %d) ended: %llu records, %llu batches; "
			"%llu stripes, %llu messages out and %llu in on them",
			(unsigned long long)s->id, s->program, (int)s->pid,
			(unsigned long long)s->b.st.records, (unsigned long long)s->b.st.batches,
			(unsigned long long)s->b.st.stripes, (unsigned long long)s->b.st.striped_out,
			(unsigned long long)s->b.st.striped_in);
	}
	ccache_free(s->b.cc);
	bridge_pack_stop(&s->b);
	bridge_forget(&s->b);
	free(s);
}

static void sess_maybe_free(struct csess *s)
{
	if (s->b.closing && s->b.inflight == 0)
		sess_free(s);
}

static void start_connect(struct csess *s)
{
	const struct sockaddr_storage *to = s->srv ? &s->srv->addr : &s->cr->server;
	socklen_t tolen = s->srv ? s->srv->addrlen : s->cr->server_len;
	struct io_uring_sqe *sqe;
	int one = 1, buf = 4 << 20;

	memset(&s->tcp, 0, sizeof(s->tcp));
	s->b.tcp = socket(to->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->b.tcp < 0) {
		bridge_close(&s->b);
		return;
	}
	if (!s->link) {
		/* Until the server first answers, a failed attempt is tried again. */
		if (!s->b.token && !s->b.hello_done)
			s->b.restartable = s->cr->cfg->resume_s != 0;
		s->tried_at = gl_now_ns();
	}
	s->connecting = true;
	setsockopt(s->b.tcp, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(s->b.tcp, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	setsockopt(s->b.tcp, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	sqe = loop_sqe();
	io_uring_prep_connect(sqe, s->b.tcp, (const struct sockaddr *)to, tolen);
	io_uring_sqe_set_data(sqe, &s->b.op_connect);
	s->b.inflight++;
}

/* Counters in JSON: "name":value for each, comma-separated. */
static void json_u64s(struct gl_buf *b, const char *const *names, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		gl_buf_printf(b, "%s\"%s\":%llu", i ? "," : "", names[i], (unsigned long long)v[i]);
}

/* The /dev/vgpuN nodes: gleamd's counters and the module's. */
static void status_vgpu(const struct client_role *cr, struct gl_buf *b, bool json)
{
	struct vgpu_node_status nodes[GLEAM_VGPU_MAX];
	struct vgpu_status st;
	unsigned int n = vgpu_status(&cr->vgpu, &st, nodes, ARRAY_SIZE(nodes));

	if (json) {
		gl_buf_printf(b, ",\"vgpu\":{\"serving\":%s,\"why\":\"%s\",\"nr_vgpus\":%u,"
			      "\"kick_writes\":%llu,\"nodes\":[", st.serving ? "true" : "false", st.why,
			      st.nr_vgpus, (unsigned long long)st.kick_writes);
		for (unsigned int i = 0; i < n; i++) {
			const struct vgpu_node_status *v = &nodes[i];

			gl_buf_printf(b, "%s{\"vgpu\":%u,\"sessions\":%llu,\"active\":%llu,"
				      "\"kick_events\":%llu,\"kicks\":%llu,\"ended_by_app\":%llu,"
				      "\"ended_by_gleamd\":%llu", i ? "," : "", v->vgpu,
				      (unsigned long long)v->sessions, (unsigned long long)v->active,
				      (unsigned long long)v->kick_events, (unsigned long long)v->kicks,
				      (unsigned long long)v->ended_by_app,
				      (unsigned long long)v->ended_by_gleamd);
			if (v->have_kernel) {
				static const char *const names[] = {
					"sessions_opened", "sessions_active", "kicks_to_daemon",
					"kicks_to_app", "waits", "wait_timeouts", "ring_bytes",
				};
				const uint64_t k[] = {
					v->k_sessions_opened, v->k_sessions_active, v->k_kicks_to_daemon,
					v->k_kicks_to_app, v->k_waits, v->k_wait_timeouts,
					v->k_ring_bytes,
				};

				gl_buf_printf(b, ",\"kernel\":{");
				json_u64s(b, names, k, ARRAY_SIZE(k));
				gl_buf_printf(b, "}");
			}
			gl_buf_printf(b, "}");
		}
		gl_buf_printf(b, "]}");
		return;
	}
	if (!st.serving) {
		gl_buf_printf(b, "vgpu: not served (%s)\n", st.why[0] ? st.why : "no module");
		return;
	}
	gl_buf_printf(b, "vgpu: %u node(s); %llu kick writes\n", st.nr_vgpus,
		      (unsigned long long)st.kick_writes);
	gl_buf_printf(b, "%-6s %8s %6s %11s %9s %9s %12s | kernel: %8s %6s %9s %9s %9s %8s %10s\n",
		      "node", "sessions", "active", "kick-events", "kicks", "app-ended", "gleamd-ended",
		      "opened", "active", "to-daemon", "to-app", "waits", "timeouts", "ring-bytes");
	for (unsigned int i = 0; i < n; i++) {
		const struct vgpu_node_status *v = &nodes[i];
		char name[16];

		snprintf(name, sizeof(name), "vgpu%u", v->vgpu);
		gl_buf_printf(b, "%-6s %8llu %6llu %11llu %9llu %9llu %12llu |", name,
			      (unsigned long long)v->sessions, (unsigned long long)v->active,
			      (unsigned long long)v->kick_events, (unsigned long long)v->kicks,
			      (unsigned long long)v->ended_by_app, (unsigned long long)v->ended_by_gleamd);
		if (v->have_kernel)
			gl_buf_printf(b, "         %8llu %6llu %9llu %9llu %9llu %8llu %10llu\n",
				      (unsigned long long)v->k_sessions_opened,
				      (unsigned long long)v->k_sessions_active,
				      (unsigned long long)v->k_kicks_to_daemon,
				      (unsigned long long)v->k_kicks_to_app,
				      (unsigned long long)v->k_waits,
				      (unsigned long long)v->k_wait_timeouts,
				      (unsigned long long)v->k_ring_bytes);
		else
			gl_buf_printf(b, "         (no counters)\n");
	}
}

/* gleamctl status, as text or JSON. */
static const struct cache_stats no_cache;


static void cache_json(struct gl_buf *b, const struct cache_stats *c)
{
	static const char *const names[] = {
		"uploads", "bytes", "hits", "bytes_saved", "bytes_sent", "queries", "waits", "raw",
	};
	const uint64_t v[] = {
		c->uploads, c->bytes, c->hits, c->bytes_saved, c->bytes_sent, c->queries, c->waits,
		c->raw,
	};

	gl_buf_printf(b, ",\"cache\":{");
	json_u64s(b, names, v, ARRAY_SIZE(v));
	gl_buf_printf(b, "}");
}

/* Every session's cache counters, live and ended, together. */
static struct cache_stats cache_sum(const struct client_role *cr)
{
	struct cache_stats t = ccache_total;

	for (struct csess *s = cr->sessions; s; s = s->next) {
		if (s->b.cc)
			cache_stats_add(&t, ccache_stats(s->b.cc));
	}
	return t;
}

/*
 * Where a session's connection stands: "up"; "reaching" its server for
 * the first time; "away" since its link dropped, for *away_s seconds,
 * being taken up again; "split" for the head of a session over several
 * servers, which has none (its parts do).
 */
static const char *sess_state(const struct csess *s, double *away_s)
{
	uint64_t now = gl_now_ns();

	*away_s = 0;
	if (s->nparts)
		return "split";
	if (s->b.detached && s->b.detached_at) {
		*away_s = (double)(now - MIN(s->b.detached_at, now)) / 1e9;
		return "away";
	}
	return s->b.hello_done && !s->b.detached ? "up" : "reaching";
}

/* One live session's line of gleamctl status (a part's indented under its head). */
static void status_text_session(struct gl_buf *b, struct csess *s)
{
	const struct sess_stats *st = &s->b.st;
	char id[24], state[32];
	double away;
	const char *what = sess_state(s, &away);

	sess_count(s);
	snprintf(id, sizeof(id), "%s%llu", s->head ? "  " : "", (unsigned long long)s->id);
	if (away > 0)
		snprintf(state, sizeof(state), "%s %.1f s", what, away);
	else
		snprintf(state, sizeof(state), "%s", what);
	gl_buf_printf(b, "%-6s %-16s %7d %10llu %10llu %9llu %9.1f %8llu %12llu %12llu %-8s %-21s %s\n",
		      id, s->program, (int)s->pid,
		      (unsigned long long)st->records, (unsigned long long)st->replies,
		      (unsigned long long)st->batches,
		      st->batches ? (double)st->records / (double)st->batches : 0.0,
		      (unsigned long long)st->waits, (unsigned long long)st->bytes_out,
		      (unsigned long long)st->bytes_in, s->via,
		      s->srv ? s->srv->name : s->nparts ? "(its parts')" : "-", state);
	for (unsigned int i = 0; i < s->nparts; i++)
		if (s->part[i])
			status_text_session(b, s->part[i]);
}

/* gleamctl status: servers, live sessions, what the cache saved. */
static void status_text(const struct client_role *cr, struct gl_buf *b)
{
	struct cache_stats t = cache_sum(cr);
	bool any = false;

	/* gleamctl status asks each "server: " line's server for its GPUs. */
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		const struct server *v = sched_server(i);

		if (v && !v->removed) {
			gl_buf_printf(b, "server: %s\n", v->name);
			any = true;
		}
	}
	if (!any)
		gl_buf_printf(b, "server: %s\n", cr->cfg->server);
	gl_buf_printf(b, "sessions: %llu since start\n", (unsigned long long)cr->sessions_total);
	status_vgpu(cr, b, false);
	gl_buf_printf(b, "%-6s %-16s %7s %10s %10s %9s %9s %8s %12s %12s %-8s %-21s %s\n",
		      "id", "program", "pid", "records", "replies", "batches", "rec/batch", "waits",
		      "bytes out", "bytes in", "via", "server", "state");
	for (struct csess *s = cr->sessions; s; s = s->next) {
		if (s->control || !s->local_hello)
			continue;
		status_text_session(b, s);
	}
	gl_buf_printf(b, "uploads by content: %llu of %llu MiB named, %llu hits, "
		      "%llu MiB saved (%.0f%%), %llu MiB sent, %llu questions\n",
		      (unsigned long long)t.uploads, (unsigned long long)(t.bytes >> 20),
		      (unsigned long long)t.hits, (unsigned long long)(t.bytes_saved >> 20),
		      t.bytes ? 100.0 * (double)t.bytes_saved / (double)t.bytes : 0.0,
		      (unsigned long long)(t.bytes_sent >> 20), (unsigned long long)t.queries);
}

/* A session's counters in JSON, live or ended (its object left open). */
static void status_json_stats(struct gl_buf *b, const struct sess_stats *st)
{
	static const char *const names[] = {
		"records", "replies", "batches", "waits", "waits_made", "waits_required",
		"bytes_out", "bytes_in", "stripes", "striped_out", "striped_in",
		"ring_records", "ring_replies",
	};
	const uint64_t v[] = {
		st->records, st->replies, st->batches, st->waits, st->waits_made,
		st->waits_required, st->bytes_out, st->bytes_in, st->stripes, st->striped_out,
		st->striped_in, st->ring_records, st->ring_replies,
	};

	json_u64s(b, names, v, ARRAY_SIZE(v));
}

/* One live session's object; a head's parts in its "parts". */
static void status_json_session(struct gl_buf *b, struct csess *s)
{
	double away;
	const char *state = sess_state(s, &away);

	sess_count(s);
	gl_buf_printf(b, "{\"id\":%llu,\"program\":\"%s\",\"pid\":%d,\"uid\":%u,"
		      "\"via\":\"%s\",\"to\":\"%s\",\"gpu\":%d,\"server_session\":%llu,"
		      "\"state\":\"%s\",\"away_s\":%.3f,",
		      (unsigned long long)s->id, s->program, (int)s->pid, (unsigned int)s->uid, s->via,
		      s->srv ? s->srv->name : "", s->gpu, (unsigned long long)s->server_session, state,
		      away);
	status_json_stats(b, &s->b.st);
	cache_json(b, s->b.cc ? ccache_stats(s->b.cc) : &no_cache);
	if (s->nparts) {
		gl_buf_printf(b, ",\"parts\":[");
		for (unsigned int i = 0, n = 0; i < s->nparts; i++) {
			if (!s->part[i])
				continue;
			gl_buf_printf(b, "%s", n++ ? "," : "");
			status_json_session(b, s->part[i]);
		}
		gl_buf_printf(b, "]");
	}
	gl_buf_printf(b, "}");
}

/* gleamctl status --json: the same, and the sessions that ended lately. */
static void status_json(const struct client_role *cr, struct gl_buf *b)
{
	unsigned int n = MIN(cr->nended, (unsigned int)ENDED_MAX);
	struct cache_stats t = cache_sum(cr);
	bool first = true;

	gl_buf_printf(b, "{\"role\":\"client\",\"server\":\"%s\",\"servers\":[", cr->cfg->server);
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		const struct server *v = sched_server(i);

		if (!v || v->removed)
			continue;
		gl_buf_printf(b, "%s\"%s\"", first ? "" : ",", v->name);
		first = false;
	}
	gl_buf_printf(b, "],\"placement\":\"%s\",\"sessions_total\":%llu,\"sessions\":[",
		      sched_placement(), (unsigned long long)cr->sessions_total);
	first = true;
	for (struct csess *s = cr->sessions; s; s = s->next) {
		if (s->control || !s->local_hello)
			continue;
		gl_buf_printf(b, "%s", first ? "" : ",");
		status_json_session(b, s);
		first = false;
	}
	gl_buf_printf(b, "],\"ended\":[");
	for (unsigned int i = 0; i < n; i++) {
		const struct ended *e = &cr->ended[(cr->nended - n + i) % ENDED_MAX];

		gl_buf_printf(b, "%s{\"id\":%llu,\"program\":\"%s\",\"pid\":%d,\"via\":\"%s\",",
			      i ? "," : "", (unsigned long long)e->id, e->program, (int)e->pid, e->via);
		status_json_stats(b, &e->st);
		gl_buf_printf(b, ",\"payload\":%llu", (unsigned long long)e->st.payload);
		cache_json(b, &e->cache);
		gl_buf_printf(b, "}");
	}
	gl_buf_printf(b, "]");
	cache_json(b, &t);
	status_vgpu(cr, b, true);
	gl_buf_printf(b, "}\n");
}

static char *status(const struct client_role *cr, bool json)
{
	struct gl_buf b = { .max = GLEAM_CTL_REPLY_MAX };

	if (json)
		status_json(cr, &b);
	else
		status_text(cr, &b);
	return b.b;
}

/*
 * Whether a server may be reached without TLS: only on this machine, or
 * when told --insecure (Documentation/security.md).
 */
static bool plain_ok(const struct client_role *cr, const char *server)
{
	char host[256];

	return cr->tls || cr->cfg->insecure ||
	       (!gl_host_of(server, host, sizeof(host)) && gl_host_is_loopback(host));
}

/* A pin's vgpuN must be a node the module serves here ("socket" always is). */
static bool node_exists(const struct client_role *cr, const char *what, char *msg, size_t len)
{
	struct vgpu_node_status nodes[GLEAM_VGPU_MAX];
	struct vgpu_status st;
	unsigned long n;
	char *end;

	if (strncmp(what, "vgpu", 4))
		return true;
	n = strtoul(what + 4, &end, 10);
	vgpu_status(&cr->vgpu, &st, nodes, ARRAY_SIZE(nodes));
	if (!st.serving) {
		snprintf(msg, len, "no /dev/%.16s: this gleamd serves no /dev/vgpuN (%.64s)", what,
			 st.why[0] ? st.why : "no module");
		return false;
	}
	if (*end || n >= st.nr_vgpus) {
		snprintf(msg, len, "no /dev/%.16s: the module has %u node(s), vgpu0 to vgpu%d", what,
			 st.nr_vgpus, (int)st.nr_vgpus - 1);
		return false;
	}
	return true;
}

/* gleamctl stats, servers and assign: the scheduler's part. */
static char *sched_request(const struct client_role *cr, unsigned int op, const char *arg)
{
	char msg[320] = "", what[16], target[256], *r;
	int err = 0;

	switch (op) {
	case GLEAM_CTL_STATS:
	case GLEAM_CTL_STATS_JSON:
		return sched_stats(op == GLEAM_CTL_STATS_JSON);
	case GLEAM_CTL_SERVERS:
	case GLEAM_CTL_SERVERS_JSON:
		return sched_servers(op == GLEAM_CTL_SERVERS_JSON);
	case GLEAM_CTL_SERVER_ADD: {
		struct sockaddr_storage ss;
		socklen_t sl;

		/* What is wrong with the name first, then whether it may be reached. */
		err = gl_parse_hostport(arg, GLEAM_WIRE_PORT, &ss, &sl);
		if (err) {
			snprintf(msg, sizeof(msg), "server %.200s: %s", arg, gl_addr_strerror(err));
			break;
		}
		if (!plain_ok(cr, arg)) {
			err = -EACCES;
			snprintf(msg, sizeof(msg), "this gleamd has no credentials (tls-cert) to reach "
				 "a server on another machine");
			break;
		}
		err = sched_server_add(arg, msg, sizeof(msg));
		break;
	}
	case GLEAM_CTL_SERVER_REMOVE:
		err = sched_server_remove(arg, msg, sizeof(msg));
		break;
	case GLEAM_CTL_ASSIGN:
		if (sscanf(arg, "%15s %255s", what, target) != 2) {
			err = -EINVAL;
			snprintf(msg, sizeof(msg), "expected: vgpuN|socket SERVER[:GPU]");
		} else if (!node_exists(cr, what, msg, sizeof(msg))) {
			err = -ENODEV;
		} else {
			err = sched_assign(what, target, msg, sizeof(msg));
		}
		break;
	case GLEAM_CTL_ASSIGN_CLEAR:
		err = sched_assign_clear(arg, msg, sizeof(msg));
		break;
	}
	r = malloc(sizeof(msg) + 16);
	if (r)
		snprintf(r, sizeof(msg) + 16, "%s%s%s\n", err ? "error: " : "ok", !err && msg[0] ? ": " : "",
			 msg);
	return r;
}

/* Requests that change where sessions go: for administrators only. */
static bool changes_placement(unsigned int op)
{
	return op == GLEAM_CTL_SERVER_ADD || op == GLEAM_CTL_SERVER_REMOVE ||
	       op == GLEAM_CTL_ASSIGN || op == GLEAM_CTL_ASSIGN_CLEAR;
}

/*
 * Whether the peer of a local connection administers this gleamd: root,
 * the user it runs as, or a member of admin-group (by the kernel's word on
 * the peer: SO_PEERCRED, SO_PEERGROUPS).
 */
static bool local_admin(const struct client_role *cr, int fd, const struct ucred *cred)
{
	gid_t groups[256];
	socklen_t len = sizeof(groups);
	struct group *g;

	if (cred->uid == 0 || cred->uid == geteuid())
		return true;
	if (!cr->cfg->admin_group[0])
		return false;
	g = getgrnam(cr->cfg->admin_group);
	if (!g)
		return false;
	if (cred->gid == g->gr_gid)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len))
		return false;
	for (size_t i = 0; i < len / sizeof(groups[0]); i++)
		if (groups[i] == g->gr_gid)
			return true;
	return false;
}

/* One GPU of the answer below, and the processes of ours on it. */
static void gpus_add(const struct client_role *cr, struct gleam_ctl_gpus *h,
		     struct gleam_ctl_gpu *g, struct gleam_ctl_proc *p, unsigned int *np,
		     const struct server *v, unsigned int idx)
{
	struct gleam_ctl_gpu *o = &g[h->ngpus];

	memset(o, 0, sizeof(*o));
	snprintf(o->server, sizeof(o->server), "%.127s", v->name);
	snprintf(o->backend, sizeof(o->backend), "%s", v->info.backend);
	o->index = idx;
	o->info = v->gpus[idx].info;
	o->usage = v->gpus[idx].usage;
	o->nvml = v->gpus[idx].nvml;
	o->flags = (v->have_usage ? GLEAM_CTL_GPU_F_USAGE : 0) |
		   (v->have_nvml ? GLEAM_CTL_GPU_F_NVML : 0);
	for (struct csess *s = cr->sessions; s && *np < GLEAM_CTL_PROCS_MAX; s = s->next) {
		if (s->control || !s->local_hello || s->link || s->srv != v ||
		    (s->gpu >= 0 ? (unsigned int)s->gpu != idx : idx != 0))
			continue;
		p[*np].gpu = h->ngpus;
		p[*np].pid = (uint32_t)s->pid;
		snprintf(p[*np].program, sizeof(p[*np].program), "%s", s->program);
		(*np)++;
	}
	h->ngpus++;
}

/*
 * GLEAM_CTL_GPUS: the GPUs a new session of "VIA PROGRAM" would get now,
 * as its libcuda.so.1 will count them (the one GPU named, or all of its
 * server's), and the programs of this machine on them; malloc'd, *len.
 */
static char *gpus_reply(const struct client_role *cr, const char *arg, size_t *len)
{
	struct gleam_ctl_proc procs[GLEAM_CTL_PROCS_MAX];
	struct gleam_ctl_gpu *g;
	struct gleam_ctl_gpus *h;
	struct sched_choice c;
	char via[16] = "socket", prog[64] = "";
	unsigned int np = 0;
	const struct server *v;
	char *b = calloc(1, sizeof(*h) + GLEAM_GPUS_MAX * sizeof(*g) + sizeof(procs));

	if (!b)
		return NULL;
	h = (void *)b;
	g = (void *)(h + 1);
	h->magic = GLEAM_LOCAL_MAGIC;
	if (sscanf(arg, "%15s %63s", via, prog) < 1 || sched_refuse(via, h->why, sizeof(h->why))) {
		*len = sizeof(*h);
		return b;
	}
	sched_preview(prog, via, &c);
	v = c.srv;
	if (!v || !v->have_info) {
		snprintf(h->why, sizeof(h->why), "%.80s%s", v ? v->name : "no server",
			 v ? " has not said yet what GPUs it has" : "");
	} else if (c.gpu_named && c.gpu >= 0 && (unsigned int)c.gpu < v->info.ngpus) {
		gpus_add(cr, h, g, procs, &np, v, (unsigned int)c.gpu);
	} else {
		for (unsigned int i = 0; i < v->info.ngpus && i < GLEAM_GPUS_MAX; i++)
			gpus_add(cr, h, g, procs, &np, v, i);
	}
	if (v && v->have_info)
		h->driver_version = v->info.driver_version;
	h->nprocs = np;
	memcpy(g + h->ngpus, procs, np * sizeof(procs[0]));
	*len = sizeof(*h) + h->ngpus * sizeof(*g) + np * sizeof(procs[0]);
	return b;
}

static void control_request(struct csess *s, const struct gleam_ctl_req *req, size_t n)
{
	struct io_uring_sqe *sqe;
	bool binary = false;
	size_t len = 0;
	char *reply;

	/*
	 * One reply at a time: a peer that asks again before taking the last
	 * one reads none of them, and its reply buffer is still the kernel's.
	 */
	if (s->ctl_sending) {
		gl_err("control peer asks without reading the answers: closing it");
		bridge_close(&s->b);
		return;
	}
	if (n != sizeof(*req) || req->reserved0) {
		reply = strdup("error: malformed request\n");
	} else if (changes_placement(req->op) && !s->admin) {
		gl_err("uid %u (pid %d) may not change placement (root, this gleamd's user or "
		       "group %s may): refused", (unsigned int)s->uid, (int)s->pid,
		       s->cr->cfg->admin_group[0] ? s->cr->cfg->admin_group : "(none set)");
		reply = strdup("error: not allowed: only root, the user gleamd runs as and its "
			       "admin-group may change servers and placement\n");
	} else if (req->op == GLEAM_CTL_STATUS || req->op == GLEAM_CTL_STATUS_JSON) {
		reply = status(s->cr, req->op == GLEAM_CTL_STATUS_JSON);
	} else if (!memchr(req->arg, 0, sizeof(req->arg))) {
		reply = strdup("error: malformed request\n");
	} else if (req->op >= GLEAM_CTL_STATS && req->op <= GLEAM_CTL_ASSIGN_CLEAR) {
		reply = sched_request(s->cr, req->op, req->arg);
	} else if (req->op == GLEAM_CTL_GPUS) {
		reply = gpus_reply(s->cr, req->arg, &len);
		binary = true;
	} else {
		reply = strdup("error: unknown request\n");
	}
	if (!reply)
		return;
	if (!binary)
		len = strlen(reply);
	free(s->ctl_reply);
	s->ctl_reply = reply;
	s->ctl_reply_len = len;
	sqe = loop_sqe();
	io_uring_prep_send(sqe, s->b.bell, reply, len, MSG_NOSIGNAL);
	io_uring_sqe_set_data(sqe, &s->op_ctl_send);
	s->ctl_sending = true;
	s->b.inflight++;
}

/*
 * Where a new session goes: once, at its start, before anything of it has
 * crossed (Documentation/scheduler.md says why not later).
 */
static void place_on(struct csess *s, struct server *srv, int gpu)
{
	struct sched_choice c;

	sched_place_on(s->id, s->program, s->via, srv, gpu, &c);
	s->srv = c.srv;
	s->gpu = c.gpu;
	s->gpu_named = c.gpu_named;
	s->placed = c.srv != NULL;
	s->started_ns = gl_now_ns();
}

static void place(struct csess *s)
{
	place_on(s, NULL, -1);
}

/*
 * A socket session that cannot be served: its program is told why, in one
 * line that names the server (struct gleam_local_why), and its cuInit
 * fails at once.  /dev/vgpuN sessions only see the session end: the reason
 * is in this log.
 */
static void tell_app(struct csess *s, int err, const char *why)
{
	struct gleam_local_why w = { .magic = GLEAM_LOCAL_WHY_MAGIC, .status = err };

	gl_err("session %llu (%s, pid %d) not served: %s", (unsigned long long)s->id, s->program,
	       (int)s->pid, why);
	if (s->head)
		s = s->head;
	if (s->b.bell < 0 || s->b.ring_app || s->control)
		return;
	snprintf(w.msg, sizeof(w.msg), "%s", why);
	/* A small message on a local socket: it never blocks, and failing is harmless. */
	if (send(s->b.bell, &w, sizeof(w), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		gl_dbg("session %llu: its program is gone already", (unsigned long long)s->id);
}

/*
 * How long a hello waits for a counted-out server to be tried again: a
 * connection on a LAN is made or refused in milliseconds, a lookup and a
 * SYN to a host that is gone take longer.
 */
#define HELLO_HOLD_NS	1500000000ull

static void serve_hello(struct csess *s);

/* The first message on a local connection: a session or gleamctl. */
_Static_assert(sizeof(struct gleam_local_hello) <= sizeof(((struct bridge *)0)->bellbuf),
	       "the local hello fits the bell buffer");
static void local_hello(struct csess *s, int n)
{
	struct gleam_local_hello h;
	struct gleam_local_ack ack = { .magic = GLEAM_LOCAL_MAGIC };
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	unsigned int shift = s->cr->cfg->ring_shift, reply;
	char why[200];

	if (n != (int)sizeof(h)) {
		bridge_close(&s->b);
		return;
	}
	memcpy(&h, s->b.bellbuf, sizeof(h));
	if (h.magic != GLEAM_LOCAL_MAGIC || h.version != GLEAM_LOCAL_VERSION ||
	    h.reserved[0] || h.reserved[1] || (h.flags & ~GLEAM_LOCAL_F_KNOWN) ||
	    (h.kind != GLEAM_LOCAL_SESSION && h.kind != GLEAM_LOCAL_CONTROL)) {
		ack.status = -EPROTO;
		gl_send_fd(s->b.bell, &ack, sizeof(ack), -1);
		bridge_close(&s->b);
		return;
	}
	h.program[sizeof(h.program) - 1] = 0;
	/* Shown in text and JSON: keep it to harmless characters. */
	gl_harmless(h.program, false);
	snprintf(s->program, sizeof(s->program), "%s", h.program);
	if (!getsockopt(s->b.bell, SOL_SOCKET, SO_PEERCRED, &cred, &clen)) {
		s->pid = cred.pid;
		s->uid = cred.uid;
		s->admin = local_admin(s->cr, s->b.bell, &cred);
	}
	s->local_hello = true;
	if (h.kind == GLEAM_LOCAL_CONTROL) {
		s->control = true;
		return;
	}
	s->can_route = h.flags & GLEAM_LOCAL_F_ROUTE;
	if (h.flags & GLEAM_LOCAL_F_VISIBLE) {
		s->has_visible = true;
		memcpy(s->visible, h.visible, sizeof(s->visible));
		s->visible[sizeof(s->visible) - 1] = 0;
		gl_harmless(s->visible, false);
	}
	if (h.sq_shift)
		shift = MAX(22u, MIN(h.sq_shift, (unsigned int)GLEAM_RING_MAX_SHIFT));
	reply = shift;
	if (h.cq_shift)
		reply = MAX(22u, MIN(h.cq_shift, (unsigned int)GLEAM_RING_MAX_SHIFT));
	else if (!h.sq_shift && !s->cr->cfg->ring_shift_set && stripes_wanted())
		/*
		 * Striped replies are read into the reply ring at once, one
		 * piece of 1 MiB per stripe, and each keeps its room until
		 * the program has copied it out: 4 MiB holds no more than the
		 * stripes have in flight (Documentation/design.md, "Stripes").
		 */
		reply = MAX(shift, GL_RING_STRIPED_REPLY_SHIFT);
	s->ring_shift = shift;
	s->reply_shift = reply;
	if (sched_refuse(s->via, why, sizeof(why))) {
		sched_retry_now(s->via);
		s->held_until = gl_now_ns() + HELLO_HOLD_NS;
		return;
	}
	serve_hello(s);
}

/* Refuse a held hello: its program's cuInit fails with the reason. */
static void refuse_hello(struct csess *s, int err, const char *why)
{
	struct gleam_local_ack ack = { .magic = GLEAM_LOCAL_MAGIC, .status = err };

	s->held_until = 0;
	gl_send_fd(s->b.bell, &ack, sizeof(ack), -1);
	tell_app(s, ack.status, why);
	bridge_close(&s->b);
}

/*
 * Whether what a held hello waits for is there: the GPUs of the server it
 * would go to, where its CUDA_VISIBLE_DEVICES must be read against them.
 */
static bool info_known(struct csess *s)
{
	struct sched_choice c;

	if (!s->info_waited)
		return true;
	sched_preview(s->program, s->via, &c);
	return !c.srv || c.srv->have_info;
}

/* Held hellos: served once a server can be used, refused when the hold ends. */
static void held_hellos(struct client_role *cr, uint64_t now)
{
	char why[200];

	for (struct csess *s = cr->sessions; s; s = s->next) {
		if (!s->held_until || s->b.closing)
			continue;
		if (!sched_refuse(s->via, why, sizeof(why))) {
			if (!info_known(s) && now < s->held_until)
				continue;
			s->held_until = 0;
			serve_hello(s);
		} else if (now >= s->held_until) {
			refuse_hello(s, -EHOSTUNREACH, why);
		}
	}
}

/* The GPUs a program's CUDA_VISIBLE_DEVICES names on server srv; 0, or -errno with why. */
static int visible_gpus(struct csess *s, const struct server *srv, char *why, size_t len)
{
	int n = sched_visible(srv, s->via, s->visible, s->vgpus, GLEAM_HELLO_GPUS_MAX, why, len);

	s->nvisible = n > 0 ? (unsigned int)n : 0;
	/* The program's cuInit fails as the driver's would: no device, or an invalid one. */
	return n > 0 ? 0 : n == -2 ? -EINVAL : -ENODEV;
}

static struct csess *sess_new(struct client_role *cr);

/*
 * The head of a session over several servers: each record on the ring
 * goes, whole and once checked, to the ring of the part its route names
 * (the route word zeroed again, as the wire wants it).  A part's full
 * ring holds the rest back until that part has sent what it holds.
 */
static void split_once(struct csess *h)
{
	struct bridge *hb = &h->b;
	bool kick[GLEAM_LOCAL_ROUTES_MAX] = { false };
	unsigned int n = 0;
	const void *p;
	uint32_t len;

	while ((p = gl_ring_peek(hb->out_dir, sizeof(struct gleam_rec), GLEAM_REC_MAX, &len))) {
		uint32_t route = __atomic_load_n(&((const struct gleam_rec *)p)->reserved,
						 __ATOMIC_RELAXED);
		struct gl_ring_dir *to;
		struct gleam_rec *r;

		if (route >= h->nparts || !h->part[route] || h->part[route]->b.closing) {
			gl_err("session %llu (%s): a record for a connection it does not have (%u)",
			       (unsigned long long)h->id, h->program, route);
			hb->out_dir->broken = true;
			break;
		}
		to = &h->part[route]->feed.sq;
		r = gl_ring_reserve(to, len);
		if (!r) {
			gl_ring_prod_set_sleeping(to, true);
			if (!gl_ring_can_reserve(to, len)) {
				h->split_blocked = true;
				break;
			}
			gl_ring_prod_set_sleeping(to, false);
			continue;
		}
		/* One copy out of shared memory, then checks on the copy. */
		memcpy(r, p, len);
		r->len = len;
		r->reserved = 0;
		if (!bridge_header_ok(NULL, r, len, true)) {
			gl_err("session: malformed message from the ring (fn %u)", r->fn);
			hb->out_dir->broken = true;
			break;
		}
		gl_ring_commit(to);
		gl_ring_consume(hb->out_dir, len);
		kick[route] = true;
		n++;
	}
	if (hb->out_dir->broken) {
		bridge_close(hb);
		return;
	}
	if (n) {
		hb->last_active = gl_now_ns();
		loop_note_busy();
		if (gl_ring_consume_publish(hb->out_dir))
			bridge_ring_bell(hb);
	}
	for (unsigned int i = 0; i < h->nparts; i++) {
		struct csess *pt = h->part[i];

		/* Records to send, or replies that waited for room in the ring. */
		if (pt && (kick[i] || pt->b.in_blocked))
			bridge_kick(&pt->b);
	}
}

static void head_split(struct bridge *hb)
{
	struct csess *h = (struct csess *)hb;

	/* A part kicked from here may call back (its ring has room): once more, not deeper. */
	if (h->splitting) {
		h->split_again = true;
		return;
	}
	h->splitting = true;
	do {
		h->split_again = false;
		split_once(h);
	} while (h->split_again && !hb->closing);
	h->splitting = false;
}

/*
 * A part rings its program through its head: replies published in the
 * head's ring, or room made in its own ring that the head waited for.
 */
static void part_ring_app(struct bridge *b)
{
	struct csess *pt = (struct csess *)b, *h = pt->head;

	if (!h || h->b.closing)
		return;
	bridge_ring_bell(&h->b);
	if (h->split_blocked) {
		h->split_blocked = false;
		bridge_kick(&h->b);
	}
}

/*
 * The program's GPUs lie on the servers srv (n of them, device by device):
 * one part per server, each naming the session's whole list with the
 * other servers' devices as GLEAM_HELLO_GPU_ELSEWHERE; the ack tells the
 * program's shim each device's route.  0 or -errno.
 */
static unsigned int span_routes(struct server *const *srv, unsigned int n, struct server **by,
				struct gleam_local_ack *ack)
{
	unsigned int nby = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int r = 0;

		while (r < nby && by[r] != srv[i])
			r++;
		if (r == nby)
			by[nby++] = srv[i];
		ack->route[i] = (uint8_t)r;
	}
	return nby;
}

static int span_parts(struct csess *s, struct server *const *srv, const uint8_t *gpu,
		      unsigned int n, struct server *const *by, unsigned int nby)
{
	for (unsigned int r = 0; r < nby; r++) {
		struct csess *pt = sess_new(s->cr);
		unsigned int own = 0;
		int fd, err;

		if (!pt)
			return -ENOMEM;
		s->part[s->nparts++] = pt;
		pt->head = s;
		pt->pid = s->pid;
		pt->uid = s->uid;
		memcpy(pt->program, s->program, sizeof(pt->program));
		memcpy(pt->via, s->via, sizeof(pt->via));
		pt->srv = by[r];
		pt->started_ns = gl_now_ns();
		pt->nvisible = n;
		for (unsigned int i = 0; i < n; i++) {
			pt->vgpus[i] = srv[i] == by[r] ? gpu[i] : GLEAM_HELLO_GPU_ELSEWHERE;
			own += srv[i] == by[r];
		}
		pt->span = own < n;
		fd = gl_ring_memfd(s->ring_shift, s->ring_shift);
		if (fd < 0)
			return fd;
		err = gl_ring_map(fd, &pt->b.ring);
		if (!err)
			err = gl_ring_map(fd, &pt->feed);
		close(fd);
		if (err)
			return err;
		pt->b.in_dir = &s->b.ring.cq;
		pt->b.in_shared = true;
		pt->b.ring_app = part_ring_app;
	}
	return 0;
}

/* The ring, handed to the program with the ack: 0 or -errno (the session is closed). */
static int ring_ack(struct csess *s, struct gleam_local_ack *ack)
{
	int fd, err;

	fd = gl_ring_memfd(s->ring_shift, s->reply_shift);
	if (fd >= 0) {
		/* Sealed: the application cannot shrink it under gleamd. */
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
		err = gl_ring_map(fd, &s->b.ring);
	} else {
		err = fd;
	}
	ack->status = err;
	ack->region_size = err ? 0 : s->b.ring.region_size;
	ack->session_id = s->id;
	/* A tiny message on a local socket: it never blocks. */
	gl_send_fd(s->b.bell, ack, sizeof(*ack), err ? -1 : fd);
	if (fd >= 0)
		close(fd);
	if (err)
		bridge_close(&s->b);
	return err;
}

/*
 * A program whose CUDA_VISIBLE_DEVICES names, by UUID, GPUs of several
 * servers, or of another server than the scheduler's: its session gets a
 * part per server.  true: served (or refused) here.
 */
static void span_start(struct csess *s, struct server *const *srv, const uint8_t *gpu,
		       unsigned int n);

static bool serve_span(struct csess *s, struct server *first)
{
	struct server *srv[GLEAM_HELLO_GPUS_MAX];
	uint8_t gpu[GLEAM_HELLO_GPUS_MAX];
	bool other = false;
	char why[320];
	int n;

	if (!s->can_route || !strstr(s->visible, "GPU-"))
		return false;
	n = sched_visible_span(first, s->visible, srv, gpu, GLEAM_HELLO_GPUS_MAX, why, sizeof(why));
	if (n == -2) {
		refuse_hello(s, -EINVAL, why);
		return true;
	}
	for (int i = 0; i < n; i++)
		other |= srv[i] != first;
	/* Only where it names more than first alone would give it. */
	if (n <= 0 || (!other && (unsigned int)n <= s->nvisible))
		return false;
	span_start(s, srv, gpu, (unsigned int)n);
	return true;
}

/* The session's parts, one per server of its n devices, and its ack. */
static void span_start(struct csess *s, struct server *const *srv, const uint8_t *gpu,
		       unsigned int n)
{
	struct gleam_local_ack ack = { .magic = GLEAM_LOCAL_MAGIC };
	struct server *by[GLEAM_LOCAL_ROUTES_MAX];
	unsigned int nby;
	int err;

	nby = span_routes(srv, n, by, &ack);
	if (ring_ack(s, &ack) < 0)
		return;
	s->cr->sessions_total++;
	s->started_ns = gl_now_ns();
	err = span_parts(s, srv, gpu, n, by, nby);
	if (err) {
		tell_app(s, err, "cannot make the session's connections");
		bridge_close(&s->b);
		return;
	}
	s->b.split = head_split;
	s->b.hello_done = true;
	gl_info("session %llu: %s (pid %d, uid %u) to %u servers, %u GPUs", (unsigned long long)s->id,
		s->program, (int)s->pid, (unsigned int)s->uid, s->nparts, n);
	for (unsigned int i = 0; i < s->nparts; i++)
		start_connect(s->part[i]);
	/* Its ring is read from now: records wait in the parts' rings for their servers. */
	bridge_kick(&s->b);
}

/*
 * A pin of several GPUs (gleamctl assign): the session's devices are
 * those, in the pin's order, read through the program's
 * CUDA_VISIBLE_DEVICES.  On one server, one session as any other, given
 * that list; on several, a part per server.  true: served (or refused).
 */
static bool serve_pin_list(struct csess *s)
{
	struct server *srv[GLEAM_HELLO_GPUS_MAX];
	uint8_t gpu[GLEAM_HELLO_GPUS_MAX];
	bool one = true;
	char why[320];
	int n = sched_pin_list(s->via, s->has_visible ? s->visible : NULL, srv, gpu,
			       GLEAM_HELLO_GPUS_MAX, why, sizeof(why));

	if (!n)
		return false;
	/* A server reached a moment ago has not said yet what GPUs it has. */
	if (n == -1 && !s->info_waited) {
		s->info_waited = true;
		s->held_until = gl_now_ns() + HELLO_HOLD_NS;
		return true;
	}
	if (n < 0) {
		refuse_hello(s, n == -2 ? -EINVAL : -ENODEV, why);
		return true;
	}
	for (int i = 1; i < n; i++)
		one = one && srv[i] == srv[0];
	if (!one) {
		if (s->can_route)
			span_start(s, srv, gpu, (unsigned int)n);
		else
			refuse_hello(s, -ENOTSUP, "pinned to GPUs of several servers, and this "
				     "program's libcuda.so.1 cannot route records between them");
		return true;
	}
	memcpy(s->vgpus, gpu, (size_t)n);
	s->nvisible = (unsigned int)n;
	if (ring_ack(s, &(struct gleam_local_ack){ .magic = GLEAM_LOCAL_MAGIC }) < 0)
		return true;
	s->cr->sessions_total++;
	place_on(s, srv[0], gpu[0]);
	gl_info("session %llu: %s (pid %d, uid %u) to %s, %d pinned GPU(s)",
		(unsigned long long)s->id, s->program, (int)s->pid, (unsigned int)s->uid,
		s->srv ? s->srv->name : s->cr->cfg->server, n);
	start_connect(s);
	return true;
}

/* A program's session: its ring, the ack that hands it over, its server. */
static void serve_hello(struct csess *s)
{
	struct gleam_local_ack ack = { .magic = GLEAM_LOCAL_MAGIC };
	struct sched_choice c;
	char why[320];
	int err;

	if (serve_pin_list(s))
		return;
	/* A CUDA_VISIBLE_DEVICES that names no GPU: cuInit fails, as on the driver. */
	if (s->has_visible) {
		sched_preview(s->program, s->via, &c);
		/* A server reached a moment ago has not said yet what GPUs it has. */
		if (c.srv && !c.srv->have_info && !s->info_waited) {
			s->info_waited = true;
			s->held_until = gl_now_ns() + HELLO_HOLD_NS;
			return;
		}
		err = visible_gpus(s, c.srv, why, sizeof(why));
		/* UUIDs of other servers' GPUs: a session over several servers. */
		if (serve_span(s, c.srv))
			return;
		if (err) {
			refuse_hello(s, err, why);
			return;
		}
	}
	if (ring_ack(s, &ack) < 0)
		return;
	s->cr->sessions_total++;
	place(s);
	gl_info("session %llu: %s (pid %d, uid %u) to %s", (unsigned long long)s->id, s->program,
		(int)s->pid, (unsigned int)s->uid, s->srv ? s->srv->name : s->cr->cfg->server);
	/* Placed elsewhere than foreseen (rare: the load changed): read it again there. */
	if (s->has_visible && c.srv != s->srv && (err = visible_gpus(s, s->srv, why, sizeof(why)))) {
		tell_app(s, err, why);
		bridge_close(&s->b);
		return;
	}
	start_connect(s);
}

static void link_up(struct csess *s);
static bool resumed(struct csess *s, const struct gleam_hello_ack *ack);
static void open_stripes(struct csess *s);

/* What a server's refusal of a hello means, for the log. */
static const char *refusal(uint32_t status)
{
	switch (status) {
	case EUSERS:
		return "its limit of sessions is reached (max-sessions, max-sessions-tenant)";
	case EACCES:
		return "this identity is not allowed";
	default:
		return strerror((int)status);
	}
}

static const char *srv_name(const struct csess *s)
{
	if (s->nparts)
		return "several servers";
	return s->srv ? s->srv->name : s->cr->cfg->server;
}

/* A frame on a server's control connection; false closes it. */
static bool link_frame(struct csess *s, uint16_t type, const void *p, uint32_t len)
{
	struct server *v = s->link;
	struct gleam_hello_ack ack;
	uint64_t now = gl_now_ns();

	if (type == GLEAM_FRAME_HELLO_ACK && !s->link_up) {
		if (len != sizeof(ack))
			return false;
		memcpy(&ack, p, sizeof(ack));
		if (ack.status || ack.version != GLEAM_WIRE_VERSION) {
			snprintf(s->link_why, sizeof(s->link_why), "refused: %s",
				 strerror((int)ack.status));
			return false;
		}
		s->link_up = true;
		sched_link_up(v, s->b.tcp, now);
		return true;
	}
	if (!s->link_up) {
		snprintf(s->link_why, sizeof(s->link_why), "no hello answer");
		return false;
	}
	switch (type) {
	case GLEAM_FRAME_INFO:
		if (sched_on_info(v, p, len, now))
			return true;
		snprintf(s->link_why, sizeof(s->link_why), "malformed INFO");
		return false;
	case GLEAM_FRAME_PONG:
		sched_on_pong(v, p, len, now);
		return true;
	case GLEAM_FRAME_PING:
		v->last_heard = now;
		bridge_queue_frame(&s->b, GLEAM_FRAME_PONG, p, len == 8 ? 8 : 0);
		return true;
	default:
		snprintf(s->link_why, sizeof(s->link_why), "unexpected frame %u", type);
		return false;
	}
}

static bool client_on_frame(struct bridge *b, uint16_t type, const void *p, uint32_t len)
{
	struct csess *s = (struct csess *)b;
	struct gleam_hello_ack ack;

	if (s->link)
		return link_frame(s, type, p, len);
	switch (type) {
	case GLEAM_FRAME_HELLO_ACK:
		if (b->hello_done || len != sizeof(ack))
			return false;
		memcpy(&ack, p, sizeof(ack));
		if (ack.status) {
			/* The server still holds the old connection: a moment later. */
			if (b->token && ack.status == EAGAIN) {
				gl_dbg("session %llu: the server cannot take it up yet",
				       (unsigned long long)s->id);
				bridge_detach(b);
				return true;
			}
			if (!b->token) {
				/* The server's number: an errno, or nonsense said as EPROTO. */
				int e = ack.status < 4096 ? (int)ack.status : EPROTO;
				char why[320];

				snprintf(why, sizeof(why), "server %.128s refused the session: %s%s",
					 srv_name(s), refusal((uint32_t)e),
					 s->gpu_named && e == EINVAL ? " (the GPU named)" : "");
				tell_app(s, -e, why);
				return false;
			}
			gl_err("server refused to take the session up again: %s",
			       refusal(ack.status < 4096 ? ack.status : EPROTO));
			return false;
		}
		/* GLEAM_WIRE_F_GPU comes back where the server honours the GPU named. */
		if (ack.version != GLEAM_WIRE_VERSION ||
		    (ack.features & ~(GLEAM_WIRE_F_KNOWN | GLEAM_WIRE_F_GPU | GLEAM_WIRE_F_GPUS |
				      GLEAM_WIRE_F_SPAN)))
			return false;
		if (b->token)
			return resumed(s, &ack);
		link_up(s);
		if (s->srv)
			sched_heard(s->srv, gl_now_ns());
		b->restartable = false;
		if (ack.features & GLEAM_WIRE_F_RESUME) {
			if (!ack.resume_token)
				return false;
			b->resumable = true;
			b->token = ack.resume_token;
		}
		s->server_session = ack.session_id;
		/* Counters from here: what the link carries for this session. */
		if (s->srv)
			link_sample_tcp(&s->srv->link, b->tcp, &s->tcp, gl_now_ns());
		/* The link's rate, for naming and packing, is the server's: sessions share it. */
		b->linkp = s->srv ? &s->srv->send_link : NULL;
		/* Uploads are named once the server's CACHE_INFO says how. */
		if (ack.features & GLEAM_WIRE_F_CACHE) {
			b->cc = ccache_new(ack.features & GLEAM_WIRE_F_PROVE);
			if (!b->cc)
				return false;
		}
		/* Uploads are packed where that sends them sooner (GLEAM_COMPRESS). */
		if (ack.features & GLEAM_WIRE_F_PACK) {
			if (bridge_pack_start(b))
				return false;
			b->link_pack = s->srv ? s->srv->pack : NULL;
		}
		b->hello_done = true;
		/* Large messages go on further connections too, once the server takes them. */
		if ((ack.features & GLEAM_WIRE_F_STRIPE) && b->resumable && !b->in_shared &&
		    (!b->tls || (ack.features & GLEAM_WIRE_F_STRIPE_TLS)) &&
		    !stripes_init(b, stripes_wanted()))
			open_stripes(s);
		return true;
	case GLEAM_FRAME_STRIPE_UP:
		return stripes_up(b, p, len);
	case GLEAM_FRAME_CACHE_INFO:
		return ccache_info(b, p, len);
	case GLEAM_FRAME_CACHE_HAVE:
		return ccache_have(b, p, len);
	case GLEAM_FRAME_PING:
		bridge_queue_frame(b, GLEAM_FRAME_PONG, p, len == 8 ? 8 : 0);
		return true;
	case GLEAM_FRAME_PONG:
		return true;
	case GLEAM_FRAME_ERROR:
		if (len >= sizeof(struct gleam_wire_error)) {
			const struct gleam_wire_error *e = p;
			char msg[4 * sizeof(e->msg) + 1];

			gl_escape(msg, sizeof(msg), e->msg, sizeof(e->msg));
			gl_err("server: %s", msg);
		}
		return false;
	case GLEAM_FRAME_BYE:
		return false;
	default:
		gl_err("server sent an unexpected frame (type %u)", type);
		return false;
	}
}

/*
 * The next attempt to reach the server: 0.1 s after the drop, then
 * doubling to at most 1 s apart, whatever the last one met: a session
 * comes back within about a second of its link.
 */
static void retry_later(struct csess *s)
{
	uint64_t wait = 100000000ull << MIN(s->tries, 4u);

	s->tried_at = 0;
	s->try_at = gl_now_ns() + MIN(wait, 1000000000ull);
	if (s->b.tcp >= 0 && !s->b.recving && !s->b.sending && !s->connecting)
		bridge_drop_tcp(&s->b);
}

/*
 * Whatever ended the session's connection (a close without a goodbye, a
 * reset, an error, a silence) or the attempt to take it up (refused,
 * closed again at once, unanswered), the bridge detached it: the next
 * attempt is due after a pause, until the grace period ends (take_up).
 * Only a goodbye or a refusal from the server ends the session sooner.
 */
static void relink(struct csess *s)
{
	if (s->b.closing || s->link || !s->b.detached || s->try_at || s->connecting)
		return;
	if (s->b.token || s->b.restartable)
		retry_later(s);
}

/* The server answered a hello: the session is up, and a later drop starts afresh. */
static void link_up(struct csess *s)
{
	s->tried_at = 0;
	s->try_at = 0;
	s->tries = 0;
	s->b.detached_at = 0;
}

/* The session's stripes, to the server its connection goes to. */
static void open_stripes(struct csess *s)
{
	const struct sockaddr_storage *to = s->srv ? &s->srv->addr : &s->cr->server;
	socklen_t tolen = s->srv ? s->srv->addrlen : s->cr->server_len;
	char host[256] = "";

	/* Over TLS each stripe checks the server's certificate as the session's connection did. */
	if (s->b.tls && gl_host_of(srv_name(s), host, sizeof(host)))
		return;
	stripes_open(&s->b, (const struct sockaddr *)to, tolen, s->b.tls ? s->cr->tls : NULL, host);
}

/* The server's answer to a RESUME: it has the session, and took so many records. */
static bool resumed(struct csess *s, const struct gleam_hello_ack *ack)
{
	struct bridge *b = &s->b;
	uint64_t away = gl_now_ns() - b->detached_at;

	if (!gl_secret_eq(&ack->resume_token, &b->token, sizeof(b->token)) ||
	    !bridge_reattach(b, b->tcp, ack->resume_count)) {
		gl_err("server: an answer that does not fit the session");
		return false;
	}
	gl_info("session %llu (%s) taken up again after %.1f s, %u attempt(s)",
		(unsigned long long)s->id, s->program, (double)away / 1e9, s->tries);
	link_up(s);
	if (b->cc)
		ccache_resumed(b);
	open_stripes(s);
	return true;
}

/*
 * TLS on a connection just made, where this gleamd has credentials: the
 * server's certificate must name the host it was reached by.  0 or -errno.
 */
static int start_tls(struct csess *s)
{
	char host[256];

	if (!s->cr->tls) {
		if (plain_ok(s->cr, srv_name(s)))
			return 0;
		gl_err("server %s is not on this machine, and this gleamd has no credentials "
		       "(tls-cert) or --insecure: not reaching it", srv_name(s));
		return -EACCES;
	}
	if (gl_host_of(srv_name(s), host, sizeof(host)))
		return -EINVAL;
	return bridge_tls_start(&s->b, s->cr->tls, false, host);
}

/* A server's control connection is connected, or failed to. */
static void link_connected(struct csess *s, int res)
{
	struct gleam_hello h = { .version = GLEAM_WIRE_VERSION, .min_version = GLEAM_WIRE_VERSION,
				 .features = GLEAM_WIRE_F_USAGE | GLEAM_WIRE_F_NVML,
				 .kind = GLEAM_HELLO_CONTROL,
				 .pid = (uint32_t)getpid() };

	if (res < 0 || start_tls(s)) {
		snprintf(s->link_why, sizeof(s->link_why), "%s", res < 0 ? strerror(-res) :
			 "cannot start TLS");
		bridge_close(&s->b);
		return;
	}
	gethostname(h.client, sizeof(h.client) - 1);
	snprintf(h.program, sizeof(h.program), "gleamd");
	bridge_queue_frame(&s->b, GLEAM_FRAME_HELLO, &h, sizeof(h));
	bridge_kick(&s->b);
}

static void on_connect(struct csess *s, int res)
{
	struct gleam_hello h = { .version = GLEAM_WIRE_VERSION, .min_version = GLEAM_WIRE_VERSION,
				 .features = GLEAM_WIRE_F_KNOWN & ~GLEAM_WIRE_F_GPU,
				 .kind = GLEAM_HELLO_SESSION, .pid = (uint32_t)s->pid, .uid = s->uid };

	s->connecting = false;
	if (s->link) {
		link_connected(s, res);
		return;
	}
	/*
	 * The GPUs the program named, else the GPU the scheduler chose, named
	 * only in the first hello: a resume keeps them.
	 */
	if (s->nvisible > 1 && !s->b.token) {
		h.features |= GLEAM_WIRE_F_GPUS | (s->span ? GLEAM_WIRE_F_SPAN : 0);
		h.gpu = s->nvisible;
		memcpy(h.gpus, s->vgpus, s->nvisible);
	} else if ((s->nvisible == 1 || s->gpu_named) && !s->b.token) {
		h.features |= GLEAM_WIRE_F_GPU;
		h.gpu = s->nvisible ? s->vgpus[0] : (uint32_t)s->gpu;
	}
	if (s->cr->cfg->no_cache)
		h.features &= ~(GLEAM_WIRE_F_CACHE | GLEAM_WIRE_F_PROVE);
	if (!s->cr->cfg->resume_s)
		h.features &= ~GLEAM_WIRE_F_RESUME;
	if (!pack_wanted())
		h.features &= ~GLEAM_WIRE_F_PACK;
	/* Stripes: in resumable sessions (what was sent is kept until taken). */
	if (!stripes_wanted() || !s->cr->cfg->resume_s || s->b.in_shared)
		h.features &= ~(GLEAM_WIRE_F_STRIPE | GLEAM_WIRE_F_STRIPE_TLS);
	if (res < 0) {
		if (!s->b.token && !s->b.restartable) {
			char why[200];

			snprintf(why, sizeof(why), "cannot connect to server %.128s: %s", srv_name(s),
				 strerror(-res));
			tell_app(s, res, why);
			bridge_close(&s->b);
			return;
		}
		/* As for a dropped session: the program sees a delay, not an error. */
		if (!s->b.detached_at)
			gl_err("cannot connect to server %s: %s; trying again for %u s",
			       srv_name(s), strerror(-res), s->cr->cfg->resume_s);
		else
			gl_dbg("session %llu: server %s still unreachable: %s",
			       (unsigned long long)s->id, srv_name(s), strerror(-res));
		bridge_detach(&s->b);
		retry_later(s);
		/* Its program may end meanwhile: the bell socket is watched. */
		bridge_kick(&s->b);
		return;
	}
	if (start_tls(s)) {
		bridge_close(&s->b);
		return;
	}
	if (s->b.token) {
		/* The same session, taken up again: the server says what it has. */
		h.kind = GLEAM_HELLO_RESUME;
		h.resume_token = s->b.token;
		h.resume_count = s->b.in_count;
	}
	s->b.detached = false;
	gethostname(h.client, sizeof(h.client) - 1);
	snprintf(h.program, sizeof(h.program), "%s", s->program);
	bridge_queue_frame(&s->b, GLEAM_FRAME_HELLO, &h, sizeof(h));
	bridge_kick(&s->b);
}

/* A session with its buffers, on the list; NULL with nothing allocated. */
static void on_held(struct bridge *b, const struct chunk_name *name, uint32_t len);

static const struct bridge_ops client_bridge_ops = {
	.on_frame = client_on_frame,
	.on_held = on_held,
};

static struct csess *sess_new(struct client_role *cr)
{
	struct csess *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	bridge_init(&s->b, true, s, &client_bridge_ops);
	s->op_ctl_send = (struct op){ OP_CTL_SEND, s };
	s->b.obuf = malloc(GLEAM_FRAME_MAX + 64);
	s->b.ocap = GLEAM_FRAME_MAX + 64;
	s->b.ibuf = malloc(2 * (GLEAM_FRAME_MAX + 64));
	s->b.icap = 2 * (GLEAM_FRAME_MAX + 64);
	if (!s->b.obuf || !s->b.ibuf) {
		free(s->b.obuf);
		free(s->b.ibuf);
		free(s);
		return NULL;
	}
	s->cr = cr;
	s->id = ++cr->next_id;
	s->gpu = -1;
	s->started = time(NULL);
	snprintf(s->via, sizeof(s->via), "socket");
	s->next = cr->sessions;
	cr->sessions = s;
	return s;
}

static void on_accept(struct client_role *cr, int fd)
{
	struct csess *s;

	post_accept(cr);
	if (fd < 0)
		return;
	s = sess_new(cr);
	if (!s) {
		close(fd);
		return;
	}
	s->b.bell = fd;
	/* The hello arrives through the bell receive. */
	bridge_kick(&s->b);
}

/* "vgpuN", in buf. */
static const char *vgpu_via(unsigned int vgpu, char *buf, size_t len)
{
	snprintf(buf, len, "vgpu%u", vgpu);
	return buf;
}

/* The bridge's doorbell for a /dev/vgpuN session: a kick by session id. */
static void ring_vgpu_app(struct bridge *b)
{
	vgpu_ring(&((struct csess *)b)->vl);
}

/*
 * A /dev/vgpuN pinned to several GPUs: its session's devices, which must
 * lie on one server (the module's ring has no routes).  0, or -errno
 * with why.
 */
static int vgpu_pin_list(const char *via, uint8_t *gpu, char *why, size_t len)
{
	struct server *srv[GLEAM_HELLO_GPUS_MAX];
	int n = sched_pin_list(via, NULL, srv, gpu, GLEAM_HELLO_GPUS_MAX, why, len);

	if (n < 0)
		return -ENODEV;
	for (int i = 1; i < n; i++) {
		if (srv[i] != srv[0]) {
			snprintf(why, len, "pinned to GPUs of several servers: a /dev/vgpuN "
				 "session stays on one");
			return -ENOTSUP;
		}
	}
	return n;
}

static int vgpu_session(void *role, struct gl_ring *ring, uint64_t id, unsigned int vgpu,
			pid_t pid, uid_t uid, const char *program)
{
	struct client_role *cr = role;
	uint8_t gpu[GLEAM_HELLO_GPUS_MAX];
	struct csess *s;
	char via[16], why[200];
	int n;

	/* Nowhere to go: the session ends at once, its program's calls fail. */
	if (sched_refuse(vgpu_via(vgpu, via, sizeof(via)), why, sizeof(why)) ||
	    (n = vgpu_pin_list(via, gpu, why, sizeof(why))) < 0) {
		gl_err("/dev/vgpu%u session of %s (pid %d) not served: %s", vgpu, program, (int)pid,
		       why);
		return -EHOSTUNREACH;
	}
	s = sess_new(cr);
	if (!s)
		return -ENOMEM;
	s->b.ring = *ring;
	s->b.ring_app = ring_vgpu_app;
	s->vl.id = id;
	s->vl.vgpu = vgpu;
	vgpu_link_add(&cr->vgpu, &s->vl);
	s->pid = pid;
	s->uid = uid;
	snprintf(s->program, sizeof(s->program), "%s", program);
	snprintf(s->via, sizeof(s->via), "vgpu%u", vgpu);
	s->local_hello = true;
	memcpy(s->vgpus, gpu, (size_t)n);
	s->nvisible = (unsigned int)n;
	cr->sessions_total++;
	place(s);
	gl_info("session %llu: %s (pid %d, uid %u) on /dev/vgpu%u to %s", (unsigned long long)s->id,
		s->program, (int)s->pid, (unsigned int)s->uid, vgpu,
		s->srv ? s->srv->name : cr->cfg->server);
	start_connect(s);
	/* A connection that could not even start leaves nothing in flight. */
	sess_maybe_free(s);
	return 0;
}

static struct csess *vl_sess(struct vgpu_link *l)
{
	return (struct csess *)((char *)l - offsetof(struct csess, vl));
}

static void vgpu_rung(struct vgpu_link *l)
{
	struct csess *s = vl_sess(l);

	/* As a bell on the socket: the application published or made room. */
	gl_ring_cons_set_sleeping(s->b.out_dir, false);
	bridge_kick(&s->b);
	sess_maybe_free(s);
}

static void vgpu_end(struct vgpu_link *l)
{
	struct csess *s = vl_sess(l);

	/* Closing the connection ends the server's session and its worker. */
	bridge_close(&s->b);
	sess_maybe_free(s);
}

static const struct vgpu_ops client_vgpu_ops = {
	.session = vgpu_session,
	.rung = vgpu_rung,
	.end = vgpu_end,
};

/* The flush timer runs only while some session is being polled. */
static void arm_timer(struct client_role *cr)
{
	bool any = false;

	if (cr->timer_armed)
		return;
	for (struct csess *s = cr->sessions; s && !any; s = s->next)
		any = s->b.polling;
	if (!any)
		return;
	loop_timer(&cr->tick, &cr->op_timer, &cr->timer_armed);
}

/* Names computed on the hashing threads wake the loop through their eventfd. */
static void arm_hash(struct client_role *cr)
{
	struct io_uring_sqe *sqe;
	int fd = ccache_pool_fd();

	if (cr->hash_armed || fd < 0)
		return;
	sqe = loop_sqe();
	io_uring_prep_read(sqe, fd, &cr->hash_buf, sizeof(cr->hash_buf), 0);
	io_uring_sqe_set_data(sqe, &cr->op_hash);
	cr->hash_armed = true;
}

static void on_hash(struct client_role *cr)
{
	struct csess *s, *next;

	cr->hash_armed = false;
	sess_for_each_safe(s, next, cr->sessions) {
		if (s->b.cc && !s->b.closing)
			bridge_kick(&s->b);
		sess_maybe_free(s);
	}
}

/*
 * An attempt that meets no answer at all (a connect that hangs, a hello
 * held somewhere) fails as one refused would, after the keepalive time.
 */
static void give_up_attempt(struct csess *s, uint64_t now)
{
	struct io_uring_sqe *sqe;

	gl_dbg("session %llu: no answer from server %s: trying again", (unsigned long long)s->id,
	       srv_name(s));
	if (!s->b.detached_at)
		s->b.detached_at = s->tried_at;
	if (s->connecting) {
		/* The connect ends with -ECANCELED; on_connect() fails the attempt. */
		sqe = loop_sqe();
		io_uring_prep_cancel(sqe, &s->b.op_connect, 0);
		io_uring_sqe_set_data(sqe, NULL);
		s->tried_at = now;
		return;
	}
	bridge_detach(&s->b);
	retry_later(s);
}

/*
 * A session whose connection dropped, or that has not reached its server
 * yet: an attempt when one is due, until the grace period ends; then the
 * session ends and its program's calls fail.
 */
static void take_up(struct csess *s, uint64_t now)
{
	const struct config *cfg = s->cr->cfg;
	uint64_t limit = (uint64_t)MAX(cfg->keepalive_s, 1u) * 1000000000ull;

	char why[200];

	if (s->b.detached_at && now - s->b.detached_at > (uint64_t)cfg->resume_s * 1000000000ull) {
		gl_err("session %llu (%s): server %s not back in %u s: ending the session",
		       (unsigned long long)s->id, s->program, srv_name(s), cfg->resume_s);
		if (!s->b.token) {
			snprintf(why, sizeof(why), "server %.128s not reached in %u s", srv_name(s),
				 cfg->resume_s);
			tell_app(s, -ETIMEDOUT, why);
		}
		bridge_close(&s->b);
		return;
	}
	if (s->tried_at) {
		if (now - s->tried_at > limit)
			give_up_attempt(s, now);
		return;
	}
	if (!s->b.detached || !s->try_at || now < s->try_at)
		return;
	/* The dropped connection's last operations complete first, its stripes' too. */
	if (s->b.tcp >= 0 || s->b.recving || s->b.sending || !stripes_idle(&s->b))
		return;
	s->try_at = 0;
	s->tries++;
	/*
	 * A session not yet begun may begin elsewhere: its server may be the
	 * one gone.  Not a part: its GPUs are the ones the program named.
	 */
	if (!s->b.token && !s->head) {
		/* Unless there is nowhere to go: then its program is told now. */
		if (sched_refuse(s->via, why, sizeof(why))) {
			tell_app(s, -EHOSTUNREACH, why);
			bridge_close(&s->b);
			return;
		}
		if (s->placed) {
			struct sched_run none = { .program = s->program, .id = s->id };

			sched_session_end(s->srv, s->gpu, &none);
		}
		place(s);
	}
	start_connect(s);
}

/* Once a second: quiet servers are pinged, silent ones given up. */
static void arm_keepalive(struct client_role *cr)
{
	if (cr->cfg->keepalive_s)
		loop_timer(&cr->second, &cr->op_keepalive, &cr->keepalive_armed);
}

static void on_keepalive(struct client_role *cr)
{
	uint64_t now = gl_now_ns();
	struct csess *s, *next;

	cr->keepalive_armed = false;
	sess_for_each_safe(s, next, cr->sessions) {
		/* A part whose head's ring is full: room may have come without a bell. */
		if (s->head && s->b.in_blocked)
			bridge_kick(&s->b);
		if (!s->control && ((s->local_hello && !s->nparts) || s->head) &&
		    !bridge_keepalive(&s->b, now, cr->cfg->keepalive_s))
			gl_err("session %llu (%s): server %s unreachable", (unsigned long long)s->id,
			       s->program, srv_name(s));
		/* A session's connection that hears its server: the server is there. */
		if (s->srv && !s->link && s->b.hello_done && !s->b.detached && s->b.tcp >= 0 &&
		    now - MIN(s->b.last_rx, now) < 2000000000ull)
			sched_heard(s->srv, now);
		relink(s);
		sess_maybe_free(s);
	}
}

/* ---- the servers' control connections, for the scheduler ---- */

/* Control frames are small: a session's 8 and 16 MiB buffers would be waste. */
#define LINK_OBUF	(64U << 10)
#define LINK_IBUF	(1U << 20)

static void link_connect(void *role, struct server *v)
{
	struct client_role *cr = role;
	struct csess *s = sess_new(cr);

	if (s) {
		free(s->b.obuf);
		free(s->b.ibuf);
		s->b.obuf = malloc(LINK_OBUF);
		s->b.ocap = LINK_OBUF;
		s->b.ibuf = malloc(LINK_IBUF);
		s->b.icap = LINK_IBUF;
	}
	if (!s || !s->b.obuf || !s->b.ibuf) {
		if (s)
			bridge_close(&s->b), sess_maybe_free(s);
		sched_link_down(v, "out of memory", gl_now_ns());
		return;
	}
	/* Not a session: it takes no session number. */
	s->id = 0;
	cr->next_id--;
	s->link = v;
	s->srv = v;
	snprintf(s->program, sizeof(s->program), "(control)");
	snprintf(s->via, sizeof(s->via), "control");
	v->conn = s;
	start_connect(s);
	sess_maybe_free(s);
}

static void link_send(void *role, struct server *v, uint16_t type, const void *p, uint32_t len)
{
	struct csess *s = v->conn;

	if (s && !s->b.closing)
		bridge_queue_frame(&s->b, type, p, len);
}

static void link_drop(void *role, struct server *v, const char *why)
{
	struct csess *s = v->conn;

	if (!s)
		return;
	snprintf(s->link_why, sizeof(s->link_why), "%s", why);
	bridge_close(&s->b);
	sess_maybe_free(s);
}

static const struct sched_ops link_ops = {
	.connect = link_connect,
	.send = link_send,
	.drop = link_drop,
};

/*
 * Eight times a second: the scheduler's questions to each server, and what
 * the kernel says of every connection to it (TCP_INFO).
 */
static void on_sched(struct client_role *cr)
{
	uint64_t now = gl_now_ns();
	struct csess *s, *next;

	cr->sched_armed = false;
	/* Stopping: no new connection to any server. */
	if (g_loop.quit)
		return;
	held_hellos(cr, now);
	/* Sessions reaching their server: on this tick, so that attempts come on time. */
	sess_for_each_safe(s, next, cr->sessions) {
		if (!s->link && !s->b.closing && (s->b.token || s->b.restartable))
			take_up(s, now);
		sess_maybe_free(s);
	}
	for (s = cr->sessions; s; s = s->next) {
		if (!s->srv || s->b.tcp < 0 || s->b.closing || s->b.detached)
			continue;
		if (s->link && s->link_up)
			link_sample_tcp(&s->srv->link, s->b.tcp, &s->srv->ctl_tcp, now);
		else if (!s->link && s->b.hello_done)
			link_sample_tcp(&s->srv->link, s->b.tcp, &s->tcp, now);
	}
	sched_tick(&link_ops, cr, now);
}

static void arm_sched(struct client_role *cr)
{
	loop_timer(&cr->eighth, &cr->op_sched, &cr->sched_armed);
}

/* An upload the session's server now holds: the scheduler's, and the program's. */
static void on_held(struct bridge *b, const struct chunk_name *name, uint32_t len)
{
	struct csess *s = (struct csess *)b;

	if (!s->srv || s->link)
		return;
	sched_held(s->srv, name, len);
	if (s->nnames == s->capnames) {
		uint32_t cap = s->capnames ? 2 * s->capnames : 64;
		struct chunk_name *n;
		uint32_t *l;

		if (cap > SCHED_PROG_NAMES_MAX)
			return;
		n = realloc(s->names, cap * sizeof(*n));
		if (n)
			s->names = n;
		l = n ? realloc(s->lens, cap * sizeof(*l)) : NULL;
		if (!l)
			return;
		s->lens = l;
		s->capnames = cap;
	}
	s->names[s->nnames] = *name;
	s->lens[s->nnames++] = len;
}

static void on_tick(struct client_role *cr)
{
	uint64_t now = gl_now_ns();
	struct csess *s, *next;

	cr->timer_armed = false;
	sess_for_each_safe(s, next, cr->sessions) {
		bridge_tick(&s->b, now);
		sess_maybe_free(s);
	}
}

/* While the loop spins: move what every live session's rings hold. */
static void poll_all(void *role)
{
	struct client_role *cr = role;
	struct csess *s, *next;

	sess_for_each_safe(s, next, cr->sessions) {
		if (s->control || !s->b.ring.base || !s->b.hello_done || s->b.closing)
			continue;
		bridge_kick(&s->b);
		sess_maybe_free(s);
	}
}

static void on_cqe(struct client_role *cr, struct io_uring_cqe *cqe)
{
	struct op *op = io_uring_cqe_get_data(cqe);
	struct csess *s;

	if (!op)
		return;
	if (op == &cr->op_sched) {
		on_sched(cr);
		return;
	}
	if (op->type == OP_METRICS) {
		metrics_complete(op, cqe->res);
		return;
	}
	if (op->type == OP_ACCEPT) {
		on_accept(cr, cqe->res);
		return;
	}
	if (op->type == OP_TIMER) {
		on_tick(cr);
		return;
	}
	if (op->type == OP_HASH) {
		on_hash(cr);
		return;
	}
	if (op->type == OP_KEEPALIVE) {
		on_keepalive(cr);
		return;
	}
	if (op->type == OP_VGPU) {
		vgpu_complete(op, cqe->res);
		return;
	}
	s = op->owner;
	if (op->type == OP_CONNECT) {
		s->b.inflight--;
		if (!s->b.closing)
			on_connect(s, cqe->res);
	} else if (op->type == OP_CTL_SEND) {
		s->b.inflight--;
		s->ctl_sending = false;
		/* A reply that could not go out whole ends the connection. */
		if (cqe->res < 0 || (s->ctl_reply && (size_t)cqe->res < s->ctl_reply_len))
			bridge_close(&s->b);
	} else if (op->type == OP_BELL_RECV && (!s->local_hello || s->control || s->held_until)) {
		s->b.inflight--;
		s->b.bell_recving = false;
		/* A held hello's program says nothing until answered: it left. */
		if (cqe->res <= 0 || s->held_until)
			bridge_close(&s->b);
		else if (!s->local_hello)
			local_hello(s, cqe->res);
		else
			control_request(s, (const void *)s->b.bellbuf, (size_t)cqe->res);
		/*
		 * Control connections only ever receive requests; a held hello
		 * listens for its program leaving.  A hello served later finds
		 * the receive in flight and leaves it to the bridge.
		 */
		if (!s->b.closing && (s->control || !s->local_hello || s->held_until)) {
			s->b.bell_recving = false;
			struct io_uring_sqe *sqe = loop_sqe();

			io_uring_prep_recv(sqe, s->b.bell, s->b.bellbuf, sizeof(s->b.bellbuf), 0);
			io_uring_sqe_set_data(sqe, &s->b.op_bell_recv);
			s->b.bell_recving = true;
			s->b.inflight++;
		}
	} else if (!bridge_complete(&s->b, op, cqe->res)) {
		bridge_close(&s->b);
	}
	relink(s);
	sess_maybe_free(s);
}

/*
 * Asked to stop: every session says goodbye, so that its server ends it now
 * instead of keeping it for the grace period; its program's calls fail, as
 * they would if this gleamd had died.
 */
static void quit(struct client_role *cr)
{
	struct csess *s, *next;

	if (!cr->said_stopping)
		gl_notify("STOPPING=1");
	cr->said_stopping = true;
	sess_for_each_safe(s, next, cr->sessions) {
		bridge_close(&s->b);
		sess_maybe_free(s);
	}
	if (loop_quit_done(cr->sessions != NULL))
		g_loop.stop = true;
}

/* ---- metrics (--metrics ADDR, Documentation/metrics.md) ---- */

/* One link's counters: its ended sessions' and its live ones'. */
static void link_stats(const struct client_role *cr, const struct server *v, struct sess_stats *t,
		       uint64_t *n)
{
	const struct sess_stats *d = metrics_link_done(v->name, n);

	memset(t, 0, sizeof(*t));
	if (d)
		*t = *d;
	for (struct csess *s = cr->sessions; s; s = s->next) {
		if (s->control || s->link || !s->local_hello || s->srv != v)
			continue;
		sess_count(s);
		t->records += s->b.st.records;
		t->replies += s->b.st.replies;
		t->batches += s->b.st.batches;
		t->bytes_out += s->b.st.bytes_out;
		t->bytes_in += s->b.st.bytes_in;
		t->waits += s->b.st.waits;
		t->waits_made += s->b.st.waits_made;
		t->waits_required += s->b.st.waits_required;
		(*n)++;
	}
}

static const struct {
	const char *name, *help;
	size_t off;
} link_counters[] = {
	{ "gleam_link_sessions", "sessions placed on the server", 0 },
	{ "gleam_records", "records sent", offsetof(struct sess_stats, records) },
	{ "gleam_batches", "batches of records sent", offsetof(struct sess_stats, batches) },
	{ "gleam_round_trips", "records that waited for their reply",
	  offsetof(struct sess_stats, waits) },
	{ "gleam_waits_made", "calls that waited, as the programs' libcuda.so.1 counted",
	  offsetof(struct sess_stats, waits_made) },
	{ "gleam_waits_required", "calls CUDA's rules make wait",
	  offsetof(struct sess_stats, waits_required) },
	{ "gleam_sent_bytes", "bytes sent, frames included", offsetof(struct sess_stats, bytes_out) },
	{ "gleam_received_bytes", "bytes received, frames included",
	  offsetof(struct sess_stats, bytes_in) },
};

static void collect_links(const struct client_role *cr, struct gl_buf *m)
{
	uint64_t now = gl_now_ns();

	for (size_t k = 0; k < ARRAY_SIZE(link_counters); k++) {
		char total[64];

		mb_family(m, link_counters[k].name, "counter", NULL, link_counters[k].help);
		snprintf(total, sizeof(total), "%s_total", link_counters[k].name);
		for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
			const struct server *v = sched_server(i);
			struct sess_stats t;
			uint64_t n;

			if (!v)
				continue;
			link_stats(cr, v, &t, &n);
			mb_sample(m, total, (double)(k ? *(const uint64_t *)((const char *)&t +
							link_counters[k].off) : n),
				  "server", v->name, NULL);
		}
	}
	mb_family(m, "gleam_server_up", "gauge", NULL, "1 while the server answers, else 0");
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++)
		if (sched_server(i))
			mb_sample(m, "gleam_server_up", sched_usable(sched_server(i), now),
				  "server", sched_server(i)->name, NULL);
	/* A family's samples follow its header, all of them: one loop each. */
	for (int k = 0; k < 2; k++) {
		const char *name = k ? "gleam_link_rate_bytes_per_second" : "gleam_link_rtt_seconds";

		mb_family(m, name, "gauge", k ? NULL : "seconds", k ? "what the link delivers, as "
			  "last measured" : "the link's round-trip time");
		for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
			const struct server *v = sched_server(i);
			uint64_t age;
			const char *src;

			if (v)
				mb_sample(m, name, k ? link_rate(&v->link, now, &age, &src) :
					  link_rtt(&v->link, now, &age, &src), "server", v->name, NULL);
		}
	}
}

static void collect_gpus(struct gl_buf *m)
{
	static const char *const fam[][3] = {
		{ "gleam_gpu_utilization_ratio", "gauge", "share of the last second the GPU was busy" },
		{ "gleam_gpu_memory_used_bytes", "gauge", "device memory in use" },
		{ "gleam_gpu_memory_total_bytes", "gauge", "device memory" },
		{ "gleam_gpu_queue_delay_seconds", "gauge",
		  "mean time records waited for the GPU's workers over the last second" },
		{ "gleam_gpu_sessions", "gauge", "this client's live sessions on the GPU" },
	};

	for (size_t k = 0; k < ARRAY_SIZE(fam); k++) {
		mb_family(m, fam[k][0], fam[k][1], strstr(fam[k][0], "seconds") ? "seconds" :
			  strstr(fam[k][0], "bytes") ? "bytes" : NULL, fam[k][2]);
		for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
			const struct server *v = sched_server(i);

			for (unsigned int g = 0; v && v->have_info && g < v->info.ngpus; g++) {
				const struct sched_gpu *u = &v->gpus[g];
				double x[] = { u->usage.util_pct / 100.0, (double)u->usage.mem_used,
					       (double)(u->usage.mem_total ? u->usage.mem_total :
							u->info.total_mem),
					       u->usage.wait_us / 1e6, u->own };
				char idx[16];

				/* Utilisation only where it was measured. */
				if (!k && !(u->usage.flags & GLEAM_USAGE_F_UTIL))
					continue;
				snprintf(idx, sizeof(idx), "%u", g);
				mb_sample(m, fam[k][0], x[k], "server", v->name, "gpu", idx,
					  "name", u->info.name, NULL);
			}
		}
	}
}

static void collect(struct gl_buf *m, void *role)
{
	const struct client_role *cr = role;
	struct cache_stats c = cache_sum(cr);
	unsigned int live = 0;

	for (struct csess *s = cr->sessions; s; s = s->next)
		live += !s->control && !s->link && s->local_hello;
	mb_family(m, "gleam_build_info", "gauge", NULL, "gleamd's version and role");
	mb_sample(m, "gleam_build_info", 1, "version", gl_version(), "role", "client", NULL);
	mb_family(m, "gleam_sessions", "gauge", NULL, "live sessions");
	mb_sample(m, "gleam_sessions", live, NULL);
	mb_family(m, "gleam_sessions_started", "counter", NULL, "sessions since start");
	mb_sample(m, "gleam_sessions_started_total", (double)cr->sessions_total, NULL);
	collect_links(cr, m);
	collect_gpus(m);
	mb_family(m, "gleam_cache_uploads", "counter", NULL, "uploads that could be named");
	mb_sample(m, "gleam_cache_uploads_total", (double)c.uploads, NULL);
	mb_family(m, "gleam_cache_upload_bytes", "counter", "bytes", "their bytes");
	mb_sample(m, "gleam_cache_upload_bytes_total", (double)c.bytes, NULL);
	mb_family(m, "gleam_cache_hits", "counter", NULL, "uploads the server already held");
	mb_sample(m, "gleam_cache_hits_total", (double)c.hits, NULL);
	mb_family(m, "gleam_cache_saved_bytes", "counter", "bytes", "bytes that crossed as names");
	mb_sample(m, "gleam_cache_saved_bytes_total", (double)c.bytes_saved, NULL);
	mb_family(m, "gleam_cache_sent_bytes", "counter", "bytes", "chunk bytes that crossed");
	mb_sample(m, "gleam_cache_sent_bytes_total", (double)c.bytes_sent, NULL);
}

/*
 * Whether a gleamd serves the local socket: it answers a status request.
 * A socket nobody listens on refuses at once (a gleamd that died); one
 * still held by a gleamd killed a moment ago, whose io_uring the kernel
 * closes after the process, takes the connection and never answers: it is
 * asked again for up to 2 s, then taken over.
 */
static bool socket_answers(const struct sockaddr_un *sa)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_CONTROL };
	struct gleam_ctl_req req = { .op = GLEAM_CTL_STATUS };
	struct timeval tv = { .tv_usec = 200000 };
	char buf[64];

	snprintf(h.program, sizeof(h.program), "gleamd");
	for (int i = 0; i < 10; i++) {
		int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		bool took, answered;

		if (fd < 0)
			return false;
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		took = !connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
		answered = took && send(fd, &h, sizeof(h), MSG_NOSIGNAL) == sizeof(h) &&
			   send(fd, &req, sizeof(req), MSG_NOSIGNAL) == sizeof(req) &&
			   recv(fd, buf, sizeof(buf), 0) > 0;
		close(fd);
		if (answered)
			return true;
		if (!took)
			return false;
		if (!i)
			gl_info("%s takes connections but does not answer: asking again for 2 s",
				sa->sun_path);
	}
	gl_info("nobody answers on %s: taking it over", sa->sun_path);
	return false;
}

/*
 * Credentials, or plain TCP where that is allowed (Documentation/security.md):
 * 0, or -errno with the reason logged.
 */
static int client_security(struct client_role *cr, struct config *c)
{
	char err[256];

	if (gl_tls_complete(&c->tls)) {
		cr->tls = gl_tls_ctx(false, &c->tls, err, sizeof(err));
		if (!cr->tls) {
			gl_err("cannot use the credentials: %s", err);
			return -EINVAL;
		}
		gl_info("TLS: identity from %s, servers checked against %s", c->tls.cert, c->tls.ca);
		return 0;
	}
	for (unsigned int i = 0; i < MAX(c->nservers, 1u); i++) {
		const char *v = c->nservers ? c->servers[i] : c->server;

		if (!plain_ok(cr, v)) {
			gl_err("server %s is not on this machine: give this gleamd credentials "
			       "(--tls-cert, Documentation/security.md) or --insecure", v);
			return -EACCES;
		}
	}
	if (c->insecure)
		gl_err("INSECURE: no credentials: what crosses to the servers is neither "
		       "authenticated nor encrypted");
	return 0;
}

/* The role's own operations and timers, for the configuration c. */
static void client_role_init(struct client_role *cr, struct config *c)
{
	cr->cfg = c;
	cr->listen_fd = -1;
	cr->op_accept = (struct op){ OP_ACCEPT, NULL };
	cr->op_timer = (struct op){ OP_TIMER, NULL };
	cr->op_hash = (struct op){ OP_HASH, NULL };
	cr->op_keepalive = (struct op){ OP_KEEPALIVE, NULL };
	cr->op_sched = (struct op){ OP_TIMER, NULL };
	cr->second.tv_sec = 1;
	cr->eighth.tv_nsec = 125 * 1000 * 1000;
	cr->tick.tv_nsec = (long long)c->flush_us * 1000;
	vgpu_init(&cr->vgpu);
}

static int client_run(struct client_role *cr, struct config *c)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char why[256];
	int err;

	if (client_security(cr, c))
		return 1;
	err = gl_parse_hostport(c->server, GLEAM_WIRE_PORT, &cr->server, &cr->server_len);
	if (err) {
		gl_err("server '%s': %s", c->server, gl_addr_strerror(err));
		return 1;
	}
	sched_init(c);
	linkmon_open();
	if (strlen(c->socket_path) >= sizeof(sa.sun_path)) {
		gl_err("socket path too long");
		return 1;
	}
	strcpy(sa.sun_path, c->socket_path);
	gl_mkdir_parent(c->socket_path);
	err = gl_private_dir(c->socket_path, why, sizeof(why));
	if (err) {
		gl_err("refusing the socket's directory: %s", why);
		return 1;
	}
	cr->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (cr->listen_fd < 0)
		return 1;
	close(cr->listen_fd);
	if (socket_answers(&sa)) {
		gl_err("another gleamd already serves %s", c->socket_path);
		return 1;
	}
	cr->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	unlink(c->socket_path);
	if (bind(cr->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(cr->listen_fd, 128) < 0) {
		gl_err("cannot listen on %s: %s", c->socket_path, strerror(errno));
		return 1;
	}
	chmod(c->socket_path, 0660);
	err = io_uring_queue_init(1024, &g_loop.ring, 0);
	if (err) {
		gl_err("io_uring: %s", strerror(-err));
		return 1;
	}
	loop_init_spin();
	gl_info("client role: %s -> %u server(s), placement %s", c->socket_path,
		MAX(c->nservers, 1u), sched_placement());
	if (c->metrics[0] && metrics_start(c->metrics, collect, cr))
		return 1;
	post_accept(cr);
	vgpu_start(&cr->vgpu, &client_vgpu_ops, cr);
	/* The servers are connected to at once, not a tick later. */
	on_sched(cr);
	arm_sched(cr);
	loop_catch_signals();
	gl_notify("READY=1");
	while (!g_loop.stop) {
		struct io_uring_cqe *cqe;
		unsigned int head, n = 0;

		loop_wait(poll_all, cr);
		io_uring_for_each_cqe(&g_loop.ring, head, cqe) {
			on_cqe(cr, cqe);
			n++;
		}
		io_uring_cq_advance(&g_loop.ring, n);
		arm_timer(cr);
		arm_hash(cr);
		arm_keepalive(cr);
		arm_sched(cr);
		vgpu_flush(&cr->vgpu);
		if (g_loop.quit)
			quit(cr);
	}
	unlink(c->socket_path);
	linkmon_close();
	return 0;
}

int client_main(struct config *c)
{
	/* The role lives as long as its loop; vgpu's buffers make it large. */
	struct client_role *cr = calloc(1, sizeof(*cr));
	int ret;

	if (!cr) {
		gl_err("no memory for the client role");
		return 1;
	}
	client_role_init(cr, c);
	ret = client_run(cr, c);
	free(cr);
	return ret;
}
