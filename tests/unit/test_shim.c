// SPDX-License-Identifier: MIT
/*
 * libcuda.so.1 as a program sees it: every driver symbol is there, the
 * version script hides everything else, cuGetProcAddress hands out the
 * right ABI version, and what Gleam lacks says so instead of pretending.
 */
#include <check.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>

#include "gleam_api_gen.h"
#include "gleam_local.h"
#include "gleam_record.h"
#include "ring.h"
#include "unit.h"
#include "util.h"

START_TEST(test_every_driver_symbol)
{
	const char *path = getenv("GLEAM_DRIVER_SYMBOLS");
	FILE *f = fopen(path ? path : "uapi/driver-symbols.txt", "r");
	char line[256];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		unit_sym(line);
		n++;
	}
	fclose(f);
	ck_assert_int_gt(n, 600);
	/* Nothing of the shim's own leaks out. */
	ck_assert_ptr_null(dlsym(unit_shim, "shim_call"));
	ck_assert_ptr_null(dlsym(unit_shim, "gl_ring_reserve"));
	ck_assert_ptr_null(dlsym(unit_shim, "gl_fn_table"));
}
END_TEST

typedef CUresult (*gpa_v2_fn)(const char *, void **, int, cuuint64_t,
			      CUdriverProcAddressQueryResult *);
typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t);

static void *lookup(const char *name, int version, cuuint64_t flags, CUresult *r,
		    CUdriverProcAddressQueryResult *st)
{
	gpa_v2_fn gpa = (gpa_v2_fn)unit_sym("cuGetProcAddress_v2");
	void *p = (void *)1;

	*r = gpa(name, &p, version, flags, st);
	return p;
}

START_TEST(test_proc_address_versions)
{
	CUdriverProcAddressQueryResult st;
	CUresult r;

	ck_assert_ptr_eq(lookup("cuMemAlloc", 3020, 0, &r, &st), unit_sym("cuMemAlloc_v2"));
	ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SUCCESS);
	ck_assert_ptr_eq(lookup("cuCtxGetDevice", 12000, 0, &r, &st), unit_sym("cuCtxGetDevice"));
	ck_assert_ptr_eq(lookup("cuCtxGetDevice", 13000, 0, &r, &st), unit_sym("cuCtxGetDevice_v2"));
	ck_assert_ptr_eq(lookup("cuEventElapsedTime", 12000, 0, &r, &st), unit_sym("cuEventElapsedTime"));
	ck_assert_ptr_eq(lookup("cuEventElapsedTime", 12080, 0, &r, &st),
			 unit_sym("cuEventElapsedTime_v2"));
	ck_assert_ptr_eq(lookup("cuCtxCreate", 3020, 0, &r, &st), unit_sym("cuCtxCreate_v2"));
	ck_assert_ptr_eq(lookup("cuGetProcAddress", 12000, 0, &r, &st), unit_sym("cuGetProcAddress_v2"));
}
END_TEST

START_TEST(test_proc_address_per_thread)
{
	CUdriverProcAddressQueryResult st;
	CUresult r;

	ck_assert_ptr_eq(lookup("cuMemcpyHtoD", 7000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), unit_sym("cuMemcpyHtoD_v2_ptds"));
	ck_assert_ptr_eq(lookup("cuMemcpyHtoD", 7000, 0, &r, &st), unit_sym("cuMemcpyHtoD_v2"));
	ck_assert_ptr_eq(lookup("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), unit_sym("cuLaunchKernel_ptsz"));
	/* The first forms of capture and instantiation, and their successors. */
	ck_assert_ptr_eq(lookup("cuStreamBeginCapture", 10000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), unit_sym("cuStreamBeginCapture_ptsz"));
	ck_assert_ptr_eq(lookup("cuStreamBeginCapture", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), unit_sym("cuStreamBeginCapture_v2_ptsz"));
	ck_assert_ptr_eq(lookup("cuStreamBeginCapture", 13000, 0, &r, &st), unit_sym("cuStreamBeginCapture_v2"));
	ck_assert_ptr_eq(lookup("cuGraphLaunch", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), unit_sym("cuGraphLaunch_ptsz"));
	ck_assert_ptr_eq(lookup("cuGraphInstantiate", 13000, 0, &r, &st), unit_sym("cuGraphInstantiate_v2"));
	/* A function with no per-thread form gets its plain one. */
	ck_assert_ptr_eq(lookup("cuMemAlloc", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), unit_sym("cuMemAlloc_v2"));
}
END_TEST

START_TEST(test_proc_address_missing)
{
	gpa_fn gpa1 = (gpa_fn)unit_sym("cuGetProcAddress");
	CUdriverProcAddressQueryResult st;
	void *p = (void *)1;
	CUresult r;

	ck_assert_ptr_null(lookup("cuNoSuchFunction", 13000, 0, &r, &st));
	ck_assert_int_eq(r, CUDA_SUCCESS);
	ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
	ck_assert_ptr_null(lookup("cuLaunchKernelEx", 11000, 0, &r, &st));
	ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
	ck_assert_int_eq(gpa1("cuNoSuchFunction", &p, 13000, 0), CUDA_ERROR_NOT_FOUND);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(gpa1("cuMemAlloc", &p, 13000, 1u << 20), CUDA_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(test_unsupported_says_so)
{
	CUresult (*f)(void) = (CUresult (*)(void))unit_sym("cuGraphicsUnregisterResource");

	ck_assert_int_eq(f(), CUDA_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(f(), CUDA_ERROR_NOT_SUPPORTED);
}
END_TEST

START_TEST(test_error_names)
{
	CUresult (*name)(CUresult, const char **) = (void *)unit_sym("cuGetErrorName");
	CUresult (*str)(CUresult, const char **) = (void *)unit_sym("cuGetErrorString");
	const char *s;

	ck_assert_int_eq(name(CUDA_ERROR_ILLEGAL_ADDRESS, &s), CUDA_SUCCESS);
	ck_assert_str_eq(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
	ck_assert_int_eq(str(CUDA_ERROR_INVALID_VALUE, &s), CUDA_SUCCESS);
	ck_assert_str_eq(s, "invalid argument");
	ck_assert_int_eq(name((CUresult)9999, &s), CUDA_ERROR_INVALID_VALUE);
	ck_assert_ptr_null(s);
}
END_TEST

START_TEST(test_without_gleamd)
{
	CUresult (*init)(unsigned int) = (void *)unit_sym("cuInit");
	CUresult (*count)(int *) = (void *)unit_sym("cuDeviceGetCount");
	CUresult (*ver)(int *) = (void *)unit_sym("cuDriverGetVersion");
	int n = -1, v = 0;

	ck_assert_int_eq(count(&n), CUDA_ERROR_NOT_INITIALIZED);
	ck_assert_int_eq(ver(&v), CUDA_SUCCESS);
	ck_assert_int_ge(v, 12000);
	ck_assert_int_eq(init(1), CUDA_ERROR_INVALID_VALUE);
	ck_assert_int_eq(init(0), CUDA_ERROR_NO_DEVICE);
	/* The first answer stays: a later cuInit does not hang or change it. */
	ck_assert_int_eq(init(0), CUDA_ERROR_NO_DEVICE);
	ck_assert_int_eq(count(&n), CUDA_ERROR_NOT_INITIALIZED);
}
END_TEST

/*
 * A gleamd that answers cuInit before it is asked and dies at once: the
 * reply waits on the ring, gleamd (its producer) sleeps waiting for room,
 * and its socket is closed.  The shim drains the reply and rings the bell,
 * which fails: that must lose the session, not deadlock on the lock that
 * draining holds (found by tests/integration/kill.sh).
 */
static void *dying_gleamd(void *arg)
{
	int lfd = *(int *)arg, fd, rfd;
	struct gleam_local_hello h;
	struct gleam_local_ack ack = { .magic = GLEAM_LOCAL_MAGIC };
	struct gleam_reply *rep;
	struct gl_ring ring;

	fd = accept(lfd, NULL, NULL);
	if (fd < 0 || recv(fd, &h, sizeof(h), 0) != sizeof(h))
		return NULL;
	rfd = gl_ring_memfd(22, 22);
	if (rfd < 0 || gl_ring_map(rfd, &ring))
		return NULL;
	/* The record needs no bell; the reply is there already, for tag 1. */
	gl_ring_cons_set_state(&ring.sq, 0);
	rep = gl_ring_reserve(&ring.cq, sizeof(*rep));
	*rep = (struct gleam_reply){ .len = sizeof(*rep), .fn = GL_FN_cuInit, .tag = 1,
				     .result = CUDA_ERROR_NO_DEVICE };
	gl_ring_commit(&ring.cq);
	gl_ring_prod_set_sleeping(&ring.cq, true);
	ack.region_size = ring.region_size;
	gl_send_fd(fd, &ack, sizeof(ack), rfd);
	close(rfd);
	close(fd);
	return NULL;
}

START_TEST(test_bell_fails_while_draining)
{
	char path[] = "/tmp/gleam-unit-XXXXXX";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int st = 0, lfd;
	pid_t pid, done = 0;

	ck_assert_ptr_nonnull(mkdtemp(path));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/s", path);
	/* A process of its own: the shim's session is once per process. */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		CUresult (*init)(unsigned int);
		pthread_t t;
		void *l;

		lfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1) ||
		    pthread_create(&t, NULL, dying_gleamd, &lfd))
			_exit(2);
		setenv("GLEAM_SOCKET", sa.sun_path, 1);
		setenv("GLEAM_TRANSPORT", "socket", 1);
		l = dlopen(unit_shim_path(), RTLD_NOW | RTLD_LOCAL);
		init = l ? (void *)dlsym(l, "cuInit") : NULL;
		if (!init)
			_exit(3);
		_exit(init(0) == CUDA_ERROR_NO_DEVICE ? 0 : 4);
	}
	for (int i = 0; i < 1000 && !done; i++) {
		done = waitpid(pid, &st, WNOHANG);
		if (!done)
			nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	if (!done) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	unlink(sa.sun_path);
	rmdir(path);
	ck_assert_msg(done, "cuInit still waits 10 s after gleamd died: deadlocked");
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: status %#x", st);
}
END_TEST

Suite *shim_suite(void)
{
	Suite *s = suite_create("shim");
	TCase *t = UNIT_TCASE(s, "exports", test_every_driver_symbol, test_proc_address_versions,
			      test_proc_address_per_thread, test_proc_address_missing,
			      test_unsupported_says_so, test_error_names, test_without_gleamd);

	tcase_add_checked_fixture(t, unit_shim_open, unit_shim_close);
	t = UNIT_TCASE(s, "transport", test_bell_fails_while_draining);
	tcase_set_timeout(t, 30);
	return s;
}
