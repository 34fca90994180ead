// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <string.h>

#include "gleam_record.h"
#include "image.h"

#define FATBIN_MAGIC	0xBA55ED50u

static int rd(const unsigned char *p, size_t avail, size_t off, void *out, size_t n)
{
	if (off > avail || n > avail - off)
		return -1;
	memcpy(out, p + off, n);
	return 0;
}

size_t gl_image_size(const void *image, size_t avail)
{
	const unsigned char *p = image;
	uint32_t magic;

	if (!p || rd(p, avail, 0, &magic, 4))
		return 0;
	if (magic == FATBIN_MAGIC) {
		uint16_t hsize;
		uint64_t fsize;

		if (rd(p, avail, 6, &hsize, 2) || rd(p, avail, 8, &fsize, 8) ||
		    fsize > GLEAM_IMAGE_MAX || hsize + fsize > avail)
			return 0;
		return hsize + (size_t)fsize;
	}
	if (!memcmp(p, "\177ELF", 4)) {
		uint64_t shoff, phoff, end;
		uint16_t shentsize, shnum, phentsize, phnum;
		uint8_t cls;

		if (rd(p, avail, 4, &cls, 1) || cls != 2 || rd(p, avail, 0x20, &phoff, 8) ||
		    rd(p, avail, 0x28, &shoff, 8) || rd(p, avail, 0x36, &phentsize, 2) ||
		    rd(p, avail, 0x38, &phnum, 2) || rd(p, avail, 0x3a, &shentsize, 2) ||
		    rd(p, avail, 0x3c, &shnum, 2))
			return 0;
		if (shoff > GLEAM_IMAGE_MAX || phoff > GLEAM_IMAGE_MAX || shentsize < 0x28)
			return 0;
		end = shoff + (uint64_t)shentsize * shnum;
		if (phoff + (uint64_t)phentsize * phnum > end)
			end = phoff + (uint64_t)phentsize * phnum;
		/* Sections may lie after the section table: take the furthest. */
		for (unsigned int i = 0; i < shnum; i++) {
			size_t sh = (size_t)(shoff + (uint64_t)i * shentsize);
			uint32_t type;
			uint64_t off, size;

			if (rd(p, avail, sh + 4, &type, 4) || rd(p, avail, sh + 0x18, &off, 8) ||
			    rd(p, avail, sh + 0x20, &size, 8))
				return 0;
			if (off > GLEAM_IMAGE_MAX || size > GLEAM_IMAGE_MAX)
				return 0;
			if (type != 8 /* SHT_NOBITS */ && off + size > end)
				end = off + size;
		}
		return end > GLEAM_IMAGE_MAX || end > avail ? 0 : (size_t)end;
	}
	/* PTX: text, NUL-terminated. */
	{
		size_t lim = avail < GLEAM_IMAGE_MAX ? avail : GLEAM_IMAGE_MAX;
		const unsigned char *z = memchr(p, 0, lim);

		return z ? (size_t)(z - p) + 1 : 0;
	}
}
