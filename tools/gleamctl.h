/* SPDX-License-Identifier: MIT */
/* gleamctl's parts. */
#ifndef GLEAM_GLEAMCTL_H
#define GLEAM_GLEAMCTL_H

/* gleamctl tls init|issue (gleamctl-tls.c); the process's exit status. */
int cmd_tls(int argc, char **argv);

#endif /* GLEAM_GLEAMCTL_H */
