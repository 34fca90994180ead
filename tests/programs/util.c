// SPDX-License-Identifier: MIT
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* Whole lines reach a pipe or file even if the program crashes later. */
__attribute__((constructor)) static void line_buffered_stdout(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("FAIL: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

const char *err_name(CUresult r)
{
	static __thread char buf[48];
	const char *s = NULL;

	if (cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
		return s;
	snprintf(buf, sizeof(buf), "(unknown CUresult %d)", (int)r);
	return buf;
}

void ck_result(CUresult r, const char *what, const char *file, int line)
{
	if (r != CUDA_SUCCESS)
		die("%s:%d: %s: %s", file, line, what, err_name(r));
}

const char *ck_expect(CUresult r, CUresult want, const char *what,
		      const char *file, int line)
{
	if (r != want)
		die("%s:%d: %s: %s, expected %s", file, line, what,
		    err_name(r), err_name(want));
	return err_name(r);
}

const char *kernel_path(const char *file)
{
	static char path[PATH_MAX];
	char exe[PATH_MAX];
	const char *dir = getenv("GLEAM_TEST_KERNELS");
	ssize_t n;

	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		return path;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		die("readlink /proc/self/exe failed; set GLEAM_TEST_KERNELS");
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/../kernels/%s", dirname(exe), file);
	return path;
}

CUmodule load_module(const char *file)
{
	CUmodule mod;

	CK(cuModuleLoad(&mod, kernel_path(file)));
	return mod;
}

CUmodule load_function(const char *file, const char *name, CUfunction *f)
{
	CUmodule mod = load_module(file);

	CK(cuModuleGetFunction(f, mod, name));
	return mod;
}

void *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long sz;

	if (!f)
		die("cannot open %s (set GLEAM_TEST_KERNELS?)", path);
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("cannot size %s", path);
	buf = malloc((size_t)sz + 1);
	if (!buf)
		die("out of memory reading %s", path);
	if (fread(buf, 1, (size_t)sz, f) != (size_t)sz)
		die("cannot read %s", path);
	fclose(f);
	buf[sz] = '\0';
	if (len)
		*len = (size_t)sz;
	return buf;
}

unsigned int blocks_for(uint64_t n, unsigned int block)
{
	uint64_t b = (n + block - 1) / block;

	return b ? (unsigned int)b : 1;
}

void pattern_fill(void *buf, size_t len, uint64_t first, unsigned int seed)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = pattern_byte(first + i, seed);
}

size_t pattern_check(const void *buf, size_t len, uint64_t first,
		     unsigned int seed)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pattern_byte(first + i, seed))
			return i;
	return len;
}

size_t bytes_check(const void *buf, size_t len, uint8_t v)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != v)
			return i;
	return len;
}

void launch_saxpy(CUfunction f, float a, CUdeviceptr x, CUdeviceptr y, int n, CUstream s)
{
	void *args[] = { &a, &x, &y, &n };

	CK(cuLaunchKernel(f, blocks_for((uint64_t)n, 256), 1, 1, 256, 1, 1, 0, s, args, NULL));
}

void launch_fill(CUfunction f, CUdeviceptr p, uint32_t v, unsigned long long n, CUstream s)
{
	void *args[] = { &p, &v, &n };

	CK(cuLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, s, args, NULL));
}

void expect_floats(const float *got, const float *want, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&got[i], &want[i], sizeof(float)))
			die("%s: element %zu is %g, expected %g", what, i, got[i], want[i]);
	printf("%s ok\n", what);
}
