/* SPDX-License-Identifier: MIT */
/*
 * Large copies shared among a few threads.  One core copies 6 to 8 GB/s
 * from memory to memory (gleam-membench), less than a session's stripes
 * carry: a copy of GL_BIGCOPY_MIN bytes or more into or out of a ring is
 * cut into parts that the caller and a few helper threads take in turn.
 */
#ifndef GLEAM_BIGCOPY_H
#define GLEAM_BIGCOPY_H

#include <stddef.h>

#define GL_BIGCOPY_MIN		(256u << 10)
#define GL_BIGCOPY_THREADS_MAX	16

/*
 * How many threads copy (the caller counted): from GLEAM_COPY_THREADS, else
 * 4 on machines of 8 cores or more and 1 below (where the program and the
 * brokers already share the cores).  Read at the first large copy.
 */
unsigned int gl_bigcopy_threads(void);

/*
 * memcpy(dst, src, n), with helpers where n is large enough and they are
 * not busy with another caller's copy.  dst and src do not overlap.
 */
void gl_bigcopy(void *dst, const void *src, size_t n);

/*
 * A copy whose destination is not read again soon.  A large transfer out
 * of a ring arrives in pieces of at most the ring's size, each too small
 * for the C library's memcpy to choose stores that bypass the cache, so
 * each line of the destination is first read from memory, then written
 * back: twice the memory traffic of the copy itself.  Where the whole
 * transfer is GL_COPY_COLD_MIN bytes or more (as large as the last-level
 * cache of most machines: its start leaves the cache before its end
 * arrives anyway), its pieces go through these instead:
 * non-temporal stores on x86-64 (memcpy elsewhere), and an ordinary
 * memcpy of the unaligned head and the tail.  Both return with the
 * stores globally visible.  The threshold is the shim's, for a reply's
 * pieces; the sim copies to its device memory this way from 64 KiB up
 * (broker/sim_memory.c), since nothing on the host reads that memory soon.
 */
#define GL_COPY_COLD_MIN	(32u << 20)

void gl_copy_cold(void *dst, const void *src, size_t n);

/* gl_bigcopy() whose parts are copied with gl_copy_cold(). */
void gl_bigcopy_cold(void *dst, const void *src, size_t n);

#endif
