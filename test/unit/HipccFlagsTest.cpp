//===- HipccFlagsTest.cpp - hipcc command lines as clang command lines ----===//

#include "compile/HipccFlags.h"
#include "compile/RocmInstallation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <fstream>

using namespace cuda_async_lint;

namespace {

using Args = std::vector<std::string>;

TEST(HipccFlags, RecognizesHipcc) {
  EXPECT_TRUE(isHipcc("/opt/rocm/bin/hipcc"));
  EXPECT_TRUE(isHipcc("hipcc.pl"));
  EXPECT_TRUE(isHipcc("/opt/rocm/bin/hipcc.bin"));
  EXPECT_FALSE(isHipcc("/opt/rocm/llvm/bin/clang++"));
  EXPECT_FALSE(isHipcc("hipconfig"));
}

TEST(HipccFlags, NamesTheLanguageHipccWouldCompile) {
  // hipcc compiles C++ and CUDA sources as HIP, C as C.
  for (const char *File : {"a.cpp", "a.cc", "a.cxx", "a.C", "a.cu", "a.hip"})
    EXPECT_EQ(translateHipccCommand({"hipcc", "-c", File}, File),
              (Args{"clang++", "-x", "hip", "-c", File}))
        << File;
  EXPECT_EQ(translateHipccCommand({"hipcc", "-c", "a.c"}, "a.c"),
            (Args{"clang++", "-x", "c", "-c", "a.c"}));
  // A language the command names stays.
  EXPECT_EQ(
      translateHipccCommand({"hipcc", "-x", "c++", "-c", "a.cpp"}, "a.cpp"),
      (Args{"clang++", "-x", "c++", "-c", "a.cpp"}));
  EXPECT_EQ(translateHipccCommand({"hipcc", "-xhip", "-c", "a.inc"}, "a.inc"),
            (Args{"clang++", "-xhip", "-c", "a.inc"}));
}

TEST(HipccFlags, DropsHipccsOwnFlags) {
  EXPECT_EQ(translateHipccCommand(
                {"/opt/rocm/bin/hipcc", "-use-staticlib", "--hipcc-func-supp",
                 "--offload-arch=gfx90a", "-use_fast_math", "-fgpu-rdc",
                 "--amdhsa-code-object-version=5", "-O3", "-c", "k.hip"},
                "k.hip"),
            (Args{"clang++", "-x", "hip", "--offload-arch=gfx90a",
                  "-DHIP_FAST_MATH", "-fgpu-rdc", "-O3", "-c", "k.hip"}));
}

/// A directory holding include/hip/hip_runtime.h, or not.
std::string fakeRoot(llvm::StringRef Name, bool WithHeaders) {
  llvm::SmallString<256> Root;
  llvm::sys::fs::createUniqueDirectory(Name, Root);
  if (WithHeaders) {
    llvm::SmallString<256> Dir(Root);
    llvm::sys::path::append(Dir, "include", "hip");
    llvm::sys::fs::create_directories(Dir);
    std::ofstream(std::string(Dir) + "/hip_runtime.h") << "\n";
  }
  return std::string(Root);
}

TEST(RocmInstallation, ChoosesInOrder) {
  std::string Rocm = fakeRoot("rocm", true);
  std::string Other = fakeRoot("other", true);
  std::string Empty = fakeRoot("empty", false);
  auto Choose = [&](RocmSearch S) {
    S.Defaults = {Empty};
    llvm::Expected<HipHeaders> H = chooseHipHeaders(S);
    EXPECT_TRUE(static_cast<bool>(H));
    return H ? *H : HipHeaders{};
  };
  HipHeaders H = Choose({"", "", "", false, "/bundled"});
  EXPECT_EQ(H.From, HipHeaders::Source::Bundled);
  EXPECT_EQ(H.Path, "/bundled");
  EXPECT_EQ(H.Reason, "no ROCm installation found");
  H = Choose({"", Rocm, Other, false, "/bundled"});
  EXPECT_EQ(H.From, HipHeaders::Source::Rocm);
  EXPECT_EQ(H.Path, Rocm);
  EXPECT_EQ(H.Reason, "$ROCM_PATH");
  // $ROCM_PATH naming no installation falls through to $HIP_PATH.
  H = Choose({"", Empty, Other, false, "/bundled"});
  EXPECT_EQ(H.Path, Other);
  EXPECT_EQ(H.Reason, "$HIP_PATH");
  H = Choose({Other, Rocm, "", false, "/bundled"});
  EXPECT_EQ(H.Path, Other);
  EXPECT_EQ(H.Reason, "--hip-path");
  H = Choose({"", Rocm, "", true, "/bundled"});
  EXPECT_EQ(H.From, HipHeaders::Source::Bundled);
  EXPECT_EQ(H.Reason, "--use-bundled-hip");
  // --hip-path naming no installation is an error, not a silent fallback.
  llvm::Expected<HipHeaders> Bad =
      chooseHipHeaders({Empty, "", "", false, "/bundled"});
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("is not a ROCm installation"),
            std::string::npos);
  for (const std::string &Dir : {Rocm, Other, Empty})
    llvm::sys::fs::remove_directories(Dir);
}

} // namespace
