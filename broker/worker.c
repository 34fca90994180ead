// SPDX-License-Identifier: MIT
/*
 * The replay worker's loop.  Records arrive in order; each is copied out of
 * the ring once and checked against its function's argument block before
 * anything is used.  Errors of records nobody waits for are kept and
 * reported by the next record that waits in the same context, as CUDA
 * reports asynchronous errors.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudarules.h"
#include "gleam_local.h"
#include "util.h"
#include "worker.h"

/* ---- handles ---- */

static struct wk_handle *slot(struct worker *w, uint64_t id)
{
	size_t i = (size_t)(id * 0x9e3779b97f4a7c15ull) & (w->hcap - 1);

	while (w->h[i].id && w->h[i].id != id)
		i = (i + 1) & (w->hcap - 1);
	return &w->h[i];
}

static int grow(struct worker *w)
{
	struct wk_handle *old = w->h;
	size_t ocap = w->hcap;

	w->hcap = ocap ? 2 * ocap : 1024;
	w->h = calloc(w->hcap, sizeof(*w->h));
	if (!w->h) {
		w->h = old;
		w->hcap = ocap;
		return -ENOMEM;
	}
	for (size_t i = 0; i < ocap; i++)
		if (old[i].id)
			*slot(w, old[i].id) = old[i];
	free(old);
	return 0;
}

static CUresult bad_handle(unsigned int kind)
{
	return kind == GL_H_CTX ? CUDA_ERROR_INVALID_CONTEXT : CUDA_ERROR_INVALID_HANDLE;
}

CUresult wk_handle(struct worker *w, unsigned int kind, uint64_t id, void **real)
{
	struct wk_handle *h;

	if (!id || !w->hcap)
		return bad_handle(kind);
	h = slot(w, id);
	if (h->id != id || h->kind != kind)
		return bad_handle(kind);
	if (h->status)
		return h->status;
	*real = h->real;
	return CUDA_SUCCESS;
}

CUresult wk_stream(struct worker *w, uint64_t id, CUstream *s)
{
	if (id == 0 || id == (uint64_t)(uintptr_t)CU_STREAM_LEGACY ||
	    id == (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD) {
		*s = (CUstream)(uintptr_t)id;
		return CUDA_SUCCESS;
	}
	return wk_handle(w, GL_H_STREAM, id, (void **)s);
}

bool wk_handle_taken(struct worker *w, uint64_t id)
{
	return id < 16 || (w->hcap && slot(w, id)->id == id);
}

void wk_handle_new(struct worker *w, unsigned int kind, uint64_t id, void *real, CUresult r)
{
	struct wk_handle *h;

	/* Ids 0..15 are the shim's special values: never a handle. */
	if (id < 16)
		return;
	if ((w->hcount + 1) * 2 > w->hcap && grow(w))
		return;
	h = slot(w, id);
	if (!h->id)
		w->hcount++;
	h->id = id;
	h->kind = kind;
	h->renewable = false;
	h->owner = 0;
	h->real = r ? NULL : real;
	h->status = r;
	/* Uses of the handle report this failure: it is not deferred as well. */
	w->kept_error = r != CUDA_SUCCESS;
	if (!r || h->status)
		h->deferred = CUDA_SUCCESS;
}

bool wk_handle_renew_ok(struct worker *w, unsigned int kind, uint64_t id)
{
	struct wk_handle *h;

	if (id < 16)
		return false;
	if (!w->hcap)
		return true;
	h = slot(w, id);
	return h->id != id || (h->kind == kind && h->renewable);
}

void wk_handle_renewed(struct worker *w, unsigned int kind, uint64_t id, void *real, CUresult r)
{
	struct wk_handle *h;

	wk_handle_new(w, kind, id, real, r);
	if (w->hcap) {
		h = slot(w, id);
		if (h->id == id)
			h->renewable = true;
	}
}

static void unmap(struct worker *w, struct wk_handle *h);

void wk_handle_del(struct worker *w, unsigned int kind, uint64_t id)
{
	struct wk_handle *h;

	if (!w->hcap)
		return;
	h = slot(w, id);
	if (h->id != id || h->kind != kind)
		return;
	unmap(w, h);
	/* The driver took a graph's nodes and bodies with it: their ids go too. */
	if (kind == GL_H_GRAPH || kind == GL_H_GRAPHNODE || kind == WK_H_BODY)
		wk_graph_forget(w, id);
}

void wk_handle_unmap(struct worker *w, uint64_t id)
{
	struct wk_handle *h;

	if (!w->hcap)
		return;
	h = slot(w, id);
	if (h->id == id)
		unmap(w, h);
}

static void unmap(struct worker *w, struct wk_handle *h)
{
	uint64_t id = h->id;
	size_t i, j;

	if (id == w->cur_ctx)
		w->cur_ctx = 0;
	/* Backward-shift deletion keeps every probe sequence unbroken. */
	i = (size_t)(h - w->h);
	w->h[i].id = 0;
	w->hcount--;
	for (j = (i + 1) & (w->hcap - 1); w->h[j].id; j = (j + 1) & (w->hcap - 1)) {
		struct wk_handle e = w->h[j];

		w->h[j].id = 0;
		*slot(w, e.id) = e;
	}
}

void wk_handle_set_owner(struct worker *w, uint64_t id, uint64_t owner)
{
	struct wk_handle *h;

	if (!w->hcap)
		return;
	h = slot(w, id);
	if (h->id == id)
		h->owner = owner;
}

uint64_t wk_handle_owner(struct worker *w, uint64_t id)
{
	struct wk_handle *h;

	if (!id || !w->hcap)
		return 0;
	h = slot(w, id);
	return h->id == id ? h->owner : 0;
}

size_t wk_handle_owned(struct worker *w, bool (*owner)(void *, uint64_t), void *arg,
		       uint64_t *ids, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < w->hcap && n < max; i++)
		if (w->h[i].id && w->h[i].owner && owner(arg, w->h[i].owner))
			ids[n++] = w->h[i].id;
	return n;
}

uint64_t wk_handle_find(struct worker *w, unsigned int kind, const void *real)
{
	for (size_t i = 0; real && i < w->hcap; i++)
		if (w->h[i].id && w->h[i].kind == kind && !w->h[i].status && w->h[i].real == real)
			return w->h[i].id;
	return 0;
}

void wk_current_changed(struct worker *w, uint64_t id)
{
	w->cur_ctx = id;
}

/* ---- what the live workers hold ---- */

/*
 * One slot per live worker in memory shared with the server, which maps
 * it before the first fork.  The server takes a free slot for a session
 * before it forks the worker, and writes the worker's pid into it; the
 * worker keeps there, per GPU, what its backend says it holds, and how
 * long its records waited before their replay began, and frees the slot
 * when it ends.  A worker that dies cannot: the server frees the slots of
 * pids that are no longer its live children when it adds them up, since a
 * process's exit frees what it held on the GPU.
 */
#define USAGE_SLOTS		4096
/* How often a backend whose count costs a driver call is asked. */
#define USAGE_SAMPLE_NS		(100 * 1000 * 1000ull)
/* The pid of a slot taken for a worker not yet forked. */
#define USAGE_TAKEN		(-1)
/* Batches the server put on a worker's ring that the worker has not begun. */
#define USAGE_STAMPS		32
/* A reading of the NVML sampler older than this is no reading. */
#define USAGE_UTIL_STALE_NS	(3000 * 1000 * 1000ull)

/* The server put records on the ring up to pos (free-running, as the ring's tail) at ns. */
struct usage_stamp {
	_Atomic uint32_t pos;
	uint32_t pad;
	_Atomic uint64_t ns;
};

/*
 * Written by the server (stamps, tail) and the worker (head, the sums): a
 * single-producer single-consumer ring of batch times.  Reading the clock
 * once per batch and once per record, which it does already, is all it
 * costs: no system call.
 */
struct usage_wait {
	_Atomic uint32_t head;		/* stamps the worker has passed */
	_Atomic uint32_t tail;		/* stamps the server has written */
	_Atomic uint64_t ns;		/* the records' waits, summed */
	_Atomic uint64_t records;	/* records whose wait is in ns */
	struct usage_stamp s[USAGE_STAMPS];
};

/* One GPU of the server, as its workers and its NVML sampler see it. */
struct usage_gpu {
	_Atomic uint64_t busy_until;	/* sim: ns, when the work queued on it ends */
	_Atomic uint64_t busy_ns;	/* sim: work run or queued on it since start */
	_Atomic uint64_t util_at;	/* NVML: ns, when util_pct was read; 0: never */
	_Atomic uint32_t util_pct;	/* NVML: the GPU's utilisation then */
	uint32_t pad;
};

struct usage_table {
	_Atomic uint32_t untracked;			/* workers that found no slot */
	_Atomic int32_t pid[USAGE_SLOTS];		/* 0: free */
	_Atomic uint64_t gpus[USAGE_SLOTS];		/* bit d: has used GPU d */
	_Atomic uint64_t mem[USAGE_SLOTS][GLEAM_GPUS_MAX];
	struct usage_wait wait[USAGE_SLOTS];
	struct usage_gpu gpu[GLEAM_GPUS_MAX];
	/*
	 * Device memory the worker allocated, by its own count (wk_quota.c),
	 * and its tenant's workers' together: a worker that dies cannot
	 * take its share back, so the server does when it frees its slot.
	 */
	_Atomic uint32_t tenant[USAGE_SLOTS];
	_Atomic uint64_t alloc[USAGE_SLOTS];
	_Atomic uint64_t tenant_alloc[WK_TENANTS];
};

static struct usage_table *usage;	/* NULL but in a server and its workers */
static int usage_fd = -1;		/* the server's, which workers map */
static int usage_slot = -1;		/* the worker's own */
static uint64_t usage_asked;		/* when the backend was last asked */
/*
 * The session's devices as the program numbers them, by the server's
 * index (GLEAM_HELLO_GPU_ELSEWHERE: another server's); none: all of them.
 * The backend sees only this server's, in the same order (my_local),
 * as NVIDIA's driver numbers only the GPUs CUDA_VISIBLE_DEVICES shows it.
 */
static uint8_t my_gpus[GLEAM_HELLO_GPUS_MAX], my_local[GLEAM_HELLO_GPUS_MAX];
static unsigned int my_ngpus, my_nlocal;

/* The server's view at its last tick, and what the tick found. */
static struct {
	uint64_t at;
	int32_t pid[USAGE_SLOTS];
	uint64_t wait_ns[USAGE_SLOTS], waited[USAGE_SLOTS];
	uint64_t busy[GLEAM_GPUS_MAX];
	uint32_t util[GLEAM_GPUS_MAX], wait_us[GLEAM_GPUS_MAX];
	bool util_ok[GLEAM_GPUS_MAX];
} tick;

/* A memfd, so that a worker started from a fresh image can map it too. */
int wk_usage_init(void)
{
	int fd = memfd_create("gleam-usage", MFD_CLOEXEC);
	void *p;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, sizeof(*usage))) {
		close(fd);
		return -errno;
	}
	p = mmap(NULL, sizeof(*usage), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return -errno;
	}
	usage = p;
	usage_fd = fd;
	return 0;
}

int wk_usage_fd(void)
{
	return usage_fd;
}

int wk_usage_attach(int fd)
{
	struct stat st;
	void *p;

	/* The server's table, of this build's size, or none. */
	if (fstat(fd, &st) || (size_t)st.st_size != sizeof(*usage))
		return -EINVAL;
	p = mmap(NULL, sizeof(*usage), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	usage = p;
	return 0;
}

/* Everything zero before the pid: a slot is taken clean, its memory given back. */
static void usage_clear(int i)
{
	uint64_t mask = atomic_load(&usage->gpus[i]);
	struct usage_wait *u = &usage->wait[i];
	uint64_t held = atomic_exchange(&usage->alloc[i], 0);
	uint32_t t = atomic_load(&usage->tenant[i]);

	if (held && t < WK_TENANTS)
		atomic_fetch_sub(&usage->tenant_alloc[t], held);

	for (unsigned int d = 0; d < GLEAM_GPUS_MAX; d++)
		if (mask & (1ull << d))
			atomic_store(&usage->mem[i][d], 0);
	atomic_store(&usage->gpus[i], 0);
	atomic_store(&u->head, 0);
	atomic_store(&u->tail, 0);
	atomic_store(&u->ns, 0);
	atomic_store(&u->records, 0);
	atomic_store(&usage->pid[i], 0);
}

int wk_usage_take(unsigned int tenant)
{
	if (!usage)
		return -1;
	for (int i = 0; i < USAGE_SLOTS; i++) {
		int32_t zero = 0;

		if (atomic_compare_exchange_strong(&usage->pid[i], &zero, USAGE_TAKEN)) {
			atomic_store(&usage->tenant[i], tenant);
			return i;
		}
	}
	atomic_fetch_add(&usage->untracked, 1);
	gl_err("no room to account for another worker: server-info will count short");
	return -1;
}

void wk_usage_bind(int slot, pid_t pid)
{
	if (!usage || slot < 0)
		return;
	if (pid <= 0) {
		usage_clear(slot);
		return;
	}
	/* A slot left by an earlier process with this pid: that one is gone. */
	for (int i = 0; i < USAGE_SLOTS; i++)
		if (i != slot && atomic_load(&usage->pid[i]) == pid)
			usage_clear(i);
	atomic_store(&usage->pid[slot], pid);
}

void wk_usage_child(int slot, const uint8_t *gpus, unsigned int n)
{
	uint64_t mask = 0;

	my_ngpus = MIN(n, (unsigned int)GLEAM_HELLO_GPUS_MAX);
	memcpy(my_gpus, gpus, my_ngpus);
	my_nlocal = 0;
	for (unsigned int i = 0; i < my_ngpus; i++) {
		if (my_gpus[i] == GLEAM_HELLO_GPU_ELSEWHERE)
			continue;
		my_local[my_nlocal++] = my_gpus[i];
		if (my_gpus[i] < 64)
			mask |= 1ull << my_gpus[i];
	}
	if (!usage || slot < 0)
		return;
	usage_slot = slot;
	/* A worker given its GPUs uses them, whether or not it has a context yet. */
	if (mask)
		atomic_store(&usage->gpus[slot], mask);
	atomic_store(&usage->pid[slot], (int32_t)getpid());
}

unsigned int wk_ngpus(void)
{
	return my_nlocal;
}

unsigned int wk_session_ngpus(void)
{
	return my_ngpus;
}

bool wk_usage_charge(int64_t delta, uint64_t limit)
{
	uint32_t t;
	uint64_t now;

	if (!usage || usage_slot < 0)
		return !limit || delta <= 0;
	t = atomic_load(&usage->tenant[usage_slot]);
	if (t >= WK_TENANTS)
		return false;
	if (delta > 0) {
		now = atomic_fetch_add(&usage->tenant_alloc[t], (uint64_t)delta) + (uint64_t)delta;
		if (limit && now > limit) {
			atomic_fetch_sub(&usage->tenant_alloc[t], (uint64_t)delta);
			return false;
		}
		atomic_fetch_add(&usage->alloc[usage_slot], (uint64_t)delta);
		return true;
	}
	atomic_fetch_sub(&usage->tenant_alloc[t], (uint64_t)-delta);
	atomic_fetch_sub(&usage->alloc[usage_slot], (uint64_t)-delta);
	return true;
}

struct gleam_cluster_table wk_clusters[GLEAM_GPUS_MAX];
bool wk_have_clusters[GLEAM_GPUS_MAX];

bool wk_gpu_elsewhere(unsigned int dev)
{
	return dev < my_ngpus && my_gpus[dev] == GLEAM_HELLO_GPU_ELSEWHERE;
}

unsigned int wk_server_gpu(unsigned int dev)
{
	if (!my_ngpus)
		return dev;
	return dev < my_nlocal ? my_local[dev] : GLEAM_GPUS_MAX;
}

/*
 * The program's device numbers span every server of its session; the
 * backend's count only this server's.  Every record that names a device
 * (an argument, a location in a pool's or an allocation's properties)
 * is renumbered here before the backend sees it.
 */
int wk_dev_local(int64_t dev)
{
	int local = 0;

	if (!my_ngpus)
		return dev >= 0 && dev <= INT32_MAX ? (int)dev : -1;
	if (dev < 0 || dev >= my_ngpus || my_gpus[dev] == GLEAM_HELLO_GPU_ELSEWHERE)
		return -1;
	for (int64_t i = 0; i < dev; i++)
		local += my_gpus[i] != GLEAM_HELLO_GPU_ELSEWHERE;
	return local;
}

void wk_usage_stamp(int slot, pid_t pid, uint32_t pos, uint64_t now)
{
	struct usage_wait *u;
	uint32_t head, tail;

	if (!usage || slot < 0 || atomic_load_explicit(&usage->pid[slot], memory_order_relaxed) != pid)
		return;
	u = &usage->wait[slot];
	tail = atomic_load_explicit(&u->tail, memory_order_relaxed);
	head = atomic_load_explicit(&u->head, memory_order_acquire);
	if (tail - head >= USAGE_STAMPS) {
		/* Full: the newest batch grows and keeps its time, so waits read long, never short. */
		atomic_store_explicit(&u->s[(tail - 1) % USAGE_STAMPS].pos, pos, memory_order_relaxed);
		return;
	}
	atomic_store_explicit(&u->s[tail % USAGE_STAMPS].pos, pos, memory_order_relaxed);
	atomic_store_explicit(&u->s[tail % USAGE_STAMPS].ns, now, memory_order_relaxed);
	atomic_store_explicit(&u->tail, tail + 1, memory_order_release);
}

/*
 * The worker, as it begins the record at ring position pos: the record
 * came in the first batch that ends past pos, and has waited since then.
 * A record no stamp covers (its batch came before the worker's slot was
 * bound) is not counted.
 */
static void usage_waited(uint32_t pos, uint64_t now)
{
	struct usage_wait *u;
	uint32_t head, tail;

	if (usage_slot < 0)
		return;
	u = &usage->wait[usage_slot];
	head = atomic_load_explicit(&u->head, memory_order_relaxed);
	tail = atomic_load_explicit(&u->tail, memory_order_acquire);
	if (tail - head > USAGE_STAMPS)
		head = tail - USAGE_STAMPS;
	for (; head != tail; head++) {
		struct usage_stamp *e = &u->s[head % USAGE_STAMPS];
		uint64_t at;

		if ((int32_t)(atomic_load_explicit(&e->pos, memory_order_relaxed) - pos) <= 0)
			continue;
		at = atomic_load_explicit(&e->ns, memory_order_relaxed);
		atomic_store_explicit(&u->ns, atomic_load_explicit(&u->ns, memory_order_relaxed) +
				      (now > at ? now - at : 0), memory_order_relaxed);
		atomic_store_explicit(&u->records,
				      atomic_load_explicit(&u->records, memory_order_relaxed) + 1,
				      memory_order_relaxed);
		break;
	}
	atomic_store_explicit(&u->head, head, memory_order_release);
}

uint64_t wk_gpu_queue(unsigned int dev, uint64_t ns)
{
	uint64_t now = gl_now_ns(), old, end;
	unsigned int g = wk_server_gpu(dev);
	struct usage_gpu *u;

	if (!usage || g >= GLEAM_GPUS_MAX)
		return now + ns;
	u = &usage->gpu[g];
	old = atomic_load(&u->busy_until);
	do
		end = MAX(old, now) + ns;
	while (!atomic_compare_exchange_weak(&u->busy_until, &old, end));
	atomic_fetch_add(&u->busy_ns, ns);
	return end;
}

void wk_gpu_ran(unsigned int dev, uint64_t ns)
{
	unsigned int g = wk_server_gpu(dev);

	if (usage && g < GLEAM_GPUS_MAX)
		atomic_fetch_add(&usage->gpu[g].busy_ns, ns);
}

void wk_gpu_util(unsigned int gpu, unsigned int pct)
{
	if (!usage || gpu >= GLEAM_GPUS_MAX)
		return;
	atomic_store(&usage->gpu[gpu].util_pct, MIN(pct, 100u));
	atomic_store(&usage->gpu[gpu].util_at, gl_now_ns());
}

static void usage_update(struct worker *w, uint64_t now)
{
	unsigned int dev;
	uint64_t bytes;

	if (usage_slot < 0 || !w->be->mem_in_use)
		return;
	if (!w->be->mem_exact) {
		if (now - usage_asked < USAGE_SAMPLE_NS)
			return;
		usage_asked = now;
	}
	if (!w->be->mem_in_use(&dev, &bytes))
		return;
	/* The worker's devices are its server's GPUs, in the order it was given them. */
	dev = wk_server_gpu(dev);
	if (dev >= GLEAM_GPUS_MAX)
		return;
	if (atomic_load_explicit(&usage->mem[usage_slot][dev], memory_order_relaxed) != bytes)
		atomic_store(&usage->mem[usage_slot][dev], bytes);
	if (!(atomic_load_explicit(&usage->gpus[usage_slot], memory_order_relaxed) & (1ull << dev)))
		atomic_fetch_or(&usage->gpus[usage_slot], 1ull << dev);
}

static void usage_release(void)
{
	if (usage_slot >= 0)
		usage_clear(usage_slot);
	usage_slot = -1;
}

/* Whether pid is a child of this process that has not exited. */
static bool child_lives(pid_t pid)
{
	siginfo_t si = { 0 };

	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != ECHILD;
	return si.si_pid == 0;
}

/* The sim's work on GPU g that has run by now: what is queued past now has not. */
static uint64_t busy_by(unsigned int g, uint64_t now)
{
	uint64_t busy = atomic_load(&usage->gpu[g].busy_ns);
	uint64_t until = atomic_load(&usage->gpu[g].busy_until);

	if (until > now)
		busy -= MIN(busy, until - now);
	return busy;
}

void wk_usage_tick(const char *backend, unsigned int ngpus, uint64_t now)
{
	uint64_t wns[GLEAM_GPUS_MAX] = { 0 }, wn[GLEAM_GPUS_MAX] = { 0 };
	bool sim = !strcmp(backend, "sim");
	uint64_t dt = now - tick.at;

	if (!usage)
		return;
	ngpus = MIN(ngpus, (unsigned int)GLEAM_GPUS_MAX);
	for (int i = 0; i < USAGE_SLOTS; i++) {
		int32_t pid = atomic_load_explicit(&usage->pid[i], memory_order_relaxed);
		uint64_t ns, n, mask;

		if (pid <= 0) {
			tick.pid[i] = 0;
			continue;
		}
		if (tick.pid[i] != pid) {
			tick.pid[i] = pid;
			tick.wait_ns[i] = tick.waited[i] = 0;
		}
		ns = atomic_load(&usage->wait[i].ns);
		n = atomic_load(&usage->wait[i].records);
		if (ns < tick.wait_ns[i] || n < tick.waited[i])
			tick.wait_ns[i] = tick.waited[i] = 0;
		mask = atomic_load(&usage->gpus[i]);
		for (unsigned int d = 0; d < ngpus && n > tick.waited[i]; d++) {
			if (!(mask & (1ull << d)))
				continue;
			wns[d] += ns - tick.wait_ns[i];
			wn[d] += n - tick.waited[i];
		}
		tick.wait_ns[i] = ns;
		tick.waited[i] = n;
	}
	for (unsigned int d = 0; d < ngpus; d++) {
		tick.wait_us[d] = wn[d] ? (uint32_t)MIN(wns[d] / wn[d] / 1000, (uint64_t)UINT32_MAX) : 0;
		if (sim) {
			uint64_t busy = busy_by(d, now);

			tick.util_ok[d] = tick.at != 0;
			tick.util[d] = tick.at && dt ?
				       (uint32_t)MIN((busy - MIN(busy, tick.busy[d])) * 100 / dt, 100) : 0;
			tick.busy[d] = busy;
		} else {
			uint64_t at = atomic_load(&usage->gpu[d].util_at);

			tick.util_ok[d] = at && now - at < USAGE_UTIL_STALE_NS;
			tick.util[d] = tick.util_ok[d] ? atomic_load(&usage->gpu[d].util_pct) : 0;
		}
	}
	tick.at = now;
}

void wk_usage_sum(const char *backend, unsigned int ngpus, struct gleam_server_usage *u,
		  struct gleam_gpu_usage *g)
{
	bool exact = (!strcmp(backend, "sim") ? &gl_backend_sim_rw : &gl_backend_cuda_rw)->mem_exact;

	memset(u, 0, sizeof(*u));
	ngpus = MIN(ngpus, (unsigned int)GLEAM_GPUS_MAX);
	memset(g, 0, ngpus * sizeof(*g));
	for (unsigned int d = 0; d < ngpus; d++) {
		g[d].flags = (exact ? GLEAM_USAGE_F_EXACT : 0) |
			     (tick.util_ok[d] ? GLEAM_USAGE_F_UTIL : 0);
		g[d].util_pct = tick.util[d];
		g[d].wait_us = tick.wait_us[d];
	}
	if (!usage)
		return;
	u->untracked = atomic_load(&usage->untracked);
	for (int i = 0; i < USAGE_SLOTS; i++) {
		int32_t pid = atomic_load(&usage->pid[i]);
		uint64_t mask;

		if (pid <= 0)
			continue;
		if (!child_lives(pid)) {
			usage_clear(i);
			continue;
		}
		u->workers++;
		mask = atomic_load(&usage->gpus[i]);
		for (unsigned int d = 0; d < ngpus; d++) {
			uint64_t m;

			if (!(mask & (1ull << d)))
				continue;
			m = atomic_load(&usage->mem[i][d]);
			g[d].workers++;
			g[d].mem_used = exact ? g[d].mem_used + m : MAX(g[d].mem_used, m);
		}
	}
}

/* ---- reading a record ---- */

const void *wk_args(struct wk_call *k, size_t len)
{
	size_t a = ALIGN8(len);

	if (k->blen < a)
		return NULL;
	k->pos = a;
	return k->body;
}

const void *wk_data(struct wk_call *k, uint64_t len)
{
	const void *p;

	if (k->tail && k->pos == k->blen) {
		/* The one data part left where it lies. */
		if (len > k->tail_len || ALIGN8(len) > k->tail_len)
			return NULL;
		p = k->tail;
		k->tail = NULL;
		return len ? p : NULL;
	}
	if (len > k->blen - k->pos || ALIGN8(len) > k->blen - k->pos)
		return NULL;
	p = k->body + k->pos;
	k->pos += ALIGN8(len);
	return len ? p : NULL;
}

const char *wk_str(struct wk_call *k, uint64_t len)
{
	const char *s;

	if (!len || len > GLEAM_NAME_MAX)
		return NULL;
	s = wk_data(k, len);
	if (!s || s[len - 1])
		return NULL;
	return s;
}

/* ---- replies ---- */

static int reply_room(struct wk_call *k, size_t more)
{
	size_t need = k->rlen + more;

	if (need > GLEAM_REC_MAX - sizeof(struct gleam_reply))
		return -E2BIG;
	if (need > k->rcap) {
		size_t cap = MAX(need, 2 * k->rcap);
		unsigned char *p = realloc(k->reply, cap);

		if (!p)
			return -ENOMEM;
		k->reply = p;
		k->rcap = cap;
	}
	return 0;
}

void *wk_reply_struct(struct wk_call *k, size_t len)
{
	if (reply_room(k, len))
		return NULL;
	memset(k->reply, 0, len);
	k->rlen = len;
	k->rstruct = len;
	return k->reply;
}

void *wk_reply_data(struct wk_call *k, uint64_t len)
{
	void *p;

	if (len > GLEAM_REC_MAX || reply_room(k, ALIGN8(len)))
		return NULL;
	p = k->reply + k->rlen;
	memset(p, 0, ALIGN8(len));
	k->rlen += ALIGN8(len);
	return p;
}

static int wait_bell(struct worker *w)
{
	struct pollfd pfd = { .fd = w->bell, .events = POLLIN };
	char buf[64];
	int n = poll(&pfd, 1, 1000);

	if (n > 0) {
		ssize_t r = recv(w->bell, buf, sizeof(buf), MSG_DONTWAIT);

		if (r == 0 || (pfd.revents & (POLLHUP | POLLERR)))
			return -EPIPE;
	}
	return 0;
}

void wk_bell(struct worker *w)
{
	char b = GLEAM_BELL_CQ;

	send(w->bell, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/*
 * One thread sleeps on the doorbell, since a byte taken by another would
 * leave it asleep: the one that reads records (worker_main's), or, once
 * host functions are in use, their helper (wk_host.c).  The others (the
 * output's) look at the ring again after a short nap, or find that the
 * server hung up.
 */
static __thread bool on_main;

static int nap(struct worker *w, unsigned int *us)
{
	struct pollfd pfd = { .fd = w->bell, .events = 0 };
	struct timespec ts = { .tv_nsec = (long)*us * 1000 };

	if (ppoll(&pfd, 1, &ts, NULL) > 0 && (pfd.revents & (POLLHUP | POLLERR)))
		return -EPIPE;
	*us = MIN(*us * 2, 1000u);
	return 0;
}

/*
 * One wait for room on the CQ (see cq_room); 0, or -EPIPE when the server
 * is gone.  Behind a piece being filled no room comes before it is
 * published: short naps, to look at it again soon.
 */
static int cq_wait(struct worker *w, size_t len, unsigned int *us)
{
	int err = 0;

	/* With host functions in use, the helper alone takes the doorbells. */
	if (w->cq_hold || (!on_main && !w->hf))
		return nap(w, us);
	gl_ring_prod_set_sleeping(&w->ring.cq, true);
	if (!gl_ring_can_reserve(&w->ring.cq, (uint32_t)len))
		err = w->hf ? wk_host_space_wait(w) : wait_bell(w);
	gl_ring_prod_set_sleeping(&w->ring.cq, false);
	return err;
}

static void cq_commit(struct worker *w)
{
	if (w->cq_hold)
		return;
	gl_ring_commit(&w->ring.cq);
	if (gl_ring_cons_sleeping(&w->ring.cq))
		wk_bell(w);
}

/*
 * Room for a reply of len bytes in the ring, cq_lock held, waited for;
 * NULL when the server is gone.  While a piece is being filled (cq_hold),
 * what is put behind it is published only with it, so room comes only
 * once it is published, which takes cq_lock.  A waiter here holds the
 * lock throughout (letting it go would invert its order with the
 * output's lock, which a waiter may hold: wk_output.c takes cq_lock
 * first): it publishes the piece itself once its bytes are in.
 */
static unsigned char *cq_room(struct worker *w, size_t len)
{
	unsigned int us = 20;
	unsigned char *p;

	while (!(p = gl_ring_reserve(&w->ring.cq, (uint32_t)len))) {
		if (w->ring.cq.broken)
			return NULL;
		if (w->cq_hold && atomic_load_explicit(&w->cq_filled, memory_order_acquire)) {
			w->cq_hold = false;
			cq_commit(w);
			continue;
		}
		if (cq_wait(w, len, &us))
			return NULL;
	}
	return p;
}

int wk_put_reply(struct worker *w, const struct gleam_reply *h, const void *a, size_t alen,
		 const void *b, size_t blen)
{
	size_t len = sizeof(*h) + ALIGN8(alen) + ALIGN8(blen);
	unsigned char *p = cq_room(w, len);

	if (!p)
		return -EPIPE;
	memcpy(p, h, sizeof(*h));
	((struct gleam_reply *)p)->len = (uint32_t)len;
	if (alen)
		memcpy(p + sizeof(*h), a, alen);
	memset(p + sizeof(*h) + alen, 0, ALIGN8(alen) - alen);
	if (blen)
		memcpy(p + sizeof(*h) + ALIGN8(alen), b, blen);
	memset(p + sizeof(*h) + ALIGN8(alen) + blen, 0, ALIGN8(blen) - blen);
	cq_commit(w);
	return 0;
}

/*
 * A data piece of len bytes for this record whose bytes fill() writes
 * straight into the reply ring (a copy to the host from the device: no
 * staging buffer, no copy from it).  The piece goes out whatever fill()
 * returns, as a failed copy's bytes are undefined; its result is returned,
 * or CUDA_ERROR_DEVICE_UNAVAILABLE when the server is gone.
 */
CUresult wk_reply_piece_fill(struct wk_call *k, uint64_t offset, uint64_t len,
			     CUresult (*fill)(void *arg, void *dst, uint64_t offset, size_t len),
			     void *arg)
{
	struct gleam_reply h = { .fn = k->hdr.fn, .flags = GLEAM_REP_F_DATA, .tag = k->hdr.tag,
				 .seq = k->hdr.seq };
	struct gleam_rep_data d = { .offset = offset, .length = len };
	size_t dpos = sizeof(h) + ALIGN8(sizeof(d));
	unsigned char *p;
	CUresult r;

	h.len = (uint32_t)(dpos + ALIGN8(len));
	pthread_mutex_lock(&k->w->cq_lock);
	p = cq_room(k->w, h.len);
	if (!p) {
		pthread_mutex_unlock(&k->w->cq_lock);
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	}
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), &d, sizeof(d));
	/*
	 * Filled without the lock: the backend's copy may wait for the
	 * driver to print what the kernels printed, and that output's thread
	 * puts its replies under the lock.  They are published with this one,
	 * here or by a thread that waits for room behind it (cq_room()).
	 */
	k->w->cq_hold = true;
	atomic_store_explicit(&k->w->cq_filled, false, memory_order_relaxed);
	pthread_mutex_unlock(&k->w->cq_lock);
	r = fill(arg, p + dpos, offset, (size_t)len);
	memset(p + dpos + len, 0, ALIGN8(len) - len);
	atomic_store_explicit(&k->w->cq_filled, true, memory_order_release);
	pthread_mutex_lock(&k->w->cq_lock);
	k->w->cq_hold = false;
	cq_commit(k->w);
	pthread_mutex_unlock(&k->w->cq_lock);
	return r;
}

int wk_reply_piece(struct wk_call *k, uint64_t offset, const void *p, uint64_t len)
{
	struct gleam_reply h = { .fn = k->hdr.fn, .flags = GLEAM_REP_F_DATA, .tag = k->hdr.tag,
				 .seq = k->hdr.seq };
	struct gleam_rep_data d = { .offset = offset, .length = len };
	int err;

	if (!(k->hdr.flags & GLEAM_REC_F_REPLY))
		return 0;
	pthread_mutex_lock(&k->w->cq_lock);
	err = wk_put_reply(k->w, &h, &d, sizeof(d), p, (size_t)len);
	pthread_mutex_unlock(&k->w->cq_lock);
	return err;
}

/* ---- replay ---- */

static struct wk_handle *ctx_entry(struct worker *w, uint64_t id)
{
	struct wk_handle *h;

	if (!id || !w->hcap)
		return NULL;
	h = slot(w, id);
	return h->id == id && h->kind == GL_H_CTX ? h : NULL;
}

static CUresult enter_ctx(struct worker *w, uint64_t id)
{
	struct wk_handle *h;
	CUresult r;

	if (!id || id == w->cur_ctx)
		return CUDA_SUCCESS;
	h = ctx_entry(w, id);
	if (!h)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (h->status)
		return h->status;
	r = w->be->set_current(h->real);
	if (!r)
		w->cur_ctx = id;
	return r;
}

static int replay(struct worker *w, const struct gleam_rec *hdr, const unsigned char *body,
		  size_t blen)
{
	struct wk_call k = { .w = w, .hdr = *hdr, .body = body, .blen = blen, .tail = w->tail,
			     .tail_len = w->tail_len };
	struct gleam_reply rh = { .fn = hdr->fn, .tag = hdr->tag, .seq = hdr->seq };
	struct wk_handle *ce;
	wk_handler_fn fn = hdr->fn < GL_FN_LIMIT ? wk_handlers[hdr->fn] : NULL;
	CUresult r;
	int err;

	w->kept_error = false;
	if (!fn) {
		gl_err("record for %s (%u) has no replay here", gl_fn_name(hdr->fn), hdr->fn);
		r = CUDA_ERROR_NOT_SUPPORTED;
	} else {
		r = enter_ctx(w, hdr->ctx);
		if (!r)
			r = fn(&k);
	}
	w->replayed++;
	/* A failed context runs no more host functions: the shim stops waiting for them. */
	if (w->hf && gl_cuda_sticky(r))
		wk_host_ctx_failed(w, hdr->ctx);
	ce = ctx_entry(w, hdr->ctx);
	if (!(hdr->flags & GLEAM_REC_F_REPLY)) {
		/* Nobody waits: keep the first error for the next call that does. */
		if (r && r != CUDA_ERROR_NOT_READY && !w->kept_error) {
			CUresult *d = ce ? &ce->deferred : &w->session_err;

			if (!*d)
				*d = r;
			gl_dbg("deferred %s: error %d", gl_fn_name(hdr->fn), r);
		}
		free(k.reply);
		return 0;
	}
	/*
	 * An earlier asynchronous error rides on the next reply, but not on
	 * the reply of a call that made something: the caller would take the
	 * error for the call's own and drop what the worker holds for it (a
	 * handle, device memory).  The next call that waits tells it.
	 */
	if ((!r || r == CUDA_ERROR_NOT_READY) &&
	    !(hdr->fn < GL_FN_LIMIT && gl_fn_table[hdr->fn].creates)) {
		CUresult *d = ce && ce->deferred ? &ce->deferred :
			      (w->session_err ? &w->session_err : NULL);

		if (d) {
			r = *d;
			*d = CUDA_SUCCESS;
		}
	}
	rh.result = r;
	if (r && r != CUDA_ERROR_NOT_READY)
		k.rlen = 0;
	pthread_mutex_lock(&w->cq_lock);
	/*
	 * What the kernels printed reaches the program before a call that
	 * flushes the driver's printf buffer returns, and not before: output
	 * that a call waited for here only as Gleam's own means (the
	 * synchronisation behind an asynchronous copy to the host, say)
	 * waits for the program's own flush, as the driver's buffer would.
	 */
	if (w->out && wk_output_flush_point(hdr->fn))
		wk_output_send(w);
	err = wk_put_reply(w, &rh, k.reply, k.rlen, NULL, 0);
	pthread_mutex_unlock(&w->cq_lock);
	free(k.reply);
	return err;
}

/* Join pieces flagged MORE: the same argument block, data appended. */
static int assemble(struct worker *w, const struct gleam_rec *hdr, const unsigned char *body,
		    size_t blen, const unsigned char **out, size_t *olen)
{
	size_t alen = ALIGN8((size_t)gl_fn_args_size[hdr->fn]);

	if (!(hdr->flags & GLEAM_REC_F_MORE) && !w->asm_active) {
		*out = body;
		*olen = blen;
		return 1;
	}
	if (w->asm_active && hdr->fn != w->asm_fn)
		return -EPROTO;
	/* Every piece carries the argument block; later ones add only data. */
	if (alen > blen)
		return -EPROTO;
	if (w->asm_active) {
		body += alen;
		blen -= alen;
	}
	if (w->asm_len + blen > GLEAM_IMAGE_MAX + GLEAM_REC_MAX)
		return -E2BIG;
	if (w->asm_len + blen > w->asm_cap) {
		size_t cap = MAX(w->asm_len + blen, 2 * w->asm_cap);
		unsigned char *p = realloc(w->asm_buf, cap);

		if (!p)
			return -ENOMEM;
		w->asm_buf = p;
		w->asm_cap = cap;
	}
	if (blen)
		memcpy(w->asm_buf + w->asm_len, body, blen);
	w->asm_len += blen;
	w->asm_fn = hdr->fn;
	w->asm_active = true;
	if (hdr->flags & GLEAM_REC_F_MORE)
		return 0;
	*out = w->asm_buf;
	*olen = w->asm_len;
	return 1;
}

int worker_handle(struct worker *w, unsigned char *rec, uint32_t len)
{
	const unsigned char *body;
	struct gleam_rec hdr;
	size_t blen;
	int err;

	if (len < sizeof(hdr))
		return -EPROTO;
	memcpy(&hdr, rec, sizeof(hdr));
	hdr.len = len;
	/* Function 0 is padding, never a call: its reply would read as padding too. */
	if (hdr.reserved || (hdr.flags & ~GLEAM_REC_F_KNOWN) || hdr.fn >= GL_FN_LIMIT ||
	    !gl_fn_table[hdr.fn].name) {
		gl_err("malformed record header: ending the session");
		return -EPROTO;
	}
	err = assemble(w, &hdr, rec + sizeof(hdr), len - sizeof(hdr), &body, &blen);
	if (err < 0) {
		gl_err("bad record pieces: ending the session");
		return err;
	}
	if (err == 0)
		return 0;
	if (w->tail && body != rec + sizeof(hdr))
		return -EPROTO;
	err = replay(w, &hdr, body, blen);
	w->asm_len = 0;
	w->asm_active = false;
	return err;
}

int wk_rec_room(struct worker *w, size_t len)
{
	unsigned char *nb;

	if (len <= w->rec_cap)
		return 0;
	nb = realloc(w->rec, len);
	if (!nb)
		return -ENOMEM;
	w->rec = nb;
	w->rec_cap = len;
	return 0;
}

/*
 * How much of the record at p to copy out of the ring: all of it, but for
 * a whole copy to the device of WK_IN_PLACE_MIN bytes or more, whose
 * header and arguments are copied and whose bytes the backend reads where
 * they lie.  Only the bytes are read in place, and only by the copy:
 * nothing that is checked is read twice.
 */
static uint32_t copy_head(struct worker *w, const unsigned char *p, uint32_t len)
{
	struct gleam_rec h;
	uint32_t head;

	memcpy(&h, p, sizeof(h));
	if (w->asm_active || (h.flags & GLEAM_REC_F_MORE) || len < WK_IN_PLACE_MIN)
		return len;
	if (h.fn == GL_FN_cuMemcpyHtoD)
		head = sizeof(h) + ALIGN8(sizeof(struct gl_a_cuMemcpyHtoD));
	else if (h.fn == GL_FN_cuMemcpyHtoDAsync)
		head = sizeof(h) + ALIGN8(sizeof(struct gl_a_cuMemcpyHtoDAsync));
	else
		return len;
	return head < len ? head : len;
}

void wk_ring_warm(struct worker *w)
{
	if (w->populated)
		return;
	w->populated = true;
	gl_ring_populate(&w->ring);
}

/*
 * The next record, copied into w->rec: 1, 0 when there is none, -1 when
 * the ring is corrupt or memory short.  Records that a helper read ahead
 * while a host function waited come first; it reads under the same lock.
 */
static int take_record(struct worker *w, uint32_t *len, uint32_t *pos)
{
	bool ahead = w->hf != NULL;
	const unsigned char *p;
	int got = 1;

	if (ahead) {
		wk_host_rd_lock(w);
		if (wk_host_take(w, len, pos)) {
			wk_host_rd_unlock(w);
			return 1;
		}
	}
	p = gl_ring_peek(&w->ring.sq, sizeof(struct gleam_rec), GLEAM_REC_MAX, len);
	if (!p) {
		got = w->ring.sq.broken ? -1 : 0;
	} else if (wk_rec_room(w, *len)) {
		got = -1;
	} else {
		uint32_t head;

		if (*len >= WK_IN_PLACE_MIN)
			wk_ring_warm(w);
		head = ahead ? *len : copy_head(w, p, *len);

		/* One copy; the checks and the replay use only the copy. */
		memcpy(w->rec, p, head);
		w->tail = head < *len ? p + head : NULL;
		w->tail_len = *len - head;
		*pos = w->ring.sq.pos;
		gl_ring_consume(&w->ring.sq, *len);
		/* Bytes replayed from the ring keep their room until then. */
		if (!w->tail && gl_ring_consume_publish(&w->ring.sq))
			wk_bell(w);
		*len = head;
	}
	if (ahead)
		wk_host_rd_unlock(w);
	return got;
}

int worker_main(int ring_fd, int bell_fd, const char *backend, const char *cuda_lib,
		uint64_t features, uint64_t mem_session, uint64_t mem_tenant)
{
	struct worker w = { .bell = bell_fd, .features = features };
	const char *spin = getenv("GLEAM_WORKER_SPIN_US");
	const char *dma = getenv("GLEAM_WORKER_DMA");
	uint64_t spin_ns;
	int err;

	/* Spinning only pays where there are cores to spare. */
	spin_ns = spin ? strtoull(spin, NULL, 10) * 1000 :
		  sysconf(_SC_NPROCESSORS_ONLN) >= 8 ? 1000 * 1000 : 0;
	gl_log_prefix = "gleamd(worker)";
	on_main = true;
	pthread_mutex_init(&w.cq_lock, NULL);
	w.be = !strcmp(backend, "sim") ? &gl_backend_sim_rw : &gl_backend_cuda_rw;
	err = gl_ring_map(ring_fd, &w.ring);
	/*
	 * Copies to the device read the record ring by DMA through a second
	 * mapping where the backend page-locks one (wk_custom.c, htod());
	 * without it (or with GLEAM_WORKER_DMA=0, for comparison) they go
	 * through the driver's staging.
	 */
	if (!err && w.be->pin_records && !(dma && !strcmp(dma, "0"))) {
		void *m = mmap(NULL, w.ring.region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			       ring_fd, 0);

		w.alias = m == MAP_FAILED ? NULL : m;
	}
	close(ring_fd);
	if (err)
		return 2;
	if (w.be->init(cuda_lib)) {
		gl_err("backend %s failed to start", w.be->name);
		usage_release();
		return 3;
	}
	/* Its functions are the backend's own only once it started. */
	w.be = wk_quota_backend(w.be, mem_session, mem_tenant);
	for (;;) {
		uint64_t t0, t1;
		uint32_t len, pos;
		int got = take_record(&w, &len, &pos);

		if (got < 0) {
			if (w.ring.sq.broken)
				gl_err("session ring corrupted: ending the session");
			break;
		}
		if (!got) {
			/*
			 * The next record of a busy session often follows within
			 * microseconds: look a little longer before sleeping, so
			 * that a round trip does not pay for waking this process.
			 */
			if (spin_ns) {
				uint64_t end = gl_now_ns() + spin_ns;

				/* Yielding costs nothing on an idle core and lets others run. */
				while (gl_ring_empty(&w.ring.sq) && gl_now_ns() < end)
					sched_yield();
				if (!gl_ring_empty(&w.ring.sq))
					continue;
			}
			/* A count that costs a call is kept fresh while idle. */
			usage_update(&w, gl_now_ns());
			w.sleeps++;
			if (w.hf) {
				if (wk_host_idle(&w))
					break;
				continue;
			}
			gl_ring_cons_set_sleeping(&w.ring.sq, true);
			if (!gl_ring_empty(&w.ring.sq)) {
				gl_ring_cons_set_sleeping(&w.ring.sq, false);
				continue;
			}
			if (wait_bell(&w))
				break;
			gl_ring_cons_set_sleeping(&w.ring.sq, false);
			continue;
		}
		t0 = gl_now_ns();
		usage_waited(pos, t0);
		if (w.hf)
			wk_host_busy(&w, true);
		err = worker_handle(&w, w.rec, len);
		if (w.tail) {
			w.tail = NULL;
			if (gl_ring_consume_publish(&w.ring.sq))
				wk_bell(&w);
		}
		if (w.hf)
			wk_host_busy(&w, false);
		if (err)
			break;
		t1 = gl_now_ns();
		w.busy_ns += t1 - t0;
		usage_update(&w, t1);
		/* A session whose peer is gone stops now, not when its ring drains. */
		if (!(w.replayed & 63)) {
			struct pollfd pfd = { .fd = w.bell, .events = 0 };

			if (poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLERR)))
				break;
		}
	}
	gl_info("session replayed %llu records in %.3f ms; the worker slept %llu times; "
		"%llu copies to the device read by DMA from the page-locked ring",
		(unsigned long long)w.replayed, w.busy_ns / 1e6, (unsigned long long)w.sleeps,
		(unsigned long long)w.dma_htod);
	/* Host functions waiting for the shim, and the output's thread, stop. */
	wk_host_end(&w);
	wk_output_end(&w);
	/*
	 * Process exit releases every context, allocation and module on the
	 * GPU; the worker's own memory goes back here.
	 */
	usage_release();
	free(w.rec);
	free(w.asm_buf);
	free(w.h);
	gl_ring_unmap(&w.ring);
	if (w.alias)
		munmap(w.alias, w.ring.region_size);
	close(w.bell);
	return 0;
}

/*
 * "gleamd worker", started by the server from a fresh image: nothing of
 * the daemon's memory is here, only the descriptors it handed over and
 * the setup it sends first.  The process cannot be traced or dumped, so
 * that another worker of the same user cannot read the session's data.
 */
int worker_exec_main(void)
{
	static struct wk_setup st;
	ssize_t n;

	prctl(PR_SET_DUMPABLE, 0);
	gl_log_prefix = "gleamd(worker)";
	do
		n = recv(WK_FD_BELL, &st, sizeof(st), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(st) || st.magic != WK_SETUP_MAGIC) {
		gl_err("no setup from the server: exiting");
		return 2;
	}
	st.backend[sizeof(st.backend) - 1] = 0;
	st.cuda_lib[sizeof(st.cuda_lib) - 1] = 0;
	gl_log_level = (int)st.log_level;
	memcpy(wk_clusters, st.clusters, sizeof(wk_clusters));
	for (unsigned int i = 0; i < GLEAM_GPUS_MAX; i++)
		wk_have_clusters[i] = st.have_clusters[i];
	if (wk_usage_attach(WK_FD_USAGE))
		gl_err("cannot map the server's accounting: this worker goes uncounted");
	close(WK_FD_USAGE);
	if (st.gpu >= 0 && !st.ngpus) {
		st.gpus[0] = (uint8_t)st.gpu;
		st.ngpus = 1;
	}
	wk_usage_child(usage ? st.slot : -1, st.gpus, st.ngpus);
	return worker_main(WK_FD_RING, WK_FD_BELL, st.backend, st.cuda_lib, st.features,
			   st.mem_session, st.mem_tenant);
}
