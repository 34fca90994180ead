// SPDX-License-Identifier: MIT
/*
 * once: the device questions whose answer depends only on their arguments
 * and the device (cuDeviceGetTexture1DLinearMaxWidth,
 * cuDeviceGetExecAffinitySupport), each asked TIMES times with the same
 * arguments, then with others, then from several threads at once: every
 * answer is the first one's, and a call that fails fails every time.  No
 * context is made: neither question needs one.
 *
 * Through Gleam the shim asks the server once per distinct arguments and
 * keeps the answer (the table's once, libcuda-shim/memo.c), but not an
 * error: tests/integration/run.sh counts the program's waits, 10 in all
 * (cuInit, three widths, three failing widths, one affinity, two failing
 * affinities).
 */
#include <pthread.h>
#include <stdio.h>

#include "util.h"

#define TIMES	100
#define THREADS	4

static CUdevice dev;
static size_t float4_width;
static int sm_affinity;

/* The width for format x channels, asked TIMES times: the first answer each time. */
static size_t width(CUarray_format format, unsigned int channels)
{
	size_t first = 0;

	CK(cuDeviceGetTexture1DLinearMaxWidth(&first, format, channels, dev));
	for (int i = 1; i < TIMES; i++) {
		size_t w = 0;

		CK(cuDeviceGetTexture1DLinearMaxWidth(&w, format, channels, dev));
		if (w != first)
			die("format %#x x %u: call %d answered %zu, the first %zu", format, channels,
			    i, w, first);
	}
	return first;
}

static int affinity(CUexecAffinityType type)
{
	int first = -1;

	CK(cuDeviceGetExecAffinitySupport(&first, type, dev));
	for (int i = 1; i < TIMES; i++) {
		int v = -1;

		CK(cuDeviceGetExecAffinitySupport(&v, type, dev));
		if (v != first)
			die("affinity %d: call %d answered %d, the first %d", type, i, v, first);
	}
	return first;
}

/* Another thread asks both again: the same answers. */
static void *again(void *arg)
{
	for (int i = 0; i < TIMES; i++) {
		size_t w = 0;
		int v = -1;

		CK(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 4, dev));
		CK(cuDeviceGetExecAffinitySupport(&v, CU_EXEC_AFFINITY_TYPE_SM_COUNT, dev));
		if (w != float4_width || v != sm_affinity)
			die("thread %d, call %d: %zu and %d, not %zu and %d", (int)(long)arg, i, w, v,
			    float4_width, sm_affinity);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	size_t w1, w2, w;
	int count, v;

	CK(cuInit(0));
	CK(cuDeviceGetCount(&count));
	CK(cuDeviceGet(&dev, 0));

	float4_width = width(CU_AD_FORMAT_FLOAT, 4);
	printf("1D linear texture of float4: at most %zu elements, %d times the same\n",
	       float4_width, TIMES);
	w1 = width(CU_AD_FORMAT_FLOAT, 1);
	w2 = width(CU_AD_FORMAT_UNSIGNED_INT8, 2);
	printf("of float and of uchar2: %d times the same each (%s)\n", TIMES,
	       w1 && w2 ? "both answered" : "not answered");
	for (int i = 0; i < 3; i++)
		CK_EXPECT(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 3, dev),
			  CUDA_ERROR_INVALID_VALUE);
	printf("float3, 3 times: %s each time\n", err_name(CUDA_ERROR_INVALID_VALUE));
	CK_EXPECT(cuDeviceGetTexture1DLinearMaxWidth(NULL, CU_AD_FORMAT_FLOAT, 4, dev),
		  CUDA_ERROR_INVALID_VALUE);
	printf("float4 with nowhere to answer: %s\n", err_name(CUDA_ERROR_INVALID_VALUE));

	sm_affinity = affinity(CU_EXEC_AFFINITY_TYPE_SM_COUNT);
	printf("execution affinity by SM count: %s, %d times the same\n",
	       sm_affinity ? "supported" : "not supported", TIMES);
	for (int i = 0; i < 2; i++)
		CK_EXPECT(cuDeviceGetExecAffinitySupport(&v, CU_EXEC_AFFINITY_TYPE_SM_COUNT, count),
			  CUDA_ERROR_INVALID_DEVICE);
	printf("a device past the last, 2 times: %s each time\n",
	       err_name(CUDA_ERROR_INVALID_DEVICE));

	for (long i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, again, (void *)i))
			die("pthread_create");
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("%d threads, %d times each: the same answers\n", THREADS, TIMES);
	printf("once: PASS\n");
	return 0;
}
