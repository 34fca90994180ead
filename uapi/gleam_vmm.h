/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Virtual memory management, and the memory that Gleam keeps in step on
 * both machines (mapped page-locked memory and managed memory): what their
 * records carry beyond the argument blocks that uapi/api.tbl generates.
 * Documentation/design.md, "Virtual memory, peers, mapped and managed
 * memory", says how they are used.
 */
#ifndef _UAPI_GLEAM_VMM_H
#define _UAPI_GLEAM_VMM_H

#include <linux/types.h>

/*
 * CUmemAllocationProp without its pointer (win32HandleMetaData, which only
 * Windows uses and which must be NULL here).  cuMemCreate and
 * cuMemGetAllocationGranularity carry one after their argument block.
 */
struct gleam_mem_prop {
	__u32 type;		/* CUmemAllocationType */
	__u32 handle_types;	/* CUmemAllocationHandleType, a mask */
	__u32 location_type;	/* CUmemLocationType */
	__s32 location_id;
	__u8 compression;	/* allocFlags.compressionType */
	__u8 rdma;		/* allocFlags.gpuDirectRDMACapable */
	__u16 usage;		/* allocFlags.usage */
	__u32 reserved;		/* must be zero */
};

/* One CUmemAccessDesc: cuMemSetAccess carries count of them. */
struct gleam_access_desc {
	__u32 location_type;	/* CUmemLocationType */
	__s32 location_id;
	__u32 flags;		/* CUmemAccess_flags */
	__u32 reserved;		/* must be zero */
};

/* Descriptors one cuMemSetAccess may carry. */
#define GLEAM_ACCESS_DESC_MAX	64

/*
 * cuMemRetainAllocationHandle carries the address it asks about as a
 * __u64 after its argument block (its prototype's void *).
 */

/*
 * Memory kept in step on both machines (a "twin"): device memory of the
 * session's own, at the device address the shim handed out, and the
 * program's host pages.  Both sides keep, per page of GLEAM_TWIN_PAGE
 * bytes, a hash of its content when the two last agreed
 * (common/pagehash.h): the shim sends the pages whose host copy changed,
 * the worker sends back the pages whose device copy changed.
 *
 * gleamTwinSet (base, size, op): GLEAM_TWIN_KEEP: the device range
 * [base, base + size) is a twin, its device copy zeroed, every page's
 * hash that of a page of zeros; GLEAM_TWIN_FORGET: no longer.
 *
 * gleamTwinPush (base, offset, len, stream, flags): len bytes follow, the
 * host copy of [base + offset, base + offset + len), written to the device
 * in order on the stream; offset is a multiple of GLEAM_TWIN_PAGE and len
 * one too, or it runs to the end of the range.
 *
 * gleamTwinPull (base, size) -> pages: the pages whose device copy changed
 * come back in DATA replies, at their offsets from base; the reply says
 * how many there were.
 */
#define GLEAM_TWIN_FORGET	0
#define GLEAM_TWIN_KEEP		1

/* gleamTwinPush: synchronise the context after the copy (its readers are on other streams). */
#define GLEAM_TWIN_PUSH_SYNC	(1U << 0)
#define GLEAM_TWIN_PUSH_KNOWN	GLEAM_TWIN_PUSH_SYNC

#define GLEAM_TWIN_PAGE		4096u
/* The largest twin: 1 TiB. */
#define GLEAM_TWIN_MAX		(1ull << 40)

#endif /* _UAPI_GLEAM_VMM_H */
