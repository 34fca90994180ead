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
	GL_FN_cuStreamGetPriority = 126,
	GL_FN_cuStreamGetFlags = 127,
	GL_FN_cuStreamWaitEvent = 125,
	GL_FN_cuEventCreate = 130,
	GL_FN_cuEventRecord = 131,
	GL_FN_cuEventQuery = 132,
	GL_FN_cuEventSynchronize = 133,
	GL_FN_cuEventElapsedTime = 134,
	GL_FN_cuEventElapsedTime_v2 = 135,
	GL_FN_cuEventDestroy = 136,
	GL_FN_cuDevicePrimaryCtxRelease_v1 = 200,
	GL_FN_cuDevicePrimaryCtxReset_v1 = 201,
	GL_FN_cuStreamIsCapturing = 202,
	GL_FN_cuStreamGetCaptureInfo = 203,
	GL_FN_cuStreamGetCaptureInfo_v2 = 204,
	GL_FN_cuStreamGetCaptureInfo_v3 = 205,
	GL_FN_cuThreadExchangeStreamCaptureMode = 206,
	GL_FN_cuStreamGetDevice = 207,
	GL_FN_cuStreamGetCtx = 208,
	GL_FN_cuStreamGetCtx_v2 = 209,
	GL_FN_cuMemHostRegister = 210,
	GL_FN_cuMemHostUnregister = 211,
	GL_FN_cuPointerGetAttribute = 212,
	GL_FN_cuPointerGetAttributes = 213,
	GL_FN_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags = 214,
	GL_FN_cuOccupancyMaxActiveBlocksPerMultiprocessor = 215,
	GL_FN_cuFuncSetAttribute = 216,
	GL_FN_cuKernelSetAttribute = 217,
	GL_FN_cuFuncSetCacheConfig = 218,
	GL_FN_cuKernelSetCacheConfig = 219,
	GL_FN_cuCtxGetCacheConfig = 220,
	GL_FN_cuCtxSetCacheConfig = 221,
	GL_FN_cuCtxGetSharedMemConfig = 222,
	GL_FN_cuCtxSetSharedMemConfig = 223,
	GL_FN_cuFuncSetSharedMemConfig = 224,
	GL_FN_cuDeviceCanAccessPeer = 225,
	GL_FN_cuDeviceGetP2PAttribute = 226,
	GL_FN_cuMemcpy = 227,
	GL_FN_cuMemcpyAsync = 228,
	GL_FN_cuKernelGetParamInfo = 229,
	GL_FN_cuOccupancyAvailableDynamicSMemPerBlock = 230,
	GL_FN_cuModuleGetLoadingMode = 231,
	GL_FN_cuOccupancyMaxActiveClusters = 232,
	GL_FN_cuOccupancyMaxPotentialClusterSize = 233,
	GL_FN_cuStreamGetId = 234,
	GL_FN_cuMemAllocAsync = 235,
	GL_FN_cuMemFreeAsync = 236,
	GL_FN_cuStreamBeginCapture = 237,
	GL_FN_cuStreamBeginCapture_v1 = 238,
	GL_FN_cuStreamEndCapture = 239,
	GL_FN_cuGraphInstantiateWithFlags = 240,
	GL_FN_cuGraphInstantiate = 241,
	GL_FN_cuGraphInstantiateWithParams = 242,
	GL_FN_cuGraphLaunch = 243,
	GL_FN_cuGraphUpload = 244,
	GL_FN_cuGraphExecDestroy = 245,
	GL_FN_cuGraphDestroy = 246,
	GL_FN_cuGraphGetNodes = 247,
	GL_FN_cuDeviceGetDefaultMemPool = 248,
	GL_FN_cuDeviceGetMemPool = 249,
	GL_FN_cuDeviceSetMemPool = 250,
	GL_FN_cuMemGetDefaultMemPool = 251,
	GL_FN_cuMemGetMemPool = 252,
	GL_FN_cuMemSetMemPool = 253,
	GL_FN_cuMemPoolCreate = 254,
	GL_FN_cuMemPoolDestroy = 255,
	GL_FN_cuMemPoolSetAttribute = 256,
	GL_FN_cuMemPoolGetAttribute = 257,
	GL_FN_cuMemPoolTrimTo = 258,
	GL_FN_cuMemAllocFromPoolAsync = 259,
	GL_FN_cuEventRecordWithFlags = 260,
	GL_FN_cuOccupancyMaxPotentialBlockSize = 261,
	GL_FN_cuOccupancyMaxPotentialBlockSizeWithFlags = 262,
	GL_FN_cuMemsetD2D8 = 263,
	GL_FN_cuMemsetD2D16 = 264,
	GL_FN_cuMemsetD2D32 = 265,
	GL_FN_cuMemsetD2D8Async = 266,
	GL_FN_cuMemsetD2D16Async = 267,
	GL_FN_cuMemsetD2D32Async = 268,
	GL_FN_cuStreamWriteValue32 = 269,
	GL_FN_cuStreamWriteValue64 = 270,
	GL_FN_cuStreamWaitValue32 = 271,
	GL_FN_cuStreamWaitValue64 = 272,
	GL_FN_cuProfilerStart = 273,
	GL_FN_cuProfilerStop = 274,
	GL_FN_cuCtxResetPersistingL2Cache = 275,
	GL_FN_cuDeviceGetTexture1DLinearMaxWidth = 276,
	GL_FN_cuDeviceGetExecAffinitySupport = 277,
	GL_FN_cuLaunchHostFunc = 300,
	GL_FN_cuStreamAddCallback = 301,
	GL_FN_gleamHostFuncRun = 302,
	GL_FN_gleamOutput = 303,
	GL_FN_cuArrayCreate = 350,
	GL_FN_cuArray3DCreate = 351,
	GL_FN_cuArrayDestroy = 352,
	GL_FN_cuArrayGetDescriptor = 353,
	GL_FN_cuArray3DGetDescriptor = 354,
	GL_FN_cuArrayGetMemoryRequirements = 355,
	GL_FN_cuMipmappedArrayCreate = 356,
	GL_FN_cuMipmappedArrayDestroy = 357,
	GL_FN_cuMipmappedArrayGetLevel = 358,
	GL_FN_cuMemcpyHtoA = 360,
	GL_FN_cuMemcpyHtoAAsync = 361,
	GL_FN_cuMemcpyAtoH = 362,
	GL_FN_cuMemcpyAtoHAsync = 363,
	GL_FN_cuMemcpyDtoA = 364,
	GL_FN_cuMemcpyAtoD = 365,
	GL_FN_cuMemcpyAtoA = 366,
	GL_FN_cuMemcpy2D = 367,
	GL_FN_cuMemcpy2DUnaligned = 368,
	GL_FN_cuMemcpy2DAsync = 369,
	GL_FN_cuMemcpy3D = 370,
	GL_FN_cuMemcpy3DAsync = 371,
	GL_FN_cuMemcpy3DPeer = 372,
	GL_FN_cuMemcpy3DPeerAsync = 373,
	GL_FN_cuTexObjectCreate = 380,
	GL_FN_cuTexObjectDestroy = 381,
	GL_FN_cuTexObjectGetResourceDesc = 382,
	GL_FN_cuTexObjectGetTextureDesc = 383,
	GL_FN_cuTexObjectGetResourceViewDesc = 384,
	GL_FN_cuSurfObjectCreate = 385,
	GL_FN_cuSurfObjectDestroy = 386,
	GL_FN_cuSurfObjectGetResourceDesc = 387,
	GL_FN_cuMemGetAllocationGranularity = 450,
	GL_FN_cuMemAddressReserve = 451,
	GL_FN_cuMemAddressFree = 452,
	GL_FN_cuMemCreate = 453,
	GL_FN_cuMemRelease = 454,
	GL_FN_cuMemMap = 455,
	GL_FN_cuMemUnmap = 456,
	GL_FN_cuMemSetAccess = 457,
	GL_FN_cuMemGetAccess = 458,
	GL_FN_cuMemGetAllocationPropertiesFromHandle = 459,
	GL_FN_cuMemRetainAllocationHandle = 460,
	GL_FN_cuMemExportToShareableHandle = 461,
	GL_FN_cuMemImportFromShareableHandle = 462,
	GL_FN_cuMemcpyPeer = 470,
	GL_FN_cuMemcpyPeerAsync = 471,
	GL_FN_cuCtxEnablePeerAccess = 472,
	GL_FN_cuCtxDisablePeerAccess = 473,
	GL_FN_cuMemAllocManaged = 480,
	GL_FN_cuMemAdvise = 481,
	GL_FN_cuMemAdvise_v1 = 482,
	GL_FN_cuMemPrefetchAsync = 483,
	GL_FN_cuMemPrefetchAsync_v1 = 484,
	GL_FN_cuMemRangeGetAttribute = 485,
	GL_FN_cuMemRangeGetAttributes = 486,
	GL_FN_cuStreamAttachMemAsync = 487,
	GL_FN_gleamTwinSet = 500,
	GL_FN_gleamTwinPush = 501,
	GL_FN_gleamTwinPull = 502,
	GL_FN_cuGraphCreate = 530,
	GL_FN_cuGraphAddNode = 531,
	GL_FN_cuGraphAddNode_v1 = 532,
	GL_FN_cuGraphNodeSetParams = 533,
	GL_FN_cuGraphExecNodeSetParams = 534,
	GL_FN_cuGraphAddKernelNode = 535,
	GL_FN_cuGraphAddKernelNode_v1 = 536,
	GL_FN_cuGraphKernelNodeGetParams = 537,
	GL_FN_cuGraphKernelNodeGetParams_v1 = 538,
	GL_FN_cuGraphKernelNodeSetParams = 539,
	GL_FN_cuGraphKernelNodeSetParams_v1 = 540,
	GL_FN_cuGraphExecKernelNodeSetParams = 541,
	GL_FN_cuGraphExecKernelNodeSetParams_v1 = 542,
	GL_FN_cuGraphAddMemcpyNode = 543,
	GL_FN_cuGraphMemcpyNodeGetParams = 544,
	GL_FN_cuGraphMemcpyNodeSetParams = 545,
	GL_FN_cuGraphExecMemcpyNodeSetParams = 546,
	GL_FN_cuGraphAddMemsetNode = 547,
	GL_FN_cuGraphMemsetNodeGetParams = 548,
	GL_FN_cuGraphMemsetNodeSetParams = 549,
	GL_FN_cuGraphExecMemsetNodeSetParams = 550,
	GL_FN_cuGraphAddHostNode = 551,
	GL_FN_cuGraphHostNodeGetParams = 552,
	GL_FN_cuGraphHostNodeSetParams = 553,
	GL_FN_cuGraphExecHostNodeSetParams = 554,
	GL_FN_cuGraphAddChildGraphNode = 555,
	GL_FN_cuGraphExecChildGraphNodeSetParams = 556,
	GL_FN_cuGraphAddEmptyNode = 557,
	GL_FN_cuGraphAddEventRecordNode = 558,
	GL_FN_cuGraphEventRecordNodeGetEvent = 559,
	GL_FN_cuGraphEventRecordNodeSetEvent = 560,
	GL_FN_cuGraphExecEventRecordNodeSetEvent = 561,
	GL_FN_cuGraphAddEventWaitNode = 562,
	GL_FN_cuGraphEventWaitNodeGetEvent = 563,
	GL_FN_cuGraphEventWaitNodeSetEvent = 564,
	GL_FN_cuGraphExecEventWaitNodeSetEvent = 565,
	GL_FN_cuGraphAddMemAllocNode = 566,
	GL_FN_cuGraphMemAllocNodeGetParams = 567,
	GL_FN_cuGraphAddMemFreeNode = 568,
	GL_FN_cuGraphMemFreeNodeGetParams = 569,
	GL_FN_cuGraphConditionalHandleCreate = 570,
	GL_FN_cuGraphGetRootNodes = 571,
	GL_FN_cuGraphNodeGetType = 572,
	GL_FN_cuGraphNodeGetDependencies = 573,
	GL_FN_cuGraphNodeGetDependencies_v1 = 574,
	GL_FN_cuGraphNodeGetDependentNodes = 575,
	GL_FN_cuGraphNodeGetDependentNodes_v1 = 576,
	GL_FN_cuGraphGetEdges = 577,
	GL_FN_cuGraphGetEdges_v1 = 578,
	GL_FN_cuGraphAddDependencies = 579,
	GL_FN_cuGraphAddDependencies_v1 = 580,
	GL_FN_cuGraphRemoveDependencies = 581,
	GL_FN_cuGraphRemoveDependencies_v1 = 582,
	GL_FN_cuGraphDestroyNode = 583,
	GL_FN_cuGraphClone = 584,
	GL_FN_cuGraphNodeFindInClone = 585,
	GL_FN_cuGraphExecUpdate = 586,
	GL_FN_cuGraphExecUpdate_v1 = 587,
	GL_FN_cuGraphNodeSetEnabled = 588,
	GL_FN_cuGraphNodeGetEnabled = 589,
	GL_FN_cuGraphExecGetFlags = 590,
	GL_FN_cuLinkCreate = 600,
	GL_FN_cuLinkAddData = 601,
	GL_FN_cuLinkAddFile = 602,
	GL_FN_cuLinkComplete = 603,
	GL_FN_cuLinkDestroy = 604,
};

#define GL_FN_LIMIT 605

enum gl_class { GL_LOCAL = 0, GL_ASYNC = 1, GL_SYNC = 2 };

enum gl_hkind {
	GL_H_NONE = 0,
	GL_H_ARRAY,
	GL_H_CTX,
	GL_H_EVENT,
	GL_H_FUNC,
	GL_H_GRAPH,
	GL_H_GRAPHEXEC,
	GL_H_GRAPHNODE,
	GL_H_KERNEL,
	GL_H_LIBRARY,
	GL_H_LINK,
	GL_H_MEMHANDLE,
	GL_H_MEMPOOL,
	GL_H_MIPMAP,
	GL_H_MODULE,
	GL_H_STREAM,
	GL_H_LIMIT
};

/* Traits (uapi/api.tbl's header). */
#define GL_T_NOCTX	(1U << 0)	/* noctx */
#define GL_T_WORK	(1U << 1)	/* work */
#define GL_T_FILL	(1U << 2)	/* fill */
#define GL_T_ORDER	(1U << 3)	/* order */
#define GL_T_TOHOST	(1U << 4)	/* tohost */
#define GL_T_WAIT_STREAM	(1U << 5)	/* wait:stream */
#define GL_T_WAIT_CTX	(1U << 6)	/* wait:ctx */
#define GL_T_WAIT_EVENT	(1U << 7)	/* wait:event */
#define GL_T_QUERY_STREAM	(1U << 8)	/* query:stream */
#define GL_T_QUERY_EVENT	(1U << 9)	/* query:event */
#define GL_T_GPU	(1U << 10)	/* gpu */
#define GL_T_LEGACY	(1U << 11)	/* legacy */
#define GL_T_ASIDE	(1U << 12)	/* aside */
#define GL_T_ORDERED	(1U << 13)	/* ordered */
#define GL_T_ONCE	(1U << 14)	/* once */

struct gl_fn_desc {
	const char *name;
	unsigned char cls;
	/* It makes something the caller holds: a handle, or device memory. */
	unsigned char creates;
	unsigned short traits;	/* GL_T_* */
};

/* Indexed by function number; name is NULL for unused numbers. */
extern const struct gl_fn_desc gl_fn_table[GL_FN_LIMIT];
extern const unsigned short gl_fn_args_size[GL_FN_LIMIT];

static inline unsigned int gl_fn_traits(unsigned int fn)
{
	return fn < GL_FN_LIMIT ? gl_fn_table[fn].traits : 0;
}

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
	__u64 pLib;	/* id */
	__u64 numJitOptions;
	__u64 numLibraryOptions;
};
struct gl_r_cuLibraryLoadData {
	__u64 unused;
};

struct gl_a_cuLibraryGetKernel {
	__u64 pKernel;	/* id */
	__u64 hLib;	/* id */
	__u64 name_len;	/* bytes incl. NUL, data follows */
};
struct gl_r_cuLibraryGetKernel {
	__u64 unused;
};

struct gl_a_cuLibraryGetModule {
	__u64 pMod;	/* id */
	__u64 hLib;	/* id */
};
struct gl_r_cuLibraryGetModule {
	__u64 unused;
};

struct gl_a_cuLibraryUnload {
	__u64 hLib;	/* id */
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
	__u64 hLib;	/* id */
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

struct gl_a_cuStreamGetPriority {
	__u64 hStream;	/* id */
};
struct gl_r_cuStreamGetPriority {
	__s64 priority;
};

struct gl_a_cuStreamGetFlags {
	__u64 hStream;	/* id */
};
struct gl_r_cuStreamGetFlags {
	__u64 flags;
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

struct gl_a_cuFuncSetAttribute {
	__u64 hfunc;	/* id */
	__s64 attrib;
	__s64 value;
};
struct gl_r_cuFuncSetAttribute {
	__u64 unused;
};

struct gl_a_cuKernelSetAttribute {
	__s64 attrib;
	__s64 val;
	__u64 kernel;	/* id */
	__s64 dev;
};
struct gl_r_cuKernelSetAttribute {
	__u64 unused;
};

struct gl_a_cuFuncSetCacheConfig {
	__u64 hfunc;	/* id */
	__s64 config;
};
struct gl_r_cuFuncSetCacheConfig {
	__u64 unused;
};

struct gl_a_cuKernelSetCacheConfig {
	__u64 kernel;	/* id */
	__s64 config;
	__s64 dev;
};
struct gl_r_cuKernelSetCacheConfig {
	__u64 unused;
};

struct gl_a_cuCtxSetCacheConfig {
	__s64 config;
};
struct gl_r_cuCtxSetCacheConfig {
	__u64 unused;
};

struct gl_a_cuDeviceCanAccessPeer {
	__s64 dev;
	__s64 peerDev;
};
struct gl_r_cuDeviceCanAccessPeer {
	__s64 canAccessPeer;
};

struct gl_a_cuDeviceGetP2PAttribute {
	__s64 attrib;
	__s64 srcDevice;
	__s64 dstDevice;
};
struct gl_r_cuDeviceGetP2PAttribute {
	__s64 value;
};

struct gl_a_cuStreamGetId {
	__u64 hStream;	/* id */
};
struct gl_r_cuStreamGetId {
	__u64 streamId;
};

struct gl_a_cuMemAllocAsync {
	__u64 bytesize;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemAllocAsync {
	__u64 dptr;
};

struct gl_a_cuMemFreeAsync {
	__u64 dptr;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemFreeAsync {
	__u64 unused;
};

struct gl_a_cuStreamBeginCapture {
	__u64 hStream;	/* id */
	__s64 mode;
};
struct gl_r_cuStreamBeginCapture {
	__u64 unused;
};

struct gl_a_cuStreamEndCapture {
	__u64 hStream;	/* id */
	__u64 phGraph;	/* id */
};
struct gl_r_cuStreamEndCapture {
	__u64 unused;
};

struct gl_a_cuGraphInstantiateWithFlags {
	__u64 phGraphExec;	/* id */
	__u64 hGraph;	/* id */
	__u64 flags;
};
struct gl_r_cuGraphInstantiateWithFlags {
	__u64 unused;
};

struct gl_a_cuGraphLaunch {
	__u64 hGraphExec;	/* id */
	__u64 hStream;	/* id */
};
struct gl_r_cuGraphLaunch {
	__u64 unused;
};

struct gl_a_cuGraphUpload {
	__u64 hGraphExec;	/* id */
	__u64 hStream;	/* id */
};
struct gl_r_cuGraphUpload {
	__u64 unused;
};

struct gl_a_cuGraphExecDestroy {
	__u64 hGraphExec;	/* id */
};
struct gl_r_cuGraphExecDestroy {
	__u64 unused;
};

struct gl_a_cuGraphDestroy {
	__u64 hGraph;	/* id */
};
struct gl_r_cuGraphDestroy {
	__u64 unused;
};

struct gl_a_cuGraphGetNodes {
	__u64 hGraph;	/* id */
};
struct gl_r_cuGraphGetNodes {
	__u64 unused;
};

struct gl_a_cuDeviceGetDefaultMemPool {
	__u64 pool_out;	/* id */
	__s64 dev;
};
struct gl_r_cuDeviceGetDefaultMemPool {
	__u64 unused;
};

struct gl_a_cuDeviceSetMemPool {
	__s64 dev;
	__u64 pool;	/* id */
};
struct gl_r_cuDeviceSetMemPool {
	__u64 unused;
};

struct gl_a_cuMemPoolCreate {
	__u64 pool;	/* id */
};
struct gl_r_cuMemPoolCreate {
	__u64 unused;
};

struct gl_a_cuMemPoolDestroy {
	__u64 pool;	/* id */
};
struct gl_r_cuMemPoolDestroy {
	__u64 unused;
};

struct gl_a_cuMemPoolSetAttribute {
	__u64 pool;	/* id */
	__s64 attr;
};
struct gl_r_cuMemPoolSetAttribute {
	__u64 unused;
};

struct gl_a_cuMemPoolGetAttribute {
	__u64 pool;	/* id */
	__s64 attr;
};
struct gl_r_cuMemPoolGetAttribute {
	__u64 unused;
};

struct gl_a_cuMemPoolTrimTo {
	__u64 pool;	/* id */
	__u64 minBytesToKeep;
};
struct gl_r_cuMemPoolTrimTo {
	__u64 unused;
};

struct gl_a_cuMemAllocFromPoolAsync {
	__u64 bytesize;
	__u64 pool;	/* id */
	__u64 hStream;	/* id */
};
struct gl_r_cuMemAllocFromPoolAsync {
	__u64 dptr;
};

struct gl_a_cuMemsetD2D8 {
	__u64 dstDevice;
	__u64 dstPitch;
	__u64 uc;
	__u64 Width;
	__u64 Height;
};
struct gl_r_cuMemsetD2D8 {
	__u64 unused;
};

struct gl_a_cuMemsetD2D16 {
	__u64 dstDevice;
	__u64 dstPitch;
	__u64 us;
	__u64 Width;
	__u64 Height;
};
struct gl_r_cuMemsetD2D16 {
	__u64 unused;
};

struct gl_a_cuMemsetD2D32 {
	__u64 dstDevice;
	__u64 dstPitch;
	__u64 ui;
	__u64 Width;
	__u64 Height;
};
struct gl_r_cuMemsetD2D32 {
	__u64 unused;
};

struct gl_a_cuMemsetD2D8Async {
	__u64 dstDevice;
	__u64 dstPitch;
	__u64 uc;
	__u64 Width;
	__u64 Height;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemsetD2D8Async {
	__u64 unused;
};

struct gl_a_cuMemsetD2D16Async {
	__u64 dstDevice;
	__u64 dstPitch;
	__u64 us;
	__u64 Width;
	__u64 Height;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemsetD2D16Async {
	__u64 unused;
};

struct gl_a_cuMemsetD2D32Async {
	__u64 dstDevice;
	__u64 dstPitch;
	__u64 ui;
	__u64 Width;
	__u64 Height;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemsetD2D32Async {
	__u64 unused;
};

struct gl_a_cuStreamWriteValue32 {
	__u64 stream;	/* id */
	__u64 addr;
	__u64 value;
	__u64 flags;
};
struct gl_r_cuStreamWriteValue32 {
	__u64 unused;
};

struct gl_a_cuStreamWriteValue64 {
	__u64 stream;	/* id */
	__u64 addr;
	__u64 value;
	__u64 flags;
};
struct gl_r_cuStreamWriteValue64 {
	__u64 unused;
};

struct gl_a_cuStreamWaitValue32 {
	__u64 stream;	/* id */
	__u64 addr;
	__u64 value;
	__u64 flags;
};
struct gl_r_cuStreamWaitValue32 {
	__u64 unused;
};

struct gl_a_cuStreamWaitValue64 {
	__u64 stream;	/* id */
	__u64 addr;
	__u64 value;
	__u64 flags;
};
struct gl_r_cuStreamWaitValue64 {
	__u64 unused;
};

struct gl_a_cuProfilerStart {
	__u64 unused;
};
struct gl_r_cuProfilerStart {
	__u64 unused;
};

struct gl_a_cuProfilerStop {
	__u64 unused;
};
struct gl_r_cuProfilerStop {
	__u64 unused;
};

struct gl_a_cuCtxResetPersistingL2Cache {
	__u64 unused;
};
struct gl_r_cuCtxResetPersistingL2Cache {
	__u64 unused;
};

struct gl_a_cuDeviceGetTexture1DLinearMaxWidth {
	__s64 format;
	__u64 numChannels;
	__s64 dev;
};
struct gl_r_cuDeviceGetTexture1DLinearMaxWidth {
	__u64 maxWidthInElements;
};

struct gl_a_cuDeviceGetExecAffinitySupport {
	__s64 type;
	__s64 dev;
};
struct gl_r_cuDeviceGetExecAffinitySupport {
	__s64 pi;
};

struct gl_a_cuLaunchHostFunc {
	__u64 hStream;	/* id */
	__s64 fn;
};
struct gl_r_cuLaunchHostFunc {
	__u64 unused;
};

struct gl_a_cuStreamAddCallback {
	__u64 hStream;	/* id */
	__s64 callback;
	__u64 flags;
};
struct gl_r_cuStreamAddCallback {
	__u64 unused;
};

struct gl_a_gleamHostFuncRun {
	__u64 id;
	__u64 run;
};
struct gl_r_gleamHostFuncRun {
	__u64 unused;
};

struct gl_a_gleamOutput {
	__u64 unused;
};
struct gl_r_gleamOutput {
	__u64 unused;
};

struct gl_a_cuArrayCreate {
	__u64 pHandle;	/* id */
};
struct gl_r_cuArrayCreate {
	__u64 unused;
};

struct gl_a_cuArray3DCreate {
	__u64 pHandle;	/* id */
};
struct gl_r_cuArray3DCreate {
	__u64 unused;
};

struct gl_a_cuArrayDestroy {
	__u64 hArray;	/* id */
};
struct gl_r_cuArrayDestroy {
	__u64 unused;
};

struct gl_a_cuMipmappedArrayCreate {
	__u64 pHandle;	/* id */
	__u64 numMipmapLevels;
};
struct gl_r_cuMipmappedArrayCreate {
	__u64 unused;
};

struct gl_a_cuMipmappedArrayDestroy {
	__u64 hMipmappedArray;	/* id */
};
struct gl_r_cuMipmappedArrayDestroy {
	__u64 unused;
};

struct gl_a_cuMipmappedArrayGetLevel {
	__u64 pLevelArray;	/* id */
	__u64 hMipmappedArray;	/* id */
	__u64 level;
};
struct gl_r_cuMipmappedArrayGetLevel {
	__u64 unused;
};

struct gl_a_cuMemcpyHtoA {
	__u64 dstArray;	/* id */
	__u64 dstOffset;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyHtoA {
	__u64 unused;
};

struct gl_a_cuMemcpyHtoAAsync {
	__u64 dstArray;	/* id */
	__u64 dstOffset;
	__u64 ByteCount;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpyHtoAAsync {
	__u64 unused;
};

struct gl_a_cuMemcpyAtoH {
	__u64 srcArray;	/* id */
	__u64 srcOffset;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyAtoH {
	__u64 unused;
};

struct gl_a_cuMemcpyAtoHAsync {
	__u64 srcArray;	/* id */
	__u64 srcOffset;
	__u64 ByteCount;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpyAtoHAsync {
	__u64 unused;
};

struct gl_a_cuMemcpyDtoA {
	__u64 dstArray;	/* id */
	__u64 dstOffset;
	__u64 srcDevice;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyDtoA {
	__u64 unused;
};

struct gl_a_cuMemcpyAtoD {
	__u64 dstDevice;
	__u64 srcArray;	/* id */
	__u64 srcOffset;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyAtoD {
	__u64 unused;
};

struct gl_a_cuMemcpyAtoA {
	__u64 dstArray;	/* id */
	__u64 dstOffset;
	__u64 srcArray;	/* id */
	__u64 srcOffset;
	__u64 ByteCount;
};
struct gl_r_cuMemcpyAtoA {
	__u64 unused;
};

struct gl_a_cuMemcpy2D {
	__u64 unused;
};
struct gl_r_cuMemcpy2D {
	__u64 unused;
};

struct gl_a_cuMemcpy2DUnaligned {
	__u64 unused;
};
struct gl_r_cuMemcpy2DUnaligned {
	__u64 unused;
};

struct gl_a_cuMemcpy2DAsync {
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpy2DAsync {
	__u64 unused;
};

struct gl_a_cuMemcpy3D {
	__u64 unused;
};
struct gl_r_cuMemcpy3D {
	__u64 unused;
};

struct gl_a_cuMemcpy3DAsync {
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpy3DAsync {
	__u64 unused;
};

struct gl_a_cuMemcpy3DPeer {
	__u64 unused;
};
struct gl_r_cuMemcpy3DPeer {
	__u64 unused;
};

struct gl_a_cuMemcpy3DPeerAsync {
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpy3DPeerAsync {
	__u64 unused;
};

struct gl_a_cuTexObjectCreate {
	__u64 unused;
};
struct gl_r_cuTexObjectCreate {
	__s64 pTexObject;
};

struct gl_a_cuTexObjectDestroy {
	__s64 texObject;
};
struct gl_r_cuTexObjectDestroy {
	__u64 unused;
};

struct gl_a_cuSurfObjectCreate {
	__u64 unused;
};
struct gl_r_cuSurfObjectCreate {
	__s64 pSurfObject;
};

struct gl_a_cuSurfObjectDestroy {
	__s64 surfObject;
};
struct gl_r_cuSurfObjectDestroy {
	__u64 unused;
};

struct gl_a_cuMemGetAllocationGranularity {
	__s64 option;
};
struct gl_r_cuMemGetAllocationGranularity {
	__u64 granularity;
};

struct gl_a_cuMemAddressReserve {
	__u64 size;
	__u64 alignment;
	__u64 addr;
	__u64 flags;
};
struct gl_r_cuMemAddressReserve {
	__u64 ptr;
};

struct gl_a_cuMemAddressFree {
	__u64 ptr;
	__u64 size;
};
struct gl_r_cuMemAddressFree {
	__u64 unused;
};

struct gl_a_cuMemCreate {
	__u64 handle;	/* id */
	__u64 size;
	__u64 flags;
};
struct gl_r_cuMemCreate {
	__u64 unused;
};

struct gl_a_cuMemRelease {
	__u64 handle;	/* id */
};
struct gl_r_cuMemRelease {
	__u64 unused;
};

struct gl_a_cuMemMap {
	__u64 ptr;
	__u64 size;
	__u64 offset;
	__u64 handle;	/* id */
	__u64 flags;
};
struct gl_r_cuMemMap {
	__u64 unused;
};

struct gl_a_cuMemUnmap {
	__u64 ptr;
	__u64 size;
};
struct gl_r_cuMemUnmap {
	__u64 unused;
};

struct gl_a_cuMemSetAccess {
	__u64 ptr;
	__u64 size;
	__u64 count;
};
struct gl_r_cuMemSetAccess {
	__u64 unused;
};

struct gl_a_cuMemRetainAllocationHandle {
	__u64 handle;	/* id */
};
struct gl_r_cuMemRetainAllocationHandle {
	__u64 unused;
};

struct gl_a_cuMemcpyPeer {
	__u64 dstDevice;
	__u64 dstContext;	/* id */
	__u64 srcDevice;
	__u64 srcContext;	/* id */
	__u64 ByteCount;
};
struct gl_r_cuMemcpyPeer {
	__u64 unused;
};

struct gl_a_cuMemcpyPeerAsync {
	__u64 dstDevice;
	__u64 dstContext;	/* id */
	__u64 srcDevice;
	__u64 srcContext;	/* id */
	__u64 ByteCount;
	__u64 hStream;	/* id */
};
struct gl_r_cuMemcpyPeerAsync {
	__u64 unused;
};

struct gl_a_cuCtxEnablePeerAccess {
	__u64 peerContext;	/* id */
	__u64 Flags;
};
struct gl_r_cuCtxEnablePeerAccess {
	__u64 unused;
};

struct gl_a_cuCtxDisablePeerAccess {
	__u64 peerContext;	/* id */
};
struct gl_r_cuCtxDisablePeerAccess {
	__u64 unused;
};

struct gl_a_gleamTwinSet {
	__u64 base;
	__u64 size;
	__u64 op;
};
struct gl_r_gleamTwinSet {
	__u64 unused;
};

struct gl_a_gleamTwinPush {
	__u64 base;
	__u64 offset;
	__u64 len;
	__u64 hStream;	/* id */
	__u64 flags;
};
struct gl_r_gleamTwinPush {
	__u64 unused;
};

struct gl_a_gleamTwinPull {
	__u64 base;
	__u64 size;
};
struct gl_r_gleamTwinPull {
	__u64 pages;
};

struct gl_a_cuGraphCreate {
	__u64 phGraph;	/* id */
	__u64 flags;
};
struct gl_r_cuGraphCreate {
	__u64 unused;
};

struct gl_a_cuGraphAddNode {
	__u64 phGraphNode;	/* id */
	__u64 hGraph;	/* id */
	__u64 numDependencies;
};
struct gl_r_cuGraphAddNode {
	__u64 unused;
};

struct gl_a_cuGraphNodeSetParams {
	__u64 hNode;	/* id */
};
struct gl_r_cuGraphNodeSetParams {
	__u64 unused;
};

struct gl_a_cuGraphExecNodeSetParams {
	__u64 hGraphExec;	/* id */
	__u64 hNode;	/* id */
};
struct gl_r_cuGraphExecNodeSetParams {
	__u64 unused;
};

struct gl_a_cuGraphConditionalHandleCreate {
	__u64 hGraph;	/* id */
	__u64 ctx;	/* id */
	__u64 defaultLaunchValue;
	__u64 flags;
};
struct gl_r_cuGraphConditionalHandleCreate {
	__s64 pHandle_out;
};

struct gl_a_cuGraphAddDependencies {
	__u64 hGraph;	/* id */
	__u64 numDependencies;
};
struct gl_r_cuGraphAddDependencies {
	__u64 unused;
};

struct gl_a_cuGraphRemoveDependencies {
	__u64 hGraph;	/* id */
	__u64 numDependencies;
};
struct gl_r_cuGraphRemoveDependencies {
	__u64 unused;
};

struct gl_a_cuGraphDestroyNode {
	__u64 hNode;	/* id */
};
struct gl_r_cuGraphDestroyNode {
	__u64 unused;
};

struct gl_a_cuGraphClone {
	__u64 phGraphClone;	/* id */
	__u64 originalGraph;	/* id */
};
struct gl_r_cuGraphClone {
	__u64 unused;
};

struct gl_a_cuGraphNodeFindInClone {
	__u64 phNode;	/* id */
	__u64 hOriginalNode;	/* id */
	__u64 hClonedGraph;	/* id */
};
struct gl_r_cuGraphNodeFindInClone {
	__u64 unused;
};

struct gl_a_cuGraphExecUpdate {
	__u64 hGraphExec;	/* id */
	__u64 hGraph;	/* id */
};
struct gl_r_cuGraphExecUpdate {
	__u64 unused;
};

struct gl_a_cuGraphNodeSetEnabled {
	__u64 hGraphExec;	/* id */
	__u64 hNode;	/* id */
	__u64 isEnabled;
};
struct gl_r_cuGraphNodeSetEnabled {
	__u64 unused;
};

struct gl_a_cuLinkCreate {
	__u64 numOptions;
	__u64 stateOut;	/* id */
};
struct gl_r_cuLinkCreate {
	__u64 unused;
};

struct gl_a_cuLinkAddData {
	__u64 state;	/* id */
	__s64 type;
	__u64 size;
	__u64 numOptions;
};
struct gl_r_cuLinkAddData {
	__u64 unused;
};

struct gl_a_cuLinkComplete {
	__u64 state;	/* id */
};
struct gl_r_cuLinkComplete {
	__u64 unused;
};

struct gl_a_cuLinkDestroy {
	__u64 state;	/* id */
};
struct gl_r_cuLinkDestroy {
	__u64 unused;
};

#endif
