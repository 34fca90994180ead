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
	CUmemoryPool pool;	/* the stream-ordered allocator's, or NULL */
};

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
	long lo = 0, hi = (long)dev_allocs.n - 1, best = -1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (dev_allocs.a[mid].base <= p) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}

static int alloc_add(uint64_t base, uint64_t size, uint64_t ctx, CUmemoryPool pool)
{
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	if (dev_allocs.n == dev_allocs.cap) {
		size_t cap = dev_allocs.cap ? 2 * dev_allocs.cap : 64;
		struct alloc *a = realloc(dev_allocs.a, cap * sizeof(*a));

		if (!a) {
			pthread_mutex_unlock(&dev_allocs.lock);
			return -1;
		}
		dev_allocs.a = a;
		dev_allocs.cap = cap;
	}
	i = find_le(base) + 1;
	memmove(&dev_allocs.a[i + 1], &dev_allocs.a[i],
		(dev_allocs.n - (size_t)i) * sizeof(struct alloc));
	dev_allocs.a[i] = (struct alloc){ base, size, ctx, pool };
	dev_allocs.n++;
	pthread_mutex_unlock(&dev_allocs.lock);
	return 0;
}

void shim_mem_forget_ctx(uint64_t ctx)
{
	size_t j = 0;

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
 * here too rather than let the error surface later.
 */
CUresult shim_check_range(CUdeviceptr p, size_t len)
{
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	long i;

	if (!len)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(p);
	if (i >= 0 && p - dev_allocs.a[i].base < dev_allocs.a[i].size &&
	    len <= dev_allocs.a[i].size - (p - dev_allocs.a[i].base))
		r = CUDA_SUCCESS;
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

	r = shim_begin(&c, fn);
	if (r)
		return r;
	r = shim_name_arg(kind, parent, name, &a.hmod, &a.name_len, &iov);
	if (r)
		return r;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = &iov;
	c.niov = 1;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
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

/*
 * An allocation: the address waits for the server's answer (kernels carry
 * it as raw bytes), and the shim keeps its range, whichever the form.
 */
static CUresult mem_alloc(unsigned int fn, CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
			  CUstream stream, int per_thread)
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
	*dptr = (CUdeviceptr)o.dptr;
	return CUDA_SUCCESS;
}

CUresult shim_cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
	return mem_alloc(GL_FN_cuMemAlloc, dptr, bytesize, NULL, NULL, 0);
}

/* The driver refuses a pointer it did not hand out, at once: so do we. */
static CUresult alloc_forget(CUdeviceptr dptr)
{
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(dptr);
	if (i < 0 || dev_allocs.a[i].base != dptr) {
		pthread_mutex_unlock(&dev_allocs.lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	memmove(&dev_allocs.a[i], &dev_allocs.a[i + 1],
		(dev_allocs.n - (size_t)i - 1) * sizeof(struct alloc));
	dev_allocs.n--;
	pthread_mutex_unlock(&dev_allocs.lock);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemFree(CUdeviceptr dptr)
{
	struct gl_a_cuMemFree a = { .dptr = dptr };
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuMemFree);
	if (r)
		return r;
	if (!dptr)
		return CUDA_SUCCESS;
	c.args = &a;
	c.args_len = sizeof(a);
	/* What stream capture refuses keeps the range: asked before it is forgotten. */
	if (atomic_load(&shim_capture_watch)) {
		r = shim_capture_gate(&c);
		if (r)
			return r;
	}
	r = alloc_forget(dptr);
	if (r)
		return r;
	return shim_call(&c);
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
	struct gl_a_cuMemFreeAsync a = { .dptr = dptr };
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuMemFreeAsync);
	if (r)
		return r;
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_stream_id(stream, per_thread, &a.hStream);
	if (!r && atomic_load(&shim_capture_watch))
		r = shim_capture_gate(&c);
	if (!r)
		r = alloc_forget(dptr);
	if (r)
		return r;
	return shim_call(&c);
}

CUmemoryPool shim_mem_pool(CUdeviceptr p)
{
	CUmemoryPool pool = NULL;
	long i;

	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(p);
	if (i >= 0 && p - dev_allocs.a[i].base < dev_allocs.a[i].size)
		pool = dev_allocs.a[i].pool;
	pthread_mutex_unlock(&dev_allocs.lock);
	return pool;
}

CUresult shim_cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
	CUresult r = CUDA_ERROR_NOT_FOUND;
	long i;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&dev_allocs.lock);
	i = find_le(dptr);
	if (i >= 0 && dptr - dev_allocs.a[i].base < dev_allocs.a[i].size) {
		if (pbase)
			*pbase = (CUdeviceptr)dev_allocs.a[i].base;
		if (psize)
			*psize = (size_t)dev_allocs.a[i].size;
		r = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&dev_allocs.lock);
	return r;
}

/* ---- host memory ---- */

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
	h->p = mmap(NULL, bytesize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
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
	munmap(h->p, h->size);
	free(h);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemHostGetFlags(unsigned int *pflags, void *p)
{
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (!pflags)
		return r;
	pthread_mutex_lock(&host_allocs.lock);
	for (struct host_alloc *h = host_allocs.list; h; h = h->next) {
		if ((char *)p >= (char *)h->p && (char *)p < (char *)h->p + h->size) {
			*pflags = h->flags;
			r = CUDA_SUCCESS;
			break;
		}
	}
	pthread_mutex_unlock(&host_allocs.lock);
	return r;
}

/*
 * With unified addressing, which Gleam reports, the device address of
 * page-locked host memory is its host address, and that is the answer.
 * The runtime asks it of every allocation it makes with cudaHostAlloc.
 * The memory itself stays on this machine: copies from and to it work as
 * for any host memory, but a kernel that dereferences the address runs on
 * a GPU that cannot reach it and fails there (Documentation/design.md).
 */
CUresult shim_cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int flags)
{
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (!pdptr || flags)
		return r;
	pthread_mutex_lock(&host_allocs.lock);
	for (struct host_alloc *h = host_allocs.list; h; h = h->next) {
		if ((char *)p >= (char *)h->p && (char *)p < (char *)h->p + h->size) {
			*pdptr = (CUdeviceptr)(uintptr_t)p;
			r = CUDA_SUCCESS;
			break;
		}
	}
	pthread_mutex_unlock(&host_allocs.lock);
	return r;
}

/* ---- copies ---- */

static CUresult htod(unsigned int fn, CUdeviceptr dst, const void *src, size_t n,
		     CUstream stream, int per_thread)
{
	struct gl_a_cuMemcpyHtoDAsync a = { 0 };
	struct shim_call c;
	struct iovec iov;
	size_t piece, off = 0;
	CUresult r;

	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (!src && n)
		return CUDA_ERROR_INVALID_VALUE;
	if (fn == GL_FN_cuMemcpyHtoDAsync) {
		r = shim_stream_id(stream, per_thread, &a.hStream);
		if (!r)
			r = shim_capture_host_copy(fn, c.ctx);
		if (r)
			return r;
	}
	r = shim_check_range(dst, n);
	if (r)
		return r;
	piece = shim_piece_max();
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
		c.iov = &iov;
		c.niov = 1;
		r = shim_call(&c);
		off += k;
	} while (!r && off < n);
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
	CUresult r;

	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (!dst && n)
		return CUDA_ERROR_INVALID_VALUE;
	if (fn == GL_FN_cuMemcpyDtoHAsync) {
		r = shim_stream_id(stream, per_thread, &a.hStream);
		if (!r)
			r = shim_capture_host_copy(fn, c.ctx);
		if (r)
			return r;
	}
	c.args = &a;
	c.args_len = fn == GL_FN_cuMemcpyDtoHAsync ? sizeof(a) : sizeof(struct gl_a_cuMemcpyDtoH);
	c.outbuf = dst;
	c.outbuf_len = n;
	c.force_sync = true;
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
