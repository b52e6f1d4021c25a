import PreviewCore

/// mpc-like format strings for status bars: `%title%`, `%artist%`,
/// `%album%`, `%file%`, `%state%`, `%elapsed%`, `%duration%`, `%percent%`,
/// `%volume%`, `%position%`, `%length%`, and in `watch` `%event%` and
/// `%reason%` (what changed and why); `[...]` is an optional group,
/// dropped when a placeholder inside it has no value; `\\[` and `\\%` are
/// literal; `&` is not special.
public enum StatusFormat {
    /// The values a format can name, from `status` and `currentsong` fields.
    public static func values(status: [String: String], song: [String: String]) -> [String: String] {
        var v: [String: String] = [:]
        v["state"] = ["play": "playing", "pause": "paused", "stop": "stopped"][status["state"] ?? "stop"]
        v["volume"] = status["volume"]
        v["length"] = status["playlistlength"]
        guard status["state"] != "stop", !song.isEmpty else { return v }
        v["title"] = song["Title"]
        v["artist"] = song["Artist"]
        v["album"] = song["Album"]
        v["file"] = song["file"]
        if let pos = status["song"].flatMap({ Int($0) }) { v["position"] = String(pos.clampedAdding(1)) }
        addTimes(elapsed: status["elapsed"], duration: status["duration"], to: &v)
        return v
    }

    /// `elapsed`, `duration` and `percent` from seconds as text.
    private static func addTimes(elapsed: String?, duration: String?, to v: inout [String: String]) {
        let seconds = Double(elapsed ?? "") ?? 0
        v["elapsed"] = ControlFormat.clock(seconds)
        v["elapsed_seconds"] = elapsed ?? "0"
        if let d = Double(duration ?? ""), d > 0 {
            v["duration"] = ControlFormat.clock(d)
            v["duration_seconds"] = duration
            v["percent"] = String(Int(clamping: seconds / d * 100, rounding: .down))
        }
    }

    /// The values a format can name, from an `events` record's fields
    /// (see `PlayerEvent`).
    public static func values(event: [String: String]) -> [String: String] {
        var v: [String: String] = [:]
        v["event"] = event["event"]
        v["reason"] = event["reason"]
        v["state"] = ["play": "playing", "pause": "paused", "stop": "stopped"][event["state"] ?? "stop"]
        v["volume"] = event["volume"]
        v["length"] = event["length"]
        guard event["state"] != "stop", event["file"] != nil else { return v }
        for key in ["title", "artist", "album", "file", "position", "error"] { v[key] = event[key] }
        addTimes(elapsed: event["elapsed"], duration: event["duration"], to: &v)
        return v
    }

    /// Renders `format` with `values`.
    public static func render(_ format: String, _ values: [String: String]) -> String {
        var chars = Array(format)[...]
        return render(&chars, values, inGroup: false) ?? ""
    }

    /// nil when a group's placeholder had no value.
    private static func render(_ chars: inout ArraySlice<Character>, _ values: [String: String], inGroup: Bool) -> String? {
        var out = ""
        var missing = false
        while let c = chars.popFirst() {
            switch c {
            case "\\":
                if let next = chars.popFirst() { out.append(next) }
            case "[":
                if let group = render(&chars, values, inGroup: true) { out += group }
            case "]" where inGroup:
                return missing ? nil : out
            case "%":
                if let end = chars.firstIndex(of: "%") {
                    let name = String(chars[chars.startIndex..<end])
                    chars = chars[chars.index(after: end)...]
                    if let value = values[name], !value.isEmpty { out += value } else { missing = true }
                } else {
                    out.append(c)
                }
            default:
                out.append(c)
            }
        }
        return missing && inGroup ? nil : out
    }

    /// The values that are numbers in JSON.
    static let numbers: Set = ["volume", "length", "position", "percent", "elapsed_seconds", "duration_seconds"]

    /// One JSON object with the same values (only those present), numbers
    /// as numbers (`elapsed` and `duration` stay clock text; their
    /// `_seconds` twins are numbers).
    public static func json(_ values: [String: String]) -> String {
        ControlJSON.Value.object(
            values.keys.sorted().map { key in
                (key, numbers.contains(key) ? ControlJSON.number(values[key]) ?? .string(values[key]!) : .string(values[key]!))
            }
        ).text
    }
}
