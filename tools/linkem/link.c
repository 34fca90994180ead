// SPDX-License-Identifier: MIT
/*
 * The model of one direction of the link: a token bucket that meters bytes
 * onto the wire, then a delay line that holds each byte for the propagation
 * delay plus jitter.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linkem.h"

#define AUTO_BURST_MIN		(64 * 1024ULL)
#define QUANTUM_MAX		(64 * 1024ULL)
#define CATCH_UP_NS		(100 * NSEC_PER_MSEC)
#define RING_LIMIT_MIN		(1024 * 1024ULL)
#define RING_LIMIT_MAX		(256 * 1024 * 1024ULL)
/* Assumed rate, bytes/s, when the link has no limit: sizes the delay line. */
#define UNLIMITED_BYTES_PER_S	(4ULL * 1000 * 1000 * 1000)

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t next_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/*
 * An idle link keeps at most a bucket's depth of credit.  A backlogged one,
 * whose senders had bytes waiting all along, keeps what accrued while the
 * relay itself was not running (up to CATCH_UP_NS of it): a real link would
 * have carried those bytes, and the rate must not depend on how busy the
 * relay's CPU is.
 */
void bucket_refill(struct token_bucket *tb, uint64_t now, bool backlog)
{
	double limit = tb->depth;

	if (now <= tb->last_ns)
		return;
	if (tb->rate_bps) {
		tb->tokens += (double)(now - tb->last_ns) * tb->rate_bps / 8e9;
		if (backlog)
			limit += (double)tb->rate_bps * CATCH_UP_NS / 8e9;
		if (tb->tokens > limit)
			tb->tokens = limit;
	}
	tb->last_ns = now;
}

/*
 * A grant smaller than the quantum would cost a wake-up and a system call
 * per few bytes at high rates; waiting for the quantum costs at most
 * quantum / rate of latency, less than the bucket already allows.
 */
bool bucket_ready(const struct token_bucket *tb)
{
	return !tb->rate_bps || tb->tokens >= tb->quantum;
}

uint64_t bucket_grant(const struct token_bucket *tb, uint64_t want)
{
	if (!tb->rate_bps)
		return want;
	if (tb->tokens < 1)
		return 0;
	return want < tb->tokens ? want : (uint64_t)tb->tokens;
}

void bucket_take(struct token_bucket *tb, uint64_t n)
{
	if (tb->rate_bps)
		tb->tokens -= n;
}

uint64_t bucket_ready_at(const struct token_bucket *tb, uint64_t now)
{
	double missing;

	if (bucket_ready(tb))
		return now;
	missing = tb->quantum - tb->tokens;
	return now + (uint64_t)(missing * 8e9 / tb->rate_bps) + 1;
}

static void bucket_set(struct token_bucket *tb, uint64_t rate_bps,
		       uint64_t burst)
{
	uint64_t depth = burst;

	if (!depth) {
		/* One millisecond of traffic, and never less than 64 KiB. */
		depth = rate_bps / 8 / 1000;
		if (depth < AUTO_BURST_MIN)
			depth = AUTO_BURST_MIN;
	}
	tb->rate_bps = rate_bps;
	tb->depth = depth;
	tb->quantum = depth / 2 < QUANTUM_MAX ? depth / 2 : QUANTUM_MAX;
	if (!tb->quantum)
		tb->quantum = 1;
	if (tb->tokens > depth)
		tb->tokens = depth;
}

static uint64_t jitter_at(struct jitter *j, uint64_t now)
{
	int64_t span, dj;

	if (!j->amp_ns)
		return 0;
	if (now >= j->t1) {
		j->j0 = j->j1 > j->amp_ns ? j->amp_ns : j->j1;
		j->t0 = now;
		j->t1 = now + 2 * j->amp_ns;
		j->j1 = rng_next(&j->rng) % (j->amp_ns + 1);
	}
	span = j->t1 - j->t0;
	dj = (int64_t)j->j1 - (int64_t)j->j0;
	return j->j0 + (int64_t)((double)dj * (now - j->t0) / span);
}

/*
 * Release time of what enters the delay line now.  Release times never
 * decrease, even when the delay is lowered at run time, so the bytes of a
 * connection, and the connections of the link, keep their order.
 */
uint64_t link_release_time(struct link_dir *ld, uint64_t now)
{
	uint64_t t = now + ld->p.delay_ns + jitter_at(&ld->jit, now);

	if (t < ld->last_release)
		t = ld->last_release;
	ld->last_release = t;
	return t;
}

/*
 * Each half keeps in its ring what is in flight on the wire (rate times
 * delay) plus what its receiver has not taken yet; twice the in-flight
 * amount, and never less than 1 MiB, keeps the sender from stalling.
 */
static uint64_t ring_limit(const struct link_params *p, uint64_t depth)
{
	uint64_t bps = p->rate_bps ? p->rate_bps / 8 : UNLIMITED_BYTES_PER_S;
	double flight = (double)bps *
			(p->delay_ns + p->jitter_ns + NSEC_PER_MSEC) / 1e9;
	double want = 2 * flight + 2 * depth;

	if (want > RING_LIMIT_MAX)
		return RING_LIMIT_MAX;
	if (want < RING_LIMIT_MIN)
		return RING_LIMIT_MIN;
	return next_pow2((uint64_t)want);
}

void link_dir_set(struct link_dir *ld, const struct link_params *p,
		  uint64_t now)
{
	bucket_refill(&ld->tb, now, false);
	ld->tb.last_ns = now;
	bucket_set(&ld->tb, p->rate_bps, p->burst);
	if (p->jitter_ns != ld->jit.amp_ns) {
		ld->jit.amp_ns = p->jitter_ns;
		ld->jit.t1 = now;
		if (ld->jit.j1 > p->jitter_ns)
			ld->jit.j1 = p->jitter_ns;
	}
	ld->p = *p;
	ld->ring_limit = ring_limit(p, ld->tb.depth);
}

void link_dir_init(struct link_dir *ld, const struct link_params *p,
		   uint64_t seed, uint64_t now)
{
	memset(ld, 0, sizeof(*ld));
	ld->jit.rng = seed;
	ld->tb.last_ns = now;
	link_dir_set(ld, p, now);
	ld->tb.tokens = ld->tb.depth;
}

int fifo_push(struct event_fifo *f, const struct link_event *e)
{
	struct link_event *n;
	size_t i, ncap;

	if (f->len == f->cap) {
		ncap = f->cap ? f->cap * 2 : 256;
		n = malloc(ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		for (i = 0; i < f->len; i++)
			n[i] = f->ev[(f->head + i) & (f->cap - 1)];
		free(f->ev);
		f->ev = n;
		f->cap = ncap;
		f->head = 0;
	}
	f->ev[(f->head + f->len) & (f->cap - 1)] = *e;
	f->len++;
	return 0;
}

struct link_event *fifo_peek(struct event_fifo *f)
{
	return f->len ? &f->ev[f->head] : NULL;
}

void fifo_pop(struct event_fifo *f)
{
	f->head = (f->head + 1) & (f->cap - 1);
	f->len--;
}

void fifo_free(struct event_fifo *f)
{
	free(f->ev);
	memset(f, 0, sizeof(*f));
}
