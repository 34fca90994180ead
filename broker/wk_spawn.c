// SPDX-License-Identifier: MIT
/*
 * Starting a replay worker from a fresh image (Documentation/gleamd.md):
 * the server forks, and the child, before it runs anything of the
 * session's, keeps only its ring, bell and the usage table (on 3, 4 and
 * 5), takes resource limits, becomes the workers' user when the server
 * runs as root, and executes "gleamd worker".  Nothing of the daemon's
 * memory (other tenants' chunks, other sessions' rings, keys) survives
 * the exec; what the worker needs comes in struct wk_setup on its bell.
 *
 * The child of a threaded process may only make async-signal-safe calls
 * until it executes: everything it needs (the user's ids, the
 * environment) is made before the fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util.h"
#include "wk_spawn.h"

/* Descriptors a worker may open (the driver opens a few dozen). */
#define WORKER_NOFILE	4096
/* The fallback service user, where the configured one does not exist. */
#define WORKER_USER_FALLBACK	"nobody"
#define WORKER_UID_FALLBACK	"65534"

extern char **environ;

static struct {
	int exe;		/* this executable, O_PATH: what workers start from */
	bool drop;		/* root: workers become uid/gid */
	uid_t uid;
	gid_t gid;
	gid_t groups[64];
	int ngroups;
	char user[64];
} sp = { .exe = -1 };

/* "UID" or "UID:GID", not 0: the workers' ids, without groups; whether it was one. */
static bool numeric_user(const char *v)
{
	unsigned long uid, gid;
	char *end;

	uid = strtoul(v, &end, 10);
	if (end == v || uid == 0 || uid >= (uid_t)-1)
		return false;
	gid = uid;
	if (*end == ':')
		gid = strtoul(end + 1, &end, 10);
	if (*end || gid >= (gid_t)-1)
		return false;
	sp.drop = true;
	sp.uid = (uid_t)uid;
	sp.gid = (gid_t)gid;
	sp.ngroups = 0;
	snprintf(sp.user, sizeof(sp.user), "uid %lu", uid);
	return true;
}

int wk_spawn_init(const char *user)
{
	struct passwd *pw;

	sp.exe = open("/proc/self/exe", O_PATH | O_CLOEXEC);
	if (sp.exe < 0)
		return -errno;
	if (geteuid() != 0) {
		pw = getpwuid(geteuid());
		snprintf(sp.user, sizeof(sp.user), "%s", pw ? pw->pw_name : "?");
		return 0;
	}
	if (user && *user && numeric_user(user))
		return 0;
	pw = getpwnam(user && *user ? user : "gleam");
	if (!pw && user && *user) {
		gl_err("no user %s for the workers", user);
		return -ENOENT;
	}
	if (!pw)
		pw = getpwnam(WORKER_USER_FALLBACK);
	/* A system without a user database (a small initramfs): nobody's number. */
	if (!pw)
		return numeric_user(WORKER_UID_FALLBACK) ? 0 : -ENOENT;
	if (!pw->pw_uid) {
		gl_err("the workers' user may not be root (worker-user)");
		return -EINVAL;
	}
	sp.drop = true;
	sp.uid = pw->pw_uid;
	sp.gid = pw->pw_gid;
	snprintf(sp.user, sizeof(sp.user), "%s", pw->pw_name);
	/* Its groups as the system lists them (the GPU's device group, say). */
	sp.ngroups = (int)ARRAY_SIZE(sp.groups);
	if (getgrouplist(pw->pw_name, pw->pw_gid, sp.groups, &sp.ngroups) < 0)
		sp.ngroups = 0;
	return 0;
}

const char *wk_spawn_user(void)
{
	return sp.user;
}

bool wk_spawn_drops(void)
{
	return sp.drop;
}

void wk_exec_free(struct wk_exec *x)
{
	free(x->envp);
	free(x->visible);
	x->envp = NULL;
	x->visible = NULL;
}

int wk_exec_prepare(struct wk_exec *x, const char *visible)
{
	size_t n = 0, k = 0;

	memset(x, 0, sizeof(*x));
	while (environ[n])
		n++;
	x->envp = calloc(n + 2, sizeof(*x->envp));
	if (!x->envp)
		return -ENOMEM;
	if (visible && asprintf(&x->visible, "CUDA_VISIBLE_DEVICES=%s", visible) < 0) {
		x->visible = NULL;
		wk_exec_free(x);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (!visible || strncmp(environ[i], "CUDA_VISIBLE_DEVICES=", 21))
			x->envp[k++] = environ[i];
	if (x->visible)
		x->envp[k++] = x->visible;
	x->envp[k] = NULL;
	return 0;
}

int wk_become_user(void)
{
	if (!sp.drop)
		return 0;
	if (setgroups((size_t)sp.ngroups, sp.groups) || setresgid(sp.gid, sp.gid, sp.gid) ||
	    setresuid(sp.uid, sp.uid, sp.uid))
		return -errno;
	return 0;
}

/* A line for the log and the end: async-signal-safe. */
static void __attribute__((noreturn)) die(const char *msg, int status)
{
	static const char pre[] = "gleamd(worker): cannot start: ";

	if (write(2, pre, sizeof(pre) - 1) < 0 || write(2, msg, strlen(msg)) < 0 ||
	    write(2, "\n", 1) < 0)
		status = 127;
	_exit(status);
}

/* fd onto to, close-on-exec cleared; the sources are above WK_FD_USAGE already. */
static void put_fd(int fd, int to)
{
	if (dup2(fd, to) != to)
		die("dup2", 111);
}

static void limit(int res, rlim_t max)
{
	struct rlimit r;

	if (getrlimit(res, &r))
		return;
	if (r.rlim_max == RLIM_INFINITY || r.rlim_max > max)
		r.rlim_max = max;
	if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > r.rlim_max)
		r.rlim_cur = r.rlim_max;
	setrlimit(res, &r);
}

void wk_exec_child(const struct wk_exec *x, int ring, int bell, int usage)
{
	static char *argv[] = { "gleamd", "worker", NULL };
	sigset_t none;
	int hi[3], exe;

	/* Out of the way of 3..5 first: a source may sit on one of them. */
	exe = fcntl(sp.exe, F_DUPFD_CLOEXEC, 64);
	hi[0] = fcntl(ring, F_DUPFD, 64);
	hi[1] = fcntl(bell, F_DUPFD, 64);
	hi[2] = usage >= 0 ? fcntl(usage, F_DUPFD, 64) : open("/dev/null", O_RDONLY);
	if (exe < 0 || hi[0] < 0 || hi[1] < 0 || hi[2] < 0)
		die("descriptors", 111);
	put_fd(hi[0], WK_FD_RING);
	put_fd(hi[1], WK_FD_BELL);
	put_fd(hi[2], WK_FD_USAGE);
	/* Everything else goes; the executable goes with the exec. */
	close_range(WK_FD_USAGE + 1, (unsigned int)exe - 1, 0);
	close_range((unsigned int)exe + 1, ~0U, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	/* No core holds a session's data; a bounded number of descriptors. */
	limit(RLIMIT_CORE, 0);
	limit(RLIMIT_NOFILE, WORKER_NOFILE);
	if (wk_become_user())
		die("cannot become the workers' user", 113);
	/* Nothing it executes gains privileges (set-user-id files). */
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	fexecve(exe, argv, x->envp);
	die(errno == EACCES ? "the workers' user may not execute gleamd" : "exec", 114);
}

int wk_send_setup(int bell, const struct wk_setup *st)
{
	ssize_t n;

	do
		n = send(bell, st, sizeof(*st), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*st) ? 0 : n < 0 ? -errno : -EIO;
}
