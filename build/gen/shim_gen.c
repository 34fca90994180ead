/* Generated from uapi/api.tbl by tools/gen-api.py: do not edit. */
#include "shim.h"

#define GL_EXPORT __attribute__((visibility("default")))

CUresult shim_cuInit(unsigned int Flags);
GL_EXPORT CUresult gl_x_cuInit(unsigned int Flags) __asm__("cuInit");
CUresult gl_x_cuInit(unsigned int Flags)
{
	return shim_cuInit(Flags);
}

CUresult shim_cuDriverGetVersion(int *driverVersion);
GL_EXPORT CUresult gl_x_cuDriverGetVersion(int *driverVersion) __asm__("cuDriverGetVersion");
CUresult gl_x_cuDriverGetVersion(int *driverVersion)
{
	return shim_cuDriverGetVersion(driverVersion);
}

CUresult shim_cuGetErrorName(CUresult error, const char **pStr);
GL_EXPORT CUresult gl_x_cuGetErrorName(CUresult error, const char **pStr) __asm__("cuGetErrorName");
CUresult gl_x_cuGetErrorName(CUresult error, const char **pStr)
{
	return shim_cuGetErrorName(error, pStr);
}

CUresult shim_cuGetErrorString(CUresult error, const char **pStr);
GL_EXPORT CUresult gl_x_cuGetErrorString(CUresult error, const char **pStr) __asm__("cuGetErrorString");
CUresult gl_x_cuGetErrorString(CUresult error, const char **pStr)
{
	return shim_cuGetErrorString(error, pStr);
}

CUresult shim_cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);
GL_EXPORT CUresult gl_x_cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags) __asm__("cuGetProcAddress");
CUresult gl_x_cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
	return shim_cuGetProcAddress(symbol, pfn, cudaVersion, flags);
}

CUresult shim_cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus);
GL_EXPORT CUresult gl_x_cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus) __asm__("cuGetProcAddress_v2");
CUresult gl_x_cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus)
{
	return shim_cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, symbolStatus);
}

CUresult shim_cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId);
GL_EXPORT CUresult gl_x_cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId) __asm__("cuGetExportTable");
CUresult gl_x_cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
	return shim_cuGetExportTable(ppExportTable, pExportTableId);
}

CUresult shim_cuDeviceGet(CUdevice *device, int ordinal);
GL_EXPORT CUresult gl_x_cuDeviceGet(CUdevice *device, int ordinal) __asm__("cuDeviceGet");
CUresult gl_x_cuDeviceGet(CUdevice *device, int ordinal)
{
	return shim_cuDeviceGet(device, ordinal);
}

CUresult shim_cuDeviceGetCount(int *count);
GL_EXPORT CUresult gl_x_cuDeviceGetCount(int *count) __asm__("cuDeviceGetCount");
CUresult gl_x_cuDeviceGetCount(int *count)
{
	return shim_cuDeviceGetCount(count);
}

CUresult shim_cuDeviceGetName(char *name, int len, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceGetName(char *name, int len, CUdevice dev) __asm__("cuDeviceGetName");
CUresult gl_x_cuDeviceGetName(char *name, int len, CUdevice dev)
{
	return shim_cuDeviceGetName(name, len, dev);
}

CUresult shim_cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) __asm__("cuDeviceGetAttribute");
CUresult gl_x_cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	return shim_cuDeviceGetAttribute(pi, attrib, dev);
}

CUresult shim_cuDeviceTotalMem(size_t *bytes, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) __asm__("cuDeviceTotalMem_v2");
CUresult gl_x_cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	return shim_cuDeviceTotalMem(bytes, dev);
}

CUresult shim_cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) __asm__("cuDeviceGetUuid");
CUresult gl_x_cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return shim_cuDeviceGetUuid(uuid, dev);
}

CUresult shim_cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) __asm__("cuDeviceGetUuid_v2");
CUresult gl_x_cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	return shim_cuDeviceGetUuid_v2(uuid, dev);
}

CUresult shim_cuDeviceGetProperties(CUdevprop *prop, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceGetProperties(CUdevprop *prop, CUdevice dev) __asm__("cuDeviceGetProperties");
CUresult gl_x_cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
	return shim_cuDeviceGetProperties(prop, dev);
}

CUresult shim_cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) __asm__("cuDeviceComputeCapability");
CUresult gl_x_cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
	return shim_cuDeviceComputeCapability(major, minor, dev);
}

CUresult shim_cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev) __asm__("cuDeviceGetPCIBusId");
CUresult gl_x_cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
	return shim_cuDeviceGetPCIBusId(pciBusId, len, dev);
}

CUresult shim_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) __asm__("cuDevicePrimaryCtxRetain");
CUresult gl_x_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	return shim_cuDevicePrimaryCtxRetain(pctx, dev);
}

CUresult shim_cuDevicePrimaryCtxRelease(CUdevice dev);
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxRelease_v2(CUdevice dev) __asm__("cuDevicePrimaryCtxRelease_v2");
CUresult gl_x_cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	return shim_cuDevicePrimaryCtxRelease(dev);
}

CUresult shim_cuDevicePrimaryCtxReset(CUdevice dev);
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxReset_v2(CUdevice dev) __asm__("cuDevicePrimaryCtxReset_v2");
CUresult gl_x_cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	return shim_cuDevicePrimaryCtxReset(dev);
}

CUresult shim_cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active) __asm__("cuDevicePrimaryCtxGetState");
CUresult gl_x_cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
	return shim_cuDevicePrimaryCtxGetState(dev, flags, active);
}

CUresult shim_cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) __asm__("cuDevicePrimaryCtxSetFlags_v2");
CUresult gl_x_cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
	return shim_cuDevicePrimaryCtxSetFlags(dev, flags);
}

CUresult shim_cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
GL_EXPORT CUresult gl_x_cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev) __asm__("cuCtxCreate_v2");
CUresult gl_x_cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return shim_cuCtxCreate(pctx, flags, dev);
}

CUresult shim_cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev);
GL_EXPORT CUresult gl_x_cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev) __asm__("cuCtxCreate_v4");
CUresult gl_x_cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
	return shim_cuCtxCreate_v4(pctx, ctxCreateParams, flags, dev);
}

CUresult shim_cuCtxDestroy(CUcontext ctx);
GL_EXPORT CUresult gl_x_cuCtxDestroy_v2(CUcontext ctx) __asm__("cuCtxDestroy_v2");
CUresult gl_x_cuCtxDestroy_v2(CUcontext ctx)
{
	return shim_cuCtxDestroy(ctx);
}

CUresult shim_cuCtxPushCurrent(CUcontext ctx);
GL_EXPORT CUresult gl_x_cuCtxPushCurrent_v2(CUcontext ctx) __asm__("cuCtxPushCurrent_v2");
CUresult gl_x_cuCtxPushCurrent_v2(CUcontext ctx)
{
	return shim_cuCtxPushCurrent(ctx);
}

CUresult shim_cuCtxPopCurrent(CUcontext *pctx);
GL_EXPORT CUresult gl_x_cuCtxPopCurrent_v2(CUcontext *pctx) __asm__("cuCtxPopCurrent_v2");
CUresult gl_x_cuCtxPopCurrent_v2(CUcontext *pctx)
{
	return shim_cuCtxPopCurrent(pctx);
}

CUresult shim_cuCtxSetCurrent(CUcontext ctx);
GL_EXPORT CUresult gl_x_cuCtxSetCurrent(CUcontext ctx) __asm__("cuCtxSetCurrent");
CUresult gl_x_cuCtxSetCurrent(CUcontext ctx)
{
	return shim_cuCtxSetCurrent(ctx);
}

CUresult shim_cuCtxGetCurrent(CUcontext *pctx);
GL_EXPORT CUresult gl_x_cuCtxGetCurrent(CUcontext *pctx) __asm__("cuCtxGetCurrent");
CUresult gl_x_cuCtxGetCurrent(CUcontext *pctx)
{
	return shim_cuCtxGetCurrent(pctx);
}

CUresult shim_cuCtxGetDevice(CUdevice *device);
GL_EXPORT CUresult gl_x_cuCtxGetDevice(CUdevice *device) __asm__("cuCtxGetDevice");
CUresult gl_x_cuCtxGetDevice(CUdevice *device)
{
	return shim_cuCtxGetDevice(device);
}

CUresult shim_cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx);
GL_EXPORT CUresult gl_x_cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx) __asm__("cuCtxGetDevice_v2");
CUresult gl_x_cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
	return shim_cuCtxGetDevice_v2(device, ctx);
}

static CUresult gl_impl_cuCtxSynchronize(void)
{
	struct gl_a_cuCtxSynchronize a;
	struct gl_r_cuCtxSynchronize o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuCtxSynchronize);
	if (r)
		return r;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuCtxSynchronize(void) __asm__("cuCtxSynchronize");
CUresult gl_x_cuCtxSynchronize(void)
{
	return gl_impl_cuCtxSynchronize();
}

static CUresult gl_impl_cuCtxSynchronize_v2(CUcontext ctx)
{
	struct gl_a_cuCtxSynchronize_v2 a;
	struct gl_r_cuCtxSynchronize_v2 o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuCtxSynchronize_v2);
	if (r)
		return r;
	r = shim_handle_id(GL_H_CTX, ctx, &a.ctx);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuCtxSynchronize_v2(CUcontext ctx) __asm__("cuCtxSynchronize_v2");
CUresult gl_x_cuCtxSynchronize_v2(CUcontext ctx)
{
	return gl_impl_cuCtxSynchronize_v2(ctx);
}

CUresult shim_cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
GL_EXPORT CUresult gl_x_cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) __asm__("cuCtxGetApiVersion");
CUresult gl_x_cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
	return shim_cuCtxGetApiVersion(ctx, version);
}

CUresult shim_cuCtxGetLimit(size_t *pvalue, CUlimit limit);
GL_EXPORT CUresult gl_x_cuCtxGetLimit(size_t *pvalue, CUlimit limit) __asm__("cuCtxGetLimit");
CUresult gl_x_cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
	return shim_cuCtxGetLimit(pvalue, limit);
}

CUresult shim_cuCtxSetLimit(CUlimit limit, size_t value);
GL_EXPORT CUresult gl_x_cuCtxSetLimit(CUlimit limit, size_t value) __asm__("cuCtxSetLimit");
CUresult gl_x_cuCtxSetLimit(CUlimit limit, size_t value)
{
	return shim_cuCtxSetLimit(limit, value);
}

CUresult shim_cuCtxGetFlags(unsigned int *flags);
GL_EXPORT CUresult gl_x_cuCtxGetFlags(unsigned int *flags) __asm__("cuCtxGetFlags");
CUresult gl_x_cuCtxGetFlags(unsigned int *flags)
{
	return shim_cuCtxGetFlags(flags);
}

CUresult shim_cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
GL_EXPORT CUresult gl_x_cuCtxGetId(CUcontext ctx, unsigned long long *ctxId) __asm__("cuCtxGetId");
CUresult gl_x_cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
	return shim_cuCtxGetId(ctx, ctxId);
}

CUresult shim_cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
GL_EXPORT CUresult gl_x_cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority) __asm__("cuCtxGetStreamPriorityRange");
CUresult gl_x_cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	return shim_cuCtxGetStreamPriorityRange(leastPriority, greatestPriority);
}

CUresult shim_cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
GL_EXPORT CUresult gl_x_cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize) __asm__("cuMemAlloc_v2");
CUresult gl_x_cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	return shim_cuMemAlloc(dptr, bytesize);
}

CUresult shim_cuMemFree(CUdeviceptr dptr);
GL_EXPORT CUresult gl_x_cuMemFree_v2(CUdeviceptr dptr) __asm__("cuMemFree_v2");
CUresult gl_x_cuMemFree_v2(CUdeviceptr dptr)
{
	return shim_cuMemFree(dptr);
}

static CUresult gl_impl_cuMemGetInfo(size_t *free, size_t *total)
{
	struct gl_a_cuMemGetInfo a;
	struct gl_r_cuMemGetInfo o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemGetInfo);
	if (r)
		return r;
	if (!free)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	if (!total)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (!r) {
		*free = (size_t)o.free;
		*total = (size_t)o.total;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemGetInfo_v2(size_t *free, size_t *total) __asm__("cuMemGetInfo_v2");
CUresult gl_x_cuMemGetInfo_v2(size_t *free, size_t *total)
{
	return gl_impl_cuMemGetInfo(free, total);
}

CUresult shim_cuMemAllocHost(void **pp, size_t bytesize);
GL_EXPORT CUresult gl_x_cuMemAllocHost_v2(void **pp, size_t bytesize) __asm__("cuMemAllocHost_v2");
CUresult gl_x_cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	return shim_cuMemAllocHost(pp, bytesize);
}

CUresult shim_cuMemFreeHost(void *p);
GL_EXPORT CUresult gl_x_cuMemFreeHost(void *p) __asm__("cuMemFreeHost");
CUresult gl_x_cuMemFreeHost(void *p)
{
	return shim_cuMemFreeHost(p);
}

CUresult shim_cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
GL_EXPORT CUresult gl_x_cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) __asm__("cuMemHostAlloc");
CUresult gl_x_cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	return shim_cuMemHostAlloc(pp, bytesize, Flags);
}

CUresult shim_cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags);
GL_EXPORT CUresult gl_x_cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags) __asm__("cuMemHostGetDevicePointer_v2");
CUresult gl_x_cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
	return shim_cuMemHostGetDevicePointer(pdptr, p, Flags);
}

CUresult shim_cuMemHostGetFlags(unsigned int *pFlags, void *p);
GL_EXPORT CUresult gl_x_cuMemHostGetFlags(unsigned int *pFlags, void *p) __asm__("cuMemHostGetFlags");
CUresult gl_x_cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
	return shim_cuMemHostGetFlags(pFlags, p);
}

CUresult shim_cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);
GL_EXPORT CUresult gl_x_cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr) __asm__("cuMemGetAddressRange_v2");
CUresult gl_x_cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
	return shim_cuMemGetAddressRange(pbase, psize, dptr);
}

CUresult shim_cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, int per_thread);
GL_EXPORT CUresult gl_x_cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) __asm__("cuMemcpyHtoD_v2");
CUresult gl_x_cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
	return shim_cuMemcpyHtoD(dstDevice, srcHost, ByteCount, 0);
}

GL_EXPORT CUresult gl_x_cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) __asm__("cuMemcpyHtoD_v2_ptds");
CUresult gl_x_cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
	return shim_cuMemcpyHtoD(dstDevice, srcHost, ByteCount, 1);
}

CUresult shim_cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, int per_thread);
GL_EXPORT CUresult gl_x_cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) __asm__("cuMemcpyDtoH_v2");
CUresult gl_x_cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	return shim_cuMemcpyDtoH(dstHost, srcDevice, ByteCount, 0);
}

GL_EXPORT CUresult gl_x_cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) __asm__("cuMemcpyDtoH_v2_ptds");
CUresult gl_x_cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	return shim_cuMemcpyDtoH(dstHost, srcDevice, ByteCount, 1);
}

static CUresult gl_impl_cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, int per_thread)
{
	struct gl_a_cuMemcpyDtoD a;
	struct gl_r_cuMemcpyDtoD o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemcpyDtoD);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.srcDevice = (__u64)srcDevice;
	a.ByteCount = (__u64)ByteCount;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) __asm__("cuMemcpyDtoD_v2");
CUresult gl_x_cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
	return gl_impl_cuMemcpyDtoD(dstDevice, srcDevice, ByteCount, 0);
}

GL_EXPORT CUresult gl_x_cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) __asm__("cuMemcpyDtoD_v2_ptds");
CUresult gl_x_cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
	return gl_impl_cuMemcpyDtoD(dstDevice, srcDevice, ByteCount, 1);
}

CUresult shim_cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream, int per_thread);
GL_EXPORT CUresult gl_x_cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream) __asm__("cuMemcpyHtoDAsync_v2");
CUresult gl_x_cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	return shim_cuMemcpyHtoDAsync(dstDevice, srcHost, ByteCount, hStream, 0);
}

GL_EXPORT CUresult gl_x_cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream) __asm__("cuMemcpyHtoDAsync_v2_ptsz");
CUresult gl_x_cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	return shim_cuMemcpyHtoDAsync(dstDevice, srcHost, ByteCount, hStream, 1);
}

CUresult shim_cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream, int per_thread);
GL_EXPORT CUresult gl_x_cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) __asm__("cuMemcpyDtoHAsync_v2");
CUresult gl_x_cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	return shim_cuMemcpyDtoHAsync(dstHost, srcDevice, ByteCount, hStream, 0);
}

GL_EXPORT CUresult gl_x_cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) __asm__("cuMemcpyDtoHAsync_v2_ptsz");
CUresult gl_x_cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	return shim_cuMemcpyDtoHAsync(dstHost, srcDevice, ByteCount, hStream, 1);
}

static CUresult gl_impl_cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream, int per_thread)
{
	struct gl_a_cuMemcpyDtoDAsync a;
	struct gl_r_cuMemcpyDtoDAsync o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemcpyDtoDAsync);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.srcDevice = (__u64)srcDevice;
	a.ByteCount = (__u64)ByteCount;
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) __asm__("cuMemcpyDtoDAsync_v2");
CUresult gl_x_cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	return gl_impl_cuMemcpyDtoDAsync(dstDevice, srcDevice, ByteCount, hStream, 0);
}

GL_EXPORT CUresult gl_x_cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) __asm__("cuMemcpyDtoDAsync_v2_ptsz");
CUresult gl_x_cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	return gl_impl_cuMemcpyDtoDAsync(dstDevice, srcDevice, ByteCount, hStream, 1);
}

static CUresult gl_impl_cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N, int per_thread)
{
	struct gl_a_cuMemsetD8 a;
	struct gl_r_cuMemsetD8 o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemsetD8);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.uc = (__u64)uc;
	a.N = (__u64)N;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N) __asm__("cuMemsetD8_v2");
CUresult gl_x_cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return gl_impl_cuMemsetD8(dstDevice, uc, N, 0);
}

GL_EXPORT CUresult gl_x_cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N) __asm__("cuMemsetD8_v2_ptds");
CUresult gl_x_cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return gl_impl_cuMemsetD8(dstDevice, uc, N, 1);
}

static CUresult gl_impl_cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N, int per_thread)
{
	struct gl_a_cuMemsetD16 a;
	struct gl_r_cuMemsetD16 o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemsetD16);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.us = (__u64)us;
	a.N = (__u64)N;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N) __asm__("cuMemsetD16_v2");
CUresult gl_x_cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	return gl_impl_cuMemsetD16(dstDevice, us, N, 0);
}

GL_EXPORT CUresult gl_x_cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N) __asm__("cuMemsetD16_v2_ptds");
CUresult gl_x_cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	return gl_impl_cuMemsetD16(dstDevice, us, N, 1);
}

static CUresult gl_impl_cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N, int per_thread)
{
	struct gl_a_cuMemsetD32 a;
	struct gl_r_cuMemsetD32 o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemsetD32);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.ui = (__u64)ui;
	a.N = (__u64)N;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N) __asm__("cuMemsetD32_v2");
CUresult gl_x_cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return gl_impl_cuMemsetD32(dstDevice, ui, N, 0);
}

GL_EXPORT CUresult gl_x_cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N) __asm__("cuMemsetD32_v2_ptds");
CUresult gl_x_cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return gl_impl_cuMemsetD32(dstDevice, ui, N, 1);
}

static CUresult gl_impl_cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream, int per_thread)
{
	struct gl_a_cuMemsetD8Async a;
	struct gl_r_cuMemsetD8Async o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemsetD8Async);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.uc = (__u64)uc;
	a.N = (__u64)N;
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) __asm__("cuMemsetD8Async");
CUresult gl_x_cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
	return gl_impl_cuMemsetD8Async(dstDevice, uc, N, hStream, 0);
}

GL_EXPORT CUresult gl_x_cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) __asm__("cuMemsetD8Async_ptsz");
CUresult gl_x_cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
	return gl_impl_cuMemsetD8Async(dstDevice, uc, N, hStream, 1);
}

static CUresult gl_impl_cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream, int per_thread)
{
	struct gl_a_cuMemsetD16Async a;
	struct gl_r_cuMemsetD16Async o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemsetD16Async);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.us = (__u64)us;
	a.N = (__u64)N;
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) __asm__("cuMemsetD16Async");
CUresult gl_x_cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
	return gl_impl_cuMemsetD16Async(dstDevice, us, N, hStream, 0);
}

GL_EXPORT CUresult gl_x_cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) __asm__("cuMemsetD16Async_ptsz");
CUresult gl_x_cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
	return gl_impl_cuMemsetD16Async(dstDevice, us, N, hStream, 1);
}

static CUresult gl_impl_cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream, int per_thread)
{
	struct gl_a_cuMemsetD32Async a;
	struct gl_r_cuMemsetD32Async o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuMemsetD32Async);
	if (r)
		return r;
	a.dstDevice = (__u64)dstDevice;
	a.ui = (__u64)ui;
	a.N = (__u64)N;
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) __asm__("cuMemsetD32Async");
CUresult gl_x_cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
	return gl_impl_cuMemsetD32Async(dstDevice, ui, N, hStream, 0);
}

GL_EXPORT CUresult gl_x_cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) __asm__("cuMemsetD32Async_ptsz");
CUresult gl_x_cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
	return gl_impl_cuMemsetD32Async(dstDevice, ui, N, hStream, 1);
}

CUresult shim_cuModuleLoad(CUmodule *module, const char *fname);
GL_EXPORT CUresult gl_x_cuModuleLoad(CUmodule *module, const char *fname) __asm__("cuModuleLoad");
CUresult gl_x_cuModuleLoad(CUmodule *module, const char *fname)
{
	return shim_cuModuleLoad(module, fname);
}

CUresult shim_cuModuleLoadData(CUmodule *module, const void *image);
GL_EXPORT CUresult gl_x_cuModuleLoadData(CUmodule *module, const void *image) __asm__("cuModuleLoadData");
CUresult gl_x_cuModuleLoadData(CUmodule *module, const void *image)
{
	return shim_cuModuleLoadData(module, image);
}

CUresult shim_cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options, void **optionValues);
GL_EXPORT CUresult gl_x_cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options, void **optionValues) __asm__("cuModuleLoadDataEx");
CUresult gl_x_cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options, void **optionValues)
{
	return shim_cuModuleLoadDataEx(module, image, numOptions, options, optionValues);
}

CUresult shim_cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
GL_EXPORT CUresult gl_x_cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) __asm__("cuModuleLoadFatBinary");
CUresult gl_x_cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
	return shim_cuModuleLoadFatBinary(module, fatCubin);
}

CUresult shim_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
GL_EXPORT CUresult gl_x_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) __asm__("cuModuleGetFunction");
CUresult gl_x_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	return shim_cuModuleGetFunction(hfunc, hmod, name);
}

static CUresult gl_impl_cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
	struct gl_a_cuModuleGetGlobal a;
	struct gl_r_cuModuleGetGlobal o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuModuleGetGlobal);
	if (r)
		return r;
	if (!dptr)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	if (!bytes)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	r = shim_handle_id(GL_H_MODULE, hmod, &a.hmod);
	if (r)
		return shim_end(&c, r);
	if (!name)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	a.name_len = strnlen(name, GLEAM_NAME_MAX) + 1;
	if (a.name_len > GLEAM_NAME_MAX)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	iov[0].iov_base = (void *)name;
	iov[0].iov_len = a.name_len;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 1;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (!r) {
		*dptr = (CUdeviceptr)o.dptr;
		*bytes = (size_t)o.bytes;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name) __asm__("cuModuleGetGlobal_v2");
CUresult gl_x_cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
	return gl_impl_cuModuleGetGlobal(dptr, bytes, hmod, name);
}

CUresult shim_cuModuleUnload(CUmodule hmod);
GL_EXPORT CUresult gl_x_cuModuleUnload(CUmodule hmod) __asm__("cuModuleUnload");
CUresult gl_x_cuModuleUnload(CUmodule hmod)
{
	return shim_cuModuleUnload(hmod);
}

CUresult shim_cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions);
GL_EXPORT CUresult gl_x_cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions) __asm__("cuLibraryLoadData");
CUresult gl_x_cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions)
{
	return shim_cuLibraryLoadData(library, code, jitOptions, jitOptionsValues, numJitOptions, libraryOptions, libraryOptionValues, numLibraryOptions);
}

CUresult shim_cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name);
GL_EXPORT CUresult gl_x_cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name) __asm__("cuLibraryGetKernel");
CUresult gl_x_cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
	return shim_cuLibraryGetKernel(pKernel, library, name);
}

static CUresult gl_impl_cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
	struct gl_a_cuLibraryGetModule a;
	struct gl_r_cuLibraryGetModule o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;
	struct shim_obj *n_pMod;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuLibraryGetModule);
	if (r)
		return r;
	if (!pMod)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	r = shim_handle_id(GL_H_LIBRARY, library, &a.library);
	if (r)
		return shim_end(&c, r);
	n_pMod = shim_obj_new(GL_H_MODULE);
	if (!n_pMod)
		return shim_end(&c, CUDA_ERROR_OUT_OF_MEMORY);
	a.pMod = n_pMod->id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(n_pMod);
	} else {
		shim_obj_created(n_pMod);
		*pMod = (CUmodule)n_pMod;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuLibraryGetModule(CUmodule *pMod, CUlibrary library) __asm__("cuLibraryGetModule");
CUresult gl_x_cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
	return gl_impl_cuLibraryGetModule(pMod, library);
}

CUresult shim_cuLibraryUnload(CUlibrary library);
GL_EXPORT CUresult gl_x_cuLibraryUnload(CUlibrary library) __asm__("cuLibraryUnload");
CUresult gl_x_cuLibraryUnload(CUlibrary library)
{
	return shim_cuLibraryUnload(library);
}

CUresult shim_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
GL_EXPORT CUresult gl_x_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel) __asm__("cuKernelGetFunction");
CUresult gl_x_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
	return shim_cuKernelGetFunction(pFunc, kernel);
}

CUresult shim_cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
GL_EXPORT CUresult gl_x_cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc) __asm__("cuFuncGetAttribute");
CUresult gl_x_cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
	return shim_cuFuncGetAttribute(pi, attrib, hfunc);
}

CUresult shim_cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize);
GL_EXPORT CUresult gl_x_cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize) __asm__("cuFuncGetParamInfo");
CUresult gl_x_cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
	return shim_cuFuncGetParamInfo(func, paramIndex, paramOffset, paramSize);
}

CUresult shim_cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev);
GL_EXPORT CUresult gl_x_cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) __asm__("cuKernelGetAttribute");
CUresult gl_x_cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
	return shim_cuKernelGetAttribute(pi, attrib, kernel, dev);
}

static CUresult gl_impl_cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
	struct gl_a_cuLibraryGetGlobal a;
	struct gl_r_cuLibraryGetGlobal o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuLibraryGetGlobal);
	if (r)
		return r;
	if (!dptr)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	if (!bytes)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	r = shim_handle_id(GL_H_LIBRARY, library, &a.library);
	if (r)
		return shim_end(&c, r);
	if (!name)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	a.name_len = strnlen(name, GLEAM_NAME_MAX) + 1;
	if (a.name_len > GLEAM_NAME_MAX)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	iov[0].iov_base = (void *)name;
	iov[0].iov_len = a.name_len;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 1;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (!r) {
		*dptr = (CUdeviceptr)o.dptr;
		*bytes = (size_t)o.bytes;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name) __asm__("cuLibraryGetGlobal");
CUresult gl_x_cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
	return gl_impl_cuLibraryGetGlobal(dptr, bytes, library, name);
}

CUresult shim_cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra, int per_thread);
GL_EXPORT CUresult gl_x_cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) __asm__("cuLaunchKernel");
CUresult gl_x_cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
	return shim_cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra, 0);
}

GL_EXPORT CUresult gl_x_cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) __asm__("cuLaunchKernel_ptsz");
CUresult gl_x_cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
	return shim_cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra, 1);
}

CUresult shim_cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra, int per_thread);
GL_EXPORT CUresult gl_x_cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra) __asm__("cuLaunchKernelEx");
CUresult gl_x_cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
	return shim_cuLaunchKernelEx(config, f, kernelParams, extra, 0);
}

GL_EXPORT CUresult gl_x_cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra) __asm__("cuLaunchKernelEx_ptsz");
CUresult gl_x_cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
	return shim_cuLaunchKernelEx(config, f, kernelParams, extra, 1);
}

static CUresult gl_impl_cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	struct gl_a_cuStreamCreate a;
	struct gl_r_cuStreamCreate o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;
	struct shim_obj *n_phStream;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuStreamCreate);
	if (r)
		return r;
	if (!phStream)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	a.Flags = (__u64)Flags;
	n_phStream = shim_obj_new(GL_H_STREAM);
	if (!n_phStream)
		return shim_end(&c, CUDA_ERROR_OUT_OF_MEMORY);
	a.phStream = n_phStream->id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(n_phStream);
	} else {
		shim_obj_created(n_phStream);
		*phStream = (CUstream)n_phStream;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuStreamCreate(CUstream *phStream, unsigned int Flags) __asm__("cuStreamCreate");
CUresult gl_x_cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	return gl_impl_cuStreamCreate(phStream, Flags);
}

static CUresult gl_impl_cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
	struct gl_a_cuStreamCreateWithPriority a;
	struct gl_r_cuStreamCreateWithPriority o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;
	struct shim_obj *n_phStream;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuStreamCreateWithPriority);
	if (r)
		return r;
	if (!phStream)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	a.flags = (__u64)flags;
	a.priority = (__s64)priority;
	n_phStream = shim_obj_new(GL_H_STREAM);
	if (!n_phStream)
		return shim_end(&c, CUDA_ERROR_OUT_OF_MEMORY);
	a.phStream = n_phStream->id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(n_phStream);
	} else {
		shim_obj_created(n_phStream);
		*phStream = (CUstream)n_phStream;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority) __asm__("cuStreamCreateWithPriority");
CUresult gl_x_cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
	return gl_impl_cuStreamCreateWithPriority(phStream, flags, priority);
}

static CUresult gl_impl_cuStreamDestroy(CUstream hStream)
{
	struct gl_a_cuStreamDestroy a;
	struct gl_r_cuStreamDestroy o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;
	struct shim_obj *d_hStream;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuStreamDestroy);
	if (r)
		return r;
	r = shim_obj_get(GL_H_STREAM, hStream, &d_hStream);
	if (r)
		return shim_end(&c, r);
	a.hStream = d_hStream->id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (!r || !c.waited)
		shim_obj_put(d_hStream);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuStreamDestroy_v2(CUstream hStream) __asm__("cuStreamDestroy_v2");
CUresult gl_x_cuStreamDestroy_v2(CUstream hStream)
{
	return gl_impl_cuStreamDestroy(hStream);
}

static CUresult gl_impl_cuStreamSynchronize(CUstream hStream, int per_thread)
{
	struct gl_a_cuStreamSynchronize a;
	struct gl_r_cuStreamSynchronize o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuStreamSynchronize);
	if (r)
		return r;
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuStreamSynchronize(CUstream hStream) __asm__("cuStreamSynchronize");
CUresult gl_x_cuStreamSynchronize(CUstream hStream)
{
	return gl_impl_cuStreamSynchronize(hStream, 0);
}

GL_EXPORT CUresult gl_x_cuStreamSynchronize_ptsz(CUstream hStream) __asm__("cuStreamSynchronize_ptsz");
CUresult gl_x_cuStreamSynchronize_ptsz(CUstream hStream)
{
	return gl_impl_cuStreamSynchronize(hStream, 1);
}

static CUresult gl_impl_cuStreamQuery(CUstream hStream, int per_thread)
{
	struct gl_a_cuStreamQuery a;
	struct gl_r_cuStreamQuery o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuStreamQuery);
	if (r)
		return r;
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuStreamQuery(CUstream hStream) __asm__("cuStreamQuery");
CUresult gl_x_cuStreamQuery(CUstream hStream)
{
	return gl_impl_cuStreamQuery(hStream, 0);
}

GL_EXPORT CUresult gl_x_cuStreamQuery_ptsz(CUstream hStream) __asm__("cuStreamQuery_ptsz");
CUresult gl_x_cuStreamQuery_ptsz(CUstream hStream)
{
	return gl_impl_cuStreamQuery(hStream, 1);
}

static CUresult gl_impl_cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags, int per_thread)
{
	struct gl_a_cuStreamWaitEvent a;
	struct gl_r_cuStreamWaitEvent o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuStreamWaitEvent);
	if (r)
		return r;
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	r = shim_handle_id(GL_H_EVENT, hEvent, &a.hEvent);
	if (r)
		return shim_end(&c, r);
	a.Flags = (__u64)Flags;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) __asm__("cuStreamWaitEvent");
CUresult gl_x_cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
	return gl_impl_cuStreamWaitEvent(hStream, hEvent, Flags, 0);
}

GL_EXPORT CUresult gl_x_cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags) __asm__("cuStreamWaitEvent_ptsz");
CUresult gl_x_cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
	return gl_impl_cuStreamWaitEvent(hStream, hEvent, Flags, 1);
}

static CUresult gl_impl_cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	struct gl_a_cuEventCreate a;
	struct gl_r_cuEventCreate o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;
	struct shim_obj *n_phEvent;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuEventCreate);
	if (r)
		return r;
	if (!phEvent)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	a.Flags = (__u64)Flags;
	n_phEvent = shim_obj_new(GL_H_EVENT);
	if (!n_phEvent)
		return shim_end(&c, CUDA_ERROR_OUT_OF_MEMORY);
	a.phEvent = n_phEvent->id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(n_phEvent);
	} else {
		shim_obj_created(n_phEvent);
		*phEvent = (CUevent)n_phEvent;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuEventCreate(CUevent *phEvent, unsigned int Flags) __asm__("cuEventCreate");
CUresult gl_x_cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	return gl_impl_cuEventCreate(phEvent, Flags);
}

static CUresult gl_impl_cuEventRecord(CUevent hEvent, CUstream hStream, int per_thread)
{
	struct gl_a_cuEventRecord a;
	struct gl_r_cuEventRecord o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuEventRecord);
	if (r)
		return r;
	r = shim_handle_id(GL_H_EVENT, hEvent, &a.hEvent);
	if (r)
		return shim_end(&c, r);
	r = shim_stream_id(hStream, per_thread, &a.hStream);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuEventRecord(CUevent hEvent, CUstream hStream) __asm__("cuEventRecord");
CUresult gl_x_cuEventRecord(CUevent hEvent, CUstream hStream)
{
	return gl_impl_cuEventRecord(hEvent, hStream, 0);
}

GL_EXPORT CUresult gl_x_cuEventRecord_ptsz(CUevent hEvent, CUstream hStream) __asm__("cuEventRecord_ptsz");
CUresult gl_x_cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
	return gl_impl_cuEventRecord(hEvent, hStream, 1);
}

static CUresult gl_impl_cuEventQuery(CUevent hEvent)
{
	struct gl_a_cuEventQuery a;
	struct gl_r_cuEventQuery o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuEventQuery);
	if (r)
		return r;
	r = shim_handle_id(GL_H_EVENT, hEvent, &a.hEvent);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuEventQuery(CUevent hEvent) __asm__("cuEventQuery");
CUresult gl_x_cuEventQuery(CUevent hEvent)
{
	return gl_impl_cuEventQuery(hEvent);
}

static CUresult gl_impl_cuEventSynchronize(CUevent hEvent)
{
	struct gl_a_cuEventSynchronize a;
	struct gl_r_cuEventSynchronize o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuEventSynchronize);
	if (r)
		return r;
	r = shim_handle_id(GL_H_EVENT, hEvent, &a.hEvent);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuEventSynchronize(CUevent hEvent) __asm__("cuEventSynchronize");
CUresult gl_x_cuEventSynchronize(CUevent hEvent)
{
	return gl_impl_cuEventSynchronize(hEvent);
}

static CUresult gl_impl_cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	struct gl_a_cuEventElapsedTime a;
	struct gl_r_cuEventElapsedTime o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuEventElapsedTime);
	if (r)
		return r;
	if (!pMilliseconds)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	r = shim_handle_id(GL_H_EVENT, hStart, &a.hStart);
	if (r)
		return shim_end(&c, r);
	r = shim_handle_id(GL_H_EVENT, hEnd, &a.hEnd);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (!r) {
		*pMilliseconds = (float)o.pMilliseconds;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd) __asm__("cuEventElapsedTime");
CUresult gl_x_cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	return gl_impl_cuEventElapsedTime(pMilliseconds, hStart, hEnd);
}

static CUresult gl_impl_cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	struct gl_a_cuEventElapsedTime_v2 a;
	struct gl_r_cuEventElapsedTime_v2 o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuEventElapsedTime_v2);
	if (r)
		return r;
	if (!pMilliseconds)
		return shim_end(&c, CUDA_ERROR_INVALID_VALUE);
	r = shim_handle_id(GL_H_EVENT, hStart, &a.hStart);
	if (r)
		return shim_end(&c, r);
	r = shim_handle_id(GL_H_EVENT, hEnd, &a.hEnd);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (!r) {
		*pMilliseconds = (float)o.pMilliseconds;
	}
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd) __asm__("cuEventElapsedTime_v2");
CUresult gl_x_cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	return gl_impl_cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

static CUresult gl_impl_cuEventDestroy(CUevent hEvent)
{
	struct gl_a_cuEventDestroy a;
	struct gl_r_cuEventDestroy o;
	struct iovec iov[1];
	struct shim_call c;
	CUresult r;
	struct shim_obj *d_hEvent;

	memset(&a, 0, sizeof(a));
	memset(&o, 0, sizeof(o));
	r = shim_begin(&c, GL_FN_cuEventDestroy);
	if (r)
		return r;
	r = shim_obj_get(GL_H_EVENT, hEvent, &d_hEvent);
	if (r)
		return shim_end(&c, r);
	a.hEvent = d_hEvent->id;
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 0;
	c.out = &o;
	c.out_len = sizeof(o);
	r = shim_call(&c);
	if (!r || !c.waited)
		shim_obj_put(d_hEvent);
	return shim_end(&c, r);
}
GL_EXPORT CUresult gl_x_cuEventDestroy_v2(CUevent hEvent) __asm__("cuEventDestroy_v2");
CUresult gl_x_cuEventDestroy_v2(CUevent hEvent)
{
	return gl_impl_cuEventDestroy(hEvent);
}

/* Exported so that programs link and load; each says once that it is missing. */
GL_EXPORT CUresult gl_x_cuArray3DCreate(void) __asm__("cuArray3DCreate");
CUresult gl_x_cuArray3DCreate(void)
{
	return shim_unsupported(0, "cuArray3DCreate");
}
GL_EXPORT CUresult gl_x_cuArray3DCreate_v2(void) __asm__("cuArray3DCreate_v2");
CUresult gl_x_cuArray3DCreate_v2(void)
{
	return shim_unsupported(1, "cuArray3DCreate_v2");
}
GL_EXPORT CUresult gl_x_cuArray3DGetDescriptor(void) __asm__("cuArray3DGetDescriptor");
CUresult gl_x_cuArray3DGetDescriptor(void)
{
	return shim_unsupported(2, "cuArray3DGetDescriptor");
}
GL_EXPORT CUresult gl_x_cuArray3DGetDescriptor_v2(void) __asm__("cuArray3DGetDescriptor_v2");
CUresult gl_x_cuArray3DGetDescriptor_v2(void)
{
	return shim_unsupported(3, "cuArray3DGetDescriptor_v2");
}
GL_EXPORT CUresult gl_x_cuArrayCreate(void) __asm__("cuArrayCreate");
CUresult gl_x_cuArrayCreate(void)
{
	return shim_unsupported(4, "cuArrayCreate");
}
GL_EXPORT CUresult gl_x_cuArrayCreate_v2(void) __asm__("cuArrayCreate_v2");
CUresult gl_x_cuArrayCreate_v2(void)
{
	return shim_unsupported(5, "cuArrayCreate_v2");
}
GL_EXPORT CUresult gl_x_cuArrayDestroy(void) __asm__("cuArrayDestroy");
CUresult gl_x_cuArrayDestroy(void)
{
	return shim_unsupported(6, "cuArrayDestroy");
}
GL_EXPORT CUresult gl_x_cuArrayGetDescriptor(void) __asm__("cuArrayGetDescriptor");
CUresult gl_x_cuArrayGetDescriptor(void)
{
	return shim_unsupported(7, "cuArrayGetDescriptor");
}
GL_EXPORT CUresult gl_x_cuArrayGetDescriptor_v2(void) __asm__("cuArrayGetDescriptor_v2");
CUresult gl_x_cuArrayGetDescriptor_v2(void)
{
	return shim_unsupported(8, "cuArrayGetDescriptor_v2");
}
GL_EXPORT CUresult gl_x_cuArrayGetMemoryRequirements(void) __asm__("cuArrayGetMemoryRequirements");
CUresult gl_x_cuArrayGetMemoryRequirements(void)
{
	return shim_unsupported(9, "cuArrayGetMemoryRequirements");
}
GL_EXPORT CUresult gl_x_cuArrayGetPlane(void) __asm__("cuArrayGetPlane");
CUresult gl_x_cuArrayGetPlane(void)
{
	return shim_unsupported(10, "cuArrayGetPlane");
}
GL_EXPORT CUresult gl_x_cuArrayGetSparseProperties(void) __asm__("cuArrayGetSparseProperties");
CUresult gl_x_cuArrayGetSparseProperties(void)
{
	return shim_unsupported(11, "cuArrayGetSparseProperties");
}
GL_EXPORT CUresult gl_x_cuCheckpointProcessCheckpoint(void) __asm__("cuCheckpointProcessCheckpoint");
CUresult gl_x_cuCheckpointProcessCheckpoint(void)
{
	return shim_unsupported(12, "cuCheckpointProcessCheckpoint");
}
GL_EXPORT CUresult gl_x_cuCheckpointProcessGetRestoreThreadId(void) __asm__("cuCheckpointProcessGetRestoreThreadId");
CUresult gl_x_cuCheckpointProcessGetRestoreThreadId(void)
{
	return shim_unsupported(13, "cuCheckpointProcessGetRestoreThreadId");
}
GL_EXPORT CUresult gl_x_cuCheckpointProcessGetState(void) __asm__("cuCheckpointProcessGetState");
CUresult gl_x_cuCheckpointProcessGetState(void)
{
	return shim_unsupported(14, "cuCheckpointProcessGetState");
}
GL_EXPORT CUresult gl_x_cuCheckpointProcessLock(void) __asm__("cuCheckpointProcessLock");
CUresult gl_x_cuCheckpointProcessLock(void)
{
	return shim_unsupported(15, "cuCheckpointProcessLock");
}
GL_EXPORT CUresult gl_x_cuCheckpointProcessRestore(void) __asm__("cuCheckpointProcessRestore");
CUresult gl_x_cuCheckpointProcessRestore(void)
{
	return shim_unsupported(16, "cuCheckpointProcessRestore");
}
GL_EXPORT CUresult gl_x_cuCheckpointProcessUnlock(void) __asm__("cuCheckpointProcessUnlock");
CUresult gl_x_cuCheckpointProcessUnlock(void)
{
	return shim_unsupported(17, "cuCheckpointProcessUnlock");
}
GL_EXPORT CUresult gl_x_cuCoredumpGetAttribute(void) __asm__("cuCoredumpGetAttribute");
CUresult gl_x_cuCoredumpGetAttribute(void)
{
	return shim_unsupported(18, "cuCoredumpGetAttribute");
}
GL_EXPORT CUresult gl_x_cuCoredumpGetAttributeGlobal(void) __asm__("cuCoredumpGetAttributeGlobal");
CUresult gl_x_cuCoredumpGetAttributeGlobal(void)
{
	return shim_unsupported(19, "cuCoredumpGetAttributeGlobal");
}
GL_EXPORT CUresult gl_x_cuCoredumpSetAttribute(void) __asm__("cuCoredumpSetAttribute");
CUresult gl_x_cuCoredumpSetAttribute(void)
{
	return shim_unsupported(20, "cuCoredumpSetAttribute");
}
GL_EXPORT CUresult gl_x_cuCoredumpSetAttributeGlobal(void) __asm__("cuCoredumpSetAttributeGlobal");
CUresult gl_x_cuCoredumpSetAttributeGlobal(void)
{
	return shim_unsupported(21, "cuCoredumpSetAttributeGlobal");
}
GL_EXPORT CUresult gl_x_cuCtxAttach(void) __asm__("cuCtxAttach");
CUresult gl_x_cuCtxAttach(void)
{
	return shim_unsupported(22, "cuCtxAttach");
}
GL_EXPORT CUresult gl_x_cuCtxCreate(void) __asm__("cuCtxCreate");
CUresult gl_x_cuCtxCreate(void)
{
	return shim_unsupported(23, "cuCtxCreate");
}
GL_EXPORT CUresult gl_x_cuCtxCreate_v3(void) __asm__("cuCtxCreate_v3");
CUresult gl_x_cuCtxCreate_v3(void)
{
	return shim_unsupported(24, "cuCtxCreate_v3");
}
GL_EXPORT CUresult gl_x_cuCtxDestroy(void) __asm__("cuCtxDestroy");
CUresult gl_x_cuCtxDestroy(void)
{
	return shim_unsupported(25, "cuCtxDestroy");
}
GL_EXPORT CUresult gl_x_cuCtxDetach(void) __asm__("cuCtxDetach");
CUresult gl_x_cuCtxDetach(void)
{
	return shim_unsupported(26, "cuCtxDetach");
}
GL_EXPORT CUresult gl_x_cuCtxDisablePeerAccess(void) __asm__("cuCtxDisablePeerAccess");
CUresult gl_x_cuCtxDisablePeerAccess(void)
{
	return shim_unsupported(27, "cuCtxDisablePeerAccess");
}
GL_EXPORT CUresult gl_x_cuCtxEnablePeerAccess(void) __asm__("cuCtxEnablePeerAccess");
CUresult gl_x_cuCtxEnablePeerAccess(void)
{
	return shim_unsupported(28, "cuCtxEnablePeerAccess");
}
GL_EXPORT CUresult gl_x_cuCtxFromGreenCtx(void) __asm__("cuCtxFromGreenCtx");
CUresult gl_x_cuCtxFromGreenCtx(void)
{
	return shim_unsupported(29, "cuCtxFromGreenCtx");
}
GL_EXPORT CUresult gl_x_cuCtxGetCacheConfig(void) __asm__("cuCtxGetCacheConfig");
CUresult gl_x_cuCtxGetCacheConfig(void)
{
	return shim_unsupported(30, "cuCtxGetCacheConfig");
}
GL_EXPORT CUresult gl_x_cuCtxGetDevResource(void) __asm__("cuCtxGetDevResource");
CUresult gl_x_cuCtxGetDevResource(void)
{
	return shim_unsupported(31, "cuCtxGetDevResource");
}
GL_EXPORT CUresult gl_x_cuCtxGetExecAffinity(void) __asm__("cuCtxGetExecAffinity");
CUresult gl_x_cuCtxGetExecAffinity(void)
{
	return shim_unsupported(32, "cuCtxGetExecAffinity");
}
GL_EXPORT CUresult gl_x_cuCtxGetSharedMemConfig(void) __asm__("cuCtxGetSharedMemConfig");
CUresult gl_x_cuCtxGetSharedMemConfig(void)
{
	return shim_unsupported(33, "cuCtxGetSharedMemConfig");
}
GL_EXPORT CUresult gl_x_cuCtxPopCurrent(void) __asm__("cuCtxPopCurrent");
CUresult gl_x_cuCtxPopCurrent(void)
{
	return shim_unsupported(34, "cuCtxPopCurrent");
}
GL_EXPORT CUresult gl_x_cuCtxPushCurrent(void) __asm__("cuCtxPushCurrent");
CUresult gl_x_cuCtxPushCurrent(void)
{
	return shim_unsupported(35, "cuCtxPushCurrent");
}
GL_EXPORT CUresult gl_x_cuCtxRecordEvent(void) __asm__("cuCtxRecordEvent");
CUresult gl_x_cuCtxRecordEvent(void)
{
	return shim_unsupported(36, "cuCtxRecordEvent");
}
GL_EXPORT CUresult gl_x_cuCtxResetPersistingL2Cache(void) __asm__("cuCtxResetPersistingL2Cache");
CUresult gl_x_cuCtxResetPersistingL2Cache(void)
{
	return shim_unsupported(37, "cuCtxResetPersistingL2Cache");
}
GL_EXPORT CUresult gl_x_cuCtxSetCacheConfig(void) __asm__("cuCtxSetCacheConfig");
CUresult gl_x_cuCtxSetCacheConfig(void)
{
	return shim_unsupported(38, "cuCtxSetCacheConfig");
}
GL_EXPORT CUresult gl_x_cuCtxSetFlags(void) __asm__("cuCtxSetFlags");
CUresult gl_x_cuCtxSetFlags(void)
{
	return shim_unsupported(39, "cuCtxSetFlags");
}
GL_EXPORT CUresult gl_x_cuCtxSetSharedMemConfig(void) __asm__("cuCtxSetSharedMemConfig");
CUresult gl_x_cuCtxSetSharedMemConfig(void)
{
	return shim_unsupported(40, "cuCtxSetSharedMemConfig");
}
GL_EXPORT CUresult gl_x_cuCtxWaitEvent(void) __asm__("cuCtxWaitEvent");
CUresult gl_x_cuCtxWaitEvent(void)
{
	return shim_unsupported(41, "cuCtxWaitEvent");
}
GL_EXPORT CUresult gl_x_cuDestroyExternalMemory(void) __asm__("cuDestroyExternalMemory");
CUresult gl_x_cuDestroyExternalMemory(void)
{
	return shim_unsupported(42, "cuDestroyExternalMemory");
}
GL_EXPORT CUresult gl_x_cuDestroyExternalSemaphore(void) __asm__("cuDestroyExternalSemaphore");
CUresult gl_x_cuDestroyExternalSemaphore(void)
{
	return shim_unsupported(43, "cuDestroyExternalSemaphore");
}
GL_EXPORT CUresult gl_x_cuDevResourceGenerateDesc(void) __asm__("cuDevResourceGenerateDesc");
CUresult gl_x_cuDevResourceGenerateDesc(void)
{
	return shim_unsupported(44, "cuDevResourceGenerateDesc");
}
GL_EXPORT CUresult gl_x_cuDevSmResourceSplitByCount(void) __asm__("cuDevSmResourceSplitByCount");
CUresult gl_x_cuDevSmResourceSplitByCount(void)
{
	return shim_unsupported(45, "cuDevSmResourceSplitByCount");
}
GL_EXPORT CUresult gl_x_cuDeviceCanAccessPeer(void) __asm__("cuDeviceCanAccessPeer");
CUresult gl_x_cuDeviceCanAccessPeer(void)
{
	return shim_unsupported(46, "cuDeviceCanAccessPeer");
}
GL_EXPORT CUresult gl_x_cuDeviceGetByPCIBusId(void) __asm__("cuDeviceGetByPCIBusId");
CUresult gl_x_cuDeviceGetByPCIBusId(void)
{
	return shim_unsupported(47, "cuDeviceGetByPCIBusId");
}
GL_EXPORT CUresult gl_x_cuDeviceGetDefaultMemPool(void) __asm__("cuDeviceGetDefaultMemPool");
CUresult gl_x_cuDeviceGetDefaultMemPool(void)
{
	return shim_unsupported(48, "cuDeviceGetDefaultMemPool");
}
GL_EXPORT CUresult gl_x_cuDeviceGetDevResource(void) __asm__("cuDeviceGetDevResource");
CUresult gl_x_cuDeviceGetDevResource(void)
{
	return shim_unsupported(49, "cuDeviceGetDevResource");
}
GL_EXPORT CUresult gl_x_cuDeviceGetExecAffinitySupport(void) __asm__("cuDeviceGetExecAffinitySupport");
CUresult gl_x_cuDeviceGetExecAffinitySupport(void)
{
	return shim_unsupported(50, "cuDeviceGetExecAffinitySupport");
}
GL_EXPORT CUresult gl_x_cuDeviceGetGraphMemAttribute(void) __asm__("cuDeviceGetGraphMemAttribute");
CUresult gl_x_cuDeviceGetGraphMemAttribute(void)
{
	return shim_unsupported(51, "cuDeviceGetGraphMemAttribute");
}
GL_EXPORT CUresult gl_x_cuDeviceGetHostAtomicCapabilities(void) __asm__("cuDeviceGetHostAtomicCapabilities");
CUresult gl_x_cuDeviceGetHostAtomicCapabilities(void)
{
	return shim_unsupported(52, "cuDeviceGetHostAtomicCapabilities");
}
GL_EXPORT CUresult gl_x_cuDeviceGetLuid(void) __asm__("cuDeviceGetLuid");
CUresult gl_x_cuDeviceGetLuid(void)
{
	return shim_unsupported(53, "cuDeviceGetLuid");
}
GL_EXPORT CUresult gl_x_cuDeviceGetMemPool(void) __asm__("cuDeviceGetMemPool");
CUresult gl_x_cuDeviceGetMemPool(void)
{
	return shim_unsupported(54, "cuDeviceGetMemPool");
}
GL_EXPORT CUresult gl_x_cuDeviceGetNvSciSyncAttributes(void) __asm__("cuDeviceGetNvSciSyncAttributes");
CUresult gl_x_cuDeviceGetNvSciSyncAttributes(void)
{
	return shim_unsupported(55, "cuDeviceGetNvSciSyncAttributes");
}
GL_EXPORT CUresult gl_x_cuDeviceGetP2PAtomicCapabilities(void) __asm__("cuDeviceGetP2PAtomicCapabilities");
CUresult gl_x_cuDeviceGetP2PAtomicCapabilities(void)
{
	return shim_unsupported(56, "cuDeviceGetP2PAtomicCapabilities");
}
GL_EXPORT CUresult gl_x_cuDeviceGetP2PAttribute(void) __asm__("cuDeviceGetP2PAttribute");
CUresult gl_x_cuDeviceGetP2PAttribute(void)
{
	return shim_unsupported(57, "cuDeviceGetP2PAttribute");
}
GL_EXPORT CUresult gl_x_cuDeviceGetTexture1DLinearMaxWidth(void) __asm__("cuDeviceGetTexture1DLinearMaxWidth");
CUresult gl_x_cuDeviceGetTexture1DLinearMaxWidth(void)
{
	return shim_unsupported(58, "cuDeviceGetTexture1DLinearMaxWidth");
}
GL_EXPORT CUresult gl_x_cuDeviceGraphMemTrim(void) __asm__("cuDeviceGraphMemTrim");
CUresult gl_x_cuDeviceGraphMemTrim(void)
{
	return shim_unsupported(59, "cuDeviceGraphMemTrim");
}
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxRelease(void) __asm__("cuDevicePrimaryCtxRelease");
CUresult gl_x_cuDevicePrimaryCtxRelease(void)
{
	return shim_unsupported(60, "cuDevicePrimaryCtxRelease");
}
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxReset(void) __asm__("cuDevicePrimaryCtxReset");
CUresult gl_x_cuDevicePrimaryCtxReset(void)
{
	return shim_unsupported(61, "cuDevicePrimaryCtxReset");
}
GL_EXPORT CUresult gl_x_cuDevicePrimaryCtxSetFlags(void) __asm__("cuDevicePrimaryCtxSetFlags");
CUresult gl_x_cuDevicePrimaryCtxSetFlags(void)
{
	return shim_unsupported(62, "cuDevicePrimaryCtxSetFlags");
}
GL_EXPORT CUresult gl_x_cuDeviceRegisterAsyncNotification(void) __asm__("cuDeviceRegisterAsyncNotification");
CUresult gl_x_cuDeviceRegisterAsyncNotification(void)
{
	return shim_unsupported(63, "cuDeviceRegisterAsyncNotification");
}
GL_EXPORT CUresult gl_x_cuDeviceSetGraphMemAttribute(void) __asm__("cuDeviceSetGraphMemAttribute");
CUresult gl_x_cuDeviceSetGraphMemAttribute(void)
{
	return shim_unsupported(64, "cuDeviceSetGraphMemAttribute");
}
GL_EXPORT CUresult gl_x_cuDeviceSetMemPool(void) __asm__("cuDeviceSetMemPool");
CUresult gl_x_cuDeviceSetMemPool(void)
{
	return shim_unsupported(65, "cuDeviceSetMemPool");
}
GL_EXPORT CUresult gl_x_cuDeviceTotalMem(void) __asm__("cuDeviceTotalMem");
CUresult gl_x_cuDeviceTotalMem(void)
{
	return shim_unsupported(66, "cuDeviceTotalMem");
}
GL_EXPORT CUresult gl_x_cuDeviceUnregisterAsyncNotification(void) __asm__("cuDeviceUnregisterAsyncNotification");
CUresult gl_x_cuDeviceUnregisterAsyncNotification(void)
{
	return shim_unsupported(67, "cuDeviceUnregisterAsyncNotification");
}
GL_EXPORT CUresult gl_x_cuEventDestroy(void) __asm__("cuEventDestroy");
CUresult gl_x_cuEventDestroy(void)
{
	return shim_unsupported(68, "cuEventDestroy");
}
GL_EXPORT CUresult gl_x_cuEventRecordWithFlags(void) __asm__("cuEventRecordWithFlags");
CUresult gl_x_cuEventRecordWithFlags(void)
{
	return shim_unsupported(69, "cuEventRecordWithFlags");
}
GL_EXPORT CUresult gl_x_cuEventRecordWithFlags_ptsz(void) __asm__("cuEventRecordWithFlags_ptsz");
CUresult gl_x_cuEventRecordWithFlags_ptsz(void)
{
	return shim_unsupported(70, "cuEventRecordWithFlags_ptsz");
}
GL_EXPORT CUresult gl_x_cuExternalMemoryGetMappedBuffer(void) __asm__("cuExternalMemoryGetMappedBuffer");
CUresult gl_x_cuExternalMemoryGetMappedBuffer(void)
{
	return shim_unsupported(71, "cuExternalMemoryGetMappedBuffer");
}
GL_EXPORT CUresult gl_x_cuExternalMemoryGetMappedMipmappedArray(void) __asm__("cuExternalMemoryGetMappedMipmappedArray");
CUresult gl_x_cuExternalMemoryGetMappedMipmappedArray(void)
{
	return shim_unsupported(72, "cuExternalMemoryGetMappedMipmappedArray");
}
GL_EXPORT CUresult gl_x_cuFlushGPUDirectRDMAWrites(void) __asm__("cuFlushGPUDirectRDMAWrites");
CUresult gl_x_cuFlushGPUDirectRDMAWrites(void)
{
	return shim_unsupported(73, "cuFlushGPUDirectRDMAWrites");
}
GL_EXPORT CUresult gl_x_cuFuncGetModule(void) __asm__("cuFuncGetModule");
CUresult gl_x_cuFuncGetModule(void)
{
	return shim_unsupported(74, "cuFuncGetModule");
}
GL_EXPORT CUresult gl_x_cuFuncGetName(void) __asm__("cuFuncGetName");
CUresult gl_x_cuFuncGetName(void)
{
	return shim_unsupported(75, "cuFuncGetName");
}
GL_EXPORT CUresult gl_x_cuFuncIsLoaded(void) __asm__("cuFuncIsLoaded");
CUresult gl_x_cuFuncIsLoaded(void)
{
	return shim_unsupported(76, "cuFuncIsLoaded");
}
GL_EXPORT CUresult gl_x_cuFuncLoad(void) __asm__("cuFuncLoad");
CUresult gl_x_cuFuncLoad(void)
{
	return shim_unsupported(77, "cuFuncLoad");
}
GL_EXPORT CUresult gl_x_cuFuncSetAttribute(void) __asm__("cuFuncSetAttribute");
CUresult gl_x_cuFuncSetAttribute(void)
{
	return shim_unsupported(78, "cuFuncSetAttribute");
}
GL_EXPORT CUresult gl_x_cuFuncSetBlockShape(void) __asm__("cuFuncSetBlockShape");
CUresult gl_x_cuFuncSetBlockShape(void)
{
	return shim_unsupported(79, "cuFuncSetBlockShape");
}
GL_EXPORT CUresult gl_x_cuFuncSetCacheConfig(void) __asm__("cuFuncSetCacheConfig");
CUresult gl_x_cuFuncSetCacheConfig(void)
{
	return shim_unsupported(80, "cuFuncSetCacheConfig");
}
GL_EXPORT CUresult gl_x_cuFuncSetSharedMemConfig(void) __asm__("cuFuncSetSharedMemConfig");
CUresult gl_x_cuFuncSetSharedMemConfig(void)
{
	return shim_unsupported(81, "cuFuncSetSharedMemConfig");
}
GL_EXPORT CUresult gl_x_cuFuncSetSharedSize(void) __asm__("cuFuncSetSharedSize");
CUresult gl_x_cuFuncSetSharedSize(void)
{
	return shim_unsupported(82, "cuFuncSetSharedSize");
}
GL_EXPORT CUresult gl_x_cuGraphAddBatchMemOpNode(void) __asm__("cuGraphAddBatchMemOpNode");
CUresult gl_x_cuGraphAddBatchMemOpNode(void)
{
	return shim_unsupported(83, "cuGraphAddBatchMemOpNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddChildGraphNode(void) __asm__("cuGraphAddChildGraphNode");
CUresult gl_x_cuGraphAddChildGraphNode(void)
{
	return shim_unsupported(84, "cuGraphAddChildGraphNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddDependencies(void) __asm__("cuGraphAddDependencies");
CUresult gl_x_cuGraphAddDependencies(void)
{
	return shim_unsupported(85, "cuGraphAddDependencies");
}
GL_EXPORT CUresult gl_x_cuGraphAddDependencies_v2(void) __asm__("cuGraphAddDependencies_v2");
CUresult gl_x_cuGraphAddDependencies_v2(void)
{
	return shim_unsupported(86, "cuGraphAddDependencies_v2");
}
GL_EXPORT CUresult gl_x_cuGraphAddEmptyNode(void) __asm__("cuGraphAddEmptyNode");
CUresult gl_x_cuGraphAddEmptyNode(void)
{
	return shim_unsupported(87, "cuGraphAddEmptyNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddEventRecordNode(void) __asm__("cuGraphAddEventRecordNode");
CUresult gl_x_cuGraphAddEventRecordNode(void)
{
	return shim_unsupported(88, "cuGraphAddEventRecordNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddEventWaitNode(void) __asm__("cuGraphAddEventWaitNode");
CUresult gl_x_cuGraphAddEventWaitNode(void)
{
	return shim_unsupported(89, "cuGraphAddEventWaitNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddExternalSemaphoresSignalNode(void) __asm__("cuGraphAddExternalSemaphoresSignalNode");
CUresult gl_x_cuGraphAddExternalSemaphoresSignalNode(void)
{
	return shim_unsupported(90, "cuGraphAddExternalSemaphoresSignalNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddExternalSemaphoresWaitNode(void) __asm__("cuGraphAddExternalSemaphoresWaitNode");
CUresult gl_x_cuGraphAddExternalSemaphoresWaitNode(void)
{
	return shim_unsupported(91, "cuGraphAddExternalSemaphoresWaitNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddHostNode(void) __asm__("cuGraphAddHostNode");
CUresult gl_x_cuGraphAddHostNode(void)
{
	return shim_unsupported(92, "cuGraphAddHostNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddKernelNode(void) __asm__("cuGraphAddKernelNode");
CUresult gl_x_cuGraphAddKernelNode(void)
{
	return shim_unsupported(93, "cuGraphAddKernelNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddKernelNode_v2(void) __asm__("cuGraphAddKernelNode_v2");
CUresult gl_x_cuGraphAddKernelNode_v2(void)
{
	return shim_unsupported(94, "cuGraphAddKernelNode_v2");
}
GL_EXPORT CUresult gl_x_cuGraphAddMemAllocNode(void) __asm__("cuGraphAddMemAllocNode");
CUresult gl_x_cuGraphAddMemAllocNode(void)
{
	return shim_unsupported(95, "cuGraphAddMemAllocNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddMemFreeNode(void) __asm__("cuGraphAddMemFreeNode");
CUresult gl_x_cuGraphAddMemFreeNode(void)
{
	return shim_unsupported(96, "cuGraphAddMemFreeNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddMemcpyNode(void) __asm__("cuGraphAddMemcpyNode");
CUresult gl_x_cuGraphAddMemcpyNode(void)
{
	return shim_unsupported(97, "cuGraphAddMemcpyNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddMemsetNode(void) __asm__("cuGraphAddMemsetNode");
CUresult gl_x_cuGraphAddMemsetNode(void)
{
	return shim_unsupported(98, "cuGraphAddMemsetNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddNode(void) __asm__("cuGraphAddNode");
CUresult gl_x_cuGraphAddNode(void)
{
	return shim_unsupported(99, "cuGraphAddNode");
}
GL_EXPORT CUresult gl_x_cuGraphAddNode_v2(void) __asm__("cuGraphAddNode_v2");
CUresult gl_x_cuGraphAddNode_v2(void)
{
	return shim_unsupported(100, "cuGraphAddNode_v2");
}
GL_EXPORT CUresult gl_x_cuGraphBatchMemOpNodeGetParams(void) __asm__("cuGraphBatchMemOpNodeGetParams");
CUresult gl_x_cuGraphBatchMemOpNodeGetParams(void)
{
	return shim_unsupported(101, "cuGraphBatchMemOpNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphBatchMemOpNodeSetParams(void) __asm__("cuGraphBatchMemOpNodeSetParams");
CUresult gl_x_cuGraphBatchMemOpNodeSetParams(void)
{
	return shim_unsupported(102, "cuGraphBatchMemOpNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphChildGraphNodeGetGraph(void) __asm__("cuGraphChildGraphNodeGetGraph");
CUresult gl_x_cuGraphChildGraphNodeGetGraph(void)
{
	return shim_unsupported(103, "cuGraphChildGraphNodeGetGraph");
}
GL_EXPORT CUresult gl_x_cuGraphClone(void) __asm__("cuGraphClone");
CUresult gl_x_cuGraphClone(void)
{
	return shim_unsupported(104, "cuGraphClone");
}
GL_EXPORT CUresult gl_x_cuGraphConditionalHandleCreate(void) __asm__("cuGraphConditionalHandleCreate");
CUresult gl_x_cuGraphConditionalHandleCreate(void)
{
	return shim_unsupported(105, "cuGraphConditionalHandleCreate");
}
GL_EXPORT CUresult gl_x_cuGraphCreate(void) __asm__("cuGraphCreate");
CUresult gl_x_cuGraphCreate(void)
{
	return shim_unsupported(106, "cuGraphCreate");
}
GL_EXPORT CUresult gl_x_cuGraphDebugDotPrint(void) __asm__("cuGraphDebugDotPrint");
CUresult gl_x_cuGraphDebugDotPrint(void)
{
	return shim_unsupported(107, "cuGraphDebugDotPrint");
}
GL_EXPORT CUresult gl_x_cuGraphDestroy(void) __asm__("cuGraphDestroy");
CUresult gl_x_cuGraphDestroy(void)
{
	return shim_unsupported(108, "cuGraphDestroy");
}
GL_EXPORT CUresult gl_x_cuGraphDestroyNode(void) __asm__("cuGraphDestroyNode");
CUresult gl_x_cuGraphDestroyNode(void)
{
	return shim_unsupported(109, "cuGraphDestroyNode");
}
GL_EXPORT CUresult gl_x_cuGraphEventRecordNodeGetEvent(void) __asm__("cuGraphEventRecordNodeGetEvent");
CUresult gl_x_cuGraphEventRecordNodeGetEvent(void)
{
	return shim_unsupported(110, "cuGraphEventRecordNodeGetEvent");
}
GL_EXPORT CUresult gl_x_cuGraphEventRecordNodeSetEvent(void) __asm__("cuGraphEventRecordNodeSetEvent");
CUresult gl_x_cuGraphEventRecordNodeSetEvent(void)
{
	return shim_unsupported(111, "cuGraphEventRecordNodeSetEvent");
}
GL_EXPORT CUresult gl_x_cuGraphEventWaitNodeGetEvent(void) __asm__("cuGraphEventWaitNodeGetEvent");
CUresult gl_x_cuGraphEventWaitNodeGetEvent(void)
{
	return shim_unsupported(112, "cuGraphEventWaitNodeGetEvent");
}
GL_EXPORT CUresult gl_x_cuGraphEventWaitNodeSetEvent(void) __asm__("cuGraphEventWaitNodeSetEvent");
CUresult gl_x_cuGraphEventWaitNodeSetEvent(void)
{
	return shim_unsupported(113, "cuGraphEventWaitNodeSetEvent");
}
GL_EXPORT CUresult gl_x_cuGraphExecBatchMemOpNodeSetParams(void) __asm__("cuGraphExecBatchMemOpNodeSetParams");
CUresult gl_x_cuGraphExecBatchMemOpNodeSetParams(void)
{
	return shim_unsupported(114, "cuGraphExecBatchMemOpNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecChildGraphNodeSetParams(void) __asm__("cuGraphExecChildGraphNodeSetParams");
CUresult gl_x_cuGraphExecChildGraphNodeSetParams(void)
{
	return shim_unsupported(115, "cuGraphExecChildGraphNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecDestroy(void) __asm__("cuGraphExecDestroy");
CUresult gl_x_cuGraphExecDestroy(void)
{
	return shim_unsupported(116, "cuGraphExecDestroy");
}
GL_EXPORT CUresult gl_x_cuGraphExecEventRecordNodeSetEvent(void) __asm__("cuGraphExecEventRecordNodeSetEvent");
CUresult gl_x_cuGraphExecEventRecordNodeSetEvent(void)
{
	return shim_unsupported(117, "cuGraphExecEventRecordNodeSetEvent");
}
GL_EXPORT CUresult gl_x_cuGraphExecEventWaitNodeSetEvent(void) __asm__("cuGraphExecEventWaitNodeSetEvent");
CUresult gl_x_cuGraphExecEventWaitNodeSetEvent(void)
{
	return shim_unsupported(118, "cuGraphExecEventWaitNodeSetEvent");
}
GL_EXPORT CUresult gl_x_cuGraphExecExternalSemaphoresSignalNodeSetParams(void) __asm__("cuGraphExecExternalSemaphoresSignalNodeSetParams");
CUresult gl_x_cuGraphExecExternalSemaphoresSignalNodeSetParams(void)
{
	return shim_unsupported(119, "cuGraphExecExternalSemaphoresSignalNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecExternalSemaphoresWaitNodeSetParams(void) __asm__("cuGraphExecExternalSemaphoresWaitNodeSetParams");
CUresult gl_x_cuGraphExecExternalSemaphoresWaitNodeSetParams(void)
{
	return shim_unsupported(120, "cuGraphExecExternalSemaphoresWaitNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecGetFlags(void) __asm__("cuGraphExecGetFlags");
CUresult gl_x_cuGraphExecGetFlags(void)
{
	return shim_unsupported(121, "cuGraphExecGetFlags");
}
GL_EXPORT CUresult gl_x_cuGraphExecHostNodeSetParams(void) __asm__("cuGraphExecHostNodeSetParams");
CUresult gl_x_cuGraphExecHostNodeSetParams(void)
{
	return shim_unsupported(122, "cuGraphExecHostNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecKernelNodeSetParams(void) __asm__("cuGraphExecKernelNodeSetParams");
CUresult gl_x_cuGraphExecKernelNodeSetParams(void)
{
	return shim_unsupported(123, "cuGraphExecKernelNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecKernelNodeSetParams_v2(void) __asm__("cuGraphExecKernelNodeSetParams_v2");
CUresult gl_x_cuGraphExecKernelNodeSetParams_v2(void)
{
	return shim_unsupported(124, "cuGraphExecKernelNodeSetParams_v2");
}
GL_EXPORT CUresult gl_x_cuGraphExecMemcpyNodeSetParams(void) __asm__("cuGraphExecMemcpyNodeSetParams");
CUresult gl_x_cuGraphExecMemcpyNodeSetParams(void)
{
	return shim_unsupported(125, "cuGraphExecMemcpyNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecMemsetNodeSetParams(void) __asm__("cuGraphExecMemsetNodeSetParams");
CUresult gl_x_cuGraphExecMemsetNodeSetParams(void)
{
	return shim_unsupported(126, "cuGraphExecMemsetNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecNodeSetParams(void) __asm__("cuGraphExecNodeSetParams");
CUresult gl_x_cuGraphExecNodeSetParams(void)
{
	return shim_unsupported(127, "cuGraphExecNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExecUpdate(void) __asm__("cuGraphExecUpdate");
CUresult gl_x_cuGraphExecUpdate(void)
{
	return shim_unsupported(128, "cuGraphExecUpdate");
}
GL_EXPORT CUresult gl_x_cuGraphExecUpdate_v2(void) __asm__("cuGraphExecUpdate_v2");
CUresult gl_x_cuGraphExecUpdate_v2(void)
{
	return shim_unsupported(129, "cuGraphExecUpdate_v2");
}
GL_EXPORT CUresult gl_x_cuGraphExternalSemaphoresSignalNodeGetParams(void) __asm__("cuGraphExternalSemaphoresSignalNodeGetParams");
CUresult gl_x_cuGraphExternalSemaphoresSignalNodeGetParams(void)
{
	return shim_unsupported(130, "cuGraphExternalSemaphoresSignalNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExternalSemaphoresSignalNodeSetParams(void) __asm__("cuGraphExternalSemaphoresSignalNodeSetParams");
CUresult gl_x_cuGraphExternalSemaphoresSignalNodeSetParams(void)
{
	return shim_unsupported(131, "cuGraphExternalSemaphoresSignalNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExternalSemaphoresWaitNodeGetParams(void) __asm__("cuGraphExternalSemaphoresWaitNodeGetParams");
CUresult gl_x_cuGraphExternalSemaphoresWaitNodeGetParams(void)
{
	return shim_unsupported(132, "cuGraphExternalSemaphoresWaitNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphExternalSemaphoresWaitNodeSetParams(void) __asm__("cuGraphExternalSemaphoresWaitNodeSetParams");
CUresult gl_x_cuGraphExternalSemaphoresWaitNodeSetParams(void)
{
	return shim_unsupported(133, "cuGraphExternalSemaphoresWaitNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphGetEdges(void) __asm__("cuGraphGetEdges");
CUresult gl_x_cuGraphGetEdges(void)
{
	return shim_unsupported(134, "cuGraphGetEdges");
}
GL_EXPORT CUresult gl_x_cuGraphGetEdges_v2(void) __asm__("cuGraphGetEdges_v2");
CUresult gl_x_cuGraphGetEdges_v2(void)
{
	return shim_unsupported(135, "cuGraphGetEdges_v2");
}
GL_EXPORT CUresult gl_x_cuGraphGetNodes(void) __asm__("cuGraphGetNodes");
CUresult gl_x_cuGraphGetNodes(void)
{
	return shim_unsupported(136, "cuGraphGetNodes");
}
GL_EXPORT CUresult gl_x_cuGraphGetRootNodes(void) __asm__("cuGraphGetRootNodes");
CUresult gl_x_cuGraphGetRootNodes(void)
{
	return shim_unsupported(137, "cuGraphGetRootNodes");
}
GL_EXPORT CUresult gl_x_cuGraphHostNodeGetParams(void) __asm__("cuGraphHostNodeGetParams");
CUresult gl_x_cuGraphHostNodeGetParams(void)
{
	return shim_unsupported(138, "cuGraphHostNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphHostNodeSetParams(void) __asm__("cuGraphHostNodeSetParams");
CUresult gl_x_cuGraphHostNodeSetParams(void)
{
	return shim_unsupported(139, "cuGraphHostNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphInstantiate(void) __asm__("cuGraphInstantiate");
CUresult gl_x_cuGraphInstantiate(void)
{
	return shim_unsupported(140, "cuGraphInstantiate");
}
GL_EXPORT CUresult gl_x_cuGraphInstantiateWithFlags(void) __asm__("cuGraphInstantiateWithFlags");
CUresult gl_x_cuGraphInstantiateWithFlags(void)
{
	return shim_unsupported(141, "cuGraphInstantiateWithFlags");
}
GL_EXPORT CUresult gl_x_cuGraphInstantiateWithParams(void) __asm__("cuGraphInstantiateWithParams");
CUresult gl_x_cuGraphInstantiateWithParams(void)
{
	return shim_unsupported(142, "cuGraphInstantiateWithParams");
}
GL_EXPORT CUresult gl_x_cuGraphInstantiateWithParams_ptsz(void) __asm__("cuGraphInstantiateWithParams_ptsz");
CUresult gl_x_cuGraphInstantiateWithParams_ptsz(void)
{
	return shim_unsupported(143, "cuGraphInstantiateWithParams_ptsz");
}
GL_EXPORT CUresult gl_x_cuGraphInstantiate_v2(void) __asm__("cuGraphInstantiate_v2");
CUresult gl_x_cuGraphInstantiate_v2(void)
{
	return shim_unsupported(144, "cuGraphInstantiate_v2");
}
GL_EXPORT CUresult gl_x_cuGraphKernelNodeCopyAttributes(void) __asm__("cuGraphKernelNodeCopyAttributes");
CUresult gl_x_cuGraphKernelNodeCopyAttributes(void)
{
	return shim_unsupported(145, "cuGraphKernelNodeCopyAttributes");
}
GL_EXPORT CUresult gl_x_cuGraphKernelNodeGetAttribute(void) __asm__("cuGraphKernelNodeGetAttribute");
CUresult gl_x_cuGraphKernelNodeGetAttribute(void)
{
	return shim_unsupported(146, "cuGraphKernelNodeGetAttribute");
}
GL_EXPORT CUresult gl_x_cuGraphKernelNodeGetParams(void) __asm__("cuGraphKernelNodeGetParams");
CUresult gl_x_cuGraphKernelNodeGetParams(void)
{
	return shim_unsupported(147, "cuGraphKernelNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphKernelNodeGetParams_v2(void) __asm__("cuGraphKernelNodeGetParams_v2");
CUresult gl_x_cuGraphKernelNodeGetParams_v2(void)
{
	return shim_unsupported(148, "cuGraphKernelNodeGetParams_v2");
}
GL_EXPORT CUresult gl_x_cuGraphKernelNodeSetAttribute(void) __asm__("cuGraphKernelNodeSetAttribute");
CUresult gl_x_cuGraphKernelNodeSetAttribute(void)
{
	return shim_unsupported(149, "cuGraphKernelNodeSetAttribute");
}
GL_EXPORT CUresult gl_x_cuGraphKernelNodeSetParams(void) __asm__("cuGraphKernelNodeSetParams");
CUresult gl_x_cuGraphKernelNodeSetParams(void)
{
	return shim_unsupported(150, "cuGraphKernelNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphKernelNodeSetParams_v2(void) __asm__("cuGraphKernelNodeSetParams_v2");
CUresult gl_x_cuGraphKernelNodeSetParams_v2(void)
{
	return shim_unsupported(151, "cuGraphKernelNodeSetParams_v2");
}
GL_EXPORT CUresult gl_x_cuGraphLaunch(void) __asm__("cuGraphLaunch");
CUresult gl_x_cuGraphLaunch(void)
{
	return shim_unsupported(152, "cuGraphLaunch");
}
GL_EXPORT CUresult gl_x_cuGraphLaunch_ptsz(void) __asm__("cuGraphLaunch_ptsz");
CUresult gl_x_cuGraphLaunch_ptsz(void)
{
	return shim_unsupported(153, "cuGraphLaunch_ptsz");
}
GL_EXPORT CUresult gl_x_cuGraphMemAllocNodeGetParams(void) __asm__("cuGraphMemAllocNodeGetParams");
CUresult gl_x_cuGraphMemAllocNodeGetParams(void)
{
	return shim_unsupported(154, "cuGraphMemAllocNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphMemFreeNodeGetParams(void) __asm__("cuGraphMemFreeNodeGetParams");
CUresult gl_x_cuGraphMemFreeNodeGetParams(void)
{
	return shim_unsupported(155, "cuGraphMemFreeNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphMemcpyNodeGetParams(void) __asm__("cuGraphMemcpyNodeGetParams");
CUresult gl_x_cuGraphMemcpyNodeGetParams(void)
{
	return shim_unsupported(156, "cuGraphMemcpyNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphMemcpyNodeSetParams(void) __asm__("cuGraphMemcpyNodeSetParams");
CUresult gl_x_cuGraphMemcpyNodeSetParams(void)
{
	return shim_unsupported(157, "cuGraphMemcpyNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphMemsetNodeGetParams(void) __asm__("cuGraphMemsetNodeGetParams");
CUresult gl_x_cuGraphMemsetNodeGetParams(void)
{
	return shim_unsupported(158, "cuGraphMemsetNodeGetParams");
}
GL_EXPORT CUresult gl_x_cuGraphMemsetNodeSetParams(void) __asm__("cuGraphMemsetNodeSetParams");
CUresult gl_x_cuGraphMemsetNodeSetParams(void)
{
	return shim_unsupported(159, "cuGraphMemsetNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphNodeFindInClone(void) __asm__("cuGraphNodeFindInClone");
CUresult gl_x_cuGraphNodeFindInClone(void)
{
	return shim_unsupported(160, "cuGraphNodeFindInClone");
}
GL_EXPORT CUresult gl_x_cuGraphNodeGetDependencies(void) __asm__("cuGraphNodeGetDependencies");
CUresult gl_x_cuGraphNodeGetDependencies(void)
{
	return shim_unsupported(161, "cuGraphNodeGetDependencies");
}
GL_EXPORT CUresult gl_x_cuGraphNodeGetDependencies_v2(void) __asm__("cuGraphNodeGetDependencies_v2");
CUresult gl_x_cuGraphNodeGetDependencies_v2(void)
{
	return shim_unsupported(162, "cuGraphNodeGetDependencies_v2");
}
GL_EXPORT CUresult gl_x_cuGraphNodeGetDependentNodes(void) __asm__("cuGraphNodeGetDependentNodes");
CUresult gl_x_cuGraphNodeGetDependentNodes(void)
{
	return shim_unsupported(163, "cuGraphNodeGetDependentNodes");
}
GL_EXPORT CUresult gl_x_cuGraphNodeGetDependentNodes_v2(void) __asm__("cuGraphNodeGetDependentNodes_v2");
CUresult gl_x_cuGraphNodeGetDependentNodes_v2(void)
{
	return shim_unsupported(164, "cuGraphNodeGetDependentNodes_v2");
}
GL_EXPORT CUresult gl_x_cuGraphNodeGetEnabled(void) __asm__("cuGraphNodeGetEnabled");
CUresult gl_x_cuGraphNodeGetEnabled(void)
{
	return shim_unsupported(165, "cuGraphNodeGetEnabled");
}
GL_EXPORT CUresult gl_x_cuGraphNodeGetType(void) __asm__("cuGraphNodeGetType");
CUresult gl_x_cuGraphNodeGetType(void)
{
	return shim_unsupported(166, "cuGraphNodeGetType");
}
GL_EXPORT CUresult gl_x_cuGraphNodeSetEnabled(void) __asm__("cuGraphNodeSetEnabled");
CUresult gl_x_cuGraphNodeSetEnabled(void)
{
	return shim_unsupported(167, "cuGraphNodeSetEnabled");
}
GL_EXPORT CUresult gl_x_cuGraphNodeSetParams(void) __asm__("cuGraphNodeSetParams");
CUresult gl_x_cuGraphNodeSetParams(void)
{
	return shim_unsupported(168, "cuGraphNodeSetParams");
}
GL_EXPORT CUresult gl_x_cuGraphReleaseUserObject(void) __asm__("cuGraphReleaseUserObject");
CUresult gl_x_cuGraphReleaseUserObject(void)
{
	return shim_unsupported(169, "cuGraphReleaseUserObject");
}
GL_EXPORT CUresult gl_x_cuGraphRemoveDependencies(void) __asm__("cuGraphRemoveDependencies");
CUresult gl_x_cuGraphRemoveDependencies(void)
{
	return shim_unsupported(170, "cuGraphRemoveDependencies");
}
GL_EXPORT CUresult gl_x_cuGraphRemoveDependencies_v2(void) __asm__("cuGraphRemoveDependencies_v2");
CUresult gl_x_cuGraphRemoveDependencies_v2(void)
{
	return shim_unsupported(171, "cuGraphRemoveDependencies_v2");
}
GL_EXPORT CUresult gl_x_cuGraphRetainUserObject(void) __asm__("cuGraphRetainUserObject");
CUresult gl_x_cuGraphRetainUserObject(void)
{
	return shim_unsupported(172, "cuGraphRetainUserObject");
}
GL_EXPORT CUresult gl_x_cuGraphUpload(void) __asm__("cuGraphUpload");
CUresult gl_x_cuGraphUpload(void)
{
	return shim_unsupported(173, "cuGraphUpload");
}
GL_EXPORT CUresult gl_x_cuGraphUpload_ptsz(void) __asm__("cuGraphUpload_ptsz");
CUresult gl_x_cuGraphUpload_ptsz(void)
{
	return shim_unsupported(174, "cuGraphUpload_ptsz");
}
GL_EXPORT CUresult gl_x_cuGraphicsMapResources(void) __asm__("cuGraphicsMapResources");
CUresult gl_x_cuGraphicsMapResources(void)
{
	return shim_unsupported(175, "cuGraphicsMapResources");
}
GL_EXPORT CUresult gl_x_cuGraphicsMapResources_ptsz(void) __asm__("cuGraphicsMapResources_ptsz");
CUresult gl_x_cuGraphicsMapResources_ptsz(void)
{
	return shim_unsupported(176, "cuGraphicsMapResources_ptsz");
}
GL_EXPORT CUresult gl_x_cuGraphicsResourceGetMappedMipmappedArray(void) __asm__("cuGraphicsResourceGetMappedMipmappedArray");
CUresult gl_x_cuGraphicsResourceGetMappedMipmappedArray(void)
{
	return shim_unsupported(177, "cuGraphicsResourceGetMappedMipmappedArray");
}
GL_EXPORT CUresult gl_x_cuGraphicsResourceGetMappedPointer(void) __asm__("cuGraphicsResourceGetMappedPointer");
CUresult gl_x_cuGraphicsResourceGetMappedPointer(void)
{
	return shim_unsupported(178, "cuGraphicsResourceGetMappedPointer");
}
GL_EXPORT CUresult gl_x_cuGraphicsResourceGetMappedPointer_v2(void) __asm__("cuGraphicsResourceGetMappedPointer_v2");
CUresult gl_x_cuGraphicsResourceGetMappedPointer_v2(void)
{
	return shim_unsupported(179, "cuGraphicsResourceGetMappedPointer_v2");
}
GL_EXPORT CUresult gl_x_cuGraphicsResourceSetMapFlags(void) __asm__("cuGraphicsResourceSetMapFlags");
CUresult gl_x_cuGraphicsResourceSetMapFlags(void)
{
	return shim_unsupported(180, "cuGraphicsResourceSetMapFlags");
}
GL_EXPORT CUresult gl_x_cuGraphicsResourceSetMapFlags_v2(void) __asm__("cuGraphicsResourceSetMapFlags_v2");
CUresult gl_x_cuGraphicsResourceSetMapFlags_v2(void)
{
	return shim_unsupported(181, "cuGraphicsResourceSetMapFlags_v2");
}
GL_EXPORT CUresult gl_x_cuGraphicsSubResourceGetMappedArray(void) __asm__("cuGraphicsSubResourceGetMappedArray");
CUresult gl_x_cuGraphicsSubResourceGetMappedArray(void)
{
	return shim_unsupported(182, "cuGraphicsSubResourceGetMappedArray");
}
GL_EXPORT CUresult gl_x_cuGraphicsUnmapResources(void) __asm__("cuGraphicsUnmapResources");
CUresult gl_x_cuGraphicsUnmapResources(void)
{
	return shim_unsupported(183, "cuGraphicsUnmapResources");
}
GL_EXPORT CUresult gl_x_cuGraphicsUnmapResources_ptsz(void) __asm__("cuGraphicsUnmapResources_ptsz");
CUresult gl_x_cuGraphicsUnmapResources_ptsz(void)
{
	return shim_unsupported(184, "cuGraphicsUnmapResources_ptsz");
}
GL_EXPORT CUresult gl_x_cuGraphicsUnregisterResource(void) __asm__("cuGraphicsUnregisterResource");
CUresult gl_x_cuGraphicsUnregisterResource(void)
{
	return shim_unsupported(185, "cuGraphicsUnregisterResource");
}
GL_EXPORT CUresult gl_x_cuGreenCtxCreate(void) __asm__("cuGreenCtxCreate");
CUresult gl_x_cuGreenCtxCreate(void)
{
	return shim_unsupported(186, "cuGreenCtxCreate");
}
GL_EXPORT CUresult gl_x_cuGreenCtxDestroy(void) __asm__("cuGreenCtxDestroy");
CUresult gl_x_cuGreenCtxDestroy(void)
{
	return shim_unsupported(187, "cuGreenCtxDestroy");
}
GL_EXPORT CUresult gl_x_cuGreenCtxGetDevResource(void) __asm__("cuGreenCtxGetDevResource");
CUresult gl_x_cuGreenCtxGetDevResource(void)
{
	return shim_unsupported(188, "cuGreenCtxGetDevResource");
}
GL_EXPORT CUresult gl_x_cuGreenCtxGetId(void) __asm__("cuGreenCtxGetId");
CUresult gl_x_cuGreenCtxGetId(void)
{
	return shim_unsupported(189, "cuGreenCtxGetId");
}
GL_EXPORT CUresult gl_x_cuGreenCtxRecordEvent(void) __asm__("cuGreenCtxRecordEvent");
CUresult gl_x_cuGreenCtxRecordEvent(void)
{
	return shim_unsupported(190, "cuGreenCtxRecordEvent");
}
GL_EXPORT CUresult gl_x_cuGreenCtxStreamCreate(void) __asm__("cuGreenCtxStreamCreate");
CUresult gl_x_cuGreenCtxStreamCreate(void)
{
	return shim_unsupported(191, "cuGreenCtxStreamCreate");
}
GL_EXPORT CUresult gl_x_cuGreenCtxWaitEvent(void) __asm__("cuGreenCtxWaitEvent");
CUresult gl_x_cuGreenCtxWaitEvent(void)
{
	return shim_unsupported(192, "cuGreenCtxWaitEvent");
}
GL_EXPORT CUresult gl_x_cuImportExternalMemory(void) __asm__("cuImportExternalMemory");
CUresult gl_x_cuImportExternalMemory(void)
{
	return shim_unsupported(193, "cuImportExternalMemory");
}
GL_EXPORT CUresult gl_x_cuImportExternalSemaphore(void) __asm__("cuImportExternalSemaphore");
CUresult gl_x_cuImportExternalSemaphore(void)
{
	return shim_unsupported(194, "cuImportExternalSemaphore");
}
GL_EXPORT CUresult gl_x_cuIpcCloseMemHandle(void) __asm__("cuIpcCloseMemHandle");
CUresult gl_x_cuIpcCloseMemHandle(void)
{
	return shim_unsupported(195, "cuIpcCloseMemHandle");
}
GL_EXPORT CUresult gl_x_cuIpcGetEventHandle(void) __asm__("cuIpcGetEventHandle");
CUresult gl_x_cuIpcGetEventHandle(void)
{
	return shim_unsupported(196, "cuIpcGetEventHandle");
}
GL_EXPORT CUresult gl_x_cuIpcGetMemHandle(void) __asm__("cuIpcGetMemHandle");
CUresult gl_x_cuIpcGetMemHandle(void)
{
	return shim_unsupported(197, "cuIpcGetMemHandle");
}
GL_EXPORT CUresult gl_x_cuIpcOpenEventHandle(void) __asm__("cuIpcOpenEventHandle");
CUresult gl_x_cuIpcOpenEventHandle(void)
{
	return shim_unsupported(198, "cuIpcOpenEventHandle");
}
GL_EXPORT CUresult gl_x_cuIpcOpenMemHandle(void) __asm__("cuIpcOpenMemHandle");
CUresult gl_x_cuIpcOpenMemHandle(void)
{
	return shim_unsupported(199, "cuIpcOpenMemHandle");
}
GL_EXPORT CUresult gl_x_cuIpcOpenMemHandle_v2(void) __asm__("cuIpcOpenMemHandle_v2");
CUresult gl_x_cuIpcOpenMemHandle_v2(void)
{
	return shim_unsupported(200, "cuIpcOpenMemHandle_v2");
}
GL_EXPORT CUresult gl_x_cuKernelGetLibrary(void) __asm__("cuKernelGetLibrary");
CUresult gl_x_cuKernelGetLibrary(void)
{
	return shim_unsupported(201, "cuKernelGetLibrary");
}
GL_EXPORT CUresult gl_x_cuKernelGetName(void) __asm__("cuKernelGetName");
CUresult gl_x_cuKernelGetName(void)
{
	return shim_unsupported(202, "cuKernelGetName");
}
GL_EXPORT CUresult gl_x_cuKernelGetParamInfo(void) __asm__("cuKernelGetParamInfo");
CUresult gl_x_cuKernelGetParamInfo(void)
{
	return shim_unsupported(203, "cuKernelGetParamInfo");
}
GL_EXPORT CUresult gl_x_cuKernelSetAttribute(void) __asm__("cuKernelSetAttribute");
CUresult gl_x_cuKernelSetAttribute(void)
{
	return shim_unsupported(204, "cuKernelSetAttribute");
}
GL_EXPORT CUresult gl_x_cuKernelSetCacheConfig(void) __asm__("cuKernelSetCacheConfig");
CUresult gl_x_cuKernelSetCacheConfig(void)
{
	return shim_unsupported(205, "cuKernelSetCacheConfig");
}
GL_EXPORT CUresult gl_x_cuLaunch(void) __asm__("cuLaunch");
CUresult gl_x_cuLaunch(void)
{
	return shim_unsupported(206, "cuLaunch");
}
GL_EXPORT CUresult gl_x_cuLaunchCooperativeKernel(void) __asm__("cuLaunchCooperativeKernel");
CUresult gl_x_cuLaunchCooperativeKernel(void)
{
	return shim_unsupported(207, "cuLaunchCooperativeKernel");
}
GL_EXPORT CUresult gl_x_cuLaunchCooperativeKernelMultiDevice(void) __asm__("cuLaunchCooperativeKernelMultiDevice");
CUresult gl_x_cuLaunchCooperativeKernelMultiDevice(void)
{
	return shim_unsupported(208, "cuLaunchCooperativeKernelMultiDevice");
}
GL_EXPORT CUresult gl_x_cuLaunchCooperativeKernel_ptsz(void) __asm__("cuLaunchCooperativeKernel_ptsz");
CUresult gl_x_cuLaunchCooperativeKernel_ptsz(void)
{
	return shim_unsupported(209, "cuLaunchCooperativeKernel_ptsz");
}
GL_EXPORT CUresult gl_x_cuLaunchGrid(void) __asm__("cuLaunchGrid");
CUresult gl_x_cuLaunchGrid(void)
{
	return shim_unsupported(210, "cuLaunchGrid");
}
GL_EXPORT CUresult gl_x_cuLaunchGridAsync(void) __asm__("cuLaunchGridAsync");
CUresult gl_x_cuLaunchGridAsync(void)
{
	return shim_unsupported(211, "cuLaunchGridAsync");
}
GL_EXPORT CUresult gl_x_cuLaunchHostFunc(void) __asm__("cuLaunchHostFunc");
CUresult gl_x_cuLaunchHostFunc(void)
{
	return shim_unsupported(212, "cuLaunchHostFunc");
}
GL_EXPORT CUresult gl_x_cuLaunchHostFunc_ptsz(void) __asm__("cuLaunchHostFunc_ptsz");
CUresult gl_x_cuLaunchHostFunc_ptsz(void)
{
	return shim_unsupported(213, "cuLaunchHostFunc_ptsz");
}
GL_EXPORT CUresult gl_x_cuLibraryEnumerateKernels(void) __asm__("cuLibraryEnumerateKernels");
CUresult gl_x_cuLibraryEnumerateKernels(void)
{
	return shim_unsupported(214, "cuLibraryEnumerateKernels");
}
GL_EXPORT CUresult gl_x_cuLibraryGetKernelCount(void) __asm__("cuLibraryGetKernelCount");
CUresult gl_x_cuLibraryGetKernelCount(void)
{
	return shim_unsupported(215, "cuLibraryGetKernelCount");
}
GL_EXPORT CUresult gl_x_cuLibraryGetManaged(void) __asm__("cuLibraryGetManaged");
CUresult gl_x_cuLibraryGetManaged(void)
{
	return shim_unsupported(216, "cuLibraryGetManaged");
}
GL_EXPORT CUresult gl_x_cuLibraryGetUnifiedFunction(void) __asm__("cuLibraryGetUnifiedFunction");
CUresult gl_x_cuLibraryGetUnifiedFunction(void)
{
	return shim_unsupported(217, "cuLibraryGetUnifiedFunction");
}
GL_EXPORT CUresult gl_x_cuLibraryLoadFromFile(void) __asm__("cuLibraryLoadFromFile");
CUresult gl_x_cuLibraryLoadFromFile(void)
{
	return shim_unsupported(218, "cuLibraryLoadFromFile");
}
GL_EXPORT CUresult gl_x_cuLinkAddData(void) __asm__("cuLinkAddData");
CUresult gl_x_cuLinkAddData(void)
{
	return shim_unsupported(219, "cuLinkAddData");
}
GL_EXPORT CUresult gl_x_cuLinkAddData_v2(void) __asm__("cuLinkAddData_v2");
CUresult gl_x_cuLinkAddData_v2(void)
{
	return shim_unsupported(220, "cuLinkAddData_v2");
}
GL_EXPORT CUresult gl_x_cuLinkAddFile(void) __asm__("cuLinkAddFile");
CUresult gl_x_cuLinkAddFile(void)
{
	return shim_unsupported(221, "cuLinkAddFile");
}
GL_EXPORT CUresult gl_x_cuLinkAddFile_v2(void) __asm__("cuLinkAddFile_v2");
CUresult gl_x_cuLinkAddFile_v2(void)
{
	return shim_unsupported(222, "cuLinkAddFile_v2");
}
GL_EXPORT CUresult gl_x_cuLinkComplete(void) __asm__("cuLinkComplete");
CUresult gl_x_cuLinkComplete(void)
{
	return shim_unsupported(223, "cuLinkComplete");
}
GL_EXPORT CUresult gl_x_cuLinkCreate(void) __asm__("cuLinkCreate");
CUresult gl_x_cuLinkCreate(void)
{
	return shim_unsupported(224, "cuLinkCreate");
}
GL_EXPORT CUresult gl_x_cuLinkCreate_v2(void) __asm__("cuLinkCreate_v2");
CUresult gl_x_cuLinkCreate_v2(void)
{
	return shim_unsupported(225, "cuLinkCreate_v2");
}
GL_EXPORT CUresult gl_x_cuLinkDestroy(void) __asm__("cuLinkDestroy");
CUresult gl_x_cuLinkDestroy(void)
{
	return shim_unsupported(226, "cuLinkDestroy");
}
GL_EXPORT CUresult gl_x_cuLogsCurrent(void) __asm__("cuLogsCurrent");
CUresult gl_x_cuLogsCurrent(void)
{
	return shim_unsupported(227, "cuLogsCurrent");
}
GL_EXPORT CUresult gl_x_cuLogsDumpToFile(void) __asm__("cuLogsDumpToFile");
CUresult gl_x_cuLogsDumpToFile(void)
{
	return shim_unsupported(228, "cuLogsDumpToFile");
}
GL_EXPORT CUresult gl_x_cuLogsDumpToMemory(void) __asm__("cuLogsDumpToMemory");
CUresult gl_x_cuLogsDumpToMemory(void)
{
	return shim_unsupported(229, "cuLogsDumpToMemory");
}
GL_EXPORT CUresult gl_x_cuLogsRegisterCallback(void) __asm__("cuLogsRegisterCallback");
CUresult gl_x_cuLogsRegisterCallback(void)
{
	return shim_unsupported(230, "cuLogsRegisterCallback");
}
GL_EXPORT CUresult gl_x_cuLogsUnregisterCallback(void) __asm__("cuLogsUnregisterCallback");
CUresult gl_x_cuLogsUnregisterCallback(void)
{
	return shim_unsupported(231, "cuLogsUnregisterCallback");
}
GL_EXPORT CUresult gl_x_cuMemAddressFree(void) __asm__("cuMemAddressFree");
CUresult gl_x_cuMemAddressFree(void)
{
	return shim_unsupported(232, "cuMemAddressFree");
}
GL_EXPORT CUresult gl_x_cuMemAddressReserve(void) __asm__("cuMemAddressReserve");
CUresult gl_x_cuMemAddressReserve(void)
{
	return shim_unsupported(233, "cuMemAddressReserve");
}
GL_EXPORT CUresult gl_x_cuMemAdvise(void) __asm__("cuMemAdvise");
CUresult gl_x_cuMemAdvise(void)
{
	return shim_unsupported(234, "cuMemAdvise");
}
GL_EXPORT CUresult gl_x_cuMemAdvise_v2(void) __asm__("cuMemAdvise_v2");
CUresult gl_x_cuMemAdvise_v2(void)
{
	return shim_unsupported(235, "cuMemAdvise_v2");
}
GL_EXPORT CUresult gl_x_cuMemAlloc(void) __asm__("cuMemAlloc");
CUresult gl_x_cuMemAlloc(void)
{
	return shim_unsupported(236, "cuMemAlloc");
}
GL_EXPORT CUresult gl_x_cuMemAllocAsync(void) __asm__("cuMemAllocAsync");
CUresult gl_x_cuMemAllocAsync(void)
{
	return shim_unsupported(237, "cuMemAllocAsync");
}
GL_EXPORT CUresult gl_x_cuMemAllocAsync_ptsz(void) __asm__("cuMemAllocAsync_ptsz");
CUresult gl_x_cuMemAllocAsync_ptsz(void)
{
	return shim_unsupported(238, "cuMemAllocAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemAllocFromPoolAsync(void) __asm__("cuMemAllocFromPoolAsync");
CUresult gl_x_cuMemAllocFromPoolAsync(void)
{
	return shim_unsupported(239, "cuMemAllocFromPoolAsync");
}
GL_EXPORT CUresult gl_x_cuMemAllocFromPoolAsync_ptsz(void) __asm__("cuMemAllocFromPoolAsync_ptsz");
CUresult gl_x_cuMemAllocFromPoolAsync_ptsz(void)
{
	return shim_unsupported(240, "cuMemAllocFromPoolAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemAllocHost(void) __asm__("cuMemAllocHost");
CUresult gl_x_cuMemAllocHost(void)
{
	return shim_unsupported(241, "cuMemAllocHost");
}
GL_EXPORT CUresult gl_x_cuMemAllocManaged(void) __asm__("cuMemAllocManaged");
CUresult gl_x_cuMemAllocManaged(void)
{
	return shim_unsupported(242, "cuMemAllocManaged");
}
GL_EXPORT CUresult gl_x_cuMemAllocPitch(void) __asm__("cuMemAllocPitch");
CUresult gl_x_cuMemAllocPitch(void)
{
	return shim_unsupported(243, "cuMemAllocPitch");
}
GL_EXPORT CUresult gl_x_cuMemAllocPitch_v2(void) __asm__("cuMemAllocPitch_v2");
CUresult gl_x_cuMemAllocPitch_v2(void)
{
	return shim_unsupported(244, "cuMemAllocPitch_v2");
}
GL_EXPORT CUresult gl_x_cuMemBatchDecompressAsync(void) __asm__("cuMemBatchDecompressAsync");
CUresult gl_x_cuMemBatchDecompressAsync(void)
{
	return shim_unsupported(245, "cuMemBatchDecompressAsync");
}
GL_EXPORT CUresult gl_x_cuMemBatchDecompressAsync_ptsz(void) __asm__("cuMemBatchDecompressAsync_ptsz");
CUresult gl_x_cuMemBatchDecompressAsync_ptsz(void)
{
	return shim_unsupported(246, "cuMemBatchDecompressAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemCreate(void) __asm__("cuMemCreate");
CUresult gl_x_cuMemCreate(void)
{
	return shim_unsupported(247, "cuMemCreate");
}
GL_EXPORT CUresult gl_x_cuMemDiscardAndPrefetchBatchAsync(void) __asm__("cuMemDiscardAndPrefetchBatchAsync");
CUresult gl_x_cuMemDiscardAndPrefetchBatchAsync(void)
{
	return shim_unsupported(248, "cuMemDiscardAndPrefetchBatchAsync");
}
GL_EXPORT CUresult gl_x_cuMemDiscardAndPrefetchBatchAsync_ptsz(void) __asm__("cuMemDiscardAndPrefetchBatchAsync_ptsz");
CUresult gl_x_cuMemDiscardAndPrefetchBatchAsync_ptsz(void)
{
	return shim_unsupported(249, "cuMemDiscardAndPrefetchBatchAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemDiscardBatchAsync(void) __asm__("cuMemDiscardBatchAsync");
CUresult gl_x_cuMemDiscardBatchAsync(void)
{
	return shim_unsupported(250, "cuMemDiscardBatchAsync");
}
GL_EXPORT CUresult gl_x_cuMemDiscardBatchAsync_ptsz(void) __asm__("cuMemDiscardBatchAsync_ptsz");
CUresult gl_x_cuMemDiscardBatchAsync_ptsz(void)
{
	return shim_unsupported(251, "cuMemDiscardBatchAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemExportToShareableHandle(void) __asm__("cuMemExportToShareableHandle");
CUresult gl_x_cuMemExportToShareableHandle(void)
{
	return shim_unsupported(252, "cuMemExportToShareableHandle");
}
GL_EXPORT CUresult gl_x_cuMemFree(void) __asm__("cuMemFree");
CUresult gl_x_cuMemFree(void)
{
	return shim_unsupported(253, "cuMemFree");
}
GL_EXPORT CUresult gl_x_cuMemFreeAsync(void) __asm__("cuMemFreeAsync");
CUresult gl_x_cuMemFreeAsync(void)
{
	return shim_unsupported(254, "cuMemFreeAsync");
}
GL_EXPORT CUresult gl_x_cuMemFreeAsync_ptsz(void) __asm__("cuMemFreeAsync_ptsz");
CUresult gl_x_cuMemFreeAsync_ptsz(void)
{
	return shim_unsupported(255, "cuMemFreeAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemGetAccess(void) __asm__("cuMemGetAccess");
CUresult gl_x_cuMemGetAccess(void)
{
	return shim_unsupported(256, "cuMemGetAccess");
}
GL_EXPORT CUresult gl_x_cuMemGetAddressRange(void) __asm__("cuMemGetAddressRange");
CUresult gl_x_cuMemGetAddressRange(void)
{
	return shim_unsupported(257, "cuMemGetAddressRange");
}
GL_EXPORT CUresult gl_x_cuMemGetAllocationGranularity(void) __asm__("cuMemGetAllocationGranularity");
CUresult gl_x_cuMemGetAllocationGranularity(void)
{
	return shim_unsupported(258, "cuMemGetAllocationGranularity");
}
GL_EXPORT CUresult gl_x_cuMemGetAllocationPropertiesFromHandle(void) __asm__("cuMemGetAllocationPropertiesFromHandle");
CUresult gl_x_cuMemGetAllocationPropertiesFromHandle(void)
{
	return shim_unsupported(259, "cuMemGetAllocationPropertiesFromHandle");
}
GL_EXPORT CUresult gl_x_cuMemGetDefaultMemPool(void) __asm__("cuMemGetDefaultMemPool");
CUresult gl_x_cuMemGetDefaultMemPool(void)
{
	return shim_unsupported(260, "cuMemGetDefaultMemPool");
}
GL_EXPORT CUresult gl_x_cuMemGetHandleForAddressRange(void) __asm__("cuMemGetHandleForAddressRange");
CUresult gl_x_cuMemGetHandleForAddressRange(void)
{
	return shim_unsupported(261, "cuMemGetHandleForAddressRange");
}
GL_EXPORT CUresult gl_x_cuMemGetInfo(void) __asm__("cuMemGetInfo");
CUresult gl_x_cuMemGetInfo(void)
{
	return shim_unsupported(262, "cuMemGetInfo");
}
GL_EXPORT CUresult gl_x_cuMemGetMemPool(void) __asm__("cuMemGetMemPool");
CUresult gl_x_cuMemGetMemPool(void)
{
	return shim_unsupported(263, "cuMemGetMemPool");
}
GL_EXPORT CUresult gl_x_cuMemHostGetDevicePointer(void) __asm__("cuMemHostGetDevicePointer");
CUresult gl_x_cuMemHostGetDevicePointer(void)
{
	return shim_unsupported(264, "cuMemHostGetDevicePointer");
}
GL_EXPORT CUresult gl_x_cuMemHostRegister(void) __asm__("cuMemHostRegister");
CUresult gl_x_cuMemHostRegister(void)
{
	return shim_unsupported(265, "cuMemHostRegister");
}
GL_EXPORT CUresult gl_x_cuMemHostRegister_v2(void) __asm__("cuMemHostRegister_v2");
CUresult gl_x_cuMemHostRegister_v2(void)
{
	return shim_unsupported(266, "cuMemHostRegister_v2");
}
GL_EXPORT CUresult gl_x_cuMemHostUnregister(void) __asm__("cuMemHostUnregister");
CUresult gl_x_cuMemHostUnregister(void)
{
	return shim_unsupported(267, "cuMemHostUnregister");
}
GL_EXPORT CUresult gl_x_cuMemImportFromShareableHandle(void) __asm__("cuMemImportFromShareableHandle");
CUresult gl_x_cuMemImportFromShareableHandle(void)
{
	return shim_unsupported(268, "cuMemImportFromShareableHandle");
}
GL_EXPORT CUresult gl_x_cuMemMap(void) __asm__("cuMemMap");
CUresult gl_x_cuMemMap(void)
{
	return shim_unsupported(269, "cuMemMap");
}
GL_EXPORT CUresult gl_x_cuMemMapArrayAsync(void) __asm__("cuMemMapArrayAsync");
CUresult gl_x_cuMemMapArrayAsync(void)
{
	return shim_unsupported(270, "cuMemMapArrayAsync");
}
GL_EXPORT CUresult gl_x_cuMemMapArrayAsync_ptsz(void) __asm__("cuMemMapArrayAsync_ptsz");
CUresult gl_x_cuMemMapArrayAsync_ptsz(void)
{
	return shim_unsupported(271, "cuMemMapArrayAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemPoolCreate(void) __asm__("cuMemPoolCreate");
CUresult gl_x_cuMemPoolCreate(void)
{
	return shim_unsupported(272, "cuMemPoolCreate");
}
GL_EXPORT CUresult gl_x_cuMemPoolDestroy(void) __asm__("cuMemPoolDestroy");
CUresult gl_x_cuMemPoolDestroy(void)
{
	return shim_unsupported(273, "cuMemPoolDestroy");
}
GL_EXPORT CUresult gl_x_cuMemPoolExportPointer(void) __asm__("cuMemPoolExportPointer");
CUresult gl_x_cuMemPoolExportPointer(void)
{
	return shim_unsupported(274, "cuMemPoolExportPointer");
}
GL_EXPORT CUresult gl_x_cuMemPoolExportToShareableHandle(void) __asm__("cuMemPoolExportToShareableHandle");
CUresult gl_x_cuMemPoolExportToShareableHandle(void)
{
	return shim_unsupported(275, "cuMemPoolExportToShareableHandle");
}
GL_EXPORT CUresult gl_x_cuMemPoolGetAccess(void) __asm__("cuMemPoolGetAccess");
CUresult gl_x_cuMemPoolGetAccess(void)
{
	return shim_unsupported(276, "cuMemPoolGetAccess");
}
GL_EXPORT CUresult gl_x_cuMemPoolGetAttribute(void) __asm__("cuMemPoolGetAttribute");
CUresult gl_x_cuMemPoolGetAttribute(void)
{
	return shim_unsupported(277, "cuMemPoolGetAttribute");
}
GL_EXPORT CUresult gl_x_cuMemPoolImportFromShareableHandle(void) __asm__("cuMemPoolImportFromShareableHandle");
CUresult gl_x_cuMemPoolImportFromShareableHandle(void)
{
	return shim_unsupported(278, "cuMemPoolImportFromShareableHandle");
}
GL_EXPORT CUresult gl_x_cuMemPoolImportPointer(void) __asm__("cuMemPoolImportPointer");
CUresult gl_x_cuMemPoolImportPointer(void)
{
	return shim_unsupported(279, "cuMemPoolImportPointer");
}
GL_EXPORT CUresult gl_x_cuMemPoolSetAccess(void) __asm__("cuMemPoolSetAccess");
CUresult gl_x_cuMemPoolSetAccess(void)
{
	return shim_unsupported(280, "cuMemPoolSetAccess");
}
GL_EXPORT CUresult gl_x_cuMemPoolSetAttribute(void) __asm__("cuMemPoolSetAttribute");
CUresult gl_x_cuMemPoolSetAttribute(void)
{
	return shim_unsupported(281, "cuMemPoolSetAttribute");
}
GL_EXPORT CUresult gl_x_cuMemPoolTrimTo(void) __asm__("cuMemPoolTrimTo");
CUresult gl_x_cuMemPoolTrimTo(void)
{
	return shim_unsupported(282, "cuMemPoolTrimTo");
}
GL_EXPORT CUresult gl_x_cuMemPrefetchAsync(void) __asm__("cuMemPrefetchAsync");
CUresult gl_x_cuMemPrefetchAsync(void)
{
	return shim_unsupported(283, "cuMemPrefetchAsync");
}
GL_EXPORT CUresult gl_x_cuMemPrefetchAsync_ptsz(void) __asm__("cuMemPrefetchAsync_ptsz");
CUresult gl_x_cuMemPrefetchAsync_ptsz(void)
{
	return shim_unsupported(284, "cuMemPrefetchAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemPrefetchAsync_v2(void) __asm__("cuMemPrefetchAsync_v2");
CUresult gl_x_cuMemPrefetchAsync_v2(void)
{
	return shim_unsupported(285, "cuMemPrefetchAsync_v2");
}
GL_EXPORT CUresult gl_x_cuMemPrefetchAsync_v2_ptsz(void) __asm__("cuMemPrefetchAsync_v2_ptsz");
CUresult gl_x_cuMemPrefetchAsync_v2_ptsz(void)
{
	return shim_unsupported(286, "cuMemPrefetchAsync_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemPrefetchBatchAsync(void) __asm__("cuMemPrefetchBatchAsync");
CUresult gl_x_cuMemPrefetchBatchAsync(void)
{
	return shim_unsupported(287, "cuMemPrefetchBatchAsync");
}
GL_EXPORT CUresult gl_x_cuMemPrefetchBatchAsync_ptsz(void) __asm__("cuMemPrefetchBatchAsync_ptsz");
CUresult gl_x_cuMemPrefetchBatchAsync_ptsz(void)
{
	return shim_unsupported(288, "cuMemPrefetchBatchAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemRangeGetAttribute(void) __asm__("cuMemRangeGetAttribute");
CUresult gl_x_cuMemRangeGetAttribute(void)
{
	return shim_unsupported(289, "cuMemRangeGetAttribute");
}
GL_EXPORT CUresult gl_x_cuMemRangeGetAttributes(void) __asm__("cuMemRangeGetAttributes");
CUresult gl_x_cuMemRangeGetAttributes(void)
{
	return shim_unsupported(290, "cuMemRangeGetAttributes");
}
GL_EXPORT CUresult gl_x_cuMemRelease(void) __asm__("cuMemRelease");
CUresult gl_x_cuMemRelease(void)
{
	return shim_unsupported(291, "cuMemRelease");
}
GL_EXPORT CUresult gl_x_cuMemRetainAllocationHandle(void) __asm__("cuMemRetainAllocationHandle");
CUresult gl_x_cuMemRetainAllocationHandle(void)
{
	return shim_unsupported(292, "cuMemRetainAllocationHandle");
}
GL_EXPORT CUresult gl_x_cuMemSetAccess(void) __asm__("cuMemSetAccess");
CUresult gl_x_cuMemSetAccess(void)
{
	return shim_unsupported(293, "cuMemSetAccess");
}
GL_EXPORT CUresult gl_x_cuMemSetMemPool(void) __asm__("cuMemSetMemPool");
CUresult gl_x_cuMemSetMemPool(void)
{
	return shim_unsupported(294, "cuMemSetMemPool");
}
GL_EXPORT CUresult gl_x_cuMemUnmap(void) __asm__("cuMemUnmap");
CUresult gl_x_cuMemUnmap(void)
{
	return shim_unsupported(295, "cuMemUnmap");
}
GL_EXPORT CUresult gl_x_cuMemcpy(void) __asm__("cuMemcpy");
CUresult gl_x_cuMemcpy(void)
{
	return shim_unsupported(296, "cuMemcpy");
}
GL_EXPORT CUresult gl_x_cuMemcpy2D(void) __asm__("cuMemcpy2D");
CUresult gl_x_cuMemcpy2D(void)
{
	return shim_unsupported(297, "cuMemcpy2D");
}
GL_EXPORT CUresult gl_x_cuMemcpy2DAsync(void) __asm__("cuMemcpy2DAsync");
CUresult gl_x_cuMemcpy2DAsync(void)
{
	return shim_unsupported(298, "cuMemcpy2DAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpy2DAsync_v2(void) __asm__("cuMemcpy2DAsync_v2");
CUresult gl_x_cuMemcpy2DAsync_v2(void)
{
	return shim_unsupported(299, "cuMemcpy2DAsync_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpy2DAsync_v2_ptsz(void) __asm__("cuMemcpy2DAsync_v2_ptsz");
CUresult gl_x_cuMemcpy2DAsync_v2_ptsz(void)
{
	return shim_unsupported(300, "cuMemcpy2DAsync_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpy2DUnaligned(void) __asm__("cuMemcpy2DUnaligned");
CUresult gl_x_cuMemcpy2DUnaligned(void)
{
	return shim_unsupported(301, "cuMemcpy2DUnaligned");
}
GL_EXPORT CUresult gl_x_cuMemcpy2DUnaligned_v2(void) __asm__("cuMemcpy2DUnaligned_v2");
CUresult gl_x_cuMemcpy2DUnaligned_v2(void)
{
	return shim_unsupported(302, "cuMemcpy2DUnaligned_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpy2DUnaligned_v2_ptds(void) __asm__("cuMemcpy2DUnaligned_v2_ptds");
CUresult gl_x_cuMemcpy2DUnaligned_v2_ptds(void)
{
	return shim_unsupported(303, "cuMemcpy2DUnaligned_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpy2D_v2(void) __asm__("cuMemcpy2D_v2");
CUresult gl_x_cuMemcpy2D_v2(void)
{
	return shim_unsupported(304, "cuMemcpy2D_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpy2D_v2_ptds(void) __asm__("cuMemcpy2D_v2_ptds");
CUresult gl_x_cuMemcpy2D_v2_ptds(void)
{
	return shim_unsupported(305, "cuMemcpy2D_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpy3D(void) __asm__("cuMemcpy3D");
CUresult gl_x_cuMemcpy3D(void)
{
	return shim_unsupported(306, "cuMemcpy3D");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DAsync(void) __asm__("cuMemcpy3DAsync");
CUresult gl_x_cuMemcpy3DAsync(void)
{
	return shim_unsupported(307, "cuMemcpy3DAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DAsync_v2(void) __asm__("cuMemcpy3DAsync_v2");
CUresult gl_x_cuMemcpy3DAsync_v2(void)
{
	return shim_unsupported(308, "cuMemcpy3DAsync_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DAsync_v2_ptsz(void) __asm__("cuMemcpy3DAsync_v2_ptsz");
CUresult gl_x_cuMemcpy3DAsync_v2_ptsz(void)
{
	return shim_unsupported(309, "cuMemcpy3DAsync_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DBatchAsync(void) __asm__("cuMemcpy3DBatchAsync");
CUresult gl_x_cuMemcpy3DBatchAsync(void)
{
	return shim_unsupported(310, "cuMemcpy3DBatchAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DBatchAsync_ptsz(void) __asm__("cuMemcpy3DBatchAsync_ptsz");
CUresult gl_x_cuMemcpy3DBatchAsync_ptsz(void)
{
	return shim_unsupported(311, "cuMemcpy3DBatchAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DBatchAsync_v2(void) __asm__("cuMemcpy3DBatchAsync_v2");
CUresult gl_x_cuMemcpy3DBatchAsync_v2(void)
{
	return shim_unsupported(312, "cuMemcpy3DBatchAsync_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DBatchAsync_v2_ptsz(void) __asm__("cuMemcpy3DBatchAsync_v2_ptsz");
CUresult gl_x_cuMemcpy3DBatchAsync_v2_ptsz(void)
{
	return shim_unsupported(313, "cuMemcpy3DBatchAsync_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DPeer(void) __asm__("cuMemcpy3DPeer");
CUresult gl_x_cuMemcpy3DPeer(void)
{
	return shim_unsupported(314, "cuMemcpy3DPeer");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DPeerAsync(void) __asm__("cuMemcpy3DPeerAsync");
CUresult gl_x_cuMemcpy3DPeerAsync(void)
{
	return shim_unsupported(315, "cuMemcpy3DPeerAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DPeerAsync_ptsz(void) __asm__("cuMemcpy3DPeerAsync_ptsz");
CUresult gl_x_cuMemcpy3DPeerAsync_ptsz(void)
{
	return shim_unsupported(316, "cuMemcpy3DPeerAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpy3DPeer_ptds(void) __asm__("cuMemcpy3DPeer_ptds");
CUresult gl_x_cuMemcpy3DPeer_ptds(void)
{
	return shim_unsupported(317, "cuMemcpy3DPeer_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpy3D_v2(void) __asm__("cuMemcpy3D_v2");
CUresult gl_x_cuMemcpy3D_v2(void)
{
	return shim_unsupported(318, "cuMemcpy3D_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpy3D_v2_ptds(void) __asm__("cuMemcpy3D_v2_ptds");
CUresult gl_x_cuMemcpy3D_v2_ptds(void)
{
	return shim_unsupported(319, "cuMemcpy3D_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpyAsync(void) __asm__("cuMemcpyAsync");
CUresult gl_x_cuMemcpyAsync(void)
{
	return shim_unsupported(320, "cuMemcpyAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyAsync_ptsz(void) __asm__("cuMemcpyAsync_ptsz");
CUresult gl_x_cuMemcpyAsync_ptsz(void)
{
	return shim_unsupported(321, "cuMemcpyAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoA(void) __asm__("cuMemcpyAtoA");
CUresult gl_x_cuMemcpyAtoA(void)
{
	return shim_unsupported(322, "cuMemcpyAtoA");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoA_v2(void) __asm__("cuMemcpyAtoA_v2");
CUresult gl_x_cuMemcpyAtoA_v2(void)
{
	return shim_unsupported(323, "cuMemcpyAtoA_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoA_v2_ptds(void) __asm__("cuMemcpyAtoA_v2_ptds");
CUresult gl_x_cuMemcpyAtoA_v2_ptds(void)
{
	return shim_unsupported(324, "cuMemcpyAtoA_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoD(void) __asm__("cuMemcpyAtoD");
CUresult gl_x_cuMemcpyAtoD(void)
{
	return shim_unsupported(325, "cuMemcpyAtoD");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoD_v2(void) __asm__("cuMemcpyAtoD_v2");
CUresult gl_x_cuMemcpyAtoD_v2(void)
{
	return shim_unsupported(326, "cuMemcpyAtoD_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoD_v2_ptds(void) __asm__("cuMemcpyAtoD_v2_ptds");
CUresult gl_x_cuMemcpyAtoD_v2_ptds(void)
{
	return shim_unsupported(327, "cuMemcpyAtoD_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoH(void) __asm__("cuMemcpyAtoH");
CUresult gl_x_cuMemcpyAtoH(void)
{
	return shim_unsupported(328, "cuMemcpyAtoH");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoHAsync(void) __asm__("cuMemcpyAtoHAsync");
CUresult gl_x_cuMemcpyAtoHAsync(void)
{
	return shim_unsupported(329, "cuMemcpyAtoHAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoHAsync_v2(void) __asm__("cuMemcpyAtoHAsync_v2");
CUresult gl_x_cuMemcpyAtoHAsync_v2(void)
{
	return shim_unsupported(330, "cuMemcpyAtoHAsync_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoHAsync_v2_ptsz(void) __asm__("cuMemcpyAtoHAsync_v2_ptsz");
CUresult gl_x_cuMemcpyAtoHAsync_v2_ptsz(void)
{
	return shim_unsupported(331, "cuMemcpyAtoHAsync_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoH_v2(void) __asm__("cuMemcpyAtoH_v2");
CUresult gl_x_cuMemcpyAtoH_v2(void)
{
	return shim_unsupported(332, "cuMemcpyAtoH_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyAtoH_v2_ptds(void) __asm__("cuMemcpyAtoH_v2_ptds");
CUresult gl_x_cuMemcpyAtoH_v2_ptds(void)
{
	return shim_unsupported(333, "cuMemcpyAtoH_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpyBatchAsync(void) __asm__("cuMemcpyBatchAsync");
CUresult gl_x_cuMemcpyBatchAsync(void)
{
	return shim_unsupported(334, "cuMemcpyBatchAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyBatchAsync_ptsz(void) __asm__("cuMemcpyBatchAsync_ptsz");
CUresult gl_x_cuMemcpyBatchAsync_ptsz(void)
{
	return shim_unsupported(335, "cuMemcpyBatchAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpyBatchAsync_v2(void) __asm__("cuMemcpyBatchAsync_v2");
CUresult gl_x_cuMemcpyBatchAsync_v2(void)
{
	return shim_unsupported(336, "cuMemcpyBatchAsync_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyBatchAsync_v2_ptsz(void) __asm__("cuMemcpyBatchAsync_v2_ptsz");
CUresult gl_x_cuMemcpyBatchAsync_v2_ptsz(void)
{
	return shim_unsupported(337, "cuMemcpyBatchAsync_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoA(void) __asm__("cuMemcpyDtoA");
CUresult gl_x_cuMemcpyDtoA(void)
{
	return shim_unsupported(338, "cuMemcpyDtoA");
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoA_v2(void) __asm__("cuMemcpyDtoA_v2");
CUresult gl_x_cuMemcpyDtoA_v2(void)
{
	return shim_unsupported(339, "cuMemcpyDtoA_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoA_v2_ptds(void) __asm__("cuMemcpyDtoA_v2_ptds");
CUresult gl_x_cuMemcpyDtoA_v2_ptds(void)
{
	return shim_unsupported(340, "cuMemcpyDtoA_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoD(void) __asm__("cuMemcpyDtoD");
CUresult gl_x_cuMemcpyDtoD(void)
{
	return shim_unsupported(341, "cuMemcpyDtoD");
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoDAsync(void) __asm__("cuMemcpyDtoDAsync");
CUresult gl_x_cuMemcpyDtoDAsync(void)
{
	return shim_unsupported(342, "cuMemcpyDtoDAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoH(void) __asm__("cuMemcpyDtoH");
CUresult gl_x_cuMemcpyDtoH(void)
{
	return shim_unsupported(343, "cuMemcpyDtoH");
}
GL_EXPORT CUresult gl_x_cuMemcpyDtoHAsync(void) __asm__("cuMemcpyDtoHAsync");
CUresult gl_x_cuMemcpyDtoHAsync(void)
{
	return shim_unsupported(344, "cuMemcpyDtoHAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoA(void) __asm__("cuMemcpyHtoA");
CUresult gl_x_cuMemcpyHtoA(void)
{
	return shim_unsupported(345, "cuMemcpyHtoA");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoAAsync(void) __asm__("cuMemcpyHtoAAsync");
CUresult gl_x_cuMemcpyHtoAAsync(void)
{
	return shim_unsupported(346, "cuMemcpyHtoAAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoAAsync_v2(void) __asm__("cuMemcpyHtoAAsync_v2");
CUresult gl_x_cuMemcpyHtoAAsync_v2(void)
{
	return shim_unsupported(347, "cuMemcpyHtoAAsync_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoAAsync_v2_ptsz(void) __asm__("cuMemcpyHtoAAsync_v2_ptsz");
CUresult gl_x_cuMemcpyHtoAAsync_v2_ptsz(void)
{
	return shim_unsupported(348, "cuMemcpyHtoAAsync_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoA_v2(void) __asm__("cuMemcpyHtoA_v2");
CUresult gl_x_cuMemcpyHtoA_v2(void)
{
	return shim_unsupported(349, "cuMemcpyHtoA_v2");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoA_v2_ptds(void) __asm__("cuMemcpyHtoA_v2_ptds");
CUresult gl_x_cuMemcpyHtoA_v2_ptds(void)
{
	return shim_unsupported(350, "cuMemcpyHtoA_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoD(void) __asm__("cuMemcpyHtoD");
CUresult gl_x_cuMemcpyHtoD(void)
{
	return shim_unsupported(351, "cuMemcpyHtoD");
}
GL_EXPORT CUresult gl_x_cuMemcpyHtoDAsync(void) __asm__("cuMemcpyHtoDAsync");
CUresult gl_x_cuMemcpyHtoDAsync(void)
{
	return shim_unsupported(352, "cuMemcpyHtoDAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyPeer(void) __asm__("cuMemcpyPeer");
CUresult gl_x_cuMemcpyPeer(void)
{
	return shim_unsupported(353, "cuMemcpyPeer");
}
GL_EXPORT CUresult gl_x_cuMemcpyPeerAsync(void) __asm__("cuMemcpyPeerAsync");
CUresult gl_x_cuMemcpyPeerAsync(void)
{
	return shim_unsupported(354, "cuMemcpyPeerAsync");
}
GL_EXPORT CUresult gl_x_cuMemcpyPeerAsync_ptsz(void) __asm__("cuMemcpyPeerAsync_ptsz");
CUresult gl_x_cuMemcpyPeerAsync_ptsz(void)
{
	return shim_unsupported(355, "cuMemcpyPeerAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemcpyPeer_ptds(void) __asm__("cuMemcpyPeer_ptds");
CUresult gl_x_cuMemcpyPeer_ptds(void)
{
	return shim_unsupported(356, "cuMemcpyPeer_ptds");
}
GL_EXPORT CUresult gl_x_cuMemcpy_ptds(void) __asm__("cuMemcpy_ptds");
CUresult gl_x_cuMemcpy_ptds(void)
{
	return shim_unsupported(357, "cuMemcpy_ptds");
}
GL_EXPORT CUresult gl_x_cuMemsetD16(void) __asm__("cuMemsetD16");
CUresult gl_x_cuMemsetD16(void)
{
	return shim_unsupported(358, "cuMemsetD16");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D16(void) __asm__("cuMemsetD2D16");
CUresult gl_x_cuMemsetD2D16(void)
{
	return shim_unsupported(359, "cuMemsetD2D16");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D16Async(void) __asm__("cuMemsetD2D16Async");
CUresult gl_x_cuMemsetD2D16Async(void)
{
	return shim_unsupported(360, "cuMemsetD2D16Async");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D16Async_ptsz(void) __asm__("cuMemsetD2D16Async_ptsz");
CUresult gl_x_cuMemsetD2D16Async_ptsz(void)
{
	return shim_unsupported(361, "cuMemsetD2D16Async_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D16_v2(void) __asm__("cuMemsetD2D16_v2");
CUresult gl_x_cuMemsetD2D16_v2(void)
{
	return shim_unsupported(362, "cuMemsetD2D16_v2");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D16_v2_ptds(void) __asm__("cuMemsetD2D16_v2_ptds");
CUresult gl_x_cuMemsetD2D16_v2_ptds(void)
{
	return shim_unsupported(363, "cuMemsetD2D16_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D32(void) __asm__("cuMemsetD2D32");
CUresult gl_x_cuMemsetD2D32(void)
{
	return shim_unsupported(364, "cuMemsetD2D32");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D32Async(void) __asm__("cuMemsetD2D32Async");
CUresult gl_x_cuMemsetD2D32Async(void)
{
	return shim_unsupported(365, "cuMemsetD2D32Async");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D32Async_ptsz(void) __asm__("cuMemsetD2D32Async_ptsz");
CUresult gl_x_cuMemsetD2D32Async_ptsz(void)
{
	return shim_unsupported(366, "cuMemsetD2D32Async_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D32_v2(void) __asm__("cuMemsetD2D32_v2");
CUresult gl_x_cuMemsetD2D32_v2(void)
{
	return shim_unsupported(367, "cuMemsetD2D32_v2");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D32_v2_ptds(void) __asm__("cuMemsetD2D32_v2_ptds");
CUresult gl_x_cuMemsetD2D32_v2_ptds(void)
{
	return shim_unsupported(368, "cuMemsetD2D32_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D8(void) __asm__("cuMemsetD2D8");
CUresult gl_x_cuMemsetD2D8(void)
{
	return shim_unsupported(369, "cuMemsetD2D8");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D8Async(void) __asm__("cuMemsetD2D8Async");
CUresult gl_x_cuMemsetD2D8Async(void)
{
	return shim_unsupported(370, "cuMemsetD2D8Async");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D8Async_ptsz(void) __asm__("cuMemsetD2D8Async_ptsz");
CUresult gl_x_cuMemsetD2D8Async_ptsz(void)
{
	return shim_unsupported(371, "cuMemsetD2D8Async_ptsz");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D8_v2(void) __asm__("cuMemsetD2D8_v2");
CUresult gl_x_cuMemsetD2D8_v2(void)
{
	return shim_unsupported(372, "cuMemsetD2D8_v2");
}
GL_EXPORT CUresult gl_x_cuMemsetD2D8_v2_ptds(void) __asm__("cuMemsetD2D8_v2_ptds");
CUresult gl_x_cuMemsetD2D8_v2_ptds(void)
{
	return shim_unsupported(373, "cuMemsetD2D8_v2_ptds");
}
GL_EXPORT CUresult gl_x_cuMemsetD32(void) __asm__("cuMemsetD32");
CUresult gl_x_cuMemsetD32(void)
{
	return shim_unsupported(374, "cuMemsetD32");
}
GL_EXPORT CUresult gl_x_cuMemsetD8(void) __asm__("cuMemsetD8");
CUresult gl_x_cuMemsetD8(void)
{
	return shim_unsupported(375, "cuMemsetD8");
}
GL_EXPORT CUresult gl_x_cuMipmappedArrayCreate(void) __asm__("cuMipmappedArrayCreate");
CUresult gl_x_cuMipmappedArrayCreate(void)
{
	return shim_unsupported(376, "cuMipmappedArrayCreate");
}
GL_EXPORT CUresult gl_x_cuMipmappedArrayDestroy(void) __asm__("cuMipmappedArrayDestroy");
CUresult gl_x_cuMipmappedArrayDestroy(void)
{
	return shim_unsupported(377, "cuMipmappedArrayDestroy");
}
GL_EXPORT CUresult gl_x_cuMipmappedArrayGetLevel(void) __asm__("cuMipmappedArrayGetLevel");
CUresult gl_x_cuMipmappedArrayGetLevel(void)
{
	return shim_unsupported(378, "cuMipmappedArrayGetLevel");
}
GL_EXPORT CUresult gl_x_cuMipmappedArrayGetMemoryRequirements(void) __asm__("cuMipmappedArrayGetMemoryRequirements");
CUresult gl_x_cuMipmappedArrayGetMemoryRequirements(void)
{
	return shim_unsupported(379, "cuMipmappedArrayGetMemoryRequirements");
}
GL_EXPORT CUresult gl_x_cuMipmappedArrayGetSparseProperties(void) __asm__("cuMipmappedArrayGetSparseProperties");
CUresult gl_x_cuMipmappedArrayGetSparseProperties(void)
{
	return shim_unsupported(380, "cuMipmappedArrayGetSparseProperties");
}
GL_EXPORT CUresult gl_x_cuModuleEnumerateFunctions(void) __asm__("cuModuleEnumerateFunctions");
CUresult gl_x_cuModuleEnumerateFunctions(void)
{
	return shim_unsupported(381, "cuModuleEnumerateFunctions");
}
GL_EXPORT CUresult gl_x_cuModuleGetFunctionCount(void) __asm__("cuModuleGetFunctionCount");
CUresult gl_x_cuModuleGetFunctionCount(void)
{
	return shim_unsupported(382, "cuModuleGetFunctionCount");
}
GL_EXPORT CUresult gl_x_cuModuleGetGlobal(void) __asm__("cuModuleGetGlobal");
CUresult gl_x_cuModuleGetGlobal(void)
{
	return shim_unsupported(383, "cuModuleGetGlobal");
}
GL_EXPORT CUresult gl_x_cuModuleGetLoadingMode(void) __asm__("cuModuleGetLoadingMode");
CUresult gl_x_cuModuleGetLoadingMode(void)
{
	return shim_unsupported(384, "cuModuleGetLoadingMode");
}
GL_EXPORT CUresult gl_x_cuModuleGetSurfRef(void) __asm__("cuModuleGetSurfRef");
CUresult gl_x_cuModuleGetSurfRef(void)
{
	return shim_unsupported(385, "cuModuleGetSurfRef");
}
GL_EXPORT CUresult gl_x_cuModuleGetTexRef(void) __asm__("cuModuleGetTexRef");
CUresult gl_x_cuModuleGetTexRef(void)
{
	return shim_unsupported(386, "cuModuleGetTexRef");
}
GL_EXPORT CUresult gl_x_cuMulticastAddDevice(void) __asm__("cuMulticastAddDevice");
CUresult gl_x_cuMulticastAddDevice(void)
{
	return shim_unsupported(387, "cuMulticastAddDevice");
}
GL_EXPORT CUresult gl_x_cuMulticastBindAddr(void) __asm__("cuMulticastBindAddr");
CUresult gl_x_cuMulticastBindAddr(void)
{
	return shim_unsupported(388, "cuMulticastBindAddr");
}
GL_EXPORT CUresult gl_x_cuMulticastBindMem(void) __asm__("cuMulticastBindMem");
CUresult gl_x_cuMulticastBindMem(void)
{
	return shim_unsupported(389, "cuMulticastBindMem");
}
GL_EXPORT CUresult gl_x_cuMulticastCreate(void) __asm__("cuMulticastCreate");
CUresult gl_x_cuMulticastCreate(void)
{
	return shim_unsupported(390, "cuMulticastCreate");
}
GL_EXPORT CUresult gl_x_cuMulticastGetGranularity(void) __asm__("cuMulticastGetGranularity");
CUresult gl_x_cuMulticastGetGranularity(void)
{
	return shim_unsupported(391, "cuMulticastGetGranularity");
}
GL_EXPORT CUresult gl_x_cuMulticastUnbind(void) __asm__("cuMulticastUnbind");
CUresult gl_x_cuMulticastUnbind(void)
{
	return shim_unsupported(392, "cuMulticastUnbind");
}
GL_EXPORT CUresult gl_x_cuOccupancyAvailableDynamicSMemPerBlock(void) __asm__("cuOccupancyAvailableDynamicSMemPerBlock");
CUresult gl_x_cuOccupancyAvailableDynamicSMemPerBlock(void)
{
	return shim_unsupported(393, "cuOccupancyAvailableDynamicSMemPerBlock");
}
GL_EXPORT CUresult gl_x_cuOccupancyMaxActiveBlocksPerMultiprocessor(void) __asm__("cuOccupancyMaxActiveBlocksPerMultiprocessor");
CUresult gl_x_cuOccupancyMaxActiveBlocksPerMultiprocessor(void)
{
	return shim_unsupported(394, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
}
GL_EXPORT CUresult gl_x_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(void) __asm__("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags");
CUresult gl_x_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(void)
{
	return shim_unsupported(395, "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags");
}
GL_EXPORT CUresult gl_x_cuOccupancyMaxActiveClusters(void) __asm__("cuOccupancyMaxActiveClusters");
CUresult gl_x_cuOccupancyMaxActiveClusters(void)
{
	return shim_unsupported(396, "cuOccupancyMaxActiveClusters");
}
GL_EXPORT CUresult gl_x_cuOccupancyMaxPotentialBlockSize(void) __asm__("cuOccupancyMaxPotentialBlockSize");
CUresult gl_x_cuOccupancyMaxPotentialBlockSize(void)
{
	return shim_unsupported(397, "cuOccupancyMaxPotentialBlockSize");
}
GL_EXPORT CUresult gl_x_cuOccupancyMaxPotentialBlockSizeWithFlags(void) __asm__("cuOccupancyMaxPotentialBlockSizeWithFlags");
CUresult gl_x_cuOccupancyMaxPotentialBlockSizeWithFlags(void)
{
	return shim_unsupported(398, "cuOccupancyMaxPotentialBlockSizeWithFlags");
}
GL_EXPORT CUresult gl_x_cuOccupancyMaxPotentialClusterSize(void) __asm__("cuOccupancyMaxPotentialClusterSize");
CUresult gl_x_cuOccupancyMaxPotentialClusterSize(void)
{
	return shim_unsupported(399, "cuOccupancyMaxPotentialClusterSize");
}
GL_EXPORT CUresult gl_x_cuParamSetSize(void) __asm__("cuParamSetSize");
CUresult gl_x_cuParamSetSize(void)
{
	return shim_unsupported(400, "cuParamSetSize");
}
GL_EXPORT CUresult gl_x_cuParamSetTexRef(void) __asm__("cuParamSetTexRef");
CUresult gl_x_cuParamSetTexRef(void)
{
	return shim_unsupported(401, "cuParamSetTexRef");
}
GL_EXPORT CUresult gl_x_cuParamSetf(void) __asm__("cuParamSetf");
CUresult gl_x_cuParamSetf(void)
{
	return shim_unsupported(402, "cuParamSetf");
}
GL_EXPORT CUresult gl_x_cuParamSeti(void) __asm__("cuParamSeti");
CUresult gl_x_cuParamSeti(void)
{
	return shim_unsupported(403, "cuParamSeti");
}
GL_EXPORT CUresult gl_x_cuParamSetv(void) __asm__("cuParamSetv");
CUresult gl_x_cuParamSetv(void)
{
	return shim_unsupported(404, "cuParamSetv");
}
GL_EXPORT CUresult gl_x_cuPointerGetAttribute(void) __asm__("cuPointerGetAttribute");
CUresult gl_x_cuPointerGetAttribute(void)
{
	return shim_unsupported(405, "cuPointerGetAttribute");
}
GL_EXPORT CUresult gl_x_cuPointerGetAttributes(void) __asm__("cuPointerGetAttributes");
CUresult gl_x_cuPointerGetAttributes(void)
{
	return shim_unsupported(406, "cuPointerGetAttributes");
}
GL_EXPORT CUresult gl_x_cuPointerSetAttribute(void) __asm__("cuPointerSetAttribute");
CUresult gl_x_cuPointerSetAttribute(void)
{
	return shim_unsupported(407, "cuPointerSetAttribute");
}
GL_EXPORT CUresult gl_x_cuProfilerInitialize(void) __asm__("cuProfilerInitialize");
CUresult gl_x_cuProfilerInitialize(void)
{
	return shim_unsupported(408, "cuProfilerInitialize");
}
GL_EXPORT CUresult gl_x_cuProfilerStart(void) __asm__("cuProfilerStart");
CUresult gl_x_cuProfilerStart(void)
{
	return shim_unsupported(409, "cuProfilerStart");
}
GL_EXPORT CUresult gl_x_cuProfilerStop(void) __asm__("cuProfilerStop");
CUresult gl_x_cuProfilerStop(void)
{
	return shim_unsupported(410, "cuProfilerStop");
}
GL_EXPORT CUresult gl_x_cuSignalExternalSemaphoresAsync(void) __asm__("cuSignalExternalSemaphoresAsync");
CUresult gl_x_cuSignalExternalSemaphoresAsync(void)
{
	return shim_unsupported(411, "cuSignalExternalSemaphoresAsync");
}
GL_EXPORT CUresult gl_x_cuSignalExternalSemaphoresAsync_ptsz(void) __asm__("cuSignalExternalSemaphoresAsync_ptsz");
CUresult gl_x_cuSignalExternalSemaphoresAsync_ptsz(void)
{
	return shim_unsupported(412, "cuSignalExternalSemaphoresAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamAddCallback(void) __asm__("cuStreamAddCallback");
CUresult gl_x_cuStreamAddCallback(void)
{
	return shim_unsupported(413, "cuStreamAddCallback");
}
GL_EXPORT CUresult gl_x_cuStreamAddCallback_ptsz(void) __asm__("cuStreamAddCallback_ptsz");
CUresult gl_x_cuStreamAddCallback_ptsz(void)
{
	return shim_unsupported(414, "cuStreamAddCallback_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamAttachMemAsync(void) __asm__("cuStreamAttachMemAsync");
CUresult gl_x_cuStreamAttachMemAsync(void)
{
	return shim_unsupported(415, "cuStreamAttachMemAsync");
}
GL_EXPORT CUresult gl_x_cuStreamAttachMemAsync_ptsz(void) __asm__("cuStreamAttachMemAsync_ptsz");
CUresult gl_x_cuStreamAttachMemAsync_ptsz(void)
{
	return shim_unsupported(416, "cuStreamAttachMemAsync_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamBatchMemOp(void) __asm__("cuStreamBatchMemOp");
CUresult gl_x_cuStreamBatchMemOp(void)
{
	return shim_unsupported(417, "cuStreamBatchMemOp");
}
GL_EXPORT CUresult gl_x_cuStreamBatchMemOp_ptsz(void) __asm__("cuStreamBatchMemOp_ptsz");
CUresult gl_x_cuStreamBatchMemOp_ptsz(void)
{
	return shim_unsupported(418, "cuStreamBatchMemOp_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamBatchMemOp_v2(void) __asm__("cuStreamBatchMemOp_v2");
CUresult gl_x_cuStreamBatchMemOp_v2(void)
{
	return shim_unsupported(419, "cuStreamBatchMemOp_v2");
}
GL_EXPORT CUresult gl_x_cuStreamBatchMemOp_v2_ptsz(void) __asm__("cuStreamBatchMemOp_v2_ptsz");
CUresult gl_x_cuStreamBatchMemOp_v2_ptsz(void)
{
	return shim_unsupported(420, "cuStreamBatchMemOp_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamBeginCapture(void) __asm__("cuStreamBeginCapture");
CUresult gl_x_cuStreamBeginCapture(void)
{
	return shim_unsupported(421, "cuStreamBeginCapture");
}
GL_EXPORT CUresult gl_x_cuStreamBeginCaptureToGraph(void) __asm__("cuStreamBeginCaptureToGraph");
CUresult gl_x_cuStreamBeginCaptureToGraph(void)
{
	return shim_unsupported(422, "cuStreamBeginCaptureToGraph");
}
GL_EXPORT CUresult gl_x_cuStreamBeginCaptureToGraph_ptsz(void) __asm__("cuStreamBeginCaptureToGraph_ptsz");
CUresult gl_x_cuStreamBeginCaptureToGraph_ptsz(void)
{
	return shim_unsupported(423, "cuStreamBeginCaptureToGraph_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamBeginCapture_ptsz(void) __asm__("cuStreamBeginCapture_ptsz");
CUresult gl_x_cuStreamBeginCapture_ptsz(void)
{
	return shim_unsupported(424, "cuStreamBeginCapture_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamBeginCapture_v2(void) __asm__("cuStreamBeginCapture_v2");
CUresult gl_x_cuStreamBeginCapture_v2(void)
{
	return shim_unsupported(425, "cuStreamBeginCapture_v2");
}
GL_EXPORT CUresult gl_x_cuStreamBeginCapture_v2_ptsz(void) __asm__("cuStreamBeginCapture_v2_ptsz");
CUresult gl_x_cuStreamBeginCapture_v2_ptsz(void)
{
	return shim_unsupported(426, "cuStreamBeginCapture_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamCopyAttributes(void) __asm__("cuStreamCopyAttributes");
CUresult gl_x_cuStreamCopyAttributes(void)
{
	return shim_unsupported(427, "cuStreamCopyAttributes");
}
GL_EXPORT CUresult gl_x_cuStreamCopyAttributes_ptsz(void) __asm__("cuStreamCopyAttributes_ptsz");
CUresult gl_x_cuStreamCopyAttributes_ptsz(void)
{
	return shim_unsupported(428, "cuStreamCopyAttributes_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamDestroy(void) __asm__("cuStreamDestroy");
CUresult gl_x_cuStreamDestroy(void)
{
	return shim_unsupported(429, "cuStreamDestroy");
}
GL_EXPORT CUresult gl_x_cuStreamEndCapture(void) __asm__("cuStreamEndCapture");
CUresult gl_x_cuStreamEndCapture(void)
{
	return shim_unsupported(430, "cuStreamEndCapture");
}
GL_EXPORT CUresult gl_x_cuStreamEndCapture_ptsz(void) __asm__("cuStreamEndCapture_ptsz");
CUresult gl_x_cuStreamEndCapture_ptsz(void)
{
	return shim_unsupported(431, "cuStreamEndCapture_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetAttribute(void) __asm__("cuStreamGetAttribute");
CUresult gl_x_cuStreamGetAttribute(void)
{
	return shim_unsupported(432, "cuStreamGetAttribute");
}
GL_EXPORT CUresult gl_x_cuStreamGetAttribute_ptsz(void) __asm__("cuStreamGetAttribute_ptsz");
CUresult gl_x_cuStreamGetAttribute_ptsz(void)
{
	return shim_unsupported(433, "cuStreamGetAttribute_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetCaptureInfo(void) __asm__("cuStreamGetCaptureInfo");
CUresult gl_x_cuStreamGetCaptureInfo(void)
{
	return shim_unsupported(434, "cuStreamGetCaptureInfo");
}
GL_EXPORT CUresult gl_x_cuStreamGetCaptureInfo_ptsz(void) __asm__("cuStreamGetCaptureInfo_ptsz");
CUresult gl_x_cuStreamGetCaptureInfo_ptsz(void)
{
	return shim_unsupported(435, "cuStreamGetCaptureInfo_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetCaptureInfo_v2(void) __asm__("cuStreamGetCaptureInfo_v2");
CUresult gl_x_cuStreamGetCaptureInfo_v2(void)
{
	return shim_unsupported(436, "cuStreamGetCaptureInfo_v2");
}
GL_EXPORT CUresult gl_x_cuStreamGetCaptureInfo_v2_ptsz(void) __asm__("cuStreamGetCaptureInfo_v2_ptsz");
CUresult gl_x_cuStreamGetCaptureInfo_v2_ptsz(void)
{
	return shim_unsupported(437, "cuStreamGetCaptureInfo_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetCaptureInfo_v3(void) __asm__("cuStreamGetCaptureInfo_v3");
CUresult gl_x_cuStreamGetCaptureInfo_v3(void)
{
	return shim_unsupported(438, "cuStreamGetCaptureInfo_v3");
}
GL_EXPORT CUresult gl_x_cuStreamGetCaptureInfo_v3_ptsz(void) __asm__("cuStreamGetCaptureInfo_v3_ptsz");
CUresult gl_x_cuStreamGetCaptureInfo_v3_ptsz(void)
{
	return shim_unsupported(439, "cuStreamGetCaptureInfo_v3_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetCtx(void) __asm__("cuStreamGetCtx");
CUresult gl_x_cuStreamGetCtx(void)
{
	return shim_unsupported(440, "cuStreamGetCtx");
}
GL_EXPORT CUresult gl_x_cuStreamGetCtx_ptsz(void) __asm__("cuStreamGetCtx_ptsz");
CUresult gl_x_cuStreamGetCtx_ptsz(void)
{
	return shim_unsupported(441, "cuStreamGetCtx_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetCtx_v2(void) __asm__("cuStreamGetCtx_v2");
CUresult gl_x_cuStreamGetCtx_v2(void)
{
	return shim_unsupported(442, "cuStreamGetCtx_v2");
}
GL_EXPORT CUresult gl_x_cuStreamGetCtx_v2_ptsz(void) __asm__("cuStreamGetCtx_v2_ptsz");
CUresult gl_x_cuStreamGetCtx_v2_ptsz(void)
{
	return shim_unsupported(443, "cuStreamGetCtx_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetDevice(void) __asm__("cuStreamGetDevice");
CUresult gl_x_cuStreamGetDevice(void)
{
	return shim_unsupported(444, "cuStreamGetDevice");
}
GL_EXPORT CUresult gl_x_cuStreamGetDevice_ptsz(void) __asm__("cuStreamGetDevice_ptsz");
CUresult gl_x_cuStreamGetDevice_ptsz(void)
{
	return shim_unsupported(445, "cuStreamGetDevice_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetFlags(void) __asm__("cuStreamGetFlags");
CUresult gl_x_cuStreamGetFlags(void)
{
	return shim_unsupported(446, "cuStreamGetFlags");
}
GL_EXPORT CUresult gl_x_cuStreamGetFlags_ptsz(void) __asm__("cuStreamGetFlags_ptsz");
CUresult gl_x_cuStreamGetFlags_ptsz(void)
{
	return shim_unsupported(447, "cuStreamGetFlags_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetGreenCtx(void) __asm__("cuStreamGetGreenCtx");
CUresult gl_x_cuStreamGetGreenCtx(void)
{
	return shim_unsupported(448, "cuStreamGetGreenCtx");
}
GL_EXPORT CUresult gl_x_cuStreamGetId(void) __asm__("cuStreamGetId");
CUresult gl_x_cuStreamGetId(void)
{
	return shim_unsupported(449, "cuStreamGetId");
}
GL_EXPORT CUresult gl_x_cuStreamGetId_ptsz(void) __asm__("cuStreamGetId_ptsz");
CUresult gl_x_cuStreamGetId_ptsz(void)
{
	return shim_unsupported(450, "cuStreamGetId_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamGetPriority(void) __asm__("cuStreamGetPriority");
CUresult gl_x_cuStreamGetPriority(void)
{
	return shim_unsupported(451, "cuStreamGetPriority");
}
GL_EXPORT CUresult gl_x_cuStreamGetPriority_ptsz(void) __asm__("cuStreamGetPriority_ptsz");
CUresult gl_x_cuStreamGetPriority_ptsz(void)
{
	return shim_unsupported(452, "cuStreamGetPriority_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamIsCapturing(void) __asm__("cuStreamIsCapturing");
CUresult gl_x_cuStreamIsCapturing(void)
{
	return shim_unsupported(453, "cuStreamIsCapturing");
}
GL_EXPORT CUresult gl_x_cuStreamIsCapturing_ptsz(void) __asm__("cuStreamIsCapturing_ptsz");
CUresult gl_x_cuStreamIsCapturing_ptsz(void)
{
	return shim_unsupported(454, "cuStreamIsCapturing_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamSetAttribute(void) __asm__("cuStreamSetAttribute");
CUresult gl_x_cuStreamSetAttribute(void)
{
	return shim_unsupported(455, "cuStreamSetAttribute");
}
GL_EXPORT CUresult gl_x_cuStreamSetAttribute_ptsz(void) __asm__("cuStreamSetAttribute_ptsz");
CUresult gl_x_cuStreamSetAttribute_ptsz(void)
{
	return shim_unsupported(456, "cuStreamSetAttribute_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamUpdateCaptureDependencies(void) __asm__("cuStreamUpdateCaptureDependencies");
CUresult gl_x_cuStreamUpdateCaptureDependencies(void)
{
	return shim_unsupported(457, "cuStreamUpdateCaptureDependencies");
}
GL_EXPORT CUresult gl_x_cuStreamUpdateCaptureDependencies_ptsz(void) __asm__("cuStreamUpdateCaptureDependencies_ptsz");
CUresult gl_x_cuStreamUpdateCaptureDependencies_ptsz(void)
{
	return shim_unsupported(458, "cuStreamUpdateCaptureDependencies_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamUpdateCaptureDependencies_v2(void) __asm__("cuStreamUpdateCaptureDependencies_v2");
CUresult gl_x_cuStreamUpdateCaptureDependencies_v2(void)
{
	return shim_unsupported(459, "cuStreamUpdateCaptureDependencies_v2");
}
GL_EXPORT CUresult gl_x_cuStreamUpdateCaptureDependencies_v2_ptsz(void) __asm__("cuStreamUpdateCaptureDependencies_v2_ptsz");
CUresult gl_x_cuStreamUpdateCaptureDependencies_v2_ptsz(void)
{
	return shim_unsupported(460, "cuStreamUpdateCaptureDependencies_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue32(void) __asm__("cuStreamWaitValue32");
CUresult gl_x_cuStreamWaitValue32(void)
{
	return shim_unsupported(461, "cuStreamWaitValue32");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue32_ptsz(void) __asm__("cuStreamWaitValue32_ptsz");
CUresult gl_x_cuStreamWaitValue32_ptsz(void)
{
	return shim_unsupported(462, "cuStreamWaitValue32_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue32_v2(void) __asm__("cuStreamWaitValue32_v2");
CUresult gl_x_cuStreamWaitValue32_v2(void)
{
	return shim_unsupported(463, "cuStreamWaitValue32_v2");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue32_v2_ptsz(void) __asm__("cuStreamWaitValue32_v2_ptsz");
CUresult gl_x_cuStreamWaitValue32_v2_ptsz(void)
{
	return shim_unsupported(464, "cuStreamWaitValue32_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue64(void) __asm__("cuStreamWaitValue64");
CUresult gl_x_cuStreamWaitValue64(void)
{
	return shim_unsupported(465, "cuStreamWaitValue64");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue64_ptsz(void) __asm__("cuStreamWaitValue64_ptsz");
CUresult gl_x_cuStreamWaitValue64_ptsz(void)
{
	return shim_unsupported(466, "cuStreamWaitValue64_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue64_v2(void) __asm__("cuStreamWaitValue64_v2");
CUresult gl_x_cuStreamWaitValue64_v2(void)
{
	return shim_unsupported(467, "cuStreamWaitValue64_v2");
}
GL_EXPORT CUresult gl_x_cuStreamWaitValue64_v2_ptsz(void) __asm__("cuStreamWaitValue64_v2_ptsz");
CUresult gl_x_cuStreamWaitValue64_v2_ptsz(void)
{
	return shim_unsupported(468, "cuStreamWaitValue64_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue32(void) __asm__("cuStreamWriteValue32");
CUresult gl_x_cuStreamWriteValue32(void)
{
	return shim_unsupported(469, "cuStreamWriteValue32");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue32_ptsz(void) __asm__("cuStreamWriteValue32_ptsz");
CUresult gl_x_cuStreamWriteValue32_ptsz(void)
{
	return shim_unsupported(470, "cuStreamWriteValue32_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue32_v2(void) __asm__("cuStreamWriteValue32_v2");
CUresult gl_x_cuStreamWriteValue32_v2(void)
{
	return shim_unsupported(471, "cuStreamWriteValue32_v2");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue32_v2_ptsz(void) __asm__("cuStreamWriteValue32_v2_ptsz");
CUresult gl_x_cuStreamWriteValue32_v2_ptsz(void)
{
	return shim_unsupported(472, "cuStreamWriteValue32_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue64(void) __asm__("cuStreamWriteValue64");
CUresult gl_x_cuStreamWriteValue64(void)
{
	return shim_unsupported(473, "cuStreamWriteValue64");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue64_ptsz(void) __asm__("cuStreamWriteValue64_ptsz");
CUresult gl_x_cuStreamWriteValue64_ptsz(void)
{
	return shim_unsupported(474, "cuStreamWriteValue64_ptsz");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue64_v2(void) __asm__("cuStreamWriteValue64_v2");
CUresult gl_x_cuStreamWriteValue64_v2(void)
{
	return shim_unsupported(475, "cuStreamWriteValue64_v2");
}
GL_EXPORT CUresult gl_x_cuStreamWriteValue64_v2_ptsz(void) __asm__("cuStreamWriteValue64_v2_ptsz");
CUresult gl_x_cuStreamWriteValue64_v2_ptsz(void)
{
	return shim_unsupported(476, "cuStreamWriteValue64_v2_ptsz");
}
GL_EXPORT CUresult gl_x_cuSurfObjectCreate(void) __asm__("cuSurfObjectCreate");
CUresult gl_x_cuSurfObjectCreate(void)
{
	return shim_unsupported(477, "cuSurfObjectCreate");
}
GL_EXPORT CUresult gl_x_cuSurfObjectDestroy(void) __asm__("cuSurfObjectDestroy");
CUresult gl_x_cuSurfObjectDestroy(void)
{
	return shim_unsupported(478, "cuSurfObjectDestroy");
}
GL_EXPORT CUresult gl_x_cuSurfObjectGetResourceDesc(void) __asm__("cuSurfObjectGetResourceDesc");
CUresult gl_x_cuSurfObjectGetResourceDesc(void)
{
	return shim_unsupported(479, "cuSurfObjectGetResourceDesc");
}
GL_EXPORT CUresult gl_x_cuSurfRefGetArray(void) __asm__("cuSurfRefGetArray");
CUresult gl_x_cuSurfRefGetArray(void)
{
	return shim_unsupported(480, "cuSurfRefGetArray");
}
GL_EXPORT CUresult gl_x_cuSurfRefSetArray(void) __asm__("cuSurfRefSetArray");
CUresult gl_x_cuSurfRefSetArray(void)
{
	return shim_unsupported(481, "cuSurfRefSetArray");
}
GL_EXPORT CUresult gl_x_cuTensorMapEncodeIm2col(void) __asm__("cuTensorMapEncodeIm2col");
CUresult gl_x_cuTensorMapEncodeIm2col(void)
{
	return shim_unsupported(482, "cuTensorMapEncodeIm2col");
}
GL_EXPORT CUresult gl_x_cuTensorMapEncodeIm2colWide(void) __asm__("cuTensorMapEncodeIm2colWide");
CUresult gl_x_cuTensorMapEncodeIm2colWide(void)
{
	return shim_unsupported(483, "cuTensorMapEncodeIm2colWide");
}
GL_EXPORT CUresult gl_x_cuTensorMapEncodeTiled(void) __asm__("cuTensorMapEncodeTiled");
CUresult gl_x_cuTensorMapEncodeTiled(void)
{
	return shim_unsupported(484, "cuTensorMapEncodeTiled");
}
GL_EXPORT CUresult gl_x_cuTensorMapReplaceAddress(void) __asm__("cuTensorMapReplaceAddress");
CUresult gl_x_cuTensorMapReplaceAddress(void)
{
	return shim_unsupported(485, "cuTensorMapReplaceAddress");
}
GL_EXPORT CUresult gl_x_cuTexObjectCreate(void) __asm__("cuTexObjectCreate");
CUresult gl_x_cuTexObjectCreate(void)
{
	return shim_unsupported(486, "cuTexObjectCreate");
}
GL_EXPORT CUresult gl_x_cuTexObjectDestroy(void) __asm__("cuTexObjectDestroy");
CUresult gl_x_cuTexObjectDestroy(void)
{
	return shim_unsupported(487, "cuTexObjectDestroy");
}
GL_EXPORT CUresult gl_x_cuTexObjectGetResourceDesc(void) __asm__("cuTexObjectGetResourceDesc");
CUresult gl_x_cuTexObjectGetResourceDesc(void)
{
	return shim_unsupported(488, "cuTexObjectGetResourceDesc");
}
GL_EXPORT CUresult gl_x_cuTexObjectGetResourceViewDesc(void) __asm__("cuTexObjectGetResourceViewDesc");
CUresult gl_x_cuTexObjectGetResourceViewDesc(void)
{
	return shim_unsupported(489, "cuTexObjectGetResourceViewDesc");
}
GL_EXPORT CUresult gl_x_cuTexObjectGetTextureDesc(void) __asm__("cuTexObjectGetTextureDesc");
CUresult gl_x_cuTexObjectGetTextureDesc(void)
{
	return shim_unsupported(490, "cuTexObjectGetTextureDesc");
}
GL_EXPORT CUresult gl_x_cuTexRefCreate(void) __asm__("cuTexRefCreate");
CUresult gl_x_cuTexRefCreate(void)
{
	return shim_unsupported(491, "cuTexRefCreate");
}
GL_EXPORT CUresult gl_x_cuTexRefDestroy(void) __asm__("cuTexRefDestroy");
CUresult gl_x_cuTexRefDestroy(void)
{
	return shim_unsupported(492, "cuTexRefDestroy");
}
GL_EXPORT CUresult gl_x_cuTexRefGetAddress(void) __asm__("cuTexRefGetAddress");
CUresult gl_x_cuTexRefGetAddress(void)
{
	return shim_unsupported(493, "cuTexRefGetAddress");
}
GL_EXPORT CUresult gl_x_cuTexRefGetAddressMode(void) __asm__("cuTexRefGetAddressMode");
CUresult gl_x_cuTexRefGetAddressMode(void)
{
	return shim_unsupported(494, "cuTexRefGetAddressMode");
}
GL_EXPORT CUresult gl_x_cuTexRefGetAddress_v2(void) __asm__("cuTexRefGetAddress_v2");
CUresult gl_x_cuTexRefGetAddress_v2(void)
{
	return shim_unsupported(495, "cuTexRefGetAddress_v2");
}
GL_EXPORT CUresult gl_x_cuTexRefGetArray(void) __asm__("cuTexRefGetArray");
CUresult gl_x_cuTexRefGetArray(void)
{
	return shim_unsupported(496, "cuTexRefGetArray");
}
GL_EXPORT CUresult gl_x_cuTexRefGetBorderColor(void) __asm__("cuTexRefGetBorderColor");
CUresult gl_x_cuTexRefGetBorderColor(void)
{
	return shim_unsupported(497, "cuTexRefGetBorderColor");
}
GL_EXPORT CUresult gl_x_cuTexRefGetFilterMode(void) __asm__("cuTexRefGetFilterMode");
CUresult gl_x_cuTexRefGetFilterMode(void)
{
	return shim_unsupported(498, "cuTexRefGetFilterMode");
}
GL_EXPORT CUresult gl_x_cuTexRefGetFlags(void) __asm__("cuTexRefGetFlags");
CUresult gl_x_cuTexRefGetFlags(void)
{
	return shim_unsupported(499, "cuTexRefGetFlags");
}
GL_EXPORT CUresult gl_x_cuTexRefGetFormat(void) __asm__("cuTexRefGetFormat");
CUresult gl_x_cuTexRefGetFormat(void)
{
	return shim_unsupported(500, "cuTexRefGetFormat");
}
GL_EXPORT CUresult gl_x_cuTexRefGetMaxAnisotropy(void) __asm__("cuTexRefGetMaxAnisotropy");
CUresult gl_x_cuTexRefGetMaxAnisotropy(void)
{
	return shim_unsupported(501, "cuTexRefGetMaxAnisotropy");
}
GL_EXPORT CUresult gl_x_cuTexRefGetMipmapFilterMode(void) __asm__("cuTexRefGetMipmapFilterMode");
CUresult gl_x_cuTexRefGetMipmapFilterMode(void)
{
	return shim_unsupported(502, "cuTexRefGetMipmapFilterMode");
}
GL_EXPORT CUresult gl_x_cuTexRefGetMipmapLevelBias(void) __asm__("cuTexRefGetMipmapLevelBias");
CUresult gl_x_cuTexRefGetMipmapLevelBias(void)
{
	return shim_unsupported(503, "cuTexRefGetMipmapLevelBias");
}
GL_EXPORT CUresult gl_x_cuTexRefGetMipmapLevelClamp(void) __asm__("cuTexRefGetMipmapLevelClamp");
CUresult gl_x_cuTexRefGetMipmapLevelClamp(void)
{
	return shim_unsupported(504, "cuTexRefGetMipmapLevelClamp");
}
GL_EXPORT CUresult gl_x_cuTexRefGetMipmappedArray(void) __asm__("cuTexRefGetMipmappedArray");
CUresult gl_x_cuTexRefGetMipmappedArray(void)
{
	return shim_unsupported(505, "cuTexRefGetMipmappedArray");
}
GL_EXPORT CUresult gl_x_cuTexRefSetAddress(void) __asm__("cuTexRefSetAddress");
CUresult gl_x_cuTexRefSetAddress(void)
{
	return shim_unsupported(506, "cuTexRefSetAddress");
}
GL_EXPORT CUresult gl_x_cuTexRefSetAddress2D(void) __asm__("cuTexRefSetAddress2D");
CUresult gl_x_cuTexRefSetAddress2D(void)
{
	return shim_unsupported(507, "cuTexRefSetAddress2D");
}
GL_EXPORT CUresult gl_x_cuTexRefSetAddress2D_v2(void) __asm__("cuTexRefSetAddress2D_v2");
CUresult gl_x_cuTexRefSetAddress2D_v2(void)
{
	return shim_unsupported(508, "cuTexRefSetAddress2D_v2");
}
GL_EXPORT CUresult gl_x_cuTexRefSetAddress2D_v3(void) __asm__("cuTexRefSetAddress2D_v3");
CUresult gl_x_cuTexRefSetAddress2D_v3(void)
{
	return shim_unsupported(509, "cuTexRefSetAddress2D_v3");
}
GL_EXPORT CUresult gl_x_cuTexRefSetAddressMode(void) __asm__("cuTexRefSetAddressMode");
CUresult gl_x_cuTexRefSetAddressMode(void)
{
	return shim_unsupported(510, "cuTexRefSetAddressMode");
}
GL_EXPORT CUresult gl_x_cuTexRefSetAddress_v2(void) __asm__("cuTexRefSetAddress_v2");
CUresult gl_x_cuTexRefSetAddress_v2(void)
{
	return shim_unsupported(511, "cuTexRefSetAddress_v2");
}
GL_EXPORT CUresult gl_x_cuTexRefSetArray(void) __asm__("cuTexRefSetArray");
CUresult gl_x_cuTexRefSetArray(void)
{
	return shim_unsupported(512, "cuTexRefSetArray");
}
GL_EXPORT CUresult gl_x_cuTexRefSetBorderColor(void) __asm__("cuTexRefSetBorderColor");
CUresult gl_x_cuTexRefSetBorderColor(void)
{
	return shim_unsupported(513, "cuTexRefSetBorderColor");
}
GL_EXPORT CUresult gl_x_cuTexRefSetFilterMode(void) __asm__("cuTexRefSetFilterMode");
CUresult gl_x_cuTexRefSetFilterMode(void)
{
	return shim_unsupported(514, "cuTexRefSetFilterMode");
}
GL_EXPORT CUresult gl_x_cuTexRefSetFlags(void) __asm__("cuTexRefSetFlags");
CUresult gl_x_cuTexRefSetFlags(void)
{
	return shim_unsupported(515, "cuTexRefSetFlags");
}
GL_EXPORT CUresult gl_x_cuTexRefSetFormat(void) __asm__("cuTexRefSetFormat");
CUresult gl_x_cuTexRefSetFormat(void)
{
	return shim_unsupported(516, "cuTexRefSetFormat");
}
GL_EXPORT CUresult gl_x_cuTexRefSetMaxAnisotropy(void) __asm__("cuTexRefSetMaxAnisotropy");
CUresult gl_x_cuTexRefSetMaxAnisotropy(void)
{
	return shim_unsupported(517, "cuTexRefSetMaxAnisotropy");
}
GL_EXPORT CUresult gl_x_cuTexRefSetMipmapFilterMode(void) __asm__("cuTexRefSetMipmapFilterMode");
CUresult gl_x_cuTexRefSetMipmapFilterMode(void)
{
	return shim_unsupported(518, "cuTexRefSetMipmapFilterMode");
}
GL_EXPORT CUresult gl_x_cuTexRefSetMipmapLevelBias(void) __asm__("cuTexRefSetMipmapLevelBias");
CUresult gl_x_cuTexRefSetMipmapLevelBias(void)
{
	return shim_unsupported(519, "cuTexRefSetMipmapLevelBias");
}
GL_EXPORT CUresult gl_x_cuTexRefSetMipmapLevelClamp(void) __asm__("cuTexRefSetMipmapLevelClamp");
CUresult gl_x_cuTexRefSetMipmapLevelClamp(void)
{
	return shim_unsupported(520, "cuTexRefSetMipmapLevelClamp");
}
GL_EXPORT CUresult gl_x_cuTexRefSetMipmappedArray(void) __asm__("cuTexRefSetMipmappedArray");
CUresult gl_x_cuTexRefSetMipmappedArray(void)
{
	return shim_unsupported(521, "cuTexRefSetMipmappedArray");
}
GL_EXPORT CUresult gl_x_cuThreadExchangeStreamCaptureMode(void) __asm__("cuThreadExchangeStreamCaptureMode");
CUresult gl_x_cuThreadExchangeStreamCaptureMode(void)
{
	return shim_unsupported(522, "cuThreadExchangeStreamCaptureMode");
}
GL_EXPORT CUresult gl_x_cuUserObjectCreate(void) __asm__("cuUserObjectCreate");
CUresult gl_x_cuUserObjectCreate(void)
{
	return shim_unsupported(523, "cuUserObjectCreate");
}
GL_EXPORT CUresult gl_x_cuUserObjectRelease(void) __asm__("cuUserObjectRelease");
CUresult gl_x_cuUserObjectRelease(void)
{
	return shim_unsupported(524, "cuUserObjectRelease");
}
GL_EXPORT CUresult gl_x_cuUserObjectRetain(void) __asm__("cuUserObjectRetain");
CUresult gl_x_cuUserObjectRetain(void)
{
	return shim_unsupported(525, "cuUserObjectRetain");
}
GL_EXPORT CUresult gl_x_cuWaitExternalSemaphoresAsync(void) __asm__("cuWaitExternalSemaphoresAsync");
CUresult gl_x_cuWaitExternalSemaphoresAsync(void)
{
	return shim_unsupported(526, "cuWaitExternalSemaphoresAsync");
}
GL_EXPORT CUresult gl_x_cuWaitExternalSemaphoresAsync_ptsz(void) __asm__("cuWaitExternalSemaphoresAsync_ptsz");
CUresult gl_x_cuWaitExternalSemaphoresAsync_ptsz(void)
{
	return shim_unsupported(527, "cuWaitExternalSemaphoresAsync_ptsz");
}

const unsigned int shim_unsupported_count = 528;
unsigned char shim_unsupported_said[528];

const struct shim_procaddr shim_procaddr_table[] = {
	{ "cuCtxCreate", 3020, 0, (void *)gl_x_cuCtxCreate_v2 },
	{ "cuCtxCreate", 12050, 0, (void *)gl_x_cuCtxCreate_v4 },
	{ "cuCtxDestroy", 4000, 0, (void *)gl_x_cuCtxDestroy_v2 },
	{ "cuCtxGetApiVersion", 3020, 0, (void *)gl_x_cuCtxGetApiVersion },
	{ "cuCtxGetCurrent", 4000, 0, (void *)gl_x_cuCtxGetCurrent },
	{ "cuCtxGetDevice", 2000, 0, (void *)gl_x_cuCtxGetDevice },
	{ "cuCtxGetDevice", 13000, 0, (void *)gl_x_cuCtxGetDevice_v2 },
	{ "cuCtxGetFlags", 7000, 0, (void *)gl_x_cuCtxGetFlags },
	{ "cuCtxGetId", 12000, 0, (void *)gl_x_cuCtxGetId },
	{ "cuCtxGetLimit", 3010, 0, (void *)gl_x_cuCtxGetLimit },
	{ "cuCtxGetStreamPriorityRange", 5050, 0, (void *)gl_x_cuCtxGetStreamPriorityRange },
	{ "cuCtxPopCurrent", 4000, 0, (void *)gl_x_cuCtxPopCurrent_v2 },
	{ "cuCtxPushCurrent", 4000, 0, (void *)gl_x_cuCtxPushCurrent_v2 },
	{ "cuCtxSetCurrent", 4000, 0, (void *)gl_x_cuCtxSetCurrent },
	{ "cuCtxSetLimit", 3010, 0, (void *)gl_x_cuCtxSetLimit },
	{ "cuCtxSynchronize", 2000, 0, (void *)gl_x_cuCtxSynchronize },
	{ "cuCtxSynchronize", 13000, 0, (void *)gl_x_cuCtxSynchronize_v2 },
	{ "cuDeviceComputeCapability", 2000, 0, (void *)gl_x_cuDeviceComputeCapability },
	{ "cuDeviceGet", 2000, 0, (void *)gl_x_cuDeviceGet },
	{ "cuDeviceGetAttribute", 2000, 0, (void *)gl_x_cuDeviceGetAttribute },
	{ "cuDeviceGetCount", 2000, 0, (void *)gl_x_cuDeviceGetCount },
	{ "cuDeviceGetName", 2000, 0, (void *)gl_x_cuDeviceGetName },
	{ "cuDeviceGetPCIBusId", 4010, 0, (void *)gl_x_cuDeviceGetPCIBusId },
	{ "cuDeviceGetProperties", 2000, 0, (void *)gl_x_cuDeviceGetProperties },
	{ "cuDeviceGetUuid", 9020, 0, (void *)gl_x_cuDeviceGetUuid },
	{ "cuDeviceGetUuid", 11040, 0, (void *)gl_x_cuDeviceGetUuid_v2 },
	{ "cuDevicePrimaryCtxGetState", 7000, 0, (void *)gl_x_cuDevicePrimaryCtxGetState },
	{ "cuDevicePrimaryCtxRelease", 11000, 0, (void *)gl_x_cuDevicePrimaryCtxRelease_v2 },
	{ "cuDevicePrimaryCtxReset", 11000, 0, (void *)gl_x_cuDevicePrimaryCtxReset_v2 },
	{ "cuDevicePrimaryCtxRetain", 7000, 0, (void *)gl_x_cuDevicePrimaryCtxRetain },
	{ "cuDevicePrimaryCtxSetFlags", 11000, 0, (void *)gl_x_cuDevicePrimaryCtxSetFlags_v2 },
	{ "cuDeviceTotalMem", 3020, 0, (void *)gl_x_cuDeviceTotalMem_v2 },
	{ "cuDriverGetVersion", 2020, 0, (void *)gl_x_cuDriverGetVersion },
	{ "cuEventCreate", 2000, 0, (void *)gl_x_cuEventCreate },
	{ "cuEventDestroy", 4000, 0, (void *)gl_x_cuEventDestroy_v2 },
	{ "cuEventElapsedTime", 2000, 0, (void *)gl_x_cuEventElapsedTime },
	{ "cuEventElapsedTime", 12080, 0, (void *)gl_x_cuEventElapsedTime_v2 },
	{ "cuEventQuery", 2000, 0, (void *)gl_x_cuEventQuery },
	{ "cuEventRecord", 2000, 0, (void *)gl_x_cuEventRecord },
	{ "cuEventRecord", 7000, SHIM_PA_PT, (void *)gl_x_cuEventRecord_ptsz },
	{ "cuEventSynchronize", 2000, 0, (void *)gl_x_cuEventSynchronize },
	{ "cuFuncGetAttribute", 2020, 0, (void *)gl_x_cuFuncGetAttribute },
	{ "cuFuncGetParamInfo", 12040, 0, (void *)gl_x_cuFuncGetParamInfo },
	{ "cuGetErrorName", 6000, 0, (void *)gl_x_cuGetErrorName },
	{ "cuGetErrorString", 6000, 0, (void *)gl_x_cuGetErrorString },
	{ "cuGetExportTable", 3000, 0, (void *)gl_x_cuGetExportTable },
	{ "cuGetProcAddress", 11030, 0, (void *)gl_x_cuGetProcAddress },
	{ "cuGetProcAddress", 12000, 0, (void *)gl_x_cuGetProcAddress_v2 },
	{ "cuInit", 2000, 0, (void *)gl_x_cuInit },
	{ "cuKernelGetAttribute", 12000, 0, (void *)gl_x_cuKernelGetAttribute },
	{ "cuKernelGetFunction", 12000, 0, (void *)gl_x_cuKernelGetFunction },
	{ "cuLaunchKernel", 4000, 0, (void *)gl_x_cuLaunchKernel },
	{ "cuLaunchKernel", 7000, SHIM_PA_PT, (void *)gl_x_cuLaunchKernel_ptsz },
	{ "cuLaunchKernelEx", 11060, 0, (void *)gl_x_cuLaunchKernelEx },
	{ "cuLaunchKernelEx", 11060, SHIM_PA_PT, (void *)gl_x_cuLaunchKernelEx_ptsz },
	{ "cuLibraryGetGlobal", 12000, 0, (void *)gl_x_cuLibraryGetGlobal },
	{ "cuLibraryGetKernel", 12000, 0, (void *)gl_x_cuLibraryGetKernel },
	{ "cuLibraryGetModule", 12000, 0, (void *)gl_x_cuLibraryGetModule },
	{ "cuLibraryLoadData", 12000, 0, (void *)gl_x_cuLibraryLoadData },
	{ "cuLibraryUnload", 12000, 0, (void *)gl_x_cuLibraryUnload },
	{ "cuMemAlloc", 3020, 0, (void *)gl_x_cuMemAlloc_v2 },
	{ "cuMemAllocHost", 3020, 0, (void *)gl_x_cuMemAllocHost_v2 },
	{ "cuMemFree", 3020, 0, (void *)gl_x_cuMemFree_v2 },
	{ "cuMemFreeHost", 2000, 0, (void *)gl_x_cuMemFreeHost },
	{ "cuMemGetAddressRange", 3020, 0, (void *)gl_x_cuMemGetAddressRange_v2 },
	{ "cuMemGetInfo", 3020, 0, (void *)gl_x_cuMemGetInfo_v2 },
	{ "cuMemHostAlloc", 2020, 0, (void *)gl_x_cuMemHostAlloc },
	{ "cuMemHostGetDevicePointer", 3020, 0, (void *)gl_x_cuMemHostGetDevicePointer_v2 },
	{ "cuMemHostGetFlags", 2030, 0, (void *)gl_x_cuMemHostGetFlags },
	{ "cuMemcpyDtoD", 3020, 0, (void *)gl_x_cuMemcpyDtoD_v2 },
	{ "cuMemcpyDtoD", 7000, SHIM_PA_PT, (void *)gl_x_cuMemcpyDtoD_v2_ptds },
	{ "cuMemcpyDtoDAsync", 3020, 0, (void *)gl_x_cuMemcpyDtoDAsync_v2 },
	{ "cuMemcpyDtoDAsync", 7000, SHIM_PA_PT, (void *)gl_x_cuMemcpyDtoDAsync_v2_ptsz },
	{ "cuMemcpyDtoH", 3020, 0, (void *)gl_x_cuMemcpyDtoH_v2 },
	{ "cuMemcpyDtoH", 7000, SHIM_PA_PT, (void *)gl_x_cuMemcpyDtoH_v2_ptds },
	{ "cuMemcpyDtoHAsync", 3020, 0, (void *)gl_x_cuMemcpyDtoHAsync_v2 },
	{ "cuMemcpyDtoHAsync", 7000, SHIM_PA_PT, (void *)gl_x_cuMemcpyDtoHAsync_v2_ptsz },
	{ "cuMemcpyHtoD", 3020, 0, (void *)gl_x_cuMemcpyHtoD_v2 },
	{ "cuMemcpyHtoD", 7000, SHIM_PA_PT, (void *)gl_x_cuMemcpyHtoD_v2_ptds },
	{ "cuMemcpyHtoDAsync", 3020, 0, (void *)gl_x_cuMemcpyHtoDAsync_v2 },
	{ "cuMemcpyHtoDAsync", 7000, SHIM_PA_PT, (void *)gl_x_cuMemcpyHtoDAsync_v2_ptsz },
	{ "cuMemsetD16", 3020, 0, (void *)gl_x_cuMemsetD16_v2 },
	{ "cuMemsetD16", 7000, SHIM_PA_PT, (void *)gl_x_cuMemsetD16_v2_ptds },
	{ "cuMemsetD16Async", 3020, 0, (void *)gl_x_cuMemsetD16Async },
	{ "cuMemsetD16Async", 7000, SHIM_PA_PT, (void *)gl_x_cuMemsetD16Async_ptsz },
	{ "cuMemsetD32", 3020, 0, (void *)gl_x_cuMemsetD32_v2 },
	{ "cuMemsetD32", 7000, SHIM_PA_PT, (void *)gl_x_cuMemsetD32_v2_ptds },
	{ "cuMemsetD32Async", 3020, 0, (void *)gl_x_cuMemsetD32Async },
	{ "cuMemsetD32Async", 7000, SHIM_PA_PT, (void *)gl_x_cuMemsetD32Async_ptsz },
	{ "cuMemsetD8", 3020, 0, (void *)gl_x_cuMemsetD8_v2 },
	{ "cuMemsetD8", 7000, SHIM_PA_PT, (void *)gl_x_cuMemsetD8_v2_ptds },
	{ "cuMemsetD8Async", 3020, 0, (void *)gl_x_cuMemsetD8Async },
	{ "cuMemsetD8Async", 7000, SHIM_PA_PT, (void *)gl_x_cuMemsetD8Async_ptsz },
	{ "cuModuleGetFunction", 2000, 0, (void *)gl_x_cuModuleGetFunction },
	{ "cuModuleGetGlobal", 3020, 0, (void *)gl_x_cuModuleGetGlobal_v2 },
	{ "cuModuleLoad", 2000, 0, (void *)gl_x_cuModuleLoad },
	{ "cuModuleLoadData", 2000, 0, (void *)gl_x_cuModuleLoadData },
	{ "cuModuleLoadDataEx", 2010, 0, (void *)gl_x_cuModuleLoadDataEx },
	{ "cuModuleLoadFatBinary", 2000, 0, (void *)gl_x_cuModuleLoadFatBinary },
	{ "cuModuleUnload", 2000, 0, (void *)gl_x_cuModuleUnload },
	{ "cuStreamCreate", 2000, 0, (void *)gl_x_cuStreamCreate },
	{ "cuStreamCreateWithPriority", 5050, 0, (void *)gl_x_cuStreamCreateWithPriority },
	{ "cuStreamDestroy", 4000, 0, (void *)gl_x_cuStreamDestroy_v2 },
	{ "cuStreamQuery", 2000, 0, (void *)gl_x_cuStreamQuery },
	{ "cuStreamQuery", 7000, SHIM_PA_PT, (void *)gl_x_cuStreamQuery_ptsz },
	{ "cuStreamSynchronize", 2000, 0, (void *)gl_x_cuStreamSynchronize },
	{ "cuStreamSynchronize", 7000, SHIM_PA_PT, (void *)gl_x_cuStreamSynchronize_ptsz },
	{ "cuStreamWaitEvent", 3020, 0, (void *)gl_x_cuStreamWaitEvent },
	{ "cuStreamWaitEvent", 7000, SHIM_PA_PT, (void *)gl_x_cuStreamWaitEvent_ptsz },
};
const unsigned int shim_procaddr_count = 109;
