/* SPDX-License-Identifier: MIT */
/*
 * The client gleamd's scheduler (Documentation/scheduler.md): the servers
 * it knows and what each reports, the link to each, what each program
 * moved last time, pins, and where a new session goes.
 */
#ifndef GLEAM_SCHEDULER_H
#define GLEAM_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "nameset.h"
#include "gleamd.h"
#include "linkmon.h"

#define SCHED_SERVERS_MAX	32
#define SCHED_PROGRAMS_MAX	128
#define SCHED_PINS_MAX		64
#define SCHED_LOG_MAX		64
#define SCHED_TOP		3
/* Upload names remembered per program and per server, at most. */
#define SCHED_PROG_NAMES_MAX	65536
#define SCHED_HELD_MAX		(1U << 18)

enum srv_state { SRV_DOWN, SRV_CONNECTING, SRV_UP };

struct sched_gpu {
	struct gleam_gpu_info info;
	struct gleam_gpu_usage usage;	/* zero where the server does not say */
	struct gleam_gpu_nvml nvml;	/* likewise (GLEAM_WIRE_F_NVML) */
	unsigned int own;		/* this client's live sessions on it */
	unsigned int live_at_info;	/* ... when the last INFO came */
	unsigned int own_at_info;	/* those, and ours that had just ended */
	uint64_t ended[4];		/* ns: when ours there last ended */
	unsigned int nended;
};

struct server {
	bool used;			/* the slot holds a server */
	bool removed;			/* taken off the list; kept while sessions use it */
	bool added;			/* added at run time: kept in the state file */
	char name[256];			/* host[:port], as given */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	enum srv_state state;
	uint64_t state_since;		/* ns */
	bool been_up;			/* answered a hello since gleamd started */
	uint64_t first_try;		/* ns: the first attempt to reach it; 0: none yet */
	uint64_t heard_at;		/* ns: a session's connection last heard from it */
	uint64_t down_since;		/* ns: the drop after it was last up; 0: up or never */
	char why[64];			/* why it is down */
	uint64_t retry_at;		/* ns: the next connection attempt */
	unsigned int tries;
	void *conn;			/* client.c's control connection, or NULL */
	/* Uploads' bytes that crossed to it as bytes: before packing, and on the wire. */
	uint64_t pack[2];
	/* The link's rate as its sessions' sends measured it (naming uploads). */
	struct pack_link send_link;
	/* What the last INFO said. */
	bool have_info, have_usage, have_nvml;
	uint64_t info_at, info_asked;	/* ns */
	struct gleam_server_info info;
	struct gleam_server_usage usage;
	struct sched_gpu gpus[GLEAM_GPUS_MAX];
	uint64_t ping_sent;		/* ns: the PING in flight; 0: none */
	uint64_t last_heard;		/* ns: the last frame from it */
	struct link_est link;
	struct tcp_sample ctl_tcp;	/* the control connection's counters */
	unsigned int own;		/* this client's live sessions on it */
	uint64_t placed;		/* sessions placed here since start */
	struct nset held;		/* chunk names it holds; count: their bytes */
};

/* The state a server must be in to be chosen. */
bool sched_usable(const struct server *s, uint64_t now);

/*
 * A pin: every session of `what` (vgpuN, or "socket") goes to server:gpu,
 * or, given a list of GPUs, gets them as its devices 0..n-1 in that order
 * (server and gpu are then the first's, as far as it was known).
 */
struct sched_pin {
	char what[16];
	char server[256];
	int gpu;			/* -1: whichever of its GPUs placement prefers */
	char list[128];			/* GPU[,GPU...] as given, each a UUID or SERVER:GPU; "": none */
};

struct sched_cand {
	int srv;			/* index in the table */
	int gpu;
	double t;			/* predicted completion, s */
	/*
	 * Its parts: the link's (bytes and round trips), the GPU's; and what
	 * they came from: the link's rate (bytes/s) and round trip (s), the
	 * other sessions counted on the GPU.
	 */
	double link_s, gpu_s, rate, rtt, others;
};

/* Where a new session goes, and why. */
struct sched_choice {
	struct server *srv;		/* NULL: no server at all */
	int gpu;			/* the GPU counted; -1: not known */
	bool gpu_named;			/* named in the hello (GLEAM_WIRE_F_GPU) */
	char why[96];
	struct sched_cand top[SCHED_TOP];
	unsigned int ntop;
};

/* Servers from the config and the state file, pins from the state file. */
void sched_init(struct config *c);
struct server *sched_server(unsigned int i);	/* NULL past the end or for a free slot */
const char *sched_placement(void);

/*
 * gleamctl: 0, or -errno with a message in err.  sched_assign may also
 * return 0 with a message, which is then a warning ("warning: ...").
 */
int sched_server_add(const char *name, char *err, size_t len);
int sched_server_remove(const char *name, char *err, size_t len);
int sched_assign(const char *what, const char *target, char *err, size_t len);
int sched_assign_clear(const char *what, char *err, size_t len);

/*
 * Choose for a new session of program, arriving by via ("socket" or
 * "vgpuN"); counts it on the chosen server and GPU.  id names it in the log.
 */
void sched_place(uint64_t id, const char *program, const char *via, struct sched_choice *c);
/* The same, but where srv (and gpu, or -1) say: a pin's list of GPUs read through the program's. */
void sched_place_on(uint64_t id, const char *program, const char *via, struct server *srv,
		    int gpu, struct sched_choice *c);
/* A name the session's server now holds (it answered held, or the bytes went). */
void sched_held(struct server *s, const struct chunk_name *name, uint32_t len);

/* What a session moved, handed over when it ends. */
struct sched_run {
	const char *program;
	uint64_t id;
	uint64_t wall_ns;
	uint64_t bytes_up;		/* would have crossed without the cache */
	uint64_t bytes_crossed;		/* what did cross */
	uint64_t bytes_down;
	uint64_t records;
	uint64_t waits;
	const struct chunk_name *names;	/* what it uploaded by name */
	const uint32_t *lens;
	uint32_t nnames;
};
void sched_session_end(struct server *s, int gpu, const struct sched_run *r);

/*
 * Where a new session of program, arriving by via, would go now, without
 * counting it anywhere: what its libnvidia-ml.so.1 shows (the same GPUs
 * its libcuda.so.1 will see).
 */
void sched_preview(const char *program, const char *via, struct sched_choice *c);

/*
 * Whether a new session of via must be refused now, and why (a line that
 * names the servers): every server it may go to has been unreachable for
 * longer than the grace period or was never reached, or its pin names a
 * GPU its server does not have.  A session whose server was lost a moment
 * ago waits for it instead, as a dropped session does.
 */
bool sched_refuse(const char *via, char *why, size_t len);
/*
 * A program's CUDA_VISIBLE_DEVICES read against the GPUs its session may
 * use on server s: the GPU a pin of via names, else all of them (the GPU
 * placement would have chosen yields to the program's own choice).  The
 * server's indexes of the GPUs it names, in its order, into gpus (at most
 * max); their number, or with the reason in why -1 (it names none) or -2
 * (it names one twice, which the driver takes for an invalid device).
 */
int sched_visible(const struct server *s, const char *via, const char *visible, uint8_t *gpus,
		  unsigned int max, char *why, size_t len);
/*
 * The same list read against every server this gleamd knows: UUIDs name
 * GPUs of any server, indexes GPUs of first.  Each entry's server and GPU
 * into srv and gpus (at most max); their number, or -1 or -2 with why as
 * sched_visible().
 */
int sched_visible_span(struct server *first, const char *visible, struct server **srv,
		       uint8_t *gpus, unsigned int max, char *why, size_t len);
/*
 * The GPUs a pin of several names for via, each entry's server and GPU
 * into srv and gpus (at most max), read through visible (the program's
 * CUDA_VISIBLE_DEVICES, NULL: none), whose indexes count the pin's GPUs
 * and whose UUIDs must be among them.  0: no such pin; their number; or
 * -1 (a server has not said what GPUs it has, or none named) or -2 (a
 * GPU twice, or one no server has) with why.
 */
int sched_pin_list(const char *via, const char *visible, struct server **srv, uint8_t *gpus,
		   unsigned int max, char *why, size_t len);
void sched_retry_now(const char *via);
/*
 * A session's own connection to s answered: s is reachable, whatever its
 * control connection says (it may be retrying after a drop the session's
 * connection has already come back from).
 */
void sched_heard(struct server *s, uint64_t now);

/* The control connection: up (its hello answered), frames, gone. */
void sched_link_up(struct server *s, int fd, uint64_t now);
bool sched_on_info(struct server *s, const void *p, uint32_t len, uint64_t now);
void sched_on_pong(struct server *s, const void *p, uint32_t len, uint64_t now);
void sched_link_down(struct server *s, const char *why, uint64_t now);

/*
 * What the scheduler wants done now, for client.c's tick: a connection to
 * open, a frame to send, a connection to give up; role is what
 * sched_tick() was given.
 */
struct sched_ops {
	void (*connect)(void *role, struct server *s);
	void (*send)(void *role, struct server *s, uint16_t type, const void *p, uint32_t len);
	void (*drop)(void *role, struct server *s, const char *why);
};
void sched_tick(const struct sched_ops *ops, void *role, uint64_t now);

/* gleamctl stats, servers: malloc'd text or JSON. */
char *sched_stats(bool json);
char *sched_servers(bool json);

/* The model alone, for tests: predicted seconds of profile p on s:gpu. */
struct sched_prog;
double sched_predict(const struct sched_prog *p, const struct server *s, int gpu, uint64_t now,
		     struct sched_cand *parts);

#endif /* GLEAM_SCHEDULER_H */
