#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that the calls between the files of one module point one way.

    check_layering.py --module NAME --root MODULE_DIR [--allow allowed_recursion.tsv]
                      [--sources DIR]... OBJECT_OR_DIR...
    check_layering.py --module NAME --root DIR --sources DIR... --no-objects

Reads the symbol table of every object (`nm`; a directory stands for every
*.o under it, and an argument holding ';' is a CMake list such as
$<TARGET_OBJECTS:tgt>), and builds the module's file -> file call graph: file
A calls file B when A's undefined symbols include a global that B defines
(T, D, B, R, G, S, V, W, C). Each object is named by its source file relative
to MODULE_DIR (from the compiler's depfile OBJ.d when there is one, else from
the path after CMake's `<target>.dir/`), so files may sit in sub-folders.

Fails, listing each one with the symbols of both directions, on:
  * every pair of files that call into each other, unless the allow-list
    names the pair for this module (recursion that is the algorithm, e.g.
    nested control flow), and every allow-list entry of this module whose
    pair no longer calls each other (an unexpected pass: remove the line);
  * any `#pragma GCC optimize` / `#pragma clang optimize` or
    `__attribute__((optimize(...)))` in the C/C++ files under each --sources
    directory (issue #13: no compiler steering in code; build flags belong in
    CMake).
  * every cycle through three or more files, unless each of its files is in an
    allowed pair.

Allow-list lines (tab-separated; '#' starts a comment line):
    MODULE  FILE_A  FILE_B  REASON
with paths as this script prints them (relative to the module's root).

Exit status: 0 clean, 1 a violation, 2 bad usage or unreadable objects.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

DEFINED = set("TDBRGSVWC")
SOURCE_EXTENSIONS = (".c", ".h", ".cpp", ".cc", ".hpp", ".inc")
STEERING = re.compile(
    r"#\s*pragma\s+(GCC|clang)\s+optimize"
    r"|__attribute__\s*\(\((?:[^()]|\([^()]*\))*\b_{0,2}optimize_{0,2}\s*\(")


def object_files(arguments):
    objects = []
    for argument in arguments:
        for item in argument.split(";"):
            if not item:
                continue
            if os.path.isdir(item):
                for folder, _, names in os.walk(item):
                    objects += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".o")]
            else:
                objects.append(item)
    return objects


def source_of(obj, root):
    """The object's source file, relative to the module's root."""
    depfile = obj + ".d"
    if not os.path.exists(depfile) and obj.endswith(".o"):
        depfile = obj[:-2] + ".d"
    if os.path.exists(depfile):
        with open(depfile, encoding="utf-8", errors="replace") as f:
            text = f.read().replace("\\\n", " ")
        _, _, prerequisites = text.partition(": ")
        first = prerequisites.split()
        if first and os.path.isabs(first[0]):
            return os.path.relpath(os.path.normpath(first[0]), root)
    tail = obj.split(".dir/", 1)[-1]
    if tail.endswith(".o"):
        tail = tail[:-2]
    # normpath: Ninja names the objects of "./fixture/ping.c" ".../x.dir/./fixture/ping.c.o"
    return os.path.normpath(tail.replace("__/", "../"))


def symbols(obj):
    """(defined globals, strong?) and undefined names of one object."""
    try:
        out = subprocess.run(["nm", "-P", "-g", obj], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"check_layering: cannot read the symbols of {obj}: {e}")
    defined, undefined = {}, set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind in ("U", "w", "v"):
            undefined.add(name)
        elif kind in DEFINED:
            defined[name] = kind not in "WV"
    return defined, undefined


def call_graph(objects, root):
    files = {}
    for obj in objects:
        if not os.path.exists(obj):
            sys.exit(f"check_layering: {obj} does not exist (build the module's targets first)")
        name = source_of(obj, root)
        if name in files:  # one source built into two targets: one node
            d, u = files[name]
            nd, nu = symbols(obj)
            d.update(nd)
            u |= nu
        else:
            files[name] = symbols(obj)
    # Who defines each symbol: a strong definition wins; a name defined by several files
    # (inline C++ functions, templates) says nothing about layering and is left out.
    strong, weak = collections.defaultdict(set), collections.defaultdict(set)
    for name, (defined, _) in files.items():
        for symbol, is_strong in defined.items():
            (strong if is_strong else weak)[symbol].add(name)
    owner = {}
    for symbol in set(strong) | set(weak):
        candidates = strong.get(symbol) or weak.get(symbol)
        if len(candidates) == 1:
            owner[symbol] = next(iter(candidates))
    calls = collections.defaultdict(lambda: collections.defaultdict(set))
    for name, (defined, undefined) in files.items():
        for symbol in undefined:
            target = owner.get(symbol)
            if target and target != name:
                calls[name][target].add(symbol)
    return files, calls


def cycles(calls):
    """Strongly connected components of more than two files (Tarjan, iterative)."""
    index, low, stack, on_stack, result, counter = {}, {}, [], set(), [], [0]
    for start in sorted(calls):
        if start in index:
            continue
        work = [(start, iter(sorted(calls.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(calls.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 2:
                    result.append(sorted(component))
    return result


def read_allowed(path, module):
    allowed = {}
    if not path:
        return allowed
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [field.strip() for field in line.rstrip("\n").split("\t")]
            if len(fields) < 4 or not fields[3]:
                sys.exit(f"check_layering: {path}:{number}: want MODULE<TAB>FILE_A<TAB>FILE_B<TAB>REASON")
            if fields[0] == module:
                allowed[tuple(sorted(fields[1:3]))] = (fields[3], number)
    return allowed


def steering(directories, root):
    found = []
    me = os.path.realpath(__file__)
    for directory in directories:
        for folder, dirs, names in os.walk(directory):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for n in sorted(names):
                path = os.path.join(folder, n)
                if not n.endswith(SOURCE_EXTENSIONS) or os.path.realpath(path) == me:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        if STEERING.search(line):
                            found.append(f"{os.path.relpath(path, root)}:{number}: {line.strip()}")
    return found


def show(symbols, limit=4):
    names = sorted(symbols)
    more = f" (+{len(names) - limit} more)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", required=True, help="module name (allow-list key, messages)")
    parser.add_argument("--root", required=True, help="the module's source folder")
    parser.add_argument("--allow", help="allowed_recursion.tsv")
    parser.add_argument("--sources", action="append", default=[],
                        help="folder whose C/C++ files are grepped for optimisation pragmas")
    parser.add_argument("--no-objects", action="store_true",
                        help="only the steering check of --sources (no call graph)")
    parser.add_argument("objects", nargs="*", help="object files or folders of them")
    args = parser.parse_args()

    objects = object_files(args.objects)
    if not objects and not args.no_objects:
        print(f"check_layering: {args.module}: no object files given", file=sys.stderr)
        return 2
    root = os.path.realpath(args.root)
    files, calls = call_graph(objects, root)
    allowed = read_allowed(args.allow, args.module)

    failed = False
    mutual = sorted({tuple(sorted((a, b))) for a in calls for b in calls[a] if a in calls.get(b, {})})
    unexplained = [pair for pair in mutual if pair not in allowed]
    if unexplained:
        failed = True
        print(f"{args.module}: {len(unexplained)} pair(s) of files call into each other "
              f"(move the shared helpers into a lower file, or list a recursion in "
              f"{args.allow or 'an allow-list'}):")
        for a, b in unexplained:
            print(f"  {a} <-> {b}")
            print(f"      {a} calls {show(calls[a][b])}")
            print(f"      {b} calls {show(calls[b][a])}")
    stale = sorted(pair for pair in allowed if pair not in mutual)
    if stale:
        failed = True
        print(f"{args.module}: allowed pair(s) that no longer call each other (remove the line):")
        for a, b in stale:
            print(f"  {args.allow}:{allowed[(a, b)][1]}: {a} <-> {b}")
    for a, b in mutual:
        if (a, b) in allowed:
            print(f"{args.module}: allowed recursion {a} <-> {b}: {allowed[(a, b)][0]}")
    # A loop through three or more files is as much a layering break as a pair; it is
    # accepted only where every file in it belongs to an allowed recursion.
    allowed_files = {name for pair in allowed for name in pair}
    loops = [c for c in cycles(calls) if len(c) >= 3 and not set(c) <= allowed_files]
    for component in loops:
        failed = True
        print(f"{args.module}: a call cycle through {len(component)} files: {', '.join(component)}")

    found = steering(args.sources, os.path.dirname(root))
    if found:
        failed = True
        print(f"{args.module}: compiler steering in the sources (use data structures, code shape or "
              "CMake flags):")
        for line in found:
            print(f"  {line}")

    print(f"{args.module}: {len(files)} files, {sum(len(t) for t in calls.values())} file->file call "
          f"edges, {len(unexplained)} unexplained mutual pair(s), {len(loops)} longer cycle(s), "
          f"{len(found)} steering line(s): "
          f"{'FAIL' if failed else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
