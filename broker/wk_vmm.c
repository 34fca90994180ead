// SPDX-License-Identifier: MIT
/*
 * Replay of the virtual memory functions whose records carry more than
 * their argument blocks (allocation properties, access descriptors, the
 * address of a retained handle), and of the messages that keep mapped and
 * managed memory in step with the program's pages: twins
 * (uapi/gleam_vmm.h; the shim's side is libcuda-shim/twin.c).
 *
 * A twin here is a device range and, per page, the hash of its content
 * when the shim's copy last agreed with it.  A push writes the pages the
 * program changed and takes their hashes; a pull hashes the device's
 * pages and sends back those that differ.  Their copies run on a stream
 * of the worker's own, created without a wait on the legacy stream, so
 * that they never join a stream capture and never wait for work on the
 * program's streams that the program did not synchronise with; a push
 * that the program's work reads goes on that work's stream instead.
 */
#include <stdlib.h>
#include <string.h>

#include "gleam_vmm.h"
#include "pagehash.h"
#include "util.h"
#include "worker.h"

/* Pull in pieces of whole pages that fit one DATA reply. */
#define PULL_PIECE	((GLEAM_PIECE_MAX - 4096) & ~(GLEAM_TWIN_PAGE - 1))
/* Twins one session may keep: each is device memory of its own besides. */
#define TWINS_MAX	65536
/* Contexts whose own stream is kept. */
#define OWN_STREAMS	16

struct wk_twin {
	struct wk_twin *next;
	uint64_t base, size;
	size_t npages;
	uint64_t hash[];
};

struct wk_twins {
	struct wk_twin *list;
	unsigned int n;
	struct {
		uint64_t ctx;
		CUstream s;
	} own[OWN_STREAMS];
	unsigned int nown;
	unsigned char *buf;	/* PULL_PIECE bytes */
};

/* ---- properties and access ---- */

static CUresult prop_of(struct wk_call *k, CUmemAllocationProp *p)
{
	const struct gleam_mem_prop *g = wk_data(k, sizeof(*g));

	if (!g || g->reserved)
		return CUDA_ERROR_INVALID_VALUE;
	memset(p, 0, sizeof(*p));
	p->type = (CUmemAllocationType)g->type;
	p->requestedHandleTypes = (CUmemAllocationHandleType)g->handle_types;
	p->location.type = (CUmemLocationType)g->location_type;
	p->location.id = wk_loc_id(g->location_type, g->location_id);
	p->allocFlags.compressionType = g->compression;
	p->allocFlags.gpuDirectRDMACapable = g->rdma;
	p->allocFlags.usage = g->usage;
	return CUDA_SUCCESS;
}

CUresult wk_cuMemGetAllocationGranularity(struct wk_call *k)
{
	const struct gl_a_cuMemGetAllocationGranularity *a = wk_args(k, sizeof(*a));
	struct gl_r_cuMemGetAllocationGranularity *o;
	CUmemAllocationProp p;
	size_t g = 0;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = prop_of(k, &p);
	if (r)
		return r;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->op.f_cuMemGetAllocationGranularity(&g, &p,
		(CUmemAllocationGranularity_flags)a->option);
	if (!r)
		o->granularity = g;
	return r;
}

/*
 * The reply carries the minimum granularity of the allocation's
 * properties (a __u64), which the shim checks mappings against.  An
 * allocation whose granularity cannot be had is released again.
 */
CUresult wk_cuMemCreate(struct wk_call *k)
{
	const struct gl_a_cuMemCreate *a = wk_args(k, sizeof(*a));
	CUmemGenericAllocationHandle h = 0;
	CUmemAllocationProp p;
	uint64_t *gran;
	size_t g = 0;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->handle))
		return CUDA_ERROR_INVALID_VALUE;
	r = prop_of(k, &p);
	if (r)
		return r;
	gran = wk_reply_struct(k, sizeof(*gran));
	if (!gran)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = k->w->be->op.f_cuMemCreate(&h, (size_t)a->size, &p, (unsigned long long)a->flags);
	if (!r) {
		r = k->w->be->op.f_cuMemGetAllocationGranularity(&g, &p,
								 CU_MEM_ALLOC_GRANULARITY_MINIMUM);
		if (r)
			k->w->be->op.f_cuMemRelease(h);
	}
	wk_handle_new(k->w, GL_H_MEMHANDLE, a->handle, (void *)(uintptr_t)h, r);
	if (!r)
		*gran = g;
	return r;
}

CUresult wk_cuMemSetAccess(struct wk_call *k)
{
	const struct gl_a_cuMemSetAccess *a = wk_args(k, sizeof(*a));
	const struct gleam_access_desc *d;
	CUmemAccessDesc desc[GLEAM_ACCESS_DESC_MAX];

	if (!a || !a->count || a->count > GLEAM_ACCESS_DESC_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	d = wk_data(k, a->count * sizeof(*d));
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	for (uint64_t i = 0; i < a->count; i++) {
		if (d[i].reserved)
			return CUDA_ERROR_INVALID_VALUE;
		desc[i].location.type = (CUmemLocationType)d[i].location_type;
		desc[i].location.id = wk_loc_id(d[i].location_type, d[i].location_id);
		desc[i].flags = (CUmemAccess_flags)d[i].flags;
	}
	return k->w->be->op.f_cuMemSetAccess((CUdeviceptr)a->ptr, (size_t)a->size, desc,
					     (size_t)a->count);
}

/* The driver gives back the handle that was mapped; the shim's id names it again. */
CUresult wk_cuMemRetainAllocationHandle(struct wk_call *k)
{
	const struct gl_a_cuMemRetainAllocationHandle *a = wk_args(k, sizeof(*a));
	CUmemGenericAllocationHandle h = 0;
	const uint64_t *addr;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->handle))
		return CUDA_ERROR_INVALID_VALUE;
	addr = wk_data(k, sizeof(*addr));
	if (!addr)
		return CUDA_ERROR_INVALID_VALUE;
	r = k->w->be->op.f_cuMemRetainAllocationHandle(&h, (void *)(uintptr_t)*addr);
	wk_handle_new(k->w, GL_H_MEMHANDLE, a->handle, (void *)(uintptr_t)h, r);
	return r;
}

/* ---- twins ---- */

static struct wk_twins *twins(struct worker *w)
{
	if (!w->twins)
		w->twins = calloc(1, sizeof(*w->twins));
	return w->twins;
}

static struct wk_twin *twin_of(struct wk_twins *ts, uint64_t base)
{
	for (struct wk_twin *t = ts ? ts->list : NULL; t; t = t->next)
		if (t->base == base)
			return t;
	return NULL;
}

/* The worker's own stream in the record's context, made at its first use. */
static CUresult own_stream(struct wk_call *k, CUstream *s)
{
	struct wk_twins *ts = twins(k->w);
	uint64_t ctx = k->hdr.ctx;
	CUresult r;

	if (!ts)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	for (unsigned int i = 0; i < ts->nown; i++) {
		if (ts->own[i].ctx == ctx) {
			*s = ts->own[i].s;
			return CUDA_SUCCESS;
		}
	}
	r = k->w->be->op.f_cuStreamCreate(s, CU_STREAM_NON_BLOCKING);
	if (r)
		return r;
	/* Past the last slot, the oldest context's stream is forgotten (its context keeps it). */
	if (ts->nown == OWN_STREAMS)
		memmove(&ts->own[0], &ts->own[1], (OWN_STREAMS - 1) * sizeof(ts->own[0]));
	else
		ts->nown++;
	ts->own[ts->nown - 1].ctx = ctx;
	ts->own[ts->nown - 1].s = *s;
	return CUDA_SUCCESS;
}

static uint64_t page_len(const struct wk_twin *t, size_t i)
{
	return MIN((uint64_t)GLEAM_TWIN_PAGE, t->size - (uint64_t)i * GLEAM_TWIN_PAGE);
}

/*
 * KEEP: the range becomes a twin, its device copy zeroed, as the shim's
 * pages start; FORGET: no longer.  A range that overlaps a twin is refused.
 */
CUresult wk_gleamTwinSet(struct wk_call *k)
{
	const struct gl_a_gleamTwinSet *a = wk_args(k, sizeof(*a));
	static const unsigned char zeros[GLEAM_TWIN_PAGE];
	struct wk_twins *ts = twins(k->w);
	struct wk_twin *t, **pp;
	size_t npages;
	CUstream s;
	CUresult r;

	if (!a || !ts)
		return a ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
	if (a->op == GLEAM_TWIN_FORGET) {
		for (pp = &ts->list; *pp; pp = &(*pp)->next) {
			if ((*pp)->base == a->base) {
				t = *pp;
				*pp = t->next;
				ts->n--;
				free(t);
				return CUDA_SUCCESS;
			}
		}
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (a->op != GLEAM_TWIN_KEEP || !a->size || a->size > GLEAM_TWIN_MAX ||
	    a->base + a->size < a->base || ts->n >= TWINS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	for (t = ts->list; t; t = t->next)
		if (a->base < t->base + t->size && t->base < a->base + a->size)
			return CUDA_ERROR_INVALID_VALUE;
	/* The zeroing checks the range against the device's memory before anything is kept. */
	r = own_stream(k, &s);
	if (!r)
		r = k->w->be->op.f_cuMemsetD8Async((CUdeviceptr)a->base, 0, (size_t)a->size, s);
	if (!r)
		r = k->w->be->op.f_cuStreamSynchronize(s);
	if (r)
		return r;
	npages = (size_t)((a->size + GLEAM_TWIN_PAGE - 1) / GLEAM_TWIN_PAGE);
	t = malloc(sizeof(*t) + npages * sizeof(t->hash[0]));
	if (!t)
		return CUDA_ERROR_OUT_OF_MEMORY;
	t->base = a->base;
	t->size = a->size;
	t->npages = npages;
	for (size_t i = 0; i < npages; i++)
		t->hash[i] = i && page_len(t, i) == GLEAM_TWIN_PAGE ? t->hash[0] :
			     gl_page_hash(zeros, (size_t)page_len(t, i));
	t->next = ts->list;
	ts->list = t;
	ts->n++;
	return CUDA_SUCCESS;
}

/*
 * Pages of the program's, whole, at offset: written in order on the
 * record's stream, or on the worker's own and waited for there
 * (GLEAM_TWIN_PUSH_SYNC: the work that reads them is on some other
 * stream).  Their hashes are now the device's.
 */
CUresult wk_gleamTwinPush(struct wk_call *k)
{
	const struct gl_a_gleamTwinPush *a = wk_args(k, sizeof(*a));
	const unsigned char *data;
	struct wk_twin *t;
	CUstream s;
	CUresult r;

	if (!a || (a->flags & ~(uint64_t)GLEAM_TWIN_PUSH_KNOWN))
		return CUDA_ERROR_INVALID_VALUE;
	t = twin_of(k->w->twins, a->base);
	if (!t || !a->len || a->offset % GLEAM_TWIN_PAGE || a->offset > t->size ||
	    a->len > t->size - a->offset ||
	    (a->len % GLEAM_TWIN_PAGE && a->offset + a->len != t->size))
		return CUDA_ERROR_INVALID_VALUE;
	data = wk_data(k, a->len);
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	if (a->flags & GLEAM_TWIN_PUSH_SYNC) {
		r = own_stream(k, &s);
	} else {
		r = wk_stream(k->w, a->hStream, &s);
		if (!r)
			r = wk_not_capturing(k, s);
	}
	if (!r)
		r = k->w->be->op.f_cuMemcpyHtoDAsync((CUdeviceptr)(a->base + a->offset), data,
						     (size_t)a->len, s);
	if (!r && (a->flags & GLEAM_TWIN_PUSH_SYNC))
		r = k->w->be->op.f_cuStreamSynchronize(s);
	if (r)
		return r;
	for (uint64_t at = 0; at < a->len; at += GLEAM_TWIN_PAGE) {
		size_t i = (size_t)((a->offset + at) / GLEAM_TWIN_PAGE);

		t->hash[i] = gl_page_hash(data + at, (size_t)page_len(t, i));
	}
	return CUDA_SUCCESS;
}

/* The changed pages of buf (n bytes from off), sent as runs; how many, or -1. */
static long send_changed(struct wk_call *k, struct wk_twin *t, uint64_t off, const unsigned char *buf,
			 uint64_t n)
{
	uint64_t run = 0, run_len = 0;
	long pages = 0;

	for (uint64_t at = 0; at < n; at += GLEAM_TWIN_PAGE) {
		size_t i = (size_t)((off + at) / GLEAM_TWIN_PAGE);
		uint64_t len = page_len(t, i);
		uint64_t h = gl_page_hash(buf + at, (size_t)len);

		if (h != t->hash[i]) {
			t->hash[i] = h;
			if (!run_len)
				run = at;
			run_len += len;
			pages++;
			continue;
		}
		if (run_len && wk_reply_piece(k, off + run, buf + run, run_len))
			return -1;
		run_len = 0;
	}
	if (run_len && wk_reply_piece(k, off + run, buf + run, run_len))
		return -1;
	return pages;
}

/*
 * The device's pages that changed since the shim's copy last agreed, in
 * DATA replies at their offsets from base; the reply says how many.  Only
 * a record that waits for its reply may pull: the hashes move with what
 * is sent.
 */
CUresult wk_gleamTwinPull(struct wk_call *k)
{
	const struct gl_a_gleamTwinPull *a = wk_args(k, sizeof(*a));
	struct gl_r_gleamTwinPull *o;
	struct wk_twins *ts = k->w->twins;
	struct wk_twin *t;
	uint64_t pages = 0;
	CUstream s;
	CUresult r;

	if (!a || !(k->hdr.flags & GLEAM_REC_F_REPLY))
		return CUDA_ERROR_INVALID_VALUE;
	t = twin_of(ts, a->base);
	if (!t || t->size != a->size)
		return CUDA_ERROR_INVALID_VALUE;
	o = wk_reply_struct(k, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!ts->buf)
		ts->buf = malloc(PULL_PIECE);
	if (!ts->buf)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = own_stream(k, &s);
	for (uint64_t off = 0; !r && off < t->size; off += PULL_PIECE) {
		uint64_t n = MIN((uint64_t)PULL_PIECE, t->size - off);
		long sent;

		r = k->w->be->op.f_cuMemcpyDtoHAsync(ts->buf, (CUdeviceptr)(t->base + off), (size_t)n,
						     s);
		if (!r)
			r = k->w->be->op.f_cuStreamSynchronize(s);
		if (r)
			break;
		sent = send_changed(k, t, off, ts->buf, n);
		if (sent < 0)
			return CUDA_ERROR_DEVICE_UNAVAILABLE;
		pages += (uint64_t)sent;
	}
	if (!r)
		o->pages = pages;
	return r;
}
