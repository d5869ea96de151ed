#!/usr/bin/env python3
"""Reads symbol graphs and lists the public functions, initialisers, methods,
subscripts and operators whose doc comment leaves out a parameter, a `- Returns:`
or a `- Throws:`.

    check-parameters.py ROOT DIR...

ROOT is the package's directory (to print paths relative to it and to read the
lines between a doc comment and its declaration); each DIR holds one target's own
symbol graphs (`T.symbols.json` and `T@*.symbols.json`). A symbol met in several
graphs (a module re-exported by another) is checked once. Exits 1 when anything
is missing.

Checked: every public or open symbol of the kinds in KINDS that has a source
location and a doc comment of its own, or no doc comment and nothing to inherit
one from (then each parameter is missing).
- Parameters: each parameter by its internal name (`internalName`, else `name`),
  in a `- Parameter x:` line or as a `- x:` item under `- Parameters:`.
- Returns: functions, methods and operators (not initialisers or subscripts) that
  return something other than `Void`, `()` or `Never`.
- Throws: declarations marked `throws` (not `rethrows`, whose errors are the
  caller's closure's).
Skipped:
- symbols the compiler writes (`::SYNTHESIZED::` identifiers — members a type gets
  from a protocol extension, documented where they are written — and members
  without a source location, such as a synthesised `init(from:)`, `hash(into:)`
  or `!=`);
- implementations of a protocol requirement without a doc comment of their own
  (DocC shows the requirement's, which is checked where it is declared) or with
  one inherited from it (not written just above the declaration);
- declarations that are unavailable everywhere.
"""

import json
import os
import re
import sys
from urllib.parse import unquote, urlparse

KINDS = {
    "swift.func",
    "swift.func.op",
    "swift.init",
    "swift.method",
    "swift.type.method",
    "swift.subscript",
    "swift.type.subscript",
}
PUBLIC = {"public", "open"}
NO_RETURN = {"", "()", "Void", "Swift.Void", "Never", "Swift.Never"}
FENCE = re.compile(r"^\s*(```|~~~)")
PARAMETER = re.compile(r"^\s*[-*+]\s+parameter\s+([^\s:]+)\s*:", re.IGNORECASE)
PARAMETERS = re.compile(r"^(\s*)[-*+]\s+parameters\s*:", re.IGNORECASE)
ITEM = re.compile(r"^(\s*)[-*+]\s+([^\s:]+)\s*:")
RETURNS = re.compile(r"^\s*[-*+]\s+returns\s*:", re.IGNORECASE)
THROWS = re.compile(r"^\s*[-*+]\s+throws\s*:", re.IGNORECASE)


def path_of(uri):
    parsed = urlparse(uri)
    return unquote(parsed.netloc + parsed.path if parsed.netloc else parsed.path)


def documented(lines):
    """The parameter names a doc comment documents, and whether it has a
    `- Returns:` and a `- Throws:`."""
    names, returns, throws = set(), False, False
    in_fence = False
    list_indent = None  # the indentation of the `- Parameters:` line we are in
    for text in lines:
        if FENCE.match(text):
            in_fence = not in_fence
            continue
        if in_fence or not text.strip():
            continue
        indent = len(text) - len(text.lstrip())
        if list_indent is not None:
            item = ITEM.match(text)
            if indent > list_indent:
                if item and len(item.group(1)) > list_indent:
                    names.add(item.group(2))
                continue
            list_indent = None
        if match := PARAMETERS.match(text):
            list_indent = len(match.group(1))
        elif match := PARAMETER.match(text):
            names.add(match.group(1))
        elif RETURNS.match(text):
            returns = True
        elif THROWS.match(text):
            throws = True
    return names, returns, throws


class Sources:
    """Source lines, read once per file."""

    def __init__(self):
        self.files = {}

    def lines(self, path):
        if path not in self.files:
            try:
                with open(path, encoding="utf-8") as file:
                    self.files[path] = file.read().split("\n")
            except OSError:
                self.files[path] = []
        return self.files[path]


def own_comment(symbol, sources):
    """Whether the doc comment is written on this declaration, not inherited
    from the protocol requirement it implements."""
    comment, location = symbol["docComment"], symbol["location"]
    if not comment.get("lines"):
        return False
    if "uri" in comment and path_of(comment["uri"]) != path_of(location["uri"]):
        return False
    last = comment["lines"][-1]["range"]["end"]["line"]
    line = location["position"]["line"]
    if last >= line:
        return False
    # Attributes and modifiers may stand between the comment and the name; a brace
    # means the comment belongs to a declaration further up.
    between = sources.lines(path_of(location["uri"]))[last + 1 : line]
    return not any("{" in text or "}" in text for text in between)


def unavailable(symbol):
    return any(
        entry.get("isUnconditionallyUnavailable") and entry.get("domain", "*") == "*"
        for entry in symbol.get("availability", [])
    )


def throws(symbol):
    """Whether the declaration itself throws: a `throws` outside its parameter
    list and before its return type (a closure parameter's does not count)."""
    depth = 0
    for fragment in symbol.get("declarationFragments", []):
        if fragment["kind"] == "keyword" and fragment["spelling"] == "throws" and depth == 0:
            return True
        if fragment["kind"] == "text":
            text = fragment["spelling"]
            if depth == 0 and "->" in text:
                return False
            depth += text.count("(") + text.count("[") - text.count(")") - text.count("]")
    return False


def returned(symbol):
    spelling = "".join(f["spelling"] for f in symbol["functionSignature"].get("returns", []))
    return spelling.strip()


def check(symbol, implementations, sources):
    """What the symbol's doc comment leaves out, or None when it is not checked."""
    if symbol["kind"]["identifier"] not in KINDS or symbol.get("accessLevel") not in PUBLIC:
        return None
    if "::SYNTHESIZED::" in symbol["identifier"]["precise"] or "location" not in symbol:
        return None
    if unavailable(symbol):
        return None
    lines = []
    if "docComment" in symbol:
        if not own_comment(symbol, sources):
            return None
        lines = [line["text"] for line in symbol["docComment"]["lines"]]
    elif symbol["identifier"]["precise"] in implementations:
        return None  # DocC shows the requirement's documentation
    names, has_returns, has_throws = documented(lines)
    kind = symbol["kind"]["identifier"]
    signature = symbol.get("functionSignature", {})
    missing = []
    for parameter in signature.get("parameters", []):
        name = parameter.get("internalName", parameter["name"])
        if name != "_" and name not in names:
            missing.append(f"missing parameter {name}")
    returns_value = kind not in ("swift.init", "swift.subscript", "swift.type.subscript")
    if returns_value and returned(symbol) not in NO_RETURN and not has_returns:
        missing.append("missing - Returns:")
    if throws(symbol) and not has_throws:
        missing.append("missing - Throws:")
    return missing


def main():
    root = os.path.realpath(sys.argv[1])
    sources = Sources()
    findings = {}
    seen = set()
    checked = 0
    for directory in sys.argv[2:]:
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".symbols.json"):
                continue
            with open(os.path.join(directory, name), encoding="utf-8") as file:
                graph = json.load(file)
            # Members that implement a protocol requirement name it as their origin.
            implementations = {
                relationship["source"]
                for relationship in graph["relationships"]
                if relationship["kind"] == "memberOf" and "sourceOrigin" in relationship
            }
            for symbol in graph["symbols"]:
                key = symbol["identifier"]["precise"]
                if key in seen:
                    continue
                seen.add(key)
                missing = check(symbol, implementations, sources)
                if missing is None:
                    continue
                checked += 1
                if not missing:
                    continue
                path = os.path.relpath(path_of(symbol["location"]["uri"]), root)
                line = symbol["location"]["position"]["line"] + 1
                title = ".".join(symbol["pathComponents"])
                for what in missing:
                    findings[(path, line, title, what)] = None
    for path, line, title, what in sorted(findings):
        print(f"{path}:{line} {title}: {what}", file=sys.stderr)
    symbols = len({(path, line, title) for path, line, title, _ in findings})
    if findings:
        print(
            f"parameters: {symbols} of {checked} public functions and initialisers lack"
            f" documentation ({len(findings)} findings)",
            file=sys.stderr,
        )
        return 1
    print(
        f"parameters: all {checked} public functions and initialisers document their"
        " parameters"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
