/* SPDX-License-Identifier: MIT */
/* occdiff's use of the cluster probe, with the driver linked in. */
#include "../../../broker/cluster_probe.h"

static inline int gl_cluster_probe(struct gleam_cluster_table *t)
{
	static const struct gl_cluster_probe_ops ops = {
		.module_load_data = cuModuleLoadData,
		.module_unload = cuModuleUnload,
		.module_get_function = cuModuleGetFunction,
		.func_set_attribute = cuFuncSetAttribute,
		.func_get_attribute = cuFuncGetAttribute,
		.max_blocks = cuOccupancyMaxActiveBlocksPerMultiprocessor,
		.max_clusters = cuOccupancyMaxActiveClusters,
	};
	int optin = 0;
	CUdevice d;

	cuCtxGetDevice(&d);
	cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, d);
	return gl_cluster_probe_with(&ops, optin, t);
}
