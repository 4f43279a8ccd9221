#!/usr/bin/env bash
# Proves the Helm chart would install, short of a cluster. One line per check, then a summary:
#   - helm lint --strict of deploy/helm/billing with the default values (plus the one required
#     value, mongo.url), with deploy/helm/values-production.yaml, and with every optional part on;
#   - helm template of each, validated by kubeconform -strict against the Kubernetes API's JSON
#     schemas at the oldest and the newest Kubernetes version we have schemas for;
#   - values the chart must refuse are refused, with their message;
#   - the production render keeps the promises of values-production.yaml (deploy/check-render.mjs:
#     replicas, probes, resources, PodDisruptionBudgets, NetworkPolicies, external MongoDB/NATS).
#
# Tools, installed when missing (idempotent; nothing is downloaded from GitHub):
#   helm         go install helm.sh/helm/v3/cmd/helm@v3.22.0                       → $TOOLS_BIN
#   kubeconform  go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0    → $TOOLS_BIN
#   schemas      the PyPI package kubernetes-validate 1.37.0 (pip download): the Kubernetes
#                API's JSON schemas per version ("local-strict": additionalProperties false),
#                extracted to $SCHEMA_DIR with their references made file-relative so that
#                kubeconform reads them offline (-schema-location).
# Env: DEPLOY_TOOLS_BIN (.infra/bin), DEPLOY_SCHEMA_DIR (.infra/k8s-schemas),
#      DEPLOY_KUBE_VERSIONS ("1.25.0 1.37.0"). Needs Go, Python 3 with pip, Node (and `npm ci`
#      done: check-render.mjs reads YAML with the `yaml` package).
# A cold Go build cache makes the first `go install` of helm take minutes (deploy/README.md).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHART="$ROOT/deploy/helm/billing"
PROD_VALUES="$ROOT/deploy/helm/values-production.yaml"
TOOLS_BIN="${DEPLOY_TOOLS_BIN:-$ROOT/.infra/bin}"
SCHEMA_DIR="${DEPLOY_SCHEMA_DIR:-$ROOT/.infra/k8s-schemas}"
HELM_VERSION="v3.22.0"
KUBECONFORM_VERSION="v0.8.0"
SCHEMAS_PACKAGE="kubernetes-validate==1.37.0"
read -r -a KUBE_VERSIONS <<<"${DEPLOY_KUBE_VERSIONS:-1.25.0 1.37.0}"
HELM="$TOOLS_BIN/helm"
KUBECONFORM="$TOOLS_BIN/kubeconform"

started=$SECONDS
passed=0
failed=0
failures=()
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

say() { printf '[deploy] %s\n' "$*"; }
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$*"; }
fail() { # summary, details file (optional)
  failed=$((failed + 1)); failures+=("$1"); printf 'FAIL  %s\n' "$1"
  if [[ -n "${2:-}" && -s "$2" ]]; then sed 's/^/      /' "$2" | head -40; fi
}

# ------------------------------------------------------------------ tools
# go install's module version, read from the binary (helm's own `version` needs ldflags).
built_version() { [[ -x "$1" ]] && go version -m "$1" 2>/dev/null | awk '$1 == "mod" { print $3; exit }'; }

go_tool() { # binary, package@version
  local bin=$1 pkg=$2 version=${2##*@} t0=$SECONDS
  if [[ "$(built_version "$bin" || true)" == "$version" ]]; then
    echo "$(basename "$bin") $version (cached)"; return
  fi
  command -v go >/dev/null || { echo "Go is needed to install $(basename "$bin")" >&2; return 1; }
  mkdir -p "$TOOLS_BIN"
  local log="$work/go-install-$(basename "$bin").log"
  # -s -w: no symbol tables (a faster link, a smaller binary); GOFLAGS=-mod=mod as for nats-server
  if ! GOBIN="$TOOLS_BIN" GOFLAGS=-mod=mod go install -ldflags="-s -w" "$pkg" >"$log" 2>&1; then
    cat "$log" >&2; echo "go install $pkg failed" >&2; return 1
  fi
  echo "$(basename "$bin") $version (go install, $((SECONDS - t0))s)"
}

k8s_schemas() {
  local t0=$SECONDS missing=()
  for v in "${KUBE_VERSIONS[@]}"; do
    [[ -f "$SCHEMA_DIR/v$v-local-strict/.complete-${SCHEMAS_PACKAGE/==/-}" ]] || missing+=("$v")
  done
  if ((${#missing[@]} == 0)); then echo "schemas ${KUBE_VERSIONS[*]} (cached)"; return; fi
  local wheels="$SCHEMA_DIR/.wheel"
  mkdir -p "$wheels"
  python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$wheels" "$SCHEMAS_PACKAGE" >&2
  local wheel
  wheel=$(ls "$wheels"/kubernetes_validate-"${SCHEMAS_PACKAGE#*==}"-*.whl)
  python3 - "$wheel" "$SCHEMA_DIR" "${missing[@]}" <<'PY'
# The wheel's schemas refer to their shared definitions as "/api/_definitions.json#…" and carry
# https://kubernetes.io/… ids, which a file-based validator would try to fetch: drop the ids and
# make the references relative to the file, so everything resolves inside the folder.
import json, os, sys, zipfile
wheel, out, versions = sys.argv[1], sys.argv[2], sys.argv[3:]
archive = zipfile.ZipFile(wheel)
for version in versions:
    prefix = f"kubernetes_validate/kubernetes-json-schema/v{version}-local-strict/"
    names = [n for n in archive.namelist() if n.startswith(prefix) and n.endswith(".json")]
    if not names:
        sys.exit(f"{wheel} has no schemas for Kubernetes {version}")
    target = os.path.join(out, f"v{version}-local-strict")
    os.makedirs(target, exist_ok=True)
    for name in names:
        doc = json.loads(archive.read(name))
        doc.pop("$id", None)
        text = json.dumps(doc).replace('"/api/_definitions.json#', '"_definitions.json#')
        with open(os.path.join(target, os.path.basename(name)), "w") as f:
            f.write(text)
PY
  for v in "${missing[@]}"; do touch "$SCHEMA_DIR/v$v-local-strict/.complete-${SCHEMAS_PACKAGE/==/-}"; done
  echo "schemas ${KUBE_VERSIONS[*]} (${SCHEMAS_PACKAGE/==/ } from PyPI, $((SECONDS - t0))s)"
}

tools_t0=$SECONDS
say "installing what is missing: helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION (go install), Kubernetes schemas (pip)"
helm_line=$(go_tool "$HELM" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION") || { say "FAILED: could not install helm"; exit 1; }
kubeconform_line=$(go_tool "$KUBECONFORM" "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION") ||
  { say "FAILED: could not install kubeconform"; exit 1; }
schemas_line=$(k8s_schemas) || { say "FAILED: could not get the Kubernetes JSON schemas"; exit 1; }
say "tools ready in $((SECONDS - tools_t0))s: $helm_line; $kubeconform_line; $schemas_line"

# ------------------------------------------------------------------ value sets
# default: values.yaml as shipped, plus the only value without a default (where MongoDB is).
DEFAULT_ARGS=(--set mongo.url=mongodb://mongo.example:27017/?replicaSet=rs0)
PRODUCTION_ARGS=(-f "$PROD_VALUES")
# every optional part on: bundled 3-server NATS with fsync, 3 stream replicas, a disabled service
# reached elsewhere, existing Secrets, ingress with TLS, PDBs, NetworkPolicies (Prometheus allowed
# to scrape), ServiceMonitors, the PrometheusRule of the consumers' alerts.
ALL_ARGS=(
  --set mongo.existingSecret=my-mongo --set mongo.existingSecretKey=url
  --set nats.bundled.replicas=3 --set jetstream.replicas=3 --set nats.bundled.syncInterval=always
  --set nats.bundled.storage.storageClass=fast-ssd --set nats.bundled.maxFileStore=50G
  --set services.wallet.enabled=false --set services.wallet.address=dns:///wallet.elsewhere:50055
  --set imagePullSecrets[0].name=registry --set serviceAccount.annotations.team=billing
  --set ingress.enabled=true --set ingress.className=nginx
  --set ingress.tls[0].secretName=billing-tls --set ingress.tls[0].hosts[0]=billing.example.com
  --set podDisruptionBudget.enabled=true --set networkPolicy.enabled=true
  --set networkPolicy.mongo.to[0].ipBlock.cidr=10.20.0.0/16
  --set networkPolicy.extraIngress[0].from[0].namespaceSelector.matchLabels.name=monitoring
  --set networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.name=monitoring
  --set serviceMonitor.enabled=true --set prometheusRule.enabled=true --set prometheusRule.alertLabels.team=billing
  --set podAntiAffinity=hard --set gateway.preStopSleepSeconds=5
  --set extraEnv.CLOCK_OFFSET_MS=0 --set gateway.service.type=LoadBalancer
  --set documentLinks.secret=0123456789abcdef0123456789abcdef --set documentLinks.publicApiUrl=https://billing.example.com/api/v1
  --set reconcile.enabled=true --set reconcile.json=true --set services.payment.mongoDb=payments_db
)
CASES=(default production all-options)
case_args() {
  case $1 in
    default) args=("${DEFAULT_ARGS[@]}") ;;
    production) args=("${PRODUCTION_ARGS[@]}") ;;
    all-options) args=("${ALL_ARGS[@]}") ;;
  esac
}

# ------------------------------------------------------------------ the validator itself
# kubeconform with these schemas must refuse what an API server refuses (else every PASS below
# would mean nothing): a misspelt field deep in a pod template, a string where a number goes.
bad="$work/bad.yaml" out="$work/kc-bad.txt"
cat >"$bad" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: bad}
spec:
  replicas: "2"
  selector: {matchLabels: {app: bad}}
  template:
    metadata: {labels: {app: bad}}
    spec:
      containers:
        - name: bad
          image: bad
          readinessProbe: {grpc: {port: 50051}, periodSecond: 10}
YAML
schema_location="$SCHEMA_DIR/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"
if "$KUBECONFORM" -strict -kubernetes-version "${KUBE_VERSIONS[-1]}" -schema-location "$schema_location" "$bad" >"$out" 2>&1; then
  fail "kubeconform refuses   a Deployment with a misspelt probe field and a string replica count: it passed"
elif grep -q "periodSecond" "$out" && grep -q "/spec/replicas" "$out"; then
  pass "kubeconform refuses   a Deployment with a misspelt probe field and a string replica count (schemas resolve offline)"
else
  fail "kubeconform refuses   a Deployment with a misspelt probe field and a string replica count: not for those reasons" "$out"
fi

# ------------------------------------------------------------------ helm lint
for c in "${CASES[@]}"; do
  case_args "$c"
  out="$work/lint-$c.txt"
  if "$HELM" lint --strict "$CHART" --kube-version "${KUBE_VERSIONS[-1]}" "${args[@]}" >"$out" 2>&1; then
    pass "helm lint --strict   $c values: $(grep -Eo '[0-9]+ chart\(s\) linted, [0-9]+ chart\(s\) failed' "$out")"
  else
    fail "helm lint --strict   $c values" "$out"
  fi
done

# ------------------------------------------------------------------ helm template + kubeconform
for c in "${CASES[@]}"; do
  case_args "$c"
  for v in "${KUBE_VERSIONS[@]}"; do
    manifest="$work/$c-$v.yaml" out="$work/kc-$c-$v.txt"
    if ! "$HELM" template billing "$CHART" -n billing --kube-version "$v" "${args[@]}" >"$manifest" 2>"$out"; then
      fail "helm template        $c values, Kubernetes $v" "$out"; continue
    fi
    kinds=$(grep -E '^kind: ' "$manifest" | sort | uniq -c | awk '{ printf "%s%s %s", sep, $1, $3; sep=", " }')
    # ServiceMonitor and PrometheusRule are Prometheus Operator CRDs: no schema among the Kubernetes API's
    crds=()
    for kind in ServiceMonitor PrometheusRule; do grep -q "^kind: $kind" "$manifest" && crds+=("$kind"); done
    skip=()
    if ((${#crds[@]} > 0)); then skip=(-skip "$(IFS=,; echo "${crds[*]}")"); fi
    if "$KUBECONFORM" -strict -summary -kubernetes-version "$v" -schema-location "$schema_location" \
      "${skip[@]}" "$manifest" >"$out" 2>&1; then
      pass "helm template + kubeconform -strict   $c values, Kubernetes $v: $(grep -Eo 'Valid: [0-9]+, Invalid: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+' "$out") ($kinds)"
    else
      fail "helm template + kubeconform -strict   $c values, Kubernetes $v" "$out"
    fi
  done
done

# ------------------------------------------------------------------ values the chart refuses
refuses() { # summary, expected message, helm args...
  local summary=$1 expected=$2; shift 2
  local out="$work/refuse.txt"
  if "$HELM" template billing "$CHART" --kube-version "${KUBE_VERSIONS[-1]}" "$@" >"$out" 2>&1; then
    fail "refuses              $summary: it rendered"
  elif grep -qF "$expected" "$out"; then
    pass "refuses              $summary (\"$expected\")"
  else
    fail "refuses              $summary: not with \"$expected\"" "$out"
  fi
}
refuses "no MongoDB configured" "set mongo.url"
refuses "more stream replicas than NATS servers" "cannot exceed nats.bundled.replicas" \
  "${DEFAULT_ARGS[@]}" --set jetstream.replicas=3
refuses "2 NATS servers (no majority)" "a JetStream cluster needs a majority" \
  "${DEFAULT_ARGS[@]}" --set nats.bundled.replicas=2
refuses "a disabled service without its address" "services.payment is disabled" \
  "${DEFAULT_ARGS[@]}" --set services.payment.enabled=false
refuses "an unknown podAntiAffinity" "podAntiAffinity must be" \
  "${DEFAULT_ARGS[@]}" --set podAntiAffinity=always
refuses "a Kubernetes older than 1.24 (native gRPC probes)" "chart requires kubeVersion" \
  "${DEFAULT_ARGS[@]}" --kube-version 1.23.0
refuses "a document link secret shorter than 16 characters" "documentLinks.secret must be at least 16 characters" \
  "${DEFAULT_ARGS[@]}" --set documentLinks.secret=short
refuses "reconciliation on without a schedule" "reconcile.schedule must be set" \
  "${DEFAULT_ARGS[@]}" --set reconcile.enabled=true --set reconcile.schedule=

# ------------------------------------------------------------------ production promises
out="$work/render.txt"
if node "$ROOT/deploy/check-render.mjs" "$work/production-${KUBE_VERSIONS[-1]}.yaml" >"$out" 2>&1; then
  pass "production render    $(tail -1 "$out")"
else
  fail "production render    values-production.yaml breaks a promise" "$out"
fi

# ------------------------------------------------------------------ summary
total=$((passed + failed))
if ((failed > 0)); then
  say "FAILED: $failed of $total checks failed in $((SECONDS - started))s:"
  printf '[deploy]   %s\n' "${failures[@]}"
  exit 1
fi
say "all $total checks passed in $((SECONDS - started))s"
