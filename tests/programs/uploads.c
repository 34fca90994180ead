// SPDX-License-Identifier: MIT
/*
 * uploads: tensors uploaded the way PyTorch's model.to("cuda") does it, a
 * copy to the device and a synchronisation each, with the host buffer
 * reused at once; then the data read back whole.  After a kernel the next
 * synchronisation must still report what the kernel did.  Through Gleam the
 * synchronisations after uploads have nothing to wait for
 * (Documentation/design.md); the integration test counts the round trips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define TENSORS		64
#define WORDS		(1u << 20)	/* 4 MiB in all */

int main(void)
{
	unsigned int *h = malloc(WORDS * 4), *back = malloc(WORDS * 4);
	unsigned long long n = WORDS;
	unsigned int value = 0x5a5a5a5a;
	void *args[] = { NULL, &value, &n };
	CUdeviceptr d;
	CUfunction fill;
	CUcontext ctx;
	CUstream s;
	CUdevice dev;
	size_t off = 0;

	if (!h || !back)
		die("no memory");
	CK(primary_ctx(&dev, &ctx));
	load_function("misc.ptx", "fill_u32", &fill);
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAlloc(&d, WORDS * 4));
	args[0] = &d;

	/* A kernel first: its synchronisation is one that must wait. */
	CK(cuLaunchKernel(fill, 64, 1, 1, 256, 1, 1, 0, s, args, NULL));
	CK(cuStreamSynchronize(s));

	/* Tensors of varied sizes, each from one buffer that is then reused. */
	for (unsigned int t = 0; t < TENSORS; t++) {
		size_t words = t == TENSORS - 1 ? WORDS - off / 4 : (WORDS / TENSORS) / 2 + t * 97;

		for (size_t i = 0; i < words; i++)
			h[i] = (unsigned int)(off / 4 + i) * 2654435761u;
		CK(cuMemcpyHtoDAsync(d + off, h, words * 4, s));
		CK(cuStreamSynchronize(s));
		memset(h, 0xee, words * 4);
		off += words * 4;
	}
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(back, d, WORDS * 4));
	for (size_t i = 0; i < WORDS; i++)
		if (back[i] != (unsigned int)i * 2654435761u)
			die("word %zu is %#x, expected %#x", i, back[i], (unsigned int)i * 2654435761u);
	printf("uploads: %u tensors, each synchronised, read back whole\n", TENSORS);

	/* A kernel after the uploads: the data it writes is there after the next wait. */
	value = 7;
	CK(cuLaunchKernel(fill, 64, 1, 1, 256, 1, 1, 0, s, args, NULL));
	CK(cuStreamSynchronize(s));
	CK(cuMemcpyDtoH(back, d, 4));
	if (back[0] != 7)
		die("after the kernel, word 0 is %#x", back[0]);
	printf("a kernel after them: ok\n");
	CK(cuMemFree(d));
	CK(cuStreamDestroy(s));
	printf("uploads: PASS\n");
	return 0;
}
