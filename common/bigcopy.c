// SPDX-License-Identifier: MIT
/*
 * Large copies shared among a few threads (bigcopy.h).
 *
 * One copy at a time: the caller that holds the lock posts the job (its
 * buffers, then a ticket that holds its count of parts and the next part)
 * and bumps a generation; helpers waiting on it take parts from the ticket
 * until none are left, and count the parts they finish.  A part taken is
 * read against the count in the same ticket, so a helper late from the
 * last job never reads the next job's buffers: the caller writes them
 * only once every part of the last is copied.  The caller takes parts
 * too, so a helper that wakes late costs nothing but the parts it does
 * not take, and waits only for parts already being copied.  A helper
 * spins a little after each job (the next piece of the same copy follows
 * within microseconds) and then sleeps on a futex.  A second caller
 * meanwhile copies alone.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "bigcopy.h"
#include "util.h"

#define PART		(128u << 10)
#define SPIN_NS		(50 * 1000)

static struct {
	pthread_mutex_t lock;		/* one job at a time */
	pthread_once_t once;
	unsigned int threads;		/* copiers, the caller counted */
	unsigned int started;		/* helpers running (none in a child of fork()) */
	/* The job: written by its caller before the ticket. */
	unsigned char *dst;
	const unsigned char *src;
	size_t n;
	bool cold;
	_Atomic uint64_t ticket;	/* parts:32, next part:32 */
	atomic_uint done;		/* parts copied */
	atomic_uint gen;		/* futex word: a job was posted */
	atomic_uint sleepers;
} bc = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.once = PTHREAD_ONCE_INIT,
};

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

static void futex_wait(atomic_uint *w, unsigned int v)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void futex_wake_all(atomic_uint *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void gl_copy_cold(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t head = (16 - ((uintptr_t)d & 15)) & 15;

	if (n < 256) {
		memcpy(d, s, n);
		return;
	}
	memcpy(d, s, head);
	d += head;
	s += head;
	n -= head;
	for (; n >= 64; d += 64, s += 64, n -= 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
		__m128i e = _mm_loadu_si128((const __m128i *)(s + 48));

		_mm_stream_si128((__m128i *)d, a);
		_mm_stream_si128((__m128i *)(d + 16), b);
		_mm_stream_si128((__m128i *)(d + 32), c);
		_mm_stream_si128((__m128i *)(d + 48), e);
	}
	memcpy(d, s, n);
	/* The stores are weakly ordered: whoever is told the copy is done sees them. */
	_mm_sfence();
#else
	memcpy(dst, src, n);
#endif
}

/* Takes parts of the posted job until none are left. */
static void take_parts(void)
{
	for (;;) {
		uint64_t t = atomic_fetch_add(&bc.ticket, 1);
		uint32_t i = (uint32_t)t;
		size_t off = (size_t)i * PART, k;

		if (i >= (uint32_t)(t >> 32))
			return;
		k = bc.n - off < PART ? bc.n - off : PART;
		if (bc.cold)
			gl_copy_cold(bc.dst + off, bc.src + off, k);
		else
			memcpy(bc.dst + off, bc.src + off, k);
		atomic_fetch_add(&bc.done, 1);
	}
}

static void *helper(void *arg)
{
	unsigned int seen = (unsigned int)(uintptr_t)arg;

	for (;;) {
		uint64_t until = mono_ns() + SPIN_NS;
		unsigned int g;

		while ((g = atomic_load(&bc.gen)) == seen) {
			if (mono_ns() < until) {
				relax();
				continue;
			}
			atomic_fetch_add(&bc.sleepers, 1);
			if (atomic_load(&bc.gen) == seen)
				futex_wait(&bc.gen, seen);
			atomic_fetch_sub(&bc.sleepers, 1);
			until = mono_ns() + SPIN_NS;
		}
		seen = g;
		take_parts();
	}
	return NULL;
}

/* A child of fork() has none of its parent's threads: it starts its own. */
static void forked(void)
{
	pthread_mutex_init(&bc.lock, NULL);
	bc.started = 0;
}

static void read_threads(void)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	const char *e = getenv("GLEAM_COPY_THREADS");
	unsigned long v = cores >= 8 ? 4 : 1;

	if (e && *e) {
		char *end;
		unsigned long x = strtoul(e, &end, 10);

		if (*end || !x || x > GL_BIGCOPY_THREADS_MAX)
			gl_err("GLEAM_COPY_THREADS=%s: not 1 to %d; using %lu", e,
			       GL_BIGCOPY_THREADS_MAX, v);
		else
			v = x;
	}
	bc.threads = (unsigned int)v;
	pthread_atfork(NULL, NULL, forked);
}

unsigned int gl_bigcopy_threads(void)
{
	pthread_once(&bc.once, read_threads);
	return bc.threads;
}

/*
 * Helpers up to the count wanted; lock held.  Signals stay with the
 * program's threads, but for the faults a helper's own access raises: a
 * program that maps its buffers lazily from a SIGSEGV (or SIGBUS) handler
 * has it run in the helper that touched the page, as it would in its own
 * thread; blocked, such a fault kills the process.
 */
static void start_helpers(void)
{
	sigset_t all, old;

	if (bc.started + 1 >= bc.threads)
		return;
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	while (bc.started + 1 < bc.threads) {
		pthread_attr_t at;
		pthread_t t;
		int err;

		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		err = pthread_create(&t, &at, helper, (void *)(uintptr_t)atomic_load(&bc.gen));
		pthread_attr_destroy(&at);
		if (err) {
			gl_err("cannot start a copy thread: %s; large copies use %u",
			       strerror(err), bc.started + 1);
			bc.threads = bc.started + 1;
			break;
		}
		pthread_setname_np(t, "gleam-copy");
		bc.started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* One job; lock held. */
static void post(unsigned char *dst, const unsigned char *src, size_t n, bool cold)
{
	unsigned int parts = (unsigned int)((n + PART - 1) / PART);

	bc.dst = dst;
	bc.src = src;
	bc.n = n;
	bc.cold = cold;
	atomic_store(&bc.done, 0);
	atomic_store(&bc.ticket, (uint64_t)parts << 32);
	atomic_fetch_add(&bc.gen, 1);
	if (atomic_load(&bc.sleepers))
		futex_wake_all(&bc.gen);
	take_parts();
	/* Parts being copied take microseconds; a helper not running yields. */
	for (unsigned int spins = 0; atomic_load(&bc.done) < parts; spins++) {
		if (spins < 4096)
			relax();
		else
			sched_yield();
	}
}

static void copy(void *dst, const void *src, size_t n, bool cold)
{
	if (cold)
		gl_copy_cold(dst, src, n);
	else
		memcpy(dst, src, n);
}

static void bigcopy(void *dst, const void *src, size_t n, bool cold)
{
	if (n < GL_BIGCOPY_MIN || gl_bigcopy_threads() < 2 || pthread_mutex_trylock(&bc.lock)) {
		copy(dst, src, n, cold);
		return;
	}
	start_helpers();
	if (!bc.started) {
		pthread_mutex_unlock(&bc.lock);
		copy(dst, src, n, cold);
		return;
	}
	post(dst, src, n, cold);
	pthread_mutex_unlock(&bc.lock);
}

void gl_bigcopy(void *dst, const void *src, size_t n)
{
	bigcopy(dst, src, n, false);
}

void gl_bigcopy_cold(void *dst, const void *src, size_t n)
{
	bigcopy(dst, src, n, true);
}
