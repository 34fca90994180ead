// SPDX-License-Identifier: MIT
/*
 * Gleam's libnvidia-ml.so.1: nvmlInternalGetExportTable, the private table
 * NVIDIA's nvidia-smi asks its NVML for, and through which it finds its
 * devices and their processes (not through the public calls).  What its
 * slots are was learnt by watching nvidia-smi of the 580 drivers use them:
 *
 *   slot 0        the table's size in bytes (nvidia-smi wants more than 648)
 *   slot 81       (index, nvmlDevice_t *out, ...): a device by index
 *   slots 213-215 (device, unsigned int *count, entries): the device's
 *                 processes; count is the capacity in, the number out; an
 *                 entry is 4128 bytes: pid at 0, memory used at 8, GPU and
 *                 compute instance at 16 and 20, protected memory at 24,
 *                 the process's name from 32, NUL-terminated
 *
 * Every other slot answers success, and zero where its second argument
 * would be a count of the device's: nvidia-smi then shows nothing there,
 * where an error would make it give up on the whole view.  Each slot is a
 * function of its own, so that the slot, not the arguments' shape, says
 * what was asked; GLEAM_NVML_DEBUG=1 names every slot called.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "nvml_gleam.h"
#include "util.h"

#define SLOTS			256
#define SLOT_DEVICE_BY_INDEX	81
#define SLOT_PROCS_FIRST	213
#define SLOT_PROCS_LAST		215

#define PROC_ENTRY_SIZE		4128
#define PROC_NAME_OFF		32
#define PROC_NAME_MAX		(PROC_ENTRY_SIZE - PROC_NAME_OFF)

/* The one table nvidia-smi asks for: 6c3efec4-8fc9-4e6c-a327-ee696e12f7c4, as its bytes lie. */
static const unsigned char table_id[16] = {
	0xc4, 0xfe, 0x3e, 0x6c, 0xc9, 0x8f, 0x6c, 0x4e,
	0xa3, 0x27, 0xee, 0x69, 0x6e, 0x12, 0xf7, 0xc4,
};

/* The device's processes into nvidia-smi's entries; how many. */
static unsigned int fill_procs(const struct gdev *g, unsigned char *out, unsigned int cap)
{
	unsigned int pids[GLEAM_CTL_PROCS_MAX];
	const char *names[GLEAM_CTL_PROCS_MAX];
	unsigned int n = gn_procs(g, pids, names, MIN(cap, (unsigned int)GLEAM_CTL_PROCS_MAX));

	for (unsigned int i = 0; i < n; i++) {
		unsigned char *e = out + (size_t)i * PROC_ENTRY_SIZE;
		uint64_t na = NVML_VALUE_NOT_AVAILABLE, zero = 0;
		uint32_t none = ~0U;
		char name[PROC_NAME_MAX];

		memcpy(e, &pids[i], 4);
		memcpy(e + 8, &na, 8);
		memcpy(e + 16, &none, 4);
		memcpy(e + 20, &none, 4);
		memcpy(e + 24, &zero, 8);
		/* The command line, as nvidia-smi shows it; the program's name if it is gone. */
		if (nvmlSystemGetProcessName(pids[i], name, sizeof(name)))
			snprintf(name, sizeof(name), "%s", names[i]);
		memcpy(e + PROC_NAME_OFF, name, strlen(name) + 1);
	}
	return n;
}

static nvmlReturn_t slot_call(unsigned int slot, void *a0, void *a1, void *a2, void *a3)
{
	struct gdev *g;
	nvmlReturn_t r = NVML_SUCCESS;

	gl_dbg("export table slot %u (%p, %p, %p, %p)", slot, a0, a1, a2, a3);
	if (slot == SLOT_DEVICE_BY_INDEX && a1)
		return nvmlDeviceGetHandleByIndex_v2((unsigned int)(uintptr_t)a0, a1);
	pthread_mutex_lock(&gn.lock);
	g = gn.inits && gn_is_dev(a0) ? gn_dev(a0) : NULL;
	if (g && a1 && a2 && slot >= SLOT_PROCS_FIRST && slot <= SLOT_PROCS_LAST) {
		unsigned int cap;

		memcpy(&cap, a1, sizeof(cap));
		cap = fill_procs(g, a2, cap);
		memcpy(a1, &cap, sizeof(cap));
	} else if (g && a1) {
		unsigned int zero = 0;

		memcpy(a1, &zero, sizeof(zero));
	}
	pthread_mutex_unlock(&gn.lock);
	return r;
}

#define SLOT(n) \
	static nvmlReturn_t slot_##n(void *a0, void *a1, void *a2, void *a3) \
	{ return slot_call(n, a0, a1, a2, a3); }
#define SLOT16(h) SLOT(h##0) SLOT(h##1) SLOT(h##2) SLOT(h##3) SLOT(h##4) SLOT(h##5) \
	SLOT(h##6) SLOT(h##7) SLOT(h##8) SLOT(h##9) SLOT(h##a) SLOT(h##b) SLOT(h##c) \
	SLOT(h##d) SLOT(h##e) SLOT(h##f)
#define ADDR(n) (void *)slot_##n,
#define ADDR16(h) ADDR(h##0) ADDR(h##1) ADDR(h##2) ADDR(h##3) ADDR(h##4) ADDR(h##5) \
	ADDR(h##6) ADDR(h##7) ADDR(h##8) ADDR(h##9) ADDR(h##a) ADDR(h##b) ADDR(h##c) \
	ADDR(h##d) ADDR(h##e) ADDR(h##f)
#define ALL(M) M(0x0) M(0x1) M(0x2) M(0x3) M(0x4) M(0x5) M(0x6) M(0x7) M(0x8) M(0x9) \
	M(0xa) M(0xb) M(0xc) M(0xd) M(0xe) M(0xf)

ALL(SLOT16)

static void *table[SLOTS] = { ALL(ADDR16) };

nvmlReturn_t nvmlInternalGetExportTable(const void **out, const void *id)
{
	static bool said;

	if (!out || !id)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (memcmp(id, table_id, sizeof(table_id))) {
		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			gl_dbg("nvmlInternalGetExportTable: a table Gleam does not have");
		return NVML_ERROR_NOT_SUPPORTED;
	}
	/* Slot 0 holds the size, not a function. */
	table[0] = (void *)(uintptr_t)sizeof(table);
	*out = table;
	return NVML_SUCCESS;
}
