// SPDX-License-Identifier: MIT
/*
 * bigcopy [bytes]: one host-to-device and one device-to-host copy of the
 * given size (default 4 GiB + 4 KiB, past every 32-bit length), checked
 * word by word.  Through Gleam the copies stream through a ring of a few
 * MiB in pieces.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : (4ull << 30) + 4096;
	size_t words = n / 8;
	CUdeviceptr d;
	CUcontext ctx;
	CUdevice dev;
	uint64_t *h;

	h = malloc(n);
	if (!h)
		die("cannot allocate %zu bytes of host memory", n);
	for (size_t i = 0; i < words; i++)
		h[i] = i * 0x9e3779b97f4a7c15ull;
	CK(primary_ctx(&dev, &ctx));
	CK(cuMemAlloc(&d, n));
	CK(cuMemcpyHtoD(d, h, n));
	memset(h, 0, n);
	CK(cuMemcpyDtoH(h, d, n));
	for (size_t i = 0; i < words; i++)
		if (h[i] != i * 0x9e3779b97f4a7c15ull)
			die("word %zu differs after the round trip", i);
	CK(cuMemFree(d));
	CK(cuDevicePrimaryCtxRelease(dev));
	free(h);
	printf("bigcopy %zu bytes: ok\n", n);
	return 0;
}
