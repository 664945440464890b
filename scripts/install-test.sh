#!/usr/bin/env bash
# Installs relctl into a temporary DESTDIR, runs the installed binary from
# there, checks every file landed where bash, zsh and fish look, and that
# uninstall removes them.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$(mktemp -d "${TMPDIR:-/tmp}/relctl-install.XXXXXX")"
trap 'rm -rf "$dest"' EXIT
fail() { echo "install test: $*" >&2; exit 1; }
make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null
bin="$dest/usr/bin/relctl"
for f in "$bin" "$dest/usr/share/man/man1/relctl.1" "$dest/usr/share/bash-completion/completions/relctl" \
         "$dest/usr/share/zsh/site-functions/_relctl" "$dest/usr/share/fish/vendor_completions.d/relctl.fish" \
         "$dest/usr/share/relctl/config.schema.json"; do
    [ -f "$f" ] || fail "missing $f"
done
"$bin" --version | grep -q '^relctl ' || fail "the installed binary does not run"
if ldd "$bin" 2>/dev/null | grep -q 'libswift'; then fail "the Swift standard library is linked dynamically"; fi
db="$dest/test.db"
"$bin" --db "$db" init -q && "$bin" --db "$db" project add shop -q || fail "the installed binary cannot create a database"
cmp -s <("$bin" completion zsh) completions/_relctl || fail "the installed binary generates a different zsh script"
make -s uninstall DESTDIR="$dest" PREFIX=/usr
left="$(find "$dest/usr" -type f | wc -l)"
[ "$left" -eq 0 ] || fail "uninstall left $left files"
echo "install: 1 passed, 0 failed"
