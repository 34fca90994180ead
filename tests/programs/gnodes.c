// SPDX-License-Identifier: MIT
/*
 * gnodes: graphs built node by node, as programs that do not capture
 * build them.
 *
 * A graph of every simple kind of node (memsets, a kernel, copies on the
 * device, from and to host memory, an empty node, an event record), its
 * structure asked (nodes, roots, edges, dependencies both ways) and its
 * launches checked, with new host input before the second; the nodes'
 * parameters read back, changed in the graph and in an executable graph;
 * a clone and updates of an executable graph from it and from a graph of
 * another shape; a child graph; event record and wait nodes in two graphs
 * on two streams; memory allocation and free nodes; conditional nodes (if,
 * if/else, while) whose conditions kernels set; edges added and removed,
 * nodes destroyed, nodes disabled in an executable graph; nodes made with
 * the generic cuGraphAddNode; host nodes, in a child graph too, their
 * functions and data changed; and what the driver refuses at the call.
 * Where the driver documents no error code, the program checks that the
 * call failed and prints no name.  Sets of nodes are compared as sets:
 * the order of the driver's lists is not documented.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define N	4096u

static CUfunction f_saxpy, f_fill, f_cond_count, f_cond_set;
static CUcontext ctx;
static CUstream s, s2;

static const char *yes(int b)
{
	return b ? "yes" : "no";
}

static unsigned int bits(float f)
{
	unsigned int u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* ---- nodes ---- */

static CUgraphNode memset32(CUgraph g, const CUgraphNode *deps, size_t n, CUdeviceptr dst,
			    unsigned int v, size_t count)
{
	CUDA_MEMSET_NODE_PARAMS p = { .dst = dst, .value = v, .elementSize = 4, .width = count,
				      .height = 1 };
	CUgraphNode node;

	CK(cuGraphAddMemsetNode(&node, g, deps, n, &p, ctx));
	return node;
}

static void saxpy_params(CUDA_KERNEL_NODE_PARAMS *p, void **args)
{
	memset(p, 0, sizeof(*p));
	p->func = f_saxpy;
	p->gridDimX = blocks_for(N, 256);
	p->gridDimY = p->gridDimZ = 1;
	p->blockDimX = 256;
	p->blockDimY = p->blockDimZ = 1;
	p->kernelParams = args;
}

/* y = a * x + y over N floats. */
static CUgraphNode saxpy(CUgraph g, const CUgraphNode *deps, size_t n, float a, CUdeviceptr x,
			 CUdeviceptr y)
{
	int count = N;
	void *args[] = { &a, &x, &y, &count };
	CUDA_KERNEL_NODE_PARAMS p;
	CUgraphNode node;

	saxpy_params(&p, args);
	CK(cuGraphAddKernelNode(&node, g, deps, n, &p));
	return node;
}

static CUgraphNode fill(CUgraph g, const CUgraphNode *deps, size_t n, CUdeviceptr p,
			unsigned int v)
{
	size_t count = N;
	void *args[] = { &p, &v, &count };
	CUDA_KERNEL_NODE_PARAMS k = { .func = f_fill, .gridDimX = 16, .gridDimY = 1,
				      .gridDimZ = 1, .blockDimX = 256, .blockDimY = 1,
				      .blockDimZ = 1, .kernelParams = args };
	CUgraphNode node;

	CK(cuGraphAddKernelNode(&node, g, deps, n, &k));
	return node;
}

/* A copy of bytes; either end may be host memory (then dev is 0 there). */
static CUDA_MEMCPY3D copy_params(CUdeviceptr dst, void *dst_host, CUdeviceptr src,
				 const void *src_host, size_t bytes)
{
	CUDA_MEMCPY3D c;

	memset(&c, 0, sizeof(c));
	c.srcMemoryType = src_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	c.srcHost = src_host;
	c.srcDevice = src;
	c.dstMemoryType = dst_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	c.dstHost = dst_host;
	c.dstDevice = dst;
	c.WidthInBytes = bytes;
	c.Height = 1;
	c.Depth = 1;
	return c;
}

static CUgraphNode copy(CUgraph g, const CUgraphNode *deps, size_t n, CUdeviceptr dst,
			void *dst_host, CUdeviceptr src, const void *src_host, size_t bytes)
{
	CUDA_MEMCPY3D c = copy_params(dst, dst_host, src, src_host, bytes);
	CUgraphNode node;

	CK(cuGraphAddMemcpyNode(&node, g, deps, n, &c, ctx));
	return node;
}

static CUgraphNode empty(CUgraph g, const CUgraphNode *deps, size_t n)
{
	CUgraphNode node;

	CK(cuGraphAddEmptyNode(&node, g, deps, n));
	return node;
}

/* ---- checks ---- */

static int all_u32(CUdeviceptr d, unsigned int v)
{
	static unsigned int h[N];

	CK(cuMemcpyDtoH(h, d, sizeof(h)));
	for (unsigned int i = 0; i < N; i++)
		if (h[i] != v)
			return 0;
	return 1;
}

static int all_f32(CUdeviceptr d, float v)
{
	return all_u32(d, bits(v));
}

static int host_f32(const float *h, float v)
{
	for (unsigned int i = 0; i < N; i++)
		if (h[i] != v)
			return 0;
	return 1;
}

/* Whether set holds exactly the n nodes of want, in any order. */
static int same_set(const CUgraphNode *set, size_t n, const CUgraphNode *want, size_t nw)
{
	if (n != nw)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int found = 0;

		for (size_t j = 0; j < nw; j++)
			found |= set[i] == want[j];
		if (!found)
			return 0;
	}
	return 1;
}

static void launch(CUgraphExec e, CUstream st)
{
	CK(cuGraphLaunch(e, st));
	CK(cuStreamSynchronize(st));
}

static const char *type_name(CUgraphNodeType t)
{
	switch (t) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return "kernel";
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return "memcpy";
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return "memset";
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return "graph";
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return "empty";
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return "wait_event";
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return "event_record";
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return "mem_alloc";
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return "mem_free";
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return "conditional";
	case CU_GRAPH_NODE_TYPE_HOST:
		return "host";
	default:
		return "other";
	}
}

/* How many nodes of each type a graph has, in the order of CUgraphNodeType. */
static void print_types(const char *what, CUgraph g)
{
	CUgraphNode nodes[32];
	size_t n = 32, count[CU_GRAPH_NODE_TYPE_CONDITIONAL + 1] = { 0 };
	int first = 1;

	CK(cuGraphGetNodes(g, nodes, &n));
	for (size_t i = 0; i < n; i++) {
		CUgraphNodeType t;

		CK(cuGraphNodeGetType(nodes[i], &t));
		if (t <= CU_GRAPH_NODE_TYPE_CONDITIONAL)
			count[t]++;
	}
	printf("%s: %zu nodes:", what, n);
	for (int t = 0; t <= CU_GRAPH_NODE_TYPE_CONDITIONAL; t++) {
		if (!count[t])
			continue;
		printf("%s %zu %s", first ? "" : ",", count[t], type_name((CUgraphNodeType)t));
		first = 0;
	}
	printf("\n");
}

/* ---- the parts ---- */

struct basic {
	CUgraph g;
	CUgraphExec e;
	CUgraphNode m1, m2, k, c1, c2, up, em, er;
	CUdeviceptr x, y, z, w;
	float *hz, *hin;
	CUevent ev;
};

/*
 * y = 3x + y with x = 1 and y = 2 filled by memsets; z = y; z copied to
 * host memory; host memory copied to w; an empty node and an event
 * record after the copies.
 */
static void basic(struct basic *b)
{
	CUgraphNode roots[8], deps[8], edges_from[8], edges_to[8], out[8];
	size_t n;

	CK(cuMemAlloc(&b->x, N * 4));
	CK(cuMemAlloc(&b->y, N * 4));
	CK(cuMemAlloc(&b->z, N * 4));
	CK(cuMemAlloc(&b->w, N * 4));
	CK(cuMemAllocHost((void **)&b->hz, N * 4));
	CK(cuMemAllocHost((void **)&b->hin, N * 4));
	for (unsigned int i = 0; i < N; i++)
		b->hin[i] = 0.5f;
	CK(cuEventCreate(&b->ev, CU_EVENT_DISABLE_TIMING));
	CK(cuGraphCreate(&b->g, 0));
	b->m1 = memset32(b->g, NULL, 0, b->x, bits(1.0f), N);
	b->m2 = memset32(b->g, NULL, 0, b->y, bits(2.0f), N);
	deps[0] = b->m1;
	deps[1] = b->m2;
	b->k = saxpy(b->g, deps, 2, 3.0f, b->x, b->y);
	b->c1 = copy(b->g, &b->k, 1, b->z, NULL, b->y, NULL, N * 4);
	b->c2 = copy(b->g, &b->c1, 1, 0, b->hz, b->z, NULL, N * 4);
	b->up = copy(b->g, NULL, 0, b->w, NULL, 0, b->hin, N * 4);
	b->em = empty(b->g, &b->c2, 1);
	CK(cuGraphAddEventRecordNode(&b->er, b->g, &b->em, 1, b->ev));

	print_types("basic graph", b->g);
	n = 8;
	CK(cuGraphGetRootNodes(b->g, roots, &n));
	deps[2] = b->up;
	printf("roots: %zu, the memsets and the upload: %s\n", n, yes(same_set(roots, n, deps, 3)));
	n = 0;
	CK(cuGraphGetEdges(b->g, NULL, NULL, NULL, &n));
	printf("edges: %zu\n", n);
	n = 8;
	CK(cuGraphGetEdges(b->g, edges_from, edges_to, NULL, &n));
	{
		int ok = n == 6;

		for (size_t i = 0; i < n; i++)
			ok &= (edges_to[i] == b->k && (edges_from[i] == b->m1 ||
						       edges_from[i] == b->m2)) ||
			      (edges_to[i] == b->c1 && edges_from[i] == b->k) ||
			      (edges_to[i] == b->c2 && edges_from[i] == b->c1) ||
			      (edges_to[i] == b->em && edges_from[i] == b->c2) ||
			      (edges_to[i] == b->er && edges_from[i] == b->em);
		printf("edges as built: %s\n", yes(ok));
	}
	n = 8;
	CK(cuGraphNodeGetDependencies(b->k, out, NULL, &n));
	printf("kernel depends on the memsets: %s\n", yes(same_set(out, n, deps, 2)));
	n = 8;
	CK(cuGraphNodeGetDependentNodes(b->k, out, NULL, &n));
	printf("kernel's dependents: %zu, the copy: %s\n", n, yes(n == 1 && out[0] == b->c1));
	n = 8;
	CK(cuGraphNodeGetDependencies(b->up, out, NULL, &n));
	printf("upload's dependencies: %zu\n", n);

	CK(cuGraphInstantiate(&b->e, b->g, 0));
	launch(b->e, s);
	printf("launch: y %s, to host %s, from host %s, event %s\n", yes(all_f32(b->y, 5.0f)),
	       yes(host_f32(b->hz, 5.0f)), yes(all_f32(b->w, 0.5f)),
	       err_name(cuEventQuery(b->ev)));
	for (unsigned int i = 0; i < N; i++)
		b->hin[i] = 0.25f;
	memset(b->hz, 0, N * 4);
	launch(b->e, s);
	printf("second launch: new host input %s, to host again %s\n", yes(all_f32(b->w, 0.25f)),
	       yes(host_f32(b->hz, 5.0f)));
}

/* The nodes' parameters, read back and changed in the graph and in the executable graph. */
static void params(struct basic *b)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_MEMCPY3D cp;
	CUgraphExec e2;
	cuuint64_t flags = 1;
	CUevent ev;
	int count = N;
	float a;
	void *args[4];
	CUdeviceptr x = b->x, y = b->y;

	CK(cuGraphKernelNodeGetParams(b->k, &kp));
	memcpy(&a, kp.kernelParams[0], sizeof(a));
	memcpy(&count, kp.kernelParams[3], sizeof(count));
	printf("kernel node: function %s, grid %u, block %u, a %g, n %d\n",
	       yes(kp.func == f_saxpy), kp.gridDimX, kp.blockDimX, a, count);
	CK(cuGraphMemsetNodeGetParams(b->m1, &mp));
	printf("memset node: value of 1.0 %s, element size %u, width %zu, height %zu\n",
	       yes(mp.value == bits(1.0f)), mp.elementSize, mp.width, mp.height);
	CK(cuGraphMemcpyNodeGetParams(b->c2, &cp));
	/* Whether the driver keeps the memory types as given or as unified addresses. */
	printf("memcpy node: to the host buffer %s, from z %s, width %zu\n",
	       yes(cp.dstHost == b->hz || cp.dstDevice == (CUdeviceptr)(uintptr_t)b->hz),
	       yes(cp.srcDevice == b->z), cp.WidthInBytes);
	CK(cuGraphEventRecordNodeGetEvent(b->er, &ev));
	printf("event record node: its event %s\n", yes(ev == b->ev));

	/* The graph's node changes; the executable graph made from it does not. */
	a = 4.0f;
	args[0] = &a;
	args[1] = &x;
	args[2] = &y;
	args[3] = &count;
	saxpy_params(&kp, args);
	CK(cuGraphKernelNodeSetParams(b->k, &kp));
	launch(b->e, s);
	printf("executable graph keeps its parameters: %s\n", yes(all_f32(b->y, 5.0f)));
	a = 10.0f;
	CK(cuGraphExecKernelNodeSetParams(b->e, b->k, &kp));
	launch(b->e, s);
	printf("executable graph's kernel changed: %s\n", yes(all_f32(b->y, 12.0f)));
	mp.dst = b->y;
	mp.value = bits(3.0f);
	CK(cuGraphExecMemsetNodeSetParams(b->e, b->m2, &mp, ctx));
	launch(b->e, s);
	printf("executable graph's memset changed: %s\n", yes(all_f32(b->y, 13.0f)));
	CK(cuGraphKernelNodeGetParams(b->k, &kp));
	memcpy(&a, kp.kernelParams[0], sizeof(a));
	printf("graph's kernel node reads back a %g\n", a);
	CK(cuGraphInstantiate(&e2, b->g, 0));
	launch(e2, s);
	printf("a new executable graph has the graph's parameters: %s\n",
	       yes(all_f32(b->y, 6.0f)));
	CK(cuGraphExecGetFlags(e2, &flags));
	printf("executable graph's flags: %llu\n", (unsigned long long)flags);
	CK(cuGraphExecDestroy(e2));
}

/* A clone, and updates of the executable graph from it and from another shape. */
static void clone_update(struct basic *b)
{
	CUgraphExecUpdateResultInfo info;
	CUDA_KERNEL_NODE_PARAMS kp;
	CUgraphNode kc, nodes[16];
	CUgraphNodeType t;
	CUgraph cl, other;
	size_t n = 16;
	float a = 7.0f;
	int count = N, found = 1;
	CUdeviceptr x = b->x, y = b->y;
	void *args[] = { &a, &x, &y, &count };
	CUresult r;

	CK(cuGraphClone(&cl, b->g));
	CK(cuGraphGetNodes(cl, nodes, &n));
	printf("clone: %zu nodes\n", n);
	CK(cuGraphNodeFindInClone(&kc, b->k, cl));
	CK(cuGraphNodeGetType(kc, &t));
	printf("the kernel's copy: %s, not the original: %s\n", type_name(t), yes(kc != b->k));
	{
		CUgraphNode orig[] = { b->m1, b->m2, b->k, b->c1, b->c2, b->up, b->em, b->er };

		for (size_t i = 0; i < sizeof(orig) / sizeof(orig[0]); i++) {
			CUgraphNode c;

			found &= cuGraphNodeFindInClone(&c, orig[i], cl) == CUDA_SUCCESS;
		}
	}
	printf("every node found in the clone: %s\n", yes(found));
	saxpy_params(&kp, args);
	CK(cuGraphKernelNodeSetParams(kc, &kp));
	r = cuGraphExecUpdate(b->e, cl, &info);
	printf("update from the clone: %s, result %d\n", err_name(r), (int)info.result);
	launch(b->e, s);
	printf("updated executable graph runs the clone's parameters: %s\n",
	       yes(all_f32(b->y, 9.0f)));

	CK(cuGraphCreate(&other, 0));
	empty(other, NULL, 0);
	memset(&info, 0, sizeof(info));
	r = cuGraphExecUpdate(b->e, other, &info);
	printf("update from another shape: %s, topology changed %s, no node %s\n", err_name(r),
	       yes(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED),
	       yes(!info.errorNode));
	launch(b->e, s);
	printf("still runs as before: %s\n", yes(all_f32(b->y, 9.0f)));
	CK(cuGraphDestroy(other));
	CK(cuGraphDestroy(cl));
}

/* A child graph is copied into its node: destroying it changes nothing. */
static void child(void)
{
	CUgraph c, p;
	CUgraphNode cn, k, cp;
	CUgraphNodeType t;
	CUgraphExec e;
	CUdeviceptr a, out;

	CK(cuMemAlloc(&a, N * 4));
	CK(cuMemAlloc(&out, N * 4));
	CK(cuGraphCreate(&c, 0));
	k = fill(c, NULL, 0, a, 0xabcu);
	(void)k;
	CK(cuGraphCreate(&p, 0));
	CK(cuGraphAddChildGraphNode(&cn, p, NULL, 0, c));
	cp = copy(p, &cn, 1, out, NULL, a, NULL, N * 4);
	(void)cp;
	CK(cuGraphDestroy(c));
	CK(cuGraphNodeGetType(cn, &t));
	print_types("parent graph", p);
	CK(cuGraphInstantiate(&e, p, 0));
	launch(e, s);
	printf("child graph node: %s, ran: %s\n", type_name(t), yes(all_u32(out, 0xabcu)));
	CK(cuGraphExecDestroy(e));
	CK(cuGraphDestroy(p));
	CK(cuMemFree(a));
	CK(cuMemFree(out));
}

/* One graph records an event on one stream, another waits for it on another. */
static void events(void)
{
	CUgraph gr, gw;
	CUgraphExec er, ew;
	CUgraphNode f, rec, wait, cp;
	CUevent ev, got;
	CUdeviceptr a, out;

	CK(cuMemAlloc(&a, N * 4));
	CK(cuMemAlloc(&out, N * 4));
	CK(cuMemsetD32(out, 0, N));
	CK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	CK(cuGraphCreate(&gr, 0));
	f = fill(gr, NULL, 0, a, 0x5eedu);
	CK(cuGraphAddEventRecordNode(&rec, gr, &f, 1, ev));
	CK(cuGraphCreate(&gw, 0));
	CK(cuGraphAddEventWaitNode(&wait, gw, NULL, 0, ev));
	cp = copy(gw, &wait, 1, out, NULL, a, NULL, N * 4);
	(void)cp;
	CK(cuGraphEventWaitNodeGetEvent(wait, &got));
	printf("event wait node: its event %s\n", yes(got == ev));
	CK(cuGraphInstantiate(&er, gr, 0));
	CK(cuGraphInstantiate(&ew, gw, 0));
	CK(cuGraphLaunch(er, s));
	CK(cuGraphLaunch(ew, s2));
	CK(cuStreamSynchronize(s2));
	CK(cuStreamSynchronize(s));
	printf("wait node saw the recorded work: %s, event %s\n", yes(all_u32(out, 0x5eedu)),
	       err_name(cuEventQuery(ev)));
	CK(cuGraphExecDestroy(er));
	CK(cuGraphExecDestroy(ew));
	CK(cuGraphDestroy(gr));
	CK(cuGraphDestroy(gw));
	CK(cuEventDestroy(ev));
	CK(cuMemFree(a));
	CK(cuMemFree(out));
}

/* Memory a graph allocates, fills, copies out and frees, at every launch. */
static void memory(void)
{
	CUDA_MEM_ALLOC_NODE_PARAMS ap, got;
	CUgraphNode an, ms, cp, fr;
	CUdeviceptr out, freed = 0;
	CUgraphExec e;
	CUgraph g;

	CK(cuMemAlloc(&out, N * 4));
	memset(&ap, 0, sizeof(ap));
	ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	ap.poolProps.location.id = 0;
	ap.bytesize = N * 4;
	CK(cuGraphCreate(&g, 0));
	CK(cuGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
	printf("allocation node: an address %s\n", yes(ap.dptr != 0));
	ms = memset32(g, &an, 1, ap.dptr, 0x11u, N);
	cp = copy(g, &ms, 1, out, NULL, ap.dptr, NULL, N * 4);
	CK(cuGraphAddMemFreeNode(&fr, g, &cp, 1, ap.dptr));
	CK(cuGraphMemAllocNodeGetParams(an, &got));
	CK(cuGraphMemFreeNodeGetParams(fr, &freed));
	printf("allocation node: %zu bytes, the same address %s; free node frees it %s\n",
	       got.bytesize, yes(got.dptr == ap.dptr), yes(freed == ap.dptr));
	print_types("memory graph", g);
	printf("destroying a node of a graph with memory nodes fails: %s\n",
	       yes(cuGraphDestroyNode(ms) != CUDA_SUCCESS));
	CK(cuGraphInstantiate(&e, g, 0));
	CK(cuMemsetD32(out, 0, N));
	launch(e, s);
	printf("first launch: %s\n", yes(all_u32(out, 0x11u)));
	CK(cuMemsetD32(out, 0, N));
	launch(e, s);
	printf("second launch: %s\n", yes(all_u32(out, 0x11u)));
	CK(cuGraphExecDestroy(e));
	CK(cuGraphDestroy(g));
	CK(cuMemFree(out));
}

/* A kernel node that sets handle h to v. */
static CUgraphNode cond_set(CUgraph g, const CUgraphNode *deps, size_t n,
			    CUgraphConditionalHandle h, unsigned int v)
{
	void *args[] = { &h, &v };
	CUDA_KERNEL_NODE_PARAMS k = { .func = f_cond_set, .gridDimX = 1, .gridDimY = 1,
				      .gridDimZ = 1, .blockDimX = 32, .blockDimY = 1,
				      .blockDimZ = 1, .kernelParams = args };
	CUgraphNode node;

	CK(cuGraphAddKernelNode(&node, g, deps, n, &k));
	return node;
}

static CUgraphNode conditional(CUgraph g, const CUgraphNode *deps, size_t n,
			       CUgraphConditionalHandle h, CUgraphConditionalNodeType type,
			       unsigned int size, CUgraph *bodies)
{
	CUgraphNodeParams p;
	CUgraphNode node;

	memset(&p, 0, sizeof(p));
	p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	p.conditional.handle = h;
	p.conditional.type = type;
	p.conditional.size = size;
	p.conditional.ctx = ctx;
	CK(cuGraphAddNode(&node, g, deps, NULL, n, &p));
	for (unsigned int i = 0; i < size; i++)
		bodies[i] = p.conditional.phGraph_out[i];
	return node;
}

/* If and if/else nodes whose condition a kernel sets; a while node that counts. */
static void conditionals(void)
{
	CUgraph gi, body[2], gw, wbody;
	CUgraphExec ei, ew;
	CUgraphConditionalHandle hi, hw;
	CUgraphNode ks, cn, m0, wn;
	CUgraphNodeType t;
	CUdeviceptr buf, counter;
	CUDA_KERNEL_NODE_PARAMS kp;
	unsigned int zero = 0, limit = 5, got;
	size_t n;
	void *args[2];

	CK(cuMemAlloc(&buf, N * 4));
	CK(cuMemAlloc(&counter, 4));

	CK(cuGraphCreate(&gi, 0));
	CK(cuGraphConditionalHandleCreate(&hi, gi, ctx, 0, CU_GRAPH_COND_ASSIGN_DEFAULT));
	ks = cond_set(gi, NULL, 0, hi, 1);
	cn = conditional(gi, &ks, 1, hi, CU_GRAPH_COND_TYPE_IF, 2, body);
	memset32(body[0], NULL, 0, buf, 7, N);
	memset32(body[1], NULL, 0, buf, 9, N);
	CK(cuGraphNodeGetType(cn, &t));
	n = 0;
	CK(cuGraphGetNodes(body[0], NULL, &n));
	printf("if/else node: %s, a node in its first body: %zu\n", type_name(t), n);
	print_types("if graph", gi);
	CK(cuGraphInstantiate(&ei, gi, 0));
	CK(cuMemsetD32(buf, 0, N));
	launch(ei, s);
	printf("condition set: the first body ran %s\n", yes(all_u32(buf, 7)));
	CK(cuGraphKernelNodeGetParams(ks, &kp));
	args[0] = &hi;
	args[1] = &zero;
	kp.kernelParams = args;
	CK(cuGraphExecKernelNodeSetParams(ei, ks, &kp));
	CK(cuMemsetD32(buf, 0, N));
	launch(ei, s);
	printf("condition clear: the else body ran %s\n", yes(all_u32(buf, 9)));
	CK(cuGraphExecDestroy(ei));
	CK(cuGraphDestroy(gi));

	CK(cuGraphCreate(&gw, 0));
	CK(cuGraphConditionalHandleCreate(&hw, gw, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
	m0 = memset32(gw, NULL, 0, counter, 0, 1);
	wn = conditional(gw, &m0, 1, hw, CU_GRAPH_COND_TYPE_WHILE, 1, &wbody);
	(void)wn;
	{
		CUdeviceptr c = counter;
		void *wargs[] = { &hw, &c, &limit };
		CUDA_KERNEL_NODE_PARAMS k = { .func = f_cond_count, .gridDimX = 1,
					      .gridDimY = 1, .gridDimZ = 1, .blockDimX = 32,
					      .blockDimY = 1, .blockDimZ = 1,
					      .kernelParams = wargs };
		CUgraphNode kn;

		CK(cuGraphAddKernelNode(&kn, wbody, NULL, 0, &k));
	}
	CK(cuGraphInstantiate(&ew, gw, 0));
	launch(ew, s);
	CK(cuMemcpyDtoH(&got, counter, 4));
	printf("while node: the body ran %u times\n", got);
	launch(ew, s);
	CK(cuMemcpyDtoH(&got, counter, 4));
	printf("while node, launched again: %u times\n", got);
	CK(cuGraphExecDestroy(ew));
	CK(cuGraphDestroy(gw));
	CK(cuMemFree(buf));
	CK(cuMemFree(counter));
}

/* Edges added and removed, nodes destroyed, what the driver refuses. */
static void edits(void)
{
	CUDA_MEMSET_NODE_PARAMS bad = { .value = 0, .elementSize = 3, .width = 4, .height = 1 };
	CUDA_KERNEL_NODE_PARAMS kp;
	CUgraphNode a, b, c, other, from[2], to[2], dummy;
	CUgraph g, g2;
	CUdeviceptr d;
	size_t n;

	CK(cuMemAlloc(&d, 64));
	bad.dst = d;
	CK(cuGraphCreate(&g, 0));
	CK(cuGraphCreate(&g2, 0));
	a = empty(g, NULL, 0);
	b = empty(g, NULL, 0);
	c = empty(g, NULL, 0);
	other = empty(g2, NULL, 0);
	from[0] = a;
	to[0] = b;
	from[1] = b;
	to[1] = c;
	CK(cuGraphAddDependencies(g, from, to, NULL, 2));
	n = 0;
	CK(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
	printf("edges added: %zu\n", n);
	printf("the same edge again: %s\n", err_name(cuGraphAddDependencies(g, from, to, NULL, 1)));
	printf("an edge to another graph's node: %s\n",
	       err_name(cuGraphAddDependencies(g, &a, &other, NULL, 1)));
	CK(cuGraphRemoveDependencies(g, &from[1], &to[1], NULL, 1));
	n = 0;
	CK(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
	printf("edges after one removed: %zu\n", n);
	printf("removing it again: %s\n",
	       err_name(cuGraphRemoveDependencies(g, &from[1], &to[1], NULL, 1)));
	CK(cuGraphDestroyNode(b));
	n = 0;
	CK(cuGraphGetNodes(g, NULL, &n));
	printf("after a node destroyed: %zu nodes,", n);
	n = 0;
	CK(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
	printf(" %zu edges\n", n);
	n = 0;
	CK(cuGraphNodeGetDependentNodes(a, NULL, NULL, &n));
	printf("its dependency has %zu dependents\n", n);
	printf("a dependency from another graph: %s\n",
	       err_name(cuGraphAddEmptyNode(&dummy, g, &other, 1)));
	printf("the same dependency twice: %s\n",
	       err_name(cuGraphAddEmptyNode(&dummy, g, (CUgraphNode[]){ a, a }, 2)));
	printf("kernel parameters of an empty node: %s\n",
	       err_name(cuGraphKernelNodeGetParams(a, &kp)));
	printf("a memset of 3-byte elements: %s\n",
	       err_name(cuGraphAddMemsetNode(&dummy, g, NULL, 0, &bad, ctx)));
	CK(cuGraphDestroy(g));
	CK(cuGraphDestroy(g2));
	CK(cuMemFree(d));
}

/* A node disabled in an executable graph is skipped until enabled again. */
static void enable(void)
{
	CUgraphNode m, cp;
	CUgraphExec e;
	CUdeviceptr a, out;
	unsigned int on = 2;
	CUgraph g;

	CK(cuMemAlloc(&a, N * 4));
	CK(cuMemAlloc(&out, N * 4));
	CK(cuGraphCreate(&g, 0));
	m = memset32(g, NULL, 0, a, 5, N);
	cp = copy(g, &m, 1, out, NULL, a, NULL, N * 4);
	(void)cp;
	CK(cuGraphInstantiate(&e, g, 0));
	CK(cuMemsetD32(a, 0, N));
	CK(cuGraphNodeSetEnabled(e, m, 0));
	CK(cuGraphNodeGetEnabled(e, m, &on));
	launch(e, s);
	printf("memset disabled (enabled %u): skipped %s\n", on, yes(all_u32(out, 0)));
	CK(cuGraphNodeSetEnabled(e, m, 1));
	CK(cuGraphNodeGetEnabled(e, m, &on));
	launch(e, s);
	printf("enabled again (enabled %u): ran %s\n", on, yes(all_u32(out, 5)));
	CK(cuGraphExecDestroy(e));
	CK(cuGraphDestroy(g));
	CK(cuMemFree(a));
	CK(cuMemFree(out));
}

/*
 * Host nodes: functions of this process that each launch calls where the
 * graph has them, each after the ones it depends on.  They note their
 * data; the program reads the notes after the launch's stream has
 * finished, as the driver has run them all by then.
 */
static int notes[32];
static unsigned int nnotes;

static void CUDA_CB note(void *data)
{
	if (nnotes < sizeof(notes) / sizeof(notes[0]))
		notes[nnotes++] = (int)(intptr_t)data;
}

static void print_notes(const char *what)
{
	printf("%s:", what);
	for (unsigned int i = 0; i < nnotes; i++)
		printf(" %d", notes[i]);
	printf("\n");
	nnotes = 0;
}

static CUgraphNode host(CUgraph g, const CUgraphNode *deps, size_t n, int tag)
{
	CUDA_HOST_NODE_PARAMS p = { note, (void *)(intptr_t)tag };
	CUgraphNode node;

	CK(cuGraphAddHostNode(&node, g, deps, n, &p));
	return node;
}

static void hosts(void)
{
	CUDA_HOST_NODE_PARAMS hp;
	CUgraphExecUpdateResultInfo info;
	CUgraphNodeParams np;
	CUgraphNode h1, h3, h6, k, cn, dep[2];
	CUgraphExec e, e2;
	CUgraph c, g, cl;
	CUdeviceptr a;
	CUresult r;

	CK(cuMemAlloc(&a, N * 4));
	CK(cuGraphCreate(&c, 0));
	host(c, NULL, 0, 2);
	CK(cuGraphCreate(&g, 0));
	h1 = host(g, NULL, 0, 1);
	k = fill(g, &h1, 1, a, 0x55u);
	CK(cuGraphAddChildGraphNode(&cn, g, &k, 1, c));
	CK(cuGraphDestroy(c));
	h3 = host(g, &cn, 1, 3);
	memset(&np, 0, sizeof(np));
	np.type = CU_GRAPH_NODE_TYPE_HOST;
	np.host.fn = note;
	np.host.userData = (void *)(intptr_t)6;
	dep[0] = h3;
	CK(cuGraphAddNode(&h6, g, dep, NULL, 1, &np));
	print_types("host graph", g);
	CK(cuGraphInstantiate(&e, g, 0));
	launch(e, s);
	launch(e, s);
	print_notes("host nodes, two launches");
	printf("the kernel between them ran: %s\n", yes(all_u32(a, 0x55u)));

	memset(&hp, 0, sizeof(hp));
	CK(cuGraphHostNodeGetParams(h3, &hp));
	printf("host node: its function %s, its data %d\n", yes(hp.fn == note),
	       (int)(intptr_t)hp.userData);
	hp.userData = (void *)(intptr_t)4;
	CK(cuGraphHostNodeSetParams(h3, &hp));
	launch(e, s);
	print_notes("graph's node changed, executable graph as it was");
	hp.userData = (void *)(intptr_t)5;
	CK(cuGraphExecHostNodeSetParams(e, h1, &hp));
	launch(e, s);
	print_notes("executable graph's first node changed");
	CK(cuGraphInstantiate(&e2, g, 0));
	launch(e2, s);
	print_notes("a new executable graph");
	memset(&info, 0, sizeof(info));
	r = cuGraphExecUpdate(e, g, &info);
	printf("update from the graph: %s, result %d\n", err_name(r), (int)info.result);
	launch(e, s);
	print_notes("updated");

	CK(cuGraphClone(&cl, g));
	CK(cuGraphNodeFindInClone(&dep[1], h6, cl));
	np.host.userData = (void *)(intptr_t)7;
	CK(cuGraphNodeSetParams(dep[1], &np));
	CK(cuGraphExecDestroy(e2));
	CK(cuGraphInstantiate(&e2, cl, 0));
	launch(e2, s);
	print_notes("clone, its last node changed");
	CK(cuGraphExecDestroy(e2));
	CK(cuGraphExecDestroy(e));
	CK(cuGraphDestroy(cl));
	CK(cuGraphDestroy(g));
	CK(cuMemFree(a));
}

/* cuGraphAddNode and cuGraphNodeSetParams with the generic description. */
static void generic(void)
{
	CUgraphNodeParams p;
	CUgraphNode m, k;
	CUgraphExec e;
	CUdeviceptr a;
	size_t count = N;
	unsigned int v = 0x77u;
	void *args[] = { &a, &v, &count };
	CUgraph g;

	CK(cuMemAlloc(&a, N * 4));
	CK(cuGraphCreate(&g, 0));
	memset(&p, 0, sizeof(p));
	p.type = CU_GRAPH_NODE_TYPE_MEMSET;
	p.memset.dst = a;
	p.memset.value = 1;
	p.memset.elementSize = 4;
	p.memset.width = N;
	p.memset.height = 1;
	p.memset.ctx = ctx;
	CK(cuGraphAddNode(&m, g, NULL, NULL, 0, &p));
	memset(&p, 0, sizeof(p));
	p.type = CU_GRAPH_NODE_TYPE_KERNEL;
	p.kernel.func = f_fill;
	p.kernel.gridDimX = 8;
	p.kernel.gridDimY = p.kernel.gridDimZ = 1;
	p.kernel.blockDimX = 128;
	p.kernel.blockDimY = p.kernel.blockDimZ = 1;
	p.kernel.kernelParams = args;
	CK(cuGraphAddNode(&k, g, &m, NULL, 1, &p));
	CK(cuGraphInstantiate(&e, g, 0));
	launch(e, s);
	printf("generic nodes: the kernel after the memset %s\n", yes(all_u32(a, 0x77u)));
	v = 0x78u;
	CK(cuGraphNodeSetParams(k, &p));
	CK(cuGraphExecDestroy(e));
	CK(cuGraphInstantiate(&e, g, 0));
	launch(e, s);
	printf("generic parameters changed: %s\n", yes(all_u32(a, 0x78u)));
	CK(cuGraphExecDestroy(e));
	CK(cuGraphDestroy(g));
	CK(cuMemFree(a));
}

int main(void)
{
	struct basic b;
	CUmodule mod_misc, mod_gn;
	CUdevice dev;

	CK(primary_ctx(&dev, &ctx));
	mod_misc = load_module("misc.ptx");
	mod_gn = load_module("gnodes.ptx");
	CK(cuModuleGetFunction(&f_saxpy, mod_misc, "saxpy"));
	CK(cuModuleGetFunction(&f_fill, mod_misc, "fill_u32"));
	CK(cuModuleGetFunction(&f_cond_count, mod_gn, "cond_count"));
	CK(cuModuleGetFunction(&f_cond_set, mod_gn, "cond_set"));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));

	memset(&b, 0, sizeof(b));
	basic(&b);
	params(&b);
	clone_update(&b);
	child();
	events();
	memory();
	conditionals();
	edits();
	enable();
	generic();
	hosts();

	CK(cuGraphExecDestroy(b.e));
	CK(cuGraphDestroy(b.g));
	CK(cuEventDestroy(b.ev));
	CK(cuMemFree(b.x));
	CK(cuMemFree(b.y));
	CK(cuMemFree(b.z));
	CK(cuMemFree(b.w));
	CK(cuMemFreeHost(b.hz));
	CK(cuMemFreeHost(b.hin));
	CK(cuStreamDestroy(s));
	CK(cuStreamDestroy(s2));
	CK(cuModuleUnload(mod_misc));
	CK(cuModuleUnload(mod_gn));
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("done\n");
	return 0;
}
