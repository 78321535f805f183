#!/usr/bin/env bash
# Checks the deployment files against the CLI and their platforms' own validators, and runs the README's
# walkthroughs. Expects `swift build` to have built .build/debug/switchyard (the development executable, which
# the walkthroughs run) and .build/debug/switchyard-server (the production one, which the deployment files run).
#  - Kubernetes manifests: kubernetes-validate (offline schemas, from PyPI into a private virtual
#    environment under .build/) on every manifest but servicemonitor.yaml and postgres-cloudnativepg.yaml
#    (the Prometheus Operator's and CloudNativePG's custom resources, which it has no schema for), and
#    check_kubernetes.py on all of them (probes, resources, PodDisruptionBudget, Secrets, the public URL, the policy
#    ConfigMap's mount, the NetworkPolicy, the ServiceMonitor, the CloudNativePG Cluster);
#  - the Docker build context: .dockerignore lets in what the Dockerfile builds from and no local state;
#  - the compose file: healthchecks, read-only roots with a tmpfs, the KEK and operator token as secret files
#    (check_compose.py);
#  - the systemd unit: `systemd-analyze verify`, on a copy whose binary path is the built one, and
#    `systemd-analyze security --offline=true` rating its exposure at 2.0 or below, with the directives it
#    must carry (CapabilityBoundingSet=, RestrictAddressFamilies=, MemoryMax=, LoadCredential=kek);
#  - the production executable carries no provider emulator and no demo seed, has no `sandbox` command
#    and refuses to serve without a database (check_production_binary.sh);
#  - every flag the Dockerfile, the compose file, the unit and the manifests pass to switchyard-server
#    exists, and none of them runs the development executable;
#  - `switchyard-server policy check` passes the production policy and refuses a misspelt key;
#  - the README walkthroughs, against a fresh embedded default; then one more payment and
#    `promtool check metrics` (Debian's prometheus package) on GET /metrics and on the --metrics-port scrape,
#    and the policy file swapped as the kubelet updates a ConfigMap, then applied by policy/reload; and
#    `switchyard-server doctor` (doctor.sh) against that server's database.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=$(pwd)/.build/debug/switchyard-server
venv=.build/deploy-venv
python=${PYTHON:-python3}
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
    $sudo apt-get update -y -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3 python3-venv
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check kubernetes-validate==1.37.0
missing=()
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -y -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

echo "deploy: kubernetes-validate"
manifests=()
for manifest in deploy/kubernetes/*.yaml; do
  case "$manifest" in
    deploy/kubernetes/servicemonitor.yaml | deploy/kubernetes/postgres-cloudnativepg.yaml) ;;
    *) manifests+=("$manifest") ;;
  esac
done
"$venv/bin/kubernetes-validate" --strict --quiet "${manifests[@]}" || status=1
"$venv/bin/python" Tests/Deploy/check_kubernetes.py deploy/kubernetes/*.yaml || status=1

echo "deploy: the compose file"
"$venv/bin/python" Tests/Deploy/check_compose.py deploy/compose.yaml || status=1

echo "deploy: the Docker build context"
python3 Tests/Deploy/check_dockerignore.py || status=1

echo "deploy: the production executable"
bash Tests/Deploy/check_production_binary.sh "$binary" "$(dirname "$binary")/switchyard" || status=1

echo "deploy: systemd-analyze verify"
sed "s|/usr/local/bin/switchyard-server|$binary|g" deploy/switchyard.service >"$work/switchyard.service"
if ! systemd-analyze verify "$work/switchyard.service" >"$work/verify.log" 2>&1 || [ -s "$work/verify.log" ]; then
  cat "$work/verify.log"
  echo "deploy: the systemd unit does not verify cleanly"
  status=1
fi

echo "deploy: systemd-analyze security (exposure at most 2.0)"
systemd-analyze security --offline=true --threshold=20 "$work/switchyard.service" 2>&1 | tail -n 1
if ! systemd-analyze security --offline=true --threshold=20 "$work/switchyard.service" >/dev/null 2>&1; then
  systemd-analyze security --offline=true "$work/switchyard.service" 2>&1 | grep -v '✓' || true
  echo "deploy: the systemd unit's exposure is above 2.0"
  status=1
fi
for directive in '^CapabilityBoundingSet=$' '^RestrictAddressFamilies=' '^MemoryMax=' '^LoadCredential=kek:' \
  '--kek-file \$\{CREDENTIALS_DIRECTORY\}/kek'; do
  grep -qE -- "$directive" deploy/switchyard.service || { echo "deploy: the systemd unit lacks $directive"; status=1; }
done

echo "deploy: flags passed to switchyard-server"
"$venv/bin/python" Tests/Deploy/check_flags.py "$binary" deploy || status=1

echo "deploy: the resource bundle ships beside the binary"
grep -q 'cp -R .build/release/Switchyard_SwitchyardHTTP.resources /out/' deploy/Dockerfile \
  && grep -q 'COPY --from=build /out/Switchyard_SwitchyardHTTP.resources /usr/local/bin/' deploy/Dockerfile \
  || { echo "deploy: the Dockerfile does not install Switchyard_SwitchyardHTTP.resources beside the binary"; status=1; }
# A binary installed without its bundle refuses to serve, naming what is missing; with it, it gets past that.
mkdir -p "$work/bin"
cp "$binary" "$work/bin/switchyard-server"
"$work/bin/switchyard-server" serve --database-url postgresql:///none --no-migrate >"$work/bundle.log" 2>&1 && status=1
grep -q "install the Switchyard_SwitchyardHTTP.resources directory" "$work/bundle.log" \
  || { cat "$work/bundle.log"; echo "deploy: serve without its resource bundle did not say so"; status=1; }
cp -R "$(dirname "$binary")/Switchyard_SwitchyardHTTP.resources" "$work/bin/"
"$work/bin/switchyard-server" serve --database-url postgresql:///none --no-migrate >"$work/bundle.log" 2>&1 && status=1
grep -q "Switchyard_SwitchyardHTTP.resources" "$work/bundle.log" \
  && { cat "$work/bundle.log"; echo "deploy: serve did not find the resource bundle beside the binary"; status=1; }

echo "deploy: policy check"
"$binary" policy check deploy/policy.production.json || { echo "deploy: the production policy does not check"; status=1; }
printf '{"adaptive_routing":{"windw_seconds":600},"plugins":{"mode":"pinned","allowed":[{"id":"a","sah256":[]}]}}' \
  >"$work/typo.json"
"$binary" policy check "$work/typo.json" >"$work/typo.log" 2>&1 && { echo "deploy: policy check accepted typos"; status=1; }
for line in "adaptive_routing.windw_seconds: unknown key, did you mean window_seconds?" \
  "plugins.allowed[0].sah256: unknown key, did you mean sha256?"; do
  grep -qF "$line" "$work/typo.log" || { cat "$work/typo.log"; echo "deploy: policy check did not say: $line"; status=1; }
done

echo "deploy: the public URL is configured"
for file in deploy/compose.yaml deploy/switchyard.env.example deploy/switchyard.service deploy/Dockerfile; do
  grep -q SWITCHYARD_PUBLIC_URL "$file" || { echo "deploy: $file does not set or document SWITCHYARD_PUBLIC_URL"; status=1; }
done

echo "deploy: README walkthroughs, then switchyard-server doctor, promtool on both scrapes and a ConfigMap-style policy reload"
WALKTHROUGH_AFTER="bash $(pwd)/Tests/Deploy/after_walkthrough.sh" bash Tests/Deploy/walkthrough.sh || status=1
echo "deploy: the plugin author's guide (docs/plugins.md): plugins sdk and new (Swift and C) outside the checkout, build, check, install into a running embedded default, a payment routed to the new plugin and refunded"
WALKTHROUGH_DOCS=docs/plugins.md WALKTHROUGH_AFTER="bash $(pwd)/Tests/Deploy/plugin_install_check.sh" \
  bash Tests/Deploy/walkthrough.sh || status=1
echo "deploy: the C example built against the frozen first version-1 header passes plugins check"
bash Tests/Deploy/frozen_header_check.sh || status=1
[ "$status" -eq 0 ] && echo "deploy: all checks passed"
exit $status
