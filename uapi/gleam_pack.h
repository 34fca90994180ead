/* SPDX-License-Identifier: MIT */
/*
 * Lossless compression of what crosses the network (Documentation/protocol.md,
 * "Packed uploads").  Only between two gleamd that both announce
 * GLEAM_WIRE_F_PACK: the record flag never reaches a ring, since the
 * receiving gleamd unpacks before it stores or passes anything on.  All
 * fields are little-endian.
 */
#ifndef _UAPI_GLEAM_PACK_H
#define _UAPI_GLEAM_PACK_H

#include <linux/types.h>

/* Feature bit, negotiated in struct gleam_hello (next after GLEAM_WIRE_F_NVML). */
#define GLEAM_WIRE_F_PACK		(1ULL << 8)

/*
 * A record flag (next after GLEAM_REC_F_CACHED): the record's host buffer
 * (an upload's bytes, a module image's piece) is replaced by struct
 * gleam_pack and the packed bytes, padded to 8.  Wire only.
 */
#define GLEAM_REC_F_PACKED		(1U << 3)

/* In struct gleam_cache_data's flags: the chunk follows as gleam_pack + packed bytes. */
#define GLEAM_CACHE_DATA_F_PACKED	(1ULL << 0)

enum gleam_pack_method {
	GLEAM_PACK_ZSTD		= 1,	/* Zstandard over the bytes as they are */
	GLEAM_PACK_PLANES2	= 2,	/* bytes grouped by position in 2-byte numbers, then Zstandard */
	GLEAM_PACK_PLANES4	= 3,	/* bytes grouped by position in 4-byte numbers, then Zstandard */
	GLEAM_PACK_METHODS	= 4,
};

struct gleam_pack {
	__u32 raw_len;		/* bytes once unpacked: exactly the region it replaces */
	__u32 packed_len;	/* bytes of packed data that follow this header */
	__u8 method;		/* enum gleam_pack_method */
	__u8 reserved0;		/* must be zero */
	__u16 reserved1;	/* must be zero */
	__u32 reserved2;	/* must be zero */
};

_Static_assert(sizeof(struct gleam_pack) == 16, "gleam_pack");

#endif /* _UAPI_GLEAM_PACK_H */
