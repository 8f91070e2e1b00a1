// A stand-in for a toolkit header, for api-catalog-rules.test: one function
// for each case of scripts/api-catalog-coverage.py's rules.
typedef __SIZE_TYPE__ size_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct fakeBlasContext *fakeBlasHandle_t;
struct fakeParams {
  int count;
  void *data;
};

// Catalogued: CudaApis.def names each one. Rules (a), (b), (c).
int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                    cudaStream_t stream);
int cudaStreamSynchronize(cudaStream_t stream);
int cudaHostAlloc(void **ptr, size_t size, unsigned int flags);

// (a) neither: a stream and two data pointers, catalogued nowhere.
int fakeCopyAsync(void *dst, const void *src, size_t count,
                  cudaStream_t stream);
// (a) neither: a handle the header binds to a stream (fakeSetStream), given
// data pointers; GpuLibraryApis.def does not list the handle.
int fakeSetStream(fakeBlasHandle_t handle, cudaStream_t stream);
int fakeAxpy(fakeBlasHandle_t handle, int n, const float *x, float *y);
// (a) excluded: an out-parameter of a scalar.
int fakeStreamGetPriority(cudaStream_t stream, int *priority);
// (a) excluded: a struct of data read before the call returns.
int fakeStreamSetParams(cudaStream_t stream, const struct fakeParams *params);
// (b) pending: a wait for the whole device.
int fakeDeviceSynchronize(void);
// (b) pending: a wait for an event, snake_case.
int fake_event_wait(cudaEvent_t event);
// (c) pending: a host-memory allocator and its releaser.
int fakeMallocHost(void **ptr, size_t size);
int fakeFreeHost(void *ptr);

// None of the rules.
int fakeStreamSetName(cudaStream_t stream, const char *name); // text
int fakeEventRecordInto(cudaEvent_t *event, cudaStream_t stream); // a handle
int fakeLaunchHostFunc(cudaStream_t stream, void (*fn)(void)); // code
int fakeQueryVersion(int *version); // Query: no stream, event or context
int fakeMemcpy(void *dst, const void *src, size_t count); // no stream
int fakeDestroyAsync(fakeBlasHandle_t handle, cudaStream_t stream);
int _fakeCopyAsync(void *dst, cudaStream_t stream); // reserved name
namespace fake {
namespace detail {
int copyAsync(void *dst, cudaStream_t stream); // implementation
} // namespace detail
} // namespace fake
