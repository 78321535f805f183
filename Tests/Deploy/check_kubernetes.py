"""What the Kubernetes manifests must hold beyond their schema (kubernetes-validate checks that):
probes on /health (liveness) and /ready (readiness), resource requests and limits on every container,
a PodDisruptionBudget selecting the pods, and Secrets holding the KEK and the operator token that the
server reads; a public URL (SWITCHYARD_PUBLIC_URL or --public-url) that is not loopback; the policy file a key of a ConfigMap mounted as a directory (no subPath, so the kubelet updates
it in place and `policy/reload` reads the new one), holding a policy with the production one's sections; a
NetworkPolicy over the pods whose ingress ports are the container's ports and whose egress lets DNS,
PostgreSQL and HTTPS out; and the ServiceMonitor, a custom resource kubernetes-validate has no schema for:
its required fields, a selector matching the Service and a port that is the Service's port to --metrics-port;
every pod template (init containers included) within the Pod Security "restricted" profile, images pinned by
digest or a version tag, a startupProbe, a ServiceAccount mounting no token, replicas spread over nodes and a
HorizontalPodAutoscaler (autoscaling/v2) whose minimum leaves the PodDisruptionBudget room;
and the CloudNativePG Cluster, another custom resource: at least three instances, synchronous replication
that waits for a standby, storage, and the Secrets its bootstrap owner and managed roles read.
Usage: check_kubernetes.py FILE..."""
import json
import re
import sys
from pathlib import Path

import yaml

PRODUCTION_POLICY = Path(__file__).resolve().parents[2] / "deploy" / "policy.production.json"


def option(args, flag):
    """The value after `flag` in `args`, or None."""
    return args[args.index(flag) + 1] if flag in args and args.index(flag) + 1 < len(args) else None


def selects(selector, labels):
    """Whether a matchLabels `selector` selects objects labelled `labels` (an empty one selects nothing here)."""
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())

def check_policy_mount(name, container, pod):
    """The --policy file is a key of a mounted ConfigMap holding a policy, the directory mounted without subPath."""
    where = f"{name}/{container['name']}"
    path = option(container.get("args", []), "--policy")
    if path is None:
        return [f"{where}: no --policy"]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    config_maps = {c["metadata"]["name"]: c.get("data") or {} for c in by_kind.get("ConfigMap", [])}
    for mount in container.get("volumeMounts", []):
        directory = mount["mountPath"].rstrip("/")
        volume = volumes.get(mount["name"], {})
        if "configMap" not in volume or not (path == directory or path.startswith(directory + "/")):
            continue
        if "subPath" in mount or "subPathExpr" in mount:
            return [f"{where}: the policy's ConfigMap is mounted with a subPath, which is never updated in place"]
        key = path[len(directory) + 1:]
        data = config_maps.get(volume["configMap"]["name"])
        if data is None:
            return [f"{where}: the policy's ConfigMap {volume['configMap']['name']} is not in the manifests"]
        if key not in data:
            return [f"{where}: the policy file {path} is not a key of ConfigMap {volume['configMap']['name']}"]
        try:
            policy = json.loads(data[key])
        except ValueError as error:
            return [f"{where}: the policy in ConfigMap {volume['configMap']['name']} is not JSON: {error}"]
        production = json.loads(PRODUCTION_POLICY.read_text())
        if policy != production:
            return [f"{where}: the ConfigMap's policy is not deploy/policy.production.json (update both)"]
        return []
    return [f"{where}: the policy file {path} is not inside a mounted ConfigMap"]


def check_public_url(name, container):
    """The server is told its public URL (SWITCHYARD_PUBLIC_URL or --public-url), and not a loopback one:
    `serve` with an external database refuses to start without it."""
    args = container.get("args", [])
    given = [e for e in container.get("env", []) if e["name"] == "SWITCHYARD_PUBLIC_URL"]
    # A value from a ConfigMap or a Secret (valueFrom) is set, though not readable here.
    urls = [e["value"] for e in given if e.get("value")]
    if "--public-url" in args:
        urls.append(option(args, "--public-url"))
    if not urls and not any("valueFrom" in e for e in given):
        return [f"{name}/{container['name']}: no SWITCHYARD_PUBLIC_URL (or --public-url)"]
    loopback = re.compile(r"^https?://(localhost|127(\.\d+){3}|\[::1\]|0\.0\.0\.0)([:/]|$)", re.IGNORECASE)
    return [
        f"{name}/{container['name']}: the public URL {u} is a loopback address" for u in urls if u and loopback.match(u)
    ]


def container_ports(container):
    """The container's ports by name and by number."""
    ports = {}
    for port in container.get("ports", []):
        ports[port["containerPort"]] = port["containerPort"]
        if "name" in port:
            ports[port["name"]] = port["containerPort"]
    return ports


def check_network_policies(name, container, labels):
    """A NetworkPolicy selects the pods; its ingress ports are exactly the container's; egress has DNS,
    the database's port and HTTPS."""
    where = f"{name}/{container['name']}"
    policies = [p for p in by_kind.get("NetworkPolicy", []) if selects(p["spec"]["podSelector"].get("matchLabels"), labels)]
    if not policies:
        return [f"{name}: no NetworkPolicy selects its pods"]
    problems = []
    ports = container_ports(container)
    for policy in policies:
        types = set(policy["spec"].get("policyTypes", []))
        if types != {"Ingress", "Egress"}:
            problems.append(f"NetworkPolicy {policy['metadata']['name']}: policyTypes is not Ingress and Egress")
        admitted = set()
        for rule in policy["spec"].get("ingress", []):
            for port in rule.get("ports", []):
                if port["port"] not in ports:
                    problems.append(f"NetworkPolicy {policy['metadata']['name']}: ingress port {port['port']} "
                                    f"is not a port of {where}")
                else:
                    admitted.add(ports[port["port"]])
        for number in sorted(set(ports.values()) - admitted):
            problems.append(f"NetworkPolicy {policy['metadata']['name']}: {where}'s port {number} is not let in")
        let_out = {(p.get("protocol", "TCP"), p["port"]) for r in policy["spec"].get("egress", []) for p in r.get("ports", [])}
        for protocol, port, what in (("UDP", 53, "DNS"), ("TCP", 5432, "PostgreSQL"), ("TCP", 443, "HTTPS to providers")):
            if (protocol, port) not in let_out:
                problems.append(f"NetworkPolicy {policy['metadata']['name']}: egress does not let {what} out "
                                f"({protocol} {port})")
    return problems


def check_service_monitors(name, container, labels):
    """A ServiceMonitor scrapes /metrics on a port of a Service over the pods that leads to --metrics-port."""
    where = f"{name}/{container['name']}"
    monitors = by_kind.get("ServiceMonitor", [])
    if not monitors:
        return [f"{name}: no ServiceMonitor"]
    metrics_port = option(container.get("args", []), "--metrics-port")
    if metrics_port is None:
        return [f"{where}: a ServiceMonitor but no --metrics-port"]
    ports = container_ports(container)
    problems = []
    for monitor in monitors:
        title = f"ServiceMonitor {monitor.get('metadata', {}).get('name')}"
        if monitor.get("apiVersion") != "monitoring.coreos.com/v1":
            problems.append(f"{title}: apiVersion is not monitoring.coreos.com/v1")
        spec = monitor.get("spec") or {}
        if not spec.get("endpoints"):
            problems.append(f"{title}: no spec.endpoints")
        services = [
            s for s in by_kind.get("Service", [])
            if selects(spec.get("selector", {}).get("matchLabels"), s["metadata"].get("labels", {}))
            and selects(s["spec"].get("selector"), labels)
        ]
        if not services:
            problems.append(f"{title}: its selector matches no Service over {name}'s pods")
            continue
        for endpoint in spec.get("endpoints", []):
            if endpoint.get("path", "/metrics") != "/metrics":
                problems.append(f"{title}: scrapes {endpoint['path']}, not /metrics")
            service_ports = {p.get("name"): p for s in services for p in s["spec"]["ports"]}
            port = service_ports.get(endpoint.get("port"))
            if port is None:
                problems.append(f"{title}: port {endpoint.get('port')} is not a named port of the Service")
            elif ports.get(port.get("targetPort", port["port"])) != int(metrics_port):
                problems.append(f"{title}: port {endpoint['port']} does not lead to --metrics-port {metrics_port}")
    return problems


def check_cloudnativepg_clusters():
    """Each CloudNativePG Cluster: its apiVersion, three instances or more, a commit waiting for a standby
    (spec.postgresql.synchronous with a number of 1 or more and durability required, or the older
    minSyncReplicas), storage sized, and basic-auth Secrets in the manifests for the owner and login roles."""
    problems = []
    for cluster in by_kind.get("Cluster", []):
        title = f"Cluster {cluster.get('metadata', {}).get('name')}"
        if cluster.get("apiVersion") != "postgresql.cnpg.io/v1":
            problems.append(f"{title}: apiVersion is not postgresql.cnpg.io/v1")
            continue
        spec = cluster.get("spec") or {}
        instances = spec.get("instances")
        if not isinstance(instances, int) or instances < 3:
            problems.append(f"{title}: fewer than 3 instances ({instances})")
        synchronous = (spec.get("postgresql") or {}).get("synchronous")
        if synchronous is not None:
            if synchronous.get("method") not in ("any", "first") or int(synchronous.get("number", 0)) < 1:
                problems.append(f"{title}: postgresql.synchronous does not wait for a standby (method any or "
                                "first, number 1 or more)")
            if synchronous.get("dataDurability", "required") != "required":
                problems.append(f"{title}: postgresql.synchronous.dataDurability is not required: a commit "
                                "could be acknowledged by the primary alone")
        elif int(spec.get("minSyncReplicas", 0)) < 1:
            problems.append(f"{title}: no synchronous replication (postgresql.synchronous or minSyncReplicas)")
        if not (spec.get("storage") or {}).get("size"):
            problems.append(f"{title}: no storage.size")
        referenced = [((spec.get("bootstrap") or {}).get("initdb") or {}).get("secret", {}).get("name")]
        referenced += [r.get("passwordSecret", {}).get("name") for r in (spec.get("managed") or {}).get("roles", [])
                       if r.get("login")]
        for name in referenced:
            secret = next((x for x in by_kind.get("Secret", []) if x["metadata"]["name"] == name), None)
            if name is None or secret is None:
                problems.append(f"{title}: the Secret {name} of a login role is not in the manifests")
            elif secret.get("type") != "kubernetes.io/basic-auth" or \
                    not {"username", "password"} <= set((secret.get("stringData") or {}) | (secret.get("data") or {})):
                problems.append(f"{title}: Secret {name} is not a basic-auth Secret with a username and a password")
    return problems


RESTRICTED_VOLUME_TYPES = {
    "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret",
}
HOST_NAMESPACE_FIELDS = ("hostNetwork", "hostPID", "hostIPC")


def pod_templates(document):
    """The pod specs a workload document runs, with a title: (title, pod spec) pairs."""
    kind, title = document["kind"], f"{document['kind']} {document['metadata']['name']}"
    spec = document.get("spec") or {}
    if kind == "Pod":
        return [(title, spec)]
    if kind == "CronJob":
        spec = (spec.get("jobTemplate") or {}).get("spec") or {}
    template = spec.get("template")
    return [(title, template.get("spec") or {})] if isinstance(template, dict) else []


def check_restricted(title, pod):
    """Pod Security Standards, profile "restricted", on one pod spec (init and ephemeral containers included):
    non-root, no privilege escalation, every capability dropped (NET_BIND_SERVICE the only one added back), the
    RuntimeDefault or Localhost seccomp profile, no host namespaces, ports or paths, only the allowed volume types."""
    problems = []
    pod_context = pod.get("securityContext") or {}
    for field in HOST_NAMESPACE_FIELDS:
        if pod.get(field) is True:
            problems.append(f"{title}: {field} is set")
    for volume in pod.get("volumes", []):
        kinds = set(volume) - {"name"}
        if not kinds <= RESTRICTED_VOLUME_TYPES:
            problems.append(f"{title}: volume {volume['name']} is of a type the restricted profile refuses: {sorted(kinds)}")
    pod_seccomp = (pod_context.get("seccompProfile") or {}).get("type")
    containers = pod.get("initContainers", []) + pod.get("containers", []) + pod.get("ephemeralContainers", [])
    for container in containers:
        where = f"{title}/{container['name']}"
        context = container.get("securityContext") or {}
        if context.get("privileged"):
            problems.append(f"{where}: privileged")
        if context.get("allowPrivilegeEscalation") is not False:
            problems.append(f"{where}: allowPrivilegeEscalation is not false")
        if context.get("runAsNonRoot", pod_context.get("runAsNonRoot")) is not True:
            problems.append(f"{where}: runAsNonRoot is not true (on the container or the pod)")
        if context.get("runAsUser", pod_context.get("runAsUser")) == 0:
            problems.append(f"{where}: runAsUser is 0")
        capabilities = context.get("capabilities") or {}
        if "ALL" not in (capabilities.get("drop") or []):
            problems.append(f"{where}: capabilities.drop does not hold ALL")
        if set(capabilities.get("add") or []) - {"NET_BIND_SERVICE"}:
            problems.append(f"{where}: capabilities.add holds more than NET_BIND_SERVICE")
        seccomp = (context.get("seccompProfile") or {}).get("type", pod_seccomp)
        if seccomp not in ("RuntimeDefault", "Localhost"):
            problems.append(f"{where}: seccompProfile is not RuntimeDefault (on the container or the pod)")
        if context.get("readOnlyRootFilesystem") is not True:
            problems.append(f"{where}: readOnlyRootFilesystem is not true")
        if any(port.get("hostPort") for port in container.get("ports", [])):
            problems.append(f"{where}: a hostPort")
        image = container.get("image", "")
        if "@sha256:" not in image:
            tag = image.rsplit("/", 1)[-1].partition(":")[2]
            if not tag or tag == "latest" or not re.fullmatch(r"v?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?", tag):
                problems.append(f"{where}: image {image!r} is neither pinned by digest nor a version tag")
    return problems


def check_hardening(name, pod, labels, replicas):
    """Beyond the restricted profile: a startupProbe on every serving container, a ServiceAccount of the
    manifests that mounts no token, replicas spread over nodes, and an autoscaler whose minimum keeps the
    PodDisruptionBudget satisfiable."""
    problems = []
    for container in pod.get("containers", []):
        if "startupProbe" not in container:
            problems.append(f"{name}/{container['name']}: no startupProbe")
    accounts = {a["metadata"]["name"]: a for a in by_kind.get("ServiceAccount", [])}
    account = pod.get("serviceAccountName")
    if account is None or account == "default":
        problems.append(f"{name}: the pods run as the namespace's default ServiceAccount")
    elif account not in accounts:
        problems.append(f"{name}: ServiceAccount {account} is not in the manifests")
    elif accounts[account].get("automountServiceAccountToken") is not False:
        problems.append(f"{name}: ServiceAccount {account} does not set automountServiceAccountToken: false")
    if pod.get("automountServiceAccountToken") is True:
        problems.append(f"{name}: the pod mounts a ServiceAccount token")
    spread = [
        c for c in pod.get("topologySpreadConstraints", [])
        if c.get("topologyKey") == "kubernetes.io/hostname"
        and selects((c.get("labelSelector") or {}).get("matchLabels"), labels)
    ]
    if not spread:
        problems.append(f"{name}: no topologySpreadConstraints over kubernetes.io/hostname selecting its pods")
    autoscalers = [
        h for h in by_kind.get("HorizontalPodAutoscaler", [])
        if h["spec"].get("scaleTargetRef", {}).get("name") == name
        and h["spec"].get("scaleTargetRef", {}).get("kind") == "Deployment"
    ]
    if not autoscalers:
        problems.append(f"{name}: no HorizontalPodAutoscaler scales it")
    for autoscaler in autoscalers:
        title = f"HorizontalPodAutoscaler {autoscaler['metadata']['name']}"
        if autoscaler.get("apiVersion") != "autoscaling/v2":
            problems.append(f"{title}: apiVersion is not autoscaling/v2")
        low = autoscaler["spec"].get("minReplicas", 1)
        for budget in by_kind.get("PodDisruptionBudget", []):
            if not selects(budget["spec"]["selector"].get("matchLabels"), labels):
                continue
            needed = budget["spec"].get("minAvailable")
            if isinstance(needed, int) and low <= needed:
                problems.append(f"{title}: minReplicas {low} leaves no pod to disrupt under PodDisruptionBudget "
                                f"{budget['metadata']['name']} (minAvailable {needed})")
        if replicas is not None and replicas < low:
            problems.append(f"{title}: the Deployment's replicas {replicas} are below minReplicas {low}")
    return problems


def check_kustomization(paths):
    """Every manifest beside a kustomization.yaml is one of its resources."""
    problems = []
    for directory in {Path(p).resolve().parent for p in paths}:
        kustomization = directory / "kustomization.yaml"
        if not kustomization.exists():
            continue
        listed = set((yaml.safe_load(kustomization.read_text()) or {}).get("resources") or [])
        for manifest in sorted(directory.glob("*.yaml")):
            if manifest.name != "kustomization.yaml" and manifest.name not in listed:
                problems.append(f"{kustomization.name}: {manifest.name} is not among its resources")
    return problems


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
        problems.extend(check_public_url(name, container))
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
        problems.extend(check_policy_mount(name, container, pod))
        problems.extend(check_network_policies(name, container, labels))
        problems.extend(check_service_monitors(name, container, labels))
    budgets = [
        b for b in by_kind.get("PodDisruptionBudget", [])
        if all(labels.get(k) == v for k, v in b["spec"]["selector"].get("matchLabels", {}).items())
    ]
    if not budgets:
        problems.append(f"{name}: no PodDisruptionBudget selects its pods")
    if pod.get("terminationGracePeriodSeconds", 30) < 30:
        problems.append(f"{name}: terminationGracePeriodSeconds shorter than the drain")
    problems.extend(check_hardening(name, pod, labels, deployment["spec"].get("replicas")))

for document in documents:
    for title, pod in pod_templates(document):
        problems.extend(check_restricted(title, pod))
problems.extend(check_kustomization(sys.argv[1:]))

problems.extend(check_cloudnativepg_clusters())

for problem in problems:
    print(f"kubernetes: {problem}")
print(f"kubernetes: {len(documents)} resources checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
