// SPDX-License-Identifier: MIT
/*
 * errors: error paths that must look the same through any implementation
 * of the driver API: calls before cuInit, bad devices and attributes, a
 * zero-byte allocation, a missing module file and kernel name, cuMemFree
 * of pointers that are not allocations, work left on a destroyed stream,
 * invalid launch configurations (not sticky), and last, in a context of
 * its own, a kernel that writes to an unmapped address: the launch
 * succeeds, cuCtxSynchronize returns CUDA_ERROR_ILLEGAL_ADDRESS, and the
 * error is sticky.  Prints each error's name.
 *
 * Where the documentation names the result it is checked; where it does
 * not (cuMemFree of a non-allocation, a bad attribute or launch
 * configuration) any error is accepted and its name printed, for
 * comparison with NVIDIA's driver.
 */
#include <stdio.h>

#include "util.h"

/* Prints what returned which error; dies if it returned CUDA_SUCCESS. */
static void show_error(const char *what, CUresult r)
{
	if (r == CUDA_SUCCESS)
		die("%s: succeeded, expected an error", what);
	printf("%s: %s\n", what, err_name(r));
}

#define SHOW(what, call, want) \
	printf("%s: %s\n", what, CK_EXPECT(call, want))

static void launch_config(CUfunction f_null)
{
	show_error("launch with 2048 threads per block",
		   cuLaunchKernel(f_null, 1, 1, 1, 2048, 1, 1, 0, NULL, NULL,
				  NULL));
	show_error("launch with a zero grid",
		   cuLaunchKernel(f_null, 0, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CK(cuLaunchKernel(f_null, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	SHOW("synchronize after bad launches", cuCtxSynchronize(), CUDA_SUCCESS);
}

static void sticky_fault(CUdevice dev)
{
	CUdeviceptr bad = 0x8, p;
	CUfunction f_write, f_null;
	void *args[] = { &bad };
	CUcontext ctx;

	CK(cuCtxCreate(&ctx, NULL, 0, dev));
	load_function("fault.ptx", "illegal_write", &f_write);
	load_function("misc.ptx", "null_kernel", &f_null);
	CK(cuCtxSynchronize());

	SHOW("launch illegal_write",
	     cuLaunchKernel(f_write, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL),
	     CUDA_SUCCESS);
	SHOW("cuCtxSynchronize after the fault", cuCtxSynchronize(),
	     CUDA_ERROR_ILLEGAL_ADDRESS);
	SHOW("cuCtxSynchronize again", cuCtxSynchronize(),
	     CUDA_ERROR_ILLEGAL_ADDRESS);
	SHOW("cuMemAlloc after the fault", cuMemAlloc(&p, 4096),
	     CUDA_ERROR_ILLEGAL_ADDRESS);
	SHOW("cuLaunchKernel after the fault",
	     cuLaunchKernel(f_null, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL),
	     CUDA_ERROR_ILLEGAL_ADDRESS);
	/* The context is lost; the process exits without tidying it. */
}

int main(void)
{
	CUdeviceptr p;
	CUfunction f, f_null;
	CUcontext ctx;
	CUmodule mod;
	uint32_t words[1024];
	CUstream s;
	CUdevice dev;
	int count, v;

	SHOW("cuDeviceGetCount before cuInit", cuDeviceGetCount(&count),
	     CUDA_ERROR_NOT_INITIALIZED);
	CK(cuInit(0));
	CK(cuDeviceGetCount(&count));
	SHOW("cuDeviceGet past the last device", cuDeviceGet(&dev, count),
	     CUDA_ERROR_INVALID_DEVICE);
	CK(cuDeviceGet(&dev, 0));
	show_error("cuDeviceGetAttribute unknown attribute",
		   cuDeviceGetAttribute(&v, (CUdevice_attribute)100000, dev));

	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	SHOW("cuMemAlloc of 0 bytes", cuMemAlloc(&p, 0),
	     CUDA_ERROR_INVALID_VALUE);
	SHOW("cuModuleLoad missing file",
	     cuModuleLoad(&mod, kernel_path("no-such-module.ptx")),
	     CUDA_ERROR_FILE_NOT_FOUND);
	mod = load_module("misc.ptx");
	SHOW("cuModuleGetFunction missing name",
	     cuModuleGetFunction(&f, mod, "no_such_kernel"),
	     CUDA_ERROR_NOT_FOUND);
	CK(cuModuleGetFunction(&f_null, mod, "null_kernel"));

	CK(cuMemAlloc(&p, 4096));
	show_error("cuMemFree inside an allocation", cuMemFree(p + 256));
	CK(cuMemFree(p));
	show_error("cuMemFree twice", cuMemFree(p));

	/*
	 * A destroyed stream is not used again: NVIDIA's driver (580)
	 * dereferences the freed handle and crashes.  What is defined is
	 * that destroying a stream with work queued waits for nothing and
	 * the work still completes.
	 */
	CK(cuMemAlloc(&p, 4096));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemsetD32Async(p, 0x5a5a5a5a, 1024, s));
	CK(cuStreamDestroy(s));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(words, p, sizeof(words)));
	for (v = 0; v < 1024; v++)
		if (words[v] != 0x5a5a5a5a)
			die("work of a destroyed stream: word %d is %#x", v,
			    words[v]);
	CK(cuMemFree(p));
	printf("work queued on a destroyed stream completes\n");

	launch_config(f_null);
	CK(cuModuleUnload(mod));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));

	sticky_fault(dev);
	printf("errors: PASS\n");
	return 0;
}
