// SPDX-License-Identifier: MIT
// A graph built node by node as a runtime program builds one: memset and
// memcpy nodes (from and to host memory, 1-D), kernel nodes of the
// program's own kernels with cudaGraphAddKernelNode, dependencies added
// after the nodes, a child graph; launched with new host input each time;
// a kernel node's parameters changed in the graph and in the executable
// graph; a clone and an update from it; a host node after a kernel in a
// graph of their own (a graph may not mix host nodes with copies of host
// memory through Gleam, which copies those before and after a launch,
// not in the graph's order).  It prints only what does not
// depend on the GPU (tests/cudart/expected/).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "cudart.h"
#include "../kernels/vec_add.cu"
#include "../kernels/saxpy.cuh"
#include "../kernels/fill_u32.cuh"

static const int n = 1 << 14;
static const int blocks = (n + 255) / 256;

static bool all(const float *h, float v)
{
	for (int i = 0; i < n; i++)
		if (h[i] != v)
			return false;
	return true;
}

static cudaGraphNode_t kernel_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
				   void *func, void **args)
{
	cudaKernelNodeParams p;
	cudaGraphNode_t node;

	memset(&p, 0, sizeof(p));
	p.func = func;
	p.gridDim = dim3(blocks);
	p.blockDim = dim3(256);
	p.kernelParams = args;
	CHECK(cudaGraphAddKernelNode(&node, g, deps, nd, &p));
	return node;
}

static void CUDART_CB bump(void *p)
{
	++*(int *)p;
}

int main()
{
	float *x, *y, *z, *hin, *hout, a = 2.0f;
	unsigned int *u;
	unsigned int seven = 7;
	unsigned long long count = n;
	int nn = n;
	cudaGraph_t g, child, cl;
	cudaGraphExec_t e;
	cudaGraphNode_t up, ms, k1, k2, down, cn, kc;
	cudaGraphNodeType t;
	cudaGraphExecUpdateResultInfo info;
	cudaStream_t s;
	size_t nodes = 0, edges = 0;

	CHECK(cudaMalloc(&x, n * sizeof(float)));
	CHECK(cudaMalloc(&y, n * sizeof(float)));
	CHECK(cudaMalloc(&z, n * sizeof(float)));
	CHECK(cudaMalloc(&u, n * sizeof(unsigned int)));
	CHECK(cudaMallocHost(&hin, n * sizeof(float)));
	CHECK(cudaMallocHost(&hout, n * sizeof(float)));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (int i = 0; i < n; i++)
		hin[i] = 1.0f;

	// z = x + y with x from the host and y = 0 (a memset); then z = a * x + z.
	CHECK(cudaGraphCreate(&g, 0));
	CHECK(cudaGraphAddMemcpyNode1D(&up, g, NULL, 0, x, hin, n * sizeof(float),
				       cudaMemcpyHostToDevice));
	{
		cudaMemsetParams m;

		memset(&m, 0, sizeof(m));
		m.dst = y;
		m.elementSize = 4;
		m.width = n;
		m.height = 1;
		CHECK(cudaGraphAddMemsetNode(&ms, g, NULL, 0, &m));
	}
	{
		void *args[] = { &x, &y, &z, &nn };

		k1 = kernel_node(g, NULL, 0, (void *)vec_add, args);
	}
	{
		void *args[] = { &a, &x, &z, &nn };

		k2 = kernel_node(g, &k1, 1, (void *)saxpy, args);
	}
	CHECK(cudaGraphAddMemcpyNode1D(&down, g, &k2, 1, hout, z, n * sizeof(float),
				       cudaMemcpyDeviceToHost));
	// The memcpy and the memset come before the first kernel: edges added afterwards.
	{
		cudaGraphNode_t from[] = { up, ms }, to[] = { k1, k1 };

		CHECK(cudaGraphAddDependencies(g, from, to, NULL, 2));
	}
	CHECK(cudaGraphGetNodes(g, NULL, &nodes));
	CHECK(cudaGraphGetEdges(g, NULL, NULL, NULL, &edges));
	printf("graph: %zu nodes, %zu edges\n", nodes, edges);

	// A child graph fills u with 7 after the first kernel.
	CHECK(cudaGraphCreate(&child, 0));
	{
		void *args[] = { &u, &seven, &count };

		kernel_node(child, NULL, 0, (void *)fill_u32, args);
	}
	CHECK(cudaGraphAddChildGraphNode(&cn, g, &k1, 1, child));
	CHECK(cudaGraphDestroy(child));
	CHECK(cudaGraphNodeGetType(cn, &t));
	printf("child graph node: %s\n", yes(t == cudaGraphNodeTypeGraph));

	CHECK(cudaGraphInstantiate(&e, g, 0));
	CHECK(cudaGraphLaunch(e, s));
	CHECK(cudaStreamSynchronize(s));
	printf("first launch: z = 3 %s\n", yes(all(hout, 3.0f)));
	for (int i = 0; i < n; i++)
		hin[i] = 2.0f;
	CHECK(cudaGraphLaunch(e, s));
	CHECK(cudaStreamSynchronize(s));
	printf("new host input: z = 6 %s\n", yes(all(hout, 6.0f)));
	{
		unsigned int *hu = (unsigned int *)malloc(n * sizeof(*hu));
		bool ok = hu != NULL;

		CHECK(cudaMemcpy(hu, u, n * sizeof(*hu), cudaMemcpyDeviceToHost));
		for (int i = 0; ok && i < n; i++)
			ok = hu[i] == 7;
		printf("the child graph ran: %s\n", yes(ok));
		free(hu);
	}

	// a = 3 in the executable graph only; then a = 4 in a clone, updated from.
	{
		cudaKernelNodeParams p;
		float a3 = 3.0f;
		void *args[] = { &a3, &x, &z, &nn };

		CHECK(cudaGraphKernelNodeGetParams(k2, &p));
		printf("kernel node: saxpy %s, a %g\n", yes(p.func == (void *)saxpy),
		       *(float *)p.kernelParams[0]);
		p.kernelParams = args;
		CHECK(cudaGraphExecKernelNodeSetParams(e, k2, &p));
		CHECK(cudaGraphLaunch(e, s));
		CHECK(cudaStreamSynchronize(s));
		printf("executable graph's a = 3: z = 8 %s\n", yes(all(hout, 8.0f)));
	}
	CHECK(cudaGraphClone(&cl, g));
	CHECK(cudaGraphNodeFindInClone(&kc, k2, cl));
	{
		cudaKernelNodeParams p;
		float a4 = 4.0f;
		void *args[] = { &a4, &x, &z, &nn };

		CHECK(cudaGraphKernelNodeGetParams(kc, &p));
		p.kernelParams = args;
		CHECK(cudaGraphKernelNodeSetParams(kc, &p));
	}
	CHECK(cudaGraphExecUpdate(e, cl, &info));
	printf("update from the clone: %s\n", yes(info.result == cudaGraphExecUpdateSuccess));
	CHECK(cudaGraphLaunch(e, s));
	CHECK(cudaStreamSynchronize(s));
	printf("clone's a = 4: z = 10 %s\n", yes(all(hout, 10.0f)));

	{
		cudaGraph_t hg;
		cudaGraphExec_t he;
		cudaGraphNode_t kn, hn;
		cudaHostNodeParams hp;
		unsigned int nine = 9;
		int bumps = 0;
		void *args[] = { &u, &nine, &count };

		memset(&hp, 0, sizeof(hp));
		hp.fn = bump;
		hp.userData = &bumps;
		CHECK(cudaGraphCreate(&hg, 0));
		kn = kernel_node(hg, NULL, 0, (void *)fill_u32, args);
		CHECK(cudaGraphAddHostNode(&hn, hg, &kn, 1, &hp));
		CHECK(cudaGraphInstantiate(&he, hg, 0));
		for (int i = 0; i < 3; i++)
			CHECK(cudaGraphLaunch(he, s));
		CHECK(cudaStreamSynchronize(s));
		printf("host node: ran %d times\n", bumps);
		CHECK(cudaGraphExecDestroy(he));
		CHECK(cudaGraphDestroy(hg));
	}

	CHECK(cudaGraphExecDestroy(e));
	CHECK(cudaGraphDestroy(cl));
	CHECK(cudaGraphDestroy(g));
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaFreeHost(hin));
	CHECK(cudaFreeHost(hout));
	CHECK(cudaFree(x));
	CHECK(cudaFree(y));
	CHECK(cudaFree(z));
	CHECK(cudaFree(u));
	printf("done\n");
	return 0;
}
