// SPDX-License-Identifier: MIT
/*
 * systemd's readiness protocol (sd_notify(3)), without libsystemd: a
 * datagram to $NOTIFY_SOCKET.  A unit of Type=notify starts the next unit
 * once gleamd says READY=1, that is, once it listens; STOPPING=1 tells it
 * the sessions are being ended.  Outside systemd there is no socket and
 * nothing to do.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "notify.h"
#include "util.h"

int gl_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len;
	ssize_t n;
	int fd;

	if (!path || !*path)
		return 0;
	if ((path[0] != '/' && path[0] != '@') || strlen(path) >= sizeof(sa.sun_path))
		return -EINVAL;
	memcpy(sa.sun_path, path, strlen(path));
	/* '@': the abstract namespace, whose names begin with a NUL. */
	if (path[0] == '@')
		sa.sun_path[0] = 0;
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
	close(fd);
	return n < 0 ? -errno : 0;
}
