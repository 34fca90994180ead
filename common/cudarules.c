// SPDX-License-Identifier: MIT
/*
 * Function attributes and occupancy as NVIDIA's driver computes them
 * (cudarules.h).  An SM holds as many blocks as the tightest of its
 * limits allows: warps, registers (allocated per warp, in each of four
 * sub-partitions), shared memory (per block: static, dynamic and what the
 * driver reserves, rounded to its granularity, against the carveout the
 * preferences and the need select), blocks, and named barriers.  The
 * architecture's constants are the published ones; everything else comes
 * from the device's attributes.
 */
#include <limits.h>
#include <string.h>

#include "cudarules.h"
#include "util.h"

#define A(x)	CU_DEVICE_ATTRIBUTE_##x

static int cc_major(const int32_t *dev)
{
	return dev[A(COMPUTE_CAPABILITY_MAJOR)];
}

static int cc_minor(const int32_t *dev)
{
	return dev[A(COMPUTE_CAPABILITY_MINOR)];
}

static int div_up(int64_t x, int64_t y)
{
	return (int)((x + y - 1) / y);
}

static int64_t round_up(int64_t x, int64_t y)
{
	return (x + y - 1) / y * y;
}

/* Registers are given to warps in units of this many. */
#define REG_UNIT	256
/* Each SM has four sub-partitions, each with a quarter of the registers. */
#define SUBPARTITIONS	4

/* Shared memory per block is allocated in units of this many bytes. */
static int smem_unit(const int32_t *dev)
{
	return cc_major(dev) >= 8 ? 128 : 256;
}

/*
 * The shared memory sizes an SM can be configured with (KiB), ascending:
 * the carveout is the smallest of these that holds what is asked for.
 */
static const int *carveouts(const int32_t *dev, int *n)
{
	static const int volta[] = { 0, 8, 16, 32, 64, 96 };
	static const int turing[] = { 32, 64 };
	static const int ampere[] = { 0, 8, 16, 32, 64, 100, 132, 164 };
	static const int ga10x[] = { 0, 8, 16, 32, 64, 100 };
	static const int hopper[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };
	int ma = cc_major(dev), mi = cc_minor(dev);

	if (ma == 7 && mi == 5) {
		*n = ARRAY_SIZE(turing);
		return turing;
	}
	if (ma == 7) {
		*n = ARRAY_SIZE(volta);
		return volta;
	}
	if (ma == 8 && (mi == 0 || mi == 7)) {
		*n = ARRAY_SIZE(ampere);
		return ampere;
	}
	if (ma == 8 || ma == 12) {
		*n = ARRAY_SIZE(ga10x);
		return ga10x;
	}
	*n = ARRAY_SIZE(hopper);
	return hopper;
}

/* The smallest configuration of at least bytes; -1 when none is large enough. */
static int64_t carveout_fit(const int32_t *dev, int64_t bytes)
{
	int n;
	const int *c = carveouts(dev, &n);

	for (int i = 0; i < n; i++)
		if ((int64_t)c[i] * 1024 >= bytes)
			return (int64_t)c[i] * 1024;
	return -1;
}

/* What the preferences ask an SM's shared memory to be configured as. */
static int64_t smem_preference(const int32_t *dev, const struct gl_occ_func *f)
{
	int64_t total = dev[A(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)];
	int pct = f->attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT];
	int64_t want;

	if (pct < 0 || pct > 100) {
		switch (f->cache) {
		case CU_FUNC_CACHE_PREFER_L1:
			pct = 0;
			break;
		case CU_FUNC_CACHE_PREFER_SHARED:
			pct = 100;
			break;
		case CU_FUNC_CACHE_PREFER_EQUAL:
			pct = 50;
			break;
		default:
			pct = -1;
			break;
		}
	}
	want = pct < 0 ? total : pct * total / 100;
	want = carveout_fit(dev, want);
	return want < 0 ? total : want;
}

/* The most blocks an SM runs at once. */
static int max_blocks(const int32_t *dev)
{
	int v = dev[A(MAX_BLOCKS_PER_MULTIPROCESSOR)];

	return v > 0 ? v : 32;
}

/* Threads a function's block may have: the launch bounds and the registers. */
static int max_threads(const int32_t *dev, const struct gl_kres *res)
{
	int warp = dev[A(WARP_SIZE)], limit = dev[A(MAX_THREADS_PER_BLOCK)];

	if (res->max_threads && (int64_t)res->max_threads < limit)
		limit = (int)res->max_threads;
	if (res->regs) {
		int64_t per_warp = round_up((int64_t)res->regs * warp, REG_UNIT);
		/* Whole rows of the four sub-partitions, as the hardware checks it. */
		int64_t warps = dev[A(MAX_REGISTERS_PER_BLOCK)] / (per_warp * SUBPARTITIONS) *
				SUBPARTITIONS;

		if (warps * warp < limit)
			limit = (int)(warps * warp);
	}
	return limit;
}

void gl_func_attrs(const int32_t *dev, const struct gl_kres *res,
		   int32_t attr[GLEAM_FUNC_ATTR_MAX])
{
	int32_t smem_block = dev[A(MAX_SHARED_MEMORY_PER_BLOCK)];
	int64_t smem = res->static_smem;

	/* The part the driver reserves in every block is not the kernel's own. */
	if (res->smem_reserved)
		smem = smem > dev[A(RESERVED_SHARED_MEMORY_PER_BLOCK)] ?
		       smem - dev[A(RESERVED_SHARED_MEMORY_PER_BLOCK)] : 0;
	memset(attr, 0, sizeof(int32_t) * GLEAM_FUNC_ATTR_MAX);
	attr[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = max_threads(dev, res);
	attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES] = (int32_t)smem;
	attr[CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES] = (int32_t)res->const_bytes;
	attr[CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES] = (int32_t)res->local_bytes;
	attr[CU_FUNC_ATTRIBUTE_NUM_REGS] = (int32_t)res->regs;
	attr[CU_FUNC_ATTRIBUTE_PTX_VERSION] = res->ptx_version;
	attr[CU_FUNC_ATTRIBUTE_BINARY_VERSION] = res->binary_version;
	attr[CU_FUNC_ATTRIBUTE_CACHE_MODE_CA] = res->cache_ca;
	attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES] =
		smem > smem_block ? 0 : smem_block - (int32_t)smem;
	attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT] = -1;
	attr[CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET] = res->cluster_must_be_set;
	attr[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] = (int32_t)res->cluster[0];
	attr[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT] = (int32_t)res->cluster[1];
	attr[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH] = (int32_t)res->cluster[2];
}

/* Blocks an SM holds by its warps. */
static int limit_warps(const int32_t *dev, int block)
{
	int warp = dev[A(WARP_SIZE)];

	return dev[A(MAX_THREADS_PER_MULTIPROCESSOR)] / warp / div_up(block, warp);
}

/* Blocks an SM holds by its registers. */
static int limit_regs(const int32_t *dev, const struct gl_occ_func *f, int block)
{
	int warp = dev[A(WARP_SIZE)];
	int regs = f->attr[CU_FUNC_ATTRIBUTE_NUM_REGS];
	int warps = div_up(block, warp);
	int64_t per_warp, per_sub;

	if (regs <= 0)
		return INT_MAX;
	per_warp = round_up((int64_t)regs * warp, REG_UNIT);
	if (per_warp * round_up(warps, SUBPARTITIONS) > dev[A(MAX_REGISTERS_PER_BLOCK)] ||
	    per_warp * warps > dev[A(MAX_REGISTERS_PER_BLOCK)] || regs > 255)
		return 0;
	per_sub = dev[A(MAX_REGISTERS_PER_MULTIPROCESSOR)] / SUBPARTITIONS;
	return (int)(per_sub / per_warp * SUBPARTITIONS / warps);
}

/* The most shared memory one block may have (reserved part included). */
static int64_t smem_block_limit(const int32_t *dev, const struct gl_occ_func *f)
{
	int64_t most = (int64_t)f->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES] +
		       f->attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES];
	int64_t lim = most > dev[A(MAX_SHARED_MEMORY_PER_BLOCK)] ?
		      dev[A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)] : dev[A(MAX_SHARED_MEMORY_PER_BLOCK)];

	return lim + dev[A(RESERVED_SHARED_MEMORY_PER_BLOCK)];
}

/* Blocks an SM holds by its shared memory, with dyn bytes of dynamic shared memory. */
static int limit_smem(const int32_t *dev, const struct gl_occ_func *f, size_t dyn)
{
	int64_t stat = (int64_t)f->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES] +
		       dev[A(RESERVED_SHARED_MEMORY_PER_BLOCK)];
	int64_t per_block, sm;

	if (dyn > (size_t)f->attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES])
		return 0;
	per_block = round_up(stat + (int64_t)dyn, smem_unit(dev));
	if (per_block > smem_block_limit(dev, f))
		return 0;
	if (!per_block)
		return INT_MAX;
	sm = smem_preference(dev, f);
	if (sm < per_block) {
		/* A preference too small for one block gives way to what one needs. */
		sm = carveout_fit(dev, per_block);
		if (sm < 0)
			return 0;
	}
	return (int)(sm / per_block);
}

/* Blocks an SM holds by its named barriers. */
static int limit_barriers(const int32_t *dev, const struct gl_occ_func *f)
{
	int ma = cc_major(dev), mi = cc_minor(dev);
	int avail = max_blocks(dev), used = f->barriers ? (int)f->barriers : 1;

	if (ma < 9)
		return INT_MAX;
	/* Two per block slot, but on the smaller Blackwell chips. */
	if (!((ma == 10 && mi == 1) || (ma == 11 && mi == 0) || ma == 12))
		avail *= 2;
	return avail / used;
}

static int blocks_per_sm(const int32_t *dev, const struct gl_occ_func *f, int block, size_t dyn)
{
	int n = max_blocks(dev);

	/*
	 * The function's own limit is the launch's business: the driver
	 * answers for larger blocks too, from the resources alone.
	 */
	if (block > dev[A(MAX_THREADS_PER_BLOCK)])
		return 0;
	n = MIN(n, limit_warps(dev, block));
	n = MIN(n, limit_regs(dev, f, block));
	n = MIN(n, limit_smem(dev, f, dyn));
	n = MIN(n, limit_barriers(dev, f));
	return n;
}

static bool flags_ok(unsigned int flags)
{
	return !(flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE);
}

CUresult gl_occ_blocks(const int32_t *dev, const struct gl_occ_func *f, int block, size_t dyn,
		       unsigned int flags, int *blocks)
{
	if (!blocks || !flags_ok(flags) || block <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	*blocks = blocks_per_sm(dev, f, block, dyn);
	return CUDA_SUCCESS;
}

CUresult gl_occ_dyn_smem(const int32_t *dev, const struct gl_occ_func *f, int nblocks, int block,
			 size_t *bytes)
{
	int64_t limit, sm, avail;

	if (!bytes || nblocks <= 0 || block <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (blocks_per_sm(dev, f, block, 0) < nblocks)
		return CUDA_ERROR_INVALID_VALUE;
	limit = dev[A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)] + dev[A(RESERVED_SHARED_MEMORY_PER_BLOCK)];
	if (nblocks == 1) {
		sm = limit;
	} else {
		sm = smem_preference(dev, f);
		if (!sm)
			sm = carveout_fit(dev, 1);
	}
	avail = sm / nblocks / smem_unit(dev) * smem_unit(dev);
	if (avail > limit)
		avail = limit;
	/* The reserved part is counted in the limit, but not taken off here. */
	avail -= f->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES];
	if (avail < 0)
		avail = 0;
	if (avail > f->attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES])
		avail = f->attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES];
	*bytes = (size_t)avail;
	return CUDA_SUCCESS;
}

CUresult gl_occ_best_block(const int32_t *dev, const struct gl_occ_func *f, int *min_grid,
			   int *block, CUoccupancyB2DSize to_smem, size_t dyn, int limit,
			   unsigned int flags)
{
	int warp = dev[A(WARP_SIZE)], full = dev[A(MAX_THREADS_PER_MULTIPROCESSOR)];
	int most = MIN(dev[A(MAX_THREADS_PER_BLOCK)], f->attr[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK]);
	int best_block = 0, best_blocks = 0, best = 0;
	int32_t attr[GLEAM_FUNC_ATTR_MAX];
	struct gl_occ_func g = *f;

	if (!min_grid || !block || !flags_ok(flags))
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * NVIDIA's driver (580, on the H200) weighs a carveout preference here
	 * only when it asks for no shared memory at all; any other share it
	 * leaves out, where the blocks-per-SM query honours it.
	 */
	memcpy(attr, f->attr, sizeof(attr));
	if (attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT] != 0)
		attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT] = -1;
	g.attr = attr;
	f = &g;
	if (limit > 0 && limit < most)
		most = limit;
	for (int b = (int)round_up(most, warp); b > 0; b -= warp) {
		int t = MIN(b, most);
		int n = blocks_per_sm(dev, f, t, to_smem ? to_smem(t) : dyn);

		if (t * n > best) {
			best = t * n;
			best_block = t;
			best_blocks = n;
		}
		if (best == full)
			break;
	}
	*min_grid = best_blocks * dev[A(MULTIPROCESSOR_COUNT)];
	*block = best_block;
	return CUDA_SUCCESS;
}

/* The cluster a launch runs in: the function's own shape, else the launch's. */
static CUresult cluster_blocks(const struct gl_occ_func *f, const struct gl_occ_launch *l,
			       bool need, unsigned int *c)
{
	const int32_t *a = f->attr;
	unsigned int req = (unsigned int)a[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] *
			   (unsigned int)a[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT] *
			   (unsigned int)a[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH];
	unsigned int got = l->cluster[0] * l->cluster[1] * l->cluster[2];

	if (req && got && (l->cluster[0] != (unsigned int)a[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] ||
			   l->cluster[1] != (unsigned int)a[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT] ||
			   l->cluster[2] != (unsigned int)a[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH]))
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	*c = req ? req : got;
	if (!*c && need)
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	/* The grid must be made of whole clusters. */
	for (int i = 0; i < 3 && *c; i++) {
		unsigned int d = req ? (unsigned int)a[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH + i] :
			       l->cluster[i];

		if (!d || l->grid[i] % d)
			return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	}
	return CUDA_SUCCESS;
}

static int cluster_size_limit(const struct gl_occ_func *f)
{
	return f->attr[CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED] ? GLEAM_CLUSTER_SIZE_MAX : 8;
}

static int table_active(const struct gleam_cluster_table *t, int blocks, unsigned int c)
{
	if (blocks <= 0 || !c || c > GLEAM_CLUSTER_SIZE_MAX)
		return 0;
	if (blocks > GLEAM_CLUSTER_BLOCKS_MAX)
		blocks = GLEAM_CLUSTER_BLOCKS_MAX;
	return t->active[blocks - 1][c - 1];
}

static int launch_block(const struct gl_occ_launch *l)
{
	uint64_t t = (uint64_t)l->block[0] * l->block[1] * l->block[2];

	return t > INT_MAX ? INT_MAX : (int)t;
}

CUresult gl_occ_clusters(const int32_t *dev, const struct gleam_cluster_table *t,
			 const struct gl_occ_func *f, const struct gl_occ_launch *l, int *n)
{
	unsigned int c;
	int b;
	CUresult r;

	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	r = cluster_blocks(f, l, true, &c);
	if (r)
		return r;
	if (c > (unsigned int)cluster_size_limit(f))
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	b = blocks_per_sm(dev, f, launch_block(l), l->dyn);
	*n = table_active(t, b, c);
	return CUDA_SUCCESS;
}

CUresult gl_occ_cluster_size(const int32_t *dev, const struct gleam_cluster_table *t,
			     const struct gl_occ_func *f, const struct gl_occ_launch *l, int *n)
{
	int b;

	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * The answer is the largest size that fits, whatever shape the launch
	 * or the function names; a compile-time shape must still divide the grid.
	 */
	for (int i = 0; i < 3; i++) {
		int d = f->attr[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH + i];

		if (d > 0 && l->grid[i] % (unsigned int)d)
			return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	}
	b = blocks_per_sm(dev, f, launch_block(l), l->dyn);
	*n = 0;
	for (int s = cluster_size_limit(f); s > 0; s--) {
		if (table_active(t, b, (unsigned int)s) > 0) {
			*n = s;
			break;
		}
	}
	return CUDA_SUCCESS;
}

/* ---- settings the driver takes ---- */

CUresult gl_func_attr_check(const int32_t *dev, int32_t static_smem, CUfunction_attribute attr,
			    int value)
{
	int32_t optin = dev ? dev[A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)] : 0;

	switch (attr) {
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (value < 0 || (optin > 0 && (int64_t)value + static_smem > optin))
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		return value < -1 || value > 100 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		return value < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	default:
		/* The others are read-only. */
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult gl_pool_attr_in(CUmemPool_attribute attr, const void *value, uint64_t *v)
{
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		/* On or off, whatever non-zero value turned it on. */
		*v = *(const int *)value != 0;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		*v = *(const cuuint64_t *)value;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		*v = *(const cuuint64_t *)value;
		return *v ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

void gl_pool_attr_out(CUmemPool_attribute attr, uint64_t v, void *value)
{
	if (gl_pool_attr_is_int(attr))
		*(int *)value = (int)v;
	else
		*(cuuint64_t *)value = v;
}
