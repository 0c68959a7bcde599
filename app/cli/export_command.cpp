// `fusescope export RUN.fsdb [--pass N] -o DIR [--seed S]`: one snapshot ready to run with
// XLA: its HLO text, the same with fusions inlined (XLA's route for unoptimized modules
// refuses fusion instructions), the original module, seeded inputs as .npy files and a
// one-line command that runs both with XLA and compares their outputs.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/command.h"
#include "app/cli/model_loader.h"
#include "ir/hlo_printer.h"
#include "passes/fusion_inliner.h"

namespace fusescope::app {
namespace {

namespace fs = std::filesystem;

// splitmix64: the same numbers on every platform, unlike <random>'s distributions.
class SeededBits {
 public:
  explicit SeededBits(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

struct NpyType {
  const char* descr;
  int bytes;
};

StatusOr<NpyType> NpyTypeOf(ir::PrimitiveType type) {
  using ir::PrimitiveType;
  switch (type) {
    case PrimitiveType::kPred: return NpyType{"|b1", 1};
    case PrimitiveType::kS8: return NpyType{"|i1", 1};
    case PrimitiveType::kS16: return NpyType{"<i2", 2};
    case PrimitiveType::kS32: return NpyType{"<i4", 4};
    case PrimitiveType::kS64: return NpyType{"<i8", 8};
    case PrimitiveType::kU8: return NpyType{"|u1", 1};
    case PrimitiveType::kU16: return NpyType{"<u2", 2};
    case PrimitiveType::kU32: return NpyType{"<u4", 4};
    case PrimitiveType::kU64: return NpyType{"<u8", 8};
    case PrimitiveType::kF32: return NpyType{"<f4", 4};
    case PrimitiveType::kF64: return NpyType{"<f8", 8};
    default:
      return Status::Error("no .npy inputs for " + std::string(ir::PrimitiveTypeName(type)) +
                           " parameters yet");
  }
}

// One element's little-endian bytes: floats uniform in [-1, 1); signed integers in [0, 4), so
// that index operands stay in range; unsigned ones over their whole range (PRNG keys); preds
// 0 or 1.
void AppendElement(ir::PrimitiveType type, int bytes, SeededBits& bits, std::string& out) {
  uint64_t raw = 0;
  if (type == ir::PrimitiveType::kF32) {
    const float value = static_cast<float>(bits.Unit() * 2.0 - 1.0);
    uint32_t word = 0;
    std::memcpy(&word, &value, sizeof word);
    raw = word;
  } else if (type == ir::PrimitiveType::kF64) {
    const double value = bits.Unit() * 2.0 - 1.0;
    std::memcpy(&raw, &value, sizeof raw);
  } else if (type == ir::PrimitiveType::kPred) {
    raw = bits.Next() & 1;
  } else if (std::string_view(ir::PrimitiveTypeName(type)).starts_with("s")) {
    raw = bits.Next() % 4;
  } else {
    raw = bits.Next();
  }
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((raw >> (8 * i)) & 0xff);
}

StatusOr<std::string> NpyFile(const ir::Shape& shape, uint64_t seed) {
  if (shape.IsTuple() || shape.IsToken()) {
    return Status::Error("no .npy inputs for tuple or token parameters yet");
  }
  StatusOr<NpyType> npy_type = NpyTypeOf(shape.element_type());
  if (!npy_type.ok()) return npy_type.status();
  const NpyType type = *npy_type;
  std::string dims;
  int64_t elements = 1;
  for (int64_t dim : shape.dimensions()) {
    dims += std::to_string(dim) + ", ";
    elements *= dim;
  }
  if (shape.dimensions().size() > 1) dims.resize(dims.size() - 1);  // "(2, 3)" but "(5,)"
  std::string header = "{'descr': '" + std::string(type.descr) +
                       "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Magic, version 1.0, a little-endian u16 length; data aligned to 64 bytes.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  SeededBits bits(seed);
  for (int64_t i = 0; i < elements; ++i) AppendElement(shape.element_type(), type.bytes, bits, out);
  return out;
}

Status WriteText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) return Status::Error("cannot write " + path.string());
  return Status::Ok();
}

Status WriteInputs(const ir::Module& original, const fs::path& dir, uint64_t seed) {
  fs::create_directories(dir / "inputs");
  const ir::Computation& entry = *original.entry();
  for (int64_t i = 0; i < entry.parameter_count(); ++i) {
    const ir::Instruction* parameter = entry.parameter(i);
    if (parameter == nullptr) return Status::Error("entry parameter " + std::to_string(i) + " is missing");
    StatusOr<std::string> npy = NpyFile(parameter->shape(), seed * 1000003 + static_cast<uint64_t>(i));
    if (!npy.ok()) return Status::Error("parameter " + std::to_string(i) + ": " + npy.message());
    char name[32];
    std::snprintf(name, sizeof name, "arg_%03lld.npy", static_cast<long long>(i));
    FS_RETURN_IF_ERROR(WriteText(dir / "inputs" / name, *npy));
  }
  return Status::Ok();
}

int RunExport(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"--pass", "-o", "--seed"}, {});
  if (!args.ok()) return Fail("export: " + args.message());
  const std::optional<std::string> out = args->Value("-o");
  if (args->positional().size() != 1 || !out) {
    return Fail("usage: fusescope export RUN.fsdb [--pass N] -o DIR [--seed S]");
  }
  auto pass = args->IntValue("--pass");
  auto seed = args->IntValue("--seed");
  if (!pass.ok()) return Fail(pass.message());
  if (!seed.ok()) return Fail(seed.message());
  const std::string& what = args->positional()[0];
  auto snapshot = LoadModel(what, *pass);
  if (!snapshot.ok()) return Fail(snapshot.message());
  auto original = LoadModel(what, LooksLikeRecording(what) ? std::optional<int64_t>(-1)
                                                            : std::nullopt);
  if (!original.ok()) return Fail(original.message());

  const fs::path dir(*out);
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return Fail("export: cannot create " + dir.string() + ": " + error.message());
  const ir::PrintOptions options = ir::PrintOptions::Parsable();
  Status written = WriteText(dir / "snapshot.hlo", ir::PrintModule(*snapshot->module, options));
  passes::PassContext context;
  auto inlined = passes::FusionInliner().Run(*snapshot->module, context);
  if (!inlined.ok()) return Fail("export: " + inlined.message());
  if (written.ok()) {
    written = WriteText(dir / "snapshot.inlined.hlo", ir::PrintModule(*snapshot->module, options));
  }
  if (written.ok()) {
    written = WriteText(dir / "original.hlo", ir::PrintModule(*original->module, options));
  }
  if (written.ok()) written = WriteInputs(*original->module, dir, static_cast<uint64_t>(seed->value_or(0)));
  const std::string command = "\"${FUSESCOPE_PYTHON:-python3}\" \"" FUSESCOPE_SCRIPTS_DIR
                              "/xla_run.py\" \"$(dirname \"$0\")\"";
  if (written.ok()) written = WriteText(dir / "run_with_xla.sh", "#!/bin/sh\n" + command + "\n");
  if (!written.ok()) return Fail("export: " + written.message());
  fs::permissions(dir / "run_with_xla.sh", fs::perms::owner_exec | fs::perms::group_exec |
                                                fs::perms::others_exec,
                  fs::perm_options::add, error);
  std::cout << "wrote " << dir.string() << ": snapshot.hlo, snapshot.inlined.hlo, original.hlo, "
            << original->module->entry()->parameter_count() << " inputs\n"
            << "run: sh " << (dir / "run_with_xla.sh").string() << "\n";
  return 0;
}

const CommandRegistrar kRegistrar({"export", "export RUN.fsdb [--pass N] -o DIR [--seed S]",
                                   "a snapshot, its inputs and a command that runs it with XLA",
                                   RunExport});

}  // namespace
}  // namespace fusescope::app
