#include "util/log.h"

#include <cstdio>

namespace shop {
namespace util {

void Log(const char* message) { std::fprintf(stderr, "%s\n", message); }

}  // namespace util
}  // namespace shop
