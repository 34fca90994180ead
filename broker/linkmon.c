// SPDX-License-Identifier: MIT
/*
 * Link monitoring for the scheduler (Documentation/scheduler.md): the
 * estimates, gleamd's PING round trips, and the interfaces through
 * rtnetlink (libnl-route).  TCP_INFO is read in tcpinfo.c, whose kernel
 * header does not mix with libnl's.
 */
#include <errno.h>
#include <stddef.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/netlink.h>
#include <netlink/cache.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>

#include "linkmon.h"
#include "util.h"

/* linux/if.h's, which net/if.h leaves out. */
#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP	0x10000
#endif

void ewma_add(struct ewma *e, double x, double alpha, uint64_t now)
{
	/* The first sample is taken whole: an average of nothing is no start. */
	e->v = e->n ? e->v + alpha * (x - e->v) : x;
	e->at = now;
	e->n++;
}

uint64_t ewma_age(const struct ewma *e, uint64_t now)
{
	return e->n ? now - MIN(e->at, now) : UINT64_MAX;
}

double link_assumed_rate = LINK_DEFAULT_RATE;

/* Estimates older than this give way to others, or to the defaults. */
#define FRESH_NS	(30ULL * 1000000000ULL)

/*
 * The application's own round trip wins: it is what a program's waits
 * pay, and under an emulated link it is the only one that crosses it.
 * The kernel's RTT stands in until the first PONG.
 */
bool link_tcp_trusted(const struct link_est *l)
{
	if (!l->rtt_tcp.n)
		return false;
	/* Before the first PONG there is nothing to disagree with. */
	return !l->rtt_ping.n || 2 * l->rtt_tcp.v + 0.0005 >= l->rtt_ping.v;
}

double link_rtt_min(const struct link_est *l)
{
	double m = 0;

	for (unsigned int i = 0; i < MIN(l->nrtt, (unsigned int)ARRAY_SIZE(l->rtt_last)); i++)
		if (!m || l->rtt_last[i] < m)
			m = l->rtt_last[i];
	return m;
}

double link_rtt(const struct link_est *l, uint64_t now, uint64_t *age, const char **src)
{
	if (l->rtt_ping.n) {
		*age = ewma_age(&l->rtt_ping, now);
		*src = "ping";
		return l->rtt_ping.v;
	}
	if (l->rtt_tcp.n) {
		*age = ewma_age(&l->rtt_tcp, now);
		*src = "tcp";
		return l->rtt_tcp.v;
	}
	*age = UINT64_MAX;
	*src = "default";
	return LINK_DEFAULT_RTT;
}

/*
 * The lower of the fresh rates: what gleamd's transfers were acknowledged
 * at while busy, and the kernel's delivery rate.  Through a relay (linkem)
 * the kernel sees only the first hop and reports too much; on a real link
 * the busy rate may miss moments the program gave nothing to send.  Both
 * err high, so the lower one is nearer.
 */
double link_rate(const struct link_est *l, uint64_t now, uint64_t *age, const char **src)
{
	bool busy = l->rate_busy.n && ewma_age(&l->rate_busy, now) < FRESH_NS;
	bool tcp = l->rate_tcp.n && ewma_age(&l->rate_tcp, now) < FRESH_NS && link_tcp_trusted(l);

	if (busy && (!tcp || l->rate_busy.v <= l->rate_tcp.v)) {
		*age = ewma_age(&l->rate_busy, now);
		*src = "transfers";
		return l->rate_busy.v;
	}
	if (tcp) {
		*age = ewma_age(&l->rate_tcp, now);
		*src = "tcp";
		return l->rate_tcp.v;
	}
	/* Stale measurements still beat a guess. */
	if (l->rate_busy.n) {
		*age = ewma_age(&l->rate_busy, now);
		*src = "transfers";
		return l->rate_busy.v;
	}
	*age = UINT64_MAX;
	*src = link_assumed_rate == LINK_DEFAULT_RATE ? "default" : "assumed";
	return link_assumed_rate;
}

double link_loss(const struct link_est *l)
{
	return l->loss.n ? MAX(0.0, MIN(l->loss.v, 1.0)) : 0.0;
}

void link_flush(struct link_est *l, uint64_t now)
{
	uint64_t busy_us;

	if (l->acc_since && now > l->acc_since) {
		busy_us = MIN(l->acc_busy_us, (now - l->acc_since) / 1000);
		/*
		 * Short bursts tell more about buffers than about the link: a
		 * relay (linkem) or the far end's socket takes the first
		 * megabyte or so at once.
		 */
		if (busy_us >= 50000 && l->acc_acked >= (1 << 20)) {
			unsigned int k = (unsigned int)MIN(l->rate_busy.n + 1, ARRAY_SIZE(l->busy_last));

			/*
			 * The best of the last four: an eighth of a second
			 * that a cut, a stall or a program's pause fell into
			 * reads low, never high; four samples of a link that
			 * got slower (half a second of transfers) show it.
			 */
			l->busy_last[l->rate_busy.n % ARRAY_SIZE(l->busy_last)] =
				(double)l->acc_acked * 1e6 / (double)busy_us;
			l->rate_busy.v = 0;
			for (unsigned int i = 0; i < k; i++)
				l->rate_busy.v = MAX(l->rate_busy.v, l->busy_last[i]);
			l->rate_busy.at = now;
			l->rate_busy.n++;
		}
	}
	l->acc_acked = 0;
	l->acc_busy_us = 0;
	l->acc_since = now;
}

void link_sample_ping(struct link_est *l, uint64_t sent_ns, uint64_t now)
{
	double rtt = (double)(now - sent_ns) / 1e9, m;

	if (now <= sent_ns)
		return;
	l->rtt_last[l->nrtt++ % ARRAY_SIZE(l->rtt_last)] = rtt;
	m = link_rtt_min(l);
	ewma_add(&l->rtt_ping, rtt, 0.25, now);
	/*
	 * Kept between the least of the last half second and twice that (and
	 * half a millisecond): one late PONG, or a first one that paid for a
	 * connection just made, moves it no further; half a second of round
	 * trips all above it means it is behind.
	 */
	l->rtt_ping.v = MAX(m, MIN(l->rtt_ping.v, 2 * m + 0.0005));
}

/* ---- interfaces, through rtnetlink ---- */

/* The machine's interfaces, not a role's: one rtnetlink socket for the process. */
static struct {
	struct nl_sock *sk;
	struct nl_cache *links, *addrs;
} nl;

int linkmon_open(void)
{
	int err;

	nl.sk = nl_socket_alloc();
	if (!nl.sk)
		return -ENOMEM;
	err = nl_connect(nl.sk, NETLINK_ROUTE);
	if (!err)
		err = rtnl_link_alloc_cache(nl.sk, AF_UNSPEC, &nl.links);
	if (!err)
		err = rtnl_addr_alloc_cache(nl.sk, &nl.addrs);
	if (err) {
		gl_err("rtnetlink: %s: interface state will not be watched", nl_geterror(err));
		linkmon_close();
		return -EIO;
	}
	return 0;
}

void linkmon_close(void)
{
	if (nl.links)
		nl_cache_free(nl.links);
	if (nl.addrs)
		nl_cache_free(nl.addrs);
	if (nl.sk)
		nl_socket_free(nl.sk);
	memset(&nl, 0, sizeof(nl));
}

void linkmon_refresh(void)
{
	if (nl.sk && nl.links)
		nl_cache_refill(nl.sk, nl.links);
}

struct addr_match {
	const void *bin;
	unsigned int len;
	int family;
	int ifindex;
};

static void match_addr(struct nl_object *o, void *arg)
{
	struct rtnl_addr *a = (struct rtnl_addr *)o;
	struct addr_match *m = arg;
	struct nl_addr *local = rtnl_addr_get_local(a);

	if (m->ifindex || !local || nl_addr_get_family(local) != m->family ||
	    nl_addr_get_len(local) != m->len || memcmp(nl_addr_get_binary_addr(local), m->bin, m->len))
		return;
	m->ifindex = rtnl_addr_get_ifindex(a);
}

void linkmon_bind(struct link_est *l, int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct addr_match m = { 0 };

	if (!nl.sk || fd < 0 || getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return;
	if (ss.ss_family == AF_INET) {
		m.bin = &((struct sockaddr_in *)&ss)->sin_addr;
		m.len = 4;
	} else if (ss.ss_family == AF_INET6) {
		m.bin = &((struct sockaddr_in6 *)&ss)->sin6_addr;
		m.len = 16;
	} else {
		return;
	}
	m.family = ss.ss_family;
	nl_cache_refill(nl.sk, nl.addrs);
	nl_cache_foreach(nl.addrs, match_addr, &m);
	l->ifindex = m.ifindex;
	l->ifname[0] = 0;
	if (m.ifindex)
		rtnl_link_i2name(nl.links, m.ifindex, l->ifname, sizeof(l->ifname));
}

bool linkmon_iface(struct link_est *l, uint64_t now)
{
	struct rtnl_link *k;
	bool was = l->if_up, lost;
	uint64_t errors, packets;
	unsigned int flags;

	if (!nl.sk || !l->ifindex)
		return false;
	k = rtnl_link_get(nl.links, l->ifindex);
	if (!k) {
		/* The interface is gone altogether. */
		l->if_up = false;
		if (was)
			l->if_changed_at = now;
		return was;
	}
	flags = rtnl_link_get_flags(k);
	/* Loopback has no carrier to lose and says so by not having the flag at times. */
	l->if_up = (flags & IFF_UP) && ((flags & IFF_LOWER_UP) || (flags & IFF_LOOPBACK));
	errors = rtnl_link_get_stat(k, RTNL_LINK_RX_ERRORS) + rtnl_link_get_stat(k, RTNL_LINK_TX_ERRORS);
	packets = rtnl_link_get_stat(k, RTNL_LINK_RX_PACKETS) +
		  rtnl_link_get_stat(k, RTNL_LINK_TX_PACKETS);
	/* Frames the interface lost count with TCP's retransmissions as loss. */
	if (l->if_packets && packets > l->if_packets && errors > l->if_errors) {
		ewma_add(&l->loss, (double)(errors - l->if_errors) / (double)(packets - l->if_packets),
			 0.3, now);
		l->if_changed_at = now;
	}
	l->if_errors = errors;
	l->if_packets = packets;
	rtnl_link_put(k);
	lost = was && !l->if_up;
	if (was != l->if_up)
		l->if_changed_at = now;
	return lost;
}
