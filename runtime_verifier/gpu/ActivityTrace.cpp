//===- ActivityTrace.cpp - CUPTI activity records of one run --------------===//

#include "ActivityTrace.h"

#ifdef CUDA_ASYNC_VERIFY_HAVE_CUPTI

#include <cupti.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace cuda_async_verify {

namespace {

struct RawRecord {
  Engine Where;
  std::uint64_t Start, End;
  std::uint32_t StreamId;
  std::uint64_t Bytes;
  HostMemory Memory;
};

std::mutex RecordsLock;
std::vector<RawRecord> Records;

constexpr std::size_t BufferBytes = 8u << 20;

HostMemory hostMemory(std::uint8_t Kind) {
  switch (Kind) {
  case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
    return HostMemory::Pageable;
  case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
    return HostMemory::Pinned;
  case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    return HostMemory::Managed;
  default:
    return HostMemory::Unknown;
  }
}

void CUPTIAPI bufferRequested(std::uint8_t **Buffer, std::size_t *Size,
                              std::size_t *MaxRecords) {
  // CUPTI wants 8-byte aligned buffers.
  *Buffer = static_cast<std::uint8_t *>(std::aligned_alloc(8, BufferBytes));
  *Size = *Buffer ? BufferBytes : 0;
  *MaxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, std::uint32_t, std::uint8_t *Buffer,
                              std::size_t, std::size_t ValidSize) {
  std::vector<RawRecord> Parsed;
  CUpti_Activity *Record = nullptr;
  while (cuptiActivityGetNextRecord(Buffer, ValidSize, &Record) ==
         CUPTI_SUCCESS) {
    if (Record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      auto *Copy = reinterpret_cast<CUpti_ActivityMemcpy6 *>(Record);
      bool ToDevice = Copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
      bool ToHost = Copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
      if (!ToDevice && !ToHost)
        continue;
      Parsed.push_back({ToDevice ? Engine::HostToDevice : Engine::DeviceToHost,
                        Copy->start, Copy->end, Copy->streamId, Copy->bytes,
                        hostMemory(ToDevice ? Copy->srcKind : Copy->dstKind)});
    } else if (Record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      auto *Kernel = reinterpret_cast<CUpti_ActivityKernel10 *>(Record);
      Parsed.push_back({Engine::Kernel, Kernel->start, Kernel->end,
                        Kernel->streamId, 0, HostMemory::None});
    }
  }
  std::free(Buffer);
  std::lock_guard<std::mutex> Guard(RecordsLock);
  Records.insert(Records.end(), Parsed.begin(), Parsed.end());
}

std::string cuptiError(CUptiResult Code) {
  const char *Text = nullptr;
  cuptiGetResultString(Code, &Text);
  return Text ? Text : "unknown CUPTI error";
}

void checkCupti(CUptiResult Code, const char *What) {
  if (Code != CUPTI_SUCCESS)
    throw std::runtime_error(std::string(What) +
                             " failed: " + cuptiError(Code));
}

} // namespace

void ActivityTrace::initialize() {
  CUptiResult Code =
      cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
  if (Code != CUPTI_SUCCESS) {
    Status = "unavailable: " + cuptiError(Code);
    return;
  }
  std::uint32_t Version = 0;
  cuptiGetVersion(&Version);
  Status = "API " + std::to_string(Version);
  Available = true;
}

void ActivityTrace::begin() {
  Since = 0;
  {
    std::lock_guard<std::mutex> Guard(RecordsLock);
    Records.clear();
  }
  checkCupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY),
             "cuptiActivityEnable (memcpy)");
  checkCupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
             "cuptiActivityEnable (concurrent kernel)");
}

void ActivityTrace::mark() {
  checkCupti(cuptiGetTimestamp(&Since), "cuptiGetTimestamp");
}

Timeline ActivityTrace::end() {
  checkCupti(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
             "cuptiActivityFlushAll");
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  std::vector<RawRecord> Raw;
  {
    std::lock_guard<std::mutex> Guard(RecordsLock);
    Raw.swap(Records);
  }
  Raw.erase(
      std::remove_if(Raw.begin(), Raw.end(),
                     [this](const RawRecord &R) { return R.Start < Since; }),
      Raw.end());
  std::sort(Raw.begin(), Raw.end(), [](const RawRecord &L, const RawRecord &R) {
    return L.Start < R.Start;
  });
  Timeline T;
  if (Raw.empty())
    return T;
  std::map<std::uint32_t, unsigned> StreamNumbers;
  std::uint64_t Origin = Raw.front().Start;
  for (const RawRecord &R : Raw) {
    auto It =
        StreamNumbers
            .emplace(R.StreamId, static_cast<unsigned>(StreamNumbers.size()))
            .first;
    Activity A;
    A.Where = R.Where;
    A.Stream = It->second;
    A.StartMs = (R.Start - Origin) * 1e-6;
    A.EndMs = (R.End - Origin) * 1e-6;
    A.Bytes = R.Bytes;
    A.Memory = R.Memory;
    T.Activities.push_back(A);
  }
  return T;
}

} // namespace cuda_async_verify

#else // !CUDA_ASYNC_VERIFY_HAVE_CUPTI

namespace cuda_async_verify {

void ActivityTrace::initialize() {
  Status = "unavailable: built without CUPTI";
}
void ActivityTrace::begin() {}
void ActivityTrace::mark() {}
Timeline ActivityTrace::end() { return {}; }

} // namespace cuda_async_verify

#endif
