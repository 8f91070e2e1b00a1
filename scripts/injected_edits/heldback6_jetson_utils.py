"""Held-back injected bugs (sixth set) in dusty-nv/jetson-utils (commit
fae4b425), the C++/CUDA utility library of NVIDIA's Jetson inference
projects (embedded vision and robotics: image I/O, colour conversion,
drawing, fonts, cameras and video through GStreamer, OpenGL display), named
'jetson-utils' as the held-back manifest names it. Its host code works on
zero-copy memory: cudaAllocMapped (cuda/cudaMappedMemory.h, the project's
own inline wrapper of cudaHostAlloc(cudaHostAllocMapped) and
cudaHostGetDevicePointer) gives a pinned host pointer and its device alias;
the image kernels (cuda/*.cu) run on the caller's stream and read or write
such memory directly; cudaFont keeps a ring of mapped glyph commands and
background rectangles that the host fills and its overlay kernels read;
loadImage and saveImage (cpp/image/imageIO.cpp) stage pixels through mapped
buffers around a colour-conversion kernel and wait for the stream before
the host encodes the result; imageLoader keeps a queue of mapped frames.
The selected files are the CUDA sources of cuda/ (kernels and their
launchers), cuda/cudaColorspace.cpp and cpp/image/{imageIO,imageLoader}.cpp;
cmake copies every header into build/include/jetson-utils, so the manifest
lists cuda/ and each cpp/ subdirectory as include dirs instead.
cuda/cudaPointCloud.cpp (which includes GL/glew.h through glBuffer.h) is
left out: GLEW is not installed here.

There is no created stream in the library (the streams are the caller's):
one default-stream edit, on the shape of a caller passing its own stream;
no sync-in-loop edit (no loop issues work on several streams).

Real bugs of the seven kinds noticed while reading the pristine code:
- cuda/cudaFont.cu:436-437 with :498-505 (unsynchronized-access):
  OverlayText wraps its ring of mapped glyph commands (mCmdIndex = 0 when
  the next call would overflow MaxCommands) without waiting for the stream,
  so the host can rewrite commands that an earlier overlay kernel, still
  queued or running on the caller's stream, is reading through
  mCommandGPU; the background rects (:439-440, :485) likewise.
- cpp/image/imageLoader.cpp:151-154 with the loadImage call of Capture
  (pinned-alloc-in-loop, per frame): each captured frame is loaded into a
  new cudaAllocMapped buffer and the oldest is released with cudaFreeHost,
  a pinned allocation and release per frame of the capture loop of every
  application using it (the loop is in the applications, not in the file).
"""
from . import edit, sub, after, before, delete

FONT = "jetson-utils:cuda/cudaFont.cu"
IMAGEIO = "jetson-utils:cpp/image/imageIO.cpp"
LOADER = "jetson-utils:cpp/image/imageLoader.cpp"

EDITS = [
    edit("hb6ju-font-rects-free", "dealloc-mismatch", FONT,
         [sub("\t\tCUDA(cudaFreeHost(mRectsCPU));\n", "\t\tfree(mRectsCPU);\n")],
         "~cudaFont releases the background rectangles (cudaAllocMapped, the project's "
         "wrapper of cudaHostAlloc) with free"),
    edit("hb6ju-font-map-delete", "dealloc-mismatch", FONT,
         [sub("\tif( mFontMapCPU != NULL )\n\t{\n\t\tCUDA(cudaFreeHost(mFontMapCPU));\n",
              "\tif( mFontMapCPU != NULL )\n\t{\n\t\tdelete[] mFontMapCPU;\n")],
         "~cudaFont releases the mapped font bitmap (cudaAllocMapped in init) with delete[]"),
    edit("hb6ju-font-map-registered", "host-register-leak", FONT,
         [sub("\t\tif( !cudaAllocMapped((void**)&mFontMapCPU, (void**)&mFontMapGPU, fontMapSize) )\n",
              "\t\tmFontMapCPU = (uint8_t*)malloc(fontMapSize);\n"
              "\t\tif( !mFontMapCPU || CUDA_FAILED(cudaHostRegister(mFontMapCPU, fontMapSize, "
              "cudaHostRegisterMapped)) ||\n"
              "\t\t    CUDA_FAILED(cudaHostGetDevicePointer((void**)&mFontMapGPU, mFontMapCPU, 0)) )\n"),
          sub("\tif( mFontMapCPU != NULL )\n\t{\n\t\tCUDA(cudaFreeHost(mFontMapCPU));\n",
              "\tif( mFontMapCPU != NULL )\n\t{\n\t\tfree(mFontMapCPU);\n")],
         "cudaFont::init bakes the glyphs into malloc'd memory pinned and mapped with "
         "cudaHostRegister; ~cudaFont frees it without cudaHostUnregister",
         at="\t\tfree(mFontMapCPU);"),
    edit("hb6ju-font-commands-rewritten-each-call", "unsynchronized-access", FONT,
         [sub("\t// reset the buffer indices if we need the space\n"
              "\tif( mCmdIndex + maxChars >= MaxCommands )\n"
              "\t\tmCmdIndex = 0;\n",
              "\t// start from the beginning of the command buffer\n"
              "\tmCmdIndex = 0;\n")],
         "OverlayText restarts its mapped command ring at every call: the host rewrites "
         "the glyph commands from slot 0 while the previous call's overlay kernel, queued on "
         "the caller's stream, may still be reading them through mCommandGPU",
         at="\t\t\tGlyphCommand* cmd = ((GlyphCommand*)mCommandCPU) + mCmdIndex + numCommands;"),
    edit("hb6ju-font-rects-legacy-stream", "default-stream", FONT,
         [sub("\t\tCUDA(cudaRectFill(image, image, width, height, format, mRectsGPU + mRectIndex, "
              "numRects, bg_color, stream));\n",
              "\t\tCUDA(cudaRectFill(image, image, width, height, format, mRectsGPU + mRectIndex, "
              "numRects, bg_color, 0));\n")],
         "the text backgrounds are drawn on the legacy default stream while the glyphs that "
         "follow go to the caller's stream: with a created stream the fill waits for all "
         "the device's blocking streams and the overlay waits for it"),
    edit("hb6ju-saveimage-read-before-wait", "unsynchronized-access", IMAGEIO,
         [delete("\tif( sync )\n"
                 "\t{\n"
                 "        if( stream != 0 )\n"
                 "            CUDA(cudaStreamSynchronize(stream));\n"
                 "        else\n"
                 "            CUDA(cudaDeviceSynchronize());\n"
                 "\t}\n")],
         "saveImage no longer waits after converting a float image into its mapped 8-bit "
         "staging buffer: the encoder reads img while cudaConvertColor's kernel may still be "
         "writing it on the stream",
         at="\t\tsave_result = stbi_write_jpg(filename, width, height, channels, img, quality);"),
    edit("hb6ju-loader-buffers-free", "dealloc-mismatch", LOADER,
         [sub("\t\tCUDA(cudaFreeHost(mBuffers[n]));\n", "\t\tfree(mBuffers[n]);\n")],
         "~imageLoader releases each queued frame, mapped pinned memory from loadImage "
         "(cudaAllocMapped), with free: elements of a vector of pointers"),
]
