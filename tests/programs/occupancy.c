// SPDX-License-Identifier: MIT
/*
 * occupancy: what a program asks about its kernels before it launches them,
 * over a sweep, printed.  resources.cubin (tests/kernels/resources.cu,
 * kernels of varied registers, shared and local memory, launch bounds,
 * barriers and clusters) is loaded as a module and as a library; for each
 * kernel the program prints its attributes and parameter layout, and the
 * answers of the occupancy family: blocks per multiprocessor over block
 * sizes, dynamic shared memory and flags, under cache and carveout
 * preferences and with the largest dynamic shared memory opted in; the
 * dynamic shared memory left for n blocks; the block size of best
 * occupancy, with and without a function of the block size for the shared
 * memory.  Lookups of names the image lacks, and of its variables, too.
 *
 * All of that is the same on any device of compute capability 9.0 with
 * the H200's per-multiprocessor resources: tests/programs/expected/ holds
 * what NVIDIA's driver printed.  With --device, what depends on the
 * number of multiprocessors and how they group (grid sizes, clusters)
 * follows the line "-- device-specific", for comparing a run through Gleam
 * with a direct run on the same GPU.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const kernels[] = {
	"few_regs", "regs_48", "regs_72", "regs_100", "regs_160", "regs_max", "bounded",
	"bounded_96", "bounded_1024", "static_smem_4k", "static_smem_40k", "static_smem_48k",
	"dynamic_smem", "local_memory", "uses_constant", "barriers_4", "barriers_16",
	"cluster_2", "cluster_8", "params", "no_params", "calls_helper",
	"_Z14mangled_kernelPi3Big",
};

static const int blocks[] = { 0, 1, 32, 33, 64, 96, 128, 192, 256, 320, 384, 512, 768, 1024, 1025 };
static const size_t dyns[] = { 0, 1, 4096, 16384, 40000, 49152, 65536, 100000, 200000, 232448 };

/* A callback's shared memory: 48 bytes a thread. */
static size_t per_thread(int block)
{
	return (size_t)block * 48;
}

static int sms;

/* Blocks per SM over the sweep: one line per block size, a number per dynamic size. */
static void sweep(CUfunction f, const char *setting)
{
	printf("  blocks per SM [%s]:\n", setting);
	for (size_t i = 0; i < ARRAY_SIZE(blocks); i++) {
		printf("   %4d:", blocks[i]);
		for (size_t j = 0; j < ARRAY_SIZE(dyns); j++) {
			int n = -1;
			CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
				&n, f, blocks[i], dyns[j], j & 1);

			if (r)
				printf(" %s", err_name(r));
			else
				printf(" %d", n);
		}
		printf("\n");
	}
}

static void dyn_left(CUfunction f)
{
	static const int nb[] = { 0, 1, 2, 3, 5, 8, 16, 32, 33 };

	printf("  dynamic smem for n blocks of 128:");
	for (size_t i = 0; i < ARRAY_SIZE(nb); i++) {
		size_t n = 0;
		CUresult r = cuOccupancyAvailableDynamicSMemPerBlock(&n, f, nb[i], 128);

		if (r)
			printf(" %s", err_name(r));
		else
			printf(" %zu", n);
	}
	printf("\n");
}

/* What depends on the device's size, printed at the end. */
static char *device_specific;
static size_t ds_len, ds_cap;

__attribute__((format(printf, 1, 2)))
static void later(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (ds_len + (size_t)n + 1 > ds_cap) {
		ds_cap = (ds_len + (size_t)n + 1) * 2;
		device_specific = realloc(device_specific, ds_cap);
		if (!device_specific)
			die("out of memory");
	}
	va_start(ap, fmt);
	vsnprintf(device_specific + ds_len, ds_cap - ds_len, fmt, ap);
	va_end(ap);
	ds_len += (size_t)n;
}

/* The best block size; its grid (multiprocessors times blocks each) comes later. */
static void best(const char *name, CUfunction f, const char *setting)
{
	static const size_t ds[] = { 0, 1024, 16384, 65536 };
	static const int limits[] = { 0, 100, 256 };

	printf("  best block [%s]:", setting);
	for (size_t i = 0; i < ARRAY_SIZE(ds); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(limits); j++) {
			int grid = -1, block = -1;
			CUresult r = cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, ds[i],
								      limits[j]);

			if (r) {
				printf(" %s", err_name(r));
				continue;
			}
			printf(" %d/%d", block, sms ? grid / sms : -1);
			later("%s [%s] dyn %zu limit %d: grid %d\n", name, setting, ds[i], limits[j],
			      grid);
		}
	}
	{
		int grid = -1, block = -1;
		CUresult r = cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, per_thread, 0,
								       0, 0);

		printf(" callback %s %d/%d", err_name(r), block, sms ? grid / sms : -1);
	}
	printf("\n");
}

static void clusters(const char *name, CUfunction f)
{
	int req = 0;

	cuFuncGetAttribute(&req, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f);
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
	for (unsigned int block = 64; block <= 1024; block *= 4) {
		for (unsigned int c = 1; c <= 16; c = c < 4 ? c + 1 : c * 2) {
			CUlaunchAttribute at = { .id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION };
			CUlaunchConfig cfg = { .gridDimX = 32, .gridDimY = 2, .gridDimZ = 2,
					       .blockDimX = block, .blockDimY = 1, .blockDimZ = 1,
					       .sharedMemBytes = 8192, .attrs = &at, .numAttrs = 1 };
			int n = -1;
			CUresult r;

			at.value.clusterDim.x = c;
			at.value.clusterDim.y = 1;
			at.value.clusterDim.z = 1;
			if (req)
				cfg.numAttrs = 0;
			r = cuOccupancyMaxActiveClusters(&n, f, &cfg);
			later("%s block %u cluster %u: %s %d\n", name, block, req ? 0 : c, err_name(r),
			      r ? -1 : n);
			if (req)
				break;
		}
		{
			CUlaunchConfig cfg = { .gridDimX = 32, .gridDimY = 2, .gridDimZ = 2,
					       .blockDimX = block, .blockDimY = 1, .blockDimZ = 1 };
			int n = -1;
			CUresult r = cuOccupancyMaxPotentialClusterSize(&n, f, &cfg);

			later("%s block %u largest cluster: %s %d\n", name, block, err_name(r),
			      r ? -1 : n);
		}
	}
}

static void one(const char *name, CUfunction f, bool deep)
{
	static const char *const an[] = {
		"max_threads", "shared", "const", "local", "regs", "ptx", "binary", "cache_ca",
		"max_dyn_shared", "carveout", "cluster_must", "cluster_w", "cluster_h",
		"cluster_d", "non_portable", "sched_policy",
	};
	char setting[32];

	printf("%s:", name);
	for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX; a++) {
		int v = -1;
		CUresult r = cuFuncGetAttribute(&v, (CUfunction_attribute)a, f);

		if (r)
			printf(" %s=%s", an[a], err_name(r));
		else
			printf(" %s=%d", an[a], v);
	}
	printf("\n  params:");
	for (size_t i = 0;; i++) {
		size_t off, size;

		if (cuFuncGetParamInfo(f, i, &off, &size))
			break;
		printf(" %zu+%zu", off, size);
	}
	printf("\n");
	if (!deep)
		return;
	sweep(f, "default");
	dyn_left(f);
	best(name, f, "default");
	CK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1));
	sweep(f, "prefer L1");
	best(name, f, "prefer L1");
	CK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_NONE));
	for (int c = 0; c <= 100; c += 25) {
		CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, c));
		snprintf(setting, sizeof(setting), "carveout %d", c);
		sweep(f, setting);
		dyn_left(f);
		best(name, f, setting);
	}
	CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1));
	{
		int stat = 0, optin = 0;
		CUdevice dev;

		CK(cuCtxGetDevice(&dev));
		CK(cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
					dev));
		CK(cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
		CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - stat));
		sweep(f, "max dynamic opted in");
		dyn_left(f);
		best(name, f, "max dynamic opted in");
	}
	clusters(name, f);
}

int main(int argc, char **argv)
{
	CUcontext ctx;
	CUdevice dev;
	CUmodule m;
	CUlibrary lib;
	CUkernel k;
	CUfunction f;
	CUdeviceptr p;
	size_t size;
	void *img;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
	CK(cuCtxCreate(&ctx, NULL, 0, dev));
	img = read_file(kernel_path("resources.cubin"), &size);
	CK(cuModuleLoadData(&m, img));
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		CK(cuModuleGetFunction(&f, m, kernels[i]));
		one(kernels[i], f, true);
	}
	printf("missing function: %s\n", err_name(cuModuleGetFunction(&f, m, "no_such_kernel")));
	printf("a device function: %s\n", err_name(cuModuleGetFunction(&f, m, "helper")));
	CK(cuModuleGetGlobal(&p, &size, m, "dev_array"));
	printf("dev_array: %zu bytes\n", size);
	CK(cuModuleGetGlobal(&p, &size, m, "const_table"));
	printf("const_table: %zu bytes\n", size);
	printf("missing variable: %s\n", err_name(cuModuleGetGlobal(&p, &size, m, "no_such_var")));

	/* The same image as a library: kernels and their functions. */
	CK(cuLibraryLoadData(&lib, img, NULL, NULL, 0, NULL, NULL, 0));
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i += 4) {
		int v = -1;

		CK(cuLibraryGetKernel(&k, lib, kernels[i]));
		CK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, dev));
		CK(cuKernelGetFunction(&f, k));
		printf("library %s: regs %d; ", kernels[i], v);
		one(kernels[i], f, false);
	}
	printf("missing kernel: %s\n", err_name(cuLibraryGetKernel(&k, lib, "no_such_kernel")));
	printf("missing library variable: %s\n",
	       err_name(cuLibraryGetGlobal(&p, &size, lib, "no_such_var")));
	CK(cuLibraryUnload(lib));
	CK(cuModuleUnload(m));
	CK(cuCtxDestroy(ctx));
	if (argc > 1 && !strcmp(argv[1], "--device"))
		printf("-- device-specific\n%s", device_specific ? device_specific : "");
	return 0;
}
