// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "gleam_vgpu": session events for gleamd and
 * anyone else with CAP_NET_ADMIN, and per-device counters for anyone.
 * Only the initial network namespace sees it.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "vgpu.h"

static struct genl_family gleam_genl_family;

static const struct nla_policy gleam_nl_policy[GLEAM_VGPU_A_MAX + 1] = {
	[GLEAM_VGPU_A_VGPU] = NLA_POLICY_MAX(NLA_U32, GLEAM_VGPU_MAX - 1),
};

static int gleam_nl_put_u64(struct sk_buff *skb, int type, u64 val)
{
	return nla_put_u64_64bit(skb, type, val, GLEAM_VGPU_A_PAD);
}

static int gleam_nl_fill_stats(struct sk_buff *skb, u32 portid, u32 seq,
			       int flags, const struct gleam_vgpu *v)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &gleam_genl_family, flags,
			  GLEAM_VGPU_CMD_GET_STATS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, GLEAM_VGPU_A_VGPU, v->index) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_SESSIONS_OPENED,
			     atomic64_read(&v->sessions_opened)) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_SESSIONS_ACTIVE, v->active) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_KICKS_TO_DAEMON,
			     atomic64_read(&v->kicks_to_daemon)) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_KICKS_TO_APP,
			     atomic64_read(&v->kicks_to_app)) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_WAITS,
			     atomic64_read(&v->waits)) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_WAIT_TIMEOUTS,
			     atomic64_read(&v->wait_timeouts)) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_RING_BYTES,
			     atomic64_read(&v->ring_bytes))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int gleam_nl_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	struct gleam_vgpu *v;
	struct sk_buff *msg;
	u32 index;
	int err;

	if (!info->attrs[GLEAM_VGPU_A_VGPU]) {
		GENL_SET_ERR_MSG(info, "GLEAM_VGPU_A_VGPU missing");
		return -EINVAL;
	}
	index = nla_get_u32(info->attrs[GLEAM_VGPU_A_VGPU]);

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&gleam_lock);
	v = index < gleam_nr_vgpus ? gleam_vgpus[index] : NULL;
	if (v)
		err = gleam_nl_fill_stats(msg, info->snd_portid, info->snd_seq,
					  0, v);
	else
		err = -ENODEV;
	mutex_unlock(&gleam_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int gleam_nl_dump_stats(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	unsigned long i = cb->args[0];

	mutex_lock(&gleam_lock);
	for (; i < gleam_nr_vgpus; i++)
		if (gleam_nl_fill_stats(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI,
					gleam_vgpus[i]))
			break;
	mutex_unlock(&gleam_lock);
	cb->args[0] = i;
	return skb->len;
}

static const struct genl_small_ops gleam_nl_ops[] = {
	{
		.cmd = GLEAM_VGPU_CMD_GET_STATS,
		.doit = gleam_nl_get_stats,
		.dumpit = gleam_nl_dump_stats,
	},
};

/* Session events name processes and users: not for everyone. */
static const struct genl_multicast_group gleam_nl_mcgrps[] = {
	{
		.name = GLEAM_VGPU_GENL_MCGRP,
#ifdef GENL_MCAST_CAP_NET_ADMIN
		.flags = GENL_MCAST_CAP_NET_ADMIN,
#endif
	},
};

static struct genl_family gleam_genl_family = {
	.name = GLEAM_VGPU_GENL_NAME,
	.version = GLEAM_VGPU_GENL_VERSION,
	.maxattr = GLEAM_VGPU_A_MAX,
	.policy = gleam_nl_policy,
	.module = THIS_MODULE,
	.small_ops = gleam_nl_ops,
	.n_small_ops = ARRAY_SIZE(gleam_nl_ops),
	.resv_start_op = GLEAM_VGPU_CMD_MAX + 1,
	.mcgrps = gleam_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(gleam_nl_mcgrps),
};

static void gleam_nl_session_event(const struct gleam_session *s, u8 cmd,
				   u32 reason, u32 signal)
{
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&gleam_genl_family, &init_net, 0))
		return;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &gleam_genl_family, 0, cmd);
	if (!hdr)
		goto out_free_skb;
	if (nla_put_u32(skb, GLEAM_VGPU_A_VGPU, s->vgpu_index) ||
	    gleam_nl_put_u64(skb, GLEAM_VGPU_A_SESSION, s->id) ||
	    nla_put_u32(skb, GLEAM_VGPU_A_PID, s->pid) ||
	    nla_put_u32(skb, GLEAM_VGPU_A_UID, s->uid))
		goto out_free_skb;
	if (cmd == GLEAM_VGPU_CMD_SESSION_ENDED &&
	    (nla_put_u32(skb, GLEAM_VGPU_A_END_REASON, reason) ||
	     nla_put_u32(skb, GLEAM_VGPU_A_END_SIGNAL, signal)))
		goto out_free_skb;
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&gleam_genl_family, skb, 0, 0, GFP_KERNEL);
	return;

out_free_skb:
	nlmsg_free(skb);
}

void gleam_nl_session_opened(const struct gleam_session *s)
{
	gleam_nl_session_event(s, GLEAM_VGPU_CMD_SESSION_OPENED, 0, 0);
}

void gleam_nl_session_ended(const struct gleam_session *s, u32 reason,
			    u32 signal)
{
	gleam_nl_session_event(s, GLEAM_VGPU_CMD_SESSION_ENDED, reason,
			       signal);
}

int gleam_nl_init(void)
{
	return genl_register_family(&gleam_genl_family);
}

void gleam_nl_exit(void)
{
	genl_unregister_family(&gleam_genl_family);
}
