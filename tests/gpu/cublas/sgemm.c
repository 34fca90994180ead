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

/* A plain float input: stored as it is drawn. */
static double fill_float(void *h, size_t i)
{
	return ((float *)h)[i] = lcg_uniform();
}

static int run_case(cublasHandle_t h, const struct gemm_case *cs)
{
	struct gemm_run r;

	gemm_setup(&r, cs, sizeof(float), fill_float);
	CUBLAS_CHECK(cublasSgemm(h, cs->ta, cs->tb, cs->m, cs->n, cs->k, &cs->alpha,
				 r.ga, r.lda, r.gb, r.ldb, &cs->beta, r.gc, r.ldc));
	return gemm_check(&r, "sgemm", (cs->k + 2) * FLOAT_U);
}

/* Plain float arithmetic: no TF32 unless the environment forces it. */
static void default_math(cublasHandle_t h)
{
	CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
}

int main(void)
{
	static const struct gemm_case cases[] = {
		{ 1024, 1024, 1024, CUBLAS_OP_N, CUBLAS_OP_N, 0, 1.0f, 0.0f },
		{ 517, 263, 389, CUBLAS_OP_T, CUBLAS_OP_N, 3, 1.5f, -0.5f },
	};

	return gemm_main("sgemm", cases, sizeof(cases) / sizeof(cases[0]), 0x5eed0001,
			 run_case, default_math);
}
