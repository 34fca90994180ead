// SPDX-License-Identifier: MIT
/*
 * The "gleam_vgpu" generic netlink family through libnl-genl-3.
 *
 * Two sockets: one joined to the event group and read without blocking,
 * one for requests, so that a reply never lands among events.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "gleam_vgpu.h"
#include "vgpu_nl.h"

#define EVQ_LEN	64

struct gleam_vgpu_nl {
	struct nl_sock *ev_sk;
	struct nl_sock *req_sk;
	int family;
	struct gleam_vgpu_nl_event q[EVQ_LEN];
	unsigned int q_head;
	unsigned int q_len;
	bool lost;
};

static struct nla_policy gleam_nl_policy[GLEAM_VGPU_A_MAX + 1] = {
	[GLEAM_VGPU_A_VGPU] = { .type = NLA_U32 },
	[GLEAM_VGPU_A_SESSION] = { .type = NLA_U64 },
	[GLEAM_VGPU_A_PID] = { .type = NLA_U32 },
	[GLEAM_VGPU_A_UID] = { .type = NLA_U32 },
	[GLEAM_VGPU_A_END_REASON] = { .type = NLA_U32 },
	[GLEAM_VGPU_A_END_SIGNAL] = { .type = NLA_U32 },
	[GLEAM_VGPU_A_SESSIONS_OPENED] = { .type = NLA_U64 },
	[GLEAM_VGPU_A_SESSIONS_ACTIVE] = { .type = NLA_U64 },
	[GLEAM_VGPU_A_KICKS_TO_DAEMON] = { .type = NLA_U64 },
	[GLEAM_VGPU_A_KICKS_TO_APP] = { .type = NLA_U64 },
	[GLEAM_VGPU_A_WAITS] = { .type = NLA_U64 },
	[GLEAM_VGPU_A_WAIT_TIMEOUTS] = { .type = NLA_U64 },
	[GLEAM_VGPU_A_RING_BYTES] = { .type = NLA_U64 },
};

/* libnl folds errno into its own codes; unfold what can be. */
static int nle_to_errno(int nle)
{
	switch (nle < 0 ? -nle : nle) {
	case NLE_SUCCESS:
		return 0;
	case NLE_INTR:
		return -EINTR;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_PERM:
		return -EPERM;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_BUSY:
		return -EBUSY;
	default:
		return -EIO;
	}
}

static uint32_t get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static uint64_t get_u64(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u64(tb[type]) : 0;
}

/* One session event from a message of the family; -EINVAL if it is none. */
static int parse_event(struct nlmsghdr *nlh, struct gleam_vgpu_nl_event *ev)
{
	struct nlattr *tb[GLEAM_VGPU_A_MAX + 1];
	struct genlmsghdr *gh;

	if (!genlmsg_valid_hdr(nlh, 0))
		return -EINVAL;
	gh = nlmsg_data(nlh);
	if (gh->cmd != GLEAM_VGPU_CMD_SESSION_OPENED &&
	    gh->cmd != GLEAM_VGPU_CMD_SESSION_ENDED)
		return -EINVAL;
	if (genlmsg_parse(nlh, 0, tb, GLEAM_VGPU_A_MAX, gleam_nl_policy) < 0)
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ev->cmd = gh->cmd;
	ev->vgpu = get_u32(tb, GLEAM_VGPU_A_VGPU);
	ev->session = get_u64(tb, GLEAM_VGPU_A_SESSION);
	ev->pid = get_u32(tb, GLEAM_VGPU_A_PID);
	ev->uid = get_u32(tb, GLEAM_VGPU_A_UID);
	ev->reason = get_u32(tb, GLEAM_VGPU_A_END_REASON);
	ev->signal = get_u32(tb, GLEAM_VGPU_A_END_SIGNAL);
	return 0;
}

static int ev_cb(struct nl_msg *msg, void *arg)
{
	struct gleam_vgpu_nl *nl = arg;
	struct gleam_vgpu_nl_event ev;

	if (parse_event(nlmsg_hdr(msg), &ev))
		return NL_SKIP;
	if (nl->q_len == EVQ_LEN) {
		nl->lost = true;
		return NL_SKIP;
	}
	nl->q[(nl->q_head + nl->q_len++) % EVQ_LEN] = ev;
	return NL_OK;
}

int gleam_vgpu_nl_parse(const struct gleam_vgpu_nl *nl, void *buf, size_t len,
			struct gleam_vgpu_nl_event *ev, unsigned int max)
{
	struct nlmsghdr *nlh = buf;
	int left = len > INT_MAX ? INT_MAX : (int)len;
	unsigned int n = 0;

	for (; n < max && nlmsg_ok(nlh, left); nlh = nlmsg_next(nlh, &left)) {
		if (nlh->nlmsg_type != nl->family)
			continue;
		if (!parse_event(nlh, &ev[n]))
			n++;
	}
	return (int)n;
}

static struct nl_sock *sock_new(int *err)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = genl_connect(sk);
	if (*err < 0) {
		*err = nle_to_errno(*err);
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

void gleam_vgpu_nl_close(struct gleam_vgpu_nl *nl)
{
	if (!nl)
		return;
	if (nl->ev_sk)
		nl_socket_free(nl->ev_sk);
	if (nl->req_sk)
		nl_socket_free(nl->req_sk);
	free(nl);
}

int gleam_vgpu_nl_open(struct gleam_vgpu_nl **out, bool subscribe)
{
	struct gleam_vgpu_nl *nl;
	int err, grp;

	*out = NULL;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->req_sk = sock_new(&err);
	if (!nl->req_sk)
		goto out_close;
	/* One request, one answer: a reply, or an error message. */
	nl_socket_disable_auto_ack(nl->req_sk);
	nl->family = genl_ctrl_resolve(nl->req_sk, GLEAM_VGPU_GENL_NAME);
	if (nl->family < 0) {
		err = nle_to_errno(nl->family);
		goto out_close;
	}
	if (subscribe) {
		grp = genl_ctrl_resolve_grp(nl->req_sk, GLEAM_VGPU_GENL_NAME,
					    GLEAM_VGPU_GENL_MCGRP);
		if (grp < 0) {
			err = nle_to_errno(grp);
			goto out_close;
		}
		nl->ev_sk = sock_new(&err);
		if (!nl->ev_sk)
			goto out_close;
		nl_socket_disable_seq_check(nl->ev_sk);
		nl_socket_modify_cb(nl->ev_sk, NL_CB_VALID, NL_CB_CUSTOM,
				    ev_cb, nl);
		nl_socket_set_buffer_size(nl->ev_sk, 1 << 20, 0);
		err = nl_socket_add_membership(nl->ev_sk, grp);
		if (err < 0) {
			err = nle_to_errno(err);
			goto out_close;
		}
		err = nl_socket_set_nonblocking(nl->ev_sk);
		if (err < 0) {
			err = nle_to_errno(err);
			goto out_close;
		}
	}
	*out = nl;
	return 0;

out_close:
	gleam_vgpu_nl_close(nl);
	return err;
}

int gleam_vgpu_nl_fd(const struct gleam_vgpu_nl *nl)
{
	return nl->ev_sk ? nl_socket_get_fd(nl->ev_sk) : -1;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gleam_vgpu_nl_recv(struct gleam_vgpu_nl *nl,
		       struct gleam_vgpu_nl_event *ev, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct pollfd p;
	int n, err, left;

	if (!nl->ev_sk)
		return -EINVAL;
	for (;;) {
		if (nl->lost) {
			nl->lost = false;
			return -ENOBUFS;
		}
		if (nl->q_len) {
			*ev = nl->q[nl->q_head];
			nl->q_head = (nl->q_head + 1) % EVQ_LEN;
			nl->q_len--;
			return 0;
		}
		left = timeout_ms;
		if (timeout_ms > 0) {
			left = (int)(deadline - now_ms());
			if (left < 0)
				left = 0;
		}
		p.fd = nl_socket_get_fd(nl->ev_sk);
		p.events = POLLIN;
		n = poll(&p, 1, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ETIMEDOUT;
		err = nl_recvmsgs_default(nl->ev_sk);
		/* An overrun socket reports ENOBUFS, which libnl calls NOMEM. */
		if (err == -NLE_NOMEM)
			return -ENOBUFS;
		if (err < 0 && err != -NLE_AGAIN)
			return nle_to_errno(err);
	}
}

struct stats_req {
	struct gleam_vgpu_stats *st;
	int err;
	bool got;
};

static int stats_cb(struct nl_msg *msg, void *arg)
{
	struct stats_req *req = arg;
	struct nlattr *tb[GLEAM_VGPU_A_MAX + 1];
	struct gleam_vgpu_stats *st = req->st;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, GLEAM_VGPU_A_MAX,
			  gleam_nl_policy) < 0)
		return NL_SKIP;
	st->vgpu = get_u32(tb, GLEAM_VGPU_A_VGPU);
	st->sessions_opened = get_u64(tb, GLEAM_VGPU_A_SESSIONS_OPENED);
	st->sessions_active = get_u64(tb, GLEAM_VGPU_A_SESSIONS_ACTIVE);
	st->kicks_to_daemon = get_u64(tb, GLEAM_VGPU_A_KICKS_TO_DAEMON);
	st->kicks_to_app = get_u64(tb, GLEAM_VGPU_A_KICKS_TO_APP);
	st->waits = get_u64(tb, GLEAM_VGPU_A_WAITS);
	st->wait_timeouts = get_u64(tb, GLEAM_VGPU_A_WAIT_TIMEOUTS);
	st->ring_bytes = get_u64(tb, GLEAM_VGPU_A_RING_BYTES);
	req->got = true;
	return NL_OK;
}

/* The kernel's errno, before libnl folds it. */
static int stats_err_cb(struct sockaddr_nl *who, struct nlmsgerr *e,
			void *arg)
{
	struct stats_req *req = arg;

	req->err = e->error;
	return NL_STOP;
}

int gleam_vgpu_nl_stats(struct gleam_vgpu_nl *nl, unsigned int vgpu,
			struct gleam_vgpu_stats *st)
{
	struct stats_req req = { .st = st };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int err;

	memset(st, 0, sizeof(*st));
	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		err = -ENOMEM;
		goto out_free_msg;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, 0,
			 GLEAM_VGPU_CMD_GET_STATS, GLEAM_VGPU_GENL_VERSION) ||
	    nla_put_u32(msg, GLEAM_VGPU_A_VGPU, vgpu) < 0) {
		err = -EMSGSIZE;
		goto out_free_cb;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, stats_cb, &req);
	nl_cb_err(cb, NL_CB_CUSTOM, stats_err_cb, &req);

	err = nl_send_auto(nl->req_sk, msg);
	if (err < 0) {
		err = nle_to_errno(err);
		goto out_free_cb;
	}
	err = nl_recvmsgs(nl->req_sk, cb);
	if (req.err)
		err = req.err;
	else if (err < 0)
		err = nle_to_errno(err);
	else
		err = req.got ? 0 : -EPROTO;

out_free_cb:
	nl_cb_put(cb);
out_free_msg:
	nlmsg_free(msg);
	return err;
}
