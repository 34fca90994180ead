// SPDX-License-Identifier: MIT
// Kernels that print (device printf) and assert, for tests/programs/devprintf.
// broker/sim_kernels.c mirrors each of them; keep the two in step.  What
// they print does not depend on timing: where several threads print, they
// take turns.
#include <assert.h>
#include <stdio.h>

#include "print_hello.cuh"
#include "print_threads.cuh"

// What device memory holds, p[0..n), from one thread.
extern "C" __global__ void print_values(const int *p, int n)
{
	if (blockIdx.x != 0 || threadIdx.x != 0)
		return;
	for (int i = 0; i < n; i++)
		printf("value[%d] = %d\n", i, p[i]);
}

// The conversions printf offers, on values the kernel computes.
extern "C" __global__ void print_formats(int i, double d)
{
	if (blockIdx.x != 0 || threadIdx.x != 0)
		return;
	printf("int %d, unsigned %u, hex %x, padded [%5d] [%-4d]\n", i, (unsigned int)i * 3u,
	       (unsigned int)i * 255u, i, i);
	printf("long long %lld, char %c, string %s, percent %%\n", (long long)i * 1000000007LL,
	       'A' + i % 26, "from the device");
	printf("double %.3f, exp %e, general %g\n", d, d * 1000.0, d / 8.0);
	printf("no newline at the end: ");
	printf("continued\n");
}

// Many lines from one thread: n of them, numbered.
extern "C" __global__ void print_many(int n)
{
	if (blockIdx.x != 0 || threadIdx.x != 0)
		return;
	for (int i = 0; i < n; i++)
		printf("line %d of %d: the quick brown fox jumps over the lazy dog\n", i, n);
}

// Thread bad of block 0 fails its assertion; the context fails with it.
extern "C" __global__ void assert_thread(int bad)
{
	assert(blockIdx.x != 0 || (int)threadIdx.x != bad);
}
