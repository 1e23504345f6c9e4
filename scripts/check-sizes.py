#!/usr/bin/env python3
"""Checks that Swift sources stay readable in size: no file over 450 lines, no function over 80.

A "function" is any body a reader has to hold at once: a func, init, deinit, subscript, accessor, computed property
or closure, measured from the first line of its declaration (or of the statement holding the closure) to its closing
brace. Bodies are found by brace matching over a small Swift tokenizer that skips comments (nested block comments
too) and string literals (multi-line, raw, and with interpolations that hold strings or closures of their own); type
bodies (struct, class, enum, extension, protocol, actor) and control-flow blocks are not functions, but they count
towards the function they sit in.

Usage: check-sizes.py [--max-file N] [--max-function N] [--skip DIR]... [PATH]...
  PATH defaults to Sources; --skip leaves out a folder (and everything below it), e.g. one another team owns.
Prints one line per offender ("path:line: function fit is 185 lines (max 80)") and exits 1 when there is any.
"""
import argparse
import os
import sys

TYPE_KEYWORDS = {"class", "struct", "enum", "extension", "protocol", "actor"}
FUNCTION_KEYWORDS = {"func", "init", "deinit", "subscript"}
ACCESSORS = {"get", "set", "willSet", "didSet", "_read", "_modify", "unsafeAddress", "unsafeMutableAddress"}
CONTROL_KEYWORDS = {"if", "guard", "for", "while", "switch", "do", "catch", "else", "repeat", "defer"}
# Tokens after which a statement goes on to the next line, and tokens that continue the previous line's statement.
CONTINUES_AFTER = {",", "(", "[", "=", "->", ":", ".", "&&", "||", "+", "-", "*", "/", "?", "??", "<", "in"}
CONTINUES_BEFORE = {".", "where", "throws", "rethrows", "async", "->", "&&", "||", "?", "??", ":", "else", "+",
                    "-", "*", "/", "=", ","}
OPENERS = {"(": ")", "[": "]"}


class Token:
    __slots__ = ("text", "line")

    def __init__(self, text, line):
        self.text = text
        self.line = line


def starts_string(src, i):
    """Whether a string literal (plain or raw: #"…"#) starts at src[i]."""
    j = i
    while j < len(src) and src[j] == "#":
        j += 1
    return j < len(src) and src[j] == '"'


def skip_string(src, i, line):
    """Skips the string literal starting at src[i] (after any raw-string #s); returns (index after it, line)."""
    hashes = 0
    while src[i] == "#":
        hashes += 1
        i += 1
    multi = src.startswith('"""', i)
    i += 3 if multi else 1
    close = ('"""' if multi else '"') + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < len(src):
        if src.startswith(escape, i):
            j = i + len(escape)
            if j < len(src) and src[j] == "(":
                i, line = skip_interpolation(src, j + 1, line)
                continue
            if j < len(src) and src[j] == "\n":
                line += 1
            i = j + 1
            continue
        if src.startswith(close, i):
            return i + len(close), line
        if src[i] == "\n":
            line += 1
        i += 1
    return i, line


def skip_interpolation(src, i, line):
    """Skips an interpolation's contents after its "\\(" up to and including the matching ")"."""
    depth = 1
    while i < len(src) and depth > 0:
        c = src[i]
        if starts_string(src, i):
            i, line = skip_string(src, i, line)
            continue
        if src.startswith("//", i):
            while i < len(src) and src[i] != "\n":
                i += 1
            continue
        if src.startswith("/*", i):
            i, line = skip_block_comment(src, i, line)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "\n":
            line += 1
        i += 1
    return i, line


def skip_block_comment(src, i, line):
    """Skips a (possibly nested) block comment starting at src[i]."""
    depth = 0
    while i < len(src):
        if src.startswith("/*", i):
            depth += 1
            i += 2
        elif src.startswith("*/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i, line
        else:
            if src[i] == "\n":
                line += 1
            i += 1
    return i, line


def tokenize(src):
    """Swift source → tokens (identifiers, numbers, punctuation, "<string>") and a "\\n" token per line end."""
    tokens = []
    i, line = 0, 1
    operators = "=-+*/%<>!&|^~?."
    while i < len(src):
        c = src[i]
        if c == "\n":
            tokens.append(Token("\n", line))
            line += 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif src.startswith("//", i):
            while i < len(src) and src[i] != "\n":
                i += 1
        elif src.startswith("/*", i):
            start = line
            i, line = skip_block_comment(src, i, line)
            tokens.extend(Token("\n", n) for n in range(start, line))
        elif starts_string(src, i):
            start = line
            i, line = skip_string(src, i, line)
            tokens.append(Token("<string>", start))
        elif c.isalnum() or c in "_@$#`":
            j = i + 1
            while j < len(src) and (src[j].isalnum() or src[j] in "_`"):
                j += 1
            tokens.append(Token(src[i:j], line))
            i = j
        elif c in operators:
            j = i + 1
            while j < len(src) and src[j] in operators and not src.startswith("//", j) \
                    and not src.startswith("/*", j):
                j += 1
            tokens.append(Token(src[i:j], line))
            i = j
        else:
            tokens.append(Token(c, line))
            i += 1
    return tokens


def head_of(tokens, brace):
    """The tokens of the statement or declaration a "{" at index `brace` opens, and whether an unclosed "(" or "["
    (an argument list, an array) encloses it."""
    head = []
    i = brace - 1
    depth = 0
    while i >= 0:
        t = tokens[i].text
        if t in (")", "]"):
            depth += 1
        elif t in ("(", "["):
            if depth == 0:
                return head, True
            depth -= 1
        elif depth == 0:
            if t in ("{", "}", ";"):
                break
            if t == "\n":
                before = next((tokens[k].text for k in range(i - 1, -1, -1) if tokens[k].text != "\n"), None)
                after = head[0].text if head else "{"
                if before not in CONTINUES_AFTER and after not in CONTINUES_BEFORE:
                    break
                i -= 1
                continue
        if t != "\n":
            head.insert(0, tokens[i])
        i -= 1
    return head, False


def outer_words(head):
    """The head's words outside parentheses and brackets (a default argument's "=" is not an assignment)."""
    words, depth = [], 0
    for t in head:
        if t.text in ("(", "["):
            depth += 1
        elif t.text in (")", "]"):
            depth -= 1
        elif depth == 0:
            words.append(t.text)
    return words


def kind_of(head, enclosed):
    """"type", "control", or the kind of function-like body ("function", "accessor", "property", "closure")."""
    if enclosed or not head:
        return "closure"
    words = outer_words(head)
    if not words or "=" in words or words[-1] == "in":
        return "closure"
    for w in words:
        if w in TYPE_KEYWORDS:
            return "type"
        if w in FUNCTION_KEYWORDS:
            return "function"
        if w in CONTROL_KEYWORDS:
            return "control"
    if words[0] in ACCESSORS:
        return "accessor"
    if words[0] in ("var", "static", "class", "public", "private", "fileprivate", "internal", "open", "override",
                    "nonisolated", "final") and "var" in words:
        return "property"
    if words[0] == "case" or words[0] == "default":
        return "control"
    return "closure"


def name_of(head, kind):
    words = [t.text for t in head]
    for key in ("func", "var", "subscript"):
        if key in words:
            k = words.index(key)
            return words[k + 1] if key != "subscript" and k + 1 < len(words) else key
    for key in ("init", "deinit"):
        if key in words:
            return key
    if kind == "closure":
        calls = [w for w in words if w[:1].isalpha() or w[:1] == "_"]
        return f"in {calls[-1]}" if calls else "(anonymous)"
    return words[0] if words else kind


def functions(tokens):
    """(kind, name, first line, last line) of every function-like body."""
    stack = []
    found = []
    for index, token in enumerate(tokens):
        if token.text == "{":
            head, enclosed = head_of(tokens, index)
            kind = kind_of(head, enclosed)
            start = head[0].line if head and not enclosed else token.line
            stack.append((kind, name_of(head, kind), start))
        elif token.text == "}":
            if not stack:
                raise ValueError(f"line {token.line}: a closing brace without its opening one")
            kind, name, start = stack.pop()
            if kind not in ("type", "control"):
                found.append((kind, name, start, token.line))
    if stack:
        raise ValueError(f"line {stack[-1][2]}: a brace never closed")
    return found


def swift_files(paths, skip):
    skipped = [os.path.normpath(s) for s in skip]

    def excluded(path):
        path = os.path.normpath(path)
        return any(path == s or path.startswith(s + os.sep) for s in skipped)

    for root in paths:
        if os.path.isfile(root):
            if not excluded(root):
                yield root
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not excluded(os.path.join(folder, d)))
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith(".swift") and not excluded(path):
                    yield path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=["Sources"])
    parser.add_argument("--max-file", type=int, default=450, help="lines a Swift file may have (450)")
    parser.add_argument("--max-function", type=int, default=80, help="lines a function may have (80)")
    parser.add_argument("--skip", action="append", default=[], metavar="DIR", help="a folder left out")
    args = parser.parse_args()
    offenders = 0
    for path in swift_files(args.paths, args.skip):
        with open(path, encoding="utf-8") as f:
            src = f.read()
        lines = src.count("\n") + (0 if src.endswith("\n") or not src else 1)
        if lines > args.max_file:
            print(f"{path}: file is {lines} lines (max {args.max_file})")
            offenders += 1
        try:
            bodies = functions(tokenize(src))
        except ValueError as error:
            # A file this tokenizer misreads is reported rather than passed: its sizes would be wrong.
            print(f"{path}: cannot match its braces ({error})")
            offenders += 1
            continue
        for kind, name, start, end in bodies:
            length = end - start + 1
            if length > args.max_function:
                print(f"{path}:{start}: {kind} {name} is {length} lines (max {args.max_function})")
                offenders += 1
    return 1 if offenders else 0


if __name__ == "__main__":
    sys.exit(main())
