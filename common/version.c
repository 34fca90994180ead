// SPDX-License-Identifier: MIT
/* What every Gleam program says to --version (build/gen/gleam_version.h). */
#include <stdio.h>

#include "gleam_version.h"
#include "util.h"

const char *gl_version(void)
{
	return GLEAM_VERSION;
}

void gl_print_version(const char *prog)
{
	printf("%s (Gleam) %s%s%s\n", prog, GLEAM_VERSION, GLEAM_GIT[0] ? ", git " : "", GLEAM_GIT);
}
