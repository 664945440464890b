#!/usr/bin/env bash
# Installs the Debian packages relctl needs, when they are missing.
#   scripts/deps.sh build   what building needs (libsqlite3-dev, libssl-dev)
#   scripts/deps.sh test    what the whole test suite needs: the real shells,
#                           bash-completion, mandoc, nginx, sqlite3, curl, setpriv, mount, chromium,
#                           rclone, ssh-keygen, python3-h2, strace, time, and the Python modules of python_packages (PyPI)
set -euo pipefail
packages=(libsqlite3-dev libssl-dev)
python_packages=()
if [ "${1:-build}" = test ]; then
    # util-linux (setpriv) and mount: the read-only folder, read-only file system and full-disk tests
    packages+=(sqlite3 bash-completion zsh fish mandoc nginx-light curl util-linux mount git)
    # How a publish flushes what it wrote, as the kernel sees it
    packages+=(strace)
    # bench/run: a child's own peak memory (wait4 after vfork reports the parent's)
    packages+=(time)
    # The zone database: message times in a project's zone, checked against the C library
    packages+=(tzdata)
    # Approvals are OpenSSH signatures: real keys, signed and verified by ssh-keygen
    packages+=(openssh-client)
    # The status pages as a person sees them: headless Chromium driven by Selenium, html5lib for strict parsing
    packages+=(chromium chromium-driver)
    python_packages+=("selenium:selenium" "html5lib:html5lib")
    # relctl deploy uploads through rclone; its tests talk to moto's local S3 server
    packages+=(rclone)
    python_packages+=("moto:moto[server]")
    # relctl push: the local APNs/FCM server speaks HTTP/2 (h2) and verifies ES256/RS256 JWTs (cryptography), Debian's python3
    packages+=(python3-h2 python3-cryptography openssl)
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
missing=()
for pkg in "${packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Each entry is "module:requirement": installed with pip when python3 cannot import the module.
pip_missing=()
for entry in "${python_packages[@]}"; do
    python3 -c "import ${entry%%:*}" 2>/dev/null || pip_missing+=("${entry#*:}")
done
if [ ${#pip_missing[@]} -gt 0 ]; then
    echo "installing from PyPI: ${pip_missing[*]}" >&2
    python3 -m pip install -q "${pip_missing[@]}"
fi
