// SPDX-License-Identifier: MIT
/*
 * gleamd's metrics endpoint: a listening socket on the role's io_uring
 * loop, a handful of scrapes at a time.  Each connection reads one request
 * (5 s at most, through a linked timeout), gets the whole answer built at
 * once by the role's collect function, and is closed when it is sent:
 * HTTP/1.0 as Prometheus and curl speak it, nothing kept between scrapes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "metrics.h"
#include "util.h"

#define CONNS_MAX	8
#define REQ_MAX		4096
#define LINKS_MAX	64

struct mconn {
	struct op op;
	int fd;			/* -1: free */
	enum { MC_RECV, MC_SEND } state;
	char req[REQ_MAX];
	size_t rlen;
	char *resp;
	size_t len, sent;
};

/*
 * One endpoint for the process (one --metrics address), with what it
 * reports of sessions that ended; the role that started it, the only one
 * in the process, is handed back to its collect function.
 */
static struct {
	int fd;			/* -1: not serving */
	struct op op_accept;
	bool accepting;
	metrics_collect_fn collect;
	void *role;		/* collect's */
	struct mconn conns[CONNS_MAX];
	struct __kernel_timespec limit;
	/* Ended sessions' counters, per link. */
	struct {
		char name[128];
		struct sess_stats st;
		uint64_t sessions;
	} links[LINKS_MAX];
	unsigned int nlinks;
} mx = { .fd = -1 };

void mb_family(struct gl_buf *m, const char *name, const char *type, const char *unit,
	       const char *help)
{
	gl_buf_printf(m, "# TYPE %s %s\n", name, type);
	if (unit)
		gl_buf_printf(m, "# UNIT %s %s\n", name, unit);
	gl_buf_printf(m, "# HELP %s %s\n", name, help);
}

/* A label value as OpenMetrics quotes it: \\, \" and \n escaped; the rest printable. */
static void label_value(struct gl_buf *m, const char *v)
{
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c == '\\' || c == '"')
			gl_buf_printf(m, "\\%c", c);
		else if (c == '\n')
			gl_buf_printf(m, "\\n");
		else
			gl_buf_printf(m, "%c", c < 0x20 || c > 0x7e ? '?' : c);
	}
}

void mb_sample(struct gl_buf *m, const char *name, double value, ...)
{
	const char *k;
	bool first = true;
	va_list ap;

	gl_buf_printf(m, "%s", name);
	va_start(ap, value);
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);

		gl_buf_printf(m, "%s%s=\"", first ? "{" : ",", k);
		label_value(m, v ? v : "");
		gl_buf_printf(m, "\"");
		first = false;
	}
	va_end(ap);
	/* Integers as integers: counters of bytes stay exact. */
	if (value == (double)(uint64_t)value && value >= 0 && value < 1e18)
		gl_buf_printf(m, "%s %llu\n", first ? "" : "}", (unsigned long long)value);
	else
		gl_buf_printf(m, "%s %.9g\n", first ? "" : "}", value);
}

static void post_accept(void)
{
	struct io_uring_sqe *sqe;

	if (mx.fd < 0 || mx.accepting)
		return;
	sqe = loop_sqe();
	io_uring_prep_accept(sqe, mx.fd, NULL, NULL, SOCK_CLOEXEC);
	io_uring_sqe_set_data(sqe, &mx.op_accept);
	mx.accepting = true;
}

/* Read more of the request, giving up on a client silent for 5 s. */
static void post_recv(struct mconn *c)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_recv(sqe, c->fd, c->req + c->rlen, sizeof(c->req) - 1 - c->rlen, 0);
	io_uring_sqe_set_data(sqe, &c->op);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = loop_sqe();
	io_uring_prep_link_timeout(sqe, &mx.limit, 0);
	io_uring_sqe_set_data(sqe, NULL);
}

static void post_send(struct mconn *c)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_send(sqe, c->fd, c->resp + c->sent, c->len - c->sent, MSG_NOSIGNAL);
	io_uring_sqe_set_data(sqe, &c->op);
}

static void conn_close(struct mconn *c)
{
	close(c->fd);
	c->fd = -1;
	free(c->resp);
	c->resp = NULL;
}

/* The answer to a complete request: the metrics for GET /metrics (or /), else 404. */
static void respond(struct mconn *c)
{
	struct gl_buf body = { 0 }, all = { 0 };
	bool ok = !strncmp(c->req, "GET /metrics ", 13) || !strncmp(c->req, "GET /metrics?", 13) ||
		  !strncmp(c->req, "GET / ", 6);

	if (ok) {
		mx.collect(&body, mx.role);
		gl_buf_printf(&body, "# EOF\n");
	} else {
		gl_buf_printf(&body, "not found: the metrics are at /metrics\n");
	}
	gl_buf_printf(&all, "HTTP/1.0 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		      "Connection: close\r\n\r\n", ok ? "200 OK" : "404 Not Found",
		      ok ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
		      "text/plain; charset=utf-8", body.len);
	if (body.b)
		gl_buf_printf(&all, "%.*s", (int)body.len, body.b);
	free(body.b);
	c->resp = all.b;
	c->len = all.b ? all.len : 0;
	c->sent = 0;
	c->state = MC_SEND;
	if (!c->len) {
		conn_close(c);
		return;
	}
	post_send(c);
}

static void on_accept(int fd)
{
	struct mconn *c = NULL;

	mx.accepting = false;
	post_accept();
	if (fd < 0)
		return;
	for (unsigned int i = 0; i < CONNS_MAX && !c; i++)
		if (mx.conns[i].fd < 0)
			c = &mx.conns[i];
	/* Busy: the scraper tries again at its next interval. */
	if (!c) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->rlen = 0;
	c->state = MC_RECV;
	post_recv(c);
}

static void on_conn(struct mconn *c, int res)
{
	if (c->state == MC_SEND) {
		if (res <= 0 || (c->sent += (size_t)res) >= c->len)
			conn_close(c);
		else
			post_send(c);
		return;
	}
	if (res <= 0) {
		conn_close(c);
		return;
	}
	c->rlen += (size_t)res;
	c->req[c->rlen] = 0;
	if (strstr(c->req, "\r\n\r\n") || strstr(c->req, "\n\n"))
		respond(c);
	else if (c->rlen + 1 >= sizeof(c->req))
		conn_close(c);
	else
		post_recv(c);
}

void metrics_complete(struct op *op, int res)
{
	if (op == &mx.op_accept)
		on_accept(res);
	else
		on_conn(op->owner, res);
}

int metrics_start(const char *addr, metrics_collect_fn collect, void *role)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int one = 1, err;

	err = gl_parse_hostport(addr, 9464, &ss, &sl);
	if (err) {
		gl_err("--metrics %s: %s", addr, gl_addr_strerror(err));
		return err;
	}
	mx.fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (mx.fd < 0)
		return -errno;
	setsockopt(mx.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(mx.fd, (struct sockaddr *)&ss, sl) < 0 || listen(mx.fd, 16) < 0) {
		err = -errno;
		gl_err("--metrics %s: cannot listen: %s", addr, strerror(-err));
		close(mx.fd);
		mx.fd = -1;
		return err;
	}
	mx.collect = collect;
	mx.role = role;
	mx.op_accept = (struct op){ OP_METRICS, NULL };
	mx.limit.tv_sec = 5;
	for (unsigned int i = 0; i < CONNS_MAX; i++) {
		mx.conns[i].fd = -1;
		mx.conns[i].op = (struct op){ OP_METRICS, &mx.conns[i] };
	}
	post_accept();
	gl_info("metrics: OpenMetrics at http://%s/metrics", addr);
	return 0;
}

void metrics_stop(void)
{
	if (mx.fd >= 0)
		shutdown(mx.fd, SHUT_RDWR);
}

void metrics_session_done(const char *link, const struct sess_stats *st)
{
	unsigned int i;

	for (i = 0; i < mx.nlinks; i++)
		if (!strcmp(mx.links[i].name, link))
			break;
	if (i == mx.nlinks) {
		/* Past the table's size, the rest are counted together. */
		if (mx.nlinks == LINKS_MAX)
			link = "(other)", i = LINKS_MAX - 1;
		else
			mx.nlinks++;
		snprintf(mx.links[i].name, sizeof(mx.links[i].name), "%s", link);
	}
	mx.links[i].sessions++;
	mx.links[i].st.records += st->records;
	mx.links[i].st.replies += st->replies;
	mx.links[i].st.batches += st->batches;
	mx.links[i].st.bytes_out += st->bytes_out;
	mx.links[i].st.bytes_in += st->bytes_in;
	mx.links[i].st.waits += st->waits;
	mx.links[i].st.payload += st->payload;
	mx.links[i].st.waits_made += st->waits_made;
	mx.links[i].st.waits_required += st->waits_required;
}

const struct sess_stats *metrics_link_done(const char *link, uint64_t *sessions)
{
	for (unsigned int i = 0; i < mx.nlinks; i++) {
		if (!strcmp(mx.links[i].name, link)) {
			*sessions = mx.links[i].sessions;
			return &mx.links[i].st;
		}
	}
	*sessions = 0;
	return NULL;
}

const char *metrics_link_name(unsigned int i)
{
	return i < mx.nlinks ? mx.links[i].name : NULL;
}
