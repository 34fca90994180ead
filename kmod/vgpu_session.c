// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions: each open of /dev/vgpuN.
 *
 * A session owns a ring region in the layout of uapi/gleam_ring.h.  Its
 * pages are allocated here, charged to the opener's memory cgroup and to
 * the module's bound on ring memory (ring_mem_max_mb), and mapped whole,
 * as raw frames, into the application (offset 0 of its file) and into
 * gleamd (through the control file).  The kernel writes the
 * layout page once and never reads the ring afterwards.
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>

#include "vgpu.h"

static unsigned int max_sessions = 1024;
module_param(max_sessions, uint, 0444);
MODULE_PARM_DESC(max_sessions, "open sessions allowed on all nodes together");

/*
 * A ring outlives its session's file for as long as a mapping of it does,
 * so the number of open sessions does not bound the memory the rings hold;
 * this does.  0 at load means a quarter of RAM, and the parameter then
 * shows the bound in force.
 */
static unsigned int ring_mem_max_mb;
module_param(ring_mem_max_mb, uint, 0444);
MODULE_PARM_DESC(ring_mem_max_mb, "MiB of ring memory held by all sessions together (0: a quarter of RAM)");

static unsigned int gleam_nr_sessions;	/* under gleam_lock */
static u32 gleam_next_id;		/* under the xarray's lock */

/* In bytes: the bound, set at load, and what the rings alive hold. */
static u64 gleam_ring_mem_max;
static atomic64_t gleam_ring_mem = ATOMIC64_INIT(0);

void gleam_ring_mem_init(void)
{
	if (!ring_mem_max_mb)
		ring_mem_max_mb = min_t(unsigned long, UINT_MAX,
					(totalram_pages() >>
					 (20 - PAGE_SHIFT)) / 4);
	gleam_ring_mem_max = (u64)ring_mem_max_mb << 20;
}

/* Every ring is freed with its last file or mapping, before unload. */
void gleam_ring_mem_exit(void)
{
	WARN_ON(atomic64_read(&gleam_ring_mem));
}

/*
 * Counted before the pages are allocated, so that concurrent setups cannot
 * together pass the bound.  A setup may be refused for another's charge
 * that is then given back, which only errs towards ENOMEM.
 */
static bool gleam_ring_mem_charge(u64 bytes)
{
	if (atomic64_add_return(bytes, &gleam_ring_mem) > gleam_ring_mem_max) {
		atomic64_sub(bytes, &gleam_ring_mem);
		return false;
	}
	return true;
}

/* The ring's charge goes with it, whether it was set up or half built. */
static void gleam_ring_free(struct gleam_ring_mem *ring)
{
	unsigned long i;

	for (i = 0; i < ring->nr_pages; i++)
		if (ring->pages[i])
			__free_page(ring->pages[i]);
	kvfree(ring->pages);
	atomic64_sub(ring->info.region_size, &gleam_ring_mem);
	kfree(ring);
}

static void gleam_session_free(struct kref *ref)
{
	struct gleam_session *s = container_of(ref, struct gleam_session, ref);

	if (s->ring)
		gleam_ring_free(s->ring);
	kfree(s->end_rec);
	kfree(s);
}

void gleam_session_put(struct gleam_session *s)
{
	kref_put(&s->ref, gleam_session_free);
}

static void gleam_ring_write_layout(struct gleam_ring_mem *ring)
{
	struct gleam_ring_layout *lay = page_address(ring->pages[0]);
	const struct gleam_vgpu_ring_info *info = &ring->info;

	lay->magic = GLEAM_RING_MAGIC;
	lay->version = GLEAM_RING_VERSION;
	lay->region_size = info->region_size;
	lay->sq_ctl_off = info->sq_ctl_off;
	lay->sq_data_off = info->sq_data_off;
	lay->sq_shift = info->sq_shift;
	lay->cq_shift = info->cq_shift;
	lay->cq_ctl_off = info->cq_ctl_off;
	lay->cq_data_off = info->cq_data_off;
	lay->features = 0;
}

/*
 * Each part starts on a page so that the application and gleamd can map
 * the region whole, and so that the control blocks of the two directions
 * never share a page with data.  The size is the caller's to choose, so a
 * failed allocation is an answer (ENOMEM), not a warning in the log; and
 * since any user who may open a node may ask, the allocation fails rather
 * than call the OOM killer (__GFP_RETRY_MAYFAIL), and rings together stay
 * under gleam_ring_mem_max.
 */
static struct gleam_ring_mem *gleam_ring_alloc(u32 sq_shift, u32 cq_shift)
{
	struct gleam_vgpu_ring_info *info;
	struct gleam_ring_mem *ring;
	unsigned long i;
	int err = -ENOMEM;

	BUILD_BUG_ON(GLEAM_RING_LAYOUT_SIZE > PAGE_SIZE);
	BUILD_BUG_ON(sizeof(struct gleam_ring_layout) > GLEAM_RING_LAYOUT_SIZE);
	BUILD_BUG_ON(sizeof(struct gleam_ring_ctl) > PAGE_SIZE);
	BUILD_BUG_ON(GLEAM_RING_MIN_SHIFT < PAGE_SHIFT);
	BUILD_BUG_ON(GLEAM_RING_MAX_SHIFT + 2 > GLEAM_VGPU_MAP_SHIFT);

	ring = kzalloc(sizeof(*ring), GFP_KERNEL_ACCOUNT);
	if (!ring)
		return ERR_PTR(-ENOMEM);
	info = &ring->info;
	info->sq_shift = sq_shift;
	info->cq_shift = cq_shift;
	info->sq_ctl_off = PAGE_SIZE;
	info->cq_ctl_off = 2 * PAGE_SIZE;
	info->sq_data_off = 3 * PAGE_SIZE;
	info->cq_data_off = info->sq_data_off + (1ULL << sq_shift);
	info->region_size = info->cq_data_off + (1ULL << cq_shift);
	ring->nr_pages = info->region_size >> PAGE_SHIFT;
	if (!gleam_ring_mem_charge(info->region_size))
		goto out_free_ring;

	ring->pages = kvcalloc(ring->nr_pages, sizeof(*ring->pages),
			       GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
			       __GFP_NOWARN);
	if (!ring->pages)
		goto out_uncharge;
	for (i = 0; i < ring->nr_pages; i++) {
		ring->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO |
					    __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
		if (!ring->pages[i])
			goto out_free_pages;
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			goto out_free_pages;
		}
		cond_resched();
	}
	gleam_ring_write_layout(ring);
	return ring;

out_free_pages:
	gleam_ring_free(ring);
	return ERR_PTR(err);
out_uncharge:
	atomic64_sub(info->region_size, &gleam_ring_mem);
out_free_ring:
	kfree(ring);
	return ERR_PTR(err);
}

/*
 * Allocates the region once.  The announcement to gleamd happens after the
 * region is published, under gleam_lock, so that HELLO and setup never both
 * announce one session.
 */
static int gleam_session_setup(struct gleam_session *s, u32 sq_shift,
			       u32 cq_shift)
{
	struct gleam_ring_mem *ring;
	int err = 0;

	mutex_lock(&s->setup_lock);
	if (s->ring) {
		err = -EBUSY;
		goto out_unlock;
	}
	ring = gleam_ring_alloc(sq_shift, cq_shift);
	if (IS_ERR(ring)) {
		err = PTR_ERR(ring);
		goto out_unlock;
	}
	/* Publish after the layout; see gleam_session_ring(). */
	smp_store_release(&s->ring, ring);
	atomic64_add(ring->info.region_size, &s->vgpu->ring_bytes);
out_unlock:
	mutex_unlock(&s->setup_lock);
	if (err)
		return err;

	mutex_lock(&gleam_lock);
	if (gleam_daemon)
		gleam_announce(gleam_daemon, s);
	mutex_unlock(&gleam_lock);
	return 0;
}

/* Called under gleam_ev_lock; the first error sticks. */
void gleam_session_fail(struct gleam_session *s, int error)
{
	lockdep_assert_held(&gleam_ev_lock);
	if (!s->error)
		WRITE_ONCE(s->error, error);
	wake_up_all(&s->wq);
}

/*
 * The daemon's doorbell.  Called with the session known to be open (under
 * the xarray lock), so s->vgpu is valid.  wq_has_sleeper() orders the store
 * of app_pending before the check, pairing with the waiter's barrier.
 */
void gleam_session_kick_app(struct gleam_session *s)
{
	atomic_set(&s->app_pending, 1);
	atomic64_inc(&s->vgpu->kicks_to_app);
	if (wq_has_sleeper(&s->wq))
		wake_up(&s->wq);
}

static int gleam_vgpu_open(struct inode *inode, struct file *file)
{
	unsigned int index = iminor(inode);
	struct gleam_session *s;
	struct gleam_vgpu *v;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	s->end_rec = kzalloc(sizeof(*s->end_rec), GFP_KERNEL_ACCOUNT);
	if (!s->end_rec) {
		err = -ENOMEM;
		goto out_free_session;
	}
	kref_init(&s->ref);
	mutex_init(&s->setup_lock);
	init_waitqueue_head(&s->wq);
	INIT_LIST_HEAD(&s->ev.link);
	INIT_LIST_HEAD(&s->end_rec->ev.link);
	s->end_rec->ev.is_end = true;
	s->pid = task_tgid_nr(current);
	s->uid = from_kuid_munged(&init_user_ns, current_uid());

	mutex_lock(&gleam_lock);
	v = index < gleam_nr_vgpus ? gleam_vgpus[index] : NULL;
	if (!v) {
		err = -ENODEV;
		goto out_unlock;
	}
	if (gleam_nr_sessions >= max_sessions) {
		err = -ENOSPC;
		goto out_unlock;
	}
	s->vgpu = v;
	s->vgpu_index = index;
	err = xa_alloc_cyclic(&gleam_sessions, &s->id, s,
			      XA_LIMIT(1, INT_MAX), &gleam_next_id, GFP_KERNEL);
	if (err < 0)
		goto out_unlock;
	v->active++;
	gleam_nr_sessions++;
	atomic64_inc(&v->sessions_opened);
	mutex_unlock(&gleam_lock);

	file->private_data = s;
	nonseekable_open(inode, file);
	gleam_nl_session_opened(s);
	return 0;

out_unlock:
	mutex_unlock(&gleam_lock);
	kfree(s->end_rec);
out_free_session:
	kfree(s);
	return err;
}

/*
 * The last close of the application's file (exit and death included) ends
 * the session at once: gleamd is told through its queue and netlink, and
 * the memory goes when gleamd unmaps it.
 */
static int gleam_vgpu_release(struct inode *inode, struct file *file)
{
	struct gleam_session *s = file->private_data;
	struct gleam_vgpu *v = s->vgpu;
	u32 reason = GLEAM_VGPU_END_CLOSED, sig = 0;
	struct gleam_end_rec *er;
	struct gleam_daemon *d;
	bool drop_queue_ref = false;

	if (current->flags & PF_EXITING) {
		reason = GLEAM_VGPU_END_EXITED;
		if (current->signal->flags & SIGNAL_GROUP_EXIT)
			sig = current->signal->group_exit_code & 0x7f;
	}

	mutex_lock(&gleam_lock);
	xa_erase(&gleam_sessions, s->id);
	spin_lock(&gleam_ev_lock);
	if (!list_empty(&s->ev.link)) {
		list_del_init(&s->ev.link);
		s->ev_pending = 0;
		drop_queue_ref = true;
	}
	d = gleam_daemon;
	if (d && s->ann_gen == d->gen && s->open_delivered) {
		er = s->end_rec;
		s->end_rec = NULL;
		er->session = s->id;
		er->vgpu = s->vgpu_index;
		er->reason = reason;
		er->signal = sig;
		list_add_tail(&er->ev.link, &d->events);
		wake_up_poll(&d->wq, EPOLLIN | EPOLLRDNORM);
	}
	spin_unlock(&gleam_ev_lock);
	v->active--;
	gleam_nr_sessions--;
	if (s->ring)
		atomic64_sub(s->ring->info.region_size, &v->ring_bytes);
	mutex_unlock(&gleam_lock);

	gleam_nl_session_ended(s, reason, sig);
	if (drop_queue_ref)
		gleam_session_put(s);
	gleam_session_put(s);
	return 0;
}

static long gleam_ioc_setup(struct gleam_session *s, void __user *argp)
{
	struct gleam_vgpu_setup su;
	u32 sq, cq;
	int err;

	if (copy_from_user(&su, argp, sizeof(su)))
		return -EFAULT;
	if (su.flags || su.reserved0 ||
	    memchr_inv(su.reserved, 0, sizeof(su.reserved)))
		return -EINVAL;
	sq = su.sq_shift ? su.sq_shift : GLEAM_VGPU_DEFAULT_SHIFT;
	cq = su.cq_shift ? su.cq_shift : GLEAM_VGPU_DEFAULT_SHIFT;
	if (sq < GLEAM_RING_MIN_SHIFT || sq > GLEAM_RING_MAX_SHIFT ||
	    cq < GLEAM_RING_MIN_SHIFT || cq > GLEAM_RING_MAX_SHIFT)
		return -EINVAL;

	err = gleam_session_setup(s, sq, cq);
	if (err)
		return err;

	memset(&su, 0, sizeof(su));
	su.sq_shift = sq;
	su.cq_shift = cq;
	su.session = s->id;
	su.vgpu = s->vgpu_index;
	su.ring = s->ring->info;
	if (copy_to_user(argp, &su, sizeof(su)))
		return -EFAULT;
	return 0;
}

/*
 * The application's doorbell.  It costs a lock only when gleamd asked for
 * kick events, and queues the session at most once until gleamd reads it.
 */
static long gleam_ioc_kick(struct gleam_session *s, unsigned long arg)
{
	struct gleam_daemon *d;
	int err;

	if (arg)
		return -EINVAL;
	if (!gleam_session_ring(s))
		return -EINVAL;
	err = READ_ONCE(s->error);
	if (err)
		return err;
	atomic64_inc(&s->vgpu->kicks_to_daemon);

	spin_lock(&gleam_ev_lock);
	d = gleam_daemon;
	if (d && s->ann_gen == d->gen &&
	    (d->features & GLEAM_VGPU_F_KICK_EVENTS) &&
	    !(s->ev_pending & GLEAM_EVP_KICK)) {
		s->ev_pending |= GLEAM_EVP_KICK;
		if (list_empty(&s->ev.link)) {
			kref_get(&s->ref);
			list_add_tail(&s->ev.link, &d->events);
		}
		wake_up_poll(&d->wq, EPOLLIN | EPOLLRDNORM);
	}
	spin_unlock(&gleam_ev_lock);
	return 0;
}

static bool gleam_wait_done(struct gleam_session *s)
{
	return atomic_read(&s->app_pending) || READ_ONCE(s->error);
}

/*
 * A pending kick is reported before an error, so that an application
 * drains the replies gleamd wrote before it went away.
 */
static long gleam_ioc_wait(struct gleam_session *s, void __user *argp)
{
	struct gleam_vgpu_wait w;
	int err, ret;

	if (copy_from_user(&w, argp, sizeof(w)))
		return -EFAULT;
	if (w.flags || w.reserved)
		return -EINVAL;
	if (!gleam_session_ring(s))
		return -EINVAL;
	if (atomic_xchg(&s->app_pending, 0))
		return 0;
	err = READ_ONCE(s->error);
	if (err)
		return err;
	if (!w.timeout_ns)
		return -ETIMEDOUT;

	/*
	 * An hrtimer, not jiffies: a wait never ends before the time asked
	 * for, and short waits (spin, then sleep briefly) mean what they say.
	 * Only a fatal signal ends it early.
	 */
	atomic64_inc(&s->vgpu->waits);
	ret = __wait_event_hrtimeout(s->wq, gleam_wait_done(s),
				     ns_to_ktime(min_t(u64, w.timeout_ns,
						       KTIME_MAX - 1)),
				     TASK_KILLABLE);
	if (ret == -ERESTARTSYS)
		return ret;
	if (atomic_xchg(&s->app_pending, 0))
		return 0;
	err = READ_ONCE(s->error);
	if (err)
		return err;
	atomic64_inc(&s->vgpu->wait_timeouts);
	return -ETIMEDOUT;
}

static long gleam_vgpu_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct gleam_session *s = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case GLEAM_VGPU_IOC_KICK:
		return gleam_ioc_kick(s, arg);
	case GLEAM_VGPU_IOC_WAIT:
		return gleam_ioc_wait(s, argp);
	case GLEAM_VGPU_IOC_SETUP:
		return gleam_ioc_setup(s, argp);
	default:
		return -ENOTTY;
	}
}

static __poll_t gleam_vgpu_poll(struct file *file, poll_table *wait)
{
	struct gleam_session *s = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &s->wq, wait);
	if (atomic_read(&s->app_pending))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(s->error))
		mask |= EPOLLERR | EPOLLHUP;
	return mask;
}

static void gleam_vm_open(struct vm_area_struct *vma)
{
	struct gleam_session *s = vma->vm_private_data;

	kref_get(&s->ref);
}

static void gleam_vm_close(struct vm_area_struct *vma)
{
	gleam_session_put(vma->vm_private_data);
}

static const struct vm_operations_struct gleam_vm_ops = {
	.open = gleam_vm_open,
	.close = gleam_vm_close,
};

/*
 * Shared, whole, never executable.  Every check comes before the reference
 * is taken: a failed ->mmap is not followed by ->close.
 *
 * The region was allocated whole at setup, so every page is mapped here,
 * as a raw frame (remap_pfn_range makes the mapping VM_IO | VM_PFNMAP):
 * nothing is left to fault in, and no page can be taken by reference
 * through the mapping (get_user_pages: vmsplice, O_DIRECT, a registered
 * buffer), which would let it outlive the ring and its charge against
 * gleam_ring_mem_max.  Reads and writes through the mapping, by the
 * process or by the kernel on its behalf (a socket's copies), are as
 * before.
 */
int gleam_ring_mmap(struct gleam_session *s, struct vm_area_struct *vma)
{
	struct gleam_ring_mem *ring = gleam_session_ring(s);
	unsigned long i;
	int err;

	if (!ring)
		return -ENODEV;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	if (vma_pages(vma) != ring->nr_pages)
		return -EINVAL;
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_flags &= ~VM_MAYEXEC;
	for (i = 0; i < ring->nr_pages; i++) {
		/* On failure the caller unmaps whatever was mapped. */
		err = remap_pfn_range(vma, vma->vm_start + (i << PAGE_SHIFT),
				      page_to_pfn(ring->pages[i]), PAGE_SIZE,
				      vma->vm_page_prot);
		if (err)
			return err;
		cond_resched();
	}
	vma->vm_ops = &gleam_vm_ops;
	vma->vm_private_data = s;
	kref_get(&s->ref);
	return 0;
}

static int gleam_vgpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct gleam_session *s = file->private_data;
	int err;

	if (vma->vm_pgoff)
		return -EINVAL;
	if (!gleam_session_ring(s)) {
		err = gleam_session_setup(s, GLEAM_VGPU_DEFAULT_SHIFT,
					  GLEAM_VGPU_DEFAULT_SHIFT);
		if (err && err != -EBUSY)
			return err;
	}
	return gleam_ring_mmap(s, vma);
}

const struct file_operations gleam_vgpu_fops = {
	.owner = THIS_MODULE,
	.open = gleam_vgpu_open,
	.release = gleam_vgpu_release,
	.unlocked_ioctl = gleam_vgpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = gleam_vgpu_poll,
	.mmap = gleam_vgpu_mmap,
	.llseek = no_llseek,
};
