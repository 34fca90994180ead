// SPDX-License-Identifier: MIT
/*
 * bf16gemm: cublasGemmEx with bfloat16 inputs (CUDA_R_16BF), float output
 * (CUDA_R_32F) and float computation (CUBLAS_COMPUTE_32F), the mixed
 * precision GEMM of deep-learning frameworks, through the CUDA runtime.  Two
 * cases: 1024 x 1024 x 1024 (alpha 1, beta 0) and an odd, non-square
 * 333 x 517 x 771 with B transposed, alpha 0.75 and beta 1 over an existing
 * C.  Inputs come from a fixed-seed LCG, rounded to bfloat16 on the host
 * (round to nearest even); the double-precision reference on the host is
 * computed from those same rounded values, so the input rounding is not
 * part of the error measured.
 *
 * Tolerance: the product of two bfloat16 values (8-bit significands) has at
 * most 16 significant bits and is exact in float; only the float
 * accumulation of k products (and the scaling by alpha and beta) rounds.
 * With round to nearest that error is at most about k*u times
 * sum |a_il * b_lj| (u = 2^-24; see sgemm.c).  Tensor cores add a block of
 * products after aligning them to the largest exponent and truncate rather
 * than round, which can double each step's error, so the bound used is
 * 2 * (k + 2) * u relative to |alpha| sum |a b| + |beta| |c|: 1.2e-4 for
 * k = 1024.  That is still far below bfloat16's own precision (2^-9 = 2e-3),
 * so an output rounded to bfloat16, or any wrong element, fails.
 *
 * Prints one line per case and exits 1 if any fails.
 */
#include "common.h"

struct gemm_case {
	int m, n, k;
	cublasOperation_t ta, tb;
	float alpha, beta;
};

/* float to bfloat16 bits, round to nearest even (no NaNs come here). */
static uint16_t to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

static double from_bf16(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static int run_case(cublasHandle_t h, const struct gemm_case *cs)
{
	int m = cs->m, n = cs->n, k = cs->k;
	int ta = cs->ta != CUBLAS_OP_N, tb = cs->tb != CUBLAS_OP_N;
	int lda = ta ? k : m, acols = ta ? m : k;
	int ldb = tb ? n : k, bcols = tb ? k : n;
	int ldc = m;
	size_t na = (size_t)lda * acols, nb = (size_t)ldb * bcols, nc = (size_t)ldc * n;
	uint16_t *ha = xmalloc(na * sizeof(uint16_t)), *hb = xmalloc(nb * sizeof(uint16_t));
	float *hc = xmalloc(nc * sizeof(float));
	double *da = xmalloc(na * sizeof(double)), *db = xmalloc(nb * sizeof(double));
	double *dc0 = xmalloc(nc * sizeof(double)), *ref = xmalloc(nc * sizeof(double));
	double *mag = xmalloc(nc * sizeof(double));
	void *ga, *gb;
	float *gc;
	char what[112];
	double err, tol;
	size_t i, where;
	int pass;

	for (i = 0; i < na; i++) {
		ha[i] = to_bf16(lcg_uniform());
		da[i] = from_bf16(ha[i]);
	}
	for (i = 0; i < nb; i++) {
		hb[i] = to_bf16(lcg_uniform());
		db[i] = from_bf16(hb[i]);
	}
	for (i = 0; i < nc; i++)
		dc0[i] = hc[i] = lcg_uniform();

	CUDA_CHECK(cudaMalloc(&ga, na * sizeof(uint16_t)));
	CUDA_CHECK(cudaMalloc(&gb, nb * sizeof(uint16_t)));
	CUDA_CHECK(cudaMalloc((void **)&gc, nc * sizeof(float)));
	CUDA_CHECK(cudaMemcpy(ga, ha, na * sizeof(uint16_t), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(gb, hb, nb * sizeof(uint16_t), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(gc, hc, nc * sizeof(float), cudaMemcpyHostToDevice));

	CUBLAS_CHECK(cublasGemmEx(h, cs->ta, cs->tb, m, n, k, &cs->alpha,
				  ga, CUDA_R_16BF, lda, gb, CUDA_R_16BF, ldb, &cs->beta,
				  gc, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaMemcpy(hc, gc, nc * sizeof(float), cudaMemcpyDeviceToHost));

	ref_gemm(m, n, k, cs->alpha, da, lda, ta, db, ldb, tb, cs->beta,
		 cs->beta != 0 ? dc0 : NULL, ref, mag);
	err = max_rel_err(nc, hc, ref, mag, &where);
	tol = 2.0 * (k + 2) * FLOAT_U;
	snprintf(what, sizeof(what), "bf16gemm %dx%dx%d %c%c alpha %g beta %g", m, n, k,
		 ta ? 'T' : 'N', tb ? 'T' : 'N', cs->alpha, cs->beta);
	pass = report(what, err, tol, hc, nc, where, ref);

	CUDA_CHECK(cudaFree(ga));
	CUDA_CHECK(cudaFree(gb));
	CUDA_CHECK(cudaFree(gc));
	free(ha);
	free(hb);
	free(hc);
	free(da);
	free(db);
	free(dc0);
	free(ref);
	free(mag);
	return pass;
}

int main(void)
{
	static const struct gemm_case cases[] = {
		{ 1024, 1024, 1024, CUBLAS_OP_N, CUBLAS_OP_N, 1.0f, 0.0f },
		{ 333, 517, 771, CUBLAS_OP_N, CUBLAS_OP_T, 0.75f, 1.0f },
	};
	cublasHandle_t h;
	struct cudaDeviceProp p;
	int failed = 0, version;
	size_t i;

	CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
	fprintf(stderr, "device: %s, %d SMs\n", p.name, p.multiProcessorCount);
	CUBLAS_CHECK(cublasCreate(&h));
	CUBLAS_CHECK(cublasGetVersion(h, &version));
	fprintf(stderr, "cuBLAS %d\n", version);

	lcg_seed(0x5eed0002);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		failed += !run_case(h, &cases[i]);

	CUBLAS_CHECK(cublasDestroy(h));
	CUDA_CHECK(cudaDeviceSynchronize());
	printf("bf16gemm: %s\n", failed ? "FAIL" : "PASS");
	return failed ? 1 : 0;
}
