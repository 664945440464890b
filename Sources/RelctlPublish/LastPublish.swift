import RelctlCore

/// What a publish said (its warnings, and the limits as `publish --json`
/// writes them) and the facts it rests on, recorded in the tree's state:
/// a publish that finds every fact the same has nothing to do, and says
/// the same without parsing index.json and every project's limits in it
/// (they were two thirds of such a publish). Recorded only when no client
/// decision differed from `check`.
package struct LastPublish: Equatable {
    /// The relctl that wrote the tree (Publisher.Request.generator).
    package var generator: String
    /// The database's edit count the files were made from.
    package var edits: Int64
    /// The span the files hold for.
    package var validFrom: Int64?
    package var nextChange: NextChange?
    /// Each project's revision and edit stamp, by slug.
    package var projects: [String: Project]
    package var warnings: [String]
    /// The compact JSON array of `publish --json`'s "limits".
    package var limits: [UInt8]
    /// The SHA-256 of the index.json it wrote: when the index's file stamp
    /// moved (a copy, a touch), its bytes still tell whether this record is
    /// about it, so the projects' stamps may still be gone by. Nil: not recorded.
    package var indexSha256: String? = nil

    package struct Project: Equatable {
        package var revision: Int64
        package var edits: Int64?
        /// False: kept by a publish of another project without being found current (PublishedProject.vouched).
        package var vouched = true
    }

    /// As compact JSON, the limits last: most of the record (nine tenths of
    /// the fleet's state), read only by `publish --json`.
    package var bytes: [UInt8] {
        let projects = JSON.object(projects.mapValues { .array([.int($0.revision), .optional($0.edits)] + ($0.vouched ? [] : [.bool(false)])) })
        let head = JSON.fields([("edits", .int(edits)), ("generator", .string(generator)), ("index", .optional(indexSha256)),
                                ("nextChange", NextChange.json(nextChange)), ("projects", projects),
                                ("validFrom", .optional(validFrom)), ("warnings", .array(warnings.map { .string($0) })), ("limits", .raw([]))])
        // The limits, most of it, appended where `.raw` would write them, not copied twice more.
        var out: [UInt8] = []
        out.reserveCapacity(limits.count + 4096)
        head.writeCompact(to: &out)
        out.removeLast()  // the closing brace, after the empty limits
        out.append(contentsOf: limits)
        out.append(125)
        assert(out == Array(JSON.fields([("edits", .int(edits)), ("generator", .string(generator)), ("index", .optional(indexSha256)),
                                          ("nextChange", NextChange.json(nextChange)), ("projects", projects), ("validFrom", .optional(validFrom)),
                                          ("warnings", .array(warnings.map { .string($0) })), ("limits", .raw(limits))]).compactBytes().dropLast()),
               "the record is not what .fields writes")
        return out
    }

    /// What `bytes` wrote; nil for anything else. Where the limits come
    /// last, after every other member `bytes` writes, they are not scanned:
    /// the state's check holds for them (TreeState.checked), and a publish
    /// with nothing to do spent a tenth of its time scanning them. Any other
    /// record (keys sorted, as relctl wrote it before) is read whole.
    package init?(bytes: [UInt8]) {
        guard let record = LastPublish(bytes, members: LastPublish.limitsLast(bytes)) ?? LastPublish(bytes, members: try? JSONReader.members(bytes)) else { return nil }
        self = record
    }

    /// The members `bytes` writes, the limits last (taken to run to the
    /// record's closing brace); nil for a record with any other members.
    private static func limitsLast(_ bytes: [UInt8]) -> [String: Range<Int>]? {
        guard bytes.count > 2, bytes[bytes.count - 2] == UInt8(ascii: "]"),
              let members = try? JSONReader.members(bytes, scan: ("limits", { _ in bytes.count - 1 })),
              members.count == written.count, written.allSatisfy({ members[$0] != nil }) else { return nil }
        return members
    }

    private static let written = ["edits", "generator", "index", "nextChange", "projects", "validFrom", "warnings", "limits"]

    private init?(_ bytes: [UInt8], members: [String: Range<Int>]?) {
        guard let members, let limits = members["limits"], bytes[limits.lowerBound] == UInt8(ascii: "["),
              case .int(let edits)? = members["edits"].flatMap({ try? JSONReader.parse(bytes[$0]) }),
              case .string(let generator)? = members["generator"].flatMap({ try? JSONReader.parse(bytes[$0]) }),
              case .object(let projectList)? = members["projects"].flatMap({ try? JSONReader.parse(bytes[$0]) }),
              case .array(let warningList)? = members["warnings"].flatMap({ try? JSONReader.parse(bytes[$0]) }),
              let validFrom = members["validFrom"].flatMap({ try? JSONReader.parse(bytes[$0]) }),
              let next = members["nextChange"].flatMap({ try? JSONReader.parse(bytes[$0]) }) else { return nil }
        self.generator = generator
        self.edits = edits
        switch validFrom {
        case .null: self.validFrom = nil
        case .int(let t): self.validFrom = t
        default: return nil
        }
        guard let change = NextChange.read(next) else { return nil }
        nextChange = change
        projects = [:]
        projects.reserveCapacity(projectList.count)
        for (slug, value) in projectList {
            guard case .array(let pair) = value, pair.count == 2 || pair.count == 3 && pair[2] == .bool(false), case .int(let revision) = pair[0] else { return nil }
            switch pair[1] {
            case .null: projects[slug] = Project(revision: revision, edits: nil, vouched: pair.count == 2)
            case .int(let e): projects[slug] = Project(revision: revision, edits: e, vouched: pair.count == 2)
            default: return nil
            }
        }
        warnings = []
        warnings.reserveCapacity(warningList.count)
        for w in warningList {
            guard case .string(let line) = w else { return nil }
            warnings.append(line)
        }
        self.limits = Array(bytes[limits])
        if case .string(let sha)? = members["index"].flatMap({ try? JSONReader.parse(bytes[$0]) }) { indexSha256 = sha }
    }

    /// What a publish of the tree `index` records, having said `warnings`
    /// and `limits`. A project whose client decisions differed from `check`
    /// (written with --publish-despite-disagreements) is recorded unvouched:
    /// never taken as done, its stamps still saying what it was published from.
    package init(of index: PublishedIndex, generator: String, warnings: [String], limits: [UInt8], indexSha256: String? = nil) {
        self.init(generator: generator, edits: index.edits, validFrom: index.validFrom, nextChange: index.nextChange,
                  projects: index.projects.compactMapValues { p in p.revision.map { Project(revision: $0, edits: p.edits, vouched: p.vouched && p.disagreements == 0) } }, warnings: warnings, limits: limits)
        self.indexSha256 = indexSha256
    }

    package init(generator: String, edits: Int64, validFrom: Int64?, nextChange: NextChange?, projects: [String: Project], warnings: [String], limits: [UInt8]) {
        self.generator = generator; self.edits = edits; self.validFrom = validFrom; self.nextChange = nextChange
        self.projects = projects; self.warnings = warnings; self.limits = limits
    }
}
