/* SPDX-License-Identifier: MIT */
/*
 * For the test programs that speak the wire themselves (tests/gpus,
 * tests/hostile): a TCP connection to a server gleamd.
 */
#ifndef GLEAM_TEST_TCP_H
#define GLEAM_TEST_TCP_H

#include <sys/socket.h>
#include <unistd.h>

#include "gleam_wire.h"
#include "util.h"

/* A connected socket to HOST[:PORT] (gleamd's port by default), or -1. */
static inline int test_tcp_connect(const char *hostport)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd;

	if (gl_parse_hostport(hostport, GLEAM_WIRE_PORT, &ss, &sl))
		return -1;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&ss, sl) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

#endif
