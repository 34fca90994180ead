/* SPDX-License-Identifier: MIT */
/*
 * How the session's doorbells travel between the shim and gleamd.  The ring
 * is the same whichever way it was set up; only ringing and sleeping
 * differ: a byte on gleamd's local socket, or the KICK and WAIT ioctls of
 * /dev/vgpuN.  Both are used only when the other side has said it sleeps,
 * so a call whose peer is awake makes no system call either way.
 */
#ifndef GLEAM_SHIM_TRANSPORT_H
#define GLEAM_SHIM_TRANSPORT_H

#include "ring.h"

struct shim_transport {
	const char *name;
	/* Ring gleamd: records published or replies consumed.  0 or -errno. */
	int (*bell)(void);
	/*
	 * Sleep until gleamd rings or a short while has passed (the caller
	 * looks at the ring again either way).  0, or -errno once the
	 * session is gone: -ENOTCONN (gleamd went away), -ECONNRESET
	 * (gleamd ended it), -EHOSTDOWN (nobody ever served it).
	 */
	int (*sleep)(void);
	void (*close)(void);
};

/*
 * /dev/vgpuN (vgpu.c): open the first usable node and attach its ring.
 * -ENODEV when no node could be opened (the caller falls back to the
 * socket), -EINVAL when CUDA_VISIBLE_DEVICES names one twice; *tp is set
 * on success.
 */
int shim_vgpu_connect(struct gl_ring *ring, const struct shim_transport **tp);

#endif /* GLEAM_SHIM_TRANSPORT_H */
