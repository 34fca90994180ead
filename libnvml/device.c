// SPDX-License-Identifier: MIT
/*
 * Gleam's libnvidia-ml.so.1: the device calls.  Every answer comes from
 * the client gleamd's last word on the GPU (init.c): its INFO (name, UUID,
 * memory), what is in use (the sim's exact count, utilisation), and what
 * the server's NVML read (memory, temperature, power, PCI address...).
 * What none of them says is NVML_ERROR_NOT_SUPPORTED.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nvml_gleam.h"
#include "util.h"

enum { NVML_CLOCK_GRAPHICS, NVML_CLOCK_SM, NVML_CLOCK_MEM, NVML_CLOCK_VIDEO };

/* Lock held and *g the device on 0; nothing held otherwise. */
static nvmlReturn_t begin(nvmlDevice_t d, struct gdev **g)
{
	pthread_mutex_lock(&gn.lock);
	if (!gn.inits) {
		pthread_mutex_unlock(&gn.lock);
		return NVML_ERROR_UNINITIALIZED;
	}
	*g = gn_dev(d);
	if (!*g) {
		pthread_mutex_unlock(&gn.lock);
		return NVML_ERROR_INVALID_ARGUMENT;
	}
	return NVML_SUCCESS;
}

static nvmlReturn_t end(nvmlReturn_t r)
{
	pthread_mutex_unlock(&gn.lock);
	return r;
}

/* Whether the server's NVML gave this reading. */
static bool nv(const struct gdev *g, uint32_t flag)
{
	return (g->g.flags & GLEAM_CTL_GPU_F_NVML) && (g->g.nvml.flags & flag);
}

static void uuid_str(const struct gdev *g, char *buf, size_t len)
{
	const uint8_t *u = g->g.info.uuid;

	snprintf(buf, len,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
	nvmlReturn_t r = NVML_SUCCESS;

	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&gn.lock);
	if (gn.inits)
		*count = gn.ndev;
	else
		r = NVML_ERROR_UNINITIALIZED;
	pthread_mutex_unlock(&gn.lock);
	return r;
}

nvmlReturn_t nvmlDeviceGetCount(unsigned int *count)
{
	return nvmlDeviceGetCount_v2(count);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
	nvmlReturn_t r = NVML_SUCCESS;

	if (!device)
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&gn.lock);
	if (!gn.inits)
		r = NVML_ERROR_UNINITIALIZED;
	else if (index >= gn.ndev)
		r = NVML_ERROR_INVALID_ARGUMENT;
	else
		*device = &gn.dev[index];
	pthread_mutex_unlock(&gn.lock);
	return r;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device)
{
	return nvmlDeviceGetHandleByIndex_v2(index, device);
}

nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device)
{
	nvmlReturn_t r = NVML_ERROR_NOT_FOUND;
	char s[64];

	if (!uuid || !device)
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&gn.lock);
	if (!gn.inits)
		r = NVML_ERROR_UNINITIALIZED;
	for (unsigned int i = 0; gn.inits && i < gn.ndev && r; i++) {
		uuid_str(&gn.dev[i], s, sizeof(s));
		if (!strcasecmp(s, uuid)) {
			*device = &gn.dev[i];
			r = NVML_SUCCESS;
		}
	}
	pthread_mutex_unlock(&gn.lock);
	return r;
}

/* "domain:bus:device.function" in either of NVML's widths, against the server's address. */
static bool same_bus_id(const struct gdev *g, const char *id)
{
	unsigned int dom, bus, dev, fn;

	if (sscanf(id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4 || !nv(g, GLEAM_NVML_F_PCI))
		return false;
	return dom == g->g.nvml.pci_domain && bus == g->g.nvml.pci_bus &&
	       dev == g->g.nvml.pci_device && fn == 0;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *id, nvmlDevice_t *device)
{
	nvmlReturn_t r = NVML_ERROR_NOT_FOUND;

	if (!id || !device)
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&gn.lock);
	if (!gn.inits)
		r = NVML_ERROR_UNINITIALIZED;
	for (unsigned int i = 0; gn.inits && i < gn.ndev && r; i++) {
		if (same_bus_id(&gn.dev[i], id)) {
			*device = &gn.dev[i];
			r = NVML_SUCCESS;
		}
	}
	pthread_mutex_unlock(&gn.lock);
	return r;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *id, nvmlDevice_t *device)
{
	return nvmlDeviceGetHandleByPciBusId_v2(id, device);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int length)
{
	struct gdev *g;
	nvmlReturn_t r = begin(d, &g);

	return r ? r : end(gn_str(name, length, g->g.info.name));
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int length)
{
	struct gdev *g;
	nvmlReturn_t r = begin(d, &g);
	char s[64];

	if (r)
		return r;
	uuid_str(g, s, sizeof(s));
	return end(gn_str(uuid, length, s));
}

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t d, unsigned int *index)
{
	struct gdev *g;
	nvmlReturn_t r = index ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	*index = g->index;
	return end(NVML_SUCCESS);
}

/* There is no /dev/nvidiaN here: the index stands in for the minor number. */
nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t d, unsigned int *minor)
{
	return nvmlDeviceGetIndex(d, minor);
}

static void fill_pci(const struct gdev *g, struct nvml_pci_info *p)
{
	const struct gleam_gpu_nvml *n = &g->g.nvml;

	memset(p, 0, sizeof(*p));
	p->domain = n->pci_domain;
	p->bus = n->pci_bus;
	p->device = n->pci_device;
	p->pci_device_id = n->pci_device_id;
	p->pci_subsystem_id = n->pci_subsystem_id;
	snprintf(p->bus_id, sizeof(p->bus_id), "%08X:%02X:%02X.0", n->pci_domain & 0xffff,
		 n->pci_bus & 0xff, n->pci_device & 0x1f);
	snprintf(p->bus_id_legacy, sizeof(p->bus_id_legacy), "%04X:%02X:%02X.0",
		 n->pci_domain & 0xffff, n->pci_bus & 0xff, n->pci_device & 0x1f);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, struct nvml_pci_info *pci)
{
	struct gdev *g;
	nvmlReturn_t r = pci ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	if (!nv(g, GLEAM_NVML_F_PCI))
		return end(GN_UNSUPPORTED("nvmlDeviceGetPciInfo (a server without NVML)"));
	fill_pci(g, pci);
	return end(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t d, struct nvml_pci_info *pci)
{
	return nvmlDeviceGetPciInfo_v3(d, pci);
}

/* The first layout: the 16-byte bus id, the numbers, four reserved words. */
struct nvml_pci_info_v1 {
	char bus_id[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	unsigned int reserved[4];
};

nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t d, struct nvml_pci_info_v1 *pci)
{
	struct nvml_pci_info p;
	nvmlReturn_t r;

	if (!pci)
		return NVML_ERROR_INVALID_ARGUMENT;
	r = nvmlDeviceGetPciInfo_v3(d, &p);
	if (r)
		return r;
	/* The first layout is the later one's first fields, the legacy bus id first. */
	_Static_assert(offsetof(struct nvml_pci_info_v1, reserved) ==
		       offsetof(struct nvml_pci_info, bus_id), "the same leading fields");
	memset(pci, 0, sizeof(*pci));
	memcpy(pci, &p, offsetof(struct nvml_pci_info_v1, reserved));
	return NVML_SUCCESS;
}

/* The device's memory: NVML's count, or the server's own (exact on the sim). */
static void memory(const struct gdev *g, struct nvml_memory *m)
{
	if (nv(g, GLEAM_NVML_F_MEM)) {
		m->total = g->g.nvml.mem_total;
		m->used = g->g.nvml.mem_used;
		m->free = g->g.nvml.mem_free;
		return;
	}
	m->total = g->g.usage.mem_total ? g->g.usage.mem_total : g->g.info.total_mem;
	m->used = MIN(g->g.usage.mem_used, m->total);
	m->free = m->total - m->used;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, struct nvml_memory *mem)
{
	struct gdev *g;
	nvmlReturn_t r = mem ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	memory(g, mem);
	return end(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, struct nvml_memory_v2 *mem)
{
	struct nvml_memory m;
	nvmlReturn_t r;

	if (!mem)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (mem->version != NVML_MEMORY_V2)
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	r = nvmlDeviceGetMemoryInfo(d, &m);
	if (r)
		return r;
	mem->total = m.total;
	mem->reserved = 0;
	mem->free = m.free;
	mem->used = m.used;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, struct nvml_utilization *u)
{
	struct gdev *g;
	nvmlReturn_t r = u ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	if (nv(g, GLEAM_NVML_F_UTIL)) {
		u->gpu = g->g.nvml.util_gpu;
		u->memory = g->g.nvml.util_mem;
		return end(NVML_SUCCESS);
	}
	/* The sim counts its own busy time, not its memory's. */
	if ((g->g.flags & GLEAM_CTL_GPU_F_USAGE) && (g->g.usage.flags & GLEAM_USAGE_F_UTIL)) {
		u->gpu = MIN(g->g.usage.util_pct, 100u);
		u->memory = 0;
		return end(NVML_SUCCESS);
	}
	return end(GN_UNSUPPORTED("nvmlDeviceGetUtilizationRates (not measured)"));
}

/* One reading of the server's NVML into *out, or NOT_SUPPORTED. */
static nvmlReturn_t reading(nvmlDevice_t d, unsigned int *out, uint32_t flag, size_t off)
{
	struct gdev *g;
	nvmlReturn_t r = out ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	if (!nv(g, flag))
		return end(NVML_ERROR_NOT_SUPPORTED);
	memcpy(out, (const char *)&g->g.nvml + off, sizeof(*out));
	return end(NVML_SUCCESS);
}

#define READING(d, out, flag, field) \
	reading(d, out, flag, offsetof(struct gleam_gpu_nvml, field))

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *temp)
{
	/* NVML has one sensor, the GPU's (0). */
	if (sensor)
		return NVML_ERROR_INVALID_ARGUMENT;
	return READING(d, temp, GLEAM_NVML_F_TEMP, temp_c);
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw)
{
	return READING(d, mw, GLEAM_NVML_F_POWER, power_mw);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int *mw)
{
	return READING(d, mw, GLEAM_NVML_F_PLIMIT, power_limit_mw);
}

nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t d, unsigned int *mw)
{
	return READING(d, mw, GLEAM_NVML_F_PLIMIT, power_limit_mw);
}

nvmlReturn_t nvmlDeviceGetPowerManagementMode(nvmlDevice_t d, int *mode)
{
	unsigned int mw;
	nvmlReturn_t r = mode ? nvmlDeviceGetEnforcedPowerLimit(d, &mw) : NVML_ERROR_INVALID_ARGUMENT;

	/* A limit is enforced: power management is on. */
	if (!r)
		*mode = 1;
	return r;
}

nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t d, unsigned int *pct)
{
	return READING(d, pct, GLEAM_NVML_F_FAN, fan_pct);
}

nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t d, int *pstate)
{
	return READING(d, (unsigned int *)pstate, GLEAM_NVML_F_PSTATE, pstate);
}

nvmlReturn_t nvmlDeviceGetPowerState(nvmlDevice_t d, int *pstate)
{
	return nvmlDeviceGetPerformanceState(d, pstate);
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int *mode)
{
	return READING(d, (unsigned int *)mode, GLEAM_NVML_F_PERSIST, persistence);
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, int *mode)
{
	return READING(d, (unsigned int *)mode, GLEAM_NVML_F_CMODE, compute_mode);
}

static nvmlReturn_t clock_of(nvmlDevice_t d, int type, unsigned int *mhz, bool max)
{
	const struct gleam_gpu_nvml *n;
	struct gdev *g;
	nvmlReturn_t r = mhz ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	n = &g->g.nvml;
	if (!nv(g, GLEAM_NVML_F_CLOCKS) || type == NVML_CLOCK_VIDEO || type > NVML_CLOCK_VIDEO ||
	    type < 0)
		return end(NVML_ERROR_NOT_SUPPORTED);
	/* The graphics clock is the SM clock on every GPU Gleam serves. */
	if (type == NVML_CLOCK_MEM)
		*mhz = max ? n->clock_mem_max_mhz : n->clock_mem_mhz;
	else
		*mhz = max ? n->clock_sm_max_mhz : n->clock_sm_mhz;
	return end(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
	return clock_of(d, type, mhz, false);
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
	return clock_of(d, type, mhz, true);
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor)
{
	struct gdev *g;
	nvmlReturn_t r = major && minor ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	if (!nv(g, GLEAM_NVML_F_CC))
		return end(NVML_ERROR_NOT_SUPPORTED);
	*major = (int)g->g.nvml.cc_major;
	*minor = (int)g->g.nvml.cc_minor;
	return end(NVML_SUCCESS);
}

/* No display of this machine hangs off a GPU elsewhere. */
nvmlReturn_t nvmlDeviceGetDisplayMode(nvmlDevice_t d, int *mode)
{
	struct gdev *g;
	nvmlReturn_t r = mode ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	*mode = 0;
	return end(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetDisplayActive(nvmlDevice_t d, int *active)
{
	return nvmlDeviceGetDisplayMode(d, active);
}

/*
 * The programs of this machine whose sessions are on the device: the
 * compute processes NVML lists.  Their memory is the server's to know and
 * it keeps no count per session: NVML_VALUE_NOT_AVAILABLE.
 */
static nvmlReturn_t processes(nvmlDevice_t d, unsigned int *count, void *infos, size_t stride,
			      bool compute)
{
	unsigned int pids[GLEAM_CTL_PROCS_MAX], n = 0;
	struct gdev *g;
	nvmlReturn_t r = count ? begin(d, &g) : NVML_ERROR_INVALID_ARGUMENT;

	if (r)
		return r;
	if (compute)
		n = gn_procs(g, pids, NULL, GLEAM_CTL_PROCS_MAX);
	if (n > *count || (n && !infos)) {
		*count = n;
		return end(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	for (unsigned int i = 0; i < n; i++) {
		struct nvml_process_v2 p = { .pid = pids[i], .used_gpu_memory = NVML_VALUE_NOT_AVAILABLE,
					     .gpu_instance_id = ~0U, .compute_instance_id = ~0U };

		/* v1 entries are the first two fields of v2's. */
		memcpy((char *)infos + i * stride, &p, stride);
	}
	*count = n;
	return end(NVML_SUCCESS);
}

#define PROCS(name, type, compute)						\
nvmlReturn_t name(nvmlDevice_t d, unsigned int *count, type *infos)		\
{										\
	return processes(d, count, infos, sizeof(type), compute);		\
}

PROCS(nvmlDeviceGetComputeRunningProcesses_v3, struct nvml_process_v2, true)
PROCS(nvmlDeviceGetComputeRunningProcesses_v2, struct nvml_process_v2, true)
PROCS(nvmlDeviceGetComputeRunningProcesses, struct nvml_process_v1, true)
PROCS(nvmlDeviceGetGraphicsRunningProcesses_v3, struct nvml_process_v2, false)
PROCS(nvmlDeviceGetGraphicsRunningProcesses_v2, struct nvml_process_v2, false)
PROCS(nvmlDeviceGetGraphicsRunningProcesses, struct nvml_process_v1, false)
PROCS(nvmlDeviceGetMPSComputeRunningProcesses_v3, struct nvml_process_v2, false)
PROCS(nvmlDeviceGetMPSComputeRunningProcesses_v2, struct nvml_process_v2, false)
PROCS(nvmlDeviceGetMPSComputeRunningProcesses, struct nvml_process_v1, false)
