//===- DeviceEnvironment.cpp - What the results were measured on ----------===//

#include "DeviceEnvironment.h"

#include "CudaCheck.h"

#include <ctime>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace cuda_async_verify {

namespace {

std::string cudaVersion(int Version) {
  return std::to_string(Version / 1000) + "." +
         std::to_string(Version % 1000 / 10);
}

/// The kernel module's version ("580.159.04"), which the CUDA runtime does
/// not report.
std::string nvidiaDriverVersion() {
  std::ifstream In("/proc/driver/nvidia/version");
  std::string Line;
  if (!std::getline(In, Line))
    return "unknown";
  std::istringstream Words(Line);
  std::string Word;
  while (Words >> Word)
    if (Word.find('.') != std::string::npos &&
        Word.find_first_not_of("0123456789.") == std::string::npos)
      return Word;
  return "unknown";
}

} // namespace

Environment describeEnvironment(int DeviceOrdinal,
                                const std::string &CuptiStatus) {
  Environment E;
  cudaDeviceProp Props{};
  check(cudaGetDeviceProperties(&Props, DeviceOrdinal),
        "cudaGetDeviceProperties");
  E.Gpu = Props.name;
  E.ComputeCapability =
      std::to_string(Props.major) + "." + std::to_string(Props.minor);
  E.CopyEngines = Props.asyncEngineCount;
  int Driver = 0, Runtime = 0;
  check(cudaDriverGetVersion(&Driver), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&Runtime), "cudaRuntimeGetVersion");
  E.CudaDriverApi = cudaVersion(Driver);
  E.CudaRuntime = cudaVersion(Runtime);
  E.DriverVersion = nvidiaDriverVersion();
  E.Cupti = CuptiStatus;
  char Host[256] = {};
  gethostname(Host, sizeof(Host) - 1);
  E.Host = Host;
  std::time_t Now = std::time(nullptr);
  char Date[32];
  std::strftime(Date, sizeof(Date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&Now));
  E.DateUtc = Date;
  return E;
}

} // namespace cuda_async_verify
