// SPDX-License-Identifier: MIT
/*
 * The sim backend's core (sim.h says what the sim is): its devices and
 * their attributes, its state and objects, contexts, the ops table the
 * worker calls (gl_backend_sim_rw) and what the worker asks beyond it.
 */
#include <stdlib.h>
#include <string.h>

#include "cubin.h"
#include "cudarules.h"
#include "sim_array.h"
#include "sim_kernels.h"
#include "util.h"
#include "sim.h"

/*
 * What the sim does not implement (the generated sim_stubs_gen.c answers
 * for it): CUDA_ERROR_NOT_SUPPORTED, and the function's name once per
 * worker on stderr.
 */
CUresult sim_unsupported(unsigned int fn)
{
	static uint64_t said[(GL_FN_LIMIT + 63) / 64];
	uint64_t bit = 1ull << (fn % 64);

	if (fn < GL_FN_LIMIT && !(__atomic_fetch_or(&said[fn / 64], bit, __ATOMIC_RELAXED) & bit))
		gl_err("sim: %s: not implemented by the sim backend", gl_fn_name(fn));
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* The sim device's multiprocessors (what the test programs print). */
#define SIM_SMS		4u

static unsigned int sim_ngpus(void)
{
	static unsigned int n;

	if (!n) {
		const char *e = getenv("GLEAM_SIM_GPUS");
		unsigned long v = e ? strtoul(e, NULL, 10) : 1;

		n = v < 1 ? 1 : v > SIM_GPUS_MAX ? SIM_GPUS_MAX : (unsigned int)v;
	}
	return n;
}

/*
 * Device memory GPU g offers: 16 GiB, or $GLEAM_SIM_MEM bytes; a list
 * separated by commas gives each GPU its own, the last for those after.
 */
uint64_t sim_mem_total(unsigned int g)
{
	static uint64_t total[SIM_GPUS_MAX];

	if (g >= SIM_GPUS_MAX)
		g = SIM_GPUS_MAX - 1;
	if (!total[g]) {
		const char *e = getenv("GLEAM_SIM_MEM");
		uint64_t v = 16ull << 30;

		for (unsigned int i = 0; e && *e; i++) {
			char *end;
			uint64_t x = strtoull(e, &end, 0);

			if (x)
				v = x;
			if (i == g || *end != ',')
				break;
			e = end + 1;
		}
		total[g] = v;
	}
	return total[g];
}

/*
 * GPU g's UUID: 51 52 ... 5f, then 60 + g, as when each server had the
 * same ones, but with bytes 8 to 11 taken from GLEAM_SIM_SEED (the server
 * sets it from its listen address, so that two sim servers' GPUs differ,
 * as two machines' GPUs do); unset or 0, they stay 59 5a 5b 5c.
 */
void sim_uuid(uint8_t *uuid, unsigned int g)
{
	const char *e = getenv("GLEAM_SIM_SEED");
	uint32_t seed = e ? (uint32_t)strtoul(e, NULL, 0) : 0;

	for (int b = 0; b < 16; b++)
		uuid[b] = (uint8_t)(0x51 + b);
	for (int b = 0; seed && b < 4; b++)
		uuid[8 + b] = (uint8_t)(seed >> (24 - 8 * b));
	uuid[15] = (uint8_t)(0x60 + g);
}

/*
 * The devices this process sees: every GPU of the sim, or those of its
 * session's that its server has, in the order given (a GPU past the
 * sim's own ends the list, as CUDA_VISIBLE_DEVICES does on the driver).
 * They are numbered as NVIDIA's driver numbers what CUDA_VISIBLE_DEVICES
 * shows it, this server's only: the worker renumbers the session's
 * devices (worker.h), so that the sim meets the numbers the driver does.
 */
static unsigned int sim_ndev(void)
{
	unsigned int n = wk_ngpus();

	if (!n)
		return sim_ngpus();
	for (unsigned int i = 0; i < n; i++)
		if (wk_server_gpu(i) >= sim_ngpus())
			return i;
	return n;
}

bool sim_dev_ok(CUdevice dev)
{
	return dev >= 0 && (unsigned int)dev < sim_ndev();
}

struct sim_state sim;

bool sim_is(const void *h, uint32_t kind)
{
	const struct sim_obj *o = h;

	/* Special handles (the legacy and per-thread streams) are no objects. */
	if ((uintptr_t)h < 4096 || ((uintptr_t)h & 7))
		return false;
	return o->magic == SIM_MAGIC && o->kind == kind;
}

void *sim_obj_new(size_t size, uint32_t kind)
{
	struct sim_obj *o = calloc(1, size);

	if (o) {
		o->magic = SIM_MAGIC;
		o->kind = kind;
	}
	return o;
}

void sim_obj_free(void *h)
{
	((struct sim_obj *)h)->magic = 0;
	free(h);
}

/* Every call needs a live context and fails with its sticky error. */
CUresult sim_ctx_ok(void)
{
	if (!sim.cur)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (sim.cur->primary && sim.cur->refs <= 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	return sim.cur->sticky;
}

/*
 * The sim's GPUs are shared by the workers of their server: the time of
 * spin_ns kernels is queued on its GPU after what the other sessions
 * queued there, and every other kernel and copy counts the time it took,
 * so that the server can say how busy each GPU was (Documentation/sim.md).
 */
unsigned int sim_dev(void)
{
	return sim.cur ? (unsigned int)sim.cur->dev : 0;
}

void sim_ran_since(uint64_t t0)
{
	wk_gpu_ran(sim_dev(), gl_now_ns() - t0);
}

/* Without a profiler attached the driver accepts the marks and does nothing. */
CUresult sim_cuProfilerStart(void)
{
	CTX_OK();
	return CUDA_SUCCESS;
}

CUresult sim_cuProfilerStop(void)
{
	CTX_OK();
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxResetPersistingL2Cache(void)
{
	CTX_OK();
	return CUDA_SUCCESS;
}

/* 2^28 elements of any format, as the H200 answers. */
CUresult sim_cuDeviceGetTexture1DLinearMaxWidth(size_t *w, CUarray_format fmt, unsigned int nch,
						CUdevice dev)
{
	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (nch != 1 && nch != 2 && nch != 4)
		return CUDA_ERROR_INVALID_VALUE;
	*w = 1u << 28;
	return CUDA_SUCCESS;
}

/* Execution affinity (an SM count per context) needs MPS, which the sim has not. */
CUresult sim_cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev)
{
	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if ((unsigned int)type >= CU_EXEC_AFFINITY_TYPE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	*pi = 0;
	return CUDA_SUCCESS;
}

/* ---- contexts ---- */

CUresult sim_cuInit(unsigned int flags)
{
	return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static void ctx_defaults(struct sim_ctx *c)
{
	static const size_t lim[8] = { 1024, 1048576, 8388608, 2, 2048, 32, 0, 0 };

	memcpy(c->limit, lim, sizeof(lim));
	c->sticky = CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	struct sim_ctx *p = &sim.primary[sim_dev_ok(dev) ? dev : 0];

	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!p->o.magic) {
		p->o = (struct sim_obj){ SIM_MAGIC, K_CTX };
		p->primary = true;
		p->dev = dev;
	}
	if (p->refs++ == 0)
		ctx_defaults(p);
	*pctx = (CUcontext)p;
	return CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxRelease(CUdevice dev)
{
	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (sim.primary[dev].refs <= 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	sim.primary[dev].refs--;
	return CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxReset(CUdevice dev)
{
	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	sim.primary[dev].refs = 0;
	sim.primary[dev].flags = 0;
	return CUDA_SUCCESS;
}

CUresult sim_cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	sim.primary[dev].flags = flags;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	struct sim_ctx *c;

	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	c = sim_obj_new(sizeof(*c), K_CTX);
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->flags = flags;
	c->dev = dev;
	ctx_defaults(c);
	sim.cur = c;
	*pctx = (CUcontext)c;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *p, unsigned int flags, CUdevice dev)
{
	return p ? CUDA_ERROR_NOT_SUPPORTED : sim_cuCtxCreate(pctx, flags, dev);
}

CUresult sim_cuCtxDestroy(CUcontext h)
{
	if (!sim_is(h, K_CTX) || ((struct sim_ctx *)h)->primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	/* As the driver, it waits for its work: its host functions return first. */
	sim_host_wait_ctx((struct sim_ctx *)h);
	if (sim.cur == (struct sim_ctx *)h)
		sim.cur = NULL;
	sim_obj_free(h);
	return CUDA_SUCCESS;
}

static CUresult set_current(CUcontext h)
{
	if (h && !sim_is(h, K_CTX))
		return CUDA_ERROR_INVALID_CONTEXT;
	sim.cur = (struct sim_ctx *)h;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxSynchronize(void)
{
	CUresult r;

	CTX_OK();
	r = sim_ctx_sync_check(sim.cur);
	if (r)
		return r;
	sim_host_wait_ctx(sim.cur);
	sim_pools_settle();
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxSynchronize_v2(CUcontext h)
{
	struct sim_ctx *c = h ? (struct sim_ctx *)h : sim.cur;
	CUresult r;

	if (!c || !sim_is(c, K_CTX))
		return CUDA_ERROR_INVALID_CONTEXT;
	r = c->sticky ? c->sticky : sim_ctx_sync_check(c);
	if (r)
		return r;
	sim_host_wait_ctx(c);
	sim_pools_settle();
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxGetApiVersion(CUcontext h, unsigned int *v)
{
	if (h && !sim_is(h, K_CTX))
		return CUDA_ERROR_INVALID_CONTEXT;
	*v = 3020;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxGetLimit(size_t *v, CUlimit l)
{
	CTX_OK();
	if ((unsigned int)l >= CU_LIMIT_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	*v = sim.cur->limit[l];
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxSetLimit(CUlimit l, size_t v)
{
	CTX_OK();
	/* The shared memory size and whether the context is CIG are only read. */
	if ((unsigned int)l >= CU_LIMIT_MAX || l == CU_LIMIT_SHMEM_SIZE || l == CU_LIMIT_CIG_ENABLED)
		return CUDA_ERROR_INVALID_VALUE;
	sim.cur->limit[l] = v;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxGetFlags(unsigned int *flags)
{
	CTX_OK();
	*flags = sim.cur->flags;
	return CUDA_SUCCESS;
}

CUresult sim_cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
	CTX_OK();
	*least = 0;
	*greatest = -5;
	return CUDA_SUCCESS;
}

/* ---- what the worker asks beyond the table ---- */

static CUresult sim_init(const char *lib)
{
	return CUDA_SUCCESS;
}

/* The sim device's attributes; the rest are 0. */
static const struct { int a, v; } sim_attrs[] = {
	{ CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64 },
	{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647 },
	{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535 },
	{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535 },
	{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152 },
	{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448 },
	{ CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536 },
	{ CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32 },
	{ CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647 },
	{ CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536 },
	{ CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1000000 },
	{ CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, SIM_SMS },
	{ CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9 },
	{ CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 },
	{ CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1 },
	{ CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048 },
	/* Each multiprocessor an H200's, so that occupancy answers as there. */
	{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 233472 },
	{ CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32 },
	{ CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, 1024 },
	{ CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 1 },
	{ CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 1 },
	/* As a GPU whose host has HMM says of its own machine's memory. */
	{ CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 1 },
	{ CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1 },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1 },
	{ CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1 },
	/* The virtual memory functions (sim_vmm.c), device memory only. */
	{ CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1 },
	{ CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 1 },
};

void sim_dev_attrs(int32_t *attr)
{
	for (size_t a = 0; a < ARRAY_SIZE(sim_attrs); a++)
		attr[sim_attrs[a].a] = sim_attrs[a].v;
	sim_array_attrs(attr);
}

static CUresult sim_devices(int *ver, struct gleam_devinfo *d, unsigned int max, unsigned int *n)
{
	*ver = CUDA_VERSION;
	*n = 0;
	for (unsigned int i = 0; i < sim_ndev() && i < max; i++, d++) {
		unsigned int g = wk_server_gpu(i);

		/* GPU 0 is named as when the sim had one GPU; the tests know it so. */
		memset(d, 0, sizeof(*d));
		*n = i + 1;
		if (g)
			snprintf(d->name, sizeof(d->name), "Gleam sim device %u", g);
		else
			snprintf(d->name, sizeof(d->name), "Gleam sim device");
		sim_uuid(d->uuid, g);
		d->total_mem = sim_mem_total(g);
		sim_dev_attrs(d->attr);
		d->nattr = GLEAM_DEV_ATTR_MAX;
	}
	return CUDA_SUCCESS;
}

static CUresult sim_func_info(CUfunction h, struct gleam_funcinfo *fi, struct gleam_param *p,
			      unsigned int max)
{
	struct sim_func *f = (struct sim_func *)h;

	if (!sim_is(h, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	if (f->gk) {
		int32_t dev[GLEAM_DEV_ATTR_MAX] = { 0 };

		sim_dev_attrs(dev);
		fi->nparams = MIN(f->gk->nparams, max);
		fi->params_size = f->gk->params_size;
		memcpy(p, f->gk->params, fi->nparams * sizeof(*p));
		gl_func_attrs(dev, &f->gk->res, fi->attr);
		return CUDA_SUCCESS;
	}
	fi->nparams = MIN(f->nparams, max);
	fi->params_size = f->params_size;
	memcpy(p, f->p, fi->nparams * sizeof(*p));
	fi->attr[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = 1024;
	fi->attr[CU_FUNC_ATTRIBUTE_NUM_REGS] = 32;
	fi->attr[CU_FUNC_ATTRIBUTE_PTX_VERSION] = 90;
	fi->attr[CU_FUNC_ATTRIBUTE_BINARY_VERSION] = 90;
	fi->attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES] = 49152;
	return CUDA_SUCCESS;
}

static CUresult sim_kernel_info(CUkernel k, struct gleam_funcinfo *fi, struct gleam_param *p,
				unsigned int max)
{
	return sim_func_info((CUfunction)k, fi, p, max);
}

/* Exact and cheap: asked after every record.  The current context's device. */
static bool sim_mem_in_use(unsigned int *dev, uint64_t *bytes)
{
	if (!sim.cur && !sim.used)
		return false;
	*dev = sim.cur ? (unsigned int)sim.cur->dev : 0;
	*bytes = sim.used;
	return true;
}

/*
 * The sim's multiprocessors as two processing clusters of half of them
 * each; in a cluster launch an SM holds at most eight blocks, as the H200
 * counts them.
 */
static CUresult sim_cluster_table(int dev, struct gleam_cluster_table *t)
{
	for (unsigned int b = 1; b <= GLEAM_CLUSTER_BLOCKS_MAX; b++)
		for (unsigned int c = 1; c <= GLEAM_CLUSTER_SIZE_MAX; c++)
			t->active[b - 1][c - 1] = (uint16_t)(2 * (SIM_SMS / 2 * MIN(b, 8u) / c));
	return CUDA_SUCCESS;
}

struct gl_backend gl_backend_sim_rw = {
	.name = "sim",
	.init = sim_init,
	.devices = sim_devices,
	.set_current = set_current,
	.func_info = sim_func_info,
	.kernel_info = sim_kernel_info,
	.mem_in_use = sim_mem_in_use,
	.mem_exact = true,
	.cluster_table = sim_cluster_table,
	.op = {
#define X(name, sym) .f_##name = sim_##name,
		GL_BACKEND_FUNCS(X)
#undef X
	},
};

/* ---- what the CUDA runtime asks beyond the above ---- */

/*
 * The sim's devices share the worker's memory: any two of them are peers
 * (sim_vmm.c copies between them), and none is a peer of itself.
 */
CUresult sim_cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	if (!sim_dev_ok(dev) || !sim_dev_ok(peer))
		return CUDA_ERROR_INVALID_DEVICE;
	*can = dev != peer;
	return CUDA_SUCCESS;
}

CUresult sim_cuDeviceGetP2PAttribute(int *v, CUdevice_P2PAttribute a, CUdevice src, CUdevice dst)
{
	if (!sim_dev_ok(src) || !sim_dev_ok(dst) || src == dst)
		return CUDA_ERROR_INVALID_DEVICE;
	switch (a) {
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
	case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
		*v = 0;
		return CUDA_SUCCESS;
	case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
		*v = 1;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}
