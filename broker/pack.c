// SPDX-License-Identifier: MIT
/*
 * Lossless compression of uploads on the wire (Documentation/design.md,
 * "Compression").
 *
 * Weights in 2-byte floats (bf16, fp16) keep their sign and exponent in
 * one byte of each number and mantissa bits, close to random, in the
 * other: Zstandard over the bytes as they are finds little, over the two
 * planes (every first byte, then every second) it finds the skewed plane.
 * Each chunk goes by whichever method would put it on the other side
 * soonest: the loop packs one chunk while the socket's buffer drains the
 * last, so the slower of packing and the link sets the pace; a method is
 * chosen only when it beats sending the bytes as they are by
 * PACK_GAIN_MIN, from the rates measured as the session runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zstd.h>

#include "pack.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool pack_wanted(void)
{
	const char *e = getenv("GLEAM_COMPRESS");

	return !e || (strcmp(e, "0") && strcmp(e, "off") && strcmp(e, "no"));
}

static int pack_level(void)
{
	const char *e = getenv("GLEAM_COMPRESS");
	long l = e ? strtol(e, NULL, 10) : 1;

	return l >= 1 && l <= 19 ? (int)l : 1;
}

int pack_init(struct packer *p)
{
	memset(p, 0, sizeof(*p));
	p->cctx = ZSTD_createCCtx();
	p->dctx = ZSTD_createDCtx();
	p->level = pack_level();
	if (!p->cctx || !p->dctx) {
		pack_fini(p);
		return -ENOMEM;
	}
	return 0;
}

void pack_fini(struct packer *p)
{
	ZSTD_freeCCtx(p->cctx);
	ZSTD_freeDCtx(p->dctx);
	free(p->scratch);
	memset(p, 0, sizeof(*p));
}

static unsigned char *scratch(struct packer *p, size_t n)
{
	if (p->scratch_cap < n) {
		unsigned char *s = realloc(p->scratch, n);

		if (!s)
			return NULL;
		p->scratch = s;
		p->scratch_cap = n;
	}
	return p->scratch;
}

/*
 * Byte j of every width-byte element to plane j (join: back again); the
 * tail that fills no whole element is copied as it stands.
 */
static void planes_move(const unsigned char *src, unsigned char *dst, size_t n,
			unsigned int width, bool join)
{
	size_t k = n / width;

	for (unsigned int j = 0; j < width; j++)
		for (size_t i = 0; i < k; i++) {
			size_t el = i * width + j, pl = j * k + i;

			dst[join ? el : pl] = src[join ? pl : el];
		}
	memcpy(dst + k * width, src + k * width, n - k * width);
}

void pack_planes_split(const unsigned char *src, unsigned char *dst, size_t n, unsigned int width)
{
	planes_move(src, dst, n, width, false);
}

void pack_planes_join(const unsigned char *src, unsigned char *dst, size_t n, unsigned int width)
{
	planes_move(src, dst, n, width, true);
}

static unsigned int width_of(int method)
{
	return method == GLEAM_PACK_PLANES2 ? 2 : method == GLEAM_PACK_PLANES4 ? 4 : 1;
}

int pack_pick(const struct pack_est *est, double link_bps, size_t n)
{
	double raw, best;
	int pick = 0;

	if (link_bps <= 0 || !n)
		return 0;
	raw = (double)n / link_bps;
	/* The server must unpack faster than the link would carry the bytes raw. */
	if ((double)n / PACK_UNPACK_BPS >= raw)
		return 0;
	best = raw * (1.0 - PACK_GAIN_MIN);
	for (int m = 1; m < GLEAM_PACK_METHODS; m++) {
		double t;

		if (!est[m].n || est[m].bps <= 0 || est[m].ratio >= 1.0)
			continue;
		/*
		 * The loop packs the next chunk while the socket's buffer
		 * drains the last: the slower of the two sets the pace.
		 */
		t = (double)n / est[m].bps;
		if (t < (double)n * est[m].ratio / link_bps)
			t = (double)n * est[m].ratio / link_bps;
		if (t < best) {
			best = t;
			pick = m;
		}
	}
	return pick;
}

static void link_est_note(struct pack_link_est *l, uint64_t bytes, uint64_t ns)
{
	double r;

	l->tx_bytes += bytes;
	l->tx_ns += ns;
	if (l->tx_bytes < (1u << 20) || !l->tx_ns)
		return;
	r = (double)l->tx_bytes * 1e9 / (double)l->tx_ns;
	l->tx_bytes = l->tx_ns = 0;
	/*
	 * The link is as fast as the best of the last samples: a receiver
	 * that stops reading for a while (its ring full, its processor busy)
	 * makes a fast link look slow for as long, but never a slow link
	 * fast, and packing would only take more of the processor it lacks.
	 */
	l->recent[l->n++ % PACK_LINK_SAMPLES] = r;
	l->bps = 0;
	for (unsigned int i = 0; i < PACK_LINK_SAMPLES; i++)
		if (l->recent[i] > l->bps)
			l->bps = l->recent[i];
}

void pack_link_forget_plain(struct pack_link *l)
{
	memset(&l->plain, 0, sizeof(l->plain));
	l->named = 0;
}

void pack_link_note(struct pack_link *l, uint64_t bytes, uint64_t ns)
{
	link_est_note(&l->plain, bytes, ns);
}

void pack_note_send(struct packer *p, uint64_t bytes, uint64_t ns)
{
	struct pack_link_est l = { .n = p->link_n, .tx_bytes = p->tx_bytes, .tx_ns = p->tx_ns };

	memcpy(l.recent, p->link_recent, sizeof(l.recent));
	link_est_note(&l, bytes, ns);
	memcpy(p->link_recent, l.recent, sizeof(l.recent));
	p->link_n = l.n;
	p->tx_bytes = l.tx_bytes;
	p->tx_ns = l.tx_ns;
	if (l.bps > 0)
		p->link_bps = l.bps;
}

/* Packed length of src by method into dst, or 0 (failed, or no smaller). */
static size_t compress(struct packer *p, int method, const void *src, size_t n, void *dst,
		       size_t cap)
{
	unsigned int w = width_of(method);
	const void *in = src;
	size_t r;

	if (w > 1) {
		unsigned char *s = scratch(p, n);

		if (!s)
			return 0;
		pack_planes_split(src, s, n, w);
		in = s;
	}
	r = ZSTD_compressCCtx(p->cctx, dst, cap, in, n, p->level);
	return ZSTD_isError(r) || r >= n ? 0 : r;
}

static void learn(struct pack_est *e, size_t raw, size_t packed, uint64_t ns)
{
	double ratio = packed ? (double)packed / (double)raw : 1.0;
	double bps = (double)raw * 1e9 / (double)(ns ? ns : 1);

	if (!e->n) {
		e->ratio = ratio;
		e->bps = bps;
	} else {
		e->ratio = 0.7 * e->ratio + 0.3 * ratio;
		e->bps = 0.7 * e->bps + 0.3 * bps;
	}
	e->n++;
}

/* Whether a sample is due: never while no packer could beat the link. */
static bool sample_due(const struct packer *p)
{
	double fastest = 0;

	for (int m = 1; m < GLEAM_PACK_METHODS; m++) {
		if (!p->est[m].n)
			return true;
		if (p->est[m].bps > fastest)
			fastest = p->est[m].bps;
	}
	/* A link faster than every packer: look again only now and then. */
	if (p->link_bps >= fastest)
		return p->chunks % (PACK_SAMPLE_EVERY * 16) == 0 ||
		       now_ns() - p->sampled_ns >= PACK_RESAMPLE_NS;
	return p->chunks % PACK_SAMPLE_EVERY == 0;
}

static void sample(struct packer *p, const unsigned char *src, size_t n, void *dst, size_t cap)
{
	size_t s = n < PACK_SAMPLE ? n : PACK_SAMPLE;

	for (int m = 1; m < GLEAM_PACK_METHODS; m++) {
		uint64_t t0 = now_ns();
		size_t r = compress(p, m, src, s, dst, cap);

		learn(&p->est[m], s, r, now_ns() - t0);
	}
	p->sampled_ns = now_ns();
}

size_t pack_chunk(struct packer *p, const void *src, size_t n, void *dst, size_t cap, int *method)
{
	uint64_t t0;
	size_t r;
	int m;

	*method = 0;
	p->chunks++;
	if (n < PACK_MIN || p->link_bps <= 0)
		return 0;
	if (sample_due(p))
		sample(p, src, n, dst, cap);
	m = pack_pick(p->est, p->link_bps, n);
	if (!m)
		return 0;
	t0 = now_ns();
	r = compress(p, m, src, n, dst, cap);
	learn(&p->est[m], n, r, now_ns() - t0);
	if (!r)
		return 0;
	*method = m;
	return r;
}

int pack_unpack(struct packer *p, int method, const void *src, size_t slen, void *dst, size_t raw)
{
	unsigned int w;
	void *out = dst;
	size_t r;

	if (method < GLEAM_PACK_ZSTD || method >= GLEAM_PACK_METHODS || !raw)
		return -EINVAL;
	w = width_of(method);
	if (w > 1) {
		out = scratch(p, raw);
		if (!out)
			return -ENOMEM;
	}
	/* The capacity is exactly raw: nothing is written past it. */
	r = ZSTD_decompressDCtx(p->dctx, out, raw, src, slen);
	if (ZSTD_isError(r) || r != raw)
		return -EINVAL;
	if (w > 1)
		pack_planes_join(out, dst, raw, w);
	return 0;
}
