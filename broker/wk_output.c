// SPDX-License-Identifier: MIT
/*
 * What the program's kernels print.  NVIDIA's driver writes device printf
 * to its process's stdout and assertion messages to its stderr when it
 * flushes the printf buffer, at the synchronisations that CUDA names; the
 * sim's test kernels print as they run.  In a worker that process is this
 * one, on a machine the program does not run on.  So the worker's stdout
 * and stderr become pipes, and what arrives there goes to the shim as
 * gleamOutput replies (gleam_record.h), which it writes to the program's
 * own stdout and stderr: before the reply of each call that flushes the
 * driver's buffer (wk_output_flush_point()), and before each run of a
 * host function (the driver flushes before it runs a callback).  Output
 * is held until then, so that it keeps its place among the program's own
 * lines as it would with the driver.  The worker's own log lines go where
 * stderr went before (gl_log_fd), never to the program.
 *
 * Memory is bounded by flow control, not by dropping output: a thread
 * drains the pipes into a buffer of WK_OUT_HELD bytes per stream, and a
 * full one it sends on its own, waiting for room on the CQ; while it
 * waits, the pipes fill and whoever prints waits too, as a program
 * printing to a slow terminal does.  The shim reads the CQ whenever one of
 * the program's calls waits, so a kernel that prints gigabytes streams
 * them to the program while it synchronises (what is sent on its own may
 * reach the program at a call that does not flush: only past WK_OUT_HELD
 * bytes).  Once the session has gone, what arrives is thrown away, so
 * that a writer never hangs the worker.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "worker.h"

/* Bytes held per stream, before the drain thread sends them on its own. */
#define WK_OUT_HELD	(16 * GLEAM_OUTPUT_PIECE)

struct wk_obuf {
	unsigned char buf[WK_OUT_HELD];
	size_t len;
};

struct wk_output {
	struct worker *w;
	pthread_mutex_t lock;		/* b[], and reading the pipes */
	int rfd[2];			/* read ends of the pipes now on fds 1 and 2 */
	struct wk_obuf b[2];
	pthread_t thr;
	bool gone;			/* the session has gone: output is dropped */
};

/* Whatever the pipe holds now, into its buffer while there is room; lock held. */
static void fill(struct wk_output *o, int i)
{
	struct wk_obuf *b = &o->b[i];

	for (;;) {
		unsigned char sink[4096];
		ssize_t n;

		if (o->gone) {
			n = read(o->rfd[i], sink, sizeof(sink));
		} else {
			if (b->len == sizeof(b->buf))
				return;
			n = read(o->rfd[i], b->buf + b->len, sizeof(b->buf) - b->len);
			if (n > 0)
				b->len += (size_t)n;
		}
		if (n <= 0)
			return;
	}
}

/*
 * Send what is held, in pieces: cq_lock held, so that nothing comes
 * between the output and the reply or run it precedes.  stderr first: an
 * assertion's message goes out before the output of the printf that the
 * kernel may have made before it only when they were held at once, and
 * the driver prints its streams separately too.
 */
static int send_held(struct wk_output *o)
{
	int err = 0;

	pthread_mutex_lock(&o->lock);
	for (int i = 1; i >= 0 && !err; i--) {
		struct wk_obuf *b = &o->b[i];
		size_t off = 0;

		fill(o, i);
		while (off < b->len && !err) {
			struct gleam_reply h = { .fn = GL_FN_gleamOutput };
			struct gleam_output d = { .fd = (uint32_t)i + 1 };

			d.length = (uint32_t)MIN(b->len - off, (size_t)GLEAM_OUTPUT_PIECE);
			/* The buffer is ours while lock is held; the pipe waits meanwhile. */
			err = wk_put_reply(o->w, &h, &d, sizeof(d), b->buf + off, d.length);
			off += d.length;
		}
		b->len = 0;
	}
	if (err)
		o->gone = true;
	pthread_mutex_unlock(&o->lock);
	return err;
}

/*
 * Where NVIDIA's driver flushes the printf buffer, of the calls that wait
 * for their reply: the synchronisations of a context, a stream and an
 * event, and blocking copies (CUDA C Programming Guide, "Formatted
 * Output").  Its other flush points (a launch's start, module loads and
 * unloads, a context's destruction) return at once through Gleam: what
 * they flushed reaches the program at its next call that flushes.
 */
bool wk_output_flush_point(unsigned int fn)
{
	unsigned int t = gl_fn_traits(fn);

	/* A blocking copy: one of the table's synchronous ones on the legacy stream. */
	if ((t & GL_T_LEGACY) && (t & (GL_T_FILL | GL_T_TOHOST)) &&
	    !strncmp(gl_fn_name(fn), "cuMemcpy", 8))
		return true;
	return t & (GL_T_WAIT_STREAM | GL_T_WAIT_CTX | GL_T_WAIT_EVENT);
}

void wk_output_send(struct worker *w)
{
	if (w->out && !w->out->gone)
		send_held(w->out);
}

static bool full(struct wk_output *o)
{
	return o->b[0].len == sizeof(o->b[0].buf) || o->b[1].len == sizeof(o->b[1].buf);
}

/* Drain the pipes, so that no writer waits for a reply to be read. */
static void *drain(void *arg)
{
	struct wk_output *o = arg;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = o->rfd[0], .events = POLLIN },
			{ .fd = o->rfd[1], .events = POLLIN },
		};
		bool send;

		pthread_mutex_lock(&o->lock);
		/* A full buffer is not read until it is sent: the writers wait. */
		for (int i = 0; i < 2; i++)
			if (o->b[i].len == sizeof(o->b[i].buf) && !o->gone)
				p[i].fd = -1;
		pthread_mutex_unlock(&o->lock);
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		pthread_mutex_lock(&o->lock);
		for (int i = 0; i < 2; i++)
			if (p[i].revents)
				fill(o, i);
		send = full(o) && !o->gone;
		pthread_mutex_unlock(&o->lock);
		if (send) {
			pthread_mutex_lock(&o->w->cq_lock);
			send_held(o);
			pthread_mutex_unlock(&o->w->cq_lock);
		}
	}
	return NULL;
}

/* A pipe whose write end replaces fd; its read end, non-blocking, in *rfd. */
static int capture_fd(int fd, int *rfd)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	/* Room for a printf buffer's worth between two looks, where allowed. */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	if (dup2(p[1], fd) < 0) {
		int err = -errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	*rfd = p[0];
	return 0;
}

int wk_output_start(struct worker *w)
{
	struct wk_output *o;
	int log_fd, err;

	if (w->out)
		return 0;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->w = w;
	o->rfd[0] = o->rfd[1] = -1;
	pthread_mutex_init(&o->lock, NULL);
	/* The worker's log keeps going where stderr went. */
	log_fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
	if (log_fd < 0) {
		err = -errno;
		goto out_free;
	}
	err = capture_fd(1, &o->rfd[0]);
	if (!err) {
		gl_log_fd = log_fd;
		err = capture_fd(2, &o->rfd[1]);
	}
	if (err)
		goto out_restore;
	/*
	 * Unbuffered, as stderr is: what is printed is in the pipe when the
	 * print returns, so sending what the pipes hold sends it all, and no
	 * flush (which could wait for the pipe) is made with cq_lock held.
	 */
	setvbuf(stdout, NULL, _IONBF, 0);
	err = -pthread_create(&o->thr, NULL, drain, o);
	if (err)
		goto out_restore;
	w->out = o;
	return 0;
out_restore:
	/* Back as they were: stdout to the log too (it held nothing before). */
	dup2(log_fd, 1);
	dup2(log_fd, 2);
	gl_log_fd = 2;
	close(log_fd);
	for (int i = 0; i < 2; i++)
		if (o->rfd[i] >= 0)
			close(o->rfd[i]);
out_free:
	pthread_mutex_destroy(&o->lock);
	free(o);
	return err;
}

/*
 * The session ends: output is dropped from now on, and the drain thread
 * goes on reading, so that no writer (a driver thread still running until
 * the process exits) waits on a full pipe.
 */
void wk_output_end(struct worker *w)
{
	struct wk_output *o = w->out;

	if (!o)
		return;
	pthread_mutex_lock(&o->lock);
	o->gone = true;
	pthread_mutex_unlock(&o->lock);
}
