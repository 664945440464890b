/// A value type's fields in one shared object, made a holder's own before
/// it changes them (`update`), as Array's storage is. A copy of the value is
/// then one retain, not one of each string and list among its fields: a
/// publish copies every version record and verdict many times (a verdict
/// and its target per version, a row per client check, format and page).
package struct CopyOnWrite<Fields>: @unchecked Sendable {
    // Changed only by a holder of the sole reference (`update`); shared only to be read.
    private final class Box {
        // No run-time exclusivity check: only a sole owner ever writes (`update`),
        // and the checks were 1.7% of a publish's instructions.
        @exclusivity(unchecked) var fields: Fields
        package init(_ fields: Fields) { self.fields = fields }
    }
    private var box: Box

    package init(_ fields: Fields) { box = Box(fields) }

    // Borrowed, not copied: reading one field does not retain the others.
    package var fields: Fields { _read { yield box.fields } }

    package mutating func update(_ change: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
        change(&box.fields)
    }
}
