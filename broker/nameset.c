// SPDX-License-Identifier: MIT
/*
 * Sets of chunk names (nameset.h): open addressing with linear probing, in
 * a table of a power of two kept at most half full.  Names are SHA-256
 * digests, so their first eight bytes are as good as any hash of them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nameset.h"

static size_t nslot(const struct nset *s, const struct chunk_name *n)
{
	uint64_t h;

	memcpy(&h, n->b, 8);
	return (size_t)(h * 0x9e3779b97f4a7c15ull) & (s->cap - 1);
}

struct nset_ent *nset_find(struct nset *s, const struct chunk_name *name)
{
	size_t i;

	if (!s->cap)
		return NULL;
	for (i = nslot(s, name); s->e[i].used; i = (i + 1) & (s->cap - 1))
		if (chunk_name_eq(&s->e[i].name, name))
			return &s->e[i];
	return NULL;
}

static int nset_grow(struct nset *s)
{
	struct nset_ent *old = s->e;
	size_t ocap = s->cap;

	s->cap = ocap ? 2 * ocap : 256;
	s->e = calloc(s->cap, sizeof(*s->e));
	if (!s->e) {
		s->e = old;
		s->cap = ocap;
		return -ENOMEM;
	}
	for (size_t i = 0; i < ocap; i++) {
		size_t j;

		if (!old[i].used)
			continue;
		for (j = nslot(s, &old[i].name); s->e[j].used; j = (j + 1) & (s->cap - 1))
			;
		s->e[j] = old[i];
	}
	free(old);
	return 0;
}

struct nset_ent *nset_add(struct nset *s, const struct chunk_name *name)
{
	struct nset_ent *e = nset_find(s, name);
	size_t i;

	if (e)
		return e;
	if ((s->n + 1) * 2 > s->cap && nset_grow(s))
		return NULL;
	for (i = nslot(s, name); s->e[i].used; i = (i + 1) & (s->cap - 1))
		;
	e = &s->e[i];
	memset(e, 0, sizeof(*e));
	e->name = *name;
	e->used = 1;
	s->n++;
	return e;
}

void nset_del(struct nset *s, struct nset_ent *e)
{
	size_t i = (size_t)(e - s->e), j;

	/* Backward-shift deletion keeps every probe sequence unbroken. */
	s->e[i].used = 0;
	s->n--;
	for (j = (i + 1) & (s->cap - 1); s->e[j].used; j = (j + 1) & (s->cap - 1)) {
		struct nset_ent t = s->e[j];
		size_t k;

		s->e[j].used = 0;
		for (k = nslot(s, &t.name); s->e[k].used; k = (k + 1) & (s->cap - 1))
			;
		s->e[k] = t;
	}
}

void nset_free(struct nset *s)
{
	free(s->e);
	memset(s, 0, sizeof(*s));
}
