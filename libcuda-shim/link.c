// SPDX-License-Identifier: MIT
/*
 * JIT linking (cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete,
 * cuLinkDestroy).  The server's driver links; the shim mints the link
 * state's handle, so creating one does not wait.  Each input waits for
 * the driver's verdict, as the driver compiles PTX when it is added and
 * reports a failure there (with its error log), and the completion waits
 * for the linked cubin, which comes back whole: cuLinkComplete hands the
 * program a pointer to it, and programs load it, write it to a cache on
 * disk or read it.  Its load sends it to the server again; a cubin is
 * what the shim indexes for lookups and launches, so nothing else about
 * it needs the server.
 *
 * The logs and the wall time the program asked for with cuLinkCreate's
 * options are the driver's on the server: they come back with each
 * answer and are written into the program's buffers and option values,
 * which the driver requires to live as long as the link state.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gleam_graph.h"
#include "shim.h"
#include "util.h"

struct shim_link {
	struct shim_obj o;
	void **vals;			/* the program's option values, written back */
	int info_at, info_size_at;	/* indices of the log options, or -1 */
	int err_at, err_size_at;
	int wall_at;
	uint32_t info_size, err_size;	/* the logs the server keeps, bytes */
	void *map;			/* the linked cubin's mapping */
	size_t map_len;
};

size_t shim_link_size(void)
{
	return sizeof(struct shim_link);
}

void shim_link_put(struct shim_link *l)
{
	if (l->map)
		munmap(l->map, l->map_len);
	l->map = NULL;
	l->map_len = 0;
}

/* Options whose values point at arrays of this process: not sent. */
static bool pointer_option(CUjit_option o)
{
	return o == CU_JIT_GLOBAL_SYMBOL_NAMES || o == CU_JIT_GLOBAL_SYMBOL_ADDRESSES ||
	       o == CU_JIT_REFERENCED_KERNEL_NAMES || o == CU_JIT_REFERENCED_VARIABLE_NAMES;
}

/* What only cuLinkCreate takes (outputs, the target): cuLinkAddData refuses it. */
static bool create_only(CUjit_option o)
{
	return o == CU_JIT_WALL_TIME || o == CU_JIT_INFO_LOG_BUFFER ||
	       o == CU_JIT_ERROR_LOG_BUFFER || o == CU_JIT_TARGET_FROM_CUCONTEXT ||
	       o == CU_JIT_TARGET;
}

/*
 * Options as records carry them; for cuLinkCreate (l set), where the
 * program's output options are, to answer them later.
 */
static CUresult opts_put(unsigned int n, const CUjit_option *opt, void **val,
			 struct gleam_jit_opt *w, struct shim_link *l)
{
	if (n > GLEAM_LINK_OPTS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	if (n && (!opt || !val))
		return CUDA_ERROR_INVALID_VALUE;
	for (unsigned int i = 0; i < n; i++) {
		uint64_t v = (uint64_t)(uintptr_t)val[i];

		if ((unsigned int)opt[i] >= CU_JIT_NUM_OPTIONS || (!l && create_only(opt[i])))
			return CUDA_ERROR_INVALID_VALUE;
		if (pointer_option(opt[i]))
			return SHIM_REFUSE("JIT options naming symbols of this process (global "
					   "symbol addresses, referenced kernel and variable "
					   "names) are not supported by Gleam: returning "
					   "CUDA_ERROR_NOT_SUPPORTED");
		switch (opt[i]) {
		case CU_JIT_INFO_LOG_BUFFER:
			if (l)
				l->info_at = (int)i;
			v = 0;
			break;
		case CU_JIT_ERROR_LOG_BUFFER:
			if (l)
				l->err_at = (int)i;
			v = 0;
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			v = MIN(v & 0xffffffffu, (uint64_t)GLEAM_LINK_LOG_MAX);
			if (l && opt[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES) {
				l->info_size_at = (int)i;
				l->info_size = (uint32_t)v;
			} else if (l) {
				l->err_size_at = (int)i;
				l->err_size = (uint32_t)v;
			}
			break;
		case CU_JIT_WALL_TIME:
			if (l)
				l->wall_at = (int)i;
			v = 0;
			break;
		default:
			break;
		}
		w[i] = (struct gleam_jit_opt){ .option = opt[i], .value = v };
	}
	/* A buffer without its size (or a size without its buffer) is no log. */
	if (l && (l->info_at < 0 || l->info_size_at < 0))
		l->info_at = l->info_size_at = -1, l->info_size = 0;
	if (l && (l->err_at < 0 || l->err_size_at < 0))
		l->err_at = l->err_size_at = -1, l->err_size = 0;
	return CUDA_SUCCESS;
}

CUresult shim_cuLinkCreate(unsigned int n, CUjit_option *opt, void **val, CUlinkState *out)
{
	struct gl_a_cuLinkCreate a = { 0 };
	struct gleam_jit_opt w[GLEAM_LINK_OPTS_MAX];
	struct shim_link *l;
	struct shim_call c;
	struct iovec iov;
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuLinkCreate, out);
	if (r)
		return r;
	l = (struct shim_link *)shim_obj_new(GL_H_LINK);
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	l->info_at = l->info_size_at = l->err_at = l->err_size_at = l->wall_at = -1;
	r = opts_put(n, opt, val, w, l);
	if (r) {
		shim_obj_put(&l->o);
		return r;
	}
	l->vals = val;
	a.numOptions = n;
	a.stateOut = l->o.id;
	iov = (struct iovec){ w, n * sizeof(w[0]) };
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = &iov;
	c.niov = n ? 1 : 0;
	r = shim_call(&c);
	if (r && c.waited) {
		shim_obj_put(&l->o);
		return r;
	}
	shim_obj_created(&l->o);
	*out = (CUlinkState)l;
	return r;
}

/*
 * The logs the server sent (at logs: the info log, then the error log),
 * into the program's buffers, and the bytes each holds into its size
 * option, as the driver writes them.
 */
static void logs_out(struct shim_link *l, const char *logs)
{
	struct { int at, size_at; uint32_t size; const char *text; } lg[2] = {
		{ l->info_at, l->info_size_at, l->info_size, logs },
		{ l->err_at, l->err_size_at, l->err_size, logs + l->info_size },
	};

	for (int i = 0; i < 2; i++) {
		size_t n;

		if (lg[i].at < 0 || !lg[i].size || !l->vals[lg[i].at])
			continue;
		n = strnlen(lg[i].text, lg[i].size - 1);
		memcpy(l->vals[lg[i].at], lg[i].text, n);
		((char *)l->vals[lg[i].at])[n] = 0;
		l->vals[lg[i].size_at] = (void *)(uintptr_t)(n ? n + 1 : 0);
	}
}

static CUresult link_get(CUlinkState h, struct shim_link **l)
{
	struct shim_obj *o;
	CUresult r = shim_obj_get(GL_H_LINK, h, &o);

	*l = (struct shim_link *)o;
	return r;
}

CUresult shim_cuLinkAddData(CUlinkState h, CUjitInputType type, void *data, size_t size,
			    const char *name, unsigned int n, CUjit_option *opt, void **val)
{
	struct gl_a_cuLinkAddData a = { 0 };
	struct gleam_jit_opt w[GLEAM_LINK_OPTS_MAX];
	struct gleam_link_input in = { 0 };
	struct shim_link *l;
	struct shim_call c;
	struct iovec iov[4];
	char *logs;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuLinkAddData);
	if (r)
		return r;
	r = link_get(h, &l);
	if (r)
		return r;
	if ((unsigned int)type >= CU_JIT_NUM_INPUT_TYPES || !data || !size ||
	    size > GLEAM_IMAGE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = opts_put(n, opt, val, w, NULL);
	if (r)
		return r;
	if (name) {
		in.name_len = strnlen(name, GLEAM_NAME_MAX) + 1;
		if (in.name_len > GLEAM_NAME_MAX)
			return CUDA_ERROR_INVALID_VALUE;
	}
	logs = calloc(1, (size_t)l->info_size + l->err_size + 1);
	if (!logs)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a.state = l->o.id;
	a.type = type;
	a.size = size;
	a.numOptions = n;
	iov[0] = (struct iovec){ w, n * sizeof(w[0]) };
	iov[1] = (struct iovec){ &in, sizeof(in) };
	iov[2] = (struct iovec){ (void *)name, in.name_len };
	iov[3] = (struct iovec){ data, size };
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = iov;
	c.niov = 4;
	c.outbuf = logs;
	c.outbuf_len = (size_t)l->info_size + l->err_size;
	r = shim_call(&c);
	if (c.waited)
		logs_out(l, logs);
	free(logs);
	return r;
}

/* A file's bytes, sent as cuLinkAddData would send them (PTX with its NUL). */
CUresult shim_cuLinkAddFile(CUlinkState h, CUjitInputType type, const char *path,
			    unsigned int n, CUjit_option *opt, void **val)
{
	char *buf;
	size_t len;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!path)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_read_image(path, &buf, &len);
	if (r)
		return r;
	r = shim_cuLinkAddData(h, type, buf, len + (type == CU_JIT_INPUT_PTX), path, n, opt, val);
	free(buf);
	return r;
}

/*
 * The cubin comes back in DATA pieces at offset 0 of a mapping as large
 * as any image may be (address space only: what is not written is never
 * touched), or as large as the machine lets the shim map, the logs after
 * it; what is left beyond the cubin is unmapped again.  The cubin lives
 * as long as the link state, as the driver's.
 */
CUresult shim_cuLinkComplete(CUlinkState h, void **cubin, size_t *size)
{
	struct gl_a_cuLinkComplete a = { 0 };
	struct gleam_link_complete room = { .cubin_max = GLEAM_IMAGE_MAX };
	struct gleam_link_reply rep = { 0 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len, keep;
	struct shim_link *l;
	struct shim_call c;
	struct iovec iov;
	char *map;
	CUresult r;

	r = shim_begin_out(&c, GL_FN_cuLinkComplete, cubin);
	if (r)
		return r;
	r = link_get(h, &l);
	if (r)
		return r;
	/* Where overcommit is strict, a smaller room, down to 16 MiB. */
	for (;;) {
		len = (size_t)room.cubin_max + l->info_size + l->err_size;
		map = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (map != MAP_FAILED)
			break;
		if (room.cubin_max <= (16u << 20))
			return CUDA_ERROR_OUT_OF_MEMORY;
		room.cubin_max /= 4;
	}
	a.state = l->o.id;
	iov = (struct iovec){ &room, sizeof(room) };
	c.args = &a;
	c.args_len = sizeof(a);
	c.iov = &iov;
	c.niov = 1;
	c.out = &rep;
	c.out_len = sizeof(rep);
	c.outbuf = map;
	c.outbuf_len = len;
	r = shim_call(&c);
	if (!r && (!rep.cubin_size || rep.cubin_size > room.cubin_max))
		r = CUDA_ERROR_INVALID_IMAGE;
	logs_out(l, map + room.cubin_max);
	if (!r && l->wall_at >= 0) {
		uintptr_t bits = rep.wall_ms_bits;

		l->vals[l->wall_at] = (void *)bits;
	}
	if (r) {
		munmap(map, len);
		return r;
	}
	keep = (rep.cubin_size + page - 1) & ~(page - 1);
	munmap(map + keep, len - keep);
	shim_link_put(l);
	l->map = map;
	l->map_len = keep;
	*cubin = map;
	if (size)
		*size = (size_t)rep.cubin_size;
	return CUDA_SUCCESS;
}

CUresult shim_cuLinkDestroy(CUlinkState h)
{
	struct gl_a_cuLinkDestroy a = { 0 };
	struct shim_link *l;
	struct shim_call c;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuLinkDestroy);
	if (r)
		return r;
	r = link_get(h, &l);
	if (r)
		return r;
	a.state = l->o.id;
	c.args = &a;
	c.args_len = sizeof(a);
	r = shim_call(&c);
	if (!r || !c.waited)
		shim_obj_put(&l->o);
	return r;
}
