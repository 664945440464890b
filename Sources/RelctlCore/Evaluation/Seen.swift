/// What users of a project see at an instant, as one digest: deploy --push
/// compares it with the one the remote's record keeps from the last deploy,
/// and sends a push only when they differ (a window starting or ending, a
/// floor, pin, rule or rollout step, an undo), not for every upload.
///
/// It is the ONE evaluator's answer for every recorded install, on every OS
/// band with devices, inside a rollout and outside it, with the platform's
/// floors (which move the answers of installs nobody recorded). Installs
/// are walked in release order and only those where the answer changes are
/// written down, so a release added that nobody is told about yet (its
/// release delay) changes nothing. The probes of `check` are left out on
/// purpose: which installs are probed depends on the records, so they would
/// make a new record look like a change.
extension Impact {
    public static func seen(_ snapshot: ProjectSnapshot, at t: Int64) -> String {
        SHA256Digest.hex(SHA256Digest.hash(Array(seenText(snapshot, at: t).utf8)))
    }

    /// What the digest is of: one line per platform, rollout and band, and per install where the answer changes.
    static func seenText(_ snapshot: ProjectSnapshot, at t: Int64) -> String {
        let (_, evaluator, platforms) = askers(snapshot, snapshot)
        var text = ""
        for a in platforms.sorted(by: { $0.now.name < $1.now.name }) {
            var asked: [(release: Release, record: VersionRecord)] = a.records.map { ($0.release, $0) }
            // A total order: where a platform's releases tie (iOS ignores builds), by build, then as spelled.
            asked.sort { a, b in
                if Release.isBelow(a.release, b.release) { return true }
                if Release.isBelow(b.release, a.release) { return false }
                return (a.release.build ?? -1, a.release.version.text) < (b.release.build ?? -1, b.release.version.text)
            }
            func said(_ v: Verdict) -> String {
                "\(v.kind.rawValue) \(v.target?.label ?? "-") \(v.updateType ?? "-") \(v.rule.map { "\($0.alert.rawValue)/\($0.frequency.rawValue)" } ?? "-") \(v.deadline.map(String.init) ?? "-") \(v.window.map { "\($0.startsAt)-\($0.endsAt.map(String.init) ?? "open")" } ?? "-")"
            }
            // Runs of one answer: the first without its install (a record added below it changes nothing),
            // the others from the first install that is told otherwise.
            func runs(_ label: String, _ answers: [String?]) {
                var last: String? = nil
                for (i, answer) in answers.enumerated() {
                    guard let answer, answer != last else { continue }
                    let from = last == nil ? "" : " from \(asked[i].release.version.text)+\(asked[i].release.build.map(String.init) ?? "")"
                    text += "\(label)\(from) \(answer)\n"
                    last = answer
                }
            }
            let floors = [("force", a.now.force), ("recommend", a.now.recommend)].map { "\($0.0) \($0.1.map { "\($0.text) \($0.deadline.map(String.init) ?? "-")" } ?? "-")" }
            text += "platform \(a.now.name) \(floors.joined(separator: " "))\n"
            let newest = asked.map { said(evaluator.evaluate(a.now, $0.release, at: t)) }
            runs("all", newest)
            if let r = a.now.rollout {
                // The salt too: drawing who is in anew at the same share changes who is told.
                text += "rollout \(r.floor.text) \(r.salt) \(r.basisPoints(at: t))\n"
                let inside = a.now.seen(inRollout: true, at: t)
                runs("in", asked.map { said(evaluator.evaluate(inside, $0.release, at: t)) })
            }
            // An older OS band only where it is told otherwise than the newest: a band that a new
            // minimum OS brings, and that tells nobody anything else, changes nothing.
            for band in a.bands {
                let answers = asked.indices.map { i -> String? in
                    if !OSBands.installable(asked[i].record, on: band.os, a.now) { return nil }
                    let answer = said(evaluator.evaluate(a.now, asked[i].release, at: t, os: band.os))
                    return answer == newest[i] ? "as on the newest OS" : answer
                }
                guard answers.contains(where: { $0 != nil && $0 != "as on the newest OS" }) else { continue }
                runs("os \(band.os)", answers)
            }
        }
        return text
    }
}
