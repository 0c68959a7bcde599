#include "views/svg_writer.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/views/view_test_modules.h"
#include "tests/views/xml_check.h"
#include "views/diff_layout.h"
#include "views/diff_palette.h"
#include "views/layout_cache.h"

namespace fusescope::views {
namespace {

using testing::kScopedModule;
using testing::ParseOrDie;
using testing::XmlDocument;
using testing::XmlElement;
using testing::XmlReader;

constexpr std::string_view kBefore = R"(HloModule m
ENTRY main {
  p = f32[4]{0} parameter(0)
  a = f32[4]{0} negate(p), metadata={op_name="jit(f)/<lambda>&co/neg"}
  b = f32[4]{0} exponential(a), metadata={op_name="jit(f)/<lambda>&co/exp"}
  d = f32[4]{0} tanh(p)
  ROOT c = f32[4]{0} add(b, d)
}
)";

constexpr std::string_view kAfter = R"(HloModule m
ENTRY main {
  p = f32[4]{0} parameter(0)
  a = f32[4]{0} negate(p), metadata={op_name="jit(f)/<lambda>&co/neg"}
  b = f32[4]{0} log(a), metadata={op_name="jit(f)/<lambda>&co/exp"}
  e = f32[4]{0} sine(p)
  ROOT c = f32[4]{0} add(b, e)
}
)";

// The node group with data-key `key` inside one side's graph group.
const XmlElement* FindNode(const XmlDocument& document, const XmlElement& side,
                           const std::string& key) {
  for (int child : side.children) {
    const XmlElement& element = document.elements[static_cast<size_t>(child)];
    if (element.name == "g" && element.Attribute("data-key") == key) return &element;
  }
  return nullptr;
}

std::string RectFill(const XmlDocument& document, const XmlElement& node) {
  const XmlElement* rect = document.Find(node, "rect");
  return rect != nullptr ? rect->Attribute("fill") : "";
}

class SvgDiffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    before_ = ParseOrDie(kBefore);
    after_ = ParseOrDie(kAfter);
    diff_ = std::make_unique<ir::GraphDiff>(
        ir::GraphDiff::Compute(*before_, *after_, ir::DiffOptions::Unrelated()));
    left_ = DisplayGraph::Build(*before_);
    right_ = DisplayGraph::Build(*after_);
    left_.ExpandAll();
    right_.ExpandAll();
    left_.AttachDiff(*diff_, true);
    right_.AttachDiff(*diff_, false);
    LayoutOptions options;
    options.cache = &cache_;
    StatusOr<DiffLayout> layout = LayoutDiff(left_, right_, *diff_, options);
    ASSERT_TRUE(layout.ok()) << layout.message();
    svg_ = SvgWriter().RenderSideBySide(left_, layout->left, right_, layout->right);
    document_ = XmlReader::Read(svg_);
    ASSERT_TRUE(document_.ok()) << document_.error;
    std::vector<const XmlElement*> sides;
    for (const XmlElement* g : document_.All("g")) {
      if (g->HasClass("fs-graph")) sides.push_back(g);
    }
    ASSERT_EQ(sides.size(), 2u);
    left_side_ = sides[0];
    right_side_ = sides[1];
  }

  // The drawn node of instruction `name` on one side.
  const XmlElement* Drawn(bool left, std::string_view name) {
    const DisplayGraph& graph = left ? left_ : right_;
    const ir::Module& module = left ? *before_ : *after_;
    int id = graph.FindInstruction(module.FindInstruction(name));
    EXPECT_GE(id, 0) << name;
    const XmlElement* node =
        id < 0 ? nullptr
               : FindNode(document_, left ? *left_side_ : *right_side_, graph.node(id).key);
    EXPECT_NE(node, nullptr) << name;
    return node;
  }

  void ExpectStatus(bool left, std::string_view name, ir::DiffStatus status) {
    const XmlElement* node = Drawn(left, name);
    if (node == nullptr) return;
    DiffPalette palette = DiffPalette::For(status);
    EXPECT_TRUE(node->HasClass("diff-" + std::string(palette.name))) << name;
    EXPECT_EQ(node->Attribute("data-status"), palette.name) << name;
    EXPECT_EQ(RectFill(document_, *node), palette.fill) << name;
  }

  LayoutCache cache_;
  std::unique_ptr<ir::Module> before_;
  std::unique_ptr<ir::Module> after_;
  std::unique_ptr<ir::GraphDiff> diff_;
  DisplayGraph left_;
  DisplayGraph right_;
  std::string svg_;
  XmlDocument document_;
  const XmlElement* left_side_ = nullptr;
  const XmlElement* right_side_ = nullptr;
};

TEST_F(SvgDiffTest, IsWellFormedStandaloneSvg) {
  EXPECT_EQ(svg_.rfind("<?xml", 0), 0u);
  EXPECT_EQ(document_.elements[0].name, "svg");
  EXPECT_EQ(document_.elements[0].Attribute("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_FALSE(document_.elements[0].Attribute("viewBox").empty());
}

TEST_F(SvgDiffTest, ColoursFollowTheDiff) {
  ExpectStatus(true, "d", ir::DiffStatus::kRemoved);
  ExpectStatus(false, "e", ir::DiffStatus::kAdded);
  ExpectStatus(true, "b", ir::DiffStatus::kChanged);
  ExpectStatus(false, "b", ir::DiffStatus::kChanged);
  ExpectStatus(false, "c", ir::DiffStatus::kChanged);
  ExpectStatus(true, "a", ir::DiffStatus::kUnchanged);
  ExpectStatus(false, "p", ir::DiffStatus::kUnchanged);
  EXPECT_EQ(DiffPalette::For(ir::DiffStatus::kRemoved).fill, "#f9d0d0");
  EXPECT_EQ(DiffPalette::For(ir::DiffStatus::kAdded).fill, "#d3f2d3");
}

TEST_F(SvgDiffTest, ScopeTitlesAreEscaped) {
  const XmlElement* scope = FindNode(document_, *left_side_, "s:jit(f)/<lambda>&co");
  ASSERT_NE(scope, nullptr);
  EXPECT_NE(document_.AllText(*scope).find("<lambda>&co"), std::string::npos);
  EXPECT_NE(svg_.find("&lt;lambda&gt;&amp;co"), std::string::npos);
}

TEST_F(SvgDiffTest, TitlesAndLegendAreDrawn) {
  std::string text = document_.AllText(document_.elements[0]);
  EXPECT_NE(text.find("before"), std::string::npos);
  EXPECT_NE(text.find("after"), std::string::npos);
  for (std::string_view status : {"removed", "added", "changed", "fused"}) {
    EXPECT_NE(text.find(status), std::string::npos) << status;
  }
}

TEST(SvgWriterTest, FusionBoxIsRoundedWithItsKindAndRefusalsShowOnEdges) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.ExpandAll();
  graph.SetExpanded(graph.FindInstruction(module->FindInstruction("fusion.1")), false);
  graph.AnnotateEdge(module->FindInstruction("m")->id(), module->FindInstruction("fusion.1")->id(),
                     "fusion would exceed 96 operands", true);
  LayoutCache cache;
  LayoutOptions options;
  options.cache = &cache;
  StatusOr<GraphLayout> layout = LayoutGraph(graph, options);
  ASSERT_TRUE(layout.ok()) << layout.message();
  SvgOptions svg_options;
  svg_options.title = "fusion & friends";
  std::string svg = SvgWriter(svg_options).Render(graph, *layout);
  XmlDocument document = XmlReader::Read(svg);
  ASSERT_TRUE(document.ok()) << document.error;

  const XmlElement* fusion = nullptr;
  const XmlElement* refused = nullptr;
  for (const XmlElement* g : document.All("g")) {
    if (g->HasClass("fs-fusion")) fusion = g;
    if (g->HasClass("fs-refused")) refused = g;
  }
  ASSERT_NE(fusion, nullptr);
  EXPECT_EQ(document.Find(*fusion, "rect")->Attribute("rx"), "10");
  EXPECT_NE(document.AllText(*fusion).find("kLoop"), std::string::npos);
  ASSERT_NE(refused, nullptr);
  EXPECT_NE(document.AllText(*refused).find("fusion would exceed 96 operands"), std::string::npos);
  EXPECT_EQ(document.Find(*refused, "path")->Attribute("stroke"), "#c62828");
  EXPECT_NE(document.AllText(document.elements[0]).find("fusion & friends"), std::string::npos);
}

TEST(SvgWriterTest, InlineSvgHasNoDeclarationAndOwnIds) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  LayoutCache cache;
  LayoutOptions options;
  options.cache = &cache;
  StatusOr<GraphLayout> layout = LayoutGraph(graph, options);
  ASSERT_TRUE(layout.ok());
  SvgOptions svg_options;
  svg_options.standalone = false;
  svg_options.id_prefix = "p7";
  std::string svg = SvgWriter(svg_options).Render(graph, *layout);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  XmlDocument document = XmlReader::Read(svg);
  ASSERT_TRUE(document.ok()) << document.error;
  for (const XmlElement& element : document.elements) {
    std::string id = element.Attribute("id");
    if (!id.empty()) {
      EXPECT_EQ(id.rfind("p7-", 0), 0u) << id;
    }
  }
}

TEST(XmlCheckTest, RefusesMalformedDocuments) {
  EXPECT_TRUE(XmlReader::Read("<a x=\"1\"><b/>t &amp; u</a>").ok());
  EXPECT_FALSE(XmlReader::Read("<a><b></a></b>").ok());
  EXPECT_FALSE(XmlReader::Read("<a x=1></a>").ok());
  EXPECT_FALSE(XmlReader::Read("<a>1 < 2</a>").ok());
  EXPECT_FALSE(XmlReader::Read("<a>R&D</a>").ok());
  EXPECT_FALSE(XmlReader::Read("<a x=\"1\" x=\"2\"/>").ok());
  EXPECT_FALSE(XmlReader::Read("<a>").ok());
}

}  // namespace
}  // namespace fusescope::views
