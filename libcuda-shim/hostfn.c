// SPDX-License-Identifier: MIT
/*
 * Host functions and stream callbacks (Documentation/design.md, "Host
 * functions and device output").
 *
 * The function and its data stay here; the record names it by an id of
 * the shim's.  The worker holds its stream where the function was queued
 * and, when the stream gets there, sends a gleamHostFuncRun reply; a
 * thread of the shim's, started with the first of them, runs the
 * function (CUDA runs them on a thread of the driver's, never the
 * caller's) and answers with a gleamHostFuncRun record, which lets the
 * worker's stream go on.  Runs are taken in the order the worker sends
 * them, one at a time, as the driver's thread runs them.  While any is
 * expected, the thread waits on the session ring as the threads waiting
 * for replies do (transport.c), so that a program that waits for its
 * host function by other means than CUDA still has it run.
 *
 * A host function may not call CUDA: a call that would go to the server
 * from this thread fails with CUDA_ERROR_NOT_PERMITTED (shim_call).
 *
 * One queued on a capturing stream becomes a node of the graph and runs
 * at every launch: it is kept, and so is the worker's part of it.
 * shim_host_node() is the same for a graph built node by node.
 */
#include <stdio.h>
#include <stdlib.h>

#include "shim.h"
#include "util.h"

/* Functions queued or in graphs at once: the id's index part. */
#define INDEX_BITS	20
#define INDEX_MAX	(1u << INDEX_BITS)

struct hostfn {
	uint64_t id;
	uint64_t sid;		/* its stream's id; the legacy stream's as 0 */
	uint64_t seq;		/* when it was queued, for the copies that wait for it */
	CUhostFn fn;		/* a host function, or */
	CUstreamCallback cb;	/* a stream callback */
	CUstream stream;	/* as the program named it: a callback is given it back */
	void *data;
	bool graph;		/* a node of a graph: runs at every launch, kept */
	struct hostfn *next_pending;
};

/* A run the worker asked for. */
struct run {
	struct run *next;
	uint64_t id, token;
	CUresult status;
	bool skipped;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cv;	/* work for the thread; a function finished */
	struct hostfn **tab;
	uint32_t n, cap;
	uint32_t *free;		/* indexes free in tab */
	uint32_t nfree;
	uint64_t ids, seq;
	struct hostfn *pending;	/* queued once, not yet run: the worker will ask */
	_Atomic unsigned int npending;	/* read without the lock by copies that may wait */
	unsigned int graphs;	/* kept for graphs: the worker may ask at any time */
	struct run *head, **tail;
	bool started, dead;
} hq = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
	.tail = &hq.head,
};

__thread bool shim_in_host_fn;

/* The legacy stream has two names. */
static uint64_t stream_key(uint64_t sid)
{
	return sid == (uint64_t)(uintptr_t)CU_STREAM_LEGACY ? 0 : sid;
}

/* ---- the table; hq.lock held ---- */

static struct hostfn *lookup(uint64_t id)
{
	uint32_t i = (uint32_t)(id & (INDEX_MAX - 1));

	return id && i < hq.n && hq.tab[i] && hq.tab[i]->id == id ? hq.tab[i] : NULL;
}

static struct hostfn *entry_new(void)
{
	struct hostfn *e = calloc(1, sizeof(*e));
	uint32_t i;

	if (!e)
		return NULL;
	if (hq.nfree) {
		i = hq.free[--hq.nfree];
	} else {
		if (hq.n == hq.cap) {
			uint32_t cap = hq.cap ? 2 * hq.cap : 64;
			struct hostfn **t;
			uint32_t *f;

			if (cap > INDEX_MAX)
				goto out_free;
			t = realloc(hq.tab, cap * sizeof(*t));
			if (!t)
				goto out_free;
			hq.tab = t;
			f = realloc(hq.free, cap * sizeof(*f));
			if (!f)
				goto out_free;
			hq.free = f;
			hq.cap = cap;
		}
		i = hq.n++;
	}
	e->id = (++hq.ids << INDEX_BITS) | i;
	hq.tab[i] = e;
	return e;
out_free:
	free(e);
	return NULL;
}

static void entry_free(struct hostfn *e)
{
	uint32_t i = (uint32_t)(e->id & (INDEX_MAX - 1));

	hq.tab[i] = NULL;
	hq.free[hq.nfree++] = i;
	free(e);
}

static void unpend(struct hostfn *e)
{
	struct hostfn **pp;

	for (pp = &hq.pending; *pp; pp = &(*pp)->next_pending) {
		if (*pp == e) {
			*pp = e->next_pending;
			atomic_fetch_sub(&hq.npending, 1);
			break;
		}
	}
}

/* Whether the worker may ask for a run: the thread then waits on the ring. */
static bool expecting(void)
{
	return hq.pending || hq.graphs;
}

/* ---- the thread ---- */

static bool have_run(void *arg)
{
	bool r;

	(void)arg;
	pthread_mutex_lock(&hq.lock);
	r = hq.head || !expecting();
	pthread_mutex_unlock(&hq.lock);
	return r;
}

/* The session is gone: nothing will run; whoever waits for a function stops. */
static void all_gone(void)
{
	pthread_mutex_lock(&hq.lock);
	hq.dead = true;
	while (hq.pending) {
		struct hostfn *e = hq.pending;

		hq.pending = e->next_pending;
		atomic_fetch_sub(&hq.npending, 1);
		entry_free(e);
	}
	pthread_cond_broadcast(&hq.cv);
	pthread_mutex_unlock(&hq.lock);
}

/* Let the worker's stream go on. */
static void answer(uint64_t id, uint64_t token)
{
	struct gl_a_gleamHostFuncRun a = { .id = id, .run = token };
	struct shim_call c = { .fn = GL_FN_gleamHostFuncRun, .args = &a, .args_len = sizeof(a) };

	shim_submit(&c, 0, 0);
}

static void run_one(struct run *r)
{
	struct hostfn *e, copy;

	pthread_mutex_lock(&hq.lock);
	e = lookup(r->id);
	if (e)
		copy = *e;
	pthread_mutex_unlock(&hq.lock);
	if (!e)
		return;
	/* The driver prints what kernels printed before it runs a callback. */
	shim_output_flush();
	if (!r->skipped) {
		shim_in_host_fn = true;
		if (copy.cb)
			copy.cb(copy.stream, r->status, copy.data);
		else
			copy.fn(copy.data);
		shim_in_host_fn = false;
		answer(r->id, r->token);
	}
	pthread_mutex_lock(&hq.lock);
	e = lookup(r->id);
	if (e && !e->graph) {
		unpend(e);
		entry_free(e);
	}
	pthread_cond_broadcast(&hq.cv);
	pthread_mutex_unlock(&hq.lock);
}

static void *host_thread(void *arg)
{
	(void)arg;
	shim_host_thread = true;
	for (;;) {
		struct run *r;

		pthread_mutex_lock(&hq.lock);
		while (!hq.head && !expecting())
			pthread_cond_wait(&hq.cv, &hq.lock);
		r = hq.head;
		if (r) {
			hq.head = r->next;
			if (!hq.head)
				hq.tail = &hq.head;
		}
		pthread_mutex_unlock(&hq.lock);
		if (r) {
			run_one(r);
			free(r);
			continue;
		}
		/* Runs come as replies: wait on the ring with the program's threads. */
		if (shim_wait_event(have_run, NULL)) {
			all_gone();
			return NULL;
		}
	}
}

/* hq.lock held. */
static int start_thread(void)
{
	pthread_t t;
	pthread_attr_t at;
	int err;

	if (hq.started)
		return 0;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &at, host_thread, NULL);
	pthread_attr_destroy(&at);
	if (!err)
		hq.started = true;
	return err;
}

/* ---- from the ring (transport.c), rx_lock held ---- */

void shim_host_notice(const struct gleam_host_run *b, CUresult status)
{
	struct run *r;

	pthread_mutex_lock(&hq.lock);
	if (!lookup(b->id)) {
		pthread_mutex_unlock(&hq.lock);
		return;
	}
	r = malloc(sizeof(*r));
	if (!r) {
		pthread_mutex_unlock(&hq.lock);
		gl_err("no memory for a host function's run: its stream waits");
		return;
	}
	*r = (struct run){ .id = b->id, .token = b->run, .status = status,
			   .skipped = b->flags & GLEAM_HOST_RUN_F_SKIPPED };
	*hq.tail = r;
	hq.tail = &r->next;
	pthread_cond_broadcast(&hq.cv);
	pthread_mutex_unlock(&hq.lock);
}

/* ---- the program's calls ---- */

/* A function kept here under a new id, to run each time the worker asks. */
static CUresult hostfn_new(CUhostFn fn, CUstreamCallback cb, CUstream stream, void *data,
			   uint64_t sid, bool graph, uint64_t *id)
{
	struct hostfn *e;
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&hq.lock);
	if (hq.dead) {
		r = CUDA_ERROR_DEVICE_UNAVAILABLE;
	} else if (start_thread()) {
		r = CUDA_ERROR_OPERATING_SYSTEM;
	} else if (!(e = entry_new())) {
		r = CUDA_ERROR_OUT_OF_MEMORY;
	} else {
		e->fn = fn;
		e->cb = cb;
		e->stream = stream;
		e->data = data;
		e->sid = stream_key(sid);
		e->seq = ++hq.seq;
		e->graph = graph;
		if (graph) {
			hq.graphs++;
		} else {
			e->next_pending = hq.pending;
			hq.pending = e;
			atomic_fetch_add(&hq.npending, 1);
		}
		*id = e->id;
		/* The thread starts waiting on the ring. */
		pthread_cond_broadcast(&hq.cv);
	}
	pthread_mutex_unlock(&hq.lock);
	return r;
}

/* The record was not sent: no run will be asked for. */
static void hostfn_unsent(uint64_t id)
{
	struct hostfn *e;

	pthread_mutex_lock(&hq.lock);
	e = lookup(id);
	if (e) {
		if (e->graph)
			hq.graphs--;
		else
			unpend(e);
		entry_free(e);
	}
	pthread_cond_broadcast(&hq.cv);
	pthread_mutex_unlock(&hq.lock);
}

CUresult shim_host_node(CUhostFn fn, void *data, uint64_t *id)
{
	if (!fn || !id)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.host)
		return SHIM_REFUSE("host nodes: this server does not run host functions in the "
				   "program (an older gleamd): CUDA_ERROR_NOT_SUPPORTED");
	return hostfn_new(fn, NULL, NULL, data, 0, true, id);
}

static CUresult queue(unsigned int fnum, CUstream stream, CUhostFn fn, CUstreamCallback cb,
		      void *data, unsigned int flags, int per_thread)
{
	union {
		struct gl_a_cuLaunchHostFunc f;
		struct gl_a_cuStreamAddCallback cb;
	} a;
	struct gleam_hostfn_rec x = { 0 };
	struct iovec iov = { .iov_base = &x, .iov_len = sizeof(x) };
	CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
	struct shim_call c;
	uint64_t id;
	__u64 sid;
	CUresult r;

	memset(&a, 0, sizeof(a));
	r = shim_begin(&c, fnum);
	if (r)
		return r;
	if ((!fn && !cb) || flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.host)
		return SHIM_REFUSE("%s: this server does not run host functions in the program "
				   "(an older gleamd): CUDA_ERROR_NOT_SUPPORTED", gl_fn_name(fnum));
	r = shim_stream_id(stream, per_thread, &sid);
	if (r)
		return r;
	/*
	 * On a capturing stream, a host function is a node of the graph; a
	 * callback is refused there (shim_capture_gate), as by the driver.
	 */
	if (fn && !shim_cuStreamIsCapturing(stream, &cs, per_thread) &&
	    cs == CU_STREAM_CAPTURE_STATUS_ACTIVE)
		x.flags |= GLEAM_HOSTFN_F_GRAPH;
	r = hostfn_new(fn, cb, stream, data, sid, x.flags & GLEAM_HOSTFN_F_GRAPH, &id);
	if (r) {
		shim_call_stream = 0;
		return r;
	}
	if (cb) {
		a.cb.hStream = sid;
		a.cb.callback = (__s64)id;
		c.args_len = sizeof(a.cb);
	} else {
		a.f.hStream = sid;
		a.f.fn = (__s64)id;
		c.args_len = sizeof(a.f);
	}
	c.args = &a;
	r = shim_call_iov(&c, &iov);
	/* Refused before it left (a capture's rules, a lost session): nothing will run. */
	if (r && !c.waited)
		hostfn_unsent(id);
	return r;
}

CUresult shim_cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData, int per_thread)
{
	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	return queue(GL_FN_cuLaunchHostFunc, hStream, fn, NULL, userData, 0, per_thread);
}

CUresult shim_cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
				  unsigned int flags, int per_thread)
{
	if (!callback)
		return CUDA_ERROR_INVALID_VALUE;
	return queue(GL_FN_cuStreamAddCallback, hStream, NULL, callback, userData, flags,
		     per_thread);
}

/*
 * A copy from page-locked memory on stream sid reads that memory when the
 * stream gets to it, after the host functions queued before it there,
 * which may fill it; the shim reads it when the copy is queued.  So it
 * first waits until those have run.  (From pageable memory the driver
 * reads at the call too.)
 */
void shim_host_wait_stream(uint64_t sid, const char *who)
{
	uint64_t seq, key = stream_key(sid);
	bool said = false;

	if (shim_in_host_fn || !atomic_load(&hq.npending))
		return;
	pthread_mutex_lock(&hq.lock);
	seq = hq.seq;
	for (;;) {
		struct hostfn *e;

		for (e = hq.pending; e; e = e->next_pending)
			if (e->sid == key && e->seq <= seq)
				break;
		if (!e || hq.dead)
			break;
		if (shim_trace_waits && !said)
			gl_err("waits: %s: for a host function queued before it on its stream",
			       who);
		said = true;
		pthread_cond_wait(&hq.cv, &hq.lock);
	}
	pthread_mutex_unlock(&hq.lock);
}
