// SPDX-License-Identifier: MIT
/*
 * linkem: emulate one network link between two brokers with a TCP relay.
 * See Documentation/linkem.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "linkem.h"

static const char usage_text[] =
"usage: linkem --listen ADDR:PORT --connect ADDR:PORT [options]\n"
"       linkem --ctl SOCKET COMMAND [ARG]\n"
"\n"
"  --listen ADDR:PORT     accept connections here (port 0: any free port)\n"
"  --connect ADDR:PORT    relay each of them to this address\n"
"  --rate R               rate each way: 1gbit, 300mbit, 100Mbps (bits/s)\n"
"  --rate-up R            rate from the listening to the connecting side\n"
"  --rate-down R          rate back\n"
"  --delay T              one-way delay each way: 250us, 0.25ms, 2ms\n"
"  --delay-up T, --delay-down T\n"
"  --jitter T             random extra delay, 0 .. T (bytes keep order)\n"
"  --jitter-up T, --jitter-down T\n"
"  --burst B              token bucket depth: 64k (default: 1 ms of rate,\n"
"                         at least 64 KiB)\n"
"  --cut-at T             at T after start, the link goes down: every\n"
"                         connection reset, new ones refused\n"
"  --cut-for T            for T (default: for good)\n"
"  --cut-mode M           how it goes down: close (FIN both sides, new\n"
"                         ones closed at once), reset (reset both sides,\n"
"                         new ones reset at once), refuse (the default),\n"
"                         blackhole (nothing passes, nothing is reset)\n"
"  --cut-new F            what new connections meet meanwhile: refuse,\n"
"                         close, reset or hold (default: the mode's)\n"
"  --source ADDR:PORT     connect to the target from this address\n"
"  --control PATH         accept commands on this unix socket\n"
"  --control-file PATH    run the commands in this file on SIGUSR1\n"
"  --capture FILE         write every byte relayed, both ways, to FILE\n"
"  --json                 statistics as JSON on stdout (exit, SIGUSR2)\n"
"  --seed N               seed of the jitter (default: from the clock)\n"
"\n"
"Commands: rate R, delay T, jitter T, burst B (also NAME-up, NAME-down),\n"
"close|reset|refuse|blackhole [T] [new=F] (cut = refuse, stall =\n"
"blackhole), restore, source ADDR:PORT|any, show, stats, help.\n";

enum {
	OPT_LISTEN = 256,
	OPT_CONNECT,
	OPT_RATE, OPT_RATE_UP, OPT_RATE_DOWN,
	OPT_DELAY, OPT_DELAY_UP, OPT_DELAY_DOWN,
	OPT_JITTER, OPT_JITTER_UP, OPT_JITTER_DOWN,
	OPT_BURST,
	OPT_CUT_AT, OPT_CUT_FOR, OPT_CUT_MODE, OPT_CUT_NEW, OPT_SOURCE,
	OPT_CONTROL, OPT_CONTROL_FILE, OPT_CAPTURE, OPT_CTL,
	OPT_JSON, OPT_SEED, OPT_HELP,
};

static const struct option options[] = {
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "connect", required_argument, NULL, OPT_CONNECT },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "rate-up", required_argument, NULL, OPT_RATE_UP },
	{ "rate-down", required_argument, NULL, OPT_RATE_DOWN },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "delay-up", required_argument, NULL, OPT_DELAY_UP },
	{ "delay-down", required_argument, NULL, OPT_DELAY_DOWN },
	{ "jitter", required_argument, NULL, OPT_JITTER },
	{ "jitter-up", required_argument, NULL, OPT_JITTER_UP },
	{ "jitter-down", required_argument, NULL, OPT_JITTER_DOWN },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "cut-at", required_argument, NULL, OPT_CUT_AT },
	{ "cut-for", required_argument, NULL, OPT_CUT_FOR },
	{ "cut-mode", required_argument, NULL, OPT_CUT_MODE },
	{ "cut-new", required_argument, NULL, OPT_CUT_NEW },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "control-file", required_argument, NULL, OPT_CONTROL_FILE },
	{ "capture", required_argument, NULL, OPT_CAPTURE },
	{ "ctl", required_argument, NULL, OPT_CTL },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/*
 * A value given for both directions, and one given for a single direction,
 * which wins whatever the order on the command line.
 */
struct dir_opt {
	bool set[NR_DIRS + 1];
	uint64_t v[NR_DIRS + 1];	/* [NR_DIRS]: both */
};

static uint64_t dir_opt_get(const struct dir_opt *o, int d, uint64_t def)
{
	if (o->set[d])
		return o->v[d];
	return o->set[NR_DIRS] ? o->v[NR_DIRS] : def;
}

static const char *opt_name(int val)
{
	const struct option *o;

	for (o = options; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

static int bad(const char *opt, const char *val)
{
	fprintf(stderr, "linkem: bad value '%s' for --%s (see --help)\n",
		val, opt);
	return 2;
}

static void print_settings(struct relay *r, const struct settings *s)
{
	char la[80], ca[80], t1[80], t2[32];
	int d;

	relay_listen_addr(r, la, sizeof(la));
	format_addr(ca, sizeof(ca), (const struct sockaddr *)&s->connect_addr,
		    s->connect_len);
	fprintf(stderr, "linkem: relay %s -> %s\n", la, ca);
	for (d = 0; d < NR_DIRS; d++) {
		fputs("linkem: ", stderr);
		print_params(stderr, d == DIR_UP ? "up" : "down", &s->dir[d],
			     relay_bucket_depth(r, d));
		fputc('\n', stderr);
	}
	if (s->cut_at_ns != NO_TIME) {
		format_time(t1, sizeof(t1), s->cut_at_ns);
		if (s->cut_for_ns == NO_TIME)
			snprintf(t2, sizeof(t2), "good");
		else
			format_time(t2, sizeof(t2), s->cut_for_ns);
		fprintf(stderr, "linkem: %s at %s for %s, new connections %s\n",
			down_name(s->cut_mode), t1, t2,
			new_name(s->cut_new == NEW_DEFAULT ?
				 down_default_new(s->cut_mode) : s->cut_new));
	}
	if (s->source_len) {
		format_addr(t1, sizeof(t1), (const struct sockaddr *)&s->source_addr,
			    s->source_len);
		fprintf(stderr, "linkem: connecting from %s\n", t1);
	}
	if (s->control_path)
		fprintf(stderr, "linkem: control socket %s\n", s->control_path);
	if (s->control_file)
		fprintf(stderr, "linkem: control file %s (on SIGUSR1)\n",
			s->control_file);
	fprintf(stderr, "linkem: listening on %s\n", la);
}

int main(int argc, char **argv)
{
	struct dir_opt rate = {0}, delay = {0}, jitter = {0};
	struct settings s = {0};
	const char *listen = NULL, *conn = NULL, *ctl = NULL;
	uint64_t v, burst = 0;
	struct relay *r;
	struct dir_opt *o;
	int opt, ret, d, which;

	s.cut_at_ns = NO_TIME;
	s.cut_for_ns = NO_TIME;
	s.cut_mode = DOWN_REFUSE;
	s.cut_new = NEW_DEFAULT;
	s.seed = mono_ns() ^ ((uint64_t)getpid() << 32);

	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		o = NULL;
		which = NR_DIRS;
		switch (opt) {
		case OPT_LISTEN:
			listen = optarg;
			break;
		case OPT_CONNECT:
			conn = optarg;
			break;
		case OPT_RATE_UP: case OPT_RATE_DOWN: case OPT_RATE:
			which = opt == OPT_RATE ? NR_DIRS : opt - OPT_RATE_UP;
			if (parse_rate(optarg, &v))
				return bad(opt_name(opt), optarg);
			o = &rate;
			break;
		case OPT_DELAY_UP: case OPT_DELAY_DOWN: case OPT_DELAY:
			which = opt == OPT_DELAY ? NR_DIRS : opt - OPT_DELAY_UP;
			if (parse_time(optarg, &v))
				return bad(opt_name(opt), optarg);
			o = &delay;
			break;
		case OPT_JITTER_UP: case OPT_JITTER_DOWN: case OPT_JITTER:
			which = opt == OPT_JITTER ? NR_DIRS : opt - OPT_JITTER_UP;
			if (parse_time(optarg, &v))
				return bad(opt_name(opt), optarg);
			o = &jitter;
			break;
		case OPT_BURST:
			if (parse_size(optarg, &burst))
				return bad("burst", optarg);
			break;
		case OPT_CUT_AT:
			if (parse_time(optarg, &s.cut_at_ns))
				return bad("cut-at", optarg);
			break;
		case OPT_CUT_FOR:
			if (parse_time(optarg, &s.cut_for_ns))
				return bad("cut-for", optarg);
			break;
		case OPT_CUT_MODE:
			if (parse_down(optarg, &s.cut_mode))
				return bad("cut-mode", optarg);
			break;
		case OPT_CUT_NEW:
			if (parse_new(optarg, &s.cut_new))
				return bad("cut-new", optarg);
			break;
		case OPT_SOURCE:
			if (parse_addr(optarg, true, &s.source_addr, &s.source_len))
				return bad("source", optarg);
			break;
		case OPT_CONTROL:
			s.control_path = optarg;
			break;
		case OPT_CONTROL_FILE:
			s.control_file = optarg;
			break;
		case OPT_CAPTURE:
			s.capture = optarg;
			break;
		case OPT_CTL:
			ctl = optarg;
			break;
		case OPT_JSON:
			s.json = true;
			break;
		case OPT_SEED:
			s.seed = strtoull(optarg, NULL, 0);
			break;
		case 'h':
		case OPT_HELP:
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 2;
		}
		if (o) {
			/* OPT_x_UP, OPT_x_DOWN, OPT_x: which is 0, 1 or 2. */
			o->set[which] = true;
			o->v[which] = v;
		}
	}

	if (ctl) {
		if (optind >= argc) {
			fputs(usage_text, stderr);
			return 2;
		}
		ret = control_client(ctl, argc - optind, argv + optind);
		if (ret && ret != -EINVAL)
			fprintf(stderr, "linkem: %s: %s\n", ctl, strerror(-ret));
		return ret ? 1 : 0;
	}
	if (optind < argc || !listen || !conn) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (parse_addr(listen, true, &s.listen_addr, &s.listen_len))
		return bad("listen", listen);
	if (parse_addr(conn, false, &s.connect_addr, &s.connect_len))
		return bad("connect", conn);
	if ((s.cut_for_ns != NO_TIME || s.cut_mode != DOWN_REFUSE ||
	     s.cut_new != NEW_DEFAULT) && s.cut_at_ns == NO_TIME) {
		fprintf(stderr, "linkem: --cut-for, --cut-mode and --cut-new need --cut-at\n");
		return 2;
	}
	for (d = 0; d < NR_DIRS; d++) {
		s.dir[d].rate_bps = dir_opt_get(&rate, d, 0);
		s.dir[d].delay_ns = dir_opt_get(&delay, d, 0);
		s.dir[d].jitter_ns = dir_opt_get(&jitter, d, 0);
		s.dir[d].burst = burst;
	}

	ret = relay_create(&r, &s);
	if (ret) {
		/* The parts that can fail have said why. */
		if (ret == -ENOMEM)
			fprintf(stderr, "linkem: %s\n", strerror(-ret));
		return 1;
	}
	print_settings(r, &s);
	ret = relay_run(r);
	relay_destroy(r);
	if (ret) {
		fprintf(stderr, "linkem: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
