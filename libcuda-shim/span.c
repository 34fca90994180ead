// SPDX-License-Identifier: MIT
/*
 * A session whose devices lie on several servers (Documentation/design.md,
 * "Sessions over several servers").  gleamd's ack gives each device a route,
 * the connection its server's records go by; every record carries its own
 * in its header's reserved word, which gleamd takes off.  A record goes where
 * the context it names lives: the one it sets up or tears down (the device
 * its caller gave), else the current one.  What one server cannot do for
 * another is done here, through gleamd: copies between two servers' memory
 * cross this process (a read from one, a write to the other), and a stream
 * that waits for another server's event waits here, the calling thread
 * blocked until the event is done.
 */
#include <stdlib.h>

#include "gleam_local.h"
#include "shim.h"
#include "util.h"

static uint8_t routes[GLEAM_LOCAL_ROUTES_MAX];
static unsigned int nroutes;

/* Contexts and events by id: which route their records take. */
struct span_obj {
	uint64_t id;
	uint64_t ctx;		/* an event: the context its last record ran in */
	struct shim_ctx *c;	/* a context: itself */
	uint8_t route;
	bool recorded;		/* an event: recorded at least once */
};

#define SPAN_OBJS_MAX	4096

static struct {
	pthread_mutex_t lock;
	struct span_obj ctx[SPAN_OBJS_MAX], ev[SPAN_OBJS_MAX];
	unsigned int nctx, nev;
} sp = { .lock = PTHREAD_MUTEX_INITIALIZER };

void shim_span_routes(const uint8_t *r, unsigned int n)
{
	nroutes = 0;
	for (unsigned int i = 0; i < n && i < GLEAM_LOCAL_ROUTES_MAX; i++) {
		routes[i] = r[i];
		nroutes = MAX(nroutes, (unsigned int)r[i] + 1);
	}
	if (nroutes < 2)
		nroutes = 1;
}

unsigned int shim_span_nroutes(void)
{
	return nroutes;
}

unsigned int shim_span_dev_route(int dev)
{
	return nroutes > 1 && dev >= 0 && dev < GLEAM_LOCAL_ROUTES_MAX ? routes[dev] : 0;
}

bool shim_span_apart(int a, int b)
{
	return shim_span_dev_route(a) != shim_span_dev_route(b);
}

/* Slot of id in a table, or where it goes (replacing the oldest when full); lock held. */
static struct span_obj *slot(struct span_obj *t, unsigned int *n, uint64_t id, bool add)
{
	for (unsigned int i = 0; i < *n; i++)
		if (t[i].id == id)
			return &t[i];
	if (!add)
		return NULL;
	if (*n == SPAN_OBJS_MAX) {
		memmove(t, t + 1, (SPAN_OBJS_MAX - 1) * sizeof(*t));
		(*n)--;
	}
	memset(&t[*n], 0, sizeof(*t));
	t[*n].id = id;
	return &t[(*n)++];
}

void shim_span_ctx(struct shim_ctx *c)
{
	struct span_obj *o;

	if (nroutes < 2)
		return;
	pthread_mutex_lock(&sp.lock);
	o = slot(sp.ctx, &sp.nctx, c->o.id, true);
	o->c = c;
	o->route = (uint8_t)shim_span_dev_route(c->dev);
	pthread_mutex_unlock(&sp.lock);
}

/* The route of context id (the first server's when it is none known). */
static unsigned int ctx_route(uint64_t id, struct shim_ctx **c)
{
	struct shim_ctx *cur = shim_current();
	struct span_obj *o;
	unsigned int r = 0;

	if (cur && cur->o.id == id) {
		if (c)
			*c = cur;
		return shim_span_dev_route(cur->dev);
	}
	pthread_mutex_lock(&sp.lock);
	o = slot(sp.ctx, &sp.nctx, id, false);
	if (o) {
		r = o->route;
		if (c)
			*c = o->c;
	}
	pthread_mutex_unlock(&sp.lock);
	return r;
}

/*
 * The route of a record about to go (sq_lock held): its device's if the
 * caller named one, else its context's.  Events are followed: the server
 * that made one and the context that last recorded it.
 */
uint32_t shim_span_route(const struct shim_call *c, uint64_t *ctx)
{
	unsigned int r;

	*ctx = c->ctx;
	if (nroutes < 2)
		return 0;
	r = c->dev1 ? shim_span_dev_route(c->dev1 - 1) : c->ctx ? ctx_route(c->ctx, NULL) : 0;
	/* A context of another server is none there. */
	if (c->dev1 && c->ctx && ctx_route(c->ctx, NULL) != r)
		*ctx = 0;
	if (c->fn == GL_FN_cuEventCreate || c->fn == GL_FN_cuEventRecord ||
	    c->fn == GL_FN_cuEventRecordWithFlags) {
		const uint64_t *ev = c->args;	/* phEvent or hEvent: the first word */
		struct span_obj *o;

		pthread_mutex_lock(&sp.lock);
		o = slot(sp.ev, &sp.nev, *ev, true);
		o->route = (uint8_t)r;
		if (c->fn != GL_FN_cuEventCreate) {
			o->recorded = true;
			o->ctx = c->ctx;
		}
		pthread_mutex_unlock(&sp.lock);
	}
	return r;
}

/*
 * A stream waits for another server's event: that server is asked to
 * synchronise the event, and the wait is done when it answers, before
 * anything later is put on the stream.  An event never recorded is no
 * wait at all, as for the driver.
 */
static CUresult wait_elsewhere(struct shim_call *c, bool *done)
{
	const struct gl_a_cuStreamWaitEvent *a = c->args;
	struct gl_a_cuEventSynchronize s = { .hEvent = a->hEvent };
	struct shim_call q = { .fn = GL_FN_cuEventSynchronize, .args = &s,
			       .args_len = sizeof(s), .force_sync = true };
	unsigned int here = c->ctx ? ctx_route(c->ctx, NULL) : 0;
	struct span_obj *o;
	bool recorded;

	pthread_mutex_lock(&sp.lock);
	o = slot(sp.ev, &sp.nev, a->hEvent, false);
	if (!o || o->route == here) {
		pthread_mutex_unlock(&sp.lock);
		return CUDA_SUCCESS;
	}
	recorded = o->recorded;
	q.ctx = o->ctx;
	pthread_mutex_unlock(&sp.lock);
	*done = true;
	return recorded ? shim_call(&q) : CUDA_SUCCESS;
}

/*
 * A copy between two servers' memory: read from the source's server into
 * this process, then written to the destination's.  On a stream of the
 * source's context the read is queued on it and waited for; on one of the
 * destination's the write is queued on it (its bytes are taken at once).
 * Either way the calling thread waits for the read.
 */
static CUresult copy_across(CUdeviceptr dst, struct shim_ctx *dctx, CUdeviceptr src,
			    struct shim_ctx *sctx, size_t n, CUstream st, bool async)
{
	struct shim_stream *so = shim_call_sobj;
	int sdev = so ? so->o.dev : -1;
	void *buf = malloc(n ? n : 1);
	CUcontext prev;
	CUresult r;

	if (!buf)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = cuCtxPushCurrent((CUcontext)sctx);
	if (r)
		goto out;
	if (async && so && sdev == sctx->dev) {
		r = cuMemcpyDtoHAsync(buf, src, n, st);
		if (!r)
			r = cuStreamSynchronize(st);
	} else {
		r = cuMemcpyDtoH(buf, src, n);
	}
	cuCtxPopCurrent(&prev);
	if (r)
		goto out;
	r = cuCtxPushCurrent((CUcontext)dctx);
	if (r)
		goto out;
	if (async && so && sdev == dctx->dev)
		r = cuMemcpyHtoDAsync(dst, buf, n, st);
	else
		r = cuMemcpyHtoD(dst, buf, n);
	cuCtxPopCurrent(&prev);
out:
	free(buf);
	return r;
}

/* A copy of the call c whose two ends lie on two servers: through this process. */
static CUresult across(const struct shim_call *c, CUdeviceptr dst, struct shim_ctx *dctx,
		       CUdeviceptr src, struct shim_ctx *sctx, size_t n, bool async)
{
	static bool said;

	if (!dctx || !sctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (shim_trace_waits || !__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		gl_dbg("%s between servers: through this process", gl_fn_name(c->fn));
	return copy_across(dst, dctx, src, sctx, n, async ? (CUstream)shim_call_sobj : NULL,
			   async);
}

static CUresult peer_elsewhere(struct shim_call *c, bool *done)
{
	/* cuMemcpyPeer's block begins as cuMemcpyPeerAsync's does. */
	const struct gl_a_cuMemcpyPeerAsync *a = c->args;
	struct shim_ctx *dctx = NULL, *sctx = NULL;
	unsigned int dr = ctx_route(a->dstContext, &dctx), sr = ctx_route(a->srcContext, &sctx);

	if (dr == sr)
		return CUDA_SUCCESS;
	*done = true;
	return across(c, (CUdeviceptr)a->dstDevice, dctx, (CUdeviceptr)a->srcDevice, sctx,
		      (size_t)a->ByteCount, c->fn == GL_FN_cuMemcpyPeerAsync);
}

/*
 * cuMemcpyDtoD (cuMemcpy's too) between two servers' memory: unified
 * addressing lets a program copy between devices without naming their
 * contexts, so the contexts are those of the allocations the two
 * addresses lie in, and the copy is a peer copy through this process (as
 * is one whose two ends lie on another server than the current context's).
 */
static CUresult dtod_elsewhere(struct shim_call *c, bool *done)
{
	/* cuMemcpyDtoD's block begins as cuMemcpyDtoDAsync's does. */
	const struct gl_a_cuMemcpyDtoDAsync *a = c->args;
	uint64_t dc = shim_mem_ctx((CUdeviceptr)a->dstDevice);
	uint64_t sc = shim_mem_ctx((CUdeviceptr)a->srcDevice);
	struct shim_ctx *dctx = NULL, *sctx = NULL;
	unsigned int dr, sr;

	if (!dc || !sc)
		return CUDA_SUCCESS;
	dr = ctx_route(dc, &dctx);
	sr = ctx_route(sc, &sctx);
	/* Both ends on the server of the current context: the record goes there. */
	if (dr == sr && dr == (c->ctx ? ctx_route(c->ctx, NULL) : 0))
		return CUDA_SUCCESS;
	*done = true;
	return across(c, (CUdeviceptr)a->dstDevice, dctx, (CUdeviceptr)a->srcDevice, sctx,
		      (size_t)a->ByteCount, c->fn == GL_FN_cuMemcpyDtoDAsync);
}

/*
 * Whether a copy's end lies on another server than the context the copy
 * goes to (ctx): device memory by the context of its allocation, an array
 * by its device, a 3D peer copy's end by the context it names.  Those are
 * not carried between servers (said once, by the caller).
 */
bool shim_span_end_apart(uint64_t ctx, CUmemorytype type, CUdeviceptr dptr, int array_dev,
			 uint64_t end_ctx)
{
	unsigned int here, there;

	if (nroutes < 2 || !ctx)
		return false;
	here = ctx_route(ctx, NULL);
	if (end_ctx) {
		there = ctx_route(end_ctx, NULL);
	} else if (type == CU_MEMORYTYPE_ARRAY && array_dev >= 0) {
		there = shim_span_dev_route(array_dev);
	} else if (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED) {
		uint64_t a = shim_mem_ctx(dptr);

		if (!a)
			return false;
		there = ctx_route(a, NULL);
	} else {
		return false;
	}
	return there != here;
}

CUresult shim_span_call(struct shim_call *c, bool *done)
{
	*done = false;
	switch (c->fn) {
	case GL_FN_cuStreamWaitEvent:
		return wait_elsewhere(c, done);
	case GL_FN_cuMemcpyPeer:
	case GL_FN_cuMemcpyPeerAsync:
		return peer_elsewhere(c, done);
	case GL_FN_cuMemcpyDtoD:
	case GL_FN_cuMemcpyDtoDAsync:
		return dtod_elsewhere(c, done);
	default:
		return CUDA_SUCCESS;
	}
}
