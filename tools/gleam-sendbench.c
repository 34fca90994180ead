// SPDX-License-Identifier: MIT
/*
 * gleam-sendbench: three ways of putting a ring's bytes on one TCP
 * connection over loopback, side by side (Documentation/design.md, "Stores
 * past the cache"):
 *
 *   gleam-sendbench [--bytes 8G] [--ring 4M] [--piece 1M] [--json]
 *
 * send:     send() from the ring, the kernel copying each piece (what the
 *           bridge does);
 * splice:   the ring's memfd spliced through a pipe into the socket: the
 *           socket takes the ring's pages by reference, no copy on send;
 * zerocopy: send() with MSG_ZEROCOPY, the pages pinned until the kernel's
 *           completion, at most a ring's worth in flight.
 *
 * The sender touches each piece before it goes, as a producer filling the
 * ring would; a thread receives into a buffer of the ring's size.  Each
 * way reports GB/s (10^9 bytes) and the processor time the whole machine
 * spent per GB meanwhile (/proc/stat: user, nice, system, irq, softirq),
 * and for zerocopy how many completions the kernel reported as copied
 * after all (delivery to a local socket copies).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "size_arg.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

static size_t ring_sz = 4u << 20, piece_sz = 1u << 20;
static uint64_t total = 8ull << 30;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Processor ticks the machine spent working, all cores. */
static long busy_ticks(void)
{
	long v[7] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	if (fscanf(f, "cpu %ld %ld %ld %ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &v[6]) != 7)
		v[0] = v[1] = v[2] = v[5] = v[6] = 0;
	fclose(f);
	return v[0] + v[1] + v[2] + v[5] + v[6];
}

static void die(const char *what)
{
	fprintf(stderr, "gleam-sendbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *receiver(void *arg)
{
	int lfd = *(int *)arg, c = accept(lfd, NULL, NULL);
	char *buf = malloc(ring_sz);
	ssize_t r;

	if (c < 0 || !buf)
		die("accept");
	while ((r = recv(c, buf, ring_sz, 0)) > 0)
		;
	close(c);
	free(buf);
	return NULL;
}

struct result {
	const char *way;
	double gbps, cpu_per_gb;
	uint64_t zc_done, zc_copied;
};

/* Completions of zerocopy sends; waits for one when wait is set. */
static void reap(int s, bool wait, struct result *res)
{
	for (;;) {
		char ctl[256];
		struct msghdr mh = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };
		struct sock_extended_err *ee;
		struct cmsghdr *cm;

		if (recvmsg(s, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			struct pollfd pf = { .fd = s, .events = 0 };

			if (errno != EAGAIN || !wait)
				return;
			poll(&pf, 1, 10);
			continue;
		}
		cm = CMSG_FIRSTHDR(&mh);
		if (!cm)
			return;
		ee = (struct sock_extended_err *)CMSG_DATA(cm);
		if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY)
			continue;
		res->zc_done += (uint64_t)(ee->ee_data - ee->ee_info) + 1;
		if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
			res->zc_copied += (uint64_t)(ee->ee_data - ee->ee_info) + 1;
		wait = false;
	}
}

static struct result run(int way, int mfd, unsigned char *ring)
{
	static const char *names[] = { "send", "splice", "zerocopy" };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct result res = { .way = names[way] };
	socklen_t al = sizeof(a);
	uint64_t sent = 0, zc = 0;
	int lfd, s, p[2] = { -1, -1 }, one = 1;
	size_t pos = 0;
	pthread_t t;
	double t0, dt;
	long b0;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&a, &al))
		die("listen");
	pthread_create(&t, NULL, receiver, &lfd);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	if (way == 1) {
		if (pipe(p))
			die("pipe");
		if (fcntl(p[1], F_SETPIPE_SZ, (int)piece_sz) < 0)
			die("F_SETPIPE_SZ");
	}
	if (way == 2 && setsockopt(s, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		die("SO_ZEROCOPY");
	b0 = busy_ticks();
	t0 = now();
	while (sent < total) {
		ssize_t r;

		ring[pos]++;
		if (way == 0) {
			r = send(s, ring + pos, piece_sz, 0);
		} else if (way == 1) {
			loff_t off = (loff_t)pos;
			ssize_t w = 0, x;

			r = splice(mfd, &off, p[1], NULL, piece_sz, 0);
			while (r > 0 && w < r && (x = splice(p[0], NULL, s, NULL, (size_t)(r - w), 0)) > 0)
				w += x;
			if (r > 0 && w < r)
				die("splice to the socket");
		} else {
			/* The ring's room comes back only when the kernel lets go of it. */
			while (zc - res.zc_done >= ring_sz / piece_sz)
				reap(s, true, &res);
			r = send(s, ring + pos, piece_sz, MSG_ZEROCOPY);
			if (r > 0)
				zc++;
			reap(s, false, &res);
		}
		if (r <= 0)
			die(names[way]);
		sent += (uint64_t)r;
		pos = (pos + (size_t)r) % ring_sz;
	}
	while (way == 2 && res.zc_done < zc)
		reap(s, true, &res);
	shutdown(s, SHUT_WR);
	pthread_join(t, NULL);
	dt = now() - t0;
	res.gbps = (double)total / dt / 1e9;
	res.cpu_per_gb = (double)(busy_ticks() - b0) / (double)sysconf(_SC_CLK_TCK) /
			 ((double)total / 1e9);
	close(s);
	close(lfd);
	if (p[0] >= 0) {
		close(p[0]);
		close(p[1]);
	}
	return res;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bytes", required_argument, NULL, 'b' },
		{ "ring", required_argument, NULL, 'r' },
		{ "piece", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct result res[3];
	bool json = false;
	unsigned char *ring;
	int c, mfd;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'b': total = size_arg(optarg); break;
		case 'r': ring_sz = size_arg(optarg); break;
		case 'p': piece_sz = size_arg(optarg); break;
		case 'j': json = true; break;
		default:
			fprintf(stderr, "usage: gleam-sendbench [--bytes 8G] [--ring 4M] [--piece 1M] [--json]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (!piece_sz || !ring_sz || piece_sz % 4096 || ring_sz % piece_sz || !total) {
		fprintf(stderr, "gleam-sendbench: sizes must be positive, the piece whole pages dividing the ring\n");
		return 2;
	}
	mfd = memfd_create("gleam-sendbench", 0);
	if (mfd < 0 || ftruncate(mfd, (off_t)ring_sz))
		die("memfd");
	ring = mmap(NULL, ring_sz, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (ring == MAP_FAILED)
		die("mmap");
	memset(ring, 7, ring_sz);
	for (int way = 0; way < 3; way++) {
		res[way] = run(way, mfd, ring);
		if (!json)
			fprintf(stderr, "gleam-sendbench: %s done\n", res[way].way);
	}
	if (json) {
		printf("[");
		for (int i = 0; i < 3; i++)
			printf("%s{\"way\":\"%s\",\"gbytes_per_s\":%.3f,\"cpu_s_per_gb\":%.3f,"
			       "\"zerocopy_done\":%llu,\"zerocopy_copied\":%llu}", i ? "," : "",
			       res[i].way, res[i].gbps, res[i].cpu_per_gb,
			       (unsigned long long)res[i].zc_done, (unsigned long long)res[i].zc_copied);
		printf("]\n");
		return 0;
	}
	printf("%-9s %8s %14s\n", "way", "GB/s", "cpu s per GB");
	for (int i = 0; i < 3; i++)
		printf("%-9s %8.2f %14.3f\n", res[i].way, res[i].gbps, res[i].cpu_per_gb);
	if (res[2].zc_done)
		printf("zerocopy: %llu of %llu completions copied by the kernel after all\n",
		       (unsigned long long)res[2].zc_copied, (unsigned long long)res[2].zc_done);
	return 0;
}
