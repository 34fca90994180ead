/* SPDX-License-Identifier: MIT */
/*
 * A set of chunk names (nameset.c): the client's cache keeps what it
 * pinned and asked for in them, the server what each session pinned, the
 * scheduler what each server holds of a program's uploads.
 */
#ifndef GLEAM_NAMESET_H
#define GLEAM_NAMESET_H

#include <stddef.h>
#include <stdint.h>

#include "chunk.h"

/* A set of chunk names, each with a count and a pointer of its owner's. */
struct nset_ent {
	struct chunk_name name;
	uint32_t used;		/* 0: free */
	uint32_t count;
	void *ptr;
	uint32_t len;		/* the chunk's length, where the owner keeps it */
	uint32_t flags;		/* the owner's */
};

struct nset {
	struct nset_ent *e;
	size_t cap, n;
};

struct nset_ent *nset_find(struct nset *s, const struct chunk_name *name);
/* The entry for name, made if absent (count 0, ptr NULL); NULL without memory. */
struct nset_ent *nset_add(struct nset *s, const struct chunk_name *name);
void nset_del(struct nset *s, struct nset_ent *e);
void nset_free(struct nset *s);

#endif
