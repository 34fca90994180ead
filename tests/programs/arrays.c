// SPDX-License-Identifier: MIT
/*
 * arrays: CUDA arrays of every kind (1D, 2D, 3D, layered, cubemap,
 * mipmapped) with their descriptors read back; copies between host
 * memory, device memory and arrays in every direction (cuMemcpy2D, its
 * Unaligned and Async forms, cuMemcpy3D and its Async form, cuMemcpyHtoA,
 * AtoH, DtoA, AtoD, AtoA), with pitches and offsets that align to
 * nothing and copies longer than a record; texture objects read by
 * kernels with point filtering (arrays, linear and pitched memory, layers,
 * 3D) and a surface object written by one; and what the driver refuses.
 * Every copy is checked byte for byte against a model in host memory,
 * the bytes around it included.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

static CUmodule mod;
static CUstream stream;

static const char *fmt_name(CUarray_format f)
{
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: return "u8";
	case CU_AD_FORMAT_UNSIGNED_INT16: return "u16";
	case CU_AD_FORMAT_UNSIGNED_INT32: return "u32";
	case CU_AD_FORMAT_SIGNED_INT16: return "s16";
	case CU_AD_FORMAT_HALF: return "half";
	case CU_AD_FORMAT_FLOAT: return "float";
	default: return "?";
	}
}

static CUarray make(const char *what, size_t w, size_t h, size_t d, CUarray_format f,
		    unsigned int ch, unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR desc = { w, h, d, f, ch, flags }, got;
	CUarray a;

	CK(cuArray3DCreate(&a, &desc));
	CK(cuArray3DGetDescriptor(&got, a));
	printf("%s: %zux%zux%zu %s x%u flags %#x\n", what, got.Width, got.Height, got.Depth,
	       fmt_name(got.Format), got.NumChannels, got.Flags);
	return a;
}

/* Bytes of one slice of an array's rows, and of all of it. */
struct box {
	size_t row, rows, slices;
};

static void fail_at(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			die("%s: byte %zu is %#x, expected %#x", what, i, got[i], want[i]);
}

/*
 * The whole array, through a 3D copy to host memory with a pitch of its
 * own and a gap around it, compared with the model of its rows.
 */
static void check_array(const char *what, CUarray a, const struct box *b, const uint8_t *model)
{
	size_t pitch = b->row + 13, hh = b->rows + 2, n = pitch * hh * b->slices + 64;
	uint8_t *buf = malloc(n), *want = malloc(n);
	CUDA_MEMCPY3D c = { 0 };

	memset(buf, 0x5c, n);
	memset(want, 0x5c, n);
	for (size_t z = 0; z < b->slices; z++)
		for (size_t y = 0; y < b->rows; y++)
			memcpy(want + 7 + (z * hh + y + 1) * pitch,
			       model + (z * b->rows + y) * b->row, b->row);
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	c.srcArray = a;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = buf;
	c.dstXInBytes = 7;
	c.dstY = 1;
	c.dstPitch = pitch;
	c.dstHeight = hh;
	c.WidthInBytes = b->row;
	c.Height = b->rows;
	c.Depth = b->slices;
	CK(cuMemcpy3D(&c));
	fail_at(what, buf, want, n);
	printf("%s ok\n", what);
	free(buf);
	free(want);
}

/*
 * A box of an array written from host rows with a pitch and offsets of
 * their own (3D copy, or 2D when depth is one and two_d), the model too.
 */
static void put_box(CUarray a, const struct box *b, uint8_t *model, size_t x, size_t y, size_t z,
		    size_t w, size_t h, size_t d, unsigned int seed, bool two_d, bool async)
{
	size_t pitch = w + 29, hh = h + 3, n = pitch * hh * d + 64;
	uint8_t *src = malloc(n);

	pattern_fill(src, n, 0, seed);
	for (size_t k = 0; k < d; k++)
		for (size_t r = 0; r < h; r++)
			memcpy(model + ((z + k) * b->rows + y + r) * b->row + x,
			       src + 5 + (k * hh + r + 2) * pitch, w);
	if (two_d) {
		CUDA_MEMCPY2D c = { 0 };

		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = src;
		c.srcXInBytes = 5;
		c.srcY = 2;
		c.srcPitch = pitch;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a;
		c.dstXInBytes = x;
		c.dstY = y;
		c.WidthInBytes = w;
		c.Height = h;
		if (async)
			CK(cuMemcpy2DAsync(&c, stream));
		else
			CK(cuMemcpy2D(&c));
	} else {
		CUDA_MEMCPY3D c = { 0 };

		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = src;
		c.srcXInBytes = 5;
		c.srcY = 2;
		c.srcPitch = pitch;
		c.srcHeight = hh;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a;
		c.dstXInBytes = x;
		c.dstY = y;
		c.dstZ = z;
		c.WidthInBytes = w;
		c.Height = h;
		c.Depth = d;
		if (async)
			CK(cuMemcpy3DAsync(&c, stream));
		else
			CK(cuMemcpy3D(&c));
	}
	if (async)
		CK(cuStreamSynchronize(stream));
	free(src);
}

static void kinds(void)
{
	struct {
		const char *what;
		size_t w, h, d;
		CUarray_format f;
		unsigned int ch, flags, elem;
	} k[] = {
		{ "1D", 1000, 0, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, 4 },
		{ "2D", 67, 33, 0, CU_AD_FORMAT_HALF, 2, 0, 4 },
		{ "3D", 19, 11, 7, CU_AD_FORMAT_UNSIGNED_INT16, 1, 0, 2 },
		{ "1D layered", 250, 0, 5, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED, 4 },
		{ "2D layered", 21, 13, 4, CU_AD_FORMAT_SIGNED_INT16, 2, CUDA_ARRAY3D_LAYERED, 4 },
		{ "cubemap", 16, 16, 6, CU_AD_FORMAT_FLOAT, 4, CUDA_ARRAY3D_CUBEMAP, 16 },
		{ "cubemap layered", 8, 8, 12, CU_AD_FORMAT_UNSIGNED_INT8, 1,
		  CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 1 },
		{ "2D surface", 45, 9, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST, 4 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(k); i++) {
		CUarray a = make(k[i].what, k[i].w, k[i].h, k[i].d, k[i].f, k[i].ch, k[i].flags);
		struct box b = { k[i].w * k[i].elem, k[i].h ? k[i].h : 1, k[i].d ? k[i].d : 1 };
		size_t n = b.row * b.rows * b.slices;
		uint8_t *model = calloc(1, n);
		char what[96];

		/* Everything, then a box inside with offsets of whole elements. */
		put_box(a, &b, model, 0, 0, 0, b.row, b.rows, b.slices, (unsigned int)i, false,
			false);
		put_box(a, &b, model, k[i].elem, b.rows > 2, b.slices > 2, b.row - 2 * k[i].elem,
			b.rows > 2 ? b.rows - 2 : b.rows, b.slices > 2 ? b.slices - 2 : b.slices,
			(unsigned int)i + 40, b.slices == 1 && i % 2, i % 3 == 1);
		snprintf(what, sizeof(what), "%s: uploads and a download", k[i].what);
		check_array(what, a, &b, model);
		free(model);
		CK(cuArrayDestroy(a));
	}
}

/* The 2D descriptor functions, and a 2D copy of every direction and kind. */
static void copies_2d(void)
{
	CUDA_ARRAY_DESCRIPTOR d = { 300, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1 }, got;
	CUarray a1, a2, b2;
	CUdeviceptr dev, dev2;
	uint8_t host[300], back[320], model[300];
	const size_t W = 61, H = 17, DP = 128, HP = 75;
	uint8_t *hsrc = malloc(HP * (H + 4)), *hdst = malloc(HP * (H + 4));
	uint8_t *want = malloc(HP * (H + 4)), *m2 = calloc(1, 4 * W * H);
	CUDA_MEMCPY2D c;

	CK(cuArrayCreate(&a1, &d));
	CK(cuArrayGetDescriptor(&got, a1));
	printf("cuArrayCreate 1D: %zux%zu %s x%u\n", got.Width, got.Height, fmt_name(got.Format),
	       got.NumChannels);
	/* cuMemcpyHtoA, AtoH, DtoA, AtoD, AtoA: bytes at offsets. */
	pattern_fill(host, sizeof(host), 0, 3);
	memset(model, 0, sizeof(model));
	CK(cuMemcpyHtoA(a1, 0, host, sizeof(host)));
	memcpy(model, host, sizeof(host));
	pattern_fill(host, 100, 0, 9);
	CK(cuMemcpyHtoAAsync(a1, 37, host, 100, stream));
	memcpy(model + 37, host, 100);
	memset(back, 0xee, sizeof(back));
	CK(cuMemcpyAtoHAsync(back + 3, a1, 11, 250, stream));
	CK(cuStreamSynchronize(stream));
	if (memcmp(back + 3, model + 11, 250) || back[2] != 0xee || back[253] != 0xee)
		die("HtoA, HtoAAsync, AtoHAsync: wrong bytes");
	printf("cuMemcpyHtoA, HtoAAsync, AtoHAsync at offsets ok\n");
	CK(cuMemAlloc(&dev, 1 << 20));
	CK(cuMemAlloc(&dev2, 1 << 20));
	CK(cuMemsetD8(dev, 0x77, 1 << 20));
	CK(cuMemcpyAtoD(dev + 5, a1, 20, 200));
	CK(cuArrayCreate(&a2, &d));
	CK(cuMemcpyDtoA(a2, 0, dev, 300));
	CK(cuMemcpyAtoA(a2, 250, a1, 1, 50));
	CK(cuMemcpyAtoH(back, a2, 0, 300));
	for (size_t i = 0; i < 300; i++) {
		uint8_t w = i < 5 ? 0x77 : i < 205 ? model[i - 5 + 20] : 0x77;

		if (i >= 250)
			w = model[i - 250 + 1];
		if (back[i] != w)
			die("AtoD, DtoA, AtoA: byte %zu is %#x, expected %#x", i, back[i], w);
	}
	printf("cuMemcpyAtoD, DtoA, AtoA at offsets ok\n");

	/* Host rows to device rows, device to device, device to host: 2D, pitches of their own. */
	pattern_fill(hsrc, HP * (H + 4), 0, 21);
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = hsrc;
	c.srcXInBytes = 3;
	c.srcY = 1;
	c.srcPitch = HP;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = dev;
	c.dstXInBytes = 9;
	c.dstY = 2;
	c.dstPitch = DP;
	c.WidthInBytes = W;
	c.Height = H;
	CK(cuMemcpy2D(&c));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = dev;
	c.srcXInBytes = 9;
	c.srcY = 2;
	c.srcPitch = DP;
	c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	c.dstDevice = dev2;
	c.dstPitch = DP + 1;
	c.WidthInBytes = W;
	c.Height = H;
	CK(cuMemcpy2DUnaligned(&c));
	memset(hdst, 0xab, HP * (H + 4));
	memcpy(want, hdst, HP * (H + 4));
	for (size_t y = 0; y < H; y++)
		memcpy(want + (y + 3) * HP + 1, hsrc + (y + 1) * HP + 3, W);
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = dev2;
	c.srcPitch = DP + 1;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = hdst;
	c.dstXInBytes = 1;
	c.dstY = 3;
	c.dstPitch = HP;
	c.WidthInBytes = W;
	c.Height = H;
	CK(cuMemcpy2DAsync(&c, stream));
	CK(cuStreamSynchronize(stream));
	fail_at("2D host to device, device to device (unaligned, unified), device to host (async)",
		hdst, want, HP * (H + 4));
	printf("2D copies between host and device rows ok\n");

	/* Device rows to a 2D array, array to array, array to host. */
	{
		CUDA_ARRAY_DESCRIPTOR d2 = { W, H, CU_AD_FORMAT_UNSIGNED_INT8, 4 };
		struct box b = { 4 * W, H, 1 };

		CK(cuArrayCreate(&b2, &d2));
		CK(cuMemsetD8(dev, 0, 1 << 20));
		pattern_fill(m2, 4 * W * H, 0, 33);
		CK(cuMemcpyHtoD(dev, m2, 4 * W * H));
		memset(&c, 0, sizeof(c));
		c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
		c.srcDevice = dev;
		c.srcPitch = 4 * W;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = b2;
		c.WidthInBytes = 4 * W;
		c.Height = H;
		CK(cuMemcpy2D(&c));
		memset(&c, 0, sizeof(c));
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = b2;
		c.srcXInBytes = 8;
		c.srcY = 1;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = b2;
		c.dstXInBytes = 4 * 20;
		c.dstY = 10;
		c.WidthInBytes = 4 * 30;
		c.Height = 5;
		CK(cuMemcpy2D(&c));
		for (size_t y = 0; y < 5; y++)
			memmove(m2 + (10 + y) * 4 * W + 80, m2 + (1 + y) * 4 * W + 8, 120);
		check_array("2D device to array, array to array", b2, &b, m2);
	}
	CK(cuArrayDestroy(a1));
	CK(cuArrayDestroy(a2));
	CK(cuArrayDestroy(b2));
	CK(cuMemFree(dev));
	CK(cuMemFree(dev2));
	free(hsrc);
	free(hdst);
	free(want);
	free(m2);
}

/* Copies longer than a record: rows longer than a piece, and many rows with gaps. */
static void long_copies(void)
{
	struct box wide = { 131072 * 16, 1, 1 }, tall = { 700 * 8, 600, 1 };
	uint8_t *m1 = calloc(1, wide.row), *m2 = calloc(1, tall.row * tall.rows);
	CUarray a = make("long rows", 131072, 0, 0, CU_AD_FORMAT_FLOAT, 4, 0);
	CUarray b = make("many rows", 700, 600, 0, CU_AD_FORMAT_HALF, 4, 0);

	put_box(a, &wide, m1, 16, 0, 0, wide.row - 48, 1, 1, 5, false, false);
	check_array("a row of 2 MiB", a, &wide, m1);
	put_box(b, &tall, m2, 8, 3, 0, tall.row - 16, tall.rows - 5, 1, 6, true, true);
	check_array("600 rows of 5600 bytes with gaps", b, &tall, m2);
	CK(cuArrayDestroy(a));
	CK(cuArrayDestroy(b));
	free(m1);
	free(m2);
}

static void mipmaps(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { 64, 32, 0, CU_AD_FORMAT_FLOAT, 1, 0 }, got;
	CUmipmappedArray m;
	CUarray l2, l2b, l6;
	struct box b = { 16 * 4, 8, 1 };
	uint8_t model[16 * 4 * 8] = { 0 };

	CK(cuMipmappedArrayCreate(&m, &d, 10));
	CK(cuMipmappedArrayGetLevel(&l2, m, 2));
	CK(cuMipmappedArrayGetLevel(&l2b, m, 2));
	CK(cuMipmappedArrayGetLevel(&l6, m, 6));
	CK(cuArray3DGetDescriptor(&got, l2));
	printf("mipmapped 64x32, 10 levels asked: level 2 is %zux%zux%zu, the same handle twice: %s\n",
	       got.Width, got.Height, got.Depth, l2 == l2b ? "yes" : "no");
	CK(cuArray3DGetDescriptor(&got, l6));
	printf("level 6 is %zux%zu; level 7: %s\n", got.Width, got.Height,
	       CK_EXPECT(cuMipmappedArrayGetLevel(&l6, m, 7), CUDA_ERROR_INVALID_VALUE));
	put_box(l2, &b, model, 0, 0, 0, b.row, b.rows, 1, 8, true, false);
	check_array("mipmap level 2", l2, &b, model);
	CK(cuMipmappedArrayDestroy(m));
}

static CUtexObject texture(CUDA_RESOURCE_DESC *res, CUaddress_mode mode)
{
	CUDA_TEXTURE_DESC td = { 0 };
	CUtexObject t;

	td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
	td.filterMode = CU_TR_FILTER_MODE_POINT;
	CK(cuTexObjectCreate(&t, res, &td, NULL));
	return t;
}

static void check_floats(const char *what, CUdeviceptr out, const float *want, size_t n)
{
	float *got = malloc(n * sizeof(float));

	CK(cuMemcpyDtoH(got, out, n * sizeof(float)));
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			die("%s: element %zu is %g, expected %g", what, i, got[i], want[i]);
	printf("%s ok\n", what);
	free(got);
}

static void launch(const char *name, unsigned int gx, unsigned int gy, unsigned int gz,
		   unsigned int bx, unsigned int by, void **args)
{
	CUfunction f;

	CK(cuModuleGetFunction(&f, mod, name));
	CK(cuLaunchKernel(f, gx, gy, gz, bx, by, 1, 0, stream, args, NULL));
}

static void textures(void)
{
	enum { W = 13, H = 7, PAD = 2, OW = W + 2 * PAD, OH = H + 2 * PAD };
	CUarray a = make("texture 2D", W, H, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	float tex[H][W], want[OH * OW];
	CUDA_RESOURCE_DESC res = { 0 }, rgot;
	CUDA_TEXTURE_DESC tgot;
	CUdeviceptr out, lin;
	CUtexObject t, tb;
	int w = W, h = H, pad = PAD;
	void *args[] = { &t, &out, &w, &h, &pad };
	CUDA_MEMCPY2D c = { 0 };

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			tex[y][x] = (float)(y * 100 + x);
	/* The linear copies are for 1D arrays only, as NVIDIA's driver has them. */
	printf("cuMemcpyHtoA to a 2D array: %s\n",
	       CK_EXPECT(cuMemcpyHtoA(a, 0, tex, sizeof(tex)), CUDA_ERROR_INVALID_VALUE));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = tex;
	c.srcPitch = sizeof(tex[0]);
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = sizeof(tex[0]);
	c.Height = H;
	CK(cuMemcpy2D(&c));
	memset(&c, 0, sizeof(c));
	CK(cuMemAlloc(&out, 1 << 20));
	res.resType = CU_RESOURCE_TYPE_ARRAY;
	res.res.array.hArray = a;
	t = texture(&res, CU_TR_ADDRESS_MODE_CLAMP);
	tb = texture(&res, CU_TR_ADDRESS_MODE_BORDER);
	CK(cuTexObjectGetResourceDesc(&rgot, t));
	CK(cuTexObjectGetTextureDesc(&tgot, tb));
	printf("texture object: resource type %d, the same array: %s; filter %d, address mode %d\n",
	       rgot.resType, rgot.res.array.hArray == a ? "yes" : "no", tgot.filterMode,
	       tgot.addressMode[0]);
	launch("tex_read_2d", 3, 4, 1, 8, 4, args);
	for (int y = 0; y < OH; y++) {
		for (int x = 0; x < OW; x++) {
			int cx = x - PAD < 0 ? 0 : x - PAD >= W ? W - 1 : x - PAD;
			int cy = y - PAD < 0 ? 0 : y - PAD >= H ? H - 1 : y - PAD;

			want[y * OW + x] = tex[cy][cx];
		}
	}
	CK(cuStreamSynchronize(stream));
	check_floats("tex2D of an array, clamped at the edges", out, want, OH * OW);
	t = tb;
	launch("tex_read_2d", 3, 4, 1, 8, 4, args);
	for (int y = 0; y < OH; y++)
		for (int x = 0; x < OW; x++)
			if (x < PAD || x >= W + PAD || y < PAD || y >= H + PAD)
				want[y * OW + x] = 0.0f;
	check_floats("tex2D of an array, the border outside", out, want, OH * OW);

	/* Pitched device memory (rows of 128 bytes), read the same way. */
	CK(cuMemAlloc(&lin, 1 << 20));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = tex;
	c.srcPitch = sizeof(tex[0]);
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = lin;
	c.dstPitch = 128;
	c.WidthInBytes = sizeof(tex[0]);
	c.Height = H;
	CK(cuMemcpy2D(&c));
	memset(&res, 0, sizeof(res));
	res.resType = CU_RESOURCE_TYPE_PITCH2D;
	res.res.pitch2D.devPtr = lin;
	res.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
	res.res.pitch2D.numChannels = 1;
	res.res.pitch2D.width = W;
	res.res.pitch2D.height = H;
	res.res.pitch2D.pitchInBytes = 128;
	CK(cuTexObjectDestroy(tb));
	t = texture(&res, CU_TR_ADDRESS_MODE_BORDER);
	launch("tex_read_2d", 3, 4, 1, 8, 4, args);
	check_floats("tex2D of pitched memory, the border outside", out, want, OH * OW);
	CK(cuTexObjectDestroy(t));

	/* Linear memory, tex1Dfetch. */
	{
		int n = W * H;
		void *a1[] = { &t, &out, &n };

		CK(cuMemcpyHtoD(lin, tex, sizeof(tex)));
		memset(&res, 0, sizeof(res));
		res.resType = CU_RESOURCE_TYPE_LINEAR;
		res.res.linear.devPtr = lin;
		res.res.linear.format = CU_AD_FORMAT_FLOAT;
		res.res.linear.numChannels = 1;
		res.res.linear.sizeInBytes = sizeof(tex);
		t = texture(&res, CU_TR_ADDRESS_MODE_CLAMP);
		launch("tex_read_1d", 2, 1, 1, 64, 1, a1);
		check_floats("tex1Dfetch of linear memory", out, &tex[0][0], W * H);
		CK(cuTexObjectDestroy(t));
	}

	/* Layers, and a 3D array. */
	{
		enum { LW = 9, LH = 5, LD = 3 };
		float v[LD][LH][LW];
		int lw = LW, lh = LH, ld = LD;
		void *al[] = { &t, &out, &lw, &lh, &ld };
		CUarray la = make("texture 2D layered", LW, LH, LD, CU_AD_FORMAT_FLOAT, 1,
				  CUDA_ARRAY3D_LAYERED);
		CUarray ta = make("texture 3D", LW, LH, LD, CU_AD_FORMAT_FLOAT, 1, 0);
		CUDA_MEMCPY3D c3 = { 0 };

		for (int z = 0; z < LD; z++)
			for (int y = 0; y < LH; y++)
				for (int x = 0; x < LW; x++)
					v[z][y][x] = (float)(z * 1000 + y * 10 + x) + 0.25f;
		c3.srcMemoryType = CU_MEMORYTYPE_HOST;
		c3.srcHost = v;
		c3.srcPitch = sizeof(v[0][0]);
		c3.srcHeight = LH;
		c3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c3.dstArray = la;
		c3.WidthInBytes = sizeof(v[0][0]);
		c3.Height = LH;
		c3.Depth = LD;
		CK(cuMemcpy3D(&c3));
		c3.dstArray = ta;
		CK(cuMemcpy3DAsync(&c3, stream));
		memset(&res, 0, sizeof(res));
		res.resType = CU_RESOURCE_TYPE_ARRAY;
		res.res.array.hArray = la;
		t = texture(&res, CU_TR_ADDRESS_MODE_CLAMP);
		launch("tex_read_layered", 2, 2, LD, 8, 4, al);
		check_floats("tex2DLayered of a layered array", out, &v[0][0][0], LW * LH * LD);
		CK(cuTexObjectDestroy(t));
		res.res.array.hArray = ta;
		t = texture(&res, CU_TR_ADDRESS_MODE_CLAMP);
		launch("tex_read_3d", 2, 2, LD, 8, 4, al);
		check_floats("tex3D of a 3D array", out, &v[0][0][0], LW * LH * LD);
		CK(cuTexObjectDestroy(t));
		CK(cuArrayDestroy(la));
		CK(cuArrayDestroy(ta));
	}
	CK(cuArrayDestroy(a));
	CK(cuMemFree(out));
	CK(cuMemFree(lin));
}

static void surfaces(void)
{
	enum { W = 45, H = 9 };
	CUarray a = make("surface", W, H, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1,
			 CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC res = { 0 }, got;
	unsigned int base = 7000, v[H][W + 3];
	int w = W, h = H;
	CUsurfObject s;
	void *args[] = { &s, &w, &h, &base };
	CUDA_MEMCPY2D c = { 0 };

	res.resType = CU_RESOURCE_TYPE_ARRAY;
	res.res.array.hArray = a;
	CK(cuSurfObjectCreate(&s, &res));
	CK(cuSurfObjectGetResourceDesc(&got, s));
	printf("surface object: resource type %d, the same array: %s\n", got.resType,
	       got.res.array.hArray == a ? "yes" : "no");
	launch("surf_write_2d", 2, 3, 1, 32, 4, args);
	memset(v, 0, sizeof(v));
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	c.srcArray = a;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = v;
	c.dstPitch = sizeof(v[0]);
	c.WidthInBytes = W * 4;
	c.Height = H;
	CK(cuMemcpy2D(&c));
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W + 3; x++)
			if (v[y][x] != (x < W ? base + (unsigned int)(y * W + x) : 0))
				die("surface: (%d, %d) is %u", x, y, v[y][x]);
	printf("surf2Dwrite through a surface object ok\n");
	CK(cuSurfObjectDestroy(s));
	CK(cuArrayDestroy(a));
}

static void refusals(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { 16, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0 };
	CUDA_ARRAY_MEMORY_REQUIREMENTS req;
	CUDA_MEMCPY3D c = { 0 };
	uint8_t host[4096];
	CUarray a, ok;

	d.Format = (CUarray_format)0x55;
	printf("format 0x55: %s\n", CK_EXPECT(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE));
	d.Format = CU_AD_FORMAT_FLOAT;
	d.NumChannels = 3;
	printf("3 channels: %s\n", CK_EXPECT(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE));
	d.NumChannels = 1;
	d.Width = 0;
	printf("width 0: %s\n", CK_EXPECT(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE));
	d.Width = 1 << 20;
	printf("2D width 2^20: %s\n", CK_EXPECT(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE));
	d.Width = 16;
	d.Height = 8;
	d.Depth = 6;
	d.Flags = CUDA_ARRAY3D_CUBEMAP;
	printf("cubemap 16x8: %s\n", CK_EXPECT(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE));
	d.Height = 16;
	d.Depth = 0;
	d.Flags = 0;
	CK(cuArray3DCreate(&ok, &d));
	printf("memory requirements of an ordinary array: %s\n",
	       CK_EXPECT(cuArrayGetMemoryRequirements(&req, ok, 0), CUDA_ERROR_INVALID_VALUE));
	printf("cuMemcpyHtoA past the end: %s\n",
	       CK_EXPECT(cuMemcpyHtoA(ok, 16 * 16 * 4 - 8, host, 16), CUDA_ERROR_INVALID_VALUE));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = host;
	c.srcPitch = 32;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = ok;
	c.WidthInBytes = 64;
	c.Height = 4;
	c.Depth = 1;
	printf("3D copy, source pitch below the width: %s\n",
	       CK_EXPECT(cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE));
	c.srcPitch = 64;
	c.dstY = 13;
	printf("3D copy past the array's last row: %s\n",
	       CK_EXPECT(cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE));
	c.dstY = 0;
	c.srcHost = NULL;
	printf("3D copy from NULL: %s\n", CK_EXPECT(cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE));
	CK(cuArrayDestroy(ok));
}

int main(void)
{
	CUcontext ctx;
	CUdevice dev;

	CK(primary_ctx(&dev, &ctx));
	CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
	CK(cuModuleLoad(&mod, kernel_path("textures.ptx")));
	kinds();
	copies_2d();
	long_copies();
	mipmaps();
	textures();
	surfaces();
	refusals();
	CK(cuStreamDestroy(stream));
	CK(cuModuleUnload(mod));
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("arrays: PASS\n");
	return 0;
}
