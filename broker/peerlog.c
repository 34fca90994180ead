// SPDX-License-Identifier: MIT
/* Lines a peer causes, one per peer and interval (peerlog.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "peerlog.h"
#include "util.h"

/* Peers followed at once; one more takes the place of the one seen longest ago. */
#define PEERS		64
#define INTERVAL_NS	((uint64_t)PEERLOG_INTERVAL_S * 1000000000ull)

struct peer {
	char host[64];		/* "": free */
	uint64_t since;		/* ns: the interval began (its first line) */
	unsigned long held;	/* lines not written since */
	char last[160];		/* the last of them */
};

static struct peer peers[PEERS];

/* The address without its port: "1.2.3.4:5" and "[::1]:5" lose ":5". */
static void host_of(const char *peer, char *out, size_t len)
{
	const char *colon = strrchr(peer, ':');
	size_t n = colon && (peer[0] != '[' || colon[-1] == ']') ? (size_t)(colon - peer) :
		   strlen(peer);

	snprintf(out, len, "%.*s", (int)n, peer);
}

static void say_held(struct peer *p)
{
	if (p->held)
		gl_err("%lu more like it from %s in %d s; the last: %s", p->held, p->host,
		       PEERLOG_INTERVAL_S, p->last);
	p->held = 0;
}

static struct peer *find(const char *host)
{
	struct peer *p = NULL;

	for (int i = 0; i < PEERS; i++)
		if (peers[i].host[0] && !strcmp(peers[i].host, host))
			return &peers[i];
	for (int i = 0; i < PEERS; i++) {
		if (!peers[i].host[0]) {
			p = &peers[i];
			break;
		}
		if (!p || peers[i].since < p->since)
			p = &peers[i];
	}
	/* Its count is said before its place goes to another. */
	if (p->host[0])
		say_held(p);
	memset(p, 0, sizeof(*p));
	snprintf(p->host, sizeof(p->host), "%s", host);
	return p;
}

void peer_log(const char *peer, const char *fmt, ...)
{
	uint64_t now = gl_now_ns();
	char host[64], line[160];
	struct peer *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	host_of(peer ? peer : "?", host, sizeof(host));
	p = find(host);
	if (p->since && now - p->since < INTERVAL_NS) {
		p->held++;
		snprintf(p->last, sizeof(p->last), "%s", line);
		return;
	}
	say_held(p);
	p->since = now;
	gl_err("%s: %s", peer ? peer : "?", line);
}

void peer_log_tick(uint64_t now)
{
	for (int i = 0; i < PEERS; i++) {
		struct peer *p = &peers[i];

		if (!p->host[0] || now - p->since < INTERVAL_NS)
			continue;
		say_held(p);
		/* A quiet peer's place is free again. */
		p->host[0] = 0;
		p->since = 0;
	}
}
