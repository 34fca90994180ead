/* SPDX-License-Identifier: MIT */
/*
 * libcuda.so.1, private header.  The shim keeps the state a driver keeps
 * (devices, contexts and the per-thread stack, handles) and turns the rest
 * into records on the session ring.
 */
#ifndef GLEAM_SHIM_H
#define GLEAM_SHIM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include <cuda.h>

#include "gleam_api_gen.h"
#include "gleam_record.h"
#include "ring.h"

/* Handles: every object the shim hands out starts with this. */
#define SHIM_OBJ_MAGIC	0x474c4f00u	/* low byte: kind */
#define SHIM_OBJ_DEAD	0xdeadbeefu

struct shim_obj {
	uint32_t magic;
	uint32_t kind;		/* enum gl_hkind */
	uint64_t id;		/* on the wire */
	struct shim_obj *next_free;
	int dev;		/* device of the context it was made in */
};

/* Cached per-context answers that cost one round trip the first time. */
#define SHIM_LIMITS	16

struct shim_ctx {
	struct shim_obj o;
	int dev;
	bool primary;
	unsigned int flags;
	bool have_flags;
	bool have_api;
	unsigned int api_version;
	bool have_prio;
	int prio_least, prio_greatest;
	CUresult sticky;	/* a fault poisoned the context: every call fails */
	uint32_t have_limit;	/* bit per CUlimit */
	size_t limit[SHIM_LIMITS];
	bool have_legacy_sid;	/* the legacy stream's cuStreamGetId */
	unsigned long long legacy_sid;
	/*
	 * Work queued since the last synchronisation that could fail on the
	 * GPU or bring data back (Documentation/design.md, "Synchronisations
	 * with nothing to wait for"): SHIM_RISKY_NONE, SHIM_RISKY_ALL, or
	 * SHIM_RISKY_STREAM(id) when it is all on one stream.  risky_seq
	 * counts such records, so that a synchronisation clears only what it
	 * covered.
	 */
	_Atomic uint64_t risky;
	_Atomic uint64_t risky_seq;
	/*
	 * Asynchronous calls that may fail on the server, counted; the count
	 * the last answered call that waited had seen.  Equal: every such
	 * failure has been reported.
	 */
	_Atomic uint64_t fallible_seq;
	_Atomic uint64_t settled_seq;
	/* What the program left the GPU to do, for counting its waits (waits.c). */
	struct shim_req *_Atomic req;
	/* cuCtxSetCacheConfig's preference (CUfunc_cache), for occupancy. */
	_Atomic unsigned int cache;
	/* The last record of each kind, for GLEAM_TRACE_WAITS. */
	_Atomic unsigned int last_risky_fn;
	_Atomic unsigned int last_fallible_fn;
	/*
	 * Work queued that may have written mapped or managed memory
	 * (twin.c), counted; the count the last pull covered.  Unequal: a
	 * synchronisation brings the GPU's writes back.
	 */
	_Atomic uint64_t twin_seq;
	_Atomic uint64_t twin_pulled;
};

#define SHIM_RISKY_NONE		0ull
#define SHIM_RISKY_ALL		1ull
#define SHIM_RISKY_STREAM(id)	((id) + 2ull)

/* Streams: what never changes, asked once. */
struct shim_stream {
	struct shim_obj o;
	bool have_sid;
	unsigned long long sid;	/* cuStreamGetId */
	unsigned int flags;	/* as created: whether it waits for the legacy stream */
	int prio;		/* as asked for at its creation */
};

/*
 * Graphs: a captured graph's node count is asked once and kept until a
 * node is added to it or removed.  A graph built node by node is the
 * shim's own copy (gnodes.c), which answers every question about it.
 */
struct graph_stage;
struct shim_gnodes;
struct shim_graph {
	struct shim_obj o;
	bool have_nodes;
	size_t nodes;
	struct graph_stage *stage;	/* its copies to and from host memory (graph.c) */
	bool captured;			/* made by a capture: the server knows its nodes */
	struct shim_gnodes *gn;		/* the nodes added by the program (gnodes.c) */
};

/* Executable graphs: the stages of the graph they were made from. */
struct shim_exec {
	struct shim_obj o;
	struct graph_stage *stage;
	unsigned long long flags;	/* as instantiated */
	uint64_t graph;			/* the id of the graph it was made from */
	uint64_t updated;		/* the id of the graph it was last updated from */
	struct shim_disabled *off;	/* nodes disabled in it (gnodes.c) */
};
/* A graph or executable graph let go of its stages (graph.c). */
void shim_graph_stage_put(struct graph_stage *st);
/*
 * Host memory a node of graph g copies, through a stage of device memory
 * of the graph's (*stage) that every launch copies to or from it (graph.c).
 */
CUresult shim_graph_stage_add(struct shim_graph *g, bool to_host, void *host, size_t n,
			      CUdeviceptr *stage);
/* Whether g has host memory staged. */
bool shim_graph_staged(const struct shim_graph *g);
/* A clone shares its original's stages; an executable graph takes its update's. */
void shim_graph_stage_share(struct shim_graph *to, const struct shim_graph *from);
void shim_exec_stage_take(struct shim_exec *e, const struct shim_graph *from);

/* gnodes.c: a graph, a node, an executable graph let go of what they hold. */
struct shim_gnode;
void shim_gnodes_graph_put(struct shim_graph *g);
void shim_gnode_put(struct shim_gnode *n);
void shim_gnodes_exec_put(struct shim_exec *e);
size_t shim_gnode_size(void);
/* cuGraphGetNodes of a graph the shim knows whole; CUDA_ERROR_NOT_FOUND: ask the server. */
CUresult shim_gnodes_get(struct shim_graph *g, CUgraphNode *nodes, size_t *n);
/* link.c: a link state let go of its cubin. */
struct shim_link;
void shim_link_put(struct shim_link *l);
size_t shim_link_size(void);

/*
 * Memory pools.  The attributes only this process can change (reuse
 * policies, release threshold) are asked once and then kept, bit per
 * CUmemPool_attribute in have.
 */
#define SHIM_POOL_ATTRS		(CU_MEMPOOL_ATTR_USED_MEM_HIGH + 1)

struct shim_pool {
	struct shim_obj o;
	bool dflt;		/* a device's default pool: never destroyed */
	uint32_t have;
	uint64_t attr[SHIM_POOL_ATTRS];
};

/*
 * Modules and libraries: what their image says (common/cubin.h), so that
 * lookups by name are answered here.  The code the device would load is
 * copied at load and indexed at the first lookup.
 */
struct gl_module_index;
struct shim_module {
	struct shim_obj o;
	unsigned char *code;		/* the picked code, as the image held it */
	size_t code_len, raw_len;
	int code_kind, code_pack;	/* enum gl_code_kind, gl_code_pack */
	struct gl_module_index *idx;	/* after the first lookup */
	bool no_index;			/* nothing to read: lookups ask the server */
	bool compiled;			/* PTX the server compiled: a lookup's answer came */
};

/* Functions and kernels: what a launch needs to marshal its parameters. */
struct shim_func {
	struct shim_obj o;
	struct shim_func *kernel;	/* a function made from a kernel shares its info */
	uint32_t nparams;
	uint32_t params_size;
	int32_t attr[GLEAM_FUNC_ATTR_MAX];
	struct gleam_param *params;
	CUresult status;	/* the creation's result, for later uses */
	uint32_t barriers;	/* named barriers its code uses (occupancy) */
	CUfunc_cache cache;	/* cuFuncSetCacheConfig's preference */
	/* Attributes only the server's compiler knows (PTX), on their way. */
	struct shim_pending *pending;
	struct gleam_funcinfo *pinfo;
	struct gleam_param *pparams;
};

/*
 * Arrays and mipmapped arrays (array.c): what the program described, so
 * that the descriptor questions are answered here and every copy is
 * checked against its extent before it is sent.  A level of a mipmapped
 * array is an array of its own, which the mipmapped array owns.
 */
struct shim_mipmap;
struct shim_array {
	struct shim_obj o;
	CUDA_ARRAY3D_DESCRIPTOR d;
	unsigned int elem;		/* bytes per element */
	struct shim_mipmap *parent;	/* a level's mipmapped array, else NULL */
};

#define SHIM_MIPMAP_LEVELS	32

struct shim_mipmap {
	struct shim_obj o;
	CUDA_ARRAY3D_DESCRIPTOR d;
	unsigned int elem;
	unsigned int levels;
	struct shim_array *level[SHIM_MIPMAP_LEVELS];	/* handed out so far */
};

/* array.c: a mipmapped array's levels go with it. */
void shim_mipmap_put(struct shim_mipmap *m);
/* array.c: bytes [off, off + len) lie inside the array's rows laid end to end. */
CUresult shim_check_array(CUarray h, size_t off, size_t len);
/* array.c: the live array behind a handle, or the driver's error. */
CUresult shim_array_get(CUarray h, struct shim_array **a);

/*
 * Memory handles of the virtual memory functions (vmm.c): the
 * CUmemGenericAllocationHandle the program holds is the object's address.
 */
struct shim_vmh {
	struct shim_obj o;
	uint64_t size;
	uint64_t gran;		/* the minimum granularity of its properties, as the server said */
	CUmemAllocationProp prop;
	unsigned int refs;	/* the program's: its creation and retains, less its releases */
	unsigned int maps;	/* mappings of it */
};

/* module.c: let go of what a module or library kept of its image. */
void shim_module_put(struct shim_module *m);
/* module.c: each kernel of a module as a function, to fn; how many. */
CUresult shim_module_functions(CUmodule hmod, void (*fn)(void *, CUfunction, uint64_t),
			       void *arg, unsigned int *count);
/* module.c: whether a module or library's image has name among its variables: 0, 1, or -1 unknown. */
int shim_module_has_var(unsigned int kind, void *h, const char *name);

/*
 * A function or a kernel (the driver takes either where a function is
 * asked for), its attributes known: an answer still on its way is waited for.
 */
CUresult shim_func_get(CUfunction h, struct shim_func **f);
/* The same for one kind, GL_H_FUNC or GL_H_KERNEL. */
CUresult shim_func_of(unsigned int kind, const void *h, struct shim_func **f);
/* Its attributes and parameters known (a lookup's answer arrived), or its error. */
CUresult shim_func_ready(struct shim_func *f);

/* A lookup by name in a module or library: parent id, name and its length. */
CUresult shim_name_arg(unsigned int kind, void *parent, const char *name, __u64 *id,
		       __u64 *name_len, struct iovec *iov);
CUresult shim_param_info(const struct shim_func *f, size_t index, size_t *off, size_t *size);

struct shim_obj *shim_obj_new(unsigned int kind);
void shim_obj_created(struct shim_obj *o);
void shim_obj_put(struct shim_obj *o);
/* The live object behind a handle, or a CUDA error for a bad one. */
CUresult shim_obj_get(unsigned int kind, const void *h, struct shim_obj **o);
CUresult shim_handle_id(unsigned int kind, const void *h, __u64 *id);
/* Streams: NULL, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD keep their values. */
CUresult shim_stream_id(CUstream s, int per_thread, __u64 *id);
/* The same, without noting the stream for the call; *st NULL for the special streams. */
CUresult shim_stream_resolve(CUstream s, int per_thread, uint64_t *id, struct shim_stream **st);
/* The stream the current call resolved (shim_stream_id), plus one; 0: none. */
extern __thread uint64_t shim_call_stream;
/* Its object; NULL for the special streams. */
extern __thread struct shim_stream *shim_call_sobj;

/* Devices, as the server described them at cuInit. */
struct shim_dev {
	struct gleam_devinfo info;
	/* How clusters fit (cuOccupancyMaxActiveClusters), when the server said. */
	bool have_clusters;
	struct gleam_cluster_table clusters;
	/* Primary context: one handle for the process's life. */
	struct shim_ctx *pctx;
	int prim_refs;
	unsigned int prim_flags;
	bool prim_created;	/* the worker holds a retain */
};

struct shim_state {
	pthread_once_t once;
	CUresult init_result;	/* of the first cuInit */
	bool initialised;
	int driver_version;
	int ndev;
	struct shim_dev *dev;
	pthread_mutex_t lock;	/* devices' primary contexts, object lists */
	bool async;		/* GLEAM_ASYNC, default on */
	bool host;		/* the server runs host functions here (GLEAM_INIT_F_HOST) */
};

extern struct shim_state shim;

/* The calling thread's current context, NULL for none. */
struct shim_ctx *shim_current(void);
CUresult shim_require_ctx(struct shim_ctx **ctx);
CUresult shim_dev_check(CUdevice dev);
/* len bytes at p lie inside one allocation (or module global) we know. */
CUresult shim_check_range(CUdeviceptr p, size_t len);
CUresult shim_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s,
				int per_thread);
CUresult shim_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s, int per_thread);
void shim_mem_forget_ctx(uint64_t ctx);
/*
 * Device ranges that are no cuMemAlloc allocation, for the range checks,
 * cuMemGetAddressRange and the pointer attributes: the mappings of the
 * virtual memory functions (vmm.c) and mapped and managed memory (twin.c).
 * cuMemFree refuses them.
 */
#define SHIM_RANGE_VMM		1u	/* a mapping: a range may run on into the next one */
#define SHIM_RANGE_TWIN		2u	/* mapped or managed memory */
#define SHIM_RANGE_NOACCESS	4u	/* mapped, but no device may access it yet */
int shim_mem_range_add(uint64_t base, uint64_t size, unsigned int flags);
void shim_mem_range_flags(uint64_t base, unsigned int flags);
void shim_mem_range_del(uint64_t base);
/* The pool the allocation holding p came from, NULL for none. */
/* The context of the device allocation that holds p, or 0 (none known). */
uint64_t shim_mem_ctx(CUdeviceptr p);
/* A copy's end on another server than context ctx's (span.c); array_dev: -1 for none. */
bool shim_span_end_apart(uint64_t ctx, CUmemorytype type, CUdeviceptr dptr, int array_dev,
			 uint64_t end_ctx);
CUmemoryPool shim_mem_pool(CUdeviceptr p);
/* A process-wide id of the allocation holding p, never reused; 0: none. */
uint64_t shim_mem_buffer_id(CUdeviceptr p);
CUresult shim_cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev);

/*
 * Where the bytes of a copy to host memory land: rows of width bytes,
 * pitch apart, rows to a slice, slices slice bytes apart, from base.  The
 * reply's DATA offsets count the rows laid end to end, total bytes.
 */
struct shim_rows {
	char *base;
	uint64_t width, rows, pitch, slice, total;
};

/* One call on the wire. */
struct shim_call {
	unsigned int fn;
	uint64_t ctx;		/* id for the record header */
	/*
	 * A session over several servers: the device whose server the record
	 * goes to, plus one; 0: its context's (span.c).
	 */
	int dev1;
	const void *args;
	size_t args_len;
	const struct iovec *iov;
	int niov;
	void *out;		/* the reply's fixed part */
	size_t out_len;
	void *outbuf;		/* the reply's variable part, or data pieces */
	size_t outbuf_len;
	const struct shim_rows *rows;	/* data pieces laid out in rows instead */
	bool force_sync;	/* wait even if the class is async */
	bool force_async;	/* no reply wanted, whatever the class (lookups answered here) */
	/*
	 * A copy to the host that waits covers its stream as a synchronisation
	 * does: the stream's id plus one, 0 for none.
	 */
	uint64_t covers;
	bool host_pinned;	/* a copy to the host goes to page-locked memory */
	bool waited;		/* set by shim_call: a reply was awaited */
	bool captured;		/* set by shim_call: it went to a capturing stream */
	/*
	 * Data pieces handed to sink instead of copied to outbuf (twin.c's
	 * pulls), on the thread that drains the replies: 0, or -1 for a
	 * piece that is not the reply's to send (the session is lost).
	 */
	int (*sink)(void *arg, uint64_t off, const void *p, uint64_t len);
	void *sink_arg;
};

CUresult shim_begin(struct shim_call *c, unsigned int fn);
/* shim_begin, then the call's argument block and reply block (out may be NULL). */
static inline CUresult shim_begin_io(struct shim_call *c, unsigned int fn, const void *args,
				     size_t args_len, void *out, size_t out_len)
{
	CUresult r = shim_begin(c, fn);

	if (r)
		return r;
	c->args = args;
	c->args_len = args_len;
	c->out = out;
	c->out_len = out_len;
	return CUDA_SUCCESS;
}
/* shim_begin for a call that answers in *out, which must be there. */
static inline CUresult shim_begin_out(struct shim_call *c, unsigned int fn, const void *out)
{
	CUresult r = shim_begin(c, fn);

	if (r)
		return r;
	return out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult shim_call(struct shim_call *c);
/* The call with one piece of data, iov. */
static inline CUresult shim_call_iov(struct shim_call *c, const struct iovec *iov)
{
	c->iov = iov;
	c->niov = 1;
	return shim_call(c);
}

/*
 * The call that creates o, with one piece of data: when it fails with an
 * answer, o is put and the caller returns what it says.
 */
static inline CUresult shim_call_new(struct shim_call *c, struct shim_obj *o, const void *data,
				     size_t len)
{
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	CUresult r;

	r = shim_call_iov(c, &iov);
	c->iov = NULL;
	c->niov = 0;
	if (r && c->waited)
		shim_obj_put(o);
	return r;
}
/* A record with its argument block and data, in the current context (or none, noctx). */
CUresult shim_send(unsigned int fn, const void *args, size_t len, const struct iovec *iov,
		   int niov);
static inline CUresult shim_end(struct shim_call *c, CUresult r)
{
	(void)c;
	return r;
}

/* A session over several servers (span.c). */
void shim_span_routes(const uint8_t *r, unsigned int n);
unsigned int shim_span_nroutes(void);
unsigned int shim_span_dev_route(int dev);
/* Devices a and b are on different servers. */
bool shim_span_apart(int a, int b);
/* A context made: its records go to its device's server. */
void shim_span_ctx(struct shim_ctx *c);
/* The route of a record about to go, and the context its header names. */
uint32_t shim_span_route(const struct shim_call *c, uint64_t *ctx);
/* What one server cannot do for another; *done when it was done here. */
CUresult shim_span_call(struct shim_call *c, bool *done);

/* Transport. */
CUresult shim_connect(void);
/* Read the transport's tunables from the environment (GLEAM_SPIN_US). */
void shim_transport_tune(void);
/* Submit one record; long data is cut into pieces flagged MORE. */
CUresult shim_submit(struct shim_call *c, uint32_t tag, unsigned int flags);
uint32_t shim_new_waiter(struct shim_call *c);
CUresult shim_wait_reply(uint32_t tag);
CUresult shim_conn_error(void);
/*
 * A record whose reply is wanted later: sent now, answered into c's out
 * and outbuf (which must live until shim_pending_wait) whenever it comes.
 * NULL without memory.
 */
struct shim_pending;
struct shim_pending *shim_defer(struct shim_call *c);
bool shim_pending_done(struct shim_pending *p);
/* Wait for it if it has not come, and let it go: the reply's result. */
CUresult shim_pending_wait(struct shim_pending *p);
/* The same, for a reply that follows another's that was waited for: no wait of its own. */
CUresult shim_pending_take(struct shim_pending *p);
/* Data bytes one record may carry on this session's ring. */
size_t shim_piece_max(void);
/*
 * Wait on the session ring, as the threads waiting for replies do, until
 * cond(arg) holds (evaluated with the ring's lock held); the session's
 * error if it is lost.
 */
CUresult shim_wait_event(bool (*cond)(void *), void *arg);
/* Write what the kernels printed and has arrived to stdout and stderr, in order. */
void shim_output_flush(void);

/*
 * Host functions and stream callbacks (hostfn.c).  shim_host_notice: the
 * worker asks for a run (from the ring, its lock held).  shim_host_node:
 * a function kept under an id for a graph's host node, run at each of
 * its launches; the id travels where the record would carry the
 * function (the worker's side: wk_host_node()).  shim_host_wait_stream:
 * wait until the host functions queued on stream sid have run.
 */
void shim_host_notice(const struct gleam_host_run *b, CUresult status);
CUresult shim_host_node(CUhostFn fn, void *data, uint64_t *id);
void shim_host_wait_stream(uint64_t sid, const char *who);
/* This thread runs a host function now: it may not call CUDA. */
extern __thread bool shim_in_host_fn;
/* This thread is the shim's own, that runs host functions. */
extern __thread bool shim_host_thread;

/*
 * Stream capture (graph.c).  Records that stream capture makes illegal get
 * the driver's errors here, before they are sent; see shim_capture_gate().
 * shim_capture_watch counts active captures and events recorded in one:
 * while it is zero nothing is looked at.
 */
extern _Atomic unsigned int shim_capture_watch;
extern _Atomic unsigned int shim_captures;
CUresult shim_capture_gate(struct shim_call *c);
/*
 * A copy between host memory (function fn) on the stream the current
 * call resolved: refused while that stream captures.
 */
CUresult shim_capture_host_copy(unsigned int fn, uint64_t ctx);
/*
 * The same for a copy of rows or of an array with host memory (2D and 3D
 * copies, cuMemcpyHtoAAsync, cuMemcpyAtoHAsync), which Gleam does not
 * capture through stages.
 */
CUresult shim_capture_host_rows(unsigned int fn, uint64_t ctx);
/*
 * A copy between host memory and device memory dev on stream s, the
 * stream the current call resolved: while that stream captures, captured
 * through a stage of the graph's (*staged set), else left to the caller.
 */
CUresult shim_capture_stage_copy(bool to_host, void *host, CUdeviceptr dev, size_t n, CUstream s,
				 int per_thread, uint64_t ctx, bool *staged);
/*
 * The shim's own calls (a graph's stages): stream capture's rules are the
 * application's, and do not apply to them.
 */
extern __thread bool shim_ungated;
/* Device memory of the shim's own: never from a slab, outside capture's rules. */
CUresult shim_mem_alloc_own(CUdeviceptr *dptr, size_t bytesize);
/* Freed again; false when its context had already gone, and the memory with it. */
bool shim_mem_free_own(uint64_t ctx, CUdeviceptr dptr);
void shim_capture_ctx_gone(uint64_t ctx);

/*
 * Waits counted (waits.c): those made, and those the program's calls
 * required by CUDA's rules, published in the session ring.
 */
struct shim_req;
void shim_waits_attach(struct gleam_ring_ctl *sq);
void shim_waits_note(const struct shim_call *c, struct shim_ctx *ctx);
void shim_waits_made(void);
void shim_waits_counts(uint64_t *made, uint64_t *required);
void shim_waits_ctx_gone(struct shim_ctx *ctx);
void shim_waits_ctx_put(struct shim_ctx *ctx);
/*
 * Answers kept for the session (memo.c; the table's once): the reply block
 * of fn for an argument block, copied to out (olen bytes) when kept.  Put
 * keeps a successful one while there is room.
 */
#define SHIM_MEMO_ARGS_MAX	64
#define SHIM_MEMO_OUT_MAX	32
bool shim_memo_get(unsigned int fn, const void *args, size_t alen, void *out, size_t olen);
void shim_memo_put(unsigned int fn, const void *args, size_t alen, const void *out, size_t olen);
/* Host memory the shim allocated or the program registered ("page-locked"). */
bool shim_host_pinned(const void *p);
bool shim_host_registered(const void *p);
/* The registration that holds p (rt_pointer.c): its start and size. */
bool shim_host_reg_of(const void *p, void **base, size_t *size);
bool shim_host_alloc_of(const void *p, void **base, size_t *size);

/*
 * Virtual memory (vmm.c) for the shim's own use: address space on the
 * server (near hint); device memory asked for and then mapped in a range
 * so reserved (a question between the two shares their wait), or in a
 * reservation of its own near at (a twin's); the minimum granularity of
 * device memory on dev, asked once.
 */
CUresult shim_vmm_reserve_own(uint64_t hint, uint64_t size, uint64_t align, uint64_t *addr);
void shim_vmm_unreserve_own(uint64_t addr, uint64_t size);
struct shim_vmh;
struct shim_pending;
struct shim_own {
	struct shim_vmh *h;
	struct shim_pending *made;
	uint64_t gran;
};
CUresult shim_vmm_own_begin(uint64_t size, int dev, struct shim_own *o);
CUresult shim_vmm_own_end(struct shim_own *o, uint64_t base, uint64_t size, int dev);
CUresult shim_vmm_own(uint64_t at, uint64_t size, int dev, uint64_t *addr);
void shim_vmm_own_free(uint64_t addr, uint64_t size, bool keep_range);
CUresult shim_vmm_granularity(int dev, uint64_t *gran);
bool shim_vmm_handle_types(uint64_t p, unsigned long long *types);
/* What cuDeviceCanAccessPeer answers (rt_peer.c), asked once per pair. */
CUresult shim_cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer);

/*
 * Mapped page-locked memory and managed memory (twin.c): device memory of
 * the session's at the address the program holds, kept in step with this
 * process's pages.  While shim_twins is 0, nothing else here is looked at.
 */
#define SHIM_TWIN_MAPPED	1	/* cuMemHostAlloc with CU_MEMHOSTALLOC_DEVICEMAP */
#define SHIM_TWIN_REGISTERED	2	/* cuMemHostRegister with CU_MEMHOSTREGISTER_DEVICEMAP */
#define SHIM_TWIN_MANAGED	3	/* cuMemAllocManaged */

struct shim_twin_info {
	unsigned int kind;
	uint64_t host, dev, size;	/* host pages at host are device memory at dev */
	unsigned int flags;		/* as the program gave them */
	int devno;
};

extern _Atomic unsigned int shim_twins;
/* A range shim_check_range() accepted lay in a twin: the current call touches one. */
extern __thread bool shim_twin_touched;
/* shim_call(): before a record goes out, after it went, and when its answer came. */
void shim_twin_before(struct shim_call *c);
struct shim_twin_pull;
struct shim_twin_pull *shim_twin_pull_send(struct shim_call *c);
CUresult shim_twin_after(struct shim_call *c, struct shim_twin_pull *p, CUresult r);
/* A synchronisation of the current context must wait for the GPU's writes to come back. */
bool shim_twin_owed(void);
/*
 * A copy sent in pieces (htod()) touches a twin: the first piece pushes,
 * and the copy pulls after its last piece itself if CUDA completes it
 * before it returns.
 */
void shim_twin_pieces(bool on);
void shim_twin_pull(void);
/* The next record only reads the twin it touches: no pull after it. */
void shim_twin_reading(bool on);
/* A twin of size bytes, its host pages the shim's own (*host), or the program's at host. */
CUresult shim_twin_new(unsigned int kind, size_t size, unsigned int flags, void **host);
CUresult shim_twin_over(unsigned int kind, void *host, size_t size, unsigned int flags,
			uint64_t *dev);
/* Gone with its memory (the shim's) or its registration: false when p starts no twin of kind. */
bool shim_twin_free(unsigned int kind, uint64_t p);
/* The twin that holds p (a host or a device address). */
bool shim_twin_find(uint64_t p, struct shim_twin_info *ti);
/* [host, host + n) lies in one twin: its device address. */
bool shim_twin_dev(const void *host, size_t n, uint64_t *dev);

/* Say once that a case is not supported, and refuse it. */
#define SHIM_REFUSE(...) \
	({ \
		static bool said_; \
		if (!__atomic_exchange_n(&said_, true, __ATOMIC_RELAXED)) \
			gl_err(__VA_ARGS__); \
		CUDA_ERROR_NOT_SUPPORTED; \
	})

/* Unsupported functions: say so once, return CUDA_ERROR_NOT_SUPPORTED. */
CUresult shim_unsupported(unsigned int idx, const char *name);
/* GLEAM_DEBUG: every call that returns an error says so on stderr. */
extern bool shim_trace;
/* GLEAM_TRACE_WAITS: every call that waits for the server says so, and why. */
extern bool shim_trace_waits;
void shim_trace_error(const char *name, CUresult r);
CUresult shim_cuGetErrorName(CUresult error, const char **pStr);
CUresult shim_cuCtxGetCurrent(CUcontext *pctx);
CUresult shim_cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
CUresult shim_cuStreamGetId(CUstream s, unsigned long long *sid, int per_thread);
CUresult shim_cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status, int per_thread);
/* module.c: kernelParams or extra packed as a launch packs them, into buf; its length. */
CUresult shim_pack_params(struct shim_func *f, void **kp, void **extra, unsigned char *buf,
			  uint64_t *len);
/*
 * module.c: a file's bytes, an image as cuModuleLoad and cuLinkAddFile read
 * it, NUL-terminated, in *buf (freed by the caller) and its length.
 */
CUresult shim_read_image(const char *path, char **buf, size_t *len);
/* module.c: launch dimensions the driver would refuse. */
CUresult shim_check_dims(struct shim_func *f, const unsigned int g[3], const unsigned int b[3],
			 unsigned int shmem);
/*
 * array.c: a CUDA_MEMCPY3D checked as cuMemcpy3D checks it, and its
 * description as records carry it; a host end is left as it is, its first
 * byte in *src_host or *dst_host (else NULL).
 */
struct gleam_copy;
CUresult shim_copy3d_check(const CUDA_MEMCPY3D *p, struct gleam_copy *g, char **src_host,
			   char **dst_host);
/*
 * memory.c: device memory a graph allocated, kept for range checks like
 * any allocation; forgotten again (false: it was not kept).
 */
CUresult shim_mem_keep(CUdeviceptr base, size_t size, uint64_t ctx);
bool shim_mem_forget(CUdeviceptr base);
/* A CUlaunchConfig as records carry it (cuLaunchKernelEx, cluster queries). */
CUresult shim_pack_config(const CUlaunchConfig *cfg, int per_thread, const char *who,
			  struct gleam_launch_ex *lx, struct gleam_launch_attr *attrs);

struct shim_procaddr {
	const char *name;
	int version;
	unsigned int flags;
	void *fn;
};
#define SHIM_PA_PT	1	/* per-thread default stream variant */
extern const struct shim_procaddr shim_procaddr_table[];
extern const unsigned int shim_procaddr_count;

#define GLEAM_GPUS_MAX_LOCAL	64

struct shim_errname {
	int code;
	const char *name;
};
extern const struct shim_errname shim_errnames[];
extern const unsigned int shim_nerrnames;

/* What cudart registers and cuModuleLoadData may be given: a fat binary's wrapper. */
#define FATBIN_WRAPPER_MAGIC	0x466243B1u

struct fatbin_wrapper {
	uint32_t magic;
	uint32_t version;
	const void *data;
	const void *filename;
};

#endif /* GLEAM_SHIM_H */
