"""What deploy/compose.yaml must hold: a healthcheck on every long-running service (the server's on /ready or
/health, PostgreSQL's with pg_isready; a one-shot job that others wait for with service_completed_successfully
may disable its own), a read-only root filesystem on every service with a tmpfs for /tmp, and the KEK and the
operator token as compose secrets mounted as files and read from there (--kek-file, *_FILE), never as
plain environment values of the server.
Usage: check_compose.py FILE"""
import sys

import yaml

compose = yaml.safe_load(open(sys.argv[1]))
services = compose.get("services") or {}
declared = set((compose.get("secrets") or {}).keys())
problems = []
one_shot = {
    name for service in services.values() if isinstance(service.get("depends_on"), dict)
    for name, condition in service["depends_on"].items()
    if (condition or {}).get("condition") == "service_completed_successfully"
}
for name, service in services.items():
    check = service.get("healthcheck") or {}
    test = check.get("test")
    command = " ".join(map(str, test)) if isinstance(test, list) else str(test or "")
    if check.get("disable"):
        if name not in one_shot:
            problems.append(f"{name}: its healthcheck is disabled, but it is not a one-shot job others wait for")
    elif not test:
        problems.append(f"{name}: no healthcheck")
    elif "postgres" in str(service.get("image", "")) and "pg_isready" not in command:
        problems.append(f"{name}: the healthcheck does not run pg_isready")
    elif "build" in service and "/ready" not in command and "/health" not in command:
        problems.append(f"{name}: the healthcheck does not ask /ready or /health")
    if service.get("read_only") is not True:
        problems.append(f"{name}: no read_only: true")
    if "/tmp" not in (service.get("tmpfs") or []):
        problems.append(f"{name}: no tmpfs on /tmp")
server = services.get("switchyard") or {}
environment = server.get("environment") or {}
for variable in ("SWITCHYARD_KEK", "SWITCHYARD_OPERATOR_TOKEN"):
    if variable in environment:
        problems.append(f"switchyard: {variable} is passed in the environment, not as a secret file")
mounted = {}
for secret in server.get("secrets") or []:
    source = secret if isinstance(secret, str) else secret["source"]
    target = source if isinstance(secret, str) else secret.get("target", source)
    if source not in declared:
        problems.append(f"switchyard: secret {source} is not declared under secrets:")
    mounted[source] = target if target.startswith("/") else f"/run/secrets/{target}"
command = server.get("command") or []
kek = command[command.index("--kek-file") + 1] if "--kek-file" in command else None
if kek is None or kek not in mounted.values():
    problems.append(f"switchyard: --kek-file ({kek}) is not a mounted secret")
if environment.get("SWITCHYARD_OPERATOR_TOKEN_FILE") not in mounted.values():
    problems.append("switchyard: SWITCHYARD_OPERATOR_TOKEN_FILE does not name a mounted secret")
for problem in problems:
    print(f"compose: {problem}")
print(f"compose: {len(services)} services checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
