// SPDX-License-Identifier: MIT
/*
 * CUDA arrays as the driver describes them (cuarray.h): formats, the
 * extents each kind of array may have on a device, mipmap levels, and
 * copies cut into pieces.
 */
#include <errno.h>

#include "cuarray.h"

int gl_array_format(unsigned int fmt, unsigned int ch, unsigned int *elem)
{
	unsigned int size;

	switch (fmt) {
	case CU_AD_FORMAT_UNSIGNED_INT8:
	case CU_AD_FORMAT_SIGNED_INT8:
		size = 1;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT16:
	case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
		size = 2;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT32:
	case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT:
		size = 4;
		break;
	case CU_AD_FORMAT_NV12:
	case CU_AD_FORMAT_UNORM_INT8X1 ... CU_AD_FORMAT_SNORM_INT16X4:
	case CU_AD_FORMAT_BC1_UNORM ... CU_AD_FORMAT_P010:
	case CU_AD_FORMAT_P016 ... CU_AD_FORMAT_Y410:
	case CU_AD_FORMAT_Y416 ... CU_AD_FORMAT_YUV444_16bit_SemiPlanar:
	case CU_AD_FORMAT_UNORM_INT_101010_2:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
	if (ch != 1 && ch != 2 && ch != 4)
		return -EINVAL;
	*elem = size * ch;
	return 0;
}

/* v is at least 1 and within the device's limit a (an absent limit admits nothing). */
static bool within(uint64_t v, const int32_t *dev, CUdevice_attribute a)
{
	return v >= 1 && dev[a] > 0 && v <= (uint64_t)dev[a];
}

static bool fits(const CUDA_ARRAY3D_DESCRIPTOR *d, const int32_t *dev, CUdevice_attribute w,
		 CUdevice_attribute h, CUdevice_attribute z)
{
	return within(d->Width, dev, w) && (!h || within(d->Height, dev, h)) &&
	       (!z || within(d->Depth, dev, z));
}

#define A(x)	CU_DEVICE_ATTRIBUTE_MAXIMUM_##x

/*
 * The table of cuArray3DCreate's documentation: the texture limits of
 * each kind always, the surface limits too with CUDA_ARRAY3D_SURFACE_LDST.
 */
static int kind_check(const CUDA_ARRAY3D_DESCRIPTOR *d, const int32_t *dev, bool mip)
{
	bool surf = d->Flags & CUDA_ARRAY3D_SURFACE_LDST;
	bool gather = d->Flags & CUDA_ARRAY3D_TEXTURE_GATHER;
	bool ok;

	if (d->Flags & CUDA_ARRAY3D_CUBEMAP) {
		if (d->Width != d->Height || gather)
			return -EINVAL;
		if (d->Flags & CUDA_ARRAY3D_LAYERED) {
			if (!d->Depth || d->Depth % 6)
				return -EINVAL;
			ok = fits(d, dev, A(TEXTURECUBEMAP_LAYERED_WIDTH), 0,
				  A(TEXTURECUBEMAP_LAYERED_LAYERS)) &&
			     (!surf || fits(d, dev, A(SURFACECUBEMAP_LAYERED_WIDTH), 0,
					    A(SURFACECUBEMAP_LAYERED_LAYERS)));
		} else {
			if (d->Depth != 6)
				return -EINVAL;
			ok = fits(d, dev, A(TEXTURECUBEMAP_WIDTH), 0, 0) &&
			     (!surf || fits(d, dev, A(SURFACECUBEMAP_WIDTH), 0, 0));
		}
	} else if (d->Flags & CUDA_ARRAY3D_LAYERED) {
		if (gather)
			return -EINVAL;
		if (!d->Height)
			ok = fits(d, dev, A(TEXTURE1D_LAYERED_WIDTH), 0, A(TEXTURE1D_LAYERED_LAYERS)) &&
			     (!surf || fits(d, dev, A(SURFACE1D_LAYERED_WIDTH), 0,
					    A(SURFACE1D_LAYERED_LAYERS)));
		else
			ok = fits(d, dev, A(TEXTURE2D_LAYERED_WIDTH), A(TEXTURE2D_LAYERED_HEIGHT),
				  A(TEXTURE2D_LAYERED_LAYERS)) &&
			     (!surf || fits(d, dev, A(SURFACE2D_LAYERED_WIDTH),
					    A(SURFACE2D_LAYERED_HEIGHT), A(SURFACE2D_LAYERED_LAYERS)));
	} else if (!d->Height) {
		if (d->Depth || gather)
			return -EINVAL;
		ok = fits(d, dev, mip ? A(TEXTURE1D_MIPMAPPED_WIDTH) : A(TEXTURE1D_WIDTH), 0, 0) &&
		     (!surf || fits(d, dev, A(SURFACE1D_WIDTH), 0, 0));
	} else if (!d->Depth) {
		if (gather)
			ok = fits(d, dev, A(TEXTURE2D_GATHER_WIDTH), A(TEXTURE2D_GATHER_HEIGHT), 0);
		else if (mip)
			ok = fits(d, dev, A(TEXTURE2D_MIPMAPPED_WIDTH), A(TEXTURE2D_MIPMAPPED_HEIGHT), 0);
		else
			ok = fits(d, dev, A(TEXTURE2D_WIDTH), A(TEXTURE2D_HEIGHT), 0);
		ok = ok && (!surf || fits(d, dev, A(SURFACE2D_WIDTH), A(SURFACE2D_HEIGHT), 0));
	} else {
		if (gather)
			return -EINVAL;
		ok = (fits(d, dev, A(TEXTURE3D_WIDTH), A(TEXTURE3D_HEIGHT), A(TEXTURE3D_DEPTH)) ||
		      fits(d, dev, A(TEXTURE3D_WIDTH_ALTERNATE), A(TEXTURE3D_HEIGHT_ALTERNATE),
			   A(TEXTURE3D_DEPTH_ALTERNATE))) &&
		     (!surf || fits(d, dev, A(SURFACE3D_WIDTH), A(SURFACE3D_HEIGHT),
				    A(SURFACE3D_DEPTH)));
	}
	return ok ? 0 : -EINVAL;
}

#undef A

int gl_array_check(const CUDA_ARRAY3D_DESCRIPTOR *d, const int32_t *dev, bool mipmapped)
{
	const unsigned int known = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST |
				   CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER |
				   CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT |
				   CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING |
				   CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;
	unsigned int elem;
	int err = gl_array_format(d->Format, d->NumChannels, &elem);

	if (err)
		return err;
	if (d->Flags & ~known || !d->Width)
		return -EINVAL;
	/* Mapped through the virtual memory functions, or the video engines: not here. */
	if (d->Flags & (CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING |
			CUDA_ARRAY3D_VIDEO_ENCODE_DECODE))
		return -EOPNOTSUPP;
	return kind_check(d, dev, mipmapped);
}

/* Whether depth is an extent that halves with each level, not layers or faces. */
static bool depth_scales(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	return !(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP));
}

unsigned int gl_mipmap_levels(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int levels)
{
	uint64_t m = d->Width;
	unsigned int most = 1;

	if (d->Height > m)
		m = d->Height;
	if (depth_scales(d) && d->Depth > m)
		m = d->Depth;
	while (m > 1 && most < GL_MIPMAP_LEVELS_MAX) {
		m >>= 1;
		most++;
	}
	/* The driver clamps the count asked for to [1, 1 + log2 of the largest extent]. */
	return levels < 1 ? 1 : levels > most ? most : levels;
}

static size_t level_of(size_t v, unsigned int l)
{
	return !v ? 0 : (v >> l) ? v >> l : 1;
}

void gl_mipmap_level(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int l,
		     CUDA_ARRAY3D_DESCRIPTOR *out)
{
	*out = *d;
	out->Width = level_of(d->Width, l);
	out->Height = level_of(d->Height, l);
	if (depth_scales(d))
		out->Depth = level_of(d->Depth, l);
}

void gl_array_extent(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int elem,
		     struct gl_array_extent *e)
{
	e->elem = elem;
	e->row = (uint64_t)d->Width * elem;
	e->rows = d->Height ? d->Height : 1;
	e->slices = d->Depth ? d->Depth : 1;
}

bool gl_array_box_ok(const struct gl_array_extent *e, uint64_t x, uint64_t y, uint64_t z,
		     uint64_t w, uint64_t h, uint64_t d)
{
	return e->elem && !(x % e->elem) && !(w % e->elem) && x <= e->row && w <= e->row - x &&
	       y <= e->rows && h <= e->rows - y && z <= e->slices && d <= e->slices - z;
}

bool gl_copy_span(uint64_t x, uint64_t y, uint64_t z, uint64_t pitch, uint64_t slice_rows,
		  uint64_t width, uint64_t height, uint64_t depth, uint64_t *first,
		  uint64_t *span)
{
	uint64_t rows, last;

	if (!width || !height || !depth) {
		*first = *span = 0;
		return true;
	}
	/* One row at the start needs no pitch; anything else rows that fit it. */
	if (height == 1 && depth == 1 && !y && !z) {
		*first = x;
		*span = width;
		return x + width >= x;
	}
	if (x > pitch || width > pitch - x)
		return false;
	if ((depth > 1 || z) && (y > slice_rows || height > slice_rows - y))
		return false;
	if (__builtin_mul_overflow(z, slice_rows, &rows) || __builtin_add_overflow(rows, y, &rows) ||
	    __builtin_mul_overflow(rows, pitch, first) || __builtin_add_overflow(*first, x, first))
		return false;
	if (__builtin_mul_overflow(depth - 1, slice_rows, &rows) ||
	    __builtin_add_overflow(rows, height - 1, &rows) ||
	    __builtin_mul_overflow(rows, pitch, &last) || __builtin_add_overflow(last, width, &last) ||
	    __builtin_add_overflow(*first, last, &rows))
		return false;
	*span = last;
	return true;
}

/* One end of a piece: shifted by (dx, dy, dz), or the piece's own gapless rows. */
static void piece_end(const struct gleam_copy_end *e, uint64_t dx, uint64_t dy, uint64_t dz,
		      struct gleam_copy_end *p)
{
	*p = *e;
	if (e->type == CU_MEMORYTYPE_HOST) {
		/* Host rows are the piece's own, gapless: nothing to say of them. */
		p->x = p->y = p->z = p->pitch = p->height = 0;
		return;
	}
	p->x += dx;
	p->y += dy;
	p->z += dz;
}

uint64_t gl_copy_piece(const struct gleam_copy *c, uint64_t off, uint64_t max,
		       struct gleam_copy *p)
{
	uint64_t W = c->width, H = c->height, D = c->depth;
	uint64_t row, col, y, z, w, h = 1, d = 1;

	if (!W || !H || !D || !max || off / W / H >= D)
		return 0;
	row = off / W;
	col = off % W;
	y = row % H;
	z = row / H;
	if (col || W > max) {
		/* Part of one row. */
		w = W - col < max ? W - col : max;
	} else if (!y && H <= max / W) {
		/* Whole slices. */
		w = W;
		h = H;
		d = max / (W * H);
		if (d > D - z)
			d = D - z;
	} else {
		/* Whole rows of one slice. */
		w = W;
		h = max / W;
		if (h > H - y)
			h = H - y;
	}
	*p = *c;
	p->width = w;
	p->height = h;
	p->depth = d;
	piece_end(&c->src, col, y, z, &p->src);
	piece_end(&c->dst, col, y, z, &p->dst);
	return w * h * d;
}
