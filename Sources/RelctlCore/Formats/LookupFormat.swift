/// An App Store lookup-shaped file (docs/clients.md, Siren): trackId a number,
/// the date exactly yyyy-MM-ddTHH:mm:ssZ, every key present.
enum LookupFormat {
    static func render(_ state: PlatformState, locale: String, warnings: inout [String]) -> JSON? {
        let p = state.platform
        guard let v = state.current, let releasedAt = v.releasedAt else { return nil }
        guard let id = p.appStoreID.flatMap({ Int64($0) }), let bundle = p.bundleID, let url = p.updateURL else { return nil }
        guard let minOS = v.minOS ?? p.minOS else {
            if locale == state.snapshot.publishedLocales.first {
                warnings.append("\(state.project.slug)/\(p.name): no minimum OS is set, so no lookup file is published (relctl platform edit \(p.name) --min-os VERSION -p \(state.project.slug))")
            }
            return nil
        }
        return .object([
            "resultCount": .int(1),
            "results": .array([.object([
                "trackId": .int(id), "bundleId": .string(bundle), "version": .string(v.version.text),
                "currentVersionReleaseDate": .string(Time.format(releasedAt)),
                "minimumOsVersion": .string(minOS),
                "releaseNotes": .string(state.notes(v, locale: locale)?.1 ?? ""),
                "trackViewUrl": .string(url),
            ])]),
        ])
    }
}
