// SPDX-License-Identifier: MIT
/*
 * Reading module images as NVIDIA's driver reads them (cubin.h).
 *
 * A fat binary is a header and a list of entries, each a cubin for one
 * architecture or PTX for one virtual architecture, possibly packed (LZ4
 * before CUDA 12.8, Zstandard since).  A cubin is an ELF object: kernels
 * are function symbols marked as entries, each with a .nv.info.<kernel>
 * section of attributes (its parameters, launch bounds, barriers, cluster
 * shape), a .nv.shared.<kernel> section (its static shared memory), and
 * rows in the module's .nv.info (registers, stack frame).  Variables are
 * object symbols in the .nv.global and .nv.constant sections.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cubin.h"
#include "util.h"

#define FATBIN_MAGIC		0xBA55ED50u
#define FATBIN_KIND_PTX		1
#define FATBIN_KIND_ELF		2
#define FATBIN_F_LZ4		0x2000ull
#define FATBIN_F_ZSTD		0x8000ull
#define FATBIN_F_ARCH_SPECIFIC	0x100000ull

#define EM_CUDA			190
#define SHT_SYMTAB		2
#define SHT_NOBITS		8
#define SHT_NOTE		7
#define STT_OBJECT		1
#define STT_FUNC		2
#define STO_CUDA_ENTRY		0x10

/* .nv.info attribute formats and the attributes read here. */
#define EIFMT_NVAL		1
#define EIFMT_BVAL		2
#define EIFMT_HVAL		3
#define EIFMT_SVAL		4
#define EIATTR_MAX_THREADS	0x05
#define EIATTR_REQNTID		0x10
#define EIATTR_FRAME_SIZE	0x11
#define EIATTR_KPARAM_INFO	0x17
#define EIATTR_CBANK_PARAM_SIZE	0x19
#define EIATTR_REGCOUNT		0x2f
#define EIATTR_CTA_PER_CLUSTER	0x3d
#define EIATTR_EXPLICIT_CLUSTER	0x3e
#define EIATTR_NUM_BARRIERS	0x4c

static bool in(size_t avail, uint64_t off, uint64_t n)
{
	return off <= avail && n <= avail - off;
}

static uint16_t u16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint32_t u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* ---- choosing the code ---- */

/* A fat binary entry's header, as laid out in the image. */
struct fb_entry {
	uint16_t kind;
	uint32_t hsize;
	uint64_t size;		/* payload bytes, padded */
	uint32_t packed_size;	/* payload bytes before padding, when packed */
	uint32_t arch;
	uint64_t flags;
	uint64_t raw_size;	/* unpacked bytes */
};

static int fb_entry(const unsigned char *p, size_t avail, struct fb_entry *e)
{
	if (avail < 16)
		return -EINVAL;
	e->kind = u16(p);
	e->hsize = u32(p + 4);
	e->size = u64(p + 8);
	if (e->hsize < 64 || !in(avail, e->hsize, e->size))
		return -EINVAL;
	e->packed_size = u32(p + 16);
	e->arch = u32(p + 28);
	e->flags = u64(p + 40);
	e->raw_size = u64(p + 56);
	return 0;
}

/* How well a candidate suits the device: higher is better, 0 unusable. */
static int fb_rank(const struct fb_entry *e, int major, int minor)
{
	int want = major * 10 + minor, a = (int)e->arch;

	if (e->kind == FATBIN_KIND_ELF) {
		/* Binary code runs on its own major version, same or later minor. */
		if (a / 10 != major || a > want)
			return 0;
		if ((e->flags & FATBIN_F_ARCH_SPECIFIC) && a != want)
			return 0;
		return 2000 + a * 2 + !!(e->flags & FATBIN_F_ARCH_SPECIFIC);
	}
	if (e->kind == FATBIN_KIND_PTX && a <= want && a > 0)
		return 1000 + a;
	return 0;
}

static int pick_fatbin(const unsigned char *p, size_t avail, int major, int minor,
		       struct gl_code *code)
{
	uint16_t hsize;
	uint64_t fsize, off;
	int best = 0;

	if (avail < 16)
		return -EINVAL;
	hsize = u16(p + 6);
	fsize = u64(p + 8);
	if (hsize < 16 || !in(avail, hsize, fsize))
		return -EINVAL;
	for (off = hsize; off < (uint64_t)hsize + fsize;) {
		struct fb_entry e;
		size_t n;
		int r;

		if (fb_entry(p + off, hsize + fsize - off, &e))
			return -EINVAL;
		r = fb_rank(&e, major, minor);
		n = (size_t)e.size;
		if ((e.flags & (FATBIN_F_LZ4 | FATBIN_F_ZSTD)) && e.packed_size && e.packed_size <= n)
			n = e.packed_size;
		if (r > best) {
			best = r;
			code->kind = e.kind == FATBIN_KIND_ELF ? GL_CODE_CUBIN : GL_CODE_PTX;
			code->pack = e.flags & FATBIN_F_ZSTD ? GL_PACK_ZSTD :
				     e.flags & FATBIN_F_LZ4 ? GL_PACK_LZ4 : GL_PACK_NONE;
			code->data = p + off + e.hsize;
			code->len = n;
			code->raw_len = code->pack ? (size_t)e.raw_size : n;
			code->arch = (int)e.arch;
			code->arch_specific = !!(e.flags & FATBIN_F_ARCH_SPECIFIC);
		}
		off += e.hsize + e.size;
	}
	if (!best)
		return -ENOENT;
	if (code->pack && (!code->raw_len || code->raw_len > GLEAM_IMAGE_MAX))
		return -EINVAL;
	return 0;
}

static int elf_arch(const unsigned char *p)
{
	uint32_t flags = u32(p + 0x30);

	/* ELF ABI version 8 and later keep the SM in the second byte. */
	return p[8] >= 8 ? (int)((flags >> 8) & 0xff) : (int)(flags & 0xff);
}

int gl_code_pick(const void *image, size_t avail, int major, int minor, struct gl_code *code)
{
	const unsigned char *p = image;

	memset(code, 0, sizeof(*code));
	if (!p || avail < 4)
		return -EINVAL;
	if (u32(p) == FATBIN_MAGIC)
		return pick_fatbin(p, avail, major, minor, code);
	if (!memcmp(p, "\177ELF", 4)) {
		if (avail < 64)
			return -EINVAL;
		code->kind = GL_CODE_CUBIN;
		code->arch = elf_arch(p);
	} else {
		const unsigned char *z = memchr(p, 0, MIN(avail, GLEAM_IMAGE_MAX));

		if (!z)
			return -EINVAL;
		code->kind = GL_CODE_PTX;
		avail = (size_t)(z - p);
	}
	code->data = p;
	code->len = avail;
	code->raw_len = avail;
	return 0;
}

/* ---- unpacking ---- */

long gl_lz4_decode(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	size_t i = 0, o = 0;

	while (i < n) {
		unsigned int tok = in[i++];
		size_t lit = tok >> 4, mlen, off;

		if (lit == 15) {
			unsigned char b;

			do {
				if (i >= n)
					return -EINVAL;
				b = in[i++];
				lit += b;
			} while (b == 255);
		}
		if (lit > n - i || lit > cap - o)
			return -EINVAL;
		memcpy(out + o, in + i, lit);
		i += lit;
		o += lit;
		if (i == n)
			break;		/* the last sequence has literals only */
		if (n - i < 2)
			return -EINVAL;
		off = u16(in + i);
		i += 2;
		if (!off || off > o)
			return -EINVAL;
		mlen = tok & 15;
		if (mlen == 15) {
			unsigned char b;

			do {
				if (i >= n)
					return -EINVAL;
				b = in[i++];
				mlen += b;
			} while (b == 255);
		}
		mlen += 4;
		if (mlen > cap - o)
			return -EINVAL;
		/* Byte by byte: a match may overlap what it writes. */
		for (size_t k = 0; k < mlen; k++, o++)
			out[o] = out[o - off];
	}
	return (long)o;
}

static struct {
	pthread_once_t once;
	size_t (*decompress)(void *, size_t, const void *, size_t);
	unsigned int (*is_error)(size_t);
} zstd = { .once = PTHREAD_ONCE_INIT };

static void zstd_load(void)
{
	void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)&zstd.decompress = dlsym(h, "ZSTD_decompress");
	*(void **)&zstd.is_error = dlsym(h, "ZSTD_isError");
	if (!zstd.decompress || !zstd.is_error)
		zstd.decompress = NULL;
}

int gl_code_unpack(const struct gl_code *code, unsigned char **out, size_t *len)
{
	unsigned char *buf;
	size_t n = code->raw_len;

	if (!n || n > GLEAM_IMAGE_MAX)
		return -EINVAL;
	buf = malloc(n + 1);
	if (!buf)
		return -ENOMEM;
	switch (code->pack) {
	case GL_PACK_NONE:
		memcpy(buf, code->data, MIN(n, code->len));
		n = MIN(n, code->len);
		break;
	case GL_PACK_LZ4: {
		long got = gl_lz4_decode(code->data, code->len, buf, n);

		if (got < 0 || (size_t)got != n)
			goto bad;
		break;
	}
	case GL_PACK_ZSTD: {
		size_t got;

		pthread_once(&zstd.once, zstd_load);
		if (!zstd.decompress) {
			free(buf);
			return -ENOSYS;
		}
		got = zstd.decompress(buf, n, code->data, code->len);
		if (zstd.is_error(got) || got != n)
			goto bad;
		break;
	}
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
bad:
	free(buf);
	return -EINVAL;
}

/* ---- the index ---- */

static int by_kernel(const void *a, const void *b)
{
	return strcmp(((const struct gl_kernel *)a)->name, ((const struct gl_kernel *)b)->name);
}

static int by_var(const void *a, const void *b)
{
	return strcmp(((const struct gl_variable *)a)->name, ((const struct gl_variable *)b)->name);
}

void gl_module_index_free(struct gl_module_index *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nkernels; i++) {
		free(m->kernels[i].name);
		free(m->kernels[i].params);
	}
	for (uint32_t i = 0; i < m->nvars; i++)
		free(m->vars[i].name);
	free(m->kernels);
	free(m->vars);
	free(m);
}

/* Room for one more kernel or variable; NULL without memory. */
static void *grow(void **arr, uint32_t *n, uint32_t *cap, size_t size)
{
	if (*n == *cap) {
		uint32_t c = *cap ? *cap * 2 : 16;
		void *p = realloc(*arr, (size_t)c * size);

		if (!p)
			return NULL;
		*arr = p;
		*cap = c;
	}
	memset((char *)*arr + (size_t)*n * size, 0, size);
	return (char *)*arr + (size_t)(*n)++ * size;
}

struct builder {
	struct gl_module_index *m;
	uint32_t kcap, vcap;
};

static struct gl_kernel *add_kernel(struct builder *b, const char *name, size_t nlen)
{
	struct gl_kernel *k = grow((void **)&b->m->kernels, &b->m->nkernels, &b->kcap,
				   sizeof(*k));

	if (!k)
		return NULL;
	k->name = strndup(name, nlen);
	if (!k->name) {
		b->m->nkernels--;
		return NULL;
	}
	return k;
}

static int add_var(struct builder *b, const char *name, size_t nlen, uint64_t size)
{
	struct gl_variable *v = grow((void **)&b->m->vars, &b->m->nvars, &b->vcap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	v->name = strndup(name, nlen);
	if (!v->name) {
		b->m->nvars--;
		return -ENOMEM;
	}
	v->size = size;
	return 0;
}

/* Sort, and drop repeated names (the first stays). */
static void finish(struct gl_module_index *m)
{
	uint32_t j = 0;

	if (m->nkernels)
		qsort(m->kernels, m->nkernels, sizeof(*m->kernels), by_kernel);
	for (uint32_t i = 0; i < m->nkernels; i++) {
		if (j && !strcmp(m->kernels[j - 1].name, m->kernels[i].name)) {
			free(m->kernels[i].name);
			free(m->kernels[i].params);
			continue;
		}
		m->kernels[j++] = m->kernels[i];
	}
	m->nkernels = j;
	if (m->nvars)
		qsort(m->vars, m->nvars, sizeof(*m->vars), by_var);
	j = 0;
	for (uint32_t i = 0; i < m->nvars; i++) {
		if (j && !strcmp(m->vars[j - 1].name, m->vars[i].name)) {
			free(m->vars[i].name);
			continue;
		}
		m->vars[j++] = m->vars[i];
	}
	m->nvars = j;
}

const struct gl_kernel *gl_module_kernel(const struct gl_module_index *m, const char *name)
{
	struct gl_kernel key = { .name = (char *)name };

	return m && m->nkernels ? bsearch(&key, m->kernels, m->nkernels, sizeof(key), by_kernel) :
				  NULL;
}

const struct gl_variable *gl_module_variable(const struct gl_module_index *m, const char *name)
{
	struct gl_variable key = { .name = (char *)name };

	return m && m->nvars ? bsearch(&key, m->vars, m->nvars, sizeof(key), by_var) : NULL;
}

/* ---- cubins ---- */

struct elf {
	const unsigned char *p;
	size_t len;
	uint64_t shoff;
	uint16_t shentsize, shnum, shstrndx;
};

struct shdr {
	uint32_t name, type, link, info;
	uint64_t flags, off, size, entsize;
};

static int shdr(const struct elf *e, unsigned int i, struct shdr *s)
{
	const unsigned char *h;

	if (i >= e->shnum)
		return -EINVAL;
	h = e->p + e->shoff + (uint64_t)i * e->shentsize;
	s->name = u32(h);
	s->type = u32(h + 4);
	s->flags = u64(h + 8);
	s->off = u64(h + 0x18);
	s->size = u64(h + 0x20);
	s->link = u32(h + 0x28);
	s->info = u32(h + 0x2c);
	s->entsize = u64(h + 0x38);
	if (s->type != SHT_NOBITS && !in(e->len, s->off, s->size))
		return -EINVAL;
	return 0;
}

/* A NUL-terminated string at off of string table section st; NULL if none. */
static const char *elf_str(const struct elf *e, const struct shdr *st, uint64_t off)
{
	const char *s;

	/* A section without bytes in the file has nothing to read. */
	if (st->type == SHT_NOBITS || off >= st->size)
		return NULL;
	s = (const char *)e->p + st->off + off;
	return memchr(s, 0, (size_t)(st->size - off)) ? s : NULL;
}

static const char *sec_name(const struct elf *e, const struct shdr *s)
{
	struct shdr st;

	if (shdr(e, e->shstrndx, &st))
		return NULL;
	return elf_str(e, &st, s->name);
}

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/*
 * Walk one .nv.info section, calling fn for each attribute with its
 * format, code, value (formats other than SVAL) or data and size (SVAL).
 */
typedef void (*eiattr_fn)(void *arg, unsigned int fmt, unsigned int attr, uint32_t val,
			  const unsigned char *data, size_t size);

static int nvinfo_walk(const struct elf *e, const struct shdr *s, eiattr_fn fn, void *arg)
{
	const unsigned char *p = e->p + s->off;
	size_t n = (size_t)s->size, i = 0;

	if (s->type == SHT_NOBITS)
		return -EINVAL;

	while (n - i >= 4) {
		unsigned int fmt = p[i], attr = p[i + 1];
		uint16_t v = u16(p + i + 2);

		switch (fmt) {
		case EIFMT_NVAL:
		case EIFMT_BVAL:
		case EIFMT_HVAL:
			fn(arg, fmt, attr, fmt == EIFMT_BVAL ? (v & 0xff) : v, NULL, 0);
			i += 4;
			break;
		case EIFMT_SVAL:
			if (v > n - i - 4)
				return -EINVAL;
			fn(arg, fmt, attr, 0, p + i + 4, v);
			i += 4 + (size_t)v;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

/* What the module-wide .nv.info says of one symbol. */
struct sym_info {
	uint32_t sym;
	uint32_t regs;
	uint32_t frame;
	bool have_regs;
};

static void module_attr(void *arg, unsigned int fmt, unsigned int attr, uint32_t val,
			const unsigned char *d, size_t n)
{
	struct sym_info *si = arg;

	if (fmt != EIFMT_SVAL || n < 8 || u32(d) != si->sym)
		return;
	if (attr == EIATTR_REGCOUNT) {
		si->regs = u32(d + 4);
		si->have_regs = true;
	} else if (attr == EIATTR_FRAME_SIZE) {
		si->frame = u32(d + 4);
	}
}

/* What a kernel's own .nv.info says. */
struct kern_info {
	struct gl_kernel *k;
	uint32_t cap;		/* params allocated */
	int err;
};

static uint32_t dims(const unsigned char *d, size_t n)
{
	uint64_t t = 1;

	for (size_t i = 0; i + 4 <= n && i < 12; i += 4)
		t *= u32(d + i) ? u32(d + i) : 1;
	return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

static void kparam(struct kern_info *ki, const unsigned char *d, size_t n)
{
	struct gl_kernel *k = ki->k;
	uint32_t ord, off, size;

	if (n < 12) {
		ki->err = -EINVAL;
		return;
	}
	ord = u32(d + 4) & 0xffff;
	off = u32(d + 4) >> 16;
	size = (u32(d + 8) >> 18) & 0x3fff;
	if (ord >= GLEAM_NPARAMS_MAX || off + (uint64_t)size > GLEAM_PARAMS_MAX) {
		ki->err = -EINVAL;
		return;
	}
	if (ord >= ki->cap) {
		uint32_t c = MAX(ord + 1, ki->cap * 2);
		struct gleam_param *np = realloc(k->params, c * sizeof(*np));

		if (!np) {
			ki->err = -ENOMEM;
			return;
		}
		memset(np + ki->cap, 0, (c - ki->cap) * sizeof(*np));
		k->params = np;
		ki->cap = c;
	}
	k->params[ord].offset = off;
	k->params[ord].size = size;
	if (ord + 1 > k->nparams)
		k->nparams = ord + 1;
}

static void kernel_attr(void *arg, unsigned int fmt, unsigned int attr, uint32_t val,
			const unsigned char *d, size_t n)
{
	struct kern_info *ki = arg;
	struct gl_kres *r = &ki->k->res;

	switch (attr) {
	case EIATTR_KPARAM_INFO:
		if (fmt == EIFMT_SVAL)
			kparam(ki, d, n);
		break;
	case EIATTR_CBANK_PARAM_SIZE:
		if (fmt == EIFMT_HVAL)
			ki->k->params_size = val;
		break;
	case EIATTR_MAX_THREADS:
	case EIATTR_REQNTID:
		if (fmt == EIFMT_SVAL && n >= 12) {
			uint32_t t = dims(d, n);

			if (!r->max_threads || t < r->max_threads)
				r->max_threads = t;
		}
		break;
	case EIATTR_NUM_BARRIERS:
		if (fmt != EIFMT_SVAL)
			r->barriers = val;
		break;
	case EIATTR_CTA_PER_CLUSTER:
		if (fmt == EIFMT_SVAL && n >= 12)
			for (int i = 0; i < 3; i++)
				r->cluster[i] = u32(d + 4 * i);
		break;
	case EIATTR_EXPLICIT_CLUSTER:
		r->cluster_must_be_set = true;
		break;
	default:
		break;
	}
}

/* The virtual architecture a cubin was compiled from: its .note.nv.cuinfo. */
static int elf_ptx_version(const struct elf *e, int arch)
{
	for (unsigned int i = 0; i < e->shnum; i++) {
		struct shdr s;
		const char *nm;

		if (shdr(e, i, &s) || s.type != SHT_NOTE)
			continue;
		nm = sec_name(e, &s);
		if (!nm || strcmp(nm, ".note.nv.cuinfo") || s.size < 24)
			continue;
		/* namesz, descsz, type, "NVIDIA Corp\0", then version and arch. */
		if (u32(e->p + s.off) != 12 || u32(e->p + s.off + 4) < 4)
			continue;
		return u16(e->p + s.off + 12 + 12 + 2);
	}
	/* Older objects: the third byte of the flags. */
	if (e->p[8] < 8)
		return (int)((u32(e->p + 0x30) >> 16) & 0xff);
	return arch;
}

/* Sections that belong to a kernel: sh_info names its .text section. */
struct kern_secs {
	int info;		/* .nv.info.<kernel> */
	uint64_t smem;		/* size of .nv.shared.<kernel> */
};

static int cubin_kernel(struct builder *b, const struct elf *e, const struct shdr *sym_sec,
			const struct shdr *str_sec, uint32_t symi, const char *name,
			unsigned int text, const struct shdr *modinfo, bool reserved_in_smem,
			uint32_t const_bytes, int arch, int ptxv)
{
	struct gl_kernel *k;
	struct kern_info ki;
	struct sym_info si = { .sym = symi };
	struct kern_secs ks = { .info = -1 };
	int r;

	for (unsigned int i = 0; i < e->shnum; i++) {
		struct shdr s;
		const char *nm;

		if (shdr(e, i, &s) || s.info != text)
			continue;
		nm = sec_name(e, &s);
		if (starts(nm, ".nv.info."))
			ks.info = (int)i;
		else if (starts(nm, ".nv.shared.") && s.type == SHT_NOBITS)
			ks.smem = s.size;
	}
	k = add_kernel(b, name, strlen(name));
	if (!k)
		return -ENOMEM;
	ki = (struct kern_info){ .k = k };
	if (ks.info >= 0) {
		struct shdr s;

		r = shdr(e, (unsigned int)ks.info, &s);
		if (!r)
			r = nvinfo_walk(e, &s, kernel_attr, &ki);
		if (r)
			return r;
		if (ki.err)
			return ki.err;
	}
	if (modinfo) {
		r = nvinfo_walk(e, modinfo, module_attr, &si);
		if (r)
			return r;
	}
	for (uint32_t i = 0; i < k->nparams; i++)
		if (k->params[i].offset + (uint64_t)k->params[i].size > k->params_size)
			k->params_size = k->params[i].offset + k->params[i].size;
	k->res.regs = si.regs;
	k->res.local_bytes = si.frame;
	k->res.static_smem = ks.smem > UINT32_MAX ? UINT32_MAX : (uint32_t)ks.smem;
	k->res.smem_reserved = reserved_in_smem;
	k->res.const_bytes = const_bytes;
	k->res.binary_version = arch;
	k->res.ptx_version = ptxv;
	k->res_known = si.have_regs;
	(void)sym_sec;
	(void)str_sec;
	return 0;
}

static int cubin_index(struct builder *b, const unsigned char *p, size_t len)
{
	struct elf e = { .p = p, .len = len };
	struct shdr sym_sec = { 0 }, str_sec, modinfo;
	bool have_sym = false, have_modinfo = false, reserved = false;
	uint32_t const_bytes = 0;
	int arch, ptxv;

	if (len < 64 || memcmp(p, "\177ELF", 4) || p[4] != 2 || p[5] != 1 ||
	    u16(p + 0x12) != EM_CUDA)
		return -EINVAL;
	e.shoff = u64(p + 0x28);
	e.shentsize = u16(p + 0x3a);
	e.shnum = u16(p + 0x3c);
	e.shstrndx = u16(p + 0x3e);
	if (e.shentsize < 64 || !in(len, e.shoff, (uint64_t)e.shnum * e.shentsize))
		return -EINVAL;
	for (unsigned int i = 0; i < e.shnum; i++) {
		struct shdr s;
		const char *nm;

		if (shdr(&e, i, &s))
			return -EINVAL;
		nm = sec_name(&e, &s);
		if (s.type == SHT_SYMTAB && !have_sym) {
			sym_sec = s;
			have_sym = true;
		} else if (nm && !strcmp(nm, ".nv.info")) {
			modinfo = s;
			have_modinfo = true;
		} else if (starts(nm, ".nv.shared.reserved.")) {
			reserved = true;
		} else if (nm && !strcmp(nm, ".nv.constant3")) {
			const_bytes = s.size > UINT32_MAX ? UINT32_MAX : (uint32_t)s.size;
		}
	}
	if (!have_sym)
		return 0;	/* no symbols: nothing to find */
	if (sym_sec.entsize < 24 || shdr(&e, sym_sec.link, &str_sec) ||
	    str_sec.type == SHT_NOBITS)
		return -EINVAL;
	/* Kernels that use the driver's reserved shared memory hold it in their own. */
	for (uint64_t off = 0; !reserved && off + sym_sec.entsize <= sym_sec.size;
	     off += sym_sec.entsize)
		reserved = starts(elf_str(&e, &str_sec, u32(p + sym_sec.off + off)),
				  ".nv.reservedSmem");
	arch = elf_arch(p);
	ptxv = elf_ptx_version(&e, arch);
	b->m->arch = arch;
	for (uint64_t off = 0; off + sym_sec.entsize <= sym_sec.size; off += sym_sec.entsize) {
		const unsigned char *s = p + sym_sec.off + off;
		uint32_t symi = (uint32_t)(off / sym_sec.entsize);
		unsigned int type = s[4] & 0xf, other = s[5];
		uint16_t shndx = u16(s + 6);
		const char *name = elf_str(&e, &str_sec, u32(s));
		struct shdr sec;
		const char *secname;
		int r;

		if (!name || !*name || !shndx || shndx >= e.shnum || shdr(&e, shndx, &sec))
			continue;
		if (strnlen(name, GLEAM_NAME_MAX) >= GLEAM_NAME_MAX)
			continue;
		secname = sec_name(&e, &sec);
		if (type == STT_FUNC && (other & STO_CUDA_ENTRY)) {
			r = cubin_kernel(b, &e, &sym_sec, &str_sec, symi, name, shndx,
					 have_modinfo ? &modinfo : NULL, reserved, const_bytes,
					 arch, ptxv);
			if (r)
				return r;
		} else if (type == STT_OBJECT &&
			   (starts(secname, ".nv.global") ||
			    (starts(secname, ".nv.constant") && !starts(secname, ".nv.constant0")))) {
			r = add_var(b, name, strlen(name), u64(s + 16));
			if (r)
				return r;
		}
	}
	return 0;
}

/* ---- PTX ---- */

struct ptx {
	const char *p, *end;
};

static void ptx_space(struct ptx *x)
{
	while (x->p < x->end) {
		if (isspace((unsigned char)*x->p)) {
			x->p++;
		} else if (x->end - x->p >= 2 && x->p[0] == '/' && x->p[1] == '/') {
			while (x->p < x->end && *x->p != '\n')
				x->p++;
		} else if (x->end - x->p >= 2 && x->p[0] == '/' && x->p[1] == '*') {
			const char *c = memmem(x->p + 2, (size_t)(x->end - x->p - 2), "*/", 2);

			x->p = c ? c + 2 : x->end;
		} else {
			break;
		}
	}
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '%';
}

/* The next token: an identifier or directive, or one punctuation character. */
static size_t ptx_token(struct ptx *x, const char **tok)
{
	const char *s;

	ptx_space(x);
	s = x->p;
	*tok = s;
	if (s >= x->end)
		return 0;
	if (!ident_char(*s)) {
		x->p++;
		return 1;
	}
	while (x->p < x->end && ident_char(*x->p))
		x->p++;
	return (size_t)(x->p - s);
}

static bool tok_is(const char *t, size_t n, const char *w)
{
	return n == strlen(w) && !memcmp(t, w, n);
}

/* Bytes of a PTX fundamental type such as .u32 or .f64; 0 if not one. */
static uint32_t ptx_type_size(const char *t, size_t n)
{
	static const struct { const char *name; uint32_t size; } types[] = {
		{ ".b8", 1 }, { ".u8", 1 }, { ".s8", 1 }, { ".e4m3x2", 2 }, { ".e5m2x2", 2 },
		{ ".b16", 2 }, { ".u16", 2 }, { ".s16", 2 }, { ".f16", 2 }, { ".bf16", 2 },
		{ ".f16x2", 4 }, { ".bf16x2", 4 },
		{ ".b32", 4 }, { ".u32", 4 }, { ".s32", 4 }, { ".f32", 4 }, { ".tf32", 4 },
		{ ".b64", 8 }, { ".u64", 8 }, { ".s64", 8 }, { ".f64", 8 }, { ".b128", 16 },
		{ ".texref", 8 }, { ".samplerref", 8 }, { ".surfref", 8 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (tok_is(t, n, types[i].name))
			return types[i].size;
	return 0;
}

/*
 * One declaration's type and name: [.align N] [.vN] .type [.ptr ...] name
 * [dims]; *size and *align, and the name.  At the end, the parser stands
 * after the name and its dimensions.  -EINVAL for what it cannot read.
 */
static int ptx_decl(struct ptx *x, uint64_t *size, uint32_t *align, const char **name,
		    size_t *nlen)
{
	uint32_t elem = 0, vec = 1, al = 0;
	const char *t;
	size_t n;

	for (;;) {
		n = ptx_token(x, &t);
		if (!n)
			return -EINVAL;
		if (tok_is(t, n, ".align")) {
			const char *v;
			size_t vn = ptx_token(x, &v);

			if (!vn || !isdigit((unsigned char)*v))
				return -EINVAL;
			al = (uint32_t)strtoul(v, NULL, 10);
		} else if (tok_is(t, n, ".v2") || tok_is(t, n, ".v4") || tok_is(t, n, ".v8")) {
			vec = (uint32_t)(t[2] - '0');
		} else if (ptx_type_size(t, n)) {
			elem = ptx_type_size(t, n);
		} else if (*t == '.') {
			continue;	/* .ptr, a state space, .global, .const, ... */
		} else {
			break;
		}
	}
	if (!elem || (!isalpha((unsigned char)*t) && *t != '_' && *t != '$' && *t != '%'))
		return -EINVAL;
	*name = t;
	*nlen = n;
	*size = (uint64_t)elem * vec;
	for (;;) {
		const char *save = x->p, *v;
		size_t vn;

		ptx_space(x);
		if (x->p >= x->end || *x->p != '[') {
			x->p = save;
			break;
		}
		x->p++;
		vn = ptx_token(x, &v);
		if (!vn || !isdigit((unsigned char)*v))
			return -EINVAL;	/* an unsized array: not a definition */
		*size *= strtoull(v, NULL, 10);
		if (*size > GLEAM_IMAGE_MAX)
			return -EINVAL;
		if (ptx_token(x, &v) != 1 || *v != ']')
			return -EINVAL;
	}
	*align = al ? al : elem * vec;
	return 0;
}

/* Skip a { ... } body, nested braces included; the parser stands after '{'. */
static void ptx_skip_body(struct ptx *x)
{
	int depth = 1;

	while (x->p < x->end && depth) {
		char c = *x->p++;

		if (c == '{')
			depth++;
		else if (c == '}')
			depth--;
		else if (c == '"')
			while (x->p < x->end && *x->p++ != '"')
				;
	}
}

static bool tok_starts(const char *t, size_t n, const char *w)
{
	size_t l = strlen(w);

	return n >= l && !memcmp(t, w, l);
}

/*
 * Skip an entry's body, the parser after its '{', counting the named
 * barriers its code uses as ptxas counts them: one more than the highest
 * barrier an instruction names, all 16 where one names it by register.
 */
static uint32_t ptx_barriers(struct ptx *x)
{
	uint32_t most = 0;
	int depth = 1;

	while (depth) {
		const char *t, *v;
		size_t n = ptx_token(x, &t);

		if (!n)
			break;
		if (n == 1 && *t == '{') {
			depth++;
		} else if (n == 1 && *t == '}') {
			depth--;
		} else if (n == 1 && *t == '"') {
			while (x->p < x->end && *x->p++ != '"')
				;
		} else if ((tok_starts(t, n, "bar.") || tok_starts(t, n, "barrier.")) &&
			   !tok_starts(t, n, "bar.warp") && !tok_starts(t, n, "barrier.cluster")) {
			size_t vn = ptx_token(x, &v);

			/* bar.red names its destination first. */
			if (tok_starts(t, n, "bar.red") || tok_starts(t, n, "barrier.red")) {
				if (ptx_token(x, &v) != 1 || *v != ',')
					continue;
				vn = ptx_token(x, &v);
			}
			if (vn && isdigit((unsigned char)*v)) {
				unsigned long id = strtoul(v, NULL, 10);

				if (id < 16 && id + 1 > most)
					most = (uint32_t)id + 1;
			} else if (vn && *v == '%') {
				most = 16;
			}
		}
	}
	return most;
}

static int ptx_entry(struct builder *b, struct ptx *x)
{
	struct gl_kernel *k;
	const char *t, *name;
	size_t n, nlen;
	uint64_t off = 0;
	uint32_t cap = 0;

	n = ptx_token(x, &name);
	if (!n)
		return -EINVAL;
	nlen = n;
	if (nlen >= GLEAM_NAME_MAX)
		return -EINVAL;
	n = ptx_token(x, &t);
	/* A declaration without parameters, or a prototype (no body), is skipped below. */
	k = add_kernel(b, name, nlen);
	if (!k)
		return -ENOMEM;
	if (n == 1 && *t == '(') {
		for (;;) {
			uint64_t size;
			uint32_t align;
			const char *pn;
			size_t pl;

			n = ptx_token(x, &t);
			if (n == 1 && *t == ')')
				break;
			if (!tok_is(t, n, ".param") || ptx_decl(x, &size, &align, &pn, &pl))
				return -EINVAL;
			if (!align || (align & (align - 1)))
				return -EINVAL;
			off = (off + align - 1) & ~(uint64_t)(align - 1);
			if (off + size > GLEAM_PARAMS_MAX || k->nparams >= GLEAM_NPARAMS_MAX)
				return -EINVAL;
			if (k->nparams == cap) {
				struct gleam_param *np;

				cap = cap ? cap * 2 : 8;
				np = realloc(k->params, cap * sizeof(*np));
				if (!np)
					return -ENOMEM;
				k->params = np;
			}
			k->params[k->nparams].offset = (uint32_t)off;
			k->params[k->nparams].size = (uint32_t)size;
			k->nparams++;
			off += size;
			n = ptx_token(x, &t);
			if (n == 1 && *t == ')')
				break;
			if (n != 1 || *t != ',')
				return -EINVAL;
		}
		n = ptx_token(x, &t);
	}
	k->params_size = (uint32_t)off;
	/* Performance directives may come before the body. */
	while (n && *t == '.') {
		while ((n = ptx_token(x, &t)) && (isdigit((unsigned char)*t) || *t == ','))
			;
	}
	if (n == 1 && *t == '{') {
		k->res.barriers = ptx_barriers(x);
		return 0;
	}
	/* A prototype of an entry defined elsewhere: not in this module. */
	free(k->name);
	free(k->params);
	b->m->nkernels--;
	return 0;
}

static int ptx_index(struct builder *b, const unsigned char *code, size_t len)
{
	struct ptx x = { (const char *)code, (const char *)code + len };
	bool ext = false;	/* the declaration under way is .extern */

	for (;;) {
		const char *t;
		size_t n = ptx_token(&x, &t);
		int r = 0;

		if (!n)
			return 0;
		if (n == 1 && *t == '"') {
			while (x.p < x.end && *x.p++ != '"')
				;
		} else if (n == 1 && *t == '{') {
			ptx_skip_body(&x);
			ext = false;
		} else if (n == 1 && *t == ';') {
			ext = false;
		} else if (tok_is(t, n, ".extern")) {
			ext = true;
		} else if (tok_is(t, n, ".entry")) {
			/* A prototype (no body) is dropped by ptx_entry itself. */
			r = ptx_entry(b, &x);
			ext = false;
		} else if (tok_is(t, n, ".global") || tok_is(t, n, ".const")) {
			uint64_t size;
			uint32_t align;
			const char *name;
			size_t nlen;

			if (!ext && !ptx_decl(&x, &size, &align, &name, &nlen) &&
			    nlen < GLEAM_NAME_MAX)
				r = add_var(b, name, nlen, size);
			ext = false;
		}
		if (r)
			return r;
	}
}

int gl_module_index(enum gl_code_kind kind, const unsigned char *code, size_t len,
		    struct gl_module_index **out)
{
	struct builder b = { 0 };
	int r;

	b.m = calloc(1, sizeof(*b.m));
	if (!b.m)
		return -ENOMEM;
	b.m->kind = kind;
	if (kind == GL_CODE_CUBIN)
		r = cubin_index(&b, code, len);
	else if (kind == GL_CODE_PTX)
		r = ptx_index(&b, code, len);
	else
		r = -EINVAL;
	if (r) {
		gl_module_index_free(b.m);
		return r;
	}
	finish(b.m);
	*out = b.m;
	return 0;
}
