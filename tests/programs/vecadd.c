// SPDX-License-Identifier: MIT
/*
 * vecadd: the same vector add through every way of loading code and every
 * launch form: PTX by path (cuModuleLoad), a cubin image (cuModuleLoadData),
 * PTX with JIT options (cuModuleLoadDataEx), a library (cuLibraryLoadData,
 * cuLibraryGetKernel, cuKernelGetFunction), cuLaunchKernelEx, and the
 * `extra` packed-buffer form; then mixed_args to test the marshalling of
 * parameters of every size.  Inputs are chosen so that every sum is exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define N	1000003		/* not a multiple of the block */
#define BLOCK	256

static float *h_a, *h_b, *h_c;
static CUdeviceptr d_a, d_b, d_c;

static void init_inputs(void)
{
	size_t i;

	h_a = malloc(N * sizeof(float));
	h_b = malloc(N * sizeof(float));
	h_c = malloc(N * sizeof(float));
	if (!h_a || !h_b || !h_c)
		die("out of memory");
	for (i = 0; i < N; i++) {
		h_a[i] = (float)(i % 1024);
		h_b[i] = (float)((i * 7) % 1024) * 0.25f;
	}
}

/* Poisons C (all bits set: a NaN) so that an element not written shows. */
static void poison_c(void)
{
	CK(cuMemsetD32(d_c, 0xffffffffu, N));
}

/*
 * Fetches C and checks c[i] == a[i] + b[i] for i < covered and the poison
 * beyond; prints the label and a checksum.
 */
static void check_c(const char *label, size_t covered)
{
	double sum = 0;
	size_t i;

	CK(cuMemcpyDtoH(h_c, d_c, N * sizeof(float)));
	for (i = 0; i < N; i++) {
		uint32_t bits;

		if (i < covered) {
			if (h_c[i] != h_a[i] + h_b[i])
				die("%s: c[%zu] = %g, expected %g", label, i,
				    h_c[i], h_a[i] + h_b[i]);
			sum += h_c[i];
			continue;
		}
		memcpy(&bits, &h_c[i], sizeof(bits));
		if (bits != 0xffffffffu)
			die("%s: c[%zu] written beyond the grid", label, i);
	}
	printf("%s: ok checksum %.2f\n", label, sum);
}

static void launch_params(CUfunction f, CUstream s, unsigned int grid)
{
	int n = N;
	void *args[] = { &d_a, &d_b, &d_c, &n };

	CK(cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, s, args, NULL));
}

static void run(const char *label, CUfunction f)
{
	poison_c();
	launch_params(f, NULL, blocks_for(N, BLOCK));
	CK(cuCtxSynchronize());
	check_c(label, N);
}

static CUfunction from_ptx_path(CUmodule *mod)
{
	CUfunction f;

	*mod = load_function("vec_add.ptx", "vec_add", &f);
	return f;
}

static CUfunction from_cubin_image(CUmodule *mod)
{
	void *img = read_file(kernel_path("vec_add.cubin"), NULL);
	CUfunction f;

	CK(cuModuleLoadData(mod, img));
	free(img);	/* the driver has its own copy now */
	CK(cuModuleGetFunction(&f, *mod, "vec_add"));
	return f;
}

static CUfunction from_ptx_ex(CUmodule *mod)
{
	static char info[4096], error[4096];
	CUjit_option opt[] = {
		CU_JIT_OPTIMIZATION_LEVEL,
		CU_JIT_INFO_LOG_BUFFER,
		CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_ERROR_LOG_BUFFER,
		CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
	};
	void *val[] = {
		(void *)(uintptr_t)3,
		info,
		(void *)(uintptr_t)sizeof(info),
		error,
		(void *)(uintptr_t)sizeof(error),
	};
	char *ptx = read_file(kernel_path("vec_add.ptx"), NULL);
	CUfunction f;

	CK(cuModuleLoadDataEx(mod, ptx, ARRAY_SIZE(opt), opt, val));
	free(ptx);
	CK(cuModuleGetFunction(&f, *mod, "vec_add"));
	return f;
}

static CUfunction from_library(CUlibrary *lib)
{
	char *ptx = read_file(kernel_path("vec_add.ptx"), NULL);
	CUkernel k;
	CUfunction f;

	CK(cuLibraryLoadData(lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
	free(ptx);
	CK(cuLibraryGetKernel(&k, *lib, "vec_add"));
	CK(cuKernelGetFunction(&f, k));
	return f;
}

static void run_launch_ex(CUfunction f)
{
	CUlaunchAttribute attr[1];
	CUlaunchConfig cfg;
	CUstream s;
	int n = N;
	void *args[] = { &d_a, &d_b, &d_c, &n };

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	memset(attr, 0, sizeof(attr));
	attr[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	attr[0].value.priority = 0;
	memset(&cfg, 0, sizeof(cfg));
	cfg.gridDimX = blocks_for(N, BLOCK);
	cfg.gridDimY = 1;
	cfg.gridDimZ = 1;
	cfg.blockDimX = BLOCK;
	cfg.blockDimY = 1;
	cfg.blockDimZ = 1;
	cfg.sharedMemBytes = 0;
	cfg.hStream = s;
	cfg.attrs = attr;
	cfg.numAttrs = ARRAY_SIZE(attr);

	poison_c();
	CK(cuLaunchKernelEx(&cfg, f, args, NULL));
	CK(cuStreamSynchronize(s));
	CK(cuStreamDestroy(s));
	check_c("cuLaunchKernelEx", N);
}

/* Offsets of vec_add's parameters in CUDA's packed layout. */
static void run_extra(CUfunction f)
{
	unsigned char buf[28];
	size_t size = sizeof(buf);
	int n = N;
	void *extra[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
		CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
		CU_LAUNCH_PARAM_END,
	};

	memcpy(buf + 0, &d_a, 8);
	memcpy(buf + 8, &d_b, 8);
	memcpy(buf + 16, &d_c, 8);
	memcpy(buf + 24, &n, 4);
	poison_c();
	CK(cuLaunchKernel(f, blocks_for(N, BLOCK), 1, 1, BLOCK, 1, 1, 0, NULL,
			  NULL, extra));
	CK(cuCtxSynchronize());
	check_c("extra buffer", N);
}

/* A grid smaller than n: only the launched threads' elements change. */
static void run_partial(CUfunction f)
{
	poison_c();
	launch_params(f, NULL, 3);
	CK(cuCtxSynchronize());
	check_c("partial grid", 3 * BLOCK);
}

struct mixed {
	char c;
	double d;
	short s;
	long long ll;
	int i;
};

static void check_mixed(const char *label, CUdeviceptr d_out,
			const struct mixed *m)
{
	float out[5];
	float want[5] = { m->c, (float)m->d, m->s, (float)m->ll, (float)m->i };

	CK(cuMemcpyDtoH(out, d_out, sizeof(out)));
	if (memcmp(out, want, sizeof(out)))
		die("%s: got %g %g %g %g %g", label, out[0], out[1], out[2],
		    out[3], out[4]);
	printf("%s: %.0f %.0f %.0f %.0f %.0f\n", label, out[0], out[1], out[2],
	       out[3], out[4]);
}

static void run_mixed(void)
{
	struct mixed m = { 71, -2500.0, -12345, -0x12300000000LL, -77777 };
	unsigned char buf[44];
	size_t size = sizeof(buf);
	void *extra[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
		CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
		CU_LAUNCH_PARAM_END,
	};
	CUdeviceptr d_out;
	CUmodule mod;
	CUfunction f;

	mod = load_function("misc.ptx", "mixed_args", &f);
	CK(cuMemAlloc(&d_out, 5 * sizeof(float)));

	{
		void *args[] = { &m.c, &m.d, &m.s, &d_out, &m.ll, &m.i };

		CK(cuMemsetD32(d_out, 0, 5));
		CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
		CK(cuCtxSynchronize());
		check_mixed("mixed_args kernelParams", d_out, &m);
	}

	/* Different values, packed by hand; padding bytes are garbage. */
	m.c = 5;
	m.d = 0.5;
	m.s = 32767;
	m.ll = 0x7f0000000000LL;
	m.i = 1 << 30;
	memset(buf, 0xaa, sizeof(buf));
	memcpy(buf + 0, &m.c, 1);
	memcpy(buf + 8, &m.d, 8);
	memcpy(buf + 16, &m.s, 2);
	memcpy(buf + 24, &d_out, 8);
	memcpy(buf + 32, &m.ll, 8);
	memcpy(buf + 40, &m.i, 4);
	CK(cuMemsetD32(d_out, 0, 5));
	CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));
	CK(cuCtxSynchronize());
	check_mixed("mixed_args extra", d_out, &m);

	CK(cuMemFree(d_out));
	CK(cuModuleUnload(mod));
}

int main(void)
{
	CUmodule m_ptx, m_cubin, m_ex;
	CUlibrary lib;
	CUfunction f_ptx, f_cubin, f_ex, f_lib;
	CUcontext ctx;
	CUdevice dev;

	CK(primary_ctx(&dev, &ctx));

	init_inputs();
	CK(cuMemAlloc(&d_a, N * sizeof(float)));
	CK(cuMemAlloc(&d_b, N * sizeof(float)));
	CK(cuMemAlloc(&d_c, N * sizeof(float)));
	CK(cuMemcpyHtoD(d_a, h_a, N * sizeof(float)));
	CK(cuMemcpyHtoD(d_b, h_b, N * sizeof(float)));

	f_ptx = from_ptx_path(&m_ptx);
	run("ptx cuModuleLoad", f_ptx);
	f_cubin = from_cubin_image(&m_cubin);
	run("cubin cuModuleLoadData", f_cubin);
	f_ex = from_ptx_ex(&m_ex);
	run("ptx cuModuleLoadDataEx", f_ex);
	f_lib = from_library(&lib);
	run("cuLibraryLoadData", f_lib);
	run_launch_ex(f_ptx);
	run_extra(f_cubin);
	run_partial(f_lib);
	run_mixed();

	CK(cuModuleUnload(m_ptx));
	CK(cuModuleUnload(m_cubin));
	CK(cuModuleUnload(m_ex));
	CK(cuLibraryUnload(lib));
	CK(cuMemFree(d_a));
	CK(cuMemFree(d_b));
	CK(cuMemFree(d_c));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	free(h_a);
	free(h_b);
	free(h_c);
	printf("vecadd: PASS\n");
	return 0;
}
