/// Every --json document speaks one dialect: camelCase keys, like
/// control.json. The catalog names its fields in snake_case
/// (update_button); they are turned into keys here.
enum JSONKey {
    static func camel(_ name: String) -> String {
        var out = "", upper = false
        for c in name {
            if c == "_" { upper = true; continue }
            out += upper ? c.uppercased() : String(c)
            upper = false
        }
        return out
    }
}
