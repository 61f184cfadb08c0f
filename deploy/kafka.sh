#!/usr/bin/env bash
# deploy/kafka.sh start|stop|status|topics|fetch|reset — a single-node Apache Kafka 4.x broker for local use and CI.
#
# The broker is the official org.apache.kafka:kafka_2.13 artifact and its runtime dependencies,
# resolved from Maven Central with `mvn` (deploy/kafka-pom.xml) into $KAFKA_HOME/libs and cached
# there across runs. One JVM is both KRaft controller and broker, listening on 127.0.0.1 only.
#
#   start   fetch the jars if missing, format KRaft storage if new, start the broker, poll until it
#           answers a metadata request, create the olympiad topics; prints KAFKA_BOOTSTRAP_SERVERS=...
#           Idempotent: a broker already running from $KAFKA_HOME is left alone.
#   stop    SIGTERM (controlled shutdown), wait up to 60 s, then SIGKILL. Idempotent.
#   status  exit 0 and print the bootstrap address if this KAFKA_HOME's broker answers, else exit 1.
#   topics  create (or check) the olympiad topics on the running broker (deploy/topics.py).
#   fetch   only resolve the jars (warms the cache, e.g. in a CI image step).
#   reset   stop, then delete the broker's data, logs and config (topics, offsets, cluster id);
#           the jars stay cached.
#   principal NAME...  (KAFKA_AUTH=scram) add principals to the running broker: a SCRAM credential
#           each (password in $KAFKA_CREDENTIALS/NAME), its commands topic, its ACLs (deploy/principals.py).
#
# Authentication (docs/security.md). KAFKA_AUTH=none (the default) is the development broker:
# PLAINTEXT, no authentication, no ACLs: anyone who reaches the port may write any command as any
# actor, and start says so on stderr. KAFKA_AUTH=scram: clients authenticate with SASL/SCRAM-SHA-256
# (over SASL_PLAINTEXT: the broker listens on loopback only), the StandardAuthorizer allows only
# what an ACL allows, `admin` (created at format time), `processors` and `worker` are super users,
# and start adds $KAFKA_PRINCIPALS with their topic ACLs. The mode is fixed when the storage is
# formatted: `reset` before switching.
#
# Environment (all optional):
#   KAFKA_PORT (9092)               broker listener port on 127.0.0.1
#   KAFKA_CONTROLLER_PORT (port+1)  KRaft controller listener port
#   KAFKA_VERSION (4.1.1)           org.apache.kafka:kafka_2.13 version (Kafka 4.x needs Java 17+)
#   KAFKA_HOME (var/kafka)          data (data/), logs (logs/), config, pid file
#   KAFKA_LIBS (var/kafka/libs)     the resolved jars, shared by every KAFKA_HOME
#   KAFKA_HEAP (512m)               -Xms/-Xmx of the broker JVM
#   KAFKA_START_TIMEOUT (90)        seconds to wait for the broker to answer
#   PYTHON (.venv/bin/python, else python3)  interpreter with kafka-python, for the probe and topics
#   KAFKA_AUTH (none)               none | scram (above)
#   KAFKA_CREDENTIALS ($KAFKA_HOME/credentials)  one password file per principal (mode 600), scram only
#   KAFKA_PRINCIPALS (processors worker chief web)  principals start creates, scram only
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KAFKA_VERSION="${KAFKA_VERSION:-4.1.1}"
KAFKA_HOME="${KAFKA_HOME:-$ROOT/var/kafka}"
KAFKA_HEAP="${KAFKA_HEAP:-512m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
if [[ -z "${PYTHON:-}" ]]; then
  if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi

LIBS="${KAFKA_LIBS:-$ROOT/var/kafka/libs}"
DATA="$KAFKA_HOME/data"
LOGS="$KAFKA_HOME/logs"
PIDFILE="$KAFKA_HOME/broker.pid"
CONFIG="$KAFKA_HOME/server.properties"
BOOTSTRAP="127.0.0.1:$KAFKA_PORT"
KAFKA_AUTH="${KAFKA_AUTH:-none}"
KAFKA_PRINCIPALS="${KAFKA_PRINCIPALS:-processors worker chief web}"
export KAFKA_CREDENTIALS="${KAFKA_CREDENTIALS:-$KAFKA_HOME/credentials}"
AUTHFILE="$KAFKA_HOME/auth.mode"
case "$KAFKA_AUTH" in
  none) ;;
  scram) export KAFKA_SASL_USERNAME=admin; unset KAFKA_SASL_PASSWORD KAFKA_SASL_PASSWORD_FILE ;;  # the Python tools act as admin
  *) echo "kafka.sh: KAFKA_AUTH must be none or scram, not $KAFKA_AUTH" >&2; exit 2 ;;
esac

log() { echo "kafka.sh: $*" >&2; }

# Java 17+ runs the broker, Maven resolves it: Debian's packages when missing (as root).
install_tools() {
  command -v java >/dev/null && command -v mvn >/dev/null && return 0
  [[ "$(id -u)" == 0 ]] || { log "java and mvn are needed: apt-get install openjdk-17-jre-headless maven"; exit 1; }
  log "installing Debian's openjdk-17-jre-headless and maven"
  export DEBIAN_FRONTEND=noninteractive
  mkdir -p "$ROOT/var"
  { apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless maven; } >"$ROOT/var/install-java.log" 2>&1 \
    || { tail -n 20 "$ROOT/var/install-java.log" >&2; log "apt-get failed (log: $ROOT/var/install-java.log)"; exit 1; }
}

fetch() {
  local stamp="$LIBS/.kafka_2.13-$KAFKA_VERSION"
  install_tools
  [[ -f "$stamp" ]] && return 0
  log "resolving org.apache.kafka:kafka_2.13:$KAFKA_VERSION from Maven Central into $LIBS"
  rm -rf "$LIBS" && mkdir -p "$LIBS"
  # Progress: a line per 20 files Maven downloads (about 90 in all); the full output in mvn.log.
  if ! mvn -B -f "$ROOT/deploy/kafka-pom.xml" -Dkafka.version="$KAFKA_VERSION" \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIBS" 2>&1 \
      | tee "$LIBS/mvn.log" \
      | awk '/^Downloaded from/ { n++; if (n % 20 == 0) { printf "kafka.sh: maven: %d files downloaded\n", n > "/dev/stderr"; fflush("/dev/stderr") } }
             END { printf "kafka.sh: maven: %d files downloaded, done\n", n > "/dev/stderr" }'; then
    tail -n 40 "$LIBS/mvn.log" >&2; log "mvn failed (full log: $LIBS/mvn.log)"; exit 1
  fi
  touch "$stamp"
}

running_pid() {
  [[ -f "$PIDFILE" ]] || return 1
  local pid; pid="$(cat "$PIDFILE")"
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

# The admin principal's password (scram): made once, kept in $KAFKA_CREDENTIALS/admin (mode 600).
admin_password() {
  local file="$KAFKA_CREDENTIALS/admin"
  if [[ ! -f "$file" ]]; then
    mkdir -p "$KAFKA_CREDENTIALS" && chmod 700 "$KAFKA_CREDENTIALS"
    (umask 077 && "$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(24))' > "$file")
  fi
  cat "$file"
}

listener_config() {
  if [[ "$KAFKA_AUTH" == none ]]; then
    cat <<PROPS
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
PROPS
    return
  fi
  local pw; pw="$(admin_password)"
  # Clients: SCRAM-SHA-256 (credentials in the metadata log, added at run time). The controller
  # listener: SASL/PLAIN with the one static admin user, since KRaft cannot read SCRAM credentials
  # before the metadata log is up. Nothing is allowed without an ACL but to the super users.
  cat <<PROPS
listeners=CLIENT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=CLIENT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=CLIENT
listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,CLIENT:SASL_PLAINTEXT
sasl.enabled.mechanisms=SCRAM-SHA-256
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-256
listener.name.client.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="$pw";
sasl.mechanism.controller.protocol=PLAIN
listener.name.controller.sasl.enabled.mechanisms=PLAIN
listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="$pw" user_admin="$pw";
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:admin;User:processors;User:worker
allow.everyone.if.no.acl.found=false
PROPS
}

write_config() {
  mkdir -p "$DATA" "$LOGS"
  (umask 077 && cat > "$CONFIG" <<PROPS
# Written by deploy/kafka.sh: one node, KRaft controller + broker, loopback only (KAFKA_AUTH=$KAFKA_AUTH).
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
$(listener_config)
log.dirs=$DATA
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
# A single node: the internal topics cannot have more than one replica.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=8
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
# No rebalance grace period: consumers of a one-node cluster start at once.
group.initial.rebalance.delay.ms=0
log.retention.hours=168
log.cleaner.backoff.ms=1000
PROPS
  )
}

JAVA=(java "-Xms$KAFKA_HEAP" "-Xmx$KAFKA_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20
  -Djava.awt.headless=true -Dkafka.logs.dir="$LOGS"
  -Dlog4j2.configurationFile="$ROOT/deploy/kafka-log4j2.properties" -cp "$LIBS/*")

format_storage() {
  if [[ -f "$DATA/meta.properties" ]]; then
    local formatted; formatted="$(cat "$AUTHFILE" 2>/dev/null || echo none)"
    [[ "$formatted" == "$KAFKA_AUTH" ]] && return 0
    log "the storage in $DATA was formatted with KAFKA_AUTH=$formatted, not $KAFKA_AUTH: deploy/kafka.sh reset first"; exit 1
  fi
  local cluster_id scram=()
  [[ "$KAFKA_AUTH" == scram ]] && scram=(--add-scram "SCRAM-SHA-256=[name=admin,password=$(admin_password)]")
  # A Kafka Uuid: 16 random bytes, base64url without padding (what `StorageTool random-uuid` prints).
  # Like Kafka's Uuid.randomUuid, never one that starts with '-': the tool's parser would take it for
  # an option (one format in 64 failed with "argument --cluster-id/-t: expected one argument").
  cluster_id="$("$PYTHON" -c '
import base64, uuid
while True:
    text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not text.startswith("-"):
        print(text)
        break
')"
  log "formatting KRaft storage in $DATA (cluster $cluster_id)"
  "${JAVA[@]}" kafka.tools.StorageTool format --cluster-id="$cluster_id" -c "$CONFIG" "${scram[@]}" >"$LOGS/format.log" 2>&1 \
    || { cat "$LOGS/format.log" >&2; exit 1; }
  echo "$KAFKA_AUTH" > "$AUTHFILE"
}

start() {
  local t0=$SECONDS pid
  if pid="$(running_pid)"; then
    if "$PYTHON" "$ROOT/deploy/probe.py" "$BOOTSTRAP" --timeout "$KAFKA_START_TIMEOUT" --pid "$pid" >/dev/null; then
      log "already running (pid $pid)"
      [[ "$KAFKA_AUTH" == scram ]] && echo "KAFKA_CREDENTIALS=$KAFKA_CREDENTIALS"
      echo "KAFKA_BOOTSTRAP_SERVERS=$BOOTSTRAP"
      return 0
    fi
    log "pid $pid does not answer on $BOOTSTRAP"; exit 1
  fi
  if "$PYTHON" "$ROOT/deploy/probe.py" "$BOOTSTRAP" --timeout 2 >/dev/null; then
    log "another broker already answers on $BOOTSTRAP: set KAFKA_PORT to a free port, or KAFKA_BOOTSTRAP_SERVERS to use that broker"
    exit 1
  fi
  fetch
  write_config
  format_storage
  log "starting broker on $BOOTSTRAP (controller :$KAFKA_CONTROLLER_PORT, heap $KAFKA_HEAP)"
  # setsid: the broker outlives this script and is not hit by a Ctrl-C sent to the caller's group.
  setsid "${JAVA[@]}" kafka.Kafka "$CONFIG" >"$LOGS/stdout.log" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$PIDFILE"
  if ! "$PYTHON" "$ROOT/deploy/probe.py" "$BOOTSTRAP" --timeout "$KAFKA_START_TIMEOUT" --pid "$pid" >/dev/null; then
    log "broker did not answer within ${KAFKA_START_TIMEOUT}s; last log lines:"
    tail -n 30 "$LOGS/server.log" "$LOGS/stdout.log" >&2 || true
    stop
    exit 1
  fi
  log "broker answers after $((SECONDS - t0)) s (pid $pid)"
  if ! topics; then
    # A start that cannot lay out the topics (e.g. made with another partition count) leaves nothing running.
    log "the topics were refused (above): broker stopped"
    stop
    exit 2
  fi
  if [[ "$KAFKA_AUTH" == scram ]]; then
    # shellcheck disable=SC2086 # a list of names
    principal $KAFKA_PRINCIPALS
    log "SASL/SCRAM-SHA-256 with topic ACLs; each principal's password is in $KAFKA_CREDENTIALS/<name>"
    echo "KAFKA_CREDENTIALS=$KAFKA_CREDENTIALS"
  else
    log "WARNING: PLAINTEXT broker without authentication or ACLs: anyone who reaches $BOOTSTRAP can write any command as any actor, the chief arbiter included. Development only; KAFKA_AUTH=scram for an event (docs/security.md)."
  fi
  echo "KAFKA_BOOTSTRAP_SERVERS=$BOOTSTRAP"
}

principal() {
  [[ "$KAFKA_AUTH" == scram ]] || { log "principal: only with KAFKA_AUTH=scram"; exit 2; }
  [[ $# -gt 0 ]] || { log "usage: deploy/kafka.sh principal NAME..."; exit 2; }
  KAFKA_BOOTSTRAP_SERVERS="$BOOTSTRAP" "$PYTHON" "$ROOT/deploy/principals.py" add "$@" >&2
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PIDFILE"
    log "not running"
    return 0
  fi
  kill -TERM "$pid"
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PIDFILE"; log "stopped (pid $pid)"; return 0; }
    sleep 0.2
  done
  log "pid $pid ignored SIGTERM for 60 s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$PIDFILE"
}

status() {
  # Only this KAFKA_HOME's broker counts: another process answering on the port is not ours to use.
  local pid
  if pid="$(running_pid)" && "$PYTHON" "$ROOT/deploy/probe.py" "$BOOTSTRAP" --timeout 2 --pid "$pid" >/dev/null; then
    [[ "$KAFKA_AUTH" == scram ]] && echo "KAFKA_CREDENTIALS=$KAFKA_CREDENTIALS"
    echo "KAFKA_BOOTSTRAP_SERVERS=$BOOTSTRAP"
    return 0
  fi
  log "no broker of $KAFKA_HOME answers on $BOOTSTRAP"
  return 1
}

topics() {
  KAFKA_BOOTSTRAP_SERVERS="$BOOTSTRAP" "$PYTHON" "$ROOT/deploy/topics.py" >&2
}

reset() {
  stop
  rm -rf "$DATA" "$LOGS" "$CONFIG" "$AUTHFILE" "$KAFKA_HOME/credentials"
  log "data deleted ($DATA)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  topics) topics ;;
  fetch) fetch ;;
  reset) reset ;;
  principal) shift; principal "$@" ;;
  *) echo "usage: $0 start|stop|status|topics|fetch|reset|principal NAME..." >&2; exit 2 ;;
esac
