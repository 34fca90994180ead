// SPDX-License-Identifier: MIT
/*
 * The cuda backend: NVIDIA's libcuda.so.1, loaded by path with dlopen so
 * that gleamd builds and runs where there is no GPU.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cluster_probe.h"
#include "util.h"
#include "worker.h"

static struct {
	CUresult (*ctx_set_current)(CUcontext);
	CUresult (*ctx_get_device)(CUdevice *);
	CUresult (*driver_version)(int *);
	CUresult (*dev_count)(int *);
	CUresult (*dev_get)(CUdevice *, int);
	CUresult (*dev_name)(char *, int, CUdevice);
	CUresult (*dev_uuid)(CUuuid *, CUdevice);
	CUresult (*dev_mem)(size_t *, CUdevice);
	CUresult (*dev_attr)(int *, CUdevice_attribute, CUdevice);
	CUresult (*func_param)(CUfunction, size_t, size_t *, size_t *);
	CUresult (*func_attr)(int *, CUfunction_attribute, CUfunction);
	CUresult (*kern_param)(CUkernel, size_t, size_t *, size_t *);
	CUresult (*kern_attr)(int *, CUfunction_attribute, CUkernel, CUdevice);
	/* The occupancy calls the cluster probe needs (the shim answers the rest). */
	CUresult (*max_blocks)(int *, CUfunction, int, size_t);
	CUresult (*max_clusters)(int *, CUfunction, const CUlaunchConfig *);
	/* Page-locking the reply ring (cuda_pin_replies): optional. */
	CUresult (*ctx_get_current)(CUcontext *);
	CUresult (*host_register)(void *, size_t, unsigned int);
} x;

struct gl_backend gl_backend_cuda_rw;

/* Where NVIDIA's driver is installed, first match wins. */
static const char *const lib_paths[] = {
	"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	"/usr/local/nvidia/lib64/libcuda.so.1",
	"/usr/lib64/libcuda.so.1",
	"/usr/local/cuda/compat/libcuda.so.1",
	"libcuda.so.1",
};

static void *open_driver(const char *path)
{
	void *h;

	if (path && *path)
		return dlopen(path, RTLD_NOW | RTLD_LOCAL);
	for (size_t i = 0; i < ARRAY_SIZE(lib_paths); i++) {
		h = dlopen(lib_paths[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	return NULL;
}

#define SYM(field, name) \
	do { \
		*(void **)&(field) = dlsym(h, name); \
		if (!(field)) { \
			gl_err("NVIDIA's driver lacks %s", name); \
			return CUDA_ERROR_NOT_FOUND; \
		} \
	} while (0)

static CUresult cuda_init(const char *lib)
{
	struct gl_backend *b = &gl_backend_cuda_rw;
	void *h = open_driver(lib);

	if (!h) {
		gl_err("cannot load NVIDIA's libcuda.so.1%s%s: %s", lib ? " from " : "",
		       lib ? lib : "", dlerror());
		return CUDA_ERROR_NO_DEVICE;
	}
#define X(name, sym) SYM(b->op.f_##name, sym);
	GL_BACKEND_FUNCS(X)
#undef X
	SYM(x.ctx_set_current, "cuCtxSetCurrent");
	SYM(x.ctx_get_device, "cuCtxGetDevice");
	SYM(x.driver_version, "cuDriverGetVersion");
	SYM(x.dev_count, "cuDeviceGetCount");
	SYM(x.dev_get, "cuDeviceGet");
	SYM(x.dev_name, "cuDeviceGetName");
	SYM(x.dev_uuid, "cuDeviceGetUuid_v2");
	SYM(x.dev_mem, "cuDeviceTotalMem_v2");
	SYM(x.dev_attr, "cuDeviceGetAttribute");
	SYM(x.func_param, "cuFuncGetParamInfo");
	SYM(x.func_attr, "cuFuncGetAttribute");
	SYM(x.kern_param, "cuKernelGetParamInfo");
	SYM(x.kern_attr, "cuKernelGetAttribute");
	SYM(x.max_blocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
	SYM(x.max_clusters, "cuOccupancyMaxActiveClusters");
	*(void **)&x.ctx_get_current = dlsym(h, "cuCtxGetCurrent");
	*(void **)&x.host_register = dlsym(h, "cuMemHostRegister_v2");
	return CUDA_SUCCESS;
}

static CUresult cuda_devices(int *ver, struct gleam_devinfo *d, unsigned int max, unsigned int *n)
{
	int count = 0;
	CUresult r = x.driver_version(ver);

	if (!r)
		r = x.dev_count(&count);
	if (r)
		return r;
	if ((unsigned int)count > max)
		count = (int)max;
	for (int i = 0; i < count; i++) {
		CUdevice dev;
		CUuuid u;
		size_t mem = 0;

		r = x.dev_get(&dev, i);
		if (r)
			return r;
		memset(&d[i], 0, sizeof(d[i]));
		x.dev_name(d[i].name, sizeof(d[i].name), dev);
		if (!x.dev_uuid(&u, dev))
			memcpy(d[i].uuid, u.bytes, 16);
		x.dev_mem(&mem, dev);
		d[i].total_mem = mem;
		for (int a = 0; a < GLEAM_DEV_ATTR_MAX; a++) {
			int v = 0;

			d[i].attr[a] = x.dev_attr(&v, (CUdevice_attribute)a, dev) ? GLEAM_ATTR_INVALID : v;
		}
		d[i].nattr = GLEAM_DEV_ATTR_MAX;
	}
	*n = (unsigned int)count;
	return CUDA_SUCCESS;
}

static CUresult cuda_set_current(CUcontext c)
{
	return x.ctx_set_current(c);
}

/* Parameters are found by asking for each index until the driver refuses. */
static CUresult info(void *f, bool kernel, struct gleam_funcinfo *fi, struct gleam_param *p,
		     unsigned int max)
{
	CUdevice dev = 0;
	unsigned int i;

	if (kernel)
		x.ctx_get_device(&dev);
	for (i = 0; i < max; i++) {
		size_t off, size;
		CUresult r = kernel ? x.kern_param(f, i, &off, &size) : x.func_param(f, i, &off, &size);

		if (r)
			break;
		p[i].offset = (uint32_t)off;
		p[i].size = (uint32_t)size;
		if (off + size > fi->params_size)
			fi->params_size = (uint32_t)(off + size);
	}
	fi->nparams = i;
	for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX && a < GLEAM_FUNC_ATTR_MAX; a++) {
		int v = 0;

		if (kernel)
			x.kern_attr(&v, (CUfunction_attribute)a, f, dev);
		else
			x.func_attr(&v, (CUfunction_attribute)a, f);
		fi->attr[a] = v;
	}
	return CUDA_SUCCESS;
}

static CUresult cuda_func_info(CUfunction f, struct gleam_funcinfo *fi, struct gleam_param *p,
			       unsigned int max)
{
	return info(f, false, fi, p, max);
}

static CUresult cuda_kernel_info(CUkernel k, struct gleam_funcinfo *fi, struct gleam_param *p,
				 unsigned int max)
{
	return info(k, true, fi, p, max);
}

/*
 * The driver counts used memory per device, not per process: this is
 * the device's total less its free memory, other processes included, on
 * the device of the current context.
 */
static bool cuda_mem_in_use(unsigned int *dev, uint64_t *bytes)
{
	size_t free_b = 0, total = 0;
	CUdevice d;

	if (x.ctx_get_device(&d) || gl_backend_cuda_rw.op.f_cuMemGetInfo(&free_b, &total) ||
	    d < 0 || free_b > total)
		return false;
	*dev = (unsigned int)d;
	*bytes = total - free_b;
	return true;
}

/* The cluster table of device dev (cluster_probe.h), in its primary context. */
static CUresult cuda_cluster_table(int dev, struct gleam_cluster_table *t)
{
	const struct gl_backend_ops *op = &gl_backend_cuda_rw.op;
	const struct gl_cluster_probe_ops ops = {
		.module_load_data = op->f_cuModuleLoadData,
		.module_unload = op->f_cuModuleUnload,
		.module_get_function = op->f_cuModuleGetFunction,
		.func_set_attribute = op->f_cuFuncSetAttribute,
		.func_get_attribute = x.func_attr,
		.max_blocks = x.max_blocks,
		.max_clusters = x.max_clusters,
	};
	int major = 0, optin = 0;
	CUcontext ctx;
	CUdevice d;
	CUresult r = x.dev_get(&d, dev);

	if (!r)
		r = x.dev_attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
	if (!r)
		r = x.dev_attr(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, d);
	if (r)
		return r;
	/* Clusters came with compute capability 9.0. */
	if (major < 9)
		return CUDA_ERROR_NOT_SUPPORTED;
	r = op->f_cuDevicePrimaryCtxRetain(&ctx, d);
	if (r)
		return r;
	r = x.ctx_set_current(ctx);
	if (!r)
		r = gl_cluster_probe_with(&ops, optin, t);
	x.ctx_set_current(NULL);
	op->f_cuDevicePrimaryCtxRelease(d);
	return r;
}

/*
 * n bytes at p page-locked for every context (PORTABLE) once a context is
 * current: asked again only when another context is, since a registration
 * goes with the context that made it.  A refusal is said once (what says
 * which copies then go through the driver's staging); true when p is
 * page-locked for the current context.
 */
struct pinned {
	CUcontext ctx;
	bool ok, said;
};

static bool pin_area(struct pinned *pn, void *p, size_t n, const char *what)
{
	CUcontext c = NULL;
	CUresult r;

	if (!x.ctx_get_current || !x.host_register || x.ctx_get_current(&c) || !c)
		return false;
	if (c == pn->ctx)
		return pn->ok;
	r = x.host_register(p, n, CU_MEMHOSTREGISTER_PORTABLE);
	pn->ctx = c;
	pn->ok = r == CUDA_SUCCESS || r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	if (!pn->ok && !pn->said)
		gl_info("cannot page-lock the %s (CUresult %d)", what, (int)r);
	pn->said |= !pn->ok;
	return pn->ok;
}

/*
 * The reply ring: copies to the host are written into it by the device's
 * DMA; refused, they go through the driver's staging as before.
 */
static void cuda_pin_replies(void *p, size_t n)
{
	static struct pinned replies;

	pin_area(&replies, p, n, "reply ring: copies to the host go through the driver's staging");
}

/*
 * The record ring's second mapping: copies to the device that complete
 * before the worker goes on read it by DMA (wk_custom.c, htod()).
 */
static bool cuda_pin_records(void *p, size_t n)
{
	static struct pinned records;

	return pin_area(&records, p, n,
			"record ring: copies to the device go through the driver's staging");
}

struct gl_backend gl_backend_cuda_rw = {
	.name = "cuda",
	.init = cuda_init,
	.devices = cuda_devices,
	.set_current = cuda_set_current,
	.func_info = cuda_func_info,
	.kernel_info = cuda_kernel_info,
	.mem_in_use = cuda_mem_in_use,
	.cluster_table = cuda_cluster_table,
	.pin_replies = cuda_pin_replies,
	.pin_records = cuda_pin_records,
};
