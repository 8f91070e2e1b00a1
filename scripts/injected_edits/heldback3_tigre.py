"""Held-back injected bugs (third set) in CERN/TIGRE (commit e7024732), its
CUDA back end (Common/CUDA/*.cu): tomographic (CT) forward and back
projection and TV regularisation on the GPUs of a node, one host function
per operator that splits the volume and the projections over the devices,
creates two (or five) streams per device, pins the caller's arrays with
cudaHostRegister for the whole call and unregisters them at the end, stages
per-batch geometry parameters in a cudaMallocHost buffer copied to constant
memory with cudaMemcpyToSymbolAsync, and downloads results on a second
stream per device. Built for Python with IS_FOR_PYTIGRE (mex.h not needed)
and, as setup.py compiles it, with the per-thread default stream
(--default-stream=per-thread, CUDA_API_PER_THREAD_DEFAULT_STREAM in the
manifest): a launch or copy without a stream is no legacy-stream
serialization here, so no default-stream bug is injected in this code.
The repository is named 'tigre' as the held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code (the
file as committed, line numbers of the pristine files):

- voxel_backprojection2.cu:373 and :595, pageable-copy (across the call):
  `result` is registered only when split_image>1, whereas
  voxel_backprojection.cu:331-332 also registers it when deviceCount>1; with
  several GPUs and one image split each device's cudaMemcpyAsync of its
  slab (line 595) goes to the caller's pageable memory, so the downloads
  are staged and serialize. The provenance is the caller's (numpy), so a
  per-file linter cannot see it.
- GD_TV.cu:618-620 (and GD_AwTV.cu:634-636), a race between two async
  copies of the same pinned `buffer` on two devices' default (per-thread)
  streams: the D2H on device dev-1 and the H2D on device dev are not
  ordered, and the next iteration's blocking cudaMemcpy into `buffer`
  (line 611, another device) may overwrite it while the H2D is pending.
  Closest to unsynchronized-access, but no host code touches the buffer
  (copy against copy), so probably outside that check's scope.
- tv_proximal.cu:523-560, the same copy-against-copy race with three or
  more GPUs: the H2D from buffer_u..pz on device dev's stream (dev>0
  branch) is never waited for before the next iteration's D2H on another
  device's stream overwrites buffer_u..pz.
- Not of the seven kinds: GD_TV.cu:424 and GD_AwTV.cu:440 pin `sumnorm2`
  with cudaMallocHost and never free it; Siddon_projection_parallel.cu:351
  launches the kernel on stream[0] into the dProjection buffer that the
  previous iteration's download on stream[1] (line 354) may still be
  reading (no event between the streams).
- improvedForwardProjections.cu and improvedForwardProjections_cone.cu
  include mex.h unconditionally: they need MATLAB's headers.
"""
from . import edit, sub, after, before, delete

R = "tigre:Common/CUDA/"
SID = R + "Siddon_projection.cu"
VOX = R + "voxel_backprojection.cu"
VOX2 = R + "voxel_backprojection2.cu"
TVP = R + "tv_proximal.cu"
GDTV = R + "GD_TV.cu"

SID_PARAM_UPLOAD = ("cudaMemcpyHostToDevice,stream[dev*2]);\n"
                    "                cudaStreamSynchronize(stream[dev*2]);\n")
SID_DEV_LOOP = ("            for (dev=0;dev<deviceCount;dev++){\n"
                "                cudaSetDevice(gpuids[dev]);\n"
                "                \n"
                "                for(unsigned int j=0; j<PROJ_PER_BLOCK; j++){\n")
VOX_KERNEL_CALLS = ("                    for (unsigned int i=0; i<noOfKernelCalls; i++){\n"
                    "                        \n")
VOX_PARAM_SYNC = "                        cudaStreamSynchronize(stream[dev*nStreamDevice]);\n"

EDITS = [
    # unsynchronized-access
    edit("hb3tig-siddon-params-rewritten-in-flight", "unsynchronized-access", SID,
         [sub(SID_PARAM_UPLOAD, "cudaMemcpyHostToDevice,stream[dev*2]);\n")],
         "the wait after the upload of the per-batch ray parameters to constant memory "
         "dropped: the next device's iteration refills the pinned projParamsArrayHost "
         "while the previous device's cudaMemcpyToSymbolAsync may still be reading it",
         at="projParamsArrayHost[4*j]=uvOrigin;"),
    edit("hb3tig-voxel-sincos-rewritten-in-flight", "unsynchronized-access", VOX,
         [delete(VOX_PARAM_SYNC + "                        \n")],
         "the FDK backprojection no longer waits for the two constant-memory uploads "
         "before launching: the next kernel call's loop rewrites projSinCosArrayHost "
         "and projParamsArrayHost while their async copies may be pending",
         at="projSinCosArrayHost[5*j]=sinalpha;"),
    edit("hb3tig-gdtv-norm-read-before-wait", "unsynchronized-access", GDTV,
         [sub("                    for (dev = 0; dev < deviceCount; dev++){\n"
              "                        cudaSetDevice(gpuids[dev]);\n"
              "                        cudaDeviceSynchronize();\n"
              "                     }\n"
              "                    cudaCheckErrors(\"Reduction error\");\n",
              "                    cudaCheckErrors(\"Reduction error\");\n")],
         "the wait loop over the devices after the reductions removed: the host sums "
         "sumnorm2[dev] while each device's cudaMemcpyAsync of its partial norm on "
         "the second stream may still be in flight",
         at="sum_curr_spl+=sumnorm2[dev];"),

    # host-register-leak
    edit("hb3tig-siddon-img-left-registered", "host-register-leak", SID,
         [delete("    if (isHostRegisterSupported & (splits>1 |deviceCount>1)){\n"
                 "        cudaHostUnregister(img);\n"
                 "    }\n")],
         "siddon_ray_projection registers the caller's image for the multi-GPU "
         "texture uploads and returns without cudaHostUnregister, leaving the numpy "
         "array pinned (and a second call's register failing)"),
    edit("hb3tig-voxel-projections-left-registered", "host-register-leak", VOX,
         [delete("    if (isHostRegisterSupported){\n"
                 "        cudaHostUnregister(projections);\n"
                 "    }\n")],
         "voxel_backprojection pins the caller's projections with cudaHostRegister "
         "and returns with them still registered"),
    edit("hb3tig-tvprox-dst-left-registered", "host-register-leak", TVP,
         [sub("            cudaHostUnregister(src);\n"
              "            cudaHostUnregister(dst);\n",
              "            cudaHostUnregister(src);\n")],
         "the TV proximal operator unregisters the source image but not the "
         "destination it registered for the split case, which stays pinned after "
         "the call returns"),
    edit("hb3tig-gdtv-img-left-registered", "host-register-leak", GDTV,
         [sub("            cudaHostUnregister(img);\n"
              "            cudaHostUnregister(dst);\n",
              "            cudaHostUnregister(dst);\n")],
         "GD_TV's clean-up unregisters dst only: the input image registered with it "
         "for the split case is returned to the caller still pinned"),

    # pageable-copy
    edit("hb3tig-voxel-sincos-malloc", "pageable-copy", VOX,
         [sub("    cudaMallocHost((void**)&projSinCosArrayHost,5*PROJ_PER_KERNEL*sizeof(float));\n",
              "    projSinCosArrayHost=(float*)malloc(5*PROJ_PER_KERNEL*sizeof(float));\n"),
          sub("    cudaFreeHost(projSinCosArrayHost);\n",
              "    free(projSinCosArrayHost);\n")],
         "the per-kernel sin/cos staging allocated with malloc instead of "
         "cudaMallocHost: its cudaMemcpyToSymbolAsync on each device's stream is staged "
         "through the driver and no longer asynchronous"),
    edit("hb3tig-gdtv-norm-malloc", "pageable-copy", GDTV,
         [sub("        cudaMallocHost((void**)&sumnorm2,deviceCount*sizeof(float));\n",
              "        sumnorm2=(float*)malloc(deviceCount*sizeof(float));\n")],
         "the per-device partial norms received in malloc'd memory: each "
         "cudaMemcpyAsync(&sumnorm2[dev], ..., cudaMemcpyDeviceToHost, stream) is to "
         "pageable memory and returns only when done"),

    # dealloc-mismatch
    edit("hb3tig-voxel2-params-free", "dealloc-mismatch", VOX2,
         [sub("    cudaFreeHost(projParamsArray2Host);\n",
              "    free(projParamsArray2Host);\n")],
         "the pinned geometry staging of the matched backprojector "
         "(cudaMallocHost) released with free"),

    # pinned-alloc-in-loop
    edit("hb3tig-siddon-params-pinned-per-batch", "pinned-alloc-in-loop", SID,
         [sub("    Point3D* projParamsArrayHost;\n"
              "    cudaMallocHost((void**)&projParamsArrayHost,4*PROJ_PER_BLOCK*sizeof(Point3D));\n",
              "    Point3D* projParamsArrayHost;\n"),
          sub(SID_DEV_LOOP,
              "            for (dev=0;dev<deviceCount;dev++){\n"
              "                cudaSetDevice(gpuids[dev]);\n"
              "                cudaMallocHost((void**)&projParamsArrayHost,4*PROJ_PER_BLOCK*sizeof(Point3D));\n"
              "                \n"
              "                for(unsigned int j=0; j<PROJ_PER_BLOCK; j++){\n"),
          sub(SID_PARAM_UPLOAD,
              SID_PARAM_UPLOAD + "                cudaFreeHost(projParamsArrayHost);\n"),
          sub("    freeGeoArray(splits,geoArray);\n"
              "    cudaFreeHost(projParamsArrayHost);\n",
              "    freeGeoArray(splits,geoArray);\n")],
         "the ray-parameter staging allocated with cudaMallocHost next to the code "
         "that fills it, for every device and batch of angles, and freed once its "
         "upload is done"),
    edit("hb3tig-voxel-params-pinned-per-call", "pinned-alloc-in-loop", VOX,
         [delete("    cudaMallocHost((void**)&projParamsArrayHost,6*PROJ_PER_KERNEL*sizeof(Point3D));\n"),
          sub(VOX_KERNEL_CALLS,
              VOX_KERNEL_CALLS +
              "                        cudaMallocHost((void**)&projParamsArrayHost,6*PROJ_PER_KERNEL*sizeof(Point3D));\n"),
          sub(VOX_PARAM_SYNC, VOX_PARAM_SYNC +
              "                        cudaFreeHost(projParamsArrayHost);\n"),
          sub("    cudaFreeHost(projSinCosArrayHost);\n"
              "    cudaFreeHost(projParamsArrayHost);\n",
              "    cudaFreeHost(projSinCosArrayHost);\n")],
         "the FDK geometry staging pinned and released around every kernel call of "
         "the backprojection loop instead of once per call of the operator"),
    edit("hb3tig-gdtv-halo-buffer-pinned-per-exchange", "pinned-alloc-in-loop", GDTV,
         [sub("        }else{\n"
              "            cudaMallocHost((void**)&buffer,buffer_length*image_size[0]*image_size[1]*sizeof(float));\n"
              "        }\n",
              "        }\n"),
          sub("                if(splits==1){\n"
              "                    for(dev=0; dev<deviceCount;dev++){\n",
              "                if(splits==1){\n"
              "                    cudaMallocHost((void**)&buffer,buffer_pixels*sizeof(float));\n"
              "                    for(dev=0; dev<deviceCount;dev++){\n"),
          sub("cudaMemcpyAsync(d_image[dev],buffer, buffer_pixels*sizeof(float), cudaMemcpyHostToDevice);\n"
              "                        }\n"
              "                    }\n",
              "cudaMemcpyAsync(d_image[dev],buffer, buffer_pixels*sizeof(float), cudaMemcpyHostToDevice);\n"
              "                        }\n"
              "                    }\n"
              "                    cudaFreeHost(buffer);\n"),
          delete("        if (splits==1){\n"
                 "            cudaFreeHost(buffer);\n"
                 "        }\n")],
         "GD_TV's host buffer for swapping boundary slices between GPUs pinned and "
         "freed at every exchange, inside the iteration loop"),
    edit("hb3tig-tvprox-halo-buffer-pinned-per-exchange", "pinned-alloc-in-loop", TVP,
         [delete("            cudaMallocHost((void**)&buffer_u,  pixels_per_slice*sizeof(float));\n"),
          sub("                if(splits==1){\n"
              "                    // If everything fits in the GPUs",
              "                if(splits==1){\n"
              "                    cudaMallocHost((void**)&buffer_u,  pixels_per_slice*sizeof(float));\n"
              "                    // If everything fits in the GPUs"),
          sub("        }else if(splits==1){\n"
              "            cudaFreeHost(buffer_u);\n",
              "        }else if(splits==1){\n"),
          sub("                        }\n"
              "                    }\n"
              "                // This is the case when we can't solely use GPU memory",
              "                        }\n"
              "                    }\n"
              "                    cudaFreeHost(buffer_u);\n"
              "                // This is the case when we can't solely use GPU memory")],
         "the TV proximal operator pins the exchange buffer of u at each boundary "
         "exchange of its iteration loop and frees it afterwards"),

    # sync-in-loop
    edit("hb3tig-voxel2-download-wait-per-device", "sync-in-loop", VOX2,
         [sub("cudaMemcpyAsync(&result[img_linear_idx_start], dimage[dev], num_bytes_img_curr, "
              "cudaMemcpyDeviceToHost,stream[dev*nStreamDevice+1]);\n",
              "cudaMemcpyAsync(&result[img_linear_idx_start], dimage[dev], num_bytes_img_curr, "
              "cudaMemcpyDeviceToHost,stream[dev*nStreamDevice+1]);\n"
              "            cudaStreamSynchronize(stream[dev*nStreamDevice+1]);\n")],
         "the matched backprojector waits for each device's slab download inside the "
         "device loop, so the next device's download starts only then"),
]
