// SPDX-License-Identifier: MIT
/*
 * The session ring as gleamd and the worker read it: any bytes at all in
 * the shared region (layout, indices, flags, messages) must be refused or
 * read within bounds, never trusted.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "gleam_record.h"
#include "ring.h"

#define SHIFT 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *mem;
	size_t len = gl_ring_region_size(SHIFT, SHIFT);
	struct gl_ring r;
	uint32_t n;

	if (!mem) {
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			return 0;
	}
	gl_ring_format(mem, SHIFT, SHIFT);
	/* The first bytes may rewrite the layout; the rest land in the SQ. */
	if (size && data[0] & 1)
		memcpy(mem, data, size < 128 ? size : 128);
	if (gl_ring_attach(mem, len, &r))
		return 0;
	if (size > 8) {
		memcpy(&r.sq.ctl->tail, data + 1, 4);
		memcpy(&r.sq.ctl->head, data + 5, 4);
		memcpy(r.sq.data, data + 9, size - 9 < r.sq.size ? size - 9 : r.sq.size);
	}
	for (int i = 0; i < 4096; i++) {
		const void *p = gl_ring_peek(&r.sq, sizeof(struct gleam_rec), GLEAM_REC_MAX, &n);
		unsigned char copy[64];

		if (!p)
			break;
		memcpy(copy, p, n < sizeof(copy) ? n : sizeof(copy));
		gl_ring_consume(&r.sq, n);
		gl_ring_consume_publish(&r.sq);
	}
	/* The producer side against hostile consumer indices. */
	for (int i = 0; i < 64; i++) {
		void *p = gl_ring_reserve(&r.cq, 8u << (i % 12));

		if (p)
			memset(p, 0, 8u << (i % 12));
		gl_ring_commit(&r.cq);
		if (r.cq.broken)
			break;
		if (size > 16)
			memcpy(&r.cq.ctl->head, data + 12, 4);
	}
	return 0;
}
