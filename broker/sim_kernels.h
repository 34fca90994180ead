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

/* Where a kernel reads a texture: CUDA's float coordinates, or tex1Dfetch's index. */
struct sim_texcoord {
	float x, y, z;
	int layer;		/* tex2DLayered's layer, or -1 */
	int fetch;		/* tex1Dfetch: x is an integer index into linear memory */
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
	/*
	 * A texture object's element at c (point filtering), size bytes
	 * into out; a surface object's size bytes at byte x of row y of
	 * slice z, read into or written from buf.  Each returns 0, or the
	 * CUresult the kernel fails with (an object that does not exist, an
	 * access out of bounds, what the sim does not model).
	 */
	int (*tex)(void *be, uint64_t obj, const struct sim_texcoord *c, void *out,
		   unsigned int size);
	int (*surf)(void *be, uint64_t obj, int64_t x, int64_t y, int64_t z, void *buf,
		    unsigned int size, int write);
	/*
	 * cudaGraphSetConditional: the value of the conditional handle
	 * handle; 0, or the CUresult the kernel fails with (no such handle).
	 */
	int (*set_cond)(void *be, uint64_t handle, unsigned int value);
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
