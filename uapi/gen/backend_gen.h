/* Generated from uapi/api.tbl by tools/gen-api.py: do not edit. */
#ifndef GLEAM_BACKEND_GEN_H
#define GLEAM_BACKEND_GEN_H

/* Every function a replay backend provides, with the table's prototype. */
struct gl_backend_ops {
	CUresult (*f_cuInit)(unsigned int Flags);
	CUresult (*f_cuDevicePrimaryCtxRetain)(CUcontext *pctx, CUdevice dev);
	CUresult (*f_cuDevicePrimaryCtxRelease)(CUdevice dev);
	CUresult (*f_cuDevicePrimaryCtxReset)(CUdevice dev);
	CUresult (*f_cuDevicePrimaryCtxSetFlags)(CUdevice dev, unsigned int flags);
	CUresult (*f_cuCtxCreate)(CUcontext *pctx, unsigned int flags, CUdevice dev);
	CUresult (*f_cuCtxCreate_v4)(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev);
	CUresult (*f_cuCtxDestroy)(CUcontext ctx);
	CUresult (*f_cuCtxSynchronize)(void);
	CUresult (*f_cuCtxSynchronize_v2)(CUcontext ctx);
	CUresult (*f_cuCtxGetApiVersion)(CUcontext ctx, unsigned int *version);
	CUresult (*f_cuCtxGetLimit)(size_t *pvalue, CUlimit limit);
	CUresult (*f_cuCtxSetLimit)(CUlimit limit, size_t value);
	CUresult (*f_cuCtxGetFlags)(unsigned int *flags);
	CUresult (*f_cuCtxGetStreamPriorityRange)(int *leastPriority, int *greatestPriority);
	CUresult (*f_cuMemAlloc)(CUdeviceptr *dptr, size_t bytesize);
	CUresult (*f_cuMemFree)(CUdeviceptr dptr);
	CUresult (*f_cuMemGetInfo)(size_t *free, size_t *total);
	CUresult (*f_cuMemcpyHtoD)(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
	CUresult (*f_cuMemcpyDtoH)(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*f_cuMemcpyDtoD)(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*f_cuMemcpyHtoDAsync)(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
	CUresult (*f_cuMemcpyDtoHAsync)(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
	CUresult (*f_cuMemcpyDtoDAsync)(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
	CUresult (*f_cuMemsetD8)(CUdeviceptr dstDevice, unsigned char uc, size_t N);
	CUresult (*f_cuMemsetD16)(CUdeviceptr dstDevice, unsigned short us, size_t N);
	CUresult (*f_cuMemsetD32)(CUdeviceptr dstDevice, unsigned int ui, size_t N);
	CUresult (*f_cuMemsetD8Async)(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
	CUresult (*f_cuMemsetD16Async)(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
	CUresult (*f_cuMemsetD32Async)(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
	CUresult (*f_cuModuleLoadData)(CUmodule *module, const void *image);
	CUresult (*f_cuModuleGetFunction)(CUfunction *hfunc, CUmodule hmod, const char *name);
	CUresult (*f_cuModuleGetGlobal)(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
	CUresult (*f_cuModuleUnload)(CUmodule hmod);
	CUresult (*f_cuLibraryLoadData)(CUlibrary *pLib, const void *code, CUjit_option *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions);
	CUresult (*f_cuLibraryGetKernel)(CUkernel *pKernel, CUlibrary hLib, const char *name);
	CUresult (*f_cuLibraryGetModule)(CUmodule *pMod, CUlibrary hLib);
	CUresult (*f_cuLibraryUnload)(CUlibrary hLib);
	CUresult (*f_cuKernelGetFunction)(CUfunction *pFunc, CUkernel kernel);
	CUresult (*f_cuLibraryGetGlobal)(CUdeviceptr *dptr, size_t *bytes, CUlibrary hLib, const char *name);
	CUresult (*f_cuLaunchKernel)(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
	CUresult (*f_cuLaunchKernelEx)(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra);
	CUresult (*f_cuStreamCreate)(CUstream *phStream, unsigned int Flags);
	CUresult (*f_cuStreamCreateWithPriority)(CUstream *phStream, unsigned int flags, int priority);
	CUresult (*f_cuStreamDestroy)(CUstream hStream);
	CUresult (*f_cuStreamSynchronize)(CUstream hStream);
	CUresult (*f_cuStreamQuery)(CUstream hStream);
	CUresult (*f_cuStreamGetPriority)(CUstream hStream, int *priority);
	CUresult (*f_cuStreamGetFlags)(CUstream hStream, unsigned int *flags);
	CUresult (*f_cuStreamWaitEvent)(CUstream hStream, CUevent hEvent, unsigned int Flags);
	CUresult (*f_cuEventCreate)(CUevent *phEvent, unsigned int Flags);
	CUresult (*f_cuEventRecord)(CUevent hEvent, CUstream hStream);
	CUresult (*f_cuEventQuery)(CUevent hEvent);
	CUresult (*f_cuEventSynchronize)(CUevent hEvent);
	CUresult (*f_cuEventElapsedTime)(float *pMilliseconds, CUevent hStart, CUevent hEnd);
	CUresult (*f_cuEventElapsedTime_v2)(float *pMilliseconds, CUevent hStart, CUevent hEnd);
	CUresult (*f_cuEventDestroy)(CUevent hEvent);
	CUresult (*f_cuFuncSetAttribute)(CUfunction hfunc, CUfunction_attribute attrib, int value);
	CUresult (*f_cuKernelSetAttribute)(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev);
	CUresult (*f_cuFuncSetCacheConfig)(CUfunction hfunc, CUfunc_cache config);
	CUresult (*f_cuKernelSetCacheConfig)(CUkernel kernel, CUfunc_cache config, CUdevice dev);
	CUresult (*f_cuCtxSetCacheConfig)(CUfunc_cache config);
	CUresult (*f_cuDeviceCanAccessPeer)(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
	CUresult (*f_cuDeviceGetP2PAttribute)(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice);
	CUresult (*f_cuStreamGetId)(CUstream hStream, unsigned long long *streamId);
	CUresult (*f_cuMemAllocAsync)(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
	CUresult (*f_cuMemFreeAsync)(CUdeviceptr dptr, CUstream hStream);
	CUresult (*f_cuStreamBeginCapture)(CUstream hStream, CUstreamCaptureMode mode);
	CUresult (*f_cuStreamEndCapture)(CUstream hStream, CUgraph *phGraph);
	CUresult (*f_cuGraphInstantiateWithFlags)(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags);
	CUresult (*f_cuGraphLaunch)(CUgraphExec hGraphExec, CUstream hStream);
	CUresult (*f_cuGraphUpload)(CUgraphExec hGraphExec, CUstream hStream);
	CUresult (*f_cuGraphExecDestroy)(CUgraphExec hGraphExec);
	CUresult (*f_cuGraphDestroy)(CUgraph hGraph);
	CUresult (*f_cuGraphGetNodes)(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes);
	CUresult (*f_cuDeviceGetDefaultMemPool)(CUmemoryPool *pool_out, CUdevice dev);
	CUresult (*f_cuDeviceSetMemPool)(CUdevice dev, CUmemoryPool pool);
	CUresult (*f_cuMemPoolCreate)(CUmemoryPool *pool, const CUmemPoolProps *poolProps);
	CUresult (*f_cuMemPoolDestroy)(CUmemoryPool pool);
	CUresult (*f_cuMemPoolSetAttribute)(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
	CUresult (*f_cuMemPoolGetAttribute)(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
	CUresult (*f_cuMemPoolTrimTo)(CUmemoryPool pool, size_t minBytesToKeep);
	CUresult (*f_cuMemAllocFromPoolAsync)(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream);
	CUresult (*f_cuMemsetD2D8)(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height);
	CUresult (*f_cuMemsetD2D16)(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height);
	CUresult (*f_cuMemsetD2D32)(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height);
	CUresult (*f_cuMemsetD2D8Async)(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream);
	CUresult (*f_cuMemsetD2D16Async)(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream);
	CUresult (*f_cuMemsetD2D32Async)(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream);
	CUresult (*f_cuStreamWriteValue32)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*f_cuStreamWriteValue64)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*f_cuStreamWaitValue32)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*f_cuStreamWaitValue64)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*f_cuProfilerStart)(void);
	CUresult (*f_cuProfilerStop)(void);
	CUresult (*f_cuCtxResetPersistingL2Cache)(void);
	CUresult (*f_cuDeviceGetTexture1DLinearMaxWidth)(size_t *maxWidthInElements, CUarray_format format, unsigned int numChannels, CUdevice dev);
	CUresult (*f_cuDeviceGetExecAffinitySupport)(int *pi, CUexecAffinityType type, CUdevice dev);
	CUresult (*f_cuLaunchHostFunc)(CUstream hStream, CUhostFn fn, void *userData);
	CUresult (*f_cuStreamAddCallback)(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
	CUresult (*f_cuArrayCreate)(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray);
	CUresult (*f_cuArray3DCreate)(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray);
	CUresult (*f_cuArrayDestroy)(CUarray hArray);
	CUresult (*f_cuMipmappedArrayCreate)(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc, unsigned int numMipmapLevels);
	CUresult (*f_cuMipmappedArrayDestroy)(CUmipmappedArray hMipmappedArray);
	CUresult (*f_cuMipmappedArrayGetLevel)(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray, unsigned int level);
	CUresult (*f_cuMemcpyHtoA)(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
	CUresult (*f_cuMemcpyHtoAAsync)(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream);
	CUresult (*f_cuMemcpyAtoH)(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*f_cuMemcpyAtoHAsync)(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream);
	CUresult (*f_cuMemcpyDtoA)(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*f_cuMemcpyAtoD)(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*f_cuMemcpyAtoA)(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*f_cuMemcpy2D)(const CUDA_MEMCPY2D *pCopy);
	CUresult (*f_cuMemcpy2DUnaligned)(const CUDA_MEMCPY2D *pCopy);
	CUresult (*f_cuMemcpy2DAsync)(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
	CUresult (*f_cuMemcpy3D)(const CUDA_MEMCPY3D *pCopy);
	CUresult (*f_cuMemcpy3DAsync)(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
	CUresult (*f_cuMemcpy3DPeer)(const CUDA_MEMCPY3D_PEER *pCopy);
	CUresult (*f_cuMemcpy3DPeerAsync)(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
	CUresult (*f_cuTexObjectCreate)(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc, const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc);
	CUresult (*f_cuTexObjectDestroy)(CUtexObject texObject);
	CUresult (*f_cuSurfObjectCreate)(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc);
	CUresult (*f_cuSurfObjectDestroy)(CUsurfObject surfObject);
	CUresult (*f_cuMemGetAllocationGranularity)(size_t *granularity, const CUmemAllocationProp *prop, CUmemAllocationGranularity_flags option);
	CUresult (*f_cuMemAddressReserve)(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr, unsigned long long flags);
	CUresult (*f_cuMemAddressFree)(CUdeviceptr ptr, size_t size);
	CUresult (*f_cuMemCreate)(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop, unsigned long long flags);
	CUresult (*f_cuMemRelease)(CUmemGenericAllocationHandle handle);
	CUresult (*f_cuMemMap)(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle, unsigned long long flags);
	CUresult (*f_cuMemUnmap)(CUdeviceptr ptr, size_t size);
	CUresult (*f_cuMemSetAccess)(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count);
	CUresult (*f_cuMemRetainAllocationHandle)(CUmemGenericAllocationHandle *handle, void *addr);
	CUresult (*f_cuMemcpyPeer)(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
	CUresult (*f_cuMemcpyPeerAsync)(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);
	CUresult (*f_cuCtxEnablePeerAccess)(CUcontext peerContext, unsigned int Flags);
	CUresult (*f_cuCtxDisablePeerAccess)(CUcontext peerContext);
	CUresult (*f_cuGraphCreate)(CUgraph *phGraph, unsigned int flags);
	CUresult (*f_cuGraphAddNode)(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData, size_t numDependencies, CUgraphNodeParams *nodeParams);
	CUresult (*f_cuGraphNodeSetParams)(CUgraphNode hNode, CUgraphNodeParams *nodeParams);
	CUresult (*f_cuGraphExecNodeSetParams)(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams);
	CUresult (*f_cuGraphConditionalHandleCreate)(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx, unsigned int defaultLaunchValue, unsigned int flags);
	CUresult (*f_cuGraphAddDependencies)(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *edgeData, size_t numDependencies);
	CUresult (*f_cuGraphRemoveDependencies)(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *edgeData, size_t numDependencies);
	CUresult (*f_cuGraphDestroyNode)(CUgraphNode hNode);
	CUresult (*f_cuGraphClone)(CUgraph *phGraphClone, CUgraph originalGraph);
	CUresult (*f_cuGraphNodeFindInClone)(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph);
	CUresult (*f_cuGraphExecUpdate)(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo);
	CUresult (*f_cuGraphNodeSetEnabled)(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled);
	CUresult (*f_cuLinkCreate)(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut);
	CUresult (*f_cuLinkAddData)(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name, unsigned int numOptions, CUjit_option *options, void **optionValues);
	CUresult (*f_cuLinkComplete)(CUlinkState state, void **cubinOut, size_t *sizeOut);
	CUresult (*f_cuLinkDestroy)(CUlinkState state);
};

/* GL_BACKEND_FUNCS(X): X(name, driver symbol) for each of them. */
#define GL_BACKEND_FUNCS(X) \
	X(cuInit, "cuInit") \
	X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") \
	X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2") \
	X(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2") \
	X(cuDevicePrimaryCtxSetFlags, "cuDevicePrimaryCtxSetFlags_v2") \
	X(cuCtxCreate, "cuCtxCreate_v2") \
	X(cuCtxCreate_v4, "cuCtxCreate_v4") \
	X(cuCtxDestroy, "cuCtxDestroy_v2") \
	X(cuCtxSynchronize, "cuCtxSynchronize") \
	X(cuCtxSynchronize_v2, "cuCtxSynchronize_v2") \
	X(cuCtxGetApiVersion, "cuCtxGetApiVersion") \
	X(cuCtxGetLimit, "cuCtxGetLimit") \
	X(cuCtxSetLimit, "cuCtxSetLimit") \
	X(cuCtxGetFlags, "cuCtxGetFlags") \
	X(cuCtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange") \
	X(cuMemAlloc, "cuMemAlloc_v2") \
	X(cuMemFree, "cuMemFree_v2") \
	X(cuMemGetInfo, "cuMemGetInfo_v2") \
	X(cuMemcpyHtoD, "cuMemcpyHtoD_v2") \
	X(cuMemcpyDtoH, "cuMemcpyDtoH_v2") \
	X(cuMemcpyDtoD, "cuMemcpyDtoD_v2") \
	X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2") \
	X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2") \
	X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2") \
	X(cuMemsetD8, "cuMemsetD8_v2") \
	X(cuMemsetD16, "cuMemsetD16_v2") \
	X(cuMemsetD32, "cuMemsetD32_v2") \
	X(cuMemsetD8Async, "cuMemsetD8Async") \
	X(cuMemsetD16Async, "cuMemsetD16Async") \
	X(cuMemsetD32Async, "cuMemsetD32Async") \
	X(cuModuleLoadData, "cuModuleLoadData") \
	X(cuModuleGetFunction, "cuModuleGetFunction") \
	X(cuModuleGetGlobal, "cuModuleGetGlobal_v2") \
	X(cuModuleUnload, "cuModuleUnload") \
	X(cuLibraryLoadData, "cuLibraryLoadData") \
	X(cuLibraryGetKernel, "cuLibraryGetKernel") \
	X(cuLibraryGetModule, "cuLibraryGetModule") \
	X(cuLibraryUnload, "cuLibraryUnload") \
	X(cuKernelGetFunction, "cuKernelGetFunction") \
	X(cuLibraryGetGlobal, "cuLibraryGetGlobal") \
	X(cuLaunchKernel, "cuLaunchKernel") \
	X(cuLaunchKernelEx, "cuLaunchKernelEx") \
	X(cuStreamCreate, "cuStreamCreate") \
	X(cuStreamCreateWithPriority, "cuStreamCreateWithPriority") \
	X(cuStreamDestroy, "cuStreamDestroy_v2") \
	X(cuStreamSynchronize, "cuStreamSynchronize") \
	X(cuStreamQuery, "cuStreamQuery") \
	X(cuStreamGetPriority, "cuStreamGetPriority") \
	X(cuStreamGetFlags, "cuStreamGetFlags") \
	X(cuStreamWaitEvent, "cuStreamWaitEvent") \
	X(cuEventCreate, "cuEventCreate") \
	X(cuEventRecord, "cuEventRecord") \
	X(cuEventQuery, "cuEventQuery") \
	X(cuEventSynchronize, "cuEventSynchronize") \
	X(cuEventElapsedTime, "cuEventElapsedTime") \
	X(cuEventElapsedTime_v2, "cuEventElapsedTime_v2") \
	X(cuEventDestroy, "cuEventDestroy_v2") \
	X(cuFuncSetAttribute, "cuFuncSetAttribute") \
	X(cuKernelSetAttribute, "cuKernelSetAttribute") \
	X(cuFuncSetCacheConfig, "cuFuncSetCacheConfig") \
	X(cuKernelSetCacheConfig, "cuKernelSetCacheConfig") \
	X(cuCtxSetCacheConfig, "cuCtxSetCacheConfig") \
	X(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer") \
	X(cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute") \
	X(cuStreamGetId, "cuStreamGetId") \
	X(cuMemAllocAsync, "cuMemAllocAsync") \
	X(cuMemFreeAsync, "cuMemFreeAsync") \
	X(cuStreamBeginCapture, "cuStreamBeginCapture_v2") \
	X(cuStreamEndCapture, "cuStreamEndCapture") \
	X(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags") \
	X(cuGraphLaunch, "cuGraphLaunch") \
	X(cuGraphUpload, "cuGraphUpload") \
	X(cuGraphExecDestroy, "cuGraphExecDestroy") \
	X(cuGraphDestroy, "cuGraphDestroy") \
	X(cuGraphGetNodes, "cuGraphGetNodes") \
	X(cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool") \
	X(cuDeviceSetMemPool, "cuDeviceSetMemPool") \
	X(cuMemPoolCreate, "cuMemPoolCreate") \
	X(cuMemPoolDestroy, "cuMemPoolDestroy") \
	X(cuMemPoolSetAttribute, "cuMemPoolSetAttribute") \
	X(cuMemPoolGetAttribute, "cuMemPoolGetAttribute") \
	X(cuMemPoolTrimTo, "cuMemPoolTrimTo") \
	X(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync") \
	X(cuMemsetD2D8, "cuMemsetD2D8_v2") \
	X(cuMemsetD2D16, "cuMemsetD2D16_v2") \
	X(cuMemsetD2D32, "cuMemsetD2D32_v2") \
	X(cuMemsetD2D8Async, "cuMemsetD2D8Async") \
	X(cuMemsetD2D16Async, "cuMemsetD2D16Async") \
	X(cuMemsetD2D32Async, "cuMemsetD2D32Async") \
	X(cuStreamWriteValue32, "cuStreamWriteValue32_v2") \
	X(cuStreamWriteValue64, "cuStreamWriteValue64_v2") \
	X(cuStreamWaitValue32, "cuStreamWaitValue32_v2") \
	X(cuStreamWaitValue64, "cuStreamWaitValue64_v2") \
	X(cuProfilerStart, "cuProfilerStart") \
	X(cuProfilerStop, "cuProfilerStop") \
	X(cuCtxResetPersistingL2Cache, "cuCtxResetPersistingL2Cache") \
	X(cuDeviceGetTexture1DLinearMaxWidth, "cuDeviceGetTexture1DLinearMaxWidth") \
	X(cuDeviceGetExecAffinitySupport, "cuDeviceGetExecAffinitySupport") \
	X(cuLaunchHostFunc, "cuLaunchHostFunc") \
	X(cuStreamAddCallback, "cuStreamAddCallback") \
	X(cuArrayCreate, "cuArrayCreate_v2") \
	X(cuArray3DCreate, "cuArray3DCreate_v2") \
	X(cuArrayDestroy, "cuArrayDestroy") \
	X(cuMipmappedArrayCreate, "cuMipmappedArrayCreate") \
	X(cuMipmappedArrayDestroy, "cuMipmappedArrayDestroy") \
	X(cuMipmappedArrayGetLevel, "cuMipmappedArrayGetLevel") \
	X(cuMemcpyHtoA, "cuMemcpyHtoA_v2") \
	X(cuMemcpyHtoAAsync, "cuMemcpyHtoAAsync_v2") \
	X(cuMemcpyAtoH, "cuMemcpyAtoH_v2") \
	X(cuMemcpyAtoHAsync, "cuMemcpyAtoHAsync_v2") \
	X(cuMemcpyDtoA, "cuMemcpyDtoA_v2") \
	X(cuMemcpyAtoD, "cuMemcpyAtoD_v2") \
	X(cuMemcpyAtoA, "cuMemcpyAtoA_v2") \
	X(cuMemcpy2D, "cuMemcpy2D_v2") \
	X(cuMemcpy2DUnaligned, "cuMemcpy2DUnaligned_v2") \
	X(cuMemcpy2DAsync, "cuMemcpy2DAsync_v2") \
	X(cuMemcpy3D, "cuMemcpy3D_v2") \
	X(cuMemcpy3DAsync, "cuMemcpy3DAsync_v2") \
	X(cuMemcpy3DPeer, "cuMemcpy3DPeer") \
	X(cuMemcpy3DPeerAsync, "cuMemcpy3DPeerAsync") \
	X(cuTexObjectCreate, "cuTexObjectCreate") \
	X(cuTexObjectDestroy, "cuTexObjectDestroy") \
	X(cuSurfObjectCreate, "cuSurfObjectCreate") \
	X(cuSurfObjectDestroy, "cuSurfObjectDestroy") \
	X(cuMemGetAllocationGranularity, "cuMemGetAllocationGranularity") \
	X(cuMemAddressReserve, "cuMemAddressReserve") \
	X(cuMemAddressFree, "cuMemAddressFree") \
	X(cuMemCreate, "cuMemCreate") \
	X(cuMemRelease, "cuMemRelease") \
	X(cuMemMap, "cuMemMap") \
	X(cuMemUnmap, "cuMemUnmap") \
	X(cuMemSetAccess, "cuMemSetAccess") \
	X(cuMemRetainAllocationHandle, "cuMemRetainAllocationHandle") \
	X(cuMemcpyPeer, "cuMemcpyPeer") \
	X(cuMemcpyPeerAsync, "cuMemcpyPeerAsync") \
	X(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess") \
	X(cuCtxDisablePeerAccess, "cuCtxDisablePeerAccess") \
	X(cuGraphCreate, "cuGraphCreate") \
	X(cuGraphAddNode, "cuGraphAddNode_v2") \
	X(cuGraphNodeSetParams, "cuGraphNodeSetParams") \
	X(cuGraphExecNodeSetParams, "cuGraphExecNodeSetParams") \
	X(cuGraphConditionalHandleCreate, "cuGraphConditionalHandleCreate") \
	X(cuGraphAddDependencies, "cuGraphAddDependencies_v2") \
	X(cuGraphRemoveDependencies, "cuGraphRemoveDependencies_v2") \
	X(cuGraphDestroyNode, "cuGraphDestroyNode") \
	X(cuGraphClone, "cuGraphClone") \
	X(cuGraphNodeFindInClone, "cuGraphNodeFindInClone") \
	X(cuGraphExecUpdate, "cuGraphExecUpdate_v2") \
	X(cuGraphNodeSetEnabled, "cuGraphNodeSetEnabled") \
	X(cuLinkCreate, "cuLinkCreate_v2") \
	X(cuLinkAddData, "cuLinkAddData_v2") \
	X(cuLinkComplete, "cuLinkComplete") \
	X(cuLinkDestroy, "cuLinkDestroy") \
	/* end */

CUresult sim_cuInit(unsigned int Flags);
CUresult sim_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult sim_cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult sim_cuDevicePrimaryCtxReset(CUdevice dev);
CUresult sim_cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult sim_cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult sim_cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev);
CUresult sim_cuCtxDestroy(CUcontext ctx);
CUresult sim_cuCtxSynchronize(void);
CUresult sim_cuCtxSynchronize_v2(CUcontext ctx);
CUresult sim_cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
CUresult sim_cuCtxGetLimit(size_t *pvalue, CUlimit limit);
CUresult sim_cuCtxSetLimit(CUlimit limit, size_t value);
CUresult sim_cuCtxGetFlags(unsigned int *flags);
CUresult sim_cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
CUresult sim_cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
CUresult sim_cuMemFree(CUdeviceptr dptr);
CUresult sim_cuMemGetInfo(size_t *free, size_t *total);
CUresult sim_cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult sim_cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult sim_cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult sim_cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
CUresult sim_cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CUresult sim_cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CUresult sim_cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult sim_cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult sim_cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult sim_cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
CUresult sim_cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
CUresult sim_cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
CUresult sim_cuModuleLoadData(CUmodule *module, const void *image);
CUresult sim_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult sim_cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
CUresult sim_cuModuleUnload(CUmodule hmod);
CUresult sim_cuLibraryLoadData(CUlibrary *pLib, const void *code, CUjit_option *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions);
CUresult sim_cuLibraryGetKernel(CUkernel *pKernel, CUlibrary hLib, const char *name);
CUresult sim_cuLibraryGetModule(CUmodule *pMod, CUlibrary hLib);
CUresult sim_cuLibraryUnload(CUlibrary hLib);
CUresult sim_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
CUresult sim_cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary hLib, const char *name);
CUresult sim_cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
CUresult sim_cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra);
CUresult sim_cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult sim_cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority);
CUresult sim_cuStreamDestroy(CUstream hStream);
CUresult sim_cuStreamSynchronize(CUstream hStream);
CUresult sim_cuStreamQuery(CUstream hStream);
CUresult sim_cuStreamGetPriority(CUstream hStream, int *priority);
CUresult sim_cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult sim_cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUresult sim_cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult sim_cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult sim_cuEventQuery(CUevent hEvent);
CUresult sim_cuEventSynchronize(CUevent hEvent);
CUresult sim_cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult sim_cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult sim_cuEventDestroy(CUevent hEvent);
CUresult sim_cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value);
CUresult sim_cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev);
CUresult sim_cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config);
CUresult sim_cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev);
CUresult sim_cuCtxSetCacheConfig(CUfunc_cache config);
CUresult sim_cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
CUresult sim_cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice);
CUresult sim_cuStreamGetId(CUstream hStream, unsigned long long *streamId);
CUresult sim_cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
CUresult sim_cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);
CUresult sim_cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode);
CUresult sim_cuStreamEndCapture(CUstream hStream, CUgraph *phGraph);
CUresult sim_cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags);
CUresult sim_cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);
CUresult sim_cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream);
CUresult sim_cuGraphExecDestroy(CUgraphExec hGraphExec);
CUresult sim_cuGraphDestroy(CUgraph hGraph);
CUresult sim_cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes);
CUresult sim_cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev);
CUresult sim_cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool);
CUresult sim_cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps);
CUresult sim_cuMemPoolDestroy(CUmemoryPool pool);
CUresult sim_cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
CUresult sim_cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
CUresult sim_cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep);
CUresult sim_cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream);
CUresult sim_cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height);
CUresult sim_cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height);
CUresult sim_cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height);
CUresult sim_cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream);
CUresult sim_cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream);
CUresult sim_cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream);
CUresult sim_cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CUresult sim_cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CUresult sim_cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CUresult sim_cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CUresult sim_cuProfilerStart(void);
CUresult sim_cuProfilerStop(void);
CUresult sim_cuCtxResetPersistingL2Cache(void);
CUresult sim_cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, CUarray_format format, unsigned int numChannels, CUdevice dev);
CUresult sim_cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev);
CUresult sim_cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult sim_cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
CUresult sim_cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray);
CUresult sim_cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray);
CUresult sim_cuArrayDestroy(CUarray hArray);
CUresult sim_cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc, unsigned int numMipmapLevels);
CUresult sim_cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray);
CUresult sim_cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray, unsigned int level);
CUresult sim_cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
CUresult sim_cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream);
CUresult sim_cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult sim_cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream);
CUresult sim_cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
CUresult sim_cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult sim_cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult sim_cuMemcpy2D(const CUDA_MEMCPY2D *pCopy);
CUresult sim_cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy);
CUresult sim_cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult sim_cuMemcpy3D(const CUDA_MEMCPY3D *pCopy);
CUresult sim_cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CUresult sim_cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy);
CUresult sim_cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
CUresult sim_cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc, const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc);
CUresult sim_cuTexObjectDestroy(CUtexObject texObject);
CUresult sim_cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc);
CUresult sim_cuSurfObjectDestroy(CUsurfObject surfObject);
CUresult sim_cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop, CUmemAllocationGranularity_flags option);
CUresult sim_cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr, unsigned long long flags);
CUresult sim_cuMemAddressFree(CUdeviceptr ptr, size_t size);
CUresult sim_cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop, unsigned long long flags);
CUresult sim_cuMemRelease(CUmemGenericAllocationHandle handle);
CUresult sim_cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle, unsigned long long flags);
CUresult sim_cuMemUnmap(CUdeviceptr ptr, size_t size);
CUresult sim_cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count);
CUresult sim_cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr);
CUresult sim_cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
CUresult sim_cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);
CUresult sim_cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags);
CUresult sim_cuCtxDisablePeerAccess(CUcontext peerContext);
CUresult sim_cuGraphCreate(CUgraph *phGraph, unsigned int flags);
CUresult sim_cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData, size_t numDependencies, CUgraphNodeParams *nodeParams);
CUresult sim_cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams);
CUresult sim_cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams);
CUresult sim_cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx, unsigned int defaultLaunchValue, unsigned int flags);
CUresult sim_cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *edgeData, size_t numDependencies);
CUresult sim_cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *edgeData, size_t numDependencies);
CUresult sim_cuGraphDestroyNode(CUgraphNode hNode);
CUresult sim_cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph);
CUresult sim_cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph);
CUresult sim_cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo);
CUresult sim_cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled);
CUresult sim_cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut);
CUresult sim_cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name, unsigned int numOptions, CUjit_option *options, void **optionValues);
CUresult sim_cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut);
CUresult sim_cuLinkDestroy(CUlinkState state);

#endif
