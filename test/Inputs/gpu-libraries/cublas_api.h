// What the checks' tests need of cuBLAS, declared as its own header does: a
// system header, so that its functions are the library's.
#pragma clang system_header

typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float *alpha,
                           float *x, int incx);
