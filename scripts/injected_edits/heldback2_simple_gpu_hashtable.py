"""Held-back injected bugs (second set) in nosferalatu/SimpleGPUHashTable
(commit d3f5b74f), a lock-free GPU hash table and its benchmark (src/):
each insert, lookup and delete uploads its batch with a blocking copy and
times its kernel with events on the legacy stream; main.cpp feeds the
batches in loops. The original has no streams or async copies, so most
edits add the small piece of pipelining or staging a developer could write
to speed the batches up. The repository is named 'simple-gpu-hashtable' as
the held-back manifest names it."""
from . import edit, sub, after, before, delete

R = "simple-gpu-hashtable:"
LP = R + "src/linearprobing.cu"
MAIN = R + "src/main.cpp"


def upload(op):
    """The start of insert_hashtable or delete_hashtable, up to its blocking
    upload of the batch."""
    return ("void %s_hashtable(KeyValue* pHashTable, const KeyValue* kvs, uint32_t num_kvs)\n"
            "{\n"
            "    // Copy the keyvalues to the GPU\n"
            "    KeyValue* device_kvs;\n"
            "    cudaMalloc(&device_kvs, sizeof(KeyValue) * num_kvs);\n"
            "    cudaMemcpy(device_kvs, kvs, sizeof(KeyValue) * num_kvs, cudaMemcpyHostToDevice);\n"
            % op)


def upload_later(op):
    return ("void %s_hashtable(KeyValue* pHashTable, const KeyValue* kvs, uint32_t num_kvs)\n"
            "{\n"
            "    // Allocate the keyvalues on the GPU; they are copied chunk by chunk below\n"
            "    KeyValue* device_kvs;\n"
            "    cudaMalloc(&device_kvs, sizeof(KeyValue) * num_kvs);\n" % op)


def chunks(kernel, stream_arg, sync):
    """Upload and run the batch in four chunks, alternating between two
    streams."""
    return ("    // Upload and process the batch in chunks, alternating between two streams\n"
            "    cudaStream_t streams[2];\n"
            "    cudaStreamCreate(&streams[0]);\n"
            "    cudaStreamCreate(&streams[1]);\n"
            "    const uint32_t num_chunks = 4;\n"
            "    uint32_t chunk = num_kvs / num_chunks;\n"
            "    int chunk_gridsize = (chunk + threadblocksize - 1) / threadblocksize;\n"
            "    for (uint32_t c = 0; c < num_chunks; c++)\n"
            "    {\n"
            "        cudaMemcpyAsync(device_kvs + c * chunk, kvs + c * chunk, sizeof(KeyValue) * chunk,\n"
            "            cudaMemcpyHostToDevice, streams[c %% 2]);\n"
            "        %s<<<chunk_gridsize, threadblocksize%s>>>(pHashTable, device_kvs + c * chunk, chunk);\n"
            "%s"
            "    }\n"
            "    cudaStreamDestroy(streams[0]);\n"
            "    cudaStreamDestroy(streams[1]);\n" % (kernel, stream_arg, sync))


INCLUDES = sub('#include "linearprobing.h"\n',
               '#include "linearprobing.h"\n#include "cuda_runtime.h"\n#include "string.h"\n')
INSERT_LOOP = ("        for (uint32_t i = 0; i < num_insert_batches; i++)\n"
               "        {\n"
               "            insert_hashtable(pHashTable, insert_kvs.data() + i * num_inserts_per_batch, "
               "num_inserts_per_batch);\n"
               "        }\n")
DELETE_LOOP = ("        for (uint32_t i = 0; i < num_delete_batches; i++)\n"
               "        {\n"
               "            delete_hashtable(pHashTable, delete_kvs.data() + i * num_deletes_per_batch, "
               "num_deletes_per_batch);\n"
               "        }\n")

EDITS = [
    # pageable-copy
    edit("hb2ht-iterate-async-vector", "pageable-copy", LP,
         [sub("    cudaMemcpy(kvs.data(), device_kvs, sizeof(KeyValue) * num_kvs, cudaMemcpyDeviceToHost);\n",
              "    cudaMemcpyAsync(kvs.data(), device_kvs, sizeof(KeyValue) * num_kvs, "
              "cudaMemcpyDeviceToHost, 0);\n")],
         "iterate_hashtable's readback into the std::vector it returns made cudaMemcpyAsync"),

    # dealloc-mismatch
    edit("hb2ht-iterate-count-pinned-delete", "dealloc-mismatch", LP,
         [sub("    uint32_t num_kvs;\n"
              "    cudaMemcpy(&num_kvs, device_num_kvs, sizeof(uint32_t), cudaMemcpyDeviceToHost);\n",
              "    uint32_t* h_num_kvs;\n"
              "    cudaMallocHost(&h_num_kvs, sizeof(uint32_t));\n"
              "    cudaMemcpy(h_num_kvs, device_num_kvs, sizeof(uint32_t), cudaMemcpyDeviceToHost);\n"
              "    uint32_t num_kvs = *h_num_kvs;\n"
              "    delete h_num_kvs;\n")],
         "iterate_hashtable reads the item count through a pinned word, then releases "
         "it with delete"),

    # host-register-leak
    edit("hb2ht-delete-staging-register", "host-register-leak", LP,
         [sub(upload("delete"),
              "void delete_hashtable(KeyValue* pHashTable, const KeyValue* kvs, uint32_t num_kvs)\n"
              "{\n"
              "    // Copy the keyvalues to the GPU, through a pinned staging copy\n"
              "    KeyValue* device_kvs;\n"
              "    cudaMalloc(&device_kvs, sizeof(KeyValue) * num_kvs);\n"
              "    KeyValue* staging = (KeyValue*)malloc(sizeof(KeyValue) * num_kvs);\n"
              "    memcpy(staging, kvs, sizeof(KeyValue) * num_kvs);\n"
              "    cudaHostRegister(staging, sizeof(KeyValue) * num_kvs, cudaHostRegisterDefault);\n"
              "    cudaMemcpyAsync(device_kvs, staging, sizeof(KeyValue) * num_kvs, "
              "cudaMemcpyHostToDevice, 0);\n"),
          sub("        num_kvs, milliseconds, num_kvs / (double)seconds / 1000000.0f);\n\n"
              "    cudaFree(device_kvs);\n}\n\n// Iterate",
              "        num_kvs, milliseconds, num_kvs / (double)seconds / 1000000.0f);\n\n"
              "    free(staging);\n"
              "    cudaFree(device_kvs);\n}\n\n// Iterate")],
         "delete_hashtable copies the batch into a malloc'd staging buffer it registers "
         "for the async upload, and frees it without cudaHostUnregister"),

    # unsynchronized-access
    edit("hb2ht-lookup-readback-no-wait", "unsynchronized-access", LP,
         [after("    gpu_hashtable_lookup << <gridsize, threadblocksize >> > "
                "(pHashTable, device_kvs, (uint32_t)num_kvs);\n",
                "\n"
                "    // Copy the values found back to the caller, and count the misses\n"
                "    cudaMemcpyAsync(kvs, device_kvs, sizeof(KeyValue) * num_kvs, "
                "cudaMemcpyDeviceToHost, 0);\n"
                "    uint32_t num_missing = 0;\n"
                "    for (uint32_t i = 0; i < num_kvs; i++)\n"
                "        if (kvs[i].value == kEmpty) num_missing++;\n")],
         "lookup_hashtable (which never copied its results back) gets an async readback "
         "of the values into the caller's array, and counts the misses in it at once",
         at="        if (kvs[i].value == kEmpty) num_missing++;"),

    edit("hb2ht-iterate-count-async-no-wait", "unsynchronized-access", LP,
         [sub("    uint32_t num_kvs;\n"
              "    cudaMemcpy(&num_kvs, device_num_kvs, sizeof(uint32_t), cudaMemcpyDeviceToHost);\n\n"
              "    std::vector<KeyValue> kvs;\n"
              "    kvs.resize(num_kvs);\n",
              "    uint32_t* h_num_kvs;\n"
              "    cudaMallocHost(&h_num_kvs, sizeof(uint32_t));\n"
              "    cudaMemcpyAsync(h_num_kvs, device_num_kvs, sizeof(uint32_t), "
              "cudaMemcpyDeviceToHost, 0);\n"
              "    uint32_t num_kvs = *h_num_kvs;\n\n"
              "    std::vector<KeyValue> kvs;\n"
              "    kvs.resize(num_kvs);\n"),
          sub("    cudaFree(device_kvs);\n    cudaFree(device_num_kvs);\n",
              "    cudaFree(device_kvs);\n    cudaFree(device_num_kvs);\n"
              "    cudaFreeHost(h_num_kvs);\n")],
         "iterate_hashtable reads the item count back with cudaMemcpyAsync into a pinned "
         "word and sizes the result vector from it before any wait",
         at="    uint32_t num_kvs = *h_num_kvs;"),

    # pinned-alloc-in-loop
    edit("hb2ht-insert-batch-pinned", "pinned-alloc-in-loop", MAIN,
         [INCLUDES,
          sub(INSERT_LOOP,
              "        for (uint32_t i = 0; i < num_insert_batches; i++)\n"
              "        {\n"
              "            KeyValue* batch;\n"
              "            cudaMallocHost(&batch, sizeof(KeyValue) * num_inserts_per_batch);\n"
              "            memcpy(batch, insert_kvs.data() + i * num_inserts_per_batch,\n"
              "                sizeof(KeyValue) * num_inserts_per_batch);\n"
              "            insert_hashtable(pHashTable, batch, num_inserts_per_batch);\n"
              "            cudaFreeHost(batch);\n"
              "        }\n")],
         "main stages each insert batch in pinned memory allocated and freed in every "
         "iteration of the batch loop"),
    edit("hb2ht-delete-batch-register", "pinned-alloc-in-loop", MAIN,
         [INCLUDES,
          sub(DELETE_LOOP,
              "        for (uint32_t i = 0; i < num_delete_batches; i++)\n"
              "        {\n"
              "            KeyValue* batch = delete_kvs.data() + i * num_deletes_per_batch;\n"
              "            cudaHostRegister(batch, sizeof(KeyValue) * num_deletes_per_batch,\n"
              "                cudaHostRegisterDefault);\n"
              "            delete_hashtable(pHashTable, batch, num_deletes_per_batch);\n"
              "            cudaHostUnregister(batch);\n"
              "        }\n")],
         "main pins each delete batch of the vector with cudaHostRegister for its upload "
         "and unpins it, in every iteration of the batch loop"),

    # sync-in-loop
    edit("hb2ht-insert-chunks-wait-each", "sync-in-loop", LP,
         [sub(upload("insert"), upload_later("insert")),
          sub("    gpu_hashtable_insert<<<gridsize, threadblocksize>>>"
              "(pHashTable, device_kvs, (uint32_t)num_kvs);\n",
              chunks("gpu_hashtable_insert", ", 0, streams[c % 2]",
                     "        cudaStreamSynchronize(streams[c % 2]);\n"))],
         "insert_hashtable uploads and inserts its batch in chunks on two streams, but "
         "waits for each chunk's stream before issuing the next chunk"),

    # default-stream
    edit("hb2ht-delete-chunks-kernel-legacy", "default-stream", LP,
         [sub(upload("delete"), upload_later("delete")),
          sub("    gpu_hashtable_delete<< <gridsize, threadblocksize >> > "
              "(pHashTable, device_kvs, (uint32_t)num_kvs);\n",
              chunks("gpu_hashtable_delete", "", ""))],
         "delete_hashtable uploads its batch in chunks on two streams, but launches each "
         "chunk's kernel on the legacy stream, which the next chunk's upload waits for"),
]
