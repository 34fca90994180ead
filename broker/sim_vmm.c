// SPDX-License-Identifier: MIT
/*
 * The sim's virtual memory management, peer copies and peer access.
 *
 * Device memory is the worker's memory, so the sim does what a GPU's
 * driver does with its page tables in the worker's address space: a
 * reservation is address space held with no access (PROT_NONE), an
 * allocation (a handle) shared anonymous pages, and a mapping those same
 * pages again at the reserved address (mremap() with an old size of zero
 * maps shared pages a second time), so that one allocation mapped twice
 * is one memory, as on a GPU.  Mappings are entries of sim.a like any
 * allocation, and side by side they are one range (sim_mem()).  The
 * granularity is 2 MiB, an H200's.
 *
 * The sim's GPUs share the worker's memory, so every two of them are
 * peers, and a peer copy is a copy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"
#include "sim.h"

#define SIM_GRAN	(2ull << 20)
/* The largest reservation: 1 TiB. */
#define SIM_RESERVE_MAX	(1ull << 40)

struct sim_vmh {
	struct sim_vmh *next;
	unsigned char *home;	/* the allocation's pages, mapped where mmap() put them */
	uint64_t size;
	unsigned int maps;
	bool released;
};

struct sim_resv {
	struct sim_resv *next;
	uint64_t base, size;
};

struct sim_vmap {
	struct sim_vmap *next;
	uint64_t base, size;
	struct sim_vmh *h;
	bool access;
};

struct sim_peer {
	struct sim_peer *next;
	struct sim_ctx *ctx, *peer;
};

static struct {
	struct sim_vmh *h;
	struct sim_resv *r;
	struct sim_vmap *m;
	struct sim_peer *p;
} vm;

/* ---- lookups ---- */

static struct sim_vmh *vmh_of(CUmemGenericAllocationHandle handle)
{
	for (struct sim_vmh *h = vm.h; h; h = h->next)
		if ((uintptr_t)h == handle)
			return h;
	return NULL;
}

static struct sim_resv *resv_of(uint64_t p, uint64_t len)
{
	for (struct sim_resv *r = vm.r; r; r = r->next)
		if (p - r->base < r->size && len <= r->size - (p - r->base))
			return r;
	return NULL;
}

static struct sim_vmap *map_of(uint64_t p)
{
	for (struct sim_vmap *m = vm.m; m; m = m->next)
		if (p - m->base < m->size)
			return m;
	return NULL;
}

/*
 * Whether [p, p + len) is mappings side by side; whole: exactly whole
 * ones.  Each is handed to fn, which may free it, if fn is given.
 */
static bool maps_over(uint64_t p, uint64_t len, bool whole, void (*fn)(struct sim_vmap *, void *),
		      void *arg)
{
	uint64_t end = p + len, at;
	struct sim_vmap *m = map_of(p);

	if (!m || !len || end < p || (whole && m->base != p))
		return false;
	at = m->base;
	while (at < end) {
		m = map_of(at);
		if (!m || m->base != at)
			return false;
		at += m->size;
	}
	if (whole && at != end)
		return false;
	for (at = map_of(p)->base; fn && at < end; ) {
		struct sim_vmap *next = map_of(at);

		at += next->size;
		fn(next, arg);
	}
	return true;
}

/* ---- allocations ---- */

static void vmh_free(struct sim_vmh *h)
{
	for (struct sim_vmh **pp = &vm.h; *pp; pp = &(*pp)->next) {
		if (*pp == h) {
			*pp = h->next;
			break;
		}
	}
	munmap(h->home, h->size);
	sim.used -= MIN(sim.used, h->size);
	free(h);
}

static CUresult prop_ok(const CUmemAllocationProp *p)
{
	if (!p || p->type != CU_MEM_ALLOCATION_TYPE_PINNED)
		return CUDA_ERROR_INVALID_VALUE;
	if (p->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_NOT_SUPPORTED;	/* the sim has no host allocations */
	if (!sim_dev_ok(p->location.id))
		return CUDA_ERROR_INVALID_DEVICE;
	if (p->requestedHandleTypes & ~(unsigned int)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_NOT_SUPPORTED;
	return CUDA_SUCCESS;
}

CUresult sim_cuMemGetAllocationGranularity(size_t *g, const CUmemAllocationProp *prop,
					   CUmemAllocationGranularity_flags option)
{
	CUresult r = prop_ok(prop);

	if (r)
		return r;
	if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
	    option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
		return CUDA_ERROR_INVALID_VALUE;
	*g = SIM_GRAN;
	return CUDA_SUCCESS;
}

CUresult sim_cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
			 const CUmemAllocationProp *prop, unsigned long long flags)
{
	uint64_t total;
	struct sim_vmh *h;
	CUresult r = prop_ok(prop);

	if (r)
		return r;
	if (flags || !size || size % SIM_GRAN)
		return CUDA_ERROR_INVALID_VALUE;
	total = sim_mem_total(wk_server_gpu((unsigned int)prop->location.id));
	if (size > total || sim.used > total - size)
		return CUDA_ERROR_OUT_OF_MEMORY;
	h = calloc(1, sizeof(*h));
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	h->home = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (h->home == MAP_FAILED) {
		free(h);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	h->size = size;
	h->next = vm.h;
	vm.h = h;
	sim.used += size;
	*handle = (CUmemGenericAllocationHandle)(uintptr_t)h;
	return CUDA_SUCCESS;
}

/* The memory goes when the handle is released and no mapping is left. */
CUresult sim_cuMemRelease(CUmemGenericAllocationHandle handle)
{
	struct sim_vmh *h = vmh_of(handle);

	if (!h || h->released)
		return CUDA_ERROR_INVALID_VALUE;
	h->released = true;
	if (!h->maps)
		vmh_free(h);
	return CUDA_SUCCESS;
}

/* A released handle still mapped is held again. */
CUresult sim_cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
	struct sim_vmap *m = map_of((uintptr_t)addr);

	if (!handle || !m)
		return CUDA_ERROR_INVALID_VALUE;
	m->h->released = false;
	*handle = (CUmemGenericAllocationHandle)(uintptr_t)m->h;
	return CUDA_SUCCESS;
}

/* ---- reservations ---- */

/*
 * GLEAM_SIM_VA_BASE=ADDRESS: reservations from the lowest free address
 * at or above ADDRESS (rounded down to a multiple of align), addresses
 * given back taken again first, as a driver with a device address range
 * of its own does.  With a program whose own pages lie there (its
 * executable, under setarch -R), the shim meets a server whose
 * addresses it holds already.  MAP_FAILED when unset or nothing is free.
 */
static unsigned char *from_base(uint64_t size, uint64_t align)
{
	const char *e = getenv("GLEAM_SIM_VA_BASE");
	uint64_t at;

	if (!e || !*e)
		return MAP_FAILED;
	at = strtoull(e, NULL, 0) & ~(align - 1);
	for (int i = 0; i < 4096 && at && at + size > at; i++, at += align) {
		void *p = mmap((void *)(uintptr_t)at, size, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (p == MAP_FAILED)
			continue;
		if ((uintptr_t)p == at)
			return p;
		munmap(p, size);
	}
	return MAP_FAILED;
}

CUresult sim_cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t align, CUdeviceptr addr,
				 unsigned long long flags)
{
	uint64_t a = MAX((uint64_t)align, SIM_GRAN), head;
	struct sim_resv *r;
	unsigned char *p = MAP_FAILED;

	if (flags || !size || size % 4096 || (align & (align - 1)) || addr % 4096 ||
	    size + a < size)
		return CUDA_ERROR_INVALID_VALUE;
	/* Address space is cheap, but the worker's is not the program's to exhaust. */
	if (size > SIM_RESERVE_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = calloc(1, sizeof(*r));
	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/*
	 * The address asked for, where it is free here; elsewhere otherwise.
	 * GLEAM_SIM_VA_HINTS=0: hints are never taken, as by a driver whose
	 * device addresses come from a range of its own (how the shim copes
	 * with that is tested so).
	 */
	if (addr && !(addr % a) && gl_env_bool("GLEAM_SIM_VA_HINTS", true)) {
		p = mmap((void *)(uintptr_t)addr, size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED && (uintptr_t)p != addr) {
			munmap(p, size);
			p = MAP_FAILED;
		}
	}
	if (p == MAP_FAILED)
		p = from_base(size, a);
	if (p == MAP_FAILED) {
		p = mmap(NULL, size + a, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			 0);
		if (p == MAP_FAILED) {
			free(r);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		head = (a - ((uintptr_t)p & (a - 1))) & (a - 1);
		if (head)
			munmap(p, head);
		munmap(p + head + size, a - head);
		p += head;
	}
	r->base = (uintptr_t)p;
	r->size = size;
	r->next = vm.r;
	vm.r = r;
	*ptr = (CUdeviceptr)r->base;
	return CUDA_SUCCESS;
}

/* The entry of sim.a for mapping m, or -1. */
static long entry_of(const struct sim_vmap *m)
{
	long i = gl_find_le(sim.a, sim.n, sizeof(sim.a[0]), m->base);

	return i >= 0 && sim.a[i].base == m->base && sim.a[i].vmm ? i : -1;
}

static void unmap_one(struct sim_vmap *m, void *arg)
{
	long i = entry_of(m);

	(void)arg;
	if (i >= 0)
		sim_alloc_remove(i);
	/* The address space goes back to the reservation. */
	mmap((void *)(uintptr_t)m->base, m->size, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	for (struct sim_vmap **pp = &vm.m; *pp; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	}
	if (!--m->h->maps && m->h->released)
		vmh_free(m->h);
	free(m);
}

/* Mappings left in a freed range are unmapped with it. */
CUresult sim_cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	struct sim_resv **pp, *r = NULL;

	for (pp = &vm.r; *pp; pp = &(*pp)->next) {
		if ((*pp)->base == ptr && (*pp)->size == size) {
			r = *pp;
			*pp = r->next;
			break;
		}
	}
	if (!r)
		return CUDA_ERROR_INVALID_VALUE;
	for (struct sim_vmap *m = vm.m, *next; m; m = next) {
		next = m->next;
		if (m->base - ptr < size)
			unmap_one(m, NULL);
	}
	munmap((void *)(uintptr_t)ptr, size);
	free(r);
	return CUDA_SUCCESS;
}

/* ---- mappings ---- */

CUresult sim_cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
		      CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	struct sim_alloc e = { .base = ptr, .size = size, .vmm = SIM_VMM_NOACCESS };
	struct sim_vmh *h = vmh_of(handle);
	struct sim_vmap *m;
	void *p;

	if (!h || h->released || flags || !size || (ptr | offset) % SIM_GRAN ||
	    offset > h->size || size > h->size - offset || !resv_of(ptr, size))
		return CUDA_ERROR_INVALID_VALUE;
	/* Part of a granule: the driver says it cannot, not that it is wrong. */
	if (size % SIM_GRAN)
		return CUDA_ERROR_NOT_SUPPORTED;
	for (m = vm.m; m; m = m->next)
		if (m->base < ptr + size && ptr < m->base + m->size)
			return CUDA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m || sim_alloc_insert(&e)) {
		free(m);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	p = mremap(h->home + offset, 0, size, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)(uintptr_t)ptr);
	if (p != (void *)(uintptr_t)ptr) {
		fprintf(stderr, "gleamd: sim: cuMemMap: mremap: %s\n", strerror(errno));
		sim_alloc_remove(gl_find_le(sim.a, sim.n, sizeof(sim.a[0]), ptr));
		free(m);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	m->base = ptr;
	m->size = size;
	m->h = h;
	m->next = vm.m;
	vm.m = m;
	h->maps++;
	return CUDA_SUCCESS;
}

/* A mapping goes whole: the range is mappings side by side, exactly. */
CUresult sim_cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	if (!maps_over(ptr, size, true, NULL, NULL))
		return CUDA_ERROR_INVALID_VALUE;
	maps_over(ptr, size, true, unmap_one, NULL);
	return CUDA_SUCCESS;
}

static void set_access(struct sim_vmap *m, void *arg)
{
	bool *any = arg;
	long i = entry_of(m);

	m->access = *any;
	if (i >= 0)
		sim.a[i].vmm = *any ? SIM_VMM_MAPPED : SIM_VMM_NOACCESS;
}

/*
 * The sim's devices all reach the worker's memory: a mapping is
 * accessible when the last setting gave some device access, and the
 * range checks of copies, fills and kernels (sim_mem()) refuse it before.
 */
CUresult sim_cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc,
			    size_t count)
{
	bool any = false;

	if (!desc || !count)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < count; i++) {
		unsigned int f = desc[i].flags;

		if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE)
			return CUDA_ERROR_INVALID_VALUE;
		if (!sim_dev_ok(desc[i].location.id))
			return CUDA_ERROR_INVALID_DEVICE;
		if (f != CU_MEM_ACCESS_FLAGS_PROT_NONE && f != CU_MEM_ACCESS_FLAGS_PROT_READ &&
		    f != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			return CUDA_ERROR_INVALID_VALUE;
		any = any || f;
	}
	if (!maps_over(ptr, size, false, NULL, NULL))
		return CUDA_ERROR_INVALID_VALUE;
	maps_over(ptr, size, false, set_access, &any);
	return CUDA_SUCCESS;
}

/* ---- peers ---- */

static struct sim_ctx *ctx_of(CUcontext h)
{
	return sim_is(h, K_CTX) ? (struct sim_ctx *)h : NULL;
}

CUresult sim_cuMemcpyPeer(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx,
			  size_t n)
{
	CUresult r;

	CTX_OK();
	if (!ctx_of(dctx) || !ctx_of(sctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	r = sim_legacy_work();
	return r ? r : sim_dtod(dst, src, n);
}

CUresult sim_cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx,
			       size_t n, CUstream s)
{
	CTX_OK();
	if (!ctx_of(dctx) || !ctx_of(sctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	return sim_cuMemcpyDtoDAsync(dst, src, n, s);
}

static struct sim_peer **peer_of(struct sim_ctx *ctx, struct sim_ctx *peer)
{
	struct sim_peer **pp;

	for (pp = &vm.p; *pp; pp = &(*pp)->next)
		if ((*pp)->ctx == ctx && (*pp)->peer == peer)
			break;
	return pp;
}

CUresult sim_cuCtxEnablePeerAccess(CUcontext h, unsigned int flags)
{
	struct sim_ctx *peer = ctx_of(h);
	struct sim_peer *p;

	CTX_OK();
	if (!peer || peer == sim.cur)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (peer->dev == sim.cur->dev)
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	if (*peer_of(sim.cur, peer))
		return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	p = calloc(1, sizeof(*p));
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	p->ctx = sim.cur;
	p->peer = peer;
	p->next = vm.p;
	vm.p = p;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxDisablePeerAccess(CUcontext h)
{
	struct sim_ctx *peer = ctx_of(h);
	struct sim_peer **pp, *p;

	CTX_OK();
	if (!peer)
		return CUDA_ERROR_INVALID_CONTEXT;
	pp = peer_of(sim.cur, peer);
	p = *pp;
	if (!p)
		return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	*pp = p->next;
	free(p);
	return CUDA_SUCCESS;
}
