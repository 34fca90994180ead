/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Gleam records of graphs built node by node and of JIT linking: what
 * follows the argument blocks that uapi/api.tbl generates for them
 * (numbers 530 to 629).  Little-endian, naturally aligned, every
 * structure a multiple of 8 bytes; reserved fields must be zero.
 * Handles are the shim's ids, as everywhere.
 */
#ifndef _UAPI_GLEAM_GRAPH_H
#define _UAPI_GLEAM_GRAPH_H

#include <linux/types.h>

#include "gleam_record.h"

/*
 * A node's parameters.  Every node the program makes, whichever function
 * it called, travels as a record of cuGraphAddNode: its argument block,
 * numDependencies node ids, then struct gleam_gnode.  A change of
 * parameters travels as cuGraphNodeSetParams (argument block, then
 * struct gleam_gnode) or cuGraphExecNodeSetParams (the same).  After the
 * structure come a kernel's parameter block (kernel.params_len bytes,
 * packed as cuLaunchKernel's) or a conditional node's body graphs
 * (cond.size ids the shim minted for the graphs the driver makes).
 *
 * ctx is the id of the context the node runs in, which the shim always
 * states (the current one where the program gave none).  Memory copies
 * name device memory and arrays only: host memory is staged by the shim.
 */
#define GLEAM_GNODE_DEPS_MAX	65536	/* dependencies of one node, edges of one call */
#define GLEAM_GNODE_BODIES_MAX	1024	/* body graphs of one conditional node */

struct gleam_gnode_kernel {
	__u64 func;		/* a function's or a kernel's id */
	__u32 grid[3];
	__u32 block[3];
	__u32 shared_bytes;
	__u32 reserved;		/* must be zero */
	__u64 params_len;	/* bytes of the parameter block that follows */
};

struct gleam_gnode_memset {
	__u64 dst;
	__u64 pitch;
	__u32 value;
	__u32 element_size;	/* 1, 2 or 4 */
	__u64 width;		/* elements */
	__u64 height;		/* rows */
};

struct gleam_gnode_alloc {
	__u64 bytesize;
	__u32 location_type;	/* CUmemLocationType: a device */
	__s32 location_id;	/* its ordinal */
	__u32 alloc_type;	/* CUmemAllocationType: pinned */
	__u32 reserved;		/* must be zero */
};

struct gleam_gnode_cond {
	__u64 handle;		/* the value cuGraphConditionalHandleCreate returned */
	__u32 type;		/* CUgraphConditionalNodeType */
	__u32 size;		/* body graphs whose ids follow */
};

struct gleam_gnode {
	__u32 type;		/* CUgraphNodeType */
	__u32 reserved;		/* must be zero */
	__u64 ctx;		/* the context's id */
	union {
		struct gleam_gnode_kernel kernel;
		struct gleam_copy copy;		/* api GLEAM_COPY_3D */
		struct gleam_gnode_memset memset;
		__u64 host;			/* a host function's id (the shim's) */
		__u64 graph;			/* a child graph's id, cloned into the node */
		__u64 event;			/* event record and wait nodes */
		struct gleam_gnode_alloc alloc;
		__u64 dptr;			/* a memory free node */
		struct gleam_gnode_cond cond;
	};
};

/* The reply to an allocation node's cuGraphAddNode: the address the driver chose. */
struct gleam_gnode_alloc_reply {
	__u64 dptr;
};

/*
 * cuGraphClone: after its argument block, the count of node pairs, then
 * the pairs: each node of the original the shim knows and the id it
 * minted for the node's copy in the clone.
 */
struct gleam_clone_pair {
	__u64 orig;
	__u64 copy;
};

/*
 * cuGraphExecUpdate: the driver's CUgraphExecUpdateResultInfo, sent as a
 * DATA piece at offset 0 before the result (a failed update is when it
 * matters, and a failure's reply carries nothing); nodes as ids, 0 none.
 */
struct gleam_exec_update {
	__u32 result;		/* CUgraphExecUpdateResult */
	__u32 reserved;
	__u64 error_node;
	__u64 error_from;
};

/*
 * cuGraphAddDependencies and cuGraphRemoveDependencies: after the argument
 * block, numDependencies ids of the nodes depended on, then as many of
 * the nodes that depend on them.
 */

/*
 * JIT linking.  Options travel as (option, value) pairs after the
 * argument block of cuLinkCreate and cuLinkAddData: integers and enums
 * as themselves; the log buffers as 0, the worker keeping buffers of the
 * sizes their options give (at most GLEAM_LINK_LOG_MAX bytes each).
 * Options whose values are host pointers to arrays are not sent.
 */
#define GLEAM_LINK_OPTS_MAX	64
#define GLEAM_LINK_LOG_MAX	(1U << 20)

struct gleam_jit_opt {
	__u32 option;		/* CUjit_option */
	__u32 reserved;		/* must be zero */
	__u64 value;
};

/* cuLinkAddData: after the options, this, the name (name_len bytes with its NUL), the data. */
struct gleam_link_input {
	__u64 name_len;		/* 0: no name */
	__u64 reserved;		/* must be zero */
};

/*
 * cuLinkComplete: after its argument block, how many bytes of cubin the
 * shim has room for (at most GLEAM_IMAGE_MAX); a larger one is refused
 * with CUDA_ERROR_OUT_OF_MEMORY.
 */
struct gleam_link_complete {
	__u64 cubin_max;
	__u64 reserved;		/* must be zero */
};

/*
 * The logs come back in DATA pieces: the info log at log base + 0, the
 * error log at log base + the info log's size, each as far as the driver
 * wrote it.  The log base is 0 for cuLinkAddData; for cuLinkComplete it
 * is cubin_max, and the linked cubin's bytes come at offset 0, then its
 * final reply carries struct gleam_link_reply.
 */
struct gleam_link_reply {
	__u64 cubin_size;
	__u32 wall_ms_bits;	/* CU_JIT_WALL_TIME's float, as its IEEE-754 bits */
	__u32 reserved;
};

#endif /* _UAPI_GLEAM_GRAPH_H */
