"""Held-back injected bugs (fifth set) in cholla-hydro/cholla (commit
8478c9ed), an MPI + GPU astrophysical hydrodynamics code (C++ with CUDA or
HIP through src/utils/gpu.hpp). Its asynchronous host code is in the FFT
Poisson solvers of src/gravity/paris: each solver class (ParisPeriodic's
HenryPeriodic, the galactic PoissonZero3DBlockedGPU) transposes a
distributed 3-D block between cuFFT passes by downloading it into a
cudaHostAlloc'd member buffer (ha_), exchanging it with MPI_Alltoall into
its second half (hb_ = ha_ + nMax) and uploading it again with
cudaMemcpyAsync on the legacy stream; built without MPI_GPU (the host
staging path). The grid keeps its conserved fields and gravitational
potential in cudaHostAlloc'd arrays (grid3D.cpp), and the Cloudy cooling
tables are staged through pinned arrays into CUDA arrays
(load_cloudy_texture.cu). Built with the disk/gravity configuration's
defines (MPI_CHOLLA, PRECISION=2, GRAVITY, GRAVITY_GPU, PARIS_GALACTIC,
COOLING_GPU, CLOUDY_COOL, ...; PARIS and PARIS_GALACTIC exclude each other,
so HenryPeriodic.cu, built only with PARIS, is not selected), including src
and the MPI headers; its build also passes nvcc --extended-lambda (the
gpuFor lambdas). The repository is named 'cholla' as the held-back manifest names
it.

Real bugs of the seven kinds noticed while reading the pristine code: none
(every upload from hb_ is followed, before MPI writes hb_ again, by a
blocking cudaMemcpy on the legacy stream).
"""
from . import edit, sub, after, before, delete

R = "cholla:src/"
PZ = R + "gravity/paris/PoissonZero3DBlockedGPU.cu"
CLOUDY = R + "cooling/load_cloudy_texture.cu"
GRID = R + "grid/grid3D.cpp"

HA_ALLOC = "  GPU_Error_Check(cudaHostAlloc(&ha_, bytes_ + bytes_, cudaHostAllocDefault));\n"
HA_FREE = "  GPU_Error_Check(cudaFreeHost(ha_));\n"

EDITS = [
    edit("hb5ch-poisson-j-transpose-async-download", "unsynchronized-access", PZ,
         [sub("  GPU_Error_Check(cudaMemcpy(ha_, ua, bytes_, cudaMemcpyDeviceToHost));\n"
              "  MPI_Alltoall(ha_, dip * dkq * djq, MPI_DOUBLE, hb_, dip * dkq * djq, MPI_DOUBLE, commJ_);\n",
              "  GPU_Error_Check(cudaMemcpyAsync(ha_, ua, bytes_, cudaMemcpyDeviceToHost, 0));\n"
              "  MPI_Alltoall(ha_, dip * dkq * djq, MPI_DOUBLE, hb_, dip * dkq * djq, MPI_DOUBLE, commJ_);\n")],
         "the download before the j transpose is made asynchronous like the upload after it: "
         "MPI_Alltoall sends ha_ while the cudaMemcpyAsync into it may still be in flight "
         "(and receives into hb_ while the previous upload from it may still be reading it)",
         at="MPI_Alltoall(ha_, dip * dkq * djq, MPI_DOUBLE, hb_, dip * dkq * djq, MPI_DOUBLE, commJ_);"),
    edit("hb5ch-poisson-inverse-j-transpose-async-download", "unsynchronized-access", PZ,
         [sub("  GPU_Error_Check(cudaMemcpy(ha_, ua, bytes_, cudaMemcpyDeviceToHost));\n"
              "  MPI_Alltoall(ha_, dip * djq * dkq, MPI_DOUBLE, hb_, dip * djq * dkq, MPI_DOUBLE, commJ_);\n",
              "  GPU_Error_Check(cudaMemcpyAsync(ha_, ua, bytes_, cudaMemcpyDeviceToHost, 0));\n"
              "  MPI_Alltoall(ha_, dip * djq * dkq, MPI_DOUBLE, hb_, dip * djq * dkq, MPI_DOUBLE, commJ_);\n")],
         "in the inverse transform, the download before the j transpose is asynchronous: "
         "MPI_Alltoall reads ha_ before the copy into it is known to be done",
         at="MPI_Alltoall(ha_, dip * djq * dkq, MPI_DOUBLE, hb_, dip * djq * dkq, MPI_DOUBLE, commJ_);"),
    edit("hb5ch-poisson-staging-delete", "dealloc-mismatch", PZ,
         [sub(HA_FREE, "  delete[] ha_;\n")],
         "the galactic Poisson solver's destructor releases its cudaHostAlloc'd MPI staging "
         "buffer with delete[]"),
    edit("hb5ch-poisson-staging-new", "pageable-copy", PZ,
         [sub(HA_ALLOC, "  ha_ = new double[2 * nMax];\n"),
          sub(HA_FREE, "  delete[] ha_;\n")],
         "the MPI staging buffer is allocated with new[]: each upload of the received block "
         "from hb_ (cudaMemcpyAsync on stream 0) is staged and synchronous",
         at="MPI_Alltoall(ha_, dip * dkq * djq, MPI_DOUBLE, hb_, dip * dkq * djq, MPI_DOUBLE, commJ_);\n"
            "  GPU_Error_Check(cudaMemcpyAsync(ub, hb_"),
    edit("hb5ch-poisson-staging-registered", "host-register-leak", PZ,
         [sub(HA_ALLOC,
              "  ha_ = new double[2 * nMax];\n"
              "  GPU_Error_Check(cudaHostRegister(ha_, bytes_ + bytes_, cudaHostRegisterDefault));\n"),
          sub(HA_FREE, "  delete[] ha_;\n")],
         "the galactic Poisson solver's constructor news its MPI staging buffer and pins it "
         "with cudaHostRegister; the destructor deletes it without cudaHostUnregister",
         at="  delete[] ha_;"),
    edit("hb5ch-cloudy-cooling-registered", "host-register-leak", CLOUDY,
         [sub("  GPU_Error_Check(cudaHostAlloc(&cooling_table, nx * ny * sizeof(float), cudaHostAllocDefault));\n",
              "  cooling_table = (float *)malloc(nx * ny * sizeof(float));\n"
              "  GPU_Error_Check(cudaHostRegister(cooling_table, nx * ny * sizeof(float), cudaHostRegisterDefault));\n"),
          sub("  GPU_Error_Check(cudaFreeHost(cooling_table));\n", "  free(cooling_table);\n")],
         "the cooling table is read into malloc'd memory registered with cudaHostRegister, "
         "and freed after the texture upload without cudaHostUnregister",
         at="  free(cooling_table);"),
    edit("hb5ch-cloudy-heating-free", "dealloc-mismatch", CLOUDY,
         [sub("  GPU_Error_Check(cudaFreeHost(heating_table));\n", "  free(heating_table);\n")],
         "the cudaHostAlloc'd heating table is released with free after the texture upload"),
    edit("hb5ch-grid-potential-free", "dealloc-mismatch", GRID,
         [sub("  GPU_Error_Check(cudaFreeHost(C.Grav_potential));\n", "  free(C.Grav_potential);\n")],
         "Grid3D::FreeMemory releases the cudaHostAlloc'd gravitational potential with free"),
]
