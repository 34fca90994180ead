// SPDX-License-Identifier: MIT
/*
 * common/util.c: secrets compared, a connection's peer named, what peers
 * name escaped, identity names, a socket's directory; common/bigcopy.c:
 * large copies shared among threads.
 */
#include <arpa/inet.h>
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bigcopy.h"
#include "unit.h"
#include "util.h"

START_TEST(test_secret_eq)
{
	unsigned char a[32], b[32];

	for (unsigned int i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (unsigned char)(i * 37 + 1);
	ck_assert(gl_secret_eq(a, b, sizeof(a)));
	ck_assert(gl_secret_eq(a, b, 0));
	/* A difference anywhere counts, the first byte and the last alike. */
	b[0] ^= 0x80;
	ck_assert(!gl_secret_eq(a, b, sizeof(a)));
	b[0] ^= 0x80;
	b[31] ^= 1;
	ck_assert(!gl_secret_eq(a, b, sizeof(a)));
	ck_assert(gl_secret_eq(a, b, 31));
}
END_TEST

START_TEST(test_peer_name)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), a;
	char name[64], want[64];

	ck_assert_int_ge(l, 0);
	ck_assert_int_ge(c, 0);
	/* Not connected: no peer. */
	gl_peer_name(c, name, sizeof(name));
	ck_assert_str_eq(name, "?");
	ck_assert_int_eq(bind(l, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(l, 1), 0);
	ck_assert_int_eq(getsockname(l, (struct sockaddr *)&sa, &sl), 0);
	ck_assert_int_eq(connect(c, (struct sockaddr *)&sa, sizeof(sa)), 0);
	a = accept(l, NULL, NULL);
	ck_assert_int_ge(a, 0);
	/* The accepted side's peer is the connecting socket's own address. */
	sl = sizeof(sa);
	ck_assert_int_eq(getsockname(c, (struct sockaddr *)&sa, &sl), 0);
	snprintf(want, sizeof(want), "127.0.0.1:%u", ntohs(sa.sin_port));
	gl_peer_name(a, name, sizeof(name));
	ck_assert_str_eq(name, want);
	close(a);
	close(c);
	close(l);
}
END_TEST

/* What a peer names reaches a log line printable, and cut to fit. */
START_TEST(test_escape)
{
	char out[16];

	gl_escape(out, sizeof(out), "ab\ncd", 6);
	ck_assert_str_eq(out, "ab\\x0acd");
	gl_escape(out, sizeof(out), "\\\x1b[2J", 5);
	ck_assert_str_eq(out, "\\x5c\\x1b[2J");
	/* Not past the buffer, nor half an escape. */
	gl_escape(out, 8, "abcde\x07" "fg", 8);
	ck_assert_str_eq(out, "abcde");
	/* A name without its NUL stops at its length. */
	gl_escape(out, sizeof(out), "xyz", 2);
	ck_assert_str_eq(out, "xy");
}
END_TEST

START_TEST(test_ident)
{
	ck_assert(gl_ident_ok("alice"));
	ck_assert(gl_ident_ok("gpu-box.lan"));
	ck_assert(gl_ident_ok("10.0.0.5"));
	ck_assert(!gl_ident_ok(""));
	ck_assert(!gl_ident_ok("-x"));
	ck_assert(!gl_ident_ok(".x"));
	ck_assert(!gl_ident_ok("a b"));
	ck_assert(!gl_ident_ok("(none)"));
	ck_assert(!gl_ident_ok("a\nb"));
	ck_assert(!gl_ident_ok("0123456789012345678901234567890123456789012345678901234567890123"));
}
END_TEST

/* A socket's directory: ours, and nobody else's to write. */
START_TEST(test_private_dir)
{
	char dir[] = "/tmp/gleam-unit.XXXXXX", path[64], why[256];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gleamd.sock", dir);
	ck_assert_int_eq(gl_private_dir(path, why, sizeof(why)), 0);
	chmod(dir, 0770);
	ck_assert_int_eq(gl_private_dir(path, why, sizeof(why)), -EPERM);
	ck_assert_ptr_nonnull(strstr(why, "others may write"));
	chmod(dir, 0701);
	ck_assert_int_eq(gl_private_dir(path, why, sizeof(why)), 0);
	rmdir(dir);
	ck_assert_int_eq(gl_private_dir(path, why, sizeof(why)), -ENOENT);
}
END_TEST

/* Sizes as the configuration, gleamctl's tools and linkem write them. */
START_TEST(test_parse_size)
{
	uint64_t v;

	ck_assert_int_eq(gl_parse_size("65536", &v), 0);
	ck_assert_uint_eq(v, 65536);
	ck_assert_int_eq(gl_parse_size("64k", &v), 0);
	ck_assert_uint_eq(v, 64 << 10);
	ck_assert_int_eq(gl_parse_size("64KiB", &v), 0);
	ck_assert_uint_eq(v, 64 << 10);
	ck_assert_int_eq(gl_parse_size("4G", &v), 0);
	ck_assert_uint_eq(v, 4ULL << 30);
	ck_assert_int_eq(gl_parse_size("2TB", &v), 0);
	ck_assert_uint_eq(v, 2ULL << 40);
	ck_assert_int_eq(gl_parse_size("1.5m", &v), 0);
	ck_assert_uint_eq(v, 3 << 19);
	ck_assert_int_eq(gl_parse_size("0x1000", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(gl_parse_size("", &v), -EINVAL);
	ck_assert_int_eq(gl_parse_size("-1", &v), -EINVAL);
	ck_assert_int_eq(gl_parse_size("4X", &v), -EINVAL);
	ck_assert_int_eq(gl_parse_size("16777216T", &v), -EINVAL);
}
END_TEST

/* Text that grows; a bounded one leaves out what does not fit. */
START_TEST(test_buf)
{
	struct gl_buf b = { 0 }, small = { .max = 4096 };
	char big[3000];

	for (int i = 0; i < 1000; i++)
		gl_buf_printf(&b, "%d,", i % 10);
	ck_assert_uint_eq(b.len, 2000);
	ck_assert_uint_eq(strlen(b.b), 2000);
	ck_assert(!strncmp(b.b, "0,1,2,", 6));
	free(b.b);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	gl_buf_printf(&small, "%s", big);
	gl_buf_printf(&small, "%s", big);
	gl_buf_printf(&small, "]");
	ck_assert_uint_eq(small.len, sizeof(big));
	ck_assert_uint_eq(strlen(small.b), sizeof(big));
	ck_assert_int_eq(small.b[small.len - 1], ']');
	free(small.b);
}
END_TEST

/* What a peer names goes into text and JSON with nothing that could break them. */
START_TEST(test_harmless)
{
	char s[] = "a b\"c\\d\x01\xe9";

	gl_harmless(s, true);
	ck_assert_str_eq(s, "a b_c_d__");
	gl_harmless(s, false);
	ck_assert_str_eq(s, "a_b_c_d__");
}
END_TEST

/* Large copies shared among threads land whole, in place, and nowhere else. */
static void fill_pattern(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 2654435761u >> 13 ^ seed);
}

static unsigned int copy_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned int n = 0;

	ck_assert(d);
	while ((e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "gleam-copy\n"))
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

START_TEST(test_bigcopy_sizes)
{
	static const size_t sizes[] = { 0, 1, 255, 256, 257, 319, (256u << 10) - 1, 256u << 10,
					(256u << 10) + 5, (1u << 20) + 3, (9u << 20) + 77 };
	size_t max = (9u << 20) + 77 + 64;
	unsigned char *src = malloc(max), *dst = malloc(max), *guard = malloc(max);

	ck_assert(src && dst && guard);
	memset(guard, 0xee, max);
	setenv("GLEAM_COPY_THREADS", "4", 1);
	ck_assert_uint_eq(gl_bigcopy_threads(), 4);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		/* Plain, with stores past the cache, and the latter alone: the same bytes. */
		for (size_t way = 0; way < 3 * 3; way++) {
			size_t n = sizes[i], k = way % 3, at = 16 + 7 * k;

			fill_pattern(src, max, (unsigned int)(i * 7 + way));
			memset(dst, 0xee, max);
			if (way < 3)
				gl_bigcopy(dst + at, src + 3 * k, n);
			else if (way < 6)
				gl_bigcopy_cold(dst + at, src + 3 * k, n);
			else
				gl_copy_cold(dst + at, src + 3 * k, n);
			ck_assert(!memcmp(dst + at, src + 3 * k, n));
			ck_assert(!memcmp(dst, guard, at));
			ck_assert(!memcmp(dst + at + n, guard, max - at - n));
		}
	}
	free(src);
	free(dst);
	free(guard);
	/* And helpers did it: three threads of that name beside the caller. */
	ck_assert_uint_ge(copy_threads(), 3);
}
END_TEST

struct bigcopy_run {
	unsigned int seed;
	bool ok;
};

static void *bigcopy_runner(void *arg)
{
	struct bigcopy_run *r = arg;
	size_t n = (3u << 20) + 4096 * r->seed + r->seed;
	unsigned char *src = malloc(n), *dst = malloc(n);

	r->ok = src && dst;
	for (unsigned int k = 0; r->ok && k < 40; k++) {
		fill_pattern(src, n, r->seed * 100 + k);
		memset(dst, 0, n);
		gl_bigcopy(dst, src, n - k * 4099);
		r->ok = !memcmp(dst, src, n - k * 4099);
	}
	free(src);
	free(dst);
	return NULL;
}

/* Callers at once: one has the helpers, the others copy alone, all land whole. */
START_TEST(test_bigcopy_concurrent)
{
	struct bigcopy_run runs[4];
	pthread_t t[4];

	setenv("GLEAM_COPY_THREADS", "4", 1);
	for (unsigned int i = 0; i < 4; i++) {
		runs[i].seed = i + 1;
		ck_assert_int_eq(pthread_create(&t[i], NULL, bigcopy_runner, &runs[i]), 0);
	}
	for (unsigned int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		ck_assert(runs[i].ok);
	}
}
END_TEST

/* A child of fork() copies with helpers of its own. */
START_TEST(test_bigcopy_fork)
{
	size_t n = 3u << 20;
	unsigned char *src = malloc(n), *dst = malloc(n);
	int status;
	pid_t pid;

	ck_assert(src && dst);
	setenv("GLEAM_COPY_THREADS", "4", 1);
	fill_pattern(src, n, 5);
	gl_bigcopy(dst, src, n);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		memset(dst, 0, n);
		fill_pattern(src, n, 6);
		gl_bigcopy(dst, src, n);
		_exit(memcmp(dst, src, n) || copy_threads() < 3 ? 1 : 0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(src);
	free(dst);
}
END_TEST

/* Pages made readable and writable by the program's SIGSEGV handler, as they are touched. */
static unsigned char *lazy_base;
static size_t lazy_len;
static atomic_uint lazy_faults;

static void lazy_fault(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr & ~(uintptr_t)4095;

	(void)sig;
	(void)uc;
	if (a < (uintptr_t)lazy_base || a >= (uintptr_t)lazy_base + lazy_len)
		abort();
	mprotect((void *)a, 4096, PROT_READ | PROT_WRITE);
	atomic_fetch_add(&lazy_faults, 1);
}

/* Copies into and out of such pages: the helpers' faults reach the handler. */
START_TEST(test_bigcopy_lazy_pages)
{
	size_t n = 8u << 20;
	unsigned char *src = malloc(n), *back = malloc(n);
	struct sigaction sa = { .sa_sigaction = lazy_fault, .sa_flags = SA_SIGINFO }, old;

	/*
	 * Memcheck takes the first touch of a page not yet mapped for an
	 * invalid access, before the program's handler maps it.
	 */
	if (getenv("GLEAM_UNIT_VALGRIND")) {
		free(src);
		free(back);
		return;
	}
	ck_assert(src && back);
	setenv("GLEAM_COPY_THREADS", "4", 1);
	lazy_len = 2 * n;
	lazy_base = mmap(NULL, lazy_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(lazy_base != MAP_FAILED);
	ck_assert_int_eq(sigaction(SIGSEGV, &sa, &old), 0);
	fill_pattern(src, n, 9);
	/* Into pages not yet there, then out of them into more such pages. */
	gl_bigcopy(lazy_base, src, n);
	gl_bigcopy(lazy_base + n, lazy_base, n);
	memcpy(back, lazy_base + n, n);
	ck_assert(!memcmp(back, src, n));
	ck_assert_uint_ge(atomic_load(&lazy_faults), 2 * n / 4096);
	ck_assert_uint_ge(copy_threads(), 3);
	sigaction(SIGSEGV, &old, NULL);
	munmap(lazy_base, lazy_len);
	free(src);
	free(back);
}
END_TEST

UNIT_SUITE(util, "util", test_secret_eq, test_peer_name, test_escape, test_ident, test_private_dir,
	   test_parse_size, test_buf, test_harmless, test_bigcopy_sizes, test_bigcopy_concurrent, test_bigcopy_fork,
	   test_bigcopy_lazy_pages);
