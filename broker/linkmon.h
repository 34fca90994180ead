/* SPDX-License-Identifier: MIT */
/*
 * What a client gleamd knows of the link to each server
 * (Documentation/scheduler.md): round-trip time and delivery rate of its
 * own connections, loss, and the state of the interface the server is
 * reached through.  Every estimate is smoothed and carries its age.
 */
#ifndef GLEAM_LINKMON_H
#define GLEAM_LINKMON_H

#include <stdbool.h>
#include <stdint.h>

/* An exponentially weighted moving average and when it last moved. */
struct ewma {
	double v;
	uint64_t at;		/* ns of the last sample; 0: none yet */
	uint32_t n;		/* samples taken */
};

void ewma_add(struct ewma *e, double x, double alpha, uint64_t now);
/* Age in ns, or UINT64_MAX without a sample. */
uint64_t ewma_age(const struct ewma *e, uint64_t now);

/* The counters of one TCP connection, as last read. */
struct tcp_sample {
	uint64_t at;
	uint64_t bytes_acked;
	uint64_t busy_us;		/* time with data to send, however limited */
	uint32_t segs_out;
	uint32_t total_retrans;
};

struct link_est {
	struct ewma rtt_ping;		/* s: PING to PONG on the control connection */
	double rtt_last[4];		/* s: the last PINGs' round trips (half a second's) */
	unsigned int nrtt;
	struct ewma rtt_tcp;		/* s: the kernel's smoothed RTT (tcpi_rtt) */
	/*
	 * bytes/s acknowledged while a connection had data to send: v is the
	 * best of the last four samples (busy_last), at the last one's time.
	 */
	struct ewma rate_busy;
	double busy_last[4];
	/* bytes/s: the kernel's tcpi_delivery_rate, samples the sender did not limit */
	struct ewma rate_tcp;
	struct ewma loss;		/* retransmitted share of segments sent */
	/*
	 * Since the last link_flush(): bytes acknowledged and busy time, summed
	 * over every connection to the server, so that sessions sharing the link
	 * measure the link and not their share of it.
	 */
	uint64_t acc_acked;
	uint64_t acc_busy_us;
	uint64_t acc_since;		/* ns */
	/* The interface the server is reached through (rtnetlink). */
	int ifindex;			/* 0: not known */
	char ifname[16];
	bool if_up;			/* IFF_UP and carrier (IFF_LOWER_UP) */
	uint64_t if_errors;		/* rx + tx errors, as last read */
	uint64_t if_packets;
	uint64_t if_changed_at;		/* ns: carrier or errors last changed */
};

/*
 * The link's figures as the scheduler uses them; each comes with its age
 * (UINT64_MAX: a default, no measurement).  Which input wins is described
 * in Documentation/scheduler.md.
 */
double link_rtt(const struct link_est *l, uint64_t now, uint64_t *age, const char **src);
double link_rate(const struct link_est *l, uint64_t now, uint64_t *age, const char **src);
double link_loss(const struct link_est *l);
/* The least of the last four PING round trips (0.5 s): the path without queues; 0: none. */
double link_rtt_min(const struct link_est *l);
/*
 * Whether the kernel's figures describe the link: its RTT agrees with the
 * PINGs'.  Through a relay such as linkem the connection ends one hop
 * away, and its RTT and delivery rate are that hop's.
 */
bool link_tcp_trusted(const struct link_est *l);

/* Fallbacks before anything was measured. */
#define LINK_DEFAULT_RTT	0.001		/* s */
#define LINK_DEFAULT_RATE	(1e9 / 8)	/* bytes/s */
/*
 * The rate a link nothing was measured on is taken to have: the best
 * measured on any link (the scheduler sets it), else LINK_DEFAULT_RATE.
 * Never better than a link known, so a known good link is not left for a
 * guess; never worse, so that every link gets tried and measured.
 */
extern double link_assumed_rate;

/*
 * Read fd's TCP_INFO and feed l: RTT, the kernel's delivery rate, loss,
 * and the rate at which bytes were acknowledged while the connection was
 * busy.  prev holds the connection's counters from the last call.
 */
/* A connection's bytes acknowledged and time with data to send (us), as the kernel counts them. */
bool tcp_acked_busy(int fd, uint64_t *acked, uint64_t *busy_us);
void link_sample_tcp(struct link_est *l, int fd, struct tcp_sample *prev, uint64_t now);
void link_sample_ping(struct link_est *l, uint64_t sent_ns, uint64_t now);
/*
 * Once a tick: what the connections acknowledged since the last call, over
 * the time some connection was busy (the sum of their busy times, at most
 * the time that went by), is a sample of the link's rate.
 */
void link_flush(struct link_est *l, uint64_t now);

/*
 * rtnetlink (libnl-route): the interfaces, read again on every call of
 * linkmon_refresh(); 0 or -errno.  Without netlink the links are still
 * measured, only the interface state is unknown.
 */
int linkmon_open(void);
void linkmon_close(void);
void linkmon_refresh(void);
/* Which interface fd's local address is on: fills ifindex and ifname. */
void linkmon_bind(struct link_est *l, int fd);
/*
 * The interface's state now, into l; true when its carrier went away or it
 * was taken down since the last call (the server is unreachable through it).
 */
bool linkmon_iface(struct link_est *l, uint64_t now);

#endif /* GLEAM_LINKMON_H */
