// SPDX-License-Identifier: MIT
// Host functions, stream callbacks and device printf through the CUDA
// runtime: cudaLaunchHostFunc and cudaStreamAddCallback in stream order
// among kernels launched with <<<>>>, the status a callback is given, and
// what kernels print reaching stdout at cudaStreamSynchronize and
// cudaDeviceSynchronize, among the program's own lines.  It prints only
// what does not depend on the GPU or on timing (tests/cudart/expected/).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <pthread.h>

#include "cudart.h"
#include "../kernels/print_hello.cuh"
#include "../kernels/print_threads.cuh"

static pthread_t main_thread;
static int order[8], n_order, on_main;

static void CUDART_CB step(void *arg)
{
	order[n_order++] = (int)(long)arg;
	on_main += pthread_equal(pthread_self(), main_thread);
}

static cudaError_t cb_status = cudaErrorUnknown;
static int cb_calls;

static void CUDART_CB callback(cudaStream_t s, cudaError_t status, void *arg)
{
	(void)s;
	(void)arg;
	cb_status = status;
	cb_calls++;
}

int main()
{
	cudaStream_t s;

	// Whole lines reach a pipe or file in the order they were printed.
	setvbuf(stdout, NULL, _IOLBF, 0);
	main_thread = pthread_self();
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	// The driver prints what kernels printed before it runs a host
	// function, whenever the stream gets there: nothing is printed here
	// between the launches and the synchronisation.
	printf("four kernels, each followed by a host function\n");
	for (long k = 0; k < 4; k++) {
		print_hello<<<1, 32, 0, s>>>((int)k);
		CHECK(cudaLaunchHostFunc(s, step, (void *)k));
	}
	CHECK(cudaStreamAddCallback(s, callback, NULL, 0));
	CHECK(cudaStreamSynchronize(s));
	printf("after cudaStreamSynchronize: host functions ran in order:");
	for (int i = 0; i < n_order; i++)
		printf(" %d", order[i]);
	printf("\n");
	printf("on the caller's thread: %s\n", yes(on_main));
	printf("callback: called %d time(s), status %s\n", cb_calls, cudaGetErrorName(cb_status));

	print_threads<<<1, 8>>>(5);
	printf("launched eight threads that print in turn\n");
	CHECK(cudaDeviceSynchronize());
	printf("after cudaDeviceSynchronize\n");
	CHECK(cudaStreamDestroy(s));
	printf("hostfn: PASS\n");
	return 0;
}
