// SPDX-License-Identifier: MIT
/*
 * Seeded random and malformed calls on both nodes: ioctls with random,
 * half-valid and bad arguments, mmaps at random offsets and sizes, random
 * bytes scribbled over mapped rings (layout and control blocks included),
 * reads and writes of odd sizes on the control node, kicks and short
 * waits, daemon restarts, sessions opened in children killed at random
 * moments, and mappings that outlive their files.  Nothing here may crash
 * or wedge the kernel; the fuzzer itself only has to come back.
 *
 * It takes the daemon's place, so no other daemon may run meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm_test.h"

#define NSESS	4
#define NMAPS	24
#define NIDS	32

enum fz_op {
	FZ_IOCTL, FZ_OPEN, FZ_MMAP, FZ_VMA, FZ_READ, FZ_WRITE, FZ_POLL,
	FZ_REOPEN, FZ_FORK, FZ_SESSION, FZ_NOPS,
};

static const char *const fz_names[FZ_NOPS] = {
	"ioctl", "open/close", "mmap", "munmap/mremap/mprotect", "read",
	"write", "poll", "control reopen", "fork", "session ioctl",
};

struct fz_map {
	uint8_t *p;
	size_t len;
	bool writable;
};

struct fz {
	uint64_t rng;
	int ctl;
	int nullfd;
	int sfd[NSESS];
	uint64_t ids[NIDS];	/* session ids seen, for valid-looking calls */
	unsigned int nids;
	struct fz_map maps[NMAPS];
	uint8_t *guard;		/* a page followed by an unmapped one */
	uint8_t buf[4096] __attribute__((aligned(64)));
	unsigned int cur;	/* enum fz_op being run */
	unsigned int nr_ok[FZ_NOPS], nr_err[FZ_NOPS];
};

static uint64_t rnd(struct fz *f, uint64_t n)
{
	return n ? vm_rand(&f->rng) % n : 0;
}

static void add_id(struct fz *f, uint64_t id)
{
	if (id)
		f->ids[f->nids++ % NIDS] = id;
}

static uint64_t some_id(struct fz *f)
{
	switch (rnd(f, 4)) {
	case 0:
		return vm_rand(&f->rng);
	case 1:
		return rnd(f, 64);
	default:
		return f->nids ? f->ids[rnd(f, f->nids < NIDS ? f->nids : NIDS)] : 1;
	}
}

static void note(struct fz *f, long r)
{
	if (r < 0)
		f->nr_err[f->cur]++;
	else
		f->nr_ok[f->cur]++;
}

static int pick_fd(struct fz *f)
{
	unsigned int r = (unsigned int)rnd(f, 10);

	if (r < 3)
		return f->ctl;
	if (r < 9)
		return f->sfd[rnd(f, NSESS)];
	/* not ours: closed, or /dev/null (never the console: random ioctls) */
	return (int)rnd(f, 3) ? 1000 : f->nullfd;
}

static void scribble(struct fz *f, uint8_t *p, size_t len)
{
	unsigned int n = (unsigned int)rnd(f, 8), i;
	size_t off, cnt;

	for (i = 0; i < n && len; i++) {
		off = rnd(f, len);
		cnt = rnd(f, 256);
		if (cnt > len - off)
			cnt = len - off;
		while (cnt--)
			p[off + cnt] = (uint8_t)vm_rand(&f->rng);
	}
}

static size_t region_size(unsigned int sq, unsigned int cq)
{
	return 3 * 4096 + (1UL << sq) + (1UL << cq);
}

static void keep_map(struct fz *f, void *p, size_t len, bool writable)
{
	struct fz_map *m = &f->maps[rnd(f, NMAPS)];

	if (m->p)
		munmap(m->p, m->len);
	m->p = p;
	m->len = len;
	m->writable = writable;
	if (writable)
		scribble(f, p, len);
}

/* Mostly a command of the node the fd is, else one of the other node or a
 * mangled one. */
static unsigned long pick_cmd(struct fz *f, bool ctl)
{
	static const unsigned long app[] = {
		GLEAM_VGPU_IOC_SETUP, GLEAM_VGPU_IOC_KICK, GLEAM_VGPU_IOC_WAIT,
	};
	static const unsigned long daemon[] = {
		GLEAM_VGPU_IOC_HELLO, GLEAM_VGPU_IOC_SET_NR_VGPUS,
		GLEAM_VGPU_IOC_END_SESSION,
	};
	unsigned int r = (unsigned int)rnd(f, 10);
	unsigned long c;

	c = (r < 8) == ctl ? daemon[rnd(f, 3)] : app[rnd(f, 3)];
	if (r < 8)
		return c;
	switch (rnd(f, 4)) {
	case 0:		/* another size */
		return _IOC(_IOC_DIR(c), GLEAM_VGPU_IOC_MAGIC, _IOC_NR(c),
			    rnd(f, 256));
	case 1:		/* another direction */
		return _IOC(rnd(f, 4), GLEAM_VGPU_IOC_MAGIC, _IOC_NR(c),
			    _IOC_SIZE(c));
	case 2:		/* another number */
		return _IOC(_IOC_DIR(c), GLEAM_VGPU_IOC_MAGIC, rnd(f, 256),
			    _IOC_SIZE(c));
	default:
		return (uint32_t)vm_rand(&f->rng);
	}
}

/*
 * Random bytes, or a struct that passes the first checks so that the
 * deeper ones run.  Waits stay short and rings small: the fuzzer must
 * neither sleep for long nor run the VM out of memory.
 */
static void *pick_arg(struct fz *f, unsigned long cmd)
{
	bool plausible = rnd(f, 2);
	uint8_t *b = f->buf;

	switch (rnd(f, 10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)(rnd(f, 2) ? 0x1000 : 0xffff888000000000ULL);
	case 2:
		return f->guard + 4096 - 8 * rnd(f, 8);
	default:
		break;
	}
	for (size_t i = 0; i < 256; i++)
		b[i] = (uint8_t)vm_rand(&f->rng);
	if (cmd == GLEAM_VGPU_IOC_WAIT) {
		struct gleam_vgpu_wait *w = (void *)b;

		if (plausible)
			memset(w, 0, sizeof(*w));
		w->timeout_ns = rnd(f, VM_MS);
	} else if (cmd == GLEAM_VGPU_IOC_SETUP) {
		struct gleam_vgpu_setup *s = (void *)b;

		if (plausible) {
			static const uint32_t shifts[] = { 0, 16, 17, 18, 15, 29 };

			memset(s, 0, sizeof(*s));
			s->sq_shift = shifts[rnd(f, 6)];
			s->cq_shift = shifts[rnd(f, 6)];
		}
		if (s->sq_shift > 20 && s->sq_shift <= GLEAM_RING_MAX_SHIFT)
			s->sq_shift = 16;
		if (s->cq_shift > 20 && s->cq_shift <= GLEAM_RING_MAX_SHIFT)
			s->cq_shift = 17;
	} else if (cmd == GLEAM_VGPU_IOC_HELLO && plausible) {
		struct gleam_vgpu_hello *h = (void *)b;

		memset(h, 0, sizeof(*h));
		h->version = rnd(f, 4) ? GLEAM_VGPU_ABI_VERSION : 0;
		h->features = vm_rand(&f->rng);
	} else if (cmd == GLEAM_VGPU_IOC_SET_NR_VGPUS && plausible) {
		struct gleam_vgpu_nr_vgpus *n = (void *)b;

		memset(n, 0, sizeof(*n));
		n->nr = (uint32_t)rnd(f, GLEAM_VGPU_MAX + 8);
	} else if (cmd == GLEAM_VGPU_IOC_END_SESSION && plausible) {
		struct gleam_vgpu_end_session *e = (void *)b;

		memset(e, 0, sizeof(*e));
		e->session = some_id(f);
	}
	return b;
}

static void op_ioctl(struct fz *f)
{
	int fd = pick_fd(f);
	unsigned long cmd = pick_cmd(f, fd == f->ctl);
	void *arg;

	arg = cmd == GLEAM_VGPU_IOC_KICK && rnd(f, 2) ? NULL : pick_arg(f, cmd);
	/* a WAIT reached through a random pointer must not sleep long */
	if (cmd == GLEAM_VGPU_IOC_WAIT && arg != f->buf)
		arg = NULL;
	note(f, ioctl(fd, cmd, arg));
	if (cmd == GLEAM_VGPU_IOC_SETUP && arg == f->buf)
		add_id(f, ((struct gleam_vgpu_setup *)f->buf)->session);
}

/* The calls an application makes, mostly well formed. */
static void op_session(struct fz *f)
{
	int fd = f->sfd[rnd(f, NSESS)];
	struct gleam_vgpu_setup *su;
	void *p;

	switch (rnd(f, 4)) {
	case 0:
		note(f, ioctl(fd, GLEAM_VGPU_IOC_KICK, NULL));
		break;
	case 1:
		note(f, ioctl(fd, GLEAM_VGPU_IOC_WAIT,
			      pick_arg(f, GLEAM_VGPU_IOC_WAIT)));
		break;
	case 2:
		su = pick_arg(f, GLEAM_VGPU_IOC_SETUP);
		note(f, ioctl(fd, GLEAM_VGPU_IOC_SETUP, su));
		if ((void *)su == f->buf)
			add_id(f, su->session);
		break;
	default:
		su = (void *)f->buf;
		if (ioctl(fd, GLEAM_VGPU_IOC_SETUP, memset(su, 0, sizeof(*su))) &&
		    errno != EBUSY)
			return;
		/* EBUSY: already set up, at whatever size; try both */
		p = mmap(NULL, su->ring.region_size ? su->ring.region_size :
			 region_size(GLEAM_VGPU_DEFAULT_SHIFT,
				     GLEAM_VGPU_DEFAULT_SHIFT),
			 PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		note(f, p == MAP_FAILED ? -1 : 0);
		if (p != MAP_FAILED)
			keep_map(f, p, su->ring.region_size ? su->ring.region_size :
				 region_size(GLEAM_VGPU_DEFAULT_SHIFT,
					     GLEAM_VGPU_DEFAULT_SHIFT), true);
		break;
	}
}

static void op_open_close(struct fz *f)
{
	unsigned int i = (unsigned int)rnd(f, NSESS);
	char path[32];

	if (f->sfd[i] >= 0) {
		close(f->sfd[i]);
		f->sfd[i] = -1;
		return;
	}
	snprintf(path, sizeof(path), GLEAM_VGPU_PATH_FMT,
		 (unsigned int)rnd(f, 3));
	f->sfd[i] = open(path, O_RDWR | O_CLOEXEC);
	note(f, f->sfd[i]);
}

static void op_mmap(struct fz *f)
{
	static const int prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ, PROT_WRITE,
		PROT_READ | PROT_WRITE | PROT_EXEC, PROT_NONE,
	};
	int fd = pick_fd(f), prot = prots[rnd(f, 5)];
	int flags = rnd(f, 5) ? MAP_SHARED : MAP_PRIVATE;
	uint64_t off = 0;
	size_t len;
	void *p;

	switch (rnd(f, 5)) {
	case 0:
		len = region_size(GLEAM_VGPU_DEFAULT_SHIFT,
				  GLEAM_VGPU_DEFAULT_SHIFT);
		break;
	case 1:
		len = region_size(16 + rnd(f, 5), 16 + rnd(f, 5));
		break;
	case 2:
		len = 4096 * (1 + rnd(f, 64));
		break;
	case 3:
		len = rnd(f, 1 << 20);
		break;
	default:
		len = region_size(16, 17);
		break;
	}
	if (fd == f->ctl) {
		switch (rnd(f, 4)) {
		case 0:
			off = some_id(f) << GLEAM_VGPU_MAP_SHIFT;
			break;
		case 1:
			off = (some_id(f) << GLEAM_VGPU_MAP_SHIFT) + 4096;
			break;
		case 2:
			off = vm_rand(&f->rng) & ~4095ULL & ((1ULL << 62) - 1);
			break;
		default:
			off = 0;
			break;
		}
	} else if (!rnd(f, 4)) {
		off = 4096 * rnd(f, 4);
	}
	p = mmap(NULL, len, prot, flags, fd, (off_t)off);
	note(f, p == MAP_FAILED ? -1 : 0);
	if (p != MAP_FAILED)
		keep_map(f, p, len, (prot & PROT_WRITE) && flags == MAP_SHARED);
}

/* Unmap whole or in part, move, or try to make a mapping executable. */
static void op_vma(struct fz *f)
{
	struct fz_map *m = &f->maps[rnd(f, NMAPS)];
	void *q;

	if (!m->p)
		return;
	switch (rnd(f, 5)) {
	case 0:
		munmap(m->p, m->len);
		break;
	case 1:		/* split: the rest stays mapped until exit */
		if (m->len >= 3 * 4096)
			munmap(m->p + 4096, 4096);
		else
			munmap(m->p, m->len);
		break;
	case 2:
		note(f, mprotect(m->p, 4096, PROT_READ | PROT_EXEC));
		return;
	case 3:
		q = mremap(m->p, m->len, m->len, MREMAP_MAYMOVE);
		if (q != MAP_FAILED) {
			m->p = q;
			if (m->writable)
				scribble(f, m->p, m->len);
		}
		return;
	default:
		if (m->writable)
			scribble(f, m->p, m->len);
		return;
	}
	m->p = NULL;
}

static void op_read_events(struct fz *f)
{
	static const size_t sizes[] = { 0, 1, 127, 128, 129, 256, 2048, 4096 };
	struct gleam_vgpu_event *ev = (void *)f->buf;
	size_t sz = sizes[rnd(f, 8)];
	ssize_t n;
	void *p;

	if (!rnd(f, 8)) {
		note(f, read(f->ctl, (void *)0x1000, 128));
		return;
	}
	n = read(f->ctl, f->buf, sz);
	note(f, n);
	for (; n >= (ssize_t)sizeof(*ev); n -= sizeof(*ev), ev++) {
		add_id(f, ev->session);
		if (ev->type != GLEAM_VGPU_EV_OPEN || rnd(f, 3) == 0)
			continue;
		p = mmap(NULL, ev->ring.region_size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, f->ctl, (off_t)ev->map_offset);
		note(f, p == MAP_FAILED ? -1 : 0);
		if (p != MAP_FAILED)
			keep_map(f, p, ev->ring.region_size, true);
	}
}

static void op_write_kicks(struct fz *f)
{
	uint64_t ids[8];
	unsigned int n = (unsigned int)rnd(f, 9), i;

	switch (rnd(f, 6)) {
	case 0:
		note(f, write(f->ctl, f->buf, rnd(f, 64)));
		return;
	case 1:
		note(f, write(f->ctl, (void *)0x1000, 64));
		return;
	case 2:
		note(f, write(f->ctl, f->guard + 4096 - 16, 64));
		return;
	default:
		for (i = 0; i < n; i++)
			ids[i] = some_id(f);
		note(f, write(f->ctl, ids, n * sizeof(ids[0])));
		return;
	}
}

static void op_poll(struct fz *f)
{
	struct pollfd p[NSESS + 1];
	unsigned int i;

	for (i = 0; i < NSESS; i++) {
		p[i].fd = f->sfd[i];
		p[i].events = POLLIN | POLLOUT;
	}
	p[NSESS].fd = f->ctl;
	p[NSESS].events = POLLIN | POLLOUT;
	note(f, poll(p, NSESS + 1, 0));
}

static void ctl_reopen(struct fz *f)
{
	struct gleam_vgpu_hello h;

	if (f->ctl >= 0)
		close(f->ctl);
	f->ctl = open(GLEAM_VGPU_CONTROL_PATH, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->ctl < 0 || rnd(f, 8) == 0)
		return;
	memset(&h, 0, sizeof(h));
	h.version = GLEAM_VGPU_ABI_VERSION;
	h.features = rnd(f, 2) ? GLEAM_VGPU_F_KICK_EVENTS : vm_rand(&f->rng);
	note(f, ioctl(f->ctl, GLEAM_VGPU_IOC_HELLO, &h));
}

/* A session in a child that dies at a random point of its setup. */
static void op_fork_kill(struct fz *f)
{
	uint64_t delay = rnd(f, 3000);
	pid_t pid = fork();
	struct gleam_vgpu_app app;

	if (pid < 0)
		return;
	if (pid == 0) {
		if (!gleam_vgpu_app_open(&app, rnd(f, 2) ? "/dev/vgpu0" :
					 "/dev/vgpu1", 16, 16)) {
			memset(app.reg.base, 0xff, 3 * 4096);
			gleam_vgpu_app_kick(&app);
			gleam_vgpu_app_wait(&app, 50 * VM_MS);
		}
		_exit(0);
	}
	usleep((useconds_t)delay);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* fork() copies ring mappings: the child's copies hold the session too. */
static void op_fork_maps(struct fz *f)
{
	pid_t pid = fork();

	if (pid < 0)
		return;
	if (pid == 0) {
		for (unsigned int i = 0; i < NMAPS; i++)
			if (f->maps[i].p && f->maps[i].writable)
				f->maps[i].p[f->maps[i].len - 1] ^= 1;
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int vm_fuzz(uint64_t seed, unsigned int ops)
{
	static struct fz f;
	struct gleam_vgpu_nr_vgpus nr;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	f.rng = seed ^ 0x5eed;
	for (i = 0; i < NSESS; i++)
		f.sfd[i] = -1;
	f.ctl = -1;
	f.nullfd = open("/dev/null", O_RDWR | O_CLOEXEC);
	f.guard = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f.guard == MAP_FAILED)
		return -1;
	munmap(f.guard + 4096, 4096);
	ctl_reopen(&f);

	for (i = 0; i < ops; i++) {
		static const enum fz_op mix[20] = {
			FZ_IOCTL, FZ_IOCTL, FZ_IOCTL, FZ_IOCTL, FZ_IOCTL,
			FZ_IOCTL, FZ_OPEN, FZ_OPEN, FZ_MMAP, FZ_MMAP, FZ_VMA,
			FZ_READ, FZ_READ, FZ_WRITE, FZ_POLL, FZ_REOPEN,
			FZ_FORK, FZ_FORK, FZ_SESSION, FZ_SESSION,
		};

		f.cur = mix[rnd(&f, 20)];
		switch (f.cur) {
		case FZ_IOCTL:
			op_ioctl(&f);
			break;
		case FZ_OPEN:
			op_open_close(&f);
			break;
		case FZ_MMAP:
			op_mmap(&f);
			break;
		case FZ_VMA:
			op_vma(&f);
			break;
		case FZ_READ:
			op_read_events(&f);
			break;
		case FZ_WRITE:
			op_write_kicks(&f);
			break;
		case FZ_POLL:
			op_poll(&f);
			break;
		case FZ_REOPEN:
			if (!rnd(&f, 10))
				ctl_reopen(&f);
			break;
		case FZ_FORK:
			if (!rnd(&f, 10))
				op_fork_kill(&f);
			else if (!rnd(&f, 10))
				op_fork_maps(&f);
			break;
		default:
			op_session(&f);
			break;
		}
		if (i % 500 == 499) {
			/* keep two nodes around so that opens mostly work */
			memset(&nr, 0, sizeof(nr));
			nr.nr = 2 + (unsigned int)rnd(&f, 2);
			if (f.ctl >= 0)
				ioctl(f.ctl, GLEAM_VGPU_IOC_SET_NR_VGPUS, &nr);
		}
	}
	printf("  fuzz: %u operations, seed %llu; calls that succeeded/failed:",
	       ops, (unsigned long long)seed);
	for (i = 0; i < FZ_NOPS; i++)
		if (f.nr_ok[i] + f.nr_err[i])
			printf(" %s %u/%u", fz_names[i], f.nr_ok[i], f.nr_err[i]);
	printf("\n");

	for (i = 0; i < NSESS; i++)
		if (f.sfd[i] >= 0)
			close(f.sfd[i]);
	for (i = 0; i < NMAPS; i++)
		if (f.maps[i].p)
			munmap(f.maps[i].p, f.maps[i].len);
	if (f.ctl >= 0)
		close(f.ctl);
	return 0;
}
