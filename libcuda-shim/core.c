// SPDX-License-Identifier: MIT
/*
 * Initialisation, devices, handles, error names and cuGetProcAddress.
 * Everything here is answered from the shim's own state: the server told
 * it all it needs about the devices in its reply to cuInit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gleam_local.h"
#include "shim.h"
#include "util.h"

struct shim_state shim = {
	.once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.async = true,
};

/* ---- handles ---- */

static uint64_t next_id = 16;	/* 0, 1, 2 are the special streams */
static struct shim_obj *free_objs[GL_H_LIMIT];

static size_t obj_size(unsigned int kind)
{
	switch (kind) {
	case GL_H_CTX:
		return sizeof(struct shim_ctx);
	case GL_H_STREAM:
		return sizeof(struct shim_stream);
	case GL_H_GRAPH:
		return sizeof(struct shim_graph);
	case GL_H_GRAPHEXEC:
		return sizeof(struct shim_exec);
	case GL_H_MEMPOOL:
		return sizeof(struct shim_pool);
	case GL_H_FUNC:
	case GL_H_KERNEL:
		return sizeof(struct shim_func);
	case GL_H_MODULE:
	case GL_H_LIBRARY:
		return sizeof(struct shim_module);
	case GL_H_ARRAY:
		return sizeof(struct shim_array);
	case GL_H_MIPMAP:
		return sizeof(struct shim_mipmap);
	case GL_H_GRAPHNODE:
		return shim_gnode_size();
	case GL_H_LINK:
		return shim_link_size();
	case GL_H_MEMHANDLE:
		return sizeof(struct shim_vmh);
	default:
		return sizeof(struct shim_obj);
	}
}

/*
 * Objects are recycled, never returned to malloc, so that a stale handle
 * reads a dead or reused object, never unmapped memory: the driver itself
 * promises no more for a destroyed handle.
 */
struct shim_obj *shim_obj_new(unsigned int kind)
{
	struct shim_obj *o;
	struct shim_ctx *cur = shim_current();

	pthread_mutex_lock(&shim.lock);
	o = free_objs[kind];
	if (o)
		free_objs[kind] = o->next_free;
	pthread_mutex_unlock(&shim.lock);
	if (!o) {
		o = malloc(obj_size(kind));
		if (!o)
			return NULL;
	}
	memset(o, 0, obj_size(kind));
	o->kind = kind;
	o->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
	o->dev = cur ? cur->dev : 0;
	/* Not valid until shim_obj_created(): a failed creation leaves none. */
	o->magic = SHIM_OBJ_DEAD;
	return o;
}

void shim_obj_created(struct shim_obj *o)
{
	__atomic_store_n(&o->magic, SHIM_OBJ_MAGIC | o->kind, __ATOMIC_RELEASE);
}

void shim_obj_put(struct shim_obj *o)
{
	if (o->kind == GL_H_GRAPH) {
		shim_gnodes_graph_put((struct shim_graph *)o);
		shim_graph_stage_put(((struct shim_graph *)o)->stage);
		((struct shim_graph *)o)->stage = NULL;
	} else if (o->kind == GL_H_GRAPHEXEC) {
		shim_gnodes_exec_put((struct shim_exec *)o);
		shim_graph_stage_put(((struct shim_exec *)o)->stage);
		((struct shim_exec *)o)->stage = NULL;
	} else if (o->kind == GL_H_GRAPHNODE) {
		shim_gnode_put((struct shim_gnode *)o);
	} else if (o->kind == GL_H_LINK) {
		shim_link_put((struct shim_link *)o);
	}
	if (o->kind == GL_H_FUNC || o->kind == GL_H_KERNEL) {
		struct shim_func *f = (struct shim_func *)o;

		/* An answer on its way lands in the object's buffers: take it first. */
		shim_func_ready(f);
		if (!f->kernel)
			free(f->params);
		f->params = NULL;
	} else if (o->kind == GL_H_MODULE || o->kind == GL_H_LIBRARY) {
		shim_module_put((struct shim_module *)o);
	} else if (o->kind == GL_H_CTX) {
		shim_waits_ctx_put((struct shim_ctx *)o);
	} else if (o->kind == GL_H_MIPMAP) {
		shim_mipmap_put((struct shim_mipmap *)o);
	}
	o->magic = SHIM_OBJ_DEAD;
	pthread_mutex_lock(&shim.lock);
	o->next_free = free_objs[o->kind];
	free_objs[o->kind] = o;
	pthread_mutex_unlock(&shim.lock);
}

CUresult shim_obj_get(unsigned int kind, const void *h, struct shim_obj **out)
{
	const struct shim_obj *o = h;

	if (!o || ((uintptr_t)o & 7) || (uintptr_t)o < 4096 ||
	    __atomic_load_n(&o->magic, __ATOMIC_ACQUIRE) != (SHIM_OBJ_MAGIC | kind))
		return kind == GL_H_CTX ? CUDA_ERROR_INVALID_CONTEXT : CUDA_ERROR_INVALID_HANDLE;
	*out = (struct shim_obj *)o;
	return CUDA_SUCCESS;
}

CUresult shim_handle_id(unsigned int kind, const void *h, __u64 *id)
{
	struct shim_obj *o;
	CUresult r = shim_obj_get(kind, h, &o);

	if (!r)
		*id = o->id;
	return r;
}

__thread uint64_t shim_call_stream;
__thread struct shim_stream *shim_call_sobj;

CUresult shim_stream_resolve(CUstream s, int per_thread, uint64_t *id, struct shim_stream **st)
{
	struct shim_obj *o = NULL;
	CUresult r = CUDA_SUCCESS;

	if (!s)
		*id = per_thread ? (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD : 0;
	else if (s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
		*id = (uint64_t)(uintptr_t)s;
	else if (!(r = shim_obj_get(GL_H_STREAM, s, &o)))
		*id = o->id;
	*st = (struct shim_stream *)o;
	return r;
}

CUresult shim_stream_id(CUstream s, int per_thread, __u64 *id)
{
	struct shim_stream *st;
	uint64_t v;
	CUresult r = shim_stream_resolve(s, per_thread, &v, &st);

	if (!r) {
		*id = v;
		shim_call_stream = v + 1;
		shim_call_sobj = st;
	}
	return r;
}

/* ---- initialisation ---- */

/*
 * What the server's GPU can do with its own machine's memory, it cannot do
 * with this one's: a kernel there cannot read this process's pageable
 * memory, share its page tables or make atomics coherent with its CPU.
 * Managed memory and mapped page-locked memory are offered (twin.c) where
 * the server has the virtual memory functions they are built of, but
 * kept in step at synchronisations only: the GPU and this process may not
 * use managed memory at the same time, and the process does not reach it
 * directly while the GPU may (concurrent and direct managed access are
 * 0); a registered range's device address may differ from its own.  And
 * no handle this machine could share reaches memory on the server
 * (cuMemExportToShareableHandle).  The attributes say so here, whatever
 * the server's driver answered, so that a program (or cudart, which asks
 * before a copy or a capture) does not count on more.
 */
static void host_reach(int32_t *attr)
{
	static const CUdevice_attribute none[] = {
		CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS,
		CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES,
		CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED,
		CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM,
		CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
		CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST,
		CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
		CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED,
		CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED,
		CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED,
	};
	static const CUdevice_attribute twins[] = {
		CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY,
		CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY,
	};
	bool vmm = attr[CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED] == 1;

	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (attr[none[i]] != GLEAM_ATTR_INVALID)
			attr[none[i]] = 0;
	for (size_t i = 0; i < sizeof(twins) / sizeof(twins[0]); i++)
		if (attr[twins[i]] != GLEAM_ATTR_INVALID && !vmm)
			attr[twins[i]] = 0;
}

/* cuInit to the server of device dev1 - 1 (0: the session's one server). */
static CUresult init_ask(int dev1, struct gleam_init_reply *rep, struct gleam_devinfo *di,
			 size_t cap)
{
	struct gl_a_cuInit args = { 0 };
	struct shim_call c = { .fn = GL_FN_cuInit, .dev1 = dev1 };

	/* Host functions and device output run here, where the server can. */
	args.Flags = GLEAM_INIT_ASK_HOST;
	c.args = &args;
	c.args_len = sizeof(args);
	c.out = rep;
	c.out_len = sizeof(*rep);
	c.outbuf = di;
	c.outbuf_len = cap;
	c.force_sync = true;
	return shim_call(&c);
}

/*
 * A session over several servers: each server answers for its own devices
 * (the others' are empty in its answer), so device i is taken from the
 * answer of its route; host functions need them all, clusters too.
 */
static CUresult init_span(struct gleam_init_reply *rep, struct gleam_devinfo *di, size_t cap)
{
	unsigned int nr = shim_span_nroutes();
	struct gleam_init_reply rr;
	struct gleam_devinfo *dr = calloc(1, cap);
	CUresult r = CUDA_SUCCESS;

	if (!dr)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (unsigned int route = 0; !r && route < nr; route++) {
		int dev = 0;

		while (dev < GLEAM_LOCAL_ROUTES_MAX && shim_span_dev_route(dev) != route)
			dev++;
		memset(&rr, 0, sizeof(rr));
		r = init_ask(dev + 1, &rr, dr, cap);
		if (r)
			break;
		if (rr.ndev > GLEAM_GPUS_MAX_LOCAL || (route && rr.ndev != rep->ndev)) {
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		}
		if (!route) {
			*rep = rr;
		} else {
			rep->flags &= rr.flags;
		}
		for (unsigned int i = 0; i < rr.ndev; i++) {
			if (shim_span_dev_route((int)i) != route)
				continue;
			di[i] = dr[i];
			if (rr.flags & GLEAM_INIT_F_CLUSTERS)
				memcpy((char *)(di + rr.ndev) + i * sizeof(struct gleam_cluster_table),
				       (const char *)(dr + rr.ndev) +
				       i * sizeof(struct gleam_cluster_table),
				       sizeof(struct gleam_cluster_table));
		}
	}
	free(dr);
	return r;
}

static void shim_init_once(void)
{
	struct gleam_init_reply rep = { 0 };
	struct gleam_devinfo *di;
	size_t cap = GLEAM_GPUS_MAX_LOCAL * (sizeof(*di) + sizeof(struct gleam_cluster_table));
	CUresult r;

	if (!gl_env_bool("GLEAM_ASYNC", true))
		shim.async = false;
	if (gl_env_bool("GLEAM_TRACE_WAITS", false))
		shim_trace_waits = true;
	if (gl_env_bool("GLEAM_DEBUG", false)) {
		gl_log_level = 2;
		shim_trace = true;
	}
	gl_log_prefix = "libcuda(gleam)";
	shim_transport_tune();
	r = shim_connect();
	if (r) {
		shim.init_result = r;
		return;
	}
	di = calloc(1, cap);
	if (!di) {
		shim.init_result = CUDA_ERROR_OUT_OF_MEMORY;
		return;
	}
	r = shim_span_nroutes() > 1 ? init_span(&rep, di, cap) : init_ask(0, &rep, di, cap);
	/* gleamd could not serve the session (it said why): no device, as CUDA says it. */
	if (r && shim_conn_error())
		r = CUDA_ERROR_NO_DEVICE;
	if (!r && (rep.ndev > GLEAM_GPUS_MAX_LOCAL))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r) {
		free(di);
		shim.init_result = r;
		return;
	}
	shim.driver_version = rep.driver_version;
	shim.host = rep.flags & GLEAM_INIT_F_HOST;
	shim.ndev = (int)rep.ndev;
	shim.dev = calloc(rep.ndev ? rep.ndev : 1, sizeof(*shim.dev));
	if (!shim.dev) {
		free(di);
		shim.init_result = CUDA_ERROR_OUT_OF_MEMORY;
		return;
	}
	for (unsigned int i = 0; i < rep.ndev; i++) {
		shim.dev[i].info = di[i];
		shim.dev[i].info.name[sizeof(di[i].name) - 1] = 0;
		host_reach(shim.dev[i].info.attr);
		/* After the devices, how clusters fit each (occupancy). */
		if (rep.flags & GLEAM_INIT_F_CLUSTERS) {
			memcpy(&shim.dev[i].clusters, (const char *)(di + rep.ndev) +
			       i * sizeof(struct gleam_cluster_table), sizeof(shim.dev[i].clusters));
			shim.dev[i].have_clusters = true;
		}
	}
	free(di);
	shim.initialised = true;
}

CUresult shim_cuInit(unsigned int Flags)
{
	if (Flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_once(&shim.once, shim_init_once);
	return shim.init_result;
}

CUresult shim_cuDriverGetVersion(int *v)
{
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	/* Answerable before cuInit, as the driver does; the server's once known. */
	*v = shim.initialised ? shim.driver_version : CUDA_VERSION;
	return CUDA_SUCCESS;
}

CUresult shim_dev_check(CUdevice dev)
{
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev < 0 || dev >= shim.ndev)
		return CUDA_ERROR_INVALID_DEVICE;
	return CUDA_SUCCESS;
}

CUresult shim_send(unsigned int fn, const void *args, size_t len, const struct iovec *iov,
		   int niov)
{
	struct shim_call c;
	CUresult r = shim_begin_io(&c, fn, args, len, NULL, 0);

	if (r)
		return r;
	c.iov = iov;
	c.niov = niov;
	return shim_call(&c);
}

CUresult shim_begin(struct shim_call *c, unsigned int fn)
{
	struct shim_ctx *ctx;

	memset(c, 0, sizeof(*c));
	c->fn = fn;
	shim_call_stream = 0;
	shim_call_sobj = NULL;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	ctx = shim_current();
	/*
	 * Contexts, libraries and their kernels, and memory pools need none
	 * current (the table's noctx); everything else does, and a context
	 * that failed fails it.
	 */
	if (!(gl_fn_traits(fn) & GL_T_NOCTX)) {
		if (!ctx)
			return CUDA_ERROR_INVALID_CONTEXT;
		if (ctx->o.magic != (SHIM_OBJ_MAGIC | GL_H_CTX))
			return CUDA_ERROR_CONTEXT_IS_DESTROYED;
		if (ctx->sticky)
			return ctx->sticky;
	}
	c->ctx = ctx ? ctx->o.id : 0;
	return shim_conn_error();
}

CUresult shim_cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r = shim_dev_check(ordinal);

	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (r)
		return r;
	*device = ordinal;
	return CUDA_SUCCESS;
}

/* shim_dev_check for a call that answers in *out, which must be there. */
static CUresult dev_out(CUdevice dev, const void *out)
{
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	return out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult shim_cuDeviceGetCount(int *count)
{
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	*count = shim.ndev;
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(name, (size_t)len, "%s", shim.dev[dev].info.name);
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	CUresult r = shim_dev_check(dev);
	int32_t v;

	if (r)
		return r;
	if (!pi || (unsigned int)attrib >= GLEAM_DEV_ATTR_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	v = shim.dev[dev].info.attr[attrib];
	if (v == GLEAM_ATTR_INVALID)
		return CUDA_ERROR_INVALID_VALUE;
	*pi = v;
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
	CUresult r = dev_out(dev, bytes);

	if (r)
		return r;
	*bytes = shim.dev[dev].info.total_mem;
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	CUresult r = dev_out(dev, uuid);

	if (r)
		return r;
	memcpy(uuid->bytes, shim.dev[dev].info.uuid, 16);
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	return shim_cuDeviceGetUuid(uuid, dev);
}

static int attr(CUdevice dev, CUdevice_attribute a)
{
	int32_t v = shim.dev[dev].info.attr[a];

	return v == GLEAM_ATTR_INVALID ? 0 : v;
}

CUresult shim_cuDeviceGetProperties(CUdevprop *p, CUdevice dev)
{
	CUresult r = dev_out(dev, p);

	if (r)
		return r;
	p->maxThreadsPerBlock = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	p->maxThreadsDim[0] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
	p->maxThreadsDim[1] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
	p->maxThreadsDim[2] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
	p->maxGridSize[0] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
	p->maxGridSize[1] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
	p->maxGridSize[2] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
	p->sharedMemPerBlock = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	p->totalConstantMemory = attr(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
	p->SIMDWidth = attr(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
	p->memPitch = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_PITCH);
	p->regsPerBlock = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
	p->clockRate = attr(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
	p->textureAlign = attr(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!major || !minor)
		return CUDA_ERROR_INVALID_VALUE;
	*major = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	*minor = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	return CUDA_SUCCESS;
}

CUresult shim_cuDeviceGetPCIBusId(char *bus, int len, CUdevice dev)
{
	CUresult r = shim_dev_check(dev);

	if (r)
		return r;
	if (!bus || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(bus, (size_t)len, "%08X:%02X:%02X.0",
		 attr(dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
		 attr(dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
		 attr(dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
	return CUDA_SUCCESS;
}

/* ---- unsupported functions ---- */

bool shim_trace;
bool shim_trace_waits;

void shim_trace_error(const char *name, CUresult r)
{
	const char *e = NULL;

	shim_cuGetErrorName(r, &e);
	gl_dbg("%s returned %s (%d)", name, e ? e : "an unknown error", (int)r);
}

extern unsigned char shim_unsupported_said[];
extern const unsigned int shim_unsupported_count;

CUresult shim_unsupported(unsigned int idx, const char *name)
{
	if (idx < shim_unsupported_count &&
	    !__atomic_exchange_n(&shim_unsupported_said[idx], 1, __ATOMIC_RELAXED))
		gl_err("%s is not supported by Gleam yet: returning CUDA_ERROR_NOT_SUPPORTED", name);
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* ---- cuGetProcAddress ---- */

static const struct shim_procaddr *pa_lookup(const char *sym, int version, bool pt)
{
	const struct shim_procaddr *best = NULL;
	unsigned int lo = 0, hi = shim_procaddr_count;

	/* The table is sorted by name: find the first row of sym. */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (strcmp(shim_procaddr_table[mid].name, sym) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (unsigned int i = lo; i < shim_procaddr_count &&
	     !strcmp(shim_procaddr_table[i].name, sym); i++) {
		const struct shim_procaddr *p = &shim_procaddr_table[i];

		if (p->version > version)
			continue;
		/* A per-thread variant only when asked; then preferred. */
		if ((p->flags & SHIM_PA_PT) && !pt)
			continue;
		if (!best || ((p->flags & SHIM_PA_PT) && !(best->flags & SHIM_PA_PT)) ||
		    (((p->flags ^ best->flags) & SHIM_PA_PT) == 0 && p->version > best->version))
			best = p;
	}
	return best;
}

CUresult shim_cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
				  cuuint64_t flags, CUdriverProcAddressQueryResult *status)
{
	const struct shim_procaddr *p;
	bool pt = flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;

	if (!symbol || !pfn)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM |
				  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
		return CUDA_ERROR_INVALID_VALUE;
	p = pa_lookup(symbol, cudaVersion, pt);
	if (!p) {
		gl_dbg("cuGetProcAddress: no %s for version %d", symbol, cudaVersion);
		*pfn = NULL;
		if (status)
			*status = pa_lookup(symbol, 1 << 30, pt) ?
				  CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT :
				  CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
		return status ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
	}
	*pfn = p->fn;
	if (status)
		*status = CU_GET_PROC_ADDRESS_SUCCESS;
	return CUDA_SUCCESS;
}

CUresult shim_cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
			       cuuint64_t flags)
{
	return shim_cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, NULL);
}
