// SPDX-License-Identifier: MIT
/*
 * What the CUDA runtime (cudart) asks beyond the rest of the shim, host
 * memory: registrations kept locally, and pointer attributes answered from
 * the shim's allocations, registrations and twins.
 */
#include <stddef.h>
#include <stdlib.h>

#include "export.h"
#include "cudarules.h"
#include "shim.h"
#include "util.h"
#include "entry.h"

/* ---- host memory registration ---- */

/*
 * There is nothing to pin on a machine without the GPU: copies from any
 * host memory go through the ring.  Registration is kept so that what the
 * driver would say about the memory (pointer attributes, double or missing
 * registrations) is said here too.  Mapped into the device's address
 * space (CU_MEMHOSTREGISTER_DEVICEMAP), the range gets a twin (twin.c):
 * device memory of the session's, kept in step with these pages.  I/O
 * memory cannot be mapped across a network, and is refused.
 */
struct host_reg {
	uintptr_t base;
	size_t size;
	unsigned int flags;
	uint64_t ctx;		/* id of the context current at registration */
	CUdevice dev;
	struct host_reg *next;
};

static struct {
	pthread_mutex_t lock;
	struct host_reg *list;
} regs = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The registration holding p, copied out; false if none. */
static bool reg_find(uintptr_t p, struct host_reg *out)
{
	bool found = false;

	pthread_mutex_lock(&regs.lock);
	for (struct host_reg *h = regs.list; h; h = h->next) {
		if (p - h->base < h->size) {
			*out = *h;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&regs.lock);
	return found;
}

bool shim_host_registered(const void *p)
{
	struct host_reg reg;

	return reg_find((uintptr_t)p, &reg);
}

bool shim_host_reg_of(const void *p, void **base, size_t *size)
{
	struct host_reg reg;

	if (!reg_find((uintptr_t)p, &reg))
		return false;
	*base = (void *)reg.base;
	*size = reg.size;
	return true;
}

CUresult shim_cuMemHostRegister(void *p, size_t size, unsigned int flags)
{
	struct host_reg *h;
	struct shim_ctx *c;
	uintptr_t b = (uintptr_t)p;
	unsigned int f;
	CUresult r = shim_require_ctx(&c);

	if (r)
		return r;
	if (!p || !size || b + size < b)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & ~(unsigned int)(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
				    CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY))
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
		return SHIM_REFUSE("cuMemHostRegister: I/O memory cannot be mapped into a GPU across "
			      "the network: returning CUDA_ERROR_NOT_SUPPORTED");
	if (!shim_cuMemHostGetFlags(&f, p) || !shim_cuMemHostGetFlags(&f, (char *)p + size - 1))
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	h = malloc(sizeof(*h));
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*h = (struct host_reg){ .base = b, .size = size, .flags = flags, .ctx = c->o.id,
				.dev = c->dev };
	pthread_mutex_lock(&regs.lock);
	for (struct host_reg *o = regs.list; o; o = o->next) {
		if (b < o->base + o->size && o->base < b + size) {
			pthread_mutex_unlock(&regs.lock);
			free(h);
			return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
		}
	}
	h->next = regs.list;
	regs.list = h;
	pthread_mutex_unlock(&regs.lock);
	if (flags & CU_MEMHOSTREGISTER_DEVICEMAP) {
		r = shim_twin_over(SHIM_TWIN_REGISTERED, p, size, flags, NULL);
		if (r)
			shim_cuMemHostUnregister(p);
	}
	return r;
}

CUresult shim_cuMemHostUnregister(void *p)
{
	struct host_reg **pp, *h = NULL;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&regs.lock);
	for (pp = &regs.list; *pp; pp = &(*pp)->next) {
		if ((*pp)->base == (uintptr_t)p) {
			h = *pp;
			*pp = h->next;
			break;
		}
	}
	pthread_mutex_unlock(&regs.lock);
	if (!h)
		return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	if (atomic_load(&shim_twins))
		shim_twin_free(SHIM_TWIN_REGISTERED, h->base);
	free(h);
	return CUDA_SUCCESS;
}

/* ---- pointer attributes ---- */

/* What the shim knows about an address. */
struct ptr_info {
	CUmemorytype type;	/* 0: not memory the driver knows */
	uintptr_t base;
	size_t size;
	CUdevice dev;		/* -1: not known */
	struct shim_ctx *ctx;	/* NULL: not known */
	bool twin;		/* mapped or managed memory: both addresses below */
	bool managed;
	uint64_t devptr, hostptr;
};

/*
 * Managed memory is device memory that the host reaches at the same
 * address; mapped page-locked memory is host memory that kernels reach at
 * its twin's address (twin.c).
 */
static bool twin_info(CUdeviceptr p, struct ptr_info *pi)
{
	struct shim_twin_info ti;
	uint64_t off;

	if (!atomic_load(&shim_twins) || !shim_twin_find(p, &ti))
		return false;
	off = p - ti.host < ti.size ? p - ti.host : p - ti.dev;
	pi->twin = true;
	pi->managed = ti.kind == SHIM_TWIN_MANAGED;
	pi->type = pi->managed ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	pi->base = pi->managed ? ti.dev : ti.host;
	pi->size = ti.size;
	pi->dev = ti.devno;
	pi->devptr = ti.dev + off;
	pi->hostptr = ti.host + off;
	return true;
}

static void ptr_info(CUdeviceptr p, struct ptr_info *pi)
{
	struct host_reg reg;
	CUdeviceptr base;
	void *hb = NULL;
	size_t size;

	memset(pi, 0, sizeof(*pi));
	pi->dev = -1;
	if (twin_info(p, pi)) {
		/* pi is filled */
	} else if (!shim_cuMemGetAddressRange(&base, &size, p)) {
		pi->type = CU_MEMORYTYPE_DEVICE;
		pi->base = base;
		pi->size = size;
		/* The allocation's device is not kept: certain only with one device. */
		if (shim.ndev == 1)
			pi->dev = 0;
	} else if (reg_find(p, &reg)) {
		pi->type = CU_MEMORYTYPE_HOST;
		pi->base = reg.base;
		pi->size = reg.size;
		pi->dev = reg.dev;
	} else if (shim_host_alloc_of((void *)p, &hb, &size)) {
		/* Page-locked memory: one look-up for its kind and its range. */
		pi->type = CU_MEMORYTYPE_HOST;
		pi->base = (uintptr_t)hb;
		pi->size = size;
		if (shim.ndev == 1)
			pi->dev = 0;
	}
	if (pi->dev >= 0)
		pi->ctx = shim_ctx_of_device(pi->dev);
}

/*
 * One attribute of known memory (pi->type != 0) into data.  An attribute
 * whose answer the shim does not have is refused, naming it once.
 */
static CUresult ptr_attr(const struct ptr_info *pi, CUpointer_attribute a, CUdeviceptr p,
			 void *data)
{
	bool dev = pi->type == CU_MEMORYTYPE_DEVICE;

	switch (a) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		if (!pi->ctx)
			return SHIM_REFUSE("cuPointerGetAttribute: the context of memory is known only "
				      "with one device that has no context but the primary one: "
				      "returning CUDA_ERROR_NOT_SUPPORTED");
		*(CUcontext *)data = (CUcontext)pi->ctx;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		if (pi->dev < 0)
			return SHIM_REFUSE("cuPointerGetAttribute: the device of memory is known only "
				      "with one device: returning CUDA_ERROR_NOT_SUPPORTED");
		*(int *)data = pi->dev;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned int *)data = pi->type;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		/* Host memory has no device address, but for a twin's: the GPU is elsewhere. */
		if (pi->twin) {
			*(CUdeviceptr *)data = pi->devptr;
			return CUDA_SUCCESS;
		}
		if (!dev)
			return CUDA_ERROR_INVALID_VALUE;
		*(CUdeviceptr *)data = p;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (pi->twin) {
			*(void **)data = (void *)(uintptr_t)pi->hostptr;
			return CUDA_SUCCESS;
		}
		if (dev)
			return CUDA_ERROR_INVALID_VALUE;
		*(void **)data = (void *)p;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*(unsigned int *)data = pi->managed;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
		*(unsigned int *)data = 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*(unsigned int *)data = dev || pi->twin;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		if (!pi->size)
			break;
		*(CUdeviceptr *)data = pi->base;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		if (!pi->size)
			break;
		*(size_t *)data = pi->size;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*(CUmemoryPool *)data = dev ? shim_mem_pool(p) : NULL;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		/*
		 * What the memory may be exported as: what its handle was made
		 * for, where it is mapped through the virtual memory functions;
		 * nothing, for what cuMemAlloc and the page-locked allocators give.
		 */
		if (!shim_vmm_handle_types(p, (unsigned long long *)data))
			*(unsigned long long *)data = CU_MEM_HANDLE_TYPE_NONE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		/* cuFFT asks it of its work areas: device memory's, the shim's own count. */
		if (!dev)
			break;
		*(unsigned long long *)data = shim_mem_buffer_id(p);
		return CUDA_SUCCESS;
	default:
		break;
	}
	{
		static unsigned char said[64];

		if ((unsigned int)a < ARRAY_SIZE(said) &&
		    !__atomic_exchange_n(&said[a], 1, __ATOMIC_RELAXED))
			gl_err("cuPointerGetAttribute: attribute %d is not supported by Gleam: "
			       "returning CUDA_ERROR_NOT_SUPPORTED", (int)a);
	}
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult shim_cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p)
{
	struct ptr_info pi;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	ptr_info(p, &pi);
	if (!pi.type)
		return CUDA_ERROR_INVALID_VALUE;
	return ptr_attr(&pi, a, p, data);
}

/* The size of an attribute's answer, for the defaults of unknown memory. */
static size_t attr_size(CUpointer_attribute a)
{
	switch (a) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		return sizeof(void *);
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
	case CU_POINTER_ATTRIBUTE_MAPPED:
		return sizeof(unsigned int);
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		return sizeof(int);
	default:
		return 0;
	}
}

/*
 * Unlike the single form, memory the driver does not know is no error:
 * its attributes read as zeros, but for a device ordinal of -2 and a host
 * pointer that is the address itself, as NVIDIA's driver reports them.
 * Attributes that do not apply to known memory read as zeros too.
 */
CUresult shim_cuPointerGetAttributes(unsigned int n, CUpointer_attribute *attrs, void **data,
				     CUdeviceptr p)
{
	struct ptr_info pi;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!n || !attrs || !data)
		return CUDA_ERROR_INVALID_VALUE;
	ptr_info(p, &pi);
	for (unsigned int i = 0; i < n; i++) {
		size_t sz = attr_size(attrs[i]);
		CUresult r;

		if (!data[i])
			return CUDA_ERROR_INVALID_VALUE;
		if (!pi.type && sz) {
			memset(data[i], 0, sz);
			if (attrs[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
				*(int *)data[i] = -2;
			if (attrs[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER)
				*(void **)data[i] = (void *)p;
			continue;
		}
		r = pi.type ? ptr_attr(&pi, attrs[i], p, data[i]) : CUDA_ERROR_NOT_SUPPORTED;
		if (r == CUDA_ERROR_INVALID_VALUE && sz) {
			memset(data[i], 0, sz);
			r = CUDA_SUCCESS;
		}
		if (r)
			return r;
	}
	return CUDA_SUCCESS;
}
