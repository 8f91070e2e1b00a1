"""Held-back injected bugs (third set) in gamer-project/gamer (commit
8979ef12), its GPU solver drivers (src/GPU_API/CUAPI_Asyn_*.cu): adaptive
mesh refinement astrophysics (hydro, self-gravity, source terms) where each
call splits a batch of patch groups over GPU_NStream streams of one GPU
(a global `Stream` array created elsewhere with cudaStreamCreate) and issues,
in three loops over the streams, the uploads, the kernels and the downloads,
returning without waiting: the caller synchronizes later (CUAPI_Synchronize)
and prepares the next batch on the CPU meanwhile. The host arrays are pinned
once at start-up in CUAPI_MemAllocate_Fluid.cu. Compiled with the options
configure.py writes for a hydro run with self-gravity (MODEL=HYDRO,
FLU_SCHEME=CTU, POT_SCHEME=SOR, GRAVITY, UNSPLIT_GRAVITY, GPU, SERIAL).
The repository is named 'gamer' as the held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code: none.
CUAPI_MemAllocate_Fluid.cu:286 pins the double-buffered host arrays in a
`for (int t=0; t<2; t++)` loop, kept after it: a set-up loop, not a bug.
Not of the seven kinds: each CUAPI_Asyn_* call news and deletes its small
per-stream size tables.
"""
from . import edit, sub, after, before, delete

R = "gamer:src/GPU_API/"
DT = R + "CUAPI_Asyn_dtSolver.cu"
FLU = R + "CUAPI_Asyn_FluidSolver.cu"
SRC = R + "CUAPI_Asyn_SrcSolver.cu"
POI = R + "CUAPI_Asyn_PoissonGravitySolver.cu"

STREAM_SYNC = "      CUDA_CHECK_ERROR(  cudaStreamSynchronize( Stream[s] )  );\n"

EDITS = [
    # sync-in-loop
    edit("hb3gam-dt-download-wait-per-stream", "sync-in-loop", DT,
         [after("                         dt_MemSize[s], cudaMemcpyDeviceToHost, Stream[s] )  );\n",
                STREAM_SYNC)],
         "the time-step solver waits for each stream's download of its dt values "
         "inside the stream loop: the streams' transfers no longer overlap and the "
         "CPU cannot prepare the next batch meanwhile"),
    edit("hb3gam-fluid-debug-sync-per-kernel", "sync-in-loop", FLU,
         [sub("      CUDA_CHECK_ERROR( cudaGetLastError() );\n",
              "      CUDA_CHECK_ERROR( cudaGetLastError() );\n"
              "      CUDA_CHECK_ERROR( cudaDeviceSynchronize() );\n")],
         "a device-wide synchronization after each fluid-solver launch (to catch "
         "kernel errors at their launch) left in the kernel loop over the streams, "
         "so the streams' kernels and transfers run one after another"),
    edit("hb3gam-src-upload-wait-per-stream", "sync-in-loop", SRC,
         [after("                         Corner_MemSize[s], cudaMemcpyHostToDevice, Stream[s] )  );\n",
                STREAM_SYNC)],
         "the source-term solver waits for each stream's upload before issuing the "
         "next stream's, inside the upload loop"),
    edit("hb3gam-poisson-download-wait-per-stream", "sync-in-loop", POI,
         [sub("#        endif\n"
              "      }\n"
              "   } // for (int s=0; s<GPU_NStream; s++)\n"
              "\n"
              "\n"
              "   delete [] NPatch_per_Stream;",
              "#        endif\n"
              "      }\n"
              + STREAM_SYNC +
              "   } // for (int s=0; s<GPU_NStream; s++)\n"
              "\n"
              "\n"
              "   delete [] NPatch_per_Stream;")],
         "the Poisson/gravity solver synchronizes every stream right after issuing "
         "its downloads, in the download loop"),

    # default-stream
    edit("hb3gam-dt-kernel-legacy", "default-stream", DT,
         [sub("CUFLU_dtSolver_HydroCFL <<< NPatch_per_Stream[s], BlockDim_dtSolver, 0, Stream[s] >>>",
              "CUFLU_dtSolver_HydroCFL <<< NPatch_per_Stream[s], BlockDim_dtSolver >>>")],
         "the CFL time-step kernel launched without its stream: the other streams' "
         "work and the downloads on Stream[s] wait for it on the legacy stream"),
    edit("hb3gam-fluid-kernel-legacy", "default-stream", FLU,
         [sub("CUFLU_FluidSolver_CTU <<< NPatch_per_Stream[s], BlockDim_FluidSolver, 0, Stream[s] >>>",
              "CUFLU_FluidSolver_CTU <<< NPatch_per_Stream[s], BlockDim_FluidSolver >>>")],
         "the CTU fluid kernel launched on the legacy stream in the stream loop: the "
         "uploads and kernels of the other streams serialize with it"),
    edit("hb3gam-src-upload-legacy", "default-stream", SRC,
         [sub("Flu_MemSize_In[s], cudaMemcpyHostToDevice, Stream[s] )  );",
              "Flu_MemSize_In[s], cudaMemcpyHostToDevice, 0 )  );")],
         "the source-term solver's fluid upload issued on stream 0 while the corner "
         "upload and the kernel stay on Stream[s], which then wait for it"),
    edit("hb3gam-poisson-sor-kernel-legacy", "default-stream", POI,
         [sub("CUPOT_PoissonSolver_SOR <<< NPatch_per_Stream[s], Poi_Block_Dim, 0, Stream[s] >>>",
              "CUPOT_PoissonSolver_SOR <<< NPatch_per_Stream[s], Poi_Block_Dim >>>")],
         "the SOR Poisson kernel launched without the stream of its patch groups: the "
         "gravity kernel and downloads on Stream[s] wait for it on the legacy stream"),
]
