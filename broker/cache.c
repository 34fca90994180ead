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
static bool upload_shape(const struct gleam_rec *h, uint32_t len, uint32_t *doff, uint64_t *count)
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
static bool region_ok(uint64_t count, uint64_t rlen)
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

#define CACHE_CHUNK		(1U << 20)	/* = GLEAM_PIECE_MAX: one piece, one chunk */
#define CACHE_THRESHOLD		(64U << 10)
#define CACHE_PIN_MAX		(256ULL << 20)	/* what the queue can hold pinned */

struct cache_stats ccache_total, scache_total;

/* ---- client role ---- */

/*
 * PLAIN: sent as it is.  HASH: its name is being computed.  WAIT: its name
 * was asked about.  DATA: its bytes go first.  SENT: they went.  NAMED:
 * the session has its name pinned.  PROVE: the server holds it, another
 * tenant's, and the proof that the session holds it too is being computed.
 * PROOF: the proof goes first, then the record as NAMED.
 */
enum { CE_PLAIN, CE_HASH, CE_WAIT, CE_DATA, CE_SENT, CE_NAMED, CE_PROVE, CE_PROOF };

/* A pin the server holds for the session that waits for its proof. */
#define PIN_UNPROVEN	1u

struct centry {
	struct centry *next;
	struct hashpool_job job;	/* while CE_HASH */
	uint32_t len;
	uint32_t doff;
	uint32_t dlen;
	uint8_t state;
	struct chunk_name name;
	struct chunk_name proof;	/* CE_PROVE, CE_PROOF */
	unsigned char rec[] __attribute__((aligned(8)));
};

#define QUEUE_MAX	(64U << 20)

/*
 * A question on the wire: its names in its order.  Several may be out at
 * once (the server answers in order), so that a name hashed while one is
 * out need not wait for its answer before being asked about.
 */
#define QUESTIONS_MAX	16

struct qname {
	struct chunk_name name;
	uint32_t len;
};

struct question {
	struct question *next;
	uint64_t id;
	uint32_t n;
	struct qname names[];
};

struct ccache {
	bool ready;
	bool prove;			/* GLEAM_WIRE_F_PROVE */
	unsigned char nonce[CHUNK_NAME_LEN];
	uint32_t chunk_size, threshold, query_max;
	uint64_t pin_max;		/* the server's bound on the session's pins */
	uint64_t pinned_bytes;		/* what pinned holds: the server's count too */
	uint64_t asked_bytes;		/* names in questions on the wire: the server may pin them */
	struct centry *head, **tail;
	size_t queued;
	struct nset pinned;		/* count: queued records that name it */
	struct nset asked;		/* in a question on the wire */
	struct nset to_ask;		/* for the next question */
	struct question *qhead, **qtail;	/* on the wire, oldest first */
	uint32_t nquestions;
	uint64_t query_id;
	struct chunk_name *release;
	uint32_t nrelease, release_cap;
	bool release_all;		/* a new connection: the server's pins go first */
	double hash_bps;		/* SHA-256 on one thread, measured; 0: not yet */
	uint64_t copies;		/* copies that could have been named */
	struct cache_stats st;
};

/*
 * Names are computed on the pool's threads while the loop goes on sending;
 * a pool for the whole daemon, made with the first session that names.
 */
static struct hashpool *pool;



struct ccache *ccache_new(bool prove)
{
	struct ccache *c = calloc(1, sizeof(*c));

	if (c) {
		c->tail = &c->head;
		c->qtail = &c->qhead;
		c->prove = prove;
	}
	return c;
}

/* Pins: the server's count of the session's pinned bytes is kept here too. */
static struct nset_ent *pin_add(struct ccache *c, const struct chunk_name *n, uint32_t len)
{
	struct nset_ent *e = nset_find(&c->pinned, n);

	if (e)
		return e;
	e = nset_add(&c->pinned, n);
	if (e) {
		e->len = len;
		c->pinned_bytes += len;
	}
	return e;
}

static void pin_del(struct ccache *c, struct nset_ent *e)
{
	c->pinned_bytes -= e->len;
	nset_del(&c->pinned, e);
}

static void pins_forget(struct ccache *c)
{
	nset_free(&c->pinned);
	c->pinned_bytes = 0;
}

/*
 * Whether the bytes of a chunk of len may go as CACHE_DATA: they pin it
 * too, and the server pins what it holds of a question before it reads
 * what follows the question, so the names on the wire count as pinned.
 */
static bool pin_room(const struct ccache *c, uint32_t len)
{
	return !c->pin_max || c->pinned_bytes + c->asked_bytes + len <= c->pin_max;
}

/*
 * The proof that the session holds the bytes of entry e: computed on the
 * hashing threads, or here without them.
 */
static void start_proof(struct ccache *c, struct centry *e)
{
	e->state = CE_PROVE;
	if (pool && !hashpool_submit_prefixed(pool, &e->job, e->rec + e->doff, e->dlen,
					      c->chunk_size, c->nonce, &e->proof))
		return;
	e->state = chunk_hash_keyed(c->nonce, e->rec + e->doff, e->dlen, &e->proof) ? CE_PLAIN :
		   CE_PROOF;
}

void ccache_free(struct ccache *c)
{
	struct centry *e, *n;

	if (!c)
		return;
	for (e = c->head; e; e = n) {
		n = e->next;
		if (e->state == CE_HASH || e->state == CE_PROVE)
			hashpool_cancel(pool, &e->job);
		free(e);
	}
	pins_forget(c);
	nset_free(&c->asked);
	nset_free(&c->to_ask);
	free(c->release);
	while (c->qhead) {
		struct question *q = c->qhead;

		c->qhead = q->next;
		free(q);
	}
	cache_stats_add(&ccache_total, &c->st);
	free(c);
}

const struct cache_stats *ccache_stats(const struct ccache *c)
{
	return &c->st;
}

bool ccache_idle(const struct bridge *b)
{
	return !b->cc || !b->cc->head;
}

bool ccache_info(struct bridge *b, const void *p, uint32_t len)
{
	struct gleam_cache_info i;
	struct ccache *c = b->cc;

	if (!c || c->ready || len != sizeof(i))
		return false;
	memcpy(&i, p, len);
	if (i.chunk_size < GLEAM_CACHE_CHUNK_MIN || i.chunk_size > GLEAM_CACHE_CHUNK_MAX ||
	    (i.chunk_size & (i.chunk_size - 1)) || i.flags || !i.query_max ||
	    i.query_max > GLEAM_CACHE_QUERY_MAX)
		return false;
	/* The nonce is there only where proofs were agreed on. */
	if (!c->prove) {
		for (size_t k = 0; k < sizeof(i.nonce); k++)
			if (i.nonce[k])
				return false;
	}
	memcpy(c->nonce, i.nonce, sizeof(c->nonce));
	c->pin_max = i.pin_max;
	c->chunk_size = i.chunk_size;
	c->threshold = i.threshold;
	c->query_max = i.query_max;
	c->ready = true;
	return true;
}

static bool release_add(struct ccache *c, const struct chunk_name *n)
{
	if (c->nrelease == c->release_cap) {
		uint32_t cap = c->release_cap ? 2 * c->release_cap : 64;
		struct chunk_name *r = realloc(c->release, cap * sizeof(*r));

		if (!r)
			return false;
		c->release = r;
		c->release_cap = cap;
	}
	c->release[c->nrelease++] = *n;
	return true;
}

int ccache_pool_fd(void)
{
	return pool ? hashpool_fd(pool) : -1;
}

/* The entry's name is known: pinned already, or to be asked about. */
static void decide(struct ccache *c, struct centry *e)
{
	struct nset_ent *pin;

	c->st.uploads++;
	c->st.bytes += e->dlen;
	pin = nset_find(&c->pinned, &e->name);
	if (pin) {
		/* Pinned, perhaps about to be released: it stays. */
		e->state = CE_NAMED;
		pin->count++;
		return;
	}
	/*
	 * Any other name is asked about, with every other name the queue holds:
	 * the server may have it from any client.  The question crosses while
	 * what is before it is sent; the bytes go only if the answer is no.
	 */
	e->state = CE_WAIT;
	if (!nset_find(&c->asked, &e->name)) {
		struct nset_ent *t = nset_add(&c->to_ask, &e->name);

		if (t) {
			t->count = e->dlen;
			return;
		}
		/* No memory for the question: the bytes go. */
		pin = pin_room(c, e->dlen) ? pin_add(c, &e->name, e->dlen) : NULL;
		if (!pin) {
			e->state = CE_PLAIN;
			return;
		}
		pin->count++;
		e->state = CE_DATA;
	}
}

/* Decide, in queue order, every entry whose name is ready. */
static void settle(struct ccache *c)
{
	for (struct centry *e = c->head; e; e = e->next) {
		if (e->state != CE_HASH)
			continue;
		if (!hashpool_finished(&e->job))
			return;
		if (hashpool_job_error(&e->job))
			e->state = CE_PLAIN;
		else
			decide(c, e);
	}
}

/*
 * GLEAM_CACHE_NAME=auto: copies named only where it pays (worth_naming);
 * otherwise, the default, every upload is named however fast the link.
 */
static int name_always = -1;

/* What a sample of the hashing speed hashes, and how often one is taken. */
#define HASH_SAMPLE		(256U << 10)
#define HASH_SAMPLE_EVERY	256

/* One thread's hashing speed, from a sample of data hashed here. */
static void sample_hash(struct ccache *c, const void *data, uint32_t n)
{
	struct chunk_name scratch;
	uint64_t t0 = gl_now_ns(), ns;
	double bps;

	n = MIN(n, HASH_SAMPLE);
	if (chunk_hash(data, n, &scratch))
		return;
	ns = gl_now_ns() - t0;
	bps = (double)n * 1e9 / (double)(ns ? ns : 1);
	c->hash_bps = c->hash_bps ? 0.7 * c->hash_bps + 0.3 * bps : bps;
}

/*
 * Whether an upload's bytes are worth naming.  A copy named and missed
 * costs its hashing here and again at the server, one thread each, before
 * the worker may use it; sent as it is, it costs the link's time.  So a
 * copy is named while the link is slower than one thread hashes (a hit
 * then saves more than a miss costs) or not yet measured, and sent as it
 * is on a link that outruns hashing (loopback, a fast LAN on a machine with
 * few cores).  Module and library images are always named: the same ones
 * are loaded by every process, and hits are the rule.  Only with
 * GLEAM_CACHE_NAME=auto: a client that names its first copies measures
 * the link while the server hashes them, and while every later name hits
 * little crosses to measure it again, so the choice can stay with naming
 * (Documentation/cache.md).
 */
static bool worth_naming(struct bridge *b, struct ccache *c, const struct gleam_rec *h,
			 const unsigned char *data, uint32_t n)
{
	double link;

	if (name_always < 0) {
		const char *e = getenv("GLEAM_CACHE_NAME");

		name_always = !e || strcmp(e, "auto");
	}
	link = (b->linkp ? b->linkp : &b->link)->bps;
	if (name_always || (h->fn != GL_FN_cuMemcpyHtoD && h->fn != GL_FN_cuMemcpyHtoDAsync) ||
	    link <= 0)
		return true;
	if (!c->hash_bps || c->copies % HASH_SAMPLE_EVERY == 0)
		sample_hash(c, data, n);
	c->copies++;
	if (c->copies % 64 == 1)
		gl_dbg("cache: link %.2f GB/s, hashing %.2f GB/s: copies %s", link / 1e9,
		       c->hash_bps / 1e9, link < c->hash_bps ? "named" : "sent as they are");
	if (link < c->hash_bps)
		return true;
	c->st.raw++;
	return false;
}

/* Whether the record at p (len bytes) is an upload to be named. */
static bool to_name(struct bridge *b, struct ccache *c, const void *p, uint32_t len,
		    uint32_t *doffp)
{
	const struct gleam_rec *h = p;
	uint64_t dlen;
	uint32_t doff;

	if (!c->ready || !upload_shape(h, len, &doff, &dlen) || !region_ok(dlen, len - doff) ||
	    len - doff < c->threshold || len - doff > c->chunk_size)
		return false;
	*doffp = doff;
	return worth_naming(b, c, h, (const unsigned char *)p + doff, len - doff);
}

/* A record from the ring joins the queue; an upload's name is computed. */
/*
 * A record from the ring joins the queue, copied out of shared memory and
 * checked on the copy; an upload's name is computed.  0, -ENOMEM, or
 * -EINVAL for a malformed record (*h: its header).
 */
static int enqueue(struct bridge *b, struct ccache *c, const void *p, uint32_t len,
		   struct gleam_rec *h)
{
	struct centry *e = malloc(sizeof(*e) + len);
	uint32_t doff;

	if (!e)
		return -ENOMEM;
	memcpy(e->rec, p, len);
	memcpy(e->rec, &len, 4);
	memcpy(h, e->rec, sizeof(*h));
	if (!bridge_header_ok(NULL, h, len, true)) {
		free(e);
		return -EINVAL;
	}
	e->len = len;
	e->next = NULL;
	e->state = CE_PLAIN;
	if (to_name(b, c, e->rec, len, &doff)) {
		e->doff = doff;
		e->dlen = len - doff;
		if (!pool && hashpool_create(0, &pool))
			pool = NULL;
		if (pool && !hashpool_submit(pool, &e->job, e->rec + doff, e->dlen, c->chunk_size,
					     &e->name))
			e->state = CE_HASH;
		else if (!chunk_hash(e->rec + doff, e->dlen, &e->name))
			decide(c, e);
	}
	*c->tail = e;
	c->tail = &e->next;
	c->queued += len;
	return 0;
}

/* Room for a frame of payload n at the end of the output buffer. */
static unsigned char *out_frame(struct bridge *b, uint16_t type, uint32_t n)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = type, .len = n };
	unsigned char *p;

	if (b->olen + sizeof(f) + ALIGN8(n) > b->ocap)
		return NULL;
	p = b->obuf + b->olen;
	memcpy(p, &f, sizeof(f));
	b->olen += sizeof(f) + n;
	return p + sizeof(f);
}

/* The question for every name waiting to be asked about. */
static void ask(struct bridge *b)
{
	struct ccache *c = b->cc;
	struct gleam_cache_query q = { .flags = GLEAM_CACHE_Q_PIN };
	struct question *qn;
	unsigned char *p;
	uint32_t n = 0;

	if (c->nquestions >= QUESTIONS_MAX || !c->to_ask.n)
		return;
	q.count = (uint32_t)MIN(c->to_ask.n, c->query_max);
	qn = malloc(sizeof(*qn) + q.count * sizeof(qn->names[0]));
	if (!qn)
		return;
	p = out_frame(b, GLEAM_FRAME_CACHE_QUERY, (uint32_t)(sizeof(q) + q.count *
					 sizeof(struct gleam_cache_ref)));
	if (!p) {
		free(qn);
		return;
	}
	p += sizeof(q);
	for (size_t i = 0; i < c->to_ask.cap && n < q.count; i++) {
		struct nset_ent *e = &c->to_ask.e[i];
		struct gleam_cache_ref r = { 0 };

		if (!e->used)
			continue;
		memcpy(r.name, e->name.b, sizeof(r.name));
		r.length = e->count;
		memcpy(p + (size_t)n * sizeof(r), &r, sizeof(r));
		nset_add(&c->asked, &e->name);
		qn->names[n].name = e->name;
		qn->names[n].len = e->count;
		c->asked_bytes += e->count;
		n++;
	}
	/* The asked names leave the set to ask (deletion moves entries: look them up). */
	for (uint32_t i = 0; i < n; i++) {
		struct nset_ent *e = nset_find(&c->to_ask, &qn->names[i].name);

		if (e)
			nset_del(&c->to_ask, e);
	}
	qn->n = n;
	qn->id = q.id = ++c->query_id;
	qn->next = NULL;
	*c->qtail = qn;
	c->qtail = &qn->next;
	c->nquestions++;
	memcpy(p - sizeof(q), &q, sizeof(q));
	c->st.queries++;
	gl_dbg("cache: question %llu asks about %u names", (unsigned long long)q.id, n);
}

/*
 * Give back the pins no queued record needs: those whose count is still
 * zero (a record queued since may have taken one again).  The frame goes
 * after the records that named them, which the server has then read.
 */
static void send_release(struct bridge *b)
{
	struct ccache *c = b->cc;
	struct gleam_cache_release r = { 0 };
	uint32_t room = MIN(c->nrelease, (uint32_t)GLEAM_CACHE_RELEASE_MAX), n = 0, keep = 0;
	struct gleam_frame f;
	unsigned char *q;

	if (!c->nrelease)
		return;
	q = out_frame(b, GLEAM_FRAME_CACHE_RELEASE, (uint32_t)(sizeof(r) + room * CHUNK_NAME_LEN));
	/* No room: they wait for the next frame. */
	if (!q)
		return;
	for (uint32_t i = 0; i < c->nrelease; i++) {
		struct nset_ent *pin = nset_find(&c->pinned, &c->release[i]);

		if (!pin || pin->count)
			continue;
		/* Past one frame's worth: the rest go in the next. */
		if (n == room) {
			c->release[keep++] = c->release[i];
			continue;
		}
		memcpy(q + sizeof(r) + (size_t)n * CHUNK_NAME_LEN, c->release[i].b, CHUNK_NAME_LEN);
		n++;
		pin_del(c, pin);
	}
	c->nrelease = keep;
	/* The frame shrinks to what it holds, or goes when it holds nothing. */
	b->olen -= (size_t)(room - n) * CHUNK_NAME_LEN;
	if (!n) {
		b->olen -= sizeof(f) + sizeof(r);
		return;
	}
	r.count = n;
	memcpy(q, &r, sizeof(r));
	memcpy(&f, q - sizeof(f), sizeof(f));
	f.len = (uint32_t)(sizeof(r) + (size_t)n * CHUNK_NAME_LEN);
	memcpy(q - sizeof(f), &f, sizeof(f));
}

/* The record as it crosses: its bytes replaced by its name. */
static bool out_named(struct bridge *b, struct centry *e, size_t *rec_start)
{
	struct gleam_cache_refs refs = { .count = 1, .length = e->dlen };
	struct gleam_cache_ref r = { .length = e->dlen };
	uint32_t n = e->doff + (uint32_t)(sizeof(refs) + sizeof(r));
	struct gleam_rec h;

	if (b->olen + n > b->ocap)
		return false;
	memcpy(&h, e->rec, sizeof(h));
	h.len = n;
	h.flags |= GLEAM_REC_F_CACHED;
	memcpy(r.name, e->name.b, sizeof(r.name));
	memcpy(b->obuf + b->olen, &h, sizeof(h));
	memcpy(b->obuf + b->olen + sizeof(h), e->rec + sizeof(h), e->doff - sizeof(h));
	memcpy(b->obuf + b->olen + e->doff, &refs, sizeof(refs));
	memcpy(b->obuf + b->olen + e->doff + sizeof(refs), &r, sizeof(r));
	b->olen += n;
	(void)rec_start;
	return true;
}

/* Whether the proof being computed for e is there (it is then CE_PROOF, or PLAIN). */
static bool proof_ready(struct ccache *c, struct centry *e)
{
	if (!hashpool_finished(&e->job))
		return false;
	e->state = hashpool_job_error(&e->job) ? CE_PLAIN : CE_PROOF;
	(void)c;
	return true;
}

/*
 * The proof that the session holds e's bytes, before the record that names
 * them: the server lets the name be used from then on.
 */
static bool out_proof(struct bridge *b, struct centry *e)
{
	struct gleam_cache_prove h = { .count = 1 };
	struct gleam_cache_proof pr = { .ref = { .length = e->dlen } };
	struct nset_ent *pin = nset_find(&b->cc->pinned, &e->name);
	unsigned char *q = out_frame(b, GLEAM_FRAME_CACHE_PROVE, sizeof(h) + sizeof(pr));

	if (!q)
		return false;
	memcpy(pr.ref.name, e->name.b, sizeof(pr.ref.name));
	memcpy(pr.proof, e->proof.b, sizeof(pr.proof));
	memcpy(q, &h, sizeof(h));
	memcpy(q + sizeof(h), &pr, sizeof(pr));
	if (pin)
		pin->flags &= ~PIN_UNPROVEN;
	e->state = CE_NAMED;
	return true;
}

/* Close the records frame being filled, if any: its length goes in its header. */
static void close_records(struct bridge *b, size_t *start)
{
	struct gleam_frame f = { .magic = GLEAM_WIRE_MAGIC, .type = GLEAM_FRAME_RECORDS };

	if (*start == SIZE_MAX)
		return;
	/* Opened for nothing: it goes. */
	if (b->olen == *start + sizeof(f)) {
		b->olen = *start;
		*start = SIZE_MAX;
		return;
	}
	f.len = (uint32_t)(b->olen - *start - sizeof(f));
	memcpy(b->obuf + *start, &f, sizeof(f));
	*start = SIZE_MAX;
}

static bool open_records(struct bridge *b, size_t *start)
{
	if (*start != SIZE_MAX)
		return true;
	if (b->olen + sizeof(struct gleam_frame) + GLEAM_REC_MAX > b->ocap)
		return false;
	*start = b->olen;
	b->olen += sizeof(struct gleam_frame);
	return true;
}

void ccache_fill_out(struct bridge *b)
{
	struct ccache *c = b->cc;
	size_t start = SIZE_MAX;
	struct centry *e;
	uint32_t len, n = 0;
	const void *p;

	if (b->sending || b->closing || !b->hello_done || b->olen)
		return;
	/*
	 * Move what the ring holds into the queue, naming as it goes.  While
	 * the queue is empty, what is not to be named goes straight into the
	 * frame, as without the cache: one copy, checked there.
	 */
	while (c->queued < QUEUE_MAX &&
	       (p = gl_ring_peek(b->out_dir, sizeof(struct gleam_rec), GLEAM_REC_MAX, &len))) {
		struct gleam_rec h;
		uint32_t doff;
		int err = 0;

		if (!c->head && open_records(b, &start) && b->olen + len <= b->ocap) {
			unsigned char *q = b->obuf + b->olen;

			memcpy(q, p, len);
			memcpy(q, &len, 4);
			memcpy(&h, q, sizeof(h));
			if (!bridge_header_ok(NULL, &h, len, true))
				err = -EINVAL;
			else if (!to_name(b, c, q, len, &doff)) {
				uint32_t wire = b->pk ? bridge_pack_rec(b, q, len) : len;

				/* Kept as it went, where it lies; not kept, not taken. */
				if (!bridge_keep_out(b, q, wire))
					break;
				b->olen += wire;
				b->out_count++;
				n++;
			} else {
				err = enqueue(b, c, q, len, &h);
			}
		} else {
			err = enqueue(b, c, p, len, &h);
		}
		if (err == -EINVAL) {
			gl_err("session: malformed message from the ring (fn %u)", h.fn);
			b->out_dir->broken = true;
			break;
		}
		if (err)
			break;
		gl_ring_consume(b->out_dir, len);
		if (h.flags & GLEAM_REC_F_REPLY)
			b->st.waits++;
		b->st.payload += len - sizeof(struct gleam_rec);
	}
	if (b->out_dir->broken) {
		b->olen = 0;
		bridge_close(b);
		return;
	}
	/* Control frames go between records frames, never inside one. */
	close_records(b, &start);
	if (gl_ring_consume_publish(b->out_dir))
		bridge_ring_bell(b);
	settle(c);
	if (c->release_all) {
		struct gleam_cache_release r = { .count = 0 };
		unsigned char *q = out_frame(b, GLEAM_FRAME_CACHE_RELEASE, sizeof(r));

		if (q) {
			memcpy(q, &r, sizeof(r));
			c->release_all = false;
		}
	}
	ask(b);
	/* Send from the head of the queue while it is decided. */
	while ((e = c->head) && e->state != CE_WAIT && e->state != CE_HASH) {
		struct nset_ent *pin;

		if (e->state == CE_PROVE && !proof_ready(c, e))
			break;
		if (e->state == CE_PROOF) {
			close_records(b, &start);
			if (!out_proof(b, e))
				break;
		}
		if (e->state == CE_DATA) {
			struct gleam_cache_data d = { .ref = { .length = e->dlen } };
			unsigned char *q;

			close_records(b, &start);
			q = out_frame(b, GLEAM_FRAME_CACHE_DATA, (uint32_t)(sizeof(d) + e->dlen));
			if (!q)
				break;
			memcpy(d.ref.name, e->name.b, sizeof(d.ref.name));
			memcpy(q + sizeof(d), e->rec + e->doff, e->dlen);
			if (b->pk) {
				/* Packed in place: the frame shrinks to what it carries. */
				uint32_t pn = bridge_pack_region(b, q + sizeof(d), e->dlen);

				if (pn != e->dlen) {
					struct gleam_frame f;

					d.flags = GLEAM_CACHE_DATA_F_PACKED;
					memcpy(&f, q - sizeof(f), sizeof(f));
					f.len = (uint32_t)sizeof(d) + pn;
					memcpy(q - sizeof(f), &f, sizeof(f));
					b->olen -= e->dlen - pn;
				}
			}
			memcpy(q, &d, sizeof(d));
			c->st.bytes_sent += e->dlen;
			/* Its record follows as a name, and is no hit. */
			e->state = CE_SENT;
		}
		if (!open_records(b, &start))
			break;
		if (e->state == CE_NAMED || e->state == CE_SENT) {
			if (!out_named(b, e, &start))
				break;
			/* Kept with its bytes: sent again, it needs no pin. */
			if (!bridge_keep(b, e->rec, e->len)) {
				b->olen -= e->doff + sizeof(struct gleam_cache_refs) +
					   sizeof(struct gleam_cache_ref);
				break;
			}
			if (e->state == CE_NAMED) {
				c->st.hits++;
				c->st.bytes_saved += e->dlen;
			}
			if (b->ops && b->ops->on_held)
				b->ops->on_held(b, &e->name, e->dlen);
			pin = nset_find(&c->pinned, &e->name);
			/* No queued record needs it any more: the pin goes back. */
			if (pin && !--pin->count)
				release_add(c, &e->name);
		} else {
			unsigned char *q = b->obuf + b->olen;
			uint32_t wire;

			if (b->olen + e->len > b->ocap)
				break;
			memcpy(q, e->rec, e->len);
			wire = b->pk ? bridge_pack_rec(b, q, e->len) : e->len;
			if (!bridge_keep_out(b, q, wire))
				break;
			b->olen += wire;
		}
		b->out_count++;
		n++;
		c->head = e->next;
		if (!c->head)
			c->tail = &c->head;
		c->queued -= e->len;
		free(e);
	}
	close_records(b, &start);
	send_release(b);
	if (c->head && c->head->state == CE_WAIT)
		c->st.waits++;
	if (!b->olen)
		return;
	b->last_active = gl_now_ns();
	loop_note_busy();
	b->st.records += n;
	b->st.batches++;
	b->st.bytes_out += b->olen;
	bridge_send_out(b);
}

void ccache_resumed(struct bridge *b)
{
	struct ccache *c = b->cc;

	while (c->qhead) {
		struct question *q = c->qhead;

		c->qhead = q->next;
		free(q);
	}
	c->qtail = &c->qhead;
	c->nquestions = 0;
	c->asked_bytes = 0;
	nset_free(&c->asked);
	nset_free(&c->to_ask);
	pins_forget(c);
	c->nrelease = 0;
	c->release_all = true;
	/*
	 * What was named waits for a new answer; bytes about to go still go,
	 * and so do bytes that went on the lost connection ahead of a record
	 * that had not (SENT: the record did not fit the same buffer): their
	 * pin went with that connection.
	 */
	for (struct centry *e = c->head; e; e = e->next) {
		struct nset_ent *t;

		if (e->state == CE_DATA || e->state == CE_SENT) {
			e->state = CE_DATA;
			t = pin_add(c, &e->name, e->dlen);
			if (t)
				t->count++;
			else
				e->state = CE_PLAIN;
			continue;
		}
		/* A proof goes with its connection's pin: the name is asked about again. */
		if (e->state == CE_PROVE)
			hashpool_cancel(pool, &e->job);
		if (e->state != CE_NAMED && e->state != CE_WAIT && e->state != CE_PROVE &&
		    e->state != CE_PROOF)
			continue;
		e->state = CE_WAIT;
		t = nset_add(&c->to_ask, &e->name);
		if (t)
			t->count = e->dlen;
		else
			e->state = CE_PLAIN;
	}
}

/* A waiting entry learns the answer: held (to be proven, maybe) or not. */
static bool answered(struct ccache *c, struct centry *e, bool held, bool prove)
{
	struct nset_ent *pin = nset_find(&c->pinned, &e->name);

	if (pin) {
		e->state = CE_NAMED;
		pin->count++;
		return true;
	}
	/* Not held, and no room to pin its bytes: they go in the record. */
	if (!held && !pin_room(c, e->dlen)) {
		e->state = CE_PLAIN;
		return true;
	}
	pin = pin_add(c, &e->name, e->dlen);
	if (!pin)
		return false;
	pin->count = 1;
	if (!held) {
		e->state = CE_DATA;
		return true;
	}
	if (prove) {
		/* Its first record proves it; the others name it after. */
		pin->flags |= PIN_UNPROVEN;
		start_proof(c, e);
		return true;
	}
	e->state = CE_NAMED;
	return true;
}

bool ccache_have(struct bridge *b, const void *p, uint32_t len)
{
	struct ccache *c = b->cc;
	struct gleam_cache_have h;
	struct question *qn = c ? c->qhead : NULL;
	const uint64_t *bits, *pbits;
	struct nset held = { 0 }, in_q = { 0 }, prove = { 0 };
	struct centry *e;
	size_t words;
	bool ok = false;

	if (!qn || len < sizeof(h))
		return false;
	memcpy(&h, p, sizeof(h));
	words = (h.count + 63) / 64;
	/* Answers come in the order the questions went. */
	if (h.id != qn->id || h.reserved || h.count != qn->n || (!c->prove && h.prove) ||
	    len != sizeof(h) + words * 8 * (c->prove ? 2 : 1)) {
		gl_err("server: a malformed answer to question %llu (count %u of %u, %u bytes)",
		       (unsigned long long)h.id, h.count, qn->n, len);
		return false;
	}
	bits = (const uint64_t *)((const unsigned char *)p + sizeof(h));
	pbits = bits + words;
	/* What the server pinned of them is now known: it counts as pinned below. */
	for (uint32_t i = 0; i < qn->n; i++)
		c->asked_bytes -= qn->names[i].len;
	for (uint32_t i = 0; i < qn->n; i++) {
		bool is_held = bits[i / 64] >> (i % 64) & 1;

		if (!nset_add(&in_q, &qn->names[i].name))
			goto out;
		if (is_held && !nset_add(&held, &qn->names[i].name))
			goto out;
		if (is_held && c->prove && (pbits[i / 64] >> (i % 64) & 1) &&
		    !nset_add(&prove, &qn->names[i].name))
			goto out;
	}
	/* Every waiting record decides: named if held; else the first sends the bytes. */
	for (e = c->head; e; e = e->next) {
		if (e->state != CE_WAIT || !nset_find(&in_q, &e->name))
			continue;
		if (!answered(c, e, nset_find(&held, &e->name), nset_find(&prove, &e->name)))
			goto out;
	}
	/* Names pinned by the answer that no record needs any more go back. */
	for (uint32_t i = 0; i < qn->n; i++) {
		struct nset_ent *pin;

		if (!nset_find(&held, &qn->names[i].name) || nset_find(&c->pinned, &qn->names[i].name))
			continue;
		pin = pin_add(c, &qn->names[i].name, qn->names[i].len);
		if (pin)
			release_add(c, &qn->names[i].name);
	}
	/* The question's names are no longer on the wire. */
	for (uint32_t i = 0; i < qn->n; i++) {
		struct nset_ent *a = nset_find(&c->asked, &qn->names[i].name);

		if (a)
			nset_del(&c->asked, a);
	}
	c->qhead = qn->next;
	if (!c->qhead)
		c->qtail = &c->qhead;
	c->nquestions--;
	free(qn);
	ok = true;
out:
	nset_free(&held);
	nset_free(&in_q);
	nset_free(&prove);
	/* The bridge moves on once it has read the frame (not here: it is reading). */
	return ok;
}

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

void scache_reap(void (*liar)(uint64_t serial))
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
		liar(l[i]);
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
