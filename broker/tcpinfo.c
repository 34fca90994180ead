// SPDX-License-Identifier: MIT
/*
 * TCP_INFO of gleamd's own connections, for the link estimates
 * (linkmon.h).  The kernel's struct tcp_info, not glibc's shorter one: the
 * delivery rate, bytes acknowledged and busy time are only in the former.
 */
#include <netinet/in.h>
#include <linux/tcp.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "linkmon.h"
#include "util.h"

void link_sample_tcp(struct link_est *l, int fd, struct tcp_sample *prev, uint64_t now)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    ti.tcpi_state != 1 /* TCP_ESTABLISHED */)
		return;
	if (ti.tcpi_rtt)
		ewma_add(&l->rtt_tcp, ti.tcpi_rtt / 1e6, 0.25, now);
	/*
	 * The kernel's rate is only worth something when the sender was not
	 * the limit: not a sample the kernel marks application-limited (a
	 * session's requests and answers, each less than the link carries in
	 * a round trip, measure the program, not the link: as the lower rate
	 * they made a 1 Gbit/s link read 100 Mbit/s for half a minute after
	 * each session), nor one from a connection that acknowledged little.
	 */
	if (len >= offsetof(struct tcp_info, tcpi_delivery_rate) + sizeof(ti.tcpi_delivery_rate) &&
	    ti.tcpi_delivery_rate && !ti.tcpi_delivery_rate_app_limited && prev->at &&
	    ti.tcpi_bytes_acked - prev->bytes_acked >= (256 << 10))
		ewma_add(&l->rate_tcp, (double)ti.tcpi_delivery_rate, 0.25, now);
	if (prev->at) {
		uint64_t acked = ti.tcpi_bytes_acked - prev->bytes_acked;
		uint64_t busy = ti.tcpi_busy_time - prev->busy_us;
		uint32_t segs = ti.tcpi_segs_out - prev->segs_out;
		uint32_t rtx = ti.tcpi_total_retrans - prev->total_retrans;

		/*
		 * Bytes acknowledged over the time the connection had data
		 * waiting: the link's rate, whatever the program did between;
		 * summed over the server's connections until link_flush().
		 * Not a reading with nothing acknowledged: the link was down
		 * or stalled, and an outage is not a rate.  (Time the far
		 * end's window held the sender back counts: through a relay
		 * or a proxy, that is how the link's own rate shows.)
		 */
		if (ti.tcpi_bytes_acked > prev->bytes_acked && busy < (1ULL << 40)) {
			l->acc_acked += acked;
			l->acc_busy_us += busy;
		}
		if (segs >= 100 && rtx <= segs)
			ewma_add(&l->loss, (double)rtx / segs, 0.3, now);
	}
	prev->at = now;
	prev->bytes_acked = ti.tcpi_bytes_acked;
	prev->busy_us = ti.tcpi_busy_time;
	prev->segs_out = ti.tcpi_segs_out;
	prev->total_retrans = ti.tcpi_total_retrans;
}


bool tcp_acked_busy(int fd, uint64_t *acked, uint64_t *busy_us)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    len < offsetof(struct tcp_info, tcpi_busy_time) + sizeof(ti.tcpi_busy_time))
		return false;
	*acked = ti.tcpi_bytes_acked;
	*busy_us = ti.tcpi_busy_time;
	return true;
}
