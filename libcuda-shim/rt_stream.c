// SPDX-License-Identifier: MIT
/*
 * What the CUDA runtime (cudart) asks cuGetProcAddress for beyond the rest
 * of the shim, streams: the first ABI versions of two primary context
 * calls, and streams as cudart creates and asks about them.
 */
#include <stddef.h>
#include <stdlib.h>

#include "export.h"
#include "cudarules.h"
#include "shim.h"
#include "util.h"
#include "entry.h"

/* ---- primary contexts: the first ABI versions behave as the second ---- */

CUresult shim_cuDevicePrimaryCtxRelease_v1(CUdevice dev)
{
	return shim_cuDevicePrimaryCtxRelease(dev);
}

CUresult shim_cuDevicePrimaryCtxReset_v1(CUdevice dev)
{
	return shim_cuDevicePrimaryCtxReset(dev);
}

/* ---- streams ---- */

static bool special_stream(CUstream s)
{
	return !s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD;
}

/* A stream argument's device: the current context's for the special streams. */
static CUresult stream_dev(CUstream s, int per_thread, CUdevice *dev)
{
	struct shim_obj *o;
	struct shim_ctx *c;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (special_stream(s)) {
		r = shim_require_ctx(&c);
		if (!r)
			*dev = c->dev;
		return r;
	}
	r = shim_obj_get(GL_H_STREAM, s, &o);
	if (!r)
		*dev = o->dev;
	return r;
}

/*
 * Streams are the shim's handles, created without waiting.  Their flags are
 * kept: whether a stream waits for the legacy stream decides what stream
 * capture allows on the legacy stream (graph.c).
 */
static CUresult stream_create(unsigned int fn, CUstream *ps, unsigned int flags, int prio)
{
	struct gl_a_cuStreamCreateWithPriority a = { .flags = flags, .priority = prio };
	struct shim_stream *st;
	struct shim_call c;
	CUresult r;

	_Static_assert(offsetof(struct gl_a_cuStreamCreateWithPriority, flags) ==
		       offsetof(struct gl_a_cuStreamCreate, Flags), "cuStreamCreate's arguments lead");
	r = shim_begin_out(&c, fn, ps);
	if (r)
		return r;
	st = (struct shim_stream *)shim_obj_new(GL_H_STREAM);
	if (!st)
		return CUDA_ERROR_OUT_OF_MEMORY;
	st->flags = flags;
	st->prio = prio;
	a.phStream = st->o.id;
	c.args = &a;
	c.args_len = fn == GL_FN_cuStreamCreate ? sizeof(struct gl_a_cuStreamCreate) : sizeof(a);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(&st->o);
		return r;
	}
	shim_obj_created(&st->o);
	*ps = (CUstream)st;
	return r;
}

CUresult shim_cuStreamCreate(CUstream *ps, unsigned int flags)
{
	return stream_create(GL_FN_cuStreamCreate, ps, flags, 0);
}

CUresult shim_cuStreamCreateWithPriority(CUstream *ps, unsigned int flags, int prio)
{
	return stream_create(GL_FN_cuStreamCreateWithPriority, ps, flags, prio);
}

/*
 * A stream's id never changes: a made stream's is asked once and kept in
 * its handle, the legacy stream's once per context.  A thread's own default
 * stream differs from thread to thread and is asked each time.  cuBLAS asks
 * for it (export table 21318c60, slot 39) before its GEMMs.
 */
CUresult shim_cuStreamGetId(CUstream s, unsigned long long *sid, int per_thread)
{
	struct gl_a_cuStreamGetId a = { 0 };
	struct gl_r_cuStreamGetId o = { 0 };
	struct shim_call c;
	bool legacy = s == CU_STREAM_LEGACY || (!s && !per_thread);
	struct shim_stream *st = NULL;
	struct shim_ctx *ctx = NULL;
	CUresult r;

	if (!sid)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (special_stream(s)) {
		r = shim_require_ctx(&ctx);
		if (r)
			return r;
		if (legacy && ctx->have_legacy_sid) {
			*sid = ctx->legacy_sid;
			return CUDA_SUCCESS;
		}
	} else {
		r = shim_obj_get(GL_H_STREAM, s, (struct shim_obj **)&st);
		if (r)
			return r;
		if (st->have_sid) {
			*sid = st->sid;
			return CUDA_SUCCESS;
		}
	}
	r = shim_begin_io(&c, GL_FN_cuStreamGetId, &a, sizeof(a), &o, sizeof(o));
	if (r)
		return r;
	r = shim_stream_id(s, per_thread, &a.hStream);
	if (!r)
		r = shim_call(&c);
	if (r)
		return shim_end(&c, r);
	*sid = (unsigned long long)o.streamId;
	if (st) {
		st->sid = *sid;
		st->have_sid = true;
	} else if (legacy) {
		ctx->legacy_sid = *sid;
		ctx->have_legacy_sid = true;
	}
	return shim_end(&c, CUDA_SUCCESS);
}

/*
 * A stream's flags and priority, asked of the server only for the special
 * streams: a made stream's are what it was made with, its priority
 * clamped into its device's range as the driver clamps it (the range is
 * asked once per context, and not at all for priority 0, which every range
 * holds).
 */
static CUresult stream_ask(unsigned int fn, CUstream s, int per_thread, int64_t *v)
{
	struct gl_a_cuStreamGetFlags a = { 0 };
	union {
		struct gl_r_cuStreamGetFlags f;
		struct gl_r_cuStreamGetPriority p;
	} o = { 0 };
	struct shim_call c;
	CUresult r;

	_Static_assert(sizeof(struct gl_a_cuStreamGetFlags) ==
		       sizeof(struct gl_a_cuStreamGetPriority) &&
		       sizeof(struct gl_r_cuStreamGetFlags) ==
		       sizeof(struct gl_r_cuStreamGetPriority), "the two questions are alike");
	r = shim_begin_io(&c, fn, &a, sizeof(a), &o, sizeof(o));
	if (r)
		return r;
	r = shim_stream_id(s, per_thread, &a.hStream);
	if (!r)
		r = shim_call(&c);
	if (!r)
		*v = fn == GL_FN_cuStreamGetFlags ? (int64_t)o.f.flags : (int64_t)o.p.priority;
	return shim_end(&c, r);
}

CUresult shim_cuStreamGetFlags(CUstream s, unsigned int *flags, int per_thread)
{
	struct shim_stream *st;
	int64_t v = 0;
	CUresult r;

	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (special_stream(s)) {
		r = stream_ask(GL_FN_cuStreamGetFlags, s, per_thread, &v);
		if (!r)
			*flags = (unsigned int)v;
		return r;
	}
	r = shim_obj_get(GL_H_STREAM, s, (struct shim_obj **)&st);
	if (!r)
		*flags = st->flags;
	return r;
}

CUresult shim_cuStreamGetPriority(CUstream s, int *prio, int per_thread)
{
	struct shim_stream *st;
	struct shim_ctx *cur;
	int least, greatest;
	int64_t v = 0;
	CUresult r;

	if (!prio)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (special_stream(s)) {
		r = stream_ask(GL_FN_cuStreamGetPriority, s, per_thread, &v);
		if (!r)
			*prio = (int)v;
		return r;
	}
	r = shim_obj_get(GL_H_STREAM, s, (struct shim_obj **)&st);
	if (r)
		return r;
	if (!st->prio) {
		*prio = 0;
		return CUDA_SUCCESS;
	}
	/* The range is the current context's: the stream's device must be its. */
	cur = shim_current();
	if (!cur || cur->dev != st->o.dev) {
		r = stream_ask(GL_FN_cuStreamGetPriority, s, per_thread, &v);
		if (!r)
			*prio = (int)v;
		return r;
	}
	r = shim_cuCtxGetStreamPriorityRange(&least, &greatest);
	if (r)
		return r;
	*prio = st->prio > least ? least : st->prio < greatest ? greatest : st->prio;
	return CUDA_SUCCESS;
}

CUresult shim_cuStreamGetDevice(CUstream s, CUdevice *device, int per_thread)
{
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	return stream_dev(s, per_thread, device);
}

static CUresult stream_ctx(CUstream s, int per_thread, CUcontext *pctx)
{
	struct shim_ctx *c;
	CUdevice dev;
	CUresult r;

	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (special_stream(s) && shim.initialised) {
		r = shim_require_ctx(&c);
		if (!r)
			*pctx = (CUcontext)c;
		return r;
	}
	r = stream_dev(s, per_thread, &dev);
	if (r)
		return r;
	c = shim_ctx_of_device(dev);
	if (!c)
		return SHIM_REFUSE("cuStreamGetCtx: the context of a stream is known only while its "
			      "device has no context but the primary one: returning "
			      "CUDA_ERROR_NOT_SUPPORTED");
	*pctx = (CUcontext)c;
	return CUDA_SUCCESS;
}

CUresult shim_cuStreamGetCtx(CUstream s, CUcontext *pctx, int per_thread)
{
	return stream_ctx(s, per_thread, pctx);
}

/* There are no green contexts here. */
CUresult shim_cuStreamGetCtx_v2(CUstream s, CUcontext *pctx, CUgreenCtx *pgreen, int per_thread)
{
	CUresult r;

	if (!pgreen)
		return CUDA_ERROR_INVALID_VALUE;
	r = stream_ctx(s, per_thread, pctx);
	if (!r)
		*pgreen = NULL;
	return r;
}
