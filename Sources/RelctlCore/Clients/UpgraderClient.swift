/// Flutter's upgrader (13.x) reading an appcast, as docs/clients.md describes
/// it: element names matched literally with the `sparkle:` prefix; the
/// version from <sparkle:version>, else the enclosure's attribute, three
/// components read (a fourth dropped, "v1.2" skipped with its item); items
/// for another `sparkle:os` or above the device's OS left out; offered
/// below the highest item, required below the highest item tagged
/// <sparkle:tags><sparkle:criticalUpdate/></sparkle:tags>. A feed that is
/// not well-formed XML is an error upgrader reports: no prompt.
public struct UpgraderClient: Sendable {
    struct Item: Sendable {
        var version: [Int]
        var critical: Bool
        var minOS: String?
        var maxOS: String?
        var url: String?
        /// xml:lang ("" for none) → text, in document order.
        var descriptions: [(String, String)]
    }

    let items: [Item]
    /// The highest critical and highest item on upgrader's default device
    /// (OS 999), found once: Fidelity asks for every recorded version.
    let onDefaultOS: (critical: Item?, best: Item?)

    /// `platform`: the OS name upgrader compares `sparkle:os` with.
    public init(_ bytes: [UInt8], platform: String) throws(ClientFailure) {
        let root: XMLElement
        do { root = try XMLReader.parse(bytes) } catch { throw .ignored("not well-formed XML: \(error.message) at byte \(error.offset)") }
        var items: [Item] = []
        for e in root.all("item") {
            let enclosure = e.first("enclosure")
            guard let text = e.first("sparkle:version")?.text ?? enclosure?.attributes["sparkle:version"],
                  let version = UpgraderClient.parse(text) else { continue }
            if let os = enclosure?.attributes["sparkle:os"], os.lowercased() != platform.lowercased() { continue }
            let critical = e.children.contains { $0.name == "sparkle:tags" && $0.first("sparkle:criticalUpdate") != nil }
            items.append(Item(version: version, critical: critical, minOS: e.first("sparkle:minimumSystemVersion")?.text,
                              maxOS: e.first("sparkle:maximumSystemVersion")?.text, url: enclosure?.attributes["url"],
                              descriptions: e.children.filter { $0.name == "description" }.map { ($0.attributes["xml:lang"] ?? "", $0.text) }))
        }
        self.items = items
        onDefaultOS = UpgraderClient.offered(items, os: [999, 0, 0])
    }

    /// The highest critical item and the highest item a device on `os` can install.
    static func offered(_ items: [Item], os: [Int]) -> (critical: Item?, best: Item?) {
        let supported = supported(items, os: os)
        return (highest(supported.filter(\.critical)), highest(supported))
    }

    /// Up to three numbers between dots, missing ones 0, a fourth dropped;
    /// nil for anything else ("v1.2").
    static func parse(_ s: String) -> [Int]? {
        // Read from the bytes: Fidelity parses every recorded version.
        var out: [Int] = []
        out.reserveCapacity(3)
        var parts = 0, n = 0, digits = 0
        for c in s.utf8 {
            if c == UInt8(ascii: ".") {
                guard digits > 0 else { return nil }
                if parts < 3 { out.append(n) }
                parts += 1; n = 0; digits = 0
            } else {
                guard c >= 48 && c <= 57, digits < 9 else { return nil }
                n = n * 10 + Int(c - 48); digits += 1
            }
        }
        guard digits > 0, parts < 4 else { return nil }
        if parts < 3 { out.append(n) }
        while out.count < 3 { out.append(0) }
        return out
    }

    static func isBelow(_ a: [Int], _ b: [Int]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x < y }
        return false
    }

    /// Items a device on `os` can install.
    func supported(os: [Int]) -> [Item] { UpgraderClient.supported(items, os: os) }

    static func supported(_ items: [Item], os: [Int]) -> [Item] {
        items.filter { item in
            if let m = item.minOS.flatMap(UpgraderClient.parse), UpgraderClient.isBelow(os, m) { return false }
            if let m = item.maxOS.flatMap(UpgraderClient.parse), UpgraderClient.isBelow(m, os) { return false }
            return true
        }
    }

    static func highest(_ items: [Item]) -> Item? {
        items.reduce(nil) { best, item in best.map { isBelow($0.version, item.version) ? item : $0 } ?? item }
    }

    /// The app's marketing version on OS `os` (upgrader's default is 0.0.0).
    public func decide(_ installed: String, os: String = "999") -> ClientDecision { deciding(os: os)(installed) }

    /// `decide` on one OS for many installs: what the device is offered is
    /// found once (Fidelity asks every install on each OS band).
    public func deciding(os: String) -> (String) -> ClientDecision {
        let device = UpgraderClient.parse(os)
        let offered = device.map { $0 == [999, 0, 0] ? onDefaultOS : UpgraderClient.offered(items, os: $0) }
        return { installed in UpgraderClient.decide(installed, offered: offered) }
    }

    private static func decide(_ installed: String, offered: (critical: Item?, best: Item?)?) -> ClientDecision {
        guard let v = UpgraderClient.parse(installed), let offered else { return .ignored("the installed version \(installed) does not parse") }
        if let critical = offered.critical, UpgraderClient.isBelow(v, critical.version) { return .required }
        if let best = offered.best, UpgraderClient.isBelow(v, best.version) { return .optional }
        return .none
    }

    /// The release notes of the offered item for a device language: its
    /// xml:lang alternative, else the untagged description.
    public func notes(locale: String, os: String = "999") -> String? {
        guard let device = UpgraderClient.parse(os), let best = UpgraderClient.highest(supported(os: device)) else { return nil }
        return best.descriptions.first { $0.0 == locale }?.1 ?? best.descriptions.first { $0.0.isEmpty }?.1
    }

    /// The Update button's target of the offered item.
    public func url(os: String = "999") -> String? {
        UpgraderClient.parse(os).flatMap { UpgraderClient.highest(supported(os: $0))?.url }
    }
}
