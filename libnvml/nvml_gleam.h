/* SPDX-License-Identifier: MIT */
/*
 * Gleam's libnvidia-ml.so.1, private header: the few NVML types it answers
 * with, laid out as NVIDIA's nvml.h lays them out (the ABI programs were
 * built against), and the library's own state.  nvml.h itself need not be
 * installed.
 */
#ifndef GLEAM_NVML_GLEAM_H
#define GLEAM_NVML_GLEAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "gleam_local.h"

typedef int nvmlReturn_t;

enum {
	NVML_SUCCESS			= 0,
	NVML_ERROR_UNINITIALIZED	= 1,
	NVML_ERROR_INVALID_ARGUMENT	= 2,
	NVML_ERROR_NOT_SUPPORTED	= 3,
	NVML_ERROR_NO_PERMISSION	= 4,
	NVML_ERROR_ALREADY_INITIALIZED	= 5,
	NVML_ERROR_NOT_FOUND		= 6,
	NVML_ERROR_INSUFFICIENT_SIZE	= 7,
	NVML_ERROR_INSUFFICIENT_POWER	= 8,
	NVML_ERROR_DRIVER_NOT_LOADED	= 9,
	NVML_ERROR_TIMEOUT		= 10,
	NVML_ERROR_IRQ_ISSUE		= 11,
	NVML_ERROR_LIBRARY_NOT_FOUND	= 12,
	NVML_ERROR_FUNCTION_NOT_FOUND	= 13,
	NVML_ERROR_CORRUPTED_INFOROM	= 14,
	NVML_ERROR_GPU_IS_LOST		= 15,
	NVML_ERROR_RESET_REQUIRED	= 16,
	NVML_ERROR_OPERATING_SYSTEM	= 17,
	NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
	NVML_ERROR_IN_USE		= 19,
	NVML_ERROR_MEMORY		= 20,
	NVML_ERROR_NO_DATA		= 21,
	NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22,
	NVML_ERROR_INSUFFICIENT_RESOURCES = 23,
	NVML_ERROR_FREQ_NOT_SUPPORTED	= 24,
	NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
	NVML_ERROR_DEPRECATED		= 26,
	NVML_ERROR_NOT_READY		= 27,
	NVML_ERROR_GPU_NOT_FOUND	= 28,
	NVML_ERROR_INVALID_STATE	= 29,
	NVML_ERROR_UNKNOWN		= 999,
};

#define NVML_VALUE_NOT_AVAILABLE	(~0ULL)

/* A device handle is a pointer to one of ours. */
struct gdev;
typedef struct gdev *nvmlDevice_t;

struct nvml_pci_info {
	char bus_id_legacy[16];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pci_device_id;
	unsigned int pci_subsystem_id;
	char bus_id[32];
};

struct nvml_memory {
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
};

struct nvml_memory_v2 {
	unsigned int version;
	unsigned long long total;
	unsigned long long reserved;
	unsigned long long free;
	unsigned long long used;
};

/* nvmlMemory_v2: the struct's size, and its version in the top byte. */
#define NVML_MEMORY_V2	((unsigned int)sizeof(struct nvml_memory_v2) | (2U << 24))

struct nvml_utilization {
	unsigned int gpu;
	unsigned int memory;
};

struct nvml_process_v1 {
	unsigned int pid;
	unsigned long long used_gpu_memory;
};

/* nvmlProcessInfo_t of the _v2 and _v3 calls. */
struct nvml_process_v2 {
	unsigned int pid;
	unsigned long long used_gpu_memory;
	unsigned int gpu_instance_id;
	unsigned int compute_instance_id;
};

/* The GPUs the client gleamd says this process's sessions would see. */
struct gdev {
	struct gleam_ctl_gpu g;
	unsigned int index;		/* NVML's, this process's */
};

#define GDEV_MAX	GLEAM_GPUS_MAX

struct gnvml {
	pthread_mutex_t lock;
	unsigned int inits;		/* nvmlInit minus nvmlShutdown */
	bool debug;			/* GLEAM_NVML_DEBUG */
	struct gdev dev[GDEV_MAX];
	unsigned int ndev;
	int driver_version;		/* CUDA's, from the server */
	struct gleam_ctl_proc procs[GLEAM_CTL_PROCS_MAX];
	unsigned int nprocs;
	uint64_t fetched_ns;		/* when the client gleamd last answered */
};

extern struct gnvml gn;

/* A call NVML has but Gleam cannot answer: said once per function. */
nvmlReturn_t gn_unsupported(const char *fn, bool *said);
/* gn_unsupported with a flag of the call site's own. */
#define GN_UNSUPPORTED(fn) \
	({ \
		static bool gn_said_; \
		gn_unsupported((fn), &gn_said_); \
	})

/* The handle's device, fresh (read again when older than a moment); NULL: not ours. */
struct gdev *gn_dev(nvmlDevice_t d);

/* Whether p is one of our handles (the export table's calls take any pointer). */
bool gn_is_dev(const void *p);

/* The processes of this machine on device d, at most max, into pids and names. */
unsigned int gn_procs(const struct gdev *d, unsigned int *pids, const char **names,
		      unsigned int max);

/* s into buf of len bytes; NVML_ERROR_INSUFFICIENT_SIZE when it does not fit. */
nvmlReturn_t gn_str(char *buf, unsigned int len, const char *s);

nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int length);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);

#endif /* GLEAM_NVML_GLEAM_H */
