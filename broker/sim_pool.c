// SPDX-License-Identifier: MIT
/*
 * The sim's stream-ordered allocator (cuMemAllocAsync and its kin, in
 * captures too) and its memory pools, with the driver's accounts of them.
 */
#include <stdlib.h>

#include "cudarules.h"
#include "util.h"
#include "sim.h"

static struct sim_pool *sim_pools;			/* every pool */
static struct sim_pool *sim_default_pool[SIM_GPUS_MAX];
static struct sim_pool *sim_current_pool[SIM_GPUS_MAX];	/* NULL: the default */

void sim_pool_take(struct sim_pool *p, uint64_t size)
{
	p->used += size;
	p->reserved = MAX(p->reserved, p->used);
	p->used_high = MAX(p->used_high, p->used);
	p->reserved_high = MAX(p->reserved_high, p->reserved);
}

void sim_pool_give(struct sim_pool *p, uint64_t size)
{
	p->used -= MIN(p->used, size);
}

/* At a synchronisation, each pool gives back what it keeps beyond its threshold. */
void sim_pools_settle(void)
{
	for (struct sim_pool *p = sim_pools; p; p = p->next)
		if (p->reserved > p->threshold)
			p->reserved = MAX(p->used, p->threshold);
}

/* ---- the stream-ordered allocator ---- */

static struct sim_pool *pool_new(int dev, bool dflt)
{
	struct sim_pool *p = sim_obj_new(sizeof(*p), K_POOL);

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

	r = sim_stream_work(s, &cap);
	if (r)
		return r;
	if (!cap)
		return sim_alloc_mem(dptr, size, pool);
	gm = cap->g->mem;
	if (gl_grow((void **)&gm->m, gm->n, &gm->cap, sizeof(*gm->m), 8))
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = sim_alloc_mem(dptr, size, NULL);
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
	if (!sim_is(pool, K_POOL))
		return CUDA_ERROR_INVALID_VALUE;
	return alloc_async(dptr, size, (struct sim_pool *)pool, s);
}

/* A free in a capture must be of memory allocated in it; the graph keeps it. */
CUresult sim_cuMemFreeAsync(CUdeviceptr d, CUstream s)
{
	struct sim_capture *cap;
	CUresult r = sim_stream_begin(s, &cap);

	if (r || !cap)
		return r ? r : sim_cuMemFree(d);
	long a = sim_alloc_at(d);

	for (size_t i = 0; i < cap->g->mem->n; i++) {
		if (cap->g->mem->m[i].d == d && !cap->g->mem->m[i].freed && a >= 0) {
			cap->g->mem->m[i].freed = true;
			sim.a[a].graph = true;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* ---- memory pools ---- */

static struct sim_pool *pool_of(CUmemoryPool h)
{
	return sim_is(h, K_POOL) ? (struct sim_pool *)h : NULL;
}

CUresult sim_cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
	struct sim_pool *p;

	if (!sim_dev_ok(dev))
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

	if (!sim_dev_ok(dev))
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
	    props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || !sim_dev_ok(props->location.id))
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
	sim_obj_free(p);
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
