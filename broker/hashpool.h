/* SPDX-License-Identifier: MIT */
/*
 * Hashing on several threads (Documentation/cache.md): an upload is cut
 * into chunks and each chunk's SHA-256 computed by a pool of threads, while
 * the caller takes the names that are ready, in order, and sends them.
 *
 * The caller owns a struct hashpool_job and the buffer and the names array
 * it points to, and keeps them until the job is finished (hashpool_ready()
 * returns the job's count) or cancelled.  The pool never touches a job
 * after either.
 *
 * Progress can be waited for in two ways: hashpool_wait() blocks a thread;
 * hashpool_fd() is an eventfd that becomes readable when any job's ready
 * prefix grows, for an io_uring or poll loop, which then reads it (to
 * reset it) and calls hashpool_ready() on the jobs it has.
 */
#ifndef GLEAM_HASHPOOL_H
#define GLEAM_HASHPOOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "chunk.h"
#include "list.h"

/* 0 threads asks for one per online core, at most this many. */
#define HASHPOOL_THREADS_DEFAULT_MAX	8
#define HASHPOOL_THREADS_MAX		64

struct hashpool_job {
	/* What the caller submitted. */
	const unsigned char *buf;
	uint64_t len;
	uint32_t chunk_size;
	struct chunk_name *names;	/* chunk_count(len, chunk_size) of them */
	const unsigned char *prefix;	/* hashed before each chunk (a proof's nonce), or NULL */
	/* The pool's, under its lock, except ready. */
	struct list_head node;		/* on the pool's queue while chunks are unclaimed */
	uint64_t count;
	uint64_t claimed;		/* chunks handed to threads */
	uint32_t active;		/* chunks being hashed now */
	bool queued;
	bool cancelled;
	int error;			/* -EIO: a chunk's name could not be computed */
	uint8_t *done;			/* per chunk, until the job is finished */
	_Atomic uint64_t ready;		/* names[0, ready) are final */
};

struct hashpool;

/* nthreads 0: the online cores, at most HASHPOOL_THREADS_DEFAULT_MAX.  0 or -errno. */
int hashpool_create(unsigned int nthreads, struct hashpool **out);
/* Jobs still running are cancelled first. */
void hashpool_destroy(struct hashpool *p);
unsigned int hashpool_threads(const struct hashpool *p);

/*
 * Hash buf[0, len) in chunks of chunk_size bytes (the last may be shorter)
 * into names.  Chunks are taken in order, by as many threads as are free,
 * and jobs in the order submitted.  0, -EINVAL (chunk_size 0 or over
 * CHUNK_SIZE_MAX) or -ENOMEM.  A job of length 0 is finished at once.
 */
int hashpool_submit(struct hashpool *p, struct hashpool_job *job, const void *buf, uint64_t len,
		    uint32_t chunk_size, struct chunk_name *names);

/*
 * The same, each chunk's hash taken over prefix (CHUNK_NAME_LEN bytes,
 * kept by the caller as the buffer is) followed by the chunk: the proofs
 * of Documentation/cache.md.
 */
int hashpool_submit_prefixed(struct hashpool *p, struct hashpool_job *job, const void *buf,
			     uint64_t len, uint32_t chunk_size, const unsigned char *prefix,
			     struct chunk_name *names);
/* How many names, from the first, are final; safe without waiting, from any thread. */
static inline uint64_t hashpool_ready(const struct hashpool_job *job)
{
	return atomic_load_explicit(&job->ready, memory_order_acquire);
}

static inline bool hashpool_finished(const struct hashpool_job *job)
{
	return hashpool_ready(job) == job->count;
}

/* Block until at least min names are ready (or the job is cancelled); returns ready. */
uint64_t hashpool_wait(struct hashpool *p, struct hashpool_job *job, uint64_t min);

/*
 * Stop a job: no chunk of it is started any more, and those being hashed
 * are waited for.  Afterwards the pool does not touch the job or its
 * buffer.  Names before hashpool_ready() stay valid.
 */
void hashpool_cancel(struct hashpool *p, struct hashpool_job *job);

/* 0, or -EIO when some chunk's name could not be computed (it is all zero). */
int hashpool_job_error(const struct hashpool_job *job);

/* An eventfd (non-blocking) written whenever some job's ready count grows. */
int hashpool_fd(const struct hashpool *p);

#endif /* GLEAM_HASHPOOL_H */
