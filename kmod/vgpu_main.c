// SPDX-License-Identifier: GPL-2.0
/*
 * gleam_vgpu.ko: virtual GPU nodes whose sessions are served by gleamd.
 *
 * This file owns the module, the device class and the /dev/vgpuN nodes
 * with their sysfs counters.  Sessions are in vgpu_session.c, the daemon's
 * control node in vgpu_control.c, the netlink family in vgpu_netlink.c.
 */
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "vgpu.h"

/* See vgpu.h for what each lock protects and their order. */
DEFINE_MUTEX(gleam_lock);
DEFINE_SPINLOCK(gleam_ev_lock);
DEFINE_XARRAY_ALLOC1(gleam_sessions);
struct gleam_daemon *gleam_daemon;
struct gleam_vgpu *gleam_vgpus[GLEAM_VGPU_MAX];
unsigned int gleam_nr_vgpus;

static unsigned int nr_vgpus = 2;
module_param(nr_vgpus, uint, 0444);
MODULE_PARM_DESC(nr_vgpus, "number of /dev/vgpuN nodes at load (changeable by gleamd)");

static dev_t gleam_devt;
static struct cdev gleam_cdev;

static struct gleam_vgpu *to_vgpu(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/* The atomic64_t counters share one show routine; each names its field. */
struct gleam_counter_attr {
	struct device_attribute attr;
	size_t offset;
};

static ssize_t gleam_counter_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct gleam_counter_attr *ca =
		container_of(attr, struct gleam_counter_attr, attr);
	atomic64_t *counter = (void *)to_vgpu(dev) + ca->offset;

	return sysfs_emit(buf, "%lld\n", atomic64_read(counter));
}

static struct gleam_counter_attr gleam_attr_sessions_opened = {
	.attr = __ATTR(sessions_opened, 0444, gleam_counter_show, NULL),
	.offset = offsetof(struct gleam_vgpu, sessions_opened),
};

static struct gleam_counter_attr gleam_attr_kicks_to_daemon = {
	.attr = __ATTR(kicks_to_daemon, 0444, gleam_counter_show, NULL),
	.offset = offsetof(struct gleam_vgpu, kicks_to_daemon),
};

static struct gleam_counter_attr gleam_attr_kicks_to_app = {
	.attr = __ATTR(kicks_to_app, 0444, gleam_counter_show, NULL),
	.offset = offsetof(struct gleam_vgpu, kicks_to_app),
};

static struct gleam_counter_attr gleam_attr_waits = {
	.attr = __ATTR(waits, 0444, gleam_counter_show, NULL),
	.offset = offsetof(struct gleam_vgpu, waits),
};

static struct gleam_counter_attr gleam_attr_wait_timeouts = {
	.attr = __ATTR(wait_timeouts, 0444, gleam_counter_show, NULL),
	.offset = offsetof(struct gleam_vgpu, wait_timeouts),
};

static struct gleam_counter_attr gleam_attr_ring_bytes = {
	.attr = __ATTR(ring_bytes, 0444, gleam_counter_show, NULL),
	.offset = offsetof(struct gleam_vgpu, ring_bytes),
};

static ssize_t sessions_active_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_vgpu(dev)->active));
}
static DEVICE_ATTR_RO(sessions_active);

static struct attribute *gleam_vgpu_attrs[] = {
	&gleam_attr_sessions_opened.attr.attr,
	&dev_attr_sessions_active.attr,
	&gleam_attr_kicks_to_daemon.attr.attr,
	&gleam_attr_kicks_to_app.attr.attr,
	&gleam_attr_waits.attr.attr,
	&gleam_attr_wait_timeouts.attr.attr,
	&gleam_attr_ring_bytes.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(gleam_vgpu);

static struct class gleam_class = {
	.name = "gleam_vgpu",
	.owner = THIS_MODULE,
	.dev_groups = gleam_vgpu_groups,
};

static int gleam_vgpu_create(unsigned int index)
{
	struct gleam_vgpu *v;

	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	v->index = index;
	v->dev = device_create(&gleam_class, NULL,
			       MKDEV(MAJOR(gleam_devt), index), v,
			       GLEAM_VGPU_NODE_PREFIX "%u", index);
	if (IS_ERR(v->dev)) {
		int err = PTR_ERR(v->dev);

		kfree(v);
		return err;
	}
	gleam_vgpus[index] = v;
	return 0;
}

/*
 * device_destroy() removes the sysfs files and waits for readers, so the
 * counters may be freed right after it.
 */
static void gleam_vgpu_destroy(unsigned int index)
{
	struct gleam_vgpu *v = gleam_vgpus[index];

	gleam_vgpus[index] = NULL;
	device_destroy(&gleam_class, MKDEV(MAJOR(gleam_devt), index));
	kfree(v);
}

/*
 * Called under gleam_lock.  Opening /dev/vgpuN takes the same lock to look
 * the device up and count the session, so a device with no sessions here
 * cannot gain one while it is removed.
 */
int gleam_set_nr_vgpus(unsigned int nr)
{
	unsigned int i, old = gleam_nr_vgpus;
	int err;

	lockdep_assert_held(&gleam_lock);
	if (nr > GLEAM_VGPU_MAX)
		return -EINVAL;
	for (i = nr; i < old; i++)
		if (gleam_vgpus[i]->active)
			return -EBUSY;
	for (i = old; i < nr; i++) {
		err = gleam_vgpu_create(i);
		if (err)
			goto out_destroy_new;
	}
	for (i = nr; i < old; i++)
		gleam_vgpu_destroy(i);
	gleam_nr_vgpus = nr;
	nr_vgpus = nr;
	return 0;

out_destroy_new:
	while (i-- > old)
		gleam_vgpu_destroy(i);
	return err;
}

static int __init gleam_vgpu_init(void)
{
	int err;

	if (nr_vgpus > GLEAM_VGPU_MAX)
		return -EINVAL;
	gleam_ring_mem_init();

	err = class_register(&gleam_class);
	if (err)
		return err;
	err = alloc_chrdev_region(&gleam_devt, 0, GLEAM_VGPU_MAX, "gleam_vgpu");
	if (err)
		goto out_unregister_class;
	cdev_init(&gleam_cdev, &gleam_vgpu_fops);
	gleam_cdev.owner = THIS_MODULE;
	err = cdev_add(&gleam_cdev, gleam_devt, GLEAM_VGPU_MAX);
	if (err)
		goto out_unregister_region;

	mutex_lock(&gleam_lock);
	err = gleam_set_nr_vgpus(nr_vgpus);
	mutex_unlock(&gleam_lock);
	if (err)
		goto out_del_cdev;

	err = gleam_nl_init();
	if (err)
		goto out_destroy_vgpus;
	err = misc_register(&gleam_control_dev);
	if (err)
		goto out_exit_nl;
	return 0;

out_exit_nl:
	gleam_nl_exit();
out_destroy_vgpus:
	mutex_lock(&gleam_lock);
	gleam_set_nr_vgpus(0);
	mutex_unlock(&gleam_lock);
out_del_cdev:
	cdev_del(&gleam_cdev);
out_unregister_region:
	unregister_chrdev_region(gleam_devt, GLEAM_VGPU_MAX);
out_unregister_class:
	class_unregister(&gleam_class);
	return err;
}

/*
 * Every file of this module holds a module reference and every session
 * object lives no longer than some file, so nothing is open here.
 */
static void __exit gleam_vgpu_exit(void)
{
	misc_deregister(&gleam_control_dev);
	gleam_nl_exit();
	mutex_lock(&gleam_lock);
	gleam_set_nr_vgpus(0);
	mutex_unlock(&gleam_lock);
	cdev_del(&gleam_cdev);
	unregister_chrdev_region(gleam_devt, GLEAM_VGPU_MAX);
	class_unregister(&gleam_class);
	xa_destroy(&gleam_sessions);
	gleam_ring_mem_exit();
}

module_init(gleam_vgpu_init);
module_exit(gleam_vgpu_exit);

MODULE_DESCRIPTION("Gleam virtual GPU nodes served by gleamd");
MODULE_LICENSE("GPL");
