// SPDX-License-Identifier: MIT
/*
 * gleamd: one binary, two roles.
 *
 *   gleamd client [--server HOST[:PORT]] [--socket PATH] [--config FILE]
 *   gleamd server [--listen ADDR[:PORT]] [--backend cuda|sim|auto]
 *                 [--cuda-lib PATH] [--config FILE]
 *
 * See Documentation/gleamd.md for the options and the config file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gleamd.h"
#include "nvml.h"
#include "util.h"
#include "worker.h"

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

/*
 * The backend is started in a child: the daemon itself never loads
 * NVIDIA's driver, and a driver that crashes takes only the probe with it.
 */
int server_probe(const char *backend, const char *cuda_lib, struct gleam_server_info *info,
		 struct gleam_gpu_info *gpus, struct gleam_cluster_table *clusters, bool *have_clusters)
{
	const char *order[2] = { backend, NULL };
	int tries = 1;

	if (!strcmp(backend, "auto")) {
		order[0] = "cuda";
		order[1] = "sim";
		tries = 2;
	}
	for (int t = 0; t < tries; t++) {
		struct gleam_devinfo *d;

		if (t && auto_refuses_sim())
			return -ENODEV;
		d = calloc(GLEAM_GPUS_MAX, sizeof(*d));
		int pfd[2], st;
		unsigned int n = 0;
		int ver = 0;
		pid_t pid;

		if (!d || pipe(pfd) < 0) {
			free(d);
			return -ENOMEM;
		}
		pid = fork();
		if (pid == 0) {
			struct gl_backend *be = !strcmp(order[t], "sim") ? &gl_backend_sim_rw :
					       &gl_backend_cuda_rw;
			size_t free_b = 0, total = 0;

			close(pfd[0]);
			if (be->init(cuda_lib) || be->op.f_cuInit(0) ||
			    be->devices(&ver, d, GLEAM_GPUS_MAX, &n))
				_exit(1);
			if (gl_write_full(pfd[1], &ver, sizeof(ver)) ||
			    gl_write_full(pfd[1], &n, sizeof(n)) ||
			    gl_write_full(pfd[1], d, n * sizeof(*d)))
				_exit(1);
			/* How clusters fit each GPU: asked once here, for every session. */
			for (unsigned int i = 0; i < n; i++) {
				struct gleam_cluster_table t;
				uint8_t ok = be->cluster_table && !be->cluster_table((int)i, &t);

				if (!ok)
					memset(&t, 0, sizeof(t));
				if (gl_write_full(pfd[1], &ok, 1) || gl_write_full(pfd[1], &t, sizeof(t)))
					_exit(1);
			}
			(void)free_b;
			(void)total;
			_exit(0);
		}
		close(pfd[1]);
		if (pid > 0 && !gl_read_full(pfd[0], &ver, sizeof(ver)) &&
		    !gl_read_full(pfd[0], &n, sizeof(n)) && n <= GLEAM_GPUS_MAX &&
		    !gl_read_full(pfd[0], d, n * sizeof(*d))) {
			for (unsigned int i = 0; i < n; i++) {
				uint8_t ok = 0;

				if (gl_read_full(pfd[0], &ok, 1) ||
				    gl_read_full(pfd[0], &clusters[i], sizeof(clusters[i])))
					ok = 0;
				have_clusters[i] = ok == 1;
			}
			memset(info, 0, sizeof(*info));
			snprintf(info->backend, sizeof(info->backend), "%s", order[t]);
			gethostname(info->host, sizeof(info->host) - 1);
			info->driver_version = ver;
			info->ngpus = n;
			for (unsigned int i = 0; i < n; i++) {
				memset(&gpus[i], 0, sizeof(gpus[i]));
				snprintf(gpus[i].name, sizeof(gpus[i].name), "%.63s", d[i].name);
				memcpy(gpus[i].uuid, d[i].uuid, 16);
				gpus[i].total_mem = d[i].total_mem;
			}
			close(pfd[0]);
			waitpid(pid, &st, 0);
			free(d);
			if (n || !strcmp(order[t], "sim"))
				return 0;
			continue;
		}
		close(pfd[0]);
		if (pid > 0)
			waitpid(pid, &st, 0);
		free(d);
	}
	return -ENODEV;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: gleamd client [--server HOST[:PORT]] [--socket PATH] [--config FILE]\n"
		"       gleamd server [--listen ADDR[:PORT]] [--backend cuda|sim|auto]\n"
		"                     [--cuda-lib PATH] [--config FILE]\n"
		"       gleamd --version | --help\n"
		"common options: --log-level 0|1|2, --ring-shift N (22..28), --help, --version,\n"
		"                --metrics HOST:PORT (OpenMetrics at /metrics; default port 9464),\n"
		"                --keepalive S (a peer silent S seconds is gone, default 5; 0: never),\n"
		"                --resume S (a dropped session waits S seconds, default 30; 0: never)\n"
		"client options: --flush-us N (timer for records nobody waits for, default 50),\n"
		"                --cache on|off (name large uploads by content, default on),\n"
		"                --server may repeat, --placement auto|round-robin|random,\n"
		"                --state-dir DIR (servers added and pins, default /var/lib/gleam)\n"
		"server options: --cache-dir DIR, --cache-mem SIZE (default 4G),\n"
		"                --cache-disk SIZE (default 64G), --cache on|off\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "socket", required_argument, NULL, 'S' },
		{ "listen", required_argument, NULL, 'l' },
		{ "backend", required_argument, NULL, 'b' },
		{ "cuda-lib", required_argument, NULL, 'c' },
		{ "config", required_argument, NULL, 'f' },
		{ "log-level", required_argument, NULL, 'L' },
		{ "ring-shift", required_argument, NULL, 'r' },
		{ "flush-us", required_argument, NULL, 'F' },
		{ "cache", required_argument, NULL, 'C' },
		{ "keepalive", required_argument, NULL, 'k' },
		{ "resume", required_argument, NULL, 'R' },
		{ "cache-dir", required_argument, NULL, 'D' },
		{ "cache-mem", required_argument, NULL, 'M' },
		{ "cache-disk", required_argument, NULL, 'K' },
		{ "placement", required_argument, NULL, 'P' },
		{ "state-dir", required_argument, NULL, 'T' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct config c;
	enum role role;
	int o;

	if (argc == 2 && !strcmp(argv[1], "--version")) {
		gl_print_version("gleamd");
		return 0;
	}
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "client")) {
		role = ROLE_CLIENT;
	} else if (!strcmp(argv[1], "server")) {
		role = ROLE_SERVER;
	} else {
		usage(stderr);
		return 2;
	}
	gl_log_prefix = role == ROLE_CLIENT ? "gleamd(client)" : "gleamd(server)";
	config_defaults(&c, role);
	optind = 2;
	/* The config file first, so that options override it. */
	for (int i = 2; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--config") && config_load(&c, argv[i + 1])) {
			gl_err("cannot use config file %s", argv[i + 1]);
			return 2;
		}
	}
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		const char *key = NULL;

		switch (o) {
		case 's': key = "server"; break;
		case 'S': key = "socket"; break;
		case 'l': key = "listen"; break;
		case 'b': key = "backend"; break;
		case 'c': key = "cuda-lib"; break;
		case 'r': key = "ring-shift"; break;
		case 'F': key = "flush-us"; break;
		case 'C': key = "cache"; break;
		case 'k': key = "keepalive"; break;
		case 'R': key = "resume"; break;
		case 'D': key = "cache-dir"; break;
		case 'M': key = "cache-mem"; break;
		case 'K': key = "cache-disk"; break;
		case 'P': key = "placement"; break;
		case 'T': key = "state-dir"; break;
		case 'm': key = "metrics"; break;
		case 'V': gl_print_version("gleamd"); return 0;
		case 'f': continue;
		case 'L': gl_log_level = atoi(optarg); continue;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
		if (config_set(&c, key, optarg)) {
			gl_err("bad value for --%s: %s", key, optarg);
			return 2;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	/* What the server's workers hold, shared with each before it is forked. */
	if (role == ROLE_SERVER && wk_usage_init())
		gl_err("cannot map the workers' accounting: server-info will show no usage");
	return role == ROLE_CLIENT ? client_main(&c) : server_main(&c);
}
