#ifndef FUSESCOPE_IR_STATUS_H_
#define FUSESCOPE_IR_STATUS_H_

// The one error idiom of the core: functions that can fail return Status or StatusOr<T>.
// No exceptions cross module boundaries. A parser error's message is already formatted as
// "FILE:LINE:COL: cause" so that callers print it verbatim.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace fusescope {

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  StatusOr(Status status) : data_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(data_).ok() && "StatusOr needs an error status or a value");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(data_); }
  const std::string& message() const {
    static const std::string kEmpty;
    return ok() ? kEmpty : std::get<Status>(data_).message();
  }

  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace fusescope

// Returns early from the enclosing function with the error of `expr` if it failed.
#define FS_RETURN_IF_ERROR(expr)                    \
  do {                                              \
    ::fusescope::Status fs_status_ = (expr);        \
    if (!fs_status_.ok()) return fs_status_;        \
  } while (false)

#endif  // FUSESCOPE_IR_STATUS_H_
