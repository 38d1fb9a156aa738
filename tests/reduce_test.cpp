// The reduction and scan lab: the references against the chapter's example, every CPU and CUDA
// variant against the references on fresh random inputs (sizes that are and are not multiples
// of a block, every block size, each value range), and the tree model's divergence and bank
// conflicts against counts worked out by hand.
#include <gtest/gtest.h>

#include <cstdlib>

#include "compute/core/errors.h"
#include "compute/reduce/reduce_module.h"
#include "tests/test_support.h"

namespace ws::reduce {
namespace {

// Under compute-sanitizer (scripts/gpu_check.sh sets WS_SANITIZER_RUN) every kernel still runs at
// every recursion depth, on sizes racecheck gets through in minutes.
bool underSanitizer() {
  return std::getenv("WS_SANITIZER_RUN") != nullptr;
}
std::vector<std::int64_t> cudaSizes(std::int64_t large) {
  if (underSanitizer()) return {1, 1000, 70001};
  return {1, 1000, 1 << 20 | 3, large};
}

std::unique_ptr<ReduceModule> lab(Backend backend, const std::string& operation,
                                  std::int64_t size) {
  auto m = std::make_unique<ReduceModule>(backend);
  m->setParams({{"operation", operation},
                {"size", size},
                {"seed", std::int64_t(test::freshSeed() % 2147483647)}});
  return m;
}

// Runs `variant` with these settings and compares the output with the reference computed here
// from the module's own input (not the module's reference).
void expectMatchesReference(ReduceModule& m, Backend backend, const std::string& variant,
                            const std::vector<std::pair<std::string, ParamValue>>& settings) {
  SCOPED_TRACE(variant + " " + m.params().getText("operation") + ", " + m.sizeText() +
               " elements, block " + m.params().getText("block"));
  m.setParams(settings);
  m.select(backend, variant);
  m.step(2);  // twice: a run must not depend on the last one's leftovers
  const std::vector<std::uint32_t> input = m.input();
  ASSERT_EQ(input.size(), std::size_t(m.params().getInt("size")));
  const std::string& operation = m.params().getText("operation");
  const std::vector<std::uint32_t> expected =
      operation == "reduce" ? std::vector<std::uint32_t>{referenceReduce(input)}
                            : referenceScan(input, operation == "inclusive scan");
  const std::vector<std::uint32_t> output = m.output();
  ASSERT_EQ(output.size(), expected.size());
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = output.size(); i-- > 0;)
    if (output[i] != expected[i]) ++wrong, first = i;
  EXPECT_EQ(wrong, 0u) << "first at " << first << ": " << output[first] << " for "
                       << expected[first];
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(ReduceReference, ScansTheChaptersExample) {
  // Jade ch. 3: [3 1 7 0 4 1 6 3] scans to [3 4 11 11 15 16 22 25] and [0 3 4 11 11 15 16 22].
  const std::vector<std::uint32_t> a = {3, 1, 7, 0, 4, 1, 6, 3};
  EXPECT_EQ(referenceScan(a, true), (std::vector<std::uint32_t>{3, 4, 11, 11, 15, 16, 22, 25}));
  EXPECT_EQ(referenceScan(a, false), (std::vector<std::uint32_t>{0, 3, 4, 11, 11, 15, 16, 22}));
  EXPECT_EQ(referenceReduce(a), 25u);
  EXPECT_EQ(referenceReduce({0xffffffffu, 0xffffffffu}), 0xfffffffeu);  // wraps
}

TEST(ReduceReference, InputsStayInRangeAndUseIt) {
  for (std::uint32_t maxValue : {1u, 255u}) {
    std::uint32_t seen = 0;
    for (std::uint64_t i = 0; i < 4096; ++i) {
      const std::uint32_t v = inputValue(i, 7, maxValue);
      ASSERT_LE(v, maxValue);
      seen |= v;
    }
    EXPECT_EQ(seen, maxValue);  // every bit turns up
  }
}

TEST(ReduceCpu, EveryVariantMatchesTheReference) {
  for (const char* operation : {"reduce", "inclusive scan", "exclusive scan"})
    for (std::int64_t size : {1, 1000, 1 << 20 | 5}) {
      auto m = lab(Backend::Cpu, operation, size);
      for (const auto& v : m->variants(Backend::Cpu))
        expectMatchesReference(*m, Backend::Cpu, v.name, {});
    }
}

TEST(ReduceModuleTest, TheOperationPicksItsKernelsAndTheRaceIsOffByDefault) {
  if (!gpuInfo().available) GTEST_SKIP() << "lists the CUDA kernels; " << gpuInfo().reason;
  ReduceModule m(Backend::Cuda);
  EXPECT_FALSE(m.params().getBool("remove_barrier"));
  EXPECT_EQ(m.variant(), "interleaved");
  EXPECT_EQ(m.variants(Backend::Cuda).size(), 7u);
  m.select(Backend::Cuda, "sequential");
  EXPECT_NE(m.currentVariant().explanation.find("race"), std::string::npos);
  m.setParam("operation", std::string("exclusive scan"));
  EXPECT_EQ(m.variant(), "hillis-steele");  // sequential is no scan
  EXPECT_EQ(m.variants(Backend::Cuda).size(), 4u);
  m.setParam("remove_barrier", true);
  EXPECT_EQ(m.notes().find("race demonstration"), std::string::npos);  // not this kernel
}

TEST(ReduceModuleTest, ASizeOutOfRangeIsRefusedAndTheLabKeepsItsInput) {
  auto m = lab(Backend::Cpu, "reduce", 1000);
  m->step(1);
  const std::vector<std::uint32_t> before = m->input();
  EXPECT_THROW(m->setParam("size", std::int64_t(1) << 31), InputError);  // over the range
  EXPECT_EQ(m->input(), before);
  EXPECT_EQ(m->params().getInt("size"), 1000);
}

// The threads and banks views fill a view about half as tall as wide, name their axes (step down
// the left; thread, or warp for banks, along the top) and say what the thread under the pointer
// does at that step.
TEST(ReduceModuleTest, TheTreeViewsNameTheirAxesAndTheirCells) {
  auto m = lab(Backend::Cpu, "reduce", 1000);
  m->setParams({{"view", std::string("threads")}, {"tree_of", std::string("interleaved")}});
  const WorldBox box = m->world();
  EXPECT_EQ(box.maxX, 128);
  EXPECT_NEAR(box.maxY, 64, 1e-9);  // 7 steps, each 64 / 7 units tall
  std::vector<std::string> texts;
  for (const auto& label : m->viewLabels()) texts.push_back(label.text);
  EXPECT_EQ(texts,
            (std::vector<std::string>{"thread 0", "thread 32", "thread 64", "thread 96", "step 1",
                                      "step 2", "step 3", "step 4", "step 5", "step 6", "step 7"}));
  const double row = m->rowHeight();
  EXPECT_EQ(m->describeAt(0.5, 0.5 * row), "step 1 (s = 1), thread 0 (warp 0): adds");
  EXPECT_EQ(m->describeAt(1.5, 0.5 * row),
            "step 1 (s = 1), thread 1 (warp 0): waits (its warp diverged)");
  EXPECT_EQ(m->describeAt(40.5, 6.5 * row), "step 7 (s = 64), thread 40 (warp 1): warp idle");
  EXPECT_EQ(m->describeAt(-1, 0), "");
  m->setParam("view", std::string("banks"));
  EXPECT_EQ(m->viewLabels()[1].text, "warp 1");
  EXPECT_EQ(m->describeAt(0.5, 0.5 * row), "step 1 (s = 1), thread 0 (warp 0): no bank conflict");
  m->setParam("view", std::string("input"));
  EXPECT_TRUE(m->viewLabels().empty());
  EXPECT_EQ(m->describeAt(0.5, 0.5), "");
}

TEST(ReduceTree, InterleavedDivergesInEveryWarpWithoutConflicts) {
  const TreePattern p = treePattern(Kernel::Interleaved, 128, false);
  ASSERT_EQ(p.steps, 7);
  // Step s: every warp holds a thread that adds until 2s exceeds 32; all of them diverge.
  // s = 1..16: 4 warps each; s = 32: warps 0 and 2; s = 64: warp 0.
  EXPECT_EQ(p.busyWarps, 5 * 4 + 2 + 1);
  EXPECT_EQ(p.divergentWarps, p.busyWarps);
  for (float ways : p.conflicts) EXPECT_LE(ways, 1.0f);
}

TEST(ReduceTree, StridedConflictsAndSequentialDoesNot) {
  const TreePattern strided = treePattern(Kernel::Strided, 128, false);
  // s = 1: threads 0-63 add at words 2t and 2t+1, two words per bank: 2-way. s = 16: threads 0-3
  // at words 32t: all in bank 0, 4-way.
  EXPECT_EQ(strided.conflicts[0], 2.0f);
  EXPECT_EQ(strided.conflicts[4 * 128], 4.0f);
  EXPECT_EQ(strided.activity[0 * 128 + 64], 0.0f);  // warp 2 idles at s = 1: no divergence
  const TreePattern sequential = treePattern(Kernel::Sequential, 128, false);
  for (float ways : sequential.conflicts) EXPECT_LE(ways, 1.0f);
  EXPECT_EQ(sequential.busyWarps, 2 + 1 + 5);  // s = 64: warps 0-1; s = 32: warp 0; then part of it
  EXPECT_EQ(sequential.divergentWarps, 5);     // s = 16, 8, 4, 2, 1
  EXPECT_EQ(treePattern(Kernel::CubReduce, 128, false).steps, 0);
}

TEST(ReduceTree, PaddingRemovesMostOfBlellochsConflicts) {
  const TreePattern plain = treePattern(Kernel::Blelloch, 256, false);
  const TreePattern padded = treePattern(Kernel::Blelloch, 256, true);
  ASSERT_EQ(plain.steps, 18);  // 9 up, 9 down for 512 elements
  EXPECT_EQ(*std::max_element(plain.conflicts.begin(), plain.conflicts.end()), 16.0f);
  EXPECT_LT(padded.accessCycles * 2, plain.accessCycles);
}

TEST(ReduceCuda, EveryReductionMatchesTheReference) {
  WS_REQUIRE_GPU();
  for (std::int64_t size : cudaSizes(3 << 22))
    for (const char* block : {"32", "128", "1024"}) {
      auto m = lab(Backend::Cuda, "reduce", size);
      for (const auto& v : m->variants(Backend::Cuda))
        expectMatchesReference(*m, Backend::Cuda, v.name, {{"block", std::string(block)}});
    }
}

TEST(ReduceCuda, BallotCountsEveryValueRange) {
  WS_REQUIRE_GPU();
  for (const char* maxValue : {"1", "15", "65535"}) {
    auto m = lab(Backend::Cuda, "reduce", underSanitizer() ? 77777 : 777777);
    expectMatchesReference(*m, Backend::Cuda, "ballot", {{"max_value", std::string(maxValue)}});
  }
}

TEST(ReduceCuda, EveryScanMatchesTheReference) {
  WS_REQUIRE_GPU();
  for (const char* operation : {"inclusive scan", "exclusive scan"})
    for (std::int64_t size : cudaSizes(5 << 21))
      for (const char* block : {"32", "256", "1024"}) {
        auto m = lab(Backend::Cuda, operation, size);
        for (const auto& v : m->variants(Backend::Cuda))
          expectMatchesReference(*m, Backend::Cuda, v.name, {{"block", std::string(block)}});
        expectMatchesReference(*m, Backend::Cuda, "blelloch", {{"padding", true}});
      }
}

TEST(ReduceCuda, TheLabRecordsTheKernelsItLaunched) {
  WS_REQUIRE_GPU();
  auto m = lab(Backend::Cuda, "inclusive scan", 1 << 20);
  m->select(Backend::Cuda, "blelloch");
  m->step(1);
  const std::vector<KernelLaunch> launches = m->launches();
  ASSERT_EQ(launches.size(), 2u);  // the block scan (at every level) and the offsets
  EXPECT_EQ(launches[0].name, "scanBlellochKernel");
  EXPECT_EQ(launches[0].grid[0], (1u << 20) / 256);
  EXPECT_EQ(launches[0].block[0], 128u);
  EXPECT_NE(launches[0].function, nullptr);
  EXPECT_EQ(launches[1].name, "addOffsetsKernel");
}

}  // namespace
}  // namespace ws::reduce
