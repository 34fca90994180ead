// SPDX-License-Identifier: MIT
/*
 * The scheduler alone (broker/scheduler.c), linked with the rest of gleamd
 * but started without its loop: INFO from a hostile server, the model's
 * choices (RTT, rate, contention, memory that does not fit, weights a
 * server holds), pins, round-robin, and the state file across a restart.
 * Run by tests/sched/run.sh before the daemons; passes under valgrind.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scheduler.h"
#include "util.h"

/* main.c's, which is not linked: the client role never probes. */
int server_probe(const char *backend, const char *cuda_lib, struct gleam_server_info *info,
		 struct gleam_gpu_info *gpus, struct gleam_cluster_table *clusters, bool *have_clusters)
{
	return -ENODEV;
}

static struct config cfg;
static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/gleam-sched-unit.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	config_defaults(&cfg, ROLE_CLIENT);
	ck_assert_int_eq(config_set(&cfg, "server", "127.0.0.1:9001"), 0);
	ck_assert_int_eq(config_set(&cfg, "server", "127.0.0.1:9002"), 0);
	ck_assert_int_eq(config_set(&cfg, "state-dir", dir), 0);
	/* The system's socket: its state file is client.state (others' are named for theirs). */
	ck_assert_int_eq(config_set(&cfg, "socket", "/run/gleam/gleamd.sock"), 0);
	sched_init(&cfg);
}

static void teardown(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/client.state", dir);
	unlink(path);
	rmdir(dir);
}

/* An INFO with ngpus GPUs, each with this usage; its length. */
static size_t info(unsigned char *buf, unsigned int ngpus, uint32_t sessions, uint32_t util,
		   uint32_t wait_us, uint64_t mem_total, uint64_t mem_used)
{
	struct gleam_server_info i = { .ngpus = ngpus, .sessions = sessions };
	struct gleam_server_usage u = { .sessions = sessions };
	size_t n = 0;

	snprintf(i.backend, sizeof(i.backend), "sim");
	memcpy(buf, &i, sizeof(i));
	n += sizeof(i);
	for (unsigned int g = 0; g < ngpus; g++) {
		struct gleam_gpu_info gi = { .total_mem = mem_total };

		snprintf(gi.name, sizeof(gi.name), "GPU \"%u\"\n", g);
		memcpy(buf + n, &gi, sizeof(gi));
		n += sizeof(gi);
	}
	memcpy(buf + n, &u, sizeof(u));
	n += sizeof(u);
	for (unsigned int g = 0; g < ngpus; g++) {
		struct gleam_gpu_usage gu = { .mem_used = mem_used, .mem_total = mem_total,
					      .workers = sessions, .flags = GLEAM_USAGE_F_UTIL,
					      .util_pct = util, .wait_us = wait_us };

		memcpy(buf + n, &gu, sizeof(gu));
		n += sizeof(gu);
	}
	return n;
}

static unsigned char buf[1 << 16];

/* Server i up, with an RTT of rtt_ms and one idle GPU of 16 GiB. */
static struct server *up(unsigned int i, double rtt_ms)
{
	struct server *s = sched_server(i);
	uint64_t now = gl_now_ns();

	ck_assert_ptr_nonnull(s);
	sched_link_up(s, -1, now);
	for (int k = 0; k < 8; k++)
		link_sample_ping(&s->link, now - (uint64_t)(rtt_ms * 1e6), now);
	ck_assert(sched_on_info(s, buf, (uint32_t)info(buf, 1, 0, 0, 0, 16ULL << 30, 0), now));
	return s;
}

/* A program that ran once: what it moved, on server s. */
static void learn(struct server *s, const char *prog, uint64_t up_b, uint64_t down_b,
		  uint64_t waits, double wall_s, const struct chunk_name *names, const uint32_t *lens,
		  uint32_t nnames)
{
	struct sched_run r = { .program = prog, .id = 1000, .wall_ns = (uint64_t)(wall_s * 1e9),
			       .bytes_up = up_b, .bytes_crossed = up_b, .bytes_down = down_b,
			       .records = waits * 10 + 1, .waits = waits, .names = names,
			       .lens = lens, .nnames = nnames };

	sched_session_end(s, 0, &r);
}

/*
 * Session id of prog placed, as asked from a client's socket, into *c; it
 * must have gone to server want.  A macro, so that a failure names the
 * test's line.
 */
#define assert_placed(c, id, prog, want)				\
	do {								\
		sched_place((id), (prog), "socket", (c));		\
		ck_assert_ptr_eq((c)->srv, (want));			\
	} while (0)

START_TEST(test_info_hostile)
{
	struct server *s = sched_server(0);
	uint64_t now = gl_now_ns();
	size_t n = info(buf, 2, 1, 250, 7, 1 << 30, 0);
	struct gleam_server_info i;

	sched_link_up(s, -1, now);
	ck_assert(sched_on_info(s, buf, (uint32_t)n, now));
	ck_assert_uint_eq(s->info.ngpus, 2);
	/* A utilisation past 100 is 100. */
	ck_assert_uint_eq(s->gpus[1].usage.util_pct, 100);
	/* Without the usage part: taken, usage zero. */
	ck_assert(sched_on_info(s, buf, sizeof(i) + 2 * sizeof(struct gleam_gpu_info), now));
	ck_assert(!s->have_usage);
	/* Any other length, too short, or too many GPUs: refused. */
	ck_assert(!sched_on_info(s, buf, (uint32_t)n - 1, now));
	ck_assert(!sched_on_info(s, buf, (uint32_t)n + 8, now));
	ck_assert(!sched_on_info(s, buf, sizeof(i) - 1, now));
	memcpy(&i, buf, sizeof(i));
	i.ngpus = GLEAM_GPUS_MAX + 1;
	memcpy(buf, &i, sizeof(i));
	ck_assert(!sched_on_info(s, buf, sizeof(buf), now));
	i.ngpus = 0xffffffffu;
	memcpy(buf, &i, sizeof(i));
	ck_assert(!sched_on_info(s, buf, sizeof(buf), now));
}
END_TEST

START_TEST(test_stats_harmless)
{
	struct server *s = up(0, 1);
	char *t, *j;

	(void)s;
	t = sched_stats(false);
	j = sched_stats(true);
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(j);
	/* The server named its GPU with a quote and a newline: neither comes through. */
	ck_assert_ptr_nonnull(strstr(t, "GPU _0__"));
	ck_assert_ptr_nonnull(strstr(j, "\"name\":\"GPU _0__\""));
	free(t);
	free(j);
}
END_TEST

START_TEST(test_rtt)
{
	struct sched_choice c;

	up(0, 10);
	up(1, 1);
	assert_placed(&c, 1, "new", sched_server(1));
	ck_assert_uint_eq(c.ntop, 2);
	ck_assert(c.top[0].t < c.top[1].t);
	/* One GPU: the hello names none. */
	ck_assert(!c.gpu_named);
}
END_TEST

START_TEST(test_down_and_stalled)
{
	struct sched_choice c;
	struct server *fast = up(1, 1);

	up(0, 10);
	sched_link_down(fast, "test", gl_now_ns());
	assert_placed(&c, 1, "new", sched_server(0));
	/* Back, but a PING unanswered for two seconds: stalled, not chosen. */
	up(1, 1);
	fast->ping_sent = gl_now_ns() - 2000000000ull;
	ck_assert(!sched_usable(fast, gl_now_ns()));
	assert_placed(&c, 2, "new", sched_server(0));
}
END_TEST

START_TEST(test_contention)
{
	struct sched_choice c;
	struct server *a = up(0, 1), *b = up(1, 3);
	uint64_t now = gl_now_ns();

	/* Replay-heavy: 2 s of GPU, little to move. */
	learn(a, "heavy", 1 << 20, 1 << 20, 10, 2.0, NULL, NULL, 0);
	assert_placed(&c, 1, "heavy", a);
	sched_session_end(c.srv, c.gpu, &(struct sched_run){ .program = "", .id = 1 });
	/* Four busy sessions of another client on a's GPU. */
	ck_assert(sched_on_info(a, buf, (uint32_t)info(buf, 1, 4, 100, 2000, 16ULL << 30, 0), now));
	assert_placed(&c, 2, "heavy", b);
	sched_session_end(c.srv, c.gpu, &(struct sched_run){ .program = "", .id = 2 });
	/* Sessions this client placed since the last INFO count too. */
	ck_assert(sched_on_info(a, buf, (uint32_t)info(buf, 1, 0, 0, 0, 16ULL << 30, 0), now));
	assert_placed(&c, 3, "heavy", a);
	assert_placed(&c, 4, "heavy", b);
}
END_TEST

START_TEST(test_memory)
{
	struct sched_choice c;
	struct server *a = up(0, 1), *b = up(1, 5);
	uint64_t now = gl_now_ns();

	learn(b, "big", 3ULL << 30, 0, 10, 1.0, NULL, NULL, 0);
	/* a is the better link but has 2 GiB free: never chosen. */
	ck_assert(sched_on_info(a, buf, (uint32_t)info(buf, 1, 0, 0, 0, 16ULL << 30, 14ULL << 30), now));
	assert_placed(&c, 1, "big", b);
	ck_assert_uint_eq(c.ntop, 1);
}
END_TEST

START_TEST(test_weights_held)
{
	struct sched_choice c;
	struct server *a = up(0, 1), *b = up(1, 1.5);
	struct chunk_name names[64];
	uint32_t lens[64];

	for (unsigned int i = 0; i < 64; i++) {
		memset(&names[i], 0, sizeof(names[i]));
		names[i].b[0] = (uint8_t)i;
		names[i].b[1] = 0x5a;
		lens[i] = 4 << 20;
	}
	/* 256 MiB of weights, last loaded through b, which kept them. */
	learn(b, "model", 256ULL << 20, 0, 20, 3.0, names, lens, 64);
	for (unsigned int i = 0; i < 64; i++)
		sched_held(b, &names[i], lens[i]);
	assert_placed(&c, 1, "model", b);
	/* Without them, the faster link wins. */
	assert_placed(&c, 2, "model2", a);
}
END_TEST

START_TEST(test_pins_and_state)
{
	char err[160], path[128];
	struct sched_choice c;
	FILE *f;

	up(0, 1);
	up(1, 5);
	/* Server 1 has two GPUs: GPU 1 may be pinned, GPU 2 may not. */
	ck_assert(sched_on_info(sched_server(1), buf,
				(uint32_t)info(buf, 2, 0, 0, 0, 16ULL << 30, 0), gl_now_ns()));
	ck_assert_int_eq(sched_assign("vgpu2", "127.0.0.1:9002:2", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "has 2 GPU(s)"));
	err[0] = 0;
	ck_assert_int_eq(sched_assign("vgpu2", "127.0.0.1:9002:1", err, sizeof(err)), 0);
	ck_assert_int_eq(sched_assign("socket", "127.0.0.1:9002", err, sizeof(err)), 0);
	ck_assert_int_eq(sched_assign("vgpu2", "127.0.0.1:9999", err, sizeof(err)), -ENOENT);
	ck_assert_int_eq(sched_assign("eth0", "127.0.0.1:9002", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sched_assign("vgpu2x", "127.0.0.1:9002", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sched_server_add("127.0.0.1:9003", err, sizeof(err)), 0);
	ck_assert_int_eq(sched_server_add("127.0.0.1:9003", err, sizeof(err)), -EEXIST);
	ck_assert_int_eq(sched_server_add("bad name\"", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(sched_server_remove("127.0.0.1:9001", err, sizeof(err)), 0);
	sched_place(1, "p", "vgpu2", &c);
	ck_assert_ptr_eq(c.srv, sched_server(1));
	ck_assert_int_eq(c.gpu, 1);
	ck_assert(c.gpu_named);
	ck_assert_ptr_nonnull(strstr(c.why, "pinned"));
	/* Written whole, no temporary left. */
	snprintf(path, sizeof(path), "%s/client.state.tmp", dir);
	ck_assert_int_eq(access(path, F_OK), -1);
	/* A restart: the same config, the state file read back. */
	sched_init(&cfg);
	for (unsigned int i = 0; i < SCHED_SERVERS_MAX; i++)
		ck_assert(!sched_server(i) || strcmp(sched_server(i)->name, "127.0.0.1:9001"));
	sched_place(2, "p", "vgpu2", &c);
	ck_assert_ptr_nonnull(c.srv);
	ck_assert_str_eq(c.srv->name, "127.0.0.1:9002");
	ck_assert_int_eq(c.gpu, 1);
	sched_place(3, "p", "socket", &c);
	ck_assert_str_eq(c.srv->name, "127.0.0.1:9002");
	ck_assert_int_eq(sched_assign_clear("vgpu2", err, sizeof(err)), 0);
	ck_assert_int_eq(sched_assign_clear("vgpu2", err, sizeof(err)), -ENOENT);
	snprintf(path, sizeof(path), "%s/client.state", dir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	{
		char text[512] = "";
		size_t n = fread(text, 1, sizeof(text) - 1, f);

		text[n] = 0;
		ck_assert_ptr_nonnull(strstr(text, "server 127.0.0.1:9003\n"));
		ck_assert_ptr_nonnull(strstr(text, "removed 127.0.0.1:9001\n"));
		ck_assert_ptr_nonnull(strstr(text, "pin socket 127.0.0.1:9002 -1\n"));
		ck_assert_ptr_null(strstr(text, "vgpu2"));
	}
	fclose(f);
	ck_assert_int_eq(sched_assign_clear("socket", err, sizeof(err)), 0);
	/* Servers added are ours to remove; the slot goes once nothing uses it. */
	ck_assert_int_eq(sched_server_add("127.0.0.1:9001", err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_round_robin)
{
	struct sched_choice c;
	struct server *seen[4];

	ck_assert_int_eq(config_set(&cfg, "placement", "round-robin"), 0);
	sched_init(&cfg);
	up(0, 1);
	up(1, 50);
	for (int i = 0; i < 4; i++) {
		sched_place((uint64_t)i, "p", "socket", &c);
		seen[i] = c.srv;
	}
	ck_assert_ptr_ne(seen[0], seen[1]);
	ck_assert_ptr_eq(seen[0], seen[2]);
	ck_assert_ptr_eq(seen[1], seen[3]);
	ck_assert_int_eq(config_set(&cfg, "placement", "best"), -EINVAL);
	ck_assert_int_eq(config_set(&cfg, "placement", "auto"), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("sched");
	SRunner *sr;
	int failed;

	gl_log_level = -1;
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_info_hostile);
	tcase_add_test(tc, test_stats_harmless);
	tcase_add_test(tc, test_rtt);
	tcase_add_test(tc, test_down_and_stalled);
	tcase_add_test(tc, test_contention);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_weights_held);
	tcase_add_test(tc, test_pins_and_state);
	tcase_add_test(tc, test_round_robin);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
