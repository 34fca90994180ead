// SPDX-License-Identifier: MIT
/*
 * gpus: a server gleamd's GPUs as the wire shows them (tests/gpus/run.sh).
 *
 *   gpus HOST:PORT info              per GPU, a line of what INFO says (usage included)
 *   gpus HOST:PORT session GPU [S]   a session that names GPU (GLEAM_WIRE_F_GPU): the
 *                                    HELLO_ACK, the devices cuInit shows it, and INFO
 *                                    while it lives; it stays S seconds (default 0)
 *   gpus HOST:PORT control-gpu       a control hello that names a GPU: the HELLO_ACK
 *   gpus HOST:PORT peers             a session that names no GPU and sees them all:
 *                                    copies between GPUs 0 and 1 (cuMemcpyPeer and its
 *                                    Async form) with peer access enabled, checked
 *   gpus load PTX SECONDS US BATCH   through Gleam's libcuda: BATCH launches of spin_ns
 *                                    for US microseconds each, then a synchronisation,
 *                                    until SECONDS have passed
 *
 * It speaks the wire itself: a client gleamd names one GPU of a server
 * that has several, so no program through it sees two.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cuda.h>

#include "../lib/cuctx.h"
#include "../lib/tcp.h"
#include "gleam_api_gen.h"
#include "gleam_record.h"
#include "gleam_wire.h"
#include "util.h"

static const char *server;

static int tcp_connect(void)
{
	struct timeval tv = { .tv_sec = 10 };
	int fd = test_tcp_connect(server);

	/* A server that stopped answering fails the test instead of hanging it. */
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static int send_frame(int fd, uint16_t type, const void *p, uint32_t len)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = type, .len = len };

	if (gl_write_full(fd, &f, sizeof(f)))
		return -1;
	return len ? gl_write_full(fd, p, len) : 0;
}

/* The next frame of type want (PINGs are answered on the way); its length, or -1. */
static long recv_frame(int fd, uint16_t want, void *buf, size_t cap)
{
	struct gleam_frame f;

	for (;;) {
		if (gl_read_full(fd, &f, sizeof(f)) || f.magic != GLEAM_WIRE_MAGIC || f.len > cap ||
		    gl_read_full(fd, buf, f.len))
			return -1;
		if (f.type == GLEAM_FRAME_PING) {
			send_frame(fd, GLEAM_FRAME_PONG, buf, f.len);
			continue;
		}
		if (f.type == want)
			return f.len;
		if (f.type == GLEAM_FRAME_ERROR || f.type == GLEAM_FRAME_BYE)
			return -1;
	}
}

static int hello(int fd, uint32_t kind, uint64_t features, uint32_t gpu,
		 struct gleam_hello_ack *ack)
{
	struct gleam_hello h = { .version = GLEAM_WIRE_VERSION, .min_version = GLEAM_WIRE_VERSION,
				 .features = features, .kind = kind, .gpu = gpu };

	snprintf(h.program, sizeof(h.program), "gpus");
	snprintf(h.client, sizeof(h.client), "test");
	if (send_frame(fd, GLEAM_FRAME_HELLO, &h, sizeof(h)) ||
	    recv_frame(fd, GLEAM_FRAME_HELLO_ACK, ack, sizeof(*ack)) != sizeof(*ack))
		return -1;
	return 0;
}

static int info(void)
{
	static unsigned char buf[1 << 16];
	struct gleam_hello_ack ack;
	struct gleam_server_info si;
	struct gleam_gpu_info *g;
	struct gleam_gpu_usage *u;
	long n;
	int fd = tcp_connect();

	if (fd < 0 || hello(fd, GLEAM_HELLO_CONTROL, GLEAM_WIRE_F_USAGE, 0, &ack) || ack.status ||
	    !(ack.features & GLEAM_WIRE_F_USAGE) || send_frame(fd, GLEAM_FRAME_INFO_REQ, NULL, 0))
		goto fail;
	n = recv_frame(fd, GLEAM_FRAME_INFO, buf, sizeof(buf));
	if (n < (long)sizeof(si))
		goto fail;
	memcpy(&si, buf, sizeof(si));
	if (si.ngpus > GLEAM_GPUS_MAX ||
	    (size_t)n != sizeof(si) + si.ngpus * (sizeof(*g) + sizeof(*u)) +
			 sizeof(struct gleam_server_usage))
		goto fail;
	g = (void *)(buf + sizeof(si));
	u = (void *)(buf + sizeof(si) + si.ngpus * sizeof(*g) + sizeof(struct gleam_server_usage));
	printf("info sessions=%u ngpus=%u\n", si.sessions, si.ngpus);
	for (unsigned int i = 0; i < si.ngpus; i++)
		printf("gpu %u name=\"%.64s\" sessions=%u workers=%u mem_total=%llu util=%u "
		       "util_ok=%d wait_us=%u\n", i, g[i].name, g[i].sessions, u[i].workers,
		       (unsigned long long)u[i].mem_total, u[i].util_pct,
		       !!(u[i].flags & GLEAM_USAGE_F_UTIL), u[i].wait_us);
	close(fd);
	return 0;
fail:
	fprintf(stderr, "gpus: no INFO from %s\n", server);
	if (fd >= 0)
		close(fd);
	return 1;
}

/* cuInit on the session: the devices its worker sees. */
static int devices(int fd)
{
	static unsigned char buf[1 << 20];
	struct {
		struct gleam_rec r;
		struct gl_a_cuInit a;
	} rec = { .r = { .len = sizeof(rec), .fn = GL_FN_cuInit, .flags = GLEAM_REC_F_REPLY,
			 .tag = 1, .seq = 1 } };
	struct gleam_init_reply ir;
	struct gleam_reply rep;
	long n;

	if (send_frame(fd, GLEAM_FRAME_RECORDS, &rec, sizeof(rec)))
		return -1;
	n = recv_frame(fd, GLEAM_FRAME_REPLIES, buf, sizeof(buf));
	if (n < (long)(sizeof(rep) + sizeof(ir)))
		return -1;
	memcpy(&rep, buf, sizeof(rep));
	memcpy(&ir, buf + sizeof(rep), sizeof(ir));
	if (rep.result || rep.len > n ||
	    rep.len < sizeof(rep) + sizeof(ir) + ir.ndev * sizeof(struct gleam_devinfo))
		return -1;
	printf("devices %u\n", ir.ndev);
	for (unsigned int i = 0; i < ir.ndev; i++) {
		struct gleam_devinfo d;

		memcpy(&d, buf + sizeof(rep) + sizeof(ir) + i * sizeof(d), sizeof(d));
		printf("device %u name=\"%.256s\" uuid=", i, d.name);
		for (int b = 0; b < 16; b++)
			printf("%02x", d.uuid[b]);
		printf(" mem=%llu\n", (unsigned long long)d.total_mem);
	}
	return 0;
}

static int session(unsigned int gpu, unsigned int hold)
{
	struct gleam_hello_ack ack;
	int fd = tcp_connect(), ret = 1;

	if (fd < 0 || hello(fd, GLEAM_HELLO_SESSION, GLEAM_WIRE_F_ASYNC | GLEAM_WIRE_F_GPU, gpu,
			    &ack)) {
		fprintf(stderr, "gpus: no HELLO_ACK from %s\n", server);
		goto out;
	}
	printf("status %u gpu_echoed=%d\n", ack.status, !!(ack.features & GLEAM_WIRE_F_GPU));
	if (ack.status) {
		ret = 0;
		goto out;
	}
	if (devices(fd)) {
		fprintf(stderr, "gpus: cuInit on the session failed\n");
		goto out;
	}
	fflush(stdout);
	ret = info();
	sleep(hold);
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

static int control_gpu(void)
{
	struct gleam_hello_ack ack;
	int fd = tcp_connect();

	if (fd < 0 || hello(fd, GLEAM_HELLO_CONTROL, GLEAM_WIRE_F_GPU, 0, &ack))
		return 1;
	printf("status %u gpu_echoed=%d\n", ack.status, !!(ack.features & GLEAM_WIRE_F_GPU));
	close(fd);
	return 0;
}

/* ---- records of its own ---- */

struct call {
	unsigned int fn;
	uint64_t ctx;
	const void *args;
	size_t args_len;
	const void *data;	/* after the argument block */
	size_t data_len;
	bool reply;
	void *out;		/* the reply's fixed part */
	size_t out_len;
	void *buf;		/* its DATA pieces */
	size_t buf_len;
};

static unsigned char rx[1 << 21];
static size_t rx_len, rx_pos;
static uint64_t rec_seq;

/* The next reply of the session, from the frames already read or a new one; NULL at the end. */
static const struct gleam_reply *next_reply(int fd)
{
	const struct gleam_reply *r;
	long n;

	if (rx_pos >= rx_len) {
		n = recv_frame(fd, GLEAM_FRAME_REPLIES, rx, sizeof(rx));
		if (n <= 0)
			return NULL;
		rx_len = (size_t)n;
		rx_pos = 0;
	}
	r = (const void *)(rx + rx_pos);
	if (rx_len - rx_pos < sizeof(*r) || r->len < sizeof(*r) || r->len > rx_len - rx_pos)
		return NULL;
	rx_pos += r->len;
	return r;
}

/* One record; with a reply wanted, its result (-1: the session broke). */
static int rec_call(int fd, const struct call *c)
{
	static unsigned char rec[GLEAM_PIECE_MAX + 4096];
	size_t a = ALIGN8(c->args_len), len = sizeof(struct gleam_rec) + a + ALIGN8(c->data_len);
	struct gleam_rec h = { .len = (uint32_t)len, .fn = (uint16_t)c->fn, .ctx = c->ctx,
			       .seq = ++rec_seq };

	if (len > sizeof(rec))
		return -1;
	h.flags = c->reply ? GLEAM_REC_F_REPLY : 0;
	h.tag = c->reply ? (uint32_t)h.seq : 0;
	memset(rec, 0, len);
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), c->args, c->args_len);
	if (c->data_len)
		memcpy(rec + sizeof(h) + a, c->data, c->data_len);
	if (send_frame(fd, GLEAM_FRAME_RECORDS, rec, (uint32_t)len))
		return -1;
	while (c->reply) {
		const struct gleam_reply *r = next_reply(fd);
		const unsigned char *body = (const unsigned char *)(r + 1);
		size_t blen = r ? r->len - sizeof(*r) : 0;

		if (!r)
			return -1;
		if (r->tag != h.tag)
			continue;
		if (r->flags & GLEAM_REP_F_DATA) {
			struct gleam_rep_data d;

			if (blen < sizeof(d))
				return -1;
			memcpy(&d, body, sizeof(d));
			if (d.length > blen - sizeof(d) || d.offset > c->buf_len ||
			    d.length > c->buf_len - d.offset)
				return -1;
			memcpy((char *)c->buf + d.offset, body + sizeof(d), d.length);
			continue;
		}
		if (c->out)
			memcpy(c->out, body, MIN(blen, c->out_len));
		return r->result;
	}
	return 0;
}

#define PEER_BYTES	(512 * 1024 + 24)

/* Context ids of the session's own: the shim's start at 16 too. */
#define PEER_CTX0	100
#define PEER_CTX1	101

static int peer_alloc(int fd, uint64_t ctx, uint64_t *dptr)
{
	struct gl_a_cuMemAlloc a = { .bytesize = PEER_BYTES };
	struct gl_r_cuMemAlloc o = { 0 };
	struct call c = { .fn = GL_FN_cuMemAlloc, .ctx = ctx, .args = &a, .args_len = sizeof(a),
			  .reply = true, .out = &o, .out_len = sizeof(o) };
	int r = rec_call(fd, &c);

	*dptr = o.dptr;
	return r;
}

/* Whether the device memory at p in ctx holds the pattern of seed. */
static int peer_check(int fd, uint64_t ctx, uint64_t p, unsigned char seed)
{
	static unsigned char got[PEER_BYTES];
	struct gl_a_cuMemcpyDtoH a = { .srcDevice = p, .ByteCount = PEER_BYTES };
	struct call c = { .fn = GL_FN_cuMemcpyDtoH, .ctx = ctx, .args = &a, .args_len = sizeof(a),
			  .reply = true, .buf = got, .buf_len = sizeof(got) };

	memset(got, 0, sizeof(got));
	if (rec_call(fd, &c))
		return -1;
	for (size_t i = 0; i < PEER_BYTES; i++)
		if (got[i] != (unsigned char)(i * 13 + seed))
			return -1;
	return 0;
}

static int peers(void)
{
	static unsigned char pat[PEER_BYTES];
	struct gleam_hello_ack ack;
	struct gl_a_cuInit ia = { 0 };
	struct gl_a_cuDevicePrimaryCtxRetain ra = { 0 };
	struct gl_a_cuDeviceCanAccessPeer pa = { .dev = 0, .peerDev = 1 };
	struct gl_r_cuDeviceCanAccessPeer po = { 0 };
	struct gl_a_cuCtxEnablePeerAccess ea = { .peerContext = PEER_CTX1 };
	struct gl_a_cuMemcpyHtoD ha = { .ByteCount = PEER_BYTES };
	struct gl_a_cuMemcpyPeer ca = { .ByteCount = PEER_BYTES };
	struct gl_a_cuMemcpyPeerAsync aa = { .ByteCount = PEER_BYTES };
	struct gleam_init_reply ir = { 0 };
	uint64_t a, b;
	int fd = tcp_connect(), ret = 1;

	if (fd < 0 || hello(fd, GLEAM_HELLO_SESSION, GLEAM_WIRE_F_ASYNC, 0, &ack) || ack.status)
		goto out;
	{
		struct call c = { .fn = GL_FN_cuInit, .args = &ia, .args_len = sizeof(ia),
				  .reply = true, .out = &ir, .out_len = sizeof(ir) };

		if (rec_call(fd, &c) || ir.ndev < 2)
			goto out;
	}
	printf("peers: devices %u\n", ir.ndev);
	for (unsigned int dev = 0; dev < 2; dev++) {
		struct call c = { .fn = GL_FN_cuDevicePrimaryCtxRetain, .args = &ra,
				  .args_len = sizeof(ra) };

		ra.pctx = PEER_CTX0 + dev;
		ra.dev = dev;
		if (rec_call(fd, &c))
			goto out;
	}
	if (peer_alloc(fd, PEER_CTX0, &a) || peer_alloc(fd, PEER_CTX1, &b))
		goto out;
	{
		struct call c = { .fn = GL_FN_cuDeviceCanAccessPeer, .args = &pa, .args_len = sizeof(pa),
				  .reply = true, .out = &po, .out_len = sizeof(po) };

		if (rec_call(fd, &c))
			goto out;
		printf("peers: device 0 reaches device 1: %s\n", po.canAccessPeer ? "yes" : "no");
	}
	{
		struct call c = { .fn = GL_FN_cuCtxEnablePeerAccess, .ctx = PEER_CTX0, .args = &ea,
				  .args_len = sizeof(ea), .reply = true };
		int r = rec_call(fd, &c);

		printf("peers: access enabled %s\n", r ? "no" : "yes");
		r = rec_call(fd, &c);
		printf("peers: enabled again: error %d\n", r);
	}
	for (size_t i = 0; i < PEER_BYTES; i++)
		pat[i] = (unsigned char)(i * 13 + 5);
	ha.dstDevice = a;
	ca.dstDevice = b;
	ca.dstContext = PEER_CTX1;
	ca.srcDevice = a;
	ca.srcContext = PEER_CTX0;
	{
		struct call h = { .fn = GL_FN_cuMemcpyHtoD, .ctx = PEER_CTX0, .args = &ha,
				  .args_len = sizeof(ha), .data = pat, .data_len = PEER_BYTES };
		struct call p = { .fn = GL_FN_cuMemcpyPeer, .ctx = PEER_CTX0, .args = &ca,
				  .args_len = sizeof(ca) };

		if (rec_call(fd, &h) || rec_call(fd, &p) || peer_check(fd, PEER_CTX1, b, 5))
			goto out;
		printf("peers: cuMemcpyPeer from GPU 0 to GPU 1 ok\n");
	}
	for (size_t i = 0; i < PEER_BYTES; i++)
		pat[i] = (unsigned char)(i * 13 + 77);
	ha.dstDevice = b;
	aa.dstDevice = a;
	aa.dstContext = PEER_CTX0;
	aa.srcDevice = b;
	aa.srcContext = PEER_CTX1;
	{
		struct call h = { .fn = GL_FN_cuMemcpyHtoD, .ctx = PEER_CTX1, .args = &ha,
				  .args_len = sizeof(ha), .data = pat, .data_len = PEER_BYTES };
		struct call p = { .fn = GL_FN_cuMemcpyPeerAsync, .ctx = PEER_CTX1, .args = &aa,
				  .args_len = sizeof(aa) };

		if (rec_call(fd, &h) || rec_call(fd, &p) || peer_check(fd, PEER_CTX0, a, 77))
			goto out;
		printf("peers: cuMemcpyPeerAsync from GPU 1 to GPU 0 ok\n");
	}
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "gpus: peer copies on %s failed\n", server);
	if (fd >= 0)
		close(fd);
	return ret;
}

#define CK(call) \
	do { \
		CUresult _r = (call); \
		if (_r) { \
			fprintf(stderr, "gpus: %s: error %d\n", #call, (int)_r); \
			return 1; \
		} \
	} while (0)

static int load(const char *ptx, double seconds, unsigned long long us, unsigned int batch)
{
	unsigned long long ns = us * 1000;
	void *args[] = { &ns };
	uint64_t end;
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdevice dev;

	CK(primary_ctx(&dev, &ctx));
	CK(cuModuleLoad(&mod, ptx));
	CK(cuModuleGetFunction(&f, mod, "spin_ns"));
	end = gl_now_ns() + (uint64_t)(seconds * 1e9);
	while (gl_now_ns() < end) {
		for (unsigned int i = 0; i < batch; i++)
			CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		CK(cuCtxSynchronize());
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "load"))
		return load(argv[2], atof(argv[3]), strtoull(argv[4], NULL, 10),
			    (unsigned int)atoi(argv[5]));
	if (argc < 3)
		goto usage;
	server = argv[1];
	if (!strcmp(argv[2], "info"))
		return info();
	if (!strcmp(argv[2], "session") && argc >= 4)
		return session((unsigned int)strtoul(argv[3], NULL, 10),
			       argc > 4 ? (unsigned int)atoi(argv[4]) : 0);
	if (!strcmp(argv[2], "control-gpu"))
		return control_gpu();
	if (!strcmp(argv[2], "peers"))
		return peers();
usage:
	fprintf(stderr, "usage: gpus HOST:PORT info|session GPU [S]|control-gpu|peers\n"
			"       gpus load PTX SECONDS US BATCH\n");
	return 2;
}
