#ifndef SHOP_UTIL_LOG_H_
#define SHOP_UTIL_LOG_H_

namespace shop {
namespace util {

// Log writes a line to the shop's log.
void Log(const char* message);

}  // namespace util
}  // namespace shop

#endif  // SHOP_UTIL_LOG_H_
