/* SPDX-License-Identifier: MIT */
/*
 * Tenants of a server gleamd (Documentation/security.md): a tenant is an
 * authenticated identity, the common name of the certificate its peers
 * showed.  Sessions, control connections and device memory are counted
 * per tenant, and the chunks a tenant has shown it holds are its own.  A
 * server without credentials knows no identities: all its peers are the
 * one tenant TENANT_NONE.
 */
#ifndef GLEAM_TENANT_H
#define GLEAM_TENANT_H

#include <stdbool.h>

#include "cache.h"
#include "tls.h"

/* Identities a server knows in its life; the next is refused. */
#define TENANTS_MAX		1024
/* Not a valid identity name: no certificate can claim it. */
#define TENANT_NONE		"(none)"

struct tenant {
	struct tenant *next;
	char name[GL_TLS_NAME_MAX];
	unsigned int idx;		/* 0 .. TENANTS_MAX - 1: its workers' accounting */
	unsigned int sessions;		/* live, detached ones included */
	unsigned int controls;		/* control connections */
	struct nset proven;		/* chunks it showed it holds (cache.c) */
};

/* The tenant of this name, made on first use; NULL past TENANTS_MAX or without memory. */
struct tenant *tenant_get(const char *name);

#endif /* GLEAM_TENANT_H */
