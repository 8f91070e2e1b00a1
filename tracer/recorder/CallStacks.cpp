//===- CallStacks.cpp - The return addresses above a traced call ----------===//

#include "CallStacks.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>
#include <unwind.h>

#include <climits>
#include <cstring>

namespace cuda_async_trace {

namespace {

struct Unwinding {
  Stack *Frames;
  unsigned Skip;
  unsigned Max;
};

_Unwind_Reason_Code onFrame(struct _Unwind_Context *Context, void *Arg) {
  auto *U = static_cast<Unwinding *>(Arg);
  std::uintptr_t IP = _Unwind_GetIP(Context);
  if (IP == 0)
    return _URC_END_OF_STACK;
  if (U->Skip > 0) {
    --U->Skip;
    return _URC_NO_REASON;
  }
  U->Frames->push_back(IP);
  return U->Frames->size() >= U->Max ? _URC_END_OF_STACK : _URC_NO_REASON;
}

std::string hex(const unsigned char *Bytes, std::size_t Size) {
  static const char Digits[] = "0123456789abcdef";
  std::string Out;
  for (std::size_t I = 0; I < Size; ++I) {
    Out += Digits[Bytes[I] >> 4];
    Out += Digits[Bytes[I] & 15];
  }
  return Out;
}

/// The GNU build id of the object, from its PT_NOTE segments.
std::string buildId(const struct dl_phdr_info *Info) {
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    if (Ph.p_type != PT_NOTE)
      continue;
    const char *Note =
        reinterpret_cast<const char *>(Info->dlpi_addr + Ph.p_vaddr);
    const char *End = Note + Ph.p_memsz;
    while (Note + sizeof(ElfW(Nhdr)) <= End) {
      const auto *Header = reinterpret_cast<const ElfW(Nhdr) *>(Note);
      const char *Name = Note + sizeof(ElfW(Nhdr));
      const char *Desc = Name + ((Header->n_namesz + 3) & ~3u);
      if (Header->n_type == NT_GNU_BUILD_ID && Header->n_namesz == 4 &&
          std::memcmp(Name, "GNU", 4) == 0 && Desc + Header->n_descsz <= End)
        return hex(reinterpret_cast<const unsigned char *>(Desc),
                   Header->n_descsz);
      Note = Desc + ((Header->n_descsz + 3) & ~3u);
    }
  }
  return "";
}

int onObject(struct dl_phdr_info *Info, std::size_t, void *Arg) {
  auto *Modules = static_cast<std::vector<LoadedModule> *>(Arg);
  LoadedModule M;
  M.Path = Info->dlpi_name ? Info->dlpi_name : "";
  if (M.Path.empty()) {
    // The executable: the dynamic linker gives it no name.
    if (!Modules->empty())
      return 0; // The vDSO, also nameless; never a call site.
    char Exe[PATH_MAX];
    ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
    if (N > 0)
      M.Path.assign(Exe, N);
  }
  M.Base = Info->dlpi_addr;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    if (Ph.p_type == PT_LOAD)
      M.Ranges.emplace_back(Info->dlpi_addr + Ph.p_vaddr,
                            Info->dlpi_addr + Ph.p_vaddr + Ph.p_memsz);
  }
  M.BuildId = buildId(Info);
  Modules->push_back(std::move(M));
  return 0;
}

} // namespace

Stack captureStack(unsigned Skip, unsigned MaxFrames) {
  Stack Frames;
  Frames.reserve(MaxFrames);
  // This function's own frame is never wanted.
  Unwinding U{&Frames, Skip + 1, MaxFrames};
  _Unwind_Backtrace(onFrame, &U);
  return Frames;
}

std::vector<LoadedModule> loadedModules() {
  std::vector<LoadedModule> Modules;
  dl_iterate_phdr(onObject, &Modules);
  return Modules;
}

std::uint32_t StackTable::intern(Stack S) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, Inserted] =
      Ids.emplace(std::move(S), static_cast<std::uint32_t>(Order.size()));
  if (Inserted)
    Order.push_back(&It->first);
  return It->second;
}

std::vector<Stack> StackTable::stacks() const {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<Stack> Out;
  Out.reserve(Order.size());
  for (const Stack *S : Order)
    Out.push_back(*S);
  return Out;
}

} // namespace cuda_async_trace
