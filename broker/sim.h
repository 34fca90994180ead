/* SPDX-License-Identifier: MIT */
/*
 * The sim backend: a test instrument, not a GPU.  Device memory is host
 * memory of the worker, memory operations run for real, and a few test
 * kernels with fixed names (sim_kernels.c) run in C.  Everything completes
 * before the call returns, so streams and events only keep order and time;
 * but host functions, which run on a thread of their own as the driver's
 * do, and which the work queued after them waits for (sim_host.c).
 * It lets every part around replay be tested where there is no GPU;
 * nothing measured on it says anything about GPUs.
 *
 * Its private interface: the objects it hands out, its state, and the
 * helpers that its files share.  sim_core.c has its devices, objects,
 * contexts and the ops table the worker calls; sim_memory.c allocations,
 * copies and fills; sim_module.c modules, functions and launches;
 * sim_stream.c streams, events, stream capture and graphs; sim_graph.c
 * graphs built node by node; sim_link.c JIT linking; sim_pool.c the
 * stream-ordered allocator and memory pools; sim_host.c host functions
 * and stream callbacks; sim_vmm.c virtual memory management, peer copies
 * and peer access; sim_kernels.c the test kernels.
 */
#ifndef GLEAM_SIM_H
#define GLEAM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "worker.h"

/* GPUs one sim server offers: $GLEAM_SIM_GPUS, 1 to SIM_GPUS_MAX; default 1. */
#define SIM_GPUS_MAX	16

/* A worker's allocations count against the device of its current context. */
#define SIM_MEM_TOTAL	sim_mem_total(wk_server_gpu(sim.cur ? (unsigned int)sim.cur->dev : 0))
#define SIM_MAGIC	0x53494d00u

enum { K_CTX = 1, K_STREAM, K_EVENT, K_MODULE, K_FUNC, K_GRAPH, K_EXEC, K_POOL, K_GNODE,
       K_LINK };

struct sim_obj {
	uint32_t magic;
	uint32_t kind;
};

struct sim_ctx {
	struct sim_obj o;
	int dev;
	unsigned int flags;
	bool primary;
	int refs;
	CUresult sticky;
	size_t limit[CU_LIMIT_MAX];
};

struct sim_capture;

/*
 * A stream's part in a capture: each made stream has one, and so has the
 * per-thread default stream; the legacy stream cannot capture.
 */
struct sim_cstate {
	struct sim_capture *cap;	/* NULL: not capturing */
	struct sim_ctx *ctx;
	bool blocking;		/* it synchronises with the legacy stream */
	uint64_t last;		/* the capture's operations up to this stream's last */
	uint64_t joined;	/* ... up to which another stream of it waited for it */
	struct sim_cstate *joined_by;	/* that stream */
};

struct sim_stream {
	struct sim_obj o;
	int prio;
	unsigned int flags;
	unsigned long long id;	/* cuStreamGetId */
	struct sim_cstate cs;
};

struct sim_event {
	struct sim_obj o;
	unsigned int flags;
	bool recorded;
	uint64_t t_ns;
	/* Last recorded in a capture: its id, the stream and how far it had come. */
	uint64_t cap_id;
	struct sim_cstate *cap_from;
	uint64_t cap_seq;
	/* Graphs' nodes and operations that record it: it lives while they do. */
	unsigned int graph_refs;
};

struct sim_module {
	struct sim_obj o;
	unsigned char *image;
	size_t size;
	/* The image's zstd-compressed parts (fat binaries' entries), unpacked on first use. */
	unsigned char *plain;
	size_t plain_size;
	bool unpacked;
	struct sim_global *globals;
	/*
	 * The kernels of the code a 9.0 device loads (common/cubin.c), read
	 * at the first lookup: a cubin's attributes, or a PTX's layouts.
	 */
	struct gl_module_index *idx;
	bool indexed;
};

/* A module's variable in device memory: made on first lookup, freed at unload. */
struct sim_global {
	struct sim_global *next;
	CUdeviceptr d;
	size_t size;
	char name[];
};

struct sim_func {
	struct sim_obj o;
	const struct sim_kernel *k;	/* NULL: named by the image, not runnable here */
	char name[96];
	struct gleam_param p[16];
	uint32_t nparams;
	uint32_t params_size;
	const struct gl_kernel *gk;	/* what its cubin says, for a cubin's kernel */
};

struct sim_pool;

struct sim_alloc {
	uint64_t base, size;
	struct sim_pool *pool;	/* the stream-ordered allocator's, or NULL */
	bool graph;		/* freed in a capture: its graph's, freed with it */
	unsigned char vmm;	/* SIM_VMM_*: a mapping of sim_vmm.c's, no allocation */
};

/*
 * A mapping of the virtual memory functions: one no device may access
 * yet, or one it may.  Mappings that lie side by side are one range.
 */
#define SIM_VMM_NOACCESS	1
#define SIM_VMM_MAPPED		2

/*
 * The worker's sim: its current context, each device's primary context,
 * and its allocations, sorted by address.
 */
struct sim_state {
	struct sim_ctx *cur;
	struct sim_ctx primary[SIM_GPUS_MAX];
	struct sim_alloc *a;
	size_t n, cap;
	uint64_t used;
};

extern struct sim_state sim;

/*
 * Memory pools keep the driver's accounts: memory in use, memory reserved
 * (in use, or kept for reuse after a free), and the high watermarks of
 * both.  The sim reserves exactly what is in use, and keeps what was
 * freed until a synchronisation finds more kept than the release
 * threshold, or a trim gives it back.
 */
struct sim_pool {
	struct sim_obj o;
	int dev;
	bool dflt;		/* a device's default pool */
	int reuse[3];		/* the CU_MEMPOOL_ATTR_REUSE_* policies, in order */
	uint64_t threshold;
	uint64_t reserved, reserved_high, used, used_high;
	struct sim_pool *next;
};

/*
 * A captured operation, run when its graph is launched.  A capture keeps
 * its operations in the order they were made, and the sim runs each to
 * its end before the next: that order keeps every dependency that the
 * capture's streams and events expressed.  Event records and waits
 * become no operations of their own (on a GPU they are edges, not nodes).
 */
enum sim_op_kind { OP_COPY, OP_SET, OP_KERNEL, OP_HOST, OP_SET2D, OP_COPY3D, OP_EVREC, OP_COND };

/* What operations of graphs built node by node hold by reference (sim_graph.c). */
struct sim_gpayload;

struct sim_op {
	enum sim_op_kind kind;
	CUdeviceptr dst, src;
	size_t n;		/* bytes to copy, or elements to set (in a row) */
	unsigned int width;	/* OP_SET, OP_SET2D: bytes per element */
	uint32_t value;
	struct sim_func *f;	/* OP_KERNEL; functions last as long as the worker */
	unsigned int grid[3], block[3], shmem;
	unsigned char *params;	/* the graph's own copy */
	size_t params_size;
	void (*host)(void *);	/* OP_HOST (sim_host.c): a host function and its data */
	void *host_data;
	size_t pitch, rows;	/* OP_SET2D */
	struct sim_gpayload *pl;	/* OP_COPY3D, OP_EVREC, OP_COND: counted */
	uint64_t node;		/* the node it was made from (its serial), 0: captured */
	bool off;		/* its node is disabled in this executable graph */
};

/*
 * Memory allocated in a graph's capture.  What was freed there too
 * belongs to the graph and to the executable graphs made from it, which
 * use it at every launch: it goes with the last of them.
 */
struct sim_gmem {
	CUdeviceptr d;
	bool freed;
};

struct sim_graph_mem {
	unsigned int refs;
	struct sim_gmem *m;
	size_t n, cap;
};

/* The nodes of a graph built node by node (sim_graph.c). */
struct sim_gnodes;

struct sim_graph {
	struct sim_obj o;
	struct sim_op *ops;	/* captured: run first, in order */
	size_t n, cap;
	struct sim_graph_mem *mem;
	struct sim_gnodes *gn;	/* added node by node */
};

/* Which node each of an executable graph's operations answers to (sim_graph.c). */
struct sim_xnodes;

struct sim_exec {
	struct sim_obj o;
	struct sim_op *ops;
	size_t n;
	struct sim_graph_mem *mem;
	struct sim_xnodes *xn;
};

struct sim_capture {
	uint64_t id;
	struct sim_ctx *ctx;
	struct sim_graph *g;
	struct sim_cstate *origin;
	struct sim_cstate **members;	/* the origin and the streams that joined */
	size_t nm, mcap;
	bool invalidated;
	struct sim_capture *next;
};

/* sim_core.c: devices, objects, contexts. */
uint64_t sim_mem_total(unsigned int g);
bool sim_dev_ok(CUdevice dev);
void sim_uuid(uint8_t *uuid, unsigned int g);
void sim_dev_attrs(int32_t *attr);
bool sim_is(const void *h, uint32_t kind);
void *sim_obj_new(size_t size, uint32_t kind);
void sim_obj_free(void *h);
CUresult sim_ctx_ok(void);
#define CTX_OK() do { CUresult _r = sim_ctx_ok(); if (_r) return _r; } while (0)
unsigned int sim_dev(void);
void sim_ran_since(uint64_t t0);

/* sim_memory.c: allocations, copies and fills. */
void *sim_mem(void *be, uint64_t p, uint64_t len);
CUresult sim_alloc_mem(CUdeviceptr *dptr, size_t size, struct sim_pool *pool);
long sim_alloc_at(CUdeviceptr d);
CUresult sim_free_at(long i);
CUresult sim_dtod(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult sim_set_n(CUdeviceptr dst, uint32_t v, size_t n, unsigned int w);
/* An entry of sim.a, kept in order by base; 0 or -1 without memory. */
int sim_alloc_insert(const struct sim_alloc *e);
void sim_alloc_remove(long i);

/* sim_module.c: launches. */
CUresult sim_run_kernel(struct sim_func *f, const unsigned int g[3], const unsigned int b[3],
			unsigned int shmem, const void *params, size_t size);

/* sim_stream.c: work on streams, and what a capture makes of it. */
CUresult sim_legacy_work(void);
CUresult sim_stream_work(CUstream s, struct sim_capture **cap);
/* Whether s synchronises with the legacy stream (the legacy stream too). */
bool sim_stream_blocking(CUstream s);
CUresult sim_capture_op(struct sim_capture *cap, CUstream s, const struct sim_op *op);
CUresult sim_host_copy_captured(struct sim_capture *cap);
CUresult sim_ctx_sync_check(struct sim_ctx *c);

/* A stream-ordered call's checks: its context (sim_ctx_ok), then sim_stream_work. */
static inline CUresult sim_stream_begin(CUstream s, struct sim_capture **cap)
{
	CUresult r = sim_ctx_ok();

	return r ? r : sim_stream_work(s, cap);
}

/* sim_stream.c: operations copied, freed, run. */
CUresult sim_ops_copy(struct sim_op **out, const struct sim_op *ops, size_t n);
void sim_ops_free(struct sim_op *ops, size_t n);
CUresult sim_ops_run(const struct sim_op *ops, size_t n);
void sim_graph_mem_put(struct sim_graph_mem *gm);

/*
 * sim_graph.c: graphs built node by node.  A graph's nodes become
 * operations after its captured ones at instantiation, in an order their
 * edges allow; the operations they alone have are run, counted and let
 * go here; an event recorded by a graph lives as long as the graph.
 */
CUresult sim_graph_flatten(const struct sim_graph *g, struct sim_op **ops, size_t *n);
CUresult sim_graph_exec_made(struct sim_exec *e, const struct sim_graph *g);
void sim_graph_exec_gone(struct sim_exec *e);
void sim_graph_nodes_free(struct sim_graph *g);
size_t sim_graph_node_count(const struct sim_graph *g);
CUresult sim_graph_op_run(const struct sim_op *op);
void sim_graph_op_get(struct sim_op *op);
void sim_graph_op_put(struct sim_op *op);
void sim_graph_launch_begin(const struct sim_op *ops, size_t n);
void sim_event_graph_put(struct sim_event *e);
/* A kernel sets a conditional handle's value (cudaGraphSetConditional). */
int sim_cond_set(void *be, uint64_t handle, unsigned int value);
/* sim_array.c: a 3D copy of a graph's, run now. */
CUresult sim_copy3d_run(const CUDA_MEMCPY3D *p);

/*
 * sim_host.c: host functions and callbacks run on a thread of their own.
 * The calling thread waits until those that work on stream s (NULL: the
 * legacy stream; blocking: s synchronises with it) waits for have
 * returned, or those of context c; or asks whether any has not.
 */
void sim_host_wait(CUstream s, bool blocking);
void sim_host_wait_ctx(const struct sim_ctx *c);
bool sim_host_pending(CUstream s, bool blocking);

/* sim_pool.c: the pools' accounts. */
void sim_pool_take(struct sim_pool *p, uint64_t size);
void sim_pool_give(struct sim_pool *p, uint64_t size);
void sim_pools_settle(void);

#endif /* GLEAM_SIM_H */
