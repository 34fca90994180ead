/* SPDX-License-Identifier: MIT */
/*
 * CUDA arrays as the driver describes them: the formats and their element
 * sizes, which descriptors cuArrayCreate, cuArray3DCreate and
 * cuMipmappedArrayCreate take on a device (its attribute array, indexed by
 * CUdevice_attribute as in struct gleam_devinfo), the levels of a
 * mipmapped array, and the extent a copy sees: rows of bytes, rows to a
 * slice, slices (a layered array's layers and a cubemap's faces are its
 * slices).  The shim checks what the program asks with these before it
 * sends anything, and the sim backend keeps its arrays by them; the
 * planner of copies in pieces (gl_copy_piece) serves the shim's uploads
 * and the worker's downloads alike.
 */
#ifndef GLEAM_CUARRAY_H
#define GLEAM_CUARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "gleam_record.h"

/* Levels a mipmapped array may have: 1 + log2 of the largest extent. */
#define GL_MIPMAP_LEVELS_MAX	32

/*
 * Bytes of one element of format fmt with ch channels, in *elem.
 * 0; -EINVAL for a format or channel count the driver refuses
 * (CUDA_ERROR_INVALID_VALUE); -EOPNOTSUPP for a format the driver has
 * that Gleam does not model (planar video, block-compressed and packed
 * normalised formats).
 */
int gl_array_format(unsigned int fmt, unsigned int ch, unsigned int *elem);

/*
 * Whether cuArray3DCreate takes d on a device with attributes dev (or,
 * mipmapped, cuMipmappedArrayCreate): 0, -EINVAL, or -EOPNOTSUPP for
 * what Gleam does not offer (sparse arrays, deferred mapping, video).
 */
int gl_array_check(const CUDA_ARRAY3D_DESCRIPTOR *d, const int32_t *dev, bool mipmapped);

/* The levels a mipmapped array of d gets when levels are asked for. */
unsigned int gl_mipmap_levels(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int levels);

/* The descriptor of level l of a mipmapped array of d. */
void gl_mipmap_level(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int l,
		     CUDA_ARRAY3D_DESCRIPTOR *out);

/*
 * One end of a copy, as CUDA_MEMCPY3D_PEER describes it: its kind of
 * memory, the byte, row and slice it starts at, the memory (host, device
 * or array), its pitch and rows to a slice, and its context.
 */
struct gl_copy_side {
	CUmemorytype type;
	size_t x, y, z;
	const void *host;
	CUdeviceptr dptr;
	CUarray array;
	size_t pitch, height;
	CUcontext ctx;
};

/* An array's extent for copies. */
struct gl_array_extent {
	uint64_t elem;		/* bytes per element */
	uint64_t row;		/* bytes per row */
	uint64_t rows;		/* rows per slice, at least 1 */
	uint64_t slices;	/* at least 1 */
};

void gl_array_extent(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int elem,
		     struct gl_array_extent *e);

/* Bytes of the whole array, its rows one after another. */
static inline uint64_t gl_array_bytes(const struct gl_array_extent *e)
{
	return e->row * e->rows * e->slices;
}

/*
 * Whether a copy box (x bytes into a row, row y, slice z; w bytes by h
 * rows by d slices) lies inside the array, x and w in whole elements.
 */
bool gl_array_box_ok(const struct gl_array_extent *e, uint64_t x, uint64_t y, uint64_t z,
		     uint64_t w, uint64_t h, uint64_t d);

/*
 * The bytes of host memory a copy reads or writes, or the device bytes it
 * spans from its first: rows of width bytes, pitch apart, height rows to
 * a slice of pitch * slice_rows bytes, depth slices, starting at
 * (z * slice_rows + y) * pitch + x.  false when that overflows or a row
 * does not fit its pitch (x + width > pitch) or a slice its rows.
 */
bool gl_copy_span(uint64_t x, uint64_t y, uint64_t z, uint64_t pitch, uint64_t slice_rows,
		  uint64_t width, uint64_t height, uint64_t depth, uint64_t *first,
		  uint64_t *span);

/*
 * A long copy in pieces: the piece of c that starts at byte off of its
 * rows laid end to end (0, then each previous piece's end), of at most
 * max bytes, as a copy of its own in *p (host ends all zero: the
 * piece's rows are its own, gapless).  Returns its bytes, 0 when off
 * is the end.  A piece is part of one row, whole rows of one slice, or
 * whole slices.
 */
uint64_t gl_copy_piece(const struct gleam_copy *c, uint64_t off, uint64_t max,
		       struct gleam_copy *p);

#endif /* GLEAM_CUARRAY_H */
