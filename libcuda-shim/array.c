// SPDX-License-Identifier: MIT
/*
 * Arrays, mipmapped arrays and the copies that involve arrays or rows
 * (Documentation/design.md, "Arrays, 2D and 3D copies, texture and
 * surface objects").
 *
 * Arrays are the shim's handles: a creation is checked here as the driver
 * checks it (common/cuarray.c: formats, channels, each kind's limits on
 * the device) and sent without waiting; the descriptor is kept, so that
 * the descriptor questions are answered here and every copy is checked
 * against the array's extent before it is sent.
 *
 * Copies are described once, whichever function the program called, as
 * struct gleam_copy (uapi/gleam_record.h).  Copies on the device (between
 * device memory and arrays) are one record without data.  Copies from
 * host memory carry the rows without gaps, in pieces that are each a copy
 * of their own (gl_copy_piece), as host-to-device copies do.  Copies to
 * host memory are one record of cuMemcpyAtoH (cuMemcpyAtoHAsync on a
 * stream), whose data pieces the receiving thread lays out in the
 * program's rows (struct shim_rows).
 */
#include <errno.h>
#include <stdlib.h>

#include "cuarray.h"
#include "shim.h"
#include "util.h"

/* The shim's own entry points (shim_gen.c, memory.c). */
CUresult shim_cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);
CUresult cuStreamSynchronize_ptsz(CUstream s);

/* ---- arrays ---- */

static const int32_t *dev_attrs(void)
{
	struct shim_ctx *c = shim_current();

	return shim.dev[c ? c->dev : 0].info.attr;
}

/* cuArray3DCreate's checks, said once where Gleam does not offer what is asked. */
static CUresult desc_check(const CUDA_ARRAY3D_DESCRIPTOR *d, bool mip, unsigned int *elem)
{
	int err = gl_array_check(d, dev_attrs(), mip);

	if (err == -EOPNOTSUPP)
		return SHIM_REFUSE("CUDA arrays of format %#x or flags %#x (sparse, deferred mapping, "
				   "video, planar or block-compressed formats) are not supported: "
				   "returning CUDA_ERROR_NOT_SUPPORTED", d->Format, d->Flags);
	if (err)
		return CUDA_ERROR_INVALID_VALUE;
	gl_array_format(d->Format, d->NumChannels, elem);
	return CUDA_SUCCESS;
}

static void wire_desc(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int levels,
		      struct gleam_array_desc *w)
{
	memset(w, 0, sizeof(*w));
	w->width = d->Width;
	w->height = d->Height;
	w->depth = d->Depth;
	w->format = (__u32)d->Format;
	w->channels = d->NumChannels;
	w->flags = d->Flags;
	w->levels = levels;
}

/*
 * A creation: the handle is minted here and the record goes without a
 * wait.  What the driver could still refuse (memory) is kept with the
 * handle on the worker, and every use of it reports that error.
 */
static CUresult create(unsigned int fn, unsigned int kind, const CUDA_ARRAY3D_DESCRIPTOR *d,
		       unsigned int levels, struct shim_obj **out)
{
	struct gleam_array_desc wd;
	struct shim_call c;
	struct shim_obj *o;
	unsigned int elem = 0;
	__u64 a[2] = { 0 };
	CUresult r;

	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (!out || !d)
		return CUDA_ERROR_INVALID_VALUE;
	r = desc_check(d, kind == GL_H_MIPMAP, &elem);
	if (r)
		return r;
	o = shim_obj_new(kind);
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* Every creation's argument block starts with the new handle's id. */
	a[0] = o->id;
	a[1] = levels;
	wire_desc(d, levels, &wd);
	c.args = a;
	c.args_len = gl_fn_args_size[fn];
	r = shim_call_new(&c, o, &wd, sizeof(wd));
	if (r && c.waited)
		return r;
	if (kind == GL_H_ARRAY) {
		struct shim_array *ar = (struct shim_array *)o;

		ar->d = *d;
		ar->elem = elem;
	} else {
		struct shim_mipmap *m = (struct shim_mipmap *)o;

		m->d = *d;
		m->elem = elem;
		m->levels = levels;
	}
	shim_obj_created(o);
	*out = o;
	return r;
}

CUresult shim_cuArray3DCreate(CUarray *ph, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	_Static_assert(offsetof(struct gl_a_cuArray3DCreate, pHandle) == 0 &&
		       offsetof(struct gl_a_cuArrayCreate, pHandle) == 0 &&
		       offsetof(struct gl_a_cuMipmappedArrayCreate, pHandle) == 0 &&
		       offsetof(struct gl_a_cuMipmappedArrayCreate, numMipmapLevels) == 8,
		       "the new id first");
	return create(GL_FN_cuArray3DCreate, GL_H_ARRAY, d, 0, (struct shim_obj **)ph);
}

CUresult shim_cuArrayCreate(CUarray *ph, const CUDA_ARRAY_DESCRIPTOR *d)
{
	CUDA_ARRAY3D_DESCRIPTOR d3 = { 0 };

	if (!d)
		return shim.initialised ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
	/* A 2D descriptor is a 3D one of no depth: Height 0 is a 1D array. */
	d3.Width = d->Width;
	d3.Height = d->Height;
	d3.Format = d->Format;
	d3.NumChannels = d->NumChannels;
	return create(GL_FN_cuArrayCreate, GL_H_ARRAY, &d3, 0, (struct shim_obj **)ph);
}

CUresult shim_cuMipmappedArrayCreate(CUmipmappedArray *ph, const CUDA_ARRAY3D_DESCRIPTOR *d,
				     unsigned int levels)
{
	/* The driver clamps the levels asked for; the worker's driver gets the clamped count. */
	return create(GL_FN_cuMipmappedArrayCreate, GL_H_MIPMAP, d,
		      d ? gl_mipmap_levels(d, levels) : 0, (struct shim_obj **)ph);
}

CUresult shim_array_get(CUarray h, struct shim_array **a)
{
	return shim_obj_get(GL_H_ARRAY, h, (struct shim_obj **)a);
}

CUresult shim_check_array(CUarray h, size_t off, size_t len)
{
	struct gl_array_extent e;
	struct shim_array *a;
	CUresult r = shim_array_get(h, &a);

	if (r)
		return r;
	gl_array_extent(&a->d, a->elem, &e);
	return off <= gl_array_bytes(&e) && len <= gl_array_bytes(&e) - off ?
	       CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* A destruction with its argument block of one id: sent without a wait. */
static CUresult destroy(unsigned int fn, unsigned int kind, void *h)
{
	struct shim_call c;
	struct shim_obj *o;
	__u64 id;
	CUresult r;

	r = shim_begin_io(&c, fn, &id, sizeof(id), NULL, 0);
	if (r)
		return r;
	r = shim_obj_get(kind, h, &o);
	if (r)
		return r;
	id = o->id;
	r = shim_call(&c);
	if (r && c.waited)
		return r;
	if (kind == GL_H_ARRAY) {
		struct shim_array *a = (struct shim_array *)o;

		/* A level destroyed by itself is asked for again as a new handle. */
		if (a->parent)
			for (unsigned int l = 0; l < SHIM_MIPMAP_LEVELS; l++)
				if (a->parent->level[l] == a)
					a->parent->level[l] = NULL;
	}
	shim_obj_put(o);
	return r;
}

CUresult shim_cuArrayDestroy(CUarray h)
{
	return destroy(GL_FN_cuArrayDestroy, GL_H_ARRAY, h);
}

CUresult shim_cuMipmappedArrayDestroy(CUmipmappedArray h)
{
	return destroy(GL_FN_cuMipmappedArrayDestroy, GL_H_MIPMAP, h);
}

void shim_mipmap_put(struct shim_mipmap *m)
{
	for (unsigned int l = 0; l < SHIM_MIPMAP_LEVELS; l++) {
		if (m->level[l]) {
			m->level[l]->parent = NULL;
			shim_obj_put(&m->level[l]->o);
			m->level[l] = NULL;
		}
	}
}

/* The array h for a call that writes its descriptor to d. */
static CUresult described(CUarray h, const void *d, struct shim_array **a)
{
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_array_get(h, a);
	if (r)
		return r;
	return d ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult shim_cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray h)
{
	struct shim_array *a;
	CUresult r = described(h, d, &a);

	if (!r)
		*d = a->d;
	return r;
}

CUresult shim_cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *d, CUarray h)
{
	struct shim_array *a;
	CUresult r = described(h, d, &a);

	if (r)
		return r;
	d->Width = a->d.Width;
	d->Height = a->d.Height;
	d->Format = a->d.Format;
	d->NumChannels = a->d.NumChannels;
	return CUDA_SUCCESS;
}

/*
 * Only arrays made for deferred mapping have memory requirements, and
 * Gleam makes none (the virtual memory functions would map them): the
 * driver's answer for every other array is CUDA_ERROR_INVALID_VALUE.
 */
CUresult shim_cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *req, CUarray h,
					   CUdevice dev)
{
	struct shim_array *a;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_array_get(h, &a);
	if (!r)
		r = shim_dev_check(dev);
	return r ? r : CUDA_ERROR_INVALID_VALUE;
}

/*
 * A level is an array of the mipmapped array's, the same handle every
 * time it is asked for: minted at the first question, its record sent
 * without a wait, its descriptor computed here.
 */
CUresult shim_cuMipmappedArrayGetLevel(CUarray *out, CUmipmappedArray h, unsigned int level)
{
	struct gl_a_cuMipmappedArrayGetLevel a = { 0 };
	struct shim_mipmap *m;
	struct shim_array *l;
	struct shim_call c;
	CUresult r;

	r = shim_begin_io(&c, GL_FN_cuMipmappedArrayGetLevel, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	r = shim_obj_get(GL_H_MIPMAP, h, (struct shim_obj **)&m);
	if (r)
		return r;
	if (!out || level >= m->levels)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&shim.lock);
	l = m->level[level];
	pthread_mutex_unlock(&shim.lock);
	if (l) {
		*out = (CUarray)l;
		return CUDA_SUCCESS;
	}
	l = (struct shim_array *)shim_obj_new(GL_H_ARRAY);
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a.pLevelArray = l->o.id;
	a.hMipmappedArray = m->o.id;
	a.level = level;
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(&l->o);
		return r;
	}
	gl_mipmap_level(&m->d, level, &l->d);
	l->elem = m->elem;
	l->parent = m;
	shim_obj_created(&l->o);
	pthread_mutex_lock(&shim.lock);
	if (m->level[level]) {
		/* Another thread asked at the same time: its handle is the one. */
		struct shim_array *first = m->level[level];

		pthread_mutex_unlock(&shim.lock);
		l->parent = NULL;
		destroy(GL_FN_cuArrayDestroy, GL_H_ARRAY, l);
		*out = (CUarray)first;
		return CUDA_SUCCESS;
	}
	m->level[level] = l;
	pthread_mutex_unlock(&shim.lock);
	*out = (CUarray)l;
	return r;
}

/* ---- copies ---- */

/* One end of a copy as the program described it. */

struct copy {
	unsigned int api;	/* GLEAM_COPY_* */
	size_t width, height, depth;
	struct gl_copy_side src, dst;
};

static void end_of(struct gl_copy_side *e, size_t x, size_t y, size_t z, CUmemorytype type,
		   const void *host, CUdeviceptr dptr, CUarray array, size_t pitch, size_t height)
{
	*e = (struct gl_copy_side){ type, x, y, z, host, dptr, array, pitch, height, NULL };
}

/*
 * One end checked as the driver checks it, and put as the record carries
 * it: host memory non-NULL, rows that fit their pitch and slices their
 * rows, device memory inside one allocation, an array box inside the
 * array in whole elements.  UNIFIED becomes HOST or DEVICE by the
 * allocations the shim knows.  *host_at: where the copy's first row
 * starts in host memory.
 */
static CUresult end_put(struct gl_copy_side *e, const struct copy *c, struct gleam_copy_end *w,
			char **host_at)
{
	const int32_t *attr = dev_attrs();
	uint64_t first, span;
	struct shim_array *a;
	CUresult r;

	memset(w, 0, sizeof(*w));
	if (e->type == CU_MEMORYTYPE_UNIFIED) {
		if (!shim_cuMemGetAddressRange(NULL, NULL, e->dptr)) {
			e->type = CU_MEMORYTYPE_DEVICE;
		} else {
			e->type = CU_MEMORYTYPE_HOST;
			e->host = (const void *)(uintptr_t)e->dptr;
		}
	}
	w->type = e->type;
	if (e->ctx) {
		r = shim_handle_id(GL_H_CTX, e->ctx, &w->ctx);
		if (r)
			return r;
	}
	switch (e->type) {
	case CU_MEMORYTYPE_ARRAY:
		r = shim_array_get(e->array, &a);
		if (r)
			return r;
		{
			struct gl_array_extent ex;

			gl_array_extent(&a->d, a->elem, &ex);
			/*
			 * cuMemcpyHtoA and cuMemcpyAtoH: bytes of a 1D array (the
			 * driver refuses one of more rows or layers).
			 */
			if (c->api == GLEAM_COPY_LINEAR ?
			    ex.rows > 1 || ex.slices > 1 || e->x > gl_array_bytes(&ex) ||
			    c->width > gl_array_bytes(&ex) - e->x :
			    !gl_array_box_ok(&ex, e->x, e->y, e->z, c->width, c->height, c->depth))
				return CUDA_ERROR_INVALID_VALUE;
		}
		w->ptr = a->o.id;
		w->x = e->x;
		w->y = e->y;
		w->z = e->z;
		return CUDA_SUCCESS;
	case CU_MEMORYTYPE_HOST:
	case CU_MEMORYTYPE_DEVICE:
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	/* The driver refuses pitches beyond the device's limit. */
	if (attr[CU_DEVICE_ATTRIBUTE_MAX_PITCH] > 0 &&
	    e->pitch > (uint64_t)attr[CU_DEVICE_ATTRIBUTE_MAX_PITCH])
		return CUDA_ERROR_INVALID_VALUE;
	if (!gl_copy_span(e->x, e->y, e->z, e->pitch, e->height, c->width, c->height, c->depth,
			  &first, &span))
		return CUDA_ERROR_INVALID_VALUE;
	if (e->type == CU_MEMORYTYPE_HOST) {
		if (!e->host)
			return CUDA_ERROR_INVALID_VALUE;
		*host_at = (char *)e->host + first;
		return CUDA_SUCCESS;
	}
	r = shim_check_range(e->dptr + first, span);
	if (r)
		return r;
	w->ptr = e->dptr;
	w->x = e->x;
	w->y = e->y;
	w->z = e->z;
	w->pitch = e->pitch;
	w->height = e->height;
	return CUDA_SUCCESS;
}

static unsigned int fn_of(unsigned int api, bool async)
{
	switch (api) {
	case GLEAM_COPY_LINEAR:
		return async ? GL_FN_cuMemcpyHtoAAsync : GL_FN_cuMemcpyHtoA;
	case GLEAM_COPY_2D:
		return async ? GL_FN_cuMemcpy2DAsync : GL_FN_cuMemcpy2D;
	case GLEAM_COPY_2D_UNALIGNED:
		return GL_FN_cuMemcpy2DUnaligned;
	case GLEAM_COPY_3D:
		return async ? GL_FN_cuMemcpy3DAsync : GL_FN_cuMemcpy3D;
	default:
		return async ? GL_FN_cuMemcpy3DPeerAsync : GL_FN_cuMemcpy3DPeer;
	}
}

/* The argument block of record fn: zero but for its stream. */
static size_t args_of(unsigned int fn, __u64 sid, __u64 *a)
{
	size_t len = gl_fn_args_size[fn];

	memset(a, 0, len);
	switch (fn) {
	case GL_FN_cuMemcpyHtoAAsync:
		a[offsetof(struct gl_a_cuMemcpyHtoAAsync, hStream) / 8] = sid;
		break;
	case GL_FN_cuMemcpyAtoHAsync:
		a[offsetof(struct gl_a_cuMemcpyAtoHAsync, hStream) / 8] = sid;
		break;
	case GL_FN_cuMemcpy2DAsync:
		a[offsetof(struct gl_a_cuMemcpy2DAsync, hStream) / 8] = sid;
		break;
	case GL_FN_cuMemcpy3DAsync:
		a[offsetof(struct gl_a_cuMemcpy3DAsync, hStream) / 8] = sid;
		break;
	case GL_FN_cuMemcpy3DPeerAsync:
		a[offsetof(struct gl_a_cuMemcpy3DPeerAsync, hStream) / 8] = sid;
		break;
	}
	return len;
}

/* Host to host: row by row, here. */
static void host_rows(const struct copy *c, const char *src, char *dst)
{
	for (size_t z = 0; z < c->depth; z++)
		for (size_t y = 0; y < c->height; y++)
			memmove(dst + (z * c->dst.height + y) * c->dst.pitch,
				src + (z * c->src.height + y) * c->src.pitch, c->width);
}

/*
 * From host memory, in pieces: each a copy of its own carrying its rows
 * without gaps, gathered into buf where the program's rows have gaps.
 */
static CUresult upload(struct shim_call *c, struct gleam_copy *g, const struct gl_copy_side *h,
		       const char *at, unsigned int fn, __u64 sid)
{
	uint64_t max = shim_piece_max() - sizeof(*g) - 256, off = 0, n;
	uint64_t slice = (uint64_t)h->pitch * h->height;
	__u64 args[8];
	struct gleam_copy p;
	struct iovec iov[2];
	char *buf = NULL;
	CUresult r = CUDA_SUCCESS;
	bool sync = gl_fn_traits(fn) & GL_T_LEGACY;

	/* After the host functions before it on its stream, as htod() (memory.c). */
	if (sync || shim_host_pinned(at))
		shim_host_wait_stream(sync ? 0 : sid, gl_fn_name(fn));
	c->args = args;
	c->args_len = args_of(fn, sid, args);
	while (!r && (n = gl_copy_piece(g, off, max, &p))) {
		uint64_t row = off / g->width, col = off % g->width;
		const char *from = at + (row / g->height) * slice + (row % g->height) * h->pitch + col;

		iov[0].iov_base = &p;
		iov[0].iov_len = sizeof(p);
		if ((p.height == 1 && p.depth == 1) ||
		    (h->pitch == p.width && (p.depth == 1 || h->height == p.height))) {
			iov[1].iov_base = (void *)from;
		} else {
			if (!buf && !(buf = malloc(max)))
				return CUDA_ERROR_OUT_OF_MEMORY;
			for (uint64_t z = 0; z < p.depth; z++)
				for (uint64_t y = 0; y < p.height; y++)
					memcpy(buf + (z * p.height + y) * p.width,
					       from + z * slice + y * h->pitch, p.width);
			iov[1].iov_base = buf;
		}
		iov[1].iov_len = n;
		c->iov = iov;
		c->niov = 2;
		r = shim_call(c);
		off += n;
	}
	free(buf);
	return r;
}

/*
 * To host memory: one record of cuMemcpyAtoH, or cuMemcpyAtoHAsync on a
 * stream, which waits: the data pieces land in the program's rows as
 * they come.  Like cuMemcpyDtoH, its answer covers its stream.
 */
static CUresult download(struct shim_call *c, const struct gleam_copy *g,
			 const struct gl_copy_side *h, char *at, bool async, __u64 sid, int per_thread)
{
	unsigned int fn = async ? GL_FN_cuMemcpyAtoHAsync : GL_FN_cuMemcpyAtoH;
	struct shim_rows rows = { at, g->width, g->height, h->pitch,
				  (uint64_t)h->pitch * h->height, g->width * g->height * g->depth };
	__u64 args[8];
	struct iovec iov = { (void *)g, sizeof(*g) };

	c->fn = fn;
	c->args = args;
	c->args_len = args_of(fn, sid, args);
	c->iov = &iov;
	c->niov = 1;
	c->rows = &rows;
	c->force_sync = true;
	c->host_pinned = async && shim_host_pinned(at);
	c->covers = 1 + (async ? sid : per_thread ? (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD : 0);
	return shim_call(c);
}

/* Whether a copy's end lies on another server than the record's context. */
static bool end_apart(const struct shim_call *c, const struct gl_copy_side *e)
{
	struct shim_obj *o;
	uint64_t ectx = 0;
	int adev = -1;

	if (shim_span_nroutes() < 2)
		return false;
	if (e->type == CU_MEMORYTYPE_ARRAY && e->array &&
	    !shim_obj_get(GL_H_ARRAY, e->array, &o))
		adev = o->dev;
	if (e->ctx && !shim_obj_get(GL_H_CTX, e->ctx, &o))
		ectx = o->id;
	return shim_span_end_apart(c->ctx, e->type, e->dptr, adev, ectx);
}

/*
 * A copy the program asked for, on stream (async) or the legacy stream:
 * checked, then done here (host to host), or sent.
 */
static CUresult copy_run(struct copy *cp, bool async, CUstream stream, int per_thread)
{
	unsigned int fn = fn_of(cp->api, async);
	struct gleam_copy g = { .api = cp->api, .width = cp->width, .height = cp->height,
				.depth = cp->depth };
	char *src_at = NULL, *dst_at = NULL;
	struct shim_call c;
	__u64 sid = 0;
	CUresult r;

	r = shim_begin(&c, fn);
	if (r)
		return r;
	if (async) {
		r = shim_stream_id(stream, per_thread, &sid);
		if (r)
			return r;
	}
	r = end_put(&cp->src, cp, &g.src, &src_at);
	if (!r)
		r = end_put(&cp->dst, cp, &g.dst, &dst_at);
	if (r || !cp->width || !cp->height || !cp->depth)
		goto out;
	if (end_apart(&c, &cp->src) || end_apart(&c, &cp->dst)) {
		r = SHIM_REFUSE("2D and 3D copies with an end on another server than the "
				"context's (a session over several servers) are not carried: "
				"returning CUDA_ERROR_NOT_SUPPORTED");
		goto out;
	}
	if (cp->src.type == CU_MEMORYTYPE_HOST && cp->dst.type == CU_MEMORYTYPE_HOST) {
		if (async) {
			r = shim_capture_host_rows(fn, c.ctx);
			shim_call_stream = 0;
			if (!r)
				r = per_thread ? cuStreamSynchronize_ptsz(stream) :
						 cuStreamSynchronize(stream);
		}
		if (!r)
			host_rows(cp, src_at, dst_at);
		return r;
	}
	if (async && (src_at || dst_at)) {
		r = shim_capture_host_rows(fn, c.ctx);
		if (r)
			goto out;
	}
	if (src_at)
		return upload(&c, &g, &cp->src, src_at, fn, sid);
	if (dst_at)
		return download(&c, &g, &cp->dst, dst_at, async, sid, per_thread);
	{
		__u64 args[8];
		struct iovec iov = { &g, sizeof(g) };

		c.args = args;
		c.args_len = args_of(fn, sid, args);
		return shim_call_iov(&c, &iov);
	}
out:
	shim_call_stream = 0;
	return r;
}

static CUresult from_2d(const CUDA_MEMCPY2D *p, unsigned int api, struct copy *cp)
{
	if (!p)
		return shim.initialised ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
	cp->api = api;
	cp->width = p->WidthInBytes;
	cp->height = p->Height;
	cp->depth = 1;
	end_of(&cp->src, p->srcXInBytes, p->srcY, 0, p->srcMemoryType, p->srcHost, p->srcDevice,
	       p->srcArray, p->srcPitch, p->Height + p->srcY);
	end_of(&cp->dst, p->dstXInBytes, p->dstY, 0, p->dstMemoryType, p->dstHost, p->dstDevice,
	       p->dstArray, p->dstPitch, p->Height + p->dstY);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemcpy2D(const CUDA_MEMCPY2D *p, int per_thread)
{
	struct copy cp;
	CUresult r = from_2d(p, GLEAM_COPY_2D, &cp);

	return r ? r : copy_run(&cp, false, NULL, per_thread);
}

CUresult shim_cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *p, int per_thread)
{
	struct copy cp;
	CUresult r = from_2d(p, GLEAM_COPY_2D_UNALIGNED, &cp);

	return r ? r : copy_run(&cp, false, NULL, per_thread);
}

CUresult shim_cuMemcpy2DAsync(const CUDA_MEMCPY2D *p, CUstream s, int per_thread)
{
	struct copy cp;
	CUresult r = from_2d(p, GLEAM_COPY_2D, &cp);

	return r ? r : copy_run(&cp, true, s, per_thread);
}

/* CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER share their first fields' meaning. */
#define FROM_3D(p, cp) \
	do { \
		(cp)->width = (p)->WidthInBytes; \
		(cp)->height = (p)->Height; \
		(cp)->depth = (p)->Depth; \
		end_of(&(cp)->src, (p)->srcXInBytes, (p)->srcY, (p)->srcZ, (p)->srcMemoryType, \
		       (p)->srcHost, (p)->srcDevice, (p)->srcArray, (p)->srcPitch, \
		       (p)->srcHeight); \
		end_of(&(cp)->dst, (p)->dstXInBytes, (p)->dstY, (p)->dstZ, (p)->dstMemoryType, \
		       (p)->dstHost, (p)->dstDevice, (p)->dstArray, (p)->dstPitch, \
		       (p)->dstHeight); \
	} while (0)

static CUresult from_3d(const CUDA_MEMCPY3D *p, struct copy *cp)
{
	if (!p)
		return shim.initialised ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
	/* The driver's rule: no level of detail, nothing reserved. */
	if (p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1)
		return CUDA_ERROR_INVALID_VALUE;
	cp->api = GLEAM_COPY_3D;
	FROM_3D(p, cp);
	return CUDA_SUCCESS;
}

CUresult shim_copy3d_check(const CUDA_MEMCPY3D *p, struct gleam_copy *g, char **src_host,
			   char **dst_host)
{
	struct copy cp;
	CUresult r;

	*src_host = *dst_host = NULL;
	r = from_3d(p, &cp);
	if (r)
		return r;
	memset(g, 0, sizeof(*g));
	g->api = cp.api;
	g->width = cp.width;
	g->height = cp.height;
	g->depth = cp.depth;
	r = end_put(&cp.src, &cp, &g->src, src_host);
	return r ? r : end_put(&cp.dst, &cp, &g->dst, dst_host);
}

static CUresult from_peer(const CUDA_MEMCPY3D_PEER *p, struct copy *cp)
{
	if (!p)
		return shim.initialised ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
	if (p->srcLOD || p->dstLOD)
		return CUDA_ERROR_INVALID_VALUE;
	cp->api = GLEAM_COPY_3D_PEER;
	FROM_3D(p, cp);
	cp->src.ctx = p->srcContext;
	cp->dst.ctx = p->dstContext;
	/* Each end's context is named: an absent one is the driver's error. */
	if (!p->srcContext || !p->dstContext)
		return CUDA_ERROR_INVALID_CONTEXT;
	return CUDA_SUCCESS;
}

/* cuMemcpy3D and cuMemcpy3DPeer (p a CUDA_MEMCPY3D_PEER), and their Async forms. */
static CUresult copy_3d(const void *p, bool peer, bool async, CUstream s, int per_thread)
{
	struct copy cp;
	CUresult r = peer ? from_peer(p, &cp) : from_3d(p, &cp);

	return r ? r : copy_run(&cp, async, s, per_thread);
}

CUresult shim_cuMemcpy3D(const CUDA_MEMCPY3D *p, int per_thread)
{
	return copy_3d(p, false, false, NULL, per_thread);
}

CUresult shim_cuMemcpy3DAsync(const CUDA_MEMCPY3D *p, CUstream s, int per_thread)
{
	return copy_3d(p, false, true, s, per_thread);
}

CUresult shim_cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *p, int per_thread)
{
	return copy_3d(p, true, false, NULL, per_thread);
}

CUresult shim_cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *p, CUstream s, int per_thread)
{
	return copy_3d(p, true, true, s, per_thread);
}

/*
 * cuMemcpyHtoA and cuMemcpyAtoH: bytes at an offset of the array's rows
 * laid end to end, a copy of one row as long as the bytes, the offset its
 * x at the array's end.
 */
static CUresult linear(CUarray arr, size_t off, void *host, size_t n, bool to_host, bool async,
		       CUstream s, int per_thread)
{
	struct copy cp = { .api = GLEAM_COPY_LINEAR, .width = n, .height = 1, .depth = 1 };
	struct gl_copy_side *a = to_host ? &cp.src : &cp.dst, *h = to_host ? &cp.dst : &cp.src;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	end_of(h, 0, 0, 0, CU_MEMORYTYPE_HOST, host, 0, NULL, n, 1);
	end_of(a, off, 0, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, arr, 0, 0);
	return copy_run(&cp, async, s, per_thread);
}

CUresult shim_cuMemcpyHtoA(CUarray dst, size_t off, const void *src, size_t n, int per_thread)
{
	return linear(dst, off, (void *)src, n, false, false, NULL, per_thread);
}

CUresult shim_cuMemcpyHtoAAsync(CUarray dst, size_t off, const void *src, size_t n, CUstream s,
				int per_thread)
{
	return linear(dst, off, (void *)src, n, false, true, s, per_thread);
}

CUresult shim_cuMemcpyAtoH(void *dst, CUarray src, size_t off, size_t n, int per_thread)
{
	return linear(src, off, dst, n, true, false, NULL, per_thread);
}

CUresult shim_cuMemcpyAtoHAsync(void *dst, CUarray src, size_t off, size_t n, CUstream s,
				int per_thread)
{
	return linear(src, off, dst, n, true, true, s, per_thread);
}
