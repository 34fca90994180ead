// SPDX-License-Identifier: MIT
/*
 * jitlink: JIT linking of two PTX inputs compiled as relocatable device
 * code (tests/kernels/rdc/): a kernel in one that calls a function the
 * other defines.  One input is given as data, the other as a file; the
 * linked image is loaded and its kernel run.  The logs and wall time
 * asked for at creation are answered; a link missing its second input
 * fails, with an error log; an input that is not PTX is refused.  The
 * logs' text is the driver's own: only whether there is any is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define N	1000

static const char *yes(int b)
{
	return b ? "yes" : "no";
}

struct logs {
	char info[4096], err[4096];
	float wall;
	CUjit_option opt[5];
	void *val[5];
};

/* A link state that keeps its logs and wall time in l. */
static CUresult link_create(struct logs *l, CUlinkState *st)
{
	memset(l, 0, sizeof(*l));
	l->opt[0] = CU_JIT_INFO_LOG_BUFFER;
	l->val[0] = l->info;
	l->opt[1] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
	l->val[1] = (void *)(uintptr_t)sizeof(l->info);
	l->opt[2] = CU_JIT_ERROR_LOG_BUFFER;
	l->val[2] = l->err;
	l->opt[3] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
	l->val[3] = (void *)(uintptr_t)sizeof(l->err);
	l->opt[4] = CU_JIT_WALL_TIME;
	l->val[4] = NULL;
	return cuLinkCreate(5, l->opt, l->val, st);
}

int main(void)
{
	static float h[N];
	char *ptx_a;
	size_t len_a, size;
	CUlinkState st;
	CUmodule mod;
	CUfunction f;
	CUdeviceptr v;
	CUcontext ctx;
	CUdevice dev;
	struct logs l;
	void *cubin;
	int n = N, ok = 1;
	void *args[] = { &v, &n };
	static const char not_ptx[] = "this is not PTX";
	CUresult r;

	CK(primary_ctx(&dev, &ctx));
	ptx_a = read_file(kernel_path("rdc_link_a.ptx"), &len_a);

	CK(link_create(&l, &st));
	CK(cuLinkAddData(st, CU_JIT_INPUT_PTX, ptx_a, len_a + 1, "link_a", 0, NULL, NULL));
	CK(cuLinkAddFile(st, CU_JIT_INPUT_PTX, kernel_path("rdc_link_b.ptx"), 0, NULL, NULL));
	CK(cuLinkComplete(st, &cubin, &size));
	memcpy(&l.wall, &l.val[4], sizeof(l.wall));
	printf("linked: an image %s, a wall time %s\n", yes(cubin && size > 0),
	       yes(l.wall >= 0.0f));
	CK(cuModuleLoadData(&mod, cubin));
	CK(cuLinkDestroy(st));
	CK(cuModuleGetFunction(&f, mod, "link_apply"));
	for (int i = 0; i < N; i++)
		h[i] = (float)i - 10.5f;
	CK(cuMemAlloc(&v, sizeof(h)));
	CK(cuMemcpyHtoD(v, h, sizeof(h)));
	CK(cuLaunchKernel(f, blocks_for(N, 128), 1, 1, 128, 1, 1, 0, NULL, args, NULL));
	CK(cuMemcpyDtoH(h, v, sizeof(h)));
	for (int i = 0; i < N; i++)
		ok &= h[i] == ((float)i - 10.5f) * 2.0f + 1.0f;
	printf("the linked kernel calls the other input's function: %s\n", yes(ok));
	CK(cuModuleUnload(mod));
	CK(cuMemFree(v));

	/* Without the function's definition the link cannot complete. */
	CK(link_create(&l, &st));
	CK(cuLinkAddData(st, CU_JIT_INPUT_PTX, ptx_a, len_a + 1, "link_a", 0, NULL, NULL));
	r = cuLinkComplete(st, &cubin, &size);
	printf("a link missing an input fails: %s, with an error log: %s\n", yes(r != CUDA_SUCCESS),
	       yes(l.err[0] != 0));
	CK(cuLinkDestroy(st));

	CK(link_create(&l, &st));
	r = cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)not_ptx, sizeof(not_ptx), "bad", 0, NULL,
			  NULL);
	printf("an input that is not PTX is refused: %s\n", yes(r != CUDA_SUCCESS));
	CK(cuLinkDestroy(st));
	free(ptx_a);
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("done\n");
	return 0;
}
