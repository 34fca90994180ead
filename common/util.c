// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdbool.h>
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

int gl_private_dir(const char *path, char *why, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[512];
	struct stat st;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (lstat(dir, &st)) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a directory", dir);
		return -ENOTDIR;
	}
	/* Root's is as safe as our own: nobody else could have made it. */
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(why, len, "%s belongs to uid %u, neither this user (uid %u) nor root", dir,
			 (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, len, "others may write %s (mode %03o)", dir,
			 (unsigned int)(st.st_mode & 0777));
		return -EPERM;
	}
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

void gl_uuid_str(const uint8_t *u, char *buf, size_t len)
{
	snprintf(buf, len,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
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

void gl_harmless(char *s, bool keep_space)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || (c == ' ' && !keep_space))
			*s = '_';
	}
}

int gl_parse_size(const char *s, uint64_t *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned int shift = 0;
	unsigned long long v;
	double frac = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, hex ? 16 : 10);
	if (errno || end == s)
		return -EINVAL;
	if (!hex && *end == '.') {
		double scale = 0.1;

		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10)
			frac += (*end - '0') * scale;
	}
	switch (*end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default: break;
	}
	if (shift) {
		end++;
		if (*end == 'i' || *end == 'I')
			end++;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || v > (~0ULL >> shift))
		return -EINVAL;
	if (frac > 0) {
		double x = ((double)v + frac) * (double)(1ULL << shift);

		if (x >= 18446744073709551616.0)
			return -EINVAL;
		*out = (uint64_t)(x + 0.5);
		return 0;
	}
	*out = (uint64_t)v << shift;
	return 0;
}

/* Room for more: 0, or -1 where memory or max says no. */
static int buf_grow(struct gl_buf *b)
{
	size_t cap = b->cap ? 2 * b->cap : 4096;
	char *p;

	if (b->max && b->cap >= b->max)
		return -1;
	p = realloc(b->b, cap);
	if (!p)
		return -1;
	if (!b->b)
		p[0] = 0;
	b->b = p;
	b->cap = cap;
	return 0;
}

void gl_buf_printf(struct gl_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!b->b && buf_grow(b))
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->b + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			break;
		if (b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		if (buf_grow(b))
			break;
	}
	b->b[b->len] = 0;
}

int gl_ident_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= 64 || name[0] == '.' || name[0] == '-')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

void gl_escape(char *dst, size_t len, const char *src, size_t srclen)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!len)
		return;
	for (size_t i = 0; i < srclen && src[i]; i++) {
		unsigned char c = (unsigned char)src[i];
		bool plain = c >= 0x20 && c < 0x7f && c != '\\';

		if (o + (plain ? 1 : 4) >= len)
			break;
		if (plain) {
			dst[o++] = (char)c;
			continue;
		}
		dst[o++] = '\\';
		dst[o++] = 'x';
		dst[o++] = hex[c >> 4];
		dst[o++] = hex[c & 15];
	}
	dst[o] = 0;
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

int gl_grow(void **arr, size_t n, size_t *cap, size_t size, size_t first)
{
	size_t c;
	void *p;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : first;
	p = realloc(*arr, c * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

int gl_ptrs_add_(void ***v, size_t *n, size_t *cap, void *p)
{
	if (gl_grow((void **)v, *n, cap, sizeof(**v), 4))
		return -1;
	(*v)[(*n)++] = p;
	return 0;
}

bool gl_ptrs_del_(void **v, size_t *n, const void *p)
{
	for (size_t i = 0; i < *n; i++) {
		if (v[i] == p) {
			memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof(v[0]));
			(*n)--;
			return true;
		}
	}
	return false;
}

bool gl_ptrs_has_(void *const *v, size_t n, const void *p)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}
