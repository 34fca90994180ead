// SPDX-License-Identifier: MIT
/*
 * Replay of the records the table marks W: those whose data needs more
 * than the generated marshalling (copies in pieces, images, launches,
 * function layouts, the device list, capture modes, pool properties and
 * attributes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cudarules.h"
#include "image.h"
#include "util.h"
#include "worker.h"

#define GLEAM_GPUS_MAX_W 64

/*
 * The backend describes this server's devices, numbered as it numbers
 * them; the program's list is the session's, where another server's
 * devices take an empty description (the shim takes theirs from their
 * own server).  A device of this server past what the backend has ends
 * the list, as CUDA_VISIBLE_DEVICES does on the driver.
 */
static unsigned int init_session_devices(const struct gleam_devinfo *d, unsigned int nlocal,
					 struct gleam_devinfo *out, int *local)
{
	unsigned int n = wk_session_ngpus() ? wk_session_ngpus() : nlocal;

	for (unsigned int i = 0; i < n && i < GLEAM_GPUS_MAX_W; i++) {
		local[i] = wk_dev_local(i);
		memset(&out[i], 0, sizeof(out[i]));
		if (wk_gpu_elsewhere(i))
			continue;
		if (local[i] < 0 || (unsigned int)local[i] >= nlocal)
			return i;
		out[i] = d[local[i]];
	}
	return MIN(n, (unsigned int)GLEAM_GPUS_MAX_W);
}

static void init_clusters(unsigned char *p, const int *local, unsigned int n)
{
	memset(p, 0, n * sizeof(wk_clusters[0]));
	for (unsigned int i = 0; i < n; i++)
		if (local[i] >= 0)
			memcpy(p + i * sizeof(wk_clusters[0]),
			       &wk_clusters[wk_server_gpu((unsigned int)local[i])],
			       sizeof(wk_clusters[0]));
}

CUresult wk_cuInit(struct wk_call *k)
{
	const struct gl_a_cuInit *a = wk_args(k, sizeof(*a));
	struct gleam_init_reply *rep;
	struct gleam_devinfo *d;
	int local[GLEAM_GPUS_MAX_W];
	unsigned int n = 0, nlocal = 0;
	int ver = 0;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * Host functions and device output, where the shim asked and the
	 * client carries their messages: the program's output is captured
	 * before the driver starts, so that nothing it prints goes astray.
	 */
	if ((a->Flags & GLEAM_INIT_ASK_HOST) && (k->w->features & GLEAM_WIRE_F_HOST) && !k->w->host) {
		int err = wk_output_start(k->w);

		if (err)
			gl_err("cannot capture the program's output here: %s; what its kernels "
			       "print stays in this log", strerror(-err));
		k->w->host = true;
	}
	r = k->w->be->op.f_cuInit(0);
	if (r)
		return r;
	d = calloc(2 * GLEAM_GPUS_MAX_W, sizeof(*d));
	if (!d)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->devices(&ver, d, GLEAM_GPUS_MAX_W, &nlocal);
	if (!r) {
		bool clusters;

		n = init_session_devices(d, nlocal, d + GLEAM_GPUS_MAX_W, local);
		/* Another server's devices have none here: the shim takes theirs from it. */
		clusters = n > 0;
		for (unsigned int i = 0; i < n; i++)
			clusters = clusters && (local[i] < 0 ||
						(wk_server_gpu((unsigned int)local[i]) < GLEAM_GPUS_MAX &&
						 wk_have_clusters[wk_server_gpu((unsigned int)local[i])]));
		rep = wk_reply_struct(k, sizeof(*rep));
		if (rep) {
			rep->driver_version = ver;
			rep->ndev = n;
			rep->flags = (clusters ? GLEAM_INIT_F_CLUSTERS : 0) |
				     (k->w->host ? GLEAM_INIT_F_HOST : 0);
		}
		if (!rep) {
			r = CUDA_ERROR_OUT_OF_MEMORY;
		} else if (n) {
			size_t tsize = clusters ? n * sizeof(struct gleam_cluster_table) : 0;
			unsigned char *p = wk_reply_data(k, n * sizeof(*d) + tsize);

			if (!p) {
				r = CUDA_ERROR_OUT_OF_MEMORY;
			} else {
				memcpy(p, d + GLEAM_GPUS_MAX_W, n * sizeof(*d));
				if (clusters)
					init_clusters(p + n * sizeof(*d), local, n);
			}
		}
	}
	free(d);
	return r;
}

static CUresult ctx_create(struct wk_call *k, unsigned int fn)
{
	const struct gl_a_cuCtxCreate *a = wk_args(k, sizeof(*a));
	CUcontext c = NULL;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->pctx))
		return CUDA_ERROR_INVALID_VALUE;
	if (wk_dev_local(a->dev) < 0)
		return CUDA_ERROR_INVALID_DEVICE;
	r = k->w->be->op.f_cuCtxCreate(&c, (unsigned int)a->flags, wk_dev_local(a->dev));
	wk_handle_new(k->w, GL_H_CTX, a->pctx, c, r);
	/* The driver made it current: remember that, or set it back. */
	if (!r)
		wk_current_changed(k->w, a->pctx);
	(void)fn;
	return r;
}

CUresult wk_cuCtxCreate(struct wk_call *k)
{
	return ctx_create(k, GL_FN_cuCtxCreate);
}

CUresult wk_cuCtxCreate_v4(struct wk_call *k)
{
	return ctx_create(k, GL_FN_cuCtxCreate_v4);
}

/*
 * A copy with host memory here on a capturing stream would become a node
 * that reads or writes this process's buffer whenever the graph runs,
 * long after the record is gone.  The shim captures such copies through
 * stages of its own and never sends one; one that arrives anyway is
 * refused.  The stream's query says whether it captures, and invalidates
 * the capture if so, as the driver's refusal of the copy would.
 */
CUresult wk_not_capturing(struct wk_call *k, CUstream s)
{
	CUresult r;

	/* No capture yet, none to look for: a stream joins one only after one began. */
	if (!k->w->captured)
		return CUDA_SUCCESS;
	r = k->w->be->op.f_cuStreamQuery(s);

	return r == CUDA_ERROR_NOT_READY ? CUDA_SUCCESS : r;
}

/*
 * Where the device's DMA may read a copy's bytes that lie in the record
 * ring (the record's tail): the same bytes in the ring's second mapping,
 * page-locked; NULL where there is none (the sim, a refusal, a record
 * copied out of the ring).
 */
static const void *locked_src(struct worker *w, const unsigned char *tail, size_t tail_len,
			      const void *src, size_t n)
{
	const unsigned char *p = src;
	size_t off;

	if (!w->alias || !tail || p != tail || n > tail_len)
		return NULL;
	off = (size_t)(p - (const unsigned char *)w->ring.base);
	if (off > w->ring.region_size || n > w->ring.region_size - off)
		return NULL;
	if (!w->be->pin_records(w->alias + (w->ring.sq.data - (unsigned char *)w->ring.base),
				w->ring.sq.size))
		return NULL;
	return w->alias + off;
}

/*
 * Whether a copy queued on s now starts at once: s has nothing before it,
 * nor (s being a blocking stream) does the legacy stream.  Only created
 * streams: the legacy stream waits for every blocking stream, which no
 * single query says.
 */
static bool stream_idle(const struct gl_backend *be, CUstream s)
{
	unsigned int flags;

	if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD ||
	    be->op.f_cuStreamQuery(s) != CUDA_SUCCESS)
		return false;
	if (be->op.f_cuStreamGetFlags(s, &flags) != CUDA_SUCCESS)
		return false;
	return (flags & CU_STREAM_NON_BLOCKING) ||
	       be->op.f_cuStreamQuery(CU_STREAM_LEGACY) == CUDA_SUCCESS;
}

/*
 * A copy to the device.  Its bytes lie in the record ring when it came
 * whole (worker.c, copy_head()), and the ring's room goes back when this
 * returns: the driver must have taken them by then.  From the ring's
 * first mapping (pageable to the driver) it copies them into its staging
 * before it returns.  From the page-locked second mapping the device reads
 * them by DMA, at several times the rate (gleam-membench): such a copy is
 * queued on its stream and the stream waited for, so that the room goes
 * back only once the device has read it.  A synchronous copy runs so on
 * the legacy stream, as it would have; an asynchronous one only when its
 * stream is idle: with nothing before it, it ends in the time its bytes
 * take, and depends on no record behind it.  A busy stream's copy is
 * staged as before.
 */
static CUresult htod(struct wk_call *k, bool async)
{
	const struct gl_backend *be = k->w->be;
	const struct gl_a_cuMemcpyHtoDAsync *a;
	const unsigned char *tail = k->tail;
	size_t tail_len = k->tail_len;
	const void *src, *locked;
	CUstream s = CU_STREAM_LEGACY;
	CUresult r;

	a = wk_args(k, async ? sizeof(*a) : sizeof(struct gl_a_cuMemcpyHtoD));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	src = wk_data(k, a->ByteCount);
	if (!src && a->ByteCount)
		return CUDA_ERROR_INVALID_VALUE;
	locked = a->ByteCount >= WK_IN_PLACE_MIN ?
		 locked_src(k->w, tail, tail_len, src, (size_t)a->ByteCount) : NULL;
	if (!async && !locked)
		return be->op.f_cuMemcpyHtoD((CUdeviceptr)a->dstDevice, src, (size_t)a->ByteCount);
	if (async) {
		r = wk_stream(k->w, a->hStream, &s);
		if (!r)
			r = wk_not_capturing(k, s);
		if (r)
			return r;
		if (!locked || !stream_idle(be, s))
			return be->op.f_cuMemcpyHtoDAsync((CUdeviceptr)a->dstDevice, src,
							  (size_t)a->ByteCount, s);
	}
	k->w->dma_htod++;
	r = be->op.f_cuMemcpyHtoDAsync((CUdeviceptr)a->dstDevice, locked, (size_t)a->ByteCount, s);
	if (r)
		return r;
	r = be->op.f_cuStreamSynchronize(s);
	/*
	 * A synchronous copy returns what waiting for it says, as the driver's
	 * own would; an asynchronous one's error is the copy's, and the
	 * stream's own goes to whoever next synchronises, as it would have.
	 */
	return async ? CUDA_SUCCESS : r;
}

CUresult wk_cuMemcpyHtoD(struct wk_call *k)
{
	return htod(k, false);
}

CUresult wk_cuMemcpyHtoDAsync(struct wk_call *k)
{
	return htod(k, true);
}

struct dtoh_copy {
	const struct gl_backend *be;
	CUdeviceptr src;
	CUstream s;
	bool async;
};

/* One piece of a copy to the host, into dst (the reply ring, or a buffer). */
static CUresult dtoh_piece(void *arg, void *dst, uint64_t off, size_t n)
{
	struct dtoh_copy *c = arg;
	CUresult r;

	if (!c->async)
		return c->be->op.f_cuMemcpyDtoH(dst, c->src + off, n);
	r = c->be->op.f_cuMemcpyDtoHAsync(dst, c->src + off, n, c->s);
	return r ? r : c->be->op.f_cuStreamSynchronize(c->s);
}

/*
 * A piece filled in place keeps what other threads put behind it
 * unpublished until it is full, a host function's message among them
 * (wk_host.c): the program cannot run that function, and a copy that
 * waits for it (queued after it on the copy's stream, or on the legacy
 * stream after it on a blocking stream) would wait for ever.  So, with
 * host functions in use, the copy's stream is first brought up to the
 * copy with no piece reserved: an event recorded on it, waited for.  Only
 * this thread queues work, so the copy then waits for no host function.
 * False when the stream could not be waited for.
 */
static bool dtoh_reach(const struct dtoh_copy *c)
{
	CUevent e;
	CUresult r;

	if (c->be->op.f_cuEventCreate(&e, CU_EVENT_DISABLE_TIMING))
		return false;
	r = c->be->op.f_cuEventRecord(e, c->s);
	if (!r)
		r = c->be->op.f_cuEventSynchronize(e);
	c->be->op.f_cuEventDestroy(e);
	return !r;
}

/*
 * Device to host: in pieces, each copied by the backend straight into its
 * reply in the ring, once nothing it waits for needs a reply put behind
 * it (above).  A copy nobody waits for, or a small one in a session with
 * host functions, which an event would cost more than a copy, goes
 * through a buffer here, and one whose stream could not be brought up to
 * it as well: a buffer holds no reply back.
 */
static CUresult dtoh(struct wk_call *k, bool async)
{
	const struct gl_a_cuMemcpyDtoHAsync *a;
	size_t piece = GLEAM_PIECE_MAX - 4096;
	struct dtoh_copy c = { .be = k->w->be, .async = async };
	unsigned char *buf = NULL;
	CUresult r = CUDA_SUCCESS;
	bool direct;

	a = wk_args(k, async ? sizeof(*a) : sizeof(struct gl_a_cuMemcpyDtoH));
	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	c.src = (CUdeviceptr)a->srcDevice;
	if (async) {
		r = wk_stream(k->w, a->hStream, &c.s);
		if (!r)
			r = wk_not_capturing(k, c.s);
		if (r)
			return r;
	}
	if (a->ByteCount >= WK_IN_PLACE_MIN)
		wk_ring_warm(k->w);
	direct = (k->hdr.flags & GLEAM_REC_F_REPLY) &&
		 (!k->w->hf || (a->ByteCount >= WK_IN_PLACE_MIN && dtoh_reach(&c)));
	if (!direct) {
		buf = malloc(MIN((uint64_t)piece, a->ByteCount ? a->ByteCount : 1));
		if (!buf)
			return CUDA_ERROR_OUT_OF_MEMORY;
	} else if (k->w->be->pin_replies) {
		k->w->be->pin_replies(k->w->ring.cq.data, k->w->ring.cq.size);
	}
	for (uint64_t off = 0; off < a->ByteCount && !r; off += piece) {
		size_t n = (size_t)MIN((uint64_t)piece, a->ByteCount - off);

		if (buf) {
			r = dtoh_piece(&c, buf, off, n);
			if (!r && wk_reply_piece(k, off, buf, n))
				r = CUDA_ERROR_DEVICE_UNAVAILABLE;
		} else {
			r = wk_reply_piece_fill(k, off, n, dtoh_piece, &c);
		}
	}
	free(buf);
	return r;
}

CUresult wk_cuMemcpyDtoH(struct wk_call *k)
{
	return dtoh(k, false);
}

CUresult wk_cuMemcpyDtoHAsync(struct wk_call *k)
{
	return dtoh(k, true);
}

/* The image is the rest of the record; a text image must end in NUL. */
static const void *image(struct wk_call *k, size_t alen)
{
	size_t n;

	if (!wk_args(k, alen) || k->pos >= k->blen)
		return NULL;
	n = k->blen - k->pos;
	(void)n;
	return k->body + k->pos;
}

/*
 * A module's or a library's image; id is the new handle's, alen the
 * length of the record's arguments.
 */
static CUresult load_data(struct wk_call *k, size_t alen, __u64 id, bool library)
{
	const unsigned char *img = image(k, alen);
	void *h = NULL;
	CUresult r;

	if (!img || wk_handle_taken(k->w, id))
		return CUDA_ERROR_INVALID_VALUE;
	/* The image must lie whole inside the record, by its own headers. */
	if (!gl_image_size(img, k->blen - k->pos))
		return CUDA_ERROR_INVALID_IMAGE;
	if (library)
		r = k->w->be->op.f_cuLibraryLoadData((CUlibrary *)&h, img, NULL, NULL, 0, NULL,
						     NULL, 0);
	else
		r = k->w->be->op.f_cuModuleLoadData((CUmodule *)&h, img);
	wk_handle_new(k->w, library ? GL_H_LIBRARY : GL_H_MODULE, id, h, r);
	return r;
}

CUresult wk_cuModuleLoadData(struct wk_call *k)
{
	const struct gl_a_cuModuleLoadData *a = wk_args(k, sizeof(*a));

	return a ? load_data(k, sizeof(*a), a->module, false) : CUDA_ERROR_INVALID_VALUE;
}

CUresult wk_cuLibraryLoadData(struct wk_call *k)
{
	const struct gl_a_cuLibraryLoadData *a = wk_args(k, sizeof(*a));

	return a ? load_data(k, sizeof(*a), a->pLib, true) : CUDA_ERROR_INVALID_VALUE;
}

static CUresult reply_info(struct wk_call *k, const struct gleam_funcinfo *fi,
			   const struct gleam_param *p)
{
	void *s = wk_reply_struct(k, sizeof(*fi));
	void *d;

	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(s, fi, sizeof(*fi));
	if (!fi->nparams)
		return CUDA_SUCCESS;
	d = wk_reply_data(k, fi->nparams * sizeof(*p));
	if (!d)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(d, p, fi->nparams * sizeof(*p));
	return CUDA_SUCCESS;
}

static CUresult get_func(struct wk_call *k, bool kernel)
{
	const struct gl_a_cuModuleGetFunction *a = wk_args(k, sizeof(*a));
	struct gleam_funcinfo fi = { 0 };
	struct gleam_param *p;
	const char *name;
	void *parent, *f = NULL;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->hfunc))
		return CUDA_ERROR_INVALID_VALUE;
	name = wk_str(k, a->name_len);
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, kernel ? GL_H_LIBRARY : GL_H_MODULE, a->hmod, &parent);
	if (r)
		return r;
	if (kernel)
		r = k->w->be->op.f_cuLibraryGetKernel((CUkernel *)&f, parent, name);
	else
		r = k->w->be->op.f_cuModuleGetFunction((CUfunction *)&f, parent, name);
	/*
	 * The shim read the layout and attributes from the image and made the
	 * handle: nothing to say, and a failure stays with the handle.
	 */
	if (!(k->hdr.flags & GLEAM_REC_F_REPLY)) {
		wk_handle_new(k->w, kernel ? GL_H_KERNEL : GL_H_FUNC, a->hfunc, f, r);
		return r;
	}
	if (r)
		return r;
	p = calloc(GLEAM_NPARAMS_MAX, sizeof(*p));
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = kernel ? k->w->be->kernel_info(f, &fi, p, GLEAM_NPARAMS_MAX) :
		     k->w->be->func_info(f, &fi, p, GLEAM_NPARAMS_MAX);
	if (!r)
		r = reply_info(k, &fi, p);
	free(p);
	if (!r)
		wk_handle_new(k->w, kernel ? GL_H_KERNEL : GL_H_FUNC, a->hfunc, f, r);
	return r;
}

CUresult wk_cuModuleGetFunction(struct wk_call *k)
{
	return get_func(k, false);
}

CUresult wk_cuLibraryGetKernel(struct wk_call *k)
{
	return get_func(k, true);
}

/* A launch names a function, or a kernel, which the driver also takes. */
static CUresult func_or_kernel(struct worker *w, uint64_t id, CUfunction *f)
{
	CUresult r = wk_handle(w, GL_H_FUNC, id, (void **)f);

	if (r == CUDA_ERROR_INVALID_HANDLE)
		r = wk_handle(w, GL_H_KERNEL, id, (void **)f);
	return r;
}

/* The size-prefixed parameter block at the reader's position. */
/*
 * The packed parameters at the reader's position, as a launch's extra
 * (whose size entry points at *len); the driver checks the block's size
 * against the function's own.
 */
static CUresult params(struct wk_call *k, void *extra[5], size_t *len)
{
	const uint64_t *n = wk_data(k, 8);
	const void *p;

	if (!n || *n > GLEAM_PARAMS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	*len = (size_t)*n;
	p = *len ? wk_data(k, *len) : "";
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	extra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
	extra[1] = (void *)p;
	extra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
	extra[3] = len;
	extra[4] = CU_LAUNCH_PARAM_END;
	return CUDA_SUCCESS;
}

CUresult wk_cuLaunchKernel(struct wk_call *k)
{
	const struct gl_a_cuLaunchKernel *a = wk_args(k, sizeof(*a));
	size_t plen;
	void *extra[5];
	CUfunction f;
	CUstream s;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = func_or_kernel(k->w, a->f, &f);
	if (!r)
		r = wk_stream(k->w, a->hStream, &s);
	if (!r)
		r = params(k, extra, &plen);
	if (r)
		return r;
	return k->w->be->op.f_cuLaunchKernel(f, (unsigned int)a->gridDimX, (unsigned int)a->gridDimY,
					     (unsigned int)a->gridDimZ, (unsigned int)a->blockDimX,
					     (unsigned int)a->blockDimY, (unsigned int)a->blockDimZ,
					     (unsigned int)a->sharedMemBytes, s, NULL, extra);
}

/* The launch configuration at the reader's position; attrs holds its attributes. */
static CUresult config(struct wk_call *k, CUlaunchConfig *cfg, CUlaunchAttribute *attrs)
{
	const struct gleam_launch_ex *lx = wk_data(k, sizeof(*lx));
	const struct gleam_launch_attr *at;
	CUresult r;

	if (!lx || lx->nattrs > GLEAM_LAUNCH_ATTRS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	at = lx->nattrs ? wk_data(k, lx->nattrs * sizeof(*at)) : NULL;
	if (lx->nattrs && !at)
		return CUDA_ERROR_INVALID_VALUE;
	memset(cfg, 0, sizeof(*cfg));
	r = wk_stream(k->w, lx->stream, &cfg->hStream);
	if (r)
		return r;
	for (unsigned int i = 0; i < lx->nattrs; i++) {
		memset(&attrs[i], 0, sizeof(attrs[i]));
		attrs[i].id = (CUlaunchAttributeID)at[i].id;
		if (attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ||
		    attrs[i].id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)
			return CUDA_ERROR_NOT_SUPPORTED;
		memcpy(&attrs[i].value, at[i].value, sizeof(at[i].value));
	}
	cfg->gridDimX = lx->grid[0];
	cfg->gridDimY = lx->grid[1];
	cfg->gridDimZ = lx->grid[2];
	cfg->blockDimX = lx->block[0];
	cfg->blockDimY = lx->block[1];
	cfg->blockDimZ = lx->block[2];
	cfg->sharedMemBytes = lx->shared_bytes;
	cfg->attrs = lx->nattrs ? attrs : NULL;
	cfg->numAttrs = lx->nattrs;
	return CUDA_SUCCESS;
}

CUresult wk_cuLaunchKernelEx(struct wk_call *k)
{
	const struct gl_a_cuLaunchKernelEx *a = wk_args(k, sizeof(*a));
	CUlaunchAttribute attrs[GLEAM_LAUNCH_ATTRS_MAX];
	CUlaunchConfig cfg;
	size_t plen;
	void *extra[5];
	CUfunction f;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = config(k, &cfg, attrs);
	if (!r)
		r = func_or_kernel(k->w, a->f, &f);
	if (!r)
		r = params(k, extra, &plen);
	if (r)
		return r;
	return k->w->be->op.f_cuLaunchKernelEx(&cfg, f, NULL, extra);
}

/*
 * Every capture begins in relaxed mode here.  The other modes' rules are
 * about the application's threads, which the shim knows and this one
 * thread replaying all of them does not: the shim applied them before it
 * sent the record, and the driver must not apply them again to a thread
 * that is not the application's.
 */
CUresult wk_cuStreamBeginCapture(struct wk_call *k)
{
	const struct gl_a_cuStreamBeginCapture *a = wk_args(k, sizeof(*a));
	CUstream s;
	CUresult r;

	if (!a || a->mode < 0 || a->mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_stream(k->w, a->hStream, &s);
	if (r)
		return r;
	k->w->captured = true;
	return k->w->be->op.f_cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
}

/* A reply of one 64-bit value. */
static CUresult reply_u64(struct wk_call *k, uint64_t v)
{
	uint64_t *o = wk_reply_struct(k, sizeof(*o));

	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*o = v;
	return CUDA_SUCCESS;
}

/* The count only: the nodes stay here. */
CUresult wk_cuGraphGetNodes(struct wk_call *k)
{
	const struct gl_a_cuGraphGetNodes *a = wk_args(k, sizeof(*a));
	size_t n = 0;
	CUgraph g;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_GRAPH, a->hGraph, (void **)&g);
	if (!r)
		r = k->w->be->op.f_cuGraphGetNodes(g, NULL, &n);
	return r ? r : reply_u64(k, n);
}

/* The pool's properties as the record carries them, into the driver's form. */
CUresult wk_cuMemPoolCreate(struct wk_call *k)
{
	const struct gl_a_cuMemPoolCreate *a = wk_args(k, sizeof(*a));
	const struct gleam_pool_props *gp;
	CUmemPoolProps props;
	CUmemoryPool p = NULL;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->pool))
		return CUDA_ERROR_INVALID_VALUE;
	gp = wk_data(k, sizeof(*gp));
	if (!gp || gp->reserved[0] || gp->reserved[1] || gp->reserved[2])
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * What the shim offers, and nothing else a record may ask for: device
	 * memory, which no other process on this machine can import.
	 */
	if (gp->alloc_type != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    gp->location_type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    gp->handle_types != CU_MEM_HANDLE_TYPE_NONE)
		return CUDA_ERROR_NOT_SUPPORTED;
	memset(&props, 0, sizeof(props));
	props.allocType = (CUmemAllocationType)gp->alloc_type;
	props.handleTypes = (CUmemAllocationHandleType)gp->handle_types;
	props.location.type = (CUmemLocationType)gp->location_type;
	props.location.id = wk_dev_local(gp->location_id);
	props.maxSize = (size_t)gp->max_size;
	props.usage = gp->usage;
	r = k->w->be->op.f_cuMemPoolCreate(&p, &props);
	wk_handle_new(k->w, GL_H_MEMPOOL, a->pool, p, r);
	return r;
}

CUresult wk_cuMemPoolSetAttribute(struct wk_call *k)
{
	const struct gl_a_cuMemPoolSetAttribute *a = wk_args(k, sizeof(*a));
	const uint64_t *v;
	CUmemoryPool p;
	cuuint64_t big;
	CUresult r;
	int small;

	if (!a || !gl_pool_attr_known(a->attr))
		return CUDA_ERROR_INVALID_VALUE;
	v = wk_data(k, sizeof(*v));
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_MEMPOOL, a->pool, (void **)&p);
	if (r)
		return r;
	small = (int)*v;
	big = *v;
	return k->w->be->op.f_cuMemPoolSetAttribute(p, (CUmemPool_attribute)a->attr,
						    gl_pool_attr_is_int(a->attr) ? (void *)&small :
									     (void *)&big);
}

CUresult wk_cuMemPoolGetAttribute(struct wk_call *k)
{
	const struct gl_a_cuMemPoolGetAttribute *a = wk_args(k, sizeof(*a));
	cuuint64_t big = 0;
	CUmemoryPool p;
	int small = 0;
	CUresult r;

	if (!a || !gl_pool_attr_known(a->attr))
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_MEMPOOL, a->pool, (void **)&p);
	if (r)
		return r;
	r = k->w->be->op.f_cuMemPoolGetAttribute(p, (CUmemPool_attribute)a->attr,
						 gl_pool_attr_is_int(a->attr) ? (void *)&small :
									  (void *)&big);
	if (r)
		return r;
	return reply_u64(k, gl_pool_attr_is_int(a->attr) ? (uint64_t)(int64_t)small : big);
}
