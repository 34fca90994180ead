// SPDX-License-Identifier: MIT
/* Module image sizes from hostile headers. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "image.h"
#include "unit.h"

START_TEST(test_ptx)
{
	static const char ptx[] = ".version 8.0\n.entry k()\n{ ret; }\n";

	ck_assert_uint_eq(gl_image_size(ptx, sizeof(ptx)), sizeof(ptx));
	/* Unterminated within what we may read: refused. */
	ck_assert_uint_eq(gl_image_size(ptx, sizeof(ptx) - 1), 0);
	ck_assert_uint_eq(gl_image_size(NULL, 100), 0);
	ck_assert_uint_eq(gl_image_size(ptx, 2), 0);
}
END_TEST

START_TEST(test_fatbin)
{
	unsigned char f[64] = { 0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0 };
	uint64_t size = 48;

	memcpy(f + 8, &size, 8);
	ck_assert_uint_eq(gl_image_size(f, sizeof(f)), 64);
	size = 49;	/* claims one byte more than there is */
	memcpy(f + 8, &size, 8);
	ck_assert_uint_eq(gl_image_size(f, sizeof(f)), 0);
	size = UINT64_MAX - 8;
	memcpy(f + 8, &size, 8);
	ck_assert_uint_eq(gl_image_size(f, sizeof(f)), 0);
}
END_TEST

static void elf(unsigned char *e, uint64_t shoff, uint16_t shnum)
{
	uint16_t shentsize = 64;

	memset(e, 0, 512);
	memcpy(e, "\177ELF", 4);
	e[4] = 2;
	memcpy(e + 0x28, &shoff, 8);
	memcpy(e + 0x3a, &shentsize, 2);
	memcpy(e + 0x3c, &shnum, 2);
}

START_TEST(test_elf)
{
	unsigned char e[512];
	uint64_t off = 300, sz = 100;
	uint32_t type = 1;

	elf(e, 64, 2);
	ck_assert_uint_eq(gl_image_size(e, sizeof(e)), 64 + 2 * 64);
	/* A section that lies past the section table counts. */
	memcpy(e + 64 + 4, &type, 4);
	memcpy(e + 64 + 0x18, &off, 8);
	memcpy(e + 64 + 0x20, &sz, 8);
	ck_assert_uint_eq(gl_image_size(e, sizeof(e)), 400);
	/* ... and one past the end of what we have makes it unusable. */
	sz = 1000;
	memcpy(e + 64 + 0x20, &sz, 8);
	ck_assert_uint_eq(gl_image_size(e, sizeof(e)), 0);
	/* A section table outside the image. */
	elf(e, 4000, 3);
	ck_assert_uint_eq(gl_image_size(e, sizeof(e)), 0);
	elf(e, 64, 65535);
	ck_assert_uint_eq(gl_image_size(e, sizeof(e)), 0);
}
END_TEST

UNIT_SUITE(image, "sizes", test_ptx, test_fatbin, test_elf);
