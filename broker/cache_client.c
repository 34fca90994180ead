// SPDX-License-Identifier: MIT
/*
 * Uploads by content, the client's part (Documentation/cache.md): records
 * move from the application's ring into the session's queue, in order.  A
 * copy to the device of at least the server's threshold is named by the
 * SHA-256 of its bytes.  A name the session has pinned at the server goes
 * out as the record's payload; a name the server is believed to hold is
 * first asked about (one question for all such names in the queue); any
 * other goes out as a CACHE_DATA frame just before its record, which pins
 * it.  Records leave the queue in order, a name once no queued record
 * still needs it is released.
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

/* ---- client role ---- */

/*
 * PLAIN: sent as it is.  HASH: its name is being computed.  WAIT: its name
 * was asked about.  DATA: its bytes go first.  SENT: they went.  NAMED:
 * the session has its name pinned.  PROVE: the server holds it, another
 * tenant's, and the proof that the session holds it too is being computed.
 * PROOF: the proof goes first, then the record as NAMED.
 */
enum { CE_PLAIN, CE_HASH, CE_WAIT, CE_DATA, CE_SENT, CE_NAMED, CE_PROVE, CE_PROOF };

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
	uint64_t answer_bytes;		/* held by an answer being read, not yet counted as pinned */
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
	return !c->pin_max ||
	       c->pinned_bytes + c->asked_bytes + c->answer_bytes + len <= c->pin_max;
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

static bool worth_naming(struct bridge *b, struct ccache *c, const struct gleam_rec *h,
			 const unsigned char *data, uint32_t n);

/*
 * Whether the record at p (len bytes, in the ring) may go as it would
 * without the cache: nothing is queued before it, no pins wait to be given
 * back, and it is not one to name.  The bridge then sends it, and those
 * after it that pass too, as it sends without a cache (large ones from
 * the ring, on stripes); the first that does not pass waits for
 * ccache_fill_out.  The header and arguments are read from a copy, as
 * the bridge reads them; the answer only routes the record, which is
 * checked again on the bridge's own copy either way.
 */
bool ccache_passes(struct bridge *b, const void *p, uint32_t len)
{
	unsigned char head[256];
	const struct gleam_rec *h = (const void *)head;
	struct ccache *c = b->cc;
	uint32_t doff, n = MIN(len, (uint32_t)sizeof(head));
	uint64_t dlen;

	if (c->head || c->release_all || c->nrelease)
		return false;
	/* Most records (launches, small copies) are too short to name: no copy of them. */
	if (!c->ready || len < sizeof(*h) + c->threshold)
		return true;
	memcpy(head, p, n);
	memcpy(head, &len, 4);
	if (!bridge_header_ok(NULL, h, len, true) || !upload_shape(h, len, &doff, &dlen) ||
	    doff > n || !region_ok(dlen, len - doff) || len - doff < c->threshold ||
	    len - doff > c->chunk_size)
		return true;
	return !worth_naming(b, c, h, (const unsigned char *)p + doff, len - doff);
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
 * GLEAM_CACHE_NAME=always: every upload is named however fast the link;
 * otherwise (auto, the default) copies are named only where it pays
 * (worth_naming).
 */
static int name_always = -1;

/* Plain samples of the link taken before copies may be named. */
#define PLAIN_SAMPLES_MIN	4
/* Copies named, in bytes, before the link is measured again. */
#define NAMED_REMEASURE		(1ULL << 30)

/* What a sample of the hashing speed hashes, and how often one is taken. */
#define HASH_SAMPLE		(256U << 10)
#define HASH_SAMPLE_EVERY	256

/*
 * One thread's hashing speed (SHA-256), the machine's: measured once for
 * the daemon and again every HASH_SAMPLE_EVERY copies of any session, not
 * in each session (a first sample in a fresh process ran at a tenth of the
 * speed, and took 2 ms of a 16 MiB copy's 8 on the 2-core VM).  The first
 * hash of a process sets the hasher up: a small one goes before the
 * first sample, untimed.
 */
static double hash_bps;
static uint64_t hash_copies;

static void sample_hash(const void *data, uint32_t n)
{
	struct chunk_name scratch;
	uint64_t t0, ns;
	double bps;

	n = MIN(n, HASH_SAMPLE);
	if (!hash_bps && chunk_hash(data, MIN(n, 4096u), &scratch))
		return;
	t0 = gl_now_ns();
	if (chunk_hash(data, n, &scratch))
		return;
	ns = gl_now_ns() - t0;
	bps = (double)n * 1e9 / (double)(ns ? ns : 1);
	hash_bps = hash_bps ? 0.7 * hash_bps + 0.3 * bps : bps;
}

/*
 * Whether an upload's bytes are worth naming.  A copy named and missed
 * costs its hashing here and again at the server, one thread each, before
 * the worker may use it; sent as it is, it costs the link's time.  So a
 * copy is named while the link is slower than one thread hashes (a hit
 * then saves more than a miss costs), and sent as it is on a link that
 * outruns hashing (loopback, a fast LAN on a machine with few cores).  The
 * link is the one measured while nothing named crossed (pack.h): a named
 * upload waits for the server's answer and hashing, so that a link
 * measured while naming looks as slow as naming is, and naming would
 * never stop.  Until it is measured, copies go as they are: the first
 * PLAIN_SAMPLES_MIN samples (a MiB or more each) measure it.  One is not
 * enough: the kernel counts busy time in ticks, and a first sample that
 * straddles one reads loopback at 1 GB/s; naming from then on, no plain
 * sample would come to correct it.  For the same reason, after every GiB
 * of copies named (NAMED_REMEASURE) the link is measured again: on a slow
 * link that sends a few MiB as they are, 0.4% of what was named; on a fast
 * one that looked slow for a while (loopback on a busy machine), naming
 * stops within seconds.  A copy is named only where the link is at most
 * half as fast as one thread hashes: a hit saves the link's time for the
 * hashing's, a miss costs the hashing twice on top, so that near the
 * even point naming pays only if nearly every name hits.  Module and
 * library images are always named: the same ones are loaded by every
 * process, and hits are the rule.
 */
static bool worth_naming(struct bridge *b, struct ccache *c, const struct gleam_rec *h,
			 const unsigned char *data, uint32_t n)
{
	struct pack_link *lk = b->linkp ? b->linkp : &b->link;
	const struct pack_link_est *l = &lk->plain;
	double link = l->bps;

	if (name_always < 0) {
		const char *e = getenv("GLEAM_CACHE_NAME");

		name_always = e && !strcmp(e, "always");
	}
	if (name_always || (h->fn != GL_FN_cuMemcpyHtoD && h->fn != GL_FN_cuMemcpyHtoDAsync))
		return true;
	if (l->n < PLAIN_SAMPLES_MIN || link <= 0) {
		c->st.raw++;
		return false;
	}
	if (!hash_bps || hash_copies++ % HASH_SAMPLE_EVERY == HASH_SAMPLE_EVERY - 1)
		sample_hash(data, n);
	c->copies++;
	if (c->copies % 64 == 1)
		gl_dbg("cache: link %.2f GB/s, hashing %.2f GB/s: copies %s", link / 1e9,
		       hash_bps / 1e9, 2 * link <= hash_bps ? "named" : "sent as they are");
	if (2 * link <= hash_bps) {
		lk->named += n;
		if (lk->named >= NAMED_REMEASURE) {
			gl_dbg("cache: %llu MiB named since the link was measured: measuring it again",
			       (unsigned long long)(lk->named >> 20));
			pack_link_forget_plain(lk);
		}
		return true;
	}
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

/*
 * Which names of the set to ask go in the next question: in the set's
 * order, each that still fits the room the pins leave.  The server pins
 * what it holds of a question as it reads it, so a name asked counts
 * against the room from then on, and the bytes of a record that must
 * send its own, already counted as pinned here, always find room there.
 */
static bool ask_fits(const struct ccache *c, const struct nset_ent *e, uint64_t used,
		     uint64_t *sum)
{
	if (!e->used)
		return false;
	if (c->pin_max && (used > c->pin_max || *sum + e->count > c->pin_max - used))
		return false;
	*sum += e->count;
	return true;
}

/*
 * Nothing fits and nothing is asked: the pins are all held by records
 * queued behind the first that waits, which cannot go before it.  That
 * one sends its bytes in the record instead, so that the queue moves.
 */
static void ask_none(struct ccache *c)
{
	for (struct centry *e = c->head; e; e = e->next) {
		if (e->state == CE_WAIT && nset_find(&c->to_ask, &e->name)) {
			e->state = CE_PLAIN;
			return;
		}
	}
}

/* The question for every name waiting to be asked about that fits. */
static void ask(struct bridge *b)
{
	struct ccache *c = b->cc;
	struct gleam_cache_query q = { .flags = GLEAM_CACHE_Q_PIN };
	struct question *qn;
	unsigned char *p;
	uint32_t n = 0, want = 0;
	uint64_t used = c->pinned_bytes + c->asked_bytes, sum = 0;

	if (c->nquestions >= QUESTIONS_MAX || !c->to_ask.n)
		return;
	for (size_t i = 0; i < c->to_ask.cap && want < MIN(c->to_ask.n, c->query_max); i++)
		if (ask_fits(c, &c->to_ask.e[i], used, &sum))
			want++;
	if (!want) {
		if (!c->nquestions)
			ask_none(c);
		return;
	}
	q.count = want;
	sum = 0;
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

		/* The same choice as above, against the room before this question. */
		if (!ask_fits(c, e, used, &sum))
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

/*
 * Move what the ring holds into the queue, naming as it goes; *n counts
 * the records that went straight into the frame.  False when the ring
 * broke and the session ended.
 */
static bool take_ring(struct bridge *b, struct ccache *c, size_t *start, uint32_t *n)
{
	uint32_t len;
	const void *p;

	/*
	 * While the queue is empty, what is not to be named goes straight into
	 * the frame, as without the cache: one copy, checked there.
	 */
	while (c->queued < QUEUE_MAX &&
	       (p = gl_ring_peek(b->out_dir, sizeof(struct gleam_rec), GLEAM_REC_MAX, &len))) {
		struct gleam_rec h;
		uint32_t doff;
		int err = 0;

		if (!c->head && open_records(b, start) && b->olen + len <= b->ocap) {
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
				(*n)++;
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
		return false;
	}
	return true;
}

/* A chunk's bytes as CACHE_DATA, packed where that pays; false without room. */
static bool out_data(struct bridge *b, struct ccache *c, struct centry *e, size_t *start)
{
	struct gleam_cache_data d = { .ref = { .length = e->dlen } };
	unsigned char *q;

	close_records(b, start);
	q = out_frame(b, GLEAM_FRAME_CACHE_DATA, (uint32_t)(sizeof(d) + e->dlen));
	if (!q)
		return false;
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
	return true;
}

/* Send from the head of the queue while it is decided; *n counts the records. */
static void send_queue(struct bridge *b, struct ccache *c, size_t *start, uint32_t *n)
{
	struct centry *e;

	while ((e = c->head) && e->state != CE_WAIT && e->state != CE_HASH) {
		struct nset_ent *pin;

		if (e->state == CE_PROVE && !proof_ready(c, e))
			break;
		if (e->state == CE_PROOF) {
			close_records(b, start);
			if (!out_proof(b, e))
				break;
		}
		if (e->state == CE_DATA && !out_data(b, c, e, start))
			break;
		if (!open_records(b, start))
			break;
		if (e->state == CE_NAMED || e->state == CE_SENT) {
			if (!out_named(b, e, start))
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
		(*n)++;
		c->head = e->next;
		if (!c->head)
			c->tail = &c->head;
		c->queued -= e->len;
		free(e);
	}
}

void ccache_fill_out(struct bridge *b)
{
	struct ccache *c = b->cc;
	size_t start = SIZE_MAX;
	uint32_t n = 0;

	if (b->sending || b->closing || !b->hello_done || b->olen)
		return;
	if (!take_ring(b, c, &start, &n))
		return;
	/* Control frames go between records frames, never inside one. */
	close_records(b, &start);
	bridge_ring_release(b);
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
	send_queue(b, c, &start, &n);
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
	if (held)
		c->answer_bytes -= MIN(c->answer_bytes, (uint64_t)e->dlen);
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
	struct nset held = { 0 }, in_q = { 0 }, prove = { 0 }, counted = { 0 };
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
	/*
	 * The server pinned what it holds of the question as it read it: those
	 * bytes count against the room of a record that must send its own,
	 * whichever comes first in the queue.
	 */
	c->answer_bytes = 0;
	for (uint32_t i = 0; i < qn->n; i++) {
		if (!nset_find(&held, &qn->names[i].name) ||
		    nset_find(&c->pinned, &qn->names[i].name) ||
		    nset_find(&counted, &qn->names[i].name))
			continue;
		if (!nset_add(&counted, &qn->names[i].name))
			goto out;
		c->answer_bytes += qn->names[i].len;
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
	c->answer_bytes = 0;
	nset_free(&held);
	nset_free(&in_q);
	nset_free(&prove);
	nset_free(&counted);
	/* The bridge moves on once it has read the frame (not here: it is reading). */
	return ok;
}
