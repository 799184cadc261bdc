#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The shared library's dynamic interface is the public API, and nothing else.

Usage: check_public_api.py LIBRARY HEADER_DIR...

HEADER_DIR: the folders whose shaderbridge/*.h are installed (cmake/Install.cmake
installs <module>/include/shaderbridge). Fails, listing each offender, when
  - LIBRARY exports a defined dynamic symbol that no installed header declares
    (an internal function leaking out: another copy of the name in the
    application or in a layer could bind to ours);
  - an installed header declares a function the library does not export, or
    declares one without SB_API (it would be hidden by -fvisibility=hidden);
  - an exported or declared name does not start with sb_;
  - an installed header includes a project header that is not installed
    (the IR and decoders in translator/internal are internal: an installed
    header that includes one makes every IR change an ABI break).
"""
import os
import re
import subprocess
import sys

DECLARATION = re.compile(r'^(SB_API\s+)?(?!typedef|#|struct \w+ \{|enum \w+ \{|union)'
                         r'[A-Za-z][^;{}()=]*?\b(sb_\w+)\(', re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def exported_symbols(library):
    out = subprocess.run(['nm', '-D', '--defined-only', library], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            names.add(parts[2].split('@')[0])
    return names


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    library, header_dirs = sys.argv[1], sys.argv[2:]
    problems = []
    declared = {}
    installed = set()
    headers = []
    for d in header_dirs:
        folder = os.path.join(d, 'shaderbridge')
        for name in sorted(os.listdir(folder)):
            if name.endswith('.h'):
                installed.add('shaderbridge/' + name)
                headers.append(os.path.join(folder, name))
    for path in headers:
        text = open(path, encoding='utf-8').read()
        # Comments may mention functions: only code counts.
        code = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
        code = re.sub(r'//[^\n]*', '', code)
        for m in DECLARATION.finditer(code):
            name = m.group(2)
            declared[name] = path
            if not m.group(1):
                problems.append(f'{path}: {name} is declared without SB_API')
        for inc in INCLUDE.findall(code):
            if inc not in installed:
                problems.append(f'{path}: includes "{inc}", which is not an installed header')
    exported = exported_symbols(library)
    for name in sorted(exported - set(declared)):
        problems.append(f'{library}: exports {name}, which no installed header declares')
    for name in sorted(set(declared) - exported):
        problems.append(f'{declared[name]}: declares {name}, which {os.path.basename(library)} '
                        'does not export')
    for name in sorted(exported | set(declared)):
        if not name.startswith('sb_'):
            problems.append(f'{name}: public names start with sb_')
    print(f'{len(exported)} exported functions, {len(declared)} declared in '
          f'{len(headers)} installed headers')
    for p in problems:
        print('FAIL:', p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
