"""Held-back injected bugs (fourth set) in asbschmidt/CUDASW4 (commit
37a394c3), CUDASW++4.0: protein database search (Smith-Waterman with
BLOSUM matrices) on one or several GPUs. The host side is the class
CudaSW4 in src/cudasw4.cuh (included by src/main.cu): RAII wrappers for
streams, events and pinned or device buffers (hpc_helpers/, where
SimpleAllocationPinnedHost allocates with cudaMallocHost), one created
stream per GPU (gpuStreams), per-GPU working sets with two copy streams,
ten work streams and a host-callback stream, a double-buffered upload of
database batches through pinned buffers (pinnedBufferEvents and
deviceBufferEvents order the reuse), fork/join of the streams with events,
and a final download of the top results into pinned members on the master
stream. The database itself is mmap'd (MappedFile) and, when it fits, copied
to the GPUs directly from the mapping. Built with C++17 and -rdc; no macros.
The repository is named 'cudasw4' as the held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code:

- src/cudasw4.cuh:225-228, pageable-copy: the DeviceGpuPartitionOffsets
  constructor uploads the partition tables from HostGpuPartitionOffsets'
  std::vector members with cudaMemcpyAsync on cudaStreamLegacy: staged,
  synchronous copies (small, at set-up).
- src/cudasw4.cuh:1299 with src/main.cu:302-304, pageable-copy: setQuery
  uploads each query with cudaMemcpyAsync(cudaMemcpyDefault) from the
  caller's pointer, which main passes into batchOfQueries.chars, a
  std::vector<char>: a small staged copy per query.
- src/dbbatching.cuh:63-83, pageable-copy by design: executeCopyPlanH2DDirect
  copies database batches to the device with cudaMemcpyAsync straight from
  the mmap'd database (pageable), which is what the pinned double buffer of
  the other path avoids.
"""
from . import edit, sub, after, before, delete

SW = "cudasw4:src/cudasw4.cuh"
MAIN = "cudasw4:src/main.cu"

EDITS = [
    # pageable-copy
    edit("hb4sw-final-scores-vector", "pageable-copy", SW,
         [sub("        MyPinnedBuffer<float> h_finalAlignmentScores;\n",
              "        std::vector<float> h_finalAlignmentScores;\n")],
         "the host copy of the final top scores made a std::vector member instead of a "
         "pinned buffer: the download of the results on the master stream at the end of "
         "every scan is a pageable copy, staged and synchronous",
         at="            cudaMemcpyAsync(\n                h_finalAlignmentScores.data(), "),
    edit("hb4sw-overflow-count-vector", "pageable-copy", SW,
         [sub("        MyPinnedBuffer<int> h_resultNumOverflows;\n",
              "        std::vector<int> h_resultNumOverflows;\n")],
         "the host copy of the overflow count made a std::vector member: its download "
         "beside the top results is a pageable copy",
         at="            cudaMemcpyAsync(\n                h_resultNumOverflows.data(), "),
    # default-stream
    edit("hb4sw-query-padding-legacy", "default-stream", SW,
         [sub("                cudaMemsetAsync(ws.d_query.data() + currentQueryLength, 20, currentQueryLengthWithPadding - currentQueryLength, gpuStreams[gpu]);\n",
              "                cudaMemsetAsync(ws.d_query.data() + currentQueryLength, 20, currentQueryLengthWithPadding - currentQueryLength);\n")],
         "setQuery pads each GPU's query buffer with a cudaMemsetAsync on the legacy "
         "stream (stream argument dropped) in its loop over the GPUs: the next GPU's "
         "query upload on its own stream waits for it"),
    edit("hb4sw-query-upload-legacy", "default-stream", SW,
         [sub("                cudaMemcpyAsync(ws.d_query.data(), query, currentQueryLength, cudaMemcpyDefault, gpuStreams[gpu]); CUERR\n",
              "                cudaMemcpyAsync(ws.d_query.data(), query, currentQueryLength, cudaMemcpyDefault, 0); CUERR\n")],
         "setQuery uploads the query to each GPU on the legacy stream instead of that "
         "GPU's stream, so the per-GPU conversions and the next GPU's padding wait for it"),
    edit("hb4sw-overflow-reset-legacy", "default-stream", SW,
         [sub("                cudaMemsetAsync(ws.d_total_overflow_number.data(), 0, sizeof(int), gpuStreams[gpu]);\n",
              "                cudaMemsetAsync(ws.d_total_overflow_number.data(), 0, sizeof(int));\n")],
         "processQueryOnGpus resets each GPU's overflow counter on the legacy stream "
         "(stream argument dropped): the result-list reset and the fork of the work "
         "streams that follow on the GPU's stream wait for it"),
    # sync-in-loop
    edit("hb4sw-query-upload-waited-per-gpu", "sync-in-loop", SW,
         [sub("                //NW_convert_protein_single<<<SDIV(queryLength, 128), 128, 0, gpuStreams[gpu]>>>(ws.d_query.data(), queryLength); CUERR\n",
              "                //NW_convert_protein_single<<<SDIV(queryLength, 128), 128, 0, gpuStreams[gpu]>>>(ws.d_query.data(), queryLength); CUERR\n"
              "                cudaStreamSynchronize(gpuStreams[gpu]); CUERR\n")],
         "setQuery waits for each GPU's padding, upload and conversion before it moves on "
         "to the next GPU, so the GPUs receive the query one after the other"),
    edit("hb4sw-reset-waited-per-gpu", "sync-in-loop", SW,
         [sub("                ws.resetBatchResultList(gpuStreams[gpu]);\n",
              "                ws.resetBatchResultList(gpuStreams[gpu]);\n"
              "                cudaStreamSynchronize(gpuStreams[gpu]); CUERR;\n")],
         "processQueryOnGpus waits for each GPU's counter and result-list resets inside "
         "its loop over the GPUs before forking that GPU's work streams"),
    # pinned-alloc-in-loop
    edit("hb4sw-query-pinned-per-query", "pinned-alloc-in-loop", MAIN,
         [sub("                const char* sequence = batchOfQueries.chars.data() + offset;\n"
              "                ScanResult scanResult = cudaSW4.scan(sequence, length);\n",
              "                char* sequence = nullptr;\n"
              "                cudaMallocHost(&sequence, length);\n"
              "                std::copy_n(batchOfQueries.chars.data() + offset, length, sequence);\n"
              "                ScanResult scanResult = cudaSW4.scan(sequence, length);\n"
              "                cudaFreeHost(sequence);\n")],
         "main pins a copy of every query (cudaMallocHost) for its upload in scan() and "
         "releases it after the scan, in the loop over the queries"),
]
