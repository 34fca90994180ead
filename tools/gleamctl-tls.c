// SPDX-License-Identifier: MIT
/*
 * gleamctl tls: a deployment's own certificate authority and the
 * identities it issues (Documentation/security.md).
 *
 *   gleamctl tls init DIR [NAME...]  DIR/ca.pem and DIR/ca.key (the CA), and
 *                                    the identities named, as tls issue
 *   gleamctl tls issue DIR NAME...   DIR/NAME.pem and DIR/NAME.key, signed
 *                                    by the CA in DIR
 *
 * Keys are P-256, written 0600 in a directory made 0700; an existing file
 * is never overwritten.  A certificate's common name is the identity
 * (tenant, administrator) it proves; its subject alternative name is the
 * same name as a DNS name or an IP address, which a client checks against
 * the server it dials.  Each certificate serves as a server's and as a
 * client's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include "gleamctl.h"
#include "util.h"

#define CA_DAYS		3650
#define CERT_DAYS	825

static void ssl_fail(const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[256] = "";

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	fprintf(stderr, "gleamctl: %s%s%s\n", what, *buf ? ": " : "", buf);
}

/* A new file for a secret or a certificate: never one that exists. */
static FILE *create(const char *dir, const char *name, const char *ext, mode_t mode)
{
	char path[4096];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0) {
		fprintf(stderr, "gleamctl: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

static int write_key(const char *dir, const char *name, EVP_PKEY *k)
{
	FILE *f = create(dir, name, ".key", 0600);
	int ok;

	if (!f)
		return -EEXIST;
	ok = PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	if (fclose(f) || !ok) {
		ssl_fail("cannot write the key");
		return -EIO;
	}
	return 0;
}

static int write_cert(const char *dir, const char *name, X509 *c)
{
	FILE *f = create(dir, name, ".pem", 0644);
	int ok;

	if (!f)
		return -EEXIST;
	ok = PEM_write_X509(f, c);
	if (fclose(f) || !ok) {
		ssl_fail("cannot write the certificate");
		return -EIO;
	}
	return 0;
}

static int add_ext(X509 *c, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *e;
	int ok;

	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, issuer, c, NULL, NULL, 0);
	e = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (!e)
		return -EINVAL;
	ok = X509_add_ext(c, e, -1);
	X509_EXTENSION_free(e);
	return ok ? 0 : -EINVAL;
}

/* A certificate for key, named cn, valid for days; self-signed when issuer is NULL. */
static X509 *new_cert(EVP_PKEY *key, const char *cn, X509 *issuer, int days)
{
	X509 *c = X509_new();
	unsigned char serial[16];
	BIGNUM *bn = NULL;

	if (!c || RAND_bytes(serial, sizeof(serial)) != 1)
		goto fail;
	serial[0] &= 0x7f;
	bn = BN_bin2bn(serial, sizeof(serial), NULL);
	if (!bn || !BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c)) ||
	    !X509_set_version(c, 2) ||
	    !X509_gmtime_adj(X509_getm_notBefore(c), -3600) ||
	    !X509_gmtime_adj(X509_getm_notAfter(c), (long)days * 86400) ||
	    !X509_set_pubkey(c, key) ||
	    !X509_NAME_add_entry_by_txt(X509_get_subject_name(c), "CN", MBSTRING_ASC,
					(const unsigned char *)cn, -1, -1, 0) ||
	    !X509_set_issuer_name(c, X509_get_subject_name(issuer ? issuer : c)))
		goto fail;
	BN_free(bn);
	return c;
fail:
	BN_free(bn);
	X509_free(c);
	return NULL;
}

/* dir/name as PEM: a private key (key) or a certificate; NULL, said, when there is none. */
static void *read_pem(const char *dir, const char *name, bool key)
{
	char path[4096];
	void *pem;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "gleamctl: %s: %s%s\n", path, strerror(errno),
			key ? " (gleamctl tls init first)" : "");
		return NULL;
	}
	pem = key ? (void *)PEM_read_PrivateKey(f, NULL, NULL, NULL) :
		    (void *)PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	return pem;
}

static EVP_PKEY *read_key(const char *dir, const char *name)
{
	return read_pem(dir, name, true);
}

static X509 *read_cert(const char *dir, const char *name)
{
	return read_pem(dir, name, false);
}

static int tls_init(const char *dir)
{
	EVP_PKEY *k = NULL;
	X509 *c = NULL;
	int err = -EINVAL;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		fprintf(stderr, "gleamctl: %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	k = EVP_EC_gen("P-256");
	c = k ? new_cert(k, "Gleam CA", NULL, CA_DAYS) : NULL;
	if (!c || add_ext(c, c, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") ||
	    add_ext(c, c, NID_key_usage, "critical,keyCertSign,cRLSign") ||
	    add_ext(c, c, NID_subject_key_identifier, "hash") ||
	    !X509_sign(c, k, EVP_sha256())) {
		ssl_fail("cannot make the CA");
		goto out;
	}
	err = write_key(dir, "ca", k);
	if (!err)
		err = write_cert(dir, "ca", c);
	if (!err)
		printf("CA: %s/ca.pem (its key %s/ca.key stays here)\n", dir, dir);
out:
	X509_free(c);
	EVP_PKEY_free(k);
	return err;
}

static int issue_one(const char *dir, const char *name, EVP_PKEY *cak, X509 *ca)
{
	unsigned char ip[16];
	char san[128];
	EVP_PKEY *k;
	X509 *c = NULL;
	int err = -EINVAL;

	if (!gl_ident_ok(name)) {
		fprintf(stderr, "gleamctl: '%s' cannot name an identity: 1 to 63 of "
			"[A-Za-z0-9._-], not starting with '.' or '-'\n", name);
		return -EINVAL;
	}
	snprintf(san, sizeof(san), "%s:%s", inet_pton(AF_INET, name, ip) == 1 ? "IP" : "DNS", name);
	k = EVP_EC_gen("P-256");
	c = k ? new_cert(k, name, ca, CERT_DAYS) : NULL;
	if (!c || add_ext(c, ca, NID_basic_constraints, "critical,CA:FALSE") ||
	    add_ext(c, ca, NID_key_usage, "critical,digitalSignature") ||
	    add_ext(c, ca, NID_ext_key_usage, "serverAuth,clientAuth") ||
	    add_ext(c, ca, NID_subject_alt_name, san) ||
	    add_ext(c, ca, NID_authority_key_identifier, "keyid") ||
	    !X509_sign(c, cak, EVP_sha256())) {
		ssl_fail("cannot issue the certificate");
		goto out;
	}
	err = write_key(dir, name, k);
	if (!err)
		err = write_cert(dir, name, c);
	if (!err)
		printf("%s: %s/%s.pem, key %s/%s.key\n", name, dir, name, dir, name);
out:
	X509_free(c);
	EVP_PKEY_free(k);
	return err;
}

static int tls_issue(const char *dir, int n, char **names)
{
	EVP_PKEY *cak = read_key(dir, "ca.key");
	X509 *ca = cak ? read_cert(dir, "ca.pem") : NULL;
	int err = ca ? 0 : -ENOENT;

	for (int i = 0; i < n && !err; i++)
		err = issue_one(dir, names[i], cak, ca);
	X509_free(ca);
	EVP_PKEY_free(cak);
	return err;
}

int cmd_tls(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[2], "init"))
		return tls_init(argv[3]) || (argc > 4 && tls_issue(argv[3], argc - 4, argv + 4)) ? 1 : 0;
	if (argc >= 5 && !strcmp(argv[2], "issue"))
		return tls_issue(argv[3], argc - 4, argv + 4) ? 1 : 0;
	fprintf(stderr, "usage: gleamctl tls init DIR [NAME...]\n"
			"       gleamctl tls issue DIR NAME...\n");
	return 2;
}
