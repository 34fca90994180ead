/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Gleam weight cache on the wire: host-to-device uploads named by the
 * SHA-256 of their chunks, so that bytes a server already holds cross the
 * network as names.  Documentation/cache.md describes the exchange.
 *
 * The feature bit is counted in gleam_wire.h's GLEAM_WIRE_F_KNOWN; the
 * record flag is never in GLEAM_REC_F_KNOWN, since only the wire between
 * the two gleamd carries it.
 *
 * Spoken only on session connections whose hello negotiated
 * GLEAM_WIRE_F_CACHE.  All fields are little-endian; every struct is a
 * multiple of 8 bytes; reserved fields and undefined flags must be zero
 * and are checked.  A malformed message closes the connection, as any
 * other malformed frame does.
 */
#ifndef _UAPI_GLEAM_CACHE_H
#define _UAPI_GLEAM_CACHE_H

#include <linux/types.h>

/* Feature bit, negotiated in struct gleam_hello (next after GLEAM_WIRE_F_ASYNC). */
#define GLEAM_WIRE_F_CACHE		(1ULL << 1)
/*
 * Proofs of possession (with GLEAM_WIRE_F_CACHE; next after GLEAM_WIRE_F_GPU):
 * a chunk that another tenant uploaded is named only after the session has
 * shown it holds the bytes too (CACHE_PROVE).  CACHE_INFO then carries the
 * session's nonce, and CACHE_HAVE a second bitmap.  A session without it
 * is answered "held" only for chunks its own tenant uploaded or proved.
 */
#define GLEAM_WIRE_F_PROVE		(1ULL << 5)

/* Frame types (next after GLEAM_FRAME_BYE). */
enum {
	GLEAM_FRAME_CACHE_INFO		= 11,	/* server -> client, once: struct gleam_cache_info */
	GLEAM_FRAME_CACHE_QUERY		= 12,	/* client -> server: struct gleam_cache_query */
	GLEAM_FRAME_CACHE_HAVE		= 13,	/* server -> client: struct gleam_cache_have */
	GLEAM_FRAME_CACHE_DATA		= 14,	/* client -> server: struct gleam_cache_data */
	GLEAM_FRAME_CACHE_RELEASE	= 15,	/* client -> server: struct gleam_cache_release */
	GLEAM_FRAME_CACHE_CTL		= 16,	/* control -> server: struct gleam_cache_ctl */
	GLEAM_FRAME_CACHE_REPORT	= 17,	/* server -> control: JSON text, NUL-ended */
	/* 18 is GLEAM_FRAME_ACK (gleam_wire.h) */
	GLEAM_FRAME_CACHE_PROVE		= 19,	/* client -> server: struct gleam_cache_prove */
};

/*
 * On a control connection (gleamctl) of an administrator of the server
 * (anyone else is answered ERROR -EPERM): what the server's store holds, or
 * clear it.  Answered by one CACHE_REPORT, a JSON object (Documentation/
 * cache.md); a listing stops at GLEAM_CACHE_LIST_MAX chunks and says so.
 */
struct gleam_cache_ctl {
	__u32 op;		/* GLEAM_CACHE_CTL_* */
	__u32 reserved;		/* must be zero */
	__u64 reserved2;	/* must be zero */
};

enum {
	GLEAM_CACHE_CTL_STATS	= 1,
	GLEAM_CACHE_CTL_LIST	= 2,
	GLEAM_CACHE_CTL_CLEAR	= 3,
};

#define GLEAM_CACHE_LIST_MAX	50000

/*
 * A record flag (next after GLEAM_REC_F_MORE): the record's host buffer is
 * replaced by struct gleam_cache_refs, which names the bytes instead.  Set
 * only by a client gleamd, on a record that copies one host buffer to the
 * device; the server replaces the names by the bytes before the replay
 * worker sees the record, which therefore never sees the flag.  A client
 * gleamd refuses it from an application's ring.
 */
#define GLEAM_REC_F_CACHED		(1U << 2)

#define GLEAM_CACHE_NAME_LEN		32		/* SHA-256 */
#define GLEAM_CACHE_CHUNK_MIN		(64U << 10)
#define GLEAM_CACHE_CHUNK_MAX		(4U << 20)
#define GLEAM_CACHE_QUERY_MAX		8192		/* entries in one query */
#define GLEAM_CACHE_REFS_MAX		64		/* references in one record */
#define GLEAM_CACHE_RELEASE_MAX		8192		/* names in one release */
#define GLEAM_CACHE_PROVE_MAX		1024		/* proofs in one CACHE_PROVE */

/*
 * One chunk: its name and its length.  The name is the SHA-256 of exactly
 * length bytes; the length is checked against what the server holds.
 */
struct gleam_cache_ref {
	__u8 name[GLEAM_CACHE_NAME_LEN];
	__u32 length;		/* 1..chunk_size */
	__u32 reserved;		/* must be zero */
};

/*
 * Sent by the server right after a HELLO_ACK that granted
 * GLEAM_WIRE_F_CACHE.  Clients cut uploads at chunk_size, so that the
 * same bytes get the same names whichever client sends them.
 */
struct gleam_cache_info {
	__u32 chunk_size;	/* GLEAM_CACHE_CHUNK_MIN..MAX, a power of two */
	__u32 threshold;	/* uploads shorter than this are better sent as bytes */
	__u64 pin_max;		/* bytes one session may hold pinned */
	__u32 query_max;	/* entries in one query, <= GLEAM_CACHE_QUERY_MAX */
	__u32 flags;		/* none defined: zero */
	__u64 mem_limit;	/* the store's sizes, for the scheduler and display */
	__u64 disk_limit;
	/*
	 * With GLEAM_WIRE_F_PROVE: the session's nonce, random, which every
	 * proof of the session hashes first.  Without: zero.
	 */
	__u8 nonce[32];
};

/*
 * Which of these chunks does the server hold?  With GLEAM_CACHE_Q_PIN, each
 * one held is also pinned for the session: kept, in memory, until released
 * or the session ends, so that a record may then name it.  Followed by
 * count struct gleam_cache_ref.
 */
struct gleam_cache_query {
	__u64 id;		/* echoed in the answer */
	__u32 count;		/* 1..query_max */
	__u32 flags;		/* GLEAM_CACHE_Q_* */
	__u64 reserved;		/* must be zero */
};

#define GLEAM_CACHE_Q_PIN	(1U << 0)
#define GLEAM_CACHE_Q_KNOWN	(GLEAM_CACHE_Q_PIN)

/*
 * The answer: followed by (count + 63) / 64 __u64 words; bit i % 64 of
 * word i / 64 set means entry i of the query is held (and pinned, if
 * asked).  Bits past count are zero.  A chunk held whose pin would take
 * the session over pin_max is answered as not held.
 *
 * With GLEAM_WIRE_F_PROVE a second bitmap of as many words follows: bit i
 * set (only where entry i is held) means the chunk is pinned but may not
 * be named before the session proves it holds the bytes (CACHE_PROVE).
 * Without it, prove is zero and only the first bitmap follows.
 */
struct gleam_cache_have {
	__u64 id;		/* the query's */
	__u32 count;		/* the query's */
	__u32 held;		/* bits set in the first bitmap */
	__u32 prove;		/* bits set in the second */
	__u32 reserved;		/* must be zero */
};

/*
 * A chunk's bytes: followed by length bytes and zeros to a multiple of 8.
 * The server hashes them; if they are not the name's, nothing is stored
 * and the connection is closed (-EBADMSG): no client can place bytes under
 * a name they do not have.  A chunk that arrives is pinned for the session,
 * as if queried with GLEAM_CACHE_Q_PIN; it must fit under pin_max.
 * With GLEAM_CACHE_DATA_F_PACKED in flags (GLEAM_WIRE_F_PACK, gleam_pack.h)
 * struct gleam_pack and the packed bytes follow instead, padded to 8; the
 * server unpacks exactly length bytes before it hashes them.
 */
struct gleam_cache_data {
	struct gleam_cache_ref ref;
	__u64 flags;		/* GLEAM_CACHE_DATA_F_PACKED, or zero */
};

/* Pins given back: followed by count names (32 bytes each); count 0: all. */
struct gleam_cache_release {
	__u32 count;		/* 0..GLEAM_CACHE_RELEASE_MAX */
	__u32 reserved;		/* must be zero */
};

/*
 * Proofs that the session holds the bytes of chunks it was answered
 * "prove" for: followed by count struct gleam_cache_proof.  Each proof is
 * the SHA-256 of the session's nonce (CACHE_INFO) followed by the chunk's
 * bytes.  A proof that does not hold, or one for a chunk the session was
 * not asked to prove, ends the session (ERROR -EBADMSG).  Once a proof
 * holds, the tenant may name the chunk in every session of its own.
 */
struct gleam_cache_prove {
	__u32 count;		/* 1..GLEAM_CACHE_PROVE_MAX */
	__u32 reserved;		/* must be zero */
};

struct gleam_cache_proof {
	struct gleam_cache_ref ref;
	__u8 proof[32];
};

/*
 * What a GLEAM_REC_F_CACHED record carries in place of its host buffer:
 * followed by count struct gleam_cache_ref, whose bytes, concatenated, are
 * the buffer.  Every one must be pinned by the session when the server
 * reads the record (the server takes its own reference then, so a release
 * that follows the record is safe); length must equal the buffer length
 * the argument block states.
 */
struct gleam_cache_refs {
	__u32 count;		/* 1..GLEAM_CACHE_REFS_MAX */
	__u32 reserved0;	/* must be zero */
	__u64 length;		/* the sum of the references' lengths */
};

#ifndef __cplusplus
_Static_assert(sizeof(struct gleam_cache_ref) == 40, "gleam_cache_ref");
_Static_assert(sizeof(struct gleam_cache_info) == 72, "gleam_cache_info");
_Static_assert(sizeof(struct gleam_cache_query) == 24, "gleam_cache_query");
_Static_assert(sizeof(struct gleam_cache_have) == 24, "gleam_cache_have");
_Static_assert(sizeof(struct gleam_cache_data) == 48, "gleam_cache_data");
_Static_assert(sizeof(struct gleam_cache_release) == 8, "gleam_cache_release");
_Static_assert(sizeof(struct gleam_cache_refs) == 16, "gleam_cache_refs");
_Static_assert(sizeof(struct gleam_cache_ctl) == 16, "gleam_cache_ctl");
_Static_assert(sizeof(struct gleam_cache_prove) == 8, "gleam_cache_prove");
_Static_assert(sizeof(struct gleam_cache_proof) == 72, "gleam_cache_proof");
/* The largest query and the largest chunk each fit one frame (GLEAM_FRAME_MAX, 8 MiB). */
_Static_assert(sizeof(struct gleam_cache_query) +
	       GLEAM_CACHE_QUERY_MAX * sizeof(struct gleam_cache_ref) <= (8U << 20),
	       "query fits a frame");
_Static_assert(sizeof(struct gleam_cache_data) + GLEAM_CACHE_CHUNK_MAX <= (8U << 20),
	       "chunk fits a frame");
#endif

#endif /* _UAPI_GLEAM_CACHE_H */
