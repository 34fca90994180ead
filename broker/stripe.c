// SPDX-License-Identifier: MIT
/*
 * Stripes: further TCP connections of a session that carry its large
 * messages (GLEAM_WIRE_F_STRIPE, Documentation/protocol.md "Stripes").
 *
 * One TCP connection on loopback or a fast LAN is bounded by the core
 * that copies its bytes in the kernel: the sender's, and the receiver's.
 * A stripe's sends and reads are handed to io_uring's workers
 * (IOSQE_ASYNC), so that each stripe's copies run on a core of their own
 * while the loop goes on.  The session's connection keeps the order: for a
 * striped message it carries a note in the message's place, and the
 * receiver reserves the message's room in its ring when the note comes,
 * reads the stripe's bytes straight into that room, and publishes the
 * ring only as far as every message before is whole.
 *
 * A sent message stays in the out ring until the peer acknowledges it, as
 * every large message of a resumable session does (bridge.c, keep_ring):
 * a stripe that fails takes the session's connection down with it, and
 * the session is taken up again on a new one, which sends again whole
 * what the peer had not taken.  What was read of messages not yet
 * published goes back to the ring.
 *
 * In a session over TLS each stripe is a TLS connection of its own
 * (GLEAM_WIRE_F_STRIPE_TLS): the client's handshake proves both identities
 * afresh, as the session's did, and its hello goes sealed.  The loop seals
 * a message where it lies in the out ring, 512 KiB at a time, and opens
 * the records that come straight into the message's room in the in ring;
 * the kernel's copies still run on io_uring's workers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cache.h"
#include "gleamd.h"
#include "tls.h"
#include "util.h"

/* Messages queued on one stripe, and striped messages being read, at most. */
#define STRIPE_QUEUE	256
#define STRIPE_SLOTS	512

/* A stripe's socket buffers: several messages each way. */
#define STRIPE_SOCKBUF	(4 << 20)

/* TLS: plaintext sealed at a time, so that the next piece is sealed while the last leaves. */
#define STRIPE_SEAL_MAX	(512U << 10)

struct stripe_msg {
	const unsigned char *p;
	uint32_t len;
};

struct stripe {
	int fd;				/* -1: none */
	unsigned int index;
	bool hello_sent;		/* client: waiting for STRIPE_UP */
	bool up;			/* carries messages */
	bool connecting, sending, recving;
	struct op op_connect, op_send, op_recv;
	/* Out: messages in the out ring to send, in order; the first has osent gone. */
	struct stripe_msg q[STRIPE_QUEUE];
	uint32_t qhead, qlen, osent;
	uint64_t queued;		/* bytes not yet sent */
	/* In: the sequence number of the slot being read, or the next to look from. */
	uint32_t scan;
	unsigned char hello[sizeof(struct gleam_frame) + sizeof(struct gleam_hello)];
	/*
	 * TLS: the connection's own (NULL on plain TCP); whether what is in
	 * its out buffer is of the queue's first message (else the handshake's
	 * or the hello's).
	 */
	struct gl_tls *tls;
	bool sealed_msg;
	bool opening;			/* client, TLS: from the connect until the hello is sealed */
};

/* A striped message being read into the in ring. */
struct stripe_slot {
	unsigned char *dst;
	uint32_t len, have;
	uint32_t start;			/* the ring's position before its room was reserved */
	uint32_t after;			/* messages put in the ring after it, before the next slot */
	unsigned int stripe;
};

struct stripes {
	unsigned int n;			/* stripes of the session (client: opened; server: allowed) */
	struct stripe s[GLEAM_STRIPES_MAX];
	/* Slots, by sequence number: [first, next) are still coming or not yet published. */
	struct stripe_slot slot[STRIPE_SLOTS];
	uint32_t first, next;
	/* Client, in a session over TLS: the credentials, and the name the server's certificate must carry. */
	struct ssl_ctx_st *tls_ctx;
	char tls_host[256];
};

unsigned int stripes_wanted(void)
{
	const char *e = getenv("GLEAM_STRIPES");
	long cores;

	if (e && *e)
		return (unsigned int)MIN(strtoul(e, NULL, 10), (unsigned long)GLEAM_STRIPES_MAX);
	/*
	 * Each stripe wants a core at each end for its copies: where there
	 * are few, the program, both gleamd and the worker already share them.
	 */
	cores = sysconf(_SC_NPROCESSORS_ONLN);
	return cores >= 8 ? 4 : 0;
}

static struct stripe *stripe_of(struct op *op, size_t off)
{
	return (struct stripe *)((char *)op - off);
}

int stripes_init(struct bridge *b, unsigned int n)
{
	struct stripes *sp;

	if (b->sp)
		return 0;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	sp->n = MIN(n, (unsigned int)GLEAM_STRIPES_MAX);
	for (unsigned int i = 0; i < GLEAM_STRIPES_MAX; i++) {
		struct stripe *s = &sp->s[i];

		s->fd = -1;
		s->index = i;
		/* The owner is the session, as for its other operations: the loop hands them to the bridge. */
		s->op_connect = (struct op){ OP_STRIPE_CONNECT, b->op_tcp_recv.owner };
		s->op_send = (struct op){ OP_STRIPE_SEND, b->op_tcp_recv.owner };
		s->op_recv = (struct op){ OP_STRIPE_RECV, b->op_tcp_recv.owner };
	}
	b->sp = sp;
	return 0;
}

static void sock_opts(int fd)
{
	int one = 1, buf = STRIPE_SOCKBUF;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
}

static bool busy(const struct stripe *s)
{
	return s->connecting || s->sending || s->recving;
}

/* Its socket closes, and its TLS goes: nothing of it is in flight. */
static void stripe_release(struct stripe *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	gl_tls_free(s->tls);
	s->tls = NULL;
	s->sealed_msg = false;
}

/* A stripe no longer used: its socket closes once nothing of it is in flight. */
static void stripe_down(struct stripe *s)
{
	s->up = false;
	s->hello_sent = false;
	s->opening = false;
	s->qhead = s->qlen = s->osent = 0;
	s->queued = 0;
	if (s->fd < 0)
		return;
	if (busy(s)) {
		shutdown(s->fd, SHUT_RDWR);
		return;
	}
	stripe_release(s);
}

void stripes_open(struct bridge *b, const struct sockaddr *addr, unsigned int addrlen,
		  struct ssl_ctx_st *tls, const char *host)
{
	struct stripes *sp = b->sp;

	if (!sp || b->closing || b->detached)
		return;
	sp->tls_ctx = tls;
	snprintf(sp->tls_host, sizeof(sp->tls_host), "%s", host ? host : "");
	for (unsigned int i = 0; i < sp->n; i++) {
		struct stripe *s = &sp->s[i];
		struct io_uring_sqe *sqe;

		if (s->fd >= 0)
			continue;
		s->fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s->fd < 0)
			return;
		sock_opts(s->fd);
		sqe = loop_sqe();
		if (!sqe) {
			stripe_down(s);
			return;
		}
		io_uring_prep_connect(sqe, s->fd, addr, addrlen);
		io_uring_sqe_set_data(sqe, &s->op_connect);
		s->connecting = true;
		b->inflight++;
	}
}

static void post_send(struct bridge *b, struct stripe *s);
static void post_recv(struct bridge *b, struct stripe *s);

/* The stripe's hello, in s->hello. */
static void make_hello(struct bridge *b, struct stripe *s)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = GLEAM_FRAME_HELLO,
				 .len = sizeof(struct gleam_hello) };
	struct gleam_hello h = { .version = GLEAM_WIRE_VERSION, .min_version = GLEAM_WIRE_VERSION,
				 .features = GLEAM_WIRE_F_STRIPE, .kind = GLEAM_HELLO_STRIPE,
				 .resume_token = b->token, .resume_count = s->index };

	memcpy(s->hello, &f, sizeof(f));
	memcpy(s->hello + sizeof(f), &h, sizeof(h));
}

/*
 * Client, TLS: the handshake moved on (res: 1 over, 0 more to come, < 0
 * failed).  Once over, the hello goes sealed; the stripe is used once the
 * server's STRIPE_UP comes on the session's connection.
 */
static void tls_handshake_step(struct bridge *b, struct stripe *s, int res)
{
	if (res < 0) {
		gl_dbg("session: stripe %u: TLS: %s", s->index, s->tls->why);
		stripe_down(s);
		return;
	}
	/* The handshake's last bytes go first (tls_send_done comes back here); the hello after them. */
	if (res && !s->hello_sent && s->tls->out_len == s->tls->out_sent && !s->tls->out_busy) {
		make_hello(b, s);
		if (gl_tls_seal(s->tls, s->hello, sizeof(s->hello))) {
			stripe_down(s);
			return;
		}
		s->hello_sent = true;
		s->opening = false;
	}
	post_send(b, s);
	if (!res)
		post_recv(b, s);
}

/* Client: connected; the hello goes at once (a socket just made has room for it). */
static void stripe_connected(struct bridge *b, struct stripe *s, int res)
{
	ssize_t n;

	if (res < 0 || b->detached || b->closing || !b->token) {
		if (res < 0)
			gl_dbg("session: stripe %u: %s", s->index, strerror(-res));
		stripe_down(s);
		return;
	}
	if (b->sp->tls_ctx) {
		if (gl_tls_new(&s->tls, b->sp->tls_ctx, false, b->sp->tls_host)) {
			stripe_down(s);
			return;
		}
		s->opening = true;
		tls_handshake_step(b, s, gl_tls_handshake(s->tls));
		return;
	}
	make_hello(b, s);
	n = send(s->fd, s->hello, sizeof(s->hello), MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n != (ssize_t)sizeof(s->hello)) {
		stripe_down(s);
		return;
	}
	s->hello_sent = true;
}

int stripes_attach(struct bridge *b, unsigned int i, int fd, struct gl_tls *tls)
{
	struct stripes *sp = b->sp;
	struct gleam_stripe_up up = { .stripe = i };
	struct stripe *s;

	if (!sp || i >= sp->n || b->closing || b->detached || !b->hello_done)
		return -ENOENT;
	s = &sp->s[i];
	if (s->fd >= 0)
		return -EBUSY;
	sock_opts(fd);
	s->fd = fd;
	s->tls = tls;
	s->up = true;
	b->st.stripes = MAX(b->st.stripes, (uint64_t)stripes_open_count(b));
	/* The client uses it once this comes, after what the connection carries now. */
	bridge_queue_frame(b, GLEAM_FRAME_STRIPE_UP, &up, sizeof(up));
	return 0;
}

bool stripes_up(struct bridge *b, const void *p, uint32_t len)
{
	struct gleam_stripe_up up;
	struct stripe *s;

	if (!b->sp || len != sizeof(up))
		return false;
	memcpy(&up, p, sizeof(up));
	if (up.reserved || up.stripe >= b->sp->n)
		return false;
	s = &b->sp->s[up.stripe];
	/* A stripe closed meanwhile (its hello answered after a drop): not used. */
	if (s->fd < 0 || !s->hello_sent)
		return true;
	s->up = true;
	b->st.stripes = MAX(b->st.stripes, (uint64_t)stripes_open_count(b));
	return true;
}

unsigned int stripes_open_count(const struct bridge *b)
{
	unsigned int n = 0;

	if (!b->sp)
		return 0;
	for (unsigned int i = 0; i < b->sp->n; i++)
		n += b->sp->s[i].up;
	return n;
}

int stripes_pick(struct bridge *b)
{
	struct stripes *sp = b->sp;
	int best = -1;

	if (!sp || b->detached)
		return -1;
	for (unsigned int i = 0; i < sp->n; i++) {
		struct stripe *s = &sp->s[i];

		if (!s->up || s->qlen == STRIPE_QUEUE)
			continue;
		if (best < 0 || s->queued < sp->s[best].queued)
			best = (int)i;
	}
	return best;
}

/*
 * TLS: what goes next, in the connection's out buffer: what is still
 * there (the handshake's, the hello, a piece not yet sent whole), else the
 * next piece of the queue's first message, sealed now from the ring.
 * false: nothing to send, or the seal failed (the stripe is down).
 */
static bool tls_next(struct stripe *s)
{
	struct gl_tls *t = s->tls;
	const struct stripe_msg *m = &s->q[s->qhead];

	if (t->out_len > t->out_sent)
		return true;
	if (!t->done || !s->up || !s->qlen)
		return false;
	if (gl_tls_seal(t, m->p + s->osent, MIN(m->len - s->osent, STRIPE_SEAL_MAX))) {
		gl_err("session: stripe %u: TLS: %s", s->index, t->why);
		stripe_down(s);
		return false;
	}
	s->sealed_msg = true;
	return true;
}

static void post_send(struct bridge *b, struct stripe *s)
{
	const struct stripe_msg *m = &s->q[s->qhead];
	struct io_uring_sqe *sqe;

	if (s->sending || s->fd < 0)
		return;
	if (s->tls ? !tls_next(s) : !s->qlen || !s->up)
		return;
	/* No room to ask now: the next completion or kick of the stripe asks again. */
	sqe = loop_sqe();
	if (!sqe)
		return;
	if (s->tls) {
		io_uring_prep_send(sqe, s->fd, s->tls->out + s->tls->out_sent,
				   s->tls->out_len - s->tls->out_sent, MSG_NOSIGNAL);
		s->tls->out_busy = true;
	} else {
		io_uring_prep_send(sqe, s->fd, m->p + s->osent, m->len - s->osent, MSG_NOSIGNAL);
	}
	/* Sent by one of io_uring's workers: the copy runs beside the loop's. */
	sqe->flags |= IOSQE_ASYNC;
	io_uring_sqe_set_data(sqe, &s->op_send);
	s->sending = true;
	b->inflight++;
}

void stripes_queue(struct bridge *b, int i, const unsigned char *p, uint32_t len)
{
	struct stripe *s = &b->sp->s[i];

	s->q[(s->qhead + s->qlen) % STRIPE_QUEUE] = (struct stripe_msg){ p, len };
	s->qlen++;
	s->queued += len;
	b->st.striped_out++;
	post_send(b, s);
}

int stripes_note_check(struct bridge *b, const struct gleam_stripe_note *n)
{
	struct stripes *sp = b->sp;

	if (!sp || n->len != sizeof(*n) || n->fn != GLEAM_FN_STRIPED || n->flags ||
	    n->reserved[0] || n->reserved[1] || n->stripe >= sp->n || !sp->s[n->stripe].up ||
	    n->msg_len < sizeof(struct gleam_rec) || (n->msg_len & 7) || n->msg_len > GLEAM_REC_MAX ||
	    n->msg_len > b->in_dir->size / 2)
		return -EINVAL;
	if (sp->next - sp->first == STRIPE_SLOTS)
		return -EAGAIN;
	return 0;
}

/* The slot stripe s reads next: the first from its scan on that is its own. */
static struct stripe_slot *next_slot(struct stripes *sp, struct stripe *s)
{
	for (; s->scan != sp->next; s->scan++) {
		struct stripe_slot *sl = &sp->slot[s->scan % STRIPE_SLOTS];

		if (sl->stripe == s->index && sl->have < sl->len)
			return sl;
	}
	return NULL;
}

static void post_recv(struct bridge *b, struct stripe *s)
{
	struct stripe_slot *sl = NULL;
	struct io_uring_sqe *sqe;

	if (s->recving || s->fd < 0 || b->detached || b->closing)
		return;
	/* The client's TLS handshake reads the server's next flight; messages wait for their slots. */
	if (!s->tls || s->tls->done) {
		if (!s->up)
			return;
		/* Slots before the first are published: never look there. */
		if ((int32_t)(s->scan - b->sp->first) < 0)
			s->scan = b->sp->first;
		sl = next_slot(b->sp, s);
		if (!sl)
			return;
	}
	sqe = loop_sqe();
	if (!sqe)
		return;
	if (s->tls && s->tls->done && gl_tls_pending(s->tls)) {
		/* Records already here are opened where completions are handled. */
		io_uring_prep_nop(sqe);
		s->tls->replay = true;
	} else if (s->tls) {
		io_uring_prep_recv(sqe, s->fd, s->tls->in + s->tls->in_len, gl_tls_in_room(s->tls), 0);
		sqe->flags |= IOSQE_ASYNC;
	} else {
		io_uring_prep_recv(sqe, s->fd, sl->dst + sl->have, sl->len - sl->have, MSG_WAITALL);
		sqe->flags |= IOSQE_ASYNC;
	}
	io_uring_sqe_set_data(sqe, &s->op_recv);
	s->recving = true;
	b->inflight++;
}

void stripes_slot_add(struct bridge *b, void *dst, uint32_t len, uint32_t start, unsigned int stripe)
{
	struct stripes *sp = b->sp;

	sp->slot[sp->next % STRIPE_SLOTS] = (struct stripe_slot){ .dst = dst, .len = len,
		.start = start, .stripe = stripe };
	sp->next++;
	post_recv(b, &sp->s[stripe]);
}

void stripes_kick(struct bridge *b)
{
	if (!b->sp || b->detached || b->closing)
		return;
	for (unsigned int i = 0; i < b->sp->n; i++) {
		post_send(b, &b->sp->s[i]);
		post_recv(b, &b->sp->s[i]);
	}
}

bool stripes_pending(const struct bridge *b)
{
	return b->sp && b->sp->first != b->sp->next;
}

uint32_t stripes_first_pos(const struct bridge *b)
{
	return b->sp->slot[b->sp->first % STRIPE_SLOTS].start;
}

void stripes_count_after(struct bridge *b)
{
	b->sp->slot[(b->sp->next - 1) % STRIPE_SLOTS].after++;
}

/*
 * The first slots whose bytes are all in: checked, counted as taken, and
 * published with what came after them.  false: one is malformed.
 */
static bool slots_done(struct bridge *b)
{
	struct stripes *sp = b->sp;
	bool records = b->in_type == GLEAM_FRAME_RECORDS;
	bool published = false;

	while (sp->first != sp->next) {
		struct stripe_slot *sl = &sp->slot[sp->first % STRIPE_SLOTS];
		struct gleam_rec h;

		if (sl->have < sl->len)
			break;
		/* Its header, checked on a copy: the ring is shared. */
		memcpy(&h, sl->dst, sizeof(h));
		if (h.len != sl->len || !bridge_header_ok(b, &h, sl->len, records) ||
		    (records && (h.flags & (GLEAM_REC_F_PACKED | GLEAM_REC_F_CACHED)))) {
			gl_err("session: peer sent a malformed message on stripe %u", sl->stripe);
			return false;
		}
		memcpy(sl->dst, &h, sizeof(h));
		b->in_count += 1 + sl->after;
		b->ack_bytes += sl->len;
		b->st.payload += sl->len - sizeof(struct gleam_reply);
		b->st.bytes_in += sl->len;
		b->st.striped_in++;
		sp->first++;
		published = true;
	}
	if (!published)
		return true;
	/*
	 * Up to the first message not yet whole: the next slot still coming,
	 * or a large message the session's connection is reading straight
	 * into the ring (bridge.c, direct_begin), whose room lies past every
	 * slot reserved before it.  Published with its tail still coming, it
	 * was replayed with the bytes an earlier message left there.
	 */
	gl_ring_commit_to(b->in_dir, sp->first != sp->next ? stripes_first_pos(b) :
				     b->direct ? b->direct_pos : b->in_dir->pos);
	return bridge_in_done(b);
}

void stripes_detach(struct bridge *b)
{
	struct stripes *sp = b->sp;

	if (!sp)
		return;
	/* What was reserved from the first striped message on is not published: it goes back. */
	if (sp->first != sp->next)
		b->in_dir->pos = stripes_first_pos(b);
	sp->first = sp->next = 0;
	for (unsigned int i = 0; i < GLEAM_STRIPES_MAX; i++) {
		sp->s[i].scan = 0;
		stripe_down(&sp->s[i]);
	}
}

bool stripes_idle(const struct bridge *b)
{
	if (!b->sp)
		return true;
	for (unsigned int i = 0; i < GLEAM_STRIPES_MAX; i++)
		if (b->sp->s[i].fd >= 0 && busy(&b->sp->s[i]))
			return false;
	return true;
}

void stripes_close(struct bridge *b)
{
	if (!b->sp)
		return;
	for (unsigned int i = 0; i < GLEAM_STRIPES_MAX; i++)
		stripe_down(&b->sp->s[i]);
}

void stripes_free(struct bridge *b)
{
	if (!b->sp)
		return;
	for (unsigned int i = 0; i < GLEAM_STRIPES_MAX; i++)
		stripe_release(&b->sp->s[i]);
	free(b->sp);
	b->sp = NULL;
}

/* A stripe in use failed: it goes down, and the session's connection with it. */
static bool stripe_failed(struct bridge *b, struct stripe *s, const char *why)
{
	bool was_up = s->up;

	stripe_down(s);
	return was_up ? bridge_lost(b, why) : true;
}

/* TLS: res bytes of the connection's out buffer went.  false: the session must end. */
static bool tls_send_done(struct bridge *b, struct stripe *s, int res)
{
	struct gl_tls *t = s->tls;
	size_t plain = t->out_plain;
	bool msg = s->sealed_msg;

	t->out_busy = false;
	if (res <= 0)
		return stripe_failed(b, s, "a stripe failed");
	/* Down meanwhile: it closes once idle. */
	if (!s->up && !s->opening && !s->hello_sent)
		return true;
	if (!gl_tls_sent(t, (size_t)res)) {
		post_send(b, s);
		return true;
	}
	s->sealed_msg = false;
	if (msg) {
		s->osent += (uint32_t)plain;
		s->queued -= plain;
		b->st.bytes_out += plain;
		if (s->osent == s->q[s->qhead].len) {
			s->qhead = (s->qhead + 1) % STRIPE_QUEUE;
			s->qlen--;
			s->osent = 0;
		}
	} else if (s->opening && t->done) {
		/* The handshake's last flight went: the hello now. */
		tls_handshake_step(b, s, 1);
		return true;
	}
	post_send(b, s);
	return true;
}

/*
 * TLS: res bytes came (0 on a nop that asked for what is buffered): the
 * client's handshake moves on, or records are opened straight into the
 * rooms of the stripe's messages, in order.  false: the session must end.
 */
static bool tls_recv_done(struct bridge *b, struct stripe *s, int res)
{
	struct gl_tls *t = s->tls;

	if (t->replay)
		t->replay = false;
	else if (res <= 0)
		return stripe_failed(b, s, res ? strerror(-res) : "a stripe closed");
	else
		gl_tls_received(t, (size_t)res);
	if (b->detached || (!s->up && !s->opening))
		return true;
	if (!t->done) {
		tls_handshake_step(b, s, gl_tls_handshake(t));
		return true;
	}
	if (!s->up)
		return true;
	for (;;) {
		struct stripe_slot *sl;
		ssize_t n;

		if ((int32_t)(s->scan - b->sp->first) < 0)
			s->scan = b->sp->first;
		sl = next_slot(b->sp, s);
		if (!sl)
			break;
		n = gl_tls_open(t, sl->dst + sl->have, sl->len - sl->have);
		if (!n)
			break;
		if (n < 0) {
			if (n != -EPIPE)
				gl_err("session: stripe %u: TLS: %s", s->index, t->why);
			return stripe_failed(b, s, n == -EPIPE ? "a stripe closed" :
					     "a stripe's record did not open");
		}
		sl->have += (uint32_t)n;
		if (sl->have == sl->len && !slots_done(b))
			return false;
		/* What was published may have taken the stripe down (its TLS gone with it). */
		if (t != s->tls || !s->up)
			return true;
	}
	post_recv(b, s);
	return true;
}

/* An operation of a stripe ended: false when the session must end. */
bool stripes_complete(struct bridge *b, struct op *op, int res)
{
	struct stripe *s;

	b->inflight--;
	switch (op->type) {
	case OP_STRIPE_CONNECT:
		s = stripe_of(op, offsetof(struct stripe, op_connect));
		s->connecting = false;
		stripe_connected(b, s, res);
		break;
	case OP_STRIPE_SEND:
		s = stripe_of(op, offsetof(struct stripe, op_send));
		s->sending = false;
		if (s->tls) {
			if (!tls_send_done(b, s, res))
				return false;
			break;
		}
		if (!s->up)
			break;
		if (res <= 0) {
			stripe_down(s);
			return bridge_lost(b, "a stripe failed");
		}
		s->osent += (uint32_t)res;
		s->queued -= (uint32_t)res;
		b->st.bytes_out += (uint32_t)res;
		if (s->osent == s->q[s->qhead].len) {
			s->qhead = (s->qhead + 1) % STRIPE_QUEUE;
			s->qlen--;
			s->osent = 0;
		}
		post_send(b, s);
		break;
	case OP_STRIPE_RECV: {
		struct stripe_slot *sl;

		s = stripe_of(op, offsetof(struct stripe, op_recv));
		s->recving = false;
		if (s->tls) {
			if (!tls_recv_done(b, s, res))
				return false;
			break;
		}
		if (!s->up || b->detached)
			break;
		if (res <= 0) {
			stripe_down(s);
			return bridge_lost(b, res ? strerror(-res) : "a stripe closed");
		}
		sl = &b->sp->slot[s->scan % STRIPE_SLOTS];
		sl->have += (uint32_t)res;
		if (sl->have == sl->len && !slots_done(b))
			return false;
		post_recv(b, s);
		break;
	}
	default:
		return true;
	}
	/* A stripe down and idle closes now. */
	if (!s->up && !busy(s) && s->fd >= 0 && !s->hello_sent && !s->opening)
		stripe_release(s);
	return true;
}
