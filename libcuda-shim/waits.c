// SPDX-License-Identifier: MIT
/*
 * Counting waits: the ones this process made (a call that waited for a
 * reply from gleamd), and the ones the program itself required, counted
 * from its calls alone as CUDA defines them, whatever Gleam answers
 * locally, merges or adds:
 *
 *   - a synchronisation (of a stream, an event or the context) with work
 *     queued in its scope since the last wait that covered it;
 *   - a query of a stream or event with such work;
 *   - a copy to pageable host memory, which CUDA completes before it
 *     returns (to page-locked memory it is work on its stream);
 *   - a question only the GPU can answer: free memory, the time between
 *     two events, a memory pool's current or highest use.
 *
 * Both counts are published in the session ring (GLEAM_RING_STAT_*) for
 * gleamd, gleamctl status and the benchmarks, and GLEAM_TRACE_WAITS says
 * them at exit.  Work is tracked per context: a sequence number per piece
 * of work, and per stream (and event) what was queued last and what a
 * wait has covered.  Streams and events are kept in small tables by id;
 * one that does not fit is taken as always busy, which errs on the side
 * of counting a wait as required.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"
#include "util.h"

#define REQ_SLOTS	64

struct req_stream {
	uint64_t key;		/* stream id plus one; 0: free */
	uint64_t last;		/* work queued on it last */
	uint64_t done;		/* work a wait covered */
};

struct req_event {
	uint64_t key;		/* event id plus one */
	uint64_t stream;	/* key of the stream it was recorded on */
	uint64_t seq;		/* the work it stands for */
};

struct shim_req {
	pthread_mutex_t lock;
	uint64_t work;		/* pieces of work queued in the context */
	uint64_t done_all;	/* work a context-wide wait covered */
	uint64_t lost;		/* work on a stream the table had no room for */
	struct req_stream s[REQ_SLOTS];
	struct req_event e[REQ_SLOTS];
};

static _Atomic uint64_t *stat_made, *stat_required;
static _Atomic uint64_t no_ring[2];

void shim_waits_attach(struct gleam_ring_ctl *sq)
{
	if (sq) {
		stat_made = (_Atomic uint64_t *)&sq->prod_stats[GLEAM_RING_STAT_WAITS];
		stat_required = (_Atomic uint64_t *)&sq->prod_stats[GLEAM_RING_STAT_WAITS_REQUIRED];
	} else {
		stat_made = &no_ring[0];
		stat_required = &no_ring[1];
	}
}

void shim_waits_made(void)
{
	if (stat_made)
		atomic_fetch_add_explicit(stat_made, 1, memory_order_relaxed);
}

void shim_waits_counts(uint64_t *made, uint64_t *required)
{
	*made = stat_made ? atomic_load_explicit(stat_made, memory_order_relaxed) : 0;
	*required = stat_required ? atomic_load_explicit(stat_required, memory_order_relaxed) : 0;
}

static void required(void)
{
	if (stat_required)
		atomic_fetch_add_explicit(stat_required, 1, memory_order_relaxed);
}

static struct req_stream *stream_slot(struct shim_req *q, uint64_t id)
{
	uint64_t key = id + 1;
	struct req_stream *s = &q->s[(key * 0x9e3779b97f4a7c15ull) >> 58];

	if (s->key != key && s->key) {
		/* Taken by another: the newcomer never counts as idle (see above). */
		for (unsigned int i = 0; i < REQ_SLOTS; i++)
			if (!q->s[i].key || q->s[i].key == key)
				return q->s[i].key = key, &q->s[i];
		return NULL;
	}
	s->key = key;
	return s;
}

static struct req_event *event_slot(struct shim_req *q, uint64_t id)
{
	uint64_t key = id + 1;

	for (unsigned int i = 0; i < REQ_SLOTS; i++)
		if (q->e[i].key == key || !q->e[i].key)
			return q->e[i].key = key, &q->e[i];
	return NULL;
}

static uint64_t done_of(const struct shim_req *q, const struct req_stream *s)
{
	return s ? MAX(s->done, q->done_all) : q->done_all;
}

/* Work on stream id. */
static void work(struct shim_req *q, uint64_t id)
{
	struct req_stream *s = stream_slot(q, id);

	q->work++;
	if (s)
		s->last = q->work;
	else
		q->lost = q->work;
}

/* A wait on stream id: whether it has work to wait for; done marks it covered. */
static bool stream_busy(struct shim_req *q, uint64_t id, bool done)
{
	struct req_stream *s = stream_slot(q, id);
	bool busy = !s || s->last > done_of(q, s);

	if (s && done)
		s->done = q->work;
	return busy;
}

/* Whether any stream of the context has work no wait has covered. */
static bool ctx_busy(const struct shim_req *q)
{
	if (q->lost > q->done_all)
		return true;
	for (unsigned int i = 0; i < REQ_SLOTS; i++)
		if (q->s[i].key && q->s[i].last > done_of(q, &q->s[i]))
			return true;
	return false;
}

static bool event_busy(struct shim_req *q, uint64_t id, bool done)
{
	struct req_event *e = event_slot(q, id);
	struct req_stream *s;

	if (!e)
		return true;
	if (!e->stream)
		return false;	/* never recorded: complete */
	s = stream_slot(q, e->stream - 1);
	if (!s || e->seq > done_of(q, s)) {
		if (s && done && s->done < e->seq)
			s->done = e->seq;
		return true;
	}
	return false;
}

static struct shim_req *req_of(struct shim_ctx *ctx)
{
	struct shim_req *q = atomic_load_explicit(&ctx->req, memory_order_acquire);

	if (!q) {
		struct shim_req *n = calloc(1, sizeof(*n));

		if (!n)
			return NULL;
		pthread_mutex_init(&n->lock, NULL);
		if (!atomic_compare_exchange_strong(&ctx->req, &q, n)) {
			free(n);
			return q;
		}
		q = n;
	}
	return q;
}

/* A context that ends starts again from nothing queued (a primary one is renewed). */
void shim_waits_ctx_gone(struct shim_ctx *ctx)
{
	struct shim_req *q = atomic_load_explicit(&ctx->req, memory_order_acquire);

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->work = q->done_all = q->lost = 0;
	memset(q->s, 0, sizeof(q->s));
	memset(q->e, 0, sizeof(q->e));
	pthread_mutex_unlock(&q->lock);
}

/* The context object itself is recycled: its table goes. */
void shim_waits_ctx_put(struct shim_ctx *ctx)
{
	struct shim_req *q = atomic_exchange(&ctx->req, NULL);

	if (q) {
		pthread_mutex_destroy(&q->lock);
		free(q);
	}
}

/* The stream a call named (shim_stream_id), or the legacy stream. */
static uint64_t call_stream(void)
{
	return shim_call_stream ? shim_call_stream - 1 : 0;
}

/* The event a call names (wait:event, query:event, cuEventRecord, cuStreamWaitEvent). */
static uint64_t call_event(const struct shim_call *c)
{
	switch (c->fn) {
	case GL_FN_cuEventRecord:
		return ((const struct gl_a_cuEventRecord *)c->args)->hEvent;
	case GL_FN_cuStreamWaitEvent:
		return ((const struct gl_a_cuStreamWaitEvent *)c->args)->hEvent;
	case GL_FN_cuEventSynchronize:
		return ((const struct gl_a_cuEventSynchronize *)c->args)->hEvent;
	case GL_FN_cuEventQuery:
		return ((const struct gl_a_cuEventQuery *)c->args)->hEvent;
	default:
		return 0;
	}
}

/* Whether a call the table marks gpu asks what only the GPU knows. */
static bool gpu_question(const struct shim_call *c)
{
	unsigned int attr;

	if (c->fn != GL_FN_cuMemPoolGetAttribute)
		return true;
	/* Of a pool, only what it holds now and held at most. */
	attr = ((const struct gl_a_cuMemPoolGetAttribute *)c->args)->attr;
	return attr == CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT ||
	       attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH ||
	       attr == CU_MEMPOOL_ATTR_USED_MEM_CURRENT || attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH;
}

/*
 * Work and waits as the table describes each function (uapi/api.tbl):
 * fill, work and tohost queue work on the call's stream; event records
 * and stream waits move what an event or a stream stands for; wait:,
 * query: and gpu are the waits, tohost to pageable memory too.
 */
void shim_waits_note(const struct shim_call *c, struct shim_ctx *ctx)
{
	unsigned int t = gl_fn_traits(c->fn);
	struct shim_req *q;
	bool req = false;

	if (shim_ungated || !t)
		return;
	/* Questions only the GPU answers, in any context or none. */
	if (t & GL_T_GPU) {
		if (gpu_question(c))
			required();
		return;
	}
	if (!ctx || ctx->o.id != c->ctx || !(q = req_of(ctx)))
		return;
	pthread_mutex_lock(&q->lock);
	if (t & (GL_T_FILL | GL_T_WORK | GL_T_TOHOST))
		work(q, call_stream());
	if (t & GL_T_TOHOST && !c->host_pinned) {
		/* To pageable memory CUDA completes it before it returns. */
		req = true;
		stream_busy(q, call_stream(), true);
	}
	if (c->fn == GL_FN_cuEventRecord) {
		struct req_event *e = event_slot(q, call_event(c));
		struct req_stream *s = stream_slot(q, call_stream());

		if (e) {
			e->stream = call_stream() + 1;
			e->seq = s ? s->last : q->work;
		}
	} else if (c->fn == GL_FN_cuStreamWaitEvent) {
		struct req_event *e = event_slot(q, call_event(c));
		struct req_stream *s = stream_slot(q, call_stream());

		if (e && s && e->seq > s->last)
			s->last = e->seq;
	}
	if (t & GL_T_WAIT_STREAM)
		req = stream_busy(q, call_stream(), true);
	else if (t & GL_T_QUERY_STREAM)
		req = stream_busy(q, call_stream(), false);
	else if (t & GL_T_WAIT_CTX)
		req = ctx_busy(q), q->done_all = q->work;
	else if (t & GL_T_WAIT_EVENT)
		req = event_busy(q, call_event(c), true);
	else if (t & GL_T_QUERY_EVENT)
		req = event_busy(q, call_event(c), false);
	pthread_mutex_unlock(&q->lock);
	if (req)
		required();
}
