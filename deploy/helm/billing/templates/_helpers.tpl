{{/* Chart name, truncated to the 63 characters a label allows. */}}
{{- define "billing.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-scoped base name; components append "-<component>", so keep room for it. */}}
{{- define "billing.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "billing.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "billing.labels" -}}
helm.sh/chart: {{ include "billing.chart" . }}
app.kubernetes.io/name: {{ include "billing.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: billing
{{- end }}

{{/* Selector of one component: (dict "ctx" $ "component" "usage"). */}}
{{- define "billing.selectorLabels" -}}
app.kubernetes.io/name: {{ include "billing.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* Name of a component's objects: (dict "ctx" $ "component" "usage"). */}}
{{- define "billing.componentName" -}}
{{- printf "%s-%s" (include "billing.fullname" .ctx) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "billing.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "billing.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "billing.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* "true" when the release runs its own NATS (no nats.url, no nats.existingSecret, bundled enabled), else "". */}}
{{- define "billing.natsBundled" -}}
{{- if and .Values.nats.bundled.enabled (not .Values.nats.url) (not .Values.nats.existingSecret) }}true{{ end }}
{{- end }}

{{/* The NATS URL every service uses: nats.url, else the bundled NATS ("" when it comes from nats.existingSecret). */}}
{{- define "billing.natsUrl" -}}
{{- if .Values.nats.existingSecret }}
{{- else if .Values.nats.url }}
{{- .Values.nats.url }}
{{- else if .Values.nats.bundled.enabled }}
{{- printf "nats://%s:4222" (include "billing.componentName" (dict "ctx" . "component" "nats")) }}
{{- else }}
{{- fail "set nats.url or nats.existingSecret, or nats.bundled.enabled=true" }}
{{- end }}
{{- end }}

{{/* NATS_URL from nats.existingSecret (a URL with credentials), as a container env entry; nothing otherwise (the ConfigMap has it). */}}
{{- define "billing.natsSecretEnv" -}}
{{- with .Values.nats.existingSecret }}
- name: NATS_URL
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.nats.existingSecretKey | default "NATS_URL" }}
{{- end }}
{{- end }}

{{- define "billing.mongoSecretName" -}}
{{- if .Values.mongo.existingSecret }}
{{- .Values.mongo.existingSecret }}
{{- else if .Values.mongo.url }}
{{- include "billing.componentName" (dict "ctx" . "component" "mongo") }}
{{- else }}
{{- fail "set mongo.url (the chart stores it in a Secret) or mongo.existingSecret (a Secret holding MONGO_URL)" }}
{{- end }}
{{- end }}

{{- define "billing.mongoSecretKey" -}}
{{- if .Values.mongo.existingSecret }}{{ .Values.mongo.existingSecretKey }}{{ else }}MONGO_URL{{ end }}
{{- end }}

{{/*
Where one backend service answers gRPC, as every service and the gateway reach it:
(dict "ctx" $ "name" "catalog" "svc" $svc). services.<name>.address wins; else the release's own
Service when the service is enabled; else (disabled, running elsewhere) the gateway.env entry of
older values; else rendering fails.
*/}}
{{- define "billing.peerAddress" -}}
{{- $key := printf "%s_GRPC_ADDR" (upper .name) }}
{{- if .svc.address }}
{{- if not (regexMatch "^([a-z][a-z0-9+.-]*:/{2,3})?[^:\\s/]+:[0-9]{1,5}$" (toString .svc.address)) }}
{{- fail (printf "services.%s.address must be host:port or dns:///host:port" .name) }}
{{- end }}
{{- .svc.address }}
{{- else if .svc.enabled }}
{{- printf "%s:%v" (include "billing.componentName" (dict "ctx" .ctx "component" .name)) .svc.port }}
{{- else if hasKey .ctx.Values.gateway.env $key }}
{{- get .ctx.Values.gateway.env $key }}
{{- else }}
{{- fail (printf "services.%s is disabled: set services.%s.address to where it runs (host:port)" .name .name) }}
{{- end }}
{{- end }}

{{/* <NAME>_GRPC_ADDR of every backend service, as ConfigMap data (a key set in extraEnv is left to extraEnv). */}}
{{- define "billing.peerAddresses" -}}
{{- range $name, $svc := .Values.services }}
{{- $key := printf "%s_GRPC_ADDR" (upper $name) }}
{{- if not (hasKey $.Values.extraEnv $key) }}
{{ $key }}: {{ include "billing.peerAddress" (dict "ctx" $ "name" $name "svc" $svc) | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Checks of values that would otherwise fail at run time. */}}
{{- define "billing.validate" -}}
{{- $r := int .Values.jetstream.replicas }}
{{- if or (lt $r 1) (gt $r 5) }}
{{- fail "jetstream.replicas must be between 1 and 5" }}
{{- end }}
{{- if include "billing.natsBundled" . }}
{{- $n := int .Values.nats.bundled.replicas }}
{{- if or (lt $n 1) (eq $n 2) }}
{{- fail "nats.bundled.replicas must be 1, or 3 or more (a JetStream cluster needs a majority)" }}
{{- end }}
{{- if gt $r $n }}
{{- fail (printf "jetstream.replicas (%d) cannot exceed nats.bundled.replicas (%d)" $r $n) }}
{{- end }}
{{- end }}
{{- with .Values.nats.bundled.syncInterval }}
{{- if not (regexMatch "^(always|[0-9]+(ms|s|m|h))$" (toString .)) }}
{{- fail "nats.bundled.syncInterval must be \"always\" or a duration such as 10s" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Pod-level settings shared by the gateway and the backend services: (dict "ctx" $ "component" "usage").
podAntiAffinity "soft"/"hard" spreads a component's replicas over nodes when `affinity` is empty.
*/}}
{{- define "billing.podSpecCommon" -}}
{{- $ctx := .ctx }}
{{- $v := $ctx.Values -}}
serviceAccountName: {{ include "billing.serviceAccountName" $ctx }}
automountServiceAccountToken: false
{{- with $v.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml $v.podSecurityContext | nindent 2 }}
terminationGracePeriodSeconds: {{ $v.terminationGracePeriodSeconds }}
{{- with $v.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if $v.affinity }}
affinity:
  {{- toYaml $v.affinity | nindent 2 }}
{{- else if eq (toString $v.podAntiAffinity) "soft" }}
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- include "billing.selectorLabels" . | nindent 14 }}
{{- else if eq (toString $v.podAntiAffinity) "hard" }}
affinity:
  podAntiAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "billing.selectorLabels" . | nindent 12 }}
{{- else if $v.podAntiAffinity }}
{{- fail "podAntiAffinity must be \"\", \"soft\" or \"hard\"" }}
{{- end }}
{{- with $v.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumes:
  - name: tmp
    emptyDir:
      sizeLimit: 64Mi
{{- end }}

{{/* Annotations that roll the pods when the shared config or the chart's Mongo secret changes. */}}
{{- define "billing.checksums" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- if and .Values.mongo.url (not .Values.mongo.existingSecret) }}
checksum/mongo: {{ .Values.mongo.url | sha256sum }}
{{- end }}
{{- end }}

{{/* nats.conf of the bundled NATS. $POD_NAME is read from the environment by nats-server. */}}
{{- define "billing.natsConfig" -}}
{{- $nats := .Values.nats.bundled }}
{{- $fullname := include "billing.componentName" (dict "ctx" . "component" "nats") }}
{{- $replicas := int $nats.replicas -}}
server_name: $POD_NAME
listen: 0.0.0.0:4222
http: 0.0.0.0:8222
max_payload: {{ $nats.maxPayload }}

jetstream {
  store_dir: /data
  {{- with $nats.syncInterval }}
  {{- if eq (toString .) "always" }}
  sync_interval: always
  {{- else }}
  sync_interval: {{ toString . | quote }}
  {{- end }}
  {{- end }}
  {{- with $nats.maxFileStore }}
  max_file_store: {{ . }}
  {{- end }}
  {{- with $nats.maxMemoryStore }}
  max_memory_store: {{ . }}
  {{- end }}
}
{{- if gt $replicas 1 }}

cluster {
  name: {{ $fullname }}
  listen: 0.0.0.0:6222
  routes: [
    {{- range $i := until $replicas }}
    nats://{{ $fullname }}-{{ $i }}.{{ $fullname }}-headless.{{ $.Release.Namespace }}.svc:6222
    {{- end }}
  ]
}
{{- end }}
{{- end }}

{{/* One NetworkPolicy egress rule from {to: [peers], ports: [numbers]} (TCP); empty lists = any destination / any port. */}}
{{- define "billing.egressRule" -}}
{{- $rule := dict }}
{{- with .to }}{{ $_ := set $rule "to" . }}{{ end }}
{{- $ports := list }}
{{- range .ports }}{{ $ports = append $ports (dict "protocol" "TCP" "port" (int .)) }}{{ end }}
{{- if $ports }}{{ $_ := set $rule "ports" $ports }}{{ end }}
{{- if $rule }}{{ toYaml $rule }}{{ else }}{}{{ end }}
{{- end }}

{{/* The Secret holding DOCUMENT_LINK_SECRET: documentLinks.existingSecret, else the chart's own ("" when links are off). */}}
{{- define "billing.documentLinkSecretName" -}}
{{- if .Values.documentLinks.existingSecret }}
{{- .Values.documentLinks.existingSecret }}
{{- else if .Values.documentLinks.secret }}
{{- if lt (len .Values.documentLinks.secret) 16 }}
{{- fail "documentLinks.secret must be at least 16 characters" }}
{{- end }}
{{- include "billing.componentName" (dict "ctx" . "component" "document-links") }}
{{- end }}
{{- end }}

{{/* DOCUMENT_LINK_SECRET as a container env entry (invoicing and the gateway); nothing when links are off. */}}
{{- define "billing.documentLinkSecretEnv" -}}
{{- with (include "billing.documentLinkSecretName" . | trim) }}
- name: DOCUMENT_LINK_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ if $.Values.documentLinks.existingSecret }}{{ $.Values.documentLinks.existingSecretKey }}{{ else }}DOCUMENT_LINK_SECRET{{ end }}
{{- end }}
{{- end }}
