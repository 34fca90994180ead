// SPDX-License-Identifier: MIT
/*
 * Memory: device allocations (the server chooses the addresses: kernels
 * carry them as raw bytes, so they must be equal on both sides), host
 * allocations (ordinary memory here: the GPU is not on this machine), and
 * copies, which stream through the ring in pieces of at most one record.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "shim.h"
#include "util.h"

struct alloc {
	uint64_t base;
	uint64_t size;
	uint64_t ctx;
	uint64_t extent;	/* a piece of a slab: the bytes it holds there; 0: none */
	CUmemoryPool pool;	/* the stream-ordered allocator's, or NULL */
	uint64_t buffer_id;	/* CU_POINTER_ATTRIBUTE_BUFFER_ID: never reused */
	unsigned int flags;	/* SHIM_RANGE_*: 0 for cuMemAlloc's and the globals */
};

static _Atomic uint64_t buffer_ids;

static struct {
	pthread_mutex_t lock;
	struct alloc *a;	/* sorted by base */
	size_t n, cap;
} dev_allocs = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct host_alloc {
	void *p;
	size_t size;
	unsigned int flags;
	struct host_alloc *next;
};

static struct {
	pthread_mutex_t lock;
	struct host_alloc *list;
} host_allocs = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Index of the last allocation whose base is <= p, or -1; lock held. */
static long find_le(uint64_t p)
{
	_Static_assert(offsetof(struct alloc, base) == 0, "sorted by a leading base");
	return gl_find_le(dev_allocs.a, dev_allocs.n, sizeof(dev_allocs.a[0]), p);
}

static int alloc_insert(uint64_t base, uint64_t size, uint64_t ctx, CUmemoryPool pool,
			uint64_t extent, unsigned int flags);

static int alloc_add(uint64_t base, uint64_t size, uint64_t ctx, CUmemoryPool pool)
{
	return alloc_insert(base, size, ctx, pool, 0, 0);
}

static int alloc_add_piece(uint64_t base, uint64_t size, uint64_t ctx, CUmemoryPool pool,
			   uint64_t extent)
{
	return alloc_insert(base, size, ctx, pool, extent, 0);
}

/* Mappings and twins belong to no context: they outlive the one they were made in. */
int shim_mem_range_add(uint64_t base, uint64_t size, unsigned int flags)
{
	return alloc_insert(base, size, 0, NULL, 0, flags);
}

void shim_mem_range_flags(uint64_t base, unsigned int flags)
{
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(base);
	if (i >= 0 && dev_allocs.a[i].base == base && dev_allocs.a[i].flags)
		dev_allocs.a[i].flags = flags;
	pthread_mutex_unlock(&dev_allocs.lock);
}

void shim_mem_range_del(uint64_t base)
{
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(base);
	if (i >= 0 && dev_allocs.a[i].base == base && dev_allocs.a[i].flags) {
		memmove(&dev_allocs.a[i], &dev_allocs.a[i + 1],
			(dev_allocs.n - (size_t)i - 1) * sizeof(struct alloc));
		dev_allocs.n--;
	}
	pthread_mutex_unlock(&dev_allocs.lock);
}

static int alloc_insert(uint64_t base, uint64_t size, uint64_t ctx, CUmemoryPool pool,
			uint64_t extent, unsigned int flags)
{
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	if (gl_grow((void **)&dev_allocs.a, dev_allocs.n, &dev_allocs.cap, sizeof(*dev_allocs.a), 64)) {
		pthread_mutex_unlock(&dev_allocs.lock);
		return -1;
	}
	i = find_le(base) + 1;
	memmove(&dev_allocs.a[i + 1], &dev_allocs.a[i],
		(dev_allocs.n - (size_t)i) * sizeof(struct alloc));
	dev_allocs.a[i] = (struct alloc){ base, size, ctx, extent, pool,
					  atomic_fetch_add(&buffer_ids, 1) + 1, flags };
	dev_allocs.n++;
	pthread_mutex_unlock(&dev_allocs.lock);
	return 0;
}

static void pool_forget(uint64_t ctx);

void shim_mem_forget_ctx(uint64_t ctx)
{
	size_t j = 0;

	pool_forget(ctx);
	pthread_mutex_lock(&dev_allocs.lock);
	for (size_t i = 0; i < dev_allocs.n; i++)
		if (dev_allocs.a[i].ctx != ctx)
			dev_allocs.a[j++] = dev_allocs.a[i];
	dev_allocs.n = j;
	pthread_mutex_unlock(&dev_allocs.lock);
}

/*
 * The driver refuses a copy or fill outside its allocations at the call;
 * the shim knows every allocation and module global, so it refuses them
 * here too rather than let the error surface later.  Mappings of the
 * virtual memory functions that lie side by side are one range to the
 * GPU, and a range may run from one into the next; a mapping no device
 * may access yet is refused.  A range in mapped or managed memory says so
 * (shim_twin_touched): the call's record must see this process's writes,
 * and may change what the process reads there.
 */
CUresult shim_check_range(CUdeviceptr p, size_t len)
{
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	const struct alloc *a;
	uint64_t end = p + len;
	long i;

	if (!len)
		return CUDA_SUCCESS;
	if (end < p)
		return r;
	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(p);
	a = i >= 0 ? &dev_allocs.a[i] : NULL;
	if (!a || p - a->base >= a->size || (a->flags & SHIM_RANGE_NOACCESS))
		goto out;
	if (a->flags & SHIM_RANGE_TWIN)
		shim_twin_touched = true;
	while (end - a->base > a->size) {
		const struct alloc *next = a + 1;

		if (!(a->flags & SHIM_RANGE_VMM) || (size_t)(next - dev_allocs.a) >= dev_allocs.n ||
		    next->base != a->base + a->size || (next->flags & ~SHIM_RANGE_VMM))
			goto out;
		a = next;
	}
	r = CUDA_SUCCESS;
out:
	pthread_mutex_unlock(&dev_allocs.lock);
	return r;
}

static CUresult get_global(unsigned int fn, unsigned int kind, void *parent, const char *name,
			   CUdeviceptr *dptr, size_t *bytes)
{
	struct gl_a_cuModuleGetGlobal a = { 0 };
	struct gl_r_cuModuleGetGlobal o = { 0 };
	struct shim_call c;
	struct iovec iov;
	CUresult r;

	r = shim_begin_io(&c, fn, &a, sizeof(a), &o, sizeof(o));
	if (r)
		return r;
	r = shim_name_arg(kind, parent, name, &a.hmod, &a.name_len, &iov);
	if (r)
		return r;
	/*
	 * A variable the image does not define is refused here, as the driver
	 * refuses it; the address of one it does is the server's to give.
	 */
	if (!shim_module_has_var(kind, parent, name))
		return CUDA_ERROR_NOT_FOUND;
	r = shim_call_iov(&c, &iov);
	if (r)
		return r;
	/* A global is device memory like any allocation, for range checks. */
	if (o.bytes && shim_check_range((CUdeviceptr)o.dptr, (size_t)o.bytes))
		alloc_add(o.dptr, o.bytes, c.ctx, NULL);
	if (dptr)
		*dptr = (CUdeviceptr)o.dptr;
	if (bytes)
		*bytes = (size_t)o.bytes;
	return CUDA_SUCCESS;
}

CUresult shim_cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
	return get_global(GL_FN_cuModuleGetGlobal, GL_H_MODULE, hmod, name, dptr, bytes);
}

CUresult shim_cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name)
{
	return get_global(GL_FN_cuLibraryGetGlobal, GL_H_LIBRARY, lib, name, dptr, bytes);
}

static CUresult pool_alloc(CUdeviceptr *dptr, size_t bytesize);

/*
 * An allocation: the address waits for the server's answer (kernels carry
 * it as raw bytes), and the shim keeps its range, whichever the form.
 * cuMemAlloc is mostly served from slabs (below), without a round trip.
 */
static CUresult mem_alloc_remote(unsigned int fn, CUdeviceptr *dptr, size_t bytesize,
				 CUmemoryPool pool, CUstream stream, int per_thread, bool keep);

static CUresult mem_alloc(unsigned int fn, CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
			  CUstream stream, int per_thread)
{
	if (fn == GL_FN_cuMemAlloc) {
		CUresult r = pool_alloc(dptr, bytesize);

		if (r != CUDA_ERROR_NOT_SUPPORTED)
			return r;
	}
	return mem_alloc_remote(fn, dptr, bytesize, pool, stream, per_thread, true);
}

static CUresult mem_alloc_remote(unsigned int fn, CUdeviceptr *dptr, size_t bytesize,
				 CUmemoryPool pool, CUstream stream, int per_thread, bool keep)
{
	union {
		struct gl_a_cuMemAlloc plain;
		struct gl_a_cuMemAllocAsync async;
		struct gl_a_cuMemAllocFromPoolAsync pool;
	} a;
	struct gl_r_cuMemAllocAsync o = { 0 };
	struct shim_call c;
	CUresult r;

	_Static_assert(sizeof(struct gl_r_cuMemAllocFromPoolAsync) == sizeof(o) &&
		       sizeof(struct gl_r_cuMemAlloc) == sizeof(o), "one reply");
	memset(&a, 0, sizeof(a));
	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (!dptr || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	c.args = &a;
	switch (fn) {
	case GL_FN_cuMemAllocFromPoolAsync:
		a.pool.bytesize = bytesize;
		r = shim_handle_id(GL_H_MEMPOOL, pool, &a.pool.pool);
		if (!r)
			r = shim_stream_id(stream, per_thread, &a.pool.hStream);
		c.args_len = sizeof(a.pool);
		break;
	case GL_FN_cuMemAllocAsync:
		a.async.bytesize = bytesize;
		r = shim_stream_id(stream, per_thread, &a.async.hStream);
		c.args_len = sizeof(a.async);
		break;
	default:
		a.plain.bytesize = bytesize;
		c.args_len = sizeof(a.plain);
		break;
	}
	if (r)
		return r;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (r)
		return r;
	if (!keep)
		goto out;
	/*
	 * Stream-ordered memory comes from a pool, which pointer attributes
	 * name: the given one, or the device's current one.  Memory allocated
	 * in a capture is the graph's.
	 */
	if (c.captured)
		pool = NULL;
	else if (fn == GL_FN_cuMemAllocAsync && shim_cuDeviceGetMemPool(&pool, shim_current()->dev))
		pool = NULL;
	if (alloc_add(o.dptr, bytesize, c.ctx, pool))
		return CUDA_ERROR_OUT_OF_MEMORY;
out:
	*dptr = (CUdeviceptr)o.dptr;
	return CUDA_SUCCESS;
}

CUresult shim_cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
	return mem_alloc(GL_FN_cuMemAlloc, dptr, bytesize, NULL, NULL, 0);
}

CUresult shim_mem_alloc_own(CUdeviceptr *dptr, size_t bytesize)
{
	bool was = shim_ungated;
	CUresult r;

	shim_ungated = true;
	r = mem_alloc_remote(GL_FN_cuMemAlloc, dptr, bytesize, NULL, NULL, 0, true);
	shim_ungated = was;
	return r;
}

/* The driver refuses a pointer it did not hand out, at once: so do we. */
static CUresult alloc_forget_entry(CUdeviceptr dptr, struct alloc *gone)
{
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(dptr);
	if (i < 0 || dev_allocs.a[i].base != dptr || dev_allocs.a[i].flags) {
		pthread_mutex_unlock(&dev_allocs.lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (gone)
		*gone = dev_allocs.a[i];
	memmove(&dev_allocs.a[i], &dev_allocs.a[i + 1],
		(dev_allocs.n - (size_t)i - 1) * sizeof(struct alloc));
	dev_allocs.n--;
	pthread_mutex_unlock(&dev_allocs.lock);
	return CUDA_SUCCESS;
}

static CUresult pool_free(const struct alloc *a);

/* c, past the capture's rules already: sent without asking them again. */
static CUresult call_ungated(struct shim_call *c)
{
	bool was = shim_ungated;
	CUresult r;

	shim_ungated = true;
	r = shim_call(c);
	shim_ungated = was;
	return r;
}

/* Device memory the shim itself holds (a slab, a stage) freed in context ctx. */
static CUresult free_raw(uint64_t ctx, CUdeviceptr d)
{
	struct gl_a_cuMemFree a = { .dptr = d };
	struct shim_call c = { .fn = GL_FN_cuMemFree, .ctx = ctx, .args = &a,
			       .args_len = sizeof(a) };

	return call_ungated(&c);
}

/* Whether dptr is a piece of a slab. */
static bool is_piece(CUdeviceptr dptr)
{
	bool piece;
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(dptr);
	piece = i >= 0 && dev_allocs.a[i].base == dptr && dev_allocs.a[i].extent;
	pthread_mutex_unlock(&dev_allocs.lock);
	return piece;
}

/*
 * The end of cuMemFree and cuMemFreeAsync, their record c made: what stream
 * capture refuses keeps the range (asked before it is forgotten); a piece
 * of a slab goes back to it; anything else is freed by the worker.
 */
static CUresult free_range(struct shim_call *c, CUdeviceptr dptr)
{
	struct alloc gone;
	CUresult r;

	if (!shim_ungated && atomic_load(&shim_capture_watch)) {
		r = shim_capture_gate(c);
		if (r)
			return r;
		/* A free in a capture is a graph's node: of a graph's allocation only. */
		if (c->captured && is_piece(dptr))
			return CUDA_ERROR_INVALID_VALUE;
	}
	r = alloc_forget_entry(dptr, &gone);
	if (r)
		return r;
	return gone.extent ? pool_free(&gone) : call_ungated(c);
}

bool shim_mem_free_own(uint64_t ctx, CUdeviceptr dptr)
{
	if (alloc_forget_entry(dptr, NULL))
		return false;
	free_raw(ctx, dptr);
	return true;
}

CUresult shim_mem_keep(CUdeviceptr base, size_t size, uint64_t ctx)
{
	return alloc_add(base, size, ctx, NULL) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

bool shim_mem_forget(CUdeviceptr base)
{
	return !alloc_forget_entry(base, NULL);
}

/*
 * cuMemFree, or cuMemFreeAsync on stream: the synchronous call's block is
 * the first part of the stream-ordered one's.
 */
static CUresult mem_free(unsigned int fn, CUdeviceptr dptr, CUstream stream, int per_thread)
{
	struct gl_a_cuMemFreeAsync a = { .dptr = dptr };
	struct shim_call c;
	CUresult r;

	_Static_assert(offsetof(struct gl_a_cuMemFree, dptr) == 0 &&
		       offsetof(struct gl_a_cuMemFreeAsync, dptr) == 0, "free blocks");
	r = shim_begin_io(&c, fn, &a, gl_fn_args_size[fn], NULL, 0);
	if (r)
		return r;
	if (fn == GL_FN_cuMemFreeAsync) {
		r = shim_stream_id(stream, per_thread, &a.hStream);
		return r ? r : free_range(&c, dptr);
	}
	if (!dptr)
		return CUDA_SUCCESS;
	/* Managed memory is freed as any allocation is. */
	if (atomic_load(&shim_twins) && shim_twin_free(SHIM_TWIN_MANAGED, dptr))
		return CUDA_SUCCESS;
	return free_range(&c, dptr);
}

CUresult shim_cuMemFree(CUdeviceptr dptr)
{
	return mem_free(GL_FN_cuMemFree, dptr, NULL, 0);
}

/*
 * Stream-ordered allocation from the device's default pool: the address
 * comes back at once, as from cuMemAlloc (the worker's driver orders the
 * allocation on the stream); a free is queued on its stream, and the shim
 * forgets the range at the call, so that a use after it is refused.
 */
CUresult shim_cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream stream, int per_thread)
{
	return mem_alloc(GL_FN_cuMemAllocAsync, dptr, bytesize, NULL, stream, per_thread);
}

/* From a pool of the program's choosing; its range is kept as any other. */
CUresult shim_cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
				      CUstream stream, int per_thread)
{
	return mem_alloc(GL_FN_cuMemAllocFromPoolAsync, dptr, bytesize, pool, stream, per_thread);
}

CUresult shim_cuMemFreeAsync(CUdeviceptr dptr, CUstream stream, int per_thread)
{
	return mem_free(GL_FN_cuMemFreeAsync, dptr, stream, per_thread);
}

/* A copy of the allocation that holds p, in *out; false when none does. */
static bool alloc_holding(uint64_t p, struct alloc *out)
{
	bool found;
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(p);
	found = i >= 0 && p - dev_allocs.a[i].base < dev_allocs.a[i].size;
	if (found)
		*out = dev_allocs.a[i];
	pthread_mutex_unlock(&dev_allocs.lock);
	return found;
}

uint64_t shim_mem_buffer_id(CUdeviceptr p)
{
	struct alloc a;

	return alloc_holding(p, &a) ? a.buffer_id : 0;
}

uint64_t shim_mem_ctx(CUdeviceptr p)
{
	struct alloc a;

	return alloc_holding(p, &a) ? a.ctx : 0;
}

CUmemoryPool shim_mem_pool(CUdeviceptr p)
{
	struct alloc a;

	return alloc_holding(p, &a) ? a.pool : NULL;
}

CUresult shim_cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
	struct alloc a;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!alloc_holding(dptr, &a))
		return CUDA_ERROR_NOT_FOUND;
	if (pbase)
		*pbase = (CUdeviceptr)a.base;
	if (psize)
		*psize = (size_t)a.size;
	return CUDA_SUCCESS;
}

/* ---- slabs: cuMemAlloc without a round trip ---- */

/*
 * cuMemAlloc's answer, the address, comes from the GPU, so the program
 * waits for it, and behind everything it queued before: the last upload
 * has to be named, sent and copied to the device first: each allocation
 * between uploads drains the pipeline of uploads (Documentation/
 * benchmarks.md, "Where a warm load waits").  Instead the shim allocates
 * slabs, each one real cuMemAlloc, and hands out pieces of them itself:
 * 512-byte aligned, 2 MiB aligned from 2 MiB up, as the driver aligns.
 * A context's slabs grow geometrically with what it holds (32 MiB, then
 * as much again as all its slabs, up to 1 GiB a slab), so a program makes
 * a few round trips where it made one per allocation.  An allocation of
 * more than half the largest slab gets a slab of its own: a round trip,
 * small beside moving that much data.
 *
 * What stays exact: a slab that cannot be had fails the call with the
 * driver's error (CUDA_ERROR_OUT_OF_MEMORY), so a program that frees and
 * tries again, as PyTorch does, sees what it would see; before that error
 * the shim tries a slab of just the size asked.  cuMemFree of a piece
 * sends a synchronisation of the context without waiting for it, as the
 * driver's cuMemFree waits for the device: work queued before the free
 * that still reads the piece is done before anything queued after it
 * runs, in whatever stream.  A slab whose pieces are all free is freed at
 * once, so that memory a program gives back is the GPU's again.  Range
 * checks, cuMemGetAddressRange and pointer attributes see the pieces, not
 * the slabs.  What differs: cuMemGetInfo counts the free part of a slab as
 * used, and a kernel that runs past the end of a piece reaches the next
 * piece instead of faulting (as it may in the driver's own small
 * allocations).  GLEAM_ALLOC_SLABS=0, or GLEAM_ASYNC=0, turns slabs off;
 * while a stream capture is active, cuMemAlloc goes to the driver.
 */
#define SLAB_FIRST	(32ULL << 20)
#define SLAB_MAX	(1ULL << 30)
#define PIECE_ALIGN	512ULL
#define BIG_ALIGN	(2ULL << 20)

struct extent {
	uint64_t base, size;
	struct extent *next;		/* sorted by base, never touching */
};

struct slab {
	uint64_t base, size, used;
	struct extent *free;
	struct slab *next;
};

struct pool {
	uint64_t ctx;
	uint64_t held;			/* bytes in slabs */
	bool sync_owed;			/* a piece came back during a capture, unordered */
	struct slab *slabs;
	struct pool *next;
};

static struct {
	pthread_mutex_t lock;
	struct pool *list;
	int off;			/* -1: not yet decided */
} pools = { .lock = PTHREAD_MUTEX_INITIALIZER, .off = -1 };

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static bool slabs_off(void)
{
	if (pools.off < 0)
		pools.off = !shim.async || !gl_env_bool("GLEAM_ALLOC_SLABS", true);
	return pools.off;
}

/* The context's pool; lock held.  NULL when out of memory. */
static struct pool *pool_of(uint64_t ctx, bool create)
{
	struct pool *p;

	for (p = pools.list; p; p = p->next)
		if (p->ctx == ctx)
			return p;
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p) {
		p->ctx = ctx;
		p->next = pools.list;
		pools.list = p;
	}
	return p;
}

/* A piece of need bytes at align from slab s, or 0; lock held. */
static uint64_t slab_take(struct slab *s, uint64_t need, uint64_t align)
{
	for (struct extent **pp = &s->free, *e; (e = *pp); pp = &e->next) {
		uint64_t at = align_up(e->base, align), end = e->base + e->size;

		if (at < e->base || at > end || end - at < need)
			continue;
		if (at > e->base && at + need < end) {
			/* The piece splits the extent in two. */
			struct extent *r = malloc(sizeof(*r));

			if (!r)
				return 0;
			r->base = at + need;
			r->size = end - r->base;
			r->next = e->next;
			e->next = r;
			e->size = at - e->base;
		} else if (at > e->base) {
			e->size = at - e->base;
		} else if (at + need < end) {
			e->base = at + need;
			e->size = end - e->base;
		} else {
			*pp = e->next;
			free(e);
		}
		s->used += need;
		return at;
	}
	return 0;
}

/* Give [base, base + size) back to slab s, merging with its neighbours; lock held. */
static int slab_give(struct slab *s, uint64_t base, uint64_t size)
{
	struct extent **pp = &s->free, *prev = NULL, *e;

	while ((e = *pp) && e->base < base) {
		prev = e;
		pp = &e->next;
	}
	if (prev && prev->base + prev->size == base) {
		prev->size += size;
		if (e && base + size == e->base) {
			prev->size += e->size;
			prev->next = e->next;
			free(e);
		}
	} else if (e && base + size == e->base) {
		e->base = base;
		e->size += size;
	} else {
		struct extent *n = malloc(sizeof(*n));

		if (!n) {
			s->used -= size;
			return -1;	/* the range is lost to the slab, not misused */
		}
		n->base = base;
		n->size = size;
		n->next = e;
		*pp = n;
	}
	s->used -= size;
	return 0;
}

static void slab_drop(struct slab *s)
{
	while (s->free) {
		struct extent *e = s->free;

		s->free = e->next;
		free(e);
	}
	free(s);
}

/*
 * The context is gone (destroyed, or its primary context released or
 * reset): its slabs went with it on the GPU.
 */
static void pool_forget(uint64_t ctx)
{
	pthread_mutex_lock(&pools.lock);
	for (struct pool **pp = &pools.list, *p; (p = *pp); pp = &p->next) {
		if (p->ctx != ctx)
			continue;
		*pp = p->next;
		while (p->slabs) {
			struct slab *s = p->slabs;

			p->slabs = s->next;
			slab_drop(s);
		}
		free(p);
		break;
	}
	pthread_mutex_unlock(&pools.lock);
}

/* Context ctx synchronised, in order with its records, without waiting for it. */
static void sync_ctx_nowait(uint64_t ctx)
{
	struct gl_a_cuCtxSynchronize_v2 a = { .ctx = ctx };
	struct shim_call c = { .fn = GL_FN_cuCtxSynchronize_v2, .ctx = ctx, .args = &a,
			       .args_len = sizeof(a) };

	shim_submit(&c, 0, 0);
}

/* A piece from the current context's slabs; CUDA_ERROR_NOT_SUPPORTED: ask the GPU. */
static CUresult pool_alloc(CUdeviceptr *dptr, size_t bytesize)
{
	uint64_t align = bytesize >= BIG_ALIGN ? BIG_ALIGN : PIECE_ALIGN;
	uint64_t need = align_up(bytesize, align), at = 0, size;
	struct shim_ctx *ctx = shim_current();
	struct slab *s = NULL;
	bool owed = false;
	struct pool *p;
	CUdeviceptr d;
	CUresult r;

	/* In a capture, the driver applies the capture's rules to the call. */
	if (!dptr || !bytesize || !ctx || ctx->sticky || slabs_off() ||
	    need < bytesize || need > SLAB_MAX / 2 || atomic_load(&shim_captures) ||
	    shim_conn_error())
		return CUDA_ERROR_NOT_SUPPORTED;
	if (ctx->o.magic != (SHIM_OBJ_MAGIC | GL_H_CTX))
		return CUDA_ERROR_NOT_SUPPORTED;
	pthread_mutex_lock(&pools.lock);
	p = pool_of(ctx->o.id, true);
	if (!p) {
		pthread_mutex_unlock(&pools.lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* No capture now: a synchronisation owed since one goes before the piece's use. */
	owed = p->sync_owed;
	p->sync_owed = false;
	for (s = p->slabs; s; s = s->next)
		if ((at = slab_take(s, need, align)))
			break;
	size = MAX(SLAB_FIRST, MIN(SLAB_MAX, align_up(p->held, BIG_ALIGN)));
	pthread_mutex_unlock(&pools.lock);
	if (!at) {
		/*
		 * A new slab, unlocked: the round trip may take a while, and
		 * other threads go on with the slabs there are.  Two threads
		 * may both add one; the second is used all the same.
		 */
		/* Room to align the piece, whatever the base the driver gives. */
		uint64_t fit = align_up(need + align, BIG_ALIGN);

		size = MAX(size, fit);
		r = mem_alloc_remote(GL_FN_cuMemAlloc, &d, size, NULL, NULL, 0, false);
		if (r == CUDA_ERROR_OUT_OF_MEMORY && size > fit) {
			size = fit;
			r = mem_alloc_remote(GL_FN_cuMemAlloc, &d, size, NULL, NULL, 0, false);
		}
		if (r)
			return r;
		s = calloc(1, sizeof(*s));
		if (s) {
			s->free = malloc(sizeof(*s->free));
			if (!s->free) {
				free(s);
				s = NULL;
			}
		}
		if (!s) {
			free_raw(ctx->o.id, d);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		s->base = d;
		s->size = size;
		*s->free = (struct extent){ d, size, NULL };
		pthread_mutex_lock(&pools.lock);
		p = pool_of(ctx->o.id, true);
		if (!p) {
			pthread_mutex_unlock(&pools.lock);
			slab_drop(s);
			free_raw(ctx->o.id, d);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		s->next = p->slabs;
		p->slabs = s;
		p->held += size;
		at = slab_take(s, need, align);
		pthread_mutex_unlock(&pools.lock);
		if (!at)
			return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (owed)
		sync_ctx_nowait(ctx->o.id);
	if (alloc_add_piece(at, bytesize, ctx->o.id, NULL, need)) {
		struct alloc a = { at, bytesize, ctx->o.id, need, NULL };

		pool_free(&a);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*dptr = (CUdeviceptr)at;
	return CUDA_SUCCESS;
}

/*
 * A piece back to its slab (its range already forgotten).  The context is
 * synchronised, without waiting, as the driver's cuMemFree does; an empty
 * slab is freed.
 */
static CUresult pool_free(const struct alloc *a)
{
	struct slab **sp, *s = NULL;
	CUdeviceptr empty = 0;
	bool capture;
	struct pool *p;

	pthread_mutex_lock(&pools.lock);
	p = pool_of(a->ctx, false);
	for (sp = p ? &p->slabs : NULL; sp && (s = *sp); sp = &s->next)
		if (a->base >= s->base && a->base - s->base < s->size)
			break;
	if (!s) {
		/* Its context went: so did the slab. */
		pthread_mutex_unlock(&pools.lock);
		return CUDA_SUCCESS;
	}
	slab_give(s, a->base, a->extent);
	if (!s->used) {
		*sp = s->next;
		p->held -= s->size;
		empty = s->base;
		slab_drop(s);
	}
	/*
	 * A synchronisation would break a capture under way: it is owed, and
	 * made before the next piece of this context's slabs is handed out.
	 */
	capture = !empty && atomic_load(&shim_captures);
	if (capture)
		p->sync_owed = true;
	pthread_mutex_unlock(&pools.lock);
	/* The driver's cuMemFree of the slab waits for the device itself. */
	if (empty)
		return free_raw(a->ctx, empty);
	if (!capture)
		sync_ctx_nowait(a->ctx);
	return CUDA_SUCCESS;
}

/* ---- host memory ---- */

/*
 * Page-locked memory is ordinary memory here, where there is no GPU to
 * pin it for.  Mapped into the device's address space
 * (CU_MEMHOSTALLOC_DEVICEMAP), it is a twin (twin.c): device memory of
 * the session's at the very address of these pages, kept in step with
 * them, so that a kernel given the pointer reads and writes what this
 * process does.
 */
CUresult shim_cuMemHostAlloc(void **pp, size_t bytesize, unsigned int flags)
{
	struct host_alloc *h;
	struct shim_ctx *c;
	CUresult r = shim_require_ctx(&c);

	if (r)
		return r;
	if (!pp || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & ~(unsigned int)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
				    CU_MEMHOSTALLOC_WRITECOMBINED))
		return CUDA_ERROR_INVALID_VALUE;
	h = malloc(sizeof(*h));
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (flags & CU_MEMHOSTALLOC_DEVICEMAP) {
		r = shim_twin_new(SHIM_TWIN_MAPPED, bytesize, flags, &h->p);
		if (r) {
			free(h);
			return r;
		}
	} else {
		h->p = mmap(NULL, bytesize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
	}
	if (h->p == MAP_FAILED) {
		free(h);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	h->size = bytesize;
	h->flags = flags;
	pthread_mutex_lock(&host_allocs.lock);
	h->next = host_allocs.list;
	host_allocs.list = h;
	pthread_mutex_unlock(&host_allocs.lock);
	*pp = h->p;
	return CUDA_SUCCESS;
}

CUresult shim_cuMemAllocHost(void **pp, size_t bytesize)
{
	return shim_cuMemHostAlloc(pp, bytesize, 0);
}

CUresult shim_cuMemFreeHost(void *p)
{
	struct host_alloc **pp, *h = NULL;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&host_allocs.lock);
	for (pp = &host_allocs.list; *pp; pp = &(*pp)->next) {
		if ((*pp)->p == p) {
			h = *pp;
			*pp = h->next;
			break;
		}
	}
	pthread_mutex_unlock(&host_allocs.lock);
	if (!h)
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * A mapped allocation's pages are its twin's, and go with it; one
	 * mapped by cuMemHostGetDevicePointer loses its twin, and the pages
	 * are unmapped here.
	 */
	if (!atomic_load(&shim_twins) || !shim_twin_free(SHIM_TWIN_MAPPED, (uintptr_t)h->p)) {
		if (atomic_load(&shim_twins))
			shim_twin_free(SHIM_TWIN_REGISTERED, (uintptr_t)h->p);
		munmap(h->p, h->size);
	}
	free(h);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemHostGetFlags(unsigned int *pflags, void *p);


/*
 * The page-locked allocation that holds p: its start, size and flags
 * (each pointer may be NULL); false when none does.
 */
static bool host_alloc_find(const void *p, void **base, size_t *size, unsigned int *flags)
{
	bool found = false;

	pthread_mutex_lock(&host_allocs.lock);
	for (struct host_alloc *h = host_allocs.list; h; h = h->next) {
		if ((const char *)p >= (char *)h->p && (const char *)p < (char *)h->p + h->size) {
			if (base)
				*base = h->p;
			if (size)
				*size = h->size;
			if (flags)
				*flags = h->flags;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&host_allocs.lock);
	return found;
}

/* The flags of the page-locked allocation holding p; false when none does. */
static bool host_alloc_flags(const void *p, unsigned int *flags)
{
	return host_alloc_find(p, NULL, NULL, flags);
}

bool shim_host_pinned(const void *p)
{
	unsigned int f;

	return host_alloc_flags(p, &f) || shim_host_registered(p);
}

CUresult shim_cuMemHostGetFlags(unsigned int *pflags, void *p)
{
	return pflags && host_alloc_flags(p, pflags) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The page-locked allocation that holds p: its start and size; false when none does. */
bool shim_host_alloc_of(const void *p, void **base, size_t *size)
{
	return host_alloc_find(p, base, size, NULL);
}

/*
 * The device address of mapped page-locked memory: its twin's, which is
 * its host address unless the server could not place the twin there (a
 * registered range; Documentation/design.md).  Memory allocated or
 * registered without the mapping flag is mapped at the first question, as
 * unified addressing maps all page-locked memory: the address handed out
 * is one the GPU reaches, never this process's own.
 */
CUresult shim_cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int flags)
{
	struct shim_twin_info ti;
	unsigned int f;
	uint64_t dev;
	size_t size;
	void *base;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!pdptr || flags || !shim_host_pinned(p))
		return CUDA_ERROR_INVALID_VALUE;
	if (atomic_load(&shim_twins) && shim_twin_find((uintptr_t)p, &ti) &&
	    ti.kind != SHIM_TWIN_MANAGED && (uintptr_t)p - ti.host < ti.size) {
		*pdptr = (CUdeviceptr)(ti.dev + ((uintptr_t)p - ti.host));
		return CUDA_SUCCESS;
	}
	if (!shim_host_alloc_of(p, &base, &size) &&
	    !shim_host_reg_of(p, &base, &size))
		return CUDA_ERROR_INVALID_VALUE;
	f = 0;
	host_alloc_flags(p, &f);
	gl_dbg("cuMemHostGetDevicePointer: mapping %zu bytes of page-locked memory", size);
	r = shim_twin_over(SHIM_TWIN_REGISTERED, base, size, f, &dev);
	if (r)
		return r;
	*pdptr = (CUdeviceptr)(dev + ((uintptr_t)p - (uintptr_t)base));
	return CUDA_SUCCESS;
}

/* ---- copies ---- */

/* Exported entry points that cuda.h names only for per-thread stream builds. */
CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);

/*
 * A copy between device memory and mapped or managed memory given by its
 * host address is a copy on the device, from or to the twin: the GPU's
 * copy may be newer than these pages, and the copy must land where the
 * GPU reads.  The twin's own rules (twin.c) keep the pages in step.
 */
static CUresult dtod(CUdeviceptr dst, CUdeviceptr src, size_t n, bool async, CUstream s,
		     int per_thread)
{
	if (async)
		return per_thread ? cuMemcpyDtoDAsync_v2_ptsz(dst, src, n, s) :
				    cuMemcpyDtoDAsync_v2(dst, src, n, s);
	return per_thread ? cuMemcpyDtoD_v2_ptds(dst, src, n) : cuMemcpyDtoD_v2(dst, src, n);
}

static CUresult htod(unsigned int fn, CUdeviceptr dst, const void *src, size_t n,
		     CUstream stream, int per_thread)
{
	struct gl_a_cuMemcpyHtoDAsync a = { 0 };
	struct shim_call c;
	struct iovec iov;
	size_t piece, off = 0;
	uint64_t tdev;
	bool twin;
	CUresult r;

	if (n && atomic_load(&shim_twins) && shim_twin_dev(src, n, &tdev)) {
		struct shim_twin_info ti;

		/* Read only, unless into a twin too: nothing to bring back after it. */
		shim_twin_reading(!shim_twin_find(dst, &ti));
		r = dtod(dst, tdev, n, fn == GL_FN_cuMemcpyHtoDAsync, stream, per_thread);
		shim_twin_reading(false);
		return r;
	}
	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (!src && n)
		return CUDA_ERROR_INVALID_VALUE;
	if (fn == GL_FN_cuMemcpyHtoDAsync) {
		r = shim_stream_id(stream, per_thread, &a.hStream);
		if (r)
			return r;
	}
	r = shim_check_range(dst, n);
	if (r)
		return r;
	/* Into mapped or managed memory (twin.c): taken now, before other calls reset it. */
	twin = shim_twin_touched;
	if (fn == GL_FN_cuMemcpyHtoDAsync) {
		bool staged = false;

		r = shim_capture_stage_copy(false, (void *)src, dst, n, stream, per_thread, c.ctx,
					    &staged);
		if (r || staged)
			return r;
	}
	/*
	 * The driver reads page-locked memory when the stream gets to the
	 * copy (and a synchronous copy after what its stream held): after
	 * the host functions queued before it, which may have filled it.
	 */
	if (n && (fn == GL_FN_cuMemcpyHtoD || shim_host_pinned(src)))
		shim_host_wait_stream(fn == GL_FN_cuMemcpyHtoD ? 0 : a.hStream, gl_fn_name(fn));
	piece = shim_piece_max();
	shim_twin_touched = twin;
	shim_twin_pieces(twin);
	/*
	 * Each piece is a copy of its own, in stream order: the worker never
	 * holds more than one piece.  The data leaves the caller's buffer
	 * before we return, so the caller may reuse it at once, as CUDA allows.
	 */
	do {
		size_t k = MIN(piece, n - off);

		a.dstDevice = dst + off;
		a.ByteCount = k;
		iov.iov_base = (char *)src + off;
		iov.iov_len = k;
		c.args = &a;
		c.args_len = fn == GL_FN_cuMemcpyHtoDAsync ? sizeof(a) :
			     sizeof(struct gl_a_cuMemcpyHtoD);
		r = shim_call_iov(&c, &iov);
		off += k;
	} while (!r && off < n);
	shim_twin_pieces(false);
	/* Into mapped or managed memory, and complete on return: what the GPU has comes back. */
	if (twin && !r && fn == GL_FN_cuMemcpyHtoD)
		shim_twin_pull();
	return r;
}

CUresult shim_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n, int per_thread)
{
	return htod(GL_FN_cuMemcpyHtoD, dst, src, n, NULL, per_thread);
}

CUresult shim_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s,
				int per_thread)
{
	return htod(GL_FN_cuMemcpyHtoDAsync, dst, src, n, s, per_thread);
}

/*
 * Device to host: one record; the worker answers with data pieces that the
 * receiving thread copies straight into dst, then the result.  The async
 * form waits as well: the data must land in the caller's memory, which
 * only this process can write.
 */
static CUresult dtoh(unsigned int fn, void *dst, CUdeviceptr src, size_t n, CUstream stream,
		     int per_thread)
{
	struct gl_a_cuMemcpyDtoHAsync a = { .srcDevice = src, .ByteCount = n };
	struct shim_call c;
	uint64_t tdev;
	CUresult r;

	if (n && atomic_load(&shim_twins) && shim_twin_dev(dst, n, &tdev))
		return dtod(tdev, src, n, fn == GL_FN_cuMemcpyDtoHAsync, stream, per_thread);
	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (!dst && n)
		return CUDA_ERROR_INVALID_VALUE;
	/* A freed piece of a slab is still memory on the GPU: the range is checked here. */
	r = shim_check_range(src, n);
	if (r)
		return r;
	if (fn == GL_FN_cuMemcpyDtoHAsync) {
		bool staged = false;

		r = shim_stream_id(stream, per_thread, &a.hStream);
		if (!r)
			r = shim_capture_stage_copy(true, dst, src, n, stream, per_thread, c.ctx,
						    &staged);
		if (r || staged)
			return r;
	}
	c.args = &a;
	c.args_len = fn == GL_FN_cuMemcpyDtoHAsync ? sizeof(a) : sizeof(struct gl_a_cuMemcpyDtoH);
	c.outbuf = dst;
	c.outbuf_len = n;
	c.force_sync = true;
	/* Only the asynchronous form to page-locked memory returns before the copy. */
	c.host_pinned = fn == GL_FN_cuMemcpyDtoHAsync && shim_host_pinned(dst);
	/*
	 * Its answer comes after everything its stream held: a synchronisation
	 * of that stream right after it has nothing left to wait for.
	 */
	if (n)
		c.covers = 1 + (fn == GL_FN_cuMemcpyDtoHAsync ? a.hStream :
				per_thread ? (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD : 0);
	return shim_call(&c);
}

CUresult shim_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n, int per_thread)
{
	return dtoh(GL_FN_cuMemcpyDtoH, dst, src, n, NULL, per_thread);
}

CUresult shim_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s, int per_thread)
{
	return dtoh(GL_FN_cuMemcpyDtoHAsync, dst, src, n, s, per_thread);
}
