// SPDX-License-Identifier: MIT
/* gleamd's config file: any bytes give a clear error or valid settings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gleamd.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/gleam-fuzz-config.XXXXXX";
	struct config c;
	int fd = mkstemp(path);

	gl_log_level = -1;
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	config_defaults(&c, ROLE_CLIENT);
	if (!config_load(&c, path)) {
		/* Whatever was accepted is terminated and within its limits. */
		if (strnlen(c.server, sizeof(c.server)) == sizeof(c.server) ||
		    strnlen(c.socket_path, sizeof(c.socket_path)) == sizeof(c.socket_path) ||
		    c.ring_shift < 22 || c.ring_shift > 28 || c.nservers > GLEAM_CFG_SERVERS_MAX ||
		    strnlen(c.state_dir, sizeof(c.state_dir)) == sizeof(c.state_dir) ||
		    (strcmp(c.placement, "auto") && strcmp(c.placement, "round-robin") &&
		     strcmp(c.placement, "random")))
			abort();
		for (unsigned int i = 0; i < c.nservers; i++)
			if (!c.servers[i][0] || strnlen(c.servers[i], sizeof(c.servers[i])) ==
						sizeof(c.servers[i]) || (i && !strcmp(c.servers[i], c.servers[0])))
				abort();
	}
	unlink(path);
	return 0;
}
