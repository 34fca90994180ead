/* SPDX-License-Identifier: MIT */
/*
 * Test kernels of the sim backend.  The sim backend is a test instrument:
 * device memory lives in the worker's host memory and a small set of
 * kernels with fixed names, written in C here, stands in for the GPU code
 * of the test programs (tests/kernels/), whose PTX and cubins use the same
 * names and parameter lists.
 */
#ifndef GLEAM_SIM_KERNELS_H
#define GLEAM_SIM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

struct sim_dim3 {
	unsigned int x, y, z;
};

struct sim_launch {
	struct sim_dim3 grid;
	struct sim_dim3 block;
	unsigned int shared_bytes;
	const unsigned char *params;	/* packed, CUDA's layout and alignment */
	size_t params_size;
	/*
	 * Host view of device memory [dptr, dptr + len), or NULL when that
	 * range is not inside one live allocation: a kernel that gets NULL
	 * returns CUDA_ERROR_ILLEGAL_ADDRESS, as the GPU would fault.
	 */
	void *(*mem)(void *be, uint64_t dptr, uint64_t len);
	/*
	 * ns of GPU time, queued on the GPU after the work of its other
	 * sessions: returns when it ends (CLOCK_MONOTONIC ns).  NULL: now + ns.
	 */
	uint64_t (*gpu_time)(void *be, uint64_t ns);
	void *be;
};

struct sim_kernel {
	const char *name;
	unsigned int nparams;
	unsigned int param_size[16];	/* bytes of each parameter, in order */
	/* Returns a CUresult (0 on success). */
	int (*run)(const struct sim_launch *l);
};

/* The kernel called name, or NULL. */
const struct sim_kernel *sim_kernel_find(const char *name);

#endif /* GLEAM_SIM_KERNELS_H */
