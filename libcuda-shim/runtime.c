// SPDX-License-Identifier: MIT
/*
 * What the CUDA runtime (cudart) asks cuGetProcAddress for beyond the
 * rest of the shim: streams, host registration, pointer
 * attributes, occupancy, function attributes and cache configuration, peer
 * queries, unified copies, and the first ABI versions of two primary
 * context calls.  Most are answered here; the rest wait once and are kept.
 */
#include <stddef.h>
#include <stdlib.h>

#include "export.h"
#include "cudarules.h"
#include "shim.h"
#include "util.h"

/* Entry points generated from the API table have no header of their own. */
CUresult shim_cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult shim_cuDevicePrimaryCtxReset(CUdevice dev);
CUresult shim_cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);
CUresult shim_cuMemHostGetFlags(unsigned int *pflags, void *p);
CUresult shim_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n, int per_thread);
CUresult shim_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n, int per_thread);
CUresult shim_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
CUresult shim_cuMemHostUnregister(void *p);
/* Exported entry points that cuda.h names only for per-thread stream builds. */
CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuEventRecord_ptsz(CUevent ev, CUstream s);
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuStreamSynchronize_ptsz(CUstream s);

/* ---- primary contexts: the first ABI versions behave as the second ---- */

CUresult shim_cuDevicePrimaryCtxRelease_v1(CUdevice dev)
{
	return shim_cuDevicePrimaryCtxRelease(dev);
}

CUresult shim_cuDevicePrimaryCtxReset_v1(CUdevice dev)
{
	return shim_cuDevicePrimaryCtxReset(dev);
}

/* ---- streams ---- */

static bool special_stream(CUstream s)
{
	return !s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD;
}

/* A stream argument's device: the current context's for the special streams. */
static CUresult stream_dev(CUstream s, int per_thread, CUdevice *dev)
{
	struct shim_obj *o;
	struct shim_ctx *c;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (special_stream(s)) {
		r = shim_require_ctx(&c);
		if (!r)
			*dev = c->dev;
		return r;
	}
	r = shim_obj_get(GL_H_STREAM, s, &o);
	if (!r)
		*dev = o->dev;
	return r;
}

/*
 * Streams are the shim's handles, created without waiting.  Their flags are
 * kept: whether a stream waits for the legacy stream decides what stream
 * capture allows on the legacy stream (graph.c).
 */
static CUresult stream_create(unsigned int fn, CUstream *ps, unsigned int flags, int prio)
{
	struct gl_a_cuStreamCreateWithPriority a = { .flags = flags, .priority = prio };
	struct shim_stream *st;
	struct shim_call c;
	CUresult r;

	_Static_assert(offsetof(struct gl_a_cuStreamCreateWithPriority, flags) ==
		       offsetof(struct gl_a_cuStreamCreate, Flags), "cuStreamCreate's arguments lead");
	r = shim_begin_out(&c, fn, ps);
	if (r)
		return r;
	st = (struct shim_stream *)shim_obj_new(GL_H_STREAM);
	if (!st)
		return CUDA_ERROR_OUT_OF_MEMORY;
	st->flags = flags;
	a.phStream = st->o.id;
	c.args = &a;
	c.args_len = fn == GL_FN_cuStreamCreate ? sizeof(struct gl_a_cuStreamCreate) : sizeof(a);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(&st->o);
		return r;
	}
	shim_obj_created(&st->o);
	*ps = (CUstream)st;
	return r;
}

CUresult shim_cuStreamCreate(CUstream *ps, unsigned int flags)
{
	return stream_create(GL_FN_cuStreamCreate, ps, flags, 0);
}

CUresult shim_cuStreamCreateWithPriority(CUstream *ps, unsigned int flags, int prio)
{
	return stream_create(GL_FN_cuStreamCreateWithPriority, ps, flags, prio);
}

/*
 * A stream's id never changes: a made stream's is asked once and kept in
 * its handle, the legacy stream's once per context.  A thread's own default
 * stream differs from thread to thread and is asked each time.  cuBLAS asks
 * for it (export table 21318c60, slot 39) before its GEMMs.
 */
CUresult shim_cuStreamGetId(CUstream s, unsigned long long *sid, int per_thread)
{
	struct gl_a_cuStreamGetId a = { 0 };
	struct gl_r_cuStreamGetId o = { 0 };
	struct shim_call c;
	bool legacy = s == CU_STREAM_LEGACY || (!s && !per_thread);
	struct shim_stream *st = NULL;
	struct shim_ctx *ctx = NULL;
	CUresult r;

	if (!sid)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (special_stream(s)) {
		r = shim_require_ctx(&ctx);
		if (r)
			return r;
		if (legacy && ctx->have_legacy_sid) {
			*sid = ctx->legacy_sid;
			return CUDA_SUCCESS;
		}
	} else {
		r = shim_obj_get(GL_H_STREAM, s, (struct shim_obj **)&st);
		if (r)
			return r;
		if (st->have_sid) {
			*sid = st->sid;
			return CUDA_SUCCESS;
		}
	}
	r = shim_begin_io(&c, GL_FN_cuStreamGetId, &a, sizeof(a), &o, sizeof(o));
	if (r)
		return r;
	r = shim_stream_id(s, per_thread, &a.hStream);
	if (!r)
		r = shim_call(&c);
	if (r)
		return shim_end(&c, r);
	*sid = (unsigned long long)o.streamId;
	if (st) {
		st->sid = *sid;
		st->have_sid = true;
	} else if (legacy) {
		ctx->legacy_sid = *sid;
		ctx->have_legacy_sid = true;
	}
	return shim_end(&c, CUDA_SUCCESS);
}

CUresult shim_cuStreamGetDevice(CUstream s, CUdevice *device, int per_thread)
{
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	return stream_dev(s, per_thread, device);
}

static CUresult stream_ctx(CUstream s, int per_thread, CUcontext *pctx)
{
	struct shim_ctx *c;
	CUdevice dev;
	CUresult r;

	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (special_stream(s) && shim.initialised) {
		r = shim_require_ctx(&c);
		if (!r)
			*pctx = (CUcontext)c;
		return r;
	}
	r = stream_dev(s, per_thread, &dev);
	if (r)
		return r;
	c = shim_ctx_of_device(dev);
	if (!c)
		return SHIM_REFUSE("cuStreamGetCtx: the context of a stream is known only while its "
			      "device has no context but the primary one: returning "
			      "CUDA_ERROR_NOT_SUPPORTED");
	*pctx = (CUcontext)c;
	return CUDA_SUCCESS;
}

CUresult shim_cuStreamGetCtx(CUstream s, CUcontext *pctx, int per_thread)
{
	return stream_ctx(s, per_thread, pctx);
}

/* There are no green contexts here. */
CUresult shim_cuStreamGetCtx_v2(CUstream s, CUcontext *pctx, CUgreenCtx *pgreen, int per_thread)
{
	CUresult r;

	if (!pgreen)
		return CUDA_ERROR_INVALID_VALUE;
	r = stream_ctx(s, per_thread, pctx);
	if (!r)
		*pgreen = NULL;
	return r;
}

/* ---- host memory registration ---- */

/*
 * There is nothing to pin on a machine without the GPU: copies from any
 * host memory go through the ring.  Registration is kept so that what the
 * driver would say about the memory (pointer attributes, double or missing
 * registrations) is said here too.  Mapped into the device's address
 * space (CU_MEMHOSTREGISTER_DEVICEMAP), the range gets a twin (twin.c):
 * device memory of the session's, kept in step with these pages.  I/O
 * memory cannot be mapped across a network, and is refused.
 */
struct host_reg {
	uintptr_t base;
	size_t size;
	unsigned int flags;
	uint64_t ctx;		/* id of the context current at registration */
	CUdevice dev;
	struct host_reg *next;
};

static struct {
	pthread_mutex_t lock;
	struct host_reg *list;
} regs = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The registration holding p, copied out; false if none. */
static bool reg_find(uintptr_t p, struct host_reg *out)
{
	bool found = false;

	pthread_mutex_lock(&regs.lock);
	for (struct host_reg *h = regs.list; h; h = h->next) {
		if (p - h->base < h->size) {
			*out = *h;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&regs.lock);
	return found;
}

bool shim_host_registered(const void *p)
{
	struct host_reg reg;

	return reg_find((uintptr_t)p, &reg);
}

bool shim_host_reg_of(const void *p, void **base, size_t *size)
{
	struct host_reg reg;

	if (!reg_find((uintptr_t)p, &reg))
		return false;
	*base = (void *)reg.base;
	*size = reg.size;
	return true;
}

CUresult shim_cuMemHostRegister(void *p, size_t size, unsigned int flags)
{
	struct host_reg *h;
	struct shim_ctx *c;
	uintptr_t b = (uintptr_t)p;
	unsigned int f;
	CUresult r = shim_require_ctx(&c);

	if (r)
		return r;
	if (!p || !size || b + size < b)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & ~(unsigned int)(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
				    CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY))
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
		return SHIM_REFUSE("cuMemHostRegister: I/O memory cannot be mapped into a GPU across "
			      "the network: returning CUDA_ERROR_NOT_SUPPORTED");
	if (!shim_cuMemHostGetFlags(&f, p) || !shim_cuMemHostGetFlags(&f, (char *)p + size - 1))
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	h = malloc(sizeof(*h));
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*h = (struct host_reg){ .base = b, .size = size, .flags = flags, .ctx = c->o.id,
				.dev = c->dev };
	pthread_mutex_lock(&regs.lock);
	for (struct host_reg *o = regs.list; o; o = o->next) {
		if (b < o->base + o->size && o->base < b + size) {
			pthread_mutex_unlock(&regs.lock);
			free(h);
			return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
		}
	}
	h->next = regs.list;
	regs.list = h;
	pthread_mutex_unlock(&regs.lock);
	if (flags & CU_MEMHOSTREGISTER_DEVICEMAP) {
		r = shim_twin_over(SHIM_TWIN_REGISTERED, p, size, flags, NULL);
		if (r)
			shim_cuMemHostUnregister(p);
	}
	return r;
}

CUresult shim_cuMemHostUnregister(void *p)
{
	struct host_reg **pp, *h = NULL;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&regs.lock);
	for (pp = &regs.list; *pp; pp = &(*pp)->next) {
		if ((*pp)->base == (uintptr_t)p) {
			h = *pp;
			*pp = h->next;
			break;
		}
	}
	pthread_mutex_unlock(&regs.lock);
	if (!h)
		return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	if (atomic_load(&shim_twins))
		shim_twin_free(SHIM_TWIN_REGISTERED, h->base);
	free(h);
	return CUDA_SUCCESS;
}

/* ---- pointer attributes ---- */

/* What the shim knows about an address. */
struct ptr_info {
	CUmemorytype type;	/* 0: not memory the driver knows */
	uintptr_t base;
	size_t size;
	CUdevice dev;		/* -1: not known */
	struct shim_ctx *ctx;	/* NULL: not known */
	bool twin;		/* mapped or managed memory: both addresses below */
	bool managed;
	uint64_t devptr, hostptr;
};

/*
 * Managed memory is device memory that the host reaches at the same
 * address; mapped page-locked memory is host memory that kernels reach at
 * its twin's address (twin.c).
 */
static bool twin_info(CUdeviceptr p, struct ptr_info *pi)
{
	struct shim_twin_info ti;
	uint64_t off;

	if (!atomic_load(&shim_twins) || !shim_twin_find(p, &ti))
		return false;
	off = p - ti.host < ti.size ? p - ti.host : p - ti.dev;
	pi->twin = true;
	pi->managed = ti.kind == SHIM_TWIN_MANAGED;
	pi->type = pi->managed ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	pi->base = pi->managed ? ti.dev : ti.host;
	pi->size = ti.size;
	pi->dev = ti.devno;
	pi->devptr = ti.dev + off;
	pi->hostptr = ti.host + off;
	return true;
}

static void ptr_info(CUdeviceptr p, struct ptr_info *pi)
{
	struct host_reg reg;
	CUdeviceptr base;
	unsigned int f;
	size_t size;

	memset(pi, 0, sizeof(*pi));
	pi->dev = -1;
	if (twin_info(p, pi)) {
		/* pi is filled */
	} else if (!shim_cuMemGetAddressRange(&base, &size, p)) {
		pi->type = CU_MEMORYTYPE_DEVICE;
		pi->base = base;
		pi->size = size;
		/* The allocation's device is not kept: certain only with one device. */
		if (shim.ndev == 1)
			pi->dev = 0;
	} else if (reg_find(p, &reg)) {
		pi->type = CU_MEMORYTYPE_HOST;
		pi->base = reg.base;
		pi->size = reg.size;
		pi->dev = reg.dev;
	} else if (!shim_cuMemHostGetFlags(&f, (void *)p)) {
		pi->type = CU_MEMORYTYPE_HOST;
		if (shim.ndev == 1)
			pi->dev = 0;
	}
	if (pi->dev >= 0)
		pi->ctx = shim_ctx_of_device(pi->dev);
}

/*
 * One attribute of known memory (pi->type != 0) into data.  An attribute
 * whose answer the shim does not have is refused, naming it once.
 */
static CUresult ptr_attr(const struct ptr_info *pi, CUpointer_attribute a, CUdeviceptr p,
			 void *data)
{
	bool dev = pi->type == CU_MEMORYTYPE_DEVICE;

	switch (a) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		if (!pi->ctx)
			return SHIM_REFUSE("cuPointerGetAttribute: the context of memory is known only "
				      "with one device that has no context but the primary one: "
				      "returning CUDA_ERROR_NOT_SUPPORTED");
		*(CUcontext *)data = (CUcontext)pi->ctx;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		if (pi->dev < 0)
			return SHIM_REFUSE("cuPointerGetAttribute: the device of memory is known only "
				      "with one device: returning CUDA_ERROR_NOT_SUPPORTED");
		*(int *)data = pi->dev;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned int *)data = pi->type;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		/* Host memory has no device address, but for a twin's: the GPU is elsewhere. */
		if (pi->twin) {
			*(CUdeviceptr *)data = pi->devptr;
			return CUDA_SUCCESS;
		}
		if (!dev)
			return CUDA_ERROR_INVALID_VALUE;
		*(CUdeviceptr *)data = p;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (pi->twin) {
			*(void **)data = (void *)(uintptr_t)pi->hostptr;
			return CUDA_SUCCESS;
		}
		if (dev)
			return CUDA_ERROR_INVALID_VALUE;
		*(void **)data = (void *)p;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*(unsigned int *)data = pi->managed;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
		*(unsigned int *)data = 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*(unsigned int *)data = dev || pi->twin;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		if (!pi->size)
			break;
		*(CUdeviceptr *)data = pi->base;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		if (!pi->size)
			break;
		*(size_t *)data = pi->size;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*(CUmemoryPool *)data = dev ? shim_mem_pool(p) : NULL;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		/* cuFFT asks it of its work areas: device memory's, the shim's own count. */
		if (!dev)
			break;
		*(unsigned long long *)data = shim_mem_buffer_id(p);
		return CUDA_SUCCESS;
	default:
		break;
	}
	{
		static unsigned char said[64];

		if ((unsigned int)a < ARRAY_SIZE(said) &&
		    !__atomic_exchange_n(&said[a], 1, __ATOMIC_RELAXED))
			gl_err("cuPointerGetAttribute: attribute %d is not supported by Gleam: "
			       "returning CUDA_ERROR_NOT_SUPPORTED", (int)a);
	}
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult shim_cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p)
{
	struct ptr_info pi;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	ptr_info(p, &pi);
	if (!pi.type)
		return CUDA_ERROR_INVALID_VALUE;
	return ptr_attr(&pi, a, p, data);
}

/* The size of an attribute's answer, for the defaults of unknown memory. */
static size_t attr_size(CUpointer_attribute a)
{
	switch (a) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		return sizeof(void *);
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
	case CU_POINTER_ATTRIBUTE_MAPPED:
		return sizeof(unsigned int);
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		return sizeof(int);
	default:
		return 0;
	}
}

/*
 * Unlike the single form, memory the driver does not know is no error:
 * its attributes read as zeros, but for a device ordinal of -2 and a host
 * pointer that is the address itself, as NVIDIA's driver reports them.
 * Attributes that do not apply to known memory read as zeros too.
 */
CUresult shim_cuPointerGetAttributes(unsigned int n, CUpointer_attribute *attrs, void **data,
				     CUdeviceptr p)
{
	struct ptr_info pi;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!n || !attrs || !data)
		return CUDA_ERROR_INVALID_VALUE;
	ptr_info(p, &pi);
	for (unsigned int i = 0; i < n; i++) {
		size_t sz = attr_size(attrs[i]);
		CUresult r;

		if (!data[i])
			return CUDA_ERROR_INVALID_VALUE;
		if (!pi.type && sz) {
			memset(data[i], 0, sz);
			if (attrs[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
				*(int *)data[i] = -2;
			if (attrs[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER)
				*(void **)data[i] = (void *)p;
			continue;
		}
		r = pi.type ? ptr_attr(&pi, attrs[i], p, data[i]) : CUDA_ERROR_NOT_SUPPORTED;
		if (r == CUDA_ERROR_INVALID_VALUE && sz) {
			memset(data[i], 0, sz);
			r = CUDA_SUCCESS;
		}
		if (r)
			return r;
	}
	return CUDA_SUCCESS;
}

/* ---- occupancy ---- */

/*
 * The occupancy family follows from the function's attributes and the
 * device's properties alone (common/cudarules.c): answered here, for any
 * arguments, with no record.  Frameworks ask before launches.
 */
struct occ {
	const int32_t *dev;		/* the device's attributes */
	CUdevice devno;
	struct shim_func *f;
	struct gl_occ_func of;
};

/* The function (or kernel, in the current context's device) a question is about. */
static CUresult occ_of(CUfunction h, struct occ *q)
{
	struct shim_ctx *cur;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_func_get(h, &q->f);
	if (r)
		return r;
	r = shim_func_ready(q->f);
	if (r)
		return r;
	cur = shim_current();
	q->devno = q->f->o.kind == GL_H_KERNEL && cur ? cur->dev : q->f->o.dev;
	q->dev = shim.dev[q->devno].info.attr;
	q->of.attr = q->f->attr;
	q->of.barriers = q->f->barriers;
	/* The function's preference, else its context's. */
	q->of.cache = q->f->cache;
	if (q->of.cache == CU_FUNC_CACHE_PREFER_NONE && cur)
		q->of.cache = (CUfunc_cache)atomic_load_explicit(&cur->cache, memory_order_relaxed);
	return CUDA_SUCCESS;
}

CUresult shim_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *nblocks, CUfunction func,
								    int block, size_t smem,
								    unsigned int flags)
{
	struct occ q;
	CUresult r = occ_of(func, &q);

	return r ? r : gl_occ_blocks(q.dev, &q.of, block, smem, flags, nblocks);
}

CUresult shim_cuOccupancyMaxActiveBlocksPerMultiprocessor(int *nblocks, CUfunction func, int block,
							  size_t smem)
{
	return shim_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(nblocks, func, block,
									 smem, 0);
}

CUresult shim_cuOccupancyAvailableDynamicSMemPerBlock(size_t *size, CUfunction func, int nblocks,
						      int block)
{
	struct occ q;
	CUresult r = occ_of(func, &q);

	return r ? r : gl_occ_dyn_smem(q.dev, &q.of, nblocks, block, size);
}

/* The block size's callback is the program's own: called here, in the caller's thread. */
CUresult shim_cuOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block, CUfunction func,
							CUoccupancyB2DSize to_smem, size_t smem,
							int limit, unsigned int flags)
{
	struct occ q;
	CUresult r = occ_of(func, &q);

	return r ? r : gl_occ_best_block(q.dev, &q.of, min_grid, block, to_smem, smem, limit,
					 flags);
}

CUresult shim_cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction func,
					       CUoccupancyB2DSize to_smem, size_t smem, int limit)
{
	return shim_cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block, func, to_smem, smem,
							      limit, 0);
}

/* What the cluster questions read of a launch configuration. */
static CUresult occ_launch(const CUlaunchConfig *cfg, struct gl_occ_launch *l)
{
	if (!cfg || (cfg->numAttrs && !cfg->attrs))
		return CUDA_ERROR_INVALID_VALUE;
	memset(l, 0, sizeof(*l));
	l->block[0] = cfg->blockDimX;
	l->block[1] = cfg->blockDimY;
	l->block[2] = cfg->blockDimZ;
	l->grid[0] = cfg->gridDimX;
	l->grid[1] = cfg->gridDimY;
	l->grid[2] = cfg->gridDimZ;
	l->dyn = cfg->sharedMemBytes;
	for (unsigned int i = 0; i < cfg->numAttrs; i++) {
		const CUlaunchAttribute *a = &cfg->attrs[i];

		if (a->id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
			continue;
		l->cluster[0] = a->value.clusterDim.x;
		l->cluster[1] = a->value.clusterDim.y;
		l->cluster[2] = a->value.clusterDim.z;
	}
	return CUDA_SUCCESS;
}

/* The server's count of the clusters that fit its device (struct gleam_cluster_table). */
static CUresult occ_clusters(const struct occ *q, const char *who,
			     const struct gleam_cluster_table **t)
{
	if (q->dev[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR] < 9)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (!shim.dev[q->devno].have_clusters) {
		static bool said;

		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			gl_err("%s: the server did not say how clusters fit its GPU (an older gleamd?): "
			       "returning CUDA_ERROR_NOT_SUPPORTED", who);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	*t = &shim.dev[q->devno].clusters;
	return CUDA_SUCCESS;
}

CUresult shim_cuOccupancyMaxActiveClusters(int *n, CUfunction func, const CUlaunchConfig *cfg)
{
	const struct gleam_cluster_table *t;
	struct gl_occ_launch l;
	struct occ q;
	CUresult r = occ_of(func, &q);

	if (!r)
		r = occ_launch(cfg, &l);
	if (!r)
		r = occ_clusters(&q, "cuOccupancyMaxActiveClusters", &t);
	return r ? r : gl_occ_clusters(q.dev, t, &q.of, &l, n);
}

CUresult shim_cuOccupancyMaxPotentialClusterSize(int *n, CUfunction func,
						 const CUlaunchConfig *cfg)
{
	const struct gleam_cluster_table *t;
	struct gl_occ_launch l;
	struct occ q;
	CUresult r = occ_of(func, &q);

	if (!r)
		r = occ_launch(cfg, &l);
	if (!r)
		r = occ_clusters(&q, "cuOccupancyMaxPotentialClusterSize", &t);
	return r ? r : gl_occ_cluster_size(q.dev, t, &q.of, &l, n);
}

/* ---- function and kernel attributes, cache and shared memory configuration ---- */

/*
 * A kernel belongs to no context: its calls need none current, and go in
 * the current one if there is one.
 */
static CUresult send_async_any(unsigned int fn, const void *args, size_t len)
{
	struct shim_ctx *cur = shim_current();
	struct shim_call c = { .fn = fn, .args = args, .args_len = len,
			       .ctx = cur ? cur->o.id : 0 };
	CUresult r = shim_conn_error();

	return r ? r : shim_call(&c);
}

/*
 * What the driver checks before it sets an attribute, checked here, so
 * that the shim's copy of the attributes (what cuFuncGetAttribute answers
 * from) only ever holds values the driver accepts.
 */
static CUresult attr_check(const struct shim_func *f, CUdevice dev, CUfunction_attribute a, int v)
{
	return gl_func_attr_check(shim.dev[dev].info.attr, f->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES],
				  a, v);
}

CUresult shim_cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
	struct gl_a_cuFuncSetAttribute a = { .attrib = attrib, .value = value };
	struct shim_func *f;
	struct shim_obj *o;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_func_of(GL_H_FUNC, hfunc, &f);
	if (r)
		return r;
	o = &f->o;
	if ((unsigned int)attrib >= CU_FUNC_ATTRIBUTE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = attr_check(f, f->o.dev, attrib, value);
	if (r)
		return r;
	a.hfunc = o->id;
	r = shim_send(GL_FN_cuFuncSetAttribute, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	__atomic_store_n(&f->attr[attrib], value, __ATOMIC_RELAXED);
	return CUDA_SUCCESS;
}

CUresult shim_cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel,
				   CUdevice dev)
{
	struct gl_a_cuKernelSetAttribute a = { .attrib = attrib, .val = val, .dev = dev };
	struct shim_func *k;
	struct shim_obj *o;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	r = shim_func_of(GL_H_KERNEL, kernel, &k);
	if (r)
		return r;
	o = &k->o;
	if ((unsigned int)attrib >= CU_FUNC_ATTRIBUTE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = attr_check(k, dev, attrib, val);
	if (r)
		return r;
	a.kernel = o->id;
	r = send_async_any(GL_FN_cuKernelSetAttribute, &a, sizeof(a));
	if (r)
		return r;
	__atomic_store_n(&k->attr[attrib], val, __ATOMIC_RELAXED);
	return CUDA_SUCCESS;
}

/*
 * Cache preferences are hints the driver weighs, also when it computes
 * occupancy (a function's own, else its context's): kept here for that.
 */
static bool cache_config_ok(CUfunc_cache config)
{
	return (unsigned int)config <= CU_FUNC_CACHE_PREFER_EQUAL;
}

CUresult shim_cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
	struct gl_a_cuFuncSetCacheConfig a = { .config = config };
	struct shim_obj *o;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_obj_get(GL_H_FUNC, hfunc, &o);
	if (r)
		return r;
	if (!cache_config_ok(config))
		return CUDA_ERROR_INVALID_VALUE;
	a.hfunc = o->id;
	r = shim_send(GL_FN_cuFuncSetCacheConfig, &a, sizeof(a), NULL, 0);
	if (!r)
		__atomic_store_n(&((struct shim_func *)o)->cache, config, __ATOMIC_RELAXED);
	return r;
}

CUresult shim_cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
	struct gl_a_cuKernelSetCacheConfig a = { .config = config, .dev = dev };
	struct shim_obj *o;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	r = shim_obj_get(GL_H_KERNEL, kernel, &o);
	if (r)
		return r;
	if (!cache_config_ok(config))
		return CUDA_ERROR_INVALID_VALUE;
	a.kernel = o->id;
	r = send_async_any(GL_FN_cuKernelSetCacheConfig, &a, sizeof(a));
	if (!r)
		__atomic_store_n(&((struct shim_func *)o)->cache, config, __ATOMIC_RELAXED);
	return r;
}

CUresult shim_cuCtxSetCacheConfig(CUfunc_cache config)
{
	struct gl_a_cuCtxSetCacheConfig a = { .config = config };
	struct shim_ctx *c;
	CUresult r = shim_require_ctx(&c);

	if (r)
		return r;
	if (!cache_config_ok(config))
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_send(GL_FN_cuCtxSetCacheConfig, &a, sizeof(a), NULL, 0);
	if (!r)
		atomic_store_explicit(&c->cache, config, memory_order_relaxed);
	return r;
}

/* The context's preference is the program's own setting: known here. */
CUresult shim_cuCtxGetCacheConfig(CUfunc_cache *config)
{
	struct shim_ctx *c;
	CUresult r = shim_require_ctx(&c);

	if (r)
		return r;
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	*config = (CUfunc_cache)atomic_load_explicit(&c->cache, memory_order_relaxed);
	return CUDA_SUCCESS;
}

/*
 * Shared memory bank size is fixed on every GPU this driver API reaches
 * (compute capability 5.0 and later): four bytes, and setting it has no
 * effect, as the driver documents.
 */
CUresult shim_cuCtxGetSharedMemConfig(CUsharedconfig *config)
{
	struct shim_ctx *c;
	CUresult r = shim_require_ctx(&c);

	if (r)
		return r;
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	*config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
	return CUDA_SUCCESS;
}

static bool shared_config_ok(CUsharedconfig config)
{
	return config == CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE ||
	       config == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE ||
	       config == CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE;
}

CUresult shim_cuCtxSetSharedMemConfig(CUsharedconfig config)
{
	struct shim_ctx *c;
	CUresult r = shim_require_ctx(&c);

	if (r)
		return r;
	return shared_config_ok(config) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult shim_cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
	struct shim_obj *o;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_obj_get(GL_H_FUNC, hfunc, &o);
	if (r)
		return r;
	return shared_config_ok(config) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult shim_cuKernelGetParamInfo(CUkernel kernel, size_t index, size_t *off, size_t *size)
{
	struct shim_func *k;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_func_of(GL_H_KERNEL, kernel, &k);
	return r ? r : shim_param_info(k, index, off, size);
}

/* ---- peers ---- */

/*
 * Whether two GPUs of the server reach each other never changes: asked
 * once per pair, in no particular context (the driver needs none), and
 * kept.  A device and itself are answered here, as the driver does.
 */
static int8_t peer_access[GLEAM_GPUS_MAX_LOCAL][GLEAM_GPUS_MAX_LOCAL];	/* 0: not asked */

static CUresult ask_devices(unsigned int fn, const void *args, size_t len, void *out, size_t olen)
{
	struct shim_ctx *cur = shim_current();
	struct shim_call c = { .fn = fn, .args = args, .args_len = len, .out = out,
			       .out_len = olen, .force_sync = true,
			       .ctx = cur ? cur->o.id : 0 };
	CUresult r = shim_conn_error();

	return r ? r : shim_call(&c);
}

CUresult shim_cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	struct gl_a_cuDeviceCanAccessPeer a = { .dev = dev, .peerDev = peer };
	struct gl_r_cuDeviceCanAccessPeer o = { 0 };
	int8_t v;
	CUresult r = shim_dev_check(dev);

	if (!r)
		r = shim_dev_check(peer);
	if (r)
		return r;
	if (!can)
		return CUDA_ERROR_INVALID_VALUE;
	if (dev == peer) {
		*can = 0;
		return CUDA_SUCCESS;
	}
	v = __atomic_load_n(&peer_access[dev][peer], __ATOMIC_RELAXED);
	if (!v) {
		r = ask_devices(GL_FN_cuDeviceCanAccessPeer, &a, sizeof(a), &o, sizeof(o));
		if (r)
			return r;
		v = o.canAccessPeer ? 1 : -1;
		__atomic_store_n(&peer_access[dev][peer], v, __ATOMIC_RELAXED);
	}
	*can = v > 0;
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice src,
				      CUdevice dst)
{
	struct gl_a_cuDeviceGetP2PAttribute a = { .attrib = attrib, .srcDevice = src,
						  .dstDevice = dst };
	struct gl_r_cuDeviceGetP2PAttribute o = { 0 };
	CUresult r = shim_dev_check(src);

	if (!r)
		r = shim_dev_check(dst);
	if (r)
		return r;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	if (src == dst)
		return CUDA_ERROR_INVALID_DEVICE;
	r = ask_devices(GL_FN_cuDeviceGetP2PAttribute, &a, sizeof(a), &o, sizeof(o));
	if (!r)
		*value = (int)o.value;
	return r;
}

/*
 * Peer access: which contexts may reach which peers' memory is kept here,
 * so that what the driver refuses at the call (a peer it cannot reach,
 * access enabled twice or never) is refused here too, and the record goes
 * without a wait.  Ids are never reused: a pair of a destroyed context is
 * never asked about again.
 */
struct peer_pair {
	uint64_t ctx, peer;
};

static struct {
	pthread_mutex_t lock;
	struct peer_pair *p;
	size_t n, cap;
} peers = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The index of (ctx, peer) among the enabled pairs, or -1; lock held. */
static long peer_find(uint64_t ctx, uint64_t peer)
{
	for (size_t i = 0; i < peers.n; i++)
		if (peers.p[i].ctx == ctx && peers.p[i].peer == peer)
			return (long)i;
	return -1;
}

/* The current context and the peer's, both live and different, or the driver's error. */
static CUresult peer_args(CUcontext peer_ctx, struct shim_ctx **cur, struct shim_ctx **peer)
{
	struct shim_obj *o;
	CUresult r = shim_require_ctx(cur);

	if (r)
		return r;
	r = shim_obj_get(GL_H_CTX, peer_ctx, &o);
	if (r)
		return CUDA_ERROR_INVALID_CONTEXT;
	*peer = (struct shim_ctx *)o;
	return *peer == *cur ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}

CUresult shim_cuCtxEnablePeerAccess(CUcontext peer_ctx, unsigned int flags)
{
	struct gl_a_cuCtxEnablePeerAccess a = { .Flags = flags };
	struct shim_ctx *cur, *peer;
	int can = 0;
	CUresult r = peer_args(peer_ctx, &cur, &peer);

	if (r)
		return r;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (cur->dev == peer->dev)
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	r = shim_cuDeviceCanAccessPeer(&can, cur->dev, peer->dev);
	if (r)
		return r;
	if (!can)
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	pthread_mutex_lock(&peers.lock);
	if (peer_find(cur->o.id, peer->o.id) >= 0) {
		pthread_mutex_unlock(&peers.lock);
		return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	}
	if (gl_grow((void **)&peers.p, peers.n, &peers.cap, sizeof(*peers.p), 16)) {
		pthread_mutex_unlock(&peers.lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	peers.p[peers.n++] = (struct peer_pair){ cur->o.id, peer->o.id };
	pthread_mutex_unlock(&peers.lock);
	a.peerContext = peer->o.id;
	return shim_send(GL_FN_cuCtxEnablePeerAccess, &a, sizeof(a), NULL, 0);
}

CUresult shim_cuCtxDisablePeerAccess(CUcontext peer_ctx)
{
	struct gl_a_cuCtxDisablePeerAccess a = { 0 };
	struct shim_ctx *cur, *peer;
	CUresult r = peer_args(peer_ctx, &cur, &peer);
	long i;

	if (r)
		return r;
	pthread_mutex_lock(&peers.lock);
	i = peer_find(cur->o.id, peer->o.id);
	if (i >= 0)
		peers.p[i] = peers.p[--peers.n];
	pthread_mutex_unlock(&peers.lock);
	if (i < 0)
		return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	a.peerContext = peer->o.id;
	return shim_send(GL_FN_cuCtxDisablePeerAccess, &a, sizeof(a), NULL, 0);
}

/* ---- unified copies ---- */

/*
 * cuMemcpy and cuMemcpyAsync infer the direction from the addresses: the
 * shim knows every device allocation, and anything else is host memory.
 * (A host address that happened to equal a server's device address would
 * be taken for device memory; kernels' pointer arguments rely on the same
 * separation.)
 */
static bool is_device(CUdeviceptr p)
{
	return !shim_cuMemGetAddressRange(NULL, NULL, p);
}

CUresult shim_cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n, int per_thread)
{
	bool d = is_device(dst), s = is_device(src);
	struct shim_ctx *c;
	CUresult r;

	if (d && s)
		return per_thread ? cuMemcpyDtoD_v2_ptds(dst, src, n) : cuMemcpyDtoD_v2(dst, src, n);
	if (d)
		return shim_cuMemcpyHtoD(dst, (const void *)src, n, per_thread);
	if (s)
		return shim_cuMemcpyDtoH((void *)dst, src, n, per_thread);
	r = shim_require_ctx(&c);
	if (r)
		return r;
	if (n && (!dst || !src))
		return CUDA_ERROR_INVALID_VALUE;
	/* Host to host: every earlier copy into host memory has completed. */
	memmove((void *)dst, (const void *)src, n);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream,
			    int per_thread)
{
	bool d = is_device(dst), s = is_device(src);
	struct shim_ctx *c;
	__u64 sid;
	CUresult r;

	if (d && s)
		return per_thread ? cuMemcpyDtoDAsync_v2_ptsz(dst, src, n, stream) :
				    cuMemcpyDtoDAsync_v2(dst, src, n, stream);
	if (d)
		return shim_cuMemcpyHtoDAsync(dst, (const void *)src, n, stream, per_thread);
	if (s)
		return shim_cuMemcpyDtoHAsync((void *)dst, src, n, stream, per_thread);
	/* Host to host, in stream order: after what the stream holds. */
	r = shim_require_ctx(&c);
	if (!r)
		r = shim_stream_id(stream, per_thread, &sid);
	if (!r)
		r = shim_capture_host_copy(GL_FN_cuMemcpyAsync, c->o.id);
	shim_call_stream = 0;
	if (r)
		return r;
	r = per_thread ? cuStreamSynchronize_ptsz(stream) : cuStreamSynchronize(stream);
	if (r)
		return r;
	if (n && (!dst || !src))
		return CUDA_ERROR_INVALID_VALUE;
	memmove((void *)dst, (const void *)src, n);
	return CUDA_SUCCESS;
}

/*
 * An event recorded with flags: the default is cuEventRecord's record.
 * CU_EVENT_RECORD_EXTERNAL (an event record node in a capture, for work
 * outside the graph to wait on) is not supported; the driver refuses it
 * outside a capture, and so does the shim.
 */
CUresult shim_cuEventRecordWithFlags(CUevent ev, CUstream s, unsigned int flags, int per_thread)
{
	if (flags == CU_EVENT_RECORD_DEFAULT)
		return per_thread ? cuEventRecord_ptsz(ev, s) : cuEventRecord(ev, s);
	if (flags != CU_EVENT_RECORD_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	if (!atomic_load(&shim_captures))
		return CUDA_ERROR_INVALID_VALUE;
	return SHIM_REFUSE("cuEventRecordWithFlags: CU_EVENT_RECORD_EXTERNAL is not supported by "
			   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
}
