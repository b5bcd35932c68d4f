#!/usr/bin/env bash
# Runs tests against moto's server (an independent implementation of the DynamoDB and SQS wire
# protocols) when python3 can import moto; skips cleanly otherwise. Without file arguments: the tests
# tagged moto in the files marked `// @moto: <why>`, whose assertions rest on the store's or the
# queues' semantics (docs/testing.md); with them (`bash test/with-moto.sh test/api/alerts.test.ts`):
# every test of those files. Other arguments go to vitest.
set -euo pipefail
if ! python3 -c 'import moto' >/dev/null 2>&1; then
  echo "moto is not installed: skipping the moto pass"
  exit 0
fi
files=()
for argument in "$@"; do
  if [ -e "$argument" ]; then files+=("$argument"); fi
done
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(grep -rlE '^// @moto: ' test --include='*.test.ts' | sort)
  # A file that says why it runs on moto but tags nothing would silently run nothing there.
  untagged=$(grep -L -e "@module-tag moto" -e "tags: \['moto'\]" "${files[@]}" || true)
  if [ -n "$untagged" ]; then
    echo "marked // @moto: but nothing tagged moto (docs/testing.md): $untagged" >&2
    exit 1
  fi
  set -- "${files[@]}" --tags-filter=moto "$@"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
python3 "$(dirname "$0")/support/moto-server.py" -H 127.0.0.1 -p "$port" >/tmp/moto-$port.log 2>&1 &
moto_pid=$!
trap 'kill $moto_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/moto-api/')" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
echo "moto listening on 127.0.0.1:$port (${#files[@]} files)"
# Two files at once: moto is one Python process, and more than two only queue up in front of it.
AWS_ENDPOINT_URL="http://127.0.0.1:$port" VITEST_MAX_WORKERS="${VITEST_MAX_WORKERS:-2}" npx vitest run "$@"
