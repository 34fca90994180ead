// SPDX-License-Identifier: MIT
/*
 * The cluster table (cluster_probe.h).  An empty kernel with one warp per
 * block is given, for each count b of blocks per multiprocessor, the
 * largest dynamic shared memory that still lets b blocks share one; the
 * driver then says how many clusters of each size fit.  Which clusters
 * fit depends only on how many blocks each multiprocessor holds and on
 * how the chip groups its multiprocessors, so the table answers for any
 * kernel once its blocks per multiprocessor are known.
 */
#include <string.h>

#include "cluster_probe.h"

static const char probe_ptx[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".visible .entry gleam_cluster_probe()\n"
	"{\n"
	"\tret;\n"
	"}\n";

/* The largest dynamic shared memory with at least b blocks per SM; -1: none. */
static long dyn_for(const struct gl_cluster_probe_ops *ops, CUfunction f, int b, long hi)
{
	long lo = 0, best = -1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;
		int n = 0;

		if (ops->max_blocks(&n, f, 32, (size_t)mid))
			return -1;
		if (n >= b) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}

CUresult gl_cluster_probe_with(const struct gl_cluster_probe_ops *ops, int smem_optin,
			       struct gleam_cluster_table *t)
{
	CUmodule m;
	CUfunction f;
	CUresult r;

	memset(t, 0, sizeof(*t));
	r = ops->module_load_data(&m, probe_ptx);
	if (r)
		return r;
	r = ops->module_get_function(&f, m, "gleam_cluster_probe");
	if (!r)
		r = ops->func_set_attribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
	if (!r)
		r = ops->func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					    smem_optin);
	if (!r)
		r = ops->func_set_attribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100);
	for (int b = 1; !r && b <= GLEAM_CLUSTER_BLOCKS_MAX; b++) {
		long dyn = dyn_for(ops, f, b, smem_optin);
		int n = 0;

		if (dyn < 0 || ops->max_blocks(&n, f, 32, (size_t)dyn) || n != b)
			continue;
		for (unsigned int c = 1; c <= GLEAM_CLUSTER_SIZE_MAX; c++) {
			CUlaunchAttribute at = { .id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION };
			CUlaunchConfig cfg = { .gridDimX = c, .gridDimY = 1, .gridDimZ = 1,
					       .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1,
					       .sharedMemBytes = (unsigned int)dyn, .attrs = &at,
					       .numAttrs = 1 };
			int k = 0;

			at.value.clusterDim.x = c;
			at.value.clusterDim.y = 1;
			at.value.clusterDim.z = 1;
			if (!ops->max_clusters(&k, f, &cfg) && k > 0)
				t->active[b - 1][c - 1] = (uint16_t)k;
		}
	}
	ops->module_unload(m);
	return r;
}
