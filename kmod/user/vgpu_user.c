// SPDX-License-Identifier: MIT
/*
 * User-space side of gleam_vgpu.ko: sessions for libcuda.so.1, the control
 * node for gleamd.  See vgpu_user.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vgpu_user.h"

static int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? neg_errno() : 0;
}

/*
 * The ring info comes from the kernel, not from the layout page that the
 * application can write, so a mapping never trusts the shared memory.
 */
static int region_map(int fd, uint64_t offset, uint64_t session,
		      const struct gleam_vgpu_ring_info *ri,
		      struct gleam_vgpu_region *reg)
{
	void *base;

	base = mmap(NULL, ri->region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, (off_t)offset);
	if (base == MAP_FAILED)
		return neg_errno();
	memset(reg, 0, sizeof(*reg));
	reg->session = session;
	reg->base = base;
	reg->ring = *ri;
	reg->sq_ctl = (struct gleam_ring_ctl *)((uint8_t *)base + ri->sq_ctl_off);
	reg->cq_ctl = (struct gleam_ring_ctl *)((uint8_t *)base + ri->cq_ctl_off);
	reg->sq_data = (uint8_t *)base + ri->sq_data_off;
	reg->cq_data = (uint8_t *)base + ri->cq_data_off;
	return 0;
}

void gleam_vgpu_region_unmap(struct gleam_vgpu_region *reg)
{
	if (reg->base)
		munmap(reg->base, reg->ring.region_size);
	reg->base = NULL;
}

int gleam_vgpu_app_open(struct gleam_vgpu_app *app, const char *path,
			unsigned int sq_shift, unsigned int cq_shift)
{
	struct gleam_vgpu_setup su;
	int err;

	memset(app, 0, sizeof(*app));
	app->fd = open(path, O_RDWR | O_CLOEXEC);
	if (app->fd < 0)
		return neg_errno();
	memset(&su, 0, sizeof(su));
	su.sq_shift = sq_shift;
	su.cq_shift = cq_shift;
	err = xioctl(app->fd, GLEAM_VGPU_IOC_SETUP, &su);
	if (err)
		goto out_close;
	err = region_map(app->fd, 0, su.session, &su.ring, &app->reg);
	if (err)
		goto out_close;
	app->vgpu = su.vgpu;
	return 0;

out_close:
	close(app->fd);
	app->fd = -1;
	return err;
}

void gleam_vgpu_app_close(struct gleam_vgpu_app *app)
{
	gleam_vgpu_region_unmap(&app->reg);
	if (app->fd >= 0)
		close(app->fd);
	app->fd = -1;
}

int gleam_vgpu_app_kick(struct gleam_vgpu_app *app)
{
	return xioctl(app->fd, GLEAM_VGPU_IOC_KICK, NULL);
}

int gleam_vgpu_app_notify(struct gleam_vgpu_app *app)
{
	if (gleam_ring_consumer_sleeps(app->reg.sq_ctl) ||
	    gleam_ring_producer_sleeps(app->reg.cq_ctl))
		return gleam_vgpu_app_kick(app);
	return 0;
}

/* A fatal signal is the only interruption, so EINTR needs no retry here. */
int gleam_vgpu_app_wait(struct gleam_vgpu_app *app, uint64_t timeout_ns)
{
	struct gleam_vgpu_wait w;

	memset(&w, 0, sizeof(w));
	w.timeout_ns = timeout_ns;
	if (ioctl(app->fd, GLEAM_VGPU_IOC_WAIT, &w) < 0)
		return neg_errno();
	return 0;
}

int gleam_vgpu_app_wait_cq(struct gleam_vgpu_app *app, uint32_t cq_head,
			   uint64_t timeout_ns)
{
	int err = 0;

	if (gleam_ring_cons_prepare_sleep(app->reg.cq_ctl, cq_head)) {
		err = gleam_vgpu_app_wait(app, timeout_ns);
		gleam_ring_cons_awake(app->reg.cq_ctl);
	}
	return err;
}

int gleam_vgpu_app_wait_sq_space(struct gleam_vgpu_app *app,
				 uint32_t sq_head_seen, uint64_t timeout_ns)
{
	int err = 0;

	if (gleam_ring_prod_prepare_sleep(app->reg.sq_ctl, sq_head_seen)) {
		err = gleam_vgpu_app_wait(app, timeout_ns);
		gleam_ring_prod_awake(app->reg.sq_ctl);
	}
	return err;
}

int gleam_vgpu_ctl_open(struct gleam_vgpu_ctl *ctl, uint64_t features,
			bool nonblock)
{
	struct gleam_vgpu_hello h;
	int err;

	memset(ctl, 0, sizeof(*ctl));
	ctl->fd = open(GLEAM_VGPU_CONTROL_PATH,
		       O_RDWR | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
	if (ctl->fd < 0)
		return neg_errno();
	memset(&h, 0, sizeof(h));
	h.version = GLEAM_VGPU_ABI_VERSION;
	h.features = features;
	err = xioctl(ctl->fd, GLEAM_VGPU_IOC_HELLO, &h);
	if (err)
		goto out_close;
	if (h.event_size != sizeof(struct gleam_vgpu_event)) {
		err = -EPROTO;
		goto out_close;
	}
	ctl->features = h.features;
	ctl->nr_vgpus = h.nr_vgpus;
	return 0;

out_close:
	close(ctl->fd);
	ctl->fd = -1;
	return err;
}

void gleam_vgpu_ctl_close(struct gleam_vgpu_ctl *ctl)
{
	if (ctl->fd >= 0)
		close(ctl->fd);
	ctl->fd = -1;
}

int gleam_vgpu_ctl_read(struct gleam_vgpu_ctl *ctl,
			struct gleam_vgpu_event *ev, unsigned int max)
{
	ssize_t n;

	do {
		n = read(ctl->fd, ev, (size_t)max * sizeof(*ev));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return neg_errno();
	if (n == 0 || n % sizeof(*ev))
		return -EPROTO;
	return (int)(n / sizeof(*ev));
}

int gleam_vgpu_ctl_wait(struct gleam_vgpu_ctl *ctl, int timeout_ms)
{
	struct pollfd p = { .fd = ctl->fd, .events = POLLIN };
	int n;

	n = poll(&p, 1, timeout_ms);
	if (n < 0)
		return neg_errno();
	return n ? 0 : -ETIMEDOUT;
}

int gleam_vgpu_ctl_map(struct gleam_vgpu_ctl *ctl,
		       const struct gleam_vgpu_event *open_ev,
		       struct gleam_vgpu_region *reg)
{
	if (open_ev->type != GLEAM_VGPU_EV_OPEN)
		return -EINVAL;
	return region_map(ctl->fd, open_ev->map_offset, open_ev->session,
			  &open_ev->ring, reg);
}

int gleam_vgpu_ctl_kick(struct gleam_vgpu_ctl *ctl, const uint64_t *ids,
			unsigned int n)
{
	size_t len = (size_t)n * sizeof(*ids), done = 0;
	ssize_t w;

	while (done < len) {
		w = write(ctl->fd, (const uint8_t *)ids + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return neg_errno();
		done += (size_t)w;
	}
	return 0;
}

bool gleam_vgpu_region_app_sleeps(struct gleam_vgpu_region *reg)
{
	return gleam_ring_consumer_sleeps(reg->cq_ctl) ||
	       gleam_ring_producer_sleeps(reg->sq_ctl);
}

int gleam_vgpu_ctl_set_nr_vgpus(struct gleam_vgpu_ctl *ctl, unsigned int nr)
{
	struct gleam_vgpu_nr_vgpus a;
	int err;

	memset(&a, 0, sizeof(a));
	a.nr = nr;
	err = xioctl(ctl->fd, GLEAM_VGPU_IOC_SET_NR_VGPUS, &a);
	if (!err)
		ctl->nr_vgpus = nr;
	return err;
}

int gleam_vgpu_ctl_end_session(struct gleam_vgpu_ctl *ctl, uint64_t session)
{
	struct gleam_vgpu_end_session e;

	memset(&e, 0, sizeof(e));
	e.session = session;
	return xioctl(ctl->fd, GLEAM_VGPU_IOC_END_SESSION, &e);
}
