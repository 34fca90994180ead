/* SPDX-License-Identifier: MIT */
/*
 * Lossless compression of uploads on the wire (Documentation/design.md,
 * "Compression"): byte planes, Zstandard, and the choice, per chunk, of
 * the method that sends it soonest given the link's measured rate and the
 * compressor's measured speed.
 */
#ifndef GLEAM_PACK_H
#define GLEAM_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gleam_pack.h"

/* Regions smaller than this always cross as they are. */
#define PACK_MIN		(16U << 10)
/* What a sample compresses of a chunk to learn each method's ratio and speed. */
#define PACK_SAMPLE		(256U << 10)
/* One chunk in PACK_SAMPLE_EVERY is sampled while the link is slow enough to matter. */
#define PACK_SAMPLE_EVERY	16
/*
 * While the link is faster than every method, a sample every
 * PACK_SAMPLE_EVERY * 16 chunks or after this long, whichever comes first:
 * one sample slowed by a busy processor must not keep packing off for a
 * whole session.
 */
#define PACK_RESAMPLE_NS	250000000ULL
/* A method must save at least this share of the raw time to be chosen. */
#define PACK_GAIN_MIN		0.05
/* The link's rate is the best of this many recent samples. */
#define PACK_LINK_SAMPLES	8
/* Unpacking speed assumed on the server (bytes/s): Zstandard's, conservatively. */
#define PACK_UNPACK_BPS		1.0e9

/*
 * The link's rate as the bridge measures it, packing or not: the best of
 * the last PACK_LINK_SAMPLES samples of a MiB or more each.
 */
struct pack_link_est {
	double bps;			/* bytes/s; 0: not yet */
	double recent[PACK_LINK_SAMPLES];
	uint32_t n;
	uint64_t tx_bytes, tx_ns;	/* since the last sample */
};

struct pack_link {
	/*
	 * From the samples in which nothing named crossed: naming's choice
	 * (cache_client.c) reads it, since a named upload waits for the
	 * server's answer and its hashing, and makes the link look as slow
	 * as naming is.  (Packing keeps its own, from every sample.)
	 */
	struct pack_link_est plain;
	uint64_t named;			/* bytes of copies named since plain was forgotten */
};

/* The link carried bytes in ns of being busy with nothing named: its rate, once enough was sent. */
void pack_link_note(struct pack_link *l, uint64_t bytes, uint64_t ns);
/* The plain samples forgotten: the link is to be measured again. */
void pack_link_forget_plain(struct pack_link *l);

/* What is known of one method: a moving average of ratio and speed. */
struct pack_est {
	double ratio;		/* packed / raw */
	double bps;		/* raw bytes per second of packing */
	uint32_t n;		/* samples */
};

struct packer {
	void *cctx;			/* ZSTD_CCtx */
	void *dctx;			/* ZSTD_DCtx */
	unsigned char *scratch;		/* planes, both ways */
	size_t scratch_cap;
	struct pack_est est[GLEAM_PACK_METHODS];
	double link_bps;		/* the link's measured rate, bytes/s; 0: not yet */
	double link_recent[PACK_LINK_SAMPLES];	/* the last samples, each of a MiB or more */
	uint32_t link_n;
	uint64_t chunks;		/* chunks considered */
	uint64_t sampled_ns;		/* when every method was last sampled */
	uint64_t tx_bytes, tx_ns;	/* sends since the last rate sample */
	int level;			/* Zstandard level */
};

/* GLEAM_COMPRESS (and the config key compress): false when set to 0 or off. */
bool pack_wanted(void);

int pack_init(struct packer *p);
void pack_fini(struct packer *p);

/* Bytes grouped by position in numbers of width bytes; the tail past the last whole number stays last. */
void pack_planes_split(const unsigned char *src, unsigned char *dst, size_t n, unsigned int width);
void pack_planes_join(const unsigned char *src, unsigned char *dst, size_t n, unsigned int width);

/*
 * The method that sends n bytes soonest (0: as they are), from the
 * estimates and the link's rate alone.  Pure, for tests.
 */
int pack_pick(const struct pack_est *est, double link_bps, size_t n);

/* The link carried bytes in ns of being busy: its rate, once enough was sent. */
void pack_note_send(struct packer *p, uint64_t bytes, uint64_t ns);

/*
 * Pack src[0, n) into dst (at most cap bytes) by the method chosen for it:
 * the packed length, with *method set; 0 when it goes as it is (nothing
 * chosen, or what came out was not smaller).
 */
size_t pack_chunk(struct packer *p, const void *src, size_t n, void *dst, size_t cap, int *method);

/*
 * Unpack exactly raw bytes into dst from the packed src[0, slen): 0, or
 * -EINVAL when the method is unknown or the bytes do not unpack to
 * exactly raw bytes.  Never writes past dst[raw].
 */
int pack_unpack(struct packer *p, int method, const void *src, size_t slen, void *dst,
		size_t raw);

#endif
