#!/usr/bin/env bash
# Rebuild dist/ and fail when it differs from what is committed.
set -euo pipefail
npm run build >/dev/null
if [ -n "$(git status --porcelain -- dist)" ]; then
  echo "dist/ is out of date: run 'npm run build' and commit dist/." >&2
  git status --porcelain -- dist >&2
  git diff --ignore-space-at-eol --text --stat dist/ >&2
  exit 1
fi
echo "dist/ is up to date."
