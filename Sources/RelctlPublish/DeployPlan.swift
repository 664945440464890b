import RelctlCore

/// What to send, in which order, with which headers: a pure function of the
/// two indexes and the time.
package struct DeployPlan {
    package struct Step {
        package enum Kind { case upload(contentType: String, maxAge: Int64), delete }
        package var kind: Kind
        package var paths: [String]
        package var what: String
        package var isIndex: Bool { paths == ["index.json"] }
        package var isDeletion: Bool { if case .delete = kind { return true } else { return false } }
    }

    package var steps: [Step] = []
    package var uploads: [String] = []
    package var deletions: [String] = []
    /// Uploads at paths the remote's index.json does not list (index.json
    /// aside): new to the remote, or there as someone else's files.
    package var unlisted: [String] = []
    package var unchanged = 0
    package var capped = false
    package var capSeconds: Int64 = 0

    /// The changed paths, for a CDN invalidation.
    package var changedPaths: [String] { (uploads + deletions).sorted() }

    /// The cache class of its kind (FileKinds), in seconds; a path no
    /// publish of this relctl writes (an older one's index) as a JSON file.
    package static func maxAge(_ path: String) -> Int64 { (FileKinds.of(path) ?? FileKinds.retired).maxAge }

    package static func contentType(_ path: String) -> String { (FileKinds.of(path) ?? FileKinds.retired).contentType }

    /// The remote's record of its releases and owed deletions (deploy), beside
    /// index.json: never a file of a release, so never deleted or sent as one.
    package static let recordName = "relctl-releases.json"

    /// `owed`: paths an earlier deploy to this remote recorded there, to delete or sending, that
    /// its index.json may not list: deleted unless this tree holds them.
    package init(local: PublishedIndex, localIndex: [UInt8], remote: (index: PublishedIndex?, bytes: [UInt8]?), owed: [String] = [], now: Int64) {
        // An index of another relctl version (or the old rclone sync) still names what is there.
        let theirs = remote.index?.files ?? remote.bytes.map(TreeFiles.readIndex) ?? [:]
        var data: [String] = [], control: [String] = []
        for (path, entry) in local.files.sorted(by: { $0.key < $1.key }) {
            if let t = theirs[path], t == entry { unchanged += 1; continue }
            if theirs[path] == nil { unlisted.append(path) }
            if path.hasSuffix("/control.json") { control.append(path) } else { data.append(path) }
        }
        deletions = Set(theirs.keys).union(owed).filter {
            local.files[$0] == nil && TreeFiles.isSafe($0) && $0 != "index.json" && $0 != DeployPlan.recordName
        }.sorted()
        // A cache must not keep a file past the instant it changes by itself.
        let cap = local.nextChange.map { max(0, $0.at - now) }
        capSeconds = cap ?? 0
        func add(_ paths: [String], _ what: String) {
            var groups: [String: [String]] = [:]
            var order: [String] = []
            for p in paths {
                var age = DeployPlan.maxAge(p)
                if let cap, cap < age { age = cap; capped = true }
                let key = "\(DeployPlan.contentType(p))\u{0}\(age)"
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(p)
            }
            for key in order {
                let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
                steps.append(Step(kind: .upload(contentType: String(parts[0]), maxAge: Int64(parts[1])!), paths: groups[key]!, what: what))
            }
        }
        add(data, "uploading data files")
        add(control, "uploading control.json files")
        if remote.bytes != localIndex { add(["index.json"], "uploading index.json") } else { unchanged += 1 }
        if !deletions.isEmpty { steps.append(Step(kind: .delete, paths: deletions, what: "deleting files that no longer belong")) }
        uploads = data + control + (remote.bytes != localIndex ? ["index.json"] : [])
    }
}
