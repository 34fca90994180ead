/* SPDX-License-Identifier: MIT */
/* Starting a replay worker from a fresh image (wk_spawn.c). */
#ifndef GLEAM_WK_SPAWN_H
#define GLEAM_WK_SPAWN_H

#include <stdbool.h>

#include "worker.h"

/*
 * At server start: the executable workers start from and, where the
 * server runs as root, the user they run as (user, a name or "UID[:GID]";
 * none: "gleam", else "nobody", else uid 65534).  0 or -errno.
 */
int wk_spawn_init(const char *user);
/* The user workers run as; whether it is another than the server's. */
const char *wk_spawn_user(void);
bool wk_spawn_drops(void);

/* In a child: become the workers' user (where the server is root); 0 or -errno. */
int wk_become_user(void);

/* What the exec is given, made before the fork. */
struct wk_exec {
	char **envp;		/* the server's environment, with visible in place */
	char *visible;		/* "CUDA_VISIBLE_DEVICES=..." or NULL */
};

/* visible: the one GPU the worker may see (its UUID), or NULL.  0 or -ENOMEM. */
int wk_exec_prepare(struct wk_exec *x, const char *visible);
void wk_exec_free(struct wk_exec *x);
/* In the forked child: descriptors, limits, user, then exec.  Never returns. */
void wk_exec_child(const struct wk_exec *x, int ring, int bell, int usage)
	__attribute__((noreturn));
/* In the server, after the fork: the setup, first on the worker's bell. */
int wk_send_setup(int bell, const struct wk_setup *st);

#endif /* GLEAM_WK_SPAWN_H */
