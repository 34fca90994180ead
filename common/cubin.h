/* SPDX-License-Identifier: MIT */
/*
 * What a module image says about its kernels and variables, read the way
 * NVIDIA's driver reads it: the code a device of a given compute
 * capability would load from a fat binary, and from that code each
 * kernel's parameter layout and resources, and each variable's size.
 * The shim answers lookups from this without asking the server; the sim
 * backend takes the same attributes from it.
 *
 * Everything here reads untrusted bytes: every offset and size is checked
 * against the buffer before it is used.
 */
#ifndef GLEAM_CUBIN_H
#define GLEAM_CUBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gleam_record.h"

/* Which code a device loads from an image (gl_code_pick). */
enum gl_code_kind {
	GL_CODE_NONE,		/* nothing it can load */
	GL_CODE_CUBIN,		/* an ELF object for the device */
	GL_CODE_PTX,		/* PTX text, compiled by the driver at load */
};

enum gl_code_pack {
	GL_PACK_NONE,
	GL_PACK_LZ4,		/* fat binaries before CUDA 12.8 */
	GL_PACK_ZSTD,
};

struct gl_code {
	enum gl_code_kind kind;
	enum gl_code_pack pack;
	const unsigned char *data;	/* inside the image given to gl_code_pick */
	size_t len;			/* bytes at data */
	size_t raw_len;			/* unpacked (== len when not packed) */
	int arch;			/* e.g. 90; 0 when unknown */
	bool arch_specific;		/* sm_90a and the like */
};

/*
 * The code a device of compute capability major.minor loads from image
 * (a fat binary, a cubin or PTX text; avail bytes readable): a cubin for
 * its architecture, else one for an earlier minor version of its major
 * version, else the newest PTX it can compile.  0, -ENOENT when the image
 * has nothing for the device, -EINVAL when it is malformed.
 */
int gl_code_pick(const void *image, size_t avail, int major, int minor, struct gl_code *code);

/*
 * Unpack a picked code entry into a new buffer (malloc'd, *out, with a
 * NUL after its *len bytes).  Zstandard is found at run time
 * (libzstd.so.1); without it, packed code gives -ENOSYS.
 */
int gl_code_unpack(const struct gl_code *code, unsigned char **out, size_t *len);

/*
 * A kernel's resources as its cubin states them: what the driver's
 * function attributes and occupancy are computed from (cudarules.h).
 */
struct gl_kres {
	uint32_t regs;			/* registers per thread */
	uint32_t static_smem;		/* static shared memory, bytes */
	bool smem_reserved;		/* static_smem holds the driver's reserved part too */
	uint32_t local_bytes;		/* local memory per thread */
	uint32_t const_bytes;		/* user constant memory */
	uint32_t max_threads;		/* from launch bounds (maxntid/reqntid); 0: none */
	uint32_t barriers;		/* named barriers used */
	uint32_t cluster[3];		/* compile-time cluster dimensions; 0: none */
	bool cluster_must_be_set;	/* launches must give a cluster size */
	int ptx_version;		/* e.g. 90 */
	int binary_version;		/* e.g. 90 */
	bool cache_ca;			/* compiled with -dlcm=ca */
};

struct gl_kernel {
	char *name;
	uint32_t nparams;
	uint32_t params_size;
	struct gleam_param *params;
	bool res_known;		/* from a cubin; PTX leaves them to the compiler */
	struct gl_kres res;
};

struct gl_variable {
	char *name;
	uint64_t size;
};

/* A module's kernels and variables, each sorted by name. */
struct gl_module_index {
	uint32_t nkernels;
	uint32_t nvars;
	struct gl_kernel *kernels;
	struct gl_variable *vars;
	enum gl_code_kind kind;
	int arch;
};

/*
 * Index unpacked code (a cubin, or PTX text of len bytes).  0, or -EINVAL
 * for code that is not what it claims to be, -ENOMEM.
 */
int gl_module_index(enum gl_code_kind kind, const unsigned char *code, size_t len,
		    struct gl_module_index **out);
void gl_module_index_free(struct gl_module_index *m);

const struct gl_kernel *gl_module_kernel(const struct gl_module_index *m, const char *name);
const struct gl_variable *gl_module_variable(const struct gl_module_index *m, const char *name);

/* Decode an LZ4 block of n bytes into out (cap bytes); bytes written or -EINVAL. */
long gl_lz4_decode(const unsigned char *in, size_t n, unsigned char *out, size_t cap);

#endif /* GLEAM_CUBIN_H */
