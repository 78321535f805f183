"""What the Kubernetes manifests must hold beyond their schema (kubernetes-validate checks that):
probes on /health (liveness) and /ready (readiness), resource requests and limits on every container,
a PodDisruptionBudget selecting the pods, and Secrets holding the KEK and the operator token that the
server reads. Usage: check_kubernetes.py FILE..."""
import sys

import yaml

documents = [d for path in sys.argv[1:] for d in yaml.safe_load_all(open(path)) if d]
problems = []
by_kind = {}
for document in documents:
    by_kind.setdefault(document["kind"], []).append(document)

secrets = {s["metadata"]["name"]: set((s.get("stringData") or {}) | (s.get("data") or {})) for s in by_kind.get("Secret", [])}
deployments = by_kind.get("Deployment", [])
if not deployments:
    problems.append("no Deployment")
for deployment in deployments:
    name = deployment["metadata"]["name"]
    pod = deployment["spec"]["template"]["spec"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    for container in pod.get("initContainers", []) + pod.get("containers", []):
        resources = container.get("resources", {})
        for part in ("requests", "limits"):
            for resource in ("cpu", "memory"):
                if resource not in resources.get(part, {}):
                    problems.append(f"{name}/{container['name']}: no {part}.{resource}")
    for container in pod.get("containers", []):
        for probe, path in (("livenessProbe", "/health"), ("readinessProbe", "/ready")):
            if container.get(probe, {}).get("httpGet", {}).get("path") != path:
                problems.append(f"{name}/{container['name']}: {probe} is not an HTTP GET of {path}")
        referenced = {
            (e["valueFrom"]["secretKeyRef"]["name"], e["valueFrom"]["secretKeyRef"]["key"])
            for e in container.get("env", []) if "secretKeyRef" in e.get("valueFrom", {})
        }
        names = {e["name"] for e in container.get("env", [])}
        if "SWITCHYARD_OPERATOR_TOKEN" not in names:
            problems.append(f"{name}/{container['name']}: no SWITCHYARD_OPERATOR_TOKEN")
        for secret, key in referenced:
            if key not in secrets.get(secret, set()):
                problems.append(f"{name}/{container['name']}: secret {secret} has no key {key}")
        args = container.get("args", [])
        if "--kek-file" not in args:
            problems.append(f"{name}/{container['name']}: no --kek-file")
        else:
            kek = args[args.index("--kek-file") + 1]
            mounts = {m["name"]: m["mountPath"] for m in container.get("volumeMounts", [])}
            volumes = {v["name"]: v for v in pod.get("volumes", [])}
            found = [
                volumes[v]["secret"]["secretName"] for v, path in mounts.items()
                if kek.startswith(path.rstrip("/") + "/") and "secret" in volumes.get(v, {})
            ]
            if not found or kek.rsplit("/", 1)[1] not in secrets.get(found[0], set()):
                problems.append(f"{name}/{container['name']}: the KEK file {kek} is not a key of a mounted Secret")
    budgets = [
        b for b in by_kind.get("PodDisruptionBudget", [])
        if all(labels.get(k) == v for k, v in b["spec"]["selector"].get("matchLabels", {}).items())
    ]
    if not budgets:
        problems.append(f"{name}: no PodDisruptionBudget selects its pods")
    if pod.get("terminationGracePeriodSeconds", 30) < 30:
        problems.append(f"{name}: terminationGracePeriodSeconds shorter than the drain")

for problem in problems:
    print(f"kubernetes: {problem}")
print(f"kubernetes: {len(documents)} resources checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
