#include "ir/opcode.h"

#include <string>
#include <unordered_map>

namespace fusescope::ir {
namespace {

struct OpcodeInfo {
  std::string_view name;
  int arity;
};

constexpr OpcodeInfo kOpcodeInfo[] = {
#define FUSESCOPE_OPCODE_INFO(e, s, a) {s, a},
    FUSESCOPE_HLO_OPCODES(FUSESCOPE_OPCODE_INFO)
#undef FUSESCOPE_OPCODE_INFO
};

const std::unordered_map<std::string_view, Opcode>& NameTable() {
  static const auto* table = [] {
    auto* map = new std::unordered_map<std::string_view, Opcode>();
    for (size_t i = 0; i < std::size(kOpcodeInfo); ++i) {
      (*map)[kOpcodeInfo[i].name] = static_cast<Opcode>(i);
    }
    return map;
  }();
  return *table;
}

}  // namespace

std::optional<Opcode> OpcodeFromName(std::string_view name) {
  const auto& table = NameTable();
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::string_view OpcodeName(Opcode opcode) {
  const auto index = static_cast<size_t>(opcode);
  return index < std::size(kOpcodeInfo) ? kOpcodeInfo[index].name : "unknown";
}

int OpcodeArity(Opcode opcode) {
  const auto index = static_cast<size_t>(opcode);
  return index < std::size(kOpcodeInfo) ? kOpcodeInfo[index].arity : -1;
}

bool IsElementwiseUnary(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAbs: case Opcode::kCbrt: case Opcode::kCeil: case Opcode::kClz:
    case Opcode::kConvert: case Opcode::kBitcastConvert: case Opcode::kCopy:
    case Opcode::kCos: case Opcode::kErf: case Opcode::kExp: case Opcode::kExpm1:
    case Opcode::kFloor: case Opcode::kImag: case Opcode::kIsFinite: case Opcode::kLog:
    case Opcode::kLog1p: case Opcode::kLogistic: case Opcode::kNegate: case Opcode::kNot:
    case Opcode::kPopulationCount: case Opcode::kReal: case Opcode::kReducePrecision:
    case Opcode::kRoundNearestAfz: case Opcode::kRoundNearestEven: case Opcode::kRsqrt:
    case Opcode::kSign: case Opcode::kSin: case Opcode::kSqrt: case Opcode::kTan:
    case Opcode::kTanh:
      return true;
    default:
      return false;
  }
}

bool IsElementwiseBinary(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAdd: case Opcode::kAnd: case Opcode::kAtan2: case Opcode::kCompare:
    case Opcode::kComplex: case Opcode::kDivide: case Opcode::kMaximum: case Opcode::kMinimum:
    case Opcode::kMultiply: case Opcode::kOr: case Opcode::kPower: case Opcode::kRemainder:
    case Opcode::kShiftLeft: case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical: case Opcode::kSubtract: case Opcode::kXor:
    case Opcode::kStochasticConvert:
      return true;
    default:
      return false;
  }
}

bool IsElementwiseOpcode(Opcode opcode) {
  return IsElementwiseUnary(opcode) || IsElementwiseBinary(opcode) ||
         opcode == Opcode::kSelect || opcode == Opcode::kClamp;
}

bool IsTranscendental(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAtan2: case Opcode::kCbrt: case Opcode::kCos: case Opcode::kErf:
    case Opcode::kExp: case Opcode::kExpm1: case Opcode::kLog: case Opcode::kLog1p:
    case Opcode::kLogistic: case Opcode::kPower: case Opcode::kRsqrt: case Opcode::kSin:
    case Opcode::kSqrt: case Opcode::kTan: case Opcode::kTanh:
      return true;
    default:
      return false;
  }
}

bool OpcodeHasSideEffect(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAfterAll: case Opcode::kAllGather: case Opcode::kAllGatherStart:
    case Opcode::kAllGatherDone: case Opcode::kAllReduce: case Opcode::kAllReduceStart:
    case Opcode::kAllReduceDone: case Opcode::kAllToAll: case Opcode::kCollectiveBroadcast:
    case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart:
    case Opcode::kCollectivePermuteDone: case Opcode::kInfeed: case Opcode::kOutfeed:
    case Opcode::kRecv: case Opcode::kRecvDone: case Opcode::kSend: case Opcode::kSendDone:
    case Opcode::kReduceScatter: case Opcode::kRaggedAllToAll: case Opcode::kRng:
    case Opcode::kRngGetAndUpdateState: case Opcode::kAddDependency:
    case Opcode::kOptimizationBarrier:
      return true;
    default:
      return false;
  }
}

}  // namespace fusescope::ir
