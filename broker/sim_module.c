// SPDX-License-Identifier: MIT
/*
 * The sim's modules and libraries: images loaded (PTX of the test kernels,
 * cubins, fat binaries), the functions, kernels and variables found in
 * them, function and kernel attributes, and launches, which run the test
 * kernels of sim_kernels.c.
 */
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "cubin.h"
#include "image.h"
#include "cudarules.h"
#include "sim_array.h"
#include "sim_kernels.h"
#include "util.h"
#include "sim.h"

/* ---- modules and functions ---- */

static bool defines(struct sim_module *m, const char *name);

/*
 * The sim compiles nothing: a PTX module loads only when every entry in it
 * is one of the test kernels; any other code fails as a JIT error would.
 */
static CUresult check_ptx(const unsigned char *p, size_t n)
{
	const unsigned char *e = p, *end = p + n;

	if (n < 8 || p[0] == 0x7f || !memmem(p, n, ".version", 8))
		return CUDA_SUCCESS;
	while ((e = memmem(e, (size_t)(end - e), ".entry", 6))) {
		char name[GLEAM_NAME_MAX];
		size_t k = 0;

		e += 6;
		while (e < end && (*e == ' ' || *e == '\t'))
			e++;
		while (e < end && k < sizeof(name) - 1 && *e != '(' && *e != ' ' && *e != '\n')
			name[k++] = (char)*e++;
		name[k] = 0;
		if (!sim_kernel_find(name))
			return CUDA_ERROR_INVALID_PTX;
	}
	return CUDA_SUCCESS;
}

/* Modules live in a context; libraries (need_ctx false) in none. */
static CUresult load(const void *image, struct sim_module **out, bool need_ctx)
{
	size_t n = gl_image_size(image, GLEAM_IMAGE_MAX);
	struct sim_module *m;
	CUresult r;

	if (need_ctx || sim.cur)
		CTX_OK();
	if (!n)
		return CUDA_ERROR_INVALID_IMAGE;
	r = check_ptx(image, n);
	if (r)
		return r;
	m = sim_obj_new(sizeof(*m), K_MODULE);
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->image = malloc(n);
	if (!m->image) {
		sim_obj_free(m);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memcpy(m->image, image, n);
	m->size = n;
	*out = m;
	return CUDA_SUCCESS;
}

CUresult sim_cuModuleLoadData(CUmodule *module, const void *image)
{
	return load(image, (struct sim_module **)module, true);
}

CUresult sim_cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jo, void **jv,
			       unsigned int njo, CUlibraryOption *lo, void **lv, unsigned int nlo)
{
	return load(code, (struct sim_module **)lib, false);
}

/*
 * Fat binaries compress their entries with zstd: unpack every frame the
 * image holds, up to a bound, so that names can be found in the code.
 */
#define SIM_UNPACK_MAX	(256u << 20)

static void unpack(struct sim_module *m)
{
	static const unsigned char zmagic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	const unsigned char *p = m->image, *end = m->image + m->size;

	m->unpacked = true;
	while ((p = memmem(p, (size_t)(end - p), zmagic, 4))) {
		size_t clen = ZSTD_findFrameCompressedSize(p, (size_t)(end - p));
		unsigned long long n = ZSTD_getFrameContentSize(p, (size_t)(end - p));
		unsigned char *q;
		size_t got;

		if (ZSTD_isError(clen) || n == ZSTD_CONTENTSIZE_UNKNOWN ||
		    n == ZSTD_CONTENTSIZE_ERROR || n > SIM_UNPACK_MAX - m->plain_size) {
			p++;
			continue;
		}
		q = realloc(m->plain, m->plain_size + (size_t)n + 1);
		if (!q)
			return;
		m->plain = q;
		got = ZSTD_decompress(q + m->plain_size, (size_t)n, p, clen);
		if (!ZSTD_isError(got)) {
			m->plain_size += got;
			m->plain[m->plain_size++] = 0;
		}
		p += clen;
	}
}

static bool names(const unsigned char *img, size_t size, const char *name)
{
	size_t n = strlen(name);
	char entry[GLEAM_NAME_MAX + 16];

	snprintf(entry, sizeof(entry), ".entry %s", name);
	if (memmem(img, size, entry, strlen(entry)))
		return true;
	for (const unsigned char *p = img; (p = memmem(p, size - (size_t)(p - img), name, n + 1));
	     p++)
		if (p > img && p[-1] == 0)
			return true;
	return false;
}

/* Whether the image defines name: a PTX entry or a symbol string. */
static bool defines(struct sim_module *m, const char *name)
{
	if (names(m->image, m->size, name))
		return true;
	if (!m->unpacked)
		unpack(m);
	return m->plain_size && names(m->plain, m->plain_size, name);
}

/*
 * A kernel of the code a GPU of compute capability 9.0 loads from the
 * image: from a cubin, its parameters and the attributes its resources
 * imply, as on the H200; from PTX (the index's kind), its parameters alone.
 */
static const struct gl_kernel *image_kernel(struct sim_module *m, const char *name)
{
	if (!m->indexed) {
		struct gl_code code;
		unsigned char *raw;
		size_t len;

		m->indexed = true;
		if (!gl_code_pick(m->image, m->size, 9, 0, &code) &&
		    (code.kind == GL_CODE_CUBIN || code.kind == GL_CODE_PTX) &&
		    !gl_code_unpack(&code, &raw, &len)) {
			if (gl_module_index(code.kind, raw, len, &m->idx))
				m->idx = NULL;
			free(raw);
		}
	}
	return m->idx ? gl_module_kernel(m->idx, name) : NULL;
}

static CUresult get_func(void *parent, const char *name, struct sim_func **out, bool need_ctx)
{
	const struct sim_kernel *k;
	const struct gl_kernel *gk;
	struct sim_module *m = parent;
	struct sim_func *f;
	uint32_t off = 0;

	if (need_ctx || sim.cur)
		CTX_OK();
	if (!sim_is(parent, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	/*
	 * A kernel the image names but the sim cannot run (a library's own,
	 * such as cuBLAS's) is still found, so that what a program does around
	 * it runs as on a GPU; launching it fails, naming it.
	 */
	if (!defines(parent, name))
		return CUDA_ERROR_NOT_FOUND;
	k = sim_kernel_find(name);
	f = sim_obj_new(sizeof(*f), K_FUNC);
	if (!f)
		return CUDA_ERROR_OUT_OF_MEMORY;
	f->k = k;
	gk = image_kernel(m, name);
	f->gk = gk && m->idx->kind == GL_CODE_CUBIN ? gk : NULL;
	snprintf(f->name, sizeof(f->name), "%s", name);
	for (unsigned int i = 0; k && i < k->nparams && i < 16; i++) {
		uint32_t sz = k->param_size[i], al = sz >= 8 ? 8 : sz;

		off = (off + al - 1) / al * al;
		f->p[i].offset = off;
		f->p[i].size = sz;
		off += sz;
	}
	f->nparams = k ? MIN(k->nparams, 16u) : 0;
	f->params_size = off;
	/*
	 * One the sim cannot run, from PTX: the layout the PTX declares, as
	 * the shim reads it and a GPU's compiler would, so that only its
	 * launch fails.
	 */
	if (!k && gk && !f->gk && gk->nparams <= 16) {
		memcpy(f->p, gk->params, gk->nparams * sizeof(f->p[0]));
		f->nparams = gk->nparams;
		f->params_size = gk->params_size;
	}
	*out = f;
	return CUDA_SUCCESS;
}

CUresult sim_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	return get_func(hmod, name, (struct sim_func **)hfunc, true);
}

CUresult sim_cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name)
{
	return get_func(lib, name, (struct sim_func **)k, false);
}

CUresult sim_cuKernelGetFunction(CUfunction *pf, CUkernel k)
{
	CTX_OK();
	if (!sim_is(k, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	/* A kernel and its function are one object here. */
	*pf = (CUfunction)k;
	return CUDA_SUCCESS;
}

CUresult sim_cuLibraryGetModule(CUmodule *pm, CUlibrary lib)
{
	CTX_OK();
	if (!sim_is(lib, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	*pm = (CUmodule)lib;
	return CUDA_SUCCESS;
}

/*
 * The size of the object symbol name in any ELF image among buf's bytes
 * (cubins, as such or unpacked from a fat binary); 0 when none names it.
 */
static size_t elf_object_size(const unsigned char *buf, size_t len, const char *name)
{
	const unsigned char *e = buf, *end;

	/* A module with no image (nothing unpacked from it) names nothing. */
	if (!buf || !len)
		return 0;
	end = buf + len;
	while ((e = memmem(e, (size_t)(end - e), "\177ELF\2\1", 6))) {
		size_t avail = (size_t)(end - e), n = gl_image_size(e, avail);
		uint64_t shoff;
		uint16_t shentsize, shnum;

		if (!n || n < 0x40) {
			e++;
			continue;
		}
		memcpy(&shoff, e + 0x28, 8);
		memcpy(&shentsize, e + 0x3a, 2);
		memcpy(&shnum, e + 0x3c, 2);
		for (unsigned int i = 0; i < shnum; i++) {
			const unsigned char *sh = e + shoff + (size_t)i * shentsize;
			uint64_t off, size, entsize, soff, ssize;
			uint32_t type, link;
			const unsigned char *str;

			memcpy(&type, sh + 4, 4);
			if (type != 2 /* SHT_SYMTAB */)
				continue;
			memcpy(&off, sh + 0x18, 8);
			memcpy(&size, sh + 0x20, 8);
			memcpy(&link, sh + 0x28, 4);
			memcpy(&entsize, sh + 0x38, 8);
			if (link >= shnum || entsize < 24 || off > n || size > n - off)
				continue;
			memcpy(&soff, e + shoff + (size_t)link * shentsize + 0x18, 8);
			memcpy(&ssize, e + shoff + (size_t)link * shentsize + 0x20, 8);
			if (soff > n || ssize > n - soff)
				continue;
			str = e + soff;
			for (uint64_t k = 0; k + entsize <= size; k += entsize) {
				const unsigned char *sym = e + off + k;
				uint32_t nm;
				uint64_t sz;

				memcpy(&nm, sym, 4);
				memcpy(&sz, sym + 16, 8);
				if ((sym[4] & 0xf) == 1 /* STT_OBJECT */ && nm < ssize &&
				    !strncmp((const char *)str + nm, name, (size_t)(ssize - nm)) && sz)
					return (size_t)sz;
			}
		}
		e += n;
	}
	return 0;
}

CUresult sim_cuModuleGetGlobal(CUdeviceptr *d, size_t *bytes, CUmodule h, const char *name)
{
	struct sim_module *m = (struct sim_module *)h;
	struct sim_global *g;
	size_t size;
	CUresult r;

	CTX_OK();
	if (!sim_is(h, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	for (g = m->globals; g; g = g->next)
		if (!strcmp(g->name, name))
			goto found;
	size = elf_object_size(m->image, m->size, name);
	if (!size) {
		if (!m->unpacked)
			unpack(m);
		size = elf_object_size(m->plain, m->plain_size, name);
	}
	if (!size)
		return CUDA_ERROR_NOT_FOUND;
	g = calloc(1, sizeof(*g) + strlen(name) + 1);
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = sim_cuMemAlloc(&g->d, size);
	if (r) {
		free(g);
		return r;
	}
	g->size = size;
	strcpy(g->name, name);
	g->next = m->globals;
	m->globals = g;
found:
	if (d)
		*d = g->d;
	if (bytes)
		*bytes = g->size;
	return CUDA_SUCCESS;
}

CUresult sim_cuLibraryGetGlobal(CUdeviceptr *d, size_t *bytes, CUlibrary l, const char *name)
{
	return sim_cuModuleGetGlobal(d, bytes, (CUmodule)l, name);
}

static CUresult unload(void *h)
{
	struct sim_module *m = h;

	if (!sim_is(h, K_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	while (m->globals) {
		struct sim_global *g = m->globals;

		m->globals = g->next;
		if (sim.cur)
			sim_cuMemFree(g->d);
		free(g);
	}
	free(m->image);
	free(m->plain);
	gl_module_index_free(m->idx);
	sim_obj_free(m);
	return CUDA_SUCCESS;
}

CUresult sim_cuModuleUnload(CUmodule m)
{
	return unload(m);
}

CUresult sim_cuLibraryUnload(CUlibrary l)
{
	return unload(l);
}

/* A spin_ns kernel's time, queued on its GPU (see sim_dev()). */
static bool sim_queued;		/* the kernel running queued its own time */

static uint64_t gpu_time(void *be, uint64_t ns)
{
	(void)be;
	sim_queued = true;
	return wk_gpu_queue(sim_dev(), ns);
}

/* A kernel run now, on a parameter block of the function's size. */
CUresult sim_run_kernel(struct sim_func *f, const unsigned int g[3], const unsigned int b[3],
			   unsigned int shmem, const void *params, size_t size)
{
	struct sim_launch l = { .shared_bytes = shmem, .mem = sim_mem, .gpu_time = gpu_time,
				.tex = sim_tex_fetch, .surf = sim_surf_access,
				.set_cond = sim_cond_set };
	uint64_t t0;
	int r;

	CTX_OK();
	l.grid = (struct sim_dim3){ g[0], g[1], g[2] };
	l.block = (struct sim_dim3){ b[0], b[1], b[2] };
	l.params = params;
	l.params_size = size;
	sim_queued = false;
	t0 = gl_now_ns();
	r = f->k->run(&l);
	if (!sim_queued)
		sim_ran_since(t0);
	/*
	 * A fault poisons the context, as on a GPU, where the launch itself
	 * has long returned: the error surfaces at the next call.
	 */
	if (r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED ||
	    r == CUDA_ERROR_MISALIGNED_ADDRESS || r == CUDA_ERROR_ASSERT) {
		sim.cur->sticky = (CUresult)r;
		return CUDA_SUCCESS;
	}
	return (CUresult)r;
}

static CUresult launch(struct sim_func *f, const unsigned int g[3], const unsigned int b[3],
		       unsigned int shmem, CUstream s, void **extra)
{
	struct sim_op op = { .kind = OP_KERNEL, .f = f, .shmem = shmem };
	struct sim_capture *cap;
	void *buf = NULL;
	size_t *size = NULL;
	CUresult r;

	CTX_OK();
	if (!sim_is(f, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	r = sim_stream_work(s, &cap);
	if (r)
		return r;
	for (int i = 0; extra && i < 8 && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			buf = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			size = extra[i + 1];
	}
	if (!f->k) {
		gl_err("sim: kernel %.80s is not one the sim can run", f->name);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (!size || *size != f->params_size || (f->params_size && !buf))
		return CUDA_ERROR_INVALID_VALUE;
	if (!cap)
		return sim_run_kernel(f, g, b, shmem, buf, *size);
	memcpy(op.grid, g, sizeof(op.grid));
	memcpy(op.block, b, sizeof(op.block));
	op.params_size = *size;
	op.params = malloc(*size ? *size : 1);
	if (!op.params)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(op.params, buf, *size);
	r = sim_capture_op(cap, s, &op);
	if (r)
		free(op.params);
	return r;
}

CUresult sim_cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
			    unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
			    CUstream s, void **kp, void **extra)
{
	const unsigned int g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };

	return launch((struct sim_func *)f, g, b, shmem, s, extra);
}

CUresult sim_cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **kp, void **extra)
{
	const unsigned int g[3] = { c->gridDimX, c->gridDimY, c->gridDimZ };
	const unsigned int b[3] = { c->blockDimX, c->blockDimY, c->blockDimZ };

	return launch((struct sim_func *)f, g, b, c->sharedMemBytes, c->hStream, extra);
}

/* ---- what the CUDA runtime asks of functions and kernels ---- */

/* What the driver takes, for the function as loaded on the sim's device. */
static CUresult sim_attr_check(const struct sim_func *f, CUfunction_attribute a, int v)
{
	int32_t dev[GLEAM_DEV_ATTR_MAX] = { 0 };
	int32_t attr[GLEAM_FUNC_ATTR_MAX] = { 0 };

	sim_dev_attrs(dev);
	if (f->gk)
		gl_func_attrs(dev, &f->gk->res, attr);
	return gl_func_attr_check(dev, attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES], a, v);
}

/* The sim keeps no attributes: the shim answers them from its own copy. */
CUresult sim_cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	CTX_OK();
	if (!sim_is(f, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_attr_check((const struct sim_func *)f, a, v);
}

CUresult sim_cuKernelSetAttribute(CUfunction_attribute a, int v, CUkernel k, CUdevice dev)
{
	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!sim_is(k, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_attr_check((const struct sim_func *)k, a, v);
}

static bool sim_cache_ok(CUfunc_cache c)
{
	return (unsigned int)c <= CU_FUNC_CACHE_PREFER_EQUAL;
}

/* A preference only: nothing in the sim depends on it. */
CUresult sim_cuFuncSetCacheConfig(CUfunction f, CUfunc_cache c)
{
	CTX_OK();
	if (!sim_is(f, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cache_ok(c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult sim_cuKernelSetCacheConfig(CUkernel k, CUfunc_cache c, CUdevice dev)
{
	if (!sim_dev_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!sim_is(k, K_FUNC))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cache_ok(c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* A context's cache preference is a hint: the sim has nothing to prefer. */
CUresult sim_cuCtxSetCacheConfig(CUfunc_cache c)
{
	CTX_OK();
	return sim_cache_ok(c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
