// SPDX-License-Identifier: MIT
/*
 * The server role's own code (broker/server.c), built into the harnesses so
 * that they reach its state and its static handlers.  fork() is replaced:
 * a session's replay worker is the harness itself, which works the ring
 * that spawn_worker() created and mapped; getrandom() gives every session
 * the same token, so that an input can take a session up again; and a
 * session's frame buffers come from fz_malloc()'s pool.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>
#include <unistd.h>

#include "fz.h"

/* Above the largest pid_max: no process has it.  worker_main() is never called. */
static pid_t fz_fork(void)
{
	return 1 << 22;
}

/* Session tokens the input can name: every session gets FZ_TOKEN. */
static ssize_t fz_getrandom(void *buf, size_t len, unsigned int flags)
{
	uint64_t t = FZ_TOKEN;
	size_t n = len < sizeof(t) ? len : sizeof(t);

	memcpy(buf, &t, n);
	return (ssize_t)n;
}

#define fork fz_fork
#define getrandom fz_getrandom
#define malloc(n) fz_malloc(n)
#define free(p) fz_free(p)
#include "../../broker/server.c"
#undef fork
#undef getrandom
#undef malloc
#undef free

int server_probe(const char *backend, const char *cuda_lib, struct gleam_server_info *info,
		 struct gleam_gpu_info *gpus, struct gleam_cluster_table *clusters, bool *have_clusters)
{
	return -ENODEV;
}

/* What server_main() would make; it lives from one input to the next. */
static struct server_role fz_sr;

void fz_server_setup(struct config *c)
{
	struct cache_stats live = { 0 };
	size_t n;

	server_role_init(&fz_sr, c);
	if (fz_sr.info.ngpus) {
		/* Each input starts with an empty store, so that it runs alike alone. */
		free(scache_report(GLEAM_CACHE_CTL_CLEAR, &live, &n));
		return;
	}
	/*
	 * The chunk store as server_main() opens it by default, in memory;
	 * chunks are checked on the loop, as on a machine of two cores, so
	 * that an input runs the same every time.
	 */
	setenv("GLEAM_STORE_THREADS", "0", 1);
	if (scache_open(NULL, 64 << 20, 0))
		FZ_FAIL("cannot open the chunk store");
	/* What server_probe() finds on the sim backend. */
	snprintf(fz_sr.info.backend, sizeof(fz_sr.info.backend), "sim");
	snprintf(fz_sr.info.host, sizeof(fz_sr.info.host), "fuzz");
	fz_sr.info.ngpus = 2;
	for (unsigned int i = 0; i < fz_sr.info.ngpus; i++) {
		snprintf(fz_sr.gpus[i].name, sizeof(fz_sr.gpus[i].name), "Gleam sim device %u", i);
		fz_sr.gpus[i].total_mem = 1ull << 30;
	}
	fz_sr.backend = fz_sr.info.backend;
}

/* A connection accepted on fd, as the loop hands it over. */
struct bridge *fz_server_accept(int fd)
{
	on_accept(&fz_sr, fd);
	return fz_sr.sessions && fz_sr.sessions->b.tcp == fd ? &fz_sr.sessions->b : NULL;
}

/* One completion, exactly as server_main()'s loop handles it. */
void fz_server_complete(struct op *op, int res)
{
	struct ssess *s = op->owner;

	if (!bridge_complete(&s->b, op, res))
		bridge_close(&s->b);
	sess_maybe_free(s);
}

/*
 * The grace period of every detached session ends now, as the
 * once-a-second tick finds it; whether there was one.
 */
bool fz_server_expire(void)
{
	bool any = false;

	for (struct ssess *s = fz_sr.sessions; s; s = s->next) {
		if (s->b.detached && !s->b.closing) {
			/* A drop long ago (0 would be none). */
			s->b.detached_at = 1;
			any = true;
		}
	}
	if (any)
		keepalive(&fz_sr);
	return any;
}

/* The once-a-second tick's look at chunks the store refused. */
void fz_server_reap(void)
{
	scache_reap(liar, &fz_sr);
}

bool fz_server_alive(const struct bridge *b)
{
	for (struct ssess *s = fz_sr.sessions; s; s = s->next)
		if (&s->b == b)
			return true;
	return false;
}

unsigned int fz_server_sessions(void)
{
	unsigned int n = 0;

	for (struct ssess *s = fz_sr.sessions; s; s = s->next)
		n++;
	return n;
}
