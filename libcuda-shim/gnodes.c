// SPDX-License-Identifier: MIT
/*
 * Graphs built node by node (Documentation/design.md, "Graphs built node
 * by node").  Nodes are handles the shim mints, like graphs: making one
 * sends a record and returns at once, and the shim keeps its own copy of
 * each graph it builds (the nodes in the order they were added, their
 * parameters, the edges both ways), from which every question about the
 * graph's structure and its nodes' parameters is answered.  The worker
 * makes the same graph with the driver (broker/wk_graph.c).
 *
 * Every function that makes a node, whatever its kind, sends one record
 * of cuGraphAddNode with the node described by struct gleam_gnode
 * (uapi/gleam_graph.h); every change of parameters one record of
 * cuGraphNodeSetParams or cuGraphExecNodeSetParams.  What the driver
 * checks at the call is checked here first (handles, that nodes belong
 * to the graph, launch dimensions and parameter blocks, copies and fills
 * against the allocations the shim knows), so that a record that cannot
 * report its own error is rarely refused on the server; what is left is
 * reported by the next call that waits.
 *
 * Host memory in a memcpy node cannot be read by the server's GPU when
 * the graph runs: it is staged through device memory of the graph's, as
 * a captured copy is (graph.c), and every launch copies it in and out.
 *
 * Locking: gn.lock guards every graph's nodes and edges.  It is never
 * held across a record (a record may meet the capture gate, which takes
 * its own lock and may put graphs, which takes this one).
 */
#include <stdlib.h>

#include "cuarray.h"
#include "gleam_graph.h"
#include "shim.h"
#include "util.h"

/* A set of nodes: a graph's, a node's dependencies or its dependents. */
struct nodes {
	struct shim_gnode **v;
	size_t n, cap;
};

struct shim_gnodes {
	struct nodes all;		/* in the order they were added */
	struct shim_gnode *owner;	/* a body graph: its conditional node */
	unsigned int conds;		/* conditional nodes in it */
	unsigned int mem_nodes;		/* allocation and free nodes in it */
	bool hosts;			/* host functions run in it, or did (hosts_mark) */
};

struct kernel_node {
	struct shim_func *f;		/* a function, or a kernel */
	bool is_kernel;			/* given as CUkernel (kern) */
	unsigned int grid[3], block[3], shmem;
	CUkernel kern;			/* kern and ctx as given: GetParams answers them */
	CUcontext ctx;
	unsigned char *buf;		/* the packed parameters */
	uint64_t len;
	void **kp;			/* into buf, a parameter each: what GetParams gives */
};

struct cond_node {
	CUgraphConditionalHandle handle;
	CUgraphConditionalNodeType type;
	unsigned int size;
	CUcontext ctx;
	CUgraph *bodies;		/* the node's; what phGraph_out points to */
};

struct shim_gnode {
	struct shim_obj o;
	struct shim_graph *g;
	uint64_t gid;			/* g's id: a recycled graph object is not g */
	CUgraphNodeType type;
	struct nodes deps, outs;
	uint64_t origin;		/* in a clone: the id of the node it copies */
	bool hosts;			/* a host node, or a child graph with host nodes */
	union {
		struct kernel_node k;
		struct {
			CUDA_MEMCPY3D p;	/* as the program gave it */
			CUcontext ctx;
			bool staged;
		} cp;
		struct {
			CUDA_MEMSET_NODE_PARAMS p;
			CUcontext ctx;
		} set;
		CUDA_HOST_NODE_PARAMS host;
		CUgraph child;
		CUevent ev;
		CUDA_MEM_ALLOC_NODE_PARAMS alloc;
		CUdeviceptr free;
		struct cond_node cond;
	} u;
};

/* Nodes disabled in an executable graph, by id. */
struct shim_disabled {
	size_t n, cap;
	uint64_t id[];
};

/* A conditional handle: the graph it was made for and its context. */
struct condh {
	CUgraphConditionalHandle value;
	uint64_t gid;
	uint64_t ctx;
};

static struct {
	pthread_mutex_t lock;
	struct condh *h;
	size_t nh, caph;
} gn = { .lock = PTHREAD_MUTEX_INITIALIZER };

size_t shim_gnode_size(void)
{
	return sizeof(struct shim_gnode);
}

/* ---- sets of nodes ---- */

/* The answer of the driver's list questions: count, or up to *num entries and NULLs. */
static void nodes_out(const struct nodes *s, CUgraphNode *out, CUgraphEdgeData *edges,
		      size_t *num)
{
	if (out) {
		for (size_t i = 0; i < *num; i++) {
			out[i] = i < s->n ? (CUgraphNode)s->v[i] : NULL;
			if (edges)
				memset(&edges[i], 0, sizeof(edges[i]));
		}
		*num = MIN(*num, s->n);
		return;
	}
	*num = s->n;
}

/* ---- graphs and nodes as handles ---- */

/* Lock held: the graph's node list, made on first use. */
static struct shim_gnodes *graph_gn(struct shim_graph *g)
{
	if (!g->gn)
		g->gn = calloc(1, sizeof(*g->gn));
	return g->gn;
}

/* A handle of the wrong kind is an invalid value to these functions. */
static CUresult as_value(CUresult r)
{
	return r == CUDA_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : r;
}

static CUresult graph_get(CUgraph h, struct shim_graph **g)
{
	return as_value(shim_obj_get(GL_H_GRAPH, h, (struct shim_obj **)g));
}

/* Lock held: a live node of a live graph. */
static CUresult node_get(CUgraphNode h, struct shim_gnode **n)
{
	struct shim_obj *o;

	if (shim_obj_get(GL_H_GRAPHNODE, h, &o))
		return CUDA_ERROR_INVALID_VALUE;
	*n = (struct shim_gnode *)o;
	if ((*n)->g->o.magic != (SHIM_OBJ_MAGIC | GL_H_GRAPH) || (*n)->g->o.id != (*n)->gid)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

static CUresult exec_get(CUgraphExec h, struct shim_exec **e)
{
	return as_value(shim_obj_get(GL_H_GRAPHEXEC, h, (struct shim_obj **)e));
}

/* The context a node names, or the current one for NULL: its id. */
static CUresult ctx_of(CUcontext ctx, __u64 *id)
{
	struct shim_ctx *cur;

	if (ctx)
		return shim_handle_id(GL_H_CTX, ctx, id);
	cur = shim_current();
	if (!cur)
		return CUDA_ERROR_INVALID_CONTEXT;
	*id = cur->o.id;
	return CUDA_SUCCESS;
}

/* ---- a node's parameters, checked and described ---- */

/* What a node's parameters become: the record's description and what the node keeps. */
struct prep {
	struct gleam_gnode w;
	void *var;			/* the record's variable part (owned) */
	size_t var_len;
	struct shim_gnode keep;		/* its u, for the node */
	CUgraph *bodies;		/* a conditional node's body graphs, minted */
	bool hosts;			/* the node runs host functions */
};

static void prep_free(struct prep *p)
{
	free(p->var);
	p->var = NULL;
	if (p->w.type == CU_GRAPH_NODE_TYPE_KERNEL) {
		free(p->keep.u.k.buf);
		free(p->keep.u.k.kp);
	}
	if (p->bodies) {
		for (unsigned int i = 0; i < p->keep.u.cond.size; i++)
			if (p->bodies[i])
				shim_obj_put((struct shim_obj *)p->bodies[i]);
		free(p->bodies);
		p->bodies = NULL;
	}
}

static CUresult prep_kernel(const CUDA_KERNEL_NODE_PARAMS_v3 *k, struct prep *p)
{
	struct kernel_node *kn = &p->keep.u.k;
	unsigned char *buf;
	struct shim_func *f;
	uint64_t len;
	CUresult r;

	if (k->func)
		r = shim_func_get(k->func, &f);
	else if (k->kern)
		r = shim_func_of(GL_H_KERNEL, k->kern, &f);
	else
		return CUDA_ERROR_INVALID_VALUE;
	if (r)
		return as_value(r);
	kn->f = f;
	kn->is_kernel = !k->func;
	kn->grid[0] = k->gridDimX;
	kn->grid[1] = k->gridDimY;
	kn->grid[2] = k->gridDimZ;
	kn->block[0] = k->blockDimX;
	kn->block[1] = k->blockDimY;
	kn->block[2] = k->blockDimZ;
	kn->shmem = k->sharedMemBytes;
	kn->kern = k->kern;
	kn->ctx = k->ctx;
	r = shim_check_dims(f, kn->grid, kn->block, kn->shmem);
	if (r)
		return r;
	buf = malloc(GLEAM_PARAMS_MAX + 8);
	if (!buf)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = shim_pack_params(f, k->kernelParams, k->extra, buf, &len);
	if (r) {
		free(buf);
		return r;
	}
	kn->buf = realloc(buf, len ? len : 1);
	if (!kn->buf)
		kn->buf = buf;
	kn->len = len;
	/* What GetParams hands out: the parameters where the layout puts them. */
	kn->kp = calloc(f->nparams ? f->nparams : 1, sizeof(*kn->kp));
	if (!kn->kp)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i].offset < len)
			kn->kp[i] = kn->buf + f->params[i].offset;
	/* A kernel runs in the context the node names; a function in its own. */
	r = ctx_of(k->func ? NULL : k->ctx, &p->w.ctx);
	if (r)
		return r;
	p->w.kernel.func = f->o.id;
	memcpy(p->w.kernel.grid, kn->grid, sizeof(kn->grid));
	memcpy(p->w.kernel.block, kn->block, sizeof(kn->block));
	p->w.kernel.shared_bytes = kn->shmem;
	p->w.kernel.params_len = len;
	p->var = malloc(len ? len : 1);
	if (!p->var)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(p->var, kn->buf, len);
	p->var_len = len;
	return CUDA_SUCCESS;
}

/*
 * Host nodes and copies of host memory do not mix in one graph.  Every
 * launch copies the stages in before the graph and out after it (graph.c),
 * not where the graph has the copies: a host node after a copy to host
 * memory would find the memory as it was before the launch, and a copy
 * from host memory after a host node would not see what the node wrote.
 * The graph at the top holds the stages; a graph where host functions run
 * says so to the graphs above it (a conditional node's bodies to the
 * node's graph); a child graph's nodes are known when it is added.  Once a
 * graph has had a host node, it keeps the mark: a stricter refusal than
 * needed after the node is destroyed.
 */
static struct shim_graph *top_of(struct shim_graph *g)
{
	pthread_mutex_lock(&gn.lock);
	while (g->gn && g->gn->owner)
		g = g->gn->owner->g;
	pthread_mutex_unlock(&gn.lock);
	return g;
}

static bool runs_hosts(const struct shim_graph *g)
{
	bool b;

	pthread_mutex_lock(&gn.lock);
	b = g->gn && g->gn->hosts;
	pthread_mutex_unlock(&gn.lock);
	return b;
}

/* Lock held: g and the graphs above it run host functions. */
static void hosts_mark(struct shim_graph *g)
{
	for (;;) {
		if (g->gn)
			g->gn->hosts = true;
		if (!g->gn || !g->gn->owner)
			break;
		g->gn->owner->hosts = true;
		g = g->gn->owner->g;
	}
}

static CUresult hosts_refuse(void)
{
	return SHIM_REFUSE("a graph with both host nodes and memcpy nodes of host memory is "
			   "not supported by Gleam (its copies of host memory are made before "
			   "and after each launch, not in the graph's order): returning "
			   "CUDA_ERROR_NOT_SUPPORTED");
}

/* A node changed to run host functions (a child graph), in a graph with stages. */
static CUresult set_hosts_ok(struct shim_gnode *n, const struct prep *p)
{
	if (p->hosts && !n->hosts && shim_graph_staged(top_of(n->g)))
		return hosts_refuse();
	return CUDA_SUCCESS;
}

/*
 * One end of a memcpy node in host memory becomes a stage: device memory
 * of the graph's that holds the host bytes of the copy from its first to
 * its last, with the host's rows and slices, so that the copy reads or
 * writes it as it would the host memory.  A copy to host memory must be
 * dense (no gaps between its rows), or every launch would write the
 * stage's stale gaps over the program's memory.
 */
static CUresult stage_end(struct shim_graph *g, const CUDA_MEMCPY3D *cp, bool to_host,
			  struct gleam_copy_end *w)
{
	size_t x = to_host ? cp->dstXInBytes : cp->srcXInBytes;
	size_t y = to_host ? cp->dstY : cp->srcY, z = to_host ? cp->dstZ : cp->srcZ;
	size_t pitch = to_host ? cp->dstPitch : cp->srcPitch;
	size_t rows = to_host ? cp->dstHeight : cp->srcHeight;
	char *host = (char *)(to_host ? cp->dstHost : cp->srcHost);
	uint64_t first, span, dense;
	CUdeviceptr stage;
	CUresult r;

	if (cp->srcMemoryType == CU_MEMORYTYPE_UNIFIED ||
	    cp->dstMemoryType == CU_MEMORYTYPE_UNIFIED) {
		/* shim_copy3d_check found it to be host memory: its address is the pointer. */
		if (to_host && cp->dstMemoryType == CU_MEMORYTYPE_UNIFIED)
			host = (char *)(uintptr_t)cp->dstDevice;
		if (!to_host && cp->srcMemoryType == CU_MEMORYTYPE_UNIFIED)
			host = (char *)(uintptr_t)cp->srcDevice;
	}
	if (!gl_copy_span(x, y, z, pitch, rows, cp->WidthInBytes, cp->Height, cp->Depth, &first,
			  &span) || !span)
		return CUDA_ERROR_INVALID_VALUE;
	if (g->gn && g->gn->owner)
		return SHIM_REFUSE("a memcpy node with host memory in a conditional node's body "
				   "is not supported by Gleam (the server cannot reach this "
				   "process's memory): returning CUDA_ERROR_NOT_SUPPORTED");
	if (runs_hosts(g))
		return hosts_refuse();
	dense = (uint64_t)cp->WidthInBytes * cp->Height * cp->Depth;
	if (to_host && span != dense)
		return SHIM_REFUSE("a memcpy node to host rows with gaps between them is not "
				   "supported by Gleam (the server cannot reach this process's "
				   "memory): returning CUDA_ERROR_NOT_SUPPORTED");
	r = shim_graph_stage_add(g, to_host, host + first, span, &stage);
	if (r)
		return r;
	memset(w, 0, sizeof(*w));
	w->type = CU_MEMORYTYPE_DEVICE;
	w->ptr = stage;
	/* The stage holds the bytes from the copy's first on: its rows at their pitch. */
	w->pitch = cp->Height == 1 && cp->Depth == 1 && !y && !z ? cp->WidthInBytes : pitch;
	w->height = cp->Depth > 1 ? rows : cp->Height;
	return CUDA_SUCCESS;
}

static CUresult prep_memcpy(struct shim_graph *g, const CUDA_MEMCPY3D *cp, CUcontext ctx,
			    struct prep *p)
{
	char *src_host, *dst_host;
	CUresult r;

	if (!cp)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_copy3d_check(cp, &p->w.copy, &src_host, &dst_host);
	if (r)
		return r;
	if (src_host && dst_host)
		return SHIM_REFUSE("a memcpy node between two host buffers is not supported by "
				   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
	p->keep.u.cp.p = *cp;
	p->keep.u.cp.ctx = ctx;
	r = ctx_of(ctx, &p->w.ctx);
	if (r || (!src_host && !dst_host))
		return r;
	/* A node's own parameters can change; a stage cannot follow them (g NULL). */
	if (!g)
		return SHIM_REFUSE("memcpy node parameters with host memory cannot be changed "
				   "through Gleam (its stage is fixed when the node is made): "
				   "returning CUDA_ERROR_NOT_SUPPORTED");
	p->keep.u.cp.staged = true;
	return src_host ? stage_end(g, cp, false, &p->w.copy.src) :
			  stage_end(g, cp, true, &p->w.copy.dst);
}

static CUresult prep_memset(const CUDA_MEMSET_NODE_PARAMS *m, CUcontext ctx, struct prep *p)
{
	uint64_t row, span;

	if (!m)
		return CUDA_ERROR_INVALID_VALUE;
	if (m->elementSize != 1 && m->elementSize != 2 && m->elementSize != 4)
		return CUDA_ERROR_INVALID_VALUE;
	if (!m->width || !m->height)
		return CUDA_ERROR_INVALID_VALUE;
	if (__builtin_mul_overflow((uint64_t)m->width, m->elementSize, &row))
		return CUDA_ERROR_INVALID_VALUE;
	if (m->height > 1 && m->pitch < row)
		return CUDA_ERROR_INVALID_VALUE;
	if (__builtin_mul_overflow((uint64_t)m->pitch, (uint64_t)m->height - 1, &span) ||
	    __builtin_add_overflow(span, row, &span) || span > SIZE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	if (shim_check_range(m->dst, (size_t)span))
		return CUDA_ERROR_INVALID_VALUE;
	p->keep.u.set.p = *m;
	p->keep.u.set.ctx = ctx;
	p->w.memset.dst = m->dst;
	p->w.memset.pitch = m->height > 1 ? m->pitch : 0;
	p->w.memset.value = m->value;
	p->w.memset.element_size = m->elementSize;
	p->w.memset.width = m->width;
	p->w.memset.height = m->height;
	return ctx_of(ctx, &p->w.ctx);
}

/*
 * Host nodes run a function of this process at each launch, as a host
 * function queued on a capturing stream does (hostfn.c): the record names
 * it by an id that the shim keeps for the session, and the worker's
 * trampoline has the shim run it where the graph gets to it.  A change of
 * parameters is a new id: an executable graph may still hold the old one.
 */
static CUresult prep_host(struct shim_graph *g, const CUDA_HOST_NODE_PARAMS *h,
			  struct prep *p)
{
	uint64_t id;
	CUresult r;

	if (!h || !h->fn)
		return CUDA_ERROR_INVALID_VALUE;
	/* g: a node being added (a change of parameters changes no order). */
	if (g && shim_graph_staged(top_of(g)))
		return hosts_refuse();
	r = ctx_of(NULL, &p->w.ctx);
	if (!r)
		r = shim_host_node(h->fn, h->userData, &id);
	if (r)
		return r;
	p->keep.u.host = *h;
	p->w.host = id;
	p->hosts = true;
	return CUDA_SUCCESS;
}

static CUresult prep_child(struct shim_graph *parent, const CUDA_CHILD_GRAPH_NODE_PARAMS *c,
			   struct prep *p)
{
	struct shim_graph *child;
	CUresult r;

	r = graph_get(c->graph, &child);
	if (r)
		return r;
	if (c->ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
		return SHIM_REFUSE("child graph nodes that take their graph over "
				   "(CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE) are not supported by "
				   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
	if (child == parent)
		return CUDA_ERROR_INVALID_VALUE;
	if (shim_graph_staged(child))
		return SHIM_REFUSE("a child graph that copies host memory is not supported by "
				   "Gleam (its stages belong to the child): returning "
				   "CUDA_ERROR_NOT_SUPPORTED");
	p->hosts = runs_hosts(child);
	if (p->hosts && parent && shim_graph_staged(top_of(parent)))
		return hosts_refuse();
	p->keep.u.child = c->graph;
	p->w.graph = child->o.id;
	return ctx_of(NULL, &p->w.ctx);
}

static CUresult prep_event(CUevent ev, struct prep *p)
{
	CUresult r = shim_handle_id(GL_H_EVENT, ev, &p->w.event);

	if (r)
		return as_value(r);
	p->keep.u.ev = ev;
	return ctx_of(NULL, &p->w.ctx);
}

/*
 * Memory a graph allocates: device memory of one device, not shared
 * with others (no access descriptors), not exportable.
 */
static CUresult prep_alloc(const CUDA_MEM_ALLOC_NODE_PARAMS *a, struct prep *p)
{
	const CUmemPoolProps *pp = &a->poolProps;

	if (!a->bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE || pp->handleTypes)
		return SHIM_REFUSE("memory allocation nodes of host or managed memory, or of "
				   "memory other processes can import, are not supported by "
				   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
	if (shim_dev_check(pp->location.id))
		return CUDA_ERROR_INVALID_VALUE;
	if (a->accessDescCount || a->accessDescs)
		return SHIM_REFUSE("memory allocation nodes with access descriptors (peer "
				   "access) are not supported by Gleam: returning "
				   "CUDA_ERROR_NOT_SUPPORTED");
	p->keep.u.alloc = *a;
	p->w.alloc.bytesize = a->bytesize;
	p->w.alloc.location_type = pp->location.type;
	p->w.alloc.location_id = pp->location.id;
	p->w.alloc.alloc_type = pp->allocType;
	return ctx_of(NULL, &p->w.ctx);
}

/* Lock held: the conditional handle value was made for graph g or one it is a body of. */
static CUresult cond_handle_ok(struct shim_graph *g, CUgraphConditionalHandle h, uint64_t *ctx)
{
	for (size_t i = 0; i < gn.nh; i++) {
		if (gn.h[i].value != h)
			continue;
		for (struct shim_graph *a = g; a;) {
			if (a->o.id == gn.h[i].gid) {
				*ctx = gn.h[i].ctx;
				return CUDA_SUCCESS;
			}
			a = a->gn && a->gn->owner ? a->gn->owner->g : NULL;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/*
 * A conditional node: the driver makes its body graphs, which the
 * program then fills; the shim mints their handles now, and the record
 * names them for the worker to map.
 */
static CUresult prep_cond(struct shim_graph *g, const CUDA_CONDITIONAL_NODE_PARAMS *c,
			  struct prep *p)
{
	struct cond_node *cn = &p->keep.u.cond;
	uint64_t hctx, *ids;
	__u64 ctx;
	CUresult r;

	switch (c->type) {
	case CU_GRAPH_COND_TYPE_IF:
		if (c->size != 1 && c->size != 2)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_GRAPH_COND_TYPE_WHILE:
		if (c->size != 1)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_GRAPH_COND_TYPE_SWITCH:
		if (!c->size || c->size > GLEAM_GNODE_BODIES_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&gn.lock);
	r = cond_handle_ok(g, c->handle, &hctx);
	pthread_mutex_unlock(&gn.lock);
	if (r)
		return r;
	r = ctx_of(c->ctx, &ctx);
	if (r)
		return r;
	if (ctx != hctx)
		return CUDA_ERROR_INVALID_VALUE;
	cn->handle = c->handle;
	cn->type = c->type;
	cn->size = c->size;
	cn->ctx = c->ctx;
	p->bodies = calloc(c->size, sizeof(*p->bodies));
	ids = calloc(c->size, sizeof(*ids));
	p->var = ids;
	if (!p->bodies || !ids)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (unsigned int i = 0; i < c->size; i++) {
		struct shim_graph *b = (struct shim_graph *)shim_obj_new(GL_H_GRAPH);

		if (!b || !(b->gn = calloc(1, sizeof(*b->gn)))) {
			if (b)
				shim_obj_put(&b->o);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		p->bodies[i] = (CUgraph)b;
		ids[i] = b->o.id;
	}
	p->var_len = c->size * sizeof(*ids);
	p->w.ctx = ctx;
	p->w.cond.handle = c->handle;
	p->w.cond.type = c->type;
	p->w.cond.size = c->size;
	return CUDA_SUCCESS;
}

/* Unused bytes of CUgraphNodeParams must be zero, the driver says: they are checked. */
static bool zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

#define TAIL_ZERO(np, member) \
	zero((const char *)&(np)->member + sizeof((np)->member), \
	     sizeof((np)->reserved1) - sizeof((np)->member))

/*
 * Parameters of a node of graph g (NULL for a change of an existing
 * node's, where nothing may be staged), described and kept.
 */
static CUresult prep(struct shim_graph *g, const CUgraphNodeParams *np, struct prep *p)
{
	memset(p, 0, sizeof(*p));
	if (!np || np->reserved0[0] || np->reserved0[1] || np->reserved0[2] || np->reserved2)
		return CUDA_ERROR_INVALID_VALUE;
	p->w.type = np->type;
	p->keep.type = np->type;
	switch (np->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		if (!TAIL_ZERO(np, kernel))
			return CUDA_ERROR_INVALID_VALUE;
		return prep_kernel(&np->kernel, p);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (np->memcpy.flags || np->memcpy.reserved || !TAIL_ZERO(np, memcpy))
			return CUDA_ERROR_INVALID_VALUE;
		return prep_memcpy(g, &np->memcpy.copyParams, np->memcpy.copyCtx, p);
	case CU_GRAPH_NODE_TYPE_MEMSET: {
		const CUDA_MEMSET_NODE_PARAMS_v2 *m = &np->memset;
		CUDA_MEMSET_NODE_PARAMS v1 = { m->dst, m->pitch, m->value, m->elementSize,
					       m->width, m->height };

		if (!TAIL_ZERO(np, memset))
			return CUDA_ERROR_INVALID_VALUE;
		return prep_memset(&v1, m->ctx, p);
	}
	case CU_GRAPH_NODE_TYPE_HOST: {
		CUDA_HOST_NODE_PARAMS h = { np->host.fn, np->host.userData };

		return prep_host(g, &h, p);
	}
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return prep_child(g, &np->graph, p);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return ctx_of(NULL, &p->w.ctx);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return prep_event(np->eventWait.event, p);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return prep_event(np->eventRecord.event, p);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
		const CUDA_MEM_ALLOC_NODE_PARAMS_v2 *a = &np->alloc;
		CUDA_MEM_ALLOC_NODE_PARAMS v1 = { a->poolProps, a->accessDescs,
						  a->accessDescCount, a->bytesize, 0 };

		return prep_alloc(&v1, p);
	}
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		if (!np->free.dptr)
			return CUDA_ERROR_INVALID_VALUE;
		p->keep.u.free = np->free.dptr;
		p->w.dptr = np->free.dptr;
		return ctx_of(NULL, &p->w.ctx);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		if (!g)
			return SHIM_REFUSE("a conditional node's parameters cannot be changed: "
					   "returning CUDA_ERROR_NOT_SUPPORTED");
		return prep_cond(g, &np->conditional, p);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return SHIM_REFUSE("external semaphore nodes are not supported by Gleam: "
				   "returning CUDA_ERROR_NOT_SUPPORTED");
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return SHIM_REFUSE("batch memory operation nodes are not supported by Gleam: "
				   "returning CUDA_ERROR_NOT_SUPPORTED");
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* ---- making nodes ---- */

/* Only default edges: the ports and programmatic edges need kernels' cooperation. */
static CUresult edges_ok(const CUgraphEdgeData *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++)
		if (!zero(&e[i], sizeof(e[i])))
			return e[i].from_port || e[i].type ?
			       SHIM_REFUSE("graph edges other than the default (ports, "
					   "programmatic dependencies) are not supported by "
					   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED") :
			       CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* Lock held: n distinct live nodes of graph g, their ids into ids. */
static CUresult deps_ok(struct shim_graph *g, const CUgraphNode *deps, size_t n, uint64_t *ids)
{
	for (size_t i = 0; i < n; i++) {
		struct shim_gnode *d;

		if (node_get(deps[i], &d) || d->g != g)
			return CUDA_ERROR_INVALID_VALUE;
		for (size_t j = 0; j < i; j++)
			if (deps[j] == deps[i])
				return CUDA_ERROR_INVALID_VALUE;
		ids[i] = d->o.id;
	}
	return CUDA_SUCCESS;
}

/* Lock held: a node made, with its edges from deps (checked again: they may have gone). */
static int node_link(struct shim_graph *g, struct shim_gnode *n, const CUgraphNode *deps,
		     size_t ndeps)
{
	struct shim_gnodes *gs = graph_gn(g);

	if (!gs || gl_ptrs_add(&gs->all, n))
		return -1;
	for (size_t i = 0; i < ndeps; i++) {
		struct shim_gnode *d;

		if (node_get(deps[i], &d) || d->g != g)
			continue;
		if (gl_ptrs_add(&n->deps, d) || gl_ptrs_add(&d->outs, n))
			return -1;
	}
	if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		gs->conds++;
	if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
		gs->mem_nodes++;
	if (n->hosts)
		hosts_mark(g);
	/* A captured graph's count is the server's: asked again. */
	__atomic_store_n(&g->have_nodes, false, __ATOMIC_RELEASE);
	return 0;
}

static CUresult node_add(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps,
			 const CUgraphEdgeData *edges, size_t ndeps, CUgraphNodeParams *np)
{
	struct gl_a_cuGraphAddNode a = { 0 };
	struct gleam_gnode_alloc_reply ar = { 0 };
	struct shim_gnode *n = NULL;
	struct shim_graph *g;
	uint64_t *ids = NULL;
	struct iovec iov[3];
	struct shim_call c;
	struct prep p;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuGraphAddNode);
	if (r)
		return r;
	if (!out || !np || (ndeps && !deps) || ndeps > GLEAM_GNODE_DEPS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_get(hg, &g);
	if (!r)
		r = edges_ok(edges, ndeps);
	if (r)
		return r;
	ids = calloc(ndeps ? ndeps : 1, sizeof(*ids));
	if (!ids)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&gn.lock);
	r = deps_ok(g, deps, ndeps, ids);
	pthread_mutex_unlock(&gn.lock);
	if (r) {
		free(ids);
		return r;
	}
	r = prep(g, np, &p);
	if (!r) {
		n = (struct shim_gnode *)shim_obj_new(GL_H_GRAPHNODE);
		if (!n)
			r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r)
		goto fail;
	a.phGraphNode = n->o.id;
	a.hGraph = g->o.id;
	a.numDependencies = ndeps;
	iov[0] = (struct iovec){ ids, ndeps * sizeof(*ids) };
	iov[1] = (struct iovec){ &p.w, sizeof(p.w) };
	iov[2] = (struct iovec){ p.var, p.var_len };
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = p.var_len ? 3 : 2;
	/* The driver chooses an allocation's address: that node waits for it. */
	if (np->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
		c.force_sync = true;
		c.out = &ar;
		c.out_len = sizeof(ar);
	}
	r = shim_call(&c);
	if (r && c.waited)
		goto fail;
	if (np->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
		p.keep.u.alloc.dptr = (CUdeviceptr)ar.dptr;
		np->alloc.dptr = (CUdeviceptr)ar.dptr;
		shim_mem_keep((CUdeviceptr)ar.dptr, np->alloc.bytesize, c.ctx);
	}
	free(ids);
	ids = NULL;
	n->g = g;
	n->gid = g->o.id;
	n->type = np->type;
	n->hosts = p.hosts;
	n->u = p.keep.u;
	if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
		n->u.cond.bodies = p.bodies;
		for (unsigned int i = 0; i < n->u.cond.size; i++) {
			struct shim_graph *b = (struct shim_graph *)p.bodies[i];

			b->gn->owner = n;
			shim_obj_created(&b->o);
		}
		p.bodies = NULL;
		np->conditional.phGraph_out = n->u.cond.bodies;
	}
	free(p.var);
	pthread_mutex_lock(&gn.lock);
	if (node_link(g, n, deps, ndeps))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_unlock(&gn.lock);
	shim_obj_created(&n->o);
	*out = (CUgraphNode)n;
	return r;
fail:
	if (n)
		shim_obj_put(&n->o);
	prep_free(&p);
	free(ids);
	return r;
}

CUresult shim_cuGraphAddNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
			     const CUgraphEdgeData *edges, size_t ndeps, CUgraphNodeParams *np)
{
	return node_add(out, g, deps, edges, ndeps, np);
}

CUresult shim_cuGraphAddNode_v1(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				size_t ndeps, CUgraphNodeParams *np)
{
	return node_add(out, g, deps, NULL, ndeps, np);
}

/*
 * The specific forms, as CUgraphNodeParams: 0, or CUDA_ERROR_INVALID_VALUE
 * for parameters not given (np is then not to be used).
 */
static void np_init(CUgraphNodeParams *np, CUgraphNodeType type)
{
	memset(np, 0, sizeof(*np));
	np->type = type;
}

static void kernel_v3(CUDA_KERNEL_NODE_PARAMS_v3 *k, const CUDA_KERNEL_NODE_PARAMS_v1 *v1,
		      CUkernel kern, CUcontext ctx)
{
	memset(k, 0, sizeof(*k));
	k->func = v1->func;
	k->gridDimX = v1->gridDimX;
	k->gridDimY = v1->gridDimY;
	k->gridDimZ = v1->gridDimZ;
	k->blockDimX = v1->blockDimX;
	k->blockDimY = v1->blockDimY;
	k->blockDimZ = v1->blockDimZ;
	k->sharedMemBytes = v1->sharedMemBytes;
	k->kernelParams = v1->kernelParams;
	k->extra = v1->extra;
	k->kern = kern;
	k->ctx = ctx;
}

/* Either form of a kernel's parameters: v2 is the second, or NULL for the first (v1). */
static CUresult np_kernel(CUgraphNodeParams *np, const CUDA_KERNEL_NODE_PARAMS_v1 *v1,
			  const CUDA_KERNEL_NODE_PARAMS *v2)
{
	if (!v1)
		return CUDA_ERROR_INVALID_VALUE;
	np_init(np, CU_GRAPH_NODE_TYPE_KERNEL);
	kernel_v3(&np->kernel, v1, v2 ? v2->kern : NULL, v2 ? v2->ctx : NULL);
	return CUDA_SUCCESS;
}

_Static_assert(offsetof(CUDA_KERNEL_NODE_PARAMS, extra) ==
	       offsetof(CUDA_KERNEL_NODE_PARAMS_v1, extra), "v2 begins as v1");

static CUresult np_memcpy(CUgraphNodeParams *np, const CUDA_MEMCPY3D *cp, CUcontext ctx)
{
	if (!cp)
		return CUDA_ERROR_INVALID_VALUE;
	np_init(np, CU_GRAPH_NODE_TYPE_MEMCPY);
	np->memcpy.copyCtx = ctx;
	np->memcpy.copyParams = *cp;
	return CUDA_SUCCESS;
}

static CUresult np_memset(CUgraphNodeParams *np, const CUDA_MEMSET_NODE_PARAMS *m,
			  CUcontext ctx)
{
	if (!m)
		return CUDA_ERROR_INVALID_VALUE;
	np_init(np, CU_GRAPH_NODE_TYPE_MEMSET);
	np->memset.dst = m->dst;
	np->memset.pitch = m->pitch;
	np->memset.value = m->value;
	np->memset.elementSize = m->elementSize;
	np->memset.width = m->width;
	np->memset.height = m->height;
	np->memset.ctx = ctx;
	return CUDA_SUCCESS;
}

static CUresult np_host(CUgraphNodeParams *np, const CUDA_HOST_NODE_PARAMS *h)
{
	if (!h)
		return CUDA_ERROR_INVALID_VALUE;
	np_init(np, CU_GRAPH_NODE_TYPE_HOST);
	np->host.fn = h->fn;
	np->host.userData = h->userData;
	return CUDA_SUCCESS;
}

static CUresult np_child(CUgraphNodeParams *np, CUgraph child)
{
	np_init(np, CU_GRAPH_NODE_TYPE_GRAPH);
	np->graph.graph = child;
	return CUDA_SUCCESS;
}

static CUresult np_event(CUgraphNodeParams *np, CUgraphNodeType type, CUevent ev)
{
	np_init(np, type);
	if (type == CU_GRAPH_NODE_TYPE_EVENT_RECORD)
		np->eventRecord.event = ev;
	else
		np->eventWait.event = ev;
	return CUDA_SUCCESS;
}

/* node_add of a specific form, once built (built: np_*'s answer). */
static CUresult add_built(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
			  CUresult built, CUgraphNodeParams *np)
{
	return built ? built : node_add(out, g, deps, NULL, ndeps, np);
}

CUresult shim_cuGraphAddKernelNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				   size_t ndeps, const CUDA_KERNEL_NODE_PARAMS *k)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps,
			 np_kernel(&np, (const CUDA_KERNEL_NODE_PARAMS_v1 *)k, k), &np);
}

CUresult shim_cuGraphAddKernelNode_v1(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				      size_t ndeps, const CUDA_KERNEL_NODE_PARAMS_v1 *k)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps, np_kernel(&np, k, NULL), &np);
}

CUresult shim_cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				   size_t ndeps, const CUDA_MEMCPY3D *cp, CUcontext ctx)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps, np_memcpy(&np, cp, ctx), &np);
}

CUresult shim_cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				   size_t ndeps, const CUDA_MEMSET_NODE_PARAMS *m, CUcontext ctx)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps, np_memset(&np, m, ctx), &np);
}

CUresult shim_cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				 size_t ndeps, const CUDA_HOST_NODE_PARAMS *h)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps, np_host(&np, h), &np);
}

CUresult shim_cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				       size_t ndeps, CUgraph child)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps, np_child(&np, child), &np);
}

CUresult shim_cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				  size_t ndeps)
{
	CUgraphNodeParams np;

	np_init(&np, CU_GRAPH_NODE_TYPE_EMPTY);
	return node_add(out, g, deps, NULL, ndeps, &np);
}

CUresult shim_cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
					size_t ndeps, CUevent ev)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps,
			 np_event(&np, CU_GRAPH_NODE_TYPE_EVENT_RECORD, ev), &np);
}

CUresult shim_cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				      size_t ndeps, CUevent ev)
{
	CUgraphNodeParams np;

	return add_built(out, g, deps, ndeps,
			 np_event(&np, CU_GRAPH_NODE_TYPE_WAIT_EVENT, ev), &np);
}

CUresult shim_cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				     size_t ndeps, CUDA_MEM_ALLOC_NODE_PARAMS *a)
{
	CUgraphNodeParams np;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	np_init(&np, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
	np.alloc.poolProps = a->poolProps;
	np.alloc.accessDescs = a->accessDescs;
	np.alloc.accessDescCount = a->accessDescCount;
	np.alloc.bytesize = a->bytesize;
	r = node_add(out, g, deps, NULL, ndeps, &np);
	if (!r)
		a->dptr = np.alloc.dptr;
	return r;
}

CUresult shim_cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				    size_t ndeps, CUdeviceptr dptr)
{
	CUgraphNodeParams np;

	np_init(&np, CU_GRAPH_NODE_TYPE_MEM_FREE);
	np.free.dptr = dptr;
	return node_add(out, g, deps, NULL, ndeps, &np);
}

/* ---- changing parameters ---- */

/* What a node kept of its parameters goes; p's take its place. */
static void keep_replace(struct shim_gnode *n, struct prep *p)
{
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL) {
		free(n->u.k.buf);
		free(n->u.k.kp);
	}
	n->u = p->keep.u;
	p->keep.u.k.buf = NULL;
	p->keep.u.k.kp = NULL;
}

/* Lock held: whether a memcpy node's kept copy involves host memory. */
static bool node_staged(const struct shim_gnode *n)
{
	return n->type == CU_GRAPH_NODE_TYPE_MEMCPY && n->u.cp.staged;
}

/*
 * New parameters for node h of a graph (exec false), or for it in the
 * executable graph he (exec true): named by the node of the graph it was
 * made from (or last updated from).  built is np_*'s answer, 0 for
 * parameters given as they are.  A node of a graph keeps them; for an
 * executable graph nothing is kept: only the executable graph changes,
 * which no question asks about.
 */
static CUresult node_set(bool exec, CUgraphExec he, CUgraphNode h, CUresult built,
			 CUgraphNodeParams *np)
{
	struct gl_a_cuGraphExecNodeSetParams ea = { 0 };
	struct gl_a_cuGraphNodeSetParams a = { 0 };
	struct shim_exec *e = NULL;
	struct shim_gnode *n;
	struct iovec iov[2];
	struct shim_call c;
	struct prep p;
	CUresult r;

	if (built)
		return built;
	r = shim_begin(&c, exec ? GL_FN_cuGraphExecNodeSetParams : GL_FN_cuGraphNodeSetParams);
	if (r)
		return r;
	if (!np)
		return CUDA_ERROR_INVALID_VALUE;
	if (exec) {
		r = exec_get(he, &e);
		if (r)
			return r;
	}
	pthread_mutex_lock(&gn.lock);
	r = node_get(h, &n);
	if (!r && e && n->gid != e->graph && n->gid != e->updated)
		r = CUDA_ERROR_INVALID_VALUE;
	if (!r && n->type != np->type)
		r = CUDA_ERROR_INVALID_VALUE;
	if (!r && (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
		   n->type == CU_GRAPH_NODE_TYPE_MEM_FREE))
		r = CUDA_ERROR_NOT_SUPPORTED;
	if (!r && node_staged(n))
		r = SHIM_REFUSE("memcpy node parameters with host memory cannot be changed "
				"through Gleam (its stage is fixed when the node is made): "
				"returning CUDA_ERROR_NOT_SUPPORTED");
	pthread_mutex_unlock(&gn.lock);
	if (r)
		return r;
	r = prep(NULL, np, &p);
	if (!r)
		r = set_hosts_ok(n, &p);
	if (r) {
		prep_free(&p);
		return r;
	}
	if (e) {
		ea.hGraphExec = e->o.id;
		ea.hNode = n->o.id;
		c.args = &ea;
		c.args_len = sizeof(ea);
	} else {
		a.hNode = n->o.id;
		c.args = &a;
		c.args_len = sizeof(a);
	}
	iov[0] = (struct iovec){ &p.w, sizeof(p.w) };
	iov[1] = (struct iovec){ p.var, p.var_len };
	c.iov = iov;
	c.niov = p.var_len ? 2 : 1;
	r = shim_call(&c);
	if (!exec && (!r || !c.waited)) {
		pthread_mutex_lock(&gn.lock);
		if (!node_get(h, &n)) {
			keep_replace(n, &p);
			if (p.hosts) {
				n->hosts = true;
				hosts_mark(n->g);
			}
		}
		pthread_mutex_unlock(&gn.lock);
	}
	prep_free(&p);
	return r;
}

CUresult shim_cuGraphNodeSetParams(CUgraphNode h, CUgraphNodeParams *np)
{
	return node_set(false, NULL, h, CUDA_SUCCESS, np);
}

CUresult shim_cuGraphKernelNodeSetParams(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *k)
{
	CUgraphNodeParams np;

	return node_set(false, NULL, h,
			np_kernel(&np, (const CUDA_KERNEL_NODE_PARAMS_v1 *)k, k), &np);
}

CUresult shim_cuGraphKernelNodeSetParams_v1(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS_v1 *k)
{
	CUgraphNodeParams np;

	return node_set(false, NULL, h, np_kernel(&np, k, NULL), &np);
}

/* The context a node of this kind was made with: the change keeps it. */
static CUcontext node_ctx(CUgraphNode h, CUgraphNodeType type)
{
	struct shim_gnode *n;
	CUcontext ctx = NULL;

	pthread_mutex_lock(&gn.lock);
	if (!node_get(h, &n) && n->type == type)
		ctx = type == CU_GRAPH_NODE_TYPE_MEMCPY ? n->u.cp.ctx : n->u.set.ctx;
	pthread_mutex_unlock(&gn.lock);
	return ctx;
}

CUresult shim_cuGraphMemcpyNodeSetParams(CUgraphNode h, const CUDA_MEMCPY3D *cp)
{
	CUgraphNodeParams np;

	return node_set(false, NULL, h,
			np_memcpy(&np, cp, node_ctx(h, CU_GRAPH_NODE_TYPE_MEMCPY)), &np);
}

CUresult shim_cuGraphMemsetNodeSetParams(CUgraphNode h, const CUDA_MEMSET_NODE_PARAMS *m)
{
	CUgraphNodeParams np;

	return node_set(false, NULL, h,
			np_memset(&np, m, node_ctx(h, CU_GRAPH_NODE_TYPE_MEMSET)), &np);
}

CUresult shim_cuGraphHostNodeSetParams(CUgraphNode h, const CUDA_HOST_NODE_PARAMS *hp)
{
	CUgraphNodeParams np;

	return node_set(false, NULL, h, np_host(&np, hp), &np);
}

CUresult shim_cuGraphEventRecordNodeSetEvent(CUgraphNode h, CUevent ev)
{
	CUgraphNodeParams np;

	return node_set(false, NULL, h, np_event(&np, CU_GRAPH_NODE_TYPE_EVENT_RECORD, ev),
			&np);
}

CUresult shim_cuGraphEventWaitNodeSetEvent(CUgraphNode h, CUevent ev)
{
	CUgraphNodeParams np;

	return node_set(false, NULL, h, np_event(&np, CU_GRAPH_NODE_TYPE_WAIT_EVENT, ev), &np);
}

CUresult shim_cuGraphExecNodeSetParams(CUgraphExec e, CUgraphNode h, CUgraphNodeParams *np)
{
	return node_set(true, e, h, CUDA_SUCCESS, np);
}

CUresult shim_cuGraphExecKernelNodeSetParams(CUgraphExec e, CUgraphNode h,
					     const CUDA_KERNEL_NODE_PARAMS *k)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_kernel(&np, (const CUDA_KERNEL_NODE_PARAMS_v1 *)k, k),
			&np);
}

CUresult shim_cuGraphExecKernelNodeSetParams_v1(CUgraphExec e, CUgraphNode h,
						const CUDA_KERNEL_NODE_PARAMS_v1 *k)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_kernel(&np, k, NULL), &np);
}

CUresult shim_cuGraphExecMemcpyNodeSetParams(CUgraphExec e, CUgraphNode h,
					     const CUDA_MEMCPY3D *cp, CUcontext ctx)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_memcpy(&np, cp, ctx), &np);
}

CUresult shim_cuGraphExecMemsetNodeSetParams(CUgraphExec e, CUgraphNode h,
					     const CUDA_MEMSET_NODE_PARAMS *m, CUcontext ctx)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_memset(&np, m, ctx), &np);
}

CUresult shim_cuGraphExecHostNodeSetParams(CUgraphExec e, CUgraphNode h,
					   const CUDA_HOST_NODE_PARAMS *hp)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_host(&np, hp), &np);
}

CUresult shim_cuGraphExecChildGraphNodeSetParams(CUgraphExec e, CUgraphNode h, CUgraph child)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_child(&np, child), &np);
}

CUresult shim_cuGraphExecEventRecordNodeSetEvent(CUgraphExec e, CUgraphNode h, CUevent ev)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_event(&np, CU_GRAPH_NODE_TYPE_EVENT_RECORD, ev), &np);
}

CUresult shim_cuGraphExecEventWaitNodeSetEvent(CUgraphExec e, CUgraphNode h, CUevent ev)
{
	CUgraphNodeParams np;

	return node_set(true, e, h, np_event(&np, CU_GRAPH_NODE_TYPE_WAIT_EVENT, ev), &np);
}

/* ---- a node's parameters, answered here ---- */

/* Lock held by the caller of each: node h of type t. */
static CUresult node_of_type(CUgraphNode h, CUgraphNodeType t, struct shim_gnode **n)
{
	CUresult r = node_get(h, n);

	return r ? r : (*n)->type == t ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static void kernel_out(const struct kernel_node *k, CUDA_KERNEL_NODE_PARAMS_v1 *v1)
{
	v1->func = k->is_kernel ? NULL : (CUfunction)k->f;
	v1->gridDimX = k->grid[0];
	v1->gridDimY = k->grid[1];
	v1->gridDimZ = k->grid[2];
	v1->blockDimX = k->block[0];
	v1->blockDimY = k->block[1];
	v1->blockDimZ = k->block[2];
	v1->sharedMemBytes = k->shmem;
	v1->kernelParams = k->kp;
	v1->extra = NULL;
}

/* A kernel node's parameters in either form: v2 is p in the second, NULL for the first. */
static CUresult kernel_get(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS_v1 *p,
			   CUDA_KERNEL_NODE_PARAMS *v2)
{
	struct shim_gnode *n;
	CUresult r;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&gn.lock);
	r = node_of_type(h, CU_GRAPH_NODE_TYPE_KERNEL, &n);
	if (!r && v2) {
		memset(v2, 0, sizeof(*v2));
		kernel_out(&n->u.k, p);
		v2->kern = n->u.k.kern;
		v2->ctx = n->u.k.ctx;
	} else if (!r) {
		kernel_out(&n->u.k, p);
		/* The first form has no kernel: the driver gives it as the function. */
		if (n->u.k.is_kernel)
			p->func = (CUfunction)n->u.k.f;
	}
	pthread_mutex_unlock(&gn.lock);
	return r;
}

CUresult shim_cuGraphKernelNodeGetParams(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *p)
{
	return kernel_get(h, (CUDA_KERNEL_NODE_PARAMS_v1 *)p, p);
}

CUresult shim_cuGraphKernelNodeGetParams_v1(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	return kernel_get(h, p, NULL);
}

/* Lock held: what a node of the other kinds kept, as the program gave it. */
static const void *node_kept(const struct shim_gnode *n)
{
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return &n->u.cp.p;
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return &n->u.set.p;
	case CU_GRAPH_NODE_TYPE_HOST:
		return &n->u.host;
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return &n->u.ev;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return &n->u.alloc;
	default:
		return &n->u.free;
	}
}

/* What node h of type t kept (len bytes: the type's) into out. */
static CUresult kept_get(CUgraphNode h, CUgraphNodeType t, void *out, size_t len)
{
	struct shim_gnode *n;
	CUresult r;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&gn.lock);
	r = node_of_type(h, t, &n);
	if (!r)
		memcpy(out, node_kept(n), len);
	pthread_mutex_unlock(&gn.lock);
	return r;
}

/* The exported getters of what the other kinds kept, one line each. */
#define KEPT_GET(fn, type, T)						\
	CUresult shim_##fn(CUgraphNode h, T *out)			\
	{								\
		return kept_get(h, CU_GRAPH_NODE_TYPE_##type, out, sizeof(*out)); \
	}

KEPT_GET(cuGraphMemcpyNodeGetParams, MEMCPY, CUDA_MEMCPY3D)
KEPT_GET(cuGraphMemsetNodeGetParams, MEMSET, CUDA_MEMSET_NODE_PARAMS)
KEPT_GET(cuGraphHostNodeGetParams, HOST, CUDA_HOST_NODE_PARAMS)
KEPT_GET(cuGraphEventRecordNodeGetEvent, EVENT_RECORD, CUevent)
KEPT_GET(cuGraphEventWaitNodeGetEvent, WAIT_EVENT, CUevent)
KEPT_GET(cuGraphMemAllocNodeGetParams, MEM_ALLOC, CUDA_MEM_ALLOC_NODE_PARAMS)
KEPT_GET(cuGraphMemFreeNodeGetParams, MEM_FREE, CUdeviceptr)

/* ---- structure, answered here ---- */

/* Lock held: a graph's nodes, NULL for a captured one (the server has them). */
static const struct nodes *graph_nodes(struct shim_graph *g)
{
	static const struct nodes none;

	if (g->captured)
		return NULL;
	return g->gn ? &g->gn->all : &none;
}

CUresult shim_gnodes_get(struct shim_graph *g, CUgraphNode *nodes, size_t *n)
{
	const struct nodes *all;

	pthread_mutex_lock(&gn.lock);
	all = graph_nodes(g);
	if (all)
		nodes_out(all, nodes, NULL, n);
	pthread_mutex_unlock(&gn.lock);
	return all ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

static CUresult captured_refused(const char *who)
{
	static bool said;

	if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		gl_err("%s: the nodes of a captured graph are not handed out by Gleam: "
		       "returning CUDA_ERROR_NOT_SUPPORTED", who);
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult shim_cuGraphGetRootNodes(CUgraph h, CUgraphNode *roots, size_t *num)
{
	struct nodes r = { 0 };
	const struct nodes *all;
	struct shim_graph *g;
	CUresult res;

	if (!num)
		return CUDA_ERROR_INVALID_VALUE;
	res = graph_get(h, &g);
	if (res)
		return res;
	pthread_mutex_lock(&gn.lock);
	all = graph_nodes(g);
	for (size_t i = 0; all && i < all->n && !res; i++)
		if (!all->v[i]->deps.n && gl_ptrs_add(&r, all->v[i]))
			res = CUDA_ERROR_OUT_OF_MEMORY;
	if (all && !res)
		nodes_out(&r, roots, NULL, num);
	pthread_mutex_unlock(&gn.lock);
	free(r.v);
	return all ? res : captured_refused("cuGraphGetRootNodes");
}

CUresult shim_cuGraphNodeGetType(CUgraphNode h, CUgraphNodeType *type)
{
	struct shim_gnode *n;
	CUresult r;

	if (!type)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&gn.lock);
	r = node_get(h, &n);
	if (!r)
		*type = n->type;
	pthread_mutex_unlock(&gn.lock);
	return r;
}

static CUresult node_list(CUgraphNode h, bool deps, CUgraphNode *out, CUgraphEdgeData *edges,
			  size_t *num)
{
	struct shim_gnode *n;
	CUresult r;

	if (!num || (edges && !out))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&gn.lock);
	r = node_get(h, &n);
	if (!r)
		nodes_out(deps ? &n->deps : &n->outs, out, edges, num);
	pthread_mutex_unlock(&gn.lock);
	return r;
}

CUresult shim_cuGraphNodeGetDependencies(CUgraphNode h, CUgraphNode *out, CUgraphEdgeData *e,
					 size_t *num)
{
	return node_list(h, true, out, e, num);
}

CUresult shim_cuGraphNodeGetDependencies_v1(CUgraphNode h, CUgraphNode *out, size_t *num)
{
	return node_list(h, true, out, NULL, num);
}

CUresult shim_cuGraphNodeGetDependentNodes(CUgraphNode h, CUgraphNode *out, CUgraphEdgeData *e,
					   size_t *num)
{
	return node_list(h, false, out, e, num);
}

CUresult shim_cuGraphNodeGetDependentNodes_v1(CUgraphNode h, CUgraphNode *out, size_t *num)
{
	return node_list(h, false, out, NULL, num);
}

/* Edges in the order of their dependent nodes, then of each node's dependencies. */
static CUresult get_edges(CUgraph h, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *e,
			  size_t *num)
{
	const struct nodes *all;
	struct shim_graph *g;
	size_t k = 0;
	CUresult r;

	if (!num || (!from) != (!to) || (e && !from))
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_get(h, &g);
	if (r)
		return r;
	pthread_mutex_lock(&gn.lock);
	all = graph_nodes(g);
	for (size_t i = 0; all && i < all->n; i++) {
		const struct shim_gnode *n = all->v[i];

		for (size_t j = 0; j < n->deps.n; j++, k++) {
			if (!from || k >= *num)
				continue;
			from[k] = (CUgraphNode)n->deps.v[j];
			to[k] = (CUgraphNode)n;
			if (e)
				memset(&e[k], 0, sizeof(e[k]));
		}
	}
	if (all && from) {
		for (size_t i = k; i < *num; i++) {
			from[i] = to[i] = NULL;
			if (e)
				memset(&e[i], 0, sizeof(e[i]));
		}
		*num = MIN(*num, k);
	} else if (all) {
		*num = k;
	}
	pthread_mutex_unlock(&gn.lock);
	return all ? CUDA_SUCCESS : captured_refused("cuGraphGetEdges");
}

CUresult shim_cuGraphGetEdges(CUgraph h, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *e,
			      size_t *num)
{
	return get_edges(h, from, to, e, num);
}

CUresult shim_cuGraphGetEdges_v1(CUgraph h, CUgraphNode *from, CUgraphNode *to, size_t *num)
{
	return get_edges(h, from, to, NULL, num);
}

/* ---- edges ---- */

/*
 * Add or remove edges: every node of the graph, each edge new (or
 * there), and not in a graph with memory nodes when removing (the
 * driver's rule).  The shim's copy changes once the record is sent.
 */
static CUresult edges_change(unsigned int fn, CUgraph hg, const CUgraphNode *from,
			     const CUgraphNode *to, const CUgraphEdgeData *edges, size_t n)
{
	struct gl_a_cuGraphAddDependencies a = { 0 };
	struct shim_graph *g;
	struct iovec iov[2];
	struct shim_call c;
	bool add = fn == GL_FN_cuGraphAddDependencies;
	uint64_t *ids;
	CUresult r;

	_Static_assert(sizeof(struct gl_a_cuGraphAddDependencies) ==
		       sizeof(struct gl_a_cuGraphRemoveDependencies), "one layout");
	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (n && (!from || !to))
		return CUDA_ERROR_INVALID_VALUE;
	if (n > GLEAM_GNODE_DEPS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_get(hg, &g);
	if (!r)
		r = edges_ok(edges, n);
	if (r || !n)
		return r;
	ids = calloc(2 * n, sizeof(*ids));
	if (!ids)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&gn.lock);
	if (!add && g->gn && g->gn->mem_nodes)
		r = CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < n && !r; i++) {
		struct shim_gnode *f, *t;

		if (node_get(from[i], &f) || node_get(to[i], &t) || f->g != g || t->g != g ||
		    f == t || gl_ptrs_has(&t->deps, f) != !add) {
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		}
		/* The same edge twice in one call is one already there. */
		for (size_t j = 0; j < i; j++)
			if (from[j] == from[i] && to[j] == to[i])
				r = CUDA_ERROR_INVALID_VALUE;
		ids[i] = f->o.id;
		ids[n + i] = t->o.id;
	}
	pthread_mutex_unlock(&gn.lock);
	if (r) {
		free(ids);
		return r;
	}
	a.hGraph = g->o.id;
	a.numDependencies = n;
	iov[0] = (struct iovec){ ids, n * sizeof(*ids) };
	iov[1] = (struct iovec){ ids + n, n * sizeof(*ids) };
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 2;
	r = shim_call(&c);
	free(ids);
	if (r && c.waited)
		return r;
	pthread_mutex_lock(&gn.lock);
	for (size_t i = 0; i < n; i++) {
		struct shim_gnode *f, *t;

		if (node_get(from[i], &f) || node_get(to[i], &t))
			continue;
		if (add && !gl_ptrs_has(&t->deps, f)) {
			if (gl_ptrs_add(&t->deps, f) || gl_ptrs_add(&f->outs, t))
				r = CUDA_ERROR_OUT_OF_MEMORY;
		} else if (!add) {
			gl_ptrs_del(&t->deps, f);
			gl_ptrs_del(&f->outs, t);
		}
	}
	pthread_mutex_unlock(&gn.lock);
	return r;
}

CUresult shim_cuGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
				     const CUgraphEdgeData *e, size_t n)
{
	return edges_change(GL_FN_cuGraphAddDependencies, g, from, to, e, n);
}

CUresult shim_cuGraphAddDependencies_v1(CUgraph g, const CUgraphNode *from,
					const CUgraphNode *to, size_t n)
{
	return edges_change(GL_FN_cuGraphAddDependencies, g, from, to, NULL, n);
}

CUresult shim_cuGraphRemoveDependencies(CUgraph g, const CUgraphNode *from,
					const CUgraphNode *to, const CUgraphEdgeData *e, size_t n)
{
	return edges_change(GL_FN_cuGraphRemoveDependencies, g, from, to, e, n);
}

CUresult shim_cuGraphRemoveDependencies_v1(CUgraph g, const CUgraphNode *from,
					   const CUgraphNode *to, size_t n)
{
	return edges_change(GL_FN_cuGraphRemoveDependencies, g, from, to, NULL, n);
}

/* ---- the end of nodes and graphs ---- */

/* Lock held: n leaves its graph and its edges; the caller puts it. */
static void node_unlink(struct shim_gnode *n)
{
	struct shim_gnodes *gs = n->g->gn;

	for (size_t i = 0; i < n->deps.n; i++)
		gl_ptrs_del(&n->deps.v[i]->outs, n);
	for (size_t i = 0; i < n->outs.n; i++)
		gl_ptrs_del(&n->outs.v[i]->deps, n);
	n->deps.n = n->outs.n = 0;
	if (gs) {
		gl_ptrs_del(&gs->all, n);
		if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
			gs->conds--;
	}
	__atomic_store_n(&n->g->have_nodes, false, __ATOMIC_RELEASE);
}

/* A node's own memory; its body graphs go with it.  Called with no lock held. */
void shim_gnode_put(struct shim_gnode *n)
{
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL) {
		free(n->u.k.buf);
		free(n->u.k.kp);
	} else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL && n->u.cond.bodies) {
		/*
		 * A body the program destroyed itself (which the driver forbids)
		 * was put already, and its object may be another graph's now.
		 */
		for (unsigned int i = 0; i < n->u.cond.size; i++) {
			struct shim_graph *b = (struct shim_graph *)n->u.cond.bodies[i];

			if (b && b->o.magic == (SHIM_OBJ_MAGIC | GL_H_GRAPH) && b->gn &&
			    b->gn->owner == n)
				shim_obj_put(&b->o);
		}
		free(n->u.cond.bodies);
	}
	free(n->deps.v);
	free(n->outs.v);
	memset(&n->u, 0, sizeof(n->u));
	memset(&n->deps, 0, sizeof(n->deps));
	memset(&n->outs, 0, sizeof(n->outs));
	n->type = CU_GRAPH_NODE_TYPE_EMPTY;
}

/*
 * Removing a node: not one of a graph with memory nodes (the driver's
 * rule); the driver removes the edges too.
 */
CUresult shim_cuGraphDestroyNode(CUgraphNode h)
{
	struct gl_a_cuGraphDestroyNode a = { 0 };
	struct shim_gnode *n;
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuGraphDestroyNode);
	if (r)
		return r;
	pthread_mutex_lock(&gn.lock);
	r = node_get(h, &n);
	if (!r && n->g->gn && n->g->gn->mem_nodes)
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&gn.lock);
	if (r)
		return r;
	a.hNode = n->o.id;
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_call(&c);
	if (r && c.waited)
		return r;
	pthread_mutex_lock(&gn.lock);
	node_unlink(n);
	pthread_mutex_unlock(&gn.lock);
	shim_obj_put(&n->o);
	return r;
}

/*
 * A graph goes with its nodes.  Memory its allocation nodes made and its
 * free nodes freed is the graph's alone, and no longer checked against.
 */
void shim_gnodes_graph_put(struct shim_graph *g)
{
	struct shim_gnodes *gs;
	size_t j = 0;

	pthread_mutex_lock(&gn.lock);
	gs = g->gn;
	g->gn = NULL;
	for (size_t i = 0; i < gn.nh; i++)
		if (gn.h[i].gid != g->o.id)
			gn.h[j++] = gn.h[i];
	gn.nh = j;
	pthread_mutex_unlock(&gn.lock);
	if (!gs)
		return;
	for (size_t i = 0; i < gs->all.n; i++) {
		struct shim_gnode *n = gs->all.v[i];

		if (n->type != CU_GRAPH_NODE_TYPE_MEM_FREE)
			continue;
		for (size_t k = 0; k < gs->all.n; k++)
			if (gs->all.v[k]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
			    gs->all.v[k]->u.alloc.dptr == n->u.free)
				shim_mem_forget(n->u.free);
	}
	for (size_t i = 0; i < gs->all.n; i++)
		shim_obj_put(&gs->all.v[i]->o);
	free(gs->all.v);
	free(gs);
}

CUresult shim_cuGraphCreate(CUgraph *out, unsigned int flags)
{
	struct gl_a_cuGraphCreate a = { 0 };
	struct shim_graph *g;
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuGraphCreate);
	if (r)
		return r;
	if (!out || flags)
		return CUDA_ERROR_INVALID_VALUE;
	g = (struct shim_graph *)shim_obj_new(GL_H_GRAPH);
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a.phGraph = g->o.id;
	a.flags = flags;
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(&g->o);
		return r;
	}
	shim_obj_created(&g->o);
	*out = (CUgraph)g;
	return r;
}

/* ---- clones ---- */

/* Lock held: a copy of node n's parameters for a node of a clone. */
static int keep_copy(struct shim_gnode *to, const struct shim_gnode *n)
{
	to->type = n->type;
	to->hosts = n->hosts;
	to->u = n->u;
	if (n->type != CU_GRAPH_NODE_TYPE_KERNEL)
		return 0;
	to->u.k.buf = malloc(n->u.k.len ? n->u.k.len : 1);
	to->u.k.kp = calloc(n->u.k.f->nparams ? n->u.k.f->nparams : 1, sizeof(void *));
	if (!to->u.k.buf || !to->u.k.kp)
		return -1;
	memcpy(to->u.k.buf, n->u.k.buf, n->u.k.len);
	for (uint32_t i = 0; i < n->u.k.f->nparams; i++)
		if (n->u.k.kp[i])
			to->u.k.kp[i] = to->u.k.buf + ((unsigned char *)n->u.k.kp[i] - n->u.k.buf);
	return 0;
}

/*
 * A clone is the shim's copy of the graph's copy: its nodes are minted
 * here and the record pairs each with its original, for the worker to
 * find in the driver's clone.  Its stages are the original's (the nodes
 * copy the same device memory).  The driver clones no graph with
 * conditional nodes; nor does the shim a captured graph, whose nodes it
 * does not know.
 */
CUresult shim_cuGraphClone(CUgraph *out, CUgraph h)
{
	struct gl_a_cuGraphClone a = { 0 };
	struct gleam_clone_pair *pairs = NULL;
	struct shim_gnode **nn = NULL;
	struct shim_graph *g, *cl;
	uint64_t count = 0;
	struct iovec iov[2];
	struct shim_call c;
	size_t n = 0;
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuGraphClone, out);
	if (r)
		return r;
	r = graph_get(h, &g);
	if (r)
		return r;
	if (g->captured && g->gn && g->gn->all.n)
		return SHIM_REFUSE("cuGraphClone of a captured graph with nodes added to it is "
				   "not supported by Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
	cl = (struct shim_graph *)shim_obj_new(GL_H_GRAPH);
	if (!cl)
		return CUDA_ERROR_OUT_OF_MEMORY;
	cl->captured = g->captured;
	pthread_mutex_lock(&gn.lock);
	if (g->gn && g->gn->conds)
		r = CUDA_ERROR_INVALID_VALUE;
	n = g->gn ? g->gn->all.n : 0;
	if (!r && n) {
		pairs = calloc(n, sizeof(*pairs));
		nn = calloc(n, sizeof(*nn));
		if (!pairs || !nn || !graph_gn(cl))
			r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	for (size_t i = 0; i < n && !r; i++) {
		const struct shim_gnode *o = g->gn->all.v[i];

		nn[i] = (struct shim_gnode *)shim_obj_new(GL_H_GRAPHNODE);
		if (!nn[i] || keep_copy(nn[i], o) || gl_ptrs_add(&cl->gn->all, nn[i])) {
			r = CUDA_ERROR_OUT_OF_MEMORY;
			break;
		}
		nn[i]->g = cl;
		nn[i]->gid = cl->o.id;
		nn[i]->origin = o->o.id;
		pairs[i] = (struct gleam_clone_pair){ o->o.id, nn[i]->o.id };
	}
	/* The edges, by position: every dependency is a node of the same graph. */
	for (size_t i = 0; i < n && !r; i++) {
		const struct shim_gnode *o = g->gn->all.v[i];

		for (size_t j = 0; j < o->deps.n && !r; j++) {
			size_t k;

			for (k = 0; k < n && g->gn->all.v[k] != o->deps.v[j]; k++)
				;
			if (k == n || gl_ptrs_add(&nn[i]->deps, nn[k]) ||
			    gl_ptrs_add(&nn[k]->outs, nn[i]))
				r = k == n ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_OUT_OF_MEMORY;
		}
	}
	if (!r && g->gn) {
		cl->gn->mem_nodes = g->gn->mem_nodes;
		cl->gn->hosts = g->gn->hosts;
	}
	pthread_mutex_unlock(&gn.lock);
	if (r)
		goto fail;
	count = n;
	a.phGraphClone = cl->o.id;
	a.originalGraph = g->o.id;
	iov[0] = (struct iovec){ &count, sizeof(count) };
	iov[1] = (struct iovec){ pairs, n * sizeof(*pairs) };
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = n ? 2 : 1;
	r = shim_call(&c);
	if (r && c.waited)
		goto fail;
	shim_graph_stage_share(cl, g);
	for (size_t i = 0; i < n; i++)
		shim_obj_created(&nn[i]->o);
	shim_obj_created(&cl->o);
	*out = (CUgraph)cl;
	free(pairs);
	free(nn);
	return r;
fail:
	/* The clone's list holds the nodes made so far; putting it puts them. */
	for (size_t i = 0; nn && i < n; i++)
		if (nn[i] && !(cl->gn && gl_ptrs_has(&cl->gn->all, nn[i])))
			shim_obj_put(&nn[i]->o);
	shim_obj_put(&cl->o);
	free(pairs);
	free(nn);
	return r;
}

/* The node of the clone made from the original node (the shim made both). */
CUresult shim_cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode orig, CUgraph clone)
{
	struct shim_graph *cl;
	struct shim_gnode *o = NULL;
	CUresult r;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_get(clone, &cl);
	if (r)
		return r;
	pthread_mutex_lock(&gn.lock);
	r = node_get(orig, &o);
	if (!r)
		r = CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; o && cl->gn && i < cl->gn->all.n && r; i++) {
		if (cl->gn->all.v[i]->origin == o->o.id) {
			*out = (CUgraphNode)cl->gn->all.v[i];
			r = CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&gn.lock);
	return r;
}

/* ---- conditional handles ---- */

/*
 * The value is the server's: kernels take it as a parameter and set it
 * with cudaGraphSetConditional, so the creation waits for it, as a
 * texture object's does.  The shim keeps which graph it was made for.
 */
CUresult shim_cuGraphConditionalHandleCreate(CUgraphConditionalHandle *out, CUgraph h,
					     CUcontext ctx, unsigned int dflt, unsigned int flags)
{
	struct gl_a_cuGraphConditionalHandleCreate a = { 0 };
	struct gl_r_cuGraphConditionalHandleCreate o = { 0 };
	struct shim_graph *g;
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuGraphConditionalHandleCreate);
	if (r)
		return r;
	if (!out || (flags & ~CU_GRAPH_COND_ASSIGN_DEFAULT))
		return CUDA_ERROR_INVALID_VALUE;
	r = graph_get(h, &g);
	if (!r)
		r = ctx_of(ctx, &a.ctx);
	if (r)
		return r;
	a.hGraph = g->o.id;
	a.defaultLaunchValue = dflt;
	a.flags = flags;
	c.args = &a;
	c.args_len = sizeof(a);
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (r)
		return r;
	pthread_mutex_lock(&gn.lock);
	if (!gl_grow((void **)&gn.h, gn.nh, &gn.caph, sizeof(*gn.h), 8))
		gn.h[gn.nh++] = (struct condh){ (CUgraphConditionalHandle)o.pHandle_out,
						g->o.id, a.ctx };
	else
		r = CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_unlock(&gn.lock);
	if (!r)
		*out = (CUgraphConditionalHandle)o.pHandle_out;
	return r;
}

/* ---- executable graphs ---- */

/*
 * An update is the driver's verdict: it waits.  The result information
 * comes as a DATA piece, since a failed update's reply carries nothing.
 * The executable graph takes the graph's stages, whose device memory
 * its updated nodes now copy.
 */
CUresult shim_cuGraphExecUpdate(CUgraphExec he, CUgraph hg, CUgraphExecUpdateResultInfo *info)
{
	struct gl_a_cuGraphExecUpdate a = { 0 };
	struct gleam_exec_update u = { 0 };
	struct shim_graph *g;
	struct shim_exec *e;
	struct shim_call c;
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuGraphExecUpdate, info);
	if (r)
		return r;
	r = exec_get(he, &e);
	if (!r)
		r = graph_get(hg, &g);
	if (r)
		return r;
	a.hGraphExec = e->o.id;
	a.hGraph = g->o.id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.outbuf = &u;
	c.outbuf_len = sizeof(u);
	r = shim_call(&c);
	memset(info, 0, sizeof(*info));
	info->result = (CUgraphExecUpdateResult)u.result;
	pthread_mutex_lock(&gn.lock);
	for (size_t i = 0; g->gn && i < g->gn->all.n; i++) {
		struct shim_gnode *n = g->gn->all.v[i];

		if (u.error_node && n->o.id == u.error_node)
			info->errorNode = (CUgraphNode)n;
		if (u.error_from && n->o.id == u.error_from)
			info->errorFromNode = (CUgraphNode)n;
	}
	pthread_mutex_unlock(&gn.lock);
	if (!r) {
		info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
		e->updated = g->o.id;
		shim_exec_stage_take(e, g);
	}
	return r;
}

CUresult shim_cuGraphExecUpdate_v1(CUgraphExec he, CUgraph hg, CUgraphNode *err,
				   CUgraphExecUpdateResult *res)
{
	CUgraphExecUpdateResultInfo info;
	CUresult r;

	if (!err || !res)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_cuGraphExecUpdate(he, hg, &info);
	*err = info.errorNode;
	*res = info.result;
	return r;
}

/* Nodes disabled: kept per executable graph, so that the question is answered here. */
static CUresult disabled_set(struct shim_exec *e, uint64_t id, bool on)
{
	struct shim_disabled *d = e->off;
	size_t i;

	for (i = 0; d && i < d->n && d->id[i] != id; i++)
		;
	if (on) {
		if (d && i < d->n)
			d->id[i] = d->id[--d->n];
		return CUDA_SUCCESS;
	}
	if (d && i < d->n)
		return CUDA_SUCCESS;
	if (!d || d->n == d->cap) {
		size_t cap = d ? 2 * d->cap : 8;
		struct shim_disabled *nd = realloc(d, sizeof(*nd) + cap * sizeof(nd->id[0]));

		if (!nd)
			return CUDA_ERROR_OUT_OF_MEMORY;
		if (!d)
			nd->n = 0;
		nd->cap = cap;
		e->off = d = nd;
	}
	d->id[d->n++] = id;
	return CUDA_SUCCESS;
}

/* Kernel, memcpy and memset nodes may be disabled (the driver's rule). */
static CUresult exec_node(CUgraphExec he, CUgraphNode h, struct shim_exec **e, __u64 *id)
{
	struct shim_gnode *n;
	CUresult r = exec_get(he, e);

	if (r)
		return r;
	pthread_mutex_lock(&gn.lock);
	r = node_get(h, &n);
	if (!r && n->gid != (*e)->graph && n->gid != (*e)->updated)
		r = CUDA_ERROR_INVALID_VALUE;
	if (!r && n->type != CU_GRAPH_NODE_TYPE_KERNEL && n->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
	    n->type != CU_GRAPH_NODE_TYPE_MEMSET)
		r = CUDA_ERROR_INVALID_VALUE;
	if (!r)
		*id = n->o.id;
	pthread_mutex_unlock(&gn.lock);
	return r;
}

CUresult shim_cuGraphNodeSetEnabled(CUgraphExec he, CUgraphNode h, unsigned int on)
{
	struct gl_a_cuGraphNodeSetEnabled a = { 0 };
	struct shim_exec *e;
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuGraphNodeSetEnabled);
	if (r)
		return r;
	r = exec_node(he, h, &e, &a.hNode);
	if (r)
		return r;
	a.hGraphExec = e->o.id;
	a.isEnabled = on;
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_call(&c);
	if (!r || !c.waited) {
		pthread_mutex_lock(&gn.lock);
		if (disabled_set(e, a.hNode, on != 0))
			r = CUDA_ERROR_OUT_OF_MEMORY;
		pthread_mutex_unlock(&gn.lock);
	}
	return r;
}

CUresult shim_cuGraphNodeGetEnabled(CUgraphExec he, CUgraphNode h, unsigned int *on)
{
	struct shim_exec *e;
	__u64 id;
	CUresult r;

	if (!on)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = exec_node(he, h, &e, &id);
	if (r)
		return r;
	*on = 1;
	pthread_mutex_lock(&gn.lock);
	for (size_t i = 0; e->off && i < e->off->n; i++)
		if (e->off->id[i] == id)
			*on = 0;
	pthread_mutex_unlock(&gn.lock);
	return CUDA_SUCCESS;
}

CUresult shim_cuGraphExecGetFlags(CUgraphExec he, cuuint64_t *flags)
{
	struct shim_exec *e;
	CUresult r;

	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = exec_get(he, &e);
	if (!r)
		*flags = e->flags;
	return r;
}

void shim_gnodes_exec_put(struct shim_exec *e)
{
	free(e->off);
	e->off = NULL;
}
