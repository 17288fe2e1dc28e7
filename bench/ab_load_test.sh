#!/usr/bin/env bash
# The load test with 3 PostgreSQL replicas (tests/load/test_load.py::test_replicas_on_postgres,
# quick size: 2,000 games, about a fifth of them late) run against several builds in turn,
# alternated over rounds: the servers run each build through RATINGS_LOAD_APP_ROOT (a
# directory with app/, migrations/ and alembic.ini; docs/testing-load.md).
#
#     bench/ab_load_test.sh ROUNDS BUILD_DIR...
#
# Prints one line per run: the build, games/s, games that re-rated others, the load average
# before and after, and any problem the test reported.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=$1
shift
export RATINGS_TEST_POSTGRES_URL="${RATINGS_TEST_POSTGRES_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/test}"
for round in $(seq 1 "$rounds"); do
    for build in "$@"; do
        before=$(cut -d' ' -f1 /proc/loadavg)
        line=$(RATINGS_LOAD_APP_ROOT="$build" .venv/bin/python -m pytest -q -s tests/load/test_load.py \
            -k test_replicas_on_postgres -p no:cacheprovider 2>&1 | grep '\[load\]' || true)
        gps=$(grep -o '"games_per_second": [0-9.]*' <<<"$line" | cut -d' ' -f2)
        rerating=$(grep -o '"games_rerating_others": [0-9]*' <<<"$line" | cut -d' ' -f2)
        problems=$(grep -o '"problems": .*' <<<"$line" | cut -c1-120)
        echo "round=$round build=$build games/s=$gps rerating=$rerating load=$before->$(cut -d' ' -f1 /proc/loadavg) $problems"
    done
done
