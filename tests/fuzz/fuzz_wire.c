// SPDX-License-Identifier: MIT
/*
 * The byte stream a gleamd reads from its TCP peer, in either role: frame
 * headers, control frames, and RECORDS (server) or REPLIES (client) frames,
 * arriving split at any points.  The roles' own code handles it
 * (broker/bridge.c, and the frame handlers of server.c and client.c, with
 * cache.c's for uploads by content); the harness plays the kernel
 * (fz_uring.c), the peer, and the other end of the session ring (the replay
 * worker, or the application), mapped as a real session maps it.  The
 * server keeps its chunk store in memory, emptied for each input.
 *
 * The input: a header, then the peer's bytes.
 *   [0]      flags (F_*)
 *   [1..8]   read sizes, used in turn: 1..127 bytes, 128..254 for
 *            (n - 127) * 256 bytes, 0 for everything left; 255: the
 *            connection drops instead (a reset), and the peer connects
 *            again (server) or is connected to again (client), at most
 *            four times, the stream going on on the new connection
 *   [9..12]  F_HOSTILE: what the consumer adds to its published head
 *
 * The server gives every session the token FZ_TOKEN, so that a hello of
 * kind RESUME on a new connection can take a dropped session up again.
 *
 * After each step: the bridge's state agrees with the operations in flight
 * and its own limits; every message it published on the ring passes the
 * same checks as on the wire and is a piece of the peer's stream, in order
 * (but for records whose named bytes the server put back); every frame it
 * sent is well-formed, of a type its role sends.  Each input ends with
 * every session freed, nothing left in flight and no descriptor left open.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gleam_api_gen.h"
#include "gleam_cache.h"
#include "fz.h"
#include "util.h"

#define F_CLIENT	0x01	/* the client role: the peer is a server */
#define F_SMALL		0x02	/* 64 KiB rings, so that they fill */
#define F_LAZY		0x04	/* the ring's consumer works only when gleamd waits */
#define F_HOSTILE	0x08	/* the consumer publishes a head of its own, then stops */
#define F_RESET		0x10	/* the peer ends with a reset, not an orderly close */
#define F_PARTIAL	0x20	/* sends complete in pieces */
#define F_TRAFFIC	0x40	/* the application sends records, the worker answers */
#define F_LATE		0x80	/* data already received still arrives after a close */

#define HDR		13
#define STEPS_MAX	(1 << 20)
#define DROPS_MAX	4
#define DROP		SIZE_MAX	/* chunk(): the connection drops */

struct wire {
	unsigned int flags;
	bool client;
	const uint8_t *in;		/* the peer's bytes */
	size_t len, pos;
	size_t match;			/* accepted messages come from here on */
	const uint8_t *split;
	unsigned int nsplit;
	int tcp;			/* the connection now, or -1 */
	unsigned int drops, retakes;
	uint32_t hostile;
	struct bridge *b;		/* NULL once the session is freed */
	void *owner;
	/* The other end of the session ring: the worker or the application. */
	struct gl_ring ring;
	bool have_ring, mapped;
	struct gl_ring_dir *cons, *prod;
	bool stopped;			/* the hostile consumer gave up */
	bool cache;			/* the session has uploads by content */
	int app;			/* client: the application's local socket */
	unsigned int bells;		/* doorbells for gleamd, not yet read */
	unsigned int produced, consumed, frames_out, steps;
	bool blocked;			/* gleamd waited for room on the ring */
	uint32_t tag;
	/* What gleamd sent its peer, checked frame by frame. */
	unsigned char *out;
	size_t olen, ocap;
};

static struct config ccfg, scfg;

/* A message as the bridge checks it; cached: a record may name its bytes. */
static bool msg_ok(const void *p, uint32_t n, bool records, uint32_t ring_size, bool cached)
{
	const struct gleam_rec *r = p;
	const struct gleam_reply *q = p;
	uint16_t known = GLEAM_REC_F_KNOWN | (cached ? GLEAM_REC_F_CACHED : 0);

	if (n < (records ? sizeof(*r) : sizeof(*q)) || (n & 7) || n > GLEAM_REC_MAX ||
	    (ring_size && n > ring_size / 2))
		return false;
	if (records)
		return r->len == n && r->fn < GL_FN_LIMIT && gl_fn_table[r->fn].name &&
		       !(r->flags & ~known) && !r->reserved;
	return q->len == n && q->fn < GL_FN_LIMIT && gl_fn_table[q->fn].name &&
	       !(q->flags & ~GLEAM_REP_F_KNOWN) && !q->reserved;
}

/* The next read size, at most max; DROP where the connection drops. */
static size_t chunk(struct wire *w, size_t max)
{
	unsigned int s = w->split[w->nsplit++ % 8];
	size_t n = !s ? max : s < 128 ? s : (size_t)(s - 127) * 256;

	if (s == 255 && w->drops < DROPS_MAX)
		return DROP;
	return MIN(n, max);
}

static bool alive(struct wire *w)
{
	return w->client ? fz_client_alive(w->b) : fz_server_alive(w->b);
}

static unsigned int sessions(struct wire *w)
{
	return w->client ? fz_client_sessions() : fz_server_sessions();
}

static void complete(struct wire *w, struct fz_op *o, int res)
{
	if (w->client) {
		fz_client_complete(o->op, res);
	} else {
		fz_server_complete(o->op, res);
		/* The tick, as often as anything happens. */
		fz_server_reap();
	}
	fz_harvest();
	if (w->b && !alive(w)) {
		if (fz_count(w->owner))
			FZ_FAIL("session freed with %u operations in flight", fz_count(w->owner));
		w->b = NULL;
		/* The server's ring went with the session; the application keeps its own map. */
		if (!w->mapped)
			w->have_ring = false;
	}
}

/* The frames each role sends (gleam_wire.h, gleam_cache.h); 0 is none. */
static bool type_ok(bool client, uint16_t t)
{
	switch (t) {
	case GLEAM_FRAME_PING:
	case GLEAM_FRAME_PONG:
	case GLEAM_FRAME_BYE:
	case GLEAM_FRAME_ACK:
		return true;
	case GLEAM_FRAME_HELLO:
	case GLEAM_FRAME_RECORDS:
	case GLEAM_FRAME_CACHE_QUERY:
	case GLEAM_FRAME_CACHE_DATA:
	case GLEAM_FRAME_CACHE_RELEASE:
		return client;
	case GLEAM_FRAME_HELLO_ACK:
	case GLEAM_FRAME_REPLIES:
	case GLEAM_FRAME_INFO:
	case GLEAM_FRAME_ERROR:
	case GLEAM_FRAME_CACHE_INFO:
	case GLEAM_FRAME_CACHE_HAVE:
	case GLEAM_FRAME_CACHE_REPORT:
		return !client;
	default:
		/* Types newer than this harness are the protocol's to check. */
		return t > GLEAM_FRAME_CACHE_REPORT;
	}
}

/* The frames gleamd sent so far, each checked once whole. */
static void check_out(struct wire *w)
{
	size_t off = 0;

	while (w->olen - off >= sizeof(struct gleam_frame)) {
		const unsigned char *p = w->out + off + sizeof(struct gleam_frame);
		struct gleam_frame f;
		bool batch;

		memcpy(&f, w->out + off, sizeof(f));
		if (f.magic != GLEAM_WIRE_MAGIC || f.flags || f.reserved || f.len > GLEAM_FRAME_MAX)
			FZ_FAIL("gleamd sent a malformed frame header");
		if (!type_ok(w->client, f.type))
			FZ_FAIL("gleamd sent a frame of type %u", f.type);
		if (w->olen - off - sizeof(f) < f.len)
			break;
		batch = f.type == GLEAM_FRAME_RECORDS || f.type == GLEAM_FRAME_REPLIES;
		for (uint32_t m = 0; batch && m < f.len;) {
			uint32_t n;

			if (f.len - m < 8)
				FZ_FAIL("gleamd sent a batch that ends in a piece of a message");
			memcpy(&n, p + m, 4);
			if (n > f.len - m || !msg_ok(p + m, n, f.type == GLEAM_FRAME_RECORDS, 0, true))
				FZ_FAIL("gleamd sent a malformed message");
			m += n;
		}
		if ((f.type == GLEAM_FRAME_HELLO && f.len != sizeof(struct gleam_hello)) ||
		    (f.type == GLEAM_FRAME_HELLO_ACK && f.len != sizeof(struct gleam_hello_ack)) ||
		    (f.type == GLEAM_FRAME_ERROR && f.len != sizeof(struct gleam_wire_error)) ||
		    (f.type == GLEAM_FRAME_PONG && f.len != 0 && f.len != 8) ||
		    (f.type == GLEAM_FRAME_CACHE_INFO && f.len != sizeof(struct gleam_cache_info)) ||
		    (f.type == GLEAM_FRAME_ACK && f.len != sizeof(struct gleam_wire_ack)))
			FZ_FAIL("gleamd sent a frame of type %u and length %u", f.type, f.len);
		/* What gleamctl shows of the store: JSON text, NUL-ended. */
		if (f.type == GLEAM_FRAME_CACHE_REPORT &&
		    (!f.len || p[f.len - 1] || !fz_json_valid((const char *)p, f.len - 1)))
			FZ_FAIL("gleamd sent a store report that is not JSON: %.*s", (int)f.len, p);
		off += sizeof(f) + f.len;
		w->frames_out++;
	}
	memmove(w->out, w->out + off, w->olen - off);
	w->olen -= off;
}

static void sent(struct wire *w, struct fz_op *o)
{
	size_t n = w->flags & F_PARTIAL ? chunk(w, o->len) : o->len;

	if (n == DROP || (!n && o->len))
		n = MIN(o->len, 1u);
	if (w->olen + n > w->ocap) {
		w->ocap = MAX(w->ocap * 2, w->olen + n);
		w->out = realloc(w->out, w->ocap);
		if (!w->out)
			FZ_FAIL("out of memory");
	}
	/* The kernel reads the buffer when it sends, not before. */
	memcpy(w->out + w->olen, o->addr, n);
	w->olen += n;
	check_out(w);
	complete(w, o, (int)n);
}

/* The worker answers a record that waits; the application sends a record. */
static void produce(struct wire *w, const struct gleam_rec *r)
{
	uint32_t n = w->client ? sizeof(struct gleam_rec) + 8 : sizeof(struct gleam_reply);
	unsigned char *p = gl_ring_reserve(w->prod, n);

	if (!p)
		return;
	memset(p, 0, n);
	if (w->client) {
		struct gleam_rec *q = (struct gleam_rec *)p;

		q->len = n;
		q->fn = GL_FN_cuCtxSynchronize;
		q->flags = GLEAM_REC_F_REPLY;
		q->tag = ++w->tag;
		q->seq = w->tag;
	} else {
		struct gleam_reply *q = (struct gleam_reply *)p;

		q->len = n;
		q->fn = r->fn;
		q->tag = r->tag;
		q->seq = r->seq;
	}
	gl_ring_commit(w->prod);
	w->produced++;
	if (gl_ring_cons_flags(w->prod) & GLEAM_RING_CONS_NEED_WAKEUP)
		w->bells++;
}

/* The other end of the ring: take what gleamd published, and check it. */
static bool work_ring(struct wire *w)
{
	bool records = !w->client, any = false;
	const unsigned char *p;
	uint32_t n;

	if (!w->have_ring && w->b && w->b->ring.base) {
		/* The server's ring appears with the hello: the worker's view of it. */
		if (gl_ring_attach(w->b->ring.base, w->b->ring.region_size, &w->ring))
			FZ_FAIL("the session's ring does not attach");
		w->have_ring = true;
		w->cons = &w->ring.sq;
		w->prod = &w->ring.cq;
	}
	if (!w->have_ring || w->stopped)
		return false;
	/* Awake: gleamd need not ring while this end looks. */
	gl_ring_cons_set_sleeping(w->cons, false);
again:
	while ((p = gl_ring_peek(w->cons, records ? sizeof(struct gleam_rec) :
				 sizeof(struct gleam_reply), GLEAM_REC_MAX, &n))) {
		unsigned char *copy = malloc(n);
		const uint8_t *at;

		if (!copy)
			FZ_FAIL("out of memory");
		memcpy(copy, p, n);
		/* The worker never sees a record that names its bytes. */
		if (!msg_ok(copy, n, records, w->cons->size, false))
			FZ_FAIL("gleamd published a malformed message (length %u)", n);
		at = memmem(w->in + w->match, w->len - w->match, copy, n);
		/* A record whose named bytes came back is not on the wire as it is. */
		if (!at && !(records && w->cache))
			FZ_FAIL("gleamd published a message its peer never sent (length %u)", n);
		if (at)
			w->match = (size_t)(at - w->in) + n;
		if ((w->flags & F_TRAFFIC) && records &&
		    (((struct gleam_rec *)copy)->flags & GLEAM_REC_F_REPLY))
			produce(w, (struct gleam_rec *)copy);
		free(copy);
		gl_ring_consume(w->cons, n);
		w->consumed++;
		any = true;
		if (w->flags & F_HOSTILE) {
			/* Indices from the other side are never to be trusted. */
			__atomic_store_n(&w->cons->ctl->head, w->cons->pos + w->hostile,
					 __ATOMIC_RELEASE);
			w->stopped = true;
			w->bells++;
			return true;
		}
	}
	if (w->cons->broken)
		FZ_FAIL("gleamd wrote a ring its consumer finds broken");
	if (any && gl_ring_consume_publish(w->cons))
		w->bells++;
	/* About to sleep: ask for a doorbell, then look once more (gleam_ring.h). */
	gl_ring_cons_set_sleeping(w->cons, true);
	if (!gl_ring_empty(w->cons)) {
		gl_ring_cons_set_sleeping(w->cons, false);
		goto again;
	}
	if (w->client && (w->flags & F_TRAFFIC) && w->produced < 16 && w->pos < w->len) {
		produce(w, NULL);
		any = true;
	}
	return any;
}

static void check_bridge(struct wire *w)
{
	const struct bridge *b = w->b;

	if (b->ilen > b->icap || b->olen > b->ocap || b->osent > b->olen ||
	    b->frame_left > GLEAM_FRAME_MAX)
		FZ_FAIL("bridge buffers out of bounds: in %zu/%zu out %zu/%zu/%zu frame %u",
			b->ilen, b->icap, b->osent, b->olen, b->ocap, b->frame_left);
	if (b->inflight != (int)fz_count(w->owner))
		FZ_FAIL("bridge counts %d operations in flight, %u are", b->inflight,
			fz_count(w->owner));
	if (b->recving != !!fz_find(&b->op_tcp_recv) || b->sending != !!fz_find(&b->op_tcp_send) ||
	    b->bell_recving != !!fz_find(&b->op_bell_recv) ||
	    b->bell_sending != !!fz_find(&b->op_bell_send))
		FZ_FAIL("bridge flags disagree with what is in flight");
	if ((b->hello_done && !b->ring.base) || (b->frame_left && !b->hello_done))
		FZ_FAIL("bridge in a batch without a session");
	w->cache |= b->sc != NULL;
}

/* The application's hello on the local socket, and its ring. */
static void client_start(struct wire *w)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_SESSION };
	struct gleam_local_ack ack;
	struct fz_op o;
	int sv[2], fd;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		FZ_FAIL("socketpair: %s", strerror(errno));
	w->app = sv[1];
	w->b = fz_client_accept(sv[0]);
	fz_harvest();
	if (!w->b || !fz_take(w->b, OP_BELL_RECV, &o) || o.len < sizeof(h))
		FZ_FAIL("the client takes no hello");
	w->owner = w->b;
	snprintf(h.program, sizeof(h.program), "fuzz");
	memcpy(o.addr, &h, sizeof(h));
	complete(w, &o, sizeof(h));
	if (gl_recv_fd(w->app, &ack, sizeof(ack), &fd) != sizeof(ack) || ack.status || fd < 0)
		FZ_FAIL("the client answers no ring");
	if (gl_ring_map(fd, &w->ring))
		FZ_FAIL("the client's ring does not map");
	close(fd);
	w->have_ring = w->mapped = true;
	w->cons = &w->ring.cq;
	w->prod = &w->ring.sq;
}

/* The peer's next bytes into a receive on the connection, or the connection drops. */
static void deliver(struct wire *w, struct fz_op *o)
{
	size_t n = chunk(w, MIN(o->len, w->len - w->pos));

	if (n == DROP) {
		w->drops++;
		w->tcp = -1;
		/* What was half sent on the old connection is gone with it. */
		w->olen = 0;
		complete(w, o, -ECONNRESET);
		return;
	}
	memcpy(o->addr, w->in + w->pos, n);
	w->pos += n;
	complete(w, o, (int)n);
}

/* What is in flight for a session that is closing ends; true if anything did. */
static bool end_closing(struct wire *w)
{
	struct fz_op o;

	for (unsigned int i = 0; i < fz_nops; i++) {
		const struct bridge *b = fz_ops[i].op->owner;
		bool recv = fz_ops[i].op->type == OP_TCP_RECV;

		if (!b->closing)
			continue;
		o = fz_ops[i];
		fz_ops[i] = fz_ops[--fz_nops];
		/* Shut down: it ends now, or with what came before. */
		if ((w->flags & F_LATE) && recv && o.fd == w->tcp && w->pos < w->len) {
			deliver(w, &o);
			return true;
		}
		complete(w, &o, recv || o.op->type == OP_BELL_RECV ? 0 : -EPIPE);
		return true;
	}
	return false;
}

static void run(struct wire *w)
{
	struct fz_op o;

	for (unsigned int step = 0; sessions(w); step++) {
		if (step == STEPS_MAX)
			FZ_FAIL("the session never ends");
		w->steps = step;
		if (w->b) {
			check_bridge(w);
			w->blocked |= w->b->in_blocked;
			/* The other end still reads what reached the ring. */
			if (w->b->closing && work_ring(w))
				continue;
		}
		if (end_closing(w))
			continue;
		/* Sends on the connection are read by the peer; on one that dropped, fail. */
		if (fz_take_fd(-1, OP_TCP_SEND, &o)) {
			if (o.fd == w->tcp)
				sent(w, &o);
			else
				complete(w, &o, -EPIPE);
			continue;
		}
		if (fz_take_fd(-1, OP_BELL_SEND, &o)) {
			complete(w, &o, 1);
			continue;
		}
		if (fz_take_fd(-1, OP_CONNECT, &o)) {
			w->tcp = o.fd;
			w->olen = 0;
			complete(w, &o, 0);
			continue;
		}
		if (!(w->flags & F_LAZY) && work_ring(w))
			continue;
		if (w->bells && w->b && fz_take(w->owner, OP_BELL_RECV, &o)) {
			if (o.len)
				*(char *)o.addr = w->client ? GLEAM_BELL_SQ : GLEAM_BELL_CQ;
			w->bells = 0;
			complete(w, &o, 1);
			continue;
		}
		if (w->pos < w->len && w->tcp >= 0 && fz_take_fd(w->tcp, OP_TCP_RECV, &o)) {
			deliver(w, &o);
			continue;
		}
		if (w->pos < w->len && w->tcp < 0) {
			/* The peer connects again (server), or is connected to again (client). */
			if (!w->client) {
				int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

				if (fd < 0)
					FZ_FAIL("socket: %s", strerror(errno));
				w->tcp = fd;
				w->olen = 0;
				fz_server_accept(fd);
				fz_harvest();
				continue;
			}
			if (w->b && w->retakes < DROPS_MAX && fz_client_retake(w->b)) {
				w->retakes++;
				fz_harvest();
				continue;
			}
		}
		if (work_ring(w))
			continue;
		/* Nothing moves: the peer has said all it will, then the other end goes. */
		if (w->tcp >= 0 && fz_take_fd(w->tcp, OP_TCP_RECV, &o)) {
			complete(w, &o, w->flags & F_RESET ? -ECONNRESET : 0);
			continue;
		}
		if (w->b && fz_take(w->owner, OP_BELL_RECV, &o)) {
			complete(w, &o, 0);
			continue;
		}
		if (fz_take_first(&o)) {
			complete(w, &o, o.op->type == OP_TCP_RECV || o.op->type == OP_BELL_RECV ?
				 0 : -EPIPE);
			continue;
		}
		/* Time passes: sessions waiting to be taken up again give up. */
		if (w->client ? fz_client_expire() : fz_server_expire()) {
			fz_harvest();
			continue;
		}
		FZ_FAIL("an open session with nothing in flight");
	}
	if (fz_nops)
		FZ_FAIL("%u operations left in flight", fz_nops);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct wire w = { .app = -1, .tcp = -1 };
	int fd, fd_mark;

	if (!ready) {
		gl_log_level = getenv("FZ_TRACE") ? 2 : -1;
		fz_uring_init();
		config_defaults(&ccfg, ROLE_CLIENT);
		config_defaults(&scfg, ROLE_SERVER);
		snprintf(ccfg.server, sizeof(ccfg.server), "127.0.0.1:7381");
		ready = true;
	}
	if (size < HDR)
		return 0;
	/* The lowest free descriptor: the same again at the end. */
	fd_mark = dup(0);
	close(fd_mark);
	w.flags = data[0];
	w.client = w.flags & F_CLIENT;
	w.split = data + 1;
	memcpy(&w.hostile, data + 9, 4);
	w.in = data + HDR;
	w.len = size - HDR;
	/* The default rings, or the smallest a ring may be. */
	ccfg.ring_shift = scfg.ring_shift = w.flags & F_SMALL ? GLEAM_RING_MIN_SHIFT :
					    GL_RING_DEFAULT_SHIFT;
	if (fz_server_sessions() || fz_client_sessions() || fz_nops)
		FZ_FAIL("a session outlived its input");
	if (w.client) {
		fz_client_setup(&ccfg);
		client_start(&w);
	} else {
		/* The server role alone: its sessions' bridges take the server's ops. */
		fz_client_setup(NULL);
		fz_server_setup(&scfg);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			FZ_FAIL("socket: %s", strerror(errno));
		w.b = w.owner = fz_server_accept(fd);
		w.tcp = fd;
		fz_harvest();
		if (!w.b)
			FZ_FAIL("the server takes no connection");
	}
	run(&w);
	/* FZ_TRACE=1: what each input did, to see what the harness reaches. */
	if (getenv("FZ_TRACE"))
		fprintf(stderr, "wire: %s, %zu/%zu bytes read, %u messages published, %u produced, "
			"%u frames sent, %s, %u steps\n", w.client ? "client" : "server", w.pos,
			w.len, w.consumed, w.produced, w.frames_out,
			w.blocked ? "waited for the ring" : "never waited", w.steps);
	if (w.mapped)
		gl_ring_unmap(&w.ring);
	if (w.app >= 0)
		close(w.app);
	free(w.out);
	fd = dup(0);
	close(fd);
	if (fd != fd_mark)
		FZ_FAIL("a descriptor was left open");
	return 0;
}
