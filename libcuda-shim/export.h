/* SPDX-License-Identifier: MIT */
/*
 * The runtime's private tables (cuGetExportTable), their context-local
 * storage and the integrity answer.  Private to libcuda.so.1; md2.c and
 * cls.c depend on nothing else in the shim, so the unit tests link them
 * alone.
 */
#ifndef GLEAM_SHIM_EXPORT_H
#define GLEAM_SHIM_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

/* MD2 (RFC 1319). */
struct shim_md2 {
	uint8_t x[48];		/* the state; x[0..15] is the digest */
	uint8_t sum[16];	/* the running checksum */
	uint8_t buf[16];
	size_t n;		/* bytes in buf */
};

void shim_md2_init(struct shim_md2 *c);
void shim_md2_update(struct shim_md2 *c, const void *p, size_t len);
void shim_md2_final(struct shim_md2 *c, uint8_t out[16]);
/* HMAC (RFC 2104) with MD2; the key is one 16-byte block. */
void shim_hmac_md2(const uint8_t key[16], const void *msg, size_t len, uint8_t out[16]);

/* What the integrity answer covers (Documentation/export-tables.md). */
struct shim_integrity_dev {
	uint8_t uuid[16];
	int32_t pci_domain, pci_bus, pci_device;
};

struct shim_integrity_in {
	uint32_t driver_version;
	uint32_t version;		/* the runtime's, as it asks */
	uint32_t pid;
	uint32_t thread;		/* low 32 bits of pthread_self() */
	uint64_t cudart_table;		/* address of the 6bd5fb6c table */
	uint64_t integrity_table;	/* address of the d4082055 table */
	uint64_t integrity_fn;		/* the function in its slot 1 */
	uint64_t seconds;		/* as the runtime passed it */
	unsigned int ndev;
	const struct shim_integrity_dev *dev;
};

/* 0, or -ENOMEM when the message does not fit (more than 64 devices). */
int shim_integrity_answer(const struct shim_integrity_in *in, uint64_t out[2]);

/*
 * Context-local storage: values the runtime keeps per context, keyed by
 * (context id, key).  Ids are never reused, so a recycled context object
 * never sees an old context's values.
 */
typedef void (*shim_cls_dtor)(CUcontext ctx, void *key, void *value);

/* Insert; -EEXIST for a key already there (kept, as the driver does), -ENOMEM. */
int shim_cls_put(uint64_t ctx, void *key, void *value, shim_cls_dtor dtor);
/* 0 or -ENOENT.  No lock and no allocation when the thread asked before. */
int shim_cls_get(uint64_t ctx, void *key, void **value);
/* Remove without calling the destructor; 0 or -ENOENT. */
int shim_cls_delete(uint64_t ctx, void *key);
/* The context is going away: call each destructor once, with handle, and forget. */
void shim_cls_drain(uint64_t ctx, CUcontext handle);

struct shim_ctx;
/* context.c's hook: a context is destroyed, reset or released for the last time. */
void shim_export_ctx_gone(struct shim_ctx *c);
/* context.c: the device's primary context handle, not retained. */
CUresult shim_primary_ctx(CUdevice dev, CUcontext *pctx);
/* context.c: the context everything of dev belongs to, when certain; or NULL. */
struct shim_ctx *shim_ctx_of_device(CUdevice dev);

#endif /* GLEAM_SHIM_EXPORT_H */
