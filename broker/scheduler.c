// SPDX-License-Identifier: MIT
/*
 * The client gleamd's scheduler (Documentation/scheduler.md).  It keeps
 * the servers and what their INFO says, the link estimates linkmon.c
 * makes, what each program moved the last times it ran, and the pins;
 * sched_place() puts a new session where its predicted completion time is
 * least.  The connections themselves are client.c's: the scheduler only
 * says, on its tick, what is to be opened, sent or given up.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scheduler.h"
#include "util.h"

struct sched_prog {
	char name[64];
	uint64_t used;			/* ns: last placed or ended, for eviction */
	uint32_t runs;			/* sessions learnt from; 0: the defaults */
	double up;			/* bytes that must go up, before the cache */
	double down;
	double waits;			/* points where the program waited */
	double records;
	double gpu_s;			/* replay time on an idle GPU */
	double peak;			/* device memory it needs, at least */
	struct chunk_name *names;	/* what its last run uploaded by name */
	uint32_t *lens;
	uint32_t nnames;
};

/*
 * A program never seen: a middling model load with a few thousand
 * synchronisations, so that the link's rate and RTT both count.
 */
static const struct sched_prog unknown_prog = {
	.name = "(unknown)",
	.up = 64 << 20,
	.down = 4 << 20,
	.waits = 2000,
	.records = 20000,
	.gpu_s = 1.0,
};

struct sched_log {
	uint64_t id;
	char program[64];
	char via[16];
	int srv;
	char server[256];
	int gpu;
	bool live;
	bool learnt;			/* the model knew the program */
	double wall_s;
	uint64_t at;			/* ns */
	char why[96];
	struct sched_cand top[SCHED_TOP];
	char top_server[SCHED_TOP][256];
	unsigned int ntop;
};

static struct {
	struct config *cfg;
	enum { PL_AUTO, PL_RR, PL_RANDOM } policy;
	struct server srv[SCHED_SERVERS_MAX];
	struct sched_pin pins[SCHED_PINS_MAX];
	unsigned int npins;
	char removed[SCHED_SERVERS_MAX][256];	/* config servers taken off at run time */
	unsigned int nremoved;
	struct sched_prog progs[SCHED_PROGRAMS_MAX];
	struct sched_log log[SCHED_LOG_MAX];
	unsigned int nlog;
	unsigned int rr;
	unsigned int seed;
	uint64_t start;
} sc;

/* A string a server chose, made harmless for text and JSON. */
static const char *safe(const char *in, size_t max, char *out, size_t len)
{
	snprintf(out, len, "%.*s", (int)max, in);
	gl_harmless(out, true);
	return out;
}

/* ---- the server list ---- */

/* Names go into the state file, text and JSON: plain host:port characters only. */
static bool name_ok(const char *n)
{
	size_t len = strlen(n);

	if (!len || len >= sizeof(sc.srv[0].name))
		return false;
	for (const char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr(".-_:[]", *p)))
			return false;
	return true;
}

struct server *sched_server(unsigned int i)
{
	return i < SCHED_SERVERS_MAX && sc.srv[i].used ? &sc.srv[i] : NULL;
}

static struct server *find(const char *name)
{
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++)
		if (sc.srv[i].used && !sc.srv[i].removed && !strcmp(sc.srv[i].name, name))
			return &sc.srv[i];
	return NULL;
}

static int add(const char *name, bool added, char *err, size_t len)
{
	struct server *s = NULL;
	int e;

	if (!name_ok(name)) {
		snprintf(err, len, "not a server address: use HOST[:PORT]");
		return -EINVAL;
	}
	if (find(name)) {
		snprintf(err, len, "%s is already a server", name);
		return -EEXIST;
	}
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX && !s; i++)
		if (!sc.srv[i].used)
			s = &sc.srv[i];
	if (!s) {
		snprintf(err, len, "no room for more than %d servers", SCHED_SERVERS_MAX);
		return -ENOSPC;
	}
	memset(s, 0, sizeof(*s));
	e = gl_parse_hostport(name, GLEAM_WIRE_PORT, &s->addr, &s->addrlen);
	if (e) {
		snprintf(err, len, "%s: %s", name, gl_addr_strerror(e));
		return e == -EAGAIN ? -EAGAIN : -EINVAL;
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->used = true;
	s->added = added;
	s->state = SRV_DOWN;
	s->state_since = gl_now_ns();
	snprintf(s->why, sizeof(s->why), "not connected yet");
	return 0;
}

/* A slot whose server was removed is free once nothing refers to it. */
static void reap(struct server *s)
{
	if (s->used && s->removed && !s->own && !s->conn) {
		nset_free(&s->held);
		memset(s, 0, sizeof(*s));
	}
}

/* ---- the state file ---- */

/*
 * Each client gleamd keeps its own file, named for its socket: two of them
 * (one per user, or tests beside the service) never share pins.  The
 * system's own, on /run/gleam/gleamd.sock, keeps the plain name.
 */
static int state_path(char *buf, size_t len, const char *suffix)
{
	char inst[200];
	const char *sock;
	size_t n = 0;

	if (!sc.cfg || !sc.cfg->state_dir[0])
		return -ENOENT;
	sock = sc.cfg->socket_path;
	if (!sock[0] || !strcmp(sock, "/run/gleam/gleamd.sock")) {
		inst[0] = 0;
	} else {
		inst[n++] = '@';
		for (const char *p = sock; *p && n + 1 < sizeof(inst); p++) {
			if (*p == '/' && (n == 1 || inst[n - 1] == '-'))
				continue;
			inst[n++] = *p == '/' ? '-' : *p;
		}
		inst[n] = 0;
	}
	if ((size_t)snprintf(buf, len, "%s/client%s.state%s", sc.cfg->state_dir, inst, suffix) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Servers added at run time, config servers removed, and pins, written so
 * that a crash leaves the old file or the new one: a temporary file,
 * synced, renamed over the old, and the directory synced.
 */
static int save(void)
{
	char path[512], tmp[512];
	FILE *f;
	int fd, err = 0;

	if (state_path(path, sizeof(path), "") || state_path(tmp, sizeof(tmp), ".tmp"))
		return sc.cfg && sc.cfg->state_dir[0] ? -ENAMETOOLONG : 0;
	gl_mkdir_parent(path);
	mkdir(sc.cfg->state_dir, 0755);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f, "# gleamd client state: servers added, servers removed, pins (gleamctl)\n");
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++)
		if (sc.srv[i].used && !sc.srv[i].removed && sc.srv[i].added)
			fprintf(f, "server %s\n", sc.srv[i].name);
	for (unsigned int i = 0; i < sc.nremoved; i++)
		fprintf(f, "removed %s\n", sc.removed[i]);
	for (unsigned int i = 0; i < sc.npins; i++)
		fprintf(f, "pin %s %s %d%s%s\n", sc.pins[i].what, sc.pins[i].server, sc.pins[i].gpu,
			sc.pins[i].list[0] ? " " : "", sc.pins[i].list);
	if (fflush(f) || fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	fd = open(sc.cfg->state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

static bool is_removed(const char *name)
{
	for (unsigned int i = 0; i < sc.nremoved; i++)
		if (!strcmp(sc.removed[i], name))
			return true;
	return false;
}

static bool what_ok(const char *w)
{
	char *end;
	unsigned long n;

	if (!strcmp(w, "socket"))
		return true;
	if (strncmp(w, "vgpu", 4) || w[4] < '0' || w[4] > '9')
		return false;
	n = strtoul(w + 4, &end, 10);
	return !*end && n < 1000;
}

/*
 * A pin's list of GPUs, as the state file keeps it: entries of UUIDs and
 * SERVER:GPU, host:port characters and commas only (it goes into text,
 * JSON and the state file); "" is none.
 */
static bool list_ok(const char *l)
{
	size_t n = strlen(l);

	return n < sizeof(((struct sched_pin *)0)->list) &&
	       strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:-[],_") == n &&
	       (!n || (l[0] != ',' && l[n - 1] != ',' && !strstr(l, ",,")));
}

static void load(void)
{
	char path[512], line[600];
	FILE *f;
	int ln = 0;

	if (state_path(path, sizeof(path), ""))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	/* Read in two passes: removals first, whatever order the lines are in. */
	while (fgets(line, sizeof(line), f)) {
		char a[256];

		if (sscanf(line, "removed %255s", a) == 1 && name_ok(a) && sc.nremoved < SCHED_SERVERS_MAX)
			snprintf(sc.removed[sc.nremoved++], sizeof(sc.removed[0]), "%s", a);
	}
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char a[256], b[256], e[64], w[16], l[128] = "";
		int gpu;

		ln++;
		if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "removed ", 8))
			continue;
		if (sscanf(line, "server %255s", a) == 1 && name_ok(a)) {
			if (!find(a) && !is_removed(a))
				add(a, true, e, sizeof(e));
		} else if (sscanf(line, "pin %15s %255s %d %127s", w, b, &gpu, l) >= 3 && what_ok(w) &&
			   name_ok(b) && gpu >= -1 && gpu < GLEAM_GPUS_MAX && list_ok(l) &&
			   sc.npins < SCHED_PINS_MAX) {
			struct sched_pin *p = &sc.pins[sc.npins++];

			snprintf(p->what, sizeof(p->what), "%s", w);
			snprintf(p->server, sizeof(p->server), "%s", b);
			snprintf(p->list, sizeof(p->list), "%s", l);
			p->gpu = gpu;
		} else {
			gl_err("%s:%d: ignoring a line that is not a server or a pin", path, ln);
		}
	}
	fclose(f);
}

void sched_init(struct config *c)
{
	char err[128];

	/* Again (the fuzz harnesses start the client role once per input): nothing kept. */
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++)
		nset_free(&sc.srv[i].held);
	for (unsigned int i = 0; i < SCHED_PROGRAMS_MAX; i++) {
		free(sc.progs[i].names);
		free(sc.progs[i].lens);
	}
	memset(&sc, 0, sizeof(sc));
	sc.cfg = c;
	sc.start = gl_now_ns();
	sc.policy = !strcmp(c->placement, "round-robin") ? PL_RR :
		    !strcmp(c->placement, "random") ? PL_RANDOM : PL_AUTO;
	sc.seed = (unsigned int)(sc.start ^ (uint64_t)getpid());
	load();
	if (!c->nservers && !is_removed(c->server) && add(c->server, false, err, sizeof(err)))
		gl_err("server %s: %s", c->server, err);
	for (unsigned int i = 0; i < c->nservers; i++)
		if (!is_removed(c->servers[i]) && !find(c->servers[i]) &&
		    add(c->servers[i], false, err, sizeof(err)))
			gl_err("server %s: %s", c->servers[i], err);
	/* Added at run time before a restart: the file put them first; keep them. */
}

const char *sched_placement(void)
{
	return sc.policy == PL_RR ? "round-robin" : sc.policy == PL_RANDOM ? "random" : "auto";
}

static int saved(int err, char *msg, size_t len)
{
	if (err)
		snprintf(msg, len, "done, but not kept across restarts: %s: %s",
			 sc.cfg->state_dir, strerror(-err));
	return 0;
}

int sched_server_add(const char *name, char *err, size_t len)
{
	int e;

	/* A config server taken off and named again is simply back. */
	for (unsigned int i = 0; i < sc.nremoved; i++) {
		if (!strcmp(sc.removed[i], name)) {
			memmove(sc.removed[i], sc.removed[i + 1],
				(sc.nremoved - i - 1) * sizeof(sc.removed[0]));
			sc.nremoved--;
			break;
		}
	}
	e = add(name, true, err, len);
	if (e)
		return e;
	for (unsigned int i = 0; i < sc.cfg->nservers; i++)
		if (!strcmp(sc.cfg->servers[i], name))
			find(name)->added = false;
	gl_info("server %s added", name);
	return saved(save(), err, len);
}

int sched_server_remove(const char *name, char *err, size_t len)
{
	struct server *s = find(name);
	bool configured = !strcmp(sc.cfg->server, name);

	if (!s) {
		snprintf(err, len, "%s is not a server", name);
		return -ENOENT;
	}
	for (unsigned int i = 0; i < sc.cfg->nservers; i++)
		configured |= !strcmp(sc.cfg->servers[i], name);
	if (configured && !is_removed(name) && sc.nremoved < SCHED_SERVERS_MAX)
		snprintf(sc.removed[sc.nremoved++], sizeof(sc.removed[0]), "%s", name);
	/* Its sessions run on; its control connection goes on the next tick. */
	s->removed = true;
	reap(s);
	gl_info("server %s removed", name);
	return saved(save(), err, len);
}

static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *x = (const void *)a, *y = (const void *)b;

		return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
	if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *x = (const void *)a, *y = (const void *)b;

		return x->sin6_port == y->sin6_port &&
		       !memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr));
	}
	return false;
}

/*
 * A server known by its name, or by any name that resolves to its address
 * (localhost for 127.0.0.1); NULL, with *err the lookup's error when the
 * name did not resolve.
 */
static struct server *find_addr(const char *name, int *err)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	struct server *s = find(name);

	*err = 0;
	if (s)
		return s;
	*err = gl_parse_hostport(name, GLEAM_WIRE_PORT, &ss, &sl);
	if (*err)
		return NULL;
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++)
		if (sc.srv[i].used && !sc.srv[i].removed && same_addr(&sc.srv[i].addr, &ss))
			return &sc.srv[i];
	return NULL;
}

/*
 * "HOST[:PORT]" or "HOST[:PORT]:GPU", matched against the servers known:
 * the server's own name into server; -ENOENT with a message when none.
 */
static int parse_target(const char *t, char *server, size_t slen, int *gpu, char *msg,
			size_t mlen)
{
	const char *colon = strrchr(t, ':');
	struct server *s;
	char name[256];
	int err, err2 = 0;

	*gpu = -1;
	s = find_addr(t, &err);
	if (!s && colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	    (size_t)(colon - t) < sizeof(name) && strlen(colon + 1) <= 2) {
		memcpy(name, t, (size_t)(colon - t));
		name[colon - t] = 0;
		s = find_addr(name, &err2);
		if (s)
			*gpu = atoi(colon + 1);
	}
	if (s) {
		snprintf(server, slen, "%s", s->name);
		return 0;
	}
	if (err2 && err2 != -EINVAL)
		err = err2;
	if (err == -ENXIO || err == -EAGAIN)
		snprintf(msg, mlen, "%.200s: %s", t, gl_addr_strerror(err));
	else
		snprintf(msg, mlen, "no server %.200s (gleamctl servers list)", t);
	return -ENOENT;
}

/* A server never reached is given this long, from its first attempt, to answer one. */
#define FIRST_REACH_NS	1000000000ull

/*
 * Whether a server is counted out: never reached in the first second of
 * trying (a gleamd started beside a program does not fail it for a server
 * that starts a moment later), or down for longer than the grace period.
 */
static bool given_up(const struct server *s, uint64_t now)
{
	if (sched_usable(s, now))
		return false;
	if (!s->been_up)
		return s->tries >= 1 && s->first_try && now - s->first_try >= FIRST_REACH_NS;
	return s->down_since && now - MAX(s->down_since, s->heard_at) >=
				(uint64_t)sc.cfg->resume_s * 1000000000ull;
}

void sched_heard(struct server *s, uint64_t now)
{
	s->been_up = true;
	s->heard_at = now;
}

static struct server *span_entry(const char *e, size_t l, uint8_t *gpu);

/*
 * One entry of a pin's list: a UUID (or as much of one as names one GPU
 * of all the servers that have said what GPUs they have), or SERVER:GPU.
 * Its server and GPU, or NULL with why.
 */
static struct server *list_entry(const char *e, size_t l, uint8_t *gpu, char *why, size_t len)
{
	char t[256], server[256];
	struct server *s;
	int g;

	if (!l || l >= sizeof(t)) {
		snprintf(why, len, "an empty or overlong entry in the list of GPUs");
		return NULL;
	}
	memcpy(t, e, l);
	t[l] = 0;
	if (l >= 5 && !strncmp(t, "GPU-", 4)) {
		s = span_entry(t, l, gpu);
		if (!s)
			snprintf(why, len, "%.64s names no one GPU of the servers that have said what "
				 "GPUs they have (gleamctl servers)", t);
		return s;
	}
	if (parse_target(t, server, sizeof(server), &g, why, len))
		return NULL;
	s = find(server);
	if (g < 0) {
		snprintf(why, len, "%.64s: a list names GPUs, each SERVER:GPU or a UUID", t);
		return NULL;
	}
	if (!s->have_info) {
		snprintf(why, len, "server %.64s has not said yet what GPUs it has", server);
		return NULL;
	}
	if ((unsigned int)g >= s->info.ngpus) {
		snprintf(why, len, "server %.64s has %u GPU(s): 0 to %d", server, s->info.ngpus,
			 (int)s->info.ngpus - 1);
		return NULL;
	}
	*gpu = (uint8_t)g;
	return s;
}

/* A pin's list: each entry's server and GPU (at most max); their number, or -1 with why. */
static int list_resolve(const char *list, struct server **srv, uint8_t *gpus, unsigned int max,
			char *why, size_t len)
{
	const char *e = list;
	unsigned int n = 0;

	for (;;) {
		size_t l = strcspn(e, ",");

		if (n == max) {
			snprintf(why, len, "more than %u GPUs in the list", max);
			return -1;
		}
		srv[n] = list_entry(e, l, &gpus[n], why, len);
		if (!srv[n])
			return -1;
		for (unsigned int j = 0; j < n; j++) {
			if (srv[j] == srv[n] && gpus[j] == gpus[n]) {
				snprintf(why, len, "GPU %u of %.64s twice in the list", gpus[n],
					 srv[n]->name);
				return -1;
			}
		}
		n++;
		if (!e[l])
			return (int)n;
		e += l + 1;
	}
}

/*
 * gleamctl assign of a list of GPUs: checked against what the servers
 * said, and kept with each SERVER:GPU entry under its server's own name
 * (found again without a lookup); UUIDs are kept as given.
 */
static int assign_list(struct sched_pin *p, const char *target, char *err, size_t len)
{
	struct server *srv[GLEAM_HELLO_GPUS_MAX];
	uint8_t gpu[GLEAM_HELLO_GPUS_MAX];
	char list[sizeof(p->list)] = "";
	const char *e = target;
	size_t at = 0;
	int n = list_resolve(target, srv, gpu, GLEAM_HELLO_GPUS_MAX, err, len);

	if (n < 0)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		size_t l = strcspn(e, ",");
		int w;

		if (!strncmp(e, "GPU-", 4))
			w = snprintf(list + at, sizeof(list) - at, "%s%.*s", i ? "," : "", (int)l, e);
		else
			w = snprintf(list + at, sizeof(list) - at, "%s%s:%u", i ? "," : "",
				     srv[i]->name, gpu[i]);
		if (w < 0 || (size_t)w >= sizeof(list) - at || !list_ok(list)) {
			snprintf(err, len, "the list of GPUs is too long to keep (%zu characters at "
				 "most)", sizeof(list) - 1);
			return -EINVAL;
		}
		at += (size_t)w;
		e += l + 1;
	}
	snprintf(p->server, sizeof(p->server), "%s", srv[0]->name);
	p->gpu = gpu[0];
	memcpy(p->list, list, sizeof(list));
	return 0;
}

/* The pin of what, or a new one; NULL (said in err) when there is no room. */
static struct sched_pin *pin_slot(const char *what, char *err, size_t len)
{
	for (unsigned int i = 0; i < sc.npins; i++)
		if (!strcmp(sc.pins[i].what, what))
			return &sc.pins[i];
	if (sc.npins == SCHED_PINS_MAX) {
		snprintf(err, len, "no room for more pins");
		return NULL;
	}
	return &sc.pins[sc.npins++];
}

int sched_assign(const char *what, const char *target, char *err, size_t len)
{
	struct sched_pin *p = NULL;
	char server[256];
	int gpu;

	struct server *s;
	char warn[256] = "";

	err[0] = 0;
	if (!what_ok(what)) {
		snprintf(err, len, "pin vgpuN or socket, not '%.32s'", what);
		return -EINVAL;
	}
	/* Several GPUs, or one by UUID: the session's devices, in that order. */
	if (strchr(target, ',') || !strncmp(target, "GPU-", 4)) {
		struct sched_pin l = { 0 };

		if (assign_list(&l, target, err, len))
			return -EINVAL;
		p = pin_slot(what, err, len);
		if (!p)
			return -ENOSPC;
		snprintf(l.what, sizeof(l.what), "%s", what);
		*p = l;
		gl_info("%s pinned to GPUs %s", what, p->list);
		return saved(save(), err, len);
	}
	if (parse_target(target, server, sizeof(server), &gpu, err, len))
		return -ENOENT;
	s = find(server);
	if (gpu >= 0 && s->have_info && (unsigned int)gpu >= s->info.ngpus) {
		snprintf(err, len, "server %.128s has %u GPU(s): 0 to %d", server, s->info.ngpus,
			 (int)s->info.ngpus - 1);
		return -EINVAL;
	}
	if (gpu >= GLEAM_GPUS_MAX) {
		snprintf(err, len, "no GPU %d: a server has at most %d", gpu, GLEAM_GPUS_MAX);
		return -EINVAL;
	}
	/* Down, or not yet heard from: pinned all the same, the GPU checked when it says. */
	if (sched_usable(s, gl_now_ns()) && gpu >= 0 && !s->have_info)
		snprintf(warn, sizeof(warn), "warning: server %.64s has not said yet what GPUs it "
			 "has; GPU %d is checked when it does", server, gpu);
	else if (!sched_usable(s, gl_now_ns()))
		snprintf(warn, sizeof(warn), "warning: server %.64s is %s (%.48s); its sessions fail "
			 "until it answers%s", server, s->state == SRV_UP ? "stalled" : "down",
			 s->why[0] ? s->why : "not connected yet",
			 gpu >= 0 && !s->have_info ? ", which is when its GPUs are checked" : "");
	p = pin_slot(what, err, len);
	if (!p)
		return -ENOSPC;
	snprintf(p->what, sizeof(p->what), "%s", what);
	snprintf(p->server, sizeof(p->server), "%s", server);
	p->gpu = gpu;
	p->list[0] = 0;
	if (gpu >= 0)
		gl_info("%s pinned to %s GPU %d", what, server, gpu);
	else
		gl_info("%s pinned to %s", what, server);
	saved(save(), err, len);
	if (warn[0] && !err[0])
		snprintf(err, len, "%s", warn);
	return 0;
}

int sched_assign_clear(const char *what, char *err, size_t len)
{
	for (unsigned int i = 0; i < sc.npins; i++) {
		if (strcmp(sc.pins[i].what, what))
			continue;
		memmove(&sc.pins[i], &sc.pins[i + 1], (sc.npins - i - 1) * sizeof(sc.pins[0]));
		sc.npins--;
		gl_info("%s unpinned", what);
		return saved(save(), err, len);
	}
	snprintf(err, len, "%.32s is not pinned", what);
	return -ENOENT;
}

/* ---- what the servers say ---- */

bool sched_usable(const struct server *s, uint64_t now)
{
	/* A PING unanswered for a second and a half: the link is stalled or gone. */
	return s->used && !s->removed && s->state == SRV_UP &&
	       (!s->ping_sent || now - s->ping_sent < 1500000000ull) &&
	       (!s->link.ifindex || s->link.if_up);
}

void sched_link_up(struct server *s, int fd, uint64_t now)
{
	if (s->state != SRV_UP)
		gl_info("server %s up%s", s->name, s->tries ? " again" : "");
	s->state = SRV_UP;
	s->state_since = now;
	s->been_up = true;
	s->down_since = 0;
	s->tries = 0;
	s->why[0] = 0;
	s->ping_sent = 0;
	s->info_asked = 0;
	s->last_heard = now;
	memset(&s->ctl_tcp, 0, sizeof(s->ctl_tcp));
	linkmon_bind(&s->link, fd);
	linkmon_iface(&s->link, now);
	(void)fd;
}

void sched_link_down(struct server *s, const char *why, uint64_t now)
{
	uint64_t wait;

	if (s->state == SRV_UP) {
		gl_err("server %s down: %s", s->name, why);
		s->down_since = now;
	}
	s->state = SRV_DOWN;
	s->state_since = now;
	s->conn = NULL;
	s->ping_sent = 0;
	snprintf(s->why, sizeof(s->why), "%s", why);
	/* Again soon, then less often: 0.25 s doubling to 4 s. */
	wait = 250000000ull << MIN(s->tries, 4u);
	s->tries++;
	s->retry_at = now + wait;
	reap(s);
}

void sched_on_pong(struct server *s, const void *p, uint32_t len, uint64_t now)
{
	uint64_t cookie;

	s->last_heard = now;
	if (len != sizeof(cookie))
		return;
	memcpy(&cookie, p, sizeof(cookie));
	if (!s->ping_sent || cookie != s->ping_sent)
		return;
	link_sample_ping(&s->link, s->ping_sent, now);
	s->ping_sent = 0;
}

bool sched_on_info(struct server *s, const void *p, uint32_t len, uint64_t now)
{
	const unsigned char *b = p;
	struct gleam_server_info info;
	size_t base, full, nvml;

	if (len < sizeof(info))
		return false;
	memcpy(&info, b, sizeof(info));
	if (info.ngpus > GLEAM_GPUS_MAX)
		return false;
	base = sizeof(info) + (size_t)info.ngpus * sizeof(struct gleam_gpu_info);
	full = base + sizeof(struct gleam_server_usage) +
	       (size_t)info.ngpus * sizeof(struct gleam_gpu_usage);
	nvml = full + (size_t)info.ngpus * sizeof(struct gleam_gpu_nvml);
	/* With usage (and NVML's readings) when the server granted it: nothing else. */
	if (len != base && len != full && len != nvml)
		return false;
	info.backend[sizeof(info.backend) - 1] = 0;
	info.host[sizeof(info.host) - 1] = 0;
	s->info = info;
	for (unsigned int i = 0; i < info.ngpus; i++) {
		struct sched_gpu *g = &s->gpus[i];

		memcpy(&g->info, b + sizeof(info) + i * sizeof(g->info), sizeof(g->info));
		g->info.name[sizeof(g->info.name) - 1] = 0;
		memset(&g->usage, 0, sizeof(g->usage));
		if (len >= full)
			memcpy(&g->usage, b + base + sizeof(s->usage) + i * sizeof(g->usage),
			       sizeof(g->usage));
		memset(&g->nvml, 0, sizeof(g->nvml));
		if (len == nvml) {
			memcpy(&g->nvml, b + full + i * sizeof(g->nvml), sizeof(g->nvml));
			g->nvml.driver_version[sizeof(g->nvml.driver_version) - 1] = 0;
		}
		if (g->usage.util_pct > 100)
			g->usage.util_pct = 100;
		/*
		 * Ours it counted: those live, and those that ended a moment
		 * ago, whose workers the server may not have seen go yet.
		 */
		g->live_at_info = g->own;
		g->own_at_info = g->own;
		for (unsigned int k = 0; k < MIN(g->nended, (unsigned int)ARRAY_SIZE(g->ended)); k++)
			if (now - MIN(g->ended[k], now) < 1500000000ull)
				g->own_at_info++;
	}
	memset(&s->usage, 0, sizeof(s->usage));
	if (len >= full)
		memcpy(&s->usage, b + base, sizeof(s->usage));
	s->have_usage = len >= full;
	s->have_nvml = len == nvml;
	s->have_info = true;
	s->info_at = now;
	s->last_heard = now;
	return true;
}

#define TICK_PING_NS	125000000ull
#define TICK_INFO_NS	500000000ull

void sched_tick(const struct sched_ops *ops, void *role, uint64_t now)
{
	unsigned int dead_s = MAX(sc.cfg->keepalive_s, 2u);
	double best = 0;

	linkmon_refresh();
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		struct server *s = &sc.srv[i];
		uint64_t age;
		const char *src;
		double r;

		if (!s->used || s->removed)
			continue;
		link_flush(&s->link, now);
		r = link_rate(&s->link, now, &age, &src);
		if (age != UINT64_MAX)
			best = MAX(best, r);
	}
	link_assumed_rate = best > 0 ? best : LINK_DEFAULT_RATE;
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		struct server *s = &sc.srv[i];

		if (!s->used)
			continue;
		if (s->removed) {
			if (s->conn)
				ops->drop(role, s, "removed");
			reap(s);
			continue;
		}
		switch (s->state) {
		case SRV_DOWN:
			if (now >= s->retry_at && !s->conn) {
				s->state = SRV_CONNECTING;
				s->state_since = now;
				if (!s->first_try)
					s->first_try = now;
				ops->connect(role, s);
			}
			break;
		case SRV_CONNECTING:
			if (now - s->state_since > (uint64_t)dead_s * 1000000000ull && s->conn)
				ops->drop(role, s, "no answer to the hello");
			break;
		case SRV_UP:
			if (now - s->last_heard > (uint64_t)dead_s * 1000000000ull) {
				ops->drop(role, s, "silent");
				break;
			}
			if (linkmon_iface(&s->link, now)) {
				char why[64];

				snprintf(why, sizeof(why), "interface %s lost its carrier", s->link.ifname);
				ops->drop(role, s, why);
				break;
			}
			if (!s->ping_sent && now - s->link.rtt_ping.at >= TICK_PING_NS) {
				s->ping_sent = now;
				ops->send(role, s, GLEAM_FRAME_PING, &now, sizeof(now));
			}
			/* One question at a time, asked again if the answer is lost. */
			if (now - s->info_asked >= TICK_INFO_NS &&
			    (s->info_at >= s->info_asked || now - s->info_asked > 2000000000ull)) {
				s->info_asked = now;
				ops->send(role, s, GLEAM_FRAME_INFO_REQ, NULL, 0);
			}
			break;
		}
	}
}

/* ---- programs ---- */

static struct sched_prog *prog(const char *name, bool make)
{
	struct sched_prog *old = &sc.progs[0];

	for (unsigned int i = 0; i < SCHED_PROGRAMS_MAX; i++) {
		struct sched_prog *p = &sc.progs[i];

		if (p->runs && !strcmp(p->name, name))
			return p;
		if (p->used < old->used)
			old = p;
	}
	if (!make)
		return NULL;
	/* The one used longest ago makes room. */
	free(old->names);
	free(old->lens);
	*old = unknown_prog;
	old->names = NULL;
	old->lens = NULL;
	old->nnames = 0;
	snprintf(old->name, sizeof(old->name), "%s", name);
	return old;
}

/* Bytes of what p uploaded last time that s holds. */
static double held_bytes(const struct sched_prog *p, const struct server *s)
{
	double n = 0;

	if (!s->held.n)
		return 0;
	for (uint32_t i = 0; i < p->nnames; i++)
		if (nset_find((struct nset *)&s->held, &p->names[i]))
			n += p->lens[i];
	return n;
}

/*
 * Sessions on the GPU now: what the server counted, of which ours then
 * are taken out, and ours now put in (those placed since its last INFO).
 */
static double gpu_sessions(const struct server *s, int gpu)
{
	const struct sched_gpu *g = &s->gpus[gpu];
	unsigned int rep = MAX(g->info.sessions, g->usage.workers);

	if (s->info.ngpus == 1)
		rep = MAX(rep, MAX(s->info.sessions, s->usage.sessions));
	else if (!rep && s->info.ngpus)
		rep = MAX(s->info.sessions, s->usage.sessions) / s->info.ngpus;
	return (double)(MAX(rep, g->own_at_info) - g->own_at_info + g->own);
}

/*
 * The model (Documentation/scheduler.md):
 *   T = (up - held + down) * (1 + own) / rate + waits * rtt
 *     + gpu_s * (1 + others * busy) + waits * wait
 */
double sched_predict(const struct sched_prog *p, const struct server *s, int gpu, uint64_t now,
		     struct sched_cand *parts)
{
	uint64_t age;
	const char *src;
	double rtt = link_rtt(&s->link, now, &age, &src);
	double rate = link_rate(&s->link, now, &age, &src);
	double loss = link_loss(&s->link);
	double up = MAX(0.0, p->up - held_bytes(p, s));
	double t = 0, others = 0, busy = 1, wait = 0, fresh = 0;

	/* A lossy link carries what TCP lets through (Mathis et al.). */
	if (loss > 0)
		rate = MIN(rate, 1448.0 / (rtt * sqrt(2.0 * loss / 3.0)));
	rate = MAX(rate, 1e3);
	t += (up + p->down) * (1.0 + s->own) / rate + p->waits * rtt;
	if (gpu >= 0 && s->have_info && (unsigned int)gpu < s->info.ngpus) {
		const struct gleam_gpu_usage *u = &s->gpus[gpu].usage;

		const struct sched_gpu *g = &s->gpus[gpu];

		others = gpu_sessions(s, gpu);
		/*
		 * A measured utilisation says how much of the others' time is
		 * spent on the GPU; it did not see the sessions placed since
		 * the last INFO, which are taken as busy.
		 */
		if (u->flags & GLEAM_USAGE_F_UTIL) {
			fresh = g->own > g->live_at_info ? g->own - g->live_at_info : 0;
			busy = u->util_pct / 100.0;
		}
		/* Records queue behind other sessions' only: alone, the wait is not ours to pay. */
		wait = others > 0 ? u->wait_us / 1e6 : 0;
	} else {
		others = s->own;
	}
	if (parts) {
		parts->link_s = t;
		parts->rate = rate;
		parts->rtt = rtt;
		parts->others = others;
	}
	t += p->gpu_s * (1.0 + (others - fresh) * busy + fresh) + p->waits * wait;
	if (parts)
		parts->gpu_s = t - parts->link_s;
	return t;
}

static bool fits(const struct sched_prog *p, const struct server *s, int gpu)
{
	const struct sched_gpu *g;
	uint64_t total;

	if (gpu < 0 || !s->have_info || p->peak <= 0)
		return true;
	g = &s->gpus[gpu];
	total = g->usage.mem_total ? g->usage.mem_total : g->info.total_mem;
	if (!total)
		return true;
	return p->peak <= (double)total - (double)MIN(g->usage.mem_used, total);
}

static const struct sched_pin *pin_for(const char *via)
{
	for (unsigned int i = 0; i < sc.npins; i++)
		if (!strcmp(sc.pins[i].what, via))
			return &sc.pins[i];
	return NULL;
}

static int ngpus(const struct server *s)
{
	return s->have_info && s->info.ngpus ? (int)s->info.ngpus : 1;
}

/* The GPU named in the hello: only where the server has more than one, or a pin says. */
static void finish(struct sched_choice *c, bool named)
{
	const struct server *s = c->srv;

	if (c->gpu >= 0 && !named && (!s->have_info || s->info.ngpus <= 1))
		c->gpu_named = false;
	else
		c->gpu_named = c->gpu >= 0;
}

static void choose_auto(const struct sched_prog *p, struct server *only, struct sched_choice *c,
			uint64_t now)
{
	struct sched_cand all[SCHED_SERVERS_MAX * 4];
	unsigned int n = 0;

	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		struct server *s = &sc.srv[i];

		if (only ? s != only : !sched_usable(s, now))
			continue;
		for (int g = 0; g < ngpus(s) && n < ARRAY_SIZE(all); g++) {
			int gpu = s->have_info ? g : -1;

			/* Memory that does not fit is never chosen. */
			if (!fits(p, s, gpu))
				continue;
			all[n].srv = (int)i;
			all[n].gpu = gpu;
			all[n].t = sched_predict(p, s, gpu, now, &all[n]);
			n++;
		}
	}
	/* Insertion sort: a handful of candidates. */
	for (unsigned int i = 1; i < n; i++) {
		struct sched_cand k = all[i];
		unsigned int j = i;

		while (j && (all[j - 1].t > k.t ||
			     (all[j - 1].t == k.t && sc.srv[all[j - 1].srv].own > sc.srv[k.srv].own))) {
			all[j] = all[j - 1];
			j--;
		}
		all[j] = k;
	}
	c->ntop = MIN(n, (unsigned int)SCHED_TOP);
	memcpy(c->top, all, c->ntop * sizeof(all[0]));
	if (n) {
		c->srv = &sc.srv[all[0].srv];
		c->gpu = all[0].gpu;
	}
}

/* Every usable (server, GPU), in list order. */
static unsigned int pairs(struct sched_cand *out, unsigned int max, uint64_t now)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		struct server *s = &sc.srv[i];

		if (!sched_usable(s, now))
			continue;
		for (int g = 0; g < ngpus(s) && n < max; g++) {
			out[n] = (struct sched_cand){ .srv = (int)i, .gpu = s->have_info ? g : -1 };
			n++;
		}
	}
	return n;
}

static void log_choice(uint64_t id, const char *program, const char *via,
		       const struct sched_choice *c, bool learnt)
{
	struct sched_log *l = &sc.log[sc.nlog++ % SCHED_LOG_MAX];

	memset(l, 0, sizeof(*l));
	l->id = id;
	snprintf(l->program, sizeof(l->program), "%s", program);
	snprintf(l->via, sizeof(l->via), "%s", via);
	l->srv = c->srv ? (int)(c->srv - sc.srv) : -1;
	snprintf(l->server, sizeof(l->server), "%s", c->srv ? c->srv->name : "");
	l->gpu = c->gpu;
	l->live = true;
	l->learnt = learnt;
	l->at = gl_now_ns();
	snprintf(l->why, sizeof(l->why), "%s", c->why);
	l->ntop = c->ntop;
	for (unsigned int i = 0; i < c->ntop; i++) {
		l->top[i] = c->top[i];
		snprintf(l->top_server[i], sizeof(l->top_server[i]), "%s", sc.srv[c->top[i].srv].name);
	}
}

/*
 * The choice itself, counting nothing (dry: nor moving round-robin on); the
 * program's profile, when the model knows it, in *pp.
 */
static void choose(const char *name, const char *via, struct sched_choice *c,
		   struct sched_prog **pp, bool *named, bool dry)
{
	const struct sched_pin *pin = pin_for(via);
	char program[64];
	/* It goes into text and JSON; /dev/vgpuN sessions' names come unfiltered. */
	struct sched_prog *p = prog(safe(name, 63, program, sizeof(program)), false);
	const struct sched_prog *m = p ? p : &unknown_prog;
	uint64_t now = gl_now_ns();

	*pp = p;
	*named = false;
	memset(c, 0, sizeof(*c));
	c->gpu = -1;
	if (pin && find(pin->server)) {
		struct server *s = find(pin->server);

		c->srv = s;
		if (pin->gpu >= 0) {
			c->gpu = pin->gpu;
			*named = true;
		} else {
			/* Pinned to a server: its GPUs are still chosen between. */
			choose_auto(m, s, c, now);
			c->srv = s;
			c->ntop = 0;
			if (c->gpu < 0 && s->have_info)
				c->gpu = 0;
		}
		snprintf(c->why, sizeof(c->why), "pinned (%s)", via);
	} else if (sc.policy == PL_AUTO) {
		choose_auto(m, NULL, c, now);
		snprintf(c->why, sizeof(c->why), "auto: least predicted time%s",
			 p ? "" : " (program not seen before: defaults)");
	} else {
		struct sched_cand all[SCHED_SERVERS_MAX * 4];
		unsigned int n = pairs(all, ARRAY_SIZE(all), now);

		if (n) {
			unsigned int seed = sc.seed;
			unsigned int k = sc.policy == PL_RR ? sc.rr % n :
					 (unsigned int)rand_r(dry ? &seed : &sc.seed) % n;

			if (!dry && sc.policy == PL_RR)
				sc.rr++;
			c->srv = &sc.srv[all[k].srv];
			c->gpu = all[k].gpu;
		}
		snprintf(c->why, sizeof(c->why), "%s", sched_placement());
	}
	if (!c->srv) {
		/* Nothing usable: the first server, which may come back in time. */
		for (unsigned int i = 0; i < SCHED_SERVERS_MAX && !c->srv; i++)
			if (sc.srv[i].used && !sc.srv[i].removed)
				c->srv = &sc.srv[i];
		snprintf(c->why, sizeof(c->why), "no server usable now: the first one");
	}
	if (c->gpu >= GLEAM_GPUS_MAX)
		c->gpu = -1;
	if (c->srv)
		finish(c, *named);
}

void sched_preview(const char *program, const char *via, struct sched_choice *c)
{
	struct sched_prog *p;
	bool named;

	choose(program, via, c, &p, &named, true);
}

void sched_place(uint64_t id, const char *name, const char *via, struct sched_choice *c)
{
	sched_place_on(id, name, via, NULL, -1, c);
}

void sched_place_on(uint64_t id, const char *name, const char *via, struct server *srv, int gpu,
		    struct sched_choice *c)
{
	char program[64];
	struct sched_prog *p;
	bool named;

	safe(name, 63, program, sizeof(program));
	choose(name, via, c, &p, &named, false);
	if (srv) {
		c->srv = srv;
		c->gpu = gpu;
		c->gpu_named = gpu >= 0;
		c->ntop = 0;
	}
	if (!c->srv) {
		log_choice(id, program, via, c, p);
		return;
	}
	c->srv->own++;
	c->srv->placed++;
	if (c->gpu >= 0)
		c->srv->gpus[c->gpu].own++;
	if (p)
		p->used = gl_now_ns();
	log_choice(id, program, via, c, p);
}

/* "NAME (why)" of a server counted out, appended to buf. */
static void say_down(char *buf, size_t len, const struct server *s, bool first)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s (%s)", first ? "" : ", ", s->name,
			 s->why[0] ? s->why : "not reached yet");
}

/*
 * A program asks for a session while every server it may use is counted
 * out: try those servers again now rather than at their next backoff, so
 * that a link that came back serves the program (sched_refuse then says
 * false) and one still down refuses it within a second or two.
 */
void sched_retry_now(const char *via)
{
	const struct sched_pin *pin = pin_for(via);
	uint64_t now = gl_now_ns();

	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		struct server *s = &sc.srv[i];

		if (!s->used || s->removed || s->state != SRV_DOWN || s->conn)
			continue;
		if (pin && find(pin->server) != s)
			continue;
		s->retry_at = MIN(s->retry_at, now);
	}
}

static const struct sched_pin *pin_for(const char *via);

/*
 * One entry of CUDA_VISIBLE_DEVICES, as NVIDIA's driver reads it: an index
 * into the n GPUs the process could see, or a GPU's UUID, "GPU-" and as
 * many of its characters as name one alone.  uuids[i]: the i-th GPU's.
 * The position, or -1.
 */
static int entry_among(const uint8_t *const *uuids, unsigned int n, const char *e, size_t len)
{
	char uuid[64];
	int found = -1;

	if (len && strspn(e, "0123456789") >= len) {
		unsigned long i = strtoul(e, NULL, 10);

		return len <= 3 && i < n ? (int)i : -1;
	}
	if (len < 5 || strncmp(e, "GPU-", 4))
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		gl_uuid_str(uuids[i], uuid, sizeof(uuid));
		if (len <= strlen(uuid) && !strncasecmp(uuid, e, len)) {
			if (found >= 0)
				return -1;	/* a prefix of two: names neither */
			found = (int)i;
		}
	}
	return found;
}

/* An entry among server s's GPUs base[0..n). */
static int visible_entry(const struct server *s, const uint8_t *base, unsigned int n,
			 const char *e, size_t len)
{
	const uint8_t *uuids[GLEAM_GPUS_MAX];

	n = MIN(n, (unsigned int)GLEAM_GPUS_MAX);
	for (unsigned int i = 0; i < n; i++)
		uuids[i] = s->gpus[base[i]].info.uuid;
	return entry_among(uuids, n, e, len);
}

int sched_visible(const struct server *s, const char *via, const char *visible, uint8_t *gpus,
		  unsigned int max, char *why, size_t len)
{
	const struct sched_pin *pin = pin_for(via);
	int gpu = pin && pin->gpu >= 0 && find(pin->server) == s ? pin->gpu : -1;
	uint8_t base[GLEAM_GPUS_MAX];
	unsigned int n = 0, got = 0;
	uint64_t seen = 0;
	const char *e = visible;

	if (!s || !s->have_info) {
		snprintf(why, len, "CUDA_VISIBLE_DEVICES is set, and %.80s has not said yet what "
			 "GPUs it has", s ? s->name : "no server");
		return -1;
	}
	if (gpu >= 0)
		base[n++] = (uint8_t)gpu;
	else
		for (; n < s->info.ngpus && n < GLEAM_GPUS_MAX; n++)
			base[n] = (uint8_t)n;
	/* Entries up to the first that names no GPU, or one named already. */
	while (got < max) {
		size_t l = strcspn(e, ",");
		int i = visible_entry(s, base, n, e, l);

		if (i < 0)
			break;
		/* One GPU twice: NVIDIA's driver fails cuInit (CUDA_ERROR_INVALID_DEVICE). */
		if (seen & (1ull << i)) {
			snprintf(why, len, "CUDA_VISIBLE_DEVICES=\"%.64s\" names a GPU twice", visible);
			return -2;
		}
		seen |= 1ull << i;
		gpus[got++] = base[i];
		if (!e[l])
			break;
		e += l + 1;
	}
	if (!got) {
		snprintf(why, len, "CUDA_VISIBLE_DEVICES=\"%.64s\" names none of the %u GPU(s) "
			 "this session may use on %.80s", visible, n, s->name);
		return -1;
	}
	return (int)got;
}

/*
 * One entry of CUDA_VISIBLE_DEVICES read against every server that has said
 * what GPUs it has: a UUID, or a prefix of one, that names one GPU of them
 * all.  Its server and GPU, or NULL.
 */
static struct server *span_entry(const char *e, size_t l, uint8_t *gpu)
{
	uint8_t all[GLEAM_GPUS_MAX];
	struct server *found = NULL;

	for (unsigned int i = 0; i < GLEAM_GPUS_MAX; i++)
		all[i] = (uint8_t)i;
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		struct server *s = &sc.srv[i];
		int g;

		if (!s->used || s->removed || !s->have_info)
			continue;
		g = visible_entry(s, all, MIN(s->info.ngpus, (unsigned int)GLEAM_GPUS_MAX), e, l);
		if (g < 0)
			continue;
		if (found)
			return NULL;	/* a prefix of two servers' GPUs: names neither */
		found = s;
		*gpu = (uint8_t)g;
	}
	return found;
}

int sched_visible_span(struct server *first, const char *visible, struct server **srv,
		       uint8_t *gpus, unsigned int max, char *why, size_t len)
{
	uint8_t all[GLEAM_GPUS_MAX];
	unsigned int got = 0;
	const char *e = visible;

	for (unsigned int i = 0; i < GLEAM_GPUS_MAX; i++)
		all[i] = (uint8_t)i;
	while (got < max) {
		size_t l = strcspn(e, ",");
		struct server *s = NULL;
		uint8_t g = 0;
		int i;

		if (l >= 5 && !strncmp(e, "GPU-", 4)) {
			s = span_entry(e, l, &g);
		} else if (first && first->have_info) {
			i = visible_entry(first, all, MIN(first->info.ngpus,
							  (unsigned int)GLEAM_GPUS_MAX), e, l);
			s = i >= 0 ? first : NULL;
			g = (uint8_t)(i >= 0 ? i : 0);
		}
		if (!s)
			break;
		for (unsigned int j = 0; j < got; j++) {
			if (srv[j] == s && gpus[j] == g) {
				snprintf(why, len, "CUDA_VISIBLE_DEVICES=\"%.64s\" names a GPU twice",
					 visible);
				return -2;
			}
		}
		srv[got] = s;
		gpus[got++] = g;
		if (!e[l])
			break;
		e += l + 1;
	}
	if (!got) {
		snprintf(why, len, "CUDA_VISIBLE_DEVICES=\"%.64s\" names none of the GPUs of the "
			 "servers this gleamd knows", visible);
		return -1;
	}
	return (int)got;
}

/* An entry of CUDA_VISIBLE_DEVICES among a pin's n GPUs: its position, or -1. */
static int pin_visible_entry(struct server *const *srv, const uint8_t *gpus, unsigned int n,
			     const char *e, size_t l)
{
	const uint8_t *uuids[GLEAM_GPUS_MAX];

	n = MIN(n, (unsigned int)GLEAM_GPUS_MAX);
	for (unsigned int i = 0; i < n; i++)
		uuids[i] = srv[i]->gpus[gpus[i]].info.uuid;
	return entry_among(uuids, n, e, l);
}

int sched_pin_list(const char *via, const char *visible, struct server **srv, uint8_t *gpus,
		   unsigned int max, char *why, size_t len)
{
	const struct sched_pin *pin = pin_for(via);
	struct server *ls[GLEAM_HELLO_GPUS_MAX];
	uint8_t lg[GLEAM_HELLO_GPUS_MAX];
	char w[200];
	unsigned int got = 0;
	uint64_t seen = 0;
	const char *e = visible;
	int n;

	if (!pin || !pin->list[0])
		return 0;
	n = list_resolve(pin->list, ls, lg, GLEAM_HELLO_GPUS_MAX, w, sizeof(w));
	if (n < 0) {
		snprintf(why, len, "pinned (%s) to GPUs %.80s: %s", via, pin->list, w);
		return -1;
	}
	if (!visible) {
		got = MIN((unsigned int)n, max);
		memcpy(srv, ls, got * sizeof(*srv));
		memcpy(gpus, lg, got);
		return (int)got;
	}
	/* As the driver reads it among the GPUs it may see: the pin's. */
	while (got < max) {
		size_t l = strcspn(e, ",");
		int i = pin_visible_entry(ls, lg, (unsigned int)n, e, l);

		if (i < 0)
			break;
		if (seen & (1ull << i)) {
			snprintf(why, len, "CUDA_VISIBLE_DEVICES=\"%.64s\" names a GPU twice", visible);
			return -2;
		}
		seen |= 1ull << i;
		srv[got] = ls[i];
		gpus[got++] = lg[i];
		if (!e[l])
			break;
		e += l + 1;
	}
	if (!got) {
		snprintf(why, len, "CUDA_VISIBLE_DEVICES=\"%.64s\" names none of the %d GPU(s) "
			 "pinned for %s", visible, n, via);
		return -2;
	}
	return (int)got;
}

bool sched_refuse(const char *via, char *why, size_t len)
{
	const struct sched_pin *pin = pin_for(via);
	uint64_t now = gl_now_ns();
	bool any = false;

	why[0] = 0;
	if (pin) {
		const struct server *s = find(pin->server);

		if (!s) {
			snprintf(why, len, "pinned (%s) to %s, which is not a server", via, pin->server);
			return true;
		}
		if (pin->gpu >= 0 && s->have_info && (unsigned int)pin->gpu >= s->info.ngpus) {
			snprintf(why, len, "pinned (%s) to GPU %d of server %s, which has %u", via,
				 pin->gpu, s->name, s->info.ngpus);
			return true;
		}
		if (!given_up(s, now))
			return false;
		snprintf(why, len, "pinned (%s) to a server that does not answer: ", via);
		say_down(why, len, s, true);
		return true;
	}
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		const struct server *s = &sc.srv[i];

		if (s->used && !s->removed && !given_up(s, now))
			return false;
	}
	snprintf(why, len, "no GPU server reachable: ");
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		const struct server *s = &sc.srv[i];

		if (s->used && !s->removed) {
			say_down(why, len, s, !any);
			any = true;
		}
	}
	if (!any)
		snprintf(why, len, "no GPU server configured (gleamctl servers add HOST[:PORT])");
	return true;
}

void sched_held(struct server *s, const struct chunk_name *name, uint32_t len)
{
	struct nset_ent *e;

	if (!s || s->held.n >= SCHED_HELD_MAX)
		return;
	e = nset_add(&s->held, name);
	if (e)
		e->count = len;
}

void sched_session_end(struct server *s, int gpu, const struct sched_run *r)
{
	struct sched_prog *p;
	uint64_t now = gl_now_ns(), age;
	const char *src;
	char name[64];
	double wall = r->wall_ns / 1e9, link_s, rate, gpu_s, others = 0;

	for (unsigned int i = 0; i < MIN(sc.nlog, (unsigned int)SCHED_LOG_MAX); i++) {
		struct sched_log *l = &sc.log[i];

		if (l->id == r->id && l->live) {
			l->live = false;
			l->wall_s = wall;
		}
	}
	if (!s)
		return;
	if (s->own)
		s->own--;
	if (gpu >= 0 && gpu < GLEAM_GPUS_MAX && s->gpus[gpu].own) {
		struct sched_gpu *g = &s->gpus[gpu];

		g->own--;
		g->ended[g->nended++ % ARRAY_SIZE(g->ended)] = now;
	}
	/* A session that did nothing teaches nothing. */
	if (!r->records || !r->program[0])
		goto out;
	p = prog(safe(r->program, 63, name, sizeof(name)), true);
	rate = MAX(link_rate(&s->link, now, &age, &src), 1e3);
	link_s = (double)(r->bytes_crossed + r->bytes_down) / rate +
		 (double)r->waits * link_rtt(&s->link, now, &age, &src);
	if (gpu >= 0 && s->have_info && (unsigned int)gpu < s->info.ngpus)
		others = gpu_sessions(s, gpu);
	/*
	 * What the link does not explain was replay, slowed by the sessions
	 * that shared the GPU; never less than a twentieth of the session.
	 * Where the link's rate is a guess and much crossed, the difference
	 * says more about the guess: the replay time learnt before stays.
	 */
	gpu_s = MAX(wall - link_s, wall / 20) / (1.0 + others);
	if (age == UINT64_MAX && r->bytes_crossed + r->bytes_down > (1 << 20) && p->runs)
		gpu_s = p->gpu_s;
#define LEARN(f, x) (p->f = p->runs ? 0.5 * p->f + 0.5 * (x) : (x))
	LEARN(up, (double)r->bytes_up);
	LEARN(down, (double)r->bytes_down);
	LEARN(waits, (double)r->waits);
	LEARN(records, (double)r->records);
	LEARN(gpu_s, gpu_s);
#undef LEARN
	/* What it uploaded had to be on the device at once, at least. */
	p->peak = (double)r->bytes_up;
	if (r->nnames) {
		free(p->names);
		free(p->lens);
		p->names = malloc(r->nnames * sizeof(*p->names));
		p->lens = malloc(r->nnames * sizeof(*p->lens));
		if (p->names && p->lens) {
			memcpy(p->names, r->names, r->nnames * sizeof(*p->names));
			memcpy(p->lens, r->lens, r->nnames * sizeof(*p->lens));
			p->nnames = r->nnames;
		} else {
			free(p->names);
			free(p->lens);
			p->names = NULL;
			p->lens = NULL;
			p->nnames = 0;
		}
	}
	p->runs++;
	p->used = now;
out:
	reap(s);
}

/* ---- gleamctl stats and servers ---- */

static const char *state_name(const struct server *s, uint64_t now)
{
	if (s->removed)
		return "removed";
	if (s->state == SRV_UP)
		return sched_usable(s, now) ? "up" : "stalled";
	return s->state == SRV_CONNECTING ? "connecting" : "down";
}

/* Why a server is not chosen now, or why it went down. */
static const char *why(const struct server *s, uint64_t now, char *buf, size_t len)
{
	if (s->state != SRV_UP || sched_usable(s, now))
		return safe(s->why, sizeof(s->why), buf, len);
	if (s->link.ifindex && !s->link.if_up)
		snprintf(buf, len, "interface %s down or without carrier", s->link.ifname);
	else
		snprintf(buf, len, "PING unanswered for %.1f s", (now - s->ping_sent) / 1e9);
	return buf;
}

static double age_s(uint64_t age)
{
	return age == UINT64_MAX ? -1.0 : age / 1e9;
}

/* A link's round trip time and rate now, how old each is and where it came from. */
struct link_now {
	double rtt, rate;
	uint64_t rtt_age, rate_age;
	const char *rtt_src, *rate_src;
};

static void link_now(const struct link_est *k, uint64_t now, struct link_now *l)
{
	l->rtt = link_rtt(k, now, &l->rtt_age, &l->rtt_src);
	l->rate = link_rate(k, now, &l->rate_age, &l->rate_src);
}

static void server_json(struct gl_buf *b, const struct server *s, uint64_t now)
{
	struct link_now l;
	char t[128];

	link_now(&s->link, now, &l);
	gl_buf_printf(b, "{\"address\":\"%s\",\"state\":\"%s\",\"for_s\":%.3f,\"why\":\"%s\","
		      "\"own_sessions\":%u,\"placed\":%llu,\"chunks_known\":%zu,"
		      "\"link\":{\"rtt_ms\":%.3f,\"rtt_min_ms\":%.3f,\"rtt_src\":\"%s\",\"rtt_age_s\":%.3f,"
		      "\"tcp_rtt_ms\":%.3f,\"tcp_trusted\":%s,"
		      "\"rate_mbit\":%.3f,\"rate_src\":\"%s\",\"rate_age_s\":%.3f,\"loss_pct\":%.3f,"
		      "\"loss_age_s\":%.3f,\"iface\":\"%s\",\"iface_up\":%s,\"iface_errors\":%llu,"
		      "\"upload_bytes_raw\":%llu,\"upload_bytes_wire\":%llu}",
		      s->name, state_name(s, now), (now - MIN(s->state_since, now)) / 1e9,
		      why(s, now, t, sizeof(t)), s->own, (unsigned long long)s->placed,
		      s->held.n, l.rtt * 1e3, link_rtt_min(&s->link) * 1e3, l.rtt_src, age_s(l.rtt_age),
		      s->link.rtt_tcp.v * 1e3, link_tcp_trusted(&s->link) ? "true" : "false",
		      l.rate * 8 / 1e6, l.rate_src,
		      age_s(l.rate_age), link_loss(&s->link) * 100, age_s(ewma_age(&s->link.loss, now)),
		      s->link.ifname, s->link.ifindex ? (s->link.if_up ? "true" : "false") : "null",
		      (unsigned long long)s->link.if_errors, (unsigned long long)s->pack[0],
		      (unsigned long long)s->pack[1]);
	if (!s->have_info) {
		gl_buf_printf(b, ",\"info_age_s\":-1,\"gpus\":[]}");
		return;
	}
	gl_buf_printf(b, ",\"info_age_s\":%.3f,\"backend\":\"%s\",\"sessions\":%u,\"gpus\":[",
		      (now - MIN(s->info_at, now)) / 1e9,
		      safe(s->info.backend, sizeof(s->info.backend), t, sizeof(t)), s->info.sessions);
	for (unsigned int g = 0; g < s->info.ngpus; g++) {
		const struct sched_gpu *u = &s->gpus[g];

		gl_buf_printf(b, "%s{\"index\":%u,\"name\":\"%s\",\"util_pct\":%u,\"util_measured\":%s,"
			      "\"mem_used\":%llu,\"mem_total\":%llu,\"sessions\":%.0f,\"own\":%u,"
			      "\"wait_us\":%u}", g ? "," : "", g,
			      safe(u->info.name, sizeof(u->info.name), t, sizeof(t)), u->usage.util_pct,
			      u->usage.flags & GLEAM_USAGE_F_UTIL ? "true" : "false",
			      (unsigned long long)u->usage.mem_used,
			      (unsigned long long)(u->usage.mem_total ? u->usage.mem_total : u->info.total_mem),
			      gpu_sessions(s, (int)g), u->own, u->usage.wait_us);
	}
	gl_buf_printf(b, "]}");
}

static void server_text(struct gl_buf *b, const struct server *s, uint64_t now)
{
	struct link_now l;
	char t[128];

	link_now(&s->link, now, &l);
	gl_buf_printf(b, "%s: %s for %.1f s", s->name, state_name(s, now),
		      (now - MIN(s->state_since, now)) / 1e9);
	if (!sched_usable(s, now))
		gl_buf_printf(b, " (%s)", why(s, now, t, sizeof(t)));
	gl_buf_printf(b, "; %u own session(s), %llu placed\n", s->own, (unsigned long long)s->placed);
	gl_buf_printf(b, "  link: rtt %.3f ms, least %.3f (%s", l.rtt * 1e3,
		      link_rtt_min(&s->link) * 1e3, l.rtt_src);
	if (l.rtt_age != UINT64_MAX)
		gl_buf_printf(b, ", %.1f s old", age_s(l.rtt_age));
	gl_buf_printf(b, "), rate %.1f Mbit/s (%s", l.rate * 8 / 1e6, l.rate_src);
	if (l.rate_age != UINT64_MAX)
		gl_buf_printf(b, ", %.1f s old", age_s(l.rate_age));
	gl_buf_printf(b, "), loss %.2f%%, interface %s%s\n", link_loss(&s->link) * 100,
		      s->link.ifindex ? s->link.ifname : "?",
		      !s->link.ifindex ? "" : s->link.if_up ? " (up)" : " (DOWN)");
	gl_buf_printf(b, "  uploads' bytes: %llu before compression, %llu on the wire (%.1f%%)\n",
		      (unsigned long long)s->pack[0], (unsigned long long)s->pack[1],
		      s->pack[0] ? 100.0 * (double)s->pack[1] / (double)s->pack[0] : 100.0);
	if (!s->have_info)
		return;
	for (unsigned int g = 0; g < s->info.ngpus; g++) {
		const struct sched_gpu *u = &s->gpus[g];
		uint64_t total = u->usage.mem_total ? u->usage.mem_total : u->info.total_mem;

		gl_buf_printf(b, "  GPU %u %s: util %s%u%%, memory %llu/%llu MiB, sessions %.0f (own %u), "
			      "wait %u us\n", g, safe(u->info.name, sizeof(u->info.name), t, sizeof(t)),
			      u->usage.flags & GLEAM_USAGE_F_UTIL ? "" : "(not measured) ",
			      u->usage.util_pct, (unsigned long long)(u->usage.mem_used >> 20),
			      (unsigned long long)(total >> 20), gpu_sessions(s, (int)g), u->own,
			      u->usage.wait_us);
	}
}

/* Each GPU a server said it has: its index, UUID and name (what assign names). */
static void server_gpus(struct gl_buf *b, const struct server *s, bool json)
{
	char uuid[64], name[128];

	for (unsigned int g = 0; s->have_info && g < s->info.ngpus && g < GLEAM_GPUS_MAX; g++) {
		const struct sched_gpu *u = &s->gpus[g];

		gl_uuid_str(u->info.uuid, uuid, sizeof(uuid));
		safe(u->info.name, sizeof(u->info.name), name, sizeof(name));
		if (json)
			gl_buf_printf(b, "%s{\"index\":%u,\"uuid\":\"%s\",\"name\":\"%s\"}",
				      g ? "," : "", g, uuid, name);
		else
			gl_buf_printf(b, "  GPU %u %s %s\n", g, uuid, name);
	}
}

char *sched_servers(bool json)
{
	struct gl_buf b = { .max = GLEAM_CTL_REPLY_MAX };
	uint64_t now = gl_now_ns();
	bool first = true;

	gl_buf_printf(&b, json ? "{\"servers\":[" : "");
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		const struct server *s = &sc.srv[i];

		if (!s->used || s->removed)
			continue;
		if (json)
			gl_buf_printf(&b, "%s{\"address\":\"%s\",\"state\":\"%s\",\"added\":%s,"
				      "\"gpus\":[", first ? "" : ",", s->name, state_name(s, now),
				      s->added ? "true" : "false");
		else
			gl_buf_printf(&b, "%s %s%s\n", s->name, state_name(s, now),
				      s->added ? " (added by gleamctl)" : "");
		server_gpus(&b, s, json);
		if (json)
			gl_buf_printf(&b, "]}");
		first = false;
	}
	gl_buf_printf(&b, json ? "]}\n" : "");
	if (!json && first)
		gl_buf_printf(&b, "no servers\n");
	return b.b;
}

char *sched_stats(bool json)
{
	struct gl_buf b = { .max = GLEAM_CTL_REPLY_MAX };
	uint64_t now = gl_now_ns();
	unsigned int n = MIN(sc.nlog, (unsigned int)SCHED_LOG_MAX);
	bool first = true;

	if (json)
		gl_buf_printf(&b, "{\"placement\":\"%s\",\"servers\":[", sched_placement());
	else
		gl_buf_printf(&b, "placement: %s\n", sched_placement());
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++) {
		if (!sc.srv[i].used)
			continue;
		if (json) {
			gl_buf_printf(&b, first ? "" : ",");
			server_json(&b, &sc.srv[i], now);
		} else {
			server_text(&b, &sc.srv[i], now);
		}
		first = false;
	}
	gl_buf_printf(&b, json ? "],\"pins\":[" : sc.npins ? "pins:\n" : "");
	for (unsigned int i = 0; i < sc.npins; i++) {
		const struct sched_pin *p = &sc.pins[i];

		if (json)
			gl_buf_printf(&b, "%s{\"what\":\"%s\",\"server\":\"%s\",\"gpu\":%d,"
				      "\"gpus\":\"%s\"}", i ? "," : "", p->what, p->server, p->gpu,
				      p->list);
		else if (p->list[0])
			gl_buf_printf(&b, "  %s -> GPUs %s\n", p->what, p->list);
		else if (p->gpu >= 0)
			gl_buf_printf(&b, "  %s -> %s GPU %d\n", p->what, p->server, p->gpu);
		else
			gl_buf_printf(&b, "  %s -> %s\n", p->what, p->server);
	}
	gl_buf_printf(&b, json ? "],\"programs\":[" : "");
	first = true;
	for (unsigned int i = 0; i < SCHED_PROGRAMS_MAX; i++) {
		const struct sched_prog *p = &sc.progs[i];

		if (!p->runs)
			continue;
		if (json)
			gl_buf_printf(&b, "%s{\"program\":\"%s\",\"runs\":%u,\"up\":%.0f,\"down\":%.0f,"
				      "\"waits\":%.0f,\"records\":%.0f,\"gpu_s\":%.4f,\"uploads_named\":%u}",
				      first ? "" : ",", p->name, p->runs, p->up, p->down, p->waits,
				      p->records, p->gpu_s, p->nnames);
		first = false;
	}
	if (json)
		gl_buf_printf(&b, "],\"sessions\":[");
	else if (n)
		gl_buf_printf(&b, "sessions, latest first:\n");
	for (unsigned int k = 0; k < n; k++) {
		const struct sched_log *l = &sc.log[(sc.nlog - 1 - k) % SCHED_LOG_MAX];

		if (json) {
			gl_buf_printf(&b, "%s{\"id\":%llu,\"program\":\"%s\",\"via\":\"%s\",\"server\":\"%s\","
				      "\"gpu\":%d,\"live\":%s,\"age_s\":%.3f,\"wall_s\":%.3f,\"known\":%s,"
				      "\"why\":\"%s\",\"candidates\":[", k ? "," : "",
				      (unsigned long long)l->id, l->program, l->via, l->server, l->gpu,
				      l->live ? "true" : "false", (now - MIN(l->at, now)) / 1e9, l->wall_s,
				      l->learnt ? "true" : "false", l->why);
			for (unsigned int i = 0; i < l->ntop; i++)
				gl_buf_printf(&b, "%s{\"server\":\"%s\",\"gpu\":%d,\"predicted_s\":%.4f,"
					      "\"link_s\":%.4f,\"gpu_s\":%.4f,\"rate_mbit\":%.1f,"
					      "\"rtt_ms\":%.3f,\"others\":%.1f}",
					      i ? "," : "", l->top_server[i], l->top[i].gpu, l->top[i].t,
					      l->top[i].link_s, l->top[i].gpu_s, l->top[i].rate * 8 / 1e6,
					      l->top[i].rtt * 1e3, l->top[i].others);
			gl_buf_printf(&b, "]}");
			continue;
		}
		gl_buf_printf(&b, "  %llu %s (%s) -> %s", (unsigned long long)l->id, l->program, l->via,
			      l->server[0] ? l->server : "nowhere");
		if (l->gpu >= 0)
			gl_buf_printf(&b, " GPU %d", l->gpu);
		gl_buf_printf(&b, ", %s: %s", l->live ? "live" : "ended", l->why);
		for (unsigned int i = 0; i < l->ntop; i++)
			gl_buf_printf(&b, "%s%s:%d %.3f s", i ? " < " : "; ", l->top_server[i], l->top[i].gpu,
				      l->top[i].t);
		gl_buf_printf(&b, "\n");
	}
	if (json)
		gl_buf_printf(&b, "]}\n");
	return b.b;
}
