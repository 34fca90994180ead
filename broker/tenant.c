// SPDX-License-Identifier: MIT
/* Tenants of a server gleamd, by identity (tenant.h); they live as long as it does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tenant.h"
#include "util.h"

static struct tenant *tenants;
static unsigned int ntenants;

struct tenant *tenant_get(const char *name)
{
	struct tenant *t;

	for (t = tenants; t; t = t->next)
		if (!strcmp(t->name, name))
			return t;
	if (ntenants == TENANTS_MAX) {
		gl_err("%u identities seen: %s is refused (Documentation/security.md)", TENANTS_MAX,
		       name);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->idx = ntenants++;
	t->next = tenants;
	tenants = t;
	return t;
}
