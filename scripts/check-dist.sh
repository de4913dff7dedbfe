#!/usr/bin/env bash
# Rebuild dist/ and fail when it differs from what is committed, or when the licences of what is bundled into it
# (written by ncc's --license beside each entry point) are missing or stale.
set -euo pipefail

# Each bundle's entry point and the licence file ncc writes beside it.
licence_files=(dist/licenses.txt dist/cli/licenses.txt dist/merge/licenses.txt)

# Removed first, so a build that stopped writing one cannot pass on the committed copy.
rm -f -- "${licence_files[@]}"
npm run build >/dev/null

status=0
for file in "${licence_files[@]}"; do
  if [ ! -s "$file" ]; then
    echo "$file is missing: the build no longer writes it; keep '--license licenses.txt' on every ncc build in package.json." >&2
    status=1
  elif ! git ls-files --error-unmatch -- "$file" >/dev/null 2>&1; then
    echo "$file is missing from git: the licences of what dist/ bundles must be committed; run 'npm run build' and commit $file." >&2
    status=1
  elif [ -n "$(git status --porcelain -- "$file")" ]; then
    echo "$file is stale: the bundled packages or their licences changed; run 'npm run build' and commit $file." >&2
    status=1
  fi
done

if [ -n "$(git status --porcelain -- dist)" ]; then
  echo "dist/ is out of date: run 'npm run build' and commit dist/." >&2
  git status --porcelain -- dist >&2
  git diff --ignore-space-at-eol --text --stat dist/ >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  exit "$status"
fi
echo "dist/ and the licences of what it bundles are up to date."
