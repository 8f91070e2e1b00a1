"""Held-back injected bugs (second set) in hpc2n/gpu-course (commit
19868841), a university HPC centre's GPU course: hands-on exercises
(hands-ons/) and their solutions (solutions/). The advanced part registers
malloc'd and aligned_alloc'd matrices with cudaHostRegister, copies them
asynchronously on a stream per matrix (multi_gemm) or on one or two streams
in a cuBLAS pipeline over slices of B and C, and waits once at the end.
Each edit is a mistake a student could make in the exercise. The
repository is named 'hpc2n-gpu-course' as the held-back manifest names
it."""
from . import edit, sub, after, before, delete

R = "hpc2n-gpu-course:"
ASYNC = R + "solutions/4.advanced/1.async/solution.cu"
GEMMS = R + "solutions/4.advanced/2.multi_gemm/solution.cu"
PIPE2 = R + "solutions/4.advanced/3.pipeline/solution.cu"
HO_ASYNC = R + "hands-ons/4.advanced/1.async/axpy.cu"
HO_GEMMS = R + "hands-ons/4.advanced/2.multi_gemm/gemms.cu"
HO_PIPE = R + "hands-ons/4.advanced/3.pipeline/pipeline.cu"

PIPE_CHECK = "            max_error = max(max_error, fabs(C[i*ldC+j] - B[i*ldB+p[j]]));"
PIPE_FREE = "    free(A); free(B); free(C); free(p);"
PIPE_WAIT = "    CHECK_CUDA_ERROR(cudaDeviceSynchronize());\n"
PIPE_D2H = ("            cudaMemcpyAsync(C+i*ldC, _C, splice_width*ldC*sizeof(double),\n"
            "                cudaMemcpyDeviceToHost, stream));\n")
REG_B = ("    CHECK_CUDA_ERROR(\n"
         "        cudaHostRegister(B, n*ldB*sizeof(double), cudaHostRegisterDefault));\n")
REG_C = ("    CHECK_CUDA_ERROR(\n"
         "        cudaHostRegister(C, n*ldC*sizeof(double), cudaHostRegisterDefault));\n")
UNREG_ABC = ("    CHECK_CUDA_ERROR(cudaHostUnregister(A));\n"
             "    CHECK_CUDA_ERROR(cudaHostUnregister(B));\n"
             "    CHECK_CUDA_ERROR(cudaHostUnregister(C));\n")
GEMMS_H2D_A = ("            cudaMemcpyAsync(_A[i], A[i], n*ldA*sizeof(double),\n"
               "                cudaMemcpyHostToDevice, stream[i]));\n")
GEMMS_D2H = ("            cudaMemcpyAsync(C[i], _C[i], n*ldC*sizeof(double),\n"
             "                cudaMemcpyDeviceToHost, stream[i]));\n")

EDITS = [
    # pageable-copy
    edit("hb2gc-pipeline-b-not-pinned", "pageable-copy", PIPE2,
         [delete(REG_B), delete("    CHECK_CUDA_ERROR(cudaHostUnregister(B));\n")],
         "the two-stream pipeline pins A and C but not B, whose slices are uploaded with "
         "cudaMemcpyAsync from aligned_alloc'd memory",
         at="            cudaMemcpyAsync(_B, B+i*ldB, splice_width*ldB*sizeof(double),"),
    edit("hb2gc-axpy-async-unpinned", "pageable-copy", HO_ASYNC,
         [sub("    CHECK_CUDA_ERROR(\n"
              "        cudaMemcpy(d_x, x, n*sizeof(double), cudaMemcpyHostToDevice));\n",
              "    CHECK_CUDA_ERROR(\n"
              "        cudaMemcpyAsync(d_x, x, n*sizeof(double), cudaMemcpyHostToDevice, 0));\n")],
         "the async exercise started at step 4: x's upload made cudaMemcpyAsync before "
         "the malloc'd vector is pinned (step 3)"),

    # dealloc-mismatch
    edit("hb2gc-pipeline-cudafreehost-registered", "dealloc-mismatch", HO_PIPE,
         [delete("    // un-pin the matrices A, B and C\n    \n" + UNREG_ABC + "    \n"),
          sub(PIPE_FREE + "\n", "    cudaFreeHost(A); cudaFreeHost(B); cudaFreeHost(C); free(p);\n")],
         "the pipeline exercise releases its registered aligned_alloc'd matrices with "
         "cudaFreeHost, taking it to undo cudaHostRegister"),

    # host-register-leak
    edit("hb2gc-multi-gemm-c-still-registered", "host-register-leak", GEMMS,
         [delete("        CHECK_CUDA_ERROR(cudaHostUnregister(C[i]));\n")],
         "multi_gemm's clean-up loop unregisters A[i] and B[i] but not C[i] before "
         "freeing them",
         at="        free(A[i]); free(B[i]); free(C[i]); free(p[i]);"),
    edit("hb2gc-pipeline-c-still-registered", "host-register-leak", PIPE2,
         [delete("    CHECK_CUDA_ERROR(cudaHostUnregister(C));\n")],
         "the two-stream pipeline frees C without unregistering it",
         at=PIPE_FREE),
    edit("hb2gc-axpy-pinned-never-unpinned", "host-register-leak", HO_ASYNC,
         [before("    // initialize host memory and store a copy for a later validation\n",
                 "    // pin the vectors x and y to the host memory\n\n"
                 "    CHECK_CUDA_ERROR(\n"
                 "        cudaHostRegister(x, n*sizeof(double), cudaHostRegisterDefault));\n"
                 "    CHECK_CUDA_ERROR(\n"
                 "        cudaHostRegister(y, n*sizeof(double), cudaHostRegisterDefault));\n\n")],
         "the async exercise's step 3 done (x and y registered) with no cudaHostUnregister "
         "before the final free",
         at="    free(x), free(y); free(_y);"),

    # unsynchronized-access
    edit("hb2gc-axpy-no-stream-wait", "unsynchronized-access", ASYNC,
         [delete("    // wait until the stream is empty\n"
                 "    CHECK_CUDA_ERROR(cudaStreamSynchronize(stream));\n")],
         "the async solution's stream sync dropped (the elapsed time between the events "
         "is no wait): the residual reads y while its download may be in flight",
         at="            (y[i] - (alpha * x[i] + _y[i])) * (y[i] - (alpha * x[i] + _y[i]));"),
    edit("hb2gc-pipeline-no-final-wait", "unsynchronized-access", PIPE2,
         [delete(PIPE_WAIT)],
         "the two-stream pipeline's device sync after the splice loop dropped: the "
         "validation reads C while the last slices' downloads may be in flight",
         at=PIPE_CHECK),
    edit("hb2gc-pipeline-exercise-no-final-wait", "unsynchronized-access", HO_PIPE,
         [delete(PIPE_WAIT)],
         "the pipeline exercise's device sync after the splice loop dropped before the "
         "validation reads C",
         at=PIPE_CHECK),

    # pinned-alloc-in-loop
    edit("hb2gc-pipeline-pin-c-per-splice", "pinned-alloc-in-loop", HO_PIPE,
         [delete(REG_C),
          delete("    CHECK_CUDA_ERROR(cudaHostUnregister(C));\n"),
          after("        int splice_width = min(splice, n-i);\n",
                "        CHECK_CUDA_ERROR(\n"
                "            cudaHostRegister(C+i*ldC, splice_width*ldC*sizeof(double),\n"
                "                cudaHostRegisterDefault));\n"),
          after(PIPE_D2H,
                "        CHECK_CUDA_ERROR(cudaStreamSynchronize(stream));\n"
                "        CHECK_CUDA_ERROR(cudaHostUnregister(C+i*ldC));\n")],
         "the pipeline exercise pins only the slice of C each splice downloads, and "
         "unpins it at the end of the splice"),
    edit("hb2gc-multi-gemm-pin-per-product", "pinned-alloc-in-loop", HO_GEMMS,
         [sub("        // copy the matrices A and B to the global memory\n",
              "        // pin the matrices A, B and C for the transfers\n\n"
              "        CHECK_CUDA_ERROR(\n"
              "            cudaHostRegister(A[i], n*ldA*sizeof(double), cudaHostRegisterDefault));\n"
              "        CHECK_CUDA_ERROR(\n"
              "            cudaHostRegister(B[i], n*ldB*sizeof(double), cudaHostRegisterDefault));\n"
              "        CHECK_CUDA_ERROR(\n"
              "            cudaHostRegister(C[i], n*ldC*sizeof(double), cudaHostRegisterDefault));\n\n"
              "        // copy the matrices A and B to the global memory\n"),
          sub("                C[i], _C[i], n*ldC*sizeof(double), cudaMemcpyDeviceToHost));\n    }\n",
              "                C[i], _C[i], n*ldC*sizeof(double), cudaMemcpyDeviceToHost));\n\n"
              "        CHECK_CUDA_ERROR(cudaHostUnregister(A[i]));\n"
              "        CHECK_CUDA_ERROR(cudaHostUnregister(B[i]));\n"
              "        CHECK_CUDA_ERROR(cudaHostUnregister(C[i]));\n    }\n")],
         "the multi_gemm exercise registers each product's matrices inside the timed loop "
         "and unregisters them after the product"),

    # sync-in-loop
    edit("hb2gc-multi-gemm-wait-per-product", "sync-in-loop", GEMMS,
         [after(GEMMS_D2H, "        CHECK_CUDA_ERROR(cudaStreamSynchronize(stream[i]));\n")],
         "multi_gemm waits for each product's stream inside the loop that issues them on "
         "a stream each"),

    # default-stream
    edit("hb2gc-multi-gemm-a-upload-legacy", "default-stream", GEMMS,
         [sub(GEMMS_H2D_A,
              "            cudaMemcpyAsync(_A[i], A[i], n*ldA*sizeof(double),\n"
              "                cudaMemcpyHostToDevice));\n")],
         "multi_gemm's upload of A[i] issued without its stream (the argument left out)"),
    edit("hb2gc-pipeline-b-slice-legacy", "default-stream", PIPE2,
         [sub("            cudaMemcpyAsync(_B, B+i*ldB, splice_width*ldB*sizeof(double),\n"
              "                cudaMemcpyHostToDevice, stream));\n",
              "            cudaMemcpyAsync(_B, B+i*ldB, splice_width*ldB*sizeof(double),\n"
              "                cudaMemcpyHostToDevice));\n")],
         "the two-stream pipeline's upload of each slice of B issued without the stream, "
         "so every splice waits for the other stream's work"),
]
