// SPDX-License-Identifier: MIT
/* common/util.c: secrets compared, and a connection's peer named. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "unit.h"
#include "util.h"

START_TEST(test_secret_eq)
{
	unsigned char a[32], b[32];

	for (unsigned int i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (unsigned char)(i * 37 + 1);
	ck_assert(gl_secret_eq(a, b, sizeof(a)));
	ck_assert(gl_secret_eq(a, b, 0));
	/* A difference anywhere counts, the first byte and the last alike. */
	b[0] ^= 0x80;
	ck_assert(!gl_secret_eq(a, b, sizeof(a)));
	b[0] ^= 0x80;
	b[31] ^= 1;
	ck_assert(!gl_secret_eq(a, b, sizeof(a)));
	ck_assert(gl_secret_eq(a, b, 31));
}
END_TEST

START_TEST(test_peer_name)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), a;
	char name[64], want[64];

	ck_assert_int_ge(l, 0);
	ck_assert_int_ge(c, 0);
	/* Not connected: no peer. */
	gl_peer_name(c, name, sizeof(name));
	ck_assert_str_eq(name, "?");
	ck_assert_int_eq(bind(l, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(l, 1), 0);
	ck_assert_int_eq(getsockname(l, (struct sockaddr *)&sa, &sl), 0);
	ck_assert_int_eq(connect(c, (struct sockaddr *)&sa, sizeof(sa)), 0);
	a = accept(l, NULL, NULL);
	ck_assert_int_ge(a, 0);
	/* The accepted side's peer is the connecting socket's own address. */
	sl = sizeof(sa);
	ck_assert_int_eq(getsockname(c, (struct sockaddr *)&sa, &sl), 0);
	snprintf(want, sizeof(want), "127.0.0.1:%u", ntohs(sa.sin_port));
	gl_peer_name(a, name, sizeof(name));
	ck_assert_str_eq(name, want);
	close(a);
	close(c);
	close(l);
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");

	UNIT_TCASE(s, "util", test_secret_eq, test_peer_name);
	return s;
}
