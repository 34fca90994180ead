// SPDX-License-Identifier: MIT
/*
 * The session on /dev/vgpuN (gleam_vgpu.ko): the kernel allocates the ring
 * and carries the doorbells, and tells gleamd when this process exits or
 * dies.  One node is one session; the devices the program sees are those
 * the server describes at cuInit, whichever node carries them.
 *
 * The helpers come from kmod/user/vgpu_user.c, compiled into this library:
 * it needs nothing but libc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim.h"
#include "transport.h"
#include "util.h"
#include "vgpu_user.h"

/*
 * A sleep is cut into short WAITs: only a fatal signal interrupts one, so
 * the program's own signal handlers run between them.
 */
#define VGPU_WAIT_NS		(250ull * 1000 * 1000)
/*
 * A node opens whether or not a gleamd serves it: the session just waits
 * to be announced.  gleamd takes records at once when it does, so a
 * session whose records nobody took for this long has nobody to serve it.
 */
#define VGPU_UNSERVED_NS	(30ull * 1000 * 1000 * 1000)

static struct {
	struct gleam_vgpu_app app;
	struct gl_ring *ring;
	uint64_t opened_ns;
	bool served;
} vg = { .app.fd = -1 };

static int vgpu_bell(void)
{
	return gleam_vgpu_app_kick(&vg.app);
}

static int vgpu_sleep(void)
{
	int err = gleam_vgpu_app_wait(&vg.app, VGPU_WAIT_NS);

	if (err && err != -ETIMEDOUT)
		return err;
	if (!vg.served) {
		/* gleamd has consumed records or published replies. */
		if (__atomic_load_n(&vg.ring->sq.ctl->head, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&vg.ring->cq.ctl->tail, __ATOMIC_ACQUIRE))
			vg.served = true;
		else if (gl_now_ns() - vg.opened_ns > VGPU_UNSERVED_NS)
			return -EHOSTDOWN;
	}
	return 0;
}

static void vgpu_close(void)
{
	gleam_vgpu_app_close(&vg.app);
}

static const struct shim_transport vgpu_transport = {
	.name = "vgpu",
	.bell = vgpu_bell,
	.sleep = vgpu_sleep,
	.close = vgpu_close,
};

/*
 * The nodes this process may open, in index order; with CUDA_VISIBLE_DEVICES
 * only those it names, as indices into that list.  As CUDA does, the list
 * ends at the first entry that is not an index (a UUID, say) or an index
 * beyond the list, and a node named twice is an error: -EINVAL, which
 * cuInit answers with CUDA_ERROR_INVALID_DEVICE as the driver does (and
 * as gleamd's socket does).  Checking access instead of opening keeps the
 * probe free of sessions.
 */
static int candidates(unsigned int *out)
{
	unsigned int all[GLEAM_VGPU_MAX], nall = 0, n = 0;
	const char *env = getenv("CUDA_VISIBLE_DEVICES");
	char path[32];
	struct stat st;

	for (unsigned int i = 0; i < GLEAM_VGPU_MAX; i++) {
		snprintf(path, sizeof(path), GLEAM_VGPU_PATH_FMT, i);
		if (!stat(path, &st) && S_ISCHR(st.st_mode) &&
		    !faccessat(AT_FDCWD, path, R_OK | W_OK, AT_EACCESS))
			all[nall++] = i;
	}
	if (!env) {
		memcpy(out, all, nall * sizeof(*all));
		return nall;
	}
	while (*env && n < GLEAM_VGPU_MAX) {
		unsigned long k;
		char *end;
		bool dup = false;

		while (*env == ' ' || *env == ',')
			env++;
		if (*env < '0' || *env > '9')
			break;
		errno = 0;
		k = strtoul(env, &end, 10);
		if (errno || (*end && *end != ',' && *end != ' '))
			break;
		env = end;
		/* An index past the list ends it, as on the driver. */
		if (k >= nall)
			break;
		for (unsigned int j = 0; j < n; j++)
			dup |= out[j] == all[k];
		if (dup)
			return -EINVAL;
		out[n++] = all[k];
	}
	return (int)n;
}

/*
 * GLEAM_RING_SHIFT as gleamd's socket applies it: a reply carries up to
 * a 1 MiB piece and must fit half a ring, so nothing under 4 MiB.
 */
static unsigned int ring_shift(void)
{
	const char *env = getenv("GLEAM_RING_SHIFT");
	unsigned int s;

	if (!env)
		return 0;
	s = (unsigned int)atoi(env);
	return MAX((unsigned int)GL_RING_DEFAULT_SHIFT,
		   MIN(s, (unsigned int)GLEAM_RING_MAX_SHIFT));
}

int shim_vgpu_connect(struct gl_ring *ring, const struct shim_transport **tp)
{
	unsigned int idx[GLEAM_VGPU_MAX], shift = ring_shift(), reply = shift;
	int n = candidates(idx);
	char path[32];
	int err;

	if (n < 0)
		return n;

	/*
	 * gleamd stripes a session's large messages where it has 8 cores or
	 * more, and striped replies want a reply ring of 8 MiB, as it gives
	 * on its socket (broker/client.c, local_hello).
	 */
	if (!shift && sysconf(_SC_NPROCESSORS_ONLN) >= 8)
		reply = GL_RING_STRIPED_REPLY_SHIFT;

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), GLEAM_VGPU_PATH_FMT, idx[i]);
		err = gleam_vgpu_app_open(&vg.app, path, shift, reply);
		if (err) {
			gl_dbg("%s: %s", path, strerror(-err));
			continue;
		}
		err = gl_ring_attach(vg.app.reg.base, vg.app.reg.ring.region_size, ring);
		if (err) {
			gl_err("%s: unusable ring: %s", path, strerror(-err));
			gleam_vgpu_app_close(&vg.app);
			continue;
		}
		vg.ring = ring;
		vg.opened_ns = gl_now_ns();
		gl_dbg("session %llu on %s", (unsigned long long)vg.app.reg.session, path);
		*tp = &vgpu_transport;
		return 0;
	}
	return -ENODEV;
}
