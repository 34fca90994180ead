/* SPDX-License-Identifier: MIT */
/*
 * Host-to-device uploads by content (Documentation/cache.md): the client
 * gleamd names each large upload by the SHA-256 of its bytes and sends the
 * name where the server holds the bytes; the server keeps the bytes in its
 * chunk store and puts them back into the record before the replay worker
 * sees it.
 */
#ifndef GLEAM_CACHE_H
#define GLEAM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "chunk.h"
#include "gleam_cache.h"
#include "nameset.h"

struct bridge;

/* Counters, per session and per daemon. */
struct cache_stats {
	uint64_t uploads;		/* records that could be named */
	uint64_t bytes;			/* their bytes */
	uint64_t hits;			/* named, bytes held by the server */
	uint64_t bytes_saved;		/* bytes that crossed as names */
	uint64_t bytes_sent;		/* chunk bytes that crossed */
	uint64_t queries;		/* questions asked */
	uint64_t waits;			/* times a session waited for an answer */
	uint64_t raw;			/* copies sent as they are: the link outran hashing */
};

/* t += a, counter by counter. */
void cache_stats_add(struct cache_stats *t, const struct cache_stats *a);

/* ---- client role ---- */

struct ccache;

/*
 * The session's cache, once the server granted GLEAM_WIRE_F_CACHE; prove:
 * and GLEAM_WIRE_F_PROVE.
 */
struct ccache *ccache_new(bool prove);
void ccache_free(struct ccache *c);
/* The server's CACHE_INFO: cutting and naming may start; false: malformed. */
bool ccache_info(struct bridge *b, const void *p, uint32_t len);
/* The server's answer to a query; false: malformed. */
bool ccache_have(struct bridge *b, const void *p, uint32_t len);
/*
 * Fill the bridge's output buffer from the ring through the session's
 * queue: records in order, named where the server holds their bytes.
 */
void ccache_fill_out(struct bridge *b);
bool ccache_idle(const struct bridge *b);
bool ccache_passes(struct bridge *b, const void *p, uint32_t len);
/*
 * The connection was replaced: questions in flight and pins are forgotten
 * (the server's are given back first), and what waited is asked again.
 */
void ccache_resumed(struct bridge *b);
/* The hashing threads' eventfd, readable when names are ready; -1 before any. */
int ccache_pool_fd(void);
const struct cache_stats *ccache_stats(const struct ccache *c);
/* Every session's counters together, ended sessions included. */
extern struct cache_stats ccache_total;

/* ---- server role ---- */

struct scache;

/* The daemon's store; 0 or -errno. */
int scache_open(const char *dir, uint64_t mem_limit, uint64_t disk_limit);
/*
 * Pins (Documentation/cache.md): at most pin_max bytes per session, and
 * pin_mem bytes for all sessions together, which each session's share is
 * taken from when it begins.  tenant_scope: a tenant is told only of
 * chunks it uploaded or proved, never of another's.
 */
void scache_limits(uint64_t pin_max, uint64_t pin_mem, bool tenant_scope);
bool scache_enabled(void);
struct chunk_store *scache_store(void);
/*
 * A session's pins, for tenant t (tenant.h); prove: the session proves
 * what it holds (GLEAM_WIRE_F_PROVE).  NULL without memory, or when the
 * pins of the sessions already begun leave this one too little.
 */
struct tenant;
struct scache *scache_new(struct tenant *t, bool prove);
void scache_free(struct scache *c);
/* The CACHE_INFO frame sent after a hello that granted the cache. */
void scache_send_info(struct bridge *b);
/*
 * CACHE_QUERY, CACHE_DATA, CACHE_RELEASE and CACHE_PROVE frames; false:
 * close the session, *why saying why where it is more than malformed.
 */
bool scache_on_frame(struct bridge *b, uint16_t type, const void *p, uint32_t len,
		     const char **why);
/*
 * The length a CACHED record will have with its bytes back, or 0 if the
 * record is malformed or names what the session has not pinned.
 */
uint32_t scache_expanded_len(struct bridge *b, const void *rec, uint32_t len);
/* Write it, expanded, to dst (scache_expanded_len() bytes). */
void scache_expand(struct bridge *b, const void *rec, uint32_t len, void *dst);
const struct cache_stats *scache_stats(const struct scache *c);
extern struct cache_stats scache_total;
/* The session's number, as scache_reap() names it. */
uint64_t scache_serial(const struct scache *c);
/*
 * gleamctl's request on a control connection: the store's JSON report
 * (GLEAM_CACHE_CTL_*), with the live sessions' counters added by the
 * caller through scache_sum(); malloc'd, NUL-ended, *len with the NUL.
 */
char *scache_report(unsigned int op, const struct cache_stats *live, size_t *len);
void scache_sum(const struct scache *c, struct cache_stats *t);
/*
 * Sessions whose chunk the store refused since last asked: liar(role,
 * serial) each; and chunks it verified are marked as their tenants' own.
 */
void scache_reap(void (*liar)(void *role, uint64_t serial), void *role);

/*
 * Whether a record of len bytes is an upload (a copy to the device, a
 * module image's piece): its host bytes start at *doff; *count is the
 * copy's ByteCount (0: an image piece, any length).  upload_region_ok():
 * whether a region of rlen bytes fits count.
 */
struct gleam_rec;
bool upload_region(const struct gleam_rec *h, uint32_t len, uint32_t *doff, uint64_t *count);
bool upload_region_ok(uint64_t count, uint64_t rlen);

#endif /* GLEAM_CACHE_H */
