// SPDX-License-Identifier: MIT
/*
 * The local socket of a client gleamd, as gleamctl and applications use it
 * (uapi/gleam_local.h), and gleamctl's reading of what comes back to it.
 * The client role's own code handles every message (on_cqe(), local_hello(),
 * control_request() in broker/client.c); the harness plays the kernel
 * (fz_uring.c) and up to eight peers on the socket.
 *
 * The input: a mode byte, then
 *   mode 0, 1: operations on local connections, one byte each (what & 7,
 *              which connection >> 3), some followed by a message:
 *              a length byte, then that many bytes; lengths from 0xf0 up
 *              stand for well-formed messages (see message())
 *   mode 2:    what a server gleamd sends gleamctl server-info
 *   mode 3:    a status text for gleamctl to take the servers' addresses from,
 *              and to print as gleamd's answers are printed
 *
 * Checked: every reply gleamd sends is whole (text ending in a newline, or
 * JSON that parses), and no buffer is sent from after it is freed; the
 * sessions' state agrees with the operations in flight; every connection,
 * once its peer goes, is freed with nothing left in flight; gleamctl's
 * output, text or JSON, stays printable and parses whatever the server sent.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fz.h"
#include "util.h"

#define CONNS_MAX	8

enum {
	C_CONNECT,		/* a peer connects */
	C_MESSAGE,		/* it sends a message */
	C_REPLY,		/* a reply it was sent goes out */
	C_REFUSED,		/* a session's connection to the server fails */
	C_CLOSE,		/* the peer goes */
	C_SERVER,		/* a session's connection to the server succeeds */
	C_MESSAGE2,
	C_MESSAGE3,
};

struct conn {
	int app;		/* the peer's end */
	struct bridge *b;	/* NULL once gleamd freed the session */
};

static struct config cfg;
static struct conn conns[CONNS_MAX];
static unsigned int nconns;
static unsigned int replies, json_replies, acks;	/* for FZ_TRACE */

static bool alive(struct conn *c)
{
	if (c->b && !fz_client_alive(c->b))
		c->b = NULL;
	return c->b;
}

static void check_reply(const struct fz_op *o)
{
	char *r = malloc(o->len + 1), addr[256];

	if (!r)
		FZ_FAIL("out of memory");
	/* The kernel reads the buffer when it sends: ASan sees it if freed. */
	memcpy(r, o->addr, o->len);
	r[o->len] = 0;
	if (!o->len || o->len > GLEAM_CTL_REPLY_MAX || strlen(r) != o->len || r[o->len - 1] != '\n')
		FZ_FAIL("a reply that is not whole text (%u bytes)", o->len);
	replies++;
	if (r[0] == '{') {
		json_replies++;
		if (!fz_json_valid(r, o->len))
			FZ_FAIL("status JSON that does not parse: %s", r);
	} else if (!strncmp(r, "server: ", 8)) {
		/*
		 * gleamctl status takes the servers' addresses from here.  The
		 * first is the configured one only until gleamctl servers
		 * removes it: any address that reads whole will do.
		 */
		if (!fz_gleamctl_status_server(r, addr, sizeof(addr)) || !addr[0])
			FZ_FAIL("gleamctl reads no server address from: %s", r);
	} else if (!strcmp(r, "ok\n") || !strncmp(r, "ok: ", 4) || !strncmp(r, "placement: ", 11) ||
		   !strncmp(r, "127.0.0.1:", 10) || !strcmp(r, "no servers\n")) {
		/* The scheduler's answers: a change done, stats, the servers. */
		for (size_t i = 0; i < o->len; i++)
			if ((r[i] < 0x20 || r[i] > 0x7e) && r[i] != '\n')
				FZ_FAIL("a reply with a control character: %s", r);
	} else if (strncmp(r, "error: ", 7)) {
		FZ_FAIL("a reply of neither kind: %s", r);
	}
	free(r);
}

/* Complete one operation through client.c's handler. */
static void complete(struct fz_op *o, int res)
{
	if (o->op->type == OP_CTL_SEND && res > 0)
		check_reply(o);
	fz_client_complete(o->op, res);
	fz_harvest();
}

static void check(void)
{
	for (unsigned int i = 0; i < nconns; i++) {
		struct conn *c = &conns[i];
		const struct bridge *b;

		if (!alive(c))
			continue;
		b = c->b;
		if (b->inflight != (int)fz_count(c->b))
			FZ_FAIL("a session counts %d operations in flight, %u are", b->inflight,
				fz_count(c->b));
		if (b->recving != !!fz_find(&b->op_tcp_recv) ||
		    b->bell_recving != !!fz_find(&b->op_bell_recv))
			FZ_FAIL("session flags disagree with what is in flight");
	}
}

/*
 * What gleamd sent the peer on the socket itself: acks, with a ring, and
 * the reason a session is not served (struct gleam_local_why).
 */
static void drain_app(struct conn *c)
{
	union {
		struct gleam_local_ack ack;
		struct gleam_local_why why;
	} m;
	struct gleam_local_ack ack;
	ssize_t n;
	int fd;

	if (c->app < 0)
		return;
	for (;;) {
		n = recv(c->app, &m, 0, MSG_DONTWAIT | MSG_PEEK);
		if (n < 0)
			return;
		n = gl_recv_fd(c->app, &m, sizeof(m), &fd);
		if (n <= 0)
			return;
		if (n == sizeof(m.why) && m.why.magic == GLEAM_LOCAL_WHY_MAGIC) {
			if (fd >= 0 || m.why.status >= 0 || !memchr(m.why.msg, 0, sizeof(m.why.msg)))
				FZ_FAIL("a malformed reason");
			continue;
		}
		memcpy(&ack, &m, sizeof(ack));
		if (n != sizeof(ack) || ack.magic != GLEAM_LOCAL_MAGIC || ack.status > 0 ||
		    (!ack.status) != (fd >= 0))
			FZ_FAIL("a malformed ack");
		acks++;
		if (fd >= 0) {
			struct gl_ring r;

			if (gl_ring_map(fd, &r) || r.region_size != ack.region_size)
				FZ_FAIL("an ack with a ring that does not map");
			gl_ring_unmap(&r);
			close(fd);
		}
	}
}

/* The next message of the input, in buf; its length, or -1 at the end. */
static int message(const uint8_t **p, const uint8_t *end, unsigned char *buf)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION };
	struct gleam_ctl_req req = { 0 };
	unsigned int len;

	if (*p >= end)
		return -1;
	len = *(*p)++;
	switch (len) {
	case 0xf0:
	case 0xf1:
		h.kind = len == 0xf0 ? GLEAM_LOCAL_CONTROL : GLEAM_LOCAL_SESSION;
		snprintf(h.program, sizeof(h.program), "fuzz");
		memcpy(buf, &h, sizeof(h));
		return sizeof(h);
	case 0xf2:
	case 0xf3:
		req.op = len == 0xf2 ? GLEAM_CTL_STATUS : GLEAM_CTL_STATUS_JSON;
		memcpy(buf, &req, sizeof(req));
		return sizeof(req);
	/* The scheduler's requests, well formed; the byte after picks the argument. */
	case 0xf4:
	case 0xf5:
	case 0xf6:
	case 0xf7: {
		static const char *const args[] = {
			"", "socket 127.0.0.1:7381", "vgpu3 127.0.0.1:7381:0", "socket",
			"127.0.0.1:7382", "127.0.0.1:7381", "vgpu3", "socket 10.0.0.1:1:2",
		};
		unsigned int a = *p < end ? *(*p)++ : 0;

		req.op = GLEAM_CTL_STATS + (a >> 3) % (GLEAM_CTL_ASSIGN_CLEAR - GLEAM_CTL_STATS + 1);
		snprintf(req.arg, sizeof(req.arg), "%s", args[a & 7]);
		memcpy(buf, &req, sizeof(req));
		return sizeof(req);
	}
	}
	len = MIN(len, (unsigned int)(end - *p));
	memcpy(buf, *p, len);
	*p += len;
	return (int)len;
}

static void local(const uint8_t *p, const uint8_t *end)
{
	unsigned char buf[512];	/* as the bell buffer: a local hello fits */
	struct fz_op o;

	while (p < end) {
		unsigned int what = *p & 7, k = *p >> 3;
		struct conn *c = nconns ? &conns[k % nconns] : NULL;
		int sv[2], n;

		p++;
		check();
		if (what == C_CONNECT || !c) {
			if (nconns == CONNS_MAX)
				continue;
			if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
				FZ_FAIL("socketpair: %s", strerror(errno));
			c = &conns[nconns++];
			c->app = sv[1];
			c->b = fz_client_accept(sv[0]);
			fz_harvest();
			if (!c->b)
				FZ_FAIL("the client takes no connection");
			continue;
		}
		switch (what) {
		case C_MESSAGE:
		case C_MESSAGE2:
		case C_MESSAGE3:
			n = message(&p, end, buf);
			if (n < 0 || !alive(c) || c->app < 0 || !fz_take(c->b, OP_BELL_RECV, &o))
				break;
			/* A datagram longer than the buffer is cut, as recv() cuts it. */
			n = MIN(n, (int)o.len);
			memcpy(o.addr, buf, (size_t)n);
			complete(&o, n);
			break;
		case C_REPLY:
			while (alive(c) && (fz_take(c->b, OP_CTL_SEND, &o) ||
					    fz_take(c->b, OP_BELL_SEND, &o)))
				complete(&o, (int)o.len);
			break;
		case C_REFUSED:
		case C_SERVER:
			if (alive(c) && fz_take(c->b, OP_CONNECT, &o))
				complete(&o, what == C_SERVER ? 0 : -ECONNREFUSED);
			break;
		case C_CLOSE:
			if (c->app >= 0)
				close(c->app);
			c->app = -1;
			if (alive(c) && fz_take(c->b, OP_BELL_RECV, &o))
				complete(&o, 0);
			break;
		}
		drain_app(c);
	}
}

/* Every peer goes; every session must end with nothing left in flight. */
static void finish(void)
{
	struct fz_op o;

	for (unsigned int i = 0; i < nconns; i++) {
		struct conn *c = &conns[i];

		drain_app(c);
		if (c->app >= 0)
			close(c->app);
		c->app = -1;
		for (unsigned int n = 0; alive(c); n++) {
			check();
			if (n == 1000 || !fz_take_any(c->b, &o))
				FZ_FAIL("a session whose peer went is never freed");
			switch (o.op->type) {
			case OP_CTL_SEND:
			case OP_BELL_SEND:
				complete(&o, (int)o.len);
				break;
			case OP_CONNECT:
				complete(&o, -ECONNREFUSED);
				break;
			case OP_TCP_SEND:
				complete(&o, -EPIPE);
				break;
			default:
				complete(&o, 0);
				break;
			}
		}
	}
	if (fz_nops || fz_client_sessions())
		FZ_FAIL("%u operations and %u sessions left", fz_nops, fz_client_sessions());
	nconns = 0;
}

/* gleamctl's output must stay printable text, or JSON that parses. */
static void check_output(const char *what, char *out, size_t len, bool json)
{
	if (json ? !fz_json_valid(out, len) : false)
		FZ_FAIL("gleamctl %s prints JSON that does not parse: %s", what, out);
	for (size_t i = 0; !json && i < len; i++)
		if ((out[i] < 0x20 || out[i] > 0x7e) && out[i] != '\n')
			FZ_FAIL("gleamctl %s prints a control character (%#x)", what,
				(unsigned char)out[i]);
}

/* gleamctl server-info against a server that sends these bytes. */
static void server_info(const uint8_t *p, size_t len)
{
	static struct gleam_gpu_info gpus[GLEAM_GPUS_MAX], copy[GLEAM_GPUS_MAX];
	struct gleam_server_info info = { 0 }, icopy;
	int sv[2], err;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		FZ_FAIL("socketpair: %s", strerror(errno));
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	while (len) {
		ssize_t n = send(sv[1], p, len, MSG_NOSIGNAL);

		if (n <= 0)
			break;
		p += n;
		len -= (size_t)n;
	}
	shutdown(sv[1], SHUT_WR);
	memset(gpus, 0, sizeof(gpus));
	err = fz_gleamctl_info(sv[0], &info, gpus);
	if (!err && info.ngpus > GLEAM_GPUS_MAX)
		FZ_FAIL("gleamctl takes %u GPUs", info.ngpus);
	for (int json = 0; json < 2; json++) {
		char *out = NULL;
		size_t olen = 0;
		FILE *f = open_memstream(&out, &olen);

		if (!f)
			FZ_FAIL("open_memstream: %s", strerror(errno));
		icopy = info;
		memcpy(copy, gpus, sizeof(copy));
		fz_gleamctl_print_info(f, "127.0.0.1:7381", err, &icopy, copy, json);
		fclose(f);
		check_output("server-info", out, olen, json);
		free(out);
	}
	close(sv[0]);
	close(sv[1]);
}

/* gleamctl status reads the server's address from the client's text. */
static void status_text(const uint8_t *p, size_t len)
{
	char *text = malloc(len + 1), addr[256];
	const char *a;

	if (!text)
		FZ_FAIL("out of memory");
	memcpy(text, p, len);
	text[len] = 0;
	a = fz_gleamctl_status_server(text, addr, sizeof(addr));
	if (a && (a != addr || strnlen(addr, sizeof(addr)) == sizeof(addr) ||
		  !strstr(text, addr)))
		FZ_FAIL("gleamctl reads an address that is not in the text");
	/* Each "server: " line in turn, never past the text's end. */
	{
		const char *pos = text;
		unsigned int n = 0;

		while (n++ < 1000 && fz_gleamctl_status_server_next(&pos, addr, sizeof(addr))) {
			if (pos < text || pos > text + len || !strstr(text, addr))
				FZ_FAIL("gleamctl reads an address that is not in the text");
		}
	}
	/* gleamd's answers (stats, servers) are printed printable. */
	{
		char *out = NULL;
		size_t olen = 0;
		FILE *f = open_memstream(&out, &olen);

		if (!f)
			FZ_FAIL("open_memstream: %s", strerror(errno));
		fz_gleamctl_put_text(f, text);
		fclose(f);
		check_output("stats", out, olen, false);
		free(out);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	int fd_mark, fd;

	if (!ready) {
		gl_log_level = getenv("FZ_TRACE") ? 2 : -1;
		fz_uring_init();
		config_defaults(&cfg, ROLE_CLIENT);
		snprintf(cfg.server, sizeof(cfg.server), "127.0.0.1:7381");
		ready = true;
	}
	if (!size)
		return 0;
	fd_mark = dup(0);
	close(fd_mark);
	switch (data[0] & 3) {
	case 0:
	case 1:
		fz_client_setup(&cfg);
		local(data + 1, data + size);
		finish();
		/* FZ_TRACE=1: what each input did, to see what the harness reaches. */
		if (getenv("FZ_TRACE"))
			fprintf(stderr, "control: %u replies (%u JSON), %u acks\n", replies,
				json_replies, acks);
		replies = json_replies = acks = 0;
		break;
	case 2:
		server_info(data + 1, size - 1);
		break;
	case 3:
		status_text(data + 1, size - 1);
		break;
	}
	fd = dup(0);
	close(fd);
	if (fd != fd_mark)
		FZ_FAIL("a descriptor was left open");
	return 0;
}
