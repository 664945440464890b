/// What the stores answer, read as hostile input: the iTunes lookup's body
/// for one storefront, and Google Play's track list (`edits.tracks.list`).
/// Each is refused whole, with what is wrong, rather than read in part.
public enum StoreAnswers {
    /// The largest answer read: a lookup of one app is a few KiB.
    public static let limit = 1 << 20

    /// The lookup's answer for `storefront`. `bundleID`/`appStoreID`: the
    /// app asked for; a result for another app is refused (a proxy or a
    /// wrong id must not pass as evidence).
    public static func lookup(_ bytes: [UInt8], storefront: String, fetchedAt: Int64, bundleID: String?, appStoreID: String?) throws -> StoreLookup {
        guard case .object(let top)? = try? JSONReader.parseForeign(bytes) else { throw ImportProblem("the answer is not a JSON object") }
        guard case .array(let results)? = top["results"] else { throw ImportProblem("the answer has no \"results\" list") }
        guard let first = results.first else {
            return StoreLookup(storefront: storefront, fetchedAt: fetchedAt, version: nil, releasedAt: nil, minOS: nil)
        }
        guard results.count == 1, case .object(let r) = first else { throw ImportProblem("the answer holds \(results.count) results, not one app") }
        if let bundleID {
            guard case .string(let b)? = r["bundleId"] else { throw ImportProblem("the result has no \"bundleId\" to tell which app it is") }
            guard b == bundleID else { throw ImportProblem("the answer is for \(b), not \(bundleID)") }
        }
        if let appStoreID {
            guard case .int(let id)? = r["trackId"] else { throw ImportProblem("the result has no \"trackId\" to tell which app it is") }
            guard String(id) == appStoreID else { throw ImportProblem("the answer is for App Store id \(id), not \(appStoreID)") }
        }
        guard case .string(let text)? = r["version"], let version = try? Version(text) else {
            throw ImportProblem("the result's \"version\" is missing or not a version")
        }
        var released: Int64?
        if case .string(let date)? = r["currentVersionReleaseDate"] {
            guard let t = Time.parseUTC(date) else { throw ImportProblem("the result's \"currentVersionReleaseDate\" '\(date.prefix(40))' is not an RFC 3339 time") }
            released = t
        }
        var minOS: String?
        if case .string(let os)? = r["minimumOsVersion"] {
            guard (try? Names.osVersion(os)) != nil else { throw ImportProblem("the result's \"minimumOsVersion\" '\(os.prefix(40))' is not a version") }
            minOS = os
        }
        return StoreLookup(storefront: storefront, fetchedAt: fetchedAt, version: version, releasedAt: released, minOS: minOS)
    }

    /// Play's tracks: a `tracks.list` response (`{"tracks": [...]}`) or one track (`{"track": ..., "releases": [...]}`).
    public static func playTracks(_ bytes: [UInt8], importedAt: Int64) throws -> PlayTracks {
        guard case .object(let top)? = try? JSONReader.parseForeign(bytes) else { throw ImportProblem("it is not a JSON object") }
        let tracks: [JSON]
        if case .array(let list)? = top["tracks"] { tracks = list } else if top["track"] != nil { tracks = [.object(top)] } else {
            throw ImportProblem("it has no \"tracks\" list (the Play Developer API's edits.tracks.list answer)")
        }
        var releases: [PlayRelease] = []
        for (i, t) in tracks.enumerated() {
            let at = "tracks[\(i)]"
            guard case .object(let track) = t, case .string(let name)? = track["track"], !name.isEmpty, name.utf8.count <= 100 else {
                throw ImportProblem("\(at) has no \"track\" name")
            }
            guard let list = track["releases"] else { continue }
            guard case .array(let items) = list else { throw ImportProblem("\(at).releases is not a list") }
            for (j, item) in items.enumerated() {
                releases.append(try release(item, track: name, at: "\(at).releases[\(j)]"))
            }
        }
        guard releases.count <= 1000 else { throw ImportProblem("it holds \(releases.count) releases; Play keeps far fewer") }
        return PlayTracks(importedAt: importedAt, releases: releases)
    }

    private static func release(_ item: JSON, track: String, at: String) throws -> PlayRelease {
        guard case .object(let r) = item else { throw ImportProblem("\(at) is not an object") }
        guard case .string(let s)? = r["status"], let status = PlayRelease.Status(rawValue: s) else {
            throw ImportProblem("\(at).status must be one of \(PlayRelease.Status.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var codes: [Int64] = []
        if case .array(let list)? = r["versionCodes"] {
            for (k, c) in list.enumerated() {
                // The API writes int64 as strings; a number is taken too.
                let text: String
                switch c {
                case .string(let v): text = v
                case .int(let n): text = String(n)
                default: throw ImportProblem("\(at).versionCodes[\(k)] is not a version code")
                }
                guard let code = try? parseBuild(text) else { throw ImportProblem("\(at).versionCodes[\(k)] '\(text.prefix(20))' is not a version code from 0 to 2100000000") }
                codes.append(code)
            }
        } else if r["versionCodes"] != nil {
            throw ImportProblem("\(at).versionCodes is not a list")
        }
        var fraction: Double?
        if let f = r["userFraction"] {
            let value: Double
            switch f {
            case .int(let n): value = Double(n)
            case .raw(let bytes): value = Double(String(decoding: bytes, as: UTF8.self)) ?? -1
            default: value = -1
            }
            // Kept in parts per million: a smaller fraction would read back as none.
            guard value >= 0.000_001 && value <= 1 else { throw ImportProblem("\(at).userFraction must be a number from 0.000001 to 1") }
            fraction = value
        }
        var countries: [String]?, restOfWorld = false
        if let targeting = r["countryTargeting"] {
            guard case .object(let ct) = targeting, case .array(let list)? = ct["countries"] else {
                throw ImportProblem("\(at).countryTargeting has no \"countries\" list")
            }
            countries = try list.enumerated().map { k, c in
                guard case .string(let code) = c, let checked = try? Names.storefront(code) else {
                    throw ImportProblem("\(at).countryTargeting.countries[\(k)] is not an ISO 3166 country code")
                }
                return checked
            }
            if case .bool(let rest)? = ct["includeRestOfWorld"] { restOfWorld = rest }
        }
        var name: String?
        if case .string(let n)? = r["name"] { name = String(n.prefix(200)) }
        return PlayRelease(track: track, name: name, status: status, userFraction: fraction, versionCodes: codes, countries: countries, restOfWorld: restOfWorld)
    }
}
