// SPDX-License-Identifier: MIT
/*
 * The sim's graphs built node by node: nodes with their edges, kept by
 * the graph in the order they were added; at instantiation they become
 * operations after the graph's captured ones, in an order the edges
 * allow (breadth first from the roots, in the order nodes were added),
 * and the sim runs each to its end before the next.  A child graph is a
 * copy of the graph made when the node is, run inline; a conditional
 * node runs the operations of its bodies by its handle's value, which
 * the test kernels set (cudaGraphSetConditional, sim_cond_set) and which
 * a launch sets to its default first where the handle asks for it.
 *
 * What an executable graph's operations hold beyond themselves (a 3D
 * copy's description, an event, a conditional node's bodies) is shared
 * and counted (struct sim_gpayload), so that operations are copied
 * cheaply into launches' captures and another executable graph.  An event
 * a graph records lives as long as the graph, dead to the program once
 * it is destroyed.
 *
 * The sim's limits: nodes within 64 levels of child graphs and bodies;
 * kernels given as a packed parameter block (the worker always gives
 * one); no changes of a node's operations inside a child graph or a body
 * of an executable graph; updates pair nodes in the order they were
 * added.  Each says so once where it refuses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sim.h"
#include "sim_refuse.h"

#define SIM_GRAPH_DEPTH_MAX	64
/* Operations an executable graph may hold, child graphs inlined. */
#define SIM_EXEC_OPS_MAX	(1u << 20)
/* Iterations of a while node before the sim takes it for a hung kernel. */
#define SIM_WHILE_MAX		(1u << 20)

/* ---- the objects ---- */

struct nodev {
	struct sim_gnode **v;
	size_t n, cap;
};

/* A conditional handle: its value is what kernels and the program hold. */
struct sim_cond {
	uint64_t value;
	unsigned int refs;	/* its graph, nodes and operations */
	unsigned int dflt;
	bool assign;		/* CU_GRAPH_COND_ASSIGN_DEFAULT */
	unsigned int cur;
	struct sim_cond *next;
};

struct sim_gnode {
	struct sim_obj o;
	struct sim_graph *g;
	uint64_t serial;
	uint64_t origin;	/* in a clone: the serial of the node it copies */
	size_t pos;		/* its place in its graph's list, while one is worked out */
	CUgraphNodeType type;
	struct nodev deps;
	union {
		struct {
			struct sim_func *f;
			unsigned int grid[3], block[3], shmem;
			unsigned char *params;
			size_t len;
		} k;
		CUDA_MEMCPY3D cp;
		struct {
			CUdeviceptr dst;
			size_t pitch, width, height;
			unsigned int value, esize;
		} set;
		struct sim_graph *child;	/* the node's own copy */
		struct sim_event *ev;
		CUDA_HOST_NODE_PARAMS_v2 host;	/* the worker's trampoline and its slot */
		CUdeviceptr dptr;		/* memory nodes */
		struct {
			struct sim_cond *h;
			unsigned int type, size;
			struct sim_graph **bodies;
		} cond;
	} u;
};

struct sim_gnodes {
	struct nodev all;
	struct sim_gnode *owner;	/* a body: its conditional node */
	unsigned int conds;
	struct sim_cond **made;		/* the conditional handles made for it */
	size_t nmade;
};

/* Operations of a body or the payload of an operation, shared and counted. */
struct opv {
	struct sim_op *v;
	size_t n, cap;
};

struct sim_gpayload {
	unsigned int refs;
	CUDA_MEMCPY3D cp;		/* OP_COPY3D */
	struct sim_event *ev;		/* OP_EVREC */
	struct sim_cond *h;		/* OP_COND */
	unsigned int type, size;
	struct opv *bodies;
};

/*
 * An executable graph's nodes: the serials of the graph it was made
 * from, in the order they were added, with their types and edges (by
 * position) for an update to compare; and the serials its operations
 * carry now (an update's graph's).
 */
struct sim_xnodes {
	size_t n, ncaptured;
	uint64_t *orig, *cur;
	unsigned int *type;
	size_t *dep_at;		/* n + 1 offsets into dep */
	size_t *dep;		/* positions of each node's dependencies */
	bool mem;		/* the graph has memory nodes */
};

static uint64_t node_serials;
static uint64_t cond_serials;
static struct sim_cond *conds;

/* ---- conditional handles ---- */

static void cond_put(struct sim_cond *h)
{
	struct sim_cond **pp;

	if (--h->refs)
		return;
	for (pp = &conds; *pp && *pp != h; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = h->next;
	free(h);
}

/* Found by value, never by dereferencing what a kernel passes. */
static struct sim_cond *cond_of(uint64_t value)
{
	struct sim_cond *h;

	for (h = conds; h && h->value != value; h = h->next)
		;
	return h;
}

int sim_cond_set(void *be, uint64_t handle, unsigned int value)
{
	struct sim_cond *h = cond_of(handle);

	(void)be;
	if (!h)
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	h->cur = value;
	return CUDA_SUCCESS;
}

/* ---- payloads ---- */

static void opv_free(struct opv *v)
{
	sim_ops_free(v->v, v->n);
	v->v = NULL;
	v->n = v->cap = 0;
}

static void payload_put(struct sim_gpayload *p)
{
	if (--p->refs)
		return;
	if (p->ev)
		sim_event_graph_put(p->ev);
	if (p->h)
		cond_put(p->h);
	for (unsigned int i = 0; p->bodies && i < p->size; i++)
		opv_free(&p->bodies[i]);
	free(p->bodies);
	free(p);
}

void sim_graph_op_get(struct sim_op *op)
{
	if (op->pl)
		op->pl->refs++;
}

void sim_graph_op_put(struct sim_op *op)
{
	if (op->pl)
		payload_put(op->pl);
	op->pl = NULL;
}

/* ---- running operations ---- */

static CUresult run_cond(const struct sim_gpayload *p)
{
	struct sim_cond *h = p->h;
	CUresult r = CUDA_SUCCESS;

	switch (p->type) {
	case CU_GRAPH_COND_TYPE_IF:
		if (h->cur)
			return sim_ops_run(p->bodies[0].v, p->bodies[0].n);
		return p->size > 1 ? sim_ops_run(p->bodies[1].v, p->bodies[1].n) : r;
	case CU_GRAPH_COND_TYPE_WHILE:
		for (unsigned int i = 0; h->cur && !r; i++) {
			/* On a GPU a body that never clears its condition hangs the graph. */
			if (i == SIM_WHILE_MAX) {
				sim.cur->sticky = CUDA_ERROR_LAUNCH_TIMEOUT;
				return CUDA_SUCCESS;
			}
			r = sim_ops_run(p->bodies[0].v, p->bodies[0].n);
			if (!r && sim.cur->sticky)
				return CUDA_SUCCESS;
		}
		return r;
	case CU_GRAPH_COND_TYPE_SWITCH:
		return h->cur < p->size ? sim_ops_run(p->bodies[h->cur].v, p->bodies[h->cur].n) : r;
	}
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult sim_graph_op_run(const struct sim_op *op)
{
	CUresult r = CUDA_SUCCESS;

	switch (op->kind) {
	case OP_SET2D:
		for (size_t i = 0; i < op->rows && !r; i++)
			r = sim_set_n(op->dst + i * op->pitch, op->value, op->n, op->width);
		return r;
	case OP_COPY3D:
		return sim_copy3d_run(&op->pl->cp);
	case OP_EVREC:
		op->pl->ev->recorded = true;
		op->pl->ev->cap_id = 0;
		op->pl->ev->t_ns = gl_now_ns();
		return CUDA_SUCCESS;
	case OP_COND:
		return run_cond(op->pl);
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* A launch gives the handles that ask for it their default values first. */
void sim_graph_launch_begin(const struct sim_op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct sim_gpayload *p = ops[i].pl;

		if (ops[i].kind != OP_COND)
			continue;
		if (p->h->assign)
			p->h->cur = p->h->dflt;
		for (unsigned int b = 0; b < p->size; b++)
			sim_graph_launch_begin(p->bodies[b].v, p->bodies[b].n);
	}
}

/* ---- nodes ---- */

static struct sim_gnodes *gn_of(struct sim_graph *g)
{
	if (!g->gn)
		g->gn = calloc(1, sizeof(*g->gn));
	return g->gn;
}

static struct sim_graph *graph_new(void)
{
	struct sim_graph *g = sim_obj_new(sizeof(*g), K_GRAPH);

	if (!g)
		return NULL;
	g->mem = calloc(1, sizeof(*g->mem));
	if (!g->mem) {
		sim_obj_free(g);
		return NULL;
	}
	g->mem->refs = 1;
	return g;
}

/* How many graphs deep g sits: bodies of bodies of a graph. */
static unsigned int level_of(const struct sim_graph *g)
{
	unsigned int l = 0;

	while (g->gn && g->gn->owner && l <= SIM_GRAPH_DEPTH_MAX) {
		g = g->gn->owner->g;
		l++;
	}
	return l;
}

/* How many levels of child graphs and bodies g holds (bounded as they were made). */
static unsigned int height_of(const struct sim_graph *g)
{
	unsigned int h = 0;

	for (size_t i = 0; g->gn && i < g->gn->all.n; i++) {
		const struct sim_gnode *n = g->gn->all.v[i];

		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			h = MAX(h, 1 + height_of(n->u.child));
		if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
			for (unsigned int b = 0; b < n->u.cond.size; b++)
				h = MAX(h, 1 + height_of(n->u.cond.bodies[b]));
	}
	return h;
}

/* Whether g (and what it holds) has memory or conditional nodes. */
static bool has_type(const struct sim_graph *g, CUgraphNodeType t)
{
	if (t == CU_GRAPH_NODE_TYPE_MEM_ALLOC && g->mem->n)
		return true;
	for (size_t i = 0; g->gn && i < g->gn->all.n; i++) {
		const struct sim_gnode *n = g->gn->all.v[i];

		if (n->type == t ||
		    (n->type == CU_GRAPH_NODE_TYPE_GRAPH && has_type(n->u.child, t)))
			return true;
	}
	return false;
}

/* What a node holds goes; its handle is the caller's. */
static void node_release(struct sim_gnode *n)
{
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		free(n->u.k.params);
		break;
	case CU_GRAPH_NODE_TYPE_GRAPH:
		if (n->u.child)
			sim_cuGraphDestroy((CUgraph)n->u.child);
		break;
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		if (n->u.ev)
			sim_event_graph_put(n->u.ev);
		break;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		for (unsigned int i = 0; n->u.cond.bodies && i < n->u.cond.size; i++)
			if (n->u.cond.bodies[i])
				sim_cuGraphDestroy((CUgraph)n->u.cond.bodies[i]);
		free(n->u.cond.bodies);
		if (n->u.cond.h)
			cond_put(n->u.cond.h);
		break;
	default:
		break;
	}
	memset(&n->u, 0, sizeof(n->u));
}

static void node_free(struct sim_gnode *n)
{
	node_release(n);
	free(n->deps.v);
	sim_obj_free(n);
}

void sim_graph_nodes_free(struct sim_graph *g)
{
	struct sim_gnodes *gs = g->gn;

	if (!gs)
		return;
	g->gn = NULL;
	for (size_t i = 0; i < gs->all.n; i++)
		node_free(gs->all.v[i]);
	for (size_t i = 0; i < gs->nmade; i++)
		cond_put(gs->made[i]);
	free(gs->made);
	free(gs->all.v);
	free(gs);
}

size_t sim_graph_node_count(const struct sim_graph *g)
{
	size_t n = 0;

	for (size_t i = 0; g->gn && i < g->gn->all.n; i++)
		n += g->gn->all.v[i]->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
		     g->gn->all.v[i]->type != CU_GRAPH_NODE_TYPE_MEM_FREE;
	return n;
}

/* ---- a node's parameters ---- */

static CUresult set_kernel(struct sim_gnode *n, const CUDA_KERNEL_NODE_PARAMS_v3 *k)
{
	struct sim_func *f = (struct sim_func *)(k->func ? (void *)k->func : (void *)k->kern);
	const void *buf = NULL;
	const size_t *size = NULL;

	if (!sim_is(f, K_FUNC))
		return CUDA_ERROR_INVALID_VALUE;
	if (!f->k) {
		gl_err("sim: kernel %.80s is not one the sim can run", f->name);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (k->kernelParams)
		return SIM_REFUSE("kernel nodes given kernelParams (the worker packs them)");
	for (int i = 0; k->extra && i < 8 && k->extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (k->extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			buf = k->extra[i + 1];
		else if (k->extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			size = k->extra[i + 1];
	}
	if (!size || *size != f->params_size || (f->params_size && !buf))
		return CUDA_ERROR_INVALID_VALUE;
	if (!k->gridDimX || !k->gridDimY || !k->gridDimZ || !k->blockDimX || !k->blockDimY ||
	    !k->blockDimZ)
		return CUDA_ERROR_INVALID_VALUE;
	n->u.k.params = malloc(*size ? *size : 1);
	if (!n->u.k.params)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(n->u.k.params, buf, *size);
	n->u.k.len = *size;
	n->u.k.f = f;
	n->u.k.grid[0] = k->gridDimX;
	n->u.k.grid[1] = k->gridDimY;
	n->u.k.grid[2] = k->gridDimZ;
	n->u.k.block[0] = k->blockDimX;
	n->u.k.block[1] = k->blockDimY;
	n->u.k.block[2] = k->blockDimZ;
	n->u.k.shmem = k->sharedMemBytes;
	return CUDA_SUCCESS;
}

static CUresult set_memset(struct sim_gnode *n, const CUDA_MEMSET_NODE_PARAMS_v2 *m)
{
	uint64_t row, span;

	if (m->elementSize != 1 && m->elementSize != 2 && m->elementSize != 4)
		return CUDA_ERROR_INVALID_VALUE;
	if (!m->width || !m->height || (m->dst % m->elementSize))
		return CUDA_ERROR_INVALID_VALUE;
	if (__builtin_mul_overflow((uint64_t)m->width, m->elementSize, &row) ||
	    (m->height > 1 && m->pitch < row) ||
	    __builtin_mul_overflow((uint64_t)m->pitch, (uint64_t)m->height - 1, &span) ||
	    __builtin_add_overflow(span, row, &span) || !sim_mem(NULL, m->dst, span))
		return CUDA_ERROR_INVALID_VALUE;
	n->u.set.dst = m->dst;
	n->u.set.pitch = m->pitch;
	n->u.set.width = m->width;
	n->u.set.height = m->height;
	n->u.set.value = m->value;
	n->u.set.esize = m->elementSize;
	return CUDA_SUCCESS;
}

static CUresult set_memcpy(struct sim_gnode *n, const CUDA_MEMCPY3D *cp)
{
	/* Host memory is the shim's to stage: none reaches a graph here. */
	if (cp->srcMemoryType == CU_MEMORYTYPE_HOST || cp->dstMemoryType == CU_MEMORYTYPE_HOST ||
	    cp->srcMemoryType == CU_MEMORYTYPE_UNIFIED ||
	    cp->dstMemoryType == CU_MEMORYTYPE_UNIFIED || cp->srcLOD || cp->dstLOD ||
	    cp->reserved0 || cp->reserved1)
		return CUDA_ERROR_INVALID_VALUE;
	n->u.cp = *cp;
	return CUDA_SUCCESS;
}

static struct sim_graph *graph_clone(const struct sim_graph *g, CUresult *r);

static CUresult set_child(struct sim_gnode *n, const CUDA_CHILD_GRAPH_NODE_PARAMS *c,
			  const struct sim_graph *parent)
{
	const struct sim_graph *child = (const struct sim_graph *)c->graph;
	CUresult r;

	if (!sim_is(child, K_GRAPH) || child == parent || (child->gn && child->gn->owner) ||
	    c->ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
		return CUDA_ERROR_INVALID_VALUE;
	/* The driver's rules for a cloned child: no memory nodes, no conditional nodes. */
	if (has_type(child, CU_GRAPH_NODE_TYPE_MEM_ALLOC) ||
	    has_type(child, CU_GRAPH_NODE_TYPE_MEM_FREE) ||
	    has_type(child, CU_GRAPH_NODE_TYPE_CONDITIONAL))
		return CUDA_ERROR_INVALID_VALUE;
	if (parent && level_of(parent) + 1 + height_of(child) > SIM_GRAPH_DEPTH_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	n->u.child = graph_clone(child, &r);
	return r;
}

static CUresult set_event(struct sim_gnode *n, CUevent e)
{
	if (!sim_is(e, K_EVENT))
		return CUDA_ERROR_INVALID_VALUE;
	n->u.ev = (struct sim_event *)e;
	n->u.ev->graph_refs++;
	return CUDA_SUCCESS;
}

/* Memory the node allocates is made now and lasts, as a capture's. */
static CUresult set_alloc(struct sim_gnode *n, struct sim_graph *g,
			  CUDA_MEM_ALLOC_NODE_PARAMS_v2 *a)
{
	struct sim_graph_mem *gm = g->mem;
	CUresult r;

	if (g->gn && g->gn->owner)
		return CUDA_ERROR_INVALID_VALUE;
	if (a->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    a->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE || !a->bytesize ||
	    a->accessDescCount)
		return CUDA_ERROR_INVALID_VALUE;
	if (gl_grow((void **)&gm->m, gm->n, &gm->cap, sizeof(*gm->m), 8))
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = sim_alloc_mem(&a->dptr, a->bytesize, NULL);
	if (r)
		return r;
	gm->m[gm->n++] = (struct sim_gmem){ a->dptr, false };
	n->u.dptr = a->dptr;
	return CUDA_SUCCESS;
}

/* A free node frees what this graph allocated; the graph keeps it till it goes. */
static CUresult set_free(struct sim_gnode *n, struct sim_graph *g, CUdeviceptr d)
{
	long a = sim_alloc_at(d);

	if (g->gn && g->gn->owner)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; a >= 0 && i < g->mem->n; i++) {
		if (g->mem->m[i].d == d && !g->mem->m[i].freed) {
			g->mem->m[i].freed = true;
			sim.a[a].graph = true;
			n->u.dptr = d;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

static CUresult set_cond(struct sim_gnode *n, struct sim_graph *g,
			 CUDA_CONDITIONAL_NODE_PARAMS *c)
{
	struct sim_cond *h = cond_of(c->handle);

	if (!h || (c->type == CU_GRAPH_COND_TYPE_IF && c->size != 1 && c->size != 2) ||
	    (c->type == CU_GRAPH_COND_TYPE_WHILE && c->size != 1) ||
	    (c->type == CU_GRAPH_COND_TYPE_SWITCH && !c->size) ||
	    c->type > CU_GRAPH_COND_TYPE_SWITCH || c->size > 1024)
		return CUDA_ERROR_INVALID_VALUE;
	if (level_of(g) + 1 > SIM_GRAPH_DEPTH_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	n->u.cond.bodies = calloc(c->size, sizeof(*n->u.cond.bodies));
	if (!n->u.cond.bodies)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->u.cond.size = c->size;
	for (unsigned int i = 0; i < c->size; i++) {
		struct sim_graph *b = graph_new();

		if (!b || !gn_of(b)) {
			if (b)
				sim_cuGraphDestroy((CUgraph)b);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		b->gn->owner = n;
		n->u.cond.bodies[i] = b;
	}
	n->u.cond.h = h;
	h->refs++;
	n->u.cond.type = c->type;
	c->phGraph_out = (CUgraph *)n->u.cond.bodies;
	return CUDA_SUCCESS;
}

/*
 * A node's parameters, checked as the driver checks them at the call.
 * g: the node's graph when it is made (memory and conditional nodes are
 * made once; a change of their parameters is refused).
 */
static CUresult node_set(struct sim_gnode *n, struct sim_graph *g, CUgraphNodeParams *np)
{
	switch (np->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return set_kernel(n, &np->kernel);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return set_memcpy(n, &np->memcpy.copyParams);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return set_memset(n, &np->memset);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return set_child(n, &np->graph, n->g);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return set_event(n, np->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return set_event(n, np->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return g ? set_alloc(n, g, &np->alloc) : CUDA_ERROR_INVALID_VALUE;
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return g ? set_free(n, g, np->free.dptr) : CUDA_ERROR_INVALID_VALUE;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return g ? set_cond(n, g, &np->conditional) : CUDA_ERROR_INVALID_VALUE;
	case CU_GRAPH_NODE_TYPE_HOST:
		if (!np->host.fn)
			return CUDA_ERROR_INVALID_VALUE;
		n->u.host = np->host;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static CUresult graph_ok(CUgraph h)
{
	CTX_OK();
	return sim_is(h, K_GRAPH) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult sim_cuGraphCreate(CUgraph *out, unsigned int flags)
{
	struct sim_graph *g;

	CTX_OK();
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	g = graph_new();
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*out = (CUgraph)g;
	return CUDA_SUCCESS;
}

CUresult sim_cuGraphAddNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			    const CUgraphEdgeData *edges, size_t ndeps, CUgraphNodeParams *np)
{
	struct sim_graph *g = (struct sim_graph *)h;
	struct sim_gnode *n;
	CUresult r = graph_ok(h);

	if (r)
		return r;
	if (edges || (ndeps && !deps) || !np || !gn_of(g))
		return edges || !np ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_OUT_OF_MEMORY;
	for (size_t i = 0; i < ndeps; i++) {
		const struct sim_gnode *d = (const struct sim_gnode *)deps[i];

		if (!sim_is(d, K_GNODE) || d->g != g)
			return CUDA_ERROR_INVALID_VALUE;
		for (size_t j = 0; j < i; j++)
			if (deps[j] == deps[i])
				return CUDA_ERROR_INVALID_VALUE;
	}
	n = sim_obj_new(sizeof(*n), K_GNODE);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->g = g;
	n->type = np->type;
	n->serial = ++node_serials;
	r = node_set(n, g, np);
	for (size_t i = 0; i < ndeps && !r; i++)
		if (gl_ptrs_add(&n->deps, (struct sim_gnode *)deps[i]))
			r = CUDA_ERROR_OUT_OF_MEMORY;
	if (!r && gl_ptrs_add(&g->gn->all, n))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r) {
		node_free(n);
		return r;
	}
	if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		g->gn->conds++;
	*out = (CUgraphNode)n;
	return CUDA_SUCCESS;
}

CUresult sim_cuGraphNodeSetParams(CUgraphNode h, CUgraphNodeParams *np)
{
	struct sim_gnode *n = (struct sim_gnode *)h, tmp;
	CUresult r;

	CTX_OK();
	if (!sim_is(h, K_GNODE) || !np || np->type != n->type)
		return CUDA_ERROR_INVALID_VALUE;
	tmp = *n;
	memset(&tmp.u, 0, sizeof(tmp.u));
	r = node_set(&tmp, NULL, np);
	if (r) {
		node_release(&tmp);
		return r;
	}
	node_release(n);
	n->u = tmp.u;
	return CUDA_SUCCESS;
}

/* Not in a graph with memory nodes: the driver's rule. */
static bool has_mem(const struct sim_graph *g)
{
	return g->mem->n != 0;
}

CUresult sim_cuGraphDestroyNode(CUgraphNode h)
{
	struct sim_gnode *n = (struct sim_gnode *)h;
	struct sim_gnodes *gs;

	CTX_OK();
	if (!sim_is(h, K_GNODE))
		return CUDA_ERROR_INVALID_VALUE;
	if (has_mem(n->g))
		return CUDA_ERROR_INVALID_VALUE;
	gs = n->g->gn;
	for (size_t i = 0; i < gs->all.n; i++)
		gl_ptrs_del(&gs->all.v[i]->deps, n);
	gl_ptrs_del(&gs->all, n);
	if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		gs->conds--;
	node_free(n);
	return CUDA_SUCCESS;
}

static CUresult edges_change(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
			     const CUgraphEdgeData *e, size_t n, bool add)
{
	struct sim_graph *g = (struct sim_graph *)h;
	CUresult r = graph_ok(h);

	if (r)
		return r;
	if (e || (n && (!from || !to)) || (!add && has_mem(g)))
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < n; i++) {
		const struct sim_gnode *f = (const struct sim_gnode *)from[i];
		const struct sim_gnode *t = (const struct sim_gnode *)to[i];

		if (!sim_is(f, K_GNODE) || !sim_is(t, K_GNODE) || f->g != g || t->g != g ||
		    f == t || gl_ptrs_has(&t->deps, f) != !add)
			return CUDA_ERROR_INVALID_VALUE;
		for (size_t j = 0; j < i; j++)
			if (from[j] == from[i] && to[j] == to[i])
				return CUDA_ERROR_INVALID_VALUE;
	}
	for (size_t i = 0; i < n; i++) {
		struct sim_gnode *t = (struct sim_gnode *)to[i];

		if (!add)
			gl_ptrs_del(&t->deps, (const struct sim_gnode *)from[i]);
		else if (gl_ptrs_add(&t->deps, (struct sim_gnode *)from[i]))
			return CUDA_ERROR_OUT_OF_MEMORY;
	}
	return CUDA_SUCCESS;
}

CUresult sim_cuGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
				    const CUgraphEdgeData *e, size_t n)
{
	return edges_change(g, from, to, e, n, true);
}

CUresult sim_cuGraphRemoveDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
				       const CUgraphEdgeData *e, size_t n)
{
	return edges_change(g, from, to, e, n, false);
}

CUresult sim_cuGraphConditionalHandleCreate(CUgraphConditionalHandle *out, CUgraph h,
					    CUcontext ctx, unsigned int dflt, unsigned int flags)
{
	struct sim_graph *g = (struct sim_graph *)h;
	struct sim_cond *c, **made;
	CUresult r = graph_ok(h);

	if (r)
		return r;
	if (!sim_is(ctx, K_CTX) || (flags & ~CU_GRAPH_COND_ASSIGN_DEFAULT))
		return CUDA_ERROR_INVALID_VALUE;
	if (!gn_of(g))
		return CUDA_ERROR_OUT_OF_MEMORY;
	made = realloc(g->gn->made, (g->gn->nmade + 1) * sizeof(*made));
	c = calloc(1, sizeof(*c));
	if (made)
		g->gn->made = made;
	if (!made || !c) {
		free(c);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* A value no address is: kernels pass it, the sim finds it by value. */
	c->value = 0x5c0d000000000000ull | ++cond_serials;
	c->refs = 1;
	c->dflt = dflt;
	c->assign = flags & CU_GRAPH_COND_ASSIGN_DEFAULT;
	c->cur = dflt;
	c->next = conds;
	conds = c;
	g->gn->made[g->gn->nmade++] = c;
	*out = c->value;
	return CUDA_SUCCESS;
}

/* ---- clones ---- */

static struct sim_graph *graph_clone(const struct sim_graph *g, CUresult *r)
{
	struct sim_graph *c = graph_new();
	size_t n = g->gn ? g->gn->all.n : 0;

	*r = CUDA_SUCCESS;
	if (!c) {
		*r = CUDA_ERROR_OUT_OF_MEMORY;
		return NULL;
	}
	*r = sim_ops_copy(&c->ops, g->ops, g->n);
	if (*r) {
		c->ops = NULL;
		goto fail;
	}
	c->n = c->cap = g->n;
	if (n && !gn_of(c)) {
		*r = CUDA_ERROR_OUT_OF_MEMORY;
		goto fail;
	}
	for (size_t i = 0; i < n && !*r; i++) {
		const struct sim_gnode *o = g->gn->all.v[i];
		struct sim_gnode *cn = sim_obj_new(sizeof(*cn), K_GNODE);

		if (!cn || gl_ptrs_add(&c->gn->all, cn)) {
			if (cn)
				sim_obj_free(cn);
			*r = CUDA_ERROR_OUT_OF_MEMORY;
			break;
		}
		cn->g = c;
		cn->type = o->type;
		cn->serial = ++node_serials;
		cn->origin = o->serial;
		cn->u = o->u;
		switch (o->type) {
		case CU_GRAPH_NODE_TYPE_KERNEL:
			cn->u.k.params = malloc(o->u.k.len ? o->u.k.len : 1);
			if (!cn->u.k.params)
				*r = CUDA_ERROR_OUT_OF_MEMORY;
			else
				memcpy(cn->u.k.params, o->u.k.params, o->u.k.len);
			break;
		case CU_GRAPH_NODE_TYPE_GRAPH:
			cn->u.child = graph_clone(o->u.child, r);
			break;
		case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
			cn->u.ev->graph_refs++;
			break;
		default:
			break;
		}
	}
	/* The edges, by position. */
	for (size_t i = 0; i < n; i++)
		g->gn->all.v[i]->pos = i;
	for (size_t i = 0; i < n && !*r; i++) {
		const struct sim_gnode *o = g->gn->all.v[i];

		for (size_t j = 0; j < o->deps.n && !*r; j++)
			if (gl_ptrs_add(&c->gn->all.v[i]->deps, c->gn->all.v[o->deps.v[j]->pos]))
				*r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (!*r)
		return c;
fail:
	sim_cuGraphDestroy((CUgraph)c);
	return NULL;
}

/* Graphs with memory of their own or conditional nodes are not cloned. */
CUresult sim_cuGraphClone(CUgraph *out, CUgraph h)
{
	const struct sim_graph *g = (const struct sim_graph *)h;
	struct sim_graph *c;
	CUresult r = graph_ok(h);

	if (r)
		return r;
	if (g->gn && g->gn->conds)
		return CUDA_ERROR_INVALID_VALUE;
	if (has_mem(g))
		return SIM_REFUSE("clones of graphs with memory nodes");
	c = graph_clone(g, &r);
	if (c)
		*out = (CUgraph)c;
	return r;
}

CUresult sim_cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode orig, CUgraph h)
{
	const struct sim_gnode *o = (const struct sim_gnode *)orig;
	const struct sim_graph *c = (const struct sim_graph *)h;
	CUresult r = graph_ok(h);

	if (r)
		return r;
	if (!sim_is(o, K_GNODE))
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; c->gn && i < c->gn->all.n; i++) {
		if (c->gn->all.v[i]->origin == o->serial) {
			*out = (CUgraphNode)c->gn->all.v[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* ---- instantiation: nodes become operations ---- */

static int opv_add(struct opv *v, const struct sim_op *op)
{
	if (v->n >= SIM_EXEC_OPS_MAX)
		return -1;
	if (gl_grow((void **)&v->v, v->n, &v->cap, sizeof(*v->v), 16))
		return -1;
	v->v[v->n++] = *op;
	return 0;
}

/*
 * The graph's nodes in an order their edges allow: breadth first from
 * the roots, each in the order nodes were added.  A cycle leaves nodes
 * out: the graph is refused.
 */
static CUresult order_of(const struct sim_gnodes *gs, size_t **out)
{
	size_t n = gs->all.n, head = 0, tail = 0, *ord, *indeg, *cnt, *at, *adj;
	CUresult r = CUDA_SUCCESS;

	ord = calloc(n + 1, sizeof(*ord));
	indeg = calloc(n + 1, sizeof(*indeg));
	cnt = calloc(n + 1, sizeof(*cnt));
	at = calloc(n + 2, sizeof(*at));
	if (!ord || !indeg || !cnt || !at) {
		r = CUDA_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		gs->all.v[i]->pos = i;
		indeg[i] = gs->all.v[i]->deps.n;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < gs->all.v[i]->deps.n; j++)
			cnt[gs->all.v[i]->deps.v[j]->pos]++;
	for (size_t i = 0; i < n; i++)
		at[i + 1] = at[i] + cnt[i];
	adj = calloc(at[n] + 1, sizeof(*adj));
	if (!adj) {
		r = CUDA_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	memset(cnt, 0, (n + 1) * sizeof(*cnt));
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < gs->all.v[i]->deps.n; j++) {
			size_t k = gs->all.v[i]->deps.v[j]->pos;

			adj[at[k] + cnt[k]++] = i;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!indeg[i])
			ord[tail++] = i;
	while (head < tail) {
		size_t i = ord[head++];

		for (size_t e = at[i]; e < at[i + 1]; e++)
			if (!--indeg[adj[e]])
				ord[tail++] = adj[e];
	}
	free(adj);
	if (tail != n)
		r = CUDA_ERROR_INVALID_VALUE;
out:
	free(indeg);
	free(cnt);
	free(at);
	if (r) {
		free(ord);
		ord = NULL;
	}
	*out = ord;
	return r;
}

static CUresult emit_graph(const struct sim_graph *g, struct opv *out, unsigned int depth);

static struct sim_gpayload *payload_new(void)
{
	struct sim_gpayload *p = calloc(1, sizeof(*p));

	if (p)
		p->refs = 1;
	return p;
}

/* The operations of one node, appended; a payload is the operation's. */
static CUresult emit_node(const struct sim_gnode *n, struct opv *out, unsigned int depth)
{
	struct sim_op op = { .node = n->serial };
	struct sim_gpayload *p = NULL;
	CUresult r = CUDA_SUCCESS;

	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		op.kind = OP_KERNEL;
		op.f = n->u.k.f;
		memcpy(op.grid, n->u.k.grid, sizeof(op.grid));
		memcpy(op.block, n->u.k.block, sizeof(op.block));
		op.shmem = n->u.k.shmem;
		op.params_size = n->u.k.len;
		op.params = malloc(n->u.k.len ? n->u.k.len : 1);
		if (!op.params)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(op.params, n->u.k.params, n->u.k.len);
		break;
	case CU_GRAPH_NODE_TYPE_MEMSET:
		op.kind = n->u.set.height > 1 ? OP_SET2D : OP_SET;
		op.dst = n->u.set.dst;
		op.value = n->u.set.value;
		op.width = n->u.set.esize;
		op.n = n->u.set.width;
		op.pitch = n->u.set.pitch;
		op.rows = n->u.set.height;
		break;
	case CU_GRAPH_NODE_TYPE_MEMCPY: {
		const CUDA_MEMCPY3D *c = &n->u.cp;

		/* One row between two addresses is a plain copy. */
		if (c->srcMemoryType == CU_MEMORYTYPE_DEVICE &&
		    c->dstMemoryType == CU_MEMORYTYPE_DEVICE && c->Height == 1 && c->Depth == 1 &&
		    !c->srcY && !c->srcZ && !c->dstY && !c->dstZ) {
			op.kind = OP_COPY;
			op.dst = c->dstDevice + c->dstXInBytes;
			op.src = c->srcDevice + c->srcXInBytes;
			op.n = c->WidthInBytes;
			break;
		}
		p = payload_new();
		if (!p)
			return CUDA_ERROR_OUT_OF_MEMORY;
		p->cp = *c;
		op.kind = OP_COPY3D;
		break;
	}
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return emit_graph(n->u.child, out, depth + 1);
	case CU_GRAPH_NODE_TYPE_HOST:
		/* Called where it stands, as sim_cuLaunchHostFunc's are (sim_host.c). */
		op.kind = OP_HOST;
		op.host = n->u.host.fn;
		op.host_data = n->u.host.userData;
		break;
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		p = payload_new();
		if (!p)
			return CUDA_ERROR_OUT_OF_MEMORY;
		p->ev = n->u.ev;
		p->ev->graph_refs++;
		op.kind = OP_EVREC;
		break;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		p = payload_new();
		if (!p)
			return CUDA_ERROR_OUT_OF_MEMORY;
		p->h = n->u.cond.h;
		p->h->refs++;
		p->type = n->u.cond.type;
		p->size = n->u.cond.size;
		p->bodies = calloc(p->size, sizeof(*p->bodies));
		if (!p->bodies)
			r = CUDA_ERROR_OUT_OF_MEMORY;
		for (unsigned int b = 0; b < p->size && !r; b++)
			r = emit_graph(n->u.cond.bodies[b], &p->bodies[b], depth + 1);
		op.kind = OP_COND;
		break;
	default:
		/* Empty, event wait and memory nodes do nothing when the sim runs them. */
		return CUDA_SUCCESS;
	}
	op.pl = p;
	if (!r && opv_add(out, &op))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r) {
		free(op.params);
		if (p)
			payload_put(p);
	}
	return r;
}

/* A graph's captured operations, then its nodes' in order. */
static CUresult emit_graph(const struct sim_graph *g, struct opv *out, unsigned int depth)
{
	size_t *ord = NULL;
	CUresult r = CUDA_SUCCESS;

	if (depth > SIM_GRAPH_DEPTH_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < g->n && !r; i++) {
		struct sim_op op = g->ops[i];

		sim_graph_op_get(&op);
		if (op.kind == OP_KERNEL) {
			op.params = malloc(g->ops[i].params_size ? g->ops[i].params_size : 1);
			if (op.params)
				memcpy(op.params, g->ops[i].params, g->ops[i].params_size);
		}
		if ((op.kind == OP_KERNEL && !op.params) || opv_add(out, &op)) {
			if (op.kind == OP_KERNEL)
				free(op.params);
			sim_graph_op_put(&op);
			r = CUDA_ERROR_OUT_OF_MEMORY;
		}
	}
	if (r || !g->gn || !g->gn->all.n)
		return r;
	r = order_of(g->gn, &ord);
	for (size_t i = 0; !r && i < g->gn->all.n; i++)
		r = emit_node(g->gn->all.v[ord[i]], out, depth);
	free(ord);
	return r;
}

CUresult sim_graph_flatten(const struct sim_graph *g, struct sim_op **ops, size_t *n)
{
	struct opv v = { 0 };
	CUresult r = emit_graph(g, &v, 0);

	if (r) {
		opv_free(&v);
		*ops = NULL;
		*n = 0;
		return r;
	}
	*ops = v.v ? v.v : calloc(1, sizeof(struct sim_op));
	*n = v.n;
	return *ops ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* ---- executable graphs: their nodes ---- */

static void xnodes_free(struct sim_xnodes *x)
{
	if (!x)
		return;
	free(x->orig);
	free(x->cur);
	free(x->type);
	free(x->dep_at);
	free(x->dep);
	free(x);
}

/* g's shape: its nodes' serials and types, and its edges by position. */
static struct sim_xnodes *shape_of(const struct sim_graph *g)
{
	struct sim_xnodes *x = calloc(1, sizeof(*x));
	size_t n = g->gn ? g->gn->all.n : 0, e = 0;

	if (!x)
		return NULL;
	x->n = n;
	x->ncaptured = g->n;
	x->mem = has_mem(g);
	for (size_t i = 0; i < n; i++)
		e += g->gn->all.v[i]->deps.n;
	x->orig = calloc(n + 1, sizeof(*x->orig));
	x->cur = calloc(n + 1, sizeof(*x->cur));
	x->type = calloc(n + 1, sizeof(*x->type));
	x->dep_at = calloc(n + 1, sizeof(*x->dep_at));
	x->dep = calloc(e + 1, sizeof(*x->dep));
	if (!x->orig || !x->cur || !x->type || !x->dep_at || !x->dep) {
		xnodes_free(x);
		return NULL;
	}
	e = 0;
	for (size_t i = 0; i < n; i++)
		g->gn->all.v[i]->pos = i;
	for (size_t i = 0; i < n; i++) {
		const struct sim_gnode *nd = g->gn->all.v[i];

		x->orig[i] = x->cur[i] = nd->serial;
		x->type[i] = nd->type;
		x->dep_at[i] = e;
		for (size_t j = 0; j < nd->deps.n; j++)
			x->dep[e++] = nd->deps.v[j]->pos;
	}
	x->dep_at[n] = e;
	return x;
}

CUresult sim_graph_exec_made(struct sim_exec *e, const struct sim_graph *g)
{
	e->xn = shape_of(g);
	return e->xn ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

void sim_graph_exec_gone(struct sim_exec *e)
{
	xnodes_free(e->xn);
	e->xn = NULL;
}

/* The serial e's operations carry for node n (of the graph it was made or updated from). */
static uint64_t exec_serial(const struct sim_exec *e, const struct sim_gnode *n)
{
	for (size_t i = 0; e->xn && i < e->xn->n; i++)
		if (e->xn->orig[i] == n->serial || e->xn->cur[i] == n->serial)
			return e->xn->cur[i];
	return 0;
}

static CUresult exec_node(CUgraphExec he, CUgraphNode hn, struct sim_exec **e,
			  struct sim_gnode **n, uint64_t *serial)
{
	CTX_OK();
	*e = (struct sim_exec *)he;
	*n = (struct sim_gnode *)hn;
	if (!sim_is(he, K_EXEC) || !sim_is(hn, K_GNODE))
		return CUDA_ERROR_INVALID_VALUE;
	*serial = exec_serial(*e, *n);
	return *serial ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/*
 * A node's operation in an executable graph, replaced by what the new
 * parameters make of it: a node that makes one operation at the top of
 * the graph.
 */
CUresult sim_cuGraphExecNodeSetParams(CUgraphExec he, CUgraphNode hn, CUgraphNodeParams *np)
{
	struct sim_gnode *n, tmp;
	struct opv v = { 0 };
	struct sim_exec *e;
	uint64_t serial;
	size_t at = SIZE_MAX, count = 0;
	CUresult r;

	r = exec_node(he, hn, &e, &n, &serial);
	if (r)
		return r;
	if (!np || np->type != n->type || n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
	    n->type == CU_GRAPH_NODE_TYPE_MEM_FREE || n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		return CUDA_ERROR_INVALID_VALUE;
	if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
		return SIM_REFUSE("changes of a child graph in an executable graph");
	for (size_t i = 0; i < e->n; i++) {
		if (e->ops[i].node == serial) {
			at = i;
			count++;
		}
	}
	tmp = *n;
	memset(&tmp.u, 0, sizeof(tmp.u));
	tmp.serial = serial;
	r = node_set(&tmp, NULL, np);
	if (!r)
		r = emit_node(&tmp, &v, 0);
	node_release(&tmp);
	if (!r && (v.n != count || count > 1))
		r = v.n || count ? SIM_REFUSE("changes of nodes of conditional bodies in an "
					      "executable graph") : CUDA_SUCCESS;
	if (!r && count) {
		struct sim_op *old = &e->ops[at];

		v.v[0].off = old->off;
		free(old->params);
		sim_graph_op_put(old);
		*old = v.v[0];
		v.n = 0;
	}
	opv_free(&v);
	return r;
}

/* Kernel, memcpy and memset nodes: their operations are skipped while disabled. */
CUresult sim_cuGraphNodeSetEnabled(CUgraphExec he, CUgraphNode hn, unsigned int on)
{
	struct sim_gnode *n;
	struct sim_exec *e;
	uint64_t serial;
	CUresult r = exec_node(he, hn, &e, &n, &serial);

	if (r)
		return r;
	if (n->type != CU_GRAPH_NODE_TYPE_KERNEL && n->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
	    n->type != CU_GRAPH_NODE_TYPE_MEMSET)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < e->n; i++)
		if (e->ops[i].node == serial)
			e->ops[i].off = !on;
	return CUDA_SUCCESS;
}

/*
 * An update pairs the graph's nodes with the executable graph's in the
 * order they were added: the same count, types and edges, or the
 * driver's verdict for what differs; then the operations are the
 * graph's, with the nodes disabled where they were.
 */
CUresult sim_cuGraphExecUpdate(CUgraphExec he, CUgraph h, CUgraphExecUpdateResultInfo *info)
{
	struct sim_exec *e = (struct sim_exec *)he;
	const struct sim_graph *g = (const struct sim_graph *)h;
	const struct sim_xnodes *x;
	struct sim_xnodes *nx;
	struct sim_op *ops;
	size_t nops;
	CUresult r;

	CTX_OK();
	if (!sim_is(he, K_EXEC) || !sim_is(h, K_GRAPH) || !info)
		return CUDA_ERROR_INVALID_VALUE;
	memset(info, 0, sizeof(*info));
	x = e->xn;
	nx = shape_of(g);
	if (!nx)
		return CUDA_ERROR_OUT_OF_MEMORY;
	info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
	if (nx->n != x->n || nx->ncaptured != x->ncaptured) {
		info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
	} else if (nx->mem || x->mem) {
		info->result = CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED;
	} else {
		for (size_t i = 0; i < x->n && info->result == CU_GRAPH_EXEC_UPDATE_SUCCESS; i++) {
			CUgraphNode node = (CUgraphNode)g->gn->all.v[i];

			if (nx->type[i] != x->type[i]) {
				info->result = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
				info->errorNode = node;
				break;
			}
			if (nx->dep_at[i + 1] - nx->dep_at[i] != x->dep_at[i + 1] - x->dep_at[i]) {
				info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
				info->errorNode = node;
				break;
			}
			for (size_t j = 0; j < nx->dep_at[i + 1] - nx->dep_at[i]; j++) {
				if (nx->dep[nx->dep_at[i] + j] != x->dep[x->dep_at[i] + j]) {
					info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
					info->errorNode = node;
					info->errorFromNode = (CUgraphNode)
						g->gn->all.v[nx->dep[nx->dep_at[i] + j]];
					break;
				}
			}
		}
	}
	if (info->result != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
		xnodes_free(nx);
		return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
	}
	r = sim_graph_flatten(g, &ops, &nops);
	if (r) {
		xnodes_free(nx);
		info->result = CU_GRAPH_EXEC_UPDATE_ERROR;
		return r;
	}
	/* Disabled nodes stay disabled: by position, their new serials. */
	for (size_t i = 0; i < nops; i++)
		for (size_t k = 0; k < x->n; k++)
			if (ops[i].node && ops[i].node == nx->cur[k])
				for (size_t j = 0; j < e->n; j++)
					if (e->ops[j].node == x->cur[k] && e->ops[j].off)
						ops[i].off = true;
	sim_ops_free(e->ops, e->n);
	e->ops = ops;
	e->n = nops;
	for (size_t i = 0; i < x->n; i++)
		e->xn->cur[i] = nx->cur[i];
	xnodes_free(nx);
	return CUDA_SUCCESS;
}
