// SPDX-License-Identifier: MIT
/*
 * The sim backend's CUDA arrays, 2D and 3D copies and texture and surface
 * objects.  An array is host memory of the worker laid out as copies see
 * it: rows of width * element bytes, rows to a slice, slices (layers, a
 * cubemap's faces, depth), with the driver's checks of formats and
 * extents (common/cuarray.c).  Copies move rows for real.  Texture
 * objects read with point filtering in the address modes, as the test
 * kernels' C twins (sim_kernels.c) ask; surface objects read and write
 * elements by byte offset.  Objects are found by value in lists of their
 * own, never by dereferencing what a record or a kernel parameter says.
 * What the sim does not model (linear filtering, reads converted to
 * normalised floats, copies of arrays in a stream capture) is refused
 * with CUDA_ERROR_NOT_SUPPORTED and said once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuarray.h"
#include "sim.h"
#include "sim_array.h"
#include "sim_refuse.h"
#include "util.h"
#include "worker.h"

#define CTX_OK() do { CUresult _r = sim_ctx_ok(); if (_r) return _r; } while (0)

/* The H200's texture and surface limits, as its driver reports them. */
static const struct { int a, v; } array_attrs[] = {
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512 },
	{ CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE, 8192 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, 8192 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, 2046 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, 2046 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 65000 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, 2097120 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, 32768 },
};

static int32_t limits[GLEAM_DEV_ATTR_MAX];

void sim_array_attrs(int32_t *attr)
{
	for (size_t i = 0; i < ARRAY_SIZE(array_attrs); i++)
		attr[array_attrs[i].a] = array_attrs[i].v;
}

/* ---- arrays ---- */

struct sim_mipmap;

struct sim_array {
	struct sim_array *next;
	CUDA_ARRAY3D_DESCRIPTOR d;
	struct gl_array_extent e;
	struct sim_mipmap *owner;	/* a level's: freed with it, not by itself */
	unsigned char *mem;
};

struct sim_mipmap {
	struct sim_mipmap *next;
	CUDA_ARRAY3D_DESCRIPTOR d;
	unsigned int levels;
	struct sim_array *level[GL_MIPMAP_LEVELS_MAX];
};

static struct sim_array *arrays;
static struct sim_mipmap *mipmaps;

/* The live array h, or NULL: found in the list, whatever h points at. */
static struct sim_array *array_of(const void *h)
{
	for (struct sim_array *a = arrays; a; a = a->next)
		if (a == h)
			return a;
	return NULL;
}

static struct sim_mipmap *mipmap_of(const void *h)
{
	for (struct sim_mipmap *m = mipmaps; m; m = m->next)
		if (m == h)
			return m;
	return NULL;
}

/* The driver's checks, on the sim's limits. */
static CUresult desc_ok(const CUDA_ARRAY3D_DESCRIPTOR *d, bool mip)
{
	int err;

	if (!limits[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH])
		sim_array_attrs(limits);
	err = gl_array_check(d, limits, mip);
	if (err == -EOPNOTSUPP)
		return SIM_REFUSE("arrays of that format or those flags");
	return err ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static struct sim_array *array_new(const CUDA_ARRAY3D_DESCRIPTOR *d, CUresult *r)
{
	struct sim_array *a;
	unsigned int elem;

	gl_array_format(d->Format, d->NumChannels, &elem);
	a = calloc(1, sizeof(*a));
	if (!a) {
		*r = CUDA_ERROR_OUT_OF_MEMORY;
		return NULL;
	}
	a->d = *d;
	gl_array_extent(d, elem, &a->e);
	/* Extents within the limits: at most 16384^3 elements of 16 bytes. */
	a->mem = calloc(1, gl_array_bytes(&a->e));
	if (!a->mem) {
		free(a);
		*r = CUDA_ERROR_OUT_OF_MEMORY;
		return NULL;
	}
	a->next = arrays;
	arrays = a;
	*r = CUDA_SUCCESS;
	return a;
}

static void array_free(struct sim_array *a)
{
	for (struct sim_array **pp = &arrays; *pp; pp = &(*pp)->next) {
		if (*pp == a) {
			*pp = a->next;
			break;
		}
	}
	free(a->mem);
	free(a);
}

CUresult sim_cuArray3DCreate(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	struct sim_array *a;
	CUresult r;

	CTX_OK();
	if (!out || !d)
		return CUDA_ERROR_INVALID_VALUE;
	r = desc_ok(d, false);
	if (r)
		return r;
	a = array_new(d, &r);
	if (a)
		*out = (CUarray)a;
	return r;
}

CUresult sim_cuArrayCreate(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *d)
{
	CUDA_ARRAY3D_DESCRIPTOR d3 = { 0 };

	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	d3.Width = d->Width;
	d3.Height = d->Height;
	d3.Format = d->Format;
	d3.NumChannels = d->NumChannels;
	return sim_cuArray3DCreate(out, &d3);
}

/* A level goes with its mipmapped array, and only so. */
CUresult sim_cuArrayDestroy(CUarray h)
{
	struct sim_array *a = array_of(h);

	CTX_OK();
	if (!a)
		return CUDA_ERROR_INVALID_HANDLE;
	if (a->owner)
		return CUDA_ERROR_INVALID_VALUE;
	array_free(a);
	return CUDA_SUCCESS;
}

CUresult sim_cuMipmappedArrayCreate(CUmipmappedArray *out, const CUDA_ARRAY3D_DESCRIPTOR *d,
				    unsigned int levels)
{
	struct sim_mipmap *m;
	CUresult r;

	CTX_OK();
	if (!out || !d)
		return CUDA_ERROR_INVALID_VALUE;
	r = desc_ok(d, true);
	if (r)
		return r;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->d = *d;
	m->levels = gl_mipmap_levels(d, levels);
	for (unsigned int l = 0; l < m->levels; l++) {
		CUDA_ARRAY3D_DESCRIPTOR ld;

		gl_mipmap_level(d, l, &ld);
		m->level[l] = array_new(&ld, &r);
		if (!m->level[l]) {
			while (l--)
				array_free(m->level[l]);
			free(m);
			return r;
		}
		m->level[l]->owner = m;
	}
	m->next = mipmaps;
	mipmaps = m;
	*out = (CUmipmappedArray)m;
	return CUDA_SUCCESS;
}

CUresult sim_cuMipmappedArrayGetLevel(CUarray *out, CUmipmappedArray h, unsigned int level)
{
	struct sim_mipmap *m = mipmap_of(h);

	CTX_OK();
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!out || level >= m->levels)
		return CUDA_ERROR_INVALID_VALUE;
	*out = (CUarray)m->level[level];
	return CUDA_SUCCESS;
}

CUresult sim_cuMipmappedArrayDestroy(CUmipmappedArray h)
{
	struct sim_mipmap *m = mipmap_of(h);

	CTX_OK();
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	for (struct sim_mipmap **pp = &mipmaps; *pp; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	}
	for (unsigned int l = 0; l < m->levels; l++)
		array_free(m->level[l]);
	free(m);
	return CUDA_SUCCESS;
}

/* ---- copies ---- */

/* One end of a copy: its first byte, and how far apart its rows and slices are. */
struct span {
	unsigned char *p;
	uint64_t pitch, slice;
};

/*
 * An end resolved to memory, every byte of the copy inside its array or
 * one allocation (host memory is the worker's own: the record's rows or
 * its stage).
 */
static CUresult end_at(CUmemorytype type, size_t x, size_t y, size_t z, const void *host,
		       CUdeviceptr dptr, CUarray arr, size_t pitch, size_t height,
		       size_t w, size_t h, size_t d, struct span *s)
{
	uint64_t first, span;
	struct sim_array *a;

	switch (type) {
	case CU_MEMORYTYPE_HOST:
		if (!host || !gl_copy_span(x, y, z, pitch, height, w, h, d, &first, &span))
			return CUDA_ERROR_INVALID_VALUE;
		s->p = (unsigned char *)host + first;
		break;
	case CU_MEMORYTYPE_DEVICE:
		if (!gl_copy_span(x, y, z, pitch, height, w, h, d, &first, &span))
			return CUDA_ERROR_INVALID_VALUE;
		s->p = span ? sim_mem(NULL, dptr + first, span) : (unsigned char *)1;
		if (!s->p || dptr + first < dptr)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_MEMORYTYPE_ARRAY:
		a = array_of(arr);
		if (!a)
			return CUDA_ERROR_INVALID_HANDLE;
		if (!gl_array_box_ok(&a->e, x, y, z, w, h, d))
			return CUDA_ERROR_INVALID_VALUE;
		s->p = a->mem + (z * a->e.rows + y) * a->e.row + x;
		s->pitch = a->e.row;
		s->slice = a->e.row * a->e.rows;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	s->pitch = pitch;
	s->slice = (uint64_t)pitch * height;
	return CUDA_SUCCESS;
}

static void rows(const struct span *src, const struct span *dst, size_t w, size_t h, size_t d)
{
	uint64_t t0 = gl_now_ns();

	for (size_t z = 0; z < d; z++)
		for (size_t y = 0; y < h; y++)
			memmove(dst->p + z * dst->slice + y * dst->pitch,
				src->p + z * src->slice + y * src->pitch, w);
	sim_ran_since(t0);
}

/* Before a copy on stream s (NULL: the legacy stream): the sim does not capture these. */
static CUresult work(CUstream s)
{
	struct sim_capture *cap;
	CUresult r = sim_stream_work(s, &cap);

	if (!r && cap)
		r = SIM_REFUSE("2D and 3D copies and copies of arrays in a stream capture");
	return r;
}

/* The copy itself, with no stream to order it by (a graph's runs in its launch). */
static CUresult copy3d_now(const CUDA_MEMCPY3D_PEER *p)
{
	size_t w = p->WidthInBytes, h = p->Height, d = p->Depth;
	struct span src, dst;
	CUresult r;

	if (p->srcLOD || p->dstLOD)
		return CUDA_ERROR_INVALID_VALUE;
	r = end_at(p->srcMemoryType, p->srcXInBytes, p->srcY, p->srcZ, p->srcHost, p->srcDevice,
		   p->srcArray, p->srcPitch, p->srcHeight, w, h, d, &src);
	if (!r)
		r = end_at(p->dstMemoryType, p->dstXInBytes, p->dstY, p->dstZ, p->dstHost,
			   p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight, w, h, d, &dst);
	if (r)
		return r;
	if (w && h && d)
		rows(&src, &dst, w, h, d);
	return CUDA_SUCCESS;
}

static CUresult copy3d(const CUDA_MEMCPY3D_PEER *p, CUstream s)
{
	CUresult r;

	CTX_OK();
	r = work(s);
	return r ? r : copy3d_now(p);
}

#define FROM(p, q) \
	do { \
		(q).srcXInBytes = (p)->srcXInBytes; \
		(q).srcY = (p)->srcY; \
		(q).srcMemoryType = (p)->srcMemoryType; \
		(q).srcHost = (p)->srcHost; \
		(q).srcDevice = (p)->srcDevice; \
		(q).srcArray = (p)->srcArray; \
		(q).srcPitch = (p)->srcPitch; \
		(q).dstXInBytes = (p)->dstXInBytes; \
		(q).dstY = (p)->dstY; \
		(q).dstMemoryType = (p)->dstMemoryType; \
		(q).dstHost = (p)->dstHost; \
		(q).dstDevice = (p)->dstDevice; \
		(q).dstArray = (p)->dstArray; \
		(q).dstPitch = (p)->dstPitch; \
		(q).WidthInBytes = (p)->WidthInBytes; \
		(q).Height = (p)->Height; \
	} while (0)

static CUresult copy2d(const CUDA_MEMCPY2D *p, CUstream s)
{
	CUDA_MEMCPY3D_PEER q = { 0 };

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	FROM(p, q);
	q.srcHeight = p->Height + p->srcY;
	q.dstHeight = p->Height + p->dstY;
	q.Depth = 1;
	return copy3d(&q, s);
}

static void from3(const CUDA_MEMCPY3D *p, CUDA_MEMCPY3D_PEER *q)
{
	memset(q, 0, sizeof(*q));
	FROM(p, *q);
	q->srcZ = p->srcZ;
	q->dstZ = p->dstZ;
	q->srcLOD = p->srcLOD;
	q->dstLOD = p->dstLOD;
	q->srcHeight = p->srcHeight;
	q->dstHeight = p->dstHeight;
	q->Depth = p->Depth;
}

static CUresult copy3(const CUDA_MEMCPY3D *p, CUstream s)
{
	CUDA_MEMCPY3D_PEER q;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (p->reserved0 || p->reserved1)
		return CUDA_ERROR_INVALID_VALUE;
	from3(p, &q);
	return copy3d(&q, s);
}

/*
 * A graph's memcpy node, run in its launch: its arrays are found by
 * value in the list again, as every copy's are.
 */
CUresult sim_copy3d_run(const CUDA_MEMCPY3D *p)
{
	CUDA_MEMCPY3D_PEER q;

	from3(p, &q);
	return copy3d_now(&q);
}

CUresult sim_cuMemcpy2D(const CUDA_MEMCPY2D *p)
{
	return copy2d(p, NULL);
}

CUresult sim_cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *p)
{
	return copy2d(p, NULL);
}

CUresult sim_cuMemcpy2DAsync(const CUDA_MEMCPY2D *p, CUstream s)
{
	return copy2d(p, s);
}

CUresult sim_cuMemcpy3D(const CUDA_MEMCPY3D *p)
{
	return copy3(p, NULL);
}

CUresult sim_cuMemcpy3DAsync(const CUDA_MEMCPY3D *p, CUstream s)
{
	return copy3(p, s);
}

/* The sim's devices share one address space: a peer copy is a copy. */
CUresult sim_cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *p)
{
	return p ? copy3d(p, NULL) : CUDA_ERROR_INVALID_VALUE;
}

CUresult sim_cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *p, CUstream s)
{
	return p ? copy3d(p, s) : CUDA_ERROR_INVALID_VALUE;
}

/* Bytes [off, off + n) of an array's rows laid end to end. */
static unsigned char *linear(CUarray h, size_t off, size_t n, CUresult *r)
{
	struct sim_array *a = array_of(h);

	*r = CUDA_ERROR_INVALID_HANDLE;
	if (!a)
		return NULL;
	*r = CUDA_ERROR_INVALID_VALUE;
	/* The linear copies take 1D arrays only, as the driver's do. */
	if (a->e.rows > 1 || a->e.slices > 1 || off > gl_array_bytes(&a->e) ||
	    n > gl_array_bytes(&a->e) - off)
		return NULL;
	*r = CUDA_SUCCESS;
	return a->mem + off;
}

static CUresult htoa(CUarray h, size_t off, const void *src, size_t n, CUstream s)
{
	unsigned char *p;
	CUresult r;

	CTX_OK();
	r = work(s);
	if (!r && (p = linear(h, off, n, &r)) && n) {
		if (!src)
			return CUDA_ERROR_INVALID_VALUE;
		memcpy(p, src, n);
	}
	return r;
}

static CUresult atoh(void *dst, CUarray h, size_t off, size_t n, CUstream s)
{
	unsigned char *p;
	CUresult r;

	CTX_OK();
	r = work(s);
	if (!r && (p = linear(h, off, n, &r)) && n) {
		if (!dst)
			return CUDA_ERROR_INVALID_VALUE;
		memcpy(dst, p, n);
	}
	return r;
}

CUresult sim_cuMemcpyHtoA(CUarray h, size_t off, const void *src, size_t n)
{
	return htoa(h, off, src, n, NULL);
}

CUresult sim_cuMemcpyHtoAAsync(CUarray h, size_t off, const void *src, size_t n, CUstream s)
{
	return htoa(h, off, src, n, s);
}

CUresult sim_cuMemcpyAtoH(void *dst, CUarray h, size_t off, size_t n)
{
	return atoh(dst, h, off, n, NULL);
}

CUresult sim_cuMemcpyAtoHAsync(void *dst, CUarray h, size_t off, size_t n, CUstream s)
{
	return atoh(dst, h, off, n, s);
}

/* n bytes between an array at off and device memory at dev: to the array, or from it. */
static CUresult dev_array_copy(CUarray h, size_t off, CUdeviceptr dev, size_t n, bool to_array)
{
	unsigned char *p, *d;
	CUresult r;

	CTX_OK();
	r = work(NULL);
	if (r || !(p = linear(h, off, n, &r)) || !n)
		return r;
	d = sim_mem(NULL, dev, n);
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (to_array)
		memmove(p, d, n);
	else
		memmove(d, p, n);
	return CUDA_SUCCESS;
}

CUresult sim_cuMemcpyDtoA(CUarray h, size_t off, CUdeviceptr src, size_t n)
{
	return dev_array_copy(h, off, src, n, true);
}

CUresult sim_cuMemcpyAtoD(CUdeviceptr dst, CUarray h, size_t off, size_t n)
{
	return dev_array_copy(h, off, dst, n, false);
}

CUresult sim_cuMemcpyAtoA(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n)
{
	unsigned char *d, *s;
	CUresult r;

	CTX_OK();
	r = work(NULL);
	if (r || !(d = linear(dst, doff, n, &r)) || !(s = linear(src, soff, n, &r)) || !n)
		return r;
	memmove(d, s, n);
	return CUDA_SUCCESS;
}

/* ---- texture and surface objects ---- */

struct sim_texobj {
	struct sim_texobj *next;
	uint64_t value;
	bool surf;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	unsigned int elem;		/* bytes per element */
};

static struct sim_texobj *texobjs;
static uint64_t next_value = 1;

static struct sim_texobj *texobj_of(uint64_t v, bool surf)
{
	for (struct sim_texobj *t = texobjs; t; t = t->next)
		if (t->value == v && t->surf == surf)
			return t;
	return NULL;
}

/* What an object reads: its array, or its memory, checked as the driver checks it. */
static CUresult res_ok(const CUDA_RESOURCE_DESC *res, unsigned int *elem)
{
	struct sim_array *a;
	uint64_t bytes;

	if (res->flags)
		return CUDA_ERROR_INVALID_VALUE;
	switch (res->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		a = array_of(res->res.array.hArray);
		if (!a)
			return CUDA_ERROR_INVALID_HANDLE;
		*elem = (unsigned int)a->e.elem;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		return SIM_REFUSE("texture objects of mipmapped arrays");
	case CU_RESOURCE_TYPE_LINEAR:
		if (gl_array_format(res->res.linear.format, res->res.linear.numChannels, elem))
			return CUDA_ERROR_INVALID_VALUE;
		bytes = res->res.linear.sizeInBytes;
		if (res->res.linear.devPtr % 512 || !bytes ||
		    !sim_mem(NULL, res->res.linear.devPtr, bytes))
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_PITCH2D:
		if (gl_array_format(res->res.pitch2D.format, res->res.pitch2D.numChannels, elem))
			return CUDA_ERROR_INVALID_VALUE;
		if (res->res.pitch2D.devPtr % 512 || res->res.pitch2D.pitchInBytes % 32 ||
		    !res->res.pitch2D.width || !res->res.pitch2D.height ||
		    res->res.pitch2D.width > 131072 || res->res.pitch2D.height > 65000 ||
		    res->res.pitch2D.width * *elem > res->res.pitch2D.pitchInBytes ||
		    !sim_mem(NULL, res->res.pitch2D.devPtr,
			     (res->res.pitch2D.height - 1) * res->res.pitch2D.pitchInBytes +
			     res->res.pitch2D.width * *elem))
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static CUresult texobj_new(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
			   bool surf, unsigned long long *out)
{
	struct sim_texobj *t;
	unsigned int elem = 0;
	CUresult r;

	CTX_OK();
	if (!out || !res)
		return CUDA_ERROR_INVALID_VALUE;
	r = res_ok(res, &elem);
	if (r)
		return r;
	if (surf) {
		struct sim_array *a;

		if (res->resType != CU_RESOURCE_TYPE_ARRAY)
			return CUDA_ERROR_INVALID_VALUE;
		a = array_of(res->res.array.hArray);
		if (!(a->d.Flags & CUDA_ARRAY3D_SURFACE_LDST))
			return CUDA_ERROR_INVALID_VALUE;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return CUDA_ERROR_OUT_OF_MEMORY;
	t->value = next_value++;
	t->surf = surf;
	t->res = *res;
	if (tex)
		t->tex = *tex;
	t->elem = elem;
	t->next = texobjs;
	texobjs = t;
	*out = t->value;
	return CUDA_SUCCESS;
}

CUresult sim_cuTexObjectCreate(CUtexObject *out, const CUDA_RESOURCE_DESC *res,
			       const CUDA_TEXTURE_DESC *tex, const CUDA_RESOURCE_VIEW_DESC *view)
{
	unsigned long long v;
	CUresult r;

	if (!tex)
		return CUDA_ERROR_INVALID_VALUE;
	if (view && view->format != CU_RES_VIEW_FORMAT_NONE)
		return SIM_REFUSE("texture objects with resource views");
	r = texobj_new(res, tex, false, &v);
	if (!r)
		*out = v;
	return r;
}

CUresult sim_cuSurfObjectCreate(CUsurfObject *out, const CUDA_RESOURCE_DESC *res)
{
	unsigned long long v;
	CUresult r = texobj_new(res, NULL, true, &v);

	if (!r)
		*out = v;
	return r;
}

static CUresult texobj_destroy(uint64_t v, bool surf)
{
	CTX_OK();
	for (struct sim_texobj **pp = &texobjs, *t; (t = *pp); pp = &t->next) {
		if (t->value == v && t->surf == surf) {
			*pp = t->next;
			free(t);
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult sim_cuTexObjectDestroy(CUtexObject t)
{
	return texobj_destroy(t, false);
}

CUresult sim_cuSurfObjectDestroy(CUsurfObject s)
{
	return texobj_destroy(s, true);
}

/* An integer coordinate by an address mode; false: outside, the border's. */
static bool address(int64_t i, int64_t n, CUaddress_mode m, int64_t *out)
{
	switch (m) {
	case CU_TR_ADDRESS_MODE_WRAP:
		*out = ((i % n) + n) % n;
		return true;
	case CU_TR_ADDRESS_MODE_MIRROR: {
		int64_t p = ((i % (2 * n)) + 2 * n) % (2 * n);

		*out = p < n ? p : 2 * n - 1 - p;
		return true;
	}
	case CU_TR_ADDRESS_MODE_BORDER:
		*out = i;
		return i >= 0 && i < n;
	default:
		*out = i < 0 ? 0 : i >= n ? n - 1 : i;
		return true;
	}
}

/* Point filtering: the element whose cell holds coordinate f. */
static int64_t cell(float f, int64_t n, bool normalized)
{
	double v = normalized ? (double)f * (double)n : (double)f;

	if (!(v > -1e18 && v < 1e18))
		return v > 0 ? INT64_MAX / 4 : -(INT64_MAX / 4);
	return (int64_t)floor(v);
}

int sim_tex_fetch(void *be, uint64_t obj, const struct sim_texcoord *c, void *out,
		  unsigned int size)
{
	struct sim_texobj *t = texobj_of(obj, false);
	const CUDA_TEXTURE_DESC *td;
	bool norm, inside = true;
	int64_t idx[3] = { 0, 0, 0 }, ext[3];
	const unsigned char *p;
	struct sim_array *a = NULL;

	(void)be;
	if (!t || size != t->elem)
		return CUDA_ERROR_LAUNCH_FAILED;
	td = &t->tex;
	if (td->filterMode != CU_TR_FILTER_MODE_POINT)
		return SIM_REFUSE("texture reads with linear filtering");
	if (!(td->flags & CU_TRSF_READ_AS_INTEGER) && t->res.resType != CU_RESOURCE_TYPE_LINEAR) {
		a = t->res.resType == CU_RESOURCE_TYPE_ARRAY ? array_of(t->res.res.array.hArray) : NULL;
		if ((a ? a->d.Format : t->res.res.pitch2D.format) != CU_AD_FORMAT_FLOAT)
			return SIM_REFUSE("texture reads converted to normalised floats");
	}
	norm = td->flags & CU_TRSF_NORMALIZED_COORDINATES;
	if (t->res.resType == CU_RESOURCE_TYPE_LINEAR) {
		uint64_t n = t->res.res.linear.sizeInBytes / t->elem;
		int64_t i = (int64_t)c->x;

		/* Out of range, a linear fetch reads zeros. */
		if (!c->fetch || i < 0 || (uint64_t)i >= n) {
			memset(out, 0, size);
			return c->fetch ? CUDA_SUCCESS : CUDA_ERROR_LAUNCH_FAILED;
		}
		p = sim_mem(NULL, t->res.res.linear.devPtr + (uint64_t)i * t->elem, t->elem);
		if (!p)
			return CUDA_ERROR_ILLEGAL_ADDRESS;
		memcpy(out, p, size);
		return CUDA_SUCCESS;
	}
	if (c->fetch)
		return CUDA_ERROR_LAUNCH_FAILED;
	if (t->res.resType == CU_RESOURCE_TYPE_PITCH2D) {
		ext[0] = (int64_t)t->res.res.pitch2D.width;
		ext[1] = (int64_t)t->res.res.pitch2D.height;
		ext[2] = 1;
	} else {
		a = array_of(t->res.res.array.hArray);
		if (!a)
			return CUDA_ERROR_LAUNCH_FAILED;
		ext[0] = (int64_t)a->d.Width;
		ext[1] = (int64_t)a->e.rows;
		ext[2] = (int64_t)a->e.slices;
	}
	{
		const float f[3] = { c->x, c->y, c->z };

		for (int k = 0; k < 3; k++) {
			/* A layer is an index, clamped (a kernel reads unused extents at 0). */
			if (k == 2 && c->layer >= 0) {
				idx[2] = c->layer >= ext[2] ? ext[2] - 1 : c->layer;
				continue;
			}
			/* Unnormalised coordinates wrap or mirror as clamp does (CUDA's rule). */
			inside &= address(cell(f[k], ext[k], norm), ext[k],
					  norm || td->addressMode[k] == CU_TR_ADDRESS_MODE_BORDER ?
					  td->addressMode[k] : CU_TR_ADDRESS_MODE_CLAMP, &idx[k]);
		}
	}
	if (!inside) {
		/* The border colour, for float elements: its channels. */
		memset(out, 0, size);
		for (unsigned int ch = 0; ch < size / 4 && ch < 4; ch++)
			memcpy((char *)out + 4 * ch, &td->borderColor[ch], 4);
		return CUDA_SUCCESS;
	}
	if (t->res.resType == CU_RESOURCE_TYPE_PITCH2D) {
		p = sim_mem(NULL, t->res.res.pitch2D.devPtr +
			    (uint64_t)idx[1] * t->res.res.pitch2D.pitchInBytes +
			    (uint64_t)idx[0] * t->elem, t->elem);
		if (!p)
			return CUDA_ERROR_ILLEGAL_ADDRESS;
	} else {
		p = a->mem + ((uint64_t)idx[2] * a->e.rows + (uint64_t)idx[1]) * a->e.row +
		    (uint64_t)idx[0] * t->elem;
	}
	memcpy(out, p, size);
	return CUDA_SUCCESS;
}

/* A surface access out of bounds traps, as the default boundary mode does. */
int sim_surf_access(void *be, uint64_t obj, int64_t x, int64_t y, int64_t z, void *buf,
		    unsigned int size, int write)
{
	struct sim_texobj *t = texobj_of(obj, true);
	struct sim_array *a;
	unsigned char *p;

	(void)be;
	if (!t)
		return CUDA_ERROR_LAUNCH_FAILED;
	a = array_of(t->res.res.array.hArray);
	if (!a || size != a->e.elem)
		return CUDA_ERROR_LAUNCH_FAILED;
	if (x < 0 || x % size || (uint64_t)x >= a->e.row || y < 0 || (uint64_t)y >= a->e.rows ||
	    z < 0 || (uint64_t)z >= a->e.slices)
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	p = a->mem + ((uint64_t)z * a->e.rows + (uint64_t)y) * a->e.row + (uint64_t)x;
	if (write)
		memcpy(p, buf, size);
	else
		memcpy(buf, p, size);
	return CUDA_SUCCESS;
}
