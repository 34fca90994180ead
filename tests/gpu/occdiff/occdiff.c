// SPDX-License-Identifier: MIT
/*
 * occdiff: NVIDIA's driver against Gleam's reading of module images and
 * its occupancy rules, on a machine with a GPU.
 *
 *   occdiff [options] FILE...
 *
 * Each FILE is a shared library whose .nv_fatbin section holds fat
 * binaries (cuBLAS, PyTorch, ...), or one image (a fat binary, a cubin, or
 * PTX).  For each image, the driver loads it as a library and lists its
 * kernels; Gleam's reader (common/cubin.c) indexes it.  Compared:
 *
 *   names       every kernel the driver lists is in the index, and no more
 *   attributes  each function attribute the driver reports, against the
 *               attributes computed from the cubin (common/cudarules.c)
 *   parameters  each parameter's offset and size
 *   occupancy   cuOccupancy* over a sweep of block sizes, dynamic shared
 *               memory, flags, carveouts and cache preferences, against
 *               the rules given the driver's own attributes
 *   clusters    cuOccupancyMaxActiveClusters and ...MaxPotentialClusterSize
 *               over cluster sizes 1-16, against the table the server
 *               probes (gl_cluster_probe below, as gleamd does it)
 *
 * Options: --every N (attributes of every Nth kernel, default 1),
 * --occ-every N (the occupancy sweep on every Nth kernel so checked,
 * default 8), --fatbin-every N (every Nth fat binary of a library),
 * --budget S (stop starting new images after S seconds), --dump FILE
 * (every answer of the driver's, one per line), --max-diff N (lines
 * printed per kind of difference, default 20).
 *
 * Prints one line per difference (the first N of each kind) and a
 * summary; exits 1 when anything differed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>

#include "cluster_probe.h"
#include "cubin.h"
#include "cudarules.h"

#define CK(x) do { CUresult r_ = (x); if (r_) { fprintf(stderr, "%s: %d\n", #x, r_); exit(2); } } while (0)

enum kind { K_NAMES, K_ATTR, K_PARAM, K_OCC, K_DYN, K_BEST, K_CLUSTER, K_CSIZE, K_LOAD, K_KINDS };
static const char *const kind_name[K_KINDS] = {
	"names", "attributes", "parameters", "occupancy", "dynamic smem", "best block",
	"active clusters", "cluster size", "loads",
};

static struct {
	long checked[K_KINDS];
	long differ[K_KINDS];
	int every, occ_every, fatbin_every, max_diff;
	double budget;
	FILE *dump;
	bool dump_occ;
	int32_t dev[GLEAM_DEV_ATTR_MAX];
	struct gleam_cluster_table table;
	CUdevice cudev;
	int major, minor;
	long kernels_seen;
	long images;
} g = { .every = 1, .occ_every = 8, .fatbin_every = 1, .max_diff = 20 };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void differ(enum kind k, const char *fmt, ...)
{
	va_list ap;

	if (g.differ[k]++ >= g.max_diff)
		return;
	printf("DIFF %s: ", kind_name[k]);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void dump(const char *fmt, ...)
{
	va_list ap;

	if (!g.dump)
		return;
	va_start(ap, fmt);
	vfprintf(g.dump, fmt, ap);
	va_end(ap);
}

/* ---- occupancy sweeps, the driver against the rules ---- */

struct fn {
	CUfunction f;
	const char *name;
	int32_t attr[GLEAM_FUNC_ATTR_MAX];
	uint32_t barriers;
	CUfunc_cache cache;
};

static void refresh(struct fn *x)
{
	for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX; a++) {
		int v = 0;

		cuFuncGetAttribute(&v, (CUfunction_attribute)a, x->f);
		x->attr[a] = v;
	}
}

static struct gl_occ_func occ_of(const struct fn *x)
{
	return (struct gl_occ_func){ .attr = x->attr, .barriers = x->barriers, .cache = x->cache };
}

static void sweep_blocks(struct fn *x, const char *setting)
{
	static const int blocks[] = { -1, 0, 1, 31, 32, 33, 64, 96, 128, 160, 192, 256, 288, 320,
				      384, 448, 512, 576, 640, 768, 896, 1024, 1025 };
	int32_t s = x->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES];
	size_t dyns[] = { 0, 1, 1000, 4096, 8191, 16384, 30000, (size_t)(49152 - s),
			  (size_t)(49152 - s + 1), 65536, 102400, 150000, 200000,
			  (size_t)(g.dev[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] - s),
			  (size_t)(g.dev[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] - s + 1),
			  300000 };
	struct gl_occ_func o = occ_of(x);

	for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		for (size_t j = 0; j < sizeof(dyns) / sizeof(dyns[0]); j++) {
			for (unsigned int fl = 0; fl < 3; fl++) {
				int d = -7, m = -7;
				CUresult rd = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
					&d, x->f, blocks[i], dyns[j], fl);
				CUresult rm = gl_occ_blocks(g.dev, &o, blocks[i], dyns[j], fl, &m);

				g.checked[K_OCC]++;
				if (g.dump_occ)
					dump("O %s %s %d %zu %u %d %d %d\n", x->name, setting, blocks[i],
					     dyns[j], fl, rd, rd ? -1 : d, rm ? -1 : m);
				if (rd != rm || (!rd && d != m))
					differ(K_OCC, "%s [%s] block %d dyn %zu flags %u: driver %d/%d, "
					       "Gleam %d/%d (regs %d static %d maxthr %d maxdyn %d)",
					       x->name, setting, blocks[i], dyns[j], fl, rd, d, rm, m,
					       x->attr[4], x->attr[1], x->attr[0], x->attr[8]);
			}
		}
	}
	for (int nb = 0; nb <= 33; nb += nb < 5 ? 1 : nb < 16 ? 3 : 8) {
		static const int bs[] = { 32, 128, 256, 1024 };

		for (size_t i = 0; i < 4; i++) {
			size_t d = 7, m = 7;
			CUresult rd = cuOccupancyAvailableDynamicSMemPerBlock(&d, x->f, nb, bs[i]);
			CUresult rm = gl_occ_dyn_smem(g.dev, &o, nb, bs[i], &m);

			g.checked[K_DYN]++;
			if (g.dump_occ)
				dump("D %s %s %d %d %d %zu %zu\n", x->name, setting, nb, bs[i], rd,
				     rd ? 0 : d, rm ? 0 : m);
			if (rd != rm || (!rd && d != m))
				differ(K_DYN, "%s [%s] blocks %d block %d: driver %d/%zu, Gleam %d/%zu",
				       x->name, setting, nb, bs[i], rd, d, rm, m);
		}
	}
	{
		static const size_t ds[] = { 0, 1024, 16384, 65536 };
		static const int lims[] = { 0, 100, 256, 1024 };

		for (size_t i = 0; i < 4; i++) {
			for (size_t j = 0; j < 4; j++) {
				int gd = 0, bd = 0, gm = 0, bm = 0;
				CUresult rd = cuOccupancyMaxPotentialBlockSize(&gd, &bd, x->f, NULL, ds[i],
									      lims[j]);
				CUresult rm = gl_occ_best_block(g.dev, &o, &gm, &bm, NULL, ds[i],
								lims[j], 0);

				g.checked[K_BEST]++;
				if (g.dump_occ)
					dump("B %s %s %zu %d %d %d %d %d %d\n", x->name, setting, ds[i],
					     lims[j], rd, gd, bd, gm, bm);
				if (rd != rm || (!rd && (gd != gm || bd != bm)))
					differ(K_BEST, "%s [%s] dyn %zu limit %d: driver %d %d/%d, Gleam "
					       "%d %d/%d", x->name, setting, ds[i], lims[j], rd, gd, bd,
					       rm, gm, bm);
			}
		}
	}
}

static void cluster_sweep(struct fn *x)
{
	static const unsigned int bs[] = { 32, 64, 128, 256, 384, 512, 1024 };
	static const size_t ds[] = { 0, 8192, 32768, 65536, 100000, 150000, 200000 };
	struct gl_occ_func o;
	int np;

	if (g.major < 9)
		return;
	np = cuFuncSetAttribute(x->f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1) == 0;
	cuFuncSetAttribute(x->f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   g.dev[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] -
			   x->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES]);
	refresh(x);
	o = occ_of(x);
	for (size_t i = 0; i < sizeof(bs) / sizeof(bs[0]); i++) {
		for (size_t j = 0; j < sizeof(ds) / sizeof(ds[0]); j++) {
			int b = 0;

			cuOccupancyMaxActiveBlocksPerMultiprocessor(&b, x->f, (int)bs[i], ds[j]);
			for (unsigned int c = 1; c <= 16; c++) {
				CUlaunchAttribute at = { .id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION };
				CUlaunchConfig cfg = { .gridDimX = c * 8, .gridDimY = 2, .gridDimZ = 1,
						       .blockDimX = bs[i], .blockDimY = 1,
						       .blockDimZ = 1, .sharedMemBytes = (unsigned)ds[j],
						       .attrs = &at, .numAttrs = 1 };
				struct gl_occ_launch l = { .block = { bs[i], 1, 1 },
							   .grid = { c * 8, 2, 1 }, .dyn = ds[j],
							   .cluster = { c, 1, 1 } };
				int d = -7, m = -7;
				CUresult rd, rm;

				at.value.clusterDim.x = c;
				at.value.clusterDim.y = 1;
				at.value.clusterDim.z = 1;
				if (x->attr[CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH]) {
					cfg.numAttrs = 0;
					memset(l.cluster, 0, sizeof(l.cluster));
				}
				rd = cuOccupancyMaxActiveClusters(&d, x->f, &cfg);
				rm = gl_occ_clusters(g.dev, &g.table, &o, &l, &m);
				g.checked[K_CLUSTER]++;
				dump("C %s %u %zu %d %u %d %d %d\n", x->name, bs[i], ds[j], b, c, np, rd,
				     rd ? -1 : d);
				if (rd != rm || (!rd && d != m))
					differ(K_CLUSTER, "%s block %u dyn %zu (%d/SM) cluster %u "
					       "(non-portable %d): driver %d/%d, Gleam %d/%d", x->name, bs[i],
					       ds[j], b, c, np, rd, d, rm, m);
				if (cfg.numAttrs == 0)
					break;
			}
			{
				CUlaunchConfig cfg = { .gridDimX = 64, .gridDimY = 1, .gridDimZ = 1,
						       .blockDimX = bs[i], .blockDimY = 1,
						       .blockDimZ = 1, .sharedMemBytes = (unsigned)ds[j] };
				struct gl_occ_launch l = { .block = { bs[i], 1, 1 }, .grid = { 64, 1, 1 },
							   .dyn = ds[j] };
				int d = -7, m = -7;
				CUresult rd = cuOccupancyMaxPotentialClusterSize(&d, x->f, &cfg);
				CUresult rm = gl_occ_cluster_size(g.dev, &g.table, &o, &l, &m);

				g.checked[K_CSIZE]++;
				dump("S %s %u %zu %d %d %d %d\n", x->name, bs[i], ds[j], b, np, rd,
				     rd ? -1 : d);
				if (rd != rm || (!rd && d != m))
					differ(K_CSIZE, "%s block %u dyn %zu (%d/SM) non-portable %d: "
					       "driver %d/%d, Gleam %d/%d", x->name, bs[i], ds[j], b, np,
					       rd, d, rm, m);
			}
		}
	}
}

static void occupancy(CUkernel k, const char *name, uint32_t barriers, bool clusters)
{
	static const int few[] = { 0, 10, 25, 50, 60, 75, 100 };
	static const int many[] = { 0, 1, 3, 4, 5, 7, 8, 10, 14, 15, 20, 25, 28, 29, 30, 40, 43,
				    44, 50, 57, 58, 60, 71, 72, 75, 85, 86, 99, 100 };
	const int *carve = g.dump_occ ? many : few;
	size_t ncarve = g.dump_occ ? sizeof(many) / sizeof(many[0]) : sizeof(few) / sizeof(few[0]);
	static const CUfunc_cache caches[] = { CU_FUNC_CACHE_PREFER_L1, CU_FUNC_CACHE_PREFER_SHARED,
					       CU_FUNC_CACHE_PREFER_EQUAL };
	struct fn x = { .name = name, .barriers = barriers, .cache = CU_FUNC_CACHE_PREFER_NONE };
	char setting[64];

	if (cuKernelGetFunction(&x.f, k))
		return;
	refresh(&x);
	sweep_blocks(&x, "default");
	for (size_t i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
		if (cuFuncSetCacheConfig(x.f, caches[i]))
			continue;
		x.cache = caches[i];
		snprintf(setting, sizeof(setting), "cache=%d", caches[i]);
		sweep_blocks(&x, setting);
	}
	cuFuncSetCacheConfig(x.f, CU_FUNC_CACHE_PREFER_NONE);
	x.cache = CU_FUNC_CACHE_PREFER_NONE;
	/* The context's preference stands where the function has none. */
	for (size_t i = 0; g.dump_occ && i < sizeof(caches) / sizeof(caches[0]); i++) {
		if (cuCtxSetCacheConfig(caches[i]))
			continue;
		x.cache = caches[i];
		snprintf(setting, sizeof(setting), "ctxcache=%d", caches[i]);
		sweep_blocks(&x, setting);
	}
	cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_NONE);
	x.cache = CU_FUNC_CACHE_PREFER_NONE;
	for (size_t i = 0; i < ncarve; i++) {
		if (cuFuncSetAttribute(x.f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
				       carve[i]))
			continue;
		refresh(&x);
		snprintf(setting, sizeof(setting), "carveout=%d", carve[i]);
		sweep_blocks(&x, setting);
	}
	cuFuncSetAttribute(x.f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1);
	if (!cuFuncSetAttribute(x.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				g.dev[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] -
				x.attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES])) {
		refresh(&x);
		sweep_blocks(&x, "maxdyn=optin");
	}
	if (clusters)
		cluster_sweep(&x);
}

/* ---- one image ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What a fat binary holds, and how many kernels each cubin of it has. */
static void entries(const char *label, const unsigned char *p, size_t len)
{
	uint16_t hs;
	uint64_t fs;

	if (len < 16 || memcmp(p, "\x50\xed\x55\xba", 4))
		return;
	memcpy(&hs, p + 6, 2);
	memcpy(&fs, p + 8, 8);
	for (uint64_t off = hs; off + 64 <= hs + fs && off + 64 <= len;) {
		uint16_t kind;
		uint32_t ehs, arch;
		uint64_t size, flags;
		struct gl_code c = { 0 };
		struct gl_module_index *m = NULL;
		unsigned char *raw = NULL;
		size_t rl;

		memcpy(&kind, p + off, 2);
		memcpy(&ehs, p + off + 4, 4);
		memcpy(&size, p + off + 8, 8);
		memcpy(&arch, p + off + 28, 4);
		memcpy(&flags, p + off + 40, 8);
		c.kind = kind == 2 ? GL_CODE_CUBIN : GL_CODE_PTX;
		c.pack = flags & 0x8000 ? GL_PACK_ZSTD : flags & 0x2000 ? GL_PACK_LZ4 : GL_PACK_NONE;
		c.data = p + off + ehs;
		memcpy(&c.len, p + off + 16, 4);
		c.len &= 0xffffffffu;
		if (!c.pack || !c.len)
			c.len = size;
		memcpy(&c.raw_len, p + off + 56, 8);
		if (!c.pack)
			c.raw_len = c.len;
		if (!gl_code_unpack(&c, &raw, &rl))
			gl_module_index(c.kind, raw, rl, &m);
		printf("  %s entry at %lu: kind %u arch %u flags %#lx size %lu: %d kernels\n", label,
		       (unsigned long)off, kind, arch, (unsigned long)flags, (unsigned long)size,
		       m ? (int)m->nkernels : -1);
		gl_module_index_free(m);
		free(raw);
		off += ehs + size;
	}
}

static void image(const char *label, const void *img, size_t len)
{
	struct gl_code code;
	struct gl_module_index *idx = NULL;
	unsigned char *raw = NULL;
	size_t rawlen = 0;
	CUlibrary lib;
	CUresult rd;
	unsigned int n = 0;
	CUkernel *ks;
	const char **names;
	int rp;

	g.images++;
	rp = gl_code_pick(img, len, g.major, g.minor, &code);
	if (!rp)
		rp = gl_code_unpack(&code, &raw, &rawlen);
	if (!rp)
		rp = gl_module_index(code.kind, raw, rawlen, &idx);
	free(raw);
	rd = cuLibraryLoadData(&lib, img, NULL, NULL, 0, NULL, NULL, 0);
	g.checked[K_LOAD]++;
	dump("L %s %d %d kind=%d arch=%d specific=%d\n", label, rd, rp, code.kind, code.arch,
	     code.arch_specific);
	if (rd) {
		if (!rp && idx && idx->nkernels)
			differ(K_LOAD, "%s: the driver refused it (%d), Gleam indexed %u kernels",
			       label, rd, idx->nkernels);
		gl_module_index_free(idx);
		return;
	}
	if (rp == -ENOENT) {
		/* No code for this device: Gleam's lookups ask the server, as before. */
		dump("N %s no code for this device\n", label);
		cuLibraryUnload(lib);
		return;
	}
	if (rp) {
		differ(K_LOAD, "%s: the driver loaded it, Gleam could not read it (%d)", label, rp);
		cuLibraryUnload(lib);
		return;
	}
	cuLibraryGetKernelCount(&n, lib);
	ks = calloc(n + 1, sizeof(*ks));
	names = calloc(n + 1, sizeof(*names));
	if (n)
		CK(cuLibraryEnumerateKernels(ks, n, lib));
	for (unsigned int i = 0; i < n; i++)
		cuKernelGetName(&names[i], ks[i]);
	g.checked[K_NAMES]++;
	if (n != idx->nkernels) {
		differ(K_NAMES, "%s: the driver lists %u kernels, Gleam %u (code arch %d%s %s)",
		       label, n, idx->nkernels, code.arch, code.arch_specific ? "a" : "",
		       code.kind == GL_CODE_PTX ? "PTX" : "cubin");
		entries(label, img, len);
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct gl_kernel *gk = names[i] ? gl_module_kernel(idx, names[i]) : NULL;
		int32_t want[GLEAM_FUNC_ATTR_MAX];
		bool deep = g.kernels_seen++ % g.every == 0;

		if (!gk) {
			differ(K_NAMES, "%s: %s is not in Gleam's index", label,
			       names[i] ? names[i] : "?");
			continue;
		}
		if (!deep)
			continue;
		/* Parameters. */
		for (uint32_t p = 0;; p++) {
			size_t off = 0, size = 0;
			CUresult r = cuKernelGetParamInfo(ks[i], p, &off, &size);

			if (r) {
				if (p != gk->nparams)
					differ(K_PARAM, "%s %s: the driver has %u parameters, Gleam %u",
					       label, names[i], p, gk->nparams);
				break;
			}
			g.checked[K_PARAM]++;
			if (p >= gk->nparams || gk->params[p].offset != off || gk->params[p].size != size)
				differ(K_PARAM, "%s %s param %u: driver %zu+%zu, Gleam %u+%u", label,
				       names[i], p, off, size, p < gk->nparams ? gk->params[p].offset : 0,
				       p < gk->nparams ? gk->params[p].size : 0);
		}
		/* Attributes. */
		if (gk->res_known) {
			gl_func_attrs(g.dev, &gk->res, want);
			for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX; a++) {
				int v = 0;
				CUresult r = cuKernelGetAttribute(&v, (CUfunction_attribute)a, ks[i],
								  g.cudev);

				g.checked[K_ATTR]++;
				dump("A %s %s %d %d %d\n", label, names[i], a, r, v);
				if (!r && v != want[a])
					differ(K_ATTR, "%s %s attribute %d: driver %d, Gleam %d (regs %u "
					       "smem %u local %u const %u maxthr %u bar %u)", label,
					       names[i], a, v, want[a], gk->res.regs, gk->res.static_smem,
					       gk->res.local_bytes, gk->res.const_bytes,
					       gk->res.max_threads, gk->res.barriers);
			}
		}
		if ((g.kernels_seen / g.every) % g.occ_every == 0)
			occupancy(ks[i], names[i], gk->res.barriers,
				  (g.kernels_seen / g.every) % (g.occ_every * 4) == 0);
	}
	/* Names Gleam has that the driver does not. */
	qsort(names, n, sizeof(*names), cmp_str);
	for (uint32_t i = 0; i < idx->nkernels; i++) {
		const char *key = idx->kernels[i].name;

		if (!n || !bsearch(&key, names, n, sizeof(*names), cmp_str))
			differ(K_NAMES, "%s: Gleam has %s, the driver does not", label, key);
	}
	free(ks);
	free(names);
	gl_module_index_free(idx);
	cuLibraryUnload(lib);
}

/* The fat binaries in a shared library's .nv_fatbin section, or the file itself. */
static void file(const char *path, double t0)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	const unsigned char *p;
	char label[512];

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "occdiff: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		exit(2);
	if (st.st_size > 64 && !memcmp(p, "\177ELF", 4) && p[0x12] == 62 /* x86-64 */) {
		uint64_t shoff, off = 0, size = 0;
		uint16_t shentsize, shnum, shstrndx;
		uint64_t stroff;
		long nfb = 0;

		memcpy(&shoff, p + 0x28, 8);
		memcpy(&shentsize, p + 0x3a, 2);
		memcpy(&shnum, p + 0x3c, 2);
		memcpy(&shstrndx, p + 0x3e, 2);
		memcpy(&stroff, p + shoff + (uint64_t)shstrndx * shentsize + 0x18, 8);
		for (unsigned int i = 0; i < shnum; i++) {
			const unsigned char *h = p + shoff + (uint64_t)i * shentsize;
			uint32_t nm;

			memcpy(&nm, h, 4);
			if (!strcmp((const char *)p + stroff + nm, ".nv_fatbin")) {
				memcpy(&off, h + 0x18, 8);
				memcpy(&size, h + 0x20, 8);
			}
		}
		for (uint64_t pos = off; pos + 16 <= off + size;) {
			uint32_t magic;
			uint16_t hs;
			uint64_t fs;

			memcpy(&magic, p + pos, 4);
			if (magic != 0xBA55ED50u) {
				pos += 8;
				continue;
			}
			memcpy(&hs, p + pos + 6, 2);
			memcpy(&fs, p + pos + 8, 8);
			if (nfb++ % g.fatbin_every == 0 && now() - t0 < g.budget) {
				snprintf(label, sizeof(label), "%s#%ld", strrchr(path, '/') ?
					 strrchr(path, '/') + 1 : path, nfb - 1);
				image(label, p + pos, hs + fs);
			}
			pos += hs + fs;
			pos = (pos + 7) & ~7ull;
		}
	} else {
		/* PTX as a program passes it: a string, ended by its NUL. */
		unsigned char *z = malloc((size_t)st.st_size + 1);

		memcpy(z, p, (size_t)st.st_size);
		z[st.st_size] = 0;
		snprintf(label, sizeof(label), "%s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
		image(label, z, (size_t)st.st_size + 1);
		free(z);
	}
	munmap((void *)p, (size_t)st.st_size);
}

int main(int argc, char **argv)
{
	CUcontext ctx;
	double t0 = now();
	int i, bad = 0;

	g.budget = 1e9;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (!strcmp(argv[i], "--every") && i + 1 < argc)
			g.every = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--occ-every") && i + 1 < argc)
			g.occ_every = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--fatbin-every") && i + 1 < argc)
			g.fatbin_every = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--dump-occ"))
			g.dump_occ = true;
		else if (!strcmp(argv[i], "--max-diff") && i + 1 < argc)
			g.max_diff = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
			g.budget = atof(argv[++i]);
		else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
			g.dump = fopen(argv[++i], "w");
		else {
			fprintf(stderr, "occdiff: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (g.every < 1 || g.occ_every < 1 || g.fatbin_every < 1)
		return 2;
	CK(cuInit(0));
	CK(cuDeviceGet(&g.cudev, 0));
	for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX && a < GLEAM_DEV_ATTR_MAX; a++) {
		int v = 0;

		g.dev[a] = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, g.cudev) ? GLEAM_ATTR_INVALID : v;
		dump("DEV %d %d\n", a, g.dev[a]);
	}
	g.major = g.dev[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR];
	g.minor = g.dev[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR];
	CK(cuDevicePrimaryCtxRetain(&ctx, g.cudev));
	CK(cuCtxSetCurrent(ctx));
	if (g.major >= 9) {
		int r = gl_cluster_probe(&g.table);

		if (r)
			fprintf(stderr, "occdiff: the cluster probe failed (%d)\n", r);
		for (int b = 0; b < GLEAM_CLUSTER_BLOCKS_MAX && g.dump; b++) {
			dump("T %d", b + 1);
			for (int c = 0; c < GLEAM_CLUSTER_SIZE_MAX; c++)
				dump(" %u", g.table.active[b][c]);
			dump("\n");
		}
	}
	for (; i < argc; i++)
		file(argv[i], t0);
	printf("%-16s %10s %8s\n", "check", "checked", "differ");
	for (int k = 0; k < K_KINDS; k++) {
		printf("%-16s %10ld %8ld\n", kind_name[k], g.checked[k], g.differ[k]);
		bad |= g.differ[k] != 0;
	}
	printf("%ld images, %ld kernels, %.1f s\n", g.images, g.kernels_seen, now() - t0);
	if (g.dump)
		fclose(g.dump);
	return bad;
}
