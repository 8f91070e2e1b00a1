//===- BodyParents.cpp ----------------------------------------------------===//

#include "BodyParents.h"

using namespace clang;

namespace cuda_async_lint {

const Stmt *BodyParents::parent(const FunctionDecl *FD, const Stmt *S) {
  const std::unique_ptr<ParentMap> &Map =
      Maps.get(FD, [](const FunctionDecl *F) -> std::unique_ptr<ParentMap> {
        Stmt *Body = F->getBody();
        return Body ? std::make_unique<ParentMap>(Body) : nullptr;
      });
  return Map ? Map->getParent(S) : nullptr;
}

} // namespace cuda_async_lint
