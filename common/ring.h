/* SPDX-License-Identifier: MIT */
/*
 * The session ring (uapi/gleam_ring.h) as seen by one side: producer and
 * consumer halves of the two byte rings, each usable from one thread at a
 * time.  Nothing read from the shared region is trusted: the consumer
 * bounds-checks every index and length against what it has itself seen.
 */
#ifndef GLEAM_RING_H
#define GLEAM_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gleam_ring.h"

struct gl_ring_dir {
	struct gleam_ring_ctl *ctl;
	unsigned char *data;
	uint32_t size;
	uint32_t mask;
	uint32_t pos;		/* producer: our tail; consumer: our head */
	bool broken;		/* the other side wrote impossible indices */
};

struct gl_ring {
	void *base;
	size_t region_size;
	struct gl_ring_dir sq;	/* application -> gleamd */
	struct gl_ring_dir cq;	/* gleamd -> application */
};

/* Default data area of each direction: 4 MiB. */
#define GL_RING_DEFAULT_SHIFT	22
/* The reply ring where replies come on stripes: 8 MiB. */
#define GL_RING_STRIPED_REPLY_SHIFT	23

size_t gl_ring_region_size(unsigned int sq_shift, unsigned int cq_shift);
/* Lay out a fresh region of gl_ring_region_size() bytes at mem. */
void gl_ring_format(void *mem, unsigned int sq_shift, unsigned int cq_shift);
/* Create a memfd holding a formatted region; returns the fd or -errno. */
int gl_ring_memfd(unsigned int sq_shift, unsigned int cq_shift);
/* Map a region from fd (whose size is checked) and attach; 0 or -errno. */
int gl_ring_map(int fd, struct gl_ring *r);
/* Attach to a region already mapped at mem, len bytes; 0 or -errno. */
int gl_ring_attach(void *mem, size_t len, struct gl_ring *r);
/*
 * The same with the layout from elsewhere than the region's first page
 * (gleamd takes a /dev/vgpuN session's from the kernel: the application
 * can write that page).
 */
int gl_ring_attach_layout(void *mem, size_t len, const struct gleam_ring_layout *l,
			  struct gl_ring *r);
void gl_ring_unmap(struct gl_ring *r);
/*
 * A fresh ring's pages are mapped on first touch, a fault per 4 KiB page
 * in each process that maps the ring: in the middle of a session's first
 * large copies, which they slowed by a third or more on small machines.
 * This maps this mapping's pages at once (allocating those no process
 * has touched), far faster than the faults would; each process calls it
 * at its session's first large message, so that a short program that
 * never copies much costs nothing more.  A no-op where the kernel cannot
 * (MADV_POPULATE_WRITE, Linux 5.14).
 */
void gl_ring_populate(struct gl_ring *r);

/*
 * Producer: reserve len bytes (8-aligned, <= size / 2) contiguously; NULL
 * when there is no room now (or the ring is broken: see ->broken).
 * Fill them, then gl_ring_commit() publishes everything reserved so far.
 */
void *gl_ring_reserve(struct gl_ring_dir *d, uint32_t len);
void gl_ring_commit(struct gl_ring_dir *d);
/* Publish what was reserved up to position pos only (the rest is still being filled). */
void gl_ring_commit_to(struct gl_ring_dir *d, uint32_t pos);
/* Whether gl_ring_reserve(len) would succeed now (or the ring is broken). */
bool gl_ring_can_reserve(struct gl_ring_dir *d, uint32_t len);
/* Bytes free for the producer now. */
uint32_t gl_ring_space(struct gl_ring_dir *d);

/*
 * Consumer: the next message, whose header (struct gleam_rec and struct
 * gleam_reply share their first 8 bytes) has been checked: its length is
 * at least min_len, 8-aligned, at most max_len and inside what the producer
 * published.  *len receives that length; the caller must use it and never
 * re-read the length from shared memory.  NULL when empty or broken.
 */
const void *gl_ring_peek(struct gl_ring_dir *d, uint32_t min_len, uint32_t max_len,
			 uint32_t *len);
/* Release len bytes (what gl_ring_peek returned) to the producer. */
void gl_ring_consume(struct gl_ring_dir *d, uint32_t len);
/* Publish the consumer's position; returns true if the producer sleeps. */
bool gl_ring_consume_publish(struct gl_ring_dir *d);
/*
 * Give the producer back the room before pos only (a position at or
 * behind the consumer's, at or past what was given back before): the
 * consumer still reads what lies between; true if the producer sleeps.
 */
bool gl_ring_release(struct gl_ring_dir *d, uint32_t pos);
bool gl_ring_empty(struct gl_ring_dir *d);

/*
 * Sleep protocol (io_uring's need-wakeup): before sleeping, a side sets its
 * flag, then re-checks; the other side, after publishing, asks whether the
 * flag is set and rings the doorbell only then.
 */
void gl_ring_cons_set_sleeping(struct gl_ring_dir *d, bool on);
/* GLEAM_RING_CONS_* flags, for a consumer that also polls. */
void gl_ring_cons_set_state(struct gl_ring_dir *d, uint32_t flags);
uint32_t gl_ring_cons_flags(struct gl_ring_dir *d);
void gl_ring_prod_set_sleeping(struct gl_ring_dir *d, bool on);
bool gl_ring_cons_sleeping(struct gl_ring_dir *d);
bool gl_ring_prod_sleeping(struct gl_ring_dir *d);
void gl_ring_set_closed(struct gl_ring_dir *d);
bool gl_ring_closed(struct gl_ring_dir *d);

#endif /* GLEAM_RING_H */
