#!/usr/bin/env python3
"""Checks docs/api.md against the headers: every public name declared at namespace scope in
include/minifloat/ (namespaces minifloat, minifloat::formats and minifloat::literals, not detail) has a row in
docs/api.md, and every row names something the headers declare, in the header it gives.

  tools/check_api_docs.py          exit 1 and list the differences, if any
  tools/check_api_docs.py --list   print the public names by header
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADERS = ROOT / "include" / "minifloat"
DOC = ROOT / "docs" / "api.md"

OPEN = re.compile(r"^namespace (\w+) \{")
# config.hpp's settings namespace: inline, so its names are those of the enclosing namespace.
SETTINGS = re.compile(r"^inline namespace MINIFLOAT_SETTINGS_NAMESPACE \{|^\} // namespace MINIFLOAT_SETTINGS_NAMESPACE")
CLOSE = re.compile(r"^\} // namespace (\w+)")
DECLARATIONS = [
    re.compile(r"^(?:template <[^>]*>\s*)?(?:class|struct) (\w+)\b(?!;)"),
    re.compile(r"^enum class (\w+)"),
    re.compile(r"^using (\w+) ="),
    re.compile(r"^(?:inline )?constexpr [\w:<>,&* ]+? (\w+)(?: =|\{| \{)"),
    re.compile(r"^(?:[\w:<>,&*][\w:<>,&* ]* )?(\w+)\("),
]
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "static_assert", "defined",
            "MINIFLOAT_DEFINE_LITERAL", "MINIFLOAT_BINARY_OPERATOR", "MINIFLOAT_COMPARISON",
            "decltype"}


def public_names():
    names = {}
    # The public names of a detail/ header (dispatch.hpp's simd_path, say) count too.
    for path in sorted(HEADERS.glob("*.hpp")) + sorted(HEADERS.glob("detail/*.hpp")):
        header = path.relative_to(HEADERS).as_posix()
        stack = []
        for line in path.read_text().splitlines():
            if SETTINGS.match(line):
                continue
            if m := OPEN.match(line):
                stack.append(m.group(1))
                continue
            if m := CLOSE.match(line):
                if stack:
                    stack.pop()
                continue
            scopes = {("minifloat",): "", ("minifloat", "literals"): "",
                      ("minifloat", "formats"): "formats::"}
            if tuple(stack) not in scopes:
                continue
            prefix = scopes[tuple(stack)]
            for pattern in DECLARATIONS:
                if (m := pattern.match(line)) and m.group(1) not in KEYWORDS:
                    names.setdefault(prefix + m.group(1), set()).add(header)
                    break
    # The literals are declared by a macro: one per named type.
    text = (HEADERS / "literals.hpp").read_text()
    for literal in re.findall(r"^MINIFLOAT_DEFINE_LITERAL\((\w+)\)", text, re.M):
        names.setdefault(f'operator""_{literal}', set()).add("literals.hpp")
    return names


def documented():
    rows = {}
    for line in DOC.read_text().splitlines():
        if m := re.match(r"^\| `([^`]+)` \| `([\w./]+)` \|", line):
            rows[m.group(1)] = m.group(2)
    return rows


def main(argv):
    names = public_names()
    if "--list" in argv:
        for name in sorted(names):
            print(f"{name}: {', '.join(sorted(names[name]))}")
        return 0
    rows = documented()
    problems = []
    for name in sorted(names):
        if name not in rows:
            problems.append(f"{name} ({', '.join(sorted(names[name]))}) has no row in docs/api.md")
        elif rows[name].removeprefix("minifloat/") not in names[name]:
            problems.append(f"{name}: docs/api.md says {rows[name]}, declared in "
                            f"{', '.join(sorted(names[name]))}")
    for name in sorted(rows):
        if name not in names:
            problems.append(f"docs/api.md documents {name}, which no header declares")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"docs/api.md documents all {len(names)} public names")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
