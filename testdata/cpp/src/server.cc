#include <string>

#include "shop/store.h"
#include "util/log.h"

namespace shop {

// Server answers requests against a store.
class Server {
 public:
  explicit Server(Store* store) : store_(store) {}

  // HandleGet answers a GET request for key.
  std::string HandleGet(const std::string& key);

 private:
  Store* store_;
};

std::string Server::HandleGet(const std::string& key) {
  std::string value;
  Status s = store_->Get(key, &value);
  if (!s.ok()) {
    util::Log("miss");
  }
  return value;
}

}  // namespace shop
