// SPDX-License-Identifier: MIT
/*
 * The relay: one epoll loop with one timer.  Every accepted connection gets
 * a connection to the target; each of its two halves reads from one socket
 * into a ring, stamps what it read with a release time, and writes it to the
 * other socket once that time has come.  Reads are metered by the
 * direction's token bucket, which all connections share: the link is one
 * link.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "linkem.h"

#define READ_MAX		(256 * 1024ULL)
#define RING_START		(64 * 1024ULL)
#define RELISTEN_RETRY_NS	(100 * NSEC_PER_MSEC)
#define CTL_LINE_MAX		512
#define MAX_EVENTS		128
#define EARLY_START_NS		50000ULL
#define EARLY_MAX_NS		200000ULL
/* How long a connection closed the orderly way is read for its peer's FIN. */
#define DRAIN_NS		(2 * NSEC_PER_SEC)
#define DRAIN_READS		16

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

enum {
	EP_LISTEN,
	EP_SIGNAL,
	EP_TIMER,
	EP_CONTROL,
	EP_CTL_CLIENT,
	EP_CLIENT,	/* accepted socket: source of up, sink of down */
	EP_SERVER,	/* connected socket: sink of up, source of down */
	EP_DRAIN,	/* closed with a FIN, read until the peer's */
};

struct endpoint {
	int kind;
	int fd;
};

struct relay_conn;

struct relay_half {
	struct relay_conn *c;
	int dir;
	unsigned char *buf;
	uint64_t cap;		/* power of two; 0 before the first read */
	uint64_t rd;		/* bytes read from the source */
	uint64_t rel;		/* bytes whose release time has come */
	uint64_t wr;		/* bytes written to the sink */
	bool readable;		/* source may have data (edge seen, no EAGAIN) */
	bool hup;		/* source signalled FIN or an error */
	bool writable;
	bool eof_read;
	bool eof_released;
	bool shut;		/* FIN passed on */
	bool queued;		/* on the direction's ready list */
	struct relay_half *rnext, *rprev;
	unsigned int events;	/* delay-line events that point here */
};

struct relay_conn {
	struct endpoint cli;
	struct endpoint srv;
	struct relay_half h[NR_DIRS];
	bool connected;
	bool dead;
	struct relay_conn *next, *prev;
};

/* A socket closed the orderly way, waiting for its peer to close too. */
struct drain {
	struct endpoint ep;
	uint64_t until;		/* closed then, FIN or not */
	struct drain *next, *prev;
};

struct ctl_client {
	struct endpoint ep;
	size_t len;
	char buf[CTL_LINE_MAX];
	struct ctl_client *next, *prev;
};

struct relay_stats {
	uint64_t accepted;
	uint64_t active;
	uint64_t closed;
	uint64_t reset;
	uint64_t cut_reset;
	uint64_t cut_closed;
	uint64_t connect_failed;
	uint64_t cuts;
};

struct relay {
	struct settings s;
	int epfd;
	struct endpoint lis, sig, tmr, ctl;
	struct link_dir dir[NR_DIRS];
	struct relay_half *ready_head[NR_DIRS], *ready_tail[NR_DIRS];
	unsigned int ready_len[NR_DIRS];
	struct relay_conn *live;
	struct relay_conn *grave;
	struct ctl_client *ctl_clients;
	struct drain *drains;
	uint64_t start_ns;
	uint64_t cut_at;	/* absolute; NO_TIME: none scheduled */
	bool down;		/* an outage is under way */
	int down_mode;		/* DOWN_*: how it began */
	int down_new;		/* NEW_*: what new connections meet */
	uint64_t down_until;	/* NO_TIME: until restored */
	uint64_t relisten_at;
	uint64_t armed;		/* the timer's expiry */
	uint64_t early_ns;	/* how long before a deadline to wake */
	int64_t late_avg;	/* timer wake-up lateness, ns */
	int64_t late_dev;
	int capture;		/* --capture: every byte relayed goes here too; or -1 */
	bool quit;
	struct relay_stats st;
};

static int epoll_add(struct relay *r, struct endpoint *ep, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = ep };

	if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, ep->fd, &ev))
		return -errno;
	return 0;
}

static int half_src(const struct relay_half *h)
{
	return h->dir == DIR_UP ? h->c->cli.fd : h->c->srv.fd;
}

static int half_dst(const struct relay_half *h)
{
	return h->dir == DIR_UP ? h->c->srv.fd : h->c->cli.fd;
}

static bool half_wants_read(struct relay *r, const struct relay_half *h)
{
	if (h->c->dead || !h->readable || h->eof_read || half_src(h) < 0)
		return false;
	return h->rd - h->wr < h->cap || h->cap < r->dir[h->dir].ring_limit;
}

static void ready_add(struct relay *r, struct relay_half *h)
{
	int d = h->dir;

	if (h->queued || !half_wants_read(r, h))
		return;
	h->queued = true;
	h->rnext = NULL;
	h->rprev = r->ready_tail[d];
	if (h->rprev)
		h->rprev->rnext = h;
	else
		r->ready_head[d] = h;
	r->ready_tail[d] = h;
	r->ready_len[d]++;
}

static void ready_del(struct relay *r, struct relay_half *h)
{
	int d = h->dir;

	if (!h->queued)
		return;
	if (h->rprev)
		h->rprev->rnext = h->rnext;
	else
		r->ready_head[d] = h->rnext;
	if (h->rnext)
		h->rnext->rprev = h->rprev;
	else
		r->ready_tail[d] = h->rprev;
	h->queued = false;
	r->ready_len[d]--;
}

static void list_del_conn(struct relay_conn **head, struct relay_conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		*head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->next = c->prev = NULL;
}

static void list_add_conn(struct relay_conn **head, struct relay_conn *c)
{
	c->prev = NULL;
	c->next = *head;
	if (*head)
		(*head)->prev = c;
	*head = c;
}

static void close_endpoint(struct endpoint *ep, bool rst)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };

	if (ep->fd < 0)
		return;
	if (rst)
		setsockopt(ep->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(ep->fd);
	ep->fd = -1;
}

/*
 * Closing frees the buffers at once; the connection itself stays on the
 * grave list until no delay-line event and no pending epoll event of this
 * loop iteration can point at it.
 */
static void conn_close(struct relay *r, struct relay_conn *c, bool rst)
{
	int d;

	if (c->dead)
		return;
	close_endpoint(&c->cli, rst);
	close_endpoint(&c->srv, rst);
	for (d = 0; d < NR_DIRS; d++) {
		ready_del(r, &c->h[d]);
		free(c->h[d].buf);
		c->h[d].buf = NULL;
		c->h[d].cap = 0;
	}
	c->dead = true;
	list_del_conn(&r->live, c);
	list_add_conn(&r->grave, c);
	r->st.active--;
	if (rst)
		r->st.reset++;
	else
		r->st.closed++;
}

/*
 * Closing the orderly way: a FIN goes out now, and what the peer still
 * sends is read and dropped until it closes its end too, for DRAIN_NS at
 * most.  A socket closed with bytes unread sends a reset instead, which is
 * the other way of dying.  fd may already be in the epoll set (a relayed
 * connection's), or not (one accepted and closed at once).
 */
static void drain_add(struct relay *r, int fd, uint64_t now, bool watched)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };
	struct drain *dr;

	shutdown(fd, SHUT_WR);
	dr = calloc(1, sizeof(*dr));
	if (!dr) {
		close(fd);
		return;
	}
	dr->ep = (struct endpoint){ .kind = EP_DRAIN, .fd = fd };
	dr->until = now + DRAIN_NS;
	ev.data.ptr = &dr->ep;
	if (epoll_ctl(r->epfd, watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &ev)) {
		close(fd);
		free(dr);
		return;
	}
	dr->next = r->drains;
	if (dr->next)
		dr->next->prev = dr;
	r->drains = dr;
}

static void drain_close(struct relay *r, struct drain *dr)
{
	close(dr->ep.fd);
	if (dr->prev)
		dr->prev->next = dr->next;
	else
		r->drains = dr->next;
	if (dr->next)
		dr->next->prev = dr->prev;
	free(dr);
}

static void drain_read(struct relay *r, struct drain *dr)
{
	static char sink[65536];
	ssize_t n;
	int i;

	/* Level-triggered: a peer that sends on brings the loop back. */
	for (i = 0; i < DRAIN_READS; i++) {
		n = read(dr->ep.fd, sink, sizeof(sink));
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		/* The peer's FIN, or its reset: nothing more to wait for. */
		drain_close(r, dr);
		return;
	}
}

/* The drains whose peers did not close in time are closed all the same. */
static void drains_expire(struct relay *r, uint64_t now)
{
	struct drain *dr, *next;

	for (dr = r->drains; dr; dr = next) {
		next = dr->next;
		if (now >= dr->until)
			drain_close(r, dr);
	}
}

/*
 * A relayed connection closed both ways with a FIN, as a relay that
 * restarts closes it: what it still held is dropped.  A target connection
 * not yet made is simply let go.
 */
static void conn_fin(struct relay *r, struct relay_conn *c, uint64_t now)
{
	if (c->dead)
		return;
	drain_add(r, c->cli.fd, now, true);
	c->cli.fd = -1;
	if (c->srv.fd >= 0 && c->connected) {
		drain_add(r, c->srv.fd, now, true);
		c->srv.fd = -1;
	}
	conn_close(r, c, false);
}

static void reap(struct relay *r, bool all)
{
	struct relay_conn *c, *next;

	for (c = r->grave; c; c = next) {
		next = c->next;
		if (!all && (c->h[DIR_UP].events || c->h[DIR_DOWN].events))
			continue;
		list_del_conn(&r->grave, c);
		free(c);
	}
}

static int half_push_event(struct relay *r, struct relay_half *h,
			   unsigned int kind, uint64_t now)
{
	struct link_dir *ld = &r->dir[h->dir];
	struct link_event e = {
		.when = link_release_time(ld, now),
		.half = h,
		.end = h->rd,
		.kind = kind,
	};
	struct event_fifo *f = &ld->fifo;
	struct link_event *tail;
	int ret;

	if (kind == EV_DATA && f->len) {
		tail = &f->ev[(f->head + f->len - 1) & (f->cap - 1)];
		if (tail->half == h && tail->kind == EV_DATA &&
		    tail->when == e.when) {
			tail->end = e.end;
			return 0;
		}
	}
	ret = fifo_push(f, &e);
	if (ret)
		return ret;
	h->events++;
	return 0;
}

static int half_grow(struct relay *r, struct relay_half *h)
{
	uint64_t ncap = h->cap ? h->cap * 2 : RING_START;
	uint64_t pos, o, no, n;
	unsigned char *nb;

	if (ncap > r->dir[h->dir].ring_limit && h->cap)
		return -ENOSPC;
	nb = malloc(ncap);
	if (!nb)
		return -ENOMEM;
	for (pos = h->wr; pos < h->rd; pos += n) {
		o = pos & (h->cap - 1);
		no = pos & (ncap - 1);
		n = h->rd - pos;
		if (n > h->cap - o)
			n = h->cap - o;
		if (n > ncap - no)
			n = ncap - no;
		memcpy(nb + no, h->buf + o, n);
	}
	free(h->buf);
	h->buf = nb;
	h->cap = ncap;
	return 0;
}

/* The iovecs that cover ring positions [from, from + n). */
static int ring_iov(const struct relay_half *h, uint64_t from, uint64_t n,
		    struct iovec *iov)
{
	uint64_t o = from & (h->cap - 1);
	uint64_t first = h->cap - o;

	iov[0].iov_base = h->buf + o;
	if (n <= first) {
		iov[0].iov_len = n;
		return 1;
	}
	iov[0].iov_len = first;
	iov[1].iov_base = h->buf;
	iov[1].iov_len = n - first;
	return 2;
}

static void half_flush(struct relay *r, struct relay_half *h);

/*
 * --capture: what was just read, n bytes in iov, as it crossed (for tests
 * that look at what a link carries).  A write that fails stops the capture.
 */
static void capture(struct relay *r, const struct iovec *iov, int cnt, size_t n)
{
	for (int i = 0; i < cnt && n && r->capture >= 0; i++) {
		size_t len = iov[i].iov_len < n ? iov[i].iov_len : n;
		const char *p = iov[i].iov_base;

		n -= len;
		while (len) {
			ssize_t w = write(r->capture, p, len);

			if (w <= 0) {
				close(r->capture);
				r->capture = -1;
				return;
			}
			p += w;
			len -= (size_t)w;
		}
	}
}

/* One read from the half's source, as much as the bucket grants. */
static void half_read(struct relay *r, struct relay_half *h, uint64_t now)
{
	struct link_dir *ld = &r->dir[h->dir];
	struct relay_conn *c = h->c;
	struct iovec iov[2];
	uint64_t want;
	ssize_t n;
	int cnt;

	if (!half_wants_read(r, h))
		return;
	if (h->rd - h->wr >= h->cap && half_grow(r, h))
		return;
	want = h->cap - (h->rd - h->wr);
	if (want > READ_MAX)
		want = READ_MAX;
	want = bucket_grant(&ld->tb, want);
	if (!want) {
		ready_add(r, h);
		return;
	}
	cnt = ring_iov(h, h->rd, want, iov);
	n = readv(half_src(h), iov, cnt);
	if (n > 0) {
		capture(r, iov, cnt, (size_t)n);
		h->rd += n;
		bucket_take(&ld->tb, n);
		ld->bytes_in += n;
		if (half_push_event(r, h, EV_DATA, now)) {
			conn_close(r, c, true);
			return;
		}
		/*
		 * A short read emptied the socket and the next data brings an
		 * edge; a FIN already seen brings none, so read on to the EOF.
		 */
		if ((uint64_t)n < want && !h->hup)
			h->readable = false;
		ready_add(r, h);
		return;
	}
	if (n == 0) {
		h->eof_read = true;
		h->readable = false;
		if (half_push_event(r, h, EV_EOF, now))
			conn_close(r, c, true);
		return;
	}
	if (errno == EAGAIN || errno == EWOULDBLOCK) {
		h->readable = false;
		return;
	}
	if (errno == EINTR) {
		ready_add(r, h);
		return;
	}
	conn_close(r, c, true);
}

static void half_flush(struct relay *r, struct relay_half *h)
{
	struct link_dir *ld = &r->dir[h->dir];
	struct relay_conn *c = h->c;
	struct msghdr msg = {0};
	struct iovec iov[2];
	uint64_t n;
	ssize_t ret;
	int dst = half_dst(h);

	if (c->dead || dst < 0 || (h->dir == DIR_UP && !c->connected))
		return;
	while (h->writable && h->wr < h->rel) {
		n = h->rel - h->wr;
		msg.msg_iov = iov;
		msg.msg_iovlen = ring_iov(h, h->wr, n, iov);
		ret = sendmsg(dst, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				h->writable = false;
				break;
			}
			conn_close(r, c, true);
			return;
		}
		h->wr += ret;
		ld->bytes_out += ret;
		if ((uint64_t)ret < n)
			h->writable = false;
	}
	ready_add(r, h);
	if (h->eof_released && h->wr == h->rd && !h->shut) {
		shutdown(dst, SHUT_WR);
		h->shut = true;
		if (c->h[DIR_UP].shut && c->h[DIR_DOWN].shut)
			conn_close(r, c, false);
	}
}

static void conn_connect(struct relay *r, struct relay_conn *c)
{
	int one = 1, fd;

	fd = socket(r->s.connect_addr.ss_family,
		    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->srv.fd = fd;
	/* A client that changed networks: its connections come from elsewhere. */
	if (r->s.source_len &&
	    bind(fd, (struct sockaddr *)&r->s.source_addr, r->s.source_len))
		goto fail;
	if (connect(fd, (struct sockaddr *)&r->s.connect_addr,
		    r->s.connect_len) && errno != EINPROGRESS)
		goto fail;
	if (epoll_add(r, &c->srv,
		      EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET))
		goto fail;
	return;
fail:
	r->st.connect_failed++;
	conn_close(r, c, true);
}

static void conn_connected(struct relay *r, struct relay_conn *c)
{
	socklen_t len = sizeof(int);
	int err = 0;

	if (getsockopt(c->srv.fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
		r->st.connect_failed++;
		conn_close(r, c, true);
		return;
	}
	c->connected = true;
	c->h[DIR_UP].writable = true;
	c->h[DIR_DOWN].readable = true;
	half_flush(r, &c->h[DIR_UP]);
	ready_add(r, &c->h[DIR_DOWN]);
}

/*
 * The target is connected when the SYN would have crossed the link: one
 * one-way delay after the accept, in order with the client's first bytes.
 */
static void conn_accept(struct relay *r, int fd, uint64_t now)
{
	struct relay_conn *c;
	int one = 1, d;

	c = calloc(1, sizeof(*c));
	if (!c) {
		close_endpoint(&(struct endpoint){ .fd = fd }, true);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->cli.kind = EP_CLIENT;
	c->cli.fd = fd;
	c->srv.kind = EP_SERVER;
	c->srv.fd = -1;
	for (d = 0; d < NR_DIRS; d++) {
		c->h[d].c = c;
		c->h[d].dir = d;
	}
	c->h[DIR_UP].readable = true;
	c->h[DIR_DOWN].writable = true;
	list_add_conn(&r->live, c);
	r->st.accepted++;
	r->st.active++;
	if (epoll_add(r, &c->cli, EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET) ||
	    half_push_event(r, &c->h[DIR_UP], EV_CONNECT, now)) {
		conn_close(r, c, true);
		return;
	}
	ready_add(r, &c->h[DIR_UP]);
}

static int listener_open(struct relay *r)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int one = 1, fd, ret;

	fd = socket(r->s.listen_addr.ss_family,
		    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&r->s.listen_addr, r->s.listen_len) ||
	    listen(fd, 1024) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/* A port of 0 becomes the one chosen, so a cut reopens the same. */
	memcpy(&r->s.listen_addr, &ss, len);
	r->s.listen_len = len;
	r->lis.fd = fd;
	ret = epoll_add(r, &r->lis, EPOLLIN);
	if (ret) {
		close(fd);
		r->lis.fd = -1;
	}
	return ret;
}

/* New connections are refused while the link is down that way. */
static bool refusing(const struct relay *r)
{
	return r->down && r->down_new == NEW_REFUSE;
}

/* Nothing is delivered while the link holds what it has. */
static bool held(const struct relay *r)
{
	return r->down && (r->down_mode == DOWN_BLACKHOLE || r->down_new == NEW_HOLD);
}

/*
 * A connection that comes while the link is down and is not held (nor
 * refused: a listener closed a moment ago may have had it queued): closed
 * with a FIN or reset at once, as a proxy that cannot reach the far side
 * does.
 */
static void turn_away(struct relay *r, int fd, uint64_t now)
{
	r->st.accepted++;
	if (r->down_new == NEW_CLOSE) {
		r->st.closed++;
		r->st.cut_closed++;
		drain_add(r, fd, now, false);
		return;
	}
	r->st.reset++;
	r->st.cut_reset++;
	close_endpoint(&(struct endpoint){ .fd = fd }, true);
}

static void listener_accept(struct relay *r, uint64_t now)
{
	int fd;

	while (r->lis.fd >= 0) {
		fd = accept4(r->lis.fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				fprintf(stderr, "linkem: accept: %s\n",
					strerror(errno));
			return;
		}
		if (r->down && r->down_new != NEW_HOLD)
			turn_away(r, fd, now);
		else
			conn_accept(r, fd, now);
	}
}

static void listener_close(struct relay *r)
{
	if (r->lis.fd < 0)
		return;
	close(r->lis.fd);
	r->lis.fd = -1;
}

/* The open connections meet the way the link dies; returns how many. */
static uint64_t kill_open(struct relay *r, int mode, uint64_t now)
{
	uint64_t n = 0;

	/* A black hole resets nothing: only the applications' own checks notice. */
	if (mode == DOWN_BLACKHOLE)
		return 0;
	while (r->live) {
		if (mode == DOWN_CLOSE)
			conn_fin(r, r->live, now);
		else
			conn_close(r, r->live, true);
		n++;
	}
	if (mode == DOWN_CLOSE)
		r->st.cut_closed += n;
	else
		r->st.cut_reset += n;
	return n;
}

/*
 * The link goes down: its open connections closed, reset or held, new ones
 * refused, closed, reset or held until it comes back.  Held bytes are
 * delivered, in order, when it does.  A link already down goes down again
 * the new way.
 */
void relay_down(struct relay *r, int mode, int fate, uint64_t duration_ns)
{
	static const char *const done[NR_DOWNS] = {
		[DOWN_CLOSE] = "closed", [DOWN_RESET] = "reset",
		[DOWN_REFUSE] = "reset", [DOWN_BLACKHOLE] = "held",
	};
	static const char *const meet[NR_NEWS] = {
		[NEW_REFUSE] = "refused", [NEW_CLOSE] = "closed at once",
		[NEW_RESET] = "reset at once", [NEW_HOLD] = "held",
	};
	uint64_t n, now = mono_ns();
	char t[32];

	if (fate == NEW_DEFAULT)
		fate = down_default_new(mode);
	n = mode == DOWN_BLACKHOLE ? r->st.active : kill_open(r, mode, now);
	r->down = true;
	r->down_mode = mode;
	r->down_new = fate;
	r->down_until = duration_ns == NO_TIME ? NO_TIME : now + duration_ns;
	if (fate == NEW_REFUSE)
		listener_close(r);
	r->st.cuts++;
	if (duration_ns == NO_TIME)
		snprintf(t, sizeof(t), "until restored");
	else
		format_time(t, sizeof(t), duration_ns);
	fprintf(stderr, "linkem: %s at %.3f s: %llu connections %s, new ones %s, "
		"for %s\n", down_name(mode), (now - r->start_ns) / 1e9,
		(unsigned long long)n, done[mode], meet[fate], t);
}

void relay_restore(struct relay *r)
{
	uint64_t now = mono_ns();
	int ret;

	if (!r->down)
		return;
	r->down = false;
	if (r->lis.fd < 0) {
		ret = listener_open(r);
		if (ret) {
			fprintf(stderr, "linkem: listen again: %s; retrying\n",
				strerror(-ret));
			r->relisten_at = now + RELISTEN_RETRY_NS;
		}
	}
	fprintf(stderr, "linkem: link restored at %.3f s\n",
		(now - r->start_ns) / 1e9);
}

void relay_set_source(struct relay *r, const struct sockaddr_storage *ss,
		      socklen_t len)
{
	if (len)
		memcpy(&r->s.source_addr, ss, len);
	r->s.source_len = len;
}

int relay_set_params(struct relay *r, int dir, const struct link_params *p)
{
	struct relay_conn *c;

	if (dir < 0 || dir >= NR_DIRS)
		return -EINVAL;
	link_dir_set(&r->dir[dir], p, mono_ns());
	/* A larger ring limit may let a full half read again. */
	for (c = r->live; c; c = c->next)
		ready_add(r, &c->h[dir]);
	return 0;
}

void relay_get_params(struct relay *r, int dir, struct link_params *p)
{
	*p = r->dir[dir].p;
}

uint64_t relay_bucket_depth(struct relay *r, int dir)
{
	return r->dir[dir].tb.depth;
}

int relay_listen_addr(struct relay *r, char *buf, size_t len)
{
	format_addr(buf, len, (struct sockaddr *)&r->s.listen_addr,
		    r->s.listen_len);
	return 0;
}

static int dir_json(char *buf, size_t len, const struct link_dir *ld)
{
	return snprintf(buf, len,
			"{\"bytes\":%llu,\"bytes_in\":%llu,\"rate_bps\":%llu,"
			"\"burst\":%llu,\"delay_ns\":%llu,\"jitter_ns\":%llu}",
			(unsigned long long)ld->bytes_out,
			(unsigned long long)ld->bytes_in,
			(unsigned long long)ld->p.rate_bps,
			(unsigned long long)ld->tb.depth,
			(unsigned long long)ld->p.delay_ns,
			(unsigned long long)ld->p.jitter_ns);
}

int relay_stats_json(struct relay *r, char *buf, size_t len)
{
	char up[256], down[256];
	int n;

	dir_json(up, sizeof(up), &r->dir[DIR_UP]);
	dir_json(down, sizeof(down), &r->dir[DIR_DOWN]);
	n = snprintf(buf, len,
		     "{\"elapsed_s\":%.6f,\"up\":%s,\"down\":%s,"
		     "\"connections\":{\"accepted\":%llu,\"active\":%llu,"
		     "\"closed\":%llu,\"reset\":%llu,\"cut_reset\":%llu,"
		     "\"cut_closed\":%llu,\"connect_failed\":%llu},"
		     "\"cuts\":%llu,\"cut_active\":%s,\"cut_mode\":\"%s\"}",
		     (mono_ns() - r->start_ns) / 1e9, up, down,
		     (unsigned long long)r->st.accepted,
		     (unsigned long long)r->st.active,
		     (unsigned long long)r->st.closed,
		     (unsigned long long)r->st.reset,
		     (unsigned long long)r->st.cut_reset,
		     (unsigned long long)r->st.cut_closed,
		     (unsigned long long)r->st.connect_failed,
		     (unsigned long long)r->st.cuts,
		     r->down ? "true" : "false",
		     r->down ? down_name(r->down_mode) : "none");
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

void relay_stats_text(struct relay *r, FILE *f)
{
	fprintf(f, "linkem: %.3f s: up %llu bytes, down %llu bytes; "
		"connections %llu accepted, %llu active, %llu closed, "
		"%llu reset, %llu failed to connect; %llu cuts\n",
		(mono_ns() - r->start_ns) / 1e9,
		(unsigned long long)r->dir[DIR_UP].bytes_out,
		(unsigned long long)r->dir[DIR_DOWN].bytes_out,
		(unsigned long long)r->st.accepted,
		(unsigned long long)r->st.active,
		(unsigned long long)r->st.closed,
		(unsigned long long)r->st.reset,
		(unsigned long long)r->st.connect_failed,
		(unsigned long long)r->st.cuts);
}

static void print_stats(struct relay *r)
{
	char buf[1024];

	if (r->s.json && !relay_stats_json(r, buf, sizeof(buf))) {
		printf("%s\n", buf);
		fflush(stdout);
	} else {
		relay_stats_text(r, stderr);
	}
}

static int control_open(struct relay *r)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, ret;

	if (strlen(r->s.control_path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, r->s.control_path);
	if (!lstat(sa.sun_path, &st) && S_ISSOCK(st.st_mode))
		unlink(sa.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 16)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	r->ctl.fd = fd;
	return epoll_add(r, &r->ctl, EPOLLIN);
}

static void ctl_client_close(struct relay *r, struct ctl_client *cc)
{
	close(cc->ep.fd);
	if (cc->prev)
		cc->prev->next = cc->next;
	else
		r->ctl_clients = cc->next;
	if (cc->next)
		cc->next->prev = cc->prev;
	free(cc);
}

static void control_accept(struct relay *r)
{
	struct ctl_client *cc;
	int fd;

	for (;;) {
		fd = accept4(r->ctl.fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		cc = calloc(1, sizeof(*cc));
		if (!cc) {
			close(fd);
			continue;
		}
		cc->ep.kind = EP_CTL_CLIENT;
		cc->ep.fd = fd;
		cc->next = r->ctl_clients;
		if (cc->next)
			cc->next->prev = cc;
		r->ctl_clients = cc;
		if (epoll_add(r, &cc->ep, EPOLLIN))
			ctl_client_close(r, cc);
	}
}

static void ctl_line(struct relay *r, struct ctl_client *cc, char *line)
{
	char reply[1100];
	size_t n;

	control_exec(r, line, reply, sizeof(reply) - 1);
	n = strlen(reply);
	reply[n++] = '\n';
	/* Replies are short; a client that does not read them loses them. */
	if (send(cc->ep.fd, reply, n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		return;
}

/* Commands are lines; the connection may carry several. */
static void control_read(struct relay *r, struct ctl_client *cc)
{
	char *nl;
	ssize_t n;

	for (;;) {
		n = read(cc->ep.fd, cc->buf + cc->len,
			 sizeof(cc->buf) - 1 - cc->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0)
			break;
		cc->len += n;
		cc->buf[cc->len] = 0;
		while ((nl = strchr(cc->buf, '\n'))) {
			*nl = 0;
			ctl_line(r, cc, cc->buf);
			cc->len -= nl + 1 - cc->buf;
			memmove(cc->buf, nl + 1, cc->len + 1);
		}
		if (cc->len == sizeof(cc->buf) - 1)
			break;
	}
	if (cc->len) {
		cc->buf[cc->len] = 0;
		ctl_line(r, cc, cc->buf);
	}
	ctl_client_close(r, cc);
}

static void signal_read(struct relay *r)
{
	struct signalfd_siginfo si;
	int ret;

	while (read(r->sig.fd, &si, sizeof(si)) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGINT:
		case SIGTERM:
			r->quit = true;
			break;
		case SIGUSR1:
			if (!r->s.control_file) {
				fprintf(stderr, "linkem: SIGUSR1 without "
					"--control-file: ignored\n");
				break;
			}
			ret = control_apply_file(r, r->s.control_file);
			if (ret)
				fprintf(stderr, "linkem: %s: %s\n",
					r->s.control_file, strerror(-ret));
			break;
		case SIGUSR2:
			print_stats(r);
			break;
		}
	}
}

static void conn_event(struct relay *r, struct endpoint *ep, uint32_t ev)
{
	struct relay_conn *c;
	struct relay_half *rh, *wh;

	if (ep->kind == EP_CLIENT) {
		c = container_of(ep, struct relay_conn, cli);
		rh = &c->h[DIR_UP];
		wh = &c->h[DIR_DOWN];
	} else {
		c = container_of(ep, struct relay_conn, srv);
		rh = &c->h[DIR_DOWN];
		wh = &c->h[DIR_UP];
	}
	if (c->dead)
		return;
	if (ep->kind == EP_SERVER && !c->connected) {
		if (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP))
			conn_connected(r, c);
		if (c->dead || !c->connected)
			return;
	}
	if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
		rh->readable = true;
		if (ev & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))
			rh->hup = true;
		ready_add(r, rh);
	}
	if (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR)) {
		wh->writable = true;
		half_flush(r, wh);
	}
}

/*
 * Timers wake a sleeping thread tens of microseconds late, a tenth of a
 * 250 us delay.  So the timer is set early by the lateness seen so far (mean
 * plus twice the mean deviation) and the last stretch is polled.
 */
static void timer_fired(struct relay *r, uint64_t now)
{
	int64_t late = now - r->armed, err;

	if (r->armed == NO_TIME || late < 0 || late > (int64_t)EARLY_MAX_NS * 4)
		return;
	err = late - r->late_avg;
	r->late_avg += err / 8;
	r->late_dev += ((err < 0 ? -err : err) - r->late_dev) / 4;
	late = r->late_avg + 2 * r->late_dev;
	r->early_ns = late < 0 ? 0 : late > (int64_t)EARLY_MAX_NS ?
		      EARLY_MAX_NS : (uint64_t)late;
}

static void dispatch(struct relay *r, struct endpoint *ep, uint32_t ev,
		     uint64_t now)
{
	uint64_t ticks;

	switch (ep->kind) {
	case EP_LISTEN:
		listener_accept(r, now);
		break;
	case EP_SIGNAL:
		signal_read(r);
		break;
	case EP_TIMER:
		if (read(ep->fd, &ticks, sizeof(ticks)) == sizeof(ticks))
			timer_fired(r, now);
		break;
	case EP_CONTROL:
		control_accept(r);
		break;
	case EP_CTL_CLIENT:
		control_read(r, container_of(ep, struct ctl_client, ep));
		break;
	case EP_DRAIN:
		drain_read(r, container_of(ep, struct drain, ep));
		break;
	default:
		conn_event(r, ep, ev);
		break;
	}
}

static void process_releases(struct relay *r, int d, uint64_t now)
{
	struct event_fifo *f = &r->dir[d].fifo;
	struct link_event *e, ev;
	struct relay_half *h;

	/* A link that holds delivers nothing, in order, until it is back. */
	if (held(r))
		return;
	while ((e = fifo_peek(f)) && e->when <= now) {
		ev = *e;
		fifo_pop(f);
		h = ev.half;
		h->events--;
		if (h->c->dead)
			continue;
		switch (ev.kind) {
		case EV_DATA:
			h->rel = ev.end;
			half_flush(r, h);
			break;
		case EV_EOF:
			h->eof_released = true;
			half_flush(r, h);
			break;
		case EV_CONNECT:
			conn_connect(r, h->c);
			break;
		}
	}
}

/* One read per waiting half, in turn, while the bucket has tokens. */
static void service_reads(struct relay *r, int d, uint64_t now)
{
	struct link_dir *ld = &r->dir[d];
	unsigned int n = r->ready_len[d];
	struct relay_half *h;

	bucket_refill(&ld->tb, now, ld->backlog);
	while (n-- && (h = r->ready_head[d]) && bucket_ready(&ld->tb)) {
		ready_del(r, h);
		half_read(r, h, now);
	}
	ld->backlog = r->ready_len[d] > 0;
}

static void run_timers(struct relay *r, uint64_t now)
{
	if (r->cut_at != NO_TIME && now >= r->cut_at) {
		r->cut_at = NO_TIME;
		relay_down(r, r->s.cut_mode, r->s.cut_new, r->s.cut_for_ns);
	}
	if (r->down && r->down_until != NO_TIME && now >= r->down_until)
		relay_restore(r);
	if (!refusing(r) && r->lis.fd < 0 && now >= r->relisten_at &&
	    listener_open(r))
		r->relisten_at = now + RELISTEN_RETRY_NS;
	drains_expire(r, now);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t next_deadline(struct relay *r, uint64_t now)
{
	struct link_event *e;
	struct drain *dr;
	uint64_t t = NO_TIME;
	int d;

	for (d = 0; d < NR_DIRS; d++) {
		e = fifo_peek(&r->dir[d].fifo);
		if (e && !held(r))
			t = min_u64(t, e->when);
		if (r->ready_len[d])
			t = min_u64(t, bucket_ready_at(&r->dir[d].tb, now));
	}
	t = min_u64(t, r->cut_at);
	if (r->down)
		t = min_u64(t, r->down_until);
	if (!refusing(r) && r->lis.fd < 0)
		t = min_u64(t, r->relisten_at);
	for (dr = r->drains; dr; dr = dr->next)
		t = min_u64(t, dr->until);
	return t;
}

static int wait_events(struct relay *r, struct epoll_event *evs, uint64_t now)
{
	uint64_t deadline = next_deadline(r, now), at;
	struct itimerspec its = {0};
	int n;

	if (deadline <= now)
		return epoll_wait(r->epfd, evs, MAX_EVENTS, 0);
	if (deadline - now <= r->early_ns) {
		do {
			n = epoll_wait(r->epfd, evs, MAX_EVENTS, 0);
		} while (!n && mono_ns() < deadline);
		return n;
	}
	if (deadline != NO_TIME) {
		at = deadline - r->early_ns;
		if (at != r->armed) {
			its.it_value.tv_sec = at / NSEC_PER_SEC;
			its.it_value.tv_nsec = at % NSEC_PER_SEC;
			if (timerfd_settime(r->tmr.fd, TFD_TIMER_ABSTIME, &its,
					    NULL))
				return -errno;
			r->armed = at;
		}
	}
	return epoll_wait(r->epfd, evs, MAX_EVENTS, -1);
}

int relay_run(struct relay *r)
{
	struct epoll_event evs[MAX_EVENTS];
	uint64_t now;
	int i, n, d;

	while (!r->quit) {
		now = mono_ns();
		run_timers(r, now);
		for (d = 0; d < NR_DIRS; d++)
			service_reads(r, d, now);
		for (d = 0; d < NR_DIRS; d++)
			process_releases(r, d, now);
		reap(r, false);
		n = wait_events(r, evs, now);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		now = mono_ns();
		for (i = 0; i < n; i++)
			dispatch(r, evs[i].data.ptr, evs[i].events, now);
	}
	print_stats(r);
	return 0;
}

int relay_create(struct relay **rp, const struct settings *s)
{
	char addr[80];
	struct relay *r;
	sigset_t mask;
	int d, ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->s = *s;
	r->lis = (struct endpoint){ .kind = EP_LISTEN, .fd = -1 };
	r->sig = (struct endpoint){ .kind = EP_SIGNAL, .fd = -1 };
	r->tmr = (struct endpoint){ .kind = EP_TIMER, .fd = -1 };
	r->ctl = (struct endpoint){ .kind = EP_CONTROL, .fd = -1 };
	r->armed = NO_TIME;
	r->capture = -1;
	r->early_ns = EARLY_START_NS;
	r->late_avg = EARLY_START_NS / 2;
	r->late_dev = EARLY_START_NS / 4;
	r->cut_at = NO_TIME;

	/* The default 50 us timer slack would be a fifth of a 250 us delay. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	signal(SIGPIPE, SIG_IGN);

	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0) {
		ret = -errno;
		goto out_free;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	r->sig.fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	r->tmr.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (r->sig.fd < 0 || r->tmr.fd < 0) {
		ret = -errno;
		goto out_destroy;
	}
	ret = epoll_add(r, &r->sig, EPOLLIN);
	if (!ret)
		ret = epoll_add(r, &r->tmr, EPOLLIN);
	if (ret)
		goto out_destroy;
	if (s->capture) {
		r->capture = open(s->capture, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (r->capture < 0) {
			ret = -errno;
			fprintf(stderr, "linkem: %s: %s\n", s->capture, strerror(-ret));
			goto out_destroy;
		}
	}
	if (s->control_path) {
		ret = control_open(r);
		if (ret) {
			fprintf(stderr, "linkem: control socket %s: %s\n",
				s->control_path, strerror(-ret));
			goto out_destroy;
		}
	}
	ret = listener_open(r);
	if (ret) {
		format_addr(addr, sizeof(addr),
			    (const struct sockaddr *)&s->listen_addr, s->listen_len);
		fprintf(stderr, "linkem: listen on %s: %s\n", addr,
			strerror(-ret));
		goto out_destroy;
	}

	r->start_ns = mono_ns();
	for (d = 0; d < NR_DIRS; d++)
		link_dir_init(&r->dir[d], &s->dir[d], s->seed + d, r->start_ns);
	if (s->cut_at_ns != NO_TIME)
		r->cut_at = r->start_ns + s->cut_at_ns;
	*rp = r;
	return 0;

out_destroy:
	relay_destroy(r);
	return ret;
out_free:
	free(r);
	return ret;
}

void relay_destroy(struct relay *r)
{
	int d;

	while (r->live)
		conn_close(r, r->live, false);
	reap(r, true);
	while (r->drains)
		drain_close(r, r->drains);
	while (r->ctl_clients)
		ctl_client_close(r, r->ctl_clients);
	if (r->capture >= 0)
		close(r->capture);
	if (r->ctl.fd >= 0) {
		close(r->ctl.fd);
		unlink(r->s.control_path);
	}
	if (r->lis.fd >= 0)
		close(r->lis.fd);
	if (r->sig.fd >= 0)
		close(r->sig.fd);
	if (r->tmr.fd >= 0)
		close(r->tmr.fd);
	if (r->epfd >= 0)
		close(r->epfd);
	for (d = 0; d < NR_DIRS; d++)
		fifo_free(&r->dir[d].fifo);
	free(r);
}
