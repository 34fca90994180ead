// SPDX-License-Identifier: MIT
/*
 * Uploads by content, both roles (Documentation/cache.md).
 *
 * Client: records move from the application's ring into the session's
 * queue, in order.  A copy to the device of at least the server's
 * threshold is named by the SHA-256 of its bytes.  A name the session has
 * pinned at the server goes out as the record's payload; a name the
 * server is believed to hold is first asked about (one question for all
 * such names in the queue); any other goes out as a CACHE_DATA frame just
 * before its record, which pins it.  Records leave the queue in order, a
 * name once no queued record still needs it is released.
 *
 * Server: CACHE_DATA is hashed and stored only if the bytes are the name's;
 * CACHE_QUERY pins what the store holds; a CACHED record is given its
 * bytes back, from pinned chunks only, before the worker sees it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cache.h"
#include "cache_int.h"
#include "hashpool.h"
#include "pack.h"
#include "gleam_api_gen.h"
#include "gleamd.h"
#include "tenant.h"
#include "util.h"

void cache_stats_add(struct cache_stats *t, const struct cache_stats *a)
{
	t->uploads += a->uploads;
	t->bytes += a->bytes;
	t->hits += a->hits;
	t->bytes_saved += a->bytes_saved;
	t->bytes_sent += a->bytes_sent;
	t->queries += a->queries;
	t->waits += a->waits;
	t->raw += a->raw;
}

/* ---- what both roles agree on ---- */

/*
 * A record whose data can be named: a copy of one host buffer to the device
 * (whose argument block says how long the buffer is) or a piece of a module
 * or library image.  The named region is everything after the argument
 * block, padding included: a copy's buffer, or an image piece's bytes as
 * the worker joins them.  *doff: where it starts; *count: the copy's
 * ByteCount, or 0 for an image piece (any length).
 */
bool upload_shape(const struct gleam_rec *h, uint32_t len, uint32_t *doff, uint64_t *count)
{
	bool copy = h->fn == GL_FN_cuMemcpyHtoD || h->fn == GL_FN_cuMemcpyHtoDAsync;
	uint32_t asz;

	if (!copy && h->fn != GL_FN_cuModuleLoadData && h->fn != GL_FN_cuLibraryLoadData)
		return false;
	if (copy && (h->flags & GLEAM_REC_F_MORE))
		return false;
	asz = ALIGN8((uint32_t)gl_fn_args_size[h->fn]);
	if (len < sizeof(*h) + asz)
		return false;
	*doff = (uint32_t)sizeof(*h) + asz;
	*count = 0;
	/* ByteCount is the second word of both copies' argument blocks. */
	if (copy)
		memcpy(count, (const unsigned char *)h + sizeof(*h) + 8, 8);
	return true;
}

/* Whether a region of rlen bytes fits what the record's arguments say. */
bool region_ok(uint64_t count, uint64_t rlen)
{
	return rlen && !(rlen & 7) && (!count || ALIGN8(count) == rlen);
}

bool upload_region(const struct gleam_rec *h, uint32_t len, uint32_t *doff, uint64_t *count)
{
	return upload_shape(h, len, doff, count);
}

bool upload_region_ok(uint64_t count, uint64_t rlen)
{
	return region_ok(count, rlen);
}


struct cache_stats ccache_total, scache_total;
