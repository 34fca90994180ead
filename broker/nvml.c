// SPDX-License-Identifier: MIT
/*
 * The NVML sampler of a server on the cuda backend.  NVML answers a
 * utilisation query in microseconds, but nvmlInit can take seconds (a GPU
 * without persistence mode wakes up) and a driver in trouble can hang any
 * call: the server's loop must wait for neither, so a child process does
 * the asking and leaves its readings in the memory the server shares with
 * its workers (worker.c), where INFO finds them.  Everything NVML says is
 * checked; anything missing ends the sampler, never the server, and the
 * server then reports no utilisation (no GLEAM_USAGE_F_UTIL).
 *
 * The sampler also reads what a client's libnvidia-ml.so.1 shows of each
 * GPU (memory, temperature, power, PCI address, clocks...) into a table of
 * struct gleam_gpu_nvml shared with the server (nvml_read()); a call NVML
 * lacks or refuses leaves its flag off, and the client says "not
 * supported" for it.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <sys/mman.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "nvml.h"
#include "util.h"
#include "worker.h"

/* NVML's own types, as nvml.h declares them: the header need not be installed. */
typedef int nvml_ret;
typedef struct nvml_dev *nvml_dev;
struct nvml_util {
	unsigned int gpu;	/* percent of the sample period a kernel ran */
	unsigned int memory;
};

#define NVML_OK			0
#define SAMPLE_US		(1000 * 1000)

struct nvml_memory {
	unsigned long long total, free, used;
};

struct nvml_pci {
	char bus_id_legacy[16];
	unsigned int domain, bus, device, device_id, subsystem_id;
	char bus_id[32];
};

static struct {
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error)(nvml_ret);
	nvml_ret (*by_uuid)(const char *, nvml_dev *);
	nvml_ret (*util)(nvml_dev, struct nvml_util *);
	/* For the clients' libnvidia-ml.so.1; each may be missing. */
	nvml_ret (*memory)(nvml_dev, struct nvml_memory *);
	nvml_ret (*temp)(nvml_dev, int, unsigned int *);
	nvml_ret (*power)(nvml_dev, unsigned int *);
	nvml_ret (*plimit)(nvml_dev, unsigned int *);
	nvml_ret (*pci)(nvml_dev, struct nvml_pci *);
	nvml_ret (*fan)(nvml_dev, unsigned int *);
	nvml_ret (*pstate)(nvml_dev, int *);
	nvml_ret (*clock)(nvml_dev, int, unsigned int *);
	nvml_ret (*max_clock)(nvml_dev, int, unsigned int *);
	nvml_ret (*persist)(nvml_dev, int *);
	nvml_ret (*cmode)(nvml_dev, int *);
	nvml_ret (*cc)(nvml_dev, int *, int *);
	nvml_ret (*driver)(char *, unsigned int);
} nv;

/* What NVML said of each GPU, shared with the server (mapped before the fork). */
static struct gleam_gpu_nvml *readings;

void nvml_read(unsigned int gpu, struct gleam_gpu_nvml *out)
{
	memset(out, 0, sizeof(*out));
	if (readings && gpu < GLEAM_GPUS_MAX)
		memcpy(out, &readings[gpu], sizeof(*out));
	out->driver_version[sizeof(out->driver_version) - 1] = 0;
}

#define NVML_CLOCK_SM		1
#define NVML_CLOCK_MEM		2

static void bind_readers(void *h)
{
	static const struct {
		size_t off;		/* of the pointer in nv */
		const char *name;
	} readers[] = {
#define READER(fn, name) { offsetof(__typeof__(nv), fn), name }
		READER(memory, "nvmlDeviceGetMemoryInfo"),
		READER(temp, "nvmlDeviceGetTemperature"),
		READER(power, "nvmlDeviceGetPowerUsage"),
		READER(plimit, "nvmlDeviceGetEnforcedPowerLimit"),
		READER(pci, "nvmlDeviceGetPciInfo_v3"),
		READER(fan, "nvmlDeviceGetFanSpeed"),
		READER(pstate, "nvmlDeviceGetPerformanceState"),
		READER(clock, "nvmlDeviceGetClockInfo"),
		READER(max_clock, "nvmlDeviceGetMaxClockInfo"),
		READER(persist, "nvmlDeviceGetPersistenceMode"),
		READER(cmode, "nvmlDeviceGetComputeMode"),
		READER(cc, "nvmlDeviceGetCudaComputeCapability"),
		READER(driver, "nvmlSystemGetDriverVersion"),
#undef READER
	};

	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++)
		*(void **)((char *)&nv + readers[i].off) = dlsym(h, readers[i].name);
}

/* True when fn exists and answered: the caller sets the flag. */
#define ASKED(fn, ...)	(nv.fn && nv.fn(__VA_ARGS__) == NVML_OK)

/* The readings that do not change while the server runs. */
static void read_fixed(nvml_dev d, struct gleam_gpu_nvml *r, const char *driver)
{
	struct nvml_pci pci;
	int major, minor, v;

	if (ASKED(pci, d, &pci)) {
		r->pci_domain = pci.domain;
		r->pci_bus = pci.bus;
		r->pci_device = pci.device;
		r->pci_device_id = pci.device_id;
		r->pci_subsystem_id = pci.subsystem_id;
		r->flags |= GLEAM_NVML_F_PCI;
	}
	if (ASKED(cc, d, &major, &minor)) {
		r->cc_major = (uint32_t)major;
		r->cc_minor = (uint32_t)minor;
		r->flags |= GLEAM_NVML_F_CC;
	}
	if (ASKED(max_clock, d, NVML_CLOCK_SM, &r->clock_sm_max_mhz) &&
	    ASKED(max_clock, d, NVML_CLOCK_MEM, &r->clock_mem_max_mhz))
		r->flags |= GLEAM_NVML_F_CLOCKS;
	if (ASKED(persist, d, &v)) {
		r->persistence = (uint32_t)v;
		r->flags |= GLEAM_NVML_F_PERSIST;
	}
	if (ASKED(cmode, d, &v)) {
		r->compute_mode = (uint32_t)v;
		r->flags |= GLEAM_NVML_F_CMODE;
	}
	if (driver[0]) {
		snprintf(r->driver_version, sizeof(r->driver_version), "%s", driver);
		r->flags |= GLEAM_NVML_F_DRIVER;
	}
}

/* Once a second: what changes.  Flags of fixed readings stay as they were. */
static void read_live(nvml_dev d, struct gleam_gpu_nvml *r, const struct nvml_util *u, bool util)
{
	const uint32_t live = GLEAM_NVML_F_MEM | GLEAM_NVML_F_UTIL | GLEAM_NVML_F_TEMP |
			      GLEAM_NVML_F_POWER | GLEAM_NVML_F_PLIMIT | GLEAM_NVML_F_FAN |
			      GLEAM_NVML_F_PSTATE;
	struct gleam_gpu_nvml n = *r;
	struct nvml_memory m;
	int ps;

	n.flags &= ~live;
	if (util) {
		n.util_gpu = MIN(u->gpu, 100u);
		n.util_mem = MIN(u->memory, 100u);
		n.flags |= GLEAM_NVML_F_UTIL;
	}
	if (ASKED(memory, d, &m)) {
		n.mem_total = m.total;
		n.mem_used = m.used;
		n.mem_free = m.free;
		n.flags |= GLEAM_NVML_F_MEM;
	}
	if (ASKED(temp, d, 0, &n.temp_c))
		n.flags |= GLEAM_NVML_F_TEMP;
	if (ASKED(power, d, &n.power_mw))
		n.flags |= GLEAM_NVML_F_POWER;
	if (ASKED(plimit, d, &n.power_limit_mw))
		n.flags |= GLEAM_NVML_F_PLIMIT;
	if (ASKED(fan, d, &n.fan_pct))
		n.flags |= GLEAM_NVML_F_FAN;
	if (ASKED(pstate, d, &ps) && ps >= 0 && ps <= 15) {
		n.pstate = (uint32_t)ps;
		n.flags |= GLEAM_NVML_F_PSTATE;
	}
	/* Current clocks ride on the maximum's flag: both or neither are shown. */
	if (!ASKED(clock, d, NVML_CLOCK_SM, &n.clock_sm_mhz) ||
	    !ASKED(clock, d, NVML_CLOCK_MEM, &n.clock_mem_mhz))
		n.clock_sm_mhz = n.clock_mem_mhz = 0;
	*r = n;
}

static const char *nv_error(nvml_ret r)
{
	const char *s = nv.error ? nv.error(r) : NULL;

	return s ? s : "unknown NVML error";
}

static int sample(const struct gleam_gpu_info *gpus, unsigned int n)
{
	nvml_dev dev[GLEAM_GPUS_MAX] = { 0 };
	bool failed[GLEAM_GPUS_MAX] = { 0 };
	char driver[80];
	unsigned int found = 0;
	void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	nvml_ret r;

	if (!h) {
		gl_info("NVML (libnvidia-ml.so.1) not found: GPU utilisation is not reported");
		return 0;
	}
	*(void **)&nv.init = dlsym(h, "nvmlInit_v2");
	*(void **)&nv.shutdown = dlsym(h, "nvmlShutdown");
	*(void **)&nv.error = dlsym(h, "nvmlErrorString");
	*(void **)&nv.by_uuid = dlsym(h, "nvmlDeviceGetHandleByUUID");
	*(void **)&nv.util = dlsym(h, "nvmlDeviceGetUtilizationRates");
	if (!nv.init || !nv.shutdown || !nv.by_uuid || !nv.util) {
		gl_info("NVML lacks the calls it needs: GPU utilisation is not reported");
		return 0;
	}
	bind_readers(h);
	r = nv.init();
	if (r != NVML_OK) {
		gl_info("NVML does not start (%s): GPU utilisation is not reported", nv_error(r));
		return 0;
	}
	n = MIN(n, (unsigned int)GLEAM_GPUS_MAX);
	for (unsigned int i = 0; i < n; i++) {
		char uuid[64];

		gl_uuid_str(gpus[i].uuid, uuid, sizeof(uuid));
		r = nv.by_uuid(uuid, &dev[i]);
		if (r != NVML_OK || !dev[i]) {
			gl_info("NVML does not know GPU %u (%s): %s; its utilisation is not reported",
				i, uuid, nv_error(r));
			dev[i] = NULL;
			continue;
		}
		found++;
	}
	if (!found) {
		nv.shutdown();
		return 0;
	}
	gl_info("NVML: utilisation of %u GPU(s) read once a second", found);
	if (!nv.driver || nv.driver(driver, sizeof(driver)) != NVML_OK)
		driver[0] = 0;
	driver[sizeof(driver) - 1] = 0;
	for (unsigned int i = 0; i < n; i++)
		if (dev[i] && readings)
			read_fixed(dev[i], &readings[i], driver);
	for (;;) {
		for (unsigned int i = 0; i < n; i++) {
			struct nvml_util u = { 0 };

			if (!dev[i])
				continue;
			r = nv.util(dev[i], &u);
			if (readings)
				read_live(dev[i], &readings[i], &u, r == NVML_OK);
			if (r != NVML_OK) {
				/* Once: a GPU that stays unreadable would fill the log. */
				if (!failed[i])
					gl_err("NVML: GPU %u: %s; its utilisation is not reported while "
					       "this lasts", i, nv_error(r));
				failed[i] = true;
				continue;
			}
			failed[i] = false;
			wk_gpu_util(i, u.gpu);
		}
		/* The server is gone: so is the reason to sample. */
		if (getppid() == 1)
			break;
		usleep(SAMPLE_US);
	}
	nv.shutdown();
	return 0;
}

pid_t nvml_start(const struct gleam_gpu_info *gpus, unsigned int n)
{
	pid_t parent, pid;

	/* Shared before the fork: the server reads what the sampler writes. */
	readings = mmap(NULL, GLEAM_GPUS_MAX * sizeof(*readings), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (readings == MAP_FAILED) {
		gl_err("cannot share NVML's readings: %s; clients' NVML shows less", strerror(errno));
		readings = NULL;
	}
	parent = getpid();
	pid = fork();

	if (pid < 0) {
		gl_err("cannot start the NVML sampler: %s; GPU utilisation is not reported",
		       strerror(errno));
		return 0;
	}
	if (pid > 0)
		return pid;
	/* Dies with the server, and keeps no descriptor of its but the log's. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	close_range(3, ~0U, 0);
	/* Told apart from the replay workers by name (ps, tests/integration/kill.sh). */
	prctl(PR_SET_NAME, "gleamd-nvml");
	gl_log_prefix = "gleamd(nvml)";
	_exit(sample(gpus, n));
}

/* A sysfs attribute of one PCI device, trimmed; false when unreadable. */
static bool pci_attr(const char *dev, const char *attr, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, attr);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok;
}

bool nvidia_gpu_present(char *bdf, size_t len)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char vendor[16], class[16];

		if (e->d_name[0] == '.')
			continue;
		/* Vendor 0x10de; class 0x0300xx (VGA) or 0x0302xx (3D controller). */
		found = pci_attr(e->d_name, "vendor", vendor, sizeof(vendor)) &&
			!strcmp(vendor, "0x10de") &&
			pci_attr(e->d_name, "class", class, sizeof(class)) &&
			(!strncmp(class, "0x0300", 6) || !strncmp(class, "0x0302", 6));
		if (found)
			snprintf(bdf, len, "%s", e->d_name);
	}
	closedir(d);
	return found;
}
