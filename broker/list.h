/* SPDX-License-Identifier: MIT */
/*
 * An intrusive doubly-linked list, as the kernel's list_head: the node lives
 * in its owner, so that moving an owner to the tail of an LRU list is two
 * pointer updates and no allocation.
 */
#ifndef GLEAM_LIST_H
#define GLEAM_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

static inline void list_init(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

/* Leaves the node pointing at itself, so that a second del is harmless. */
static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	list_init(n);
}

static inline void list_move_tail(struct list_head *n, struct list_head *h)
{
	list_del_init(n);
	list_add_tail(n, h);
}

#endif /* GLEAM_LIST_H */
