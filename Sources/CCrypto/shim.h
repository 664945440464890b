// SHA-256 for index.json comes from OpenSSL's libcrypto, which uses the
// processor's SHA instructions: hashing is most of what a publish computes.
// The low-level calls, deprecated in OpenSSL 3 but built in, go straight to
// them: the EVP calls first start OpenSSL's provider machinery, which took
// longer (1.5 ms, in every process) than hashing a project's files. An
// OpenSSL built without its deprecated calls (no-deprecated) lacks them.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
// Ed25519: keys, signing (publish), verifying (RelctlModel on Linux, where there is no CryptoKit).
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>
// ES256 and RS256: the JWTs that authenticate relctl push to APNs and Google's OAuth.
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
