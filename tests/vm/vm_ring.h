/* SPDX-License-Identifier: MIT */
/*
 * Byte rings of uapi/gleam_ring.h for the VM tests: one producer and one
 * consumer per direction.  The other side's index is loaded once per call
 * and bounds-checked; a message header is read once, and a ring that
 * breaks the rules is marked broken and never touched again.
 */
#ifndef VM_RING_H
#define VM_RING_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gleam_record.h"
#include "gleam_ring.h"

struct vm_ring {
	struct gleam_ring_ctl *ctl;
	uint8_t *data;
	uint32_t size;
	uint32_t mask;
	uint32_t pos;		/* our own tail (producer) or head (consumer) */
	bool broken;
};

static inline void vm_ring_init(struct vm_ring *r, struct gleam_ring_ctl *ctl,
				uint8_t *data, uint32_t shift)
{
	memset(r, 0, sizeof(*r));
	r->ctl = ctl;
	r->data = data;
	r->size = 1U << shift;
	r->mask = r->size - 1;
}

/*
 * Producer: room for a message of len bytes (8-aligned, at most half the
 * ring), or NULL when full.  A message never wraps: the rest of the ring
 * becomes a pad message first.
 */
static inline void *vm_ring_reserve(struct vm_ring *r, uint32_t len)
{
	uint32_t head, used, off, room;

	if (r->broken)
		return NULL;
	head = __atomic_load_n(&r->ctl->head, __ATOMIC_ACQUIRE);
	used = r->pos - head;
	if (used > r->size) {
		r->broken = true;
		return NULL;
	}
	off = r->pos & r->mask;
	room = r->size - off;
	if (len > room) {
		if (room + len > r->size - used)
			return NULL;
		/* pad: len and fn only; fn 0 */
		memcpy(r->data + off, &room, sizeof(room));
		memset(r->data + off + 4, 0, 4);
		r->pos += room;
		off = 0;
	} else if (len > r->size - used) {
		return NULL;
	}
	return r->data + off;
}

static inline void vm_ring_commit(struct vm_ring *r, uint32_t len)
{
	r->pos += len;
	__atomic_store_n(&r->ctl->tail, r->pos, __ATOMIC_RELEASE);
}

/*
 * Consumer: the next message and its length, NULL when empty or broken.
 * Pads are consumed here.  min_len: the smallest non-pad message.
 */
static inline const uint8_t *vm_ring_peek(struct vm_ring *r, uint32_t min_len,
					  uint32_t *len_out)
{
	uint32_t tail, avail, off, room, len;
	uint16_t fn;

	while (!r->broken) {
		tail = __atomic_load_n(&r->ctl->tail, __ATOMIC_ACQUIRE);
		avail = tail - r->pos;
		if (!avail)
			return NULL;
		off = r->pos & r->mask;
		room = r->size - off;
		if (avail > r->size || avail < 8) {
			r->broken = true;
			break;
		}
		len = __atomic_load_n((uint32_t *)(r->data + off),
				      __ATOMIC_RELAXED);
		fn = __atomic_load_n((uint16_t *)(r->data + off + 4),
				     __ATOMIC_RELAXED);
		if (len < 8 || len % 8 || len > avail || len > room) {
			r->broken = true;
			break;
		}
		if (fn == GLEAM_FN_PAD) {
			r->pos += len;
			__atomic_store_n(&r->ctl->head, r->pos,
					 __ATOMIC_RELEASE);
			continue;
		}
		if (len < min_len) {
			r->broken = true;
			break;
		}
		*len_out = len;
		return r->data + off;
	}
	return NULL;
}

static inline void vm_ring_consume(struct vm_ring *r, uint32_t len)
{
	r->pos += len;
	__atomic_store_n(&r->ctl->head, r->pos, __ATOMIC_RELEASE);
}

static inline bool vm_ring_empty(struct vm_ring *r)
{
	return __atomic_load_n(&r->ctl->tail, __ATOMIC_ACQUIRE) == r->pos;
}

#endif /* VM_RING_H */
