//===- NvccFlagsTest.cpp - nvcc command lines as clang command lines ------===//

#include "compile/NvccFlags.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

std::vector<std::string> translate(std::vector<std::string> Args,
                                   llvm::StringRef Dir = "/") {
  auto R = translateNvccCommand(Args, Dir);
  EXPECT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  return R ? *R : std::vector<std::string>{};
}

TEST(NvccFlags, RecognizesNvcc) {
  EXPECT_TRUE(isNvcc("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(isNvcc("nvcc"));
  EXPECT_FALSE(isNvcc("/usr/bin/clang++"));
  EXPECT_FALSE(isNvcc("nvcc-wrapper"));
}

TEST(NvccFlags, TranslatesACMakeCommand) {
  // As CMake 3.25 writes it for a .cu file of a CUDA project.
  EXPECT_EQ(
      translate({"/usr/local/cuda/bin/nvcc",
                 "-forward-unknown-to-host-compiler", "-DNDEBUG",
                 "-I/src/include", "-O3",
                 "--generate-code=arch=compute_90,code=[compute_90,"
                 "sm_90]",
                 "-Xcompiler=-fPIC,-Wall", "-std=c++17", "-x", "cu", "-c",
                 "/src/a.cu", "-o", "a.cu.o"}),
      (std::vector<std::string>{"clang++", "-DNDEBUG", "-I/src/include", "-O3",
                                "-fPIC", "-Wall", "-std=c++17", "-x", "cuda",
                                "-c", "/src/a.cu", "-o", "a.cu.o"}));
}

TEST(NvccFlags, SplitsHostCompilerOptionsAsTheHostCommandLineDoes) {
  // CMake writes a target's COMPILE_OPTIONS as one quoted -Xcompiler value;
  // nvcc hands it to the host compiler's command line, which splits it.
  EXPECT_EQ(translate({"nvcc", "-Xcompiler",
                       "-Wno-terminate -DWITH_MPI -rdynamic,-fPIC "
                       "'-DNAME=\"a b\"'",
                       "-c", "a.cu"}),
            (std::vector<std::string>{"clang++", "-Wno-terminate", "-DWITH_MPI",
                                      "-rdynamic", "-fPIC", "-DNAME=\"a b\"",
                                      "-c", "a.cu"}));
}

TEST(NvccFlags, DropsDeviceAndToolOptions) {
  EXPECT_EQ(
      translate({"nvcc", "-gencode", "arch=compute_80,code=sm_80",
                 "-arch=sm_90", "-arch", "sm_90", "-ccbin", "g++-12",
                 "--expt-relaxed-constexpr", "--expt-extended-lambda",
                 "--use_fast_math", "-lineinfo", "-Xptxas", "-v", "a.cu"}),
      (std::vector<std::string>{"clang++", "a.cu",
                                "-D__CUDACC_RELAXED_CONSTEXPR__",
                                "-D__CUDACC_EXTENDED_LAMBDA__"}));
}

TEST(NvccFlags, FlagsNvccTellsACudaFileOfAreMacros) {
  // nvcc --dryrun shows them on the host compiler's command line for a .cu
  // file, and not for a C++ file it hands to the host compiler.
  EXPECT_EQ(
      translate({"nvcc", "-G", "--extended-lambda", "--expt-relaxed-constexpr",
                 "-c", "a.cu"}),
      (std::vector<std::string>{"clang++", "-c", "a.cu", "-D__CUDACC_DEBUG__",
                                "-D__CUDACC_EXTENDED_LAMBDA__",
                                "-D__CUDACC_RELAXED_CONSTEXPR__"}));
  EXPECT_EQ(translate({"nvcc", "-G", "-x", "cu", "-c", "k.cpp"}),
            (std::vector<std::string>{"clang++", "-x", "cuda", "-c", "k.cpp",
                                      "-D__CUDACC_DEBUG__"}));
  EXPECT_EQ(translate({"nvcc", "-G", "--extended-lambda", "-rdc=true", "-c",
                       "host.cpp", "-o", "host.cu.o"}),
            (std::vector<std::string>{"clang++", "-fgpu-rdc", "-c", "host.cpp",
                                      "-o", "host.cu.o"}));
}

TEST(NvccFlags, RelocatableDeviceCodeIsGpuRdc) {
  // Dynamic parallelism (a launch inside a __global__ function) needs it.
  // nvcc defines __CUDACC_RDC__ for the code.
  EXPECT_EQ(translate({"nvcc", "-rdc=true", "a.cu"}),
            (std::vector<std::string>{"clang++", "-fgpu-rdc", "a.cu",
                                      "-D__CUDACC_RDC__"}));
  EXPECT_EQ(translate({"nvcc", "--relocatable-device-code", "true", "a.cu"}),
            (std::vector<std::string>{"clang++", "-fgpu-rdc", "a.cu",
                                      "-D__CUDACC_RDC__"}));
  EXPECT_EQ(translate({"nvcc", "-rdc=false", "a.cu"}),
            (std::vector<std::string>{"clang++", "a.cu"}));
  EXPECT_EQ(translate({"nvcc", "-dc", "a.cu", "-o", "a.o"}),
            (std::vector<std::string>{"clang++", "-fgpu-rdc", "-c", "a.cu",
                                      "-o", "a.o", "-D__CUDACC_RDC__"}));
}

TEST(NvccFlags, CMakeSystemIncludes) {
  // CMAKE_INCLUDE_SYSTEM_FLAG_CUDA is '-isystem=': clang would read '=' as
  // a sysroot prefix.
  EXPECT_EQ(translate({"nvcc", "-isystem=/opt/fmt/include", "-isystem",
                       "/opt/eigen", "a.cu"}),
            (std::vector<std::string>{"clang++", "-isystem", "/opt/fmt/include",
                                      "-isystem", "/opt/eigen", "a.cu"}));
}

TEST(NvccFlags, EveryTwoWordOptionTakesItsValue) {
  // nvcc 13 options whose value is a separate word: the value must never
  // become an input file.
  for (std::vector<std::string> Option : std::vector<std::vector<std::string>>{
           {"--keep-dir", "tmp"},
           {"-keep-dir", "tmp"},
           {"-Werror", "all-warnings"},
           {"--Werror", "cross-execution-space-call"},
           {"-time", "timing.csv"},
           {"--run-args", "x"},
           {"-Xlinker", "--as-needed"},
           {"--linker-options", "-z,now"},
           {"-ldir", "/nvvm/libdevice"},
           {"-target-dir", "x86_64-linux"},
           {"-opt-info", "inline"},
           {"-Ofc", "max"},
           {"-dopt", "on"},
           {"-ftemplate-depth", "2048"},
           {"-split-compile-extended", "4"},
           {"-fdevice-time-trace", "trace.json"},
           {"-idp", "/cygwin/"},
           {"--dependency-target-name", "a.o"},
           {"-e", "kernel"},
           {"-hls", "gen-lcs"},
           {"-brief-diag", "true"},
           {"-jtd", "50"},
           {"-device-stack-protector", "true"},
           {"-frandom-seed", "42"},
           {"-sanitize", "memcheck"},
           {"-compress-mode", "size"},
           {"--optimize", "3"},
           {"-m", "64"},
           {"-arbin", "ar"},
           {"--library", "cublas"},
           {"--library-path", "/lib"},
           {"-device-entity-has-hidden-visibility", "true"},
       }) {
    std::vector<std::string> Args = {"nvcc"};
    Args.insert(Args.end(), Option.begin(), Option.end());
    Args.push_back("a.cu");
    EXPECT_EQ(translate(Args), (std::vector<std::string>{"clang++", "a.cu"}))
        << Option.front();
    // The same with '='.
    EXPECT_EQ(translate({"nvcc", Option[0] + "=" + Option[1], "a.cu"}),
              (std::vector<std::string>{"clang++", "a.cu"}))
        << Option.front();
  }
}

TEST(NvccFlags, OneWordOptionsAreDropped) {
  EXPECT_EQ(
      translate({"nvcc", "-objtemp", "-allow-unsupported-compiler", "-dlto",
                 "-nohdinitlist", "-noprof", "-save-temps", "-nodlink", "-ewp",
                 "-err-no", "-reloc-ptx", "-jobserver", "--no-align-double",
                 "--disable-warnings", "a.cu"}),
      (std::vector<std::string>{"clang++", "a.cu"}));
  EXPECT_EQ(
      translate({"nvcc", "-noeh", "--compile", "a.cu"}),
      (std::vector<std::string>{"clang++", "-fno-exceptions", "-c", "a.cu"}));
}

TEST(NvccFlags, TranslatesLongSpellings) {
  EXPECT_EQ(
      translate({"nvcc", "--include-path", "/a,/b", "--define-macro=X=1",
                 "--system-include=/s", "--std", "c++20", "--default-stream",
                 "per-thread", "-Xcompiler", "-fopenmp", "a.cu"}),
      (std::vector<std::string>{
          "clang++", "-I/a", "-I/b", "-DX=1", "-isystem", "/s", "-std=c++20",
          "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", "-fopenmp", "a.cu"}));
  EXPECT_EQ(translate({"nvcc", "--default-stream=legacy", "a.cu"}),
            (std::vector<std::string>{"clang++", "a.cu"}));
}

TEST(NvccFlags, ReadsOptionsFilesRelativeToTheDirectory) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-flags", Dir));
  llvm::SmallString<128> Rsp(Dir);
  llvm::sys::path::append(Rsp, "includes_CUDA.rsp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Rsp, EC);
    ASSERT_FALSE(EC);
    OS << "-I/from/rsp \"-I/with space\"\n";
  }
  EXPECT_EQ(
      translate({"nvcc", "--options-file", "includes_CUDA.rsp", "a.cu"}, Dir),
      (std::vector<std::string>{"clang++", "-I/from/rsp", "-I/with space",
                                "a.cu"}));
  auto Missing = translateNvccCommand({"nvcc", "-optf", "missing.rsp"}, Dir);
  ASSERT_FALSE(static_cast<bool>(Missing));
  EXPECT_NE(llvm::toString(Missing.takeError()).find("missing.rsp"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
