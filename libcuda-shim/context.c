// SPDX-License-Identifier: MIT
/*
 * Contexts: the per-thread stack, primary contexts and their reference
 * counts live here and are answered here.  The worker learns of creations,
 * destructions and primary-context activations through asynchronous
 * records; every record names the context current at the call.
 */
#include <stdlib.h>

#include "export.h"
#include "shim.h"
#include "util.h"

#define STACK_MAX 256

static __thread struct shim_ctx *stack[STACK_MAX];
static __thread int depth;
static pthread_mutex_t prim_lock = PTHREAD_MUTEX_INITIALIZER;
/* Contexts made by cuCtxCreate and not destroyed, per device. */
static int created[GLEAM_GPUS_MAX_LOCAL];

struct shim_ctx *shim_current(void)
{
	return depth ? stack[depth - 1] : NULL;
}

static CUresult ctx_arg(CUcontext h, struct shim_ctx **out)
{
	struct shim_obj *o;
	CUresult r;

	if (!h) {
		*out = shim_current();
		if (!*out)
			return CUDA_ERROR_INVALID_CONTEXT;
		if ((*out)->o.magic != (SHIM_OBJ_MAGIC | GL_H_CTX))
			return CUDA_ERROR_CONTEXT_IS_DESTROYED;
		return CUDA_SUCCESS;
	}
	r = shim_obj_get(GL_H_CTX, h, &o);
	if (!r)
		*out = (struct shim_ctx *)o;
	return r;
}

/* ctx_arg for a call that answers in *out: out must be there. */
static CUresult ctx_out(const void *out, CUcontext h, struct shim_ctx **c)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	return ctx_arg(h, c);
}

CUresult shim_require_ctx(struct shim_ctx **ctx)
{
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	return ctx_arg(NULL, ctx);
}

/* Send a record about a context; sync only in GLEAM_ASYNC=0 mode. */
/* dev: the device whose server it goes to, or -1 for ctx's. */
static CUresult ctx_record(unsigned int fn, uint64_t ctx, int dev, const void *args, size_t len)
{
	struct shim_call c = { .fn = fn, .ctx = ctx, .args = args, .args_len = len,
			       .dev1 = dev + 1 };
	CUresult r = shim_conn_error();

	return r ? r : shim_call(&c);
}

/* ---- primary contexts ---- */

/* The device's primary context object, made on first use; prim_lock held. */
static struct shim_ctx *prim_obj(CUdevice dev)
{
	struct shim_dev *d = &shim.dev[dev];

	if (!d->pctx) {
		struct shim_ctx *c = (struct shim_ctx *)shim_obj_new(GL_H_CTX);

		if (!c)
			return NULL;
		c->dev = dev;
		c->o.dev = dev;
		c->primary = true;
		shim_obj_created(&c->o);
		shim_span_ctx(c);
		/* Read without the lock by shim_ctx_of_device(). */
		__atomic_store_n(&d->pctx, c, __ATOMIC_RELEASE);
	}
	return d->pctx;
}

/*
 * The handle cuDevicePrimaryCtxRetain returns, without retaining it: the
 * runtime asks for it (export table 6bd5fb6c, slot 2) before it decides
 * to retain.
 */
CUresult shim_primary_ctx(CUdevice dev, CUcontext *pctx)
{
	struct shim_ctx *c;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&prim_lock);
	c = prim_obj(dev);
	pthread_mutex_unlock(&prim_lock);
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pctx = (CUcontext)c;
	return CUDA_SUCCESS;
}

CUresult shim_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	struct shim_dev *d;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	d = &shim.dev[dev];
	pthread_mutex_lock(&prim_lock);
	if (!prim_obj(dev)) {
		pthread_mutex_unlock(&prim_lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (d->prim_refs == 0) {
		struct gl_a_cuDevicePrimaryCtxRetain a = { .pctx = d->pctx->o.id, .dev = dev };

		d->pctx->flags = d->prim_flags;
		d->pctx->have_flags = false;
		d->pctx->have_limit = 0;
		r = ctx_record(GL_FN_cuDevicePrimaryCtxRetain, 0, dev, &a, sizeof(a));
	}
	if (!r)
		d->prim_refs++;
	*pctx = (CUcontext)d->pctx;
	pthread_mutex_unlock(&prim_lock);
	return r;
}

/* A context ended on the GPU: its memory and its captures with it. */
static void ctx_gone(struct shim_ctx *c)
{
	shim_mem_forget_ctx(c->o.id);
	shim_capture_ctx_gone(c->o.id);
	shim_waits_ctx_gone(c);
}

CUresult shim_cuDevicePrimaryCtxRelease(CUdevice dev)
{
	struct gl_a_cuDevicePrimaryCtxRelease a = { .dev = dev };
	struct shim_dev *d;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	d = &shim.dev[dev];
	/*
	 * The last release ends the context: the runtime's context-local
	 * destructors run first, while it still works, and unlocked, since
	 * they may call the driver.
	 */
	if (__atomic_load_n(&d->prim_refs, __ATOMIC_RELAXED) == 1 && d->pctx)
		shim_export_ctx_gone(d->pctx);
	pthread_mutex_lock(&prim_lock);
	if (d->prim_refs <= 0)
		r = CUDA_ERROR_INVALID_CONTEXT;
	else if (--d->prim_refs == 0) {
		r = ctx_record(GL_FN_cuDevicePrimaryCtxRelease, 0, dev, &a, sizeof(a));
		if (d->pctx)
			ctx_gone(d->pctx);
	}
	pthread_mutex_unlock(&prim_lock);
	return r;
}

CUresult shim_cuDevicePrimaryCtxReset(CUdevice dev)
{
	struct gl_a_cuDevicePrimaryCtxReset a = { .dev = dev };
	struct shim_dev *d;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	d = &shim.dev[dev];
	/* As for the last release: destructors first, unlocked. */
	if (__atomic_load_n(&d->prim_refs, __ATOMIC_RELAXED) > 0 && d->pctx)
		shim_export_ctx_gone(d->pctx);
	pthread_mutex_lock(&prim_lock);
	if (d->prim_refs > 0) {
		d->prim_refs = 0;
		r = ctx_record(GL_FN_cuDevicePrimaryCtxReset, 0, dev, &a, sizeof(a));
		if (d->pctx)
			ctx_gone(d->pctx);
	}
	d->prim_flags = 0;
	pthread_mutex_unlock(&prim_lock);
	return r;
}

CUresult shim_cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!flags || !active)
		return CUDA_ERROR_INVALID_VALUE;
	/* Hot: PyTorch asks thousands of times per inference.  No lock. */
	*flags = __atomic_load_n(&shim.dev[dev].prim_flags, __ATOMIC_RELAXED);
	*active = __atomic_load_n(&shim.dev[dev].prim_refs, __ATOMIC_RELAXED) > 0;
	return CUDA_SUCCESS;
}

CUresult shim_cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
	struct gl_a_cuDevicePrimaryCtxSetFlags a = { .dev = dev, .flags = flags };
	struct shim_dev *d;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (flags & ~(unsigned int)(CU_CTX_SCHED_MASK | CU_CTX_LMEM_RESIZE_TO_MAX |
				    CU_CTX_COREDUMP_ENABLE | CU_CTX_USER_COREDUMP_ENABLE |
				    CU_CTX_SYNC_MEMOPS | CU_CTX_MAP_HOST))
		return CUDA_ERROR_INVALID_VALUE;
	d = &shim.dev[dev];
	pthread_mutex_lock(&prim_lock);
	r = ctx_record(GL_FN_cuDevicePrimaryCtxSetFlags, 0, dev, &a, sizeof(a));
	if (!r) {
		d->prim_flags = flags;
		if (d->pctx)
			d->pctx->have_flags = false;
	}
	pthread_mutex_unlock(&prim_lock);
	return r;
}

/* ---- created contexts ---- */

/*
 * The shim keeps no context with its streams and allocations, only their
 * device.  While a device has no context but its primary one, that is
 * where they belong: the CUDA runtime's case.  NULL when it is not certain.
 */
struct shim_ctx *shim_ctx_of_device(CUdevice dev)
{
	if (shim_dev_check(dev) || __atomic_load_n(&created[dev], __ATOMIC_RELAXED))
		return NULL;
	return __atomic_load_n(&shim.dev[dev].pctx, __ATOMIC_ACQUIRE);
}

static CUresult ctx_create(unsigned int fn, CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	struct gl_a_cuCtxCreate a = { .flags = flags, .dev = dev };
	struct shim_ctx *c;
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (depth == STACK_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c = (struct shim_ctx *)shim_obj_new(GL_H_CTX);
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->dev = dev;
	c->o.dev = dev;
	c->flags = flags;
	a.pctx = c->o.id;
	shim_span_ctx(c);
	/* cuCtxCreate_v4's record carries the same block: no parameters travel. */
	r = ctx_record(fn, 0, dev, &a, sizeof(a));
	if (r) {
		shim_obj_put(&c->o);
		return r;
	}
	shim_obj_created(&c->o);
	__atomic_add_fetch(&created[dev], 1, __ATOMIC_RELAXED);
	stack[depth++] = c;
	*pctx = (CUcontext)c;
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return ctx_create(GL_FN_cuCtxCreate, pctx, flags, dev);
}

CUresult shim_cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *p, unsigned int flags,
			     CUdevice dev)
{
	if (p && (p->numExecAffinityParams || p->execAffinityParams || p->cigParams)) {
		static bool said;

		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			gl_err("cuCtxCreate_v4: execution affinity and CIG parameters are not supported");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	return ctx_create(GL_FN_cuCtxCreate_v4, pctx, flags, dev);
}

CUresult shim_cuCtxDestroy(CUcontext h)
{
	struct gl_a_cuCtxDestroy a;
	struct shim_obj *o;
	struct shim_ctx *c;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_obj_get(GL_H_CTX, h, &o);
	if (r)
		return r;
	c = (struct shim_ctx *)o;
	if (c->primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	shim_export_ctx_gone(c);
	a.ctx = o->id;
	r = ctx_record(GL_FN_cuCtxDestroy, shim_current() ? shim_current()->o.id : 0, c->dev,
		       &a, sizeof(a));
	if (r)
		return r;
	ctx_gone(c);
	__atomic_sub_fetch(&created[c->dev], 1, __ATOMIC_RELAXED);
	/* Popped if current here; other threads keep a handle that now fails. */
	if (depth && stack[depth - 1] == c)
		depth--;
	shim_obj_put(o);
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxPushCurrent(CUcontext h)
{
	struct shim_ctx *c;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = ctx_arg(h, &c);
	if (r)
		return h ? r : CUDA_ERROR_INVALID_CONTEXT;
	if (depth == STACK_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	stack[depth++] = c;
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxPopCurrent(CUcontext *pctx)
{
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!depth)
		return CUDA_ERROR_INVALID_CONTEXT;
	depth--;
	if (pctx)
		*pctx = (CUcontext)stack[depth];
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxSetCurrent(CUcontext h)
{
	struct shim_obj *o;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!h) {
		if (depth)
			depth--;
		return CUDA_SUCCESS;
	}
	r = shim_obj_get(GL_H_CTX, h, &o);
	if (r)
		return r;
	if (depth)
		stack[depth - 1] = (struct shim_ctx *)o;
	else
		stack[depth++] = (struct shim_ctx *)o;
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxGetCurrent(CUcontext *pctx)
{
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	*pctx = (CUcontext)shim_current();
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxGetDevice(CUdevice *device)
{
	struct shim_ctx *c = shim_current();

	/* The hottest call PyTorch makes: a thread-local read, nothing more. */
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (!c)
		return shim.initialised ? CUDA_ERROR_INVALID_CONTEXT : CUDA_ERROR_NOT_INITIALIZED;
	*device = c->dev;
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxGetDevice_v2(CUdevice *device, CUcontext h)
{
	struct shim_ctx *c;
	CUresult r;

	r = ctx_out(device, h, &c);
	if (r)
		return r;
	*device = c->dev;
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxGetId(CUcontext h, unsigned long long *id)
{
	struct shim_ctx *c;
	CUresult r;

	r = ctx_out(id, h, &c);
	if (r)
		return r;
	*id = c->o.id;
	return CUDA_SUCCESS;
}

/* Ask the worker once, in the given context, then keep the answer. */
static CUresult ctx_query(struct shim_ctx *c, unsigned int fn, const void *args, size_t alen,
			  void *out, size_t olen)
{
	struct shim_call call = { .fn = fn, .ctx = c->o.id, .args = args, .args_len = alen,
				  .out = out, .out_len = olen, .force_sync = true };
	CUresult r = shim_conn_error();

	return r ? r : shim_call(&call);
}

CUresult shim_cuCtxGetApiVersion(CUcontext h, unsigned int *version)
{
	struct gl_a_cuCtxGetApiVersion a = { 0 };
	struct gl_r_cuCtxGetApiVersion o = { 0 };
	struct shim_ctx *c;
	CUresult r;

	r = ctx_out(version, h, &c);
	if (r)
		return r;
	if (!c->have_api) {
		a.ctx = c->o.id;
		r = ctx_query(c, GL_FN_cuCtxGetApiVersion, &a, sizeof(a), &o, sizeof(o));
		if (r)
			return r;
		c->api_version = (unsigned int)o.version;
		c->have_api = true;
	}
	*version = c->api_version;
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
	struct gl_a_cuCtxGetLimit a = { .limit = limit };
	struct gl_r_cuCtxGetLimit o = { 0 };
	struct shim_ctx *c;
	CUresult r;

	if (!pvalue)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_require_ctx(&c);
	if (r)
		return r;
	if ((unsigned int)limit >= SHIM_LIMITS)
		return CUDA_ERROR_INVALID_VALUE;
	if (!(c->have_limit & (1u << limit))) {
		r = ctx_query(c, GL_FN_cuCtxGetLimit, &a, sizeof(a), &o, sizeof(o));
		if (r)
			return r;
		c->limit[limit] = (size_t)o.pvalue;
		c->have_limit |= 1u << limit;
	}
	*pvalue = c->limit[limit];
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxSetLimit(CUlimit limit, size_t value)
{
	struct gl_a_cuCtxSetLimit a = { .limit = limit, .value = value };
	struct shim_ctx *c;
	CUresult r;

	r = shim_require_ctx(&c);
	if (r)
		return r;
	if ((unsigned int)limit >= SHIM_LIMITS)
		return CUDA_ERROR_INVALID_VALUE;
	/* The driver may round the value: the next read asks again. */
	c->have_limit &= ~(1u << limit);
	return ctx_record(GL_FN_cuCtxSetLimit, c->o.id, -1, &a, sizeof(a));
}

CUresult shim_cuCtxGetFlags(unsigned int *flags)
{
	struct gl_a_cuCtxGetFlags a = { 0 };
	struct gl_r_cuCtxGetFlags o = { 0 };
	struct shim_ctx *c;
	CUresult r;

	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_require_ctx(&c);
	if (r)
		return r;
	if (!c->have_flags) {
		r = ctx_query(c, GL_FN_cuCtxGetFlags, &a, sizeof(a), &o, sizeof(o));
		if (r)
			return r;
		c->flags = (unsigned int)o.flags;
		c->have_flags = true;
	}
	*flags = c->flags;
	return CUDA_SUCCESS;
}

CUresult shim_cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
	struct gl_a_cuCtxGetStreamPriorityRange a = { 0 };
	struct gl_r_cuCtxGetStreamPriorityRange o = { 0 };
	struct shim_ctx *c;
	CUresult r;

	r = shim_require_ctx(&c);
	if (r)
		return r;
	if (!c->have_prio) {
		r = ctx_query(c, GL_FN_cuCtxGetStreamPriorityRange, &a, sizeof(a), &o, sizeof(o));
		if (r)
			return r;
		c->prio_least = (int)o.leastPriority;
		c->prio_greatest = (int)o.greatestPriority;
		c->have_prio = true;
	}
	if (least)
		*least = c->prio_least;
	if (greatest)
		*greatest = c->prio_greatest;
	return CUDA_SUCCESS;
}

/* A NULL context is the current one, as the driver documents. */
CUresult shim_cuCtxSynchronize_v2(CUcontext ctx)
{
	struct gl_a_cuCtxSynchronize_v2 a = { 0 };
	struct gl_r_cuCtxSynchronize_v2 o = { 0 };
	struct shim_call c;
	CUresult r;

	if (!ctx)
		return cuCtxSynchronize();
	r = shim_begin(&c, GL_FN_cuCtxSynchronize_v2);
	if (r)
		return r;
	r = shim_handle_id(GL_H_CTX, ctx, &a.ctx);
	if (r)
		return shim_end(&c, r);
	c.args = &a;
	c.args_len = sizeof(a);
	c.out = &o;
	c.out_len = sizeof(o);
	return shim_end(&c, shim_call(&c));
}
