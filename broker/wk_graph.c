// SPDX-License-Identifier: MIT
/*
 * Replay of graphs built node by node (uapi/gleam_graph.h;
 * Documentation/design.md, "Graphs built node by node").  Every node
 * arrives as a record of cuGraphAddNode and every change of parameters as
 * cuGraphNodeSetParams or cuGraphExecNodeSetParams, whatever function the
 * program called; the worker gives the driver the generic form of each.
 *
 * Everything a record says is checked before the driver sees it: the
 * description's reserved fields and sizes, handles against the worker's
 * map, and that every node named belongs to the graph named.  A node's
 * id goes with its graph (wk_handle.owner): when the driver destroys a
 * graph it destroys its nodes and the bodies of its conditional nodes,
 * and their ids are forgotten with it (wk_graph_forget), so that no
 * record can name a node the driver has freed.
 */
#include <stdlib.h>
#include <string.h>

#include "gleam_graph.h"
#include "util.h"
#include "worker.h"

/* ---- ids that go with their owners ---- */

struct idset {
	uint64_t *v;
	size_t n, cap;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool in_set(void *arg, uint64_t id)
{
	const struct idset *s = arg;

	return bsearch(&id, s->v, s->n, sizeof(s->v[0]), cmp_u64) != NULL;
}

/*
 * Every handle owned by id, by what it owns, and so on, is unmapped: in
 * passes over the map, each taking what the ones before found, so that
 * no nesting of bodies makes the worker recurse.
 */
void wk_graph_forget(struct worker *w, uint64_t id)
{
	struct idset s = { .v = &id, .n = 1 };
	uint64_t *found = NULL;
	size_t max = MAX(w->hcount, (size_t)1);

	found = malloc(max * sizeof(*found));
	if (!found)
		return;
	for (;;) {
		size_t n = wk_handle_owned(w, in_set, &s, found, max);
		uint64_t *v;

		if (!n)
			break;
		for (size_t i = 0; i < n; i++)
			wk_handle_unmap(w, found[i]);
		v = malloc((s.n + n) * sizeof(*v));
		if (!v)
			break;
		memcpy(v, s.v, s.n * sizeof(*v));
		memcpy(v + s.n, found, n * sizeof(*v));
		if (s.v != &id)
			free(s.v);
		s.v = v;
		s.n += n;
		qsort(s.v, s.n, sizeof(*s.v), cmp_u64);
	}
	if (s.v != &id)
		free(s.v);
	free(found);
}

/* A graph nodes may be added to: one the program made, or a conditional node's body. */
static CUresult graph_of(struct worker *w, uint64_t id, CUgraph *g)
{
	CUresult r = wk_handle(w, GL_H_GRAPH, id, (void **)g);

	if (r == CUDA_ERROR_INVALID_HANDLE)
		r = wk_handle(w, WK_H_BODY, id, (void **)g);
	return r;
}

/* Nodes of graph gid named by ids, mapped into out; each must be gid's. */
static CUresult nodes_of(struct worker *w, uint64_t gid, const uint64_t *ids, size_t n,
			 CUgraphNode *out)
{
	for (size_t i = 0; i < n; i++) {
		CUresult r = wk_handle(w, GL_H_GRAPHNODE, ids[i], (void **)&out[i]);

		if (r)
			return r == CUDA_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : r;
		if (wk_handle_owner(w, ids[i]) != gid)
			return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

/* ---- a node's description ---- */

/* What the driver's generic parameters point to, kept for the call. */
struct decoded {
	CUgraphNodeParams np;
	void *extra[5];
	size_t params_len;
	const uint64_t *bodies;		/* a conditional node's body ids */
};

static CUresult ctx_of(struct worker *w, uint64_t id, CUcontext *ctx)
{
	*ctx = NULL;
	return id ? wk_handle(w, GL_H_CTX, id, (void **)ctx) : CUDA_SUCCESS;
}

static CUresult decode_kernel(struct wk_call *k, const struct gleam_gnode *g, CUcontext ctx,
			      struct decoded *d)
{
	const struct gleam_gnode_kernel *kn = &g->kernel;
	CUDA_KERNEL_NODE_PARAMS_v3 *p = &d->np.kernel;
	const void *pb;
	CUresult r;

	if (kn->reserved || kn->params_len > GLEAM_PARAMS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	pb = kn->params_len ? wk_data(k, kn->params_len) : "";
	if (!pb)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_FUNC, kn->func, (void **)&p->func);
	if (r == CUDA_ERROR_INVALID_HANDLE) {
		/* A kernel runs in the context the node names. */
		r = wk_handle(k->w, GL_H_KERNEL, kn->func, (void **)&p->kern);
		p->ctx = ctx;
	}
	if (r)
		return r;
	p->gridDimX = kn->grid[0];
	p->gridDimY = kn->grid[1];
	p->gridDimZ = kn->grid[2];
	p->blockDimX = kn->block[0];
	p->blockDimY = kn->block[1];
	p->blockDimZ = kn->block[2];
	p->sharedMemBytes = kn->shared_bytes;
	/* The driver checks the block's size against the function's own, as at a launch. */
	d->params_len = (size_t)kn->params_len;
	d->extra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
	d->extra[1] = (void *)pb;
	d->extra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
	d->extra[3] = &d->params_len;
	d->extra[4] = CU_LAUNCH_PARAM_END;
	p->extra = d->extra;
	return CUDA_SUCCESS;
}

/* One end of a copy on the device: device memory or an array, nothing else. */
static CUresult copy_end(struct worker *w, const struct gleam_copy_end *e, CUmemorytype *type,
			 size_t *x, size_t *y, size_t *z, CUdeviceptr *dptr, CUarray *arr,
			 size_t *pitch, size_t *height)
{
	if (e->reserved || e->ctx)
		return CUDA_ERROR_INVALID_VALUE;
	*type = (CUmemorytype)e->type;
	*x = (size_t)e->x;
	*y = (size_t)e->y;
	*z = (size_t)e->z;
	switch (e->type) {
	case CU_MEMORYTYPE_DEVICE:
		*dptr = (CUdeviceptr)e->ptr;
		*pitch = (size_t)e->pitch;
		*height = (size_t)e->height;
		return CUDA_SUCCESS;
	case CU_MEMORYTYPE_ARRAY:
		if (e->pitch || e->height)
			return CUDA_ERROR_INVALID_VALUE;
		return wk_handle(w, GL_H_ARRAY, e->ptr, (void **)arr);
	default:
		/* Host memory is the program's: the shim stages it. */
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static CUresult decode_memcpy(struct worker *w, const struct gleam_copy *g, CUcontext ctx,
			      struct decoded *d)
{
	CUDA_MEMCPY3D *p = &d->np.memcpy.copyParams;
	CUresult r;

	if (g->api != GLEAM_COPY_3D || g->reserved)
		return CUDA_ERROR_INVALID_VALUE;
	r = copy_end(w, &g->src, &p->srcMemoryType, &p->srcXInBytes, &p->srcY, &p->srcZ,
		     &p->srcDevice, &p->srcArray, &p->srcPitch, &p->srcHeight);
	if (!r)
		r = copy_end(w, &g->dst, &p->dstMemoryType, &p->dstXInBytes, &p->dstY, &p->dstZ,
			     &p->dstDevice, &p->dstArray, &p->dstPitch, &p->dstHeight);
	if (r)
		return r;
	p->WidthInBytes = (size_t)g->width;
	p->Height = (size_t)g->height;
	p->Depth = (size_t)g->depth;
	d->np.memcpy.copyCtx = ctx;
	return CUDA_SUCCESS;
}

static CUresult decode_memset(const struct gleam_gnode_memset *m, CUcontext ctx,
			      struct decoded *d)
{
	CUDA_MEMSET_NODE_PARAMS_v2 *p = &d->np.memset;

	if (m->element_size != 1 && m->element_size != 2 && m->element_size != 4)
		return CUDA_ERROR_INVALID_VALUE;
	p->dst = (CUdeviceptr)m->dst;
	p->pitch = (size_t)m->pitch;
	p->value = m->value;
	p->elementSize = m->element_size;
	p->width = (size_t)m->width;
	p->height = (size_t)m->height;
	p->ctx = ctx;
	return CUDA_SUCCESS;
}

static CUresult decode_alloc(const struct gleam_gnode_alloc *a, struct decoded *d)
{
	CUDA_MEM_ALLOC_NODE_PARAMS_v2 *p = &d->np.alloc;

	if (a->reserved || a->location_type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    a->alloc_type != CU_MEM_ALLOCATION_TYPE_PINNED || !a->bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	p->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	p->poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p->poolProps.location.id = wk_dev_local(a->location_id);
	p->bytesize = (size_t)a->bytesize;
	return CUDA_SUCCESS;
}

static CUresult decode_cond(struct wk_call *k, const struct gleam_gnode_cond *c, CUcontext ctx,
			    struct decoded *d)
{
	CUDA_CONDITIONAL_NODE_PARAMS *p = &d->np.conditional;

	if (!c->size || c->size > GLEAM_GNODE_BODIES_MAX || c->type > CU_GRAPH_COND_TYPE_SWITCH)
		return CUDA_ERROR_INVALID_VALUE;
	d->bodies = wk_data(k, (uint64_t)c->size * sizeof(uint64_t));
	if (!d->bodies)
		return CUDA_ERROR_INVALID_VALUE;
	for (uint32_t i = 0; i < c->size; i++) {
		if (wk_handle_taken(k->w, d->bodies[i]))
			return CUDA_ERROR_INVALID_VALUE;
		for (uint32_t j = 0; j < i; j++)
			if (d->bodies[j] == d->bodies[i])
				return CUDA_ERROR_INVALID_VALUE;
	}
	p->handle = (CUgraphConditionalHandle)c->handle;
	p->type = (CUgraphConditionalNodeType)c->type;
	p->size = c->size;
	p->ctx = ctx;
	return CUDA_SUCCESS;
}

/*
 * The description at the reader's position, into the driver's generic
 * parameters.  make: a new node (conditional and memory nodes only
 * then: their parameters cannot change).
 */
static CUresult decode(struct wk_call *k, bool make, struct decoded *d)
{
	const struct gleam_gnode *g = wk_data(k, sizeof(*g));
	CUgraphNodeParams *np = &d->np;
	CUcontext ctx;
	CUresult r;

	memset(d, 0, sizeof(*d));
	if (!g || g->reserved)
		return CUDA_ERROR_INVALID_VALUE;
	r = ctx_of(k->w, g->ctx, &ctx);
	if (r)
		return r;
	np->type = (CUgraphNodeType)g->type;
	switch (g->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return decode_kernel(k, g, ctx, d);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return decode_memcpy(k->w, &g->copy, ctx, d);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return decode_memset(&g->memset, ctx, d);
	case CU_GRAPH_NODE_TYPE_HOST:
		/*
		 * The program's function runs in its process: the driver calls
		 * the worker's trampoline, which has the shim run it (wk_host.c).
		 * Its slot is kept for the session, as a captured one's is.
		 */
		return wk_host_node(k->w, g->host, k->hdr.ctx, &np->host.fn, &np->host.userData);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		np->graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
		return wk_handle(k->w, GL_H_GRAPH, g->graph, (void **)&np->graph.graph);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return wk_handle(k->w, GL_H_EVENT, g->event, (void **)&np->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return wk_handle(k->w, GL_H_EVENT, g->event, (void **)&np->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return make ? decode_alloc(&g->alloc, d) : CUDA_ERROR_INVALID_VALUE;
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		if (!make || !g->dptr)
			return CUDA_ERROR_INVALID_VALUE;
		np->free.dptr = (CUdeviceptr)g->dptr;
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return make ? decode_cond(k, &g->cond, ctx, d) : CUDA_ERROR_INVALID_VALUE;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* ---- nodes ---- */

/*
 * A node: its id maps to the driver's node and goes with its graph; a
 * conditional node's bodies map to the graphs the driver made for it and
 * go with the node; an allocation node answers with its address.  A node
 * the driver refused is kept with its error, and so are its bodies.
 */
CUresult wk_cuGraphAddNode(struct wk_call *k)
{
	const struct gl_a_cuGraphAddNode *a = wk_args(k, sizeof(*a));
	struct gleam_gnode_alloc_reply *rep;
	CUgraphNode node = NULL, *deps = NULL;
	const uint64_t *ids = NULL;
	struct decoded d;
	CUgraph g;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->phGraphNode) ||
	    a->numDependencies > GLEAM_GNODE_DEPS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_of(k->w, a->hGraph, &g);
	if (r)
		return r;
	if (a->numDependencies) {
		ids = wk_data(k, a->numDependencies * sizeof(*ids));
		deps = calloc((size_t)a->numDependencies, sizeof(*deps));
		if (!ids || !deps) {
			free(deps);
			return ids ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
		}
		r = nodes_of(k->w, a->hGraph, ids, (size_t)a->numDependencies, deps);
	}
	if (!r)
		r = decode(k, true, &d);
	if (r) {
		free(deps);
		return r;
	}
	r = k->w->be->op.f_cuGraphAddNode(&node, g, deps, NULL, (size_t)a->numDependencies,
					  &d.np);
	free(deps);
	wk_handle_new(k->w, GL_H_GRAPHNODE, a->phGraphNode, node, r);
	wk_handle_set_owner(k->w, a->phGraphNode, a->hGraph);
	if (d.np.type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
		for (uint32_t i = 0; i < d.np.conditional.size; i++) {
			wk_handle_new(k->w, WK_H_BODY, d.bodies[i],
				      r ? NULL : d.np.conditional.phGraph_out[i], r);
			wk_handle_set_owner(k->w, d.bodies[i], a->phGraphNode);
		}
	}
	if (!r && d.np.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
		rep = wk_reply_struct(k, sizeof(*rep));
		if (!rep)
			return CUDA_ERROR_OUT_OF_MEMORY;
		rep->dptr = d.np.alloc.dptr;
	}
	return r;
}

/* A node's parameters, in its graph or, given hexec, in that executable graph. */
static CUresult set_params(struct wk_call *k, const __u64 *hexec, __u64 hnode)
{
	const struct gl_backend_ops *op = &k->w->be->op;
	struct decoded d;
	CUgraphExec e = NULL;
	CUgraphNode n;
	CUresult r = CUDA_SUCCESS;

	if (hexec)
		r = wk_handle(k->w, GL_H_GRAPHEXEC, *hexec, (void **)&e);
	if (!r)
		r = wk_handle(k->w, GL_H_GRAPHNODE, hnode, (void **)&n);
	if (!r)
		r = decode(k, false, &d);
	if (r)
		return r;
	return hexec ? op->f_cuGraphExecNodeSetParams(e, n, &d.np) :
		       op->f_cuGraphNodeSetParams(n, &d.np);
}

CUresult wk_cuGraphNodeSetParams(struct wk_call *k)
{
	const struct gl_a_cuGraphNodeSetParams *a = wk_args(k, sizeof(*a));

	return a ? set_params(k, NULL, a->hNode) : CUDA_ERROR_INVALID_VALUE;
}

CUresult wk_cuGraphExecNodeSetParams(struct wk_call *k)
{
	const struct gl_a_cuGraphExecNodeSetParams *a = wk_args(k, sizeof(*a));

	return a ? set_params(k, &a->hGraphExec, a->hNode) : CUDA_ERROR_INVALID_VALUE;
}

CUresult wk_cuGraphDestroyNode(struct wk_call *k)
{
	const struct gl_a_cuGraphDestroyNode *a = wk_args(k, sizeof(*a));
	CUgraphNode n;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_GRAPHNODE, a->hNode, (void **)&n);
	if (!r)
		r = k->w->be->op.f_cuGraphDestroyNode(n);
	if (!r)
		wk_handle_del(k->w, GL_H_GRAPHNODE, a->hNode);
	return r;
}

/* Edges: from ids, then to ids, every node the graph's. */
static CUresult edges(struct wk_call *k, bool add)
{
	const struct gl_a_cuGraphAddDependencies *a = wk_args(k, sizeof(*a));
	const uint64_t *ids;
	CUgraphNode *n;
	CUgraph g;
	CUresult r;

	_Static_assert(sizeof(struct gl_a_cuGraphRemoveDependencies) == sizeof(*a), "one layout");
	if (!a || !a->numDependencies || a->numDependencies > GLEAM_GNODE_DEPS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_of(k->w, a->hGraph, &g);
	if (r)
		return r;
	ids = wk_data(k, 2 * a->numDependencies * sizeof(*ids));
	if (!ids)
		return CUDA_ERROR_INVALID_VALUE;
	n = calloc(2 * (size_t)a->numDependencies, sizeof(*n));
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = nodes_of(k->w, a->hGraph, ids, 2 * (size_t)a->numDependencies, n);
	if (!r)
		r = add ? k->w->be->op.f_cuGraphAddDependencies(g, n, n + a->numDependencies, NULL,
								 (size_t)a->numDependencies) :
			  k->w->be->op.f_cuGraphRemoveDependencies(g, n, n + a->numDependencies,
								    NULL,
								    (size_t)a->numDependencies);
	free(n);
	return r;
}

CUresult wk_cuGraphAddDependencies(struct wk_call *k)
{
	return edges(k, true);
}

CUresult wk_cuGraphRemoveDependencies(struct wk_call *k)
{
	return edges(k, false);
}

/* ---- clones ---- */

/* The clone's node made from the original's: mapped, and the clone's. */
static CUresult clone_node(struct worker *w, uint64_t clone_id, CUgraph clone, uint64_t orig,
			   uint64_t copy)
{
	CUgraphNode o, n = NULL;
	CUresult r;

	if (wk_handle_taken(w, copy))
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(w, GL_H_GRAPHNODE, orig, (void **)&o);
	if (!r)
		r = w->be->op.f_cuGraphNodeFindInClone(&n, o, clone);
	wk_handle_new(w, GL_H_GRAPHNODE, copy, n, r);
	wk_handle_set_owner(w, copy, clone_id);
	return r;
}

CUresult wk_cuGraphClone(struct wk_call *k)
{
	const struct gl_a_cuGraphClone *a = wk_args(k, sizeof(*a));
	const struct gleam_clone_pair *p = NULL;
	const uint64_t *count;
	CUgraph g, clone = NULL;
	CUresult r, rn = CUDA_SUCCESS;

	if (!a || wk_handle_taken(k->w, a->phGraphClone))
		return CUDA_ERROR_INVALID_VALUE;
	count = wk_data(k, sizeof(*count));
	if (!count || *count > GLEAM_GNODE_DEPS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	if (*count) {
		p = wk_data(k, *count * sizeof(*p));
		if (!p)
			return CUDA_ERROR_INVALID_VALUE;
	}
	r = wk_handle(k->w, GL_H_GRAPH, a->originalGraph, (void **)&g);
	if (r)
		return r;
	/* Every node named must be the original's, before anything is made. */
	for (uint64_t i = 0; i < *count; i++)
		if (wk_handle_owner(k->w, p[i].orig) != a->originalGraph)
			return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuGraphClone(&clone, g);
	wk_handle_new(k->w, GL_H_GRAPH, a->phGraphClone, clone, r);
	for (uint64_t i = 0; i < *count && !r; i++) {
		CUresult e = clone_node(k->w, a->phGraphClone, clone, p[i].orig, p[i].copy);

		if (e && !rn)
			rn = e;
	}
	return r ? r : rn;
}

/* One node of a clone, as cuGraphClone's record maps each. */
CUresult wk_cuGraphNodeFindInClone(struct wk_call *k)
{
	const struct gl_a_cuGraphNodeFindInClone *a = wk_args(k, sizeof(*a));
	CUgraph clone;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_GRAPH, a->hClonedGraph, (void **)&clone);
	return r ? r : clone_node(k->w, a->hClonedGraph, clone, a->hOriginalNode, a->phNode);
}

/* ---- conditional handles, updates ---- */

CUresult wk_cuGraphConditionalHandleCreate(struct wk_call *k)
{
	const struct gl_a_cuGraphConditionalHandleCreate *a = wk_args(k, sizeof(*a));
	struct gl_r_cuGraphConditionalHandleCreate *o;
	CUgraphConditionalHandle h = 0;
	CUcontext ctx;
	CUgraph g;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_of(k->w, a->hGraph, &g);
	if (!r)
		r = ctx_of(k->w, a->ctx, &ctx);
	if (!r)
		r = k->w->be->op.f_cuGraphConditionalHandleCreate(
			&h, g, ctx, (unsigned int)a->defaultLaunchValue, (unsigned int)a->flags);
	if (r)
		return r;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	o->pHandle_out = (__s64)h;
	return CUDA_SUCCESS;
}

/*
 * The driver's verdict, and what it says of a failure: sent as a piece
 * before the result, since a failure's reply carries nothing else.
 */
CUresult wk_cuGraphExecUpdate(struct wk_call *k)
{
	const struct gl_a_cuGraphExecUpdate *a = wk_args(k, sizeof(*a));
	CUgraphExecUpdateResultInfo info;
	struct gleam_exec_update u = { 0 };
	CUgraphExec e;
	CUgraph g;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_GRAPHEXEC, a->hGraphExec, (void **)&e);
	if (!r)
		r = wk_handle(k->w, GL_H_GRAPH, a->hGraph, (void **)&g);
	if (r)
		return r;
	memset(&info, 0, sizeof(info));
	r = k->w->be->op.f_cuGraphExecUpdate(e, g, &info);
	u.result = (__u32)info.result;
	u.error_node = wk_handle_find(k->w, GL_H_GRAPHNODE, info.errorNode);
	u.error_from = wk_handle_find(k->w, GL_H_GRAPHNODE, info.errorFromNode);
	wk_reply_piece(k, 0, &u, sizeof(u));
	return r;
}
