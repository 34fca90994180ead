// SPDX-License-Identifier: MIT
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdbool.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int gl_log_level = 1;
const char *gl_log_prefix = "gleam";
int gl_log_fd = 2;

void gl_log(int level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	if (level > gl_log_level)
		return;
	n = snprintf(buf, sizeof(buf), "%s: ", gl_log_prefix);
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(buf);
	if (n && buf[n - 1] != '\n') {
		buf[n++] = '\n';
		buf[n] = 0;
	}
	/* One write, so that lines from several processes do not interleave. */
	if (write(gl_log_fd, buf, (size_t)n) < 0)
		return;
}

uint64_t gl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int gl_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int gl_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == ENOTSOCK)
			n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t gl_send_fd(int sock, const void *buf, size_t len, int fd)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		memset(&u, 0, sizeof(u));
		m.msg_control = u.b;
		m.msg_controllen = sizeof(u.b);
		u.h.cmsg_level = SOL_SOCKET;
		u.h.cmsg_type = SCM_RIGHTS;
		u.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&u.h), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

ssize_t gl_recv_fd(int sock, void *buf, size_t len, int *fd)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(4 * sizeof(int))];
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.b, .msg_controllen = sizeof(u.b) };
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int nfd = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			int fds[4];

			memcpy(fds, CMSG_DATA(c), (size_t)nfd * sizeof(int));
			/* Keep the first; a peer that sends more gets them closed. */
			for (int i = 0; i < nfd; i++) {
				if (*fd < 0)
					*fd = fds[i];
				else
					close(fds[i]);
			}
		}
	}
	return n;
}

int gl_local_socket_path(char *buf, size_t len)
{
	const char *env = getenv("GLEAM_SOCKET");
	const char *rt = getenv("XDG_RUNTIME_DIR");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/run/gleam/gleamd.sock");
	else if (rt && *rt)
		n = snprintf(buf, len, "%s/gleam/gleamd.sock", rt);
	else
		n = snprintf(buf, len, "/tmp/gleam-%u/gleamd.sock", (unsigned int)geteuid());
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int gl_mkdir_parent(const char *path)
{
	char tmp[512];
	char *p;

	if (strlen(path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	strcpy(tmp, path);
	p = strrchr(tmp, '/');
	if (!p || p == tmp)
		return 0;
	*p = 0;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* A port: digits only, 1 to 65535. */
static bool port_ok(const char *p)
{
	char *end;
	unsigned long n;

	if (!*p || strspn(p, "0123456789") != strlen(p))
		return false;
	n = strtoul(p, &end, 10);
	return n >= 1 && n <= 65535;
}

int gl_parse_hostport(const char *s, int dflt_port, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	char host[256], port[16];
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	const char *colon;
	int err;

	if (s[0] == '[') {
		const char *end = strchr(s, ']');

		if (!end || (size_t)(end - s - 1) >= sizeof(host) || (end[1] && end[1] != ':'))
			return -EINVAL;
		memcpy(host, s + 1, (size_t)(end - s - 1));
		host[end - s - 1] = 0;
		colon = end[1] == ':' ? end + 1 : NULL;
	} else {
		colon = strrchr(s, ':');
		if ((size_t)(colon ? colon - s : (long)strlen(s)) >= sizeof(host))
			return -EINVAL;
		snprintf(host, sizeof(host), "%.*s", colon ? (int)(colon - s) : (int)strlen(s), s);
	}
	if (!host[0])
		return -EINVAL;
	if (colon && (strlen(colon + 1) >= sizeof(port) || !port_ok(colon + 1)))
		return -EINVAL;
	if (colon)
		snprintf(port, sizeof(port), "%s", colon + 1);
	else
		snprintf(port, sizeof(port), "%d", dflt_port);
	err = getaddrinfo(host, port, &hints, &res);
	/* A name that does not resolve is not a route that is missing. */
	if (err == EAI_AGAIN)
		return -EAGAIN;
	if (err == EAI_SYSTEM)
		return errno ? -errno : -ENXIO;
	if (err)
		return -ENXIO;
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

const char *gl_addr_strerror(int err)
{
	switch (err) {
	case -EINVAL:
		return "not HOST[:PORT] with a port from 1 to 65535";
	case -ENXIO:
		return "name lookup failed: no such host";
	case -EAGAIN:
		return "name lookup failed for now: try again";
	default:
		return strerror(-err);
	}
}

bool gl_env_bool(const char *name, bool dflt)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return dflt;
	return strcmp(v, "0") && strcasecmp(v, "off") && strcasecmp(v, "no") &&
	       strcasecmp(v, "false");
}

void gl_peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[64], port[16];

	if (getpeername(fd, (struct sockaddr *)&ss, &sl) ||
	    getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

int gl_secret_eq(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

int gl_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end == 'i' || *end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

long gl_find_le(const void *array, size_t n, size_t size, uint64_t p)
{
	const unsigned char *a = array;
	long lo = 0, hi = (long)n - 1, best = -1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;
		uint64_t key;

		memcpy(&key, a + (size_t)mid * size, sizeof(key));
		if (key <= p) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}
