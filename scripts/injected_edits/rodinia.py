"""Injected bugs in yuhc/gpu-rodinia (commit 9c10d3ea), its cuda/ directory:
benchmarks written with blocking copies on the legacy stream. The bugs are
those of a port to asynchronous copies and pinned memory (a blocking copy
made cudaMemcpyAsync, a buffer pinned or registered); the suite creates no
stream in the code that compiles with CUDA 13 (huffman/hist.cu, the only
two-stream pipeline, uses cudaDeviceProp::deviceOverlap, which CUDA 13
removed), so there is no site for default-stream or sync-in-loop."""
from . import edit, sub, after, before, delete

R = "rodinia:cuda/"
BFS = R + "bfs/bfs.cu"
DWT = R + "dwt2d/dwt.cu"
DWTM = R + "dwt2d/main.cu"
HS = R + "hotspot/hotspot.cu"
SRAD = R + "srad/srad_v1/main.cu"
PF = R + "pathfinder/pathfinder.cu"

BFS_STOP_D2H = "\t\tcudaMemcpy( &stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost) ;\n"
BFS_COST_D2H = "\tcudaMemcpy( h_cost, d_cost, sizeof(int)*no_of_nodes, cudaMemcpyDeviceToHost) ;\n"
BFS_COST_ALLOC = "\tint* h_cost = (int*) malloc( sizeof(int)*no_of_nodes);\n"
DWT_LIN_ALLOC = "    cudaMallocHost((void **)&gpu_output, size);\n"
DWT_LIN_D2H = "    cudaMemcpy(gpu_output, component_cuda, size, cudaMemcpyDeviceToHost);\n"
DWT_VIS_ALLOC = "    cudaMallocHost((void **)&src, size);\n"
DWT_VIS_D2H = "    cudaMemcpy(src, component_cuda, size, cudaMemcpyDeviceToHost);\n"
SRAD_SUMS = ("\t\tcudaMemcpy(&total, d_sums, mem_size_single, cudaMemcpyDeviceToHost);\n"
             "\t\tcudaMemcpy(&total2, d_sums2, mem_size_single, cudaMemcpyDeviceToHost);\n")

EDITS = [
    # pageable-copy: a blocking copy of malloc'd (or stack) memory made async.
    edit("ro-bfs-async-cost", "pageable-copy", BFS,
         [sub(BFS_COST_D2H,
              "\tcudaMemcpyAsync( h_cost, d_cost, sizeof(int)*no_of_nodes, cudaMemcpyDeviceToHost, 0) ;\n"
              "\tcudaDeviceSynchronize();\n")],
         "the malloc'd result copied back with cudaMemcpyAsync"),
    edit("ro-bfs-async-stop", "pageable-copy", BFS,
         [sub(BFS_STOP_D2H,
              "\t\tcudaMemcpyAsync( &stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost, 0) ;\n"
              "\t\tcudaStreamSynchronize(0);\n")],
         "the stack flag of the traversal loop copied back with cudaMemcpyAsync"),
    edit("ro-hotspot-async-input", "pageable-copy", HS,
         [sub("    cudaMemcpy(MatrixTemp[0], FilesavingTemp, sizeof(float)*size, cudaMemcpyHostToDevice);\n",
              "    cudaMemcpyAsync(MatrixTemp[0], FilesavingTemp, sizeof(float)*size, cudaMemcpyHostToDevice, 0);\n")],
         "the malloc'd temperature input uploaded with cudaMemcpyAsync"),
    edit("ro-srad-async-image", "pageable-copy", SRAD,
         [sub("\tcudaMemcpy(image, d_I, mem_size, cudaMemcpyDeviceToHost);\n",
              "\tcudaMemcpyAsync(image, d_I, mem_size, cudaMemcpyDeviceToHost, 0);\n"
              "\tcudaDeviceSynchronize();\n")],
         "the malloc'd result image copied back with cudaMemcpyAsync"),

    # dealloc-mismatch: releases that do not fit the allocation.
    edit("ro-dwt-lin-free-pinned", "dealloc-mismatch", DWT,
         [sub("    cudaFreeHost(gpu_output);\n", "    free(gpu_output);\n")],
         "writeLinear's pinned staging buffer released with free"),
    edit("ro-dwt-vis-free-pinned", "dealloc-mismatch", DWT,
         [sub("    cudaFreeHost(src);\n", "    free(src);\n")],
         "writeNStage2DDWT's pinned staging buffer released with free"),
    edit("ro-dwt-main-free-pinned", "dealloc-mismatch", DWTM,
         [sub("    cudaFreeHost(d->srcImg);\n", "    free(d->srcImg);\n")],
         "the pinned source image (a field of a malloc'd struct) released with free"),
    edit("ro-bfs-freehost-malloc", "dealloc-mismatch", BFS,
         [sub("\tfree( h_cost);\n", "\tcudaFreeHost( h_cost);\n")],
         "the malloc'd result released with cudaFreeHost"),
    edit("ro-hotspot-cudafree-host", "dealloc-mismatch", HS,
         [sub("    free(MatrixOut);\n", "    cudaFree(MatrixOut);\n")],
         "the calloc'd output released with cudaFree"),

    # host-register-leak: a pageable buffer registered, freed without unregistering.
    edit("ro-bfs-register-cost", "host-register-leak", BFS,
         [after(BFS_COST_ALLOC,
                "\tcudaHostRegister(h_cost, sizeof(int)*no_of_nodes, cudaHostRegisterDefault);\n")],
         "the result buffer registered to speed up its copies, freed still registered"),
    edit("ro-srad-register-image", "host-register-leak", SRAD,
         [after("\timage = (fp*)malloc(sizeof(fp) * Ne);\n",
                "\tcudaHostRegister(image, sizeof(fp) * Ne, 0);\n")],
         "the image registered after its malloc, freed still registered"),
    edit("ro-hotspot-register-output", "host-register-leak", HS,
         [after("    MatrixOut = (float *) calloc (size, sizeof(float));\n",
                "    cudaHostRegister(MatrixOut, size*sizeof(float), cudaHostRegisterDefault);\n")],
         "the calloc'd output registered, freed still registered"),
    edit("ro-dwt-lin-register", "host-register-leak", DWT,
         [sub(DWT_LIN_ALLOC,
              "    gpu_output = (T *)malloc(size);\n"
              "    cudaHostRegister(gpu_output, size, 0);\n"),
          sub("    cudaFreeHost(gpu_output);\n", "    free(gpu_output);\n")],
         "writeLinear's staging buffer malloc'd and registered, freed still registered"),

    # unsynchronized-access: an async copy into pinned memory read before a wait.
    edit("ro-dwt-lin-async-read", "unsynchronized-access", DWT,
         [sub(DWT_LIN_D2H,
              "    cudaMemcpyAsync(gpu_output, component_cuda, size, cudaMemcpyDeviceToHost);\n")],
         "writeLinear's pinned staging copy made async: samplesToChar reads it in flight",
         at="    samplesToChar(result, gpu_output, samplesNum);"),
    edit("ro-dwt-vis-async-read", "unsynchronized-access", DWT,
         [sub(DWT_VIS_D2H,
              "    cudaMemcpyAsync(src, component_cuda, size, cudaMemcpyDeviceToHost, 0);\n")],
         "writeNStage2DDWT's pinned staging copy made async: the band memcpy's read it in flight"),
    edit("ro-bfs-pinned-stop-no-sync", "unsynchronized-access", BFS,
         [sub("\tbool stop;\n",
              "\tbool *h_stop;\n\tcudaMallocHost((void **)&h_stop, sizeof(bool));\n"),
          sub("\t\tstop=false;\n", "\t\t*h_stop=false;\n"),
          sub("\t\tcudaMemcpy( d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice) ;\n",
              "\t\tcudaMemcpy( d_over, h_stop, sizeof(bool), cudaMemcpyHostToDevice) ;\n"),
          sub(BFS_STOP_D2H,
              "\t\tcudaMemcpyAsync( h_stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost, 0) ;\n"),
          sub("\twhile(stop);\n", "\twhile(*h_stop);\n")],
         "the traversal flag pinned and copied back async: the loop condition reads it before a wait",
         at="\twhile(*h_stop);"),
    edit("ro-srad-sums-async", "unsynchronized-access", SRAD,
         [sub(SRAD_SUMS,
              "\t\tcudaMemcpyAsync(h_sums, d_sums, mem_size_single, cudaMemcpyDeviceToHost, 0);\n"
              "\t\tcudaMemcpyAsync(h_sums2, d_sums2, mem_size_single, cudaMemcpyDeviceToHost, 0);\n"
              "\t\ttotal = *h_sums;\n"
              "\t\ttotal2 = *h_sums2;\n"),
          sub("\timage = (fp*)malloc(sizeof(fp) * Ne);\n",
              "\timage = (fp*)malloc(sizeof(fp) * Ne);\n"
              "\tfp *h_sums, *h_sums2;\n"
              "\tcudaMallocHost((void **)&h_sums, sizeof(fp));\n"
              "\tcudaMallocHost((void **)&h_sums2, sizeof(fp));\n")],
         "the reduction's two sums copied into pinned scalars async and read at once"),

    # pinned-alloc-in-loop: pinning inside the iteration loops.
    edit("ro-srad-pin-sums-per-iter", "pinned-alloc-in-loop", SRAD,
         [sub(SRAD_SUMS,
              "\t\tfp *h_sums;\n"
              "\t\tcudaMallocHost((void **)&h_sums, 2 * sizeof(fp));\n"
              "\t\tcudaMemcpy(&h_sums[0], d_sums, mem_size_single, cudaMemcpyDeviceToHost);\n"
              "\t\tcudaMemcpy(&h_sums[1], d_sums2, mem_size_single, cudaMemcpyDeviceToHost);\n"
              "\t\ttotal = h_sums[0];\n"
              "\t\ttotal2 = h_sums[1];\n"
              "\t\tcudaFreeHost(h_sums);\n")],
         "the two reduction sums read back through a pinned buffer allocated and freed every iteration"),
    edit("ro-bfs-pin-stop-per-iter", "pinned-alloc-in-loop", BFS,
         [sub(BFS_STOP_D2H,
              "\t\tbool *h_over;\n"
              "\t\tcudaMallocHost((void **)&h_over, sizeof(bool));\n"
              "\t\tcudaMemcpyAsync( h_over, d_over, sizeof(bool), cudaMemcpyDeviceToHost, 0) ;\n"
              "\t\tcudaStreamSynchronize(0);\n"
              "\t\tstop = *h_over;\n"
              "\t\tcudaFreeHost(h_over);\n")],
         "the traversal flag read back through a pinned byte allocated and freed every iteration"),
    edit("ro-pathfinder-register-per-step", "pinned-alloc-in-loop", PF,
         [sub("            dynproc_kernel<<<dimGrid, dimBlock>>>(\n",
              "            cudaHostRegister(result, sizeof(int)*cols, 0);\n"
              "            cudaMemcpyAsync(result, gpuResult[dst], sizeof(int)*cols, cudaMemcpyDeviceToHost, 0);\n"
              "            cudaStreamSynchronize(0);\n"
              "            cudaHostUnregister(result);\n"
              "            dynproc_kernel<<<dimGrid, dimBlock>>>(\n")],
         "a progress snapshot of the result row registered, copied and unregistered in every step"),
]
