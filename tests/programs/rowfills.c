// SPDX-License-Identifier: MIT
/*
 * rowfills: fills of pitched rows (cuMemsetD2D8/16/32 and their Async
 * forms), stream memory operations (cuStreamWriteValue32/64 and
 * cuStreamWaitValue32/64, within a stream and between two), profiler marks,
 * cuCtxResetPersistingL2Cache and two device questions.  Every fill is
 * checked byte for byte against a host model, the bytes between rows and
 * past the last row included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudaProfiler.h>

#include "util.h"

#define PITCH	768
#define ROWS	9
#define BYTES	(PITCH * (ROWS + 1))

static CUdeviceptr buf;
static uint8_t model[BYTES], got[BYTES];

/* Fills the model's rows as the driver fills the device's. */
static void model_rows(size_t off, size_t width, size_t height, uint32_t v, unsigned int w)
{
	for (size_t y = 0; y < height; y++)
		for (size_t x = 0; x < width; x++)
			memcpy(model + off + y * PITCH + x * w, &v, w);
}

static void compare(const char *what)
{
	CK(cuMemcpyDtoH(got, buf, BYTES));
	for (size_t i = 0; i < BYTES; i++)
		if (got[i] != model[i])
			die("%s: byte %zu (row %zu, column %zu) is %#x, expected %#x", what, i,
			    i / PITCH, i % PITCH, got[i], model[i]);
	printf("%s ok\n", what);
}

static void reset(void)
{
	memset(model, 0xa5, sizeof(model));
	CK(cuMemsetD8(buf, 0xa5, BYTES));
}

static void fills(CUstream s)
{
	reset();
	CK(cuMemsetD2D8(buf + 3, PITCH, 0x11, 301, ROWS));
	model_rows(3, 301, ROWS, 0x11, 1);
	compare("D2D8");
	CK(cuMemsetD2D16(buf + 2 * PITCH + 6, PITCH, 0xbeef, 150, 4));
	model_rows(2 * PITCH + 6, 150, 4, 0xbeef, 2);
	compare("D2D16");
	CK(cuMemsetD2D32(buf + 8, PITCH, 0xc0ffee01u, PITCH / 4 - 2, ROWS));
	model_rows(8, PITCH / 4 - 2, ROWS, 0xc0ffee01u, 4);
	compare("D2D32, rows as wide as the pitch allows");
	/* Nothing to fill: no rows, or rows of nothing. */
	CK(cuMemsetD2D8(buf, PITCH, 0x77, 100, 0));
	CK(cuMemsetD2D32(buf, PITCH, 0x77, 0, ROWS));
	compare("D2D8 and D2D32 of no bytes");

	reset();
	CK(cuMemsetD2D8Async(buf + PITCH, PITCH, 0x5a, 17, 5, s));
	CK(cuMemsetD2D16Async(buf + PITCH + 40, PITCH, 0x1234, 33, 6, s));
	CK(cuMemsetD2D32Async(buf + 4 * PITCH + 200, PITCH, 0xdeadbeefu, 70, 3, s));
	model_rows(PITCH, 17, 5, 0x5a, 1);
	model_rows(PITCH + 40, 33, 6, 0x1234, 2);
	model_rows(4 * PITCH + 200, 70, 3, 0xdeadbeefu, 4);
	CK(cuStreamSynchronize(s));
	compare("D2D8Async, D2D16Async, D2D32Async in order on a stream");
}

static void mem_ops(CUstream a, CUstream b)
{
	uint64_t v64 = 0x0123456789abcdefull;
	uint32_t v32 = 0xfeedf00d;

	reset();
	CK(cuStreamWriteValue32(a, buf + 16, v32, 0));
	CK(cuStreamWriteValue64(a, buf + 24, v64, 0));
	memcpy(model + 16, &v32, 4);
	memcpy(model + 24, &v64, 8);
	CK(cuStreamSynchronize(a));
	compare("WriteValue32 and WriteValue64");

	/* b waits for what a writes, then fills: the fill lands after the write. */
	CK(cuStreamWriteValue32(a, buf + 64, 7, 0));
	CK(cuStreamWaitValue32(b, buf + 64, 5, CU_STREAM_WAIT_VALUE_GEQ));
	CK(cuStreamWaitValue64(b, buf + 24, v64, CU_STREAM_WAIT_VALUE_EQ));
	CK(cuStreamWaitValue32(b, buf + 16, 0x0d, CU_STREAM_WAIT_VALUE_AND));
	CK(cuMemsetD8Async(buf + 64, 0x3c, 4, b));
	memset(model + 64, 0x3c, 4);
	CK(cuCtxSynchronize());
	compare("WaitValue32 and WaitValue64 on another stream's writes");
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUstream a, b;
	size_t width;
	int support;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuCtxCreate(&ctx, NULL, 0, dev));
	CK(cuProfilerStart());
	CK(cuMemAlloc(&buf, BYTES));
	CK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	fills(a);
	mem_ops(a, b);
	CK(cuCtxResetPersistingL2Cache());
	CK(cuProfilerStop());
	CK(cuCtxSynchronize());
	printf("profiler marks and persisting L2 reset ok\n");

	CK(cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 4, dev));
	printf("1D linear texture of float4: at most %zu elements\n", width);
	CK_EXPECT(cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 3, dev),
		  CUDA_ERROR_INVALID_VALUE);
	CK(cuDeviceGetExecAffinitySupport(&support, CU_EXEC_AFFINITY_TYPE_SM_COUNT, dev));
	printf("execution affinity by SM count: %s\n", support ? "supported" : "not supported");

	CK(cuStreamDestroy(a));
	CK(cuStreamDestroy(b));
	CK(cuMemFree(buf));
	CK(cuCtxDestroy(ctx));
	printf("rowfills: PASS\n");
	return 0;
}
