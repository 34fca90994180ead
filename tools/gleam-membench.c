// SPDX-License-Identifier: MIT
/*
 * gleam-membench: the machine's own ceilings for the steps a copy's bytes
 * take through Gleam (Documentation/design.md, "Where a copy's time goes").
 *
 *   gleam-membench [--size 256M] [--ring 4M] [--piece 1M] [--threads 1,2,4]
 *                  [--reps 3] [--cuda] [--json]
 *
 * in:   the program's copy of a large buffer into a ring, piece by piece
 *       (a copy to the device), by N threads taking pieces in turn;
 * out:  the same out of the ring into the large buffer (a copy to the host);
 * htod, htod-locked, dtoh-locked (--cuda, NVIDIA's driver): the worker's
 *       copy of ring pieces to the device from pageable memory, from the
 *       same ring page-locked, and from the device into it.
 *
 * Best of --reps; GB are 10^9 bytes.  The large buffer is touched first,
 * so page faults are not counted.
 */
#include <dlfcn.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "size_arg.h"

#define MAX_COUNTS 16

static size_t size = 256UL << 20, ring_sz = 4UL << 20, piece = 1UL << 20;
static unsigned char *big, *ring;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

struct job {
	bool out;
	atomic_size_t next;
};

/* Pieces are taken in turn; piece i sits at (i * piece) % ring in the ring. */
static void *copier(void *arg)
{
	struct job *j = arg;
	size_t n = size / piece, i;

	while ((i = atomic_fetch_add(&j->next, 1)) < n) {
		unsigned char *r = ring + (i * piece) % ring_sz;

		if (j->out)
			memcpy(big + i * piece, r, piece);
		else
			memcpy(r, big + i * piece, piece);
	}
	return NULL;
}

static double host_pass(bool out, unsigned int threads)
{
	struct job j = { .out = out };
	pthread_t t[64];
	double t0 = now();

	atomic_init(&j.next, 0);
	for (unsigned int k = 1; k < threads; k++)
		pthread_create(&t[k], NULL, copier, &j);
	copier(&j);
	for (unsigned int k = 1; k < threads; k++)
		pthread_join(t[k], NULL);
	return (double)(size / piece * piece) / (now() - t0) / 1e9;
}

/* The few driver calls the device rows need, found at run time. */
typedef int CUres;
static struct {
	CUres (*init)(unsigned int);
	CUres (*dev_get)(int *, int);
	CUres (*ctx_create)(void **, unsigned int, int);
	CUres (*mem_alloc)(unsigned long long *, size_t);
	CUres (*htod)(unsigned long long, const void *, size_t);
	CUres (*dtoh)(void *, unsigned long long, size_t);
	CUres (*host_register)(void *, size_t, unsigned int);
	CUres (*host_unregister)(void *);
} cu;
static unsigned long long dmem;

static bool cuda_open(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	int dev;
	void *ctx;

	if (!h)
		return false;
	cu.init = dlsym(h, "cuInit");
	cu.dev_get = dlsym(h, "cuDeviceGet");
	cu.ctx_create = dlsym(h, "cuCtxCreate_v2");
	cu.mem_alloc = dlsym(h, "cuMemAlloc_v2");
	cu.htod = dlsym(h, "cuMemcpyHtoD_v2");
	cu.dtoh = dlsym(h, "cuMemcpyDtoH_v2");
	cu.host_register = dlsym(h, "cuMemHostRegister_v2");
	cu.host_unregister = dlsym(h, "cuMemHostUnregister");
	if (!cu.init || !cu.dev_get || !cu.ctx_create || !cu.mem_alloc || !cu.htod ||
	    !cu.dtoh || !cu.host_register || !cu.host_unregister)
		return false;
	return !cu.init(0) && !cu.dev_get(&dev, 0) && !cu.ctx_create(&ctx, 0, dev) &&
	       !cu.mem_alloc(&dmem, size);
}

/* One thread, piece by piece, as the worker replays them (threads: unused). */
static double dev_pass(bool out, unsigned int threads)
{
	size_t n = size / piece;
	double t0 = now();

	(void)threads;
	for (size_t i = 0; i < n; i++) {
		unsigned char *r = ring + (i * piece) % ring_sz;
		CUres e = out ? cu.dtoh(r, dmem + i * piece, piece) :
				cu.htod(dmem + i * piece, r, piece);

		if (e) {
			fprintf(stderr, "gleam-membench: driver error %d\n", e);
			exit(1);
		}
	}
	return (double)(n * piece) / (now() - t0) / 1e9;
}

static double best(double (*f)(bool, unsigned int), bool out, unsigned int th, int reps)
{
	double b = 0;

	for (int r = 0; r < reps; r++) {
		double v = f(out, th);

		if (v > b)
			b = v;
	}
	return b;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: gleam-membench [--size BYTES] [--ring BYTES] [--piece BYTES] "
		   "[--threads N,N,...] [--reps N] [--cuda] [--json]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", 1, NULL, 's' }, { "ring", 1, NULL, 'r' }, { "piece", 1, NULL, 'p' },
		{ "threads", 1, NULL, 't' }, { "reps", 1, NULL, 'n' }, { "cuda", 0, NULL, 'c' },
		{ "json", 0, NULL, 'j' }, { "help", 0, NULL, 'h' }, { 0 }
	};
	unsigned int counts[MAX_COUNTS] = { 1, 2, 4 };
	int ncounts = 3, reps = 3, o;
	bool json = false, want_cuda = false;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 's': size = size_arg(optarg); break;
		case 'r': ring_sz = size_arg(optarg); break;
		case 'p': piece = size_arg(optarg); break;
		case 'n': reps = atoi(optarg); break;
		case 'c': want_cuda = true; break;
		case 'j': json = true; break;
		case 't': {
			char *s = optarg, *end;

			for (ncounts = 0; *s && ncounts < MAX_COUNTS; s = *end ? end + 1 : end) {
				long v = strtol(s, &end, 10);

				if (end == s || v < 1 || v > 64) {
					usage(stderr);
					return 2;
				}
				counts[ncounts++] = (unsigned int)v;
			}
			break;
		}
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!size || !ring_sz || !piece || piece > ring_sz || ring_sz % piece || size < piece ||
	    reps < 1) {
		fprintf(stderr, "gleam-membench: sizes must be set, the ring a multiple of the "
				"piece, the buffer at least one piece\n");
		return 2;
	}
	big = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ring = mmap(NULL, ring_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (big == MAP_FAILED || ring == MAP_FAILED) {
		perror("gleam-membench: mmap");
		return 1;
	}
	memset(big, 0x5a, size);
	memset(ring, 0xa5, ring_sz);
	if (json)
		printf("{\"size\": %zu, \"ring\": %zu, \"piece\": %zu, \"host\": [", size, ring_sz,
		       piece);
	else
		printf("%zu MiB in pieces of %zu KiB through a ring of %zu KiB, best of %d (GB/s)\n",
		       size >> 20, piece >> 10, ring_sz >> 10, reps);
	for (int i = 0; i < ncounts; i++) {
		double in = best(host_pass, false, counts[i], reps);
		double out = best(host_pass, true, counts[i], reps);

		if (json)
			printf("%s{\"threads\": %u, \"in\": %.2f, \"out\": %.2f}", i ? ", " : "",
			       counts[i], in, out);
		else
			printf("  %2u thread%s  into the ring %6.2f  out of it %6.2f\n", counts[i],
			       counts[i] == 1 ? " " : "s", in, out);
	}
	if (json)
		printf("]");
	if (want_cuda) {
		double h, hl = 0, dl = 0;

		if (!cuda_open()) {
			fprintf(stderr, "gleam-membench: no usable libcuda.so.1\n");
			return 1;
		}
		h = best(dev_pass, false, 1, reps);
		if (!cu.host_register(ring, ring_sz, 1 /* PORTABLE */)) {
			hl = best(dev_pass, false, 1, reps);
			dl = best(dev_pass, true, 1, reps);
			cu.host_unregister(ring);
		}
		if (json)
			printf(", \"htod\": %.2f, \"htod_locked\": %.2f, \"dtoh_locked\": %.2f", h, hl,
			       dl);
		else
			printf("  driver, one thread: to the device from the ring %.2f, page-locked "
			       "%.2f; to the page-locked ring %.2f\n", h, hl, dl);
	}
	if (json)
		printf("}\n");
	return 0;
}
