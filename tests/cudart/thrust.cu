// SPDX-License-Identifier: MIT
// A program as people write them with the toolkit's Thrust and CUB: device
// vectors, transforms with functors, reductions, scans, sorts (CUB's radix
// sort behind Thrust's), sorts by key, unique, counts, a CUB reduction with
// its temporary storage asked first, and Thrust on a stream of the
// program's own.  Every result is checked against the same computation on
// the host; what it prints depends on neither the GPU nor the launch
// shapes the library picks from its occupancy questions.  Its kernels are
// the library's own, which the sim backend does not mirror: it runs on a
// GPU only (tests/gpu/run-all.sh, "cudart programs").
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include <cub/device/device_reduce.cuh>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

#include "cudart.h"

static int failures;

#define EXPECT(what, cond)                                                    \
	do {                                                                  \
		bool ok_ = (cond);                                            \
		printf("%-40s %s\n", what, ok_ ? "ok" : "WRONG");             \
		failures += !ok_;                                             \
	} while (0)

struct saxpy {
	int a;
	__host__ __device__ int operator()(int x, int y) const { return a * x + y; }
};

struct shift20 {
	__host__ __device__ uint32_t operator()(uint32_t x) const { return x >> 20; }
};

struct is_odd {
	__host__ __device__ bool operator()(uint32_t x) const { return x & 1; }
};

// A generator that gives the same numbers on every machine.
static uint32_t next(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

int main()
{
	const size_t n = (size_t)1 << 22;
	uint64_t seed = 42;
	std::vector<uint32_t> keys(n), vals(n);
	std::vector<int> xs(n), ys(n);

	for (size_t i = 0; i < n; i++) {
		keys[i] = next(&seed);
		vals[i] = (uint32_t)i;
		xs[i] = (int)(next(&seed) % 2001) - 1000;
		ys[i] = (int)(next(&seed) % 2001) - 1000;
	}

	// Transform and reduce.
	thrust::device_vector<int> dx(xs.begin(), xs.end()), dy(ys.begin(), ys.end());
	thrust::device_vector<int> dz(n);
	thrust::transform(dx.begin(), dx.end(), dy.begin(), dz.begin(), saxpy{ 3 });
	std::vector<int> z(n);
	thrust::copy(dz.begin(), dz.end(), z.begin());
	bool same = true;
	for (size_t i = 0; i < n; i++)
		same &= z[i] == 3 * xs[i] + ys[i];
	EXPECT("transform (saxpy) of 4M ints", same);
	long long sum = thrust::reduce(dz.begin(), dz.end(), 0ll, thrust::plus<long long>());
	long long want = 0;
	for (size_t i = 0; i < n; i++)
		want += z[i];
	EXPECT("reduce to a sum", sum == want);
	int mx = thrust::reduce(dz.begin(), dz.end(), -1 << 30, thrust::maximum<int>());
	EXPECT("reduce to a maximum", mx == *std::max_element(z.begin(), z.end()));

	// Scan.
	thrust::device_vector<long long> dscan(n);
	thrust::inclusive_scan(dz.begin(), dz.end(), dscan.begin(), thrust::plus<long long>());
	std::vector<long long> scan(n);
	thrust::copy(dscan.begin(), dscan.end(), scan.begin());
	long long run = 0;
	same = true;
	for (size_t i = 0; i < n; i++) {
		run += z[i];
		same &= scan[i] == run;
	}
	EXPECT("inclusive scan", same);

	// Sort (radix) and sort by key.
	thrust::device_vector<uint32_t> dk(keys.begin(), keys.end()), dv(vals.begin(), vals.end());
	thrust::device_vector<uint32_t> dsorted = dk;
	thrust::sort(dsorted.begin(), dsorted.end());
	std::vector<uint32_t> sorted(n), hk(keys);
	thrust::copy(dsorted.begin(), dsorted.end(), sorted.begin());
	std::sort(hk.begin(), hk.end());
	EXPECT("sort of 4M keys", sorted == hk);
	thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
	std::vector<uint32_t> k2(n), v2(n);
	thrust::copy(dk.begin(), dk.end(), k2.begin());
	thrust::copy(dv.begin(), dv.end(), v2.begin());
	same = k2 == hk;
	for (size_t i = 0; i < n && same; i++)
		same = keys[v2[i]] == k2[i];
	EXPECT("sort by key, values follow their keys", same);

	// Unique and count.
	thrust::device_vector<uint32_t> dsmall(n);
	thrust::transform(dsorted.begin(), dsorted.end(), dsmall.begin(),
			  shift20());
	size_t uniq = thrust::unique(dsmall.begin(), dsmall.end()) - dsmall.begin();
	std::vector<uint32_t> hs(n);
	for (size_t i = 0; i < n; i++)
		hs[i] = hk[i] >> 20;
	size_t huniq = std::unique(hs.begin(), hs.end()) - hs.begin();
	EXPECT("unique of sorted keys", uniq == huniq);
	size_t odd = thrust::count_if(dk.begin(), dk.end(), is_odd());
	EXPECT("count_if", odd == (size_t)std::count_if(keys.begin(), keys.end(),
							  [](uint32_t x) { return x & 1; }));

	// CUB directly: the temporary storage's size asked first, then the sum.
	int *din, *dout;
	void *tmp = nullptr;
	size_t tmp_bytes = 0;
	CHECK(cudaMalloc(&din, n * sizeof(int)));
	CHECK(cudaMalloc(&dout, sizeof(int)));
	CHECK(cudaMemcpy(din, xs.data(), n * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, din, dout, (int)n));
	CHECK(cudaMalloc(&tmp, tmp_bytes));
	CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, din, dout, (int)n));
	int csum = 0;
	CHECK(cudaMemcpy(&csum, dout, sizeof(int), cudaMemcpyDeviceToHost));
	EXPECT("cub::DeviceReduce::Sum", csum == std::accumulate(xs.begin(), xs.end(), 0));

	// Thrust on a stream of the program's own, on memory it allocated.
	cudaStream_t s;
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	thrust::device_ptr<int> p(din);
	thrust::sort(thrust::cuda::par.on(s), p, p + n);
	thrust::sequence(thrust::cuda::par.on(s), dz.begin(), dz.end(), 7, 3);
	CHECK(cudaStreamSynchronize(s));
	std::vector<int> hx(xs), back(n);
	std::sort(hx.begin(), hx.end());
	CHECK(cudaMemcpy(back.data(), din, n * sizeof(int), cudaMemcpyDeviceToHost));
	EXPECT("sort on a stream of its own", back == hx);
	thrust::copy(dz.begin(), dz.end(), z.begin());
	same = true;
	for (size_t i = 0; i < n; i++)
		same &= z[i] == 7 + 3 * (int)i;
	EXPECT("sequence on a stream of its own", same);
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaFree(tmp));
	CHECK(cudaFree(dout));
	CHECK(cudaFree(din));
	CHECK(cudaGetLastError());
	printf("%s\n", failures ? "thrust: WRONG results" : "thrust: all results right");
	return failures ? 1 : 0;
}
