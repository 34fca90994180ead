// SPDX-License-Identifier: MIT
/*
 * The sim's streams and events, stream capture (what work on a
 * capturing stream becomes, and how a capture ends) and graphs, which
 * run the captured work again.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sim.h"

/* Stream ids: the legacy stream's, the per-thread one's, then made ones. */
#define SIM_STREAM_ID_LEGACY	1ull
#define SIM_STREAM_ID_PT	2ull
static unsigned long long sim_stream_ids = 16;

static CUresult stream_ok(CUstream s)
{
	if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || sim_is(s, K_STREAM))
		return CUDA_SUCCESS;
	return CUDA_ERROR_INVALID_HANDLE;
}

/* ---- stream capture: what work on a capturing stream becomes ---- */

static struct sim_capture *sim_captures;
static uint64_t sim_capture_ids;
static struct sim_cstate sim_pt_cstate = { .blocking = true };

static bool legacy(CUstream s)
{
	return !s || s == CU_STREAM_LEGACY;
}

/* A stream's capture state; NULL for the legacy stream. */
static struct sim_cstate *cstate(CUstream s)
{
	if (s == CU_STREAM_PER_THREAD)
		return &sim_pt_cstate;
	return sim_is(s, K_STREAM) ? &((struct sim_stream *)s)->cs : NULL;
}

/*
 * The legacy stream waits for every blocking stream of its context, and
 * captured work never runs: while one of them captures, the legacy stream
 * is refused (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT), and work put on it
 * invalidates those captures.
 */
static bool implicit_capture(void)
{
	bool hit = false;

	for (struct sim_capture *c = sim_captures; c; c = c->next) {
		for (size_t i = 0; i < c->nm; i++) {
			if (!c->members[i]->blocking || c->members[i]->ctx != sim.cur)
				continue;
			hit = true;
			c->invalidated = true;
		}
	}
	return hit;
}

static CUresult legacy_check(void)
{
	return implicit_capture() ? CUDA_ERROR_STREAM_CAPTURE_IMPLICIT : CUDA_SUCCESS;
}

bool sim_stream_blocking(CUstream s)
{
	return legacy(s) || cstate(s)->blocking;
}

/*
 * Work on the legacy stream: the synchronous copies and fills.  It
 * begins once the host functions before it have returned, its own and
 * the blocking streams'.
 */
CUresult sim_legacy_work(void)
{
	CUresult r = legacy_check();

	if (!r)
		sim_host_wait(NULL, true);
	return r;
}

/*
 * Before work for stream s: an error, or in *cap the capture that records
 * the work instead of running it (NULL: run it now, once the host
 * functions it comes after have returned).
 */
CUresult sim_stream_work(CUstream s, struct sim_capture **cap)
{
	*cap = NULL;
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	if (legacy(s))
		return sim_legacy_work();
	*cap = cstate(s)->cap;
	if (*cap && (*cap)->invalidated)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	if (!*cap)
		sim_host_wait(s, cstate(s)->blocking);
	return CUDA_SUCCESS;
}

/*
 * Operations a graph may hold: a graph launched into a capture copies its
 * own, and without a bound a few records could make one as large as the
 * worker's memory.
 */
#define SIM_GRAPH_OPS_MAX	(1u << 20)

/* op goes into cap's graph as stream s's latest; its parameter block becomes the graph's. */
CUresult sim_capture_op(struct sim_capture *cap, CUstream s, const struct sim_op *op)
{
	struct sim_graph *g = cap->g;

	if (g->n >= SIM_GRAPH_OPS_MAX) {
		cap->invalidated = true;
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (gl_grow((void **)&g->ops, g->n, &g->cap, sizeof(*g->ops), 16))
		return CUDA_ERROR_OUT_OF_MEMORY;
	g->ops[g->n++] = *op;
	cstate(s)->last = g->n;
	return CUDA_SUCCESS;
}

/*
 * A graph would read or write the host memory of a copy when it runs,
 * long after the record that carried the data was gone.  The shim refuses
 * such a copy before sending it; one that arrives anyway is refused here
 * in the same way, and the capture invalidated.
 */
CUresult sim_host_copy_captured(struct sim_capture *cap)
{
	cap->invalidated = true;
	return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* A context's synchronisation would wait for its captures' work, which does not run. */
CUresult sim_ctx_sync_check(struct sim_ctx *c)
{
	CUresult r = CUDA_SUCCESS;

	for (struct sim_capture *cap = sim_captures; cap; cap = cap->next) {
		if (cap->ctx == c) {
			cap->invalidated = true;
			r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
		}
	}
	return r;
}

/* ---- captures: their streams, their end ---- */

static struct sim_capture *capture_by_id(uint64_t id)
{
	struct sim_capture *c;

	for (c = sim_captures; c && c->id != id; c = c->next)
		;
	return c;
}

static bool is_member(const struct sim_capture *cap, const struct sim_cstate *cs)
{
	for (size_t i = 0; i < cap->nm; i++)
		if (cap->members[i] == cs)
			return true;
	return false;
}

static CUresult add_member(struct sim_capture *cap, struct sim_cstate *cs)
{
	if (gl_grow((void **)&cap->members, cap->nm, &cap->mcap, sizeof(*cap->members), 4))
		return CUDA_ERROR_OUT_OF_MEMORY;
	cap->members[cap->nm++] = cs;
	cs->cap = cap;
	cs->last = cs->joined = 0;
	cs->joined_by = NULL;
	return CUDA_SUCCESS;
}

void sim_ops_free(struct sim_op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ops[i].params);
		sim_graph_op_put(&ops[i]);
	}
	free(ops);
}

void sim_graph_mem_put(struct sim_graph_mem *gm)
{
	if (--gm->refs)
		return;
	for (size_t i = 0; i < gm->n; i++) {
		long a = gm->m[i].freed ? sim_alloc_at(gm->m[i].d) : -1;

		/* Gone already with its context, or someone else's at that address since. */
		if (a >= 0 && sim.a[a].graph)
			sim_free_at(a);
	}
	free(gm->m);
	free(gm);
}

static void graph_free(struct sim_graph *g)
{
	sim_graph_nodes_free(g);
	sim_ops_free(g->ops, g->n);
	sim_graph_mem_put(g->mem);
	sim_obj_free(g);
}

/* Every stream leaves the capture, which is gone; its graph is the caller's. */
static void capture_end(struct sim_capture *cap)
{
	struct sim_capture **pp;

	for (size_t i = 0; i < cap->nm; i++)
		cap->members[i]->cap = NULL;
	for (pp = &sim_captures; *pp && *pp != cap; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = cap->next;
	free(cap->members);
	free(cap);
}

/*
 * Whether the work of a stream that joined the capture is followed by the
 * origin's: its last operation is covered by an event that the origin, or
 * a stream that is itself followed, waited for.  depth bounds the chain.
 */
static bool followed(const struct sim_capture *cap, const struct sim_cstate *cs, size_t depth)
{
	if (cs == cap->origin || !cs->last)
		return true;
	if (!depth || cs->last > cs->joined || !cs->joined_by || !is_member(cap, cs->joined_by))
		return false;
	return followed(cap, cs->joined_by, depth - 1);
}

/*
 * A stream's work waited for, or queried: captured work does not run
 * until its graph is launched, so the driver refuses and invalidates the
 * capture.
 */
static CUresult sync_check(CUstream s)
{
	struct sim_cstate *cs;

	if (legacy(s))
		return legacy_check();
	cs = cstate(s);
	if (!cs->cap)
		return CUDA_SUCCESS;
	if (cs->cap->invalidated)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	cs->cap->invalidated = true;
	return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* ---- streams and events ---- */

CUresult sim_cuStreamCreateWithPriority(CUstream *ps, unsigned int flags, int prio)
{
	struct sim_stream *s;

	CTX_OK();
	if (flags & ~(unsigned int)CU_STREAM_NON_BLOCKING)
		return CUDA_ERROR_INVALID_VALUE;
	s = sim_obj_new(sizeof(*s), K_STREAM);
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* Clamped to the range cuCtxGetStreamPriorityRange reports. */
	s->prio = prio > 0 ? 0 : prio < -5 ? -5 : prio;
	s->flags = flags;
	s->id = sim_stream_ids++;
	s->cs.ctx = sim.cur;
	s->cs.blocking = !(flags & CU_STREAM_NON_BLOCKING);
	*ps = (CUstream)s;
	return CUDA_SUCCESS;
}

CUresult sim_cuStreamCreate(CUstream *ps, unsigned int flags)
{
	return sim_cuStreamCreateWithPriority(ps, flags, 0);
}

CUresult sim_cuStreamGetPriority(CUstream s, int *prio)
{
	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	*prio = sim_is(s, K_STREAM) ? ((struct sim_stream *)s)->prio : 0;
	return CUDA_SUCCESS;
}

CUresult sim_cuStreamGetFlags(CUstream s, unsigned int *flags)
{
	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	*flags = sim_is(s, K_STREAM) ? ((struct sim_stream *)s)->flags : 0;
	return CUDA_SUCCESS;
}

CUresult sim_cuStreamGetId(CUstream s, unsigned long long *id)
{
	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	*id = sim_is(s, K_STREAM) ? ((struct sim_stream *)s)->id :
	      s == CU_STREAM_PER_THREAD ? SIM_STREAM_ID_PT : SIM_STREAM_ID_LEGACY;
	return CUDA_SUCCESS;
}

/* A capturing stream destroyed: its capture cannot end well any more. */
CUresult sim_cuStreamDestroy(CUstream s)
{
	struct sim_capture *cap;
	struct sim_cstate *cs;

	if (!sim_is(s, K_STREAM))
		return CUDA_ERROR_INVALID_HANDLE;
	/* Its host functions still run (the driver lets its work finish): not with it gone. */
	sim_host_wait(s, false);
	cs = &((struct sim_stream *)s)->cs;
	cap = cs->cap;
	if (cap && cap->origin == cs) {
		graph_free(cap->g);
		capture_end(cap);
	} else if (cap) {
		cap->invalidated = true;
		for (size_t i = 0; i < cap->nm; i++)
			if (cap->members[i] == cs)
				cap->members[i] = cap->members[--cap->nm];
	}
	sim_obj_free(s);
	return CUDA_SUCCESS;
}

CUresult sim_cuStreamSynchronize(CUstream s)
{
	CUresult r;

	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	r = sync_check(s);
	if (r)
		return r;
	sim_host_wait(legacy(s) ? NULL : s, sim_stream_blocking(s));
	sim_pools_settle();
	return CUDA_SUCCESS;
}

/* Busy while a host function it waits for has not returned. */
CUresult sim_cuStreamQuery(CUstream s)
{
	CUresult r;

	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	r = sync_check(s);
	if (!r && sim_host_pending(legacy(s) ? NULL : s, sim_stream_blocking(s)))
		r = CUDA_ERROR_NOT_READY;
	return r;
}

/*
 * A stream that waits for an event recorded in a capture joins the
 * capture (a fork); the capture's own streams waiting for each other's
 * events is how forks are joined again.  The sim runs captured work in
 * the order it was captured, so a wait orders nothing else.
 */
CUresult sim_cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags)
{
	struct sim_event *ev = (struct sim_event *)e;
	struct sim_capture *cap, *ec;
	struct sim_cstate *cs;
	CUresult r;

	CTX_OK();
	if (stream_ok(s) || !sim_is(e, K_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	r = sim_stream_work(s, &cap);
	if (r || !ev->cap_id || !(ec = capture_by_id(ev->cap_id)))
		return r;
	cs = cstate(s);
	if (!cs) {
		/* The legacy stream cannot wait for work that does not run. */
		ec->invalidated = true;
		return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
	}
	if (!cap) {
		if (s == CU_STREAM_PER_THREAD)
			cs->ctx = sim.cur;
		return add_member(ec, cs);
	}
	if (cap != ec) {
		cap->invalidated = ec->invalidated = true;
		return CUDA_ERROR_STREAM_CAPTURE_MERGE;
	}
	if (ev->cap_from != cs && is_member(cap, ev->cap_from) &&
	    ev->cap_seq >= ev->cap_from->joined) {
		ev->cap_from->joined = ev->cap_seq;
		ev->cap_from->joined_by = cs;
	}
	return CUDA_SUCCESS;
}

CUresult sim_cuEventCreate(CUevent *pe, unsigned int flags)
{
	struct sim_event *e;

	CTX_OK();
	e = sim_obj_new(sizeof(*e), K_EVENT);
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->flags = flags;
	*pe = (CUevent)e;
	return CUDA_SUCCESS;
}

/* In a capture, an event marks how far its stream had come (see sim_cuStreamWaitEvent). */
CUresult sim_cuEventRecord(CUevent h, CUstream s)
{
	struct sim_event *e = (struct sim_event *)h;
	struct sim_capture *cap;
	CUresult r;

	CTX_OK();
	if (!sim_is(h, K_EVENT) || stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	r = sim_stream_work(s, &cap);
	if (r)
		return r;
	if (cap) {
		e->cap_id = cap->id;
		e->cap_from = cstate(s);
		e->cap_seq = e->cap_from->last;
		return CUDA_SUCCESS;
	}
	e->cap_id = 0;
	e->recorded = true;
	e->t_ns = gl_now_ns();
	return CUDA_SUCCESS;
}

/* An event last recorded in a capture stands for work that has not run. */
CUresult sim_cuEventQuery(CUevent h)
{
	CTX_OK();
	if (!sim_is(h, K_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	return ((struct sim_event *)h)->cap_id ? CUDA_ERROR_CAPTURED_EVENT : CUDA_SUCCESS;
}

CUresult sim_cuEventSynchronize(CUevent h)
{
	CUresult r = sim_cuEventQuery(h);

	if (!r)
		sim_pools_settle();
	return r;
}

CUresult sim_cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	struct sim_event *s = (struct sim_event *)a, *e = (struct sim_event *)b;

	CTX_OK();
	if (!sim_is(a, K_EVENT) || !sim_is(b, K_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	if (s->cap_id || e->cap_id)
		return CUDA_ERROR_CAPTURED_EVENT;
	if ((s->flags | e->flags) & CU_EVENT_DISABLE_TIMING)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!s->recorded || !e->recorded)
		return CUDA_ERROR_INVALID_HANDLE;
	*ms = (float)((double)((int64_t)(e->t_ns - s->t_ns)) / 1e6);
	return CUDA_SUCCESS;
}

CUresult sim_cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b)
{
	return sim_cuEventElapsedTime(ms, a, b);
}

/* An event a graph records lives on, dead to the program, until the graph goes. */
CUresult sim_cuEventDestroy(CUevent h)
{
	if (!sim_is(h, K_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	if (((struct sim_event *)h)->graph_refs) {
		((struct sim_event *)h)->o.magic = 0;
		return CUDA_SUCCESS;
	}
	sim_obj_free(h);
	return CUDA_SUCCESS;
}

void sim_event_graph_put(struct sim_event *e)
{
	if (!--e->graph_refs && e->o.magic != SIM_MAGIC)
		free(e);
}

/* ---- stream capture and graphs ---- */

/*
 * The mode is the shim's business (the worker begins every capture in
 * relaxed mode): the sim keeps none of its rules.
 */
CUresult sim_cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode)
{
	struct sim_capture *cap;
	struct sim_cstate *cs;

	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	if ((unsigned int)mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	if (legacy(s))
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	cs = cstate(s);
	if (cs->cap)
		return CUDA_ERROR_ILLEGAL_STATE;
	cap = calloc(1, sizeof(*cap));
	if (!cap)
		return CUDA_ERROR_OUT_OF_MEMORY;
	cap->g = sim_obj_new(sizeof(*cap->g), K_GRAPH);
	if (cap->g)
		cap->g->mem = calloc(1, sizeof(*cap->g->mem));
	if (!cap->g || !cap->g->mem || add_member(cap, cs)) {
		if (cap->g) {
			free(cap->g->mem);
			sim_obj_free(cap->g);
		}
		free(cap->members);
		free(cap);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	cap->g->mem->refs = 1;
	if (s == CU_STREAM_PER_THREAD)
		cs->ctx = sim.cur;
	cap->id = ++sim_capture_ids;
	cap->ctx = sim.cur;
	cap->origin = cs;
	cap->next = sim_captures;
	sim_captures = cap;
	return CUDA_SUCCESS;
}

/*
 * The capture ends on every stream in it, whatever the verdict: an
 * invalidated capture, or one with a fork whose work the origin never
 * waited for, gives no graph.
 */
CUresult sim_cuStreamEndCapture(CUstream s, CUgraph *pg)
{
	struct sim_capture *cap;
	struct sim_cstate *cs;
	struct sim_graph *g;
	CUresult r = CUDA_SUCCESS;

	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	cs = cstate(s);
	if (!cs || !cs->cap)
		return CUDA_ERROR_ILLEGAL_STATE;
	cap = cs->cap;
	if (cap->origin != cs)
		return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
	if (cap->invalidated)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	for (size_t i = 0; i < cap->nm && !r; i++)
		if (!followed(cap, cap->members[i], cap->nm))
			r = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
	g = cap->g;
	capture_end(cap);
	if (r) {
		graph_free(g);
		return r;
	}
	*pg = (CUgraph)g;
	return CUDA_SUCCESS;
}

CUresult sim_ops_copy(struct sim_op **out, const struct sim_op *ops, size_t n)
{
	struct sim_op *c = calloc(n ? n : 1, sizeof(*c));

	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (size_t i = 0; i < n; i++) {
		c[i] = ops[i];
		sim_graph_op_get(&c[i]);
		if (ops[i].kind != OP_KERNEL)
			continue;
		c[i].params = malloc(ops[i].params_size ? ops[i].params_size : 1);
		if (!c[i].params) {
			sim_ops_free(c, i + 1);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		memcpy(c[i].params, ops[i].params, ops[i].params_size);
	}
	*out = c;
	return CUDA_SUCCESS;
}

/* An executable graph is a copy: the graph may be destroyed, the copy runs on. */
CUresult sim_cuGraphInstantiateWithFlags(CUgraphExec *pe, CUgraph h, unsigned long long flags)
{
	const unsigned long long known = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
					 CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
					 CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
	struct sim_graph *g = (struct sim_graph *)h;
	struct sim_exec *e;
	CUresult r;

	CTX_OK();
	if (!sim_is(h, K_GRAPH) || (flags & ~known))
		return CUDA_ERROR_INVALID_VALUE;
	e = sim_obj_new(sizeof(*e), K_EXEC);
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* The captured operations, then the nodes' in an order their edges allow. */
	r = sim_graph_flatten(g, &e->ops, &e->n);
	if (!r)
		r = sim_graph_exec_made(e, g);
	if (r) {
		sim_ops_free(e->ops, e->n);
		sim_graph_exec_gone(e);
		sim_obj_free(e);
		return r;
	}
	e->mem = g->mem;
	e->mem->refs++;
	*pe = (CUgraphExec)e;
	return CUDA_SUCCESS;
}

static CUresult run_op(const struct sim_op *op)
{
	switch (op->kind) {
	case OP_COPY:
		return sim_dtod(op->dst, op->src, op->n);
	case OP_SET:
		return sim_set_n(op->dst, op->value, op->n, op->width);
	case OP_KERNEL:
		return sim_run_kernel(op->f, op->grid, op->block, op->shmem, op->params,
				  op->params_size);
	case OP_HOST:
		op->host(op->host_data);
		return CUDA_SUCCESS;
	default:
		return sim_graph_op_run(op);
	}
}

/* In order, each to its end; what a disabled node made is skipped. */
CUresult sim_ops_run(const struct sim_op *ops, size_t n)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; i < n && !r; i++)
		if (!ops[i].off)
			r = run_op(&ops[i]);
	return r;
}

/* Launched into a capture, a graph's operations become the capture's. */
CUresult sim_cuGraphLaunch(CUgraphExec h, CUstream s)
{
	struct sim_exec *e = (struct sim_exec *)h;
	struct sim_capture *cap;
	struct sim_op *ops;
	CUresult r;

	CTX_OK();
	if (!sim_is(h, K_EXEC))
		return CUDA_ERROR_INVALID_HANDLE;
	r = sim_stream_work(s, &cap);
	if (r)
		return r;
	if (!cap) {
		sim_graph_launch_begin(e->ops, e->n);
		return sim_ops_run(e->ops, e->n);
	}
	/*
	 * A graph with memory of its own cannot become part of another (the
	 * driver's rule for child graphs): the other would outlive that memory.
	 */
	if (e->mem->n) {
		cap->invalidated = true;
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	r = sim_ops_copy(&ops, e->ops, e->n);
	if (r)
		return r;
	for (size_t i = 0; i < e->n && !r; i++) {
		/* A disabled node's operation is not part of the launch. */
		if (ops[i].off)
			continue;
		r = sim_capture_op(cap, s, &ops[i]);
		if (!r) {
			ops[i].params = NULL;
			ops[i].pl = NULL;
		}
	}
	sim_ops_free(ops, e->n);
	return r;
}

/* Nothing to place ahead of time: graphs run from the worker's memory. */
CUresult sim_cuGraphUpload(CUgraphExec h, CUstream s)
{
	struct sim_capture *cap;

	CTX_OK();
	if (!sim_is(h, K_EXEC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_stream_work(s, &cap);
}

CUresult sim_cuGraphExecDestroy(CUgraphExec h)
{
	struct sim_exec *e = (struct sim_exec *)h;

	if (!sim_is(h, K_EXEC))
		return CUDA_ERROR_INVALID_VALUE;
	sim_ops_free(e->ops, e->n);
	sim_graph_mem_put(e->mem);
	sim_graph_exec_gone(e);
	sim_obj_free(e);
	return CUDA_SUCCESS;
}

CUresult sim_cuGraphDestroy(CUgraph h)
{
	if (!sim_is(h, K_GRAPH))
		return CUDA_ERROR_INVALID_VALUE;
	graph_free((struct sim_graph *)h);
	return CUDA_SUCCESS;
}

/* One node per captured operation, allocation and free, as on a GPU. */
CUresult sim_cuGraphGetNodes(CUgraph h, CUgraphNode *nodes, size_t *n)
{
	struct sim_graph *g = (struct sim_graph *)h;

	if (!sim_is(h, K_GRAPH) || nodes)
		return CUDA_ERROR_INVALID_VALUE;
	/* Nodes added by hand (memory nodes are counted with the graph's memory). */
	*n = g->n + sim_graph_node_count(g) + g->mem->n;
	for (size_t i = 0; i < g->mem->n; i++)
		*n += g->mem->m[i].freed;
	return CUDA_SUCCESS;
}
