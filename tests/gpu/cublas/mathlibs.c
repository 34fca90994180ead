// SPDX-License-Identifier: MIT
/*
 * mathlibs: cuRAND, cuSPARSE and cuSOLVER through the CUDA runtime, as an
 * unmodified program calls them, each checked on the host:
 *
 *   - cuRAND's host API: 4M uniform floats from a Philox generator on the
 *     device, with a seed and an offset; their mean and variance must be
 *     those of U(0, 1) to within 20 standard errors (a generator that
 *     wrote nothing, or wrote the same block twice, is far off), every
 *     value must be in (0, 1], and the same numbers must come out of a
 *     second generator made with the same seed and offset (cuRAND's
 *     sequences depend on nothing else).
 *   - cuSPARSE's generic API: y = A x for a 20,000 x 20,000 CSR matrix with
 *     about 13 entries per row (cusparseSpMV, its buffer's size asked
 *     first); each y_i within 16 * nnz_i * u of the double-precision sum,
 *     relative to sum |a_ij x_j|.
 *   - cuSOLVER's dense API: a Cholesky factorisation (cusolverDnSpotrf, its
 *     workspace asked first) of a 512 x 512 symmetric positive definite
 *     matrix and the solve of A x = b with it (cusolverDnSpotrs); the
 *     reported info must be 0 and the residual |A x - b| / (|A| |x|) below
 *     n * u * 64 in the largest norm.
 *
 * Prints one line per case and exits 1 if any fails; the results' bits go
 * to stderr, where the direct run and the Gleam runs must agree
 * (tests/gpu/torch-check.sh): on one GPU each of these is reproducible.
 */
#include <cuda_runtime.h>
#include <curand.h>
#include <cusolverDn.h>
/* The header marks its own older types; nothing here uses them. */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#include "common.h"

#define LIB_CHECK(lib, x, ok)						\
	do {								\
		int s_ = (int)(x);					\
		if (s_ != (ok)) {					\
			fprintf(stderr, "%s:%d: %s: %s status %d\n",	\
				__FILE__, __LINE__, #x, lib, s_);	\
			printf("FAIL: %s\n", #x);			\
			exit(1);					\
		}							\
	} while (0)
#define CURAND_CHECK(x) LIB_CHECK("cuRAND", x, CURAND_STATUS_SUCCESS)
#define CUSPARSE_CHECK(x) LIB_CHECK("cuSPARSE", x, CUSPARSE_STATUS_SUCCESS)
#define CUSOLVER_CHECK(x) LIB_CHECK("cuSOLVER", x, CUSOLVER_STATUS_SUCCESS)

static int verdict(const char *what, int pass, const char *detail, const void *bits, size_t len)
{
	printf("%s: %s\n", what, pass ? "PASS" : "FAIL");
	fprintf(stderr, "%s: result bits fnv1a %016llx; %s\n", what,
		(unsigned long long)fnv1a(bits, len), detail);
	return pass;
}

static float *uniforms(size_t n, unsigned long long seed, unsigned long long offset)
{
	curandGenerator_t g;
	float *d, *h = xmalloc(n * sizeof(float));

	CUDA_CHECK(cudaMalloc((void **)&d, n * sizeof(float)));
	CURAND_CHECK(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10));
	CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(g, seed));
	CURAND_CHECK(curandSetGeneratorOffset(g, offset));
	CURAND_CHECK(curandGenerateUniform(g, d, n));
	CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
	CURAND_CHECK(curandDestroyGenerator(g));
	CUDA_CHECK(cudaFree(d));
	return h;
}

static int rand_case(void)
{
	const size_t n = (size_t)4 << 20;
	float *a = uniforms(n, 20261203ull, 1000), *b = uniforms(n, 20261203ull, 1000);
	double sum = 0, sq = 0, mean, var;
	int in_range = 1, pass;
	char detail[160];

	for (size_t i = 0; i < n; i++) {
		in_range &= a[i] > 0.0f && a[i] <= 1.0f;
		sum += a[i];
		sq += (double)a[i] * a[i];
	}
	mean = sum / n;
	var = sq / n - mean * mean;
	/* U(0,1): mean 1/2, sd of the mean 1/sqrt(12 n); variance 1/12, sd of it about 1/sqrt(180 n). */
	pass = in_range && !memcmp(a, b, n * sizeof(float)) &&
	       fabs(mean - 0.5) < 20 / sqrt(12.0 * n) && fabs(var - 1 / 12.0) < 20 / sqrt(180.0 * n);
	snprintf(detail, sizeof(detail), "mean %.6f variance %.6f, in (0,1] %s, repeatable %s",
		 mean, var, in_range ? "yes" : "no", memcmp(a, b, n * sizeof(float)) ? "no" : "yes");
	pass = verdict("curand philox uniform 4M", pass, detail, a, n * sizeof(float));
	free(a);
	free(b);
	return pass;
}

static int spmv_case(void)
{
	const int n = 20000;
	int *rowptr = xmalloc((n + 1) * sizeof(int)), *col, nnz = 0, cap = n * 16;
	float *val, *x = xmalloc(n * sizeof(float)), *y = xmalloc(n * sizeof(float));
	double worst = 0;
	size_t where = 0;
	int *drow, *dcol;
	float *dval, *dx, *dy, alpha = 1, beta = 0;
	cusparseHandle_t h;
	cusparseSpMatDescr_t A;
	cusparseDnVecDescr_t X, Y;
	size_t bytes;
	void *buf;
	char detail[160];
	int pass = 1;

	col = xmalloc(cap * sizeof(int));
	val = xmalloc(cap * sizeof(float));
	/* A band of three, and ten entries a row at columns the generator picks. */
	for (int i = 0; i < n; i++) {
		int cand[13], last = -1;

		for (int k = 0; k < 13; k++)
			cand[k] = k < 3 ? i - 1 + k : (int)((lcg_uniform() + 1) * 0.5 * n);
		for (int k = 1; k < 13; k++)
			for (int l = k; l > 0 && cand[l - 1] > cand[l]; l--) {
				int t = cand[l];

				cand[l] = cand[l - 1];
				cand[l - 1] = t;
			}
		rowptr[i] = nnz;
		for (int k = 0; k < 13; k++) {
			if (cand[k] <= last || cand[k] < 0 || cand[k] >= n)
				continue;
			col[nnz] = last = cand[k];
			val[nnz++] = lcg_uniform();
		}
	}
	rowptr[n] = nnz;
	for (int i = 0; i < n; i++)
		x[i] = lcg_uniform();
	CUDA_CHECK(cudaMalloc((void **)&drow, (n + 1) * sizeof(int)));
	CUDA_CHECK(cudaMalloc((void **)&dcol, nnz * sizeof(int)));
	CUDA_CHECK(cudaMalloc((void **)&dval, nnz * sizeof(float)));
	CUDA_CHECK(cudaMalloc((void **)&dx, n * sizeof(float)));
	CUDA_CHECK(cudaMalloc((void **)&dy, n * sizeof(float)));
	CUDA_CHECK(cudaMemcpy(drow, rowptr, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(dcol, col, nnz * sizeof(int), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(dval, val, nnz * sizeof(float), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
	CUSPARSE_CHECK(cusparseCreate(&h));
	CUSPARSE_CHECK(cusparseCreateCsr(&A, n, n, nnz, drow, dcol, dval, CUSPARSE_INDEX_32I,
					 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
	CUSPARSE_CHECK(cusparseCreateDnVec(&X, n, dx, CUDA_R_32F));
	CUSPARSE_CHECK(cusparseCreateDnVec(&Y, n, dy, CUDA_R_32F));
	CUSPARSE_CHECK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X,
					       &beta, Y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
					       &bytes));
	CUDA_CHECK(cudaMalloc(&buf, bytes ? bytes : 1));
	CUSPARSE_CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
				    CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buf));
	CUDA_CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		double ref = 0, mag = 0, e;
		int k = rowptr[i + 1] - rowptr[i];

		for (int p = rowptr[i]; p < rowptr[i + 1]; p++) {
			ref += (double)val[p] * x[col[p]];
			mag += fabs((double)val[p] * x[col[p]]);
		}
		e = fabs(y[i] - ref) / (mag > 0 ? mag : 1);
		if (!(e <= 16.0 * (k + 1) * FLOAT_U))
			pass = 0;
		if (!(e <= worst)) {
			worst = e;
			where = i;
		}
	}
	snprintf(detail, sizeof(detail), "%d entries, max error %.3e at row %zu", nnz, worst, where);
	pass = verdict("cusparse spmv csr 20000", pass, detail, y, n * sizeof(float));
	CUSPARSE_CHECK(cusparseDestroySpMat(A));
	CUSPARSE_CHECK(cusparseDestroyDnVec(X));
	CUSPARSE_CHECK(cusparseDestroyDnVec(Y));
	CUSPARSE_CHECK(cusparseDestroy(h));
	CUDA_CHECK(cudaFree(buf));
	CUDA_CHECK(cudaFree(drow));
	CUDA_CHECK(cudaFree(dcol));
	CUDA_CHECK(cudaFree(dval));
	CUDA_CHECK(cudaFree(dx));
	CUDA_CHECK(cudaFree(dy));
	free(rowptr);
	free(col);
	free(val);
	free(x);
	free(y);
	return pass;
}

static int cholesky_case(void)
{
	const int n = 512;
	float *a = xmalloc((size_t)n * n * sizeof(float)), *b = xmalloc(n * sizeof(float));
	float *m = xmalloc((size_t)n * n * sizeof(float)), *x = xmalloc(n * sizeof(float));
	float *da, *db, *work;
	int *dinfo, info = -1, lwork = 0, pass;
	double anorm = 0, xnorm = 0, rnorm = 0, res;
	cusolverDnHandle_t h;
	char detail[160];

	/* A = M M^T + n I: symmetric, and positive definite with room to spare. */
	for (size_t i = 0; i < (size_t)n * n; i++)
		m[i] = lcg_uniform();
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			double s = i == j ? n : 0;

			for (int k = 0; k < n; k++)
				s += (double)m[i + (size_t)k * n] * m[j + (size_t)k * n];
			a[i + (size_t)j * n] = (float)s;
		}
	for (int i = 0; i < n; i++)
		b[i] = lcg_uniform();
	CUDA_CHECK(cudaMalloc((void **)&da, (size_t)n * n * sizeof(float)));
	CUDA_CHECK(cudaMalloc((void **)&db, n * sizeof(float)));
	CUDA_CHECK(cudaMalloc((void **)&dinfo, sizeof(int)));
	CUDA_CHECK(cudaMemcpy(da, a, (size_t)n * n * sizeof(float), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
	CUSOLVER_CHECK(cusolverDnCreate(&h));
	CUSOLVER_CHECK(cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, da, n, &lwork));
	CUDA_CHECK(cudaMalloc((void **)&work, (lwork ? lwork : 1) * sizeof(float)));
	CUSOLVER_CHECK(cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, da, n, work, lwork, dinfo));
	CUSOLVER_CHECK(cusolverDnSpotrs(h, CUBLAS_FILL_MODE_LOWER, n, 1, da, n, db, n, dinfo));
	CUDA_CHECK(cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(x, db, n * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		double r = -b[i], row = 0;

		for (int j = 0; j < n; j++) {
			r += (double)a[i + (size_t)j * n] * x[j];
			row += fabs(a[i + (size_t)j * n]);
		}
		rnorm = fmax(rnorm, fabs(r));
		anorm = fmax(anorm, row);
		xnorm = fmax(xnorm, fabs(x[i]));
	}
	res = rnorm / (anorm * xnorm > 0 ? anorm * xnorm : 1);
	pass = info == 0 && res < n * FLOAT_U * 64;
	snprintf(detail, sizeof(detail), "info %d, residual %.3e (bound %.3e)", info, res,
		 n * FLOAT_U * 64);
	pass = verdict("cusolver potrf+potrs 512", pass, detail, x, n * sizeof(float));
	CUSOLVER_CHECK(cusolverDnDestroy(h));
	CUDA_CHECK(cudaFree(work));
	CUDA_CHECK(cudaFree(dinfo));
	CUDA_CHECK(cudaFree(db));
	CUDA_CHECK(cudaFree(da));
	free(a);
	free(b);
	free(m);
	free(x);
	return pass;
}

int main(void)
{
	int pass = 1;

	lcg_seed(0x6d617468ull);
	pass &= rand_case();
	pass &= spmv_case();
	pass &= cholesky_case();
	return pass ? 0 : 1;
}
