// SPDX-License-Identifier: MIT
/*
 * Device memory quotas of a replay worker (Documentation/security.md):
 * the session's allocations may not pass mem_session bytes, nor its
 * tenant's workers' together mem_tenant; an allocation beyond fails with
 * CUDA_ERROR_OUT_OF_MEMORY, as one beyond the GPU's memory does.  The
 * worker replays through a copy of its backend whose allocating and
 * freeing functions count first; the tenant's count lives in the usage
 * table the server shares with every worker (worker.c).
 *
 * What is counted: cuMemAlloc, cuMemAllocAsync and cuMemAllocFromPoolAsync,
 * until freed.  What the driver takes besides (contexts, modules, what a
 * pool keeps after cuMemFreeAsync) is not.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "worker.h"

static struct gl_backend counted;
static const struct gl_backend *real;
static uint64_t limit_session, limit_tenant, held;

/* Live allocations: address to size, open addressing, power-of-two size. */
static struct alloc {
	CUdeviceptr ptr;	/* 0: empty */
	uint64_t size;
} *tab;
static size_t cap, used;

static size_t slot_of(CUdeviceptr p)
{
	size_t i = (size_t)(p * 0x9e3779b97f4a7c15ull) & (cap - 1);

	while (tab[i].ptr && tab[i].ptr != p)
		i = (i + 1) & (cap - 1);
	return i;
}

static bool grow(void)
{
	struct alloc *old = tab;
	size_t ocap = cap;

	cap = ocap ? 2 * ocap : 1024;
	tab = calloc(cap, sizeof(*tab));
	if (!tab) {
		tab = old;
		cap = ocap;
		return false;
	}
	for (size_t i = 0; i < ocap; i++)
		if (old[i].ptr)
			tab[slot_of(old[i].ptr)] = old[i];
	free(old);
	return true;
}

static bool remember(CUdeviceptr p, uint64_t size)
{
	if ((used + 1) * 2 > cap && !grow())
		return false;
	tab[slot_of(p)] = (struct alloc){ p, size };
	used++;
	return true;
}

/* The size of allocation p, forgotten; 0 when it was none of the counted. */
static uint64_t forget(CUdeviceptr p)
{
	size_t i, j;
	uint64_t size;

	if (!cap || !p || tab[i = slot_of(p)].ptr != p)
		return 0;
	size = tab[i].size;
	tab[i].ptr = 0;
	used--;
	/* Backward-shift deletion keeps every probe sequence unbroken. */
	for (j = (i + 1) & (cap - 1); tab[j].ptr; j = (j + 1) & (cap - 1)) {
		struct alloc e = tab[j];

		tab[j].ptr = 0;
		tab[slot_of(e.ptr)] = e;
	}
	return size;
}

static bool take(uint64_t n)
{
	if (limit_session && held + n > limit_session)
		return false;
	if (!wk_usage_charge((int64_t)n, limit_tenant))
		return false;
	held += n;
	return true;
}

static void give(uint64_t n)
{
	if (!n)
		return;
	held -= n;
	wk_usage_charge(-(int64_t)n, 0);
}

/* An allocation made (r), counted, or undone where it cannot be remembered. */
static CUresult made(CUresult r, CUdeviceptr *dptr, uint64_t n)
{
	if (r) {
		give(n);
		return r;
	}
	if (!remember(*dptr, n))
		gl_err("no memory to count an allocation: it stays counted");
	return CUDA_SUCCESS;
}

static CUresult q_cuMemAlloc(CUdeviceptr *dptr, size_t n)
{
	if (!take(n))
		return CUDA_ERROR_OUT_OF_MEMORY;
	return made(real->op.f_cuMemAlloc(dptr, n), dptr, n);
}

static CUresult q_cuMemAllocAsync(CUdeviceptr *dptr, size_t n, CUstream s)
{
	if (!take(n))
		return CUDA_ERROR_OUT_OF_MEMORY;
	return made(real->op.f_cuMemAllocAsync(dptr, n, s), dptr, n);
}

static CUresult q_cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t n, CUmemoryPool pool,
					  CUstream s)
{
	if (!take(n))
		return CUDA_ERROR_OUT_OF_MEMORY;
	return made(real->op.f_cuMemAllocFromPoolAsync(dptr, n, pool, s), dptr, n);
}

static CUresult q_cuMemFree(CUdeviceptr p)
{
	CUresult r = real->op.f_cuMemFree(p);

	if (!r)
		give(forget(p));
	return r;
}

static CUresult q_cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
	CUresult r = real->op.f_cuMemFreeAsync(p, s);

	if (!r)
		give(forget(p));
	return r;
}

const struct gl_backend *wk_quota_backend(const struct gl_backend *be, uint64_t session,
					  uint64_t tenant)
{
	if (!session && !tenant)
		return be;
	real = be;
	limit_session = session;
	limit_tenant = tenant;
	counted = *be;
	if (be->op.f_cuMemAlloc)
		counted.op.f_cuMemAlloc = q_cuMemAlloc;
	if (be->op.f_cuMemAllocAsync)
		counted.op.f_cuMemAllocAsync = q_cuMemAllocAsync;
	if (be->op.f_cuMemAllocFromPoolAsync)
		counted.op.f_cuMemAllocFromPoolAsync = q_cuMemAllocFromPoolAsync;
	if (be->op.f_cuMemFree)
		counted.op.f_cuMemFree = q_cuMemFree;
	if (be->op.f_cuMemFreeAsync)
		counted.op.f_cuMemFreeAsync = q_cuMemFreeAsync;
	return &counted;
}
