// SPDX-License-Identifier: MIT
/*
 * gpus: a server gleamd's GPUs as the wire shows them (tests/gpus/run.sh).
 *
 *   gpus HOST:PORT info              per GPU, a line of what INFO says (usage included)
 *   gpus HOST:PORT session GPU [S]   a session that names GPU (GLEAM_WIRE_F_GPU): the
 *                                    HELLO_ACK, the devices cuInit shows it, and INFO
 *                                    while it lives; it stays S seconds (default 0)
 *   gpus HOST:PORT control-gpu       a control hello that names a GPU: the HELLO_ACK
 *   gpus load PTX SECONDS US BATCH   through Gleam's libcuda: BATCH launches of spin_ns
 *                                    for US microseconds each, then a synchronisation,
 *                                    until SECONDS have passed
 *
 * It speaks the wire itself, as the client side does not yet name GPUs.
 */
#include <errno.h>
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
usage:
	fprintf(stderr, "usage: gpus HOST:PORT info|session GPU [S]|control-gpu\n"
			"       gpus load PTX SECONDS US BATCH\n");
	return 2;
}
