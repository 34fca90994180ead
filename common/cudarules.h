/* SPDX-License-Identifier: MIT */
/*
 * The CUDA rules that follow from a kernel's resources and a device's
 * properties alone, computed as NVIDIA's driver computes them: the
 * function attributes a cubin implies and which settings of them the
 * driver takes, the memory pools' attributes, and the occupancy family
 * (blocks per multiprocessor, the block size of best occupancy, the
 * dynamic shared memory left, active clusters).  The shim answers those
 * calls from this without asking the server, and the sim backend answers
 * them the same way.
 *
 * dev is a device's attribute array, indexed by CUdevice_attribute (as in
 * struct gleam_devinfo).
 */
#ifndef GLEAM_CUDARULES_H
#define GLEAM_CUDARULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "cubin.h"
#include "gleam_record.h"

/* Whether r leaves its context unusable: CUDA fails every later call in it. */
static inline bool gl_cuda_sticky(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_ILLEGAL_ADDRESS:
	case CUDA_ERROR_LAUNCH_FAILED:
	case CUDA_ERROR_MISALIGNED_ADDRESS:
	case CUDA_ERROR_HARDWARE_STACK_ERROR:
	case CUDA_ERROR_ILLEGAL_INSTRUCTION:
	case CUDA_ERROR_INVALID_ADDRESS_SPACE:
	case CUDA_ERROR_INVALID_PC:
	case CUDA_ERROR_ASSERT:
	case CUDA_ERROR_ECC_UNCORRECTABLE:
		return true;
	default:
		return false;
	}
}

/* The attributes the driver reports for a freshly loaded function. */
void gl_func_attrs(const int32_t *dev, const struct gl_kres *res,
		   int32_t attr[GLEAM_FUNC_ATTR_MAX]);

/*
 * Whether cuFuncSetAttribute takes value for attr, for a function of
 * static_smem bytes of static shared memory on a device (dev NULL: any
 * device's opt-in limit is taken as met).
 */
CUresult gl_func_attr_check(const int32_t *dev, int32_t static_smem, CUfunction_attribute attr,
			    int value);

/*
 * A memory pool's attributes: the reuse policies are ints, the threshold
 * and the amounts 64-bit.  gl_pool_attr_in reads what cuMemPoolSetAttribute
 * was given as the driver takes it (a policy is on or off; a high
 * watermark is only ever reset, to zero; the current amounts are read-only).
 */
static inline bool gl_pool_attr_known(int64_t attr)
{
	return attr >= CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
	       attr <= CU_MEMPOOL_ATTR_USED_MEM_HIGH;
}

static inline bool gl_pool_attr_is_int(int64_t attr)
{
	return attr >= CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
	       attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
}

CUresult gl_pool_attr_in(CUmemPool_attribute attr, const void *value, uint64_t *v);

/* Writes v to value as attr's type. */
void gl_pool_attr_out(CUmemPool_attribute attr, uint64_t v, void *value);

/* What occupancy depends on beyond the device: a function's current state. */
struct gl_occ_func {
	const int32_t *attr;		/* CU_FUNC_ATTRIBUTE_*, as set now */
	uint32_t barriers;		/* named barriers (0: unknown, taken as 1) */
	CUfunc_cache cache;		/* the function's, else its context's preference */
};

/* cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags. */
CUresult gl_occ_blocks(const int32_t *dev, const struct gl_occ_func *f, int block, size_t dyn,
		       unsigned int flags, int *blocks);

/* cuOccupancyAvailableDynamicSMemPerBlock. */
CUresult gl_occ_dyn_smem(const int32_t *dev, const struct gl_occ_func *f, int nblocks, int block,
			 size_t *bytes);

/*
 * cuOccupancyMaxPotentialBlockSizeWithFlags: to_smem (may be NULL) maps a
 * block size to its dynamic shared memory, else dyn is used for all;
 * limit 0 means none.
 */
CUresult gl_occ_best_block(const int32_t *dev, const struct gl_occ_func *f, int *min_grid,
			   int *block, CUoccupancyB2DSize to_smem, size_t dyn, int limit,
			   unsigned int flags);

/* The cluster shape and the rest of a launch configuration that occupancy reads. */
struct gl_occ_launch {
	unsigned int block[3];
	unsigned int grid[3];
	size_t dyn;
	unsigned int cluster[3];	/* from the launch's attributes; 0: none given */
};

/* cuOccupancyMaxActiveClusters and cuOccupancyMaxPotentialClusterSize. */
CUresult gl_occ_clusters(const int32_t *dev, const struct gleam_cluster_table *t,
			 const struct gl_occ_func *f, const struct gl_occ_launch *l, int *n);
CUresult gl_occ_cluster_size(const int32_t *dev, const struct gleam_cluster_table *t,
			     const struct gl_occ_func *f, const struct gl_occ_launch *l, int *n);

#endif /* GLEAM_CUDARULES_H */
