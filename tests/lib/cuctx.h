/* SPDX-License-Identifier: MIT */
/*
 * How the driver-API test programs start: cuInit, device 0, and its
 * primary context retained and made current.  Header-only, because the
 * programs check errors each their own way (die, print, return): this
 * returns the first error and each caller checks it with its own CK.
 */
#ifndef GLEAM_TEST_CUCTX_H
#define GLEAM_TEST_CUCTX_H

#include <cuda.h>

static inline CUresult primary_ctx(CUdevice *dev, CUcontext *ctx)
{
	CUresult r;

	r = cuInit(0);
	if (!r)
		r = cuDeviceGet(dev, 0);
	if (!r)
		r = cuDevicePrimaryCtxRetain(ctx, *dev);
	if (!r)
		r = cuCtxSetCurrent(*ctx);
	return r;
}

#endif
