// SPDX-License-Identifier: MIT
/* gleamd's settings: defaults, the config file, one key at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gleamd.h"
#include "util.h"

void config_defaults(struct config *c, enum role role)
{
	memset(c, 0, sizeof(*c));
	c->role = role;
	gl_local_socket_path(c->socket_path, sizeof(c->socket_path));
	snprintf(c->server, sizeof(c->server), "127.0.0.1:%d", GLEAM_WIRE_PORT);
	snprintf(c->state_dir, sizeof(c->state_dir), "/var/lib/gleam");
	snprintf(c->placement, sizeof(c->placement), "auto");
	snprintf(c->listen, sizeof(c->listen), "0.0.0.0:%d", GLEAM_WIRE_PORT);
	snprintf(c->backend, sizeof(c->backend), "auto");
	c->ring_shift = GL_RING_DEFAULT_SHIFT;
	c->flush_us = 50;
	c->cache_mem = 4ULL << 30;
	c->keepalive_s = 5;
	c->resume_s = 30;
	c->cache_disk = 64ULL << 30;
	c->max_sessions = 256;
	c->max_sessions_tenant = 64;
	c->pin_max = 64ULL << 20;
	c->pin_mem = 2ULL << 30;
}

/* A count in [lo, hi]; 0 or -EINVAL. */
static int parse_count(const char *v, unsigned int lo, unsigned int hi, unsigned int *out)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (end == v || *end || *v < '0' || *v > '9' || n < lo || n > hi)
		return -EINVAL;
	*out = (unsigned int)n;
	return 0;
}

static int set_path(char *dst, size_t len, const char *v)
{
	if (!*v || strlen(v) >= len)
		return -EINVAL;
	strcpy(dst, v);
	return 0;
}

/* The keys of Documentation/security.md: credentials, administrators, limits. */
static int config_set_security(struct config *c, const char *k, const char *v)
{
	if (!strcmp(k, "tls-ca"))
		return set_path(c->tls.ca, sizeof(c->tls.ca), v);
	if (!strcmp(k, "tls-cert"))
		return set_path(c->tls.cert, sizeof(c->tls.cert), v);
	if (!strcmp(k, "tls-key"))
		return set_path(c->tls.key, sizeof(c->tls.key), v);
	if (!strcmp(k, "insecure") && (!strcmp(v, "yes") || !strcmp(v, "no"))) {
		c->insecure = !strcmp(v, "yes");
		return 0;
	}
	if (!strcmp(k, "admin")) {
		if (!gl_ident_ok(v) || c->nadmins == GLEAM_CFG_ADMINS_MAX)
			return -EINVAL;
		strcpy(c->admins[c->nadmins++], v);
		return 0;
	}
	if (!strcmp(k, "admin-group"))
		return set_path(c->admin_group, sizeof(c->admin_group), v);
	if (!strcmp(k, "worker-user"))
		return set_path(c->worker_user, sizeof(c->worker_user), v);
	if (!strcmp(k, "max-sessions"))
		return parse_count(v, 1, 65536, &c->max_sessions);
	if (!strcmp(k, "max-sessions-tenant"))
		return parse_count(v, 1, 65536, &c->max_sessions_tenant);
	if (!strcmp(k, "pin-max"))
		return gl_parse_size(v, &c->pin_max);
	if (!strcmp(k, "pin-mem"))
		return gl_parse_size(v, &c->pin_mem);
	if (!strcmp(k, "gpu-mem-session"))
		return gl_parse_size(v, &c->gpu_mem_session);
	if (!strcmp(k, "gpu-mem-tenant"))
		return gl_parse_size(v, &c->gpu_mem_tenant);
	if (!strcmp(k, "cache-scope") && (!strcmp(v, "shared") || !strcmp(v, "tenant"))) {
		c->cache_tenant = !strcmp(v, "tenant");
		return 0;
	}
	return -EINVAL;
}

int config_set(struct config *c, const char *k, const char *v)
{
	size_t n = strlen(v);

	/*
	 * "server" may repeat: the first one named replaces the default, the
	 * others join it.  A name given twice is one server.
	 */
	if (!strcmp(k, "server") && n && n < sizeof(c->server)) {
		for (unsigned int i = 0; i < c->nservers; i++)
			if (!strcmp(c->servers[i], v))
				return 0;
		if (c->nservers == GLEAM_CFG_SERVERS_MAX)
			return -EINVAL;
		strcpy(c->servers[c->nservers++], v);
		strcpy(c->server, c->servers[0]);
	} else if (!strcmp(k, "state-dir") && n < sizeof(c->state_dir))
		strcpy(c->state_dir, v);
	else if (!strcmp(k, "placement") && (!strcmp(v, "auto") || !strcmp(v, "round-robin") ||
					     !strcmp(v, "random")))
		strcpy(c->placement, v);
	else if (!strcmp(k, "socket") && n < sizeof(c->socket_path))
		strcpy(c->socket_path, v);
	else if (!strcmp(k, "listen") && n < sizeof(c->listen))
		strcpy(c->listen, v);
	else if (!strcmp(k, "backend") && (!strcmp(v, "cuda") || !strcmp(v, "sim") ||
					   !strcmp(v, "auto")))
		strcpy(c->backend, v);
	else if (!strcmp(k, "cuda-lib") && n < sizeof(c->cuda_lib))
		strcpy(c->cuda_lib, v);
	else if (!strcmp(k, "ring-shift") && atoi(v) >= 22 && atoi(v) <= GLEAM_RING_MAX_SHIFT) {
		c->ring_shift = (unsigned int)atoi(v);
		c->ring_shift_set = true;
	}
	else if (!strcmp(k, "flush-us") && atoi(v) >= 10 && atoi(v) <= 100000)
		c->flush_us = (unsigned int)atoi(v);
	else if (!strcmp(k, "keepalive") && atoi(v) >= 0 && atoi(v) <= 3600 && *v >= '0' && *v <= '9')
		c->keepalive_s = (unsigned int)atoi(v);
	else if (!strcmp(k, "resume") && atoi(v) >= 0 && atoi(v) <= 86400 && *v >= '0' && *v <= '9')
		c->resume_s = (unsigned int)atoi(v);
	else if (!strcmp(k, "cache") && (!strcmp(v, "on") || !strcmp(v, "off")))
		c->no_cache = !strcmp(v, "off");
	else if (!strcmp(k, "metrics") && n < sizeof(c->metrics))
		strcpy(c->metrics, v);
	else if (!strcmp(k, "cache-dir") && n < sizeof(c->cache_dir))
		strcpy(c->cache_dir, v);
	else if (!strcmp(k, "cache-mem"))
		return gl_parse_size(v, &c->cache_mem);
	else if (!strcmp(k, "cache-disk"))
		return gl_parse_size(v, &c->cache_disk);
	else
		return config_set_security(c, k, v);
	return 0;
}

/* "key = value" lines, '#' comments; unknown keys are errors. */
int config_load(struct config *c, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "re");
	int ln = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *k = line, *v, *e;

		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			gl_err("%s:%d: line too long", path, ln);
			fclose(f);
			return -EINVAL;
		}
		if ((e = strchr(k, '#')))
			*e = 0;
		while (*k == ' ' || *k == '\t')
			k++;
		if (!*k || *k == '\n')
			continue;
		v = strchr(k, '=');
		if (!v) {
			gl_err("%s:%d: expected key = value", path, ln);
			fclose(f);
			return -EINVAL;
		}
		*v++ = 0;
		for (e = v + strlen(v); e > v && strchr(" \t\r\n", e[-1]); e--)
			e[-1] = 0;
		while (*v == ' ' || *v == '\t')
			v++;
		for (e = k + strlen(k); e > k && strchr(" \t", e[-1]); e--)
			e[-1] = 0;
		if (config_set(c, k, v)) {
			gl_err("%s:%d: bad setting '%s'", path, ln, k);
			fclose(f);
			return -EINVAL;
		}
	}
	fclose(f);
	return 0;
}

