"""Held-back injected bugs in ANL-CESAR/XSBench (commit ba08e522), CUDA
version (cuda/): a proxy app whose kernels run on the legacy stream, with
blocking uploads and Thrust reductions. The original has no async copies or
pinned memory, so each edit adds the small piece of async code a developer
could plausibly write there (an async upload, a host-side reduction of the
verification array, streams per material). The repository is named 'xsbench'
as the held-back manifest names it."""
from . import edit, sub, after, before, delete

R = "xsbench:"
GI = R + "cuda/GridInit.cu"
SIM = R + "cuda/Simulation.cu"

SLASHES = "\t" + "/" * 80 + "\n"
# From the lookup kernel's wait to the Thrust reduction (the same in every
# variant; each edit anchors it on its variant's own launch line).
RED_TAIL = ("\tgpuErrchk( cudaPeekAtLastError() );\n"
            "\tgpuErrchk( cudaDeviceSynchronize() );\n"
            "\t\n" + SLASHES +
            "\t// Reduce Verification Results\n" + SLASHES +
            "\tif( mype == 0)\tprintf(\"Reducing verification results...\\n\");\n"
            "\n"
            "\tunsigned long verification_scalar = thrust::reduce(thrust::device, "
            "GSD.verification, GSD.verification + in.lookups, 0);\n")


def host_reduction(launch, alloc, copy, wait, release):
    """The variant's Thrust reduction replaced by a copy of the verification
    array to the host and a sum there."""
    return sub(launch + RED_TAIL,
               launch +
               "\tgpuErrchk( cudaPeekAtLastError() );\n"
               "\t\n" + SLASHES +
               "\t// Reduce Verification Results (on the host)\n" + SLASHES +
               "\tif( mype == 0)\tprintf(\"Reducing verification results...\\n\");\n"
               "\n"
               "\tunsigned long * h_verification;\n" + alloc + copy + wait +
               "\tunsigned long verification_scalar = 0;\n"
               "\tfor( int i = 0; i < in.lookups; i++ )\n"
               "\t\tverification_scalar += h_verification[i];\n" + release)


VSZ = "in.lookups * sizeof(unsigned long)"
D2H_ASYNC = ("\tgpuErrchk( cudaMemcpyAsync(h_verification, GSD.verification, " + VSZ +
             ", cudaMemcpyDeviceToHost, 0) );\n")
D2H_BLOCKING = ("\tgpuErrchk( cudaMemcpy(h_verification, GSD.verification, " + VSZ +
                ", cudaMemcpyDeviceToHost) );\n")
DEVSYNC = "\tgpuErrchk( cudaDeviceSynchronize() );\n"
MALLOC = "\th_verification = (unsigned long *) malloc( " + VSZ + " );\n"
PINNED = "\tgpuErrchk( cudaMallocHost((void **) &h_verification, " + VSZ + ") );\n"

OPT4_LOOP = ("\t// Launch all material kernels individually\n"
             "\tint offset = 0;\n"
             "\tfor( int m = 0; m < 12; m++ )\n"
             "\t{\n"
             "\t\tnthreads = 32;\n"
             "\t\tnblocks = ceil((double) n_lookups_per_material[m] / (double) nthreads);\n"
             "\t\txs_lookup_kernel_optimization_4<<<nblocks, nthreads>>>"
             "( in, GSD, m, n_lookups_per_material[m], offset );\n")

EDITS = [
    # pageable-copy
    edit("xs-upload-async-grid", "pageable-copy", GI,
         [sub("\tgpuErrchk( cudaMemcpy(GSD.nuclide_grid, SD.nuclide_grid, sz, cudaMemcpyHostToDevice) );\n",
              "\tgpuErrchk( cudaMemcpyAsync(GSD.nuclide_grid, SD.nuclide_grid, sz, cudaMemcpyHostToDevice, 0) );\n")],
         "the largest upload (the malloc'd nuclide grid) made cudaMemcpyAsync to overlap "
         "the remaining allocations; the function already ends with a device sync"),
    edit("xs-baseline-host-reduce-malloc", "pageable-copy", SIM,
         [host_reduction("\txs_lookup_kernel_baseline<<<nblocks, nthreads>>>( in, GSD );\n",
                         MALLOC, D2H_ASYNC, DEVSYNC, "\tfree(h_verification);\n")],
         "the baseline's Thrust reduction replaced by an async copy of the verification "
         "array into a malloc'd buffer and a host sum"),

    # unsynchronized-access
    edit("xs-opt1-host-reduce-no-wait", "unsynchronized-access", SIM,
         [host_reduction("\txs_lookup_kernel_optimization_1<<<nblocks, nthreads>>>( in, GSD );\n",
                         PINNED, D2H_ASYNC, "",
                         "\tgpuErrchk( cudaFreeHost(h_verification) );\n")],
         "optimization 1 reduces on the host from a pinned buffer filled by an async "
         "copy, with no wait before the sum",
         at="\t\tverification_scalar += h_verification[i];"),

    # dealloc-mismatch
    edit("xs-opt2-host-reduce-free-pinned", "dealloc-mismatch", SIM,
         [host_reduction("\t\txs_lookup_kernel_optimization_2<<<nblocks, nthreads>>>( in, GSD, m );\n",
                         PINNED, D2H_BLOCKING, "", "\tfree(h_verification);\n")],
         "optimization 2's host reduction buffer, from cudaMallocHost, released with free"),

    # host-register-leak
    edit("xs-opt3-host-reduce-register", "host-register-leak", SIM,
         [host_reduction("\txs_lookup_kernel_optimization_3<<<nblocks, nthreads>>>( in, GSD, 1 );\n",
                         MALLOC + "\tgpuErrchk( cudaHostRegister(h_verification, " + VSZ +
                         ", cudaHostRegisterDefault) );\n",
                         D2H_ASYNC, DEVSYNC, "\tfree(h_verification);\n")],
         "optimization 3's host reduction buffer malloc'd and registered for the async "
         "copy, then freed still registered"),

    # sync-in-loop
    edit("xs-opt4-streams-sync-per-material", "sync-in-loop", SIM,
         [sub(OPT4_LOOP,
              "\t// Launch all material kernels individually, one stream each\n"
              "\tcudaStream_t streams[12];\n"
              "\tfor( int m = 0; m < 12; m++ )\n"
              "\t\tgpuErrchk( cudaStreamCreate(&streams[m]) );\n"
              "\tint offset = 0;\n"
              "\tfor( int m = 0; m < 12; m++ )\n"
              "\t{\n"
              "\t\tnthreads = 32;\n"
              "\t\tnblocks = ceil((double) n_lookups_per_material[m] / (double) nthreads);\n"
              "\t\txs_lookup_kernel_optimization_4<<<nblocks, nthreads, 0, streams[m]>>>"
              "( in, GSD, m, n_lookups_per_material[m], offset );\n"
              "\t\tgpuErrchk( cudaStreamSynchronize(streams[m]) );\n")],
         "optimization 4's material kernels put on a stream each, but each stream waited "
         "for inside the launch loop"),

    # default-stream
    edit("xs-opt5-fuel-legacy", "default-stream", SIM,
         [sub("\tnblocks = ceil( (double) n_fuel_lookups / (double) nthreads);\n"
              "\txs_lookup_kernel_optimization_5<<<nblocks, nthreads>>>( in, GSD, n_fuel_lookups, 0 );\n"
              "\n"
              "\tnblocks = ceil( (double) (in.lookups - n_fuel_lookups) / (double) nthreads);\n"
              "\txs_lookup_kernel_optimization_5<<<nblocks, nthreads>>>"
              "( in, GSD, in.lookups-n_fuel_lookups, n_fuel_lookups );\n",
              "\tcudaStream_t other_stream;\n"
              "\tgpuErrchk( cudaStreamCreate(&other_stream) );\n"
              "\tnblocks = ceil( (double) n_fuel_lookups / (double) nthreads);\n"
              "\txs_lookup_kernel_optimization_5<<<nblocks, nthreads>>>( in, GSD, n_fuel_lookups, 0 );\n"
              "\n"
              "\tnblocks = ceil( (double) (in.lookups - n_fuel_lookups) / (double) nthreads);\n"
              "\txs_lookup_kernel_optimization_5<<<nblocks, nthreads, 0, other_stream>>>"
              "( in, GSD, in.lookups-n_fuel_lookups, n_fuel_lookups );\n")],
         "optimization 5's non-fuel kernel moved to a created stream to overlap, but the "
         "fuel kernel left on the legacy stream, which the other waits for"),
]
