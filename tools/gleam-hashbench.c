// SPDX-License-Identifier: MIT
/*
 * gleam-hashbench: how fast the hashing pool names an upload, by thread
 * count.  Chunk store and wire must keep up with the link (10 Gbit/s is
 * 1.25 GB/s), so this is the number to compare with it.
 *
 *   gleam-hashbench [--size 1G] [--chunk 1M] [--threads 1,2,4,8,16] [--reps 3] [--json]
 *
 * Each count hashes the whole buffer --reps times in one job; the best
 * time is reported (the others include page faults, migrations and
 * whatever else the machine was doing).  GB are 10^9 bytes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "chunk.h"
#include "hashpool.h"
#include "util.h"

#define MAX_COUNTS	16

static void usage(FILE *f)
{
	fprintf(f, "usage: gleam-hashbench [--size BYTES] [--chunk BYTES] [--threads N,N,...] "
		   "[--reps N] [--json]\n");
}

static int parse_counts(const char *s, unsigned int *v, int *n)
{
	char *end;

	for (*n = 0; *s; s = *end ? end + 1 : end) {
		long x = strtol(s, &end, 10);

		if (end == s || x < 1 || x > HASHPOOL_THREADS_MAX || *n == MAX_COUNTS ||
		    (*end && *end != ','))
			return -EINVAL;
		v[(*n)++] = (unsigned int)x;
	}
	return *n ? 0 : -EINVAL;
}

/* One pass with a pool of n threads; seconds, or a negative errno. */
static double run_once(struct hashpool *p, const void *buf, uint64_t size, uint32_t chunk,
		       struct chunk_name *names)
{
	struct hashpool_job job;
	uint64_t t0 = gl_now_ns();
	int r = hashpool_submit(p, &job, buf, size, chunk, names);

	if (r)
		return r;
	hashpool_wait(p, &job, job.count);
	if (hashpool_job_error(&job))
		return -EIO;
	return (double)(gl_now_ns() - t0) / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "reps", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned int counts[MAX_COUNTS] = { 1, 2, 4, 8, 16 };
	double best[MAX_COUNTS];
	uint64_t size = 1ull << 30, chunk = CHUNK_SIZE_DEFAULT, x;
	int ncounts = 5, reps = 3, json = 0, c, i;
	struct chunk_name *names, *ref, check;
	uint64_t n;
	unsigned char *buf;

	while ((c = getopt_long(argc, argv, "s:c:t:r:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (gl_parse_size(optarg, &size) || !size)
				goto bad;
			break;
		case 'c':
			if (gl_parse_size(optarg, &chunk) || !chunk || chunk > CHUNK_SIZE_MAX)
				goto bad;
			break;
		case 't':
			if (parse_counts(optarg, counts, &ncounts))
				goto bad;
			break;
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > 100)
				goto bad;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc)
		goto bad;

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	n = chunk_count(size, (uint32_t)chunk);
	names = calloc(n, sizeof(*names));
	ref = calloc(n, sizeof(*ref));
	if (buf == MAP_FAILED || !names || !ref) {
		fprintf(stderr, "gleam-hashbench: no memory for %llu bytes\n",
			(unsigned long long)size);
		return 1;
	}
	/* Not zeros: a page of zeros might be shared and cached, weights are not. */
	x = 0x9e3779b97f4a7c15ull;
	for (uint64_t o = 0; o + 8 <= size; o += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + o, &x, 8);
	}

	for (i = 0; i < ncounts; i++) {
		struct hashpool *p;
		int r = hashpool_create(counts[i], &p);

		if (r) {
			fprintf(stderr, "gleam-hashbench: %u threads: %s\n", counts[i],
				strerror(-r));
			return 1;
		}
		best[i] = 0;
		for (int k = 0; k < reps; k++) {
			double t = run_once(p, buf, size, (uint32_t)chunk, names);

			if (t < 0) {
				fprintf(stderr, "gleam-hashbench: %s\n", strerror((int)-t));
				return 1;
			}
			if (!best[i] || t < best[i])
				best[i] = t;
		}
		hashpool_destroy(p);
		/* Every pool names every chunk as the first did, and the last as one call does. */
		if (!i)
			memcpy(ref, names, n * sizeof(*ref));
		chunk_hash(buf + (n - 1) * chunk, (size_t)(size - (n - 1) * chunk), &check);
		if (memcmp(ref, names, n * sizeof(*ref)) || !chunk_name_eq(&check, &names[n - 1])) {
			fprintf(stderr, "gleam-hashbench: %u threads: wrong names\n", counts[i]);
			return 1;
		}
	}

	if (json) {
		printf("{\"size\": %llu, \"chunk\": %llu, \"reps\": %d, \"cores\": %ld, "
		       "\"results\": [", (unsigned long long)size, (unsigned long long)chunk, reps,
		       sysconf(_SC_NPROCESSORS_ONLN));
		for (i = 0; i < ncounts; i++)
			printf("%s{\"threads\": %u, \"seconds\": %.6f, \"gbps\": %.3f}",
			       i ? ", " : "", counts[i], best[i], (double)size / best[i] / 1e9);
		printf("]}\n");
	} else {
		printf("%llu bytes in %llu-byte chunks, best of %d, %ld online cores\n",
		       (unsigned long long)size, (unsigned long long)chunk, reps,
		       sysconf(_SC_NPROCESSORS_ONLN));
		printf("threads      GB/s\n");
		for (i = 0; i < ncounts; i++)
			printf("%7u  %8.3f\n", counts[i], (double)size / best[i] / 1e9);
	}
	munmap(buf, size);
	free(names);
	free(ref);
	return 0;

bad:
	usage(stderr);
	return 2;
}
