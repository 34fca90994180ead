// SPDX-License-Identifier: MIT
/*
 * Parsing and printing of rates, times, sizes and socket addresses.
 */
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "linkem.h"
#include "util.h"

static int parse_number(const char *s, double *v, const char **rest)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno || !isfinite(*v) || *v < 0)
		return -EINVAL;
	*rest = end;
	return 0;
}

static double decimal_prefix(const char **s)
{
	switch (**s) {
	case 'k': case 'K':
		(*s)++;
		return 1e3;
	case 'm': case 'M':
		(*s)++;
		return 1e6;
	case 'g': case 'G':
		(*s)++;
		return 1e9;
	case 't': case 'T':
		(*s)++;
		return 1e12;
	}
	return 1;
}

/*
 * "1gbit", "300mbit", "100Mbps", "2.5g", "0": bits per second.  Unlike tc,
 * "bps" means bits per second here; "0", "none" and "unlimited" switch the
 * limit off.
 */
int parse_rate(const char *s, uint64_t *bps)
{
	const char *p;
	double v, mul;

	if (!strcasecmp(s, "none") || !strcasecmp(s, "unlimited")) {
		*bps = 0;
		return 0;
	}
	if (parse_number(s, &v, &p))
		return -EINVAL;
	mul = decimal_prefix(&p);
	if (*p && strcasecmp(p, "bit") && strcasecmp(p, "bps") &&
	    strcasecmp(p, "bit/s") && strcasecmp(p, "b/s"))
		return -EINVAL;
	v *= mul;
	if (v > 1e15)
		return -EINVAL;
	if (v > 0 && v < 1000)
		return -EINVAL;
	*bps = (uint64_t)llround(v);
	return 0;
}

/* "250us", "0.25ms", "2ms", "5s", "1500ns"; a unit is required except for 0. */
int parse_time(const char *s, uint64_t *ns)
{
	const char *p;
	double v, mul;

	if (parse_number(s, &v, &p))
		return -EINVAL;
	if (!strcmp(p, "ns"))
		mul = 1;
	else if (!strcmp(p, "us"))
		mul = 1e3;
	else if (!strcmp(p, "ms"))
		mul = 1e6;
	else if (!strcmp(p, "s"))
		mul = 1e9;
	else if (!*p && v == 0)
		mul = 1;
	else
		return -EINVAL;
	v *= mul;
	if (v > 1e18)
		return -EINVAL;
	*ns = (uint64_t)llround(v);
	return 0;
}

/* "65536", "64k", "64KiB", "1.5m": bytes, binary multiples, up to 10^12. */
int parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v;

	if (gl_parse_size(s, &v) || v > 1000000000000ULL)
		return -EINVAL;
	*bytes = v;
	return 0;
}

/* "host:port" or "[v6addr]:port"; numeric hosts are not required. */
int parse_addr(const char *s, bool passive, struct sockaddr_storage *ss,
	       socklen_t *len)
{
	struct addrinfo hints = {0}, *res;
	char host[256];
	const char *colon, *h = host;
	size_t hl;
	int ret;

	colon = strrchr(s, ':');
	if (!colon || !colon[1])
		return -EINVAL;
	hl = colon - s;
	if (hl >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, hl);
	host[hl] = 0;
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		host[hl - 1] = 0;
		h = host + 1;
	}
	if (!*h)
		h = NULL;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	ret = getaddrinfo(h, colon + 1, &hints, &res);
	if (ret)
		return -EINVAL;
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static const char *const down_names[NR_DOWNS] = {
	[DOWN_CLOSE] = "close",
	[DOWN_RESET] = "reset",
	[DOWN_REFUSE] = "refuse",
	[DOWN_BLACKHOLE] = "blackhole",
};

static const char *const new_names[NR_NEWS] = {
	[NEW_REFUSE] = "refuse",
	[NEW_CLOSE] = "close",
	[NEW_RESET] = "reset",
	[NEW_HOLD] = "hold",
};

int parse_down(const char *s, int *mode)
{
	int i;

	/* The names of old: a cut resets and refuses, a stall holds. */
	if (!strcmp(s, "cut")) {
		*mode = DOWN_REFUSE;
		return 0;
	}
	if (!strcmp(s, "stall")) {
		*mode = DOWN_BLACKHOLE;
		return 0;
	}
	for (i = 0; i < NR_DOWNS; i++) {
		if (!strcmp(s, down_names[i])) {
			*mode = i;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_new(const char *s, int *fate)
{
	int i;

	for (i = 0; i < NR_NEWS; i++) {
		if (!strcmp(s, new_names[i])) {
			*fate = i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *down_name(int mode)
{
	return mode >= 0 && mode < NR_DOWNS ? down_names[mode] : "?";
}

const char *new_name(int fate)
{
	return fate >= 0 && fate < NR_NEWS ? new_names[fate] : "?";
}

/*
 * A relay that restarts, or a proxy that cannot reach the far side,
 * closes what comes as it closed what was there; a NAT or firewall that
 * lost its state resets both; a closed port resets and refuses; a route
 * gone holds everything.
 */
int down_default_new(int mode)
{
	static const int fate[NR_DOWNS] = {
		[DOWN_CLOSE] = NEW_CLOSE,
		[DOWN_RESET] = NEW_RESET,
		[DOWN_REFUSE] = NEW_REFUSE,
		[DOWN_BLACKHOLE] = NEW_HOLD,
	};

	return mode >= 0 && mode < NR_DOWNS ? fate[mode] : NEW_REFUSE;
}

void format_rate(char *buf, size_t len, uint64_t bps)
{
	if (!bps)
		snprintf(buf, len, "unlimited");
	else if (bps >= 1000000000ULL)
		snprintf(buf, len, "%g Gbit/s", bps / 1e9);
	else if (bps >= 1000000ULL)
		snprintf(buf, len, "%g Mbit/s", bps / 1e6);
	else
		snprintf(buf, len, "%g kbit/s", bps / 1e3);
}

void format_time(char *buf, size_t len, uint64_t ns)
{
	if (ns >= NSEC_PER_SEC)
		snprintf(buf, len, "%g s", ns / 1e9);
	else if (ns >= NSEC_PER_MSEC)
		snprintf(buf, len, "%g ms", ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%g us", ns / 1e3);
	else if (ns)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else
		snprintf(buf, len, "0");
}

void format_addr(char *buf, size_t len, const struct sockaddr *sa,
		 socklen_t salen)
{
	char host[INET6_ADDRSTRLEN], port[16];

	if (getnameinfo(sa, salen, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, len, "?");
		return;
	}
	if (sa->sa_family == AF_INET6)
		snprintf(buf, len, "[%s]:%s", host, port);
	else
		snprintf(buf, len, "%s:%s", host, port);
}
