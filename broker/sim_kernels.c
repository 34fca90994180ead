// SPDX-License-Identifier: MIT
/*
 * The sim backend's test kernels: C twins of the kernels in tests/kernels/.
 *
 * Each twin does, for the launch dimensions it is given, exactly what the
 * GPU code does: it writes the elements the launched threads would write
 * and no others, and computes float results in the same order with the
 * same fused multiply-adds that nvcc emits, so results match the GPU's
 * bit for bit.  Threads that would all write the same value are run once.
 *
 * Parameters arrive packed as CUDA packs them (each at an offset aligned
 * to its size).  Every device range a kernel touches is resolved through
 * l->mem() before any byte is read or written: a range that is not inside
 * one live allocation makes the kernel return CUDA_ERROR_ILLEGAL_ADDRESS
 * with memory untouched, a misaligned element pointer makes it return
 * CUDA_ERROR_MISALIGNED_ADDRESS, as the GPU would fault.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>

#include "sim_kernels.h"

/* Longest spin_ns the sim sleeps: a worker is never parked for hours. */
#define SIM_SPIN_MAX_NS	(10ULL * 1000 * 1000 * 1000)

#define MATMUL_TILE	16

/*
 * Offset of parameter idx of k in the packed block, or -1 when the block
 * is too short to hold it.
 */
static long param_offset(const struct sim_kernel *k, const struct sim_launch *l,
			 unsigned int idx)
{
	size_t off = 0;
	unsigned int i;

	for (i = 0; ; i++) {
		size_t sz = k->param_size[i];

		off = (off + sz - 1) & ~(sz - 1);
		if (i == idx)
			break;
		off += sz;
	}
	if (!l->params || off + k->param_size[idx] > l->params_size)
		return -1;
	return (long)off;
}

/* The whole parameter block is long enough for k's parameters. */
static int params_ok(const struct sim_kernel *k, const struct sim_launch *l)
{
	return k->nparams == 0 || param_offset(k, l, k->nparams - 1) >= 0;
}

static void get_param(const struct sim_kernel *k, const struct sim_launch *l,
		      unsigned int idx, void *dst)
{
	memcpy(dst, l->params + param_offset(k, l, idx), k->param_size[idx]);
}

/* Threads in the launch; 0 when a dimension is 0. */
static uint64_t nthreads(const struct sim_launch *l)
{
	return (uint64_t)l->grid.x * l->grid.y * l->grid.z *
	       l->block.x * l->block.y * l->block.z;
}

/* Threads along x of a 1-D launch: what blockIdx.x * blockDim.x + tid covers. */
static uint64_t nthreads_x(const struct sim_launch *l)
{
	return nthreads(l) ? (uint64_t)l->grid.x * l->block.x : 0;
}

/*
 * Host view of count elements of elem bytes at device address dptr, in
 * *out.  Returns 0, or the CUresult the GPU's access would fault with.
 */
static int dev_range(const struct sim_launch *l, uint64_t dptr, uint64_t count,
		     unsigned int elem, void **out)
{
	*out = NULL;
	if (count == 0)
		return CUDA_SUCCESS;
	if (dptr % elem)
		return CUDA_ERROR_MISALIGNED_ADDRESS;
	if (count > UINT64_MAX / elem || dptr + count * elem < dptr)
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	*out = l->mem(l->be, dptr, count * elem);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_ILLEGAL_ADDRESS;
}

enum {
	SK_vec_add,
	SK_matmul_tiled,
	SK_saxpy,
	SK_fill_u32,
	SK_spin_ns,
	SK_null_kernel,
	SK_illegal_write,
	SK_mixed_args,
	SK_tex_read_2d,
	SK_tex_read_1d,
	SK_tex_read_layered,
	SK_tex_read_3d,
	SK_surf_write_2d,
	SK_print_hello,
	SK_print_threads,
	SK_print_values,
	SK_print_formats,
	SK_print_many,
	SK_assert_thread,
	SK_COUNT,
};

static const struct sim_kernel sim_kernels[SK_COUNT];

#define KERNEL(name) (&sim_kernels[SK_##name])

static int run_vec_add(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(vec_add);
	uint64_t a, b, c, cnt, i;
	float *ha, *hb, *hc;
	int32_t n;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &a);
	get_param(k, l, 1, &b);
	get_param(k, l, 2, &c);
	get_param(k, l, 3, &n);

	cnt = n > 0 ? (uint64_t)n : 0;
	if (cnt > nthreads_x(l))
		cnt = nthreads_x(l);
	if ((ret = dev_range(l, a, cnt, 4, (void **)&ha)) ||
	    (ret = dev_range(l, b, cnt, 4, (void **)&hb)) ||
	    (ret = dev_range(l, c, cnt, 4, (void **)&hc)))
		return ret;
	for (i = 0; i < cnt; i++)
		hc[i] = ha[i] + hb[i];
	return CUDA_SUCCESS;
}

/*
 * The GPU kernel loads, for every covered row, the whole row of A, and for
 * every covered column, the whole column of B; it writes the covered
 * elements of C.  Each element is fmaf-accumulated over k in ascending
 * order, as the tiled loop does (tiles padded with zeros add nothing).
 */
static int run_matmul_tiled(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(matmul_tiled);
	uint64_t a, b, c, rows, cols, un;
	uint64_t r, col, kk;
	float *ha, *hb, *hc, *acc;
	int32_t n;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &a);
	get_param(k, l, 1, &b);
	get_param(k, l, 2, &c);
	get_param(k, l, 3, &n);

	if (l->block.x != MATMUL_TILE || l->block.y != MATMUL_TILE ||
	    l->block.z != 1 || !nthreads(l) || n <= 0)
		return CUDA_SUCCESS;
	un = (uint64_t)n;
	rows = (uint64_t)l->grid.y * MATMUL_TILE;
	cols = (uint64_t)l->grid.x * MATMUL_TILE;
	if (rows > un)
		rows = un;
	if (cols > un)
		cols = un;

	/* n < 2^31, so these products fit in 64 bits. */
	if ((ret = dev_range(l, a, rows * un, 4, (void **)&ha)) ||
	    (ret = dev_range(l, b, (un - 1) * un + cols, 4, (void **)&hb)) ||
	    (ret = dev_range(l, c, (rows - 1) * un + cols, 4, (void **)&hc)))
		return ret;

	acc = malloc(cols * sizeof(*acc));
	if (!acc)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (r = 0; r < rows; r++) {
		for (col = 0; col < cols; col++)
			acc[col] = 0.0f;
		/* Row-wise for the cache; per element the order is the GPU's. */
		for (kk = 0; kk < un; kk++) {
			float av = ha[r * un + kk];
			const float *brow = hb + kk * un;

			for (col = 0; col < cols; col++)
				acc[col] = fmaf(av, brow[col], acc[col]);
		}
		memcpy(hc + r * un, acc, cols * sizeof(*acc));
	}
	free(acc);
	return CUDA_SUCCESS;
}

static int run_saxpy(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(saxpy);
	uint64_t x, y, cnt, i;
	float a, *hx, *hy;
	int32_t n;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &a);
	get_param(k, l, 1, &x);
	get_param(k, l, 2, &y);
	get_param(k, l, 3, &n);

	cnt = n > 0 ? (uint64_t)n : 0;
	if (cnt > nthreads_x(l))
		cnt = nthreads_x(l);
	if ((ret = dev_range(l, x, cnt, 4, (void **)&hx)) ||
	    (ret = dev_range(l, y, cnt, 4, (void **)&hy)))
		return ret;
	for (i = 0; i < cnt; i++)
		hy[i] = fmaf(a, hx[i], hy[i]);
	return CUDA_SUCCESS;
}

static int run_fill_u32(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(fill_u32);
	uint64_t p, n, i;
	uint32_t v, *hp;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &p);
	get_param(k, l, 1, &v);
	get_param(k, l, 2, &n);

	/* Grid-stride: any launch with threads covers all of [0, n). */
	if (!nthreads(l))
		return CUDA_SUCCESS;
	if ((ret = dev_range(l, p, n, 4, (void **)&hp)))
		return ret;
	for (i = 0; i < n; i++)
		hp[i] = v;
	return CUDA_SUCCESS;
}

/* All threads spin at once on the GPU: one sleep stands for them all. */
static int run_spin_ns(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(spin_ns);
	struct timespec ts, now;
	uint64_t ns, end;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &ns);
	if (!nthreads(l) || !ns)
		return CUDA_SUCCESS;
	if (ns > SIM_SPIN_MAX_NS)
		ns = SIM_SPIN_MAX_NS;
	clock_gettime(CLOCK_MONOTONIC, &now);
	/* Its GPU may be busy with other sessions' work: this waits its turn. */
	end = l->gpu_time ? l->gpu_time(l->be, ns) :
	      (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec + ns;
	ts.tv_sec = (time_t)(end / 1000000000ULL);
	ts.tv_nsec = (long)(end % 1000000000ULL);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return CUDA_SUCCESS;
}

static int run_null_kernel(const struct sim_launch *l)
{
	(void)l;
	return CUDA_SUCCESS;
}

static int run_illegal_write(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(illegal_write);
	int32_t *hp;
	uint64_t p;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &p);
	if (!nthreads(l))
		return CUDA_SUCCESS;
	if ((ret = dev_range(l, p, 1, 4, (void **)&hp)))
		return ret;
	*hp = 1;
	return CUDA_SUCCESS;
}

static int run_mixed_args(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(mixed_args);
	int8_t c;
	double d;
	int16_t s;
	uint64_t out;
	int64_t ll;
	int32_t i;
	float *ho;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &c);
	get_param(k, l, 1, &d);
	get_param(k, l, 2, &s);
	get_param(k, l, 3, &out);
	get_param(k, l, 4, &ll);
	get_param(k, l, 5, &i);
	if (!nthreads(l))
		return CUDA_SUCCESS;
	if ((ret = dev_range(l, out, 5, 4, (void **)&ho)))
		return ret;
	ho[0] = (float)c;
	ho[1] = (float)d;
	ho[2] = (float)s;
	ho[3] = (float)ll;
	ho[4] = (float)i;
	return CUDA_SUCCESS;
}

/* ---- textures and surfaces (tests/kernels/textures.cu) ---- */

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Threads of the launch along x and y (a 2-D launch), 0 when it has none. */
static void extent_xy(const struct sim_launch *l, uint64_t *nx, uint64_t *ny)
{
	*nx = nthreads(l) ? (uint64_t)l->grid.x * l->block.x : 0;
	*ny = nthreads(l) ? (uint64_t)l->grid.y * l->block.y : 0;
}

/*
 * out[y][x] for the launched threads within the box, each a texture read
 * at (x - pad + 0.5, y - pad + 0.5, z + 0.5 or layer z).
 */
static int tex_box(const struct sim_launch *l, uint64_t t, uint64_t out, int64_t w, int64_t h,
		   int64_t d, int pad, int mode)
{
	uint64_t nx, ny, nz = nthreads(l) ? l->grid.z : 0;
	float *ho;
	int ret;

	extent_xy(l, &nx, &ny);
	if (w <= 0 || h <= 0 || d <= 0)
		return CUDA_SUCCESS;
	nx = min_u64(nx, (uint64_t)w);
	ny = min_u64(ny, (uint64_t)h);
	nz = min_u64(nz, (uint64_t)d);
	if (!nx || !ny || !nz)
		return CUDA_SUCCESS;
	/* Only the elements the launched threads write must be there. */
	if ((ret = dev_range(l, out, ((nz - 1) * h + ny - 1) * w + nx, 4, (void **)&ho)))
		return ret;
	for (uint64_t z = 0; z < nz; z++) {
		for (uint64_t y = 0; y < ny; y++) {
			for (uint64_t x = 0; x < nx; x++) {
				struct sim_texcoord c = { (float)((int64_t)x - pad) + 0.5f,
							  (float)((int64_t)y - pad) + 0.5f, 0.0f,
							  -1, 0 };

				if (mode == 1)
					c.layer = (int)z;
				else if (mode == 2)
					c.z = (float)z + 0.5f;
				ret = l->tex(l->be, t, &c, &ho[(z * h + y) * w + x], 4);
				if (ret)
					return ret;
			}
		}
	}
	return CUDA_SUCCESS;
}

static int run_tex_read_2d(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(tex_read_2d);
	uint64_t t, out;
	int32_t w, h, pad;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &t);
	get_param(k, l, 1, &out);
	get_param(k, l, 2, &w);
	get_param(k, l, 3, &h);
	get_param(k, l, 4, &pad);
	return tex_box(l, t, out, (int64_t)w + 2 * pad, (int64_t)h + 2 * pad, 1, pad, 0);
}

static int run_tex_read_1d(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(tex_read_1d);
	uint64_t t, out, cnt, i;
	float *ho;
	int32_t n;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &t);
	get_param(k, l, 1, &out);
	get_param(k, l, 2, &n);
	cnt = n > 0 ? min_u64(nthreads_x(l), (uint64_t)n) : 0;
	if ((ret = dev_range(l, out, cnt, 4, (void **)&ho)))
		return ret;
	for (i = 0; i < cnt; i++) {
		struct sim_texcoord c = { (float)i, 0.0f, 0.0f, -1, 1 };

		ret = l->tex(l->be, t, &c, &ho[i], 4);
		if (ret)
			return ret;
	}
	return CUDA_SUCCESS;
}

static int run_tex_read_3d_or_layered(const struct sim_launch *l, const struct sim_kernel *k,
				      int mode)
{
	uint64_t t, out;
	int32_t w, h, d;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &t);
	get_param(k, l, 1, &out);
	get_param(k, l, 2, &w);
	get_param(k, l, 3, &h);
	get_param(k, l, 4, &d);
	return tex_box(l, t, out, w, h, d, 0, mode);
}

static int run_tex_read_layered(const struct sim_launch *l)
{
	return run_tex_read_3d_or_layered(l, KERNEL(tex_read_layered), 1);
}

static int run_tex_read_3d(const struct sim_launch *l)
{
	return run_tex_read_3d_or_layered(l, KERNEL(tex_read_3d), 2);
}

static int run_surf_write_2d(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(surf_write_2d);
	uint64_t s, nx, ny;
	int32_t w, h;
	uint32_t base;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &s);
	get_param(k, l, 1, &w);
	get_param(k, l, 2, &h);
	get_param(k, l, 3, &base);
	extent_xy(l, &nx, &ny);
	nx = w > 0 ? min_u64(nx, (uint64_t)w) : 0;
	ny = h > 0 ? min_u64(ny, (uint64_t)h) : 0;
	for (uint64_t y = 0; y < ny; y++) {
		for (uint64_t x = 0; x < nx; x++) {
			uint32_t v = base + (uint32_t)(y * (uint64_t)w + x);

			ret = l->surf(l->be, s, (int64_t)x * 4, (int64_t)y, 0, &v, 4, 1);
			if (ret)
				return ret;
		}
	}
	return CUDA_SUCCESS;
}

/*
 * The printing kernels (tests/kernels/printf.cu) write to this process's
 * stdout and stderr, as NVIDIA's driver writes what a kernel printed:
 * the worker carries both to the program (wk_output.c).  Where the GPU
 * code prints from the threads of block 0 at x index 0 (or thread x of
 * each block), every y and z of the launch prints too: reps() of them.
 */
static uint64_t reps(const struct sim_launch *l)
{
	return (uint64_t)l->grid.y * l->grid.z * l->block.y * l->block.z;
}

/*
 * Lines one launch prints at most, as spin_ns sleeps at most
 * SIM_SPIN_MAX_NS: a record cannot keep a worker printing for hours.
 */
#define SIM_PRINT_MAX	(1ULL << 22)

/* The launch's y and z copies of what one x thread prints, at most SIM_PRINT_MAX. */
static uint64_t copies(const struct sim_launch *l)
{
	uint64_t n = nthreads(l) ? reps(l) : 0;

	return n < SIM_PRINT_MAX ? n : SIM_PRINT_MAX;
}

static int run_print_hello(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(print_hello);
	int32_t tag;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &tag);
	for (uint64_t r = copies(l); r; r--)
		printf("hello from the GPU, tag %d\n", tag);
	return CUDA_SUCCESS;
}

/* Block after block, as the GPU may run them; within one, by thread index. */
static int run_print_threads(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(print_threads);
	uint64_t blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z, left = SIM_PRINT_MAX;
	uint64_t yz = (uint64_t)l->block.y * l->block.z;
	int32_t tag;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &tag);
	if (!nthreads(l))
		return CUDA_SUCCESS;
	for (uint64_t b = 0; b < blocks && left; b++)
		for (unsigned int i = 0; i < l->block.x && left; i++)
			for (uint64_t r = 0; r < yz && left; r++, left--)
				printf("kernel %d: thread %u of %u\n", tag, i, l->block.x);
	return CUDA_SUCCESS;
}

static int run_print_values(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(print_values);
	uint64_t p, left = SIM_PRINT_MAX;
	int32_t n, *hp;
	int ret;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &p);
	get_param(k, l, 1, &n);
	if (!nthreads(l) || n <= 0)
		return CUDA_SUCCESS;
	if ((ret = dev_range(l, p, (uint64_t)n, 4, (void **)&hp)))
		return ret;
	for (uint64_t r = copies(l); r && left; r--)
		for (int32_t i = 0; i < n && left; i++, left--)
			printf("value[%d] = %d\n", i, hp[i]);
	return CUDA_SUCCESS;
}

static int run_print_formats(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(print_formats);
	int32_t i;
	double d;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &i);
	get_param(k, l, 1, &d);
	for (uint64_t r = copies(l); r; r--) {
		printf("int %d, unsigned %u, hex %x, padded [%5d] [%-4d]\n", i,
		       (unsigned int)i * 3u, (unsigned int)i * 255u, i, i);
		printf("long long %lld, char %c, string %s, percent %%\n",
		       (long long)i * 1000000007LL, 'A' + i % 26, "from the device");
		printf("double %.3f, exp %e, general %g\n", d, d * 1000.0, d / 8.0);
		printf("no newline at the end: ");
		printf("continued\n");
	}
	return CUDA_SUCCESS;
}

static int run_print_many(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(print_many);
	uint64_t left = SIM_PRINT_MAX;
	int32_t n;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &n);
	for (uint64_t r = copies(l); r && left; r--)
		for (int32_t i = 0; i < n && left; i++, left--)
			printf("line %d of %d: the quick brown fox jumps over the lazy dog\n", i,
			       n);
	return CUDA_SUCCESS;
}

/*
 * The driver's message for a failed assert(), on stderr, from the file,
 * line and function that nvcc compiled in (tests/kernels/printf.cu run
 * from the repository's top, as the build does).
 */
static int run_assert_thread(const struct sim_launch *l)
{
	const struct sim_kernel *k = KERNEL(assert_thread);
	uint64_t left = SIM_PRINT_MAX;
	int32_t bad;
	int ret = CUDA_SUCCESS;

	if (!params_ok(k, l))
		return CUDA_ERROR_INVALID_VALUE;
	get_param(k, l, 0, &bad);
	if (!nthreads(l) || bad < 0 || (uint32_t)bad >= l->block.x)
		return CUDA_SUCCESS;
	for (unsigned int by = 0; by < l->grid.y && left; by++)
		for (unsigned int bz = 0; bz < l->grid.z && left; bz++)
			for (unsigned int ty = 0; ty < l->block.y && left; ty++)
				for (unsigned int tz = 0; tz < l->block.z && left; tz++, left--) {
					fprintf(stderr, "tests/kernels/printf.cu:47: void "
						"assert_thread(int): block: [0,%u,%u], thread: "
						"[%d,%u,%u] Assertion `blockIdx.x != 0 || "
						"(int)threadIdx.x != bad` failed.\n",
						by, bz, bad, ty, tz);
					ret = CUDA_ERROR_ASSERT;
				}
	return ret;
}

/* Parameter sizes are those of the .cu signatures, in order. */
static const struct sim_kernel sim_kernels[SK_COUNT] = {
	[SK_vec_add] = { "vec_add", 4, { 8, 8, 8, 4 }, run_vec_add },
	[SK_matmul_tiled] = { "matmul_tiled", 4, { 8, 8, 8, 4 }, run_matmul_tiled },
	[SK_saxpy] = { "saxpy", 4, { 4, 8, 8, 4 }, run_saxpy },
	[SK_fill_u32] = { "fill_u32", 3, { 8, 4, 8 }, run_fill_u32 },
	[SK_spin_ns] = { "spin_ns", 1, { 8 }, run_spin_ns },
	[SK_null_kernel] = { "null_kernel", 0, { 0 }, run_null_kernel },
	[SK_illegal_write] = { "illegal_write", 1, { 8 }, run_illegal_write },
	[SK_mixed_args] = { "mixed_args", 6, { 1, 8, 2, 8, 8, 4 }, run_mixed_args },
	[SK_tex_read_2d] = { "tex_read_2d", 5, { 8, 8, 4, 4, 4 }, run_tex_read_2d },
	[SK_tex_read_1d] = { "tex_read_1d", 3, { 8, 8, 4 }, run_tex_read_1d },
	[SK_tex_read_layered] = { "tex_read_layered", 5, { 8, 8, 4, 4, 4 }, run_tex_read_layered },
	[SK_tex_read_3d] = { "tex_read_3d", 5, { 8, 8, 4, 4, 4 }, run_tex_read_3d },
	[SK_surf_write_2d] = { "surf_write_2d", 4, { 8, 4, 4, 4 }, run_surf_write_2d },
	[SK_print_hello] = { "print_hello", 1, { 4 }, run_print_hello },
	[SK_print_threads] = { "print_threads", 1, { 4 }, run_print_threads },
	[SK_print_values] = { "print_values", 2, { 8, 4 }, run_print_values },
	[SK_print_formats] = { "print_formats", 2, { 4, 8 }, run_print_formats },
	[SK_print_many] = { "print_many", 1, { 4 }, run_print_many },
	[SK_assert_thread] = { "assert_thread", 1, { 4 }, run_assert_thread },
};

const struct sim_kernel *sim_kernel_find(const char *name)
{
	unsigned int i;

	if (!name)
		return NULL;
	for (i = 0; i < SK_COUNT; i++)
		if (!strcmp(sim_kernels[i].name, name))
			return &sim_kernels[i];
	return NULL;
}
