"""Held-back injected bugs (fourth set) in NVIDIA-Merlin/HierarchicalKV
(commit ae24eecd), a GPU hash table of embedding vectors for recommender
systems (header-only: include/merlin_hashtable.cuh, kernels under
include/merlin/), through its gtest suites (tests/*.cc.cu), the only
translation units: each test creates a stream, fills pinned (cudaMallocHost)
key, score and vector arrays, uploads them with blocking or async copies,
runs the table's insert/find/evict/export operations on the stream and
checks the results on the host; the Check* helpers stage exported table
contents in malloc'd host arrays with cudaMemcpyAsync and a stream wait.
The googletest submodule is missing; gtest's headers come from the system
(/usr/include/gtest). The repository is named 'hierarchicalkv' as the
held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code:

- tests/insert_and_evict_test.cc.cu:243-246 (and the same block at :486,
  :762, :1075, and BatchCheckFind's :1626-1629): the found flags are read
  right after `cudaMemcpyAsync(h_tmp_founds, ...)` with no wait; correct
  only because h_tmp_founds is malloc'd, so the copy is staged and
  synchronous (pageable-copy, which the Check* helpers' malloc'd staging
  arrays draw throughout); pinning the buffer would make it a race.
- Not of the seven kinds: merlin_hashtable_test.cc.cu:261 (and its copies)
  copies d_scores into h_scores with cudaMemcpyHostToDevice (the direction
  reversed); find_with_missed_keys_test.cc.cu:126-128 checks
  h_missed_indices[i] and h_missed_keys[i] with the outer counter i where
  the loop's j is meant; export_batch_if_test.cc.cu:233-262 records its
  timing events on the legacy stream around work on a created stream.
"""
from . import edit, sub, after, before, delete

R = "hierarchicalkv:tests/"
SAL = R + "save_and_load_test.cc.cu"
MHT = R + "merlin_hashtable_test.cc.cu"
IAE = R + "insert_and_evict_test.cc.cu"
FMK = R + "find_with_missed_keys_test.cc.cu"

EDITS = [
    # pageable-copy
    edit("hb4kv-saveload-vectors-malloc", "pageable-copy", SAL,
         [sub("  CUDA_CHECK(cudaMallocHost(&h_vectors, keynum * sizeof(V) * DIM));\n",
              "  h_vectors = (V*)malloc(keynum * sizeof(V) * DIM);\n")],
         "the test's embedding vectors allocated with malloc instead of cudaMallocHost: "
         "their cudaMemcpyAsync to the device on the test's stream is staged and synchronous"),
    # unsynchronized-access
    edit("hb4kv-saveload-keys-cleared-in-flight", "unsynchronized-access", SAL,
         [sub("                             cudaMemcpyHostToDevice, stream));\n"
              "  printf(\"Create buffers.\\n\");\n",
              "                             cudaMemcpyHostToDevice, stream));\n"
              "  memset(h_keys, 0, keynum * sizeof(K));\n"
              "  printf(\"Create buffers.\\n\");\n")],
         "the pinned host keys cleared right after their upload is issued on the stream, "
         "with no wait: the cudaMemcpyAsync may still be reading them"),
    edit("hb4kv-batchfind-founds-pinned-read-before-wait", "unsynchronized-access", IAE,
         [sub("  h_tmp_founds = (bool*)malloc(cap * sizeof(bool));\n"
              "\n"
              "  while (step->load() < total_step) {\n",
              "  h_tmp_founds = (bool*)malloc(cap * sizeof(bool));\n"
              "  CUDA_CHECK(cudaHostRegister(h_tmp_founds, cap * sizeof(bool), cudaHostRegisterDefault));\n"
              "\n"
              "  while (step->load() < total_step) {\n"),
          sub("  free(h_tmp_founds);\n"
              "\n"
              "  CUDA_CHECK(cudaStreamSynchronize(stream));\n"
              "}\n",
              "  CUDA_CHECK(cudaHostUnregister(h_tmp_founds));\n"
              "  free(h_tmp_founds);\n"
              "\n"
              "  CUDA_CHECK(cudaStreamSynchronize(stream));\n"
              "}\n")],
         "BatchCheckFind pins its found-flags buffer for the per-step downloads; its "
         "contains() check reads the flags right after their cudaMemcpyAsync without a "
         "wait, which only the malloc'd (staged, synchronous) copy made safe",
         at="        if (h_tmp_founds[i]) contains_num++;"),
    edit("hb4kv-missed-vectors-async-read", "unsynchronized-access", FMK,
         [sub("      CUDA_CHECK(cudaMemcpy(h_vectors, d_vectors,\n"
              "                            KEY_NUM * sizeof(V) * options.dim,\n"
              "                            cudaMemcpyDeviceToHost));\n",
              "      CUDA_CHECK(cudaMemcpyAsync(h_vectors, d_vectors,\n"
              "                                 KEY_NUM * sizeof(V) * options.dim,\n"
              "                                 cudaMemcpyDeviceToHost, stream));\n")],
         "the download of the found vectors made a cudaMemcpyAsync on the table's stream "
         "into the pinned h_vectors, and the hit check reads them with no wait",
         at="            ASSERT_EQ(h_vectors[j * options.dim + k],"),
    # default-stream
    edit("hb4kv-values-check-memset-legacy", "default-stream", MHT,
         [sub("  CUDA_CHECK(cudaMemsetAsync(d_tmp_keys, 0, cap * sizeof(K), stream));\n",
              "  CUDA_CHECK(cudaMemsetAsync(d_tmp_keys, 0, cap * sizeof(K)));\n")],
         "CheckInsertOrAssignValues clears its export buffer of keys on the legacy stream "
         "(stream argument dropped) while the rest of its work runs on the test's stream, "
         "which then waits for it"),
    # host-register-leak
    edit("hb4kv-values-check-registered-then-freed", "host-register-leak", MHT,
         [sub("  h_tmp_values = (V*)malloc(cap * dim * sizeof(V));\n",
              "  h_tmp_values = (V*)malloc(cap * dim * sizeof(V));\n"
              "  CUDA_CHECK(cudaHostRegister(h_tmp_values, cap * dim * sizeof(V), cudaHostRegisterDefault));\n")],
         "CheckInsertOrAssignValues pins its malloc'd staging array of exported vectors "
         "for the downloads and frees it at the end without cudaHostUnregister"),
    edit("hb4kv-batchfind-registered-then-freed", "host-register-leak", IAE,
         [sub("  CUDA_CHECK(cudaStreamSynchronize(stream));\n"
              "\n"
              "  h_tmp_keys = (K*)malloc(cap * sizeof(K));\n",
              "  CUDA_CHECK(cudaStreamSynchronize(stream));\n"
              "\n"
              "  h_tmp_keys = (K*)malloc(cap * sizeof(K));\n"
              "  CUDA_CHECK(cudaHostRegister(h_tmp_keys, cap * sizeof(K), cudaHostRegisterDefault));\n")],
         "BatchCheckFind registers its malloc'd key staging array for the per-step "
         "downloads and frees it when the finder thread ends, still registered"),
    # dealloc-mismatch
    edit("hb4kv-missed-indices-free", "dealloc-mismatch", FMK,
         [sub("  CUDA_CHECK(cudaFreeHost(h_missed_indices));\n",
              "  free(h_missed_indices);\n")],
         "the pinned missed-indices array (cudaMallocHost) released with free"),
    edit("hb4kv-pipeline-found-free", "dealloc-mismatch", MHT,
         [sub("  CUDA_CHECK(cudaFreeHost(h_found));\n"
              "\n"
              "  CUDA_CHECK(cudaFree(d_keys));\n"
              "  CUDA_CHECK(cudaFree(d_scores));\n"
              "  CUDA_CHECK(cudaFree(d_vectors));\n"
              "  CUDA_CHECK(cudaFree(d_found));\n"
              "  CUDA_CHECK(cudaDeviceSynchronize());\n"
              "\n"
              "  CudaCheckError();\n"
              "}\n"
              "\n"
              "void test_basic_when_full(",
              "  free(h_found);\n"
              "\n"
              "  CUDA_CHECK(cudaFree(d_keys));\n"
              "  CUDA_CHECK(cudaFree(d_scores));\n"
              "  CUDA_CHECK(cudaFree(d_vectors));\n"
              "  CUDA_CHECK(cudaFree(d_found));\n"
              "  CUDA_CHECK(cudaDeviceSynchronize());\n"
              "\n"
              "  CudaCheckError();\n"
              "}\n"
              "\n"
              "void test_basic_when_full(")],
         "test_find_using_pipeline releases its pinned found-flags array (cudaMallocHost) "
         "with free"),
    # pinned-alloc-in-loop
    edit("hb4kv-missed-keys-pinned-per-round", "pinned-alloc-in-loop", FMK,
         [delete("  CUDA_CHECK(cudaMallocHost(&h_missed_keys, KEY_NUM * sizeof(K)));\n"),
          delete("  CUDA_CHECK(cudaFreeHost(h_missed_keys));\n"),
          sub("  for (int i = 0; i < TEST_TIMES; ++i) {\n",
              "  for (int i = 0; i < TEST_TIMES; ++i) {\n"
              "    CUDA_CHECK(cudaMallocHost(&h_missed_keys, KEY_NUM * sizeof(K)));\n"),
          sub("        }\n      }\n    }\n  }\n\n  CUDA_CHECK(cudaFreeHost(h_keys));\n",
              "        }\n      }\n    }\n    CUDA_CHECK(cudaFreeHost(h_missed_keys));\n  }\n\n"
              "  CUDA_CHECK(cudaFreeHost(h_keys));\n"),
          ],
         "the pinned array of missed keys allocated and released in every round of the "
         "lookup test instead of once around the loop"),
]
