// SPDX-License-Identifier: MIT
/*
 * Reading module images (common/cubin.c) and the occupancy rules
 * (common/cudarules.c).  The occupancy cases are answers NVIDIA's driver
 * gave on the H200 (driver 580) for the test kernels' resources
 * (tests/kernels/resources.cu; occdiff checks all of them there).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cubin.h"
#include "cudarules.h"
#include "unit.h"

START_TEST(test_lz4)
{
	/* "abc", then a match 3 back for 9: "abcabcabcabc". */
	static const unsigned char blk[] = { 0x35, 'a', 'b', 'c', 3, 0 };
	/* 15 + 2 literals then a match of 4 + 15 + 1 one back. */
	unsigned char ext[2 + 17 + 3 + 1];
	unsigned char out[64];
	long n;

	n = gl_lz4_decode(blk, sizeof(blk), out, sizeof(out));
	ck_assert_int_eq(n, 12);
	ck_assert(!memcmp(out, "abcabcabcabc", 12));
	ext[0] = 0xff;
	ext[1] = 2;
	memset(ext + 2, 'x', 17);
	ext[19] = 1;
	ext[20] = 0;
	ext[21] = 1;
	n = gl_lz4_decode(ext, 22, out, sizeof(out));
	ck_assert_int_eq(n, 17 + 20);
	ck_assert_int_eq(out[36], 'x');
	/* No room, an offset of 0, one before the start, truncated: refused. */
	ck_assert_int_lt(gl_lz4_decode(blk, sizeof(blk), out, 11), 0);
	{
		unsigned char bad[] = { 0x35, 'a', 'b', 'c', 0, 0 };

		ck_assert_int_lt(gl_lz4_decode(bad, sizeof(bad), out, sizeof(out)), 0);
		bad[4] = 4;
		ck_assert_int_lt(gl_lz4_decode(bad, sizeof(bad), out, sizeof(out)), 0);
		ck_assert_int_lt(gl_lz4_decode(bad, 5, out, sizeof(out)), 0);
	}
	ck_assert_int_lt(gl_lz4_decode(ext, 1, out, sizeof(out)), 0);
}
END_TEST

/* A fat binary of n entries: kind, arch, flags, 8 payload bytes each. */
static size_t fatbin(unsigned char *f, const uint32_t (*e)[3], unsigned int n)
{
	uint64_t fsize = n * (64 + 8);
	size_t off = 16;

	memset(f, 0, 16 + fsize);
	f[0] = 0x50, f[1] = 0xed, f[2] = 0x55, f[3] = 0xba;
	f[4] = 1;
	f[6] = 16;
	memcpy(f + 8, &fsize, 8);
	for (unsigned int i = 0; i < n; i++, off += 72) {
		uint16_t kind = (uint16_t)e[i][0];
		uint32_t hsize = 64, arch = e[i][1];
		uint64_t size = 8, flags = e[i][2];

		memcpy(f + off, &kind, 2);
		memcpy(f + off + 4, &hsize, 4);
		memcpy(f + off + 8, &size, 8);
		memcpy(f + off + 28, &arch, 4);
		memcpy(f + off + 40, &flags, 8);
		memset(f + off + 64, (int)i + 1, 8);
	}
	return off;
}

START_TEST(test_pick)
{
	static const uint32_t mixed[][3] = {
		{ 2, 80, 0x11 }, { 2, 90, 0x11 }, { 2, 90, 0x100011 }, { 1, 90, 0x11 },
		{ 2, 100, 0x1000011 },
	};
	static const uint32_t ptx_only[][3] = { { 1, 75, 0x11 }, { 1, 86, 0x11 }, { 1, 100, 0x11 } };
	static const uint32_t older[][3] = { { 2, 80, 0x11 }, { 2, 86, 0x11 }, { 2, 89, 0x11 } };
	unsigned char f[16 + 8 * 72];
	struct gl_code c;
	size_t n;

	n = fatbin(f, mixed, 5);
	/* sm_90: the arch-specific cubin, then the plain one, before PTX. */
	ck_assert_int_eq(gl_code_pick(f, n, 9, 0, &c), 0);
	ck_assert_int_eq(c.kind, GL_CODE_CUBIN);
	ck_assert(c.arch_specific);
	ck_assert_int_eq(c.data[0], 3);
	/* sm_86 runs sm_80's code; sm_120 runs none of it and compiles nothing newer. */
	ck_assert_int_eq(gl_code_pick(f, n, 8, 6, &c), 0);
	ck_assert_int_eq(c.arch, 80);
	ck_assert_int_eq(gl_code_pick(f, n, 12, 0, &c), 0);
	ck_assert_int_eq(c.kind, GL_CODE_PTX);
	ck_assert_int_eq(gl_code_pick(f, n, 7, 5, &c), -ENOENT);
	/* The newest PTX the device can compile. */
	n = fatbin(f, ptx_only, 3);
	ck_assert_int_eq(gl_code_pick(f, n, 9, 0, &c), 0);
	ck_assert_int_eq(c.arch, 86);
	ck_assert_int_eq(c.kind, GL_CODE_PTX);
	/* The latest minor version at or below the device's. */
	n = fatbin(f, older, 3);
	ck_assert_int_eq(gl_code_pick(f, n, 8, 7, &c), 0);
	ck_assert_int_eq(c.arch, 86);
	/* Sizes past the end: refused. */
	ck_assert_int_eq(gl_code_pick(f, n - 1, 8, 7, &c), -EINVAL);
	ck_assert_int_eq(gl_code_pick(f, 3, 8, 7, &c), -EINVAL);
}
END_TEST

static const char ptx[] =
	"//\n// .entry in_a_comment(\n//\n"
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".extern .entry declared_elsewhere(.param .u64 p);\n"
	".extern .global .align 4 .b8 ext_var[];\n"
	".global .align 4 .b8 gvar[400];\n"
	".visible .const .align 8 .f64 cvar[2][3];\n"
	".global .u32 initialised = 7;\n"
	".func (.param .b32 r) helper(.param .b32 x) { ret; }\n"
	".visible .entry k1(\n"
	"\t.param .u64 .ptr .global .align 8 k1_param_0,\n"
	"\t.param .u8 k1_param_1,\n"
	"\t.param .align 16 .b8 k1_param_2[32],\n"
	"\t.param .f16 k1_param_3\n)\n"
	".maxntid 256, 1, 1\n"
	"{\n\t.reg .b32 %r<4>;\n\t{ .reg .pred %p; }\n"
	"\tbar.sync 0;\n\tbar.red.popc.u32 %r1, 5, %p;\n\tret;\n}\n"
	".entry k2()\n{\n\tbar.sync %r1, 64;\n\tret;\n}\n"
	".entry k3(.param .v2 .u32 v)\n{\n\tbar.warp.sync -1;\n\tret;\n}\n";

START_TEST(test_ptx_index)
{
	struct gl_module_index *m;
	const struct gl_kernel *k;
	struct gl_code c;
	unsigned char *raw;
	size_t len;

	ck_assert_int_eq(gl_code_pick(ptx, sizeof(ptx), 9, 0, &c), 0);
	ck_assert_int_eq(c.kind, GL_CODE_PTX);
	ck_assert_int_eq(gl_code_unpack(&c, &raw, &len), 0);
	ck_assert_int_eq(gl_module_index(c.kind, raw, len, &m), 0);
	free(raw);
	ck_assert_uint_eq(m->nkernels, 3);
	ck_assert_ptr_null(gl_module_kernel(m, "in_a_comment"));
	ck_assert_ptr_null(gl_module_kernel(m, "declared_elsewhere"));
	ck_assert_ptr_null(gl_module_kernel(m, "helper"));
	k = gl_module_kernel(m, "k1");
	ck_assert_ptr_nonnull(k);
	ck_assert(!k->res_known);
	ck_assert_uint_eq(k->nparams, 4);
	ck_assert_uint_eq(k->params[0].offset, 0);
	ck_assert_uint_eq(k->params[0].size, 8);
	ck_assert_uint_eq(k->params[1].offset, 8);
	ck_assert_uint_eq(k->params[2].offset, 16);
	ck_assert_uint_eq(k->params[2].size, 32);
	ck_assert_uint_eq(k->params[3].offset, 48);
	ck_assert_uint_eq(k->params_size, 50);
	/* bar.sync 0 and bar.red on barrier 5: six barriers. */
	ck_assert_uint_eq(k->res.barriers, 6);
	k = gl_module_kernel(m, "k2");
	ck_assert_uint_eq(k->nparams, 0);
	ck_assert_uint_eq(k->res.barriers, 16);
	k = gl_module_kernel(m, "k3");
	ck_assert_uint_eq(k->params[0].size, 8);
	ck_assert_uint_eq(k->res.barriers, 0);
	ck_assert_uint_eq(m->nvars, 3);
	ck_assert_uint_eq(gl_module_variable(m, "gvar")->size, 400);
	ck_assert_uint_eq(gl_module_variable(m, "cvar")->size, 48);
	ck_assert_uint_eq(gl_module_variable(m, "initialised")->size, 4);
	ck_assert_ptr_null(gl_module_variable(m, "ext_var"));
	gl_module_index_free(m);
	/* Not an ELF object: refused as a cubin. */
	ck_assert_int_eq(gl_module_index(GL_CODE_CUBIN, (const unsigned char *)ptx, sizeof(ptx),
					 &m), -EINVAL);
}
END_TEST

/* The H200's attributes that occupancy reads; the others are 0. */
static const int32_t h200_attrs[GLEAM_DEV_ATTR_MAX] = {
	[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = 1024,
	[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK] = 49152,
	[CU_DEVICE_ATTRIBUTE_WARP_SIZE] = 32,
	[CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK] = 65536,
	[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT] = 132,
	[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR] = 2048,
	[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR] = 9,
	[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR] = 233472,
	[CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR] = 65536,
	[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] = 232448,
	[CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR] = 32,
	[CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK] = 1024,
};

static void h200(int32_t *d)
{
	memcpy(d, h200_attrs, sizeof(h200_attrs));
}

static int blocks(const int32_t *dev, uint32_t regs, uint32_t smem, uint32_t barriers,
		  int carveout, CUfunc_cache cache, int block, size_t dyn)
{
	struct gl_kres res = { .regs = regs, .static_smem = smem + 1024, .smem_reserved = true,
			       .barriers = barriers, .ptx_version = 90, .binary_version = 90 };
	int32_t attr[GLEAM_FUNC_ATTR_MAX];
	struct gl_occ_func f = { .attr = attr, .barriers = barriers, .cache = cache };
	int n = -1;

	gl_func_attrs(dev, &res, attr);
	attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT] = carveout;
	ck_assert_int_eq(gl_occ_blocks(dev, &f, block, dyn, 0, &n), CUDA_SUCCESS);
	return n;
}

START_TEST(test_occupancy)
{
	int32_t dev[GLEAM_DEV_ATTR_MAX], attr[GLEAM_FUNC_ATTR_MAX];
	struct gl_kres res = { .regs = 80, .smem_reserved = true, .static_smem = 1024 };
	struct gl_occ_func f = { .attr = attr };
	int n, grid, block;
	size_t left;

	h200(dev);
	gl_func_attrs(dev, &res, attr);
	/* What the driver reported for 80 registers a thread: 768 threads, no shared memory. */
	ck_assert_int_eq(attr[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK], 768);
	ck_assert_int_eq(attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES], 0);
	ck_assert_int_eq(attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES], 49152);
	/* Blocks per SM as the driver answered them. */
	ck_assert_int_eq(blocks(dev, 80, 0, 0, -1, CU_FUNC_CACHE_PREFER_NONE, 128, 0), 6);
	ck_assert_int_eq(blocks(dev, 80, 0, 0, 25, CU_FUNC_CACHE_PREFER_NONE, 256, 0), 3);
	ck_assert_int_eq(blocks(dev, 10, 40000, 1, -1, CU_FUNC_CACHE_PREFER_NONE, 128, 0), 5);
	ck_assert_int_eq(blocks(dev, 10, 0, 16, -1, CU_FUNC_CACHE_PREFER_NONE, 128, 0), 4);
	ck_assert_int_eq(blocks(dev, 10, 4000, 1, -1, CU_FUNC_CACHE_PREFER_L1, 128, 0), 1);
	ck_assert_int_eq(blocks(dev, 40, 0, 0, -1, CU_FUNC_CACHE_PREFER_NONE, 128, 0), 12);
	/* Beyond the function's own limit it still answers; beyond the device's, 0. */
	ck_assert_int_eq(blocks(dev, 80, 0, 0, -1, CU_FUNC_CACHE_PREFER_NONE, 1024, 0), 0);
	ck_assert_int_eq(blocks(dev, 10, 0, 0, -1, CU_FUNC_CACHE_PREFER_NONE, 1025, 0), 0);
	/* Flags other than CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE, and no block: refused. */
	ck_assert_int_eq(gl_occ_blocks(dev, &f, 128, 0, 2, &n), CUDA_ERROR_INVALID_VALUE);
	ck_assert_int_eq(gl_occ_blocks(dev, &f, 0, 0, 0, &n), CUDA_ERROR_INVALID_VALUE);
	/* Dynamic memory left: the reserved part is not taken off. */
	res.regs = 10;
	gl_func_attrs(dev, &res, attr);
	ck_assert_int_eq(gl_occ_dyn_smem(dev, &f, 5, 128, &left), CUDA_SUCCESS);
	ck_assert_uint_eq(left, 46592);
	ck_assert_int_eq(gl_occ_dyn_smem(dev, &f, 33, 128, &left), CUDA_ERROR_INVALID_VALUE);
	/* The best block size leaves a carveout other than 0 out. */
	attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT] = 10;
	ck_assert_int_eq(gl_occ_best_block(dev, &f, &grid, &block, NULL, 16384, 0, 0),
			 CUDA_SUCCESS);
	ck_assert_int_eq(block, 1024);
	ck_assert_int_eq(grid, 264);
	attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT] = 0;
	ck_assert_int_eq(gl_occ_best_block(dev, &f, &grid, &block, NULL, 16384, 0, 0),
			 CUDA_SUCCESS);
	ck_assert_int_eq(grid, 132);
}
END_TEST

START_TEST(test_clusters)
{
	int32_t dev[GLEAM_DEV_ATTR_MAX], attr[GLEAM_FUNC_ATTR_MAX];
	struct gl_kres res = { .regs = 10 };
	struct gl_occ_func f = { .attr = attr };
	struct gleam_cluster_table *t = calloc(1, sizeof(*t));
	struct gl_occ_launch l = { .block = { 256, 1, 1 }, .grid = { 8, 1, 1 },
				   .cluster = { 2, 1, 1 } };
	int n;

	h200(dev);
	gl_func_attrs(dev, &res, attr);
	t->active[7][1] = 528;
	ck_assert_int_eq(gl_occ_clusters(dev, t, &f, &l, &n), CUDA_SUCCESS);
	ck_assert_int_eq(n, 528);
	/* A grid of no whole number of clusters, and no cluster at all: refused. */
	l.grid[0] = 7;
	ck_assert_int_eq(gl_occ_clusters(dev, t, &f, &l, &n), CUDA_ERROR_INVALID_CLUSTER_SIZE);
	l.grid[0] = 8;
	memset(l.cluster, 0, sizeof(l.cluster));
	ck_assert_int_eq(gl_occ_clusters(dev, t, &f, &l, &n), CUDA_ERROR_INVALID_CLUSTER_SIZE);
	/* Above 8 only when the function allows non-portable sizes. */
	l.cluster[0] = 16;
	l.cluster[1] = l.cluster[2] = 1;
	l.grid[0] = 16;
	ck_assert_int_eq(gl_occ_clusters(dev, t, &f, &l, &n), CUDA_ERROR_INVALID_CLUSTER_SIZE);
	t->active[7][15] = 7;
	attr[CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED] = 1;
	ck_assert_int_eq(gl_occ_clusters(dev, t, &f, &l, &n), CUDA_SUCCESS);
	ck_assert_int_eq(n, 7);
	ck_assert_int_eq(gl_occ_cluster_size(dev, t, &f, &l, &n), CUDA_SUCCESS);
	ck_assert_int_eq(n, 16);
	free(t);
}
END_TEST

UNIT_SUITE(cubin, "images", test_lz4, test_pick, test_ptx_index, test_occupancy, test_clusters);
