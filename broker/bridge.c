// SPDX-License-Identifier: MIT
/*
 * A bridge between a session ring and a TCP connection, driven by the
 * role's io_uring loop.  Records and replies cross unchanged: the bridge
 * checks each message's header, frames batches of them, and keeps the
 * ring's doorbells quiet while the other side is awake.
 *
 * Every message read from the ring or the wire is checked before use:
 * its length (at least a header, 8-aligned, within its frame and under
 * GLEAM_REC_MAX), its function number and its flags.  A bad one ends the
 * session, never the daemon.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cache.h"
#include "gleam_api_gen.h"
#include "gleamd.h"
#include "linkmon.h"
#include "pack.h"
#include "peerlog.h"
#include "tls.h"
#include "util.h"

#define OBUF_CAP	(GLEAM_FRAME_MAX + sizeof(struct gleam_frame))
#define IBUF_CAP	(2 * (GLEAM_FRAME_MAX + sizeof(struct gleam_frame)))

/*
 * Messages at least this long, sent as they are, are read from a plain
 * TCP socket straight into their place in the ring, not into the input
 * buffer and copied from there: what the buffer already holds of one is
 * copied, the rest is read where it belongs.  While such messages come, a
 * read into the buffer takes no more than this, so that what is copied of
 * each is at most this much (a read as large as the buffer would take
 * whole messages of a sender that is ahead, all of them then copied).
 */
#define DIRECT_MIN	(64U << 10)

/*
 * The one io_uring loop of the process, whichever role runs it, and global
 * for two reasons: the signal handler has only it to set quit in, and
 * every part of the role (bridges, vgpu.c, the metrics endpoint) submits
 * to it through loop_sqe() rather than each being handed the ring.
 */
struct loop g_loop;

struct io_uring_sqe *loop_sqe(void)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&g_loop.ring);

	if (!sqe) {
		io_uring_submit(&g_loop.ring);
		sqe = io_uring_get_sqe(&g_loop.ring);
	}
	return sqe;
}

void loop_init_spin(void)
{
	const char *e = getenv("GLEAM_LOOP_SPIN_US");

	/* Spinning only pays where there are cores to spare. */
	g_loop.spin_ns = e ? strtoull(e, NULL, 10) * 1000 :
			 sysconf(_SC_NPROCESSORS_ONLN) >= 8 ? 1000 * 1000 : 0;
}

/* A gleamd asked to stop gives its sessions this long to say goodbye. */
#define QUIT_NS		(3 * 1000000000ull)

static void on_quit(int sig)
{
	(void)sig;
	g_loop.quit = 1;
}

void loop_catch_signals(void)
{
	/* No SA_RESTART: the loop's wait returns; SA_RESETHAND: a second one kills. */
	struct sigaction sa = { .sa_handler = on_quit, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

void loop_child_signals(void)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
}

bool loop_quit_done(bool sessions_left)
{
	uint64_t now = gl_now_ns();

	if (!g_loop.quit_until) {
		g_loop.quit_until = now + QUIT_NS;
		gl_info("stopping: every session says goodbye");
	}
	return !sessions_left || now >= g_loop.quit_until;
}

void loop_timer(struct __kernel_timespec *ts, struct op *op, bool *armed)
{
	struct io_uring_sqe *sqe;

	if (armed && *armed)
		return;
	sqe = loop_sqe();
	io_uring_prep_timeout(sqe, ts, 0, 0);
	io_uring_sqe_set_data(sqe, op);
	if (armed)
		*armed = true;
}

void loop_note_busy(void)
{
	if (g_loop.spin_ns)
		g_loop.busy_until = gl_now_ns() + g_loop.spin_ns;
}

void loop_wait(void (*poll_all)(void *role), void *role)
{
	if (g_loop.spin_ns && gl_now_ns() < g_loop.busy_until) {
		if (!g_loop.spinning) {
			g_loop.spinning = true;
			/* The rings stop asking for doorbells. */
			poll_all(role);
		}
		io_uring_submit(&g_loop.ring);
		while (!io_uring_cq_ready(&g_loop.ring) && gl_now_ns() < g_loop.busy_until) {
			poll_all(role);
			/* What the rings gave goes out now, not when the spin ends. */
			if (io_uring_sq_ready(&g_loop.ring))
				io_uring_submit(&g_loop.ring);
			g_loop.spin_rounds++;
			/* Free on an idle core; on a busy one, the others run first. */
			sched_yield();
		}
		if (io_uring_cq_ready(&g_loop.ring))
			return;
	}
	if (g_loop.spinning) {
		/* Idle: every ring asks for a doorbell again, then is looked at once more. */
		g_loop.spinning = false;
		poll_all(role);
		if (io_uring_cq_ready(&g_loop.ring) || gl_now_ns() < g_loop.busy_until)
			return;
	}
	g_loop.sleeps++;
	io_uring_submit_and_wait(&g_loop.ring, 1);
}

void bridge_init(struct bridge *b, bool client, void *owner, const struct bridge_ops *ops)
{
	b->ops = ops;
	b->client = client;
	b->out_dir = client ? &b->ring.sq : &b->ring.cq;
	b->in_dir = client ? &b->ring.cq : &b->ring.sq;
	b->out_type = client ? GLEAM_FRAME_RECORDS : GLEAM_FRAME_REPLIES;
	b->in_type = client ? GLEAM_FRAME_REPLIES : GLEAM_FRAME_RECORDS;
	b->op_bell_recv = (struct op){ OP_BELL_RECV, owner };
	b->op_bell_send = (struct op){ OP_BELL_SEND, owner };
	b->op_tcp_recv = (struct op){ OP_TCP_RECV, owner };
	b->op_tcp_send = (struct op){ OP_TCP_SEND, owner };
	b->op_connect = (struct op){ OP_CONNECT, owner };
	b->tcp = -1;
	b->bell = -1;
}

/*
 * A message of DIRECT_MIN or more is going through the ring: at the
 * session's first, this process maps all the ring's pages at once, rather
 * than a page fault at a time under its copies (common/ring.h).
 */
static void ring_going_large(struct bridge *b)
{
	if (b->populated || !b->ring.base)
		return;
	b->populated = true;
	gl_ring_populate(&b->ring);
}

static int bufs(struct bridge *b)
{
	if (!b->obuf) {
		b->obuf = malloc(OBUF_CAP);
		b->ocap = OBUF_CAP;
	}
	if (!b->ibuf) {
		b->ibuf = malloc(IBUF_CAP);
		b->icap = IBUF_CAP;
	}
	return b->obuf && b->ibuf ? 0 : -ENOMEM;
}

void bridge_ring_bell(struct bridge *b)
{
	struct io_uring_sqe *sqe;

	if (b->ring_app && !b->closing) {
		b->ring_app(b);
		return;
	}
	if (b->bell < 0 || b->closing)
		return;
	if (b->bell_sending) {
		b->bell_pending = true;
		return;
	}
	sqe = loop_sqe();
	if (!sqe)
		return;
	b->bellout = GLEAM_BELL_CQ;
	io_uring_prep_send(sqe, b->bell, &b->bellout, 1, MSG_NOSIGNAL);
	io_uring_sqe_set_data(sqe, &b->op_bell_send);
	b->bell_sending = true;
	b->inflight++;
}

static void post_bell_recv(struct bridge *b)
{
	struct io_uring_sqe *sqe;

	if (b->bell_recving || b->bell < 0 || b->closing)
		return;
	sqe = loop_sqe();
	if (!sqe)
		return;
	io_uring_prep_recv(sqe, b->bell, b->bellbuf, sizeof(b->bellbuf), 0);
	io_uring_sqe_set_data(sqe, &b->op_bell_recv);
	b->bell_recving = true;
	b->inflight++;
}

/*
 * On a TLS connection the socket is read into the connection's ciphertext
 * buffer; what is already there and still to be opened is taken first,
 * through a completion of its own (a nop), so that records are opened
 * only where completions are handled.
 */
static void prep_tls_recv(struct bridge *b, struct io_uring_sqe *sqe)
{
	struct gl_tls *t = b->tls;

	if (t->done && gl_tls_pending(t)) {
		io_uring_prep_nop(sqe);
		t->replay = true;
		return;
	}
	io_uring_prep_recv(sqe, b->tcp, t->in + t->in_len, gl_tls_in_room(t), 0);
}

static void post_tcp_recv(struct bridge *b)
{
	struct io_uring_sqe *sqe;

	if (b->recving || b->in_blocked || b->tcp < 0 || b->closing || b->detached ||
	    (b->ilen == b->icap && !b->direct))
		return;
	sqe = loop_sqe();
	if (!sqe)
		return;
	if (b->tls)
		prep_tls_recv(b, sqe);
	else if (b->direct)
		io_uring_prep_recv(sqe, b->tcp, b->direct + b->direct_have,
				   b->direct_len - b->direct_have, 0);
	else
		io_uring_prep_recv(sqe, b->tcp, b->ibuf + b->ilen,
				   b->in_direct_seen ? MIN(b->icap - b->ilen, (size_t)DIRECT_MIN) :
						       b->icap - b->ilen, 0);
	io_uring_sqe_set_data(sqe, &b->op_tcp_recv);
	b->recving = true;
	b->inflight++;
}

/* Room for a piece of the frame, skipping what was sent already. */
static void iov_add(struct bridge *b, size_t *skip, const void *p, size_t n)
{
	struct msghdr *m = &b->omsg;

	if (*skip >= n) {
		*skip -= n;
		return;
	}
	b->oiov[m->msg_iovlen].iov_base = (void *)((const unsigned char *)p + *skip);
	b->oiov[m->msg_iovlen].iov_len = n - *skip;
	m->msg_iovlen++;
	*skip = 0;
}

/* What is left of the frame from osent on, as pieces in omsg. */
static void frame_pieces(struct bridge *b)
{
	size_t skip = b->osent, at = 0;

	memset(&b->omsg, 0, sizeof(b->omsg));
	b->omsg.msg_iov = b->oiov;
	for (uint32_t i = 0; i < b->nins; i++) {
		iov_add(b, &skip, b->obuf + at, b->oins[i].at - at);
		iov_add(b, &skip, b->oins[i].p, b->oins[i].n);
		at = b->oins[i].at;
	}
	iov_add(b, &skip, b->obuf + at, b->olen - at);
}

/* A frame with bodies in the ring goes as one sendmsg of its pieces. */
static void prep_send_pieces(struct bridge *b, struct io_uring_sqe *sqe)
{
	frame_pieces(b);
	io_uring_prep_sendmsg(sqe, b->tcp, &b->omsg, MSG_NOSIGNAL);
}

/*
 * Plaintext sealed at a time: the next piece is sealed while the last
 * leaves, instead of a whole frame (8 MiB) first and then sent.
 */
#define TLS_SEAL_MAX	(512U << 10)

/*
 * The frame's plaintext from osent on, at most TLS_SEAL_MAX bytes of it,
 * as pieces in oiov: the frame's own bytes, and the bodies it takes from
 * the ring where they lie.
 */
static unsigned int tls_plain_pieces(struct bridge *b)
{
	size_t left = TLS_SEAL_MAX;
	unsigned int n;

	frame_pieces(b);
	for (n = 0; n < b->omsg.msg_iovlen && left; n++) {
		b->oiov[n].iov_len = MIN(b->oiov[n].iov_len, left);
		left -= b->oiov[n].iov_len;
	}
	return n;
}

/*
 * What goes next on a TLS connection: ciphertext still waiting (the
 * handshake's, or a record not yet sent whole), else the next piece of
 * the plaintext, sealed now from where it lies; false when there is
 * nothing to send yet (the handshake is not over).  A seal that fails
 * makes the connection fail.
 */
static bool tls_next_send(struct bridge *b, const void **p, size_t *n)
{
	struct gl_tls *t = b->tls;

	if (t->out_len == t->out_sent) {
		if (!t->done || !*n)
			return false;
		if (gl_tls_sealv(t, b->oiov, tls_plain_pieces(b))) {
			gl_err("session: TLS: %s", t->why);
			shutdown(b->tcp, SHUT_RDWR);
			return false;
		}
	}
	*p = t->out + t->out_sent;
	*n = t->out_len - t->out_sent;
	t->out_busy = true;
	return true;
}

static void post_send(struct bridge *b)
{
	const void *p = b->obuf + b->osent;
	size_t n = b->olen + b->ins_bytes - b->osent;
	struct io_uring_sqe *sqe;

	if (b->tls && !tls_next_send(b, &p, &n))
		return;
	sqe = loop_sqe();
	if (!sqe) {
		if (b->tls)
			b->tls->out_busy = false;
		return;
	}
	if (b->nins && !b->tls)
		prep_send_pieces(b, sqe);
	else
		io_uring_prep_send(sqe, b->tcp, p, n, MSG_NOSIGNAL);
	io_uring_sqe_set_data(sqe, &b->op_tcp_send);
	b->sending = true;
	b->inflight++;
}

/*
 * The link's rate, for packing: bytes the peer acknowledged over the time
 * the connection had data waiting, read from the kernel after each MiB
 * sent.  Through a socket buffer that absorbs the first sends, or a pause
 * between uploads, the rate of the sends themselves would mislead.
 */
/* Busy time a sample of the link spans at least: ten ticks at HZ=250. */
#define LINK_SAMPLE_BUSY_US	40000

static void measure_link(struct bridge *b, int sent)
{
	uint64_t acked, busy, named;

	b->tx_since += (uint64_t)sent;
	if (b->tx_since < (1u << 20) || !tcp_acked_busy(b->tcp, &acked, &busy))
		return;
	b->tx_since = 0;
	named = b->cc ? ccache_stats(b->cc)->uploads : 0;
	/*
	 * The kernel counts busy time in ticks (4 ms at HZ=250): until it has
	 * counted LINK_SAMPLE_BUSY_US, the bytes go on counting from the same
	 * base, so that a fast link is not taken for one that carried a MiB
	 * in a whole tick (a sample of one or two ticks read loopback at 0.8
	 * GB/s where it moved 2).  A new connection's counters start again.
	 */
	if (b->tx_based && busy >= b->tx_busy_us && acked >= b->tx_acked) {
		if (busy - b->tx_busy_us < LINK_SAMPLE_BUSY_US || acked == b->tx_acked)
			return;
		if (named == b->tx_named)
			pack_link_note(b->linkp ? b->linkp : &b->link, acked - b->tx_acked,
				       (busy - b->tx_busy_us) * 1000);
		if (b->pk)
			pack_note_send(b->pk, acked - b->tx_acked, (busy - b->tx_busy_us) * 1000);
	}
	b->tx_based = true;
	b->tx_acked = acked;
	b->tx_busy_us = busy;
	b->tx_named = named;
}

int bridge_tls_start(struct bridge *b, struct ssl_ctx_st *ctx, bool server, const char *host)
{
	int err;

	gl_tls_free(b->tls);
	b->tls = NULL;
	err = gl_tls_new(&b->tls, ctx, server, host);
	if (err)
		return err;
	/* A client speaks first: its hello goes as soon as the socket is connected. */
	if (!server && gl_tls_handshake(b->tls) < 0)
		return -EPROTO;
	if (b->tls->out_len && !b->sending)
		post_send(b);
	return 0;
}

const char *bridge_peer_identity(const struct bridge *b)
{
	return b->tls && b->tls->done ? b->tls->peer : NULL;
}

const char *bridge_tls_why(const struct bridge *b)
{
	return b->tls ? b->tls->why : "";
}

void bridge_drop_tcp(struct bridge *b)
{
	if (b->tcp >= 0)
		close(b->tcp);
	b->tcp = -1;
	gl_tls_free(b->tls);
	b->tls = NULL;
}

/* What a TLS read brought: handshake progress, or plaintext, or neither. */
enum { TLS_MORE = -10000, TLS_FAIL = -10001 };

/*
 * Ciphertext arrived (res bytes; 0 on a nop that asked for what is
 * buffered): the handshake moves on, or records are opened into ibuf.
 * The plaintext's length; res as it was for an end or an error; TLS_MORE
 * when nothing new can be parsed yet; TLS_FAIL when the connection must
 * end for good (a certificate or a handshake refused, a record that does
 * not open before the session began): tls_refused is set, the reason in
 * the TLS state, for the owner to tell when it closes the connection.
 */
static int tls_received(struct bridge *b, int res)
{
	struct gl_tls *t = b->tls;
	size_t total = 0;
	int r;

	if (t->replay)
		t->replay = false;
	else if (res <= 0)
		return res;
	else
		gl_tls_received(t, (size_t)res);
	if (!t->done) {
		r = gl_tls_handshake(t);
		if (t->out_len > t->out_sent && !b->sending)
			post_send(b);
		if (r < 0) {
			b->tls_refused = true;
			return TLS_FAIL;
		}
		if (!r)
			return TLS_MORE;
		/* Up: what waited for the handshake goes now. */
		if (!b->sending)
			post_send(b);
	}
	/*
	 * A large message being read into the ring is opened there, record by
	 * record; the records around it go into ibuf, as much as a plain
	 * connection reads there at a time while such messages come.
	 */
	for (;;) {
		unsigned char *dst = b->direct ? b->direct + b->direct_have : b->ibuf + b->ilen;
		size_t room = b->direct ? b->direct_len - b->direct_have : b->icap - b->ilen;
		ssize_t n;

		if (total >= room || (!b->direct && b->in_direct_seen && total >= DIRECT_MIN))
			break;
		n = gl_tls_open(t, dst + total, room - total);
		if (n > 0) {
			total += (size_t)n;
			continue;
		}
		if (n == 0 || total)
			break;
		if (n == -EPIPE)
			return 0;
		if (!b->hello_done) {
			b->tls_refused = true;
			return TLS_FAIL;
		}
		gl_err("session: TLS: %s", t->why);
		return -EPROTO;
	}
	return total ? (int)total : TLS_MORE;
}

static void keep_add(struct bridge *b, struct kept *k)
{
	k->next = NULL;
	if (!b->kept_tail)
		b->kept_tail = &b->kept;
	*b->kept_tail = k;
	b->kept_tail = &k->next;
}

bool bridge_keep(struct bridge *b, const void *msg, uint32_t len)
{
	struct kept *k;

	if (!b->resumable)
		return true;
	k = malloc(sizeof(*k) + len);
	if (!k)
		return false;
	k->len = len;
	k->hlen = len;
	k->body = NULL;
	k->fb = NULL;
	k->ref = k->msg;
	memcpy(k->msg, msg, len);
	keep_add(b, k);
	b->kept_bytes += len;
	return true;
}

/*
 * Keep a message whose first hlen bytes are in the output buffer at msg
 * and whose body goes from the ring at body (ring position pos): the
 * first part copied, the body where it lies.
 */
static bool keep_ring(struct bridge *b, const void *msg, uint32_t hlen, uint32_t len,
		      const unsigned char *body, uint32_t pos)
{
	struct kept *k = malloc(sizeof(*k) + hlen);

	if (!k)
		return false;
	k->len = len;
	k->hlen = hlen;
	k->body = body;
	k->ring_pos = pos;
	k->fb = NULL;
	k->ref = k->msg;
	memcpy(k->msg, msg, hlen);
	keep_add(b, k);
	k->rnext = NULL;
	if (!b->rk_head)
		b->rk_tail = &b->rk_head;
	*b->rk_tail = k;
	b->rk_tail = &k->rnext;
	b->kept_bytes += hlen;
	return true;
}

/* Messages at least this long are kept where they lie in the output buffer. */
#define KEEP_REF_MIN	(64U << 10)

bool bridge_keep_out(struct bridge *b, const void *msg, uint32_t len)
{
	struct kept *k;

	if (!b->resumable)
		return true;
	if (len < KEEP_REF_MIN)
		return bridge_keep(b, msg, len);
	if (!b->ofb) {
		b->ofb = malloc(sizeof(*b->ofb));
		if (!b->ofb)
			return false;
		b->ofb->p = b->obuf;
		b->ofb->refs = 0;
		/* The whole buffer counts: it stays until its last message is taken. */
		b->kept_bytes += b->ocap;
	}
	k = malloc(sizeof(*k));
	if (!k)
		return false;
	k->len = len;
	k->hlen = len;
	k->body = NULL;
	k->fb = b->ofb;
	k->ref = msg;
	b->ofb->refs++;
	keep_add(b, k);
	return true;
}

bool bridge_out_fresh(struct bridge *b)
{
	unsigned char *p;

	if (!b->ofb)
		return true;
	p = b->nspare ? b->spare[--b->nspare] : malloc(b->ocap);
	if (!p)
		return false;
	/* The buffer now belongs to its kept messages; the last one frees it. */
	b->ofb = NULL;
	b->obuf = p;
	return true;
}

static void fbuf_put(struct bridge *b, struct fbuf *fb)
{
	if (--fb->refs)
		return;
	b->kept_bytes -= b->ocap;
	if (fb == b->ofb)
		b->ofb = NULL;
	else if (b->nspare < sizeof(b->spare) / sizeof(b->spare[0]))
		b->spare[b->nspare++] = fb->p;
	else
		free(fb->p);
	free(fb);
}

void bridge_ring_release(struct bridge *b)
{
	uint32_t pos = b->rk_head ? b->rk_head->ring_pos : b->out_dir->pos;

	if (gl_ring_release(b->out_dir, pos))
		bridge_ring_bell(b);
}

/* Drop the first kept messages up to count; true if one lay in the ring. */
static bool drop_kept(struct bridge *b, uint64_t count)
{
	bool ring = false;

	while (b->kept && b->kept_first < count) {
		struct kept *k = b->kept;

		/* Never drop what a resend still points at. */
		if (k == b->resend)
			b->resend = k->next;
		b->kept = k->next;
		if (k->fb)
			fbuf_put(b, k->fb);
		else
			b->kept_bytes -= k->hlen;
		if (k->body) {
			b->rk_head = k->rnext;
			ring = true;
		}
		b->kept_first++;
		free(k);
	}
	if (!b->kept)
		b->kept_tail = &b->kept;
	return ring;
}

/* The peer has taken count of our messages: those need not be kept. */
static void acked(struct bridge *b, uint64_t count)
{
	if (drop_kept(b, count))
		bridge_ring_release(b);
}

/*
 * At the session's end, after its owner freed obuf (which ofb may still
 * name) and perhaps unmapped the ring: that is not written.
 */
void bridge_forget(struct bridge *b)
{
	drop_kept(b, UINT64_MAX);
	b->resend = NULL;
	stripes_free(b);
	while (b->nspare)
		free(b->spare[--b->nspare]);
}

/* Nothing is being sent from the output buffer or the ring. */
static void out_reset(struct bridge *b)
{
	b->olen = b->osent = 0;
	b->nins = 0;
	b->ins_bytes = 0;
}

/* Tell the peer how many of its messages are taken, now and then. */
static void ack_in(struct bridge *b, bool idle)
{
	struct gleam_wire_ack a = { .count = b->in_count };

	if (!b->resumable || b->detached || b->in_count == b->acked_in)
		return;
	if (!idle && b->in_count - b->acked_in < 64 && b->ack_bytes < (4u << 20))
		return;
	b->acked_in = b->in_count;
	b->ack_bytes = 0;
	bridge_queue_frame(b, GLEAM_FRAME_ACK, &a, sizeof(a));
}

void bridge_detach(struct bridge *b)
{
	if (b->detached || b->closing)
		return;
	b->detached = true;
	/*
	 * The grace period runs from the first drop: attempts to take the
	 * session up that fail in their turn do not lengthen it.
	 */
	if (!b->detached_at)
		b->detached_at = gl_now_ns();
	b->hello_done = false;
	/* What was in flight either way is kept, or was not yet taken: both resent. */
	if (b->tcp >= 0)
		shutdown(b->tcp, SHUT_RDWR);
	b->ioff = b->ilen = 0;
	b->frame_left = 0;
	/* A message half read into the ring is sent again whole: its room goes back. */
	if (b->direct) {
		b->in_dir->pos = b->direct_pos;
		b->direct = NULL;
	}
	/* So do those still coming on stripes, and all after them; the stripes close. */
	stripes_detach(b);
	out_reset(b);
	b->in_blocked = false;
}

bool bridge_reattach(struct bridge *b, int fd, uint64_t peer_took)
{
	if (peer_took < b->kept_first || peer_took > b->out_count)
		return false;
	acked(b, peer_took);
	b->resend = b->kept;
	/*
	 * On the connection the answer came on (a client's), its own
	 * operations stand: the hello may still be going out, and the
	 * messages kept go after it.  A new one (a server's) has none yet.
	 */
	if (fd != b->tcp)
		b->sending = b->recving = false;
	b->tcp = fd;
	b->tx_based = false;
	if (!b->sending)
		out_reset(b);
	b->detached = false;
	b->hello_done = true;
	b->acked_in = 0;
	b->last_rx = gl_now_ns();
	return true;
}

/* Send again what the peer had not taken when the connection dropped. */
static bool fill_resend(struct bridge *b)
{
	size_t start = sizeof(struct gleam_frame);
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = b->out_type };
	uint32_t n = 0;

	if (!b->resend || !bridge_out_fresh(b))
		return false;
	b->olen = start;
	while (b->resend && b->olen + b->resend->len <= b->ocap) {
		struct kept *k = b->resend;

		memcpy(b->obuf + b->olen, k->ref, k->hlen);
		if (k->body)
			memcpy(b->obuf + b->olen + k->hlen, k->body, k->len - k->hlen);
		b->olen += k->len;
		b->resend = b->resend->next;
		n++;
	}
	f.len = (uint32_t)(b->olen - start);
	memcpy(b->obuf, &f, sizeof(f));
	b->st.bytes_out += b->olen;
	b->osent = 0;
	post_send(b);
	return n > 0;
}

void bridge_send_out(struct bridge *b)
{
	b->osent = 0;
	post_send(b);
}

void bridge_queue_frame(struct bridge *b, uint16_t type, const void *p, uint32_t len)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = type, .len = len };

	/* Control frames are small and rare: they wait for the current send. */
	if (bufs(b) || b->detached || b->olen + sizeof(f) + len > b->ocap ||
	    (!b->olen && !bridge_out_fresh(b)))
		return;
	memcpy(b->obuf + b->olen, &f, sizeof(f));
	memcpy(b->obuf + b->olen + sizeof(f), p, len);
	b->olen += sizeof(f) + len;
	if (!b->sending && b->tcp >= 0)
		post_send(b);
}

bool bridge_header_ok(struct bridge *b, const void *p, uint32_t len, bool record)
{
	const struct gleam_rec *r = p;
	const struct gleam_reply *q = p;
	/* Named uploads come only from a client gleamd that was granted them. */
	uint16_t known = GLEAM_REC_F_KNOWN | (b && b->sc ? GLEAM_REC_F_CACHED : 0) |
			 (b && b->pk && !b->client ? GLEAM_REC_F_PACKED : 0);

	if (record)
		return r->fn < GL_FN_LIMIT && gl_fn_table[r->fn].name &&
		       !(r->flags & ~known) && !r->reserved;
	return q->fn < GL_FN_LIMIT && gl_fn_table[q->fn].name &&
	       !(q->flags & ~GLEAM_REP_F_KNOWN) && !q->reserved;
}

int bridge_pack_start(struct bridge *b)
{
	struct packer *p = malloc(sizeof(*p));

	if (!p || pack_init(p)) {
		free(p);
		return -ENOMEM;
	}
	bridge_pack_stop(b);
	b->pk = p;
	return 0;
}

void bridge_pack_stop(struct bridge *b)
{
	if (!b->pk)
		return;
	pack_fini(b->pk);
	free(b->pk);
	b->pk = NULL;
}

static void count_pack(struct bridge *b, uint64_t raw, uint64_t wire)
{
	b->st.pack_raw += raw;
	b->st.pack_wire += wire;
	if (b->link_pack) {
		b->link_pack[0] += raw;
		b->link_pack[1] += wire;
	}
}

/*
 * The packer's output: the largest region is a record's (GLEAM_REC_MAX).
 * Scratch for the process: packing runs on the loop's thread alone, and
 * nothing in it outlives the call.
 */
static unsigned char *pack_out;

/*
 * n bytes at src packed to out (which may be src) when that pays: the
 * packed region's length, or n, and out untouched.
 */
static uint32_t pack_region_to(struct bridge *b, const unsigned char *src, uint32_t n,
			       unsigned char *out)
{
	struct gleam_pack h = { .raw_len = n };
	uint32_t wire;
	size_t r;
	int m;

	if (!b->pk || n < sizeof(h) + 8)
		return n;
	if (!pack_out) {
		pack_out = malloc(GLEAM_REC_MAX);
		if (!pack_out)
			return n;
	}
	/* What comes out must be smaller once framed and padded. */
	r = pack_chunk(b->pk, src, n, pack_out, MIN((size_t)n - sizeof(h) - 8,
							(size_t)GLEAM_REC_MAX), &m);
	if (!r || ALIGN8(sizeof(h) + r) >= n) {
		count_pack(b, n, n);
		return n;
	}
	h.packed_len = (uint32_t)r;
	h.method = (uint8_t)m;
	wire = (uint32_t)ALIGN8(sizeof(h) + r);
	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), pack_out, r);
	memset(out + sizeof(h) + r, 0, wire - sizeof(h) - r);
	count_pack(b, n, wire);
	return wire;
}

uint32_t bridge_pack_region(struct bridge *b, unsigned char *data, uint32_t n)
{
	return pack_region_to(b, data, n, data);
}

uint32_t bridge_pack_rec(struct bridge *b, unsigned char *rec, uint32_t len)
{
	struct gleam_rec h;
	uint32_t doff, n;
	uint64_t count;

	memcpy(&h, rec, sizeof(h));
	if ((h.flags & (GLEAM_REC_F_CACHED | GLEAM_REC_F_PACKED)) ||
	    !upload_region((const struct gleam_rec *)rec, len, &doff, &count) ||
	    !upload_region_ok(count, len - doff))
		return len;
	n = bridge_pack_region(b, rec + doff, len - doff);
	if (n == len - doff)
		return len;
	h.len = doff + n;
	h.flags |= GLEAM_REC_F_PACKED;
	memcpy(rec, &h, sizeof(h));
	return h.len;
}

/* The packed region of a PACKED record, checked: its header, or false. */
static bool packed_of(struct bridge *b, const void *rec, uint32_t len, uint32_t *doff,
		      struct gleam_pack *ph)
{
	struct gleam_rec h;
	uint64_t count;

	memcpy(&h, rec, sizeof(h));
	if (!b->pk || b->client || (h.flags & GLEAM_REC_F_CACHED) ||
	    !upload_region(rec, len, doff, &count) || len < *doff + sizeof(*ph))
		return false;
	memcpy(ph, (const unsigned char *)rec + *doff, sizeof(*ph));
	if (ph->reserved0 || ph->reserved1 || ph->reserved2 || !ph->packed_len ||
	    ph->method < GLEAM_PACK_ZSTD || ph->method >= GLEAM_PACK_METHODS ||
	    len != *doff + ALIGN8(sizeof(*ph) + (uint64_t)ph->packed_len) ||
	    (uint64_t)*doff + ph->raw_len > GLEAM_REC_MAX)
		return false;
	return upload_region_ok(count, ph->raw_len);
}

uint32_t bridge_unpacked_len(struct bridge *b, const void *rec, uint32_t len)
{
	struct gleam_pack ph;
	uint32_t doff;

	return packed_of(b, rec, len, &doff, &ph) ? doff + ph.raw_len : 0;
}

bool bridge_unpack_rec(struct bridge *b, const void *rec, uint32_t len, void *dst)
{
	const unsigned char *src = rec;
	unsigned char *d = dst;
	struct gleam_pack ph;
	struct gleam_rec h;
	uint32_t doff;

	if (!packed_of(b, rec, len, &doff, &ph))
		return false;
	if (pack_unpack(b->pk, ph.method, src + doff + sizeof(ph), ph.packed_len, d + doff,
			ph.raw_len))
		return false;
	memcpy(&h, rec, sizeof(h));
	h.flags &= (uint16_t)~GLEAM_REC_F_PACKED;
	h.len = doff + ph.raw_len;
	memcpy(d, &h, sizeof(h));
	memcpy(d + sizeof(h), src + sizeof(h), doff - sizeof(h));
	count_pack(b, ph.raw_len, len - doff);
	return true;
}

/*
 * Messages at least this long go, in a resumable session, from the ring
 * itself: their head (the header and the arguments) is copied into the
 * frame and checked there, their body is sent (or, with TLS, sealed) from
 * where the producer wrote it, and the ring keeps that room until the peer
 * acknowledges the message.
 */
#define OUT_REF_MIN	(64U << 10)

/*
 * How much of the message at p (len bytes, its header read from p) is
 * copied into the frame: all of it, or for one that goes from the ring,
 * its head.
 */
static uint32_t out_head_len(struct bridge *b, const void *p, uint32_t len, bool records)
{
	const struct gleam_rec *h = p;
	uint32_t hlen = sizeof(struct gleam_reply);
	uint16_t fn;

	if (!b->resumable || len < OUT_REF_MIN || b->nins == BRIDGE_INS_MAX)
		return len;
	if (records) {
		memcpy(&fn, &h->fn, sizeof(fn));
		if (fn >= GL_FN_LIMIT)
			return len;
		hlen = (uint32_t)sizeof(*h) + ALIGN8((uint32_t)gl_fn_args_size[fn]);
	}
	return hlen + 8 <= len ? hlen : len;
}

/*
 * A large message whose head (hlen bytes) is in the frame, checked: packed
 * into the frame when that pays (an upload), else its body inserted from
 * the ring at p + hlen.  false: no memory to keep it.
 */
static bool out_from_ring(struct bridge *b, const unsigned char *p, uint32_t hlen, uint32_t len,
			  bool records)
{
	unsigned char *q = b->obuf + b->olen;
	struct gleam_rec h;
	uint32_t doff, wire;
	uint64_t count;
	int stripe;

	memcpy(&h, q, sizeof(h));
	if (records && b->pk && !(h.flags & (GLEAM_REC_F_CACHED | GLEAM_REC_F_PACKED)) &&
	    upload_region((const struct gleam_rec *)q, len, &doff, &count) && doff == hlen &&
	    upload_region_ok(count, len - doff)) {
		wire = pack_region_to(b, p + doff, len - doff, q + doff);
		if (wire != len - doff) {
			h.len = doff + wire;
			h.flags |= GLEAM_REC_F_PACKED;
			memcpy(q, &h, sizeof(h));
			if (!bridge_keep_out(b, q, h.len))
				return false;
			b->olen += h.len;
			return true;
		}
	}
	if (!keep_ring(b, q, hlen, len, p + hlen, b->out_dir->pos))
		return false;
	stripe = stripes_pick(b);
	if (stripe >= 0) {
		/* The message goes on a stripe, from the ring; a note takes its place here. */
		struct gleam_stripe_note n = { .len = sizeof(n), .fn = GLEAM_FN_STRIPED,
					       .msg_len = len, .stripe = (uint32_t)stripe };

		memcpy(q, &n, sizeof(n));
		b->olen += sizeof(n);
		stripes_queue(b, stripe, p, len);
		return true;
	}
	b->olen += hlen;
	b->oins[b->nins++] = (struct bridge_ins){ .at = b->olen, .p = p + hlen, .n = len - hlen };
	b->ins_bytes += len - hlen;
	return true;
}

/* Move messages from the ring into one frame while there is room. */
static void fill_out(struct bridge *b)
{
	bool records = b->out_type == GLEAM_FRAME_RECORDS;
	size_t start;
	uint32_t n = 0, len, wire;
	const void *p;

	if (b->split && !b->closing) {
		b->split(b);
		return;
	}
	if (b->sending || b->closing || !b->hello_done || b->olen || b->detached || b->tcp < 0)
		return;
	if (b->resend) {
		fill_resend(b);
		return;
	}
	/* The peer acknowledges slowly: wait for it rather than keep more. */
	if (b->kept_bytes > BRIDGE_KEPT_MAX)
		return;
	if (!bridge_out_fresh(b))
		return;
	/*
	 * With the cache, what it need not hold back goes as it would
	 * without one: from the ring, large messages on the stripes.
	 */
	if (b->cc && (!(p = gl_ring_peek(b->out_dir, sizeof(struct gleam_rec), GLEAM_REC_MAX, &len)) ||
		      !ccache_passes(b, p, len))) {
		ccache_fill_out(b);
		return;
	}
	start = sizeof(struct gleam_frame);
	b->olen = start;
	while (b->olen + b->ins_bytes + GLEAM_REC_MAX <= b->ocap &&
	       (p = gl_ring_peek(b->out_dir, records ? sizeof(struct gleam_rec) :
				 sizeof(struct gleam_reply), GLEAM_REC_MAX, &len))) {
		uint32_t hlen;

		/* The first was let through above; one the cache must see ends the frame. */
		if (b->cc && n && !ccache_passes(b, p, len))
			break;
		hlen = out_head_len(b, p, len, records);

		if (len >= DIRECT_MIN)
			ring_going_large(b);
		/* One copy out of shared memory (its head only, for a large message), then checks on the copy. */
		memcpy(b->obuf + b->olen, p, hlen);
		memcpy(b->obuf + b->olen, &len, 4);
		if (!bridge_header_ok(NULL, b->obuf + b->olen, len, records) ||
		    (hlen < len && hlen != out_head_len(b, b->obuf + b->olen, len, records))) {
			gl_err("session: malformed message from the ring (fn %u)",
			       ((struct gleam_rec *)(b->obuf + b->olen))->fn);
			b->out_dir->broken = true;
			break;
		}
		if (records && (((struct gleam_rec *)(b->obuf + b->olen))->flags & GLEAM_REC_F_REPLY))
			b->st.waits++;
		if (hlen < len) {
			if (!out_from_ring(b, p, hlen, len, records))
				break;
		} else {
			wire = records && b->pk ? bridge_pack_rec(b, b->obuf + b->olen, len) : len;
			/*
			 * Kept as it went (a large message where it lies in the
			 * frame): sent again, it needs nothing more.  Not kept, it
			 * is not taken: the ring still holds it.
			 */
			if (!bridge_keep_out(b, b->obuf + b->olen, wire))
				break;
			b->olen += wire;
		}
		b->out_count++;
		gl_ring_consume(b->out_dir, len);
		b->st.payload += len - sizeof(struct gleam_rec);
		n++;
	}
	if (b->out_dir->broken) {
		b->olen = 0;
		bridge_close(b);
		return;
	}
	if (!n) {
		b->olen = 0;
		return;
	}
	{
		struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = b->out_type,
					 .len = (uint32_t)(b->olen + b->ins_bytes - start) };

		memcpy(b->obuf, &f, sizeof(f));
	}
	b->last_active = gl_now_ns();
	loop_note_busy();
	if (records)
		b->st.records += n;
	else
		b->st.replies += n;
	b->st.batches++;
	b->st.bytes_out += b->olen + b->ins_bytes;
	/* Space goes back to the producer as soon as it is copied (or acknowledged). */
	bridge_ring_release(b);
	b->osent = 0;
	post_send(b);
}

/*
 * What the peer did wrong: on a server, through the per-peer limit of the
 * log, since any peer can do it again and again.
 */
static void peer_err(struct bridge *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void peer_err(struct bridge *b, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (b->peer)
		peer_log(b->peer, "%s", line);
	else
		gl_err("%s", line);
}

/* Parse what arrived; copy messages into the ring.  false: close. */
/*
 * Bytes parsed up to off: what is left stays where it is, and moves to the
 * front only when the room behind it runs short, so that a fast link's
 * bytes are not copied once more each time a read ends inside a message.
 */
static void consumed(struct bridge *b, size_t off)
{
	if (off == b->ilen) {
		b->ioff = b->ilen = 0;
		return;
	}
	b->ioff = off;
	if (off && b->icap - b->ilen < b->icap / 2) {
		memmove(b->ibuf, b->ibuf + off, b->ilen - off);
		b->ilen -= off;
		b->ioff = 0;
	}
}

/* What reading one step of the input did. */
enum drain {
	D_NEXT,		/* go on: nothing was published */
	D_PUBLISHED,	/* a message went into the ring */
	D_WAIT,		/* more bytes, or room in the ring, are needed */
	D_FAIL,		/* the peer broke the protocol, or the ring broke: end */
	D_DETACHED,	/* a handler let the connection go: nothing after it counts */
};

/* The frame header at *off: a data frame is entered, a control frame handled whole. */
static enum drain frame_in(struct bridge *b, size_t *off)
{
	struct gleam_frame f;

	if (b->ilen - *off < sizeof(f))
		return D_WAIT;
	memcpy(&f, b->ibuf + *off, sizeof(f));
	if (f.magic != GLEAM_WIRE_MAGIC || f.flags || f.reserved || f.len > GLEAM_FRAME_MAX) {
		/* A TLS handshake record starts 0x16 0x03: say so plainly. */
		if ((f.magic & 0xffff) == 0x0316)
			peer_err(b, "peer speaks TLS, and this side has no credentials (tls-cert)");
		else
			peer_err(b, "peer sent a malformed frame header (magic %#x type %u flags %#x "
				 "len %u)", f.magic, f.type, f.flags, f.len);
		return D_FAIL;
	}
	if (f.type == b->in_type && b->hello_done && b->ring.base) {
		*off += sizeof(f);
		b->frame_left = f.len;
		b->st.bytes_in += sizeof(f) + f.len;
		return D_NEXT;
	}
	if (b->ilen - *off < sizeof(f) + f.len)
		return D_WAIT;
	if (f.type == GLEAM_FRAME_ACK && b->resumable) {
		struct gleam_wire_ack a;

		if (f.len != sizeof(a))
			return D_FAIL;
		memcpy(&a, b->ibuf + *off + sizeof(f), sizeof(a));
		if (a.count < b->kept_first || a.count > b->out_count) {
			peer_err(b, "peer acknowledged messages never sent");
			return D_FAIL;
		}
		acked(b, a.count);
	} else {
		if (!b->ops->on_frame(b, f.type, b->ibuf + *off + sizeof(f), f.len))
			return D_FAIL;
		if (b->detached)
			return D_DETACHED;
	}
	*off += sizeof(f) + f.len;
	return D_NEXT;
}

/*
 * The bytes a message of len takes in the ring: more for a record packed
 * or named by content, which is unpacked or given its bytes back on the
 * way in; 0 when that cannot be (said).
 */
static uint32_t message_ring_len(struct bridge *b, const void *p, uint32_t len, bool records)
{
	const struct gleam_rec *h = p;
	uint32_t elen = len;

	if (records && (h->flags & GLEAM_REC_F_PACKED)) {
		/* Unpacked straight into the ring, at most its declared size. */
		elen = bridge_unpacked_len(b, p, len);
		if (!elen || elen > b->in_dir->size / 2) {
			peer_err(b, "peer sent a malformed packed record");
			return 0;
		}
	} else if (records && (h->flags & GLEAM_REC_F_CACHED)) {
		/* Its bytes come back from the session's pinned chunks. */
		elen = scache_expanded_len(b, p, len);
		if (!elen || elen > b->in_dir->size / 2) {
			peer_err(b, "peer named bytes it has not pinned, or named them badly");
			return 0;
		}
	}
	return elen;
}

/*
 * Room for elen bytes in the ring: *dst, or NULL and what to do instead
 * (wait for the consumer, look again, or end: the ring broke).
 */
static enum drain ring_room(struct bridge *b, uint32_t elen, void **dst)
{
	*dst = gl_ring_reserve(b->in_dir, elen);
	if (*dst)
		return D_NEXT;
	if (b->in_dir->broken) {
		gl_err("session: the application broke its ring: ending the session");
		return D_FAIL;
	}
	b->in_blocked = true;
	gl_ring_prod_set_sleeping(b->in_dir, true);
	/* Re-check: the consumer may have freed space meanwhile. */
	if (!gl_ring_can_reserve(b->in_dir, elen))
		return D_WAIT;
	gl_ring_prod_set_sleeping(b->in_dir, false);
	b->in_blocked = false;
	return D_NEXT;
}

/* Messages went into the ring: its consumer, if asleep, is woken. */
static void in_published(struct bridge *b)
{
	loop_note_busy();
	if (gl_ring_cons_sleeping(b->in_dir))
		bridge_ring_bell(b);
}

/*
 * A message of len is in the ring whole: the consumer may take it, unless
 * a striped message before it is still coming; then both are published
 * (and counted as taken) when that one is whole.
 */
static void message_taken(struct bridge *b, uint32_t len)
{
	if (stripes_pending(b)) {
		stripes_count_after(b);
	} else {
		gl_ring_commit(b->in_dir);
		b->in_count++;
	}
	b->st.payload += len - sizeof(struct gleam_reply);
	b->ack_bytes += len;
	b->frame_left -= len;
}

/*
 * A note in place of a message that comes on a stripe: its room is
 * reserved now, in order, and read from the stripe (broker/stripe.c).
 */
static enum drain note_in(struct bridge *b, size_t *off)
{
	struct gleam_stripe_note n;
	uint32_t start = b->in_dir->pos;
	enum drain d;
	void *dst;
	int err;

	memcpy(&n, b->ibuf + *off, sizeof(n));
	err = stripes_note_check(b, &n);
	if (err == -EAGAIN) {
		/* Too many still coming: the next that is whole looks again. */
		b->in_blocked = true;
		return D_WAIT;
	}
	if (err) {
		peer_err(b, "peer sent a malformed stripe note");
		return D_FAIL;
	}
	ring_going_large(b);
	d = ring_room(b, n.msg_len, &dst);
	if (!dst)
		return d;
	stripes_slot_add(b, dst, n.msg_len, start, n.stripe);
	b->frame_left -= sizeof(n);
	*off += sizeof(n);
	return D_NEXT;
}


static bool direct_fits(struct bridge *b, size_t off, uint32_t len, bool records)
{
	struct gleam_rec h;

	if (b->in_shared || len < DIRECT_MIN ||
	    b->ilen - off < (records ? sizeof(struct gleam_rec) : sizeof(struct gleam_reply)))
		return false;
	if (!records)
		return true;
	/*
	 * A packed or named record is unpacked or given its bytes on the way
	 * in, and what it becomes is read from beyond its header: it is read
	 * whole first.
	 */
	memcpy(&h, b->ibuf + off, sizeof(h));
	return !(h.flags & (GLEAM_REC_F_PACKED | GLEAM_REC_F_CACHED));
}

/* The message at *off, its header checked, is read into the ring from here on. */
static enum drain direct_begin(struct bridge *b, size_t *off, uint32_t len)
{
	uint32_t pos = b->in_dir->pos;
	enum drain d;
	void *dst;

	d = ring_room(b, len, &dst);
	if (!dst)
		return d;
	b->direct = dst;
	b->direct_len = len;
	b->direct_have = (uint32_t)(b->ilen - *off);
	b->direct_pos = pos;
	memcpy(dst, b->ibuf + *off, b->direct_have);
	*off = b->ilen;
	return D_WAIT;
}

/* res more bytes of the message being read into the ring came. */
static void direct_in(struct bridge *b, int res)
{
	b->direct_have += (uint32_t)res;
	if (b->direct_have < b->direct_len)
		return;
	b->direct = NULL;
	message_taken(b, b->direct_len);
	in_published(b);
	ack_in(b, true);
}

/* One message of the data frame being read, at *off, into the ring. */
static enum drain message_in(struct bridge *b, size_t *off, bool records)
{
	const unsigned char *p = b->ibuf + *off;
	uint32_t len, elen;
	enum drain d;
	void *dst;

	if (b->ilen - *off < 8)
		return D_WAIT;
	memcpy(&len, p, 4);
	if (len < (records ? sizeof(struct gleam_rec) : sizeof(struct gleam_reply)) || (len & 7) ||
	    len > GLEAM_REC_MAX || len > b->frame_left || len > b->in_dir->size / 2) {
		peer_err(b, "peer sent a malformed message (length %u)", len);
		return D_FAIL;
	}
	if (b->ilen - *off < len && !direct_fits(b, *off, len, records))
		return D_WAIT;
	if (len == sizeof(struct gleam_stripe_note) &&
	    ((const struct gleam_rec *)p)->fn == GLEAM_FN_STRIPED)
		return note_in(b, off);
	if (!bridge_header_ok(b, p, len, records)) {
		peer_err(b, "peer sent a malformed message header");
		return D_FAIL;
	}
	elen = message_ring_len(b, p, len, records);
	if (!elen)
		return D_FAIL;
	if (len >= DIRECT_MIN) {
		b->in_direct_seen = elen == len && direct_fits(b, *off, len, records);
		ring_going_large(b);
	}
	if (b->ilen - *off < len)
		return elen == len ? direct_begin(b, off, len) : D_WAIT;
	d = ring_room(b, elen, &dst);
	if (!dst)
		return d;
	if (records && (((const struct gleam_rec *)p)->flags & GLEAM_REC_F_PACKED)) {
		if (!bridge_unpack_rec(b, p, len, dst)) {
			peer_err(b, "peer sent packed bytes that do not unpack to their declared size");
			return D_FAIL;
		}
	} else if (elen != len) {
		scache_expand(b, p, len, dst);
	} else {
		memcpy(dst, p, len);
	}
	message_taken(b, len);
	*off += len;
	return D_PUBLISHED;
}

/*
 * What the connection brought: frames and their messages, as far as they
 * are whole and the ring has room; false ends the connection.
 */
static bool drain_in(struct bridge *b)
{
	size_t off = b->ioff;
	bool published = false, ok = true;
	bool records = b->in_type == GLEAM_FRAME_RECORDS;
	enum drain d;

	b->in_blocked = false;
	for (;;) {
		/* What comes next is read in place, as structs: it starts 8-aligned. */
		if (off & 7) {
			memmove(b->ibuf, b->ibuf + off, b->ilen - off);
			b->ilen -= off;
			off = 0;
		}
		d = b->frame_left ? message_in(b, &off, records) : frame_in(b, &off);
		if (d == D_DETACHED)
			return true;
		if (d == D_FAIL)
			ok = false;
		if (d == D_FAIL || d == D_WAIT)
			break;
		published |= d == D_PUBLISHED;
	}
	consumed(b, off);
	if (published)
		in_published(b);
	ack_in(b, b->ilen == b->ioff);
	/* Control connections have no ring. */
	if (!b->in_blocked && b->ring.base)
		gl_ring_prod_set_sleeping(b->in_dir, false);
	return ok;
}

bool bridge_in_done(struct bridge *b)
{
	in_published(b);
	ack_in(b, true);
	/* A note that waited for striped messages before it to come may go in now. */
	if (b->in_blocked && !b->detached && !b->closing)
		return drain_in(b);
	return true;
}

/* Something changed (a bell, a completed send): make progress. */
void bridge_kick(struct bridge *b)
{
	if (b->closing)
		return;
	if (b->in_blocked && !drain_in(b)) {
		bridge_close(b);
		return;
	}
	fill_out(b);
	stripes_kick(b);
	if (!b->sending && b->hello_done) {
		/*
		 * Idle: ask for a bell, then look once more.  A session that
		 * was busy a moment ago is polled on the flush timer instead,
		 * so that its asynchronous records need no doorbell.
		 */
		b->polling = b->client && gl_now_ns() - b->last_active < BRIDGE_POLL_WINDOW_NS;
		/* A spinning loop looks at the ring itself: no doorbell needed. */
		uint32_t want = g_loop.spinning ? 0 : GLEAM_RING_CONS_NEED_WAKEUP |
				(b->polling ? GLEAM_RING_CONS_POLLING : 0);

		/* Written only when it changes: the producer reads this line. */
		if (gl_ring_cons_flags(b->out_dir) != want)
			gl_ring_cons_set_state(b->out_dir, want);
		if (!gl_ring_empty(b->out_dir)) {
			gl_ring_cons_set_state(b->out_dir, 0);
			fill_out(b);
		}
	}
	post_tcp_recv(b);
	post_bell_recv(b);
}

void bridge_tick(struct bridge *b, uint64_t now)
{
	if (!b->polling || b->closing || b->sending)
		return;
	if (!gl_ring_empty(b->out_dir)) {
		gl_ring_cons_set_state(b->out_dir, 0);
		bridge_kick(b);
		return;
	}
	if (now - b->last_active >= BRIDGE_POLL_WINDOW_NS) {
		b->polling = false;
		gl_ring_cons_set_state(b->out_dir, GLEAM_RING_CONS_NEED_WAKEUP);
		if (!gl_ring_empty(b->out_dir)) {
			gl_ring_cons_set_state(b->out_dir, 0);
			bridge_kick(b);
		}
	}
}

/*
 * The goodbye is out.  Closing a socket with bytes unread sends a reset,
 * and a reset can overtake the goodbye: the peer would take the session
 * for dropped and keep it for its grace period.  So the write side closes
 * after the goodbye (a FIN behind it), and what the peer still sends is
 * read and dropped until it closes its end: no read begins after LINGER_S
 * seconds, and each ends after LINGER_S.
 */
#define LINGER_S	2

static void linger_recv(struct bridge *b)
{
	static struct __kernel_timespec limit = { .tv_sec = LINGER_S };
	struct io_uring_sqe *sqe, *tmo;

	/* A peer that keeps sending is not read for ever. */
	if (gl_now_ns() >= b->linger_until) {
		shutdown(b->tcp, SHUT_RDWR);
		return;
	}
	/* The read and its time limit together, or neither. */
	if (io_uring_sq_space_left(&g_loop.ring) < 2)
		io_uring_submit(&g_loop.ring);
	if (io_uring_sq_space_left(&g_loop.ring) < 2) {
		shutdown(b->tcp, SHUT_RDWR);
		return;
	}
	sqe = io_uring_get_sqe(&g_loop.ring);
	tmo = io_uring_get_sqe(&g_loop.ring);
	io_uring_prep_recv(sqe, b->tcp, b->ibuf, b->icap, 0);
	io_uring_sqe_set_data(sqe, &b->op_tcp_recv);
	sqe->flags |= IOSQE_IO_LINK;
	b->recving = true;
	b->inflight++;
	/* Ends the read with -ECANCELED if the peer keeps the connection open. */
	io_uring_prep_link_timeout(tmo, &limit, 0);
	io_uring_sqe_set_data(tmo, NULL);
}

static void linger(struct bridge *b)
{
	shutdown(b->tcp, SHUT_WR);
	b->lingering = true;
	b->linger_until = gl_now_ns() + LINGER_S * 1000000000ull;
	b->ioff = b->ilen = 0;
	if (!b->recving) {
		linger_recv(b);
		return;
	}
	/* The read under way has no time limit: cancelled, it is asked again with one. */
	struct io_uring_sqe *sqe = loop_sqe();

	if (!sqe) {
		shutdown(b->tcp, SHUT_RDWR);
		return;
	}
	io_uring_prep_cancel(sqe, &b->op_tcp_recv, 0);
	io_uring_sqe_set_data(sqe, NULL);
	b->linger_cancel = true;
}

static void queue_bye(struct bridge *b)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = GLEAM_FRAME_BYE };

	/* Without memory for a fresh buffer the goodbye does not go: the peer times out. */
	if (!b->olen && !bridge_out_fresh(b))
		return;
	memcpy(b->obuf + b->olen, &f, sizeof(f));
	b->olen += sizeof(f);
}

/*
 * The peer's hello is refused: the answer queued must reach it, and a
 * close now could cut it off (the peer would take that for a link that
 * failed and try again).  The connection closes once the answer is out,
 * its FIN behind it, and what the peer still sends is read until it closes
 * too, LINGER_S at most: a peer cannot hold the connection open.
 */
void bridge_refuse(struct bridge *b)
{
	if (b->closing || b->tcp < 0)
		return;
	b->closing = true;
	b->bye = true;
	if (b->sending)
		return;
	if (b->olen) {
		post_send(b);
		return;
	}
	linger(b);
}

bool bridge_lost(struct bridge *b, const char *why)
{
	if ((!b->resumable && !b->restartable) || b->closing)
		return false;
	if (!b->detached_at)
		gl_info("session: connection lost (%s); keeping the session to take it up again",
			why);
	bridge_detach(b);
	if (!b->recving && !b->sending && b->tcp >= 0)
		bridge_drop_tcp(b);
	return true;
}

/* An operation on a dropped connection ended: close it once none is left. */
static void detached_op_done(struct bridge *b)
{
	if (!b->recving && !b->sending && b->tcp >= 0 && b->detached)
		bridge_drop_tcp(b);
}

/*
 * res bytes of a TLS connection's ciphertext went: the plaintext they
 * carried, once all of it is out; 0 while more is to go (sent now) or when
 * they were the handshake's.
 */
static int tls_sent(struct bridge *b, int res)
{
	struct gl_tls *t = b->tls;
	size_t plain = t->out_plain;

	if (!gl_tls_sent(t, (size_t)res)) {
		post_send(b);
		return 0;
	}
	t->out_plain = 0;
	if (!plain && b->olen + b->ins_bytes > b->osent)
		post_send(b);
	return (int)plain;
}

bool bridge_complete(struct bridge *b, struct op *op, int res)
{
	if (op->type == OP_STRIPE_CONNECT || op->type == OP_STRIPE_SEND ||
	    op->type == OP_STRIPE_RECV)
		return stripes_complete(b, op, res);
	b->inflight--;
	switch (op->type) {
	case OP_BELL_RECV:
		b->bell_recving = false;
		if (res <= 0)
			return false;
		gl_ring_cons_set_sleeping(b->out_dir, false);
		bridge_kick(b);
		return true;
	case OP_BELL_SEND:
		b->bell_sending = false;
		if (b->bell_pending) {
			b->bell_pending = false;
			bridge_ring_bell(b);
		}
		return true;
	case OP_TCP_RECV:
		b->recving = false;
		b->last_rx = gl_now_ns();
		if (b->lingering) {
			if (res == -ECANCELED && b->linger_cancel) {
				b->linger_cancel = false;
				linger_recv(b);
			} else if (res > 0) {
				linger_recv(b);
			} else {
				shutdown(b->tcp, SHUT_RDWR);
			}
			return true;
		}
		if (b->detached) {
			detached_op_done(b);
			return true;
		}
		/*
		 * The server acknowledges what it read at once, not after the
		 * delayed-ACK timer: the client measures the link by the time
		 * its bytes wait for their acknowledgement, and a burst's last
		 * segment would otherwise wait for the timer (ticks of 4 ms or
		 * more), making a fast link look as slow as the timer.
		 */
		if (!b->client && res > 0) {
			int one = 1;

			setsockopt(b->tcp, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
		}
		if (b->tls) {
			res = tls_received(b, res);
			if (res == TLS_FAIL)
				return false;
			if (res == TLS_MORE) {
				post_tcp_recv(b);
				return true;
			}
		}
		/*
		 * Only a goodbye (BYE) ends a session.  A close without one, a
		 * reset or an error is the link failing: a relay, a NAT or a
		 * firewall between the two machines that restarted closes both
		 * connections as an orderly close would.  A resumable session
		 * survives them all.
		 */
		if (res <= 0)
			return bridge_lost(b, res ? strerror(-res) : "closed without a goodbye");
		/*
		 * The peer spoke on the connection the session was taken up on:
		 * the take-up was real.  A connection taken up and lost before
		 * that (one an attempt gave up on, held somewhere and delivered
		 * late) leaves the grace period running from the first drop.
		 */
		if (b->hello_done)
			b->detached_at = 0;
		if (b->direct) {
			direct_in(b, res);
			bridge_kick(b);
			return true;
		}
		b->ilen += (size_t)res;
		if (!drain_in(b))
			return false;
		bridge_kick(b);
		return true;
	case OP_TCP_SEND:
		b->sending = false;
		if (b->tls)
			b->tls->out_busy = false;
		if (b->detached) {
			detached_op_done(b);
			return true;
		}
		if (res <= 0) {
			if (b->bye)
				shutdown(b->tcp, SHUT_RDWR);
			return b->closing ? true : bridge_lost(b, res ? strerror(-res) : "nothing sent");
		}
		if (b->client)
			measure_link(b, res);
		if (b->tls) {
			res = tls_sent(b, res);
			if (res <= 0)
				return true;
		}
		b->osent += (size_t)res;
		if (b->osent < b->olen + b->ins_bytes) {
			post_send(b);
			return true;
		}
		out_reset(b);
		/* A goodbye that did not fit the full buffer goes now. */
		if (b->bye_owed) {
			b->bye_owed = false;
			queue_bye(b);
			post_send(b);
			return true;
		}
		/* The goodbye is out: now the connection closes. */
		if (b->bye) {
			linger(b);
			return true;
		}
		bridge_kick(b);
		return true;
	default:
		return true;
	}
}

bool bridge_keepalive(struct bridge *b, uint64_t now, unsigned int dead_s)
{
	uint64_t quiet;

	if (!dead_s || b->closing || b->tcp < 0 || !b->hello_done)
		return true;
	if (!b->last_rx)
		b->last_rx = now;
	quiet = now - b->last_rx;
	if (quiet >= (uint64_t)dead_s * 1000000000ull) {
		gl_err("session: the peer sent nothing for %u s: taking %s for gone", dead_s,
		       b->resumable ? "the connection" : "it");
		if (b->resumable) {
			/* The link failed when the peer was last heard, not now. */
			if (!b->detached_at)
				b->detached_at = b->last_rx;
			bridge_detach(b);
			return true;
		}
		bridge_close(b);
		return false;
	}
	/* One ping a second while it is quiet; any answer counts as life. */
	if (quiet >= 1000000000ull && now - b->ping_at >= 1000000000ull) {
		b->ping_at = now;
		bridge_queue_frame(b, GLEAM_FRAME_PING, &now, sizeof(now));
	}
	return true;
}

void bridge_close(struct bridge *b)
{
	if (b->closing)
		return;
	b->closing = true;
	stripes_close(b);
	if (b->bell >= 0)
		shutdown(b->bell, SHUT_RDWR);
	/*
	 * A resumable peer takes a connection that drops for a fault and
	 * waits to take the session up again: say that this is the end, after
	 * what is being sent, and close once it is out.
	 */
	if (b->resumable && !b->detached && b->tcp >= 0 && b->obuf) {
		b->bye = true;
		/*
		 * Without the goodbye the peer would keep the session for its
		 * grace period: a buffer too full for it sends it next.
		 */
		if (b->olen + sizeof(struct gleam_frame) <= b->ocap)
			queue_bye(b);
		else
			b->bye_owed = true;
		if (!b->sending)
			post_send(b);
		return;
	}
	/* Pending operations complete with errors; the owner frees at zero. */
	if (b->tcp >= 0)
		shutdown(b->tcp, SHUT_RDWR);
}

void bridge_ring_stats(const struct gl_ring *r, struct sess_stats *st)
{
	if (!r->base || !r->sq.ctl)
		return;
	st->ring_records = r->sq.size;
	st->ring_replies = r->cq.size;
	st->waits_made = __atomic_load_n(&r->sq.ctl->prod_stats[GLEAM_RING_STAT_WAITS],
					 __ATOMIC_RELAXED);
	st->waits_required =
		__atomic_load_n(&r->sq.ctl->prod_stats[GLEAM_RING_STAT_WAITS_REQUIRED],
				__ATOMIC_RELAXED);
}
