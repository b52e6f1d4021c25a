/// Percent-encodes `text` for a URL query value (RFC 3986 unreserved
/// characters stay as they are; everything else, UTF-8 encoded, is `%XX`).
public func percentEncodeQueryValue(_ text: String) -> String {
    var out = ""
    let hex = Array("0123456789ABCDEF")
    for b in text.utf8 {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            out.append(Character(Unicode.Scalar(b)))
        default:
            out.append("%")
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0xF)])
        }
    }
    return out
}

extension String {
    /// The string with every `target` replaced by `replacement`.
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
