// TCONV_CHECK(cond, parts...): TORCH_CHECK with the message formatted here, in this translation unit.
// Why: on the GPU machine (torch 2.11.0+cu130, extension JIT-built there) every TORCH_CHECK whose
// message had several parts crashed the interpreter with SIGSEGV (runs 9 and 10), while checks with
// one literal message raised RuntimeError as they should. Handing TORCH_CHECK a single C string
// takes the path that works; the std::string never leaves this library.
#pragma once
#include <sstream>
#include <string>

#include <c10/util/Exception.h>

namespace tconv {
namespace detail {
template <typename... Parts>
std::string format_check_message(const Parts&... parts) {
  std::ostringstream stream;
  (void)(stream << ... << parts);
  return stream.str();
}
}  // namespace detail
}  // namespace tconv

#define TCONV_CHECK(cond, ...)                                                              \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      const std::string tconv_check_message_ = ::tconv::detail::format_check_message(__VA_ARGS__); \
      TORCH_CHECK(false, tconv_check_message_.c_str());                                      \
    }                                                                                       \
  } while (0)
