/* SPDX-License-Identifier: MIT */
/*
 * What the cuBLAS test programs share: deterministic inputs (a fixed-seed
 * LCG), error checks that name the call, a double-precision reference GEMM
 * that also sums |a*b| for the error bound, a coarse rendering of the error
 * (so that runs with bitwise equal results print the same text whatever the
 * last digits), and an FNV-1a hash of a result's bits (on stderr: direct and
 * Gleam runs on the same GPU with the same cuBLAS must agree bit for bit).
 *
 * Column-major throughout, as cuBLAS: element (i, j) of an ld-strided
 * matrix is at [i + j * ld].
 */
#ifndef GLEAM_TEST_CUBLAS_COMMON_H
#define GLEAM_TEST_CUBLAS_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)							\
	do {								\
		cudaError_t e_ = (x);					\
		if (e_ != cudaSuccess) {				\
			fprintf(stderr, "%s:%d: %s: %s (%d)\n",		\
				__FILE__, __LINE__, #x,			\
				cudaGetErrorString(e_), (int)e_);	\
			printf("FAIL: %s\n", #x);			\
			exit(1);					\
		}							\
	} while (0)

#define CUBLAS_CHECK(x)							\
	do {								\
		cublasStatus_t s_ = (x);				\
		if (s_ != CUBLAS_STATUS_SUCCESS) {			\
			fprintf(stderr, "%s:%d: %s: %s (%d)\n",		\
				__FILE__, __LINE__, #x,			\
				cublasGetStatusString(s_), (int)s_);	\
			printf("FAIL: %s\n", #x);			\
			exit(1);					\
		}							\
	} while (0)

/* Unit roundoff of float (round to nearest): 2^-24. */
#define FLOAT_U (1.0 / 16777216.0)

/* Knuth's MMIX LCG; the top bits give a float uniform in [-1, 1). */
static uint64_t lcg_state;

static void lcg_seed(uint64_t seed)
{
	lcg_state = seed;
}

static float lcg_uniform(void)
{
	lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
	/* 24 bits: exactly representable in float. */
	return (float)((int32_t)(lcg_state >> 40) - (1 << 23)) / (float)(1 << 23);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

/* op(X)(i, l) for a column-major X with leading dimension ld. */
static double opel(const double *x, int ld, int trans, int i, int l)
{
	return trans ? x[l + (size_t)i * ld] : x[i + (size_t)l * ld];
}

/*
 * ref = alpha * op(A) * op(B) + beta * C0 in double, and mag = the same with
 * every term's absolute value: |alpha| * sum_l |op(A)(i,l) op(B)(l,j)| +
 * |beta| * |C0(i,j)|, what the rounding error of each element is bounded by
 * (times a multiple of the unit roundoff).  op(A) is m x k, op(B) k x n; C0,
 * ref and mag are m x n with leading dimension m; C0 may be NULL (beta 0).
 */
static void ref_gemm(int m, int n, int k, double alpha, const double *a, int lda,
		     int transa, const double *b, int ldb, int transb, double beta,
		     const double *c0, double *ref, double *mag)
{
	double *at = xmalloc((size_t)m * k * sizeof(double));
	int i, j, l;

	/* op(A) as a plain m x k column-major copy: the inner loop is contiguous. */
	for (l = 0; l < k; l++)
		for (i = 0; i < m; i++)
			at[i + (size_t)l * m] = opel(a, lda, transa, i, l);
	for (j = 0; j < n; j++) {
		double *r = ref + (size_t)j * m, *g = mag + (size_t)j * m;

		for (i = 0; i < m; i++)
			r[i] = g[i] = 0;
		for (l = 0; l < k; l++) {
			double blj = opel(b, ldb, transb, l, j);
			const double *acol = at + (size_t)l * m;

			for (i = 0; i < m; i++) {
				r[i] += acol[i] * blj;
				g[i] += fabs(acol[i] * blj);
			}
		}
		for (i = 0; i < m; i++) {
			double c = c0 ? c0[i + (size_t)j * m] : 0;

			r[i] = alpha * r[i] + beta * c;
			g[i] = fabs(alpha) * g[i] + fabs(beta) * fabs(c);
		}
	}
	free(at);
}

/*
 * The largest |got - ref| / mag over the matrix (mag 0 counts as 1), and
 * the element where it is; a NaN anywhere is an infinite error.
 */
static double max_rel_err(size_t count, const float *got, const double *ref,
			  const double *mag, size_t *where)
{
	double worst = 0;
	size_t i;

	*where = 0;
	for (i = 0; i < count; i++) {
		double e = fabs((double)got[i] - ref[i]) / (mag[i] > 0 ? mag[i] : 1.0);

		if (e != e)
			e = INFINITY;
		if (e > worst) {
			worst = e;
			*where = i;
		}
	}
	return worst;
}

/* The error rounded up to a power of ten: "0", "<=1e-07", ..., "inf". */
static const char *coarse(double e, char *buf, size_t len)
{
	if (e == 0)
		snprintf(buf, len, "0");
	else if (!isfinite(e))
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "<=1e%+03d", (int)ceil(log10(e)));
	return buf;
}

static uint64_t fnv1a(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 14695981039346656037ull;

	while (n--) {
		h ^= *b++;
		h *= 1099511628211ull;
	}
	return h;
}

/* One case's verdict: a line on stdout, the result's bits on stderr. */
static int report(const char *what, double err, double tol, const float *c,
		  size_t count, size_t where, const double *ref)
{
	char e[32], t[32];
	int pass = err <= tol;

	printf("%s: %s (max error %s, tolerance %s)\n", what, pass ? "PASS" : "FAIL",
	       coarse(err, e, sizeof(e)), coarse(tol, t, sizeof(t)));
	fprintf(stderr, "%s: result bits fnv1a %016llx; max error %.3e at %zu "
		"(got %.9g, expected %.9g)\n", what,
		(unsigned long long)fnv1a(c, count * sizeof(float)), err, where,
		(double)c[where], ref[where]);
	return pass;
}

#endif
