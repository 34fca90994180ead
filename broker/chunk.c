// SPDX-License-Identifier: MIT
/*
 * The content-addressed chunk store: one index of names, two tiers.
 *
 * Every name the store knows has one struct entry in a hash table.  An
 * entry holds a reference to the chunk's bytes while they are in memory
 * (on mem_lru) and says whether its file exists (on disk_lru).  The LRU
 * lists run from least recently used (head) to most (tail); eviction takes
 * from the head until the tier is within its limit again.
 *
 * On disk, chunk NAME lives in DIR/objects/NA/ME... (the first byte's two
 * hex digits name the subdirectory, as git does, so that no directory holds
 * more than 1/256 of the files).  A file is written as .tmp.* in that
 * directory, synced, and renamed to its name: a crash leaves either the
 * whole file or a temporary one, which the next open deletes.  Nothing
 * read from a file is trusted: it is hashed again on every read.
 *
 * The order of the disk LRU is kept in memory and written back to the files'
 * modification times, coarsely (at most once per CHUNK_TOUCH_SEC per file),
 * so that a restart, which orders the files by that time, keeps roughly the
 * same order at little cost.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chunk.h"
#include "list.h"
#include "util.h"

#define CHUNK_TOUCH_SEC		3600
#define TMP_PREFIX		".tmp."
/* "ab/" + 62 hex digits + NUL */
#define PATH_LEN		(3 + 2 * CHUNK_NAME_LEN - 2 + 1)
/* "ab/.tmp." + 62 hex digits + "." + a counter */
#define TMP_PATH_LEN		(PATH_LEN + sizeof(TMP_PREFIX) + 21)

struct entry {
	struct entry *hnext;
	struct chunk_name name;
	uint32_t len;
	uint32_t gen;			/* which write of its file this is */
	struct chunk *mem;		/* the memory copy, or NULL */
	struct list_head mem_lru;	/* on s->mem_lru while mem */
	struct list_head disk_lru;	/* on s->disk_lru while on_disk */
	int64_t stamp;			/* the file's modification time, seconds */
	bool on_disk;
	bool writing;			/* a put is writing its file, lock not held */
};

struct chunk_store {
	pthread_mutex_t lock;
	struct entry **table;
	size_t nbuckets;		/* a power of two */
	uint64_t seed;			/* keeps bucket choice unguessable */
	struct list_head mem_lru, disk_lru;
	uint64_t mem_limit, disk_limit;
	uint32_t chunk_max;
	bool sync;
	int lock_fd;			/* DIR/lock, flock()ed */
	int obj_fd;			/* DIR/objects; -1: no disk tier */
	uint64_t tmp_seq;
	uint32_t gen_seq;		/* numbers every file write, store-wide */
	uint64_t epoch;			/* bumped by clear: writes begun before it are dropped */
	struct chunk_store_stats st;
};

/* ---- names and chunks ---- */

static EVP_MD *sha256_md;
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;

static void sha256_fetch(void)
{
	/* One explicit fetch: an implicit one per call takes a global lock. */
	sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

const EVP_MD *chunk_md(void)
{
	pthread_once(&sha256_once, sha256_fetch);
	return sha256_md;
}

int chunk_hash(const void *data, size_t len, struct chunk_name *out)
{
	const EVP_MD *md = chunk_md();
	unsigned int n = 0;

	if (md && EVP_Digest(data, len, out->b, &n, md, NULL) == 1 && n == CHUNK_NAME_LEN)
		return 0;
	/* All zeros never names anything a client sends: it fails verification. */
	memset(out, 0, sizeof(*out));
	return -EIO;
}

int chunk_hash_keyed(const unsigned char *key, const void *data, size_t len,
		     struct chunk_name *out)
{
	const EVP_MD *md = chunk_md();
	EVP_MD_CTX *ctx = md ? EVP_MD_CTX_new() : NULL;
	unsigned int n = 0;
	int r = -EIO;

	if (ctx && EVP_DigestInit_ex2(ctx, md, NULL) == 1 &&
	    EVP_DigestUpdate(ctx, key, CHUNK_NAME_LEN) == 1 && EVP_DigestUpdate(ctx, data, len) == 1 &&
	    EVP_DigestFinal_ex(ctx, out->b, &n) == 1 && n == CHUNK_NAME_LEN)
		r = 0;
	EVP_MD_CTX_free(ctx);
	if (r)
		memset(out, 0, sizeof(*out));
	return r;
}

bool chunk_name_eq(const struct chunk_name *a, const struct chunk_name *b)
{
	return !memcmp(a->b, b->b, CHUNK_NAME_LEN);
}

void chunk_name_hex(const struct chunk_name *n, char hex[2 * CHUNK_NAME_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < CHUNK_NAME_LEN; i++) {
		hex[2 * i] = digits[n->b[i] >> 4];
		hex[2 * i + 1] = digits[n->b[i] & 15];
	}
	hex[2 * CHUNK_NAME_LEN] = 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;		/* upper case is not a name we wrote */
}

int chunk_name_parse(const char *hex, struct chunk_name *n)
{
	for (int i = 0; i < CHUNK_NAME_LEN; i++) {
		int hi = hexval(hex[2 * i]), lo = hi < 0 ? -1 : hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		n->b[i] = (uint8_t)(hi << 4 | lo);
	}
	return hex[2 * CHUNK_NAME_LEN] ? -EINVAL : 0;
}

uint64_t chunk_count(uint64_t len, uint32_t chunk_size)
{
	return chunk_size ? len / chunk_size + !!(len % chunk_size) : 0;
}

struct chunk *chunk_alloc(uint32_t len)
{
	struct chunk *c;

	if (posix_memalign((void **)&c, 64, sizeof(*c) + len))
		return NULL;
	memset(c, 0, sizeof(*c));
	c->len = len;
	atomic_init(&c->ref, 1);
	return c;
}

struct chunk *chunk_ref(struct chunk *c)
{
	atomic_fetch_add_explicit(&c->ref, 1, memory_order_relaxed);
	return c;
}

void chunk_unref(struct chunk *c)
{
	if (c && atomic_fetch_sub_explicit(&c->ref, 1, memory_order_acq_rel) == 1)
		free(c);
}

/* ---- the index ---- */

static size_t bucket(const struct chunk_store *s, const struct chunk_name *n)
{
	uint64_t h;

	/*
	 * Stored names are SHA-256 outputs, but a client chooses which chunks
	 * to send; a secret multiplier keeps it from filling one bucket.
	 */
	memcpy(&h, n->b, sizeof(h));
	h = (h ^ s->seed) * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 32) & (s->nbuckets - 1);
}

static struct entry *lookup(const struct chunk_store *s, const struct chunk_name *n)
{
	struct entry *e;

	for (e = s->table[bucket(s, n)]; e; e = e->hnext)
		if (chunk_name_eq(&e->name, n))
			return e;
	return NULL;
}

/* Twice the buckets once there are more entries than buckets. */
static void grow(struct chunk_store *s)
{
	size_t old = s->nbuckets, i;
	struct entry **ot = s->table, **nt;

	nt = calloc(old * 2, sizeof(*nt));
	if (!nt)
		return;			/* longer chains, still correct */
	s->table = nt;
	s->nbuckets = old * 2;
	for (i = 0; i < old; i++) {
		while (ot[i]) {
			struct entry *e = ot[i];
			size_t b = bucket(s, &e->name);

			ot[i] = e->hnext;
			e->hnext = nt[b];
			nt[b] = e;
		}
	}
	free(ot);
}

static struct entry *entry_new(struct chunk_store *s, const struct chunk_name *n, uint32_t len)
{
	struct entry *e = calloc(1, sizeof(*e));
	size_t b;

	if (!e)
		return NULL;
	e->name = *n;
	e->len = len;
	list_init(&e->mem_lru);
	list_init(&e->disk_lru);
	if (s->st.entries >= s->nbuckets)
		grow(s);
	b = bucket(s, n);
	e->hnext = s->table[b];
	s->table[b] = e;
	s->st.entries++;
	return e;
}

/* An entry with nothing left in either tier, and no writer, goes. */
static void entry_maybe_free(struct chunk_store *s, struct entry *e)
{
	struct entry **pp;

	if (e->mem || e->on_disk || e->writing)
		return;
	for (pp = &s->table[bucket(s, &e->name)]; *pp != e; pp = &(*pp)->hnext)
		;
	*pp = e->hnext;
	s->st.entries--;
	free(e);
}

static void entry_path(const struct entry *e, char path[PATH_LEN])
{
	char hex[2 * CHUNK_NAME_LEN + 1];

	chunk_name_hex(&e->name, hex);
	path[0] = hex[0];
	path[1] = hex[1];
	path[2] = '/';
	memcpy(path + 3, hex + 2, 2 * CHUNK_NAME_LEN - 2 + 1);
}

/* ---- memory tier ---- */

static void mem_drop(struct chunk_store *s, struct entry *e)
{
	list_del_init(&e->mem_lru);
	s->st.mem_bytes -= e->len;
	s->st.mem_entries--;
	chunk_unref(e->mem);
	e->mem = NULL;
}

/*
 * Keep c in memory, evicting from the head until within the limit.  A chunk
 * longer than the whole limit is not kept.  e is at the tail, so the loop
 * reaches the limit before reaching e.
 */
static void mem_insert(struct chunk_store *s, struct entry *e, struct chunk *c)
{
	if (e->mem || c->len > s->mem_limit)
		return;
	e->mem = chunk_ref(c);
	list_add_tail(&e->mem_lru, &s->mem_lru);
	s->st.mem_bytes += e->len;
	s->st.mem_entries++;
	while (s->st.mem_bytes > s->mem_limit) {
		struct entry *v = container_of(s->mem_lru.next, struct entry, mem_lru);

		mem_drop(s, v);
		s->st.evict_mem++;
		entry_maybe_free(s, v);
	}
}

/* ---- disk tier ---- */

static void disk_drop(struct chunk_store *s, struct entry *e)
{
	char path[PATH_LEN];

	entry_path(e, path);
	if (unlinkat(s->obj_fd, path, 0) < 0 && errno != ENOENT)
		gl_err("chunk store: cannot delete objects/%s: %s", path, strerror(errno));
	list_del_init(&e->disk_lru);
	s->st.disk_bytes -= e->len;
	s->st.disk_entries--;
	e->on_disk = false;
}

/*
 * Room for len more bytes on disk, evicting from the head; the bytes are
 * counted from now, so that concurrent writers cannot together overrun the
 * limit.  False when even an empty disk tier cannot make room.
 */
static bool disk_reserve(struct chunk_store *s, uint32_t len)
{
	while (s->st.disk_bytes + len > s->disk_limit && !list_empty(&s->disk_lru)) {
		struct entry *v = container_of(s->disk_lru.next, struct entry, disk_lru);

		disk_drop(s, v);
		s->st.evict_disk++;
		entry_maybe_free(s, v);
	}
	if (s->st.disk_bytes + len > s->disk_limit)
		return false;
	s->st.disk_bytes += len;
	return true;
}

/* Used now: to the tail of the disk LRU, and to the file's time now and then. */
static void disk_touch(struct chunk_store *s, struct entry *e)
{
	char path[PATH_LEN];
	time_t now;

	if (!e->on_disk)
		return;
	list_move_tail(&e->disk_lru, &s->disk_lru);
	now = time(NULL);
	if (now - e->stamp < CHUNK_TOUCH_SEC)
		return;
	entry_path(e, path);
	if (!utimensat(s->obj_fd, path, NULL, 0))
		e->stamp = now;
}

static void disk_error(struct chunk_store *s, const char *what, const char *path, int err)
{
	/* Counted always, said at the 1st, 2nd, 4th, 8th...: a full disk is loud once. */
	s->st.disk_errors++;
	if (!(s->st.disk_errors & (s->st.disk_errors - 1)))
		gl_err("chunk store: %s objects/%s: %s (%llu disk errors)", what, path,
		       strerror(err), (unsigned long long)s->st.disk_errors);
}

static int write_all(int fd, const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The temporary file, whole and synced; lock not held.  0 or -errno. */
static int write_tmp(struct chunk_store *s, const struct chunk *c, const char *tmp)
{
	int fd, r;

	fd = openat(s->obj_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	r = write_all(fd, c->data, c->len);
	if (!r && s->sync && fdatasync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (r)
		unlinkat(s->obj_fd, tmp, 0);
	return r;
}

/*
 * A chunk's file, read whole and hashed; lock not held.  -ENOENT when the
 * file is gone, -EBADMSG when its size or bytes are not those of its name.
 */
static int read_file(struct chunk_store *s, const char *path, const struct chunk_name *name,
		     uint32_t len, struct chunk **out)
{
	struct chunk_name got;
	struct chunk *c;
	struct stat sb;
	size_t done = 0;
	int fd, r = 0;

	fd = openat(s->obj_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0) {
		r = -errno;
		goto out_close;
	}
	if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size != len) {
		r = -EBADMSG;
		goto out_close;
	}
	c = chunk_alloc(len);
	if (!c) {
		r = -ENOMEM;
		goto out_close;
	}
	while (done < len) {
		ssize_t n = pread(fd, c->data + done, len - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EBADMSG;	/* shrank under us */
			goto out_free;
		}
		done += (size_t)n;
	}
	if (chunk_hash(c->data, len, &got) || !chunk_name_eq(&got, name)) {
		r = -EBADMSG;
		goto out_free;
	}
	c->name = *name;
	*out = c;
	close(fd);
	return 0;

out_free:
	chunk_unref(c);
out_close:
	close(fd);
	return r;
}

/* ---- opening: the directory, its lock, the scan ---- */

struct found {
	struct chunk_name name;
	uint32_t len;
	int64_t mtime;
	long nsec;
};

static int found_cmp(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	if (x->nsec != y->nsec)
		return x->nsec < y->nsec ? -1 : 1;
	return memcmp(x->name.b, y->name.b, CHUNK_NAME_LEN);
}

static bool is_hex(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (hexval(p[i]) < 0)
			return false;
	return !p[n];
}

/* One subdirectory: temporary files deleted, chunk files collected. */
static int scan_sub(struct chunk_store *s, unsigned int i, struct found **fv, size_t *nf,
		    size_t *cap)
{
	char sub[3], hex[2 * CHUNK_NAME_LEN + 1];
	struct dirent *d;
	int dfd, r = 0;
	DIR *dir;

	snprintf(sub, sizeof(sub), "%02x", i);
	if (mkdirat(s->obj_fd, sub, 0700) < 0 && errno != EEXIST)
		return -errno;
	dfd = openat(s->obj_fd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	dir = fdopendir(dfd);
	if (!dir) {
		r = -errno;
		close(dfd);
		return r;
	}
	while ((d = readdir(dir))) {
		struct stat sb;
		struct found *f;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (!strncmp(d->d_name, TMP_PREFIX, strlen(TMP_PREFIX))) {
			/* What a crash left: never renamed, so never whole. */
			if (!unlinkat(dfd, d->d_name, 0))
				s->st.temp_removed++;
			continue;
		}
		if (!is_hex(d->d_name, 2 * CHUNK_NAME_LEN - 2) ||
		    fstatat(dfd, d->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(sb.st_mode)) {
			gl_info("chunk store: objects/%s/%s is not a chunk; left alone", sub,
				d->d_name);
			continue;
		}
		if (sb.st_size == 0 || (uint64_t)sb.st_size > s->chunk_max) {
			/* Cut by another chunk size, or damaged: it will never be asked for. */
			unlinkat(dfd, d->d_name, 0);
			s->st.corrupt++;
			continue;
		}
		if (*nf == *cap) {
			size_t ncap = *cap ? *cap * 2 : 1024;
			struct found *nv = realloc(*fv, ncap * sizeof(*nv));

			if (!nv) {
				r = -ENOMEM;
				break;
			}
			*fv = nv;
			*cap = ncap;
		}
		f = &(*fv)[(*nf)++];
		memcpy(hex, sub, 2);
		memcpy(hex + 2, d->d_name, 2 * CHUNK_NAME_LEN - 2 + 1);
		chunk_name_parse(hex, &f->name);
		f->len = (uint32_t)sb.st_size;
		f->mtime = sb.st_mtim.tv_sec;
		f->nsec = sb.st_mtim.tv_nsec;
	}
	closedir(dir);
	return r;
}

/* Every chunk file known again, least recently modified at the head. */
static int scan(struct chunk_store *s)
{
	struct found *fv = NULL;
	size_t nf = 0, cap = 0, i;
	int r = 0;

	for (i = 0; i < 256 && !r; i++)
		r = scan_sub(s, (unsigned int)i, &fv, &nf, &cap);
	/* The subdirectories themselves must survive a crash before any rename into them. */
	if (!r && s->sync && fsync(s->obj_fd) < 0)
		r = -errno;
	if (nf)
		qsort(fv, nf, sizeof(*fv), found_cmp);
	for (i = 0; i < nf && !r; i++) {
		struct entry *e = entry_new(s, &fv[i].name, fv[i].len);

		if (!e) {
			r = -ENOMEM;
			break;
		}
		e->on_disk = true;
		e->gen = ++s->gen_seq;
		e->stamp = fv[i].mtime;
		list_add_tail(&e->disk_lru, &s->disk_lru);
		s->st.disk_bytes += e->len;
		s->st.disk_entries++;
	}
	free(fv);
	/* A smaller limit than last time: the oldest go now. */
	while (!r && s->st.disk_bytes > s->disk_limit) {
		struct entry *v = container_of(s->disk_lru.next, struct entry, disk_lru);

		disk_drop(s, v);
		s->st.evict_disk++;
		entry_maybe_free(s, v);
	}
	return r;
}

static int open_dir(struct chunk_store *s, const char *dir)
{
	int dfd, r;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	/* Two servers on one directory would delete each other's files in progress. */
	s->lock_fd = openat(dfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (s->lock_fd < 0) {
		r = -errno;
		goto out_close;
	}
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		goto out_close;
	}
	if (mkdirat(dfd, "objects", 0700) < 0 && errno != EEXIST) {
		r = -errno;
		goto out_close;
	}
	s->obj_fd = openat(dfd, "objects", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->obj_fd < 0) {
		r = -errno;
		goto out_close;
	}
	r = s->sync && fsync(dfd) < 0 ? -errno : 0;
out_close:
	close(dfd);
	return r;
}

static void entries_free(struct chunk_store *s)
{
	for (size_t i = 0; i < s->nbuckets; i++) {
		while (s->table[i]) {
			struct entry *e = s->table[i];

			s->table[i] = e->hnext;
			chunk_unref(e->mem);
			free(e);
		}
	}
}

int chunk_store_open(const struct chunk_store_opts *o, struct chunk_store **out)
{
	struct chunk_store *s;
	int r;

	if (o->chunk_max > CHUNK_SIZE_MAX || (o->dir && !o->disk_limit))
		return -EINVAL;
	if (!chunk_md())
		return -ENOSYS;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->nbuckets = 1024;
	s->table = calloc(s->nbuckets, sizeof(*s->table));
	if (!s->table) {
		free(s);
		return -ENOMEM;
	}
	pthread_mutex_init(&s->lock, NULL);
	list_init(&s->mem_lru);
	list_init(&s->disk_lru);
	s->mem_limit = o->mem_limit;
	s->disk_limit = o->dir ? o->disk_limit : 0;
	s->chunk_max = o->chunk_max ? o->chunk_max : CHUNK_SIZE_DEFAULT;
	s->sync = !o->nosync;
	s->lock_fd = -1;
	s->obj_fd = -1;
	if (getrandom(&s->seed, sizeof(s->seed), 0) != sizeof(s->seed))
		s->seed = gl_now_ns() ^ (uint64_t)getpid() << 32;
	if (o->dir) {
		r = open_dir(s, o->dir);
		if (!r)
			r = scan(s);
		if (r) {
			chunk_store_close(s);
			return r;
		}
	}
	*out = s;
	return 0;
}

void chunk_store_close(struct chunk_store *s)
{
	if (!s)
		return;
	entries_free(s);
	free(s->table);
	if (s->obj_fd >= 0)
		close(s->obj_fd);
	if (s->lock_fd >= 0)
		close(s->lock_fd);	/* and with it the lock */
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* ---- puts and gets ---- */

/*
 * c is verified.  Under the lock: the index and memory.  Without it: the
 * file.  Under it again: the rename, so that the index and the directory
 * agree whenever the lock is free.
 */
static int insert(struct chunk_store *s, struct chunk *c)
{
	char tmp[TMP_PATH_LEN], path[PATH_LEN];
	uint64_t epoch = 0;
	struct entry *e;
	bool write;
	int r;

	pthread_mutex_lock(&s->lock);
	s->st.puts++;
	e = lookup(s, &c->name);
	if (e) {
		s->st.dups++;
		if (e->mem)
			list_move_tail(&e->mem_lru, &s->mem_lru);
		disk_touch(s, e);
	} else {
		e = entry_new(s, &c->name, c->len);
		if (!e) {
			pthread_mutex_unlock(&s->lock);
			return -ENOMEM;
		}
	}
	/* Also a chunk held before whose file could not be written then. */
	write = s->obj_fd >= 0 && !e->on_disk && !e->writing && disk_reserve(s, c->len);
	if (write) {
		e->writing = true;
		e->gen = ++s->gen_seq;
		epoch = s->epoch;
		entry_path(e, path);
		snprintf(tmp, sizeof(tmp), "%.3s" TMP_PREFIX "%s.%llu", path, path + 3,
			 (unsigned long long)++s->tmp_seq);
	}
	mem_insert(s, e, c);
	if (!write) {
		r = e->mem || e->on_disk || e->writing ? 0 : -ENOSPC;
		entry_maybe_free(s, e);
		pthread_mutex_unlock(&s->lock);
		return r;
	}
	pthread_mutex_unlock(&s->lock);

	r = write_tmp(s, c, tmp);

	pthread_mutex_lock(&s->lock);
	e->writing = false;
	if (!r && s->epoch != epoch) {
		/* Cleared while we wrote: the chunk is no longer wanted. */
		unlinkat(s->obj_fd, tmp, 0);
		s->st.disk_bytes -= c->len;
		entry_maybe_free(s, e);
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	if (!r && renameat(s->obj_fd, tmp, s->obj_fd, path) < 0) {
		r = -errno;
		unlinkat(s->obj_fd, tmp, 0);
	}
	if (r) {
		s->st.disk_bytes -= c->len;
		disk_error(s, "cannot write", path, -r);
		r = e->mem ? 0 : r;
		entry_maybe_free(s, e);
		pthread_mutex_unlock(&s->lock);
		return r;
	}
	e->on_disk = true;
	e->stamp = time(NULL);
	list_add_tail(&e->disk_lru, &s->disk_lru);
	s->st.disk_entries++;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int chunk_store_add(struct chunk_store *s, const struct chunk_name *name, struct chunk *c)
{
	struct chunk_name got;

	if (!c->len || c->len > s->chunk_max)
		return -EINVAL;
	/* The bytes hashed are the bytes kept: nobody can change them in between. */
	if (chunk_hash(c->data, c->len, &got) || !chunk_name_eq(&got, name)) {
		pthread_mutex_lock(&s->lock);
		s->st.rejected++;
		pthread_mutex_unlock(&s->lock);
		return -EBADMSG;
	}
	c->name = *name;
	return insert(s, c);
}

int chunk_store_put(struct chunk_store *s, const struct chunk_name *name, const void *data,
		    uint32_t len)
{
	struct chunk *c;
	int r;

	if (!len || len > s->chunk_max)
		return -EINVAL;
	/* Copied first, then hashed: the caller's buffer may change meanwhile. */
	c = chunk_alloc(len);
	if (!c)
		return -ENOMEM;
	memcpy(c->data, data, len);
	r = chunk_store_add(s, name, c);
	chunk_unref(c);
	return r;
}

int chunk_store_get(struct chunk_store *s, const struct chunk_name *name, struct chunk **out)
{
	char path[PATH_LEN];
	struct chunk *c = NULL;
	struct entry *e;
	uint32_t gen, len;
	int r;

	pthread_mutex_lock(&s->lock);
	e = lookup(s, name);
	if (e && e->mem) {
		*out = chunk_ref(e->mem);
		list_move_tail(&e->mem_lru, &s->mem_lru);
		disk_touch(s, e);
		s->st.hits_mem++;
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	if (!e || !e->on_disk) {
		/* Also a chunk whose only copy is a file still being written. */
		s->st.misses++;
		pthread_mutex_unlock(&s->lock);
		return -ENOENT;
	}
	gen = e->gen;
	len = e->len;
	entry_path(e, path);
	disk_touch(s, e);
	pthread_mutex_unlock(&s->lock);

	/* An eviction meanwhile unlinks the file: the open fails or reads it whole. */
	r = read_file(s, path, name, len, &c);

	pthread_mutex_lock(&s->lock);
	e = lookup(s, name);
	if (r) {
		/*
		 * Damaged, or deleted behind our back: drop it, unless the entry
		 * is another file by now (evicted and written again meanwhile).
		 */
		if (r != -ENOMEM && e && e->on_disk && e->gen == gen) {
			disk_drop(s, e);
			s->st.corrupt++;
			gl_err("chunk store: objects/%s: %s; deleted", path,
			       r == -EBADMSG ? "bytes do not match the name" : strerror(-r));
			entry_maybe_free(s, e);
		}
		s->st.misses++;
		pthread_mutex_unlock(&s->lock);
		return -ENOENT;
	}
	s->st.hits_disk++;
	if (e)
		mem_insert(s, e, c);
	pthread_mutex_unlock(&s->lock);
	*out = c;
	return 0;
}

bool chunk_store_has(struct chunk_store *s, const struct chunk_name *name, uint32_t *len)
{
	struct entry *e;
	bool r;

	pthread_mutex_lock(&s->lock);
	e = lookup(s, name);
	r = e && (e->mem || e->on_disk);
	if (r && len)
		*len = e->len;
	pthread_mutex_unlock(&s->lock);
	return r;
}

int chunk_store_list(struct chunk_store *s,
		     int (*fn)(const struct chunk_name *name, uint32_t len, unsigned int where,
			       void *arg),
		     void *arg)
{
	int r = 0;

	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->nbuckets && !r; i++) {
		for (struct entry *e = s->table[i]; e && !r; e = e->hnext) {
			unsigned int where = (e->mem ? CHUNK_IN_MEM : 0) |
					     (e->on_disk ? CHUNK_ON_DISK : 0);

			if (where)
				r = fn(&e->name, e->len, where, arg);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

void chunk_store_clear(struct chunk_store *s)
{
	pthread_mutex_lock(&s->lock);
	s->epoch++;
	for (size_t i = 0; i < s->nbuckets; i++) {
		struct entry *e = s->table[i], *next;

		for (; e; e = next) {
			next = e->hnext;
			if (e->mem)
				mem_drop(s, e);
			if (e->on_disk)
				disk_drop(s, e);
			entry_maybe_free(s, e);
		}
	}
	pthread_mutex_unlock(&s->lock);
}

void chunk_store_stats(struct chunk_store *s, struct chunk_store_stats *st)
{
	pthread_mutex_lock(&s->lock);
	*st = s->st;
	pthread_mutex_unlock(&s->lock);
}
