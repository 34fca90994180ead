/* SPDX-License-Identifier: MIT */
/*
 * Log lines that a peer can cause (a refused connection, a malformed
 * frame, a limit reached), at most one per peer and interval: the first
 * is written as it comes, the rest are counted and said once, when the
 * interval ends.  A flood of hostile connections costs the log a line or
 * two per peer every PEERLOG_INTERVAL_S seconds, however many it makes.
 */
#ifndef GLEAM_PEERLOG_H
#define GLEAM_PEERLOG_H

#include <stdint.h>

#define PEERLOG_INTERVAL_S	10

/*
 * A line about peer ("addr:port" or "[v6]:port"; the port is not part of
 * who it is), at level 0 (errors).
 */
void peer_log(const char *peer, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Once a second or so: the counts of the intervals that ended are said. */
void peer_log_tick(uint64_t now);

#endif /* GLEAM_PEERLOG_H */
