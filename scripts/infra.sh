#!/usr/bin/env bash
# Development and CI infrastructure: a NATS server with JetStream and a MongoDB
# wire-compatible test server (mongo-java-server), installed and started by the
# project itself. Idempotent.
#
#   scripts/infra.sh up       install what is missing, start both, wait, print URLs
#   scripts/infra.sh down     stop what `up` started (by PID)
#   scripts/infra.sh status   print what is running
#   scripts/infra.sh install  install only
#
# When MONGO_URL and NATS_URL are set, those are used and nothing is started.
# Env: INFRA_DIR (.infra), INFRA_MONGO_PORT (27017), INFRA_NATS_PORT (4222),
#      INFRA_NATS_HTTP_PORT (8222), INFRA_MONGO_BACKEND (h2|memory, default h2),
#      INFRA_NATS_SYNC (JetStream sync_interval, e.g. "always"; default: server default),
#      INFRA_MONGO_HEAP (the test server's Java heap, default 2g; the memory backend holds every
#      document in it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
INFRA_DIR="${INFRA_DIR:-$ROOT/.infra}"
NATS_VERSION="v2.12.15"
MONGO_PORT="${INFRA_MONGO_PORT:-27017}"
NATS_PORT="${INFRA_NATS_PORT:-4222}"
NATS_HTTP_PORT="${INFRA_NATS_HTTP_PORT:-8222}"
MONGO_BACKEND="${INFRA_MONGO_BACKEND:-h2}"
MONGO_HEAP="${INFRA_MONGO_HEAP:-2g}"
NATS_BIN="$INFRA_DIR/bin/nats-server"
MONGO_TOOL="$ROOT/tools/mongo-server"
MONGO_JAR="$MONGO_TOOL/target/mongo-server.jar"

log() { printf '[infra] %s\n' "$*" >&2; }

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # what, seconds, command...
  local what=$1 limit=$2; shift 2
  for ((i = 0; i < limit * 10; i++)); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  log "$what did not become ready in ${limit}s"; return 1
}

install_nats() {
  if [[ -x "$NATS_BIN" ]] && "$NATS_BIN" --version | grep -q "${NATS_VERSION#v}"; then return; fi
  if ! command -v go >/dev/null; then log "Go is needed to install nats-server"; exit 1; fi
  log "installing nats-server $NATS_VERSION (go install)"
  mkdir -p "$INFRA_DIR/bin"
  local began=$SECONDS
  GOBIN="$INFRA_DIR/bin" GOFLAGS=-mod=mod go install "github.com/nats-io/nats-server/v2@$NATS_VERSION"
  log "nats-server $NATS_VERSION installed in $((SECONDS - began)) s"
}

install_mongo() {
  if [[ -f "$MONGO_JAR" && -d "$MONGO_TOOL/target/lib" ]]; then return; fi
  if ! command -v mvn >/dev/null; then log "Maven and Java 17 are needed for the MongoDB test server"; exit 1; fi
  log "building the MongoDB test server launcher (mongo-java-server 1.47, Maven)"
  local began=$SECONDS
  mvn -q -B -f "$MONGO_TOOL/pom.xml" package -DskipTests >&2
  log "MongoDB test server launcher built in $((SECONDS - began)) s"
}

start_nats() {
  local pidf="$INFRA_DIR/nats.pid"
  if alive "$pidf"; then return; fi
  if port_open "$NATS_PORT"; then log "port $NATS_PORT is taken by another process"; exit 1; fi
  mkdir -p "$INFRA_DIR/nats/jetstream"
  {
    echo "listen: 127.0.0.1:$NATS_PORT"
    echo "http: 127.0.0.1:$NATS_HTTP_PORT"
    echo "max_payload: 8MB"
    echo "jetstream {"
    echo "  store_dir: \"$INFRA_DIR/nats/jetstream\""
    [[ -n "${INFRA_NATS_SYNC:-}" ]] && echo "  sync_interval: ${INFRA_NATS_SYNC}"
    echo "}"
  } >"$INFRA_DIR/nats/nats.conf"
  setsid nohup "$NATS_BIN" -c "$INFRA_DIR/nats/nats.conf" -P "$pidf" >"$INFRA_DIR/nats.log" 2>&1 </dev/null &
  echo $! >"$pidf"
  wait_for "NATS" 20 curl -fs "http://127.0.0.1:$NATS_HTTP_PORT/healthz?js-enabled-only=true" -o /dev/null
}

start_mongo() {
  local pidf="$INFRA_DIR/mongo.pid"
  if alive "$pidf"; then return; fi
  if port_open "$MONGO_PORT"; then log "port $MONGO_PORT is taken by another process"; exit 1; fi
  mkdir -p "$INFRA_DIR/mongo"
  local args=(--port "$MONGO_PORT" --backend "$MONGO_BACKEND")
  [[ "$MONGO_BACKEND" == h2 ]] && args+=(--file "$INFRA_DIR/mongo/data.mv")
  setsid nohup java "-Xmx$MONGO_HEAP" -cp "$MONGO_JAR:$MONGO_TOOL/target/lib/*" billing.tools.MongoServerLauncher \
    "${args[@]}" >"$INFRA_DIR/mongo.log" 2>&1 </dev/null &
  echo $! >"$pidf"
  wait_for "MongoDB test server" 30 port_open "$MONGO_PORT"
}

stop() { # name
  local pidf="$INFRA_DIR/$1.pid"
  if alive "$pidf"; then
    local pid; pid=$(cat "$pidf")
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    log "stopped $1 (pid $pid)"
  fi
  rm -f "$pidf"
}

urls() {
  echo "MONGO_URL=${MONGO_URL:-mongodb://127.0.0.1:$MONGO_PORT}"
  echo "NATS_URL=${NATS_URL:-nats://127.0.0.1:$NATS_PORT}"
}

case "${1:-}" in
  install)
    install_nats; install_mongo ;;
  up)
    [[ -z "${NATS_URL:-}" ]] && { install_nats; start_nats; }
    [[ -z "${MONGO_URL:-}" ]] && { install_mongo; start_mongo; }
    urls ;;
  down)
    stop nats; stop mongo ;;
  status)
    alive "$INFRA_DIR/nats.pid" && echo "nats: running (pid $(cat "$INFRA_DIR/nats.pid"))" || echo "nats: stopped"
    alive "$INFRA_DIR/mongo.pid" && echo "mongo: running (pid $(cat "$INFRA_DIR/mongo.pid"))" || echo "mongo: stopped"
    urls ;;
  *)
    echo "usage: $0 up|down|status|install" >&2; exit 2 ;;
esac
