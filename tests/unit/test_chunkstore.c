// SPDX-License-Identifier: MIT
/*
 * The chunk store and the hashing pool: names against known SHA-256
 * vectors, every length around a chunk boundary, unaligned buffers,
 * refusal of bytes that do not match their name, both tiers' limits and
 * LRU order, persistence, damaged and half-written files on disk.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunk.h"
#include "gleam_cache.h"
#include "gleam_record.h"
#include "gleam_wire.h"
#include "hashpool.h"
#include "unit.h"

#define C	4096u		/* chunk size of most tests: small, so valgrind is quick */

static char dir[64];

static void fill(unsigned char *p, size_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 24);
	}
}

static void name_of(const void *p, size_t len, struct chunk_name *n)
{
	ck_assert_int_eq(chunk_hash(p, len, n), 0);
}

static void assert_hex(const struct chunk_name *n, const char *hex)
{
	char got[2 * CHUNK_NAME_LEN + 1];

	chunk_name_hex(n, got);
	ck_assert_str_eq(got, hex);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int count_one_n;
static int count_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	if (flag == FTW_F && !strstr(path, "/lock"))
		count_one_n++;
	return 0;
}

/* Regular files under the store's objects/. */
static int files(void)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/objects", dir);
	count_one_n = 0;
	ck_assert_int_eq(nftw(p, count_one, 16, FTW_PHYS), 0);
	return count_one_n;
}

static void obj_path(const struct chunk_name *n, char *p, size_t len)
{
	char hex[2 * CHUNK_NAME_LEN + 1];

	chunk_name_hex(n, hex);
	snprintf(p, len, "%s/objects/%.2s/%s", dir, hex, hex + 2);
}

static void dir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/gleam-chunks-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void dir_teardown(void)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static struct chunk_store *open_store(uint64_t mem, uint64_t disk, bool with_dir)
{
	struct chunk_store_opts o = {
		.dir = with_dir ? dir : NULL,
		.mem_limit = mem,
		.disk_limit = disk,
		.chunk_max = C,
		.nosync = true,
	};
	struct chunk_store *s = NULL;

	ck_assert_int_eq(chunk_store_open(&o, &s), 0);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* Chunk i of the tests: C bytes, or a shorter one for odd i when short. */
static uint32_t put_nth(struct chunk_store *s, int i, struct chunk_name *n)
{
	unsigned char buf[C];
	uint32_t len = C - (uint32_t)(i % 3) * 1000;

	fill(buf, len, (uint64_t)i + 100);
	name_of(buf, len, n);
	ck_assert_int_eq(chunk_store_put(s, n, buf, len), 0);
	return len;
}

static void assert_nth(struct chunk_store *s, int i, const struct chunk_name *n)
{
	unsigned char buf[C];
	uint32_t len = C - (uint32_t)(i % 3) * 1000;
	struct chunk *c;

	fill(buf, len, (uint64_t)i + 100);
	ck_assert_int_eq(chunk_store_get(s, n, &c), 0);
	ck_assert_uint_eq(c->len, len);
	ck_assert(chunk_name_eq(&c->name, n));
	ck_assert_mem_eq(c->data, buf, len);
	chunk_unref(c);
}

START_TEST(test_vectors)
{
	static const char *a448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	struct chunk_name n, m;
	unsigned char *mil = malloc(1000000);

	name_of("", 0, &n);
	assert_hex(&n, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	name_of("abc", 3, &n);
	assert_hex(&n, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	name_of(a448, strlen(a448), &n);
	assert_hex(&n, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	ck_assert_ptr_nonnull(mil);
	memset(mil, 'a', 1000000);
	name_of(mil, 1000000, &n);
	assert_hex(&n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(mil);

	/* Names in hex, both ways; only what chunk_name_hex writes parses. */
	ck_assert_int_eq(chunk_name_parse(
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", &m), 0);
	name_of("abc", 3, &n);
	ck_assert(chunk_name_eq(&n, &m));
	ck_assert_int_eq(chunk_name_parse(
		"BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", &m), -EINVAL);
	ck_assert_int_eq(chunk_name_parse("ba7816bf", &m), -EINVAL);
	ck_assert_int_eq(chunk_name_parse(
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad0", &m), -EINVAL);
}
END_TEST

START_TEST(test_count)
{
	ck_assert_uint_eq(chunk_count(0, C), 0);
	ck_assert_uint_eq(chunk_count(1, C), 1);
	ck_assert_uint_eq(chunk_count(C - 1, C), 1);
	ck_assert_uint_eq(chunk_count(C, C), 1);
	ck_assert_uint_eq(chunk_count(C + 1, C), 2);
	ck_assert_uint_eq(chunk_count(3 * C + 17, C), 4);
	ck_assert_uint_eq(chunk_count(1ull << 40, 1u << 20), 1u << 20);
	ck_assert_uint_eq(chunk_count(5, 0), 0);
}
END_TEST

/*
 * Every length around the boundaries, at every misalignment: the pool's
 * names equal one call's per slice, and each slice goes into the store and
 * comes back whole, the last one short.
 */
START_TEST(test_boundaries)
{
	static const size_t sizes[] = { 0, 1, C - 1, C, C + 1, 2 * C - 1, 3 * C + 17 };
	unsigned char *raw = malloc(4 * C + 16);
	struct chunk_name names[4], want;
	struct hashpool *p;
	struct chunk_store *s = open_store(64 * C, 0, false);

	ck_assert_ptr_nonnull(raw);
	ck_assert_int_eq(hashpool_create(3, &p), 0);
	ck_assert_uint_eq(hashpool_threads(p), 3);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (unsigned int align = 0; align < 8; align++) {
			unsigned char *buf = raw + align;
			size_t len = sizes[k];
			struct hashpool_job job;
			uint64_t n = chunk_count(len, C);

			fill(buf, len, k * 8 + align);
			memset(names, 0xee, sizeof(names));
			ck_assert_int_eq(hashpool_submit(p, &job, buf, len, C, names), 0);
			ck_assert_uint_eq(job.count, n);
			ck_assert_uint_eq(hashpool_wait(p, &job, n), n);
			ck_assert(hashpool_finished(&job));
			ck_assert_int_eq(hashpool_job_error(&job), 0);
			for (uint64_t i = 0; i < n; i++) {
				size_t clen = i + 1 < n ? C : len - i * C;
				struct chunk *c;

				name_of(buf + i * C, clen, &want);
				ck_assert(chunk_name_eq(&names[i], &want));
				ck_assert_int_eq(chunk_store_put(s, &names[i], buf + i * C,
								 (uint32_t)clen), 0);
				ck_assert_int_eq(chunk_store_get(s, &names[i], &c), 0);
				ck_assert_uint_eq(c->len, clen);
				ck_assert_mem_eq(c->data, buf + i * C, clen);
				chunk_unref(c);
			}
			/* The name after the last was not written. */
			if (n < 4)
				ck_assert_uint_eq(names[n].b[0], 0xee);
		}
	}
	hashpool_destroy(p);
	chunk_store_close(s);
	free(raw);
}
END_TEST

/* Known vectors through the pool: a million 'a', then "aaa"; "abc" a hundred times. */
START_TEST(test_pool_vectors)
{
	unsigned char *buf = malloc(1000003);
	struct chunk_name names[100];
	struct hashpool_job job;
	struct hashpool *p;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(hashpool_create(4, &p), 0);
	memset(buf, 'a', 1000003);
	ck_assert_int_eq(hashpool_submit(p, &job, buf, 1000003, 1000000, names), 0);
	ck_assert_uint_eq(hashpool_wait(p, &job, 2), 2);
	assert_hex(&names[0], "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	assert_hex(&names[1], "9834876dcfb05cb167a5c24953eba58c4ac89b1adf57f28f2f9d09af107ee8f0");

	for (int i = 0; i < 100; i++)
		memcpy(buf + 3 * i, "abc", 3);
	buf[299] = 'a';		/* the last is "aba": order matters */
	ck_assert_int_eq(hashpool_submit(p, &job, buf, 300, 3, names), 0);
	ck_assert_uint_eq(hashpool_wait(p, &job, 100), 100);
	for (int i = 0; i < 99; i++)
		assert_hex(&names[i],
			   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_hex(&names[99], "e124adcce1fb2f88e1ea799c3d0820845ed343e6c739e54131fcb3a56e4bc1bd");

	ck_assert_int_eq(hashpool_submit(p, &job, buf, 10, 0, names), -EINVAL);
	ck_assert_int_eq(hashpool_submit(p, &job, buf, 10, CHUNK_SIZE_MAX + 1, names), -EINVAL);
	hashpool_destroy(p);
	free(buf);
}
END_TEST

/*
 * Many chunks over several jobs at once: what hashpool_ready() says at any
 * moment is final, it only grows, and the eventfd says when it grew.
 */
START_TEST(test_pool_order)
{
	enum { N = 600, JOBS = 3 };
	unsigned char *buf = malloc((size_t)N * 512);
	struct chunk_name *names = calloc(JOBS * N, sizeof(*names));
	struct chunk_name *want = calloc(N, sizeof(*want));
	struct hashpool_job job[JOBS];
	uint64_t seen[JOBS] = { 0 };
	struct hashpool *p;
	int left = JOBS, wakeups = 0;

	ck_assert(buf && names && want);
	fill(buf, (size_t)N * 512, 7);
	for (int i = 0; i < N; i++)
		name_of(buf + (size_t)i * 512, 512, &want[i]);
	ck_assert_int_eq(hashpool_create(4, &p), 0);
	for (int j = 0; j < JOBS; j++)
		ck_assert_int_eq(hashpool_submit(p, &job[j], buf, (uint64_t)N * 512, 512,
						 names + j * N), 0);
	while (left) {
		struct pollfd pfd = { .fd = hashpool_fd(p), .events = POLLIN };
		uint64_t v;

		ck_assert_int_eq(poll(&pfd, 1, 10000), 1);
		ck_assert_int_eq(read(pfd.fd, &v, sizeof(v)), sizeof(v));
		ck_assert_uint_gt(v, 0);
		wakeups++;
		for (int j = 0; j < JOBS; j++) {
			uint64_t r = hashpool_ready(&job[j]);

			ck_assert_uint_ge(r, seen[j]);
			for (uint64_t i = seen[j]; i < r; i++)
				ck_assert(chunk_name_eq(&names[j * N + i], &want[i]));
			if (r == N && seen[j] < N)
				left--;
			seen[j] = r;
		}
	}
	ck_assert_int_gt(wakeups, 0);
	hashpool_destroy(p);
	free(buf);
	free(names);
	free(want);
}
END_TEST

/* A cancelled job stops; what it said was ready stays right. */
START_TEST(test_pool_cancel)
{
	enum { N = 2000 };
	unsigned char *buf = malloc((size_t)N * 256);
	struct chunk_name *names = calloc(N, sizeof(*names)), want;
	struct hashpool_job job;
	struct hashpool *p;
	uint64_t r;

	ck_assert(buf && names);
	fill(buf, (size_t)N * 256, 9);
	ck_assert_int_eq(hashpool_create(2, &p), 0);
	ck_assert_int_eq(hashpool_submit(p, &job, buf, (uint64_t)N * 256, 256, names), 0);
	hashpool_wait(p, &job, 10);
	hashpool_cancel(p, &job);
	r = hashpool_ready(&job);
	ck_assert_uint_ge(r, 10);
	ck_assert_uint_le(r, N);
	ck_assert_uint_eq(hashpool_wait(p, &job, N), r);
	for (uint64_t i = 0; i < r; i++) {
		name_of(buf + i * 256, 256, &want);
		ck_assert(chunk_name_eq(&names[i], &want));
	}
	/* The pool goes on with the next job. */
	ck_assert_int_eq(hashpool_submit(p, &job, buf, 256, 256, names), 0);
	ck_assert_uint_eq(hashpool_wait(p, &job, 1), 1);
	/* And a job left running is cancelled by destroy. */
	ck_assert_int_eq(hashpool_submit(p, &job, buf, (uint64_t)N * 256, 256, names), 0);
	hashpool_destroy(p);
	free(buf);
	free(names);
}
END_TEST

START_TEST(test_wrong_name)
{
	struct chunk_store *s = open_store(16 * C, 16 * C, true);
	unsigned char a[C], b[C];
	struct chunk_store_stats st;
	struct chunk_name na, nb, bad;
	struct chunk *c;

	fill(a, C, 1);
	fill(b, C, 2);
	name_of(a, C, &na);
	name_of(b, C, &nb);
	/* b's bytes under a's name, a's name with one bit flipped, a short a. */
	ck_assert_int_eq(chunk_store_put(s, &na, b, C), -EBADMSG);
	bad = na;
	bad.b[31] ^= 1;
	ck_assert_int_eq(chunk_store_put(s, &bad, a, C), -EBADMSG);
	ck_assert_int_eq(chunk_store_put(s, &na, a, C - 1), -EBADMSG);
	ck_assert(!chunk_store_has(s, &na, NULL));
	ck_assert(!chunk_store_has(s, &bad, NULL));
	ck_assert_int_eq(chunk_store_get(s, &na, &c), -ENOENT);
	ck_assert_int_eq(files(), 0);
	/* Lengths out of range are refused before hashing. */
	ck_assert_int_eq(chunk_store_put(s, &na, a, 0), -EINVAL);
	c = chunk_alloc(C + 1);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(chunk_store_add(s, &na, c), -EINVAL);
	chunk_unref(c);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.rejected, 3);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_eq(st.puts, 0);

	/* The right name is taken, once. */
	ck_assert_int_eq(chunk_store_put(s, &na, a, C), 0);
	ck_assert_int_eq(chunk_store_put(s, &na, a, C), 0);
	ck_assert_int_eq(chunk_store_put(s, &nb, a, C), -EBADMSG);
	ck_assert(chunk_store_has(s, &na, NULL));
	ck_assert(!chunk_store_has(s, &nb, NULL));
	ck_assert_int_eq(files(), 1);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.puts, 2);
	ck_assert_uint_eq(st.dups, 1);
	ck_assert_uint_eq(st.rejected, 4);
	ck_assert_uint_eq(st.entries, 1);

	/* add: no copy; the caller's reference stays its own. */
	c = chunk_alloc(C);
	ck_assert_ptr_nonnull(c);
	memcpy(c->data, b, C);
	ck_assert_int_eq(chunk_store_add(s, &nb, c), 0);
	ck_assert(chunk_name_eq(&c->name, &nb));
	chunk_unref(c);
	ck_assert_int_eq(chunk_store_get(s, &nb, &c), 0);
	ck_assert_mem_eq(c->data, b, C);
	chunk_unref(c);
	chunk_store_close(s);
}
END_TEST

START_TEST(test_mem_eviction)
{
	struct chunk_store *s = open_store(4 * C, 0, false);
	unsigned char buf[C];
	struct chunk_name n[8], big;
	struct chunk_store_stats st;
	struct chunk *held, *c;

	for (int i = 0; i < 4; i++) {
		fill(buf, C, (uint64_t)i + 100);
		name_of(buf, C, &n[i]);
		ck_assert_int_eq(chunk_store_put(s, &n[i], buf, C), 0);
	}
	/* 0 in use by someone, 1 used recently: 2 and 3 go next, in that order. */
	ck_assert_int_eq(chunk_store_get(s, &n[0], &held), 0);
	ck_assert_int_eq(chunk_store_get(s, &n[1], &c), 0);
	chunk_unref(c);
	for (int i = 4; i < 6; i++) {
		fill(buf, C, (uint64_t)i + 100);
		name_of(buf, C, &n[i]);
		ck_assert_int_eq(chunk_store_put(s, &n[i], buf, C), 0);
	}
	ck_assert(!chunk_store_has(s, &n[2], NULL));
	ck_assert(!chunk_store_has(s, &n[3], NULL));
	ck_assert(chunk_store_has(s, &n[0], NULL));
	ck_assert(chunk_store_has(s, &n[1], NULL));
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.evict_mem, 2);
	ck_assert_uint_eq(st.mem_bytes, 4 * C);
	ck_assert_uint_eq(st.entries, 4);

	/* Evicted while held: the holder's bytes stay whole. */
	for (int i = 6; i < 8; i++) {
		fill(buf, C, (uint64_t)i + 100);
		name_of(buf, C, &n[i]);
		ck_assert_int_eq(chunk_store_put(s, &n[i], buf, C), 0);
	}
	ck_assert(!chunk_store_has(s, &n[0], NULL));
	fill(buf, C, 100);
	ck_assert_mem_eq(held->data, buf, C);
	chunk_unref(held);
	ck_assert_int_eq(chunk_store_get(s, &n[0], &c), -ENOENT);
	chunk_store_stats(s, &st);
	ck_assert_uint_le(st.mem_bytes, 4 * C);
	ck_assert_uint_eq(st.misses, 1);
	ck_assert_uint_eq(st.hits_mem, 2);

	/* Nowhere to keep a chunk: memory limit 0, no directory. */
	chunk_store_close(s);
	s = open_store(0, 0, false);
	fill(buf, 10, 1);
	name_of(buf, 10, &big);
	ck_assert_int_eq(chunk_store_put(s, &big, buf, 10), -ENOSPC);
	ck_assert(!chunk_store_has(s, &big, NULL));
	chunk_store_close(s);
}
END_TEST

START_TEST(test_persistence)
{
	struct chunk_store_opts o = {
		.dir = dir, .mem_limit = 64 * C, .disk_limit = 64 * C, .chunk_max = C,
	};
	struct chunk_store_stats st;
	struct chunk_store *s, *s2;
	struct chunk_name n[6];
	uint32_t len;

	/* With fsync, as a server runs. */
	ck_assert_int_eq(chunk_store_open(&o, &s), 0);
	for (int i = 0; i < 6; i++)
		put_nth(s, i, &n[i]);
	ck_assert_int_eq(files(), 6);
	/* One directory, one store. */
	ck_assert_int_eq(chunk_store_open(&o, &s2), -EBUSY);
	chunk_store_close(s);

	ck_assert_int_eq(chunk_store_open(&o, &s), 0);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.entries, 6);
	ck_assert_uint_eq(st.disk_entries, 6);
	ck_assert_uint_eq(st.mem_entries, 0);
	ck_assert_uint_eq(st.disk_bytes, 2 * C + 2 * (C - 1000) + 2 * (C - 2000));
	ck_assert_uint_eq(st.temp_removed, 0);
	ck_assert(chunk_store_has(s, &n[2], &len));
	ck_assert_uint_eq(len, C - 2000);
	for (int i = 0; i < 6; i++)
		assert_nth(s, i, &n[i]);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.hits_disk, 6);
	ck_assert_uint_eq(st.mem_entries, 6);
	ck_assert_uint_eq(st.corrupt, 0);
	/* Read back once, then from memory. */
	assert_nth(s, 0, &n[0]);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.hits_disk, 6);
	ck_assert_uint_eq(st.hits_mem, 1);
	chunk_store_close(s);
}
END_TEST

static void damage(const struct chunk_name *n, bool truncate_it)
{
	char p[256];
	unsigned char byte;
	int fd;

	obj_path(n, p, sizeof(p));
	fd = open(p, O_RDWR);
	ck_assert_int_ge(fd, 0);
	if (truncate_it) {
		ck_assert_int_eq(ftruncate(fd, 100), 0);
	} else {
		ck_assert_int_eq(pread(fd, &byte, 1, 77), 1);
		byte ^= 0x10;
		ck_assert_int_eq(pwrite(fd, &byte, 1, 77), 1);
	}
	close(fd);
}

START_TEST(test_corrupt)
{
	struct chunk_store *s = open_store(64 * C, 64 * C, true);
	struct chunk_store_stats st;
	struct chunk_name n[3];
	struct chunk *c;
	char p[256];

	for (int i = 0; i < 3; i++)
		put_nth(s, i, &n[i]);
	chunk_store_close(s);
	damage(&n[0], false);
	damage(&n[1], true);

	s = open_store(64 * C, 64 * C, true);
	/* Known from the index; found out on reading, deleted, missing from then on. */
	ck_assert(chunk_store_has(s, &n[0], NULL));
	ck_assert_int_eq(chunk_store_get(s, &n[0], &c), -ENOENT);
	ck_assert_int_eq(chunk_store_get(s, &n[1], &c), -ENOENT);
	ck_assert(!chunk_store_has(s, &n[0], NULL));
	ck_assert(!chunk_store_has(s, &n[1], NULL));
	obj_path(&n[0], p, sizeof(p));
	ck_assert_int_ne(access(p, F_OK), 0);
	assert_nth(s, 2, &n[2]);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.corrupt, 2);
	ck_assert_uint_eq(st.misses, 2);
	ck_assert_uint_eq(st.entries, 1);
	ck_assert_uint_eq(st.disk_bytes, C - 2000);
	ck_assert_int_eq(files(), 1);
	/* A good copy can come again. */
	put_nth(s, 0, &n[0]);
	assert_nth(s, 0, &n[0]);
	chunk_store_close(s);

	/* Damaged while open, with no memory tier: every read goes to the file. */
	s = open_store(0, 64 * C, true);
	assert_nth(s, 2, &n[2]);
	damage(&n[2], false);
	ck_assert_int_eq(chunk_store_get(s, &n[2], &c), -ENOENT);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.corrupt, 1);
	chunk_store_close(s);
}
END_TEST

START_TEST(test_temp_files)
{
	struct chunk_store *s = open_store(64 * C, 64 * C, true);
	struct chunk_store_stats st;
	char p[256], q[256], hex[2 * CHUNK_NAME_LEN + 1];
	struct chunk_name n;
	int fd;

	put_nth(s, 0, &n);
	chunk_store_close(s);
	/* A crash mid-write: a whole-looking temporary file, and one cut short. */
	obj_path(&n, p, sizeof(p));
	chunk_name_hex(&n, hex);
	snprintf(q, sizeof(q), "%s/objects/%.2s/.tmp.%s.1", dir, hex, hex + 2);
	ck_assert_int_eq(link(p, q), 0);
	snprintf(q, sizeof(q), "%s/objects/00/.tmp.half", dir);
	fd = open(q, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "half", 4), 4);
	close(fd);
	/* Not ours: left alone, not counted. */
	snprintf(q, sizeof(q), "%s/objects/00/README", dir);
	fd = open(q, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(files(), 4);

	s = open_store(64 * C, 64 * C, true);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.temp_removed, 2);
	ck_assert_uint_eq(st.entries, 1);
	ck_assert_uint_eq(st.disk_bytes, C);
	ck_assert_int_eq(files(), 2);
	ck_assert_int_eq(access(q, F_OK), 0);
	assert_nth(s, 0, &n);
	chunk_store_close(s);
}
END_TEST

START_TEST(test_disk_eviction)
{
	struct chunk_store *s = open_store(0, 3 * C, true);
	struct chunk_store_stats st;
	struct chunk_name n[6];
	unsigned char buf[C];
	struct chunk *c;

	for (int i = 0; i < 3; i++) {
		fill(buf, C, (uint64_t)i + 100);
		name_of(buf, C, &n[i]);
		ck_assert_int_eq(chunk_store_put(s, &n[i], buf, C), 0);
	}
	/* 0 read again: 1 is the least recently used now. */
	ck_assert_int_eq(chunk_store_get(s, &n[0], &c), 0);
	chunk_unref(c);
	for (int i = 3; i < 5; i++) {
		fill(buf, C, (uint64_t)i + 100);
		name_of(buf, C, &n[i]);
		ck_assert_int_eq(chunk_store_put(s, &n[i], buf, C), 0);
	}
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.evict_disk, 2);
	ck_assert_uint_eq(st.disk_bytes, 3 * C);
	ck_assert_uint_eq(st.disk_entries, 3);
	ck_assert_int_eq(files(), 3);
	ck_assert(chunk_store_has(s, &n[0], NULL));
	ck_assert(!chunk_store_has(s, &n[1], NULL));
	ck_assert(!chunk_store_has(s, &n[2], NULL));
	chunk_store_close(s);

	/* Opened with less room: the oldest files go at once. */
	s = open_store(0, 2 * C, true);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.disk_entries, 2);
	ck_assert_uint_eq(st.evict_disk, 1);
	ck_assert_int_eq(files(), 2);
	ck_assert(chunk_store_has(s, &n[4], NULL));
	chunk_store_close(s);
}
END_TEST

struct tally {
	int mem, disk, n;
};

static int tally_one(const struct chunk_name *name, uint32_t len, unsigned int where, void *arg)
{
	struct tally *t = arg;

	t->n++;
	t->mem += !!(where & CHUNK_IN_MEM);
	t->disk += !!(where & CHUNK_ON_DISK);
	return 0;
}

static int stop_at_two(const struct chunk_name *name, uint32_t len, unsigned int where, void *arg)
{
	return ++*(int *)arg == 2 ? 42 : 0;
}

START_TEST(test_list_clear)
{
	struct chunk_store *s = open_store(2 * C, 8 * C, true);
	struct chunk_store_stats st;
	struct tally t = { 0 };
	struct chunk_name n[4];
	int k = 0;

	for (int i = 0; i < 4; i++) {
		unsigned char buf[C];

		fill(buf, C, (uint64_t)i + 100);
		name_of(buf, C, &n[i]);
		ck_assert_int_eq(chunk_store_put(s, &n[i], buf, C), 0);
	}
	ck_assert_int_eq(chunk_store_list(s, tally_one, &t), 0);
	ck_assert_int_eq(t.n, 4);
	ck_assert_int_eq(t.mem, 2);
	ck_assert_int_eq(t.disk, 4);
	ck_assert_int_eq(chunk_store_list(s, stop_at_two, &k), 42);
	ck_assert_int_eq(k, 2);

	chunk_store_clear(s);
	chunk_store_stats(s, &st);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_eq(st.mem_bytes, 0);
	ck_assert_uint_eq(st.disk_bytes, 0);
	ck_assert_uint_eq(st.puts, 4);
	ck_assert_int_eq(files(), 0);
	ck_assert(!chunk_store_has(s, &n[3], NULL));
	t.n = 0;
	ck_assert_int_eq(chunk_store_list(s, tally_one, &t), 0);
	ck_assert_int_eq(t.n, 0);
	chunk_store_close(s);
}
END_TEST

/* Several threads putting and getting the same few chunks, through both tiers. */
struct racer {
	struct chunk_store *s;
	struct chunk_name n[8];
	int id;
	int bad;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	for (int k = 0; k < 200; k++) {
		int i = (k * 7 + r->id * 3) % 8;
		unsigned char buf[C];
		uint32_t len = C - (uint32_t)(i % 3) * 1000;
		struct chunk *c;

		fill(buf, len, (uint64_t)i + 100);
		if (k % 3 == 0) {
			if (chunk_store_put(r->s, &r->n[i], buf, len))
				r->bad++;
		} else if (!chunk_store_get(r->s, &r->n[i], &c)) {
			if (c->len != len || memcmp(c->data, buf, len))
				r->bad++;
			chunk_unref(c);
		}
	}
	return NULL;
}

START_TEST(test_threads)
{
	struct chunk_store *s = open_store(3 * C, 5 * C, true);
	struct racer r[4];
	pthread_t t[4];
	struct chunk_store_stats st;

	for (int j = 0; j < 4; j++) {
		r[j].s = s;
		r[j].id = j;
		r[j].bad = 0;
		for (int i = 0; i < 8; i++) {
			unsigned char buf[C];
			uint32_t len = C - (uint32_t)(i % 3) * 1000;

			fill(buf, len, (uint64_t)i + 100);
			name_of(buf, len, &r[j].n[i]);
		}
		ck_assert_int_eq(pthread_create(&t[j], NULL, race, &r[j]), 0);
	}
	for (int j = 0; j < 4; j++) {
		pthread_join(t[j], NULL);
		ck_assert_int_eq(r[j].bad, 0);
	}
	chunk_store_stats(s, &st);
	ck_assert_uint_le(st.mem_bytes, 3 * C);
	ck_assert_uint_le(st.disk_bytes, 5 * C);
	ck_assert_uint_eq(st.corrupt, 0);
	ck_assert_uint_eq(st.disk_errors, 0);
	ck_assert_int_eq(files(), (int)st.disk_entries);
	chunk_store_close(s);
}
END_TEST

/* The proposed wire layout, field by field, and the store's limits against it. */
START_TEST(test_wire_layout)
{
	ck_assert_uint_eq(offsetof(struct gleam_cache_ref, length), 32);
	ck_assert_uint_eq(offsetof(struct gleam_cache_ref, reserved), 36);
	ck_assert_uint_eq(offsetof(struct gleam_cache_info, pin_max), 8);
	ck_assert_uint_eq(offsetof(struct gleam_cache_info, query_max), 16);
	ck_assert_uint_eq(offsetof(struct gleam_cache_info, mem_limit), 24);
	ck_assert_uint_eq(offsetof(struct gleam_cache_info, nonce), 40);
	ck_assert_uint_eq(offsetof(struct gleam_cache_query, count), 8);
	ck_assert_uint_eq(offsetof(struct gleam_cache_have, held), 12);
	ck_assert_uint_eq(offsetof(struct gleam_cache_have, prove), 16);
	ck_assert_uint_eq(offsetof(struct gleam_cache_proof, proof), 40);
	ck_assert_uint_eq(offsetof(struct gleam_cache_data, flags), 40);
	ck_assert_uint_eq(offsetof(struct gleam_cache_refs, length), 8);
	ck_assert_uint_eq(GLEAM_CACHE_NAME_LEN, CHUNK_NAME_LEN);
	ck_assert_uint_eq(GLEAM_CACHE_CHUNK_MAX, CHUNK_SIZE_MAX);
	ck_assert_uint_le(sizeof(struct gleam_cache_data) + GLEAM_CACHE_CHUNK_MAX, GLEAM_FRAME_MAX);
	ck_assert_uint_le(sizeof(struct gleam_cache_query) +
			  GLEAM_CACHE_QUERY_MAX * sizeof(struct gleam_cache_ref), GLEAM_FRAME_MAX);
	ck_assert_uint_le(sizeof(struct gleam_cache_release) +
			  GLEAM_CACHE_RELEASE_MAX * GLEAM_CACHE_NAME_LEN, GLEAM_FRAME_MAX);
	/*
	 * The frames follow the others; the feature is one gleamd speaks; the
	 * record flag is never one an application or a worker may use.
	 */
	ck_assert_int_gt(GLEAM_FRAME_CACHE_INFO, GLEAM_FRAME_BYE);
	ck_assert_uint_eq(GLEAM_WIRE_F_CACHE & GLEAM_WIRE_F_KNOWN, GLEAM_WIRE_F_CACHE);
	ck_assert_uint_eq(GLEAM_WIRE_F_CACHE & GLEAM_WIRE_F_ASYNC, 0);
	ck_assert_uint_eq(GLEAM_REC_F_CACHED & GLEAM_REC_F_KNOWN, 0);
}
END_TEST

Suite *chunkstore_suite(void)
{
	Suite *s = suite_create("chunkstore");
	TCase *pool, *store;

	UNIT_TCASE(s, "names", test_vectors, test_count, test_wire_layout);
	pool = UNIT_TCASE(s, "hashpool", test_boundaries, test_pool_vectors, test_pool_order,
			  test_pool_cancel);
	tcase_set_timeout(pool, 30);
	store = UNIT_TCASE(s, "store", test_wrong_name, test_mem_eviction, test_persistence,
			   test_corrupt, test_temp_files, test_disk_eviction, test_list_clear,
			   test_threads);
	tcase_set_timeout(store, 30);
	tcase_add_checked_fixture(store, dir_setup, dir_teardown);
	return s;
}
