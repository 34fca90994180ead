// SPDX-License-Identifier: MIT
/*
 * Host functions and stream callbacks, which run in the program's process
 * (Documentation/design.md, "Host functions and device output").
 *
 * The worker puts a function of its own on the stream in their place (a
 * trampoline, given the index of a slot as its data).  When the stream
 * reaches it, the driver calls it on a thread of the driver's (the sim on
 * one of its own, and the sim's work queued after it waits where it is
 * queued, in its record's replay); it sends the shim a
 * gleamHostFuncRun reply and holds the stream until the shim's
 * gleamHostFuncRun record says that the program's function returned.
 *
 * That record comes on the SQ, which this worker's main thread reads in
 * order; but the main thread may itself be held by the stream (a
 * synchronisation waits for it, or a launch waits for room in a queue
 * that it fills).  So while a run waits for the shim and the main thread
 * is busy, a helper reads the SQ ahead: it handles the shim's answers at
 * once and keeps every other record, in order, for the main thread, which
 * takes them before it reads the ring again (wk_host_take()).  Both read
 * under one lock, the SQ's consumer side.  What the helper keeps is
 * bounded (AHEAD_MAX); past it, it stops reading, says so, and the
 * session waits for its main thread as any session does.  A session that
 * never queues a host function never starts the helper and takes no lock.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "worker.h"

/* Host functions a session may have queued or in graphs at once. */
#define SLOTS_MAX	(1u << 20)
/* Bytes of records the helper keeps for the main thread at most. */
#define AHEAD_MAX	(256u << 20)
/* A run's token: the slot's index above RUN_BITS, the run's number below. */
#define RUN_BITS	44
#define RUN_MASK	((1ull << RUN_BITS) - 1)

enum { SLOT_FREE, SLOT_QUEUED, SLOT_GRAPH, SLOT_SKIPPED };

struct slot {
	uint64_t id;		/* the shim's */
	uint64_t ctx;		/* the context it was queued in */
	uint64_t runs;		/* runs begun */
	uint64_t done;		/* the last run the shim said returned */
	uint32_t next_free;
	uint8_t state;		/* SLOT_* */
	bool callback;		/* cuStreamAddCallback's: runs even when its context failed */
};

/* A record the helper read ahead. */
struct ahead {
	struct ahead *next;
	uint32_t len, pos;
	unsigned char rec[];
};

struct wk_host {
	struct worker *w;
	pthread_mutex_t lock;	/* everything below but rd */
	pthread_cond_t cv;	/* a run returned, the helper is needed, the session ended */
	pthread_mutex_t rd;	/* the SQ's consumer side */
	struct slot *s;
	uint32_t n, cap;
	uint32_t free_head;	/* UINT32_MAX: none */
	unsigned int waiting;	/* runs waiting for the shim */
	bool busy;		/* the main thread is replaying a record */
	bool over;		/* the session ended: nobody will answer */
	bool main_sleeping;	/* the main thread waits for records */
	bool helper_wants;	/* the helper waits for records to read ahead */
	uint64_t gen;		/* doorbells rung */
	int kick;		/* eventfd: the helper has work (a run waits, main busy) */
	bool said_full;
	struct ahead *head, **tail;
	size_t ahead_bytes;
};

/* One worker per process: the trampolines, called by the driver, find it here. */
static struct wk_host *the_host;

/* ---- slots ---- */

static int64_t slot_new(struct wk_host *h, uint64_t id, uint64_t ctx, uint8_t state,
			bool callback)
{
	uint32_t i = h->free_head;

	if (i != UINT32_MAX) {
		h->free_head = h->s[i].next_free;
	} else {
		if (h->n == h->cap) {
			uint32_t cap = h->cap ? 2 * h->cap : 64;
			struct slot *s;

			if (cap > SLOTS_MAX)
				return -1;
			s = realloc(h->s, cap * sizeof(*s));
			if (!s)
				return -1;
			h->s = s;
			h->cap = cap;
		}
		i = h->n++;
	}
	h->s[i] = (struct slot){ .id = id, .ctx = ctx, .state = state, .callback = callback };
	return i;
}

/*
 * Only a slot that the driver will not call again goes back: one run of
 * a queued function, or a queue the driver refused.  A skipped one never
 * does, in case a driver that said it would not run it does after all.
 */
static void slot_free(struct wk_host *h, uint32_t i)
{
	h->s[i].state = SLOT_FREE;
	h->s[i].id = 0;
	h->s[i].next_free = h->free_head;
	h->free_head = i;
}

/* The helper has work: a run waits while the main thread is busy. */
static void kick(struct wk_host *h)
{
	uint64_t one = 1;

	if (write(h->kick, &one, sizeof(one)) < 0)
		return;
}

/* ---- the messages ---- */

/* A run is due, or (SKIPPED) will not happen; cq_lock held. */
static int notify(struct worker *w, uint64_t id, uint64_t token, CUresult status, uint32_t flags)
{
	struct gleam_reply rh = { .fn = GL_FN_gleamHostFuncRun, .result = status };
	struct gleam_host_run b = { .id = id, .run = token, .flags = flags };

	return wk_put_reply(w, &rh, &b, sizeof(b), NULL, 0);
}

static void notify_skipped(struct worker *w, uint64_t id)
{
	pthread_mutex_lock(&w->cq_lock);
	notify(w, id, 0, CUDA_SUCCESS, GLEAM_HOST_RUN_F_SKIPPED);
	pthread_mutex_unlock(&w->cq_lock);
}

/* The shim's answer: run token of function id returned. */
static void host_done(struct wk_host *h, uint64_t id, uint64_t token)
{
	uint64_t i = token >> RUN_BITS, run = token & RUN_MASK;

	pthread_mutex_lock(&h->lock);
	if (i < h->n && id && h->s[i].id == id && run <= h->s[i].runs && run > h->s[i].done &&
	    (h->s[i].state == SLOT_QUEUED || h->s[i].state == SLOT_GRAPH)) {
		h->s[i].done = run;
		pthread_cond_broadcast(&h->cv);
	}
	pthread_mutex_unlock(&h->lock);
}

/*
 * What the driver calls where the program's function was queued: the
 * shim runs it, and the stream waits here until it has.  Output the
 * kernels printed goes first, as the driver prints before a callback.
 */
static void run_slot(uintptr_t data, CUresult status)
{
	struct wk_host *h = the_host;
	uint32_t i = (uint32_t)(data - 1);
	uint64_t run, id;
	int err;

	if (!h || !data)
		return;
	pthread_mutex_lock(&h->w->cq_lock);
	pthread_mutex_lock(&h->lock);
	if (i >= h->n || h->over || h->s[i].runs >= RUN_MASK ||
	    (h->s[i].state != SLOT_QUEUED && h->s[i].state != SLOT_GRAPH)) {
		pthread_mutex_unlock(&h->lock);
		pthread_mutex_unlock(&h->w->cq_lock);
		return;
	}
	run = ++h->s[i].runs;
	id = h->s[i].id;
	/* The main thread may be the one held: the helper reads for it. */
	if (!h->waiting++ && h->busy)
		kick(h);
	pthread_mutex_unlock(&h->lock);
	wk_output_send(h->w);
	err = notify(h->w, id, (uint64_t)i << RUN_BITS | run, status, 0);
	pthread_mutex_unlock(&h->w->cq_lock);
	pthread_mutex_lock(&h->lock);
	while (!err && !h->over && h->s[i].done < run)
		pthread_cond_wait(&h->cv, &h->lock);
	h->waiting--;
	if (h->s[i].state == SLOT_QUEUED)
		slot_free(h, i);
	pthread_mutex_unlock(&h->lock);
}

static void host_fn_tramp(void *data)
{
	run_slot((uintptr_t)data, CUDA_SUCCESS);
}

static void CUDA_CB callback_tramp(CUstream s, CUresult status, void *data)
{
	(void)s;
	run_slot((uintptr_t)data, status);
}

/* ---- reading ahead ---- */

static bool is_answer(const struct gleam_rec *r, uint32_t len)
{
	return r->fn == GL_FN_gleamHostFuncRun && !r->flags && !r->reserved &&
	       len == sizeof(*r) + ALIGN8(sizeof(struct gl_a_gleamHostFuncRun));
}

/* Everything the SQ holds: answers handled, the rest kept; rd held.  Records read, or -1. */
static int read_ahead(struct wk_host *h)
{
	struct worker *w = h->w;
	const unsigned char *p;
	uint32_t len;
	int n = 0;

	while ((p = gl_ring_peek(&w->ring.sq, sizeof(struct gleam_rec), GLEAM_REC_MAX, &len))) {
		struct gleam_rec r;
		struct ahead *a;

		memcpy(&r, p, sizeof(r));
		if (is_answer(&r, len)) {
			struct gl_a_gleamHostFuncRun x;

			memcpy(&x, p + sizeof(r), sizeof(x));
			gl_ring_consume(&w->ring.sq, len);
			host_done(h, x.id, x.run);
			n++;
			continue;
		}
		if (h->ahead_bytes + len > AHEAD_MAX) {
			if (!h->said_full)
				gl_err("a host function waits behind more than %u MiB of records: "
				       "they wait for the stream it holds", AHEAD_MAX >> 20);
			h->said_full = true;
			break;
		}
		a = malloc(sizeof(*a) + len);
		if (!a)
			break;
		memcpy(a->rec, p, len);
		a->len = len;
		a->pos = w->ring.sq.pos;
		a->next = NULL;
		gl_ring_consume(&w->ring.sq, len);
		pthread_mutex_lock(&h->lock);
		*h->tail = a;
		h->tail = &a->next;
		h->ahead_bytes += len;
		pthread_mutex_unlock(&h->lock);
		n++;
	}
	if (gl_ring_consume_publish(&w->ring.sq))
		wk_bell(w);
	return w->ring.sq.broken ? -1 : n;
}

static bool helper_needed(const struct wk_host *h)
{
	return h->busy && h->waiting && !h->over;
}

/* The SQ asks for a doorbell while the main thread or the helper sleeps for records; lock held. */
static void sq_flag(struct wk_host *h)
{
	gl_ring_cons_set_sleeping(&h->w->ring.sq, h->main_sleeping || h->helper_wants);
}

/* The session is over: nobody answers what waits, and nobody rings. */
static void host_over(struct wk_host *h)
{
	pthread_mutex_lock(&h->lock);
	h->over = true;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->lock);
}

/*
 * A doorbell rang: whoever waits for one (the main thread for records,
 * any thread for room on the CQ) looks again.  0, or -EPIPE once the
 * server has hung up.
 */
static int take_bell(struct wk_host *h)
{
	char buf[64];
	ssize_t n;

	while ((n = recv(h->w->bell, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		;
	if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		return -EPIPE;
	pthread_mutex_lock(&h->lock);
	h->gen++;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->lock);
	return 0;
}

/*
 * Once host functions are in use, the helper alone sleeps on the doorbell
 * (a byte taken by one thread would leave another asleep), and turns each
 * ring into a broadcast; and while a run waits for the shim and the main
 * thread is busy, it reads the SQ ahead, asking for a doorbell when the
 * SQ is empty.
 */
static void *helper(void *arg)
{
	struct wk_host *h = arg;
	struct worker *w = h->w;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = w->bell, .events = POLLIN },
			{ .fd = h->kick, .events = POLLIN },
		};
		bool want, over;
		int n = 0;

		pthread_mutex_lock(&h->lock);
		want = helper_needed(h);
		over = h->over;
		pthread_mutex_unlock(&h->lock);
		if (over)
			break;
		if (want) {
			pthread_mutex_lock(&h->rd);
			/* The main thread may have finished meanwhile: it reads for itself. */
			pthread_mutex_lock(&h->lock);
			want = helper_needed(h);
			pthread_mutex_unlock(&h->lock);
			n = want ? read_ahead(h) : 0;
			pthread_mutex_unlock(&h->rd);
			if (n < 0)
				break;
		}
		pthread_mutex_lock(&h->lock);
		h->helper_wants = want && !n;
		sq_flag(h);
		pthread_mutex_unlock(&h->lock);
		/* What came before the SQ asked for a doorbell gets none. */
		if (n || (want && !gl_ring_empty(&w->ring.sq)))
			continue;
		if (poll(p, 2, 1000) < 0 && errno != EINTR)
			break;
		if (p[1].revents & POLLIN) {
			uint64_t v;

			if (read(h->kick, &v, sizeof(v)) < 0 && errno != EAGAIN)
				break;
		}
		if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) && take_bell(h))
			break;
	}
	host_over(h);
	return NULL;
}

static struct wk_host *host_get(struct worker *w)
{
	struct wk_host *h = w->hf;
	pthread_condattr_t ca;
	pthread_t t;

	if (h)
		return h;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->w = w;
	/* Made in the replay of a record: the main thread is busy with it. */
	h->busy = true;
	h->free_head = UINT32_MAX;
	h->tail = &h->head;
	pthread_mutex_init(&h->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&h->rd, NULL);
	h->kick = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (h->kick < 0 || pthread_create(&t, NULL, helper, h)) {
		if (h->kick >= 0)
			close(h->kick);
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->cv);
		pthread_mutex_destroy(&h->rd);
		free(h);
		return NULL;
	}
	pthread_detach(t);
	the_host = h;
	w->hf = h;
	return h;
}

/* ---- what the main thread calls ---- */

void wk_host_rd_lock(struct worker *w)
{
	pthread_mutex_lock(&w->hf->rd);
}

void wk_host_rd_unlock(struct worker *w)
{
	pthread_mutex_unlock(&w->hf->rd);
}

bool wk_host_take(struct worker *w, uint32_t *len, uint32_t *pos)
{
	struct wk_host *h = w->hf;
	struct ahead *a;

	pthread_mutex_lock(&h->lock);
	a = h->head;
	if (a && !wk_rec_room(w, a->len)) {
		h->head = a->next;
		if (!h->head)
			h->tail = &h->head;
		h->ahead_bytes -= a->len;
	} else {
		a = NULL;
	}
	pthread_mutex_unlock(&h->lock);
	if (!a)
		return false;
	memcpy(w->rec, a->rec, a->len);
	*len = a->len;
	*pos = a->pos;
	free(a);
	return true;
}

void wk_host_busy(struct worker *w, bool busy)
{
	struct wk_host *h = w->hf;

	pthread_mutex_lock(&h->lock);
	h->busy = busy;
	if (busy && h->waiting)
		kick(h);
	pthread_mutex_unlock(&h->lock);
}

void wk_host_end(struct worker *w)
{
	if (w->hf) {
		host_over(w->hf);
		kick(w->hf);
	}
}

/*
 * The main thread has nothing to replay: it sleeps until a doorbell (the
 * helper's broadcast), having asked for one.  0, or -EPIPE: the session
 * is over.
 */
int wk_host_idle(struct worker *w)
{
	struct wk_host *h = w->hf;
	struct timespec ts;
	uint64_t gen;
	int err;

	pthread_mutex_lock(&h->lock);
	h->main_sleeping = true;
	sq_flag(h);
	gen = h->gen;
	pthread_mutex_unlock(&h->lock);
	/* A record published before the SQ asked for a doorbell gets none. */
	if (gl_ring_empty(&w->ring.sq)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += 1;
		pthread_mutex_lock(&h->lock);
		while (h->gen == gen && !h->over &&
		       pthread_cond_timedwait(&h->cv, &h->lock, &ts) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&h->lock);
	}
	pthread_mutex_lock(&h->lock);
	h->main_sleeping = false;
	sq_flag(h);
	err = h->over ? -EPIPE : 0;
	pthread_mutex_unlock(&h->lock);
	return err;
}

/* Room on the CQ: the caller asked for a doorbell; the next one, or 10 ms. */
int wk_host_space_wait(struct worker *w)
{
	struct wk_host *h = w->hf;
	struct timespec ts;
	uint64_t gen;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 10 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&h->lock);
	gen = h->gen;
	while (h->gen == gen && !h->over &&
	       pthread_cond_timedwait(&h->cv, &h->lock, &ts) != ETIMEDOUT)
		;
	err = h->over ? -EPIPE : 0;
	pthread_mutex_unlock(&h->lock);
	return err;
}

/*
 * A context whose work failed runs no more host functions (the driver's
 * rule for cuLaunchHostFunc; callbacks still run, given the error): the
 * shim stops waiting for those queued there that have not begun.
 */
void wk_host_ctx_failed(struct worker *w, uint64_t ctx)
{
	struct wk_host *h = w->hf;
	uint64_t ids[64];
	unsigned int n;

	do {
		n = 0;
		pthread_mutex_lock(&h->lock);
		for (uint32_t i = 0; i < h->n && n < ARRAY_SIZE(ids); i++) {
			struct slot *s = &h->s[i];

			if (s->state == SLOT_QUEUED && s->ctx == ctx && !s->runs && !s->callback) {
				s->state = SLOT_SKIPPED;
				ids[n++] = s->id;
			}
		}
		pthread_mutex_unlock(&h->lock);
		for (unsigned int i = 0; i < n; i++)
			notify_skipped(w, ids[i]);
	} while (n == ARRAY_SIZE(ids));
}

CUresult wk_host_node(struct worker *w, uint64_t id, uint64_t ctx, CUhostFn *fn, void **data)
{
	struct wk_host *h = host_get(w);
	int64_t i;

	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!id || !w->host)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&h->lock);
	i = slot_new(h, id, ctx, SLOT_GRAPH, false);
	pthread_mutex_unlock(&h->lock);
	if (i < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*fn = host_fn_tramp;
	*data = (void *)(uintptr_t)(i + 1);
	return CUDA_SUCCESS;
}

/*
 * cuLaunchHostFunc and cuStreamAddCallback: the trampoline goes on the
 * stream.  Whatever keeps it off, the shim is told, which would otherwise
 * wait for a run that never comes.
 */
static CUresult queue(struct wk_call *k, uint64_t sid, uint64_t id, bool callback)
{
	const struct gleam_hostfn_rec *x = wk_data(k, sizeof(*x));
	struct worker *w = k->w;
	struct wk_host *h;
	bool graph = x && (x->flags & GLEAM_HOSTFN_F_GRAPH);
	CUstream s;
	int64_t i = -1;
	CUresult r;

	if (!x || x->reserved || (x->flags & ~GLEAM_HOSTFN_F_KNOWN) || !id)
		return CUDA_ERROR_INVALID_VALUE;
	if (!w->host)
		return CUDA_ERROR_NOT_SUPPORTED;
	r = wk_stream(w, sid, &s);
	h = r ? NULL : host_get(w);
	if (!r && !h)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (!r) {
		pthread_mutex_lock(&h->lock);
		i = slot_new(h, id, k->hdr.ctx, graph ? SLOT_GRAPH : SLOT_QUEUED, callback);
		pthread_mutex_unlock(&h->lock);
		if (i < 0)
			r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (!r && callback)
		r = w->be->op.f_cuStreamAddCallback(s, callback_tramp, (void *)(uintptr_t)(i + 1),
						    0);
	else if (!r)
		r = w->be->op.f_cuLaunchHostFunc(s, host_fn_tramp, (void *)(uintptr_t)(i + 1));
	if (r && i >= 0) {
		/* Refused: the driver never calls it (a run it began frees it itself). */
		pthread_mutex_lock(&h->lock);
		if (h->s[i].state != SLOT_FREE && !h->s[i].runs)
			slot_free(h, (uint32_t)i);
		pthread_mutex_unlock(&h->lock);
	}
	if (r && !graph)
		notify_skipped(w, id);
	return r;
}

CUresult wk_cuLaunchHostFunc(struct wk_call *k)
{
	const struct gl_a_cuLaunchHostFunc *a = wk_args(k, sizeof(*a));

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	return queue(k, a->hStream, (uint64_t)a->fn, false);
}

CUresult wk_cuStreamAddCallback(struct wk_call *k)
{
	const struct gl_a_cuStreamAddCallback *a = wk_args(k, sizeof(*a));

	if (!a || a->flags)
		return CUDA_ERROR_INVALID_VALUE;
	return queue(k, a->hStream, (uint64_t)a->callback, true);
}

/* The shim's answer, read in order (the helper takes those that come while it reads). */
CUresult wk_gleamHostFuncRun(struct wk_call *k)
{
	const struct gl_a_gleamHostFuncRun *a = wk_args(k, sizeof(*a));

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	if (k->w->hf)
		host_done(k->w->hf, a->id, a->run);
	return CUDA_SUCCESS;
}

/* A message the worker sends, never one it takes. */
CUresult wk_gleamOutput(struct wk_call *k)
{
	(void)k;
	return CUDA_ERROR_INVALID_VALUE;
}
