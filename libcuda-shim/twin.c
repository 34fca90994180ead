// SPDX-License-Identifier: MIT
/*
 * Mapped page-locked memory and managed memory: twins (Documentation/
 * design.md, "Virtual memory, peers, mapped and managed memory").
 *
 * A kernel on the server cannot reach this process's pages.  So each
 * such allocation gets device memory of the session's own, mapped through
 * the virtual memory functions at the address the program holds: the
 * shim's pages and the server's mapping sit at the same address (the shim
 * asks the server for its own address and, failing that, moves its pages
 * to the server's), so that the pointer means the same on both machines.
 * A registered range's pages are the program's and cannot move: its
 * device address is the server's when the server cannot place it there.
 *
 * The two copies are kept in step at the points where CUDA lets each side
 * see the other's writes.  Before a launch, a graph launch or any record
 * that touches a twin's range (a copy, a fill), the pages this process
 * changed since the copies last agreed go up, on the stream of the work
 * that may read them; after a synchronisation, a query that finds the
 * work done, or a copy to the host that waited, the pages the GPU changed
 * come back.  Both sides keep a hash of each 4 KiB page as it was when the
 * two agreed (common/pagehash.h): the shim finds what the process changed
 * by hashing its pages, the worker what the GPU changed by hashing the
 * device's, and only those pages cross the network.  A page both changed
 * between two synchronisations keeps the GPU's content, and that is said
 * once: CUDA allows it only for different bytes of mapped memory, which
 * Gleam cannot merge.
 *
 * The cost: hashing every twin's pages on this machine at each launch,
 * and on the server at each synchronisation after work (no round trip:
 * the pulls' answers follow the synchronisation's own); the bytes of the
 * pages that changed; one round trip to make a twin, none to free it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gleam_vmm.h"
#include "pagehash.h"
#include "shim.h"
#include "util.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

#define PAGE		GLEAM_TWIN_PAGE

/* What the program advised and prefetched, per page of managed memory. */
struct advice {
	int32_t pref_type, pref_id;	/* CUmemLocation of the preferred location; type 0: none */
	int32_t pf_type, pf_id;		/* the last prefetch's location; type 0: none */
	uint64_t accessed_by;		/* bit per device */
	uint8_t read_mostly;
};

struct twin {
	uint64_t host, dev, size;	/* the program's pages at host are device memory at dev */
	uint64_t map, map_size;		/* the server's mapping, whole granules */
	void *own;			/* the host pages are the shim's: its mapping, map_size long */
	unsigned int kind, flags;
	int devno;
	unsigned int refs;		/* the list's, and each pull's in flight */
	bool gone;
	uint64_t *synced;		/* per page: its hash when both copies last agreed */
	size_t npages;
	struct advice *adv;		/* managed memory, once advised or prefetched */
	struct twin *next;
};

_Atomic unsigned int shim_twins;
__thread bool shim_twin_touched;
/* The call touched a twin with a copy or fill that CUDA completes before it returns. */
static __thread bool pull_after;
/* htod() sends a copy in pieces: it pulls after the last one itself. */
static __thread bool in_pieces;
/* The record reads a twin and writes none (a copy from mapped memory). */
static __thread bool reading;

static void window_put(uint64_t at, uint64_t len);
static void window_forget(uint64_t at);

static struct {
	pthread_mutex_t lock;
	struct twin *list;
	uint64_t zero_hash;		/* of a page of zeros */
} tw = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t page_len(const struct twin *t, size_t i)
{
	return MIN((uint64_t)PAGE, t->size - (uint64_t)i * PAGE);
}

static uint64_t zero_hash(uint64_t len)
{
	static const unsigned char zeros[PAGE];

	if (len == PAGE) {
		if (!tw.zero_hash)
			tw.zero_hash = gl_page_hash(zeros, PAGE);
		return tw.zero_hash;
	}
	return gl_page_hash(zeros, (size_t)len);
}

/* Lock held. */
static void twin_put(struct twin *t)
{
	if (--t->refs)
		return;
	if (t->own)
		window_put((uintptr_t)t->own, t->map_size);
	free(t->synced);
	free(t->adv);
	free(t);
}

/* The twin holding p as a host or a device address; lock held. */
static struct twin *find(uint64_t p)
{
	for (struct twin *t = tw.list; t; t = t->next)
		if (p - t->host < t->size || p - t->dev < t->size)
			return t;
	return NULL;
}

bool shim_twin_find(uint64_t p, struct shim_twin_info *ti)
{
	struct twin *t;

	pthread_mutex_lock(&tw.lock);
	t = find(p);
	if (t)
		*ti = (struct shim_twin_info){ t->kind, t->host, t->dev, t->size, t->flags,
					       t->devno };
	pthread_mutex_unlock(&tw.lock);
	return t != NULL;
}

bool shim_twin_dev(const void *host, size_t n, uint64_t *dev)
{
	uint64_t p = (uintptr_t)host;
	bool in = false;

	pthread_mutex_lock(&tw.lock);
	for (struct twin *t = tw.list; t; t = t->next) {
		if (p - t->host < t->size && n <= t->size - (p - t->host)) {
			*dev = t->dev + (p - t->host);
			in = true;
			break;
		}
	}
	pthread_mutex_unlock(&tw.lock);
	return in;
}

/* A record of Gleam's own in context ctx, with data, sent without a reply. */
static void send_rec(unsigned int fn, uint64_t ctx, const void *args, size_t len,
		     const struct iovec *iov, int niov)
{
	struct shim_call c = { .fn = fn, .ctx = ctx, .args = args, .args_len = len, .iov = iov,
			       .niov = niov };

	shim_submit(&c, 0, 0);
}

static uint64_t cur_ctx_id(void)
{
	struct shim_ctx *c = shim_current();

	return c ? c->o.id : 0;
}

/* ---- making and freeing twins ---- */

/*
 * Windows: address space held on both machines at the same addresses,
 * which twins of the shim's own pages are cut from.  A driver gives
 * device addresses from a range of its own and may not take the address
 * asked for, and where it gives one this process may hold something
 * already (a library, a heap): so the shim asks for much at once, and
 * once.  Each try offers the server a range free here; where the server
 * gives another, that range is taken here if it is free, and otherwise
 * held on the server until the search ends, so that the next answer is
 * another range.  Here, the window's pages are PROT_NONE until a twin
 * takes them; on the server, a reservation mapped twin by twin.
 */
#define WINDOW_SIZE	(2ull << 30)
#define WINDOW_TRIES	16

struct extent {
	uint64_t off, len;
};

struct window {
	uint64_t base, size;
	struct extent *used;	/* sorted by off */
	size_t nused, cap;
	struct window *next;
};

static struct {
	pthread_mutex_t lock;	/* taken after tw.lock, never before it */
	struct window *list;
} win = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Address space here, size bytes at a multiple of align, no access; 0 when none is left. */
static uint64_t space_here(uint64_t size, uint64_t align)
{
	char *p = mmap(NULL, size + align, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t head;

	if (p == MAP_FAILED)
		return 0;
	head = (align - ((uintptr_t)p & (align - 1))) & (align - 1);
	if (head)
		munmap(p, head);
	munmap(p + head + size, align - head);
	return (uintptr_t)(p + head);
}

/* The same at exactly at, where nothing of this process is; false otherwise. */
static bool space_at(uint64_t at, uint64_t size)
{
	void *p = mmap((void *)(uintptr_t)at, size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return false;
	if ((uintptr_t)p != at) {
		/* A kernel without MAP_FIXED_NOREPLACE took it for a hint. */
		munmap(p, size);
		return false;
	}
	return true;
}

/* A new window of at least size bytes; win.lock held. */
static struct window *window_new(uint64_t size, uint64_t gran)
{
	uint64_t want = MAX(WINDOW_SIZE, (size + gran - 1) & ~(gran - 1));
	uint64_t held[WINDOW_TRIES], base = 0;
	unsigned int nheld = 0;
	struct window *w;

	for (int i = 0; i < WINDOW_TRIES && !base; i++) {
		uint64_t here = space_here(want, gran), there = 0;

		if (!here)
			break;
		if (shim_vmm_reserve_own(here, want, gran, &there) || !there) {
			munmap((void *)(uintptr_t)here, want);
			break;
		}
		if (there == here) {
			base = here;
			break;
		}
		munmap((void *)(uintptr_t)here, want);
		if (space_at(there, want))
			base = there;
		else
			held[nheld++] = there;
	}
	for (unsigned int i = 0; i < nheld; i++)
		shim_vmm_unreserve_own(held[i], want);
	if (!base)
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w) {
		shim_vmm_unreserve_own(base, want);
		munmap((void *)(uintptr_t)base, want);
		return NULL;
	}
	w->base = base;
	w->size = want;
	w->next = win.list;
	win.list = w;
	return w;
}

/* len bytes of w, first fit; false when none are free in a row. */
static bool window_take(struct window *w, uint64_t len, uint64_t *at)
{
	uint64_t prev = 0;

	for (size_t i = 0; i <= w->nused; i++) {
		uint64_t next = i < w->nused ? w->used[i].off : w->size;

		if (next - prev >= len) {
			if (w->nused == w->cap) {
				size_t cap = w->cap ? 2 * w->cap : 8;
				struct extent *u = realloc(w->used, cap * sizeof(*u));

				if (!u)
					return false;
				w->used = u;
				w->cap = cap;
			}
			memmove(&w->used[i + 1], &w->used[i], (w->nused - i) * sizeof(*w->used));
			w->used[i] = (struct extent){ prev, len };
			w->nused++;
			*at = w->base + prev;
			return true;
		}
		if (i < w->nused)
			prev = w->used[i].off + w->used[i].len;
	}
	return false;
}

/*
 * len bytes (whole granules) at the same address here and on the server:
 * readable and writable zeros here, address space there.
 */
static CUresult window_alloc(uint64_t len, uint64_t gran, uint64_t *at)
{
	struct window *w;
	bool got = false;

	pthread_mutex_lock(&win.lock);
	for (w = win.list; w && !got; w = w->next)
		got = window_take(w, len, at);
	if (!got) {
		w = window_new(len, gran);
		got = w && window_take(w, len, at);
	}
	pthread_mutex_unlock(&win.lock);
	if (!got) {
		static bool said;

		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			gl_err("mapped or managed memory: no address range was free both here and "
			       "on the server: returning CUDA_ERROR_OUT_OF_MEMORY");
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (mmap((void *)(uintptr_t)*at, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED) {
		window_forget(*at);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	return CUDA_SUCCESS;
}

/* The range at at is free again in its window. */
static void window_forget(uint64_t at)
{
	pthread_mutex_lock(&win.lock);
	for (struct window *w = win.list; w; w = w->next) {
		if (at - w->base >= w->size)
			continue;
		for (size_t i = 0; i < w->nused; i++) {
			if (w->used[i].off == at - w->base) {
				memmove(&w->used[i], &w->used[i + 1],
					(w->nused - i - 1) * sizeof(*w->used));
				w->nused--;
				break;
			}
		}
		break;
	}
	pthread_mutex_unlock(&win.lock);
}

/* The range at at goes back to its window: its pages here go, the address space stays. */
static void window_put(uint64_t at, uint64_t len)
{
	mmap((void *)(uintptr_t)at, len, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	window_forget(at);
}

/*
 * Device memory for t (host and size set).  Pages of the shim's own
 * (fixed false) are cut from a window, at the same address on both
 * machines; the program's registered pages cannot move, so their device
 * address is the server's where the server cannot place it at theirs.
 */
static CUresult place(struct twin *t, bool fixed, uint64_t gran)
{
	uint64_t head = fixed ? t->host & (gran - 1) : 0;
	uint64_t base = 0;
	CUresult r;

	if (t->size + head + gran < t->size)
		return CUDA_ERROR_OUT_OF_MEMORY;
	t->map_size = (t->size + head + gran - 1) & ~(gran - 1);
	if (fixed) {
		r = shim_vmm_own(t->host - head, t->map_size, t->devno, &base);
		if (r)
			return r;
	} else {
		struct shim_own o;

		/* Asked for first: a window's search, if it needs one, shares its wait. */
		r = shim_vmm_own_begin(t->map_size, t->devno, &o);
		if (r)
			return r;
		if (window_alloc(t->map_size, gran, &base))
			base = 0;
		r = shim_vmm_own_end(&o, base, t->map_size, t->devno);
		if (r) {
			if (base)
				window_put(base, t->map_size);
			return r;
		}
		t->host = base;
		t->own = (void *)(uintptr_t)base;
	}
	t->map = base;
	t->dev = base + head;
	return CUDA_SUCCESS;
}

/* A twin of kind over size bytes: at host, or at pages of the shim's own when host is 0. */
static CUresult twin_make(unsigned int kind, uint64_t host, uint64_t size, unsigned int flags,
			  struct twin **out)
{
	struct gl_a_gleamTwinSet a = { .op = GLEAM_TWIN_KEEP };
	struct shim_ctx *ctx;
	uint64_t gran = 0;
	struct twin *t;
	CUresult r = shim_require_ctx(&ctx);

	if (r)
		return r;
	if (!size)
		return CUDA_ERROR_INVALID_VALUE;
	if (size > GLEAM_TWIN_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (kind == SHIM_TWIN_MANAGED ?
	    shim.dev[ctx->dev].info.attr[CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY] != 1 :
	    shim.dev[ctx->dev].info.attr[CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY] != 1)
		return SHIM_REFUSE("mapped or managed memory needs the server's virtual memory "
				   "functions, which its device lacks: returning "
				   "CUDA_ERROR_NOT_SUPPORTED");
	r = shim_vmm_granularity(ctx->dev, &gran);
	if (r)
		return r;
	if (!gran || (gran & (gran - 1)) || gran % PAGE)
		return CUDA_ERROR_NOT_SUPPORTED;
	t = calloc(1, sizeof(*t));
	if (!t)
		return CUDA_ERROR_OUT_OF_MEMORY;
	t->kind = kind;
	t->flags = flags;
	t->devno = ctx->dev;
	t->host = host;
	t->size = size;
	t->npages = (size_t)((size + PAGE - 1) / PAGE);
	t->synced = malloc(t->npages * sizeof(*t->synced));
	if (!t->synced) {
		free(t);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* Both copies start as zeros: the device's is zeroed as the worker takes it in. */
	for (size_t i = 0; i < t->npages; i++)
		t->synced[i] = zero_hash(page_len(t, i));
	r = place(t, host != 0, gran);
	if (!r && shim_mem_range_add(t->dev, t->size, SHIM_RANGE_TWIN)) {
		shim_vmm_own_free(t->map, t->map_size, t->own != NULL);
		if (t->own)
			window_put((uintptr_t)t->own, t->map_size);
		r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r) {
		free(t->synced);
		free(t);
		return r;
	}
	a.base = t->dev;
	a.size = t->size;
	send_rec(GL_FN_gleamTwinSet, ctx->o.id, &a, sizeof(a), NULL, 0);
	t->refs = 1;
	pthread_mutex_lock(&tw.lock);
	t->next = tw.list;
	tw.list = t;
	pthread_mutex_unlock(&tw.lock);
	atomic_fetch_add(&shim_twins, 1);
	*out = t;
	return CUDA_SUCCESS;
}

CUresult shim_twin_new(unsigned int kind, size_t size, unsigned int flags, void **host)
{
	struct twin *t;
	CUresult r = twin_make(kind, 0, size, flags, &t);

	if (!r)
		*host = (void *)(uintptr_t)t->host;
	return r;
}

CUresult shim_twin_over(unsigned int kind, void *host, size_t size, unsigned int flags,
			uint64_t *dev)
{
	struct twin *t;
	CUresult r;

	if (!host)
		return CUDA_ERROR_INVALID_VALUE;
	r = twin_make(kind, (uintptr_t)host, size, flags, &t);
	if (!r && dev)
		*dev = t->dev;
	return r;
}

/*
 * The worker forgets the twin and the server's mapping goes, without a
 * wait.  Pages of the shim's own go when no pull still writes to them.
 */
bool shim_twin_free(unsigned int kind, uint64_t p)
{
	struct gl_a_gleamTwinSet a = { .op = GLEAM_TWIN_FORGET };
	struct twin **pp, *t = NULL;

	pthread_mutex_lock(&tw.lock);
	for (pp = &tw.list; *pp; pp = &(*pp)->next) {
		if ((*pp)->kind == kind &&
		    (kind == SHIM_TWIN_MANAGED ? (*pp)->dev : (*pp)->host) == p) {
			t = *pp;
			*pp = t->next;
			t->gone = true;
			break;
		}
	}
	pthread_mutex_unlock(&tw.lock);
	if (!t)
		return false;
	atomic_fetch_sub(&shim_twins, 1);
	shim_mem_range_del(t->dev);
	a.base = t->dev;
	a.size = t->size;
	send_rec(GL_FN_gleamTwinSet, cur_ctx_id(), &a, sizeof(a), NULL, 0);
	shim_vmm_own_free(t->map, t->map_size, t->own != NULL);
	pthread_mutex_lock(&tw.lock);
	twin_put(t);
	pthread_mutex_unlock(&tw.lock);
	return true;
}

/* ---- pushes: this process's writes go up ---- */

struct run {
	struct twin *t;
	uint64_t off, len;
};

struct runs {
	struct run *r;
	size_t n, cap;
};

static int runs_add(struct runs *rs, struct twin *t, uint64_t off, uint64_t len)
{
	if (rs->n && rs->r[rs->n - 1].t == t && rs->r[rs->n - 1].off + rs->r[rs->n - 1].len == off) {
		rs->r[rs->n - 1].len += len;
		return 0;
	}
	if (gl_grow((void **)&rs->r, rs->n, &rs->cap, sizeof(*rs->r), 16))
		return -1;
	rs->r[rs->n++] = (struct run){ t, off, len };
	return 0;
}

/*
 * The pages of t in [first, last) that this process changed, as runs;
 * their hashes are then what the device is about to have.  A run that
 * cannot be kept leaves its pages to the next push.  Lock held.
 */
static void changed_pages(struct twin *t, size_t first, size_t last, struct runs *rs)
{
	bool any = false;

	for (size_t i = first; i < last; i++) {
		uint64_t len = page_len(t, i);
		uint64_t h = gl_page_hash((const void *)(uintptr_t)(t->host + i * PAGE), (size_t)len);

		if (h == t->synced[i] || runs_add(rs, t, (uint64_t)i * PAGE, len))
			continue;
		t->synced[i] = h;
		any = true;
	}
	if (any)
		t->refs++;
}

/* The runs' pages, in records of at most a piece each; the last one carries flags. */
static void send_runs(struct runs *rs, uint64_t ctx, uint64_t stream, unsigned int flags)
{
	size_t piece = shim_piece_max() & ~(size_t)(PAGE - 1);

	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->r[i];

		for (uint64_t off = 0; off < r->len; off += piece) {
			uint64_t k = MIN((uint64_t)piece, r->len - off);
			struct gl_a_gleamTwinPush a = { .base = r->t->dev, .offset = r->off + off,
							.len = k, .hStream = stream };
			struct iovec iov = { (void *)(uintptr_t)(r->t->host + r->off + off),
					     (size_t)k };

			if (i + 1 == rs->n && off + k == r->len)
				a.flags = flags;
			send_rec(GL_FN_gleamTwinPush, ctx, &a, sizeof(a), &iov, 1);
		}
	}
}

static void runs_done(struct runs *rs)
{
	pthread_mutex_lock(&tw.lock);
	for (size_t i = 0; i < rs->n; i++)
		if (!i || rs->r[i].t != rs->r[i - 1].t)
			twin_put(rs->r[i].t);
	pthread_mutex_unlock(&tw.lock);
	free(rs->r);
}

/*
 * Every twin's changed pages, on stream (an id; the records' work may
 * read any of them).  The hashing is under the lock; the sending is not,
 * since it may wait for ring space that only the thread draining replies
 * (and its pulls, which take the lock) can free.
 */
static void push_all(uint64_t ctx, uint64_t stream, unsigned int flags)
{
	struct runs rs = { 0 };

	pthread_mutex_lock(&tw.lock);
	for (struct twin *t = tw.list; t; t = t->next)
		changed_pages(t, 0, t->npages, &rs);
	pthread_mutex_unlock(&tw.lock);
	send_runs(&rs, ctx, stream, flags);
	runs_done(&rs);
}

/* ---- pulls: the GPU's writes come back ---- */

/*
 * A DATA piece of a pull: pages of the twin at off, as the device has
 * them.  A page this process changed too keeps the GPU's content, which
 * is said once.  Anything but whole pages inside the twin is a reply the
 * worker could not have sent.
 */
static int pull_sink(void *arg, uint64_t off, const void *p, uint64_t len)
{
	struct twin *t = arg;
	unsigned int both = 0;

	if (off % PAGE || off > t->size || len > t->size - off ||
	    (len % PAGE && off + len != t->size))
		return -1;
	pthread_mutex_lock(&tw.lock);
	for (uint64_t at = 0; !t->gone && at < len; at += PAGE) {
		size_t i = (size_t)((off + at) / PAGE);
		uint64_t n = page_len(t, i);
		void *host = (void *)(uintptr_t)(t->host + off + at);

		if (gl_page_hash(host, (size_t)n) != t->synced[i])
			both++;
		memcpy(host, (const char *)p + at, (size_t)n);
		t->synced[i] = gl_page_hash(host, (size_t)n);
	}
	pthread_mutex_unlock(&tw.lock);
	if (both) {
		static bool said;

		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			gl_err("mapped or managed memory: this process and the GPU both wrote the "
			       "same 4 KiB page between two synchronisations; the GPU's writes "
			       "were kept (Gleam keeps the two in step at synchronisations)");
	}
	return 0;
}

struct shim_twin_pull {
	uint64_t seq;		/* the context's twin_seq when it was sent */
	bool all;		/* the call covers all the context's work */
	size_t n;
	struct {
		struct twin *t;
		struct shim_pending *p;
		struct gl_r_gleamTwinPull o;
	} e[];
};

/* Whether the GPU can write t's pages: not a range registered read-only. */
static bool writable(const struct twin *t)
{
	return !(t->kind == SHIM_TWIN_REGISTERED && (t->flags & CU_MEMHOSTREGISTER_READ_ONLY));
}

/* A pull of every twin, in context ctx, its answers taken in whenever they come. */
static struct shim_twin_pull *pull_send(uint64_t ctx)
{
	struct shim_twin_pull *p;
	size_t n = 0;

	pthread_mutex_lock(&tw.lock);
	for (struct twin *t = tw.list; t; t = t->next)
		n += writable(t);
	p = calloc(1, sizeof(*p) + n * sizeof(p->e[0]));
	for (struct twin *t = tw.list; p && t; t = t->next) {
		if (!writable(t))
			continue;
		t->refs++;
		p->e[p->n++].t = t;
	}
	pthread_mutex_unlock(&tw.lock);
	for (size_t i = 0; p && i < p->n; i++) {
		struct gl_a_gleamTwinPull a = { .base = p->e[i].t->dev, .size = p->e[i].t->size };
		struct shim_call c = { .fn = GL_FN_gleamTwinPull, .ctx = ctx, .args = &a,
				       .args_len = sizeof(a), .out = &p->e[i].o,
				       .out_len = sizeof(p->e[i].o), .sink = pull_sink,
				       .sink_arg = p->e[i].t };

		p->e[i].p = shim_defer(&c);
	}
	return p;
}

static void pull_wait(struct shim_twin_pull *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].p)
			shim_pending_take(p->e[i].p);
	pthread_mutex_lock(&tw.lock);
	for (size_t i = 0; i < p->n; i++)
		twin_put(p->e[i].t);
	pthread_mutex_unlock(&tw.lock);
}

/* ---- where shim_call() meets the twins ---- */

static bool is_launch(unsigned int fn)
{
	return fn == GL_FN_cuLaunchKernel || fn == GL_FN_cuLaunchKernelEx ||
	       fn == GL_FN_cuGraphLaunch;
}

/* Whether the host may read what the GPU wrote once c has been answered. */
static bool sync_point(const struct shim_call *c)
{
	unsigned int t = gl_fn_traits(c->fn);

	if (t & (GL_T_WAIT_STREAM | GL_T_WAIT_CTX | GL_T_WAIT_EVENT))
		return true;
	/* A copy to the host that CUDA completes before it returns. */
	return c->covers && !c->host_pinned;
}

static bool is_query(const struct shim_call *c)
{
	return gl_fn_traits(c->fn) & (GL_T_QUERY_STREAM | GL_T_QUERY_EVENT);
}

/*
 * Whether c, answered, covers all the work of its context that may have
 * written a twin: a synchronisation of the context, or of the stream that
 * holds all of it (the context's account of its work: transport.c).
 */
static bool covers_all(const struct shim_call *c, struct shim_ctx *ctx, uint64_t stream)
{
	uint64_t risky = atomic_load(&ctx->risky);

	if (gl_fn_traits(c->fn) & GL_T_WAIT_CTX)
		return true;
	if (gl_fn_traits(c->fn) & GL_T_WAIT_EVENT)
		return risky == SHIM_RISKY_NONE;
	return risky == SHIM_RISKY_NONE || (stream && risky == SHIM_RISKY_STREAM(stream - 1));
}

static struct shim_ctx *ctx_of(const struct shim_call *c)
{
	struct shim_ctx *ctx = shim_current();

	return ctx && ctx->o.id == c->ctx ? ctx : NULL;
}

bool shim_twin_owed(void)
{
	struct shim_ctx *ctx = shim_current();

	return ctx && atomic_load(&shim_twins) &&
	       atomic_load(&ctx->twin_seq) != atomic_load(&ctx->twin_pulled);
}

/*
 * Before c goes out: a launch may read any twin, a record that touches one
 * reads or writes it; what this process wrote goes first, in order on the
 * record's stream.  A record whose stream is not known (the synchronous
 * forms) gets its pages on the worker's own stream, synchronised there.
 * Work put on a capturing stream does not run now: a graph launch pushes.
 */
void shim_twin_before(struct shim_call *c)
{
	bool touched = shim_twin_touched, launch = is_launch(c->fn);
	struct shim_ctx *ctx = ctx_of(c);
	uint64_t stream = shim_call_stream;

	shim_twin_touched = false;
	pull_after = false;
	if ((!launch && !touched) || c->captured || !ctx)
		return;
	push_all(c->ctx, stream ? stream - 1 : 0, stream ? 0 : GLEAM_TWIN_PUSH_SYNC);
	/* What the record may write comes back at the next synchronisation. */
	if (launch || !reading)
		atomic_fetch_add(&ctx->twin_seq, 1);
	pull_after = touched && (gl_fn_traits(c->fn) & GL_T_LEGACY) && !in_pieces && !reading;
}

/*
 * After a call that waits went out: if the host may read the GPU's writes
 * once it is answered, the pulls go right behind it, and their answers
 * follow its own, with no wait of their own.
 */
struct shim_twin_pull *shim_twin_pull_send(struct shim_call *c)
{
	struct shim_ctx *ctx = ctx_of(c);
	struct shim_twin_pull *p;
	uint64_t seq;

	if (!ctx || (!pull_after && !sync_point(c)))
		return NULL;
	seq = atomic_load(&ctx->twin_seq);
	if (!pull_after && seq == atomic_load(&ctx->twin_pulled))
		return NULL;
	p = pull_send(c->ctx);
	if (p) {
		p->seq = seq;
		p->all = covers_all(c, ctx, c->covers ? c->covers : shim_call_stream);
	}
	return p;
}

/* A pull now, waited for: the call that needs it has been answered already. */
static void pull_now(struct shim_call *c, struct shim_ctx *ctx, bool all)
{
	uint64_t seq = atomic_load(&ctx->twin_seq);
	struct shim_twin_pull *p = pull_send(c->ctx);

	if (!p)
		return;
	shim_waits_made();
	if (shim_trace_waits)
		gl_err("waits: gleamTwinPull, the GPU's writes to mapped or managed memory after %s",
		       c->fn ? gl_fn_name(c->fn) : "a copy");
	pull_wait(p);
	if (all)
		atomic_store(&ctx->twin_pulled, seq);
	free(p);
}

CUresult shim_twin_after(struct shim_call *c, struct shim_twin_pull *p, CUresult r)
{
	struct shim_ctx *ctx = ctx_of(c);
	bool after = pull_after;

	pull_after = false;
	if (p) {
		pull_wait(p);
		if (ctx && p->all && !r)
			atomic_store(&ctx->twin_pulled, p->seq);
		free(p);
		return r;
	}
	if (!ctx)
		return r;
	if (is_query(c) && !r && shim_twin_owed())
		pull_now(c, ctx, covers_all(c, ctx, 0));
	else if (after && !c->waited)
		pull_now(c, ctx, false);
	return r;
}

void shim_twin_pieces(bool on)
{
	in_pieces = on;
}

void shim_twin_reading(bool on)
{
	reading = on;
}

void shim_twin_pull(void)
{
	struct shim_ctx *ctx = shim_current();
	struct shim_call c = { .ctx = ctx ? ctx->o.id : 0 };

	if (ctx && atomic_load(&shim_twins))
		pull_now(&c, ctx, false);
}

/* ---- managed memory ---- */

/*
 * Managed memory is a twin whose pages are the shim's: one wait to make
 * it, none to free it (cuMemFree).  CU_MEM_ATTACH_HOST and _GLOBAL differ
 * only in which streams may use it while the host does; Gleam keeps the
 * two copies in step at synchronisations either way.
 */
CUresult shim_cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
	void *p;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!dptr || !bytesize || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_twin_new(SHIM_TWIN_MANAGED, bytesize, flags, &p);
	if (!r)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return r;
}

/*
 * The managed twin that holds all of [p, p + n), its pages first to last
 * (exclusive), and their advice made if make; lock held.
 */
static struct twin *managed_range(uint64_t p, uint64_t n, bool make, size_t *first, size_t *last)
{
	struct twin *t = find(p);

	if (!t || t->kind != SHIM_TWIN_MANAGED || !n || p - t->dev >= t->size ||
	    n > t->size - (p - t->dev))
		return NULL;
	*first = (size_t)((p - t->dev) / PAGE);
	*last = (size_t)((p - t->dev + n + PAGE - 1) / PAGE);
	if (make && !t->adv)
		t->adv = calloc(t->npages, sizeof(*t->adv));
	if (make && !t->adv)
		return NULL;
	return t;
}

/* A location the program advises or prefetches to: a device of its own, or the host. */
static CUresult location_ok(const CUmemLocation *l, bool prefetch)
{
	switch (l->type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return l->id >= 0 && l->id < shim.ndev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/*
 * Advice changes how the driver moves pages, which Gleam does not do: it
 * is kept, per page, to answer cuMemRangeGetAttribute, and changes
 * nothing else.
 */
CUresult shim_cuMemAdvise(CUdeviceptr p, size_t n, CUmem_advise advice, CUmemLocation loc)
{
	size_t first, last;
	struct twin *t;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
		return CUDA_ERROR_INVALID_VALUE;
	if (advice != CU_MEM_ADVISE_SET_READ_MOSTLY && advice != CU_MEM_ADVISE_UNSET_READ_MOSTLY &&
	    advice != CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION) {
		r = location_ok(&loc, false);
		if (r)
			return r;
		if ((advice == CU_MEM_ADVISE_SET_ACCESSED_BY ||
		     advice == CU_MEM_ADVISE_UNSET_ACCESSED_BY) &&
		    loc.type != CU_MEM_LOCATION_TYPE_DEVICE)
			return CUDA_SUCCESS;	/* the host reaches managed memory anyway */
	}
	pthread_mutex_lock(&tw.lock);
	t = managed_range(p, n, true, &first, &last);
	for (size_t i = first; t && i < last; i++) {
		struct advice *a = &t->adv[i];

		switch (advice) {
		case CU_MEM_ADVISE_SET_READ_MOSTLY:
		case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
			a->read_mostly = advice == CU_MEM_ADVISE_SET_READ_MOSTLY;
			break;
		case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
			a->pref_type = loc.type == CU_MEM_LOCATION_TYPE_DEVICE ?
				       CU_MEM_LOCATION_TYPE_DEVICE : CU_MEM_LOCATION_TYPE_HOST;
			a->pref_id = loc.type == CU_MEM_LOCATION_TYPE_DEVICE ? loc.id : 0;
			break;
		case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
			a->pref_type = 0;
			a->pref_id = 0;
			break;
		case CU_MEM_ADVISE_SET_ACCESSED_BY:
			a->accessed_by |= 1ull << loc.id;
			break;
		default:
			a->accessed_by &= ~(1ull << loc.id);
			break;
		}
	}
	pthread_mutex_unlock(&tw.lock);
	return t ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUmemLocation device_location(CUdevice dev)
{
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_DEVICE, dev };

	if (dev == CU_DEVICE_CPU)
		l = (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 };
	return l;
}

CUresult shim_cuMemAdvise_v1(CUdeviceptr p, size_t n, CUmem_advise advice, CUdevice dev)
{
	return shim_cuMemAdvise(p, n, advice, device_location(dev));
}

/*
 * A prefetch to a device sends what this process changed in the range, in
 * order on the stream, as a launch would; one to the host needs nothing
 * until the program synchronises, which it must before it reads.
 */
CUresult shim_cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUmemLocation loc, unsigned int flags,
				 CUstream s, int per_thread)
{
	struct runs rs = { 0 };
	struct shim_call c;
	size_t first, last;
	struct twin *t;
	__u64 sid;
	CUresult r;

	r = shim_begin(&c, GL_FN_cuMemPrefetchAsync);
	if (r)
		return r;
	r = location_ok(&loc, true);
	if (r)
		return r;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = shim_stream_id(s, per_thread, &sid);
	shim_call_stream = 0;
	if (r)
		return r;
	pthread_mutex_lock(&tw.lock);
	t = managed_range(p, n, true, &first, &last);
	for (size_t i = first; t && i < last; i++) {
		t->adv[i].pf_type = loc.type == CU_MEM_LOCATION_TYPE_DEVICE ?
				    CU_MEM_LOCATION_TYPE_DEVICE : CU_MEM_LOCATION_TYPE_HOST;
		t->adv[i].pf_id = loc.type == CU_MEM_LOCATION_TYPE_DEVICE ? loc.id : 0;
	}
	if (t && loc.type == CU_MEM_LOCATION_TYPE_DEVICE)
		changed_pages(t, first, last, &rs);
	pthread_mutex_unlock(&tw.lock);
	if (!t)
		return CUDA_ERROR_INVALID_VALUE;
	send_runs(&rs, c.ctx, sid, 0);
	runs_done(&rs);
	return CUDA_SUCCESS;
}

CUresult shim_cuMemPrefetchAsync_v1(CUdeviceptr p, size_t n, CUdevice dev, CUstream s,
				    int per_thread)
{
	return shim_cuMemPrefetchAsync(p, n, device_location(dev), 0, s, per_thread);
}

/* The pages' common value of one attribute, or none (CU_DEVICE_INVALID, type 0). */
static CUresult range_attr(const struct twin *t, size_t first, size_t last,
			   CUmem_range_attribute attr, void *data, size_t size)
{
	int32_t v = 0, type = 0, id = 0;
	int32_t *out = data;
	size_t k = 0;

	if (attr == CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY) {
		if (!size || size % 4)
			return CUDA_ERROR_INVALID_VALUE;
		for (int dev = 0; dev < shim.ndev; dev++) {
			bool all = t->adv != NULL;

			for (size_t i = first; all && i < last; i++)
				all = t->adv[i].accessed_by & (1ull << dev);
			if (all && k < size / 4)
				out[k++] = dev;
		}
		for (; k < size / 4; k++)
			out[k] = CU_DEVICE_INVALID;
		return CUDA_SUCCESS;
	}
	if (size != 4)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = first; i < last; i++) {
		struct advice none = { 0 };
		const struct advice *a = t->adv ? &t->adv[i] : &none;
		int32_t ty, ident, rm = a->read_mostly;

		bool pref = attr == CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION ||
			    attr == CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE ||
			    attr == CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID;

		ty = pref ? a->pref_type : a->pf_type;
		ident = pref ? a->pref_id : a->pf_id;
		if (i == first) {
			v = rm;
			type = ty;
			id = ident;
		} else {
			v = v && rm;
			if (ty != type || ident != id)
				type = id = 0;
		}
	}
	switch (attr) {
	case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
		*out = v;
		break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
		*out = type == CU_MEM_LOCATION_TYPE_DEVICE ? id :
		       type == CU_MEM_LOCATION_TYPE_HOST ? CU_DEVICE_CPU : CU_DEVICE_INVALID;
		break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
		*out = type;
		break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
		*out = id;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult shim_cuMemRangeGetAttribute(void *data, size_t size, CUmem_range_attribute attr,
				     CUdeviceptr p, size_t n)
{
	size_t first, last;
	struct twin *t;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&tw.lock);
	t = managed_range(p, n, false, &first, &last);
	if (t)
		r = range_attr(t, first, last, attr, data, size);
	pthread_mutex_unlock(&tw.lock);
	return r;
}

CUresult shim_cuMemRangeGetAttributes(void **data, size_t *sizes, CUmem_range_attribute *attrs,
				      size_t count, CUdeviceptr p, size_t n)
{
	CUresult r = CUDA_SUCCESS;

	if (!data || !sizes || !attrs || !count)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < count && !r; i++)
		r = shim_cuMemRangeGetAttribute(data[i], sizes[i], attrs[i], p, n);
	return r;
}

/*
 * Which streams may use managed memory while the host does matters where
 * the GPU and the host share it page by page; here the two copies meet at
 * synchronisations whatever the streams.  The association is checked and
 * accepted.
 */
CUresult shim_cuStreamAttachMemAsync(CUstream s, CUdeviceptr p, size_t len, unsigned int flags,
				     int per_thread)
{
	struct shim_twin_info ti;
	uint64_t sid;
	CUresult r;

	if (!shim.initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	r = shim_stream_resolve(s, per_thread, &sid, &(struct shim_stream *){ NULL });
	if (r)
		return r;
	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
	    flags != CU_MEM_ATTACH_SINGLE)
		return CUDA_ERROR_INVALID_VALUE;
	if (!atomic_load(&shim_twins) || !shim_twin_find(p, &ti) || ti.kind != SHIM_TWIN_MANAGED ||
	    ti.dev != p || (len && len != ti.size))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}
