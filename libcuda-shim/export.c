// SPDX-License-Identifier: MIT
/*
 * cuGetExportTable: the private tables the CUDA runtime (cudart) asks the
 * driver for before it does anything else.  Without them cudart refuses
 * to start, or aborts before main.  What each table and slot is, as far as
 * it is known, is in Documentation/export-tables.md.
 *
 * Each table has the size the real driver gives it (cudart reads the size
 * word), and every slot whose meaning is not known answers
 * CUDA_ERROR_NOT_SUPPORTED and says so once, naming table and slot: a
 * caller that jumps through a slot finds a function, never NULL.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "export.h"
#include "shim.h"
#include "util.h"

/* Entry points generated from the API table have no header of their own. */
CUresult shim_cuModuleLoadData(CUmodule *module, const void *image);
CUresult shim_cuDriverGetVersion(int *v);
CUresult shim_cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);

enum {
	T_CUDART,
	T_TLS,
	T_HOOKS,
	T_CLS,
	T_CHECKS,
	T_INTEGRITY,
	T_F8CF,
	T_TOOLSCTX,
	T_69A2,
	T_1734,
	T_6E16,
	T_COUNT
};

#define SLOTS_MAX	100

/* ---- slots nobody has described ---- */

static const char *const table_id[T_COUNT];
static unsigned char said[T_COUNT][SLOTS_MAX];

/*
 * The arguments are read as the first four integer registers, whatever the
 * slot really takes; GLEAM_DEBUG prints them, which is how a slot's meaning
 * starts to be found.
 */
static CUresult unknown_slot(unsigned int t, unsigned int n, uint64_t a, uint64_t b, uint64_t c,
			     uint64_t d)
{
	if (!__atomic_exchange_n(&said[t][n], 1, __ATOMIC_RELAXED))
		gl_err("export table %.8s slot %u is not supported by Gleam: "
		       "returning CUDA_ERROR_NOT_SUPPORTED", table_id[t], n);
	gl_dbg("export table %.8s slot %u called with %#llx %#llx %#llx %#llx", table_id[t], n,
	       (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
	       (unsigned long long)d);
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* One function per (table, slot), so that each can name itself. */
#define UNK(t, n)	static CUresult unk_##t##_##n(uint64_t a, uint64_t b, uint64_t c, \
						      uint64_t d) \
			{ return unknown_slot(t, n, a, b, c, d); }
#define UNK10(t, d)	UNK(t, d##0) UNK(t, d##1) UNK(t, d##2) UNK(t, d##3) UNK(t, d##4) \
			UNK(t, d##5) UNK(t, d##6) UNK(t, d##7) UNK(t, d##8) UNK(t, d##9)
#define UNKP(t, n)	unk_##t##_##n
#define UNKP10(t, d)	UNKP(t, d##0), UNKP(t, d##1), UNKP(t, d##2), UNKP(t, d##3), \
			UNKP(t, d##4), UNKP(t, d##5), UNKP(t, d##6), UNKP(t, d##7), \
			UNKP(t, d##8), UNKP(t, d##9)

typedef CUresult (*unk_fn)(uint64_t, uint64_t, uint64_t, uint64_t);

UNK10(T_CUDART, ) UNK10(T_CUDART, 1)
static const unk_fn unk_cudart[] = { UNKP10(T_CUDART, ), UNKP10(T_CUDART, 1) };

UNK10(T_CHECKS, ) UNK10(T_CHECKS, 1)
static const unk_fn unk_checks[] = { UNKP10(T_CHECKS, ), UNKP10(T_CHECKS, 1) };

UNK10(T_F8CF, )
static const unk_fn unk_f8cf[] = { UNKP10(T_F8CF, ) };

UNK10(T_TOOLSCTX, ) UNK10(T_TOOLSCTX, 1) UNK10(T_TOOLSCTX, 2) UNK10(T_TOOLSCTX, 3)
UNK10(T_TOOLSCTX, 4) UNK10(T_TOOLSCTX, 5) UNK10(T_TOOLSCTX, 6) UNK10(T_TOOLSCTX, 7)
UNK10(T_TOOLSCTX, 8) UNK10(T_TOOLSCTX, 9)
static const unk_fn unk_toolsctx[] = {
	UNKP10(T_TOOLSCTX, ), UNKP10(T_TOOLSCTX, 1), UNKP10(T_TOOLSCTX, 2),
	UNKP10(T_TOOLSCTX, 3), UNKP10(T_TOOLSCTX, 4), UNKP10(T_TOOLSCTX, 5),
	UNKP10(T_TOOLSCTX, 6), UNKP10(T_TOOLSCTX, 7), UNKP10(T_TOOLSCTX, 8),
	UNKP10(T_TOOLSCTX, 9),
};

UNK10(T_1734, ) UNK10(T_1734, 1)
static const unk_fn unk_1734[] = { UNKP10(T_1734, ), UNKP10(T_1734, 1) };

UNK10(T_6E16, ) UNK10(T_6E16, 1) UNK10(T_6E16, 2) UNK10(T_6E16, 3) UNK10(T_6E16, 4)
UNK10(T_6E16, 5)
static const unk_fn unk_6e16[] = {
	UNKP10(T_6E16, ), UNKP10(T_6E16, 1), UNKP10(T_6E16, 2), UNKP10(T_6E16, 3),
	UNKP10(T_6E16, 4), UNKP10(T_6E16, 5),
};

UNK10(T_69A2, ) UNK10(T_69A2, 1) UNK10(T_69A2, 2) UNK10(T_69A2, 3)
static const unk_fn unk_69a2[] = {
	UNKP10(T_69A2, ), UNKP10(T_69A2, 1), UNKP10(T_69A2, 2), UNKP10(T_69A2, 3),
};

#define SIZE_WORD(words)	((const void *)(uintptr_t)((words) * sizeof(void *)))

/* ---- 6bd5fb6c: CUDART_INTERFACE ---- */

/* Slot 1: a module from a fat-binary wrapper, as cuModuleLoadData would. */
static CUresult cudart_load_wrapper(CUmodule *out, const struct fatbin_wrapper *w)
{
	if (!out || !w || w->magic != FATBIN_WRAPPER_MAGIC || !w->data)
		return CUDA_ERROR_INVALID_VALUE;
	return shim_cuModuleLoadData(out, w->data);
}

/* Slot 2: the primary context's handle, not retained, not activated. */
static CUresult cudart_primary_ctx(CUcontext *out, CUdevice dev)
{
	return shim_primary_ctx(dev, out);
}

/* Slot 6: slot 1 with three more arguments whose meaning is unknown. */
static CUresult cudart_load_wrapper_ext(CUmodule *out, const struct fatbin_wrapper *w,
					void *a, void *b, unsigned int c)
{
	if (a || b || c)
		return unknown_slot(T_CUDART, 6, (uintptr_t)out, (uintptr_t)w, (uintptr_t)a,
				    (uintptr_t)b);
	return cudart_load_wrapper(out, w);
}

static void cudart_nothing(size_t arg)
{
}

/* Slot 8: as slot 6, from the fat binary itself rather than its wrapper. */
static CUresult cudart_load_fatbin_ext(const void *fatbin, CUmodule *out, void *a, void *b,
				       unsigned int c)
{
	if (a || b || c)
		return unknown_slot(T_CUDART, 8, (uintptr_t)fatbin, (uintptr_t)out, (uintptr_t)a,
				    (uintptr_t)b);
	if (!out || !fatbin)
		return CUDA_ERROR_INVALID_VALUE;
	return shim_cuModuleLoadData(out, fatbin);
}

static CUresult cudart_zero(void)
{
	return CUDA_SUCCESS;
}

static const void *t_cudart[13] = {
	SIZE_WORD(13),
	[1] = (const void *)cudart_load_wrapper,
	[2] = (const void *)cudart_primary_ctx,
	[6] = (const void *)cudart_load_wrapper_ext,
	[7] = (const void *)cudart_nothing,
	[8] = (const void *)cudart_load_fatbin_ext,
	[12] = (const void *)cudart_zero,
};

/* ---- 42d85a81: TOOLS_TLS ---- */

/* No tool is attached: there is no tool thread state to hand out. */
static CUresult tls_none(void **p)
{
	if (p)
		*p = NULL;
	return CUDA_SUCCESS;
}

/*
 * Slot 2 hands out the calling thread's current context, as cuCtxGetCurrent
 * does; cuBLASLt keys its kernel registry on it, and with NULL finds no
 * kernel for any GEMM.
 */
static CUresult tls_current_ctx(CUcontext *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	/* Before cuInit no thread has a context. */
	if (!shim.initialised) {
		*p = NULL;
		return CUDA_SUCCESS;
	}
	return shim_cuCtxGetCurrent(p);
}

static const void *t_tls[3] = {
	SIZE_WORD(3),
	(const void *)tls_none,
	(const void *)tls_current_ctx,
};

/* ---- a094798c: TOOLS_RUNTIME_CALLBACK_HOOKS ---- */

/*
 * Slots 2 and 6 hand the runtime memory it keeps for tools' callbacks;
 * with no tool attached it stays zero.  The element sizes are not known:
 * the buffers are generous for the counts given.
 */
static uint64_t hooks_space2[1024];
static uint8_t hooks_space6[64];

static void hooks_buffer2(void **buf, size_t *count)
{
	if (buf)
		*buf = hooks_space2;
	if (count)
		*count = 1024;
}

static void hooks_buffer6(void **buf, size_t *count)
{
	if (buf)
		*buf = hooks_space6;
	if (count)
		*count = 14;
}

static CUresult hooks_none(void *a, void *b)
{
	return CUDA_SUCCESS;
}

static const void *t_hooks[7] = {
	SIZE_WORD(7),
	(const void *)hooks_none,
	(const void *)hooks_buffer2,
	(const void *)hooks_none,
	(const void *)hooks_none,
	(const void *)hooks_none,
	(const void *)hooks_buffer6,
};

/* ---- c693336e: CONTEXT_LOCAL_STORAGE_INTERFACE_V0301 ---- */

/* A context handle, NULL for the current one, as its never-reused id. */
static CUresult cls_ctx(CUcontext h, uint64_t *id)
{
	struct shim_obj *o;
	CUresult r;

	if (!h) {
		struct shim_ctx *c = shim_current();

		if (!c)
			return CUDA_ERROR_INVALID_CONTEXT;
		*id = c->o.id;
		return CUDA_SUCCESS;
	}
	r = shim_obj_get(GL_H_CTX, h, &o);
	if (!r)
		*id = o->id;
	return r;
}

static CUresult cls_put(CUcontext ctx, void *key, void *value, shim_cls_dtor dtor)
{
	uint64_t id;
	CUresult r = cls_ctx(ctx, &id);

	if (r)
		return r;
	switch (shim_cls_put(id, key, value, dtor)) {
	case 0:
		return CUDA_SUCCESS;
	case -EEXIST:
		/* NVIDIA's driver keeps the first value and refuses the second. */
		return CUDA_ERROR_INVALID_HANDLE;
	default:
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
}

static CUresult cls_delete(CUcontext ctx, void *key)
{
	uint64_t id;
	CUresult r = cls_ctx(ctx, &id);

	if (r)
		return r;
	return shim_cls_delete(id, key) ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
}

/* Hot: cudart asks before many runtime calls.  No lock, no allocation. */
static CUresult cls_get(void **value, CUcontext ctx, void *key)
{
	uint64_t id;
	CUresult r;

	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	r = cls_ctx(ctx, &id);
	if (r)
		return r;
	return shim_cls_get(id, key, value) ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
}

/* No size word: the table ends at its NULL. */
static const void *t_cls[4] = {
	(const void *)cls_put,
	(const void *)cls_delete,
	(const void *)cls_get,
	NULL,
};

void shim_export_ctx_gone(struct shim_ctx *c)
{
	shim_cls_drain(c->o.id, (CUcontext)c);
}

/* ---- 263e8860: CONTEXT_CHECKS ---- */

/* Slot 2: no context of ours wraps another. */
static CUresult checks_wrapped(CUcontext ctx, uint32_t *is_wrapped, CUcontext *underlying)
{
	if (is_wrapped)
		*is_wrapped = 0;
	return CUDA_SUCCESS;
}

static uint32_t checks_none(void)
{
	return 0;
}

static const void *t_checks[15] = {
	SIZE_WORD(15),
	[2] = (const void *)checks_wrapped,
	[3] = (const void *)checks_none,
};

/* ---- d4082055: INTEGRITY_CHECK ---- */

static CUresult integrity_check(uint32_t version, uint64_t seconds, uint64_t out[2]);

static CUresult integrity_none(void *arg)
{
	return CUDA_SUCCESS;
}

static const void *t_integrity[3] = {
	SIZE_WORD(3),
	(const void *)integrity_check,
	(const void *)integrity_none,
};

/*
 * Slot 1: the runtime checks that it talks to the driver it expects.  The
 * answer covers this process, this thread, the addresses of the shim's own
 * tables and the devices as the shim reports them, so it is computed here.
 */
static CUresult integrity_check(uint32_t version, uint64_t seconds, uint64_t out[2])
{
	struct shim_integrity_dev dev[GLEAM_GPUS_MAX_LOCAL];
	struct shim_integrity_in in = {
		.version = version,
		.pid = (uint32_t)getpid(),
		.thread = (uint32_t)(uintptr_t)pthread_self(),
		.cudart_table = (uint64_t)(uintptr_t)t_cudart,
		.integrity_table = (uint64_t)(uintptr_t)t_integrity,
		.integrity_fn = (uint64_t)(uintptr_t)t_integrity[1],
		.seconds = seconds,
		.dev = dev,
	};
	int v = 0;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	shim_cuDriverGetVersion(&v);
	in.driver_version = (uint32_t)v;
	in.ndev = shim.initialised ? (unsigned int)shim.ndev : 0;
	if (in.ndev > ARRAY_SIZE(dev))
		return CUDA_ERROR_INVALID_VALUE;
	for (unsigned int i = 0; i < in.ndev; i++) {
		memcpy(dev[i].uuid, shim.dev[i].info.uuid, 16);
		dev[i].pci_domain = dev[i].pci_bus = dev[i].pci_device = 0;
		shim_cuDeviceGetAttribute(&dev[i].pci_domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID,
					  (CUdevice)i);
		shim_cuDeviceGetAttribute(&dev[i].pci_bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
					  (CUdevice)i);
		shim_cuDeviceGetAttribute(&dev[i].pci_device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID,
					  (CUdevice)i);
	}
	return shim_integrity_answer(&in, out) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

/* ---- tables whose slots nobody has described ---- */

static const void *t_f8cf[3] = { SIZE_WORD(3) };
/*
 * 21318c60: slot 4 answers a context's unique id, as cuCtxGetId does;
 * cuBLAS asks it before every GEMM.  The other 91 slots are unknown.
 */
static CUresult toolsctx_id(CUcontext ctx, unsigned long long *id)
{
	return shim_cuCtxGetId(ctx, id);
}

/*
 * Slot 51, (CUcontext, CUstream, CUstream *out): the stream a handle stands
 * for.  NVIDIA's driver answers the same object for NULL and
 * CU_STREAM_LEGACY, another for CU_STREAM_PER_THREAD, and a stream for
 * itself; cuBLAS asks it of the stream each GEMM runs on.  The shim's
 * special handles mean the same streams wherever they are passed.
 */
static CUresult toolsctx_stream(CUcontext ctx, CUstream s, CUstream *out)
{
	__u64 id;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (!s || s == CU_STREAM_LEGACY) {
		*out = CU_STREAM_LEGACY;
	} else if (s == CU_STREAM_PER_THREAD) {
		*out = CU_STREAM_PER_THREAD;
	} else {
		CUresult r = shim_handle_id(GL_H_STREAM, s, &id);

		if (r)
			return r;
		*out = s;
	}
	return CUDA_SUCCESS;
}

/*
 * Slot 39, (CUcontext, CUstream, unsigned long long *out): the id of a
 * stream slot 51 answered, as cuStreamGetId gives it.  NVIDIA's driver
 * wrote 7 for the legacy stream's object when cuStreamGetId(CU_STREAM_LEGACY)
 * was 7, and 13 for a made stream whose id was 13 (gleam-export-probe).
 * cuBLAS asks it before GEMMs whose kernels it picks per stream.
 */
static CUresult toolsctx_stream_id(CUcontext ctx, CUstream s, unsigned long long *id)
{
	(void)ctx;
	return shim_cuStreamGetId(s, id, 0);
}

static const void *t_toolsctx[93] = {
	SIZE_WORD(93),
	[4] = (const void *)toolsctx_id,
	[39] = (const void *)toolsctx_stream_id,
	[51] = (const void *)toolsctx_stream,
};

/* 1734dc26: 16 slots, all unknown; cuBLASLt asks for the table. */
static const void *t_1734[17] = { SIZE_WORD(17) };
static const void *t_69a2[34] = { SIZE_WORD(34) };
/*
 * 6e163fbe: functions and modules, as tools see them.  Slot 7, (CUcontext
 * ctx, CUmodule mod, void fn(void *arg, CUfunction f, ...), void *arg),
 * calls fn for each function of the module and returns how many there
 * were, not a CUresult: cuFFT finds the one kernel of a module it made
 * this way, and takes anything but 1 for a failure.  The table's size
 * on NVIDIA's driver is not measured; cuFFT requires more than 7 slots.
 */
static int toolsmod_functions(CUcontext ctx, CUmodule mod,
			      void (*fn)(void *, CUfunction, uint64_t), void *arg)
{
	unsigned int n = 0;

	(void)ctx;
	if (!fn || shim_module_functions(mod, fn, arg, &n))
		return 0;
	return (int)n;
}

static const void *t_6e16[60] = {
	SIZE_WORD(60),
	[7] = (const void *)toolsmod_functions,
};

/* ---- the directory ---- */

struct table {
	const void **slot;
	unsigned int words;	/* with the size word, or with the final NULL */
	const unk_fn *unknown;	/* fills the slots left NULL above */
};

/* UUIDs as the bytes the runtime passes, in hex. */
static const char *const table_id[T_COUNT] = {
	[T_CUDART]	= "6bd5fb6c5bf4e74a8987d93912fd9df9",
	[T_TLS]		= "42d85a8123f6cb478298f6e78a3aecdc",
	[T_HOOKS]	= "a094798c2e742e7493f20800200c0a66",
	[T_CLS]		= "c693336e1121df11a8c368f355d89593",
	[T_CHECKS]	= "263e88607cd2614392f6bbd5006dfa7e",
	[T_INTEGRITY]	= "d4082055bde6704b8d34ba123c66e1f2",
	[T_F8CF]	= "f8cff95121468b4eb9e2fb469e7c0dd9",
	[T_TOOLSCTX]	= "21318c60971432488ca641ff7324c8f2",
	[T_69A2]	= "69a28e9f24498b47b030c5da330ea4e9",
	[T_1734]	= "1734dc26800d47458726c0f1e7dd8bca",
	[T_6E16]	= "6e163fbeb958444d835ce182aff1991e",
};

static const struct table tables[T_COUNT] = {
	[T_CUDART]	= { t_cudart, ARRAY_SIZE(t_cudart), unk_cudart },
	[T_TLS]		= { t_tls, ARRAY_SIZE(t_tls), NULL },
	[T_HOOKS]	= { t_hooks, ARRAY_SIZE(t_hooks), NULL },
	[T_CLS]		= { t_cls, ARRAY_SIZE(t_cls), NULL },
	[T_CHECKS]	= { t_checks, ARRAY_SIZE(t_checks), unk_checks },
	[T_INTEGRITY]	= { t_integrity, ARRAY_SIZE(t_integrity), NULL },
	[T_F8CF]	= { t_f8cf, ARRAY_SIZE(t_f8cf), unk_f8cf },
	[T_TOOLSCTX]	= { t_toolsctx, ARRAY_SIZE(t_toolsctx), unk_toolsctx },
	[T_69A2]	= { t_69a2, ARRAY_SIZE(t_69a2), unk_69a2 },
	[T_1734]	= { t_1734, ARRAY_SIZE(t_1734), unk_1734 },
	[T_6E16]	= { t_6e16, ARRAY_SIZE(t_6e16), unk_6e16 },
};

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_fill(void)
{
	for (unsigned int t = 0; t < T_COUNT; t++) {
		const struct table *tb = &tables[t];

		if (!tb->unknown)
			continue;
		for (unsigned int i = 1; i < tb->words; i++)
			if (!tb->slot[i])
				tb->slot[i] = (const void *)tb->unknown[i];
	}
}

CUresult shim_cuGetExportTable(const void **table, const CUuuid *id)
{
	char hex[33];

	if (!table || !id)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_once(&tables_once, tables_fill);
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)id->bytes[i]);
	for (unsigned int t = 0; t < T_COUNT; t++) {
		if (!strcmp(hex, table_id[t])) {
			*table = tables[t].slot;
			return CUDA_SUCCESS;
		}
	}
	gl_dbg("cuGetExportTable: no table %s", hex);
	*table = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}
