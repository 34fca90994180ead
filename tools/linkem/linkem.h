/* SPDX-License-Identifier: MIT */
/*
 * linkem: a user-space TCP relay that behaves like one network link between
 * two brokers.  Private header shared by the parts of the tool.
 *
 * Directions: "up" carries bytes from the accepted (listening) side to the
 * connected side, "down" carries the replies back.
 */
#ifndef LINKEM_H
#define LINKEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NO_TIME		UINT64_MAX

enum { DIR_UP = 0, DIR_DOWN = 1, NR_DIRS = 2 };

/*
 * The ways a link dies (Documentation/linkem.md), by what the connections
 * open when it goes down meet: closed with a FIN, reset, reset with new
 * ones refused, or held with nothing passing.
 */
enum { DOWN_CLOSE, DOWN_RESET, DOWN_REFUSE, DOWN_BLACKHOLE, NR_DOWNS };
/* What a connection that comes while the link is down meets. */
enum { NEW_DEFAULT = -1, NEW_REFUSE, NEW_CLOSE, NEW_RESET, NEW_HOLD, NR_NEWS };

/* What one direction of the link does to the bytes that cross it. */
struct link_params {
	uint64_t rate_bps;	/* bits per second; 0: unlimited */
	uint64_t burst;		/* bucket depth in bytes; 0: automatic */
	uint64_t delay_ns;	/* one-way propagation delay */
	uint64_t jitter_ns;	/* extra delay, 0 .. jitter_ns */
};

struct settings {
	struct sockaddr_storage listen_addr;
	socklen_t listen_len;
	struct sockaddr_storage connect_addr;
	socklen_t connect_len;
	struct link_params dir[NR_DIRS];
	uint64_t cut_at_ns;	/* NO_TIME: no scheduled cut */
	uint64_t cut_for_ns;	/* NO_TIME: the scheduled cut is permanent */
	int cut_mode;		/* DOWN_*: how the scheduled cut kills the link */
	int cut_new;		/* NEW_*: what new connections meet during it */
	struct sockaddr_storage source_addr;	/* connect from here; family 0: any */
	socklen_t source_len;
	const char *control_path;
	const char *control_file;
	const char *capture;	/* every byte relayed, both ways, appended here; or NULL */
	bool json;
	uint64_t seed;
};

/* parse.c: every function returns 0 or -EINVAL. */
int parse_rate(const char *s, uint64_t *bps);
int parse_time(const char *s, uint64_t *ns);
int parse_size(const char *s, uint64_t *bytes);
int parse_addr(const char *s, bool passive, struct sockaddr_storage *ss,
	       socklen_t *len);
/* "close", "reset", "refuse", "blackhole" (and "cut", "stall"): DOWN_*. */
int parse_down(const char *s, int *mode);
/* "refuse", "close", "reset", "hold": NEW_*. */
int parse_new(const char *s, int *fate);
const char *down_name(int mode);
const char *new_name(int fate);
/* What a way of dying does to new connections unless told otherwise. */
int down_default_new(int mode);
void format_rate(char *buf, size_t len, uint64_t bps);
void format_time(char *buf, size_t len, uint64_t ns);
void format_addr(char *buf, size_t len, const struct sockaddr *sa,
		 socklen_t salen);

/* link.c: the model of one direction of the link. */
struct relay_half;

struct token_bucket {
	uint64_t rate_bps;
	uint64_t depth;		/* bytes */
	uint64_t quantum;	/* smallest grant worth a wake-up, bytes */
	double tokens;		/* bytes */
	uint64_t last_ns;
};

/*
 * Jitter as a piecewise-linear random walk: a new target in [0, amp] every
 * 2 * amp nanoseconds.  Its slope stays within +-1/2, so release times
 * t + delay + j(t) never decrease and no byte overtakes another.
 */
struct jitter {
	uint64_t amp_ns;
	uint64_t t0, t1;
	uint64_t j0, j1;
	uint64_t rng;
};

enum { EV_DATA, EV_EOF, EV_CONNECT };

struct link_event {
	uint64_t when;
	struct relay_half *half;
	uint64_t end;		/* EV_DATA: the half's read position */
	unsigned int kind;
};

/* Delay line: events in release order (release times never decrease). */
struct event_fifo {
	struct link_event *ev;
	size_t cap;		/* power of two */
	size_t head;
	size_t len;
};

struct link_dir {
	struct link_params p;
	struct token_bucket tb;
	struct jitter jit;
	uint64_t last_release;
	struct event_fifo fifo;
	uint64_t ring_limit;	/* most bytes one half may hold */
	bool backlog;		/* senders were waiting at the last service */
	uint64_t bytes_in;	/* read from the sender */
	uint64_t bytes_out;	/* written to the receiver */
};

void link_dir_init(struct link_dir *ld, const struct link_params *p,
		   uint64_t seed, uint64_t now);
void link_dir_set(struct link_dir *ld, const struct link_params *p,
		  uint64_t now);
void bucket_refill(struct token_bucket *tb, uint64_t now, bool backlog);
bool bucket_ready(const struct token_bucket *tb);
uint64_t bucket_grant(const struct token_bucket *tb, uint64_t want);
void bucket_take(struct token_bucket *tb, uint64_t n);
uint64_t bucket_ready_at(const struct token_bucket *tb, uint64_t now);
uint64_t link_release_time(struct link_dir *ld, uint64_t now);
int fifo_push(struct event_fifo *f, const struct link_event *e);
struct link_event *fifo_peek(struct event_fifo *f);
void fifo_pop(struct event_fifo *f);
void fifo_free(struct event_fifo *f);

/* relay.c: the event loop. */
struct relay;

int relay_create(struct relay **rp, const struct settings *s);
int relay_run(struct relay *r);
void relay_destroy(struct relay *r);
int relay_listen_addr(struct relay *r, char *buf, size_t len);

/* Commands that change the link while it runs (relay.c). */
int relay_set_params(struct relay *r, int dir, const struct link_params *p);
void relay_get_params(struct relay *r, int dir, struct link_params *p);
uint64_t relay_bucket_depth(struct relay *r, int dir);
/*
 * The link goes down the way mode says for duration_ns (NO_TIME: until
 * restored; 0: only what it does to the open connections), and new
 * connections meet fate meanwhile (NEW_DEFAULT: the mode's own).
 */
void relay_down(struct relay *r, int mode, int fate, uint64_t duration_ns);
void relay_restore(struct relay *r);
/* Connections to the target come from this address from now on (len 0: any). */
void relay_set_source(struct relay *r, const struct sockaddr_storage *ss, socklen_t len);
int relay_stats_json(struct relay *r, char *buf, size_t len);
void relay_stats_text(struct relay *r, FILE *f);

/* control.c */
int control_exec(struct relay *r, const char *line, char *reply, size_t len);
int control_apply_file(struct relay *r, const char *path);
int control_client(const char *path, int argc, char **argv);
void print_params(FILE *f, const char *name, const struct link_params *p,
		  uint64_t depth);

uint64_t mono_ns(void);

#endif
