/* SPDX-License-Identifier: MIT */
/*
 * Listener and counter queries for the "gleam_vgpu" generic netlink family,
 * on libnl-genl-3.  Functions return 0 or -errno; libnl's own codes are
 * translated here.
 */
#ifndef GLEAM_VGPU_NL_H
#define GLEAM_VGPU_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gleam_vgpu_nl;

struct gleam_vgpu_nl_event {
	uint8_t cmd;		/* GLEAM_VGPU_CMD_SESSION_OPENED or _ENDED */
	uint32_t vgpu;
	uint64_t session;
	uint32_t pid;
	uint32_t uid;
	uint32_t reason;	/* ENDED: GLEAM_VGPU_END_* */
	uint32_t signal;	/* ENDED */
};

struct gleam_vgpu_stats {
	uint32_t vgpu;
	uint64_t sessions_opened;
	uint64_t sessions_active;
	uint64_t kicks_to_daemon;
	uint64_t kicks_to_app;
	uint64_t waits;
	uint64_t wait_timeouts;
	uint64_t ring_bytes;
};

/*
 * Resolve the family; with subscribe, also join the event group
 * (CAP_NET_ADMIN).  -ENOENT when the module is not loaded.
 */
int gleam_vgpu_nl_open(struct gleam_vgpu_nl **out, bool subscribe);
void gleam_vgpu_nl_close(struct gleam_vgpu_nl *nl);
/* The event socket's fd, for poll() or io_uring. */
int gleam_vgpu_nl_fd(const struct gleam_vgpu_nl *nl);
/*
 * Next event, waiting at most timeout_ms (0: do not wait; -1: forever).
 * -ETIMEDOUT when none came; -ENOBUFS when events were lost to overrun.
 */
int gleam_vgpu_nl_recv(struct gleam_vgpu_nl *nl,
		       struct gleam_vgpu_nl_event *ev, int timeout_ms);
/*
 * For a caller that reads the event socket itself (e.g. through io_uring):
 * the session events in one datagram from gleam_vgpu_nl_fd(), at most max;
 * their count.  Messages of other families and other commands are skipped.
 */
int gleam_vgpu_nl_parse(const struct gleam_vgpu_nl *nl, void *buf, size_t len,
			struct gleam_vgpu_nl_event *ev, unsigned int max);
/* Counters of one device; -ENODEV if there is no such device. */
int gleam_vgpu_nl_stats(struct gleam_vgpu_nl *nl, unsigned int vgpu,
			struct gleam_vgpu_stats *st);

#endif /* GLEAM_VGPU_NL_H */
