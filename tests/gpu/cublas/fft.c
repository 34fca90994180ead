// SPDX-License-Identifier: MIT
/*
 * fft: cuFFT through the CUDA runtime, as an unmodified program would call
 * it: a batched 1D complex-to-complex forward transform of 1024 points
 * (a power of two) and a batched real-to-complex transform of 1000 points
 * (2^3 * 5^3, another of cuFFT's kernels), each from cufftPlan1d (plans
 * cuFFT makes with the modules it links and the graphs it captures).
 * Inputs come from a fixed-seed LCG; each result is checked against a
 * direct DFT in double precision on the host.
 *
 * Tolerance: a radix FFT's rounding error in one output is at most about
 * log2(n) roundings of terms bounded by sum |x| (Higham, Accuracy and
 * Stability of Numerical Algorithms, 24.1), so each output's error over
 * the sum of the absolute values of its transform's inputs must stay
 * below 10 * log2(n) * u, u = 2^-24.  A wrong output is off by about the
 * size of the data, and so is any transform of the wrong length.
 *
 * Prints one line per case and exits 1 if any fails; the result's bits go
 * to stderr, where the direct run and the Gleam runs must agree
 * (tests/gpu/torch-check.sh): on one GPU cuFFT is bitwise reproducible.
 */
#include <cufft.h>

#include "common.h"

#define CUFFT_CHECK(x)							\
	do {								\
		cufftResult s_ = (x);					\
		if (s_ != CUFFT_SUCCESS) {				\
			fprintf(stderr, "%s:%d: %s: cufftResult %d\n",	\
				__FILE__, __LINE__, #x, (int)s_);	\
			printf("FAIL: %s\n", #x);			\
			exit(1);					\
		}							\
	} while (0)

/*
 * The DFT of each of batch transforms of n points (complex input, or
 * real when in_im is NULL), its first nout outputs: ref holds re, im
 * pairs; mag each output's bound, the sum of |x| over its transform.
 */
static void ref_dft(int n, int batch, int nout, const double *in_re, const double *in_im,
		    double *ref, double *mag)
{
	for (int b = 0; b < batch; b++) {
		const double *xr = in_re + (size_t)b * n;
		const double *xi = in_im ? in_im + (size_t)b * n : NULL;
		double sum = 0;

		for (int j = 0; j < n; j++)
			sum += xi ? hypot(xr[j], xi[j]) : fabs(xr[j]);
		for (int k = 0; k < nout; k++) {
			double re = 0, im = 0;

			for (int j = 0; j < n; j++) {
				/* The angle reduced exactly first: (j * k) mod n. */
				double a = -2 * M_PI * (double)(((long long)j * k) % n) / n;
				double c = cos(a), s = sin(a);

				re += xr[j] * c - (xi ? xi[j] * s : 0);
				im += xr[j] * s + (xi ? xi[j] * c : 0);
			}
			ref[2 * ((size_t)b * nout + k)] = re;
			ref[2 * ((size_t)b * nout + k) + 1] = im;
			mag[2 * ((size_t)b * nout + k)] = sum;
			mag[2 * ((size_t)b * nout + k) + 1] = sum;
		}
	}
}

/*
 * The transform's n2 floats in h against the reference: its line, and
 * the reference's buffers freed.
 */
static int check_out(const char *kind, int n, int batch, const float *h, size_t n2, double *ref,
		     double *mag)
{
	char what[64];
	size_t where;
	double err;
	int pass;

	snprintf(what, sizeof(what), "%s %d x %d", kind, n, batch);
	err = max_rel_err(n2, h, ref, mag, &where);
	pass = report(what, err, 10 * log2((double)n) * FLOAT_U, h, n2, where, ref);

	free(ref);
	free(mag);
	return pass;
}

/* A forward C2C transform of batch x n points. */
static int c2c(int n, int batch)
{
	size_t count = (size_t)n * batch;
	float *h = xmalloc(2 * count * sizeof(float));
	double *re = xmalloc(count * sizeof(double)), *im = xmalloc(count * sizeof(double));
	double *ref = xmalloc(2 * count * sizeof(double));
	double *mag = xmalloc(2 * count * sizeof(double));
	cufftComplex *d;
	cufftHandle plan;
	int pass;

	for (size_t i = 0; i < count; i++) {
		re[i] = h[2 * i] = lcg_uniform();
		im[i] = h[2 * i + 1] = lcg_uniform();
	}
	ref_dft(n, batch, n, re, im, ref, mag);
	CUDA_CHECK(cudaMalloc((void **)&d, count * sizeof(*d)));
	CUDA_CHECK(cudaMemcpy(d, h, count * sizeof(*d), cudaMemcpyHostToDevice));
	CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, batch));
	CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
	CUDA_CHECK(cudaMemcpy(h, d, count * sizeof(*d), cudaMemcpyDeviceToHost));
	pass = check_out("c2c", n, batch, h, 2 * count, ref, mag);
	CUFFT_CHECK(cufftDestroy(plan));
	CUDA_CHECK(cudaFree(d));
	free(h);
	free(re);
	free(im);
	return pass;
}

/* A forward R2C transform of batch x n real points: n / 2 + 1 outputs each. */
static int r2c(int n, int batch)
{
	int nout = n / 2 + 1;
	size_t count = (size_t)n * batch, ocount = (size_t)nout * batch;
	float *hin = xmalloc(count * sizeof(float)), *hout = xmalloc(2 * ocount * sizeof(float));
	double *re = xmalloc(count * sizeof(double));
	double *ref = xmalloc(2 * ocount * sizeof(double));
	double *mag = xmalloc(2 * ocount * sizeof(double));
	cufftComplex *out;
	cufftReal *in;
	cufftHandle plan;
	int pass;

	for (size_t i = 0; i < count; i++)
		re[i] = hin[i] = lcg_uniform();
	ref_dft(n, batch, nout, re, NULL, ref, mag);
	CUDA_CHECK(cudaMalloc((void **)&in, count * sizeof(*in)));
	CUDA_CHECK(cudaMalloc((void **)&out, ocount * sizeof(*out)));
	CUDA_CHECK(cudaMemcpy(in, hin, count * sizeof(*in), cudaMemcpyHostToDevice));
	CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_R2C, batch));
	CUFFT_CHECK(cufftExecR2C(plan, in, out));
	CUDA_CHECK(cudaMemcpy(hout, out, ocount * sizeof(*out), cudaMemcpyDeviceToHost));
	pass = check_out("r2c", n, batch, hout, 2 * ocount, ref, mag);
	CUFFT_CHECK(cufftDestroy(plan));
	CUDA_CHECK(cudaFree(in));
	CUDA_CHECK(cudaFree(out));
	free(hin);
	free(hout);
	free(re);
	return pass;
}

int main(void)
{
	int version = 0, pass = 1;

	lcg_seed(0x5eed00f7ull);
	CUFFT_CHECK(cufftGetVersion(&version));
	fprintf(stderr, "cuFFT %d\n", version);
	pass &= c2c(1024, 4);
	pass &= r2c(1000, 2);
	return pass ? 0 : 1;
}
