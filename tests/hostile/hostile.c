// SPDX-License-Identifier: MIT
/*
 * hostile SOCKET SERVER: throws bad input at a running client gleamd (its
 * local socket and session ring) and at a server gleamd (its TCP port),
 * and checks that each bad session gets a clear answer or is closed, and
 * that both daemons keep serving; and runs gleamctl and a client gleamd of
 * its own (beside this program, in ../bin) against servers it plays itself.
 * Prints one line per case and a final "N passed, N failed".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <libgen.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>

#include "../lib/tcp.h"
#include "gleam_api_gen.h"
#include "gleam_graph.h"
#include "gleam_local.h"
#include "gleam_record.h"
#include "gleam_vmm.h"
#include "gleam_wire.h"
#include "ring.h"
#include "util.h"

static const char *sock_path, *server;
static char gleamctl[4096], gleamd[4096];
static int passed, failed;

static void result(bool ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	if (ok)
		passed++;
	else
		failed++;
}

static int local_connect(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* A gleamd that stopped serving fails a case instead of hanging it. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* True when the peer closes fd within ms. */
static bool closed_within(int fd, int ms)
{
	uint64_t end = gl_now_ns() + (uint64_t)ms * 1000000;
	char buf[4096];

	while (gl_now_ns() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 50) > 0) {
			ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

			if (n == 0 || (n < 0 && errno != EAGAIN))
				return true;
		}
	}
	return false;
}

struct session {
	int fd;
	struct gl_ring ring;
	uint64_t seq;
	uint32_t tag;
};

static int open_session(struct session *s)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_SESSION };
	struct gleam_local_ack ack;
	int rfd;

	memset(s, 0, sizeof(*s));
	snprintf(h.program, sizeof(h.program), "hostile");
	s->fd = local_connect();
	if (s->fd < 0 || send(s->fd, &h, sizeof(h), 0) != sizeof(h))
		return -1;
	if (gl_recv_fd(s->fd, &ack, sizeof(ack), &rfd) != sizeof(ack) || ack.status || rfd < 0)
		return -1;
	if (gl_ring_map(rfd, &s->ring)) {
		close(rfd);
		return -1;
	}
	close(rfd);
	return 0;
}

static void close_session(struct session *s)
{
	gl_ring_unmap(&s->ring);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* Put raw bytes on the SQ as one message and ring the bell. */
static void put_raw(struct session *s, const void *p, uint32_t len)
{
	void *d = gl_ring_reserve(&s->ring.sq, (len + 7) & ~7u);
	char b = GLEAM_BELL_SQ;

	if (!d)
		return;
	memcpy(d, p, len);
	gl_ring_commit(&s->ring.sq);
	send(s->fd, &b, 1, MSG_DONTWAIT);
}

/* Send a record and wait for its reply; returns the result or -1. */
static int call(struct session *s, unsigned int fn, uint64_t ctx, const void *args, size_t alen,
		void *out, size_t olen)
{
	unsigned char buf[4096];
	struct gleam_rec *r = (struct gleam_rec *)buf;
	uint64_t end = gl_now_ns() + 10000000000ull;
	size_t len = sizeof(*r) + ((alen + 7) & ~(size_t)7);

	memset(buf, 0, len);
	r->len = (uint32_t)len;
	r->fn = (uint16_t)fn;
	r->flags = GLEAM_REC_F_REPLY;
	r->tag = ++s->tag;
	r->ctx = ctx;
	r->seq = ++s->seq;
	memcpy(r + 1, args, alen);
	put_raw(s, buf, (uint32_t)len);
	while (gl_now_ns() < end) {
		const struct gleam_reply *q;
		struct pollfd p = { .fd = s->fd, .events = POLLIN };
		uint32_t n;

		q = gl_ring_peek(&s->ring.cq, sizeof(*q), GLEAM_REC_MAX, &n);
		if (q) {
			int res = q->result;
			bool mine = q->tag == s->tag && !(q->flags & GLEAM_REP_F_DATA);

			if (mine && out)
				memcpy(out, q + 1, MIN(olen, n - sizeof(*q)));
			gl_ring_consume(&s->ring.cq, n);
			gl_ring_consume_publish(&s->ring.cq);
			if (mine)
				return res;
			continue;
		}
		if (poll(&p, 1, 20) > 0) {
			char b[64];

			if (recv(s->fd, b, sizeof(b), MSG_DONTWAIT) == 0)
				return -1;
		}
	}
	return -1;
}

/* A record of cuGraphAddNode: node id in graph g, after deps, of type (no parameters). */
static int add_node(struct session *s, uint64_t id, uint64_t g, const uint64_t *deps, size_t n,
		    uint64_t claimed, const struct gleam_gnode *w)
{
	unsigned char buf[1024];
	struct gl_a_cuGraphAddNode a = { .phGraphNode = id, .hGraph = g,
					 .numDependencies = claimed };
	size_t len = sizeof(a);

	memcpy(buf, &a, sizeof(a));
	memcpy(buf + len, deps, n * 8);
	len += n * 8;
	memcpy(buf + len, w, sizeof(*w));
	len += sizeof(*w);
	return call(s, GL_FN_cuGraphAddNode, 100, buf, len, NULL, 0);
}

/*
 * Graph nodes name their graph and their dependencies by ids: no record
 * may name a node of another graph, or one whose graph the driver has
 * destroyed with its nodes; descriptions that do not fit their record or
 * name host memory are refused; the session goes on.
 */
static void graph_cases(struct session *s)
{
	struct gleam_gnode empty = { .type = CU_GRAPH_NODE_TYPE_EMPTY, .ctx = 100 };
	struct gleam_gnode copy = { .type = CU_GRAPH_NODE_TYPE_MEMCPY, .ctx = 100 };
	struct gl_a_cuGraphCreate ga = { .phGraph = 500 };
	struct gl_a_cuGraphDestroy gd = { .hGraph = 500 };
	uint64_t dep = 501;
	int rc;

	call(s, GL_FN_cuGraphCreate, 100, &ga, sizeof(ga), NULL, 0);
	ga.phGraph = 510;
	call(s, GL_FN_cuGraphCreate, 100, &ga, sizeof(ga), NULL, 0);
	rc = add_node(s, 501, 500, NULL, 0, 0, &empty);
	result(rc == 0, "graphs: a node is made");
	rc = add_node(s, 511, 510, &dep, 1, 1, &empty);
	result(rc == CUDA_ERROR_INVALID_VALUE,
	       "graphs: a dependency on another graph's node is refused");
	rc = add_node(s, 512, 510, &dep, 1, 4000, &empty);
	result(rc == CUDA_ERROR_INVALID_VALUE,
	       "graphs: more dependencies than the record carries are refused");
	copy.copy.api = GLEAM_COPY_3D;
	copy.copy.width = copy.copy.height = copy.copy.depth = 1;
	copy.copy.src.type = CU_MEMORYTYPE_HOST;
	copy.copy.dst.type = CU_MEMORYTYPE_HOST;
	rc = add_node(s, 513, 510, NULL, 0, 0, &copy);
	result(rc == CUDA_ERROR_INVALID_VALUE, "graphs: a copy node of host memory is refused");
	call(s, GL_FN_cuGraphDestroy, 100, &gd, sizeof(gd), NULL, 0);
	{
		unsigned char buf[sizeof(struct gl_a_cuGraphNodeSetParams) + sizeof(empty)];
		struct gl_a_cuGraphNodeSetParams sp = { .hNode = 501 };

		memcpy(buf, &sp, sizeof(sp));
		memcpy(buf + sizeof(sp), &empty, sizeof(empty));
		rc = call(s, GL_FN_cuGraphNodeSetParams, 100, buf, sizeof(buf), NULL, 0);
		result(rc == CUDA_ERROR_INVALID_HANDLE,
		       "graphs: a node destroyed with its graph is named no more");
	}
	{
		struct gleam_gnode host = { .type = CU_GRAPH_NODE_TYPE_HOST, .ctx = 100 };

		rc = add_node(s, 514, 510, NULL, 0, 0, &host);
		result(rc == CUDA_ERROR_INVALID_VALUE,
		       "graphs: a host node of no function is refused");
		host.host = 77;
		rc = add_node(s, 514, 510, NULL, 0, 0, &host);
		result(rc == CUDA_ERROR_INVALID_VALUE,
		       "graphs: a host node in a session without host functions is refused");
	}
	rc = add_node(s, 515, 501, NULL, 0, 0, &empty);
	result(rc == CUDA_ERROR_INVALID_HANDLE, "graphs: a node is no graph to add to");
	gd.hGraph = 510;
	call(s, GL_FN_cuGraphDestroy, 100, &gd, sizeof(gd), NULL, 0);
}

static void local_cases(void)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_SESSION };
	struct session s;
	int fd;

	fd = local_connect();
	send(fd, "garbage", 7, 0);
	result(closed_within(fd, 3000), "local: short garbage hello is refused");
	close(fd);

	fd = local_connect();
	h.magic = 0x12345678;
	send(fd, &h, sizeof(h), 0);
	result(closed_within(fd, 3000), "local: hello with a wrong magic is refused");
	close(fd);

	h.magic = GLEAM_LOCAL_MAGIC;
	h.reserved[1] = 1;
	fd = local_connect();
	send(fd, &h, sizeof(h), 0);
	result(closed_within(fd, 3000), "local: hello with reserved bits set is refused");
	close(fd);

	/* Malformed records on a live ring end that session only. */
	{
		static const struct { uint32_t len; uint16_t fn; uint16_t flags; const char *what; }
		bad[] = {
			{ 36, GL_FN_cuCtxSynchronize, 0, "a length that is not 8-aligned" },
			{ 16, GL_FN_cuCtxSynchronize, 0, "a length shorter than a header" },
			{ 64, 9999, 0, "an unknown function number" },
			{ 64, 8, 0, "an unused function number" },
			{ 64, GL_FN_cuCtxSynchronize, 0x80, "unknown flags" },
			{ 1u << 30, GL_FN_cuCtxSynchronize, 0, "a length larger than the ring" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			unsigned char buf[64] = { 0 };
			struct gleam_rec *r = (struct gleam_rec *)buf;
			char what[128];

			if (open_session(&s)) {
				result(false, "local: open a session");
				continue;
			}
			r->len = bad[i].len;
			r->fn = bad[i].fn;
			r->flags = bad[i].flags;
			put_raw(&s, buf, sizeof(buf));
			snprintf(what, sizeof(what), "ring: a record with %s ends the session", bad[i].what);
			result(closed_within(s.fd, 3000), what);
			close_session(&s);
		}
	}

	/*
	 * The application owns the CQ's head: nonsense written there ends its
	 * session when gleamd next publishes a reply, and only its session.
	 */
	if (open_session(&s)) {
		result(false, "local: open a session");
	} else {
		unsigned char buf[64] = { 0 };
		struct gleam_rec *r = (struct gleam_rec *)buf;
		int rc;

		__atomic_store_n(&s.ring.cq.ctl->head, 0x80000000u, __ATOMIC_RELEASE);
		r->len = sizeof(*r) + 8;
		r->fn = GL_FN_cuInit;
		r->flags = GLEAM_REC_F_REPLY;
		r->tag = 1;
		r->seq = 1;
		put_raw(&s, buf, r->len);
		result(closed_within(s.fd, 3000), "ring: a CQ head the application corrupts ends its session");
		close_session(&s);
		rc = open_session(&s) ? -1 : call(&s, GL_FN_cuInit, 0, buf + sizeof(*r), 8, NULL, 0);
		result(rc == 0, "local: the next session is served");
		close_session(&s);
	}

	/* Well-formed records with bad contents get CUDA errors, not a crash. */
	if (open_session(&s)) {
		result(false, "local: open a session");
		return;
	}
	{
		struct gl_a_cuInit ia = { 0 };
		struct gl_a_cuDevicePrimaryCtxRetain pa = { .pctx = 100, .dev = 0 };
		struct gl_a_cuStreamSynchronize sa = { .hStream = 12345 };
		struct gl_a_cuStreamCreate ca = { .phStream = 200 };
		struct gl_a_cuStreamDestroy da = { .hStream = 200 };
		struct gl_a_cuMemcpyDtoH dh = { .srcDevice = 0x10, .ByteCount = 64 };
		struct gl_a_cuModuleGetFunction gf = { .hfunc = 300, .hmod = 777, .name_len = 5000 };
		unsigned char r[512];
		int rc;

		rc = call(&s, GL_FN_cuInit, 0, &ia, sizeof(ia), r, sizeof(r));
		result(rc == 0, "ring: cuInit answers");
		rc = call(&s, GL_FN_cuStreamSynchronize, 100, &sa, sizeof(sa), NULL, 0);
		result(rc == CUDA_ERROR_INVALID_CONTEXT, "ring: a context never issued is refused");
		call(&s, GL_FN_cuDevicePrimaryCtxRetain, 0, &pa, sizeof(pa), NULL, 0);
		rc = call(&s, GL_FN_cuStreamSynchronize, 100, &sa, sizeof(sa), NULL, 0);
		result(rc == CUDA_ERROR_INVALID_HANDLE, "ring: a stream never issued is refused");
		call(&s, GL_FN_cuStreamCreate, 100, &ca, sizeof(ca), NULL, 0);
		call(&s, GL_FN_cuStreamDestroy, 100, &da, sizeof(da), NULL, 0);
		sa.hStream = 200;
		rc = call(&s, GL_FN_cuStreamSynchronize, 100, &sa, sizeof(sa), NULL, 0);
		result(rc == CUDA_ERROR_INVALID_HANDLE, "ring: a destroyed stream is refused");
		rc = call(&s, GL_FN_cuMemcpyDtoH, 100, &dh, 8, NULL, 0);
		result(rc == CUDA_ERROR_INVALID_VALUE, "ring: a truncated argument block is refused");
		rc = call(&s, GL_FN_cuMemcpyDtoH, 100, &dh, sizeof(dh), NULL, 0);
		result(rc > 0, "ring: a copy from an address never allocated fails");
		rc = call(&s, GL_FN_cuModuleGetFunction, 100, &gf, sizeof(gf), NULL, 0);
		result(rc == CUDA_ERROR_INVALID_VALUE, "ring: a name longer than its record is refused");
		{
			/* A primary context retained under a live stream's id. */
			struct gl_a_cuDevicePrimaryCtxRetain ra = { .pctx = 201, .dev = 0 };

			ca.phStream = 201;
			call(&s, GL_FN_cuStreamCreate, 100, &ca, sizeof(ca), NULL, 0);
			rc = call(&s, GL_FN_cuDevicePrimaryCtxRetain, 0, &ra, sizeof(ra), NULL, 0);
			sa.hStream = 201;
			result(rc == CUDA_ERROR_INVALID_VALUE &&
			       call(&s, GL_FN_cuStreamSynchronize, 100, &sa, sizeof(sa), NULL, 0) == 0,
			       "ring: a retain under another handle's id is refused; the stream lives on");
			rc = call(&s, GL_FN_cuDevicePrimaryCtxRetain, 0, &pa, sizeof(pa), NULL, 0);
			result(rc == 0, "ring: the primary context is retained again under its own id");
		}
		graph_cases(&s);
		{
			struct gl_a_cuCtxSynchronize cs = { 0 };

			rc = call(&s, GL_FN_cuCtxSynchronize, 100, &cs, sizeof(cs), NULL, 0);
			result(rc == 0, "ring: the session still works after all that");
		}
	}
	close_session(&s);
}

/*
 * The next reply that no record asked for, a host function's run, within
 * 10 s: 0 and its body, or -1.  Replies of records are consumed on the way.
 */
static int host_run(struct session *s, struct gleam_host_run *b)
{
	uint64_t end = gl_now_ns() + 10000000000ull;

	while (gl_now_ns() < end) {
		const struct gleam_reply *q;
		struct pollfd p = { .fd = s->fd, .events = POLLIN };
		uint32_t n;
		bool run;

		q = gl_ring_peek(&s->ring.cq, sizeof(*q), GLEAM_REC_MAX, &n);
		if (q) {
			run = !q->tag && q->fn == GL_FN_gleamHostFuncRun && n >= sizeof(*q) + sizeof(*b);
			if (run)
				memcpy(b, q + 1, sizeof(*b));
			gl_ring_consume(&s->ring.cq, n);
			gl_ring_consume_publish(&s->ring.cq);
			if (run)
				return 0;
			continue;
		}
		poll(&p, 1, 20);
		recv(s->fd, (char[64]){ 0 }, 64, MSG_DONTWAIT);
	}
	return -1;
}

/* A record nobody waits for. */
static void post(struct session *s, unsigned int fn, uint64_t ctx, const void *args, size_t alen)
{
	unsigned char buf[256] = { 0 };
	struct gleam_rec *r = (struct gleam_rec *)buf;

	r->len = (uint32_t)(sizeof(*r) + ((alen + 7) & ~(size_t)7));
	r->fn = (uint16_t)fn;
	r->ctx = ctx;
	r->seq = ++s->seq;
	memcpy(r + 1, args, alen);
	put_raw(s, buf, r->len);
}

/*
 * Host functions: records with bad contents get CUDA errors; answers for
 * runs never asked for, or with another function's id or a run's wrong
 * number, change nothing; the right answer lets the stream go on.
 */
static void host_cases(void)
{
	struct {
		struct gl_a_cuLaunchHostFunc a;
		struct gleam_hostfn_rec x;
	} hf = { .a = { .hStream = 0, .fn = 77 } };
	struct gl_a_cuInit ia = { .Flags = GLEAM_INIT_ASK_HOST };
	struct gl_a_cuDevicePrimaryCtxRetain pa = { .pctx = 100, .dev = 0 };
	struct gl_a_cuCtxSynchronize cs = { 0 };
	struct gleam_init_reply ir = { 0 };
	struct gleam_host_run b = { 0 };
	struct session s;
	int rc;

	if (open_session(&s)) {
		result(false, "local: open a session");
		return;
	}
	rc = call(&s, GL_FN_cuInit, 0, &ia, sizeof(ia), &ir, sizeof(ir));
	result(rc == 0 && (ir.flags & GLEAM_INIT_F_HOST), "host: cuInit offers host functions");
	call(&s, GL_FN_cuDevicePrimaryCtxRetain, 0, &pa, sizeof(pa), NULL, 0);
	rc = call(&s, GL_FN_cuLaunchHostFunc, 100, &hf.a, sizeof(hf.a), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_VALUE, "host: a host function without its data is refused");
	hf.x.reserved = 1;
	rc = call(&s, GL_FN_cuLaunchHostFunc, 100, &hf, sizeof(hf), NULL, 0);
	hf.x.reserved = 0;
	hf.x.flags = 0x80;
	rc = rc == CUDA_ERROR_INVALID_VALUE ?
	     call(&s, GL_FN_cuLaunchHostFunc, 100, &hf, sizeof(hf), NULL, 0) : rc;
	hf.x.flags = 0;
	result(rc == CUDA_ERROR_INVALID_VALUE, "host: reserved fields and unknown flags are refused");
	hf.a.hStream = 12345;
	rc = call(&s, GL_FN_cuLaunchHostFunc, 100, &hf, sizeof(hf), NULL, 0);
	hf.a.hStream = 0;
	result(rc == CUDA_ERROR_INVALID_HANDLE, "host: a stream never issued is refused");
	rc = call(&s, GL_FN_gleamOutput, 0, &cs, sizeof(cs), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_VALUE, "host: output is the worker's to send, not a record");
	{
		struct gl_a_gleamHostFuncRun forged = { .id = 77, .run = 1 };

		post(&s, GL_FN_gleamHostFuncRun, 0, &forged, sizeof(forged));
		rc = call(&s, GL_FN_cuCtxSynchronize, 100, &cs, sizeof(cs), NULL, 0);
		result(rc == 0, "host: an answer for a run never asked for changes nothing");
	}
	/* The sim runs it in the record's replay: the run comes before the reply. */
	post(&s, GL_FN_cuLaunchHostFunc, 100, &hf, sizeof(hf));
	rc = host_run(&s, &b);
	result(rc == 0 && b.id == 77 && !b.flags, "host: the worker asks for the run");
	if (!rc) {
		struct gl_a_gleamHostFuncRun other = { .id = 78, .run = b.run };
		struct gl_a_gleamHostFuncRun wrong = { .id = 77, .run = b.run + 1 };
		struct gl_a_gleamHostFuncRun right = { .id = 77, .run = b.run };

		post(&s, GL_FN_gleamHostFuncRun, 0, &other, sizeof(other));
		post(&s, GL_FN_gleamHostFuncRun, 0, &wrong, sizeof(wrong));
		post(&s, GL_FN_gleamHostFuncRun, 0, &right, sizeof(right));
		rc = call(&s, GL_FN_cuCtxSynchronize, 100, &cs, sizeof(cs), NULL, 0);
		result(rc == 0, "host: only the right answer lets the stream go on");
	}
	/* One never answered: the session's end frees its worker. */
	post(&s, GL_FN_cuLaunchHostFunc, 100, &hf, sizeof(hf));
	result(host_run(&s, &b) == 0, "host: a run nobody will answer is asked for");
	close_session(&s);
	rc = open_session(&s) ? -1 : call(&s, GL_FN_cuInit, 0, &ia, sizeof(ia), NULL, 0);
	result(rc == 0, "host: the next session is served");
	close_session(&s);
}

/*
 * Virtual memory and twins: property and access blocks with reserved bits,
 * handles never issued, twins over memory that is none or over another,
 * pushes outside a twin or not in whole pages, pulls of no twin or that
 * nobody waits for: each gets a CUDA error, and the session goes on.
 */
static void twin_cases(void)
{
	struct gl_a_cuInit ia = { 0 };
	struct gl_a_cuDevicePrimaryCtxRetain pa = { .pctx = 100, .dev = 0 };
	struct gl_a_cuCtxSynchronize cs = { 0 };
	struct gl_a_cuMemAlloc ma = { .bytesize = 65536 };
	struct gl_r_cuMemAlloc mo = { 0 };
	struct {
		struct gl_a_cuMemCreate a;
		struct gleam_mem_prop p;
	} cr = { .a = { .handle = 300, .size = 2 << 20 },
		 .p = { .type = CU_MEM_ALLOCATION_TYPE_PINNED,
			.location_type = CU_MEM_LOCATION_TYPE_DEVICE, .reserved = 1 } };
	struct {
		struct gl_a_cuMemSetAccess a;
		struct gleam_access_desc d;
	} sa = { .a = { .count = 0 }, .d = { CU_MEM_LOCATION_TYPE_DEVICE, 0, 3, 1 } };
	struct gl_a_cuMemMap mm = { .size = 2 << 20, .handle = 12345 };
	/* A twin of less than a page: its one page runs to its end. */
	struct gl_a_gleamTwinSet ts = { .size = 104, .op = GLEAM_TWIN_KEEP };
	struct gl_a_gleamTwinPull tp = { .size = 104 };
	struct {
		struct gl_a_gleamTwinPush a;
		unsigned char page[104];
	} push = { .a = { .len = 104 } };
	struct session s;
	int rc;

	if (open_session(&s)) {
		result(false, "local: open a session");
		return;
	}
	call(&s, GL_FN_cuInit, 0, &ia, sizeof(ia), NULL, 0);
	call(&s, GL_FN_cuDevicePrimaryCtxRetain, 0, &pa, sizeof(pa), NULL, 0);
	rc = call(&s, GL_FN_cuMemAlloc, 100, &ma, sizeof(ma), &mo, sizeof(mo));
	result(rc == 0 && mo.dptr, "twins: device memory to keep in step");
	rc = call(&s, GL_FN_cuMemCreate, 100, &cr, sizeof(cr), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_VALUE, "vmm: properties with reserved bits are refused");
	rc = call(&s, GL_FN_cuMemSetAccess, 100, &sa, sizeof(sa), NULL, 0);
	sa.a.count = 1;
	rc = rc == CUDA_ERROR_INVALID_VALUE ? call(&s, GL_FN_cuMemSetAccess, 100, &sa, sizeof(sa),
						   NULL, 0) : rc;
	result(rc == CUDA_ERROR_INVALID_VALUE, "vmm: no access descriptors, or reserved bits, refused");
	rc = call(&s, GL_FN_cuMemMap, 100, &mm, sizeof(mm), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_HANDLE, "vmm: a handle never issued is refused");
	ts.base = mo.dptr + (1ull << 40);
	rc = call(&s, GL_FN_gleamTwinSet, 100, &ts, sizeof(ts), NULL, 0);
	result(rc && rc != -1, "twins: a twin over memory that is none is refused");
	ts.base = mo.dptr;
	rc = call(&s, GL_FN_gleamTwinSet, 100, &ts, sizeof(ts), NULL, 0);
	result(rc == 0, "twins: a twin over device memory is kept");
	ts.base = mo.dptr + 64;
	rc = call(&s, GL_FN_gleamTwinSet, 100, &ts, sizeof(ts), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_VALUE, "twins: a twin over another is refused");
	push.a.base = mo.dptr;
	push.a.offset = GLEAM_TWIN_PAGE;
	rc = call(&s, GL_FN_gleamTwinPush, 100, &push, sizeof(push), NULL, 0);
	push.a.offset = 8;
	rc = rc == CUDA_ERROR_INVALID_VALUE ? call(&s, GL_FN_gleamTwinPush, 100, &push, sizeof(push),
						   NULL, 0) : rc;
	result(rc == CUDA_ERROR_INVALID_VALUE, "twins: pages outside the twin, or not whole, are refused");
	push.a.offset = 0;
	rc = call(&s, GL_FN_gleamTwinPush, 100, &push, sizeof(push.a), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_VALUE, "twins: a push without its pages is refused");
	tp.base = mo.dptr + 65536;
	rc = call(&s, GL_FN_gleamTwinPull, 100, &tp, sizeof(tp), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_VALUE, "twins: a pull of no twin is refused");
	tp.base = mo.dptr;
	post(&s, GL_FN_gleamTwinPull, 100, &tp, sizeof(tp));
	rc = call(&s, GL_FN_cuCtxSynchronize, 100, &cs, sizeof(cs), NULL, 0);
	result(rc == CUDA_ERROR_INVALID_VALUE, "twins: a pull nobody waits for is refused");
	rc = call(&s, GL_FN_gleamTwinPush, 100, &push, sizeof(push), NULL, 0);
	rc = rc ? rc : call(&s, GL_FN_gleamTwinPull, 100, &tp, sizeof(tp), NULL, 0);
	result(rc == 0, "twins: a push and a pull of the twin are taken");
	close_session(&s);
	rc = open_session(&s) ? -1 : call(&s, GL_FN_cuInit, 0, &ia, sizeof(ia), NULL, 0);
	result(rc == 0, "twins: the next session is served");
	close_session(&s);
}

static bool control_hello(int fd)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_CONTROL };

	snprintf(h.program, sizeof(h.program), "hostile");
	return send(fd, &h, sizeof(h), MSG_NOSIGNAL) == sizeof(h);
}

static void control_cases(void)
{
	struct gleam_ctl_req req = { .op = GLEAM_CTL_STATUS_JSON };
	uint64_t end = gl_now_ns() + 10000000000ull;
	bool cut = false;
	char reply[4096];
	ssize_t n;
	int fd;

	/*
	 * A peer that sends requests and reads none of the replies: once a
	 * reply cannot go out, the next request ends the connection (gleamd
	 * must not free a reply the kernel is still sending).
	 */
	fd = local_connect();
	if (fd < 0 || !control_hello(fd)) {
		result(false, "control: connect");
	} else {
		while (!cut && gl_now_ns() < end) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			if (poll(&p, 1, 100) > 0 && (p.revents & (POLLHUP | POLLERR)))
				cut = true;
			else if (p.revents & POLLOUT &&
				 send(fd, &req, sizeof(req), MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
				 errno != EAGAIN)
				cut = true;
		}
		result(cut, "control: a peer that reads none of its replies is cut off");
	}
	if (fd >= 0)
		close(fd);

	fd = local_connect();
	req.op = GLEAM_CTL_STATUS;
	n = fd >= 0 && control_hello(fd) &&
	    send(fd, &req, sizeof(req), MSG_NOSIGNAL) == sizeof(req) ?
	    recv(fd, reply, sizeof(reply) - 1, 0) : -1;
	result(n > 8 && !strncmp(reply, "server: ", 8), "control: gleamd still answers status");
	if (fd >= 0)
		close(fd);
}

/* A server that answers gleamctl's hello and INFO_REQ with names it chose. */
static void fake_server(int lfd)
{
	struct gleam_hello_ack ack = { .version = GLEAM_WIRE_VERSION };
	struct {
		struct gleam_server_info info;
		struct gleam_gpu_info gpu;
	} in = { .info = { .backend = "sim\x1b[2J", .host = "evil\"host\nX\x1b]0;x\a", .ngpus = 1 },
		 .gpu = { .name = "a\"b\\c\r", .total_mem = 1 << 30 } };
	unsigned char buf[512];
	struct gleam_frame f;
	int fd = accept(lfd, NULL, NULL);

	for (int i = 0; fd >= 0 && i < 2; i++) {
		if (gl_read_full(fd, &f, sizeof(f)) || f.len > sizeof(buf) ||
		    gl_read_full(fd, buf, f.len))
			break;
		f.type = i ? GLEAM_FRAME_INFO : GLEAM_FRAME_HELLO_ACK;
		f.len = i ? sizeof(in) : sizeof(ack);
		if (gl_write_full(fd, &f, sizeof(f)) || gl_write_full(fd, i ? (void *)&in :
								       (void *)&ack, f.len))
			break;
	}
	_exit(0);
}

/* What gleamctl prints of a hostile server: printable, and JSON that holds. */
static void gleamctl_cases(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	int lfd;

	if (access(gleamctl, X_OK)) {
		printf("SKIP: gleamctl cases (no %s)\n", gleamctl);
		return;
	}
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 4) ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl)) {
		result(false, "gleamctl: a server to talk to");
		if (lfd >= 0)
			close(lfd);
		return;
	}
	for (int json = 0; json < 2; json++) {
		char cmd[4200], out[4096] = "";
		size_t n = 0;
		bool printable = true;
		pid_t pid = fork();
		FILE *p;

		if (pid == 0)
			fake_server(lfd);
		snprintf(cmd, sizeof(cmd), "%s server-info 127.0.0.1:%u%s", gleamctl,
			 ntohs(sa.sin_port), json ? " --json" : "");
		p = pid > 0 ? popen(cmd, "r") : NULL;
		if (p) {
			n = fread(out, 1, sizeof(out) - 1, p);
			pclose(p);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		out[n] = 0;
		for (size_t i = 0; i < n; i++)
			printable &= (out[i] >= 0x20 && out[i] < 0x7f) || out[i] == '\n';
		if (json)
			result(printable && strstr(out, "\"host\":\"evil\\\"host?X?]0;x?\",") &&
			       strstr(out, "\"backend\":\"sim?[2J\",") &&
			       strstr(out, "\"name\":\"a\\\"b\\\\c?\","),
			       "gleamctl: server-info --json escapes what the server named");
		else
			result(printable && strstr(out, "(evil\"host?X?]0;x?)") &&
			       strstr(out, "GPU 0: a\"b\\c?,"),
			       "gleamctl: server-info prints no control characters a server sent");
	}
	close(lfd);
}

/* A server's connection that ends with a reset, as a failing link ends it. */
static void reset_close(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

/* One frame from fd into buf (at most cap bytes); its header in *f. */
static bool read_frame(int fd, struct gleam_frame *f, void *buf, size_t cap)
{
	return !gl_read_full(fd, f, sizeof(*f)) && f->len <= cap && !gl_read_full(fd, buf, f->len);
}

#define RESUME_TOKEN	0x5245535553415645ull

/*
 * The server of resume_cases(): a session that may be taken up again, a
 * reset, a refusal to take it up (EAGAIN: the server has not yet seen the
 * old connection go) with more bytes in the same write, then a welcome.
 * Writes a byte to done once the client has come back a third time.
 */
static void resume_server(int lfd, int done)
{
	struct gleam_hello_ack ack = { .version = GLEAM_WIRE_VERSION,
				       .features = GLEAM_WIRE_F_ASYNC | GLEAM_WIRE_F_RESUME,
				       .session_id = 1, .resume_token = RESUME_TOKEN };
	unsigned char buf[512], out[2 * sizeof(struct gleam_frame) + sizeof(ack) + 8];
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = GLEAM_FRAME_HELLO_ACK,
				 .len = sizeof(ack) };
	struct gleam_frame ping = { .magic = GLEAM_WIRE_MAGIC, .type = GLEAM_FRAME_PING, .len = 8 };
	int fd[3];

	for (int i = 0; i < 3; i++) {
		fd[i] = accept(lfd, NULL, NULL);
		if (fd[i] < 0 || !read_frame(fd[i], &f, buf, sizeof(buf)))
			_exit(1);
		f.type = GLEAM_FRAME_HELLO_ACK;
		f.len = sizeof(ack);
		ack.status = i == 1 ? EAGAIN : 0;
		memcpy(out, &f, sizeof(f));
		memcpy(out + sizeof(f), &ack, sizeof(ack));
		memcpy(out + sizeof(f) + sizeof(ack), &ping, sizeof(ping));
		memset(out + 2 * sizeof(f) + sizeof(ack), 0, 8);
		if (gl_write_full(fd[i], out, i == 1 ? sizeof(out) : sizeof(f) + sizeof(ack)))
			_exit(1);
		if (i == 0)
			reset_close(fd[0]);
	}
	if (write(done, "", 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

/*
 * Sessions that survive: a client gleamd of this test's own, whose server
 * drops the session's connection and then, when the client comes back,
 * first asks it to try again later.  The client must try again, not fall.
 */
static void resume_cases(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char dir[] = "/tmp/gleam-hostile.XXXXXX", sock[256] = "", addr[64], c;
	const char *saved = sock_path;
	socklen_t sl = sizeof(sa);
	pid_t spid = -1, cpid = -1;
	int lfd, pfd[2] = { -1, -1 };
	struct session s = { .fd = -1 };
	struct pollfd p;
	bool alive;

	if (access(gleamd, X_OK)) {
		printf("SKIP: resume cases (no %s)\n", gleamd);
		return;
	}
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 4) ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl) || !mkdtemp(dir) || pipe(pfd)) {
		result(false, "resume: a server to talk to");
		goto out;
	}
	snprintf(sock, sizeof(sock), "%s/gleamd.sock", dir);
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", ntohs(sa.sin_port));
	spid = fork();
	if (spid == 0)
		resume_server(lfd, pfd[1]);
	cpid = fork();
	if (cpid == 0) {
		execl(gleamd, gleamd, "client", "--server", addr, "--socket", sock, "--log-level", "0",
		      (char *)NULL);
		_exit(127);
	}
	sock_path = sock;
	for (int i = 0; i < 100 && open_session(&s); i++) {
		close_session(&s);
		usleep(50000);
	}
	if (s.fd < 0 || !s.ring.base) {
		result(false, "resume: a session through the test's own client gleamd");
		goto out;
	}
	/* The session comes back after the reset, is put off, and comes back again. */
	p = (struct pollfd){ .fd = pfd[0], .events = POLLIN };
	alive = poll(&p, 1, 10000) == 1 && read(pfd[0], &c, 1) == 1;
	usleep(200000);
	alive = alive && waitpid(cpid, NULL, WNOHANG) == 0;
	result(alive, "resume: a client gleamd asked to try again later does");
	close_session(&s);
out:
	sock_path = saved;
	if (cpid > 0) {
		kill(cpid, SIGTERM);
		waitpid(cpid, NULL, 0);
	}
	if (spid > 0) {
		kill(spid, SIGTERM);
		waitpid(spid, NULL, 0);
	}
	if (lfd >= 0)
		close(lfd);
	if (pfd[0] >= 0) {
		close(pfd[0]);
		close(pfd[1]);
	}
	unlink(sock);
	rmdir(dir);
}

static void frame(int fd, uint16_t type, uint32_t len, const void *p, uint32_t plen)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = type, .len = len };

	gl_write_full(fd, &f, sizeof(f));
	if (plen)
		gl_write_full(fd, p, plen);
}

static void hello(int fd)
{
	struct gleam_hello h = { .version = GLEAM_WIRE_VERSION, .min_version = GLEAM_WIRE_VERSION,
				 .kind = GLEAM_HELLO_SESSION };

	snprintf(h.program, sizeof(h.program), "hostile");
	frame(fd, GLEAM_FRAME_HELLO, sizeof(h), &h, sizeof(h));
}

static void wire_cases(void)
{
	unsigned char junk[4096];
	int fd;

	srand(7);
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)rand();
	fd = test_tcp_connect(server);
	gl_write_full(fd, junk, sizeof(junk));
	result(closed_within(fd, 3000), "wire: random bytes are refused");
	close(fd);

	fd = test_tcp_connect(server);
	frame(fd, GLEAM_FRAME_HELLO, GLEAM_FRAME_MAX + 1, NULL, 0);
	result(closed_within(fd, 3000), "wire: a frame over the size limit is refused");
	close(fd);

	fd = test_tcp_connect(server);
	frame(fd, GLEAM_FRAME_RECORDS, 0, NULL, 0);
	result(closed_within(fd, 3000), "wire: records before a hello are refused");
	close(fd);

	fd = test_tcp_connect(server);
	{
		struct gleam_hello h = { .version = 99, .min_version = 99, .kind = GLEAM_HELLO_SESSION };

		frame(fd, GLEAM_FRAME_HELLO, sizeof(h), &h, sizeof(h));
	}
	result(closed_within(fd, 3000), "wire: an unknown protocol version is refused");
	close(fd);

	/*
	 * A session quiet for a while: the server pings, the peer answers as
	 * a client gleamd does, and the session goes on (no ERROR, no close).
	 */
	fd = test_tcp_connect(server);
	hello(fd);
	{
		unsigned char buf[1024];
		struct gleam_frame f;
		bool pinged = false, ended = false;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t until = gl_now_ns() + 4000000000ull;

		while (!ended && gl_now_ns() < until) {
			if (poll(&p, 1, 100) != 1)
				continue;
			if (!read_frame(fd, &f, buf, sizeof(buf)) || f.type == GLEAM_FRAME_ERROR ||
			    f.type == GLEAM_FRAME_BYE) {
				ended = true;
				break;
			}
			if (f.type == GLEAM_FRAME_PING && !pinged) {
				pinged = true;
				frame(fd, GLEAM_FRAME_PONG, f.len, buf, f.len);
				until = gl_now_ns() + 1500000000ull;
			}
		}
		result(pinged && !ended, "wire: a quiet session is pinged, and its pong is welcome");
	}
	close(fd);

	/* A peer that vanishes in the middle of a record, then of a copy. */
	fd = test_tcp_connect(server);
	hello(fd);
	{
		struct gleam_rec r = { .len = 4096, .fn = GL_FN_cuMemcpyHtoD };

		frame(fd, GLEAM_FRAME_RECORDS, 4096, &r, sizeof(r));
	}
	close(fd);
	fd = test_tcp_connect(server);
	hello(fd);
	{
		unsigned char big[65536] = { 0 };
		struct gleam_rec *r = (struct gleam_rec *)big;

		r->len = sizeof(big);
		r->fn = GL_FN_cuMemcpyHtoD;
		frame(fd, GLEAM_FRAME_RECORDS, 4 * sizeof(big), big, sizeof(big));
		gl_write_full(fd, big, 1000);
	}
	close(fd);
	usleep(200000);
	fd = test_tcp_connect(server);
	result(fd >= 0, "wire: the server still accepts after peers vanished mid-record");
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: hostile LOCAL_SOCKET SERVER_HOST:PORT\n");
		return 2;
	}
	sock_path = argv[1];
	server = argv[2];
	snprintf(gleamctl, sizeof(gleamctl), "%s/../bin/gleamctl", dirname(strdupa(argv[0])));
	snprintf(gleamd, sizeof(gleamd), "%s/../bin/gleamd", dirname(strdupa(argv[0])));
	local_cases();
	host_cases();
	twin_cases();
	control_cases();
	wire_cases();
	gleamctl_cases();
	resume_cases();
	{
		int fd = local_connect();

		result(fd >= 0, "local: the client gleamd still accepts");
		if (fd >= 0)
			close(fd);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
