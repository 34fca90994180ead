// SPDX-License-Identifier: MIT
/*
 * Replay of JIT linking (uapi/gleam_graph.h; Documentation/design.md,
 * "JIT linking").  A link state is the worker's: the driver's state, and
 * the option arrays and log buffers the driver writes into for as long as
 * the state lives.  Each input and the completion answer with the logs as
 * far as the driver wrote them; the completion with the linked cubin, in
 * pieces, which the program gets as cuLinkComplete's image.
 *
 * Options arrive as (option, value) pairs; the log buffers are the
 * worker's own, of the sizes their options give (bounded), and options
 * whose values would point into the program's memory are refused.  An
 * input must lie whole in its record: text (PTX) ends in its NUL, a cubin
 * or fat binary by its own headers.
 */
#include <stdlib.h>
#include <string.h>

#include "gleam_graph.h"
#include "image.h"
#include "util.h"
#include "worker.h"

struct wk_link {
	CUlinkState st;
	unsigned int n;
	CUjit_option opt[GLEAM_LINK_OPTS_MAX];
	void *val[GLEAM_LINK_OPTS_MAX];
	char *info, *err;		/* the logs, each with a NUL beyond its size */
	uint32_t info_size, err_size;
	int wall_at;			/* the wall time's option, or -1 */
};

static bool pointer_option(uint32_t o)
{
	return o == CU_JIT_GLOBAL_SYMBOL_NAMES || o == CU_JIT_GLOBAL_SYMBOL_ADDRESSES ||
	       o == CU_JIT_REFERENCED_KERNEL_NAMES || o == CU_JIT_REFERENCED_VARIABLE_NAMES;
}

static bool create_only(uint32_t o)
{
	return o == CU_JIT_WALL_TIME || o == CU_JIT_INFO_LOG_BUFFER ||
	       o == CU_JIT_ERROR_LOG_BUFFER || o == CU_JIT_TARGET_FROM_CUCONTEXT ||
	       o == CU_JIT_TARGET;
}

/* n options at the reader's position, checked; create: cuLinkCreate's. */
static const struct gleam_jit_opt *opts(struct wk_call *k, uint64_t n, bool create)
{
	const struct gleam_jit_opt *o;

	if (n > GLEAM_LINK_OPTS_MAX)
		return NULL;
	if (!n)
		return (const struct gleam_jit_opt *)"";
	o = wk_data(k, n * sizeof(*o));
	for (uint64_t i = 0; o && i < n; i++)
		if (o[i].reserved || o[i].option >= CU_JIT_NUM_OPTIONS ||
		    pointer_option(o[i].option) || (!create && create_only(o[i].option)))
			return NULL;
	return o;
}

static void link_free(struct wk_link *l)
{
	if (!l)
		return;
	free(l->info);
	free(l->err);
	free(l);
}

/*
 * The driver's options for the state: the program's values, the
 * worker's log buffers in place of the program's.
 */
static CUresult link_opts(struct wk_link *l, const struct gleam_jit_opt *o, unsigned int n)
{
	l->wall_at = -1;
	for (unsigned int i = 0; i < n; i++) {
		if (o[i].option == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
			l->info_size = (uint32_t)MIN(o[i].value, (uint64_t)GLEAM_LINK_LOG_MAX);
		if (o[i].option == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			l->err_size = (uint32_t)MIN(o[i].value, (uint64_t)GLEAM_LINK_LOG_MAX);
	}
	l->info = calloc(1, (size_t)l->info_size + 1);
	l->err = calloc(1, (size_t)l->err_size + 1);
	if (!l->info || !l->err)
		return CUDA_ERROR_OUT_OF_MEMORY;
	l->n = n;
	for (unsigned int i = 0; i < n; i++) {
		l->opt[i] = (CUjit_option)o[i].option;
		switch (o[i].option) {
		case CU_JIT_INFO_LOG_BUFFER:
			l->val[i] = l->info;
			break;
		case CU_JIT_ERROR_LOG_BUFFER:
			l->val[i] = l->err;
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			l->val[i] = (void *)(uintptr_t)l->info_size;
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			l->val[i] = (void *)(uintptr_t)l->err_size;
			break;
		case CU_JIT_WALL_TIME:
			l->wall_at = (int)i;
			l->val[i] = NULL;
			break;
		default:
			l->val[i] = (void *)(uintptr_t)o[i].value;
			break;
		}
	}
	return CUDA_SUCCESS;
}

CUresult wk_cuLinkCreate(struct wk_call *k)
{
	const struct gl_a_cuLinkCreate *a = wk_args(k, sizeof(*a));
	const struct gleam_jit_opt *o;
	struct wk_link *l;
	CUresult r;

	if (!a || wk_handle_taken(k->w, a->stateOut))
		return CUDA_ERROR_INVALID_VALUE;
	o = opts(k, a->numOptions, true);
	if (!o)
		return CUDA_ERROR_INVALID_VALUE;
	l = calloc(1, sizeof(*l));
	r = l ? link_opts(l, o, (unsigned int)a->numOptions) : CUDA_ERROR_OUT_OF_MEMORY;
	if (!r)
		r = k->w->be->op.f_cuLinkCreate(l->n, l->opt, l->val, &l->st);
	if (r) {
		link_free(l);
		l = NULL;
	}
	wk_handle_new(k->w, GL_H_LINK, a->stateOut, l, r);
	return r;
}

/* The logs as far as the driver wrote them, to the shim at base. */
static void send_logs(struct wk_call *k, const struct wk_link *l, uint64_t base)
{
	size_t n = strnlen(l->info, l->info_size);

	if (n)
		wk_reply_piece(k, base, l->info, MIN(n + 1, (size_t)l->info_size));
	n = strnlen(l->err, l->err_size);
	if (n)
		wk_reply_piece(k, base + l->info_size, l->err, MIN(n + 1, (size_t)l->err_size));
}

/* An input whole in the record: text with its NUL, a binary image by its headers. */
static bool input_ok(uint32_t type, const unsigned char *data, uint64_t size)
{
	switch (type) {
	case CU_JIT_INPUT_PTX:
	case CU_JIT_INPUT_NVVM:
		return data[size - 1] == 0;
	case CU_JIT_INPUT_CUBIN:
	case CU_JIT_INPUT_FATBINARY: {
		size_t n = gl_image_size(data, (size_t)size);

		return n && n <= size;
	}
	default:
		/* Host objects and archives: the driver reads them within size. */
		return true;
	}
}

CUresult wk_cuLinkAddData(struct wk_call *k)
{
	const struct gl_a_cuLinkAddData *a = wk_args(k, sizeof(*a));
	const struct gleam_link_input *in;
	const struct gleam_jit_opt *o;
	CUjit_option opt[GLEAM_LINK_OPTS_MAX];
	void *val[GLEAM_LINK_OPTS_MAX];
	const unsigned char *data;
	const char *name = NULL;
	struct wk_link *l;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_LINK, a->state, (void **)&l);
	if (r)
		return r;
	o = opts(k, a->numOptions, false);
	in = o ? wk_data(k, sizeof(*in)) : NULL;
	if (!in || in->reserved || in->name_len > GLEAM_NAME_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	if (in->name_len && !(name = wk_str(k, in->name_len)))
		return CUDA_ERROR_INVALID_VALUE;
	if (a->type < 0 || a->type >= CU_JIT_NUM_INPUT_TYPES || !a->size ||
	    a->size > GLEAM_IMAGE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	data = wk_data(k, a->size);
	if (!data || !input_ok((uint32_t)a->type, data, a->size))
		return CUDA_ERROR_INVALID_VALUE;
	for (uint64_t i = 0; i < a->numOptions; i++) {
		opt[i] = (CUjit_option)o[i].option;
		val[i] = (void *)(uintptr_t)o[i].value;
	}
	r = k->w->be->op.f_cuLinkAddData(l->st, (CUjitInputType)a->type, (void *)data,
					 (size_t)a->size, name, (unsigned int)a->numOptions,
					 opt, val);
	send_logs(k, l, 0);
	return r;
}

/* The cubin in pieces at offset 0, the logs after the room the shim has for it. */
CUresult wk_cuLinkComplete(struct wk_call *k)
{
	const struct gl_a_cuLinkComplete *a = wk_args(k, sizeof(*a));
	const struct gleam_link_complete *c;
	struct gleam_link_reply *rep;
	struct wk_link *l;
	void *cubin = NULL;
	size_t size = 0;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	c = wk_data(k, sizeof(*c));
	if (!c || c->reserved || !c->cubin_max || c->cubin_max > GLEAM_IMAGE_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_LINK, a->state, (void **)&l);
	if (r)
		return r;
	r = k->w->be->op.f_cuLinkComplete(l->st, &cubin, &size);
	send_logs(k, l, c->cubin_max);
	if (r)
		return r;
	if (!cubin || !size)
		return CUDA_ERROR_INVALID_IMAGE;
	/* The shim has no room for it: the pieces would overrun its buffer. */
	if (size > c->cubin_max)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (size_t off = 0; off < size; off += GLEAM_PIECE_MAX)
		if (wk_reply_piece(k, off, (const char *)cubin + off, MIN((size_t)GLEAM_PIECE_MAX,
									 size - off)))
			return CUDA_ERROR_UNKNOWN;
	rep = wk_reply_struct(k, sizeof(*rep));
	if (!rep)
		return CUDA_ERROR_OUT_OF_MEMORY;
	rep->cubin_size = size;
	if (l->wall_at >= 0)
		memcpy(&rep->wall_ms_bits, &l->val[l->wall_at], sizeof(rep->wall_ms_bits));
	return CUDA_SUCCESS;
}

CUresult wk_cuLinkDestroy(struct wk_call *k)
{
	const struct gl_a_cuLinkDestroy *a = wk_args(k, sizeof(*a));
	struct wk_link *l;
	CUresult r;

	if (!a)
		return CUDA_ERROR_INVALID_VALUE;
	r = wk_handle(k->w, GL_H_LINK, a->state, (void **)&l);
	if (!r)
		r = k->w->be->op.f_cuLinkDestroy(l->st);
	if (r)
		return r;
	link_free(l);
	wk_handle_del(k->w, GL_H_LINK, a->state);
	return CUDA_SUCCESS;
}
