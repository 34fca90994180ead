/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Gleam records: one driver-API call, encoded once by libcuda.so.1 and
 * carried unchanged through the ring, both brokers and the wire to the
 * replay worker.  Replies travel the other way in the same framing.
 *
 * All fields are little-endian and naturally aligned; every message is a
 * multiple of 8 bytes.  The body of a record is the argument block of its
 * function (generated from uapi/api.tbl into gleam_api_gen.h) followed by
 * variable-length data whose lengths the argument block states.
 */
#ifndef _UAPI_GLEAM_RECORD_H
#define _UAPI_GLEAM_RECORD_H

#include <linux/types.h>

/* Function numbers below this are the protocol's own. */
#define GLEAM_FN_PAD		0	/* filler to the end of a ring */
#define GLEAM_FN_FIRST_API	1

struct gleam_rec {
	__u32 len;		/* whole record incl. this header, 8-aligned */
	__u16 fn;		/* function number from uapi/api.tbl */
	__u16 flags;		/* GLEAM_REC_F_* */
	__u32 tag;		/* copied into the reply; 0 when none is wanted */
	/*
	 * Must be zero, but on the session ring of a session whose devices
	 * lie on several servers (GLEAM_LOCAL_F_ROUTE, gleam_local.h): there
	 * the index of the connection the record goes to, which the client
	 * gleamd takes off (zero again on the wire).
	 */
	__u32 reserved;
	__u64 ctx;		/* id of the caller's current context, 0: none */
	__u64 seq;		/* per-session record number, from 1 */
};

/* The caller waits for a reply carrying tag. */
#define GLEAM_REC_F_REPLY	(1U << 0)
/* One piece of a larger operation; more records of it follow. */
#define GLEAM_REC_F_MORE	(1U << 1)
#define GLEAM_REC_F_KNOWN	(GLEAM_REC_F_REPLY | GLEAM_REC_F_MORE)

struct gleam_reply {
	__u32 len;		/* whole reply incl. this header, 8-aligned */
	__u16 fn;		/* function number of the record answered */
	__u16 flags;		/* GLEAM_REP_F_* */
	__u32 tag;		/* the record's tag */
	__s32 result;		/* CUresult; meaningful on the last piece */
	__u64 seq;		/* the record's seq */
	__u64 reserved;		/* must be zero */
};

/* A data piece: the body is struct gleam_rep_data then bytes; more follow. */
#define GLEAM_REP_F_DATA	(1U << 0)
/* An error that no waiting call has seen yet is reported here as well. */
#define GLEAM_REP_F_KNOWN	(GLEAM_REP_F_DATA)

struct gleam_rep_data {
	__u64 offset;		/* where in the caller's buffer */
	__u64 length;		/* bytes that follow */
};

/*
 * Limits every decoder enforces before it reads a body.  A record never
 * exceeds GLEAM_REC_MAX; larger transfers are split into pieces.
 */
#define GLEAM_REC_ALIGN		8
#define GLEAM_REC_MAX		(4U << 20)	/* 4 MiB, header included */
#define GLEAM_PIECE_MAX		(1U << 20)	/* data bytes in one piece */
#define GLEAM_NAME_MAX		32768		/* kernel and symbol names */
#define GLEAM_IMAGE_MAX		(1U << 30)	/* one module image */
#define GLEAM_PARAMS_MAX	32764		/* kernel parameter bytes (CUDA 12.1+) */
#define GLEAM_NPARAMS_MAX	4096

/* Device description, one per device, in the reply to cuInit. */
#define GLEAM_DEV_ATTR_MAX	160	/* > CU_DEVICE_ATTRIBUTE_MAX (148) */

#define GLEAM_ATTR_INVALID	((__s32)0x80000000)

struct gleam_devinfo {
	char name[256];
	__u8 uuid[16];
	__u64 total_mem;
	__s32 attr[GLEAM_DEV_ATTR_MAX];	/* indexed by CUdevice_attribute;
					 * GLEAM_ATTR_INVALID: the driver refused it */
	__u32 nattr;			/* attributes the server filled */
	__u32 reserved;
};

/*
 * Reply body of cuInit: this header, then ndev struct gleam_devinfo, then
 * with GLEAM_INIT_F_CLUSTERS ndev struct gleam_cluster_table.
 */
struct gleam_init_reply {
	__s32 driver_version;
	__u32 ndev;
	__u32 flags;		/* GLEAM_INIT_F_* */
	__u32 reserved;		/* must be zero */
};

#define GLEAM_INIT_F_CLUSTERS	(1U << 0)
/*
 * The session runs host functions and stream callbacks in the program's
 * process and carries what its kernels print there (below).  Only where
 * the shim asked in its record (GLEAM_INIT_ASK_HOST) and the client gleamd
 * carries the messages (GLEAM_WIRE_F_HOST); without it, the shim refuses
 * cuLaunchHostFunc and cuStreamAddCallback (CUDA_ERROR_NOT_SUPPORTED).
 */
#define GLEAM_INIT_F_HOST	(1U << 1)

/*
 * cuInit's record: its Flags (0 in every program) carry what the shim
 * offers, which the worker masks off before the driver sees them.
 */
#define GLEAM_INIT_ASK_HOST	(1U << 0)

/*
 * How many clusters fit on a device: active[b - 1][c - 1] for clusters of
 * c blocks when each multiprocessor holds b blocks, as the server's driver
 * counted them once (0: none, or not known).  The client answers
 * cuOccupancyMaxActiveClusters from it for any kernel.
 */
#define GLEAM_CLUSTER_BLOCKS_MAX	32
#define GLEAM_CLUSTER_SIZE_MAX		16

struct gleam_cluster_table {
	__u16 active[GLEAM_CLUSTER_BLOCKS_MAX][GLEAM_CLUSTER_SIZE_MAX];
};

/* Function description, in the reply to cuModuleGetFunction and kin. */
#define GLEAM_FUNC_ATTR_MAX	16	/* > CU_FUNC_ATTRIBUTE_MAX (16) */

struct gleam_funcinfo {
	__u32 nparams;
	__u32 params_size;		/* bytes of the packed parameter block */
	__s32 attr[GLEAM_FUNC_ATTR_MAX];
	/* then nparams struct gleam_param */
};

struct gleam_param {
	__u32 offset;
	__u32 size;
};

/*
 * Launches.  cuLaunchKernel's record data is the packed parameter block,
 * preceded by its exact size (a __u64).  cuLaunchKernelEx's record data is
 * struct gleam_launch_ex, nattrs struct gleam_launch_attr, then the same
 * size-prefixed block.
 */
struct gleam_launch_ex {
	__u32 grid[3];
	__u32 block[3];
	__u32 shared_bytes;
	__u32 nattrs;		/* <= GLEAM_LAUNCH_ATTRS_MAX */
	__u64 stream;		/* id */
};

struct gleam_launch_attr {
	__u32 id;		/* CUlaunchAttributeID */
	__u32 reserved;
	__u8 value[64];		/* CUlaunchAttributeValue, as the driver lays it out */
};

#define GLEAM_LAUNCH_ATTRS_MAX	16

/*
 * Memory pools.  cuMemPoolCreate's record data is struct gleam_pool_props.
 * cuMemPoolSetAttribute's is the value as a __u64 (a reuse policy as 0 or
 * 1), and the reply to cuMemPoolGetAttribute carries it the same way.
 */
struct gleam_pool_props {
	__u32 alloc_type;	/* CUmemAllocationType */
	__u32 handle_types;	/* CUmemAllocationHandleType */
	__u32 location_type;	/* CUmemLocationType */
	__s32 location_id;
	__u64 max_size;
	__u16 usage;
	__u16 reserved[3];	/* must be zero */
};

/*
 * CUDA arrays (Documentation/design.md, "Arrays, 2D and 3D copies,
 * texture and surface objects").  cuArrayCreate, cuArray3DCreate and
 * cuMipmappedArrayCreate carry struct gleam_array_desc after their
 * argument block: cuArrayCreate's with depth and flags zero, levels the
 * mipmap levels of cuMipmappedArrayCreate and zero otherwise.
 */
struct gleam_array_desc {
	__u64 width;
	__u64 height;
	__u64 depth;
	__u32 format;		/* CUarray_format */
	__u32 channels;		/* 1, 2 or 4 */
	__u32 flags;		/* CUDA_ARRAY3D_* */
	__u32 levels;
};

/*
 * Copies between host memory, device memory and arrays, of rows of width
 * bytes, height rows to a slice and depth slices.  The records of
 * cuMemcpyHtoA and its Async form, cuMemcpy2D, cuMemcpy2DUnaligned,
 * cuMemcpy2DAsync, cuMemcpy3D, cuMemcpy3DAsync, cuMemcpy3DPeer and its
 * Async form carry struct gleam_copy after their argument block, whose
 * fields are zero but for the stream; from host memory, the bytes
 * follow, row after row with no gap (width * height * depth of them).
 * Every copy to host memory, whichever function the program called,
 * travels as a record of cuMemcpyAtoH (or cuMemcpyAtoHAsync, on a stream)
 * with struct gleam_copy: its bytes come back in DATA replies at their
 * offsets in the same gapless order, and the shim lays them out in the
 * program's rows.  api says which driver function replays the copy; a
 * long copy is cut into pieces that are each a copy of the same kind.
 */
#define GLEAM_COPY_LINEAR	1	/* cuMemcpyHtoA, cuMemcpyAtoH: x is the array offset */
#define GLEAM_COPY_2D		2
#define GLEAM_COPY_2D_UNALIGNED	3
#define GLEAM_COPY_3D		4
#define GLEAM_COPY_3D_PEER	5

struct gleam_copy_end {
	__u32 type;		/* CU_MEMORYTYPE_HOST, _DEVICE or _ARRAY (never UNIFIED) */
	__u32 reserved;		/* must be zero */
	__u64 x;		/* bytes */
	__u64 y;
	__u64 z;
	__u64 ptr;		/* DEVICE: the address; ARRAY: the array's id; HOST: 0 */
	__u64 pitch;		/* DEVICE: bytes per row; else 0 */
	__u64 height;		/* DEVICE: rows per slice; else 0 */
	__u64 ctx;		/* GLEAM_COPY_3D_PEER: the context's id; else 0 */
};

struct gleam_copy {
	__u32 api;		/* GLEAM_COPY_* */
	__u32 reserved;		/* must be zero */
	__u64 width;		/* bytes per row */
	__u64 height;		/* rows per slice */
	__u64 depth;		/* slices */
	struct gleam_copy_end src;
	struct gleam_copy_end dst;
};

/* Pieces of a copy carry at most this many bytes of host memory. */
#define GLEAM_COPY_PIECE	(GLEAM_PIECE_MAX - 4096)

/*
 * Texture and surface objects.  cuTexObjectCreate carries struct
 * gleam_tex_create, cuSurfObjectCreate struct gleam_res_desc; each reply
 * is the object's value as the server's driver made it (a __u64), which
 * kernels take as a parameter.  Floats travel as their IEEE-754 bits.
 */
struct gleam_res_desc {
	__u32 type;		/* CUresourcetype */
	__u32 flags;		/* the descriptor's flags, as given */
	__u64 handle;		/* ARRAY, MIPMAPPED_ARRAY: the id; else 0 */
	__u64 dptr;		/* LINEAR, PITCH2D */
	__u32 format;		/* LINEAR, PITCH2D: CUarray_format */
	__u32 channels;
	__u64 size;		/* LINEAR: bytes */
	__u64 width;		/* PITCH2D: elements */
	__u64 height;
	__u64 pitch;		/* PITCH2D: bytes */
};

struct gleam_tex_desc {
	__u32 address_mode[3];	/* CUaddress_mode */
	__u32 filter_mode;	/* CUfilter_mode */
	__u32 flags;		/* CU_TRSF_* */
	__u32 max_anisotropy;
	__u32 mipmap_filter_mode;
	__u32 mipmap_level_bias;	/* float */
	__u32 min_mipmap_level_clamp;	/* float */
	__u32 max_mipmap_level_clamp;	/* float */
	__u32 border_color[4];	/* float */
};

struct gleam_view_desc {
	__u32 format;		/* CUresourceViewFormat */
	__u32 reserved;		/* must be zero */
	__u64 width;
	__u64 height;
	__u64 depth;
	__u32 first_level;
	__u32 last_level;
	__u32 first_layer;
	__u32 last_layer;
};

struct gleam_tex_create {
	struct gleam_res_desc res;
	struct gleam_tex_desc tex;
	__u32 has_view;		/* 0 or 1: view holds a resource view */
	__u32 reserved;		/* must be zero */
	struct gleam_view_desc view;
};

/* Graphs: the reply to cuGraphGetNodes carries the count as a __u64. */

/*
 * Host functions and stream callbacks (Documentation/design.md, "Host
 * functions and device output").  The records of cuLaunchHostFunc and
 * cuStreamAddCallback carry, in place of the function's address, the
 * shim's id for it (the function and its data never leave the program),
 * then struct gleam_hostfn_rec.
 */
struct gleam_hostfn_rec {
	__u32 flags;		/* GLEAM_HOSTFN_F_* */
	__u32 reserved;		/* must be zero */
};

/*
 * Put on a capturing stream: a node of the graph, run at each of its
 * launches, so the worker keeps it for the session, not for one run.
 */
#define GLEAM_HOSTFN_F_GRAPH	(1U << 0)
#define GLEAM_HOSTFN_F_KNOWN	(GLEAM_HOSTFN_F_GRAPH)

/*
 * When the stream reaches one, the worker holds the stream and sends a
 * reply that no record asked for (tag 0), fn gleamHostFuncRun: this body,
 * its result the stream's status (what a callback is given).  The shim
 * runs the function on a thread of its own and then sends the record
 * gleamHostFuncRun {id, run}, which lets the stream go on.  With SKIPPED
 * the function will not run (its context failed first, as the driver
 * then runs no host function) and nothing is sent back.
 */
struct gleam_host_run {
	__u64 id;		/* the shim's id for the function */
	__u64 run;		/* the worker's count of its runs, from 1 */
	__u32 flags;		/* GLEAM_HOST_RUN_F_* */
	__u32 reserved;		/* must be zero */
};

#define GLEAM_HOST_RUN_F_SKIPPED	(1U << 0)

/*
 * What the program's kernels write (device printf to fd 1, assertion
 * messages to fd 2): replies that no record asked for (tag 0), fn
 * gleamOutput, this body then length bytes.  The worker sends what it
 * holds before each reply that is waited for and before each run of a
 * host function, and on its own once it holds GLEAM_OUTPUT_PIECE bytes;
 * the shim writes them to its stdout or stderr as they come.
 */
struct gleam_output {
	__u32 fd;		/* 1 or 2 */
	__u32 length;		/* bytes that follow, at most GLEAM_OUTPUT_PIECE */
};

#define GLEAM_OUTPUT_PIECE	(64U << 10)

#endif /* _UAPI_GLEAM_RECORD_H */
