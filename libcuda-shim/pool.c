// SPDX-License-Identifier: MIT
/*
 * Memory pools, the stream-ordered allocator's (cudaMallocAsync, PyTorch's
 * cudaMallocAsync backend).  Pools are the shim's handles like streams:
 * creating, destroying, trimming and setting an attribute return at once.
 * Which pool is a device's default and which its current one is known
 * here, so those questions never travel; each device's default pool is
 * made known to the worker once, by the first question about it.  Of the
 * attributes, those that only this process can change (the reuse policies
 * and the release threshold) are asked once and then kept; the amounts of
 * memory reserved and used change with every allocation on the GPU and
 * are always asked.  Allocations from a pool (memory.c) come back as from
 * cuMemAlloc.
 */
#include "cudarules.h"
#include "shim.h"
#include "util.h"

static struct {
	pthread_mutex_t lock;
	struct shim_pool *dflt[GLEAM_GPUS_MAX_LOCAL];
	struct shim_pool *cur[GLEAM_GPUS_MAX_LOCAL];	/* NULL: the default */
} pools = { .lock = PTHREAD_MUTEX_INITIALIZER };

static CUresult pool_arg(CUmemoryPool h, struct shim_pool **p)
{
	struct shim_obj *o;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_obj_get(GL_H_MEMPOOL, h, &o);
	if (!r)
		*p = (struct shim_pool *)o;
	return r;
}

/* The device's default pool; the first time, the worker learns its handle. */
static CUresult default_pool(CUdevice dev, struct shim_pool **out)
{
	struct gl_a_cuDeviceGetDefaultMemPool a = { .dev = dev };
	struct shim_pool *p;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	pthread_mutex_lock(&pools.lock);
	p = pools.dflt[dev];
	if (!p) {
		p = (struct shim_pool *)shim_obj_new(GL_H_MEMPOOL);
		if (!p) {
			r = CUDA_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		p->dflt = true;
		p->o.dev = dev;
		a.pool_out = p->o.id;
		r = shim_send(GL_FN_cuDeviceGetDefaultMemPool, &a, sizeof(a), NULL, 0);
		if (r) {
			shim_obj_put(&p->o);
			goto out;
		}
		shim_obj_created(&p->o);
		pools.dflt[dev] = p;
	}
	*out = p;
out:
	pthread_mutex_unlock(&pools.lock);
	return r;
}

CUresult shim_cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
	struct shim_pool *p;
	CUresult r;

	if (!pool)
		return shim.initialised ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
	r = default_pool(dev, &p);
	if (!r)
		*pool = (CUmemoryPool)p;
	return r;
}

CUresult shim_cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	struct shim_pool *p;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	p = __atomic_load_n(&pools.cur[dev], __ATOMIC_ACQUIRE);
	if (!p) {
		r = default_pool(dev, &p);
		if (r)
			return r;
	}
	*pool = (CUmemoryPool)p;
	return CUDA_SUCCESS;
}

/* A pool serves the device it was made for: the driver refuses another. */
CUresult shim_cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	struct gl_a_cuDeviceSetMemPool a = { .dev = dev };
	struct shim_pool *p;
	CUresult r = shim_dev_check(dev);

	if (!r)
		r = pool_arg(pool, &p);
	if (r)
		return r;
	if (p->o.dev != dev)
		return CUDA_ERROR_INVALID_VALUE;
	a.pool = p->o.id;
	pthread_mutex_lock(&pools.lock);
	r = shim_send(GL_FN_cuDeviceSetMemPool, &a, sizeof(a), NULL, 0);
	if (!r)
		__atomic_store_n(&pools.cur[dev], p->dflt ? NULL : p, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&pools.lock);
	return r;
}

/*
 * The CUDA 13 forms name a location and a kind of allocation.  Device
 * memory pinned to a device is what the older forms serve; pools of host
 * memory, or of managed memory, would live on the server's host, which
 * this one cannot reach.
 */
static CUresult location_dev(const char *who, const CUmemLocation *loc, CUmemAllocationType type,
			     CUdevice *dev)
{
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!loc)
		return CUDA_ERROR_INVALID_VALUE;
	if (type == CU_MEM_ALLOCATION_TYPE_PINNED && loc->type == CU_MEM_LOCATION_TYPE_DEVICE) {
		*dev = loc->id;
		return shim_dev_check(loc->id);
	}
	if (loc->type == CU_MEM_LOCATION_TYPE_HOST || loc->type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
	    loc->type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT ||
	    type == CU_MEM_ALLOCATION_TYPE_MANAGED)
		return SHIM_REFUSE("%s: pools of host or managed memory are not supported by "
				   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED", who);
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult shim_cuMemGetDefaultMemPool(CUmemoryPool *pool, CUmemLocation *loc,
				     CUmemAllocationType type)
{
	CUdevice dev;
	CUresult r = location_dev("cuMemGetDefaultMemPool", loc, type, &dev);

	return r ? r : shim_cuDeviceGetDefaultMemPool(pool, dev);
}

CUresult shim_cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *loc, CUmemAllocationType type)
{
	CUdevice dev;
	CUresult r = location_dev("cuMemGetMemPool", loc, type, &dev);

	return r ? r : shim_cuDeviceGetMemPool(pool, dev);
}

CUresult shim_cuMemSetMemPool(CUmemLocation *loc, CUmemAllocationType type, CUmemoryPool pool)
{
	CUdevice dev;
	CUresult r = location_dev("cuMemSetMemPool", loc, type, &dev);

	return r ? r : shim_cuDeviceSetMemPool(dev, pool);
}

/*
 * Pools of device memory, of a device of the server.  Memory that other
 * processes could import (handle types) would be of no use across the
 * network: not supported.
 */
CUresult shim_cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
	struct gl_a_cuMemPoolCreate a = { 0 };
	struct gleam_pool_props gp = { 0 };
	struct iovec iov = { .iov_base = &gp, .iov_len = sizeof(gp) };
	struct shim_pool *p;
	struct shim_call c;
	CUresult r;

	r = shim_begin_io(&c, GL_FN_cuMemPoolCreate, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	c.iov = &iov;
	c.niov = 1;
	if (!pool || !props)
		return CUDA_ERROR_INVALID_VALUE;
	if (props->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED) {
		CUdevice dev;

		r = location_dev("cuMemPoolCreate", &props->location, props->allocType, &dev);
		return r ? r : CUDA_ERROR_INVALID_VALUE;
	}
	r = shim_dev_check(props->location.id);
	if (r)
		return CUDA_ERROR_INVALID_VALUE;
	if (props->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
		return SHIM_REFUSE("cuMemPoolCreate: memory that other processes import cannot be "
				   "shared across the network: returning CUDA_ERROR_NOT_SUPPORTED");
	if (props->win32SecurityAttributes)
		return CUDA_ERROR_INVALID_VALUE;
	gp.alloc_type = props->allocType;
	gp.handle_types = props->handleTypes;
	gp.location_type = props->location.type;
	gp.location_id = props->location.id;
	gp.max_size = props->maxSize;
	gp.usage = props->usage;
	p = (struct shim_pool *)shim_obj_new(GL_H_MEMPOOL);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	p->o.dev = props->location.id;
	a.pool = p->o.id;
	r = shim_call(&c);
	/* A creation that failed on the server later is kept with its handle. */
	if (r && (c.waited || !shim.async)) {
		shim_obj_put(&p->o);
		return r;
	}
	shim_obj_created(&p->o);
	*pool = (CUmemoryPool)p;
	return r;
}

/*
 * A default pool cannot be destroyed.  A device whose current pool is
 * destroyed has its default one again.
 */
CUresult shim_cuMemPoolDestroy(CUmemoryPool pool)
{
	struct gl_a_cuMemPoolDestroy a = { 0 };
	struct shim_pool *p;
	CUresult r = pool_arg(pool, &p);

	if (r)
		return r;
	if (p->dflt)
		return CUDA_ERROR_INVALID_VALUE;
	a.pool = p->o.id;
	pthread_mutex_lock(&pools.lock);
	r = shim_send(GL_FN_cuMemPoolDestroy, &a, sizeof(a), NULL, 0);
	if (!r && (unsigned int)p->o.dev < GLEAM_GPUS_MAX_LOCAL && pools.cur[p->o.dev] == p)
		__atomic_store_n(&pools.cur[p->o.dev], NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&pools.lock);
	if (!r)
		shim_obj_put(&p->o);
	return r;
}

/* Attributes that change only when this process sets them: kept once known. */
static bool attr_keeps(CUmemPool_attribute a)
{
	return gl_pool_attr_is_int(a) || a == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;
}

/*
 * What the driver takes, checked here so that the kept values are the
 * driver's: the policies and the threshold, and zero for a high
 * watermark (which resets it); the current amounts are read-only.
 */
CUresult shim_cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	struct gl_a_cuMemPoolSetAttribute a = { .attr = attr };
	struct shim_pool *p;
	struct iovec iov;
	uint64_t v;
	CUresult r = pool_arg(pool, &p);

	if (r)
		return r;
	r = gl_pool_attr_in(attr, value, &v);
	if (r)
		return r;
	a.pool = p->o.id;
	iov.iov_base = &v;
	iov.iov_len = sizeof(v);
	r = shim_send(GL_FN_cuMemPoolSetAttribute, &a, sizeof(a), &iov, 1);
	if (r || !attr_keeps(attr))
		return r;
	pthread_mutex_lock(&pools.lock);
	p->attr[attr] = v;
	p->have |= 1u << attr;
	pthread_mutex_unlock(&pools.lock);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	struct gl_a_cuMemPoolGetAttribute a = { .attr = attr };
	struct shim_call c;
	struct shim_pool *p;
	uint64_t v = 0;
	bool have;
	CUresult r = pool_arg(pool, &p);

	if (r)
		return r;
	if (!value || !gl_pool_attr_known(attr))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&pools.lock);
	have = p->have & (1u << attr);
	v = p->attr[attr];
	pthread_mutex_unlock(&pools.lock);
	if (!have) {
		r = shim_begin(&c, GL_FN_cuMemPoolGetAttribute);
		if (r)
			return r;
		a.pool = p->o.id;
		c.args = &a;
		c.args_len = sizeof(a);
		c.out = &v;
		c.out_len = sizeof(v);
		r = shim_call(&c);
		if (r)
			return r;
		if (attr_keeps(attr)) {
			pthread_mutex_lock(&pools.lock);
			if (!(p->have & (1u << attr))) {
				p->attr[attr] = v;
				p->have |= 1u << attr;
			}
			v = p->attr[attr];
			pthread_mutex_unlock(&pools.lock);
		}
	}
	gl_pool_attr_out(attr, v, value);
	return CUDA_SUCCESS;
}
