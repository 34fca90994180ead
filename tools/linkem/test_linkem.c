// SPDX-License-Identifier: MIT
/*
 * test_linkem: runs linkem between this program's client and its server on
 * loopback and checks what it measures against linkem's settings: round
 * trip times, throughput each way and shared between connections, each way
 * a link dies (closed, reset, refusing, a black hole) and reconnection, the
 * address connections come from, and run-time changes.  Medians and whole transfers of a
 * second or so keep it steady on a busy machine.
 *
 * usage: test_linkem PATH-TO-LINKEM [TEST...]   (all tests by default)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define TOL		0.10	/* every check: within 10% */
#define LATE_TOL	0.25	/* a median round trip on a busy host */
#define MS		1000000ULL
#define CHUNK		(256 * 1024)

extern char **environ;

static const char *linkem_path;
static int server_port;
static int passed, failed;

struct sink_result {
	uint64_t bytes;
	uint64_t first_len;
	uint64_t first_ns;
	uint64_t last_ns;
};

/* How the server's side of the held connection ('H') ended. */
static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t hold_end_ns;
static int hold_err;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The checks of one attempt of a test are held back until it ends: a test
 * that failed is run again, up to ATTEMPTS times, so that a burst of load
 * from elsewhere on the machine is not taken for a fault.  A fault fails
 * every attempt.
 */
#define ATTEMPTS	3
#define MAX_CHECKS	16

static struct {
	bool ok;
	char text[512];
} results[MAX_CHECKS];
static int nresults;

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (nresults == MAX_CHECKS)
		return;
	results[nresults].ok = ok;
	va_start(ap, fmt);
	vsnprintf(results[nresults].text, sizeof(results[0].text), fmt, ap);
	va_end(ap);
	nresults++;
}

static void run_test(const char *name, void (*fn)(void))
{
	int attempt, i, bad;

	for (attempt = 1; attempt <= ATTEMPTS; attempt++) {
		nresults = 0;
		fn();
		for (i = bad = 0; i < nresults; i++)
			bad += !results[i].ok;
		if (!bad || attempt == ATTEMPTS)
			break;
		for (i = 0; i < nresults; i++)
			if (!results[i].ok)
				printf("info %s, attempt %d of %d: %s\n", name,
				       attempt, ATTEMPTS, results[i].text);
	}
	for (i = 0; i < nresults; i++) {
		printf("%s %s\n", results[i].ok ? "ok  " : "FAIL",
		       results[i].text);
		if (results[i].ok)
			passed++;
		else
			failed++;
	}
	fflush(stdout);
}

static bool near(double got, double want)
{
	return got >= want * (1 - TOL) && got <= want * (1 + TOL);
}

/*
 * A delay of @want ms each round trip: the fastest round trip shows the
 * emulator's own precision (never early, at most 10% late); the median, less
 * the round trip without delay, also carries the wake-ups of four threads,
 * which a busy virtual machine makes late by a further fraction.
 */
static bool delay_near(double med, double base, double min, double want)
{
	return min >= want && min <= want * (1 + TOL) &&
	       med - base >= want * (1 - TOL) &&
	       med - base <= want * (1 + LATE_TOL);
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ECONNRESET;
		p += n;
		len -= n;
	}
	return 0;
}

static void set_timeouts(int fd, int seconds)
{
	struct timeval tv = { .tv_sec = seconds };
	int one = 1;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* Returns a connected socket or -errno. */
static int dial(int port)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd, ret;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	set_timeouts(fd, 10);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

static uint8_t pattern(uint64_t i)
{
	return (uint8_t)((i ^ (i >> 9) ^ (i >> 17)) * 131 + 7);
}

/* The server: one thread per connection, the first byte says what to do. */
static void serve_sink(int fd)
{
	struct sink_result res = {0};
	static __thread char buf[CHUNK];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		res.last_ns = now_ns();
		if (!res.bytes) {
			res.first_ns = res.last_ns;
			res.first_len = n;
		}
		res.bytes += n;
	}
	write_all(fd, &res, sizeof(res));
}

static void serve_generate(int fd)
{
	static char zeros[CHUNK];
	uint64_t count, n;

	if (read_all(fd, &count, sizeof(count)))
		return;
	for (; count; count -= n) {
		n = count < sizeof(zeros) ? count : sizeof(zeros);
		if (write_all(fd, zeros, n))
			return;
	}
}

static void *serve_conn(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char buf[65536], cmd;
	ssize_t n;

	set_timeouts(fd, 30);
	if (read_all(fd, &cmd, 1))
		goto out;
	switch (cmd) {
	case 'E':
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write_all(fd, buf, n))
				break;
		break;
	case 'S':
		serve_sink(fd);
		break;
	case 'G':
		serve_generate(fd);
		break;
	case 'A': {
		/* The address the connection came from, as linkem connected. */
		struct sockaddr_in sa;
		socklen_t sl = sizeof(sa);

		if (!getpeername(fd, (struct sockaddr *)&sa, &sl))
			write_all(fd, &sa.sin_addr, sizeof(sa.sin_addr));
		break;
	}
	case 'H':
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		pthread_mutex_lock(&hold_lock);
		hold_end_ns = now_ns();
		hold_err = n < 0 ? errno : 0;
		pthread_mutex_unlock(&hold_lock);
		break;
	}
out:
	close(fd);
	return NULL;
}

static void *server_main(void *arg)
{
	int lfd = (int)(intptr_t)arg, fd;
	pthread_t t;

	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (pthread_create(&t, NULL, serve_conn, (void *)(intptr_t)fd)) {
			close(fd);
			continue;
		}
		pthread_detach(t);
	}
	return NULL;
}

static int server_start(void)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t len = sizeof(sa);
	pthread_t t;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 1024) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len))
		return -errno;
	server_port = ntohs(sa.sin_port);
	if (pthread_create(&t, NULL, server_main, (void *)(intptr_t)fd))
		return -EAGAIN;
	pthread_detach(t);
	return 0;
}

/* One linkem process, relaying from a free port to the server. */
struct linkem {
	pid_t pid;
	int port;
	FILE *err;
	int out_fd;
	uint64_t t_ready;
	char out[4096];
};

static int spawn(char **argv, int *out_fd, int *err_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int out[2], err[2], ret;

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	ret = posix_spawn(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	close(err[1]);
	if (ret) {
		close(out[0]);
		close(err[0]);
		return -ret;
	}
	*out_fd = out[0];
	if (err_fd)
		*err_fd = err[0];
	else
		close(err[0]);
	return 0;
}

/* args: linkem's options after --listen and --connect, space-separated. */
static int linkem_start(struct linkem *l, const char *args)
{
	char *argv[32], copy[512], target[32], line[512], *save, *tok, *p;
	int argc = 0, err_fd, ret;

	memset(l, 0, sizeof(*l));
	l->out_fd = -1;
	snprintf(target, sizeof(target), "127.0.0.1:%d", server_port);
	argv[argc++] = (char *)linkem_path;
	argv[argc++] = "--listen";
	argv[argc++] = "127.0.0.1:0";
	argv[argc++] = "--connect";
	argv[argc++] = target;
	snprintf(copy, sizeof(copy), "%s", args);
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	ret = spawn(argv, &l->out_fd, &err_fd, &l->pid);
	if (ret)
		return ret;
	l->err = fdopen(err_fd, "r");
	while (l->err && fgets(line, sizeof(line), l->err)) {
		if (getenv("LINKEM_TEST_VERBOSE"))
			fprintf(stdout, "# %s", line);
		if (strncmp(line, "linkem: listening on ", 21))
			continue;
		p = strrchr(line, ':');
		l->port = p ? atoi(p + 1) : 0;
		l->t_ready = now_ns();
		return l->port ? 0 : -EINVAL;
	}
	return -EIO;
}

static int linkem_stop(struct linkem *l)
{
	char line[512];
	size_t got = 0;
	ssize_t n;
	int status = 0;

	if (l->pid > 0) {
		kill(l->pid, SIGTERM);
		waitpid(l->pid, &status, 0);
	}
	while (l->out_fd >= 0 && got < sizeof(l->out) - 1 &&
	       (n = read(l->out_fd, l->out + got, sizeof(l->out) - 1 - got)) > 0)
		got += n;
	l->out[got] = 0;
	if (l->out_fd >= 0)
		close(l->out_fd);
	l->out_fd = -1;
	l->pid = 0;
	if (l->err) {
		while (fgets(line, sizeof(line), l->err))
			if (getenv("LINKEM_TEST_VERBOSE"))
				fprintf(stdout, "# %s", line);
		fclose(l->err);
		l->err = NULL;
	}
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

/* "linkem --ctl PATH CMD ARG": 0 when linkem answered "ok". */
static int linkem_ctl(const char *path, const char *cmd, const char *arg)
{
	char *argv[] = { (char *)linkem_path, "--ctl", (char *)path,
			 (char *)cmd, (char *)arg, NULL };
	char reply[256] = "";
	int fd, status, ret;
	ssize_t n;
	pid_t pid;

	ret = spawn(argv, &fd, NULL, &pid);
	if (ret)
		return ret;
	n = read(fd, reply, sizeof(reply) - 1);
	close(fd);
	waitpid(pid, &status, 0);
	if (n <= 0 || strncmp(reply, "ok", 2))
		return -EINVAL;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Median round trip of 64-byte messages on an echo connection, in ms, with
 * a pause after each (so that every thread on the path goes idle between
 * round trips, as it does when the link delays them).
 */
static int measure_rtt(int fd, int n, uint64_t pause_ns, double *med,
		       double *min, double *max)
{
	char msg[64], back[64];
	double rtt[512];
	uint64_t t;
	int i, ret;

	if (n > 512)
		n = 512;
	for (i = -3; i < n; i++) {
		memset(msg, 'a' + (i & 15), sizeof(msg));
		t = now_ns();
		ret = write_all(fd, msg, sizeof(msg));
		if (!ret)
			ret = read_all(fd, back, sizeof(back));
		if (ret)
			return ret;
		if (memcmp(msg, back, sizeof(msg)))
			return -EILSEQ;
		if (i >= 0)
			rtt[i] = (now_ns() - t) / 1e6;
		if (pause_ns)
			sleep_ns(pause_ns);
	}
	*min = *max = rtt[0];
	for (i = 0; i < n; i++) {
		if (rtt[i] < *min)
			*min = rtt[i];
		if (rtt[i] > *max)
			*max = rtt[i];
	}
	*med = median(rtt, n);
	return 0;
}

static int echo_open(int port)
{
	int fd = dial(port), ret;

	if (fd < 0)
		return fd;
	ret = write_all(fd, "E", 1);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

static int rtt_through(const char *args, int n, uint64_t pause_ns,
		       double *med, double *min, double *max)
{
	struct linkem l;
	int fd, ret;

	ret = linkem_start(&l, args);
	if (ret)
		goto out;
	fd = echo_open(l.port);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	ret = measure_rtt(fd, n, pause_ns, med, min, max);
	close(fd);
out:
	linkem_stop(&l);
	return ret;
}

static void test_rtt(void)
{
	double base = 0, med = 0, min = 0, max = 0, d;
	int ret;

	ret = rtt_through("", 200, MS, &base, &min, &max);
	if (ret) {
		check(false, "rtt without delay: %s", strerror(-ret));
		return;
	}

	ret = rtt_through("--delay 2ms", 100, 0, &med, &min, &max);
	d = med - base;
	check(!ret && delay_near(med, base, min, 4.0),
	      "delay 2ms: median rtt %.3f ms, %.3f ms above no delay (%.3f ms; "
	      "min %.3f, max %.3f), want 4.000 ms", med, d, base, min, max);

	ret = rtt_through("--delay 0.5ms", 300, 0, &med, &min, &max);
	d = med - base;
	check(!ret && delay_near(med, base, min, 1.0),
	      "delay 0.5ms: median rtt %.3f ms, %.3f ms above no delay "
	      "(%.3f ms; min %.3f), want 1.000 ms", med, d, base, min);
}

struct bulk_arg {
	int fd;
	uint64_t len;
	int ret;
};

static void *bulk_writer(void *p)
{
	struct bulk_arg *a = p;
	static char buf[CHUNK];
	uint64_t off, n, i;

	for (off = 0; off < a->len && !a->ret; off += n) {
		n = a->len - off < CHUNK ? a->len - off : CHUNK;
		for (i = 0; i < n; i++)
			buf[i] = pattern(off + i);
		a->ret = write_all(a->fd, buf, n);
	}
	shutdown(a->fd, SHUT_WR);
	return NULL;
}

/* Jitter moves bytes in time but must never reorder them. */
static void test_jitter(void)
{
	static char buf[CHUNK];
	struct bulk_arg a = { .len = 8 << 20 };
	double base = 0, med = 0, min = 0, max = 0;
	uint64_t got = 0, bad = ~0ULL, i;
	struct linkem l;
	pthread_t t;
	ssize_t n;
	int ret;

	/*
	 * The jitter's median is half its amplitude, each way: the median
	 * round trip is that of a 1 ms delay, give or take two fifths of the
	 * 1 ms that jitter adds (a busy host's wake-ups moved it by 0.4 ms
	 * where the plain delay moved less; jitter of twice the amplitude, or
	 * on one way only, moves it by 1 ms or 0.5 ms).  The plain delay is
	 * measured before and after, and the nearer of the two counts, so that
	 * a machine whose load changes during the test moves both alike.  A
	 * fixed seed leaves the timing, not the luck of the draw, to be
	 * checked.
	 */
	ret = rtt_through("--delay 1ms", 200, 0, &base, &min, &max);
	if (!ret)
		ret = rtt_through("--delay 0.5ms --jitter 1ms --seed 1", 400, 0,
				  &med, &min, &max);
	if (!ret) {
		double b2 = 0, lo = 0, hi = 0;

		ret = rtt_through("--delay 1ms", 200, 0, &b2, &lo, &hi);
		if (!ret && fabs(med - b2) < fabs(med - base))
			base = b2;
	}
	check(!ret && min >= 1.0 && fabs(med - base) <= 0.4,
	      "delay 0.5ms jitter 1ms: rtt min %.3f, median %.3f, max %.3f ms; "
	      "want min >= 1.000, median that of delay 1ms (%.3f) +-0.4 ms",
	      min, med, max, base);

	ret = linkem_start(&l, "--delay 1ms --jitter 1ms --rate 1gbit");
	if (!ret) {
		a.fd = echo_open(l.port);
		ret = a.fd < 0 ? a.fd : 0;
	}
	if (!ret && !pthread_create(&t, NULL, bulk_writer, &a)) {
		while ((n = read(a.fd, buf, sizeof(buf))) > 0) {
			for (i = 0; i < (uint64_t)n && bad == ~0ULL; i++)
				if ((uint8_t)buf[i] != pattern(got + i))
					bad = got + i;
			got += n;
		}
		pthread_join(t, NULL);
		close(a.fd);
	}
	linkem_stop(&l);
	check(!ret && !a.ret && got == a.len && bad == ~0ULL,
	      "jitter keeps byte order: %llu of %llu bytes echoed, first "
	      "misplaced byte %lld", (unsigned long long)got,
	      (unsigned long long)a.len, bad == ~0ULL ? -1LL : (long long)bad);
}

/* Sends len bytes to a sink through port; the sink times their arrival. */
static int sink_send(int port, uint64_t len, uint64_t for_ns,
		     struct sink_result *res)
{
	static __thread char buf[CHUNK];
	uint64_t sent = 0, n, t0 = now_ns();
	int fd, ret;

	fd = dial(port);
	if (fd < 0)
		return fd;
	ret = write_all(fd, "S", 1);
	while (!ret && (for_ns ? now_ns() - t0 < for_ns : sent < len)) {
		n = len - sent < CHUNK ? len - sent : CHUNK;
		if (for_ns)
			n = CHUNK;
		ret = write_all(fd, buf, n);
		sent += n;
	}
	shutdown(fd, SHUT_WR);
	if (!ret)
		ret = read_all(fd, res, sizeof(*res));
	close(fd);
	if (!ret && res->bytes != sent)
		ret = -EPROTO;
	return ret;
}

static double sink_bps(const struct sink_result *r)
{
	if (r->last_ns <= r->first_ns)
		return 0;
	return (r->bytes - r->first_len) * 8e9 / (r->last_ns - r->first_ns);
}

static int generate_recv(int port, uint64_t len, double *bps)
{
	static char buf[CHUNK];
	uint64_t got = 0, first_len = 0, first = 0, last = 0;
	ssize_t n;
	int fd, ret;

	fd = dial(port);
	if (fd < 0)
		return fd;
	ret = write_all(fd, "G", 1);
	if (!ret)
		ret = write_all(fd, &len, sizeof(len));
	while (!ret && (n = read(fd, buf, sizeof(buf))) > 0) {
		last = now_ns();
		if (!got) {
			first = last;
			first_len = n;
		}
		got += n;
	}
	close(fd);
	if (!ret && got != len)
		ret = -EPROTO;
	*bps = last > first ? (got - first_len) * 8e9 / (last - first) : 0;
	return ret;
}

static void test_rates(void)
{
	struct sink_result res = {0};
	struct linkem l;
	double bps = 0;
	int ret;

	ret = linkem_start(&l, "--rate-up 100mbit --rate-down 300mbit --delay 1ms");
	if (!ret)
		ret = sink_send(l.port, 15 << 20, 0, &res);
	check(!ret && near(sink_bps(&res), 100e6),
	      "rate-up 100mbit: %.1f Mbit/s over %.2f s", sink_bps(&res) / 1e6,
	      (res.last_ns - res.first_ns) / 1e9);
	if (!ret)
		ret = generate_recv(l.port, 45 << 20, &bps);
	check(!ret && near(bps, 300e6), "rate-down 300mbit: %.1f Mbit/s",
	      bps / 1e6);
	linkem_stop(&l);

	ret = linkem_start(&l, "--rate 1gbit --delay 0.25ms --jitter 0.05ms");
	if (!ret)
		ret = sink_send(l.port, 125 << 20, 0, &res);
	check(!ret && near(sink_bps(&res), 1e9), "rate 1gbit: %.1f Mbit/s",
	      sink_bps(&res) / 1e6);
	linkem_stop(&l);
}

struct shared_arg {
	int port;
	struct sink_result res;
	int ret;
};

static void *shared_sender(void *p)
{
	struct shared_arg *a = p;

	a->ret = sink_send(a->port, 8 << 20, 0, &a->res);
	return NULL;
}

/* Three connections share one 200 Mbit/s link. */
static void test_shared(void)
{
	struct shared_arg a[3];
	uint64_t first = ~0ULL, last = 0, bytes = 0;
	pthread_t t[3];
	struct linkem l;
	double bps = 0, each[3] = {0};
	int i, ret;

	ret = linkem_start(&l, "--rate 200mbit --delay 0.5ms");
	for (i = 0; !ret && i < 3; i++) {
		a[i] = (struct shared_arg){ .port = l.port };
		pthread_create(&t[i], NULL, shared_sender, &a[i]);
	}
	for (i = 0; !ret && i < 3; i++) {
		pthread_join(t[i], NULL);
		ret = a[i].ret;
	}
	for (i = 0; !ret && i < 3; i++) {
		bytes += a[i].res.bytes;
		first = a[i].res.first_ns < first ? a[i].res.first_ns : first;
		last = a[i].res.last_ns > last ? a[i].res.last_ns : last;
		each[i] = sink_bps(&a[i].res) / 1e6;
	}
	if (!ret && last > first)
		bps = bytes * 8e9 / (last - first);
	linkem_stop(&l);
	check(!ret && near(bps, 200e6),
	      "3 connections share rate 200mbit: %.1f Mbit/s together "
	      "(%.0f, %.0f, %.0f each)", bps / 1e6, each[0], each[1], each[2]);
}

/* Many connections at once, each relayed on its own. */
static void test_many(void)
{
	enum { NCONN = 200, MSG = 4096 };
	static int fds[NCONN];
	char out[MSG], in[MSG];
	struct linkem l;
	int i, j, ok = 0, ret;
	uint64_t t0 = 0, t1 = 0;

	ret = linkem_start(&l, "--delay 1ms --rate 1gbit");
	for (i = 0; i < NCONN; i++)
		fds[i] = ret ? -1 : echo_open(l.port);
	t0 = now_ns();
	for (i = 0; i < NCONN; i++) {
		for (j = 0; j < MSG; j++)
			out[j] = pattern(i * 7919 + j);
		if (fds[i] >= 0 && write_all(fds[i], out, MSG))
			fds[i] = -1;
	}
	for (i = 0; i < NCONN; i++) {
		if (fds[i] < 0)
			continue;
		for (j = 0; j < MSG; j++)
			out[j] = pattern(i * 7919 + j);
		if (!read_all(fds[i], in, MSG) && !memcmp(in, out, MSG))
			ok++;
		close(fds[i]);
	}
	t1 = now_ns();
	linkem_stop(&l);
	check(ok == NCONN, "%d concurrent connections: %d echoed intact in "
	      "%.1f ms", NCONN, ok, (t1 - t0) / 1e6);
}

/*
 * Ping-pongs on an echo connection until it breaks; returns the time it
 * broke and the error.
 */
static uint64_t until_broken(int fd, int *err)
{
	char c = 'x';
	int ret;

	for (;;) {
		ret = write_all(fd, &c, 1);
		if (!ret)
			ret = read_all(fd, &c, 1);
		if (ret) {
			*err = -ret;
			return now_ns();
		}
		sleep_ns(2 * MS);
	}
}

/* Connects until an echo goes through; returns when it did. */
static uint64_t until_reconnected(int port, int *refused)
{
	uint64_t give_up = now_ns() + 10000 * MS;
	char c = 'y';
	int fd;

	*refused = 0;
	while (now_ns() < give_up) {
		fd = echo_open(port);
		if (fd >= 0) {
			if (!write_all(fd, &c, 1) && !read_all(fd, &c, 1)) {
				close(fd);
				return now_ns();
			}
			close(fd);
		} else if (fd == -ECONNREFUSED) {
			(*refused)++;
		}
		sleep_ns(5 * MS);
	}
	return 0;
}

static void test_cut_scheduled(void)
{
	uint64_t broke, back;
	double t_broke, t_back, t_hold;
	int fd = -1, hfd = -1, err = 0, refused = 0, herr;
	struct linkem l;
	int ret;

	pthread_mutex_lock(&hold_lock);
	hold_end_ns = 0;
	pthread_mutex_unlock(&hold_lock);
	ret = linkem_start(&l, "--delay 1ms --cut-at 1s --cut-for 1s");
	if (!ret) {
		hfd = dial(l.port);
		if (hfd >= 0)
			write_all(hfd, "H", 1);
		fd = echo_open(l.port);
	}
	if (ret || fd < 0) {
		check(false, "cut: cannot start");
		linkem_stop(&l);
		return;
	}
	broke = until_broken(fd, &err);
	close(fd);
	back = until_reconnected(l.port, &refused);
	t_broke = (broke - l.t_ready) / 1e9;
	t_back = back ? (back - l.t_ready) / 1e9 : 0;
	sleep_ns(20 * MS);
	pthread_mutex_lock(&hold_lock);
	t_hold = hold_end_ns ? (hold_end_ns - l.t_ready) / 1e9 : 0;
	herr = hold_err;
	pthread_mutex_unlock(&hold_lock);
	if (hfd >= 0)
		close(hfd);
	linkem_stop(&l);
	check(near(t_broke, 1.0) && (err == ECONNRESET || err == EPIPE),
	      "cut-at 1s: client connection reset at %.3f s (%s), want 1.000 s",
	      t_broke, strerror(err));
	check(near(t_hold, 1.0) && herr == ECONNRESET,
	      "cut-at 1s: server connection reset at %.3f s (%s)", t_hold,
	      strerror(herr));
	check(near(t_back, 2.0) && refused > 0,
	      "cut-for 1s: reconnected at %.3f s after %d refused attempts, "
	      "want 2.000 s", t_back, refused);
}

static void test_control(void)
{
	char path[64];
	struct sink_result res = {0};
	double med = 0, base = 0, min = 0, max, t_back = 0;
	uint64_t t0, broke = 0, back;
	int fd, ret, err = 0, refused = 0;
	struct linkem l;
	char args[128];

	snprintf(path, sizeof(path), "/tmp/linkem-test-%d.sock", getpid());
	snprintf(args, sizeof(args), "--rate 300mbit --control %s", path);
	ret = linkem_start(&l, args);
	if (ret) {
		check(false, "control: cannot start linkem: %s", strerror(-ret));
		return;
	}
	ret = sink_send(l.port, 15 << 20, 0, &res);
	check(!ret && near(sink_bps(&res), 300e6), "rate 300mbit: %.1f Mbit/s",
	      sink_bps(&res) / 1e6);

	ret = linkem_ctl(path, "rate", "100mbit");
	if (!ret)
		ret = sink_send(l.port, 10 << 20, 0, &res);
	check(!ret && near(sink_bps(&res), 100e6),
	      "control 'rate 100mbit': %.1f Mbit/s", sink_bps(&res) / 1e6);

	fd = echo_open(l.port);
	ret = fd < 0 ? fd : measure_rtt(fd, 100, 0, &base, &min, &max);
	if (!ret)
		ret = linkem_ctl(path, "delay", "2ms");
	if (!ret)
		ret = measure_rtt(fd, 100, 0, &med, &min, &max);
	check(!ret && delay_near(med, base, min, 4.0),
	      "control 'delay 2ms': median rtt %.3f ms, %.3f ms above no delay "
	      "(%.3f ms; min %.3f), want 4.000 ms", med, med - base, base, min);

	if (!ret) {
		t0 = now_ns();
		ret = linkem_ctl(path, "cut", "500ms");
		if (!ret)
			broke = until_broken(fd, &err);
		back = until_reconnected(l.port, &refused);
		t_back = back ? (back - t0) / 1e9 : 0;
	}
	if (fd >= 0)
		close(fd);
	check(!ret && broke && (broke - t0) < 100 * MS && err == ECONNRESET &&
	      near(t_back, 0.5),
	      "control 'cut 500ms': reset after %.3f s, reconnected at %.3f s, "
	      "want 0.500 s", broke ? (broke - t0) / 1e9 : -1.0, t_back);
	linkem_stop(&l);
}

static void test_signal_file(void)
{
	char path[64], args[128];
	double med0 = 0, med1 = 0, min, max;
	struct linkem l;
	FILE *f;
	int fd = -1, ret;

	snprintf(path, sizeof(path), "/tmp/linkem-test-%d.ctl", getpid());
	snprintf(args, sizeof(args), "--delay 1ms --control-file %s", path);
	ret = linkem_start(&l, args);
	if (!ret) {
		fd = echo_open(l.port);
		ret = fd < 0 ? fd : measure_rtt(fd, 100, 0, &med0, &min, &max);
	}
	f = fopen(path, "w");
	if (f) {
		fputs("# slow the link down\ndelay 3ms\n", f);
		fclose(f);
	}
	if (!ret && f) {
		kill(l.pid, SIGUSR1);
		sleep_ns(50 * MS);
		ret = measure_rtt(fd, 100, 0, &med1, &min, &max);
	}
	if (fd >= 0)
		close(fd);
	linkem_stop(&l);
	unlink(path);
	check(!ret && f && near(med1 - med0, 4.0),
	      "SIGUSR1 + control file 'delay 3ms' (was 1ms): median rtt %.3f -> "
	      "%.3f ms, %.3f ms longer, want 4.000 ms", med0, med1, med1 - med0);
}

static uint64_t json_u64(const char *json, const char *section,
			 const char *key)
{
	const char *p = json;
	char k[64];

	if (section) {
		snprintf(k, sizeof(k), "\"%s\":", section);
		p = strstr(p, k);
		if (!p)
			return ~0ULL;
	}
	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(p, k);
	return p ? strtoull(p + strlen(k), NULL, 10) : ~0ULL;
}

static void test_permanent_cut(void)
{
	struct sink_result res = {0};
	struct linkem l;
	int ret, fd1 = 0, fd2 = 0;

	ret = linkem_start(&l, "--cut-at 300ms --json");
	if (!ret)
		ret = sink_send(l.port, 1 << 20, 0, &res);
	if (!ret) {
		if (now_ns() < l.t_ready + 400 * MS)
			sleep_ns(l.t_ready + 400 * MS - now_ns());
		fd1 = dial(l.port);
		sleep_ns(300 * MS);
		fd2 = dial(l.port);
	}
	if (linkem_stop(&l) && !ret)
		ret = -ECHILD;
	check(!ret && fd1 == -ECONNREFUSED && fd2 == -ECONNREFUSED,
	      "cut-at 300ms for good: connections refused at 0.4 s and 0.7 s");
	check(!ret && json_u64(l.out, NULL, "cuts") == 1 &&
	      json_u64(l.out, "up", "bytes") == 1 + (1 << 20) &&
	      json_u64(l.out, "down", "bytes") == sizeof(res) &&
	      json_u64(l.out, "connections", "accepted") == 1,
	      "--json statistics on exit: %.*s", (int)strcspn(l.out, "\n"),
	      l.out);
}

/*
 * How a connection ended within ms: 0 for a FIN, the errno of a reset or
 * an error, -ETIMEDOUT when it did not, -EAGAIN when bytes came instead.
 */
static int ending(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;
	char c;

	if (poll(&p, 1, ms) <= 0)
		return -ETIMEDOUT;
	n = read(fd, &c, 1);
	if (n == 0)
		return 0;
	return n < 0 ? errno : -EAGAIN;
}

static const char *ending_name(int e)
{
	switch (e) {
	case 0:
		return "FIN";
	case -ETIMEDOUT:
		return "nothing";
	case -EAGAIN:
		return "bytes";
	default:
		return e > 0 ? strerror(e) : strerror(-e);
	}
}

/* The server's side of the held connection: how it ended, or -ETIMEDOUT. */
static int hold_ending(uint64_t *at)
{
	int e;

	pthread_mutex_lock(&hold_lock);
	*at = hold_end_ns;
	e = hold_end_ns ? hold_err : -ETIMEDOUT;
	hold_end_ns = 0;
	pthread_mutex_unlock(&hold_lock);
	return e;
}

/*
 * One way of dying through the control socket: what the open connection
 * and the server's side of another meet, what a connection made during the
 * outage meets, and when connections go through again.  want_old and
 * want_new are ending() values (-ECONNREFUSED: the connect is refused;
 * -ETIMEDOUT: held, the byte echoed once the link is back).
 */
static void way(const char *cmd, const char *arg2, int want_old, int want_new)
{
	char path[64], args[128], c = 'z', d = 'q';
	int fd = -1, hfd = -1, nfd = -1, ret, old = -1, srv = -1, new = -1;
	int refused = 0, late_old = -1, late_new = -1;
	uint64_t t0 = 0, at = 0, back = 0;
	struct linkem l;

	snprintf(path, sizeof(path), "/tmp/linkem-test-%d-way.sock", getpid());
	snprintf(args, sizeof(args), "--delay 1ms --control %s", path);
	hold_ending(&at);
	ret = linkem_start(&l, args);
	if (!ret) {
		hfd = dial(l.port);
		ret = hfd < 0 ? hfd : write_all(hfd, "H", 1);
	}
	if (!ret) {
		fd = echo_open(l.port);
		ret = fd < 0 ? fd : write_all(fd, &c, 1);
	}
	if (!ret)
		ret = read_all(fd, &c, 1);
	if (!ret) {
		t0 = now_ns();
		if (arg2) {
			char *argv[] = { (char *)linkem_path, "--ctl", path,
					 (char *)cmd, "500ms", (char *)arg2, NULL };
			int ofd, st;
			pid_t pid;

			ret = spawn(argv, &ofd, NULL, &pid);
			if (!ret) {
				char reply[64] = "";

				if (read(ofd, reply, sizeof(reply) - 1) <= 0 ||
				    strncmp(reply, "ok", 2))
					ret = -EINVAL;
				close(ofd);
				waitpid(pid, &st, 0);
			}
		} else {
			ret = linkem_ctl(path, cmd, "500ms");
		}
	}
	if (ret) {
		check(false, "%s: cannot start: %s", cmd, strerror(-ret));
		goto out;
	}
	/* A black hole answers nothing: the byte written is held. */
	if (want_old == -ETIMEDOUT)
		write_all(fd, &c, 1);
	old = ending(fd, 200);
	sleep_ns(50 * MS);
	srv = hold_ending(&at);
	/* Only a held connection is written to: a write could take a reset's error. */
	nfd = want_new == -ETIMEDOUT ? echo_open(l.port) : dial(l.port);
	if (nfd < 0) {
		new = nfd;
	} else {
		if (want_new == -ETIMEDOUT)
			write_all(nfd, &d, 1);
		new = ending(nfd, 150);
	}
	/* What was held arrives once the link is back. */
	if (want_old == -ETIMEDOUT)
		late_old = ending(fd, 2000);
	if (want_new == -ETIMEDOUT && nfd >= 0)
		late_new = ending(nfd, 2000);
	back = until_reconnected(l.port, &refused);
	check(old == want_old && (want_old != -ETIMEDOUT || late_old == -EAGAIN),
	      "%s%s%s: the open connection met %s (want %s)%s", cmd,
	      arg2 ? " " : "", arg2 ? arg2 : "", ending_name(old),
	      ending_name(want_old), want_old == -ETIMEDOUT ?
	      (late_old == -EAGAIN ? ", its byte echoed after the outage" :
	       ", and its byte was lost") : "");
	check(want_old == -ETIMEDOUT ? srv == -ETIMEDOUT :
	      srv == (want_old ? ECONNRESET : 0),
	      "%s: the server's side met %s", cmd, ending_name(srv));
	check(new == want_new && (want_new != -ETIMEDOUT || late_new == -EAGAIN),
	      "%s: a connection made during the outage met %s (want %s)", cmd,
	      ending_name(new), ending_name(want_new));
	check(back && near((back - t0) / 1e9, 0.5),
	      "%s 500ms: connections go through again after %.3f s", cmd,
	      back ? (back - t0) / 1e9 : -1.0);
out:
	if (fd >= 0)
		close(fd);
	if (hfd >= 0)
		close(hfd);
	if (nfd >= 0)
		close(nfd);
	linkem_stop(&l);
}

static void test_close(void)
{
	way("close", NULL, 0, 0);
}

static void test_reset(void)
{
	way("reset", NULL, ECONNRESET, ECONNRESET);
}

static void test_refuse(void)
{
	way("refuse", NULL, ECONNRESET, -ECONNREFUSED);
}

static void test_blackhole(void)
{
	way("blackhole", NULL, -ETIMEDOUT, -ETIMEDOUT);
}

/* What new connections meet, chosen apart from the way the link died. */
static void test_new_fate(void)
{
	way("close", "new=refuse", 0, -ECONNREFUSED);
	way("blackhole", "new=reset", -ETIMEDOUT, ECONNRESET);
}

/* A scheduled outage of another way than the default: --cut-mode. */
static void test_cut_mode(void)
{
	int fd = -1, nfd = -1, old = -1, new = -1, refused = 0, ret;
	uint64_t broke = 0, back = 0;
	struct linkem l;

	ret = linkem_start(&l, "--cut-at 300ms --cut-for 400ms --cut-mode close");
	if (!ret)
		fd = echo_open(l.port);
	if (ret || fd < 0) {
		check(false, "cut-mode close: cannot start");
		linkem_stop(&l);
		return;
	}
	old = ending(fd, 1000);
	broke = now_ns();
	nfd = dial(l.port);
	new = nfd < 0 ? nfd : ending(nfd, 150);
	back = until_reconnected(l.port, &refused);
	check(old == 0 && near((broke - l.t_ready) / 1e9, 0.3),
	      "--cut-at 300ms --cut-mode close: FIN at %.3f s (%s)",
	      (broke - l.t_ready) / 1e9, ending_name(old));
	check(new == 0 && back && near((back - l.t_ready) / 1e9, 0.7),
	      "--cut-for 400ms: new connections closed at once (%s), through "
	      "again at %.3f s, want 0.700 s", ending_name(new),
	      back ? (back - l.t_ready) / 1e9 : -1.0);
	close(fd);
	if (nfd >= 0)
		close(nfd);
	linkem_stop(&l);
}

/* The address the target sees: --source, then 'source any'. */
static void test_source(void)
{
	char path[64], args[160], a1[32] = "?", a2[32] = "?";
	struct in_addr in1 = {0}, in2 = {0};
	struct linkem l;
	int fd, ret;

	snprintf(path, sizeof(path), "/tmp/linkem-test-%d-src.sock", getpid());
	snprintf(args, sizeof(args), "--source 127.0.0.2:0 --control %s", path);
	ret = linkem_start(&l, args);
	fd = ret ? ret : dial(l.port);
	if (fd >= 0) {
		ret = write_all(fd, "A", 1);
		if (!ret)
			ret = read_all(fd, &in1, sizeof(in1));
		close(fd);
	}
	if (!ret)
		ret = linkem_ctl(path, "source", "any");
	fd = ret ? ret : dial(l.port);
	if (fd >= 0) {
		ret = write_all(fd, "A", 1);
		if (!ret)
			ret = read_all(fd, &in2, sizeof(in2));
		close(fd);
	}
	linkem_stop(&l);
	inet_ntop(AF_INET, &in1, a1, sizeof(a1));
	inet_ntop(AF_INET, &in2, a2, sizeof(a2));
	check(!ret && !strcmp(a1, "127.0.0.2") && !strcmp(a2, "127.0.0.1"),
	      "--source 127.0.0.2:0: the target saw %s; after 'source any', %s",
	      a1, a2);
}

/* At high rates the CPU, not linkem's model, may be the limit. */
static void test_high_rate(void)
{
	struct sink_result res = {0};
	struct linkem l;
	double open = 0, lim = 0;
	int ret;

	ret = linkem_start(&l, "");
	if (!ret)
		ret = sink_send(l.port, 0, 500 * MS, &res);
	open = sink_bps(&res) / 1e9;
	linkem_stop(&l);
	if (!ret)
		ret = linkem_start(&l, "--rate 10gbit");
	if (!ret)
		ret = sink_send(l.port, 0, 500 * MS, &res);
	lim = sink_bps(&res) / 1e9;
	linkem_stop(&l);
	if (open >= 10 * 1.3)
		check(!ret && near(lim, 10), "rate 10gbit: %.2f Gbit/s "
		      "(unlimited: %.2f)", lim, open);
	else
		check(!ret && lim <= 10 * (1 + TOL),
		      "rate 10gbit: %.2f Gbit/s (unlimited: %.2f; CPU-bound "
		      "here: checked only that it stays under the rate)",
		      lim, open);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "rtt", test_rtt },
	{ "jitter", test_jitter },
	{ "rates", test_rates },
	{ "shared", test_shared },
	{ "many", test_many },
	{ "cut", test_cut_scheduled },
	{ "control", test_control },
	{ "signal", test_signal_file },
	{ "permanent-cut", test_permanent_cut },
	{ "close", test_close },
	{ "reset", test_reset },
	{ "refuse", test_refuse },
	{ "blackhole", test_blackhole },
	{ "new-fate", test_new_fate },
	{ "cut-mode", test_cut_mode },
	{ "source", test_source },
	{ "high-rate", test_high_rate },
};

static bool selected(int argc, char **argv, const char *name)
{
	int i;

	if (argc <= 2)
		return true;
	for (i = 2; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	size_t i;
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-LINKEM [TEST...]\n", argv[0]);
		return 2;
	}
	linkem_path = argv[1];
	signal(SIGPIPE, SIG_IGN);
	alarm(120);
	ret = server_start();
	if (ret) {
		fprintf(stderr, "test_linkem: server: %s\n", strerror(-ret));
		return 1;
	}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (selected(argc, argv, tests[i].name))
			run_test(tests[i].name, tests[i].fn);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
