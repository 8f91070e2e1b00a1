# lit configuration of cuda-async-lint's tests.
#
# Every check test runs both front-ends against the same CHECK-MESSAGES:
#   %lint         the cuda-async-lint driver, on the bundled CUDA declarations
#   %tidy         clang-tidy with the plugin (tests name --checks); its
#                 compiler arguments follow --
#   %cuda_args    those arguments: CUDA, host side, bundled declarations
#   %hip_args     the same for HIP (.hip tests): clang's HIP mode, host side,
#                 clang's HIP wrapper over the bundled HIP declarations
#   %tidy_toolkit / %lint_toolkit   the same against the real CUDA toolkit
#   %lint_rocm / %rocm_args   HIP against a ROCm installation's headers
#                 (feature 'rocm': $ROCM_PATH, /opt/rocm or Debian's /usr)
#   %check_messages  FileCheck of CHECK-MESSAGES that fails on any other
#                 warning or note
import os
import shutil
import subprocess
import lit.formats

config.name = "cuda-async-lint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cpp", ".hip", ".test"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.binary_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Tests choose their CUDA and HIP declarations explicitly.
for variable in ("CUDA_PATH", "ROCM_PATH", "HIP_PATH"):
    config.environment.pop(variable, None)

cuda_args = ("-x cuda --cuda-host-only -nocudainc -nocudalib -std=c++17 "
             "-isystem %s -include cuda_runtime.h" % config.bundled_include)
hip_args = ("-x hip --offload-host-only -nogpuinc -nogpulib -std=c++17 "
            "-isystem %s -include __clang_hip_runtime_wrapper.h"
            % config.bundled_include)
tidy = "%s --load=%s --quiet" % (
    config.clang_tidy, config.tidy_plugin)
check_messages = ("FileCheck --check-prefix=CHECK-MESSAGES "
                  "--implicit-check-not='{{warning|note|error}}:'")

# ROCm's HIP headers (CI installs Debian's libamdhip64-dev: /usr/include/hip).
for rocm in (os.environ.get("ROCM_PATH", ""), "/opt/rocm", "/usr"):
    if rocm and os.path.exists(
            os.path.join(rocm, "include", "hip", "hip_runtime.h")):
        config.available_features.add("rocm")
        # Before %lint: lit substitutes in order.
        config.substitutions.append((
            "%lint_rocm", "%s --use-bundled-cuda --hip-path=%s"
            % (config.lint, rocm)))
        config.substitutions.append((
            "%rocm_args", "-x hip --offload-host-only -nogpulib -std=c++17 "
            "--rocm-path=%s -D__AMDGCN_WAVEFRONT_SIZE=64" % rocm))
        break
config.substitutions.append(("%lint_toolkit",
                             "%s --cuda-path=%s" % (config.lint, config.cuda_path)))
config.substitutions.append(("%tidy_toolkit", tidy))
config.substitutions.append(("%tidy_plugin", config.tidy_plugin))
# CUDA 13's nvcc puts CCCL (CUB, Thrust, libcu++) on the include path.
config.substitutions.append(("%toolkit_args",
                             "-x cuda --cuda-host-only -std=c++17 "
                             "--cuda-path=%s -Wno-unknown-cuda-version "
                             "-isystem %s/include/cccl"
                             % (config.cuda_path, config.cuda_path)))
config.substitutions.append(("%lint_bin", config.lint))
config.substitutions.append(("%lint", config.lint +
                             " --use-bundled-cuda --use-bundled-hip"))
config.substitutions.append(("%tidy", tidy))
config.substitutions.append(("%cuda_args", cuda_args))
config.substitutions.append(("%hip_args", hip_args))
config.substitutions.append(("%check_messages", check_messages))
config.substitutions.append(("%bundled_include", config.bundled_include))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%nvcc", config.nvcc))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%python", config.python))
# %traced_app and %racy_app before %trace: lit substitutes in order.
config.substitutions.append(("%traced_app", config.traced_app))
config.substitutions.append(("%racy_shapes_app", config.racy_shapes_app))
config.substitutions.append(("%racy_app", config.racy_app))
config.substitutions.append(("%trace", config.trace))
config.substitutions.append(("%source_root", config.source_root))
config.substitutions.append(("%build_root", config.binary_root))
config.substitutions.append(("%inputs",
                             os.path.join(config.test_source_root, "Inputs")))

if config.cuda_path and os.path.exists(
        os.path.join(config.cuda_path, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
# tools/api-scan, the toolkit headers' function lister (docs/api-catalog.md).
if os.path.exists(config.api_scan):
    config.available_features.add("api-scan")
    config.substitutions.append(("%api_scan", config.api_scan))
# The reference SARIF validator, installed from npm by scripts/install-deps.sh.
sarif_multitool = os.path.join(config.source_root, "tools", "sarif",
                               "node_modules", ".bin", "sarif-multitool")
if os.path.exists(sarif_multitool):
    config.available_features.add("sarif-multitool")
    config.substitutions.append(("%sarif_multitool", sarif_multitool))
# cuda-async-verify, built (with nvcc) where the CUDA toolkit was found.
if config.verify:
    config.available_features.add("cuda-verify")
    config.substitutions.append(("%verify", config.verify))
# clangd 22, the one docs/editors.md recommends beside the language server.
if shutil.which("clangd-22"):
    config.available_features.add("clangd-22")
# The CUDA driver itself (not the toolkit's link-time stub): a GPU machine.
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
# clang's diagnostic tables, which scripts/default-errors.py reads (Debian's
# libclang-22-dev installs them with clang's headers).
for include in config.clang_include_dirs.split(";"):
    if os.path.exists(os.path.join(include, "clang", "Basic",
                                   "DiagnosticSemaKinds.inc")):
        config.available_features.add("clang-diagnostic-tables")
        config.substitutions.append(("%clang_include", include))
        break
# ROCm's compiler driver (Debian's 'hipcc'), for a hipcc-built CMake project.
if shutil.which("hipcc"):
    config.available_features.add("hipcc")
# Headless Chromium renders the HTML report (Debian's 'chromium').
if shutil.which("chromium"):
    config.available_features.add("chromium")
# Editors whose setups docs/editors.md gives, run headless.
if shutil.which("nvim"):
    config.available_features.add("nvim")
if shutil.which("emacs"):
    config.available_features.add("emacs")
    # eglot: built in from Emacs 29, Debian's elpa-eglot before.
    if subprocess.run(["emacs", "--batch", "-q", "--eval", "(require 'eglot)"],
                      capture_output=True).returncode == 0:
        config.available_features.add("eglot")
# A device that refuses every write, to test write failures.
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")
# Permission tests need a user whom permissions bind (root ignores them):
# the user running the tests, or, for root, nobody through setpriv when the
# build is reachable by it.
if os.geteuid() != 0:
    config.available_features.add("unprivileged")
    config.substitutions.append(("%unprivileged", ""))
elif shutil.which("setpriv"):
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534",
                 "--clear-groups"]
    if subprocess.call(as_nobody + [config.lint, "--version"],
                       stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("unprivileged")
        config.substitutions.append(("%unprivileged", " ".join(as_nobody)))
# The race detector runs on x86-64 (its single step is the trap flag).
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
if shutil.which("git"):
    config.available_features.add("git")
config.substitutions.append(("%clang_tidy_bin", config.clang_tidy))
if shutil.which("dpkg-deb"):
    config.available_features.add("dpkg")
if subprocess.call([config.python, "-c", "import yaml"],
                   stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("pyyaml")
