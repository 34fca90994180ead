// SPDX-License-Identifier: MIT
/*
 * Texture and surface objects.  An object is a 64-bit value that kernels
 * take as a parameter (or find in memory), so the value the program holds
 * must be the one the server's driver made: a creation waits for it, one
 * round trip, and the shim never rewrites kernel parameters.  What the
 * program described is kept here by value, so that the descriptor
 * questions are answered without asking; a destruction goes without a
 * wait.
 */
#include <stdlib.h>

#include "shim.h"
#include "util.h"

struct texobj {
	uint64_t value;
	bool surf;
	bool has_view;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUDA_RESOURCE_VIEW_DESC view;
};

static struct {
	pthread_mutex_t lock;
	struct texobj *o;
	size_t n, cap;
} objs = { .lock = PTHREAD_MUTEX_INITIALIZER };

static __u32 fbits(float f)
{
	__u32 u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* A resource as the record carries it: arrays by their ids, memory checked. */
static CUresult res_put(const CUDA_RESOURCE_DESC *r, struct gleam_res_desc *w)
{
	struct shim_obj *o;
	CUresult e;

	memset(w, 0, sizeof(*w));
	w->type = r->resType;
	w->flags = r->flags;
	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		e = shim_obj_get(GL_H_ARRAY, r->res.array.hArray, &o);
		if (e)
			return e;
		w->handle = o->id;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		e = shim_obj_get(GL_H_MIPMAP, r->res.mipmap.hMipmappedArray, &o);
		if (e)
			return e;
		w->handle = o->id;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_LINEAR:
		w->dptr = r->res.linear.devPtr;
		w->format = r->res.linear.format;
		w->channels = r->res.linear.numChannels;
		w->size = r->res.linear.sizeInBytes;
		/* The memory must be the program's: the driver refuses what it did not allocate. */
		return shim_check_range(w->dptr, w->size ? w->size : 1);
	case CU_RESOURCE_TYPE_PITCH2D:
		w->dptr = r->res.pitch2D.devPtr;
		w->format = r->res.pitch2D.format;
		w->channels = r->res.pitch2D.numChannels;
		w->width = r->res.pitch2D.width;
		w->height = r->res.pitch2D.height;
		w->pitch = r->res.pitch2D.pitchInBytes;
		if (!w->height || w->height - 1 > UINT64_MAX / (w->pitch ? w->pitch : 1))
			return CUDA_ERROR_INVALID_VALUE;
		return shim_check_range(w->dptr, (w->height - 1) * w->pitch + 1);
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static void tex_put(const CUDA_TEXTURE_DESC *t, struct gleam_tex_desc *w)
{
	memset(w, 0, sizeof(*w));
	for (int i = 0; i < 3; i++)
		w->address_mode[i] = t->addressMode[i];
	w->filter_mode = t->filterMode;
	w->flags = t->flags;
	w->max_anisotropy = t->maxAnisotropy;
	w->mipmap_filter_mode = t->mipmapFilterMode;
	w->mipmap_level_bias = fbits(t->mipmapLevelBias);
	w->min_mipmap_level_clamp = fbits(t->minMipmapLevelClamp);
	w->max_mipmap_level_clamp = fbits(t->maxMipmapLevelClamp);
	for (int i = 0; i < 4; i++)
		w->border_color[i] = fbits(t->borderColor[i]);
}

static void view_put(const CUDA_RESOURCE_VIEW_DESC *v, struct gleam_view_desc *w)
{
	memset(w, 0, sizeof(*w));
	w->format = v->format;
	w->width = v->width;
	w->height = v->height;
	w->depth = v->depth;
	w->first_level = v->firstMipmapLevel;
	w->last_level = v->lastMipmapLevel;
	w->first_layer = v->firstLayer;
	w->last_layer = v->lastLayer;
}

static CUresult keep(const struct texobj *t)
{
	pthread_mutex_lock(&objs.lock);
	if (gl_grow((void **)&objs.o, objs.n, &objs.cap, sizeof(*objs.o), 16)) {
		pthread_mutex_unlock(&objs.lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	objs.o[objs.n++] = *t;
	pthread_mutex_unlock(&objs.lock);
	return CUDA_SUCCESS;
}

/* A copy of the object of that value and kind; false when there is none. */
static bool find(uint64_t value, bool surf, struct texobj *t, bool forget)
{
	bool found = false;

	pthread_mutex_lock(&objs.lock);
	for (size_t i = 0; i < objs.n; i++) {
		if (objs.o[i].value != value || objs.o[i].surf != surf)
			continue;
		*t = objs.o[i];
		if (forget)
			objs.o[i] = objs.o[--objs.n];
		found = true;
		break;
	}
	pthread_mutex_unlock(&objs.lock);
	return found;
}

/* The server's value for the object, which waits: kernels take it as it is. */
static CUresult create(unsigned int fn, const void *body, size_t len, struct texobj *t)
{
	struct gl_r_cuTexObjectCreate o = { 0 };
	__u64 unused = 0;
	struct shim_call c;
	struct iovec iov = { (void *)body, len };
	CUresult r;

	_Static_assert(sizeof(struct gl_r_cuSurfObjectCreate) == sizeof(o) &&
		       sizeof(struct gl_a_cuTexObjectCreate) == sizeof(unused) &&
		       sizeof(struct gl_a_cuSurfObjectCreate) == sizeof(unused), "one value");
	r = shim_begin_io(&c, fn, &unused, sizeof(unused), &o, sizeof(o));
	if (r)
		return r;
	r = shim_call_iov(&c, &iov);
	if (r)
		return r;
	t->value = (uint64_t)o.pTexObject;
	r = keep(t);
	return r;
}

CUresult shim_cuTexObjectCreate(CUtexObject *out, const CUDA_RESOURCE_DESC *res,
				const CUDA_TEXTURE_DESC *tex, const CUDA_RESOURCE_VIEW_DESC *view)
{
	struct gleam_tex_create w;
	struct texobj t = { 0 };
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!out || !res || !tex)
		return CUDA_ERROR_INVALID_VALUE;
	memset(&w, 0, sizeof(w));
	r = res_put(res, &w.res);
	if (r)
		return r;
	tex_put(tex, &w.tex);
	if (view) {
		w.has_view = 1;
		view_put(view, &w.view);
		t.view = *view;
		t.has_view = true;
	}
	t.res = *res;
	t.tex = *tex;
	r = create(GL_FN_cuTexObjectCreate, &w, sizeof(w), &t);
	if (!r)
		*out = (CUtexObject)t.value;
	return r;
}

CUresult shim_cuSurfObjectCreate(CUsurfObject *out, const CUDA_RESOURCE_DESC *res)
{
	struct gleam_res_desc w;
	struct texobj t = { .surf = true };
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!out || !res)
		return CUDA_ERROR_INVALID_VALUE;
	/* A surface is an array's (the driver's rule), with CUDA_ARRAY3D_SURFACE_LDST. */
	if (res->resType != CU_RESOURCE_TYPE_ARRAY)
		return CUDA_ERROR_INVALID_VALUE;
	r = res_put(res, &w);
	if (r)
		return r;
	t.res = *res;
	r = create(GL_FN_cuSurfObjectCreate, &w, sizeof(w), &t);
	if (!r)
		*out = (CUsurfObject)t.value;
	return r;
}

static CUresult destroy(unsigned int fn, uint64_t value, bool surf)
{
	__u64 a = value;
	struct shim_call c;
	struct texobj t;
	CUresult r;

	_Static_assert(sizeof(struct gl_a_cuTexObjectDestroy) == sizeof(a) &&
		       sizeof(struct gl_a_cuSurfObjectDestroy) == sizeof(a), "one value");
	r = shim_begin_io(&c, fn, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	/* A value this process was never given is the driver's error at the call. */
	if (!find(value, surf, &t, true))
		return CUDA_ERROR_INVALID_VALUE;
	return shim_call(&c);
}

CUresult shim_cuTexObjectDestroy(CUtexObject t)
{
	return destroy(GL_FN_cuTexObjectDestroy, t, false);
}

CUresult shim_cuSurfObjectDestroy(CUsurfObject s)
{
	return destroy(GL_FN_cuSurfObjectDestroy, s, true);
}

/*
 * The part of a texture or surface object's description at off in struct
 * texobj, size bytes, into out.  An object made without a view has none
 * to describe.
 */
static CUresult describe(uint64_t value, bool surf, void *out, size_t off, size_t size)
{
	struct texobj t;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!out || !find(value, surf, &t, false))
		return CUDA_ERROR_INVALID_VALUE;
	if (off == offsetof(struct texobj, view) && !t.has_view)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(out, (const char *)&t + off, size);
	return CUDA_SUCCESS;
}

/* The comparison, never evaluated, has the compiler check out's type against the part's. */
#define DESCRIBE(value, surf, out, part) \
	describe(value, surf, out, offsetof(struct texobj, part), \
		 sizeof(*(out)) + 0 * sizeof((out) == &((struct texobj *)0)->part))

CUresult shim_cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *d, CUtexObject v)
{
	return DESCRIBE(v, false, d, res);
}

CUresult shim_cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *d, CUtexObject v)
{
	return DESCRIBE(v, false, d, tex);
}

CUresult shim_cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *d, CUtexObject v)
{
	return DESCRIBE(v, false, d, view);
}

CUresult shim_cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *d, CUsurfObject v)
{
	return DESCRIBE(v, true, d, res);
}
