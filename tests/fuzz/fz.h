/* SPDX-License-Identifier: MIT */
/*
 * Shared by the wire and control harnesses: a stand-in for the kernel side
 * of gleamd's io_uring, the roles' own code reached through fz_role_*.c,
 * gleamctl's through fz_gleamctl.c, and a strict JSON checker.
 */
#ifndef GLEAM_FUZZ_FZ_H
#define GLEAM_FUZZ_FZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gleamd.h"

#define FZ_FAIL(...)	do { fprintf(stderr, "fuzz: " __VA_ARGS__); fputc('\n', stderr); \
			     abort(); } while (0)

/*
 * An operation gleamd prepared on its ring.  Nothing is ever submitted:
 * fz_harvest() moves what was prepared here, and the harness completes it
 * with a result (and bytes) of its choosing through the role's handler.
 */
struct fz_op {
	struct op *op;
	uint8_t opcode;
	int fd;
	void *addr;
	uint32_t len;
};

#define FZ_OPS_MAX	64
extern struct fz_op fz_ops[FZ_OPS_MAX];
extern unsigned int fz_nops;

void fz_uring_init(void);
/* Take what gleamd prepared since the last call; abort on anything submitted. */
void fz_harvest(void);
struct fz_op *fz_find(const struct op *op);
/* Remove an operation of this owner and type from the list into *o. */
bool fz_take(void *owner, enum op_type type, struct fz_op *o);
bool fz_take_any(void *owner, struct fz_op *o);
/* Of any owner: one of this type (on fd, unless fd is -1), or any at all. */
bool fz_take_fd(int fd, enum op_type type, struct fz_op *o);
bool fz_take_first(struct fz_op *o);
unsigned int fz_count(void *owner);

/*
 * A session's frame buffers (8 and 16 MiB) from a pool: fresh ones cost ASan
 * most of an input's time.  The head of a buffer given back is poisoned
 * until it is handed out again; a buffer freed while an operation still
 * uses it is caught by the harnesses themselves.
 */
void *fz_malloc(size_t n);
void fz_free(void *p);

/* The token the server gives every session (fz_role_server.c). */
#define FZ_TOKEN	0x6e656b6f547a6646ull	/* "FfzToken" */

/* broker/server.c (fz_role_server.c) */
void fz_server_setup(struct config *c);
struct bridge *fz_server_accept(int fd);
void fz_server_complete(struct op *op, int res);
void fz_server_reap(void);
/* The grace period of detached sessions ends now; whether there was one. */
bool fz_server_expire(void);
bool fz_server_alive(const struct bridge *b);
unsigned int fz_server_sessions(void);

/* broker/client.c (fz_role_client.c); a NULL config leaves the server role's frames */
void fz_client_setup(struct config *c);
struct bridge *fz_client_accept(int fd);
void fz_client_complete(struct op *op, int res);
/* A detached session connects again now; whether it did. */
bool fz_client_retake(struct bridge *b);
bool fz_client_expire(void);
bool fz_client_alive(const struct bridge *b);
unsigned int fz_client_sessions(void);

/* tools/gleamctl.c (fz_gleamctl.c) */
int fz_gleamctl_info(int fd, struct gleam_server_info *info, struct gleam_gpu_info *gpus);
/* As gleamctl server-info prints it; terminates the strings in info and gpus. */
void fz_gleamctl_print_info(FILE *out, const char *addr, int err, struct gleam_server_info *info,
			    struct gleam_gpu_info *gpus, bool json);
const char *fz_gleamctl_status_server(const char *text, char *buf, size_t len);
/* Every server of the status text in turn (gleamctl status), and gleamd's text printed. */
const char *fz_gleamctl_status_server_next(const char **pos, char *buf, size_t len);
void fz_gleamctl_put_text(FILE *out, const char *s);

/* Exactly one JSON value (ASCII only), with optional white space around it. */
bool fz_json_valid(const char *s, size_t len);

#endif /* GLEAM_FUZZ_FZ_H */
