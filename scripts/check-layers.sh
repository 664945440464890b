#!/usr/bin/env bash
# Checks the layering the targets promise (README, Development):
#   - RelctlModel depends on nothing: no import at all (no Foundation, Glibc,
#     SQLite, Dispatch), no C symbol; but Ed25519.swift, which verifies
#     signatures with the platform's CryptoKit or, on Linux, libcrypto (its
#     only target dependency, CCrypto, on Linux alone);
#   - RelctlCore depends on the model alone; RelctlClient, what an app adds, on the
#     model and Foundation alone (nothing of the server side);
#   - SQLite knows nothing of relctl; RelctlStore and RelctlPublish do not reach the CLI;
#   - no SQL and no SQLite import outside RelctlStore and SQLite;
#   - the CLI's machinery (model, parsing, runtime, generators) names neither
#     the command tree nor the store: commands are handed to it.
# Usage: scripts/check-layers.sh [ROOT]      (exit 1 and one line per violation)
#        scripts/check-layers.sh --self-test (plants each violation in a copy)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

check() {
    local root="$1" bad=0
    fail() { echo "layers: $*" >&2; bad=1; }
    local deps
    deps="$(cd "$root" && swift package dump-package 2>/dev/null | python3 -c '
import json, sys
def names(t): return ",".join(sorted((d.get("byName") or d.get("target") or ["?"])[0] for d in t.get("dependencies", [])))
for t in json.load(sys.stdin)["targets"]:
    if t["name"] in ("RelctlModel", "RelctlCore", "RelctlClient"): print(t["name"] + "=" + names(t))')"
    grep -qxE 'RelctlModel=(CCrypto)?' <<<"$deps" || fail "RelctlModel declares target dependencies in Package.swift ($(grep RelctlModel <<<"$deps"))"
    grep -qx 'RelctlCore=RelctlModel' <<<"$deps" || fail "RelctlCore must depend on RelctlModel alone ($(grep RelctlCore <<<"$deps"))"
    grep -qx 'RelctlClient=RelctlModel' <<<"$deps" || fail "RelctlClient must depend on RelctlModel alone ($(grep RelctlClient <<<"$deps"))"
    while IFS= read -r hit; do fail "RelctlModel must import nothing: $hit"; done \
        < <(grep -rnE '^\s*(@testable\s+|@_exported\s+)?import\s' "$root/Sources/RelctlModel" --include='*.swift' \
            | grep -vE '^[^:]*/Sources/RelctlModel/Signing/Ed25519\.swift:[0-9]+:import (CryptoKit|CCrypto)$')
    while IFS= read -r hit; do fail "RelctlCore imports only the model: $hit"; done \
        < <(grep -rnE '^\s*(@testable\s+|@_exported\s+)?import\s' "$root/Sources/RelctlCore" --include='*.swift' | grep -vE 'import RelctlModel$')
    while IFS= read -r hit; do fail "RelctlClient must pull nothing of the server side into an app: $hit"; done \
        < <(grep -rnE '^\s*(@testable\s+|@_exported\s+)?import\s' "$root/Sources/RelctlClient" --include='*.swift' | grep -vE 'import (RelctlModel|Foundation|FoundationNetworking)$')
    # A C function bound by its symbol is an import by another name.
    while IFS= read -r hit; do fail "RelctlModel and RelctlCore must bind no C symbol: $hit"; done \
        < <(grep -rnE '@_silgen_name|@_cdecl|dlsym' "$root/Sources/RelctlModel" "$root/Sources/RelctlCore" --include='*.swift')
    while IFS= read -r hit; do fail "SQLite must know nothing of relctl: $hit"; done \
        < <(grep -rnE '^\s*import\s+Relctl' "$root/Sources/SQLite" --include='*.swift')
    while IFS= read -r hit; do fail "RelctlStore must not reach the CLI: $hit"; done \
        < <(grep -rnE '^\s*import\s+(RelctlCLI|CCrypto)' "$root/Sources/RelctlStore" --include='*.swift')
    # The store names a fix that is a command as data (Fix); only the command line spells it.
    while IFS= read -r hit; do fail "the store spells a relctl command: name it as a Fix: $hit"; done \
        < <(grep -rnE "'relctl " "$root/Sources/RelctlStore" --include='*.swift' | grep -vE '^[^:]+:[0-9]+:\s*//')
    while IFS= read -r hit; do fail "the publish engine must not reach the CLI: $hit"; done \
        < <(grep -rnE '^\s*(@testable\s+)?import\s+RelctlCLI' "$root/Sources/RelctlPublish" --include='*.swift')
    while IFS= read -r hit; do fail "SQL belongs in RelctlStore: $hit"; done \
        < <(grep -rnE '(^|[^A-Za-z])(SELECT .* FROM|INSERT INTO|DELETE FROM|UPDATE [a-z_]+ SET|CREATE (TABLE|INDEX)|PRAGMA [a-z_]+)|import\s+C?SQLite' \
            "$root/Sources/RelctlCLI" "$root/Sources/RelctlPublish" "$root/Sources/relctl" --include='*.swift')
    while IFS= read -r hit; do fail "the CLI machinery must be handed the commands and the store: $hit"; done \
        < <(grep -rnE 'Relctl\.tree|\bStore\b|[A-Z][A-Za-z]+Commands?\.' "$root/Sources/RelctlCLI/Model" "$root/Sources/RelctlCLI/Parsing" \
            "$root/Sources/RelctlCLI/Runtime" "$root/Sources/RelctlCLI/Generators" --include='*.swift' | grep -v 'RelctlError.swift')
    return $bad
}

if [ "${1:-}" = --self-test ]; then
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/relctl-layers.XXXXXX")"
    trap 'rm -rf "$tmp"' EXIT
    plant() { # NAME FILE LINE: a copy with LINE appended to FILE must fail
        rm -rf "$tmp/copy"; mkdir -p "$tmp/copy"
        cp -r "$here/Package.swift" "$here/Sources" "$tmp/copy/"
        [ -n "$2" ] && printf '%s\n' "$3" >> "$tmp/copy/$2"
        if check "$tmp/copy" 2>/dev/null; then echo "layers self-test: '$1' was not caught" >&2; exit 1; fi
    }
    rm -rf "$tmp/copy"; mkdir -p "$tmp/copy"; cp -r "$here/Package.swift" "$here/Sources" "$tmp/copy/"
    check "$tmp/copy" || { echo "layers self-test: the clean tree fails" >&2; exit 1; }
    plant "Foundation in the model" Sources/RelctlModel/Time/Time.swift 'import Foundation'
    plant "Foundation in the core" Sources/RelctlCore/Formats/FileKinds.swift 'import Foundation'
    plant "the store in the client" Sources/RelctlClient/ReleaseState.swift 'import RelctlStore'
    plant "the formats in the client" Sources/RelctlClient/ReleaseState.swift 'import RelctlCore'
    plant "SQL in a command" Sources/RelctlCLI/Commands/LogCommand.swift '// DELETE FROM audit'
    plant "SQLite in the CLI" Sources/RelctlCLI/Commands/LogCommand.swift 'import SQLite'
    plant "the tree in the runner" Sources/RelctlCLI/Runtime/Runner.swift 'let x = Relctl.tree'
    plant "relctl in the wrapper" Sources/SQLite/Row.swift 'import RelctlCore'
    plant "the CLI in the engine" Sources/RelctlPublish/Pending.swift 'import RelctlCLI'
    plant "SQL in the engine" Sources/RelctlPublish/Pending.swift '// SELECT slug FROM project'
    plant "a spelled command in the store" Sources/RelctlStore/StoreError.swift 'let x = StoreError("m", hint: "see '"'"'relctl log'"'"'")'
    plant "a spelled command as advice" Sources/RelctlStore/StoreError.swift 'let y = Fix.advice("run '"'"'relctl init'"'"'")'
    plant "a C symbol in the model" Sources/RelctlModel/Time/Time.swift '@_silgen_name("getenv") func getenv(_: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?'
    plant "Glibc in the model" Sources/RelctlModel/Time/Time.swift 'import Glibc'
    plant "libcrypto in the model outside Ed25519" Sources/RelctlModel/Time/Time.swift 'import CCrypto'
    plant "Foundation beside the cryptography" Sources/RelctlModel/Signing/Ed25519.swift 'import Foundation'
    rm -rf "$tmp/copy"; mkdir -p "$tmp/copy"; cp -r "$here/Package.swift" "$here/Sources" "$tmp/copy/"
    sed -i 's/.target(name: "RelctlCore", dependencies: \["RelctlModel"\]/.target(name: "RelctlCore", dependencies: ["RelctlModel", "SQLite"]/' "$tmp/copy/Package.swift"
    grep -q 'name: "RelctlCore", dependencies: \["RelctlModel", "SQLite"\]' "$tmp/copy/Package.swift" || { echo "layers self-test: the core dependency was not planted" >&2; exit 1; }
    if check "$tmp/copy" 2>/dev/null; then echo "layers self-test: a core dependency was not caught" >&2; exit 1; fi
    rm -rf "$tmp/copy"; mkdir -p "$tmp/copy"; cp -r "$here/Package.swift" "$here/Sources" "$tmp/copy/"
    sed -i 's/.target(name: "RelctlClient", dependencies: \["RelctlModel"\]/.target(name: "RelctlClient", dependencies: ["RelctlModel", "RelctlCore"]/' "$tmp/copy/Package.swift"
    grep -q 'name: "RelctlClient", dependencies: \["RelctlModel", "RelctlCore"\]' "$tmp/copy/Package.swift" || { echo "layers self-test: the client dependency was not planted" >&2; exit 1; }
    if check "$tmp/copy" 2>/dev/null; then echo "layers self-test: a client dependency was not caught" >&2; exit 1; fi
    echo "layers self-test: 16 passed, 0 failed"
    exit 0
fi

check "${1:-$here}" && echo "layers: 1 passed, 0 failed"
