"""Held-back injected bugs (sixth set) in clara-parabricks/GenomeWorks
(commit 9fd82325), NVIDIA's CUDA genomics SDK (C++17 with CUDA: cudapoa,
cudaaligner, cudaextender, cudamapper), named 'genomeworks' as the
held-back manifest names it. Only cudapoa, its partial-order-alignment
consensus library and app, is selected: cudaaligner and cudaextender keep
their host buffers in pinned_host_vector, a std::vector over
thrust/system/cuda/experimental/pinned_allocator.h, which CUDA 13's Thrust
no longer ships (nvcc 13 rejects every file that includes it), and
cudamapper drives its GPU work through classes of other translation units.

cudapoa's asynchronous host code is a class template, CudapoaBatch
(src/cudapoa_batch.cuh, instantiated by src/batch.cu), bound at construction
to a caller's stream (the app, src/main.cpp, passes stream 0; a library user
passes its own): a BatchBlock (src/allocate_block.hpp) cudaHostAlloc's one
pinned block per batch and carves it into the input, output and graph
arrays (window details, sequences, weights, lengths; consensus, coverage,
MSA rows; graph nodes and edges); generate_poa uploads the filled input
arrays with cudaMemcpyAsync on the batch's stream and launches the POA
kernels there; get_consensus, get_msa and get_graphs queue the downloads
into the pinned output arrays, wait with cudaStreamSynchronize and parse
them. Built as C++17 with nvcc (-std=c++14 in cudapoa's CMake for .cu,
C++17 for the host; --expt-relaxed-constexpr per its CMake comment, not in
the flags it sets), include dirs common/base/include and cudapoa/include.

One stream per batch and no loop that issues on several streams: no
sync-in-loop or default-stream edit is written (the library's streams are
the caller's, and make_cuda_stream, common/base, creates them
cudaStreamNonBlocking, so legacy-stream work beside them would race rather
than serialize).

Real bugs of the seven kinds noticed while reading the pristine code, all
outside the selected files: pageable copies in cudaextender,
src/ungapped_xdrop.cu:176 (set_device_value_async from the member
total_scored_segment_pairs_), :202 (h_seed_pairs, a std::vector) and :220
(the download into the std::vector h_ssp_); cudaaligner's
batched_device_matrices.cuh:250 (get_matrix downloads into a host matrix of
std::vector storage). In cudapoa: none.
"""
from . import edit, sub, after, before, delete

R = "genomeworks:cudapoa/src/"
BATCH = R + "cudapoa_batch.cuh"
BLOCK = R + "allocate_block.hpp"
# Both headers are compiled by batch.cu (CudapoaBatch's members are a class
# template's: linted on their own, the headers instantiate nothing).
UNIT = R + "batch.cu"

BLOCK_ALLOC = ("        GW_CU_CHECK_ERR(cudaHostAlloc((void**)&block_data_h_, total_h_, "
               "cudaHostAllocDefault));\n")
BLOCK_FREE = "        GW_CU_CHECK_ERR(cudaFreeHost(block_data_h_));\n"

EDITS = [
    edit("hb6gw-poa-consensus-read-before-wait", "unsynchronized-access", BATCH,
         [sub("                                        stream_));\n"
              "        GW_CU_CHECK_ERR(cudaStreamSynchronize(stream_));\n"
              "\n"
              "        msg = \" Finished memcpy D2H on device \";\n",
              "                                        stream_));\n"
              "\n"
              "        msg = \" Finished memcpy D2H on device \";\n")],
         "get_consensus no longer waits for the batch's stream after queuing the consensus "
         "and coverage downloads: the host reads the pinned consensus rows (c[0], the "
         "kernel's error flag, then the string) while the cudaMemcpyAsync into them may "
         "still be in flight",
         at="            if (static_cast<uint8_t>(c[0]) == CUDAPOA_KERNEL_ERROR_ENCOUNTERED)\n"
            "            {\n"
            "                decode_cudapoa_kernel_error(static_cast<genomeworks::cudapoa::StatusType>"
            "(c[1]), output_status);\n"
            "                // push back empty placeholder",
         unit=UNIT),
    edit("hb6gw-poa-msa-read-before-wait", "unsynchronized-access", BATCH,
         [sub("        GW_CU_CHECK_ERR(cudaStreamSynchronize(stream_));\n"
              "\n"
              "        msg = \" Finished memcpy D2H on device for msa\";\n",
              "        msg = \" Finished memcpy D2H on device for msa\";\n")],
         "get_msa drops its stream wait: the MSA rows and consensus are parsed from the "
         "pinned output block while their downloads may still be running on the batch's "
         "stream",
         at="            msa.emplace_back(std::vector<std::string>());",
         unit=UNIT),
    edit("hb6gw-poa-graphs-read-before-wait", "unsynchronized-access", BATCH,
         [sub("        graphs.resize(poa_count_);\n"
              "\n"
              "        GW_CU_CHECK_ERR(cudaStreamSynchronize(stream_));\n",
              "        graphs.resize(poa_count_);\n")],
         "get_graphs reads the downloaded nodes, edges and sequence lengths without waiting "
         "for the batch's stream (the wait after graphs.resize is gone)",
         at="                int32_t seq_0_offset = input_details_h_->window_details[poa]"
            ".seq_len_buffer_offset;",
         unit=UNIT),
    edit("hb6gw-poa-window-details-after-upload", "unsynchronized-access", BATCH,
         [after("        GW_CU_CHECK_ERR(cudaMemcpyAsync(input_details_d_->window_details, "
                "input_details_h_->window_details,\n"
                "                                        poa_count_ * sizeof("
                "*input_details_h_->window_details), cudaMemcpyHostToDevice, stream_));\n",
                "        // the window table is rebuilt by add_poa for the next batch\n"
                "        std::fill(input_details_h_->window_details, "
                "input_details_h_->window_details + poa_count_, WindowDetails{});\n")],
         "generate_poa clears the pinned window table for the next batch right after "
         "queuing its upload: the host writes input_details_h_->window_details while the "
         "cudaMemcpyAsync reading it may still be in flight on the batch's stream",
         at="        std::fill(input_details_h_->window_details, "
            "input_details_h_->window_details + poa_count_, WindowDetails{});",
         unit=UNIT),
    edit("hb6gw-block-delete", "dealloc-mismatch", BLOCK,
         [sub(BLOCK_FREE, "        delete[] block_data_h_;\n")],
         "~BatchBlock releases the batch's cudaHostAlloc'd host block with delete[]",
         unit=UNIT),
    edit("hb6gw-block-new-freehost", "dealloc-mismatch", BLOCK,
         [sub(BLOCK_ALLOC, "        block_data_h_ = new uint8_t[total_h_];\n")],
         "BatchBlock allocates its host block with new[] but ~BatchBlock still releases it "
         "with cudaFreeHost",
         at=BLOCK_FREE.rstrip("\n"),
         unit=UNIT),
    edit("hb6gw-block-registered", "host-register-leak", BLOCK,
         [sub(BLOCK_ALLOC,
              "        block_data_h_ = new uint8_t[total_h_];\n"
              "        GW_CU_CHECK_ERR(cudaHostRegister(block_data_h_, total_h_, "
              "cudaHostRegisterDefault));\n"),
          sub(BLOCK_FREE, "        delete[] block_data_h_;\n")],
         "BatchBlock news its host block and pins it with cudaHostRegister; ~BatchBlock "
         "deletes it without cudaHostUnregister",
         at="        delete[] block_data_h_;",
         unit=UNIT),
]
