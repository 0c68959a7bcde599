#include "ir/graph_diff.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/name_index.h"

namespace fusescope::ir {

std::string_view DiffStatusName(DiffStatus status) {
  switch (status) {
    case DiffStatus::kUnchanged:
      return "unchanged";
    case DiffStatus::kChanged:
      return "changed";
    case DiffStatus::kAdded:
      return "added";
    case DiffStatus::kRemoved:
      return "removed";
    case DiffStatus::kFused:
      return "fused";
    case DiffStatus::kReplaced:
      return "replaced";
  }
  return "unchanged";
}

std::string DescribeChanges(uint32_t changes) {
  static constexpr std::pair<uint32_t, const char*> kNames[] = {
      {kChangeOpcode, "opcode"},
      {kChangeShape, "shape"},
      {kChangeLayout, "layout"},
      {kChangeOperands, "operands"},
      {kChangeAttributes, "attributes"},
      {kChangeCalled, "called computation"},
      {kChangeName, "name"},
      {kChangeMetadata, "metadata"},
      {kChangeUnfused, "moved out of its fusion"},
  };
  std::string text;
  for (const auto& [bit, name] : kNames) {
    if ((changes & bit) == 0) continue;
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

namespace {

constexpr int kNoMatch = -1;
constexpr size_t kPrefetchDistance = 4;
constexpr size_t kLoopPrefetchDistance = 8;

// All instructions of one side, callee computations first and def-before-use within each, so
// that operands and called computations are always visited before their users.
struct SideIndex {
  std::vector<const Instruction*> instructions;
  std::vector<const Computation*> parents;  // of `instructions`, read without touching them
  // Where each computation's instructions are in `instructions`: [first, last).
  std::unordered_map<const Computation*, std::pair<int, int>> ranges;

  explicit SideIndex(const Module& module) {
    const auto count = static_cast<size_t>(module.instruction_count());
    discovery_.Reserve(count);
    instructions.reserve(count);
    parents.reserve(count);
    position_.reserve(count);
    std::vector<Frame> stack;
    for (const Computation* computation : module.MakeComputationPostOrder()) {
      const int first = size();
      AppendPostOrder(*computation, stack);
      ranges.emplace(computation, std::make_pair(first, size()));
    }
  }
  int size() const { return static_cast<int>(instructions.size()); }
  int IndexOf(const Instruction* instruction) const {
    const size_t discovered = discovery_.Find(instruction);
    return discovered == InstructionIndex::kAbsent ? kNoMatch : position_[discovered];
  }

 private:
  // The order of Computation::MakePostOrder (a depth-first walk of operands from each
  // instruction in turn), without its node-based visited set, which took a quarter of the
  // diff's time on modules of thousands of computations. Instructions are numbered when first
  // seen, which marks them visited, and placed when their operands are.
  struct Frame {
    const Instruction* instruction;
    size_t discovered;   // its number
    size_t operand = 0;  // the next operand to visit
  };

  void AppendPostOrder(const Computation& computation, std::vector<Frame>& stack) {
    auto discover = [&](const Instruction* instruction) {
      if (!discovery_.Insert(instruction, position_.size())) return false;
      stack.push_back({instruction, position_.size()});
      position_.push_back(kNoMatch);
      return true;
    };
    const auto& owned = computation.instructions();
    for (size_t i = 0; i < owned.size(); ++i) {
      // The walk mostly meets instructions in their stored order; asking for the next ones
      // early hides the cache misses of this first visit.
      if (i + 2 * kPrefetchDistance < owned.size()) {
        __builtin_prefetch(owned[i + 2 * kPrefetchDistance].get());
      }
      if (i + kPrefetchDistance < owned.size()) {
        __builtin_prefetch(owned[i + kPrefetchDistance]->operands().data());
      }
      if (!discover(owned[i].get())) continue;
      while (!stack.empty()) {
        Frame& frame = stack.back();
        const std::vector<Instruction*>& operands = frame.instruction->operands();
        if (frame.operand < operands.size()) {
          const Instruction* operand = operands[frame.operand++];
          if (operand->parent() == &computation) discover(operand);
          continue;
        }
        position_[frame.discovered] = size();
        instructions.push_back(frame.instruction);
        parents.push_back(&computation);
        stack.pop_back();
      }
    }
  }

  InstructionIndex discovery_;  // instruction -> when it was first seen
  std::vector<int> position_;   // by when first seen: the place in `instructions`
};

// Values grouped by a key, each group in the order its values were added; built once (Add,
// then Seal), then looked up. The groups lie one after the other in one array and are found
// through an open-addressing table of the keys: no allocation per group, no sorting.
class Groups {
 public:
  void Add(uint64_t key, int value) { added_.emplace_back(key, value); }
  void Seal();
  // Positions [first, last) of the group of `key` (empty when there is none).
  std::pair<size_t, size_t> Find(uint64_t key) const {
    if (slots_.empty()) return {0, 0};
    const Slot& slot = slots_[SlotOf(key)];
    if (slot.group == 0) return {0, 0};
    return {starts_[slot.group - 1], starts_[slot.group]};
  }
  int value(size_t position) const { return values_[position]; }
  size_t size() const { return values_.size(); }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t group = 0;  // the group's number plus one; 0: empty
  };
  size_t SlotOf(uint64_t key) const {
    const size_t mask = slots_.size() - 1;
    uint64_t mixed = (key ^ (key >> 31)) * 0x9e3779b97f4a7c15ULL;
    size_t at = static_cast<size_t>(mixed ^ (mixed >> 29)) & mask;
    while (slots_[at].group != 0 && slots_[at].key != key) at = (at + 1) & mask;
    return at;
  }

  std::vector<std::pair<uint64_t, int>> added_;  // until Seal
  std::vector<Slot> slots_;
  std::vector<size_t> starts_;  // group -> its first position; one more for the end
  std::vector<int> values_;
};

void Groups::Seal() {
  size_t capacity = 16;
  while (capacity < 2 * added_.size()) capacity *= 2;
  slots_.assign(capacity, Slot{});
  std::vector<uint32_t> group_of(added_.size());
  std::vector<size_t> counts;
  for (size_t i = 0; i < added_.size(); ++i) {
    Slot& slot = slots_[SlotOf(added_[i].first)];
    if (slot.group == 0) {
      counts.push_back(0);
      slot = {added_[i].first, static_cast<uint32_t>(counts.size())};
    }
    group_of[i] = slot.group - 1;
    ++counts[group_of[i]];
  }
  starts_.assign(counts.size() + 1, 0);
  for (size_t group = 0; group < counts.size(); ++group) {
    starts_[group + 1] = starts_[group] + counts[group];
  }
  values_.resize(added_.size());
  std::vector<size_t> next(starts_.begin(), starts_.end() - 1);
  for (size_t i = 0; i < added_.size(); ++i) values_[next[group_of[i]]++] = added_[i].second;
  added_ = {};
}

const Instruction* EnclosingFusion(const Instruction* instruction) {
  const Computation* computation = instruction->parent();
  return computation ? computation->fusion_instruction() : nullptr;
}

bool ProvenanceCovers(const ProvenanceSet& big, const ProvenanceSet& small) {
  if (small.size() > big.size()) return false;
  const std::vector<int64_t>& ids = big.ids();
  return std::all_of(small.ids().begin(), small.ids().end(),
                     [&](int64_t id) { return std::binary_search(ids.begin(), ids.end(), id); });
}

std::vector<const Attribute*> PlainAttributesByKey(const Instruction& instruction) {
  std::vector<const Attribute*> plain;
  for (const Attribute& attribute : instruction.attributes()) {
    if (!attribute.names_computations) plain.push_back(&attribute);
  }
  std::sort(plain.begin(), plain.end(),
            [](const Attribute* a, const Attribute* b) { return a->key < b->key; });
  return plain;
}

bool SameAttributes(const Instruction& a, const Instruction& b) {
  if (a.literal() != b.literal() || a.constant_fingerprint() != b.constant_fingerprint() ||
      a.parameter_number() != b.parameter_number())
    return false;
  if (a.attributes() == b.attributes()) return true;
  std::vector<const Attribute*> pa = PlainAttributesByKey(a);
  std::vector<const Attribute*> pb = PlainAttributesByKey(b);
  return std::equal(pa.begin(), pa.end(), pb.begin(), pb.end(),
                    [](const Attribute* x, const Attribute* y) { return *x == *y; });
}

void HashCombine(uint64_t& seed, uint64_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

// Combines what Shape::ToString(false) shows: shapes that print alike hash alike, without
// building the text.
void HashShape(uint64_t& seed, const Shape& shape) {
  HashCombine(seed, static_cast<uint64_t>(shape.element_type()));
  if (shape.IsTuple()) {
    HashCombine(seed, shape.tuple_shapes().size());
    for (const Shape& element : shape.tuple_shapes()) HashShape(seed, element);
    return;
  }
  if (!shape.IsArray()) return;
  HashCombine(seed, static_cast<uint64_t>(shape.rank()));
  for (int64_t i = 0; i < shape.rank(); ++i) {
    HashCombine(seed, static_cast<uint64_t>(shape.dimension(i)));
    HashCombine(seed, shape.is_dynamic_dimension(i) ? 1 : 0);
  }
}

std::string Sigil(const Instruction* instruction) { return "%" + instruction->name(); }

}  // namespace

// Runs the matching stages and the classification; the result is handed out as a GraphDiff.
class GraphDiffBuilder {
 public:
  GraphDiffBuilder(const Module& left, const Module& right, const DiffOptions& options)
      : options_(options),
        left_module_(left),
        right_module_(right),
        left_(left),
        right_(right),
        partner_l_(static_cast<size_t>(left_.size()), kNoMatch),
        partner_r_(static_cast<size_t>(right_.size()), kNoMatch),
        match_l_(static_cast<size_t>(left_.size()), MatchKind::kNone),
        cover_l_(static_cast<size_t>(left_.size()), kNoMatch),
        body_image_(static_cast<size_t>(right_.size()), nullptr) {}

  GraphDiff Build() {
    // Provenance sets are numbered like ids: when ids turn out unrelated, so are they.
    bool unrelated = false;
    if (options_.match_ids) {
      MatchIds();
      unrelated = options_.check_ids && !IdsLookKept();
      if (unrelated) Unlink();
    }
    diff_.used_ids_ = options_.match_ids && !unrelated;
    if (options_.match_provenance && !unrelated) MatchProvenance();
    if (options_.match_names) MatchNames();
    if (options_.match_structure) MatchStructure();
    Classify();
    PropagateCalledChanges();
    Summarize();
    return std::move(diff_);
  }

 private:
  void Link(int l, int r, MatchKind kind) {
    partner_l_[static_cast<size_t>(l)] = r;
    partner_r_[static_cast<size_t>(r)] = l;
    match_l_[static_cast<size_t>(l)] = kind;
  }
  // Each loop over a side meets its instructions out of cache; asking for the one a few
  // places ahead lets those misses overlap.
  static void PrefetchAhead(const SideIndex& side, int at) {
    const size_t ahead = static_cast<size_t>(at) + kLoopPrefetchDistance;
    if (ahead < side.instructions.size()) __builtin_prefetch(side.instructions[ahead]);
    // Half as far ahead the instruction itself is in cache; what it points to is not yet.
    const size_t near = static_cast<size_t>(at) + kLoopPrefetchDistance / 2;
    if (near < side.instructions.size()) PrefetchLists(side.instructions[near]);
  }

  // The counterparts of the left instructions ahead, which a loop over the left side compares.
  void PrefetchPartnerAhead(int l) const {
    const int ahead = l + static_cast<int>(kLoopPrefetchDistance);
    if (ahead < left_.size() && LeftMatched(ahead)) {
      __builtin_prefetch(R(partner_l_[static_cast<size_t>(ahead)]));
    }
    const int near = l + static_cast<int>(kLoopPrefetchDistance / 2);
    if (near < left_.size() && LeftMatched(near)) {
      PrefetchLists(R(partner_l_[static_cast<size_t>(near)]));
    }
  }

  static void PrefetchLists(const Instruction* instruction) {
    __builtin_prefetch(instruction->operands().data());
    __builtin_prefetch(instruction->shape().dimensions().data());
  }
  bool LeftMatched(int l) const { return partner_l_[static_cast<size_t>(l)] != kNoMatch; }
  bool RightMatched(int r) const { return partner_r_[static_cast<size_t>(r)] != kNoMatch; }
  const Instruction* L(int l) const { return left_.instructions[static_cast<size_t>(l)]; }
  const Instruction* R(int r) const { return right_.instructions[static_cast<size_t>(r)]; }

  // The right instruction matched 1:1 to a left one, or nullptr.
  const Instruction* PartnerOf(const Instruction* left) const {
    if (left == nullptr) return nullptr;
    int l = left_.IndexOf(left);
    if (l == kNoMatch || !LeftMatched(l)) return nullptr;
    return R(partner_l_[static_cast<size_t>(l)]);
  }

  // Ids kept through passes pair instructions that mostly still have their names; ids
  // numbered afresh in each module pair strangers.
  bool IdsLookKept() const {
    int pairs = 0;
    int renamed = 0;
    for (int l = 0; l < left_.size(); ++l) {
      PrefetchAhead(left_, l);
      if (!LeftMatched(l)) continue;
      ++pairs;
      if (L(l)->name() != R(partner_l_[static_cast<size_t>(l)])->name()) ++renamed;
    }
    return pairs < 8 || renamed * 2 <= pairs;
  }

  void Unlink() {
    std::fill(partner_l_.begin(), partner_l_.end(), kNoMatch);
    std::fill(partner_r_.begin(), partner_r_.end(), kNoMatch);
    std::fill(match_l_.begin(), match_l_.end(), MatchKind::kNone);
  }

  void MatchIds() {
    Groups by_id;
    for (int r = 0; r < right_.size(); ++r) {
      PrefetchAhead(right_, r);
      if (R(r)->id() >= 0) by_id.Add(static_cast<uint64_t>(R(r)->id()), r);
    }
    by_id.Seal();
    for (int l = 0; l < left_.size(); ++l) {
      PrefetchAhead(left_, l);
      if (L(l)->id() < 0) continue;
      // The first right instruction with the id, as when ids are unique.
      auto [first, last] = by_id.Find(static_cast<uint64_t>(L(l)->id()));
      if (first != last && !RightMatched(by_id.value(first))) {
        Link(l, by_id.value(first), MatchKind::kId);
      }
    }
  }

  // First pairs equal provenance sets 1:1 (a clone keeps its origin's set), then lets the
  // smallest covering right instruction absorb what is left.
  void MatchProvenance() {
    Groups holders;
    for (int r = 0; r < right_.size(); ++r) {
      PrefetchAhead(right_, r);
      for (int64_t id : R(r)->provenance().ids()) holders.Add(static_cast<uint64_t>(id), r);
    }
    holders.Seal();
    for (bool exact : {true, false}) {
      for (int l = 0; l < left_.size(); ++l) {
        PrefetchAhead(left_, l);
        if (LeftMatched(l) || L(l)->provenance().empty()) continue;
        int best = BestCover(l, holders, exact);
        if (best == kNoMatch) continue;
        if (exact) {
          Link(l, best, MatchKind::kProvenance);
        } else {
          cover_l_[static_cast<size_t>(l)] = best;
        }
      }
    }
  }

  int BestCover(int l, const Groups& holders, bool exact) const {
    const ProvenanceSet& wanted = L(l)->provenance();
    // The holders of the id that has the fewest (the first such id).
    std::pair<size_t, size_t> fewest{0, SIZE_MAX};
    for (int64_t id : wanted.ids()) {
      auto [first, last] = holders.Find(static_cast<uint64_t>(id));
      if (first == last) return kNoMatch;
      if (last - first < fewest.second - fewest.first) fewest = {first, last};
    }
    int best = kNoMatch;
    std::tuple<size_t, bool, bool, bool> best_score;
    for (size_t at = fewest.first; at < fewest.second; ++at) {
      const int r = holders.value(at);
      const ProvenanceSet& have = R(r)->provenance();
      if (exact && (have.size() != wanted.size() || RightMatched(r))) continue;
      if (!ProvenanceCovers(have, wanted)) continue;
      auto score =
          std::make_tuple(have.size(), RightMatched(r), R(r)->opcode_name() != L(l)->opcode_name(),
                          R(r)->name() != L(l)->name());
      if (best == kNoMatch || score < best_score) {
        best = r;
        best_score = score;
      }
    }
    return best;
  }

  // Every operand of `right` is the counterpart of the same operand of `left`.
  bool SameOperands(const Instruction* left, const Instruction* right) const {
    if (left->operand_count() != right->operand_count()) return false;
    for (int64_t i = 0; i < left->operand_count(); ++i) {
      if (PartnerOf(left->operand(i)) != right->operand(i)) return false;
    }
    return true;
  }

  // Same name and opcode, or same name and operands (rewritten in place).
  void MatchNames() {
    // Unmatched right instructions grouped by name: the index numbers the names.
    NameIndex names;
    names.Reserve(static_cast<size_t>(right_.size()));
    Groups by_name;
    for (int r = 0; r < right_.size(); ++r) {
      PrefetchAhead(right_, r);
      if (r + 4 < right_.size()) names.Prefetch(R(r + 4)->name());
      if (RightMatched(r)) continue;
      const auto next = static_cast<uint32_t>(names.size());
      by_name.Add(*names.Insert(R(r)->name(), next).first, r);
    }
    by_name.Seal();
    for (int l = 0; l < left_.size(); ++l) {
      PrefetchAhead(left_, l);
      if (l + 4 < left_.size()) names.Prefetch(L(l + 4)->name());
      if (LeftMatched(l) || cover_l_[static_cast<size_t>(l)] != kNoMatch) continue;
      const uint32_t* name = names.Find(L(l)->name());
      if (name == nullptr) continue;
      auto [first, last] = by_name.Find(*name);
      for (size_t at = first; at < last; ++at) {
        const int r = by_name.value(at);
        if (!RightMatched(r) &&
            (R(r)->opcode_name() == L(l)->opcode_name() || SameOperands(L(l), R(r)))) {
          Link(l, r, MatchKind::kName);
          break;
        }
      }
    }
  }

  // Left computation -> right computation: where most matched instructions went, else the
  // computation of the same name.
  std::unordered_map<const Computation*, const Computation*> CorrespondingComputations() const {
    std::unordered_map<const Computation*, std::unordered_map<const Computation*, int>> votes;
    // Matched pairs come a computation at a time: a run of one pair of parents is counted
    // here and added to the votes at once.
    std::pair<const Computation*, const Computation*> run_parents;
    int run = 0;
    for (int l = 0; l < left_.size(); ++l) {
      PrefetchAhead(left_, l);
      if (!LeftMatched(l)) continue;
      const std::pair parents(
          left_.parents[static_cast<size_t>(l)],
          right_.parents[static_cast<size_t>(partner_l_[static_cast<size_t>(l)])]);
      if (run > 0 && parents != run_parents) {
        votes[run_parents.first][run_parents.second] += run;
        run = 0;
      }
      run_parents = parents;
      ++run;
    }
    if (run > 0) votes[run_parents.first][run_parents.second] += run;
    std::unordered_map<const Computation*, const Computation*> result;
    for (const auto& [left_computation, counts] : votes) {
      // Ties go to the name that sorts first, so the result does not depend on addresses.
      auto top = std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second < b.second : a.first->name() > b.first->name();
      });
      result[left_computation] = top->first;
    }
    std::unordered_map<std::string_view, const Computation*> right_by_name;
    for (const auto& computation : right_module_.computations()) {
      right_by_name.emplace(computation->name(), computation.get());
    }
    for (const auto& computation : left_module_.computations()) {
      auto named = right_by_name.find(computation->name());
      if (!result.count(computation.get()) && named != right_by_name.end()) {
        result[computation.get()] = named->second;
      }
    }
    return result;
  }

  // `operands` are of one side: the instruction's own, or their counterparts.
  template <typename Operands>
  static uint64_t StructureHash(const Instruction* instruction, const Computation* computation,
                                const Operands& operands) {
    uint64_t seed = std::hash<const void*>()(computation);
    HashCombine(seed, std::hash<std::string_view>()(instruction->opcode_name()));
    HashShape(seed, instruction->shape());
    HashCombine(seed, static_cast<uint64_t>(instruction->parameter_number()));
    // Most instructions have no literal; hashing the empty text is not free.
    if (!instruction->literal().empty()) {
      HashCombine(seed, std::hash<std::string>()(instruction->literal()));
      HashCombine(seed, instruction->constant_fingerprint());
    }
    for (const Instruction* operand : operands) {
      HashCombine(seed, std::hash<const void*>()(operand));
    }
    return seed;
  }

  // Same opcode, dimensions, parameter number and literal, and `operands` (of one side) equal
  // to the operands of `other`.
  static bool SameStructure(const Instruction* instruction,
                            const std::vector<const Instruction*>& operands,
                            const Instruction* other) {
    return instruction->opcode_name() == other->opcode_name() &&
           instruction->shape().Compatible(other->shape()) &&
           instruction->parameter_number() == other->parameter_number() &&
           instruction->literal() == other->literal() &&
           instruction->constant_fingerprint() == other->constant_fingerprint() &&
           std::equal(operands.begin(), operands.end(), other->operands().begin(),
                      other->operands().end());
  }

  void MatchStructure() {
    auto corresponding = CorrespondingComputations();
    Groups buckets;
    for (int r = 0; r < right_.size(); ++r) {
      PrefetchAhead(right_, r);
      if (!RightMatched(r)) buckets.Add(StructureHash(R(r), R(r)->parent(), R(r)->operands()), r);
    }
    buckets.Seal();
    // At the first position of each bucket: where its unmatched candidates start.
    std::vector<size_t> unmatched_from(buckets.size());
    std::iota(unmatched_from.begin(), unmatched_from.end(), size_t{0});
    std::vector<const Instruction*> images;
    for (int l = 0; l < left_.size(); ++l) {
      PrefetchAhead(left_, l);
      if (LeftMatched(l) || cover_l_[static_cast<size_t>(l)] != kNoMatch) continue;
      auto computation = corresponding.find(L(l)->parent());
      if (computation == corresponding.end()) continue;
      images.clear();
      for (const Instruction* operand : L(l)->operands()) images.push_back(PartnerOf(operand));
      if (std::count(images.begin(), images.end(), nullptr) > 0) continue;
      auto [first, last] = buckets.Find(StructureHash(L(l), computation->second, images));
      if (first == last) continue;
      size_t& from = unmatched_from[first];
      while (from < last && RightMatched(buckets.value(from))) ++from;
      for (size_t at = from; at < last; ++at) {
        int r = buckets.value(at);
        if (!RightMatched(r) && R(r)->parent() == computation->second &&
            SameStructure(L(l), images, R(r))) {
          Link(l, r, MatchKind::kStructure);
          break;
        }
      }
    }
    MatchFusedBodies(corresponding);
  }

  // The left instruction whose value a right instruction computes: its counterpart, what a
  // fused body instruction was recognised as, a fusion's root's, a fused parameter's operand's.
  const Instruction* LeftImage(const Instruction* right) const {
    const int r = right_.IndexOf(right);
    if (r != kNoMatch && body_image_[static_cast<size_t>(r)] != nullptr) {
      return body_image_[static_cast<size_t>(r)];
    }
    if (r != kNoMatch && RightMatched(r)) return L(partner_r_[static_cast<size_t>(r)]);
    if (right->opcode() == Opcode::kFusion) {
      if (const Computation* body = right->fused_computation()) return LeftImage(body->root());
    }
    const Instruction* fusion = EnclosingFusion(right);
    if (right->opcode() == Opcode::kParameter && fusion != nullptr &&
        right->parameter_number() < fusion->operand_count()) {
      return LeftImage(fusion->operand(right->parameter_number()));
    }
    return nullptr;
  }

  // Without provenance a new fusion's body holds clones under new names. Reads each body
  // like a formula over the fusion's operands and finds the left instructions computing the
  // same: those went into the fusion. A clone of an instruction that still exists outside
  // (a duplicated constant or broadcast) is recognised without being matched.
  void MatchFusedBodies(
      const std::unordered_map<const Computation*, const Computation*>& corresponding) {
    std::unordered_map<const Computation*, const Computation*> left_of;
    for (const auto& [left_computation, right_computation] : corresponding) {
      left_of.emplace(right_computation, left_computation);
    }
    // New fusions at the top level of a computation that has a left counterpart.
    // (fused body, left computation)
    std::vector<std::pair<const Computation*, const Computation*>> fusions;
    for (int r = 0; r < right_.size(); ++r) {
      PrefetchAhead(right_, r);
      const Instruction* fusion = R(r);
      if (RightMatched(r) || fusion->opcode() != Opcode::kFusion ||
          EnclosingFusion(fusion) != nullptr) {
        continue;
      }
      const Computation* body = fusion->fused_computation();
      auto computation = left_of.find(fusion->parent());
      if (body != nullptr && computation != left_of.end()) {
        fusions.emplace_back(body, computation->second);
      }
    }
    if (fusions.empty()) return;
    Groups by_structure;
    for (int l = 0; l < left_.size(); ++l) {
      PrefetchAhead(left_, l);
      by_structure.Add(StructureHash(L(l), L(l)->parent(), L(l)->operands()), l);
    }
    by_structure.Seal();
    // At the first position of each bucket: where its free candidates start.
    std::vector<size_t> free_from(by_structure.size());
    std::iota(free_from.begin(), free_from.end(), size_t{0});
    for (const auto& [body, left_computation] : fusions) {
      // The body in its post order, as the right side lists it.
      const auto [first, last] = right_.ranges.at(body);
      for (int r = first; r < last; ++r) {
        PrefetchAhead(right_, r);
        if (R(r)->opcode() != Opcode::kParameter) {
          RecogniseBodyInstruction(R(r), left_computation, by_structure, free_from);
        }
      }
    }
  }

  // The first left instruction of the same structure that is still free (neither matched nor
  // covered), else the first one of the same structure.
  void RecogniseBodyInstruction(const Instruction* body, const Computation* left_computation,
                                const Groups& index, std::vector<size_t>& free_from) {
    std::vector<const Instruction*>& images = images_;
    images.clear();
    for (const Instruction* operand : body->operands()) {
      images.push_back(LeftImage(operand));
      if (images.back() == nullptr) return;
    }
    auto [first, last] = index.Find(StructureHash(body, left_computation, images));
    auto same = [&](int l) {
      return L(l)->parent() == left_computation && SameStructure(body, images, L(l));
    };
    auto free = [&](int l) {
      return !LeftMatched(l) && cover_l_[static_cast<size_t>(l)] == kNoMatch;
    };
    int recognised = kNoMatch;
    for (size_t at = first; at < last && recognised == kNoMatch; ++at) {
      if (same(index.value(at))) recognised = index.value(at);
    }
    if (recognised == kNoMatch) return;
    // A matched or covered candidate stays so: a bucket of equal constants (one per layer)
    // would otherwise be scanned from its start for every clone of one.
    size_t& from = free_from[first];
    while (from < last && !free(index.value(from))) ++from;
    for (size_t at = from; at < last; ++at) {
      if (free(index.value(at)) && same(index.value(at))) {
        recognised = index.value(at);
        break;
      }
    }
    int r = right_.IndexOf(body);
    if (!LeftMatched(recognised) && cover_l_[static_cast<size_t>(recognised)] == kNoMatch &&
        r != kNoMatch && !RightMatched(r)) {
      Link(recognised, r, MatchKind::kStructure);
    } else if (r != kNoMatch) {
      body_image_[static_cast<size_t>(r)] = L(recognised);
    }
  }

  uint32_t Changes(const Instruction* left, const Instruction* right) const {
    uint32_t changes = 0;
    if (left->opcode_name() != right->opcode_name()) changes |= kChangeOpcode;
    if (!left->shape().Compatible(right->shape())) {
      changes |= kChangeShape;
    } else if (left->shape() != right->shape()) {
      changes |= kChangeLayout;
    }
    if (!SameOperands(left, right)) changes |= kChangeOperands;
    if (!SameAttributes(*left, *right)) changes |= kChangeAttributes;
    if (left->called_computations().size() != right->called_computations().size()) {
      changes |= kChangeCalled;
    }
    if (left->name() != right->name()) changes |= kChangeName;
    if (left->metadata() != right->metadata()) changes |= kChangeMetadata;
    return changes;
  }

  InstructionDiff ClassifyMatched(int l) const {
    InstructionDiff entry;
    entry.left = L(l);
    entry.right = R(partner_l_[static_cast<size_t>(l)]);
    entry.match = match_l_[static_cast<size_t>(l)];
    entry.changes = Changes(entry.left, entry.right);
    const Instruction* right_fusion = EnclosingFusion(entry.right);
    const Instruction* left_fusion = EnclosingFusion(entry.left);
    if (right_fusion != nullptr && PartnerOf(left_fusion) != right_fusion) {
      entry.status = DiffStatus::kFused;
      entry.target = right_fusion;
      return entry;
    }
    if (right_fusion == nullptr && left_fusion != nullptr) entry.changes |= kChangeUnfused;
    entry.status = entry.changes == 0 ? DiffStatus::kUnchanged : DiffStatus::kChanged;
    return entry;
  }

  // An absorbed instruction went into a fusion unless it was absorbed within the fusion it
  // already lived in (say, CSE inside a fusion body): then it was replaced.
  InstructionDiff ClassifyCovered(int l) const {
    InstructionDiff entry;
    entry.left = L(l);
    entry.right = R(cover_l_[static_cast<size_t>(l)]);
    entry.match = MatchKind::kProvenance;
    const Instruction* fusion =
        entry.right->opcode() == Opcode::kFusion ? entry.right : EnclosingFusion(entry.right);
    bool into_fusion = fusion != nullptr && fusion != PartnerOf(EnclosingFusion(entry.left)) &&
                       fusion != PartnerOf(entry.left);
    entry.status = into_fusion ? DiffStatus::kFused : DiffStatus::kReplaced;
    entry.target = into_fusion ? fusion : entry.right;
    return entry;
  }

  void Classify() {
    diff_.entries_.reserve(static_cast<size_t>(left_.size() + right_.size()));
    diff_.left_index_.Reserve(static_cast<size_t>(left_.size()));
    diff_.right_index_.Reserve(static_cast<size_t>(right_.size()));
    for (int l = 0; l < left_.size(); ++l) {
      PrefetchAhead(left_, l);
      PrefetchPartnerAhead(l);
      InstructionDiff entry;
      if (LeftMatched(l)) {
        entry = ClassifyMatched(l);
      } else if (cover_l_[static_cast<size_t>(l)] != kNoMatch) {
        entry = ClassifyCovered(l);
      } else {
        entry.left = L(l);
        entry.status = DiffStatus::kRemoved;
      }
      diff_.left_index_.Insert(entry.left, diff_.entries_.size());
      if (LeftMatched(l)) diff_.right_index_.Insert(entry.right, diff_.entries_.size());
      diff_.entries_.push_back(entry);
    }
    for (int r = 0; r < right_.size(); ++r) {
      PrefetchAhead(right_, r);
      if (RightMatched(r)) continue;
      InstructionDiff entry;
      entry.right = R(r);
      entry.status = DiffStatus::kAdded;
      diff_.right_index_.Insert(entry.right, diff_.entries_.size());
      diff_.entries_.push_back(entry);
    }
  }

  // A caller changed when a computation it calls changed. Entries are in callee-first order,
  // so one sweep carries changes from nested bodies up to their callers.
  void PropagateCalledChanges() {
    DirtyComputations dirty;
    for (const InstructionDiff& entry : diff_.entries_) {
      if (entry.status == DiffStatus::kUnchanged) continue;
      if (entry.left != nullptr) dirty.Mark(entry.left->parent());
      if (entry.right != nullptr && entry.status != DiffStatus::kReplaced) {
        dirty.Mark(entry.right->parent());
      }
    }
    for (InstructionDiff& entry : diff_.entries_) {
      if (entry.left == nullptr || entry.right == nullptr ||
          (entry.status != DiffStatus::kUnchanged && entry.status != DiffStatus::kChanged)) {
        continue;
      }
      if (!CallsDirty(entry, dirty)) continue;
      entry.changes |= kChangeCalled;
      entry.status = DiffStatus::kChanged;
      dirty.Mark(entry.left->parent());
      dirty.Mark(entry.right->parent());
    }
  }

  // Computations with a difference in them. Entries come a computation at a time, so most
  // marks repeat the one before and skip the set.
  class DirtyComputations {
   public:
    void Mark(const Computation* computation) {
      if (computation == last_) return;
      set_.insert(computation);
      last_ = computation;
    }
    bool Contains(const Computation* computation) const { return set_.count(computation) > 0; }

   private:
    std::unordered_set<const Computation*> set_;
    const Computation* last_ = nullptr;
  };

  static bool CallsDirty(const InstructionDiff& entry, const DirtyComputations& dirty) {
    auto is_dirty = [&](const Computation* computation) { return dirty.Contains(computation); };
    const auto& left_called = entry.left->called_computations();
    const auto& right_called = entry.right->called_computations();
    return std::any_of(left_called.begin(), left_called.end(), is_dirty) ||
           std::any_of(right_called.begin(), right_called.end(), is_dirty);
  }

  void Summarize() {
    InstructionIndex fusion_slot;
    InstructionIndex replacement_slot;
    DiffCounts& counts = diff_.counts_;
    for (const InstructionDiff& entry : diff_.entries_) {
      switch (entry.status) {
        case DiffStatus::kUnchanged:
          ++counts.unchanged;
          break;
        case DiffStatus::kChanged:
          ++counts.changed;
          break;
        case DiffStatus::kRemoved:
          ++counts.removed;
          break;
        case DiffStatus::kAdded:
          if (!InsideNewFusion(entry.right)) ++counts.added;
          break;
        case DiffStatus::kFused:
          ++counts.fused;
          AddFusionMember(entry, fusion_slot);
          break;
        case DiffStatus::kReplaced:
          ++counts.replaced;
          AddReplaced(entry, replacement_slot);
          break;
      }
    }
  }

  bool InsideNewFusion(const Instruction* right) const {
    const Instruction* fusion = EnclosingFusion(right);
    return fusion != nullptr && diff_.RightStatus(fusion) == DiffStatus::kAdded;
  }

  void AddFusionMember(const InstructionDiff& entry, InstructionIndex& slot) {
    const InstructionDiff* outer = diff_.ForLeft(EnclosingFusion(entry.left));
    if (outer != nullptr && outer->status == DiffStatus::kFused && outer->target == entry.target) {
      return;
    }
    if (slot.Insert(entry.target, diff_.fusion_groups_.size())) {
      FusionGroup group;
      group.fusion = entry.target;
      group.new_fusion = diff_.RightStatus(entry.target) == DiffStatus::kAdded;
      diff_.fusion_groups_.push_back(std::move(group));
    }
    diff_.fusion_groups_[slot.Find(entry.target)].members.push_back(entry.left);
  }

  void AddReplaced(const InstructionDiff& entry, InstructionIndex& slot) {
    if (slot.Insert(entry.target, diff_.replacements_.size())) {
      diff_.replacements_.push_back({entry.target, {}});
    }
    diff_.replacements_[slot.Find(entry.target)].replaced.push_back(entry.left);
  }

  const DiffOptions& options_;
  const Module& left_module_;
  const Module& right_module_;
  SideIndex left_;
  SideIndex right_;
  std::vector<int> partner_l_;
  std::vector<int> partner_r_;
  std::vector<MatchKind> match_l_;
  std::vector<int> cover_l_;
  // By right index: the left instruction a fused body instruction was recognised as, when it
  // was not matched to it (see RecogniseBodyInstruction).
  std::vector<const Instruction*> body_image_;
  std::vector<const Instruction*> images_;  // scratch of RecogniseBodyInstruction
  GraphDiff diff_;
};

GraphDiff GraphDiff::Compute(const Module& left, const Module& right, const DiffOptions& options) {
  return GraphDiffBuilder(left, right, options).Build();
}

const InstructionDiff* GraphDiff::ForLeft(const Instruction* instruction) const {
  const size_t at = left_index_.Find(instruction);
  return at == InstructionIndex::kAbsent ? nullptr : &entries_[at];
}

const InstructionDiff* GraphDiff::ForRight(const Instruction* instruction) const {
  const size_t at = right_index_.Find(instruction);
  return at == InstructionIndex::kAbsent ? nullptr : &entries_[at];
}

DiffStatus GraphDiff::LeftStatus(const Instruction* instruction) const {
  const InstructionDiff* entry = ForLeft(instruction);
  return entry ? entry->status : DiffStatus::kUnchanged;
}

DiffStatus GraphDiff::RightStatus(const Instruction* instruction) const {
  const InstructionDiff* entry = ForRight(instruction);
  return entry ? entry->status : DiffStatus::kUnchanged;
}

const Instruction* GraphDiff::LeftCounterpart(const Instruction* right) const {
  const InstructionDiff* entry = ForRight(right);
  return entry ? entry->left : nullptr;
}

namespace {

std::string NameList(const std::vector<const Instruction*>& instructions, int max_names) {
  std::string text;
  int shown = 0;
  for (const Instruction* instruction : instructions) {
    if (shown == max_names) break;
    if (shown++ > 0) text += ", ";
    text += instruction->name();
  }
  int rest = static_cast<int>(instructions.size()) - shown;
  if (rest > 0) text += " and " + std::to_string(rest) + " more";
  return text;
}

std::string FusionTitle(const Instruction* fusion) {
  std::string kind = fusion->fusion_kind();
  return kind.empty() ? fusion->name() : fusion->name() + " (k" + kind + ")";
}

std::string LayoutText(const Shape& shape) {
  return shape.layout() ? shape.layout()->ToString() : "{}";
}

}  // namespace

std::vector<std::string> GraphDiff::Statements(int max_names) const {
  std::vector<std::string> statements;
  for (const FusionGroup& group : fusion_groups_) {
    std::string count = std::to_string(group.members.size());
    std::string noun = group.members.size() == 1 ? " instruction" : " instructions";
    std::string verb = group.new_fusion            ? " became "
                       : group.members.size() == 1 ? " was fused into "
                                                   : " were fused into ";
    statements.push_back(count + noun + verb + FusionTitle(group.fusion) + ": " +
                         NameList(group.members, max_names));
  }
  for (const ReplacementGroup& group : replacements_) {
    std::string verb = group.replaced.size() == 1 ? " was replaced by " : " were replaced by ";
    statements.push_back(NameList(group.replaced, max_names) + verb + group.replacement->name());
  }
  return statements;
}

std::string GraphDiff::CountsLine() const {
  const DiffCounts& c = counts_;
  return std::to_string(c.unchanged) + " unchanged, " + std::to_string(c.changed) + " changed, " +
         std::to_string(c.added) + " added, " + std::to_string(c.removed) + " removed, " +
         std::to_string(c.fused) + " fused, " + std::to_string(c.replaced) + " replaced";
}

std::string GraphDiff::DescribeEntry(const InstructionDiff& entry) {
  switch (entry.status) {
    case DiffStatus::kUnchanged:
      return "unchanged " + Sigil(entry.left);
    case DiffStatus::kAdded:
      return "added " + Sigil(entry.right) + " (" + std::string(entry.right->opcode_name()) + ")";
    case DiffStatus::kRemoved:
      return "removed " + Sigil(entry.left) + " (" + std::string(entry.left->opcode_name()) + ")";
    case DiffStatus::kFused:
      return "fused " + Sigil(entry.left) + " into " + Sigil(entry.target);
    case DiffStatus::kReplaced:
      return "replaced " + Sigil(entry.left) + " by " + Sigil(entry.target);
    case DiffStatus::kChanged:
      break;
  }
  const Instruction& l = *entry.left;
  const Instruction& r = *entry.right;
  std::vector<std::string> parts;
  if (entry.changes & kChangeName) parts.push_back("renamed from " + Sigil(&l));
  if (entry.changes & kChangeOpcode) {
    parts.push_back("opcode " + std::string(l.opcode_name()) + " -> " +
                    std::string(r.opcode_name()));
  }
  if (entry.changes & kChangeShape) {
    parts.push_back("shape " + l.shape().ToString(false) + " -> " + r.shape().ToString(false));
  }
  if (entry.changes & kChangeLayout) {
    parts.push_back("layout " + LayoutText(l.shape()) + " -> " + LayoutText(r.shape()));
  }
  uint32_t rest = entry.changes & ~(kChangeName | kChangeOpcode | kChangeShape | kChangeLayout);
  if (rest != 0) parts.push_back(DescribeChanges(rest));
  std::string text = "changed " + Sigil(&r) + ":";
  for (size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? " " : "; ") + parts[i];
  return text;
}

std::string GraphDiff::ToText(int max_lines) const {
  std::string text = CountsLine() + "\n";
  for (const std::string& statement : Statements()) text += statement + "\n";
  int shown = 0;
  int hidden = 0;
  for (const InstructionDiff& entry : entries_) {
    bool listed = entry.status == DiffStatus::kChanged || entry.status == DiffStatus::kRemoved ||
                  (entry.status == DiffStatus::kAdded &&
                   !(EnclosingFusion(entry.right) &&
                     RightStatus(EnclosingFusion(entry.right)) == DiffStatus::kAdded));
    if (!listed) continue;
    if (shown == max_lines) {
      ++hidden;
      continue;
    }
    text += DescribeEntry(entry) + "\n";
    ++shown;
  }
  if (hidden > 0) text += "... and " + std::to_string(hidden) + " more\n";
  return text;
}

}  // namespace fusescope::ir
