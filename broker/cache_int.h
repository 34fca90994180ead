/* SPDX-License-Identifier: MIT */
/*
 * What the two roles of the upload cache share (cache.c), beside what the
 * rest of gleamd sees of them (cache.h): the client's part is in
 * cache_client.c, the server's in cache_server.c.
 */
#ifndef GLEAM_CACHE_INT_H
#define GLEAM_CACHE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "gleam_record.h"

#define CACHE_CHUNK		(1U << 20)	/* = GLEAM_PIECE_MAX: one piece, one chunk */
#define CACHE_THRESHOLD		(64U << 10)
#define CACHE_PIN_MAX		(256ULL << 20)	/* what the queue can hold pinned */

/* A pin (nset flags) that waits for its proof: the client's and the server's. */
#define PIN_UNPROVEN		1u

/*
 * A record whose data can be named (a copy of one host buffer to the
 * device, or a piece of a module or library image): where the region
 * starts, *doff, and the copy's ByteCount, *count (0 for an image piece).
 */
bool upload_shape(const struct gleam_rec *h, uint32_t len, uint32_t *doff, uint64_t *count);
/* Whether a region of rlen bytes fits what the record's arguments say. */
bool region_ok(uint64_t count, uint64_t rlen);

#endif
