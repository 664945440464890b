// SHA-256 for index.json comes from OpenSSL's libcrypto, which uses the
// processor's SHA instructions: hashing is most of what a publish computes.
#include <openssl/evp.h>
