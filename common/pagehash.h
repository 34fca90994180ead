/* SPDX-License-Identifier: MIT */
/*
 * The hash of a page of memory that both ends of a twin (uapi/gleam_vmm.h)
 * compute, the shim over its host pages and the worker over the device's:
 * equal hashes say that the page has not changed since the two agreed.
 * It is XXH64 (seed 0), which reads memory as fast as memory comes, and
 * whose 64 bits make a change that keeps the hash a 1 in 2^64 event.  It
 * is no defence against a peer that chooses the bytes; nothing rests on it
 * but the program's own data.
 */
#ifndef GLEAM_PAGEHASH_H
#define GLEAM_PAGEHASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GL_PH_P1	0x9E3779B185EBCA87ull
#define GL_PH_P2	0xC2B2AE3D27D4EB4Full
#define GL_PH_P3	0x165667B19E3779F9ull
#define GL_PH_P4	0x85EBCA77C2B2AE63ull
#define GL_PH_P5	0x27D4EB2F165667C5ull

static inline uint64_t gl_ph_rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t gl_ph_round(uint64_t acc, uint64_t in)
{
	acc += in * GL_PH_P2;
	return gl_ph_rotl(acc, 31) * GL_PH_P1;
}

static inline uint64_t gl_ph_merge(uint64_t h, uint64_t v)
{
	h ^= gl_ph_round(0, v);
	return h * GL_PH_P1 + GL_PH_P4;
}

static inline uint64_t gl_ph_read64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* XXH64 of len bytes at data, seed 0 (little-endian machines). */
static inline uint64_t gl_page_hash(const void *data, size_t len)
{
	const unsigned char *p = data, *end = p + len;
	uint64_t h;

	if (len >= 32) {
		uint64_t v1 = GL_PH_P1 + GL_PH_P2, v2 = GL_PH_P2, v3 = 0, v4 = -GL_PH_P1;

		/* Two stripes a turn: the same hash, scheduled better at -O2. */
		for (; end - p >= 64; p += 64) {
			v1 = gl_ph_round(v1, gl_ph_read64(p));
			v2 = gl_ph_round(v2, gl_ph_read64(p + 8));
			v3 = gl_ph_round(v3, gl_ph_read64(p + 16));
			v4 = gl_ph_round(v4, gl_ph_read64(p + 24));
			v1 = gl_ph_round(v1, gl_ph_read64(p + 32));
			v2 = gl_ph_round(v2, gl_ph_read64(p + 40));
			v3 = gl_ph_round(v3, gl_ph_read64(p + 48));
			v4 = gl_ph_round(v4, gl_ph_read64(p + 56));
		}
		for (; end - p >= 32; p += 32) {
			v1 = gl_ph_round(v1, gl_ph_read64(p));
			v2 = gl_ph_round(v2, gl_ph_read64(p + 8));
			v3 = gl_ph_round(v3, gl_ph_read64(p + 16));
			v4 = gl_ph_round(v4, gl_ph_read64(p + 24));
		}
		h = gl_ph_rotl(v1, 1) + gl_ph_rotl(v2, 7) + gl_ph_rotl(v3, 12) + gl_ph_rotl(v4, 18);
		h = gl_ph_merge(h, v1);
		h = gl_ph_merge(h, v2);
		h = gl_ph_merge(h, v3);
		h = gl_ph_merge(h, v4);
	} else {
		h = GL_PH_P5;
	}
	h += len;
	for (; end - p >= 8; p += 8) {
		h ^= gl_ph_round(0, gl_ph_read64(p));
		h = gl_ph_rotl(h, 27) * GL_PH_P1 + GL_PH_P4;
	}
	if (end - p >= 4) {
		uint32_t w;

		memcpy(&w, p, 4);
		h ^= (uint64_t)w * GL_PH_P1;
		h = gl_ph_rotl(h, 23) * GL_PH_P2 + GL_PH_P3;
		p += 4;
	}
	for (; p < end; p++) {
		h ^= *p * GL_PH_P5;
		h = gl_ph_rotl(h, 11) * GL_PH_P1;
	}
	h ^= h >> 33;
	h *= GL_PH_P2;
	h ^= h >> 29;
	h *= GL_PH_P3;
	h ^= h >> 32;
	return h;
}

#endif /* GLEAM_PAGEHASH_H */
