// SPDX-License-Identifier: MIT
/*
 * matmul [n ...]: tiled matrix multiply (matmul_tiled, 16x16 blocks) for
 * each n (default 512 and 300, which is not a multiple of 16), checked
 * against a host reference within a relative 1e-3, then again with a grid
 * that covers only the left half of the columns, which must leave the rest
 * of C untouched.  The inputs are small multiples of 1/8 and 1/4, so every
 * product and sum is exact in float and the checksum is the same on any
 * correct implementation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define TILE 16

static const uint32_t poison = 0xffffffffu;	/* a NaN */

/* Checks the columns [0, cols) of C against ref and the rest for poison. */
static double check(const char *label, int n, const float *c,
		    const double *ref, int cols)
{
	double sum = 0;
	size_t i, nn = (size_t)n * n;

	for (i = 0; i < nn; i++) {
		uint32_t bits;

		if ((int)(i % n) < cols) {
			double d = fabs(c[i] - ref[i]);

			if (!(d <= 1e-3 * fmax(fabs(ref[i]), 1.0)))
				die("%s: C[%zu][%zu] = %g, expected %g", label,
				    i / n, i % n, c[i], ref[i]);
			sum += c[i];
			continue;
		}
		memcpy(&bits, &c[i], sizeof(bits));
		if (bits != poison)
			die("%s: C[%zu][%zu] written outside the grid", label,
			    i / n, i % n);
	}
	return sum;
}

static void matmul(CUfunction f, int n)
{
	size_t nn = (size_t)n * n, bytes = nn * sizeof(float);
	unsigned int g = (n + TILE - 1) / TILE;
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	double *ref = malloc(nn * sizeof(double));
	CUdeviceptr d_a, d_b, d_c;
	void *args[] = { &d_a, &d_b, &d_c, &n };
	char label[64];
	double sum;
	size_t i;
	int r, k, col;

	if (!a || !b || !c || !ref)
		die("out of memory");
	for (i = 0; i < nn; i++) {
		a[i] = (float)((int)((i * 7 + 3) % 17) - 8) * 0.125f;
		b[i] = (float)((int)((i * 5 + 1) % 13) - 6) * 0.25f;
	}
	for (r = 0; r < n; r++) {
		for (col = 0; col < n; col++)
			ref[(size_t)r * n + col] = 0;
		for (k = 0; k < n; k++) {
			double av = a[(size_t)r * n + k];

			for (col = 0; col < n; col++)
				ref[(size_t)r * n + col] +=
					av * b[(size_t)k * n + col];
		}
	}

	CK(cuMemAlloc(&d_a, bytes));
	CK(cuMemAlloc(&d_b, bytes));
	CK(cuMemAlloc(&d_c, bytes));
	CK(cuMemcpyHtoD(d_a, a, bytes));
	CK(cuMemcpyHtoD(d_b, b, bytes));

	CK(cuMemsetD32(d_c, poison, nn));
	CK(cuLaunchKernel(f, g, g, 1, TILE, TILE, 1, 0, NULL, args, NULL));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(c, d_c, bytes));
	snprintf(label, sizeof(label), "matmul n=%d", n);
	sum = check(label, n, c, ref, n);
	printf("%s: ok checksum %.6e\n", label, sum);

	if (g >= 2) {
		int cols = (int)(g / 2) * TILE;

		CK(cuMemsetD32(d_c, poison, nn));
		CK(cuLaunchKernel(f, g / 2, g, 1, TILE, TILE, 1, 0, NULL, args,
				  NULL));
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(c, d_c, bytes));
		snprintf(label, sizeof(label), "matmul n=%d half grid", n);
		sum = check(label, n, c, ref, cols < n ? cols : n);
		printf("%s: ok checksum %.6e\n", label, sum);
	}

	CK(cuMemFree(d_a));
	CK(cuMemFree(d_b));
	CK(cuMemFree(d_c));
	free(a);
	free(b);
	free(c);
	free(ref);
}

int main(int argc, char **argv)
{
	static const int def[] = { 512, 300 };
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdevice dev;
	int i;

	CK(primary_ctx(&dev, &ctx));
	mod = load_function("matmul.ptx", "matmul_tiled", &f);

	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			int n = atoi(argv[i]);

			if (n < 1 || n > 8192)
				die("bad size %s (1..8192)", argv[i]);
			matmul(f, n);
		}
	} else {
		for (i = 0; i < (int)ARRAY_SIZE(def); i++)
			matmul(f, def[i]);
	}

	CK(cuModuleUnload(mod));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("matmul: PASS\n");
	return 0;
}
