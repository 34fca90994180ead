// SPDX-License-Identifier: MIT
/* gleamctl's own code (tools/gleamctl.c), built into the control harness. */
#include <stdio.h>

#include "fz.h"

#define main gleamctl_main
#include "../../tools/gleamctl.c"
#undef main

int fz_gleamctl_info(int fd, struct gleam_server_info *info, struct gleam_gpu_info *gpus)
{
	return info_exchange(fd, info, gpus);
}

void fz_gleamctl_print_info(FILE *out, const char *addr, int err, struct gleam_server_info *info,
			    struct gleam_gpu_info *gpus, bool json)
{
	print_info(out, addr, err, info, gpus, json);
}

const char *fz_gleamctl_status_server(const char *text, char *buf, size_t len)
{
	return status_server(text, buf, len);
}

const char *fz_gleamctl_status_server_next(const char **pos, char *buf, size_t len)
{
	return status_server_next(pos, buf, len);
}

void fz_gleamctl_put_text(FILE *out, const char *s)
{
	put_text(out, s);
}
