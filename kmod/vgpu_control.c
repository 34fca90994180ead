// SPDX-License-Identifier: GPL-2.0
/*
 * The control node: one gleamd at a time.
 *
 * gleamd learns of sessions by reading events from its file, maps each
 * session's region through the same file, and kicks applications by
 * writing session ids to it.  The file is pollable and supports
 * IOCB_NOWAIT, so one io_uring loop can serve every session.
 *
 * When the file goes away (gleamd exited or died), every session whose
 * OPEN event it read fails with ENOTCONN and its waiters wake.  Sessions it
 * never heard of (set up while no daemon was there, or whose OPEN it did
 * not read) are announced to the next one; failed sessions never are: the
 * application has to open a new one, since the records the old daemon held
 * are lost with it.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "vgpu.h"

/* Most session ids one write() kicks; a longer write is cut short. */
#define GLEAM_KICK_WRITE_MAX	4096

static bool gleam_ctl_busy;	/* under gleam_lock */
static u64 gleam_gen;		/* under gleam_lock */

/* Queue an OPEN event, once per session and daemon. */
void gleam_announce(struct gleam_daemon *d, struct gleam_session *s)
{
	lockdep_assert_held(&gleam_lock);
	spin_lock(&gleam_ev_lock);
	if (!s->ann_gen && !s->error) {
		s->ann_gen = d->gen;
		s->ev_pending |= GLEAM_EVP_OPEN;
		if (list_empty(&s->ev.link)) {
			kref_get(&s->ref);
			list_add_tail(&s->ev.link, &d->events);
		}
		wake_up_poll(&d->wq, EPOLLIN | EPOLLRDNORM);
	}
	spin_unlock(&gleam_ev_lock);
}

static int gleam_ctl_open(struct inode *inode, struct file *file)
{
	struct gleam_daemon *d;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	INIT_LIST_HEAD(&d->events);
	init_waitqueue_head(&d->wq);
	mutex_init(&d->read_lock);

	mutex_lock(&gleam_lock);
	if (gleam_ctl_busy) {
		mutex_unlock(&gleam_lock);
		kfree(d);
		return -EBUSY;
	}
	gleam_ctl_busy = true;
	mutex_unlock(&gleam_lock);

	file->private_data = d;
	stream_open(inode, file);
	file->f_mode |= FMODE_NOWAIT;
	return 0;
}

/*
 * gleam_lock is held throughout: application release and announcing both
 * take it, so no one touches the queue entries dropped here.
 */
static int gleam_ctl_release(struct inode *inode, struct file *file)
{
	struct gleam_daemon *d = file->private_data;
	struct gleam_evnode *n, *tmp;
	struct gleam_session *s;
	unsigned long idx;
	LIST_HEAD(drop);

	mutex_lock(&gleam_lock);
	spin_lock(&gleam_ev_lock);
	if (gleam_daemon == d) {
		gleam_daemon = NULL;
		xa_for_each(&gleam_sessions, idx, s) {
			if (s->ann_gen != d->gen)
				continue;
			if (s->open_delivered)
				gleam_session_fail(s, -ENOTCONN);
			else
				s->ann_gen = 0;
		}
	}
	list_for_each_entry(n, &d->events, link)
		if (!n->is_end)
			container_of(n, struct gleam_session, ev)->ev_pending = 0;
	list_splice_init(&d->events, &drop);
	spin_unlock(&gleam_ev_lock);

	list_for_each_entry_safe(n, tmp, &drop, link) {
		list_del_init(&n->link);
		if (n->is_end)
			kfree(container_of(n, struct gleam_end_rec, ev));
		else
			gleam_session_put(container_of(n, struct gleam_session,
						       ev));
	}
	gleam_ctl_busy = false;
	mutex_unlock(&gleam_lock);
	kfree(d);
	return 0;
}

static long gleam_ctl_hello(struct gleam_daemon *d, void __user *argp)
{
	struct gleam_vgpu_hello h;
	struct gleam_session *s;
	unsigned long idx;
	u32 nr;

	if (copy_from_user(&h, argp, sizeof(h)))
		return -EFAULT;
	if (memchr_inv(h.reserved, 0, sizeof(h.reserved)))
		return -EINVAL;
	if (h.version != GLEAM_VGPU_ABI_VERSION)
		return -EINVAL;

	mutex_lock(&gleam_lock);
	if (d->gen) {
		mutex_unlock(&gleam_lock);
		return -EALREADY;
	}
	d->features = h.features & GLEAM_VGPU_F_KNOWN;
	spin_lock(&gleam_ev_lock);
	d->gen = ++gleam_gen;
	gleam_daemon = d;
	spin_unlock(&gleam_ev_lock);
	xa_for_each(&gleam_sessions, idx, s)
		if (gleam_session_ring(s))
			gleam_announce(d, s);
	nr = gleam_nr_vgpus;
	mutex_unlock(&gleam_lock);

	memset(&h, 0, sizeof(h));
	h.version = GLEAM_VGPU_ABI_VERSION;
	h.event_size = sizeof(struct gleam_vgpu_event);
	h.features = d->features;
	h.nr_vgpus = nr;
	h.max_vgpus = GLEAM_VGPU_MAX;
	if (copy_to_user(argp, &h, sizeof(h)))
		return -EFAULT;
	return 0;
}

static long gleam_ctl_set_nr(void __user *argp)
{
	struct gleam_vgpu_nr_vgpus n;
	int err;

	if (copy_from_user(&n, argp, sizeof(n)))
		return -EFAULT;
	if (n.flags || memchr_inv(n.reserved, 0, sizeof(n.reserved)))
		return -EINVAL;
	if (n.nr > GLEAM_VGPU_MAX)
		return -EINVAL;
	mutex_lock(&gleam_lock);
	err = gleam_set_nr_vgpus(n.nr);
	mutex_unlock(&gleam_lock);
	return err;
}

static long gleam_ctl_end_session(struct gleam_daemon *d, void __user *argp)
{
	struct gleam_vgpu_end_session e;
	struct gleam_session *s;
	int err = -ENOENT;

	if (copy_from_user(&e, argp, sizeof(e)))
		return -EFAULT;
	if (e.flags || e.reserved0 || memchr_inv(e.reserved, 0, sizeof(e.reserved)))
		return -EINVAL;
	if (!READ_ONCE(d->gen))
		return -EINVAL;
	if (!e.session || e.session > INT_MAX)
		return -ENOENT;

	mutex_lock(&gleam_lock);
	s = xa_load(&gleam_sessions, e.session);
	if (s) {
		spin_lock(&gleam_ev_lock);
		if (s->ann_gen == d->gen) {
			gleam_session_fail(s, -ECONNRESET);
			err = 0;
		}
		spin_unlock(&gleam_ev_lock);
	}
	mutex_unlock(&gleam_lock);
	return err;
}

static long gleam_ctl_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct gleam_daemon *d = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case GLEAM_VGPU_IOC_HELLO:
		return gleam_ctl_hello(d, argp);
	case GLEAM_VGPU_IOC_SET_NR_VGPUS:
		return gleam_ctl_set_nr(argp);
	case GLEAM_VGPU_IOC_END_SESSION:
		return gleam_ctl_end_session(d, argp);
	default:
		return -ENOTTY;
	}
}

static void gleam_fill_open(struct gleam_vgpu_event *ev,
			    const struct gleam_session *s)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = GLEAM_VGPU_EV_OPEN;
	ev->vgpu = s->vgpu_index;
	ev->session = s->id;
	ev->map_offset = (u64)s->id << GLEAM_VGPU_MAP_SHIFT;
	ev->pid = s->pid;
	ev->uid = s->uid;
	ev->ring = s->ring->info;
}

static void gleam_fill_kick(struct gleam_vgpu_event *ev,
			    const struct gleam_session *s)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = GLEAM_VGPU_EV_KICK;
	ev->vgpu = s->vgpu_index;
	ev->session = s->id;
}

static void gleam_fill_end(struct gleam_vgpu_event *ev,
			   const struct gleam_end_rec *er)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = GLEAM_VGPU_EV_END;
	ev->vgpu = er->vgpu;
	ev->session = er->session;
	ev->reason = er->reason;
	ev->signal = er->signal;
}

/*
 * Under gleam_ev_lock: turn up to max queue entries into events in
 * d->evbuf.  Sessions leaving the queue go to d->putbuf, END records to
 * @ends; both are freed by the caller after the lock is dropped.
 */
static unsigned int gleam_ctl_pop(struct gleam_daemon *d, unsigned int max,
				  unsigned int *nput, struct list_head *ends)
{
	struct gleam_evnode *node;
	struct gleam_session *s;
	unsigned int n = 0;

	lockdep_assert_held(&gleam_ev_lock);
	while (n < max && !list_empty(&d->events)) {
		node = list_first_entry(&d->events, struct gleam_evnode, link);
		if (node->is_end) {
			gleam_fill_end(&d->evbuf[n++],
				       container_of(node, struct gleam_end_rec, ev));
			list_move_tail(&node->link, ends);
			continue;
		}
		s = container_of(node, struct gleam_session, ev);
		if (s->ev_pending & GLEAM_EVP_OPEN) {
			gleam_fill_open(&d->evbuf[n++], s);
			s->ev_pending &= ~GLEAM_EVP_OPEN;
			s->open_delivered = true;
		}
		if ((s->ev_pending & GLEAM_EVP_KICK) && n < max) {
			gleam_fill_kick(&d->evbuf[n++], s);
			s->ev_pending &= ~GLEAM_EVP_KICK;
		}
		if (!s->ev_pending) {
			list_del_init(&node->link);
			d->putbuf[(*nput)++] = s;
		}
	}
	return n;
}

/*
 * Whole events only.  Events are taken off the queue before they are
 * copied out: a read into a bad buffer loses them, as it would with
 * inotify.
 */
static ssize_t gleam_ctl_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct gleam_daemon *d = iocb->ki_filp->private_data;
	const size_t evsize = sizeof(struct gleam_vgpu_event);
	bool nonblock = (iocb->ki_flags & IOCB_NOWAIT) ||
			(iocb->ki_filp->f_flags & O_NONBLOCK);
	size_t count = iov_iter_count(to);
	unsigned int max, n, nput = 0, i;
	struct gleam_end_rec *er, *tmp;
	LIST_HEAD(ends);
	ssize_t ret;

	if (!READ_ONCE(d->gen))
		return -EINVAL;
	if (count < evsize)
		return -EINVAL;
	max = min_t(size_t, count / evsize, GLEAM_EV_BATCH);

	if (nonblock) {
		if (!mutex_trylock(&d->read_lock))
			return -EAGAIN;
	} else if (mutex_lock_interruptible(&d->read_lock)) {
		return -ERESTARTSYS;
	}

	for (;;) {
		spin_lock(&gleam_ev_lock);
		n = gleam_ctl_pop(d, max, &nput, &ends);
		spin_unlock(&gleam_ev_lock);
		if (n)
			break;
		if (nonblock) {
			ret = -EAGAIN;
			goto out_unlock;
		}
		ret = wait_event_interruptible(d->wq,
					       !list_empty_careful(&d->events));
		if (ret)
			goto out_unlock;
	}

	ret = n * evsize;
	if (copy_to_iter(d->evbuf, ret, to) != ret)
		ret = -EFAULT;
	for (i = 0; i < nput; i++)
		gleam_session_put(d->putbuf[i]);
	list_for_each_entry_safe(er, tmp, &ends, ev.link)
		kfree(er);
out_unlock:
	mutex_unlock(&d->read_lock);
	return ret;
}

/*
 * A session found under the xarray lock is open, so kicking it is safe;
 * ids of sessions that ended meanwhile, or that belong to no one, are
 * skipped: gleamd learns of the end from its queue.
 */
static void gleam_ctl_kick_ids(struct gleam_daemon *d, const u64 *ids,
			       unsigned int n)
{
	struct gleam_session *s;
	unsigned int i;

	xa_lock(&gleam_sessions);
	for (i = 0; i < n; i++) {
		if (!ids[i] || ids[i] > INT_MAX)
			continue;
		s = xa_load(&gleam_sessions, ids[i]);
		if (s && READ_ONCE(s->ann_gen) == d->gen)
			gleam_session_kick_app(s);
	}
	xa_unlock(&gleam_sessions);
}

/* The daemon's doorbells: an array of __u64 session ids. */
static ssize_t gleam_ctl_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct gleam_daemon *d = iocb->ki_filp->private_data;
	size_t count = iov_iter_count(from);
	size_t done = 0, chunk;
	u64 ids[32];

	if (!READ_ONCE(d->gen))
		return -EINVAL;
	if (!count || count % sizeof(u64))
		return -EINVAL;
	count = min_t(size_t, count, GLEAM_KICK_WRITE_MAX * sizeof(u64));
	while (done < count) {
		chunk = min(count - done, sizeof(ids));
		if (copy_from_iter(ids, chunk, from) != chunk)
			return done ? done : -EFAULT;
		gleam_ctl_kick_ids(d, ids, chunk / sizeof(u64));
		done += chunk;
	}
	return done;
}

static __poll_t gleam_ctl_poll(struct file *file, poll_table *wait)
{
	struct gleam_daemon *d = file->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	poll_wait(file, &d->wq, wait);
	if (!list_empty_careful(&d->events))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

/* The offset names the session: id << GLEAM_VGPU_MAP_SHIFT. */
static int gleam_ctl_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct gleam_daemon *d = file->private_data;
	unsigned long id = vma->vm_pgoff >> (GLEAM_VGPU_MAP_SHIFT - PAGE_SHIFT);
	struct gleam_session *s;
	int err;

	if (!READ_ONCE(d->gen))
		return -EINVAL;
	if (vma->vm_pgoff & GLEAM_MAP_PGMASK)
		return -EINVAL;
	if (!id || id > INT_MAX)
		return -ENXIO;

	xa_lock(&gleam_sessions);
	s = xa_load(&gleam_sessions, id);
	if (s && READ_ONCE(s->ann_gen) == d->gen)
		kref_get(&s->ref);
	else
		s = NULL;
	xa_unlock(&gleam_sessions);
	if (!s)
		return -ENXIO;

	err = gleam_ring_mmap(s, vma);
	gleam_session_put(s);
	return err;
}

static const struct file_operations gleam_ctl_fops = {
	.owner = THIS_MODULE,
	.open = gleam_ctl_open,
	.release = gleam_ctl_release,
	.read_iter = gleam_ctl_read_iter,
	.write_iter = gleam_ctl_write_iter,
	.poll = gleam_ctl_poll,
	.mmap = gleam_ctl_mmap,
	.unlocked_ioctl = gleam_ctl_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

struct miscdevice gleam_control_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = GLEAM_VGPU_CONTROL_NAME,
	.fops = &gleam_ctl_fops,
	.mode = 0600,
};
