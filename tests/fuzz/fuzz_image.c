// SPDX-License-Identifier: MIT
/*
 * Module images from hostile headers: sizes never read past the buffer,
 * and the reader that answers lookups from an image (common/cubin.c)
 * picks, unpacks and indexes any bytes without reading past them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cubin.h"
#include "image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so that ASan sees any overread. */
	unsigned char *p = malloc(size ? size : 1);
	struct gl_module_index *m;
	struct gl_code code;
	unsigned char *raw;
	size_t n, len;

	if (!p)
		return 0;
	memcpy(p, data, size);
	n = gl_image_size(p, size);
	if (n > size)
		abort();
	if (!gl_code_pick(p, size, 9, 0, &code)) {
		if (code.data < p || code.len > size || code.data + code.len > p + size)
			abort();
		if (!gl_code_unpack(&code, &raw, &len)) {
			if (!gl_module_index(code.kind, raw, len, &m)) {
				for (uint32_t i = 0; i < m->nkernels; i++)
					if (gl_module_kernel(m, m->kernels[i].name) != &m->kernels[i])
						abort();
				gl_module_index_free(m);
			}
			free(raw);
		}
	}
	free(p);
	return 0;
}
