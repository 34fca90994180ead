// SPDX-License-Identifier: MIT
/*
 * gleamd, client role: the sessions of /dev/vgpuN.
 *
 * gleam_vgpu.ko announces each application's session on its control node
 * (OPEN, then KICK for each doorbell, then END when the application lets
 * go); gleamd maps the session's ring through the same node and bridges it
 * to the server exactly as it bridges a socket session.  Its own doorbells
 * are session ids written to the control node, collected while the loop
 * runs and written in one go before it sleeps.  Everything goes through
 * the loop's io_uring: event reads, kicks, and the netlink socket on which
 * the module also reports sessions opened and ended (logged here).
 *
 * Events come from the kernel, but the ring they name is shared with the
 * application, so its layout is taken from the event, never from the
 * region's first page, and its contents are checked by the bridge as for
 * any session.  A session whose ring or server fails is ended with
 * END_SESSION, so that its waiters wake with an error rather than time
 * out for ever.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "gleamd.h"
#include "util.h"
#include "vgpu.h"
#include "vgpu_nl.h"
#include "vgpu_user.h"



static struct vgpu_link **bucket(struct vgpu *vg, uint64_t id)
{
	return &vg->hash[(id ^ (id >> 8)) % VGPU_HASH];
}

static struct vgpu_link *lookup(struct vgpu *vg, uint64_t id)
{
	struct vgpu_link *l;

	for (l = *bucket(vg, id); l; l = l->hnext)
		if (l->id == id)
			return l;
	return NULL;
}

void vgpu_link_add(struct vgpu *vg, struct vgpu_link *l)
{
	struct vgpu_link **b = bucket(vg, l->id);

	l->vg = vg;
	l->hnext = *b;
	*b = l;
	vg->node[l->vgpu].sessions++;
	vg->node[l->vgpu].active++;
}

void vgpu_unlink(struct vgpu_link *l)
{
	struct vgpu *vg = l->vg;
	struct vgpu_link **pp;
	uint64_t id = l->id;
	int err;

	if (!id)
		return;
	for (pp = bucket(vg, id); *pp; pp = &(*pp)->hnext) {
		if (*pp == l) {
			*pp = l->hnext;
			break;
		}
	}
	l->id = 0;
	vg->node[l->vgpu].active--;
	if (l->ended) {
		vg->node[l->vgpu].ended_by_app++;
		return;
	}
	/* The application is still there: its waits must fail, not time out. */
	vg->node[l->vgpu].ended_by_gleamd++;
	err = gleam_vgpu_ctl_end_session(&vg->ctl, id);
	if (err && err != -ENOENT)
		gl_err("vgpu%u: ending session %llu: %s", l->vgpu,
		       (unsigned long long)id, strerror(-err));
}

/* ---- the control node ---- */

static void post_read(struct vgpu *vg)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_read(sqe, vg->ctl.fd, vg->ev, sizeof(vg->ev), 0);
	io_uring_sqe_set_data(sqe, &vg->op_read);
	vg->reading = true;
}

/* For kernels whose io_uring hands EAGAIN back on an O_NONBLOCK file. */
static void post_read_poll(struct vgpu *vg)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_poll_add(sqe, vg->ctl.fd, POLLIN);
	io_uring_sqe_set_data(sqe, &vg->op_read_poll);
	vg->reading = true;
}

/*
 * The control node misbehaves: give it back, so that the module fails
 * every session's waiters (ENOTCONN) and a new gleamd can take over.
 */
static void stop_serving(struct vgpu *vg, const char *why)
{
	struct vgpu_link *l;

	gl_err("vgpu: %s; /dev/vgpuN sessions are no longer served", why);
	snprintf(vg->why, sizeof(vg->why), "%s", why);
	vg->serving = false;
	for (unsigned int i = 0; i < VGPU_HASH; i++) {
		while ((l = vg->hash[i])) {
			/* Closing the node ends them all: no END_SESSION each. */
			l->ended = true;
			vg->ops->end(l);
			/* Still in flight: unlinked when its last operation ends. */
			if (vg->hash[i] == l)
				vgpu_unlink(l);
		}
	}
	/* A read parked in io_uring holds the file open: cancel it. */
	if (vg->reading) {
		struct io_uring_sqe *sqe = loop_sqe();

		io_uring_prep_cancel(sqe, &vg->op_read, 0);
		io_uring_sqe_set_data(sqe, NULL);
		sqe = loop_sqe();
		io_uring_prep_cancel(sqe, &vg->op_read_poll, 0);
		io_uring_sqe_set_data(sqe, NULL);
	}
	gleam_vgpu_ctl_close(&vg->ctl);
}

/* The application's name, for status: its comm, in harmless characters. */
static void program_name(pid_t pid, unsigned int vgpu, char *buf, size_t len)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(buf, len, "vgpu%u", vgpu);
		return;
	}
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	gl_harmless(buf, false);
}

static void on_open(struct vgpu *vg, const struct gleam_vgpu_event *ev)
{
	const struct gleam_vgpu_ring_info *ri = &ev->ring;
	struct gleam_vgpu_region reg;
	struct gleam_ring_layout l = {
		.magic = GLEAM_RING_MAGIC, .version = GLEAM_RING_VERSION,
		.region_size = ri->region_size,
		.sq_ctl_off = ri->sq_ctl_off, .sq_data_off = ri->sq_data_off,
		.cq_ctl_off = ri->cq_ctl_off, .cq_data_off = ri->cq_data_off,
		.sq_shift = ri->sq_shift, .cq_shift = ri->cq_shift,
	};
	struct gl_ring ring;
	char program[64];
	int err;

	if (lookup(vg, ev->session))
		return;
	/* A reply carries up to a 1 MiB piece and must fit half the CQ. */
	if (ri->cq_shift < GL_RING_DEFAULT_SHIFT) {
		gl_err("vgpu%u: session %llu of pid %d: a CQ of 2^%u bytes is too small",
		       ev->vgpu, (unsigned long long)ev->session, ev->pid, ri->cq_shift);
		err = -EINVAL;
		goto out_end;
	}
	err = gleam_vgpu_ctl_map(&vg->ctl, ev, &reg);
	if (err) {
		gl_err("vgpu%u: cannot map session %llu: %s", ev->vgpu,
		       (unsigned long long)ev->session, strerror(-err));
		goto out_end;
	}
	err = gl_ring_attach_layout(reg.base, ri->region_size, &l, &ring);
	if (err) {
		gleam_vgpu_region_unmap(&reg);
		goto out_end;
	}
	program_name(ev->pid, ev->vgpu, program, sizeof(program));
	err = vg->ops->session(vg->role, &ring, ev->session, ev->vgpu, ev->pid, ev->uid, program);
	if (err) {
		gl_ring_unmap(&ring);
		goto out_end;
	}
	return;

out_end:
	gleam_vgpu_ctl_end_session(&vg->ctl, ev->session);
}

static void on_event(struct vgpu *vg, const struct gleam_vgpu_event *ev)
{
	struct vgpu_link *l;

	/* From the kernel, but cheap to check before it indexes anything. */
	if (ev->vgpu >= GLEAM_VGPU_MAX || !ev->session || ev->session > INT32_MAX)
		return;
	switch (ev->type) {
	case GLEAM_VGPU_EV_OPEN:
		on_open(vg, ev);
		break;
	case GLEAM_VGPU_EV_KICK:
		vg->node[ev->vgpu].kick_events++;
		l = lookup(vg, ev->session);
		if (l)
			vg->ops->rung(l);
		break;
	case GLEAM_VGPU_EV_END:
		l = lookup(vg, ev->session);
		if (l) {
			l->ended = true;
			vg->ops->end(l);
		}
		break;
	}
}

static void read_done(struct vgpu *vg, int res)
{
	if (res == -EAGAIN || res == -EINTR) {
		post_read_poll(vg);
		return;
	}
	if (res <= 0 || res % (int)sizeof(struct gleam_vgpu_event)) {
		stop_serving(vg, res < 0 ? strerror(-res) : "short read of events");
		return;
	}
	for (int i = 0; i < res / (int)sizeof(struct gleam_vgpu_event); i++)
		on_event(vg, &vg->ev[i]);
	if (vg->serving)
		post_read(vg);
}

/* ---- doorbells towards the applications ---- */

void vgpu_ring(struct vgpu_link *l)
{
	struct vgpu *vg = l->vg;
	uint64_t *p;

	if (l->kick_queued || !vg->serving)
		return;
	if (vg->npending == vg->cap) {
		p = realloc(vg->pending, (vg->cap ? 2 * vg->cap : 64) * sizeof(*p));
		if (!p)
			return;
		vg->pending = p;
		vg->cap = vg->cap ? 2 * vg->cap : 64;
	}
	vg->pending[vg->npending++] = l->id;
	l->kick_queued = true;
	vg->node[l->vgpu].kicks++;
}

static void post_write(struct vgpu *vg)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_write(sqe, vg->ctl.fd, vg->wbuf + vg->wdone,
			    (vg->wlen - vg->wdone) * sizeof(uint64_t), 0);
	io_uring_sqe_set_data(sqe, &vg->op_kick);
	vg->writing = true;
	vg->kick_writes++;
}

void vgpu_flush(struct vgpu *vg)
{
	struct vgpu_link *l;
	unsigned int n = 0, i;

	if (vg->writing || !vg->npending || !vg->serving)
		return;
	/*
	 * A session queued again after this point gets another write: its
	 * flag is cleared as its id leaves the queue.  Ids of sessions freed
	 * meanwhile are dropped.
	 */
	for (i = 0; i < vg->npending && n < VGPU_KICK_MAX; i++) {
		l = lookup(vg, vg->pending[i]);
		if (!l)
			continue;
		l->kick_queued = false;
		vg->wbuf[n++] = vg->pending[i];
	}
	memmove(vg->pending, vg->pending + i, (vg->npending - i) * sizeof(*vg->pending));
	vg->npending -= i;
	if (!n)
		return;
	vg->wlen = n;
	vg->wdone = 0;
	post_write(vg);
}

static void write_done(struct vgpu *vg, int res)
{
	if (res == -EINTR || res == -EAGAIN) {
		post_write(vg);
		return;
	}
	if (res <= 0 || res % (int)sizeof(uint64_t)) {
		stop_serving(vg, res < 0 ? strerror(-res) : "short write of kicks");
		return;
	}
	vg->wdone += (unsigned int)res / sizeof(uint64_t);
	if (vg->wdone < vg->wlen)
		post_write(vg);
	else
		vgpu_flush(vg);
}

/* ---- netlink: sessions opened and ended, as the module reports them ---- */

static void post_nl_recv(struct vgpu *vg)
{
	struct io_uring_sqe *sqe = loop_sqe();

	vg->nliov = (struct iovec){ vg->nlbuf, sizeof(vg->nlbuf) };
	memset(&vg->nlmsg, 0, sizeof(vg->nlmsg));
	vg->nlmsg.msg_name = &vg->nladdr;
	vg->nlmsg.msg_namelen = sizeof(vg->nladdr);
	vg->nlmsg.msg_iov = &vg->nliov;
	vg->nlmsg.msg_iovlen = 1;
	io_uring_prep_recvmsg(sqe, gleam_vgpu_nl_fd(vg->nl), &vg->nlmsg, 0);
	io_uring_sqe_set_data(sqe, &vg->op_nl);
	vg->nl_reading = true;
}

static void post_nl_poll(struct vgpu *vg)
{
	struct io_uring_sqe *sqe = loop_sqe();

	io_uring_prep_poll_add(sqe, gleam_vgpu_nl_fd(vg->nl), POLLIN);
	io_uring_sqe_set_data(sqe, &vg->op_nl_poll);
	vg->nl_reading = true;
}

static void log_nl_event(const struct gleam_vgpu_nl_event *e)
{
	if (e->cmd == GLEAM_VGPU_CMD_SESSION_OPENED) {
		gl_info("vgpu%u: session %llu opened by pid %u (uid %u)", e->vgpu,
			(unsigned long long)e->session, e->pid, e->uid);
	} else if (e->signal) {
		gl_info("vgpu%u: session %llu ended: pid %u killed by signal %u", e->vgpu,
			(unsigned long long)e->session, e->pid, e->signal);
	} else if (e->reason == GLEAM_VGPU_END_EXITED) {
		gl_info("vgpu%u: session %llu ended: pid %u exited", e->vgpu,
			(unsigned long long)e->session, e->pid);
	} else {
		gl_info("vgpu%u: session %llu ended: closed by pid %u", e->vgpu,
			(unsigned long long)e->session, e->pid);
	}
}

static void nl_done(struct vgpu *vg, int res)
{
	struct gleam_vgpu_nl_event ev[32];
	int n;

	vg->nl_reading = false;
	if (res == -EAGAIN || res == -EINTR) {
		post_nl_poll(vg);
		return;
	}
	if (res == -ENOBUFS) {
		gl_info("vgpu: netlink events were lost (socket overrun)");
		post_nl_recv(vg);
		return;
	}
	if (res <= 0) {
		gl_err("vgpu: netlink: %s; session events no longer logged",
		       res ? strerror(-res) : "closed");
		vg->nl_events = false;
		return;
	}
	/* Only the kernel speaks for the family. */
	if (vg->nlmsg.msg_namelen >= sizeof(vg->nladdr) && vg->nladdr.nl_pid == 0) {
		n = gleam_vgpu_nl_parse(vg->nl, vg->nlbuf, (size_t)res, ev, ARRAY_SIZE(ev));
		for (int i = 0; i < n; i++)
			log_nl_event(&ev[i]);
	}
	post_nl_recv(vg);
}

static void nl_start(struct vgpu *vg)
{
	int err = gleam_vgpu_nl_open(&vg->nl, true);

	if (err) {
		/* Joining the event group needs CAP_NET_ADMIN; counters do not. */
		gl_info("vgpu: no netlink session events: %s", strerror(-err));
		if (gleam_vgpu_nl_open(&vg->nl, false))
			vg->nl = NULL;
		return;
	}
	vg->nl_events = true;
	post_nl_recv(vg);
}

void vgpu_complete(struct op *op, int res)
{
	struct vgpu *vg = op->owner;

	if (op == &vg->op_read || op == &vg->op_read_poll) {
		vg->reading = false;
		if (!vg->serving)
			return;
		if (op == &vg->op_read)
			read_done(vg, res);
		else if (res >= 0)
			post_read(vg);
		else
			stop_serving(vg, strerror(-res));
	} else if (op == &vg->op_kick) {
		vg->writing = false;
		if (vg->serving)
			write_done(vg, res);
	} else if (op == &vg->op_nl) {
		nl_done(vg, res);
	} else if (op == &vg->op_nl_poll) {
		vg->nl_reading = false;
		if (res >= 0)
			post_nl_recv(vg);
	}
}

void vgpu_init(struct vgpu *vg)
{
	memset(vg, 0, sizeof(*vg));
	vg->ctl.fd = -1;
}

void vgpu_start(struct vgpu *vg, const struct vgpu_ops *ops, void *role)
{
	int err;

	vg->ops = ops;
	vg->role = role;
	vg->op_read = (struct op){ OP_VGPU, vg };
	vg->op_read_poll = (struct op){ OP_VGPU, vg };
	vg->op_kick = (struct op){ OP_VGPU, vg };
	vg->op_nl = (struct op){ OP_VGPU, vg };
	vg->op_nl_poll = (struct op){ OP_VGPU, vg };
	/*
	 * Non-blocking: io_uring then never parks a worker thread on the
	 * file; the module's FMODE_NOWAIT lets it arm a poll instead.
	 */
	err = gleam_vgpu_ctl_open(&vg->ctl, GLEAM_VGPU_F_KICK_EVENTS, true);
	if (err) {
		snprintf(vg->why, sizeof(vg->why), "%s: %s", GLEAM_VGPU_CONTROL_PATH,
			 err == -EBUSY ? "another gleamd has it" : strerror(-err));
		if (err == -ENOENT)
			gl_dbg("vgpu: %s (module not loaded)", vg->why);
		else
			gl_err("vgpu: %s; socket sessions only", vg->why);
		return;
	}
	if (!(vg->ctl.features & GLEAM_VGPU_F_KICK_EVENTS)) {
		gleam_vgpu_ctl_close(&vg->ctl);
		snprintf(vg->why, sizeof(vg->why), "the module gives no kick events");
		gl_err("vgpu: %s; socket sessions only", vg->why);
		return;
	}
	vg->serving = true;
	gl_info("vgpu: serving %u node(s) through %s", vg->ctl.nr_vgpus,
		GLEAM_VGPU_CONTROL_PATH);
	post_read(vg);
	nl_start(vg);
}

unsigned int vgpu_status(const struct vgpu *vg, struct vgpu_status *st,
			 struct vgpu_node_status *nodes, unsigned int max)
{
	struct gleam_vgpu_stats k;
	unsigned int n = 0, nr = vg->ctl.nr_vgpus;

	memset(st, 0, sizeof(*st));
	st->serving = vg->serving;
	snprintf(st->why, sizeof(st->why), "%s", vg->why);
	st->nr_vgpus = nr;
	st->kick_writes = vg->kick_writes;
	if (vg->ctl.fd < 0)
		return 0;
	/* Nodes may have been added since HELLO: count any that served. */
	for (unsigned int i = nr; i < GLEAM_VGPU_MAX; i++)
		if (vg->node[i].sessions)
			nr = i + 1;
	for (unsigned int i = 0; i < nr && n < max; i++) {
		struct vgpu_node_status *s = &nodes[n++];

		*s = vg->node[i];
		s->vgpu = i;
		/* A request the kernel answers at once; status is rare. */
		if (vg->nl && !gleam_vgpu_nl_stats(vg->nl, i, &k)) {
			s->have_kernel = true;
			s->k_sessions_opened = k.sessions_opened;
			s->k_sessions_active = k.sessions_active;
			s->k_kicks_to_daemon = k.kicks_to_daemon;
			s->k_kicks_to_app = k.kicks_to_app;
			s->k_waits = k.waits;
			s->k_wait_timeouts = k.wait_timeouts;
			s->k_ring_bytes = k.ring_bytes;
		}
	}
	return n;
}
