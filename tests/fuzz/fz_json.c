// SPDX-License-Identifier: MIT
/*
 * A strict JSON checker (RFC 8259), for what gleamd and gleamctl print for
 * scripts: one value, nothing after it but white space.  Strings must be
 * printable ASCII or escapes; nothing Gleam prints needs more.
 */
#include <string.h>

#include "fz.h"

#define DEPTH_MAX	64

/* The checker's own branches are no news to the fuzzer: not instrumented. */
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)

struct js {
	const char *p, *e;
};

static void ws(struct js *j)
{
	while (j->p < j->e && strchr(" \t\r\n", *j->p) && *j->p)
		j->p++;
}

static bool lit(struct js *j, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(j->e - j->p) < n || memcmp(j->p, s, n))
		return false;
	j->p += n;
	return true;
}

static bool digits(struct js *j)
{
	const char *s = j->p;

	while (j->p < j->e && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static bool number(struct js *j)
{
	if (j->p < j->e && *j->p == '-')
		j->p++;
	if (j->p < j->e && *j->p == '0')
		j->p++;
	else if (!digits(j))
		return false;
	if (j->p < j->e && *j->p == '.') {
		j->p++;
		if (!digits(j))
			return false;
	}
	if (j->p < j->e && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->e && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!digits(j))
			return false;
	}
	return true;
}

static bool string(struct js *j)
{
	if (j->p >= j->e || *j->p != '"')
		return false;
	for (j->p++; j->p < j->e; j->p++) {
		unsigned char c = (unsigned char)*j->p;

		if (c == '"') {
			j->p++;
			return true;
		}
		if (c < 0x20 || c > 0x7e)
			return false;
		if (c != '\\')
			continue;
		if (++j->p >= j->e)
			return false;
		if (*j->p == 'u') {
			for (int i = 0; i < 4; i++)
				if (++j->p >= j->e || !strchr("0123456789abcdefABCDEF", *j->p) ||
				    !*j->p)
					return false;
		} else if (!strchr("\"\\/bfnrt", *j->p) || !*j->p) {
			return false;
		}
	}
	return false;
}

static bool value(struct js *j, int depth);

static bool members(struct js *j, int depth, char close, bool object)
{
	j->p++;
	ws(j);
	if (j->p < j->e && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		if (object) {
			if (!string(j))
				return false;
			ws(j);
			if (j->p >= j->e || *j->p != ':')
				return false;
			j->p++;
			ws(j);
		}
		if (!value(j, depth + 1))
			return false;
		ws(j);
		if (j->p < j->e && *j->p == ',') {
			j->p++;
			ws(j);
			continue;
		}
		if (j->p < j->e && *j->p == close) {
			j->p++;
			return true;
		}
		return false;
	}
}

static bool value(struct js *j, int depth)
{
	if (depth > DEPTH_MAX || j->p >= j->e)
		return false;
	switch (*j->p) {
	case '{':
		return members(j, depth, '}', true);
	case '[':
		return members(j, depth, ']', false);
	case '"':
		return string(j);
	case 't':
		return lit(j, "true");
	case 'f':
		return lit(j, "false");
	case 'n':
		return lit(j, "null");
	default:
		return number(j);
	}
}

bool fz_json_valid(const char *s, size_t len)
{
	struct js j = { s, s + len };

	ws(&j);
	if (!value(&j, 0))
		return false;
	ws(&j);
	return j.p == j.e;
}

#pragma clang attribute pop
