// SPDX-License-Identifier: MIT
/*
 * Modules, libraries, kernels, functions and launches.  Loads are
 * asynchronous: the shim mints the handle and the worker maps it.  Looking
 * a kernel or function up is answered from the image the program loaded
 * (common/cubin.c): a name it defines gets a handle at once, with the
 * parameter layout and the attributes its cubin implies; a name it does not
 * define gets the driver's error.  Only what the server's compiler decides
 * (attributes of code loaded as PTX) comes from the server, asked in the
 * lookup's record and waited for at its first use.  An image the shim
 * cannot read is looked up on the server, waiting.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cubin.h"
#include "image.h"
#include "cudarules.h"
#include "shim.h"
#include "util.h"

/* A fat-binary wrapper points at the fat binary itself. */
static const void *unwrap(const void *image)
{
	const struct fatbin_wrapper *w = image;

	if (image && w->magic == FATBIN_WRAPPER_MAGIC)
		return w->data;
	return image;
}

/* The device a module (its context's) or a library (the current one's, else 0) is read for. */
static int module_dev(const struct shim_obj *o)
{
	struct shim_ctx *cur = shim_current();

	if (o->kind == GL_H_MODULE)
		return o->dev;
	return cur ? cur->dev : 0;
}

/* Keep the code of the image that the device would load, for lookups. */
static void keep_code(struct shim_module *m, const void *image, size_t n)
{
	const int32_t *a = shim.dev[module_dev(&m->o)].info.attr;
	struct gl_code code;

	m->no_index = true;
	if (gl_code_pick(image, n, a[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR],
			 a[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR], &code))
		return;
	m->code = malloc(code.len ? code.len : 1);
	if (!m->code)
		return;
	memcpy(m->code, code.data, code.len);
	m->code_len = code.len;
	m->raw_len = code.raw_len;
	m->code_kind = code.kind;
	m->code_pack = code.pack;
	m->no_index = false;
}

void shim_module_put(struct shim_module *m)
{
	gl_module_index_free(m->idx);
	free(m->code);
	m->idx = NULL;
	m->code = NULL;
	m->no_index = true;
}

static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;

/* The index of a module or library, built at its first lookup; NULL: ask the server. */
static const struct gl_module_index *module_index(struct shim_module *m)
{
	const struct gl_module_index *idx;

	pthread_mutex_lock(&index_lock);
	if (!m->idx && !m->no_index) {
		struct gl_code code = { .kind = m->code_kind, .pack = m->code_pack,
					.data = m->code, .len = m->code_len,
					.raw_len = m->raw_len };
		unsigned char *raw;
		size_t len;

		if (gl_code_unpack(&code, &raw, &len) ||
		    gl_module_index(code.kind, raw, len, &m->idx)) {
			raw = NULL;
			m->idx = NULL;
		}
		free(raw);
		free(m->code);
		m->code = NULL;
		m->no_index = !m->idx;
	}
	idx = m->idx;
	pthread_mutex_unlock(&index_lock);
	return idx;
}

int shim_module_has_var(unsigned int kind, void *h, const char *name)
{
	const struct gl_module_index *idx;
	struct shim_obj *o;

	if (!name || shim_obj_get(kind, h, &o))
		return -1;
	idx = module_index((struct shim_module *)o);
	if (!idx)
		return -1;
	return gl_module_variable(idx, name) != NULL;
}

static CUresult load_image(unsigned int fn, struct shim_obj **out, unsigned int kind,
			   const void *image)
{
	struct gl_a_cuLibraryLoadData la = { 0 };
	struct gl_a_cuModuleLoadData ma = { 0 };
	struct shim_call c;
	struct shim_obj *o;
	size_t n;
	CUresult r;

	r = shim_begin(&c, fn);
	if (r)
		return r;
	image = unwrap(image);
	n = gl_image_size(image, SIZE_MAX);
	if (!n)
		return CUDA_ERROR_INVALID_IMAGE;
	o = shim_obj_new(kind);
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (fn == GL_FN_cuLibraryLoadData) {
		la.pLib = o->id;
		c.args = &la;
		c.args_len = sizeof(la);
	} else {
		ma.module = o->id;
		c.args = &ma;
		c.args_len = sizeof(ma);
	}
	r = shim_call_new(&c, o, image, n);
	if (r && c.waited)
		return r;
	keep_code((struct shim_module *)o, image, n);
	shim_obj_created(o);
	*out = o;
	return r;
}

CUresult shim_cuModuleLoadData(CUmodule *module, const void *image)
{
	if (!module || !image)
		return CUDA_ERROR_INVALID_VALUE;
	return load_image(GL_FN_cuModuleLoadData, (struct shim_obj **)module, GL_H_MODULE, image);
}

CUresult shim_cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int n,
				 CUjit_option *options, void **values)
{
	/* JIT options are hints to the compiler on the server; none is forwarded. */
	if (n && (!options || !values))
		return CUDA_ERROR_INVALID_VALUE;
	return shim_cuModuleLoadData(module, image);
}

CUresult shim_cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
	return shim_cuModuleLoadData(module, fatCubin);
}

CUresult shim_read_image(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return CUDA_ERROR_FILE_NOT_FOUND;
	if (fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size >= GLEAM_IMAGE_MAX) {
		close(fd);
		return CUDA_ERROR_INVALID_IMAGE;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		close(fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	err = gl_read_full(fd, *buf, (size_t)st.st_size);
	close(fd);
	(*buf)[st.st_size] = 0;
	*len = (size_t)st.st_size;
	if (err) {
		free(*buf);
		return CUDA_ERROR_FILE_NOT_FOUND;
	}
	return CUDA_SUCCESS;
}

CUresult shim_cuModuleLoad(CUmodule *module, const char *fname)
{
	char *buf;
	size_t len;
	CUresult r;

	if (!module || !fname)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_read_image(fname, &buf, &len);
	if (r)
		return r;
	r = shim_cuModuleLoadData(module, buf);
	free(buf);
	return r;
}

CUresult shim_cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jo,
				void **jv, unsigned int njo, CUlibraryOption *lo, void **lv,
				unsigned int nlo)
{
	/*
	 * The options are hints for the server's compiler and loader and are
	 * not forwarded; the driver takes counts without value arrays (cuBLAS
	 * passes such), so nothing about them is refused here.
	 */
	if (!library || !code)
		return CUDA_ERROR_INVALID_VALUE;
	return load_image(GL_FN_cuLibraryLoadData, (struct shim_obj **)library, GL_H_LIBRARY,
			  code);
}

/*
 * A lookup by name in a module or library (functions, kernels, globals):
 * the parent's id, and the name as the record's data with its length.
 */
CUresult shim_name_arg(unsigned int kind, void *parent, const char *name, __u64 *id,
		       __u64 *name_len, struct iovec *iov)
{
	CUresult r;

	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_handle_id(kind, parent, id);
	if (r)
		return r;
	*name_len = strnlen(name, GLEAM_NAME_MAX) + 1;
	if (*name_len > GLEAM_NAME_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	iov->iov_base = (void *)name;
	iov->iov_len = *name_len;
	return CUDA_SUCCESS;
}

/* The answer of cuFuncGetParamInfo and cuKernelGetParamInfo. */
CUresult shim_param_info(const struct shim_func *f, size_t index, size_t *off, size_t *size)
{
	if (index >= f->nparams)
		return CUDA_ERROR_INVALID_VALUE;
	if (off)
		*off = f->params[index].offset;
	if (size)
		*size = f->params[index].size;
	return CUDA_SUCCESS;
}

/*
 * A function the image defines: its handle now, its layout and attributes
 * from the cubin; the record goes without waiting.  Code loaded as PTX is
 * compiled on the server: the record asks for the attributes, which come
 * back while the program goes on (shim_func_ready waits if need be).
 */
static CUresult found_func(struct shim_module *m, unsigned int kind, const struct gl_kernel *k,
			   struct gl_a_cuModuleGetFunction *a, struct shim_call *c,
			   struct shim_func **out)
{
	int dev = module_dev(&m->o);
	struct shim_func *f = (struct shim_func *)shim_obj_new(kind);
	CUresult r;

	if (!f)
		return CUDA_ERROR_OUT_OF_MEMORY;
	f->params = calloc(k->nparams ? k->nparams : 1, sizeof(*f->params));
	if (!f->params) {
		shim_obj_put(&f->o);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memcpy(f->params, k->params, k->nparams * sizeof(*f->params));
	f->nparams = k->nparams;
	f->params_size = k->params_size;
	f->barriers = k->res.barriers;
	a->hfunc = f->o.id;
	if (k->res_known) {
		gl_func_attrs(shim.dev[dev].info.attr, &k->res, f->attr);
		c->force_async = true;
		r = shim_call(c);
	} else {
		f->pinfo = calloc(1, sizeof(*f->pinfo));
		f->pparams = calloc(GLEAM_NPARAMS_MAX, sizeof(*f->pparams));
		c->out = f->pinfo;
		c->out_len = sizeof(*f->pinfo);
		c->outbuf = f->pparams;
		c->outbuf_len = GLEAM_NPARAMS_MAX * sizeof(*f->pparams);
		f->pending = f->pinfo && f->pparams ? shim_defer(c) : NULL;
		r = f->pending ? shim_conn_error() : CUDA_ERROR_OUT_OF_MEMORY;
		/*
		 * The first lookup in PTX waits: it is where the driver's
		 * compiler reports a module that does not compile.
		 */
		if (!r && !__atomic_load_n(&m->compiled, __ATOMIC_ACQUIRE)) {
			r = shim_func_ready(f);
			if (!r)
				__atomic_store_n(&m->compiled, true, __ATOMIC_RELEASE);
		}
	}
	if (r) {
		shim_obj_put(&f->o);
		return r;
	}
	shim_obj_created(&f->o);
	*out = f;
	return CUDA_SUCCESS;
}

/* cuModuleGetFunction and cuLibraryGetKernel. */
static CUresult get_func(unsigned int fn, unsigned int kind, unsigned int parent_kind,
			 void *parent, const char *name, struct shim_func **out)
{
	const struct gl_module_index *idx = NULL;
	const struct gl_kernel *k = NULL;
	struct shim_obj *po;
	struct gl_a_cuModuleGetFunction a = { 0 };
	struct gleam_funcinfo info = { 0 };
	struct gleam_param *params;
	struct shim_func *f;
	struct shim_call c;
	struct iovec iov;
	CUresult r;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_begin_io(&c, fn, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	r = shim_name_arg(parent_kind, parent, name, &a.hmod, &a.name_len, &iov);
	if (r)
		return r;
	c.iov = &iov;
	c.niov = 1;
	if (!shim_obj_get(parent_kind, parent, &po))
		idx = module_index((struct shim_module *)po);
	if (idx)
		k = gl_module_kernel(idx, name);
	/* The synchronous mode, for comparison, asks the server as a naive remoting would. */
	if (idx && shim.async) {
		if (!k)
			return CUDA_ERROR_NOT_FOUND;
		return found_func((struct shim_module *)po, kind, k, &a, &c, out);
	}
	params = calloc(GLEAM_NPARAMS_MAX, sizeof(*params));
	f = (struct shim_func *)shim_obj_new(kind);
	if (!params || !f) {
		free(params);
		if (f)
			shim_obj_put(&f->o);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	a.hfunc = f->o.id;
	c.out = &info;
	c.out_len = sizeof(info);
	c.outbuf = params;
	c.outbuf_len = GLEAM_NPARAMS_MAX * sizeof(*params);
	c.force_sync = true;
	r = shim_call(&c);
	if (!r && (info.nparams > GLEAM_NPARAMS_MAX || info.params_size > GLEAM_PARAMS_MAX))
		r = CUDA_ERROR_INVALID_VALUE;
	for (unsigned int i = 0; !r && i < info.nparams; i++)
		if (params[i].size > info.params_size ||
		    params[i].offset > info.params_size - params[i].size)
			r = CUDA_ERROR_INVALID_VALUE;
	if (r) {
		free(params);
		shim_obj_put(&f->o);
		return r;
	}
	f->nparams = info.nparams;
	f->params_size = info.params_size;
	memcpy(f->attr, info.attr, sizeof(f->attr));
	/* What no driver attribute says, the image does. */
	f->barriers = k ? k->res.barriers : 0;
	f->params = realloc(params, (info.nparams ? info.nparams : 1) * sizeof(*params));
	if (!f->params)
		f->params = params;
	shim_obj_created(&f->o);
	*out = f;
	return CUDA_SUCCESS;
}

CUresult shim_cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	return get_func(GL_FN_cuModuleGetFunction, GL_H_FUNC, GL_H_MODULE, hmod, name,
			(struct shim_func **)hfunc);
}

/*
 * Each kernel of a module's image as a function, to fn (tools' export
 * table 6e163fbe, slot 7: cuFFT finds the one kernel of a module it
 * linked this way); how many there were.  An image the shim cannot read
 * has none it can name.
 */
CUresult shim_module_functions(CUmodule hmod, void (*fn)(void *, CUfunction, uint64_t),
			       void *arg, unsigned int *count)
{
	const struct gl_module_index *idx;
	struct shim_obj *o;
	CUresult r;

	*count = 0;
	r = shim_obj_get(GL_H_MODULE, hmod, &o);
	if (r)
		return r;
	idx = module_index((struct shim_module *)o);
	if (!idx)
		return SHIM_REFUSE("the functions of a module whose image Gleam cannot read "
				   "cannot be listed: returning CUDA_ERROR_NOT_SUPPORTED");
	for (uint32_t i = 0; i < idx->nkernels; i++) {
		CUfunction f;

		r = shim_cuModuleGetFunction(&f, hmod, idx->kernels[i].name);
		if (r)
			return r;
		fn(arg, f, 0);
		(*count)++;
	}
	return CUDA_SUCCESS;
}

CUresult shim_cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
	return get_func(GL_FN_cuLibraryGetKernel, GL_H_KERNEL, GL_H_LIBRARY, library, name,
			(struct shim_func **)pKernel);
}

CUresult shim_cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
	struct gl_a_cuKernelGetFunction a;
	struct shim_func *k, *f;
	struct shim_call c;
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuKernelGetFunction, pFunc);
	if (r)
		return r;
	r = shim_func_of(GL_H_KERNEL, kernel, &k);
	if (r)
		return r;
	f = (struct shim_func *)shim_obj_new(GL_H_FUNC);
	if (!f)
		return CUDA_ERROR_OUT_OF_MEMORY;
	f->kernel = k;
	f->nparams = k->nparams;
	f->params_size = k->params_size;
	f->params = k->params;
	memcpy(f->attr, k->attr, sizeof(f->attr));
	a.pFunc = f->o.id;
	a.kernel = k->o.id;
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(&f->o);
		return r;
	}
	shim_obj_created(&f->o);
	*pFunc = (CUfunction)f;
	return r;
}

/* A function, or a kernel where the driver takes one as a function. */
CUresult shim_func_get(CUfunction h, struct shim_func **f)
{
	struct shim_obj *o;
	CUresult r = shim_obj_get(GL_H_FUNC, h, &o);

	if (r && !shim_obj_get(GL_H_KERNEL, h, &o))
		r = CUDA_SUCCESS;
	if (r)
		return r;
	*f = (struct shim_func *)o;
	return shim_func_ready(*f);
}

CUresult shim_func_of(unsigned int kind, const void *h, struct shim_func **f)
{
	struct shim_obj *o;
	CUresult r = shim_obj_get(kind, h, &o);

	if (r)
		return r;
	*f = (struct shim_func *)o;
	return shim_func_ready(*f);
}

CUresult shim_cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
	struct shim_func *f;
	CUresult r;

	if (!pi || (unsigned int)attrib >= CU_FUNC_ATTRIBUTE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_func_get(hfunc, &f);
	if (r)
		return r;
	*pi = f->attr[attrib];
	return CUDA_SUCCESS;
}

CUresult shim_cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel,
				   CUdevice dev)
{
	struct shim_func *k;
	CUresult r;

	if (!pi || (unsigned int)attrib >= CU_FUNC_ATTRIBUTE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_dev_check(dev);
	if (r)
		return r;
	r = shim_func_of(GL_H_KERNEL, kernel, &k);
	if (r)
		return r;
	*pi = k->attr[attrib];
	return CUDA_SUCCESS;
}

CUresult shim_cuFuncGetParamInfo(CUfunction func, size_t index, size_t *off, size_t *size)
{
	struct shim_func *f;
	CUresult r = shim_func_get(func, &f);

	return r ? r : shim_param_info(f, index, off, size);
}

/* ---- launches ---- */

/* Pack kernelParams or extra into buf (GLEAM_PARAMS_MAX bytes); 0 or error. */
CUresult shim_pack_params(struct shim_func *f, void **kp, void **extra, unsigned char *buf,
			  uint64_t *len)
{
	if (kp && extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (extra) {
		void *p = NULL;
		size_t *psz = NULL;

		for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
			if (i > 64)
				return CUDA_ERROR_INVALID_VALUE;
			if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
				p = extra[i + 1];
			else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
				psz = extra[i + 1];
			else
				return CUDA_ERROR_INVALID_VALUE;
		}
		if (!p || !psz || *psz > GLEAM_PARAMS_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		memcpy(buf, p, *psz);
		*len = *psz;
		return CUDA_SUCCESS;
	}
	if (f->nparams && !kp)
		return CUDA_ERROR_INVALID_VALUE;
	memset(buf, 0, f->params_size);
	for (uint32_t i = 0; i < f->nparams; i++)
		memcpy(buf + f->params[i].offset, kp[i], f->params[i].size);
	*len = f->params_size;
	return CUDA_SUCCESS;
}

/* What the driver checks before it queues a launch, checked here. */
CUresult shim_check_dims(struct shim_func *f, const unsigned int g[3], const unsigned int b[3],
			 unsigned int shmem)
{
	const int32_t *a = shim.dev[f->o.dev].info.attr;
	uint64_t threads = (uint64_t)b[0] * b[1] * b[2];

	if (!g[0] || !g[1] || !g[2] || !b[0] || !b[1] || !b[2])
		return CUDA_ERROR_INVALID_VALUE;
	if (b[0] > (unsigned int)a[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X] ||
	    b[1] > (unsigned int)a[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y] ||
	    b[2] > (unsigned int)a[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z] ||
	    g[0] > (unsigned int)a[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X] ||
	    g[1] > (unsigned int)a[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y] ||
	    g[2] > (unsigned int)a[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z])
		return CUDA_ERROR_INVALID_VALUE;
	if (threads > (uint64_t)f->attr[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK])
		return CUDA_ERROR_INVALID_VALUE;
	if ((uint64_t)shmem + (uint64_t)f->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES] >
	    (uint64_t)a[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] &&
	    a[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] > 0)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

static __thread unsigned char param_buf[GLEAM_PARAMS_MAX + 8];

/* A launch's parameters, packed after their length, as the record's piece iov. */
static CUresult params_piece(struct shim_func *f, void **kp, void **extra, struct iovec *iov)
{
	uint64_t len;
	CUresult r = shim_pack_params(f, kp, extra, param_buf + 8, &len);

	if (r)
		return r;
	memcpy(param_buf, &len, 8);
	iov->iov_base = param_buf;
	iov->iov_len = 8 + len;
	return CUDA_SUCCESS;
}

CUresult shim_cuLaunchKernel(CUfunction h, unsigned int gx, unsigned int gy, unsigned int gz,
			     unsigned int bx, unsigned int by, unsigned int bz,
			     unsigned int shmem, CUstream stream, void **kp, void **extra,
			     int per_thread)
{
	const unsigned int g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
	struct gl_a_cuLaunchKernel a;
	struct shim_func *f;
	struct shim_call c;
	struct iovec iov;
	CUresult r;

	r = shim_begin_io(&c, GL_FN_cuLaunchKernel, &a, sizeof(a), NULL, 0);
	if (r)
		return r;
	r = shim_func_get(h, &f);
	if (!r)
		r = shim_check_dims(f, g, b, shmem);
	if (!r)
		r = shim_stream_id(stream, per_thread, &a.hStream);
	if (!r)
		r = params_piece(f, kp, extra, &iov);
	if (r)
		return r;
	a.f = f->o.id;
	a.gridDimX = gx;
	a.gridDimY = gy;
	a.gridDimZ = gz;
	a.blockDimX = bx;
	a.blockDimY = by;
	a.blockDimZ = bz;
	a.sharedMemBytes = shmem;
	return shim_call_iov(&c, &iov);
}

/*
 * A launch configuration as records carry it: dimensions, shared memory,
 * stream id and attributes (Documentation/protocol.md).  Attributes whose
 * values hold handles would need translating and are refused.
 */
CUresult shim_pack_config(const CUlaunchConfig *cfg, int per_thread, const char *who,
			  struct gleam_launch_ex *lx, struct gleam_launch_attr *attrs)
{
	CUresult r;

	if (!cfg || cfg->numAttrs > GLEAM_LAUNCH_ATTRS_MAX || (cfg->numAttrs && !cfg->attrs))
		return CUDA_ERROR_INVALID_VALUE;
	memset(lx, 0, sizeof(*lx));
	lx->grid[0] = cfg->gridDimX;
	lx->grid[1] = cfg->gridDimY;
	lx->grid[2] = cfg->gridDimZ;
	lx->block[0] = cfg->blockDimX;
	lx->block[1] = cfg->blockDimY;
	lx->block[2] = cfg->blockDimZ;
	lx->shared_bytes = cfg->sharedMemBytes;
	lx->nattrs = cfg->numAttrs;
	r = shim_stream_id(cfg->hStream, per_thread, &lx->stream);
	if (r)
		return r;
	for (unsigned int i = 0; i < cfg->numAttrs; i++) {
		const CUlaunchAttribute *at = &cfg->attrs[i];

		if (at->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ||
		    at->id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT) {
			static bool said;

			if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
				gl_err("%s: event launch attributes are not supported", who);
			return CUDA_ERROR_NOT_SUPPORTED;
		}
		memset(&attrs[i], 0, sizeof(attrs[i]));
		attrs[i].id = at->id;
		memcpy(attrs[i].value, &at->value, sizeof(attrs[i].value));
	}
	return CUDA_SUCCESS;
}

CUresult shim_cuLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction h, void **kp, void **extra,
			       int per_thread)
{
	struct gl_a_cuLaunchKernelEx a;
	struct gleam_launch_ex lx;
	struct gleam_launch_attr attrs[GLEAM_LAUNCH_ATTRS_MAX];
	struct shim_func *f;
	struct shim_call c;
	struct iovec iov[3];
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuLaunchKernelEx, cfg);
	if (r)
		return r;
	r = shim_func_get(h, &f);
	if (r)
		return r;
	r = shim_pack_config(cfg, per_thread, "cuLaunchKernelEx", &lx, attrs);
	if (r)
		return r;
	r = shim_check_dims(f, lx.grid, lx.block, lx.shared_bytes);
	if (r)
		return r;
	r = params_piece(f, kp, extra, &iov[2]);
	if (r)
		return r;
	a.f = f->o.id;
	iov[0].iov_base = &lx;
	iov[0].iov_len = sizeof(lx);
	iov[1].iov_base = attrs;
	iov[1].iov_len = cfg->numAttrs * sizeof(attrs[0]);
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 3;
	return shim_call(&c);
}

/*
 * Modules load lazily unless CUDA_MODULE_LOADING=EAGER, the driver's rule
 * since CUDA 12.2.  The worker's driver reads the same variable, which
 * gleamd passes on from its own environment.
 */
CUresult shim_cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
	const char *e = getenv("CUDA_MODULE_LOADING");

	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	*mode = e && !strcasecmp(e, "EAGER") ? CU_MODULE_EAGER_LOADING : CU_MODULE_LAZY_LOADING;
	return CUDA_SUCCESS;
}

/* A lookup's answer, arrived: the server's attributes and layout. */
static CUresult take_info(struct shim_func *f, CUresult r)
{
	const struct gleam_funcinfo *fi = f->pinfo;
	bool ok = !r && fi->nparams <= GLEAM_NPARAMS_MAX && fi->params_size <= GLEAM_PARAMS_MAX;

	for (uint32_t i = 0; ok && i < fi->nparams; i++)
		ok = f->pparams[i].size <= fi->params_size &&
		     f->pparams[i].offset <= fi->params_size - f->pparams[i].size;
	if (!ok)
		return r ? r : CUDA_ERROR_INVALID_VALUE;
	memcpy(f->attr, fi->attr, sizeof(f->attr));
	/* The compiler's layout is the driver's own; the PTX's should agree. */
	if (fi->nparams != f->nparams || fi->params_size != f->params_size ||
	    memcmp(f->params, f->pparams, f->nparams * sizeof(*f->params))) {
		static bool said;
		struct gleam_param *p = realloc(f->params, (fi->nparams ? fi->nparams : 1) *
						sizeof(*p));

		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			gl_err("a kernel's parameters read from its PTX differ from the driver's; "
			       "taking the driver's");
		if (!p)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(p, f->pparams, fi->nparams * sizeof(*p));
		f->params = p;
		f->nparams = fi->nparams;
		f->params_size = fi->params_size;
	}
	return CUDA_SUCCESS;
}

static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;

CUresult shim_func_ready(struct shim_func *f)
{
	CUresult r;

	if (!__atomic_load_n(&f->pending, __ATOMIC_ACQUIRE))
		return f->status;
	pthread_mutex_lock(&ready_lock);
	if (f->pending) {
		r = take_info(f, shim_pending_wait(f->pending));
		if (r && !f->status)
			f->status = r;
		free(f->pinfo);
		free(f->pparams);
		f->pinfo = NULL;
		f->pparams = NULL;
		__atomic_store_n(&f->pending, NULL, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&ready_lock);
	return f->status;
}
