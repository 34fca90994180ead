// SPDX-License-Identifier: MIT
/*
 * Mutual TLS 1.3 over buffers the caller reads into and sends from
 * (tls.h).  OpenSSL sees the connection through a BIO of our own whose
 * read takes ciphertext from in and whose write appends to out, so that
 * the io_uring loop keeps doing all socket I/O itself.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "tls.h"
#include "util.h"

#define TLS_IN_CAP	(512U << 10)
#define TLS_OUT_CAP	(64U << 10)
/* Sends shorter than this go in records of TLS_SMALL_RECORD bytes. */
#define TLS_BULK	(64U << 10)
#define TLS_SMALL_RECORD	2048

static void last_error(char *err, size_t len, const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[128] = "";

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	snprintf(err, len, "%s%s%s", what, *buf ? ": " : "", buf);
	ERR_clear_error();
}

bool gl_tls_name_ok(const char *name)
{
	return gl_ident_ok(name);
}

/* path with its last suffix (after the last '/') replaced by ext. */
static void beside(char *out, size_t len, const char *path, const char *ext)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(path, '.');

	if (!dot || (slash && dot < slash))
		dot = path + strlen(path);
	snprintf(out, len, "%.*s%s", (int)(dot - path), path, ext);
}

bool gl_tls_complete(struct gl_tls_files *f)
{
	const char *slash;

	if (!f->cert[0])
		return false;
	if (!f->key[0])
		beside(f->key, sizeof(f->key), f->cert, ".key");
	if (!f->ca[0]) {
		slash = strrchr(f->cert, '/');
		snprintf(f->ca, sizeof(f->ca), "%.*sca.pem", slash ? (int)(slash - f->cert + 1) : 0,
			 f->cert);
	}
	return true;
}

struct ssl_ctx_st *gl_tls_ctx(bool server, const struct gl_tls_files *f, char *err, size_t errlen)
{
	SSL_CTX *ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());

	if (!ctx) {
		last_error(err, errlen, "no TLS context");
		return NULL;
	}
	/*
	 * TLS 1.3 only, AES-GCM first (the processors of GPU machines do it in
	 * hardware); no session tickets or resumption: every connection
	 * proves both identities afresh.
	 */
	if (!SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) ||
	    !SSL_CTX_set_ciphersuites(ctx, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:"
				      "TLS_CHACHA20_POLY1305_SHA256")) {
		last_error(err, errlen, "TLS 1.3 is not available");
		goto fail;
	}
	SSL_CTX_set_num_tickets(ctx, 0);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION);
	if (SSL_CTX_use_certificate_chain_file(ctx, f->cert) != 1) {
		last_error(err, errlen, f->cert);
		goto fail;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, f->key, SSL_FILETYPE_PEM) != 1 ||
	    SSL_CTX_check_private_key(ctx) != 1) {
		last_error(err, errlen, f->key);
		goto fail;
	}
	if (SSL_CTX_load_verify_locations(ctx, f->ca, NULL) != 1) {
		last_error(err, errlen, f->ca);
		goto fail;
	}
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	if (server) {
		STACK_OF(X509_NAME) *names = SSL_load_client_CA_file(f->ca);

		if (names)
			SSL_CTX_set_client_CA_list(ctx, names);
	}
	return ctx;
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

void gl_tls_ctx_free(struct ssl_ctx_st *ctx)
{
	SSL_CTX_free(ctx);
}

/* ---- the BIO over the connection's buffers ---- */

static int bio_write(BIO *b, const char *p, int n)
{
	struct gl_tls *t = BIO_get_data(b);
	size_t need;

	BIO_clear_retry_flags(b);
	if (n <= 0)
		return 0;
	need = t->out_len + (size_t)n;
	if (need > t->out_cap) {
		unsigned char *o;
		size_t cap;

		/* A send in flight reads out where it is: no move then. */
		if (t->out_busy) {
			BIO_set_retry_write(b);
			return -1;
		}
		if (t->out_sent) {
			memmove(t->out, t->out + t->out_sent, t->out_len - t->out_sent);
			t->out_len -= t->out_sent;
			t->out_sent = 0;
			need = t->out_len + (size_t)n;
		}
		cap = t->out_cap;
		while (cap < need)
			cap *= 2;
		if (cap != t->out_cap) {
			o = realloc(t->out, cap);
			if (!o)
				return -1;
			t->out = o;
			t->out_cap = cap;
		}
	}
	memcpy(t->out + t->out_len, p, (size_t)n);
	t->out_len += (size_t)n;
	return n;
}

static int bio_read(BIO *b, char *p, int n)
{
	struct gl_tls *t = BIO_get_data(b);
	size_t avail = t->in_len - t->in_off;

	BIO_clear_retry_flags(b);
	if (!avail) {
		BIO_set_retry_read(b);
		return -1;
	}
	if ((size_t)n > avail)
		n = (int)avail;
	memcpy(p, t->in + t->in_off, (size_t)n);
	t->in_off += (size_t)n;
	return n;
}

static long bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	struct gl_tls *t = BIO_get_data(b);

	(void)num;
	(void)ptr;
	switch (cmd) {
	case BIO_CTRL_FLUSH:
		return 1;
	case BIO_CTRL_PENDING:
		return t ? (long)(t->in_len - t->in_off) : 0;
	default:
		return 0;
	}
}

static int bio_create(BIO *b)
{
	BIO_set_init(b, 1);
	return 1;
}

static BIO_METHOD *bio_method(void)
{
	static BIO_METHOD *m;

	if (m)
		return m;
	m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "gleam buffers");
	if (m && (!BIO_meth_set_write(m, bio_write) || !BIO_meth_set_read(m, bio_read) ||
		  !BIO_meth_set_ctrl(m, bio_ctrl) || !BIO_meth_set_create(m, bio_create))) {
		BIO_meth_free(m);
		m = NULL;
	}
	return m;
}

/* The client checks that the server's certificate names the host it dialled. */
static int expect_host(SSL *ssl, const char *host)
{
	unsigned char a[16];

	if (!host || !*host)
		return 0;
	if (inet_pton(AF_INET, host, a) == 1 || inet_pton(AF_INET6, host, a) == 1)
		return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 ? 0 : -EINVAL;
	SSL_set_tlsext_host_name(ssl, host);
	return SSL_set1_host(ssl, host) == 1 ? 0 : -EINVAL;
}

int gl_tls_new(struct gl_tls **out, struct ssl_ctx_st *ctx, bool server, const char *host)
{
	struct gl_tls *t = calloc(1, sizeof(*t));
	BIO_METHOD *m = bio_method();
	BIO *bio;

	if (!t || !m)
		goto fail;
	t->in = malloc(TLS_IN_CAP);
	t->out = malloc(TLS_OUT_CAP);
	t->ssl = SSL_new(ctx);
	if (!t->in || !t->out || !t->ssl)
		goto fail;
	t->in_cap = TLS_IN_CAP;
	t->out_cap = TLS_OUT_CAP;
	if (!server && expect_host(t->ssl, host))
		goto fail;
	bio = BIO_new(m);
	if (!bio)
		goto fail;
	BIO_set_data(bio, t);
	/* One BIO both ways: SSL_set_bio takes the one reference. */
	SSL_set_bio(t->ssl, bio, bio);
	if (server)
		SSL_set_accept_state(t->ssl);
	else
		SSL_set_connect_state(t->ssl);
	*out = t;
	return 0;
fail:
	gl_tls_free(t);
	return -ENOMEM;
}

void gl_tls_free(struct gl_tls *t)
{
	if (!t)
		return;
	SSL_free(t->ssl);
	free(t->in);
	free(t->out);
	free(t);
}

size_t gl_tls_in_room(struct gl_tls *t)
{
	if (t->in_off == t->in_len) {
		t->in_off = t->in_len = 0;
	} else if (t->in_off && t->in_cap - t->in_len < t->in_cap / 4) {
		memmove(t->in, t->in + t->in_off, t->in_len - t->in_off);
		t->in_len -= t->in_off;
		t->in_off = 0;
	}
	return t->in_cap - t->in_len;
}

void gl_tls_received(struct gl_tls *t, size_t n)
{
	t->in_len += n;
	t->starved = false;
}

/* The peer's certificate names an identity: its common name, checked. */
static int peer_identity(struct gl_tls *t)
{
	X509 *c = SSL_get0_peer_certificate(t->ssl);
	char cn[GL_TLS_NAME_MAX + 1] = "";

	if (!c || SSL_get_verify_result(t->ssl) != X509_V_OK) {
		snprintf(t->why, sizeof(t->why), "no verified certificate");
		return -EACCES;
	}
	if (X509_NAME_get_text_by_NID(X509_get_subject_name(c), NID_commonName, cn,
				      sizeof(cn)) <= 0 || !gl_tls_name_ok(cn)) {
		snprintf(t->why, sizeof(t->why), "the certificate names no valid identity");
		return -EACCES;
	}
	snprintf(t->peer, sizeof(t->peer), "%s", cn);
	return 0;
}

/* Why the last operation failed, into t->why; -EACCES for a refused certificate. */
static int failed(struct gl_tls *t, const char *what)
{
	long v = SSL_get_verify_result(t->ssl);

	if (v != X509_V_OK) {
		snprintf(t->why, sizeof(t->why), "%s: certificate refused: %s", what,
			 X509_verify_cert_error_string(v));
		ERR_clear_error();
		return -EACCES;
	}
	last_error(t->why, sizeof(t->why), what);
	return -EPROTO;
}

int gl_tls_handshake(struct gl_tls *t)
{
	int r, e;

	if (t->done)
		return 1;
	ERR_clear_error();
	r = SSL_do_handshake(t->ssl);
	if (r == 1) {
		t->done = true;
		return peer_identity(t) ? -EACCES : 1;
	}
	e = SSL_get_error(t->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return 0;
	return failed(t, "handshake");
}

int gl_tls_seal(struct gl_tls *t, const void *p, size_t n)
{
	const unsigned char *c = p;

	if (t->out_sent != t->out_len || t->out_busy)
		return -EBUSY;
	t->out_sent = t->out_len = 0;
	t->out_plain = 0;
	ERR_clear_error();
	/*
	 * A record is opened only once it is whole: small sends (a batch of
	 * launches, a reply) go in small records, which the peer can act on as
	 * they arrive, as it could on plain TCP's segments; bulk in full ones.
	 */
	SSL_set_max_send_fragment(t->ssl, n < TLS_BULK ? TLS_SMALL_RECORD : 16384);
	while (n) {
		size_t w = 0;

		if (SSL_write_ex(t->ssl, c, n, &w) != 1) {
			failed(t, "write");
			return -EPROTO;
		}
		c += w;
		n -= w;
		t->out_plain += w;
	}
	return 0;
}

bool gl_tls_sent(struct gl_tls *t, size_t n)
{
	t->out_sent += n;
	if (t->out_sent < t->out_len)
		return false;
	t->out_sent = t->out_len = 0;
	return true;
}

ssize_t gl_tls_open(struct gl_tls *t, void *buf, size_t cap)
{
	size_t n = 0;
	int e;

	ERR_clear_error();
	if (SSL_read_ex(t->ssl, buf, cap, &n) == 1)
		return (ssize_t)n;
	e = SSL_get_error(t->ssl, 0);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
		t->starved = true;
		return 0;
	}
	if (e == SSL_ERROR_ZERO_RETURN) {
		t->eof = true;
		return -EPIPE;
	}
	failed(t, "record");
	return -EPROTO;
}

bool gl_tls_pending(struct gl_tls *t)
{
	return SSL_pending(t->ssl) > 0 || (!t->starved && t->in_len > t->in_off);
}

/* ---- blocking connections (gleamctl) ---- */

int gl_tls_connect_fd(struct ssl_ctx_st *ctx, int fd, const char *host, struct ssl_st **out,
		      char *err, size_t errlen)
{
	SSL *ssl = SSL_new(ctx);
	long v;

	if (!ssl || expect_host(ssl, host) || SSL_set_fd(ssl, fd) != 1) {
		last_error(err, errlen, "TLS");
		SSL_free(ssl);
		return -ENOMEM;
	}
	ERR_clear_error();
	if (SSL_connect(ssl) != 1) {
		v = SSL_get_verify_result(ssl);
		if (v != X509_V_OK) {
			snprintf(err, errlen, "the server's certificate was refused: %s",
				 X509_verify_cert_error_string(v));
			ERR_clear_error();
		} else {
			last_error(err, errlen, "TLS handshake");
		}
		SSL_free(ssl);
		return -EACCES;
	}
	*out = ssl;
	return 0;
}

int gl_tls_read_full(struct ssl_st *ssl, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		size_t n = 0;

		if (SSL_read_ex(ssl, p, len, &n) != 1) {
			int e = SSL_get_error(ssl, 0);

			ERR_clear_error();
			return e == SSL_ERROR_ZERO_RETURN ? -EPIPE : -EIO;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int gl_tls_write_full(struct ssl_st *ssl, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		size_t n = 0;

		if (SSL_write_ex(ssl, p, len, &n) != 1) {
			ERR_clear_error();
			return -EIO;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int gl_host_of(const char *s, char *buf, size_t len)
{
	const char *end;
	size_t n;

	if (s[0] == '[') {
		end = strchr(s, ']');
		if (!end)
			return -EINVAL;
		s++;
	} else {
		end = strrchr(s, ':');
		if (!end)
			end = s + strlen(s);
	}
	n = (size_t)(end - s);
	if (!n || n >= len)
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = 0;
	return 0;
}

bool gl_host_is_loopback(const char *host)
{
	unsigned char a[16];

	if (!strcmp(host, "localhost"))
		return true;
	if (inet_pton(AF_INET, host, a) == 1)
		return a[0] == 127;
	if (inet_pton(AF_INET6, host, a) == 1) {
		static const unsigned char one[16] = { [15] = 1 };
		static const unsigned char v4[12] = { [10] = 0xff, [11] = 0xff };

		return !memcmp(a, one, 16) || (!memcmp(a, v4, 12) && a[12] == 127);
	}
	return false;
}
