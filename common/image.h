/* SPDX-License-Identifier: MIT */
#ifndef GLEAM_IMAGE_H
#define GLEAM_IMAGE_H

#include <stddef.h>

/*
 * Size of a module image (PTX text, an ELF cubin or a fat binary) from its
 * own headers, reading no byte at or past avail; 0 when the image is not
 * recognised or does not fit in avail.
 */
size_t gl_image_size(const void *image, size_t avail);

#endif
