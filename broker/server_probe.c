// SPDX-License-Identifier: MIT
/*
 * What a server has to serve: its backend's GPUs, probed once at start
 * (gleamd.h, server_probe).  The backend is started in a child: the daemon
 * itself never loads NVIDIA's driver, and a driver that crashes takes only
 * the probe with it.  The child runs as the workers' user, as they will:
 * a GPU they cannot open is none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gleamd.h"
#include "nvml.h"
#include "util.h"
#include "wk_spawn.h"
#include "worker.h"

/* What one probe found: the driver's version and each GPU with its cluster table. */
struct probe {
	int ver;
	unsigned int n;
	struct gleam_devinfo d[GLEAM_GPUS_MAX];
	uint8_t have_clusters[GLEAM_GPUS_MAX];
	struct gleam_cluster_table clusters[GLEAM_GPUS_MAX];
};

/*
 * --backend auto falls back to the sim only where there is no NVIDIA GPU:
 * on a machine with one whose driver does not start, a sim device would
 * answer its clients' programs in the GPU's place.
 */
static bool auto_refuses_sim(void)
{
	char bdf[64];

	if (!nvidia_gpu_present(bdf, sizeof(bdf))) {
		gl_info("no NVIDIA GPU on this machine: serving the sim backend, a test instrument");
		return false;
	}
	gl_err("--backend auto: an NVIDIA GPU is present (PCI %s) but NVIDIA's driver did not "
	       "start; refusing to serve the sim in its place (--backend sim to serve it anyway)",
	       bdf);
	return true;
}

/* The child: start the backend, write what it says to fd, exit. */
static void __attribute__((noreturn)) probe_child(const char *backend, const char *cuda_lib,
						  int fd)
{
	struct gl_backend *be = !strcmp(backend, "sim") ? &gl_backend_sim_rw : &gl_backend_cuda_rw;
	static struct probe p;

	if (wk_become_user()) {
		gl_err("probe: cannot become the workers' user");
		_exit(1);
	}
	if (be->init(cuda_lib) || be->op.f_cuInit(0) ||
	    be->devices(&p.ver, p.d, GLEAM_GPUS_MAX, &p.n)) {
		gl_err("probe: no %s backend as user %s", backend, wk_spawn_user());
		_exit(1);
	}
	/* How clusters fit each GPU: asked once here, for every session. */
	for (unsigned int i = 0; i < p.n; i++)
		p.have_clusters[i] = be->cluster_table && !be->cluster_table((int)i, &p.clusters[i]);
	_exit(gl_write_full(fd, &p, sizeof(p)) ? 1 : 0);
}

/* One backend's probe, in a child: 0 with p filled, or -errno. */
static int probe_one(const char *backend, const char *cuda_lib, struct probe *p)
{
	int pfd[2], st, err = -ENODEV;
	pid_t pid;

	if (pipe(pfd) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		probe_child(backend, cuda_lib, pfd[1]);
	}
	close(pfd[1]);
	if (pid > 0 && !gl_read_full(pfd[0], p, sizeof(*p)) && p->n <= GLEAM_GPUS_MAX)
		err = 0;
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	return pid < 0 ? -ENOMEM : err;
}

int server_probe(const char *backend, const char *cuda_lib, struct gleam_server_info *info,
		 struct gleam_gpu_info *gpus, struct gleam_cluster_table *clusters, bool *have_clusters)
{
	const char *order[2] = { backend, NULL };
	int tries = 1;
	struct probe *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (!strcmp(backend, "auto")) {
		order[0] = "cuda";
		order[1] = "sim";
		tries = 2;
	}
	for (int t = 0; t < tries; t++) {
		if (t && auto_refuses_sim())
			break;
		memset(p, 0, sizeof(*p));
		/* A cuda backend without GPUs is no backend; the sim always has one. */
		if (probe_one(order[t], cuda_lib, p) || (!p->n && strcmp(order[t], "sim")))
			continue;
		memset(info, 0, sizeof(*info));
		snprintf(info->backend, sizeof(info->backend), "%s", order[t]);
		gethostname(info->host, sizeof(info->host) - 1);
		info->driver_version = p->ver;
		info->ngpus = p->n;
		for (unsigned int i = 0; i < p->n; i++) {
			memset(&gpus[i], 0, sizeof(gpus[i]));
			snprintf(gpus[i].name, sizeof(gpus[i].name), "%.63s", p->d[i].name);
			memcpy(gpus[i].uuid, p->d[i].uuid, 16);
			gpus[i].total_mem = p->d[i].total_mem;
			clusters[i] = p->clusters[i];
			have_clusters[i] = p->have_clusters[i];
		}
		free(p);
		return 0;
	}
	free(p);
	return -ENODEV;
}
