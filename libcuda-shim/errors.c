// SPDX-License-Identifier: MIT
/* cuGetErrorName and cuGetErrorString, answered locally. */
#include "shim.h"

static const struct shim_errname strings[] = {
	{ 0, "no error" },
	{ 1, "invalid argument" },
	{ 2, "out of memory" },
	{ 3, "initialization error" },
	{ 4, "driver shutting down" },
	{ 34, "CUDA driver is a stub library" },
	{ 46, "CUDA-capable device(s) is/are busy or unavailable" },
	{ 100, "no CUDA-capable device is detected" },
	{ 101, "invalid device ordinal" },
	{ 200, "device kernel image is invalid" },
	{ 201, "invalid device context" },
	{ 202, "context already current" },
	{ 209, "no kernel image is available for execution on the device" },
	{ 214, "uncorrectable ECC error encountered" },
	{ 215, "limit is not supported on this architecture" },
	{ 218, "a PTX JIT compilation failed" },
	{ 222, "the provided PTX was compiled with an unsupported toolchain." },
	{ 300, "invalid source" },
	{ 301, "file not found" },
	{ 304, "OS call failed or operation not supported on this OS" },
	{ 400, "invalid resource handle" },
	{ 401, "the operation cannot be performed in the present state" },
	{ 500, "named symbol not found" },
	{ 600, "device not ready" },
	{ 700, "an illegal memory access was encountered" },
	{ 701, "too many resources requested for launch" },
	{ 702, "the launch timed out and was terminated" },
	{ 709, "context is destroyed" },
	{ 710, "device-side assert triggered" },
	{ 714, "hardware stack error" },
	{ 715, "an illegal instruction was encountered" },
	{ 716, "misaligned address" },
	{ 717, "operation not supported on global/shared address space" },
	{ 718, "invalid program counter" },
	{ 719, "unspecified launch failure" },
	{ 800, "operation not permitted" },
	{ 801, "operation not supported" },
	{ 999, "unknown error" },
};

static const char *find_name(CUresult e)
{
	for (unsigned int i = 0; i < shim_nerrnames; i++)
		if (shim_errnames[i].code == (int)e)
			return shim_errnames[i].name;
	return NULL;
}

CUresult shim_cuGetErrorName(CUresult error, const char **pStr)
{
	const char *n;

	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	n = find_name(error);
	if (!n) {
		*pStr = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	*pStr = n;
	return CUDA_SUCCESS;
}

CUresult shim_cuGetErrorString(CUresult error, const char **pStr)
{
	const char *n;

	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	for (unsigned int i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		if (strings[i].code == (int)error) {
			*pStr = strings[i].name;
			return CUDA_SUCCESS;
		}
	}
	n = find_name(error);
	if (!n) {
		*pStr = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	*pStr = n;
	return CUDA_SUCCESS;
}
