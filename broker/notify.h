/* SPDX-License-Identifier: MIT */
/* systemd's readiness notification (notify.c). */
#ifndef GLEAM_NOTIFY_H
#define GLEAM_NOTIFY_H

/* Tell systemd state ("READY=1", "STOPPING=1"); 0 also when not under systemd. */
int gl_notify(const char *state);

#endif /* GLEAM_NOTIFY_H */
