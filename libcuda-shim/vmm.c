// SPDX-License-Identifier: MIT
/*
 * Virtual memory management: address reservations, memory handles,
 * mappings and their access (Documentation/design.md, "Virtual memory,
 * peers, mapped and managed memory").
 *
 * Device addresses are raw values that the program computes with and
 * passes to kernels, so a reservation's address is the server's to give:
 * cuMemAddressReserve waits for it (the program's own address, if it asked
 * for one, is the server's hint).  cuMemCreate waits too, because a
 * program that runs out of memory must hear CUDA_ERROR_OUT_OF_MEMORY from
 * it (PyTorch's expandable segments free what they cache and try again);
 * its answer also carries the allocation's granularity.  Everything else
 * (mappings, access, releases, unmappings and frees) the shim checks
 * against the reservations, handles and mappings it keeps, with the
 * driver's rules, and sends without a wait; the questions about them
 * (access, a handle's properties, the handle behind an address) are
 * answered here.  The mappings are device ranges like any allocation's
 * (memory.c), so that copies, fills and launches into them are checked as
 * any are; side by side, they are one range.
 */
#include <stdlib.h>

#include "shim.h"
#include "util.h"

#include "gleam_vmm.h"

struct resv {
	uint64_t base, size;
};

struct vmap {
	uint64_t base, size, offset;
	struct shim_vmh *h;
	unsigned char access[GLEAM_GPUS_MAX_LOCAL];	/* CUmemAccess_flags per device */
};

/* Granularities asked of the server: they follow from the properties alone. */
struct gran {
	struct gleam_mem_prop prop;
	int option;
	uint64_t value;
};

#define GRAN_KEPT	32

static struct {
	pthread_mutex_t lock;
	struct resv *r;		/* sorted by base */
	size_t nr, rcap;
	struct vmap *m;		/* sorted by base, never overlapping */
	size_t nm, mcap;
	struct gran g[GRAN_KEPT];
	unsigned int ng;
} vmm = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- sorted arrays keyed by a leading base address ---- */

static int arr_insert(void **arr, size_t *n, size_t *cap, size_t size, const void *e)
{
	uint64_t base;
	long i;

	if (gl_grow(arr, *n, cap, size, 16))
		return -1;
	memcpy(&base, e, sizeof(base));
	i = gl_find_le(*arr, *n, size, base) + 1;
	memmove((char *)*arr + (size_t)(i + 1) * size, (char *)*arr + (size_t)i * size,
		(*n - (size_t)i) * size);
	memcpy((char *)*arr + (size_t)i * size, e, size);
	(*n)++;
	return 0;
}

static void arr_remove(void *arr, size_t *n, size_t size, size_t i)
{
	memmove((char *)arr + i * size, (char *)arr + (i + 1) * size, (*n - i - 1) * size);
	(*n)--;
}

/* The reservation that holds [p, p + len), or -1; lock held. */
static long resv_of(uint64_t p, uint64_t len)
{
	long i = gl_find_le(vmm.r, vmm.nr, sizeof(*vmm.r), p);

	if (i < 0 || p - vmm.r[i].base >= vmm.r[i].size || len > vmm.r[i].size - (p - vmm.r[i].base))
		return -1;
	return i;
}

/* The mapping that holds p, or -1; lock held. */
static long map_of(uint64_t p)
{
	long i = gl_find_le(vmm.m, vmm.nm, sizeof(*vmm.m), p);

	return i >= 0 && p - vmm.m[i].base < vmm.m[i].size ? i : -1;
}

/*
 * The mappings that [p, p + len) covers, side by side with no gap: the
 * first's index and how many, or -1.  whole: the range starts at the first
 * one's start and ends at the last one's end.  Lock held.
 */
static long maps_over(uint64_t p, uint64_t len, bool whole, size_t *count)
{
	uint64_t end = p + len, at;
	long first = map_of(p);
	size_t i;

	if (first < 0 || !len || end < p || (whole && vmm.m[first].base != p))
		return -1;
	at = vmm.m[first].base + vmm.m[first].size;
	for (i = (size_t)first; at < end; ) {
		if (++i >= vmm.nm || vmm.m[i].base != at)
			return -1;
		at += vmm.m[i].size;
	}
	if (whole && at != end)
		return -1;
	*count = i - (size_t)first + 1;
	return first;
}

/* maps_over, taking the lock: held on success, not when it answers -1. */
static long maps_lock(uint64_t p, uint64_t len, bool whole, size_t *count)
{
	long i;

	pthread_mutex_lock(&vmm.lock);
	i = maps_over(p, len, whole, count);
	if (i < 0)
		pthread_mutex_unlock(&vmm.lock);
	return i;
}

/* ---- handles ---- */

/* The program's handle, once cuInit has been called. */
static CUresult vmh_get(CUmemGenericAllocationHandle handle, struct shim_vmh **h)
{
	struct shim_obj *o;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_obj_get(GL_H_MEMHANDLE, (const void *)(uintptr_t)handle, &o);
	if (r)
		return CUDA_ERROR_INVALID_VALUE;
	*h = (struct shim_vmh *)o;
	return CUDA_SUCCESS;
}

/* A handle neither held by the program nor mapped is gone; lock held. */
static bool vmh_unused(struct shim_vmh *h)
{
	return !h->refs && !h->maps;
}

/* Mapping m goes: its range, and its handle when nothing else holds it; lock held. */
static void unmapped(struct vmap *m)
{
	shim_mem_range_del(m->base);
	if (!--m->h->maps && !m->h->refs)
		shim_obj_put(&m->h->o);
}

/* CUmemAllocationProp as records carry it. */
static CUresult prop_pack(const CUmemAllocationProp *p, struct gleam_mem_prop *g)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (p->win32HandleMetaData)
		return SHIM_REFUSE("cuMemCreate: Windows handle attributes mean nothing to the "
				   "server: returning CUDA_ERROR_NOT_SUPPORTED");
	memset(g, 0, sizeof(*g));
	g->type = p->type;
	g->handle_types = p->requestedHandleTypes;
	g->location_type = p->location.type;
	g->location_id = p->location.id;
	g->compression = p->allocFlags.compressionType;
	g->rdma = p->allocFlags.gpuDirectRDMACapable;
	g->usage = p->allocFlags.usage;
	return CUDA_SUCCESS;
}

/*
 * A granularity depends on the properties and nothing else that changes:
 * asked once for each, and kept.  JAX asks it before it uses a device.
 */
CUresult shim_cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
					    CUmemAllocationGranularity_flags option)
{
	struct gl_a_cuMemGetAllocationGranularity a = { .option = option };
	struct gl_r_cuMemGetAllocationGranularity o = { 0 };
	struct gleam_mem_prop g;
	struct shim_call c;
	struct iovec iov;
	CUresult r;

	r = shim_begin_io(&c, GL_FN_cuMemGetAllocationGranularity, &a, sizeof(a), &o, sizeof(o));
	if (r)
		return r;
	if (!granularity)
		return CUDA_ERROR_INVALID_VALUE;
	r = prop_pack(prop, &g);
	if (r)
		return r;
	pthread_mutex_lock(&vmm.lock);
	for (unsigned int i = 0; i < vmm.ng; i++) {
		if (vmm.g[i].option == (int)option && !memcmp(&vmm.g[i].prop, &g, sizeof(g))) {
			*granularity = (size_t)vmm.g[i].value;
			pthread_mutex_unlock(&vmm.lock);
			return CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&vmm.lock);
	iov.iov_base = &g;
	iov.iov_len = sizeof(g);
	r = shim_call_iov(&c, &iov);
	if (r)
		return r;
	if (!o.granularity)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vmm.lock);
	if (vmm.ng < GRAN_KEPT)
		vmm.g[vmm.ng++] = (struct gran){ g, (int)option, o.granularity };
	pthread_mutex_unlock(&vmm.lock);
	*granularity = (size_t)o.granularity;
	return CUDA_SUCCESS;
}

CUresult shim_vmm_granularity(int dev, uint64_t *gran)
{
	CUmemAllocationProp p = { .type = CU_MEM_ALLOCATION_TYPE_PINNED,
				  .location = { CU_MEM_LOCATION_TYPE_DEVICE, dev } };
	size_t g = 0;
	CUresult r = shim_cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);

	*gran = g;
	return r;
}

static CUresult free_range(uint64_t base, uint64_t size);

/* The record of a reservation, its answer the address: waited for. */
static CUresult reserve(uint64_t size, uint64_t align, uint64_t hint, unsigned long long flags,
			uint64_t *addr)
{
	struct gl_a_cuMemAddressReserve a = { .size = size, .alignment = align, .addr = hint,
					      .flags = flags };
	struct gl_r_cuMemAddressReserve o = { 0 };
	struct shim_call c;
	CUresult r = shim_begin_io(&c, GL_FN_cuMemAddressReserve, &a, sizeof(a), &o, sizeof(o));

	if (!r)
		r = shim_call(&c);
	if (!r && !o.ptr)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (!r)
		*addr = o.ptr;
	return r;
}

CUresult shim_cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
				  CUdeviceptr addr, unsigned long long flags)
{
	struct resv e;
	uint64_t base;
	bool held;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!ptr || !size || (alignment & (alignment - 1)))
		return CUDA_ERROR_INVALID_VALUE;
	r = reserve(size, alignment, addr, flags, &base);
	if (r)
		return r;
	e = (struct resv){ base, size };
	pthread_mutex_lock(&vmm.lock);
	/* A range the shim holds already: the server is not to be believed. */
	held = resv_of(base, size) >= 0;
	if (held || arr_insert((void **)&vmm.r, &vmm.nr, &vmm.rcap, sizeof(e), &e)) {
		pthread_mutex_unlock(&vmm.lock);
		if (!held)
			free_range(base, size);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	pthread_mutex_unlock(&vmm.lock);
	*ptr = (CUdeviceptr)base;
	return CUDA_SUCCESS;
}

/* Records of the shim's own that follow the program's: no capture's rules apply. */
static CUresult send_own(unsigned int fn, const void *args, size_t len, const struct iovec *iov,
			 int niov)
{
	struct shim_ctx *cur = shim_current();
	struct shim_call c = { .fn = fn, .args = args, .args_len = len, .iov = iov, .niov = niov,
			       .ctx = cur ? cur->o.id : 0 };
	bool was = shim_ungated;
	CUresult r = shim_conn_error();

	if (r)
		return r;
	shim_ungated = true;
	r = shim_call(&c);
	shim_ungated = was;
	return r;
}

static CUresult free_range(uint64_t base, uint64_t size)
{
	struct gl_a_cuMemAddressFree a = { .ptr = base, .size = size };

	return send_own(GL_FN_cuMemAddressFree, &a, sizeof(a), NULL, 0);
}

/*
 * The driver wants the reservation exactly as it gave it.  Mappings left
 * in it are the program's to have unmapped; the shim forgets them, so that
 * nothing reaches the range any more, and the driver decides.
 */
CUresult shim_cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	long i;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&vmm.lock);
	i = resv_of(ptr, size);
	if (i < 0 || vmm.r[i].base != ptr || vmm.r[i].size != size) {
		pthread_mutex_unlock(&vmm.lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	arr_remove(vmm.r, &vmm.nr, sizeof(*vmm.r), (size_t)i);
	for (size_t j = 0; j < vmm.nm; ) {
		struct vmap *m = &vmm.m[j];

		if (m->base - ptr >= size) {
			j++;
			continue;
		}
		unmapped(m);
		arr_remove(vmm.m, &vmm.nm, sizeof(*vmm.m), j);
	}
	pthread_mutex_unlock(&vmm.lock);
	return free_range(ptr, size);
}

/*
 * The reply to cuMemCreate carries the minimum granularity of the
 * allocation's properties as a __u64, so that mappings of it are checked
 * here without another question.
 */
static CUresult create(struct shim_vmh *h, uint64_t size, const struct gleam_mem_prop *g,
		       unsigned long long flags, struct shim_pending **deferred, uint64_t *gran)
{
	struct gl_a_cuMemCreate a = { .handle = h->o.id, .size = size, .flags = flags };
	struct shim_call c;
	struct iovec iov = { (void *)g, sizeof(*g) };
	CUresult r = shim_begin_io(&c, GL_FN_cuMemCreate, &a, sizeof(a), gran, sizeof(*gran));

	if (r)
		return r;
	c.iov = &iov;
	c.niov = 1;
	if (!deferred)
		return shim_call(&c);
	*deferred = shim_defer(&c);
	return *deferred ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult shim_cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
			  const CUmemAllocationProp *prop, unsigned long long flags)
{
	struct gleam_mem_prop g;
	struct shim_vmh *h;
	uint64_t gran = 0;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!handle || !size)
		return CUDA_ERROR_INVALID_VALUE;
	r = prop_pack(prop, &g);
	if (r)
		return r;
	h = (struct shim_vmh *)shim_obj_new(GL_H_MEMHANDLE);
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = create(h, size, &g, flags, NULL, &gran);
	if (!r && (!gran || (gran & (gran - 1))))
		r = CUDA_ERROR_INVALID_VALUE;	/* a server that does not say: refused */
	if (r) {
		shim_obj_put(&h->o);
		return r;
	}
	h->size = size;
	h->gran = gran;
	h->prop = *prop;
	h->refs = 1;
	h->maps = 0;
	shim_obj_created(&h->o);
	*handle = (CUmemGenericAllocationHandle)(uintptr_t)h;
	return CUDA_SUCCESS;
}

static CUresult release(uint64_t id)
{
	struct gl_a_cuMemRelease a = { .handle = id };

	return send_own(GL_FN_cuMemRelease, &a, sizeof(a), NULL, 0);
}

/*
 * The driver counts references to a handle: its creation, each retain,
 * less each release.  The shim counts them, and the worker's driver sees
 * one creation and one release: the memory goes when the last mapping
 * and the last reference have, on either.
 */
CUresult shim_cuMemRelease(CUmemGenericAllocationHandle handle)
{
	struct shim_vmh *h;
	bool last, gone;
	uint64_t id;
	CUresult r;

	r = vmh_get(handle, &h);
	if (r)
		return r;
	pthread_mutex_lock(&vmm.lock);
	if (!h->refs) {
		pthread_mutex_unlock(&vmm.lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	last = !--h->refs;
	gone = vmh_unused(h);
	id = h->o.id;
	pthread_mutex_unlock(&vmm.lock);
	if (gone)
		shim_obj_put(&h->o);
	return last ? release(id) : CUDA_SUCCESS;
}

/*
 * Whether a mapping may go at [ptr, ptr + size) of handle h from offset:
 * inside one reservation, over no other mapping, within the allocation,
 * all in whole granules; lock held.
 */
static CUresult map_ok(uint64_t ptr, uint64_t size, uint64_t offset, const struct shim_vmh *h)
{
	long i;

	if (!size || !h->refs || offset > h->size || size > h->size - offset)
		return CUDA_ERROR_INVALID_VALUE;
	if ((ptr | offset) & (h->gran - 1))
		return CUDA_ERROR_INVALID_VALUE;
	if (resv_of(ptr, size) < 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* Part of a granule: NVIDIA's driver answers that it cannot (seen on the H200). */
	if (size & (h->gran - 1))
		return CUDA_ERROR_NOT_SUPPORTED;
	i = gl_find_le(vmm.m, vmm.nm, sizeof(*vmm.m), ptr + size - 1);
	if (i >= 0 && vmm.m[i].base + vmm.m[i].size > ptr)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUresult shim_cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
		       CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	struct gl_a_cuMemMap a = { .ptr = ptr, .size = size, .offset = offset, .flags = flags };
	struct shim_call c;
	struct shim_vmh *h;
	struct vmap m;
	CUresult r;

	r = shim_begin_io(&c, GL_FN_cuMemMap, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	r = vmh_get(handle, &h);
	if (r)
		return r;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	memset(&m, 0, sizeof(m));
	m.base = ptr;
	m.size = size;
	m.offset = offset;
	m.h = h;
	pthread_mutex_lock(&vmm.lock);
	r = map_ok(ptr, size, offset, h);
	if (!r && (arr_insert((void **)&vmm.m, &vmm.nm, &vmm.mcap, sizeof(m), &m) ||
		   shim_mem_range_add(ptr, size, SHIM_RANGE_VMM | SHIM_RANGE_NOACCESS))) {
		long i = map_of(ptr);

		if (i >= 0)
			arr_remove(vmm.m, &vmm.nm, sizeof(*vmm.m), (size_t)i);
		r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (!r)
		h->maps++;
	pthread_mutex_unlock(&vmm.lock);
	if (r)
		return r;
	a.handle = h->o.id;
	return shim_call(&c);
}

/* The range must be whole mappings: a mapping cannot be unmapped in part. */
CUresult shim_cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	struct gl_a_cuMemUnmap a = { .ptr = ptr, .size = size };
	struct shim_call c;
	size_t n = 0;
	CUresult r;
	long i;

	r = shim_begin_io(&c, GL_FN_cuMemUnmap, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	i = maps_lock(ptr, size, true, &n);
	if (i < 0)
		return CUDA_ERROR_INVALID_VALUE;
	while (n--) {
		unmapped(&vmm.m[i]);
		arr_remove(vmm.m, &vmm.nm, sizeof(*vmm.m), (size_t)i);
	}
	pthread_mutex_unlock(&vmm.lock);
	return shim_call(&c);
}

/* A location the program names for access: a device of the session's, or the host's. */
static CUresult location_ok(const CUmemLocation *l)
{
	if (l->type == CU_MEM_LOCATION_TYPE_DEVICE)
		return l->id >= 0 && l->id < shim.ndev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
	if (l->type == CU_MEM_LOCATION_TYPE_HOST || l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
		return CUDA_SUCCESS;
	return CUDA_ERROR_INVALID_VALUE;
}

/*
 * Access is set over mappings that lie side by side.  A mapping no device
 * may reach is no range for copies and fills (memory.c).  The host
 * locations are the server's host, which only its driver keeps.
 */
CUresult shim_cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc,
			     size_t count)
{
	struct gl_a_cuMemSetAccess a = { .ptr = ptr, .size = size, .count = count };
	struct gleam_access_desc d[GLEAM_ACCESS_DESC_MAX];
	struct shim_call c;
	struct iovec iov;
	size_t n = 0;
	CUresult r;
	long i;

	r = shim_begin_io(&c, GL_FN_cuMemSetAccess, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	if (!desc || !count || count > GLEAM_ACCESS_DESC_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t k = 0; k < count; k++) {
		unsigned int f = desc[k].flags;

		r = location_ok(&desc[k].location);
		if (r)
			return r;
		if (f != CU_MEM_ACCESS_FLAGS_PROT_NONE && f != CU_MEM_ACCESS_FLAGS_PROT_READ &&
		    f != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			return CUDA_ERROR_INVALID_VALUE;
		d[k] = (struct gleam_access_desc){ desc[k].location.type, desc[k].location.id, f, 0 };
	}
	i = maps_lock(ptr, size, false, &n);
	if (i < 0)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t j = (size_t)i; j < (size_t)i + n; j++) {
		struct vmap *m = &vmm.m[j];
		bool any = false;

		for (size_t k = 0; k < count; k++)
			if (desc[k].location.type == CU_MEM_LOCATION_TYPE_DEVICE)
				m->access[desc[k].location.id] = (unsigned char)desc[k].flags;
		for (int dv = 0; dv < shim.ndev && dv < GLEAM_GPUS_MAX_LOCAL; dv++)
			any = any || m->access[dv];
		shim_mem_range_flags(m->base, SHIM_RANGE_VMM | (any ? 0 : SHIM_RANGE_NOACCESS));
	}
	pthread_mutex_unlock(&vmm.lock);
	iov.iov_base = d;
	iov.iov_len = count * sizeof(d[0]);
	return shim_call_iov(&c, &iov);
}

CUresult shim_cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location,
			     CUdeviceptr ptr)
{
	CUresult r;
	long i;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!flags || !location)
		return CUDA_ERROR_INVALID_VALUE;
	r = location_ok(location);
	if (r)
		return r;
	if (location->type != CU_MEM_LOCATION_TYPE_DEVICE)
		return SHIM_REFUSE("cuMemGetAccess: the access of the server's host is not kept by "
				   "Gleam: returning CUDA_ERROR_NOT_SUPPORTED");
	pthread_mutex_lock(&vmm.lock);
	i = map_of(ptr);
	if (i >= 0)
		*flags = vmm.m[i].access[location->id];
	pthread_mutex_unlock(&vmm.lock);
	return i >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult shim_cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
						     CUmemGenericAllocationHandle handle)
{
	struct shim_vmh *h;
	CUresult r;

	r = vmh_get(handle, &h);
	if (r)
		return r;
	if (!prop || !h->refs)
		return CUDA_ERROR_INVALID_VALUE;
	*prop = h->prop;
	return CUDA_SUCCESS;
}

/*
 * The handle behind a mapped address is the one the program mapped (the
 * driver promises the same value).  Retained while the program holds it
 * anyway, it costs nothing; retained after its last release, while still
 * mapped, the worker's driver retains it again, so that both count one
 * reference.  The record carries the address after its argument block.
 */
CUresult shim_cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
	struct gl_a_cuMemRetainAllocationHandle a = { 0 };
	struct shim_vmh *h = NULL;
	uint64_t at = (uintptr_t)addr;
	struct shim_call c;
	struct iovec iov = { &at, sizeof(at) };
	bool again;
	CUresult r;
	long i;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vmm.lock);
	i = map_of(at);
	if (i >= 0) {
		h = vmm.m[i].h;
		again = !h->refs++;
	}
	pthread_mutex_unlock(&vmm.lock);
	if (!h)
		return CUDA_ERROR_INVALID_VALUE;
	*handle = (CUmemGenericAllocationHandle)(uintptr_t)h;
	if (!again)
		return CUDA_SUCCESS;
	r = shim_begin_io(&c, GL_FN_cuMemRetainAllocationHandle, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	a.handle = h->o.id;
	return shim_call_iov(&c, &iov);
}

/* The handle types the allocation mapped at p may be exported as; false when none is mapped there. */
bool shim_vmm_handle_types(uint64_t p, unsigned long long *types)
{
	long i;

	pthread_mutex_lock(&vmm.lock);
	i = map_of(p);
	if (i >= 0)
		*types = vmm.m[i].h->prop.requestedHandleTypes;
	pthread_mutex_unlock(&vmm.lock);
	return i >= 0;
}

/*
 * A shareable handle is a file descriptor, a Windows handle or a fabric
 * handle of the machine whose driver made it: none of this machine's can
 * reach memory on a GPU across the network, nor can one of this machine's
 * be imported there.
 */
CUresult shim_cuMemExportToShareableHandle(void *shareable, CUmemGenericAllocationHandle handle,
					   CUmemAllocationHandleType type, unsigned long long flags)
{
	struct shim_vmh *h;
	CUresult r;

	r = vmh_get(handle, &h);
	if (r)
		return r;
	if (!shareable || flags)
		return CUDA_ERROR_INVALID_VALUE;
	return SHIM_REFUSE("cuMemExportToShareableHandle: memory on a GPU across the network "
			   "cannot be shared through a handle of this machine: returning "
			   "CUDA_ERROR_NOT_SUPPORTED");
}

CUresult shim_cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *os_handle,
					     CUmemAllocationHandleType type)
{
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	return SHIM_REFUSE("cuMemImportFromShareableHandle: a handle of this machine cannot "
			   "bring memory to a GPU across the network: returning "
			   "CUDA_ERROR_NOT_SUPPORTED");
}

/* ---- the shim's own mappings (twin.c) ---- */

static CUresult map_own(uint64_t base, uint64_t size, uint64_t id, int dev)
{
	struct gl_a_cuMemMap m = { .ptr = base, .size = size, .handle = id };
	struct gl_a_cuMemSetAccess s = { .ptr = base, .size = size, .count = 1 };
	struct gleam_access_desc d = { CU_MEM_LOCATION_TYPE_DEVICE, dev,
				       CU_MEM_ACCESS_FLAGS_PROT_READWRITE, 0 };
	struct iovec iov = { &d, sizeof(d) };
	CUresult r = send_own(GL_FN_cuMemMap, &m, sizeof(m), NULL, 0);

	if (!r)
		r = send_own(GL_FN_cuMemSetAccess, &s, sizeof(s), &iov, 1);
	return r;
}

/*
 * Address space of the shim's own on the server, size bytes aligned to
 * align, at hint where that is free there: outside the program's
 * bookkeeping.
 */
CUresult shim_vmm_reserve_own(uint64_t hint, uint64_t size, uint64_t align, uint64_t *addr)
{
	bool was = shim_ungated;
	CUresult r = shim_conn_error();

	if (r)
		return r;
	shim_ungated = true;
	r = reserve(size, align, hint, 0, addr);
	shim_ungated = was;
	return r;
}

void shim_vmm_unreserve_own(uint64_t addr, uint64_t size)
{
	free_range(addr, size);
}

/*
 * Device memory on dev for the shim's own use, in two halves so that a
 * question asked in between shares the allocation's wait: the allocation
 * is asked for (its answer not waited for), then mapped at base, or given
 * back where base is 0.  size is a multiple of the granularity.  The
 * handle is released once mapped, so that unmapping frees the memory.
 */
CUresult shim_vmm_own_begin(uint64_t size, int dev, struct shim_own *o)
{
	CUmemAllocationProp p = { .type = CU_MEM_ALLOCATION_TYPE_PINNED,
				  .location = { CU_MEM_LOCATION_TYPE_DEVICE, dev } };
	struct gleam_mem_prop g;
	bool was = shim_ungated;
	CUresult r = shim_conn_error();

	memset(o, 0, sizeof(*o));
	if (r)
		return r;
	prop_pack(&p, &g);
	o->h = (struct shim_vmh *)shim_obj_new(GL_H_MEMHANDLE);
	if (!o->h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	shim_ungated = true;
	r = create(o->h, size, &g, 0, &o->made, &o->gran);
	shim_ungated = was;
	if (r) {
		shim_obj_put(&o->h->o);
		o->h = NULL;
	}
	return r;
}

CUresult shim_vmm_own_end(struct shim_own *o, uint64_t base, uint64_t size, int dev)
{
	bool was = shim_ungated;
	CUresult r = CUDA_SUCCESS;

	if (!o->h)
		return CUDA_ERROR_INVALID_VALUE;
	shim_ungated = true;
	if (o->made)
		r = shim_pending_wait(o->made);
	shim_ungated = was;
	/* Made: mapped where there is a place, and the handle given back either way. */
	if (!r) {
		r = base ? map_own(base, size, o->h->o.id, dev) : CUDA_ERROR_OUT_OF_MEMORY;
		release(o->h->o.id);
	}
	shim_obj_put(&o->h->o);
	o->h = NULL;
	return r;
}

/*
 * Device memory on dev for the shim's own use in a reservation of its own,
 * as near at as the server can (at itself, where that is free there): the
 * allocation's answer comes with the reservation's, one wait for both.
 */
CUresult shim_vmm_own(uint64_t at, uint64_t size, int dev, uint64_t *addr)
{
	struct shim_own o;
	uint64_t base = 0;
	CUresult r = shim_vmm_own_begin(size, dev, &o);

	if (r)
		return r;
	r = shim_vmm_reserve_own(at, size, 0, &base);
	if (r)
		base = 0;
	r = shim_vmm_own_end(&o, base, size, dev) ?: r;
	if (r && base)
		free_range(base, size);
	if (!r)
		*addr = base;
	return r;
}

/* The server's mapping goes, and its range too unless it is to be kept (reserved). */
void shim_vmm_own_free(uint64_t addr, uint64_t size, bool keep_range)
{
	struct gl_a_cuMemUnmap u = { .ptr = addr, .size = size };

	send_own(GL_FN_cuMemUnmap, &u, sizeof(u), NULL, 0);
	if (!keep_range)
		free_range(addr, size);
}
