// SPDX-License-Identifier: MIT
/* Packing uploads: byte planes, the choice of method, and bounded unpacking. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pack.h"
#include "unit.h"

/* bf16 numbers drawn as trained weights are: normal, standard deviation 0.02. */
static void bf16_weights(unsigned char *p, size_t n, unsigned int seed)
{
	srand(seed);
	for (size_t i = 0; i + 2 <= n; i += 2) {
		double u1 = (rand() + 1.0) / (RAND_MAX + 2.0), u2 = (rand() + 1.0) / (RAND_MAX + 2.0);
		float f = (float)(0.02 * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
		uint32_t bits;

		memcpy(&bits, &f, 4);
		p[i] = (unsigned char)(bits >> 16);
		p[i + 1] = (unsigned char)(bits >> 24);
	}
}

START_TEST(test_planes_round_trip)
{
	unsigned char src[67], mid[67], back[67];

	for (unsigned int i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 7 + 3);
	for (unsigned int w = 1; w <= 4; w *= 2) {
		pack_planes_split(src, mid, sizeof(src), w);
		pack_planes_join(mid, back, sizeof(src), w);
		ck_assert_mem_eq(src, back, sizeof(src));
	}
	/* Width 2: the first bytes of every number, then the second ones, then the tail. */
	pack_planes_split(src, mid, 5, 2);
	ck_assert_uint_eq(mid[0], src[0]);
	ck_assert_uint_eq(mid[1], src[2]);
	ck_assert_uint_eq(mid[2], src[1]);
	ck_assert_uint_eq(mid[3], src[3]);
	ck_assert_uint_eq(mid[4], src[4]);
}
END_TEST

START_TEST(test_pick)
{
	struct pack_est est[GLEAM_PACK_METHODS] = { 0 };
	size_t n = 1 << 20;

	/* Nothing known: as they are. */
	ck_assert_int_eq(pack_pick(est, 37.5e6, n), 0);
	est[GLEAM_PACK_ZSTD] = (struct pack_est){ .ratio = 0.95, .bps = 800e6, .n = 1 };
	est[GLEAM_PACK_PLANES2] = (struct pack_est){ .ratio = 0.70, .bps = 400e6, .n = 1 };
	est[GLEAM_PACK_PLANES4] = (struct pack_est){ .ratio = 0.90, .bps = 300e6, .n = 1 };
	/* 300 Mbit/s: the planes save most. */
	ck_assert_int_eq(pack_pick(est, 37.5e6, n), GLEAM_PACK_PLANES2);
	/* Loopback at 3 GB/s: no packer keeps up; unknown link: nothing. */
	ck_assert_int_eq(pack_pick(est, 3e9, n), 0);
	ck_assert_int_eq(pack_pick(est, 0, n), 0);
	/* A gain under PACK_GAIN_MIN is no gain. */
	est[GLEAM_PACK_PLANES2].ratio = 0.99;
	est[GLEAM_PACK_ZSTD].ratio = 0.99;
	est[GLEAM_PACK_PLANES4].ratio = 1.0;
	ck_assert_int_eq(pack_pick(est, 37.5e6, n), 0);
	/* Bytes that do not pack at all never are. */
	est[GLEAM_PACK_ZSTD].ratio = 0.2;
	ck_assert_int_eq(pack_pick(est, 37.5e6, n), GLEAM_PACK_ZSTD);
}
END_TEST

START_TEST(test_pack_bf16)
{
	size_t n = 1 << 20;
	unsigned char *src = malloc(n), *out = malloc(n), *back = malloc(n + 64);
	struct packer p;
	size_t r = 0;
	int m = 0;

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(pack_init(&p), 0);
	bf16_weights(src, n, 1);
	/* Unmeasured link: as they are. */
	ck_assert_uint_eq(pack_chunk(&p, src, n, out, n, &m), 0);
	/*
	 * 2 Mbit/s measured, slow enough that packing pays even where the
	 * packer runs slowly (under valgrind): the planes pack a fifth or more
	 * away.
	 */
	pack_note_send(&p, 1u << 20, (uint64_t)((1u << 20) / 250e3 * 1e9));
	ck_assert(p.link_bps > 200e3 && p.link_bps < 300e3);
	for (int i = 0; i < 4 && !r; i++)
		r = pack_chunk(&p, src, n, out, n, &m);
	ck_assert_uint_gt(r, 0);
	/* Grouped by position: planes of 4 bytes put the high bytes apart too. */
	ck_assert(m == GLEAM_PACK_PLANES2 || m == GLEAM_PACK_PLANES4);
	ck_assert_uint_le(r, n * 8 / 10);
	/* Unpacked exactly; the bytes past the region are never written. */
	memset(back, 0xa5, n + 64);
	ck_assert_int_eq(pack_unpack(&p, m, out, r, back, n), 0);
	ck_assert_mem_eq(back, src, n);
	for (size_t i = n; i < n + 64; i++)
		ck_assert_uint_eq(back[i], 0xa5);
	/* A declared size other than what the bytes unpack to is refused, both ways. */
	ck_assert_int_ne(pack_unpack(&p, m, out, r, back, n - 8), 0);
	ck_assert_int_ne(pack_unpack(&p, m, out, r, back, n + 8), 0);
	/* Damaged, cut short or of an unknown method: refused. */
	ck_assert_int_ne(pack_unpack(&p, m, out, r / 2, back, n), 0);
	ck_assert_int_ne(pack_unpack(&p, 0, out, r, back, n), 0);
	ck_assert_int_ne(pack_unpack(&p, GLEAM_PACK_METHODS, out, r, back, n), 0);
	memset(out, 0x5a, 64);
	ck_assert_int_ne(pack_unpack(&p, m, out, r, back, n), 0);
	for (size_t i = n; i < n + 64; i++)
		ck_assert_uint_eq(back[i], 0xa5);
	pack_fini(&p);
	free(src);
	free(out);
	free(back);
}
END_TEST

START_TEST(test_pack_random_stays_raw)
{
	size_t n = 1 << 20;
	unsigned char *src = malloc(n), *out = malloc(n);
	struct packer p;
	int m = 0, packed = 0;

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(pack_init(&p), 0);
	srand(7);
	for (size_t i = 0; i < n; i++)
		src[i] = (unsigned char)rand();
	pack_note_send(&p, 8u << 20, (uint64_t)((8u << 20) / 37.5e6 * 1e9));
	for (int i = 0; i < 8; i++)
		packed += pack_chunk(&p, src, n, out, n, &m) != 0;
	ck_assert_int_eq(packed, 0);
	pack_fini(&p);
	free(src);
	free(out);
}
END_TEST

/*
 * One sample slowed by a busy processor makes every method look slower than
 * the link: the chunks go raw, and the methods are sampled again once
 * PACK_RESAMPLE_NS has passed, not only every PACK_SAMPLE_EVERY * 16 chunks.
 */
START_TEST(test_pack_resample)
{
	size_t n = 1 << 20;
	unsigned char *src = malloc(n), *out = malloc(n);
	uint32_t seen[GLEAM_PACK_METHODS];
	struct timespec ts;
	struct packer p;
	size_t r = 0;
	int m = 0;

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(pack_init(&p), 0);
	bf16_weights(src, n, 3);
	pack_note_send(&p, 1u << 20, (uint64_t)((1u << 20) / 250e3 * 1e9));
	pack_chunk(&p, src, n, out, n, &m);
	for (int k = 1; k < GLEAM_PACK_METHODS; k++) {
		ck_assert_uint_gt(p.est[k].n, 0);
		p.est[k].bps = 100e3;
		seen[k] = p.est[k].n;
	}
	/* Sampled just now (a slow processor may have taken long over the first). */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	p.sampled_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	ck_assert_uint_eq(pack_chunk(&p, src, n, out, n, &m), 0);
	for (int k = 1; k < GLEAM_PACK_METHODS; k++)
		ck_assert_uint_eq(p.est[k].n, seen[k]);
	p.sampled_ns -= PACK_RESAMPLE_NS;
	r = pack_chunk(&p, src, n, out, n, &m);
	for (int k = 1; k < GLEAM_PACK_METHODS; k++)
		ck_assert_uint_gt(p.est[k].n, seen[k]);
	ck_assert_uint_gt(r, 0);
	ck_assert_uint_le(r, n * 8 / 10);
	pack_fini(&p);
	free(src);
	free(out);
}
END_TEST

/* The link's rate for naming: the best of the last samples; forgotten, measured again from nothing. */
START_TEST(test_link_plain)
{
	struct pack_link l;
	uint64_t mib = 1u << 20;

	memset(&l, 0, sizeof(l));
	pack_link_note(&l, mib, (uint64_t)(mib / 100e6 * 1e9));
	ck_assert(l.plain.bps > 99e6 && l.plain.bps < 101e6);
	pack_link_note(&l, mib, (uint64_t)(mib / 2e9 * 1e9));
	ck_assert(l.plain.bps > 1.9e9 && l.plain.bps < 2.1e9);
	ck_assert_uint_eq(l.plain.n, 2);
	/* Less than a MiB is no sample yet; with the next it is. */
	pack_link_note(&l, mib / 2, (uint64_t)(mib / 2 / 1e9 * 1e9));
	ck_assert_uint_eq(l.plain.n, 2);
	pack_link_note(&l, mib / 2, (uint64_t)(mib / 2 / 1e9 * 1e9));
	ck_assert_uint_eq(l.plain.n, 3);
	l.named = 5 * mib;
	pack_link_forget_plain(&l);
	ck_assert(l.plain.bps == 0 && l.plain.n == 0 && l.named == 0);
	for (unsigned int i = 0; i < PACK_LINK_SAMPLES; i++)
		ck_assert(l.plain.recent[i] == 0);
	/* Measured again from nothing: a slow sample is the rate now. */
	pack_link_note(&l, mib, (uint64_t)(mib / 50e6 * 1e9));
	ck_assert(l.plain.bps > 49e6 && l.plain.bps < 51e6);
}
END_TEST

UNIT_SUITE(pack, "pack", test_planes_round_trip, test_pick, test_pack_bf16,
	   test_pack_random_stays_raw, test_pack_resample, test_link_plain);
