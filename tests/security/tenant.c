// SPDX-License-Identifier: MIT
/*
 * tenant: what a program of one tenant does, for the security tests
 * (tests/security/run.sh), through Gleam's libcuda.so.1.
 *
 *   tenant alloc MIB [HOLD_S]   allocate MIB MiB of device memory; print
 *                               "alloc: NAME" (the result's name), keep it
 *                               HOLD_S seconds, exit 0 whatever the result
 *   tenant upload FILE [HOLD_S] copy FILE's bytes to the device in one call,
 *                               read them back and compare; print
 *                               "upload: ok" or die; then wait HOLD_S
 *                               seconds (another session can be looked at
 *                               meanwhile)
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/cuctx.h"
#include "../programs/util.h"

static void setup(void)
{
	CUdevice dev;
	CUcontext ctx;

	CK(primary_ctx(&dev, &ctx));
}

static int alloc(size_t mib, unsigned int hold)
{
	CUdeviceptr d = 0;
	CUresult r;

	setup();
	r = cuMemAlloc(&d, mib << 20);
	printf("alloc: %s\n", err_name(r));
	fflush(stdout);
	sleep(hold);
	if (!r)
		CK(cuMemFree(d));
	return 0;
}

static int upload(const char *path, unsigned int hold)
{
	size_t len;
	unsigned char *p = read_file(path, &len), *back;
	CUdeviceptr d;

	setup();
	back = malloc(len);
	if (!back)
		die("no memory");
	CK(cuMemAlloc(&d, len));
	CK(cuMemcpyHtoD(d, p, len));
	CK(cuMemcpyDtoH(back, d, len));
	if (memcmp(p, back, len))
		die("upload: the bytes came back changed");
	printf("upload: ok\n");
	fflush(stdout);
	sleep(hold);
	CK(cuMemFree(d));
	free(back);
	free(p);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int hold = argc > 3 ? (unsigned int)atoi(argv[3]) : 0;

	if (argc >= 3 && !strcmp(argv[1], "alloc"))
		return alloc(strtoull(argv[2], NULL, 10), hold);
	if (argc >= 3 && !strcmp(argv[1], "upload"))
		return upload(argv[2], hold);
	fprintf(stderr, "usage: tenant alloc MIB [HOLD_S] | tenant upload FILE [HOLD_S]\n");
	return 2;
}
