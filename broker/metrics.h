/* SPDX-License-Identifier: MIT */
/*
 * gleamd's metrics endpoint (--metrics ADDR): OpenMetrics text over HTTP,
 * served from the role's own io_uring loop, so that what it reads is never
 * changing under it.  The role says what there is to say (a collect
 * function); this file speaks HTTP and the format.  Documentation/metrics.md
 * names every metric.
 */
#ifndef GLEAM_METRICS_H
#define GLEAM_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "gleamd.h"
#include "util.h"

/* A family's header: TYPE (counter or gauge), UNIT when unit is not NULL, HELP. */
void mb_family(struct gl_buf *m, const char *name, const char *type, const char *unit,
	       const char *help);
/*
 * One sample: name (with _total for a counter's), labels as alternating
 * key and value strings ending in NULL (the values escaped here), value.
 */
void mb_sample(struct gl_buf *m, const char *name, double value, ...);

/* What a role collects for one scrape, into m; role is what metrics_start() was given. */
typedef void (*metrics_collect_fn)(struct gl_buf *m, void *role);

/* Listen on addr (HOST:PORT) and serve; 0 or -errno (said in the log). */
int metrics_start(const char *addr, metrics_collect_fn collect, void *role);
/* A completion of an OP_METRICS operation. */
void metrics_complete(struct op *op, int res);
/* Stop taking scrapes (the role stops). */
void metrics_stop(void);

/*
 * Counters of sessions that ended, per link (its server on a client, its
 * client's host on a server): added when a session ends, reported with
 * those of the live sessions.  link_done() walks them.
 */
void metrics_session_done(const char *link, const struct sess_stats *st);
const struct sess_stats *metrics_link_done(const char *link, uint64_t *sessions);
/* The links with ended sessions, by index; NULL past the end. */
const char *metrics_link_name(unsigned int i);

#endif /* GLEAM_METRICS_H */
