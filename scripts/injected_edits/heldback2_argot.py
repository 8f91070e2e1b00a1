"""Held-back injected bugs (second set) in ccsoni/ARGOT (commit 9dc607fb),
its CUDA files (src/*.cu, src/diffuse_photon/*.cu): astrophysical radiation
hydrodynamics on the GPUs of a node, C entry points (extern "C") that issue
each device's copies and kernels on its own stream (this_cuda->strm[idev])
in one loop over the devices and wait for them in a second loop; pinned ray
segments come from another file. The repository is named 'argot' as the
held-back manifest names it."""
from . import edit, sub, after, before, delete

R = "argot:"
CHEM = R + "src/chemistry.cu"
MERGE = R + "src/merge_photoion_data.cu"
SEND = R + "src/send_photoion_data.cu"
RECV = R + "src/recv_photoion_data.cu"
RMESH = R + "src/recv_mesh_data.cu"
OPT = R + "src/calc_optical_depth.cu"
RATE = R + "src/calc_photoion_rate.cu"

NO_THRUST = sub("#define __USE_THRUST__\n", "//#define __USE_THRUST__\n")
DT_MALLOC = "  dt_cpu = (float *) malloc(sizeof(float)*this_cuda->cuda_nblock);\n"
PHOTOION_MALLOC = ("  photoion = (struct photoion_rate*) malloc "
                   "(sizeof(struct photoion_rate)*NMESH_LOCAL);\n")
CHEM_ALL_ONCE = ("  if(first_call && this_cuda->num_cuda_dev > 1) {\n"
                 "    err = cudaMallocHost((void **) &chem_all, \n"
                 "                         sizeof(struct prim_chem)*NMESH_LOCAL);\n"
                 "    assert(err == cudaSuccess);\n"
                 "    first_call = false;\n"
                 "  }\n\n")
SEND_KERNEL_ARGS = ("      (cuda_mem[idev].mesh_dev, cuda_mem[idev].rate_dev, offset[idev]);\n"
                    "  }\n")
SYNC_LOOP = ("  for(idev=0;idev<this_cuda->num_cuda_dev;idev++) {\n"
             "    cudaSetDevice(idev);\n"
             "    cudaStreamSynchronize(this_cuda->strm[idev]);\n"
             "  }\n")

EDITS = [
    # pageable-copy
    edit("hb2arg-dtime-host-min-malloc", "pageable-copy", CHEM,
         [NO_THRUST],
         "the Thrust reduction of the time steps switched off (#define commented out): "
         "the host reduction that remains copies each device's block minima with "
         "cudaMemcpyAsync into a malloc'd dt_cpu",
         at="    cudaMemcpyAsync(dt_cpu, cuda_mem[idev].dtime_dev,"),
    edit("hb2arg-chem-exchange-malloc", "pageable-copy", CHEM,
         [sub("  static bool first_call=true;\n  static struct prim_chem *chem_all;\n",
              "  struct prim_chem *chem_all =\n"
              "    (struct prim_chem *) malloc(sizeof(struct prim_chem)*NMESH_LOCAL);\n"),
          delete(CHEM_ALL_ONCE),
          sub("  //  return diffmax;\n", "  free(chem_all);\n\n  //  return diffmax;\n")],
         "step_chemistry_gpu's exchange buffer between the GPUs, pinned once, made a "
         "malloc per call (and freed): each device's async D2H copy into it and the "
         "H2D copies out of it are staged"),

    # dealloc-mismatch
    edit("hb2arg-merge-pinned-free", "dealloc-mismatch", MERGE,
         [sub(PHOTOION_MALLOC,
              "  cudaMallocHost((void **) &photoion, sizeof(struct photoion_rate)*NMESH_LOCAL);\n")],
         "merge_photoion_data's staging of the ARGOT rates pinned with cudaMallocHost "
         "so that the uploads overlap, but still released with free at the end"),

    # host-register-leak
    edit("hb2arg-merge-register", "host-register-leak", MERGE,
         [after(PHOTOION_MALLOC,
                "  cudaHostRegister(photoion, sizeof(struct photoion_rate)*NMESH_LOCAL,\n"
                "                   cudaHostRegisterDefault);\n")],
         "merge_photoion_data's malloc'd staging registered for the per-device "
         "uploads, then freed without cudaHostUnregister"),
    edit("hb2arg-dtime-host-min-register", "host-register-leak", CHEM,
         [NO_THRUST,
          after(DT_MALLOC,
                "  cudaHostRegister(dt_cpu, sizeof(float)*this_cuda->cuda_nblock,\n"
                "                   cudaHostRegisterDefault);\n")],
         "the host reduction of the time steps (Thrust switched off) registers its "
         "malloc'd dt_cpu for the async copies, then frees it still registered",
         at="  free(dt_cpu);"),

    # sync-in-loop
    edit("hb2arg-send-photoion-wait-per-device", "sync-in-loop", SEND,
         [sub(SEND_KERNEL_ARGS,
              "      (cuda_mem[idev].mesh_dev, cuda_mem[idev].rate_dev, offset[idev]);\n"
              "    cudaStreamSynchronize(this_cuda->strm[idev]);\n"
              "  }\n")],
         "send_photoion_data waits for each device's upload and kernel inside the "
         "device loop, so the next device's upload starts only then"),
    edit("hb2arg-optical-depth-wait-per-device", "sync-in-loop", OPT,
         [sub("\t\t\t  cudaMemcpyDeviceToHost,this_cuda->strm[idev]);\n"
              "    assert(err == cudaSuccess);\n  }\n",
              "\t\t\t  cudaMemcpyDeviceToHost,this_cuda->strm[idev]);\n"
              "    assert(err == cudaSuccess);\n\n"
              "    cudaStreamSynchronize(this_cuda->strm[idev]);\n  }\n")],
         "calc_optical_depth waits for each device's segments (upload, kernels, "
         "download) before issuing the next device's"),
    edit("hb2arg-recv-mesh-device-sync-per-device", "sync-in-loop", RMESH,
         [sub("\t\t\t  cudaMemcpyDeviceToHost, this_cuda->strm[idev]);\n"
              "    assert(err == cudaSuccess);\n  }\n",
              "\t\t\t  cudaMemcpyDeviceToHost, this_cuda->strm[idev]);\n"
              "    assert(err == cudaSuccess);\n"
              "    cudaDeviceSynchronize();\n  }\n"),
          delete("\n" + SYNC_LOOP)],
         "recv_mesh_data's two device loops merged into one that synchronizes each "
         "device right after issuing its download"),
    edit("hb2arg-chem-scatter-wait-per-device", "sync-in-loop", CHEM,
         [sub("\t(cuda_mem[idev].mesh_dev, cuda_mem[idev].chem_updated);\n",
              "\t(cuda_mem[idev].mesh_dev, cuda_mem[idev].chem_updated);\n"
              "      cudaStreamSynchronize(this_cuda->strm[idev]);\n")],
         "step_chemistry_gpu's scatter of the merged chemistry to every device waits "
         "for each device's upload and copy kernel inside the device loop"),
    edit("hb2arg-photoion-rate-wait-per-device", "sync-in-loop", RATE,
         [sub("      offset += nblock*nthread;\n\n    }\n  }\n",
              "      offset += nblock*nthread;\n\n    }\n"
              "    cudaStreamSynchronize(this_cuda->strm[idev]);\n  }\n")],
         "calc_photoion_rate waits for each device's kernels at the end of the device "
         "loop that launches them, before launching the next device's"),

    # default-stream
    edit("hb2arg-send-photoion-kernel-legacy", "default-stream", SEND,
         [sub("    send_photoion_data_kernel<<<nblk, nthd, 0, this_cuda->strm[idev]>>>\n",
              "    send_photoion_data_kernel<<<nblk, nthd>>>\n")],
         "send_photoion_data's kernel launched without the device's stream: the next "
         "device's upload on its created stream waits for it"),
    edit("hb2arg-recv-photoion-download-legacy", "default-stream", RECV,
         [sub("\t\t\t  cudaMemcpyDeviceToHost, this_cuda->strm[idev]);\n",
              "\t\t\t  cudaMemcpyDeviceToHost, 0);\n")],
         "recv_photoion_data's download issued on stream 0: the next device's kernel "
         "on its created stream waits for it"),
    edit("hb2arg-chem-advance-kernel-legacy", "default-stream", CHEM,
         [sub("    advance_reaction_and_heatcool_kernel<<<nblk, nthd, 0, this_cuda->strm[idev]>>>\n",
              "    advance_reaction_and_heatcool_kernel<<<nblk, nthd>>>\n")],
         "the chemistry step's kernel launched on the legacy stream in the device loop, "
         "while the downloads stay on the devices' streams"),
]
