// What one mprotect of a page of pinned memory costs the race detector,
// and why (tracer/probes/README.md): the pattern of
// test/tracer/Inputs/gpu/small_copies.cu (64 slots of 4 KiB, copies
// round-robin over 4 streams, host-to-device sources PROT_READ and
// device-to-host destinations PROT_NONE, each stream's slots lifted at its
// wait) on several kinds of host memory, beside an idle and a busy second
// thread, with and without the copies themselves.
//   nvcc -O2 -arch=sm_90 -o mprotect_costs mprotect_costs.cu
//   ./mprotect_costs [ROUNDS]
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

static unsigned long long now() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000ull + T.tv_nsec;
}

static const size_t Page = 4096;
static const int Slots = 64, Streams = 4;

struct Cost {
  unsigned long long Calls = 0, Ns = 0;
  void add(unsigned long long Start) {
    ++Calls;
    Ns += now() - Start;
  }
  double per() const { return Calls ? double(Ns) / Calls : 0; }
};

static int vmas() {
  FILE *F = std::fopen("/proc/self/maps", "r");
  int N = 0;
  for (int C; (C = std::fgetc(F)) != EOF;)
    N += C == '\n';
  std::fclose(F);
  return N;
}

// small_copies' pattern without the copies: protect each slot as its copy
// is issued, then lift each stream's slots at its wait. \p Merge lifts a
// stream's slots by one call over all 64 (what a lift could do if the other
// streams' pages did not need keeping).
static void pattern(char *Base, int Rounds, Cost &Protect, Cost &Lift,
                    cudaStream_t *S = nullptr, char *Device = nullptr) {
  for (int R = 0; R < Rounds; ++R) {
    for (int I = 0; I < Slots; ++I) {
      bool D2H = I % 2;
      if (S)
        cudaMemcpyAsync(D2H ? Base + I * Page : Device + I * Page,
                        D2H ? Device + I * Page : Base + I * Page, Page,
                        D2H ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice,
                        S[I % Streams]);
      unsigned long long T = now();
      mprotect(Base + I * Page, Page, D2H ? PROT_NONE : PROT_READ);
      Protect.add(T);
    }
    for (int St = 0; St < Streams; ++St) {
      if (S)
        cudaStreamSynchronize(S[St]);
      for (int I = St; I < Slots; I += Streams) {
        unsigned long long T = now();
        mprotect(Base + I * Page, Page, PROT_READ | PROT_WRITE);
        Lift.add(T);
      }
    }
  }
}

static void copiesOnly(char *Base, char *Device, cudaStream_t *S, int Rounds,
                       Cost &PerCopy) {
  for (int R = 0; R < Rounds; ++R) {
    unsigned long long T = now();
    for (int I = 0; I < Slots; ++I) {
      bool D2H = I % 2;
      cudaMemcpyAsync(D2H ? Base + I * Page : Device + I * Page,
                      D2H ? Device + I * Page : Base + I * Page, Page,
                      D2H ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice,
                      S[I % Streams]);
    }
    for (int St = 0; St < Streams; ++St)
      cudaStreamSynchronize(S[St]);
    PerCopy.Ns += now() - T;
    PerCopy.Calls += Slots;
  }
}

static std::atomic<bool> Spin{false}, Quit{false};

static void report(const char *Memory, const char *Beside, Cost &P, Cost &L) {
  std::printf("%-22s %-26s protect %7.0f ns  lift %7.0f ns  (%llu calls "
              "each)\n",
              Memory, Beside, P.per(), L.per(), P.Calls);
}

int main(int Argc, char **Argv) {
  int Rounds = Argc > 1 ? std::atoi(Argv[1]) : 2000;
  cudaFree(nullptr);
  cudaDeviceProp Prop;
  cudaGetDeviceProperties(&Prop, 0);
  std::printf("device %s, %ld CPUs online\n", Prop.name,
              sysconf(_SC_NPROCESSORS_ONLN));

  // Baselines: the cheapest system call, and the detector's handler query.
  {
    Cost G, Q;
    for (int I = 0; I < 100000; ++I) {
      unsigned long long T = now();
      syscall(SYS_getppid);
      G.add(T);
    }
    struct sigaction Old;
    for (int I = 0; I < 100000; ++I) {
      unsigned long long T = now();
      sigaction(SIGSEGV, nullptr, &Old);
      Q.add(T);
    }
    std::printf("getppid %.0f ns, sigaction query %.0f ns\n", G.per(), Q.per());
  }
  {
    int Key = syscall(SYS_pkey_alloc, 0, 0);
    std::printf("pkey_alloc: %s\n", Key >= 0 ? "available" : strerror(errno));
  }

  // Whether a protection change costs the whole user TLB: touch 512
  // pages, one cache line each, after a plain system call and after an
  // mprotect of an unrelated page.
  {
    const int Pages = 512;
    char *Region = static_cast<char *>(aligned_alloc(Page, Pages * Page));
    char *Other = static_cast<char *>(aligned_alloc(Page, Page));
    std::memset(Region, 1, Pages * Page);
    std::memset(Other, 1, Page);
    volatile char Sink = 0;
    auto Touch = [&] {
      unsigned long long T = now();
      for (int I = 0; I < Pages; ++I)
        Sink += Region[(I * 97 % Pages) * Page + (I % 64) * 64];
      return now() - T;
    };
    unsigned long long Warm = 0, AfterCall = 0, AfterProtect = 0;
    const int N = 2000;
    for (int I = 0; I < N; ++I) {
      Warm += Touch();
      syscall(SYS_getppid);
      AfterCall += Touch();
      mprotect(Other, Page, I % 2 ? PROT_READ | PROT_WRITE : PROT_READ);
      AfterProtect += Touch();
    }
    std::printf("touching %d pages: %.0f ns warm, %.0f ns after getppid, "
                "%.0f ns after an mprotect elsewhere\n",
                Pages, double(Warm) / N, double(AfterCall) / N,
                double(AfterProtect) / N);
  }

  char *Pinned, *Device, *Registered, *Anonymous;
  cudaMallocHost(&Pinned, Slots * Page);
  cudaMalloc(&Device, Slots * Page);
  Registered = static_cast<char *>(aligned_alloc(Page, Slots * Page));
  std::memset(Registered, 1, Slots * Page);
  cudaHostRegister(Registered, Slots * Page, cudaHostRegisterDefault);
  Anonymous = static_cast<char *>(aligned_alloc(Page, Slots * Page));
  std::memset(Anonymous, 1, Slots * Page);
  cudaStream_t S[Streams];
  for (cudaStream_t &St : S)
    cudaStreamCreateWithFlags(&St, cudaStreamNonBlocking);

  struct {
    const char *Name;
    char *Base;
  } Memories[] = {{"cudaMallocHost", Pinned},
                  {"cudaHostRegister", Registered},
                  {"malloc (not pinned)", Anonymous}};
  int Before = vmas();
  for (auto &M : Memories) {
    Cost P, L;
    pattern(M.Base, 10, P, L); // warm: the VMAs split once
    P = L = Cost();
    pattern(M.Base, Rounds, P, L);
    report(M.Name, "idle", P, L);
  }
  std::printf("VMAs in the process: %d before, %d after\n", Before, vmas());

  // One page toggled alone, the same page every time.
  {
    Cost P, L;
    for (int I = 0; I < Rounds * 32; ++I) {
      unsigned long long T = now();
      mprotect(Pinned + 5 * Page, Page, PROT_NONE);
      P.add(T);
      T = now();
      mprotect(Pinned + 5 * Page, Page, PROT_READ | PROT_WRITE);
      L.add(T);
    }
    report("cudaMallocHost", "one page toggled", P, L);
  }
  // The whole buffer in one call each way.
  {
    Cost P, L;
    for (int I = 0; I < Rounds; ++I) {
      unsigned long long T = now();
      mprotect(Pinned, Slots * Page, PROT_NONE);
      P.add(T);
      T = now();
      mprotect(Pinned, Slots * Page, PROT_READ | PROT_WRITE);
      L.add(T);
    }
    report("cudaMallocHost", "64 pages in one call", P, L);
  }

  // A second thread of the process running on another CPU: each protection
  // that takes a permission away must shoot its TLB down.
  {
    std::thread Spinner([] {
      while (!Quit.load()) {
        if (!Spin.load()) {
          usleep(100);
          continue;
        }
      }
    });
    Spin = true;
    usleep(1000);
    Cost P, L;
    pattern(Pinned, Rounds, P, L);
    report("cudaMallocHost", "a thread busy beside", P, L);
    Spin = false;
    usleep(1000);
    P = L = Cost();
    pattern(Pinned, Rounds, P, L);
    report("cudaMallocHost", "a thread in usleep beside", P, L);
    Quit = true;
    Spinner.join();
  }

  // With the copies: what the copies cost alone, and the protections'
  // share beside them (untraced).
  {
    Cost C;
    copiesOnly(Pinned, Device, S, 50, C); // warm
    C = Cost();
    copiesOnly(Pinned, Device, S, Rounds, C);
    Cost P, L;
    unsigned long long T = now();
    pattern(Pinned, Rounds, P, L, S, Device);
    double With = double(now() - T) / (Rounds * Slots);
    std::printf("copies alone %.0f ns per copy; with the protections %.0f ns "
                "per copy\n",
                C.per(), With);
    report("cudaMallocHost", "beside the copies", P, L);
  }
  for (cudaStream_t &St : S)
    cudaStreamDestroy(St);
  cudaHostUnregister(Registered);
  cudaFreeHost(Pinned);
  cudaFree(Device);
  return 0;
}
