// SHA-256 (OpenSSL's libcrypto): the content hash of a kernel file as `sha256sum` prints it, and
// the keys of the compiled-code cache.
#pragma once

#include <string>
#include <string_view>

namespace kb {

// The digest of `bytes` as 64 lowercase hexadecimal digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace kb
