// SPDX-License-Identifier: MIT
/*
 * devinfo: what the driver says about itself and each device (name,
 * compute capability, memory, UUID, a set of attributes) and the names and
 * texts of some error codes.  Its output is compared between NVIDIA's
 * driver and Gleam on the same machine, so it prints real values.
 *
 * devinfo --host-reach prints instead what device 0 says it can do with
 * this machine's memory (pageable access, managed and mapped memory, host
 * atomics, handles to share memory): what a local GPU can, and what a GPU
 * across the network can only in part.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"

static const struct {
	CUdevice_attribute attr;
	const char *name;
} attrs[] = {
#define A(x) { CU_DEVICE_ATTRIBUTE_##x, #x }
	A(MAX_THREADS_PER_BLOCK),
	A(MAX_BLOCK_DIM_X),
	A(MAX_BLOCK_DIM_Y),
	A(MAX_BLOCK_DIM_Z),
	A(MAX_GRID_DIM_X),
	A(MAX_GRID_DIM_Y),
	A(MAX_GRID_DIM_Z),
	A(MAX_SHARED_MEMORY_PER_BLOCK),
	A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
	A(TOTAL_CONSTANT_MEMORY),
	A(WARP_SIZE),
	A(MAX_REGISTERS_PER_BLOCK),
	A(MULTIPROCESSOR_COUNT),
	A(MAX_THREADS_PER_MULTIPROCESSOR),
	A(L2_CACHE_SIZE),
	A(GLOBAL_MEMORY_BUS_WIDTH),
	A(CONCURRENT_KERNELS),
	A(UNIFIED_ADDRESSING),
	A(INTEGRATED),
	A(COMPUTE_MODE),
	A(ASYNC_ENGINE_COUNT),
	A(PCI_BUS_ID),
	A(PCI_DEVICE_ID),
#undef A
};

static const CUresult codes[] = {
	CUDA_SUCCESS,
	CUDA_ERROR_INVALID_VALUE,
	CUDA_ERROR_OUT_OF_MEMORY,
	CUDA_ERROR_NOT_INITIALIZED,
	CUDA_ERROR_INVALID_DEVICE,
	CUDA_ERROR_INVALID_IMAGE,
	CUDA_ERROR_INVALID_CONTEXT,
	CUDA_ERROR_FILE_NOT_FOUND,
	CUDA_ERROR_INVALID_HANDLE,
	CUDA_ERROR_NOT_FOUND,
	CUDA_ERROR_NOT_READY,
	CUDA_ERROR_ILLEGAL_ADDRESS,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
	CUDA_ERROR_MISALIGNED_ADDRESS,
	CUDA_ERROR_LAUNCH_FAILED,
	CUDA_ERROR_NOT_SUPPORTED,
	CUDA_ERROR_UNKNOWN,
};

static const struct {
	CUdevice_attribute attr;
	const char *name;
} reach[] = {
#define A(x) { CU_DEVICE_ATTRIBUTE_##x, #x }
	A(PAGEABLE_MEMORY_ACCESS),
	A(PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
	A(HOST_NATIVE_ATOMIC_SUPPORTED),
	A(CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
	A(MANAGED_MEMORY),
	A(CONCURRENT_MANAGED_ACCESS),
	A(DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
	A(CAN_MAP_HOST_MEMORY),
	A(VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED),
	A(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED),
#undef A
};

static int host_reach(void)
{
	CUdevice dev;
	unsigned int j;
	int v;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	for (j = 0; j < sizeof(reach) / sizeof(reach[0]); j++) {
		CK(cuDeviceGetAttribute(&v, reach[j].attr, dev));
		printf("%s: %d\n", reach[j].name, v);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int version, count, i, major, minor, v;
	const char *name, *str;
	unsigned int j, k;
	char dname[256];
	size_t total;
	CUuuid uuid;
	CUdevice dev;
	CUresult rn, rs;

	if (argc > 1 && !strcmp(argv[1], "--host-reach"))
		return host_reach();
	/* The one call that needs no cuInit. */
	CK(cuDriverGetVersion(&version));
	printf("driver version >= 12000: %s\n", version >= 12000 ? "yes" : "no");
	CK(cuInit(0));
	CK(cuDeviceGetCount(&count));
	printf("devices: %d\n", count);
	if (count < 1)
		die("no devices");

	for (i = 0; i < count; i++) {
		CK(cuDeviceGet(&dev, i));
		CK(cuDeviceGetName(dname, sizeof(dname), dev));
		printf("device %d: %s\n", i, dname);
		CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
		CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
		printf("  compute capability: %d.%d\n", major, minor);
		CK(cuDeviceTotalMem(&total, dev));
		if (!total)
			die("device %d: total memory 0", i);
		printf("  total memory: %zu\n", total);
		CK(cuDeviceGetUuid(&uuid, dev));
		for (k = 0; k < sizeof(uuid.bytes) && !uuid.bytes[k]; k++)
			;
		if (k == sizeof(uuid.bytes))
			die("device %d: UUID is all zero", i);
		printf("  uuid: ");
		for (k = 0; k < sizeof(uuid.bytes); k++)
			printf("%s%02x", k == 4 || k == 6 || k == 8 || k == 10 ?
			       "-" : "", (unsigned char)uuid.bytes[k]);
		printf("\n");
		for (j = 0; j < ARRAY_SIZE(attrs); j++) {
			CK(cuDeviceGetAttribute(&v, attrs[j].attr, dev));
			printf("  %s: %d\n", attrs[j].name, v);
		}
	}

	for (j = 0; j < ARRAY_SIZE(codes); j++) {
		CK(cuGetErrorName(codes[j], &name));
		CK(cuGetErrorString(codes[j], &str));
		printf("error %d: %s: %s\n", (int)codes[j], name, str);
	}
	/* An unknown code: CUDA_ERROR_INVALID_VALUE and NULL, as documented. */
	name = str = "untouched";
	rn = cuGetErrorName((CUresult)9999, &name);
	rs = cuGetErrorString((CUresult)9999, &str);
	printf("error 9999: name %s, %s; string %s, %s\n", err_name(rn),
	       name ? "not NULL" : "NULL", err_name(rs), str ? "not NULL" : "NULL");
	printf("devinfo: PASS\n");
	return 0;
}
