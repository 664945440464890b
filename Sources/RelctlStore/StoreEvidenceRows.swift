import RelctlCore
import SQLite

/// The stores' evidence as rows (schema 14): the latest lookup per
/// platform and storefront, and the latest Play import per platform with
/// its releases. Each fetch or import replaces what it covers, in one
/// session with an audit row of its own (`store fetch ios: us 2.1, de none`)
/// that holds no configuration rows, so nothing undoes it.
enum StoreEvidenceRows {
    static let schema = """
        CREATE TABLE store_lookup(
            platform_id INTEGER NOT NULL REFERENCES platform(id) ON DELETE CASCADE,
            storefront TEXT NOT NULL,
            fetched_at INTEGER NOT NULL,
            version TEXT,
            released_at INTEGER,
            min_os TEXT,
            PRIMARY KEY(platform_id, storefront)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE store_play_import(
            platform_id INTEGER PRIMARY KEY REFERENCES platform(id) ON DELETE CASCADE,
            imported_at INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE store_play_release(
            platform_id INTEGER NOT NULL REFERENCES store_play_import(platform_id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            track TEXT NOT NULL,
            name TEXT,
            status TEXT NOT NULL,
            user_fraction_ppm INTEGER,
            version_codes TEXT NOT NULL,
            countries TEXT,
            rest_of_world INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY(platform_id, seq)
        ) STRICT, WITHOUT ROWID;

        """

    static let stamped: [Schema.StampedTable] = ["store_lookup", "store_play_import", "store_play_release"].map {
        Schema.StampedTable(name: $0, parent: "platform_id", project: { "(SELECT project_id FROM platform WHERE id = \($0).platform_id)" })
    }
}

extension Store {
    /// Every platform's evidence of a project, by platform id; a bad row is an error naming it.
    public func storeEvidence(project: Int64) throws -> [Int64: StoreEvidence] {
        var evidence: [Int64: StoreEvidence] = [:]
        for r in try db.query("""
            SELECT l.platform_id, l.storefront, l.fetched_at, l.version, l.released_at, l.min_os, p.name FROM store_lookup l
                JOIN platform p ON p.id = l.platform_id WHERE p.project_id = ? ORDER BY l.platform_id, l.storefront
            """, [.int(project)]) {
            let what = "store lookup \(r.text(1)) of platform \(r.text(6)) of project #\(project)"
            func checked<T>(_ label: String, _ read: () throws -> T) throws -> T {
                do { return try read() } catch let e as InputError { throw badRow(what, "its \(label): \(e.message)") }
            }
            let lookup = StoreLookup(storefront: try checked("storefront") { try Names.storefront(r.text(1)) },
                                     fetchedAt: try instant(r.int(2), what, "fetched_at") ?? 0,
                                     version: try checked("version") { try r.string(3).map { try Version($0) } },
                                     releasedAt: try instant(r.int(4), what, "released_at"),
                                     minOS: try checked("minimum OS") { try r.string(5).map(Names.osVersion) })
            evidence[r.int(0)!, default: StoreEvidence()].lookups.append(lookup)
        }
        for r in try db.query("""
            SELECT i.platform_id, i.imported_at, p.name FROM store_play_import i JOIN platform p ON p.id = i.platform_id WHERE p.project_id = ?
            """, [.int(project)]) {
            let id = r.int(0)!, what = "the Play import of platform \(r.text(2)) of project #\(project)"
            let at = try instant(r.int(1), what, "imported_at") ?? 0
            var releases: [PlayRelease] = []
            for x in try db.query("""
                SELECT seq, track, name, status, user_fraction_ppm, version_codes, countries, rest_of_world FROM store_play_release
                    WHERE platform_id = ? ORDER BY seq
                """, [.int(id)]) {
                let row = "release #\(x.int(0)!) of \(what)"
                guard let status = PlayRelease.Status(rawValue: x.text(3)) else {
                    throw badRow(row, "its status '\(x.text(3))' is none of \(PlayRelease.Status.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                // Parts per million: SQLite's REAL would bring rounding into a comparison with 100 %.
                let ppm = x.int(4)
                if let p = ppm, !(1...1_000_000).contains(p) { throw badRow(row, "its user fraction \(p) ppm is not from 1 to 1000000") }
                let fraction = ppm.map { Double($0) / 1_000_000 }
                var codes: [Int64] = []
                for part in x.text(5).split(separator: ",") {
                    guard let code = try? parseBuild(String(part)) else { throw badRow(row, "its version code '\(part)' is not a whole number from 0 to 2100000000") }
                    codes.append(code)
                }
                let countries: [String]?
                do { countries = try x.string(6).map(Names.storefronts) } catch let e as InputError { throw badRow(row, "its countries: \(e.message)") }
                guard let rest = x.int(7), rest == 0 || rest == 1 else { throw badRow(row, "its rest_of_world is not 0 or 1") }
                releases.append(PlayRelease(track: x.text(1), name: x.string(2), status: status, userFraction: fraction, versionCodes: codes,
                                            countries: countries, restOfWorld: rest == 1))
            }
            evidence[id, default: StoreEvidence()].play = PlayTracks(importedAt: at, releases: releases)
        }
        return evidence
    }
}

extension Session {
    /// Records the lookups of one platform's storefronts (each replacing that storefront's last).
    public func recordLookups(_ lookups: [StoreLookup], of platform: PlatformRecord, in project: ProjectRecord, now: Int64) throws {
        let summary = lookups.map { "\($0.storefront) \($0.version?.text ?? "none")" }.joined(separator: ", ")
        try evidence(Change(.storeFetch, project: project.slug, platforms: [platform.name], "store fetch \(platform.name): \(summary)"), now: now) {
            for l in lookups {
                try db.run("""
                    INSERT INTO store_lookup(platform_id, storefront, fetched_at, version, released_at, min_os) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT(platform_id, storefront) DO UPDATE SET fetched_at = excluded.fetched_at, version = excluded.version,
                        released_at = excluded.released_at, min_os = excluded.min_os
                    """, [.int(platform.id), .text(l.storefront), .int(l.fetchedAt), SQLValue(l.version?.text), SQLValue(l.releasedAt), SQLValue(l.minOS)])
            }
        }
    }

    /// Replaces a platform's Play evidence with one import of its tracks.
    public func recordPlayTracks(_ tracks: PlayTracks, of platform: PlatformRecord, in project: ProjectRecord, now: Int64) throws {
        let production = tracks.releases.filter { $0.track == "production" }
        let summary = production.isEmpty ? "no production release" : production.map { r in
            "\(r.versionCodes.map(String.init).joined(separator: "+")) \(r.status.rawValue)\(r.userFraction.map { _ in " " + r.percent } ?? "")"
        }.joined(separator: ", ")
        try evidence(Change(.storeImport, project: project.slug, platforms: [platform.name], "store import play \(platform.name): \(summary)"), now: now) {
            try db.run("DELETE FROM store_play_import WHERE platform_id = ?", [.int(platform.id)])
            try db.run("INSERT INTO store_play_import(platform_id, imported_at) VALUES (?, ?)", [.int(platform.id), .int(tracks.importedAt)])
            for (seq, r) in tracks.releases.enumerated() {
                try db.run("""
                    INSERT INTO store_play_release(platform_id, seq, track, name, status, user_fraction_ppm, version_codes, countries, rest_of_world)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.int(platform.id), .int(Int64(seq)), .text(r.track), SQLValue(r.name), .text(r.status.rawValue), SQLValue(r.userFraction.map { Int64(($0 * 1_000_000).rounded()) }),
                          .text(r.versionCodes.map(String.init).joined(separator: ",")), SQLValue(r.countries?.joined(separator: ",")),
                          .int(r.restOfWorld ? 1 : 0)])
            }
        }
    }
}
