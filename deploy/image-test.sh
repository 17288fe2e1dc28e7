#!/usr/bin/env bash
# Build the Dockerfile with podman and check the image on this machine's PostgreSQL
# (127.0.0.1:5432, user postgres, trust auth): `ratings migrate` brings a new database to the
# newest schema, and `ratings serve` answers /readyz, rates one game and stops cleanly on
# SIGTERM. `make image-test` and CI run it; docs/deploy.md ("Building and checking the image").
# Needs podman, runc, curl, createdb/dropdb/psql, python3, and debootstrap when the base image
# cannot be pulled.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=docker.io/library/python:3.11-slim # the Dockerfile's FROM
IMAGE=localhost/ratings:image-test
PG="-h 127.0.0.1 -p 5432 -U postgres"
DB=ratings_image_test_$$
URL="postgresql+psycopg://postgres@127.0.0.1:5432/$DB"
NAME=ratings-image-test-$$
TOKEN=image-test-admin-token-$$
# Heavy steps wait for each other and for benchmarks on this shared machine.
LOCK=/tmp/bench.lock
WORK=$(mktemp -d)
STAND_IN_LABEL=ratings.image-test.stand-in

say() { echo "image-test: [${SECONDS} s] $*"; }
fail() {
    echo "image-test: [${SECONDS} s] $*" >&2
    exit 1
}

cleanup() {
    local status=$?
    set +e
    if [ "$status" -ne 0 ] && podman container exists "$NAME"; then
        echo "--- the container's log (last 40 lines)" >&2
        podman logs "$NAME" 2>&1 | tail -n 40 >&2
    fi
    podman rm -f -i -t 0 "$NAME" "$NAME-migrate" >/dev/null 2>&1
    # shellcheck disable=SC2086 # PG is a list of options
    dropdb $PG --if-exists "$DB"
    rm -rf "$WORK"
    if [ "$status" -eq 0 ]; then say "passed"; else echo "image-test: FAILED" >&2; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Podman as this sandbox needs it, harmless elsewhere: runc (crun refuses its cgroup layout), no
# default ulimits (raising the open-files limit is not permitted here), and the host's network,
# so pip reaches PyPI during the build and the container reaches PostgreSQL on 127.0.0.1.
cat >"$WORK/containers.conf" <<'EOF'
[containers]
default_ulimits = []
netns = "host"
[engine]
runtime = "runc"
EOF
export CONTAINERS_CONF="$WORK/containers.conf"

# The base image. Reused when present; pulled otherwise. Where no registry can be reached (this
# sandbox), a stand-in takes its name: a minimal Debian bookworm with Debian's Python 3.11, the
# same Debian and major.minor as python:3.11-slim (its python is /usr/bin/python, from
# python-is-python3, where the real image has /usr/local/bin/python; the Dockerfile only says
# `python`). It carries a label saying so; `podman rmi` it to try the registry again.
if podman image exists "$BASE"; then
    say "base $BASE (local copy)"
elif podman pull "$BASE"; then
    say "base $BASE (pulled)"
else
    say "cannot pull $BASE; building a stand-in with debootstrap"
    flock --verbose "$LOCK" debootstrap --variant=minbase \
        --include=python3,python3-venv,python-is-python3,ca-certificates \
        bookworm "$WORK/rootfs" http://deb.debian.org/debian || fail "debootstrap failed"
    # Like the real image, no package cache or lists (95 MB).
    rm -rf "$WORK"/rootfs/var/cache/apt/archives/*.deb "$WORK"/rootfs/var/lib/apt/lists/*
    tar -C "$WORK/rootfs" -c . |
        podman import --change "LABEL $STAND_IN_LABEL=debootstrap-bookworm" \
            --change 'CMD ["python3"]' - "$BASE" >/dev/null
    rm -rf "$WORK/rootfs"
    say "stand-in imported as $BASE"
fi
if [ -n "$(podman image inspect -f "{{index .Labels \"$STAND_IN_LABEL\"}}" "$BASE")" ]; then
    say "the base is the debootstrap stand-in, not the registry's image"
fi

# pip in the build checks PyPI's certificate against the machine's CA bundle: here PyPI is
# reached through a TLS proxy whose CA is in that bundle but not in the image. Both the bundle
# and a pip.conf naming it are mounted for the build only, so the image stays as users build it.
CA=/etc/ssl/certs/ca-certificates.crt
build_mounts=()
if [ -f "$CA" ]; then
    printf '[global]\ncert = /run/host-ca.crt\n' >"$WORK/pip.conf"
    build_mounts=(-v "$CA:/run/host-ca.crt:ro" -v "$WORK/pip.conf:/etc/pip.conf:ro")
fi
previous=$(podman image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)
# --format docker keeps the Dockerfile's HEALTHCHECK (the OCI format has none), as Docker does.
flock --verbose "$LOCK" podman build --pull=never --layers=false --format docker "${build_mounts[@]}" -t "$IMAGE" .
say "built $IMAGE"
current=$(podman image inspect -f '{{.Id}}' "$IMAGE")
# The image of the previous run would otherwise pile up, one per run.
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then
    podman rmi "$previous" >/dev/null 2>&1 || true
fi

# shellcheck disable=SC2086
createdb $PG "$DB"

# `ratings migrate` on an empty database: it must exit 0 and leave the newest revision.
podman run --name "$NAME-migrate" --rm --no-healthcheck -e RATINGS_DATABASE_URL="$URL" \
    "$IMAGE" ratings migrate || fail "ratings migrate exited with $?"
head=$(podman run --rm --no-healthcheck "$IMAGE" alembic heads | awk '{print $1}')
# shellcheck disable=SC2086
revision=$(psql $PG -d "$DB" -tAc 'SELECT version_num FROM alembic_version')
if [ -z "$head" ] || [ "$revision" != "$head" ]; then
    fail "after ratings migrate the database is at '$revision', the image's head is '$head'"
fi
say "ratings migrate brought $DB to revision $revision"

# `ratings serve` (the image's CMD) on a free port of the host's loopback. Without systemd podman
# logs errors about scheduling the image's health checks; harmless, the check is run by hand below.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')
api=http://127.0.0.1:$port
podman run -d --name "$NAME" -e RATINGS_DATABASE_URL="$URL" -e RATINGS_ADMIN_TOKEN="$TOKEN" \
    -e RATINGS_HOST=127.0.0.1 -e RATINGS_PORT="$port" "$IMAGE" >/dev/null

ready=""
for _ in $(seq 1 60); do
    ready=$(curl -s -o /dev/null -w '%{http_code}' "$api/readyz" || true)
    [ "$ready" = 200 ] && break
    [ "$(podman inspect -f '{{.State.Running}}' "$NAME")" = true ] || fail "the server exited"
    sleep 1
done
[ "$ready" = 200 ] || fail "/readyz answered '$ready' after 60 s"
say "/readyz 200 on port $port"
podman healthcheck run "$NAME" || fail "the image's HEALTHCHECK failed"

# One ladder, one game: new Elo players at 1500, K 32, so the winner gains 16 (docs/api.md).
post() { # path body output: prints the status
    curl -sS -o "$3" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" \
        -H 'Content-Type: application/json' -d "$2" "$api$1"
}
status=$(post /ladders '{"id": "image-test", "system": "elo"}' "$WORK/ladder.json")
[ "$status" = 201 ] || fail "POST /ladders answered $status: $(cat "$WORK/ladder.json")"
status=$(post /games '{"ladder": "image-test", "id": "g-1", "played_at": "2026-11-02T19:00:00Z",
    "players": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}]}' "$WORK/game.json")
[ "$status" = 201 ] || fail "POST /games answered $status: $(cat "$WORK/game.json")"
deltas=$(
    python3 - "$WORK/game.json" <<'EOF'
import json, sys
deltas = {change["player"]: change["delta"] for change in json.load(open(sys.argv[1]))["changes"]}
print(deltas)
sys.exit(deltas != {"alice": 16, "bob": -16})
EOF
) || fail "POST /games: rating changes $deltas, expected alice +16 and bob -16"
say "POST /games 201, rating changes $deltas"

# SIGTERM must reach the server (exec-form CMD) and end it cleanly within the grace period.
podman stop -t 30 "$NAME" >/dev/null
code=$(podman inspect -f '{{.State.ExitCode}}' "$NAME")
[ "$code" = 0 ] || fail "the server exited with $code on SIGTERM"
say "the server stopped on SIGTERM with exit code 0"
