//===- LineText.cpp -------------------------------------------------------===//

#include "LineText.h"

namespace cuda_async_lint {

std::string boundedLineText(llvm::StringRef Line, unsigned Column,
                            unsigned &From) {
  From = 1;
  if (Line.size() <= MaxLineText)
    return Line.str();
  if (Column > 1 && Column <= Line.size())
    From = Column;
  return Line.drop_front(From - 1).take_front(MaxLineText).str();
}

} // namespace cuda_async_lint
