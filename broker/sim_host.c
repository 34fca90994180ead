// SPDX-License-Identifier: MIT
/*
 * The sim backend's host functions and stream callbacks.  As the driver
 * does, the sim calls them on a thread of its own, one at a time in the
 * order they were queued, once their stream has got to them; and as on a
 * GPU, the work queued after one on its stream (and on the legacy stream
 * after one on a blocking stream, and the other way round) waits until it
 * returns.  All other work completes before its call returns, so a stream
 * gets to a host function at once, and work waits for one where it is
 * queued: the thread that queues it waits (sim_host_wait()).  The worker's
 * function (wk_host.c) holds the host thread until the program's function
 * has run in the program's process, while the worker's main thread goes
 * on replaying.  In a capture a host function becomes an operation of the
 * graph, called at each launch, on the thread that launches it; a
 * callback cannot be captured (the driver refuses it and invalidates the
 * capture).
 */
#include <pthread.h>
#include <stdlib.h>

#include "sim.h"

/* A host function or callback queued, until it has returned. */
struct host_run {
	struct host_run *next;
	CUstream s;		/* NULL: the legacy stream */
	struct sim_ctx *ctx;
	bool blocking;		/* its stream synchronises with the legacy stream */
	CUhostFn fn;
	CUstreamCallback cb;	/* or a callback, given s and status */
	CUstream cb_s;		/* the stream as the caller named it */
	CUresult status;
	void *data;
};

/* The runs queued, oldest (running) first; the host thread, once started. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cv;	/* a run was queued, or one returned */
	struct host_run *head, **tail;
	bool started;
} runs = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, &runs.head, false };

static void *host_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&runs.lock);
	for (;;) {
		struct host_run *r;

		while (!runs.head)
			pthread_cond_wait(&runs.cv, &runs.lock);
		r = runs.head;
		pthread_mutex_unlock(&runs.lock);
		if (r->cb)
			r->cb(r->cb_s, r->status, r->data);
		else
			r->fn(r->data);
		pthread_mutex_lock(&runs.lock);
		runs.head = r->next;
		if (!runs.head)
			runs.tail = &runs.head;
		free(r);
		pthread_cond_broadcast(&runs.cv);
	}
	return NULL;
}

/*
 * Whether work on stream s (NULL: the legacy stream; blocking: s
 * synchronises with it) of context c waits for run r, as on a GPU.  With
 * all set, whether a synchronisation of c waits for it.
 */
static bool waits_for(const struct host_run *r, CUstream s, bool blocking,
		      const struct sim_ctx *c, bool all)
{
	if (all)
		return r->ctx == c;
	if (!s)
		return r->ctx == c && (!r->s || r->blocking);
	return r->s == s || (blocking && !r->s && r->ctx == c);
}

static bool pending(CUstream s, bool blocking, const struct sim_ctx *c, bool all)
{
	for (const struct host_run *r = runs.head; r; r = r->next)
		if (waits_for(r, s, blocking, c, all))
			return true;
	return false;
}

static void wait_runs(CUstream s, bool blocking, const struct sim_ctx *c, bool all)
{
	pthread_mutex_lock(&runs.lock);
	while (pending(s, blocking, c, all))
		pthread_cond_wait(&runs.cv, &runs.lock);
	pthread_mutex_unlock(&runs.lock);
}

void sim_host_wait(CUstream s, bool blocking)
{
	if (runs.started)
		wait_runs(s, blocking, sim.cur, false);
}

void sim_host_wait_ctx(const struct sim_ctx *c)
{
	if (runs.started)
		wait_runs(NULL, false, c, true);
}

bool sim_host_pending(CUstream s, bool blocking)
{
	bool p;

	if (!runs.started)
		return false;
	pthread_mutex_lock(&runs.lock);
	p = pending(s, blocking, sim.cur, false);
	pthread_mutex_unlock(&runs.lock);
	return p;
}

/* Run r goes to the host thread, after the runs before it. */
static CUresult queue(struct host_run *r)
{
	pthread_t t;

	if (!runs.started) {
		if (pthread_create(&t, NULL, host_thread, NULL)) {
			free(r);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		pthread_detach(t);
		runs.started = true;
	}
	pthread_mutex_lock(&runs.lock);
	*runs.tail = r;
	runs.tail = &r->next;
	pthread_cond_broadcast(&runs.cv);
	pthread_mutex_unlock(&runs.lock);
	return CUDA_SUCCESS;
}

static CUresult queue_run(CUstream s, bool blocking, CUhostFn fn, CUstreamCallback cb,
			  CUresult status, void *data)
{
	struct host_run *r = calloc(1, sizeof(*r));

	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r->s = !s || s == CU_STREAM_LEGACY ? NULL : s;
	r->ctx = sim.cur;
	r->blocking = blocking;
	r->fn = fn;
	r->cb = cb;
	r->cb_s = s;
	r->status = status;
	r->data = data;
	return queue(r);
}

/*
 * The context's status in *status, and s's capture in *cap.  A context
 * that failed runs no host function (its error is the call's); it still
 * runs a callback, given the error.  Work before it on its stream has
 * completed (sim_stream_work() waited for the host functions among it),
 * and in *blocking whether s synchronises with the legacy stream.
 */
static CUresult host_begin(CUstream s, bool callback, struct sim_capture **cap, CUresult *status,
			   bool *blocking)
{
	CUresult r;

	*cap = NULL;
	if (!sim.cur || (sim.cur->primary && sim.cur->refs <= 0))
		return CUDA_ERROR_INVALID_CONTEXT;
	*status = sim.cur->sticky;
	if (*status && !callback)
		return *status;
	r = sim_stream_work(s, cap);
	if (!r && *cap && callback) {
		(*cap)->invalidated = true;
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	if (!r)
		*blocking = sim_stream_blocking(s);
	return r;
}

CUresult sim_cuLaunchHostFunc(CUstream s, CUhostFn fn, void *data)
{
	struct sim_op op = { .kind = OP_HOST, .host = fn, .host_data = data };
	struct sim_capture *cap;
	CUresult status, r;
	bool blocking;

	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	r = host_begin(s, false, &cap, &status, &blocking);
	if (r)
		return r;
	if (cap)
		return sim_capture_op(cap, s, &op);
	return queue_run(s, blocking, fn, NULL, CUDA_SUCCESS, data);
}

/*
 * A callback runs even in a failed context, given the error: on a GPU
 * it was queued before the fault was known, and the sim, which faults at
 * the launch, keeps that order.
 */
CUresult sim_cuStreamAddCallback(CUstream s, CUstreamCallback cb, void *data, unsigned int flags)
{
	CUresult status = CUDA_SUCCESS, r;
	struct sim_capture *cap;
	bool blocking;

	if (!cb || flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = host_begin(s, true, &cap, &status, &blocking);
	if (r)
		return r;
	return queue_run(s, blocking, NULL, cb, status, data);
}
