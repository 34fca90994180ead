/* SPDX-License-Identifier: MIT */
/*
 * The replay worker: one process per session on the server.  It reads
 * records from its ring, maps the shim's handle ids to the backend's real
 * handles, replays each call, and answers those that asked for a reply.
 */
#ifndef GLEAM_WORKER_H
#define GLEAM_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cuda.h>

#include "gleam_api_gen.h"
#include "gleam_record.h"
#include "gleam_wire.h"
#include "ring.h"
#include "backend_gen.h"

/* What a replay backend provides beyond the table's functions. */
struct gl_backend {
	const char *name;
	struct gl_backend_ops op;
	CUresult (*init)(const char *lib);
	/* Devices for cuInit's reply; *n set to how many were filled. */
	CUresult (*devices)(int *driver_version, struct gleam_devinfo *d, unsigned int max,
			    unsigned int *n);
	CUresult (*set_current)(CUcontext ctx);
	/* Parameter layout and attributes of a function or kernel. */
	CUresult (*func_info)(CUfunction f, struct gleam_funcinfo *fi, struct gleam_param *p,
			      unsigned int max);
	CUresult (*kernel_info)(CUkernel k, struct gleam_funcinfo *fi, struct gleam_param *p,
				unsigned int max);
	/*
	 * Device memory this process holds on *dev, for gleamctl server-info;
	 * false when there is nothing to say (no context).  mem_exact: the
	 * backend counts its allocations, cheaply; else the answer is the
	 * driver's used memory of the whole device, and costs a call.
	 */
	bool (*mem_in_use)(unsigned int *dev, uint64_t *bytes);
	bool mem_exact;
	/*
	 * After cuInit: how clusters fit device dev (cluster_probe.h); asked
	 * once, when the server starts.  NULL: the backend cannot say.
	 */
	CUresult (*cluster_table)(int dev, struct gleam_cluster_table *t);
	/*
	 * The reply ring's data area (n bytes at p), page-locked for the
	 * current context where the backend can: a copy to the host is then
	 * written into its reply pieces by the device's own DMA, with no copy
	 * through the driver's staging memory.  Asked before each copy that
	 * fills its pieces in place; NULL: nothing to do (the sim).
	 */
	void (*pin_replies)(void *p, size_t n);
	/*
	 * The record ring's data area as a second mapping (n bytes at p),
	 * page-locked for the current context where the backend can; true
	 * when it is.  Only copies that are complete when the worker goes on
	 * read it (wk_custom.c, htod()); every other use of the ring goes
	 * through its first mapping, which the driver treats as pageable.
	 * NULL: nothing to do (the sim).
	 */
	bool (*pin_records)(void *p, size_t n);
};

/*
 * Each server GPU's cluster table, probed when the server started; the
 * workers it starts answer cuInit with them (they come in struct
 * wk_setup).
 */
extern struct gleam_cluster_table wk_clusters[GLEAM_GPUS_MAX];
extern bool wk_have_clusters[GLEAM_GPUS_MAX];

extern struct gl_backend gl_backend_cuda_rw;
extern struct gl_backend gl_backend_sim_rw;

struct wk_handle {
	uint64_t id;		/* 0: empty slot */
	uint32_t kind;
	CUresult status;	/* a failed creation: later uses return this */
	void *real;
	CUresult deferred;	/* contexts: an asynchronous error not yet reported */
	bool renewable;		/* mapped by a renewal (a primary context): may be again */
	uint64_t owner;		/* what it goes with: a node's graph, a body's node (wk_graph.c) */
};

/*
 * The worker's own kind of handle: a graph the driver made for a
 * conditional node, which goes with the node (the program may not
 * destroy, instantiate or launch it).
 */
#define WK_H_BODY	(GL_H_LIMIT + 1)

struct wk_host;
struct wk_output;

struct worker {
	const struct gl_backend *be;
	struct gl_ring ring;
	int bell;
	uint64_t features;	/* the session's GLEAM_WIRE_F_* */
	/*
	 * Host functions and device output (wk_host.c, wk_output.c): the
	 * shim asked at cuInit and the client carries their messages.
	 */
	bool host;
	struct wk_host *hf;	/* host functions queued; NULL before the first */
	struct wk_output *out;	/* the program's output, captured; NULL: none */
	/*
	 * A reply piece being filled in the ring by this thread with cq_lock
	 * released (a copy to the host): replies put meanwhile are published
	 * with it.  cq_filled: its bytes are in, and a thread that waits for
	 * room behind it may publish it (worker.c, cq_room()).
	 */
	bool cq_hold;
	atomic_bool cq_filled;
	/*
	 * Replies come from this thread, and from the threads that run host
	 * functions and carry output: one at a time on the CQ.
	 */
	pthread_mutex_t cq_lock;
	struct wk_handle *h;	/* open addressing, power-of-two size */
	size_t hcap, hcount;
	uint64_t cur_ctx;	/* id current on the backend, 0: none */
	CUresult session_err;	/* deferred error of records without a context */
	unsigned char *asm_buf;	/* pieces of a record flagged MORE */
	size_t asm_len, asm_cap;
	unsigned int asm_fn;
	bool asm_active;	/* a record in pieces is being joined */
	unsigned char *rec;	/* the record being replayed, copied out of the ring */
	size_t rec_cap;
	/*
	 * A large copy to the device is replayed from the ring: rec holds its
	 * header and arguments, its bytes stay where they lie (tail), and the
	 * ring keeps their room until the replay is done.
	 */
	const unsigned char *tail;
	size_t tail_len;
	/*
	 * The whole ring (ring.region_size bytes) mapped a second time where
	 * the backend page-locks it (pin_records), for copies to the device by
	 * the device's DMA from the record ring; NULL: none.
	 */
	unsigned char *alias;
	uint64_t replayed;
	uint64_t dma_htod;		/* copies to the device read from the page-locked ring */
	bool populated;			/* the ring's pages mapped at once (wk_ring_warm()) */
	uint64_t busy_ns;		/* time spent replaying */
	uint64_t sleeps;		/* times the worker waited for a doorbell */
	bool captured;		/* a capture was begun: a stream may be capturing */
	bool kept_error;	/* the last creation's failure is kept with its handle */
	struct wk_levels *levels;	/* mipmapped arrays' levels handed out (wk_array.c) */
	struct wk_twins *twins;		/* mapped and managed memory kept in step (wk_vmm.c) */
};

/* One record in replay. */
struct wk_call {
	struct worker *w;
	struct gleam_rec hdr;
	const unsigned char *body;
	size_t blen;
	size_t pos;		/* next variable part */
	const unsigned char *tail;	/* the data after body, left in the ring */
	size_t tail_len;
	unsigned char *reply;	/* reply body being built */
	size_t rlen, rcap;
	size_t rstruct;		/* size of the fixed reply part */
};

/*
 * A worker starts from a fresh image (the server forks and executes
 * "gleamd worker"), with its ring on descriptor 3, its bell on 4 and the
 * usage table on 5; the first message on its bell is this: everything
 * else it needs from the server, which it no longer inherits.
 */
#define WK_SETUP_MAGIC		0x6b726f77	/* "work" */
#define WK_FD_RING		3
#define WK_FD_BELL		4
#define WK_FD_USAGE		5

struct wk_setup {
	uint32_t magic;
	uint32_t log_level;
	char backend[16];
	char cuda_lib[256];
	int32_t slot;		/* in the usage table, or -1 */
	int32_t gpu;		/* its one GPU (the server's index), or -1: all or gpus */
	uint8_t gpus[GLEAM_HELLO_GPUS_MAX];	/* ngpus > 0: its GPUs, device by device */
	uint32_t ngpus;
	uint32_t tenant;	/* its tenant's index in the usage table */
	uint32_t pad;
	uint64_t mem_session;	/* device memory it may allocate; 0: no limit */
	uint64_t mem_tenant;	/* ... its tenant's workers together */
	uint64_t features;	/* GLEAM_WIRE_F_*: what its session's shim asked for */
	uint8_t have_clusters[GLEAM_GPUS_MAX];
	struct gleam_cluster_table clusters[GLEAM_GPUS_MAX];
};

/* "gleamd worker": read the setup, attach, replay; the exit status. */
int worker_exec_main(void);

/*
 * What the live workers hold, in memory that the server shares with them
 * (worker.c, a memfd the server hands each worker).  Each worker keeps a
 * slot of its own up to date, and the server adds the slots of the
 * workers that still live.
 */
int wk_usage_init(void);
/* The table's descriptor, for a worker to map; -1 without one. */
int wk_usage_fd(void);
/* The worker: map the table from fd; 0 or -errno. */
int wk_usage_attach(int fd);
/*
 * The server, before it forks a worker: a slot for it, counted for tenant
 * (its index, < WK_TENANTS), or -1 (it goes uncounted).
 */
int wk_usage_take(unsigned int tenant);
/* The server, after the fork: the worker's pid, or <= 0 when the fork failed. */
void wk_usage_bind(int slot, pid_t pid);
/*
 * The worker, first thing: its slot, and its n GPUs by the server's index,
 * device by device (n 0: every GPU of the server).
 */
void wk_usage_child(int slot, const uint8_t *gpus, unsigned int n);
/* Tenants the usage table counts device memory for (= TENANTS_MAX). */
#define WK_TENANTS		1024
/*
 * The worker: delta bytes of device memory allocated (> 0) or freed
 * (< 0), counted on its slot and its tenant; false, and nothing counted,
 * when the tenant's workers together would pass limit (0: none).
 */
bool wk_usage_charge(int64_t delta, uint64_t limit);
/*
 * The worker: a backend whose allocations are counted against the
 * session's limit and the tenant's (wk_quota.c); be itself when there are
 * none.
 */
const struct gl_backend *wk_quota_backend(const struct gl_backend *be, uint64_t session,
					  uint64_t tenant);
/*
 * The server: it has put records on the ring of the worker pid (slot) up
 * to pos, the SQ's producer position, at now; their wait starts then.
 */
void wk_usage_stamp(int slot, pid_t pid, uint32_t pos, uint64_t now);
/*
 * The server, once a second: the mean wait of the records begun since the
 * last tick, and each GPU's utilisation over it (the sim's own count, or
 * the NVML sampler's last reading).
 */
void wk_usage_tick(const char *backend, unsigned int ngpus, uint64_t now);
/* The server: the sums for INFO; backend is the server's ("sim" or "cuda"). */
void wk_usage_sum(const char *backend, unsigned int ngpus, struct gleam_server_usage *u,
		  struct gleam_gpu_usage *g);
/* The NVML sampler: GPU gpu (the server's index) was pct busy just now. */
void wk_gpu_util(unsigned int gpu, unsigned int pct);

/*
 * Two numberings of devices: the session's, as the program sees them over
 * all its servers, which records carry; and the backend's, this server's
 * devices only, in the same order (what NVIDIA's driver shown only those
 * GPUs numbers).  Without a list of GPUs both are every GPU of the server.
 *
 * How many GPUs of this server the worker has (the backend's devices
 * 0..n-1), or 0: it sees them all.
 */
unsigned int wk_ngpus(void);
/* How many devices the session has over all its servers, or 0 as above. */
unsigned int wk_session_ngpus(void);
/* The server's index of the backend's device dev. */
unsigned int wk_server_gpu(unsigned int dev);
/* Device dev of the session is another server's (GLEAM_HELLO_GPU_ELSEWHERE). */
bool wk_gpu_elsewhere(unsigned int dev);
/* The backend's number for the session's device dev, or -1: none here. */
int wk_dev_local(int64_t dev);
/* A location's id as the backend numbers it: a device's is renumbered. */
static inline int wk_loc_id(int64_t type, int64_t id)
{
	return type == CU_MEM_LOCATION_TYPE_DEVICE ? wk_dev_local(id) : (int)id;
}
/*
 * The sim: ns of work queued on device dev, which its server's other
 * workers share; returns when (gl_now_ns()) the work ends, after what
 * is queued before it.
 */
uint64_t wk_gpu_queue(unsigned int dev, uint64_t ns);
/* The sim: ns of work that ran on device dev just now. */
void wk_gpu_ran(unsigned int dev, uint64_t ns);

/* Check and replay one record copied out of the ring; <0 ends the session. */
int worker_handle(struct worker *w, unsigned char *rec, uint32_t len);
/*
 * A message on the CQ, cq_lock held: h, then a and b each padded to 8
 * bytes; waits for room.  0 or -EPIPE (the session is gone).
 */
int wk_put_reply(struct worker *w, const struct gleam_reply *h, const void *a, size_t alen,
		 const void *b, size_t blen);
/* w->rec holds at least len bytes: 0 or -ENOMEM. */
int wk_rec_room(struct worker *w, size_t len);
/* Ring the server: replies published or records consumed (any thread). */
void wk_bell(struct worker *w);

/*
 * Host functions and stream callbacks (wk_host.c).  The SQ is read by
 * this thread, and while a host function waits for the shim and this
 * thread is busy, by a helper that reads ahead for the shim's answer:
 * wk_host_take() gives the records read ahead first, in order.
 */
void wk_host_rd_lock(struct worker *w);
void wk_host_rd_unlock(struct worker *w);
/* A record read ahead, into w->rec: its length and ring position; false: none. */
bool wk_host_take(struct worker *w, uint32_t *len, uint32_t *pos);
/* This thread begins or ends the replay of a record. */
void wk_host_busy(struct worker *w, bool busy);
/*
 * Once host functions are in use their helper alone takes the doorbells:
 * the main thread sleeps for records here, and any thread for room on the
 * CQ (having asked for a doorbell).  0, or -EPIPE: the session is over.
 */
int wk_host_idle(struct worker *w);
int wk_host_space_wait(struct worker *w);
/* A context failed (sticky error ctx_err): its host functions will not run. */
void wk_host_ctx_failed(struct worker *w, uint64_t ctx);
/* The session ends: whatever waits for the shim stops waiting. */
void wk_host_end(struct worker *w);
/*
 * The reusable part, for host nodes of graphs built node by node: the
 * function and data the driver calls for the shim's host function id,
 * kept for the session (it runs at every launch of the graph).
 */
CUresult wk_host_node(struct worker *w, uint64_t id, uint64_t ctx, CUhostFn *fn, void **data);

/*
 * The program's output (wk_output.c): what the driver and the sim's
 * kernels write to this process's stdout and stderr goes to the shim.
 */
int wk_output_start(struct worker *w);
/* Send what is held, cq_lock held (before a reply, before a host function's run). */
void wk_output_send(struct worker *w);
/* Whether the driver flushes the printf buffer in function fn (before its reply). */
bool wk_output_flush_point(unsigned int fn);
void wk_output_end(struct worker *w);

typedef CUresult (*wk_handler_fn)(struct wk_call *k);
extern const wk_handler_fn wk_handlers[GL_FN_LIMIT];

/* Helpers for the handlers: each returns NULL when the record is short. */
const void *wk_args(struct wk_call *k, size_t len);
const char *wk_str(struct wk_call *k, uint64_t len);
const void *wk_data(struct wk_call *k, uint64_t len);
/* A large copy is coming: at the session's first, the ring's pages are mapped at once. */
void wk_ring_warm(struct worker *w);
void *wk_reply_struct(struct wk_call *k, size_t len);
void *wk_reply_data(struct wk_call *k, uint64_t len);
/*
 * A copy to the device of this many bytes or more is replayed from its
 * bytes where they lie in the SQ (worker.c).  A copy to the host is
 * filled into its reply pieces in the CQ, but in a session with host
 * functions one smaller than this goes through a buffer (wk_custom.c).
 */
#define WK_IN_PLACE_MIN	(64U << 10)
/* Send a data piece for this record now (copies to host memory). */
int wk_reply_piece(struct wk_call *k, uint64_t offset, const void *p, uint64_t len);
CUresult wk_reply_piece_fill(struct wk_call *k, uint64_t offset, uint64_t len,
			     CUresult (*fill)(void *arg, void *dst, uint64_t offset, size_t len),
			     void *arg);

CUresult wk_handle(struct worker *w, unsigned int kind, uint64_t id, void **real);
CUresult wk_stream(struct worker *w, uint64_t id, CUstream *s);
void wk_handle_new(struct worker *w, unsigned int kind, uint64_t id, void *real, CUresult r);
/* Whether id cannot name a new handle: in use, or one of the special values. */
bool wk_handle_taken(struct worker *w, uint64_t id);
void wk_handle_del(struct worker *w, unsigned int kind, uint64_t id);
/* Handle id goes with owner: deleting owner deletes it (wk_graph.c). */
void wk_handle_set_owner(struct worker *w, uint64_t id, uint64_t owner);
uint64_t wk_handle_owner(struct worker *w, uint64_t id);
/* Up to max ids of the handles whose owner owner() accepts, into ids; how many. */
size_t wk_handle_owned(struct worker *w, bool (*owner)(void *, uint64_t), void *arg,
		       uint64_t *ids, size_t max);
/* Handle id goes, whatever its kind, and nothing with it. */
void wk_handle_unmap(struct worker *w, uint64_t id);
/* The id of the handle of kind that maps real, or 0. */
uint64_t wk_handle_find(struct worker *w, unsigned int kind, const void *real);
/* wk_graph.c: a graph, a node or a body graph went: what it owned goes too. */
void wk_graph_forget(struct worker *w, uint64_t id);
/*
 * A renewal (a primary context retained again) may map an id that is free
 * or that an earlier renewal of the same kind mapped, never another handle.
 */
bool wk_handle_renew_ok(struct worker *w, unsigned int kind, uint64_t id);
void wk_handle_renewed(struct worker *w, unsigned int kind, uint64_t id, void *real, CUresult r);
/*
 * A copy with host memory here must not reach a capturing stream: its
 * node would read or write the worker's buffer whenever the graph ran
 * (wk_custom.c).  CUDA_SUCCESS when s is not capturing.
 */
CUresult wk_not_capturing(struct wk_call *k, CUstream s);
/* The backend's current context changed behind the worker's back. */
void wk_current_changed(struct worker *w, uint64_t id);

#endif /* GLEAM_WORKER_H */
