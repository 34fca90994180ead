// SPDX-License-Identifier: MIT
/*
 * The client role's own code (broker/client.c), built into the harnesses
 * so that they reach its state and its static handlers: on_accept() for a
 * local connection, on_cqe() for every completion, as client_main()'s loop
 * calls them, with a role of the harness's own.  Its /dev/vgpuN half
 * (broker/vgpu.c) is linked as it is and never started, as on a machine
 * without the module.  A session's frame buffers come from fz_malloc()'s
 * pool.
 */
#include <stdlib.h>

#include "fz.h"

#define malloc(n) fz_malloc(n)
#define free(p) fz_free(p)
#include "../../broker/client.c"
#undef malloc
#undef free

/* What client_main() would make; it lives from one input to the next. */
static struct client_role fz_cr;

void fz_client_setup(struct config *c)
{
	fz_cr.cfg = c;
	if (!c)
		return;
	client_role_init(&fz_cr, c);
	if (!fz_cr.server_len &&
	    gl_parse_hostport(c->server, GLEAM_WIRE_PORT, &fz_cr.server, &fz_cr.server_len))
		FZ_FAIL("cannot parse %s", c->server);
	/*
	 * The scheduler's table, with the one server and nothing kept on disk;
	 * its control connections are never opened here (no tick runs), so
	 * that every connection the harness sees is a session's or gleamctl's.
	 */
	c->state_dir[0] = 0;
	sched_init(c);
}

/* A local connection accepted on fd. */
struct bridge *fz_client_accept(int fd)
{
	on_accept(&fz_cr, fd);
	return fz_cr.sessions && fz_cr.sessions->b.bell == fd ? &fz_cr.sessions->b : NULL;
}

void fz_client_complete(struct op *op, int res)
{
	struct io_uring_cqe cqe = { .user_data = (uintptr_t)op, .res = res };

	on_cqe(&fz_cr, &cqe);
}

/*
 * A detached session connects again now, as take_up() does once its wait
 * is over; whether it did.
 */
bool fz_client_retake(struct bridge *b)
{
	struct csess *s = (struct csess *)b;

	if (!b->detached || b->closing || s->tried_at || b->tcp >= 0 || b->recving || b->sending)
		return false;
	/* Due now (0 would be none). */
	s->try_at = 1;
	take_up(s, gl_now_ns());
	return b->tcp >= 0;
}

/*
 * The grace period of every session waiting to be taken up ends now, as
 * the scheduler's tick finds it (the tick itself would open control
 * connections); whether there was one.
 */
bool fz_client_expire(void)
{
	uint64_t now = gl_now_ns();
	struct csess *s, *next;
	bool any = false;

	for (s = fz_cr.sessions; s; s = next) {
		next = s->next;
		if ((s->b.token || s->b.restartable) && !s->b.closing &&
		    (s->b.detached || s->tried_at)) {
			/* A drop long ago (0 would be none). */
			s->b.detached_at = 1;
			take_up(s, now);
			any = true;
		}
		sess_maybe_free(s);
	}
	return any;
}

bool fz_client_alive(const struct bridge *b)
{
	for (struct csess *s = fz_cr.sessions; s; s = s->next)
		if (&s->b == b)
			return true;
	return false;
}

unsigned int fz_client_sessions(void)
{
	unsigned int n = 0;

	for (struct csess *s = fz_cr.sessions; s; s = s->next)
		n++;
	return n;
}
