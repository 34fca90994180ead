// SPDX-License-Identifier: MIT
/*
 * gleam_vgpu.ko tests, run as root inside the VM with the module loaded
 * (nr_vgpus=2) and no daemon.  Each test prints "ok N - name" or
 * "not ok N - name"; the last line is "N passed, N failed".
 *
 * Usage: vgpu_test [seed]
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm_test.h"

#define SYSFS_VGPU	"/sys/class/gleam_vgpu/vgpu%u/%s"
#define NL_MAX		1024

static struct vm_daemon_stats *dstats;
static int dstats_fd;
static pid_t daemon_pid = -1;
static struct gleam_vgpu_nl *nl;
static struct gleam_vgpu_nl_event nl_seen[NL_MAX];
static unsigned int nl_nseen;
static uint64_t seed;

uint64_t vm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * VM_SEC + (uint64_t)ts.tv_nsec;
}

/* splitmix64: small, seedable, good enough to drive tests. */
uint64_t vm_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

const char *vm_err(int err)
{
	return err ? strerror(-err) : "success";
}

static int read_u64(const char *path, uint64_t *val)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	*val = strtoull(buf, NULL, 10);
	return 0;
}

static int sysfs_u64(unsigned int vgpu, const char *name, uint64_t *val)
{
	char path[128];

	snprintf(path, sizeof(path), SYSFS_VGPU, vgpu, name);
	return read_u64(path, val);
}

static void vgpu_path(char *buf, size_t n, unsigned int index)
{
	snprintf(buf, n, GLEAM_VGPU_PATH_FMT, index);
}

/* Wait for a child, killing it after timeout: its exit code or -errno. */
static int wait_child(pid_t pid, uint64_t timeout_ns)
{
	uint64_t deadline = vm_now_ns() + timeout_ns;
	int status;

	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (vm_now_ns() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		usleep(2000);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -EINTR;
}

/* Netlink events: remember what came, find one by command and pid/session. */
static void nl_reset(void)
{
	struct gleam_vgpu_nl_event ev;

	while (gleam_vgpu_nl_recv(nl, &ev, 0) != -ETIMEDOUT)
		;
	nl_nseen = 0;
}

static const struct gleam_vgpu_nl_event *nl_find(uint8_t cmd, pid_t pid,
						 uint64_t session,
						 uint64_t timeout_ns)
{
	uint64_t deadline = vm_now_ns() + timeout_ns, now;
	struct gleam_vgpu_nl_event ev;
	unsigned int i;
	int err;

	for (;;) {
		for (i = 0; i < nl_nseen; i++) {
			const struct gleam_vgpu_nl_event *e = &nl_seen[i];

			if (e->cmd == cmd && (!pid || e->pid == (uint32_t)pid) &&
			    (!session || e->session == session))
				return e;
		}
		now = vm_now_ns();
		if (now >= deadline)
			return NULL;
		err = gleam_vgpu_nl_recv(nl, &ev, (int)((deadline - now) / VM_MS) + 1);
		if (err == -ETIMEDOUT)
			return NULL;
		if (err) {
			fprintf(stderr, "  netlink: %s\n", vm_err(err));
			continue;
		}
		if (nl_nseen < NL_MAX)
			nl_seen[nl_nseen++] = ev;
	}
}

static int raw_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

static int start_daemon(void)
{
	memset(dstats, 0, sizeof(*dstats));
	daemon_pid = vm_daemon_start(dstats, dstats_fd);
	if (daemon_pid < 0) {
		int err = daemon_pid;

		daemon_pid = -1;
		VM_FAIL("daemon start: %s", vm_err(err));
	}
	return 0;
}

static int stop_daemon(void)
{
	int err;

	if (daemon_pid < 0)
		return 0;
	err = vm_daemon_stop(daemon_pid);
	daemon_pid = -1;
	VM_CHECK(!err, "daemon stop: %s", vm_err(err));
	return 0;
}

/* ---- tests ---- */

static int t_nodes(void)
{
	struct stat st;
	uint64_t v;

	VM_CHECK(!stat(GLEAM_VGPU_CONTROL_PATH, &st) && S_ISCHR(st.st_mode),
		 "no control node");
	VM_CHECK((st.st_mode & 0777) == 0600, "control mode %o",
		 st.st_mode & 0777);
	VM_CHECK(!stat("/dev/vgpu0", &st) && S_ISCHR(st.st_mode), "no vgpu0");
	VM_CHECK(!stat("/dev/vgpu1", &st) && S_ISCHR(st.st_mode), "no vgpu1");
	VM_CHECK(stat("/dev/vgpu2", &st) < 0, "vgpu2 exists");
	VM_CHECK(!sysfs_u64(0, "sessions_opened", &v) && v == 0,
		 "sysfs sessions_opened");
	VM_CHECK(!sysfs_u64(1, "ring_bytes", &v) && v == 0, "sysfs ring_bytes");
	VM_CHECK(!read_u64("/sys/module/gleam_vgpu/parameters/nr_vgpus", &v) &&
		 v == 2, "nr_vgpus parameter");
	return 0;
}

static int t_control(void)
{
	struct gleam_vgpu_hello h;
	struct gleam_vgpu_event ev;
	struct gleam_vgpu_ctl ctl;
	int fd, fd2, err;

	fd = open(GLEAM_VGPU_CONTROL_PATH, O_RDWR | O_NONBLOCK);
	VM_CHECK(fd >= 0, "open control: %s", strerror(errno));
	fd2 = open(GLEAM_VGPU_CONTROL_PATH, O_RDWR);
	VM_CHECK(fd2 < 0 && errno == EBUSY, "second control open: %d %s", fd2,
		 strerror(errno));
	VM_CHECK(read(fd, &ev, sizeof(ev)) < 0 && errno == EINVAL,
		 "read before HELLO");
	VM_CHECK(raw_ioctl(fd, _IO(GLEAM_VGPU_IOC_MAGIC, 0x7f), NULL) == -ENOTTY,
		 "unknown ioctl");
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_KICK, NULL) == -ENOTTY,
		 "application ioctl on control");

	memset(&h, 0, sizeof(h));
	h.version = GLEAM_VGPU_ABI_VERSION;
	h.reserved[3] = 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_HELLO, &h) == -EINVAL,
		 "HELLO with reserved bits");
	memset(&h, 0, sizeof(h));
	h.version = 99;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_HELLO, &h) == -EINVAL,
		 "HELLO version 99");
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_HELLO, (void *)8) == -EFAULT,
		 "HELLO bad pointer");
	memset(&h, 0, sizeof(h));
	h.version = GLEAM_VGPU_ABI_VERSION;
	h.features = ~0ULL;
	VM_CHECK(!raw_ioctl(fd, GLEAM_VGPU_IOC_HELLO, &h), "HELLO");
	VM_CHECK(h.features == GLEAM_VGPU_F_KNOWN, "features %#" PRIx64,
		 (uint64_t)h.features);
	VM_CHECK(h.event_size == sizeof(ev) && h.nr_vgpus == 2 &&
		 h.max_vgpus == GLEAM_VGPU_MAX, "HELLO answer");
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_HELLO, &h) == -EALREADY,
		 "second HELLO");
	VM_CHECK(read(fd, &ev, sizeof(ev)) < 0 && errno == EAGAIN,
		 "read with no events");
	VM_CHECK(read(fd, &ev, sizeof(ev) - 1) < 0 && errno == EINVAL,
		 "short read");
	VM_CHECK(write(fd, &ev, 7) < 0 && errno == EINVAL, "odd write");
	close(fd);

	err = gleam_vgpu_ctl_open(&ctl, 0, true);
	VM_CHECK(!err, "control reopen: %s", vm_err(err));
	VM_CHECK(ctl.features == 0, "no features asked, some granted");
	gleam_vgpu_ctl_close(&ctl);
	return 0;
}

/* In a child: drop to uid/gid 1000 with the given extra group, then open. */
static int open_as_user(const char *path, gid_t extra)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		gid_t groups[1] = { extra };

		if (setgroups(extra ? 1 : 0, groups) || setresgid(1000, 1000, 1000) ||
		    setresuid(1000, 1000, 1000))
			_exit(100);
		fd = open(path, O_RDWR);
		_exit(fd >= 0 ? 0 : errno);
	}
	return wait_child(pid, 10 * VM_SEC);
}

static int t_permissions(void)
{
	int r;

	r = open_as_user(GLEAM_VGPU_CONTROL_PATH, 0);
	VM_CHECK(r == EACCES, "user opens control: %d", r);
	VM_CHECK(!chmod(GLEAM_VGPU_CONTROL_PATH, 0666), "chmod");
	r = open_as_user(GLEAM_VGPU_CONTROL_PATH, 0);
	chmod(GLEAM_VGPU_CONTROL_PATH, 0600);
	VM_CHECK(r == EPERM, "user without CAP_SYS_ADMIN opens control: %d", r);

	r = open_as_user("/dev/vgpu0", 0);
	VM_CHECK(r == EACCES, "user opens root's 0600 vgpu0: %d", r);
	/* what udev/60-gleam-vgpu.rules does: group gleam, 0660 */
	VM_CHECK(!chown("/dev/vgpu0", 0, 1001) && !chmod("/dev/vgpu0", 0660),
		 "chown");
	r = open_as_user("/dev/vgpu0", 1001);
	VM_CHECK(r == 0, "member of the group opens vgpu0: %d", r);
	r = open_as_user("/dev/vgpu0", 0);
	VM_CHECK(r == EACCES, "non-member opens vgpu0: %d", r);
	chown("/dev/vgpu0", 0, 0);
	chmod("/dev/vgpu0", 0600);
	return 0;
}

static int t_nr_vgpus(void)
{
	struct gleam_vgpu_nr_vgpus a;
	struct gleam_vgpu_ctl ctl;
	struct stat st;
	uint64_t v;
	int fd, err;

	err = gleam_vgpu_ctl_open(&ctl, 0, true);
	VM_CHECK(!err, "control: %s", vm_err(err));
	err = gleam_vgpu_ctl_set_nr_vgpus(&ctl, 4);
	VM_CHECK(!err, "set 4: %s", vm_err(err));
	VM_CHECK(!stat("/dev/vgpu3", &st), "no vgpu3");
	VM_CHECK(!sysfs_u64(3, "sessions_active", &v) && v == 0, "vgpu3 sysfs");
	VM_CHECK(!read_u64("/sys/module/gleam_vgpu/parameters/nr_vgpus", &v) &&
		 v == 4, "parameter not 4");

	fd = open("/dev/vgpu3", O_RDWR);
	VM_CHECK(fd >= 0, "open vgpu3");
	VM_CHECK(gleam_vgpu_ctl_set_nr_vgpus(&ctl, 2) == -EBUSY,
		 "removed a node with a session");
	close(fd);
	VM_CHECK(!gleam_vgpu_ctl_set_nr_vgpus(&ctl, 2), "set 2");
	VM_CHECK(stat("/dev/vgpu3", &st) < 0, "vgpu3 still there");
	VM_CHECK(gleam_vgpu_ctl_set_nr_vgpus(&ctl, GLEAM_VGPU_MAX + 1) == -EINVAL,
		 "set 65");
	memset(&a, 0, sizeof(a));
	a.nr = 2;
	a.flags = 1;
	VM_CHECK(raw_ioctl(ctl.fd, GLEAM_VGPU_IOC_SET_NR_VGPUS, &a) == -EINVAL,
		 "unknown flag");

	/* a node for a minor that has no device */
	VM_CHECK(!stat("/dev/vgpu0", &st), "stat vgpu0");
	unlink("/tmp/vgpu9");
	VM_CHECK(!mknod("/tmp/vgpu9", S_IFCHR | 0600,
			makedev(major(st.st_rdev), 9)), "mknod");
	fd = open("/tmp/vgpu9", O_RDWR);
	VM_CHECK(fd < 0 && errno == ENODEV, "open of a missing minor: %d %s",
		 fd, strerror(errno));
	unlink("/tmp/vgpu9");
	gleam_vgpu_ctl_close(&ctl);
	return 0;
}

static int t_app_api(void)
{
	const size_t def_size = 3 * 4096 + (2UL << GLEAM_VGPU_DEFAULT_SHIFT);
	struct gleam_vgpu_ring_info ri;
	struct gleam_ring_layout *lay;
	struct gleam_vgpu_setup su;
	struct gleam_vgpu_wait w;
	struct pollfd p;
	uint64_t t0, dt;
	void *m;
	int fd, fd2;

	fd = open("/dev/vgpu0", O_RDWR);
	VM_CHECK(fd >= 0, "open vgpu0");
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_KICK, NULL) == -EINVAL,
		 "KICK before setup");
	memset(&w, 0, sizeof(w));
	w.timeout_ns = 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_WAIT, &w) == -EINVAL,
		 "WAIT before setup");
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_HELLO, &su) == -ENOTTY,
		 "control ioctl on vgpu");

	memset(&su, 0, sizeof(su));
	su.sq_shift = GLEAM_RING_MIN_SHIFT - 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su) == -EINVAL,
		 "sq_shift too small");
	memset(&su, 0, sizeof(su));
	su.cq_shift = GLEAM_RING_MAX_SHIFT + 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su) == -EINVAL,
		 "cq_shift too large");
	memset(&su, 0, sizeof(su));
	su.flags = 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su) == -EINVAL, "flags");
	memset(&su, 0, sizeof(su));
	su.reserved[2] = 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su) == -EINVAL,
		 "reserved");
	memset(&su, 0, sizeof(su));
	su.sq_shift = 16;
	su.cq_shift = 17;
	VM_CHECK(!raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su), "SETUP");
	VM_CHECK(su.session && su.vgpu == 0 &&
		 su.ring.region_size == 3 * 4096 + (1 << 16) + (1 << 17) &&
		 su.ring.sq_ctl_off == 4096 && su.ring.cq_ctl_off == 8192 &&
		 su.ring.sq_data_off == 12288 &&
		 su.ring.cq_data_off == 12288 + (1 << 16), "SETUP answer");
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su) == -EBUSY,
		 "second SETUP");
	ri = su.ring;

	m = mmap(NULL, su.ring.region_size - 4096, PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	VM_CHECK(m == MAP_FAILED && errno == EINVAL, "short mmap");
	m = mmap(NULL, su.ring.region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 4096);
	VM_CHECK(m == MAP_FAILED && errno == EINVAL, "mmap at offset");
	m = mmap(NULL, su.ring.region_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE, fd, 0);
	VM_CHECK(m == MAP_FAILED && errno == EINVAL, "private mmap");
	m = mmap(NULL, su.ring.region_size, PROT_READ | PROT_EXEC, MAP_SHARED,
		 fd, 0);
	VM_CHECK(m == MAP_FAILED && errno == EPERM, "executable mmap");
	m = mmap(NULL, su.ring.region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	VM_CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	lay = m;
	VM_CHECK(lay->magic == GLEAM_RING_MAGIC &&
		 lay->version == GLEAM_RING_VERSION &&
		 lay->region_size == su.ring.region_size &&
		 lay->sq_ctl_off == su.ring.sq_ctl_off &&
		 lay->sq_data_off == su.ring.sq_data_off &&
		 lay->cq_ctl_off == su.ring.cq_ctl_off &&
		 lay->cq_data_off == su.ring.cq_data_off &&
		 lay->sq_shift == 16 && lay->cq_shift == 17 && !lay->features,
		 "layout page");
	VM_CHECK(mprotect(m, 4096, PROT_READ | PROT_EXEC) < 0,
		 "mprotect made the ring executable");
	VM_CHECK(mremap(m, su.ring.region_size, su.ring.region_size + 4096,
			0) == MAP_FAILED, "mremap grew the ring");
	/* every page is there and writable */
	memset((char *)m + su.ring.sq_data_off, 0xa5, 1 << 16);
	memset((char *)m + su.ring.cq_data_off, 0x5a, 1 << 17);

	VM_CHECK(!raw_ioctl(fd, GLEAM_VGPU_IOC_KICK, NULL),
		 "KICK with no daemon");
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_KICK, (void *)1) == -EINVAL,
		 "KICK argument");
	memset(&w, 0, sizeof(w));
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_WAIT, &w) == -ETIMEDOUT,
		 "WAIT 0");
	w.timeout_ns = 20 * VM_MS;
	t0 = vm_now_ns();
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_WAIT, &w) == -ETIMEDOUT,
		 "WAIT 20 ms");
	dt = vm_now_ns() - t0;
	VM_CHECK(dt >= 20 * VM_MS && dt < 5 * VM_SEC, "WAIT took %" PRIu64 " ns",
		 dt);
	w.flags = 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_WAIT, &w) == -EINVAL,
		 "WAIT flags");
	w.flags = 0;
	w.reserved = 1;
	VM_CHECK(raw_ioctl(fd, GLEAM_VGPU_IOC_WAIT, &w) == -EINVAL,
		 "WAIT reserved");
	p.fd = fd;
	p.events = POLLIN;
	VM_CHECK(poll(&p, 1, 0) == 0, "poll without a kick");

	/* the first mmap sets a session up with the default sizes */
	fd2 = open("/dev/vgpu1", O_RDWR);
	VM_CHECK(fd2 >= 0, "open vgpu1");
	close(fd);	/* the mapping keeps the session */
	lay = mmap(NULL, def_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0);
	VM_CHECK(lay != MAP_FAILED, "default mmap: %s", strerror(errno));
	VM_CHECK(lay->sq_shift == GLEAM_VGPU_DEFAULT_SHIFT &&
		 lay->region_size == def_size, "default layout");
	memset(&su, 0, sizeof(su));
	VM_CHECK(raw_ioctl(fd2, GLEAM_VGPU_IOC_SETUP, &su) == -EBUSY,
		 "SETUP after mmap");
	VM_CHECK(*(volatile uint8_t *)((char *)m + ri.sq_data_off + 7) == 0xa5,
		 "first ring lost its contents");
	munmap(lay, def_size);
	munmap(m, ri.region_size);
	close(fd2);
	return 0;
}

#define PARAM_RING_MEM	"/sys/module/gleam_vgpu/parameters/ring_mem_max_mb"
#define RING_MEM_FDS	16

static uint64_t ring_size(unsigned int shift)
{
	return 3 * 4096 + (2ULL << shift);
}

static int setup_shift(int fd, unsigned int shift)
{
	struct gleam_vgpu_setup su;

	memset(&su, 0, sizeof(su));
	su.sq_shift = shift;
	su.cq_shift = shift;
	return raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su);
}

/*
 * Sessions on both nodes, each with rings of 2 << shift, until one is
 * refused: how many fit, and the refusal.  fds[0..*fit] are left open.
 */
static int fill_rings(int *fds, unsigned int shift, unsigned int *fit)
{
	char path[32];
	unsigned int i;
	int err = 0;

	for (i = 0; i < RING_MEM_FDS; i++) {
		vgpu_path(path, sizeof(path), i % 2);
		fds[i] = open(path, O_RDWR);
		if (fds[i] < 0) {
			err = -errno;
			break;
		}
		err = setup_shift(fds[i], shift);
		if (err)
			break;
	}
	*fit = i;
	return err;
}

static void close_fds(int *fds, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && i < RING_MEM_FDS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * A ring larger than the whole bound (shifts of 26 in a 512 MiB VM) is
 * refused whatever else is held, leaves nothing behind, and leaves the
 * session free to set up a ring that fits, or to close.
 */
static int ring_mem_too_big(unsigned int big)
{
	struct gleam_vgpu_setup su;
	uint64_t v;
	void *m;
	int fd, err;

	fd = open("/dev/vgpu0", O_RDWR);
	VM_CHECK(fd >= 0, "open vgpu0");
	VM_CHECK(setup_shift(fd, big) == -ENOMEM, "shifts %u past the bound",
		 big);
	VM_CHECK(setup_shift(fd, big) == -ENOMEM, "second try past the bound");
	VM_CHECK(!sysfs_u64(0, "ring_bytes", &v) && v == 0,
		 "ring_bytes %" PRIu64 " after ENOMEM", v);
	memset(&su, 0, sizeof(su));
	err = raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su);
	VM_CHECK(!err, "default SETUP after ENOMEM: %s", vm_err(err));
	m = mmap(NULL, su.ring.region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	VM_CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	VM_CHECK(((struct gleam_ring_layout *)m)->magic == GLEAM_RING_MAGIC,
		 "layout page");
	munmap(m, su.ring.region_size);
	VM_CHECK(!close(fd), "close: %s", strerror(errno));

	/* a session refused for memory, and closed with no ring */
	fd = open("/dev/vgpu1", O_RDWR);
	VM_CHECK(fd >= 0, "open vgpu1");
	VM_CHECK(setup_shift(fd, big) == -ENOMEM, "vgpu1 past the bound");
	VM_CHECK(!close(fd), "close of a refused session: %s",
		 strerror(errno));
	return 0;
}

/*
 * The rings of all sessions together stay under ring_mem_max_mb (a quarter
 * of RAM by default: some 114 MiB here).  A setup past it is refused with
 * ENOMEM and costs nothing; a ring kept by a mapping after its file closed
 * counts until it is unmapped, and then all of it comes back.
 */
static int t_ring_mem(void)
{
	unsigned int big, fill, fit, fit2;
	int fds[RING_MEM_FDS], err;
	uint64_t max;
	void *m;

	VM_CHECK(!read_u64(PARAM_RING_MEM, &max) && max,
		 "no ring_mem_max_mb");
	printf("  ring memory bound %" PRIu64 " MiB\n", max);
	max <<= 20;

	for (big = GLEAM_RING_MIN_SHIFT; big < GLEAM_RING_MAX_SHIFT &&
	     ring_size(big) <= max; big++)
		;
	if (ring_size(big) > max) {
		if (ring_mem_too_big(big))
			return -1;
	} else {
		printf("  no ring is larger than the bound: not tried\n");
	}

	/* rings of a quarter of the bound or less, until one is refused */
	for (fill = GLEAM_RING_MIN_SHIFT; fill < GLEAM_RING_MAX_SHIFT &&
	     4 * ring_size(fill + 1) <= max; fill++)
		;
	VM_CHECK(8 * ring_size(fill) > max, "bound too large to fill");
	err = fill_rings(fds, fill, &fit);
	VM_CHECK(err == -ENOMEM && fit, "%u rings of %" PRIu64 " KiB, then %s",
		 fit, ring_size(fill) >> 10, vm_err(err));
	printf("  %u rings of %" PRIu64 " KiB fit\n", fit,
	       ring_size(fill) >> 10);

	/* the first outlives its file: fds[fit] stays refused until unmap */
	m = mmap(NULL, ring_size(fill), PROT_READ | PROT_WRITE, MAP_SHARED,
		 fds[0], 0);
	VM_CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	memset((char *)m + ring_size(fill) - 4096, 0x5a, 4096);
	VM_CHECK(!close(fds[0]), "close of a mapped session");
	fds[0] = -1;
	VM_CHECK(setup_shift(fds[fit], fill) == -ENOMEM,
		 "a mapped ring stopped counting when its file closed");
	munmap(m, ring_size(fill));
	err = setup_shift(fds[fit], fill);
	VM_CHECK(!err, "SETUP after the unmap: %s", vm_err(err));
	close_fds(fds, fit + 1);

	/* nothing was kept by the refusals, the closes or the unmap */
	err = fill_rings(fds, fill, &fit2);
	close_fds(fds, fit2 + 1);
	VM_CHECK(err == -ENOMEM && fit2 == fit,
		 "%u rings fit the second time, not %u; then %s", fit2, fit,
		 vm_err(err));
	return 0;
}

/*
 * A ring's pages cannot be taken by reference through its mapping: a pipe
 * holding them (vmsplice) would keep them past the ring's free, outside
 * ring_mem_max_mb.  Copies through the mapping (read and write on a pipe,
 * as a socket's copies are) work on every page, the last included.
 */
static int t_ring_by_ref(void)
{
	struct gleam_vgpu_setup su;
	unsigned char buf[4096];
	struct iovec iov;
	int fd, p[2], err;
	unsigned char *m;
	ssize_t n;

	fd = open("/dev/vgpu0", O_RDWR);
	VM_CHECK(fd >= 0, "open vgpu0");
	memset(&su, 0, sizeof(su));
	err = raw_ioctl(fd, GLEAM_VGPU_IOC_SETUP, &su);
	VM_CHECK(!err, "SETUP: %s", vm_err(err));
	m = mmap(NULL, su.ring.region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	VM_CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	VM_CHECK(!pipe(p), "pipe");

	iov.iov_base = m + su.ring.sq_data_off;
	iov.iov_len = sizeof(buf);
	n = vmsplice(p[1], &iov, 1, 0);
	VM_CHECK(n < 0 && errno == EFAULT,
		 "vmsplice of ring pages: %zd (%s), not EFAULT", n,
		 n < 0 ? strerror(errno) : "taken by reference");

	memset(m + su.ring.region_size - sizeof(buf), 0x3c, sizeof(buf));
	VM_CHECK(write(p[1], m + su.ring.region_size - sizeof(buf),
		       sizeof(buf)) == (ssize_t)sizeof(buf),
		 "write from the ring: %s", strerror(errno));
	VM_CHECK(read(p[0], buf, sizeof(buf)) == (ssize_t)sizeof(buf) &&
		 buf[0] == 0x3c && buf[sizeof(buf) - 1] == 0x3c,
		 "what was written from the ring");
	buf[7] = 0xc3;
	VM_CHECK(write(p[1], buf, sizeof(buf)) == (ssize_t)sizeof(buf), "write");
	VM_CHECK(read(p[0], m + su.ring.sq_data_off, sizeof(buf)) ==
		 (ssize_t)sizeof(buf) && m[su.ring.sq_data_off + 7] == 0xc3,
		 "read into the ring: %s", strerror(errno));

	close(p[0]);
	close(p[1]);
	munmap(m, su.ring.region_size);
	VM_CHECK(!close(fd), "close: %s", strerror(errno));
	return 0;
}

/* A session set up before any daemon is announced to the first one. */
static int t_announce_late(void)
{
	struct gleam_vgpu_app app;
	struct gleam_reply rep;
	struct vm_ring sq, cq;
	uint8_t body[64];
	uint32_t blen;
	int err;

	err = gleam_vgpu_app_open(&app, "/dev/vgpu1", 16, 16);
	VM_CHECK(!err, "open: %s", vm_err(err));
	vm_ring_init(&sq, app.reg.sq_ctl, app.reg.sq_data, 16);
	vm_ring_init(&cq, app.reg.cq_ctl, app.reg.cq_data, 16);
	err = vm_app_send(&app, &sq, VM_FN_ECHO, GLEAM_REC_F_REPLY, 7, 1,
			  "early", 5);
	VM_CHECK(!err, "send: %s", vm_err(err));
	if (start_daemon())
		goto out_close;
	err = vm_app_recv(&app, &cq, &rep, body, sizeof(body), &blen,
			  20 * VM_SEC);
	if (err || rep.tag != 7 || memcmp(body, "early", 5)) {
		fprintf(stderr, "  FAIL: reply to the early record: %s\n",
			vm_err(err));
		goto out_close;
	}
	gleam_vgpu_app_close(&app);
	VM_CHECK(dstats->opens == 1, "daemon saw %" PRIu64 " opens",
		 dstats->opens);
	return 0;

out_close:
	gleam_vgpu_app_close(&app);
	return -1;
}

static int t_echo(void)
{
	const unsigned int napps = 5;
	struct gleam_vgpu_stats st[2];
	pid_t pids[5];
	unsigned int i;
	uint64_t v;
	int r, fails = 0;
	char path[32];

	nl_reset();
	for (i = 0; i < napps; i++) {
		pids[i] = fork();
		VM_CHECK(pids[i] >= 0, "fork");
		if (pids[i] == 0) {
			vgpu_path(path, sizeof(path), i % 2);
			/* the last one uses the default 4 MiB rings */
			_exit(vm_app_echo(path, i == napps - 1 ? 0 : 16, 1500,
					  seed + i) ? 1 : 0);
		}
	}
	for (i = 0; i < napps; i++) {
		r = wait_child(pids[i], 240 * VM_SEC);
		if (r) {
			fprintf(stderr, "  FAIL: app %u: %d\n", i, r);
			fails++;
		}
	}
	VM_CHECK(!fails, "%d apps failed", fails);

	for (i = 0; i < napps; i++) {
		const struct gleam_vgpu_nl_event *e;

		e = nl_find(GLEAM_VGPU_CMD_SESSION_OPENED, pids[i], 0, 30 * VM_SEC);
		VM_CHECK(e && e->vgpu == i % 2 && e->uid == 0,
			 "netlink: no OPENED for app %u", i);
		e = nl_find(GLEAM_VGPU_CMD_SESSION_ENDED, pids[i], e->session,
			    30 * VM_SEC);
		VM_CHECK(e && e->reason == GLEAM_VGPU_END_CLOSED && !e->signal,
			 "netlink: no ENDED for app %u", i);
	}
	for (i = 0; i < 2; i++) {
		r = gleam_vgpu_nl_stats(nl, i, &st[i]);
		VM_CHECK(!r, "stats %u: %s", i, vm_err(r));
		VM_CHECK(st[i].vgpu == i && st[i].sessions_active == 0 &&
			 st[i].ring_bytes == 0, "stats of vgpu%u", i);
		VM_CHECK(!sysfs_u64(i, "sessions_opened", &v) &&
			 v == st[i].sessions_opened, "sysfs and netlink differ");
	}
	VM_CHECK(st[0].sessions_opened >= 4 && st[1].sessions_opened >= 4,
		 "sessions_opened %" PRIu64 " %" PRIu64,
		 st[0].sessions_opened, st[1].sessions_opened);
	VM_CHECK(gleam_vgpu_nl_stats(nl, 2, &st[0]) == -ENODEV,
		 "stats of a missing vgpu");
	printf("  echoed %" PRIu64 " records; kicks to daemon %" PRIu64
	       " to apps %" PRIu64 "; waits %" PRIu64 "\n",
	       dstats->echoed, st[0].kicks_to_daemon + st[1].kicks_to_daemon,
	       st[0].kicks_to_app + st[1].kicks_to_app,
	       st[0].waits + st[1].waits);
	VM_CHECK(dstats->broken == 0, "daemon found broken rings");
	return 0;
}

/* The state letter of /proc/PID/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* An application killed while it waits: its session ends at once. */
static int t_kill_app(void)
{
	const struct gleam_vgpu_nl_event *e;
	struct gleam_vgpu_app app;
	struct vm_ring sq;
	uint64_t id = 0, v, t0;
	int pfd[2], err;
	pid_t pid;

	nl_reset();
	VM_CHECK(!pipe(pfd), "pipe");
	pid = fork();
	VM_CHECK(pid >= 0, "fork");
	if (pid == 0) {
		if (gleam_vgpu_app_open(&app, "/dev/vgpu1", 16, 16))
			_exit(1);
		vm_ring_init(&sq, app.reg.sq_ctl, app.reg.sq_data, 16);
		if (vm_app_send(&app, &sq, VM_FN_SWALLOW, GLEAM_REC_F_REPLY, 1,
				1, NULL, 0))
			_exit(2);
		if (write(pfd[1], &app.reg.session, 8) != 8)
			_exit(3);
		for (;;)
			gleam_vgpu_app_wait_cq(&app, 0, 60 * VM_SEC);
	}
	close(pfd[1]);
	VM_CHECK(read(pfd[0], &id, 8) == 8, "child did not start");
	close(pfd[0]);
	/* a killable sleep shows as D */
	t0 = vm_now_ns();
	while (proc_state(pid) != 'D' && vm_now_ns() - t0 < 20 * VM_SEC)
		usleep(1000);
	VM_CHECK(proc_state(pid) == 'D', "child not asleep in WAIT: %c",
		 proc_state(pid));
	t0 = vm_now_ns();
	kill(pid, SIGKILL);
	err = wait_child(pid, 10 * VM_SEC);
	VM_CHECK(err == -EINTR, "child did not die of the signal: %d", err);
	e = nl_find(GLEAM_VGPU_CMD_SESSION_ENDED, 0, id, 30 * VM_SEC);
	VM_CHECK(e, "netlink: no ENDED for session %" PRIu64, id);
	VM_CHECK(e->reason == GLEAM_VGPU_END_EXITED && e->signal == SIGKILL &&
		 e->pid == (uint32_t)pid, "ENDED reason %u signal %u",
		 e->reason, e->signal);
	while (!vm_daemon_saw_end(dstats, id) && vm_now_ns() - t0 < 30 * VM_SEC)
		usleep(1000);
	VM_CHECK(vm_daemon_saw_end(dstats, id), "daemon saw no END");
	printf("  session %" PRIu64 " ended %.1f ms after SIGKILL\n", id,
	       (vm_now_ns() - t0) / 1e6);
	VM_CHECK(!sysfs_u64(1, "sessions_active", &v) && v == 0,
		 "sessions_active %" PRIu64, v);
	VM_CHECK(!sysfs_u64(1, "ring_bytes", &v) && v == 0, "ring_bytes");
	return 0;
}

/* A ring that breaks the rules: the daemon ends the session. */
static int hostile_case(int variant)
{
	struct gleam_vgpu_app app;
	struct pollfd p;
	uint32_t bad[2];
	int err;

	err = gleam_vgpu_app_open(&app, "/dev/vgpu0", 16, 16);
	VM_CHECK(!err, "open: %s", vm_err(err));
	switch (variant) {
	case 0:		/* length not a multiple of 8 */
		bad[0] = 12;
		bad[1] = VM_FN_ECHO;
		memcpy(app.reg.sq_data, bad, 8);
		__atomic_store_n(&app.reg.sq_ctl->tail, 16, __ATOMIC_RELEASE);
		break;
	case 1:		/* tail beyond the ring */
		__atomic_store_n(&app.reg.sq_ctl->tail, 1U << 20,
				 __ATOMIC_RELEASE);
		break;
	default:	/* a record longer than what was published */
		bad[0] = 4096;
		bad[1] = VM_FN_ECHO;
		memcpy(app.reg.sq_data, bad, 8);
		__atomic_store_n(&app.reg.sq_ctl->tail, 64, __ATOMIC_RELEASE);
		break;
	}
	err = gleam_vgpu_app_kick(&app);
	if (!err) {
		do
			err = gleam_vgpu_app_wait(&app, 10 * VM_SEC);
		while (!err);
	}
	if (err != -ECONNRESET) {
		gleam_vgpu_app_close(&app);
		VM_FAIL("variant %d: wait gave %s", variant, vm_err(err));
	}
	err = gleam_vgpu_app_kick(&app);
	p.fd = app.fd;
	p.events = POLLIN;
	p.revents = 0;
	poll(&p, 1, 0);
	gleam_vgpu_app_close(&app);
	VM_CHECK(err == -ECONNRESET, "kick after END_SESSION: %s", vm_err(err));
	VM_CHECK(p.revents & POLLERR, "poll revents %#x", p.revents);
	return 0;
}

static int t_hostile_ring(void)
{
	uint64_t before = dstats->broken;
	int v;

	for (v = 0; v < 3; v++)
		if (hostile_case(v))
			return -1;
	VM_CHECK(dstats->broken == before + 3, "daemon broke %" PRIu64,
		 dstats->broken - before);
	return 0;
}

/* Child of t_kill_daemon: one good round trip, then wait for ever. */
static int waiter(unsigned int vgpu, int ready_fd)
{
	struct gleam_vgpu_app app;
	struct gleam_reply rep;
	struct vm_ring sq, cq;
	uint8_t body[64];
	uint32_t blen;
	char path[32];
	int err, i;

	vgpu_path(path, sizeof(path), vgpu);
	if (gleam_vgpu_app_open(&app, path, 16, 16))
		return 10;
	vm_ring_init(&sq, app.reg.sq_ctl, app.reg.sq_data, 16);
	vm_ring_init(&cq, app.reg.cq_ctl, app.reg.cq_data, 16);
	if (vm_app_send(&app, &sq, VM_FN_ECHO, GLEAM_REC_F_REPLY, 1, 1, "x", 1) ||
	    vm_app_recv(&app, &cq, &rep, body, sizeof(body), &blen, 20 * VM_SEC))
		return 11;
	if (vm_app_send(&app, &sq, VM_FN_SWALLOW, GLEAM_REC_F_REPLY, 2, 2,
			NULL, 0))
		return 12;
	if (write(ready_fd, "r", 1) != 1)
		return 13;
	for (i = 0; i < 100; i++) {
		err = gleam_vgpu_app_wait(&app, 60 * VM_SEC);
		if (err)
			break;
	}
	if (err != -ENOTCONN)
		return 14;
	if (gleam_vgpu_app_kick(&app) != -ENOTCONN)
		return 15;
	gleam_vgpu_app_close(&app);
	return 0;
}

/* gleamd dies while applications wait: they fail, none hangs. */
static int t_kill_daemon(void)
{
	pid_t w[2];
	uint64_t t0;
	int pfd[2], i, r;
	char c;

	VM_CHECK(!pipe(pfd), "pipe");
	for (i = 0; i < 2; i++) {
		w[i] = fork();
		VM_CHECK(w[i] >= 0, "fork");
		if (w[i] == 0) {
			close(pfd[0]);
			_exit(waiter(i, pfd[1]));
		}
	}
	close(pfd[1]);
	for (i = 0; i < 2; i++)
		VM_CHECK(read(pfd[0], &c, 1) == 1, "waiter %d did not start", i);
	close(pfd[0]);
	usleep(300000);
	t0 = vm_now_ns();
	kill(daemon_pid, SIGKILL);
	r = wait_child(daemon_pid, 10 * VM_SEC);
	daemon_pid = -1;
	VM_CHECK(r == -EINTR, "daemon: %d", r);
	for (i = 0; i < 2; i++) {
		r = wait_child(w[i], 10 * VM_SEC);
		VM_CHECK(r == 0, "waiter %d: %d", i, r);
	}
	printf("  waiters failed with ENOTCONN %.1f ms after SIGKILL\n",
	       (vm_now_ns() - t0) / 1e6);

	if (start_daemon())
		return -1;
	VM_CHECK(!vm_app_echo("/dev/vgpu0", 16, 200, seed), "echo after restart");
	VM_CHECK(dstats->opens == 1, "restarted daemon saw %" PRIu64 " opens",
		 dstats->opens);
	return 0;
}

static int t_unload_busy(void)
{
	struct gleam_vgpu_app app;
	int r, err;

	r = (int)syscall(SYS_delete_module, "gleam_vgpu", O_NONBLOCK);
	err = errno;
	VM_CHECK(r < 0 && (err == EWOULDBLOCK || err == EBUSY),
		 "unload with a daemon: %d %s", r, strerror(err));
	VM_CHECK(!stop_daemon(), "stop");
	err = gleam_vgpu_app_open(&app, "/dev/vgpu0", 0, 0);
	VM_CHECK(!err, "open: %s", vm_err(err));
	r = (int)syscall(SYS_delete_module, "gleam_vgpu", O_NONBLOCK);
	err = errno;
	gleam_vgpu_app_close(&app);
	VM_CHECK(r < 0 && (err == EWOULDBLOCK || err == EBUSY),
		 "unload with a session: %d %s", r, strerror(err));
	return 0;
}

static int t_fuzz(void)
{
	struct gleam_vgpu_ctl ctl;
	unsigned int i;
	uint64_t v;
	pid_t pid;
	int r;

	pid = fork();
	VM_CHECK(pid >= 0, "fork");
	if (pid == 0) {
		alarm(400);
		_exit(vm_fuzz(seed, 8000) ? 1 : 0);
	}
	r = wait_child(pid, 420 * VM_SEC);
	VM_CHECK(r == 0, "fuzzer: %d", r);
	/* once the fuzzer's leftover mappings are gone with it */
	r = gleam_vgpu_ctl_open(&ctl, 0, true);
	VM_CHECK(!r, "control after fuzz: %s", vm_err(r));
	r = gleam_vgpu_ctl_set_nr_vgpus(&ctl, 2);
	gleam_vgpu_ctl_close(&ctl);
	VM_CHECK(!r, "restore nr_vgpus: %s", vm_err(r));
	for (i = 0; i < 2; i++) {
		VM_CHECK(!sysfs_u64(i, "sessions_active", &v) && v == 0,
			 "vgpu%u sessions_active %" PRIu64, i, v);
		VM_CHECK(!sysfs_u64(i, "ring_bytes", &v) && v == 0,
			 "vgpu%u ring_bytes %" PRIu64, i, v);
	}
	if (start_daemon())
		return -1;
	VM_CHECK(!vm_app_echo("/dev/vgpu1", 16, 200, seed), "echo after fuzz");
	return stop_daemon();
}

static int t_bench(void)
{
	return vm_bench(2000);
}

static int t_idle(void)
{
	unsigned int i;
	uint64_t v;

	for (i = 0; i < 2; i++) {
		VM_CHECK(!sysfs_u64(i, "sessions_active", &v) && v == 0,
			 "sessions_active");
		VM_CHECK(!sysfs_u64(i, "ring_bytes", &v) && v == 0,
			 "ring_bytes");
	}
	VM_CHECK(!read_u64("/sys/module/gleam_vgpu/refcnt", &v) && v == 0,
		 "module refcount %" PRIu64, v);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "nodes", t_nodes },
	{ "control", t_control },
	{ "permissions", t_permissions },
	{ "nr_vgpus", t_nr_vgpus },
	{ "app_api", t_app_api },
	{ "ring_mem", t_ring_mem },
	{ "ring_by_ref", t_ring_by_ref },
	{ "announce_late", t_announce_late },
	{ "echo", t_echo },
	{ "kill_app_waiting", t_kill_app },
	{ "hostile_ring", t_hostile_ring },
	{ "kill_daemon_waiting", t_kill_daemon },
	{ "unload_busy", t_unload_busy },
	{ "fuzz", t_fuzz },
	{ "bench", t_bench },
	{ "idle", t_idle },
};

int main(int argc, char **argv)
{
	unsigned int i, passed = 0, failed = 0;
	uint64_t t0;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (argc == 3 && !strcmp(argv[1], "--daemon"))
		return vm_daemon_main(atoi(argv[2]));
	seed = argc > 1 ? strtoull(argv[1], NULL, 0) : (uint64_t)time(NULL);
	printf("vgpu_test: seed %" PRIu64 "\n", seed);

	/* not close-on-exec: the daemon maps it after exec */
	dstats_fd = memfd_create("vm-daemon-stats", 0);
	if (dstats_fd < 0 || ftruncate(dstats_fd, sizeof(*dstats))) {
		perror("memfd");
		return 1;
	}
	dstats = mmap(NULL, sizeof(*dstats), PROT_READ | PROT_WRITE,
		      MAP_SHARED, dstats_fd, 0);
	if (dstats == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	err = gleam_vgpu_nl_open(&nl, true);
	if (err) {
		fprintf(stderr, "netlink: %s\n", vm_err(err));
		return 1;
	}

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		t0 = vm_now_ns();
		printf("# %s\n", tests[i].name);
		if (tests[i].fn()) {
			failed++;
			printf("not ok %u - %s\n", i + 1, tests[i].name);
		} else {
			passed++;
			printf("ok %u - %s (%.2f s)\n", i + 1, tests[i].name,
			       (vm_now_ns() - t0) / 1e9);
		}
	}
	if (daemon_pid > 0)
		stop_daemon();
	gleam_vgpu_nl_close(nl);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
