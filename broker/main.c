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
#include "wk_spawn.h"
#include "worker.h"

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
		"                --cache-disk SIZE (default 64G), --cache on|off\n"
		"security (Documentation/security.md): --tls-cert FILE [--tls-key FILE]\n"
		"                [--tls-ca FILE], --insecure; server: --admin NAME (repeats),\n"
		"                --max-sessions N, --max-sessions-tenant N, --pin-max SIZE,\n"
		"                --pin-mem SIZE, --gpu-mem-session SIZE, --gpu-mem-tenant SIZE,\n"
		"                --worker-user USER, --cache-scope shared|tenant;\n"
		"                client: --admin-group GROUP\n");
}

/*
 * What the daemon did not open is not its own: descriptors inherited from
 * whoever started it (a pipe of a script's, a make's jobserver) would keep
 * them open for as long as the daemon runs.  Standard input and output go
 * to /dev/null; standard error stays, for the log.
 */
static void own_descriptors(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	close_range(3, ~0U, 0);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	if (fd > 2)
		close(fd);
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
		/* Documentation/security.md: each option is its config key. */
		{ "tls-ca", required_argument, NULL, 'Z' },
		{ "tls-cert", required_argument, NULL, 'Z' },
		{ "tls-key", required_argument, NULL, 'Z' },
		{ "insecure", no_argument, NULL, 'Z' },
		{ "admin", required_argument, NULL, 'Z' },
		{ "admin-group", required_argument, NULL, 'Z' },
		{ "max-sessions", required_argument, NULL, 'Z' },
		{ "max-sessions-tenant", required_argument, NULL, 'Z' },
		{ "pin-max", required_argument, NULL, 'Z' },
		{ "pin-mem", required_argument, NULL, 'Z' },
		{ "gpu-mem-session", required_argument, NULL, 'Z' },
		{ "gpu-mem-tenant", required_argument, NULL, 'Z' },
		{ "worker-user", required_argument, NULL, 'Z' },
		{ "cache-scope", required_argument, NULL, 'Z' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct config c;
	enum role role;
	int o, idx;

	/* A replay worker a server started: its descriptors are the server's gift. */
	if (argc == 2 && !strcmp(argv[1], "worker"))
		return worker_exec_main();
	own_descriptors();
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
	while ((o = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
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
		case 'Z': key = opts[idx].name; break;
		case 'm': key = "metrics"; break;
		case 'V': gl_print_version("gleamd"); return 0;
		case 'f': continue;
		case 'L': gl_log_level = atoi(optarg); continue;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
		/* An option without a value (--insecure) says yes. */
		if (config_set(&c, key, optarg ? optarg : "yes")) {
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
