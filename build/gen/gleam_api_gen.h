/* Generated from uapi/api.tbl by tools/gen-api.py: do not edit. */
#ifndef GLEAM_API_GEN_H
#define GLEAM_API_GEN_H

#include <linux/types.h>

enum gl_fn {
	GL_FN_cuInit = 1,
	GL_FN_cuDriverGetVersion = 2,
	GL_FN_cuGetErrorName = 3,
	GL_FN_cuGetErrorString = 4,
	GL_FN_cuGetProcAddress = 5,
	GL_FN_cuGetProcAddress_v2 = 6,
	GL_FN_cuGetExportTable = 7,
	GL_FN_cuDeviceGet = 10,
	GL_FN_cuDeviceGetCount = 11,
	GL_FN_cuDeviceGetName = 12,
	GL_FN_cuDeviceGetAttribute = 13,
	GL_FN_cuDeviceTotalMem = 14,
	GL_FN_cuDeviceGetUuid = 15,
	GL_FN_cuDeviceGetUuid_v2 = 16,
	GL_FN_cuDeviceGetProperties = 17,
	GL_FN_cuDeviceComputeCapability = 18,
	GL_FN_cuDeviceGetPCIBusId = 19,
	GL_FN_cuDevicePrimaryCtxRetain = 30,
	GL_FN_cuDevicePrimaryCtxRelease = 31,
	GL_FN_cuDevicePrimaryCtxReset = 32,
	GL_FN_cuDevicePrimaryCtxGetState = 33,
	GL_FN_cuDevicePrimaryCtxSetFlags = 34,
	GL_FN_cuCtxCreate = 40,
	GL_FN_cuCtxCreate_v4 = 41,
	GL_FN_cuCtxDestroy = 42,
	GL_FN_cuCtxPushCurrent = 43,
	GL_FN_cuCtxPopCurrent = 44,
	GL_FN_cuCtxSetCurrent = 45,
	GL_FN_cuCtxGetCurrent = 46,
	GL_FN_cuCtxGetDevice = 47,
	GL_FN_cuCtxGetDevice_v2 = 48,
	GL_FN_cuCtxSynchronize = 49,
	GL_FN_cuCtxSynchronize_v2 = 50,
	GL_FN_cuCtxGetApiVersion = 51,
	GL_FN_cuCtxGetLimit = 52,
	GL_FN_cuCtxSetLimit = 53,
	GL_FN_cuCtxGetFlags = 54,
	GL_FN_cuCtxGetId = 55,
	GL_FN_cuCtxGetStreamPriorityRange = 56,
	GL_FN_cuMemAlloc = 60,
	GL_FN_cuMemFree = 61,
	GL_FN_cuMemGetInfo = 62,
	GL_FN_cuMemAllocHost = 63,
	GL_FN_cuMemFreeHost = 64,
	GL_FN_cuMemHostAlloc = 65,
	GL_FN_cuMemHostGetDevicePointer = 66,
	GL_FN_cuMemHostGetFlags = 67,
	GL_FN_cuMemGetAddressRange = 68,
	GL_FN_cuMemcpyHtoD = 70,
	GL_FN_cuMemcpyDtoH = 71,
	GL_FN_cuMemcpyDtoD = 72,
	GL_FN_cuMemcpyHtoDAsync = 73,
	GL_FN_cuMemcpyDtoHAsync = 74,
	GL_FN_cuMemcpyDtoDAsync = 75,
	GL_FN_cuMemsetD8 = 76,
	GL_FN_cuMemsetD16 = 77,
	GL_FN_cuMemsetD32 = 78,
	GL_FN_cuMemsetD8Async = 79,
	GL_FN_cuMemsetD16Async = 80,
	GL_FN_cuMemsetD32Async = 81,
	GL_FN_cuModuleLoad = 90,
	GL_FN_cuModuleLoadData = 91,
	GL_FN_cuModuleLoadDataEx = 92,
	GL_FN_cuModuleLoadFatBinary = 93,
	GL_FN_cuModuleGetFunction = 94,
	GL_FN_cuModuleGetGlobal = 95,
	GL_FN_cuModuleUnload = 96,
	GL_FN_cuLibraryLoadData = 97,
	GL_FN_cuLibraryGetKernel = 98,
	GL_FN_cuLibraryGetModule = 99,
	GL_FN_cuLibraryUnload = 100,
	GL_FN_cuKernelGetFunction = 101,
	GL_FN_cuFuncGetAttribute = 102,
	GL_FN_cuFuncGetParamInfo = 103,
	GL_FN_cuKernelGetAttribute = 104,
	GL_FN_cuLibraryGetGlobal = 105,
	GL_FN_cuLaunchKernel = 110,
	GL_FN_cuLaunchKernelEx = 111,
	GL_FN_cuStreamCreate = 120,
	GL_FN_cuStreamCreateWithPriority = 121,
	GL_FN_cuStreamDestroy = 122,
	GL_FN_cuStreamSynchronize = 123,
	GL_FN_cuStreamQuery = 124,
	GL_FN_cuStreamWaitEvent = 125,
	GL_FN_cuEventCreate = 130,
	GL_FN_cuEventRecord = 131,
	GL_FN_cuEventQuery = 132,
	GL_FN_cuEventSynchronize = 133,
	GL_FN_cuEventElapsedTime = 134,
	GL_FN_cuEventElapsedTime_v2 = 135,
	GL_FN_cuEventDestroy = 136,
};

#define GL_FN_LIMIT 137

enum gl_class { GL_LOCAL = 0, GL_ASYNC = 1, GL_SYNC = 2 };

enum gl_hkind {
	GL_H_NONE = 0,
	GL_H_CTX,
	GL_H_EVENT,
	GL_H_FUNC,
	GL_H_KERNEL,
	GL_H_LIBRARY,
	GL_H_MODULE,
	GL_H_STREAM,
	GL_H_LIMIT
};

struct gl_fn_desc {
	const char *name;
	unsigned char cls;
};

/* Indexed by function number; name is NULL for unused numbers. */
extern const struct gl_fn_desc gl_fn_table[GL_FN_LIMIT];

static inline const char *gl_fn_name(unsigned int fn)
{
	return fn < GL_FN_LIMIT && gl_fn_table[fn].name ? gl_fn_table[fn].name : "?";
}

struct gl_a_cuInit {
	__u64 Flags;
};
struct gl_r_cuInit {
	__u64 unused;
};

struct gl_a_cuDevicePrimaryCtxRetain {
	__u64 pctx;	/* id */
	__s64 dev;
};
struct gl_r_cuDevicePrimaryCtxRetain {
	__u64 unused;
};

struct gl_a_cuDevicePrimaryCtxRelease {
	__s64 dev;
};
struct gl_r_cuDevicePrimaryCtxRelease {
	__u64 unused;
};

struct gl_a_cuDevicePrimaryCtxReset {
	__s64 dev;
};
struct gl_r_cuDevicePrimaryCtxReset {
	__u64 unused;
};

struct gl_a_cuDevicePrimaryCtxSetFlags {
	__s64 dev;
	__u64 flags;
};
struct gl_r_cuDevicePrimaryCtxSetFlags {
	__u64 unused;
};

struct gl_a_cuCtxCreate {
	__u64 pctx;	/* id */
	__u64 flags;
	__s64 dev;
};
struct gl_r_cuCtxCreate {
	__u64 unused;
};

struct gl_a_cuCtxCreate_v4 {
	__u64 pctx;	/* id */
	__u64 flags;
	__s64 dev;
};
struct gl_r_cuCtxCreate_v4 {
	__u64 unused;
};

struct gl_a_cuCtxDestroy {
	__u64 ctx;	/* id */
};
struct gl_r_cuCtxDestroy {
	__u64 unused;
};

struct gl_a_cuCtxSynchronize {
	__u64 unused;
};
struct gl_r_cuCtxSynchronize {
	__u64 unused;
};

struct gl_a_cuCtxSynchronize_v2 {
	__u64 ctx;	/* id */
};
struct gl_r_cuCtxSynchronize_v2 {
	__u64 unused;
};

struct gl_a_cuCtxGetApiVersion {
	__u64 ctx;	/* id */
};
struct gl_r_cuCtxGetApiVersion {
	__u64 version;
};

struct gl_a_cuCtxGetLimit {
	__s64 limit;
};
struct gl_r_cuCtxGetLimit {
	__u64 pvalue;
};

struct gl_a_cuCtxSetLimit {
	__s64 limit;
	__u64 value;
};
struct gl_r_cuCtxSetLimit {
	__u64 unused;
};

struct gl_a_cuCtxGetFlags {
	__u64 unused;
};
struct gl_r_cuCtxGetFlags {
	__u64 flags;
};

struct gl_a_cuCtxGetStreamPriorityRange {
	__u64 unused;
};
struct gl_r_cuCtxGetStreamPriorityRange {
	__s64 leastPriority;
	__s64 greatestPriority;
};

struct gl_a_cuMemAlloc {
	__u64 bytesize;
};
struct gl_r_cuMemAlloc {
	__u64 dptr;
};

struct gl_a_cuMemFree {
	__u64 dptr;
};
struct gl_r_cuMemFree {
	__u64 unused;
};

struct gl_a_cuMemGetInfo {
	__u64 unused;
};
struct gl_r_cuMemGetInfo {
	__u64 free;
	__u64 total;
};

struct gl_a_cuMemcpyHtoD {
	__u64 dstDevice;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyHtoD {
	__u64 unused;
};

struct gl_a_cuMemcpyDtoH {
	__u64 srcDevice;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyDtoH {
	__u64 unused;
};

struct gl_a_cuMemcpyDtoD {
	__u64 dstDevice;
	__u64 srcDevice;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyDtoD {
	__u64 unused;
};

struct gl_a_cuMemcpyHtoDAsync {
	__u64 dstDevice;
	__u64 ByteCount;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpyHtoDAsync {
	__u64 unused;
};

struct gl_a_cuMemcpyDtoHAsync {
	__u64 srcDevice;
	__u64 ByteCount;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpyDtoHAsync {
	__u64 unused;
};

struct gl_a_cuMemcpyDtoDAsync {
	__u64 dstDevice;
	__u64 srcDevice;
	__u64 ByteCount;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpyDtoDAsync {
	__u64 unused;
};

struct gl_a_cuMemsetD8 {
	__u64 dstDevice;
	__u64 uc;
	__u64 N;
};
struct gl_r_cuMemsetD8 {
	__u64 unused;
};

struct gl_a_cuMemsetD16 {
	__u64 dstDevice;
	__u64 us;
	__u64 N;
};
struct gl_r_cuMemsetD16 {
	__u64 unused;
};

struct gl_a_cuMemsetD32 {
	__u64 dstDevice;
	__u64 ui;
	__u64 N;
};
struct gl_r_cuMemsetD32 {
	__u64 unused;
};

struct gl_a_cuMemsetD8Async {
	__u64 dstDevice;
	__u64 uc;
	__u64 N;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemsetD8Async {
	__u64 unused;
};

struct gl_a_cuMemsetD16Async {
	__u64 dstDevice;
	__u64 us;
	__u64 N;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemsetD16Async {
	__u64 unused;
};

struct gl_a_cuMemsetD32Async {
	__u64 dstDevice;
	__u64 ui;
	__u64 N;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemsetD32Async {
	__u64 unused;
};

struct gl_a_cuModuleLoadData {
	__u64 module;	/* id */
};
struct gl_r_cuModuleLoadData {
	__u64 unused;
};

struct gl_a_cuModuleGetFunction {
	__u64 hfunc;	/* id */
	__u64 hmod;	/* id */
	__u64 name_len;	/* bytes incl. NUL, data follows */
};
struct gl_r_cuModuleGetFunction {
	__u64 unused;
};

struct gl_a_cuModuleGetGlobal {
	__u64 hmod;	/* id */
	__u64 name_len;	/* bytes incl. NUL, data follows */
};
struct gl_r_cuModuleGetGlobal {
	__u64 dptr;
	__u64 bytes;
};

struct gl_a_cuModuleUnload {
	__u64 hmod;	/* id */
};
struct gl_r_cuModuleUnload {
	__u64 unused;
};

struct gl_a_cuLibraryLoadData {
	__u64 library;	/* id */
	__u64 numJitOptions;
	__u64 numLibraryOptions;
};
struct gl_r_cuLibraryLoadData {
	__u64 unused;
};

struct gl_a_cuLibraryGetKernel {
	__u64 pKernel;	/* id */
	__u64 library;	/* id */
	__u64 name_len;	/* bytes incl. NUL, data follows */
};
struct gl_r_cuLibraryGetKernel {
	__u64 unused;
};

struct gl_a_cuLibraryGetModule {
	__u64 pMod;	/* id */
	__u64 library;	/* id */
};
struct gl_r_cuLibraryGetModule {
	__u64 unused;
};

struct gl_a_cuLibraryUnload {
	__u64 library;	/* id */
};
struct gl_r_cuLibraryUnload {
	__u64 unused;
};

struct gl_a_cuKernelGetFunction {
	__u64 pFunc;	/* id */
	__u64 kernel;	/* id */
};
struct gl_r_cuKernelGetFunction {
	__u64 unused;
};

struct gl_a_cuLibraryGetGlobal {
	__u64 library;	/* id */
	__u64 name_len;	/* bytes incl. NUL, data follows */
};
struct gl_r_cuLibraryGetGlobal {
	__u64 dptr;
	__u64 bytes;
};

struct gl_a_cuLaunchKernel {
	__u64 f;	/* id */
	__u64 gridDimX;
	__u64 gridDimY;
	__u64 gridDimZ;
	__u64 blockDimX;
	__u64 blockDimY;
	__u64 blockDimZ;
	__u64 sharedMemBytes;
	__u64 hStream;	/* id */
};
struct gl_r_cuLaunchKernel {
	__u64 unused;
};

struct gl_a_cuLaunchKernelEx {
	__u64 f;	/* id */
};
struct gl_r_cuLaunchKernelEx {
	__u64 unused;
};

struct gl_a_cuStreamCreate {
	__u64 phStream;	/* id */
	__u64 Flags;
};
struct gl_r_cuStreamCreate {
	__u64 unused;
};

struct gl_a_cuStreamCreateWithPriority {
	__u64 phStream;	/* id */
	__u64 flags;
	__s64 priority;
};
struct gl_r_cuStreamCreateWithPriority {
	__u64 unused;
};

struct gl_a_cuStreamDestroy {
	__u64 hStream;	/* id */
};
struct gl_r_cuStreamDestroy {
	__u64 unused;
};

struct gl_a_cuStreamSynchronize {
	__u64 hStream;	/* id */
};
struct gl_r_cuStreamSynchronize {
	__u64 unused;
};

struct gl_a_cuStreamQuery {
	__u64 hStream;	/* id */
};
struct gl_r_cuStreamQuery {
	__u64 unused;
};

struct gl_a_cuStreamWaitEvent {
	__u64 hStream;	/* id */
	__u64 hEvent;	/* id */
	__u64 Flags;
};
struct gl_r_cuStreamWaitEvent {
	__u64 unused;
};

struct gl_a_cuEventCreate {
	__u64 phEvent;	/* id */
	__u64 Flags;
};
struct gl_r_cuEventCreate {
	__u64 unused;
};

struct gl_a_cuEventRecord {
	__u64 hEvent;	/* id */
	__u64 hStream;	/* id */
};
struct gl_r_cuEventRecord {
	__u64 unused;
};

struct gl_a_cuEventQuery {
	__u64 hEvent;	/* id */
};
struct gl_r_cuEventQuery {
	__u64 unused;
};

struct gl_a_cuEventSynchronize {
	__u64 hEvent;	/* id */
};
struct gl_r_cuEventSynchronize {
	__u64 unused;
};

struct gl_a_cuEventElapsedTime {
	__u64 hStart;	/* id */
	__u64 hEnd;	/* id */
};
struct gl_r_cuEventElapsedTime {
	double pMilliseconds;
};

struct gl_a_cuEventElapsedTime_v2 {
	__u64 hStart;	/* id */
	__u64 hEnd;	/* id */
};
struct gl_r_cuEventElapsedTime_v2 {
	double pMilliseconds;
};

struct gl_a_cuEventDestroy {
	__u64 hEvent;	/* id */
};
struct gl_r_cuEventDestroy {
	__u64 unused;
};

#endif
