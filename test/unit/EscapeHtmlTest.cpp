//===- EscapeHtmlTest.cpp - HTML escaping, as LLVM's ----------------------===//

#include "output/Output.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

std::string llvmEscaped(llvm::StringRef Text) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::printHTMLEscaped(Text, OS);
  return Out;
}

// The reports' HTML must stay byte for byte what llvm::printHTMLEscaped
// wrote before escapeHtml appended to its string directly.
TEST(EscapeHtmlTest, EveryByteAsLLVMEscapesIt) {
  std::string All;
  for (int C = 0; C < 256; ++C)
    All += char(C);
  EXPECT_EQ(escapeHtml(All), llvmEscaped(All));
  EXPECT_EQ(escapeHtml("a<b && c>'d'\"e\""),
            "a&lt;b &amp;&amp; c&gt;&apos;d&apos;&quot;e&quot;");
  EXPECT_EQ(escapeHtml(""), "");
}

} // namespace
