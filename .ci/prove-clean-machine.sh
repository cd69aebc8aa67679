#!/usr/bin/env bash
# Proves `.ci/run` on a clean machine: a fresh Debian 12 (bookworm) root made by debootstrap, with no
# PostgreSQL, Mosquitto or Chromium, run in its own network namespace so the host's PostgreSQL
# (127.0.0.1:5432) and Mosquitto (127.0.0.1:1883) are out of its reach. The namespace reaches Debian's
# mirror and the npm registry through a veth pair masqueraded by the host (nftables), so `apt-get`
# and `npm ci` inside work as on a real machine. Run as root on a Debian host:
#
#   .ci/prove-clean-machine.sh            # setup + tests + cleanup
#   .ci/prove-clean-machine.sh setup      # fresh root, namespace, `.ci/run --setup-only` inside, then checks
#   .ci/prove-clean-machine.sh tests      # inside: npm ci, then a subset of the real tests (TESTS=..., E2E=...)
#   .ci/prove-clean-machine.sh offline    # the same setup with the .debs downloaded first and no network inside
#   .ci/prove-clean-machine.sh shell      # a shell inside (chroot + namespace)
#   .ci/prove-clean-machine.sh cleanup    # stop what runs inside, unmount, delete the namespace and NAT rule
#
# What it does:
# - BASE (default /tmp/canopy-ci-bookworm): `debootstrap --variant=minbase --include=ca-certificates
#   bookworm`, made once and kept; each run copies it to RUN (default /tmp/canopy-ci-run), so every
#   proof starts from nothing.
# - Node.js: Debian 12's nodejs is 18, older than the 20 the suite is proven on, so the host's Node
#   (/usr/bin/node and /usr/lib/node_modules/npm, NodeSource 20 here) is copied to RUN/usr/local.
# - the repository: `git archive HEAD` of this checkout into RUN/root/canopy (committed files only,
#   no node_modules: `npm ci` inside installs them from the registry).
# - /proc, /sys and /dev are bind-mounted into RUN; the host's resolv.conf is copied, and so are its local
#   CA certificates (/usr/local/share/ca-certificates: a TLS-inspecting network's CA, without which `npm ci`
#   fails with SELF_SIGNED_CERT_IN_CHAIN), trusted by the system and by Node (NODE_EXTRA_CA_CERTS).
# - namespace NS (default canopy-ci): lo up, veth 10.228.0.2/30 <-> host 10.228.0.1/30, default route
#   via the host, IPv4 forwarding on (its old value is restored by cleanup), an nftables table
#   `nat_<NS>` masquerading 10.228.0.0/30 out of the host's default interface.
# Nothing outside BASE, RUN, the namespace, that nft table and ip_forward is changed.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-/tmp/canopy-ci-bookworm}
RUN=${RUN:-/tmp/canopy-ci-run}
NS=${NS:-canopy-ci}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
STATE=/tmp/canopy-ci-$NS.ip_forward
TABLE=nat_${NS//-/_}
# a few files that use PostgreSQL, the bus on 127.0.0.1:1883 and a Mosquitto it starts itself
TESTS=${TESTS:-tests/integration/bus.test.ts tests/integration/mosquitto-acl.test.ts tests/integration/store.test.ts tests/integration/migrate.test.ts tests/integration/backup-restore.test.ts}
# one Playwright file (needs `npm run build` first); E2E= skips it
E2E=${E2E-tests/e2e/sign-in.test.ts}

log() { printf '\n### %s\n' "$*"; }
inside() { ip netns exec "$NS" chroot "$RUN" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
  NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"; }
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }

cleanup() {
  log "cleanup"
  if [ -d "$RUN" ] && ip netns list | awk "{print \$1}" | grep -qx "$NS"; then
    inside 'for c in /etc/postgresql/*/*; do [ -d "$c" ] && pg_ctlcluster --skip-systemctl-redirect "$(basename "$(dirname "$c")")" "$(basename "$c")" stop; done; true' 2>/dev/null || true
  fi
  # whatever still runs with RUN as its root (Mosquitto, a stray server) was started by this proof
  if [ -d "$RUN" ]; then
    for p in /proc/[0-9]*; do
      [ "$(readlink "$p/root" 2>/dev/null)" = "$RUN" ] && { echo "stopping pid ${p#/proc/}: $(tr '\0' ' ' < "$p/cmdline" | cut -c1-80)"; kill "${p#/proc/}" 2>/dev/null || true; }
    done
    sleep 1
    for m in dev sys proc; do mountpoint -q "$RUN/$m" && umount -R "$RUN/$m"; done
  fi
  ip netns list | awk "{print \$1}" | grep -qx "$NS" && ip netns delete "$NS"
  ip link show "${NS}-h" >/dev/null 2>&1 && ip link delete "${NS}-h"
  nft list table ip "$TABLE" >/dev/null 2>&1 && nft delete table ip "$TABLE"
  [ -f "$STATE" ] && { cat "$STATE" > /proc/sys/net/ipv4/ip_forward; rm -f "$STATE"; }
  grep -q " $RUN/" /proc/mounts && { echo "still mounted under $RUN" >&2; return 1; }
  echo "clean: no mounts under $RUN, no namespace $NS, no nft table $TABLE"
}

fresh_root() {
  command -v debootstrap >/dev/null && command -v nft >/dev/null || {
    log "installing debootstrap and nftables on the host"; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap nftables >/dev/null; }
  if [ ! -f "$BASE/etc/debian_version" ]; then
    log "debootstrap bookworm into $BASE"
    debootstrap --variant=minbase --include=ca-certificates bookworm "$BASE" "$MIRROR"
  fi
  cleanup >/dev/null 2>&1 || true
  log "a fresh root: $BASE -> $RUN"
  rm -rf "$RUN"; cp -a "$BASE" "$RUN"
  for p in postgresql mosquitto chromium; do
    if chroot "$RUN" dpkg -s "$p" >/dev/null 2>&1; then echo "$p is already in $BASE: not a clean machine" >&2; exit 1; fi
  done
  echo "Debian $(cat "$RUN/etc/debian_version"); not installed: postgresql, mosquitto, chromium"
  log "Node.js: the host's $(node -v) and npm $(npm -v) copied to $RUN/usr/local"
  mkdir -p "$RUN/usr/local/bin" "$RUN/usr/local/lib/node_modules"
  cp "$(readlink -f "$(command -v node)")" "$RUN/usr/local/bin/node"
  cp -a /usr/lib/node_modules/npm "$RUN/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$RUN/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$RUN/usr/local/bin/npx"
  log "the repository: git archive $(git -C "$REPO" rev-parse --short HEAD) -> $RUN/root/canopy"
  mkdir -p "$RUN/root/canopy"
  git -C "$REPO" archive HEAD | tar -x -C "$RUN/root/canopy"
  cp /etc/resolv.conf "$RUN/etc/resolv.conf"
  # a network that inspects TLS (this one does) needs its CA on every machine: the host's local CAs
  # (public certificates, no keys) are trusted inside too, by the system and by Node (NODE_EXTRA_CA_CERTS)
  if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$RUN/usr/local/share/ca-certificates/"
    chroot "$RUN" update-ca-certificates >/dev/null 2>&1
  fi
  mount --rbind /proc "$RUN/proc"; mount --make-rslave "$RUN/proc"
  mount --rbind /sys "$RUN/sys"; mount --make-rslave "$RUN/sys"
  mount --rbind /dev "$RUN/dev"; mount --make-rslave "$RUN/dev"
}

before() {
  log "before: nothing answers inside on 127.0.0.1:5432 or :1883 (the host's services are not reachable)"
  inside '(exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null && { echo "5432 answers inside" >&2; exit 1; }
          (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null && { echo "1883 answers inside" >&2; exit 1; }
          command -v psql pg_ctlcluster mosquitto chromium || true; echo "nothing on 5432 or 1883, no psql, mosquitto or chromium"'
}

after() {
  log "after: the services .ci/run set up, checked inside"
  inside 'set -e
    psql -h 127.0.0.1 -U postgres -d test -w -Atc "select 1, version()"
    echo "mosquitto: $(/usr/sbin/mosquitto -h | head -1)"; (exec 3<>/dev/tcp/127.0.0.1/1883) && echo "127.0.0.1:1883 answers"
    # a round trip through the broker with the repo listener (anonymous, loopback)
    timeout 10 mosquitto_sub -h 127.0.0.1 -p 1883 -t ci/proof -C 1 > /tmp/mqtt.out & sleep 1
    mosquitto_pub -h 127.0.0.1 -p 1883 -t ci/proof -m "hello from the namespace"; wait; echo "mqtt round trip: $(cat /tmp/mqtt.out)"
    chromium --version
    echo "a second .ci/run --setup-only (everything is there: installs and starts nothing):"
    cd /root/canopy && .ci/run --setup-only'
}

setup() {
  fresh_root
  log "network namespace $NS (own loopback; out through the host by NAT)"
  ip netns add "$NS"
  ip -n "$NS" link set lo up
  ip link add "${NS}-h" type veth peer name "${NS}-n" netns "$NS"
  ip addr add 10.228.0.1/30 dev "${NS}-h"; ip link set "${NS}-h" up
  ip -n "$NS" addr add 10.228.0.2/30 dev "${NS}-n"; ip -n "$NS" link set "${NS}-n" up
  ip -n "$NS" route add default via 10.228.0.1
  [ -f "$STATE" ] || cat /proc/sys/net/ipv4/ip_forward > "$STATE"
  echo 1 > /proc/sys/net/ipv4/ip_forward
  out=$(ip route show default | awk '{ for (i = 1; i < NF; i++) if ($i == "dev") { print $(i + 1); exit } }')
  nft -f - <<EOF
table ip $TABLE {
  chain post { type nat hook postrouting priority srcnat; policy accept; ip saddr 10.228.0.0/30 oifname "$out" masquerade; }
}
EOF
  before
  log ".ci/run --setup-only inside"
  inside 'cd /root/canopy && time .ci/run --setup-only'
  after
}

# the other way to reach the mirror: the packages downloaded first with the host's network
# (`apt-get install --download-only`), then `.ci/run --setup-only` in a namespace with loopback only,
# where `apt-get update` cannot reach the mirror (apt warns and exits 0; the cached lists and .debs are used)
offline() {
  fresh_root
  log "with the host's network: apt-get update and apt-get install --download-only in $RUN"
  chroot "$RUN" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  chroot "$RUN" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --download-only chromium mosquitto mosquitto-clients postgresql >/dev/null
  echo "$(ls "$RUN"/var/cache/apt/archives/*.deb | wc -l) packages in the cache"
  log "network namespace $NS: loopback only, no route out"
  ip netns add "$NS"
  ip -n "$NS" link set lo up
  before
  log ".ci/run --setup-only inside, without a network"
  inside 'cd /root/canopy && time .ci/run --setup-only'
  after
}

tests() {
  log "npm ci inside (the npm registry through the namespace's NAT)"
  inside 'cd /root/canopy && node -v && npm ci --no-audit --no-fund'
  log "integration tests on PostgreSQL inside: $TESTS"
  inside "cd /root/canopy && TEST_DB=pg npx vitest run --project integration $TESTS"
  if [ -n "$E2E" ]; then
    log "production build and Playwright inside: $E2E"
    inside "cd /root/canopy && npm run build >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }; npx playwright test $E2E --project js"
  fi
}

case "${1:-all}" in
  setup) setup ;;
  offline) trap cleanup EXIT; offline ;;
  tests) tests ;;
  shell) inside 'cd /root/canopy && exec bash -i' ;;
  cleanup) cleanup ;;
  all) trap cleanup EXIT; setup; tests ;;
  *) echo "usage: $0 [all|setup|tests|offline|shell|cleanup]" >&2; exit 2 ;;
esac
