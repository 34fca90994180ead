// SPDX-License-Identifier: MIT
/*
 * The hashing pool: threads that take the next unclaimed chunk of the
 * oldest job, hash it, and advance the job's in-order ready count.
 *
 * One mutex guards the queue and every job's bookkeeping.  It is taken
 * twice per chunk (claim, then done), a few thousand times a second at
 * 1 MiB chunks and many GB/s: never the bottleneck, and it makes the
 * rules simple.  Hashing itself runs unlocked, each thread with its own
 * digest context.
 *
 * A job is finished when its ready count reaches its count.  The thread
 * that gets it there frees the job's private state before it publishes
 * the count, and touches the job no more: the caller may free the job as
 * soon as it sees the count, without taking the lock.
 */
#include <errno.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "hashpool.h"
#include "util.h"

struct hashpool {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a job was queued, or stop */
	pthread_cond_t progress;	/* a job advanced, or its last active chunk ended */
	struct list_head queue;		/* jobs with unclaimed chunks, oldest first */
	bool stop;
	int efd;
	unsigned int nthreads;
	pthread_t threads[];
};

static void hash_chunk(EVP_MD_CTX *ctx, const EVP_MD *md, const unsigned char *prefix,
		       const unsigned char *p, size_t len, struct chunk_name *out, int *error)
{
	unsigned int n = 0;

	if (ctx && EVP_DigestInit_ex2(ctx, md, NULL) == 1 &&
	    (!prefix || EVP_DigestUpdate(ctx, prefix, CHUNK_NAME_LEN) == 1) &&
	    EVP_DigestUpdate(ctx, p, len) == 1 &&
	    EVP_DigestFinal_ex(ctx, out->b, &n) == 1 && n == CHUNK_NAME_LEN)
		return;
	memset(out, 0, sizeof(*out));
	*error = -EIO;
}

/* Under the lock: index i is hashed; move the ready prefix on.  True if it moved. */
static bool job_done(struct hashpool *p, struct hashpool_job *job, uint64_t i, int error)
{
	uint64_t r = atomic_load_explicit(&job->ready, memory_order_relaxed), r0 = r;

	job->active--;
	if (error)
		job->error = error;
	if (job->cancelled) {
		if (!job->active)
			pthread_cond_broadcast(&p->progress);
		return false;
	}
	job->done[i] = 1;
	while (r < job->count && job->done[r])
		r++;
	if (r == r0)
		return false;
	if (r == job->count) {
		free(job->done);
		job->done = NULL;
	}
	/* The last touch of a finished job: the caller may free it from here on. */
	atomic_store_explicit(&job->ready, r, memory_order_release);
	pthread_cond_broadcast(&p->progress);
	return true;
}

static void *worker(void *arg)
{
	struct hashpool *p = arg;
	const EVP_MD *md = chunk_md();
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct hashpool_job *job;
		uint64_t i, off;
		size_t len;
		int error = 0;
		bool moved;

		while (!p->stop && list_empty(&p->queue))
			pthread_cond_wait(&p->work, &p->lock);
		if (p->stop)
			break;
		job = container_of(p->queue.next, struct hashpool_job, node);
		i = job->claimed++;
		if (job->claimed == job->count) {
			list_del_init(&job->node);
			job->queued = false;
		}
		job->active++;
		pthread_mutex_unlock(&p->lock);

		off = i * job->chunk_size;
		len = (size_t)MIN((uint64_t)job->chunk_size, job->len - off);
		hash_chunk(ctx, md, job->prefix, job->buf + off, len, &job->names[i], &error);

		pthread_mutex_lock(&p->lock);
		moved = job_done(p, job, i, error);
		if (moved) {
			/* Unlocked: the loop's read of the eventfd may be slow to come. */
			pthread_mutex_unlock(&p->lock);
			eventfd_write(p->efd, 1);
			pthread_mutex_lock(&p->lock);
		}
	}
	pthread_mutex_unlock(&p->lock);
	EVP_MD_CTX_free(ctx);
	return NULL;
}

unsigned int hashpool_threads(const struct hashpool *p)
{
	return p->nthreads;
}

int hashpool_fd(const struct hashpool *p)
{
	return p->efd;
}

int hashpool_create(unsigned int nthreads, struct hashpool **out)
{
	struct hashpool *p;
	unsigned int i;
	int r;

	if (!nthreads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		nthreads = (unsigned int)MIN(MAX(n, 1L), (long)HASHPOOL_THREADS_DEFAULT_MAX);
	}
	if (nthreads > HASHPOOL_THREADS_MAX)
		return -EINVAL;
	if (!chunk_md())
		return -ENOSYS;
	p = calloc(1, sizeof(*p) + nthreads * sizeof(p->threads[0]));
	if (!p)
		return -ENOMEM;
	p->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->efd < 0) {
		r = -errno;
		free(p);
		return r;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->progress, NULL);
	list_init(&p->queue);
	for (i = 0; i < nthreads; i++) {
		r = -pthread_create(&p->threads[i], NULL, worker, p);
		if (r)
			break;
		p->nthreads++;
	}
	if (!p->nthreads) {
		hashpool_destroy(p);
		return r;
	}
	/* Fewer threads than asked is slower, not wrong. */
	if (p->nthreads < nthreads)
		gl_err("hashpool: %u of %u threads started", p->nthreads, nthreads);
	*out = p;
	return 0;
}

void hashpool_destroy(struct hashpool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	while (!list_empty(&p->queue)) {
		struct hashpool_job *job = container_of(p->queue.next, struct hashpool_job, node);

		pthread_mutex_unlock(&p->lock);
		hashpool_cancel(p, job);
		pthread_mutex_lock(&p->lock);
	}
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned int i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	close(p->efd);
	pthread_cond_destroy(&p->progress);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int hashpool_submit(struct hashpool *p, struct hashpool_job *job, const void *buf, uint64_t len,
		    uint32_t chunk_size, struct chunk_name *names)
{
	return hashpool_submit_prefixed(p, job, buf, len, chunk_size, NULL, names);
}

int hashpool_submit_prefixed(struct hashpool *p, struct hashpool_job *job, const void *buf,
			     uint64_t len, uint32_t chunk_size, const unsigned char *prefix,
			     struct chunk_name *names)
{
	if (!chunk_size || chunk_size > CHUNK_SIZE_MAX)
		return -EINVAL;
	memset(job, 0, sizeof(*job));
	job->prefix = prefix;
	job->buf = buf;
	job->len = len;
	job->chunk_size = chunk_size;
	job->names = names;
	job->count = chunk_count(len, chunk_size);
	list_init(&job->node);
	atomic_init(&job->ready, 0);
	if (!job->count)
		return 0;
	job->done = calloc(job->count, 1);
	if (!job->done)
		return -ENOMEM;
	pthread_mutex_lock(&p->lock);
	list_add_tail(&job->node, &p->queue);
	job->queued = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

uint64_t hashpool_wait(struct hashpool *p, struct hashpool_job *job, uint64_t min)
{
	uint64_t r;

	if (min > job->count)
		min = job->count;
	pthread_mutex_lock(&p->lock);
	while ((r = atomic_load_explicit(&job->ready, memory_order_relaxed)) < min &&
	       !job->cancelled)
		pthread_cond_wait(&p->progress, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return r;
}

void hashpool_cancel(struct hashpool *p, struct hashpool_job *job)
{
	pthread_mutex_lock(&p->lock);
	if (job->queued) {
		list_del_init(&job->node);
		job->queued = false;
	}
	job->cancelled = true;
	while (job->active)
		pthread_cond_wait(&p->progress, &p->lock);
	free(job->done);
	job->done = NULL;
	pthread_mutex_unlock(&p->lock);
}

int hashpool_job_error(const struct hashpool_job *job)
{
	return job->error;
}
