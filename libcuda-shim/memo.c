// SPDX-License-Identifier: MIT
/*
 * Answers kept for the session (the table's once): a function whose answer
 * depends only on its arguments and the device's fixed properties is asked
 * once per distinct argument block; its reply block is kept and answers
 * every later call with the same block here, without a record (shim_gen.c
 * looks before it sends).  The key is the function's number and the bytes
 * of its argument block, zeroed before it is filled so that padding never
 * differs.  Errors are not kept: a call that failed asks again.
 *
 * A fixed table: once it is full, calls just ask.  These calls are rare,
 * so a mutex guards it.  A child of fork() starts with none kept, as it
 * starts without its parent's session (transport.c).
 */
#include <pthread.h>
#include <string.h>

#include "shim.h"

#define MEMO_SLOTS	64

struct memo {
	unsigned int fn;
	unsigned char alen, olen;
	unsigned char args[SHIM_MEMO_ARGS_MAX];
	unsigned char out[SHIM_MEMO_OUT_MAX];
};

static struct {
	pthread_mutex_t lock;
	unsigned int n;
	struct memo m[MEMO_SLOTS];
} memo = { .lock = PTHREAD_MUTEX_INITIALIZER };

static pthread_once_t memo_forks = PTHREAD_ONCE_INIT;

/* fork(): the lock is held across it; the child lets go of what was kept. */
static void memo_prepare(void)
{
	pthread_mutex_lock(&memo.lock);
}

static void memo_parent(void)
{
	pthread_mutex_unlock(&memo.lock);
}

static void memo_child(void)
{
	memo.n = 0;
	pthread_mutex_unlock(&memo.lock);
}

static void memo_atfork(void)
{
	pthread_atfork(memo_prepare, memo_parent, memo_child);
}

/* The answer kept for fn and args, or NULL; lock held. */
static struct memo *memo_find(unsigned int fn, const void *args, size_t alen)
{
	for (unsigned int i = 0; i < memo.n; i++) {
		struct memo *m = &memo.m[i];

		if (m->fn == fn && m->alen == alen && !memcmp(m->args, args, alen))
			return m;
	}
	return NULL;
}

bool shim_memo_get(unsigned int fn, const void *args, size_t alen, void *out, size_t olen)
{
	const struct memo *m;
	bool kept = false;

	if (alen > SHIM_MEMO_ARGS_MAX || olen > SHIM_MEMO_OUT_MAX)
		return false;
	pthread_mutex_lock(&memo.lock);
	m = memo_find(fn, args, alen);
	if (m && m->olen == olen) {
		memcpy(out, m->out, olen);
		kept = true;
	}
	pthread_mutex_unlock(&memo.lock);
	return kept;
}

void shim_memo_put(unsigned int fn, const void *args, size_t alen, const void *out, size_t olen)
{
	struct memo *m;

	if (alen > SHIM_MEMO_ARGS_MAX || olen > SHIM_MEMO_OUT_MAX)
		return;
	pthread_once(&memo_forks, memo_atfork);
	pthread_mutex_lock(&memo.lock);
	if (!memo_find(fn, args, alen) && memo.n < MEMO_SLOTS) {
		m = &memo.m[memo.n++];
		memset(m, 0, sizeof(*m));
		m->fn = fn;
		m->alen = (unsigned char)alen;
		m->olen = (unsigned char)olen;
		memcpy(m->args, args, alen);
		memcpy(m->out, out, olen);
	}
	pthread_mutex_unlock(&memo.lock);
}
