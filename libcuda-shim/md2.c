// SPDX-License-Identifier: MIT
/*
 * MD2 (RFC 1319), HMAC over it, and the integrity answer cudart checks
 * before it trusts a driver.  MD2 is long broken as a hash; it is here only
 * because the runtime asks for exactly this answer.  Nothing here depends
 * on the rest of the shim: the unit tests link this file alone.
 */
#include <errno.h>
#include <string.h>

#include "export.h"

/* RFC 1319's substitution table, a permutation built from the digits of pi. */
static const uint8_t md2_s[256] = {
	41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19,
	98, 167, 5, 243, 192, 199, 115, 140, 152, 147, 43, 217, 188, 76, 130, 202,
	30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229, 18,
	190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122,
	169, 104, 121, 145, 21, 178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33,
	128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191, 247, 151, 3,
	255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198,
	79, 184, 56, 210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241,
	69, 157, 112, 89, 100, 113, 135, 32, 134, 91, 207, 101, 230, 45, 168, 2,
	27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15,
	85, 71, 163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186, 197, 234, 38,
	44, 83, 13, 110, 133, 40, 132, 9, 211, 223, 205, 244, 65, 129, 77, 82,
	106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
	120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57,
	242, 239, 183, 14, 102, 88, 208, 228, 166, 119, 114, 248, 235, 117, 75, 10,
	49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17, 131, 20,
};

/* One 16-byte block into the state (RFC 1319 step 4). */
static void md2_block(struct shim_md2 *c, const uint8_t b[16])
{
	unsigned int t = 0;

	for (int j = 0; j < 16; j++) {
		c->x[16 + j] = b[j];
		c->x[32 + j] = (uint8_t)(b[j] ^ c->x[j]);
	}
	for (int j = 0; j < 18; j++) {
		for (int k = 0; k < 48; k++)
			t = c->x[k] ^= md2_s[t];
		t = (t + (unsigned int)j) & 0xff;
	}
}

/* The checksum (step 2), kept as the blocks go by; as RFC 1319's errata reads it. */
static void md2_sum(struct shim_md2 *c, const uint8_t b[16])
{
	uint8_t l = c->sum[15];

	for (int j = 0; j < 16; j++)
		l = c->sum[j] ^= md2_s[b[j] ^ l];
}

void shim_md2_init(struct shim_md2 *c)
{
	memset(c, 0, sizeof(*c));
}

void shim_md2_update(struct shim_md2 *c, const void *p, size_t len)
{
	const uint8_t *s = p;

	while (len) {
		size_t k = 16 - c->n;

		if (k > len)
			k = len;
		memcpy(c->buf + c->n, s, k);
		c->n += k;
		s += k;
		len -= k;
		if (c->n == 16) {
			md2_sum(c, c->buf);
			md2_block(c, c->buf);
			c->n = 0;
		}
	}
}

void shim_md2_final(struct shim_md2 *c, uint8_t out[16])
{
	uint8_t pad = (uint8_t)(16 - c->n);
	uint8_t sum[16];

	/* Step 1: always pad, with pad bytes of value pad. */
	memset(c->buf + c->n, pad, pad);
	md2_sum(c, c->buf);
	md2_block(c, c->buf);
	memcpy(sum, c->sum, sizeof(sum));
	md2_block(c, sum);
	memcpy(out, c->x, 16);
	memset(c, 0, sizeof(*c));
}

void shim_hmac_md2(const uint8_t key[16], const void *msg, size_t len, uint8_t out[16])
{
	struct shim_md2 c;
	uint8_t pad[16], inner[16];

	for (int i = 0; i < 16; i++)
		pad[i] = key[i] ^ 0x36;
	shim_md2_init(&c);
	shim_md2_update(&c, pad, sizeof(pad));
	shim_md2_update(&c, msg, len);
	shim_md2_final(&c, inner);
	for (int i = 0; i < 16; i++)
		pad[i] = key[i] ^ 0x5c;
	shim_md2_init(&c);
	shim_md2_update(&c, pad, sizeof(pad));
	shim_md2_update(&c, inner, sizeof(inner));
	shim_md2_final(&c, out);
}

/* ---- the integrity answer ---- */

static const uint8_t integrity_key[16] = {
	0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
	0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f,
};

#define INTEGRITY_DEV_MAX	64
#define INTEGRITY_HEAD		48
#define INTEGRITY_DEV		28

static uint8_t *put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		*p++ = (uint8_t)(v >> (8 * i));
	return p;
}

/*
 * The answer for the runtime's versions ending in 0 and 1 is a constant;
 * for the others, a keyed hash over who is asking (process, thread), what
 * it holds (the tables' addresses), when, and which devices it sees.  It
 * must be computed over the shim's own tables: the runtime hashes the
 * pointers it received.
 */
int shim_integrity_answer(const struct shim_integrity_in *in, uint64_t out[2])
{
	uint8_t msg[INTEGRITY_HEAD + INTEGRITY_DEV_MAX * INTEGRITY_DEV], *p = msg;
	uint8_t d[16];

	if (in->version % 10 < 2) {
		out[0] = in->version % 10 ? 0x1841181C03CB675Cull : 0x3341181C03CB675Cull;
		out[1] = 0x8ED383AA1F4CD1E8ull;
		return 0;
	}
	if (in->ndev > INTEGRITY_DEV_MAX)
		return -ENOMEM;
	p = put_le(p, in->driver_version, 4);
	p = put_le(p, in->version, 4);
	p = put_le(p, in->pid, 4);
	p = put_le(p, in->thread, 4);
	p = put_le(p, in->cudart_table, 8);
	p = put_le(p, in->integrity_table, 8);
	p = put_le(p, in->integrity_fn, 8);
	p = put_le(p, in->seconds, 8);
	for (unsigned int i = 0; i < in->ndev; i++) {
		memcpy(p, in->dev[i].uuid, 16);
		p += 16;
		p = put_le(p, (uint32_t)in->dev[i].pci_domain, 4);
		p = put_le(p, (uint32_t)in->dev[i].pci_bus, 4);
		p = put_le(p, (uint32_t)in->dev[i].pci_device, 4);
	}
	shim_hmac_md2(integrity_key, msg, (size_t)(p - msg), d);
	out[0] = out[1] = 0;
	for (int i = 7; i >= 0; i--) {
		out[0] = out[0] << 8 | d[i];
		out[1] = out[1] << 8 | d[8 + i];
	}
	return 0;
}
