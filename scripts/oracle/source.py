"""C and C++ source as the mutant generator sees it: text without comments,
literals and preprocessor lines (blanked, so that offsets and lines stay the
file's), calls with their arguments, statements, blocks and loops.

No parser: the edits are small and each mutant is compiled before it runs,
so a site this reading gets wrong costs a build that fails, recorded as such.
"""
import re

IDENT = re.compile(r"[A-Za-z_]\w*")
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {v: k for k, v in OPEN.items()}
NOT_STATEMENT_START = ("if", "for", "while", "switch", "return", "else", "do",
                       "case", "default", "goto")


def blank(text):
    return re.sub(r"[^\n]", " ", text)


def mask(src):
    """`src` with comments, string and character literals and preprocessor
    directives replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if line_start and c == "#":
            j = i
            while j < n and src[j] != "\n":
                if src[j] == "\\" and j + 1 < n and src[j + 1] == "\n":
                    j += 2
                    continue
                j += 1
            out.append(blank(src[i:j]))
            i = j
            continue
        if c == "/" and src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(src[i:j]))
            i = j
            continue
        if c == "/" and src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(src[i:j]))
            i = j
            continue
        if c in "\"'":
            m = re.match(r'R"([^(\s]*)\(', src[i - 1:i + 20]) if c == '"' \
                and i and src[i - 1] == "R" else None
            if m:
                end = src.find(")" + m.group(1) + '"', i)
                j = n if end < 0 else end + len(m.group(1)) + 2
            else:
                j = i + 1
                while j < n and src[j] != c and src[j] != "\n":
                    j += 2 if src[j] == "\\" else 1
                j = min(j + 1, n)
            out.append(c + blank(src[i + 1:j - 1]) + (c if j - i > 1 else ""))
            i = j
            continue
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        out.append(c)
        i += 1
    return "".join(out)


class Source:
    def __init__(self, text):
        self.text = text
        self.code = mask(text)
        self.match = self._brackets()
        self._line_starts = [0] + [m.end() for m in
                                   re.finditer("\n", text)]

    def _brackets(self):
        match, stack = {}, []
        for i, c in enumerate(self.code):
            if c in OPEN:
                stack.append(i)
            elif c in CLOSE:
                # Unbalanced text (macros that open what others close):
                # drop to the opener of this kind.
                while stack and self.code[stack[-1]] != CLOSE[c]:
                    stack.pop()
                if stack:
                    j = stack.pop()
                    match[j], match[i] = i, j
        return match

    def line(self, offset):
        lo, hi = 0, len(self._line_starts)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    def calls(self, names):
        """(name, start, open paren, close paren) of every call of `names`,
        written as a plain (or ::-qualified) call."""
        if not names:
            return
        pattern = re.compile(r"(?<![\w.>])(?:::\s*)?(%s)\s*\(" % "|".join(
            sorted(map(re.escape, names), key=len, reverse=True)))
        for m in pattern.finditer(self.code):
            start = m.start(1)
            if self.code[start - 2:start] == "->":
                continue
            paren = m.end() - 1
            close = self.match.get(paren)
            if close is None or self._declares(start):
                continue
            yield m.group(1), start, paren, close

    def _declares(self, start):
        """Whether the name at `start` is declared here (a type before it)
        rather than called."""
        before = self.code[:start].rstrip()
        m = re.search(r"([\w*&>]+)$", before)
        if not m:
            return False
        word = m.group(1)
        if word in ("return", "else", "do", "case", "throw", "co_return"):
            return False
        return re.fullmatch(r"\w+[*&]*|.*\w>[*&]*", word) is not None

    def arguments(self, open_, close):
        """[(start, end)] of the arguments between the parentheses (or the
        chevrons) at `open_` and `close`, stripped."""
        args, depth, start = [], 0, open_ + 1
        for i in range(open_ + 1, close):
            c = self.code[i]
            if c in OPEN:
                depth += 1
            elif c in CLOSE:
                depth -= 1
            elif c == "," and depth == 0:
                args.append(self._strip(start, i))
                start = i + 1
        if self.code[start:close].strip() or args:
            args.append(self._strip(start, close))
        return args

    def _strip(self, start, end):
        while start < end and self.code[start].isspace():
            start += 1
        while end > start and self.code[end - 1].isspace():
            end -= 1
        return start, end

    def launches(self):
        """(start of <<<, end of >>>, config arguments) of each kernel launch."""
        for m in re.finditer(r"<<<", self.code):
            end = self.code.find(">>>", m.end())
            if end < 0:
                continue
            config = self.code[m.end():end]
            if ";" in config or "{" in config:
                continue
            args = self.arguments(m.end() - 1, end)
            yield m.start(), end + 3, args

    def statement(self, start, end):
        """The whole statement around the expression [start, end), as
        (begin, end after its ';'), if it is a plain expression statement
        of one line or more (not the condition of an if, the header of a
        loop, a declaration's initializer or a return)."""
        i = start - 1
        while i >= 0 and self.code[i] not in ";{}":
            i -= 1
        if i >= 0 and self.code[i] == "}" and self.match.get(i, -1) > start:
            return None
        begin = i + 1
        while begin < start and self.code[begin].isspace():
            begin += 1
        head = IDENT.match(self.code, begin)
        if head and head.group(0) in NOT_STATEMENT_START:
            return None
        depth, j = 0, begin
        while j < len(self.code):
            c = self.code[j]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
                if depth < 0:
                    return None
            elif c == "{" or c == "}":
                return None
            elif c == ";" and depth == 0:
                break
            j += 1
        if j >= len(self.code) or j < end:
            return None
        text = self.code[begin:j]
        if "=" in re.sub(r"[=!<>]=", "", text.split("(")[0]) and \
                re.match(r"\s*[\w:<>,\s*&]+\s+[*&]*\w+\s*=", text):
            return None  # a declaration with an initializer
        return begin, j + 1

    def block_of(self, offset):
        """(open brace, close brace) of the innermost block around offset."""
        best = None
        for i in range(offset - 1, -1, -1):
            if self.code[i] == "{" and self.match.get(i, -1) >= offset:
                best = (i, self.match[i])
                break
        return best

    def loops_in(self, block, before=None, after=None):
        """Loops directly in `block` (not in a nested one) with a braced
        body: (keyword start, body open, body close)."""
        open_, close = block
        for m in re.finditer(r"\b(for|while)\s*\(", self.code[:close]):
            if m.start() <= open_:
                continue
            if self.block_of(m.start()) != block:
                continue
            paren = m.end() - 1
            head_end = self.match.get(paren)
            if head_end is None:
                continue
            k = head_end + 1
            while k < close and self.code[k].isspace():
                k += 1
            if self.code[k] != "{":
                continue  # a do-while's tail, or an unbraced body
            body_close = self.match.get(k)
            if body_close is None:
                continue
            if before is not None and body_close >= before:
                continue
            if after is not None and m.start() < after:
                continue
            yield m.start(), k, body_close
