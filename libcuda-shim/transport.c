// SPDX-License-Identifier: MIT
/*
 * The shim's end of the session ring: records go out on the SQ, replies
 * come back on the CQ, doorbells are rung only when the other side sleeps.
 * The ring comes from /dev/vgpuN when a node opens, else from gleamd's
 * local socket; the doorbells travel the same way (transport.h).
 *
 * Any number of application threads submit (under sq_lock) and wait.  One
 * waiting thread at a time, the leader, drains the CQ and sleeps on the
 * transport; it hands each reply to the thread whose tag it carries and
 * wakes everyone, so that no reply is ever consumed by the wrong thread.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bigcopy.h"
#include "cudarules.h"
#include "gleam_local.h"
#include "shim.h"
#include "transport.h"
#include "util.h"

/* What the kernels printed, in the order it came, until a thread writes it. */
struct out_piece {
	struct out_piece *next;
	uint32_t fd, len;
	unsigned char data[];
};

struct waiter {
	uint32_t tag;
	bool done;
	bool deferred;		/* nobody waits yet (struct shim_pending) */
	CUresult result;
	void *out;
	size_t out_len;
	void *buf;
	size_t buf_len;
	const struct shim_rows *rows;
	int (*sink)(void *arg, uint64_t off, const void *p, uint64_t len);
	void *sink_arg;
	struct waiter *next;
};

static struct {
	const struct shim_transport *tp;
	int sock;
	struct gl_ring ring;
	pthread_mutex_t sq_lock;
	pthread_mutex_t rx_lock;
	pthread_cond_t rx_cv;
	bool leader;
	bool leader_host;	/* the leader is the host functions' thread */
	int space_waiters;
	struct waiter *waiters;
	uint32_t next_tag;
	uint64_t seq;
	CUresult dead;		/* sticky once the session is lost */
	/* Output taken off the CQ (rx_lock), written under out_lock. */
	struct out_piece *out_head, **out_tail;
	_Atomic uint64_t out_unwritten;
	pthread_mutex_t out_lock;
	char why[256];		/* gleamd's reason for ending it (struct gleam_local_why) */
} conn = {
	.sock = -1,
	.sq_lock = PTHREAD_MUTEX_INITIALIZER,
	.rx_lock = PTHREAD_MUTEX_INITIALIZER,
	.rx_cv = PTHREAD_COND_INITIALIZER,
	.out_tail = &conn.out_head,
	.out_lock = PTHREAD_MUTEX_INITIALIZER,
};

__thread bool shim_host_thread;

CUresult shim_conn_error(void)
{
	return conn.dead;
}

static void lose_session(const char *why)
{
	/* Called with rx_lock held. */
	if (!conn.dead) {
		/* gleamd's own reason is the one line the program's user needs. */
		if (conn.why[0])
			gl_err("%s", conn.why);
		else
			gl_err("session with gleamd lost: %s", why);
		conn.dead = CUDA_ERROR_DEVICE_UNAVAILABLE;
	}
	for (struct waiter *w = conn.waiters; w; w = w->next) {
		if (!w->done) {
			w->done = true;
			w->result = conn.dead;
		}
	}
	pthread_cond_broadcast(&conn.rx_cv);
}

static const char *why_lost(int err)
{
	switch (err) {
	case -ENOTCONN:
		return "gleamd went away";
	case -ECONNRESET:
		return "gleamd ended the session";
	case -EHOSTDOWN:
		return "nothing took its records for 30 s: is gleamd serving /dev/vgpuN?";
	case -EHOSTUNREACH:
		return conn.why;
	default:
		return strerror(-err);
	}
}

/* Without rx_lock held. */
static void ring_bell(void)
{
	int err = conn.tp->bell();

	if (err) {
		pthread_mutex_lock(&conn.rx_lock);
		lose_session(why_lost(err));
		pthread_mutex_unlock(&conn.rx_lock);
	}
}

/* ---- the local socket ---- */

static int sock_bell(void)
{
	char b = GLEAM_BELL_SQ;

	/* A full socket buffer already holds a bell: nothing is lost. */
	if (send(conn.sock, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
	    errno != EAGAIN && errno != EWOULDBLOCK)
		return -ENOTCONN;
	return 0;
}

/* gleamd's reason, when msg is one (not a bell): kept for the error line. */
static bool take_why(const void *msg, ssize_t n)
{
	struct gleam_local_why w;

	if (n != (ssize_t)sizeof(w))
		return false;
	memcpy(&w, msg, sizeof(w));
	if (w.magic != GLEAM_LOCAL_WHY_MAGIC)
		return false;
	w.msg[sizeof(w.msg) - 1] = 0;
	for (char *p = w.msg; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	snprintf(conn.why, sizeof(conn.why), "%s", w.msg[0] ? w.msg : "gleamd cannot serve the session");
	return true;
}

static int sock_sleep(void)
{
	struct pollfd pfd = { .fd = conn.sock, .events = POLLIN };
	char buf[sizeof(struct gleam_local_why)];
	ssize_t n;

	/* A long wait is fine (a first cuInit can take seconds); a closed socket is not. */
	if (poll(&pfd, 1, 1000) > 0) {
		n = recv(conn.sock, buf, sizeof(buf), MSG_DONTWAIT);
		if (take_why(buf, n))
			return -EHOSTUNREACH;
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) ||
		    (pfd.revents & (POLLHUP | POLLERR)))
			return -ENOTCONN;
	}
	return 0;
}

static void sock_close(void)
{
	gl_ring_unmap(&conn.ring);
	close(conn.sock);
	conn.sock = -1;
}

static const struct shim_transport sock_transport = {
	.name = "socket",
	.bell = sock_bell,
	.sleep = sock_sleep,
	.close = sock_close,
};

size_t shim_piece_max(void)
{
	/* A record must fit a quarter of the ring so that two are in flight. */
	return MIN((size_t)GLEAM_PIECE_MAX, conn.ring.sq.size / 4 - 4096);
}

/*
 * Whether the gleamd on the other end of fd may have the program's calls
 * and data: it runs as root or as the program's own user.  Any other
 * (one that squatted the socket's path) is not spoken to.
 */
static bool gleamd_trusted(int fd, const char *path)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		gl_err("cannot tell who serves %s: %s", path, strerror(errno));
		return false;
	}
	if (cred.uid == 0 || cred.uid == geteuid())
		return true;
	gl_err("the gleamd at %s runs as uid %u, neither root nor this program's user (uid %u): "
	       "not using it", path, (unsigned int)cred.uid, (unsigned int)geteuid());
	return false;
}

static CUresult sock_connect(void)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC,
				       .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_SESSION };
	struct gleam_local_ack ack;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *env;
	char path[sizeof(sa.sun_path)];
	ssize_t n;
	int fd, rfd, err;

	if (gl_local_socket_path(path, sizeof(path)))
		return CUDA_ERROR_NO_DEVICE;
	memcpy(sa.sun_path, path, sizeof(path));
	env = getenv("GLEAM_RING_SHIFT");
	if (env) {
		h.sq_shift = (uint32_t)atoi(env);
		h.cq_shift = h.sq_shift;
	}
	if (!shim.async)
		h.flags |= GLEAM_LOCAL_F_SYNC;
	/* Records name their server: a session's GPUs may lie on several. */
	h.flags |= GLEAM_LOCAL_F_ROUTE;
	snprintf(h.program, sizeof(h.program), "%s", program_invocation_short_name);
	/* gleamd reads it against the server's GPUs, as the driver would against its own. */
	env = getenv("CUDA_VISIBLE_DEVICES");
	if (env) {
		if (strlen(env) >= sizeof(h.visible)) {
			gl_err("CUDA_VISIBLE_DEVICES is longer than %zu characters", sizeof(h.visible) - 1);
			return CUDA_ERROR_NO_DEVICE;
		}
		h.flags |= GLEAM_LOCAL_F_VISIBLE;
		snprintf(h.visible, sizeof(h.visible), "%s", env);
	}

	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return CUDA_ERROR_OPERATING_SYSTEM;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		gl_err("cannot reach gleamd at %s: %s (is it running? gleam-run starts it)",
		       path, strerror(errno));
		close(fd);
		return CUDA_ERROR_NO_DEVICE;
	}
	if (!gleamd_trusted(fd, path)) {
		close(fd);
		return CUDA_ERROR_NO_DEVICE;
	}
	if (gl_send_fd(fd, &h, sizeof(h), -1) != (ssize_t)sizeof(h))
		goto proto;
	n = gl_recv_fd(fd, &ack, sizeof(ack), &rfd);
	if (n != (ssize_t)sizeof(ack) || ack.magic != GLEAM_LOCAL_MAGIC) {
		if (rfd >= 0)
			close(rfd);
		goto proto;
	}
	if (ack.status) {
		char why[sizeof(struct gleam_local_why)];
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		/*
		 * gleamd sends its reason right after, then closes: one line that
		 * names the server.  One that does not closes at once.
		 */
		n = poll(&pfd, 1, 1000) > 0 ? recv(fd, why, sizeof(why), MSG_DONTWAIT) : -1;
		if (take_why(why, n))
			gl_err("%s", conn.why);
		else
			gl_err("gleamd refused the session: %s", strerror(-ack.status));
		if (rfd >= 0)
			close(rfd);
		close(fd);
		/* A CUDA_VISIBLE_DEVICES that names a GPU twice, as the driver answers it. */
		return ack.status == -EINVAL ? CUDA_ERROR_INVALID_DEVICE : CUDA_ERROR_NO_DEVICE;
	}
	if (rfd < 0)
		goto proto;
	err = gl_ring_map(rfd, &conn.ring);
	close(rfd);
	if (err) {
		gl_err("bad session ring from gleamd: %s", strerror(-err));
		close(fd);
		return CUDA_ERROR_NO_DEVICE;
	}
	conn.sock = fd;
	conn.tp = &sock_transport;
	shim_span_routes(ack.route, GLEAM_LOCAL_ROUTES_MAX);
	return CUDA_SUCCESS;
proto:
	gl_err("gleamd at %s does not speak this protocol", path);
	close(fd);
	return CUDA_ERROR_NO_DEVICE;
}

/*
 * A child of fork() must keep off its parent's session: a second producer
 * would corrupt the ring, and an inherited /dev/vgpuN descriptor and
 * mapping would keep the session open after the parent died.  The child
 * has only this thread, so nothing else uses what is closed here; as
 * with CUDA, the child has no working context.
 */
static void drop_in_child(void)
{
	conn.tp->close();
	conn.dead = CUDA_ERROR_NOT_INITIALIZED;
}

/*
 * /dev/vgpuN first, then the socket; GLEAM_TRANSPORT=vgpu or socket allows
 * only one.
 */
CUresult shim_connect(void)
{
	const char *want = getenv("GLEAM_TRANSPORT");
	bool vgpu = true, sock = true;
	CUresult r;
	int err;

	if (want && !strcmp(want, "vgpu"))
		sock = false;
	else if (want && !strcmp(want, "socket"))
		vgpu = false;
	else if (want && *want && strcmp(want, "auto"))
		gl_err("GLEAM_TRANSPORT=%s: not vgpu, socket or auto; trying both", want);
	conn.next_tag = 1;
	err = vgpu ? shim_vgpu_connect(&conn.ring, &conn.tp) : -ENODEV;
	if (!err) {
		r = CUDA_SUCCESS;
	} else if (err == -EINVAL) {
		gl_err("CUDA_VISIBLE_DEVICES names a /dev/vgpuN twice");
		return CUDA_ERROR_INVALID_DEVICE;
	} else if (!sock) {
		gl_err("no /dev/vgpuN could be opened (GLEAM_TRANSPORT=vgpu)");
		return CUDA_ERROR_NO_DEVICE;
	} else {
		r = sock_connect();
		if (r)
			return r;
		gl_dbg("session on gleamd's socket");
	}
	shim_waits_attach(conn.ring.sq.ctl);
	pthread_atfork(NULL, NULL, drop_in_child);
	return r;
}

/*
 * Messages no call asked for (tag 0): a host function's run is due, or
 * what the kernels printed.  0, or -1 for a malformed one; rx_lock held.
 */
static int unasked(const struct gleam_reply *h, const unsigned char *body, size_t blen)
{
	struct gleam_output o;
	struct out_piece *p;

	if (h->flags)
		return -1;
	if (h->fn == GL_FN_gleamHostFuncRun) {
		struct gleam_host_run b;

		if (blen < sizeof(b))
			return -1;
		memcpy(&b, body, sizeof(b));
		if (b.reserved || (b.flags & ~GLEAM_HOST_RUN_F_SKIPPED))
			return -1;
		shim_host_notice(&b, (CUresult)h->result);
		return 0;
	}
	if (blen < sizeof(o))
		return -1;
	memcpy(&o, body, sizeof(o));
	if ((o.fd != 1 && o.fd != 2) || o.length > GLEAM_OUTPUT_PIECE ||
	    o.length > blen - sizeof(o))
		return -1;
	p = malloc(sizeof(*p) + o.length);
	if (!p) {
		gl_err("no memory for %u bytes the kernels printed: dropped", o.length);
		return 0;
	}
	p->next = NULL;
	p->fd = o.fd;
	p->len = o.length;
	memcpy(p->data, body + sizeof(o), o.length);
	*conn.out_tail = p;
	conn.out_tail = &p->next;
	atomic_fetch_add(&conn.out_unwritten, 1);
	return 0;
}

/*
 * Output goes to stdout and stderr through stdio, as the driver writes
 * it, so that it keeps its place among what the program itself printed
 * there.  Pieces are written in the order they came, one writer at a
 * time; a thread whose reply came after some waits until they are out,
 * so that they are before the call returns.
 */
void shim_output_flush(void)
{
	if (!atomic_load(&conn.out_unwritten))
		return;
	pthread_mutex_lock(&conn.out_lock);
	for (;;) {
		struct out_piece *p;

		pthread_mutex_lock(&conn.rx_lock);
		p = conn.out_head;
		conn.out_head = NULL;
		conn.out_tail = &conn.out_head;
		pthread_mutex_unlock(&conn.rx_lock);
		if (!p)
			break;
		while (p) {
			struct out_piece *next = p->next;

			fwrite(p->data, 1, p->len, p->fd == 1 ? stdout : stderr);
			free(p);
			atomic_fetch_sub(&conn.out_unwritten, 1);
			p = next;
		}
	}
	pthread_mutex_unlock(&conn.out_lock);
}

/*
 * A large record or reply goes through the ring: at the session's first,
 * its pages are mapped at once rather than a fault at a time under the
 * copies (common/ring.h).
 */
static void ring_warm(void)
{
	static atomic_bool done;

	if (!atomic_load_explicit(&done, memory_order_relaxed) && !atomic_exchange(&done, true))
		gl_ring_populate(&conn.ring);
}

/*
 * Bytes off to off + len of a copy's rows laid end to end, into the rows
 * where they belong; -1 when they run past the copy.
 */
static int rows_put(const struct shim_rows *r, uint64_t off, const unsigned char *p, uint64_t len)
{
	if (off > r->total || len > r->total - off)
		return -1;
	while (len) {
		uint64_t row = off / r->width, col = off % r->width;
		uint64_t k = MIN(len, r->width - col);

		memcpy(r->base + (row / r->rows) * r->slice + (row % r->rows) * r->pitch + col, p, k);
		off += k;
		p += k;
		len -= k;
	}
	return 0;
}

/* Drain the CQ, handing replies to their waiters; rx_lock held.  */
static int drain_cq(void)
{
	struct gl_ring_dir *cq = &conn.ring.cq;
	uint32_t len;
	const unsigned char *p;
	int n = 0;

	while ((p = gl_ring_peek(cq, sizeof(struct gleam_reply), GLEAM_REC_MAX, &len))) {
		struct gleam_reply h;
		struct waiter *w;
		const unsigned char *body = p + sizeof(h);
		size_t blen = len - sizeof(h);

		memcpy(&h, p, sizeof(h));
		if (!h.tag && (h.fn == GL_FN_gleamHostFuncRun || h.fn == GL_FN_gleamOutput)) {
			if (unasked(&h, body, blen))
				goto bad;
			gl_ring_consume(cq, len);
			n++;
			continue;
		}
		for (w = conn.waiters; w; w = w->next)
			if (w->tag == h.tag && !w->done)
				break;
		if (!w) {
			gl_err("reply for %s with unknown tag %u dropped", gl_fn_name(h.fn), h.tag);
		} else if (h.flags & GLEAM_REP_F_DATA) {
			struct gleam_rep_data d;

			if (blen < sizeof(d))
				goto bad;
			memcpy(&d, body, sizeof(d));
			if (d.length > blen - sizeof(d))
				goto bad;
			if (w->sink) {
				if (w->sink(w->sink_arg, d.offset, body + sizeof(d), d.length))
					goto bad;
			} else if (w->rows) {
				if (rows_put(w->rows, d.offset, body + sizeof(d), d.length))
					goto bad;
			} else {
				if (d.offset > w->buf_len || d.length > w->buf_len - d.offset)
					goto bad;
				if (d.length >= GL_BIGCOPY_MIN)
					ring_warm();
				(w->buf_len >= GL_COPY_COLD_MIN ? gl_bigcopy_cold : gl_bigcopy)
					((char *)w->buf + d.offset, body + sizeof(d), d.length);
			}
		} else {
			size_t k = MIN(blen, w->out_len);

			if (w->out)
				memcpy(w->out, body, k);
			if (blen > w->out_len && w->buf) {
				size_t extra = MIN(blen - w->out_len, w->buf_len);

				memcpy(w->buf, body + w->out_len, extra);
			}
			w->result = (CUresult)h.result;
			w->done = true;
		}
		gl_ring_consume(cq, len);
		n++;
		continue;
bad:
		gl_ring_consume(cq, len);
		lose_session("malformed reply");
		return -1;
	}
	if (cq->broken) {
		lose_session("completion ring corrupted");
		return -1;
	}
	/* rx_lock is held: a failed bell loses the session here, not in ring_bell(). */
	if (n && gl_ring_consume_publish(cq)) {
		int err = conn.tp->bell();

		if (err) {
			lose_session(why_lost(err));
			return -1;
		}
	}
	return n;
}

/*
 * How long a waiting thread watches the ring before it sleeps.  CUDA's
 * own waits follow the context's scheduling flags: SPIN and YIELD watch
 * (YIELD giving the processor up between looks), BLOCKING_SYNC sleeps,
 * and AUTO spins while the process has fewer contexts than processors.
 * Gleam does the same, for at most spin_max_ns per wait; AUTO spins only
 * where there are cores to spare beside gleamd.
 */
static uint64_t spin_max_ns, spin_auto_ns;

void shim_transport_tune(void)
{
	const char *e = getenv("GLEAM_SPIN_US");

	spin_max_ns = e ? strtoull(e, NULL, 10) * 1000 : 5000 * 1000;
	spin_auto_ns = e || sysconf(_SC_NPROCESSORS_ONLN) >= 4 ? spin_max_ns : 0;
}

static uint64_t wait_spin_ns(bool *yield)
{
	struct shim_ctx *c = shim_current();
	unsigned int sched = c ? c->flags & CU_CTX_SCHED_MASK : CU_CTX_SCHED_AUTO;

	/* The host functions' thread waits for what may be long in coming. */
	if (shim_host_thread) {
		*yield = true;
		return 0;
	}
	/* AUTO yields as it looks, so that gleamd on the same cores runs first. */
	*yield = sched != CU_CTX_SCHED_SPIN;
	switch (sched) {
	case CU_CTX_SCHED_BLOCKING_SYNC:
		return 0;
	case CU_CTX_SCHED_SPIN:
	case CU_CTX_SCHED_YIELD:
		return spin_max_ns;
	default:
		return spin_auto_ns;
	}
}

/*
 * Watches the completion ring, rx_lock dropped meanwhile, until something
 * comes, the session is lost or the clock reaches end.
 */
static void watch_cq(uint64_t end, bool yield)
{
	pthread_mutex_unlock(&conn.rx_lock);
	while (gl_ring_empty(&conn.ring.cq) && !conn.dead && gl_now_ns() < end) {
		if (yield)
			sched_yield();
		else
			__builtin_ia32_pause();
	}
	pthread_mutex_lock(&conn.rx_lock);
}

/*
 * Wait until cond(arg) holds or the session is lost; takes rx_lock.
 * space: the caller waits for SQ space rather than for a reply.
 */
static CUresult wait_until(bool (*cond)(void *), void *arg, bool space)
{
	bool yield, watched = false;
	uint64_t spin = wait_spin_ns(&yield);
	CUresult r;

	pthread_mutex_lock(&conn.rx_lock);
	if (space)
		conn.space_waiters++;
	while (!conn.dead && !cond(arg)) {
		int err;

		/*
		 * The host functions' thread, which never watches the ring, may
		 * be leading, asleep: a thread that would watch does so once
		 * itself, and drains what comes (any thread may, with rx_lock),
		 * rather than pay for waking two threads.
		 */
		if (conn.leader && conn.leader_host && spin && !space && !watched) {
			uint64_t end = gl_now_ns() + spin;

			watched = true;
			watch_cq(end, yield);
			if (drain_cq() > 0)
				pthread_cond_broadcast(&conn.rx_cv);
			continue;
		}
		if (conn.leader) {
			pthread_cond_wait(&conn.rx_cv, &conn.rx_lock);
			continue;
		}
		conn.leader = true;
		conn.leader_host = shim_host_thread;
		if (drain_cq() != 0) {
			/* Output first, while still leading: nobody returns before it is out. */
			if (atomic_load(&conn.out_unwritten)) {
				pthread_mutex_unlock(&conn.rx_lock);
				shim_output_flush();
				pthread_mutex_lock(&conn.rx_lock);
			}
			conn.leader = false;
			pthread_cond_broadcast(&conn.rx_cv);
			continue;
		}
		/*
		 * A reply often comes within tens of microseconds: where there
		 * are cores to spare, watch the ring that long before sleeping,
		 * so that a round trip does not pay for waking this thread.
		 */
		if (spin && !space) {
			uint64_t end = gl_now_ns() + spin;

			watch_cq(end, yield);
			if (!gl_ring_empty(&conn.ring.cq)) {
				conn.leader = false;
				continue;
			}
		}
		gl_ring_cons_set_sleeping(&conn.ring.cq, true);
		if (conn.space_waiters)
			gl_ring_prod_set_sleeping(&conn.ring.sq, true);
		if (!gl_ring_empty(&conn.ring.cq) || cond(arg)) {
			gl_ring_cons_set_sleeping(&conn.ring.cq, false);
			gl_ring_prod_set_sleeping(&conn.ring.sq, false);
			conn.leader = false;
			continue;
		}
		pthread_mutex_unlock(&conn.rx_lock);
		err = conn.tp->sleep();
		pthread_mutex_lock(&conn.rx_lock);
		gl_ring_cons_set_sleeping(&conn.ring.cq, false);
		gl_ring_prod_set_sleeping(&conn.ring.sq, false);
		conn.leader = false;
		if (err)
			lose_session(why_lost(err));
		pthread_cond_broadcast(&conn.rx_cv);
	}
	if (space)
		conn.space_waiters--;
	r = conn.dead;
	pthread_mutex_unlock(&conn.rx_lock);
	return r;
}

CUresult shim_wait_event(bool (*cond)(void *), void *arg)
{
	return wait_until(cond, arg, false);
}

struct space_arg {
	uint32_t len;
};

static bool have_space(void *arg)
{
	struct space_arg *a = arg;

	return gl_ring_can_reserve(&conn.ring.sq, a->len);
}

/* Put one record on the SQ; sq_lock held. */
static CUresult put_record(struct shim_call *c, uint32_t tag, unsigned int flags,
			   const struct iovec *iov, int niov)
{
	struct gleam_rec *h;
	uint64_t ctx;
	size_t len = sizeof(*h) + ALIGN8(c->args_len);
	unsigned char *p;

	for (int i = 0; i < niov; i++)
		len += ALIGN8(iov[i].iov_len);
	if (len > GLEAM_REC_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	if (len >= GL_BIGCOPY_MIN)
		ring_warm();
	while (!(h = gl_ring_reserve(&conn.ring.sq, (uint32_t)len))) {
		struct space_arg a = { (uint32_t)len };
		CUresult r;

		if (conn.ring.sq.broken)
			return CUDA_ERROR_DEVICE_UNAVAILABLE;
		r = wait_until(have_space, &a, true);
		if (r)
			return r;
	}
	h->len = (uint32_t)len;
	h->fn = (uint16_t)c->fn;
	h->flags = (uint16_t)flags;
	h->tag = tag;
	h->reserved = shim_span_route(c, &ctx);
	h->ctx = ctx;
	h->seq = ++conn.seq;
	p = (unsigned char *)(h + 1);
	memcpy(p, c->args, c->args_len);
	memset(p + c->args_len, 0, ALIGN8(c->args_len) - c->args_len);
	p += ALIGN8(c->args_len);
	for (int i = 0; i < niov; i++) {
		gl_bigcopy(p, iov[i].iov_base, iov[i].iov_len);
		memset(p + iov[i].iov_len, 0, ALIGN8(iov[i].iov_len) - iov[i].iov_len);
		p += ALIGN8(iov[i].iov_len);
	}
	return CUDA_SUCCESS;
}

/*
 * Publish what was reserved.  A record nobody waits for need not ring a
 * gleamd that polls: it is sent within a timer tick, and a launch costs no
 * system call.  Waited-for records, long data and a filling ring always ring.
 */
static void publish(bool urgent)
{
	uint32_t f;

	gl_ring_commit(&conn.ring.sq);
	f = gl_ring_cons_flags(&conn.ring.sq);
	if (!(f & GLEAM_RING_CONS_NEED_WAKEUP))
		return;
	if (urgent || !(f & GLEAM_RING_CONS_POLLING) ||
	    gl_ring_space(&conn.ring.sq) < conn.ring.sq.size / 2)
		ring_bell();
}

CUresult shim_submit(struct shim_call *c, uint32_t tag, unsigned int flags)
{
	size_t total = 0, room = shim_piece_max();
	CUresult r = CUDA_SUCCESS;

	for (int i = 0; i < c->niov; i++)
		total += c->iov[i].iov_len;
	pthread_mutex_lock(&conn.sq_lock);
	if (conn.dead) {
		r = conn.dead;
	} else if (total + c->args_len + 64 * (size_t)c->niov <= room) {
		r = put_record(c, tag, flags, c->iov, c->niov);
		if (!r)
			publish(flags & GLEAM_REC_F_REPLY || total > 65536);
	} else {
		/*
		 * Long data (a module image) goes in pieces: each carries the
		 * argument block and a slice of the data, all but the last
		 * flagged MORE; the worker joins them before it replays.
		 */
		int i = 0;
		size_t off = 0;

		while (!r && i < c->niov) {
			struct iovec piece[8];
			int np = 0;
			size_t left = room;

			while (i < c->niov && left && np < 8) {
				size_t k = MIN(left, c->iov[i].iov_len - off);

				piece[np].iov_base = (char *)c->iov[i].iov_base + off;
				piece[np].iov_len = k;
				np++;
				/* Padding follows a part that ends an argument. */
				left -= ALIGN8(k) <= left ? ALIGN8(k) : left;
				off += k;
				if (off == c->iov[i].iov_len) {
					i++;
					off = 0;
				}
			}
			r = put_record(c, tag, i < c->niov ? (flags & ~GLEAM_REC_F_REPLY) |
				       GLEAM_REC_F_MORE : flags, piece, np);
			if (!r)
				publish(true);
		}
	}
	pthread_mutex_unlock(&conn.sq_lock);
	return r;
}

/* Waiters live on the caller's stack for the length of one call. */
static __thread struct waiter tls_waiter;

/*
 * Gives w the next tag and c's buffers for its reply (not its rows) and
 * lists it among the waiters; rx_lock held.
 */
static void waiter_add(struct waiter *w, const struct shim_call *c, bool deferred)
{
	w->tag = conn.next_tag++;
	if (!w->tag)
		w->tag = conn.next_tag++;
	w->deferred = deferred;
	w->done = false;
	w->result = CUDA_SUCCESS;
	w->out = c->out;
	w->out_len = c->out_len;
	w->buf = c->outbuf;
	w->buf_len = c->outbuf_len;
	w->sink = c->sink;
	w->sink_arg = c->sink_arg;
	w->next = conn.waiters;
	conn.waiters = w;
}

uint32_t shim_new_waiter(struct shim_call *c)
{
	struct waiter *w = &tls_waiter;

	pthread_mutex_lock(&conn.rx_lock);
	waiter_add(w, c, false);
	w->rows = c->rows;
	pthread_mutex_unlock(&conn.rx_lock);
	return w->tag;
}

static bool reply_done(void *arg)
{
	return ((struct waiter *)arg)->done;
}

CUresult shim_wait_reply(uint32_t tag)
{
	struct waiter *w = &tls_waiter, **pp;
	CUresult r;

	wait_until(reply_done, w, false);
	shim_output_flush();
	pthread_mutex_lock(&conn.rx_lock);
	for (pp = &conn.waiters; *pp; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	r = w->done ? w->result : conn.dead;
	pthread_mutex_unlock(&conn.rx_lock);
	return r;
}

/*
 * Replies that arrive while nobody waits (shim_defer): a record whose
 * answer is wanted later, such as a function's attributes that only the
 * server's compiler knows.  The reply lands in the caller's buffers when
 * some thread drains the ring; whoever needs it waits then, if it has
 * not come yet.
 */
struct shim_pending {
	struct waiter w;
};

struct shim_pending *shim_defer(struct shim_call *c)
{
	struct shim_pending *p = calloc(1, sizeof(*p));
	CUresult r;

	if (!p)
		return NULL;
	pthread_mutex_lock(&conn.rx_lock);
	waiter_add(&p->w, c, true);
	pthread_mutex_unlock(&conn.rx_lock);
	c->waited = false;
	r = shim_submit(c, p->w.tag, GLEAM_REC_F_REPLY);
	if (r) {
		pthread_mutex_lock(&conn.rx_lock);
		p->w.done = true;
		p->w.result = r;
		pthread_mutex_unlock(&conn.rx_lock);
	}
	return p;
}

CUresult shim_pending_wait(struct shim_pending *p)
{
	if (!shim_pending_done(p)) {
		shim_waits_made();
		if (shim_trace_waits)
			gl_err("waits: a function's attributes, which the server's compiler knows");
	}
	return shim_pending_take(p);
}

CUresult shim_pending_take(struct shim_pending *p)
{
	struct waiter **pp;
	CUresult r;

	wait_until(reply_done, &p->w, false);
	shim_output_flush();
	pthread_mutex_lock(&conn.rx_lock);
	for (pp = &conn.waiters; *pp; pp = &(*pp)->next) {
		if (*pp == &p->w) {
			*pp = p->w.next;
			break;
		}
	}
	r = p->w.done ? p->w.result : conn.dead;
	pthread_mutex_unlock(&conn.rx_lock);
	free(p);
	return r;
}

bool shim_pending_done(struct shim_pending *p)
{
	bool done;

	pthread_mutex_lock(&conn.rx_lock);
	done = p->w.done;
	pthread_mutex_unlock(&conn.rx_lock);
	return done;
}

static CUresult note_result(struct shim_call *c, CUresult r)
{
	struct shim_ctx *ctx = shim_current();

	/* Remembered here, so that later calls fail without asking. */
	if (gl_cuda_sticky(r) && ctx && ctx->o.id == c->ctx)
		ctx->sticky = r;
	return r;
}

/*
 * Synchronisations with nothing to wait for.  The worker replays a
 * session's records in order, so a synchronisation sent without a reply
 * still holds back every later record until the GPU has done what came
 * before it, and whatever the program can learn of that work (data, event
 * states, the errors of calls that do not touch the GPU) it learns through
 * a later call that waits, replayed after it.  What only a synchronisation
 * tells is whether the GPU's own work failed, and when data that an
 * asynchronous copy brings back has arrived: kernels, copies to the host,
 * and copies the shim cannot place (cuMemcpy, cuMemcpyAsync).  Copies to
 * the device, fills and copies between allocations cannot fail on the GPU
 * (the shim checked their ranges) and bring nothing back.  So when none of
 * the first kind was queued since the last synchronisation that waited, and
 * every other call that may still fail on the server (a module, a stream's
 * flags, a limit) has had its error reported by a call that waited, a
 * synchronisation is sent on, in order, and answered here.  PyTorch
 * synchronises after every tensor it uploads: a model load becomes one
 * stream of uploads instead of a round trip per tensor.
 */
static bool harmless(unsigned int fn)
{
	return gl_fn_traits(fn) & (GL_T_FILL | GL_T_ORDER);
}

static bool risky(unsigned int fn)
{
	return gl_fn_traits(fn) & GL_T_WORK;
}

/*
 * An asynchronous record went out: note it if a synchronisation must wait
 * for it.  Work put on a capturing stream does not run until its graph is
 * launched, so nothing of it is there to wait for; but the driver may
 * still refuse to capture it, which the next call that waits reports.
 */
static void note_async(const struct shim_call *c)
{
	struct shim_ctx *ctx = shim_current();
	uint64_t want, cur;

	if (harmless(c->fn) || !ctx || ctx->o.id != c->ctx)
		return;
	if (!risky(c->fn) || c->captured) {
		if (shim_trace_waits)
			atomic_store_explicit(&ctx->last_fallible_fn, c->fn, memory_order_relaxed);
		atomic_fetch_add(&ctx->fallible_seq, 1);
		return;
	}
	if (shim_trace_waits)
		atomic_store_explicit(&ctx->last_risky_fn, c->fn, memory_order_relaxed);
	/* A thread's own default stream is not one stream: any covers it. */
	want = shim_call_stream && shim_call_stream - 1 != (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD ?
	       SHIM_RISKY_STREAM(shim_call_stream - 1) : SHIM_RISKY_ALL;
	atomic_fetch_add(&ctx->risky_seq, 1);
	cur = atomic_load(&ctx->risky);
	while (cur != want && cur != SHIM_RISKY_ALL) {
		uint64_t next = cur == SHIM_RISKY_NONE ? want : SHIM_RISKY_ALL;

		if (atomic_compare_exchange_weak(&ctx->risky, &cur, next))
			break;
	}
}

/* Whether c synchronises its own context, or a stream in it. */
static bool is_sync(const struct shim_call *c)
{
	unsigned int t = gl_fn_traits(c->fn);

	if (t & GL_T_WAIT_STREAM)
		return true;
	if (!(t & GL_T_WAIT_CTX))
		return false;
	/* cuCtxSynchronize_v2 names the context it waits for. */
	return c->fn != GL_FN_cuCtxSynchronize_v2 ||
	       ((const struct gl_a_cuCtxSynchronize_v2 *)c->args)->ctx == c->ctx;
}

/* Whether a synchronisation of ctx has nothing to wait for (see risky()). */
static bool sync_is_free(const struct shim_ctx *ctx)
{
	return !ctx->sticky && atomic_load(&ctx->risky) == SHIM_RISKY_NONE &&
	       atomic_load(&ctx->fallible_seq) == atomic_load(&ctx->settled_seq);
}

/* A call that waited was answered: what failed before it has been told. */
static void settled(struct shim_ctx *ctx, uint64_t seen)
{
	uint64_t cur = atomic_load(&ctx->settled_seq);

	while (cur < seen && !atomic_compare_exchange_weak(&ctx->settled_seq, &cur, seen))
		;
}

/*
 * A synchronisation answered, or a copy to the host (c->covers): what it
 * covered has been done.
 */
static void sync_done(const struct shim_call *c, struct shim_ctx *ctx, uint64_t risky,
		      uint64_t seq, CUresult r)
{
	if (!ctx || r || atomic_load(&ctx->risky_seq) != seq)
		return;
	if (c->covers && risky != SHIM_RISKY_STREAM(c->covers - 1))
		return;
	if (c->fn == GL_FN_cuStreamSynchronize &&
	    risky != SHIM_RISKY_STREAM(((const struct gl_a_cuStreamSynchronize *)c->args)->hStream))
		return;
	atomic_compare_exchange_strong(&ctx->risky, &risky, SHIM_RISKY_NONE);
}

/* GLEAM_TRACE_WAITS: waits counted per function, said at exit. */
static _Atomic uint32_t waits_by_fn[GL_FN_LIMIT];

static void __attribute__((destructor)) trace_waits_summary(void)
{
	char line[4096];
	size_t n = 0;
	uint64_t total = 0;

	if (!shim_trace_waits)
		return;
	line[0] = 0;
	for (;;) {
		unsigned int best = 0;
		uint32_t most = 0;

		/* Most frequent first. */
		for (unsigned int fn = 1; fn < GL_FN_LIMIT; fn++) {
			uint32_t v = atomic_load_explicit(&waits_by_fn[fn], memory_order_relaxed);

			if (v > most) {
				most = v;
				best = fn;
			}
		}
		if (!most)
			break;
		total += most;
		atomic_store_explicit(&waits_by_fn[best], 0, memory_order_relaxed);
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %u",
					      n ? "," : "", gl_fn_name(best), most);
	}
	{
		uint64_t made, required;

		shim_waits_counts(&made, &required);
		gl_err("waits at exit: %llu in all, the program's calls required %llu%s%s",
		       (unsigned long long)made, (unsigned long long)required, total ? ":" : "",
		       line);
	}
}

/* GLEAM_TRACE_WAITS: a call about to wait, and for a synchronisation why it must. */
static void trace_wait(const struct shim_call *c, const struct shim_ctx *cur)
{
	const char *why = "";
	char buf[160];

	if (is_sync(c)) {
		if (!cur) {
			why = ": not the current context";
		} else if (c->force_sync || !shim.async) {
			why = ": synchronous mode";
		} else if (atomic_load(&shim_captures)) {
			why = ": a capture is under way";
		} else if (cur->sticky) {
			why = ": the context has failed";
		} else if (atomic_load(&cur->risky) != SHIM_RISKY_NONE) {
			snprintf(buf, sizeof(buf), ": work to wait for (last: %s)",
				 gl_fn_name(atomic_load(&cur->last_risky_fn)));
			why = buf;
		} else {
			snprintf(buf, sizeof(buf),
				 ": %llu call(s) whose errors are not yet known (last: %s)",
				 (unsigned long long)(atomic_load(&cur->fallible_seq) -
						      atomic_load(&cur->settled_seq)),
				 gl_fn_name(atomic_load(&cur->last_fallible_fn)));
			why = buf;
		}
	}
	if (c->fn < GL_FN_LIMIT)
		atomic_fetch_add_explicit(&waits_by_fn[c->fn], 1, memory_order_relaxed);
	gl_err("waits: %s%s", gl_fn_name(c->fn), why);
}

__thread bool shim_ungated;

CUresult shim_call(struct shim_call *c)
{
	bool sync = !c->force_async &&
		    (c->force_sync || !shim.async || gl_fn_table[c->fn].cls == GL_SYNC);
	struct shim_ctx *sctx = NULL, *cur = NULL;
	uint64_t risky = 0, seq = 0, fallible = 0;
	struct shim_twin_pull *pulls = NULL;
	bool twins;
	uint32_t tag = 0;
	CUresult r;

	if (conn.dead)
		return conn.dead;
	/* Between two servers: done here, through this process. */
	if (shim_span_nroutes() > 1 && !shim_in_host_fn) {
		bool done;

		r = shim_span_call(c, &done);
		if (done) {
			shim_call_stream = 0;
			return r;
		}
	}
	/* A host function may not call CUDA: it would wait for its own stream. */
	if (shim_in_host_fn) {
		static bool said;

		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			gl_err("%s called from a host function or stream callback, which may not "
			       "call CUDA: CUDA_ERROR_NOT_PERMITTED", gl_fn_name(c->fn));
		shim_call_stream = 0;
		return CUDA_ERROR_NOT_PERMITTED;
	}
	/* What stream capture forbids is refused before it is sent (graph.c). */
	if (!shim_ungated && atomic_load_explicit(&shim_capture_watch, memory_order_relaxed)) {
		r = shim_capture_gate(c);
		if (r) {
			shim_call_stream = 0;
			return r;
		}
	}
	shim_waits_note(c, shim_current());
	/* Mapped and managed memory: this process's writes go before the work (twin.c). */
	twins = atomic_load_explicit(&shim_twins, memory_order_relaxed) && !shim_ungated;
	if (twins)
		shim_twin_before(c);
	if (sync) {
		/* Calls for another context than the current one are not followed. */
		cur = shim_current();
		if (cur && cur->o.id != c->ctx)
			cur = NULL;
		/*
		 * While a capture is under way, every synchronisation is asked:
		 * the driver's answer may be a capture's error.
		 */
		if (cur && shim.async && (c->covers || (!c->force_sync && is_sync(c))) &&
		    !atomic_load_explicit(&shim_captures, memory_order_relaxed)) {
			if (!c->covers && sync_is_free(cur) && !(twins && shim_twin_owed())) {
				c->waited = false;
				shim_call_stream = 0;
				return shim_submit(c, 0, 0);
			}
			sctx = cur;
			seq = atomic_load(&sctx->risky_seq);
			risky = atomic_load(&sctx->risky);
		}
		if (cur)
			fallible = atomic_load(&cur->fallible_seq);
		if (shim_trace_waits)
			trace_wait(c, cur);
		shim_waits_made();
		tag = shim_new_waiter(c);
	}
	c->waited = sync;
	r = shim_submit(c, tag, sync ? GLEAM_REC_F_REPLY : 0);
	if (!sync) {
		if (!r)
			note_async(c);
		shim_call_stream = 0;
		return twins ? shim_twin_after(c, NULL, r) : r;
	}
	/* The GPU's writes to them come back right behind the answer. */
	if (twins && !r)
		pulls = shim_twin_pull_send(c);
	if (r) {
		/* Never sent: take the waiter back. */
		pthread_mutex_lock(&conn.rx_lock);
		tls_waiter.done = true;
		tls_waiter.result = r;
		pthread_mutex_unlock(&conn.rx_lock);
	}
	/* Later records of this thread name their own stream, or none. */
	shim_call_stream = 0;
	r = note_result(c, shim_wait_reply(tag));
	if (cur && (!r || r == CUDA_ERROR_NOT_READY))
		settled(cur, fallible);
	if (sctx)
		sync_done(c, sctx, risky, seq, r);
	return twins ? shim_twin_after(c, pulls, r) : r;
}
