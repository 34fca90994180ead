/* SPDX-License-Identifier: MIT */
/*
 * Mutual TLS 1.3 between Gleam's programs (Documentation/security.md):
 * every identity is a certificate that the deployment's own CA issued, and
 * each side proves its own to the other.  A connection of gleamd keeps its
 * ciphertext in buffers of its own, which its io_uring loop reads into and
 * sends from; OpenSSL only transforms them (a BIO over those buffers).
 * gleamctl uses blocking connections instead (gl_tls_connect_fd()).
 *
 * Linked into gleamd and gleamctl, never into libcuda.so.1.
 */
#ifndef GLEAM_TLS_H
#define GLEAM_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

struct ssl_ctx_st;
struct ssl_st;
struct gl_tls_rec;

/* An identity's name: a certificate's common name, [A-Za-z0-9._-], 1 to 63 characters. */
#define GL_TLS_NAME_MAX		64

/* Where a role's credentials are: CA certificate, own certificate and key. */
struct gl_tls_files {
	char ca[256];
	char cert[256];
	char key[256];
};

/*
 * The credentials named, completed by convention: a certificate alone
 * implies the key beside it (NAME.pem, NAME.key) and the CA in the same
 * directory (ca.pem).  true when there is a certificate to use.
 */
bool gl_tls_complete(struct gl_tls_files *f);

/*
 * A context for one side: TLS 1.3 only, its own certificate and key, and
 * the peer's certificate required and checked against the CA.  NULL on
 * failure, with the reason in err.
 */
struct ssl_ctx_st *gl_tls_ctx(bool server, const struct gl_tls_files *f, char *err, size_t errlen);
void gl_tls_ctx_free(struct ssl_ctx_st *ctx);

/* Whether name is a valid identity name (see GL_TLS_NAME_MAX). */
bool gl_tls_name_ok(const char *name);

/*
 * One connection over buffers: ciphertext read from the socket goes in
 * in[in_off, in_len), ciphertext to send waits in out[out_sent, out_len).
 * The owner reads into in + in_len (after gl_tls_in_room()) and sends
 * from out + out_sent; while a send from out is in flight out_busy is set,
 * and out is then only appended to, within its capacity.
 */
struct gl_tls {
	struct ssl_st *ssl;
	unsigned char *in;
	size_t in_off, in_len, in_cap;
	unsigned char *out;
	size_t out_sent, out_len, out_cap;
	size_t out_plain;	/* plaintext bytes sealed into out[out_sent, out_len) */
	bool out_busy;
	bool done;		/* the handshake is over */
	bool eof;		/* the peer said close_notify */
	bool replay;		/* the owner asked to be called back with what is buffered */
	bool starved;		/* in holds no whole record: read more first */
	struct gl_tls_rec *rec;	/* records sealed and opened here, once done (NULL: by OpenSSL) */
	char peer[GL_TLS_NAME_MAX];	/* the peer's identity, once done */
	char why[160];		/* why the handshake or a record failed */
};

/*
 * A connection; host: for a client, the name or address the server's
 * certificate must carry.  0 or -ENOMEM.
 */
int gl_tls_new(struct gl_tls **out, struct ssl_ctx_st *ctx, bool server, const char *host);
void gl_tls_free(struct gl_tls *t);
/* Room at in + in_len for the next read (compacted first); at least 1 byte. */
size_t gl_tls_in_room(struct gl_tls *t);
/* n bytes were read into in + in_len. */
void gl_tls_received(struct gl_tls *t, size_t n);
/*
 * Move the handshake on with what in holds: 1 when it is over (t->peer
 * set), 0 when it needs more from the peer (out may hold bytes to send
 * first), -EPROTO when it failed (t->why says why; -EACCES when the peer's
 * certificate was refused).
 */
int gl_tls_handshake(struct gl_tls *t);
/* Seal n plaintext bytes into out, which must be empty; 0 or -errno. */
int gl_tls_seal(struct gl_tls *t, const void *p, size_t n);
/* The same for the pieces of v, in order, each sealed where it lies. */
int gl_tls_sealv(struct gl_tls *t, const struct iovec *v, unsigned int nv);
/* Sent bytes of out: whether out is now empty (then out_plain were sent). */
bool gl_tls_sent(struct gl_tls *t, size_t n);
/*
 * Open records from in into buf: bytes (> 0); 0 when a whole record is
 * still to come; -EPIPE when the peer closed (close_notify); -EPROTO on a
 * record that does not open.
 */
ssize_t gl_tls_open(struct gl_tls *t, void *buf, size_t cap);
/* Whether plaintext can be opened without reading more. */
bool gl_tls_pending(struct gl_tls *t);

/*
 * gleamctl: TLS on a connected blocking socket, as a client of host.  0 or
 * -errno (the reason in err).
 */
int gl_tls_connect_fd(struct ssl_ctx_st *ctx, int fd, const char *host, struct ssl_st **out,
		      char *err, size_t errlen);
int gl_tls_read_full(struct ssl_st *ssl, void *buf, size_t len);
int gl_tls_write_full(struct ssl_st *ssl, const void *buf, size_t len);

/* The host part of "host:port", "[v6]:port" or "host", into buf; 0 or -EINVAL. */
int gl_host_of(const char *hostport, char *buf, size_t len);
/* Whether host names this machine's loopback (127.0.0.0/8, ::1, localhost). */
bool gl_host_is_loopback(const char *host);

#endif /* GLEAM_TLS_H */
