#!/usr/bin/env bash
# Installs the Debian packages relctl needs, when they are missing.
#   scripts/deps.sh build   what building needs (libsqlite3-dev, libssl-dev)
#   scripts/deps.sh test    what the whole test suite needs: the real shells,
#                           bash-completion, mandoc, nginx, sqlite3, curl, setpriv, mount
set -euo pipefail
packages=(libsqlite3-dev libssl-dev)
if [ "${1:-build}" = test ]; then
    # util-linux (setpriv) and mount: the read-only folder, read-only file system and full-disk tests
    packages+=(sqlite3 bash-completion zsh fish mandoc nginx-light curl util-linux mount)
fi
missing=()
for pkg in "${packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
