"""Held-back injected bugs (second set) in AlexeyAB/darknet (commit
59596d78), the CUDA backend of the network engine (src/*.cu, src/*.cpp):
layer kernels on the one stream get_cuda_stream() returns (a blocking
stream without cuDNN), host arrays pushed and pulled through helpers of
dark_cuda.c, a mapped pinned flag in is_nan_or_inf, per-layer debug code
left commented out. The repository is named 'darknet' as the held-back
manifest names it."""
from . import edit, sub, after, before, delete

R = "darknet:"
BLAS = R + "src/blas_kernels.cu"
NET = R + "src/network_kernels.cu"
CONV = R + "src/convolutional_kernels.cu"

DEBUG_AVG = ("        /*\n"
             "        cuda_pull_array(l.output_gpu, l.output, l.outputs);\n"
             "        cudaStreamSynchronize(get_cuda_stream());\n"
             "        float avg_val = 0;\n"
             "        int k;\n"
             "        for (k = 0; k < l.outputs; ++k) avg_val += l.output[k];\n"
             "        printf(\" i: %d - avg_val = %f \\n\", i, avg_val / l.outputs);\n"
             "        */\n")

EDITS = [
    # pageable-copy
    edit("hb2dn-excitation-truth-async", "pageable-copy", CONV,
         [sub("    cuda_pull_array(state.truth, truth_cpu, num_truth);\n"
              "    //cudaStreamSynchronize(get_cuda_stream());\n",
              "    CHECK_CUDA(cudaMemcpyAsync(truth_cpu, state.truth, num_truth * sizeof(float),\n"
              "        cudaMemcpyDeviceToHost, get_cuda_stream()));\n"
              "    cudaStreamSynchronize(get_cuda_stream());\n")],
         "assisted excitation's truth boxes pulled with cudaMemcpyAsync on the layer "
         "stream into the calloc'd truth_cpu"),

    # dealloc-mismatch
    edit("hb2dn-nan-flag-free", "dealloc-mismatch", BLAS,
         [sub("    CHECK_CUDA(cudaFreeHost(pinned_return));\n", "    free(pinned_return);\n")],
         "is_nan_or_inf's mapped pinned flag (cudaHostAlloc) released with free"),

    # unsynchronized-access
    edit("hb2dn-nan-flag-no-wait", "unsynchronized-access", BLAS,
         [sub("    CHECK_CUDA(cudaDeviceSynchronize());\n    int ret_val = *pinned_return;\n",
              "    int ret_val = *pinned_return;\n")],
         "is_nan_or_inf's device sync dropped: the host reads the pinned flag while the "
         "kernel that sets it may still run",
         at="    int ret_val = *pinned_return;"),

    # pinned-alloc-in-loop
    edit("hb2dn-layer-debug-pinned", "pinned-alloc-in-loop", NET,
         [sub(DEBUG_AVG,
              "        if (net.benchmark_layers) {\n"
              "            float *h_out;\n"
              "            CHECK_CUDA(cudaMallocHost((void **)&h_out, l.outputs * sizeof(float)));\n"
              "            CHECK_CUDA(cudaMemcpyAsync(h_out, l.output_gpu, l.outputs * sizeof(float),\n"
              "                cudaMemcpyDeviceToHost, get_cuda_stream()));\n"
              "            CHECK_CUDA(cudaStreamSynchronize(get_cuda_stream()));\n"
              "            float avg_val = 0;\n"
              "            int k;\n"
              "            for (k = 0; k < l.outputs; ++k) avg_val += h_out[k];\n"
              "            printf(\" i: %d - avg_val = %f \\n\", i, avg_val / l.outputs);\n"
              "            CHECK_CUDA(cudaFreeHost(h_out));\n"
              "        }\n")],
         "the commented-out per-layer average brought back for benchmark runs, through "
         "a pinned buffer allocated and freed for every layer"),
    edit("hb2dn-pull-weights-pinned-staging", "pinned-alloc-in-loop", NET,
         [sub("void pull_weights(layer l)\n{\n    if(l.type == CONVOLUTIONAL){\n"
              "        cuda_pull_array(l.biases_gpu, l.biases, l.n);\n"
              "        cuda_pull_array(l.weights_gpu, l.weights, l.nweights);\n",
              "void pull_weights(layer l)\n{\n"
              "    float *staging;\n"
              "    CHECK_CUDA(cudaMallocHost((void **)&staging, l.nweights * sizeof(float)));\n"
              "    if(l.type == CONVOLUTIONAL){\n"
              "        cuda_pull_array(l.biases_gpu, l.biases, l.n);\n"
              "        CHECK_CUDA(cudaMemcpyAsync(staging, l.weights_gpu, l.nweights * sizeof(float),\n"
              "            cudaMemcpyDeviceToHost, get_cuda_stream()));\n"
              "        CHECK_CUDA(cudaStreamSynchronize(get_cuda_stream()));\n"
              "        memcpy(l.weights, staging, l.nweights * sizeof(float));\n"),
          sub("        cuda_pull_array(l.weights_gpu, l.weights, l.outputs*l.inputs);\n    }\n}\n",
              "        cuda_pull_array(l.weights_gpu, l.weights, l.outputs*l.inputs);\n    }\n"
              "    CHECK_CUDA(cudaFreeHost(staging));\n}\n")],
         "pull_weights stages the convolution weights through a pinned buffer it "
         "allocates and frees on every call; sync_layer calls it for every GPU's "
         "copy of the layer"),
]
