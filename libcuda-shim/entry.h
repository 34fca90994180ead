/* SPDX-License-Identifier: MIT */
/*
 * Entry points of the shim that cuda.h does not declare as the shim names
 * them: those generated from the API table, which have no header of their
 * own, and the per-thread-stream forms cuda.h names only for such builds.
 */
#ifndef GLEAM_SHIM_ENTRY_H
#define GLEAM_SHIM_ENTRY_H

#include <cuda.h>

/* Generated from the API table. */
CUresult shim_cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult shim_cuDevicePrimaryCtxReset(CUdevice dev);
CUresult shim_cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);
CUresult shim_cuMemHostGetFlags(unsigned int *pflags, void *p);
CUresult shim_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n, int per_thread);
CUresult shim_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n, int per_thread);
CUresult shim_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
CUresult shim_cuMemHostUnregister(void *p);
CUresult shim_cuCtxGetStreamPriorityRange(int *least, int *greatest);
/* Exported entry points that cuda.h names only for per-thread stream builds. */
CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuEventRecord_ptsz(CUevent ev, CUstream s);
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuStreamSynchronize_ptsz(CUstream s);

#endif
