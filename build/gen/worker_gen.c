/* Generated from uapi/api.tbl by tools/gen-api.py: do not edit. */
#include "worker.h"

CUresult wk_cuInit(struct wk_call *k);
static CUresult wk_gen_cuDevicePrimaryCtxRetain(struct wk_call *k)
{
	const struct gl_a_cuDevicePrimaryCtxRetain *a;
	CUcontext v_pctx = NULL;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuDevicePrimaryCtxRetain(&v_pctx, (CUdevice)a->dev);
	wk_handle_new(k->w, GL_H_CTX, a->pctx, v_pctx, r);
	return r;
}

static CUresult wk_gen_cuDevicePrimaryCtxRelease(struct wk_call *k)
{
	const struct gl_a_cuDevicePrimaryCtxRelease *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuDevicePrimaryCtxRelease((CUdevice)a->dev);
	return r;
}

static CUresult wk_gen_cuDevicePrimaryCtxReset(struct wk_call *k)
{
	const struct gl_a_cuDevicePrimaryCtxReset *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuDevicePrimaryCtxReset((CUdevice)a->dev);
	return r;
}

static CUresult wk_gen_cuDevicePrimaryCtxSetFlags(struct wk_call *k)
{
	const struct gl_a_cuDevicePrimaryCtxSetFlags *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuDevicePrimaryCtxSetFlags((CUdevice)a->dev, (unsigned int)a->flags);
	return r;
}

CUresult wk_cuCtxCreate(struct wk_call *k);
CUresult wk_cuCtxCreate_v4(struct wk_call *k);
static CUresult wk_gen_cuCtxDestroy(struct wk_call *k)
{
	const struct gl_a_cuCtxDestroy *a;
	CUcontext v_ctx;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_CTX, a->ctx, (void **)&v_ctx);
	if (r)
		return r;
	r = k->w->be->op.f_cuCtxDestroy(v_ctx);
	if (!r)
		wk_handle_del(k->w, GL_H_CTX, a->ctx);
	return r;
}

static CUresult wk_gen_cuCtxSynchronize(struct wk_call *k)
{
	const struct gl_a_cuCtxSynchronize *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuCtxSynchronize();
	return r;
}

static CUresult wk_gen_cuCtxSynchronize_v2(struct wk_call *k)
{
	const struct gl_a_cuCtxSynchronize_v2 *a;
	CUcontext v_ctx;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_CTX, a->ctx, (void **)&v_ctx);
	if (r)
		return r;
	r = k->w->be->op.f_cuCtxSynchronize_v2(v_ctx);
	return r;
}

static CUresult wk_gen_cuCtxGetApiVersion(struct wk_call *k)
{
	const struct gl_a_cuCtxGetApiVersion *a;
	struct gl_r_cuCtxGetApiVersion *o;
	CUcontext v_ctx;
	unsigned int v_version = 0;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = wk_handle(k->w, GL_H_CTX, a->ctx, (void **)&v_ctx);
	if (r)
		return r;
	r = k->w->be->op.f_cuCtxGetApiVersion(v_ctx, &v_version);
	if (!r) {
		o->version = v_version;
	}
	return r;
}

static CUresult wk_gen_cuCtxGetLimit(struct wk_call *k)
{
	const struct gl_a_cuCtxGetLimit *a;
	struct gl_r_cuCtxGetLimit *o;
	size_t v_pvalue = 0;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->op.f_cuCtxGetLimit(&v_pvalue, (CUlimit)a->limit);
	if (!r) {
		o->pvalue = v_pvalue;
	}
	return r;
}

static CUresult wk_gen_cuCtxSetLimit(struct wk_call *k)
{
	const struct gl_a_cuCtxSetLimit *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuCtxSetLimit((CUlimit)a->limit, (size_t)a->value);
	return r;
}

static CUresult wk_gen_cuCtxGetFlags(struct wk_call *k)
{
	const struct gl_a_cuCtxGetFlags *a;
	struct gl_r_cuCtxGetFlags *o;
	unsigned int v_flags = 0;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->op.f_cuCtxGetFlags(&v_flags);
	if (!r) {
		o->flags = v_flags;
	}
	return r;
}

static CUresult wk_gen_cuCtxGetStreamPriorityRange(struct wk_call *k)
{
	const struct gl_a_cuCtxGetStreamPriorityRange *a;
	struct gl_r_cuCtxGetStreamPriorityRange *o;
	int v_leastPriority = 0;
	int v_greatestPriority = 0;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->op.f_cuCtxGetStreamPriorityRange(&v_leastPriority, &v_greatestPriority);
	if (!r) {
		o->leastPriority = v_leastPriority;
		o->greatestPriority = v_greatestPriority;
	}
	return r;
}

static CUresult wk_gen_cuMemAlloc(struct wk_call *k)
{
	const struct gl_a_cuMemAlloc *a;
	struct gl_r_cuMemAlloc *o;
	CUdeviceptr v_dptr = 0;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->op.f_cuMemAlloc(&v_dptr, (size_t)a->bytesize);
	if (!r) {
		o->dptr = v_dptr;
	}
	return r;
}

static CUresult wk_gen_cuMemFree(struct wk_call *k)
{
	const struct gl_a_cuMemFree *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuMemFree((CUdeviceptr)a->dptr);
	return r;
}

static CUresult wk_gen_cuMemGetInfo(struct wk_call *k)
{
	const struct gl_a_cuMemGetInfo *a;
	struct gl_r_cuMemGetInfo *o;
	size_t v_free = 0;
	size_t v_total = 0;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->op.f_cuMemGetInfo(&v_free, &v_total);
	if (!r) {
		o->free = v_free;
		o->total = v_total;
	}
	return r;
}

CUresult wk_cuMemcpyHtoD(struct wk_call *k);
CUresult wk_cuMemcpyDtoH(struct wk_call *k);
static CUresult wk_gen_cuMemcpyDtoD(struct wk_call *k)
{
	const struct gl_a_cuMemcpyDtoD *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuMemcpyDtoD((CUdeviceptr)a->dstDevice, (CUdeviceptr)a->srcDevice, (size_t)a->ByteCount);
	return r;
}

CUresult wk_cuMemcpyHtoDAsync(struct wk_call *k);
CUresult wk_cuMemcpyDtoHAsync(struct wk_call *k);
static CUresult wk_gen_cuMemcpyDtoDAsync(struct wk_call *k)
{
	const struct gl_a_cuMemcpyDtoDAsync *a;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuMemcpyDtoDAsync((CUdeviceptr)a->dstDevice, (CUdeviceptr)a->srcDevice, (size_t)a->ByteCount, v_hStream);
	return r;
}

static CUresult wk_gen_cuMemsetD8(struct wk_call *k)
{
	const struct gl_a_cuMemsetD8 *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuMemsetD8((CUdeviceptr)a->dstDevice, (unsigned char)a->uc, (size_t)a->N);
	return r;
}

static CUresult wk_gen_cuMemsetD16(struct wk_call *k)
{
	const struct gl_a_cuMemsetD16 *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuMemsetD16((CUdeviceptr)a->dstDevice, (unsigned short)a->us, (size_t)a->N);
	return r;
}

static CUresult wk_gen_cuMemsetD32(struct wk_call *k)
{
	const struct gl_a_cuMemsetD32 *a;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuMemsetD32((CUdeviceptr)a->dstDevice, (unsigned int)a->ui, (size_t)a->N);
	return r;
}

static CUresult wk_gen_cuMemsetD8Async(struct wk_call *k)
{
	const struct gl_a_cuMemsetD8Async *a;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuMemsetD8Async((CUdeviceptr)a->dstDevice, (unsigned char)a->uc, (size_t)a->N, v_hStream);
	return r;
}

static CUresult wk_gen_cuMemsetD16Async(struct wk_call *k)
{
	const struct gl_a_cuMemsetD16Async *a;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuMemsetD16Async((CUdeviceptr)a->dstDevice, (unsigned short)a->us, (size_t)a->N, v_hStream);
	return r;
}

static CUresult wk_gen_cuMemsetD32Async(struct wk_call *k)
{
	const struct gl_a_cuMemsetD32Async *a;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuMemsetD32Async((CUdeviceptr)a->dstDevice, (unsigned int)a->ui, (size_t)a->N, v_hStream);
	return r;
}

CUresult wk_cuModuleLoadData(struct wk_call *k);
CUresult wk_cuModuleGetFunction(struct wk_call *k);
static CUresult wk_gen_cuModuleGetGlobal(struct wk_call *k)
{
	const struct gl_a_cuModuleGetGlobal *a;
	struct gl_r_cuModuleGetGlobal *o;
	CUdeviceptr v_dptr = 0;
	size_t v_bytes = 0;
	CUmodule v_hmod;
	const char *v_name;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = wk_handle(k->w, GL_H_MODULE, a->hmod, (void **)&v_hmod);
	if (r)
		return r;
	v_name = wk_str(k, a->name_len);
	if (!v_name)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuModuleGetGlobal(&v_dptr, &v_bytes, v_hmod, v_name);
	if (!r) {
		o->dptr = v_dptr;
		o->bytes = v_bytes;
	}
	return r;
}

static CUresult wk_gen_cuModuleUnload(struct wk_call *k)
{
	const struct gl_a_cuModuleUnload *a;
	CUmodule v_hmod;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_MODULE, a->hmod, (void **)&v_hmod);
	if (r)
		return r;
	r = k->w->be->op.f_cuModuleUnload(v_hmod);
	if (!r)
		wk_handle_del(k->w, GL_H_MODULE, a->hmod);
	return r;
}

CUresult wk_cuLibraryLoadData(struct wk_call *k);
CUresult wk_cuLibraryGetKernel(struct wk_call *k);
static CUresult wk_gen_cuLibraryGetModule(struct wk_call *k)
{
	const struct gl_a_cuLibraryGetModule *a;
	CUmodule v_pMod = NULL;
	CUlibrary v_library;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_LIBRARY, a->library, (void **)&v_library);
	if (r)
		return r;
	r = k->w->be->op.f_cuLibraryGetModule(&v_pMod, v_library);
	wk_handle_new(k->w, GL_H_MODULE, a->pMod, v_pMod, r);
	return r;
}

static CUresult wk_gen_cuLibraryUnload(struct wk_call *k)
{
	const struct gl_a_cuLibraryUnload *a;
	CUlibrary v_library;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_LIBRARY, a->library, (void **)&v_library);
	if (r)
		return r;
	r = k->w->be->op.f_cuLibraryUnload(v_library);
	if (!r)
		wk_handle_del(k->w, GL_H_LIBRARY, a->library);
	return r;
}

static CUresult wk_gen_cuKernelGetFunction(struct wk_call *k)
{
	const struct gl_a_cuKernelGetFunction *a;
	CUfunction v_pFunc = NULL;
	CUkernel v_kernel;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_KERNEL, a->kernel, (void **)&v_kernel);
	if (r)
		return r;
	r = k->w->be->op.f_cuKernelGetFunction(&v_pFunc, v_kernel);
	wk_handle_new(k->w, GL_H_FUNC, a->pFunc, v_pFunc, r);
	return r;
}

static CUresult wk_gen_cuLibraryGetGlobal(struct wk_call *k)
{
	const struct gl_a_cuLibraryGetGlobal *a;
	struct gl_r_cuLibraryGetGlobal *o;
	CUdeviceptr v_dptr = 0;
	size_t v_bytes = 0;
	CUlibrary v_library;
	const char *v_name;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = wk_handle(k->w, GL_H_LIBRARY, a->library, (void **)&v_library);
	if (r)
		return r;
	v_name = wk_str(k, a->name_len);
	if (!v_name)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuLibraryGetGlobal(&v_dptr, &v_bytes, v_library, v_name);
	if (!r) {
		o->dptr = v_dptr;
		o->bytes = v_bytes;
	}
	return r;
}

CUresult wk_cuLaunchKernel(struct wk_call *k);
CUresult wk_cuLaunchKernelEx(struct wk_call *k);
static CUresult wk_gen_cuStreamCreate(struct wk_call *k)
{
	const struct gl_a_cuStreamCreate *a;
	CUstream v_phStream = NULL;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuStreamCreate(&v_phStream, (unsigned int)a->Flags);
	wk_handle_new(k->w, GL_H_STREAM, a->phStream, v_phStream, r);
	return r;
}

static CUresult wk_gen_cuStreamCreateWithPriority(struct wk_call *k)
{
	const struct gl_a_cuStreamCreateWithPriority *a;
	CUstream v_phStream = NULL;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuStreamCreateWithPriority(&v_phStream, (unsigned int)a->flags, (int)a->priority);
	wk_handle_new(k->w, GL_H_STREAM, a->phStream, v_phStream, r);
	return r;
}

static CUresult wk_gen_cuStreamDestroy(struct wk_call *k)
{
	const struct gl_a_cuStreamDestroy *a;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuStreamDestroy(v_hStream);
	if (!r)
		wk_handle_del(k->w, GL_H_STREAM, a->hStream);
	return r;
}

static CUresult wk_gen_cuStreamSynchronize(struct wk_call *k)
{
	const struct gl_a_cuStreamSynchronize *a;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuStreamSynchronize(v_hStream);
	return r;
}

static CUresult wk_gen_cuStreamQuery(struct wk_call *k)
{
	const struct gl_a_cuStreamQuery *a;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuStreamQuery(v_hStream);
	return r;
}

static CUresult wk_gen_cuStreamWaitEvent(struct wk_call *k)
{
	const struct gl_a_cuStreamWaitEvent *a;
	CUstream v_hStream;
	CUevent v_hEvent;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = wk_handle(k->w, GL_H_EVENT, a->hEvent, (void **)&v_hEvent);
	if (r)
		return r;
	r = k->w->be->op.f_cuStreamWaitEvent(v_hStream, v_hEvent, (unsigned int)a->Flags);
	return r;
}

static CUresult wk_gen_cuEventCreate(struct wk_call *k)
{
	const struct gl_a_cuEventCreate *a;
	CUevent v_phEvent = NULL;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuEventCreate(&v_phEvent, (unsigned int)a->Flags);
	wk_handle_new(k->w, GL_H_EVENT, a->phEvent, v_phEvent, r);
	return r;
}

static CUresult wk_gen_cuEventRecord(struct wk_call *k)
{
	const struct gl_a_cuEventRecord *a;
	CUevent v_hEvent;
	CUstream v_hStream;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_EVENT, a->hEvent, (void **)&v_hEvent);
	if (r)
		return r;
	r = wk_stream(k->w, a->hStream, &v_hStream);
	if (r)
		return r;
	r = k->w->be->op.f_cuEventRecord(v_hEvent, v_hStream);
	return r;
}

static CUresult wk_gen_cuEventQuery(struct wk_call *k)
{
	const struct gl_a_cuEventQuery *a;
	CUevent v_hEvent;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_EVENT, a->hEvent, (void **)&v_hEvent);
	if (r)
		return r;
	r = k->w->be->op.f_cuEventQuery(v_hEvent);
	return r;
}

static CUresult wk_gen_cuEventSynchronize(struct wk_call *k)
{
	const struct gl_a_cuEventSynchronize *a;
	CUevent v_hEvent;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_EVENT, a->hEvent, (void **)&v_hEvent);
	if (r)
		return r;
	r = k->w->be->op.f_cuEventSynchronize(v_hEvent);
	return r;
}

static CUresult wk_gen_cuEventElapsedTime(struct wk_call *k)
{
	const struct gl_a_cuEventElapsedTime *a;
	struct gl_r_cuEventElapsedTime *o;
	float v_pMilliseconds = 0;
	CUevent v_hStart;
	CUevent v_hEnd;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = wk_handle(k->w, GL_H_EVENT, a->hStart, (void **)&v_hStart);
	if (r)
		return r;
	r = wk_handle(k->w, GL_H_EVENT, a->hEnd, (void **)&v_hEnd);
	if (r)
		return r;
	r = k->w->be->op.f_cuEventElapsedTime(&v_pMilliseconds, v_hStart, v_hEnd);
	if (!r) {
		o->pMilliseconds = v_pMilliseconds;
	}
	return r;
}

static CUresult wk_gen_cuEventElapsedTime_v2(struct wk_call *k)
{
	const struct gl_a_cuEventElapsedTime_v2 *a;
	struct gl_r_cuEventElapsedTime_v2 *o;
	float v_pMilliseconds = 0;
	CUevent v_hStart;
	CUevent v_hEnd;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = wk_handle(k->w, GL_H_EVENT, a->hStart, (void **)&v_hStart);
	if (r)
		return r;
	r = wk_handle(k->w, GL_H_EVENT, a->hEnd, (void **)&v_hEnd);
	if (r)
		return r;
	r = k->w->be->op.f_cuEventElapsedTime_v2(&v_pMilliseconds, v_hStart, v_hEnd);
	if (!r) {
		o->pMilliseconds = v_pMilliseconds;
	}
	return r;
}

static CUresult wk_gen_cuEventDestroy(struct wk_call *k)
{
	const struct gl_a_cuEventDestroy *a;
	CUevent v_hEvent;
	CUresult r;

	a = wk_args(k, sizeof(*a));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_EVENT, a->hEvent, (void **)&v_hEvent);
	if (r)
		return r;
	r = k->w->be->op.f_cuEventDestroy(v_hEvent);
	if (!r)
		wk_handle_del(k->w, GL_H_EVENT, a->hEvent);
	return r;
}

const wk_handler_fn wk_handlers[GL_FN_LIMIT] = {
	[GL_FN_cuInit] = wk_cuInit,
	[GL_FN_cuDevicePrimaryCtxRetain] = wk_gen_cuDevicePrimaryCtxRetain,
	[GL_FN_cuDevicePrimaryCtxRelease] = wk_gen_cuDevicePrimaryCtxRelease,
	[GL_FN_cuDevicePrimaryCtxReset] = wk_gen_cuDevicePrimaryCtxReset,
	[GL_FN_cuDevicePrimaryCtxSetFlags] = wk_gen_cuDevicePrimaryCtxSetFlags,
	[GL_FN_cuCtxCreate] = wk_cuCtxCreate,
	[GL_FN_cuCtxCreate_v4] = wk_cuCtxCreate_v4,
	[GL_FN_cuCtxDestroy] = wk_gen_cuCtxDestroy,
	[GL_FN_cuCtxSynchronize] = wk_gen_cuCtxSynchronize,
	[GL_FN_cuCtxSynchronize_v2] = wk_gen_cuCtxSynchronize_v2,
	[GL_FN_cuCtxGetApiVersion] = wk_gen_cuCtxGetApiVersion,
	[GL_FN_cuCtxGetLimit] = wk_gen_cuCtxGetLimit,
	[GL_FN_cuCtxSetLimit] = wk_gen_cuCtxSetLimit,
	[GL_FN_cuCtxGetFlags] = wk_gen_cuCtxGetFlags,
	[GL_FN_cuCtxGetStreamPriorityRange] = wk_gen_cuCtxGetStreamPriorityRange,
	[GL_FN_cuMemAlloc] = wk_gen_cuMemAlloc,
	[GL_FN_cuMemFree] = wk_gen_cuMemFree,
	[GL_FN_cuMemGetInfo] = wk_gen_cuMemGetInfo,
	[GL_FN_cuMemcpyHtoD] = wk_cuMemcpyHtoD,
	[GL_FN_cuMemcpyDtoH] = wk_cuMemcpyDtoH,
	[GL_FN_cuMemcpyDtoD] = wk_gen_cuMemcpyDtoD,
	[GL_FN_cuMemcpyHtoDAsync] = wk_cuMemcpyHtoDAsync,
	[GL_FN_cuMemcpyDtoHAsync] = wk_cuMemcpyDtoHAsync,
	[GL_FN_cuMemcpyDtoDAsync] = wk_gen_cuMemcpyDtoDAsync,
	[GL_FN_cuMemsetD8] = wk_gen_cuMemsetD8,
	[GL_FN_cuMemsetD16] = wk_gen_cuMemsetD16,
	[GL_FN_cuMemsetD32] = wk_gen_cuMemsetD32,
	[GL_FN_cuMemsetD8Async] = wk_gen_cuMemsetD8Async,
	[GL_FN_cuMemsetD16Async] = wk_gen_cuMemsetD16Async,
	[GL_FN_cuMemsetD32Async] = wk_gen_cuMemsetD32Async,
	[GL_FN_cuModuleLoadData] = wk_cuModuleLoadData,
	[GL_FN_cuModuleGetFunction] = wk_cuModuleGetFunction,
	[GL_FN_cuModuleGetGlobal] = wk_gen_cuModuleGetGlobal,
	[GL_FN_cuModuleUnload] = wk_gen_cuModuleUnload,
	[GL_FN_cuLibraryLoadData] = wk_cuLibraryLoadData,
	[GL_FN_cuLibraryGetKernel] = wk_cuLibraryGetKernel,
	[GL_FN_cuLibraryGetModule] = wk_gen_cuLibraryGetModule,
	[GL_FN_cuLibraryUnload] = wk_gen_cuLibraryUnload,
	[GL_FN_cuKernelGetFunction] = wk_gen_cuKernelGetFunction,
	[GL_FN_cuLibraryGetGlobal] = wk_gen_cuLibraryGetGlobal,
	[GL_FN_cuLaunchKernel] = wk_cuLaunchKernel,
	[GL_FN_cuLaunchKernelEx] = wk_cuLaunchKernelEx,
	[GL_FN_cuStreamCreate] = wk_gen_cuStreamCreate,
	[GL_FN_cuStreamCreateWithPriority] = wk_gen_cuStreamCreateWithPriority,
	[GL_FN_cuStreamDestroy] = wk_gen_cuStreamDestroy,
	[GL_FN_cuStreamSynchronize] = wk_gen_cuStreamSynchronize,
	[GL_FN_cuStreamQuery] = wk_gen_cuStreamQuery,
	[GL_FN_cuStreamWaitEvent] = wk_gen_cuStreamWaitEvent,
	[GL_FN_cuEventCreate] = wk_gen_cuEventCreate,
	[GL_FN_cuEventRecord] = wk_gen_cuEventRecord,
	[GL_FN_cuEventQuery] = wk_gen_cuEventQuery,
	[GL_FN_cuEventSynchronize] = wk_gen_cuEventSynchronize,
	[GL_FN_cuEventElapsedTime] = wk_gen_cuEventElapsedTime,
	[GL_FN_cuEventElapsedTime_v2] = wk_gen_cuEventElapsedTime_v2,
	[GL_FN_cuEventDestroy] = wk_gen_cuEventDestroy,
};
