"""Held-back injected bugs (third set) in AstroAccelerateOrg/astro-accelerate
(commit 0dc2cd08), its CUDA sources (src/*.cu): a radio-astronomy pipeline
(dedispersion, single-pulse, Fourier-domain acceleration and periodicity
searches) whose host code mostly uses blocking copies, plus a few helpers
that stage through pinned memory: an OpenMP team in which each thread owns
one of 16 created streams and one slot of a cudaMallocHost staging buffer
(save_data_offset_stream), and a statistics helper that downloads two
partial sums on the caller's stream into pinned buffers. Built with the
repository's include directory; deviceProp.clockRate/memoryClockRate
(removed in CUDA 13) are mapped to existing fields by the manifest's
defines, as for xmrig-cuda. The repository is named 'astroaccelerate' as the
held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code:

- src/aa_device_save_data.cu:29 and :58, pinned-alloc-in-loop across
  translation units: save_data_offset_stream pins (and creates 16 streams)
  on every call, and it is called from run_pipeline
  (include/aa_permitted_pipelines_generic.hpp:837), which the user calls
  again and again, once per time chunk and DM range. The same shape:
  src/aa_device_periods.cu:270/300 (Copy_data_for_periodicity_search,
  called for every batch in the loop at src/aa_device_periods.cu:608-616).
  src/aa_device_stats.cu:41/48 (stats_gpu) pins per call too, but nothing
  calls it any more.

Doubtful: five files (aa_device_acceleration_fdas.cu, aa_device_analysis.cu,
aa_device_jerk_search.cu, aa_device_peak_find.cu, aa_device_periods.cu)
include npp.h through aa_device_peak_find.hpp, and NPP is not installed
here, so no edit is in them.
"""
from . import edit, sub, after, before, delete

R = "astroaccelerate:src/"
SAVE = R + "aa_device_save_data.cu"
STATS = R + "aa_device_stats.cu"
FDAS = R + "aa_fdas_host.cu"

SAVE_LOOP_BODY = (
    "\t\tcudaMemcpyAsync(h_array_pinned + id_stream*stream_offset, d_DDTR_output + device_offset, "
    "data_size, cudaMemcpyDeviceToHost, stream_copy[id_stream]);\n"
    "\t\tcudaStreamSynchronize(stream_copy[id_stream]);\n"
    "\t\tmemcpy(output_buffer[dm_range][k] + host_offset, h_array_pinned + id_stream*stream_offset, "
    "data_size);\n")

EDITS = [
    # pageable-copy
    edit("hb3aa-ddtr-staging-malloc", "pageable-copy", SAVE,
         [sub("\te = cudaMallocHost((void **) &h_array_pinned, data_size*nStreams);\n",
              "\th_array_pinned = (float *) malloc(data_size*nStreams);\n"
              "\te = (h_array_pinned == NULL) ? cudaErrorMemoryAllocation : cudaSuccess;\n"),
          sub("\te = cudaFreeHost(h_array_pinned);\n",
              "\tfree(h_array_pinned);\n"
              "\te = cudaSuccess;\n")],
         "the 16-slot staging of the dedispersed output allocated with malloc: every "
         "thread's cudaMemcpyAsync on its own stream goes to pageable memory, is "
         "staged by the driver and no longer overlaps the others"),
    edit("hb3aa-stats-sum-malloc", "pageable-copy", STATS,
         [sub("    e = cudaMallocHost((void** )&h_sum, size * sizeof(float));\n",
              "    h_sum = (float *) malloc(size * sizeof(float));\n"),
          sub("    cudaFreeHost(h_sum);\n", "    free(h_sum);\n")],
         "stats_gpu receives the partial sums in malloc'd memory: the "
         "cudaMemcpyAsync(h_sum, ..., stream) becomes a staged, synchronous copy"),

    # unsynchronized-access
    edit("hb3aa-ddtr-slot-read-before-wait", "unsynchronized-access", SAVE,
         [delete("\t\tcudaStreamSynchronize(stream_copy[id_stream]);\n")],
         "the wait on the thread's stream removed: the thread memcpy's its pinned "
         "slot into the output buffer while the DM trial's download into it may "
         "still be in flight",
         at="memcpy(output_buffer[dm_range][k] + host_offset"),
    edit("hb3aa-stats-sum-read-before-wait", "unsynchronized-access", STATS,
         [sub("    cudaEventRecord(event, stream);\n"
              "    cudaStreamSynchronize(stream);\n",
              "    cudaEventRecord(event, stream);\n")],
         "stats_gpu records the completion event but no longer waits for the stream "
         "before summing h_sum and h_sum_square on the host",
         at="\ttotal_sum += ( h_sum[a] );"),

    # pinned-alloc-in-loop
    edit("hb3aa-ddtr-slot-pinned-per-dm", "pinned-alloc-in-loop", SAVE,
         [sub(SAVE_LOOP_BODY,
              "\t\tfloat *h_slot;\n"
              "\t\tcudaMallocHost((void **) &h_slot, data_size);\n"
              "\t\tcudaMemcpyAsync(h_slot, d_DDTR_output + device_offset, data_size, "
              "cudaMemcpyDeviceToHost, stream_copy[id_stream]);\n"
              "\t\tcudaStreamSynchronize(stream_copy[id_stream]);\n"
              "\t\tmemcpy(output_buffer[dm_range][k] + host_offset, h_slot, data_size);\n"
              "\t\tcudaFreeHost(h_slot);\n")],
         "each OpenMP thread pins its own slot for every DM trial inside the loop and "
         "frees it after the copy, instead of using its slot of the shared staging"),

    # dealloc-mismatch
    edit("hb3aa-ddtr-staging-cudafree", "dealloc-mismatch", SAVE,
         [sub("\te = cudaFreeHost(h_array_pinned);\n",
              "\te = cudaFree(h_array_pinned);\n")],
         "the cudaMallocHost staging of the DDTR download released with cudaFree"),
    edit("hb3aa-stats-sumsq-free", "dealloc-mismatch", STATS,
         [sub("    cudaFreeHost(h_sum_square);\n", "    free(h_sum_square);\n")],
         "the pinned h_sum_square (cudaMallocHost) released with free"),

    # default-stream
    edit("hb3aa-stats-sum-legacy", "default-stream", STATS,
         [sub("    e = cudaMemcpyAsync(h_sum, d_sum, size * sizeof(float), cudaMemcpyDeviceToHost, stream);\n",
              "    e = cudaMemcpyAsync(h_sum, d_sum, size * sizeof(float), cudaMemcpyDeviceToHost, 0);\n")],
         "the first partial-sum download issued on stream 0 while the second stays on "
         "the caller's stream: it waits for the legacy copy, which waits for all the "
         "other streams' work"),

    # host-register-leak
    edit("hb3aa-fdas-peak-list-left-registered", "host-register-leak", FDAS,
         [after("      float *h_fdas_peak_list = (float*)malloc(list_size*4*sizeof(float));\n",
                "      cudaHostRegister(h_fdas_peak_list, list_size*4*sizeof(float), "
                "cudaHostRegisterDefault);\n")],
         "the FDAS peak list's malloc'd host copy registered to speed up its download "
         "and later freed without cudaHostUnregister"),
]
