// SPDX-License-Identifier: MIT
/*
 * Context-local storage for the runtime: one value per (context, key).
 * cudart reads its per-context state through get before many runtime
 * calls, so get must cost what a driver's does: each thread keeps the
 * last few answers it got, valid while the store's generation is
 * unchanged, and answers from them with no lock and no allocation.  Any
 * change to the store bumps the generation; the next get of each thread
 * then looks again, under the lock.  Changes are rare (a put per context
 * and key, a drain when a context goes).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "export.h"
#include "util.h"

struct cls_entry {
	uint64_t ctx;
	void *key;
	void *value;
	shim_cls_dtor dtor;
	uint64_t seq;		/* when it was put */
};

static struct {
	pthread_mutex_t lock;
	struct cls_entry *e;	/* unordered: a process holds few */
	size_t n, cap;
	uint64_t gen;		/* bumped under lock, read without */
	uint64_t seq;		/* puts so far */
} cls = { .lock = PTHREAD_MUTEX_INITIALIZER, .gen = 1 };

#define CLS_CACHE	4

struct cls_cached {
	uint64_t gen;		/* 0: empty; the store's starts at 1 */
	uint64_t ctx;
	void *key;
	void *value;
	bool found;
};

static __thread struct cls_cached cache[CLS_CACHE];
static __thread unsigned int cache_next;

/* Index of (ctx, key), or -1; lock held. */
static long find(uint64_t ctx, void *key)
{
	for (size_t i = 0; i < cls.n; i++)
		if (cls.e[i].ctx == ctx && cls.e[i].key == key)
			return (long)i;
	return -1;
}

static void changed(void)
{
	__atomic_store_n(&cls.gen, cls.gen + 1, __ATOMIC_RELEASE);
}

int shim_cls_put(uint64_t ctx, void *key, void *value, shim_cls_dtor dtor)
{
	pthread_mutex_lock(&cls.lock);
	if (find(ctx, key) >= 0) {
		pthread_mutex_unlock(&cls.lock);
		return -EEXIST;
	}
	if (gl_grow((void **)&cls.e, cls.n, &cls.cap, sizeof(*cls.e), 16)) {
		pthread_mutex_unlock(&cls.lock);
		return -ENOMEM;
	}
	cls.e[cls.n++] = (struct cls_entry){ ctx, key, value, dtor, ++cls.seq };
	changed();
	pthread_mutex_unlock(&cls.lock);
	return 0;
}

int shim_cls_get(uint64_t ctx, void *key, void **value)
{
	uint64_t gen = __atomic_load_n(&cls.gen, __ATOMIC_ACQUIRE);
	struct cls_cached *c;
	long i;

	for (int k = 0; k < CLS_CACHE; k++) {
		c = &cache[k];
		if (c->gen == gen && c->ctx == ctx && c->key == key) {
			if (!c->found)
				return -ENOENT;
			*value = c->value;
			return 0;
		}
	}
	pthread_mutex_lock(&cls.lock);
	i = find(ctx, key);
	c = &cache[cache_next++ % CLS_CACHE];
	*c = (struct cls_cached){ .gen = cls.gen, .ctx = ctx, .key = key, .found = i >= 0,
				  .value = i >= 0 ? cls.e[i].value : NULL };
	pthread_mutex_unlock(&cls.lock);
	if (!c->found)
		return -ENOENT;
	*value = c->value;
	return 0;
}

int shim_cls_delete(uint64_t ctx, void *key)
{
	long i;

	pthread_mutex_lock(&cls.lock);
	i = find(ctx, key);
	if (i >= 0) {
		cls.e[i] = cls.e[--cls.n];
		changed();
	}
	pthread_mutex_unlock(&cls.lock);
	return i >= 0 ? 0 : -ENOENT;
}

/*
 * The destructors run without the lock, one at a time: the runtime's may
 * call the driver, this store included.  Only entries put before the drain
 * began go; one put for the context while a destructor runs belongs to
 * whatever the context becomes next.
 */
void shim_cls_drain(uint64_t ctx, CUcontext handle)
{
	uint64_t upto;

	pthread_mutex_lock(&cls.lock);
	upto = cls.seq;
	for (;;) {
		struct cls_entry e;
		size_t i;

		for (i = 0; i < cls.n; i++)
			if (cls.e[i].ctx == ctx && cls.e[i].seq <= upto)
				break;
		if (i == cls.n)
			break;
		e = cls.e[i];
		cls.e[i] = cls.e[--cls.n];
		changed();
		pthread_mutex_unlock(&cls.lock);
		if (e.dtor)
			e.dtor(handle, e.key, e.value);
		pthread_mutex_lock(&cls.lock);
	}
	pthread_mutex_unlock(&cls.lock);
}
