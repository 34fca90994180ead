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

/* A bfloat16 input: the rounded value is what the reference sees. */
static double fill_bf16(void *h, size_t i)
{
	uint16_t *b = h;

	b[i] = to_bf16(lcg_uniform());
	return from_bf16(b[i]);
}

static int run_case(cublasHandle_t h, const struct gemm_case *cs)
{
	struct gemm_run r;

	gemm_setup(&r, cs, sizeof(uint16_t), fill_bf16);
	CUBLAS_CHECK(cublasGemmEx(h, cs->ta, cs->tb, cs->m, cs->n, cs->k, &cs->alpha,
				  r.ga, CUDA_R_16BF, r.lda, r.gb, CUDA_R_16BF, r.ldb, &cs->beta,
				  r.gc, CUDA_R_32F, r.ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
	return gemm_check(&r, "bf16gemm", 2.0 * (cs->k + 2) * FLOAT_U);
}

int main(void)
{
	static const struct gemm_case cases[] = {
		{ 1024, 1024, 1024, CUBLAS_OP_N, CUBLAS_OP_N, 0, 1.0f, 0.0f },
		{ 333, 517, 771, CUBLAS_OP_N, CUBLAS_OP_T, 0, 0.75f, 1.0f },
	};

	return gemm_main("bf16gemm", cases, sizeof(cases) / sizeof(cases[0]), 0x5eed0002,
			 run_case, NULL);
}
