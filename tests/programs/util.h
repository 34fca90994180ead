/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the test programs.  Each program prints deterministic
 * text on stdout (no addresses, no timings) and exits 0; on any unexpected
 * result it says why on stderr and exits 1.
 */
#ifndef GLEAM_TEST_UTIL_H
#define GLEAM_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Dies with the call's text and error name unless it returned CUDA_SUCCESS. */
#define CK(call) ck_result((call), #call, __FILE__, __LINE__)

void ck_result(CUresult r, const char *what, const char *file, int line);

/* Dies unless call returned want; returns the name for printing. */
#define CK_EXPECT(call, want) ck_expect((call), (want), #call, __FILE__, __LINE__)

const char *ck_expect(CUresult r, CUresult want, const char *what,
		      const char *file, int line);

__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...);

/* cuGetErrorName's text for r, or "(unknown CUresult N)". */
const char *err_name(CUresult r);

/*
 * Path of a kernel file (e.g. "vec_add.ptx"): in $GLEAM_TEST_KERNELS, else
 * in ../kernels beside the executable's directory ($(BUILD)/tests/kernels).
 * The string is static until the next call.
 */
const char *kernel_path(const char *file);

/* The module of a kernel file (kernel_path(file)), loaded; dies on failure. */
CUmodule load_module(const char *file);

/* The same, and its function name in *f; dies on failure. */
CUmodule load_function(const char *file, const char *name, CUfunction *f);

/* A file's bytes, NUL-terminated (PTX is text); dies on failure. */
void *read_file(const char *path, size_t *len);

/* Launches a 1-D grid of block threads covering n threads. */
unsigned int blocks_for(uint64_t n, unsigned int block);

/*
 * misc.ptx's saxpy (y = a * x + y over n floats) and fill_u32 (n words of
 * v at p), f the function, launched on s; die on failure.
 */
void launch_saxpy(CUfunction f, float a, CUdeviceptr x, CUdeviceptr y, int n, CUstream s);
void launch_fill(CUfunction f, CUdeviceptr p, uint32_t v, unsigned long long n, CUstream s);

/* Dies unless got[0..n) equals want[0..n) bit for bit; else prints "what ok". */
void expect_floats(const float *got, const float *want, size_t n, const char *what);

/* Byte i of the test pattern seeded by seed. */
static inline uint8_t pattern_byte(uint64_t i, unsigned int seed)
{
	return (uint8_t)(i * 0x9d ^ (i >> 7) ^ (i >> 15) * 0x35 ^
			 (i >> 23) * 0x61 ^ seed);
}

/* Fills buf[0..len) with pattern bytes first .. first + len. */
void pattern_fill(void *buf, size_t len, uint64_t first, unsigned int seed);

/*
 * Index of the first byte of buf[0..len) that differs from pattern bytes
 * first .. first + len, or len when none does.
 */
size_t pattern_check(const void *buf, size_t len, uint64_t first,
		     unsigned int seed);

/* Index of the first byte of buf[0..len) not equal to v, or len. */
size_t bytes_check(const void *buf, size_t len, uint8_t v);

#endif /* GLEAM_TEST_UTIL_H */
