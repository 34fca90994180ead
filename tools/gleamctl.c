// SPDX-License-Identifier: MIT
/*
 * gleamctl: what a person (or a script, with --json) needs to see of Gleam.
 *
 *   gleamctl status [--json]        sessions of the local gleamd, and its
 *                                   server's GPUs
 *   gleamctl server-info HOST[:PORT] [--json]
 *   gleamctl cache [stats|list|clear] [HOST[:PORT]] [--json]
 *                                   a server's chunk store (the local
 *                                   gleamd's server by default)
 *   gleamctl servers [list|add HOST[:PORT]|remove HOST[:PORT]] [--json]
 *                                   the local gleamd's servers
 *   gleamctl assign vgpuN|socket SERVER[:GPU]|GPU[,GPU...]
 *   gleamctl assign --clear vgpuN|socket
 *                                   pin sessions to a server (and GPU),
 *                                   or give them GPUs (UUID or
 *                                   SERVER:GPU) as devices 0..N-1
 *   gleamctl stats [--json] [--watch]
 *                                   links, GPUs, and where sessions went
 *                                   (Documentation/scheduler.md)
 *   gleamctl tls init DIR [NAME...] | tls issue DIR NAME...
 *                                   a CA and identities (gleamctl-tls.c)
 *
 * A server with credentials is reached with TLS: --tls-cert FILE
 * [--tls-key FILE] [--tls-ca FILE], anywhere on the line, or
 * $GLEAM_TLS_CERT (_KEY, _CA), or else the credentials gleam-run made
 * beside the local socket (its directory's tls/client.pem).
 *
 * Every command parses its options with getopt_long: an unknown option, a
 * missing or extra operand is a usage error (exit 2), --help anywhere
 * prints the usage (exit 0).  What gleamd refuses exits 1.  man gleamctl.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <openssl/ssl.h>

#include "gleam_local.h"
#include "gleam_cache.h"
#include "gleam_wire.h"
#include "gleamctl.h"
#include "tls.h"
#include "util.h"

/*
 * TLS to servers, where credentials are given: the one connection open at
 * a time is tls_fd, its state tls_ssl; any other descriptor is plain.
 */
static struct {
	struct gl_tls_files files;
	struct ssl_ctx_st *ctx;
	bool tried;
	bool implicit;		/* found beside the local socket, not named */
	int fd;
	struct ssl_st *ssl;
} tls = { .fd = -1 };

static int srv_read(int fd, void *buf, size_t len)
{
	return fd == tls.fd ? gl_tls_read_full(tls.ssl, buf, len) : gl_read_full(fd, buf, len);
}

static int srv_write(int fd, const void *buf, size_t len)
{
	return fd == tls.fd ? gl_tls_write_full(tls.ssl, buf, len) : gl_write_full(fd, buf, len);
}

static void srv_close(int fd)
{
	if (fd == tls.fd) {
		SSL_free(tls.ssl);
		tls.ssl = NULL;
		tls.fd = -1;
	}
	close(fd);
}

static int local_request_arg(unsigned int op, const char *arg, char **out)
{
	struct gleam_local_hello h = { .magic = GLEAM_LOCAL_MAGIC, .version = GLEAM_LOCAL_VERSION,
				       .kind = GLEAM_LOCAL_CONTROL };
	struct gleam_ctl_req req = { .op = op };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *buf;
	ssize_t n;
	int fd;

	if (gl_local_socket_path(sa.sun_path, sizeof(sa.sun_path)))
		return -ENAMETOOLONG;
	if (arg && strlen(arg) >= sizeof(req.arg)) {
		fprintf(stderr, "gleamctl: argument too long\n");
		return -ENAMETOOLONG;
	}
	if (arg)
		strcpy(req.arg, arg);
	snprintf(h.program, sizeof(h.program), "gleamctl");
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		fprintf(stderr, "gleamctl: no gleamd at %s: %s\n", sa.sun_path, strerror(-err));
		close(fd);
		return err;
	}
	buf = malloc(GLEAM_CTL_REPLY_MAX + 1);
	if (!buf || send(fd, &h, sizeof(h), MSG_NOSIGNAL) != sizeof(h) ||
	    send(fd, &req, sizeof(req), MSG_NOSIGNAL) != sizeof(req)) {
		free(buf);
		close(fd);
		return -EIO;
	}
	n = recv(fd, buf, GLEAM_CTL_REPLY_MAX, 0);
	close(fd);
	if (n <= 0) {
		free(buf);
		return -EIO;
	}
	buf[n] = 0;
	*out = buf;
	return 0;
}

static int local_request(unsigned int op, char **out)
{
	return local_request_arg(op, NULL, out);
}

static int read_frame(int fd, struct gleam_frame *f, void *p, size_t cap)
{
	int err = srv_read(fd, f, sizeof(*f));

	if (err)
		return err;
	if (f->magic != GLEAM_WIRE_MAGIC || f->len > cap)
		return -EPROTO;
	return srv_read(fd, p, f->len);
}

static int write_frame(int fd, uint16_t type, const void *p, uint32_t len)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = type, .len = len };
	int err = srv_write(fd, &f, sizeof(f));

	return err ? err : srv_write(fd, p, len);
}

/*
 * What is in use on the server, where it has GLEAM_WIRE_F_USAGE: kept here
 * by info_exchange() for print_info(), whose arguments stay those of a
 * server that does not say.
 */
static struct {
	bool have;
	struct gleam_server_usage server;
	struct gleam_gpu_usage gpus[GLEAM_GPUS_MAX];
} in_use;

/*
 * A server gleamd's GPUs, and what is in use where it says, over a control
 * connection already open on fd: what the server sends is checked before
 * it is used.
 */
static int info_exchange(int fd, struct gleam_server_info *info, struct gleam_gpu_info *gpus)
{
	struct gleam_hello h = { .version = GLEAM_WIRE_VERSION, .min_version = GLEAM_WIRE_VERSION,
				 .features = GLEAM_WIRE_F_USAGE, .kind = GLEAM_HELLO_CONTROL };
	static unsigned char buf[sizeof(struct gleam_server_info) +
				 GLEAM_GPUS_MAX * sizeof(struct gleam_gpu_info) +
				 sizeof(struct gleam_server_usage) +
				 GLEAM_GPUS_MAX * sizeof(struct gleam_gpu_usage)];
	struct gleam_hello_ack ack;
	struct gleam_frame f;
	bool have = false;
	int err;

	in_use.have = false;
	snprintf(h.program, sizeof(h.program), "gleamctl");
	err = write_frame(fd, GLEAM_FRAME_HELLO, &h, sizeof(h));
	if (!err)
		err = read_frame(fd, &f, buf, sizeof(buf));
	if (!err && f.type != GLEAM_FRAME_HELLO_ACK)
		err = -EPROTO;
	if (!err && f.len == sizeof(ack)) {
		memcpy(&ack, buf, sizeof(ack));
		/* An older server leaves the bit off, and its INFO ends with the GPUs. */
		have = ack.features & GLEAM_WIRE_F_USAGE;
	}
	if (!err)
		err = write_frame(fd, GLEAM_FRAME_INFO_REQ, NULL, 0);
	if (!err)
		err = read_frame(fd, &f, buf, sizeof(buf));
	if (!err && (f.type != GLEAM_FRAME_INFO || f.len < sizeof(*info)))
		err = -EPROTO;
	if (!err) {
		size_t n;

		memcpy(info, buf, sizeof(*info));
		n = sizeof(*info) + (size_t)info->ngpus * sizeof(*gpus);
		if (have)
			n += sizeof(in_use.server) + (size_t)info->ngpus * sizeof(in_use.gpus[0]);
		if (info->ngpus > GLEAM_GPUS_MAX || f.len != n) {
			err = -EPROTO;
		} else {
			const unsigned char *p = buf + sizeof(*info) + info->ngpus * sizeof(*gpus);

			memcpy(gpus, buf + sizeof(*info), info->ngpus * sizeof(*gpus));
			if (have) {
				memcpy(&in_use.server, p, sizeof(in_use.server));
				memcpy(in_use.gpus, p + sizeof(in_use.server),
				       info->ngpus * sizeof(in_use.gpus[0]));
				in_use.have = true;
			}
		}
	}
	return err;
}

/*
 * The credentials to reach servers with: from the command line, else the
 * environment, else gleam-run's beside the local socket; none: plain.
 */
static bool find_credentials(void)
{
	const char *e;
	char sock[200];
	char *slash;

	if (!tls.files.cert[0] && (e = getenv("GLEAM_TLS_CERT")) && *e) {
		snprintf(tls.files.cert, sizeof(tls.files.cert), "%s", e);
		if ((e = getenv("GLEAM_TLS_KEY")))
			snprintf(tls.files.key, sizeof(tls.files.key), "%s", e);
		if ((e = getenv("GLEAM_TLS_CA")))
			snprintf(tls.files.ca, sizeof(tls.files.ca), "%s", e);
	}
	if (!tls.files.cert[0] && !gl_local_socket_path(sock, sizeof(sock)) &&
	    (slash = strrchr(sock, '/'))) {
		*slash = 0;
		snprintf(tls.files.cert, sizeof(tls.files.cert), "%s/tls/client.pem", sock);
		if (access(tls.files.cert, R_OK))
			tls.files.cert[0] = 0;
		tls.implicit = tls.files.cert[0] != 0;
	}
	return gl_tls_complete(&tls.files);
}

/* TLS on fd, connected to addr, where there are credentials; 0 or -errno. */
static int start_tls(int fd, const char *addr)
{
	char err[256], host[256];
	int r;

	if (!tls.tried) {
		tls.tried = true;
		if (find_credentials()) {
			tls.ctx = gl_tls_ctx(false, &tls.files, err, sizeof(err));
			if (!tls.ctx)
				fprintf(stderr, "gleamctl: cannot use the credentials: %s\n", err);
		}
	}
	if (!tls.ctx)
		return tls.files.cert[0] ? -EACCES : 0;
	if (gl_host_of(addr, host, sizeof(host)))
		return -EINVAL;
	r = gl_tls_connect_fd(tls.ctx, fd, host, &tls.ssl, err, sizeof(err));
	/* Credentials nobody named are gleam-run's: another server may be plain. */
	if (r && tls.implicit)
		return -EAGAIN;
	if (r) {
		fprintf(stderr, "gleamctl: %s: %s\n", addr, err);
		return r;
	}
	tls.fd = fd;
	return 0;
}

/* A TCP connection to a server gleamd whose reads give up after timeout_s; fd or -errno. */
static int tcp_connect(const struct sockaddr_storage *ss, socklen_t sl, long timeout_s)
{
	struct timeval tv = { .tv_sec = timeout_s };
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (const struct sockaddr *)ss, sl) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static int server_connect(const char *addr, long timeout_s)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, err;

	err = gl_parse_hostport(addr, GLEAM_WIRE_PORT, &ss, &sl);
	if (err)
		return err;
	fd = tcp_connect(&ss, sl, timeout_s);
	if (fd < 0)
		return fd;
	err = start_tls(fd, addr);
	if (err == -EAGAIN) {
		/* gleam-run's credentials, which the user did not name, and a plain server. */
		close(fd);
		return tcp_connect(&ss, sl, timeout_s);
	}
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* How long server-info waits for an answer. */
#define SERVER_INFO_WAIT_S	5

static int server_info(const char *addr, struct gleam_server_info *info,
		       struct gleam_gpu_info *gpus)
{
	int fd = server_connect(addr, SERVER_INFO_WAIT_S), err;

	if (fd < 0)
		return fd;
	err = info_exchange(fd, info, gpus);
	srv_close(fd);
	/* A read that gave up: something took the connection and never answered. */
	return err == -EAGAIN || err == -EWOULDBLOCK ? -ETIMEDOUT : err;
}

/*
 * A string the server chose, printed so that it cannot break what prints
 * it: escaped for JSON, and anything unprintable shown as '?' (a terminal
 * takes control characters as commands; JSON takes no raw ones).
 */
static void put_str(FILE *out, const char *s, bool json)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c > 0x7e)
			c = '?';
		else if (json && (c == '"' || c == '\\'))
			fputc('\\', out);
		fputc(c, out);
	}
}

/* Text from gleamd, printed as it is but for control characters (newlines stay). */
static void put_text(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((*s < 0x20 || *s > 0x7e) && *s != '\n' ? '?' : *s, out);
}

/* What server_info() found, or err, as text or JSON. */
static void print_info(FILE *out, const char *addr, int err, struct gleam_server_info *info,
		       struct gleam_gpu_info *gpus, bool json)
{
	fputs(json ? "{\"address\":\"" : "server ", out);
	put_str(out, addr, json);
	if (err) {
		/* A name that does not resolve is said so, not taken for a missing route. */
		bool addr_err = err == -EINVAL || err == -ENXIO || err == -EAGAIN;

		if (err == -ETIMEDOUT && !json)
			fprintf(out, ": took the connection but did not answer in %d s "
				"(not a server gleamd?)\n", SERVER_INFO_WAIT_S);
		else
			fprintf(out, json ? "\",\"error\":\"%s%s\"}" : ": %s%s\n",
				json || addr_err ? "" : "unreachable: ", gl_addr_strerror(err));
		return;
	}
	info->backend[sizeof(info->backend) - 1] = 0;
	info->host[sizeof(info->host) - 1] = 0;
	fputs(json ? "\",\"host\":\"" : " (", out);
	put_str(out, info->host, json);
	fputs(json ? "\",\"backend\":\"" : "): backend ", out);
	put_str(out, info->backend, json);
	fprintf(out, json ? "\",\"driver_version\":%d,\"sessions\":%u" : ", driver %d, %u session(s)",
		info->driver_version, info->sessions);
	if (in_use.have)
		fprintf(out, json ? ",\"workers\":%u,\"untracked_workers\":%u" : ", %u worker(s)",
			in_use.server.workers, in_use.server.untracked);
	fputs(json ? ",\"gpus\":[" : "\n", out);
	if (!json && in_use.have && in_use.server.untracked)
		fprintf(out, "  %u worker(s) found no room in the accounting: what follows may be short\n",
			in_use.server.untracked);
	for (unsigned int i = 0; i < info->ngpus; i++) {
		const struct gleam_gpu_usage *g = &in_use.gpus[i];

		gpus[i].name[sizeof(gpus[i].name) - 1] = 0;
		if (json)
			fprintf(out, "%s{\"index\":%u,\"name\":\"", i ? "," : "", i);
		else
			fprintf(out, "  GPU %u: ", i);
		put_str(out, gpus[i].name, json);
		fprintf(out, json ? "\",\"total_mem\":%llu" : ", %llu MiB",
			(unsigned long long)(json ? gpus[i].total_mem : gpus[i].total_mem >> 20));
		if (in_use.have && json)
			fprintf(out, ",\"mem_used\":%llu,\"mem_used_exact\":%s,\"workers\":%u",
				(unsigned long long)g->mem_used,
				g->flags & GLEAM_USAGE_F_EXACT ? "true" : "false", g->workers);
		else if (in_use.have)
			fprintf(out, "; in use by %u worker(s): %llu bytes%s", g->workers,
				(unsigned long long)g->mem_used,
				g->flags & GLEAM_USAGE_F_EXACT ? "" : " (the driver's count for the device)");
		fputs(json ? "}" : "\n", out);
	}
	if (json)
		fputs("]}", out);
}

static int print_server(const char *addr, bool json)
{
	static struct gleam_gpu_info gpus[GLEAM_GPUS_MAX];
	struct gleam_server_info info;
	int err = server_info(addr, &info, gpus);

	print_info(stdout, addr, err, &info, gpus, json);
	return err;
}

/*
 * The next server's address in the client gleamd's status text, from *pos
 * on ("server: " lines); *pos moves past it.
 */
static const char *status_server_next(const char **pos, char *buf, size_t len)
{
	const char *p = strstr(*pos, "server: ");
	char a[256];

	if (!p || sscanf(p, "server: %255s", a) != 1 || strlen(a) >= len)
		return NULL;
	*pos = p + 8;
	strcpy(buf, a);
	return buf;
}

/* The first server's address. */
static const char *status_server(const char *text, char *buf, size_t len)
{
	return status_server_next(&text, buf, len);
}

static int cmd_status(bool json)
{
	char *text = NULL, *js = NULL, addr[256];
	const char *pos;
	int err = local_request(GLEAM_CTL_STATUS, &text);
	unsigned int n = 0;

	if (err)
		return 1;
	pos = text;
	if (json) {
		err = local_request(GLEAM_CTL_STATUS_JSON, &js);
		if (err) {
			free(text);
			return 1;
		}
		js[strcspn(js, "\n")] = 0;
		printf("{\"client\":%s,\"servers\":[", js);
		/* Every server the client names, at most as many as it may have. */
		while (n < 64 && status_server_next(&pos, addr, sizeof(addr))) {
			if (n++)
				putchar(',');
			print_server(addr, true);
		}
		printf("]}\n");
		free(js);
	} else {
		put_text(stdout, text);
		while (n++ < 64 && status_server_next(&pos, addr, sizeof(addr)))
			print_server(addr, false);
	}
	free(text);
	return 0;
}

/* ---- the scheduler: servers, assign, stats ---- */

/*
 * A request to the local gleamd whose answer is printed: "ok"/"error:"
 * for changes, text or JSON for reports.  The answer is the daemon's and
 * is printed printable only.  1 on any error.
 */
static int ask_print(unsigned int op, const char *arg, bool json)
{
	char *r = NULL;
	size_t n;

	if (local_request_arg(op, arg, &r))
		return 1;
	n = strlen(r);
	if (json) {
		while (n && r[n - 1] == '\n')
			r[--n] = 0;
		put_str(stdout, r, false);
		putchar('\n');
	} else if (!strncmp(r, "error: ", 7)) {
		fputs("gleamctl: ", stderr);
		put_text(stderr, r + 7);
	} else if (!strncmp(r, "ok: warning: ", 13)) {
		/* Done, with something the person should know: on stderr, not in the answer. */
		fputs("gleamctl: warning: ", stderr);
		put_text(stderr, r + 13);
		fflush(stderr);
		puts("ok");
	} else {
		put_text(stdout, r);
	}
	n = !strncmp(r, "error: ", 7);
	free(r);
	return (int)n;
}

/* Syntax only (gleamd resolves): HOST, HOST:PORT or [V6]:PORT, a port 1..65535. */
static bool addr_ok(const char *a)
{
	const char *host_end = a[0] == '[' ? strchr(a, ']') : NULL;
	const char *colon = a[0] == '[' ? (host_end && host_end[1] == ':' ? host_end + 1 : NULL) :
			    strrchr(a, ':');
	char *end;
	unsigned long port;

	if (!*a || strlen(a) >= 256 || (a[0] == '[' && (!host_end || (host_end[1] && !colon))))
		return false;
	if (colon == a || strspn(a, " \t") || strchr(a, ' '))
		return false;
	if (!colon)
		return true;
	if (!colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return false;
	port = strtoul(colon + 1, &end, 10);
	return port >= 1 && port <= 65535;
}

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "gleamctl %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (gleamctl %s --help)\n", cmd);
	return 2;
}

static int cmd_servers(const char *verb, const char *addr, bool json)
{
	if (!strcmp(verb, "list")) {
		if (addr)
			return usage_error("servers", "list takes no address: '%s'", addr);
		return ask_print(json ? GLEAM_CTL_SERVERS_JSON : GLEAM_CTL_SERVERS, NULL, json);
	}
	if (strcmp(verb, "add") && strcmp(verb, "remove"))
		return usage_error("servers", "list, add or remove, not '%s'", verb);
	if (!addr)
		return usage_error("servers", "%s needs HOST[:PORT]", verb);
	if (json)
		return usage_error("servers", "%s has no --json", verb);
	if (!addr_ok(addr))
		return usage_error("servers", "not HOST[:PORT] with a port from 1 to 65535: '%s'", addr);
	return ask_print(!strcmp(verb, "add") ? GLEAM_CTL_SERVER_ADD : GLEAM_CTL_SERVER_REMOVE,
			 addr, false);
}

/* vgpuN or socket. */
static bool what_ok(const char *w)
{
	if (!strcmp(w, "socket"))
		return true;
	return !strncmp(w, "vgpu", 4) && w[4] && strlen(w) <= 7 &&
	       strspn(w + 4, "0123456789") == strlen(w + 4);
}

/* SERVER[:GPU], where SERVER is HOST[:PORT]: one or two colons at most (IPv6 in brackets). */
static bool target_ok(const char *t)
{
	char buf[256];
	const char *colon = strrchr(t, ':');

	if (addr_ok(t))
		return true;
	if (!colon || (size_t)(colon - t) >= sizeof(buf) || !colon[1] ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1) || strlen(colon + 1) > 2)
		return false;
	memcpy(buf, t, (size_t)(colon - t));
	buf[colon - t] = 0;
	return addr_ok(buf);
}

/*
 * GPU[,GPU...]: each GPU a UUID ("GPU-" and as much of it as names one, as
 * in CUDA_VISIBLE_DEVICES) or SERVER:GPU; gleamd checks them against what
 * its servers said.
 */
static bool list_ok(const char *t)
{
	char e[256];

	if (!*t || t[strlen(t) - 1] == ',')
		return false;
	while (*t) {
		size_t l = strcspn(t, ",");

		if (!l || l >= sizeof(e))
			return false;
		memcpy(e, t, l);
		e[l] = 0;
		if (!strncmp(e, "GPU-", 4)) {
			if (l < 5 || strspn(e + 4, "0123456789abcdefABCDEF-") != l - 4)
				return false;
		} else if (!strchr(e, ':') || !target_ok(e)) {
			/* SERVER:GPU; which colon ends the server, gleamd tells. */
			return false;
		}
		t += l + !!t[l];
	}
	return true;
}

static int cmd_assign(const char *what, const char *target, bool clear)
{
	char arg[sizeof(((struct gleam_ctl_req *)0)->arg)];

	if (!what_ok(what))
		return usage_error("assign", "pin vgpuN or socket, not '%s'", what);
	if (clear) {
		if (target)
			return usage_error("assign", "--clear takes no server: '%s'", target);
		return ask_print(GLEAM_CTL_ASSIGN_CLEAR, what, false);
	}
	if (!target)
		return usage_error("assign", "%s to which SERVER[:GPU] or GPU[,GPU...]?", what);
	if (strchr(target, ',') || !strncmp(target, "GPU-", 4)) {
		if (!list_ok(target))
			return usage_error("assign", "not GPU[,GPU...], each a UUID (GPU-...) or "
					   "SERVER:GPU: '%s'", target);
	} else if (!target_ok(target)) {
		return usage_error("assign", "not SERVER[:GPU] (SERVER is HOST[:PORT]) or "
				   "GPU[,GPU...]: '%s'", target);
	}
	if ((size_t)snprintf(arg, sizeof(arg), "%s %s", what, target) >= sizeof(arg))
		return usage_error("assign", "arguments too long: '%s'", target);
	return ask_print(GLEAM_CTL_ASSIGN, arg, false);
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int cmd_stats(bool json, bool watch)
{
	int err;

	if (!watch)
		return ask_print(json ? GLEAM_CTL_STATS_JSON : GLEAM_CTL_STATS, NULL, json);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* Each second: the screen again (text), or one more line (JSON). */
	while (!stop) {
		if (!json)
			fputs("\033[H\033[2J", stdout);
		err = ask_print(json ? GLEAM_CTL_STATS_JSON : GLEAM_CTL_STATS, NULL, json);
		fflush(stdout);
		if (err)
			return err;
		sleep(1);
	}
	return 0;
}

/* A connected control connection to a server gleamd, its hello answered; fd or -errno. */
static int control_connect(const char *addr)
{
	struct gleam_hello h = { .version = GLEAM_WIRE_VERSION, .min_version = GLEAM_WIRE_VERSION,
				 .kind = GLEAM_HELLO_CONTROL };
	struct gleam_hello_ack ack;
	struct gleam_frame f;
	int fd = server_connect(addr, 30), err;

	if (fd < 0)
		return fd;
	snprintf(h.program, sizeof(h.program), "gleamctl");
	err = write_frame(fd, GLEAM_FRAME_HELLO, &h, sizeof(h));
	if (!err)
		err = read_frame(fd, &f, &ack, sizeof(ack));
	if (!err && (f.type != GLEAM_FRAME_HELLO_ACK || f.len != sizeof(ack) || ack.status))
		err = -EPROTO;
	if (err) {
		srv_close(fd);
		return err;
	}
	return fd;
}

/* A number in the server's JSON report, by key; 0 when absent. */
static unsigned long long json_num(const char *js, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(js, pat);
	return p ? strtoull(p + strlen(pat), NULL, 10) : 0;
}

/*
 * gleamctl cache [stats|list|clear] [HOST[:PORT]]: a server's chunk store
 * (Documentation/cache.md); the local gleamd's server by default.
 */
static int cmd_cache(const char *verb, const char *addr_arg, bool json)
{
	static const struct { const char *name; unsigned int op; } ops[] = {
		{ "stats", GLEAM_CACHE_CTL_STATS },
		{ "list", GLEAM_CACHE_CTL_LIST },
		{ "clear", GLEAM_CACHE_CTL_CLEAR },
	};
	struct gleam_cache_ctl c = { .op = GLEAM_CACHE_CTL_STATS };
	const char *addr = addr_arg;
	char buf[256], *text = NULL, *rep;
	struct gleam_frame f;
	bool known = false;
	int fd, err;

	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (!strcmp(verb, ops[k].name)) {
			c.op = ops[k].op;
			known = true;
		}
	if (!known)
		return usage_error("cache", "stats, list or clear, not '%s'", verb);
	if (addr && !addr_ok(addr))
		return usage_error("cache", "not HOST[:PORT] with a port from 1 to 65535: '%s'", addr);
	if (!addr) {
		if (local_request(GLEAM_CTL_STATUS, &text))
			return 1;
		addr = status_server(text, buf, sizeof(buf));
		if (!addr) {
			fprintf(stderr, "gleamctl: the local gleamd names no server\n");
			free(text);
			return 1;
		}
	}
	fd = control_connect(addr);
	if (fd < 0) {
		fprintf(stderr, "gleamctl: server %s: %s\n", addr, gl_addr_strerror(fd));
		free(text);
		return 1;
	}
	rep = malloc(GLEAM_FRAME_MAX + 1);
	err = rep ? write_frame(fd, GLEAM_FRAME_CACHE_CTL, &c, sizeof(c)) : -ENOMEM;
	if (!err)
		err = read_frame(fd, &f, rep, GLEAM_FRAME_MAX);
	srv_close(fd);
	if (!err && f.type == GLEAM_FRAME_ERROR && f.len >= sizeof(struct gleam_wire_error)) {
		struct gleam_wire_error *e = (void *)rep;

		e->msg[sizeof(e->msg) - 1] = 0;
		fprintf(stderr, "gleamctl: server %s: ", addr);
		put_str(stderr, e->msg, false);
		fputc('\n', stderr);
		err = -EIO;
	} else if (!err && (f.type != GLEAM_FRAME_CACHE_REPORT || !f.len || rep[f.len - 1])) {
		err = -EPROTO;
	}
	if (err) {
		if (err != -EIO)
			fprintf(stderr, "gleamctl: server %s: %s\n", addr, strerror(-err));
		free(rep);
		free(text);
		return 1;
	}
	/* What the server sent goes out printable only (it may be hostile). */
	if (json) {
		put_str(stdout, rep, false);
		putchar('\n');
	} else {
		unsigned long long bytes = json_num(rep, "bytes");

		printf("chunk store of %s%s\n", addr, c.op == GLEAM_CACHE_CTL_CLEAR ? ": cleared" : "");
		printf("  chunks %llu: %llu in memory (%llu of %llu MiB), %llu on disk (%llu of %llu MiB)\n",
		       json_num(rep, "entries"), json_num(rep, "mem_entries"),
		       json_num(rep, "mem_bytes") >> 20, json_num(rep, "mem_limit") >> 20,
		       json_num(rep, "disk_entries"), json_num(rep, "disk_bytes") >> 20,
		       json_num(rep, "disk_limit") >> 20);
		printf("  found %llu (memory %llu, disk %llu), missed %llu; refused %llu; damaged %llu\n",
		       json_num(rep, "hits_mem") + json_num(rep, "hits_disk"),
		       json_num(rep, "hits_mem"), json_num(rep, "hits_disk"), json_num(rep, "misses"),
		       json_num(rep, "rejected"), json_num(rep, "corrupt"));
		printf("  uploads: %llu records, %llu MiB, %llu MiB received as bytes, %llu MiB saved (%.0f%%)\n",
		       json_num(rep, "records"), bytes >> 20, json_num(rep, "bytes_received") >> 20,
		       json_num(rep, "bytes_saved") >> 20,
		       bytes ? 100.0 * (double)json_num(rep, "bytes_saved") / (double)bytes : 0.0);
		if (c.op == GLEAM_CACHE_CTL_LIST) {
			const char *p = rep;
			unsigned int n = 0;

			while ((p = strstr(p, "\"name\":\"")) && n < 1000000) {
				char name[65];

				p += 8;
				if (sscanf(p, "%64[0-9a-f]", name) == 1)
					printf("  %s %llu\n", name,
					       strtoull(strstr(p, "\"bytes\":") ? strstr(p, "\"bytes\":") + 8 : "0",
							NULL, 10));
				n++;
			}
			if (strstr(rep, "\"complete\":false"))
				printf("  (the listing stops at %u chunks)\n", n);
		}
	}
	free(rep);
	free(text);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: gleamctl status [--json]\n"
		   "       gleamctl server-info HOST[:PORT] [--json]\n"
		   "       gleamctl cache [stats|list|clear] [HOST[:PORT]] [--json]\n"
		   "       gleamctl servers [list] [--json]\n"
		   "       gleamctl servers add|remove HOST[:PORT]\n"
		   "       gleamctl assign vgpuN|socket SERVER[:GPU]|GPU[,GPU...]\n"
		   "       gleamctl assign --clear vgpuN|socket\n"
		   "       gleamctl stats [--json] [--watch]\n"
		   "       gleamctl tls init DIR [NAME...]\n"
		   "       gleamctl tls issue DIR NAME...\n"
		   "       gleamctl --help | --version\n"
		   "The local gleamd is found at $GLEAM_SOCKET or its default path.\n"
		   "Servers with credentials: --tls-cert FILE [--tls-key FILE] [--tls-ca FILE]\n"
		   "(or $GLEAM_TLS_CERT, _KEY, _CA; Documentation/security.md).\n"
		   "Exit status: 0 done, 1 refused or unreachable, 2 usage error.  man gleamctl.\n");
}

/* Take --tls-cert, --tls-key and --tls-ca FILE out of argv, wherever they are; the new argc. */
static int tls_options(int argc, char **argv)
{
	static const struct { const char *opt; size_t off; } o[] = {
		{ "--tls-cert", offsetof(struct gl_tls_files, cert) },
		{ "--tls-key", offsetof(struct gl_tls_files, key) },
		{ "--tls-ca", offsetof(struct gl_tls_files, ca) },
	};
	int n = 1;

	for (int i = 1; i < argc; i++) {
		bool taken = false;

		for (size_t k = 0; k < sizeof(o) / sizeof(o[0]) && i + 1 < argc; k++) {
			if (strcmp(argv[i], o[k].opt))
				continue;
			snprintf((char *)&tls.files + o[k].off, sizeof(tls.files.cert), "%s", argv[++i]);
			taken = true;
		}
		if (!taken)
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

/* What a command accepts: its options (by letter) and how many operands. */
struct cmd {
	const char *name;
	const char *opts;		/* j: --json, w: --watch, c: --clear */
	int min, max;			/* operands */
};

static const struct cmd cmds[] = {
	{ "status", "j", 0, 0 },
	{ "server-info", "j", 1, 1 },
	{ "cache", "j", 0, 2 },
	{ "servers", "j", 0, 2 },
	{ "assign", "c", 1, 2 },
	{ "stats", "jw", 0, 0 },
};

struct cmd_args {
	bool json, watch, clear;
	const char *op[2];
	int nop;
};

/*
 * The options and operands of one command (argv[0] is its name); 0, 1
 * when --help was asked for, or 2 after saying what is wrong.
 */
static int parse_cmd(const struct cmd *c, int argc, char **argv, struct cmd_args *a)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", no_argument, NULL, 'w' },
		{ "clear", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	memset(a, 0, sizeof(*a));
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		if (o == 'h')
			return 1;
		if (o == '?' || !strchr(c->opts, o))
			return usage_error(c->name, "unknown option '%s'", argv[optind - 1]);
		a->json |= o == 'j';
		a->watch |= o == 'w';
		a->clear |= o == 'c';
	}
	for (; optind < argc; optind++) {
		if (a->nop == c->max)
			return usage_error(c->name, "one operand too many: '%s'", argv[optind]);
		a->op[a->nop++] = argv[optind];
	}
	if (a->nop < c->min)
		return usage_error(c->name, "%s", "an operand is missing");
	return 0;
}

static int run_cmd(const struct cmd *c, const struct cmd_args *a)
{
	if (!strcmp(c->name, "status"))
		return cmd_status(a->json);
	if (!strcmp(c->name, "stats"))
		return cmd_stats(a->json, a->watch);
	if (!strcmp(c->name, "assign"))
		return cmd_assign(a->op[0], a->op[1], a->clear);
	if (!strcmp(c->name, "servers"))
		return cmd_servers(a->nop ? a->op[0] : "list", a->nop > 1 ? a->op[1] : NULL, a->json);
	if (!strcmp(c->name, "cache")) {
		/* One operand: an operation, or the server to ask. */
		bool verb = a->nop && (!strcmp(a->op[0], "stats") || !strcmp(a->op[0], "list") ||
				       !strcmp(a->op[0], "clear"));

		if (a->nop == 2 && !verb)
			return usage_error("cache", "stats, list or clear, not '%s'", a->op[0]);
		return cmd_cache(verb ? a->op[0] : "stats",
				 verb ? (a->nop > 1 ? a->op[1] : NULL) : (a->nop ? a->op[0] : NULL),
				 a->json);
	}
	/* server-info: scripts wait on it, so unreachable is a failure. */
	if (!addr_ok(a->op[0]))
		return usage_error("server-info", "not HOST[:PORT] with a port from 1 to 65535: '%s'",
				   a->op[0]);
	{
		int err = print_server(a->op[0], a->json);

		if (a->json)
			putchar('\n');
		return err ? 1 : 0;
	}
}

int main(int argc, char **argv)
{
	struct cmd_args a;
	int r;

	gl_log_prefix = "gleamctl";
	argc = tls_options(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2) {
			fprintf(stderr, "gleamctl: --help takes nothing after it\n");
			return 2;
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		gl_print_version("gleamctl");
		return argc > 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "tls"))
		return cmd_tls(argc, argv);
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		r = parse_cmd(&cmds[i], argc - 1, argv + 1, &a);
		if (r == 1) {
			usage(stdout);
			return 0;
		}
		return r ? r : run_cmd(&cmds[i], &a);
	}
	fprintf(stderr, "gleamctl: unknown command '%s' (gleamctl --help)\n", argv[1]);
	return 2;
}
