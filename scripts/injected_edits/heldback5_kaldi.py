"""Held-back injected bugs (fifth set) in kaldi-asr/kaldi (commit
f4007661), the speech-recognition toolkit, through its CUDA decoder and
feature-extraction code (src/cudadecoder, src/cudafeat, the batched
binaries of src/cudafeatbin and src/cudadecoderbin, and the copy paths of
src/cudamatrix). The host code is C++ classes around pinned members and a
pair of created streams: CudaDecoder (cuda-decoder.cc) keeps lane and
channel counters and concatenated token data in cudaMallocHost'd members,
computes on compute_st_ and downloads on copy_st_ (both cudaStreamCreate),
joined by events (concatenated_data_ready_evt_, d2h_copy_*_evt_) and by
std::swap'd double buffers; BatchedStaticNnet3 and
OnlineBatchedFeaturePipelineCuda upload a pinned descriptor array on
cudaStreamPerThread and guard its reuse with an event; the batched
feature binaries register Kaldi Matrix staging buffers with
cudaHostRegister and pipeline chunks over non-blocking htod/dtoh streams,
cudaStreamPerThread and a ring of per-pipeline events; cudamatrix copies
with cudaMemcpy(2D)Async on cudaStreamPerThread followed by a stream wait.
Built with HAVE_CUDA=1, KALDI_DOUBLEPRECISION=0 and HAVE_OPENBLAS
(OpenBLAS and LAPACKE headers, and OpenFst from Debian's libfst-dev).
The repository is named 'kaldi' as the held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code:

- src/cudadecoder/cuda-decoder.cc:395-399, unsynchronized-access:
  ComputeInitialChannel issues the cudaMemcpyAsync of lane 0's counters
  from the pinned h_lanes_counters_ to the device on compute_st_ and writes
  h_lanes_counters_.lane(0)->main_q_narcs_and_end.y = 0 on the next line,
  while the copy may still be reading it (and again at :407 for
  post_expand_aux_q_end).
- src/cudamatrix/cu-block-matrix.cc:150, src/cudafeat/feature-online-
  batched-ivector-cuda.cc:102-105, feature-online-batched-spectral-cuda.cc:56
  and src/cudafeatbin/compute-mfcc-online-batched-cuda.cc:238,
  pageable-copy: cudaMemcpyAsync from a std::vector (then a stream wait or
  nothing), staged and synchronous; small descriptor arrays.
- Not of the seven kinds: cudafeatbin/compute-mfcc-online-batched-cuda.cc
  downloads into the registered h_batch_feats_out and never reads it (the
  slices are copied from the device matrix instead).
"""
from . import edit, sub, after, before, delete

R = "kaldi:src/"
PIPE = R + "cudafeat/online-batched-feature-pipeline-cuda.cc"
STATIC = R + "cudadecoder/batched-static-nnet3.cc"
DEC = R + "cudadecoder/cuda-decoder.cc"
MFCC = R + "cudafeatbin/compute-mfcc-online-batched-cuda.cc"
FBANK = R + "cudafeatbin/compute-fbank-online-batched-cuda.cc"
FEATS = R + "cudafeatbin/compute-online-feats-batched-cuda.cc"

LANES_ALLOC = ("  CU_SAFE_CALL(\n"
               "      cudaMallocHost((void **)&h_lanes_, sizeof(LaneDesc) * max_lanes_));\n")
LANES_FREE = "  CU_SAFE_CALL(cudaFreeHost(h_lanes_));\n"
WAV_REG = "    cudaHostRegister(h_batch_wav_in.Data(), wave_in_size, 0);\n"
WAV_UNREG = "    cudaHostUnregister(h_batch_wav_in.Data());\n"
WAV_COPY = ("      // use a memcpy here to avoid a possible 2D memcpy which is very slow\n"
            "      cudaMemcpyAsync(d_batch_wav_in.Data(), h_batch_wav_in.Data(),\n")
WAV_WAIT = "      cudaStreamSynchronize(cudaStreamPerThread);\n"

EDITS = [
    # ---- OnlineBatchedFeaturePipelineCuda: pinned lane descriptors
    edit("hb5kd-pipeline-lanes-delete", "dealloc-mismatch", PIPE,
         [sub(LANES_FREE, "  delete[] h_lanes_;\n")],
         "the feature pipeline's destructor releases the cudaMallocHost'd lane descriptor "
         "array with delete[], like current_samples_stash_ next to it"),
    edit("hb5kd-pipeline-lanes-new", "pageable-copy", PIPE,
         [sub(LANES_ALLOC, "  h_lanes_ = new LaneDesc[max_lanes_];\n"),
          sub(LANES_FREE, "  delete[] h_lanes_;\n")],
         "the lane descriptors are allocated with new[]: their upload in "
         "ComputeFeaturesBatched (cudaMemcpyAsync on cudaStreamPerThread, guarded by an "
         "event meant for a pinned buffer) is staged and synchronous",
         at="cudaMemcpyAsync(lanes_, h_lanes_, sizeof(LaneDesc) * num_lanes,"),

    # ---- BatchedStaticNnet3: pinned batch slot assignments
    edit("hb5kd-static-slots-registered", "host-register-leak", STATIC,
         [sub("  cudaMallocHost(&h_batch_slot_assignement_,\n"
              "                 max_batch_size_ * sizeof(*h_batch_slot_assignement_));\n",
              "  h_batch_slot_assignement_ = new BatchSlotAssignment[max_batch_size_];\n"
              "  cudaHostRegister(h_batch_slot_assignement_,\n"
              "                   max_batch_size_ * sizeof(*h_batch_slot_assignement_),\n"
              "                   cudaHostRegisterDefault);\n"),
          sub("  CU_SAFE_CALL(cudaFreeHost(h_batch_slot_assignement_));\n",
              "  delete[] h_batch_slot_assignement_;\n")],
         "Allocate() news the batch slot assignments and pins them with cudaHostRegister; "
         "Deallocate() deletes them without cudaHostUnregister",
         at="  delete[] h_batch_slot_assignement_;"),

    edit("hb5kd-static-slots-new", "pageable-copy", STATIC,
         [sub("  cudaMallocHost(&h_batch_slot_assignement_,\n"
              "                 max_batch_size_ * sizeof(*h_batch_slot_assignement_));\n",
              "  h_batch_slot_assignement_ = new BatchSlotAssignment[max_batch_size_];\n"),
          sub("  CU_SAFE_CALL(cudaFreeHost(h_batch_slot_assignement_));\n",
              "  delete[] h_batch_slot_assignement_;\n")],
         "the batch slot assignments are allocated with new[]: their upload in "
         "BatchContextSwitch (cudaMemcpyAsync on st_, followed by an event meant to guard "
         "the pinned buffer's reuse) is staged and synchronous",
         at="cudaMemcpyAsync(d_batch_slot_assignement_, h_batch_slot_assignement_,"),
    # ---- CudaDecoder
    edit("hb5kd-decoder-channel-counters-free", "dealloc-mismatch", DEC,
         [sub("  KALDI_DECODER_CUDA_API_CHECK_ERROR(cudaFreeHost(h_channels_counters_));\n",
              "  free(h_channels_counters_);\n")],
         "the decoder's destructor releases the cudaMallocHost'd channel counters with free"),
    edit("hb5kd-decoder-acoustic-d2h-legacy", "default-stream", DEC,
         [sub("        nelements_acoustic_costs * sizeof(*d_acoustic_cost_concat_),\n"
              "        cudaMemcpyDeviceToHost, copy_st_));\n",
              "        nelements_acoustic_costs * sizeof(*d_acoustic_cost_concat_),\n"
              "        cudaMemcpyDeviceToHost));\n")],
         "LaunchD2HCopies issues the acoustic-cost download without its stream, on the "
         "legacy default stream: the info-token and extra-token downloads on copy_st_ (and "
         "the next frame's kernels on compute_st_) wait for it"),
    edit("hb5kd-decoder-counters-async-before-overflow-check", "unsynchronized-access", DEC,
         [sub("  CopyLaneCountersToHostSync();\n  CheckOverflow();\n",
              "  CopyLaneCountersToHostAsync();\n  CheckOverflow();\n")],
         "AdvanceDecoding downloads the lane counters with the async variant and checks them "
         "for overflow at once: CheckOverflow reads h_lanes_counters_ while the "
         "cudaMemcpyAsync into it on compute_st_ may still be in flight",
         at="  CheckOverflow();"),
    edit("hb5kd-decoder-initial-counters-async", "unsynchronized-access", DEC,
         [sub("  ConcatenateData();\n  CopyLaneCountersToHostSync();\n",
              "  ConcatenateData();\n  CopyLaneCountersToHostAsync();\n")],
         "ComputeInitialChannel reads the initial lane's main queue end right after an "
         "async download of the lane counters on compute_st_",
         at="h_lanes_counters_.lane(kLane0)->main_q_narcs_and_end.y;"),

    # ---- batched MFCC / fbank binaries: a registered staging matrix
    edit("hb5kd-mfcc-register-per-batch", "pinned-alloc-in-loop", MFCC,
         [delete(WAV_REG), delete(WAV_UNREG),
          before(WAV_COPY, "      cudaHostRegister(h_batch_wav_in.Data(), wave_in_size, 0);\n"),
          after(WAV_WAIT, "      cudaHostUnregister(h_batch_wav_in.Data());\n")],
         "the batched MFCC binary registers its wave staging matrix for every batch (and "
         "unregisters it after the batch's wait) instead of once before the batching loop",
         at="      cudaHostRegister(h_batch_wav_in.Data(), wave_in_size, 0);"),
    edit("hb5kd-fbank-register-per-batch", "pinned-alloc-in-loop", FBANK,
         [delete(WAV_REG), delete(WAV_UNREG),
          before(WAV_COPY, "      cudaHostRegister(h_batch_wav_in.Data(), wave_in_size, 0);\n"),
          after(WAV_WAIT, "      cudaHostUnregister(h_batch_wav_in.Data());\n")],
         "the batched fbank binary registers its wave staging matrix for every batch and "
         "unregisters it at the end of the batch",
         at="      cudaHostRegister(h_batch_wav_in.Data(), wave_in_size, 0);"),

    # ---- batched online features: htod / compute / dtoh pipeline
    edit("hb5kd-feats-reregister-per-chunk", "pinned-alloc-in-loop", FEATS,
         [sub("      cudaEventSynchronize(pipeline_events[p]);\n",
              "      cudaEventSynchronize(pipeline_events[p]);\n"
              "      cudaHostUnregister(h_batch_feats_out[p].Data());\n"
              "      cudaHostRegister(h_batch_feats_out[p].Data(), feats_out_size, 0);\n")],
         "each chunk re-registers its pipeline's feature staging matrix (unregister, "
         "register) before the chunk's work and download, a page-locking per chunk",
         at="      cudaHostRegister(h_batch_feats_out[p].Data(), feats_out_size, 0);\n\n"),
    edit("hb5kd-feats-wait-download-per-chunk", "sync-in-loop", FEATS,
         [sub("      cudaEventRecord(pipeline_events[p], dtoh);\n",
              "      cudaEventRecord(pipeline_events[p], dtoh);\n"
              "      cudaStreamSynchronize(dtoh);\n")],
         "the chunk loop waits for each chunk's download (and callback) on dtoh before "
         "filling the next pipeline: the pipelines no longer overlap",
         at="      cudaStreamSynchronize(dtoh);"),
    edit("hb5kd-feats-wait-upload-per-chunk", "sync-in-loop", FEATS,
         [sub("      // ensure computation doesn't begin till copy is done\n",
              "      cudaStreamSynchronize(htod);\n"
              "      // ensure computation doesn't begin till copy is done\n")],
         "the chunk loop waits on the host for each chunk's wave upload on htod, though "
         "the event below already orders the computation after it",
         at="      cudaStreamSynchronize(htod);"),
    edit("hb5kd-feats-refill-before-pipeline-done", "unsynchronized-access", FEATS,
         [sub("      // ensure previous work in this pipeline is complete\n"
              "      cudaEventSynchronize(pipeline_events[p]);\n",
              "      // ensure previous work in this pipeline is complete\n")],
         "the wait for the pipeline's previous chunk is dropped: the wave slices are copied "
         "into h_batch_wav_in[p] while that chunk's cudaMemcpyAsync on htod may still be "
         "reading it (the ring has num_pipelines slots)",
         at="        p_wave.CopyFromVec(h_wave);"),
    edit("hb5kd-pipeline-pin-waves-per-batch", "pinned-alloc-in-loop",
         R + "cudadecoder/batched-threaded-nnet3-cuda-pipeline.cc",
         [sub("  thread_local Vector<BaseFloat> pinned_vector;\n\n  if (pinned_vector.Dim() < count) {\n"
              "    // WAR:  Not pinning memory because it seems to impact\n"
              "    // correctness we are continuing to look into a fix but want to\n"
              "    // commit this workaround as a temporary measure.\n"
              "    if (pinned_vector.Dim() != 0) {\n      cudaHostUnregister(pinned_vector.Data());\n    }\n\n"
              "    // allocated array 2x size\n    pinned_vector.Resize(count * 2, kUndefined);\n"
              "    cudaHostRegister(pinned_vector.Data(),\n"
              "                     pinned_vector.Dim() * sizeof(BaseFloat), 0);\n  }\n\n",
              "  Vector<BaseFloat> pinned_vector(count, kUndefined);\n"
              "  cudaHostRegister(pinned_vector.Data(),\n"
              "                   pinned_vector.Dim() * sizeof(BaseFloat), 0);\n\n"),
          sub(" \"Warning empty audio file\";\n    }\n  }\n  nvtxRangePop();\n}\n",
              " \"Warning empty audio file\";\n    }\n  }\n"
              "  cudaStreamSynchronize(cudaStreamPerThread);\n"
              "  cudaHostUnregister(pinned_vector.Data());\n  nvtxRangePop();\n}\n")],
         "ComputeBatchFeatures stages the batch's waves in a Vector registered with "
         "cudaHostRegister on every call (and unregistered before it returns) instead of the "
         "thread_local buffer that only grows; the worker loop calls it for every batch",
         at="  cudaHostRegister(pinned_vector.Data(),\n                   pinned_vector.Dim()"),
]
