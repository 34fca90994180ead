// SPDX-License-Identifier: MIT
/*
 * Uploads by content, the server's part (Documentation/cache.md):
 * CACHE_DATA is hashed and stored only if the bytes are the name's;
 * CACHE_QUERY pins what the store holds; a CACHED record is given its
 * bytes back, from pinned chunks only, before the worker sees it; and
 * what gleamctl sees of the store.
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

/* ---- server role ---- */

struct scache {
	struct nset pins;		/* ptr: the chunk, one reference; flags: PIN_UNPROVEN */
	uint64_t pinned_bytes;
	uint64_t pin_max;		/* its share of the server's pin_mem */
	uint64_t serial;		/* names the session to the store threads */
	struct tenant *tenant;		/* whose chunks it may name */
	bool prove;			/* GLEAM_WIRE_F_PROVE */
	unsigned char nonce[CHUNK_NAME_LEN];
	struct cache_stats st;
};

static struct chunk_store *store;
static uint64_t store_mem_limit, store_disk_limit;
static char store_dir[256];
/* Pins: per session, for all sessions, and what the live sessions took of it. */
static uint64_t pin_max = CACHE_PIN_MAX, pin_mem = 4 * CACHE_PIN_MAX, pin_taken;
static bool tenant_scope;
/* Names a tenant proved, at most; past it the set starts again (it proves anew). */
#define PROVEN_MAX	(1U << 20)
/* A session gets no pins when less than this is left for it. */
#define PIN_MIN		(4 * CACHE_CHUNK)

static bool proven(struct tenant *t, const struct chunk_name *n)
{
	return nset_find(&t->proven, n) != NULL;
}

static void prove_own(struct tenant *t, const struct chunk_name *n)
{
	if (t->proven.n >= PROVEN_MAX)
		nset_free(&t->proven);
	nset_add(&t->proven, n);
}

/*
 * Chunks received are verified and written by store threads, off the
 * event loop: hashing a chunk and writing it to disk (with fsync) take
 * longer than a fast link takes to bring the next.  The session pins its
 * chunk at once (its own bytes, for its own record); the store keeps only
 * what hashes to its name.  A refusal comes back to the loop, which ends
 * the session that lied.  The queue is bounded: past it the loop stores
 * the chunk itself, which holds the link back instead of memory growing.
 */
#define STORE_THREADS_MAX	4
#define STORE_QUEUE_MAX		(256ULL << 20)

struct sjob {
	struct sjob *next;
	struct chunk *k;
	uint64_t serial;
	struct tenant *tenant;
};

/* A chunk the store verified: its tenant has shown it holds it. */
struct proved {
	struct tenant *tenant;
	struct chunk_name name;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	struct sjob *todo, **tail;
	uint64_t queued;		/* bytes waiting */
	uint64_t *liars;		/* serials whose chunk was refused */
	size_t nliars, liars_cap;
	struct proved *proved;		/* chunks verified, for their tenants */
	size_t nproved, proved_cap;
	pthread_t th[STORE_THREADS_MAX];
	unsigned int nth;
} sq = { .lock = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static uint64_t next_serial;

/* Under sq.lock: t holds the chunk named n, for the loop to note. */
static void note_proved(struct tenant *t, const struct chunk_name *n)
{
	if (sq.nproved == sq.proved_cap) {
		size_t cap = sq.proved_cap ? 2 * sq.proved_cap : 64;
		struct proved *p = cap <= PROVEN_MAX ? realloc(sq.proved, cap * sizeof(*p)) : NULL;

		if (!p)
			return;
		sq.proved = p;
		sq.proved_cap = cap;
	}
	sq.proved[sq.nproved].tenant = t;
	sq.proved[sq.nproved++].name = *n;
}

/*
 * The store's verdict on a chunk; -EBADMSG is remembered for the loop, and
 * so is a chunk verified (stored, or held already), as its tenant's own.
 */
static void store_one(struct chunk *k, uint64_t serial, struct tenant *t)
{
	struct chunk_name n = k->name;
	int err = chunk_store_add(store, &n, k);

	if (err != -EBADMSG) {
		/* Verified whether or not it could be kept: only a bad length is not. */
		if (err != -EINVAL) {
			pthread_mutex_lock(&sq.lock);
			note_proved(t, &n);
			pthread_mutex_unlock(&sq.lock);
		}
		return;
	}
	pthread_mutex_lock(&sq.lock);
	if (sq.nliars == sq.liars_cap) {
		size_t cap = sq.liars_cap ? 2 * sq.liars_cap : 16;
		uint64_t *l = realloc(sq.liars, cap * sizeof(*l));

		if (l) {
			sq.liars = l;
			sq.liars_cap = cap;
		}
	}
	if (sq.nliars < sq.liars_cap)
		sq.liars[sq.nliars++] = serial;
	pthread_mutex_unlock(&sq.lock);
}

static void *store_thread(void *arg)
{
	for (;;) {
		struct sjob *j;

		pthread_mutex_lock(&sq.lock);
		while (!sq.todo)
			pthread_cond_wait(&sq.cv, &sq.lock);
		j = sq.todo;
		sq.todo = j->next;
		if (!sq.todo)
			sq.tail = &sq.todo;
		sq.queued -= j->k->len;
		pthread_mutex_unlock(&sq.lock);
		store_one(j->k, j->serial, j->tenant);
		chunk_unref(j->k);
		free(j);
	}
	return arg;
}

/* Hand a chunk to the store threads, or store it here when they are behind. */
static void store_later(struct chunk *k, uint64_t serial, struct tenant *t)
{
	struct sjob *j = sq.nth ? malloc(sizeof(*j)) : NULL;

	pthread_mutex_lock(&sq.lock);
	if (!j || sq.queued + k->len > STORE_QUEUE_MAX) {
		pthread_mutex_unlock(&sq.lock);
		free(j);
		store_one(k, serial, t);
		return;
	}
	j->k = chunk_ref(k);
	j->serial = serial;
	j->tenant = t;
	j->next = NULL;
	*sq.tail = j;
	sq.tail = &j->next;
	sq.queued += k->len;
	pthread_cond_signal(&sq.cv);
	pthread_mutex_unlock(&sq.lock);
}

void scache_reap(void (*liar)(void *role, uint64_t serial), void *role)
{
	struct proved *p;
	uint64_t *l;
	size_t n, np;

	pthread_mutex_lock(&sq.lock);
	l = sq.liars;
	n = sq.nliars;
	sq.liars = NULL;
	sq.nliars = sq.liars_cap = 0;
	p = sq.proved;
	np = sq.nproved;
	sq.proved = NULL;
	sq.nproved = sq.proved_cap = 0;
	pthread_mutex_unlock(&sq.lock);
	for (size_t i = 0; i < n; i++)
		liar(role, l[i]);
	for (size_t i = 0; i < np; i++)
		prove_own(p[i].tenant, &p[i].name);
	free(l);
	free(p);
}

void scache_limits(uint64_t session, uint64_t all, bool scope)
{
	pin_max = session;
	pin_mem = all;
	tenant_scope = scope;
}

uint64_t scache_serial(const struct scache *c)
{
	return c->serial;
}

int scache_open(const char *dir, uint64_t mem_limit, uint64_t disk_limit)
{
	struct chunk_store_opts o = {
		.dir = dir && *dir ? dir : NULL,
		.mem_limit = mem_limit,
		.disk_limit = dir && *dir ? disk_limit : 0,
		.chunk_max = CACHE_CHUNK,
	};

	const char *e = getenv("GLEAM_STORE_THREADS");
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	/* With a core or two the loop stores chunks itself. */
	long n = e ? atol(e) : cores > 2 ? cores / 2 : 0;
	int err = chunk_store_open(&o, &store);

	if (err)
		return err;
	store_mem_limit = o.mem_limit;
	store_disk_limit = o.disk_limit;
	snprintf(store_dir, sizeof(store_dir), "%s", o.dir ? o.dir : "");
	/* It goes into JSON: nothing there may end the string or escape. */
	for (char *q = store_dir; *q; q++)
		if (*q == '"' || *q == '\\' || (unsigned char)*q < 0x20)
			*q = '_';
	sq.tail = &sq.todo;
	for (long i = 0; i < MIN(n, STORE_THREADS_MAX); i++) {
		pthread_attr_t a;

		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		if (!pthread_create(&sq.th[sq.nth], &a, store_thread, NULL))
			sq.nth++;
		pthread_attr_destroy(&a);
	}
	return 0;
}

bool scache_enabled(void)
{
	return store != NULL;
}

struct chunk_store *scache_store(void)
{
	return store;
}

struct scache *scache_new(struct tenant *t, bool prove)
{
	uint64_t share = MIN(pin_max, pin_mem - MIN(pin_mem, pin_taken));
	struct scache *c;

	/* Without room for a few chunks the session goes without: it sends bytes. */
	if (share < PIN_MIN)
		return NULL;
	c = calloc(1, sizeof(struct scache));
	if (!c)
		return NULL;
	c->serial = ++next_serial;
	c->tenant = t;
	c->prove = prove;
	c->pin_max = share;
	pin_taken += share;
	if (prove && getrandom(c->nonce, sizeof(c->nonce), 0) != sizeof(c->nonce)) {
		pin_taken -= share;
		free(c);
		return NULL;
	}
	return c;
}

void scache_free(struct scache *c)
{
	if (!c)
		return;
	pin_taken -= c->pin_max;
	for (size_t i = 0; i < c->pins.cap; i++)
		if (c->pins.e[i].used)
			chunk_unref(c->pins.e[i].ptr);
	nset_free(&c->pins);
	cache_stats_add(&scache_total, &c->st);
	free(c);
}

const struct cache_stats *scache_stats(const struct scache *c)
{
	return &c->st;
}

void scache_send_info(struct bridge *b)
{
	struct gleam_cache_info i = {
		.chunk_size = CACHE_CHUNK,
		.threshold = CACHE_THRESHOLD,
		.pin_max = b->sc->pin_max,
		.query_max = GLEAM_CACHE_QUERY_MAX,
	};
	struct chunk_store_stats st;

	if (b->sc->prove)
		memcpy(i.nonce, b->sc->nonce, sizeof(i.nonce));
	chunk_store_stats(store, &st);
	i.mem_limit = st.mem_bytes;
	bridge_queue_frame(b, GLEAM_FRAME_CACHE_INFO, &i, sizeof(i));
}

/* Pin k for the session (its reference is the pin's); flags: PIN_UNPROVEN or 0. */
static bool pin(struct scache *c, struct chunk *k, uint32_t flags)
{
	struct nset_ent *e = nset_find(&c->pins, &k->name);

	if (e) {
		chunk_unref(k);
		return true;
	}
	e = nset_add(&c->pins, &k->name);
	if (!e) {
		chunk_unref(k);
		return false;
	}
	e->ptr = k;
	e->count = k->len;
	e->flags = flags;
	c->pinned_bytes += k->len;
	return true;
}

/*
 * One name of a query: whether it is held for the session, and whether the
 * session must prove it holds the bytes before naming it.  A tenant is
 * told of its own chunks (uploaded or proved); of another's only where
 * the session proves what it names (and the store is shared), and then
 * pinned unproven; never beyond the session's pins.
 */
static bool query_one(struct scache *c, const struct gleam_cache_ref *r, bool want_pin,
		      bool *prove)
{
	struct nset_ent *e;
	struct chunk_name n;
	struct chunk *k;
	bool own;

	memcpy(n.b, r->name, sizeof(n.b));
	e = nset_find(&c->pins, &n);
	if (e) {
		*prove = e->flags & PIN_UNPROVEN;
		return true;
	}
	own = proven(c->tenant, &n);
	if (!own && (tenant_scope || !c->prove || !want_pin))
		return false;
	if (c->pinned_bytes + r->length > c->pin_max)
		return false;
	if (chunk_store_get(store, &n, &k))
		return false;
	if (k->len != r->length) {
		chunk_unref(k);
		return false;
	}
	if (!want_pin) {
		chunk_unref(k);
		return true;
	}
	*prove = !own;
	return pin(c, k, own ? 0 : PIN_UNPROVEN);
}

static bool on_query(struct bridge *b, const unsigned char *p, uint32_t len)
{
	struct scache *c = b->sc;
	struct gleam_cache_query q;
	struct gleam_cache_have h = { 0 };
	uint64_t *bits, *pbits;
	unsigned char *out;
	size_t words, olen;

	if (len < sizeof(q))
		return false;
	memcpy(&q, p, sizeof(q));
	if (!q.count || q.count > GLEAM_CACHE_QUERY_MAX || (q.flags & ~GLEAM_CACHE_Q_KNOWN) ||
	    q.reserved || len != sizeof(q) + (uint64_t)q.count * sizeof(struct gleam_cache_ref))
		return false;
	words = (q.count + 63) / 64;
	olen = sizeof(h) + words * 8 * (c->prove ? 2 : 1);
	out = calloc(1, olen);
	if (!out)
		return false;
	bits = (uint64_t *)(out + sizeof(h));
	pbits = bits + words;
	c->st.queries++;
	for (uint32_t i = 0; i < q.count; i++) {
		struct gleam_cache_ref r;
		bool prove = false;

		memcpy(&r, p + sizeof(q) + (size_t)i * sizeof(r), sizeof(r));
		if (r.reserved || !r.length || r.length > CACHE_CHUNK) {
			free(out);
			return false;
		}
		if (!query_one(c, &r, q.flags & GLEAM_CACHE_Q_PIN, &prove))
			continue;
		bits[i / 64] |= 1ull << (i % 64);
		h.held++;
		if (prove) {
			pbits[i / 64] |= 1ull << (i % 64);
			h.prove++;
		}
	}
	h.id = q.id;
	h.count = q.count;
	memcpy(out, &h, sizeof(h));
	bridge_queue_frame(b, GLEAM_FRAME_CACHE_HAVE, out, (uint32_t)olen);
	free(out);
	return true;
}

static bool on_data(struct bridge *b, const unsigned char *p, uint32_t len, const char **why)
{
	struct scache *c = b->sc;
	struct gleam_cache_data d;
	struct nset_ent *e;
	struct chunk_name n;
	struct chunk *k;

	struct gleam_pack ph = { 0 };

	if (len < sizeof(d))
		return false;
	memcpy(&d, p, sizeof(d));
	if ((d.flags & ~GLEAM_CACHE_DATA_F_PACKED) || d.ref.reserved || !d.ref.length ||
	    d.ref.length > CACHE_CHUNK)
		return false;
	if (d.flags & GLEAM_CACHE_DATA_F_PACKED) {
		/* Packed: it must unpack to exactly the length the name is for. */
		if (!b->pk || len < sizeof(d) + sizeof(ph))
			return false;
		memcpy(&ph, p + sizeof(d), sizeof(ph));
		if (ph.raw_len != d.ref.length || !ph.packed_len || ph.reserved0 ||
		    ph.reserved1 || ph.reserved2 || ph.method < GLEAM_PACK_ZSTD ||
		    ph.method >= GLEAM_PACK_METHODS ||
		    len != sizeof(d) + ALIGN8(sizeof(ph) + (uint64_t)ph.packed_len))
			return false;
	} else if (len != sizeof(d) + ALIGN8(d.ref.length)) {
		return false;
	}
	memcpy(n.b, d.ref.name, sizeof(n.b));
	e = nset_find(&c->pins, &n);
	/* Bytes pin too: past the session's share they are refused, and it ends. */
	if (!e && c->pinned_bytes + d.ref.length > c->pin_max) {
		*why = "pinned bytes beyond the session's limit (pin_max in CACHE_INFO)";
		return false;
	}
	k = chunk_alloc(d.ref.length);
	if (!k)
		return false;
	if (!ph.packed_len) {
		memcpy(k->data, p + sizeof(d), d.ref.length);
	} else if (pack_unpack(b->pk, ph.method, p + sizeof(d) + sizeof(ph), ph.packed_len,
			       k->data, d.ref.length)) {
		chunk_unref(k);
		*why = "a packed chunk that does not unpack to its length";
		return false;
	} else {
		b->st.pack_raw += d.ref.length;
		b->st.pack_wire += len - sizeof(d);
	}
	k->name = n;
	c->st.bytes_sent += d.ref.length;
	/*
	 * The store hashes the bytes and keeps only a chunk that is its
	 * name's (and then counts it the tenant's own); the session holds its
	 * own bytes for its record meanwhile, in place of a pin that waited
	 * for a proof.
	 */
	store_later(k, c->serial, c->tenant);
	if (e && (e->flags & PIN_UNPROVEN) && ((struct chunk *)e->ptr)->len == k->len) {
		chunk_unref(e->ptr);
		e->ptr = k;
		e->flags = 0;
		return true;
	}
	return pin(c, k, 0);
}

static bool on_release(struct bridge *b, const unsigned char *p, uint32_t len)
{
	struct scache *c = b->sc;
	struct gleam_cache_release r;

	if (len < sizeof(r))
		return false;
	memcpy(&r, p, sizeof(r));
	if (r.reserved || r.count > GLEAM_CACHE_RELEASE_MAX ||
	    len != sizeof(r) + (uint64_t)r.count * CHUNK_NAME_LEN)
		return false;
	if (!r.count) {
		for (size_t i = 0; i < c->pins.cap; i++)
			if (c->pins.e[i].used)
				chunk_unref(c->pins.e[i].ptr);
		nset_free(&c->pins);
		c->pinned_bytes = 0;
		return true;
	}
	for (uint32_t i = 0; i < r.count; i++) {
		struct chunk_name n;
		struct nset_ent *e;

		memcpy(n.b, p + sizeof(r) + (size_t)i * CHUNK_NAME_LEN, CHUNK_NAME_LEN);
		e = nset_find(&c->pins, &n);
		if (!e)
			continue;
		c->pinned_bytes -= e->count;
		chunk_unref(e->ptr);
		nset_del(&c->pins, e);
	}
	return true;
}

/*
 * Proofs that the session holds chunks it was told to prove: each is the
 * hash of the session's nonce and the chunk, computed here over the bytes
 * held.  One that holds makes the pin usable and the chunk the tenant's
 * own; one that does not ends the session.
 */
static bool on_prove(struct bridge *b, const unsigned char *p, uint32_t len, const char **why)
{
	struct scache *c = b->sc;
	struct gleam_cache_prove h;

	if (!c->prove || len < sizeof(h))
		return false;
	memcpy(&h, p, sizeof(h));
	if (h.reserved || !h.count || h.count > GLEAM_CACHE_PROVE_MAX ||
	    len != sizeof(h) + (uint64_t)h.count * sizeof(struct gleam_cache_proof))
		return false;
	for (uint32_t i = 0; i < h.count; i++) {
		struct gleam_cache_proof pr;
		struct chunk_name n, want;
		struct nset_ent *e;
		struct chunk *k;

		memcpy(&pr, p + sizeof(h) + (size_t)i * sizeof(pr), sizeof(pr));
		memcpy(n.b, pr.ref.name, sizeof(n.b));
		e = nset_find(&c->pins, &n);
		if (pr.ref.reserved || !e || !(e->flags & PIN_UNPROVEN)) {
			*why = "a proof for a chunk the session was not asked to prove";
			return false;
		}
		k = e->ptr;
		if (k->len != pr.ref.length || chunk_hash_keyed(c->nonce, k->data, k->len, &want) ||
		    !gl_secret_eq(want.b, pr.proof, sizeof(want.b))) {
			*why = "a proof of possession that does not hold";
			return false;
		}
		e->flags = 0;
		prove_own(c->tenant, &n);
	}
	return true;
}

bool scache_on_frame(struct bridge *b, uint16_t type, const void *p, uint32_t len,
		     const char **why)
{
	if (!b->sc)
		return false;
	switch (type) {
	case GLEAM_FRAME_CACHE_QUERY:
		return on_query(b, p, len);
	case GLEAM_FRAME_CACHE_DATA:
		return on_data(b, p, len, why);
	case GLEAM_FRAME_CACHE_RELEASE:
		return on_release(b, p, len);
	case GLEAM_FRAME_CACHE_PROVE:
		return on_prove(b, p, len, why);
	default:
		return false;
	}
}

/* The references a CACHED record carries, checked; their count, or 0. */
static uint32_t refs_of(struct bridge *b, const void *rec, uint32_t len, uint32_t *doff,
			uint64_t *rlen)
{
	const struct gleam_rec *h = rec;
	struct gleam_cache_refs refs;
	uint64_t sum = 0, count;

	if (!b->sc || !upload_shape(h, len, doff, &count))
		return 0;
	if (len < *doff + sizeof(refs))
		return 0;
	memcpy(&refs, (const unsigned char *)rec + *doff, sizeof(refs));
	if (!refs.count || refs.count > GLEAM_CACHE_REFS_MAX || refs.reserved0 ||
	    !region_ok(count, refs.length) ||
	    len != *doff + sizeof(refs) + (uint64_t)refs.count * sizeof(struct gleam_cache_ref))
		return 0;
	for (uint32_t i = 0; i < refs.count; i++) {
		struct gleam_cache_ref r;
		struct chunk_name n;
		struct nset_ent *e;

		memcpy(&r, (const unsigned char *)rec + *doff + sizeof(refs) + i * sizeof(r),
		       sizeof(r));
		memcpy(n.b, r.name, sizeof(n.b));
		e = nset_find(&b->sc->pins, &n);
		/* Only bytes the session showed it holds. */
		if (r.reserved || !e || (e->flags & PIN_UNPROVEN) ||
		    ((struct chunk *)e->ptr)->len != r.length)
			return 0;
		sum += r.length;
	}
	*rlen = refs.length;
	return sum == refs.length ? refs.count : 0;
}

uint32_t scache_expanded_len(struct bridge *b, const void *rec, uint32_t len)
{
	uint64_t rlen, n;
	uint32_t doff;

	if (!refs_of(b, rec, len, &doff, &rlen))
		return 0;
	n = doff + rlen;
	return n > GLEAM_REC_MAX ? 0 : (uint32_t)n;
}

void scache_expand(struct bridge *b, const void *rec, uint32_t len, void *dst)
{
	uint32_t count, doff;
	uint64_t rlen, off = 0;
	struct gleam_rec h;
	unsigned char *d = dst;

	count = refs_of(b, rec, len, &doff, &rlen);
	memcpy(&h, rec, sizeof(h));
	h.flags &= (uint16_t)~GLEAM_REC_F_CACHED;
	h.len = doff + (uint32_t)rlen;
	memcpy(d, &h, sizeof(h));
	memcpy(d + sizeof(h), (const unsigned char *)rec + sizeof(h), doff - sizeof(h));
	for (uint32_t i = 0; i < count; i++) {
		struct gleam_cache_ref r;
		struct chunk_name n;
		struct chunk *k;

		memcpy(&r, (const unsigned char *)rec + doff + sizeof(struct gleam_cache_refs) +
		       i * sizeof(r), sizeof(r));
		memcpy(n.b, r.name, sizeof(n.b));
		k = nset_find(&b->sc->pins, &n)->ptr;
		memcpy(d + doff + off, k->data, k->len);
		off += k->len;
	}
	b->sc->st.uploads++;
	b->sc->st.bytes += rlen;
}

/* ---- what gleamctl sees of the store ---- */

struct report {
	char *b;
	size_t len, cap;
	unsigned int n;
	bool full;
};

static void rep_add(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void rep_add(struct report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!r->b)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(r->b + r->len, r->cap - r->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < r->cap - r->len) {
			r->len += (size_t)n;
			return;
		}
		if (r->cap * 2 > GLEAM_FRAME_MAX) {
			r->full = true;
			return;
		}
		{
			char *nb = realloc(r->b, r->cap * 2);

			if (!nb) {
				r->full = true;
				return;
			}
			r->b = nb;
			r->cap *= 2;
		}
	}
}

static int list_one(const struct chunk_name *name, uint32_t len, unsigned int where, void *arg)
{
	struct report *r = arg;
	char hex[2 * CHUNK_NAME_LEN + 1];

	if (r->n >= GLEAM_CACHE_LIST_MAX || r->len > GLEAM_FRAME_MAX - 256) {
		r->full = true;
		return 1;
	}
	chunk_name_hex(name, hex);
	rep_add(r, "%s{\"name\":\"%s\",\"bytes\":%u,\"memory\":%s,\"disk\":%s}",
		r->n ? "," : "", hex, len, where & CHUNK_IN_MEM ? "true" : "false",
		where & CHUNK_ON_DISK ? "true" : "false");
	r->n++;
	return 0;
}

char *scache_report(unsigned int op, const struct cache_stats *live, size_t *len)
{
	struct report r = { .b = malloc(4096), .cap = 4096 };
	struct chunk_store_stats st;
	struct cache_stats t = scache_total;

	if (!r.b || !store) {
		free(r.b);
		return NULL;
	}
	r.b[0] = 0;
	if (op == GLEAM_CACHE_CTL_CLEAR)
		chunk_store_clear(store);
	chunk_store_stats(store, &st);
	cache_stats_add(&t, live);
	rep_add(&r, "{\"store\":{\"entries\":%llu,\"mem_entries\":%llu,\"mem_bytes\":%llu,"
		"\"mem_limit\":%llu,\"disk_entries\":%llu,\"disk_bytes\":%llu,"
		"\"disk_limit\":%llu,\"dir\":\"%s\",\"hits_mem\":%llu,\"hits_disk\":%llu,"
		"\"misses\":%llu,\"puts\":%llu,\"dups\":%llu,\"rejected\":%llu,"
		"\"evict_mem\":%llu,\"evict_disk\":%llu,\"corrupt\":%llu,\"disk_errors\":%llu},"
		"\"uploads\":{\"records\":%llu,\"bytes\":%llu,\"bytes_received\":%llu,"
		"\"bytes_saved\":%llu,\"questions\":%llu}",
		(unsigned long long)st.entries, (unsigned long long)st.mem_entries,
		(unsigned long long)st.mem_bytes, (unsigned long long)store_mem_limit,
		(unsigned long long)st.disk_entries, (unsigned long long)st.disk_bytes,
		(unsigned long long)store_disk_limit, store_dir,
		(unsigned long long)st.hits_mem, (unsigned long long)st.hits_disk,
		(unsigned long long)st.misses, (unsigned long long)st.puts,
		(unsigned long long)st.dups, (unsigned long long)st.rejected,
		(unsigned long long)st.evict_mem, (unsigned long long)st.evict_disk,
		(unsigned long long)st.corrupt, (unsigned long long)st.disk_errors,
		(unsigned long long)t.uploads, (unsigned long long)t.bytes,
		(unsigned long long)t.bytes_sent,
		(unsigned long long)(t.bytes > t.bytes_sent ? t.bytes - t.bytes_sent : 0),
		(unsigned long long)t.queries);
	if (op == GLEAM_CACHE_CTL_LIST) {
		rep_add(&r, ",\"chunks\":[");
		chunk_store_list(store, list_one, &r);
		rep_add(&r, "],\"listed\":%u,\"complete\":%s", r.n, r.full ? "false" : "true");
	}
	if (op == GLEAM_CACHE_CTL_CLEAR)
		rep_add(&r, ",\"cleared\":true");
	rep_add(&r, "}");
	*len = r.len + 1;
	return r.b;
}

void scache_sum(const struct scache *c, struct cache_stats *t)
{
	cache_stats_add(t, &c->st);
}
