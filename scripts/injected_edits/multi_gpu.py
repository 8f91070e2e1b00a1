"""Injected bugs in NVIDIA/multi-gpu-programming-models (commit 9a600f5):
Jacobi solvers with MPI, NCCL and OpenMP threads (docs/real-code.md)."""
from . import edit, sub, after, before, delete

R = "multi-gpu-programming-models:"
MPI = R + "mpi/jacobi.cpp"
NCCL = R + "nccl/jacobi.cpp"
SG = R + "single_gpu/jacobi.cu"
MTCO = R + "multi_threaded_copy_overlap/jacobi.cu"
MTC = R + "multi_threaded_copy/jacobi.cu"

NORM_SYNC_ALLREDUCE = (
    "            CUDA_RT_CALL(cudaStreamSynchronize(compute_stream));\n"
    "            MPI_CALL(MPI_Allreduce(l2_norm_h, &l2_norm, 1, MPI_REAL_TYPE, "
    "MPI_SUM, MPI_COMM_WORLD));\n")
ALLREDUCE = ("            MPI_CALL(MPI_Allreduce(l2_norm_h, &l2_norm, 1, "
             "MPI_REAL_TYPE, MPI_SUM, MPI_COMM_WORLD));")
MTCO_BULK = ("                    a_new[dev_id], a, l2_norm_d, (iy_start + 1), "
             "(iy_end[dev_id] - 1), nx,\n"
             "                    calculate_norm);\n"
             "            CUDA_RT_CALL(cudaGetLastError());\n")
MTCO_TOP = ("                a_new[dev_id], a, l2_norm_d, iy_start, (iy_start + 1), "
            "nx, calculate_norm);\n")
MTCO_NORM_SYNC = ("#pragma omp barrier\n"
                  "                CUDA_RT_CALL(cudaStreamSynchronize(compute_stream));\n"
                  "#pragma omp atomic\n")

EDITS = [
    # unsynchronized-access: the norm read before its copy is waited for.
    edit("mgpm-mpi-no-norm-sync", "unsynchronized-access", MPI,
         [sub(NORM_SYNC_ALLREDUCE, ALLREDUCE + "\n")],
         "the norm handed to MPI_Allreduce before the D2H copy into it is "
         "waited for", at=ALLREDUCE),
    edit("mgpm-mpi-reference-no-sync", "unsynchronized-access", MPI,
         [sub("            CUDA_RT_CALL(cudaStreamSynchronize(compute_stream));\n"
              "            l2_norm = *l2_norm_h;\n",
              "            l2_norm = *l2_norm_h;\n")],
         "the single-GPU reference reads the norm before waiting for its copy",
         at="            l2_norm = *l2_norm_h;"),
    edit("mgpm-nccl-no-norm-sync", "unsynchronized-access", NCCL,
         [sub(NORM_SYNC_ALLREDUCE, ALLREDUCE + "\n")],
         "the NCCL solver's norm handed to MPI before its copy is waited for",
         at=ALLREDUCE),
    edit("mgpm-single-gpu-no-event-sync", "unsynchronized-access", SG,
         [delete("            CUDA_RT_CALL(cudaEventSynchronize("
                 "l2_norm_bufs[prev].copy_done));\n")],
         "the previous norm read without waiting for its copy's event",
         at="            l2_norms[prev] = *(l2_norm_bufs[prev].h);"),
    edit("mgpm-threads-no-norm-sync", "unsynchronized-access", MTCO,
         [sub(MTCO_NORM_SYNC, "#pragma omp barrier\n#pragma omp atomic\n")],
         "each thread adds its GPU's norm before its copy is waited for",
         at="                l2_norm += *(l2_norm_h);"),
    edit("mgpm-mpi-reset-before-sync", "unsynchronized-access", MPI,
         [sub(NORM_SYNC_ALLREDUCE,
              "            *l2_norm_h = 0;\n" + NORM_SYNC_ALLREDUCE)],
         "the pinned norm reset while the D2H copy into it is in flight"),

    # sync-in-loop: a wait for this iteration's work in a multi-stream loop.
    edit("mgpm-threads-sync-after-bulk", "sync-in-loop", MTCO,
         [sub(MTCO_BULK, MTCO_BULK +
              "            CUDA_RT_CALL(cudaStreamSynchronize(compute_stream));\n")],
         "the bulk kernel waited for before the boundary kernels are issued"),
    edit("mgpm-threads-device-sync-after-top", "sync-in-loop", MTCO,
         [after(MTCO_TOP,
                "            CUDA_RT_CALL(cudaDeviceSynchronize());\n")],
         "a device sync after the top boundary kernel"),

    # default-stream: a kernel of the pipeline moved to the legacy stream.
    edit("mgpm-threads-bulk-on-legacy", "default-stream", MTCO,
         [sub("                <<<dim_grid, {dim_block_x, dim_block_y, 1}, 0, "
              "compute_stream>>>(\n"
              "                    a_new[dev_id], a, l2_norm_d, (iy_start + 1)",
              "                <<<dim_grid, {dim_block_x, dim_block_y, 1}>>>(\n"
              "                    a_new[dev_id], a, l2_norm_d, (iy_start + 1)")],
         "the bulk kernel launched on the legacy stream beside the halo streams"),

    # pageable-copy: the pinned norm made pageable.
    edit("mgpm-mpi-pageable-norm", "pageable-copy", MPI,
         [sub("    CUDA_RT_CALL(cudaMallocHost(&l2_norm_h, sizeof(real)));\n\n"
              "    PUSH_RANGE(\"MPI_Warmup\", 5)",
              "    l2_norm_h = (real*)malloc(sizeof(real));\n\n"
              "    PUSH_RANGE(\"MPI_Warmup\", 5)")],
         "the norm's host buffer malloc'd"),
    edit("mgpm-single-gpu-pageable-norm", "pageable-copy", SG,
         [sub("        CUDA_RT_CALL(cudaMallocHost(&l2_norm_bufs[i].h, sizeof(real)));\n",
              "        l2_norm_bufs[i].h = new real;\n")],
         "the norm buffers allocated with new"),

    # dealloc-mismatch: pinned memory released with free.
    edit("mgpm-mpi-free-pinned", "dealloc-mismatch", MPI,
         [sub("    CUDA_RT_CALL(cudaFreeHost(a_h));\n    CUDA_RT_CALL(cudaFreeHost(a_ref_h));\n",
              "    free(a_h);\n    CUDA_RT_CALL(cudaFreeHost(a_ref_h));\n")],
         "the pinned result released with free"),
    edit("mgpm-single-gpu-delete-pinned", "dealloc-mismatch", SG,
         [sub("        CUDA_RT_CALL(cudaFreeHost(l2_norm_bufs[i].h));\n",
              "        delete l2_norm_bufs[i].h;\n")],
         "the pinned norm buffers released with delete"),

    # pinned-alloc-in-loop: pinning inside the solver loop.
    edit("mgpm-single-gpu-pin-in-loop", "pinned-alloc-in-loop", SG,
         [after("        int curr = (iter + 1) % 2;\n",
                "        real* scratch_h;\n"
                "        CUDA_RT_CALL(cudaMallocHost(&scratch_h, sizeof(real)));\n"
                "        CUDA_RT_CALL(cudaFreeHost(scratch_h));\n")],
         "a pinned scratch value allocated and released every iteration"),

    # host-register-leak: registered memory freed while registered.
    edit("mgpm-mpi-register-result", "host-register-leak", MPI,
         [sub("    CUDA_RT_CALL(cudaMallocHost(&a_h, nx * ny * sizeof(real)));\n",
              "    a_h = (real*)malloc(nx * ny * sizeof(real));\n"
              "    CUDA_RT_CALL(cudaHostRegister(a_h, nx * ny * sizeof(real), 0));\n"),
          sub("    CUDA_RT_CALL(cudaFreeHost(a_h));\n", "    free(a_h);\n")],
         "the result buffer registered, then freed still registered"),
]
