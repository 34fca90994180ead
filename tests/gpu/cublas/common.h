/* SPDX-License-Identifier: MIT */
/*
 * What the cuBLAS test programs share: deterministic inputs (a fixed-seed
 * LCG), error checks that name the call, a double-precision reference GEMM
 * that also sums |a*b| for the error bound, a coarse rendering of the error
 * (so that runs with bitwise equal results print the same text whatever the
 * last digits), and an FNV-1a hash of a result's bits (on stderr: direct and
 * Gleam runs on the same GPU with the same cuBLAS must agree bit for bit),
 * and the run of a case around the one call each program tests: inputs,
 * device copies, the check against the reference and the verdict.
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

/* One GEMM case: C = alpha * op(A) * op(B) + beta * C, A's columns padded. */
struct gemm_case {
	int m, n, k;
	cublasOperation_t ta, tb;
	int lda_pad;
	float alpha, beta;
};

/*
 * One case's matrices on the host and on the GPU.  A and B are stored as
 * the GEMM reads them (esize bytes an element) and as doubles for the
 * reference; C is float throughout.
 */
struct gemm_run {
	const struct gemm_case *cs;
	int ta, tb, lda, ldb, ldc;
	size_t na, nb, nc, esize;
	void *ha, *hb;
	float *hc;
	double *da, *db, *dc0, *ref, *mag;
	void *ga, *gb;
	float *gc;
};

/* Stores a fresh LCG value as element i of h and returns what it holds. */
typedef double (*gemm_fill_fn)(void *h, size_t i);

/*
 * Shapes, inputs and device copies of one case.  The LCG fills A, then B,
 * then C, so that a program's inputs depend only on its seed and cases.
 */
static void gemm_setup(struct gemm_run *r, const struct gemm_case *cs, size_t esize,
		       gemm_fill_fn fill)
{
	int m = cs->m, n = cs->n, k = cs->k;
	/* Stored shapes: A is m x k (k x m transposed), B k x n (n x k). */
	int acols, bcols;
	size_t i;

	r->cs = cs;
	r->ta = cs->ta != CUBLAS_OP_N;
	r->tb = cs->tb != CUBLAS_OP_N;
	r->lda = (r->ta ? k : m) + cs->lda_pad;
	acols = r->ta ? m : k;
	r->ldb = r->tb ? n : k;
	bcols = r->tb ? k : n;
	r->ldc = m;
	r->na = (size_t)r->lda * acols;
	r->nb = (size_t)r->ldb * bcols;
	r->nc = (size_t)r->ldc * n;
	r->esize = esize;
	r->ha = xmalloc(r->na * esize);
	r->hb = xmalloc(r->nb * esize);
	r->hc = xmalloc(r->nc * sizeof(float));
	r->da = xmalloc(r->na * sizeof(double));
	r->db = xmalloc(r->nb * sizeof(double));
	r->dc0 = xmalloc(r->nc * sizeof(double));
	r->ref = xmalloc(r->nc * sizeof(double));
	r->mag = xmalloc(r->nc * sizeof(double));

	for (i = 0; i < r->na; i++)
		r->da[i] = fill(r->ha, i);
	for (i = 0; i < r->nb; i++)
		r->db[i] = fill(r->hb, i);
	for (i = 0; i < r->nc; i++)
		r->dc0[i] = r->hc[i] = lcg_uniform();

	CUDA_CHECK(cudaMalloc(&r->ga, r->na * esize));
	CUDA_CHECK(cudaMalloc(&r->gb, r->nb * esize));
	CUDA_CHECK(cudaMalloc((void **)&r->gc, r->nc * sizeof(float)));
	CUDA_CHECK(cudaMemcpy(r->ga, r->ha, r->na * esize, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(r->gb, r->hb, r->nb * esize, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(r->gc, r->hc, r->nc * sizeof(float), cudaMemcpyHostToDevice));
}

/*
 * After the program's GEMM call: the result back, checked against the
 * reference within tol, the verdict reported under the program's name, and
 * everything freed.  Returns whether the case passed.
 */
static int gemm_check(struct gemm_run *r, const char *name, double tol)
{
	const struct gemm_case *cs = r->cs;
	char what[112];
	size_t where;
	double err;
	int pass;

	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaMemcpy(r->hc, r->gc, r->nc * sizeof(float), cudaMemcpyDeviceToHost));

	ref_gemm(cs->m, cs->n, cs->k, cs->alpha, r->da, r->lda, r->ta, r->db, r->ldb, r->tb,
		 cs->beta, cs->beta != 0 ? r->dc0 : NULL, r->ref, r->mag);
	err = max_rel_err(r->nc, r->hc, r->ref, r->mag, &where);
	snprintf(what, sizeof(what), "%s %dx%dx%d %c%c alpha %g beta %g", name,
		 cs->m, cs->n, cs->k, r->ta ? 'T' : 'N', r->tb ? 'T' : 'N',
		 cs->alpha, cs->beta);
	pass = report(what, err, tol, r->hc, r->nc, where, r->ref);

	CUDA_CHECK(cudaFree(r->ga));
	CUDA_CHECK(cudaFree(r->gb));
	CUDA_CHECK(cudaFree(r->gc));
	free(r->ha);
	free(r->hb);
	free(r->hc);
	free(r->da);
	free(r->db);
	free(r->dc0);
	free(r->ref);
	free(r->mag);
	return pass;
}

/*
 * A program's main: the device and cuBLAS version on stderr, setup (may be
 * NULL) given the handle, the cases run from the seed, one verdict line.
 * Exits 1 if any case fails.
 */
static int gemm_main(const char *name, const struct gemm_case *cases, size_t ncases,
		     uint64_t seed, int (*run_case)(cublasHandle_t, const struct gemm_case *),
		     void (*setup)(cublasHandle_t))
{
	cublasHandle_t h;
	struct cudaDeviceProp p;
	int failed = 0, version;
	size_t i;

	CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
	fprintf(stderr, "device: %s, %d SMs\n", p.name, p.multiProcessorCount);
	CUBLAS_CHECK(cublasCreate(&h));
	CUBLAS_CHECK(cublasGetVersion(h, &version));
	fprintf(stderr, "cuBLAS %d\n", version);
	if (setup)
		setup(h);

	lcg_seed(seed);
	for (i = 0; i < ncases; i++)
		failed += !run_case(h, &cases[i]);

	CUBLAS_CHECK(cublasDestroy(h));
	CUDA_CHECK(cudaDeviceSynchronize());
	printf("%s: %s\n", name, failed ? "FAIL" : "PASS");
	return failed ? 1 : 0;
}

#endif
