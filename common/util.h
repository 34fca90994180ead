/* SPDX-License-Identifier: MIT */
#ifndef GLEAM_UTIL_H
#define GLEAM_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/socket.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ALIGN8(n)	(((n) + 7) & ~(size_t)7)
#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define MAX(a, b)	((a) > (b) ? (a) : (b))

extern int gl_log_level;	/* 0 errors, 1 info, 2 debug */
extern const char *gl_log_prefix;
/* Where log lines go: stderr, or (a worker whose stderr is the program's) elsewhere. */
extern int gl_log_fd;

void gl_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define gl_err(...)	gl_log(0, __VA_ARGS__)
#define gl_info(...)	gl_log(1, __VA_ARGS__)
#define gl_dbg(...)	do { if (gl_log_level >= 2) gl_log(2, __VA_ARGS__); } while (0)

uint64_t gl_now_ns(void);

/* Full reads and writes on blocking fds; 0 or -errno (-EPIPE at EOF). */
int gl_read_full(int fd, void *buf, size_t len);
int gl_write_full(int fd, const void *buf, size_t len);

/* One message with an optional fd (SCM_RIGHTS); returns bytes or -errno. */
ssize_t gl_send_fd(int sock, const void *buf, size_t len, int fd);
ssize_t gl_recv_fd(int sock, void *buf, size_t len, int *fd);

/* The client gleamd's local socket: $GLEAM_SOCKET or a per-user default. */
int gl_local_socket_path(char *buf, size_t len);
/* mkdir -p of the directory part of path, mode 0700 for new ones. */
int gl_mkdir_parent(const char *path);
/*
 * Whether the directory of path is fit for a socket that only its owner's
 * programs should reach or replace: a directory (not a link), owned by
 * this process's user or by root, that nobody else may write.  0, or
 * -errno with the reason in why.
 */
int gl_private_dir(const char *path, char *why, size_t len);

/*
 * "host:port", "[v6]:port" or "host" (port dflt) into a sockaddr; 0 or
 * -errno: -EINVAL for what is not an address (a port must be 1..65535),
 * -ENXIO for a name that does not resolve, -EAGAIN for a lookup that may
 * work later.  gl_addr_strerror() says which.
 */
struct sockaddr_storage;
int gl_parse_hostport(const char *s, int dflt_port, struct sockaddr_storage *ss,
		      socklen_t *len);
const char *gl_addr_strerror(int err);

/* A GPU's UUID as NVIDIA writes it: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx". */
void gl_uuid_str(const uint8_t *u, char *buf, size_t len);

/*
 * A boolean environment variable: unset or empty gives dflt; "0", "off",
 * "no" and "false" (any case) are off; anything else is on.
 */
bool gl_env_bool(const char *name, bool dflt);

/* A socket's peer as "a.b.c.d:port" or "[v6]:port"; "?" when it has none. */
void gl_peer_name(int fd, char *buf, size_t len);

/*
 * Whether two secrets are equal, in a time that does not depend on where
 * they differ: a peer that times its failed guesses learns nothing.
 */
int gl_secret_eq(const void *a, const void *b, size_t n);

/*
 * Whether name can name an identity (a certificate's common name, an
 * administrator): 1 to 63 of [A-Za-z0-9._-], not starting with '.' or '-'.
 */
int gl_ident_ok(const char *name);

/*
 * Copy what a peer sent into dst for a log line or a listing: printable
 * ASCII as it is, '\' and anything else as \xNN; cut to fit len.
 */
void gl_escape(char *dst, size_t len, const char *src, size_t srclen);

/*
 * Text a peer or a program chose, made harmless in place for a log line,
 * text and JSON alike: what is not printable ASCII, '"' and '\\' become
 * '_', and so do spaces unless keep_space.
 */
void gl_harmless(char *s, bool keep_space);

/*
 * A size in bytes: a number (decimal, possibly with a fraction as in
 * 1.5G, or 0x hexadecimal) with an optional K, M, G or T (powers of 1024,
 * any case), then an optional B or iB: 65536, 64k, 64KiB, 4G, 2TB.
 * 0, or -EINVAL for anything else or more than 64 bits hold.
 */
int gl_parse_size(const char *s, uint64_t *out);

/*
 * Text that grows (doubling, from 4 KiB) up to max bytes (0: no bound):
 * a piece that does not fit is left out.  b is NULL until something is
 * written, and NUL-terminated after; the owner frees it.
 */
struct gl_buf {
	char *b;
	size_t len, cap;
	size_t max;
};

void gl_buf_printf(struct gl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * In an array of n elements of size bytes, sorted by a leading uint64_t
 * (an allocation's base address): the index of the last element whose key
 * is <= p, or -1.
 */
long gl_find_le(const void *array, size_t n, size_t size, uint64_t p);

/*
 * Room for one more element in a growable array of elements of size
 * bytes, n of them used and *cap allocated at *arr: the allocation
 * doubles, from first elements.  0; -1 when memory runs out (the array
 * is left as it was).
 */
int gl_grow(void **arr, size_t n, size_t *cap, size_t size, size_t first);

/*
 * Sets of pointers that keep the order their members came in (a graph's
 * nodes, a node's dependencies): any struct with a member v (an array of
 * pointers to one type), and n and cap (size_t).  gl_ptrs_add is 0, or -1
 * when memory runs out; gl_ptrs_del whether p was there.  The unevaluated
 * comparison has the compiler check p's type against the members'.
 */
#define gl_ptrs_add(s, p) \
	((void)sizeof(*(s)->v == (p)), \
	 gl_ptrs_add_((void ***)&(s)->v, &(s)->n, &(s)->cap, (void *)(p)))
#define gl_ptrs_del(s, p) \
	((void)sizeof(*(s)->v == (p)), gl_ptrs_del_((void **)(s)->v, &(s)->n, (p)))
#define gl_ptrs_has(s, p) \
	((void)sizeof(*(s)->v == (p)), gl_ptrs_has_((void *const *)(s)->v, (s)->n, (p)))

int gl_ptrs_add_(void ***v, size_t *n, size_t *cap, void *p);
bool gl_ptrs_del_(void **v, size_t *n, const void *p);
bool gl_ptrs_has_(void *const *v, size_t n, const void *p);

/* "PROG (Gleam) VERSION[, git HASH]" on stdout, for --version. */
void gl_print_version(const char *prog);
/* VERSION, as the build found it. */
const char *gl_version(void);

#endif /* GLEAM_UTIL_H */
