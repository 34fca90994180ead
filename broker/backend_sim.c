// SPDX-License-Identifier: MIT
/*
 * The sim backend: a test instrument, not a GPU.  Device memory is host
 * memory of the worker, memory operations run for real, and a few test
 * kernels with fixed names (sim_kernels.c) run in C.  Everything completes
 * before the call returns, so streams and events only keep order and time.
 * It lets every part around replay be tested where there is no GPU;
 * nothing measured on it says anything about GPUs.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <zstd.h>

#include "cubin.h"
#include "image.h"
#include "cudarules.h"
#include "sim_array.h"
#include "sim_kernels.h"
#include "util.h"
#include "worker.h"


/*
 * What the sim does not implement (the generated sim_stubs_gen.c answers
 * for it): CUDA_ERROR_NOT_SUPPORTED, and the function's name once per
 * worker on stderr.
 */
CUresult sim_unsupported(unsigned int fn)
{
	static uint64_t said[(GL_FN_LIMIT + 63) / 64];
	uint64_t bit = 1ull << (fn % 64);

	if (fn < GL_FN_LIMIT && !(__atomic_fetch_or(&said[fn / 64], bit, __ATOMIC_RELAXED) & bit))
		fprintf(stderr, "gleamd: %s: not implemented by the sim backend\n", gl_fn_name(fn));
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* The sim device's multiprocessors (what the test programs print). */
#define SIM_SMS		4u
/* GPUs one sim server offers: $GLEAM_SIM_GPUS, 1 to SIM_GPUS_MAX; default 1. */
#define SIM_GPUS_MAX	16

static unsigned int sim_ngpus(void)
{
	static unsigned int n;

	if (!n) {
		const char *e = getenv("GLEAM_SIM_GPUS");
		unsigned long v = e ? strtoul(e, NULL, 10) : 1;

		n = v < 1 ? 1 : v > SIM_GPUS_MAX ? SIM_GPUS_MAX : (unsigned int)v;
	}
	return n;
}

/*
 * Device memory GPU g offers: 16 GiB, or $GLEAM_SIM_MEM bytes; a list
 * separated by commas gives each GPU its own, the last for those after.
 */
static uint64_t sim_mem_total(unsigned int g)
{
	static uint64_t total[SIM_GPUS_MAX];

	if (g >= SIM_GPUS_MAX)
		g = SIM_GPUS_MAX - 1;
	if (!total[g]) {
		const char *e = getenv("GLEAM_SIM_MEM");
		uint64_t v = 16ull << 30;

		for (unsigned int i = 0; e && *e; i++) {
			char *end;
			uint64_t x = strtoull(e, &end, 0);

			if (x)
				v = x;
			if (i == g || *end != ',')
				break;
			e = end + 1;
		}
		total[g] = v;
	}
	return total[g];
}

/*
 * The devices this process sees: every GPU of the sim, or only the one
 * its server gave the session (its device 0).
 */
static unsigned int sim_ndev(void)
{
	return wk_pinned_gpu() >= 0 ? 1 : sim_ngpus();
}

static bool dev_ok(CUdevice dev)
{
	return dev >= 0 && (unsigned int)dev < sim_ndev();
}

/* A worker's allocations count against the device of its current context. */
#define SIM_MEM_TOTAL	sim_mem_total(wk_server_gpu(sim.cur ? (unsigned int)sim.cur->dev : 0))
#define SIM_MAGIC	0x53494d00u

enum { K_CTX = 1, K_STREAM, K_EVENT, K_MODULE, K_FUNC, K_GRAPH, K_EXEC, K_POOL };

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

/* Stream ids: the legacy stream's, the per-thread one's, then made ones. */
#define SIM_STREAM_ID_LEGACY	1ull
#define SIM_STREAM_ID_PT	2ull
static unsigned long long sim_stream_ids = 16;

struct sim_event {
	struct sim_obj o;
	unsigned int flags;
	bool recorded;
	uint64_t t_ns;
	/* Last recorded in a capture: its id, the stream and how far it had come. */
	uint64_t cap_id;
	struct sim_cstate *cap_from;
	uint64_t cap_seq;
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
	/* Its cubin's kernels (common/cubin.c), read at the first lookup: their attributes. */
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
	uint32_t params_size;
	const struct gl_kernel *gk;	/* what its cubin says, for a cubin's kernel */
};

struct sim_pool;

struct sim_alloc {
	uint64_t base, size;
	struct sim_pool *pool;	/* the stream-ordered allocator's, or NULL */
	bool graph;		/* freed in a capture: its graph's, freed with it */
};

static struct {
	struct sim_ctx *cur;
	struct sim_ctx primary[SIM_GPUS_MAX];
	struct sim_alloc *a;
	size_t n, cap;
	uint64_t used;
} sim;

static bool is(const void *h, uint32_t kind)
{
	const struct sim_obj *o = h;

	/* Special handles (the legacy and per-thread streams) are no objects. */
	if ((uintptr_t)h < 4096 || ((uintptr_t)h & 7))
		return false;
	return o->magic == SIM_MAGIC && o->kind == kind;
}

static void *obj_new(size_t size, uint32_t kind)
{
	struct sim_obj *o = calloc(1, size);

	if (o) {
		o->magic = SIM_MAGIC;
		o->kind = kind;
	}
	return o;
}

static void obj_free(void *h)
{
	((struct sim_obj *)h)->magic = 0;
	free(h);
}

/* Every call needs a live context and fails with its sticky error. */
static CUresult ctx_ok(void)
{
	if (!sim.cur)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (sim.cur->primary && sim.cur->refs <= 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	return sim.cur->sticky;
}

#define CTX_OK() do { CUresult _r = ctx_ok(); if (_r) return _r; } while (0)

static CUresult stream_ok(CUstream s)
{
	if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || is(s, K_STREAM))
		return CUDA_SUCCESS;
	return CUDA_ERROR_INVALID_HANDLE;
}

/*
 * The sim's GPUs are shared by the workers of their server: the time of
 * spin_ns kernels is queued on its GPU after what the other sessions
 * queued there, and every other kernel and copy counts the time it took,
 * so that the server can say how busy each GPU was (Documentation/sim.md).
 */
static unsigned int sim_dev(void)
{
	return sim.cur ? (unsigned int)sim.cur->dev : 0;
}

static bool sim_queued;		/* the kernel running queued its own time */

static uint64_t gpu_time(void *be, uint64_t ns)
{
	(void)be;
	sim_queued = true;
	return wk_gpu_queue(sim_dev(), ns);
}

static void ran_since(uint64_t t0)
{
	wk_gpu_ran(sim_dev(), gl_now_ns() - t0);
}

/* ---- memory ---- */

static long find_le(uint64_t p)
{
	_Static_assert(offsetof(struct sim_alloc, base) == 0, "sorted by a leading base");
	return gl_find_le(sim.a, sim.n, sizeof(sim.a[0]), p);
}

/* Host view of [p, p + len) when it lies inside one allocation. */
static void *mem(void *be, uint64_t p, uint64_t len)
{
	long i = find_le(p);

	(void)be;
	if (i < 0 || p - sim.a[i].base > sim.a[i].size || len > sim.a[i].size - (p - sim.a[i].base))
		return NULL;
	return (void *)(uintptr_t)p;
}

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

static struct sim_pool *sim_pools;			/* every pool */
static struct sim_pool *sim_default_pool[SIM_GPUS_MAX];
static struct sim_pool *sim_current_pool[SIM_GPUS_MAX];	/* NULL: the default */

static void pool_take(struct sim_pool *p, uint64_t size)
{
	p->used += size;
	p->reserved = MAX(p->reserved, p->used);
	p->used_high = MAX(p->used_high, p->used);
	p->reserved_high = MAX(p->reserved_high, p->reserved);
}

static void pool_give(struct sim_pool *p, uint64_t size)
{
	p->used -= MIN(p->used, size);
}

/* At a synchronisation, each pool gives back what it keeps beyond its threshold. */
static void pools_settle(void)
{
	for (struct sim_pool *p = sim_pools; p; p = p->next)
		if (p->reserved > p->threshold)
			p->reserved = MAX(p->used, p->threshold);
}

static CUresult alloc_mem(CUdeviceptr *dptr, size_t size, struct sim_pool *pool)
{
	void *p;
	long i;

	CTX_OK();
	if (!size)
		return CUDA_ERROR_INVALID_VALUE;
	if (size > SIM_MEM_TOTAL || sim.used > SIM_MEM_TOTAL - size)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (sim.n == sim.cap) {
		size_t cap = sim.cap ? 2 * sim.cap : 64;
		struct sim_alloc *a = realloc(sim.a, cap * sizeof(*a));

		if (!a)
			return CUDA_ERROR_OUT_OF_MEMORY;
		sim.a = a;
		sim.cap = cap;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	i = find_le((uint64_t)(uintptr_t)p) + 1;
	memmove(&sim.a[i + 1], &sim.a[i], (sim.n - (size_t)i) * sizeof(sim.a[0]));
	sim.a[i] = (struct sim_alloc){ (uint64_t)(uintptr_t)p, size, pool };
	sim.n++;
	sim.used += size;
	if (pool)
		pool_take(pool, size);
	*dptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

CUresult sim_cuMemAlloc(CUdeviceptr *dptr, size_t size)
{
	return alloc_mem(dptr, size, NULL);
}

/* The allocation at d, or -1. */
static long alloc_at(CUdeviceptr d)
{
	long i = find_le(d);

	return i >= 0 && sim.a[i].base == d ? i : -1;
}

static CUresult free_at(long i);

/* Memory a graph freed is not the program's to free again. */
CUresult sim_cuMemFree(CUdeviceptr d)
{
	long i;

	CTX_OK();
	i = alloc_at(d);
	if (i < 0 || sim.a[i].graph)
		return CUDA_ERROR_INVALID_VALUE;
	return free_at(i);
}

static CUresult free_at(long i)
{
	munmap((void *)(uintptr_t)sim.a[i].base, sim.a[i].size);
	sim.used -= sim.a[i].size;
	if (sim.a[i].pool)
		pool_give(sim.a[i].pool, sim.a[i].size);
	memmove(&sim.a[i], &sim.a[i + 1], (sim.n - (size_t)i - 1) * sizeof(sim.a[0]));
	sim.n--;
	return CUDA_SUCCESS;
}

CUresult sim_cuMemGetInfo(size_t *free_b, size_t *total)
{
	CTX_OK();
	*free_b = SIM_MEM_TOTAL - MIN(sim.used, SIM_MEM_TOTAL);
	*total = SIM_MEM_TOTAL;
	return CUDA_SUCCESS;
}

/* ---- stream capture: what work on a capturing stream becomes ---- */

/*
 * A captured operation, run when its graph is launched.  A capture keeps
 * its operations in the order they were made, and the sim runs each to
 * its end before the next: that order keeps every dependency that the
 * capture's streams and events expressed.  Event records and waits
 * become no operations of their own (on a GPU they are edges, not nodes).
 */
enum sim_op_kind { OP_COPY, OP_SET, OP_KERNEL };

struct sim_op {
	enum sim_op_kind kind;
	CUdeviceptr dst, src;
	size_t n;		/* bytes to copy, or elements to set */
	unsigned int width;	/* OP_SET: bytes per element */
	uint32_t value;
	struct sim_func *f;	/* OP_KERNEL; functions last as long as the worker */
	unsigned int grid[3], block[3], shmem;
	unsigned char *params;	/* the graph's own copy */
	size_t params_size;
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

struct sim_graph {
	struct sim_obj o;
	struct sim_op *ops;
	size_t n, cap;
	struct sim_graph_mem *mem;
};

struct sim_exec {
	struct sim_obj o;
	struct sim_op *ops;
	size_t n;
	struct sim_graph_mem *mem;
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
	return is(s, K_STREAM) ? &((struct sim_stream *)s)->cs : NULL;
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

/* Work on the legacy stream: the synchronous copies and fills. */
static CUresult legacy_work(void)
{
	return implicit_capture() ? CUDA_ERROR_STREAM_CAPTURE_IMPLICIT : CUDA_SUCCESS;
}

/*
 * Before work for stream s: an error, or in *cap the capture that records
 * the work instead of running it (NULL: run it now).
 */
static CUresult stream_work(CUstream s, struct sim_capture **cap)
{
	*cap = NULL;
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	if (legacy(s))
		return legacy_work();
	*cap = cstate(s)->cap;
	if (*cap && (*cap)->invalidated)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	return CUDA_SUCCESS;
}

/*
 * Operations a graph may hold: a graph launched into a capture copies its
 * own, and without a bound a few records could make one as large as the
 * worker's memory.
 */
#define SIM_GRAPH_OPS_MAX	(1u << 20)

/* op goes into cap's graph as stream s's latest; its parameter block becomes the graph's. */
static CUresult capture_op(struct sim_capture *cap, CUstream s, const struct sim_op *op)
{
	struct sim_graph *g = cap->g;

	if (g->n >= SIM_GRAPH_OPS_MAX) {
		cap->invalidated = true;
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (g->n == g->cap) {
		size_t n = g->cap ? 2 * g->cap : 16;
		struct sim_op *ops = realloc(g->ops, n * sizeof(*ops));

		if (!ops)
			return CUDA_ERROR_OUT_OF_MEMORY;
		g->ops = ops;
		g->cap = n;
	}
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
static CUresult host_copy_captured(struct sim_capture *cap)
{
	cap->invalidated = true;
	return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* A context's synchronisation would wait for its captures' work, which does not run. */
static CUresult ctx_sync_check(struct sim_ctx *c)
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

/* ---- the stream-ordered allocator ---- */

static struct sim_pool *pool_new(int dev, bool dflt)
{
	struct sim_pool *p = obj_new(sizeof(*p), K_POOL);

	if (!p)
		return NULL;
	p->dev = dev;
	p->dflt = dflt;
	/* The driver's defaults: every reuse policy on, nothing kept at a synchronisation. */
	p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
	p->next = sim_pools;
	sim_pools = p;
	return p;
}

static struct sim_pool *default_pool(int dev)
{
	if (!sim_default_pool[dev])
		sim_default_pool[dev] = pool_new(dev, true);
	return sim_default_pool[dev];
}

/* What cuMemAllocAsync draws from: the device's current pool. */
static struct sim_pool *device_pool(int dev)
{
	return sim_current_pool[dev] ? sim_current_pool[dev] : default_pool(dev);
}

/*
 * The sim runs each stream's work at once.  In a capture the allocation
 * is the graph's: the sim makes it now and it lasts, so that every launch
 * of the graph finds it.
 */
static CUresult alloc_async(CUdeviceptr *dptr, size_t size, struct sim_pool *pool, CUstream s)
{
	struct sim_graph_mem *gm;
	struct sim_capture *cap;
	CUresult r;

	r = stream_work(s, &cap);
	if (r)
		return r;
	if (!cap)
		return alloc_mem(dptr, size, pool);
	gm = cap->g->mem;
	if (gm->n == gm->cap) {
		size_t n = gm->cap ? 2 * gm->cap : 8;
		struct sim_gmem *m = realloc(gm->m, n * sizeof(*m));

		if (!m)
			return CUDA_ERROR_OUT_OF_MEMORY;
		gm->m = m;
		gm->cap = n;
	}
	r = alloc_mem(dptr, size, NULL);
	if (!r)
		gm->m[gm->n++] = (struct sim_gmem){ *dptr, false };
	return r;
}

CUresult sim_cuMemAllocAsync(CUdeviceptr *dptr, size_t size, CUstream s)
{
	struct sim_pool *p;

	CTX_OK();
	p = device_pool(sim.cur->dev);
	return p ? alloc_async(dptr, size, p, s) : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult sim_cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream s)
{
	CTX_OK();
	if (!is(pool, K_POOL))
		return CUDA_ERROR_INVALID_VALUE;
	return alloc_async(dptr, size, (struct sim_pool *)pool, s);
}

/* A free in a capture must be of memory allocated in it; the graph keeps it. */
CUresult sim_cuMemFreeAsync(CUdeviceptr d, CUstream s)
{
	struct sim_capture *cap;
	CUresult r;

	CTX_OK();
	r = stream_work(s, &cap);
	if (r)
		return r;
	if (!cap)
		return sim_cuMemFree(d);
	long a = alloc_at(d);

	for (size_t i = 0; i < cap->g->mem->n; i++) {
		if (cap->g->mem->m[i].d == d && !cap->g->mem->m[i].freed && a >= 0) {
			cap->g->mem->m[i].freed = true;
			sim.a[a].graph = true;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* ---- copies and fills ---- */

static CUresult htod(CUdeviceptr dst, const void *src, size_t n)
{
	void *d;

	CTX_OK();
	d = mem(NULL, dst, n);
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (n) {
		uint64_t t0 = gl_now_ns();

		memcpy(d, src, n);
		ran_since(t0);
	}
	return CUDA_SUCCESS;
}

static CUresult dtoh(void *dst, CUdeviceptr src, size_t n)
{
	uint64_t t0;
	void *s;

	CTX_OK();
	s = mem(NULL, src, n);
	if (!s)
		return CUDA_ERROR_INVALID_VALUE;
	t0 = gl_now_ns();
	memcpy(dst, s, n);
	ran_since(t0);
	return CUDA_SUCCESS;
}

static CUresult dtod(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	uint64_t t0;
	void *d, *s;

	CTX_OK();
	d = mem(NULL, dst, n);
	s = mem(NULL, src, n);
	if (!d || !s)
		return CUDA_ERROR_INVALID_VALUE;
	t0 = gl_now_ns();
	memmove(d, s, n);
	ran_since(t0);
	return CUDA_SUCCESS;
}

CUresult sim_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	CUresult r;

	CTX_OK();
	r = legacy_work();
	return r ? r : htod(dst, src, n);
}

CUresult sim_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	CUresult r;

	CTX_OK();
	r = legacy_work();
	return r ? r : dtoh(dst, src, n);
}

CUresult sim_cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CUresult r;

	CTX_OK();
	r = legacy_work();
	return r ? r : dtod(dst, src, n);
}

CUresult sim_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	struct sim_capture *cap;
	CUresult r;

	CTX_OK();
	r = stream_work(s, &cap);
	if (r)
		return r;
	return cap ? host_copy_captured(cap) : htod(dst, src, n);
}

CUresult sim_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	struct sim_capture *cap;
	CUresult r;

	CTX_OK();
	r = stream_work(s, &cap);
	if (r)
		return r;
	return cap ? host_copy_captured(cap) : dtoh(dst, src, n);
}

CUresult sim_cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	struct sim_op op = { .kind = OP_COPY, .dst = dst, .src = src, .n = n };
	struct sim_capture *cap;
	CUresult r;

	CTX_OK();
	r = stream_work(s, &cap);
	if (r)
		return r;
	if (!cap)
		return dtod(dst, src, n);
	if (!mem(NULL, dst, n) || !mem(NULL, src, n))
		return CUDA_ERROR_INVALID_VALUE;
	return capture_op(cap, s, &op);
}

/* n elements of w bytes at dst: aligned, and inside one allocation. */
static unsigned char *set_range(CUdeviceptr dst, size_t n, unsigned int w)
{
	if (n > SIM_MEM_TOTAL / w || (dst % w))
		return NULL;
	return mem(NULL, dst, n * w);
}

static CUresult set_n(CUdeviceptr dst, uint32_t v, size_t n, unsigned int w)
{
	unsigned char *d;

	CTX_OK();
	d = set_range(dst, n, w);
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (w == 1) {
		memset(d, (int)v, n);
		return CUDA_SUCCESS;
	}
	for (size_t i = 0; i < n; i++)
		memcpy(d + i * w, &v, w);
	return CUDA_SUCCESS;
}

static CUresult set_async(CUdeviceptr dst, uint32_t v, size_t n, unsigned int w, CUstream s)
{
	struct sim_op op = { .kind = OP_SET, .dst = dst, .n = n, .width = w, .value = v };
	struct sim_capture *cap;
	CUresult r;

	CTX_OK();
	r = stream_work(s, &cap);
	if (r)
		return r;
	if (!cap)
		return set_n(dst, v, n, w);
	if (!set_range(dst, n, w))
		return CUDA_ERROR_INVALID_VALUE;
	return capture_op(cap, s, &op);
}

CUresult sim_cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n)
{
	CUresult r;

	CTX_OK();
	r = legacy_work();
	return r ? r : set_n(d, v, n, 1);
}

CUresult sim_cuMemsetD16(CUdeviceptr d, unsigned short v, size_t n)
{
	CUresult r;

	CTX_OK();
	r = legacy_work();
	return r ? r : set_n(d, v, n, 2);
}

CUresult sim_cuMemsetD32(CUdeviceptr d, unsigned int v, size_t n)
{
	CUresult r;

	CTX_OK();
	r = legacy_work();
	return r ? r : set_n(d, v, n, 4);
}

CUresult sim_cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
	return set_async(d, v, n, 1, s);
}

CUresult sim_cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s)
{
	return set_async(d, v, n, 2, s);
}

CUresult sim_cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s)
{
	return set_async(d, v, n, 4, s);
}

/*
 * Fills of pitched rows: row by row, each a fill of its own (in a capture
 * too).  The driver refuses rows wider than the pitch.
 */
static CUresult set_2d(CUdeviceptr dst, size_t pitch, uint32_t v, size_t width, size_t height,
		       unsigned int w, CUstream s, bool async)
{
	CUresult r = CUDA_SUCCESS;

	CTX_OK();
	if (height > 1 && (width > pitch / w || pitch % w))
		return CUDA_ERROR_INVALID_VALUE;
	if (!async && (r = legacy_work()))
		return r;
	for (size_t y = 0; y < height && !r; y++)
		r = async ? set_async(dst + y * pitch, v, width, w, s) : set_n(dst + y * pitch, v, width, w);
	return r;
}

CUresult sim_cuMemsetD2D8(CUdeviceptr d, size_t pitch, unsigned char v, size_t wd, size_t ht)
{
	return set_2d(d, pitch, v, wd, ht, 1, NULL, false);
}

CUresult sim_cuMemsetD2D16(CUdeviceptr d, size_t pitch, unsigned short v, size_t wd, size_t ht)
{
	return set_2d(d, pitch, v, wd, ht, 2, NULL, false);
}

CUresult sim_cuMemsetD2D32(CUdeviceptr d, size_t pitch, unsigned int v, size_t wd, size_t ht)
{
	return set_2d(d, pitch, v, wd, ht, 4, NULL, false);
}

CUresult sim_cuMemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t wd, size_t ht,
			       CUstream s)
{
	return set_2d(d, pitch, v, wd, ht, 1, s, true);
}

CUresult sim_cuMemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t wd,
				size_t ht, CUstream s)
{
	return set_2d(d, pitch, v, wd, ht, 2, s, true);
}

CUresult sim_cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned int v, size_t wd, size_t ht,
				CUstream s)
{
	return set_2d(d, pitch, v, wd, ht, 4, s, true);
}

/* Stream memory writes: a 64-bit value is two 32-bit fills, low word first. */
CUresult sim_cuStreamWriteValue32(CUstream s, CUdeviceptr addr, cuuint32_t v, unsigned int flags)
{
	if (flags & ~CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER)
		return CUDA_ERROR_INVALID_VALUE;
	return set_async(addr, v, 1, 4, s);
}

CUresult sim_cuStreamWriteValue64(CUstream s, CUdeviceptr addr, cuuint64_t v, unsigned int flags)
{
	CUresult r;

	if ((flags & ~CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER) || addr % 8)
		return CUDA_ERROR_INVALID_VALUE;
	r = set_async(addr, (uint32_t)v, 1, 4, s);
	return r ? r : set_async(addr + 4, (uint32_t)(v >> 32), 1, 4, s);
}

/*
 * Stream memory waits.  Everything before has completed, here as on no GPU,
 * so the condition holds now or never: a wait that would never end is
 * refused, named on stderr, rather than hung.
 */
static CUresult wait_value(CUstream s, CUdeviceptr addr, uint64_t v, unsigned int flags,
			   unsigned int w)
{
	unsigned int cond = flags & 0xf;
	struct sim_capture *cap;
	unsigned char *p;
	uint64_t cur = 0;
	bool ok;
	CUresult r;

	CTX_OK();
	if ((flags & ~(0xfu | CU_STREAM_WAIT_VALUE_FLUSH)) || cond > CU_STREAM_WAIT_VALUE_NOR ||
	    addr % w || !(p = mem(NULL, addr, w)))
		return CUDA_ERROR_INVALID_VALUE;
	r = stream_work(s, &cap);
	if (r || cap)
		return r;
	memcpy(&cur, p, w);
	switch (cond) {
	case CU_STREAM_WAIT_VALUE_GEQ:
		ok = w == 4 ? (int32_t)((uint32_t)cur - (uint32_t)v) >= 0 : (int64_t)(cur - v) >= 0;
		break;
	case CU_STREAM_WAIT_VALUE_EQ:
		ok = cur == v;
		break;
	case CU_STREAM_WAIT_VALUE_AND:
		ok = (cur & v) != 0;
		break;
	default:
		ok = ~(cur | v) & (w == 4 ? 0xffffffffull : ~0ull);
		break;
	}
	if (ok)
		return CUDA_SUCCESS;
	fprintf(stderr, "gleamd: sim: a stream wait for a value nothing will write: refused\n");
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult sim_cuStreamWaitValue32(CUstream s, CUdeviceptr addr, cuuint32_t v, unsigned int flags)
{
	return wait_value(s, addr, v, flags, 4);
}

CUresult sim_cuStreamWaitValue64(CUstream s, CUdeviceptr addr, cuuint64_t v, unsigned int flags)
{
	return wait_value(s, addr, v, flags, 8);
}

/* Without a profiler attached the driver accepts the marks and does nothing. */
CUresult sim_cuProfilerStart(void)
{
	CTX_OK();
	return CUDA_SUCCESS;
}

CUresult sim_cuProfilerStop(void)
{
	CTX_OK();
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxResetPersistingL2Cache(void)
{
	CTX_OK();
	return CUDA_SUCCESS;
}

/* 2^28 elements of any format, as the H200 answers. */
CUresult sim_cuDeviceGetTexture1DLinearMaxWidth(size_t *w, CUarray_format fmt, unsigned int nch,
						CUdevice dev)
{
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (nch != 1 && nch != 2 && nch != 4)
		return CUDA_ERROR_INVALID_VALUE;
	*w = 1u << 28;
	return CUDA_SUCCESS;
}

/* Execution affinity (an SM count per context) needs MPS, which the sim has not. */
CUresult sim_cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev)
{
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if ((unsigned int)type >= CU_EXEC_AFFINITY_TYPE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	*pi = 0;
	return CUDA_SUCCESS;
}

/* ---- contexts ---- */

CUresult sim_cuInit(unsigned int flags)
{
	return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static void ctx_defaults(struct sim_ctx *c)
{
	static const size_t lim[8] = { 1024, 1048576, 8388608, 2, 2048, 32, 0, 0 };

	memcpy(c->limit, lim, sizeof(lim));
	c->sticky = CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	struct sim_ctx *p = &sim.primary[dev_ok(dev) ? dev : 0];

	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!p->o.magic) {
		p->o = (struct sim_obj){ SIM_MAGIC, K_CTX };
		p->primary = true;
		p->dev = dev;
	}
	if (p->refs++ == 0)
		ctx_defaults(p);
	*pctx = (CUcontext)p;
	return CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxRelease(CUdevice dev)
{
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (sim.primary[dev].refs <= 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	sim.primary[dev].refs--;
	return CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxReset(CUdevice dev)
{
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	sim.primary[dev].refs = 0;
	sim.primary[dev].flags = 0;
	return CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	sim.primary[dev].flags = flags;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	struct sim_ctx *c;

	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	c = obj_new(sizeof(*c), K_CTX);
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->flags = flags;
	c->dev = dev;
	ctx_defaults(c);
	sim.cur = c;
	*pctx = (CUcontext)c;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *p, unsigned int flags, CUdevice dev)
{
	return p ? CUDA_ERROR_NOT_SUPPORTED : sim_cuCtxCreate(pctx, flags, dev);
}

CUresult sim_cuCtxDestroy(CUcontext h)
{
	if (!is(h, K_CTX) || ((struct sim_ctx *)h)->primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (sim.cur == (struct sim_ctx *)h)
		sim.cur = NULL;
	obj_free(h);
	return CUDA_SUCCESS;
}

static CUresult set_current(CUcontext h)
{
	if (h && !is(h, K_CTX))
		return CUDA_ERROR_INVALID_CONTEXT;
	sim.cur = (struct sim_ctx *)h;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxSynchronize(void)
{
	CUresult r;

	CTX_OK();
	r = ctx_sync_check(sim.cur);
	if (!r)
		pools_settle();
	return r;
}

CUresult sim_cuCtxSynchronize_v2(CUcontext h)
{
	struct sim_ctx *c = h ? (struct sim_ctx *)h : sim.cur;
	CUresult r;

	if (!c || !is(c, K_CTX))
		return CUDA_ERROR_INVALID_CONTEXT;
	r = c->sticky ? c->sticky : ctx_sync_check(c);
	if (!r)
		pools_settle();
	return r;
}

CUresult sim_cuCtxGetApiVersion(CUcontext h, unsigned int *v)
{
	if (h && !is(h, K_CTX))
		return CUDA_ERROR_INVALID_CONTEXT;
	*v = 3020;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxGetLimit(size_t *v, CUlimit l)
{
	CTX_OK();
	if ((unsigned int)l >= CU_LIMIT_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	*v = sim.cur->limit[l];
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxSetLimit(CUlimit l, size_t v)
{
	CTX_OK();
	/* The shared memory size and whether the context is CIG are only read. */
	if ((unsigned int)l >= CU_LIMIT_MAX || l == CU_LIMIT_SHMEM_SIZE || l == CU_LIMIT_CIG_ENABLED)
		return CUDA_ERROR_INVALID_VALUE;
	sim.cur->limit[l] = v;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxGetFlags(unsigned int *flags)
{
	CTX_OK();
	*flags = sim.cur->flags;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
	CTX_OK();
	*least = 0;
	*greatest = -5;
	return CUDA_SUCCESS;
}

/* ---- modules and functions ---- */

static bool defines(struct sim_module *m, const char *name);

/*
 * The sim compiles nothing: a PTX module loads only when every entry in it
 * is one of the test kernels; any other code fails as a JIT error would.
 */
static CUresult check_ptx(const unsigned char *p, size_t n)
{
	const unsigned char *e = p, *end = p + n;

	if (n < 8 || p[0] == 0x7f || !memmem(p, n, ".version", 8))
		return CUDA_SUCCESS;
	while ((e = memmem(e, (size_t)(end - e), ".entry", 6))) {
		char name[GLEAM_NAME_MAX];
		size_t k = 0;

		e += 6;
		while (e < end && (*e == ' ' || *e == '\t'))
			e++;
		while (e < end && k < sizeof(name) - 1 && *e != '(' && *e != ' ' && *e != '\n')
			name[k++] = (char)*e++;
		name[k] = 0;
		if (!sim_kernel_find(name))
			return CUDA_ERROR_INVALID_PTX;
	}
	return CUDA_SUCCESS;
}

/* Modules live in a context; libraries (need_ctx false) in none. */
static CUresult load(const void *image, struct sim_module **out, bool need_ctx)
{
	size_t n = gl_image_size(image, GLEAM_IMAGE_MAX);
	struct sim_module *m;
	CUresult r;

	if (need_ctx || sim.cur)
		CTX_OK();
	if (!n)
		return CUDA_ERROR_INVALID_IMAGE;
	r = check_ptx(image, n);
	if (r)
		return r;
	m = obj_new(sizeof(*m), K_MODULE);
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->image = malloc(n);
	if (!m->image) {
		obj_free(m);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memcpy(m->image, image, n);
	m->size = n;
	*out = m;
	return CUDA_SUCCESS;
}

CUresult sim_cuModuleLoadData(CUmodule *module, const void *image)
{
	return load(image, (struct sim_module **)module, true);
}

CUresult sim_cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jo, void **jv,
			       unsigned int njo, CUlibraryOption *lo, void **lv, unsigned int nlo)
{
	return load(code, (struct sim_module **)lib, false);
}

/*
 * Fat binaries compress their entries with zstd: unpack every frame the
 * image holds, up to a bound, so that names can be found in the code.
 */
#define SIM_UNPACK_MAX	(256u << 20)

static void unpack(struct sim_module *m)
{
	static const unsigned char zmagic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	const unsigned char *p = m->image, *end = m->image + m->size;

	m->unpacked = true;
	while ((p = memmem(p, (size_t)(end - p), zmagic, 4))) {
		size_t clen = ZSTD_findFrameCompressedSize(p, (size_t)(end - p));
		unsigned long long n = ZSTD_getFrameContentSize(p, (size_t)(end - p));
		unsigned char *q;
		size_t got;

		if (ZSTD_isError(clen) || n == ZSTD_CONTENTSIZE_UNKNOWN ||
		    n == ZSTD_CONTENTSIZE_ERROR || n > SIM_UNPACK_MAX - m->plain_size) {
			p++;
			continue;
		}
		q = realloc(m->plain, m->plain_size + (size_t)n + 1);
		if (!q)
			return;
		m->plain = q;
		got = ZSTD_decompress(q + m->plain_size, (size_t)n, p, clen);
		if (!ZSTD_isError(got)) {
			m->plain_size += got;
			m->plain[m->plain_size++] = 0;
		}
		p += clen;
	}
}

static bool names(const unsigned char *img, size_t size, const char *name)
{
	size_t n = strlen(name);
	char entry[GLEAM_NAME_MAX + 16];

	snprintf(entry, sizeof(entry), ".entry %s", name);
	if (memmem(img, size, entry, strlen(entry)))
		return true;
	for (const unsigned char *p = img; (p = memmem(p, size - (size_t)(p - img), name, n + 1));
	     p++)
		if (p > img && p[-1] == 0)
			return true;
	return false;
}

/* Whether the image defines name: a PTX entry or a symbol string. */
static bool defines(struct sim_module *m, const char *name)
{
	if (names(m->image, m->size, name))
		return true;
	if (!m->unpacked)
		unpack(m);
	return m->plain_size && names(m->plain, m->plain_size, name);
}

/*
 * A cubin's kernels as a GPU of compute capability 9.0 reads them: their
 * parameters and the attributes their resources imply, as on the H200.
 */
static const struct gl_kernel *cubin_kernel(struct sim_module *m, const char *name)
{
	if (!m->indexed) {
		struct gl_code code;
		unsigned char *raw;
		size_t len;

		m->indexed = true;
		if (!gl_code_pick(m->image, m->size, 9, 0, &code) && code.kind == GL_CODE_CUBIN &&
		    !gl_code_unpack(&code, &raw, &len)) {
			if (gl_module_index(code.kind, raw, len, &m->idx))
				m->idx = NULL;
			free(raw);
		}
	}
	return m->idx ? gl_module_kernel(m->idx, name) : NULL;
}

static CUresult get_func(void *parent, const char *name, struct sim_func **out, bool need_ctx)
{
	const struct sim_kernel *k;
	struct sim_func *f;
	uint32_t off = 0;

	if (need_ctx || sim.cur)
		CTX_OK();
	if (!is(parent, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	/*
	 * A kernel the image names but the sim cannot run (a library's own,
	 * such as cuBLAS's) is still found, so that what a program does around
	 * it runs as on a GPU; launching it fails, naming it.
	 */
	if (!defines(parent, name))
		return CUDA_ERROR_NOT_FOUND;
	k = sim_kernel_find(name);
	f = obj_new(sizeof(*f), K_FUNC);
	if (!f)
		return CUDA_ERROR_OUT_OF_MEMORY;
	f->k = k;
	f->gk = cubin_kernel(parent, name);
	snprintf(f->name, sizeof(f->name), "%s", name);
	for (unsigned int i = 0; k && i < k->nparams && i < 16; i++) {
		uint32_t sz = k->param_size[i], al = sz >= 8 ? 8 : sz;

		off = (off + al - 1) / al * al;
		f->p[i].offset = off;
		f->p[i].size = sz;
		off += sz;
	}
	f->params_size = off;
	*out = f;
	return CUDA_SUCCESS;
}

CUresult sim_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	return get_func(hmod, name, (struct sim_func **)hfunc, true);
}

CUresult sim_cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name)
{
	return get_func(lib, name, (struct sim_func **)k, false);
}

CUresult sim_cuKernelGetFunction(CUfunction *pf, CUkernel k)
{
	CTX_OK();
	if (!is(k, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	/* A kernel and its function are one object here. */
	*pf = (CUfunction)k;
	return CUDA_SUCCESS;
}

CUresult sim_cuLibraryGetModule(CUmodule *pm, CUlibrary lib)
{
	CTX_OK();
	if (!is(lib, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	*pm = (CUmodule)lib;
	return CUDA_SUCCESS;
}

/*
 * The size of the object symbol name in any ELF image among buf's bytes
 * (cubins, as such or unpacked from a fat binary); 0 when none names it.
 */
static size_t elf_object_size(const unsigned char *buf, size_t len, const char *name)
{
	const unsigned char *e = buf, *end;

	/* A module with no image (nothing unpacked from it) names nothing. */
	if (!buf || !len)
		return 0;
	end = buf + len;
	while ((e = memmem(e, (size_t)(end - e), "\177ELF\2\1", 6))) {
		size_t avail = (size_t)(end - e), n = gl_image_size(e, avail);
		uint64_t shoff;
		uint16_t shentsize, shnum;

		if (!n || n < 0x40) {
			e++;
			continue;
		}
		memcpy(&shoff, e + 0x28, 8);
		memcpy(&shentsize, e + 0x3a, 2);
		memcpy(&shnum, e + 0x3c, 2);
		for (unsigned int i = 0; i < shnum; i++) {
			const unsigned char *sh = e + shoff + (size_t)i * shentsize;
			uint64_t off, size, entsize, soff, ssize;
			uint32_t type, link;
			const unsigned char *str;

			memcpy(&type, sh + 4, 4);
			if (type != 2 /* SHT_SYMTAB */)
				continue;
			memcpy(&off, sh + 0x18, 8);
			memcpy(&size, sh + 0x20, 8);
			memcpy(&link, sh + 0x28, 4);
			memcpy(&entsize, sh + 0x38, 8);
			if (link >= shnum || entsize < 24 || off > n || size > n - off)
				continue;
			memcpy(&soff, e + shoff + (size_t)link * shentsize + 0x18, 8);
			memcpy(&ssize, e + shoff + (size_t)link * shentsize + 0x20, 8);
			if (soff > n || ssize > n - soff)
				continue;
			str = e + soff;
			for (uint64_t k = 0; k + entsize <= size; k += entsize) {
				const unsigned char *sym = e + off + k;
				uint32_t nm;
				uint64_t sz;

				memcpy(&nm, sym, 4);
				memcpy(&sz, sym + 16, 8);
				if ((sym[4] & 0xf) == 1 /* STT_OBJECT */ && nm < ssize &&
				    !strncmp((const char *)str + nm, name, (size_t)(ssize - nm)) && sz)
					return (size_t)sz;
			}
		}
		e += n;
	}
	return 0;
}

CUresult sim_cuModuleGetGlobal(CUdeviceptr *d, size_t *bytes, CUmodule h, const char *name)
{
	struct sim_module *m = (struct sim_module *)h;
	struct sim_global *g;
	size_t size;
	CUresult r;

	CTX_OK();
	if (!is(h, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	for (g = m->globals; g; g = g->next)
		if (!strcmp(g->name, name))
			goto found;
	size = elf_object_size(m->image, m->size, name);
	if (!size) {
		if (!m->unpacked)
			unpack(m);
		size = elf_object_size(m->plain, m->plain_size, name);
	}
	if (!size)
		return CUDA_ERROR_NOT_FOUND;
	g = calloc(1, sizeof(*g) + strlen(name) + 1);
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = sim_cuMemAlloc(&g->d, size);
	if (r) {
		free(g);
		return r;
	}
	g->size = size;
	strcpy(g->name, name);
	g->next = m->globals;
	m->globals = g;
found:
	if (d)
		*d = g->d;
	if (bytes)
		*bytes = g->size;
	return CUDA_SUCCESS;
}

CUresult sim_cuLibraryGetGlobal(CUdeviceptr *d, size_t *bytes, CUlibrary l, const char *name)
{
	return sim_cuModuleGetGlobal(d, bytes, (CUmodule)l, name);
}

static CUresult unload(void *h)
{
	struct sim_module *m = h;

	if (!is(h, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	while (m->globals) {
		struct sim_global *g = m->globals;

		m->globals = g->next;
		if (sim.cur)
			sim_cuMemFree(g->d);
		free(g);
	}
	free(m->image);
	free(m->plain);
	gl_module_index_free(m->idx);
	obj_free(m);
	return CUDA_SUCCESS;
}

CUresult sim_cuModuleUnload(CUmodule m)
{
	return unload(m);
}

CUresult sim_cuLibraryUnload(CUlibrary l)
{
	return unload(l);
}

/* A kernel run now, on a parameter block of the function's size. */
static CUresult run_kernel(struct sim_func *f, const unsigned int g[3], const unsigned int b[3],
			   unsigned int shmem, const void *params, size_t size)
{
	struct sim_launch l = { .shared_bytes = shmem, .mem = mem, .gpu_time = gpu_time,
				.tex = sim_tex_fetch, .surf = sim_surf_access };
	uint64_t t0;
	int r;

	CTX_OK();
	l.grid = (struct sim_dim3){ g[0], g[1], g[2] };
	l.block = (struct sim_dim3){ b[0], b[1], b[2] };
	l.params = params;
	l.params_size = size;
	sim_queued = false;
	t0 = gl_now_ns();
	r = f->k->run(&l);
	if (!sim_queued)
		ran_since(t0);
	/*
	 * A fault poisons the context, as on a GPU, where the launch itself
	 * has long returned: the error surfaces at the next call.
	 */
	if (r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED ||
	    r == CUDA_ERROR_MISALIGNED_ADDRESS) {
		sim.cur->sticky = (CUresult)r;
		return CUDA_SUCCESS;
	}
	return (CUresult)r;
}

static CUresult launch(struct sim_func *f, const unsigned int g[3], const unsigned int b[3],
		       unsigned int shmem, CUstream s, void **extra)
{
	struct sim_op op = { .kind = OP_KERNEL, .f = f, .shmem = shmem };
	struct sim_capture *cap;
	void *buf = NULL;
	size_t *size = NULL;
	CUresult r;

	CTX_OK();
	if (!is(f, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	r = stream_work(s, &cap);
	if (r)
		return r;
	for (int i = 0; extra && i < 8 && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			buf = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			size = extra[i + 1];
	}
	if (!f->k) {
		gl_err("sim: kernel %.80s is not one the sim can run", f->name);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (!size || *size != f->params_size || (f->params_size && !buf))
		return CUDA_ERROR_INVALID_VALUE;
	if (!cap)
		return run_kernel(f, g, b, shmem, buf, *size);
	memcpy(op.grid, g, sizeof(op.grid));
	memcpy(op.block, b, sizeof(op.block));
	op.params_size = *size;
	op.params = malloc(*size ? *size : 1);
	if (!op.params)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(op.params, buf, *size);
	r = capture_op(cap, s, &op);
	if (r)
		free(op.params);
	return r;
}

CUresult sim_cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
			    unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
			    CUstream s, void **kp, void **extra)
{
	const unsigned int g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };

	return launch((struct sim_func *)f, g, b, shmem, s, extra);
}

CUresult sim_cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **kp, void **extra)
{
	const unsigned int g[3] = { c->gridDimX, c->gridDimY, c->gridDimZ };
	const unsigned int b[3] = { c->blockDimX, c->blockDimY, c->blockDimZ };

	return launch((struct sim_func *)f, g, b, c->sharedMemBytes, c->hStream, extra);
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
	if (cap->nm == cap->mcap) {
		size_t n = cap->mcap ? 2 * cap->mcap : 4;
		struct sim_cstate **m = realloc(cap->members, n * sizeof(*m));

		if (!m)
			return CUDA_ERROR_OUT_OF_MEMORY;
		cap->members = m;
		cap->mcap = n;
	}
	cap->members[cap->nm++] = cs;
	cs->cap = cap;
	cs->last = cs->joined = 0;
	cs->joined_by = NULL;
	return CUDA_SUCCESS;
}

static void ops_free(struct sim_op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ops[i].params);
	free(ops);
}

static void graph_mem_put(struct sim_graph_mem *gm)
{
	if (--gm->refs)
		return;
	for (size_t i = 0; i < gm->n; i++) {
		long a = gm->m[i].freed ? alloc_at(gm->m[i].d) : -1;

		/* Gone already with its context, or someone else's at that address since. */
		if (a >= 0 && sim.a[a].graph)
			free_at(a);
	}
	free(gm->m);
	free(gm);
}

static void graph_free(struct sim_graph *g)
{
	ops_free(g->ops, g->n);
	graph_mem_put(g->mem);
	obj_free(g);
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
		return legacy_work();
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
	s = obj_new(sizeof(*s), K_STREAM);
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
	*prio = is(s, K_STREAM) ? ((struct sim_stream *)s)->prio : 0;
	return CUDA_SUCCESS;
}

CUresult sim_cuStreamGetFlags(CUstream s, unsigned int *flags)
{
	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	*flags = is(s, K_STREAM) ? ((struct sim_stream *)s)->flags : 0;
	return CUDA_SUCCESS;
}

CUresult sim_cuStreamGetId(CUstream s, unsigned long long *id)
{
	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	*id = is(s, K_STREAM) ? ((struct sim_stream *)s)->id :
	      s == CU_STREAM_PER_THREAD ? SIM_STREAM_ID_PT : SIM_STREAM_ID_LEGACY;
	return CUDA_SUCCESS;
}

/* A capturing stream destroyed: its capture cannot end well any more. */
CUresult sim_cuStreamDestroy(CUstream s)
{
	struct sim_capture *cap;
	struct sim_cstate *cs;

	if (!is(s, K_STREAM))
		return CUDA_ERROR_INVALID_HANDLE;
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
	obj_free(s);
	return CUDA_SUCCESS;
}

CUresult sim_cuStreamSynchronize(CUstream s)
{
	CUresult r;

	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	r = sync_check(s);
	if (!r)
		pools_settle();
	return r;
}

CUresult sim_cuStreamQuery(CUstream s)
{
	CTX_OK();
	if (stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	return sync_check(s);
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
	if (stream_ok(s) || !is(e, K_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	r = stream_work(s, &cap);
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
	e = obj_new(sizeof(*e), K_EVENT);
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
	if (!is(h, K_EVENT) || stream_ok(s))
		return CUDA_ERROR_INVALID_HANDLE;
	r = stream_work(s, &cap);
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
	if (!is(h, K_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	return ((struct sim_event *)h)->cap_id ? CUDA_ERROR_CAPTURED_EVENT : CUDA_SUCCESS;
}

CUresult sim_cuEventSynchronize(CUevent h)
{
	CUresult r = sim_cuEventQuery(h);

	if (!r)
		pools_settle();
	return r;
}

CUresult sim_cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	struct sim_event *s = (struct sim_event *)a, *e = (struct sim_event *)b;

	CTX_OK();
	if (!is(a, K_EVENT) || !is(b, K_EVENT))
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

CUresult sim_cuEventDestroy(CUevent h)
{
	if (!is(h, K_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	obj_free(h);
	return CUDA_SUCCESS;
}

/* ---- what the worker asks beyond the table ---- */

static CUresult sim_init(const char *lib)
{
	return CUDA_SUCCESS;
}

/* The sim device's attributes; the rest are 0. */
static const struct { int a, v; } sim_attrs[] = {
	{ CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64 },
	{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647 },
	{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535 },
	{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535 },
	{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152 },
	{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448 },
	{ CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536 },
	{ CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32 },
	{ CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647 },
	{ CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536 },
	{ CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1000000 },
	{ CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, SIM_SMS },
	{ CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9 },
	{ CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 },
	{ CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1 },
	{ CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048 },
	/* Each multiprocessor an H200's, so that occupancy answers as there. */
	{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 233472 },
	{ CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32 },
	{ CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, 1024 },
	{ CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 1 },
	{ CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 1 },
	/* As a GPU whose host has HMM says of its own machine's memory. */
	{ CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 1 },
	{ CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1 },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1 },
};

static void sim_dev_attrs(int32_t *attr)
{
	for (size_t a = 0; a < ARRAY_SIZE(sim_attrs); a++)
		attr[sim_attrs[a].a] = sim_attrs[a].v;
	sim_array_attrs(attr);
}

static CUresult sim_devices(int *ver, struct gleam_devinfo *d, unsigned int max, unsigned int *n)
{
	*ver = CUDA_VERSION;
	*n = 0;
	for (unsigned int i = 0; i < sim_ndev() && i < max; i++, d++) {
		unsigned int g = wk_server_gpu(i);

		/* GPU 0 is named as when the sim had one GPU; the tests know it so. */
		memset(d, 0, sizeof(*d));
		if (g)
			snprintf(d->name, sizeof(d->name), "Gleam sim device %u", g);
		else
			snprintf(d->name, sizeof(d->name), "Gleam sim device");
		for (int b = 0; b < 16; b++)
			d->uuid[b] = (uint8_t)(0x51 + b);
		d->uuid[15] = (uint8_t)(0x60 + g);
		d->total_mem = sim_mem_total(g);
		sim_dev_attrs(d->attr);
		d->nattr = GLEAM_DEV_ATTR_MAX;
		*n = i + 1;
	}
	return CUDA_SUCCESS;
}

static CUresult sim_func_info(CUfunction h, struct gleam_funcinfo *fi, struct gleam_param *p,
			      unsigned int max)
{
	struct sim_func *f = (struct sim_func *)h;

	if (!is(h, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	if (f->gk) {
		int32_t dev[GLEAM_DEV_ATTR_MAX] = { 0 };

		sim_dev_attrs(dev);
		fi->nparams = MIN(f->gk->nparams, max);
		fi->params_size = f->gk->params_size;
		memcpy(p, f->gk->params, fi->nparams * sizeof(*p));
		gl_func_attrs(dev, &f->gk->res, fi->attr);
		return CUDA_SUCCESS;
	}
	fi->nparams = f->k ? MIN(f->k->nparams, max) : 0;
	fi->params_size = f->params_size;
	memcpy(p, f->p, fi->nparams * sizeof(*p));
	fi->attr[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = 1024;
	fi->attr[CU_FUNC_ATTRIBUTE_NUM_REGS] = 32;
	fi->attr[CU_FUNC_ATTRIBUTE_PTX_VERSION] = 90;
	fi->attr[CU_FUNC_ATTRIBUTE_BINARY_VERSION] = 90;
	fi->attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES] = 49152;
	return CUDA_SUCCESS;
}

static CUresult sim_kernel_info(CUkernel k, struct gleam_funcinfo *fi, struct gleam_param *p,
				unsigned int max)
{
	return sim_func_info((CUfunction)k, fi, p, max);
}

/* Exact and cheap: asked after every record.  The current context's device. */
static bool sim_mem_in_use(unsigned int *dev, uint64_t *bytes)
{
	if (!sim.cur && !sim.used)
		return false;
	*dev = sim.cur ? (unsigned int)sim.cur->dev : 0;
	*bytes = sim.used;
	return true;
}

/*
 * The sim's multiprocessors as two processing clusters of half of them
 * each; in a cluster launch an SM holds at most eight blocks, as the H200
 * counts them.
 */
static CUresult sim_cluster_table(int dev, struct gleam_cluster_table *t)
{
	for (unsigned int b = 1; b <= GLEAM_CLUSTER_BLOCKS_MAX; b++)
		for (unsigned int c = 1; c <= GLEAM_CLUSTER_SIZE_MAX; c++)
			t->active[b - 1][c - 1] = (uint16_t)(2 * (SIM_SMS / 2 * MIN(b, 8u) / c));
	return CUDA_SUCCESS;
}

struct gl_backend gl_backend_sim_rw = {
	.name = "sim",
	.init = sim_init,
	.devices = sim_devices,
	.set_current = set_current,
	.func_info = sim_func_info,
	.kernel_info = sim_kernel_info,
	.mem_in_use = sim_mem_in_use,
	.mem_exact = true,
	.cluster_table = sim_cluster_table,
	.op = {
#define X(name, sym) .f_##name = sim_##name,
		GL_BACKEND_FUNCS(X)
#undef X
	},
};

/* ---- what the CUDA runtime asks beyond the above ---- */

/* What the driver takes, for the function as loaded on the sim's device. */
static CUresult sim_attr_check(const struct sim_func *f, CUfunction_attribute a, int v)
{
	int32_t dev[GLEAM_DEV_ATTR_MAX] = { 0 };
	int32_t attr[GLEAM_FUNC_ATTR_MAX] = { 0 };

	sim_dev_attrs(dev);
	if (f->gk)
		gl_func_attrs(dev, &f->gk->res, attr);
	return gl_func_attr_check(dev, attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES], a, v);
}

/* The sim keeps no attributes: the shim answers them from its own copy. */
CUresult sim_cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	CTX_OK();
	if (!is(f, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_attr_check((const struct sim_func *)f, a, v);
}

CUresult sim_cuKernelSetAttribute(CUfunction_attribute a, int v, CUkernel k, CUdevice dev)
{
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!is(k, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_attr_check((const struct sim_func *)k, a, v);
}

static bool sim_cache_ok(CUfunc_cache c)
{
	return (unsigned int)c <= CU_FUNC_CACHE_PREFER_EQUAL;
}

/* A preference only: nothing in the sim depends on it. */
CUresult sim_cuFuncSetCacheConfig(CUfunction f, CUfunc_cache c)
{
	CTX_OK();
	if (!is(f, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cache_ok(c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult sim_cuKernelSetCacheConfig(CUkernel k, CUfunc_cache c, CUdevice dev)
{
	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!is(k, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cache_ok(c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* A context's cache preference is a hint: the sim has nothing to prefer. */
CUresult sim_cuCtxSetCacheConfig(CUfunc_cache c)
{
	CTX_OK();
	return sim_cache_ok(c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The sim's devices have no peers, and none is a peer of itself. */
CUresult sim_cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	if (!dev_ok(dev) || !dev_ok(peer))
		return CUDA_ERROR_INVALID_DEVICE;
	*can = 0;
	return CUDA_SUCCESS;
}

CUresult sim_cuDeviceGetP2PAttribute(int *v, CUdevice_P2PAttribute a, CUdevice src, CUdevice dst)
{
	/* Two devices that are peers are needed, and the sim has none. */
	return CUDA_ERROR_INVALID_DEVICE;
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
	cap->g = obj_new(sizeof(*cap->g), K_GRAPH);
	if (cap->g)
		cap->g->mem = calloc(1, sizeof(*cap->g->mem));
	if (!cap->g || !cap->g->mem || add_member(cap, cs)) {
		if (cap->g) {
			free(cap->g->mem);
			obj_free(cap->g);
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

static CUresult ops_copy(struct sim_op **out, const struct sim_op *ops, size_t n)
{
	struct sim_op *c = calloc(n ? n : 1, sizeof(*c));

	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (size_t i = 0; i < n; i++) {
		c[i] = ops[i];
		if (ops[i].kind != OP_KERNEL)
			continue;
		c[i].params = malloc(ops[i].params_size ? ops[i].params_size : 1);
		if (!c[i].params) {
			ops_free(c, i);
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
	if (!is(h, K_GRAPH) || (flags & ~known))
		return CUDA_ERROR_INVALID_VALUE;
	e = obj_new(sizeof(*e), K_EXEC);
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = ops_copy(&e->ops, g->ops, g->n);
	if (r) {
		obj_free(e);
		return r;
	}
	e->n = g->n;
	e->mem = g->mem;
	e->mem->refs++;
	*pe = (CUgraphExec)e;
	return CUDA_SUCCESS;
}

static CUresult run_op(const struct sim_op *op)
{
	switch (op->kind) {
	case OP_COPY:
		return dtod(op->dst, op->src, op->n);
	case OP_SET:
		return set_n(op->dst, op->value, op->n, op->width);
	case OP_KERNEL:
		return run_kernel(op->f, op->grid, op->block, op->shmem, op->params,
				  op->params_size);
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* Launched into a capture, a graph's operations become the capture's. */
CUresult sim_cuGraphLaunch(CUgraphExec h, CUstream s)
{
	struct sim_exec *e = (struct sim_exec *)h;
	struct sim_capture *cap;
	struct sim_op *ops;
	CUresult r;

	CTX_OK();
	if (!is(h, K_EXEC))
		return CUDA_ERROR_INVALID_HANDLE;
	r = stream_work(s, &cap);
	if (r)
		return r;
	if (!cap) {
		for (size_t i = 0; i < e->n && !r; i++)
			r = run_op(&e->ops[i]);
		return r;
	}
	/*
	 * A graph with memory of its own cannot become part of another (the
	 * driver's rule for child graphs): the other would outlive that memory.
	 */
	if (e->mem->n) {
		cap->invalidated = true;
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	r = ops_copy(&ops, e->ops, e->n);
	if (r)
		return r;
	for (size_t i = 0; i < e->n && !r; i++) {
		r = capture_op(cap, s, &ops[i]);
		if (!r)
			ops[i].params = NULL;
	}
	ops_free(ops, e->n);
	return r;
}

/* Nothing to place ahead of time: graphs run from the worker's memory. */
CUresult sim_cuGraphUpload(CUgraphExec h, CUstream s)
{
	struct sim_capture *cap;

	CTX_OK();
	if (!is(h, K_EXEC))
		return CUDA_ERROR_INVALID_HANDLE;
	return stream_work(s, &cap);
}

CUresult sim_cuGraphExecDestroy(CUgraphExec h)
{
	struct sim_exec *e = (struct sim_exec *)h;

	if (!is(h, K_EXEC))
		return CUDA_ERROR_INVALID_VALUE;
	ops_free(e->ops, e->n);
	graph_mem_put(e->mem);
	obj_free(e);
	return CUDA_SUCCESS;
}

CUresult sim_cuGraphDestroy(CUgraph h)
{
	if (!is(h, K_GRAPH))
		return CUDA_ERROR_INVALID_VALUE;
	graph_free((struct sim_graph *)h);
	return CUDA_SUCCESS;
}

/* One node per captured operation, allocation and free, as on a GPU. */
CUresult sim_cuGraphGetNodes(CUgraph h, CUgraphNode *nodes, size_t *n)
{
	struct sim_graph *g = (struct sim_graph *)h;

	if (!is(h, K_GRAPH) || nodes)
		return CUDA_ERROR_INVALID_VALUE;
	*n = g->n + g->mem->n;
	for (size_t i = 0; i < g->mem->n; i++)
		*n += g->mem->m[i].freed;
	return CUDA_SUCCESS;
}

/* ---- memory pools ---- */

static struct sim_pool *pool_of(CUmemoryPool h)
{
	return is(h, K_POOL) ? (struct sim_pool *)h : NULL;
}

CUresult sim_cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
	struct sim_pool *p;

	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	p = default_pool(dev);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pool = (CUmemoryPool)p;
	return CUDA_SUCCESS;
}

CUresult sim_cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	struct sim_pool *p = pool_of(pool);

	if (!dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!p || p->dev != dev)
		return CUDA_ERROR_INVALID_VALUE;
	sim_current_pool[dev] = p->dflt ? NULL : p;
	return CUDA_SUCCESS;
}

/* Pools of device memory, with nothing to share with other processes. */
CUresult sim_cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
	struct sim_pool *p;

	if (props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || !dev_ok(props->location.id))
		return CUDA_ERROR_INVALID_VALUE;
	if (props->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
		return CUDA_ERROR_NOT_SUPPORTED;
	p = pool_new(props->location.id, false);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pool = (CUmemoryPool)p;
	return CUDA_SUCCESS;
}

/*
 * A default pool stays.  The memory of a destroyed pool stays allocated
 * until it is freed, as the driver keeps it; a device whose current pool
 * it was has its default one again.
 */
CUresult sim_cuMemPoolDestroy(CUmemoryPool pool)
{
	struct sim_pool *p = pool_of(pool), **pp;

	if (!p || p->dflt)
		return CUDA_ERROR_INVALID_VALUE;
	if (sim_current_pool[p->dev] == p)
		sim_current_pool[p->dev] = NULL;
	for (size_t i = 0; i < sim.n; i++)
		if (sim.a[i].pool == p)
			sim.a[i].pool = NULL;
	for (pp = &sim_pools; *pp && *pp != p; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = p->next;
	obj_free(p);
	return CUDA_SUCCESS;
}

CUresult sim_cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	struct sim_pool *p = pool_of(pool);
	uint64_t v;
	CUresult r;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	r = gl_pool_attr_in(attr, value, &v);
	if (r)
		return r;
	if (gl_pool_attr_is_int(attr))
		p->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES] = (int)v;
	else if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
		p->threshold = v;
	/* A high watermark is reset to zero, and reads as what is there now. */
	else if (attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH)
		p->reserved_high = p->reserved;
	else
		p->used_high = p->used;
	return CUDA_SUCCESS;
}

CUresult sim_cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	const struct sim_pool *p = pool_of(pool);
	uint64_t v;

	if (!p || !value)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		v = (uint64_t)p->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
		break;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		v = p->threshold;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
		v = p->reserved;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		v = p->reserved_high;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
		v = p->used;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		v = p->used_high;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	gl_pool_attr_out(attr, v, value);
	return CUDA_SUCCESS;
}

/* What is kept but not in use goes back, down to keep bytes. */
CUresult sim_cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
	struct sim_pool *p = pool_of(pool);

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	p->reserved = MAX(p->used, MIN(p->reserved, (uint64_t)keep));
	return CUDA_SUCCESS;
}

/* ---- what sim_array.c uses (sim_array.h) ---- */

CUresult sim_ctx_ok(void)
{
	return ctx_ok();
}

void *sim_mem(void *be, uint64_t p, uint64_t len)
{
	return mem(be, p, len);
}

CUresult sim_stream_work(CUstream s, struct sim_capture **cap)
{
	return stream_work(s, cap);
}

void sim_ran_since(uint64_t t0)
{
	ran_since(t0);
}
