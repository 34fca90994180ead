// SPDX-License-Identifier: MIT
/*
 * Round trip of an empty synchronous record (a 32-byte header that asks for
 * a reply, answered by a 32-byte reply) through the same ring code, with
 * two doorbells:
 *   vgpu  /dev/vgpu0 and the control node (KICK, WAIT, read/write/poll)
 *   unix  an AF_UNIX SOCK_SEQPACKET pair beside a memfd ring, as gleamd
 *         offers without the module (a one-byte message per doorbell;
 *         SO_RCVTIMEO bounds the application's wait as WAIT's timeout
 *         does)
 * Each side either sleeps at once when its ring is empty ("sleep") or
 * first polls the ring for up to 50 us ("spin").  A doorbell is rung only
 * when the other side has set NEED_WAKEUP, so the spin rows show what the
 * rings cost when both sides are awake.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm_test.h"

#define BENCH_SHIFT	16
#define BENCH_FN_QUIT	0xfffe
#define SPIN_NS		(50 * 1000ULL)

struct bx {
	bool vgpu;
	bool spin;
	/* vgpu */
	struct gleam_vgpu_app app;
	struct gleam_vgpu_ctl ctl;
	uint64_t session;
	/* unix */
	int sock;
	/* the region as this side maps it */
	struct gleam_ring_ctl *sq_ctl, *cq_ctl;
	uint8_t *sq_data, *cq_data;
	uint64_t kicks, sleeps;
};

static void bx_region(struct bx *x, uint8_t *base)
{
	x->sq_ctl = (void *)(base + 4096);
	x->cq_ctl = (void *)(base + 8192);
	x->sq_data = base + 12288;
	x->cq_data = base + 12288 + (1 << BENCH_SHIFT);
}

static int d_sleep(struct bx *x)
{
	struct gleam_vgpu_event ev[4];
	struct pollfd p;
	char junk[64];

	x->sleeps++;
	p.fd = x->vgpu ? x->ctl.fd : x->sock;
	p.events = POLLIN;
	if (poll(&p, 1, 1000) < 0)
		return -errno;
	if (x->vgpu)
		gleam_vgpu_ctl_read(&x->ctl, ev, 4);
	else if (read(x->sock, junk, sizeof(junk)) < 0 && errno != EAGAIN)
		return -errno;
	return 0;
}

static int d_kick(struct bx *x)
{
	x->kicks++;
	if (x->vgpu)
		return gleam_vgpu_ctl_kick(&x->ctl, &x->session, 1);
	return write(x->sock, "k", 1) == 1 ? 0 : -errno;
}

static int a_kick(struct bx *x)
{
	x->kicks++;
	if (x->vgpu)
		return gleam_vgpu_app_kick(&x->app);
	return write(x->sock, "k", 1) == 1 ? 0 : -errno;
}

static int a_sleep(struct bx *x)
{
	char junk[64];
	int err;

	x->sleeps++;
	if (x->vgpu) {
		err = gleam_vgpu_app_wait(&x->app, VM_SEC);
		return err == -ETIMEDOUT ? 0 : err;
	}
	if (read(x->sock, junk, sizeof(junk)) < 0 && errno != EAGAIN)
		return -errno;
	return 0;
}

/* Busy-poll a ring for new data for up to SPIN_NS. */
static bool spin_for(struct gleam_ring_ctl *c, uint32_t pos)
{
	uint64_t end = vm_now_ns() + SPIN_NS;

	do {
		if (__atomic_load_n(&c->tail, __ATOMIC_ACQUIRE) != pos)
			return true;
	} while (vm_now_ns() < end);
	return false;
}

/* The server: answer each record with an empty reply. */
static int bench_daemon(struct bx *x)
{
	struct vm_ring sq, cq;
	struct gleam_reply rep;
	struct gleam_rec rec;
	const uint8_t *p;
	uint32_t len;
	uint8_t *out;

	vm_ring_init(&sq, x->sq_ctl, x->sq_data, BENCH_SHIFT);
	vm_ring_init(&cq, x->cq_ctl, x->cq_data, BENCH_SHIFT);
	for (;;) {
		p = vm_ring_peek(&sq, sizeof(rec), &len);
		if (!p) {
			if (sq.broken)
				return -EPROTO;
			if (x->spin && spin_for(x->sq_ctl, sq.pos))
				continue;
			if (gleam_ring_cons_prepare_sleep(x->sq_ctl, sq.pos) &&
			    d_sleep(x))
				return -EIO;
			gleam_ring_cons_awake(x->sq_ctl);
			continue;
		}
		memcpy(&rec, p, sizeof(rec));
		vm_ring_consume(&sq, len);
		if (rec.fn == BENCH_FN_QUIT)
			return 0;
		out = vm_ring_reserve(&cq, sizeof(rep));
		if (!out)
			return -ENOSPC;
		memset(&rep, 0, sizeof(rep));
		rep.len = sizeof(rep);
		rep.fn = rec.fn;
		rep.tag = rec.tag;
		rep.seq = rec.seq;
		memcpy(out, &rep, sizeof(rep));
		vm_ring_commit(&cq, sizeof(rep));
		if (gleam_ring_consumer_sleeps(x->cq_ctl) && d_kick(x))
			return -EIO;
	}
}

static int send_rec(struct bx *x, struct vm_ring *sq, uint16_t fn,
		    uint64_t seq)
{
	struct gleam_rec rec;
	uint8_t *p = vm_ring_reserve(sq, sizeof(rec));

	if (!p)
		return -ENOSPC;
	memset(&rec, 0, sizeof(rec));
	rec.len = sizeof(rec);
	rec.fn = fn;
	rec.flags = GLEAM_REC_F_REPLY;
	rec.tag = (uint32_t)seq;
	rec.seq = seq;
	memcpy(p, &rec, sizeof(rec));
	vm_ring_commit(sq, sizeof(rec));
	if (gleam_ring_consumer_sleeps(x->sq_ctl))
		return a_kick(x);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The application: n timed round trips after n / 10 warm-up ones. */
static int bench_app(struct bx *x, unsigned int n, uint64_t *rtt)
{
	unsigned int warm = n / 10, i;
	struct gleam_reply rep;
	struct vm_ring sq, cq;
	const uint8_t *p;
	uint64_t t0;
	uint32_t len;
	int err;

	vm_ring_init(&sq, x->sq_ctl, x->sq_data, BENCH_SHIFT);
	vm_ring_init(&cq, x->cq_ctl, x->cq_data, BENCH_SHIFT);
	for (i = 0; i < warm + n; i++) {
		t0 = vm_now_ns();
		err = send_rec(x, &sq, VM_FN_ECHO, i + 1);
		if (err)
			return err;
		while (!(p = vm_ring_peek(&cq, sizeof(rep), &len))) {
			if (cq.broken)
				return -EPROTO;
			if (x->spin && spin_for(x->cq_ctl, cq.pos))
				continue;
			if (gleam_ring_cons_prepare_sleep(x->cq_ctl, cq.pos)) {
				err = a_sleep(x);
				if (err)
					return err;
			}
			gleam_ring_cons_awake(x->cq_ctl);
		}
		memcpy(&rep, p, sizeof(rep));
		vm_ring_consume(&cq, len);
		if (rep.seq != i + 1)
			return -EPROTO;
		if (i >= warm)
			rtt[i - warm] = vm_now_ns() - t0;
	}
	return send_rec(x, &sq, BENCH_FN_QUIT, 0);
}

struct mode {
	const char *name;
	bool vgpu;
	bool spin;
	uint64_t *rtt;		/* all rounds */
	uint64_t kicks;		/* warm-up and the closing record included */
	uint64_t sleeps;
	uint64_t trips;		/* likewise */
	double round_med[16];
};

static int run_vgpu(struct mode *m, unsigned int n, uint64_t *rtt)
{
	struct gleam_vgpu_event ev;
	struct bx x = { .vgpu = true, .spin = m->spin };
	int pfd[2], err, r;
	pid_t pid;
	char c = 0;

	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct gleam_vgpu_region reg;

		close(pfd[0]);
		if (gleam_vgpu_ctl_open(&x.ctl, GLEAM_VGPU_F_KICK_EVENTS, true) ||
		    write(pfd[1], "r", 1) != 1)
			_exit(2);
		do {
			if (gleam_vgpu_ctl_wait(&x.ctl, 10000) ||
			    gleam_vgpu_ctl_read(&x.ctl, &ev, 1) != 1)
				_exit(3);
		} while (ev.type != GLEAM_VGPU_EV_OPEN);
		if (gleam_vgpu_ctl_map(&x.ctl, &ev, &reg))
			_exit(4);
		x.session = ev.session;
		bx_region(&x, reg.base);
		_exit(bench_daemon(&x) ? 5 : 0);
	}
	close(pfd[1]);
	if (read(pfd[0], &c, 1) != 1)
		c = 0;
	close(pfd[0]);
	err = c ? gleam_vgpu_app_open(&x.app, "/dev/vgpu0", BENCH_SHIFT,
				      BENCH_SHIFT) : -ECHILD;
	if (!err) {
		bx_region(&x, x.app.reg.base);
		err = bench_app(&x, n, rtt);
		gleam_vgpu_app_close(&x.app);
	}
	if (err)
		kill(pid, SIGKILL);
	waitpid(pid, &r, 0);
	if (!err && !(WIFEXITED(r) && WEXITSTATUS(r) == 0))
		err = -EIO;
	m->kicks += x.kicks;
	m->sleeps += x.sleeps;
	return err;
}

static int run_unix(struct mode *m, unsigned int n, uint64_t *rtt)
{
	const size_t size = 12288 + (2UL << BENCH_SHIFT);
	struct timeval tv = { .tv_sec = 1 };
	struct bx x = { .spin = m->spin };
	int sv[2], mfd, err, r;
	uint8_t *base;
	pid_t pid;

	mfd = memfd_create("gleam-ring", MFD_CLOEXEC);
	if (mfd < 0 || ftruncate(mfd, (off_t)size))
		return -errno;
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (base == MAP_FAILED)
		return -errno;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(sv[0]);
		x.sock = sv[1];
		fcntl(x.sock, F_SETFL, O_NONBLOCK);
		bx_region(&x, base);
		_exit(bench_daemon(&x) ? 5 : 0);
	}
	close(sv[1]);
	x.sock = sv[0];
	setsockopt(x.sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	bx_region(&x, base);
	err = bench_app(&x, n, rtt);
	if (err)
		kill(pid, SIGKILL);
	waitpid(pid, &r, 0);
	if (!err && !(WIFEXITED(r) && WEXITSTATUS(r) == 0))
		err = -EIO;
	close(x.sock);
	munmap(base, size);
	close(mfd);
	m->kicks += x.kicks;
	m->sleeps += x.sleeps;
	return err;
}

static uint64_t pct(const uint64_t *sorted, unsigned int n, unsigned int p)
{
	return sorted[(uint64_t)n * p / 100];
}

static void report(struct mode *m, unsigned int n, unsigned int rounds)
{
	double sum = 0, lo = 1e30, hi = 0;
	unsigned int i;

	qsort(m->rtt, n, sizeof(*m->rtt), cmp_u64);
	for (i = 0; i < n; i++)
		sum += (double)m->rtt[i];
	for (i = 0; i < rounds; i++) {
		lo = m->round_med[i] < lo ? m->round_med[i] : lo;
		hi = m->round_med[i] > hi ? m->round_med[i] : hi;
	}
	printf("  BENCH %-10s n=%u median=%.1f us p90=%.1f us p99=%.1f us "
	       "mean=%.1f us; round medians %.1f..%.1f us; per round trip "
	       "%.2f app doorbells, %.2f app sleeps\n",
	       m->name, n, pct(m->rtt, n, 50) / 1e3, pct(m->rtt, n, 90) / 1e3,
	       pct(m->rtt, n, 99) / 1e3, sum / n / 1e3, lo / 1e3, hi / 1e3,
	       (double)m->kicks / m->trips, (double)m->sleeps / m->trips);
}

/* The quietest round's median: the least disturbed by other load. */
static double best(const struct mode *m, unsigned int rounds)
{
	double b = 1e30;
	unsigned int i;

	for (i = 0; i < rounds; i++)
		b = m->round_med[i] < b ? m->round_med[i] : b;
	return b;
}

/*
 * Rounds alternate the transports, so that load elsewhere on the machine
 * (this runs under emulation, often beside other work) falls on both.
 */
int vm_bench(unsigned int n)
{
	struct mode modes[4] = {
		{ "vgpu sleep", true, false }, { "unix sleep", false, false },
		{ "vgpu spin", true, true }, { "unix spin", false, true },
	};
	const unsigned int rounds = 10, per = n / rounds;
	double ratio_lo[2] = { 1e30, 1e30 }, ratio_hi[2] = { 0, 0 }, r;
	uint64_t *tmp = calloc(per, sizeof(*tmp));
	unsigned int i, k;
	int err = 0;

	VM_CHECK(tmp, "calloc");
	for (k = 0; k < 4; k++) {
		modes[k].rtt = calloc(n, sizeof(uint64_t));
		VM_CHECK(modes[k].rtt, "calloc");
	}
	for (i = 0; i < rounds && !err; i++) {
		for (k = 0; k < 4 && !err; k++) {
			struct mode *m = &modes[k];

			err = m->vgpu ? run_vgpu(m, per, tmp) :
					run_unix(m, per, tmp);
			m->trips += per + per / 10 + 1;
			memcpy(m->rtt + i * per, tmp, per * sizeof(*tmp));
			qsort(tmp, per, sizeof(*tmp), cmp_u64);
			m->round_med[i] = (double)tmp[per / 2];
		}
		for (k = 0; k < 2 && !err; k++) {
			r = modes[2 * k].round_med[i] / modes[2 * k + 1].round_med[i];
			ratio_lo[k] = r < ratio_lo[k] ? r : ratio_lo[k];
			ratio_hi[k] = r > ratio_hi[k] ? r : ratio_hi[k];
		}
	}
	free(tmp);
	VM_CHECK(!err, "bench: %s", vm_err(err));
	for (k = 0; k < 4; k++)
		report(&modes[k], rounds * per, rounds);
	printf("  BENCH ratio vgpu/unix: median of all sleep %.2f spin %.2f; "
	       "best round sleep %.2f spin %.2f; per round sleep %.2f..%.2f\n",
	       (double)pct(modes[0].rtt, rounds * per, 50) /
	       (double)pct(modes[1].rtt, rounds * per, 50),
	       (double)pct(modes[2].rtt, rounds * per, 50) /
	       (double)pct(modes[3].rtt, rounds * per, 50),
	       best(&modes[0], rounds) / best(&modes[1], rounds),
	       best(&modes[2], rounds) / best(&modes[3], rounds),
	       ratio_lo[0], ratio_hi[0]);
	for (k = 0; k < 4; k++)
		free(modes[k].rtt);
	return 0;
}
