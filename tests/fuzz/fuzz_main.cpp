// The fuzz driver for builds without libFuzzer (gcc, the sanitizer build, CI): it replays every
// file of the corpus given, then, when asked, mutates the corpus for a number of inputs or a
// time, without coverage feedback. It takes libFuzzer's flags for the same things, so one command
// line serves both builds:
//   ws_fuzz --target=NAME [-runs=N] [-max_total_time=S] [-seed=N] [-dict=FILE] [-max_len=BYTES]
//           [-timeout=S] [-rss_limit_mb=MB] [-artifact_prefix=PATH] CORPUS_DIR_OR_FILE...
// An input that crashes, trips a sanitizer, runs past -timeout or grows past -rss_limit_mb is
// written to <artifact_prefix>crash-|timeout-|oom-<hash> and quoted on stderr, and the run fails.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  long long runs = 0;         // mutated inputs after the corpus (0: none, unless a time is given)
  double seconds = 0;         // time for mutated inputs (0: no limit but -runs)
  std::uint64_t seed = 1;     // of the mutations
  std::size_t maxLen = 4096;  // of a mutated input
  double timeout = 120;       // seconds one input may take
  long rssLimitMb = 2048;
  std::string artifactPrefix = "./";
  std::vector<std::string> dictionaries;
  std::vector<std::string> corpus;
};

// ---- The input being run, for the handlers that save it when the run dies. ----

std::string current;
std::atomic<bool> busy{false};
std::atomic<long long> startedNs{0};
std::string artifactPrefix;

std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

// Writes the current input as <prefix><kind>-<hash> and says so: only calls safe in a handler
// (the hash and name are made with no allocation).
void saveCurrent(const char* kind) {
  char name[4096];
  const std::uint64_t hash = fnv1a(current);
  std::snprintf(name, sizeof name, "%s%s-%016llx", artifactPrefix.c_str(), kind,
                static_cast<unsigned long long>(hash));
  const int fd = ::open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    [[maybe_unused]] ssize_t written = ::write(fd, current.data(), current.size());
    ::close(fd);
  }
  char line[4200];
  const int length = std::snprintf(
      line, sizeof line, "ws_fuzz: the input (%zu bytes) is saved as %s\n", current.size(), name);
  [[maybe_unused]] ssize_t said = ::write(2, line, std::size_t(std::max(length, 0)));
}

// Quotes the input on stderr, escaped, so that a CI log alone can reproduce it.
void quoteCurrent() {
  std::string quoted = "ws_fuzz: the input, escaped: \"";
  for (unsigned char c : current.substr(0, 1024)) {
    if (c == '\\' || c == '"') {
      quoted += {'\\', char(c)};
    } else if (c >= 32 && c < 127) {
      quoted += char(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      quoted += escaped;
    }
  }
  quoted += current.size() > 1024 ? "\"...\n" : "\"\n";
  std::fputs(quoted.c_str(), stderr);
}

void onDeath() {
  if (!busy) return;
  busy = false;
  saveCurrent("crash");
  quoteCurrent();
}

void onSignal(int signal) {
  onDeath();
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// Every 100 ms: the input running past the time limit, or the process past the memory limit, ends
// the run with the input saved.
void watch(double timeout, long rssLimitMb) {
  const long page = sysconf(_SC_PAGESIZE);
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    long pages = 0, resident = 0;
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = 0;
      std::fclose(statm);
    }
    const double mb = double(resident) * double(page) / (1024.0 * 1024.0);
    const double ran = 1e-9 * double(Clock::now().time_since_epoch().count() - startedNs.load());
    const char* kind = nullptr;
    if (busy && ran > timeout) {
      std::fprintf(stderr, "ws_fuzz: an input ran for over %.0f s (-timeout)\n", timeout);
      kind = "timeout";
    } else if (mb > double(rssLimitMb)) {
      std::fprintf(stderr, "ws_fuzz: the run holds %.0f MB, over -rss_limit_mb=%ld\n", mb,
                   rssLimitMb);
      kind = "oom";
    }
    if (kind) {
      busy = false;
      saveCurrent(kind);
      quoteCurrent();
      std::_Exit(1);
    }
  }
}

void runOne(const std::string& input) {
  current = input;
  startedNs = Clock::now().time_since_epoch().count();
  busy = true;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(current.data()), current.size());
  busy = false;
}

// ---- Mutations ----

// A dictionary in libFuzzer's (AFL's) format: one "token" a line, optionally name="token", with
// \\, \" and \xNN escapes; # comments.
std::vector<std::string> readDictionary(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "ws_fuzz: cannot read the dictionary %s\n", path.c_str());
    std::exit(2);
  }
  std::vector<std::string> tokens;
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t open = line.find('"');
    const std::size_t close = line.rfind('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
    std::string token;
    for (std::size_t i = open + 1; i < close; ++i) {
      if (line[i] == '\\' && i + 1 < close && line[i + 1] == 'x' && i + 3 < close) {
        token += char(std::stoi(line.substr(i + 2, 2), nullptr, 16));
        i += 3;
      } else if (line[i] == '\\' && i + 1 < close) {
        token += line[++i];
      } else {
        token += line[i];
      }
    }
    tokens.push_back(token);
  }
  return tokens;
}

class Mutator {
 public:
  Mutator(std::uint64_t seed, std::vector<std::string> dictionary, std::size_t maxLen)
      : rng_(seed), dictionary_(std::move(dictionary)), maxLen_(maxLen) {}

  // One to four changes to `input`; `other` is another corpus entry to splice with.
  std::string mutate(std::string input, const std::string& other) {
    const int changes = 1 + int(below(4));
    for (int i = 0; i < changes; ++i) change(input, other);
    if (input.size() > maxLen_) input.resize(maxLen_);
    return input;
  }

  std::size_t below(std::size_t n) { return n ? std::size_t(rng_() % n) : 0; }

 private:
  void change(std::string& s, const std::string& other) {
    const std::size_t at = below(s.size() + 1);
    switch (below(10)) {
      case 0:  // flip a bit
        if (!s.empty()) s[below(s.size())] ^= char(1u << below(8));
        break;
      case 1:  // a byte that means something to a parser, or any byte
        if (!s.empty()) {
          static const char kBytes[] = "0123456789-+.eE \n\t\r\"'[]{},:#/\\\0\xff";
          s[below(s.size())] = below(4) ? kBytes[below(sizeof kBytes - 1)] : char(rng_());
        }
        break;
      case 2:  // erase a span
        s.erase(at, 1 + below(below(4) ? 8 : s.size() / 2 + 1));
        break;
      case 3:  // insert random bytes
        for (std::size_t n = 1 + below(8); n > 0; --n) s.insert(s.begin() + long(at), char(rng_()));
        break;
      case 4: {  // copy a span elsewhere (repeats, nesting)
        if (s.empty()) break;
        const std::size_t from = below(s.size());
        const std::string span = s.substr(from, 1 + below(64));
        for (std::size_t n = below(8) ? 1 : 1 + below(64); n > 0 && s.size() < maxLen_; --n)
          s.insert(at, span);
        break;
      }
      case 5:
      case 6:  // a dictionary token
        if (!dictionary_.empty()) {
          const std::string& token = dictionary_[below(dictionary_.size())];
          if (below(2))
            s.insert(at, token);
          else
            s.replace(at, std::min(token.size(), s.size() - at), token);
        }
        break;
      case 7:  // a number replaced by one at the edge of a range
        replaceNumber(s);
        break;
      case 8: {  // binary fields: a 4- or 8-byte integer at the edge of a range
        static const std::uint64_t kValues[] = {0,          1,          0x7f,       0xff,
                                                0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
                                                ~0ull,      1ull << 62};
        std::uint64_t value = kValues[below(std::size(kValues))];
        const std::size_t width = below(2) ? 4 : 8;
        if (s.size() >= width) std::memcpy(&s[below(s.size() - width + 1)], &value, width);
        break;
      }
      case 9: {  // splice: this one's start, the other's end
        const std::size_t cut = below(other.size() + 1);
        s = s.substr(0, at) + other.substr(cut);
        break;
      }
    }
  }

  void replaceNumber(std::string& s) {
    static const char* const kNumbers[] = {"0",
                                           "-1",
                                           "1",
                                           "2147483647",
                                           "2147483648",
                                           "-2147483649",
                                           "4294967296",
                                           "18446744073709551616",
                                           "1e309",
                                           "-1e309",
                                           "1e-320",
                                           "nan",
                                           "inf",
                                           "0.5",
                                           "99999999999999999999999",
                                           "1048576",
                                           "65536",
                                           "3"};
    if (s.empty()) return;
    std::size_t start = below(s.size());
    while (start < s.size() && !std::isdigit(static_cast<unsigned char>(s[start]))) ++start;
    if (start == s.size()) return;
    std::size_t end = start;
    while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.'))
      ++end;
    s.replace(start, end - start, kNumbers[below(std::size(kNumbers))]);
  }

  std::mt19937_64 rng_;
  std::vector<std::string> dictionary_;
  std::size_t maxLen_;
};

// ---- The command line ----

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&](const char* flag) -> const char* {
      const std::size_t n = std::strlen(flag);
      return arg.compare(0, n, flag) == 0 ? arg.c_str() + n : nullptr;
    };
    if (arg.rfind("--", 0) == 0) continue;  // the target's own (--target=)
    if (const char* v = value("-runs="))
      options.runs = std::atoll(v);
    else if (const char* v = value("-max_total_time="))
      options.seconds = std::atof(v);
    else if (const char* v = value("-seed="))
      options.seed = std::strtoull(v, nullptr, 10);
    else if (const char* v = value("-max_len="))
      options.maxLen = std::size_t(std::max(1ll, std::atoll(v)));
    else if (const char* v = value("-timeout="))
      options.timeout = std::atof(v);
    else if (const char* v = value("-rss_limit_mb="))
      options.rssLimitMb = std::atol(v);
    else if (const char* v = value("-artifact_prefix="))
      options.artifactPrefix = v;
    else if (const char* v = value("-dict="))
      options.dictionaries.push_back(v);
    else if (arg[0] == '-')
      std::fprintf(stderr, "ws_fuzz: %s is libFuzzer's; this driver ignores it\n", arg.c_str());
    else
      options.corpus.push_back(arg);
  }
  return options;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> readCorpus(const std::vector<std::string>& roots) {
  std::vector<std::filesystem::path> files;
  for (const std::string& root : roots) {
    if (std::filesystem::is_directory(root)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else if (std::filesystem::is_regular_file(root)) {
      files.push_back(root);
    } else {
      std::fprintf(stderr, "ws_fuzz: no corpus at %s\n", root.c_str());
      std::exit(2);
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> corpus;
  for (const auto& file : files) corpus.push_back(readFile(file));
  return corpus;
}

}  // namespace

int main(int argc, char** argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  const Options options = parse(argc, argv);
  artifactPrefix = options.artifactPrefix;
  // Under the sanitizers their report comes first, then the callback; without them, the signals.
  // An abort (a finding, an exception no one caught) is ours either way.
  if (__sanitizer_set_death_callback)
    __sanitizer_set_death_callback(onDeath);
  else
    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(signal, onSignal);
  ::signal(SIGABRT, onSignal);
  std::thread(watch, options.timeout, options.rssLimitMb).detach();

  const auto start = Clock::now();
  const std::vector<std::string> corpus = readCorpus(options.corpus);
  for (const std::string& input : corpus) runOne(input);

  std::vector<std::string> dictionary;
  for (const std::string& path : options.dictionaries) {
    const auto tokens = readDictionary(path);
    dictionary.insert(dictionary.end(), tokens.begin(), tokens.end());
  }
  Mutator mutator(options.seed, dictionary, options.maxLen);
  // Mutations start from the corpus or from earlier mutations (kept a while), so that changes
  // build on each other.
  std::vector<std::string> recent;
  long long mutated = 0;
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const bool timed = options.seconds > 0;
  const std::vector<std::string> seeds = corpus.empty() ? std::vector<std::string>{""} : corpus;
  while ((options.runs > 0 && mutated < options.runs) ||
         (timed && options.runs == 0 && elapsed() < options.seconds)) {
    if (timed && elapsed() >= options.seconds) break;
    const bool fromRecent = !recent.empty() && mutator.below(2);
    const std::string& base =
        fromRecent ? recent[mutator.below(recent.size())] : seeds[mutator.below(seeds.size())];
    std::string input = mutator.mutate(base, seeds[mutator.below(seeds.size())]);
    runOne(input);
    ++mutated;
    if (recent.size() < 256)
      recent.push_back(std::move(input));
    else
      recent[mutator.below(recent.size())] = std::move(input);
  }
  const double seconds = elapsed();
  std::printf(
      "ws_fuzz: %zu corpus inputs and %lld mutated (seed %llu) in %.1f s, %.0f a second: "
      "no crash, no sanitizer report, none past %.0f s or %ld MB\n",
      corpus.size(), mutated, static_cast<unsigned long long>(options.seed), seconds,
      double(corpus.size() + std::size_t(mutated)) / std::max(seconds, 1e-9), options.timeout,
      options.rssLimitMb);
  return 0;
}
