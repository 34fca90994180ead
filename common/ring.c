// SPDX-License-Identifier: MIT
/* Single-producer single-consumer byte rings in a shared region. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gleam_record.h"
#include "ring.h"

#define LOAD_ACQ(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE_REL(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define LOAD_RELAXED(p)	__atomic_load_n((p), __ATOMIC_RELAXED)
#define FENCE()		__atomic_thread_fence(__ATOMIC_SEQ_CST)

size_t gl_ring_region_size(unsigned int sq_shift, unsigned int cq_shift)
{
	return GLEAM_RING_LAYOUT_SIZE + 2 * 4096 + ((size_t)1 << sq_shift) +
	       ((size_t)1 << cq_shift);
}

void gl_ring_format(void *mem, unsigned int sq_shift, unsigned int cq_shift)
{
	struct gleam_ring_layout *l = mem;

	memset(mem, 0, GLEAM_RING_LAYOUT_SIZE + 2 * 4096);
	l->magic = GLEAM_RING_MAGIC;
	l->version = GLEAM_RING_VERSION;
	l->region_size = gl_ring_region_size(sq_shift, cq_shift);
	l->sq_ctl_off = GLEAM_RING_LAYOUT_SIZE;
	l->cq_ctl_off = GLEAM_RING_LAYOUT_SIZE + 4096;
	l->sq_data_off = GLEAM_RING_LAYOUT_SIZE + 2 * 4096;
	l->sq_shift = sq_shift;
	l->cq_shift = cq_shift;
	l->cq_data_off = l->sq_data_off + ((size_t)1 << sq_shift);
}

int gl_ring_memfd(unsigned int sq_shift, unsigned int cq_shift)
{
	size_t sz = gl_ring_region_size(sq_shift, cq_shift);
	void *mem;
	int fd;

	if (sq_shift < GLEAM_RING_MIN_SHIFT || sq_shift > GLEAM_RING_MAX_SHIFT ||
	    cq_shift < GLEAM_RING_MIN_SHIFT || cq_shift > GLEAM_RING_MAX_SHIFT)
		return -EINVAL;
	fd = memfd_create("gleam-ring", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)sz) < 0)
		goto fail;
	mem = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		goto fail;
	gl_ring_format(mem, sq_shift, cq_shift);
	munmap(mem, sz);
	return fd;
fail:
	{
		int err = -errno;

		close(fd);
		return err;
	}
}

static int attach_dir(struct gl_ring_dir *d, unsigned char *base, size_t len,
		      uint64_t ctl_off, uint64_t data_off, uint32_t shift)
{
	uint64_t size;

	if (shift < GLEAM_RING_MIN_SHIFT || shift > GLEAM_RING_MAX_SHIFT)
		return -EINVAL;
	size = (uint64_t)1 << shift;
	if (ctl_off > len || len - ctl_off < sizeof(struct gleam_ring_ctl) ||
	    (ctl_off & 63) || data_off > len || len - data_off < size ||
	    (data_off & 4095))
		return -EINVAL;
	/* The control block must not overlap the data areas. */
	if (ctl_off + sizeof(struct gleam_ring_ctl) > data_off && ctl_off < data_off + size)
		return -EINVAL;
	d->ctl = (struct gleam_ring_ctl *)(base + ctl_off);
	d->data = base + data_off;
	d->size = (uint32_t)size;
	d->mask = (uint32_t)size - 1;
	d->pos = 0;
	d->broken = false;
	return 0;
}

int gl_ring_attach(void *mem, size_t len, struct gl_ring *r)
{
	struct gleam_ring_layout l;

	if (len < GLEAM_RING_LAYOUT_SIZE)
		return -EINVAL;
	/* One copy of the layout: the other side may change it under us. */
	memcpy(&l, mem, sizeof(l));
	return gl_ring_attach_layout(mem, len, &l, r);
}

int gl_ring_attach_layout(void *mem, size_t len, const struct gleam_ring_layout *lp,
			  struct gl_ring *r)
{
	struct gleam_ring_layout l = *lp;
	int err;

	if (len < GLEAM_RING_LAYOUT_SIZE)
		return -EINVAL;
	if (l.magic != GLEAM_RING_MAGIC || l.version != GLEAM_RING_VERSION ||
	    l.region_size != len)
		return -EPROTO;
	err = attach_dir(&r->sq, mem, len, l.sq_ctl_off, l.sq_data_off, l.sq_shift);
	if (!err)
		err = attach_dir(&r->cq, mem, len, l.cq_ctl_off, l.cq_data_off, l.cq_shift);
	if (err)
		return err;
	if ((r->sq.data < r->cq.data && r->sq.data + r->sq.size > r->cq.data) ||
	    (r->cq.data < r->sq.data && r->cq.data + r->cq.size > r->sq.data) ||
	    r->sq.data == r->cq.data)
		return -EINVAL;
	r->base = mem;
	r->region_size = len;
	/* Resume where the ring stands: a restarted side joins a live ring. */
	r->sq.pos = 0;
	r->cq.pos = 0;
	return 0;
}

int gl_ring_map(int fd, struct gl_ring *r)
{
	struct stat st;
	void *mem;
	int err;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size < GLEAM_RING_LAYOUT_SIZE || st.st_size > (1LL << 30))
		return -EINVAL;
	mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	err = gl_ring_attach(mem, (size_t)st.st_size, r);
	if (err)
		munmap(mem, (size_t)st.st_size);
	return err;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif

void gl_ring_populate(struct gl_ring *r)
{
	if (r->base)
		madvise(r->base, r->region_size, MADV_POPULATE_WRITE);
}

void gl_ring_unmap(struct gl_ring *r)
{
	if (r->base)
		munmap(r->base, r->region_size);
	r->base = NULL;
}

uint32_t gl_ring_space(struct gl_ring_dir *d)
{
	uint32_t head = LOAD_ACQ(&d->ctl->head);
	uint32_t used = d->pos - head;

	if (used > d->size) {
		d->broken = true;
		return 0;
	}
	return d->size - used;
}

bool gl_ring_can_reserve(struct gl_ring_dir *d, uint32_t len)
{
	uint32_t space = gl_ring_space(d), off = d->pos & d->mask;
	uint32_t pad = off + len > d->size ? d->size - off : 0;

	return d->broken || space >= pad + len;
}

void *gl_ring_reserve(struct gl_ring_dir *d, uint32_t len)
{
	uint32_t space, off, pad;

	if (d->broken || !len || (len & 7) || len > d->size / 2)
		return NULL;
	space = gl_ring_space(d);
	off = d->pos & d->mask;
	pad = off + len > d->size ? d->size - off : 0;
	if (space < pad + len)
		return NULL;
	if (pad) {
		struct gleam_rec *p = (struct gleam_rec *)(d->data + off);

		p->len = pad;
		p->fn = GLEAM_FN_PAD;
		d->pos += pad;
		off = 0;
	}
	d->pos += len;
	return d->data + off;
}

void gl_ring_commit(struct gl_ring_dir *d)
{
	STORE_REL(&d->ctl->tail, d->pos);
}

void gl_ring_commit_to(struct gl_ring_dir *d, uint32_t pos)
{
	STORE_REL(&d->ctl->tail, pos);
}

bool gl_ring_empty(struct gl_ring_dir *d)
{
	return LOAD_ACQ(&d->ctl->tail) == d->pos;
}

const void *gl_ring_peek(struct gl_ring_dir *d, uint32_t min_len, uint32_t max_len,
			 uint32_t *len)
{
	for (;;) {
		uint32_t tail, avail, off, n;
		const unsigned char *p;
		uint16_t fn;

		if (d->broken)
			return NULL;
		tail = LOAD_ACQ(&d->ctl->tail);
		avail = tail - d->pos;
		if (!avail)
			return NULL;
		if (avail > d->size || (avail & 7))
			goto broken;
		off = d->pos & d->mask;
		p = d->data + off;
		n = LOAD_RELAXED((const uint32_t *)p);
		fn = LOAD_RELAXED((const uint16_t *)(p + 4));
		if (n < 8 || (n & 7) || n > avail || n > d->size - off)
			goto broken;
		if (fn == GLEAM_FN_PAD) {
			/* Padding only ever runs to the end of the area. */
			if (off + n != d->size)
				goto broken;
			d->pos += n;
			continue;
		}
		if (n < min_len || n > max_len)
			goto broken;
		*len = n;
		return p;
broken:
		d->broken = true;
		return NULL;
	}
}

void gl_ring_consume(struct gl_ring_dir *d, uint32_t len)
{
	d->pos += len;
}

bool gl_ring_release(struct gl_ring_dir *d, uint32_t pos)
{
	STORE_REL(&d->ctl->head, pos);
	FENCE();
	return LOAD_RELAXED(&d->ctl->prod_flags) & GLEAM_RING_PROD_NEED_WAKEUP;
}

bool gl_ring_consume_publish(struct gl_ring_dir *d)
{
	return gl_ring_release(d, d->pos);
}

void gl_ring_cons_set_sleeping(struct gl_ring_dir *d, bool on)
{
	__atomic_store_n(&d->ctl->cons_flags, on ? GLEAM_RING_CONS_NEED_WAKEUP : 0,
			 __ATOMIC_SEQ_CST);
	FENCE();
}

void gl_ring_cons_set_state(struct gl_ring_dir *d, uint32_t flags)
{
	__atomic_store_n(&d->ctl->cons_flags, flags, __ATOMIC_SEQ_CST);
	FENCE();
}

uint32_t gl_ring_cons_flags(struct gl_ring_dir *d)
{
	FENCE();
	return LOAD_RELAXED(&d->ctl->cons_flags);
}

void gl_ring_prod_set_sleeping(struct gl_ring_dir *d, bool on)
{
	uint32_t f = LOAD_RELAXED(&d->ctl->prod_flags) & GLEAM_RING_PROD_CLOSED;

	__atomic_store_n(&d->ctl->prod_flags, f | (on ? GLEAM_RING_PROD_NEED_WAKEUP : 0),
			 __ATOMIC_SEQ_CST);
	FENCE();
}

bool gl_ring_cons_sleeping(struct gl_ring_dir *d)
{
	FENCE();
	return LOAD_RELAXED(&d->ctl->cons_flags) & GLEAM_RING_CONS_NEED_WAKEUP;
}

bool gl_ring_prod_sleeping(struct gl_ring_dir *d)
{
	FENCE();
	return LOAD_RELAXED(&d->ctl->prod_flags) & GLEAM_RING_PROD_NEED_WAKEUP;
}

void gl_ring_set_closed(struct gl_ring_dir *d)
{
	__atomic_or_fetch(&d->ctl->prod_flags, GLEAM_RING_PROD_CLOSED, __ATOMIC_SEQ_CST);
}

bool gl_ring_closed(struct gl_ring_dir *d)
{
	return LOAD_ACQ(&d->ctl->prod_flags) & GLEAM_RING_PROD_CLOSED;
}
