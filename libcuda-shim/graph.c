// SPDX-License-Identifier: MIT
/*
 * Stream capture and graphs.  The worker's driver does the capturing:
 * records replayed on a capturing stream become nodes of its graph, and a
 * graph launch replays them there.  The shim keeps what the driver keeps
 * about each capture (its streams, its mode and thread, whether it was
 * invalidated, the events recorded in it), for two reasons.  The runtime
 * and the frameworks ask for a stream's capture status before many calls,
 * and those questions are answered here.  And an asynchronous record cannot
 * report its own error: whatever the driver refuses at the call while a
 * capture is under way (a synchronisation of a capturing stream, a
 * potentially unsafe call in the wrong mode, the legacy stream beside a
 * capturing blocking stream) is refused at the call here, before anything
 * is sent, with the driver's error, and invalidates the capture as the
 * driver would.  Documentation/design.md, "Stream capture and graphs",
 * says what is faithful and what is not.
 */
#include <stdlib.h>

#include "shim.h"
#include "util.h"

/* cuda.h names these only for per-thread default stream builds. */
CUresult cuGraphUpload_ptsz(CUgraphExec exec, CUstream s);
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuEventRecord_ptsz(CUevent ev, CUstream s);
CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent ev, unsigned int flags);

#define SID_LEGACY	((uint64_t)(uintptr_t)CU_STREAM_LEGACY)
#define SID_PT		((uint64_t)(uintptr_t)CU_STREAM_PER_THREAD)
#define SID_NONE	UINT64_MAX

struct capture {
	uint64_t id;		/* cuStreamGetCaptureInfo's: unique in the process */
	uint64_t ctx;		/* the context it began in */
	pthread_t thread;	/* the thread that began it */
	CUstreamCaptureMode mode;
	bool invalidated;
	struct shim_graph *graph;	/* what cuStreamEndCapture returns; valid only then */
	struct capture *next;
};

/* A stream in a capture: the one it began on, or one that joined it. */
struct member {
	uint64_t sid;
	uint64_t ctx;
	pthread_t thread;	/* whose per-thread default stream it is */
	bool blocking;		/* it synchronises with the legacy stream */
	bool origin;		/* the capture began on it */
	struct capture *cap;
};

/* An event last recorded on a capturing stream. */
struct cap_event {
	uint64_t eid;
	uint64_t cap_id;
};

/* Short lists: a program has a capture or two under way at a time. */
static struct {
	pthread_mutex_t lock;
	struct capture *list;
	struct member *m;
	size_t nm, mcap;
	struct cap_event *ev;
	size_t nev, evcap;
	uint64_t next_id;
} caps = { .lock = PTHREAD_MUTEX_INITIALIZER, .next_id = 1 };

_Atomic unsigned int shim_capture_watch;
_Atomic unsigned int shim_captures;

/* cuThreadExchangeStreamCaptureMode's; zero is CU_STREAM_CAPTURE_MODE_GLOBAL. */
static __thread CUstreamCaptureMode thread_mode;

static bool legacy(uint64_t sid)
{
	return sid == 0 || sid == SID_LEGACY;
}

/* The per-thread default stream does; a made stream unless it was made non-blocking. */
static bool blocking(uint64_t sid, const struct shim_stream *st)
{
	if (sid == SID_PT)
		return true;
	return st && !(st->flags & CU_STREAM_NON_BLOCKING);
}

/* Lock held, here and below. */
static struct member *member_of(uint64_t ctx, uint64_t sid)
{
	for (size_t i = 0; i < caps.nm; i++) {
		struct member *m = &caps.m[i];

		if (m->sid == sid && (sid != SID_PT ||
				      (m->ctx == ctx && pthread_equal(m->thread, pthread_self()))))
			return m;
	}
	return NULL;
}

static int add_member(uint64_t sid, uint64_t ctx, bool block, bool origin, struct capture *cap)
{
	if (gl_grow((void **)&caps.m, caps.nm, &caps.mcap, sizeof(*caps.m), 8))
		return -1;
	caps.m[caps.nm++] = (struct member){ .sid = sid, .ctx = ctx, .thread = pthread_self(),
					     .blocking = block, .origin = origin, .cap = cap };
	return 0;
}

static struct capture *capture_by_id(uint64_t id)
{
	struct capture *c;

	for (c = caps.list; c && c->id != id; c = c->next)
		;
	return c;
}

/* The capture is over: its streams leave it.  The caller frees it. */
static void capture_drop(struct capture *cap)
{
	struct capture **pp;
	size_t j = 0;

	for (size_t i = 0; i < caps.nm; i++)
		if (caps.m[i].cap != cap)
			caps.m[j++] = caps.m[i];
	caps.nm = j;
	for (pp = &caps.list; *pp && *pp != cap; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = cap->next;
	atomic_fetch_sub(&shim_captures, 1);
	atomic_fetch_sub(&shim_capture_watch, 1);
}

/*
 * A capture that will not end: dropped with its graph.  Putting the graph
 * under the lock is safe: a graph's stages are freed by ungated calls,
 * which never come back here.
 */
static void capture_discard(struct capture *cap)
{
	capture_drop(cap);
	shim_obj_put(&cap->graph->o);
	free(cap);
}

static struct cap_event *ev_find(uint64_t eid)
{
	for (size_t i = 0; i < caps.nev; i++)
		if (caps.ev[i].eid == eid)
			return &caps.ev[i];
	return NULL;
}

/* Event eid was recorded in capture cap_id, or outside any (0). */
static void ev_mark(uint64_t eid, uint64_t cap_id)
{
	struct cap_event *e = ev_find(eid);

	if (!cap_id) {
		if (e) {
			*e = caps.ev[--caps.nev];
			atomic_fetch_sub(&shim_capture_watch, 1);
		}
		return;
	}
	if (e) {
		e->cap_id = cap_id;
		return;
	}
	/* Unmarked, a query of the event goes to the driver, which refuses it. */
	if (gl_grow((void **)&caps.ev, caps.nev, &caps.evcap, sizeof(*caps.ev), 8))
		return;
	caps.ev[caps.nev++] = (struct cap_event){ eid, cap_id };
	atomic_fetch_add(&shim_capture_watch, 1);
}

/*
 * Whether a blocking stream of ctx is capturing.  The legacy stream waits
 * for the work of every blocking stream, and captured work never runs: the
 * driver refuses the legacy stream meanwhile (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)
 * and, for work put on it, invalidates those captures.
 */
static bool implicit(uint64_t ctx, bool invalidate)
{
	bool hit = false;

	for (size_t i = 0; i < caps.nm; i++) {
		if (caps.m[i].ctx != ctx || !caps.m[i].blocking)
			continue;
		hit = true;
		if (invalidate)
			caps.m[i].cap->invalidated = true;
	}
	return hit;
}

/*
 * A potentially unsafe call (cuMemAlloc, cuMemFree, a context
 * synchronisation): cuThreadExchangeStreamCaptureMode's rules.  A thread in
 * relaxed mode may make one; otherwise not while it has a capture of its
 * own begun in another mode, nor, in global mode, while another thread has
 * one begun in global mode.  The captures that forbid it are invalidated.
 */
static CUresult unsafe_call(void)
{
	pthread_t self = pthread_self();
	CUresult r = CUDA_SUCCESS;

	if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
		return r;
	for (struct capture *c = caps.list; c; c = c->next) {
		bool own = pthread_equal(c->thread, self);

		if ((own && c->mode != CU_STREAM_CAPTURE_MODE_RELAXED) ||
		    (!own && thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL &&
		     c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL)) {
			c->invalidated = true;
			r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
		}
	}
	return r;
}

/*
 * Work for stream sid: refused, or noted as captured (it will not run now).
 * Waiting for or asking about a capturing stream (waits): its work does not
 * run until the graph is launched, so there is nothing to wait for; the
 * driver refuses and invalidates the capture.
 */
static CUresult stream_touch(struct shim_call *c, uint64_t sid, bool waits)
{
	struct member *m;

	if (legacy(sid))
		return implicit(c->ctx, true) ? CUDA_ERROR_STREAM_CAPTURE_IMPLICIT : CUDA_SUCCESS;
	m = member_of(c->ctx, sid);
	if (!m)
		return CUDA_SUCCESS;
	if (m->cap->invalidated)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	if (waits) {
		m->cap->invalidated = true;
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	c->captured = true;
	return CUDA_SUCCESS;
}

/*
 * A context's synchronisation is potentially unsafe, and conflicts with
 * any capture in that context whatever the mode: it would wait for work
 * that does not run.
 */
static CUresult sync_ctx(uint64_t ctx)
{
	CUresult r = unsafe_call();

	for (struct capture *c = caps.list; c; c = c->next) {
		if (c->ctx == ctx) {
			c->invalidated = true;
			r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
		}
	}
	return r;
}

static CUresult record_event(struct shim_call *c, uint64_t sid, uint64_t eid)
{
	CUresult r = stream_touch(c, sid, false);
	struct member *m;

	if (r)
		return r;
	m = legacy(sid) ? NULL : member_of(c->ctx, sid);
	ev_mark(eid, m ? m->cap->id : 0);
	return CUDA_SUCCESS;
}

/* A stream that waits for an event recorded in a capture joins it (a fork). */
static CUresult wait_event(struct shim_call *c, uint64_t sid, uint64_t eid)
{
	CUresult r = stream_touch(c, sid, false);
	struct cap_event *e;
	struct capture *cap;

	if (r || legacy(sid) || !(e = ev_find(eid)) || !(cap = capture_by_id(e->cap_id)))
		return r;
	if (!member_of(c->ctx, sid) &&
	    !add_member(sid, c->ctx, blocking(sid, shim_call_sobj), false, cap))
		c->captured = true;
	return CUDA_SUCCESS;
}

/* A destroyed stream leaves its capture, which cannot end well any more. */
static void stream_gone(uint64_t ctx, uint64_t sid)
{
	struct member *m = member_of(ctx, sid);
	struct capture *cap;

	if (!m)
		return;
	cap = m->cap;
	cap->invalidated = true;
	if (!m->origin) {
		*m = caps.m[--caps.nm];
		return;
	}
	capture_discard(cap);
}

/*
 * Every record passes here while a capture is under way or an event
 * recorded in one is about.  Returns the error the driver would have
 * returned at the call, or CUDA_SUCCESS (c->captured set for work that
 * went to a capturing stream).
 */
/* The calls that ask about or change an event's mark, capture or none. */
static bool event_call(unsigned int fn)
{
	switch (fn) {
	case GL_FN_cuEventQuery:
	case GL_FN_cuEventSynchronize:
	case GL_FN_cuEventElapsedTime:
	case GL_FN_cuEventElapsedTime_v2:
	case GL_FN_cuEventRecord:
	case GL_FN_cuEventDestroy:
		return true;
	default:
		return false;
	}
}

CUresult shim_capture_gate(struct shim_call *c)
{
	uint64_t sid = shim_call_stream ? shim_call_stream - 1 : SID_NONE;
	CUresult r = CUDA_SUCCESS;

	/* Only marked events left: nothing else has a capture to meet. */
	if (!atomic_load(&shim_captures) && !event_call(c->fn))
		return r;
	pthread_mutex_lock(&caps.lock);
	switch (c->fn) {
	case GL_FN_cuStreamSynchronize:
	case GL_FN_cuStreamQuery:
	/* A stream callback cannot be captured: the driver refuses it (cuLaunchHostFunc can). */
	case GL_FN_cuStreamAddCallback:
		r = stream_touch(c, sid, true);
		break;
	case GL_FN_cuCtxSynchronize:
		r = sync_ctx(c->ctx);
		break;
	case GL_FN_cuCtxSynchronize_v2:
		r = sync_ctx(((const struct gl_a_cuCtxSynchronize_v2 *)c->args)->ctx);
		break;
	case GL_FN_cuMemAlloc:
	case GL_FN_cuMemFree:
		r = unsafe_call();
		break;
	case GL_FN_cuEventQuery:
		if (ev_find(((const struct gl_a_cuEventQuery *)c->args)->hEvent))
			r = CUDA_ERROR_CAPTURED_EVENT;
		break;
	case GL_FN_cuEventSynchronize:
		if (ev_find(((const struct gl_a_cuEventSynchronize *)c->args)->hEvent))
			r = CUDA_ERROR_CAPTURED_EVENT;
		break;
	case GL_FN_cuEventElapsedTime:
	case GL_FN_cuEventElapsedTime_v2: {
		const struct gl_a_cuEventElapsedTime *a = c->args;

		_Static_assert(sizeof(struct gl_a_cuEventElapsedTime) ==
			       sizeof(struct gl_a_cuEventElapsedTime_v2), "one layout");
		if (ev_find(a->hStart) || ev_find(a->hEnd))
			r = CUDA_ERROR_CAPTURED_EVENT;
		break;
	}
	case GL_FN_cuEventRecord:
		r = record_event(c, sid, ((const struct gl_a_cuEventRecord *)c->args)->hEvent);
		break;
	case GL_FN_cuStreamWaitEvent:
		r = wait_event(c, sid, ((const struct gl_a_cuStreamWaitEvent *)c->args)->hEvent);
		break;
	case GL_FN_cuEventDestroy:
		ev_mark(((const struct gl_a_cuEventDestroy *)c->args)->hEvent, 0);
		break;
	case GL_FN_cuStreamDestroy:
		stream_gone(c->ctx, ((const struct gl_a_cuStreamDestroy *)c->args)->hStream);
		break;
	default:
		/*
		 * The synchronous copies and fills go on the legacy stream (the
		 * table's legacy); questions about a stream and capture's own
		 * calls are no work for it (aside); other work on a stream, and
		 * the stream-ordered calls that wait (ordered), meet its capture.
		 */
		if (gl_fn_traits(c->fn) & GL_T_LEGACY) {
			if (implicit(c->ctx, true))
				r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
		} else if (!(gl_fn_traits(c->fn) & GL_T_ASIDE) && sid != SID_NONE &&
			   (gl_fn_table[c->fn].cls == GL_ASYNC ||
			    (gl_fn_traits(c->fn) & GL_T_ORDERED))) {
			r = stream_touch(c, sid, false);
		}
		break;
	}
	pthread_mutex_unlock(&caps.lock);
	return r;
}

/*
 * A copy between two host buffers in stream order: the shim makes it when
 * the stream has run, which a capturing stream does not.  Refused, as the
 * driver refuses what cannot be captured, and the capture invalidated;
 * said once per function.  (Copies between host and device memory are
 * captured through stages, below.)
 */
static CUresult refuse_host(unsigned int fn, uint64_t ctx, const char *what);

CUresult shim_capture_host_copy(unsigned int fn, uint64_t ctx)
{
	return refuse_host(fn, ctx, "between two host buffers");
}

CUresult shim_capture_host_rows(unsigned int fn, uint64_t ctx)
{
	return refuse_host(fn, ctx, "of rows or of an array to or from host memory");
}

static CUresult refuse_host(unsigned int fn, uint64_t ctx, const char *what)
{
	static unsigned char said[GL_FN_LIMIT];
	uint64_t sid = shim_call_stream ? shim_call_stream - 1 : SID_NONE;
	CUresult r = CUDA_SUCCESS;
	struct member *m;

	if (!atomic_load(&shim_captures) || sid == SID_NONE || legacy(sid))
		return r;
	pthread_mutex_lock(&caps.lock);
	m = member_of(ctx, sid);
	if (m && m->cap->invalidated) {
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	} else if (m) {
		m->cap->invalidated = true;
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	pthread_mutex_unlock(&caps.lock);
	if (r == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED && fn < GL_FN_LIMIT &&
	    !__atomic_exchange_n(&said[fn], 1, __ATOMIC_RELAXED))
		gl_err("%s %s on a capturing stream: Gleam copies host memory when the call is "
		       "made, not when a graph runs: returning "
		       "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", gl_fn_name(fn), what);
	return r;
}

/* ---- copies between host memory and a graph ---- */

/*
 * A graph copies host memory when it runs, and the worker's driver cannot
 * reach this process's memory.  So a copy from host memory on a capturing
 * stream is captured as a copy from device memory of the graph's own, its
 * stage, and every launch first copies what the host memory holds then
 * into the stage, on the launch's stream; a copy to host memory is
 * captured into a stage, which every launch copies back into the host
 * memory after the graph, waiting for it.  The stages of a graph are
 * shared by the executable graphs made from it, and freed with the last.
 */
struct host_node {
	void *host;
	CUdeviceptr stage;
	size_t n;
	bool to_host;
};

struct graph_stage {
	pthread_mutex_t lock;	/* one launch at a time uses the stages */
	unsigned int refs;
	uint64_t ctx;
	struct host_node *v;
	size_t nv, cap;
	bool launched;		/* ev marks the end of the last launch that ran */
	CUstream last;		/* the stream it went to */
	int last_pt;
	CUevent ev;
};

static struct graph_stage *stage_get(struct graph_stage *st)
{
	if (st)
		__atomic_add_fetch(&st->refs, 1, __ATOMIC_RELAXED);
	return st;
}

/* Called with caps.lock held, among others: it calls nothing that takes it. */
void shim_graph_stage_put(struct graph_stage *st)
{
	bool alive = false;

	if (!st || __atomic_sub_fetch(&st->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (size_t i = 0; i < st->nv; i++)
		alive |= shim_mem_free_own(st->ctx, st->v[i].stage);
	if (st->ev && alive) {
		bool was = shim_ungated;

		shim_ungated = true;
		cuEventDestroy(st->ev);
		shim_ungated = was;
	}
	pthread_mutex_destroy(&st->lock);
	free(st->v);
	free(st);
}

/* The stage set of graph g, made in context ctx if it has none. */
static struct graph_stage *graph_stages(struct shim_graph *g, uint64_t ctx)
{
	if (!g->stage) {
		g->stage = calloc(1, sizeof(*g->stage));
		if (!g->stage)
			return NULL;
		pthread_mutex_init(&g->stage->lock, NULL);
		g->stage->refs = 1;
		g->stage->ctx = ctx;
	}
	return g->stage;
}

/* The stage set of the graph a capture makes; caps.lock held. */
static struct graph_stage *stage_of(struct capture *cap)
{
	return graph_stages(cap->graph, cap->ctx);
}

static int stage_add(struct graph_stage *st, const struct host_node *h)
{
	int ret;

	pthread_mutex_lock(&st->lock);
	ret = gl_grow((void **)&st->v, st->nv, &st->cap, sizeof(*st->v), 4);
	if (!ret)
		st->v[st->nv++] = *h;
	pthread_mutex_unlock(&st->lock);
	return ret;
}

/*
 * A node of a graph built node by node that copies host memory: the
 * stage is made here, and the node copies it instead (gnodes.c).
 */
CUresult shim_graph_stage_add(struct shim_graph *g, bool to_host, void *host, size_t n,
			      CUdeviceptr *stage)
{
	struct host_node h = { .host = host, .n = n, .to_host = to_host };
	struct shim_ctx *ctx = shim_current();
	struct graph_stage *st;
	CUresult r;

	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (g->stage && g->stage->ctx != ctx->o.id)
		return SHIM_REFUSE("a graph's copies of host memory in two contexts are not "
				   "supported by Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
	st = graph_stages(g, ctx->o.id);
	if (!st)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = shim_mem_alloc_own(&h.stage, n);
	if (r)
		return r;
	if (stage_add(st, &h)) {
		shim_mem_free_own(st->ctx, h.stage);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*stage = h.stage;
	return CUDA_SUCCESS;
}

bool shim_graph_staged(const struct shim_graph *g)
{
	return g->stage && g->stage->nv;
}

void shim_graph_stage_share(struct shim_graph *to, const struct shim_graph *from)
{
	shim_graph_stage_put(to->stage);
	to->stage = stage_get(from->stage);
}

void shim_exec_stage_take(struct shim_exec *e, const struct shim_graph *from)
{
	shim_graph_stage_put(e->stage);
	e->stage = stage_get(from->stage);
}

CUresult shim_capture_stage_copy(bool to_host, void *host, CUdeviceptr dev, size_t n, CUstream s,
				 int per_thread, uint64_t ctx, bool *staged)
{
	uint64_t sid = shim_call_stream ? shim_call_stream - 1 : SID_NONE;
	struct host_node h = { .host = host, .n = n, .to_host = to_host };
	struct graph_stage *st;
	struct member *m;
	CUresult r;

	*staged = false;
	if (!atomic_load(&shim_captures) || sid == SID_NONE || legacy(sid))
		return CUDA_SUCCESS;
	pthread_mutex_lock(&caps.lock);
	m = member_of(ctx, sid);
	if (!m) {
		pthread_mutex_unlock(&caps.lock);
		return CUDA_SUCCESS;
	}
	if (m->cap->invalidated) {
		pthread_mutex_unlock(&caps.lock);
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	}
	st = stage_get(stage_of(m->cap));
	pthread_mutex_unlock(&caps.lock);
	if (!st)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*staged = true;
	if (!n || (!host && n)) {
		r = n ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
		goto out;
	}
	r = shim_mem_alloc_own(&h.stage, n);
	if (r)
		goto out;
	if (stage_add(st, &h)) {
		shim_mem_free_own(st->ctx, h.stage);
		r = CUDA_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	/* The node itself: the capture's, by the usual path. */
	if (per_thread)
		r = to_host ? cuMemcpyDtoDAsync_v2_ptsz(h.stage, dev, n, s) :
			      cuMemcpyDtoDAsync_v2_ptsz(dev, h.stage, n, s);
	else
		r = to_host ? cuMemcpyDtoDAsync_v2(h.stage, dev, n, s) :
			      cuMemcpyDtoDAsync_v2(dev, h.stage, n, s);
	/* A copy the capture refused makes no node: the stage stays until the graph goes. */
out:
	shim_graph_stage_put(st);
	return r;
}

/* A context went: so did its captures. */
void shim_capture_ctx_gone(uint64_t ctx)
{
	struct capture *c, *next;

	pthread_mutex_lock(&caps.lock);
	for (c = caps.list; c; c = next) {
		next = c->next;
		if (c->ctx != ctx)
			continue;
		capture_discard(c);
	}
	pthread_mutex_unlock(&caps.lock);
}

/* ---- beginning and ending a capture ---- */

/* Lock held. */
static CUresult may_begin(uint64_t ctx, uint64_t sid)
{
	if (member_of(ctx, sid))
		return CUDA_ERROR_ILLEGAL_STATE;
	if (sid != SID_PT)
		return CUDA_SUCCESS;
	/*
	 * The worker replays every thread's records on one thread of its
	 * own, where the per-thread default streams of all of them are one
	 * stream: only one of them can capture at a time.
	 */
	for (size_t i = 0; i < caps.nm; i++)
		if (caps.m[i].sid == SID_PT && caps.m[i].ctx == ctx)
			return SHIM_REFUSE("cuStreamBeginCapture: the per-thread default "
					   "streams of two threads would capture together, "
					   "and they are one stream on the server: "
					   "returning CUDA_ERROR_NOT_SUPPORTED");
	return CUDA_SUCCESS;
}

static CUresult begin_capture(CUstream s, CUstreamCaptureMode mode, int per_thread)
{
	struct gl_a_cuStreamBeginCapture a = { .mode = mode };
	struct capture *cap;
	struct shim_graph *g;
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuStreamBeginCapture);
	if (r)
		return r;
	r = shim_stream_id(s, per_thread, &a.hStream);
	if (r)
		return r;
	if ((unsigned int)mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	/* The legacy stream cannot capture: it synchronises with every blocking stream. */
	if (legacy(a.hStream))
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	cap = calloc(1, sizeof(*cap));
	g = (struct shim_graph *)shim_obj_new(GL_H_GRAPH);
	if (!cap || !g) {
		free(cap);
		if (g)
			shim_obj_put(&g->o);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	cap->ctx = c.ctx;
	cap->thread = pthread_self();
	cap->mode = mode;
	cap->graph = g;
	g->captured = true;
	pthread_mutex_lock(&caps.lock);
	r = may_begin(c.ctx, a.hStream);
	if (!r && add_member(a.hStream, c.ctx, blocking(a.hStream, shim_call_sobj), true, cap))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (!r) {
		cap->id = caps.next_id++;
		cap->next = caps.list;
		caps.list = cap;
		atomic_fetch_add(&shim_captures, 1);
		atomic_fetch_add(&shim_capture_watch, 1);
	}
	pthread_mutex_unlock(&caps.lock);
	if (r) {
		shim_obj_put(&g->o);
		free(cap);
		return r;
	}
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_call(&c);
	if (r) {
		pthread_mutex_lock(&caps.lock);
		capture_discard(cap);
		pthread_mutex_unlock(&caps.lock);
	}
	return r;
}

CUresult shim_cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode, int per_thread)
{
	return begin_capture(s, mode, per_thread);
}

/* The first form, before capture modes: global, the default. */
CUresult shim_cuStreamBeginCapture_v1(CUstream s, int per_thread)
{
	return begin_capture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, per_thread);
}

/*
 * The graph travels as the handle minted when the capture began: a
 * capture's graph is the same object during the capture and after it.
 * Ending waits, for the driver's verdict on the graph (a fork that was not
 * joined, say).  A capture the shim invalidated was never invalid on the
 * worker, where the refused call did not arrive: the graph the worker made
 * is destroyed again, and the answer is the driver's for such a capture.
 */
CUresult shim_cuStreamEndCapture(CUstream s, CUgraph *pg, int per_thread)
{
	struct gl_a_cuStreamEndCapture a = { 0 };
	struct capture *cap = NULL;
	struct member *m;
	struct shim_call c;
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuStreamEndCapture, pg);
	if (r)
		return r;
	r = shim_stream_id(s, per_thread, &a.hStream);
	if (r)
		return r;
	pthread_mutex_lock(&caps.lock);
	m = legacy(a.hStream) ? NULL : member_of(c.ctx, a.hStream);
	if (!m) {
		r = CUDA_ERROR_ILLEGAL_STATE;
	} else if (!m->origin) {
		r = CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
	} else if (m->cap->mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
		   !pthread_equal(m->cap->thread, pthread_self())) {
		r = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
	} else {
		cap = m->cap;
		capture_drop(cap);
	}
	pthread_mutex_unlock(&caps.lock);
	if (r)
		return r;
	a.phGraph = cap->graph->o.id;
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_call(&c);
	if (cap->invalidated) {
		if (!r) {
			struct gl_a_cuGraphDestroy d = { .hGraph = a.phGraph };
			struct shim_call dc = { .fn = GL_FN_cuGraphDestroy, .ctx = c.ctx,
						.args = &d, .args_len = sizeof(d) };

			shim_call(&dc);
		}
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	}
	if (r) {
		shim_obj_put(&cap->graph->o);
		*pg = NULL;
	} else {
		shim_obj_created(&cap->graph->o);
		*pg = (CUgraph)cap->graph;
	}
	free(cap);
	return r;
}

/* ---- what a stream's capture is ---- */

/*
 * The status, and with an active capture its id and graph; *active tells
 * whether the other outputs were written.
 */
static CUresult capture_status(CUstream s, int per_thread, CUstreamCaptureStatus *status,
			       cuuint64_t *id, CUgraph *graph, bool *active)
{
	struct shim_stream *st;
	struct shim_ctx *ctx;
	struct member *m;
	uint64_t sid, cid = 0;
	CUresult r;

	*active = false;
	if (!status)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_stream_resolve(s, per_thread, &sid, &st);
	if (r)
		return r;
	if (!st) {
		r = shim_require_ctx(&ctx);
		if (r)
			return r;
		cid = ctx->o.id;
	}
	*status = CU_STREAM_CAPTURE_STATUS_NONE;
	if (!atomic_load(&shim_captures))
		return CUDA_SUCCESS;
	pthread_mutex_lock(&caps.lock);
	if (legacy(sid)) {
		/* The driver says so, and leaves the captures as they are. */
		if (implicit(cid, false))
			r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
	} else if ((m = member_of(cid, sid))) {
		if (m->cap->invalidated) {
			*status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
		} else {
			*status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
			*active = true;
			if (id)
				*id = m->cap->id;
			if (graph)
				*graph = (CUgraph)m->cap->graph;
		}
	}
	pthread_mutex_unlock(&caps.lock);
	return r;
}

CUresult shim_cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status, int per_thread)
{
	bool active;

	return capture_status(s, per_thread, status, NULL, NULL, &active);
}

CUresult shim_cuStreamGetCaptureInfo(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id,
				     int per_thread)
{
	bool active;

	return capture_status(s, per_thread, status, id, NULL, &active);
}

/*
 * The nodes a capture's next node will depend on are the worker driver's,
 * and Gleam hands out no graph nodes: asked for them during a capture, it
 * says so rather than answer with none.
 */
static CUresult capture_deps(bool active, const CUgraphNode **deps, const CUgraphEdgeData **edges,
			     size_t *ndeps)
{
	if (!active || (!deps && !edges && !ndeps))
		return CUDA_SUCCESS;
	return SHIM_REFUSE("cuStreamGetCaptureInfo: the nodes a capture depends on are not handed "
			   "out by Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
}

CUresult shim_cuStreamGetCaptureInfo_v2(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id,
					CUgraph *graph, const CUgraphNode **deps, size_t *ndeps,
					int per_thread)
{
	bool active;
	CUresult r = capture_status(s, per_thread, status, id, graph, &active);

	return r ? r : capture_deps(active, deps, NULL, ndeps);
}

CUresult shim_cuStreamGetCaptureInfo_v3(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id,
					CUgraph *graph, const CUgraphNode **deps,
					const CUgraphEdgeData **edges, size_t *ndeps, int per_thread)
{
	bool active;
	CUresult r;

	if (edges && !deps)
		return CUDA_ERROR_INVALID_VALUE;
	r = capture_status(s, per_thread, status, id, graph, &active);
	return r ? r : capture_deps(active, deps, edges, ndeps);
}

/* Any value is taken, as NVIDIA's driver takes it: a capture checks its own mode. */
CUresult shim_cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	CUstreamCaptureMode old;

	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	old = thread_mode;
	thread_mode = *mode;
	*mode = old;
	return CUDA_SUCCESS;
}

/* ---- graphs ---- */

/*
 * The first forms report a failed node and a log; the worker's driver
 * keeps both, so the node is none and the log empty.
 */
CUresult shim_cuGraphInstantiate(CUgraphExec *pe, CUgraph g, CUgraphNode *err, char *log,
				 size_t len)
{
	CUresult r = cuGraphInstantiateWithFlags(pe, g, 0);

	if (err)
		*err = NULL;
	if (log && len)
		log[0] = 0;
	return r;
}

/* Instantiation, then the upload the flags may ask for, on its stream. */
CUresult shim_cuGraphInstantiateWithParams(CUgraphExec *pe, CUgraph g,
					   CUDA_GRAPH_INSTANTIATE_PARAMS *p, int per_thread)
{
	const cuuint64_t up = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
	CUresult r;

	if (!p)
		return shim.initialised ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
	r = cuGraphInstantiateWithFlags(pe, g, p->flags & ~up);
	if (!r && (p->flags & up)) {
		r = per_thread ? cuGraphUpload_ptsz(*pe, p->hUploadStream) :
				 cuGraphUpload(*pe, p->hUploadStream);
		if (r) {
			cuGraphExecDestroy(*pe);
			*pe = NULL;
		}
	}
	p->hErrNode_out = NULL;
	p->result_out = r ? CUDA_GRAPH_INSTANTIATE_ERROR : CUDA_GRAPH_INSTANTIATE_SUCCESS;
	return r;
}

/*
 * The number of nodes, asked once: Gleam adds no nodes to a graph, so a
 * captured graph never changes.  The nodes themselves are the worker
 * driver's, and are not handed out.
 */
CUresult shim_cuGraphGetNodes(CUgraph h, CUgraphNode *nodes, size_t *n)
{
	struct gl_a_cuGraphGetNodes a = { 0 };
	uint64_t count = 0;
	struct shim_graph *g;
	struct shim_obj *o;
	struct shim_call c;
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuGraphGetNodes, n);
	if (r)
		return r;
	r = shim_obj_get(GL_H_GRAPH, h, &o);
	if (r)
		return r;
	g = (struct shim_graph *)o;
	/* A graph built here is known whole (gnodes.c). */
	r = shim_gnodes_get(g, nodes, n);
	if (r != CUDA_ERROR_NOT_FOUND)
		return r;
	if (nodes)
		return SHIM_REFUSE("cuGraphGetNodes: Gleam counts the nodes of a captured graph "
				   "but does not hand them out: returning CUDA_ERROR_NOT_SUPPORTED");
	if (__atomic_load_n(&g->have_nodes, __ATOMIC_ACQUIRE)) {
		*n = g->nodes;
		return CUDA_SUCCESS;
	}
	a.hGraph = o->id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.out = &count;
	c.out_len = sizeof(count);
	r = shim_call(&c);
	if (r)
		return r;
	g->nodes = (size_t)count;
	__atomic_store_n(&g->have_nodes, true, __ATOMIC_RELEASE);
	*n = (size_t)count;
	return CUDA_SUCCESS;
}

/* An executable graph takes its graph's stages. */
CUresult shim_cuGraphInstantiateWithFlags(CUgraphExec *pe, CUgraph h, unsigned long long flags)
{
	struct gl_a_cuGraphInstantiateWithFlags a = { 0 };
	struct gl_r_cuGraphInstantiateWithFlags o;
	struct shim_exec *e;
	struct shim_obj *go;
	struct shim_call c;
	CUresult r;

	memset(&o, 0, sizeof(o));
	r = shim_begin_out(&c, GL_FN_cuGraphInstantiateWithFlags, pe);
	if (r)
		return r;
	r = shim_obj_get(GL_H_GRAPH, h, &go);
	if (r)
		return r;
	e = (struct shim_exec *)shim_obj_new(GL_H_GRAPHEXEC);
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a.phGraphExec = e->o.id;
	a.hGraph = go->id;
	a.flags = flags;
	c.args = &a;
	c.args_len = sizeof(a);
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(&e->o);
		return r;
	}
	e->stage = stage_get(((struct shim_graph *)go)->stage);
	e->flags = flags;
	e->graph = go->id;
	shim_obj_created(&e->o);
	*pe = (CUgraphExec)e;
	return r;
}

/*
 * The copies between the stages and host memory, one way: to the stages
 * before a launch, back to host memory (waiting for the graph) after it.
 */
static CUresult stage_move(struct graph_stage *st, CUstream s, int per_thread, bool to_host)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; i < st->nv && !r; i++) {
		const struct host_node *h = &st->v[i];

		if (h->to_host != to_host)
			continue;
		r = to_host ? shim_cuMemcpyDtoHAsync(h->host, h->stage, h->n, s, per_thread) :
			      shim_cuMemcpyHtoDAsync(h->stage, h->host, h->n, s, per_thread);
	}
	return r;
}

/*
 * Before a launch: after the last launch of these stages, if it went to
 * another stream (its graph may still read them), and then what the host
 * memory holds now, into the stages it is copied from.
 */
static CUresult stage_in(struct graph_stage *st, CUstream s, int per_thread)
{
	CUresult r = CUDA_SUCCESS;

	if (st->launched && (st->last != s || st->last_pt != per_thread))
		r = per_thread ? cuStreamWaitEvent_ptsz(s, st->ev, 0) :
				 cuStreamWaitEvent(s, st->ev, 0);
	return r ? r : stage_move(st, s, per_thread, false);
}


/*
 * After a launch that runs now: its end marked, for a launch on another
 * stream to wait for.  One launched into a capture runs with that graph,
 * whose own stages order it.
 */
static CUresult stage_mark(struct graph_stage *st, CUstream s, int per_thread, uint64_t ctx)
{
	uint64_t sid;
	struct shim_stream *so;
	CUresult r = shim_stream_resolve(s, per_thread, &sid, &so);
	bool captured;

	if (r)
		return r;
	pthread_mutex_lock(&caps.lock);
	captured = !legacy(sid) && member_of(ctx, sid);
	pthread_mutex_unlock(&caps.lock);
	if (captured)
		return CUDA_SUCCESS;
	if (!st->ev) {
		r = cuEventCreate(&st->ev, CU_EVENT_DISABLE_TIMING);
		if (r)
			return r;
	}
	r = per_thread ? cuEventRecord_ptsz(st->ev, s) : cuEventRecord(st->ev, s);
	if (!r) {
		st->launched = true;
		st->last = s;
		st->last_pt = per_thread;
	}
	return r;
}

CUresult shim_cuGraphLaunch(CUgraphExec h, CUstream s, int per_thread)
{
	struct gl_a_cuGraphLaunch a = { 0 };
	struct graph_stage *st;
	struct shim_obj *o;
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuGraphLaunch);
	if (r)
		return r;
	r = shim_obj_get(GL_H_GRAPHEXEC, h, &o);
	if (r)
		return r;
	a.hGraphExec = o->id;
	st = ((struct shim_exec *)o)->stage;
	if (st && !st->nv)
		st = NULL;
	if (st) {
		pthread_mutex_lock(&st->lock);
		r = stage_in(st, s, per_thread);
	}
	/* Last before the record: the stream it resolves is the one capture looks at. */
	if (!r)
		r = shim_stream_id(s, per_thread, &a.hStream);
	if (!r) {
		c.args = &a;
		c.args_len = sizeof(a);
		r = shim_call(&c);
	}
	if (st) {
		if (!r)
			r = stage_move(st, s, per_thread, true);
		if (!r)
			r = stage_mark(st, s, per_thread, c.ctx);
		pthread_mutex_unlock(&st->lock);
	}
	return r;
}
