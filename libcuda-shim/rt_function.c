// SPDX-License-Identifier: MIT
/*
 * What the CUDA runtime (cudart) asks beyond the rest of the shim,
 * functions: occupancy answered on the client (common/cudarules.c), and
 * function and kernel attributes, cache and shared memory configuration.
 */
#include <stddef.h>
#include <stdlib.h>

#include "export.h"
#include "cudarules.h"
#include "shim.h"
#include "util.h"
#include "entry.h"

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
