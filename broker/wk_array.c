// SPDX-License-Identifier: MIT
/*
 * Replay of arrays, 2D and 3D copies and texture and surface objects
 * (uapi/gleam_record.h; Documentation/design.md, "Arrays, 2D and 3D
 * copies, texture and surface objects").  Everything a record says is
 * checked before the backend sees it: descriptors' reserved fields,
 * memory types, the copy's extent against its data, handles against the
 * worker's map.  The backend (the driver, or the sim's own checks) then
 * checks the device memory and arrays themselves.
 */
#include <stdlib.h>
#include <string.h>

#include "cuarray.h"
#include "util.h"
#include "worker.h"

/* ---- arrays ---- */

static CUresult desc_of(struct wk_call *k, size_t alen, bool levels, CUDA_ARRAY3D_DESCRIPTOR *d,
			unsigned int *nlevels)
{
	const struct gleam_array_desc *w;

	if (!wk_args(k, alen))
		return CUDA_ERROR_INVALID_VALUE;
	w = wk_data(k, sizeof(*w));
	if (!w || (!levels && w->levels) || (levels && (!w->levels || w->levels > 64)))
		return CUDA_ERROR_INVALID_VALUE;
	memset(d, 0, sizeof(*d));
	d->Width = (size_t)w->width;
	d->Height = (size_t)w->height;
	d->Depth = (size_t)w->depth;
	d->Format = (CUarray_format)w->format;
	d->NumChannels = w->channels;
	d->Flags = w->flags;
	if (nlevels)
		*nlevels = w->levels;
	return CUDA_SUCCESS;
}

static CUresult array_create(struct wk_call *k, bool three)
{
	const struct gl_a_cuArray3DCreate *a = wk_args(k, sizeof(*a));
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUarray arr = NULL;
	CUresult r;

	_Static_assert(sizeof(struct gl_a_cuArrayCreate) == sizeof(*a), "one id");
	if (!a || wk_handle_taken(k->w, a->pHandle))
		return CUDA_ERROR_INVALID_VALUE;
	r = desc_of(k, sizeof(*a), false, &d, NULL);
	if (r)
		return r;
	if (three) {
		r = k->w->be->op.f_cuArray3DCreate(&arr, &d);
	} else {
		CUDA_ARRAY_DESCRIPTOR d2 = { .Width = d.Width, .Height = d.Height,
					     .Format = d.Format, .NumChannels = d.NumChannels };

		if (d.Depth || d.Flags)
			return CUDA_ERROR_INVALID_VALUE;
		r = k->w->be->op.f_cuArrayCreate(&arr, &d2);
	}
	wk_handle_new(k->w, GL_H_ARRAY, a->pHandle, arr, r);
	return r;
}

CUresult wk_cuArrayCreate(struct wk_call *k)
{
	return array_create(k, false);
}

CUresult wk_cuArray3DCreate(struct wk_call *k)
{
	return array_create(k, true);
}

CUresult wk_cuMipmappedArrayCreate(struct wk_call *k)
{
	const struct gl_a_cuMipmappedArrayCreate *a = wk_args(k, sizeof(*a));
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUmipmappedArray m = NULL;
	unsigned int levels;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->pHandle))
		return CUDA_ERROR_INVALID_VALUE;
	r = desc_of(k, sizeof(*a), true, &d, &levels);
	if (r)
		return r;
	if (levels != a->numMipmapLevels)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuMipmappedArrayCreate(&m, &d, levels);
	wk_handle_new(k->w, GL_H_MIPMAP, a->pHandle, m, r);
	return r;
}

/*
 * The levels handed out, by their mipmapped array: they are the driver's
 * to free with it, and their ids must go from the map with it too, or a
 * later record could name a freed array.
 */
struct wk_levels {
	size_t n, cap;
	struct { uint64_t mipmap, level; } e[];
};

static int levels_add(struct worker *w, uint64_t mipmap, uint64_t level)
{
	struct wk_levels *l = w->levels;

	if (!l || l->n == l->cap) {
		size_t cap = l ? 2 * l->cap : 16;
		struct wk_levels *n = realloc(l, sizeof(*n) + cap * sizeof(n->e[0]));

		if (!n)
			return -1;
		if (!l)
			n->n = 0;
		n->cap = cap;
		w->levels = l = n;
	}
	l->e[l->n].mipmap = mipmap;
	l->e[l->n].level = level;
	l->n++;
	return 0;
}

CUresult wk_cuMipmappedArrayGetLevel(struct wk_call *k)
{
	const struct gl_a_cuMipmappedArrayGetLevel *a = wk_args(k, sizeof(*a));
	CUmipmappedArray m;
	CUarray l = NULL;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->pLevelArray))
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_MIPMAP, a->hMipmappedArray, (void **)&m);
	if (!r)
		r = k->w->be->op.f_cuMipmappedArrayGetLevel(&l, m, (unsigned int)a->level);
	if (!r && levels_add(k->w, a->hMipmappedArray, a->pLevelArray))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	wk_handle_new(k->w, GL_H_ARRAY, a->pLevelArray, l, r);
	return r;
}

CUresult wk_cuMipmappedArrayDestroy(struct wk_call *k)
{
	const struct gl_a_cuMipmappedArrayDestroy *a = wk_args(k, sizeof(*a));
	struct wk_levels *l = k->w->levels;
	CUmipmappedArray m;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_MIPMAP, a->hMipmappedArray, (void **)&m);
	if (!r)
		r = k->w->be->op.f_cuMipmappedArrayDestroy(m);
	if (r)
		return r;
	wk_handle_del(k->w, GL_H_MIPMAP, a->hMipmappedArray);
	for (size_t i = 0; l && i < l->n;) {
		if (l->e[i].mipmap == a->hMipmappedArray) {
			wk_handle_del(k->w, GL_H_ARRAY, l->e[i].level);
			l->e[i] = l->e[--l->n];
		} else {
			i++;
		}
	}
	return CUDA_SUCCESS;
}

/* ---- copies ---- */

/* Where the stream's id sits in a copy record's argument block, or -1. */
static int stream_word(unsigned int fn)
{
	switch (fn) {
	case GL_FN_cuMemcpyHtoAAsync:
		return offsetof(struct gl_a_cuMemcpyHtoAAsync, hStream) / 8;
	case GL_FN_cuMemcpyAtoHAsync:
		return offsetof(struct gl_a_cuMemcpyAtoHAsync, hStream) / 8;
	case GL_FN_cuMemcpy2DAsync:
		return offsetof(struct gl_a_cuMemcpy2DAsync, hStream) / 8;
	case GL_FN_cuMemcpy3DAsync:
		return offsetof(struct gl_a_cuMemcpy3DAsync, hStream) / 8;
	case GL_FN_cuMemcpy3DPeerAsync:
		return offsetof(struct gl_a_cuMemcpy3DPeerAsync, hStream) / 8;
	default:
		return -1;
	}
}

/* The copy a record of fn describes; its argument block is zero but for its stream. */
static CUresult copy_of(struct wk_call *k, struct gleam_copy *g, CUstream *s)
{
	size_t alen = gl_fn_args_size[k->hdr.fn];
	const uint64_t *a = wk_args(k, alen);
	const struct gleam_copy *w;
	int sw = stream_word(k->hdr.fn);
	CUresult r = CUDA_SUCCESS;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < alen / 8; i++)
		if (a[i] && (int)i != sw)
			return CUDA_ERROR_INVALID_VALUE;
	*s = NULL;
	if (sw >= 0)
		r = wk_stream(k->w, a[sw], s);
	if (r)
		return r;
	w = wk_data(k, sizeof(*w));
	if (!w)
		return CUDA_ERROR_INVALID_VALUE;
	*g = *w;
	if (g->reserved || g->src.reserved || g->dst.reserved || g->api < GLEAM_COPY_LINEAR ||
	    g->api > GLEAM_COPY_3D_PEER)
		return CUDA_ERROR_INVALID_VALUE;
	/* A 2D copy has one slice; a linear one a row. */
	if (g->api != GLEAM_COPY_3D && g->api != GLEAM_COPY_3D_PEER &&
	    (g->depth > 1 || g->src.z || g->dst.z))
		return CUDA_ERROR_INVALID_VALUE;
	if (g->api == GLEAM_COPY_LINEAR && g->height > 1)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* The api a record of fn replays, from the host or on the device. */
static bool api_fits(unsigned int fn, unsigned int api)
{
	static const struct {
		unsigned int fn, api;
	} fits[] = {
		{ GL_FN_cuMemcpyHtoA, GLEAM_COPY_LINEAR },
		{ GL_FN_cuMemcpyHtoAAsync, GLEAM_COPY_LINEAR },
		{ GL_FN_cuMemcpy2D, GLEAM_COPY_2D },
		{ GL_FN_cuMemcpy2DAsync, GLEAM_COPY_2D },
		{ GL_FN_cuMemcpy2DUnaligned, GLEAM_COPY_2D_UNALIGNED },
		{ GL_FN_cuMemcpy3D, GLEAM_COPY_3D },
		{ GL_FN_cuMemcpy3DAsync, GLEAM_COPY_3D },
		{ GL_FN_cuMemcpy3DPeer, GLEAM_COPY_3D_PEER },
		{ GL_FN_cuMemcpy3DPeerAsync, GLEAM_COPY_3D_PEER },
	};

	/* A copy to the host may be of any api but the unaligned 2D one when async. */
	if (fn == GL_FN_cuMemcpyAtoH)
		return true;
	if (fn == GL_FN_cuMemcpyAtoHAsync)
		return api != GLEAM_COPY_2D_UNALIGNED;
	for (size_t i = 0; i < ARRAY_SIZE(fits); i++)
		if (fits[i].fn == fn)
			return fits[i].api == api;
	return false;
}

/* One end, for the driver: host memory at host (pitch and rows its own), or mapped. */

static CUresult end_of(struct wk_call *k, unsigned int api, const struct gleam_copy_end *e,
		       struct gl_copy_side *x)
{
	CUresult r;

	memset(x, 0, sizeof(*x));
	x->type = (CUmemorytype)e->type;
	if (api == GLEAM_COPY_3D_PEER) {
		r = wk_handle(k->w, GL_H_CTX, e->ctx, (void **)&x->ctx);
		if (r)
			return r;
	} else if (e->ctx) {
		return CUDA_ERROR_INVALID_VALUE;
	}
	switch (e->type) {
	case CU_MEMORYTYPE_HOST:
		/* Its rows are the record's, or the worker's stage: nothing of its own. */
		return e->x || e->y || e->z || e->ptr || e->pitch || e->height ?
		       CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	case CU_MEMORYTYPE_DEVICE:
		x->dptr = (CUdeviceptr)e->ptr;
		x->pitch = (size_t)e->pitch;
		x->height = (size_t)e->height;
		break;
	case CU_MEMORYTYPE_ARRAY:
		if (e->pitch || e->height)
			return CUDA_ERROR_INVALID_VALUE;
		r = wk_handle(k->w, GL_H_ARRAY, e->ptr, (void **)&x->array);
		if (r)
			return r;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	x->x = (size_t)e->x;
	x->y = (size_t)e->y;
	x->z = (size_t)e->z;
	return CUDA_SUCCESS;
}

/*
 * One copy (or piece) to the backend, by the driver function the program
 * called: host memory at host, its rows gapless.
 */
static CUresult replay(struct wk_call *k, const struct gleam_copy *g,
		       const struct gl_copy_side *src, const struct gl_copy_side *dst, void *host,
		       CUstream s, bool async)
{
	const struct gl_backend_ops *op = &k->w->be->op;
	CUDA_MEMCPY3D_PEER p;

	memset(&p, 0, sizeof(p));
	if (g->api == GLEAM_COPY_LINEAR) {
		if (src->type == CU_MEMORYTYPE_HOST && dst->type == CU_MEMORYTYPE_ARRAY)
			return async ? op->f_cuMemcpyHtoAAsync(dst->array, dst->x, host, g->width, s) :
				       op->f_cuMemcpyHtoA(dst->array, dst->x, host, g->width);
		if (src->type == CU_MEMORYTYPE_ARRAY && dst->type == CU_MEMORYTYPE_HOST)
			return async ? op->f_cuMemcpyAtoHAsync(host, src->array, src->x, g->width, s) :
				       op->f_cuMemcpyAtoH(host, src->array, src->x, g->width);
		return CUDA_ERROR_INVALID_VALUE;
	}
#define END(pre, e) \
	do { \
		p.pre##XInBytes = (e)->x; \
		p.pre##Y = (e)->y; \
		p.pre##Z = (e)->z; \
		p.pre##MemoryType = (e)->type; \
		p.pre##Device = (e)->dptr; \
		p.pre##Array = (e)->array; \
		p.pre##Pitch = (e)->pitch; \
		p.pre##Height = (e)->height; \
		p.pre##Context = (e)->ctx; \
		if ((e)->type == CU_MEMORYTYPE_HOST) { \
			p.pre##Pitch = (size_t)g->width; \
			p.pre##Height = (size_t)g->height; \
		} \
	} while (0)
	END(src, src);
	END(dst, dst);
#undef END
	p.srcHost = host;
	p.dstHost = host;
	p.WidthInBytes = (size_t)g->width;
	p.Height = (size_t)g->height;
	p.Depth = (size_t)g->depth;
	if (g->api == GLEAM_COPY_3D_PEER)
		return async ? op->f_cuMemcpy3DPeerAsync(&p, s) : op->f_cuMemcpy3DPeer(&p);
	/* A side's fields that the 2D and 3D forms share with the peer form. */
#define SIDE(pre) \
	do { \
		c.pre##XInBytes = p.pre##XInBytes; \
		c.pre##Y = p.pre##Y; \
		c.pre##MemoryType = p.pre##MemoryType; \
		c.pre##Host = p.pre##Host; \
		c.pre##Device = p.pre##Device; \
		c.pre##Array = p.pre##Array; \
		c.pre##Pitch = p.pre##Pitch; \
	} while (0)
	/* The 2D or 3D form c: what it shares with the peer form, the rest zero. */
#define FROM_PEER(c) \
	do { \
		memset(&(c), 0, sizeof(c)); \
		SIDE(src); \
		SIDE(dst); \
		(c).WidthInBytes = p.WidthInBytes; \
		(c).Height = p.Height; \
	} while (0)
	if (g->api == GLEAM_COPY_3D) {
		CUDA_MEMCPY3D c;

		FROM_PEER(c);
		c.srcZ = p.srcZ;
		c.srcHeight = p.srcHeight;
		c.dstZ = p.dstZ;
		c.dstHeight = p.dstHeight;
		c.Depth = p.Depth;
		return async ? op->f_cuMemcpy3DAsync(&c, s) : op->f_cuMemcpy3D(&c);
	} else {
		CUDA_MEMCPY2D c;

		FROM_PEER(c);
		if (g->api == GLEAM_COPY_2D_UNALIGNED)
			return op->f_cuMemcpy2DUnaligned(&c);
		return async ? op->f_cuMemcpy2DAsync(&c, s) : op->f_cuMemcpy2D(&c);
	}
#undef FROM_PEER
#undef SIDE
}

/* Bytes of host memory the copy moves: its rows end to end, bounded by limit. */
static bool copy_bytes(const struct gleam_copy *g, uint64_t limit, uint64_t *n)
{
	return !__builtin_mul_overflow(g->width, g->height, n) &&
	       !__builtin_mul_overflow(*n, g->depth, n) && *n <= limit;
}

/*
 * A copy from host memory (the record's rows), or on the device: its
 * records are the functions the program called, a piece at a time.
 */
static CUresult copy_in(struct wk_call *k)
{
	bool async = stream_word(k->hdr.fn) >= 0;
	struct gleam_copy g;
	struct gl_copy_side src, dst;
	const void *data = NULL;
	CUstream s;
	uint64_t n;
	CUresult r = copy_of(k, &g, &s);

	if (r)
		return r;
	if (!api_fits(k->hdr.fn, g.api) || g.dst.type == CU_MEMORYTYPE_HOST)
		return CUDA_ERROR_INVALID_VALUE;
	r = end_of(k, g.api, &g.src, &src);
	if (!r)
		r = end_of(k, g.api, &g.dst, &dst);
	if (r)
		return r;
	if (src.type == CU_MEMORYTYPE_HOST) {
		if (!copy_bytes(&g, GLEAM_REC_MAX, &n))
			return CUDA_ERROR_INVALID_VALUE;
		data = wk_data(k, n);
		if (!data && n)
			return CUDA_ERROR_INVALID_VALUE;
		if (async && (r = wk_not_capturing(k, s)))
			return r;
	}
	return replay(k, &g, &src, &dst, (void *)data, s, async);
}

/* The worker's entries for the copies above, whatever their form. */
#define WK_COPY(name, how)			\
	CUresult wk_##name(struct wk_call *k)	\
	{					\
		return how(k);			\
	}

WK_COPY(cuMemcpyHtoA, copy_in)
WK_COPY(cuMemcpyHtoAAsync, copy_in)
WK_COPY(cuMemcpy2D, copy_in)
WK_COPY(cuMemcpy2DUnaligned, copy_in)
WK_COPY(cuMemcpy2DAsync, copy_in)
WK_COPY(cuMemcpy3D, copy_in)
WK_COPY(cuMemcpy3DAsync, copy_in)
WK_COPY(cuMemcpy3DPeer, copy_in)
WK_COPY(cuMemcpy3DPeerAsync, copy_in)

/*
 * Every copy to host memory: in pieces, each a copy of the program's kind
 * into a stage here, sent at its offset among the rows laid end to end.
 */
static CUresult copy_out(struct wk_call *k)
{
	bool async = k->hdr.fn == GL_FN_cuMemcpyAtoHAsync;
	struct gleam_copy g, p;
	struct gl_copy_side src, dst, psrc, pdst;
	unsigned char *buf;
	uint64_t off = 0, n, total;
	CUstream s;
	CUresult r = copy_of(k, &g, &s);

	if (r)
		return r;
	if (!api_fits(k->hdr.fn, g.api) || g.dst.type != CU_MEMORYTYPE_HOST ||
	    g.src.type == CU_MEMORYTYPE_HOST || !copy_bytes(&g, UINT64_MAX, &total))
		return CUDA_ERROR_INVALID_VALUE;
	r = end_of(k, g.api, &g.src, &src);
	if (!r)
		r = end_of(k, g.api, &g.dst, &dst);
	if (!r && async)
		r = wk_not_capturing(k, s);
	if (r)
		return r;
	buf = malloc(GLEAM_COPY_PIECE);
	if (!buf)
		return CUDA_ERROR_OUT_OF_MEMORY;
	while (!r && (n = gl_copy_piece(&g, off, GLEAM_COPY_PIECE, &p))) {
		r = end_of(k, p.api, &p.src, &psrc);
		if (!r)
			r = end_of(k, p.api, &p.dst, &pdst);
		if (!r)
			r = replay(k, &p, &psrc, &pdst, buf, s, async);
		if (!r && async)
			r = k->w->be->op.f_cuStreamSynchronize(s);
		if (!r && wk_reply_piece(k, off, buf, n))
			r = CUDA_ERROR_DEVICE_UNAVAILABLE;
		off += n;
	}
	free(buf);
	return r;
}

WK_COPY(cuMemcpyAtoH, copy_out)
WK_COPY(cuMemcpyAtoHAsync, copy_out)

/* ---- texture and surface objects ---- */

static float ffrom(__u32 u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static CUresult res_of(struct wk_call *k, const struct gleam_res_desc *w, CUDA_RESOURCE_DESC *d)
{
	memset(d, 0, sizeof(*d));
	d->resType = (CUresourcetype)w->type;
	d->flags = w->flags;
	switch (w->type) {
	case CU_RESOURCE_TYPE_ARRAY:
		return wk_handle(k->w, GL_H_ARRAY, w->handle, (void **)&d->res.array.hArray);
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		return wk_handle(k->w, GL_H_MIPMAP, w->handle,
				 (void **)&d->res.mipmap.hMipmappedArray);
	case CU_RESOURCE_TYPE_LINEAR:
		d->res.linear.devPtr = (CUdeviceptr)w->dptr;
		d->res.linear.format = (CUarray_format)w->format;
		d->res.linear.numChannels = w->channels;
		d->res.linear.sizeInBytes = (size_t)w->size;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_PITCH2D:
		d->res.pitch2D.devPtr = (CUdeviceptr)w->dptr;
		d->res.pitch2D.format = (CUarray_format)w->format;
		d->res.pitch2D.numChannels = w->channels;
		d->res.pitch2D.width = (size_t)w->width;
		d->res.pitch2D.height = (size_t)w->height;
		d->res.pitch2D.pitchInBytes = (size_t)w->pitch;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* The reply of both creations: the object's value. */
static CUresult reply_value(struct wk_call *k, uint64_t v)
{
	uint64_t *o = wk_reply_struct(k, sizeof(*o));

	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*o = v;
	return CUDA_SUCCESS;
}

/* A texture or surface object's record: its descriptor of n bytes, or NULL. */
static const void *object_desc(struct wk_call *k, size_t args, size_t n)
{
	return wk_args(k, args) ? wk_data(k, n) : NULL;
}

CUresult wk_cuTexObjectCreate(struct wk_call *k)
{
	const struct gleam_tex_create *w;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUDA_RESOURCE_VIEW_DESC view;
	CUtexObject t = 0;
	CUresult r;

	w = object_desc(k, sizeof(struct gl_a_cuTexObjectCreate), sizeof(*w));
	if (!w || w->reserved || w->has_view > 1 || w->view.reserved)
		return CUDA_ERROR_INVALID_VALUE;
	r = res_of(k, &w->res, &res);
	if (r)
		return r;
	memset(&tex, 0, sizeof(tex));
	for (int i = 0; i < 3; i++)
		tex.addressMode[i] = (CUaddress_mode)w->tex.address_mode[i];
	tex.filterMode = (CUfilter_mode)w->tex.filter_mode;
	tex.flags = w->tex.flags;
	tex.maxAnisotropy = w->tex.max_anisotropy;
	tex.mipmapFilterMode = (CUfilter_mode)w->tex.mipmap_filter_mode;
	tex.mipmapLevelBias = ffrom(w->tex.mipmap_level_bias);
	tex.minMipmapLevelClamp = ffrom(w->tex.min_mipmap_level_clamp);
	tex.maxMipmapLevelClamp = ffrom(w->tex.max_mipmap_level_clamp);
	for (int i = 0; i < 4; i++)
		tex.borderColor[i] = ffrom(w->tex.border_color[i]);
	memset(&view, 0, sizeof(view));
	view.format = (CUresourceViewFormat)w->view.format;
	view.width = (size_t)w->view.width;
	view.height = (size_t)w->view.height;
	view.depth = (size_t)w->view.depth;
	view.firstMipmapLevel = w->view.first_level;
	view.lastMipmapLevel = w->view.last_level;
	view.firstLayer = w->view.first_layer;
	view.lastLayer = w->view.last_layer;
	r = k->w->be->op.f_cuTexObjectCreate(&t, &res, &tex, w->has_view ? &view : NULL);
	return r ? r : reply_value(k, t);
}

CUresult wk_cuSurfObjectCreate(struct wk_call *k)
{
	const struct gleam_res_desc *w;
	CUDA_RESOURCE_DESC res;
	CUsurfObject s = 0;
	CUresult r;

	w = object_desc(k, sizeof(struct gl_a_cuSurfObjectCreate), sizeof(*w));
	if (!w)
		return CUDA_ERROR_INVALID_VALUE;
	r = res_of(k, w, &res);
	if (!r)
		r = k->w->be->op.f_cuSurfObjectCreate(&s, &res);
	return r ? r : reply_value(k, s);
}
