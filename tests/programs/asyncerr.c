// SPDX-License-Identifier: MIT
/*
 * asyncerr: CUDA's error semantics where Gleam answers without waiting.
 * Each case prints the first error the program meets, wherever it meets
 * it: at the call itself (the driver, GLEAM_ASYNC=0) or at the next call
 * that uses what the call made (Gleam's asynchronous creations).  So the
 * output is the same run directly and through Gleam in both modes.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"

/* A PTX module no JIT can build: an instruction that does not exist. */
static const char broken_ptx[] =
	".version 8.0\n"
	".target sm_75\n"
	".address_size 64\n"
	".visible .entry broken()\n"
	"{\n"
	"\tbogus.instruction.u32 %r1, 7;\n"
	"\tret;\n"
	"}\n";

static void first_error(const char *what, CUresult at_call, CUresult at_use)
{
	CUresult r = at_call ? at_call : at_use;

	printf("%s: %s\n", what, err_name(r));
}

int main(void)
{
	CUcontext ctx;
	CUdevice dev;
	CUmodule m;
	CUfunction f;
	CUlibrary lib;
	CUkernel k;
	CUstream s;
	CUdeviceptr d, d2;
	CUresult r, r2;
	unsigned int word = 0;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuCtxCreate(&ctx, NULL, 0, dev));

	r = cuModuleLoadData(&m, broken_ptx);
	r2 = r ? CUDA_SUCCESS : cuModuleGetFunction(&f, m, "broken");
	first_error("module that does not compile", r, r2);

	r = cuLibraryLoadData(&lib, broken_ptx, NULL, NULL, 0, NULL, NULL, 0);
	r2 = r ? CUDA_SUCCESS : cuLibraryGetKernel(&k, lib, "broken");
	first_error("library that does not compile", r, r2);

	r = cuStreamCreate(&s, 0x80);
	r2 = r ? CUDA_SUCCESS : cuStreamSynchronize(s);
	first_error("stream with unknown flags", r, r2);

	/* What the driver checks at the call is checked at the call. */
	CK(cuMemAlloc(&d, 4096));
	CK(cuMemAlloc(&d2, 4096));
	printf("memset past the end: %s\n", err_name(cuMemsetD32Async(d, 0, 1025, NULL)));
	printf("copy past the end: %s\n", err_name(cuMemcpyDtoDAsync(d, d2 + 8, 4096, NULL)));
	CK(cuMemFree(d2));
	printf("memset of freed memory: %s\n", err_name(cuMemsetD8(d2, 0, 1)));
	printf("copy to freed memory: %s\n", err_name(cuMemcpyHtoD(d2, &word, 4)));
	printf("the context still works: %s\n", err_name(cuCtxSynchronize()));

	/* A kernel's fault surfaces at the next call that waits, and stays. */
	m = load_function("fault.ptx", "illegal_write", &f);
	{
		CUdeviceptr bad = 0x10;
		void *args[] = { &bad };

		printf("faulting launch: %s\n",
		       err_name(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL)));
	}
	printf("stream synchronize after the fault: %s\n", err_name(cuStreamSynchronize(NULL)));
	printf("stream query after the fault: %s\n", err_name(cuStreamQuery(NULL)));
	printf("copy to host after the fault: %s\n", err_name(cuMemcpyDtoH(&word, d, 4)));
	printf("memset after the fault: %s\n", err_name(cuMemsetD32(d, 0, 1)));
	printf("synchronize after the fault: %s\n", err_name(cuCtxSynchronize()));
	printf("asyncerr: PASS\n");
	return 0;
}
