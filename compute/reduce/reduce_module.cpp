#include "compute/reduce/reduce_module.h"

#include <algorithm>
#include <cmath>

#include "compute/core/catalog.h"
#include "compute/core/errors.h"
#include "compute/core/memory.h"
#include "compute/core/saved_state.h"

namespace ws::reduce {

namespace {

constexpr const char* kLecture = "Harris 2007 (lecture 004), G80 (GeForce 8800 GTX, 86.4 GB/s), ";

// The catalogs: each entry the variant as the menu shows it, and the kernel it runs.
const VariantCatalog<Kernel>& reduceVariants() {
  static const VariantCatalog<Kernel> list = {
      {{"interleaved",
        "(1) interleaved addressing, divergent branch",
        "Each thread loads one element into shared memory. At step s the threads whose index is "
        "a multiple of 2s add the element s places to their right. The threads that add are "
        "scattered over every warp, so every warp keeps issuing while most of its lanes idle "
        "(branch divergence: see the threads view), and tid % (2s) is a slow integer modulo. "
        "Each pass leaves one sum per block; passes repeat until one is left.",
        {"block"},
        std::string(kLecture) + "2^22 ints, blocks of 128: 8.054 ms, 2.083 GB/s"},
       Kernel::Interleaved},
      {{"strided",
        "(2) interleaved addressing, strided index",
        "The same tree, but thread tid adds into word 2*s*tid: the first threads do the work, so "
        "whole warps retire and only the last steps diverge. Now a warp's 32 accesses are 2s "
        "words apart and fall into ever fewer of the 32 shared-memory banks: an s-way bank "
        "conflict serializes them (see the banks view).",
        {"block"},
        std::string(kLecture) + "2^22 ints: 3.456 ms, 4.854 GB/s, 2.33x over (1)"},
       Kernel::Strided},
      {{"sequential",
        "(3) sequential addressing",
        "The loop runs the other way: at step s the first s threads add the upper half of the "
        "live words onto the lower half. Consecutive threads touch consecutive words (no bank "
        "conflicts) and the threads that add are packed into the first warps (no divergence "
        "until fewer than 32 remain). Half the threads still idle from the first step on, which "
        "the lecture's next kernels attack. The race demonstration removes this kernel's "
        "__syncthreads(): sums then go wrong, differently from run to run.",
        {"block", "remove_barrier"},
        std::string(kLecture) + "2^22 ints: 1.722 ms, 9.741 GB/s, 4.68x over (1)"},
       Kernel::Sequential},
      {{"shuffle",
        "warp shuffle, many elements per thread",
        "Enough blocks to fill the GPU and no more; each thread sums many elements in a "
        "grid-stride loop of 16-byte loads, so the array is read once at full bandwidth. Warps "
        "then sum their lanes with __shfl_down_sync (registers, no shared memory, no barrier) and "
        "one warp sums the warps. A second launch of one block adds the blocks' sums.",
        {"block"}},
       Kernel::Shuffle},
      {{"ballot",
        "bit-sliced: __ballot_sync + __popc",
        "For each bit of the values, a warp votes with __ballot_sync (bit b of each lane's value) "
        "and counts the ones with __popc: 32 elements' bit b summed in two instructions, worth "
        "2^b. With values of at most 1 (predicates) it is one vote per 32 elements; with 8-bit "
        "values, 8. Each block adds its total to the result with one atomicAdd.",
        {"block", "max_value"},
        "Harris & Garland, Jade ch. 3 (2012), GeForce GTX 480: a block's binary count with "
        "__syncthreads_count() averaged 2x faster than a 32-bit reduction"},
       Kernel::Ballot},
      {{"atomic",
        "one atomicAdd per element, one address",
        "Every thread adds its element straight to the result with atomicAdd: no tree at all, "
        "but all n atomics hit one word, which the L2 must serialize: contention. (Recent "
        "compilers may combine a warp's atomics to one address into one; the measured rate "
        "says whether they did.)",
        {"block"}},
       Kernel::Atomic},
      {{"cub",
        "CUB DeviceReduce::Sum",
        "The CUDA toolkit's reduction: tuned per architecture (vector loads, several elements per "
        "thread, warp reductions), it reads the array once. The yardstick for the others.",
        {}},
       Kernel::CubReduce},
  };
  return list;
}

const VariantCatalog<Kernel>& scanVariants() {
  static const VariantCatalog<Kernel> list = {
      {{"hillis-steele",
        "Hillis-Steele scan (naive, n log n)",
        "At step d every thread adds the element 2^d before its own: log2(B) steps, but "
        "B log2(B) additions where a serial scan does B, and two shared buffers so that a step "
        "reads only the last step's values. Each block's total is scanned again (recursively) and "
        "added back to the block's elements in a last pass: three passes over memory.",
        {"block", "scan"}},
       Kernel::HillisSteele},
      {{"blelloch",
        "Blelloch scan (work-efficient), optional padding",
        "An up-sweep builds a tree of partial sums in place and a down-sweep turns it into an "
        "exclusive scan: 2(B-1) additions for 2B elements, two elements per thread. The tree's "
        "strides are powers of two, so warps pile into a few banks (up to 32-way conflicts, see "
        "the banks view); 'conflict-free padding' inserts one word every 32 to spread them.",
        {"block", "scan", "padding"}},
       Kernel::Blelloch},
      {{"shuffle-scan",
        "warp-shuffle scan",
        "Each warp scans its 32 values in five __shfl_up_sync steps (Jade ch. 3 Listing 3.1's "
        "warp scan, in registers instead of padded shared memory), one warp scans the warps' "
        "totals, and each thread adds its warp's offset. Blocks' totals are scanned and added "
        "back as in the other hand-written scans.",
        {"block", "scan"}},
       Kernel::ShuffleScan},
      {{"cub-scan",
        "CUB DeviceScan",
        "The toolkit's scan: a single pass with decoupled look-back, each block waiting only for "
        "its predecessors' totals, so the array is read and written once: the 8 bytes per "
        "element floor that the three-pass scans miss by half.",
        {"scan"}},
       Kernel::CubScan},
  };
  return list;
}

const VariantCatalog<Kernel>& cpuVariants() {
  static const VariantCatalog<Kernel> list = {
      {{"serial",
        "serial (the reference)",
        "One thread adds the elements in order: the answer every other variant must reproduce "
        "bit for bit (sums wrap modulo 2^32, so the order of additions cannot change them).",
        {}},
       Kernel::CpuSerial},
      {{"openmp",
        "OpenMP, one chunk per thread",
        "Each thread sums its chunk; for a scan, the chunks' totals are scanned and each thread "
        "scans its chunk again from its offset: two passes, as on the GPU.",
        {}},
       Kernel::CpuParallel},
  };
  return list;
}

const VariantCatalog<Kernel>& listFor(Backend backend, Operation operation) {
  if (backend == Backend::Cpu) return cpuVariants();
  return isScan(operation) ? scanVariants() : reduceVariants();
}

}  // namespace

ReduceModule::ReduceModule(Backend backend) : Module(backend) {
  ParamSet& p = declare();
  p.declare(ParamSpec::choice("operation", "operation", "reduce",
                              {"reduce", "inclusive scan", "exclusive scan"},
                              "sum all elements, or prefix sums including / excluding each one"));
  ParamSpec size = ParamSpec::integer("size", "elements", 1 << 22, 1, 1 << 30,
                                      "elements in the array (the lecture used 2^22)");
  size.logScale = true;
  p.declare(size);
  p.declare(ParamSpec::choice("max_value", "largest value", "255", {"1", "15", "255", "65535"},
                              "elements are drawn from 0 to this (1: predicates)"));
  p.declare(ParamSpec::integer("seed", "seed", 1, 0, 2147483647, "random seed of the input"));
  p.declare(ParamSpec::choice("block", "block size", "128",
                              {"32", "64", "128", "256", "512", "1024"},
                              "threads per block of the hand-written kernels"));
  p.declare(ParamSpec::boolean("padding", "conflict-free padding", false,
                               "Blelloch scan: one padding word per 32 in shared memory"));
  p.declare(ParamSpec::boolean(
      "remove_barrier", "race demo: remove the barrier", false,
      "WRONG ON PURPOSE: reduction (3) without __syncthreads() between steps, to show a race"));
  p.declare(ParamSpec::choice(
      "tree_of", "tree drawn", "variant",
      {"variant", "interleaved", "strided", "sequential", "hillis-steele", "blelloch"},
      "whose shared-memory tree the threads and banks views draw: the running variant's, or "
      "one of these (on the CPU too)"));
  p.declare(ParamSpec::choice("view", "view", "input", {"input", "output", "threads", "banks"},
                              "the array, the scan's output, or the kernel's tree: who adds at "
                              "each step, and each warp's bank conflicts"));
  cpuTimings_ = {&addTiming("run (CPU)", "elements/s", false),
                 &addTiming("view (CPU)", "pixels/s", false)};
  gpuTimings_ = {&addTiming("run (CUDA)", "elements/s", true),
                 &addTiming("view (CUDA)", "pixels/s", true)};
  rebuild();
}

Operation ReduceModule::operation() const {
  const std::string& text = params().getText("operation");
  return text == "reduce"           ? Operation::Reduce
         : text == "inclusive scan" ? Operation::InclusiveScan
                                    : Operation::ExclusiveScan;
}

std::vector<KernelVariant> ReduceModule::variants(Backend backend) const {
  return describe(listFor(backend, operation()));
}

LabConfig ReduceModule::config() const {
  LabConfig c;
  c.kernel = entryNamed(listFor(backend(), operation()), variant()).how;
  c.operation = operation();
  c.block = int(std::stoi(params().getText("block")));
  c.padded = params().getBool("padding");
  c.removeBarrier = params().getBool("remove_barrier");
  return c;
}

void ReduceModule::setSize(const std::string& text) {
  setParams({{"size", params().parse("size", text)}});
}

std::string ReduceModule::sizeText() const {
  const auto n = params().getInt("size");
  const int log = int(std::log2(double(n)));
  return (std::int64_t(1) << log) == n ? "2^" + std::to_string(log) : std::to_string(n);
}

std::vector<std::string> ReduceModule::sweepSizes() const {
  std::vector<std::string> sizes;
  for (int log = 10; log <= 28; log += 2) sizes.push_back(std::to_string(1 << log));
  return sizes;
}

void ReduceModule::rebuild() {
  const LabConfig c = config();
  std::unique_ptr<ReduceEngine> engine =
      backend() == Backend::Cuda ? makeCudaEngine(c, gpuTimings_) : makeCpuEngine(c, cpuTimings_);
  loadInput(*engine);  // throws (an array too large) before anything changes
  engine_ = std::move(engine);
  pattern_ = treePattern(treeKernel(), c.block, c.padded);
  startOver();
}

Kernel ReduceModule::treeKernel() const {
  const std::string& tree = params().getText("tree_of");
  for (const auto* list : {&reduceVariants(), &scanVariants()})
    for (const auto& info : *list)
      if (info.variant.name == tree) return info.how;
  return config().kernel;
}

void ReduceModule::reset() {
  loadInput(*engine_);
  startOver();
}

void ReduceModule::loadInput(ReduceEngine& engine) {
  const ReferenceKey key{std::size_t(params().getInt("size")),
                         std::uint32_t(params().getInt("seed")),
                         std::uint32_t(std::stoul(params().getText("max_value"))), operation()};
  engine.setInput(key.size, key.seed, key.maxValue);
  // The reference comes from the same input function, on the host; it depends on the input and
  // the operation only, so a switch of kernel, block or backend keeps it.
  if (!(reference_.key == key) || reference_.values.empty()) {
    std::vector<std::uint32_t> values(key.size);
#pragma omp parallel for
    for (std::int64_t i = 0; i < std::int64_t(key.size); ++i)
      values[i] = inputValue(i, key.seed, key.maxValue);
    reference_.values = isScan(key.operation)
                            ? referenceScan(values, key.operation == Operation::InclusiveScan)
                            : std::vector<std::uint32_t>{referenceReduce(values)};
    reference_.key = key;
  }
  expected_ = reference_.values.empty() ? 0 : reference_.values.back();
  engine.setReference(reference_.values);
}

void ReduceModule::startOver() {
  mismatches_ = -1;
  restart();
  clearTimings();
}

void ReduceModule::advance(int count) {
  engine_->run(count);
  mismatches_ = -1;
}

std::size_t ReduceModule::mismatches() {
  if (mismatches_ < 0) mismatches_ = stepCount() ? (long long)engine_->mismatches() : 0;
  return std::size_t(mismatches_);
}

std::vector<Metric> ReduceModule::metrics() {
  if (stepCount() == 0) return {{"expected", double(expected_)}};
  return {{"result", double(engine_->result())},
          {"expected", double(expected_)},
          {"mismatches", double(mismatches())}};
}

std::string ReduceModule::notes() const {
  std::string text;
  if (params().getBool("remove_barrier") && variant() == "sequential" && backend() == Backend::Cuda)
    text += "warning: race demonstration: the barrier is removed, results are wrong on purpose\n";
  if (mismatches_ > 0)
    text += "warning: " + std::to_string(mismatches_) + " elements differ from the CPU reference\n";
  if (!isScan(operation()) && currentFieldView() == 1)
    text += "a reduction's output is one number: see 'result'\n";
  if (pattern_.steps > 0) {
    text += "tree of one block: " + std::to_string(pattern_.busyWarps) + " warp-steps run, " +
            std::to_string(pattern_.divergentWarps) + " diverge, " +
            std::to_string(pattern_.accessCycles) + " shared-memory access cycles\n";
  } else if (currentFieldView() >= 2) {
    text += "this variant has no shared-memory tree to draw\n";
  }
  return text;
}

double ReduceModule::rowHeight() const {
  return std::max(1.0, double(pattern_.threads) / (2.0 * std::max(pattern_.steps, 1)));
}

WorldBox ReduceModule::world() const {
  if (currentFieldView() >= 2)
    return {0, 0, double(std::max(pattern_.threads, 1)), std::max(pattern_.steps, 1) * rowHeight()};
  const auto n = std::size_t(params().getInt("size"));
  const int width = imageWidth(n);
  return {0, 0, double(width), double((n + width - 1) / width)};
}

std::vector<FieldView> ReduceModule::fieldViews() const {
  const float maxValue = float(std::stoul(params().getText("max_value")));
  return {{"input", "element value", 0.0f, maxValue, "viridis"},
          {"output", "scan / its largest value", 0.0f, 1.0f, "viridis"},
          {"threads", "0 warp idle, 0.5 waits (diverged), 1 adds", 0.0f, 1.0f, "inferno"},
          {"banks", "bank-conflict ways of the thread's warp", 0.0f, 32.0f, "inferno"}};
}

int ReduceModule::currentFieldView() const {
  const std::string& view = params().getText("view");
  return view == "input" ? 0 : view == "output" ? 1 : view == "threads" ? 2 : 3;
}

void ReduceModule::renderField(const FieldRequest& request, FieldImage& image) {
  const int view = currentFieldView();
  if (view < 2) {
    const float scale = view == 0 ? 1.0f : float(std::max<std::uint32_t>(expected_, 1));
    engine_->render(view, scale, request, image);
    return;
  }
  // The tree is small and computed on the host; the image goes where the renderer wants it.
  const std::vector<float>& cells = view == 2 ? pattern_.activity : pattern_.conflicts;
  std::vector<float> pixels(std::size_t(image.width) * image.height, NAN);
  for (int py = 0; py < image.height; ++py)
    for (int px = 0; px < image.width; ++px) {
      const double wx = request.originX + (px + 0.5) * request.worldPerPixel;
      const double wy = request.originY + (py + 0.5) * request.worldPerPixel;
      const double row = wy / rowHeight();
      if (wx < 0 || row < 0 || wx >= pattern_.threads || row >= pattern_.steps) continue;
      const int step = int(row);  // the first step at the top (world y grows down the image)
      pixels[std::size_t(py) * image.width + px] =
          cells[std::size_t(step) * pattern_.threads + std::size_t(wx)];
    }
  copyToView(image.pixels, pixels.data(), pixels.size() * sizeof(float), image.onDevice);
}

std::vector<Module::ViewLabel> ReduceModule::viewLabels() const {
  const int view = currentFieldView();
  if (view < 2 || pattern_.steps == 0) return {};
  std::vector<ViewLabel> labels;
  const bool banks = view == 3;
  for (int t = 0; t < pattern_.threads; t += 32)
    labels.push_back({double(t), -0.02 * pattern_.threads,
                      banks ? "warp " + std::to_string(t / 32) : "thread " + std::to_string(t)});
  for (int s = 0; s < pattern_.steps; ++s)
    labels.push_back({0.0, (s + 0.5) * rowHeight(),  // over the image's left edge
                      "step " + std::to_string(s + 1)});
  return labels;
}

std::string ReduceModule::describeAt(double x, double y) const {
  const int view = currentFieldView();
  const double row = y / rowHeight();
  if (view < 2 || x < 0 || row < 0 || x >= pattern_.threads || row >= pattern_.steps) return "";
  const int t = int(x), s = int(row);
  const std::size_t at = std::size_t(s) * pattern_.threads + std::size_t(t);
  const std::string where = "step " + std::to_string(s + 1) + " (" + pattern_.stepNames[s] +
                            "), thread " + std::to_string(t) + " (warp " + std::to_string(t / 32) +
                            ")";
  if (view == 3) {
    const int ways = int(pattern_.conflicts[at]);
    return where + (ways > 1 ? ": its warp's access is a " + std::to_string(ways) + "-way conflict"
                    : ways == 1 ? ": no bank conflict"
                                : ": does not access");
  }
  const float a = pattern_.activity[at];
  return where + (a >= 1 ? ": adds" : a > 0 ? ": waits (its warp diverged)" : ": warp idle");
}

std::unique_ptr<EditChange> ReduceModule::edit(const PointerEdit&) {
  throw InputError("the reduction lab has no tools");
}

void ReduceModule::runAction(const std::string& action) {
  if (action != "new input") throw InputError("unknown action '" + action + "'");
  setParams({{"seed", (params().getInt("seed") + 1) % 2147483647}});
}

StateBlob ReduceModule::saveState() {
  // The input follows from the parameters and the output from one run, so the state is a count.
  StateBlob state;
  state.meta = {{"steps", stepCount()}};
  return state;
}

void ReduceModule::restoreState(const StateBlob& state) {
  const std::uint64_t steps = SavedState(state, "reduction").steps();
  startOver();
  if (steps > 0) engine_->run(1);
  setStepCount(steps);
  clearTimings();
}

void ReduceModule::applyParams(const std::vector<std::string>& changed) {
  if (anyOf(changed, {"view"}) && changed.size() == 1) return;
  if (anyOf(changed, {"tree_of"}) && changed.size() == 1) {
    pattern_ = treePattern(treeKernel(), config().block, config().padded);
    return;
  }
  // Another operation offers other kernels: the base has kept the variant where it is offered,
  // else taken the first; a refusal puts it and the parameters back.
  rebuild();
}

void ReduceModule::applySelection(Backend, const StateBlob& state) {
  rebuild();
  restoreState(state);
}

}  // namespace ws::reduce
