// SPDX-License-Identifier: MIT
/*
 * The runtime's private tables (cuGetExportTable): MD2 against RFC 1319,
 * the integrity answer against the vector in Documentation/export-tables.md,
 * the tables' sizes and slots as the runtime sees them through the built
 * libcuda.so.1, the context-local storage's semantics, and the answer to
 * every cuGetProcAddress request cudart 13 makes.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>

#include "export.h"
#include "unit.h"

/* ---- MD2 and the integrity answer (md2.c, linked in) ---- */

static void md2_hex(const char *msg, char out[33])
{
	struct shim_md2 c;
	uint8_t d[16];

	shim_md2_init(&c);
	/* In two pieces, to cover a block split across updates. */
	shim_md2_update(&c, msg, strlen(msg) / 3);
	shim_md2_update(&c, msg + strlen(msg) / 3, strlen(msg) - strlen(msg) / 3);
	shim_md2_final(&c, d);
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

START_TEST(test_md2_rfc1319)
{
	/* RFC 1319, appendix A.5. */
	static const char *const v[][2] = {
		{ "", "8350e5a3e24c153df2275c9f80692773" },
		{ "a", "32ec01ec4a6dac72c0ab96fb34c0b5d1" },
		{ "abc", "da853b0d3f88d99b30283a69e6ded6bb" },
		{ "message digest", "ab4f496bfb2a530b219ff33031fe06b0" },
		{ "abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "da33def2a42df13975352846c30338cd" },
		{ "1234567890123456789012345678901234567890"
		  "1234567890123456789012345678901234567890",
		  "d5976f79d83d3a0dc9806c3c66f3efd8" },
	};
	char hex[33];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		md2_hex(v[i][0], hex);
		ck_assert_str_eq(hex, v[i][1]);
	}
}
END_TEST

START_TEST(test_integrity_vector)
{
	struct shim_integrity_dev dev = { .pci_domain = 0, .pci_bus = 1, .pci_device = 0 };
	struct shim_integrity_in in = {
		.driver_version = 13000, .version = 13002, .pid = 0x1234, .thread = 0x5678,
		.cudart_table = 0x7f0000001000ull, .integrity_table = 0x7f0000002000ull,
		.integrity_fn = 0x7f0000003000ull, .seconds = 0x6a9c79c9, .ndev = 1, .dev = &dev,
	};
	uint64_t out[2];

	for (int i = 0; i < 16; i++)
		dev.uuid[i] = (uint8_t)i;
	ck_assert_int_eq(shim_integrity_answer(&in, out), 0);
	ck_assert_uint_eq(out[0], 0x6f88cfc63ef8a1fcull);
	ck_assert_uint_eq(out[1], 0x8e2c542db333f928ull);

	/* Versions ending in 0 and 1 have constant answers. */
	in.version = 13000;
	ck_assert_int_eq(shim_integrity_answer(&in, out), 0);
	ck_assert_uint_eq(out[0], 0x3341181C03CB675Cull);
	ck_assert_uint_eq(out[1], 0x8ED383AA1F4CD1E8ull);
	in.version = 13001;
	ck_assert_int_eq(shim_integrity_answer(&in, out), 0);
	ck_assert_uint_eq(out[0], 0x1841181C03CB675Cull);
	ck_assert_uint_eq(out[1], 0x8ED383AA1F4CD1E8ull);

	in.version = 13002;
	in.ndev = 65;
	ck_assert_int_eq(shim_integrity_answer(&in, out), -ENOMEM);
}
END_TEST

/* ---- context-local storage (cls.c, linked in) ---- */

static int dtor_calls;
static void *dtor_last_key, *dtor_last_value;
static CUcontext dtor_last_ctx;

static void count_dtor(CUcontext ctx, void *key, void *value)
{
	dtor_calls++;
	dtor_last_ctx = ctx;
	dtor_last_key = key;
	dtor_last_value = value;
}

/* A destructor that puts a new value for its context while it runs. */
static void reput_dtor(CUcontext ctx, void *key, void *value)
{
	dtor_calls++;
	ck_assert_int_eq(shim_cls_put(7001, key, (void *)0x99, count_dtor), 0);
}

START_TEST(test_cls_semantics)
{
	int k1, k2;
	void *v = NULL;

	dtor_calls = 0;
	ck_assert_int_eq(shim_cls_get(7000, &k1, &v), -ENOENT);
	ck_assert_int_eq(shim_cls_put(7000, &k1, (void *)0x11, count_dtor), 0);
	ck_assert_int_eq(shim_cls_get(7000, &k1, &v), 0);
	ck_assert_ptr_eq(v, (void *)0x11);
	/* Keys are per context. */
	ck_assert_int_eq(shim_cls_get(7002, &k1, &v), -ENOENT);
	/* A key already there keeps its value, as on NVIDIA's driver. */
	ck_assert_int_eq(shim_cls_put(7000, &k1, (void *)0x22, count_dtor), -EEXIST);
	ck_assert_int_eq(shim_cls_get(7000, &k1, &v), 0);
	ck_assert_ptr_eq(v, (void *)0x11);
	/* A kept answer does not survive a change. */
	ck_assert_int_eq(shim_cls_delete(7000, &k1), 0);
	ck_assert_int_eq(shim_cls_get(7000, &k1, &v), -ENOENT);
	ck_assert_int_eq(shim_cls_put(7000, &k1, (void *)0x22, count_dtor), 0);
	ck_assert_int_eq(shim_cls_get(7000, &k1, &v), 0);
	ck_assert_ptr_eq(v, (void *)0x22);
	/* delete does not call the destructor. */
	ck_assert_int_eq(shim_cls_put(7000, &k2, (void *)0x33, count_dtor), 0);
	ck_assert_int_eq(shim_cls_delete(7000, &k2), 0);
	ck_assert_int_eq(shim_cls_delete(7000, &k2), -ENOENT);
	ck_assert_int_eq(shim_cls_get(7000, &k2, &v), -ENOENT);
	ck_assert_int_eq(dtor_calls, 0);
	/* A context going away calls each destructor once, with its handle. */
	ck_assert_int_eq(shim_cls_put(7000, &k2, (void *)0x44, count_dtor), 0);
	ck_assert_int_eq(shim_cls_put(7002, &k2, (void *)0x55, count_dtor), 0);
	shim_cls_drain(7000, (CUcontext)0x7000);
	ck_assert_int_eq(dtor_calls, 2);
	ck_assert_ptr_eq(dtor_last_ctx, (CUcontext)0x7000);
	ck_assert_int_eq(shim_cls_get(7000, &k1, &v), -ENOENT);
	ck_assert_int_eq(shim_cls_get(7000, &k2, &v), -ENOENT);
	shim_cls_drain(7000, (CUcontext)0x7000);
	ck_assert_int_eq(dtor_calls, 2);
	/* The other context kept its value. */
	ck_assert_int_eq(shim_cls_get(7002, &k2, &v), 0);
	ck_assert_ptr_eq(v, (void *)0x55);
	shim_cls_drain(7002, (CUcontext)0x7002);
	ck_assert_int_eq(dtor_calls, 3);
	ck_assert_ptr_eq(dtor_last_key, &k2);
	ck_assert_ptr_eq(dtor_last_value, (void *)0x55);
}
END_TEST

START_TEST(test_cls_drain_reentrant)
{
	int k;
	void *v = NULL;

	dtor_calls = 0;
	ck_assert_int_eq(shim_cls_put(7001, &k, (void *)0x1, reput_dtor), 0);
	shim_cls_drain(7001, (CUcontext)0x7001);
	ck_assert_int_eq(dtor_calls, 1);
	/* What the destructor put belongs to the context's next life. */
	ck_assert_int_eq(shim_cls_get(7001, &k, &v), 0);
	ck_assert_ptr_eq(v, (void *)0x99);
	shim_cls_drain(7001, (CUcontext)0x7001);
	ck_assert_int_eq(dtor_calls, 2);
	ck_assert_int_eq(shim_cls_get(7001, &k, &v), -ENOENT);
}
END_TEST

static int thread_key;

static void *cls_reader(void *arg)
{
	void *v = NULL;

	return (void *)(intptr_t)(shim_cls_get(7003, &thread_key, &v) ? -1 : (intptr_t)v);
}

/* Another thread's change is seen by a thread that asked before. */
START_TEST(test_cls_threads)
{
	pthread_t t;
	void *v = NULL, *res;

	ck_assert_int_eq(shim_cls_put(7003, &thread_key, (void *)0x10, NULL), 0);
	ck_assert_int_eq(shim_cls_get(7003, &thread_key, &v), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, cls_reader, NULL), 0);
	pthread_join(t, &res);
	ck_assert_ptr_eq(res, (void *)0x10);
	ck_assert_int_eq(shim_cls_delete(7003, &thread_key), 0);
	ck_assert_int_eq(shim_cls_put(7003, &thread_key, (void *)0x20, NULL), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, cls_reader, NULL), 0);
	pthread_join(t, &res);
	ck_assert_ptr_eq(res, (void *)0x20);
	ck_assert_int_eq(shim_cls_get(7003, &thread_key, &v), 0);
	ck_assert_ptr_eq(v, (void *)0x20);
	shim_cls_drain(7003, NULL);
}
END_TEST

/* ---- the tables as libcuda.so.1 hands them out ---- */

static const void *const *table(const char *hex)
{
	CUresult (*get)(const void **, const CUuuid *) = (void *)unit_sym("cuGetExportTable");
	const void *t = NULL;
	CUuuid id;

	for (int i = 0; i < 16; i++) {
		unsigned int b;

		ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &b), 1);
		id.bytes[i] = (char)b;
	}
	ck_assert_int_eq(get(&t, &id), CUDA_SUCCESS);
	ck_assert_ptr_nonnull(t);
	return t;
}

/* Sizes as NVIDIA's driver 580 gives them (Documentation/export-tables.md). */
static const struct {
	const char *id;
	size_t bytes;
} sized[] = {
	{ "6bd5fb6c5bf4e74a8987d93912fd9df9", 104 },
	{ "42d85a8123f6cb478298f6e78a3aecdc", 24 },
	{ "a094798c2e742e7493f20800200c0a66", 56 },
	{ "263e88607cd2614392f6bbd5006dfa7e", 120 },
	{ "d4082055bde6704b8d34ba123c66e1f2", 24 },
	{ "f8cff95121468b4eb9e2fb469e7c0dd9", 24 },
	{ "21318c60971432488ca641ff7324c8f2", 744 },
	{ "69a28e9f24498b47b030c5da330ea4e9", 272 },
	{ "1734dc26800d47458726c0f1e7dd8bca", 136 },
};

typedef CUresult (*fn0)(void);

START_TEST(test_table_sizes)
{
	const void *const *cls;

	for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++) {
		const void *const *t = table(sized[i].id);

		ck_assert_uint_eq((uintptr_t)t[0], sized[i].bytes);
		/* Every slot is a function: none is NULL. */
		for (size_t s = 1; s < sized[i].bytes / sizeof(void *); s++)
			ck_assert_msg(t[s] != NULL, "table %s slot %zu is NULL", sized[i].id, s);
	}
	cls = table("c693336e1121df11a8c368f355d89593");
	ck_assert_ptr_nonnull(cls[0]);
	ck_assert_ptr_nonnull(cls[1]);
	ck_assert_ptr_nonnull(cls[2]);
	ck_assert_ptr_null(cls[3]);
}
END_TEST

START_TEST(test_table_unknown)
{
	CUresult (*get)(const void **, const CUuuid *) = (void *)unit_sym("cuGetExportTable");
	const void *t = (void *)1;
	CUuuid id = { { 0 } };

	ck_assert_int_eq(get(&t, &id), CUDA_ERROR_INVALID_VALUE);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(get(NULL, &id), CUDA_ERROR_INVALID_VALUE);
	/* Slots nobody has described refuse, every time. */
	ck_assert_int_eq(((fn0)table("69a28e9f24498b47b030c5da330ea4e9")[19])(),
			 CUDA_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(((fn0)table("69a28e9f24498b47b030c5da330ea4e9")[19])(),
			 CUDA_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(((fn0)table("21318c60971432488ca641ff7324c8f2")[92])(),
			 CUDA_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(((fn0)table("f8cff95121468b4eb9e2fb469e7c0dd9")[1])(),
			 CUDA_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(((fn0)table("263e88607cd2614392f6bbd5006dfa7e")[14])(),
			 CUDA_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(((fn0)table("6bd5fb6c5bf4e74a8987d93912fd9df9")[3])(),
			 CUDA_ERROR_NOT_SUPPORTED);
}
END_TEST

START_TEST(test_table_slots)
{
	const void *const *tls = table("42d85a8123f6cb478298f6e78a3aecdc");
	const void *const *hooks = table("a094798c2e742e7493f20800200c0a66");
	const void *const *checks = table("263e88607cd2614392f6bbd5006dfa7e");
	const void *const *cudart = table("6bd5fb6c5bf4e74a8987d93912fd9df9");
	void *p = (void *)1;
	uint32_t wrapped = 7;
	size_t n = 0;

	ck_assert_int_eq(((CUresult (*)(void **))tls[1])(&p), CUDA_SUCCESS);
	ck_assert_ptr_null(p);
	/* Slot 2: the current context, none before cuInit. */
	p = (void *)1;
	ck_assert_int_eq(((CUresult (*)(void **))tls[2])(&p), CUDA_SUCCESS);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(((CUresult (*)(void **))tls[2])(NULL), CUDA_ERROR_INVALID_VALUE);
	/* 21318c60 slot 4 is cuCtxGetId: nothing to name before cuInit. */
	{
		const void *const *tc = table("21318c60971432488ca641ff7324c8f2");
		CUresult (*stream)(CUcontext, CUstream, CUstream *) = (void *)tc[51];
		unsigned long long id = 0;
		CUstream st = NULL;

		/* Slot 51: the stream a handle stands for. */
		ck_assert_int_eq(stream(NULL, NULL, &st), CUDA_SUCCESS);
		ck_assert_ptr_eq(st, CU_STREAM_LEGACY);
		ck_assert_int_eq(stream(NULL, CU_STREAM_LEGACY, &st), CUDA_SUCCESS);
		ck_assert_ptr_eq(st, CU_STREAM_LEGACY);
		ck_assert_int_eq(stream(NULL, CU_STREAM_PER_THREAD, &st), CUDA_SUCCESS);
		ck_assert_ptr_eq(st, CU_STREAM_PER_THREAD);
		ck_assert_int_eq(stream(NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);

		ck_assert_int_eq(((CUresult (*)(CUcontext, unsigned long long *))tc[4])(NULL, &id),
				 CUDA_ERROR_NOT_INITIALIZED);
		ck_assert_int_eq(((CUresult (*)(CUcontext, unsigned long long *))tc[4])(NULL, NULL),
				 CUDA_ERROR_INVALID_VALUE);
	}

	((void (*)(void **, size_t *))hooks[2])(&p, &n);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(n, 1024);
	ck_assert_uint_eq(((uint64_t *)p)[1023], 0);
	((void (*)(void **, size_t *))hooks[6])(&p, &n);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(n, 14);
	ck_assert_int_eq(((CUresult (*)(void *, void *))hooks[1])(NULL, NULL), CUDA_SUCCESS);

	ck_assert_int_eq(((CUresult (*)(CUcontext, uint32_t *, CUcontext *))checks[2])(NULL,
			 &wrapped, NULL), CUDA_SUCCESS);
	ck_assert_uint_eq(wrapped, 0);
	ck_assert_uint_eq(((uint32_t (*)(void))checks[3])(), 0);

	ck_assert_int_eq(((CUresult (*)(void))cudart[12])(), CUDA_SUCCESS);
	/* Before cuInit there are no devices, so no primary context either. */
	ck_assert_int_eq(((CUresult (*)(CUcontext *, CUdevice))cudart[2])((CUcontext *)&p, 0),
			 CUDA_ERROR_NOT_INITIALIZED);
}
END_TEST

/*
 * The shim's integrity slot gathers what shim_integrity_answer() hashes
 * from the process: the same answer computed here from the same facts
 * (no devices before cuInit) shows that it gathers the right ones.
 */
START_TEST(test_integrity_slot)
{
	const void *const *cudart = table("6bd5fb6c5bf4e74a8987d93912fd9df9");
	const void *const *integ = table("d4082055bde6704b8d34ba123c66e1f2");
	CUresult (*ver)(int *) = (void *)unit_sym("cuDriverGetVersion");
	CUresult (*check)(uint32_t, uint64_t, uint64_t *) = (void *)integ[1];
	struct shim_integrity_in in = { 0 };
	uint64_t got[2], want[2];
	int v = 0;

	ck_assert_int_eq(ver(&v), CUDA_SUCCESS);
	in.driver_version = (uint32_t)v;
	in.version = 13002;
	in.pid = (uint32_t)getpid();
	in.thread = (uint32_t)(uintptr_t)pthread_self();
	in.cudart_table = (uintptr_t)cudart;
	in.integrity_table = (uintptr_t)integ;
	in.integrity_fn = (uintptr_t)integ[1];
	in.seconds = 1700000000;
	ck_assert_int_eq(shim_integrity_answer(&in, want), 0);
	ck_assert_int_eq(check(13002, 1700000000, got), CUDA_SUCCESS);
	ck_assert_uint_eq(got[0], want[0]);
	ck_assert_uint_eq(got[1], want[1]);
	ck_assert_int_eq(check(13000, 1700000000, got), CUDA_SUCCESS);
	ck_assert_uint_eq(got[0], 0x3341181C03CB675Cull);
	ck_assert_int_eq(((CUresult (*)(void *))integ[2])(NULL), CUDA_SUCCESS);
}
END_TEST

/* Without a context, the storage refuses: a NULL context means the current one. */
START_TEST(test_cls_table_without_context)
{
	const void *const *cls = table("c693336e1121df11a8c368f355d89593");
	CUresult (*put)(CUcontext, void *, void *, void *) = (void *)cls[0];
	CUresult (*del)(CUcontext, void *) = (void *)cls[1];
	CUresult (*get)(void **, CUcontext, void *) = (void *)cls[2];
	uint64_t fake[8] = { 0 };
	void *v;
	int key;

	ck_assert_int_eq(put(NULL, &key, &key, NULL), CUDA_ERROR_INVALID_CONTEXT);
	ck_assert_int_eq(get(&v, NULL, &key), CUDA_ERROR_INVALID_CONTEXT);
	ck_assert_int_eq(del(NULL, &key), CUDA_ERROR_INVALID_CONTEXT);
	ck_assert_int_eq(get(&v, (CUcontext)fake, &key), CUDA_ERROR_INVALID_CONTEXT);
	ck_assert_int_eq(get(NULL, NULL, &key), CUDA_ERROR_INVALID_VALUE);
}
END_TEST

/*
 * Every (symbol, version) pair cudart 13 and the libraries measured with
 * it ask for, with the entry point it must get or NOT_FOUND
 * (tests/cudart/getprocaddress.txt).
 */
START_TEST(test_proc_address_requests)
{
	CUresult (*gpa2)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *) =
		(void *)unit_sym("cuGetProcAddress_v2");
	CUresult (*gpa1)(const char *, void **, int, cuuint64_t) = (void *)unit_sym("cuGetProcAddress");
	const char *path = getenv("GLEAM_PROCADDR_LIST");
	FILE *f = fopen(path ? path : "tests/cudart/getprocaddress.txt", "r");
	char line[256], name[128], want[128];
	int n = 0, found = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		CUdriverProcAddressQueryResult st;
		void *p = (void *)1;
		int ver;

		if (line[0] == '#' || sscanf(line, "%127s %d %127s", name, &ver, want) != 3)
			continue;
		n++;
		ck_assert_int_eq(gpa2(name, &p, ver, 0, &st), CUDA_SUCCESS);
		if (!strcmp(want, "NOT_FOUND")) {
			ck_assert_msg(p == NULL && st != CU_GET_PROC_ADDRESS_SUCCESS,
				      "%s@%d should not be found", name, ver);
			ck_assert_int_eq(gpa1(name, &p, ver, 0), CUDA_ERROR_NOT_FOUND);
			continue;
		}
		found++;
		ck_assert_msg(st == CU_GET_PROC_ADDRESS_SUCCESS && p == unit_sym(want),
			      "%s@%d should be %s", name, ver, want);
		ck_assert_int_eq(gpa1(name, &p, ver, 0), CUDA_SUCCESS);
		ck_assert_ptr_eq(p, unit_sym(want));
	}
	fclose(f);
	ck_assert_int_ge(n, 400);
	ck_assert_int_ge(found, 100);
}
END_TEST

Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *lib_t;

	UNIT_TCASE(s, "algorithms", test_md2_rfc1319, test_integrity_vector, test_cls_semantics,
		   test_cls_drain_reentrant, test_cls_threads);
	lib_t = UNIT_TCASE(s, "tables", test_table_sizes, test_table_unknown, test_table_slots,
			   test_integrity_slot, test_cls_table_without_context,
			   test_proc_address_requests);
	tcase_add_checked_fixture(lib_t, unit_shim_open, unit_shim_close);
	return s;
}
