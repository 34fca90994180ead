// SPDX-License-Identifier: MIT
/*
 * sgemm: cublasSgemm through the CUDA runtime, as an unmodified program
 * would call it, on two cases: 1024 x 1024 x 1024 (no transposes, alpha 1,
 * beta 0) and an odd, non-square 517 x 263 x 389 with A transposed, a
 * padded leading dimension, alpha 1.5 and beta -0.5 over an existing C.
 * Inputs come from a fixed-seed LCG; each result is checked against a
 * double-precision reference on the host.
 *
 * Tolerance: each element is a dot product of k float products, summed in
 * float in some order (cuBLAS may block or split the sum), then scaled.
 * Whatever the order, the rounding error of a k-term float dot product is
 * at most gamma_k = k*u/(1-k*u) ~ k*u times sum |a_il * b_lj| (Higham,
 * Accuracy and Stability of Numerical Algorithms, 3.1), and the scaling by
 * alpha and beta adds at most two more roundings.  So the error of element
 * (i, j) relative to |alpha| sum |a b| + |beta| |c| (common.h, ref_gemm) is
 * bounded by (k + 2) * u, u = 2^-24: 6.1e-5 for k = 1024.  In practice it is
 * about sqrt(k) * u.  A GEMM done in TF32 (10-bit mantissas, errors of
 * about 2^-11 = 4.9e-4 per product) would exceed it, and so would any wrong
 * element.
 *
 * Prints one line per case and exits 1 if any fails.
 */
#include "common.h"

struct sgemm_case {
	int m, n, k;
	cublasOperation_t ta, tb;
	int lda_pad;
	float alpha, beta;
};

static int run_case(cublasHandle_t h, const struct sgemm_case *cs)
{
	int m = cs->m, n = cs->n, k = cs->k;
	int ta = cs->ta != CUBLAS_OP_N, tb = cs->tb != CUBLAS_OP_N;
	/* Stored shapes: A is m x k (k x m transposed), B k x n (n x k). */
	int arows = ta ? k : m, acols = ta ? m : k;
	int brows = tb ? n : k, bcols = tb ? k : n;
	int lda = arows + cs->lda_pad, ldb = brows, ldc = m;
	size_t na = (size_t)lda * acols, nb = (size_t)ldb * bcols, nc = (size_t)ldc * n;
	float *ha = xmalloc(na * sizeof(float)), *hb = xmalloc(nb * sizeof(float));
	float *hc = xmalloc(nc * sizeof(float));
	double *da = xmalloc(na * sizeof(double)), *db = xmalloc(nb * sizeof(double));
	double *dc0 = xmalloc(nc * sizeof(double)), *ref = xmalloc(nc * sizeof(double));
	double *mag = xmalloc(nc * sizeof(double));
	float *ga, *gb, *gc;
	char what[96];
	double err, tol;
	size_t i, where;
	int pass;

	for (i = 0; i < na; i++)
		da[i] = ha[i] = lcg_uniform();
	for (i = 0; i < nb; i++)
		db[i] = hb[i] = lcg_uniform();
	for (i = 0; i < nc; i++)
		dc0[i] = hc[i] = lcg_uniform();

	CUDA_CHECK(cudaMalloc((void **)&ga, na * sizeof(float)));
	CUDA_CHECK(cudaMalloc((void **)&gb, nb * sizeof(float)));
	CUDA_CHECK(cudaMalloc((void **)&gc, nc * sizeof(float)));
	CUDA_CHECK(cudaMemcpy(ga, ha, na * sizeof(float), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(gb, hb, nb * sizeof(float), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(gc, hc, nc * sizeof(float), cudaMemcpyHostToDevice));

	CUBLAS_CHECK(cublasSgemm(h, cs->ta, cs->tb, m, n, k, &cs->alpha, ga, lda, gb, ldb,
				 &cs->beta, gc, ldc));
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaMemcpy(hc, gc, nc * sizeof(float), cudaMemcpyDeviceToHost));

	ref_gemm(m, n, k, cs->alpha, da, lda, ta, db, ldb, tb, cs->beta,
		 cs->beta != 0 ? dc0 : NULL, ref, mag);
	err = max_rel_err(nc, hc, ref, mag, &where);
	tol = (k + 2) * FLOAT_U;
	snprintf(what, sizeof(what), "sgemm %dx%dx%d %c%c alpha %g beta %g", m, n, k,
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
	static const struct sgemm_case cases[] = {
		{ 1024, 1024, 1024, CUBLAS_OP_N, CUBLAS_OP_N, 0, 1.0f, 0.0f },
		{ 517, 263, 389, CUBLAS_OP_T, CUBLAS_OP_N, 3, 1.5f, -0.5f },
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
	/* Plain float arithmetic: no TF32 unless the environment forces it. */
	CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));

	lcg_seed(0x5eed0001);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		failed += !run_case(h, &cases[i]);

	CUBLAS_CHECK(cublasDestroy(h));
	CUDA_CHECK(cudaDeviceSynchronize());
	printf("sgemm: %s\n", failed ? "FAIL" : "PASS");
	return failed ? 1 : 0;
}
