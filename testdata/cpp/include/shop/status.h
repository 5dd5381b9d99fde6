#ifndef SHOP_STATUS_H_
#define SHOP_STATUS_H_

namespace shop {

// Status says whether an operation succeeded.
class Status {
 public:
  static Status OK() { return Status(0); }
  static Status NotFound() { return Status(1); }

  bool ok() const { return code_ == 0; }

 private:
  explicit Status(int code) : code_(code) {}
  int code_;
};

}  // namespace shop

#endif  // SHOP_STATUS_H_
