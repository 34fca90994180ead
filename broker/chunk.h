/* SPDX-License-Identifier: MIT */
/*
 * The content-addressed chunk store of a server gleamd (Documentation/cache.md).
 *
 * A chunk is 1 to chunk_max bytes of a host-to-device upload; its name is
 * the SHA-256 of those bytes.  The store keeps chunks in memory (bounded,
 * least recently used first out) and, when given a directory, on disk
 * (bounded likewise, kept across restarts).  Nothing enters the store
 * without its bytes being hashed and found equal to its name, and nothing
 * read back from disk leaves it without being hashed again.
 *
 * Thread-safety: every chunk_store_* call may be made from any thread.  One
 * mutex guards the index; hashing and file data are read and written
 * outside it, so a put that writes and syncs a file does not hold up the
 * lookups of other threads.  A put or a get that misses memory does block
 * its caller on the disk: gleamd's single-threaded loop should call them
 * from a thread of its own (chunk_store_has() and memory hits do not
 * block).  chunk_store_close() must not race with any other call.
 */
#ifndef GLEAM_CHUNK_H
#define GLEAM_CHUNK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHUNK_NAME_LEN		32			/* SHA-256 */
#define CHUNK_SIZE_DEFAULT	(1U << 20)		/* = GLEAM_PIECE_MAX */
#define CHUNK_SIZE_MAX		(4U << 20)		/* fits a wire frame with room */

struct chunk_name {
	uint8_t b[CHUNK_NAME_LEN];
};

/*
 * A chunk's bytes, reference counted.  The store holds one reference while
 * the chunk is in its memory tier; each chunk_store_get() gives the caller
 * another.  A chunk in use is never freed under its user, whatever the
 * store evicts meanwhile.  Once a chunk is in the store its bytes are
 * shared and must not be written.
 */
struct chunk {
	struct chunk_name name;
	uint32_t len;
	atomic_uint ref;			/* private: chunk_ref/unref */
	unsigned char data[] __attribute__((aligned(64)));
};

/* OpenSSL's SHA-256, fetched once for every thread; NULL if it has none. */
struct evp_md_st;
const struct evp_md_st *chunk_md(void);
/* SHA-256 of data into out; 0, or -EIO if the library failed (out zeroed). */
int chunk_hash(const void *data, size_t len, struct chunk_name *out);
/*
 * SHA-256 of key (CHUNK_NAME_LEN bytes) followed by data: what proves that
 * one holds data, to a peer that chose key.  0 or -EIO.
 */
int chunk_hash_keyed(const unsigned char *key, const void *data, size_t len,
		     struct chunk_name *out);
bool chunk_name_eq(const struct chunk_name *a, const struct chunk_name *b);
/* 64 lower-case hex digits and a NUL. */
void chunk_name_hex(const struct chunk_name *n, char hex[2 * CHUNK_NAME_LEN + 1]);
/* The reverse: exactly 64 hex digits; 0 or -EINVAL. */
int chunk_name_parse(const char *hex, struct chunk_name *n);
/* How many chunks an upload of len bytes is cut into: the last may be short. */
uint64_t chunk_count(uint64_t len, uint32_t chunk_size);

/* A chunk with room for len bytes and one reference; NULL without memory. */
struct chunk *chunk_alloc(uint32_t len);
struct chunk *chunk_ref(struct chunk *c);
void chunk_unref(struct chunk *c);

struct chunk_store_opts {
	const char *dir;		/* disk tier's directory; NULL: memory only */
	uint64_t mem_limit;		/* bytes of chunk data in memory; 0: none kept */
	uint64_t disk_limit;		/* bytes of chunk data on disk; > 0 with dir */
	uint32_t chunk_max;		/* longest chunk accepted; 0: CHUNK_SIZE_DEFAULT */
	bool nosync;			/* no fsync before rename: tests and benchmarks */
};

/* Counters; a snapshot from chunk_store_stats(). */
struct chunk_store_stats {
	uint64_t entries;		/* names held, in either tier or both */
	uint64_t mem_entries;
	uint64_t mem_bytes;		/* chunk data, allocator overhead not counted */
	uint64_t disk_entries;
	uint64_t disk_bytes;		/* chunk data, with writes in progress */
	uint64_t hits_mem;		/* gets answered from memory */
	uint64_t hits_disk;		/* gets answered from disk, re-hashed */
	uint64_t misses;		/* gets answered -ENOENT */
	uint64_t puts;			/* chunks verified and offered */
	uint64_t dups;			/* of which already held */
	uint64_t rejected;		/* puts whose bytes did not match the name */
	uint64_t evict_mem;
	uint64_t evict_disk;
	uint64_t corrupt;		/* files dropped: wrong bytes, size or gone */
	uint64_t disk_errors;		/* files that could not be written */
	uint64_t temp_removed;		/* half-written files removed at open */
};

/* Where a chunk lies, for chunk_store_list(). */
#define CHUNK_IN_MEM	(1U << 0)
#define CHUNK_ON_DISK	(1U << 1)

struct chunk_store;

/*
 * Open a store.  With a directory, it is created if need be, locked against
 * a second opener (-EBUSY), cleared of half-written files, and scanned:
 * its chunks are known again, oldest modification first out, without being
 * read (each is verified when it is next read).  0 or -errno.
 */
int chunk_store_open(const struct chunk_store_opts *o, struct chunk_store **out);
void chunk_store_close(struct chunk_store *s);

/*
 * Offer a chunk.  Its bytes are hashed and compared with name first: a
 * mismatch is -EBADMSG and nothing is stored.  Then it is kept in memory
 * and written to disk (temporary file, fsync, rename) before the call
 * returns.  0 also when the chunk was already held; -EINVAL for a length of
 * 0 or over chunk_max; -ENOSPC when neither tier can hold it; the write's
 * error when the disk failed and memory could not keep it either.
 * chunk_store_put() copies data; chunk_store_add() keeps a reference to c
 * (filled with chunk_alloc(), and not written to afterwards) and fills in
 * its name.
 */
int chunk_store_put(struct chunk_store *s, const struct chunk_name *name, const void *data,
		    uint32_t len);
int chunk_store_add(struct chunk_store *s, const struct chunk_name *name, struct chunk *c);

/*
 * A reference to a chunk, from memory or read from disk and verified (a
 * chunk read from disk is kept in memory again).  0, or -ENOENT when the
 * store does not hold it or its file was found damaged (then deleted).
 * The caller compares (*out)->len with the length it expects and calls
 * chunk_unref() when done.
 */
int chunk_store_get(struct chunk_store *s, const struct chunk_name *name, struct chunk **out);

/*
 * Whether the store holds name, from the index alone (no disk access): a
 * file found damaged later makes a get miss after a has said yes.  *len,
 * when given, receives the chunk's length.
 */
bool chunk_store_has(struct chunk_store *s, const struct chunk_name *name, uint32_t *len);

/*
 * Call fn for every chunk held, with CHUNK_IN_MEM and CHUNK_ON_DISK in
 * where, under the store's lock: fn must not call the store.  A non-zero
 * return from fn stops the walk and is returned.
 */
int chunk_store_list(struct chunk_store *s,
		     int (*fn)(const struct chunk_name *name, uint32_t len, unsigned int where,
			       void *arg),
		     void *arg);

/* Forget every chunk and delete every file; counters other than sizes stay. */
void chunk_store_clear(struct chunk_store *s);

void chunk_store_stats(struct chunk_store *s, struct chunk_store_stats *st);

#endif /* GLEAM_CHUNK_H */
