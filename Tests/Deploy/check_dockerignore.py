"""The Docker build context (`docker build -f deploy/Dockerfile .` from the repository root) holds what the
Dockerfile's build needs and no local state. Applies .dockerignore as Docker does (patterns in order, the
last one matching a path or one of its parent directories decides, `!` lets back in, `*` and `?` stop at
`/`, `**` crosses directories) to every tracked file and to local state that may lie in a work tree.
Usage: check_dockerignore.py (from the repository root)"""
import re
import subprocess
import sys
from pathlib import Path

NEEDED_PREFIXES = ("Package.swift", "Sources/", "Plugins/", "BuildTools/", "Tests/", "deploy/policy.production.json")
LOCAL_STATE = [
    ".build/debug/switchyard", ".build/release/libCitconPlugin.so", ".build/checkouts/x/Package.swift",
    ".switchyard/kek", ".switchyard/operator-token", ".switchyard/postgres/PG_VERSION", ".git/HEAD",
    ".git/objects/00/abcdef", ".swiftpm/xcode/x", "Package.resolved", "Tests/Console/.build/x",
    "Sources/switchyard/.switchyard/kek", "deploy/switchyard.env", "Tests/Deploy/__pycache__/x.pyc",
    "kek", "operator-token", "policy.json.bak",
]


def compile_pattern(pattern):
    """A .dockerignore line as (regex, excludes), or None for a blank line or a comment."""
    pattern = pattern.strip()
    if not pattern or pattern.startswith("#"):
        return None
    excludes = not pattern.startswith("!")
    pattern = pattern.lstrip("!").strip().strip("/")
    regex, index = "", 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            regex, index = regex + "(?:.*/)?", index + 3
        elif pattern.startswith("**", index):
            regex, index = regex + ".*", index + 2
        elif pattern[index] == "*":
            regex, index = regex + "[^/]*", index + 1
        elif pattern[index] == "?":
            regex, index = regex + "[^/]", index + 1
        else:
            regex, index = regex + re.escape(pattern[index]), index + 1
    return re.compile(regex + r"\Z"), excludes


def excluded(path, patterns):
    """Whether `path` is left out of the build context."""
    parts = path.split("/")
    candidates = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    verdict = False
    for regex, excludes in patterns:
        if any(regex.match(candidate) for candidate in candidates):
            verdict = excludes
    return verdict


patterns = [p for p in map(compile_pattern, Path(".dockerignore").read_text().splitlines()) if p]
tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()
problems = [
    f"{path} is needed by the build but left out of the context"
    for path in tracked if path.startswith(NEEDED_PREFIXES) and excluded(path, patterns)
]
problems += [f"{path} (local state) would be sent with the build context" for path in LOCAL_STATE
             if not excluded(path, patterns)]
sent = sum(not excluded(path, patterns) for path in tracked)
for problem in problems:
    print(f"dockerignore: {problem}")
print(f"dockerignore: {sent} of {len(tracked)} tracked files in the build context, {len(problems)} problems")
sys.exit(1 if problems else 0)
