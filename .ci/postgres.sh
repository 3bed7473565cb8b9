#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `source .ci/postgres.sh start` installs
# Debian's postgresql package when initdb/pg_ctl are missing, creates a cluster in a
# temporary directory (as the postgres user: initdb refuses root), starts it on a free
# loopback port with its unix socket in that directory, creates the database `spies_test`
# and exports SPIES_TEST_POSTGRES_URL. `postgres_stop` (also run by `.ci/postgres.sh stop`)
# stops the server and removes the directory. Sourced, start sets an EXIT trap that stops it.
#
# Run alone, `.ci/postgres.sh start` prints the export line and the directory, and
# `.ci/postgres.sh stop DIR` stops that cluster.

postgres_bin() {
    local dir
    for dir in "$(dirname "$(command -v pg_ctl 2>/dev/null || echo /nonexistent/x)")" \
        /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/createdb" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

postgres_start() {
    local bin port
    if ! bin="$(postgres_bin)"; then
        echo "== PostgreSQL: installing Debian's postgresql package"
        apt-get update -q && apt-get install -y -q postgresql >/dev/null
        bin="$(postgres_bin)" || { echo "no initdb/pg_ctl after installing postgresql"; return 1; }
    fi
    PG_CI_DIR="$(mktemp -d /tmp/spies-pg.XXXXXX)"
    export PG_CI_DIR
    local run=()
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$PG_CI_DIR"
        run=(runuser -u postgres --)
    fi
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    "${run[@]}" "$bin/initdb" -D "$PG_CI_DIR/data" -U postgres -A trust -E UTF8 --no-locale \
        >"$PG_CI_DIR/initdb.log" 2>&1 || { cat "$PG_CI_DIR/initdb.log"; return 1; }
    "${run[@]}" "$bin/pg_ctl" -D "$PG_CI_DIR/data" -l "$PG_CI_DIR/server.log" -w \
        -o "-h 127.0.0.1 -p $port -k $PG_CI_DIR -c fsync=on -c max_connections=200" start \
        >/dev/null || { cat "$PG_CI_DIR/server.log"; return 1; }
    "${run[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres spies_test
    export PG_CI_BIN="$bin"
    export SPIES_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$port/spies_test"
    echo "== PostgreSQL on 127.0.0.1:$port in $PG_CI_DIR ($("$bin/postgres" --version))"
}

postgres_stop() {
    local dir="${1:-${PG_CI_DIR:-}}"
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    local bin="${PG_CI_BIN:-$(postgres_bin)}"
    local run=()
    [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
    "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    echo "== PostgreSQL stopped, $dir removed"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    case "${1:-}" in
        start)
            postgres_start
            echo "export SPIES_TEST_POSTGRES_URL=$SPIES_TEST_POSTGRES_URL"
            echo "stop with: $0 stop $PG_CI_DIR"
            ;;
        stop) postgres_stop "${2:-}" ;;
        *) echo "usage: $0 start | stop DIR   (or: source $0; postgres_start)"; exit 2 ;;
    esac
else
    case "${1:-}" in
        start) postgres_start && trap postgres_stop EXIT ;;
    esac
fi
