// SPDX-License-Identifier: MIT
/*
 * Run-time commands: one per line, from the control socket or from the
 * control file on SIGUSR1.  "linkem --ctl PATH COMMAND..." is the client.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "linkem.h"

static const char help_text[] =
	"commands: rate R | delay T | jitter T | burst B (each also as "
	"NAME-up / NAME-down), close|reset|refuse|blackhole [T] [new=FATE] "
	"(cut = refuse, stall = blackhole; FATE: refuse, close, reset, hold), "
	"restore, source ADDR:PORT|any, show, stats, help";

void print_params(FILE *f, const char *name, const struct link_params *p,
		  uint64_t depth)
{
	char rate[32], delay[32], jitter[32];

	format_rate(rate, sizeof(rate), p->rate_bps);
	format_time(delay, sizeof(delay), p->delay_ns);
	format_time(jitter, sizeof(jitter), p->jitter_ns);
	fprintf(f, "%s: rate %s", name, rate);
	if (p->rate_bps)
		fprintf(f, " (bucket %llu bytes)", (unsigned long long)depth);
	fprintf(f, ", delay %s, jitter %s", delay, jitter);
}

static int show(struct relay *r, char *reply, size_t len)
{
	struct link_params p[NR_DIRS];
	char *buf = NULL;
	size_t size = 0;
	FILE *f;
	int d;

	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	for (d = 0; d < NR_DIRS; d++) {
		relay_get_params(r, d, &p[d]);
		print_params(f, d == DIR_UP ? "up" : "down", &p[d],
			     relay_bucket_depth(r, d));
		fputs(d == DIR_UP ? "; " : "", f);
	}
	fclose(f);
	snprintf(reply, len, "%s", buf);
	free(buf);
	return 0;
}

/* "rate-up" -> field "rate", directions {up}; "rate" -> both. */
static int set_param(struct relay *r, const char *cmd, const char *arg,
		     char *reply, size_t len)
{
	static const char *const names[] = { "rate", "delay", "jitter", "burst" };
	struct link_params p;
	const char *suffix;
	uint64_t v;
	size_t nl;
	int field, d, lo = 0, hi = NR_DIRS - 1, ret;

	for (field = 0; field < 4; field++) {
		nl = strlen(names[field]);
		if (!strncmp(cmd, names[field], nl))
			break;
	}
	if (field == 4)
		return -ENOENT;
	suffix = cmd + strlen(names[field]);
	if (!strcmp(suffix, "-up"))
		hi = DIR_UP;
	else if (!strcmp(suffix, "-down"))
		lo = DIR_DOWN;
	else if (*suffix)
		return -ENOENT;
	if (!arg) {
		snprintf(reply, len, "error: %s needs a value", cmd);
		return -EINVAL;
	}
	if (field == 0)
		ret = parse_rate(arg, &v);
	else if (field == 3)
		ret = parse_size(arg, &v);
	else
		ret = parse_time(arg, &v);
	if (ret) {
		snprintf(reply, len, "error: bad value '%s' for %s", arg, cmd);
		return ret;
	}
	for (d = lo; d <= hi; d++) {
		relay_get_params(r, d, &p);
		if (field == 0)
			p.rate_bps = v;
		else if (field == 1)
			p.delay_ns = v;
		else if (field == 2)
			p.jitter_ns = v;
		else
			p.burst = v;
		ret = relay_set_params(r, d, &p);
		if (ret)
			return ret;
	}
	snprintf(reply, len, "ok");
	return 0;
}

/*
 * "close|reset|refuse|blackhole [T] [new=FATE]": the link goes down for T
 * (without T: until restore), new connections meeting FATE meanwhile.
 */
static int down(struct relay *r, int mode, char *a1, char *a2, char *reply,
		size_t len)
{
	uint64_t v = NO_TIME;
	int fate = NEW_DEFAULT;
	char *args[2] = { a1, a2 };

	for (int i = 0; i < 2 && args[i]; i++) {
		if (!strncmp(args[i], "new=", 4)) {
			if (fate != NEW_DEFAULT || parse_new(args[i] + 4, &fate)) {
				snprintf(reply, len, "error: bad '%s' (new=refuse, "
					 "close, reset or hold, once)", args[i]);
				return -EINVAL;
			}
		} else if (v != NO_TIME || parse_time(args[i], &v)) {
			snprintf(reply, len, "error: bad time '%s'", args[i]);
			return -EINVAL;
		}
	}
	relay_down(r, mode, fate, v);
	snprintf(reply, len, "ok");
	return 0;
}

/* "source ADDR:PORT" (port 0: any), or "source any". */
static int source(struct relay *r, const char *arg, char *reply, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = 0;

	if (!arg || (strcmp(arg, "any") && parse_addr(arg, true, &ss, &sl))) {
		snprintf(reply, len, "error: source needs ADDR:PORT or 'any'");
		return -EINVAL;
	}
	relay_set_source(r, &ss, sl);
	snprintf(reply, len, "ok");
	return 0;
}

int control_exec(struct relay *r, const char *line, char *reply, size_t len)
{
	char copy[512], *save, *cmd, *arg, *arg2, *extra;
	int ret, mode;

	snprintf(copy, sizeof(copy), "%s", line);
	cmd = strtok_r(copy, " \t\r\n", &save);
	if (!cmd || cmd[0] == '#') {
		snprintf(reply, len, "ok");
		return 0;
	}
	arg = strtok_r(NULL, " \t\r\n", &save);
	arg2 = arg ? strtok_r(NULL, " \t\r\n", &save) : NULL;
	extra = arg2 ? strtok_r(NULL, " \t\r\n", &save) : NULL;
	if (extra || (arg2 && parse_down(cmd, &mode))) {
		snprintf(reply, len, "error: too many arguments");
		return -EINVAL;
	}
	if (!parse_down(cmd, &mode))
		return down(r, mode, arg, arg2, reply, len);
	if (!strcmp(cmd, "restore")) {
		relay_restore(r);
		snprintf(reply, len, "ok");
		return 0;
	}
	if (!strcmp(cmd, "source"))
		return source(r, arg, reply, len);
	if (!strcmp(cmd, "stats")) {
		ret = relay_stats_json(r, reply, len);
		if (ret)
			snprintf(reply, len, "error: %s", strerror(-ret));
		return ret;
	}
	if (!strcmp(cmd, "show"))
		return show(r, reply, len);
	if (!strcmp(cmd, "help")) {
		snprintf(reply, len, "%s", help_text);
		return 0;
	}
	reply[0] = 0;
	ret = set_param(r, cmd, arg, reply, len);
	if (ret == -ENOENT)
		snprintf(reply, len, "error: unknown command '%s' (%s)", cmd,
			 help_text);
	else if (ret && !reply[0])
		snprintf(reply, len, "error: %s", strerror(-ret));
	return ret;
}

int control_apply_file(struct relay *r, const char *path)
{
	char line[512], reply[1100];
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[strspn(line, " \t")])
			continue;
		control_exec(r, line, reply, sizeof(reply));
		fprintf(stderr, "linkem: %s: %s\n", line, reply);
	}
	fclose(f);
	return 0;
}

int control_client(const char *path, int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char line[512], reply[2048];
	size_t n = 0, got = 0;
	ssize_t ret;
	int fd, i;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	for (i = 0; i < argc; i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s",
			      i ? " " : "", argv[i]);
	if (n + 1 >= sizeof(line))
		return -E2BIG;
	line[n++] = '\n';
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    write(fd, line, n) != (ssize_t)n) {
		ret = -errno;
		close(fd);
		return ret;
	}
	shutdown(fd, SHUT_WR);
	while (got < sizeof(reply) - 1 &&
	       (ret = read(fd, reply + got, sizeof(reply) - 1 - got)) > 0)
		got += ret;
	close(fd);
	reply[got] = 0;
	fputs(reply, stdout);
	return strncmp(reply, "error", 5) ? 0 : -EINVAL;
}
