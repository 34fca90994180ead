/* SPDX-License-Identifier: MIT */
/*
 * How many clusters of each size fit on the GPU, for each number of
 * blocks a multiprocessor holds (struct gleam_cluster_table): asked of
 * NVIDIA's driver once per device with a kernel of its own, so that
 * clients can answer cuOccupancyMaxActiveClusters for any kernel without
 * asking again.  The driver's functions come in a table, so that gleamd
 * (which loads the driver with dlopen) and test programs (which link it)
 * share the probe.
 */
#ifndef GLEAM_CLUSTER_PROBE_H
#define GLEAM_CLUSTER_PROBE_H

#include <cuda.h>

#include "cudarules.h"

struct gl_cluster_probe_ops {
	CUresult (*module_load_data)(CUmodule *, const void *);
	CUresult (*module_unload)(CUmodule);
	CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
	CUresult (*func_set_attribute)(CUfunction, CUfunction_attribute, int);
	CUresult (*func_get_attribute)(int *, CUfunction_attribute, CUfunction);
	CUresult (*max_blocks)(int *, CUfunction, int, size_t);
	CUresult (*max_clusters)(int *, CUfunction, const CUlaunchConfig *);
};

/*
 * With a context of the device current: fill t (rows that cannot be
 * measured stay zero).  0 or a CUDA error.
 */
CUresult gl_cluster_probe_with(const struct gl_cluster_probe_ops *ops, int smem_optin,
			       struct gleam_cluster_table *t);

#endif /* GLEAM_CLUSTER_PROBE_H */
