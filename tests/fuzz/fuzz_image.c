// SPDX-License-Identifier: MIT
/* Module images from hostile headers: sizes never read past the buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so that ASan sees any overread. */
	unsigned char *p = malloc(size ? size : 1);
	size_t n;

	if (!p)
		return 0;
	memcpy(p, data, size);
	n = gl_image_size(p, size);
	if (n > size)
		abort();
	free(p);
	return 0;
}
