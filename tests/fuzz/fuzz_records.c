// SPDX-License-Identifier: MIT
/*
 * Records as the replay worker gets them, on the sim backend: any sequence
 * of bytes is checked and replayed, refused with a CUDA error, or ends the
 * session; nothing reads out of bounds or crashes the worker.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gleam_api_gen.h"
#include "util.h"
#include "worker.h"

static struct worker w;
static struct gl_ring app;	/* the other side's view of the same ring */
static int peer;

static void drain(void)
{
	const void *p;
	uint32_t n;
	char buf[256];

	while ((p = gl_ring_peek(&app.cq, sizeof(struct gleam_reply), GLEAM_REC_MAX, &n))) {
		gl_ring_consume(&app.cq, n);
		gl_ring_consume_publish(&app.cq);
	}
	while (recv(peer, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	/* Whatever the records, the replies stay well-formed and all read. */
	if (app.cq.broken || w.ring.cq.broken || !gl_ring_empty(&app.cq)) {
		fprintf(stderr, "app broken %d worker broken %d app pos %u tail %u wpos %u\n",
			app.cq.broken, w.ring.cq.broken, app.cq.pos, app.cq.ctl->tail, w.ring.cq.pos);
		abort();
	}
}

static int setup(void)
{
	int sv[2], fd;

	gl_log_level = -1;
	/* Less device memory than the reply ring holds: a copy to the host can
	 * never wait for space that only this harness would free. */
	setenv("GLEAM_SIM_MEM", "8388608", 1);
	w.be = &gl_backend_sim_rw;
	if (w.be->init(NULL))
		return -1;
	fd = gl_ring_memfd(22, 24);
	if (fd < 0 || gl_ring_map(fd, &w.ring) || gl_ring_map(fd, &app))
		return -1;
	close(fd);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return -1;
	w.bell = sv[0];
	peer = sv[1];
	return 0;
}

/* A session that has a context, so that records reach the backend. */
static void prime(void)
{
	unsigned char buf[256] = { 0 };
	struct gleam_rec *r = (struct gleam_rec *)buf;
	struct gl_a_cuDevicePrimaryCtxRetain *a = (void *)(r + 1);

	r->len = sizeof(*r) + 8;
	r->fn = GL_FN_cuInit;
	worker_handle(&w, buf, r->len);
	memset(buf, 0, sizeof(buf));
	r->len = sizeof(*r) + sizeof(*a);
	r->fn = GL_FN_cuDevicePrimaryCtxRetain;
	a->pctx = 100;
	worker_handle(&w, buf, r->len);
	drain();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *buf;
	static bool ready;
	size_t off = 0;

	if (!ready) {
		if (setup())
			abort();
		buf = malloc(GLEAM_REC_MAX);
		prime();
		ready = true;
	}
	/* The input is a sequence of records, each starting with its length. */
	while (size - off >= sizeof(struct gleam_rec)) {
		uint32_t len;

		memcpy(&len, data + off, 4);
		len &= ~7u;
		if (len < sizeof(struct gleam_rec) || len > size - off)
			len = (uint32_t)((size - off) & ~(size_t)7);
		if (len < sizeof(struct gleam_rec))
			break;
		memcpy(buf, data + off, len);
		/* The worker always runs in the primed context unless told otherwise. */
		if (!((struct gleam_rec *)buf)->ctx)
			((struct gleam_rec *)buf)->ctx = 100;
		if (worker_handle(&w, buf, len) < 0) {
			/* The session would end here: start the next one clean. */
			w.asm_len = 0;
			w.asm_active = false;
		}
		drain();
		off += len;
	}
	return 0;
}
