// SPDX-License-Identifier: MIT
/*
 * A test daemon in gleamd's place: it takes the control node, maps every
 * session announced to it and echoes each record that asks for a reply
 * back on the CQ, body included.  A session whose ring breaks the rules is
 * ended through GLEAM_VGPU_IOC_END_SESSION.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm_test.h"

#define MAX_SESS	64

struct dsess {
	bool used;
	bool dead;
	uint64_t id;
	struct gleam_vgpu_region reg;
	struct vm_ring sq;
	struct vm_ring cq;
};

static struct dsess sess[MAX_SESS];
static uint8_t recbuf[64 << 10];
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static struct dsess *find(uint64_t id)
{
	int i;

	for (i = 0; i < MAX_SESS; i++)
		if (sess[i].used && sess[i].id == id)
			return &sess[i];
	return NULL;
}

static void sess_open(struct gleam_vgpu_ctl *ctl,
		      const struct gleam_vgpu_event *ev,
		      struct vm_daemon_stats *st)
{
	struct dsess *s = NULL;
	int i, err;

	for (i = 0; i < MAX_SESS && !s; i++)
		if (!sess[i].used)
			s = &sess[i];
	if (!s) {
		gleam_vgpu_ctl_end_session(ctl, ev->session);
		return;
	}
	memset(s, 0, sizeof(*s));
	err = gleam_vgpu_ctl_map(ctl, ev, &s->reg);
	if (err) {
		fprintf(stderr, "daemon: map session %llu: %s\n",
			(unsigned long long)ev->session, vm_err(err));
		gleam_vgpu_ctl_end_session(ctl, ev->session);
		return;
	}
	s->used = true;
	s->id = ev->session;
	vm_ring_init(&s->sq, s->reg.sq_ctl, s->reg.sq_data, ev->ring.sq_shift);
	vm_ring_init(&s->cq, s->reg.cq_ctl, s->reg.cq_data, ev->ring.cq_shift);
	__atomic_add_fetch(&st->opens, 1, __ATOMIC_SEQ_CST);
}

static void sess_end(const struct gleam_vgpu_event *ev,
		     struct vm_daemon_stats *st)
{
	struct dsess *s = find(ev->session);
	uint64_t n;

	if (s) {
		gleam_vgpu_region_unmap(&s->reg);
		s->used = false;
	}
	n = __atomic_load_n(&st->ends, __ATOMIC_SEQ_CST);
	__atomic_store_n(&st->end_ids[n % 64], ev->session, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&st->ends, 1, __ATOMIC_SEQ_CST);
}

/*
 * Echo what fits.  A record is consumed only once its reply is written, so
 * a full CQ stops the SQ; PROD_NEED_WAKEUP then asks the application to
 * kick once it has read replies.
 */
static bool sess_service(struct gleam_vgpu_ctl *ctl, struct dsess *s,
			 struct vm_daemon_stats *st)
{
	struct gleam_reply rep;
	struct gleam_rec rec;
	const uint8_t *p;
	bool did = false;
	uint32_t len, head;
	uint8_t *out;

	gleam_ring_prod_awake(s->reg.cq_ctl);
	for (;;) {
		p = vm_ring_peek(&s->sq, sizeof(rec), &len);
		if (!p)
			break;
		if (len > sizeof(recbuf)) {
			s->sq.broken = true;
			break;
		}
		memcpy(recbuf, p, len);
		memcpy(&rec, recbuf, sizeof(rec));
		if (rec.reserved || (rec.flags & ~GLEAM_REC_F_KNOWN)) {
			s->sq.broken = true;
			break;
		}
		if ((rec.flags & GLEAM_REC_F_REPLY) && rec.fn != VM_FN_SWALLOW) {
			out = vm_ring_reserve(&s->cq, len);
			if (!out) {
				if (s->cq.broken)
					break;
				head = __atomic_load_n(&s->cq.ctl->head,
						       __ATOMIC_ACQUIRE);
				if (gleam_ring_prod_prepare_sleep(s->reg.cq_ctl,
								  head))
					break;
				continue;
			}
			memset(&rep, 0, sizeof(rep));
			rep.len = len;
			rep.fn = rec.fn;
			rep.tag = rec.tag;
			rep.seq = rec.seq;
			memcpy(out, &rep, sizeof(rep));
			memcpy(out + sizeof(rep), recbuf + sizeof(rec),
			       len - sizeof(rec));
			vm_ring_commit(&s->cq, len);
			__atomic_add_fetch(&st->echoed, 1, __ATOMIC_RELAXED);
		}
		vm_ring_consume(&s->sq, len);
		did = true;
	}
	if (s->sq.broken || s->cq.broken) {
		gleam_vgpu_ctl_end_session(ctl, s->id);
		s->dead = true;
		__atomic_add_fetch(&st->broken, 1, __ATOMIC_SEQ_CST);
	}
	return did;
}

static int daemon_loop(struct vm_daemon_stats *st)
{
	struct gleam_vgpu_event ev[16];
	uint64_t kicks[MAX_SESS];
	struct gleam_vgpu_ctl ctl;
	unsigned int nk;
	bool did, sleep;
	int i, n, err;

	err = gleam_vgpu_ctl_open(&ctl, GLEAM_VGPU_F_KICK_EVENTS, true);
	if (err) {
		fprintf(stderr, "daemon: control: %s\n", vm_err(err));
		return err;
	}
	__atomic_store_n(&st->ready, 1, __ATOMIC_SEQ_CST);
	while (!stop) {
		did = false;
		nk = 0;
		for (i = 0; i < MAX_SESS; i++) {
			struct dsess *s = &sess[i];

			if (!s->used || s->dead)
				continue;
			gleam_ring_cons_awake(s->reg.sq_ctl);
			if (sess_service(&ctl, s, st)) {
				did = true;
				if (gleam_vgpu_region_app_sleeps(&s->reg))
					kicks[nk++] = s->id;
			}
		}
		if (nk)
			gleam_vgpu_ctl_kick(&ctl, kicks, nk);
		if (!did) {
			sleep = true;
			for (i = 0; i < MAX_SESS; i++)
				if (sess[i].used && !sess[i].dead &&
				    !gleam_ring_cons_prepare_sleep(sess[i].reg.sq_ctl,
								   sess[i].sq.pos))
					sleep = false;
			if (sleep)
				gleam_vgpu_ctl_wait(&ctl, 200);
		}
		n = gleam_vgpu_ctl_read(&ctl, ev, 16);
		for (i = 0; i < n; i++) {
			switch (ev[i].type) {
			case GLEAM_VGPU_EV_OPEN:
				sess_open(&ctl, &ev[i], st);
				break;
			case GLEAM_VGPU_EV_KICK:
				__atomic_add_fetch(&st->kicks, 1,
						   __ATOMIC_RELAXED);
				break;
			case GLEAM_VGPU_EV_END:
				sess_end(&ev[i], st);
				break;
			default:
				fprintf(stderr, "daemon: event type %u\n",
					ev[i].type);
				break;
			}
		}
	}
	for (i = 0; i < MAX_SESS; i++)
		if (sess[i].used)
			gleam_vgpu_region_unmap(&sess[i].reg);
	gleam_vgpu_ctl_close(&ctl);
	return 0;
}

/*
 * The daemon runs in a fresh image (fork and exec): a plain fork would
 * inherit the runner's open sessions, files and mappings, and keep those
 * sessions alive for as long as the daemon runs.
 */
pid_t vm_daemon_start(struct vm_daemon_stats *st, int st_fd)
{
	uint64_t deadline = vm_now_ns() + 10 * VM_SEC;
	char fdstr[16];
	pid_t pid;
	int status;

	__atomic_store_n(&st->ready, 0, __ATOMIC_SEQ_CST);
	snprintf(fdstr, sizeof(fdstr), "%d", st_fd);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execl("/proc/self/exe", "vgpu_test", "--daemon", fdstr,
		      (char *)NULL);
		_exit(127);
	}
	while (!__atomic_load_n(&st->ready, __ATOMIC_SEQ_CST)) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -ECHILD;
		if (vm_now_ns() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		usleep(1000);
	}
	return pid;
}

/* vgpu_test --daemon FD: FD holds the shared struct vm_daemon_stats. */
int vm_daemon_main(int st_fd)
{
	struct vm_daemon_stats *st;

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED,
		  st_fd, 0);
	if (st == MAP_FAILED)
		return 1;
	signal(SIGTERM, on_term);
	return daemon_loop(st) ? 1 : 0;
}

/* 0 if the daemon left by itself on SIGTERM within 10 s. */
int vm_daemon_stop(pid_t pid)
{
	uint64_t deadline = vm_now_ns() + 10 * VM_SEC;
	int status;

	kill(pid, SIGTERM);
	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (vm_now_ns() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		usleep(1000);
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

bool vm_daemon_saw_end(const struct vm_daemon_stats *st, uint64_t session)
{
	int i;

	for (i = 0; i < 64; i++)
		if (__atomic_load_n(&st->end_ids[i], __ATOMIC_SEQ_CST) == session)
			return true;
	return false;
}
