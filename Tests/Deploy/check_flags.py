"""Every `switchyard-server` invocation in the deployment files uses only flags the CLI has.

Collects the argument lists passed to the production executable `switchyard-server` by the Dockerfile (CMD, and RUN lines that call it),
the compose file and the Kubernetes manifests (command/args), and the systemd unit (ExecStart*), then
checks each `--flag` against `switchyard-server <subcommand> --help`. The deployment files run the production
executable only: an invocation of the development `switchyard` is reported. Usage: check_flags.py
SWITCHYARD_SERVER DEPLOY_DIR
Every `serve` option but a few listed below also names its environment variable in its help.
"""
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

binary, deploy = sys.argv[1], Path(sys.argv[2])
SUBCOMMANDS = {"serve", "migrate", "plugins", "pin", "digest"}
invocations = []  # (where, [arguments after "switchyard-server"])
development = []  # where the development executable is run


def after_switchyard(tokens, where=None):
    """The arguments after the switchyard-server executable in a token list, or None."""
    for index, token in enumerate(tokens):
        if token == "switchyard-server" or token.endswith("/switchyard-server"):
            return tokens[index + 1:]
        if index == 0 and (token == "switchyard" or token.endswith("/switchyard")) and where:
            development.append(where)  # the command itself, not an argument such as a user or a directory
    return None


dockerfile = (deploy / "Dockerfile").read_text()
entrypoint_is_switchyard = False
for line in dockerfile.replace("\\\n", " ").splitlines():
    instruction, _, rest = line.strip().partition(" ")
    if instruction == "ENTRYPOINT":
        entrypoint_is_switchyard = after_switchyard(json.loads(rest), "Dockerfile ENTRYPOINT") == []
    elif instruction == "CMD" and entrypoint_is_switchyard:
        invocations.append(("Dockerfile CMD", json.loads(rest)))
    elif instruction == "RUN":
        for command in re.split(r"&&|\|\||;|\|", rest):
            command = command.split(">")[0]
            arguments = after_switchyard(shlex.split(command), "Dockerfile RUN")
            if arguments is not None:
                invocations.append(("Dockerfile RUN", arguments))

compose = yaml.safe_load((deploy / "compose.yaml").read_text())
for name, service in compose["services"].items():
    build = service.get("build", {})
    if isinstance(build, dict) and build.get("dockerfile", "").endswith("Dockerfile") and "command" in service:
        invocations.append((f"compose {name}", service["command"]))

for path in sorted((deploy / "kubernetes").glob("*.yaml")):
    for document in yaml.safe_load_all(path.read_text()):
        if not document or document.get("kind") != "Deployment":
            continue
        pod = document["spec"]["template"]["spec"]
        for container in pod.get("initContainers", []) + pod.get("containers", []):
            tokens = container.get("command", []) + container.get("args", [])
            where = f"{path.name} {container['name']}"
            arguments = after_switchyard(tokens, where) if container.get("command") else tokens
            invocations.append((f"{path.name} {container['name']}", arguments or []))

unit = (deploy / "switchyard.service").read_text()
for line in unit.splitlines():
    key, _, value = line.partition("=")
    if key.startswith("ExecStart"):
        arguments = after_switchyard(shlex.split(value.lstrip("-@:+!")), f"switchyard.service {key}")
        if arguments is not None:
            invocations.append((f"switchyard.service {key}", arguments))

help_cache = {}
failures = 0
checked = 0
for where, arguments in invocations:
    subcommand = []
    for token in arguments:
        if token in SUBCOMMANDS and not token.startswith("-"):
            subcommand.append(token)
        else:
            break
    if not subcommand:
        subcommand = ["serve"]  # the default subcommand
    key = " ".join(subcommand)
    if key not in help_cache:
        result = subprocess.run([binary, *subcommand, "--help"], capture_output=True, text=True)
        help_cache[key] = set(re.findall(r"--[a-z0-9][a-z0-9-]*", result.stdout + result.stderr))
    for token in arguments:
        if token.startswith("--"):
            flag = token.split("=", 1)[0]
            checked += 1
            if flag not in help_cache[key]:
                failures += 1
                print(f"deploy: {where} passes {flag}, which `switchyard-server {key}` does not have")
for where in development:
    failures += 1
    print(f"deploy: {where} runs the development executable `switchyard`, not `switchyard-server`")
print(f"deploy: {len(invocations)} switchyard-server invocations, {checked} flags checked, {failures} unknown")

# Every `serve` option a deployment sets can come from the environment too: its help names the variable.
# --data-dir belongs to the embedded default; --no-migrate is a switch the manifests pass as an argument.
WITHOUT_VARIABLE = {"--data-dir", "--no-migrate", "--help"}
serve_help = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True).stdout
options = re.split(r"\n  (?=--)", serve_help.split("OPTIONS:", 1)[-1])
for option in options:
    flag = re.match(r"\s*(--[a-z0-9-]+)", option)
    if not flag or flag.group(1) in WITHOUT_VARIABLE:
        continue
    if not re.search(r"(SWITCHYARD|OTEL)_[A-Z_]+", option.replace("\n", " ").replace(" ", "")):
        failures += 1
        print(f"deploy: `switchyard-server serve {flag.group(1)}` names no environment variable in its help")
if not invocations:
    print("deploy: no switchyard-server invocation found in the deployment files")
    sys.exit(1)
sys.exit(1 if failures else 0)
