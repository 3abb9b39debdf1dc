#!/usr/bin/env bash
# The browser test of `sowlang serve`, for .ci/run: installs what it needs (Debian's Chromium when it
# is missing, playwright-core at the version pinned in package-lock.json), builds the binary, runs the
# unit tests of web/board.js under Node, then plays the page in headless Chromium (play.js). Both
# parts are bounded in time. Set SOWLANG to test another build of the binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [ ! -x /usr/bin/chromium ]; then
  # Debian's own Chromium: the machine cannot download a browser of a test tool's choosing.
  sudo_if_needed=""
  if [ "$(id -u)" -ne 0 ]; then sudo_if_needed="sudo"; fi
  $sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_if_needed apt-get install -y -qq chromium >/dev/null
fi

cd "$here"
npm ci --no-audit --no-fund --loglevel=error

if [ -z "${SOWLANG:-}" ]; then
  (cd "$root" && cargo build --release --quiet --bin sowlang)
  export SOWLANG="$root/target/release/sowlang"
fi

timeout 60 node --test unit.test.js
timeout 540 node play.js
