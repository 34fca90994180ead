/* SPDX-License-Identifier: MIT */
/* Sizes on the command line of the benchmark tools: 256M, 4K, 8G or bytes. */
#ifndef GLEAM_TOOLS_SIZE_ARG_H
#define GLEAM_TOOLS_SIZE_ARG_H

#include <stdlib.h>

/* The size s names, or 0 when it is not one. */
static inline size_t size_arg(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	switch (*end) {
	case 'G': case 'g': v *= 1 << 30; break;
	case 'M': case 'm': v *= 1 << 20; break;
	case 'K': case 'k': v *= 1 << 10; break;
	case 0: break;
	default: return 0;
	}
	return v > 0 ? (size_t)v : 0;
}

#endif
