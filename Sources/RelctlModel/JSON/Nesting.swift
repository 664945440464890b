/// How deep any document relctl or its client reads may nest: JSON
/// (control.json, index.json, configuration files, recorded rows, a
/// remote's release record) and XML (appcasts). Each level is a frame of a
/// recursive reader, so the limit is what keeps a hostile download from
/// overflowing the stack of the thread that reads it; an app reads on a
/// background thread of 512 KiB. No file relctl reads nests past ten.
public enum Nesting {
    public static let maxDepth = 64
}
