// SPDX-License-Identifier: MIT
/*
 * The shim's answers kept for the session (libcuda-shim/memo.c, the
 * table's once), linked in: kept by function and argument block, never
 * another key's, bounded, shared by threads, gone in a child of fork().
 * The table generator's side: which functions carry the trait.
 *
 * The runner may run every test in one process (CK_FORK=no): each test
 * uses function numbers of its own, and the table's room is shared.
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shim.h"
#include "unit.h"

/* Function numbers no other test uses; the memo takes any. */
enum { FN_KEYS = 60001, FN_KEYS2, FN_ROOM, FN_THREADS, FN_FORK };

struct args {
	__s64 format;
	__u64 channels;
	__s64 dev;
};

struct out {
	__u64 width;
};

static struct args key(__s64 format, __u64 channels, __s64 dev)
{
	struct args a;

	memset(&a, 0, sizeof(a));
	a.format = format;
	a.channels = channels;
	a.dev = dev;
	return a;
}

static void put(unsigned int fn, struct args a, __u64 width)
{
	struct out o = { .width = width };

	shim_memo_put(fn, &a, sizeof(a), &o, sizeof(o));
}

/* The kept width for fn and a, or 0 for none. */
static __u64 get(unsigned int fn, struct args a)
{
	struct out o = { 0 };

	return shim_memo_get(fn, &a, sizeof(a), &o, sizeof(o)) ? o.width : 0;
}

START_TEST(test_memo_keys)
{
	struct args a = key(CU_AD_FORMAT_FLOAT, 4, 0);
	struct out o = { 0 };

	ck_assert_uint_eq(get(FN_KEYS, a), 0);
	put(FN_KEYS, a, 111);
	put(FN_KEYS, key(CU_AD_FORMAT_FLOAT, 1, 0), 222);
	put(FN_KEYS, key(CU_AD_FORMAT_FLOAT, 4, 1), 333);
	put(FN_KEYS2, a, 444);
	/* Each key its own answer: another argument, device or function is another key. */
	ck_assert_uint_eq(get(FN_KEYS, a), 111);
	ck_assert_uint_eq(get(FN_KEYS, key(CU_AD_FORMAT_FLOAT, 1, 0)), 222);
	ck_assert_uint_eq(get(FN_KEYS, key(CU_AD_FORMAT_FLOAT, 4, 1)), 333);
	ck_assert_uint_eq(get(FN_KEYS2, a), 444);
	ck_assert_uint_eq(get(FN_KEYS, key(CU_AD_FORMAT_UNSIGNED_INT8, 4, 0)), 0);
	/* The first answer stays. */
	put(FN_KEYS, a, 999);
	ck_assert_uint_eq(get(FN_KEYS, a), 111);
	/* A shorter argument block is another key; a reply of another size is not answered. */
	ck_assert(!shim_memo_get(FN_KEYS, &a, sizeof(a) - 8, &o, sizeof(o)));
	ck_assert(!shim_memo_get(FN_KEYS, &a, sizeof(a), &o, sizeof(o) - 4));
	ck_assert_uint_eq(o.width, 0);
	/* Blocks too large are neither kept nor found. */
	{
		unsigned char big[SHIM_MEMO_ARGS_MAX + 8] = { 1 };

		shim_memo_put(FN_KEYS, big, sizeof(big), &o, sizeof(o));
		ck_assert(!shim_memo_get(FN_KEYS, big, sizeof(big), &o, sizeof(o)));
	}
}
END_TEST

START_TEST(test_memo_room)
{
	unsigned int kept = 0;

	/* Far more keys than room: the first ones are kept, the rest just ask. */
	for (int i = 0; i < 200; i++)
		put(FN_ROOM, key(i, 1, 0), 1000 + i);
	for (int i = 0; i < 200; i++) {
		__u64 w = get(FN_ROOM, key(i, 1, 0));

		if (w) {
			ck_assert_uint_eq(w, 1000 + i);
			ck_assert_uint_eq(kept, i);	/* a prefix of them */
			kept++;
		}
	}
	ck_assert_uint_gt(kept, 32);
	ck_assert_uint_le(kept, 64);
	/* Full: what was kept before stays. */
	ck_assert_uint_eq(get(FN_ROOM, key(0, 1, 0)), 1000);
}
END_TEST

static void *hammer(void *arg)
{
	long t = (long)arg;

	for (int i = 0; i < 2000; i++) {
		int k = (i + (int)t) % 8;
		__u64 w;

		put(FN_THREADS, key(k, 2, 0), 5000 + k);
		w = get(FN_THREADS, key(k, 2, 0));
		/* Kept by one thread or another: always the key's own answer. */
		if (w && w != (__u64)(5000 + k))
			return (void *)1;
	}
	return NULL;
}

START_TEST(test_memo_threads)
{
	pthread_t t[8];
	void *bad;

	for (long i = 0; i < 8; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, hammer, (void *)i), 0);
	for (int i = 0; i < 8; i++) {
		ck_assert_int_eq(pthread_join(t[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
}
END_TEST

START_TEST(test_memo_fork)
{
	struct args a = key(CU_AD_FORMAT_HALF, 2, 0);
	int st = 0;
	pid_t pid;

	put(FN_FORK, a, 77);
	ck_assert_uint_eq(get(FN_FORK, a), 77);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* The child has no session of its parent's: nothing kept, and it may keep its own. */
		if (get(FN_FORK, a))
			_exit(1);
		put(FN_FORK, a, 78);
		_exit(get(FN_FORK, a) == 78 ? 0 : 2);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: status %#x", st);
	ck_assert_uint_eq(get(FN_FORK, a), 77);
}
END_TEST

/* The table's side: the device questions kept, and once only on what the generator allows. */
START_TEST(test_memo_table)
{
	unsigned int n = 0;

	ck_assert(gl_fn_traits(GL_FN_cuDeviceGetTexture1DLinearMaxWidth) & GL_T_ONCE);
	ck_assert(gl_fn_traits(GL_FN_cuDeviceGetExecAffinitySupport) & GL_T_ONCE);
	ck_assert(!(gl_fn_traits(GL_FN_cuMemGetInfo) & GL_T_ONCE));
	for (unsigned int i = 1; i < GL_FN_LIMIT; i++) {
		if (!gl_fn_table[i].name || !(gl_fn_traits(i) & GL_T_ONCE))
			continue;
		n++;
		ck_assert_int_eq(gl_fn_table[i].cls, GL_SYNC);
		ck_assert_uint_eq(gl_fn_traits(i), GL_T_ONCE | GL_T_NOCTX);
		ck_assert_uint_le(gl_fn_args_size[i], SHIM_MEMO_ARGS_MAX);
	}
	ck_assert_uint_ge(n, 2);
}
END_TEST

/* The room test last: it fills the table, which one process's tests share. */
UNIT_SUITE(memo, "kept answers", test_memo_keys, test_memo_threads, test_memo_fork,
	   test_memo_room, test_memo_table);
