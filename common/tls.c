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
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
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

/*
 * ---- records of our own ----
 *
 * After the handshake, application records are sealed and opened here
 * rather than by OpenSSL: the same TLS 1.3 records (RFC 8446, section 5),
 * with the traffic keys OpenSSL derived, as kernel TLS takes them over
 * from it.  OpenSSL's record layer copies each record's bytes twice
 * around the cipher (into its own buffer and out of it); here the cipher
 * reads the caller's plaintext and writes the connection's buffer, and
 * opens a record straight into the caller's.  Nothing changes on the
 * wire: a peer whose OpenSSL keeps its records (gleamctl, or
 * GLEAM_TLS_RECORDS=openssl) reads and writes the same records.  Only
 * application data is expected once the handshake is over (no session
 * tickets are issued and no key update is asked for); anything else ends
 * the connection, as does a direction that has sealed 2^24 records, before
 * AES-GCM's limit for one key (a session outlives its connection).
 * Where the suite is not AES-GCM, OpenSSL keeps the records.
 */
#define REC_MAX_PLAIN	16384
#define REC_OVERHEAD	(5 + 1 + 16)	/* header, inner content type, tag */
#define REC_LIMIT	(1ull << 24)

struct rec_dir {
	EVP_CIPHER_CTX *c;
	unsigned char iv[12];
	uint64_t seq;
};

struct gl_tls_rec {
	unsigned char secret[2][48];	/* client's, server's application traffic secrets */
	size_t secret_len[2];
	bool on;
	struct rec_dir tx, rx;
	unsigned char *plain;		/* a record's plaintext the caller had no room for */
	size_t plain_off, plain_len;
};

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* OpenSSL says each secret as it derives it: the traffic secrets are kept. */
static void keylog(const SSL *ssl, const char *line)
{
	struct gl_tls *t = SSL_get_app_data(ssl);
	const char *sp;
	int which;
	size_t n = 0;

	if (!t)
		return;
	if (!strncmp(line, "CLIENT_TRAFFIC_SECRET_0 ", 24))
		which = 0;
	else if (!strncmp(line, "SERVER_TRAFFIC_SECRET_0 ", 24))
		which = 1;
	else
		return;
	sp = strchr(line + 24, ' ');
	if (!sp)
		return;
	if (!t->rec) {
		t->rec = calloc(1, sizeof(*t->rec));
		if (!t->rec)
			return;
	}
	for (sp++; sp[0] && sp[1] && n < sizeof(t->rec->secret[0]); sp += 2) {
		int hi = hexval(sp[0]), lo = hexval(sp[1]);

		if (hi < 0 || lo < 0)
			return;
		t->rec->secret[which][n++] = (unsigned char)(hi << 4 | lo);
	}
	t->rec->secret_len[which] = n;
}

/* HKDF-Expand-Label(secret, label, "", len) of RFC 8446, section 7.1. */
static int expand_label(const EVP_MD *md, const unsigned char *secret, size_t slen,
			const char *label, unsigned char *out, size_t len)
{
	unsigned char info[2 + 1 + 6 + 16 + 1];
	size_t ll = strlen(label), n = 0;
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *kc = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY, r = -1;
	OSSL_PARAM ps[5];

	if (kc && ll <= 16) {
		info[n++] = (unsigned char)(len >> 8);
		info[n++] = (unsigned char)len;
		info[n++] = (unsigned char)(6 + ll);
		memcpy(info + n, "tls13 ", 6);
		n += 6;
		memcpy(info + n, label, ll);
		n += ll;
		info[n++] = 0;
		ps[0] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
		ps[1] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
							 (char *)EVP_MD_get0_name(md), 0);
		ps[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)secret, slen);
		ps[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info, n);
		ps[4] = OSSL_PARAM_construct_end();
		r = EVP_KDF_derive(kc, out, len, ps) == 1 ? 0 : -1;
	}
	EVP_KDF_CTX_free(kc);
	EVP_KDF_free(kdf);
	return r;
}

static int dir_init(struct rec_dir *d, const EVP_CIPHER *cipher, const EVP_MD *md,
		    const unsigned char *secret, size_t slen, bool enc)
{
	unsigned char key[32];
	int klen = EVP_CIPHER_get_key_length(cipher), r = -1;

	d->c = EVP_CIPHER_CTX_new();
	if (d->c && klen > 0 && (size_t)klen <= sizeof(key) &&
	    !expand_label(md, secret, slen, "key", key, (size_t)klen) &&
	    !expand_label(md, secret, slen, "iv", d->iv, sizeof(d->iv)) &&
	    EVP_CipherInit_ex(d->c, cipher, NULL, NULL, NULL, enc) == 1 &&
	    EVP_CIPHER_CTX_ctrl(d->c, EVP_CTRL_GCM_SET_IVLEN, sizeof(d->iv), NULL) == 1 &&
	    EVP_CipherInit_ex(d->c, NULL, NULL, key, NULL, enc) == 1)
		r = 0;
	OPENSSL_cleanse(key, sizeof(key));
	return r;
}

/* The handshake is over: records are ours from here, where they can be. */
static void rec_start(struct gl_tls *t, bool server)
{
	struct gl_tls_rec *r = t->rec;
	const SSL_CIPHER *c = SSL_get_current_cipher(t->ssl);
	const char *how = getenv("GLEAM_TLS_RECORDS");
	const EVP_CIPHER *cipher = NULL;
	const EVP_MD *md = NULL;
	uint32_t id = c ? SSL_CIPHER_get_id(c) : 0;

	if (!r)
		return;
	if (id == 0x03001301) {
		cipher = EVP_aes_128_gcm();
		md = EVP_sha256();
	} else if (id == 0x03001302) {
		cipher = EVP_aes_256_gcm();
		md = EVP_sha384();
	}
	if (cipher && (size_t)EVP_MD_get_size(md) == r->secret_len[0] &&
	    r->secret_len[0] == r->secret_len[1] && !(how && !strcmp(how, "openssl")) &&
	    !SSL_has_pending(t->ssl) &&
	    !dir_init(&r->tx, cipher, md, r->secret[server], r->secret_len[server], true) &&
	    !dir_init(&r->rx, cipher, md, r->secret[!server], r->secret_len[!server], false) &&
	    (r->plain = malloc(REC_MAX_PLAIN + 256)))
		r->on = true;
	OPENSSL_cleanse(r->secret, sizeof(r->secret));
}

static void rec_free(struct gl_tls_rec *r)
{
	if (!r)
		return;
	EVP_CIPHER_CTX_free(r->tx.c);
	EVP_CIPHER_CTX_free(r->rx.c);
	free(r->plain);
	OPENSSL_cleanse(r, sizeof(*r));
	free(r);
}

static void nonce(const struct rec_dir *d, unsigned char *n)
{
	memcpy(n, d->iv, 12);
	for (int i = 0; i < 8; i++)
		n[11 - i] ^= (unsigned char)(d->seq >> (8 * i));
}

static int rec_fail(struct gl_tls *t, const char *why)
{
	snprintf(t->why, sizeof(t->why), "%s", why);
	ERR_clear_error();
	return -EPROTO;
}

/* p, n sealed into out, records of at most rec bytes of plaintext each. */
static int rec_seal(struct gl_tls *t, const unsigned char *p, size_t n, size_t rec)
{
	struct rec_dir *d = &t->rec->tx;
	size_t need = t->out_len + n + (n + rec - 1) / rec * REC_OVERHEAD;
	unsigned char iv[12], type = 23;

	if (need > t->out_cap) {
		unsigned char *o = realloc(t->out, need);

		if (!o)
			return rec_fail(t, "write: out of memory");
		t->out = o;
		t->out_cap = need;
	}
	while (n) {
		size_t len = MIN(n, rec);
		unsigned char *o = t->out + t->out_len;
		size_t body = len + 1 + 16;
		int l;

		if (d->seq >= REC_LIMIT)
			return rec_fail(t, "write: this connection's key has sealed all it may");
		o[0] = 23;
		o[1] = 3;
		o[2] = 3;
		o[3] = (unsigned char)(body >> 8);
		o[4] = (unsigned char)body;
		nonce(d, iv);
		if (EVP_EncryptInit_ex(d->c, NULL, NULL, NULL, iv) != 1 ||
		    EVP_EncryptUpdate(d->c, NULL, &l, o, 5) != 1 ||
		    EVP_EncryptUpdate(d->c, o + 5, &l, p, (int)len) != 1 ||
		    EVP_EncryptUpdate(d->c, o + 5 + len, &l, &type, 1) != 1 ||
		    EVP_EncryptFinal_ex(d->c, o + 5 + len + 1, &l) != 1 ||
		    EVP_CIPHER_CTX_ctrl(d->c, EVP_CTRL_GCM_GET_TAG, 16, o + 5 + len + 1) != 1)
			return rec_fail(t, "write: sealing failed");
		d->seq++;
		t->out_len += 5 + body;
		t->out_plain += len;
		p += len;
		n -= len;
	}
	return 0;
}

/* The next record's plaintext into buf (cap bytes), as gl_tls_open() says. */
static ssize_t rec_open(struct gl_tls *t, unsigned char *buf, size_t cap)
{
	struct gl_tls_rec *r = t->rec;
	struct rec_dir *d = &r->rx;

	for (;;) {
		size_t avail = t->in_len - t->in_off, body, plen, k;
		unsigned char *h = t->in + t->in_off, iv[12], *dst;
		int l;

		if (r->plain_len) {
			k = MIN(cap, r->plain_len);
			memcpy(buf, r->plain + r->plain_off, k);
			r->plain_off += k;
			r->plain_len -= k;
			return (ssize_t)k;
		}
		if (avail < 5) {
			t->starved = true;
			return 0;
		}
		body = (size_t)h[3] << 8 | h[4];
		if (h[0] != 23 || h[1] != 3 || h[2] != 3 || body < 17 || body > REC_MAX_PLAIN + 256)
			return rec_fail(t, "record: not a TLS 1.3 record");
		if (avail < 5 + body) {
			t->starved = true;
			return 0;
		}
		plen = body - 16;
		dst = cap >= plen ? buf : r->plain;
		nonce(d, iv);
		if (EVP_DecryptInit_ex(d->c, NULL, NULL, NULL, iv) != 1 ||
		    EVP_DecryptUpdate(d->c, NULL, &l, h, 5) != 1 ||
		    EVP_DecryptUpdate(d->c, dst, &l, h + 5, (int)plen) != 1 ||
		    EVP_CIPHER_CTX_ctrl(d->c, EVP_CTRL_GCM_SET_TAG, 16, h + 5 + plen) != 1 ||
		    EVP_DecryptFinal_ex(d->c, dst + plen, &l) != 1)
			return rec_fail(t, "record: it did not open (corrupted or forged)");
		d->seq++;
		t->in_off += 5 + body;
		for (k = plen; k && !dst[k - 1]; k--)
			;
		if (!k)
			return rec_fail(t, "record: no content type");
		k--;
		if (dst[k] == 21) {
			/* An alert: close_notify ends the connection as OpenSSL would say it. */
			if (k >= 2 && dst[1] == 0) {
				t->eof = true;
				return -EPIPE;
			}
			return rec_fail(t, "record: the peer sent an alert");
		}
		if (dst[k] != 23)
			return rec_fail(t, "record: a message other than application data "
					   "after the handshake");
		if (!k)
			continue;
		if (dst == buf)
			return (ssize_t)k;
		r->plain_off = 0;
		r->plain_len = k;
	}
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
	SSL_CTX_set_keylog_callback(ctx, keylog);
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
	SSL_set_app_data(t->ssl, t);
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
	rec_free(t->rec);
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
		if (peer_identity(t))
			return -EACCES;
		rec_start(t, SSL_is_server(t->ssl));
		return 1;
	}
	e = SSL_get_error(t->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return 0;
	return failed(t, "handshake");
}

int gl_tls_seal(struct gl_tls *t, const void *p, size_t n)
{
	struct iovec v = { .iov_base = (void *)p, .iov_len = n };

	return gl_tls_sealv(t, &v, 1);
}

int gl_tls_sealv(struct gl_tls *t, const struct iovec *v, unsigned int nv)
{
	size_t total = 0, rec;

	if (t->out_sent != t->out_len || t->out_busy)
		return -EBUSY;
	t->out_sent = t->out_len = 0;
	t->out_plain = 0;
	ERR_clear_error();
	for (unsigned int i = 0; i < nv; i++)
		total += v[i].iov_len;
	/*
	 * A record is opened only once it is whole: small sends (a batch of
	 * launches, a reply) go in small records, which the peer can act on as
	 * they arrive, as it could on plain TCP's segments; bulk in full ones.
	 * Each piece is sealed where it lies, in records of its own.
	 */
	rec = total < TLS_BULK ? TLS_SMALL_RECORD : REC_MAX_PLAIN;
	if (!(t->rec && t->rec->on))
		SSL_set_max_send_fragment(t->ssl, total < TLS_BULK ? TLS_SMALL_RECORD : 16384);
	for (unsigned int i = 0; i < nv; i++) {
		const unsigned char *c = v[i].iov_base;
		size_t n = v[i].iov_len;

		if (t->rec && t->rec->on) {
			int e = n ? rec_seal(t, c, n, rec) : 0;

			if (e)
				return e;
			continue;
		}
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

	if (t->rec && t->rec->on)
		return rec_open(t, buf, cap);
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
	if (t->rec && t->rec->on)
		return t->rec->plain_len || (!t->starved && t->in_len > t->in_off);
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
