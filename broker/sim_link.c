// SPDX-License-Identifier: MIT
/*
 * The sim's JIT linker.  The sim compiles nothing, so it models a link of
 * PTX inputs: each input must be PTX (text with .version, whose entries
 * are test kernels, as a PTX module's must be); the link checks that
 * every function an input declares .extern is defined by one of them (or
 * is one the driver provides, as cudaGraphSetConditional), as the
 * driver's linker does; and the linked image is the inputs' text one
 * after another, which the sim's module loader takes as it takes PTX.
 * Cubins, fat binaries, host objects and libraries as inputs are not
 * modelled (said once).  The logs say what failed; the wall time is 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sim.h"
#include "sim_refuse.h"

/* What the driver provides to every link: device runtime functions kernels call. */
static const char *const provided[] = {
	"cudaGraphSetConditional", "vprintf", "__assertfail", "malloc", "free",
};

struct sim_link {
	struct sim_obj o;
	char *text;		/* the inputs, one after another */
	size_t len, cap;
	char *info, *err;	/* the program's log buffers (the worker's, here) */
	size_t info_size, err_size;
	void **vals;
	int wall_at;
	char *out;		/* the linked image, the state's */
};

static void log_to(char *buf, size_t size, const char *fmt, const char *what)
{
	size_t n = buf ? strnlen(buf, size) : 0;

	if (buf && size > n + 1)
		snprintf(buf + n, size - n, fmt, what);
}

CUresult sim_cuLinkCreate(unsigned int n, CUjit_option *opt, void **val, CUlinkState *out)
{
	struct sim_link *l;

	CTX_OK();
	if (n && (!opt || !val))
		return CUDA_ERROR_INVALID_VALUE;
	l = sim_obj_new(sizeof(*l), K_LINK);
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	l->wall_at = -1;
	l->vals = val;
	for (unsigned int i = 0; i < n; i++) {
		switch (opt[i]) {
		case CU_JIT_INFO_LOG_BUFFER:
			l->info = val[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER:
			l->err = val[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			l->info_size = (uintptr_t)val[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			l->err_size = (uintptr_t)val[i];
			break;
		case CU_JIT_WALL_TIME:
			l->wall_at = (int)i;
			break;
		default:
			if ((unsigned int)opt[i] >= CU_JIT_NUM_OPTIONS) {
				sim_obj_free(l);
				return CUDA_ERROR_INVALID_VALUE;
			}
			break;
		}
	}
	if (!l->info)
		l->info_size = 0;
	if (!l->err)
		l->err_size = 0;
	*out = (CUlinkState)l;
	return CUDA_SUCCESS;
}

static CUresult link_ok(CUlinkState h)
{
	CTX_OK();
	return sim_is(h, K_LINK) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult sim_cuLinkAddData(CUlinkState h, CUjitInputType type, void *data, size_t size,
			   const char *name, unsigned int n, CUjit_option *opt, void **val)
{
	struct sim_link *l = (struct sim_link *)h;
	size_t len;
	char *t;
	CUresult r = link_ok(h);

	if (r)
		return r;
	if (!data || !size)
		return CUDA_ERROR_INVALID_VALUE;
	if (type != CU_JIT_INPUT_PTX)
		return SIM_REFUSE("link inputs other than PTX");
	len = strnlen(data, size);
	if (len == size || !memmem(data, len, ".version", 8)) {
		log_to(l->err, l->err_size, "sim: %s: not PTX\n", name ? name : "input");
		return CUDA_ERROR_INVALID_PTX;
	}
	if (l->len + len + 2 > l->cap) {
		size_t cap = MAX(2 * l->cap, l->len + len + 2);

		t = realloc(l->text, cap);
		if (!t)
			return CUDA_ERROR_OUT_OF_MEMORY;
		l->text = t;
		l->cap = cap;
	}
	memcpy(l->text + l->len, data, len);
	l->len += len;
	l->text[l->len++] = '\n';
	l->text[l->len] = 0;
	return CUDA_SUCCESS;
}

/* The name of the function a .func at p declares or defines (after its return parameter). */
static size_t func_name(const char *p, const char *end, const char **name)
{
	int depth = 0;
	size_t n = 0;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p < end && *p == '(') {
		for (; p < end; p++) {
			depth += *p == '(';
			depth -= *p == ')';
			if (!depth) {
				p++;
				break;
			}
		}
	}
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	*name = p;
	while (p + n < end && (p[n] == '_' || p[n] == '$' || p[n] == '.' ||
			       (p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'z') ||
			       (p[n] >= 'A' && p[n] <= 'Z')))
		n++;
	return n;
}

/* Whether text defines the function name (a .func that is not .extern). */
static bool defined(const char *text, size_t len, const char *name, size_t nlen)
{
	const char *end = text + len, *p = text;

	while ((p = memmem(p, (size_t)(end - p), ".func", 5))) {
		const char *line = p, *id;

		while (line > text && line[-1] != '\n')
			line--;
		p += 5;
		if (memmem(line, (size_t)(p - line), ".extern", 7))
			continue;
		if (func_name(p, end, &id) == nlen && !memcmp(id, name, nlen))
			return true;
	}
	return false;
}

/* The first function declared .extern and defined nowhere, or NULL. */
static const char *unresolved(const char *text, size_t len, size_t *nlen)
{
	const char *end = text + len, *p = text;

	while ((p = memmem(p, (size_t)(end - p), ".extern .func", 13))) {
		const char *name;
		bool known = false;

		p += 13;
		*nlen = func_name(p, end, &name);
		for (size_t i = 0; i < ARRAY_SIZE(provided); i++)
			known |= strlen(provided[i]) == *nlen && !memcmp(provided[i], name, *nlen);
		if (*nlen && !known && !defined(text, len, name, *nlen))
			return name;
	}
	return NULL;
}

CUresult sim_cuLinkComplete(CUlinkState h, void **cubin, size_t *size)
{
	struct sim_link *l = (struct sim_link *)h;
	const char *missing;
	char what[128];
	size_t n;
	CUresult r = link_ok(h);

	if (r)
		return r;
	if (!cubin || !l->len)
		return CUDA_ERROR_INVALID_VALUE;
	missing = unresolved(l->text, l->len, &n);
	if (missing) {
		snprintf(what, sizeof(what), "%.*s", (int)MIN(n, (size_t)100), missing);
		log_to(l->err, l->err_size, "sim: undefined reference to %s\n", what);
		return CUDA_ERROR_INVALID_IMAGE;
	}
	free(l->out);
	l->out = malloc(l->len + 1);
	if (!l->out)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(l->out, l->text, l->len + 1);
	if (l->wall_at >= 0)
		l->vals[l->wall_at] = NULL;
	*cubin = l->out;
	if (size)
		*size = l->len + 1;
	return CUDA_SUCCESS;
}

CUresult sim_cuLinkDestroy(CUlinkState h)
{
	struct sim_link *l = (struct sim_link *)h;

	if (!sim_is(h, K_LINK))
		return CUDA_ERROR_INVALID_HANDLE;
	free(l->text);
	free(l->out);
	sim_obj_free(l);
	return CUDA_SUCCESS;
}
