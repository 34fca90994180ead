// SPDX-License-Identifier: MIT
/*
 * What a monitoring tool asks NVML, through whichever libnvidia-ml.so.1 the
 * dynamic loader finds (dlopen by soname, as nvidia-smi, pynvml and
 * PyTorch do), printed one "key value" a line for tests/nvml/run.sh.
 *
 *   nvml-query            every device's answers
 *   nvml-query --watch N  memory in use, N times, 0.2 s apart
 *   nvml-query --export   device 0 and its processes through the internal
 *                         export table, as nvidia-smi finds them
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int ret_t;
typedef void *dev_t_;

struct mem { unsigned long long total, free, used; };
struct mem2 { unsigned int version; unsigned long long total, reserved, free, used; };
struct util { unsigned int gpu, memory; };
struct proc { unsigned int pid; unsigned long long used; unsigned int gi, ci; };

static void *h;

static void *fn(const char *name)
{
	void *f = dlsym(h, name);

	if (!f) {
		printf("missing %s\n", name);
		exit(1);
	}
	return f;
}

#define CALL(type, name, ...) ((type)fn(name))(__VA_ARGS__)
typedef ret_t (*f0)(void);
typedef ret_t (*fu)(unsigned int *);
typedef ret_t (*fi)(int *);
typedef ret_t (*fidx)(unsigned int, dev_t_ *);
typedef ret_t (*fstr)(dev_t_, char *, unsigned int);
typedef ret_t (*fsys)(char *, unsigned int);
typedef ret_t (*fdp)(dev_t_, void *);
typedef ret_t (*fdu)(dev_t_, int, unsigned int *);
typedef ret_t (*fprocs)(dev_t_, unsigned int *, struct proc *);
typedef ret_t (*fuuid)(const char *, dev_t_ *);
typedef const char *(*ferr)(ret_t);

static void device(unsigned int i)
{
	char name[96], uuid[96];
	struct mem m;
	struct mem2 m2 = { .version = (unsigned int)sizeof(struct mem2) | (2U << 24) };
	struct util u;
	struct proc p[64];
	unsigned int n = 64, t, idx;
	dev_t_ d, d2;
	ret_t r;

	if (CALL(fidx, "nvmlDeviceGetHandleByIndex_v2", i, &d) ||
	    CALL(fstr, "nvmlDeviceGetName", d, name, sizeof(name)) ||
	    CALL(fstr, "nvmlDeviceGetUUID", d, uuid, sizeof(uuid)) ||
	    CALL(fdp, "nvmlDeviceGetMemoryInfo", d, &m) || CALL(fdp, "nvmlDeviceGetMemoryInfo_v2", d, &m2) ||
	    CALL(fdp, "nvmlDeviceGetIndex", d, &idx)) {
		printf("gpu%u error\n", i);
		return;
	}
	printf("gpu%u.index %u\ngpu%u.name %s\ngpu%u.uuid %s\n", i, idx, i, name, i, uuid);
	printf("gpu%u.mem_total %llu\ngpu%u.mem_used %llu\ngpu%u.mem_free %llu\n", i, m.total, i,
	       m.used, i, m.free);
	printf("gpu%u.mem2_total %llu\n", i, m2.total);
	printf("gpu%u.by_uuid %s\n", i,
	       !CALL(fuuid, "nvmlDeviceGetHandleByUUID", uuid, &d2) && d2 == d ? "same" : "other");
	r = CALL(fdp, "nvmlDeviceGetUtilizationRates", d, &u);
	if (r)
		printf("gpu%u.util error %d\n", i, r);
	else
		printf("gpu%u.util %u\n", i, u.gpu);
	r = CALL(fdu, "nvmlDeviceGetTemperature", d, 0, &t);
	printf("gpu%u.temperature %s\n", i, r ? CALL(ferr, "nvmlErrorString", r) : "known");
	r = CALL(fprocs, "nvmlDeviceGetComputeRunningProcesses_v3", d, &n, p);
	printf("gpu%u.processes %d", i, r ? -r : (int)n);
	for (unsigned int k = 0; !r && k < n; k++)
		printf(" %u", p[k].pid);
	printf("\n");
	r = CALL(fdp, "nvmlDeviceGetBAR1MemoryInfo", d, &m);
	printf("gpu%u.bar1 %s\n", i, CALL(ferr, "nvmlErrorString", r));
}

/* nvidia-smi's table: 6c3efec4-8fc9-4e6c-a327-ee696e12f7c4. */
static const unsigned char table_id[16] = {
	0xc4, 0xfe, 0x3e, 0x6c, 0xc9, 0x8f, 0x6c, 0x4e,
	0xa3, 0x27, 0xee, 0x69, 0x6e, 0x12, 0xf7, 0xc4,
};

typedef ret_t (*fexp)(const void **, const void *);
typedef ret_t (*fslot)(void *, void *, void *, void *);

static int export_table(void)
{
	static unsigned char procs[4 * 4128];
	const void *const *tab;
	dev_t_ d = NULL, d0;
	unsigned int cap = 4, pid;
	ret_t r;

	r = CALL(fexp, "nvmlInternalGetExportTable", (const void **)&tab, table_id);
	if (r || CALL(fidx, "nvmlDeviceGetHandleByIndex_v2", 0, &d0))
		return 1;
	printf("export.size %lu\n", (unsigned long)(uintptr_t)tab[0]);
	r = ((fslot)tab[81])((void *)0, &d, (void *)0x22, NULL);
	printf("export.device %s\n", !r && d == d0 ? "same" : "other");
	r = ((fslot)tab[213])(d0, &cap, procs, NULL);
	printf("export.processes %d", r ? -1 : (int)cap);
	for (unsigned int k = 0; !r && k < cap; k++) {
		memcpy(&pid, procs + k * 4128, 4);
		printf(" %u:%s", pid, (char *)procs + k * 4128 + 32);
	}
	printf("\n");
	cap = 7;
	r = ((fslot)tab[100])(d0, &cap, NULL, NULL);
	printf("export.other %d %u\n", r, cap);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int count;
	int cuda;
	ret_t r;

	h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
	if (!h) {
		printf("dlopen %s\n", dlerror());
		return 1;
	}
	r = CALL(f0, "nvmlInit_v2");
	printf("init %d\n", r);
	if (r)
		return 1;
	if (CALL(fu, "nvmlDeviceGetCount_v2", &count))
		return 1;
	printf("count %u\n", count);
	if (argc == 2 && !strcmp(argv[1], "--export"))
		return export_table();
	if (argc == 3 && !strcmp(argv[1], "--watch")) {
		for (int k = 0; k < atoi(argv[2]); k++) {
			struct mem m;
			dev_t_ d;

			if (!count || CALL(fidx, "nvmlDeviceGetHandleByIndex_v2", 0, &d) ||
			    CALL(fdp, "nvmlDeviceGetMemoryInfo", d, &m))
				return 1;
			printf("gpu0.mem_used %llu\n", m.used);
			fflush(stdout);
			usleep(200000);
		}
		return CALL(f0, "nvmlShutdown") ? 1 : 0;
	}
	printf("cuda_driver %d\n", CALL(fi, "nvmlSystemGetCudaDriverVersion_v2", &cuda) ? -1 : cuda);
	for (unsigned int i = 0; i < count; i++)
		device(i);
	r = CALL(f0, "nvmlShutdown");
	printf("shutdown %d\n", r);
	r = CALL(fu, "nvmlDeviceGetCount_v2", &count);
	printf("after_shutdown %s\n", CALL(ferr, "nvmlErrorString", r));
	return 0;
}
