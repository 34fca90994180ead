// SPDX-License-Identifier: MIT
/*
 * The sim's device memory, host memory of the worker: allocations,
 * copies and fills, fills of pitched rows, and the stream memory
 * operations (writes and waits of values).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bigcopy.h"
#include "util.h"
#include "sim.h"

/* ---- memory ---- */

static long find_le(uint64_t p)
{
	_Static_assert(offsetof(struct sim_alloc, base) == 0, "sorted by a leading base");
	return gl_find_le(sim.a, sim.n, sizeof(sim.a[0]), p);
}

/*
 * Host view of [p, p + len) when it lies inside one allocation, or runs
 * through mappings of the virtual memory functions that lie side by side
 * (in the worker's address space as on a GPU's).
 */
void *sim_mem(void *be, uint64_t p, uint64_t len)
{
	long i = find_le(p);
	uint64_t end = p + len;

	(void)be;
	if (i < 0 || p - sim.a[i].base > sim.a[i].size || end < p ||
	    sim.a[i].vmm == SIM_VMM_NOACCESS)
		return NULL;
	while (end - sim.a[i].base > sim.a[i].size) {
		if (sim.a[i].vmm != SIM_VMM_MAPPED || (size_t)i + 1 >= sim.n ||
		    sim.a[i + 1].base != sim.a[i].base + sim.a[i].size ||
		    sim.a[i + 1].vmm != SIM_VMM_MAPPED)
			return NULL;
		i++;
	}
	return (void *)(uintptr_t)p;
}

int sim_alloc_insert(const struct sim_alloc *e)
{
	long i;

	if (gl_grow((void **)&sim.a, sim.n, &sim.cap, sizeof(*sim.a), 64))
		return -1;
	i = find_le(e->base) + 1;
	memmove(&sim.a[i + 1], &sim.a[i], (sim.n - (size_t)i) * sizeof(sim.a[0]));
	sim.a[i] = *e;
	sim.n++;
	return 0;
}

void sim_alloc_remove(long i)
{
	memmove(&sim.a[i], &sim.a[i + 1], (sim.n - (size_t)i - 1) * sizeof(sim.a[0]));
	sim.n--;
}

CUresult sim_alloc_mem(CUdeviceptr *dptr, size_t size, struct sim_pool *pool)
{
	struct sim_alloc e = { .size = size, .pool = pool };
	void *p;

	CTX_OK();
	if (!size)
		return CUDA_ERROR_INVALID_VALUE;
	if (size > SIM_MEM_TOTAL || sim.used > SIM_MEM_TOTAL - size)
		return CUDA_ERROR_OUT_OF_MEMORY;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e.base = (uint64_t)(uintptr_t)p;
	if (sim_alloc_insert(&e)) {
		munmap(p, size);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	sim.used += size;
	if (pool)
		sim_pool_take(pool, size);
	*dptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

CUresult sim_cuMemAlloc(CUdeviceptr *dptr, size_t size)
{
	return sim_alloc_mem(dptr, size, NULL);
}

/* The allocation at d, or -1 (a mapping of the virtual memory functions is none). */
long sim_alloc_at(CUdeviceptr d)
{
	long i = find_le(d);

	return i >= 0 && sim.a[i].base == d && !sim.a[i].vmm ? i : -1;
}

/* Memory a graph freed is not the program's to free again. */
CUresult sim_cuMemFree(CUdeviceptr d)
{
	long i;

	CTX_OK();
	i = sim_alloc_at(d);
	if (i < 0 || sim.a[i].graph)
		return CUDA_ERROR_INVALID_VALUE;
	return sim_free_at(i);
}

CUresult sim_free_at(long i)
{
	munmap((void *)(uintptr_t)sim.a[i].base, sim.a[i].size);
	sim.used -= sim.a[i].size;
	if (sim.a[i].pool)
		sim_pool_give(sim.a[i].pool, sim.a[i].size);
	sim_alloc_remove(i);
	return CUDA_SUCCESS;
}

CUresult sim_cuMemGetInfo(size_t *free_b, size_t *total)
{
	CTX_OK();
	*free_b = SIM_MEM_TOTAL - MIN(sim.used, SIM_MEM_TOTAL);
	*total = SIM_MEM_TOTAL;
	return CUDA_SUCCESS;
}

/* ---- copies and fills ---- */

#define SIM_COLD_MIN	(64u << 10)

static CUresult htod(CUdeviceptr dst, const void *src, size_t n)
{
	void *d;

	CTX_OK();
	d = sim_mem(NULL, dst, n);
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (n) {
		uint64_t t0 = gl_now_ns();

		/*
		 * Device memory is not the processor's: as a GPU's copy
		 * engine does, the copy leaves the caches alone (a large
		 * copy comes here in pieces of a ring's size).
		 */
		if (n >= SIM_COLD_MIN)
			gl_copy_cold(d, src, n);
		else
			memcpy(d, src, n);
		sim_ran_since(t0);
	}
	return CUDA_SUCCESS;
}

static CUresult dtoh(void *dst, CUdeviceptr src, size_t n)
{
	uint64_t t0;
	void *s;

	CTX_OK();
	s = sim_mem(NULL, src, n);
	if (!s)
		return CUDA_ERROR_INVALID_VALUE;
	t0 = gl_now_ns();
	memcpy(dst, s, n);
	sim_ran_since(t0);
	return CUDA_SUCCESS;
}

CUresult sim_dtod(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	uint64_t t0;
	void *d, *s;

	CTX_OK();
	d = sim_mem(NULL, dst, n);
	s = sim_mem(NULL, src, n);
	if (!d || !s)
		return CUDA_ERROR_INVALID_VALUE;
	t0 = gl_now_ns();
	memmove(d, s, n);
	sim_ran_since(t0);
	return CUDA_SUCCESS;
}

CUresult sim_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	CUresult r;

	CTX_OK();
	r = sim_legacy_work();
	return r ? r : htod(dst, src, n);
}

CUresult sim_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	CUresult r;

	CTX_OK();
	r = sim_legacy_work();
	return r ? r : dtoh(dst, src, n);
}

CUresult sim_cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CUresult r;

	CTX_OK();
	r = sim_legacy_work();
	return r ? r : sim_dtod(dst, src, n);
}

/* A copy between the host and dev in s's order: to dev from src, or from it to dst. */
static CUresult host_copy_async(CUstream s, bool to_dev, CUdeviceptr dev, void *dst,
				const void *src, size_t n)
{
	struct sim_capture *cap;
	CUresult r = sim_stream_begin(s, &cap);

	if (r)
		return r;
	if (cap)
		return sim_host_copy_captured(cap);
	return to_dev ? htod(dev, src, n) : dtoh(dst, dev, n);
}

CUresult sim_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	return host_copy_async(s, true, dst, NULL, src, n);
}

CUresult sim_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	return host_copy_async(s, false, src, dst, NULL, n);
}

CUresult sim_cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	struct sim_op op = { .kind = OP_COPY, .dst = dst, .src = src, .n = n };
	struct sim_capture *cap;
	CUresult r = sim_stream_begin(s, &cap);

	if (r || !cap)
		return r ? r : sim_dtod(dst, src, n);
	if (!sim_mem(NULL, dst, n) || !sim_mem(NULL, src, n))
		return CUDA_ERROR_INVALID_VALUE;
	return sim_capture_op(cap, s, &op);
}

/* n elements of w bytes at dst: aligned, and inside one allocation. */
static unsigned char *set_range(CUdeviceptr dst, size_t n, unsigned int w)
{
	if (n > SIM_MEM_TOTAL / w || (dst % w))
		return NULL;
	return sim_mem(NULL, dst, n * w);
}

CUresult sim_set_n(CUdeviceptr dst, uint32_t v, size_t n, unsigned int w)
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
	CUresult r = sim_stream_begin(s, &cap);

	if (r || !cap)
		return r ? r : sim_set_n(dst, v, n, w);
	if (!set_range(dst, n, w))
		return CUDA_ERROR_INVALID_VALUE;
	return sim_capture_op(cap, s, &op);
}

CUresult sim_cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n)
{
	CUresult r;

	CTX_OK();
	r = sim_legacy_work();
	return r ? r : sim_set_n(d, v, n, 1);
}

CUresult sim_cuMemsetD16(CUdeviceptr d, unsigned short v, size_t n)
{
	CUresult r;

	CTX_OK();
	r = sim_legacy_work();
	return r ? r : sim_set_n(d, v, n, 2);
}

CUresult sim_cuMemsetD32(CUdeviceptr d, unsigned int v, size_t n)
{
	CUresult r;

	CTX_OK();
	r = sim_legacy_work();
	return r ? r : sim_set_n(d, v, n, 4);
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
	if (!async && (r = sim_legacy_work()))
		return r;
	for (size_t y = 0; y < height && !r; y++)
		r = async ? set_async(dst + y * pitch, v, width, w, s) :
			    sim_set_n(dst + y * pitch, v, width, w);
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
	    addr % w || !(p = sim_mem(NULL, addr, w)))
		return CUDA_ERROR_INVALID_VALUE;
	r = sim_stream_work(s, &cap);
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
	gl_err("sim: a stream wait for a value nothing will write: refused");
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
