// SPDX-License-Identifier: MIT
/*
 * The application side of the VM tests: records out on the SQ, replies in
 * from the CQ, through kmod/user's session API.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vm_test.h"

#define ECHO_WINDOW	8
#define ECHO_BODY_MAX	8192

/* Queue one record, sleeping while the SQ is full; kick only if needed. */
int vm_app_send(struct gleam_vgpu_app *app, struct vm_ring *sq, uint16_t fn,
		uint32_t flags, uint32_t tag, uint64_t seq,
		const void *body, uint32_t body_len)
{
	uint32_t len = sizeof(struct gleam_rec) + ((body_len + 7) & ~7U);
	uint64_t deadline = vm_now_ns() + 20 * VM_SEC;
	struct gleam_rec rec;
	uint8_t *p;
	int err;

	while (!(p = vm_ring_reserve(sq, len))) {
		if (sq->broken)
			return -EPROTO;
		if (vm_now_ns() > deadline)
			return -ETIMEDOUT;
		err = gleam_vgpu_app_wait_sq_space(app,
			__atomic_load_n(&sq->ctl->head, __ATOMIC_ACQUIRE),
			VM_SEC);
		if (err && err != -ETIMEDOUT)
			return err;
	}
	memset(&rec, 0, sizeof(rec));
	rec.len = len;
	rec.fn = fn;
	rec.flags = flags;
	rec.tag = tag;
	rec.seq = seq;
	memcpy(p, &rec, sizeof(rec));
	memset(p + sizeof(rec), 0, len - sizeof(rec));
	if (body_len)
		memcpy(p + sizeof(rec), body, body_len);
	vm_ring_commit(sq, len);
	if (gleam_ring_consumer_sleeps(sq->ctl))
		return gleam_vgpu_app_kick(app);
	return 0;
}

/* The next reply, sleeping at most timeout_ns for it. */
int vm_app_recv(struct gleam_vgpu_app *app, struct vm_ring *cq,
		struct gleam_reply *rep, void *body, uint32_t body_max,
		uint32_t *body_len, uint64_t timeout_ns)
{
	uint64_t deadline = vm_now_ns() + timeout_ns, now;
	const uint8_t *p;
	uint32_t len;
	int err;

	for (;;) {
		p = vm_ring_peek(cq, sizeof(*rep), &len);
		if (p)
			break;
		if (cq->broken)
			return -EPROTO;
		now = vm_now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		err = gleam_vgpu_app_wait_cq(app, cq->pos, deadline - now);
		if (err)
			return err;
	}
	if (len - sizeof(*rep) > body_max)
		return -EMSGSIZE;
	memcpy(rep, p, sizeof(*rep));
	*body_len = len - sizeof(*rep);
	memcpy(body, p + sizeof(*rep), *body_len);
	rep->len = len;
	vm_ring_consume(cq, len);
	if (gleam_ring_producer_sleeps(cq->ctl))
		return gleam_vgpu_app_kick(app);
	return 0;
}

static void fill_body(uint8_t *b, uint32_t n, uint64_t seq)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(seq * 131 + i * 7);
}

struct expect {
	uint64_t seq;
	uint32_t body_len;
};

static int check_reply(struct gleam_vgpu_app *app, struct vm_ring *cq,
		       const struct expect *e, uint8_t *want, uint8_t *got)
{
	uint32_t padded = (e->body_len + 7) & ~7U, got_len;
	struct gleam_reply rep;
	int err;

	err = vm_app_recv(app, cq, &rep, got, ECHO_BODY_MAX + 8, &got_len,
			  20 * VM_SEC);
	VM_CHECK(!err, "reply to seq %llu: %s", (unsigned long long)e->seq,
		 vm_err(err));
	VM_CHECK(rep.seq == e->seq && rep.tag == (uint32_t)e->seq &&
		 rep.fn == VM_FN_ECHO && rep.result == 0,
		 "reply seq %llu tag %u fn %u, want seq %llu",
		 (unsigned long long)rep.seq, rep.tag, rep.fn,
		 (unsigned long long)e->seq);
	VM_CHECK(got_len == padded, "reply body %u bytes, want %u", got_len,
		 padded);
	memset(want, 0, padded);
	fill_body(want, e->body_len, e->seq);
	VM_CHECK(!memcmp(want, got, padded), "reply body of seq %llu differs",
		 (unsigned long long)e->seq);
	return 0;
}

/*
 * nrec records of random sizes, a quarter without a reply, at most
 * ECHO_WINDOW replies outstanding: at most 66 KiB in flight, so a 64 KiB
 * CQ can fill (the daemon then waits for the application) while SQ and
 * CQ together never can.
 */
int vm_app_echo(const char *path, unsigned int shift, unsigned int nrec,
		uint64_t seed)
{
	static uint8_t body[ECHO_BODY_MAX + 8], got[ECHO_BODY_MAX + 8];
	struct expect q[ECHO_WINDOW];
	unsigned int qh = 0, qn = 0, i;
	struct gleam_vgpu_app app;
	struct vm_ring sq, cq;
	uint32_t blen, flags;
	int err;

	err = gleam_vgpu_app_open(&app, path, shift, shift);
	VM_CHECK(!err, "open %s: %s", path, vm_err(err));
	vm_ring_init(&sq, app.reg.sq_ctl, app.reg.sq_data, app.reg.ring.sq_shift);
	vm_ring_init(&cq, app.reg.cq_ctl, app.reg.cq_data, app.reg.ring.cq_shift);

	for (i = 1; i <= nrec; i++) {
		blen = (uint32_t)(vm_rand(&seed) % (ECHO_BODY_MAX + 1));
		flags = vm_rand(&seed) % 4 ? GLEAM_REC_F_REPLY : 0;
		fill_body(body, blen, i);
		err = vm_app_send(&app, &sq, VM_FN_ECHO, flags, i, i, body, blen);
		if (err)
			goto out_fail;
		if (flags) {
			q[(qh + qn++) % ECHO_WINDOW] = (struct expect){ i, blen };
			if (qn == ECHO_WINDOW) {
				if (check_reply(&app, &cq, &q[qh], body, got))
					goto out_close;
				qh = (qh + 1) % ECHO_WINDOW;
				qn--;
			}
		}
	}
	while (qn) {
		if (check_reply(&app, &cq, &q[qh], body, got))
			goto out_close;
		qh = (qh + 1) % ECHO_WINDOW;
		qn--;
	}
	gleam_vgpu_app_close(&app);
	return 0;

out_fail:
	fprintf(stderr, "  FAIL: send seq %u on %s: %s\n", i, path, vm_err(err));
out_close:
	gleam_vgpu_app_close(&app);
	return -1;
}
