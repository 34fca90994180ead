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
	"NAME-up / NAME-down), cut [T], stall [T], restore, show, stats, help";

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

int control_exec(struct relay *r, const char *line, char *reply, size_t len)
{
	char copy[512], *save, *cmd, *arg, *extra;
	uint64_t v;
	int ret;

	snprintf(copy, sizeof(copy), "%s", line);
	cmd = strtok_r(copy, " \t\r\n", &save);
	if (!cmd || cmd[0] == '#') {
		snprintf(reply, len, "ok");
		return 0;
	}
	arg = strtok_r(NULL, " \t\r\n", &save);
	extra = strtok_r(NULL, " \t\r\n", &save);
	if (extra) {
		snprintf(reply, len, "error: too many arguments");
		return -EINVAL;
	}
	if (!strcmp(cmd, "cut")) {
		v = NO_TIME;
		if (arg && parse_time(arg, &v)) {
			snprintf(reply, len, "error: bad time '%s'", arg);
			return -EINVAL;
		}
		relay_cut(r, v);
		snprintf(reply, len, "ok");
		return 0;
	}
	if (!strcmp(cmd, "stall")) {
		v = NO_TIME;
		if (arg && parse_time(arg, &v)) {
			snprintf(reply, len, "error: bad time '%s'", arg);
			return -EINVAL;
		}
		relay_stall(r, v);
		snprintf(reply, len, "ok");
		return 0;
	}
	if (!strcmp(cmd, "restore")) {
		relay_stall(r, 0);
		relay_restore(r);
		snprintf(reply, len, "ok");
		return 0;
	}
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
