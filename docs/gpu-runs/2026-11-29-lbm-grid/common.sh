# Set-up shared by this folder's runs: the multicast switches KINDS.md asks for, OpenMPI as root.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_preg=native
for p in mpirun mpiexec; do
  [ -x /usr/bin/$p.openmpi ] && ! command -v $p > /dev/null && ln -s /usr/bin/$p.openmpi /usr/bin/$p
done
W=/tmp/b/warpscope
