// SPDX-License-Identifier: MIT
/*
 * hostfn: host functions (cuLaunchHostFunc) and stream callbacks
 * (cuStreamAddCallback) as CUDA runs them: in their stream's order among
 * its kernels and copies, on a thread that is not the caller's, holding
 * their stream until they return; a callback given its stream's status;
 * a synchronisation that waits for a slow one, and copies to the host
 * queued behind one; one the program waits for by other means than
 * CUDA; a host function that fills page-locked memory
 * which a copy queued after it reads; a host function captured into a
 * graph, run at each launch, and a callback refused by a capture; and,
 * last, a failed stream: callbacks still run, given the error, and host
 * functions do not.  Only what does not depend on timing is printed.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/cuctx.h"
#include "util.h"

#define STEPS		4
#define NWORDS		4096

static CUfunction f_spin, f_fill, f_fault;
static pthread_t main_thread;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

/* What the host functions saw, per stream, in the order they ran. */
struct trail {
	const char *name;
	int n;
	int step[2 * STEPS];
	int on_main;		/* runs on the caller's thread: CUDA never does that */
};

struct step {
	struct trail *t;
	int k;
};

static void spin(CUstream s, unsigned long long ms)
{
	unsigned long long ns = ms * 1000000ULL;
	void *args[] = { &ns };

	CK(cuLaunchKernel(f_spin, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
}

static void fill(CUstream s, CUdeviceptr p, unsigned int v, unsigned long long n)
{
	void *args[] = { &p, &v, &n };

	CK(cuLaunchKernel(f_fill, 16, 1, 1, 256, 1, 1, 0, s, args, NULL));
}

static void record_step(void *arg)
{
	struct step *st = arg;

	pthread_mutex_lock(&log_lock);
	st->t->step[st->t->n++] = st->k;
	if (pthread_equal(pthread_self(), main_thread))
		st->t->on_main++;
	pthread_mutex_unlock(&log_lock);
}

static void print_trail(const struct trail *t)
{
	printf("%s ran its host functions in order:", t->name);
	for (int i = 0; i < t->n; i++)
		printf(" %d", t->step[i]);
	printf("\n");
}

/* Kernels and host functions alternate on two streams; each keeps its order. */
static void in_order(CUdeviceptr d)
{
	static struct trail t1 = { .name = "stream 1" }, t2 = { .name = "stream 2" };
	struct step st[2][STEPS];
	CUstream s1, s2;

	CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	/* Long work first: nothing after it on either stream may run before it. */
	spin(s1, 100);
	spin(s2, 50);
	for (int k = 0; k < STEPS; k++) {
		st[0][k] = (struct step){ .t = &t1, .k = k };
		st[1][k] = (struct step){ .t = &t2, .k = 10 + k };
		fill(s1, d, (unsigned int)k, NWORDS);
		CK(cuLaunchHostFunc(s1, record_step, &st[0][k]));
		fill(s2, d + NWORDS * 4, (unsigned int)k, NWORDS);
		CK(cuLaunchHostFunc(s2, record_step, &st[1][k]));
	}
	CK(cuStreamSynchronize(s1));
	CK(cuStreamSynchronize(s2));
	print_trail(&t1);
	print_trail(&t2);
	printf("host functions ran on the caller's thread: %s\n",
	       t1.on_main + t2.on_main ? "yes" : "no");
	CK(cuStreamDestroy(s1));
	CK(cuStreamDestroy(s2));
}

/* A host function fills page-locked memory that a copy queued after it reads. */
struct fill_arg {
	uint32_t *host;
	uint32_t v;
};

static void fill_host(void *arg)
{
	struct fill_arg *a = arg;

	for (int i = 0; i < NWORDS; i++)
		a->host[i] = a->v + (uint32_t)i;
}

static void copy_after(CUdeviceptr d)
{
	struct fill_arg a[3];
	uint32_t *pinned, *back;
	CUstream s;
	int bad = 0;

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAllocHost((void **)&pinned, 3 * NWORDS * 4));
	CK(cuMemAllocHost((void **)&back, 3 * NWORDS * 4));
	memset(pinned, 0, 3 * NWORDS * 4);
	spin(s, 50);
	for (int k = 0; k < 3; k++) {
		a[k].host = pinned + k * NWORDS;
		a[k].v = 1000u * (uint32_t)(k + 1);
		CK(cuLaunchHostFunc(s, fill_host, &a[k]));
		CK(cuMemcpyHtoDAsync(d + (CUdeviceptr)k * NWORDS * 4, a[k].host, NWORDS * 4, s));
	}
	CK(cuMemcpyDtoHAsync(back, d, 3 * NWORDS * 4, s));
	CK(cuStreamSynchronize(s));
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < NWORDS; i++)
			bad += back[k * NWORDS + i] != 1000u * (uint32_t)(k + 1) + (uint32_t)i;
	printf("copies from page-locked memory read what the host functions before them "
	       "wrote: %s\n", bad ? "no" : "yes");
	CK(cuMemFreeHost(pinned));
	CK(cuMemFreeHost(back));
	CK(cuStreamDestroy(s));
}

/* A callback is given its stream and the stream's status. */
struct cb_seen {
	CUstream stream;
	CUresult status;
	volatile int calls;
};

static void CUDA_CB callback(CUstream s, CUresult status, void *arg)
{
	struct cb_seen *c = arg;

	c->stream = s;
	c->status = status;
	c->calls++;
}

static void callbacks(CUdeviceptr d)
{
	struct cb_seen c = { 0 }, cl = { 0 };
	CUstream s;

	CK(cuStreamCreate(&s, 0));
	spin(s, 20);
	fill(s, d, 7, NWORDS);
	CK(cuStreamAddCallback(s, callback, &c, 0));
	CK_EXPECT(cuStreamAddCallback(s, callback, &c, 1), CUDA_ERROR_INVALID_VALUE);
	CK(cuStreamSynchronize(s));
	printf("callback: called %d time(s), status %s, its own stream: %s\n", c.calls,
	       err_name(c.status), c.stream == s ? "yes" : "no");
	/* On the legacy stream, named by NULL. */
	CK(cuStreamAddCallback(NULL, callback, &cl, 0));
	CK(cuCtxSynchronize());
	printf("callback on the legacy stream: called %d time(s), status %s\n", cl.calls,
	       err_name(cl.status));
	CK(cuStreamDestroy(s));
}

/* A host function that takes long: the synchronisations wait for it. */
static volatile int slow_done;

static void slow(void *arg)
{
	struct timespec ts = { 0, 300 * 1000 * 1000 };

	(void)arg;
	nanosleep(&ts, NULL);
	slow_done++;
}

static void slow_ones(void)
{
	CUstream s;
	CUevent e;
	CUresult q;

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
	CK(cuLaunchHostFunc(s, slow, NULL));
	q = cuStreamQuery(s);
	if (q != CUDA_SUCCESS && q != CUDA_ERROR_NOT_READY)
		die("cuStreamQuery while a host function runs: %s", err_name(q));
	CK(cuStreamSynchronize(s));
	printf("stream synchronize waited for a slow host function: %s\n",
	       slow_done == 1 ? "yes" : "no");
	CK(cuLaunchHostFunc(s, slow, NULL));
	CK(cuEventRecord(e, s));
	CK(cuEventSynchronize(e));
	printf("event synchronize waited for a slow host function: %s\n",
	       slow_done == 2 ? "yes" : "no");
	CK(cuLaunchHostFunc(s, slow, NULL));
	CK(cuCtxSynchronize());
	printf("context synchronize waited for a slow host function: %s\n",
	       slow_done == 3 ? "yes" : "no");
	CK(cuEventDestroy(e));
	CK(cuStreamDestroy(s));
}

/*
 * Copies to the host queued behind a slow host function wait for it: on
 * its stream, and on the legacy stream behind one on a blocking stream;
 * large ones (several of Gleam's pieces) and a small one.  Into pageable
 * memory, the calls return once the copy is done.
 */
#define BEHIND_BYTES	((3u << 20) + 4096)

/* The host function goes on s; the copy too, or on the legacy stream. */
static bool behind(CUstream s, bool legacy, CUdeviceptr d, uint32_t *back, size_t n, uint32_t v)
{
	int before = slow_done, bad = 0;

	CK(cuMemsetD32Async(d, v, BEHIND_BYTES / 4, s));
	CK(cuStreamSynchronize(s));
	memset(back, 0, BEHIND_BYTES);
	CK(cuLaunchHostFunc(s, slow, NULL));
	if (legacy)
		CK(cuMemcpyDtoH(back, d, n));
	else
		CK(cuMemcpyDtoHAsync(back, d, n, s));
	for (size_t i = 0; i < n / 4; i++)
		bad += back[i] != v;
	return slow_done == before + 1 && !bad;
}

static void copies_behind(void)
{
	uint32_t *back = malloc(BEHIND_BYTES);
	CUdeviceptr d;
	CUstream s, b;

	if (!back)
		die("out of memory");
	CK(cuMemAlloc(&d, BEHIND_BYTES));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&b, 0));
	printf("a copy to the host waited for a slow host function before it on its stream: %s\n",
	       behind(s, false, d, back, BEHIND_BYTES, 0x5eed0001) ? "yes" : "no");
	printf("a small one too: %s\n", behind(s, false, d, back, 64, 0x5eed0002) ? "yes" : "no");
	printf("a synchronous copy waited for a slow host function on a blocking stream: %s\n",
	       behind(b, true, d, back, BEHIND_BYTES, 0x5eed0003) ? "yes" : "no");
	CK(cuStreamDestroy(b));
	CK(cuStreamDestroy(s));
	CK(cuMemFree(d));
	free(back);
}

/* The program waits for its host function without CUDA: it runs all the same. */
static sem_t sem;

static void post(void *arg)
{
	(void)arg;
	sem_post(&sem);
}

static void waits_elsewhere(void)
{
	struct timespec ts;
	CUstream s;
	int ok;

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	sem_init(&sem, 0, 0);
	spin(s, 20);
	CK(cuLaunchHostFunc(s, post, NULL));
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 60;
	ok = sem_timedwait(&sem, &ts) == 0;
	printf("a host function ran while the program waited on a semaphore: %s\n",
	       ok ? "yes" : "no");
	CK(cuStreamSynchronize(s));
	CK(cuStreamDestroy(s));
}

/* Captured, a host function is a node of the graph: it runs at every launch. */
static int node_runs;

static void count_run(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&node_runs, 1, __ATOMIC_RELAXED);
}

static void captured(CUdeviceptr d)
{
	struct cb_seen c = { 0 };
	CUgraphExec ge;
	CUgraph g;
	CUstream s;

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	fill(s, d, 1, NWORDS);
	CK(cuLaunchHostFunc(s, count_run, NULL));
	fill(s, d, 2, NWORDS);
	CK(cuStreamEndCapture(s, &g));
	printf("captured host function ran during the capture: %s\n", node_runs ? "yes" : "no");
	CK(cuGraphInstantiateWithFlags(&ge, g, 0));
	CK(cuGraphLaunch(ge, s));
	CK(cuGraphLaunch(ge, s));
	CK(cuStreamSynchronize(s));
	CK(cuGraphLaunch(ge, s));
	CK(cuStreamSynchronize(s));
	printf("captured host function ran at each of 3 launches: %d run(s)\n", node_runs);
	CK(cuGraphExecDestroy(ge));
	CK(cuGraphDestroy(g));

	/* A stream callback cannot be captured: the capture is invalidated. */
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	fill(s, d, 3, NWORDS);
	printf("callback during a capture: %s\n",
	       err_name(cuStreamAddCallback(s, callback, &c, 0)));
	printf("end of that capture: %s\n", err_name(cuStreamEndCapture(s, &g)));
	CK(cuStreamDestroy(s));
}

/*
 * Last, in a context of its own: a kernel faults behind a long one, so
 * that what follows is queued before the fault is known.  The callback
 * runs, given the error; the host function does not.
 */
static int after_fault_ran;

static void after_fault(void *arg)
{
	(void)arg;
	after_fault_ran++;
}

static void failing(CUdevice dev)
{
	struct cb_seen c = { 0 };
	CUdeviceptr bad = 0x10;
	void *args[] = { &bad };
	CUcontext ctx;

	CK(cuCtxCreate(&ctx, NULL, 0, dev));
	load_function("misc.ptx", "spin_ns", &f_spin);
	load_function("fault.ptx", "illegal_write", &f_fault);
	spin(NULL, 200);
	CK(cuLaunchKernel(f_fault, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	CK(cuStreamAddCallback(NULL, callback, &c, 0));
	/* Its own error, if the context failed already, or the next wait's. */
	(void)cuLaunchHostFunc(NULL, after_fault, NULL);
	printf("synchronize after the fault: %s\n", err_name(cuStreamSynchronize(NULL)));
	/*
	 * The driver may still be running the callback when the failed
	 * synchronisation returns: it is waited for here, and the host
	 * function that would follow it given the time to run, should it.
	 */
	for (int i = 0; i < 1000 && !c.calls; i++)
		usleep(10000);
	usleep(100000);
	printf("callback after the fault: called %d time(s), status %s\n", c.calls,
	       err_name(c.status));
	printf("host function after the fault ran: %s\n", after_fault_ran ? "yes" : "no");
	cuCtxDestroy(ctx);
}

int main(void)
{
	CUdeviceptr d;
	CUcontext ctx;
	CUmodule mod;
	CUdevice dev;

	main_thread = pthread_self();
	CK(primary_ctx(&dev, &ctx));
	mod = load_function("misc.ptx", "spin_ns", &f_spin);
	CK(cuModuleGetFunction(&f_fill, mod, "fill_u32"));
	CK(cuMemAlloc(&d, 4 * NWORDS * 4));

	CK_EXPECT(cuLaunchHostFunc(NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
	CK_EXPECT(cuStreamAddCallback(NULL, NULL, NULL, 0), CUDA_ERROR_INVALID_VALUE);
	in_order(d);
	copy_after(d);
	callbacks(d);
	slow_ones();
	copies_behind();
	waits_elsewhere();
	captured(d);
	CK(cuMemFree(d));
	CK(cuDevicePrimaryCtxRelease(dev));
	failing(dev);
	printf("hostfn: PASS\n");
	return 0;
}
