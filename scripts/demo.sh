#!/usr/bin/env bash
# A release engineer's day on a throw-away database: a sample app on iOS and
# Android, versions with localized notes, a force floor, a maintenance window,
# what users see, and the published files.
set -euo pipefail
relctl="${RELCTL:-$(cd "$(dirname "$0")/.." && pwd)/.build/debug/relctl}"
work="$(mktemp -d "${TMPDIR:-/tmp}/relctl-demo.XXXXXX")"
export RELCTL_DB="$work/relctl.db" TZ=UTC
run() { printf '\n\033[1m$ relctl %s\033[0m\n' "$*"; "$relctl" "$@"; }

run init
run project add shop --name "Shop" --locales en,tr,de,pt-BR
run platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --min-os 15.0
run platform add android --bundle-id com.example.shop
run version add 1.9.4 --platform ios --build 194 --released 2026-09-01T09:00:00Z --notes "Bug fixes"
run version add 2.0 --platform ios --build 200 --released 2026-10-15T09:00:00Z --notes "A new look" --notes "Saved carts"
run version add 2.1.0 --platform ios --build 210 --released 2026-11-20T09:00:00Z --notes "Faster checkout"
run notes set 2.1.0 --platform ios --locale tr "Daha hızlı ödeme"
run version add 2.1.0 --platform android --build 2100 --released 2026-11-20T09:00:00Z --notes "Faster checkout"
run version add 1.8.0 --platform android --build 1800 --released 2026-08-01T09:00:00Z
run force 2.0 --platform ios --yes
run maintenance schedule --from "tomorrow 02:00" --for 2h --message "Back at {until}" --yes
run check 1.9.4 --platform ios --locale tr
run check 2.0 --platform ios --locale pt-BR
run check 2.1.0 --platform android --at "tomorrow 03:00"
run status
run publish "$work/out"
printf '\n\033[1mPublished files\033[0m\n'
(cd "$work/out" && find . -type f | sort)
printf '\n\033[1m$ cat out/shop/ios/retired/tr.json\033[0m\n'
cat "$work/out/shop/ios/retired/tr.json"
printf '\n\033[1m$ cat out/shop/android/andversion.json\033[0m\n'
cat "$work/out/shop/android/andversion.json"
printf '\nThe demo database and files are in %s\n' "$work"
