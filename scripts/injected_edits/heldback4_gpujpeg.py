"""Held-back injected bugs (fourth set) in CESNET/GPUJPEG (commit
165477b9), a JPEG encoder and decoder on the GPU (a C library with CUDA
kernels, its command-line tool and tests). The host logic is C: a coder
struct per encoder or decoder holds pinned host arrays (cudaMallocHost:
components, segments, block lists, quantized data, raw image) mirrored on
the device, re-allocated when the image size grows, uploaded with
cudaMemcpyAsync on the coder's stream (the caller's, possibly 0), and a
compressed-data buffer that is malloc'd and only partly pinned with
cudaHostRegister (gpujpeg_cuda_memcpy_async_partially_pinned copies the
rest pageable, on purpose); the CUDA files hold the kernels and their
launchers (Huffman coders, DCT, pre/post-processors). The edits are in the
C sources (src/*.c, test/misc/mt_encode.c), which real-code.py's SOURCES
(.cu/.cpp/.cc/.cxx/.hip) does not list: the manifest's `only` names the
.cu files and these C files; the injection run lints each edited file
directly, as C. Include path: the repository root (`#include
<libgpujpeg/...>`). The repository is named 'gpujpeg' as the held-back
manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code:

- src/gpujpeg_dct_cpu.c:238 and :255, pinned-alloc-in-loop: the CPU IDCT
  path (gpujpeg_idct_cpu) allocates a pinned staging buffer with
  cudaMallocHost and frees it with cudaFreeHost once per color component,
  in its loop over the components (a debug path).
- src/gpujpeg_huffman_gpu_encoder.cu:1161 with src/gpujpeg_encoder.c:539-550:
  the GPU Huffman encoder returns with the byte count's cudaMemcpyAsync
  into the caller's `unsigned int output_size` (on its stack) not waited
  for, and the encoder reads output_size at once as the size of the next
  copy; correct only because the destination is pageable, so the copy is
  staged and synchronous (pageable-copy, across the two files).
- src/gpujpeg_common.c:2296-2302, pageable-copy by design: the part of the
  compressed buffer beyond data_compressed_pinned_sz is copied pageable.
- Not of the seven kinds: gpujpeg_image_load_from_file (gpujpeg_common.c:1244-1248)
  leaks the pinned buffer and the FILE on a short read; the image-convert
  helper (gpujpeg_common.c:1465-1494) never frees its encoder struct or its
  pinned `buffer`; test/misc/mt_encode.c's workers never destroy their streams.
"""
from . import edit, sub, after, before, delete

R = "gpujpeg:"
COMMON = R + "src/gpujpeg_common.c"
DEC = R + "src/gpujpeg_decoder.c"
ENC = R + "src/gpujpeg_encoder.c"
DCT = R + "src/gpujpeg_dct_cpu.c"
MAIN = R + "src/main.c"
MT = R + "test/misc/mt_encode.c"

EDITS = [
    # host-register-leak
    edit("hb4jp-print8-registered-then-freed", "host-register-leak", COMMON,
         [sub("    uint8_t* data = NULL;\n"
              "    cudaMallocHost((void**)&data, data_size * sizeof(uint8_t));\n",
              "    uint8_t* data = (uint8_t*)malloc(data_size * sizeof(uint8_t));\n"
              "    cudaHostRegister(data, data_size * sizeof(uint8_t), cudaHostRegisterDefault);\n"),
          sub("    cudaFreeHost(data);\n"
              "}\n"
              "\n"
              "/* Documented at declaration */\n"
              "void\n"
              "gpujpeg_component_print16",
              "    free(data);\n"
              "}\n"
              "\n"
              "/* Documented at declaration */\n"
              "void\n"
              "gpujpeg_component_print16")],
         "the component dump stages the device data in a malloc'd buffer pinned with "
         "cudaHostRegister, freed at the end without cudaHostUnregister"),
    edit("hb4jp-idct-staging-registered-then-freed", "host-register-leak", DCT,
         [sub("        GPUJPEG_ASSERT(cudaMallocHost((void**)&data, component->data_size * sizeof(uint8_t)) == cudaSuccess);\n",
              "        data = (uint8_t*)malloc(component->data_size * sizeof(uint8_t));\n"
              "        GPUJPEG_ASSERT(cudaHostRegister(data, component->data_size * sizeof(uint8_t), cudaHostRegisterDefault) == cudaSuccess);\n"),
          sub("        cudaFreeHost(data);\n", "        free(data);\n")],
         "the CPU IDCT path stages each component's pixels in a malloc'd buffer that it "
         "registers with cudaHostRegister and frees without cudaHostUnregister"),
    # dealloc-mismatch
    edit("hb4jp-deinit-block-list-free", "dealloc-mismatch", COMMON,
         [sub("    if ( coder->block_list != NULL )\n        cudaFreeHost(coder->block_list);\n",
              "    if ( coder->block_list != NULL )\n        free(coder->block_list);\n")],
         "gpujpeg_coder_deinit releases the pinned block list (cudaMallocHost) with free"),
    edit("hb4jp-segments-realloc-free", "dealloc-mismatch", COMMON,
         [sub("        if (coder->segment != NULL) {\n            cudaFreeHost(coder->segment);\n",
              "        if (coder->segment != NULL) {\n            free(coder->segment);\n")],
         "gpujpeg_coder_init_image releases the previous pinned segment array with free "
         "when a larger image needs more segments"),
    edit("hb4jp-decoder-raw-realloc-free", "dealloc-mismatch", DEC,
         [sub("            cudaFreeHost(coder->data_raw);\n", "            free(coder->data_raw);\n")],
         "the decoder releases its pinned raw-image buffer (cudaMallocHost) with free "
         "before allocating a larger one"),
    edit("hb4jp-mt-input-free", "dealloc-mismatch", MT,
         [sub("        cudaFreeHost(input_image);\n", "        free(input_image);\n")],
         "the multi-threaded encoding test releases its pinned input image "
         "(cudaMallocHost) with free"),
    # pageable-copy
    edit("hb4jp-block-list-malloc", "pageable-copy", COMMON,
         [sub("        cudaMallocHost((void**)&coder->block_list, coder->block_count * sizeof(*coder->block_list));\n",
              "        coder->block_list = malloc(coder->block_count * sizeof(*coder->block_list));\n")],
         "the block list allocated with malloc: its upload with cudaMemcpyAsync on the "
         "coder's stream at the end of every image reconfiguration is staged and synchronous",
         at="    cudaMemcpyAsync(coder->d_block_list, coder->block_list, coder->block_count * sizeof(*coder->d_block_list), cudaMemcpyHostToDevice, stream);"),
    edit("hb4jp-segments-malloc", "pageable-copy", COMMON,
         [sub("        cudaMallocHost((void**)&coder->segment, coder->segment_count * sizeof(struct gpujpeg_segment));\n",
              "        coder->segment = malloc(coder->segment_count * sizeof(struct gpujpeg_segment));\n")],
         "the segment array allocated with malloc: its cudaMemcpyAsync upload on the "
         "coder's stream is a pageable copy",
         at="    cudaMemcpyAsync(coder->d_segment, coder->segment, coder->segment_count * sizeof(struct gpujpeg_segment), cudaMemcpyHostToDevice, stream);"),
    # unsynchronized-access
    edit("hb4jp-encoder-segments-read-before-wait", "unsynchronized-access", ENC,
         [delete("        // Wait for async operations before formatting\n"
                 "        cudaStreamSynchronize(coder->stream);\n")],
         "the encoder no longer waits for the download of the segment table (and of the "
         "compressed data) before it formats the stream: it reads each segment's "
         "compressed index and size while the cudaMemcpyAsync into coder->segment may "
         "still be running",
         # The bug shows where the first segment's downloaded index is read, in
         # the memcpy's arguments (after the run of round four; it named the
         # loop's header, six lines above, outside the scorer's window).
         at="memcpy(\n                    encoder->writer->buffer_current,"),
    # pinned-alloc-in-loop
    edit("hb4jp-cli-readback-pinned-per-image", "pinned-alloc-in-loop", MAIN,
         [sub("                data = malloc(decoder_output.data_size);\n",
              "                cudaMallocHost((void**)&data, decoder_output.data_size);\n"),
          sub("            if ( use_opengl ) {\n                free(data);\n            }\n",
              "            if ( use_opengl ) {\n                cudaFreeHost(data);\n            }\n")],
         "the command-line decoder pins (and releases) the OpenGL read-back buffer for "
         "every image of its loop over the input files"),
]
