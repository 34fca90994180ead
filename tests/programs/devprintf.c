// SPDX-License-Identifier: MIT
/*
 * devprintf: what kernels print (device printf) reaches this program's
 * stdout where NVIDIA's driver puts it: at the calls that flush the
 * printf buffer (the synchronisations of the context, a stream and an
 * event, a blocking copy to the host), after the program's own lines
 * printed before them and before those printed after.  Threads of a block
 * taking turns, the conversions printf offers, a kernel that prints more
 * than 2 MiB (caught in a file and checked line by line), and, last, a
 * failed assert(): the context fails with CUDA_ERROR_ASSERT and the
 * message goes to stderr.  Kernels: tests/kernels/printf.cu.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/cuctx.h"
#include "util.h"

#define MANY_LINES	40000

static CUfunction f_hello, f_threads, f_values, f_formats, f_many, f_assert;

static void load(void)
{
	CUmodule m = load_module("printf.ptx");

	CK(cuModuleGetFunction(&f_hello, m, "print_hello"));
	CK(cuModuleGetFunction(&f_threads, m, "print_threads"));
	CK(cuModuleGetFunction(&f_values, m, "print_values"));
	CK(cuModuleGetFunction(&f_formats, m, "print_formats"));
	CK(cuModuleGetFunction(&f_many, m, "print_many"));
	CK(cuModuleGetFunction(&f_assert, m, "assert_thread"));
}

static void launch(CUfunction f, unsigned int threads, CUstream s, void **args)
{
	CK(cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, s, args, NULL));
}

/* fd 1 or 2 goes to a file until put back; what it got is returned (NUL-terminated). */
struct catch {
	int fd, saved, file;
	char path[64];
};

static void catch_begin(struct catch *c, int fd)
{
	c->fd = fd;
	snprintf(c->path, sizeof(c->path), "/tmp/devprintf.%d.%d", (int)getpid(), fd);
	fflush(fd == 1 ? stdout : stderr);
	c->file = open(c->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	c->saved = dup(fd);
	if (c->file < 0 || c->saved < 0 || dup2(c->file, fd) < 0)
		die("cannot send fd %d to %s", fd, c->path);
}

static char *catch_end(struct catch *c, size_t *len)
{
	char *text;

	fflush(c->fd == 1 ? stdout : stderr);
	if (dup2(c->saved, c->fd) < 0)
		die("cannot put fd %d back", c->fd);
	close(c->saved);
	close(c->file);
	text = read_file(c->path, len);
	unlink(c->path);
	return text;
}

/* Many lines from one thread: all of them, in order, and nothing else. */
static void many(void)
{
	int n = MANY_LINES, i = 0;
	void *args[] = { &n };
	struct catch c;
	char *text, *p;
	size_t len;

	catch_begin(&c, 1);
	launch(f_many, 1, NULL, args);
	CK(cuCtxSynchronize());
	text = catch_end(&c, &len);
	for (p = text; *p; i++) {
		char want[128];
		size_t k = (size_t)snprintf(want, sizeof(want), "line %d of %d: %s\n", i, n,
					    "the quick brown fox jumps over the lazy dog");

		if (i == n || strncmp(p, want, k))
			die("line %d of the kernel's output is not what it printed: %.60s", i, p);
		p += k;
	}
	printf("a kernel's %d lines (%zu bytes) reached stdout whole and in order: %s\n", n, len,
	       i == n ? "yes" : "no");
	free(text);
}

/*
 * Last: the context fails.  Where the message went is printed, not
 * assumed; its text names this build's paths, so it is checked, not
 * printed.
 */
static void failed_assert(CUdevice dev)
{
	struct catch out, err;
	int bad = 3;
	void *args[] = { &bad };
	const char *where;
	char *to_out, *to_err;
	size_t lo, le;
	CUcontext ctx;
	CUresult r;

	CK(cuCtxCreate(&ctx, NULL, 0, dev));
	load();
	catch_begin(&out, 1);
	catch_begin(&err, 2);
	launch(f_assert, 8, NULL, args);
	r = cuCtxSynchronize();
	to_err = catch_end(&err, &le);
	to_out = catch_end(&out, &lo);
	printf("synchronize after a failed assert(): %s\n", err_name(r));
	where = strstr(to_err, "Assertion `blockIdx.x != 0 || (int)threadIdx.x != bad` failed.") ?
		"stderr" :
		strstr(to_out, "Assertion `") ? "stdout" : "nowhere";
	printf("the assertion's message went to %s\n", where);
	printf("it names the thread: %s\n",
	       strstr(to_err, "thread: [3,0,0]") || strstr(to_out, "thread: [3,0,0]") ?
	       "yes" : "no");
	/* Shown, for whoever reads the log. */
	fputs(to_err, stderr);
	printf("and the context stays failed: %s\n", err_name(cuCtxSynchronize()));
	free(to_out);
	free(to_err);
	cuCtxDestroy(ctx);
}

int main(void)
{
	int vals[5] = { 3, 1, 4, 1, 5 }, back[5];
	CUdeviceptr d;
	CUcontext ctx;
	CUdevice dev;
	CUstream s, s2;
	CUevent e;

	CK(primary_ctx(&dev, &ctx));
	/* Room for the long kernel's lines: the buffer drops what does not fit. */
	CK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 64 << 20));
	load();
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	CK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
	CK(cuMemAlloc(&d, sizeof(vals)));

	printf("before the first kernel\n");
	{
		int tag = 1;
		void *args[] = { &tag };

		launch(f_hello, 32, NULL, args);
	}
	printf("launched, not yet synchronised\n");
	CK(cuCtxSynchronize());
	printf("after cuCtxSynchronize\n");

	{
		int tag = 1;
		void *args[] = { &tag };

		launch(f_threads, 64, s, args);
	}
	printf("launched 64 threads that print in turn\n");
	CK(cuStreamSynchronize(s));
	printf("after cuStreamSynchronize\n");

	{
		int i = 7;
		double x = 2.5;
		void *args[] = { &i, &x };

		launch(f_formats, 1, s, args);
	}
	CK(cuEventRecord(e, s));
	printf("launched a kernel that prints every conversion\n");
	CK(cuEventSynchronize(e));
	printf("after cuEventSynchronize\n");

	CK(cuMemcpyHtoD(d, vals, sizeof(vals)));
	{
		int n = 5;
		void *args[] = { &d, &n };

		launch(f_values, 1, NULL, args);
	}
	printf("launched a kernel that prints device memory\n");
	CK(cuMemcpyDtoH(back, d, sizeof(back)));
	printf("after a blocking copy to the host\n");

	/* Two streams, one after the other. */
	for (int k = 2; k <= 3; k++) {
		void *args[] = { &k };
		CUstream on = k == 2 ? s : s2;

		launch(f_threads, 4, on, args);
		CK(cuStreamSynchronize(on));
		printf("after stream %d's synchronisation\n", k - 1);
	}

	many();
	printf("after the long output\n");
	CK(cuMemFree(d));
	CK(cuEventDestroy(e));
	CK(cuStreamDestroy(s));
	CK(cuStreamDestroy(s2));
	CK(cuDevicePrimaryCtxRelease(dev));
	failed_assert(dev);
	printf("devprintf: PASS\n");
	return 0;
}
