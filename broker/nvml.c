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
 */
#include <dlfcn.h>
#include <errno.h>
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

static struct {
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error)(nvml_ret);
	nvml_ret (*by_uuid)(const char *, nvml_dev *);
	nvml_ret (*util)(nvml_dev, struct nvml_util *);
} nv;

void gpu_uuid_str(const uint8_t *u, char *buf, size_t len)
{
	snprintf(buf, len,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
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
	r = nv.init();
	if (r != NVML_OK) {
		gl_info("NVML does not start (%s): GPU utilisation is not reported", nv_error(r));
		return 0;
	}
	n = MIN(n, (unsigned int)GLEAM_GPUS_MAX);
	for (unsigned int i = 0; i < n; i++) {
		char uuid[64];

		gpu_uuid_str(gpus[i].uuid, uuid, sizeof(uuid));
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
	for (;;) {
		for (unsigned int i = 0; i < n; i++) {
			struct nvml_util u = { 0 };

			if (!dev[i])
				continue;
			r = nv.util(dev[i], &u);
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
	pid_t parent = getpid(), pid = fork();

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
