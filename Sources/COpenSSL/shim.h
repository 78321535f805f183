#ifndef SWITCHYARD_COPENSSL_SHIM_H
#define SWITCHYARD_COPENSSL_SHIM_H

/* OpenSSL 3 headers used by SwitchyardCrypto. Only SwitchyardCrypto imports this module. */
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

/* Function-like macros are not imported into Swift; these inline wrappers are. */

static inline long shim_BIO_get_mem_data(BIO *b, char **pp) {
    return BIO_get_mem_data(b, pp);
}

static inline void shim_OPENSSL_free(void *p) {
    OPENSSL_free(p);
}

#endif
